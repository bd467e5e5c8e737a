// Triggers as data: readied acts armed on one creature's turn fire on
// another's (seed 000 readied actions, 001 reactions mid-move, 003
// opportunity attacks, 004 held actions), matched by MatchDeclaration and
// MatchChanges over a real State.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernel/changes.h"
#include "kernel/pending.h"
#include "kernel/space.h"
#include "kernel/testing/roster.h"
#include "kernel/testing/scene.h"
#include "kernel/testing/table.h"
#include "kernel/trigger.h"

namespace combat::kernel {
namespace {

using testing::Cmd;
using testing::Creature;
using testing::Scene;
using testing::TestWhy;

TriggerRules Rules() {
  TriggerRules r;
  r.classify = [](const fb::CommandT& c) {
    ActClass cls;
    cls.attack = c.action == "attack";
    cls.move = c.action == "move";
    cls.stand = c.action == "stand";
    return cls;
  };
  r.in_reach = [](const State&, const Combatant& owner, Pos at, int32_t size,
                  const Trigger& t) {
    return space::GapSquares(space::Metric::kChebyshev, owner.at, owner.size, at, size) <=
           t.reach;
  };
  return r;
}

fb::CommandT MoveAlong(const std::string& who, std::vector<Pos> path) {
  fb::CommandT c = Cmd(who, "move");
  for (Pos p : path) c.path.emplace_back(p.x, p.y);
  return c;
}

// Ids: std::string(owner) + ":" + step, for compact comparisons.
std::vector<std::string> Owners(const std::vector<TriggerHit>& hits) {
  std::vector<std::string> out;
  for (const TriggerHit& h : hits) out.push_back(h.owner + ":" + std::to_string(h.step));
  return out;
}

class TriggerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(s_.status().ok()) << s_.status();
    ASSERT_TRUE(SetOrder(s_.d(),
                         {{"orc", 15, false, {}},
                          {"guard", 10, false, {}},
                          {"scout", 5, false, {}},
                          {"cleric", 3, false, {}}},
                         TestWhy())
                    .ok());
    ASSERT_TRUE(StartRound(s_.d(), TestWhy()).ok());
  }

  // `owner` readies "strike" on `t` during its own turn; returns the act.
  uint32_t Ready(const std::string& owner, const Trigger& t) {
    Decision& d = s_.Next();
    EXPECT_TRUE(StartTurn(d, owner, TestWhy()).ok());
    const fb::CommandT strike = Cmd(owner, "strike", {"orc"});
    auto decl = d.Declare(Cmd(owner, "ready"));
    EXPECT_TRUE(decl.ok());
    NewPending p;
    p.kind = kReadiedAct;
    p.actor = owner;
    p.decl = *decl;
    p.command = strike;
    p.trigger = t;
    p.expiry = {fb::ExpiryKind::TurnStart, owner, 2};
    auto id = OpenPending(d, p, TestWhy(*decl));
    EXPECT_TRUE(id.ok()) << id.status();
    EXPECT_TRUE(EndTurn(d, owner, TestWhy()).ok());
    return id.ok() ? *id : 0;
  }

  // The orc's turn begins: the readied acts wait on someone else's turn.
  const State& OrcsTurn() {
    Decision& d = s_.Next();
    EXPECT_TRUE(StartTurn(d, "orc", TestWhy()).ok());
    EXPECT_TRUE(d.state().IsTurnOf("orc"));
    EXPECT_FALSE(d.state().IsTurnOf("guard"));
    return d.state();
  }

  Scene s_{{Creature("orc", "foes", 0, 5, {}), Creature("guard", "party", 6, 5, {}),
            Creature("scout", "party", 10, 10, {}), Creature("cleric", "party", 2, 9, {})}};
};

