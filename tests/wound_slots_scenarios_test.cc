// Scenarios for the wound_slots ruleset (seed 001), played through the
// engine into a real RocksDB with fixed dice. Every number cites the seed
// line it comes from (001_45dec7998f478a90.txt).
//
// aria (party): Prc 2, Reflex 1, Speed 1 (AP +7 at round start, +7 at turn
//   end, max 21: l.115-117), Dex 3, Melee 2, Melee/sword 1, Str 2, Vit 1,
//   Rsn 1; sword damage 3, accuracy 1, block 1.
//   Initiative d20 + 2 + 1 + 5 (l.119); attack d20 + 7 (l.71);
//   melee Defense 10 - 0 + (1 + 1) + 1 = 13 (l.100); Toughness 1 (l.16);
//   slots 5 light (l.33), 3 / 3 / 2 (Vitality 1, l.26), 1 fatal.
// orc (standard NPC): Prc 0, Speed 0 (6 / 6 / 18), Dex 1, Melee 1, Str 3,
//   Vit 2; axe 4. Initiative d20 + 5; attack d20 + 2; melee Defense 10;
//   Toughness 2; slots 5 light, 2 / 2 / 2 (l.36), 1 fatal.
// gob (minion NPC): Prc 0, Speed 2 (8 / 8 / 24), Dex 2, Melee 1; dagger 2.
//   Initiative d20 + 5; slots 1 / 1 / 1 (l.36).
// Against the orc, aria's damage is her natural d20: d20 + 7 + 2 + 3 -
// 10 - 2 (l.14, l.69).
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernel/command.h"
#include "kernel/pending.h"
#include "kernel/state.h"
#include "kernel/testing/events.h"
#include "kernel/wound_slots/ruleset.h"
#include "tests/scenario.h"

