// Concurrency, meant to run under ThreadSanitizer as well as plainly:
//   bazel --output_base=/tmp/combat_tsan_ob test --config=tsan //tests/concurrency:all
//  - two writers race on one branch with expected seqs: each seq is won by
//    exactly one append, the loser gets Aborted ("expected head seq ...")
//    and retries at the new head; the winners' ranges tile the log;
//  - the same command sent by two threads at once is applied once: one
//    append, one duplicate with the same range;
//  - readers running during the writes always see a consistent prefix:
//    the full verifier (store checks, hash chain, state hashes) passes on
//    every read, lengths never go back, and every prefix seen is a prefix
//    of the final log;
//  - a second process opening the database gets a clear "in use" error.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "kernel/session.h"
#include "store/event_log.h"
#include "tests/testing/budget.h"
#include "tests/testing/gen.h"
#include "tests/testing/spawn.h"
#include "tests/testing/temp_dir.h"
#include "tests/testing/verify.h"

namespace combat::testing {
namespace {

class ConcurrencyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto log = store::EventLog::Open(dir_.db());
    ASSERT_TRUE(log.ok()) << log.status();
    log_ = *std::move(log);
    ASSERT_TRUE(log_->CreateSession(gen_.Meta(), gen_.Secret()).ok());
  }
  TempDir dir_{"concurrency"};
  CommandGen gen_{"s1", 5};
  std::unique_ptr<store::EventLog> log_;
};

// A writer's view of the branch: its state at the head it last saw.
struct WriterView {
  kernel::State state;
  events::Digest prev{};
  // Folds what other writers appended since.
  absl::Status CatchUp(const store::EventLog& log) {
    auto head = log.GetHead("s1", "main");
    if (!head.ok()) return head.status();
    if (head->seq == state.seq) return absl::OkStatus();
    return log.Scan("s1", "main", state.seq + 1, head->seq,
                    [this](const events::EventBuffer& e) {
                      prev = e.hash();
                      return kernel::FoldOne(e, state, kernel::CheckHashes::kYes);
                    });
  }
};

struct Won {
  std::string id;
  uint64_t first, last;
};

TEST_F(ConcurrencyTest, TwoWritersReadersAndRetries) {
  const int per_writer = Budget(60, 1000);
  std::mutex mu;  // guards `won`, `seen`
  std::vector<Won> won;
  std::atomic<int> aborted{0}, duplicates{0}, reads{0};
  std::atomic<bool> writers_done{false};
  std::map<uint64_t, std::string> seen;  // a length readers saw -> head hash

  auto writer = [&](int w) {
    WriterView view;
    for (int n = 0; n < per_writer; ++n) {
      const std::string id = absl::StrCat("w", w, "-", n);
      for (int attempt = 0;; ++attempt) {
        ASSERT_TRUE(view.CatchUp(*log_).ok());
        auto evs = gen_.Next(view.state, "main", view.prev, id);
        ASSERT_TRUE(evs.ok()) << evs.status();
        auto r = log_->Append("s1", "main", view.state.seq, id, *evs);
        if (absl::IsAborted(r.status())) {
          ++aborted;  // lost the race for this seq: retry at the new head
          ASSERT_TRUE(absl::StrContains(r.status().message(), "expected head seq"))
              << r.status();
          continue;
        }
        ASSERT_TRUE(r.ok()) << r.status();
        ASSERT_FALSE(r->duplicate) << id;
        {
          std::lock_guard<std::mutex> lock(mu);
          won.push_back({id, r->first_seq, r->last_seq});
        }
        // The client did not hear back and sends it again: applied once.
        if (n % 5 == 0) {
          auto again = log_->Append("s1", "main", view.state.seq, id, *evs);
          ASSERT_TRUE(again.ok()) << again.status();
          EXPECT_TRUE(again->duplicate);
          EXPECT_EQ(again->first_seq, r->first_seq);
          ++duplicates;
        }
        break;
      }
    }
  };
  auto reader = [&] {
    uint64_t last_len = 0;
    while (!writers_done.load()) {
      Layer layer = Layer::kNone;
      auto v = VerifyBranch(*log_, "s1", "main", &layer);
      ASSERT_TRUE(v.ok()) << LayerName(layer) << ": " << v.status();
      ASSERT_GE(v->events.size(), last_len) << "a later read saw fewer events";
      last_len = v->events.size();
      ++reads;
      if (!v->events.empty()) {
        std::lock_guard<std::mutex> lock(mu);
        seen[v->events.size()] = events::Hex(v->events.back().hash());
      }
    }
  };
  std::vector<std::thread> threads;
  threads.emplace_back(reader);
  threads.emplace_back(reader);
  threads.emplace_back(writer, 1);
  threads.emplace_back(writer, 2);
  threads[2].join();
  threads[3].join();
  writers_done = true;
  threads[0].join();
  threads[1].join();

  // Exactly one winner per seq: the winners' ranges tile 1..head.
  auto all = VerifyBranch(*log_, "s1", "main");
  ASSERT_TRUE(all.ok()) << all.status();
  std::map<uint64_t, Won> by_first;
  for (const Won& w : won) by_first[w.first] = w;
  uint64_t next = 1;
  for (const auto& [first, w] : by_first) {
    ASSERT_EQ(first, next) << "seq " << next << " has no single winner";
    next = w.last + 1;
    for (uint64_t s = w.first; s <= w.last; ++s) {
      ASSERT_EQ(all->events[s - 1].event().command_id()->str(), w.id);
    }
  }
  EXPECT_EQ(next - 1, all->events.size());
  EXPECT_EQ(won.size(), static_cast<size_t>(2 * per_writer));
  // Every prefix a reader saw is a prefix of the final log.
  for (const auto& [len, hash] : seen) {
    EXPECT_EQ(events::Hex(all->events[len - 1].hash()), hash) << "prefix of " << len;
  }
  std::string line = absl::StrCat(
      "concurrency: 2 writers appended ", won.size(), " commands (", all->events.size(),
      " events); ", aborted.load(), " lost a race (Aborted) and retried; ",
      duplicates.load(), " resent commands were duplicates; 2 readers verified ",
      reads.load(), " consistent prefixes (", seen.size(), " distinct)");
  std::printf("%s\n", line.c_str());
  RecordProperty("summary", line);
}

