// Rounds, turns, budgets, Hold and Delay (seed 000 L9-L21, L152, L162).
#include "gtest/gtest.h"
#include "kernel/d20_three_action/internal.h"
#include "kernel/d20_three_action/test_util.h"

namespace combat::kernel::d20 {
namespace {

using namespace testing;  // NOLINT

fb::RosterT Duel() {
  return MakeRoster(
      {Being("aria", "party", 0, 0), Being("gob", "goblins", 5, 5)});
}

// aria, gob and the orc, far apart, in that order (initiative d20s 15, 10
// and 5).
Table ThreeApart() {
  return Table(D20ThreeAction(),
               MakeRoster({Being("aria", "party", 0, 0), Being("gob", "goblins", 5, 5),
                           Being("orc", "goblins", 9, 9)}),
               {15, 10, 5});
}

// The same and the wolf, in that order (initiative d20s 20, 15, 10 and 5).
Table FourApart() {
  return Table(D20ThreeAction(),
               MakeRoster({Being("aria", "party", 0, 0), Being("gob", "goblins", 5, 5),
                           Being("orc", "goblins", 9, 9), Being("wolf", "goblins", 0, 9)}),
               {20, 15, 10, 5});
}

// The GM makes the orc Shaken for `rounds` Rounds (the war horn).
void HornShakes(Table& t, const std::string& who, int rounds, const std::string& name = kShaken) {
  fb::CommandT gm = Gm(who, "gm_condition", "the war horn");
  WithText(gm, "name", name);
  WithText(gm, "op", "add");
  With(gm, "rounds", rounds);
  ASSERT_OK(t.Submit(gm));
}

void HornShakesTheOrc(Table& t, int rounds) { HornShakes(t, "orc", rounds); }

// A falling rock takes `who` to -20 HP, its max HP 20 below 0: Dead (L140).
void RockKills(Table& t, const std::string& who) {
  fb::CommandT kill = Gm(who, "gm_adjust", "a falling rock");
  WithText(kill, "resource", "hp");
  With(kill, "delta", -40);  // 20 - 40 = -20 HP: max HP 20 (l.140)
  ASSERT_OK(t.Submit(kill));
  ASSERT_TRUE(Has(t, who, kDead));
}

TEST(Turns, SetupRollsInitiativeAndStartsTheFirstTurn) {
  Table t(D20ThreeAction(), Duel(), {15, 10});  // 17 and 12 (d20 + DEX 2)
  ASSERT_TRUE(t.status().ok()) << t.status();
  const State& s = t.state();
  ASSERT_EQ(s.order.size(), 2u);
  EXPECT_EQ(s.order[0].actor, "aria");
  EXPECT_EQ(s.order[0].initiative, 17);
  EXPECT_EQ(s.order[1].initiative, 12);
  EXPECT_EQ(s.round, 1);
  EXPECT_EQ(s.active, "aria");
  EXPECT_EQ(Res(t, "aria", kActions), 3);    // L15
  EXPECT_EQ(Res(t, "aria", kReactions), 1);  // L19
  EXPECT_EQ(Res(t, "aria", kHp), 20);
  EXPECT_EQ(Res(t, "aria", kBleedPenalty), 0);  // L127: starts at 0
}

TEST(Turns, SetupChecksTheRoster) {
  fb::RosterT r = Duel();
  r.combatants[0]->stats.erase(r.combatants[0]->stats.begin() + 2);  // dex
  Table t(D20ThreeAction(), r, {15, 10});
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(t.status().message().find("'aria': field 'stats.dex': is required"),
            std::string::npos)
      << t.status();
  fb::RosterT off = Duel();
  off.combatants[1]->at = std::make_unique<fb::Pos>(25, 0);
  EXPECT_EQ(Table(D20ThreeAction(), off, {15, 10}).status().code(),
            absl::StatusCode::kInvalidArgument);
  fb::RosterT bad = Duel();
  Arm(*bad.combatants[0], "spear", "1q8", "melee");
  EXPECT_EQ(Table(D20ThreeAction(), bad, {15, 10}).status().code(),
            absl::StatusCode::kInvalidArgument);
  fb::RosterT pet = Duel();
  pet.combatants[1]->controller = "nobody";
  EXPECT_EQ(Table(D20ThreeAction(), pet, {15, 10}).status().code(),
            absl::StatusCode::kInvalidArgument);
}

// Roster tags are a closed list (issue 15): "Hidden" (l.115's spelling)
// or a condition such as "prone" would otherwise do nothing, silently.
TEST(Turns, RosterTagsAreAClosedList) {
  for (const char* tag : {"Hidden", "prone", "sleepy"}) {
    fb::RosterT r = Duel();
    Tag(*r.combatants[1], tag);
    Table t(D20ThreeAction(), r, {15, 10});
    EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument) << tag;
    EXPECT_NE(t.status().message().find("one of: unaware, undetected, hidden"),
              std::string::npos)
        << t.status();
  }
  fb::RosterT hidden = Duel();
  Tag(*hidden.combatants[1], "Hidden");
  EXPECT_NE(Table(D20ThreeAction(), hidden, {15, 10})
                .status()
                .message()
                .find("write it as 'hidden'"),
            std::string::npos);
}

TEST(Turns, TiesAreBrokenByRecordedRolls) {
  // L11: both total 12; tie-break d20s 5 (aria) and 9 (gob): gob first.
  Table t(D20ThreeAction(), Duel(), {10, 10, 5, 9});
  ASSERT_TRUE(t.status().ok()) << t.status();
  EXPECT_EQ(t.state().order[0].actor, "gob");
  EXPECT_EQ(t.state().active, "gob");
}

TEST(Turns, TiedTieBreaksAreRolledAgain) {
  Table t(D20ThreeAction(), Duel(), {10, 10, 7, 7, 2, 3});
  ASSERT_TRUE(t.status().ok()) << t.status();
  EXPECT_EQ(t.state().order[0].actor, "gob");
}

TEST(Turns, UnawareCreaturesDoNotActInRoundOne) {
  fb::RosterT r = Duel();
  Tag(*r.combatants[1], "unaware");
  Table t(D20ThreeAction(), r, {5, 18});  // gob would go first
  ASSERT_TRUE(t.status().ok()) << t.status();
  EXPECT_EQ(t.state().active, "aria");  // L11
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  EXPECT_EQ(t.state().round, 2);
  EXPECT_EQ(t.state().active, "gob");
}

// Seed 000 l.11 "Creatures that are completely unaware of combat ... do not
// act in the first Round of combat" with l.11 "every Creature gets a Turn",
// l.13 "every Creature in the combat gets 1 Turn" and l.15 "Every Creature
// in the Initiative gets a Turn": the unaware creature has its Round 1 Turn
// but does not act in it. "At the start of a Bleeding Creatures Turn ... it
// rolls on the Bleed Table" (l.127) happens in Round 1; its Reaction starts
// on that Turn (l.19 "starting on their Turn and expiring the start of their
// next Turn"), unusable in Round 1, usable in Round 2 before its own Turn.
TEST(Turns, AnUnawareCreatureHasARoundOneTurnWithoutActing) {
  fb::RosterT r = Duel();
  Tag(*r.combatants[1], "unaware");
  Table t(D20ThreeAction(), r, {15, 10});  // aria 17, gob 12
  ASSERT_TRUE(t.status().ok()) << t.status();
  GmAdd(t, "gob", "bleeding");
  fb::CommandT climb = Cmd("gob", "use_skill");
  WithText(climb, "skill", "climb");
  With(climb, "dc", 10);
  With(climb, "reaction", 1);
  auto early = t.Submit(climb, {12});
  ASSERT_FALSE(early.ok());
  EXPECT_NE(early.status().message().find("does not act in the first Round"),
            std::string::npos)
      << early.status();
  // aria ends her turn: gob's Round 1 Turn starts. Bleed Table d20 11 - 0
  // = 11: "11 - 15 -" (l.135), then 2d6 {2,3} = 5 Bleed Damage (l.127):
  // HP 20 - 5 = 15, Bleed Penalty 0 + 1 = 1. Its Turn ends at once.
  auto end = t.Submit(Cmd("aria", "end_turn"), {11, 2, 3});
  ASSERT_OK(end);
  EXPECT_TRUE(Cites(*end, "000.initiative.unaware"));
  EXPECT_EQ(t.state().round, 2);
  EXPECT_EQ(t.state().active, "aria");
  EXPECT_EQ(Res(t, "gob", kHp), 15);
  EXPECT_EQ(Res(t, "gob", kBleedPenalty), 1);
  EXPECT_EQ(Res(t, "gob", kTurnRound), 1);
  EXPECT_EQ(Res(t, "gob", kActions), 0);    // it did not act
  EXPECT_EQ(Res(t, "gob", kReactions), 1);  // l.19, from its Round 1 Turn
  // Round 2, aria's turn: gob is no longer in the first Round and uses the
  // Reaction its Round 1 Turn gave it: 12 >= 10.
  ASSERT_OK(t.Submit(climb, {12}));
  EXPECT_EQ(Res(t, "gob", kReactions), 0);
}

TEST(Turns, EndTurnAdvancesAndStartsTheNextRound) {
  Table t(D20ThreeAction(), Duel(), {15, 10});
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  EXPECT_EQ(t.state().active, "gob");
  EXPECT_EQ(Res(t, "gob", kActions), 3);
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  EXPECT_EQ(t.state().round, 2);
  EXPECT_EQ(t.state().active, "aria");
  auto replay = t.Replay();
  ASSERT_OK(replay);
}

TEST(Turns, RefusesActingOutOfTurnAndBeyondTheBudget) {
  Table t(D20ThreeAction(), Duel(), {15, 10});
  auto out = t.Submit(Cmd("gob", "interact"));
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(out.status().message().find("not gob's turn"), std::string::npos);
  for (int i = 0; i < 3; ++i) ASSERT_OK(t.Submit(Cmd("aria", "interact")));
  out = t.Submit(Cmd("aria", "interact"));
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find("0 Actions left"), std::string::npos)
      << out.status();
  EXPECT_NE(out.status().message().find("l.15"), std::string::npos);
  out = t.Submit(Cmd("aria", "fly_away"));
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(Turns, SlowedAndIncapacitatedLoseActions) {
  Table t(D20ThreeAction(), Duel(), {15, 10});
  GmAdd(t, "aria", "slowed");
  GmAdd(t, "gob", "incapacitated");
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  EXPECT_EQ(Res(t, "gob", kActions), 1);    // L152: 3 - 2
  EXPECT_EQ(Res(t, "gob", kReactions), 0);  // 1 - 2, minimum 0
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  EXPECT_EQ(Res(t, "aria", kActions), 2);    // L162: 3 - 1
  EXPECT_EQ(Res(t, "aria", kReactions), 0);  // L162: 1 - 1
}

// seed 000 l.152 "2 less Actions and 2 less Reactions per Turn to a minimum
// of 0" with l.162 "one less Action and one less Reaction per Turn to a
// minimum of 0", both on gob, by hand: 3 - 2 - 1 = 0 Actions, 1 - 2 - 1 ->
// 0 Reactions. (Its Bleeding, l.152, rolls 13 on the Bleed Table, l.135
// "11 - 15 -", then 2d6 = 1 + 1.)
TEST(Turns, SlowedAndIncapacitatedTogetherLeaveNoAction) {
  Table t(D20ThreeAction(), Duel(), {15, 10});
  for (const char* name : {"slowed", "incapacitated"}) {
    GmAdd(t, "gob", name);
  }
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn"), {13, 1, 1}));
  EXPECT_EQ(Res(t, "gob", kActions), 0);
  EXPECT_EQ(Res(t, "gob", kReactions), 0);
  EXPECT_EQ(Res(t, "gob", kHp), 18);
}

// Reading (README "Budgets", pass 5): seed 000 l.162 "one less Action and
// one less Reaction per Turn" and l.152 "2 less Actions and 2 less
// Reactions per Turn" are the allotment given when the Turn starts (l.17
// "During a Turn you get three Actions", l.19 "1 Reaction per Round
// starting on their Turn"): Slowed and Incapacitated gained mid-Turn keep
// that Turn's Actions and the Reaction it has; the next Turn is smaller.
TEST(Turns, SlowedMidTurnKeepsTheTurnsActions) {
  Table t(D20ThreeAction(), Duel(), {15, 10});
  ASSERT_OK(t.Submit(Cmd("aria", "interact")));  // 3 - 1 = 2 left
  GmAdd(t, "aria", "slowed");
  GmAdd(t, "aria", "incapacitated");
  EXPECT_EQ(Res(t, "aria", kActions), 2);    // this Turn's allotment stays
  EXPECT_EQ(Res(t, "aria", kReactions), 1);  // until its next Turn (l.19)
  ASSERT_OK(t.Submit(Cmd("aria", "interact")));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  EXPECT_EQ(Res(t, "aria", kActions), 0);    // 3 - 1 - 2, minimum 0
  EXPECT_EQ(Res(t, "aria", kReactions), 0);  // 1 - 1 - 2, minimum 0
}

TEST(Turns, StunnedCreaturesCannotAct) {
  Table t(D20ThreeAction(), Duel(), {15, 10});
  GmAdd(t, "aria", "stunned");
  auto out = t.Submit(Cmd("aria", "drop_prone"));
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find("Stunned"), std::string::npos);
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));  // not an action
}

