// store/command_markers.h over a real RocksDB log: intact branches and
// forks (one cut inside a command) pass; a deleted or altered marker is
// named.
#include "store/command_markers.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "events/codec.h"
#include "events/hash.h"
#include "events/events_generated.h"
#include "gtest/gtest.h"
#include "rocksdb/db.h"
#include "store/event_log.h"
#include "store/testing/events.h"
#include "tests/testing/temp_dir.h"

namespace combat::store {
namespace {

using events::EventBuffer;

class CommandMarkers : public ::testing::Test {
 protected:
  void SetUp() override {
    Reopen();
    SessionMeta meta;
    meta.session = "s1";
    meta.ruleset = "d20_three_action";
    meta.ruleset_version = 1;
    ASSERT_TRUE(log_->CreateSession(meta, {1, 2, 3}).ok());
    for (int c = 1; c <= 4; ++c) Apply("main", absl::StrCat("c", c), c);  // 10 events
  }
  void Reopen() {
    log_.reset();
    auto log = EventLog::Open(dir_.db());
    ASSERT_TRUE(log.ok()) << log.status();
    log_ = *std::move(log);
  }
  // Appends command `id` with `n` events on `branch`.
  void Apply(const std::string& branch, const std::string& id, int n) {
    auto head = log_->GetHead("s1", branch);
    ASSERT_TRUE(head.ok()) << head.status();
    std::vector<EventBuffer> events;
    events::Digest prev = head->hash;
    for (int i = 0; i < n; ++i) {
      events.push_back(
          TestRulingEvent("s1", branch, head->seq + 1 + i, prev, absl::StrCat(id, "/", i), id));
      prev = events.back().hash();
    }
    ASSERT_TRUE(log_->Append("s1", branch, head->seq, id, events).ok());
  }
  // Writes or deletes a raw key with the log closed; reopens it.
  void Raw(const std::string& key, const std::string* value) {
    log_.reset();
    rocksdb::DB* raw = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(rocksdb::Options(), dir_.db(), &raw).ok());
    std::unique_ptr<rocksdb::DB> db(raw);
    rocksdb::WriteOptions w;
    w.sync = true;
    if (value != nullptr) {
      ASSERT_TRUE(db->Put(w, key, *value).ok());
    } else {
      ASSERT_TRUE(db->Delete(w, key).ok());
    }
    ASSERT_TRUE(db->Close().ok());
    db.reset();
    Reopen();
  }
  static std::string MarkerKey(const std::string& branch, const std::string& id) {
    return std::string("c", 1) + '\0' + "s1" + '\0' + branch + '\0' + id;
  }
  testing::TempDir dir_{"command_markers"};
  std::unique_ptr<EventLog> log_;
};

TEST_F(CommandMarkers, IntactBranchesAndForksPass) {
  // c1 = 1, c2 = 2..3, c3 = 4..6, c4 = 7..10. "cut" forks inside c3.
  ASSERT_TRUE(log_->Fork("s1", "main", 5, "cut", "gm", "what if").ok());
  Apply("cut", "c3", 2);  // c3 was cut by the fork point: applied again here
  Apply("cut", "c9", 1);
  ASSERT_TRUE(log_->Fork("s1", "cut", 8, "deep", "gm", "fork of a fork").ok());
  Apply("deep", "d1", 3);
  // A fork of a fork inside a command of the grandparent, with no events of
  // its own and none of its parent's: every seq is main's.
  ASSERT_TRUE(log_->Fork("s1", "cut", 5, "bare", "gm", "no events of its own").ok());
  for (const char* b : {"main", "cut", "deep", "bare"}) {
    absl::Status s = CheckCommandMarkers(*log_, "s1", b);
    EXPECT_TRUE(s.ok()) << b << ": " << s;
  }
}

TEST_F(CommandMarkers, DeletedMarkerIsNamed) {
  Raw(MarkerKey("main", "c3"), nullptr);
  absl::Status s = CheckCommandMarkers(*log_, "s1", "main");
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), "command c3: events seq 4..6")) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), "marker is missing")) << s;
}

TEST_F(CommandMarkers, DeletedMarkerIsNamedFromAFork) {
  ASSERT_TRUE(log_->Fork("s1", "main", 8, "alt", "gm", "why").ok());
  Apply("alt", "a1", 2);
  EXPECT_TRUE(CheckCommandMarkers(*log_, "s1", "alt").ok());
  Raw(MarkerKey("main", "c2"), nullptr);
  absl::Status s = CheckCommandMarkers(*log_, "s1", "alt");
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), "branch main command c2")) << s;
}

TEST_F(CommandMarkers, MarkerNamingOtherSeqsIsNamed) {
  std::string range;
  for (uint64_t v : {uint64_t{4}, uint64_t{5}}) {
    for (int shift = 56; shift >= 0; shift -= 8) range.push_back(static_cast<char>((v >> shift) & 0xff));
  }
  Raw(MarkerKey("main", "c3"), &range);
  absl::Status s = CheckCommandMarkers(*log_, "s1", "main");
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), "marker names seqs 4..5")) << s;
}

TEST_F(CommandMarkers, IncrementalUseMatchesTheScan) {
  auto head = log_->GetHead("s1", "main");
  ASSERT_TRUE(head.ok());
  auto check = CommandMarkerCheck::Start(*log_, "s1", "main", head->seq);
  ASSERT_TRUE(check.ok()) << check.status();
  auto events = log_->Read("s1", "main");
  ASSERT_TRUE(events.ok());
  for (const auto& e : *events) ASSERT_TRUE(check->Visit(e).ok());
  EXPECT_TRUE(check->Finish().ok());
  EXPECT_FALSE(check->Visit((*events)[0]).ok()) << "an event past the head";
}

}  // namespace
}  // namespace combat::store
