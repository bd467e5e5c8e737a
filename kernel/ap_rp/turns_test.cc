// Rounds, turns, budgets, unions, holding a turn, surprise (l.5-12).
#include "kernel/ap_rp/internal.h"
#include "kernel/ap_rp/test_util.h"
#include "kernel/pending.h"

namespace combat::kernel::aprp {
namespace {

using namespace testing;  // NOLINT

fb::RosterT Duel() {
  auto a = Being("a", "x", 1, 1, {{"ins", 15}});  // Initiative 30
  Arm(a, "ax", "1d8", "melee");
  auto b = Being("b", "y", 2, 1, {{"ins", 12}});  // 24
  Arm(b, "ax", "1d8", "melee");
  auto c = Being("c", "y", 5, 5, {{"ins", 11}});  // 22
  return MakeRoster({a, b, c});
}

TEST(Turns, OrderByInitiativeAndBudgets) {
  Table t(ApRp(), Duel());
  ASSERT_TRUE(t.status().ok()) << t.status();
  const State& s = t.state();
  ASSERT_EQ(s.order.size(), 3u);
  EXPECT_EQ(s.order[0].actor, "a");
  EXPECT_EQ(s.order[0].initiative, 30);  // l.7
  EXPECT_EQ(s.active, "a");
  EXPECT_EQ(Res(t, "a", kAp), 3);        // l.6
  EXPECT_EQ(Res(t, "a", kRp), 2);        // l.6
  EXPECT_EQ(Res(t, "a", kMovement), 3);  // l.6
}

TEST(Turns, ApLimitsActions) {
  Table t(ApRp(), Duel());
  ASSERT_OK(t.Submit(Attack("a", "b"), {2}));
  EXPECT_EQ(Res(t, "a", kAp), 1);
  auto again = t.Submit(Attack("a", "b"), {2});
  EXPECT_EQ(again.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(Res(t, "a", kAp), 1);
  ASSERT_OK(t.Submit(Cmd("a", "move_action")));
  EXPECT_EQ(Res(t, "a", kMovement), 6);  // l.20
  EXPECT_EQ(t.Submit(Cmd("b", "defend")).status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(Turns, UnknownParameterIsRefusedNamingIt) {
  Table t(ApRp(), Duel());
  auto c = Attack("a", "b");
  With(c, "edge", 1);
  auto r = t.Submit(c);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("edge"), std::string::npos);
}

TEST(Turns, RosterErrorsNameTheField) {
  auto a = Being("a", "x", 1, 1);
  a.stats.clear();
  Table t(ApRp(), MakeRoster({a}));
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(t.status().message().find("stats.vitality"), std::string::npos);
  auto b = Being("b", "x", 30, 1);
  Table t2(ApRp(), MakeRoster({b}));
  EXPECT_NE(t2.status().message().find("'at'"), std::string::npos);
  auto c = Being("c", "x", 1, 1);
  Arm(c, "ax", "1d8", "melee", "strength");
  Table t3(ApRp(), MakeRoster({c}));
  EXPECT_NE(t3.status().message().find("category"), std::string::npos);
  // The shared weapon field `reach` is not ap_rp's (l.55: 1 m + numbers.reach).
  auto d = Being("d", "x", 1, 1);
  Arm(d, "pike", "1d8", "melee");
  d.weapons[0]->reach = 2;
  Table t4(ApRp(), MakeRoster({d}));
  EXPECT_EQ(t4.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(t4.status().message().find("weapons['pike'].reach"), std::string::npos) << t4.status();
  EXPECT_NE(t4.status().message().find("numbers.reach"), std::string::npos);
}

// 004 l.10 "Two or more allies can decide to act as a union ... All
// creatures of a union have their turn at the same time", l.7 "The
// Initiative of objects is always 0": an object given a union tag is
// refused at set-up, naming the field and the line (black-box: accepted,
// the object ordered alone with a note calling it Dead).
TEST(Turns, AnObjectInARosterUnionIsRefused) {
  auto a = Being("a", "x", 1, 1);
  auto crate = Being("crate", "x", 2, 1);
  Tag(Tag(crate, "object"), "union:u");
  Tag(a, "union:u");
  auto e = Being("e", "y", 9, 9);
  Table t(ApRp(), MakeRoster({a, crate, e}));
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument) << t.status();
  EXPECT_NE(t.status().message().find("crate"), std::string::npos) << t.status();
  EXPECT_NE(t.status().message().find("tags"), std::string::npos) << t.status();
  EXPECT_NE(t.status().message().find("l.10"), std::string::npos) << t.status();
}

// 004 l.12 (seeds/004_1a3e461770fc9e7a.txt) "A creature can be surprised by
// combat. In such a case, they act at the end of the first round ... and
// any enemy that is not surprised starts the combat hidden from them", l.7
// "The Initiative of objects is always 0": an object given the surprised
// tag is refused at set-up, naming the field and the line (black-box:
// accepted, the crate placed at the end of round 1 instead of at
// Initiative 0, its unsurprised enemy e hidden from it).
TEST(Turns, AnObjectTaggedSurprisedIsRefused) {
  auto a = Being("a", "x", 1, 1);
  auto crate = Being("crate", "x", 2, 1);
  Tag(Tag(crate, "object"), "surprised");
  auto e = Being("e", "y", 9, 9);
  Table t(ApRp(), MakeRoster({a, crate, e}));
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument) << t.status();
  EXPECT_NE(t.status().message().find("crate"), std::string::npos) << t.status();
  EXPECT_NE(t.status().message().find("tags"), std::string::npos) << t.status();
  EXPECT_NE(t.status().message().find("l.12"), std::string::npos) << t.status();
}

// 004 l.10 "Two or more allies can decide to act as a union", l.3
// "Every other combatant on the battlefield counts as an enemy": a roster
// union: tag shared by creatures of two sides is refused, naming the
// field (black-box: a and its enemy e shared one turn, e's own place
// gone); so is one no other creature has (black-box: a union of one, its
// note "a acts alone:  of its union take no turn (Dead ...)").
TEST(Turns, ARosterUnionIsOfTwoOrMoreAllies) {
  auto a = Being("a", "x", 1, 1);
  Tag(a, "union:u");
  auto e = Being("e", "y", 8, 8);
  Tag(e, "union:u");
  Table t(ApRp(), MakeRoster({a, e}));
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument) << t.status();
  EXPECT_NE(t.status().message().find("'e'"), std::string::npos) << t.status();
  EXPECT_NE(t.status().message().find("tags"), std::string::npos) << t.status();
  EXPECT_NE(t.status().message().find("l.10"), std::string::npos) << t.status();
  auto lone = Being("a", "x", 1, 1);
  Tag(lone, "union:u");
  Table u(ApRp(), MakeRoster({lone, Being("e", "y", 8, 8)}));
  EXPECT_EQ(u.status().code(), absl::StatusCode::kInvalidArgument) << u.status();
  EXPECT_NE(u.status().message().find("two or more allies"), std::string::npos) << u.status();
}

TEST(Turns, FieldsAVerbDoesNotTakeAreRefused) {
  Table t(ApRp(), Duel());
  auto r = t.Submit(Cmd("a", "defend", {"b"}));
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("field 'targets'"), std::string::npos);  // the verb table (verbs.cc)
  auto c = Cmd("a", "end_turn");
  c.weapon = "ax";
  EXPECT_EQ(t.Submit(c).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(t.Submit(Attack("a", "b", "sword")).status().code(), absl::StatusCode::kNotFound);
}

// l.19, l.24: one free Interact or free Switch Weapons, not both.
TEST(Turns, FreeInteractExcludesFreeSwitch) {
  Table t(ApRp(), Duel());
  ASSERT_OK(t.Submit(Cmd("a", "interact")));
  EXPECT_EQ(Res(t, "a", kAp), 3);
  ASSERT_OK(t.Submit(Cmd("a", "switch_weapons")));
  EXPECT_EQ(Res(t, "a", kAp), 2);
}

// 004 l.19 "You can make one free Interact with Target action on your
// turn" (l.24 the same for Switch Weapons): off its turn b's free one is
// refused for that line, not as "AP are spent on your own turn" (it costs
// no AP). (Black-box: the refusal named the AP budget.)
TEST(Turns, AFreeInteractOffTurnCitesItsOwnLine) {
  Table t(ApRp(), Duel());
  auto i = t.Submit(Cmd("b", "interact"));
  EXPECT_EQ(i.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(i.status().message().find("AP are spent"), std::string::npos) << i.status();
  EXPECT_NE(i.status().message().find("l.19"), std::string::npos) << i.status();
  auto w = t.Submit(Cmd("b", "switch_weapons"));
  EXPECT_EQ(w.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(w.status().message().find("l.24"), std::string::npos) << w.status();
  // Paid (1 AP), the budget's refusal stands.
  fb::CommandT paid = Cmd("b", "interact");
  With(paid, "paid", 1);
  auto p = t.Submit(paid);
  EXPECT_NE(p.status().message().find("AP are spent"), std::string::npos) << p.status();
}

// l.10: knight 26 + horse 32 -> (26+32)/2 = 29; one shared turn.
TEST(Turns, UnionInitiativeIsTwentyNine) {
  auto knight = Being("knight", "x", 1, 1, {{"ins", 13}});
  Tag(knight, "union:kh");
  auto horse = Being("horse", "x", 2, 1, {{"ins", 16}});
  Tag(horse, "union:kh");
  auto foe = Being("foe", "y", 8, 8, {{"ins", 14}});  // 28
  Table t(ApRp(), MakeRoster({knight, horse, foe}));
  ASSERT_TRUE(t.status().ok()) << t.status();
  ASSERT_EQ(t.state().order.size(), 2u);
  EXPECT_EQ(t.state().order[0].initiative, 29);
  EXPECT_EQ(t.state().order[0].actor, "horse");
  ASSERT_EQ(t.state().order[0].members.size(), 1u);
  EXPECT_EQ(t.state().order[0].members[0], "knight");
  EXPECT_TRUE(t.state().IsTurnOf("knight"));
  EXPECT_TRUE(t.state().IsTurnOf("horse"));
  ASSERT_OK(t.Submit(Cmd("knight", "move_action")));
  ASSERT_OK(t.Submit(Cmd("horse", "sprint")));
  EXPECT_EQ(Res(t, "knight", kAp), 2);
  EXPECT_EQ(Res(t, "horse", kAp), 0);
  ASSERT_OK(t.Submit(Cmd("knight", "end_turn")));
  EXPECT_EQ(t.state().active, "foe");
  ASSERT_OK(t.Submit(Cmd("foe", "end_turn")));
  // Round 2: the union holds its shared turn together, and takes it at the
  // end of the round (l.8, l.10).
  ASSERT_OK(t.Submit(Cmd("knight", "hold_turn")));
  EXPECT_EQ(t.state().active, "foe");
  ASSERT_OK(t.Submit(Cmd("foe", "end_turn")));
  EXPECT_EQ(t.state().active, "horse");
  EXPECT_TRUE(t.state().IsTurnOf("knight"));
}

// l.10: act-last if any member has it; act-first only if all have it.
TEST(Turns, UnionActFirstNeedsAllActLastAny) {
  auto k = Being("k", "x", 1, 1, {{"ins", 10}});
  Tag(Tag(k, "union:u"), "acts_first");
  auto h = Being("h", "x", 2, 1, {{"ins", 10}});
  Tag(h, "union:u");
  auto foe = Being("foe", "y", 8, 8, {{"ins", 11}});
  Table t(ApRp(), MakeRoster({k, h, foe}));
  EXPECT_EQ(t.state().order[0].actor, "foe");  // acts_first ignored
  auto k2 = Being("k", "x", 1, 1, {{"ins", 20}});
  Tag(Tag(k2, "union:u"), "acts_first");
  auto h2 = Being("h", "x", 2, 1, {{"ins", 20}});
  Tag(Tag(h2, "union:u"), "acts_last");
  auto foe2 = Being("foe", "y", 8, 8, {{"ins", 11}});
  Table t2(ApRp(), MakeRoster({k2, h2, foe2}));
  EXPECT_EQ(t2.state().order[0].actor, "foe");  // forced last
}

// l.8: a turn held to the end of the round; effects until the next turn end
// when it would have started.
TEST(Turns, HoldToTheEndOfTheRound) {
  Table t(ApRp(), Duel());
  ASSERT_OK(t.Submit(Cmd("a", "defend")));
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("b", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("c", "end_turn")));
  EXPECT_EQ(t.state().round, 2);
  EXPECT_EQ(t.state().active, "a");
  EXPECT_FALSE(Has(t, "a", kDefending));  // ended at its turn's start
  ASSERT_OK(t.Submit(Cmd("a", "hold_turn")));
  EXPECT_EQ(t.state().active, "b");
  ASSERT_OK(t.Submit(Cmd("b", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("c", "end_turn")));
  EXPECT_EQ(t.state().round, 2);
  EXPECT_EQ(t.state().active, "a");  // the held turn, at the end of the round
  EXPECT_EQ(Res(t, "a", kAp), 3);
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));  // refusing: the turn is lost
  EXPECT_EQ(t.state().round, 3);
}

// 004_1a3e461770fc9e7a.txt l.5 "Each combatant gets one turn during one
// round": once a ends its turn it cannot act on AP again this round (its
// attack is refused, its AP not spent); a held turn taken later is that one
// turn, not a second: after a resumes behind b and ends, c's turn follows and
// then round 3 starts with a.
TEST(Turns, EachCombatantGetsOneTurnPerRound) {
  Table t(ApRp(), Duel());
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  ASSERT_EQ(t.state().active, "b");
  auto again = t.Submit(Attack("a", "b"), {15, 3});
  EXPECT_EQ(again.status().code(), absl::StatusCode::kFailedPrecondition) << again.status();
  EXPECT_EQ(Res(t, "b", kVitality), 30);
  ASSERT_OK(t.Submit(Cmd("b", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("c", "end_turn")));
  EXPECT_EQ(t.state().round, 2);
  EXPECT_EQ(t.state().active, "a");
  ASSERT_OK(t.Submit(Cmd("a", "hold_turn")));
  ASSERT_OK(t.Submit(Cmd("a", "resume")));
  ASSERT_OK(t.Submit(Cmd("b", "end_turn")));
  ASSERT_EQ(t.state().active, "a");
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  EXPECT_EQ(t.state().active, "c");
  ASSERT_OK(t.Submit(Cmd("c", "end_turn")));
  EXPECT_EQ(t.state().round, 3);
  EXPECT_EQ(t.state().active, "a");
}

TEST(Turns, ResumeAfterTheRunningTurn) {
  Table t(ApRp(), Duel());
  ASSERT_OK(t.Submit(Cmd("a", "hold_turn")));
  EXPECT_EQ(t.state().active, "b");
  ASSERT_OK(t.Submit(Cmd("a", "resume")));
  ASSERT_OK(t.Submit(Cmd("b", "end_turn")));
  EXPECT_EQ(t.state().active, "a");
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  EXPECT_EQ(t.state().active, "c");
}

// 004_1a3e461770fc9e7a.txt l.8 "Any Participant can hold their turn and
// take it later in a round" with l.10 "All creatures of a union have their
// turn at the same time": the knight, a member and not the union's leader,
// holds the shared turn and takes it later itself (black-box: its resume
// was refused, "knight holds no turn this round").
TEST(Turns, AUnionMemberResumesTheHeldSharedTurn) {
  auto knight = Being("knight", "x", 1, 1, {{"ins", 13}});  // 26
  Tag(knight, "union:kh");
  auto horse = Being("horse", "x", 2, 1, {{"ins", 16}});  // 32: leads
  Tag(horse, "union:kh");
  auto foe = Being("foe", "y", 8, 8, {{"ins", 10}});   // 20, after the union's 29
  auto foe2 = Being("foe2", "y", 9, 9, {{"ins", 5}});  // 10
  Table t(ApRp(), MakeRoster({knight, horse, foe, foe2}));
  ASSERT_OK(t.Submit(Cmd("knight", "hold_turn")));
  EXPECT_EQ(t.state().active, "foe");
  ASSERT_OK(t.Submit(Cmd("knight", "resume")));
  ASSERT_OK(t.Submit(Cmd("foe", "end_turn")));
  EXPECT_EQ(t.state().active, "horse");  // the union's turn, before foe2's
  EXPECT_TRUE(t.state().IsTurnOf("knight"));
  ASSERT_OK(t.Submit(Cmd("knight", "end_turn")));
  EXPECT_EQ(t.state().active, "foe2");
  EXPECT_EQ(t.Submit(Cmd("horse", "resume")).status().code(), absl::StatusCode::kFailedPrecondition);
}

// 004 l.8 (seeds/004_1a3e461770fc9e7a.txt) "If any of those creatures
// refuse, they lose their turn for this round", l.10 "All creatures of a
// union have their turn at the same time and can alternate their actions":
// the union's shared turn held to the end of the round, in which only the knight
// (a member, not the leader horse) acts (Defend: 2 AP) is taken, not refused:
// its end does not say it is lost (black-box: "refused the held turn: it
// is lost", the leader alone counted). Ended with no one acting, it is.
TEST(Turns, AHeldSharedTurnAMemberActsInIsNotLost) {
  auto knight = Being("knight", "x", 1, 1, {{"ins", 13}});  // 26
  Tag(knight, "union:kh");
  auto horse = Being("horse", "x", 2, 1, {{"ins", 16}});  // 32: leads
  Tag(horse, "union:kh");
  auto foe = Being("foe", "y", 8, 8, {{"ins", 10}});  // 20, after the union's 29
  Table t(ApRp(), MakeRoster({knight, horse, foe}));
  ASSERT_OK(t.Submit(Cmd("knight", "hold_turn")));
  ASSERT_OK(t.Submit(Cmd("foe", "end_turn")));
  ASSERT_EQ(t.state().active, "horse");  // held to the end of the round
  ASSERT_OK(t.Submit(Cmd("knight", "defend")));
  EXPECT_EQ(Res(t, "knight", kAp), 1);
  auto ev = t.Submit(Cmd("horse", "end_turn"));
  ASSERT_OK(ev);
  EXPECT_EQ(NoteOf(*ev, "004.hold.turn").find("lost"), std::string::npos) << NoteOf(*ev, "004.hold.turn");
  ASSERT_EQ(t.state().round, 2);
  ASSERT_EQ(t.state().active, "horse");
  ASSERT_OK(t.Submit(Cmd("horse", "hold_turn")));
  ASSERT_OK(t.Submit(Cmd("foe", "end_turn")));
  auto refused = t.Submit(Cmd("knight", "end_turn"));
  ASSERT_OK(refused);
  EXPECT_NE(NoteOf(*refused, "004.hold.turn").find("lost"), std::string::npos);
}

TEST(Turns, CannotHoldAfterActing) {
  Table t(ApRp(), Duel());
  ASSERT_OK(t.Submit(Cmd("a", "defend")));
  EXPECT_EQ(t.Submit(Cmd("a", "hold_turn")).status().code(), absl::StatusCode::kFailedPrecondition);
}

// 004 l.10: "All creatures of a union have their turn at the same time":
// the knight (Initiative 26) and the horse (32) share Initiative 29 after
// the foe (40); the horse, the union's leader, dies during the foe's turn.
// The knight still has the union's turn in round 1 (black-box: it was
// skipped with its dead leader and round 2 began).
TEST(Turns, AUnionWhoseLeaderDiesKeepsItsTurn) {
  auto knight = Being("knight", "x", 1, 1, {{"ins", 13}});
  Tag(knight, "union:kh");
  auto horse = Being("horse", "x", 2, 1, {{"ins", 16}});
  Tag(horse, "union:kh");
  auto foe = Being("foe", "y", 8, 8, {{"ins", 20}});  // 40
  Table t(ApRp(), MakeRoster({knight, horse, foe}));
  ASSERT_TRUE(t.status().ok()) << t.status();
  ASSERT_EQ(t.state().order.size(), 2u);
  EXPECT_EQ(t.state().order[1].actor, "horse");
  EXPECT_EQ(t.state().order[1].initiative, 29);  // (26 + 32) / 2
  ASSERT_EQ(t.state().active, "foe");
  ASSERT_OK(t.Submit(GmAdds("horse", kDead, "killed")));
  ASSERT_OK(t.Submit(Cmd("foe", "end_turn")));
  EXPECT_EQ(t.state().round, 1);
  EXPECT_EQ(t.state().active, "knight");
  EXPECT_EQ(t.state().order[1].initiative, 29);  // fixed for the round (l.11)
  EXPECT_EQ(Res(t, "knight", kAp), 3);
  ASSERT_OK(t.Submit(Cmd("knight", "move_action")));
  EXPECT_EQ(Res(t, "knight", kAp), 2);
  ASSERT_OK(t.Submit(Cmd("knight", "end_turn")));
  EXPECT_EQ(t.state().round, 2);
  EXPECT_EQ(t.state().active, "foe");
}

// 004 l.8 (a creature made Dead on its own turn loses it) and l.10 "All
// creatures of a union have their turn at the same time": the leader dying
// during the shared turn does not end it while the other member can act;
// when the last one dies, the shared turn is lost at once.
TEST(Turns, AUnionLeaderDyingOnTheSharedTurnLeavesItToTheOther) {
  auto knight = Being("knight", "x", 1, 1, {{"ins", 13}});
  Tag(knight, "union:kh");
  auto horse = Being("horse", "x", 2, 1, {{"ins", 16}});
  Tag(horse, "union:kh");
  auto foe = Being("foe", "y", 8, 8, {{"ins", 10}});  // 20
  Table t(ApRp(), MakeRoster({knight, horse, foe}));
  ASSERT_TRUE(t.status().ok()) << t.status();
  ASSERT_EQ(t.state().active, "horse");
  auto kill = [&](const char* who) {
    fb::CommandT dead = Gm(who, "gm_condition", "killed");
    WithText(dead, "name", kDead);
    WithText(dead, "op", "add");
    return t.Submit(dead);
  };
  ASSERT_OK(kill("horse"));
  EXPECT_EQ(t.state().active, "horse");  // the shared turn goes on
  ASSERT_OK(t.Submit(Cmd("knight", "move_action")));
  EXPECT_EQ(Res(t, "knight", kAp), 2);
  ASSERT_OK(kill("knight"));
  EXPECT_EQ(t.state().round, 1);
  EXPECT_EQ(t.state().active, "foe");
}

// 004 l.8 "Any effects that last until the end of a creature's turn keep
// being in effect until a creature ends their turn or they lose it", l.10
// "All creatures of a union have their turn at the same time", l.31 Blind
// "until the end of their next turn": the foe (40) blinds the knight, whose
// union (29) acts later in round 1; both members die before it. The shared
// turn is lost by both: the knight's Blind ends there, not only the
// leader's effects (black-box: it stayed Blinded for good).
TEST(Turns, AUnionWhoseMembersAllDieLosesTheTurnForEachMember) {
  auto knight = Being("knight", "x", 1, 1, {{"ins", 13}});  // 26
  Tag(knight, "union:kh");
  auto horse = Being("horse", "x", 1, 2, {{"ins", 16}});  // 32
  Tag(horse, "union:kh");
  auto foe = Being("foe", "y", 2, 1, {{"ins", 20}, {"quick_fingers", 5}});  // 40
  Table t(ApRp(), MakeRoster({knight, horse, foe}));
  ASSERT_TRUE(t.status().ok()) << t.status();
  ASSERT_EQ(t.state().active, "foe");
  ASSERT_OK(t.Submit(Cmd("foe", "blind", {"knight"}), {15, 2}));  // 20 > 2
  ASSERT_TRUE(Has(t, "knight", kBlinded));
  for (const char* who : {"horse", "knight"}) {
    fb::CommandT dead = Gm(who, "gm_condition", "killed");
    WithText(dead, "name", kDead);
    WithText(dead, "op", "add");
    ASSERT_OK(t.Submit(dead));
  }
  EXPECT_TRUE(Has(t, "knight", kBlinded));  // its turn has not come yet
  ASSERT_OK(t.Submit(Cmd("foe", "end_turn")));
  EXPECT_EQ(t.state().round, 2);
  EXPECT_EQ(t.state().active, "foe");
  EXPECT_FALSE(Has(t, "knight", kBlinded));  // lost with the union's turn
  EXPECT_TRUE(Has(t, "knight", kDead));      // l.103: the Status Effect stays
}

// 004 l.5 "Each combatant gets one turn during one round", l.8 "they lose
// their turn for this round": b (Initiative 24) is Dead when its place
// comes, so its turn is skipped and lost; the GM revives it during c's turn
// (22). b takes no second turn in round 1: round 2 starts after c's (black-
// box: the revived b took round 1's turn after c's). In round 2 it has its
// turn at its place again.
TEST(Turns, ACreatureRevivedAfterItsSkippedTurnTakesNoTurnThatRound) {
  Table t(ApRp(), Duel());
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto gm_dead = [&](const char* op) {
    fb::CommandT c = Gm("b", "gm_condition", op);
    WithText(c, "name", kDead);
    WithText(c, "op", op);
    return t.Submit(c);
  };
  ASSERT_EQ(t.state().active, "a");
  ASSERT_OK(gm_dead("add"));
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  EXPECT_EQ(t.state().active, "c");  // b's place skipped: its turn is lost
  EXPECT_EQ(Res(t, "b", kTurnRound), 1);
  ASSERT_OK(gm_dead("remove"));      // revived during c's turn
  ASSERT_OK(t.Submit(Cmd("c", "end_turn")));
  EXPECT_EQ(t.state().round, 2);     // not b's turn in round 1
  EXPECT_EQ(t.state().active, "a");
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  EXPECT_EQ(t.state().active, "b");  // its turn in round 2
  EXPECT_EQ(Res(t, "b", kAp), 3);
}

// 004 l.10 "Two or more allies can decide to act as a union", "the sum of
// the Initiative of all participating creatures divided by the number of
// those creatures": the horse (32) of the union kh dies in round 1; in
// round 2 the knight (26) is the only creature of it that takes a turn, so
// it is ordered as an ordinary entry at its own 26, not as a union of one
// (black-box: union_sum 26 / union_count 1 in the order's numbers).
TEST(Turns, AUnionWithOneLivingCreatureIsOrderedAsNoUnion) {
  auto knight = Being("knight", "x", 1, 1, {{"ins", 13}});  // 26
  Tag(knight, "union:kh");
  auto horse = Being("horse", "x", 2, 1, {{"ins", 16}});  // 32
  Tag(horse, "union:kh");
  auto foe = Being("foe", "y", 8, 8, {{"ins", 20}});  // 40
  Table t(ApRp(), MakeRoster({knight, horse, foe}));
  ASSERT_TRUE(t.status().ok()) << t.status();
  ASSERT_OK(t.Submit(GmAdds("horse", kDead, "killed")));
  ASSERT_OK(t.Submit(Cmd("foe", "end_turn")));
  ASSERT_EQ(t.state().active, "knight");
  auto r = t.Submit(Cmd("knight", "end_turn"));
  ASSERT_OK(r);
  ASSERT_EQ(t.state().round, 2);
  ASSERT_EQ(t.state().order.size(), 3u);
  EXPECT_EQ(t.state().order[2].actor, "knight");
  EXPECT_EQ(t.state().order[2].initiative, 26);
  EXPECT_TRUE(t.state().order[2].members.empty());
  EXPECT_EQ(NumOf(*r, "004.initiative", "init.knight"), 26);
  EXPECT_EQ(NumOf(*r, "004.initiative", "union_count.knight"), -999);  // no union of one
  EXPECT_EQ(NumOf(*r, "004.initiative", "union_init.knight"), -999);
  EXPECT_TRUE(Has(t, "knight", kUnion));  // the union stays (l.103: the horse may be revived)
}

// 004 l.8 "Any Participant can hold their turn and take it later in a
// round" and the reading "the Dead cannot act": b holds its turn and dies;
// its `resume` is refused (black-box: the Dead b took its place after c's,
// where its turn was then lost); c ends its turn, b's held turn is lost and
// round 2 starts.
TEST(Turns, ADeadHolderDoesNotResume) {
  Table t(ApRp(), Duel());
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("b", "hold_turn")));
  ASSERT_EQ(t.state().active, "c");
  ASSERT_OK(t.Submit(GmAdds("b", kDead, "killed")));
  auto r = t.Submit(Cmd("b", "resume"));
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition) << r.status();
  EXPECT_NE(r.status().message().find("Dead"), std::string::npos) << r.status();
  EXPECT_TRUE(t.state().order[1].delayed);  // still held, in its place
  ASSERT_OK(t.Submit(Cmd("c", "end_turn")));
  EXPECT_EQ(t.state().round, 2);
}