// l.164 "A Stunned Creature can take no Actions, Reactions or Free Actions"
// for a GM's `rounds` 2 given in aria's own round-1 Turn after 1 Action:
// l.13 "it will end after all other Creatures have gotten a Turn", twice:
// at aria's round-3 turn start, before its Actions are allotted. It costs
// the 2 Actions left in round 1 and the 3 of round 2; round 3 has 3.
TEST(Turns, AStunLaidInTheBearersOwnTurnCostsTheRestOfItAndNMinusOneTurns) {
  Table t(D20ThreeAction(), Duel(), {15, 10});
  ASSERT_OK(t.Submit(MoveTo("aria", {{1, 0}})));
  fb::CommandT stun = Gm("aria", "gm_condition", "a stunning trap");
  WithText(stun, "name", "stunned");
  WithText(stun, "op", "add");
  With(stun, "rounds", 2);
  ASSERT_OK(t.Submit(stun));
  EXPECT_FALSE(t.Submit(MoveTo("aria", {{2, 0}})).ok());  // round 1
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  EXPECT_TRUE(Has(t, "aria", kStunned));
  EXPECT_FALSE(t.Submit(MoveTo("aria", {{2, 0}})).ok());  // round 2
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  EXPECT_FALSE(Has(t, "aria", kStunned));  // round 3
  EXPECT_EQ(Res(t, "aria", kActions), 3);
  ASSERT_OK(t.Submit(MoveTo("aria", {{2, 0}})));
}

TEST(Turns, OneRoundEndsAfterEveryOtherCreatureHadATurn) {
  Table t(D20ThreeAction(), Duel(), {15, 10});
  fb::CommandT slow = Cmd("aria", "cast", {"gob"});
  WithText(slow, "spell", "slow");
  WithText(slow, "condition", "slowed");
  With(slow, "condition_rounds", 1);
  ASSERT_OK(t.Submit(slow));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  EXPECT_TRUE(Has(t, "gob", kSlowed));  // still during gob's turn
  EXPECT_EQ(Res(t, "gob", kActions), 2);
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  EXPECT_FALSE(Has(t, "gob", kSlowed));  // L13: gone at aria's next turn
}

TEST(Turns, DelayThenEnterAfterTheCurrentTurn) {
  Table t(D20ThreeAction(), Duel(), {15, 10});
  ASSERT_OK(t.Submit(Cmd("aria", "delay")));
  EXPECT_EQ(t.state().active, "gob");
  EXPECT_TRUE(t.state().order[0].delayed);
  ASSERT_OK(t.Submit(Cmd("aria", "enter")));
  EXPECT_EQ(t.state().order[0].actor, "gob");
  EXPECT_EQ(t.state().order[1].actor, "aria");
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  EXPECT_EQ(t.state().round, 1);  // aria's turn, still round 1
  EXPECT_EQ(t.state().active, "aria");
  EXPECT_EQ(Res(t, "aria", kActions), 3);
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  EXPECT_EQ(t.state().round, 2);
  EXPECT_EQ(t.state().active, "gob");  // L15: the new place holds
}

