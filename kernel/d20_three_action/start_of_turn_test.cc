// Start-of-turn effects (seed 000 L127-L136, L156, L158).
#include "gtest/gtest.h"
#include "kernel/d20_three_action/internal.h"
#include "kernel/d20_three_action/test_util.h"

namespace combat::kernel::d20 {
namespace {

using namespace testing;  // NOLINT

// aria acts first; gob's turn follows. `setup` runs GM rulings on gob.
Table Bleeder(int64_t hp, int64_t penalty) {
  Table t(
      D20ThreeAction(),
      MakeRoster({Being("aria", "party", 0, 0), Being("gob", "goblins", 5, 5)}),
      {15, 10});
  fb::CommandT b = Gm("gob", "gm_condition", "wounded");
  WithText(b, "name", "bleeding");
  WithText(b, "op", "add");
  EXPECT_TRUE(t.Submit(b).ok());
  fb::CommandT h = Gm("gob", "gm_set", "wounded");
  WithText(h, "resource", "hp");
  With(h, "value", hp);
  EXPECT_TRUE(t.Submit(h).ok());
  fb::CommandT p = Gm("gob", "gm_set", "wounded");
  WithText(p, "resource", "bleed_penalty");
  With(p, "value", penalty);
  EXPECT_TRUE(t.Submit(p).ok());
  return t;
}

TEST(BleedTable, DeathBandKillsBelowZeroHp) {
  Table t = Bleeder(-3, 5);
  auto ev = t.Submit(Cmd("aria", "end_turn"), {4});  // 4 - 5 = -1 (L132)
  ASSERT_OK(ev);
  EXPECT_TRUE(Has(t, "gob", kDead));
  EXPECT_EQ(NumOf(*ev, "000.bleed.death", "result"), -1);
  EXPECT_EQ(t.state().round, 2);  // its turn ended at once
  EXPECT_EQ(t.state().active, "aria");
}

TEST(BleedTable, DeathBandAtZeroOrMoreIsUnconscious) {
  Table t = Bleeder(5, 5);
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn"), {3, 1, 1}));  // -2; then 2d6
  EXPECT_FALSE(Has(t, "gob", kDead));
  EXPECT_TRUE(Has(t, "gob", kUnconscious));
  EXPECT_TRUE(Has(t, "gob", kProne));  // L168
  EXPECT_EQ(Res(t, "gob", kHp), 3);
  EXPECT_FALSE(t.Submit(Cmd("gob", "interact")).ok());  // L168 no Actions
}

TEST(BleedTable, UnconsciousBand) {
  Table t = Bleeder(10, 0);
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn"), {5, 1, 1}));  // L133
  EXPECT_TRUE(Has(t, "gob", kUnconscious));
}

TEST(BleedTable, DeteriorateBandThenBleedDamage) {
  Table t = Bleeder(10, 0);
  auto ev = t.Submit(Cmd("aria", "end_turn"), {8, 2, 2});
  ASSERT_OK(ev);
  EXPECT_TRUE(Cites(*ev, "000.bleed.deteriorate"));  // L134: +1
  EXPECT_EQ(Res(t, "gob", kBleedPenalty), 2);        // +1 more: damage
  EXPECT_EQ(Res(t, "gob", kHp), 6);
  EXPECT_EQ(Res(t, "gob", kActions), 3);
}

TEST(BleedTable, NoEffectBandOnlyBleeds) {
  Table t = Bleeder(10, 2);
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn"), {15, 3, 3}));  // 13 (L135)
  EXPECT_EQ(Res(t, "gob", kHp), 4);
  EXPECT_EQ(Res(t, "gob", kBleedPenalty), 3);
}

// 000 l.131-136, every band's edges: a result of exactly 0 is "0 or
// less" (Death below 0 HP: d20 5 - 5); 1 is Unconscious (1 - 5); 6 and 10
// Deteriorate (+1, then +1 for the 2d6); 11 and 15 nothing ("-"); 20
// Stabilize. gob at 10 HP, penalty 0: 2d6 of 2 + 2 leaves 6 HP.
TEST(BleedTable, EveryBandsEdges) {
  {
    Table t = Bleeder(-3, 5);
    ASSERT_OK(t.Submit(Cmd("aria", "end_turn"), {5}));  // 5 - 5 = 0
    EXPECT_TRUE(Has(t, "gob", kDead));
  }
  {
    Table t = Bleeder(10, 0);
    ASSERT_OK(t.Submit(Cmd("aria", "end_turn"), {1, 2, 2}));  // 1: L133
    EXPECT_TRUE(Has(t, "gob", kUnconscious));
    EXPECT_EQ(Res(t, "gob", kHp), 6);
    EXPECT_EQ(Res(t, "gob", kBleedPenalty), 1);
  }
  for (int die : {6, 10}) {  // L134
    Table t = Bleeder(10, 0);
    ASSERT_OK(t.Submit(Cmd("aria", "end_turn"), {die, 2, 2}));
    EXPECT_FALSE(Has(t, "gob", kUnconscious)) << die;
    EXPECT_EQ(Res(t, "gob", kBleedPenalty), 2) << die;
    EXPECT_EQ(Res(t, "gob", kHp), 6) << die;
  }
  for (int die : {11, 15}) {  // L135
    Table t = Bleeder(10, 0);
    ASSERT_OK(t.Submit(Cmd("aria", "end_turn"), {die, 2, 2}));
    EXPECT_FALSE(Has(t, "gob", kUnconscious)) << die;
    EXPECT_TRUE(Has(t, "gob", kBleeding)) << die;
    EXPECT_EQ(Res(t, "gob", kBleedPenalty), 1) << die;
    EXPECT_EQ(Res(t, "gob", kHp), 6) << die;
  }
  {
    Table t = Bleeder(10, 0);
    ASSERT_OK(t.Submit(Cmd("aria", "end_turn"), {20}));  // L136
    EXPECT_FALSE(Has(t, "gob", kBleeding));
    EXPECT_EQ(Res(t, "gob", kBleedPenalty), 0);
    EXPECT_EQ(Res(t, "gob", kHp), 10);
  }
}

TEST(BleedTable, StabilizeEndsBleedingWithoutDamage) {
  Table t = Bleeder(10, 3);
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn"), {19}));  // 16 (L136)
  EXPECT_FALSE(Has(t, "gob", kBleeding));
  EXPECT_EQ(Res(t, "gob", kBleedPenalty), 0);
  EXPECT_EQ(Res(t, "gob", kHp), 10);
}

TEST(StartOfTurn, FireAndTheHighestPoison) {
  Table t(
      D20ThreeAction(),
      MakeRoster({Being("aria", "party", 0, 0), Being("gob", "goblins", 5, 5)}),
      {15, 10});
  for (auto [name, level] : std::vector<std::pair<std::string, int>>{
           {"on_fire", 0}, {"poisoned", 1}, {"poisoned", 3}}) {
    fb::CommandT c = Gm("gob", "gm_condition", "alchemist's fire");
    WithText(c, "name", name);
    WithText(c, "op", "add");
    With(c, "level", level);
    ASSERT_OK(t.Submit(c));
  }
  // 2d6 fire (L156), then 3d6 poison: the highest level only (L158).
  auto ev = t.Submit(Cmd("aria", "end_turn"), {1, 2, 1, 1, 1});
  ASSERT_OK(ev);
  EXPECT_EQ(Res(t, "gob", kHp), 20 - 3 - 3);
  EXPECT_EQ(NumOf(*ev, "000.poisoned", "level"), 3);
  EXPECT_EQ(NumOf(*ev, "000.poisoned", "instances"), 2);
}

// 000 l.158 "A Poisoned Creature takes Damage every Round at the beginning of
// their Turn for the specified amount of time. Multiple instances of Poison
// do not stack (apply only the highest Level of Poison), but their Durations
// are tracked separately", with l.13 (1 Round ends "after all other
// Creatures have gotten a Turn"). Order aria, gob. In aria's turn: level 3
// for 1 Round (ends at aria's round-2 start) and level 1 for 3 Rounds (ends
// at aria's round-4 start); in gob's own turn: level 2 for 1 Round, which
// ends at gob's round-2 start, after it bites there ("every Round": its one
// Round has its one bite; was: none, the Round ending before the bite).
// gob: round 1 3d6, round 2 2d6 (level 2 ending, level 1; level 3 over),
// round 3 1d6, round 4 nothing.
TEST(StartOfTurn, PoisonDurationsAreTrackedSeparately) {
  Table t(
      D20ThreeAction(),
      MakeRoster({Being("aria", "party", 0, 0), Being("gob", "goblins", 5, 5)}),
      {15, 10});
  const auto poison = [&](int level, int rounds) {
    fb::CommandT c = Gm("gob", "gm_condition", "adder venom");
    WithText(c, "name", "poisoned");
    WithText(c, "op", "add");
    With(c, "level", level);
    With(c, "rounds", rounds);
    return t.Submit(c);
  };
  ASSERT_OK(poison(3, 1));
  ASSERT_OK(poison(1, 3));
  auto r1 = t.Submit(Cmd("aria", "end_turn"), {1, 1, 1});
  ASSERT_OK(r1);
  EXPECT_EQ(NumOf(*r1, "000.poisoned", "level"), 3);
  EXPECT_EQ(Res(t, "gob", kHp), 17);
  ASSERT_OK(poison(2, 1));  // in gob's own turn
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_EQ(t.state().round, 2);
  auto r2 = t.Submit(Cmd("aria", "end_turn"), {2, 3});
  ASSERT_OK(r2);
  EXPECT_EQ(NumOf(*r2, "000.poisoned", "level"), 2);
  EXPECT_EQ(NumOf(*r2, "000.poisoned", "instances"), 2);
  EXPECT_EQ(Res(t, "gob", kHp), 12);
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  auto r3 = t.Submit(Cmd("aria", "end_turn"), {4});  // round 3
  ASSERT_OK(r3);
  EXPECT_EQ(NumOf(*r3, "000.poisoned", "level"), 1);
  EXPECT_EQ(Res(t, "gob", kHp), 8);
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_EQ(t.state().round, 4);
  EXPECT_FALSE(Has(t, "gob", kPoisoned));  // over at aria's round-4 start
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));  // no poison die
  EXPECT_EQ(Res(t, "gob", kHp), 8);
}