// 004 l.10 "Two or more allies can decide to act as a union" and the
// reading "the Dead cannot act": a Dead c deciding a union with b is
// refused, as b naming the Dead c is (black-box: both gained Union).
TEST(Turns, TheDeadDecideNoUnion) {
  Table t(ApRp(), Duel());
  ASSERT_OK(t.Submit(GmAdds("c", kDead, "killed")));
  auto r = t.Submit(Cmd("c", "form_union", {"b"}));
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition) << r.status();
  EXPECT_FALSE(Has(t, "b", kUnion));
  EXPECT_EQ(t.Submit(Cmd("b", "form_union", {"c"})).status().code(), absl::StatusCode::kFailedPrecondition);
}

// 004 l.10 "Two or more allies can decide to act as a union" and the
// reading "the Dead cannot act": leaving is a decision too. b and c form a
// union; c dies; c's `leave_union` is refused and b keeps its union (black-
// box: c left, and b, alone, lost its Union).
TEST(Turns, TheDeadDoNotLeaveAUnion) {
  Table t(ApRp(), Duel());
  ASSERT_OK(t.Submit(Cmd("b", "form_union", {"c"})));
  ASSERT_OK(t.Submit(GmAdds("c", kDead, "killed")));
  auto r = t.Submit(Cmd("c", "leave_union"));
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition) << r.status();
  EXPECT_TRUE(Has(t, "b", kUnion));
  EXPECT_TRUE(Has(t, "c", kUnion));
}