// 000 l.115: "If the Hidden Creature ends their Turn without concealment
// ... they are no longer Hidden to that Creature"; l.15: a delay gives up
// the place, it ends no turn (README "Hold vs Delay", black-box pass 3).
TEST(Turns, DelayingEndsNoTurnSoTheHiddenCheckWaitsForTheRealEnd) {
  fb::RosterT r = Duel();
  Tag(*r.combatants[1], "hidden");  // gob, in the open at (5,5)
  Table t(D20ThreeAction(), r, {10, 15});  // gob 17, aria 12
  ASSERT_EQ(t.state().active, "gob");
  ASSERT_TRUE(t.state().Find("gob")->FindRelative(kHidden, "aria") != nullptr);
  ASSERT_OK(t.Submit(Cmd("gob", "delay")));
  EXPECT_EQ(t.state().active, "aria");
  EXPECT_TRUE(Has(t, "gob", kHidden));  // no turn ended
  ASSERT_OK(t.Submit(Cmd("gob", "enter")));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  EXPECT_EQ(t.state().active, "gob");
  EXPECT_TRUE(Has(t, "gob", kHidden));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));  // its turn ends in the open
  EXPECT_FALSE(Has(t, "gob", kHidden));
}

TEST(Turns, DelayOnlyBeforeActing) {
  Table t(D20ThreeAction(), Duel(), {15, 10});
  ASSERT_OK(t.Submit(Cmd("aria", "interact")));
  auto out = t.Submit(Cmd("aria", "delay"));
  EXPECT_EQ(out.status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(Turns, DelayedCreaturesStillBleedAtTheirOriginalInitiative) {
  Table t(D20ThreeAction(), Duel(), {15, 10});
  GmAdd(t, "aria", "bleeding");
  ASSERT_OK(t.Submit(Cmd("aria", "delay")));
  // Round 2 starts: aria (delayed, first in the order) bleeds before gob's
  // turn: table d20 14 (no effect), then 2d6 = 2 + 3.
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn"), {14, 2, 3}));
  EXPECT_EQ(t.state().round, 2);
  EXPECT_EQ(t.state().active, "gob");
  EXPECT_EQ(Res(t, "aria", kHp), 15);
  EXPECT_EQ(Res(t, "aria", kBleedPenalty), 1);
  EXPECT_TRUE(t.state().order[0].delayed);
}

// l.15 "They must still experience any Effects that would normally affect
// them at the start of their Turn ... continue to suffer any ongoing
// Effects (such as Bleed Damage, or ongoing Spell Effects) each Round at
// their original Initiative" with l.127 "At the start of a Bleeding
// Creatures Turn": aria, Bleeding, rolls at her round-2 turn start and then
// delays; the Turn she enters after gob's is the Turn whose start she
// already bled at: no second roll that Round; in round 3 she rolls once, at
// her new place after gob.
TEST(Turns, ADelayingCreatureBleedsOnceARoundNotAgainWhenItEnters) {
  Table t(D20ThreeAction(), Duel(), {15, 10});
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  GmAdd(t, "aria", "bleeding");  // in gob's round-1 Turn
  // 14 - 0 = 14: "11 - 15 -"; 2d6 2 + 3: HP 15, Bleed Penalty 1.
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn"), {14, 2, 3}));
  EXPECT_EQ(Res(t, "aria", kHp), 15);
  ASSERT_OK(t.Submit(Cmd("aria", "delay")));
  ASSERT_OK(t.Submit(Cmd("aria", "enter")));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));  // no roll at the entry
  EXPECT_EQ(t.state().round, 2);
  EXPECT_EQ(t.state().active, "aria");
  EXPECT_EQ(Res(t, "aria", kHp), 15);
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));  // round 3: gob first
  EXPECT_EQ(Res(t, "aria", kHp), 15);
  // 14 - 1 = 13: "11 - 15 -"; 2d6 1 + 1: HP 13, Bleed Penalty 2.
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn"), {14, 1, 1}));
  EXPECT_EQ(t.state().active, "aria");
  EXPECT_EQ(Res(t, "aria", kHp), 13);
  EXPECT_EQ(Res(t, "aria", kBleedPenalty), 2);
}

TEST(Turns, HoldKeepsTheActionsLeftAndDropsInTheOrder) {
  Table t = ThreeApart();
  ASSERT_OK(t.Submit(Cmd("aria", "interact")));
  HoldUntilAfter(t, "aria", "gob");
  EXPECT_EQ(t.state().active, "gob");
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  EXPECT_EQ(t.state().active, "aria");
  EXPECT_EQ(Res(t, "aria", kActions), 2);  // kept
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  EXPECT_EQ(t.state().active, "orc");
  ASSERT_OK(t.Submit(Cmd("orc", "end_turn")));
  EXPECT_EQ(t.state().round, 2);
  EXPECT_EQ(t.state().active, "gob");  // aria now acts after gob
}

// 000 L13 "If a Creature decides to hold its Turn it must wait until the
// end of another's Creatures Turn": a Dead creature gets no Turn, so a hold
// until after it is refused, naming why (was: accepted, aria resuming after
// the living creature before it); after the living orc it is taken.
TEST(Turns, AHoldUntilAfterADeadCreatureIsRefused) {
  Table t = ThreeApart();
  GmAdd(t, "gob", kDead);
  fb::CommandT hold = Cmd("aria", "hold");
  WithText(hold, "after", "gob");
  const absl::Status st = t.Submit(hold).status();
  EXPECT_EQ(st.code(), absl::StatusCode::kFailedPrecondition) << st;
  EXPECT_NE(st.message().find("gob is Dead"), std::string::npos) << st;
  EXPECT_EQ(t.state().active, "aria");
  HoldUntilAfter(t, "aria", "orc");
  EXPECT_EQ(t.state().active, "orc");
}

// 000 l.13: "(If something has a Duration of 1 Round it will end after all
// other Creatures have gotten a Turn, not the end of the Initiative count)".
// The GM makes the orc Shaken for 1 Round during aria's turn (order aria,
// gob, orc): it ends when round 2 reaches aria again, after gob and the orc
// have had their turns, not at the orc's own turn in round 2.
TEST(Turns, AGmConditionForOneRoundEndsAfterEveryOtherCreaturesTurn) {
  Table t = ThreeApart();
  ASSERT_EQ(t.state().active, "aria");
  HornShakesTheOrc(t, 1);
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  EXPECT_TRUE(Has(t, "orc", kShaken));  // the orc's own turn is yet to come
  ASSERT_OK(t.Submit(Cmd("orc", "end_turn")));
  EXPECT_EQ(t.state().round, 2);
  EXPECT_EQ(t.state().active, "aria");
  EXPECT_FALSE(Has(t, "orc", kShaken));  // every other creature has had a turn
}

// 000 l.13 "(If something has a Duration of 1 Round it will end after all
// other Creatures have gotten a Turn, not the end of the Initiative count)"
// with l.132 "If you are already below 0 HP you die": the applier that dies
// at the start of its own next turn (the Bleed Table rolled first, l.127)
// takes no Turn, yet every other creature has had one: the Round is over
// there, not never (was: the duration anchored at that turn start lasted
// for good, the creature dying before it was counted).
TEST(Turns, ARoundsDurationEndsWhereItsApplierDiesOfBleeding) {
  Table t = ThreeApart();
  ASSERT_EQ(t.state().active, "aria");
  HornShakesTheOrc(t, 1);
  fb::CommandT cut = Gm("aria", "gm_adjust", "a deep wound");
  WithText(cut, "resource", "hp");
  With(cut, "delta", -21);  // 20 - 21 = -1 HP; Damage: Bleed Penalty 1
  ASSERT_OK(t.Submit(cut));
  ASSERT_TRUE(Has(t, "aria", kBleeding));
  ASSERT_EQ(Res(t, "aria", kBleedPenalty), 1);
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  EXPECT_TRUE(Has(t, "orc", kShaken));
  // Round 2: aria's Bleed Table d20 1 - 1 = 0: Death, below 0 HP (l.132).
  ASSERT_OK(t.Submit(Cmd("orc", "end_turn"), {1}));
  EXPECT_EQ(t.state().round, 2);
  EXPECT_TRUE(Has(t, "aria", kDead));
  EXPECT_EQ(t.state().active, "gob");
  EXPECT_FALSE(Has(t, "orc", kShaken));  // gob and the orc had their turns
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  EXPECT_EQ(t.state().active, "orc");
  EXPECT_FALSE(Has(t, "orc", kShaken));  // one step later: still over
}

