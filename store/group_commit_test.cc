// Writers running at once (store/write_locks.h): appends to different
// sessions proceed together (RocksDB's write group merges their WAL
// syncs), while every check that makes an append safe stays race-free.
// Also run under ThreadSanitizer (tests/sanitizers.sh).
//  - many sessions appending at once: every command lands, every chain
//    reads back whole, the database reopens (COMBAT-ACKED agrees);
//  - two writers with the same expected seq on one branch, while other
//    sessions write: exactly one wins, the other gets the stale-writer
//    error (Aborted), every round;
//  - the same command id from several threads: applied once, the others
//    duplicates with the same range; with other content: AlreadyExists;
//  - racing forks of one name, racing CreateSession of one session:
//    exactly one succeeds; a fork racing appends to its parent sees a
//    consistent parent;
//  - a whole-database operation (SyncWal) gets its turn among busy
//    writers, and every append still lands.
#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "events/codec.h"
#include "events/hash.h"
#include "gtest/gtest.h"
#include "store/event_log.h"
#include "store/testing/acked.h"
#include "store/testing/events.h"
#include "tests/testing/budget.h"
#include "tests/testing/temp_dir.h"

namespace combat::store {
namespace {

using ::combat::testing::Budget;
using ::combat::testing::TempDir;
using events::EventBuffer;

// One writer's side of a branch: the head it knows and the events of its
// next command.
struct Chain {
  std::string session;
  std::string branch = "main";
  uint64_t seq = 0;
  events::Digest prev{};

