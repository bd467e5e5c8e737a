// Readied actions firing in windows (seed 000 L61).
#include "gtest/gtest.h"
#include "kernel/d20_three_action/internal.h"
#include "kernel/d20_three_action/test_util.h"
#include "kernel/pending.h"

namespace combat::kernel::d20 {
namespace {

using namespace testing;  // NOLINT

fb::RosterT Pair() {
  fb::CombatantSpecT a = Being("aria", "party", 0, 0);
  Arm(a, "spear", "1d8", "melee");
  fb::CombatantSpecT g = Being("gob", "goblins", 5, 0);
  Arm(g, "club", "1d6", "melee");
  return MakeRoster({std::move(a), std::move(g)});
}

bool Holds(const Table& t, const std::string& who, const char* kind) {
  return FirstPending(t.state(), who, kind) != nullptr;
}

Pos At(const Table& t, const std::string& who) {
  return t.state().Find(who)->at;
}

// aria readies `action` for when gob moves within her reach, and ends her
// turn.
Table Readied(const std::string& action,
              const std::string& trigger = "moves_within_reach") {
  Table t(D20ThreeAction(), Pair(), {15, 10});
  fb::CommandT r = Ready("aria", action, trigger, "gob");
  EXPECT_TRUE(t.Submit(r).ok());
  EXPECT_EQ(Res(t, "aria", kActions), 1);  // two Actions (L61)
  EXPECT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  return t;
}

fb::CommandT Answer(const std::string& action, uint32_t window) {
  fb::CommandT c = Cmd("aria", action, {"gob"});
  c.window = window;
  if (action == "attack") c.weapon = "spear";
  return c;
}

TEST(Readied, AMoveIntoReachStopsThereAndOpensAWindow) {
  Table t = Readied("attack");
  ASSERT_OK(t.Submit(MoveTo("gob", {{4, 0}, {3, 0}, {2, 0}, {1, 1}, {2, 2}})));
  EXPECT_EQ(At(t, "gob"), (Pos{1, 1}));  // the square that entered reach
  ASSERT_EQ(t.state().windows.size(), 1u);
  const Window& w = t.state().windows.begin()->second;
  EXPECT_EQ(w.eligible, std::vector<std::string>{"aria"});
  EXPECT_TRUE(Holds(t, "gob", kHeldBack));
  // Nothing else may happen until the window is answered.
  auto out = t.Submit(Cmd("gob", "end_turn"));
  EXPECT_EQ(out.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(out.status().message().find("aria answers it first"),
            std::string::npos);
  fb::CommandT wrong = Answer("choke", w.id);
  EXPECT_EQ(t.Submit(wrong).status().code(),
            absl::StatusCode::kFailedPrecondition);
  // The readied attack interrupts: 15 + 4 hits, 5 + 3 damage; then the
  // rest of the move resolves.
  auto ev = t.Submit(Answer("attack", w.id), {15, 5});
  ASSERT_OK(ev);
  EXPECT_EQ(Res(t, "gob", kHp), 12);
  EXPECT_TRUE(t.state().windows.empty());
  EXPECT_FALSE(Holds(t, "aria", kReadiedAct));
  EXPECT_FALSE(Holds(t, "gob", kHeldBack));
  EXPECT_EQ(At(t, "gob"), (Pos{2, 2}));
  EXPECT_EQ(Res(t, "gob", kActions), 2);  // one Move
  auto replay = t.Replay();
  ASSERT_OK(replay);
}

TEST(Readied, AnInterruptCanMakeTheRestIllegal) {
  Table t = Readied("trip");
  ASSERT_OK(t.Submit(MoveTo("gob", {{4, 0}, {3, 0}, {2, 0}, {1, 1}, {2, 2}})));
  const uint32_t w = t.state().windows.begin()->first;
  auto ev = t.Submit(Answer("trip", w), {12, 5});  // 16 vs 9: Prone
  ASSERT_OK(ev);
  EXPECT_TRUE(Has(t, "gob", kProne));
  EXPECT_EQ(At(t, "gob"), (Pos{1, 1}));  // the move was cancelled
  EXPECT_TRUE(t.state().windows.empty());
}

// 000 l.47 (seed 000_ab2f36f2929fdde3.txt): "A Maneuver is a special Type
// of Attack. Any time you would be able to make a Melee Attack you may
// instead attempt to Break, Disarm, Feint, Grapple, Push, or Trip with the
// same Reach"; l.61: "you must choose a specific Action to ready". A
// readied Attack fires as a Trip (was: refused, "readied 'attack', not
// 'trip'"); an act that is no Attack (a choke) still is refused.
TEST(Readied, AReadiedAttackMayFireAsAManeuver) {
  Table t = Readied("attack");
  ASSERT_OK(t.Submit(MoveTo("gob", {{4, 0}, {3, 0}, {2, 0}, {1, 1}, {2, 2}})));
  const uint32_t w = t.state().windows.begin()->first;
  auto choke = t.Submit(Answer("choke", w));
  EXPECT_EQ(choke.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(choke.status().message().find("readied 'attack'"),
            std::string::npos);
  auto ev = t.Submit(Answer("trip", w), {12, 5});  // 16 vs 9: Prone
  ASSERT_OK(ev);
  EXPECT_TRUE(Has(t, "gob", kProne));
  EXPECT_FALSE(Holds(t, "aria", kReadiedAct));
  EXPECT_EQ(At(t, "gob"), (Pos{1, 1}));  // the move was cancelled
  EXPECT_TRUE(t.state().windows.empty());
}

TEST(Readied, PassingLetsTheDeclarationResolve) {
  Table t = Readied("attack");
  ASSERT_OK(t.Submit(MoveTo("gob", {{4, 0}, {3, 0}, {2, 0}, {1, 1}, {2, 2}})));
  const uint32_t w = t.state().windows.begin()->first;
  fb::CommandT pass = Cmd("aria", "pass");
  pass.window = w;
  ASSERT_OK(t.Submit(pass));
  EXPECT_EQ(At(t, "gob"), (Pos{2, 2}));
  EXPECT_TRUE(Holds(t, "aria", kReadiedAct));  // not used: still ready
}

TEST(Readied, AnAttackTriggerOpensBeforeTheAttackResolves) {
  Table t = Readied("attack", "attacks");
  ASSERT_OK(
      t.Submit(MoveTo("gob", {{4, 0}, {3, 0}, {2, 0}, {1, 0}})));  // no trigger
  EXPECT_TRUE(t.state().windows.empty());
  fb::CommandT club = Cmd("gob", "attack", {"aria"});
  club.weapon = "club";
  ASSERT_OK(t.Submit(club));  // declared; no dice rolled yet
  ASSERT_EQ(t.state().windows.size(), 1u);
  EXPECT_EQ(Res(t, "gob", kActions), 1);  // paid at declaration
  const uint32_t w = t.state().windows.begin()->first;
  // aria strikes first; gob's attack then resolves (dice on this command).
  ASSERT_OK(t.Submit(Answer("attack", w), {15, 5, 9, 2}));
  EXPECT_EQ(Res(t, "gob", kHp), 12);
  EXPECT_EQ(Res(t, "aria", kHp), 20 - 5);  // 9 + 4 = 13 hits; 2 + 3
}

// 000 l.35: moving through an Enemy's square is "a Push attempt against
// them as a Free Action"; l.47: a Push counts as an Attack; l.61: the
// readied action's condition. Black-box: a readied "attacks" let the Push
// attempt of a move pass (only an `attack` or a Maneuver set it off).
TEST(Readied, AMovesPushAttemptSetsOffAnAttacksTrigger) {
  Table t(D20ThreeAction(), Pair(), {15, 10});
  ASSERT_OK(t.Submit(MoveTo("aria", {{1, 0}, {2, 0}, {3, 0}, {4, 0}})));
  fb::CommandT r = Ready("aria", "attack", "attacks", "gob");
  ASSERT_OK(t.Submit(r));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  // gob (5,0) moves through aria's square (4,0): the window opens before
  // the Push attempt, nothing of the path resolved yet.
  auto ev = t.Submit(MoveTo("gob", {{4, 0}, {3, 0}}));
  ASSERT_OK(ev);
  ASSERT_EQ(t.state().windows.size(), 1u);
  EXPECT_EQ(At(t, "gob"), (Pos{5, 0}));
  EXPECT_EQ(NumOf(*ev, "000.move.push_through", "success"), -999);
  const uint32_t w = t.state().windows.begin()->first;
  fb::CommandT pass = Cmd("aria", "pass");
  pass.window = w;
  ASSERT_OK(t.Submit(pass, {15, 1}));  // 15 + 4 = 19 vs 1 + 4 = 5: critical
  EXPECT_EQ(At(t, "gob"), (Pos{3, 0}));
}

TEST(Readied, AMoverKilledByTheReadiedAttackEndsItsTurn) {
  fb::RosterT r = Pair();
  r.combatants[1]->stats[4]->value = 3;  // gob: 3 max HP
  Table t(D20ThreeAction(), r, {15, 10});
  fb::CommandT ready = Cmd("aria", "ready");
  WithText(ready, "action", "attack");
  WithText(ready, "trigger", "moves_within_reach");
  ASSERT_OK(t.Submit(ready));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_OK(t.Submit(MoveTo("gob", {{4, 0}, {3, 0}, {2, 0}, {1, 0}})));
  const uint32_t w = t.state().windows.begin()->first;
  ASSERT_OK(t.Submit(Answer("attack", w), {15, 4}));  // 7 damage: -4 <= -3
  EXPECT_TRUE(Has(t, "gob", kDead));
  EXPECT_EQ(t.state().round, 2);
  EXPECT_EQ(t.state().active, "aria");
}

TEST(Readied, ExpiresAtTheReadiersNextTurn) {
  Table t = Readied("attack");
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  EXPECT_FALSE(Holds(t, "aria", kReadiedAct));
}

// 000 l.61 "This Action may be triggered at any point up to your next
// Turn", with l.13 "At any point a Creature can decide to hold its Turn" and
// l.15 "If a Creature does not yet wish to act at the start of their Turn
// they may decide to delay their Turn ... They must still experience any
// Effects that would normally affect them at the start of their Turn". By
// hand: aria readies an attack (2 Actions) and holds the rest of her Turn
// until after gob's; her held Turn resuming is the Turn she readied in, not
// her next, so the readied attack stands through it and through gob's
// round-2 Turn (gob's move within reach there sets it off; she passes). Her
// round-2 Turn starts and she delays it: that next Turn has started (its
// start came), and the readied action has lapsed.
TEST(Readied, AHeldTurnKeepsItButADelayedNextTurnHasStarted) {
  Table t(D20ThreeAction(), Pair(), {15, 10});
  ASSERT_OK(t.Submit(Ready("aria", "attack", "moves_within_reach", "gob")));
  HoldUntilAfter(t, "aria", "gob");
  ASSERT_EQ(t.state().active, "gob");
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_EQ(t.state().active, "aria");  // the held Turn resumes
  ASSERT_EQ(t.state().round, 1);
  EXPECT_TRUE(Holds(t, "aria", kReadiedAct));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_EQ(t.state().round, 2);
  ASSERT_EQ(t.state().active, "gob");  // aria now follows gob
  EXPECT_TRUE(Holds(t, "aria", kReadiedAct));
  ASSERT_OK(t.Submit(MoveTo("gob", {{4, 0}, {3, 0}, {2, 0}, {1, 0}})));
  EXPECT_EQ(t.state().windows.size(), 1u);
  fb::CommandT pass = Cmd("aria", "pass");
  pass.window = t.state().windows.begin()->first;
  ASSERT_OK(t.Submit(pass));
  EXPECT_TRUE(Holds(t, "aria", kReadiedAct));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_EQ(t.state().active, "aria");
  ASSERT_OK(t.Submit(Cmd("aria", "delay")));
  EXPECT_FALSE(Holds(t, "aria", kReadiedAct));
}

// 000 l.61: "You may use two Actions to ready a single Action": a readied
// Focus fires as one Action's Focus, never three (black-box: it gained 6
// Energy for `actions` 3).
TEST(Readied, AReadiedActionIsASingleAction) {
  fb::CombatantSpecT a =
      Being("aria", "party", 0, 0, {{"ess", 5}, {"energy_max", 20}, {"energy", 0}});
  Arm(a, "spear", "1d8", "melee");
  fb::CombatantSpecT g = Being("gob", "goblins", 5, 0);
  Arm(g, "club", "1d6", "melee");
  Table t(D20ThreeAction(), MakeRoster({std::move(a), std::move(g)}), {15, 10});
  fb::CommandT r = Ready("aria", "focus", "any_action", "gob");
  ASSERT_OK(t.Submit(r));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_OK(t.Submit(MoveTo("gob", {{4, 0}})));
  ASSERT_EQ(t.state().windows.size(), 1u);
  const uint32_t w = t.state().windows.begin()->first;
  fb::CommandT three = Cmd("aria", "focus");
  three.window = w;
  With(three, "actions", 3);
  auto refused = t.Submit(three);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(refused.status().message().find("single Action"), std::string::npos);
  EXPECT_EQ(Res(t, "aria", kEnergy), 0);
  fb::CommandT one = Cmd("aria", "focus");
  one.window = w;
  ASSERT_OK(t.Submit(one));
  EXPECT_EQ(Res(t, "aria", kEnergy), 2);  // (5 + 1) / 3 = 2, one Action (L43)
  EXPECT_TRUE(t.state().windows.empty());
}

TEST(Readied, ReadyChecksItsParams) {
  Table t(D20ThreeAction(), Pair(), {15, 10});
  fb::CommandT r = Cmd("aria", "ready");
  WithText(r, "action", "attack");
  EXPECT_EQ(t.Submit(r).status().code(), absl::StatusCode::kInvalidArgument);
  WithText(r, "trigger", "enters_square");
  EXPECT_EQ(t.Submit(r).status().code(), absl::StatusCode::kInvalidArgument);
  With(r, "x", 3);
  With(r, "y", 0);
  ASSERT_OK(t.Submit(r));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_OK(t.Submit(MoveTo("gob", {{4, 0}, {3, 0}, {2, 0}})));
  EXPECT_EQ(At(t, "gob"), (Pos{3, 0}));
  EXPECT_EQ(t.state().windows.size(), 1u);
}

TEST(Readied, TheHeldBackMoveIsATypedPendingAct) {
  Table t = Readied("attack");
  ASSERT_OK(t.Submit(MoveTo("gob", {{4, 0}, {3, 0}, {2, 0}, {1, 1}, {2, 2}})));
  const PendingAct* held = FirstPending(t.state(), "gob", kHeldBack);
  ASSERT_NE(held, nullptr);
  // The rest of the path, the feet already moved and who has answered, as
  // typed fields: no command is stored as text.
  EXPECT_EQ(held->command->action, "move");
  ASSERT_EQ(held->command->path.size(), 1u);
  EXPECT_EQ(held->command->path[0].x(), 2);
  EXPECT_EQ(held->command->path[0].y(), 2);
  EXPECT_EQ(held->progress, 20);  // four squares of 5 ft (L35)
  EXPECT_EQ(held->reacted, std::vector<std::string>{"aria"});
  const Window& w = t.state().windows.begin()->second;
  EXPECT_EQ(w.pending, held->id);
  EXPECT_EQ(w.policy, fb::AnswerPolicy::InOrder);
  const PendingAct* readied = FirstPending(t.state(), "aria", kReadiedAct);
  ASSERT_NE(readied, nullptr);
  EXPECT_EQ(readied->trigger.kind, fb::TriggerKind::MovesWithinReach);
  EXPECT_EQ(readied->trigger.by, "gob");
}

// 000 l.53: "If your roll is a Critical Success they are Flat Footed
// against everyone until your next Turn" -- the feinter's next Turn, also
// when a readied Feint (l.61) fires in another creature's turn. aria (first
// in the order) feints gob critically in gob's round-1 turn: the Flat
// Footed ends as aria's round-2 turn starts (it used to last until gob's
// next turn, through all of aria's).
TEST(Readied, AReadiedCriticalFeintLastsUntilTheFeintersNextTurn) {
  Table t = Readied("feint");
  ASSERT_OK(t.Submit(MoveTo("gob", {{4, 0}, {3, 0}, {2, 0}, {1, 0}})));
  ASSERT_EQ(t.state().windows.size(), 1u);
  const uint32_t w = t.state().windows.begin()->second.id;
  // 18 + Level 1 + STR 3 = 22 >= Mental Defense 10 + 10: critical.
  ASSERT_OK(t.Submit(Answer("feint", w), {18}));
  const Condition* ff = t.state().Find("gob")->FindCondition(kFlatFooted);
  ASSERT_NE(ff, nullptr);
  EXPECT_EQ(ff->relative_to, "");  // against everyone
  EXPECT_EQ(ff->expiry.actor, "aria");
  EXPECT_EQ(ff->expiry.round, 2);
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_EQ(t.state().active, "aria");
  EXPECT_EQ(t.state().round, 2);
  EXPECT_FALSE(Has(t, "gob", kFlatFooted));
}

}  // namespace
}  // namespace combat::kernel::d20
