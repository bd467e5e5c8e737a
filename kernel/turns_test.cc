// Shared turns (StartTurn / OrderSet `members`) and durations (ExpireAt:
// effects that began earlier end first), through a real Decision.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernel/changes.h"
#include "kernel/pending.h"
#include "kernel/state_codec.h"
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

// Seed 001's rider and mount share one turn; the orc has its own.
class SharedTurnTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(s_.status().ok()) << s_.status();
    ASSERT_TRUE(SetOrder(s_.d(), {{"rider", 14, false, {"mount"}}, {"orc", 9, false, {}}},
                         TestWhy())
                    .ok());
    ASSERT_TRUE(StartRound(s_.d(), TestWhy()).ok());
    s_.Next();
  }
  Scene s_{{Creature("rider", "party", 1, 1, {}), Creature("mount", "party", 1, 2, {}),
            Creature("orc", "foes", 8, 8, {})}};
};

TEST_F(SharedTurnTest, BothMembersHoldTheTurnAndNobodyElse) {
  ASSERT_TRUE(StartTurn(s_.d(), "rider", TestWhy(), {"mount"}).ok());
  const State& st = s_.state();
  EXPECT_EQ(st.active, "rider");
  EXPECT_EQ(st.active_members, std::vector<std::string>{"mount"});
  EXPECT_TRUE(st.IsTurnOf("rider"));
  EXPECT_TRUE(st.IsTurnOf("mount"));
  EXPECT_FALSE(st.IsTurnOf("orc"));
  EXPECT_FALSE(st.IsTurnOf(""));

  ASSERT_TRUE(EndTurn(s_.d(), "rider", TestWhy()).ok());
  EXPECT_EQ(st.active, "");
  EXPECT_TRUE(st.active_members.empty()) << "TurnEnded clears the members";
  EXPECT_FALSE(st.IsTurnOf("mount"));
  EXPECT_EQ(st.acted, std::vector<std::string>{"rider"});
  // The members' entry has acted: the orc comes next.
  EXPECT_EQ(NextInOrder(st, [](const std::string&) { return true; }),
            std::optional<std::string>("orc"));
  ASSERT_TRUE(StartTurn(s_.d(), "orc", TestWhy()).ok());
  EXPECT_TRUE(st.IsTurnOf("orc"));
  EXPECT_FALSE(st.IsTurnOf("rider"));
  EXPECT_FALSE(st.IsTurnOf("mount"));
}

TEST_F(SharedTurnTest, OrderMembersRoundTripAndRank) {
  const State& st = s_.state();
  ASSERT_EQ(st.order.size(), 2u);
  EXPECT_EQ(st.order[0].actor, "rider");
  EXPECT_EQ(st.order[0].initiative, 14);
  EXPECT_EQ(st.order[0].members, std::vector<std::string>{"mount"});
  EXPECT_TRUE(st.order[1].members.empty());
  // Members answer right after their entry's actor (kernel/trigger.h).
  EXPECT_EQ(Rank(st), (std::vector<std::string>{"rider", "mount", "orc"}));

  ASSERT_TRUE(StartTurn(s_.d(), "rider", TestWhy(), {"mount"}).ok());
  const std::vector<uint8_t> bytes = EncodeState(st);
  auto back = DecodeState(bytes.data(), bytes.size());
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->order[0].members, std::vector<std::string>{"mount"});
  EXPECT_EQ(back->active_members, std::vector<std::string>{"mount"});
  EXPECT_TRUE(back->IsTurnOf("mount"));
  EXPECT_EQ(EncodeState(*back), bytes);
  EXPECT_EQ(StateHash(*back), StateHashUncached(st));
}

