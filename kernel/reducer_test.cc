#include "kernel/reducer.h"

#include <vector>

#include "events/codec.h"
#include "gtest/gtest.h"
#include "kernel/state_codec.h"

namespace combat::kernel {
namespace {

// Builds events by hand, the way a damaged or hostile log could hold them.
class ReducerTest : public ::testing::Test {
 protected:
  events::EventBuffer Make(fb::ChangeUnion change, uint64_t seq = 0) {
    fb::EventT e;
    e.session = "s";
    e.branch = branch_;
    e.seq = seq == 0 ? ++seq_ : seq;
    fb::StateChangeT sc;
    sc.rule = "test";
    sc.change = std::move(change);
    e.body.Set(std::move(sc));
    auto buf = events::EventBuffer::FromOwned(events::EncodeEvent(e), "test");
    EXPECT_TRUE(buf.ok());
    return std::move(*buf);
  }

  template <typename T>
  static fb::ChangeUnion U(T t) {
    fb::ChangeUnion u;
    u.Set(std::move(t));
    return u;
  }

  void StartWith(const std::string& id) {
    fb::SessionStartedT s;
    s.session = "s";
    s.ruleset = "test";
    ASSERT_TRUE(Apply(Make(U(s)).event(), state_).ok());
    fb::CombatantJoinedT j;
    j.spec = std::make_unique<fb::CombatantSpecT>();
    j.spec->id = id;
    j.spec->at = std::make_unique<fb::Pos>(2, 3);
    ASSERT_TRUE(Apply(Make(U(std::move(j))).event(), state_).ok());
  }

