// I/O errors injected at 1 in N by the fault FS (tests/testing/fault_fs.h)
// on writes (sometimes after a short write), syncs and reads, alone and
// together with power losses. Properties:
//  - an append that returns an error is never acknowledged; every append
//    that returned OK is in the log after a reopen (sync = true);
//  - after a reopen the log is a valid prefix: whole commands, in the order
//    they were attempted, byte for byte what was attempted, each id once,
//    the chain and state hashes verified; a command whose append failed is
//    either absent, or present whole ("unknown outcome"), and then sending
//    it again is a duplicate with the same range (applied once);
//  - a read that fails returns an error, never a shorter or different log.
//
// COMBAT_LONG=1 runs many more cycles.
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
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
  uint64_t expected = 0;
  std::vector<events::EventBuffer> events;
  bool acked = false;
};

struct Rates {
  const char* name;
  uint32_t write_one_in;
  uint32_t sync_one_in;
  uint32_t read_one_in;
  bool power_loss;  // a simulated power loss before every reopen
};

class IoErrorTest : public ::testing::TestWithParam<Rates> {};

// Opens with errors injected, retrying (every failure must be an error
// status, never a crash); falls back to a fault-free open.
std::unique_ptr<store::EventLog> OpenWithRetries(const std::string& db,
                                                 const store::Options& options,
                                                 FaultFs& fs, const Rates& r,
                                                 int* failed_opens) {
  for (int attempt = 0; attempt < 5; ++attempt) {
    fs.SetErrorRates(r.write_one_in, r.sync_one_in, r.read_one_in);
    auto log = store::EventLog::Open(db, options);
    if (log.ok()) return *std::move(log);
    ++*failed_opens;
  }
  fs.SetErrorRates(0, 0, 0);
  auto log = store::EventLog::Open(db, options);
  EXPECT_TRUE(log.ok()) << "a fault-free open failed after injected errors: "
                        << log.status();
  return log.ok() ? *std::move(log) : nullptr;
}

