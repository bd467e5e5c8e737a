#include "kernel/fold.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "events/codec.h"
#include "gtest/gtest.h"
#include "kernel/reducer.h"
#include "kernel/state_codec.h"

namespace combat::kernel {
namespace {

// A log built by hand: a session, two creatures, resource changes (the
// batch fold's hot path), a condition, and whatever a test appends.
class FoldTest : public ::testing::Test {
 protected:
  // The session's first event: SessionStarted of session "s", ruleset "test".
  void StartSession() {
    fb::SessionStartedT s;
    s.session = "s";
    s.ruleset = "test";
    Add(s);
  }

  template <typename T>
  void Add(T change) {
    fb::EventT e;
    e.session = "s";
    e.branch = "main";
    e.seq = log_.size() + 1;
    fb::StateChangeT sc;
    sc.rule = "test";
    sc.change.Set(std::move(change));
    e.body.Set(std::move(sc));
    auto buf = events::EventBuffer::FromOwned(events::EncodeEvent(e), "test");
    ASSERT_TRUE(buf.ok()) << buf.status();
    log_.push_back(std::move(*buf));
  }

  void Set(const std::string& who, const std::string& name, int64_t value) {
    fb::ResourceSetT r;
    r.actor = who;
    r.name = name;
    r.value = value;
    Add(r);
  }
  void Changed(const std::string& who, const std::string& name, int64_t delta,
               int64_t value) {
    fb::ResourceChangedT r;
    r.actor = who;
    r.name = name;
    r.delta = delta;
    r.value = value;
    Add(r);
  }

  // Visits log_'s events 1..upto: the prefix a void re-derives from.
  PrefixScan Prefix() const {
    return [this](uint64_t upto, const EventVisitor& visit) -> absl::Status {
      for (const events::EventBuffer& e : log_) {
        if (e.event().seq() > upto) break;
        absl::Status st = visit(e.event());
        if (!st.ok()) return st;
      }
      return absl::OkStatus();
    };
  }

  // The fold one event at a time (ApplyEvent): the reference.
  // The log folded by the batch fold, once it is checked to fold without
  // error, and to the same state byte for byte, as one event at a time.
  State FoldedBothWays() const {
    State batch, single;
    const PrefixScan prefix = Prefix();
    EXPECT_TRUE(FoldEvents(log_, batch, &prefix).ok());
    EXPECT_TRUE(OneAtATime(log_, single).ok());
    EXPECT_EQ(EncodeState(batch), EncodeState(single));
    return batch;
  }

  absl::Status OneAtATime(absl::Span<const events::EventBuffer> events, State& s) const {
    const PrefixScan prefix = Prefix();
    for (const events::EventBuffer& e : events) {
      absl::Status st = ApplyEvent(e.event(), s, &prefix);
      if (!st.ok()) return st;
    }
    return absl::OkStatus();
  }