  uint64_t seq_ = 0;
  std::string branch_ = "main";
  State state_;
};

// A fork record (schema v6) names its own branch and a parent, follows its
// fork point, names its author, and changes nothing but the seq.
TEST_F(ReducerTest, AForkRecordIsCheckedAgainstItsPlace) {
  fb::SessionStartedT s;
  s.session = "s";
  s.ruleset = "test";
  s.schema_version = 6;
  ASSERT_TRUE(Apply(Make(U(s)).event(), state_).ok());
  branch_ = "alt";
  fb::BranchForkedT f;
  f.branch = "alt";
  f.parent = "main";
  f.fork_seq = 1;
  f.author = "dana";
  f.reason = "why not";
  const State before = state_;
  State ok = state_;
  ASSERT_TRUE(Apply(Make(U(f), 2).event(), ok).ok());
  EXPECT_EQ(ok.seq, 2u);
  ok.seq = before.seq;
  EXPECT_EQ(EncodeState(ok), EncodeState(before));

  const auto refused = [&](fb::BranchForkedT bad, const char* field) {
    State st = state_;
    absl::Status r = Apply(Make(U(std::move(bad)), 2).event(), st);
    EXPECT_EQ(r.code(), absl::StatusCode::kDataLoss) << field;
    EXPECT_NE(r.message().find(field), absl::string_view::npos) << r.message();
  };
  fb::BranchForkedT other = f;
  other.branch = "main";
  refused(other, "branch_forked.branch");
  other = f;
  other.parent = "alt";
  refused(other, "branch_forked.parent");
  other = f;
  other.fork_seq = 0;
  refused(other, "branch_forked.fork_seq");
  other = f;
  other.author.clear();
  refused(other, "branch_forked.author");

  // Not in a session of an earlier schema.
  State v5;
  branch_ = "main";
  s.schema_version = 5;
  ASSERT_TRUE(Apply(Make(U(s), 1).event(), v5).ok());
  branch_ = "alt";
  absl::Status r = Apply(Make(U(f), 2).event(), v5);
  EXPECT_EQ(r.code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(r.message().find("schema 5"), absl::string_view::npos) << r.message();
}

TEST_F(ReducerTest, FirstChangeMustStartTheSession) {
  fb::RoundStartedT r;
  r.round = 1;
  absl::Status st = Apply(Make(U(r)).event(), state_);
  EXPECT_EQ(st.code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(st.message().find("SessionStarted"), absl::string_view::npos);
}

TEST_F(ReducerTest, SeqMustFollow) {
  StartWith("aria");
  fb::RoundStartedT r;
  r.round = 1;
  absl::Status st = Apply(Make(U(r), 7).event(), state_);
  EXPECT_EQ(st.code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(st.message().find("event seq 7"), absl::string_view::npos) << st;
}

TEST_F(ReducerTest, ResourceArithmeticIsChecked) {
  StartWith("aria");
  fb::ResourceSetT set;
  set.actor = "aria";
  set.name = "hp";
  set.value = 10;
  ASSERT_TRUE(Apply(Make(U(set)).event(), state_).ok());
  fb::ResourceChangedT bad;
  bad.actor = "aria";
  bad.name = "hp";
  bad.delta = -3;
  bad.value = 8;  // 10 - 3 is 7
  const std::vector<uint8_t> before = EncodeState(state_);
  absl::Status st = Apply(Make(U(bad)).event(), state_);
  EXPECT_EQ(st.code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(st.message().find("resource hp"), absl::string_view::npos) << st;
  EXPECT_EQ(EncodeState(state_), before) << "a refused event changed state";
  fb::ResourceChangedT good = bad;
  good.value = 7;
  --seq_;
  ASSERT_TRUE(Apply(Make(U(good)).event(), state_).ok());
  EXPECT_EQ(state_.Find("aria")->Resource("hp"), 7);
}

TEST_F(ReducerTest, UnknownCombatantIsRefused) {
  StartWith("aria");
  fb::ResourceSetT set;
  set.actor = "nobody";
  set.name = "hp";
  absl::Status st = Apply(Make(U(set)).event(), state_);
  EXPECT_EQ(st.code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(st.message().find("nobody"), absl::string_view::npos);
}

TEST_F(ReducerTest, ParentConditionCannotGoBeforeItsDaughter) {
  StartWith("aria");
  fb::ConditionAddedT parent;
  parent.id = 1;
  parent.actor = "aria";
  parent.name = "Restrained";
  ASSERT_TRUE(Apply(Make(U(parent)).event(), state_).ok());
  fb::ConditionAddedT daughter;
  daughter.id = 2;
  daughter.actor = "aria";
  daughter.name = "Exposed";
  daughter.parent = 1;
  ASSERT_TRUE(Apply(Make(U(daughter)).event(), state_).ok());
  fb::ConditionRemovedT remove;
  remove.id = 1;
  remove.actor = "aria";
  remove.name = "Restrained";
  EXPECT_EQ(Apply(Make(U(remove)).event(), state_).code(),
            absl::StatusCode::kDataLoss);
  --seq_;
  fb::ConditionRemovedT first;
  first.id = 2;
  first.actor = "aria";
  first.name = "Exposed";
  ASSERT_TRUE(Apply(Make(U(first)).event(), state_).ok());
  ASSERT_TRUE(Apply(Make(U(remove)).event(), state_).ok());
  EXPECT_TRUE(state_.Find("aria")->conditions.empty());
}

TEST_F(ReducerTest, TurnsTrackWhoActed) {
  StartWith("aria");
  fb::RoundStartedT r;
  r.round = 1;
  ASSERT_TRUE(Apply(Make(U(r)).event(), state_).ok());
  fb::TurnStartedT t;
  t.actor = "aria";
  ASSERT_TRUE(Apply(Make(U(t)).event(), state_).ok());
  EXPECT_EQ(state_.active, "aria");
  EXPECT_EQ(Apply(Make(U(t)).event(), state_).code(), absl::StatusCode::kDataLoss)
      << "a second turn cannot start before the first ends";
  --seq_;
  fb::TurnEndedT e;
  e.actor = "aria";
  ASSERT_TRUE(Apply(Make(U(e)).event(), state_).ok());
  EXPECT_EQ(state_.active, "");
  EXPECT_EQ(state_.acted, std::vector<std::string>{"aria"});
  fb::RoundStartedT r2;
  r2.round = 2;
  ASSERT_TRUE(Apply(Make(U(r2)).event(), state_).ok());
  EXPECT_TRUE(state_.acted.empty());
}

TEST_F(ReducerTest, MovedMustStartWhereTheCombatantStands) {
  StartWith("aria");
  fb::MovedT m;
  m.actor = "aria";
  m.from = std::make_unique<fb::Pos>(0, 0);
  m.to = std::make_unique<fb::Pos>(1, 1);
  EXPECT_EQ(Apply(Make(U(std::move(m))).event(), state_).code(),
            absl::StatusCode::kDataLoss);
}

TEST_F(ReducerTest, SameEventsGiveByteIdenticalState) {
  StartWith("aria");
  State again;
  seq_ = 0;
  fb::SessionStartedT s;
  s.session = "s";
  s.ruleset = "test";
  ASSERT_TRUE(Apply(Make(U(s)).event(), again).ok());
  fb::CombatantJoinedT j;
  j.spec = std::make_unique<fb::CombatantSpecT>();
  j.spec->id = "aria";
  j.spec->at = std::make_unique<fb::Pos>(2, 3);
  ASSERT_TRUE(Apply(Make(U(std::move(j))).event(), again).ok());
  EXPECT_EQ(EncodeState(again), EncodeState(state_));
  EXPECT_EQ(StateHash(again), StateHash(state_));
}

// A roll's dice are checked one by one: numbered in sequence, each value
// on its die, a GM override only with a reason. A refused roll changes
// nothing; an accepted one moves the numbering past its dice.
events::EventBuffer MakeRoll(uint64_t seq, std::vector<fb::DieT> dice, std::string reason) {
  fb::EventT e;
  e.session = "s";
  e.branch = "main";
  e.seq = seq;
  fb::RollT roll;
  roll.purpose = "attack";
  roll.roller = "aria";
  roll.reason = std::move(reason);
  for (fb::DieT& d : dice) roll.dice.push_back(std::make_unique<fb::DieT>(d));
  e.body.Set(std::move(roll));
  auto buf = events::EventBuffer::FromOwned(events::EncodeEvent(e), "test");
  EXPECT_TRUE(buf.ok());
  return std::move(*buf);
}

fb::DieT Die(int32_t faces, int32_t value, int64_t index,
             fb::Provenance p = fb::Provenance::Seeded) {
  fb::DieT d;
  d.faces = faces;
  d.value = value;
  d.index = index;
  d.provenance = p;
  return d;
}

TEST_F(ReducerTest, RollsAreCheckedDieByDie) {
  StartWith("aria");
  struct Bad {
    std::vector<fb::DieT> dice;
    std::string reason, message;
  };
  const fb::Provenance gm = fb::Provenance::GmOverride;
  const std::vector<Bad> bad = {
      {{Die(6, 7, 0)}, "", "roll.dice.value: 7 on a d6"},
      {{Die(6, 0, 0)}, "", "roll.dice.value: 0 on a d6"},
      {{Die(0, 1, 0)}, "", "roll.dice.value: 1 on a d0"},
      {{Die(-2, -3, 0)}, "", "roll.dice.value: -3 on a d-2"},
      {{Die(20, 20, 0), Die(6, 7, 1)}, "", "roll.dice.value: 7 on a d6"},
      {{Die(20, 5, 1)}, "", "roll.dice.index: expected 0, got 1"},
      {{Die(20, 5, 0), Die(20, 5, 0)}, "", "roll.dice.index: expected 1, got 0"},
      {{Die(20, 5, 0), Die(20, 5, 1, gm)}, "", "roll.reason: a GM override needs a reason"},
  };
  for (const Bad& b : bad) {
    absl::Status st = Apply(MakeRoll(state_.seq + 1, b.dice, b.reason).event(), state_);
    EXPECT_EQ(st.code(), absl::StatusCode::kDataLoss) << b.message;
    EXPECT_NE(st.message().find(b.message), absl::string_view::npos) << st;
    EXPECT_EQ(state_.next_roll_index, 0) << "a refused roll numbers nothing: " << b.message;
  }
  const uint64_t seq = state_.seq;
  ASSERT_TRUE(Apply(MakeRoll(seq + 1, {Die(20, 1, 0), Die(20, 20, 1, gm), Die(1, 1, 2)},
                             "the table agreed")
                        .event(),
                    state_)
                  .ok());
  EXPECT_EQ(state_.next_roll_index, 3);
  EXPECT_EQ(state_.seq, seq + 1);
}

}  // namespace
}  // namespace combat::kernel