TEST_F(TriggerTest, MoveFiresAtTheEarliestStepOnAnotherCreaturesTurn) {
  Trigger reach;
  reach.kind = fb::TriggerKind::MovesWithinReach;
  reach.reach = 1;
  reach.hostile_only = true;
  const uint32_t guard = Ready("guard", reach);
  Trigger square;
  square.kind = fb::TriggerKind::EntersSquare;
  square.square = Pos{3, 5};
  const uint32_t scout = Ready("scout", square);
  const State& st = OrcsTurn();
  EXPECT_EQ(st.pending.at(guard).trigger.reach, 1);
  EXPECT_EQ(st.pending.at(scout).trigger.square, (std::optional<Pos>{Pos{3, 5}}));

  const fb::CommandT move = MoveAlong("orc", {{1, 5}, {2, 5}, {3, 5}, {4, 5}, {5, 5}});
  // The scout's square is entered after 3 squares, the guard's reach (1
  // square from (6,5)) after 5: the earliest wins.
  std::vector<TriggerHit> hits = MatchDeclaration(st, move, Rules(), {});
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0].pending, scout);
  EXPECT_EQ(Owners(hits), std::vector<std::string>{"scout:3"});
  // Once the scout has answered on this move, the guard's trigger is next.
  hits = MatchDeclaration(st, move, Rules(), {"scout"});
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0].pending, guard);
  EXPECT_EQ(Owners(hits), std::vector<std::string>{"guard:5"});
  // A path that stops short of both sets off neither.
  EXPECT_TRUE(MatchDeclaration(st, MoveAlong("orc", {{1, 5}, {2, 5}}), Rules(), {}).empty());
  // The guard's trigger is hostile_only; the cleric is on its side. The
  // scout's is not: the cleric's path into (3,5) sets it off.
  EXPECT_EQ(Owners(MatchDeclaration(st, MoveAlong("cleric", {{3, 8}, {3, 7}, {3, 6}, {3, 5},
                                                             {4, 5}, {5, 5}}),
                                    Rules(), {})),
            std::vector<std::string>{"scout:4"});
  // An owner that cannot react does not answer.
  TriggerRules asleep = Rules();
  asleep.can_react = [](const State&, const Combatant& c) { return c.id != "scout"; };
  EXPECT_EQ(Owners(MatchDeclaration(st, move, asleep, {})), std::vector<std::string>{"guard:5"});
}

// An owner answers with one armed act: the one met earliest along the
// path, whatever the order they were armed in (seed 003 l.82: leaving a
// foe's reach provokes there, even when coming back into it was armed
// first).
TEST_F(TriggerTest, AnOwnerAnswersWithTheActMetEarliestOnThePath) {
  Decision& d = s_.Next();
  ASSERT_TRUE(StartTurn(d, "guard", TestWhy()).ok());
  auto decl = d.Declare(Cmd("guard", "ready"));
  ASSERT_TRUE(decl.ok());
  auto arm = [&](Pos at) {
    NewPending p;
    p.kind = kReadiedAct;
    p.actor = "guard";
    p.decl = *decl;
    p.command = Cmd("guard", "strike", {"orc"});
    p.trigger.kind = fb::TriggerKind::EntersSquare;
    p.trigger.square = at;
    p.expiry = {fb::ExpiryKind::TurnStart, "guard", 2};
    auto id = OpenPending(d, p, TestWhy(*decl));
    EXPECT_TRUE(id.ok()) << id.status();
    return id.ok() ? *id : 0;
  };
  const uint32_t far = arm(Pos{4, 5});   // armed first, met after 4 squares
  const uint32_t near = arm(Pos{2, 5});  // armed second, met after 2
  ASSERT_TRUE(EndTurn(d, "guard", TestWhy()).ok());
  const State& st = OrcsTurn();
  const fb::CommandT move = MoveAlong("orc", {{1, 5}, {2, 5}, {3, 5}, {4, 5}});
  std::vector<TriggerHit> hits = MatchDeclaration(st, move, Rules(), {});
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0].pending, near);
  EXPECT_EQ(Owners(hits), std::vector<std::string>{"guard:2"});
  // A path meeting only the first-armed square answers with it.
  hits = MatchDeclaration(st, MoveAlong("orc", {{1, 4}, {2, 4}, {3, 4}, {4, 5}}), Rules(), {});
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0].pending, far);
}

