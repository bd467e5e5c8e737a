// Cinematic Actions, Reactions, Bursts and cooperative versions (l.40-45),
// paid from the side's Narrative Momentum pool.
#include "kernel/ap_rp/internal.h"
#include "kernel/ap_rp/test_util.h"
#include "kernel/command.h"
#include "kernel/pending.h"

namespace combat::kernel::aprp {
namespace {

using namespace testing;  // NOLINT

fb::RosterT Roster(int momentum = 10) {
  auto bar = Being("barb", "party", 1, 1, {{"ins", 20}, {"raw_force", 4}, {"momentum", momentum}});
  auto pal = Being("pal", "party", 1, 2, {{"ins", 15}, {"presence", 2}});
  auto orc = Being("orc", "orcs", 6, 6);
  return MakeRoster({bar, pal, orc});
}

int64_t Momentum(const Table& t) { return t.state().Pool("side:party", kMomentum); }

fb::CommandT Propose(const std::string& who, const std::string& kind, int burst = 0) {
  fb::CommandT c = Cmd(who, "cinematic");
  c.text = "slam the table into three enemies";
  WithText(c, "kind", kind);
  if (burst) With(c, "burst", 1);
  return c;
}

fb::CommandT Rule(const Table& t, bool allow, int dc, const std::string& skill) {
  const PendingAct* p = FirstPending(t.state(), "", "cinematic");
  fb::CommandT c = Gm("", "cinematic_ruling", allow ? "possible" : "not possible");
  AddRef(c, "act", 0, 0, p == nullptr ? 0 : p->id);
  With(c, "allow", allow ? 1 : 0);
  if (allow) {
    With(c, "dc", dc);
    WithText(c, "skill", skill);
  }
  return c;
}

// grant_momentum names a side of the session (a typo would open a pool
// nobody draws from): refused naming params.side, nothing written.
TEST(Cinematic, GrantMomentumToASideOfTheSession) {
  Table t(ApRp(), Roster());
  auto g = Gm("", "grant_momentum", "an epic moment");
  WithText(g, "side", "party");
  With(g, "delta", 2);
  ASSERT_OK(t.Submit(g));
  EXPECT_EQ(Momentum(t), 12);
  auto bad = Gm("", "grant_momentum", "an epic moment");
  WithText(bad, "side", "partyy");
  With(bad, "delta", 2);
  auto r = t.Submit(bad);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << r.status();
  EXPECT_NE(r.status().message().find("params.side"), std::string::npos);
  EXPECT_EQ(t.state().Pool("side:partyy", kMomentum), 0);
}

// l.39-40 "Cinematic Actions and Reactions ... a Cinematic Action (3AP)",
// l.41, l.46-47 (an example: "The Skill Check could be a Raw Force Check
// against 11"): 3 AP and 3 Momentum; a Raw Force Check against 11.
TEST(Cinematic, ActionCostsThreeApAndThreeMomentum) {
  Table t(ApRp(), Roster());
  ASSERT_TRUE(t.status().ok()) << t.status();
  EXPECT_EQ(Momentum(t), 10);
  ASSERT_OK(t.Submit(Propose("barb", "action")));
  EXPECT_EQ(Res(t, "barb", kAp), 3);  // nothing paid before the GM agrees
  auto ev = t.Submit(Rule(t, true, 11, "raw_force"), {7});
  ASSERT_OK(ev);
  EXPECT_EQ(Res(t, "barb", kAp), 0);
  EXPECT_EQ(Momentum(t), 7);
  EXPECT_EQ(FirstPending(t.state(), "", "cinematic"), nullptr);
  EXPECT_EQ(NumOf(*ev, "004.cinematic", "total"), 11);  // 7 + 4 >= 11
}

TEST(Cinematic, DeniedCostsNothing) {
  Table t(ApRp(), Roster());
  ASSERT_OK(t.Submit(Propose("barb", "action")));
  ASSERT_OK(t.Submit(Rule(t, false, 0, "")));
  EXPECT_EQ(Res(t, "barb", kAp), 3);
  EXPECT_EQ(Momentum(t), 10);
}

TEST(Cinematic, RulingIsTheGms) {
  Table t(ApRp(), Roster());
  ASSERT_OK(t.Submit(Propose("barb", "action")));
  fb::CommandT c = Rule(t, true, 11, "raw_force");
  c.role = fb::Role::Player;
  c.author = "ann";  // a player
  EXPECT_EQ(t.Submit(c).status().code(), absl::StatusCode::kPermissionDenied);
}

// 004_1a3e461770fc9e7a.txt l.48 "if they succeed on a Street Smarts Check
// against 10" and l.50 "a Perseverance check against 18": a check against
// N succeeds at N (reading, as l.52 and l.70 "at least"): pal, Street Smarts
// 2: 8 + 2 = 10 succeeds, 7 + 2 = 9 fails; Perseverance 5: 13 + 5 = 18
// succeeds. Each is a Cinematic Reaction (2 RP, 3 Momentum, l.41).
TEST(Cinematic, AChecksNumberIsMetAtLeast) {
  auto bar = Being("barb", "party", 1, 1, {{"ins", 20}, {"momentum", 10}});
  auto pal = Being("pal", "party", 1, 2, {{"ins", 15}, {"street_smarts", 2}, {"perseverance", 5}});
  auto orc = Being("orc", "orcs", 6, 6);
  auto outcome = [](const std::vector<events::EventBuffer>& ev) {
    std::string out;
    for (const auto& e : ev) {
      const auto* sc = e.event().body_as_StateChange();
      if (sc == nullptr || sc->change_as_PendingClosed() == nullptr) continue;
      const auto* why = sc->change_as_PendingClosed()->outcome();
      if (why != nullptr) out = why->str();
    }
    return out;
  };
  {
    Table t(ApRp(), MakeRoster({bar, pal, orc}));
    ASSERT_OK(t.Submit(Propose("pal", "reaction")));
    auto ev = t.Submit(Rule(t, true, 10, "street_smarts"), {8});
    ASSERT_OK(ev);
    EXPECT_EQ(outcome(*ev), "resolved: success");
    EXPECT_EQ(Momentum(t), 7);
  }
  {
    Table t(ApRp(), MakeRoster({bar, pal, orc}));
    ASSERT_OK(t.Submit(Propose("pal", "reaction")));
    auto ev = t.Submit(Rule(t, true, 10, "street_smarts"), {7});
    ASSERT_OK(ev);
    EXPECT_EQ(outcome(*ev), "resolved: failure");
    EXPECT_EQ(Momentum(t), 7);  // paid all the same (l.41 "On a failure")
  }
  {
    Table t(ApRp(), MakeRoster({bar, pal, orc}));
    ASSERT_OK(t.Submit(Propose("pal", "reaction")));
    auto ev = t.Submit(Rule(t, true, 18, "perseverance"), {13});
    ASSERT_OK(ev);
    EXPECT_EQ(outcome(*ev), "resolved: success");
  }
}

// l.44: a Burst costs 6 and no AP, only before any AP is used this turn.
TEST(Cinematic, BurstOnlyBeforeAnyAp) {
  Table t(ApRp(), Roster());
  ASSERT_OK(t.Submit(Propose("barb", "action", 1)));
  ASSERT_OK(t.Submit(Rule(t, true, 11, "raw_force"), {10}));
  EXPECT_EQ(Res(t, "barb", kAp), 3);
  EXPECT_EQ(Momentum(t), 4);
  ASSERT_OK(t.Submit(Cmd("barb", "defend")));
  EXPECT_EQ(t.Submit(Propose("barb", "action", 1)).status().code(), absl::StatusCode::kFailedPrecondition);
}

// 004_1a3e461770fc9e7a.txt l.7 "If two creatures have the same Initiative,
// the GM decides who goes first" meets l.41 "You tell the GM what you want
// to attempt before you start your Cinematic Action" and l.44 (a Burst pays
// 6 Momentum, no AP): a creature that proposed a Cinematic Action on its
// turn (paid by a Burst or still waiting for the GM) has acted, so a later
// gm_order putting its tie partner first leaves its turn running (it was
// handed on: the Burst-payer got a second turn in the round, AP 3 and
// ap_used 0, free to Burst again; the waiting proposal lapsed).
TEST(Cinematic, AProposedOrBurstCinematicActionIsActingForTheGmOrder) {
  for (bool rule : {true, false}) {
    auto a = Being("a", "party", 1, 1, {{"ins", 12}, {"raw_force", 4}, {"momentum", 10}});
    auto b = Being("b", "party", 1, 2, {{"ins", 12}});
    auto orc = Being("orc", "orcs", 6, 6);
    Table t(ApRp(), MakeRoster({a, b, orc}));
    ASSERT_TRUE(t.status().ok()) << t.status();
    const std::string first = t.state().active;
    const std::string other = first == "a" ? "b" : "a";
    ASSERT_OK(t.Submit(Propose(first, "action", 1)));
    if (rule) {
      ASSERT_OK(t.Submit(Rule(t, true, 11, "raw_force"), {10}));
      ASSERT_EQ(Momentum(t), 4);  // 10 - 6 (l.44)
      ASSERT_EQ(Res(t, first, kApUsed), 0);
    }
    ASSERT_OK(t.Submit(GmOrder({other, first, "orc"}, "the GM breaks the tie")));
    EXPECT_EQ(t.state().active, first) << "rule=" << rule;
    EXPECT_EQ(FirstPending(t.state(), first, "cinematic") != nullptr, !rule) << "rule=" << rule;
  }
}

// 004_1a3e461770fc9e7a.txt l.7 "If two creatures have the same Initiative,
// the GM decides who goes first" meets l.41 "You tell the GM what you want
// to attempt before you start your Cinematic Action or Reaction": a
// Cinematic Reaction proposed on one's own turn (2 RP, or a Burst, l.44) is
// acting on the turn as a Cinematic Action is, so a later gm_order putting
// the tie partner first leaves the turn running, and the turn can no longer
// be held whole (l.8). (Black-box: the turn was handed on after the
// reaction, which had gone first all the same.)
TEST(Cinematic, AReactionProposedOnOnesOwnTurnIsActingForTheGmOrder) {
  for (bool burst : {false, true}) {
    auto a = Being("a", "party", 1, 1, {{"ins", 12}, {"raw_force", 4}, {"momentum", 10}});
    auto b = Being("b", "party", 1, 2, {{"ins", 12}});
    auto orc = Being("orc", "orcs", 6, 6);
    Table t(ApRp(), MakeRoster({a, b, orc}));
    ASSERT_TRUE(t.status().ok()) << t.status();
    ASSERT_EQ(t.state().active, "a");  // 24 = 24: id order
    ASSERT_OK(t.Submit(Propose("a", "reaction", burst ? 1 : 0)));
    ASSERT_OK(t.Submit(GmOrder({"b", "a", "orc"}, "the GM breaks the tie")));
    EXPECT_EQ(t.state().active, "a") << "burst=" << burst;
    EXPECT_NE(FirstPending(t.state(), "a", "cinematic"), nullptr);
    EXPECT_EQ(t.Submit(Cmd("a", "hold_turn")).status().code(), absl::StatusCode::kFailedPrecondition);
  }
}

// 004_1a3e461770fc9e7a.txt l.44 "You can only use a Cinematic Burst if you
// have not used any AP on your turn": moving (Basic Movement, "without
// needing to use any AP", l.6) and the turn's free Interact (l.19) use no
// AP, so the Burst is allowed after them: 6 Momentum, 10 -> 4, AP 3 stay.
// A held action's AP are used on the turn (l.9): no Burst after one.
TEST(Cinematic, BurstAfterMovingOrAFreeInteractButNotAfterAHeldAction) {
  {
    Table t(ApRp(), Roster());
    ASSERT_OK(t.Submit(Path(Cmd("barb", "move"), {{2, 1}})));
    ASSERT_OK(t.Submit(Cmd("barb", "interact")));
    ASSERT_EQ(Res(t, "barb", kAp), 3);
    ASSERT_OK(t.Submit(Propose("barb", "action", 1)));
    ASSERT_OK(t.Submit(Rule(t, true, 11, "raw_force"), {10}));
    EXPECT_EQ(Momentum(t), 4);
    EXPECT_EQ(Res(t, "barb", kAp), 3);
  }
  {
    Table t(ApRp(), Roster());
    fb::CommandT h = Cmd("barb", "hold_action");
    WithText(h, "action", "defend");
    WithText(h, "trigger", "moves");
    ASSERT_OK(t.Submit(h));
    auto r = t.Submit(Propose("barb", "action", 1));
    EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition) << r.status();
    EXPECT_EQ(Momentum(t), 10);
  }
}

// l.44 "You can also use a Cinematic Burst to do a Cooperative Cinematic
// Action, in which case you need 4 Narrative Momentum" with l.43 "Each
// character beyond the first has to perform a reaction (2 RP) ... Each
// participant only needs to use 2": the lead pays 4 and no AP, the helper
// 2 RP and 2 Momentum: 10 - 4 - 2 = 4.
TEST(Cinematic, CooperativeBurstCostsTheLeadFour) {
  Table t(ApRp(), Roster());
  fb::CommandT c = Propose("barb", "action", 1);
  c.targets = {"pal"};
  ASSERT_OK(t.Submit(c));
  ASSERT_OK(t.Submit(Rule(t, true, 10, "raw_force"), {15, 1, 15, 1}));
  EXPECT_EQ(Momentum(t), 4);
  EXPECT_EQ(Res(t, "barb", kAp), 3);
  EXPECT_EQ(Res(t, "pal", kRp), 0);
}

// 004_1a3e461770fc9e7a.txt l.43 "Two or more characters can perform a
// Cooperative Cinematic Action. Each character beyond the first has to
// perform a reaction (2 RP)" and l.44 "If you cannot use 3AP or 2RP ... you
// can use a Cinematic Burst ... You can also use a Cinematic Burst to do a
// Cooperative Cinematic Action, in which case you need 4 Narrative
// Momentum": a helper performs the act too, so it may pay by a Burst
// (burst_pal=1): the lead 2 and 3 AP, the helper 4 and no RP: 10 - 2 - 4 =
// 4, pal's 2 RP stay (black-box: burst_pal was refused, only the lead could
// burst). l.44 "no RP this round": a helper who used RP cannot burst
// (its part is a reaction, reading); burst_<id> must name a helper.
TEST(Cinematic, AHelperMayPayByACooperativeBurst) {
  Table t(ApRp(), Roster());
  fb::CommandT c = Propose("barb", "action");
  c.targets = {"pal"};
  With(c, "burst_pal", 1);
  ASSERT_OK(t.Submit(c));
  ASSERT_OK(t.Submit(Rule(t, true, 10, "raw_force"), {15, 1, 15, 1}));
  EXPECT_EQ(Momentum(t), 4);
  EXPECT_EQ(Res(t, "barb", kAp), 0);
  EXPECT_EQ(Res(t, "pal", kRp), 2);

  Table u(ApRp(), Roster());
  fb::CommandT f = Cmd("pal", "use_feature");
  f.text = "a reaction feature";
  With(f, "rp", 1);
  ASSERT_OK(u.Submit(f));
  fb::CommandT late = Propose("barb", "action");
  late.targets = {"pal"};
  With(late, "burst_pal", 1);
  auto r = u.Submit(late);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition) << r.status();
  fb::CommandT wrong = Propose("barb", "action");
  wrong.targets = {"pal"};
  With(wrong, "burst_orc", 1);
  EXPECT_EQ(u.Submit(wrong).status().code(), absl::StatusCode::kInvalidArgument);
}