// 000 l.158 "A Poisoned Creature takes Damage every Round at the beginning of
// their Turn for the specified amount of time", with l.61 (a readied action
// fires in gob's own Turn) and l.13: aria's readied dagger (poison 1 for 2
// Rounds) hits gob as it moves in round 1; the 2 Rounds end at gob's
// round-3 start, after its bite there: 2 bites (rounds 2 and 3; was: 1, the
// last Round ending before its bite), none in round 4.
TEST(StartOfTurn, APoisonLaidInItsBearersOwnTurnBitesEveryRound) {
  fb::CombatantSpecT aria = Being("aria", "party", 0, 0);
  Arm(aria, "dagger", "1d6", "melee", "light", 5, 0,
      {{"poison", 1}, {"poison_rounds", 2}});
  Table t(D20ThreeAction(),
          MakeRoster({std::move(aria), Being("gob", "goblins", 1, 1)}),
          {15, 10});
  ASSERT_OK(t.Submit(Ready("aria", "attack", "moves", "gob")));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_OK(t.Submit(MoveTo("gob", {{2, 1}})));
  ASSERT_EQ(t.state().windows.size(), 1u);
  fb::CommandT stab = Cmd("aria", "attack", {"gob"});
  stab.weapon = "dagger";
  stab.window = t.state().windows.begin()->first;
  ASSERT_OK(t.Submit(stab, {15, 1}));  // 15 + 1 + 3 = 19 vs 12; 1 + 3
  EXPECT_EQ(Res(t, "gob", kHp), 16);
  ASSERT_TRUE(Has(t, "gob", kPoisoned));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn"), {2}));  // round 2: 1d6
  EXPECT_EQ(Res(t, "gob", kHp), 14);
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  auto r3 = t.Submit(Cmd("aria", "end_turn"), {3});  // round 3: the last
  ASSERT_OK(r3);
  EXPECT_EQ(NumOf(*r3, "000.poisoned", "level"), 1);
  EXPECT_EQ(Res(t, "gob", kHp), 11);
  EXPECT_FALSE(Has(t, "gob", kPoisoned));  // its 2 Rounds are over
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));  // round 4: no die
  EXPECT_EQ(Res(t, "gob", kHp), 11);
}

