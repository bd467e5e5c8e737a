#include "store/event_log.h"

#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <system_error>
#include <thread>
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
#include "store/testing/acked.h"
#include "store/testing/events.h"
#include "tests/testing/temp_dir.h"

extern char** environ;

namespace combat::store {
namespace {

using events::Digest;
using events::EventBuffer;

// ---- helpers ---------------------------------------------------------------

// A fresh directory under the test's temp dir, removed at destruction.
using TempDir = ::combat::testing::TempDir;  // a fresh dir, removed at the end

// One event in the shape the kernel writes: a StateChange carrying a Ruling.
EventBuffer MakeEvent(const std::string& session, const std::string& branch,
                      uint64_t seq, const Digest& prev,
                      const std::string& reason = "r") {
  return TestRulingEvent(session, branch, seq, prev, reason);
}

// `n` events chained after (seq `after`, hash `prev`).
std::vector<EventBuffer> Chain(const std::string& session,
                               const std::string& branch, uint64_t after,
                               const Digest& prev, int n,
                               const std::string& reason = "r") {
  std::vector<EventBuffer> out;
  Digest hash = prev;
  for (int i = 0; i < n; ++i) {
    out.push_back(MakeEvent(session, branch, after + 1 + i, hash,
                            absl::StrCat(reason, after + 1 + i)));
    hash = out.back().hash();
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

// The documented key of event `seq` (event_log.h, "Layout"), built by hand
// so the tests pin the on-disk layout.
std::string EventKey(const std::string& session, const std::string& branch,
                     uint64_t seq) {
  std::string key = std::string("e", 1) + '\0' + session + '\0' + branch + '\0';
  for (int shift = 56; shift >= 0; shift -= 8) {
    key.push_back(static_cast<char>((seq >> shift) & 0xff));
  }
  return key;
}

// Writes `value` under `key` with a raw RocksDB handle (the log is closed).
void RawPut(const std::string& db_path, const std::string& key,
            const std::string& value) {
  rocksdb::Options options;
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(options, db_path, &raw);
  ASSERT_TRUE(s.ok()) << s.ToString();
  std::unique_ptr<rocksdb::DB> db(raw);
  s = db->Put(rocksdb::WriteOptions(), key, value);
  ASSERT_TRUE(s.ok()) << s.ToString();
}

void RawDelete(const std::string& db_path, const std::string& key) {
  rocksdb::Options options;
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(options, db_path, &raw);
  ASSERT_TRUE(s.ok()) << s.ToString();
  std::unique_ptr<rocksdb::DB> db(raw);
  s = db->Delete(rocksdb::WriteOptions(), key);
  ASSERT_TRUE(s.ok()) << s.ToString();
}

std::vector<std::vector<uint8_t>> Bytes(const std::vector<EventBuffer>& v) {
  std::vector<std::vector<uint8_t>> out;
  for (const EventBuffer& e : v) out.push_back(e.bytes());
  return out;
}

// A log with session "s1" created; tests open and close it at will.
class EventLogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Reopen();
    ASSERT_TRUE(log_->CreateSession(Meta("s1"), kSeed).ok());
  }

  void Reopen(Options options = {}) {
    log_.reset();
    absl::StatusOr<std::unique_ptr<EventLog>> log =
        EventLog::Open(dir_.db(), options);
    ASSERT_TRUE(log.ok()) << log.status();
    log_ = *std::move(log);
  }

  // Appends `n` chained events to `branch` as command `command_id`.
  std::vector<EventBuffer> AppendN(const std::string& branch, int n,
                                   const std::string& command_id) {
    absl::StatusOr<Head> head = log_->GetHead("s1", branch);
    EXPECT_TRUE(head.ok()) << head.status();
    std::vector<EventBuffer> batch =
        Chain("s1", branch, head->seq, head->hash, n, command_id);
    absl::StatusOr<AppendResult> r =
        log_->Append("s1", branch, head->seq, command_id, batch);
    EXPECT_TRUE(r.ok()) << r.status();
    EXPECT_FALSE(r->duplicate);
    return batch;
  }

  std::vector<EventBuffer> ReadAll(const std::string& branch) {
    absl::StatusOr<std::vector<EventBuffer>> events = log_->Read("s1", branch);
    EXPECT_TRUE(events.ok()) << events.status();
    return events.ok() ? *std::move(events) : std::vector<EventBuffer>();
  }

  // Checks that a refused append left `branch` exactly as it was.
  void ExpectUnchanged(const std::string& branch, const Head& before,
                       const std::string& command_id) {
    absl::StatusOr<Head> head = log_->GetHead("s1", branch);
    ASSERT_TRUE(head.ok()) << head.status();
    EXPECT_EQ(head->seq, before.seq);
    EXPECT_EQ(head->hash, before.hash);
    absl::StatusOr<std::optional<AppendResult>> cmd =
        log_->FindCommand("s1", branch, command_id);
    ASSERT_TRUE(cmd.ok()) << cmd.status();
    EXPECT_FALSE(cmd->has_value());
    EXPECT_EQ(ReadAll(branch).size(), before.seq);
  }

  TempDir dir_;
  std::unique_ptr<EventLog> log_;
};

// ---- ids -------------------------------------------------------------------

TEST(ValidIdTest, AcceptsTheDocumentedAlphabetOnly) {
  EXPECT_TRUE(ValidId("s1"));
  EXPECT_TRUE(ValidId("A-z_0.9:x"));
  EXPECT_TRUE(ValidId(std::string(64, 'a')));
  EXPECT_FALSE(ValidId(""));
  EXPECT_FALSE(ValidId(std::string(65, 'a')));
  EXPECT_FALSE(ValidId("a b"));
  EXPECT_FALSE(ValidId("a/b"));
  EXPECT_FALSE(ValidId(std::string("a\0b", 3)));
  EXPECT_FALSE(ValidId("é"));
}

TEST_F(EventLogTest, InvalidIdsAreInvalidArgument) {
  EXPECT_EQ(log_->CreateSession(Meta("bad id"), kSeed).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(log_->GetHead("s1", "").status().code(),
            absl::StatusCode::kInvalidArgument);
  auto batch = Chain("s1", "main", 0, Digest{}, 1);
  EXPECT_EQ(log_->Append("s1", "main", 0, "cmd\n", batch).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(log_->Fork("s1", "main", 1, "a/b", "gm", "why").code(),
            absl::StatusCode::kInvalidArgument);
}

// ---- sessions, append, read ------------------------------------------------

TEST_F(EventLogTest, CreateSessionAppendAndRead) {
  absl::StatusOr<SessionMeta> meta = log_->GetSession("s1");
  ASSERT_TRUE(meta.ok()) << meta.status();
  EXPECT_EQ(meta->session, "s1");
  EXPECT_EQ(meta->ruleset, "d20_three_action");
  EXPECT_EQ(meta->ruleset_version, 3);
  EXPECT_EQ(meta->title, "Goblin ambush");
  absl::StatusOr<std::vector<uint8_t>> secret = log_->GetSecret("s1");
  ASSERT_TRUE(secret.ok()) << secret.status();
  EXPECT_EQ(*secret, kSeed);

  absl::StatusOr<BranchMeta> main = log_->GetBranch("s1", "main");
  ASSERT_TRUE(main.ok()) << main.status();
  EXPECT_EQ(main->parent, "");
  EXPECT_EQ(main->fork_seq, 0u);
  absl::StatusOr<Head> head = log_->GetHead("s1", "main");
  ASSERT_TRUE(head.ok()) << head.status();
  EXPECT_EQ(head->seq, 0u);
  EXPECT_EQ(head->hash, Digest{});
  EXPECT_TRUE(ReadAll("main").empty());

  // The first event's prev_hash is 32 zero bytes.
  std::vector<EventBuffer> first = Chain("s1", "main", 0, Digest{}, 3, "a");
  absl::StatusOr<AppendResult> r = log_->Append("s1", "main", 0, "c1", first);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->first_seq, 1u);
  EXPECT_EQ(r->last_seq, 3u);
  EXPECT_FALSE(r->duplicate);
  std::vector<EventBuffer> second = Chain("s1", "main", 3, first[2].hash(), 2);
  r = log_->Append("s1", "main", 3, "c2", second);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->first_seq, 4u);
  EXPECT_EQ(r->last_seq, 5u);

  head = log_->GetHead("s1", "main");
  ASSERT_TRUE(head.ok());
  EXPECT_EQ(head->seq, 5u);
  EXPECT_EQ(head->hash, second[1].hash());

  std::vector<EventBuffer> all = first;
  all.insert(all.end(), second.begin(), second.end());
  EXPECT_EQ(Bytes(ReadAll("main")), Bytes(all));

  absl::StatusOr<std::vector<EventBuffer>> mid = log_->Read("s1", "main", 2, 4);
  ASSERT_TRUE(mid.ok()) << mid.status();
  ASSERT_EQ(mid->size(), 3u);
  EXPECT_EQ((*mid)[0].event().seq(), 2u);
  EXPECT_EQ((*mid)[2].event().seq(), 4u);

  absl::StatusOr<std::optional<AppendResult>> c1 =
      log_->FindCommand("s1", "main", "c1");
  ASSERT_TRUE(c1.ok()) << c1.status();
  ASSERT_TRUE(c1->has_value());
  EXPECT_EQ((*c1)->first_seq, 1u);
  EXPECT_EQ((*c1)->last_seq, 3u);
  absl::StatusOr<std::optional<AppendResult>> none =
      log_->FindCommand("s1", "main", "nope");
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
}

TEST_F(EventLogTest, CreateSessionTwiceIsAlreadyExists) {
  absl::Status s = log_->CreateSession(Meta("s1"), kSeed);
  EXPECT_EQ(s.code(), absl::StatusCode::kAlreadyExists) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), "s1")) << s;
}