// The same at a delaying applier's original place (l.15 "continue to suffer
// any ongoing Effects (such as Bleed Damage ...) each Round at their
// original Initiative"): it dies there of its Bleeding and the Round it
// anchored ends there.
TEST(Turns, ARoundsDurationEndsWhereADelayingApplierDiesOfBleeding) {
  Table t = ThreeApart();
  HornShakesTheOrc(t, 2);  // ends at aria's place in round 3
  fb::CommandT cut = Gm("aria", "gm_adjust", "a deep wound");
  WithText(cut, "resource", "hp");
  With(cut, "delta", -21);  // -1 HP, Bleed Penalty 1
  ASSERT_OK(t.Submit(cut));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  // Round 2, aria: Bleed Table 14 - 1 = 13 (no effect), 2d6 = 1 + 1: -3 HP,
  // Bleed Penalty 2.
  ASSERT_OK(t.Submit(Cmd("orc", "end_turn"), {14, 1, 1}));
  ASSERT_EQ(t.state().active, "aria");
  ASSERT_EQ(Res(t, "aria", kHp), -3);
  ASSERT_EQ(Res(t, "aria", kBleedPenalty), 2);
  ASSERT_OK(t.Submit(Cmd("aria", "delay")));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  EXPECT_TRUE(Has(t, "orc", kShaken));
  // Round 3, aria's original place: Bleed Table 1 - 2 = -1: Death (l.132).
  ASSERT_OK(t.Submit(Cmd("orc", "end_turn"), {1}));
  EXPECT_EQ(t.state().round, 3);
  EXPECT_TRUE(Has(t, "aria", kDead));
  EXPECT_EQ(t.state().active, "gob");
  EXPECT_FALSE(Has(t, "orc", kShaken));
}

// 000 l.13 "it will end after all other Creatures have gotten a Turn" with
// l.15 "they may decide to delay their Turn": an applier killed while it
// delays has no Turn at its original place any more, and the Round it
// anchored there still ends as the order passes that place (was: a dead
// creature's anchors ended only at a place not delayed: never).
TEST(Turns, ARoundsDurationEndsAtTheOldPlaceOfAnApplierKilledWhileDelaying) {
  Table t = ThreeApart();
  HornShakesTheOrc(t, 2);  // ends at aria's place in round 3
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("orc", "end_turn")));
  ASSERT_EQ(t.state().active, "aria");
  ASSERT_OK(t.Submit(Cmd("aria", "delay")));
  GmAdd(t, "aria", "dead");
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  EXPECT_TRUE(Has(t, "orc", kShaken));
  ASSERT_OK(t.Submit(Cmd("orc", "end_turn")));
  EXPECT_EQ(t.state().round, 3);
  EXPECT_EQ(t.state().active, "gob");
  EXPECT_FALSE(Has(t, "orc", kShaken));  // gob and the orc had their turns
}

// 000 l.13: "(If something has a Duration of 1 Round it will end after all
// other Creatures have gotten a Turn, not the end of the Initiative count)"
// and "At any point a Creature can decide to hold its Turn and drop its point
// in the Initiative count to a lower position". aria (first) grapples gob
// critically (l.59: "Slowed for one Round"), then holds until after gob:
// gob (r1) and orc (r1) have had their turns when round 2 starts, so the
// Slowed ends there, before gob's round-2 turn (which the hold put ahead of
// aria's). A critical Feint's "until your next Turn" (l.53) still follows
// aria to her new place.
TEST(Turns, ARoundsDurationStaysAtTheHoldersOldPlace) {
  Table t(
      D20ThreeAction(),
      MakeRoster({Being("aria", "party", 0, 0), Being("gob", "goblins", 1, 0),
                  Being("orc", "goblins", 9, 9)}),
      {15, 10, 5});
  ASSERT_OK(t.Submit(Cmd("aria", "grapple", {"gob"}), {18, 2}));  // 22 vs 6
  ASSERT_TRUE(Has(t, "gob", kSlowed));
  ASSERT_OK(t.Submit(Cmd("aria", "feint", {"gob"}), {9, 16}));  // adv: 20 vs 10
  const Condition* ff = t.state().Find("gob")->FindCondition(kFlatFooted);
  ASSERT_NE(ff, nullptr);
  EXPECT_EQ(ff->relative_to, "");  // critical: against everyone
  HoldUntilAfter(t, "aria", "gob");
  EXPECT_EQ(t.state().active, "gob");
  EXPECT_EQ(Res(t, "gob", kActions), 2);  // Slowed in round 1 (l.162)
  EXPECT_EQ(Res(t, "gob", kReactions), 0);
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("orc", "end_turn")));
  EXPECT_EQ(t.state().round, 2);
  EXPECT_EQ(t.state().active, "gob");
  EXPECT_FALSE(Has(t, "gob", kSlowed));  // one Round is over
  EXPECT_EQ(Res(t, "gob", kActions), 3);
  EXPECT_EQ(Res(t, "gob", kReactions), 1);
  EXPECT_TRUE(Has(t, "gob", kFlatFooted));  // until aria's next turn
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  EXPECT_EQ(t.state().active, "aria");
  EXPECT_FALSE(Has(t, "gob", kFlatFooted));
}

// 000 l.13 "If a Creature decides to hold its Turn ... (If something has a
// Duration of 1 Round it will end after all other Creatures have gotten a
// Turn, not the end of the Initiative count)" with l.156 (On fire: 2d6 at
// the beginning of the Turn): the GM sets the orc On fire for 1 Round in
// gob's Turn (aria, gob, orc), and gob holds until after the orc. The other
// creatures' Turns before gob's old place are the orc's of round 1 and
// aria's of round 2: the Round ends as aria's round-2 Turn ends, before the
// orc's round-2 turn start. The orc burns once: 20 - (1 + 1) = 18 HP (was:
// the Round moved to the orc's round-2 turn start, ending after its fire
// there, 20 - 2 - 2 = 16 HP).
TEST(Turns, AHeldRoundsDurationEndsBeforeTheNextCreaturesTurnStart) {
  Table t = ThreeApart();
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_EQ(t.state().active, "gob");
  HornShakes(t, "orc", 1, kOnFire);
  HoldUntilAfter(t, "gob", "orc", {1, 1});
  ASSERT_EQ(t.state().active, "orc");
  EXPECT_EQ(Res(t, "orc", kHp), 18);  // round 1: 2d6 = 1 + 1
  ASSERT_OK(t.Submit(Cmd("orc", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));  // the held Turn resumed
  ASSERT_EQ(t.state().round, 2);
  ASSERT_EQ(t.state().active, "aria");
  EXPECT_TRUE(Has(t, "orc", kOnFire));  // aria's round-2 Turn is yet to come
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));  // no fire die rolled
  ASSERT_EQ(t.state().active, "orc");
  EXPECT_FALSE(Has(t, "orc", kOnFire));
  EXPECT_EQ(Res(t, "orc", kHp), 18);  // no second burn
  ASSERT_OK(t.Submit(Cmd("orc", "end_turn")));
  EXPECT_EQ(t.state().active, "gob");  // one step later: still over
  EXPECT_EQ(Res(t, "orc", kHp), 18);
}