TEST_F(SharedTurnTest, ReducerRefusesBadMembers) {
  const uint64_t seq = s_.state().seq;
  absl::Status twice = StartTurn(s_.d(), "rider", TestWhy(), {"mount", "mount"});
  EXPECT_EQ(twice.code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(twice.message().find("'mount' listed twice"), absl::string_view::npos) << twice;
  absl::Status self = StartTurn(s_.d(), "rider", TestWhy(), {"rider"});
  EXPECT_EQ(self.code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(self.message().find("'rider' listed twice"), absl::string_view::npos) << self;
  absl::Status ghost = StartTurn(s_.d(), "rider", TestWhy(), {"ghost"});
  EXPECT_EQ(ghost.code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(ghost.message().find("members: no combatant 'ghost'"), absl::string_view::npos)
      << ghost;
  absl::Status order = SetOrder(s_.d(), {{"orc", 3, false, {"ghost"}}}, TestWhy());
  EXPECT_EQ(order.code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(order.message().find("order.members: no combatant 'ghost'"),
            absl::string_view::npos)
      << order;
  // Nothing was applied.
  EXPECT_EQ(s_.state().seq, seq);
  EXPECT_EQ(s_.state().active, "");
  EXPECT_EQ(s_.state().order[0].members, std::vector<std::string>{"mount"});
}

// Seed 001: "effects active longer end first". The zealot's condition
// began first although "zealot" sorts after "archer"; a pending act with
// the same anchor lapses in its place between them.
TEST(DurationTest, EffectsThatBeganEarlierEndFirst) {
  Scene s({Creature("archer", "party", 0, 0, {}), Creature("zealot", "foes", 5, 5, {})});
  ASSERT_TRUE(s.status().ok()) << s.status();
  Decision& d = s.d();
  const Expiry anchor{fb::ExpiryKind::TurnStart, "archer", 2};
  NewCondition older{"zealot", "Blessed", "archer"};
  older.expiry = anchor;
  auto older_id = AddCondition(d, older, TestWhy());
  ASSERT_TRUE(older_id.ok());
  ASSERT_TRUE(d.Declare(Cmd("archer", "ready")).ok());
  NewPending ready;
  ready.kind = kReadiedAct;
  ready.actor = "archer";
  ready.decl = d.state().seq;
  ready.command = Cmd("archer", "ready");
  ready.trigger.kind = fb::TriggerKind::Moves;
  ready.expiry = anchor;
  auto pending = OpenPending(d, ready, TestWhy());
  ASSERT_TRUE(pending.ok()) << pending.status();
  NewCondition newer{"archer", "Shaken", "zealot"};
  newer.expiry = anchor;
  auto newer_id = AddCondition(d, newer, TestWhy());
  ASSERT_TRUE(newer_id.ok());
  NewCondition other{"archer", "Dazzled", "zealot"};
  other.expiry = {fb::ExpiryKind::TurnStart, "archer", 3};  // another anchor
  ASSERT_TRUE(AddCondition(d, other, TestWhy()).ok());
  EXPECT_EQ(*older_id, 1u);
  EXPECT_EQ(*newer_id, 2u);

  Decision& next = s.Next();
  auto n = ExpireAt(next, fb::ExpiryKind::TurnStart, "archer", 2, TestWhy());
  ASSERT_TRUE(n.ok()) << n.status();
  EXPECT_EQ(*n, 3);
  // What ended, in order: zealot's Blessed #1, the readied act, archer's #2.
  std::vector<std::string> ended;
  for (const events::EventBuffer& e : next.events()) {
    const fb::StateChange* sc = e.event().body_as_StateChange();
    ASSERT_NE(sc, nullptr);
    EXPECT_EQ(sc->note()->str(), "duration ended (TurnStart of archer, round 2)");
    if (const auto* r = sc->change_as_ConditionRemoved()) {
      ended.push_back(r->actor()->str() + " " + r->name()->str() + " #" +
                      std::to_string(r->id()));
    }
    if (const auto* p = sc->change_as_PendingClosed()) {
      ended.push_back("pending #" + std::to_string(p->id()) + " " + p->outcome()->str());
    }
  }
  EXPECT_EQ(ended, (std::vector<std::string>{"zealot Blessed #1", "pending #1 lapsed",
                                             "archer Shaken #2"}));
  EXPECT_TRUE(next.state().pending.empty());
  EXPECT_FALSE(next.state().Find("zealot")->Has("Blessed"));
  EXPECT_TRUE(next.state().Find("archer")->Has("Dazzled")) << "another anchor stays";
}

}  // namespace
}  // namespace combat::kernel