TEST_F(EventLogTest, UnknownSessionOrBranchIsNotFound) {
  absl::Status s = log_->GetSession("nope").status();
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
  s = log_->GetHead("s1", "nope").status();
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
  EXPECT_TRUE(absl::StrContains(s.message(), "branch nope")) << s;
  s = log_->GetHead("nope", "main").status();
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
  EXPECT_TRUE(absl::StrContains(s.message(), "session nope")) << s;
  auto batch = Chain("s1", "x", 0, Digest{}, 1);
  EXPECT_EQ(log_->Append("s1", "x", 0, "c", batch).status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(log_->Read("s1", "x").status().code(), absl::StatusCode::kNotFound);
}

TEST_F(EventLogTest, ScanRangeBeyondHeadIsOutOfRange) {
  AppendN("main", 3, "c1");
  absl::StatusOr<std::vector<EventBuffer>> r = log_->Read("s1", "main", 1, 4);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kOutOfRange) << r.status();
  r = log_->Read("s1", "main", 0, 2);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  r = log_->Read("s1", "main", 4, 0);  // just past the head: nothing
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->empty());
}

TEST_F(EventLogTest, ScanStopsOnVisitorError) {
  AppendN("main", 5, "c1");
  std::vector<uint64_t> seen;
  absl::Status s = log_->Scan("s1", "main", 1, 0,
                              [&seen](const EventBuffer& e) -> absl::Status {
                                seen.push_back(e.event().seq());
                                if (e.event().seq() == 3) {
                                  return absl::CancelledError("enough");
                                }
                                return absl::OkStatus();
                              });
  EXPECT_EQ(s.code(), absl::StatusCode::kCancelled);
  EXPECT_EQ(s.message(), "enough");
  EXPECT_EQ(seen, (std::vector<uint64_t>{1, 2, 3}));
}

// A reporter that writes down each broken link and reads past it (or
// stops with `stop` when set).
class RecordingReporter : public ScanReporter {
 public:
  absl::Status Report(const BrokenLink& link, const EventBuffer& event) override {
    links.push_back(link);
    EXPECT_EQ(event.event().seq(), link.seq);
    return stop;
  }
  std::vector<BrokenLink> links;
  absl::Status stop;
};

