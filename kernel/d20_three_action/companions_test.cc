// Command (seed 000 L41).
#include "gtest/gtest.h"
#include "kernel/d20_three_action/internal.h"
#include "kernel/d20_three_action/test_util.h"

namespace combat::kernel::d20 {
namespace {

using namespace testing;  // NOLINT

fb::RosterT Pack() {
  fb::CombatantSpecT wolf = Being("wolf", "party", 1, 0);
  wolf.controller = "ranger";
  Arm(wolf, "bite", "1d6", "natural");
  return MakeRoster({Being("ranger", "party", 0, 0), std::move(wolf),
                     Being("gob", "goblins", 4, 0)});
}

TEST(Command, ACompanionActsOnlyWhenCommandedOncePerRound) {
  Table t(D20ThreeAction(), Pack(), {15, 10});  // no initiative for the wolf
  EXPECT_EQ(t.state().order.size(), 2u);
  auto out = t.Submit(MoveTo("wolf", {{2, 0}}));
  EXPECT_EQ(out.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(out.status().message().find("Commands it"), std::string::npos);
  ASSERT_OK(t.Submit(Cmd("ranger", "command", {"wolf"})));
  EXPECT_EQ(Res(t, "ranger", kActions), 2);
  EXPECT_EQ(Res(t, "wolf", kActions), 3);
  ASSERT_OK(t.Submit(MoveTo("wolf", {{2, 0}, {3, 0}})));
  fb::CommandT bite = Cmd("wolf", "attack", {"gob"});
  bite.weapon = "bite";
  ASSERT_OK(t.Submit(bite, {10, 2}));  // 10 + 4 = 14
  EXPECT_EQ(Res(t, "gob", kHp), 15);
  EXPECT_EQ(Res(t, "wolf", kActions), 1);
  out = t.Submit(Cmd("ranger", "command", {"wolf"}));
  EXPECT_NE(out.status().message().find("once per Round"), std::string::npos);
  EXPECT_EQ(t.Submit(Cmd("wolf", "end_turn")).status().code(),
            absl::StatusCode::kFailedPrecondition);
  ASSERT_OK(t.Submit(Cmd("ranger", "end_turn")));
  EXPECT_EQ(t.Submit(MoveTo("wolf", {{2, 0}})).status().code(),
            absl::StatusCode::kFailedPrecondition);
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("ranger", "command", {"wolf"})));  // a new Round
  EXPECT_EQ(t.Submit(Cmd("gob", "command", {"wolf"})).status().code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST(Command, StartOfTurnEffectsHappenAtTheCommandersTurn) {
  Table t(D20ThreeAction(), Pack(), {15, 10});
  GmAdd(t, "wolf", "on_fire");
  ASSERT_OK(t.Submit(Cmd("ranger", "end_turn")));
  EXPECT_EQ(Res(t, "wolf", kHp), 20);
  auto ev = t.Submit(Cmd("gob", "end_turn"), {2, 3});  // ranger's turn: 2d6
  ASSERT_OK(ev);
  EXPECT_EQ(Res(t, "wolf", kHp), 15);
  EXPECT_TRUE(Cites(*ev, "000.command.start_of_turn"));
}

// 000 l.41: a companion's continuous Effects follow its commander's turn
// "even if they are not commanded"; l.77: "hold your breath a number of
// Rounds equal to your STR". Black-box: an uncommanded companion that could
// not breathe never counted a Round.
TEST(Command, AnUncommandedCompanionStillRunsOutOfBreath) {
  fb::CombatantSpecT wolf = Being("wolf", "party", 1, 0, {{"str", 2}});
  wolf.controller = "ranger";
  Arm(wolf, "bite", "1d6", "natural");
  fb::RosterT r = MakeRoster({Being("ranger", "party", 0, 0), std::move(wolf),
                              Being("gob", "goblins", 4, 0)});
  Table t(D20ThreeAction(), r, {15, 10});
  GmAdd(t, "wolf", "choked");  // under water: the GM's (README L77 row)
  ASSERT_OK(t.Submit(Cmd("ranger", "end_turn")));  // round 1 held
  const Condition* held = t.state().Find("wolf")->FindCondition(kHoldingBreath);
  ASSERT_NE(held, nullptr);
  EXPECT_EQ(held->level, 1);
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("ranger", "end_turn")));  // STR 2 Rounds: 0 HP
  EXPECT_EQ(Res(t, "wolf", kHp), 0);
  EXPECT_TRUE(Has(t, "wolf", kSuffocating));
  EXPECT_TRUE(Has(t, "wolf", kIncapacitated));
}

// 000 l.77 (seed 000_ab2f36f2929fdde3.txt): "hold your breath a number of
// Rounds equal to your STR"; l.41: a companion takes "the start of the last
// Creature to Command its Turn as the start of their Turn"; l.15: a
// delaying creature "continue[s] to suffer any ongoing Effects ... each
// Round at their original Initiative". A companion's Rounds without breath
// pass also while its commander delays (was: not counted until the
// commander ended a Turn).
TEST(Command, ACompanionsBreathRoundsPassWhileItsCommanderDelays) {
  fb::CombatantSpecT wolf = Being("wolf", "party", 1, 0, {{"str", 2}});
  wolf.controller = "ranger";
  Arm(wolf, "bite", "1d6", "natural");
  fb::RosterT r = MakeRoster({Being("ranger", "party", 0, 0), std::move(wolf),
                              Being("gob", "goblins", 4, 0)});
  Table t(D20ThreeAction(), r, {15, 10});
  GmAdd(t, "wolf", "choked");  // under water: the GM's (README L77 row)
  ASSERT_OK(t.Submit(Cmd("ranger", "delay")));  // round 1 held
  const Condition* held = t.state().Find("wolf")->FindCondition(kHoldingBreath);
  ASSERT_NE(held, nullptr);
  EXPECT_EQ(held->level, 1);
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));  // round 2: ranger's place
  EXPECT_EQ(t.state().active, "gob");
  EXPECT_EQ(Res(t, "wolf", kHp), 0);  // STR 2 Rounds
  EXPECT_TRUE(Has(t, "wolf", kSuffocating));
  EXPECT_FALSE(Has(t, "wolf", kDead));
}

}  // namespace
}  // namespace combat::kernel::d20
