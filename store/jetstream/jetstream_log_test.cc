// The JetStream backend against one real nats-server (R1): the RocksDB
// backend's contracts through two independent opens of the same stream
// (two processes' worth of replicas), the stale writer, the retried
// command within and beyond the dedup window, forks, and what the backend
// refuses.
#include "store/jetstream/jetstream_log.h"

#include <nats/nats.h>

#include <chrono>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "store/command_markers.h"
#include "store/event_log.h"
#include "store/participants.h"
#include "store/jetstream/testing/cluster.h"
#include "store/jetstream/testing/one_node.h"
#include "store/jetstream/testing/log_events.h"

namespace combat::store::jetstream {
namespace {

#define ASSERT_OK(expr)               \
  do {                                \
    const absl::Status _st = (expr);  \
    ASSERT_TRUE(_st.ok()) << _st;     \
  } while (0)

using events::EventBuffer;
using testing::ChainAfter;
using testing::Cluster;
using testing::TestMeta;

std::vector<std::vector<uint8_t>> Bytes(const std::vector<EventBuffer>& v) {
  std::vector<std::vector<uint8_t>> out;
  for (const EventBuffer& e : v) out.push_back(e.bytes());
  return out;
}

class JetStreamLogTest : public testing::OneNodeTest {
 protected:
  // Appends `n` events as `command` at the head `log` reads.
  AppendResult AppendN(EventLog& log, const std::string& session,
                       const std::string& branch, int n,
                       const std::string& command) {
    absl::StatusOr<Head> head = log.GetHead(session, branch);
    EXPECT_TRUE(head.ok()) << head.status();
    auto r = log.Append(session, branch, head->seq, command,
                        ChainAfter(session, branch, *head, n, command));
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? *r : AppendResult{};
  }
};

TEST_F(JetStreamLogTest, WritesOfOneOpenAreReadByAnother) {
  const std::string url = Url();
  auto a = OpenLog(url);
  ASSERT_NE(a, nullptr);
  ASSERT_OK(a->CreateSession(TestMeta("s.1"), {1, 2, 3}));
  AppendResult r = AppendN(*a, "s.1", "main", 3, "c1");
  EXPECT_EQ(r.first_seq, 1u);
  EXPECT_EQ(r.last_seq, 3u);
  auto b = OpenLog(url);
  ASSERT_NE(b, nullptr);
  auto meta = b->GetSession("s.1");
  ASSERT_TRUE(meta.ok()) << meta.status();
  EXPECT_EQ(meta->title, "cluster test");
  EXPECT_EQ(*b->GetSecret("s.1"), (std::vector<uint8_t>{1, 2, 3}));
  auto read_a = a->Read("s.1", "main");
  auto read_b = b->Read("s.1", "main");
  ASSERT_TRUE(read_a.ok() && read_b.ok());
  EXPECT_EQ(read_b->size(), 3u);
  EXPECT_EQ(Bytes(*read_a), Bytes(*read_b));
  // b appends; a sees it at its next read.
  AppendN(*b, "s.1", "main", 2, "c2");
  auto head = a->GetHead("s.1", "main");
  ASSERT_TRUE(head.ok());
  EXPECT_EQ(head->seq, 5u);
  EXPECT_EQ(*a->ListSessions(), std::vector<std::string>{"s.1"});
  EXPECT_TRUE(CheckCommandMarkers(*a, "s.1", "main").ok());
}

TEST_F(JetStreamLogTest, StaleWriterInAnotherOpenIsAborted) {
  const std::string url = Url();
  auto a = OpenLog(url);
  auto b = OpenLog(url);
  ASSERT_TRUE(a && b);
  ASSERT_OK(a->CreateSession(TestMeta("s1"), {7}));
  AppendN(*a, "s1", "main", 2, "c1");
  Head seen = *b->GetHead("s1", "main");  // b reads seq 2
  AppendN(*a, "s1", "main", 1, "c2");      // a moves on to seq 3
  auto r = b->Append("s1", "main", seen.seq, "c3",
                     ChainAfter("s1", "main", seen, 1, "c3"));
  EXPECT_EQ(r.status().code(), absl::StatusCode::kAborted) << r.status();
  EXPECT_TRUE(absl::StrContains(r.status().message(),
                                "expected head seq 2, branch is at 3"))
      << r.status();
  EXPECT_EQ(a->GetHead("s1", "main")->seq, 3u);
  EXPECT_FALSE(a->FindCommand("s1", "main", "c3")->has_value());
}

TEST_F(JetStreamLogTest, NewSessionsAndBranchesRacingAnotherOpenAreAlreadyExists) {
  const std::string url = Url();
  auto a = OpenLog(url);
  auto b = OpenLog(url);  // its replica knows nothing of a's writes yet
  ASSERT_TRUE(a && b);
  ASSERT_OK(a->CreateSession(TestMeta("s1"), {7}));
  EXPECT_EQ(b->CreateSession(TestMeta("s1"), {8}).code(),
            absl::StatusCode::kAlreadyExists);
  AppendN(*a, "s1", "main", 2, "c1");
  ASSERT_OK(a->Fork("s1", "main", 1, "alt", "gm", "first"));
  auto c = OpenLog(url);
  ASSERT_OK(a->Fork("s1", "main", 2, "alt2", "gm", "a's"));
  EXPECT_EQ(c->Fork("s1", "main", 1, "alt2", "gm", "c's").code(),
            absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(*b->GetSecret("s1"), std::vector<uint8_t>{7});
  EXPECT_EQ(c->GetBranch("s1", "alt2")->fork_seq, 2u);
}

TEST_F(JetStreamLogTest, ConcurrentWritersAtOneHeadOneWins) {
  const std::string url = Url();
  constexpr int kWriters = 4;
  std::vector<std::unique_ptr<EventLog>> logs;
  for (int i = 0; i < kWriters; ++i) logs.push_back(OpenLog(url));
  ASSERT_OK(logs[0]->CreateSession(TestMeta("s1"), {7}));
  std::vector<absl::StatusCode> codes(kWriters);
  std::vector<std::thread> threads;
  for (int i = 0; i < kWriters; ++i) {
    threads.emplace_back([&, i] {
      const std::string cmd = absl::StrCat("w", i);
      codes[i] = logs[i]
                     ->Append("s1", "main", 0, cmd,
                              ChainAfter("s1", "main", Head{}, 2, cmd))
                     .status()
                     .code();
    });
  }
  for (std::thread& t : threads) t.join();
  int won = 0;
  for (int i = 0; i < kWriters; ++i) {
    if (codes[i] == absl::StatusCode::kOk) {
      ++won;
    } else {
      EXPECT_EQ(codes[i], absl::StatusCode::kAborted);
    }
  }
  EXPECT_EQ(won, 1);
  EXPECT_EQ(logs[1]->GetHead("s1", "main")->seq, 2u);
}

TEST_F(JetStreamLogTest, RetriedCommandIsAppliedOnceWithinAndBeyondTheWindow) {
  const std::string url = Url("replicas=1&dedup_ms=300");
  auto a = OpenLog(url);
  auto b = OpenLog(url);
  ASSERT_TRUE(a && b);
  ASSERT_OK(a->CreateSession(TestMeta("s1"), {7}));
  const std::vector<EventBuffer> events =
      ChainAfter("s1", "main", Head{}, 2, "c1");
  auto first = a->Append("s1", "main", 0, "c1", events);
  ASSERT_TRUE(first.ok()) << first.status();
  // Within the window, from the other open (a client whose ack was lost).
  auto again = b->Append("s1", "main", 0, "c1", events);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_TRUE(again->duplicate);
  EXPECT_EQ(again->first_seq, 1u);
  EXPECT_EQ(again->last_seq, 2u);
  // JetStream's own window: the same message id is not stored twice.
  {
    natsConnection* nc = nullptr;
    ASSERT_EQ(natsConnection_ConnectTo(&nc, cluster_->Url().c_str()), NATS_OK);
    jsCtx* js = nullptr;
    ASSERT_EQ(natsConnection_JetStream(&js, nc, nullptr), NATS_OK);
    jsPubOptions po;
    jsPubOptions_Init(&po);
    po.MsgId = "s1/main/c1";
    jsPubAck* pa = nullptr;
    const std::string subject =
        "RetriedCommandIsAppliedOnceWithinAndBeyondTheWindow.s1.main";
    ASSERT_EQ(js_Publish(&pa, js, subject.c_str(), "x", 1, &po, nullptr), NATS_OK);
    EXPECT_TRUE(pa->Duplicate);
    jsPubAck_Destroy(pa);
    jsCtx_Destroy(js);
    natsConnection_Destroy(nc);
  }
  // Beyond the window: the store's own marker.
  std::this_thread::sleep_for(std::chrono::milliseconds(600));
  auto later = b->Append("s1", "main", 0, "c1", events);
  ASSERT_TRUE(later.ok()) << later.status();
  EXPECT_TRUE(later->duplicate);
  EXPECT_EQ(later->last_seq, 2u);
  // The same id with other content is a conflict, not a retry.
  auto other = b->Append("s1", "main", 2, "c1",
                         ChainAfter("s1", "main", *b->GetHead("s1", "main"), 1, "c1"),
                         events::Sha256(std::string("other")));
  EXPECT_EQ(other.status().code(), absl::StatusCode::kAlreadyExists)
      << other.status();
  EXPECT_EQ(a->Read("s1", "main")->size(), 2u);
  EXPECT_TRUE(CheckCommandMarkers(*a, "s1", "main").ok());
}

TEST_F(JetStreamLogTest, ForksShareTheirParentsPrefix) {
  const std::string url = Url();
  auto a = OpenLog(url);
  ASSERT_TRUE(a);
  ASSERT_OK(a->CreateSession(TestMeta("s1"), {7}));
  AppendN(*a, "s1", "main", 4, "c1");
  ASSERT_TRUE(a->Fork("s1", "main", 2, "alt", "gm", "what if").ok());
  EXPECT_EQ(a->Fork("s1", "main", 2, "alt", "gm", "again").code(),
            absl::StatusCode::kAlreadyExists);
  AppendN(*a, "s1", "alt", 1, "c2");
  auto b = OpenLog(url);
  auto alt = b->Read("s1", "alt");
  auto main = b->Read("s1", "main");
  ASSERT_TRUE(alt.ok() && main.ok()) << alt.status() << main.status();
  ASSERT_EQ(alt->size(), 3u);
  EXPECT_EQ((*alt)[1].bytes(), (*main)[1].bytes());
  auto meta = b->GetBranch("s1", "alt");
  ASSERT_TRUE(meta.ok());
  EXPECT_EQ(meta->parent, "main");
  EXPECT_EQ(meta->fork_seq, 2u);
  EXPECT_EQ(b->ListBranches("s1")->size(), 2u);
  EXPECT_TRUE(CheckCommandMarkers(*b, "s1", "alt").ok());
  EXPECT_TRUE(b->VerifyChecksums().ok());
}

TEST_F(JetStreamLogTest, ParticipantsAreWritesOfTheLog) {
  const std::string url = Url();
  auto a = OpenLog(url);
  ASSERT_TRUE(a);
  ASSERT_OK(a->CreateSession(TestMeta("s1"), {7}));
  const std::string hash(64, 'a');
  Participant p;
  p.session = "s1";
  p.name = "ann";
  p.role = ParticipantRole::kPlayer;
  ParticipantTable table_a(*a);
  ASSERT_OK(table_a.Add(p, hash));
  // Another open (a server started later) finds it; the same name again
  // is refused there too.
  auto b = OpenLog(url);
  ParticipantTable table_b(*b);
  auto found = table_b.Find("s1", hash);
  ASSERT_TRUE(found.ok()) << found.status();
  ASSERT_TRUE(found->has_value());
  EXPECT_EQ((*found)->name, "ann");
  EXPECT_EQ(table_b.Add(p, std::string(64, 'b')).code(),
            absl::StatusCode::kAlreadyExists);
  // Participants are not events: the branch is untouched.
  EXPECT_EQ(b->GetHead("s1", "main")->seq, 0u);
  // A revocation (a delete of the record) and an operator (no session)
  // are writes of the log too: a later open sees both.
  ASSERT_OK(table_b.Revoke("s1", "ann"));
  ASSERT_OK(table_b.AddOperator("olga", std::string(64, 'c')));
  auto c = OpenLog(url);
  ParticipantTable table_c(*c);
  auto gone = table_c.Find("s1", hash);
  ASSERT_TRUE(gone.ok()) << gone.status();
  EXPECT_FALSE(gone->has_value()) << "the revoked token still finds ann";
  auto op = table_c.FindOperator(std::string(64, 'c'));
  ASSERT_TRUE(op.ok()) << op.status();
  ASSERT_TRUE(op->has_value());
  EXPECT_EQ(**op, "olga");
  // The GM-first creation of a session (ParticipantTable::Found) too.
  Participant gm;
  gm.session = "s2";
  gm.name = "dana";
  gm.role = ParticipantRole::kGm;
  ASSERT_OK(table_c.Found(gm, std::string(64, 'd')));
  auto d = OpenLog(url);
  ParticipantTable table_d(*d);
  auto found_gm = table_d.Find("s2", std::string(64, 'd'));
  ASSERT_TRUE(found_gm.ok()) << found_gm.status();
  ASSERT_TRUE(found_gm->has_value());
  EXPECT_EQ((*found_gm)->role, ParticipantRole::kGm);
}

// Follow: a write of another open reaches a following open by itself (no
// read of it catches up): it is reported to the listener and the replica
// holds it. A revoked token is found no more by Find, which reads the
// replica as it is (it catches up only for a token it does not know).
// Each wait polls with a bound of 5 s, beyond the 1 s catch-up period.
TEST_F(JetStreamLogTest, FollowingOpenAppliesAndReportsAnotherOpensWrites) {
  const std::string url = Url();
  auto a = OpenLog(url);
  auto b = OpenLog(url);
  ASSERT_TRUE(a && b);
  ASSERT_OK(b->CreateSession(TestMeta("s1"), {7}));
  const std::string hash(64, 'e');
  ParticipantTable table_b(*b);
  ASSERT_OK(table_b.Add({"s1", "ann", ParticipantRole::kPlayer}, hash));
  ParticipantTable table_a(*a);
  auto found = table_a.Find("s1", hash);  // unknown to a: a catch-up
  ASSERT_TRUE(found.ok() && found->has_value()) << found.status();

  std::mutex mu;
  std::vector<LogChange> changes;
  ASSERT_OK(a->Follow([&](const LogChange& c) {
    std::lock_guard<std::mutex> lock(mu);
    changes.push_back(c);
  }));
  auto seen = [&](const std::string& branch, uint64_t head) {
    for (int i = 0; i < 50; ++i) {
      {
        std::lock_guard<std::mutex> lock(mu);
        for (const LogChange& c : changes) {
          if (c.session == "s1" && c.branch == branch && c.head_seq == head) return true;
        }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
  };
  AppendN(*b, "s1", "main", 3, "c1");
  EXPECT_TRUE(seen("main", 3)) << "the append of another open was not reported";
  ASSERT_OK(table_b.Revoke("s1", "ann"));
  EXPECT_TRUE(seen(kParticipantsBranch, 0)) << "the revocation was not reported";
  // Reported once applied: the replica no longer admits the token.
  auto gone = table_a.Find("s1", hash);
  ASSERT_TRUE(gone.ok()) << gone.status();
  EXPECT_FALSE(gone->has_value()) << "a following open still admits a revoked token";
  EXPECT_EQ(a->GetHead("s1", "main")->seq, 3u);

  // Stopped: no call after Follow(nullptr) returns.
  ASSERT_OK(a->Follow(nullptr));
  size_t before = 0;
  {
    std::lock_guard<std::mutex> lock(mu);
    before = changes.size();
  }
  AppendN(*b, "s1", "main", 1, "c2");
  EXPECT_EQ(a->GetHead("s1", "main")->seq, 4u);  // a read catches up
  std::lock_guard<std::mutex> lock(mu);
  EXPECT_EQ(changes.size(), before);
}

TEST_F(JetStreamLogTest, WhatTheBackendDoesNotOfferIsAnErrorNamingIt) {
  auto a = OpenLog(Url());
  ASSERT_TRUE(a);
  absl::Status compact = a->Compact();
  EXPECT_EQ(compact.code(), absl::StatusCode::kUnimplemented);
  EXPECT_TRUE(absl::StrContains(compact.message(), "JetStream")) << compact;
}

TEST_F(JetStreamLogTest, ImportIsOneMessageAndReadsBackAsWritten) {
  const std::string url = Url();
  auto a = OpenLog(url);
  ASSERT_TRUE(a);
  ASSERT_OK(a->CreateSession(TestMeta("s1"), {7, 7}));
  AppendN(*a, "s1", "main", 3, "c1");
  AppendN(*a, "s1", "main", 2, "c2");
  ASSERT_OK(a->Fork("s1", "main", 3, "alt", "gm", "what if"));
  AppendN(*a, "s1", "alt", 2, "c3");
  auto main_events = a->Read("s1", "main");
  auto alt_all = a->Read("s1", "alt");
  ASSERT_TRUE(main_events.ok() && alt_all.ok());
  std::vector<EventBuffer> alt_own(alt_all->begin() + 3, alt_all->end());
  std::vector<ImportBranch> branches(2);
  branches[0].meta = *a->GetBranch("s1", "main");
  branches[0].own = &*main_events;
  branches[1].meta = *a->GetBranch("s1", "alt");
  branches[1].own = &alt_own;
  // Into another log (prefix) of the same cluster.
  const std::string other = cluster_->Url("/ImportTarget?replicas=1");
  auto b = OpenLog(other);
  auto d = OpenLog(other);  // opened before the import: behind it
  ASSERT_TRUE(b && d);
  auto imported = b->ImportSession(TestMeta("s1"), {7, 7}, branches);
  ASSERT_TRUE(imported.ok()) << imported.status();
  EXPECT_EQ(*imported, main_events->size() + alt_own.size());
  auto c = OpenLog(other);  // a fresh replica, from the stream
  EXPECT_EQ(Bytes(*c->Read("s1", "main")), Bytes(*main_events));
  EXPECT_EQ(Bytes(*c->Read("s1", "alt")), Bytes(*alt_all));
  EXPECT_EQ(*c->GetSecret("s1"), (std::vector<uint8_t>{7, 7}));
  EXPECT_TRUE(CheckCommandMarkers(*c, "s1", "alt").ok());
  // Appends go on after an import, on both branches.
  AppendN(*c, "s1", "alt", 1, "c4");
  AppendN(*b, "s1", "main", 1, "c5");
  EXPECT_EQ(b->GetHead("s1", "alt")->seq, 6u);
  // A second import of the session is refused (from a stale replica too).
  auto again = d->ImportSession(TestMeta("s1"), {7, 7}, branches);
  EXPECT_EQ(again.status().code(), absl::StatusCode::kAlreadyExists)
      << again.status();
}

TEST_F(JetStreamLogTest, ReadOnlyOpenRefusesWritesAndMissingStreamIsNotFound) {
  const std::string url = Url();
  Options ro;
  ro.access = Options::Access::kReadOnly;
  auto missing = EventLog::Open(url, ro);
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound)
      << missing.status();
  auto a = OpenLog(url);
  ASSERT_OK(a->CreateSession(TestMeta("s1"), {7}));
  auto r = OpenLog(url, ro);
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->read_only());
  EXPECT_EQ(r->CreateSession(TestMeta("s2"), {7}).code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(r->GetSession("s1").ok());
}

TEST_F(JetStreamLogTest, BadUrlsAreInvalidArgument) {
  for (const char* url : {"nats://", "nats://host", "nats://h:1/bad.prefix",
                          "nats://h:1/p?replicas=9", "nats://h:1/p?x=1"}) {
    EXPECT_EQ(EventLog::Open(url).status().code(),
              absl::StatusCode::kInvalidArgument)
        << url;
  }
  EXPECT_EQ(EventLog::Open("nosuch://x").status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace combat::store::jetstream