// 000 l.158 with l.41 ("consider the start of the last Creature to Command
// its Turn as the start of their Turn for determining continuous Effects
// (such as ... Poison ...)"): a Poison of 1 Round laid on the wolf in its
// ranger's Turn ends at the ranger's round-2 start, after the wolf's bite
// there (was: none).
TEST(StartOfTurn, ACompanionsPoisonLaidInItsCommandersTurnBitesToo) {
  fb::CombatantSpecT wolf = Being("wolf", "party", 1, 0);
  wolf.controller = "ranger";
  Table t(D20ThreeAction(),
          MakeRoster({Being("ranger", "party", 0, 0), std::move(wolf),
                      Being("gob", "goblins", 9, 9)}),
          {15, 10});
  fb::CommandT c = Gm("wolf", "gm_condition", "adder venom");
  WithText(c, "name", "poisoned");
  WithText(c, "op", "add");
  With(c, "level", 2);
  With(c, "rounds", 1);
  ASSERT_OK(t.Submit(c));  // in the ranger's turn
  ASSERT_OK(t.Submit(Cmd("ranger", "end_turn")));
  auto r2 = t.Submit(Cmd("gob", "end_turn"), {2, 3});  // ranger's round 2
  ASSERT_OK(r2);
  EXPECT_EQ(NumOf(*r2, "000.poisoned", "level"), 2);
  EXPECT_EQ(Res(t, "wolf", kHp), 15);
  EXPECT_FALSE(Has(t, "wolf", kPoisoned));
}

