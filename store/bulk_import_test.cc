// EventLog::ImportSession (store/bulk_import.h): a whole session in one
// ingested table file; reads back exactly as the per-command path would
// have written it, and writes nothing when any check fails.
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
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
                      uint64_t seq, const Digest& prev,
                      const std::string& command) {
  return TestRulingEvent(session, branch, seq, prev, absl::StrCat("r", seq), command);
}

// Events after (seq `after`, hash `prev`), one command per entry of
// `commands` with that many events: {"c1", 3} = three events of "c1".
std::vector<EventBuffer> Chain(
    const std::string& session, const std::string& branch, uint64_t after,
    Digest prev, const std::vector<std::pair<std::string, int>>& commands) {
  std::vector<EventBuffer> out;
  uint64_t seq = after;
  for (const auto& [id, n] : commands) {
    for (int i = 0; i < n; ++i) {
      out.push_back(MakeEvent(session, branch, ++seq, prev, id));
      prev = out.back().hash();
    }
  }
  return out;
}

SessionMeta Meta(const std::string& session) {
  SessionMeta meta;
  meta.session = session;
  meta.ruleset = "d20_three_action";
  meta.ruleset_version = 3;
  meta.title = "Goblin ambush";
  return meta;
}

const std::vector<uint8_t> kSeed = {1, 2, 3, 4, 5, 6, 7, 8};

ImportBranch Branch(const std::string& session, const std::string& name,
                    const std::string& parent, uint64_t fork_seq,
                    const std::vector<EventBuffer>* own) {
  ImportBranch b;
  b.meta.session = session;
  b.meta.branch = name;
  b.meta.parent = parent;
  b.meta.fork_seq = fork_seq;
  b.meta.author = "gm";
  b.meta.reason = parent.empty() ? "" : "what if";
  b.own = own;
  return b;
}

std::vector<std::vector<uint8_t>> Bytes(const std::vector<EventBuffer>& v) {
  std::vector<std::vector<uint8_t>> out;
  for (const EventBuffer& e : v) out.push_back(e.bytes());
  return out;
}

class BulkImportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto log = EventLog::Open(dir_.db());
    ASSERT_TRUE(log.ok()) << log.status();
    log_ = *std::move(log);
    main_ = Chain("s1", "main", 0, Digest{}, {{"c1", 3}, {"c2", 3}, {"c3", 4}});
    alt_ = Chain("s1", "alt", 5, main_[4].hash(), {{"a1", 2}, {"c3", 2}});
  }

  std::vector<ImportBranch> Branches() {
    return {Branch("s1", "main", "", 0, &main_),
            Branch("s1", "alt", "main", 5, &alt_),
            Branch("s1", "bare", "alt", 3, &none_)};
  }

  void ExpectNothingWritten() {
    EXPECT_EQ(log_->GetSession("s1").status().code(),
              absl::StatusCode::kNotFound);
    auto sessions = log_->ListSessions();
    ASSERT_TRUE(sessions.ok());
    EXPECT_TRUE(sessions->empty());
    EXPECT_FALSE(std::filesystem::exists(dir_.db() + "/bulk-import.sst.tmp"));
  }

  TempDir dir_;
  std::unique_ptr<EventLog> log_;
  std::vector<EventBuffer> main_, alt_, none_;
};