// 000 l.13 with l.15 (a delaying creature "continue[s] to suffer any
// ongoing Effects ... each Round at their original Initiative") and l.156:
// aria delays in round 1 (aria, gob, orc); in gob's Turn the GM sets the orc
// On fire for 1 Round and gob holds until after the orc. The last creature
// ahead of gob's old place is aria, delaying: her original place counts as
// her place, so the Round ends as it passes in round 2, before the orc's
// round-2 turn start. The orc burns once: 20 - (1 + 1) = 18 HP (was: at the
// orc's round-2 turn start, after its fire there, a GM ruling point).
TEST(Turns, AHeldRoundsDurationEndsAsTheDelayingLastOneAheadsPlacePasses) {
  Table t = ThreeApart();
  ASSERT_OK(t.Submit(Cmd("aria", "delay")));
  ASSERT_EQ(t.state().active, "gob");
  HornShakes(t, "orc", 1, kOnFire);
  HoldUntilAfter(t, "gob", "orc", {1, 1});
  ASSERT_EQ(t.state().active, "orc");
  EXPECT_EQ(Res(t, "orc", kHp), 18);  // round 1: 2d6 = 1 + 1
  ASSERT_OK(t.Submit(Cmd("orc", "end_turn")));
  EXPECT_TRUE(Has(t, "orc", kOnFire));  // aria's round-2 place is yet to come
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));  // no fire die rolled
  ASSERT_EQ(t.state().round, 2);
  ASSERT_EQ(t.state().active, "orc");
  EXPECT_FALSE(Has(t, "orc", kOnFire));
  EXPECT_EQ(Res(t, "orc", kHp), 18);  // no second burn
}

// The same through a GM's `gm_order` (l.13, l.15): aria delays, the GM sets
// the orc On fire for 1 Round in gob's Turn and puts gob after the orc
// (aria delaying, orc, gob): 18 HP (was: 16, at the orc's round-2 turn
// start after its fire).
TEST(Turns, AGmReorderEndsARoundAsTheDelayingLastOneAheadsPlacePasses) {
  Table t = ThreeApart();
  ASSERT_OK(t.Submit(Cmd("aria", "delay")));
  HornShakes(t, "orc", 1, kOnFire);
  fb::CommandT order = Gm("", "gm_order", "gob hangs back");
  order.targets = {"aria", "orc", "gob"};
  ASSERT_OK(t.Submit(order));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn"), {1, 1}));
  ASSERT_EQ(t.state().active, "orc");
  EXPECT_EQ(Res(t, "orc", kHp), 18);
  EXPECT_TRUE(Has(t, "orc", kOnFire));  // aria's round-2 place is yet to come
  ASSERT_OK(t.Submit(Cmd("orc", "end_turn")));  // no fire die rolled
  ASSERT_EQ(t.state().round, 2);
  ASSERT_EQ(t.state().active, "orc");
  EXPECT_FALSE(Has(t, "orc", kOnFire));
  EXPECT_EQ(Res(t, "orc", kHp), 18);  // no second burn
}

// 000 l.13 "At any point a Creature can decide to hold its Turn and drop
// its point in the Initiative count to a lower position" with l.156: as in
// the test above, the orc's On fire of 1 Round is kept at gob's old place
// (aria, gob, orc; gob held after the orc), to end as aria's round-2 Turn
// ends. In round 2 aria holds until after the orc: the count passes gob's
// old place at her hold, so the Round ends there, before the orc's round-2
// turn start, as a Round left at gob's own place would end at gob's turn
// start. The orc burns once: 18 HP (was: after aria's resumed Turn, the orc
// burning again at its round-2 turn start, 20 - 2 - 2 = 16).
TEST(Turns, AHeldRoundsDurationEndsWhenTheLastOneAheadHoldsPastItsPlace) {
  Table t = ThreeApart();
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  HornShakes(t, "orc", 1, kOnFire);
  HoldUntilAfter(t, "gob", "orc", {1, 1});
  EXPECT_EQ(Res(t, "orc", kHp), 18);  // round 1: 2d6 = 1 + 1
  ASSERT_OK(t.Submit(Cmd("orc", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_EQ(t.state().round, 2);
  ASSERT_EQ(t.state().active, "aria");
  EXPECT_TRUE(Has(t, "orc", kOnFire));
  HoldUntilAfter(t, "aria", "orc");  // no fire die rolled
  ASSERT_EQ(t.state().active, "orc");
  EXPECT_FALSE(Has(t, "orc", kOnFire));
  EXPECT_EQ(Res(t, "orc", kHp), 18);  // no second burn
  ASSERT_OK(t.Submit(Cmd("orc", "end_turn")));
  ASSERT_EQ(t.state().active, "aria");  // her held Turn resumes
  EXPECT_EQ(Res(t, "orc", kHp), 18);
}

// The same when the GM's `gm_order` gives the Round the running Turn's end
// (000 l.13 "hold its Turn and drop its point in the Initiative count to a
// lower position"; "it will end after all other Creatures have gotten a
// Turn"). aria, gob, orc, wolf (d20s 20, 15, 10, 5). In the orc's round-1
// Turn the GM sets the wolf On fire for 1 Round: it ends at the orc's
// round-2 turn start. The wolf burns at its round-1 turn start: 20 - (1 + 1)
// = 18 HP. In gob's round-2 Turn the GM puts the orc last (aria, gob, wolf,
// orc): the Turns before the orc's old place are aria's and gob's of round
// 2 and the wolf's of round 1, so the Round ends as gob's running Turn
// ends. gob then holds until after the wolf: the count passes the orc's old
// place at the hold, so the Round ends there, before the wolf's round-2
// turn start, as it does for a Round kept there before gob's Turn began.
// The wolf burns once: 18 HP (was: the Round followed gob's resumed Turn,
// the wolf burning again at its round-2 turn start, 18 - (1 + 1) = 16).
TEST(Turns, AReorderedRoundOnTheRunningTurnEndsWhenItHoldsPastThePlace) {
  Table t = FourApart();
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_EQ(t.state().active, "orc");
  HornShakes(t, "wolf", 1, kOnFire);
  ASSERT_OK(t.Submit(Cmd("orc", "end_turn"), {1, 1}));
  ASSERT_EQ(t.state().active, "wolf");
  EXPECT_EQ(Res(t, "wolf", kHp), 18);
  ASSERT_OK(t.Submit(Cmd("wolf", "end_turn")));
  ASSERT_EQ(t.state().round, 2);
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_EQ(t.state().active, "gob");
  fb::CommandT order = Gm("", "gm_order", "the orc hangs back");
  order.targets = {"aria", "gob", "wolf", "orc"};
  ASSERT_OK(t.Submit(order));
  EXPECT_TRUE(Has(t, "wolf", kOnFire));  // to the end of gob's Turn
  HoldUntilAfter(t, "gob", "wolf");  // no fire die rolled
  ASSERT_EQ(t.state().active, "wolf");
  EXPECT_FALSE(Has(t, "wolf", kOnFire));
  EXPECT_EQ(Res(t, "wolf", kHp), 18);
}

// What a Turn lays "for the rest of your Turn" follows the held Turn
// (l.53, l.13): aria's Feint on gob (a success, not critical) still makes
// gob Flat Footed against her when her held Turn resumes.
TEST(Turns, TheRestOfAHeldTurnStillFollowsItsCreature) {
  Table t(
      D20ThreeAction(),
      MakeRoster({Being("aria", "party", 0, 0), Being("gob", "goblins", 1, 0),
                  Being("orc", "goblins", 9, 9)}),
      {15, 10, 5});
  ASSERT_OK(t.Submit(Cmd("aria", "feint", {"gob"}), {10}));  // 10+1+3 = 14 vs 10
  ASSERT_NE(t.state().Find("gob")->FindRelative(kFlatFooted, "aria"), nullptr);
  HoldUntilAfter(t, "aria", "gob");
  ASSERT_EQ(t.state().active, "gob");
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_EQ(t.state().active, "aria");
  EXPECT_NE(t.state().Find("gob")->FindRelative(kFlatFooted, "aria"), nullptr);
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  EXPECT_EQ(t.state().Find("gob")->FindRelative(kFlatFooted, "aria"), nullptr);
}

// The same with aria killed before her round-2 Turn (l.13, l.140: the Dead
// get no Turn): every other creature has had its Turn when her place
// passes; the orc does not burn again (was: 16 HP, at the orc's turn start).
TEST(Turns, AHeldRoundsDurationEndsWhereTheDeadLastOneAheadHadItsPlace) {
  Table t = ThreeApart();
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  HornShakes(t, "orc", 1, kOnFire);
  HoldUntilAfter(t, "gob", "orc", {1, 1});
  ASSERT_EQ(t.state().active, "orc");
  RockKills(t, "aria");
  ASSERT_OK(t.Submit(Cmd("orc", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));  // no fire die rolled
  ASSERT_EQ(t.state().round, 2);
  ASSERT_EQ(t.state().active, "orc");
  EXPECT_FALSE(Has(t, "orc", kOnFire));
  EXPECT_EQ(Res(t, "orc", kHp), 18);
}

// l.13 with a first creature that holds to the middle of the order (aria,
// gob, orc, wolf; aria holds until after gob): the Turns the others had
// before her round-2 place are gob's, the orc's and the wolf's of round 1,
// so gob's On fire of 1 Round (laid in aria's Turn) ends with round 1,
// before gob's round-2 turn start: 20 - (1 + 1) = 18 HP (was: after gob's
// round-2 fire, 16).
TEST(Turns, ARoundsDurationOfAFirstHolderMovedToTheMiddleEndsWithTheRound) {
  Table t = FourApart();
  ASSERT_EQ(t.state().active, "aria");
  HornShakes(t, "gob", 1, kOnFire);
  HoldUntilAfter(t, "aria", "gob", {1, 1});
  ASSERT_EQ(t.state().active, "gob");
  EXPECT_EQ(Res(t, "gob", kHp), 18);
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("orc", "end_turn")));
  EXPECT_TRUE(Has(t, "gob", kOnFire));  // the wolf's Turn is yet to come
  ASSERT_OK(t.Submit(Cmd("wolf", "end_turn")));  // no fire die rolled
  ASSERT_EQ(t.state().round, 2);
  ASSERT_EQ(t.state().active, "gob");
  EXPECT_FALSE(Has(t, "gob", kOnFire));
  EXPECT_EQ(Res(t, "gob", kHp), 18);
}

// The same through a GM's `gm_order` (l.13): in gob's Turn the GM sets the
// orc On fire for 1 Round and puts gob after the orc (aria, orc, gob). The
// Round ends as aria's round-2 Turn ends, before the orc's round-2 turn
// start: 18 HP (was: at the orc's round-2 turn start, after its fire, 16).
TEST(Turns, AGmReorderEndsARoundBeforeTheNextCreaturesTurnStart) {
  Table t = ThreeApart();
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  HornShakes(t, "orc", 1, kOnFire);
  fb::CommandT order = Gm("", "gm_order", "gob hangs back");
  order.targets = {"aria", "orc", "gob"};
  ASSERT_OK(t.Submit(order));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn"), {1, 1}));
  ASSERT_EQ(t.state().active, "orc");
  EXPECT_EQ(Res(t, "orc", kHp), 18);
  ASSERT_OK(t.Submit(Cmd("orc", "end_turn")));
  ASSERT_EQ(t.state().round, 2);
  ASSERT_EQ(t.state().active, "aria");
  EXPECT_TRUE(Has(t, "orc", kOnFire));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));  // no fire die rolled
  ASSERT_EQ(t.state().active, "orc");
  EXPECT_FALSE(Has(t, "orc", kOnFire));
  EXPECT_EQ(Res(t, "orc", kHp), 18);
}