TEST_F(EventLogTest, BrokenLinkStopsAScanUnlessAReporterReadsPastIt) {
  const std::vector<EventBuffer> written = AppendN("main", 5, "c1");
  // Event 3 rewritten (same seq and prev_hash, other content): the link
  // from 3 to 4 is broken; the head (event 5) is intact.
  const EventBuffer altered = MakeEvent("s1", "main", 3, written[1].hash(), "x");
  log_.reset();
  RawPut(dir_.db(), EventKey("s1", "main", 3),
         std::string(altered.bytes().begin(), altered.bytes().end()));
  Reopen();
  std::vector<uint64_t> seen;
  const auto visit = [&seen](const EventBuffer& e) {
    seen.push_back(e.event().seq());
    // Each visited buffer carries the hash of its bytes.
    EXPECT_EQ(e.hash(), events::Sha256(e.bytes()));
    return absl::OkStatus();
  };
  // No reporter: DataLoss at the later event of the link.
  absl::Status plain = log_->Scan("s1", "main", 1, 0, visit);
  EXPECT_EQ(plain.code(), absl::StatusCode::kDataLoss) << plain;
  EXPECT_TRUE(absl::StrContains(plain.message(), "seq 4")) << plain;
  EXPECT_TRUE(absl::StrContains(plain.message(), "chain is broken")) << plain;
  EXPECT_EQ(seen, (std::vector<uint64_t>{1, 2, 3}));
  // A reporter that reads past: every event visited, the link reported.
  seen.clear();
  RecordingReporter past;
  ASSERT_TRUE(log_->Scan("s1", "main", 1, 0, visit, &past).ok());
  EXPECT_EQ(seen, (std::vector<uint64_t>{1, 2, 3, 4, 5}));
  ASSERT_EQ(past.links.size(), 1u);
  EXPECT_EQ(past.links[0].seq, 4u);
  EXPECT_EQ(past.links[0].expected, altered.hash());
  EXPECT_EQ(past.links[0].refusal.message(), plain.message());
  // A reporter that stops: its error, nothing visited past the link.
  seen.clear();
  RecordingReporter stop;
  stop.stop = absl::AbortedError("stop here");
  absl::Status stopped = log_->Scan("s1", "main", 1, 0, visit, &stop);
  EXPECT_EQ(stopped.code(), absl::StatusCode::kAborted) << stopped;
  EXPECT_EQ(seen, (std::vector<uint64_t>{1, 2, 3}));
  // Other damage is not the reporter's: a missing event stops every scan.
  log_.reset();
  RawDelete(dir_.db(), EventKey("s1", "main", 2));
  Reopen();
  RecordingReporter none;
  absl::Status missing = log_->Scan("s1", "main", 1, 0, visit, &none);
  EXPECT_EQ(missing.code(), absl::StatusCode::kDataLoss) << missing;
  EXPECT_TRUE(none.links.empty());
}

// ---- optimistic concurrency and idempotency --------------------------------

TEST_F(EventLogTest, StaleWriterIsAbortedAndNothingWritten) {
  std::vector<EventBuffer> first = AppendN("main", 2, "c1");
  Head before = *log_->GetHead("s1", "main");
  // A writer that read the branch at seq 1 (and chains from it correctly).
  std::vector<EventBuffer> stale = Chain("s1", "main", 1, first[0].hash(), 2);
  absl::StatusOr<AppendResult> r = log_->Append("s1", "main", 1, "c2", stale);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kAborted) << r.status();
  EXPECT_TRUE(absl::StrContains(r.status().message(),
                                "expected head seq 1, branch is at 2"))
      << r.status();
  EXPECT_TRUE(absl::StrContains(r.status().message(), "session s1 branch main"))
      << r.status();
  ExpectUnchanged("main", before, "c2");
}

TEST_F(EventLogTest, DuplicateCommandIdIsAppliedOnce) {
  std::vector<EventBuffer> first = AppendN("main", 3, "c1");
  Head before = *log_->GetHead("s1", "main");
  // The retry names the head it saw the first time (now stale); the marker
  // is checked first, so it is reported as a duplicate, not as Aborted.
  std::vector<EventBuffer> retry = Chain("s1", "main", 0, Digest{}, 3, "c1");
  absl::StatusOr<AppendResult> r = log_->Append("s1", "main", 0, "c1", retry);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->duplicate);
  EXPECT_EQ(r->first_seq, 1u);
  EXPECT_EQ(r->last_seq, 3u);
  absl::StatusOr<Head> head = log_->GetHead("s1", "main");
  ASSERT_TRUE(head.ok());
  EXPECT_EQ(head->seq, before.seq);
  EXPECT_EQ(Bytes(ReadAll("main")), Bytes(first));
}

TEST_F(EventLogTest, ConcurrentAppendsAtTheSameHeadOneWins) {
  constexpr int kWriters = 8;
  std::vector<std::vector<EventBuffer>> batches;
  for (int i = 0; i < kWriters; ++i) {
    batches.push_back(
        Chain("s1", "main", 0, Digest{}, 2, absl::StrCat("w", i, "-")));
  }
  std::vector<absl::StatusCode> codes(kWriters);
  std::vector<std::thread> threads;
  for (int i = 0; i < kWriters; ++i) {
    threads.emplace_back([this, i, &batches, &codes] {
      codes[i] =
          log_->Append("s1", "main", 0, absl::StrCat("cmd", i), batches[i])
              .status()
              .code();
    });
  }
  for (std::thread& t : threads) t.join();
  int won = -1;
  for (int i = 0; i < kWriters; ++i) {
    if (codes[i] == absl::StatusCode::kOk) {
      EXPECT_EQ(won, -1) << "two writers won";
      won = i;
    } else {
      EXPECT_EQ(codes[i], absl::StatusCode::kAborted);
    }
  }
  ASSERT_NE(won, -1);
  EXPECT_EQ(Bytes(ReadAll("main")), Bytes(batches[won]));
}