// 004_1a3e461770fc9e7a.txt l.43 "Each participant only needs to use 2
// Narrative Momentum" and l.45 "cannot be reduced below 1 unless a feature
// specifically allows that": the reduction claimed on the cinematic is a
// feature of its lead (the log says "a feature of barb"): the lead's 2 - 1
// = 1, the helper's 2 stays: 10 - 1 - 2 = 7 (black-box: the helper paid 1,
// with no modifier saying why).
TEST(Cinematic, ALeadsReductionDoesNotLowerAHelpersCost) {
  Table t(ApRp(), Roster());
  fb::CommandT c = Propose("barb", "action");
  c.targets = {"pal"};
  With(c, "reduction", 1);
  ASSERT_OK(t.Submit(c));
  auto ev = t.Submit(Rule(t, true, 10, "raw_force"), {15, 1, 15, 1});
  ASSERT_OK(ev);
  EXPECT_EQ(Momentum(t), 7);
  EXPECT_EQ(Res(t, "pal", kRp), 0);
}

// 004_1a3e461770fc9e7a.txt l.44 "If you cannot use 3AP or 2RP for some
// reason, like when you are Restrained or Stunned, you can use a Cinematic
// Burst": a living creature kept from its AP or RP, not a Dead one (the
// README reading "the Dead cannot act": no AP, no RP, so no Burst in their
// place). A Dead pal's Cinematic Reaction by a Burst, and its part in
// barb's Cooperative Cinematic Action by a Burst, are refused (black-box:
// both waited for the GM, 6 and 4 Momentum to be paid for the dead).
TEST(Cinematic, TheDeadMakeNoBurst) {
  Table t(ApRp(), Roster());
  ASSERT_OK(t.Submit(GmAdds("pal", kDead, "killed")));
  auto r = t.Submit(Propose("pal", "reaction", 1));
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition) << r.status();
  EXPECT_NE(r.status().message().find("Dead"), std::string::npos) << r.status();
  fb::CommandT c = Propose("barb", "action");
  c.targets = {"pal"};
  With(c, "burst_pal", 1);
  r = t.Submit(c);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition) << r.status();
  EXPECT_EQ(FirstPending(t.state(), "", "cinematic"), nullptr);
  EXPECT_EQ(Momentum(t), 10);
}