// 000 l.13 with l.15 "When a Creature delaying their Turn wishes to act they
// may enter the Initiative again after the current Turn": a 2-Round effect
// aria applied in round 1 ends at her old place, the start of round 3, which
// comes after every other creature's turn of round 2 (l.13 "it will end
// after all other Creatures have gotten a Turn, not the end of the
// Initiative count"): she entered after orc, the last, so it ends as her
// entered turn of round 2 comes (was: after it, at gob's round-3 start).
TEST(Turns, ARoundsDurationStaysAtTheOldPlaceOfACreatureThatEnters) {
  Table t(
      D20ThreeAction(),
      MakeRoster({Being("aria", "party", 0, 0), Being("gob", "goblins", 1, 0),
                  Being("orc", "goblins", 9, 9)}),
      {15, 10, 5});
  fb::CommandT cast = Cmd("aria", "cast", {"gob"});
  WithText(cast, "spell", "snare");
  WithText(cast, "condition", "entangled");
  With(cast, "condition_rounds", 2);
  With(cast, "rounds", 5);
  ASSERT_OK(t.Submit(cast));
  ASSERT_TRUE(Has(t, "gob", kEntangled));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("orc", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("aria", "delay")));  // round 2
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("aria", "enter")));  // after orc's turn
  EXPECT_TRUE(Has(t, "gob", kEntangled));     // orc's round 2 to come
  auto ev = t.Submit(Cmd("orc", "end_turn"));
  ASSERT_OK(ev);
  EXPECT_EQ(t.state().active, "aria");
  EXPECT_FALSE(Has(t, "gob", kEntangled));  // gob and orc: two Turns each
  EXPECT_TRUE(Cites(*ev, "000.duration.round"));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  EXPECT_EQ(t.state().round, 3);
  EXPECT_EQ(t.state().active, "gob");
}

// seed 000 l.13: "(If something has a Duration of 1 Round it will end after
// all other Creatures have gotten a Turn, not the end of the Initiative
// count)". The GM makes the orc Shaken for 1 Round in aria's turn (order
// aria 17, gob 12, orc 7): gob and the orc are to have their round-1 Turns.
// In gob's turn the GM reorders (`gm_order`): gob, orc, aria. Round 1 goes
// on gob, then the orc (aria is done); after the orc's round-1 Turn every
// other creature has had its Turn, so the Shaken ends as round 2 starts,
// at gob's turn start, not at aria's (now last) after the orc's round-2
// Turn (was: it moved with aria, the orc Shaken through a second Turn).
TEST(Turns, AGmReorderKeepsARoundsDurationAtItsOldPlace) {
  Table t = ThreeApart();
  HornShakesTheOrc(t, 1);
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_EQ(t.state().active, "gob");
  fb::CommandT order = Gm("", "gm_order", "the ambushers fall back");
  order.targets = {"gob", "orc", "aria"};
  ASSERT_OK(t.Submit(order));
  ASSERT_EQ(t.state().order[2].actor, "aria");
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_EQ(t.state().active, "orc");
  EXPECT_TRUE(Has(t, "orc", kShaken));  // its round-1 Turn: still Shaken
  ASSERT_OK(t.Submit(Cmd("orc", "end_turn")));
  EXPECT_EQ(t.state().round, 2);
  EXPECT_EQ(t.state().active, "gob");
  EXPECT_FALSE(Has(t, "orc", kShaken));  // gob and the orc had their Turns
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  EXPECT_EQ(t.state().active, "orc");
  EXPECT_FALSE(Has(t, "orc", kShaken));  // one step later: still over
}

// The same moving the other way (l.13): the GM puts the orc first while
// gob acts (orc, gob, aria). The orc's round-1 Turn still comes (after
// gob's), and after it every other creature has had its Turn: the Shaken
// ends at the orc's own round-2 turn start, not at aria's, after the orc's
// and gob's round-2 Turns (was: it moved with aria).
TEST(Turns, AGmReorderThatPutsTheBearerFirstEndsTheRoundAtItsTurn) {
  Table t = ThreeApart();
  HornShakesTheOrc(t, 1);
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  fb::CommandT order = Gm("", "gm_order", "the orc rushes ahead");
  order.targets = {"orc", "gob", "aria"};
  ASSERT_OK(t.Submit(order));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_EQ(t.state().active, "orc");  // its round-1 Turn
  EXPECT_TRUE(Has(t, "orc", kShaken));
  ASSERT_OK(t.Submit(Cmd("orc", "end_turn")));
  EXPECT_EQ(t.state().round, 2);
  EXPECT_EQ(t.state().active, "orc");
  EXPECT_FALSE(Has(t, "orc", kShaken));
}