// ---- the chain is checked on append ----------------------------------------

TEST_F(EventLogTest, WrongPrevHashIsRefusedAndNothingWritten) {
  std::vector<EventBuffer> first = AppendN("main", 2, "c1");
  Head before = *log_->GetHead("s1", "main");
  Digest wrong = first[0].hash();  // the hash of seq 1, not of the head
  std::vector<EventBuffer> bad = Chain("s1", "main", 2, wrong, 2);
  absl::StatusOr<AppendResult> r = log_->Append("s1", "main", 2, "c2", bad);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(
      absl::StrContains(r.status().message(), "session s1 branch main seq 3"))
      << r.status();
  EXPECT_TRUE(absl::StrContains(r.status().message(), "prev_hash"))
      << r.status();
  ExpectUnchanged("main", before, "c2");

  // A break inside the batch (second event not chained to the first).
  std::vector<EventBuffer> inner = Chain("s1", "main", 2, before.hash, 1);
  inner.push_back(MakeEvent("s1", "main", 4, before.hash));
  r = log_->Append("s1", "main", 2, "c2", inner);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(r.status().message(), "seq 4")) << r.status();
  ExpectUnchanged("main", before, "c2");
}

TEST_F(EventLogTest, FirstEventMustChainFromZeros) {
  Digest nonzero{};
  nonzero[0] = 1;
  std::vector<EventBuffer> bad = Chain("s1", "main", 0, nonzero, 1);
  absl::StatusOr<AppendResult> r = log_->Append("s1", "main", 0, "c1", bad);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  ExpectUnchanged("main", Head{}, "c1");
}

TEST_F(EventLogTest, SeqGapIsRefusedAndNothingWritten) {
  std::vector<EventBuffer> first = AppendN("main", 2, "c1");
  Head before = *log_->GetHead("s1", "main");
  // Starts at 4 instead of 3.
  std::vector<EventBuffer> gap = Chain("s1", "main", 3, before.hash, 2);
  absl::StatusOr<AppendResult> r = log_->Append("s1", "main", 2, "c2", gap);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(r.status().message(), "has seq 4"))
      << r.status();
  ExpectUnchanged("main", before, "c2");

  // A gap inside the batch: 3 then 5.
  std::vector<EventBuffer> inner = Chain("s1", "main", 2, before.hash, 1);
  inner.push_back(MakeEvent("s1", "main", 5, inner[0].hash()));
  r = log_->Append("s1", "main", 2, "c2", inner);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(r.status().message(), "has seq 5"))
      << r.status();
  ExpectUnchanged("main", before, "c2");
}

TEST_F(EventLogTest, WrongBranchOrSessionFieldIsRefusedAndNothingWritten) {
  ASSERT_TRUE(log_->CreateSession(Meta("s2"), kSeed).ok());
  std::vector<EventBuffer> first = AppendN("main", 1, "c1");
  ASSERT_TRUE(log_->Fork("s1", "main", 1, "alt", "gm", "what if").ok());
  Head before = *log_->GetHead("s1", "main");

  std::vector<EventBuffer> other_branch = Chain("s1", "alt", 1, before.hash, 1);
  absl::StatusOr<AppendResult> r =
      log_->Append("s1", "main", 1, "c2", other_branch);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(r.status().message(), "branch 'alt'"))
      << r.status();
  ExpectUnchanged("main", before, "c2");

  std::vector<EventBuffer> other_session =
      Chain("s2", "main", 1, before.hash, 1);
  r = log_->Append("s1", "main", 1, "c2", other_session);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(r.status().message(), "session 's2'"))
      << r.status();
  ExpectUnchanged("main", before, "c2");
}

TEST_F(EventLogTest, EmptyCommandIsRefused) {
  absl::StatusOr<AppendResult> r = log_->Append("s1", "main", 0, "c1", {});
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  ExpectUnchanged("main", Head{}, "c1");
}

// ---- durability ------------------------------------------------------------

TEST_F(EventLogTest, ReopenKeepsEverything) {
  Reopen(Options{/*sync=*/false, /*create_if_missing=*/true});
  std::vector<EventBuffer> main = AppendN("main", 4, "c1");
  ASSERT_TRUE(log_->Fork("s1", "main", 2, "alt", "gm", "what if").ok());
  std::vector<EventBuffer> alt = AppendN("alt", 2, "c2");
  ASSERT_TRUE(log_->CreateSession(Meta("s2"), {9}).ok());

  Reopen(Options{/*sync=*/true, /*create_if_missing=*/false});
  EXPECT_EQ(Bytes(ReadAll("main")), Bytes(main));
  std::vector<EventBuffer> want = {main[0], main[1], alt[0], alt[1]};
  EXPECT_EQ(Bytes(ReadAll("alt")), Bytes(want));
  absl::StatusOr<Head> head = log_->GetHead("s1", "alt");
  ASSERT_TRUE(head.ok());
  EXPECT_EQ(head->seq, 4u);
  EXPECT_EQ(head->hash, alt[1].hash());
  absl::StatusOr<std::vector<std::string>> sessions = log_->ListSessions();
  ASSERT_TRUE(sessions.ok());
  EXPECT_EQ(*sessions, (std::vector<std::string>{"s1", "s2"}));
  EXPECT_EQ(*log_->GetSecret("s2"), std::vector<uint8_t>{9});
  absl::StatusOr<std::optional<AppendResult>> c1 =
      log_->FindCommand("s1", "main", "c1");
  ASSERT_TRUE(c1.ok());
  ASSERT_TRUE(c1->has_value());
  EXPECT_EQ((*c1)->last_seq, 4u);
  // And appends continue from the reopened head.
  AppendN("main", 1, "c3");
  EXPECT_EQ(ReadAll("main").size(), 5u);
}

