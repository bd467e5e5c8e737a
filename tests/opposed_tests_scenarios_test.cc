// Scenarios for the opposed_tests ruleset (seed 003), played through the
// engine into a real RocksDB with fixed dice. Every number cites the seed
// line it comes from (003_ddd5865ba645a58b.txt, "l.N").
//
// The test mechanics (kernel/opposed_tests/tests.cc, README): a pool of d6,
// one per point of skill and governing attribute; 5 or 6 is a Success; one
// Success passes; a boon adds a die, a bane removes one.
//
// aria (player character): Fighting Style 2, STR 1, AGI 1, Dodge 1, Focus
//   1, WIL 1, Initiative 2, Health 12, Speed 6, AR 2; sword 1d8 slashing,
//   shield BR 4.  Strike pool 2+1 = 3; Block 2+1 = 3; Dodge 1+1 = 2;
//   Parry (AGI) 2+1 = 3; Withstand (Focus) 1+1 = 2.
// orc (NPC, large: size_class 3): Fighting Style 2, STR 2, AGI 1, Dodge 1,
//   PER 1, Health 30, Speed 6, AR 1; axe 1d10 slashing, heavy.
//   Strike 2+2 = 4; Dodge 1+1 = 2; Parry (STR) 2+2 = 4.
// mage (NPC): Sorcery 2, WIL 2, PER 0, Health 8, Speed 6; firebolt 2d6
//   fire (Attack spell, range 20), dread 1d6 psychic (Attack, mind).
//   Spell attack pool 2+2 = 4; Dodge 0.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernel/command.h"
#include "kernel/opposed_tests/internal.h"
#include "kernel/opposed_tests/ruleset.h"
#include "kernel/refusal.h"
#include "kernel/state.h"
#include "kernel/testing/events.h"
#include "tests/scenario.h"