TEST_F(BulkImportTest, ReadsBackAsAppended) {
  auto n = log_->ImportSession(Meta("s1"), kSeed, Branches());
  ASSERT_TRUE(n.ok()) << n.status();
  EXPECT_EQ(*n, 14u);

  // Reopened: what was ingested is on disk.
  log_.reset();
  auto reopened = EventLog::Open(dir_.db());
  ASSERT_TRUE(reopened.ok()) << reopened.status();
  log_ = *std::move(reopened);

  auto meta = log_->GetSession("s1");
  ASSERT_TRUE(meta.ok()) << meta.status();
  EXPECT_EQ(meta->title, "Goblin ambush");
  EXPECT_EQ(*log_->GetSecret("s1"), kSeed);
  auto branches = log_->ListBranches("s1");
  ASSERT_TRUE(branches.ok());
  ASSERT_EQ(branches->size(), 3u);
  EXPECT_EQ((*branches)[0].branch, "alt");
  EXPECT_EQ((*branches)[0].parent, "main");
  EXPECT_EQ((*branches)[0].fork_seq, 5u);
  EXPECT_EQ((*branches)[0].reason, "what if");

  auto head = log_->GetHead("s1", "main");
  ASSERT_TRUE(head.ok());
  EXPECT_EQ(head->seq, 10u);
  EXPECT_EQ(head->hash, main_.back().hash());
  head = log_->GetHead("s1", "alt");
  ASSERT_TRUE(head.ok());
  EXPECT_EQ(head->seq, 9u);
  EXPECT_EQ(head->hash, alt_.back().hash());
  head = log_->GetHead("s1", "bare");  // a fork with no events of its own
  ASSERT_TRUE(head.ok());
  EXPECT_EQ(head->seq, 3u);
  EXPECT_EQ(head->hash, main_[2].hash());

  auto main = log_->Read("s1", "main");
  ASSERT_TRUE(main.ok()) << main.status();
  EXPECT_EQ(Bytes(*main), Bytes(main_));
  auto alt = log_->Read("s1", "alt");
  ASSERT_TRUE(alt.ok()) << alt.status();
  std::vector<EventBuffer> want(main_.begin(), main_.begin() + 5);
  want.insert(want.end(), alt_.begin(), alt_.end());
  EXPECT_EQ(Bytes(*alt), Bytes(want));
  auto bare = log_->Read("s1", "bare");
  ASSERT_TRUE(bare.ok()) << bare.status();
  EXPECT_EQ(bare->size(), 3u);

  // Command markers, through the ancestry as Append writes them.
  auto c2 = log_->FindCommand("s1", "main", "c2");
  ASSERT_TRUE(c2.ok() && c2->has_value());
  EXPECT_EQ((*c2)->first_seq, 4u);
  EXPECT_EQ((*c2)->last_seq, 6u);
  auto c1 = log_->FindCommand("s1", "alt", "c1");
  ASSERT_TRUE(c1.ok() && c1->has_value());
  EXPECT_EQ((*c1)->last_seq, 3u);
  auto c3 = log_->FindCommand("s1", "alt", "c3");  // alt's own, not main's
  ASSERT_TRUE(c3.ok() && c3->has_value());
  EXPECT_EQ((*c3)->first_seq, 8u);

  // Appends carry on from the imported heads; retries are duplicates.
  auto more = Chain("s1", "main", 10, main_.back().hash(), {{"c4", 2}});
  auto r = log_->Append("s1", "main", 10, "c4", more);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->last_seq, 12u);
  r = log_->Append("s1", "main", 12, "c2", more);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->duplicate);
  EXPECT_TRUE(log_->VerifyChecksums().ok());
}

TEST_F(BulkImportTest, AlongsideOtherSessions) {
  for (const std::string s : {"a", "z"}) {
    ASSERT_TRUE(log_->CreateSession(Meta(s), kSeed).ok());
    auto events = Chain(s, "main", 0, Digest{}, {{"x", 4}});
    ASSERT_TRUE(log_->Append(s, "main", 0, "x", events).ok());
  }
  auto n = log_->ImportSession(Meta("s1"), kSeed, Branches());
  ASSERT_TRUE(n.ok()) << n.status();
  for (const std::string s : {"a", "s1", "z"}) {
    auto events = log_->Read(s, "main");
    ASSERT_TRUE(events.ok()) << s << ": " << events.status();
    EXPECT_EQ(events->size(), s == "s1" ? 10u : 4u);
  }
}

TEST_F(BulkImportTest, AnExistingSessionIsRefused) {
  ASSERT_TRUE(log_->CreateSession(Meta("s1"), kSeed).ok());
  EXPECT_EQ(log_->ImportSession(Meta("s1"), kSeed, Branches()).status().code(),
            absl::StatusCode::kAlreadyExists);
}

TEST_F(BulkImportTest, ABrokenChainWritesNothing) {
  // Event 7 of main points at the wrong predecessor.
  main_[6] = MakeEvent("s1", "main", 7, main_[4].hash(), "c3");
  auto n = log_->ImportSession(Meta("s1"), kSeed, Branches());
  ASSERT_EQ(n.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(n.status().message(), "branch main seq 7"))
      << n.status();
  ExpectNothingWritten();
}