  std::vector<events::EventBuffer> log_;
};

TEST_F(FoldTest, BatchEqualsOneAtATime) {
  StartSession();
  for (const char* id : {"aria", "goblin_with_a_long_id", "ogre"}) {
    fb::CombatantJoinedT j;
    j.spec = std::make_unique<fb::CombatantSpecT>();
    j.spec->id = id;
    Add(std::move(j));
  }
  Set("aria", "actions", 3);
  Set("goblin_with_a_long_id", "hit_points_of_the_goblin", 7);
  Set("ogre", "hp", 30);
  for (int round = 0; round < 3; ++round) {
    Changed("aria", "actions", -1, 2 - round);
    Changed("goblin_with_a_long_id", "hit_points_of_the_goblin", -2, 5 - 2 * round);
    Changed("ogre", "hp", -3, 27 - 3 * round);
    Changed("ogre", "new_counter", 1, round + 1);  // first one creates it
  }
  fb::ConditionAddedT c;
  c.id = 1;
  c.actor = "ogre";
  c.name = "prone";
  Add(c);

  const State batch = FoldedBothWays();
  EXPECT_EQ(batch.seq, log_.size());
  EXPECT_EQ(batch.Find("ogre")->Resource("new_counter"), 3);
  EXPECT_EQ(batch.Find("goblin_with_a_long_id")->Resource("hit_points_of_the_goblin"), 1);

  // In two runs (as replay splits at a snapshot) it is the same fold.
  const PrefixScan prefix = Prefix();
  State halves;
  absl::Span<const events::EventBuffer> all(log_);
  ASSERT_TRUE(FoldEvents(all.first(9), halves, &prefix).ok());
  ASSERT_TRUE(FoldEvents(all.subspan(9), halves, &prefix).ok());
  EXPECT_EQ(EncodeState(halves), EncodeState(batch));
}

// A run long enough for the reducer's resource memo (reducer.cc: from 128
// events): every resource change there is checked and applied as one at a
// time, whatever the lengths of the ids and names (1 to 20 bytes, 16 is
// the memo's longest), the pools beside them, and a refusal in the middle.
TEST_F(FoldTest, ALongRunEqualsOneAtATime) {
  StartSession();
  const std::vector<std::string> ids = {"a", "ab", "abc", "abcd", "hero0", "hero1",
                                        "goblin_7", "goblin_17", "sixteen_bytes_id",
                                        "seventeen_bytes_i", "a_twenty_byte_id_xyz"};
  const std::vector<std::string> names = {"hp", "ap", "actions", "reactions",
                                          "hit_points_16_by", "a_long_resource_name"};
  for (const std::string& id : ids) {
    fb::CombatantJoinedT j;
    j.spec = std::make_unique<fb::CombatantSpecT>();
    j.spec->id = id;
    Add(std::move(j));
  }
  std::map<std::pair<std::string, std::string>, int64_t> values;
  int64_t pool = 0;
  for (int i = 0; log_.size() < 400; ++i) {
    const std::string& id = ids[(i * 7) % ids.size()];
    const std::string& name = names[(i * 5) % names.size()];
    int64_t& v = values[{id, name}];  // 0 until set: the first change creates it
    if (i % 9 == 0) {
      v = 10 + i % 4;
      Set(id, name, v);
    } else {
      const int64_t delta = (i % 3) - 1;  // 0 too: value may be the default
      v += delta;
      Changed(id, name, delta, v);
    }
    if (i % 13 == 0) {
      fb::ResourceChangedT p;
      p.pool = "session";
      p.name = "momentum";
      p.delta = 1;
      p.value = ++pool;
      Add(p);
    }
  }
  const State batch = FoldedBothWays();
  EXPECT_EQ(batch.seq, log_.size());
  EXPECT_EQ(batch.Pool("session", "momentum"), pool);
  for (const auto& [key, v] : values) {
    EXPECT_EQ(batch.Find(key.first)->Resource(key.second), v) << key.first << " " << key.second;
  }

  // A wrong value late in a long run: refused as one at a time refuses it,
  // nothing of it applied.
  const int64_t hp = values[{"hero0", "hp"}];
  Changed("hero0", "hp", -1, hp - 2);
  for (int i = 0; i < 5; ++i) Changed("hero0", "hp", 0, hp);
  State refused;
  const PrefixScan prefix = Prefix();
  absl::Status st = FoldEvents(log_, refused, &prefix);
  EXPECT_EQ(st.code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(st.message().find(absl::StrCat("event seq ", log_.size() - 5, ": resource hp: ", hp,
                                           " + -1 is not ", hp - 2)),
            absl::string_view::npos)
      << st;
  EXPECT_EQ(refused.seq, log_.size() - 6);
  EXPECT_EQ(EncodeState(refused), EncodeState(batch));
}

// A window opened after one closed reuses its node: its ids and kind are
// the new event's, whatever the old ones were (equal, a prefix, one byte
// off, longer than 16 bytes), and so are a reused condition's fields.
TEST_F(FoldTest, ReusedNodesTakeTheNewValues) {
  StartSession();
  for (const char* id : {"a", "ab"}) {
    fb::CombatantJoinedT j;
    j.spec = std::make_unique<fb::CombatantSpecT>();
    j.spec->id = id;
    Add(std::move(j));
  }
  const std::vector<std::vector<std::string>> lists = {
      {"ab", "abc", "hero0", "sixteen_bytes_id", "a_name_of_twenty_b"},
      {"ab", "abd", "hero", "sixteen_bytes_ie", "a_name_of_twenty_c", "x"},
      {"a", "", "hero0\x01", "sixteen_bytes_id"},
      {}};
  uint32_t id = 0;
  for (const auto& eligible : lists) {
    fb::WindowOpenedT w;
    w.id = ++id;
    w.kind = eligible.empty() ? "k" : eligible[0];
    w.eligible = eligible;
    Add(w);
    fb::ConditionAddedT c;
    c.id = id;
    c.actor = id % 2 == 1 ? "a" : "ab";
    c.name = eligible.size() > 1 ? eligible[1] : "prone";
    c.note = eligible.size() > 3 ? eligible[3] : "";
    Add(c);
    State batch;
    const PrefixScan prefix = Prefix();
    ASSERT_TRUE(FoldEvents(log_, batch, &prefix).ok());
    ASSERT_EQ(batch.windows.size(), 1u);
    EXPECT_EQ(batch.windows.begin()->second.eligible, eligible);
    EXPECT_EQ(batch.windows.begin()->second.kind, w.kind);
    const Condition* cond = batch.Find(c.actor)->FindCondition(c.name);
    ASSERT_NE(cond, nullptr) << c.name;
    EXPECT_EQ(cond->note, c.note);
    fb::WindowClosedT closed;
    closed.id = id;
    Add(closed);
    fb::ConditionRemovedT r;
    r.id = id;
    r.actor = c.actor;
    r.name = c.name;
    Add(r);
  }
}

// OrderSet rewrites the order in place: every entry and member is the new
// event's; one naming an unknown creature changes nothing.
TEST_F(FoldTest, OrderSetReplacesTheWholeOrder) {
  StartSession();
  for (const char* id : {"a", "rider", "mount", "a_long_creature_id_x"}) {
    fb::CombatantJoinedT j;
    j.spec = std::make_unique<fb::CombatantSpecT>();
    j.spec->id = id;
    Add(std::move(j));
  }
  const auto order = [](std::vector<std::pair<std::string, std::vector<std::string>>> es) {
    fb::OrderSetT o;
    int64_t init = 10;
    for (auto& [actor, members] : es) {
      auto e = std::make_unique<fb::OrderEntryT>();
      e->actor = actor;
      e->initiative = init--;
      e->delayed = init % 2 == 0;
      e->members = members;
      o.entries.push_back(std::move(e));
    }
    return o;
  };
  Add(order({{"rider", {"mount", "a_long_creature_id_x"}}, {"a", {}}, {"mount", {}}}));
  Add(order({{"a_long_creature_id_x", {}}, {"rider", {"mount"}}}));
  State batch;
  const PrefixScan prefix = Prefix();
  ASSERT_TRUE(FoldEvents(log_, batch, &prefix).ok());
  ASSERT_EQ(batch.order.size(), 2u);
  EXPECT_EQ(batch.order[0].actor, "a_long_creature_id_x");
  EXPECT_TRUE(batch.order[0].members.empty());
  EXPECT_EQ(batch.order[0].initiative, 10);
  EXPECT_EQ(batch.order[1].actor, "rider");
  EXPECT_EQ(batch.order[1].members, std::vector<std::string>{"mount"});
  EXPECT_EQ(batch.order[1].initiative, 9);
  EXPECT_TRUE(batch.order[1].delayed);

  const State before = batch;
  Add(order({{"a", {}}, {"rider", {"nobody"}}}));
  absl::Status st = FoldEvents(absl::Span<const events::EventBuffer>(log_).last(1), batch, &prefix);
  EXPECT_NE(st.message().find("order.members: no combatant 'nobody'"), absl::string_view::npos)
      << st;
  EXPECT_EQ(EncodeState(batch), EncodeState(before));
}

// A Voided event in the run re-derives the state without its target (and
// what the target caused), as ApplyEvent does; the run goes on after it.
TEST_F(FoldTest, AVoidInTheRunReDerives) {
  StartSession();
  fb::CombatantJoinedT j;
  j.spec = std::make_unique<fb::CombatantSpecT>();
  j.spec->id = "aria";
  Add(std::move(j));
  Set("aria", "hp", 10);
  Changed("aria", "hp", -4, 6);  // seq 4: voided below
  Changed("aria", "hp", -1, 5);
  fb::VoidedT v;
  v.target = 4;
  Add(v);
  Changed("aria", "hp", -2, 7);  // decided on the re-derived state (9 - 2)

  const State batch = FoldedBothWays();
  EXPECT_EQ(batch.voided, std::vector<uint64_t>{4});
  EXPECT_EQ(batch.Find("aria")->Resource("hp"), 7);

  // Without the branch's events a void cannot be re-derived: the error is
  // ApplyEvent's, and the state holds the events before the void.
  State alone;
  absl::Status st = FoldEvents(log_, alone, nullptr);
  EXPECT_EQ(st.code(), absl::StatusCode::kFailedPrecondition) << st;
  EXPECT_NE(st.message().find("event seq 6"), absl::string_view::npos) << st;
  EXPECT_EQ(alone.seq, 5u);
}

// The first refused event stops the run: its error names its seq and
// field, and the state holds exactly the events before it.
TEST_F(FoldTest, TheFirstRefusalStopsTheRun) {
  StartSession();
  fb::CombatantJoinedT j;
  j.spec = std::make_unique<fb::CombatantSpecT>();
  j.spec->id = "aria";
  Add(std::move(j));
  Set("aria", "hp", 10);
  Changed("aria", "hp", -4, 6);
  Changed("aria", "hp", -1, 4);  // seq 5: 6 - 1 is not 4
  Changed("aria", "hp", -1, 4);  // after seq 5 re-derived: 5 - 1
  Changed("nobody", "hp", -1, 3);

  State batch, before;
  const PrefixScan prefix = Prefix();
  absl::Status st = FoldEvents(log_, batch, &prefix);
  EXPECT_EQ(st.code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(st.message().find("event seq 5: resource hp: 6 + -1 is not 4"),
            absl::string_view::npos)
      << st;
  ASSERT_TRUE(OneAtATime(absl::Span<const events::EventBuffer>(log_).first(4), before).ok());
  EXPECT_EQ(batch.seq, 4u);
  EXPECT_EQ(EncodeState(batch), EncodeState(before));

  // An unknown combatant, and a seq that does not follow, as Apply says.
  State from6 = before;
  ASSERT_TRUE(Apply(log_[4].event(), from6, Mode::kRederive).ok());
  absl::Span<const events::EventBuffer> rest(log_);
  st = FoldEvents(rest.subspan(5), from6, &prefix);
  EXPECT_NE(st.message().find("event seq 7: actor: no combatant 'nobody'"),
            absl::string_view::npos)
      << st;
  EXPECT_EQ(from6.seq, 6u);
  st = FoldEvents(rest.subspan(3), from6, &prefix);
  EXPECT_NE(st.message().find("event seq 4: seq: expected 7"), absl::string_view::npos) << st;
}

// ApplyRun (reducer.h) stops before a Voided event without an error.
TEST_F(FoldTest, ApplyRunStopsBeforeAVoid) {
  StartSession();
  fb::VoidedT v;
  v.target = 1;
  Add(v);
  State state;
  absl::Status error;
  EXPECT_EQ(ApplyRun(log_, state, error), 1u);
  EXPECT_TRUE(error.ok()) << error;
  EXPECT_EQ(state.seq, 1u);
  EXPECT_TRUE(state.voided.empty());
}

}  // namespace
}  // namespace combat::kernel