// 004 l.19: "You can make one free Interact with Target action on your
// turn"; l.8: a held turn is the one turn, taken later. Holding after the
// free Interact is refused (it would give the held turn a second free one:
// black-box, a lever pulled free twice in round 1). Before it, the held
// turn has its one free Interact and a second costs 1 AP (3 - 1 = 2).
TEST(Turns, NoHoldAfterTheFreeInteract) {
  Table t(ApRp(), Duel());
  auto lever = Cmd("a", "interact");
  lever.text = "pulls the lever";
  ASSERT_OK(t.Submit(lever));
  ASSERT_EQ(Res(t, "a", kFreeInteract), 1);
  EXPECT_EQ(Res(t, "a", kAp), 3);
  auto held = t.Submit(Cmd("a", "hold_turn"));
  EXPECT_EQ(held.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(held.status().message().find("l.8"), std::string::npos) << held.status();
  Table u(ApRp(), Duel());
  auto sw = Cmd("a", "switch_weapons");
  WithText(sw, "mode", "sheathe");
  ASSERT_OK(u.Submit(sw));  // the free one: Switch Weapons (l.24)
  EXPECT_EQ(u.Submit(Cmd("a", "hold_turn")).status().code(), absl::StatusCode::kFailedPrecondition);
}

// l.11: a changed Initiative changes the order only from the next round.
TEST(Turns, InitiativeChangesApplyNextRound) {
  Table t(ApRp(), Duel());
  auto g = Gm("c", "gm_adjust", "a haste effect");
  WithText(g, "resource", "initiative_mod");
  With(g, "delta", 20);
  ASSERT_OK(t.Submit(g));
  EXPECT_EQ(t.state().order[2].actor, "c");
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("b", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("c", "end_turn")));
  EXPECT_EQ(t.state().order[0].actor, "c");
  EXPECT_EQ(t.state().order[0].initiative, 42);
}