// The WAL file of a closed database that contains `needle` (RocksDB keeps
// acknowledged writes there until a flush; closing does not flush them).
std::string WalWith(const std::string& db_path, const std::string& needle,
                    std::string* contents) {
  for (const auto& entry : std::filesystem::directory_iterator(db_path)) {
    if (entry.path().extension() != ".log") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::string data((std::istreambuf_iterator<char>(in)),
                     std::istreambuf_iterator<char>());
    if (data.find(needle) != std::string::npos) {
      *contents = std::move(data);
      return entry.path().string();
    }
  }
  return "";
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in),
                     std::istreambuf_iterator<char>());
}

void WriteFile(const std::string& path, const std::string& data) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(data.data(), static_cast<std::streamsize>(data.size()));
}

// Ten commands of two events; the reasons name the command ("cmd3-7").
void WriteTenCommands(const std::string& db_path) {
  absl::StatusOr<std::unique_ptr<EventLog>> log = EventLog::Open(db_path);
  ASSERT_TRUE(log.ok()) << log.status();
  ASSERT_TRUE((*log)->CreateSession(Meta("s1"), kSeed).ok());
  Digest hash{};
  for (int i = 0; i < 10; ++i) {
    std::vector<EventBuffer> batch =
        Chain("s1", "main", 2 * i, hash, 2, absl::StrCat("cmd", i, "-"));
    absl::StatusOr<AppendResult> r =
        (*log)->Append("s1", "main", 2 * i, absl::StrCat("c", i), batch);
    ASSERT_TRUE(r.ok()) << r.status();
    hash = batch.back().hash();
  }
}

TEST(EventLogOpenTest, CorruptedWalRecordRefusesToOpen) {
  TempDir dir;
  WriteTenCommands(dir.db());
  std::string wal;
  std::string path = WalWith(dir.db(), "cmd4-9", &wal);
  ASSERT_FALSE(path.empty()) << "no WAL holds the events";
  wal[wal.find("cmd4-9") + 3] ^= 0x01;  // one flipped bit mid-WAL
  WriteFile(path, wal);
  // The default recovery mode would open and silently drop commands 4..9;
  // this one refuses, naming the damage.
  absl::StatusOr<std::unique_ptr<EventLog>> log = EventLog::Open(dir.db());
  EXPECT_EQ(log.status().code(), absl::StatusCode::kDataLoss) << log.status();
  EXPECT_TRUE(absl::StrContains(log.status().message(), dir.db()))
      << log.status();
}

// Ten commands written, then the WAL cut inside its last record (the last
// command's batch), as a crash in the middle of writing it would.
void TenCommandsWithTheLastCut(const std::string& db) {
  WriteTenCommands(db);
  std::string wal;
  std::string path = WalWith(db, "cmd9-19", &wal);
  ASSERT_FALSE(path.empty()) << "no WAL holds the events";
  wal.resize(wal.find("cmd9-19"));
  WriteFile(path, wal);
}

TEST(EventLogOpenTest, TornWalTailDropsOnlyTheLastCommand) {
  TempDir dir;
  TenCommandsWithTheLastCut(dir.db());
  // A crash mid-write: the write was never acknowledged, so its
  // COMBAT-ACKED record was never written either.
  ASSERT_TRUE(DropLastAckRecord(dir.db()));
  absl::StatusOr<std::unique_ptr<EventLog>> log = EventLog::Open(dir.db());
  ASSERT_TRUE(log.ok()) << log.status();
  absl::StatusOr<Head> head = (*log)->GetHead("s1", "main");
  ASSERT_TRUE(head.ok()) << head.status();
  EXPECT_EQ(head->seq, 18u);  // all of command 9 or none of it
  absl::StatusOr<std::vector<EventBuffer>> events = (*log)->Read("s1", "main");
  ASSERT_TRUE(events.ok()) << events.status();
  EXPECT_EQ(events->size(), 18u);
  absl::StatusOr<std::optional<AppendResult>> c9 =
      (*log)->FindCommand("s1", "main", "c9");
  ASSERT_TRUE(c9.ok());
  EXPECT_FALSE(c9->has_value());
}

TEST(EventLogOpenTest, AcknowledgedCommandCutFromTheWalRefusesToOpen) {
  TempDir dir;
  // The same cut, but the command was acknowledged (COMBAT-ACKED says so):
  // the database is behind what was promised.
  TenCommandsWithTheLastCut(dir.db());
  absl::StatusOr<std::unique_ptr<EventLog>> log = EventLog::Open(dir.db());
  EXPECT_EQ(log.status().code(), absl::StatusCode::kDataLoss) << log.status();
  EXPECT_TRUE(absl::StrContains(log.status().message(), "seq 20"))
      << log.status();
}

TEST(EventLogOpenTest, AckRecordOneWriteBehindOpens) {
  TempDir dir;
  WriteTenCommands(dir.db());
  // A kill -9 between the RocksDB write and its COMBAT-ACKED record: the
  // record is one write behind a good database, which must open whole.
  ASSERT_TRUE(DropLastAckRecord(dir.db()));
  absl::StatusOr<std::unique_ptr<EventLog>> log = EventLog::Open(dir.db());
  ASSERT_TRUE(log.ok()) << log.status();
  EXPECT_EQ((*log)->GetHead("s1", "main")->seq, 20u);
}

