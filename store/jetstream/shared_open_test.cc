// One open of a JetStream log written from many threads at once (as one
// `combat serve` does), against one real nats-server (R1): writes to
// different branches run together, and every guarantee of one open still
// holds: each acknowledged command is stored once with its acknowledged
// range, a stale writer (of this open or another) is Aborted, a retried
// command is applied once, and reveal markers keep the first reveal in
// stream order, as a fresh open reading the stream in order finds them.
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "events/codec.h"
#include "events/hash.h"
#include "gtest/gtest.h"
#include "store/command_markers.h"
#include "store/event_log.h"
#include "store/jetstream/jetstream_log.h"
#include "store/jetstream/testing/cluster.h"
#include "store/jetstream/testing/one_node.h"
#include "store/jetstream/testing/log_events.h"
#include "store/testing/events.h"

namespace combat::store::jetstream {
namespace {

using events::EventBuffer;
using testing::ChainAfter;
using testing::Cluster;
using testing::TestMeta;

class SharedOpenTest : public testing::OneNodeTest {};

struct Acked {
  std::string session, command;
  AppendResult range;
};

// 8 sessions; per session two writer threads on the shared open and one on
// another open, all appending at the head they read (the losers of a race
// are Aborted and read again); every command is also retried once at once
// from a second thread of the shared open.
TEST_F(SharedOpenTest, WritersOfManyBranchesAndStaleWritersAllApplyOnce) {
  const std::string url = Url();
  auto shared = OpenLog(url);
  auto other = OpenLog(url);
  ASSERT_TRUE(shared && other);
  constexpr int kSessions = 8;
  constexpr int kCommands = 12;  // per writer
  for (int s = 0; s < kSessions; ++s) {
    ASSERT_TRUE(shared->CreateSession(TestMeta(absl::StrCat("s", s)), {1}).ok());
  }
  std::mutex mu;
  std::vector<Acked> acked;
  std::atomic<int> aborted{0}, duplicates{0}, failures{0};
  auto writer = [&](EventLog* log, int s, const std::string& name) {
    const std::string session = absl::StrCat("s", s);
    for (int n = 0; n < kCommands;) {
      const std::string command = absl::StrCat(name, "-", n);
      absl::StatusOr<Head> head = log->GetHead(session, "main");
      if (!head.ok()) {
        ++failures;
        return;
      }
      const std::vector<EventBuffer> events =
          ChainAfter(session, "main", *head, 1 + n % 3, command);
      // The same command from a second thread of the shared open.
      absl::StatusOr<AppendResult> retry;
      std::thread again([&] {
        retry = shared->Append(session, "main", head->seq, command, events);
      });
      absl::StatusOr<AppendResult> r =
          log->Append(session, "main", head->seq, command, events);
      again.join();
      if (!r.ok() && r.status().code() == absl::StatusCode::kAborted &&
          !retry.ok() && retry.status().code() == absl::StatusCode::kAborted) {
        ++aborted;  // another writer took the head: read it again
        continue;
      }
      if (!r.ok() || !retry.ok()) {
        // One of the two may be Aborted only when the other applied it
        // (then it would have been a duplicate, not stale): never.
        ADD_FAILURE() << command << ": " << r.status() << " / " << retry.status();
        ++failures;
        return;
      }
      EXPECT_NE(r->duplicate, retry->duplicate) << command;
      EXPECT_EQ(r->first_seq, retry->first_seq) << command;
      EXPECT_EQ(r->last_seq, retry->last_seq) << command;
      ++duplicates;
      std::lock_guard<std::mutex> lock(mu);
      acked.push_back({session, command, r->duplicate ? *retry : *r});
      ++n;
    }
  };
  std::vector<std::thread> threads;
  for (int s = 0; s < kSessions; ++s) {
    threads.emplace_back(writer, shared.get(), s, "a");
    threads.emplace_back(writer, shared.get(), s, "b");
    threads.emplace_back(writer, other.get(), s, "o");
  }
  for (std::thread& t : threads) t.join();
  ASSERT_EQ(failures.load(), 0);
  EXPECT_EQ(acked.size(), static_cast<size_t>(kSessions * 3 * kCommands));
  EXPECT_GT(aborted.load(), 0) << "the writers of a session never raced";

  // A fresh open (its replica read from the stream in order) agrees with
  // both, and holds every acknowledged command once, at its range.
  auto fresh = OpenLog(url);
  ASSERT_TRUE(fresh);
  std::map<std::string, uint64_t> events_per_session;
  for (const Acked& a : acked) {
    events_per_session[a.session] += a.range.last_seq - a.range.first_seq + 1;
    auto found = fresh->FindCommand(a.session, "main", a.command);
    ASSERT_TRUE(found.ok() && found->has_value()) << a.command;
    EXPECT_EQ((*found)->first_seq, a.range.first_seq) << a.command;
    EXPECT_EQ((*found)->last_seq, a.range.last_seq) << a.command;
  }
  for (int s = 0; s < kSessions; ++s) {
    const std::string session = absl::StrCat("s", s);
    const Head head = *fresh->GetHead(session, "main");
    EXPECT_EQ(head.seq, events_per_session[session]) << session;
    for (EventLog* log : {shared.get(), other.get()}) {
      const Head h = *log->GetHead(session, "main");
      EXPECT_EQ(h.seq, head.seq) << session;
      EXPECT_EQ(h.hash, head.hash) << session;
    }
    EXPECT_TRUE(CheckCommandMarkers(*shared, session, "main").ok()) << session;
    EXPECT_TRUE(CheckCommandMarkers(*fresh, session, "main").ok()) << session;
  }
  EXPECT_TRUE(fresh->VerifyChecksums().ok());
}

// Two branches of a session reveal the same secret at once, one through
// the shared open (its writes to other sessions' branches racing it) and
// one through another open: each open's marker is the one a fresh open,
// reading the stream in order, keeps (the first reveal in stream order).
// (Within one open the session's reveals take turns: store/README.md.)
TEST_F(SharedOpenTest, RacingRevealsKeepTheFirstInStreamOrder) {
  const std::string url = Url();
  auto shared = OpenLog(url);
  auto other = OpenLog(url);
  ASSERT_TRUE(shared && other);
  constexpr int kSessions = 12;
  const std::vector<uint8_t> secret(32, 9);
  const events::Digest c = events::Sha256(secret);
  const std::vector<uint8_t> commitment(c.begin(), c.end());
  for (int s = 0; s < kSessions; ++s) {
    const std::string session = absl::StrCat("r", s);
    const std::vector<EventBuffer> setup = {
        TestRulingEvent(session, "main", 1, events::Digest{}, "setup", "setup")};
    ASSERT_TRUE(shared->CreateSession(TestMeta(session), secret, "setup", setup).ok());
    ASSERT_TRUE(shared->Fork(session, "main", 1, "alt", "gm", "race").ok());
  }
  std::vector<std::thread> threads;
  std::atomic<int> failures{0}, ready{0};
  for (int s = 0; s < kSessions; ++s) {
    for (const char* branch : {"main", "alt"}) {
      threads.emplace_back([&, s, branch] {
        const std::string session = absl::StrCat("r", s);
        EventLog* log = std::string(branch) == "main" ? shared.get() : other.get();
        const Head head = *log->GetHead(session, branch);
        // Every reveal decided at once, none seeing another's marker.
        ++ready;
        while (ready.load() < 2 * kSessions) std::this_thread::yield();
        RevealRecord reveal;
        reveal.revealed = commitment;
        auto r = log->AppendReveal(
            session, branch, head.seq, "reveal",
            {store::TestRevealEvent(session, branch, head.seq + 1, head.hash, secret, {}, "reveal")},
            std::nullopt, reveal);
        if (!r.ok()) {
          ADD_FAILURE() << session << " " << branch << ": " << r.status();
          ++failures;
        }
      });
    }
  }
  for (std::thread& t : threads) t.join();
  ASSERT_EQ(failures.load(), 0);
  auto fresh = OpenLog(url);
  ASSERT_TRUE(fresh);
  for (int s = 0; s < kSessions; ++s) {
    const std::string session = absl::StrCat("r", s);
    auto first = fresh->GetReveal(session, commitment);
    ASSERT_TRUE(first.ok() && first->has_value()) << session;
    for (EventLog* log : {shared.get(), other.get()}) {
      auto marker = log->GetReveal(session, commitment);
      ASSERT_TRUE(marker.ok() && marker->has_value()) << session;
      EXPECT_EQ((*marker)->branch, (*first)->branch) << session;
      EXPECT_EQ((*marker)->seq, (*first)->seq) << session;
    }
  }
}

}  // namespace
}  // namespace combat::store::jetstream