  std::vector<EventBuffer> Next(const std::string& command, int n,
                                const std::string& reason = "r") const {
    std::vector<EventBuffer> out;
    events::Digest p = prev;
    for (int i = 0; i < n; ++i) {
      out.push_back(TestRulingEvent(session, branch, seq + 1 + i, p,
                                    absl::StrCat(reason, i), command));
      p = out.back().hash();
    }
    return out;
  }
  void Applied(const std::vector<EventBuffer>& events) {
    seq += events.size();
    prev = events.back().hash();
  }
};

SessionMeta Meta(const std::string& session) {
  SessionMeta m;
  m.session = session;
  m.ruleset = "d20_three_action";
  m.ruleset_version = 1;
  return m;
}

const std::vector<uint8_t> kSecret(32, 7);

TEST(GroupCommitTest, ManySessionsAppendAtOnce) {
  TempDir dir("group");
  const int sessions = 16;
  const int commands = Budget(30, 300);
  {
    auto log = EventLog::Open(dir.db());
    ASSERT_TRUE(log.ok()) << log.status();
    std::vector<std::thread> threads;
    std::atomic<int> failures{0};
    for (int s = 0; s < sessions; ++s) {
      threads.emplace_back([&, s] {
        Chain c{absl::StrCat("s", s)};
        if (!(*log)->CreateSession(Meta(c.session), kSecret).ok()) {
          ++failures;
          return;
        }
        for (int k = 0; k < commands; ++k) {
          const std::string id = absl::StrCat("c", k);
          std::vector<EventBuffer> evs = c.Next(id, 1 + k % 3);
          absl::StatusOr<AppendResult> r =
              (*log)->Append(c.session, c.branch, c.seq, id, evs);
          if (!r.ok() || r->duplicate || r->first_seq != c.seq + 1) {
            ++failures;
            return;
          }
          c.Applied(evs);
        }
      });
    }
    for (std::thread& t : threads) t.join();
    ASSERT_EQ(failures.load(), 0);
  }
  // Reopened: the acknowledged-write record agrees with what RocksDB
  // recovered, and every branch reads back whole (chain checked).
  auto log = EventLog::Open(dir.db());
  ASSERT_TRUE(log.ok()) << log.status();
  uint64_t want = 0;
  for (int k = 0; k < commands; ++k) want += 1 + k % 3;
  for (int s = 0; s < sessions; ++s) {
    absl::StatusOr<std::vector<EventBuffer>> all =
        (*log)->Read(absl::StrCat("s", s), "main");
    ASSERT_TRUE(all.ok()) << all.status();
    EXPECT_EQ(all->size(), want);
  }
  log->reset();
  // Every record in COMBAT-ACKED names an acknowledged write: with any
  // number of trailing records dropped, the database still opens.
  for (int i = 0; i < 5 && DropLastAckRecord(dir.db()); ++i) {
    auto again = EventLog::Open(dir.db());
    ASSERT_TRUE(again.ok()) << again.status();
  }
}

TEST(GroupCommitTest, StaleWriterLosesWhileOtherSessionsWrite) {
  TempDir dir("group");
  auto log = EventLog::Open(dir.db());
  ASSERT_TRUE(log.ok()) << log.status();
  ASSERT_TRUE((*log)->CreateSession(Meta("race"), kSecret).ok());
  const int others = 4;
  for (int s = 0; s < others; ++s) {
    ASSERT_TRUE((*log)->CreateSession(Meta(absl::StrCat("o", s)), kSecret).ok());
  }
  std::atomic<bool> stop{false};
  std::atomic<int> background_failures{0};
  std::vector<std::thread> background;
  for (int s = 0; s < others; ++s) {
    background.emplace_back([&, s] {
      Chain c{absl::StrCat("o", s)};
      for (int k = 0; !stop.load(); ++k) {
        const std::string id = absl::StrCat("b", k);
        std::vector<EventBuffer> evs = c.Next(id, 2);
        if (!(*log)->Append(c.session, c.branch, c.seq, id, evs).ok()) {
          ++background_failures;
          return;
        }
        c.Applied(evs);
      }
    });
  }
  Chain race{"race"};
  const int rounds = Budget(60, 600);
  for (int round = 0; round < rounds; ++round) {
    std::vector<std::vector<EventBuffer>> evs;
    for (int t = 0; t < 2; ++t) {
      evs.push_back(race.Next(absl::StrCat("w", t, "-", round), 2,
                              absl::StrCat("writer", t)));
    }
    std::vector<absl::StatusOr<AppendResult>> got(
        2, absl::UnknownError("not run"));
    std::vector<std::thread> writers;
    for (int t = 0; t < 2; ++t) {
      writers.emplace_back([&, t] {
        got[t] = (*log)->Append("race", "main", race.seq,
                                absl::StrCat("w", t, "-", round), evs[t]);
      });
    }
    for (std::thread& w : writers) w.join();
    int won = -1;
    for (int t = 0; t < 2; ++t) {
      if (got[t].ok()) {
        ASSERT_EQ(won, -1) << "round " << round << ": both writers won";
        won = t;
        EXPECT_EQ(got[t]->first_seq, race.seq + 1);
      } else {
        EXPECT_EQ(got[t].status().code(), absl::StatusCode::kAborted)
            << got[t].status();
        EXPECT_TRUE(absl::StrContains(
            got[t].status().message(),
            absl::StrCat("expected head seq ", race.seq, ", branch is at ",
                         race.seq + 2)))
            << got[t].status();
      }
    }
    ASSERT_NE(won, -1) << "round " << round << ": nobody won";
    race.Applied(evs[won]);
  }
  stop = true;
  for (std::thread& t : background) t.join();
  EXPECT_EQ(background_failures.load(), 0);
  absl::StatusOr<std::vector<EventBuffer>> all = (*log)->Read("race", "main");
  ASSERT_TRUE(all.ok()) << all.status();
  EXPECT_EQ(all->size(), race.seq);
  EXPECT_EQ(all->back().hash(), race.prev);
}

TEST(GroupCommitTest, RetriesRacingAreAppliedOnce) {
  TempDir dir("group");
  auto log = EventLog::Open(dir.db());
  ASSERT_TRUE(log.ok()) << log.status();
  ASSERT_TRUE((*log)->CreateSession(Meta("s"), kSecret).ok());
  Chain c{"s"};
  const int rounds = Budget(30, 300);
  for (int round = 0; round < rounds; ++round) {
    const std::string id = absl::StrCat("same-", round);
    const std::vector<EventBuffer> evs = c.Next(id, 3);
    // Same content from three threads; other content under the same id
    // from a fourth: AlreadyExists if it comes after, else it wins and
    // the three are conflicts.
    const std::vector<EventBuffer> other = c.Next(id, 3, "other");
    std::atomic<int> applied{0}, duplicates{0}, conflicts{0};
    std::atomic<int> other_applied{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&, t] {
        const std::vector<EventBuffer>& mine = t == 3 ? other : evs;
        absl::StatusOr<AppendResult> r =
            (*log)->Append("s", "main", c.seq, id, mine,
                           events::MarkerContent(mine));
        if (r.ok()) {
          EXPECT_EQ(r->first_seq, c.seq + 1);
          if (r->duplicate) {
            ++duplicates;
          } else {
            ++(t == 3 ? other_applied : applied);
          }
        } else {
          EXPECT_EQ(r.status().code(), absl::StatusCode::kAlreadyExists)
              << r.status();
          ++conflicts;
        }
      });
    }
    for (std::thread& t : threads) t.join();
    if (other_applied.load() == 1) {
      EXPECT_EQ(applied.load(), 0);
      EXPECT_EQ(conflicts.load(), 3);
      c.Applied(other);
    } else {
      EXPECT_EQ(applied.load(), 1) << id;
      EXPECT_EQ(duplicates.load(), 2) << id;
      EXPECT_EQ(conflicts.load(), 1) << id;
      c.Applied(evs);
    }
  }
  absl::StatusOr<std::vector<EventBuffer>> all = (*log)->Read("s", "main");
  ASSERT_TRUE(all.ok()) << all.status();
  EXPECT_EQ(all->size(), c.seq);
}