TEST(EventLogOpenTest, ReadOnlyOpenChangesNothingAndRefusesWrites) {
  TempDir dir;
  WriteTenCommands(dir.db());
  const std::string acked = ReadFile(dir.db() + "/" + kAckedFile);
  Options read_only;
  read_only.access = Options::Access::kReadOnly;
  absl::StatusOr<std::unique_ptr<EventLog>> log =
      EventLog::Open(dir.db(), read_only);
  ASSERT_TRUE(log.ok()) << log.status();
  EXPECT_TRUE((*log)->read_only());
  EXPECT_EQ((*log)->GetHead("s1", "main")->seq, 20u);
  EXPECT_EQ((*log)->Fork("s1", "main", 2, "alt", "a", "r").code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ((*log)->PutSnapshot("s1", "main", 2, 1, {1}).code(),
            absl::StatusCode::kFailedPrecondition);
  log->reset();
  EXPECT_EQ(ReadFile(dir.db() + "/" + kAckedFile), acked);
  // Absent: NotFound, and nothing is created.
  absl::StatusOr<std::unique_ptr<EventLog>> absent =
      EventLog::Open(dir.path() + "/absent", read_only);
  EXPECT_EQ(absent.status().code(), absl::StatusCode::kNotFound);
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/absent"));
}

TEST(EventLogOpenTest, MissingDatabaseWithoutCreateIsNotFound) {
  TempDir dir;
  absl::StatusOr<std::unique_ptr<EventLog>> log =
      EventLog::Open(dir.db(), Options{true, /*create_if_missing=*/false});
  EXPECT_EQ(log.status().code(), absl::StatusCode::kNotFound) << log.status();
}

TEST(EventLogOpenTest, SecondOpenInThisProcessIsUnavailable) {
  TempDir dir;
  absl::StatusOr<std::unique_ptr<EventLog>> first = EventLog::Open(dir.db());
  ASSERT_TRUE(first.ok()) << first.status();
  absl::StatusOr<std::unique_ptr<EventLog>> second = EventLog::Open(dir.db());
  EXPECT_EQ(second.status().code(), absl::StatusCode::kUnavailable)
      << second.status();
  EXPECT_TRUE(
      absl::StrContains(second.status().message(),
                        absl::StrCat("database ", dir.db(), " is in use")))
      << second.status();
  // Released on close.
  first->reset();
  EXPECT_TRUE(EventLog::Open(dir.db()).ok());
}

// Run only as the child of SecondProcessIsUnavailable: opens the database
// named by COMBAT_STORE_CHILD_DB, which the parent holds open.
constexpr char kChildDbEnv[] = "COMBAT_STORE_CHILD_DB";

TEST(EventLogChildProcess, DISABLED_OpenHeldDatabase) {
  const char* path = getenv(kChildDbEnv);
  if (path == nullptr) GTEST_SKIP() << "only run by SecondProcessIsUnavailable";
  absl::StatusOr<std::unique_ptr<EventLog>> log = EventLog::Open(path);
  EXPECT_EQ(log.status().code(), absl::StatusCode::kUnavailable)
      << log.status();
  EXPECT_EQ(log.status().message(),
            absl::StrCat("database ", path, " is in use by another process"));
}

TEST(EventLogOpenTest, SecondProcessIsUnavailable) {
  TempDir dir;
  absl::StatusOr<std::unique_ptr<EventLog>> first = EventLog::Open(dir.db());
  ASSERT_TRUE(first.ok()) << first.status();

  // Re-run this test binary as a separate process (a fork would share
  // RocksDB's in-process lock table) with only the child test selected and
  // without Bazel's per-test output files, which belong to this process.
  std::vector<std::string> env_strings;
  for (char** e = environ; *e != nullptr; ++e) {
    absl::string_view entry(*e);
    if (absl::StartsWith(entry, "XML_OUTPUT_FILE=") ||
        absl::StartsWith(entry, "GTEST_OUTPUT=") ||
        absl::StartsWith(entry, "TEST_PREMATURE_EXIT_FILE=") ||
        absl::StartsWith(entry, "TEST_SHARD_STATUS_FILE=") ||
        absl::StartsWith(entry, "GTEST_SHARD") ||
        absl::StartsWith(entry, "TEST_TOTAL_SHARDS=") ||
        absl::StartsWith(entry, "TEST_SHARD_INDEX=")) {
      continue;
    }
    env_strings.push_back(*e);
  }
  env_strings.push_back(absl::StrCat(kChildDbEnv, "=", dir.db()));
  std::vector<char*> envp;
  for (std::string& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::string exe = "/proc/self/exe";
  std::string filter =
      "--gtest_filter=EventLogChildProcess.DISABLED_OpenHeldDatabase";
  std::string disabled = "--gtest_also_run_disabled_tests";
  std::vector<char*> argv = {exe.data(), filter.data(), disabled.data(),
                             nullptr};
  pid_t pid = 0;
  int rc = posix_spawn(&pid, exe.c_str(), nullptr, nullptr, argv.data(),
                       envp.data());
  ASSERT_EQ(rc, 0) << std::strerror(rc);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "child status " << status;
  EXPECT_EQ(WEXITSTATUS(status), 0) << "the child's open was not refused with "
                                       "the expected Unavailable (see above)";
}

// ---- branches --------------------------------------------------------------

TEST_F(EventLogTest, ForkSharesPrefix) {
  std::vector<EventBuffer> main = AppendN("main", 3, "c1");
  ASSERT_TRUE(log_->Fork("s1", "main", 2, "alt", "gm", "reroll").ok());

  absl::StatusOr<BranchMeta> meta = log_->GetBranch("s1", "alt");
  ASSERT_TRUE(meta.ok()) << meta.status();
  EXPECT_EQ(meta->parent, "main");
  EXPECT_EQ(meta->fork_seq, 2u);
  EXPECT_EQ(meta->author, "gm");
  EXPECT_EQ(meta->reason, "reroll");
  absl::StatusOr<Head> head = log_->GetHead("s1", "alt");
  ASSERT_TRUE(head.ok());
  EXPECT_EQ(head->seq, 2u);
  EXPECT_EQ(head->hash, main[1].hash());
  std::vector<EventBuffer> want = {main[0], main[1]};
  EXPECT_EQ(Bytes(ReadAll("alt")), Bytes(want));

  // The fork chains from the parent's seq 2; its own seq 3 differs.
  std::vector<EventBuffer> alt = AppendN("alt", 2, "c2");
  // The parent moves on; the fork must not see it.
  std::vector<EventBuffer> later = AppendN("main", 1, "c3");

  want = {main[0], main[1], alt[0], alt[1]};
  EXPECT_EQ(Bytes(ReadAll("alt")), Bytes(want));
  want = {main[0], main[1], main[2], later[0]};
  EXPECT_EQ(Bytes(ReadAll("main")), Bytes(want));
  // A range straddling the fork point.
  absl::StatusOr<std::vector<EventBuffer>> mid = log_->Read("s1", "alt", 2, 3);
  ASSERT_TRUE(mid.ok()) << mid.status();
  want = {main[1], alt[0]};
  EXPECT_EQ(Bytes(*mid), Bytes(want));
}

TEST_F(EventLogTest, ForkAtHeadChainsFromTheParentHead) {
  std::vector<EventBuffer> main = AppendN("main", 2, "c1");
  ASSERT_TRUE(log_->Fork("s1", "main", 2, "alt", "gm", "").ok());
  std::vector<EventBuffer> alt = AppendN("alt", 1, "c2");
  std::vector<EventBuffer> want = {main[0], main[1], alt[0]};
  EXPECT_EQ(Bytes(ReadAll("alt")), Bytes(want));
}

TEST_F(EventLogTest, ForkOfAFork) {
  std::vector<EventBuffer> main = AppendN("main", 4, "c1");
  ASSERT_TRUE(log_->Fork("s1", "main", 3, "a", "gm", "").ok());
  std::vector<EventBuffer> a = AppendN("a", 3, "c2");  // a: 1 2 3 | 4 5 6
  // b forks a above a's own fork point: b = main 1..3, a 4..5, own 6..
  ASSERT_TRUE(log_->Fork("s1", "a", 5, "b", "gm", "").ok());
  std::vector<EventBuffer> b = AppendN("b", 2, "c3");
  // c forks a below a's fork point: c = main 1..2 only, then its own.
  ASSERT_TRUE(log_->Fork("s1", "a", 2, "c", "gm", "").ok());
  std::vector<EventBuffer> c = AppendN("c", 1, "c4");
  // d forks b within the part b reads from a.
  ASSERT_TRUE(log_->Fork("s1", "b", 4, "d", "gm", "").ok());

  std::vector<EventBuffer> want = {main[0], main[1], main[2], a[0],
                                   a[1],    b[0],    b[1]};
  EXPECT_EQ(Bytes(ReadAll("b")), Bytes(want));
  want = {main[0], main[1], c[0]};
  EXPECT_EQ(Bytes(ReadAll("c")), Bytes(want));
  want = {main[0], main[1], main[2], a[0]};
  EXPECT_EQ(Bytes(ReadAll("d")), Bytes(want));
  absl::StatusOr<Head> head = log_->GetHead("s1", "d");
  ASSERT_TRUE(head.ok());
  EXPECT_EQ(head->hash, a[0].hash());
  // Each event carries the branch it was written on.
  std::vector<EventBuffer> got = ReadAll("b");
  ASSERT_EQ(got.size(), 7u);
  EXPECT_EQ(got[0].event().branch()->str(), "main");
  EXPECT_EQ(got[4].event().branch()->str(), "a");
  EXPECT_EQ(got[6].event().branch()->str(), "b");
}

TEST_F(EventLogTest, ForkBeyondHeadIsRefused) {
  AppendN("main", 2, "c1");
  absl::Status s = log_->Fork("s1", "main", 3, "alt", "gm", "");
  EXPECT_EQ(s.code(), absl::StatusCode::kOutOfRange) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), "at seq 3")) << s;
  EXPECT_EQ(log_->Fork("s1", "main", 0, "alt", "gm", "").code(),
            absl::StatusCode::kOutOfRange);
  EXPECT_EQ(log_->GetBranch("s1", "alt").status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(log_->Fork("s1", "nope", 1, "alt", "gm", "").code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(log_->Fork("s9", "main", 1, "alt", "gm", "").code(),
            absl::StatusCode::kNotFound);
  ASSERT_TRUE(log_->Fork("s1", "main", 1, "alt", "gm", "").ok());
  EXPECT_EQ(log_->Fork("s1", "main", 2, "alt", "gm", "").code(),
            absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(log_->Fork("s1", "alt", 1, "main", "gm", "").code(),
            absl::StatusCode::kAlreadyExists);
}

TEST_F(EventLogTest, CommandsInTheSharedPrefixAreFoundOnTheFork) {
  AppendN("main", 2, "c1");
  AppendN("main", 2, "c2");  // seqs 3..4
  ASSERT_TRUE(log_->Fork("s1", "main", 3, "alt", "gm", "").ok());
  // c1 (1..2) lies wholly in the prefix: retrying it on the fork is a
  // duplicate. c2 (3..4) is cut by the fork: not applied on the fork.
  absl::StatusOr<std::optional<AppendResult>> c1 =
      log_->FindCommand("s1", "alt", "c1");
  ASSERT_TRUE(c1.ok()) << c1.status();
  ASSERT_TRUE(c1->has_value());
  EXPECT_EQ((*c1)->last_seq, 2u);
  absl::StatusOr<std::optional<AppendResult>> c2 =
      log_->FindCommand("s1", "alt", "c2");
  ASSERT_TRUE(c2.ok()) << c2.status();
  EXPECT_FALSE(c2->has_value());

  Head head = *log_->GetHead("s1", "alt");
  std::vector<EventBuffer> retry = Chain("s1", "alt", 3, head.hash, 1);
  absl::StatusOr<AppendResult> r = log_->Append("s1", "alt", 3, "c1", retry);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->duplicate);
  EXPECT_EQ(log_->GetHead("s1", "alt")->seq, 3u);
  // A command the parent applied after the fork point may run on the fork.
  r = log_->Append("s1", "alt", 3, "c2", retry);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_FALSE(r->duplicate);
  EXPECT_EQ(r->first_seq, 4u);
}

TEST_F(EventLogTest, ListSessionsAndBranchesAreSorted) {
  ASSERT_TRUE(log_->CreateSession(Meta("b-session"), kSeed).ok());
  ASSERT_TRUE(log_->CreateSession(Meta("A"), kSeed).ok());
  ASSERT_TRUE(log_->CreateSession(Meta("s10"), kSeed).ok());
  ASSERT_TRUE(log_->CreateSession(Meta("s1x"), kSeed).ok());
  absl::StatusOr<std::vector<std::string>> sessions = log_->ListSessions();
  ASSERT_TRUE(sessions.ok()) << sessions.status();
  EXPECT_EQ(*sessions,
            (std::vector<std::string>{"A", "b-session", "s1", "s10", "s1x"}));

  AppendN("main", 1, "c1");
  for (const char* name : {"zeta", "alpha", "main2", "Beta"}) {
    ASSERT_TRUE(log_->Fork("s1", "main", 1, name, "gm", "").ok());
  }
  absl::StatusOr<std::vector<BranchMeta>> branches = log_->ListBranches("s1");
  ASSERT_TRUE(branches.ok()) << branches.status();
  std::vector<std::string> names;
  for (const BranchMeta& b : *branches) names.push_back(b.branch);
  EXPECT_EQ(names, (std::vector<std::string>{"Beta", "alpha", "main", "main2",
                                             "zeta"}));
  // Another session's branches are not listed.
  branches = log_->ListBranches("s10");
  ASSERT_TRUE(branches.ok());
  ASSERT_EQ(branches->size(), 1u);
  EXPECT_EQ((*branches)[0].branch, "main");
  EXPECT_EQ(log_->ListBranches("nope").status().code(),
            absl::StatusCode::kNotFound);
}

// ---- damage is DataLoss, never a shorter log -------------------------------

TEST_F(EventLogTest, CorruptedEventValueIsDataLossNamingTheSeq) {
  AppendN("main", 5, "c1");
  log_.reset();
  RawPut(dir_.db(), EventKey("s1", "main", 3), "garbage, not an event");
  Reopen();
  std::vector<uint64_t> seen;
  absl::Status s =
      log_->Scan("s1", "main", 1, 0, [&seen](const EventBuffer& e) {
        seen.push_back(e.event().seq());
        return absl::OkStatus();
      });
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), "session s1 branch main seq 3"))
      << s;
  EXPECT_EQ(seen, (std::vector<uint64_t>{1, 2}));
  EXPECT_EQ(log_->Read("s1", "main").status().code(),
            absl::StatusCode::kDataLoss);
}