namespace combat::tests {
namespace {

using kernel::Combatant;
using Stats = std::vector<std::pair<std::string, int64_t>>;

fb::CombatantSpecT Who(const std::string& id, const std::string& side, int x, int y, Stats stats,
                       const std::string& weapon, const std::string& damage, Stats numbers,
                       std::vector<std::string> tags = {}) {
  fb::CombatantSpecT c = kernel::testing::Creature(id, side, x, y, std::move(stats));
  fb::WeaponT w = kernel::testing::MakeWeapon(weapon, damage, "melee", weapon);
  for (auto& [k, v] : numbers) {
    auto n = std::make_unique<fb::NumberT>();
    n->key = k;
    n->value = v;
    w.numbers.push_back(std::move(n));
  }
  c.weapons.push_back(std::make_unique<fb::WeaponT>(std::move(w)));
  c.tags = std::move(tags);
  return c;
}

fb::CombatantSpecT Aria() {
  return Who("aria", "party", 5, 5,
             {{"prc", 2}, {"reflex", 1}, {"spd", 1}, {"dex", 3}, {"melee", 2}, {"melee/sword", 1},
              {"str", 2}, {"vit", 1}, {"rsn", 1}, {"stamina", 9}, {"mana", 3}, {"lor", 1}},
             "sword", "3", {{"accuracy", 1}, {"block", 1}});
}
fb::CombatantSpecT Orc() {
  return Who("orc", "orcs", 6, 5, {{"spd", 0}, {"dex", 1}, {"melee", 1}, {"str", 3}, {"vit", 2}, {"stamina", 8}},
             "axe", "4", {}, {"standard"});
}
fb::CombatantSpecT Gob() {
  return Who("gob", "orcs", 5, 7, {{"spd", 2}, {"dex", 2}, {"melee", 1}, {"stamina", 5}}, "dagger", "2", {},
             {"minion"});
}

fb::RosterT Roster(std::vector<fb::CombatantSpecT> cs) {
  fb::RosterT r = kernel::testing::MakeRoster("wound_slots", std::move(cs), 20, 20);
  r.map->unit = fb::DistanceUnit::Yards;
  r.map->square = 1;
  return r;
}

int64_t Init(const kernel::State& s, const std::string& who) {
  for (const auto& e : s.order) {
    if (e.actor == who) return e.initiative;
  }
  return -1;
}
std::vector<std::string> Order(const kernel::State& s) {
  std::vector<std::string> out;
  for (const auto& e : s.order) out.push_back(e.actor);
  return out;
}
int64_t Res(const kernel::State& s, const std::string& who, const std::string& r) {
  return s.Find(who)->Resource(r);
}

// Every modifier the scenario's numbers hold names its source or rule
// (issue 16; the keys: wound_slots::IsModifier).
void ExpectSourced(const Scenario& s) {
  EXPECT_EQ(kernel::testing::UnsourcedModifiers(s.log(), kernel::wound_slots::WoundSlots().Rules(),
                                                kernel::wound_slots::IsModifier),
            std::vector<std::string>{});
}

// Three rounds: initiative moves (acting out of turn, Seize Initiative, a
// critical success), an interrupt cancels the orc's declared attack, wounds
// overflow the orc's moderate slots, an action spans two turns, and a long
// rest heals aria afterwards.
TEST(WoundSlotsScenario, AmbushAtTheBell) {
  // Set-up: initiative aria 10 + 3 + 5 = 18, gob 8 + 5 = 13, orc 12 + 5 =
  // 17 (l.119; dice in id order: aria, gob, orc).
  Scenario s(Roster({Aria(), Orc(), Gob()}), {10, 8, 12});
  ASSERT_TRUE(s.status().ok()) << s.status();
  EXPECT_EQ(Order(s.state()), (std::vector<std::string>{"aria", "orc", "gob"}));
  EXPECT_EQ(Res(s.state(), "aria", "ap"), 7);   // l.115, Speed 1
  EXPECT_EQ(Res(s.state(), "gob", "ap"), 8);    // Speed 2

  // Round 1, aria. Standard Attack (4 AP, reading): d20 3 -> damage 3:
  // moderate (l.9, l.13).
  ASSERT_TRUE(s.Submit(Cmd("aria", "standard_attack", {"orc"}), {3}).ok());
  EXPECT_EQ(Res(s.state(), "orc", "wounds_moderate"), 1);
  // Quick Attack (3 AP): d20 5 -> 5: severe, one step less: moderate (l.187).
  ASSERT_TRUE(s.Submit(Cmd("aria", "quick_attack", {"orc"}), {5}).ok());
  EXPECT_EQ(Res(s.state(), "orc", "wounds_moderate"), 2);
  EXPECT_EQ(Res(s.state(), "aria", "ap"), 0);
  ASSERT_TRUE(s.Submit(Cmd("aria", "end_turn")).ok());
  EXPECT_EQ(Res(s.state(), "aria", "ap"), 7);  // l.116: +7 at the end of its turn
  EXPECT_EQ(s.state().active, "orc");

  // The orc declares an attack on aria; aria's initiative 18 is higher than
  // the orc's 17: she may act before it resolves (l.124): a window.
  ASSERT_TRUE(s.Submit(Cmd("orc", "standard_attack", {"aria"})).ok());
  ASSERT_EQ(s.state().windows.size(), 1u);
  fb::CommandT cut = Cmd("aria", "interrupt", {"orc"});
  cut.window = s.state().windows.begin()->first;
  WithText(cut, "act", "standard_attack");
  // d20 3 -> moderate; both moderate slots are full: severe (l.31).
  ASSERT_TRUE(s.Submit(cut, {3}).ok());
  EXPECT_EQ(Res(s.state(), "orc", "wounds_moderate"), 2);
  EXPECT_EQ(Res(s.state(), "orc", "wounds_severe"), 1);
  EXPECT_TRUE(s.state().windows.empty());
  EXPECT_TRUE(s.state().pending.empty());       // the orc's attack does not take place
  EXPECT_EQ(Res(s.state(), "orc", "ap"), 6);    // l.124: and its AP is not spent
  EXPECT_EQ(Res(s.state(), "aria", "ap"), 3);
  EXPECT_EQ(Init(s.state(), "aria"), 16);       // l.124: -2
  EXPECT_EQ(Order(s.state()), (std::vector<std::string>{"orc", "aria", "gob"}));

  // Now nobody's initiative beats the orc's: its Strong Attack (6 AP)
  // resolves at once: d20 11 + 2 = 13 >= 13 hits; 13 + 3 + 4 + d6 1 - 13 -
  // 1 = 7: critical (l.14, l.194).
  ASSERT_TRUE(s.Submit(Cmd("orc", "strong_attack", {"aria"}), {11, 1}).ok());
  EXPECT_EQ(Res(s.state(), "aria", "wounds_critical"), 1);
  EXPECT_EQ(s.state().Find("aria")->FindCondition("Wounded")->level, 4);  // l.32
  ASSERT_TRUE(s.Submit(Cmd("orc", "end_turn")).ok());
  EXPECT_EQ(Res(s.state(), "orc", "ap"), 6);

  // The goblin seizes the initiative. aria (16) and the orc (17) are above
  // its 13: a window lets them act first (l.124); nobody does, and the
  // goblin resolves it: 13 + d6 5 = 18 (l.248): first in order.
  ASSERT_TRUE(s.Submit(Cmd("gob", "seize_initiative")).ok());
  ASSERT_EQ(s.state().windows.size(), 1u);
  EXPECT_EQ(s.state().windows.begin()->second.eligible, (std::vector<std::string>{"aria", "orc"}));
  ASSERT_TRUE(s.Submit(Cmd("gob", "resolve"), {5}).ok());
  EXPECT_EQ(Init(s.state(), "gob"), 18);
  EXPECT_EQ(Order(s.state()), (std::vector<std::string>{"gob", "orc", "aria"}));
  ASSERT_TRUE(s.Submit(Cmd("gob", "end_turn")).ok());

  // Round 2: AP at round start (l.110): aria 3 + 7 = 10; orc 6 + 6 = 12;
  // gob 4 + 8 + 8 = 20. The new order acts: gob, orc, aria.
  EXPECT_EQ(s.state().round, 2);
  EXPECT_EQ(Res(s.state(), "aria", "ap"), 10);
  EXPECT_EQ(Res(s.state(), "orc", "ap"), 12);
  EXPECT_EQ(Res(s.state(), "gob", "ap"), 20);
  EXPECT_EQ(s.state().active, "gob");
  ASSERT_TRUE(s.Submit(Cmd("gob", "end_turn")).ok());
  EXPECT_EQ(Res(s.state(), "gob", "ap"), 24);   // 20 + 8 = 28: Max AP 24 (l.117)
  ASSERT_TRUE(s.Submit(Cmd("orc", "end_turn")).ok());
  EXPECT_EQ(s.state().active, "aria");
  // aria, now last: each act opens a window for gob and the orc; they let
  // it resolve. Standard (4) and Quick (3): d20 2 misses (9 < 10) twice.
  ASSERT_TRUE(s.Submit(Cmd("aria", "standard_attack", {"orc"})).ok());
  ASSERT_TRUE(s.Submit(Cmd("aria", "resolve"), {2}).ok());
  ASSERT_TRUE(s.Submit(Cmd("aria", "quick_attack", {"orc"})).ok());
  ASSERT_TRUE(s.Submit(Cmd("aria", "resolve"), {2}).ok());
  EXPECT_EQ(Res(s.state(), "aria", "ap"), 3);
  // She rings the warning bell: 6 AP (l.268) with 3: she spends all 3 now
  // and the rest on her next turn (l.111).
  fb::CommandT bell = Cmd("aria", "use_object");
  WithText(bell, "object", "bell");
  ASSERT_TRUE(s.Submit(bell).ok());
  ASSERT_EQ(s.state().pending.size(), 1u);
  const kernel::PendingAct& paying = s.state().pending.begin()->second;
  EXPECT_EQ(paying.kind, "paying");
  EXPECT_EQ(paying.cost_due, 6);
  EXPECT_EQ(paying.cost_paid, 3);
  EXPECT_EQ(Res(s.state(), "aria", "ap"), 0);
  ASSERT_TRUE(s.Submit(Cmd("aria", "end_turn")).ok());

  // Round 3: aria 0 + 7 + 7 = 14. gob and orc pass their turns; at the
  // start of aria's turn the bell is paid (3 more) and rings.
  EXPECT_EQ(s.state().round, 3);
  ASSERT_TRUE(s.Submit(Cmd("gob", "end_turn")).ok());
  ASSERT_TRUE(s.Submit(Cmd("orc", "end_turn")).ok());
  EXPECT_EQ(s.state().active, "aria");
  EXPECT_TRUE(s.state().pending.empty());
  EXPECT_EQ(Res(s.state(), "aria", "ap"), 11);
  // A critical success (d20 20): damage 20, fatal: the NPC dies (l.35);
  // aria's initiative +2, the orc's -2 (l.81).
  ASSERT_TRUE(s.Submit(Cmd("aria", "standard_attack", {"orc"})).ok());
  ASSERT_TRUE(s.Submit(Cmd("aria", "resolve"), {20}).ok());
  EXPECT_TRUE(s.state().Find("orc")->Has("Dead"));
  EXPECT_EQ(Init(s.state(), "aria"), 18);
  EXPECT_EQ(Init(s.state(), "orc"), 15);

  // After the fight: a long rest. Critically wounded: no light wounds to
  // heal (l.50); recovery check d20 5 + Vit 1 - fatigue 0 = 6 >= 4: the
  // critical wound drops to severe (l.52, l.61, l.63).
  ASSERT_TRUE(s.Submit(Cmd("aria", "long_rest"), {5}).ok());
  EXPECT_EQ(Res(s.state(), "aria", "wounds_critical"), 0);
  EXPECT_EQ(Res(s.state(), "aria", "wounds_severe"), 1);
  EXPECT_EQ(s.state().Find("aria")->FindCondition("Wounded")->level, 3);
  ExpectSourced(s);
  s.ExpectDeterministic();
}

// Durations counted in rounds (l.127), movement by the table (l.160),
// Dash (l.222), the movement pool lost at the end of the round, Defend until
// the next turn (l.199).
TEST(WoundSlotsScenario, DurationsAndMovement) {
  Scenario s(Roster({Aria(), Orc(), Gob()}), {10, 8, 12});
  ASSERT_TRUE(s.status().ok()) << s.status();
  // Distract (Hinder, 4 AP reading): Prs 0 + d20 15 = 15 vs the orc's
  // opposed Prc 0 + Deception 0 + d20 5 = 5 (l.244, l.67 "defense rolls"):
  // -2 until the end of the round.
  fb::CommandT distract = Cmd("aria", "hinder", {"orc"});
  WithText(distract, "hindrance", "distract");
  ASSERT_TRUE(s.Submit(distract, {15, 5}).ok());
  EXPECT_TRUE(s.state().Find("orc")->Has("Distracted"));
  // Dash (2 AP): the movement rate 8 (Str 2 + Size 0 + Athletics 0, l.142)
  // doubles to 16; 1 AP buys 4 yd at rate 16 (l.150).
  ASSERT_TRUE(s.Submit(Cmd("aria", "dash")).ok());
  fb::CommandT buy = Cmd("aria", "buy_move");
  With(buy, "ap", 1);
  ASSERT_TRUE(s.Submit(buy).ok());
  EXPECT_EQ(Res(s.state(), "aria", "move_pool"), 4);
  EXPECT_EQ(Res(s.state(), "aria", "ap"), 0);
  // Three diagonal steps: 1 + 2 + 1 = 4 yd (l.161).
  fb::CommandT mv = Cmd("aria", "move");
  mv.path = {fb::Pos(4, 4), fb::Pos(3, 3), fb::Pos(2, 2)};
  ASSERT_TRUE(s.Submit(mv).ok());
  EXPECT_EQ(Res(s.state(), "aria", "move_pool"), 0);
  fb::CommandT more = Cmd("aria", "move");
  more.path = {fb::Pos(1, 1)};
  EXPECT_EQ(s.Submit(more).status().code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(s.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(s.Submit(Cmd("orc", "end_turn")).ok());
  EXPECT_TRUE(s.state().Find("orc")->Has("Distracted"));  // still round 1
  ASSERT_TRUE(s.Submit(Cmd("gob", "end_turn")).ok());
  // Round 2: a 1-round effect ended with round 1 (l.127); so did the Dash.
  EXPECT_EQ(s.state().round, 2);
  EXPECT_FALSE(s.state().Find("orc")->Has("Distracted"));
  EXPECT_FALSE(s.state().Find("aria")->Has("Dashing"));
  // Defend: until aria's next turn (l.199).
  ASSERT_TRUE(s.Submit(Cmd("aria", "defend")).ok());
  ASSERT_TRUE(s.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(s.Submit(Cmd("orc", "end_turn")).ok());
  EXPECT_TRUE(s.state().Find("aria")->Has("Defending"));  // not yet her turn
  ASSERT_TRUE(s.Submit(Cmd("gob", "end_turn")).ok());
  EXPECT_EQ(s.state().round, 3);
  EXPECT_EQ(s.state().active, "aria");
  EXPECT_FALSE(s.state().Find("aria")->Has("Defending"));
  ExpectSourced(s);
  s.ExpectDeterministic();
}

// l.127: "The round in which the effect begins counts as round 1, and the
// effect ends at the end of the round equal to its duration." A condition
// the GM imposes for 2 rounds (no `expires` given) in round 1 lasts through
// round 2 and is gone when round 3 begins, before the orc's turn in it (the
// kernel's own default would keep it until the orc's turn started).
TEST(WoundSlotsScenario, AGmConditionForRoundsEndsAsTheTextCountsRounds) {
  Scenario s(Roster({Aria(), Orc(), Gob()}), {10, 8, 12});
  ASSERT_TRUE(s.status().ok()) << s.status();
  ASSERT_EQ(s.state().active, "aria");
  fb::CommandT gm = kernel::testing::GmCmd("gm_condition", "orc", "dazzled by the bell");
  WithText(gm, "name", "Distracted");
  WithText(gm, "op", "add");
  With(gm, "rounds", 2);
  ASSERT_TRUE(s.Submit(gm).ok());
  for (const char* who : {"aria", "orc", "gob"}) ASSERT_TRUE(s.Submit(Cmd(who, "end_turn")).ok());
  EXPECT_EQ(s.state().round, 2);
  EXPECT_TRUE(s.state().Find("orc")->Has("Distracted"));  // round 2 of 2
  for (const char* who : {"aria", "orc"}) ASSERT_TRUE(s.Submit(Cmd(who, "end_turn")).ok());
  EXPECT_TRUE(s.state().Find("orc")->Has("Distracted"));  // round 2 not over
  ASSERT_TRUE(s.Submit(Cmd("gob", "end_turn")).ok());
  EXPECT_EQ(s.state().round, 3);
  EXPECT_EQ(s.state().active, "aria");
  EXPECT_FALSE(s.state().Find("orc")->Has("Distracted"));
  ExpectSourced(s);
  s.ExpectDeterministic();
}

// A PC's slots overflow into a fatal wound (l.31, l.4), an ally stabilizes
// and treats it (l.250, l.261-262), and long rests heal it down with the
// recovery checks' cumulative +1 (l.51-53, l.63).
// bob (party): Prc 0, Speed 0, Lor 2, Healing 3, Healing/Wounds 1: Lor
// [Healing/Wounds] d20 + 6; initiative d20 + 5.
TEST(WoundSlotsScenario, WoundsAndRecovery) {
  auto bob = Who("bob", "party", 4, 5, {{"lor", 2}, {"healing", 3}, {"healing/wounds", 1}, {"stamina", 8}},
                 "staff", "2", {});
  // Initiative: aria 10 + 8 = 18, bob 3 + 5 = 8, orc 12 + 5 = 17.
  Scenario s(Roster({Aria(), std::move(bob), Orc()}), {10, 3, 12});
  ASSERT_TRUE(s.status().ok()) << s.status();
  ASSERT_TRUE(s.Submit(Cmd("aria", "end_turn")).ok());
  // The orc attacks; aria (18 > 17) may act first but passes; the attack
  // resolves: d20 11 + 2 = 13 >= 13; 13 + 3 + 4 - 13 - 1 = 6: critical (l.11).
  ASSERT_TRUE(s.Submit(Cmd("orc", "standard_attack", {"aria"})).ok());
  fb::CommandT pass = Cmd("aria", "pass");
  pass.window = s.state().windows.begin()->first;
  ASSERT_TRUE(s.Submit(pass, {11}).ok());
  EXPECT_EQ(Res(s.state(), "aria", "wounds_critical"), 1);
  ASSERT_TRUE(s.Submit(Cmd("orc", "end_turn")).ok());
  ASSERT_TRUE(s.Submit(Cmd("bob", "end_turn")).ok());
  // Round 2.
  ASSERT_TRUE(s.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(s.Submit(Cmd("orc", "standard_attack", {"aria"})).ok());
  pass.window = s.state().windows.begin()->first;
  ASSERT_TRUE(s.Submit(pass, {12}).ok());  // 14 + 7 - 14 = 7: critical, 2 of 2 slots
  EXPECT_EQ(Res(s.state(), "aria", "wounds_critical"), 2);
  ASSERT_TRUE(s.Submit(Cmd("orc", "strong_attack", {"aria"})).ok());
  pass.window = s.state().windows.begin()->first;
  // 13 + 3 + 4 + d6 1 - 14 = 7: critical; both critical slots are full: the
  // wound becomes fatal (l.31); a PC is dying (l.4).
  ASSERT_TRUE(s.Submit(pass, {11, 1}).ok());
  EXPECT_EQ(Res(s.state(), "aria", "wounds_critical"), 2);
  EXPECT_EQ(Res(s.state(), "aria", "wounds_fatal"), 1);
  EXPECT_TRUE(s.state().Find("aria")->Has("Dying"));
  EXPECT_FALSE(s.state().Find("aria")->Has("Dead"));
  ASSERT_TRUE(s.Submit(Cmd("orc", "end_turn")).ok());
  // bob stabilizes: TN = 3 wounds received (l.250); d20 2 + 6 = 8.
  fb::CommandT stab = Cmd("bob", "stabilize", {"aria"});
  With(stab, "kit", 1);
  ASSERT_TRUE(s.Submit(stab).ok());
  ASSERT_TRUE(s.Submit(Cmd("bob", "resolve"), {2}).ok());
  EXPECT_FALSE(s.state().Find("aria")->Has("Dying"));
  // Treat Wound on the fatal wound: TN 9 (l.260); d20 5 + 6 = 11: 1 + (11 -
  // 9) / 2 = 2 steps: fatal -> severe (l.261). Fatigue = the highest
  // remaining wound, critical = 4 (l.262): max stamina 10 - 4 = 6 (l.40).
  fb::CommandT treat = Cmd("bob", "treat_wound", {"aria"});
  With(treat, "level", 5);
  With(treat, "kit", 1);
  ASSERT_TRUE(s.Submit(treat).ok());
  ASSERT_TRUE(s.Submit(Cmd("bob", "resolve"), {5}).ok());
  EXPECT_EQ(Res(s.state(), "aria", "wounds_fatal"), 0);
  EXPECT_EQ(Res(s.state(), "aria", "wounds_severe"), 1);
  EXPECT_EQ(Res(s.state(), "aria", "fatigue"), 4);
  EXPECT_EQ(Res(s.state(), "aria", "stamina"), 6);
  EXPECT_EQ(Res(s.state(), "bob", "ap"), 18 - 4 - 6);  // readings: Stabilize 4, Treat Wound 6

  // Long rest 1: critically wounded; fatigue 4 - (5 + 1 - 4) = 2 (l.51);
  // recovery d20 1 + 1 - 2 = 0 >= -1 reaches severe (l.60): severe ->
  // moderate; all stamina: 10 - 2 = 8 (l.53).
  ASSERT_TRUE(s.Submit(Cmd("aria", "long_rest"), {1}).ok());
  EXPECT_EQ(Res(s.state(), "aria", "fatigue"), 2);
  EXPECT_EQ(Res(s.state(), "aria", "wounds_severe"), 0);
  EXPECT_EQ(Res(s.state(), "aria", "wounds_moderate"), 1);
  EXPECT_EQ(Res(s.state(), "aria", "stamina"), 8);
  // Long rest 2: fatigue 2 - 2 = 0; d20 2 + 1 = 3: moderate -> light.
  ASSERT_TRUE(s.Submit(Cmd("aria", "long_rest"), {2}).ok());
  EXPECT_EQ(Res(s.state(), "aria", "fatigue"), 0);
  EXPECT_EQ(Res(s.state(), "aria", "wounds_light"), 1);
  // Long rest 3: critically wounded, so light wounds stay (l.50); d20 1 +
  // 1 = 2: the light wound heals.
  ASSERT_TRUE(s.Submit(Cmd("aria", "long_rest"), {1}).ok());
  EXPECT_EQ(Res(s.state(), "aria", "wounds_light"), 0);
  // Long rest 4: d20 1 + 1 = 2 < 4: the critical wounds are out of reach:
  // nothing heals, +1 on later checks (l.63).
  ASSERT_TRUE(s.Submit(Cmd("aria", "long_rest"), {1}).ok());
  EXPECT_EQ(Res(s.state(), "aria", "wounds_critical"), 2);
  EXPECT_EQ(Res(s.state(), "aria", "recovery_bonus"), 1);
  // Long rest 5: d20 2 + 1 + 1 = 4 >= 4: critical -> severe; the bonus ends.
  ASSERT_TRUE(s.Submit(Cmd("aria", "long_rest"), {2}).ok());
  EXPECT_EQ(Res(s.state(), "aria", "wounds_critical"), 1);
  EXPECT_EQ(Res(s.state(), "aria", "wounds_severe"), 1);
  EXPECT_EQ(Res(s.state(), "aria", "recovery_bonus"), 0);
  EXPECT_EQ(s.state().Find("aria")->FindCondition("Wounded")->level, 4);
  ExpectSourced(s);
  s.ExpectDeterministic();
}

}  // namespace
}  // namespace combat::tests
