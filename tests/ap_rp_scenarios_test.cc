// Scenarios for the ap_rp ruleset (seed 004), played through the engine
// into a real RocksDB with fixed dice. Every asserted number cites the line
// of 004_1a3e461770fc9e7a.txt it comes from.
//
// knight: Str 13, Dex 13 (ax hit bonus 3 + 1 = 4, l.53), Instinct 13:
//   Initiative 26 (l.7); an envenomed ax dealing 5 Physical + 5 Poison.
// horse: Instinct 16: Initiative 32; size category 1 (one larger).
//   Union: (26 + 32) / 2 = 29 (l.10).
// orc: War Archetype, Str 14, Dex 13: Evasion 13 + 4 = 17 (l.61); Armor 4,
//   Con 10, Endurance 1: Constitution DR 1 (l.65); Instinct 14: 28.
// archer: Dex 14, Str 12, bow (Dex/Str) 5 m: hit bonus 4 + 1 = 5; Instinct
//   12: 24.
// guard: Armor 2 (the Armor Piercer example, l.66), Instinct 5: 10.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "kernel/command.h"
#include "kernel/ap_rp/ruleset.h"
#include "kernel/pending.h"
#include "kernel/state.h"
#include "kernel/testing/events.h"
#include "tests/scenario.h"