TEST_F(EventLogTest, CorruptionInTheSharedPrefixIsDataLossOnTheFork) {
  AppendN("main", 3, "c1");
  ASSERT_TRUE(log_->Fork("s1", "main", 3, "alt", "gm", "").ok());
  AppendN("alt", 1, "c2");
  log_.reset();
  RawPut(dir_.db(), EventKey("s1", "main", 2), std::string(64, '\x7f'));
  Reopen();
  absl::Status s = log_->Read("s1", "alt").status();
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), "branch main seq 2")) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), "alt")) << s;
}

TEST_F(EventLogTest, MissingEventIsDataLoss) {
  AppendN("main", 5, "c1");
  log_.reset();
  RawDelete(dir_.db(), EventKey("s1", "main", 2));
  Reopen();
  absl::Status s = log_->Read("s1", "main").status();
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), "seq 2")) << s;

  log_.reset();
  RawDelete(dir_.db(), EventKey("s1", "main", 5));  // the tail
  Reopen();
  s = log_->Read("s1", "main", 3, 0).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), "seq 5")) << s;
}

TEST_F(EventLogTest, EventStoredUnderTheWrongSeqIsDataLoss) {
  std::vector<EventBuffer> main = AppendN("main", 3, "c1");
  log_.reset();
  const std::vector<uint8_t>& bytes = main[0].bytes();
  RawPut(dir_.db(), EventKey("s1", "main", 2),
         std::string(bytes.begin(), bytes.end()));
  Reopen();
  absl::Status s = log_->Read("s1", "main").status();
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), "seq 2")) << s;
}