TEST(GroupCommitTest, RacingForksAndSessionsOneWins) {
  TempDir dir("group");
  auto log = EventLog::Open(dir.db());
  ASSERT_TRUE(log.ok()) << log.status();
  const int rounds = Budget(20, 200);
  for (int round = 0; round < rounds; ++round) {
    const std::string session = absl::StrCat("s", round);
    std::atomic<int> created{0}, exists{0};
    {
      std::vector<std::thread> threads;
      for (int t = 0; t < 3; ++t) {
        threads.emplace_back([&] {
          absl::Status s = (*log)->CreateSession(Meta(session), kSecret);
          if (s.ok()) {
            ++created;
          } else {
            EXPECT_EQ(s.code(), absl::StatusCode::kAlreadyExists) << s;
            ++exists;
          }
        });
      }
      for (std::thread& t : threads) t.join();
    }
    ASSERT_EQ(created.load(), 1);
    ASSERT_EQ(exists.load(), 2);
    Chain c{session};
    std::vector<EventBuffer> first = c.Next("c0", 2);
    ASSERT_TRUE((*log)->Append(session, "main", 0, "c0", first).ok());
    c.Applied(first);
    // Three forks of one name at seq 1 while the parent grows.
    std::atomic<int> forked{0}, fork_exists{0};
    std::vector<std::thread> threads;
    threads.emplace_back([&] {
      for (int k = 1; k <= 5; ++k) {
        const std::string id = absl::StrCat("c", k);
        std::vector<EventBuffer> evs = c.Next(id, 1);
        ASSERT_TRUE((*log)->Append(session, "main", c.seq, id, evs).ok());
        c.Applied(evs);
      }
    });
    for (int t = 0; t < 3; ++t) {
      threads.emplace_back([&] {
        absl::Status s = (*log)->Fork(session, "main", 1, "alt", "gm", "what if");
        if (s.ok()) {
          ++forked;
        } else {
          EXPECT_EQ(s.code(), absl::StatusCode::kAlreadyExists) << s;
          ++fork_exists;
        }
      });
    }
    for (std::thread& t : threads) t.join();
    EXPECT_EQ(forked.load(), 1);
    EXPECT_EQ(fork_exists.load(), 2);
    absl::StatusOr<std::vector<EventBuffer>> alt = (*log)->Read(session, "alt");
    ASSERT_TRUE(alt.ok()) << alt.status();
    ASSERT_EQ(alt->size(), 1u);
    EXPECT_EQ(alt->front().hash(), first[0].hash());
  }
}

TEST(GroupCommitTest, WholeDatabaseOperationsRunWhileWritersAreBusy) {
  // SyncWal takes every lock; writers keep coming. It must get its turn
  // (new writers queue behind it) and every append must still land.
  TempDir dir("group");
  auto log = EventLog::Open(dir.db());
  ASSERT_TRUE(log.ok()) << log.status();
  const int writers = 8;
  for (int s = 0; s < writers; ++s) {
    ASSERT_TRUE((*log)->CreateSession(Meta(absl::StrCat("w", s)), kSecret).ok());
  }
  std::atomic<bool> stop{false};
  std::atomic<int> failures{0};
  std::vector<uint64_t> heads(writers, 0);
  std::vector<std::thread> threads;
  for (int s = 0; s < writers; ++s) {
    threads.emplace_back([&, s] {
      Chain c{absl::StrCat("w", s)};
      for (int k = 0; !stop.load(); ++k) {
        const std::string id = absl::StrCat("c", k);
        std::vector<EventBuffer> evs = c.Next(id, 1);
        if (!(*log)->Append(c.session, c.branch, c.seq, id, evs).ok()) {
          ++failures;
          return;
        }
        c.Applied(evs);
      }
      heads[s] = c.seq;
    });
  }
  for (int i = 0; i < Budget(10, 100); ++i) {
    ASSERT_TRUE((*log)->SyncWal().ok());
  }
  stop = true;
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  for (int s = 0; s < writers; ++s) {
    absl::StatusOr<Head> head = (*log)->GetHead(absl::StrCat("w", s), "main");
    ASSERT_TRUE(head.ok()) << head.status();
    EXPECT_EQ(head->seq, heads[s]);
  }
}

}  // namespace
}  // namespace combat::store