// l.44: no Burst for a reaction once RP were used this round.
TEST(Cinematic, ReactionBurstOnlyBeforeAnyRp) {
  Table t(ApRp(), Roster());
  fb::CommandT f = Cmd("pal", "use_feature");
  f.text = "a reaction feature";
  With(f, "rp", 1);
  ASSERT_OK(t.Submit(f));
  EXPECT_EQ(Res(t, "pal", kRp), 1);
  EXPECT_EQ(t.Submit(Propose("pal", "reaction", 1)).status().code(), absl::StatusCode::kFailedPrecondition);
}

// 004_1a3e461770fc9e7a.txt l.6 "Each participant also gains two Reaction
// Points (RP) for the whole round" with l.41 (the GM rules on the attempt):
// pal proposes a Cinematic Reaction in round 1, then spends its 2 RP on a
// feature; the round ends before the GM rules. The reaction lapses at round
// 2's start and cannot be allowed then: paying it from round 2's fresh RP
// would spend 4 RP on round 1 (black-box: allowed in round 2, 2 of round 2's
// RP and 3 Momentum paid, 10 -> 7).
TEST(Cinematic, AReactionNotRuledInItsRoundLapses) {
  Table t(ApRp(), Roster());
  ASSERT_OK(t.Submit(Propose("pal", "reaction")));
  fb::CommandT f = Cmd("pal", "use_feature");
  f.text = "a reaction feature";
  With(f, "rp", 2);
  ASSERT_OK(t.Submit(f));
  EXPECT_EQ(Res(t, "pal", kRp), 0);
  // round 1: barb (ins 20), pal (15), orc
  ASSERT_OK(t.Submit(Cmd("barb", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("pal", "end_turn")));
  ASSERT_OK(t.Submit(Gm("orc", "end_turn", "the orc waits")));
  ASSERT_EQ(t.state().round, 2);
  EXPECT_EQ(FirstPending(t.state(), "pal", "cinematic"), nullptr);
  EXPECT_EQ(Res(t, "pal", kRp), 2);
  EXPECT_EQ(Momentum(t), 10);
}

// 004_1a3e461770fc9e7a.txt l.6 "Each participant gets three Action Points
// (AP) during their turn" with l.40 "you can use a Cinematic Action (3AP)"
// and l.41 (the GM rules on the attempt): barb proposes a Cinematic Action
// on its round-1 turn and ends the turn before the GM rules. The proposal
// lapses with the turn (l.8: ended or lost): on barb's round-2 turn it is
// not paid from that turn's 3 AP, and barb may propose a new one (old code:
// it stayed open, barb's new proposal was refused "already waits for the
// GM", and allowing the old one took round 2's AP).
TEST(Cinematic, AnActionNotRuledOnItsTurnLapses) {
  Table t(ApRp(), Roster());
  ASSERT_OK(t.Submit(Propose("barb", "action")));  // barb's turn (ins 20)
  ASSERT_OK(t.Submit(Cmd("barb", "end_turn")));
  EXPECT_EQ(FirstPending(t.state(), "barb", "cinematic"), nullptr);
  ASSERT_OK(t.Submit(Cmd("pal", "end_turn")));
  ASSERT_OK(t.Submit(Gm("orc", "end_turn", "the orc waits")));
  ASSERT_EQ(t.state().round, 2);
  ASSERT_TRUE(t.state().IsTurnOf("barb"));
  EXPECT_EQ(Res(t, "barb", kAp), 3);
  EXPECT_EQ(Momentum(t), 10);
  // A new proposal on the new turn, allowed: 3 AP and 3 Momentum (10 - 3).
  ASSERT_OK(t.Submit(Propose("barb", "action")));
  ASSERT_OK(t.Submit(Rule(t, true, 11, "raw_force"), {7}));  // 7 + 4 = 11 >= 11
  EXPECT_EQ(Res(t, "barb", kAp), 0);
  EXPECT_EQ(Momentum(t), 7);
}

// l.41: a Cinematic Reaction costs 2 RP, off one's turn too.
TEST(Cinematic, ReactionCostsTwoRp) {
  Table t(ApRp(), Roster());
  ASSERT_OK(t.Submit(Propose("pal", "reaction")));
  ASSERT_OK(t.Submit(Rule(t, true, 10, "presence"), {3}));
  EXPECT_EQ(Res(t, "pal", kRp), 0);
  EXPECT_EQ(Momentum(t), 7);
}

// 004 l.6 "RP can be used to act outside of your turn" grants a use, it
// forbids none; l.41 "The GM determines if it is possible or not": a
// Cinematic Reaction on one's own turn is the GM's to allow (reading). It
// pays 2 RP, not AP (3 AP stay for the turn).
TEST(Cinematic, AReactionOnOnesOwnTurnPaysRpNotAp) {
  Table t(ApRp(), Roster());
  ASSERT_OK(t.Submit(Propose("barb", "reaction")));  // barb's turn (ins 20)
  ASSERT_OK(t.Submit(Rule(t, true, 11, "raw_force"), {7}));  // 7 + 4 = 11 >= 11
  EXPECT_EQ(Res(t, "barb", kRp), 0);
  EXPECT_EQ(Res(t, "barb", kAp), 3);
  EXPECT_EQ(Momentum(t), 7);
}

// l.43: cooperative: helpers 2 RP each, 2 Momentum each, advantage, all
// must succeed, a critical success covers a failure.
TEST(Cinematic, CooperativeCriticalCoversAFailure) {
  Table t(ApRp(), Roster());
  fb::CommandT c = Propose("barb", "action");
  c.targets = {"pal"};
  ASSERT_OK(t.Submit(c));
  auto ev = t.Submit(Rule(t, true, 15, "raw_force"), {20, 1, 2, 3});
  ASSERT_OK(ev);
  EXPECT_EQ(Momentum(t), 6);
  EXPECT_EQ(Res(t, "pal", kRp), 0);
  EXPECT_EQ(Res(t, "barb", kAp), 0);
  EXPECT_EQ(NumOf(*ev, "004.cinematic.coop", "criticals"), 1);
  EXPECT_EQ(NumOf(*ev, "004.cinematic.coop", "failures"), 1);
}

// 004_1a3e461770fc9e7a.txt l.43 "The participants succeed ... if everybody
// succeeds on their Skill Check. A failure on the Skill Check of one
// participant can be compensated by a critical success of another
// participant": a natural 20 that does not reach the check's number is a
// failure, not a critical success, and nobody else's critical covers it
// (black-box: barb's 20 + 4 against 25 counted as both and covered itself).
TEST(Cinematic, ANaturalTwentyBelowTheNumberIsAFailureNobodyCovers) {
  auto bar = Being("barb", "party", 1, 1, {{"ins", 20}, {"raw_force", 4}, {"momentum", 10}});
  auto pal = Being("pal", "party", 1, 2, {{"ins", 15}, {"raw_force", 10}});
  auto orc = Being("orc", "orcs", 6, 6);
  Table t(ApRp(), MakeRoster({bar, pal, orc}));
  fb::CommandT c = Propose("barb", "action");
  c.targets = {"pal"};
  ASSERT_OK(t.Submit(c));
  // barb: natural 20 + 4 = 24 < 25; pal: 15 + 10 = 25, a plain success.
  auto ev = t.Submit(Rule(t, true, 25, "raw_force"), {20, 1, 15, 5});
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "004.cinematic.coop", "failures"), 1);
  EXPECT_EQ(NumOf(*ev, "004.cinematic.coop", "criticals"), 0);
  const PendingAct* open = FirstPending(t.state(), "barb", "cinematic");
  EXPECT_EQ(open, nullptr);
  bool failed = false;
  for (const auto& e : *ev) {
    const auto* sc = e.event().body_as_StateChange();
    if (sc == nullptr || sc->change_as_PendingClosed() == nullptr) continue;
    const auto* why = sc->change_as_PendingClosed()->outcome();
    failed = failed || (why != nullptr && why->str() == "resolved: failure");
  }
  EXPECT_TRUE(failed);
}