TEST_P(IoErrorTest, FailedAppendsAreNotAcknowledgedAndTheLogStaysAPrefix) {
  const Rates r = GetParam();
  const int cycles = Budget(25, 300);
  TempDir dir("ioerrors");
  std::shared_ptr<FaultFs> fs = FaultFs::Create(r.write_one_in * 131 + r.sync_one_in * 7 + r.read_one_in);
  std::unique_ptr<rocksdb::Env> env = NewEnv(fs);
  store::Options options;
  options.env = env.get();
  CommandGen gen("s1", 77);
  Rng rng(99);

  // Every command attempted, by id (the latest attempt of an id).
  std::map<std::string, Cmd> attempts;
  uint64_t acked = 0, failed = 0, failed_but_landed = 0, retried_dups = 0;
  int failed_opens = 0, failed_reads = 0;
  kernel::State state;        // the client's view: the verified log
  events::Digest prev{};

  for (int cycle = 0; cycle < cycles; ++cycle) {
    SCOPED_TRACE(absl::StrCat("cycle ", cycle));
    {
      std::unique_ptr<store::EventLog> log =
          OpenWithRetries(dir.db(), options, *fs, r, &failed_opens);
      ASSERT_NE(log, nullptr);
      absl::Status created = log->CreateSession(gen.Meta(), gen.Secret());
      bool session = created.ok() || absl::IsAlreadyExists(created);
      int errors_this_cycle = 0;
      for (int n = 0; session && n < 60 && errors_this_cycle < 3; ++n) {
        Cmd c;
        c.expected = state.seq;
        c.id = absl::StrCat("c", state.seq + 1, "-", cycle);
        auto evs = gen.Next(state, "main", prev, c.id);
        ASSERT_TRUE(evs.ok()) << evs.status();
        c.events = *std::move(evs);
        auto res = log->Append("s1", "main", c.expected, c.id, c.events);
        c.acked = res.ok();
        if (res.ok()) {
          ASSERT_FALSE(res->duplicate);
          ASSERT_EQ(res->first_seq, c.expected + 1);
          ++acked;
          for (const auto& e : c.events) {
            ASSERT_TRUE(kernel::FoldOne(e, state, kernel::CheckHashes::kYes).ok());
            prev = e.hash();
          }
        } else {
          ++failed;
          ++errors_this_cycle;
          // Nothing else to check here: the outcome is unknown until a
          // reopen (the WAL may hold it even though the call failed).
        }
        attempts[c.id] = std::move(c);
      }
    }
    if (r.power_loss || rng.OneIn(3)) {
      fs->CrashNow();
      fs->PowerLossAndRestart(PowerLoss::kKeepRandomPrefix, false);
    }
    // Check with a fault-free open.
    fs->SetErrorRates(0, 0, 0);
    auto log = store::EventLog::Open(dir.db(), options);
    ASSERT_TRUE(log.ok()) << "after injected errors the log does not open: "
                          << log.status();
    if (absl::IsNotFound((*log)->GetSession("s1").status())) {
      ASSERT_TRUE(attempts.empty() || state.seq == 0);
      continue;
    }
    Layer layer = Layer::kNone;
    auto verified = VerifyBranch(**log, "s1", "main", &layer);
    ASSERT_TRUE(verified.ok()) << LayerName(layer) << ": " << verified.status();
    const auto& got = verified->events;
    // Walk the log command by command.
    std::map<std::string, std::pair<uint64_t, uint64_t>> present;
    for (size_t i = 0; i < got.size();) {
      const std::string id = got[i].event().command_id()->str();
      ASSERT_EQ(present.count(id), 0u) << "command " << id << " twice";
      auto a = attempts.find(id);
      ASSERT_NE(a, attempts.end()) << "seq " << i + 1 << ": command " << id
                                   << " was never attempted";
      const Cmd& c = a->second;
      ASSERT_EQ(c.expected, i) << "command " << id << " at the wrong place";
      for (size_t k = 0; k < c.events.size(); ++k) {
        ASSERT_LT(i + k, got.size()) << "command " << id << " torn";
        ASSERT_EQ(got[i + k].bytes(), c.events[k].bytes())
            << "command " << id << " changed at seq " << i + k + 1;
      }
      present[id] = {i + 1, i + c.events.size()};
      i += c.events.size();
    }
    for (const auto& [id, c] : attempts) {
      auto p = present.find(id);
      auto found = (*log)->FindCommand("s1", "main", id);
      ASSERT_TRUE(found.ok()) << found.status();
      if (c.acked) {
        ASSERT_NE(p, present.end()) << "acknowledged command " << id << " lost";
      }
      if (p == present.end()) {
        EXPECT_FALSE(found->has_value()) << id;
        continue;
      }
      ASSERT_TRUE(found->has_value()) << id;
      EXPECT_EQ((*found)->first_seq, p->second.first);
      EXPECT_EQ((*found)->last_seq, p->second.second);
      if (!c.acked) {
        // It failed, yet landed: the retry must be a duplicate.
        ++failed_but_landed;
        auto again = (*log)->Append("s1", "main", c.expected, id, c.events);
        ASSERT_TRUE(again.ok()) << again.status();
        EXPECT_TRUE(again->duplicate) << id;
        EXPECT_EQ(again->first_seq, p->second.first);
        ++retried_dups;
      }
    }
    // Forget attempts that are settled (present ones stay: their ids
    // must never appear twice).
    for (auto it = attempts.begin(); it != attempts.end();) {
      it = present.count(it->first) ? std::next(it) : attempts.erase(it);
    }
    for (auto& [id, c] : attempts) c.acked = true;
    state = verified->state;
    prev = got.empty() ? events::Digest{} : got.back().hash();
  }
  // Read errors: every read either fails or returns the whole log.
  {
    fs->SetErrorRates(0, 0, 0);
    std::vector<std::vector<uint8_t>> expect;
    {
      auto log = store::EventLog::Open(dir.db(), options);
      ASSERT_TRUE(log.ok()) << log.status();
      auto all = (*log)->Read("s1", "main");
      ASSERT_TRUE(all.ok()) << all.status();
      for (const auto& e : *all) expect.push_back(e.bytes());
    }
    for (int i = 0; i < 20; ++i) {
      fs->SetErrorRates(0, 0, r.read_one_in == 0 ? 50 : r.read_one_in);
      auto log = store::EventLog::Open(dir.db(), options);
      if (!log.ok()) {
        ++failed_opens;
        continue;
      }
      for (int k = 0; k < 3; ++k) {
        auto all = (*log)->Read("s1", "main");
        if (!all.ok()) {
          ++failed_reads;
          continue;
        }
        ASSERT_EQ(all->size(), expect.size()) << "a read returned OK but a shorter log";
        for (size_t j = 0; j < expect.size(); ++j) {
          ASSERT_EQ((*all)[j].bytes(), expect[j]) << "seq " << j + 1;
        }
      }
    }
    fs->SetErrorRates(0, 0, 0);
  }
  const FaultCounts counts = fs->counts();
  std::string line = absl::StrCat(
      "I/O errors [", r.name, "]: injected ", counts.write_errors, " write, ",
      counts.sync_errors, " sync, ", counts.read_errors, " read errors; ",
      counts.crashes, " power losses; ", acked, " appends acknowledged (all kept), ",
      failed, " failed (", failed_but_landed,
      " of them landed anyway and were duplicates on retry), ", failed_opens,
      " failed opens, ", failed_reads, " failed reads (none returned a shorter log); final log ",
      state.seq, " events");
  std::printf("%s\n", line.c_str());
  RecordProperty("summary", line);
  EXPECT_EQ(retried_dups, failed_but_landed);
  EXPECT_GT(counts.injected(), 0u);
}

INSTANTIATE_TEST_SUITE_P(
    Rates, IoErrorTest,
    ::testing::Values(Rates{"writes_1_in_40", 40, 0, 0, false},
                      Rates{"syncs_1_in_20", 0, 20, 0, false},
                      Rates{"reads_1_in_30", 0, 0, 30, false},
                      Rates{"all_1_in_60_with_power_loss", 60, 60, 60, true}),
    [](const ::testing::TestParamInfo<Rates>& info) {
      return std::string(info.param.name);
    });

}  // namespace
}  // namespace combat::testing