namespace combat::tests {
namespace {

using kernel::Pos;

// Every modifier the scenario's numbers hold names its source or rule
// (issue 16; the keys: aprp::IsModifier).
void ExpectSourced(const Scenario& s) {
  EXPECT_EQ(kernel::testing::UnsourcedModifiers(s.log(), kernel::aprp::ApRp().Rules(),
                                                kernel::aprp::IsModifier),
            std::vector<std::string>{});
}

fb::CombatantSpecT Being(const std::string& id, const std::string& side, int x, int y,
                         std::vector<std::pair<std::string, int64_t>> stats) {
  bool has_vitality = false;
  for (const auto& [k, v] : stats) has_vitality = has_vitality || k == "vitality";
  if (!has_vitality) stats.push_back({"vitality", 30});
  auto c = Creature(id, side, x, y, std::move(stats));
  c.tags = {"evasion_stat:str", "primary:str", "secondary:dex"};
  return c;
}

void Arm(fb::CombatantSpecT& c, const std::string& name, const std::string& dmg, const std::string& kind,
         const std::string& stats, int range, std::vector<std::pair<std::string, int64_t>> numbers = {}) {
  auto w = std::make_unique<fb::WeaponT>(MakeWeapon(name, dmg, kind, stats, 1, range));
  w->damage_type = "physical";
  for (auto& [k, v] : numbers) {
    auto n = std::make_unique<fb::NumberT>();
    n->key = k;
    n->value = v;
    w->numbers.push_back(std::move(n));
  }
  c.weapons.push_back(std::move(w));
}

fb::RosterT Roster() {
  auto knight = Being("knight", "party", 3, 3, {{"str", 13}, {"dex", 13}, {"ins", 13}, {"momentum", 6}, {"raw_force", 3}});
  knight.tags.push_back("union:knight+horse");
  Arm(knight, "ax", "5", "melee", "str/dex", 0, {{"dmg_poison", 5}});
  auto horse = Being("horse", "party", 4, 3, {{"str", 10}, {"dex", 12}, {"ins", 16}, {"size_cat", 1}});
  horse.tags.push_back("union:knight+horse");
  auto orc = Being("orc", "orcs", 3, 4, {{"str", 14}, {"dex", 13}, {"ins", 14}, {"armor", 4}, {"con", 10},
                                          {"endurance", 1}, {"raw_force", 4}});
  Arm(orc, "club", "1d6", "melee", "str/dex", 0);
  auto archer = Being("archer", "party", 3, 8, {{"dex", 14}, {"str", 12}, {"ins", 12}, {"momentum", 2}});
  Arm(archer, "bow", "1d6", "ranged", "dex/str", 5);
  auto guard = Being("guard", "orcs", 10, 8, {{"ins", 5}, {"armor", 2}});
  std::vector<fb::CombatantSpecT> cs;
  cs.push_back(std::move(knight));
  cs.push_back(std::move(horse));
  cs.push_back(std::move(orc));
  cs.push_back(std::move(archer));
  cs.push_back(std::move(guard));
  fb::RosterT r = MakeRoster("ap_rp", std::move(cs), 16, 12);
  r.title = "ap_rp scenario";
  return r;
}

int64_t Vit(const Scenario& s, const std::string& who) { return s.state().Find(who)->Resource("vitality"); }

fb::CommandT Path(fb::CommandT c, std::vector<std::pair<int, int>> path) {
  for (auto [x, y] : path) c.path.emplace_back(x, y);
  return c;
}

fb::CommandT Gm(const std::string& actor, const std::string& action, const std::string& why) {
  auto c = Cmd(actor, action);
  c.author = "gm";
  c.role = fb::Role::GM;
  c.text = why;
  return c;
}

TEST(ApRpScenario, KnightHorseArcherAgainstOrcs) {
  Scenario s(Roster());
  ASSERT_TRUE(s.status().ok()) << s.status();
  // l.10: the union's Initiative (26+32)/2 = 29, ahead of the orc's 28 (l.7).
  const auto& order = s.state().order;
  ASSERT_EQ(order.size(), 4u);
  EXPECT_EQ(order[0].actor, "horse");
  EXPECT_EQ(order[0].initiative, 29);
  ASSERT_EQ(order[0].members.size(), 1u);
  EXPECT_EQ(order[0].members[0], "knight");
  EXPECT_EQ(order[1].actor, "orc");
  EXPECT_EQ(order[1].initiative, 28);
  EXPECT_EQ(order[2].initiative, 24);
  EXPECT_EQ(order[3].initiative, 10);
  // l.6: 3 AP each in the shared turn, 2 RP for the round.
  EXPECT_EQ(s.state().Find("knight")->Resource("ap"), 3);
  EXPECT_EQ(s.state().Find("horse")->Resource("ap"), 3);
  EXPECT_EQ(s.state().Find("orc")->Resource("rp"), 2);
  EXPECT_EQ(s.state().Pool("side:party", "narrative_momentum"), 8);

  // The shared turn: the knight attacks, the horse moves, alternating.
  // l.53: hit bonus 4; l.60/l.61: 13 + 4 = 17 reaches Evasion 17 ("at least").
  // l.65: 5 Physical + 5 Poison against Armor 4 / Constitution DR 1: 9.
  auto c = Cmd("knight", "attack", {"orc"});
  c.weapon = "ax";
  auto ev = s.Submit(c, {13});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(Vit(s, "orc"), 30 - 9);
  ASSERT_TRUE(s.Submit(Path(Cmd("horse", "move"), {{5, 3}, {4, 3}})).ok());
  EXPECT_EQ(s.state().Find("horse")->Resource("movement"), 1);
  ASSERT_TRUE(s.Submit(Cmd("knight", "end_turn")).ok());

  // The orc holds its turn (l.8); the archer holds a shot (l.9).
  ASSERT_EQ(s.state().active, "orc");
  ASSERT_TRUE(s.Submit(Cmd("orc", "hold_turn")).ok());
  ASSERT_EQ(s.state().active, "archer");
  auto hold = Cmd("archer", "hold_action");
  hold.weapon = "bow";
  WithText(hold, "action", "attack");
  WithText(hold, "trigger", "enters_range");
  With(hold, "ignore_armor", 4);  // an Armor Piercer shot (l.66)
  ASSERT_TRUE(s.Submit(hold).ok());
  EXPECT_EQ(s.state().Find("archer")->Resource("ap"), 1);  // l.9: 2 AP now
  ASSERT_TRUE(s.Submit(Cmd("archer", "end_turn")).ok());

  // On the guard's turn it walks into range and is shot automatically:
  // 15 + 5 >= 17; 6 damage against Armor 2 ignoring up to 4: as if Armor 0
  // (6, not 8: l.66).
  ASSERT_EQ(s.state().active, "guard");
  ev = s.Submit(Path(Cmd("guard", "move"), {{9, 8}, {8, 8}, {7, 8}}), {15, 6});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(Vit(s, "guard"), 24);
  EXPECT_EQ(s.state().Find("guard")->at, (Pos{7, 8}));
  EXPECT_EQ(kernel::FirstPending(s.state(), "archer", kernel::kReadiedAct), nullptr);
  ASSERT_TRUE(s.Submit(Cmd("guard", "end_turn")).ok());

  // l.8: the orc's held turn comes at the end of the round. It shoves the
  // knight into the horse's square (l.37, l.114): orc 12 + 4 = 16 beats the
  // knight's 5 + 3 = 8; the horse (one size larger: advantage) rolls a
  // Strength DR 2d20kh1 (3, 5) + 0 = 5 against the orc's DR Power 14:
  // fails: 1 m of distance = 1 Physical damage to both; the knight stops
  // one space before (stays).
  ASSERT_EQ(s.state().round, 1);
  ASSERT_EQ(s.state().active, "orc");
  ev = s.Submit(Path(Cmd("orc", "shove", {"knight"}), {{4, 3}}), {12, 5, 3, 5});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(s.state().Find("knight")->at, (Pos{3, 3}));
  EXPECT_EQ(Vit(s, "knight"), 29);
  EXPECT_EQ(Vit(s, "horse"), 29);
  ASSERT_TRUE(s.Submit(Cmd("orc", "end_turn")).ok());

  // Round 2: order fixed again (l.11), RP back to 2 (l.6).
  ASSERT_EQ(s.state().round, 2);
  EXPECT_EQ(s.state().active, "horse");
  EXPECT_EQ(s.state().order[0].initiative, 29);

  // A Cinematic Burst (l.44): the knight has used no AP this turn: 6
  // Momentum, no AP; the GM agrees and sets Raw Force against 11 (l.47).
  auto cin = Cmd("knight", "cinematic");
  cin.text = "pin the orc against the wall with a table";
  WithText(cin, "kind", "action");
  With(cin, "burst", 1);
  ASSERT_TRUE(s.Submit(cin).ok());
  const kernel::PendingAct* p = kernel::FirstPending(s.state(), "knight", "cinematic");
  ASSERT_NE(p, nullptr);
  auto rule = Gm("", "cinematic_ruling", "possible: a Raw Force Check against 11");
  kernel::AddRef(rule, "act", 0, 0, p->id);
  With(rule, "allow", 1);
  With(rule, "dc", 11);
  WithText(rule, "skill", "raw_force");
  ev = s.Submit(rule, {9});  // 9 + 3 = 12 >= 11
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(s.state().Pool("side:party", "narrative_momentum"), 2);
  EXPECT_EQ(s.state().Find("knight")->Resource("ap"), 3);
  EXPECT_EQ(kernel::FirstPending(s.state(), "knight", "cinematic"), nullptr);
  ASSERT_TRUE(s.Submit(Cmd("horse", "end_turn")).ok());
  EXPECT_EQ(s.state().active, "orc");
  ExpectSourced(s);
  s.ExpectDeterministic();
}

int64_t NumOf(const std::vector<events::EventBuffer>& events, const std::string& rule, const std::string& key) {
  int64_t out = -999;
  for (const auto& e : events) {
    const auto* sc = e.event().body_as_StateChange();
    if (sc == nullptr || sc->rule() == nullptr || sc->rule()->str() != rule || sc->numbers() == nullptr) continue;
    for (const auto* n : *sc->numbers()) {
      if (n->key() != nullptr && n->key()->str() == key) out = n->value();
    }
  }
  return out;
}

// The remaining worked examples of the text, over four rounds of a duel
// against two dummies.
//   hero: Str 13, Dex 13 (ax hit bonus 4, l.53), Initiative 40; weapons of
//     fixed damage: ax 12 Physical, vial 12 Poison.
//   dummy: Dex 12, Str 14 (War: Evasion 12 + 4 = 16, l.60), Armor 2 (l.64),
//     Con 10, Endurance 3 (Constitution DR 3, l.65).
//   knight: Str 14, Dex 13, base Evasion 17 in medium armor (Evasion Cap
//     14): 14 (l.62); Presence 4, Momentum 3.
TEST(ApRpScenario, WorkedExamples) {
  auto hero = Being("hero", "a", 1, 1, {{"str", 13}, {"dex", 13}, {"ins", 20}});
  Arm(hero, "ax", "12", "melee", "str/dex", 0);
  Arm(hero, "vial", "12", "melee", "str/dex", 0);
  hero.weapons.back()->damage_type = "poison";
  auto dummy = Being("dummy", "b", 2, 1, {{"str", 14}, {"dex", 12}, {"ins", 10}, {"armor", 2}, {"con", 10},
                                          {"endurance", 3}, {"vitality", 70}});
  auto knight = Being("knight", "b", 1, 2, {{"str", 14}, {"dex", 13}, {"ins", 5}, {"evasion_cap", 14},
                                            {"presence", 4}, {"momentum", 3}});
  std::vector<fb::CombatantSpecT> cs;
  cs.push_back(std::move(hero));
  cs.push_back(std::move(dummy));
  cs.push_back(std::move(knight));
  Scenario s(MakeRoster("ap_rp", std::move(cs), 10, 10));
  ASSERT_TRUE(s.status().ok()) << s.status();
  auto next_round = [&]() {
    ASSERT_TRUE(s.Submit(Cmd("hero", "end_turn")).ok());
    ASSERT_TRUE(s.Submit(Cmd("dummy", "end_turn")).ok());
    ASSERT_TRUE(s.Submit(Cmd("knight", "end_turn")).ok());
  };
  auto attack = [&](const std::string& target, const std::string& weapon, int d20) {
    auto c = Cmd("hero", "attack", {target});
    c.weapon = weapon;
    return s.Submit(c, {d20});
  };
  // Round 1. l.53: hit bonus 4; l.60: "a hit bonus of 4 would need to roll
  // at least a 12 ... Evasion of 16": 12 hits; l.64: "an Armor of 2 and ...
  // hit for 12 damage, you only receive 10".
  auto ev = attack("dummy", "ax", 12);
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "004.evasion", "hit_bonus"), 4);
  EXPECT_EQ(NumOf(*ev, "004.evasion", "evasion"), 16);
  EXPECT_EQ(NumOf(*ev, "004.armor", "damage"), 10);
  EXPECT_EQ(Vit(s, "dummy"), 60);
  next_round();
  // Round 2. l.60: "Any lower and the attack would miss": 11 + 4 = 15.
  ev = attack("dummy", "ax", 11);
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(Vit(s, "dummy"), 60);
  next_round();
  // Round 3. l.65: Constitution 10, Endurance 3 -> DR 3; 12 Poison -> 9.
  ev = attack("dummy", "vial", 5);  // 5 + 4 = 9 < 16: a miss first
  ASSERT_TRUE(ev.ok());
  next_round();
  ev = attack("dummy", "vial", 15);
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "004.armor.dr", "defense"), 3);
  EXPECT_EQ(Vit(s, "dummy"), 60 - 9);
  // l.62: base Evasion 17 limited to 14 by medium armor: 10 + 4 = 14 hits.
  // (Cinematic Reaction first, off the knight's turn: l.41, l.49 "a
  // Presence check against 15": 2 RP and 3 Momentum.)
  auto cin = Cmd("knight", "cinematic");
  cin.text = "an ancient power awakens";
  WithText(cin, "kind", "reaction");
  ASSERT_TRUE(s.Submit(cin).ok());
  const kernel::PendingAct* p = kernel::FirstPending(s.state(), "knight", "cinematic");
  ASSERT_NE(p, nullptr);
  auto rule = Gm("", "cinematic_ruling", "a Presence check against 15");
  kernel::AddRef(rule, "act", 0, 0, p->id);
  With(rule, "allow", 1);
  With(rule, "dc", 15);
  WithText(rule, "skill", "presence");
  ev = s.Submit(rule, {11});  // 11 + 4 = 15 >= 15
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "004.cinematic", "total"), 15);
  EXPECT_EQ(s.state().Find("knight")->Resource("rp"), 0);
  EXPECT_EQ(s.state().Pool("side:b", "narrative_momentum"), 0);
  next_round();
  ev = attack("knight", "ax", 10);
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "004.evasion", "evasion"), 14);
  EXPECT_EQ(NumOf(*ev, "004.evasion", "evasion_cap"), 14);
  EXPECT_EQ(Vit(s, "knight"), 30 - 12);
  EXPECT_EQ(s.state().round, 5);
  ExpectSourced(s);
  s.ExpectDeterministic();
}