TEST_F(ConcurrencyTest, TheSameCommandFromTwoThreadsIsAppliedOnce) {
  const int rounds = Budget(40, 500);
  WriterView view;
  int applied_total = 0;
  for (int round = 0; round < rounds; ++round) {
    const std::string id = absl::StrCat("same-", round);
    auto evs = gen_.Next(view.state, "main", view.prev, id);
    ASSERT_TRUE(evs.ok());
    std::atomic<int> applied{0}, dup{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 2; ++t) {
      threads.emplace_back([&] {
        auto r = log_->Append("s1", "main", view.state.seq, id, *evs);
        ASSERT_TRUE(r.ok()) << r.status();
        EXPECT_EQ(r->first_seq, view.state.seq + 1);
        (r->duplicate ? dup : applied)++;
      });
    }
    for (auto& t : threads) t.join();
    ASSERT_EQ(applied.load(), 1) << id;
    ASSERT_EQ(dup.load(), 1) << id;
    applied_total += applied.load();
    ASSERT_TRUE(view.CatchUp(*log_).ok());
  }
  auto all = VerifyBranch(*log_, "s1", "main");
  ASSERT_TRUE(all.ok()) << all.status();
  EXPECT_EQ(all->state.seq, view.state.seq);
  std::printf("concurrency: %d commands each sent by two threads at once, %d applied\n",
              rounds, applied_total);
}

TEST_F(ConcurrencyTest, SecondProcessGetsInUse) {
  // The crash test's writer tries to open the database this test holds.
  auto child = Child::Spawn(Runfile("tests/crash/writer"),
                            {"--db=" + dir_.db(), "--mode=sync", "--commands=1"});
  ASSERT_TRUE(child.ok()) << child.status();
  std::vector<std::string> lines = (*child)->DrainLines();
  int status = (*child)->Wait();
  ASSERT_EQ(lines.size(), 1u) << DescribeWaitStatus(status);
  EXPECT_EQ(lines[0], absl::StrCat("error open: UNAVAILABLE: database ", dir_.db(),
                                   " is in use by another process"));
  EXPECT_NE(status, 0);
  // And in this process: a second Open is refused too.
  auto again = store::EventLog::Open(dir_.db());
  EXPECT_TRUE(absl::IsUnavailable(again.status())) << again.status();
  EXPECT_TRUE(absl::StrContains(again.status().message(), "is in use")) << again.status();
}

}  // namespace
}  // namespace combat::testing