// 000 l.158 "takes Damage every Round at the beginning of their Turn for
// the specified amount of time" (README "1 Round", the boundary): a GM's
// explicit `expires` `turn_start` names the time, the bearer's turn start
// of round 1 + 1: given in aria's turn, before gob's, both of gob's turn
// starts up to it are within it: round 1 1d6 (1), round 2 1d6 (2), the
// last; none in round 3. 20 - 1 - 2 = 17.
TEST(StartOfTurn, AGmsExplicitTurnStartIsTheBearersLastBite) {
  Table t(
      D20ThreeAction(),
      MakeRoster({Being("aria", "party", 0, 0), Being("gob", "goblins", 5, 5)}),
      {15, 10});
  fb::CommandT c = Gm("gob", "gm_condition", "adder venom");
  WithText(c, "name", "poisoned");
  WithText(c, "op", "add");
  With(c, "level", 1);
  With(c, "rounds", 1);
  WithText(c, "expires", "turn_start");
  ASSERT_OK(t.Submit(c));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn"), {1}));  // gob, round 1
  EXPECT_EQ(Res(t, "gob", kHp), 19);
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn"), {2}));  // gob, round 2: last
  EXPECT_EQ(Res(t, "gob", kHp), 17);
  EXPECT_FALSE(Has(t, "gob", kPoisoned));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));  // round 3: no die
  EXPECT_EQ(Res(t, "gob", kHp), 17);
}

TEST(StartOfTurn, BleedingComesFirst) {
  Table t = Bleeder(10, 0);
  GmAdd(t, "gob", "on_fire");
  auto ev = t.Submit(Cmd("aria", "end_turn"), {12, 1, 1, 2, 2});
  ASSERT_OK(ev);
  std::vector<std::string> purposes;
  for (const auto& e : *ev) {
    if (const auto* r = e.event().body_as_Roll(); r != nullptr) {
      purposes.push_back(r->purpose()->str());
    }
  }
  ASSERT_EQ(purposes.size(), 3u);
  EXPECT_EQ(purposes[0], "bleed table");
  EXPECT_EQ(purposes[1], "bleed damage");
  EXPECT_EQ(purposes[2], "fire damage");
  EXPECT_EQ(Res(t, "gob", kHp), 4);
}

}  // namespace
}  // namespace combat::kernel::d20