// l.7: ties are the GM's; the default keeps the previous order then ids,
// and gm_order decides.
TEST(Turns, TiesDefaultAndGmOrder) {
  auto a = Being("a", "x", 1, 1, {{"ins", 12}});
  auto b = Being("b", "y", 5, 5, {{"ins", 12}});
  Table t(ApRp(), MakeRoster({b, a}));
  EXPECT_EQ(t.state().order[0].actor, "a");
  ASSERT_OK(t.Submit(GmOrder({"b", "a"}, "b goes first")));
  // l.7 "the GM decides who goes first": a had not acted, so b goes first
  // this round already.
  EXPECT_EQ(t.state().active, "b");
  ASSERT_OK(t.Submit(Cmd("b", "end_turn")));
  EXPECT_EQ(t.state().active, "a");
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  EXPECT_EQ(t.state().round, 2);
  EXPECT_EQ(t.state().order[0].actor, "b");  // the ruling stands next round
  EXPECT_EQ(t.state().active, "b");
}

// 004 l.7 "If two creatures have the same Initiative, the GM decides who
// goes first" and l.8 "Any effects that last until a creature's next turn
// stop when their turn would normally start": a GM's order handing a's
// untouched round-2 turn to o puts a's turn start after o's, so a's Defend
// (l.18), Taking Cover (l.25) and held action (l.9) last until then. (Black-
// box: they had ended at the start handed on; o attacked without the
// disadvantage.)
TEST(Turns, AGmOrderHandingOnAnUntouchedTurnKeepsItsUntilNextTurnEffects) {
  auto a = Being("a", "x", 1, 1, {{"ins", 12}});
  auto o = Being("o", "y", 2, 1, {{"ins", 12}});
  Arm(o, "ax", "1d6", "melee");
  Table t(ApRp(), MakeRoster({a, o}));
  ASSERT_EQ(t.state().active, "a");  // 24 = 24: the default, id order
  ASSERT_OK(t.Submit(Cmd("a", "defend")));
  fb::CommandT h = Cmd("a", "hold_action");
  WithText(h, "action", "take_cover");
  WithText(h, "trigger", "attacks_me");
  ASSERT_OK(t.Submit(h));  // 2 + 1 = 3 AP
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("o", "end_turn")));
  ASSERT_EQ(t.state().round, 2);
  ASSERT_EQ(t.state().active, "a");  // its turn start ended all three
  EXPECT_FALSE(Has(t, "a", kDefending));
  EXPECT_EQ(FirstPending(t.state(), "a", kReadiedAct), nullptr);
  ASSERT_OK(t.Submit(GmOrder({"o", "a"}, "tie: o first")));
  ASSERT_EQ(t.state().active, "o");
  // a's turn now starts after o's: its effects are back, ending there.
  ASSERT_TRUE(Has(t, "a", kDefending));
  const Condition* def = t.state().Find("a")->FindCondition(kDefending);
  EXPECT_EQ(def->expiry.kind, fb::ExpiryKind::TurnStart);
  EXPECT_EQ(def->expiry.round, 2);
  const PendingAct* held = FirstPending(t.state(), "a", kReadiedAct);
  ASSERT_NE(held, nullptr);
  EXPECT_EQ(held->expiry.round, 2);
  // o attacks a: disadvantage (Defending, l.18), 19 and 3: the 3 is kept,
  // 3 + 5 = 8 < 17, a miss; a's held Take Cover fires first (l.9).
  auto ev = t.Submit(Attack("o", "a", "ax"), {19, 3});
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "004.evasion", "defending"), 1);
  EXPECT_EQ(Res(t, "a", kVitality), 30);
  EXPECT_TRUE(Has(t, "a", kTakingCover));
  ASSERT_OK(t.Submit(Cmd("o", "end_turn")));
  EXPECT_EQ(t.state().active, "a");  // now they end
  EXPECT_FALSE(Has(t, "a", kDefending));
  EXPECT_FALSE(Has(t, "a", kTakingCover));
}

// o holds a Blind on `target` against its own damage (l.9, l.31), o and z
// end round 1, and in round 2, while `target`'s turn is still untouched, a
// GM's gust hurts o (15 + 5 against 2): `target` is Blinded.
void BlindDuringTheUntouchedTurnOf(Table& t, const std::string& target) {
  fb::CommandT h = Cmd("o", "hold_action", {target});
  WithText(h, "action", "blind");
  WithText(h, "trigger", "is_damaged");
  WithText(h, "whom", "o");
  ASSERT_OK(t.Submit(h));
  ASSERT_OK(t.Submit(Cmd("o", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("z", "end_turn")));
  ASSERT_EQ(t.state().round, 2);
  auto fm = Gm("z", "force_move", "a gust");
  fm.targets = {"o"};
  With(fm, "dmg_physical", 1);
  fm = Path(fm, {{2, 2}});
  ASSERT_OK(t.Submit(fm, {15, 2}));
  ASSERT_TRUE(Has(t, target, kBlinded));
}

// 004 l.31 Blind "until the end of their next turn" meets l.7 "the GM
// decides who goes first" and l.8 "until a creature ends their turn or they
// lose it": o's held Blind (l.9) fires on a while a's round-2 turn is
// untouched; the GM then puts o first, handing a's turn on (it starts again
// after o's). The handed-on start was not a's turn's start, so a's next turn
// is the one it takes later in round 2: the Blind ends with it. (Black-box:
// set while a's turn ran, it was tied to a's round-3 turn and lasted a round
// late.)
TEST(Turns, ABlindSetOnAnUntouchedTurnHandedOnEndsWithTheTurnInItsNewPlace) {
  auto a = Being("a", "x", 1, 1, {{"ins", 12}});
  auto o = Being("o", "y", 2, 1, {{"ins", 12}, {"nimbleness", 5}});
  auto z = Being("z", "y", 9, 9, {{"ins", 5}});
  Table t(ApRp(), MakeRoster({a, o, z}));
  ASSERT_EQ(t.state().active, "a");  // 24 = 24: id order
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  ASSERT_NO_FATAL_FAILURE(BlindDuringTheUntouchedTurnOf(t, "a"));
  ASSERT_EQ(t.state().active, "a");
  ASSERT_OK(t.Submit(GmOrder({"o", "a", "z"}, "tie: o first")));
  ASSERT_EQ(t.state().active, "o");
  EXPECT_EQ(t.state().Find("a")->FindCondition(kBlinded)->expiry.round, 2);
  ASSERT_OK(t.Submit(Cmd("o", "end_turn")));
  ASSERT_EQ(t.state().active, "a");
  EXPECT_TRUE(Has(t, "a", kBlinded));
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));  // its next turn ends: so does the Blind
  EXPECT_FALSE(Has(t, "a", kBlinded));
}

// 004 l.8 "Any effects that last until a creature's next turn stop when
// their turn would normally start" meets l.7 "If two creatures have the same
// Initiative, the GM decides who goes first": while a's round-2 turn is
// untouched the GM makes it Stunned until its next turn (rounds 1: its
// turn start in round 3), then puts o first, handing a's turn on: a's turn
// now starts after o's in round 2, its next turn, and the Stunned stops
// there. (Black-box: it lasted through a's round-2 turn to round 3's.)
TEST(Turns, AGmConditionUntilItsNextTurnSetOnAnUntouchedTurnHandedOnStopsAtItsNewStart) {
  auto a = Being("a", "x", 1, 1, {{"ins", 12}});
  auto o = Being("o", "y", 2, 1, {{"ins", 12}});
  auto z = Being("z", "y", 9, 9, {{"ins", 5}});
  Table t(ApRp(), MakeRoster({a, o, z}));
  ASSERT_EQ(t.state().active, "a");  // 24 = 24: id order
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("o", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("z", "end_turn")));
  ASSERT_EQ(t.state().round, 2);
  ASSERT_EQ(t.state().active, "a");
  ASSERT_OK(t.Submit(GmAdds("a", "Stunned", "stunned by the blast", 1)));
  ASSERT_EQ(t.state().Find("a")->FindCondition("Stunned")->expiry.round, 3);
  ASSERT_OK(t.Submit(GmOrder({"o", "a", "z"}, "tie: o first")));
  ASSERT_EQ(t.state().active, "o");
  const Condition* st = t.state().Find("a")->FindCondition("Stunned");
  ASSERT_NE(st, nullptr);
  EXPECT_EQ(st->expiry.kind, fb::ExpiryKind::TurnStart);
  EXPECT_EQ(st->expiry.round, 2);
  ASSERT_OK(t.Submit(Cmd("o", "end_turn")));
  ASSERT_EQ(t.state().active, "a");
  EXPECT_FALSE(Has(t, "a", "Stunned"));  // its next turn started
}

