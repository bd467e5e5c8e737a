// Power loss, simulated by a RocksDB FileSystem (tests/testing/fault_fs.h)
// that knows which bytes were synced. Each cycle opens the log over the
// fault FS, arms a crash after a random number of file operations (it may
// fall while the database opens and recovers, inside an append, or in a
// background flush), appends commands until the power goes, closes, and
// makes the disk what a machine would find after the power came back:
// unsynced bytes dropped, or a random prefix of them kept (a torn write),
// and, in the strict variant, directory entries created or renamed since
// the directory's last fsync undone. Then it reopens and checks:
//  - sync = true: every acknowledged command is there, byte for byte; at
//    most the one command in flight at the crash follows it, whole;
//  - sync = false: the log is a prefix of what was attempted, in whole
//    commands; acknowledged commands may be lost, but only as a suffix;
//  - always: the chain and every state hash verify (a fresh replay), and
//    the command in flight, sent again with its id and expected seq, is
//    applied exactly once (duplicate if it survived, applied if not).
//
// COMBAT_LONG=1 runs many more cycles.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "kernel/session.h"
#include "store/event_log.h"
#include "tests/testing/budget.h"
#include "tests/testing/fault_fs.h"
#include "tests/testing/gen.h"
#include "tests/testing/temp_dir.h"
#include "tests/testing/verify.h"