TEST_F(EventLogTest, CorruptMetadataIsDataLossNotACrash) {
  AppendN("main", 2, "c1");
  ASSERT_TRUE(log_->Fork("s1", "main", 1, "alt", "gm", "why").ok());
  const std::string b_alt = std::string("b\0s1\0alt", 8);
  const std::string h_main = std::string("h\0s1\0main", 9);
  const std::string s_s1 = std::string("s\0s1", 4);
  const std::string c_c1 = std::string("c\0s1\0main\0c1", 12);
  struct Case {
    std::string key;
    std::string value;
  };
  std::string huge_length("B\x01\xff\xff\xff\xff", 6);
  std::vector<Case> cases = {
      {b_alt, ""},
      {b_alt, "B"},
      {b_alt, huge_length},
      {b_alt, std::string("B\x01\0\0\0\x02s1", 8)},  // truncated after session
      {h_main, "short"},
      {s_s1, std::string("S\x02", 2)},  // unknown version
      {c_c1, std::string(16, '\0')},    // seq 0
  };
  for (const Case& c : cases) {
    log_.reset();
    TempDir copy;  // each case damages a fresh copy of the database
    std::error_code ec;
    std::filesystem::copy(dir_.db(), copy.db(),
                          std::filesystem::copy_options::recursive, ec);
    ASSERT_FALSE(ec) << ec.message();
    RawPut(copy.db(), c.key, c.value);
    absl::StatusOr<std::unique_ptr<EventLog>> log = EventLog::Open(copy.db());
    ASSERT_TRUE(log.ok()) << log.status();
    absl::Status s;
    if (c.key == b_alt) {
      s = (*log)->GetBranch("s1", "alt").status();
      EXPECT_EQ((*log)->ListBranches("s1").status().code(),
                absl::StatusCode::kDataLoss);
      EXPECT_EQ((*log)->Read("s1", "alt").status().code(),
                absl::StatusCode::kDataLoss);
    } else if (c.key == h_main) {
      s = (*log)->GetHead("s1", "main").status();
    } else if (c.key == s_s1) {
      s = (*log)->GetSession("s1").status();
    } else {
      s = (*log)->FindCommand("s1", "main", "c1").status();
    }
    EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss) << s;
    EXPECT_TRUE(absl::StrContains(s.message(), "session s1")) << s;
    Reopen();
  }
}

}  // namespace
}  // namespace combat::store