// Reading (README, Ties): a GM's condition of `rounds` 2 set during a's
// untouched turn counts rounds (l.5 "lasts for five rounds"), not turns:
// the hand-on (l.7) moves only l.8's "until a creature's next turn"
// (`rounds` 1). Set in round 2, it ends at a's round-4 turn start.
TEST(Turns, AGmConditionOfTwoRoundsSetOnAnUntouchedTurnHandedOnKeepsItsRound) {
  auto a = Being("a", "x", 1, 1, {{"ins", 12}});
  auto o = Being("o", "y", 2, 1, {{"ins", 12}});
  auto z = Being("z", "y", 9, 9, {{"ins", 5}});
  Table t(ApRp(), MakeRoster({a, o, z}));
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("o", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("z", "end_turn")));
  ASSERT_EQ(t.state().round, 2);
  ASSERT_EQ(t.state().active, "a");
  ASSERT_OK(t.Submit(GmAdds("a", "Stunned", "stunned for two rounds", 2)));
  ASSERT_OK(t.Submit(GmOrder({"o", "a", "z"}, "tie: o first")));
  ASSERT_EQ(t.state().active, "o");
  const Condition* st = t.state().Find("a")->FindCondition("Stunned");
  ASSERT_NE(st, nullptr);
  EXPECT_EQ(st->expiry.kind, fb::ExpiryKind::TurnStart);
  EXPECT_EQ(st->expiry.round, 4);
  for (const char* who : {"o", "a", "z", "o"}) ASSERT_OK(t.Submit(Cmd(who, "end_turn")));
  ASSERT_EQ(t.state().round, 3);
  ASSERT_EQ(t.state().active, "a");
  EXPECT_TRUE(Has(t, "a", "Stunned"));  // round 3: one round on
  for (const char* who : {"a", "z", "o"}) ASSERT_OK(t.Submit(Cmd(who, "end_turn")));
  ASSERT_EQ(t.state().round, 4);
  ASSERT_EQ(t.state().active, "a");
  EXPECT_FALSE(Has(t, "a", "Stunned"));
}

// The same with the GM's condition set before a's round-1 turn started
// (during z's, first): it was to last through that turn to a's round-2
// start, and the hand-on moves neither.
TEST(Turns, AGmConditionSetBeforeTheTurnHandedOnKeepsTheNextRoundsStart) {
  auto z = Being("z", "y", 9, 9, {{"ins", 15}});  // 30: first
  auto a = Being("a", "x", 1, 1, {{"ins", 12}});
  auto o = Being("o", "y", 2, 1, {{"ins", 12}});
  Table t(ApRp(), MakeRoster({a, o, z}));
  ASSERT_EQ(t.state().active, "z");
  ASSERT_OK(t.Submit(GmAdds("a", "Stunned", "stunned by the blast", 1)));
  ASSERT_OK(t.Submit(Cmd("z", "end_turn")));
  ASSERT_EQ(t.state().active, "a");
  ASSERT_OK(t.Submit(GmOrder({"z", "o", "a"}, "tie: o first")));
  ASSERT_EQ(t.state().active, "o");
  EXPECT_EQ(t.state().Find("a")->FindCondition("Stunned")->expiry.round, 2);
  ASSERT_OK(t.Submit(Cmd("o", "end_turn")));
  ASSERT_EQ(t.state().active, "a");
  EXPECT_TRUE(Has(t, "a", "Stunned"));
}

// 004 l.8 "Any effects that last until a creature's next turn stop when
// their turn would normally start even if the creature decides to hold
// their turn": a's turn held to the end of round 1 would normally have
// started at its place, passed already; a GM's condition until its next
// turn set while that held turn runs untouched keeps the round-2 start when
// a gm_order hands the held turn to b (l.7): the held turn taken after b's
// is not a turn start.
TEST(Turns, AGmConditionSetOnAHeldTurnHandedOnKeepsTheNextRoundsStart) {
  auto a = Being("a", "x", 1, 1, {{"ins", 12}});
  auto b = Being("b", "x", 1, 3, {{"ins", 12}});
  auto o = Being("o", "y", 9, 9, {{"ins", 12}});
  Table t(ApRp(), MakeRoster({a, b, o}));
  ASSERT_OK(t.Submit(Cmd("a", "hold_turn")));
  ASSERT_OK(t.Submit(Cmd("b", "hold_turn")));
  ASSERT_OK(t.Submit(Cmd("o", "end_turn")));
  ASSERT_EQ(t.state().active, "a");  // the held turns at the end
  ASSERT_OK(t.Submit(GmAdds("a", "Stunned", "stunned by the blast", 1)));
  ASSERT_OK(t.Submit(GmOrder({"b", "a", "o"}, "tie: b before a")));
  ASSERT_EQ(t.state().active, "b");
  EXPECT_EQ(t.state().Find("a")->FindCondition("Stunned")->expiry.round, 2);
  ASSERT_OK(t.Submit(Cmd("b", "end_turn")));
  ASSERT_EQ(t.state().active, "a");
  EXPECT_TRUE(Has(t, "a", "Stunned"));
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  ASSERT_EQ(t.state().round, 2);
  ASSERT_EQ(t.state().active, "b");  // the GM's order stands
  EXPECT_TRUE(Has(t, "a", "Stunned"));
  ASSERT_OK(t.Submit(Cmd("b", "end_turn")));
  ASSERT_EQ(t.state().active, "a");
  EXPECT_FALSE(Has(t, "a", "Stunned"));  // its round-2 turn start
}

// 004 l.8 "Any Participant can hold their turn and take it later in a
// round" meets l.7 "If two creatures have the same Initiative, the GM
// decides who goes first": a held turn resumed is taken when its creature
// chose (after b's), not at a place its Initiative gives, so a gm_order
// putting its tie partner o first does not hand it on: the GM decides ties
// of Initiative, not when a held turn is taken. (Black-box: a's untouched
// resumed turn was handed to o and a took it again after o's.)
TEST(Turns, AResumedHeldTurnIsNotHandedOnByAGmOrder) {
  auto a = Being("a", "x", 1, 1, {{"ins", 12}});
  auto b = Being("b", "x", 1, 3, {{"ins", 12}});
  auto o = Being("o", "y", 9, 9, {{"ins", 12}});
  Table t(ApRp(), MakeRoster({a, b, o}));
  ASSERT_EQ(t.state().active, "a");  // 24 = 24 = 24: id order a, b, o
  ASSERT_OK(t.Submit(Cmd("a", "hold_turn")));
  ASSERT_EQ(t.state().active, "b");
  ASSERT_OK(t.Submit(Cmd("a", "resume")));
  ASSERT_OK(t.Submit(Cmd("b", "end_turn")));
  ASSERT_EQ(t.state().active, "a");  // its held turn, taken after b's
  ASSERT_OK(t.Submit(GmOrder({"b", "o", "a"}, "tie: o before a")));
  EXPECT_EQ(t.state().active, "a");  // still a's held turn
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  EXPECT_EQ(t.state().active, "o");
  ASSERT_OK(t.Submit(Cmd("o", "end_turn")));
  EXPECT_EQ(t.state().round, 2);
}

// 004 l.8 "Should more than one creature hold their turn to the end of the
// round, they will take turns according to their Initiative" meets l.7 "If
// two creatures have the same Initiative, the GM decides who goes first":
// a and b (24 = 24) hold to the end; a's held turn starts first (their
// places); a gm_order putting b first, before a has acted, hands the held
// turn to b, as for any untouched turn; a takes its held turn after b's.
// (Black-box: a held turn was never handed on: the GM's tie came too late.)
TEST(Turns, AGmOrderDecidesATieOfTurnsHeldToTheEndOfTheRound) {
  auto a = Being("a", "x", 1, 1, {{"ins", 12}});
  auto b = Being("b", "x", 1, 3, {{"ins", 12}});
  auto o = Being("o", "y", 9, 9, {{"ins", 12}});
  Table t(ApRp(), MakeRoster({a, b, o}));
  ASSERT_EQ(t.state().active, "a");  // 24 = 24 = 24: id order a, b, o
  ASSERT_OK(t.Submit(Cmd("a", "hold_turn")));
  ASSERT_OK(t.Submit(Cmd("b", "hold_turn")));
  ASSERT_OK(t.Submit(Cmd("o", "end_turn")));
  ASSERT_EQ(t.state().active, "a");  // the held turns at the end: a's place first
  ASSERT_OK(t.Submit(GmOrder({"b", "a", "o"}, "tie: b before a")));
  EXPECT_EQ(t.state().active, "b");
  ASSERT_OK(t.Submit(Cmd("b", "take_cover")));
  ASSERT_OK(t.Submit(Cmd("b", "end_turn")));
  EXPECT_EQ(t.state().active, "a");
  EXPECT_EQ(t.state().round, 1);
  ASSERT_OK(t.Submit(Cmd("a", "take_cover")));  // its held turn, 3 AP
  EXPECT_EQ(Res(t, "a", kAp), 2);
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  EXPECT_EQ(t.state().round, 2);
}

// 004 l.6 "RP can be used to act outside of your turn but usually require
// specific features or Abilities" meets l.7 "If two creatures have the same
// Initiative, the GM decides who goes first": a feature paid with RP on a's
// own turn is acting on it (as its AP would be), so a later gm_order putting
// its tie partner first leaves a's turn running, and it can no longer be
// held whole (l.8). (Black-box: the turn was handed on after the feature
// had gone first all the same; a's next turn start resets the mark.)
TEST(Turns, AFeaturePaidWithRpOnOnesTurnIsActingForTheGmOrder) {
  auto a = Being("a", "x", 1, 1, {{"ins", 12}});
  auto o = Being("o", "y", 5, 5, {{"ins", 12}});
  Table t(ApRp(), MakeRoster({a, o}));
  ASSERT_EQ(t.state().active, "a");  // 24 = 24: id order
  fb::CommandT f = Cmd("a", "use_feature");
  f.text = "Riposte stance";
  With(f, "rp", 1);
  ASSERT_OK(t.Submit(f));
  EXPECT_EQ(Res(t, "a", kRp), 1);
  ASSERT_OK(t.Submit(GmOrder({"o", "a"}, "tie: o first")));
  EXPECT_EQ(t.state().active, "a");
  EXPECT_EQ(t.Submit(Cmd("a", "hold_turn")).status().code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("o", "end_turn")));
  ASSERT_EQ(t.state().active, "o");  // round 2: the GM's order stands
  ASSERT_OK(t.Submit(Cmd("o", "end_turn")));
  ASSERT_EQ(t.state().active, "a");
  EXPECT_EQ(Res(t, "a", kFeatureActed), 0);  // reset at its next turn start
  ASSERT_OK(t.Submit(Cmd("a", "hold_turn")));   // untouched: it may hold
}