namespace combat::testing {
namespace {

struct Cmd {
  std::string id;
  uint64_t expected = 0;  // head seq it was appended at
  std::vector<events::EventBuffer> events;
  bool acked = false;
};

struct Stats {
  int cycles = 0;
  int crashed_in_open = 0;
  uint64_t acked = 0;
  uint64_t acked_lost = 0;       // only allowed with sync = false
  uint64_t inflight_survived = 0;
  uint64_t inflight_lost = 0;
  uint64_t bytes_dropped = 0;
  uint64_t entries_undone = 0;
  uint64_t events = 0;
};

using Param = std::tuple<bool /*sync*/, PowerLoss, bool /*lose_dir_entries*/>;

class PowerLossTest : public ::testing::TestWithParam<Param> {};

std::string Name(const ::testing::TestParamInfo<Param>& info) {
  return absl::StrCat(std::get<0>(info.param) ? "Sync" : "NoSync",
                      std::get<1>(info.param) == PowerLoss::kDropUnsynced
                          ? "DropUnsynced"
                          : "TornUnsynced",
                      std::get<2>(info.param) ? "LoseDirEntries" : "");
}

TEST_P(PowerLossTest, AcknowledgedCommandsSurvive) {
  const auto [sync, mode, lose_dir] = GetParam();
  const int cycles = Budget(25, 400);
  const uint64_t seed = 1000 + (sync ? 1 : 0) * 10 +
                        (mode == PowerLoss::kDropUnsynced ? 0 : 2) + (lose_dir ? 5 : 0);
  TempDir dir("powerloss");
  std::shared_ptr<FaultFs> fs = FaultFs::Create(seed);
  std::unique_ptr<rocksdb::Env> env = NewEnv(fs);
  store::Options options;
  options.sync = sync;
  options.env = env.get();
  CommandGen gen("s1", seed);
  Rng rng(seed * 7919);
  Stats stats;

  // What the log must hold: `durable` commands (recovered, so known
  // present), then the commands attempted since the last restart.
  std::vector<Cmd> durable;
  kernel::State durable_state;  // after `durable`
  events::Digest durable_prev{};
  std::vector<Cmd> attempted;
  bool session_acked = false;

  for (int cycle = 0; cycle < cycles; ++cycle) {
    SCOPED_TRACE(absl::StrCat("cycle ", cycle));
    ++stats.cycles;
    fs->CrashAfterOps(static_cast<int64_t>(rng.Below(150)));
    auto opened = store::EventLog::Open(dir.db(), options);
    if (opened.ok()) {
      std::unique_ptr<store::EventLog> log = *std::move(opened);
      absl::Status created = log->CreateSession(gen.Meta(), gen.Secret());
      if (created.ok()) session_acked = true;
      kernel::State state = durable_state;
      events::Digest prev = durable_prev;
      for (const Cmd& c : attempted) {  // a retry appended after the last check
        for (const auto& e : c.events) {
          ASSERT_TRUE(kernel::FoldOne(e, state, kernel::CheckHashes::kYes).ok());
          prev = e.hash();
        }
      }
      bool session_ok = created.ok() || absl::IsAlreadyExists(created);
      for (int n = 0; session_ok && n < 40 && !fs->crashed(); ++n) {
        Cmd c;
        c.expected = state.seq;
        c.id = absl::StrCat("c", state.seq + 1);
        auto evs = gen.Next(state, "main", prev, c.id);
        ASSERT_TRUE(evs.ok()) << evs.status();
        c.events = *std::move(evs);
        auto r = log->Append("s1", "main", c.expected, c.id, c.events);
        c.acked = r.ok();
        if (r.ok()) {
          ASSERT_FALSE(r->duplicate);
          ++stats.acked;
        }
        for (const auto& e : c.events) {
          ASSERT_TRUE(kernel::FoldOne(e, state, kernel::CheckHashes::kYes).ok());
          prev = e.hash();
        }
        attempted.push_back(std::move(c));
        if (!r.ok()) break;  // the power is out (or the FS refuses): stop
      }
      fs->CrashNow();  // if it has not happened yet
    } else {
      ++stats.crashed_in_open;
      ASSERT_TRUE(fs->crashed()) << "open failed without a crash: " << opened.status();
    }
    stats.bytes_dropped += fs->PowerLossAndRestart(mode, lose_dir);

    // Power is back: check with a plain open (no faults armed).
    auto log = store::EventLog::Open(dir.db(), options);
    ASSERT_TRUE(log.ok()) << "after the power loss the log does not open: "
                          << log.status();
    auto session = (*log)->GetSession("s1");
    if (!session.ok()) {
      ASSERT_TRUE(absl::IsNotFound(session.status())) << session.status();
      ASSERT_FALSE(sync && session_acked) << "an acknowledged session was lost";
      ASSERT_TRUE(durable.empty());
      for (const Cmd& c : attempted) {
        ASSERT_FALSE(sync && c.acked) << "acknowledged command " << c.id << " lost";
        if (c.acked) ++stats.acked_lost;
      }
      attempted.clear();
      session_acked = false;
      continue;
    }
    Layer layer = Layer::kNone;
    auto verified = VerifyBranch(**log, "s1", "main", &layer);
    ASSERT_TRUE(verified.ok()) << LayerName(layer) << ": " << verified.status();
    const std::vector<events::EventBuffer>& got = verified->events;
    stats.events = got.size();
    // The recovered log, command by command, against durable + attempted.
    size_t pos = 0;
    auto take = [&](const Cmd& c) -> int {  // 1 = whole, 0 = absent, -1 = bad
      if (pos == got.size()) return 0;
      for (size_t i = 0; i < c.events.size(); ++i) {
        if (pos + i >= got.size() || got[pos + i].bytes() != c.events[i].bytes()) {
          return -1;
        }
      }
      pos += c.events.size();
      return 1;
    };
    for (const Cmd& c : durable) {
      ASSERT_EQ(take(c), 1) << "durable command " << c.id << " lost or changed";
    }
    std::vector<Cmd> recovered;
    bool ended = false;
    for (Cmd& c : attempted) {
      int t = ended ? 0 : take(c);
      ASSERT_NE(t, -1) << "command " << c.id << " recovered torn or changed";
      if (t == 1) {
        if (!c.acked) ++stats.inflight_survived;
        recovered.push_back(std::move(c));
        continue;
      }
      ended = true;
      if (c.acked) {
        ASSERT_FALSE(sync) << "acknowledged (synced) command " << c.id
                           << " at seq " << c.expected + 1 << " lost; the log ends at seq "
                           << got.size();
        ++stats.acked_lost;
      } else {
        ++stats.inflight_lost;
      }
    }
    ASSERT_EQ(pos, got.size()) << "the log holds events nobody appended";

    // Send the command that was in flight again: applied exactly once. When
    // it is applied now, it is acknowledged but (without sync) not durable:
    // the next cycle starts with it attempted.
    std::vector<Cmd> retried;
    if (!attempted.empty() && !attempted.back().acked) {
      const Cmd& c = attempted.back();
      const bool survived = !recovered.empty() && recovered.back().id == c.id;
      if (survived || c.expected == got.size()) {
        auto r = (*log)->Append("s1", "main", c.expected, c.id, c.events);
        ASSERT_TRUE(r.ok()) << r.status();
        EXPECT_EQ(r->duplicate, survived);
        EXPECT_EQ(r->first_seq, c.expected + 1);
        if (!survived) {
          Cmd again;
          again.id = c.id;
          again.expected = c.expected;
          again.events = c.events;
          again.acked = true;
          retried.push_back(std::move(again));
        }
      }
    }
    for (Cmd& c : recovered) {
      c.acked = true;
      for (const auto& e : c.events) {
        ASSERT_TRUE(kernel::FoldOne(e, durable_state, kernel::CheckHashes::kYes).ok());
        durable_prev = e.hash();
      }
      durable.push_back(std::move(c));
    }
    attempted = std::move(retried);
    session_acked = true;
  }
  stats.entries_undone = fs->counts().entries_undone;
  std::string line = absl::StrCat(
      "power loss [", Name({GetParam(), 0}), "]: ", stats.cycles, " crashes (",
      stats.crashed_in_open, " while opening), ", stats.acked,
      " commands acknowledged, ", stats.acked_lost,
      " acknowledged lost (allowed only without sync), in flight: ",
      stats.inflight_survived, " survived / ", stats.inflight_lost,
      " lost, ", stats.bytes_dropped, " unsynced bytes dropped, ",
      stats.entries_undone, " directory entries undone; final log ",
      stats.events, " events");
  std::printf("%s\n", line.c_str());
  RecordProperty("summary", line);
  if (sync) {
    EXPECT_EQ(stats.acked_lost, 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(
    AllModes, PowerLossTest,
    ::testing::Combine(::testing::Bool(),
                       ::testing::Values(PowerLoss::kDropUnsynced,
                                         PowerLoss::kKeepRandomPrefix),
                       ::testing::Bool()),
    Name);

}  // namespace
}  // namespace combat::testing
