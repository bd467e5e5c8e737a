// Pools owned by the session or a side (seed 004's Narrative Momentum),
// the reducer's arithmetic check of them, and the state encoding of
// schema v5's additions: a state without them hashes as schema 4 did;
// one with them round-trips through EncodeState / DecodeState.
#include <string>
#include <vector>

#include "events/hash.h"
#include "gtest/gtest.h"
#include "kernel/changes.h"
#include "kernel/pending.h"
#include "kernel/reducer.h"
#include "kernel/state_codec.h"
#include "kernel/testing/roster.h"
#include "kernel/testing/scene.h"
#include "kernel/testing/table.h"
#include "kernel/window.h"

namespace combat::kernel {
namespace {

using testing::AsChange;
using testing::Cmd;
using testing::Creature;
using testing::Scene;
using testing::TestWhy;

class PoolTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(s_.status().ok()) << s_.status(); }
  Scene s_{{Creature("hero", "party", 1, 1, {}), Creature("ogre", "foes", 5, 5, {})}};
};

TEST_F(PoolTest, SessionAndSidePools) {
  Decision& d = s_.d();
  ASSERT_TRUE(SetPool(d, "session", "momentum", 0, TestWhy()).ok());
  auto party = AddPool(d, "side:party", "momentum", 2, TestWhy());  // never set: from 0
  ASSERT_TRUE(party.ok()) << party.status();
  EXPECT_EQ(*party, 2);
  EXPECT_EQ(AddPool(d, "session", "momentum", 3, TestWhy()).value_or(-1), 3);
  s_.Next();
  EXPECT_EQ(AddPool(s_.d(), "session", "momentum", -1, TestWhy()).value_or(-1), 2);
  const State& st = s_.state();
  EXPECT_EQ(st.Pool("session", "momentum"), 2);
  EXPECT_EQ(st.Pool("side:party", "momentum"), 2);
  EXPECT_EQ(st.Pool("side:foes", "momentum", -7), -7) << "never set";
  EXPECT_EQ(st.pools.size(), 2u);
  for (const char* id : {"hero", "ogre"}) {
    EXPECT_EQ(st.Find(id)->resources.count("momentum"), 0u) << "no combatant owns it";
  }
  EXPECT_EQ(SetPool(s_.d(), "", "momentum", 1, TestWhy()).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(AddPool(s_.d(), "", "momentum", 1, TestWhy()).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST_F(PoolTest, ReducerChecksPoolArithmetic) {
  ASSERT_TRUE(SetPool(s_.d(), "session", "momentum", 2, TestWhy()).ok());
  State st = s_.state();
  const std::vector<uint8_t> before = EncodeState(st);
  const auto change = [&](const std::string& actor, const std::string& name, int64_t delta,
                          int64_t value) {
    fb::ResourceChangedT r;
    r.pool = "session";
    r.actor = actor;
    r.name = name;
    r.delta = delta;
    r.value = value;
    return Apply(Scene::Forge(st, AsChange(std::move(r))).event(), st, Mode::kStrict);
  };
  absl::Status sum = change("", "momentum", 1, 9);
  EXPECT_EQ(sum.code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(sum.message().find("resource momentum: 2 + 1 is not 9"), absl::string_view::npos)
      << sum;
  absl::Status owned = change("hero", "momentum", 1, 3);
  EXPECT_EQ(owned.code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(owned.message().find("a pool change names no actor"), absl::string_view::npos)
      << owned;
  absl::Status unnamed = change("", "", 1, 3);
  EXPECT_EQ(unnamed.code(), absl::StatusCode::kDataLoss) << unnamed;
  EXPECT_EQ(EncodeState(st), before) << "a refused event changes nothing";
  ASSERT_TRUE(change("", "momentum", 1, 3).ok());
  EXPECT_EQ(st.Pool("session", "momentum"), 3);
}

// A state with none of schema v5's additions (no pools, pending acts,
// members, answer policy, nesting or answer seqs), as schema 4 wrote it.
State V4State() {
  State s;
  s.session = "s";
  s.title = "t";
  s.ruleset = "toy";
  s.ruleset_version = 1;
  s.schema_version = 4;
  s.map.width = 10;
  s.map.height = 10;
  s.map.terrain[{2, 2}] = "wall";
  s.seq = 9;
  s.round = 2;
  s.active = "a";
  s.order = {{"a", 12, false}, {"b", 7, false}};
  s.acted = {"b"};
  for (const char* id : {"a", "b"}) {
    Combatant c;
    c.id = id;
    c.name = id;
    c.side = id[0] == 'a' ? "party" : "foes";
    c.at = {id[0] == 'a' ? 1 : 4, 3};
    c.resources = {{"hp", 10}};
    Condition prone;
    prone.id = 1;
    prone.name = "prone";
    prone.added_at = 5;
    if (id[0] == 'b') c.conditions[1] = prone;
    s.combatants[id] = c;
  }
  Window w;
  w.id = 1;
  w.trigger = 8;
  w.kind = "reaction";
  w.eligible = {"b"};
  w.opened_at = 9;
  s.windows[1] = w;
  s.next_condition_id = 2;
  s.next_window_id = 2;
  s.next_roll_index = 3;
  return s;
}

// Computed by the kernel of ee13449^ (schema 4, before pools, pending acts
// and members existed) for the same state.
constexpr char kV4Hash[] = "62c727677120454ad12878afe862e6cd6a4c872a9620c89e0c7f0586e499cac4";

TEST(StateV5Test, AStateWithoutV5AdditionsHashesAsBefore) {
  const State s = V4State();
  EXPECT_EQ(events::Hex(StateHash(s)), kV4Hash);
  EXPECT_EQ(events::Hex(StateHashUncached(s)), kV4Hash);
  const std::vector<uint8_t> bytes = EncodeState(s);
  auto back = DecodeState(bytes.data(), bytes.size());
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(events::Hex(StateHashUncached(*back)), kV4Hash);
}

TEST_F(PoolTest, V5AdditionsRoundTripAndHash) {
  Decision& d = s_.d();
  const events::Digest plain = StateHash(d.state());
  ASSERT_TRUE(SetOrder(d, {{"hero", 9, false, {"ogre"}}}, TestWhy()).ok());
  ASSERT_TRUE(StartRound(d, TestWhy()).ok());
  ASSERT_TRUE(StartTurn(d, "hero", TestWhy(), {"ogre"}).ok());
  ASSERT_TRUE(SetPool(d, "side:party", "momentum", 4, TestWhy()).ok());
  const fb::CommandT ritual = Cmd("hero", "ritual", {"ogre"});
  auto decl = d.Declare(ritual);
  ASSERT_TRUE(decl.ok());
  NewPending p;
  p.kind = kReadiedAct;
  p.actor = "hero";
  p.decl = *decl;
  p.command = ritual;
  p.cost_due = 5;
  p.cost_paid = 1;
  p.progress = 2;
  p.span = fb::Span::Turns;
  p.trigger.kind = fb::TriggerKind::EntersSquare;
  p.trigger.square = Pos{3, 4};
  p.trigger.hostile_only = true;
  p.expiry = {fb::ExpiryKind::RoundEnd, "", 3};
  p.budget = "ap";
  p.reacted = {"ogre"};
  auto id = OpenPending(d, p, TestWhy(*decl));
  ASSERT_TRUE(id.ok()) << id.status();
  WindowSpec w;
  w.trigger = *decl;
  w.kind = "interrupt";
  w.eligible = {"ogre"};
  w.policy = fb::AnswerPolicy::Simultaneous;
  w.pay = fb::PayWhen::Partial;
  w.pending = *id;
  ASSERT_TRUE(OpenWindow(d, w, TestWhy(*decl)).ok());
  fb::CommandT answer = Cmd("ogre", "pass");
  answer.window = 1;
  ASSERT_TRUE(Answer(d, answer).ok());

  const State& st = d.state();
  EXPECT_NE(StateHash(st), plain);
  EXPECT_EQ(events::Hex(StateHash(st)), events::Hex(StateHashUncached(st)));
  const std::vector<uint8_t> bytes = EncodeState(st);
  auto back = DecodeState(bytes.data(), bytes.size());
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(EncodeState(*back), bytes);
  EXPECT_EQ(events::Hex(StateHashUncached(*back)), events::Hex(StateHash(st)));
  EXPECT_EQ(back->active_members, std::vector<std::string>{"ogre"});
  EXPECT_EQ(back->order[0].members, std::vector<std::string>{"ogre"});
  EXPECT_EQ(back->Pool("side:party", "momentum"), 4);
  EXPECT_EQ(back->last_pending_id, 1u);
  const PendingAct* act = back->FindPending(*id);
  ASSERT_NE(act, nullptr);
  EXPECT_EQ(act->kind, "readied");
  EXPECT_EQ(act->decl, *decl);
  EXPECT_EQ(act->command->action, "ritual");
  EXPECT_EQ(act->command->targets, std::vector<std::string>{"ogre"});
  EXPECT_EQ(act->cost_due, 5);
  EXPECT_EQ(act->cost_paid, 1);
  EXPECT_EQ(act->progress, 2);
  EXPECT_EQ(act->span, fb::Span::Turns);
  EXPECT_EQ(act->trigger.kind, fb::TriggerKind::EntersSquare);
  EXPECT_EQ(act->trigger.square, (std::optional<Pos>{Pos{3, 4}}));
  EXPECT_TRUE(act->trigger.hostile_only);
  EXPECT_EQ(act->expiry.kind, fb::ExpiryKind::RoundEnd);
  EXPECT_EQ(act->expiry.round, 3);
  EXPECT_EQ(act->budget, "ap");
  EXPECT_EQ(act->reacted, std::vector<std::string>{"ogre"});
  const Window& win = back->windows.at(1);
  EXPECT_EQ(win.policy, fb::AnswerPolicy::Simultaneous);
  EXPECT_EQ(win.pay, fb::PayWhen::Partial);
  EXPECT_EQ(win.pending, *id);
  EXPECT_EQ(win.answer_seqs, std::vector<uint64_t>{st.seq});
}

}  // namespace
}  // namespace combat::kernel