// Two Rounds (l.13) through the same reorder: gob's and the orc's Turns of
// rounds 1 and 2 are those the old order gave them before aria's round-3
// place; in the new order (gob, orc, aria) the orc's round-2 Turn is the
// last of them, so the Shaken ends at aria's round-2 turn start (was:
// aria's round-3 one, the orc Shaken through a third Turn).
TEST(Turns, AGmReorderKeepsATwoRoundDurationAtItsOldPlace) {
  Table t = ThreeApart();
  HornShakesTheOrc(t, 2);
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  fb::CommandT order = Gm("", "gm_order", "the ambushers fall back");
  order.targets = {"gob", "orc", "aria"};
  ASSERT_OK(t.Submit(order));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("orc", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_EQ(t.state().round, 2);
  ASSERT_EQ(t.state().active, "orc");
  EXPECT_TRUE(Has(t, "orc", kShaken));  // its round-2 Turn: still Shaken
  ASSERT_OK(t.Submit(Cmd("orc", "end_turn")));
  EXPECT_EQ(t.state().active, "aria");
  EXPECT_FALSE(Has(t, "orc", kShaken));
}

// seed 000 l.13 "(If something has a Duration of 1 Round it will end after
// all other Creatures have gotten a Turn, not the end of the Initiative
// count)" with l.156 "takes 2d6 of Fire Damage every Round at the beginning
// of their Turn": in aria's turn the GM sets gob On fire for 1 Round (order
// aria, gob, orc); gob burns at its round-1 start (1 + 2 = 3: 20 - 3 = 17
// HP). In gob's turn the GM reorders: gob, orc, aria. After the orc's
// round-1 Turn every other creature has had its Turn: the fire ends with
// round 1, before gob's round-2 turn start, as in the old order it ended at
// aria's round-2 start before gob's; gob keeps 17 HP (was: it ended at gob's
// round-2 turn start after its fire, a second 2d6), as a Round kept at a
// held creature's place ends when it was last (KeepRoundAnchors).
TEST(Turns, AGmReorderEndsARoundWithTheRoundWhenNothingFollowsTheLastTurn) {
  Table t = ThreeApart();
  HornShakes(t, "gob", 1, "on_fire");
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn"), {1, 2}));
  ASSERT_EQ(t.state().active, "gob");
  ASSERT_EQ(Res(t, "gob", kHp), 17);
  fb::CommandT order = Gm("", "gm_order", "the ambushers fall back");
  order.targets = {"gob", "orc", "aria"};
  ASSERT_OK(t.Submit(order));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_EQ(t.state().active, "orc");
  EXPECT_TRUE(Has(t, "gob", "on_fire"));  // the orc's round-1 Turn
  ASSERT_OK(t.Submit(Cmd("orc", "end_turn")));  // no die: no fire roll
  EXPECT_EQ(t.state().round, 2);
  EXPECT_EQ(t.state().active, "gob");
  EXPECT_FALSE(Has(t, "gob", "on_fire"));
  EXPECT_EQ(Res(t, "gob", kHp), 17);  // no second 2d6
}

// A `gm_order` that changes no place (an initiative number only) keeps
// every Round where it was (l.13).
TEST(Turns, AGmOrderThatMovesNoOneKeepsTheRounds) {
  Table t = ThreeApart();
  HornShakesTheOrc(t, 1);
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  const uint32_t shaken = t.state().Find("orc")->FindCondition(kShaken)->id;
  fb::CommandT order = Gm("", "gm_order", "a slip of the pen");
  order.targets = {"aria", "gob", "orc"};
  With(order, "gob", 13);
  ASSERT_OK(t.Submit(order));
  ASSERT_EQ(t.state().Find("orc")->FindCondition(kShaken)->id, shaken);
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("orc", "end_turn")));
  EXPECT_EQ(t.state().active, "aria");
  EXPECT_FALSE(Has(t, "orc", kShaken));
}

// 000 l.13 "At any point a Creature can decide to hold its Turn and drop its
// point in the Initiative count to a lower position ... (If something has a
// Duration of 1 Round it will end after all other Creatures have gotten a
// Turn, not the end of the Initiative count)": aria (first) makes the orc
// Shaken for 1 Round, then holds until after the orc (the last). gob's and
// the orc's turns follow: every other creature has had its Turn, so the
// Shaken is over when aria resumes (was: it lasted through her resumed turn,
// to gob's round-2 start), and her Turn goes on (Actions kept, no new
// start-of-turn effects).
TEST(Turns, ARoundsDurationEndsBeforeAHolderThatWasFirstResumesLast) {
  Table t = ThreeApart();
  HornShakesTheOrc(t, 1);
  ASSERT_TRUE(Has(t, "orc", kShaken));
  HoldUntilAfter(t, "aria", "orc");
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  EXPECT_EQ(t.state().active, "orc");
  EXPECT_TRUE(Has(t, "orc", kShaken));  // the orc's own Turn is to come
  auto ev = t.Submit(Cmd("orc", "end_turn"));
  ASSERT_OK(ev);
  EXPECT_EQ(t.state().round, 1);
  EXPECT_EQ(t.state().active, "aria");
  EXPECT_FALSE(Has(t, "orc", kShaken));
  EXPECT_TRUE(Cites(*ev, "000.duration.round"));
  EXPECT_EQ(Res(t, "aria", kActions), 3);  // the held turn goes on
}

// 000 l.13 "(If something has a Duration of 1 Round it will end after all
// other Creatures have gotten a Turn, not the end of the Initiative count)":
// a Flat Footed the GM lays for 1 Round in aria's turn is a Round's
// duration, not a critical Feint's "until your next Turn" (l.53): aria
// (first) holds until after gob; gob (r1) and orc (r1) have had their turns
// when round 2 starts, so it ends before gob's round-2 turn (was: it
// followed aria to her new place, lasting through gob's round-2 turn).
TEST(Turns, ATimedFlatFootedStaysAtTheHoldersOldPlace) {
  Table t = ThreeApart();
  HornShakes(t, "orc", 1, kFlatFooted);
  HoldUntilAfter(t, "aria", "gob");
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  EXPECT_TRUE(Has(t, "orc", kFlatFooted));  // the orc's Turn is to come
  ASSERT_OK(t.Submit(Cmd("orc", "end_turn")));
  EXPECT_EQ(t.state().round, 2);
  EXPECT_EQ(t.state().active, "gob");
  EXPECT_FALSE(Has(t, "orc", kFlatFooted));  // one Round is over
}

// 000 l.146 "Additional instances of Shaken add to the Duration" with l.13:
// the orc's Shaken of 1 Round (aria's turn) stays at aria's old place when
// she holds until after gob, and would end with round 1, gob now first; a
// second Shaken of 1 Round in gob's turn adds its Round: it ends with round
// 2, one Round later.
TEST(Turns, AShakenAddedToOneKeptAtAHoldersOldPlaceEndsARoundLater) {
  Table t = ThreeApart();
  HornShakesTheOrc(t, 1);
  HoldUntilAfter(t, "aria", "gob");
  ASSERT_EQ(t.state().active, "gob");
  HornShakesTheOrc(t, 1);
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("orc", "end_turn")));
  ASSERT_EQ(t.state().round, 2);
  ASSERT_EQ(t.state().active, "gob");
  EXPECT_TRUE(Has(t, "orc", kShaken));  // the added Round runs
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  EXPECT_TRUE(Has(t, "orc", kShaken));
  ASSERT_OK(t.Submit(Cmd("orc", "end_turn")));
  ASSERT_EQ(t.state().round, 3);
  EXPECT_FALSE(Has(t, "orc", kShaken));  // two Rounds are over
}

// 000 l.13 "(If something has a Duration of 1 Round it will end after all
// other Creatures have gotten a Turn, not the end of the Initiative count)"
// with l.140 (a creature with a negative HP equal to its max HP is Dead: it
// gets no Turn): aria (first) holds until after gob; the orc, last, is dead.
// When aria resumes, gob, the only other creature with a Turn, has had it:
// gob's Shaken of 1 Round ends there (was: the dead orc at the order's end
// kept the first-to-last rule from applying, and it lasted through aria's
// held Actions to gob's round-2 turn).
TEST(Turns, ARoundsDurationEndsBeforeAFirstHolderResumesAheadOfTheDead) {
  Table t = ThreeApart();
  ASSERT_NO_FATAL_FAILURE(RockKills(t, "orc"));
  HornShakes(t, "gob", 1);
  HoldUntilAfter(t, "aria", "gob");
  EXPECT_TRUE(Has(t, "gob", kShaken));  // gob's Turn is to come
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  EXPECT_EQ(t.state().round, 1);
  EXPECT_EQ(t.state().active, "aria");
  EXPECT_FALSE(Has(t, "gob", kShaken));  // one Round is over
}