// Hands, forced movement and teleporting as a hand tester would compute
// them, through the store.
TEST(ApRpScenario, HandsForcedMovementAndTeleport) {
  auto mage = Being("mage", "a", 1, 1, {{"ins", 20}, {"int", 15}, {"vitality", 200}});
  mage.tags = {"evasion_stat:dex", "primary:int", "secondary:wil"};
  auto thief = Being("thief", "a", 1, 3, {{"ins", 18}, {"quick_fingers", 4}, {"free_hands", 1}});
  auto brute = Being("brute", "b", 2, 3, {{"ins", 1}, {"armor", 2}});
  Arm(brute, "club", "1d6", "melee", "str/dex", 0);
  auto wall = Being("wall_guard", "b", 6, 3, {{"ins", 2}, {"armor", 2}, {"raw_force", 0}});
  auto golem = Being("golem", "b", 40, 1, {{"ins", 3}, {"vitality", 300}});
  golem.tags.push_back("vulnerable:reality");
  std::vector<fb::CombatantSpecT> cs;
  cs.push_back(std::move(mage));
  cs.push_back(std::move(thief));
  cs.push_back(std::move(brute));
  cs.push_back(std::move(wall));
  cs.push_back(std::move(golem));
  fb::RosterT r = MakeRoster("ap_rp", std::move(cs), 60, 10);
  Scenario s(r);
  ASSERT_TRUE(s.status().ok()) << s.status();
  ASSERT_EQ(s.state().active, "mage");
  // l.114: the mage's gust (5 Physical) shoves the brute 4 m into the
  // wall_guard: Strength DR 1 + 4 < 15 fails, 4 damage; added to the gust
  // as one source, Armor 2 once: 5 + 4 - 2 = 7; the wall_guard 4 - 2 = 2.
  auto gust = Gm("mage", "force_move", "a gust ability");
  gust.targets = {"brute"};
  gust = Path(gust, {{3, 3}, {4, 3}, {5, 3}, {6, 3}});
  With(gust, "dmg_physical", 5);
  With(gust, "combine", 1);
  auto ev = s.Submit(gust, {1});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(s.state().Find("brute")->at, (Pos{5, 3}));  // stopped one space before
  EXPECT_EQ(Vit(s, "brute"), 30 - 7);
  EXPECT_EQ(Vit(s, "wall_guard"), 30 - 2);
  // l.115: teleporting 39 m into the golem (vulnerable): 39 Reality to the
  // mage (Armor ignored), 39 + 19 = 58 to the golem; the mage comes back.
  auto tp = Gm("mage", "teleport", "blink");
  tp.targets = {"mage"};
  With(tp, "x", 40);
  With(tp, "y", 1);
  ASSERT_TRUE(s.Submit(tp).ok());
  EXPECT_EQ(s.state().Find("mage")->at, (Pos{1, 1}));
  EXPECT_EQ(Vit(s, "mage"), 200 - 39);
  EXPECT_EQ(Vit(s, "golem"), 300 - 58);
  ASSERT_TRUE(s.Submit(Cmd("mage", "end_turn")).ok());
  // l.34: the thief (one free hand) tries to disarm the brute, now 4 m
  // away: refused ("within 1 m"); it moves next to it first.
  ASSERT_EQ(s.state().active, "thief");
  auto take = Cmd("thief", "disarm", {"brute"});
  With(take, "take", 1);
  EXPECT_EQ(s.Submit(take).status().code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(s.Submit(Path(Cmd("thief", "move"), {{2, 3}, {3, 3}, {4, 3}})).ok());
  ev = s.Submit(take, {12, 5});  // 12 + 4 > 5: the club drops, the thief takes it
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(s.state().Find("brute")->Resource("free_hands"), 2);
  EXPECT_EQ(s.state().Find("thief")->Resource("free_hands"), 0);
  EXPECT_EQ(s.state().Find("thief")->Resource("ap"), 1);  // Disarm 2 AP
  // l.24: sheathing it without replacing is the free Switch Weapons.
  auto sheathe = Cmd("thief", "switch_weapons");
  WithText(sheathe, "mode", "sheathe");
  ASSERT_TRUE(s.Submit(sheathe).ok());
  EXPECT_EQ(s.state().Find("thief")->Resource("ap"), 1);
  EXPECT_EQ(s.state().Find("thief")->Resource("free_hands"), 1);
  ExpectSourced(s);
  s.ExpectDeterministic();
}

// Black-box cases (second pass), hand-computed from 004 and played through
// the store: Taking Cover in the open gives nothing (l.25 "as long as you
// are in half cover"); non-lethal damage never lowers a Vitality already
// below 1 (l.58 "You cannot drop the Vitality of a creature below an amount
// that would kill them"); a Cooperative Cinematic Burst: the lead 4
// Momentum, the helper 2 RP and 2 Momentum, both with advantage (l.43-44),
// and the lead's AP untouched; Taking Cover ends at the next turn (l.25).
TEST(ApRpScenario, BlackBoxSecondPass) {
  auto a = Being("a", "party", 2, 2, {{"str", 14}, {"ins", 20}, {"raw_force", 2}, {"momentum", 6}});  // 40
  Arm(a, "club", "3", "melee", "str/dex", 0);
  auto h = Being("h", "party", 3, 3, {{"str", 14}, {"ins", 15}});  // 30
  Arm(h, "club", "3", "melee", "str/dex", 0);
  auto b = Being("b", "foes", 10, 2, {{"str", 14}, {"ins", 12}});  // 24
  Arm(b, "bow", "1d6", "ranged", "str/dex", 10);
  auto t = Being("t", "foes", 2, 3, {{"ins", 1}, {"vitality", 2}});  // 2
  std::vector<fb::CombatantSpecT> cs;
  cs.push_back(std::move(a));
  cs.push_back(std::move(h));
  cs.push_back(std::move(b));
  cs.push_back(std::move(t));
  fb::RosterT r = MakeRoster("ap_rp", std::move(cs), 16, 12);
  Scenario s(r);
  ASSERT_TRUE(s.status().ok()) << s.status();
  ASSERT_EQ(s.state().active, "a");
  EXPECT_EQ(s.state().Pool("side:party", "narrative_momentum"), 6);

  // a takes cover in the open (1 AP) and clubs t: hit bonus 4 + 0 = 4
  // (l.53), 15 + 4 >= t's Evasion 10 (Dex 10 + Str bonus 0, l.61): 3 damage,
  // Vitality 2 -> -1, Bleeding (l.58).
  ASSERT_TRUE(s.Submit(Cmd("a", "take_cover")).ok());
  auto c = Cmd("a", "attack", {"t"});
  c.weapon = "club";
  ASSERT_TRUE(s.Submit(c, {15}).ok());
  EXPECT_EQ(Vit(s, "t"), -1);
  EXPECT_TRUE(s.state().Find("t")->Has("Bleeding"));
  EXPECT_EQ(s.state().Find("a")->Resource("ap"), 0);
  ASSERT_TRUE(s.Submit(Cmd("a", "end_turn")).ok());

  // h leads a Cooperative Cinematic Burst with a as helper (l.43-44): no AP
  // used yet; h pays 4 Momentum, a 2 RP and 2 Momentum (6 -> 0); both roll
  // with advantage against 10: h max(12, 3) + 0 = 12, a max(4, 11) + 2 = 13.
  ASSERT_EQ(s.state().active, "h");
  auto cin = Cmd("h", "cinematic", {"a"});
  cin.text = "the two of them topple the statue";
  WithText(cin, "kind", "action");
  With(cin, "burst", 1);
  ASSERT_TRUE(s.Submit(cin).ok());
  const kernel::PendingAct* p = kernel::FirstPending(s.state(), "h", "cinematic");
  ASSERT_NE(p, nullptr);
  auto rule = Gm("", "cinematic_ruling", "possible: Raw Force against 10");
  kernel::AddRef(rule, "act", 0, 0, p->id);
  With(rule, "allow", 1);
  With(rule, "dc", 10);
  WithText(rule, "skill", "raw_force");
  auto ev = s.Submit(rule, {12, 3, 4, 11});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(s.state().Pool("side:party", "narrative_momentum"), 0);
  EXPECT_EQ(s.state().Find("h")->Resource("ap"), 3);
  EXPECT_EQ(s.state().Find("a")->Resource("rp"), 0);
  EXPECT_EQ(s.state().Find("h")->Resource("rp"), 2);
  EXPECT_EQ(kernel::FirstPending(s.state(), "h", "cinematic"), nullptr);

  // h's non-lethal club (3 - 1d4 2 = 1) on t at -1: no lower (l.58).
  auto nl = Cmd("h", "attack", {"t"});
  nl.weapon = "club";
  With(nl, "nonlethal", 1);
  ASSERT_TRUE(s.Submit(nl, {15, 2}).ok());
  EXPECT_EQ(Vit(s, "t"), -1);
  ASSERT_TRUE(s.Submit(Cmd("h", "end_turn")).ok());

  // b shoots a, Taking Cover in the open (nothing on the line from (10,2)
  // to (2,2)): Evasion 10 + 4 = 14 (l.61), not 16 or 18 (l.25, l.111):
  // 10 + 4 = 14 hits; 1d6 1 - Armor 0 = 1.
  ASSERT_EQ(s.state().active, "b");
  auto shot = Cmd("b", "attack", {"a"});
  shot.weapon = "bow";
  ev = s.Submit(shot, {10, 1});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "004.evasion", "evasion"), 14);
  EXPECT_EQ(Vit(s, "a"), 29);
  ASSERT_TRUE(s.Submit(Cmd("b", "end_turn")).ok());
  ASSERT_TRUE(s.Submit(Cmd("t", "end_turn")).ok());
  // Round 2: Taking Cover ends at a's turn start (l.25 "until your next
  // turn"); RP back to 2 (l.6).
  ASSERT_EQ(s.state().round, 2);
  ASSERT_EQ(s.state().active, "a");
  EXPECT_FALSE(s.state().Find("a")->Has("Taking Cover"));
  EXPECT_EQ(s.state().Find("a")->Resource("rp"), 2);
  ExpectSourced(s);
  s.ExpectDeterministic();
}

}  // namespace
}  // namespace combat::tests