TEST(Cinematic, NotEnoughMomentum) {
  Table t(ApRp(), Roster(2));
  EXPECT_EQ(t.Submit(Propose("barb", "action")).status().code(), absl::StatusCode::kFailedPrecondition);
}

// l.45: never below 1.
TEST(Cinematic, CostNeverBelowOne) {
  Table t(ApRp(), Roster(1));
  fb::CommandT c = Propose("barb", "action");
  With(c, "reduction", 5);
  ASSERT_OK(t.Submit(c));
  ASSERT_OK(t.Submit(Rule(t, true, 11, "raw_force"), {10}));
  EXPECT_EQ(Momentum(t), 0);
  // 004 l.45 "cannot be reduced below 1": of the claimed 5 only 2 apply
  // (3 -> 1), and the recorded modifier says so.
  EXPECT_EQ(kernel::testing::LastNumber(t.log(), "cost_reduction").value, -2);
  EXPECT_EQ(kernel::testing::LastNumber(t.log(), "reduction_claimed").value, 5);
  EXPECT_EQ(kernel::testing::LastNumber(t.log(), "momentum").value, 1);
}

// l.45: "unless a feature specifically allows that": to 0.
TEST(Cinematic, AFeatureMayReduceBelowOne) {
  Table t(ApRp(), Roster(1));
  fb::CommandT c = Propose("barb", "action");
  With(c, "reduction", 5);
  With(c, "below_one", 1);
  ASSERT_OK(t.Submit(c));
  ASSERT_OK(t.Submit(Rule(t, true, 11, "raw_force"), {10}));
  EXPECT_EQ(Momentum(t), 1);  // 3 - 5 -> 0 paid
  fb::CommandT bad = Propose("barb", "action");
  With(bad, "below_one", 1);
  EXPECT_EQ(t.Submit(bad).status().code(), absl::StatusCode::kInvalidArgument);
}