// l.62: a Buff's Evasion (the GM's gm_adjust of evasion_bonus) adds on top of
// the capped base Evasion; a stat set as a resource would change nothing and
// is refused, nothing written.
TEST(Turns, GmAdjustsOnlyResourcesTheRulesetReads) {
  auto a = Being("a", "x", 1, 1, {{"ins", 12}});
  auto b = Being("b", "y", 5, 5, {{"ins", 11}, {"dex", 13}, {"evasion_cap", 12}});
  Table t(ApRp(), MakeRoster({a, b}));
  EXPECT_EQ(Evasion(*t.state().Find("b"), nullptr), 12);  // 13 capped at 12
  auto g = Gm("b", "gm_adjust", "a blessing: +2 Evasion");
  WithText(g, "resource", "evasion_bonus");
  With(g, "delta", 2);
  ASSERT_OK(t.Submit(g));
  EXPECT_EQ(Evasion(*t.state().Find("b"), nullptr), 14);  // 12 + 2, uncapped
  const size_t before = t.log().size();
  auto bad = Gm("b", "gm_adjust", "sick");
  WithText(bad, "resource", "con");
  With(bad, "delta", -4);
  auto r = t.Submit(bad);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << r.status();
  EXPECT_NE(r.status().message().find("params.resource"), std::string::npos);
  EXPECT_EQ(t.log().size(), before);
}

// 004 l.7: "The creature with the highest Initiative goes first ... If two
// creatures have the same Initiative, the GM decides who goes first": the GM
// reorders ties only; putting the 16 before the 20 is refused, nothing
// written, and so is setting an Initiative mid-round (l.11).
TEST(Turns, GmOrderDecidesOnlyTies) {
  auto a = Being("a", "x", 1, 1, {{"ins", 10}});
  auto z = Being("z", "x", 1, 3, {{"ins", 10}});
  auto o = Being("o", "y", 5, 5, {{"ins", 8}});
  Table t(ApRp(), MakeRoster({z, a, o}));
  ASSERT_EQ(t.state().order.size(), 3u);
  EXPECT_EQ(t.state().order[2].actor, "o");
  EXPECT_EQ(t.state().order[2].initiative, 16);
  const size_t before = t.log().size();
  auto bad = Gm("", "gm_order", "orc first");
  bad.targets = {"o", "z", "a"};
  auto r = t.Submit(bad);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition) << r.status();
  EXPECT_NE(r.status().message().find("l.7"), std::string::npos) << r.status();
  EXPECT_EQ(t.log().size(), before);
  auto set = Gm("", "gm_order", "o at 30");
  set.targets = {"a", "z", "o"};
  With(set, "o", 30);
  r = t.Submit(set);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition) << r.status();
  EXPECT_EQ(t.log().size(), before);
  ASSERT_OK(t.Submit(GmOrder({"z", "a", "o"}, "z first")));
  EXPECT_EQ(t.state().order[0].actor, "z");
  EXPECT_EQ(t.state().order[1].actor, "a");
  EXPECT_EQ(t.state().order[2].actor, "o");
}

// 004 l.7 "If two creatures have the same Initiative, the GM decides who
// goes first" and l.10 "All creatures of a union have their turn at the same
// time": a union of 20 and 24 stands at (20+24)/2 = 22, tied with the enemy's
// 22 (Instinct 11 x 2); by default ids decide (e before u2), the GM puts the
// union's entry (its leader u2) first. Listing the member u1 as an entry of
// its own is refused, nothing written. (Black-box: it was accepted and u1
// got a turn of its own at Initiative 0, ahead of the 22s.)
TEST(Turns, AUnionTiedWithAnEnemyIsOrderedByTheGmThroughItsEntry) {
  auto u1 = Being("u1", "p", 1, 1, {{"ins", 10}});
  Tag(u1, "union:uu");
  auto u2 = Being("u2", "p", 2, 1, {{"ins", 12}});
  Tag(u2, "union:uu");
  auto e = Being("e", "y", 5, 5, {{"ins", 11}});
  Table t(ApRp(), MakeRoster({u1, u2, e}));
  ASSERT_TRUE(t.status().ok()) << t.status();
  ASSERT_EQ(t.state().order.size(), 2u);
  EXPECT_EQ(t.state().order[0].actor, "e");
  EXPECT_EQ(t.state().order[1].actor, "u2");
  EXPECT_EQ(t.state().order[1].initiative, 22);
  const size_t before = t.log().size();
  auto bad = Gm("", "gm_order", "the union first");
  bad.targets = {"u1", "u2", "e"};
  auto r = t.Submit(bad);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition) << r.status();
  EXPECT_NE(r.status().message().find("u2"), std::string::npos) << r.status();
  EXPECT_EQ(t.log().size(), before);
  ASSERT_EQ(t.state().order.size(), 2u);
  ASSERT_OK(t.Submit(GmOrder({"u2", "e"}, "the union first")));
  ASSERT_EQ(t.state().order.size(), 2u);
  EXPECT_EQ(t.state().order[0].actor, "u2");
  EXPECT_EQ(t.state().active, "u2");
  EXPECT_TRUE(t.state().IsTurnOf("u1"));
}

// A gm_order after the running creature acted leaves its turn running.
TEST(Turns, GmOrderAfterActingKeepsTheTurn) {
  auto a = Being("a", "x", 1, 1, {{"ins", 12}});
  auto b = Being("b", "y", 5, 5, {{"ins", 12}});
  Table t(ApRp(), MakeRoster({b, a}));
  ASSERT_OK(t.Submit(Cmd("a", "move_action")));
  ASSERT_OK(t.Submit(GmOrder({"b", "a"}, "b goes first")));
  EXPECT_EQ(t.state().active, "a");
}

// 004 l.2 "Combat only starts if there are at least two parties involved
// that truly wish to fight and have the capabilities to do so. Randomly
// punching rocks does not start combat": a roster of one side and a rock
// (an object cannot fight) is refused naming `side` and l.2; a second side
// with a creature starts it. (Black-box: the session started.)
TEST(Turns, CombatNeedsTwoPartiesThatCanFight) {
  auto a = Being("a", "x", 1, 1);
  auto b = Being("b", "x", 2, 1);
  auto rock = kernel::testing::Creature("rock", "none", 4, 4, {{"vitality", 5}});
  rock.tags.push_back("object");
  Table t(ApRp(), MakeRoster({a, b, rock}));
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(t.status().message().find("side"), std::string::npos) << t.status();
  EXPECT_NE(t.status().message().find("l.2"), std::string::npos) << t.status();
  Table two(ApRp(), MakeRoster({a, Being("foe", "y", 8, 8), rock}));
  EXPECT_TRUE(two.status().ok()) << two.status();
}

// l.7: objects stand at Initiative 0 and take no turns.
TEST(Turns, ObjectsAtInitiativeZero) {
  auto a = Being("a", "x", 1, 1, {{"ins", 12}});
  auto crate = kernel::testing::Creature("crate", "none", 4, 4, {{"vitality", 5}, {"ins", 18}});
  crate.tags.push_back("object");
  auto foe = Being("foe", "y", 15, 15, {{"ins", 1}});  // l.2: two parties; Initiative 2
  Table t(ApRp(), MakeRoster({a, crate, foe}));
  ASSERT_TRUE(t.status().ok()) << t.status();
  ASSERT_EQ(t.state().order.size(), 3u);
  EXPECT_EQ(t.state().order[2].actor, "crate");
  EXPECT_EQ(t.state().order[2].initiative, 0);
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("foe", "end_turn")));
  EXPECT_EQ(t.state().round, 2);
  EXPECT_EQ(t.state().active, "a");
}

// 004 l.99 "A creature or object can be affected by a Status Effect", l.104
// (the list is outside the chapter, and so are l.100-102's categories and
// which Status Effect each Elemental type links to: the GM's gm_condition,
// any name), l.7 "The
// Initiative of objects is always 0": the GM sets the crate Burning for one
// round during a's round-1 turn; the crate takes no turns, and the Burning
// ends at its place (Initiative 0, last) in round 2, where its passing says
// it is an object. (Black-box: the note said "takes no turn (Dead)".)
TEST(Turns, AStatusEffectOnAnObjectEndsAtItsPlaceInTheOrder) {
  auto a = Being("a", "x", 1, 1, {{"ins", 12}});
  auto crate = kernel::testing::Creature("crate", "none", 4, 4, {{"vitality", 5}, {"ins", 18}});
  crate.tags.push_back("object");
  auto foe = Being("foe", "y", 15, 15, {{"ins", 1}});
  Table t(ApRp(), MakeRoster({a, crate, foe}));
  ASSERT_TRUE(t.status().ok()) << t.status();
  ASSERT_OK(t.Submit(GmAdds("crate", "Burning", "set alight", 1)));
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  auto ev = t.Submit(Cmd("foe", "end_turn"));
  ASSERT_OK(ev);
  std::string notes;  // the round's end passes the crate's place
  for (const auto& e : *ev) {
    const auto* sc = e.event().body_as_StateChange();
    if (sc != nullptr && sc->note() != nullptr) notes += sc->note()->str() + "\n";
  }
  EXPECT_EQ(notes.find("crate takes no turn (Dead)"), std::string::npos) << notes;
  EXPECT_NE(notes.find("crate is an object: it takes no turn"), std::string::npos) << notes;
  ASSERT_EQ(t.state().round, 2);
  EXPECT_TRUE(Has(t, "crate", "Burning"));
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  EXPECT_TRUE(Has(t, "crate", "Burning"));
  ASSERT_OK(t.Submit(Cmd("foe", "end_turn")));  // the crate's place: Burning ends
  EXPECT_FALSE(Has(t, "crate", "Burning"));
  EXPECT_EQ(t.state().round, 3);
}

// l.8: several creatures holding to the end of the round take their turns
// by Initiative.
TEST(Turns, SeveralHoldersActByInitiative) {
  Table t(ApRp(), Duel());
  ASSERT_OK(t.Submit(Cmd("a", "hold_turn")));
  ASSERT_OK(t.Submit(Cmd("b", "hold_turn")));
  ASSERT_OK(t.Submit(Cmd("c", "end_turn")));
  EXPECT_EQ(t.state().active, "a");  // 30 before 24
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  EXPECT_EQ(t.state().active, "b");
  ASSERT_OK(t.Submit(Cmd("b", "end_turn")));
  EXPECT_EQ(t.state().round, 2);
}