TEST_F(BulkImportTest, AForkChainMustStartAtTheForkEvent) {
  alt_ = Chain("s1", "alt", 5, main_[3].hash(), {{"a1", 2}});
  auto n = log_->ImportSession(Meta("s1"), kSeed, Branches());
  ASSERT_EQ(n.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(n.status().message(), "branch alt seq 6"))
      << n.status();
  ExpectNothingWritten();
}

TEST_F(BulkImportTest, ARepeatedCommandIdWritesNothing) {
  // c1 again after c2 on main; and on alt, main's c2 (inside the prefix).
  main_ = Chain("s1", "main", 0, Digest{}, {{"c1", 3}, {"c2", 3}, {"c1", 4}});
  auto n = log_->ImportSession(Meta("s1"), kSeed,
                               {Branch("s1", "main", "", 0, &main_)});
  ASSERT_EQ(n.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(n.status().message(),
                                "command id c1 is already in the branch's "
                                "history"))
      << n.status();
  main_ = Chain("s1", "main", 0, Digest{}, {{"c1", 3}, {"c2", 3}, {"c3", 4}});
  alt_ = Chain("s1", "alt", 7, main_[6].hash(), {{"c2", 1}});
  n = log_->ImportSession(Meta("s1"), kSeed,
                          {Branch("s1", "main", "", 0, &main_),
                           Branch("s1", "alt", "main", 7, &alt_)});
  ASSERT_EQ(n.status().code(), absl::StatusCode::kInvalidArgument) << n.status();
  EXPECT_TRUE(absl::StrContains(n.status().message(), "branch alt seq 8"))
      << n.status();
  ExpectNothingWritten();
}

TEST_F(BulkImportTest, BranchStructureIsChecked) {
  // A parent after its child.
  auto n = log_->ImportSession(Meta("s1"), kSeed,
                               {Branch("s1", "main", "", 0, &main_),
                                Branch("s1", "bare", "alt", 3, &none_),
                                Branch("s1", "alt", "main", 5, &alt_)});
  EXPECT_EQ(n.status().code(), absl::StatusCode::kInvalidArgument);
  // A fork beyond the parent's head.
  n = log_->ImportSession(Meta("s1"), kSeed,
                          {Branch("s1", "main", "", 0, &main_),
                           Branch("s1", "far", "main", 11, &none_)});
  EXPECT_EQ(n.status().code(), absl::StatusCode::kOutOfRange);
  // Main must come first; ids must be valid.
  n = log_->ImportSession(Meta("s1"), kSeed,
                          {Branch("s1", "alt", "main", 5, &alt_)});
  EXPECT_EQ(n.status().code(), absl::StatusCode::kInvalidArgument);
  n = log_->ImportSession(Meta("s1"), kSeed,
                          {Branch("s1", "main", "", 0, &main_),
                           Branch("s1", "no way", "main", 5, &none_)});
  EXPECT_EQ(n.status().code(), absl::StatusCode::kInvalidArgument);
  ExpectNothingWritten();
}

TEST_F(BulkImportTest, EventsMustNameTheirBranch) {
  std::vector<EventBuffer> wrong =
      Chain("s1", "other", 0, Digest{}, {{"c1", 2}});
  auto n = log_->ImportSession(Meta("s1"), kSeed,
                               {Branch("s1", "main", "", 0, &wrong)});
  ASSERT_EQ(n.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(n.status().message(), "branch 'other'"))
      << n.status();
  ExpectNothingWritten();
}

// ---- Long scans (View::ScanOwn reads them in a second thread) -----------

// The documented key of event `seq` (event_log.h, "Layout").
std::string EventKey(const std::string& session, const std::string& branch,
                     uint64_t seq) {
  std::string key = std::string("e", 1) + '\0' + session + '\0' + branch + '\0';
  for (int shift = 56; shift >= 0; shift -= 8) {
    key.push_back(static_cast<char>((seq >> shift) & 0xff));
  }
  return key;
}

// A raw write or delete (the log closed), as damage would be.
void Raw(const std::string& db_path, const std::string& key,
         const std::optional<std::string>& value) {
  rocksdb::Options options;
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(options, db_path, &raw);
  ASSERT_TRUE(s.ok()) << s.ToString();
  std::unique_ptr<rocksdb::DB> db(raw);
  s = value ? db->Put(rocksdb::WriteOptions(), key, *value)
            : db->Delete(rocksdb::WriteOptions(), key);
  ASSERT_TRUE(s.ok()) << s.ToString();
}

