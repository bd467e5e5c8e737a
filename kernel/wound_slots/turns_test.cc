// Initiative, order, rounds, turns and AP gains (l.107-127), actions paid
// over several turns (l.111) and acting out of turn (l.124).
#include "gtest/gtest.h"
#include "kernel/pending.h"
#include "kernel/wound_slots/test_util.h"

namespace combat::kernel::wound_slots {
namespace {

using namespace testutil;  // NOLINT

TEST(Turns, InitiativeAndRoundStartAp) {
  // l.119: d20 + Prc + Reflex + 5: aria 10 + 2 + 1 + 5 = 18, orc 12 + 5 = 17.
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  ASSERT_TRUE(t.status().ok()) << t.status();
  EXPECT_EQ(Init(t.state(), "aria"), 18);
  EXPECT_EQ(Init(t.state(), "orc"), 17);
  EXPECT_EQ(OrderIds(t.state()), (std::vector<std::string>{"aria", "orc"}));
  EXPECT_EQ(t.state().round, 1);
  EXPECT_EQ(t.state().active, "aria");
  // l.115: Round Start AP by Speed: Speed 1 -> 7, Speed 0 -> 6.
  EXPECT_EQ(Ap(t.state(), "aria"), 7);
  EXPECT_EQ(Ap(t.state(), "orc"), 6);
  // l.33, l.36: a standard NPC has 5 + Persona light slots and 2 of each middle level.
  EXPECT_EQ(t.state().Find("orc")->Resource(SlotsKey(kLight)), 5);
  EXPECT_EQ(t.state().Find("orc")->Resource(SlotsKey(kModerate)), 2);
  EXPECT_EQ(t.state().Find("orc")->Resource(SlotsKey(kFatal)), 1);
  // l.18-30: Vitality 1 -> 3 / 3 / 2.
  EXPECT_EQ(t.state().Find("aria")->Resource(SlotsKey(kModerate)), 3);
  EXPECT_EQ(t.state().Find("aria")->Resource(SlotsKey(kCritical)), 2);
}

TEST(Turns, TurnEndGainCarriesOverUpToMax) {
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  { auto r = t.Submit(Cmd("aria", "end_turn")); ASSERT_TRUE(r.ok()) << r.status(); }
  EXPECT_EQ(Ap(t.state(), "aria"), 14);  // l.116: +7 at the end of its turn
  EXPECT_EQ(t.state().active, "orc");
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
  EXPECT_EQ(t.state().round, 2);
  EXPECT_EQ(Ap(t.state(), "aria"), 21);  // 14 + 7 = Max AP 21 (l.117)
  EXPECT_EQ(Ap(t.state(), "orc"), 18);   // 6 + 6 + 6 = Max AP 18
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  EXPECT_EQ(Ap(t.state(), "aria"), 21);  // l.110: the excess is lost
  auto wrong = t.Submit(Cmd("aria", "end_turn"));
  EXPECT_EQ(wrong.status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(Turns, TiesReRolledEachRound) {
  // Both 18: the tie is rolled at the start of round 1 (aria 4, orc 15).
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 13, 4, 15});
  ASSERT_TRUE(t.status().ok()) << t.status();
  EXPECT_EQ(OrderIds(t.state()), (std::vector<std::string>{"orc", "aria"}));
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
  // Round 2 re-rolls, in the current order: orc 2, aria 19.
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn"), {2, 19}).ok());
  EXPECT_EQ(t.state().round, 2);
  EXPECT_EQ(OrderIds(t.state()), (std::vector<std::string>{"aria", "orc"}));
  EXPECT_EQ(t.state().active, "aria");
}

TEST(Turns, SurpriseDelaysApAndLowersInitiative) {
  // l.122: orc Perception 0 surprised: initiative 12 + 5 - 5 = 12, no AP in round 1.
  Table t(WoundSlots(), Roster({Aria(), Orc("orc", 6, 5, {}, {"standard", "surprised"})}), {10, 12});
  ASSERT_TRUE(t.status().ok()) << t.status();
  EXPECT_EQ(Init(t.state(), "orc"), 12);
  EXPECT_EQ(Ap(t.state(), "orc"), 0);
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
  EXPECT_EQ(Ap(t.state(), "orc"), 12);  // its first gain: 6 at its turn end, 6 at round 2
  EXPECT_FALSE(t.state().Find("orc")->Has("Surprised"));
}

TEST(Turns, PerceptionAboveFiveCannotBeSurprised) {
  Table t(WoundSlots(), Roster({Aria(), Orc("orc", 6, 5, {{"prc", 6}}, {"standard", "surprised"})}), {10, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  EXPECT_EQ(Init(t.state(), "orc"), 12);  // 1 + 6 + 5, no penalty
  EXPECT_EQ(Ap(t.state(), "orc"), 6);
}

TEST(Paying, ActionSpansTwoTurns) {
  // Reading: the roster sets Strong Attack to 12 AP; aria has 7.
  Table t(WoundSlots(), Roster({Aria(5, 5, {{"ap/strong_attack", 12}}), Orc()}), {10, 12});
  ASSERT_TRUE(t.Submit(Cmd("aria", "strong_attack", {"orc"})).ok());
  const PendingAct* p = FirstPending(t.state(), "aria", kPaying);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->cost_due, 12);
  EXPECT_EQ(p->cost_paid, 7);  // l.111: spend all your current AP
  EXPECT_EQ(Ap(t.state(), "aria"), 0);
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  EXPECT_EQ(Ap(t.state(), "aria"), 7);
  // Round 2, aria's turn starts with 14: 5 pay the rest and the attack takes
  // effect: d20 5 + 7 = 12 >= 10 hits; 12 + 2 + 3 + d6 1 - 10 - 2 = 6:
  // critical (l.14, l.194).
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn"), {5, 1}).ok());
  EXPECT_EQ(t.state().active, "aria");
  EXPECT_EQ(FirstPending(t.state(), "aria", kPaying), nullptr);
  EXPECT_EQ(Ap(t.state(), "aria"), 9);
  EXPECT_EQ(Wounds(t.state(), "orc", kCritical), 1);
}

TEST(Paying, SpendingApElsewhereCancels) {
  Table t(WoundSlots(), Roster({Aria(5, 5, {{"ap/strong_attack", 12}}), Orc()}), {10, 12});
  ASSERT_TRUE(t.Submit(Cmd("aria", "strong_attack", {"orc"})).ok());
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  // On the orc's turn aria (18 > 17) seizes the initiative out of turn: AP
  // spent on something else cancels the paying act (l.111).
  ASSERT_TRUE(t.Submit(Cmd("aria", "seize_initiative"), {3}).ok());
  EXPECT_EQ(FirstPending(t.state(), "aria", kPaying), nullptr);
  EXPECT_EQ(Ap(t.state(), "aria"), 3);               // 7 - 4
  EXPECT_EQ(Init(t.state(), "aria"), 18 - 2 + 3);   // out of turn -2 (l.124), +1d6 (l.248)
}

TEST(OutOfTurn, InterruptCancelsTheDeclaredAction) {
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  // The orc declares an attack; aria's initiative 18 > 17: a window opens.
  ASSERT_TRUE(t.Submit(Cmd("orc", "standard_attack", {"aria"})).ok());
  ASSERT_EQ(t.state().windows.size(), 1u);
  const uint32_t w = t.state().windows.begin()->first;
  fb::CommandT i = Cmd("aria", "interrupt", {"orc"});
  i.window = w;
  WithText(i, "act", "standard_attack");
  // aria: d20 2 + 7 = 9 < 10: a miss, but the orc's attack does not happen.
  ASSERT_TRUE(t.Submit(i, {2}).ok());
  EXPECT_TRUE(t.state().windows.empty());
  EXPECT_EQ(Ap(t.state(), "orc"), 6);          // l.124: its AP cost is not spent
  EXPECT_EQ(Ap(t.state(), "aria"), 14 - 4);    // aria paid her attack
  EXPECT_EQ(Init(t.state(), "aria"), 16);      // l.124: -2
  EXPECT_EQ(Wounds(t.state(), "aria", kLight), 0);
}

TEST(OutOfTurn, LowerInitiativeMayNotAct) {
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  auto r = t.Submit(Cmd("orc", "seize_initiative"), {3});
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(OutOfTurn, AtInitiativeOneItFloorsAtZeroAndThenCannot) {
  // aria 1 + 3 + 5 = 9; orc 6 - 10 + 5 = 1; orc2 1 - 10 + 5 = -4 -> 0 (l.120).
  Table t(WoundSlots(), Roster({Aria(), Orc("orc", 6, 5, {{"prc", -10}}), Orc("orc2", 7, 5, {{"prc", -10}})}), {1, 6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  ASSERT_EQ(Init(t.state(), "orc"), 1);
  ASSERT_EQ(Init(t.state(), "orc2"), 0);
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
  ASSERT_TRUE(t.state().IsTurnOf("orc2"));
  // 1 > 0: the orc may act out of turn (l.124); 1 - 2 floors at 0 (l.120).
  ASSERT_TRUE(t.Submit(Cmd("orc", "defend")).ok());
  EXPECT_EQ(Init(t.state(), "orc"), 0);
  EXPECT_EQ(Ap(t.state(), "orc"), 12 - 2);
  // At 0 it cannot take actions that would reduce its initiative (l.120),
  // nor is 0 higher than orc2's 0 (l.124).
  EXPECT_EQ(t.Submit(Cmd("orc", "defend")).status().code(), absl::StatusCode::kFailedPrecondition);
}

// 001 l.199 "Until your next turn"; l.108 "Each participant has one turn
// per round, with the order determined by their current initiative". Aria
// (18) defends in round 1; on the orc's (17) turn she is knocked out.
// Round 2: her place in the order comes first and passes (she cannot take
// the turn): her Defending ends there, before the orc's turn (was: the
// anchor of round 2 never met, she kept Defending for good).
TEST(Durations, DefendEndsWhenAnUnconsciousDefendersTurnPasses) {
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  ASSERT_TRUE(t.Submit(Cmd("aria", "defend")).ok());
  ASSERT_TRUE(t.state().Find("aria")->Has("Defending"));
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  KnockOut(t, "aria");
  EXPECT_TRUE(t.state().Find("aria")->Has("Defending"));  // not yet her next turn
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
  ASSERT_EQ(t.state().round, 2);
  ASSERT_EQ(t.state().active, "orc");
  EXPECT_FALSE(t.state().Find("aria")->Has("Defending"));
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
  ASSERT_EQ(t.state().round, 3);
  EXPECT_FALSE(t.state().Find("aria")->Has("Defending"));
}

// 001 l.250 "the target is no longer dying and may immediately make
// another check to wake up", l.185 "knock them unconscious but prevent them
// from gaining the dying condition": the dying are unconscious. Aria
// (initiative 18) passes; the orc (17) strikes her with a natural 20:
// 20 + 2 = 22 >= 13 hits, 22 + 3 + 4 - 13 - 1 = 15 >= 8: fatal (l.12-14);
// a PC is dying (l.4) and unconscious; initiatives orc 19, aria 16 (l.81).
// Round 2 her turn passes (l.108): round 3 starts with the orc (was: she
// took her turn and acted while dying). Stabilized (l.250), she is no
// longer dying but still unconscious until the GM's wake-up check.
TEST(Turns, ADyingCreatureIsUnconsciousAndItsTurnPasses) {
  Table t(WoundSlots(), Roster({Aria(5, 5), Orc()}), {10, 12});
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.Submit(Cmd("orc", "standard_attack", {"aria"})).ok());
  fb::CommandT pass = Cmd("aria", "pass");
  pass.window = t.state().windows.begin()->first;
  ASSERT_TRUE(t.Submit(pass, {20}).ok());
  ASSERT_EQ(Wounds(t.state(), "aria", kFatal), 1);
  EXPECT_TRUE(t.state().Find("aria")->Has("Dying"));
  EXPECT_TRUE(t.state().Find("aria")->Has("Unconscious"));
  EXPECT_FALSE(t.Submit(Cmd("aria", "defend")).ok());
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
  ASSERT_EQ(t.state().round, 2);
  ASSERT_EQ(t.state().active, "orc");
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
  EXPECT_EQ(t.state().round, 3);
  EXPECT_EQ(t.state().active, "orc");
}

// 001 l.108 "Each participant has one turn per round", l.124 "On your
// turn, you can move and take any number of actions", l.110 "once at the
// end of your turn". Aria (18, 7 AP) buys 2 AP of movement (5 AP left) and
// steps toward the orc (17); its Rebuff (l.189-190), d20 20 + 2 = 22 >= 13,
// deals 22 + 3 + 4 - 13 - 1 = 15 >= 8: fatal (l.12-14), she is dying and
// unconscious; l.81: orc 19, aria 16. She can take no more of her turn: it
// ends at once, her Turn End AP 5 + 7 = 12, and the orc's turn starts
// (was: her turn ran on until someone submitted end_turn for her).
TEST(Turns, ACreatureKnockedOutOnItsOwnTurnEndsIt) {
  Table t(WoundSlots(), Roster({Aria(5, 5), Orc("orc", 8, 5)}), {10, 12});
  ASSERT_NO_FATAL_FAILURE(AriaStepsTowardTheOrc(t));
  fb::CommandT rb = Answer(t, "orc", "rebuff", "aria");
  auto r = t.Submit(rb, {20});
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_TRUE(t.state().Find("aria")->Has("Unconscious"));
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{6, 5}));  // the move stops
  EXPECT_EQ(t.state().round, 1);
  EXPECT_EQ(t.state().active, "orc");
  EXPECT_EQ(Ap(t.state(), "aria"), 12);
  EXPECT_EQ(Ap(t.state(), "orc"), 6 - 2);
  EXPECT_EQ(t.state().Find("aria")->Resource(res::kTurnRound), 1);
  EXPECT_FALSE(t.Submit(Cmd("aria", "end_turn")).ok());  // no longer her turn
  // Round 2 (orc 19 first): Round Start +7 = 19; after the orc's turn hers
  // passes: +7 = 26, Max AP 21 (l.117), and round 3 begins.
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
  EXPECT_EQ(t.state().round, 2);
  EXPECT_EQ(t.state().active, "orc");
  EXPECT_EQ(Ap(t.state(), "aria"), 19);
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
  EXPECT_EQ(t.state().round, 3);
  EXPECT_EQ(Ap(t.state(), "aria"), 21);
}

// 001 l.108 "Each participant has one turn per round": with every
// combatant knocked out, nobody can take a turn. The orc (17) is knocked
// out before its turn, then aria (18) on hers: her turn ends (Turn End
// AP, Speed 1: 7 + 7 = 14), the orc's passes (Speed 0: 6 + 6 = 12),
// round 1 ends and round 2 starts (Round Start AP: aria 14 + 7 = 21, her
// Max AP 21; the orc 12 + 6 = 18, its Max AP 18, l.116-117), and the
// rounds stop there with no turn running, saying why (was: rounds 2 and 3
// passed too, round 4 started, and nothing ever started a turn again).
// The GM wakes the orc: round 2 goes on, aria's turn passes (her Turn End
// AP lost above 21) and the orc's turn starts.
TEST(Turns, WithEveryoneKnockedOutTheRoundsStopUntilSomeoneWakes) {
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  KnockOut(t, "orc");
  EXPECT_EQ(t.state().active, "aria");
  KnockOut(t, "aria");
  EXPECT_EQ(t.state().round, 2);
  EXPECT_EQ(t.state().active, "");
  EXPECT_EQ(Ap(t.state(), "aria"), 21);
  EXPECT_EQ(Ap(t.state(), "orc"), 18);
  EXPECT_NE(t.state().Find("orc")->Resource(res::kTurnRound), 2);
  fb::CommandT wake = kernel::testing::GmCmd("gm_condition", "orc", "comes round");
  kernel::testing::WithText(wake, "op", "remove");
  kernel::testing::WithText(wake, "name", "Unconscious");
  auto r = t.Submit(wake);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(t.state().round, 2);
  EXPECT_EQ(t.state().active, "orc");
  EXPECT_EQ(t.state().Find("aria")->Resource(res::kTurnRound), 2);
  EXPECT_EQ(Ap(t.state(), "orc"), 18);
}

// 001 l.110 "You gain AP twice per round, once at the start of the round,
// and once at the end of your turn", l.122 "you cannot gain AP until after
// your first turn", l.108. The orc, surprised (12 + 5 - 5 = 12, no Round
// Start AP), is knocked out on aria's (18) turn; its turn comes and passes:
// it ends, +6 (Speed 0, l.116), its first turn over; round 2 +6 = 12 (was:
// 0, surprised for good while its turns passed).
TEST(Turns, ATurnPassedUnconsciousEndsWithItsTurnEndAp) {
  Table t(WoundSlots(), Roster({Aria(), Orc("orc", 6, 5, {}, {"standard", "surprised"})}), {10, 12});
  ASSERT_EQ(Ap(t.state(), "orc"), 0);
  KnockOut(t, "orc");
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_EQ(t.state().round, 2);
  EXPECT_EQ(t.state().active, "aria");
  EXPECT_FALSE(t.state().Find("orc")->Has("Surprised"));
  EXPECT_EQ(Ap(t.state(), "orc"), 12);
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  EXPECT_EQ(Ap(t.state(), "orc"), 18);  // 12 + 6 (its passed turn) + 6 (round 3) = 24, Max AP 18 (l.117)
}

// 001 l.111 "continue to spend all AP on each of your subsequent turns
// until the total cost has been spent"; l.108. Aria declares a 12-AP
// Strong Attack with 7 AP (7 paid, 5 due), then is knocked out on the
// orc's turn. Round 2: her turn passes without her spending on it: the act
// is cancelled there (was: left open, paid and struck whenever she woke).
TEST(Paying, AnActPaidOverTurnsIsCancelledWhenItsActorsTurnPassesUnconscious) {
  Table t(WoundSlots(), Roster({Aria(5, 5, {{"ap/strong_attack", 12}}), Orc()}), {10, 12});
  ASSERT_TRUE(t.Submit(Cmd("aria", "strong_attack", {"orc"})).ok());
  ASSERT_NE(FirstPending(t.state(), "aria", kPaying), nullptr);
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  KnockOut(t, "aria");
  ASSERT_NE(FirstPending(t.state(), "aria", kPaying), nullptr);  // her next turn not come yet
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
  ASSERT_EQ(t.state().round, 2);
  EXPECT_EQ(FirstPending(t.state(), "aria", kPaying), nullptr);
  EXPECT_TRUE(t.state().pending.empty());
  // Nothing more paid: Turn End 7 + Round Start 7 + the Turn End 7 of the
  // turn that passed (l.110) = Max AP 21.
  EXPECT_EQ(Ap(t.state(), "aria"), 21);
}

// 001 l.235 "The target is unable to take any other actions while
// pinned"; l.111. Aria pays 7 of a 12-AP Strong Attack; on the orc's turn
// a collapsed beam pins her (GM). Round 2, her turn: pinned, she cannot
// go on with it: cancelled, her 14 AP kept (was: 5 more paid and the
// attack struck from under the beam).
TEST(Paying, APinnedActorsActPaidOverTurnsIsCancelledAtItsTurn) {
  Table t(WoundSlots(), Roster({Aria(5, 5, {{"ap/strong_attack", 12}}), Orc()}), {10, 12});
  ASSERT_TRUE(t.Submit(Cmd("aria", "strong_attack", {"orc"})).ok());
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.Submit(GmAdds("aria", "Pinned", "a collapsed beam pins her")).ok());
  auto next = t.Submit(Cmd("orc", "end_turn"));
  ASSERT_TRUE(next.ok()) << next.status();
  ASSERT_EQ(t.state().active, "aria");
  EXPECT_EQ(FirstPending(t.state(), "aria", kPaying), nullptr);
  EXPECT_EQ(Ap(t.state(), "aria"), 14);
  EXPECT_EQ(Wounds(t.state(), "orc", kCritical), 0);
  EXPECT_EQ(Wounds(t.state(), "orc", kFatal), 0);
}

TEST(OutOfTurn, ResolveWhenNobodyActs) {
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.Submit(Cmd("orc", "standard_attack", {"aria"})).ok());
  // orc: d20 11 + 2 = 13 >= 13 hits; 13 + 3 + 4 - 13 - 1 = 6: critical.
  ASSERT_TRUE(t.Submit(Cmd("orc", "resolve"), {11}).ok());
  EXPECT_EQ(Ap(t.state(), "orc"), 2);
  EXPECT_EQ(Wounds(t.state(), "aria", kCritical), 1);
  EXPECT_EQ(t.state().Find("aria")->FindCondition("Wounded")->level, kCritical);  // l.32
}

}  // namespace
}  // namespace combat::kernel::wound_slots