// 004_1a3e461770fc9e7a.txt l.8 "Should more than one creature hold their
// turn to the end of the round, they will take turns according to their
// Initiative": by Initiative, not by their places in the order: a creature
// acting first (Initiative 10) that held goes after one of 30 (black-box:
// it went first, by its place).
TEST(Turns, HoldersAtTheEndGoByInitiativeNotByPlace) {
  auto a = Being("a", "x", 1, 1, {{"ins", 5}});  // 10, acts first
  Tag(a, "acts_first");
  auto b = Being("b", "x", 1, 3, {{"ins", 15}});  // 30
  auto c = Being("c", "y", 8, 8, {{"ins", 10}});  // 20
  Table t(ApRp(), MakeRoster({a, b, c}));
  ASSERT_EQ(t.state().active, "a");
  ASSERT_OK(t.Submit(Cmd("a", "hold_turn")));
  ASSERT_OK(t.Submit(Cmd("b", "hold_turn")));
  ASSERT_OK(t.Submit(Cmd("c", "end_turn")));
  EXPECT_EQ(t.state().active, "b");  // 30 before 10
  ASSERT_OK(t.Submit(Cmd("b", "end_turn")));
  EXPECT_EQ(t.state().active, "a");
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  EXPECT_EQ(t.state().round, 2);
  EXPECT_EQ(t.state().active, "a");  // its own place again: first
}

// l.10 "Two or more allies can decide to act as a union": the actor is in
// its union already, so naming it among the targets is refused saying so
// and what to name instead (black-box: "named twice", unclear).
TEST(Turns, FormUnionNamingTheActorSaysToNameOnlyTheOthers) {
  Table t(ApRp(), Duel());
  auto r = t.Submit(Cmd("b", "form_union", {"c", "b"}));
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("targets[1]"), absl::string_view::npos) << r.status();
  EXPECT_NE(r.status().message().find("is the actor"), absl::string_view::npos) << r.status();
  EXPECT_NE(r.status().message().find("name only the other allies"), absl::string_view::npos) << r.status();
  r = t.Submit(Cmd("b", "form_union", {"c", "c"}));
  EXPECT_NE(r.status().message().find("name each other ally once"), absl::string_view::npos) << r.status();
}

// l.10: allies decide on a union; it takes effect at the next round start.
TEST(Turns, FormAndLeaveUnion) {
  Table t(ApRp(), Duel());
  EXPECT_EQ(t.Submit(Cmd("b", "form_union", {"a"})).status().code(), absl::StatusCode::kFailedPrecondition);
  auto r = t.Submit(Cmd("b", "form_union", {"c"}));
  ASSERT_OK(r);
  EXPECT_EQ(t.state().order.size(), 3u);
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("b", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("c", "end_turn")));
  ASSERT_EQ(t.state().order.size(), 2u);
  EXPECT_EQ(t.state().order[1].actor, "b");
  EXPECT_EQ(t.state().order[1].initiative, 23);  // (24 + 22) / 2
  ASSERT_OK(t.Submit(Cmd("c", "leave_union")));
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("b", "end_turn")));
  EXPECT_EQ(t.state().order.size(), 3u);
}

// 004_1a3e461770fc9e7a.txt l.10 "Two or more allies can decide to act as a
// union": b (Initiative 24) and c (22) act as a union from round 2, (24 +
// 22) / 2 = 23. In round 2 a teammate d (10) forms a union with c, taking c
// out of b's: b is left alone, no union, and takes its own turn in round 3
// at its own 24 (an ordinary entry, not a one-member union); c+d stand at
// (22 + 10) / 2 = 16. Likewise c leaving c+d in round 3 leaves d alone.
// (Old code: b and later d kept the old union's mark and were ordered as
// one-member unions.)
TEST(Turns, ALoneFormerPartnerActsAloneAgain) {
  auto a = Being("a", "x", 1, 1, {{"ins", 15}});  // 30
  auto b = Being("b", "y", 2, 1, {{"ins", 12}});  // 24
  auto c = Being("c", "y", 5, 5, {{"ins", 11}});  // 22
  auto d = Being("d", "y", 6, 5, {{"ins", 5}});   // 10
  Table t(ApRp(), MakeRoster({a, b, c, d}));
  ASSERT_OK(t.Submit(Cmd("b", "form_union", {"c"})));
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("b", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("c", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("d", "end_turn")));
  ASSERT_EQ(t.state().round, 2);
  ASSERT_EQ(t.state().order.size(), 3u);  // a 30, b+c 23, d 10
  EXPECT_EQ(t.state().order[1].initiative, 23);
  ASSERT_OK(t.Submit(Cmd("d", "form_union", {"c"})));
  EXPECT_FALSE(t.state().Find("b")->Has(kUnion));
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("b", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("d", "end_turn")));
  ASSERT_EQ(t.state().round, 3);
  ASSERT_EQ(t.state().order.size(), 3u);  // a 30, b 24, c+d 16
  EXPECT_EQ(t.state().order[1].actor, "b");
  EXPECT_EQ(t.state().order[1].initiative, 24);
  EXPECT_TRUE(t.state().order[1].members.empty());
  EXPECT_EQ(t.state().order[2].initiative, 16);
  ASSERT_OK(t.Submit(Cmd("c", "leave_union")));
  EXPECT_FALSE(t.state().Find("d")->Has(kUnion));
  EXPECT_FALSE(t.state().Find("c")->Has(kUnion));
}

// 004_1a3e461770fc9e7a.txt l.12 "they act at the end of the first round
// instead of using their normal initiative" with l.10 "All creatures of a
// union have their turn at the same time" (reading): a union with a
// surprised member k takes its shared turn at the end of round 1, as l.10
// puts a union with an act-last member last. Union Initiative (26 + 32) / 2
// = 29, yet after the enemy's 10 in round 1; in round 2, first.
TEST(Turns, AUnionWithASurprisedMemberActsAtTheEndOfRoundOne) {
  auto k = Being("k", "x", 1, 1, {{"ins", 13}});  // 26
  Tag(Tag(k, "union:kh"), "surprised");
  auto h = Being("h", "x", 2, 1, {{"ins", 16}});  // 32
  Tag(h, "union:kh");
  auto o = Being("o", "y", 8, 8, {{"ins", 5}});   // 10
  Table t(ApRp(), MakeRoster({k, h, o}));
  ASSERT_EQ(t.state().order.size(), 2u);
  EXPECT_EQ(t.state().order[0].actor, "o");
  EXPECT_EQ(t.state().order[1].actor, "h");
  EXPECT_EQ(t.state().order[1].initiative, 29);
  ASSERT_OK(t.Submit(Cmd("o", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("k", "end_turn")));
  ASSERT_EQ(t.state().round, 2);
  EXPECT_EQ(t.state().order[0].actor, "h");
}

// 004_1a3e461770fc9e7a.txt l.6 "Each participant also gains two Reaction
// Points (RP) for the whole round" with l.12 "they act at the end of the
// first round instead of using their normal initiative": surprise moves the
// surprised creature's turn, not its RP. Before its turn at the end of round
// 1, s (surprised) is switched with by its ally a (a's 1 AP, s's 1 RP,
// l.23) and pays 1 RP for a reaction feature: 2 -> 1 -> 0; a third RP is
// refused. Round 2 gives it 2 again.
TEST(Turns, ASurprisedCreatureHasItsTwoRpInRoundOne) {
  auto a = Being("a", "x", 1, 1, {{"ins", 15}});  // 30
  auto s = Being("s", "x", 2, 1, {{"ins", 20}});  // 40, surprised
  Tag(s, "surprised");
  auto b = Being("b", "y", 8, 8, {{"ins", 10}});  // 20
  Table t(ApRp(), MakeRoster({a, s, b}));
  ASSERT_EQ(t.state().order.back().actor, "s");
  EXPECT_EQ(Res(t, "s", kRp), 2);
  ASSERT_OK(t.Submit(Cmd("a", "switch_places", {"s"})));
  EXPECT_EQ(t.state().Find("s")->at, (Pos{1, 1}));
  EXPECT_EQ(Res(t, "s", kRp), 1);
  fb::CommandT f = Cmd("s", "use_feature");
  f.text = "a reaction feature";
  With(f, "rp", 1);
  ASSERT_OK(t.Submit(f));
  EXPECT_EQ(Res(t, "s", kRp), 0);
  EXPECT_EQ(t.Submit(f).status().code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("b", "end_turn")));
  ASSERT_TRUE(t.state().IsTurnOf("s"));
  ASSERT_OK(t.Submit(Cmd("s", "end_turn")));
  ASSERT_EQ(t.state().round, 2);
  EXPECT_EQ(Res(t, "s", kRp), 2);
}

// 004_1a3e461770fc9e7a.txt l.10 "The Initiative of a union is equal to the
// sum of the Initiative of all participating creatures divided by the
// number of those creatures" with l.53's rounding ("1,5, which is rounded
// down to 1"): k 26 + h 27 = 53, / 2 = 26.5 -> 26; three, 26 + 27 + 30 =
// 83, / 3 = 27.67 -> 27 (foe2 28 goes first: the union is not 28). Each
// member has its own 2 RP (l.6 "Each participant").
TEST(Turns, AUnionsInitiativeIsTheAverageRoundedDown) {
  auto k = Being("k", "x", 1, 1, {{"ins", 13}});                       // 26
  auto h = Being("h", "x", 2, 1, {{"ins", 13}, {"athletics", 1}});     // 27
  auto p = Being("p", "x", 3, 1, {{"ins", 15}});                       // 30
  auto foe2 = Being("foe2", "y", 8, 8, {{"ins", 14}});                 // 28
  {
    auto k2 = k, h2 = h;
    Tag(k2, "union:kh");
    Tag(h2, "union:kh");
    Table t(ApRp(), MakeRoster({k2, h2, p, foe2}));
    ASSERT_TRUE(t.status().ok()) << t.status();
    ASSERT_EQ(t.state().order.size(), 3u);
    EXPECT_EQ(t.state().order[2].actor, "h");
    EXPECT_EQ(t.state().order[2].initiative, 26);
    EXPECT_EQ(Res(t, "k", kRp), 2);
    EXPECT_EQ(Res(t, "h", kRp), 2);
  }
  {
    auto k3 = k, h3 = h, p3 = p;
    Tag(k3, "union:khp");
    Tag(h3, "union:khp");
    Tag(p3, "union:khp");
    Table t(ApRp(), MakeRoster({k3, h3, p3, foe2}));
    ASSERT_TRUE(t.status().ok()) << t.status();
    ASSERT_EQ(t.state().order.size(), 2u);
    EXPECT_EQ(t.state().order[0].actor, "foe2");
    EXPECT_EQ(t.state().order[1].actor, "p");
    EXPECT_EQ(t.state().order[1].initiative, 27);
    ASSERT_EQ(t.state().order[1].members.size(), 2u);
  }
}