class LongScanTest : public ::testing::Test {
 protected:
  static constexpr uint64_t kEvents = 12000;

  void SetUp() override {
    std::vector<std::pair<std::string, int>> commands;
    for (uint64_t i = 0; i < kEvents / 4; ++i) {
      commands.emplace_back(absl::StrCat("c", i), 4);
    }
    main_ = Chain("s1", "main", 0, Digest{}, commands);
    alt_ = Chain("s1", "alt", 9000, main_[8999].hash(), {{"a", 5000}});
    Reopen();
    auto n = log_->ImportSession(Meta("s1"), kSeed,
                                 {Branch("s1", "main", "", 0, &main_),
                                  Branch("s1", "alt", "main", 9000, &alt_)});
    ASSERT_TRUE(n.ok()) << n.status();
  }

  void Reopen() {
    log_.reset();
    auto log = EventLog::Open(dir_.db());
    ASSERT_TRUE(log.ok()) << log.status();
    log_ = *std::move(log);
  }

  void Damage(uint64_t seq, const std::optional<std::string>& value) {
    log_.reset();
    Raw(dir_.db(), EventKey("s1", "main", seq), value);
    Reopen();
  }

  // Scans `branch` from..to, counting events; the status.
  absl::Status Scan(const std::string& branch, uint64_t from, uint64_t to,
                    uint64_t* seen) {
    *seen = 0;
    uint64_t want = from;
    return log_->Scan("s1", branch, from, to,
                      [&](const EventBuffer& e) -> absl::Status {
                        if (e.event().seq() != want++) {
                          return absl::InternalError("out of order");
                        }
                        ++*seen;
                        return absl::OkStatus();
                      });
  }

  TempDir dir_;
  std::unique_ptr<EventLog> log_;
  std::vector<EventBuffer> main_, alt_;
};

TEST_F(LongScanTest, ReadsEveryEventInOrder) {
  uint64_t seen = 0;
  ASSERT_TRUE(Scan("main", 1, 0, &seen).ok());
  EXPECT_EQ(seen, kEvents);
  ASSERT_TRUE(Scan("main", 17, 11111, &seen).ok());
  EXPECT_EQ(seen, 11111u - 17 + 1);
  ASSERT_TRUE(Scan("alt", 1, 0, &seen).ok());  // 9000 shared + 5000 own
  EXPECT_EQ(seen, 14000u);
  auto all = log_->Read("s1", "main");
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(Bytes(*all), Bytes(main_));
}

TEST_F(LongScanTest, TheVisitorsErrorStopsTheScan) {
  uint64_t seen = 0;
  absl::Status s = log_->Scan("s1", "main", 1, 0,
                              [&](const EventBuffer& e) -> absl::Status {
                                if (e.event().seq() == 7000) {
                                  return absl::CancelledError("enough");
                                }
                                ++seen;
                                return absl::OkStatus();
                              });
  EXPECT_EQ(s, absl::CancelledError("enough"));
  EXPECT_EQ(seen, 6999u);
}

TEST_F(LongScanTest, AnAlteredEventBreaksTheChainAfterIt) {
  // Same seq, session, branch and prev_hash, other bytes (the reason).
  fb::EventT e;
  main_[5999].event().UnPackTo(&e);
  e.body.AsStateChange()->change.AsRuling()->reason = "forged";
  std::vector<uint8_t> bytes = events::EncodeEvent(e);
  Damage(6000, std::string(bytes.begin(), bytes.end()));
  uint64_t seen = 0;
  absl::Status s = Scan("main", 1, 0, &seen);
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss);
  EXPECT_TRUE(absl::StrContains(s.message(), "branch main seq 6001: prev_hash"))
      << s;
  EXPECT_EQ(seen, 6000u);
  // Through the fork's shared prefix too.
  s = Scan("alt", 1, 0, &seen);
  EXPECT_TRUE(absl::StrContains(
      s.message(), "seq 6001 (shared prefix of branch alt): prev_hash"))
      << s;
}

