// The combat roll (combat_roll.cc): every outcome for every defense
// (l.59-64), with fixed dice; and the refusals of a malformed or illegal
// defense. Pools (tests.cc): a strikes with Fighting Style 2 (2 dice) and
// casts with Sorcery 2 (2 dice; a Melee Attack spell: no opportunity attack, l.83); d defends with one die whatever the
// defense (Fighting Style 1, Dodge 1, Focus 1; every attribute 0).
// A 5 or 6 is a Success.
#include <string>

#include "gtest/gtest.h"
#include "kernel/opposed_tests/test_util.h"

namespace combat::kernel::opposed::testutil {
namespace {

fb::RosterT Duel() {
  auto a = Who("a", "x", 5, 5, {{"health", 20}, {"speed", 6}, {"fighting_style", 2}, {"sorcery", 2}},
               {W("club", "1d6", "melee", "medium", {}, "crushing"),
                W("spike", "1d6", "spell", "", {{"attack", 1}, {"mind", 1}, {"melee_attack", 1}}, "psychic"),
                W("bow", "1d6", "ranged", "", {}, "piercing")});
  auto d = Who("d", "y", 6, 5,
               {{"health", 20}, {"speed", 6}, {"fighting_style", 1}, {"dodge", 1}, {"focus", 1}, {"initiative", -5}},
               {W("sword", "1d8", "melee", "medium"), W("shield", "", "shield", "", {{"br", 2}}, "")});
  return Roster({std::move(a), std::move(d)});
}

struct Case {
  const char* defense;
  const char* weapon;
  std::vector<int> dice;  // attack dice (2), defense die (0 or 1)
  const char* rule;       // the outcome's rule
  bool maneuver;          // a critical win
  int64_t lost;           // d's health lost (damage die 4)
};

class CombatRoll : public ::testing::TestWithParam<Case> {};

TEST_P(CombatRoll, Outcome) {
  const Case& k = GetParam();
  Table t(OpposedTests(), Duel(), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  ASSERT_EQ(t.state().active, "a");
  auto atk = std::string(k.weapon) == "spike" ? Cmd("a", "use_magic", {"d"}) : Cmd("a", "strike", {"d"});
  atk.weapon = k.weapon;
  ASSERT_TRUE(t.Submit(atk).ok());
  ASSERT_EQ(t.state().windows.size(), 1u);
  auto def = Cmd("d", "defend");
  def.window = t.state().windows.begin()->first;
  WithText(def, "defense", k.defense);
  if (std::string(k.defense) == "parry") WithText(def, "attribute", "str");
  std::vector<int> dice = k.dice;
  if (!k.maneuver && k.lost > 0) dice.push_back(4);  // the damage die
  auto ev = t.Submit(def, dice);
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_TRUE(Cites(*ev, k.rule)) << k.defense << " " << k.rule;
  if (k.maneuver) {
    ASSERT_EQ(t.state().windows.size(), 2u);
    auto m = Cmd(t.state().windows.rbegin()->second.eligible[0], "maneuver");
    m.window = t.state().windows.rbegin()->first;
    WithText(m, "maneuver", "none");
    ASSERT_TRUE(t.Submit(m, k.lost > 0 ? std::vector<int>{4} : std::vector<int>{}).ok());
  }
  EXPECT_TRUE(t.state().windows.empty());
  EXPECT_TRUE(t.state().pending.size() == 8u) << "only the armed opportunity acts stay";
  EXPECT_EQ(20 - t.state().Find("d")->Resource("health"), k.lost);
  ExpectRulesKnown(t.log());
}

INSTANTIATE_TEST_SUITE_P(
    EveryDefense, CombatRoll,
    ::testing::Values(
        // l.61 "Both pass. Compare Successes:" per defense, l.62-64.
        // Block (l.51, l.62): both pass: blocked, 4 - BR 2 = 2.
        Case{"block", "club", {1, 1, 1}, "003.result.both_fail", false, 0},
        Case{"block", "club", {5, 1, 1}, "003.result.critical", true, 4},
        Case{"block", "club", {1, 1, 6}, "003.result.critical", true, 0},
        Case{"block", "club", {5, 1, 6}, "003.result.block", false, 2},
        Case{"block", "club", {5, 6, 5}, "003.result.block", false, 2},
        // Dodge (l.52, l.63): more attacker Successes hit; a tie misses.
        Case{"dodge", "club", {1, 1, 1}, "003.result.both_fail", false, 0},
        Case{"dodge", "club", {6, 1, 1}, "003.result.critical", true, 4},
        Case{"dodge", "club", {1, 2, 5}, "003.result.critical", true, 0},
        Case{"dodge", "club", {5, 6, 5}, "003.result.dodge", false, 4},
        Case{"dodge", "club", {5, 1, 5}, "003.result.dodge", false, 0},
        // Parry (l.53, l.64).
        Case{"parry", "club", {1, 1, 1}, "003.result.both_fail", false, 0},
        Case{"parry", "club", {6, 1, 1}, "003.result.critical", true, 4},
        Case{"parry", "club", {1, 1, 6}, "003.result.critical", true, 0},
        Case{"parry", "club", {6, 6, 6}, "003.result.parry", false, 4},
        Case{"parry", "club", {1, 6, 6}, "003.result.parry", false, 0},
        // Withstand (l.54) against a mind spell (Sorcery test, l.46).
        Case{"withstand", "spike", {1, 1, 1}, "003.result.both_fail", false, 0},
        Case{"withstand", "spike", {5, 1, 1}, "003.result.critical", true, 4},
        Case{"withstand", "spike", {1, 1, 5}, "003.result.critical", true, 0},
        Case{"withstand", "spike", {5, 5, 5}, "003.result.withstand", false, 4},
        Case{"withstand", "spike", {5, 1, 5}, "003.result.withstand", false, 0},
        // No defense (l.56): automatic failure; no defense die.
        Case{"none", "club", {1, 1}, "003.result.both_fail", false, 0},
        Case{"none", "club", {5, 1}, "003.result.critical", true, 4}));

TEST(CombatRollRefusals, DefenseChoicesTheTextForbids) {
  Table t(OpposedTests(), Duel(), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto shot = Cmd("a", "strike", {"d"});
  shot.weapon = "bow";
  ASSERT_TRUE(t.Submit(shot).ok());
  const uint32_t w = t.state().windows.begin()->first;
  auto def = [&](const std::string& kind, const std::string& attr) {
    auto c = Cmd("d", "defend");
    c.window = w;
    WithText(c, "defense", kind);
    if (!attr.empty()) WithText(c, "attribute", attr);
    return c;
  };
  // Ranged attacks can't be parried (l.53); Withstand only vs the mind (l.54).
  EXPECT_EQ(t.Submit(def("parry", "str")).status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(t.Submit(def("withstand", "")).status().code(), absl::StatusCode::kFailedPrecondition);
  // Malformed: an unknown defense, an unknown parameter, a stray attribute.
  EXPECT_EQ(t.Submit(def("duck", "")).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(t.Submit(def("dodge", "str")).status().code(), absl::StatusCode::kInvalidArgument);
  auto extra = def("dodge", "");
  With(extra, "bonus", 2);
  auto st = t.Submit(extra).status();
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(st.message()).find("bonus"), std::string::npos);
  // Only the target answers its defense window.
  auto other = def("dodge", "");
  other.actor = "a";
  other.author = "a";
  EXPECT_EQ(t.Submit(other).status().code(), absl::StatusCode::kFailedPrecondition);
  // While the window is open nothing else happens (l.55: before the dice).
  EXPECT_EQ(t.Submit(Cmd("a", "end_turn")).status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(t.Submit(def("dodge", ""), {5, 1, 1}).ok());
}

// 003 l.53 "Spells and Ranged attacks can't be parried." The text names a
// thrown attack apart from a ranged one (l.44 "When making a ranged or
// thrown attack"): l.53 forbids parrying the ranged one only, so a thrown
// javelin can be parried (black-box case: it was refused as ranged).
TEST(CombatRoll, AThrownAttackCanBeParried) {
  fb::RosterT r = Duel();
  r.combatants[0]->weapons.push_back(std::make_unique<fb::WeaponT>(
      W("javelin", "1d6", "thrown", "", {}, "piercing")));
  Table t(OpposedTests(), std::move(r), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto s = Cmd("a", "strike", {"d"});
  s.weapon = "javelin";
  auto opened = t.Submit(s);
  ASSERT_TRUE(opened.ok()) << opened.status();
  auto def = Cmd("d", "defend");
  def.window = t.state().windows.begin()->first;
  WithText(def, "defense", "parry");
  WithText(def, "attribute", "str");
  // a: Fighting Style 2 + AGI 0 (thrown: Agility, l.44) = 2 dice: 5,1 = 1
  // Success; d: Fighting Style 1 + STR 0 = 1 die: 5 = 1 Success. Both
  // pass, equal Successes: the attack misses (l.64).
  auto ev = t.Submit(def, {5, 1, 5});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_TRUE(Cites(*ev, "003.result.parry"));
  EXPECT_EQ(t.state().Find("d")->Resource("health"), 20);
  // A bow's shot stays unparriable (l.53).
  Table u(OpposedTests(), Duel(), {6, 1});
  auto b = Cmd("a", "strike", {"d"});
  b.weapon = "bow";
  ASSERT_TRUE(u.Submit(b).ok());
  auto p = Cmd("d", "defend");
  p.window = u.state().windows.begin()->first;
  WithText(p, "defense", "parry");
  EXPECT_EQ(u.Submit(p).status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(CombatRollRefusals, BlockNeedsAShieldAndStrikeNeedsReach) {
  Table t(OpposedTests(), Duel(), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  ASSERT_EQ(t.state().active, "a");
  // The club reaches 1 m (reading: "reach" number, default 1): d at 1 m.
  auto far = Cmd("a", "move");
  far.path.emplace_back(4, 5);
  ASSERT_TRUE(t.Submit(far).ok());  // leaving d's reach provokes (l.82)
  auto pass = Cmd("d", "pass");
  pass.window = t.state().windows.begin()->first;
  ASSERT_TRUE(t.Submit(pass).ok());
  auto club = Cmd("a", "strike", {"d"});
  club.weapon = "club";
  auto st = t.Submit(club).status();
  EXPECT_EQ(st.code(), absl::StatusCode::kFailedPrecondition);  // reach (l.44)
  EXPECT_NE(std::string(st.message()).find("reach"), std::string::npos);
  auto back = Cmd("a", "move");
  back.path.emplace_back(5, 5);
  ASSERT_TRUE(t.Submit(back).ok());  // entering d's reach provokes (l.82)
  pass.window = t.state().windows.begin()->first;
  ASSERT_TRUE(t.Submit(pass).ok());
  ASSERT_TRUE(t.Submit(Cmd("a", "end_turn")).ok());
  auto hit = Cmd("d", "strike", {"a"});
  hit.weapon = "sword";
  ASSERT_TRUE(t.Submit(hit).ok());
  auto block = Cmd("a", "defend");
  block.window = t.state().windows.begin()->first;
  WithText(block, "defense", "block");
  EXPECT_EQ(t.Submit(block).status().code(), absl::StatusCode::kFailedPrecondition);  // l.51
}

// Seed 003 l.44: "make a Fighting Style test against a foe within their
// weapon's reach"; l.46: a spell attack "against a foe". An ally of the
// attacker's side is no foe: the Strike and the attack spell are refused.
TEST(CombatRollRefusals, AStrikeOrAttackSpellIsAgainstAFoeNotAnAlly) {
  auto a = Who("a", "x", 5, 5, {{"health", 20}, {"speed", 6}, {"fighting_style", 2}, {"sorcery", 2}},
               {W("club", "1d6", "melee", "medium", {}, "crushing"),
                W("spike", "1d6", "spell", "", {{"attack", 1}, {"mind", 1}, {"melee_attack", 1}}, "psychic")});
  auto b = Who("b", "x", 6, 5, {{"health", 20}, {"speed", 6}, {"initiative", -5}});
  auto d = Who("d", "y", 5, 6, {{"health", 20}, {"speed", 6}, {"initiative", -5}});
  Table t(OpposedTests(), Roster({std::move(a), std::move(b), std::move(d)}), {6, 1, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  ASSERT_EQ(t.state().active, "a");
  auto ally = Cmd("a", "strike", {"b"});
  ally.weapon = "club";
  auto st = t.Submit(ally).status();
  EXPECT_EQ(st.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(std::string(st.message()).find("foe"), std::string::npos) << st;
  auto spell = Cmd("a", "use_magic", {"b"});
  spell.weapon = "spike";
  st = t.Submit(spell).status();
  EXPECT_EQ(st.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(std::string(st.message()).find("foe"), std::string::npos) << st;
  auto foe = Cmd("a", "strike", {"d"});
  foe.weapon = "club";
  EXPECT_TRUE(t.Submit(foe).ok());
}

// Seed 003 l.93 "Unarmed fighting is included in this as well": the text
// gives an unarmed blow no damage (no number anywhere in l.93-145), so an
// unarmed Strike is made with a natural weapon the roster lists (README row
// 31, 44, GM ruling point). A character listing none that strikes, or makes
// its opportunity attack (l.36, l.81), with a "fist" is refused naming
// `field 'weapon'`, the weapons it has and what to add (black-box case: "a
// has no weapon 'fist'", nothing more); one listing a natural weapon is
// told only what it has.
TEST(CombatRollRefusals, AStrikeUnarmedWithoutANaturalWeaponSaysWhatToAdd) {
  auto a = Who("a", "x", 5, 5, {{"health", 20}, {"speed", 6}, {"fighting_style", 2}},
               {W("club", "1d6", "melee", "medium", {}, "crushing")});
  auto d = Who("d", "y", 6, 5, {{"health", 20}, {"speed", 6}, {"initiative", -5}},
               {W("bite", "1d4", "natural", "", {}, "piercing")});
  Table t(OpposedTests(), Roster({std::move(a), std::move(d)}), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto fist = Cmd("a", "strike", {"d"});
  fist.weapon = "fist";
  auto st = t.Submit(fist).status();
  EXPECT_EQ(st.code(), absl::StatusCode::kNotFound);
  const std::string m(st.message());
  EXPECT_NE(m.find("field 'weapon': a has no weapon 'fist' (its weapons: club)"), std::string::npos) << m;
  EXPECT_NE(m.find("add a natural weapon to a's roster weapons"), std::string::npos) << m;
  EXPECT_NE(m.find("\"kind\": \"natural\""), std::string::npos) << m;
  ASSERT_TRUE(t.Submit(Cmd("a", "end_turn")).ok());
  auto away = Cmd("d", "move");
  ASSERT_TRUE(t.Submit(Path(away, {{7, 5}})).ok());  // leaves a's reach: l.82
  ASSERT_FALSE(t.state().windows.empty());
  auto oa = Cmd("a", "opportunity_attack");
  oa.window = t.state().windows.begin()->first;
  oa.weapon = "fist";
  st = t.Submit(oa).status();
  EXPECT_EQ(st.code(), absl::StatusCode::kNotFound);
  EXPECT_NE(std::string(st.message()).find("add a natural weapon to a's roster weapons"), std::string::npos) << st;
  auto claws = Cmd("d", "strike", {"a"});
  claws.weapon = "claws";
  Table u(OpposedTests(), Roster({Who("d", "y", 6, 5, {{"health", 20}},
                                      {W("bite", "1d4", "natural", "", {}, "piercing")}),
                                  Who("a", "x", 5, 5, {{"health", 20}, {"initiative", -5}})}),
          {6, 1});
  ASSERT_TRUE(u.status().ok()) << u.status();
  st = u.Submit(claws).status();
  EXPECT_EQ(st.code(), absl::StatusCode::kNotFound);
  EXPECT_NE(std::string(st.message()).find("(its weapons: bite)"), std::string::npos) << st;
  EXPECT_EQ(std::string(st.message()).find("add a natural weapon"), std::string::npos) << st;
}

TEST(CombatRollModifiers, UntrainedWeaponAndArmor) {  // l.99, l.100
  auto a = Who("a", "x", 5, 5, {{"health", 20}, {"speed", 6}, {"fighting_style", 3}, {"untrained_armor", 1}},
               {W("pike", "1d6", "melee", "heavy", {{"untrained", 1}, {"reach", 2}}, "piercing")});
  auto d = Who("d", "y", 7, 5, {{"health", 20}, {"speed", 6}, {"dodge", 2}, {"untrained_armor", 1}, {"initiative", -5}},
               {W("sword", "1d8", "melee", "medium")});
  Table t(OpposedTests(), Roster({std::move(a), std::move(d)}), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto s = Cmd("a", "strike", {"d"});
  s.weapon = "pike";  // reach 2 m: d is 2 m away
  ASSERT_TRUE(t.Submit(s).ok());
  auto dodge = Cmd("d", "defend");
  dodge.window = t.state().windows.begin()->first;
  WithText(dodge, "defense", "dodge");
  // Attack: 3 - 2 (untrained weapon) - 1 (bane, untrained armor) = 0 dice:
  // fails without a roll. Dodge: 2 - 1 (bane) = 1 die: 5 passes: the
  // defender's critical win.
  auto ev = t.Submit(dodge, {5});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "attack.modifier"), -2);
  EXPECT_EQ(NumOf(*ev, "attack.banes"), 1);
  EXPECT_EQ(NumOf(*ev, "attack.dice"), 0);
  EXPECT_EQ(NumOf(*ev, "defense.banes"), 1);
  EXPECT_EQ(NumOf(*ev, "defense.dice"), 1);
  EXPECT_TRUE(Cites(*ev, "003.result.critical"));
}

// l.45, l.99: "Using a weapon with which you are untrained in imposes a -2
// penalty to ALL Fighting Style tests": a Block with a trained shield
// while wielding an untrained dagger takes -2 too; a Dodge does not.
TEST(CombatRollModifiers, UntrainedWeaponWieldedPenalisesEveryFightingStyleTest) {
  auto a = Who("a", "x", 5, 5, {{"health", 20}, {"speed", 6}, {"fighting_style", 2}},
               {W("club", "1d6", "melee", "medium", {}, "crushing")});
  auto d = Who("d", "y", 6, 5,
               {{"health", 20}, {"speed", 6}, {"fighting_style", 3}, {"dodge", 1}, {"initiative", -5}},
               {W("dagger", "1d4", "melee", "light", {{"untrained", 1}}, "piercing"),
                W("shield", "", "shield", "", {{"br", 2}}, "")});
  Table t(OpposedTests(), Roster({std::move(a), std::move(d)}), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  // Attack 2 dice (1, 1): fails. Block 3 - 2 = 1 die (1): fails.
  auto ev = Exchange(t, "club", "block", {1, 1, 1});
  EXPECT_EQ(NumOf(ev, "defense.modifier"), -2);
  EXPECT_EQ(NumOf(ev, "defense.dice"), 1);
  ev = Exchange(t, "club", "dodge", {1, 1, 1});
  EXPECT_EQ(NumOf(ev, "defense.modifier", 0), 0);  // not a Fighting Style test
  EXPECT_EQ(NumOf(ev, "defense.dice"), 1);
}

// Seed 003 l.93 "Unarmed fighting is included in this as well"; l.110 lists
// "unarmed fighting" as one piece of the Forest Bandit's gear, and the other
// five styles of l.103-114 lack it; l.99 "Using a weapon with which you are
// untrained in imposes a -2 penalty to all Fighting Style tests". A knight
// untrained in unarmed fighting (its fist `untrained`) striking with its
// trained longsword uses no fist: Fighting Style 2 + STR 1 = 3 dice, no -2
// (black-box case: 1 die, "untrained_weapon=-2 (from fist of a)"). Striking
// with the fist: 3 - 2 = 1 die. d, untrained in unarmed fighting too and
// holding no melee weapon, parries bare-handed: Fighting Style 2 + STR 0 -
// 2 = 0 dice; with its trained sword, or a shield, in hand: 2 dice.
TEST(CombatRollModifiers, AnUntrainedFistCostsOnlyTheUnarmedFightingStyleTests) {
  auto knight = [](bool sword) {
    auto a = Who("a", "x", 5, 5, {{"health", 20}, {"speed", 6}, {"fighting_style", 2}, {"str", 1}},
                 {W("longsword", "1d8", "melee", "medium"),
                  W("fist", "1d2", "natural", "", {{"untrained", 1}}, "crushing")});
    std::vector<fb::WeaponT> gear = {W("fist", "1d2", "natural", "", {{"untrained", 1}}, "crushing")};
    if (sword) gear.push_back(W("sword", "1d8", "melee", "medium"));
    auto d = Who("d", "y", 6, 5,
                 {{"health", 20}, {"speed", 6}, {"fighting_style", 2}, {"dodge", 1}, {"initiative", -5}},
                 std::move(gear));
    return Roster({std::move(a), std::move(d)});
  };
  Table t(OpposedTests(), knight(false), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto ev = Exchange(t, "longsword", "dodge", {1, 1, 1, 1});  // 3 attack dice, 1 Dodge die
  EXPECT_EQ(NumOf(ev, "attack.modifier", 0), 0);
  EXPECT_EQ(NumOf(ev, "attack.dice"), 3);
  ev = Exchange(t, "fist", "parry", {1});  // 1 attack die, the Parry none
  EXPECT_EQ(NumOf(ev, "attack.modifier"), -2);
  EXPECT_EQ(Number(ev, "attack.untrained_weapon").source, "fist of a");
  EXPECT_EQ(NumOf(ev, "attack.dice"), 1);
  EXPECT_EQ(NumOf(ev, "defense.modifier"), -2);
  EXPECT_EQ(NumOf(ev, "defense.dice"), 0);
  Table armed(OpposedTests(), knight(true), {6, 1});
  ASSERT_TRUE(armed.status().ok()) << armed.status();
  ev = Exchange(armed, "longsword", "parry", {1, 1, 1, 1, 1});  // 3 attack dice, 2 Parry dice
  EXPECT_EQ(NumOf(ev, "defense.modifier", 0), 0);
  EXPECT_EQ(NumOf(ev, "defense.dice"), 2);
  // With only a shield in hand the Parry is not bare-handed either: 2 dice.
  auto shielded = knight(false);
  shielded.combatants[1]->weapons.push_back(std::make_unique<fb::WeaponT>(W("shield", "", "shield", "", {{"br", 2}}, "")));
  Table shield(OpposedTests(), std::move(shielded), {6, 1});
  ASSERT_TRUE(shield.status().ok()) << shield.status();
  ev = Exchange(shield, "longsword", "parry", {1, 1, 1, 1, 1});
  EXPECT_EQ(NumOf(ev, "defense.dice"), 2);
}

// Seed 003 l.53: "Parry. The defender makes a Fighting Style test using
// either Strength or Agility" names no weapon, and l.55 leaves the manner of
// defense to the defender; l.99: "Using a weapon with which you are
// untrained in imposes a -2 penalty". A bare-handed defender with an
// untrained fist listed before a trained bite parries with the bite, its
// best: Fighting Style 2 + STR 0 = 2 dice, no -2 (black-box case: the first
// listed natural weapon decided, the fist, 0 dice). Only untrained natural
// weapons: -2 still.
TEST(CombatRollModifiers, ABareHandedParryUsesATrainedNaturalWeapon) {
  auto beast = [](bool bite_trained) {
    auto a = Who("a", "x", 5, 5, {{"health", 20}, {"speed", 6}, {"fighting_style", 2}, {"str", 1}},
                 {W("longsword", "1d8", "melee", "medium")});
    Stats bite;
    if (!bite_trained) bite = {{"untrained", 1}};
    auto d = Who("d", "y", 6, 5,
                 {{"health", 20}, {"speed", 6}, {"fighting_style", 2}, {"initiative", -5}},
                 {W("fist", "1d2", "natural", "", {{"untrained", 1}}, "crushing"),
                  W("bite", "1d4", "natural", "", bite, "piercing")});
    return Roster({std::move(a), std::move(d)});
  };
  Table t(OpposedTests(), beast(true), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto ev = Exchange(t, "longsword", "parry", {1, 1, 1, 1, 1});  // 3 attack dice, 2 Parry dice
  EXPECT_EQ(NumOf(ev, "defense.modifier", 0), 0);
  EXPECT_EQ(NumOf(ev, "defense.dice"), 2);
  Table u(OpposedTests(), beast(false), {6, 1});
  ASSERT_TRUE(u.status().ok()) << u.status();
  ev = Exchange(u, "longsword", "parry", {1, 1, 1});  // 3 attack dice, the Parry none
  EXPECT_EQ(NumOf(ev, "defense.modifier"), -2);
  EXPECT_EQ(NumOf(ev, "defense.dice"), 0);
}

// Seed 003 l.45: "wielding a weapons or armor not included in your Fighting
// Style imposes a -2 penalty to all Fighting Style tests"; l.100: "Using
// armor with which you are untrained in imposes bane to all Fighting Style,
// Dodge, and Sorcery tests". The text gives both for armor: untrained
// armor with trained weapons costs a Fighting Style test 2 dice and a bane,
// a Dodge test only the bane. (It used to take the bane only.)
TEST(CombatRollModifiers, UntrainedArmorGivesTheMinusTwoAndTheBaneToFightingStyleTests) {
  auto a = Who("a", "x", 5, 5, {{"health", 20}, {"speed", 6}, {"fighting_style", 4}, {"untrained_armor", 1}},
               {W("club", "1d6", "melee", "medium", {}, "crushing")});
  auto d = Who("d", "y", 6, 5,
               {{"health", 20}, {"speed", 6}, {"fighting_style", 4}, {"dodge", 3},
                {"untrained_armor", 1}, {"initiative", -5}},
               {W("shield", "", "shield", "", {{"br", 2}}, "")});
  Table t(OpposedTests(), Roster({std::move(a), std::move(d)}), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  // Attack: Fighting Style 4 + STR 0 - 2 (l.45) - 1 (bane, l.100) = 1 die
  // (1): fails. Block: 4 + 0 - 2 - 1 = 1 die (1): fails. Both fail (l.59).
  auto ev = Exchange(t, "club", "block", {1, 1});
  EXPECT_EQ(NumOf(ev, "attack.modifier"), -2);
  EXPECT_EQ(NumOf(ev, "attack.banes"), 1);
  EXPECT_EQ(NumOf(ev, "attack.dice"), 1);
  EXPECT_EQ(NumOf(ev, "defense.modifier"), -2);
  EXPECT_EQ(NumOf(ev, "defense.banes"), 1);
  EXPECT_EQ(NumOf(ev, "defense.dice"), 1);
  EXPECT_TRUE(Cites(ev, "003.result.both_fail"));
  // Dodge: 3 + AGI 0 - 1 (bane) = 2 dice (1, 1): no -2, not a Fighting
  // Style test.
  ev = Exchange(t, "club", "dodge", {1, 1, 1});
  EXPECT_EQ(NumOf(ev, "defense.modifier", 0), 0);
  EXPECT_EQ(NumOf(ev, "defense.banes"), 1);
  EXPECT_EQ(NumOf(ev, "defense.dice"), 2);
}

// l.53 "using either Strength or Agility": unsaid, the program takes the
// defender's higher attribute (AGI 2 > STR 0); both-fail leaves both
// sides' AP spent (l.59 "The committed AP is spent").
TEST(CombatRoll, ParryWithoutAnAttributeUsesTheHigherAndBothFailSpendBothAp) {
  auto a = Who("a", "x", 5, 5, {{"health", 20}, {"speed", 6}, {"fighting_style", 1}},
               {W("club", "1d6", "melee", "medium", {}, "crushing")});
  auto d = Who("d", "y", 6, 5, {{"health", 20}, {"speed", 6}, {"fighting_style", 1}, {"agi", 2}, {"initiative", -5}},
               {W("sword", "1d8", "melee", "medium")});
  Table t(OpposedTests(), Roster({std::move(a), std::move(d)}), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto s = Cmd("a", "strike", {"d"});
  s.weapon = "club";
  ASSERT_TRUE(t.Submit(s).ok());
  auto parry = Cmd("d", "defend");
  parry.window = t.state().windows.begin()->first;
  WithText(parry, "defense", "parry");
  auto ev = t.Submit(parry, {1, 1, 2, 3});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "defense.agi"), 2);
  EXPECT_EQ(NumOf(*ev, "defense.dice"), 3);
  EXPECT_TRUE(Cites(*ev, "003.result.both_fail"));
  EXPECT_EQ(t.state().Find("a")->Resource("ap"), 2);
  EXPECT_EQ(t.state().Find("d")->Resource("ap"), 2);
  EXPECT_EQ(t.state().Find("d")->Resource("health"), 20);
}

// l.50 "if it is aware of it", l.56: an unaware target gets no defense
// window; its defense fails automatically: 5 on the attack is a critical
// win. Unaware by the GM's condition, then aware again.
TEST(CombatRoll, AnUnawareTargetCannotDefend) {
  Table t(OpposedTests(), Duel(), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto unaware = Gm("gm_condition", "d", "it never saw her coming");
  WithText(unaware, "name", "Unaware");
  WithText(unaware, "op", "add");
  ASSERT_TRUE(t.Submit(unaware).ok());
  auto s = Cmd("a", "strike", {"d"});
  s.weapon = "club";
  auto ev = t.Submit(s, {5, 1});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_TRUE(Cites(*ev, "003.defend"));  // l.50, not l.56: d decided nothing
  EXPECT_FALSE(Cites(*ev, "003.defend.none"));
  EXPECT_TRUE(Cites(*ev, "003.result.critical"));
  EXPECT_EQ(t.state().windows.rbegin()->second.kind, "maneuver");
  EXPECT_EQ(t.state().Find("d")->Resource("ap"), 3);  // no reaction spent
}

// Seed 003 l.116 "knocked unconscious"; l.58 "Now the attacker and
// defender each roll their test": an attacker the GM knocks out (Health 0)
// while its Strike waits for the defense makes no test: the attack ends
// untested, cancelled, at once on the ruling, as a held move or cast of a
// character knocked out does (README row 116), its AP and its Attack
// (l.48) spent, d neither asked nor rolling nor paying, and a's turn ends
// (l.12): d's Dodge is refused, no window being open. Black-box cases: the
// unconscious a rolled its 2 dice, 5,6, against d's failed Dodge: a
// critical win, damage and a maneuver window for the unconscious a; then
// the window waited for d's answer, which could change nothing, and a's
// turn with it.
TEST(CombatRoll, AnAttackerKnockedOutBeforeTheDefenseMakesNoTest) {
  Table t(OpposedTests(), Duel(), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  ASSERT_NO_FATAL_FAILURE(AStrikesD(t, "club"));
  const uint32_t wid = t.state().windows.begin()->first;
  auto ev = t.Submit(KnockOut("a"));  // no dice given: none is rolled
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_TRUE(t.state().windows.empty());
  EXPECT_TRUE(Cites(*ev, "003.health"));
  EXPECT_FALSE(Cites(*ev, "003.result.critical"));
  EXPECT_EQ(NumOf(*ev, "attack.dice"), -999);
  EXPECT_EQ(t.state().Find("d")->Resource("ap"), 3);
  EXPECT_EQ(t.state().Find("d")->Resource("health"), 20);
  EXPECT_EQ(t.state().Find("a")->Resource("attacks"), 1);
  EXPECT_EQ(t.state().active, "d");
  auto dodge = Cmd("d", "defend");
  dodge.window = wid;
  WithText(dodge, "defense", "dodge");
  EXPECT_FALSE(t.Submit(dodge).ok());
}

// Seed 003 l.116 "knocked unconscious"; l.50, l.58 "Remember that if the
// defender didn't defend, they automatically fail their test"; l.60 "One
// fails, the other passes. A critical win! ... The winner can also perform
// a maneuver". The GM rules d Unconscious (gm_condition, Health kept at
// 20) while a's club Strike waits for d's defense: d cannot defend any
// more, so the system answers `none` for it at once and the combat roll
// resolves on the ruling. By hand: a's Fighting Style 2 dice, 5 and 1: 1
// Success, passes; d fails automatically (cannot_defend, d unconscious):
// a critical win for a, whose maneuver window opens nested in the defense
// window. a trips: d's Acrobatics fails automatically (unconscious, l.116
// reading), Prone; club 1d6 = 4: d 20 - 4 = 16. Black-box case: the
// window waited for d's answer until the GM answered `none` for it.
TEST(CombatRoll, ADefenderKnockedOutWhileItsWindowIsOpenFailsAtOnce) {
  Table t(OpposedTests(), Duel(), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  ASSERT_NO_FATAL_FAILURE(AStrikesD(t, "club"));
  const uint32_t defense = t.state().windows.begin()->first;
  auto down = Gm("gm_condition", "d", "a falling beam");
  WithText(down, "name", "Unconscious");
  WithText(down, "op", "add");
  auto ev = t.Submit(down, {5, 1});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "defense.cannot_defend"), 1);
  EXPECT_TRUE(Cites(*ev, "003.result.critical"));
  ASSERT_EQ(t.state().windows.size(), 2u);
  const Window& m = t.state().windows.rbegin()->second;
  EXPECT_EQ(m.kind, "maneuver");
  EXPECT_EQ(m.parent, defense);
  EXPECT_EQ(m.eligible, (std::vector<std::string>{"a"}));
  EXPECT_EQ(t.state().Find("d")->Resource("ap"), 3);  // no Defend AP
  auto trip = Cmd("a", "maneuver");
  trip.window = m.id;
  WithText(trip, "maneuver", "trip");
  auto done = t.Submit(trip, {4});  // no Acrobatics die; the club's damage
  ASSERT_TRUE(done.ok()) << done.status();
  EXPECT_TRUE(t.state().windows.empty());
  EXPECT_TRUE(t.state().Find("d")->Has("Prone"));
  EXPECT_EQ(t.state().Find("d")->Resource("health"), 16);
  EXPECT_EQ(t.state().active, "a");
}

// Seed 003 l.24 "A character can use up to 3 AP per round ... actions and
// reactions", l.34 Defend is a reaction; l.58 "if the defender didn't
// defend, they automatically fail their test". The GM sets d's AP to 0
// while a's Strike waits for d's defense: d can no longer pay for a
// defense, its only answer is `none`, so the system gives it at once, as
// for a defender knocked out (l.116): d cannot defend (without AP for a
// reaction, 003.reaction). By hand: a's 2 dice 1,1: no Success, fails; d
// fails automatically: both fail (l.59), nothing happens. Black-box case:
// the window waited for d's `none`, the only answer d could give.
TEST(CombatRoll, ADefenderLeftWithoutApWhileItsWindowIsOpenFailsAtOnce) {
  Table t(OpposedTests(), Duel(), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  ASSERT_NO_FATAL_FAILURE(AStrikesD(t, "club"));
  auto broke = Gm("gm_set", "d", "spent in the scramble");
  WithText(broke, "resource", "ap");
  With(broke, "value", 0);
  auto ev = t.Submit(broke, {1, 1});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_TRUE(t.state().windows.empty());
  const Seen why = Number(*ev, "defense.cannot_defend");
  EXPECT_EQ(why.value, 1);
  EXPECT_EQ(why.source, "d without AP for a reaction");
  EXPECT_EQ(why.rule, "003.reaction");
  EXPECT_TRUE(Cites(*ev, "003.result.both_fail"));
  EXPECT_EQ(t.state().Find("d")->Resource("health"), 20);
  EXPECT_EQ(t.state().active, "a");
}

// Seed 003 l.43: "The active character attacks a creature within its
// range" (a ranged weapon's range: its range increment in metres, the
// README's reading); l.71 Precision: "the damage die is maximized"; l.121
// piercing is physical, so l.142's AR takes 5 off it; l.137 only the highest
// resistance and the most severe vulnerability count. Hand computation:
// the bow reaches exactly 20 m; 21 m is refused. Fighting Style 1 + AGI 2
// = 3 dice (5,1,1): 1 Success, the target's Dodge 0 dice fails: a critical
// win; Precision: 2d6+2 maximized = 14; 14 - AR 5 - Piercing Resistance 1
// + the more severe of Piercing Vulnerability 2 and Physical Vulnerability 4
// = 12; Health 30 -> 18.
TEST(CombatRoll, ABowReachesExactlyItsRangeAndPrecisionMaximizesItsDice) {
  auto bow = W("bow", "2d6+2", "ranged", "", {}, "piercing");
  bow.range_increment = 20;
  Table t(OpposedTests(),
          Roster({Who("a", "x", 1, 5, {{"health", 10}, {"speed", 6}, {"fighting_style", 1}, {"agi", 2}, {"str", 3}},
                      {bow}),
                  Who("d", "y", 22, 5,
                      {{"health", 30}, {"speed", 6}, {"ar", 5}, {"resist.piercing", 1}, {"vuln.piercing", 2},
                       {"vuln.physical", 4}, {"initiative", -5}})},
                 30, 10),
          {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto shot = Cmd("a", "strike", {"d"});
  shot.weapon = "bow";
  auto st = t.Submit(shot).status();  // 21 m
  EXPECT_EQ(st.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(std::string(st.message()).find("range of 20 m"), std::string::npos) << st;
  auto closer = Gm("gm_move", "d");
  Path(closer, {{21, 5}});
  ASSERT_TRUE(t.Submit(closer).ok());
  ASSERT_TRUE(t.Submit(shot).ok());  // 20 m: within range
  auto dodge = Cmd("d", "defend");
  dodge.window = t.state().windows.begin()->first;
  WithText(dodge, "defense", "dodge");
  auto ev = t.Submit(dodge, {5, 1, 1});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "attack.dice"), 3);
  auto precision = Cmd("a", "maneuver");
  precision.window = t.state().windows.rbegin()->first;
  WithText(precision, "maneuver", "precision");
  ev = t.Submit(precision);
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "rolled"), 14);
  EXPECT_EQ(NumOf(*ev, "dealt"), 12);
  EXPECT_EQ(t.state().Find("d")->Resource("health"), 18);
}

TEST(CombatRollRefusals, RangedMustUseAgilityAndThirdAttackRefused) {  // l.44, l.48
  Table t(OpposedTests(), Duel(), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto shot = Cmd("a", "strike", {"d"});
  shot.weapon = "bow";
  WithText(shot, "attribute", "str");
  EXPECT_EQ(t.Submit(shot).status().code(), absl::StatusCode::kFailedPrecondition);
  auto bad = Cmd("a", "strike", {"d"});
  bad.weapon = "bow";
  WithText(bad, "attribute", "luck");
  EXPECT_EQ(t.Submit(bad).status().code(), absl::StatusCode::kInvalidArgument);
  auto nobody = Cmd("a", "strike", {"zed"});
  nobody.weapon = "club";
  EXPECT_EQ(t.Submit(nobody).status().code(), absl::StatusCode::kNotFound);
  auto noweapon = Cmd("a", "strike", {"d"});
  EXPECT_EQ(t.Submit(noweapon).status().code(), absl::StatusCode::kInvalidArgument);
  const size_t before = t.log().size();
  for (int i = 0; i < 2; ++i) {
    auto c = Cmd("a", "strike", {"d"});
    c.weapon = "club";
    ASSERT_TRUE(t.Submit(c).ok());
    auto none = Cmd("d", "defend");
    none.window = t.state().windows.begin()->first;
    WithText(none, "defense", "none");
    ASSERT_TRUE(t.Submit(none, {1, 1}).ok());
  }
  EXPECT_GT(t.log().size(), before);
  auto third = Cmd("a", "strike", {"d"});
  third.weapon = "club";
  const size_t n = t.log().size();
  auto st = t.Submit(third).status();
  EXPECT_EQ(st.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(std::string(st.message()).find("What is an Attack?, l.48"), std::string::npos) << st;
  EXPECT_EQ(t.log().size(), n);  // nothing written
  // A free action (l.39) costs no AP but an Attack spell is still an
  // Attack: the third is refused all the same.
  auto spell = Cmd("a", "use_magic", {"d"});
  spell.weapon = "spike";
  With(spell, "free", 1);
  st = t.Submit(spell).status();
  EXPECT_EQ(st.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(std::string(st.message()).find("l.48"), std::string::npos) << st;
}

}  // namespace
}  // namespace combat::kernel::opposed::testutil