TEST_F(TriggerTest, AttackFiltersByWhomAndAgainstWhom) {
  Trigger by_orc;
  by_orc.kind = fb::TriggerKind::Attacks;
  by_orc.by = "orc";
  by_orc.against = "cleric";
  const uint32_t guard = Ready("guard", by_orc);
  Trigger hostile;
  hostile.kind = fb::TriggerKind::Attacks;
  hostile.hostile_only = true;
  const uint32_t cleric = Ready("cleric", hostile);
  const State& st = OrcsTurn();

  // The orc attacks the scout: only the cleric's (any hostile attack) fires.
  std::vector<TriggerHit> hits = MatchDeclaration(st, Cmd("orc", "attack", {"scout"}), Rules(), {});
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0].pending, cleric);
  EXPECT_EQ(hits[0].owner, "cleric");
  // The orc attacks the cleric: both, in turn order (guard 10, cleric 3).
  hits = MatchDeclaration(st, Cmd("orc", "attack", {"cleric"}), Rules(), {});
  ASSERT_EQ(hits.size(), 2u);
  EXPECT_EQ(hits[0].pending, guard);
  EXPECT_EQ(Owners(hits), (std::vector<std::string>{"guard:0", "cleric:0"}));
  // The scout (the cleric's side) attacks the cleric: neither (by, hostile).
  EXPECT_TRUE(MatchDeclaration(st, Cmd("scout", "attack", {"cleric"}), Rules(), {}).empty());
  // A move is not an attack.
  EXPECT_TRUE(MatchDeclaration(st, MoveAlong("orc", {{1, 5}}), Rules(), {}).empty());
}

TEST_F(TriggerTest, ChangesSetOffIsDamagedAndStandsUp) {
  Trigger hurt;
  hurt.kind = fb::TriggerKind::IsDamaged;
  hurt.against = "cleric";
  const uint32_t guard = Ready("guard", hurt);
  Trigger stands;
  stands.kind = fb::TriggerKind::StandsUp;
  stands.by = "orc";
  const uint32_t scout = Ready("scout", stands);
  OrcsTurn();

  Decision& d = s_.Next();
  ASSERT_TRUE(SetResource(d, "cleric", "hp", 12, TestWhy()).ok());
  NewCondition prone{"orc", "prone", "trip"};
  auto prone_id = AddCondition(d, prone, TestWhy());
  ASSERT_TRUE(prone_id.ok());
  ASSERT_TRUE(AddResource(d, "cleric", "hp", 2, TestWhy()).ok());  // healing
  EXPECT_TRUE(MatchChanges(d.state(), d.events(), Rules()).empty());

  Decision& hit = s_.Next();
  ASSERT_TRUE(AddResource(hit, "scout", "hp", -4, TestWhy()).ok());  // not the cleric
  EXPECT_TRUE(MatchChanges(hit.state(), hit.events(), Rules()).empty());
  ASSERT_TRUE(AddResource(hit, "cleric", "hp", -3, TestWhy()).ok());
  std::vector<TriggerHit> hits = MatchChanges(hit.state(), hit.events(), Rules());
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0].pending, guard);
  EXPECT_EQ(hits[0].owner, "guard");

  ASSERT_TRUE(RemoveCondition(hit, "orc", *prone_id, TestWhy()).ok());
  hits = MatchChanges(hit.state(), hit.events(), Rules());
  ASSERT_EQ(hits.size(), 2u);
  EXPECT_EQ(hits[1].pending, scout);
  EXPECT_EQ(Owners(hits), (std::vector<std::string>{"guard:0", "scout:0"}));
}

}  // namespace
}  // namespace combat::kernel
