// Tests of the store's snapshot cache, checksum verification and WAL sync
// against a real RocksDB in a temp dir.
#include <stdlib.h>

#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "events/codec.h"
#include "events/events_generated.h"
#include "events/hash.h"
#include "gtest/gtest.h"
#include "rocksdb/db.h"
#include "store/event_log.h"
#include "store/testing/events.h"
#include "tests/testing/temp_dir.h"

namespace combat::store {
namespace {

using events::Digest;
using events::EventBuffer;

using TempDir = ::combat::testing::TempDir;  // a fresh dir, removed at the end

EventBuffer MakeEvent(const std::string& session, const std::string& branch,
                      uint64_t seq, const Digest& prev) {
  return TestRulingEvent(session, branch, seq, prev, absl::StrCat("r", seq));
}

std::vector<uint8_t> Bytes(const std::string& s) {
  return std::vector<uint8_t>(s.begin(), s.end());
}

class SnapshotTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto log = EventLog::Open(dir_.db());
    ASSERT_TRUE(log.ok()) << log.status();
    log_ = *std::move(log);
    SessionMeta meta{"s1", "toy", 1, "t"};
    ASSERT_TRUE(log_->CreateSession(meta, std::vector<uint8_t>(32, 1)).ok());
  }

  void AppendN(const std::string& branch, int n) {
    auto head = log_->GetHead("s1", branch);
    ASSERT_TRUE(head.ok()) << head.status();
    std::vector<EventBuffer> batch;
    Digest prev = head->hash;
    for (int i = 0; i < n; ++i) {
      batch.push_back(MakeEvent("s1", branch, head->seq + 1 + i, prev));
      prev = batch.back().hash();
    }
    auto r = log_->Append("s1", branch, head->seq,
                          absl::StrCat("c", next_command_++), batch);
    ASSERT_TRUE(r.ok()) << r.status();
  }

  std::optional<Snapshot> Nearest(const std::string& branch, uint64_t seq,
                                  int32_t version = 1) {
    auto s = log_->NearestSnapshot("s1", branch, seq, version);
    EXPECT_TRUE(s.ok()) << s.status();
    return s.ok() ? *s : std::nullopt;
  }

  TempDir dir_;
  std::unique_ptr<EventLog> log_;
  int next_command_ = 1;
};

TEST_F(SnapshotTest, NearestAtOrBelowTheSeqForTheVersion) {
  AppendN("main", 10);
  EXPECT_FALSE(Nearest("main", 10).has_value());
  ASSERT_TRUE(log_->PutSnapshot("s1", "main", 4, 1, Bytes("four")).ok());
  ASSERT_TRUE(log_->PutSnapshot("s1", "main", 8, 1, Bytes("eight")).ok());
  ASSERT_TRUE(log_->PutSnapshot("s1", "main", 6, 2, Bytes("six v2")).ok());

  EXPECT_FALSE(Nearest("main", 3).has_value());
  auto s = Nearest("main", 7);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->seq, 4u);
  EXPECT_EQ(s->branch, "main");
  EXPECT_EQ(s->ruleset_version, 1);
  EXPECT_EQ(s->state, Bytes("four"));
  EXPECT_EQ(Nearest("main", 8)->seq, 8u);
  EXPECT_EQ(Nearest("main", 0)->seq, 8u) << "0 means the head";
  // Another ruleset version never answers.
  EXPECT_EQ(Nearest("main", 10, 2)->state, Bytes("six v2"));
  EXPECT_FALSE(Nearest("main", 5, 2).has_value());
  EXPECT_FALSE(Nearest("main", 10, 3).has_value());
  // Overwrite in place.
  ASSERT_TRUE(log_->PutSnapshot("s1", "main", 8, 1, Bytes("EIGHT")).ok());
  EXPECT_EQ(Nearest("main", 9)->state, Bytes("EIGHT"));
  auto n = log_->CountSnapshots("s1");
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, 3u);
}