// The same with the dead creature first: its place (no Turn) and aria's,
// right after it, both open the round; aria holds until after the orc, the
// last, and the Shaken ends as she resumes (was: at gob's round-2 turn).
TEST(Turns, ARoundsDurationEndsBeforeAHolderBehindTheDeadResumesLast) {
  Table t = ThreeApart();
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("orc", "end_turn")));
  ASSERT_EQ(t.state().active, "aria");
  ASSERT_NO_FATAL_FAILURE(RockKills(t, "aria"));
  ASSERT_EQ(t.state().active, "gob");
  HornShakesTheOrc(t, 1);
  HoldUntilAfter(t, "gob", "orc");
  EXPECT_TRUE(Has(t, "orc", kShaken));  // the orc's Turn is to come
  ASSERT_OK(t.Submit(Cmd("orc", "end_turn")));
  EXPECT_EQ(t.state().round, 2);
  EXPECT_EQ(t.state().active, "gob");
  EXPECT_FALSE(Has(t, "orc", kShaken));  // one Round is over
}

// 000 l.13 "(If something has a Duration of 1 Round it will end after all
// other Creatures have gotten a Turn, not the end of the Initiative count)"
// with l.15 "When a Creature delaying their Turn wishes to act they may
// enter the Initiative again after the current Turn": unlike the Dead
// (l.140), a creature delaying at the end of the order may still take a
// Turn this Round, so it still counts for the first-to-last rule. The orc
// delays in round 1; in round 2 aria (first) lays a Shaken of 1 Round on
// gob and holds until after gob. When she resumes, the orc has not had its
// Turn: the Shaken runs on; the orc enters after her and acts; it ends at
// gob's round-3 turn start, every other creature having had its Turn.
TEST(Turns, ARoundsDurationWaitsForACreatureDelayingAtTheEndOfTheOrder) {
  Table t = ThreeApart();
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("orc", "delay")));
  ASSERT_EQ(t.state().round, 2);
  ASSERT_EQ(t.state().active, "aria");
  HornShakes(t, "gob", 1);
  HoldUntilAfter(t, "aria", "gob");
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_EQ(t.state().round, 2);
  ASSERT_EQ(t.state().active, "aria");
  EXPECT_TRUE(Has(t, "gob", kShaken));  // the delaying orc may still act
  ASSERT_OK(t.Submit(Cmd("orc", "enter")));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_EQ(t.state().round, 2);
  ASSERT_EQ(t.state().active, "orc");  // its Turn of round 2
  EXPECT_TRUE(Has(t, "gob", kShaken));
  ASSERT_OK(t.Submit(Cmd("orc", "end_turn")));
  ASSERT_EQ(t.state().round, 3);
  ASSERT_EQ(t.state().active, "gob");
  EXPECT_FALSE(Has(t, "gob", kShaken));  // one Round is over
}

// Condition names are a closed list: the text's spelling (L144 "Prone",
// L160 "Flat Footed") in any case is one canonical condition; an unknown
// name is refused with the list and nothing is written.
TEST(Conditions, GmConditionNamesAreAClosedList) {
  Table t(D20ThreeAction(),
          MakeRoster({Being("aria", "party", 0, 0),
                      Being("gob", "goblins", 3, 0)}),
          {15, 10});
  auto gm = [](const std::string& name, const std::string& op) {
    fb::CommandT g = kernel::testing::GmCmd("gm_condition", "gob");
    kernel::testing::WithText(g, "name", name);
    kernel::testing::WithText(g, "op", op);
    return g;
  };
  ASSERT_OK(t.Submit(gm("Prone", "add")));
  EXPECT_TRUE(Has(t, "gob", kProne));
  ASSERT_OK(t.Submit(gm("Flat Footed", "add")));
  EXPECT_TRUE(Has(t, "gob", kFlatFooted));
  ASSERT_OK(t.Submit(gm("PRONE", "remove")));
  EXPECT_FALSE(Has(t, "gob", kProne));
  const size_t before = t.state().Find("gob")->conditions.size();
  auto out = t.Submit(gm("sleepy", "add"));
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(out.status().message().find("param 'name'"), std::string::npos);
  EXPECT_NE(out.status().message().find("unknown condition 'sleepy'"),
            std::string::npos);
  EXPECT_NE(out.status().message().find("flat_footed"), std::string::npos);
  EXPECT_EQ(t.state().Find("gob")->conditions.size(), before);
}

// A condition the GM adds has the consequences the text gives it:
// 000 l.168 "Unconscious - ... They fall Prone"; l.148 "If you fall Prone
// the Creature Grappling you falls with you"; l.152 "A Creature with 0 or
// less HP that is not Dead is Incapacitated" (the Dead no longer are, nor
// bleed); a creature dead on its own turn has its turn ended.
TEST(Conditions, GmConditionsHaveTheTextsConsequences) {
  fb::CombatantSpecT a = Being("aria", "party", 0, 0);
  Arm(a, "fist", "1d4", "natural");
  Table t(D20ThreeAction(),
          MakeRoster({std::move(a), Being("gob", "goblins", 1, 0),
                      Being("orc", "goblins", 5, 0)}),
          {15, 10, 5});
  auto gm = [](const std::string& who, const std::string& name) {
    fb::CommandT g = kernel::testing::GmCmd("gm_condition", who);
    kernel::testing::WithText(g, "name", name);
    kernel::testing::WithText(g, "op", "add");
    return g;
  };
  ASSERT_OK(t.Submit(gm("orc", "Unconscious")));
  EXPECT_TRUE(Has(t, "orc", kUnconscious));
  EXPECT_TRUE(Has(t, "orc", kProne));  // l.168
  fb::CommandT grab = Cmd("aria", "grapple", {"gob"});
  grab.weapon = "fist";
  ASSERT_OK(t.Submit(grab, {12, 5}));  // 16 vs 9
  ASSERT_TRUE(Has(t, "gob", kGrappled));
  ASSERT_OK(t.Submit(gm("gob", "prone")));
  EXPECT_TRUE(Has(t, "aria", kProne));  // falls with it (l.148)
  fb::CommandT zero = kernel::testing::GmCmd("gm_set", "gob");
  kernel::testing::WithText(zero, "resource", "hp");
  kernel::testing::With(zero, "value", 0);
  ASSERT_OK(t.Submit(zero));
  ASSERT_TRUE(Has(t, "gob", kIncapacitated));
  ASSERT_TRUE(Has(t, "gob", kBleeding));
  ASSERT_OK(t.Submit(gm("gob", "dead")));
  EXPECT_TRUE(Has(t, "gob", kDead));
  EXPECT_FALSE(Has(t, "gob", kIncapacitated));
  EXPECT_FALSE(Has(t, "gob", kBleeding));
  EXPECT_FALSE(Has(t, "aria", kGrappling));  // the dead hold no one
  ASSERT_EQ(t.state().active, "aria");
  ASSERT_OK(t.Submit(gm("aria", "dead")));
  EXPECT_EQ(t.state().active, "orc");  // aria's turn ended; gob is dead
}

// 000 l.152: "When a Creature first becomes Incapacitated it is knocked
// Prone, and begins Bleeding" -- also when the GM makes it so (gm_condition
// incapacitated, e.g. a blow the map does not hold); it used to add the
// bare condition, so the creature neither fell nor bled.
TEST(Conditions, AGmIncapacitatedIsKnockedProneAndBleeds) {
  Table t(D20ThreeAction(),
          MakeRoster({Being("aria", "party", 0, 0), Being("gob", "goblins", 1, 0)}),
          {15, 10});
  fb::CommandT g = kernel::testing::GmCmd("gm_condition", "gob");
  kernel::testing::WithText(g, "name", "Incapacitated");
  kernel::testing::WithText(g, "op", "add");
  ASSERT_OK(t.Submit(g));
  EXPECT_TRUE(Has(t, "gob", kIncapacitated));
  EXPECT_TRUE(Has(t, "gob", kProne));
  EXPECT_TRUE(Has(t, "gob", kBleeding));
  // Its turn: the Bleed Table first (12 - 0: no effect, 2d6 = 1 + 1), then
  // 1 Action (3 - 2, l.152).
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn"), {12, 1, 1}));
  EXPECT_EQ(Res(t, "gob", kHp), 18);
  EXPECT_EQ(Res(t, "gob", kActions), 1);
  EXPECT_EQ(Res(t, "gob", kReactions), 0);
}

}  // namespace
}  // namespace combat::kernel::d20