TEST_F(LongScanTest, AMissingOrMalformedEventIsNamed) {
  Damage(5000, std::nullopt);
  uint64_t seen = 0;
  absl::Status s = Scan("main", 1, 0, &seen);
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss);
  EXPECT_TRUE(absl::StrContains(s.message(), "branch main seq 5000: event missing"))
      << s;
  EXPECT_EQ(seen, 4999u);

  Damage(5000, std::string("garbage, not an event"));
  s = Scan("main", 2, 0, &seen);
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss);
  EXPECT_TRUE(absl::StrContains(s.message(), "branch main seq 5000: not an event"))
      << s;
  EXPECT_EQ(seen, 4998u);

  Damage(5000, std::nullopt);  // and the tail: nothing from 11990 on
  for (uint64_t seq = 11990; seq <= kEvents; ++seq) {
    log_.reset();
    Raw(dir_.db(), EventKey("s1", "main", seq), std::nullopt);
  }
  Reopen();
  s = Scan("main", 6000, 0, &seen);
  EXPECT_TRUE(absl::StrContains(s.message(), "seq 11990: event missing")) << s;
  EXPECT_EQ(seen, 11990u - 6000);
}

// A long scan's reader thread hands the events over in batches of 512
// (store/view.cc BatchQueue): damage at a batch's edge is still named, and
// the link between two batches is checked like any other.
TEST_F(LongScanTest, DamageAtABatchEdgeIsNamed) {
  Damage(4097, std::nullopt);  // the first seq of the ninth batch
  uint64_t seen = 0;
  absl::Status s = Scan("main", 1, 0, &seen);
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss);
  EXPECT_TRUE(absl::StrContains(
      s.message(), "branch main seq 4097: event missing (the next stored event is seq 4098)"))
      << s;
  EXPECT_EQ(seen, 4096u);

  // The last event of the fourth batch altered: the link to the fifth
  // batch's first event breaks.
  fb::EventT e;
  main_[2047].event().UnPackTo(&e);
  e.body.AsStateChange()->change.AsRuling()->reason = "forged";
  std::vector<uint8_t> bytes = events::EncodeEvent(e);
  Damage(4097, std::string(main_[4096].bytes().begin(), main_[4096].bytes().end()));
  Damage(2048, std::string(bytes.begin(), bytes.end()));
  s = Scan("main", 1, 0, &seen);
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss);
  EXPECT_TRUE(absl::StrContains(s.message(), "branch main seq 2049: prev_hash"))
      << s;
  EXPECT_EQ(seen, 2048u);
}

TEST_F(LongScanTest, TheVisitorsErrorAtABatchEdgeStopsTheScan) {
  for (uint64_t stop : {2048u, 2049u, 12000u}) {
    uint64_t seen = 0;
    absl::Status s = log_->Scan("s1", "main", 1, 0,
                                [&](const EventBuffer& e) -> absl::Status {
                                  if (e.event().seq() == stop) {
                                    return absl::CancelledError("enough");
                                  }
                                  ++seen;
                                  return absl::OkStatus();
                                });
    EXPECT_EQ(s, absl::CancelledError("enough"));
    EXPECT_EQ(seen, stop - 1);
  }
}

// A flipped byte in the table file's data is an error naming the branch
// and the seq the read reached, never a shorter log.
TEST_F(LongScanTest, AFlippedByteInTheTableIsAnError) {
  log_.reset();
  std::string table;
  std::error_code ec;
  for (const auto& f : std::filesystem::directory_iterator(dir_.db(), ec)) {
    if (f.path().extension() == ".sst" &&
        (table.empty() || f.file_size() > std::filesystem::file_size(table))) {
      table = f.path().string();
    }
  }
  ASSERT_FALSE(table.empty());
  {
    std::fstream file(table, std::ios::in | std::ios::out | std::ios::binary);
    ASSERT_TRUE(file.good());
    const auto size = std::filesystem::file_size(table);
    file.seekg(static_cast<std::streamoff>(size * 2 / 3));  // in main's events
    char c = 0;
    file.read(&c, 1);
    c = static_cast<char>(c ^ 0x10);
    file.seekp(static_cast<std::streamoff>(size * 2 / 3));
    file.write(&c, 1);
    ASSERT_TRUE(file.good());
  }
  auto log = EventLog::Open(dir_.db());
  ASSERT_TRUE(log.ok()) << log.status();
  log_ = *std::move(log);
  uint64_t seen = 0;
  absl::Status s = Scan("main", 1, 0, &seen);
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), "session s1 branch main")) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), absl::StrCat("seq ", seen + 1)))
      << s;
  EXPECT_GT(seen, 0u);
  EXPECT_LT(seen, kEvents);
}

}  // namespace
}  // namespace combat::store