TEST_F(SnapshotTest, BeyondTheHeadIsOutOfRange) {
  AppendN("main", 3);
  EXPECT_EQ(log_->PutSnapshot("s1", "main", 4, 1, Bytes("x")).code(),
            absl::StatusCode::kOutOfRange);
  EXPECT_EQ(log_->PutSnapshot("s1", "main", 0, 1, Bytes("x")).code(),
            absl::StatusCode::kOutOfRange);
  EXPECT_EQ(log_->PutSnapshot("s1", "nope", 1, 1, Bytes("x")).code(),
            absl::StatusCode::kNotFound);
}

TEST_F(SnapshotTest, ForksShareTheirPrefixSnapshots) {
  AppendN("main", 10);
  ASSERT_TRUE(log_->PutSnapshot("s1", "main", 3, 1, Bytes("main3")).ok());
  ASSERT_TRUE(log_->PutSnapshot("s1", "main", 9, 1, Bytes("main9")).ok());
  ASSERT_TRUE(log_->Fork("s1", "main", 6, "alt", "gm", "what if").ok());
  AppendN("alt", 6);  // alt: main 1..6, own 7..12
  // The parent's seq 9 is not in alt's history.
  EXPECT_EQ(Nearest("alt", 12)->state, Bytes("main3"));
  // A snapshot put through the fork at a shared seq lands on the parent.
  ASSERT_TRUE(log_->PutSnapshot("s1", "alt", 5, 1, Bytes("shared5")).ok());
  EXPECT_EQ(Nearest("main", 5)->state, Bytes("shared5"));
  EXPECT_EQ(Nearest("main", 5)->branch, "main");
  ASSERT_TRUE(log_->PutSnapshot("s1", "alt", 8, 1, Bytes("alt8")).ok());
  EXPECT_EQ(Nearest("alt", 12)->state, Bytes("alt8"));
  EXPECT_EQ(Nearest("alt", 12)->branch, "alt");
  EXPECT_EQ(Nearest("alt", 7)->state, Bytes("shared5"));
  EXPECT_EQ(Nearest("main", 10)->state, Bytes("main9"));
  // A fork of the fork, below alt's own fork point.
  ASSERT_TRUE(log_->Fork("s1", "alt", 4, "deep", "gm", "").ok());
  AppendN("deep", 2);
  EXPECT_EQ(Nearest("deep", 6)->state, Bytes("main3"));
}

TEST_F(SnapshotTest, DamagedSnapshotRecordIsDataLoss) {
  AppendN("main", 3);
  ASSERT_TRUE(log_->PutSnapshot("s1", "main", 2, 1, Bytes("two")).ok());
  log_.reset();
  {
    rocksdb::DB* raw = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(rocksdb::Options(), dir_.db(), &raw).ok());
    std::unique_ptr<rocksdb::DB> db(raw);
    std::string key = std::string("n\0s1\0main\0", 10);
    key.append(std::string("\0\0\0\1", 4));
    for (int shift = 56; shift >= 0; shift -= 8) {
      key.push_back(static_cast<char>((2ull >> shift) & 0xff));
    }
    std::string value;
    ASSERT_TRUE(db->Get(rocksdb::ReadOptions(), key, &value).ok())
        << "the documented key layout";
    value.pop_back();
    ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), key, value).ok());
  }
  auto log = EventLog::Open(dir_.db());
  ASSERT_TRUE(log.ok());
  log_ = *std::move(log);
  auto s = log_->NearestSnapshot("s1", "main", 3, 1);
  EXPECT_EQ(s.status().code(), absl::StatusCode::kDataLoss) << s.status();
}

TEST_F(SnapshotTest, ChecksumsAndSync) {
  AppendN("main", 5);
  EXPECT_TRUE(log_->SyncWal().ok());
  EXPECT_TRUE(log_->VerifyChecksums().ok());
}

}  // namespace
}  // namespace combat::store