namespace combat::tests {
namespace {

using kernel::Combatant;

using Numbers = std::vector<std::pair<std::string, int64_t>>;

fb::WeaponT Weapon(const std::string& name, const std::string& dmg, const std::string& kind,
                   const std::string& category, const std::string& type, Numbers numbers) {
  fb::WeaponT w = MakeWeapon(name, dmg, kind, category);
  w.damage_type = type;
  for (auto& [k, v] : numbers) {
    auto n = std::make_unique<fb::NumberT>();
    n->key = k;
    n->value = v;
    w.numbers.push_back(std::move(n));
  }
  return w;
}

void Add(fb::CombatantSpecT& c, fb::WeaponT w) {
  c.weapons.push_back(std::make_unique<fb::WeaponT>(std::move(w)));
}

fb::CombatantSpecT Aria(int x, int y) {
  auto c = Creature("aria", "party", x, y,
                    {{"fighting_style", 2}, {"str", 1}, {"agi", 1}, {"dodge", 1}, {"focus", 1},
                     {"wil", 1}, {"initiative", 2}, {"health", 12}, {"speed", 6}, {"ar", 2}});
  Add(c, Weapon("sword", "1d8", "melee", "medium", "slashing", {}));
  Add(c, Weapon("shield", "", "shield", "", "", {{"br", 4}}));
  return c;
}

fb::CombatantSpecT Orc(int x, int y, bool sneaking = false) {
  auto c = Creature("orc", "orcs", x, y,
                    {{"fighting_style", 2}, {"str", 2}, {"agi", 1}, {"dodge", 1}, {"per", 1},
                     {"stealth", 1}, {"health", 30}, {"speed", 6}, {"ar", 1}, {"size_class", 3}});
  c.tags = {"npc"};
  if (sneaking) c.tags.push_back("sneaking");
  Add(c, Weapon("axe", "1d10", "melee", "heavy", "slashing", {}));
  return c;
}

fb::CombatantSpecT Mage(int x, int y) {
  auto c = Creature("mage", "orcs", x, y,
                    {{"sorcery", 2}, {"wil", 2}, {"per", 0}, {"health", 8}, {"speed", 6}});
  c.tags = {"npc"};
  auto bolt = Weapon("firebolt", "2d6", "spell", "", "fire", {{"attack", 1}});
  bolt.range_increment = 20;
  Add(c, std::move(bolt));
  auto dread = Weapon("dread", "1d6", "spell", "", "psychic", {{"attack", 1}, {"mind", 1}});
  dread.range_increment = 20;
  Add(c, std::move(dread));
  return c;
}

fb::RosterT Roster(std::vector<fb::CombatantSpecT> cs) {
  return MakeRoster("opposed_tests", std::move(cs), 20, 20);
}

fb::CommandT Strike(const std::string& who, const std::string& target, const std::string& weapon) {
  auto c = Cmd(who, "strike", {target});
  c.weapon = weapon;
  return c;
}

fb::CommandT Defend(const Scenario& s, const std::string& who, const std::string& defense,
                    const std::string& attr = "") {
  auto c = Cmd(who, "defend");
  c.window = s.state().windows.rbegin()->first;
  WithText(c, "defense", defense);
  if (!attr.empty()) WithText(c, "attribute", attr);
  return c;
}

fb::CommandT Answer(const Scenario& s, const std::string& who, const std::string& action) {
  auto c = Cmd(who, action);
  c.window = s.state().windows.rbegin()->first;
  return c;
}

fb::CommandT Maneuver(const Scenario& s, const std::string& who, const std::string& m) {
  auto c = Answer(s, who, "maneuver");
  WithText(c, "maneuver", m);
  return c;
}

std::string LastWindowKind(const Scenario& s) {
  return s.state().windows.empty() ? "" : s.state().windows.rbegin()->second.kind;
}

int64_t Num(const std::vector<events::EventBuffer>& events, const std::string& key) {
  int64_t v = -999;
  for (const auto& e : events) {
    if (e.event().body_type() != fb::Body::StateChange) continue;
    const auto* nums = e.event().body_as_StateChange()->numbers();
    if (nums == nullptr) continue;
    for (const auto* n : *nums) {
      if (n->key()->str() == key) v = n->value();
    }
  }
  return v;
}

bool Cites(const std::vector<events::EventBuffer>& events, const std::string& rule) {
  for (const auto& e : events) {
    if (e.event().body_type() != fb::Body::StateChange) continue;
    const auto* r = e.event().body_as_StateChange()->rule();
    if (r != nullptr && r->str() == rule) return true;
  }
  return false;
}

// Every state change cites a rule of the ruleset's table (an audit is a read).
void ExpectRulesKnown(const Scenario& s) {
  for (const auto& e : s.log()) {
    if (e.event().body_type() != fb::Body::StateChange) continue;
    const auto* r = e.event().body_as_StateChange()->rule();
    const std::string rule = r == nullptr ? "" : r->str();
    if (rule == "session.start") continue;
    EXPECT_NE(kernel::FindRule(kernel::opposed::RuleTable(), rule), nullptr)
        << "seq " << e.event().seq() << " cites unknown rule '" << rule << "'";
  }
}

int64_t Hp(const Scenario& s, const std::string& who) {
  return s.state().Find(who)->Resource("health");
}
int64_t Ap(const Scenario& s, const std::string& who) {
  return s.state().Find(who)->Resource("ap");
}

// Every modifier the scenario's numbers hold names its source or rule
// (issue 16; the keys: opposed::IsModifier).
void ExpectSourced(const Scenario& s) {
  EXPECT_EQ(kernel::testing::UnsourcedModifiers(s.log(), kernel::opposed::OpposedTests().Rules(),
                                                kernel::opposed::IsModifier),
            std::vector<std::string>{});
}

// Two rounds of aria against the orc: Dodge (hit), Parry (tie: miss), the
// two-attacks limit, Block (BR), no defense (both fail), a critical win
// with a Trip against a larger foe, a defender's critical win with Brace.
TEST(OpposedTestsScenario, DuelEveryDefense) {
  // Initiative (l.10): aria 1d6 4 + Initiative 2 = 6; orc (NPC) 2 + PER 1 = 3.
  Scenario s(Roster({Aria(5, 5), Orc(6, 5)}), {4, 2});
  ASSERT_TRUE(s.status().ok()) << s.status();
  EXPECT_EQ(s.state().Find("aria")->Resource("initiative"), 6);
  EXPECT_EQ(s.state().Find("orc")->Resource("initiative"), 3);
  EXPECT_EQ(s.state().active, "aria");  // highest first, l.11
  EXPECT_EQ(Ap(s, "aria"), 3);          // l.11
  EXPECT_EQ(Ap(s, "orc"), 3);

  // Strike 1: the defense is chosen before any dice (l.55): a window.
  auto ev = s.Submit(Strike("aria", "orc", "sword"));
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(LastWindowKind(s), "defense");
  EXPECT_EQ(Num(*ev, "d1"), -999);  // no roll yet
  EXPECT_EQ(Ap(s, "aria"), 2);
  // Dodge: aria 3 dice 5,6,1 = 2 Successes; orc 2 dice 5,1 = 1: both pass,
  // more attacker Successes: hit (l.63). Damage 7 - AR 1 = 6 (l.142).
  ev = s.Submit(Defend(s, "orc", "dodge"), {5, 6, 1, 5, 1, 7});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_TRUE(Cites(*ev, "003.result.dodge"));
  EXPECT_EQ(Num(*ev, "attack.successes"), 2);
  EXPECT_EQ(Num(*ev, "defense.successes"), 1);
  EXPECT_EQ(Hp(s, "orc"), 30 - 6);
  EXPECT_EQ(Ap(s, "orc"), 2);  // Defend is a reaction: 1 AP (l.24, l.34)
  EXPECT_TRUE(s.state().windows.empty());

  // Strike 2: Parry with STR: aria 5,1,1 = 1 Success; orc 4 dice 6,1,1,1 =
  // 1: not more Successes: miss (l.64).
  ASSERT_TRUE(s.Submit(Strike("aria", "orc", "sword")).ok());
  ev = s.Submit(Defend(s, "orc", "parry", "str"), {5, 1, 1, 6, 1, 1, 1});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_TRUE(Cites(*ev, "003.result.parry"));
  EXPECT_EQ(Hp(s, "orc"), 24);
  EXPECT_EQ(Ap(s, "aria"), 1);

  // A third attack this round is refused: two Attacks per round (l.48, l.18).
  auto third = s.Submit(Strike("aria", "orc", "sword"));
  EXPECT_EQ(third.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(std::string(third.status().message()).find("l.48"), std::string::npos);
  EXPECT_EQ(Ap(s, "aria"), 1);  // nothing written

  ASSERT_TRUE(s.Submit(Cmd("aria", "end_turn")).ok());
  EXPECT_EQ(s.state().active, "orc");
  // The orc strikes; aria Blocks: orc 6,1,1,1 = 1; aria 5,1,1 = 1: both pass:
  // blocked regardless of Successes (l.62); damage 9 - AR 2 - BR 4 = 3
  // (l.142, l.145).
  ASSERT_TRUE(s.Submit(Strike("orc", "aria", "axe")).ok());
  ev = s.Submit(Defend(s, "aria", "block"), {6, 1, 1, 1, 5, 1, 1, 9});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_TRUE(Cites(*ev, "003.result.block"));
  EXPECT_EQ(Num(*ev, "block_reduction"), 4);
  EXPECT_EQ(Hp(s, "aria"), 12 - 3);
  EXPECT_EQ(Ap(s, "aria"), 0);
  EXPECT_EQ(Ap(s, "orc"), 0);  // 3 - Dodge - Parry - Strike
  // No AP left for another action (l.24): refused, nothing written.
  EXPECT_EQ(s.Submit(Strike("orc", "aria", "axe")).status().code(),
            absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(s.Submit(Cmd("orc", "end_turn")).ok());

  // Round 2: AP back to 3, the attack count to 0 (l.11, l.19).
  EXPECT_EQ(s.state().round, 2);
  EXPECT_EQ(Ap(s, "aria"), 3);
  EXPECT_EQ(s.state().Find("aria")->Resource("attacks"), 0);
  // No defense chosen: automatic failure (l.56); aria 1,1,1 fails too:
  // both fail, the AP is spent and nothing happens (l.59).
  ASSERT_TRUE(s.Submit(Strike("aria", "orc", "sword")).ok());
  ev = s.Submit(Defend(s, "orc", "none"), {1, 1, 1});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_TRUE(Cites(*ev, "003.result.both_fail"));
  EXPECT_EQ(Ap(s, "orc"), 3);  // not defending costs nothing
  EXPECT_EQ(Ap(s, "aria"), 2);
  // Critical win (l.60): aria 6,1,1 passes, orc's Dodge 1,1 fails: a
  // maneuver window opens nested in the defense window before damage.
  ASSERT_TRUE(s.Submit(Strike("aria", "orc", "sword")).ok());
  ev = s.Submit(Defend(s, "orc", "dodge"), {6, 1, 1, 1, 1});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_TRUE(Cites(*ev, "003.result.critical"));
  ASSERT_EQ(s.state().windows.size(), 2u);
  EXPECT_EQ(LastWindowKind(s), "maneuver");
  EXPECT_EQ(s.state().windows.rbegin()->second.parent, s.state().windows.begin()->first);
  // Trip (l.73) against a foe one size larger: its Acrobatics test gains a
  // boon (l.76): 0 + AGI 1 + 1 = 2 dice, 2,3: fails: Prone. Damage 5 - 1 = 4.
  ev = s.Submit(Maneuver(s, "aria", "trip"), {2, 3, 5});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(Num(*ev, "size_difference"), 1);
  EXPECT_EQ(Num(*ev, "boons"), 1);
  EXPECT_EQ(Num(*ev, "dice"), 2);
  EXPECT_TRUE(s.state().Find("orc")->Has("Prone"));
  EXPECT_EQ(Hp(s, "orc"), 24 - 4);
  EXPECT_TRUE(s.state().windows.empty());
  ASSERT_TRUE(s.Submit(Cmd("aria", "end_turn")).ok());

  // The orc strikes; aria Parries with AGI (3 dice 5,1,1) while the orc
  // fails (1,1,1,1): the defender's critical win negates the attack and
  // she may maneuver (l.60): Brace, a boon on her next Defense test (l.68).
  ASSERT_TRUE(s.Submit(Strike("orc", "aria", "axe")).ok());
  ev = s.Submit(Defend(s, "aria", "parry", "agi"), {1, 1, 1, 1, 5, 1, 1});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(LastWindowKind(s), "maneuver");
  // Precision is only for a Strike that hits (l.71).
  EXPECT_EQ(s.Submit(Maneuver(s, "aria", "precision")).status().code(),
            absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(s.Submit(Maneuver(s, "aria", "brace")).ok());
  EXPECT_EQ(Hp(s, "aria"), 9);
  EXPECT_TRUE(s.state().Find("aria")->Has("Braced"));
  EXPECT_EQ(Ap(s, "aria"), 0);  // two Strikes and a Parry
  // The orc strikes again: aria has no AP to Defend, so no window: her
  // defense automatically fails (l.58), cited as the reaction's AP (l.24),
  // not as a choice not to defend (l.56); the orc's 1,1,1,1 fails too: both
  // fail, nothing happens (l.59). That automatic failure is her defense
  // test (l.56, l.58 "their test"), the next one after the Brace (l.68):
  // it uses the boon, to no avail.
  ev = s.Submit(Strike("orc", "aria", "axe"), {1, 1, 1, 1});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_TRUE(s.state().windows.empty());
  EXPECT_TRUE(Cites(*ev, "003.reaction"));
  EXPECT_FALSE(Cites(*ev, "003.defend.none"));
  EXPECT_TRUE(Cites(*ev, "003.result.both_fail"));
  EXPECT_EQ(Hp(s, "aria"), 9);
  EXPECT_EQ(Num(*ev, "defense.braced"), 1);
  EXPECT_FALSE(s.state().Find("aria")->Has("Braced"));  // used by the defense not made
  ASSERT_TRUE(s.Submit(Cmd("orc", "end_turn")).ok());
  // Round 3: the orc stands up from Prone; standing provokes (l.84) but
  // first aria's turn: she ends it, keeping her AP for reactions.
  ASSERT_TRUE(s.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(s.Submit(Cmd("orc", "stand")).ok());
  EXPECT_EQ(LastWindowKind(s), "opportunity");
  auto oa = Answer(s, "aria", "opportunity_attack");
  oa.weapon = "sword";
  ASSERT_TRUE(s.Submit(oa).ok());
  // The orc Dodges 5,1; aria 5,6,1 = 2: hit (l.63); 8 - 1 = 7.
  ev = s.Submit(Defend(s, "orc", "dodge"), {5, 6, 1, 5, 1, 8});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(Hp(s, "orc"), 20 - 7);
  EXPECT_FALSE(s.state().Find("orc")->Has("Prone"));  // then it stands
  // The Brace is spent: her Dodge is 1 + 1 = 2 dice, no boon; orc 5,1,1,1
  // = 1, aria 6,5 = 2: both pass, 1 vs 2: miss (l.63).
  ASSERT_TRUE(s.Submit(Strike("orc", "aria", "axe")).ok());
  ev = s.Submit(Defend(s, "aria", "dodge"), {5, 1, 1, 1, 6, 5});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(Num(*ev, "defense.dice"), 2);
  EXPECT_TRUE(Cites(*ev, "003.result.dodge"));  // 1 vs 2: miss
  EXPECT_EQ(Hp(s, "aria"), 9);
  ExpectRulesKnown(s);
  ExpectSourced(s);
  s.ExpectDeterministic();
}

// A spell attack: casting provokes an opportunity attack (l.83); the
// Block against magical damage reduces it by half BR rounded up (l.145);
// spells can't be parried (l.55); Withstand against the mind (l.54).
TEST(OpposedTestsScenario, MageCastsInReach) {
  // Initiative: aria 4 + 2 = 6; mage 1 + PER 0 = 1.
  Scenario s(Roster({Aria(5, 5), Mage(6, 5)}), {4, 1});
  ASSERT_TRUE(s.status().ok()) << s.status();
  ASSERT_TRUE(s.Submit(Cmd("aria", "end_turn")).ok());
  EXPECT_EQ(s.state().active, "mage");
  auto bolt = Cmd("mage", "use_magic", {"aria"});
  bolt.weapon = "firebolt";
  auto ev = s.Submit(bolt);
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(LastWindowKind(s), "opportunity");  // l.83
  EXPECT_EQ(Ap(s, "mage"), 2);
  auto oa = Answer(s, "aria", "opportunity_attack");
  oa.weapon = "sword";
  ev = s.Submit(oa);
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(LastWindowKind(s), "defense");
  EXPECT_EQ(Ap(s, "aria"), 2);  // a reaction: 1 AP, and an Attack (l.81)
  EXPECT_EQ(s.state().Find("aria")->Resource("attacks"), 1);
  // The mage Dodges with 0 dice: it fails without a roll; aria 5,1,1
  // passes: a critical win; no maneuver; damage 4 (AR 0): 8 - 4 = 4.
  ev = s.Submit(Defend(s, "mage", "dodge"), {5, 1, 1});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(LastWindowKind(s), "maneuver");
  ev = s.Submit(Maneuver(s, "aria", "none"), {4});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(Hp(s, "mage"), 4);
  // The cast resumes: the firebolt's defense window for aria.
  EXPECT_EQ(LastWindowKind(s), "defense");
  // Spells can't be parried (l.53, l.55) nor withstood unless mind (l.54).
  EXPECT_EQ(s.Submit(Defend(s, "aria", "parry", "agi")).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(s.Submit(Defend(s, "aria", "withstand")).status().code(),
            absl::StatusCode::kFailedPrecondition);
  // Block: mage 4 dice 5,6,1,1 = 2; aria 5,1,1 = 1: both pass: blocked.
  // 2d6 4+5 = 9 fire: AR is against physical only (l.142); half BR 4 = 2
  // (round up, l.145): 7.
  ev = s.Submit(Defend(s, "aria", "block"), {5, 6, 1, 1, 5, 1, 1, 4, 5});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(Num(*ev, "block_reduction"), 2);
  EXPECT_EQ(Hp(s, "aria"), 12 - 7);
  // Dread targets the mind: aria Withstands (Focus 1 + WIL 1 = 2 dice).
  auto dread = Cmd("mage", "use_magic", {"aria"});
  dread.weapon = "dread";
  ASSERT_TRUE(s.Submit(dread).ok());
  ASSERT_EQ(LastWindowKind(s), "opportunity");
  ASSERT_TRUE(s.Submit(Answer(s, "aria", "pass")).ok());
  ASSERT_EQ(LastWindowKind(s), "defense");
  // Mage 6,5,1,1 = 2; aria 5,1 = 1: both pass, more attacker Successes:
  // hit (reading: as Dodge/Parry); 3 psychic.
  ev = s.Submit(Defend(s, "aria", "withstand"), {6, 5, 1, 1, 5, 1, 3});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_TRUE(Cites(*ev, "003.result.withstand"));
  EXPECT_EQ(Hp(s, "aria"), 5 - 3);
  EXPECT_EQ(Ap(s, "mage"), 0);  // firebolt, dodge, dread
  ExpectRulesKnown(s);
  ExpectSourced(s);
  s.ExpectDeterministic();
}

// Moving out of a foe's reach provokes (l.82); the move waits, then goes
// on; Disengage prevents it (l.27).
TEST(OpposedTestsScenario, OpportunityAttackFromMovement) {
  Scenario s(Roster({Aria(5, 5), Orc(6, 5)}), {4, 2});
  ASSERT_TRUE(s.status().ok()) << s.status();
  auto move = Cmd("aria", "move");
  move.path.emplace_back(4, 5);
  move.path.emplace_back(3, 5);
  auto ev = s.Submit(move);
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(LastWindowKind(s), "opportunity");
  EXPECT_EQ(s.state().Find("aria")->at.x, 5);  // still in reach
  auto oa = Answer(s, "orc", "opportunity_attack");
  oa.weapon = "axe";
  ASSERT_TRUE(s.Submit(oa).ok());
  // aria Dodges 1,1 (fails); orc 5,1,1,1 passes: critical win; no
  // maneuver; 6 - AR 2 = 4.
  ev = s.Submit(Defend(s, "aria", "dodge"), {5, 1, 1, 1, 1, 1});
  ASSERT_TRUE(ev.ok()) << ev.status();
  ev = s.Submit(Maneuver(s, "orc", "none"), {6});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(Hp(s, "aria"), 12 - 4);
  EXPECT_TRUE(s.state().windows.empty());
  EXPECT_EQ(s.state().Find("aria")->at.x, 3);  // the move went on
  EXPECT_EQ(s.state().Find("aria")->Resource("moved_m"), 2);
  EXPECT_EQ(Ap(s, "aria"), 2);  // moving is free (l.11); the Dodge cost 1
  EXPECT_EQ(Ap(s, "orc"), 2);
  // Disengage (1 AP), then back into reach: no opportunity attack (l.27).
  ASSERT_TRUE(s.Submit(Cmd("aria", "disengage")).ok());
  auto back = Cmd("aria", "move");
  back.path.emplace_back(4, 5);
  ev = s.Submit(back);
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_TRUE(s.state().windows.empty());
  EXPECT_EQ(s.state().Find("aria")->at.x, 4);
  // Speed 6 m: 3 moved, 4 more is too far (l.11).
  auto far = Cmd("aria", "move");
  for (int y = 6; y <= 9; ++y) far.path.emplace_back(4, y);
  EXPECT_EQ(s.Submit(far).status().code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(s.Submit(Cmd("aria", "end_turn")).ok());
  // The orc steps from (6,5) to (5,6), into aria's reach (1 m): that
  // provokes too (l.82); she passes.
  auto orc = Cmd("orc", "move");
  orc.path.emplace_back(5, 6);
  ev = s.Submit(orc);
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(LastWindowKind(s), "opportunity");
  EXPECT_EQ(s.state().Find("orc")->at.x, 5);  // entered the reach: stops there
  ASSERT_TRUE(s.Submit(Answer(s, "aria", "pass")).ok());
  EXPECT_TRUE(s.state().windows.empty());
  ExpectRulesKnown(s);
  ExpectSourced(s);
  s.ExpectDeterministic();
}

// Surprise (l.16): the orcs sneak; aria fails her Observation, loses her
// first turn and cannot react; saving a turn (l.22).
TEST(OpposedTestsScenario, SurpriseAndSavedTurn) {
  // Set-up dice: orc Stealth 1 + AGI 1 = 2 dice 5,6; aria Observation
  // 0 + PER 0 = 0 dice (fails without a roll); initiative aria 6 + 2 = 8,
  // orc 1 + 1 = 2.
  Scenario s(Roster({Aria(5, 5), Orc(6, 5, true)}), {5, 6, 6, 1});
  ASSERT_TRUE(s.status().ok()) << s.status();
  EXPECT_TRUE(s.state().Find("aria")->Has("Surprised"));
  EXPECT_EQ(s.state().order.front().actor, "aria");
  EXPECT_EQ(s.state().active, "orc");  // aria's first turn is skipped
  EXPECT_EQ(s.Submit(Cmd("aria", "search")).status().code(), absl::StatusCode::kFailedPrecondition);
  // She cannot defend: no window, automatic failure; orc 5,1,1,1 passes:
  // critical win; no maneuver; 3 - 2 = 1.
  auto ev = s.Submit(Strike("orc", "aria", "axe"), {5, 1, 1, 1});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(LastWindowKind(s), "maneuver");
  ASSERT_TRUE(s.Submit(Maneuver(s, "orc", "none"), {3}).ok());
  EXPECT_EQ(Hp(s, "aria"), 11);
  EXPECT_EQ(Ap(s, "aria"), 3);
  ASSERT_TRUE(s.Submit(Cmd("orc", "end_turn")).ok());
  EXPECT_EQ(s.state().round, 2);
  EXPECT_FALSE(s.state().Find("aria")->Has("Surprised"));
  EXPECT_EQ(s.state().active, "aria");
  // aria saves her turn, to act after the orc (l.22).
  auto save = Cmd("aria", "save_turn");
  WithText(save, "after", "orc");
  ASSERT_TRUE(s.Submit(save).ok());
  EXPECT_EQ(s.state().active, "orc");
  ASSERT_TRUE(s.Submit(Cmd("orc", "end_turn")).ok());
  EXPECT_EQ(s.state().active, "aria");
  EXPECT_EQ(s.state().round, 2);
  ExpectRulesKnown(s);
  ExpectSourced(s);
  s.ExpectDeterministic();
}

// The test mechanics are the session's (README): a set-up with d10 pools,
// Successes on 8+, two to pass, changes every test of the encounter.
TEST(OpposedTestsScenario, SessionSetUpChangesTheTestMechanics) {
  auto aria = Aria(5, 5);
  for (auto [k, v] : Numbers{{"test_faces", 10}, {"test_success_at", 8}, {"test_pass_at", 2}}) {
    auto n = std::make_unique<fb::NumberT>();
    n->key = k;
    n->value = v;
    aria.stats.push_back(std::move(n));
  }
  Scenario s(Roster({std::move(aria), Orc(6, 5)}), {4, 2});
  ASSERT_TRUE(s.status().ok()) << s.status();
  EXPECT_EQ(s.state().Pool("session", "test_faces"), 10);
  ASSERT_TRUE(s.Submit(Strike("aria", "orc", "sword")).ok());
  // aria 3d10: 8, 7, 10 = 2 Successes: passes (2 needed); the orc's Dodge
  // 2d10: 9, 1 = 1 Success: fails. A critical win (l.60).
  auto ev = s.Submit(Defend(s, "orc", "dodge"), {8, 7, 10, 9, 1});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(Num(*ev, "attack.successes"), 2);
  EXPECT_EQ(Num(*ev, "defense.successes"), 1);
  EXPECT_TRUE(Cites(*ev, "003.result.critical"));
  ExpectRulesKnown(s);
  ExpectSourced(s);
  s.ExpectDeterministic();
}

// Armor, shields and resistances over two rounds (l.99, l.135-145), and
// the untrained-weapon penalty on every Fighting Style test (l.45, l.99).
// knight (PC): Fighting Style 2, STR 1, Initiative 5, Health 20; Iron
//   Armor AR 5 (ar.iron), runed mail AR 2 / magical AR 2 (ar.runed,
//   ar_magical.runed); Magic Resistance (2) and a ring of Fire Resistance
//   (3); longsword 1d8, an UNTRAINED dagger, a Bone Shield BR 6.
// brute (NPC): Fighting Style 2, STR 2; maul 2d6 crushing. Strike 4 dice.
// shaman (NPC): Sorcery 2, WIL 2; firebolt 2d6 fire, 7 m away. 4 dice.
TEST(OpposedTestsScenario, ArmorShieldsAndResistances) {
  auto knight = Creature("knight", "party", 5, 5,
                         {{"fighting_style", 2}, {"str", 1}, {"initiative", 5}, {"health", 20}, {"speed", 6},
                          {"ar.iron", 5}, {"ar.runed", 2}, {"ar_magical.runed", 2},
                          {"resist.magical", 2}, {"resist.fire.ring", 3}});
  Add(knight, Weapon("longsword", "1d8", "melee", "medium", "slashing", {}));
  Add(knight, Weapon("dagger", "1d4", "melee", "light", "piercing", {{"untrained", 1}}));
  Add(knight, Weapon("bone", "", "shield", "", "", {{"br", 6}}));
  auto brute = Creature("brute", "orcs", 6, 5,
                        {{"fighting_style", 2}, {"str", 2}, {"per", 0}, {"health", 20}, {"speed", 6}});
  brute.tags = {"npc"};
  Add(brute, Weapon("maul", "2d6", "melee", "heavy", "crushing", {}));
  auto shaman = Creature("shaman", "orcs", 12, 5,
                         {{"sorcery", 2}, {"wil", 2}, {"per", 0}, {"health", 10}, {"speed", 6}});
  shaman.tags = {"npc"};
  auto bolt = Weapon("firebolt", "2d6", "spell", "", "fire", {{"attack", 1}});
  bolt.range_increment = 20;
  Add(shaman, std::move(bolt));
  // Initiative (l.10): knight 6 + 5 = 11; brute 2 + PER 0; shaman 1 + 0.
  Scenario s(Roster({std::move(knight), std::move(brute), std::move(shaman)}), {6, 2, 1});
  ASSERT_TRUE(s.status().ok()) << s.status();
  ASSERT_EQ(s.state().active, "knight");
  ASSERT_TRUE(s.Submit(Cmd("knight", "end_turn")).ok());  // keeps 3 AP for reactions
  ASSERT_EQ(s.state().active, "brute");

  // The brute's maul vs the knight's Block: Block is a Fighting Style test,
  // so the untrained dagger in hand costs 2 dice: 2 + 1 - 2 = 1 die (l.99).
  // Brute 5,1,1,1 = 1 Success; knight 6 = 1: both pass: blocked (l.62).
  // 2d6 = 6 + 6 = 12 crushing - AR 5 (iron: the wearer's best against
  // physical, l.143) - BR 6 (l.145) = 1.
  ASSERT_TRUE(s.Submit(Strike("brute", "knight", "maul")).ok());
  auto ev = s.Submit(Defend(s, "knight", "block"), {5, 1, 1, 1, 6, 6, 6});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(Num(*ev, "defense.modifier"), -2);
  EXPECT_EQ(Num(*ev, "defense.dice"), 1);
  EXPECT_TRUE(Cites(*ev, "003.result.block"));
  EXPECT_EQ(Num(*ev, "ar"), 5);
  EXPECT_EQ(Num(*ev, "block_reduction"), 6);
  EXPECT_EQ(Hp(s, "knight"), 19);
  ASSERT_TRUE(s.Submit(Cmd("brute", "end_turn")).ok());

  // The shaman's firebolt vs Block (l.55: Block or Dodge): 5,1,1,1 vs 5:
  // blocked. 6 + 4 = 10 fire - magical AR 2 (runed, l.141) - half BR
  // 6 -> 3 (l.145) - Fire Resistance 3 (the ring beats Magic Resistance 2:
  // the highest only, l.137) = 2.
  auto cast = Cmd("shaman", "use_magic", {"knight"});
  cast.weapon = "firebolt";
  ASSERT_TRUE(s.Submit(cast).ok());
  ev = s.Submit(Defend(s, "knight", "block"), {5, 1, 1, 1, 5, 6, 4});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(Num(*ev, "ar"), 2);
  EXPECT_EQ(Num(*ev, "block_reduction"), 3);
  EXPECT_EQ(Num(*ev, "resistance"), 3);
  EXPECT_EQ(Hp(s, "knight"), 17);
  EXPECT_EQ(Ap(s, "knight"), 1);
  ASSERT_TRUE(s.Submit(Cmd("shaman", "end_turn")).ok());

  // Round 2: AP back to 3 (l.19). The knight stows the dagger (Manipulate,
  // l.35): its Strike is 2 + 1 = 3 dice, no penalty. 5,1,1 vs no defense:
  // a critical win (l.60); no maneuver; 1d8 = 8.
  ASSERT_EQ(s.state().round, 2);
  EXPECT_EQ(Ap(s, "knight"), 3);
  auto stow = Cmd("knight", "manipulate");
  stow.weapon = "dagger";
  kernel::testing::With(stow, "stow", 1);
  ASSERT_TRUE(s.Submit(stow).ok());
  ASSERT_TRUE(s.Submit(Strike("knight", "brute", "longsword")).ok());
  ev = s.Submit(Defend(s, "brute", "none"), {5, 1, 1});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(Num(*ev, "attack.modifier"), -999);  // no untrained penalty
  EXPECT_EQ(Num(*ev, "attack.dice"), 3);
  ASSERT_TRUE(s.Submit(Maneuver(s, "knight", "none"), {8}).ok());
  EXPECT_EQ(Hp(s, "brute"), 12);
  ASSERT_TRUE(s.Submit(Cmd("knight", "end_turn")).ok());

  // The brute again; the knight chooses its runed mail against this blow
  // (l.143 "you choose which one to use"): no defense, 5,1,1,1: critical;
  // 3 + 4 = 7 - AR 2 = 5.
  ASSERT_TRUE(s.Submit(Strike("brute", "knight", "maul")).ok());
  auto def = Defend(s, "knight", "none");
  kernel::testing::WithText(def, "armor", "runed");
  ASSERT_TRUE(s.Submit(def, {5, 1, 1, 1}).ok());
  ev = s.Submit(Maneuver(s, "brute", "none"), {3, 4});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(Num(*ev, "ar"), 2);
  EXPECT_EQ(Hp(s, "knight"), 12);
  ExpectRulesKnown(s);
  ExpectSourced(s);
  s.ExpectDeterministic();
}

// Cases an outside team computes by hand from the text, played in one
// encounter: two boons on a Disarm (a shield, one size larger), equal
// Successes against Dodge, a Block against fire (half BR rounded up, the
// highest resistance, no AR), and a free Manipulate off turn.
TEST(OpposedTestsScenario, HandComputedByTheText) {
  auto aria = Aria(5, 5);
  for (auto [k, v] : Numbers{{"resist.fire", 3}, {"resist.fire.ring", 4}, {"resist.magical", 2}}) {
    auto n = std::make_unique<fb::NumberT>();
    n->key = k;
    n->value = v;
    aria.stats.push_back(std::move(n));
  }
  auto orc = Orc(6, 5);
  Add(orc, Weapon("buckler", "", "shield", "", "", {{"br", 3}}));
  // Initiative (l.10): aria 4 + 2 = 6; orc 2 + PER 1 = 3; mage 1 + PER 0 = 1.
  Scenario s(Roster({std::move(aria), std::move(orc), Mage(6, 8)}), {4, 2, 1});
  ASSERT_TRUE(s.status().ok()) << s.status();
  ASSERT_EQ(s.state().active, "aria");

  // aria 5,1,1 passes, the orc's Dodge 1,1 fails: a critical win (l.60).
  ASSERT_TRUE(s.Submit(Strike("aria", "orc", "sword")).ok());
  ASSERT_TRUE(s.Submit(Defend(s, "orc", "dodge"), {5, 1, 1, 1, 1}).ok());
  ASSERT_EQ(LastWindowKind(s), "maneuver");
  // Disarm the buckler: Athletics 0 + STR 2 = 2 dice, a boon for a foe one
  // size larger (l.74) and a boon for a shield (l.69): 4 dice, 1,1,1,1
  // fail: the buckler lands on the floor. Damage 5 - AR 1 = 4 (l.142).
  auto disarm = Maneuver(s, "aria", "disarm");
  WithText(disarm, "item", "buckler");
  auto ev = s.Submit(disarm, {1, 1, 1, 1, 5});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(Num(*ev, "boons"), 2);
  EXPECT_EQ(Num(*ev, "dice"), 4);
  EXPECT_EQ(s.state().Find("orc")->Resource("dropped.buckler"), 1);
  EXPECT_EQ(Hp(s, "orc"), 26);
  ASSERT_TRUE(s.Submit(Cmd("aria", "end_turn")).ok());

  // The orc's 4 dice 5,1,1,1 = 1 Success vs aria's Dodge 6,1 = 1: both
  // pass, not more Successes: a miss (l.63).
  ASSERT_TRUE(s.Submit(Strike("orc", "aria", "axe")).ok());
  ASSERT_TRUE(s.Submit(Defend(s, "aria", "dodge"), {5, 1, 1, 1, 6, 1}).ok());
  EXPECT_EQ(Hp(s, "aria"), 12);
  ASSERT_TRUE(s.Submit(Cmd("orc", "end_turn")).ok());

  // The mage's firebolt (3 m away: casting outside aria's reach provokes
  // nothing, l.83): Sorcery 4 dice 5,1,1,1 vs aria's Block 5,1,1: both
  // pass, blocked (l.62). 2d6 6+6 = 12 fire - half BR 4 = 2 (l.145) - the
  // highest resistance, Fire Resistance (4) of the ring over Fire (3) and
  // Magic (2) (l.135-137) = 6; AR is against physical damage only (l.142).
  auto bolt = Cmd("mage", "use_magic", {"aria"});
  bolt.weapon = "firebolt";
  ASSERT_TRUE(s.Submit(bolt).ok());
  ASSERT_EQ(LastWindowKind(s), "defense");
  ev = s.Submit(Defend(s, "aria", "block"), {5, 1, 1, 1, 5, 1, 1, 6, 6});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(Num(*ev, "block_reduction"), 2);
  EXPECT_EQ(Num(*ev, "resistance"), 4);
  EXPECT_EQ(Hp(s, "aria"), 6);
  EXPECT_EQ(Ap(s, "aria"), 0);  // strike, dodge, block: 3 AP (l.24)
  ASSERT_TRUE(s.Submit(Cmd("mage", "end_turn")).ok());

  // Round 2: 3 AP again (l.11, l.19). On the orc's turn aria stows her
  // sword as the round's free action: a reaction any time (l.24, l.35),
  // no AP (l.39); a second free action is refused.
  EXPECT_EQ(s.state().round, 2);
  ASSERT_TRUE(s.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_EQ(s.state().active, "orc");
  auto stow = Cmd("aria", "manipulate");
  stow.weapon = "sword";
  With(stow, "free", 1);
  With(stow, "stow", 1);
  ev = s.Submit(stow);
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(Ap(s, "aria"), 3);
  EXPECT_EQ(s.state().Find("aria")->Resource("dropped.sword"), 1);
  auto again = Cmd("aria", "manipulate");
  With(again, "free", 1);
  EXPECT_EQ(s.Submit(again).status().code(), absl::StatusCode::kFailedPrecondition);
  ExpectRulesKnown(s);
  ExpectSourced(s);
  s.ExpectDeterministic();
}

// Black-box cases (session bb2), hand-computed from the text, through the
// store: a Sneak whose last square enters a foe's reach, and two GM cover
// rulings in a row.
// 003 l.30: "Sneak. You attempt to move without being detected."
// 003 l.82: moving within a foe's reach provokes.
// 003 l.89: "Ranged attacks against a target with full cover automatically fail."
TEST(OpposedTestsScenario, BlackBoxSneakIntoReachAndCoverRulings) {
  auto aria = Aria(5, 5);
  auto bow = Weapon("bow", "1d6", "ranged", "", "piercing", {});
  bow.range_increment = 20;
  Add(aria, std::move(bow));
  // Initiative: aria 4 + 2 = 6, orc 2 + PER 1 = 3.
  Scenario s(Roster({std::move(aria), Orc(8, 5)}), {4, 2});
  ASSERT_TRUE(s.status().ok()) << s.status();
  // The sneak enters the orc's reach (1 m) on its last square: it walks
  // there and waits for the orc's answer; then the Stealth test, 0 + AGI 1
  // = 1 die: 5 = 1 Success.
  auto sneak = Cmd("aria", "sneak");
  sneak.path.emplace_back(6, 5);
  sneak.path.emplace_back(7, 5);
  ASSERT_TRUE(s.Submit(sneak).ok());
  ASSERT_EQ(LastWindowKind(s), "opportunity");
  auto ev = s.Submit(Answer(s, "orc", "pass"), {5});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_TRUE(Cites(*ev, "003.sneak"));
  EXPECT_EQ(Num(*ev, "dice"), 1);
  EXPECT_EQ(Num(*ev, "successes"), 1);
  EXPECT_EQ(s.state().Find("aria")->at.x, 7);
  EXPECT_EQ(s.state().Find("aria")->Resource("moved_m"), 2);
  EXPECT_EQ(Ap(s, "aria"), 2);  // the Sneak's 1 AP (l.24)
  // The GM rules high cover (l.88), then full cover (l.89): the later
  // ruling decides. aria's bow shot automatically fails; the orc does not
  // defend (automatic failure, l.56): both fail, nothing happens (l.59).
  for (int level : {2, 3}) {
    auto cover = Cmd("orc", "gm_condition");
    cover.author = "gm";
    cover.role = fb::Role::GM;
    cover.text = "behind the cart";
    WithText(cover, "name", "Cover");
    WithText(cover, "op", "add");
    With(cover, "level", level);
    ASSERT_TRUE(s.Submit(cover).ok());
  }
  ASSERT_TRUE(s.Submit(Strike("aria", "orc", "bow")).ok());
  ev = s.Submit(Defend(s, "orc", "none"));
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(Num(*ev, "attack.automatic_fail"), 1);
  EXPECT_TRUE(Cites(*ev, "003.result.both_fail"));
  EXPECT_EQ(Hp(s, "orc"), 30);
  EXPECT_EQ(Ap(s, "aria"), 1);
  EXPECT_EQ(Ap(s, "orc"), 3);  // no defense: no AP (l.56)
  ExpectRulesKnown(s);
  ExpectSourced(s);
  s.ExpectDeterministic();
}

// Third black-box pass (hand-computed through the CLI, replayed here):
// l.81 "An opportunity attack is a special kind of melee Strike you can
// perform as a reaction" and l.48 "Each character can perform up to two
// Attacks per Round": an opportunity attack on the orc's turn is one of
// aria's two, so on her own turn only one Strike is left. While the
// opportunity window is open, other acts are refused citing l.81 (they
// were cited as Step II: Defend, l.50). The maneuver window names only the
// maneuvers open to the winner (l.67 Bash needs a shield or heavy weapon,
// l.71 Precision only in a Strike).
TEST(OpposedTestsScenario, BlackBoxOpportunityAttackCountsTowardTwo) {
  // Initiative (l.10): aria 1 + Initiative 2 = 3; orc (NPC) 6 + PER 1 = 7.
  Scenario s(Roster({Aria(5, 5), Orc(7, 5)}), {1, 6});
  ASSERT_TRUE(s.status().ok()) << s.status();
  EXPECT_EQ(s.state().active, "orc");
  auto move = Cmd("orc", "move");
  move.path.emplace_back(6, 5);  // into aria's reach (1 m): provokes (l.82)
  ASSERT_TRUE(s.Submit(move).ok());
  ASSERT_EQ(LastWindowKind(s), "opportunity");
  const auto open = s.Submit(Cmd("orc", "end_turn")).status();
  ASSERT_FALSE(open.ok());
  EXPECT_NE(std::string(open.message()).find("Attack of Opportunity, l.81"), std::string::npos) << open;
  auto oa = Answer(s, "aria", "opportunity_attack");
  oa.weapon = "sword";
  ASSERT_TRUE(s.Submit(oa).ok());
  EXPECT_EQ(s.state().Find("aria")->Resource("attacks"), 1);
  EXPECT_EQ(Ap(s, "aria"), 2);  // a reaction's 1 AP (l.24)
  // The orc does not defend (l.56); aria's 3 dice 5,1,1: a critical win.
  auto ev = s.Submit(Defend(s, "orc", "none"), {5, 1, 1});
  ASSERT_TRUE(ev.ok()) << ev.status();
  ASSERT_EQ(LastWindowKind(s), "maneuver");
  // aria holds a shield (Bash) and the orc its axe (Disarm); an
  // opportunity attack is a Strike (Precision).
  std::string note;
  for (const auto& e : *ev) {
    if (e.event().body_type() != fb::Body::StateChange) continue;
    const auto* sc = e.event().body_as_StateChange();
    if (sc->change_type() == fb::Change::WindowOpened && sc->note() != nullptr) note = sc->note()->str();
  }
  EXPECT_EQ(note, "aria may maneuver (bash, brace, disarm, feint, precision, push, trip or none)");
  ev = s.Submit(Maneuver(s, "aria", "none"), {6});  // 6 - AR 1 = 5
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(Hp(s, "orc"), 25);
  ASSERT_TRUE(s.Submit(Cmd("orc", "end_turn")).ok());
  EXPECT_EQ(s.state().active, "aria");
  ASSERT_TRUE(s.Submit(Strike("aria", "orc", "sword")).ok());
  ev = s.Submit(Defend(s, "orc", "none"), {1, 1, 1});  // both fail (l.59)
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(s.state().Find("aria")->Resource("attacks"), 2);
  EXPECT_EQ(Ap(s, "aria"), 1);
  const auto third = s.Submit(Strike("aria", "orc", "sword")).status();
  ASSERT_FALSE(third.ok());
  EXPECT_NE(std::string(third.message()).find("What is an Attack?, l.48"), std::string::npos) << third;
  ExpectRulesKnown(s);
  ExpectSourced(s);
  s.ExpectDeterministic();
}

}  // namespace
}  // namespace combat::tests