// l.12: surprised creatures act at the end of round 1; unsurprised enemies
// start hidden from them.
TEST(Turns, Surprise) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}});
  Tag(a, "surprised");
  auto b = Being("b", "y", 5, 5, {{"ins", 10}});
  Table t(ApRp(), MakeRoster({a, b}));
  EXPECT_EQ(t.state().order[0].actor, "b");
  EXPECT_NE(t.state().Find("b")->FindRelative(kHidden, "a"), nullptr);
  ASSERT_OK(t.Submit(Cmd("b", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  EXPECT_EQ(t.state().order[0].actor, "a");  // round 2: normal Initiative
}


// 004_1a3e461770fc9e7a.txt l.12 "they act at the end of the first round
// instead of using their normal initiative, and any enemy that is not
// surprised starts the combat hidden from them". Round 1: the unsurprised
// (foe 20, the rock at 0, the act-last ally 10, l.10) then the surprised by
// Initiative (reading, as l.8's holders): s1 40 (act-first: not its normal
// place either), s2 30, foe2 24. Hidden at the start: foe from s1 and s2 (an unsurprised enemy),
// ally from foe2; not foe2 from s1 (surprised), not ally from s1 (an ally,
// l.3), not the rock (an object does not fight, l.2). s1 cannot target the
// foe hidden from it (l.36). Round 2: normal Initiative, s1 first.
TEST(Turns, SurpriseOrdersTheSurprisedByInitiativeAndHidesOnlyUnsurprisedEnemies) {
  auto s1 = Being("s1", "x", 1, 1, {{"ins", 20}});
  Tag(s1, "surprised");
  Tag(s1, "acts_first");
  Arm(s1, "ax", "1d8", "melee");
  auto s2 = Being("s2", "x", 1, 3, {{"ins", 15}});
  Tag(s2, "surprised");
  auto ally = Being("ally", "x", 1, 5, {{"ins", 5}});
  Tag(ally, "acts_last");
  auto foe = Being("foe", "y", 2, 1, {{"ins", 10}});
  auto foe2 = Being("foe2", "y", 8, 8, {{"ins", 12}});
  Tag(foe2, "surprised");
  auto rock = kernel::testing::Creature("rock", "y", 9, 9, {{"vitality", 10}});
  rock.tags.push_back("object");
  Table t(ApRp(), MakeRoster({s1, s2, ally, foe, foe2, rock}));
  ASSERT_TRUE(t.status().ok()) << t.status();
  std::vector<std::string> order;
  for (const auto& e : t.state().order) order.push_back(e.actor);
  EXPECT_EQ(order, (std::vector<std::string>{"foe", "rock", "ally", "s1", "s2", "foe2"}));
  const State& s = t.state();
  EXPECT_NE(s.Find("foe")->FindRelative(kHidden, "s1"), nullptr);
  EXPECT_NE(s.Find("foe")->FindRelative(kHidden, "s2"), nullptr);
  EXPECT_EQ(s.Find("foe")->FindRelative(kHidden, "foe2"), nullptr);
  EXPECT_NE(s.Find("ally")->FindRelative(kHidden, "foe2"), nullptr);
  EXPECT_EQ(s.Find("ally")->FindRelative(kHidden, "s1"), nullptr);
  EXPECT_EQ(s.Find("foe2")->FindRelative(kHidden, "s1"), nullptr);
  EXPECT_EQ(s.Find("rock")->FindRelative(kHidden, "s1"), nullptr);
  ASSERT_OK(t.Submit(Cmd("foe", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("ally", "end_turn")));
  ASSERT_EQ(t.state().active, "s1");
  auto r = t.Submit(Attack("s1", "foe", "ax"), {15, 3});
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition) << r.status();
  EXPECT_NE(r.status().message().find("l.36"), std::string::npos) << r.status();
  ASSERT_OK(t.Submit(Cmd("s1", "end_turn")));
  ASSERT_EQ(t.state().active, "s2");
  ASSERT_OK(t.Submit(Cmd("s2", "end_turn")));
  ASSERT_EQ(t.state().active, "foe2");
  ASSERT_OK(t.Submit(Cmd("foe2", "end_turn")));
  order.clear();
  for (const auto& e : t.state().order) order.push_back(e.actor);
  EXPECT_EQ(order, (std::vector<std::string>{"s1", "s2", "foe2", "foe", "rock", "ally"}));
}

// l.12 "they act at the end of the first round" and l.8 "Should more than
// one creature hold their turn to the end of the round": both are "at the
// end"; the text orders neither. Reading (README): the surprised stand last
// in the round's order, and a turn held to the end is taken when the order
// is exhausted, so after them: a (40) holds, c (10) acts, then the
// surprised b (30), then a's held turn.
TEST(Turns, ATurnHeldToTheEndComesAfterTheSurprised) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}});
  auto b = Being("b", "y", 8, 8, {{"ins", 15}});
  Tag(b, "surprised");
  auto c = Being("c", "y", 9, 9, {{"ins", 5}});
  Table t(ApRp(), MakeRoster({a, b, c}));
  ASSERT_OK(t.Submit(Cmd("a", "hold_turn")));
  EXPECT_EQ(t.state().active, "c");
  ASSERT_OK(t.Submit(Cmd("c", "end_turn")));
  EXPECT_EQ(t.state().active, "b");
  ASSERT_OK(t.Submit(Cmd("b", "end_turn")));
  EXPECT_EQ(t.state().active, "a");
  EXPECT_EQ(t.state().round, 1);
}

// l.8 with l.31: a creature holding its turn is blinded "until the end of
// their next turn": that is the held turn it takes later this round; a
// Defend "until your next turn" started after holding lasts to next round.
TEST(Turns, EndOfNextTurnOfAHolderIsItsHeldTurn) {
  auto a = Being("a", "x", 1, 1, {{"ins", 15}});
  auto b = Being("b", "y", 2, 1, {{"ins", 8}, {"quick_fingers", 9}});  // 25
  Table t(ApRp(), MakeRoster({a, b}));
  ASSERT_OK(t.Submit(Cmd("a", "hold_turn")));
  ASSERT_EQ(t.state().active, "b");
  ASSERT_OK(t.Submit(Cmd("b", "blind", {"a"}), {15, 2}));
  ASSERT_TRUE(Has(t, "a", kBlinded));
  ASSERT_OK(t.Submit(Cmd("b", "end_turn")));
  ASSERT_EQ(t.state().active, "a");  // the held turn
  EXPECT_TRUE(Has(t, "a", kBlinded));
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  EXPECT_FALSE(Has(t, "a", kBlinded));  // ended with that turn (lost, l.8)
}

// 004 l.12 "they act at the end of the first round", l.31 Blind "until the
// end of their next turn", l.18 Defend "until your next turn": s (surprised,
// Initiative 40) is blinded before its turn at the end of round 1: the Blind
// ends with that turn; its Defend ends at its round-2 turn start, first in
// that round (40 > 25).
TEST(Turns, ASurprisedCreaturesDurationsEndAtItsEndOfRoundOneTurnAndRoundTwoStart) {
  auto s = Being("s", "x", 1, 1, {{"ins", 20}});
  Tag(s, "surprised");
  auto o = Being("o", "y", 2, 1, {{"ins", 10}, {"nimbleness", 5}});
  Table t(ApRp(), MakeRoster({s, o}));
  ASSERT_EQ(t.state().active, "o");
  ASSERT_OK(t.Submit(Cmd("o", "blind", {"s"}), {15, 2}));
  ASSERT_TRUE(Has(t, "s", kBlinded));
  EXPECT_EQ(t.state().Find("s")->FindCondition(kBlinded)->expiry.round, 1);
  ASSERT_OK(t.Submit(Cmd("o", "end_turn")));
  ASSERT_EQ(t.state().active, "s");
  ASSERT_OK(t.Submit(Cmd("s", "defend")));
  ASSERT_OK(t.Submit(Cmd("s", "end_turn")));
  EXPECT_FALSE(Has(t, "s", kBlinded));
  EXPECT_EQ(t.state().round, 2);
  EXPECT_EQ(t.state().active, "s");
  EXPECT_FALSE(Has(t, "s", kDefending));
}

// 004 l.10 "All creatures of a union have their turn at the same time"
// with l.7, l.8, l.31: the Blind set on k, a member of the union h+k, while
// the union's untouched turn runs ends with the union's turn in its new
// place after a gm_order hands it on (as for a creature alone).
TEST(Turns, ABlindOnAUnionMemberHandedOnEndsWithTheUnionsTurnInItsNewPlace) {
  auto h = Being("h", "x", 1, 2, {{"ins", 12}});
  auto k = Being("k", "x", 1, 1, {{"ins", 12}});
  Tag(h, "union:u");
  Tag(k, "union:u");
  auto o = Being("o", "y", 2, 1, {{"ins", 12}, {"nimbleness", 5}});
  auto z = Being("z", "y", 9, 9, {{"ins", 5}});
  Table t(ApRp(), MakeRoster({h, k, o, z}));
  ASSERT_EQ(t.state().active, "h");
  ASSERT_OK(t.Submit(Cmd("h", "end_turn")));
  ASSERT_NO_FATAL_FAILURE(BlindDuringTheUntouchedTurnOf(t, "k"));
  ASSERT_EQ(t.state().active, "h");
  ASSERT_OK(t.Submit(GmOrder({"o", "h", "z"}, "tie: o first")));
  ASSERT_EQ(t.state().active, "o");
  EXPECT_EQ(t.state().Find("k")->FindCondition(kBlinded)->expiry.round, 2);
  ASSERT_OK(t.Submit(Cmd("o", "end_turn")));
  ASSERT_EQ(t.state().active, "h");
  ASSERT_OK(t.Submit(Cmd("k", "end_turn")));
  EXPECT_FALSE(Has(t, "k", kBlinded));
}

}  // namespace
}  // namespace combat::kernel::aprp