// l.43: only a Cinematic Action can be cooperative.
TEST(Cinematic, NoCooperativeReaction) {
  Table t(ApRp(), Roster());
  auto c = Cmd("barb", "cinematic", {"pal"});
  WithText(c, "kind", "reaction");
  c.text = "together";
  auto r = t.Submit(c);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(r.status().message().find("l.43"), std::string::npos);
}

// The ruling is the GM's; the act it allows then goes ahead by itself.
TEST(Cinematic, TheRulingIsTheGmsTheActGoesAheadAsTheSystems) {
  Table t(ApRp(), Roster());
  ASSERT_OK(t.Submit(Propose("barb", "action")));
  auto ev = t.Submit(Rule(t, true, 10, "raw_force"), {15});
  ASSERT_OK(ev);
  ASSERT_GE(ev->size(), 3u);
  EXPECT_EQ((*ev)[0].event().author()->str(), "gm");  // the declaration
  EXPECT_EQ((*ev)[1].event().author()->str(), "gm");  // the ruling
  EXPECT_EQ(ByRule(*ev, "004.cinematic"), std::make_pair(std::string("system"), fb::Role::System));
  EXPECT_EQ(Momentum(t), 7);  // l.41: 3 Momentum
}

}  // namespace
}  // namespace combat::kernel::aprp
