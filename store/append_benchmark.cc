// Append and scan throughput of the RocksDB event log.
//
//   bazel run -c opt //store:append_benchmark -- --benchmark_min_time=0.2
//
// BM_AppendCommand/sync:{1,0}: one Append of a command of 4 events (one
//   WriteBatch), with WriteOptions::sync on (power-loss safe) and off.
//   The events are encoded and chained ahead of time, outside the timing.
// BM_ScanBranch: Scan (copy to aligned memory + FlatBuffers Verifier +
//   envelope checks) of a 100k-event branch; items/s is events per second.
// BM_ScanFork: the same length read through a fork at 50k (50k events from
//   the parent, 50k of its own), to show what the shared prefix costs.
#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "tests/testing/temp_dir.h"
#include "events/codec.h"
#include "events/events_generated.h"
#include "events/hash.h"
#include "store/event_log.h"

namespace combat::store {
namespace {

constexpr int kEventsPerCommand = 4;
constexpr int kScanEvents = 100000;

// A temp directory removed at destruction.
using ::combat::testing::TempDir;

// A realistic small event: a state change with a rule, numbers and a note.
events::EventBuffer MakeEvent(const std::string& branch, uint64_t seq,
                              const events::Digest& prev) {
  fb::EventT e;
  e.session = "bench";
  e.branch = branch;
  e.seq = seq;
  e.author = "gm";
  e.role = fb::Role::GM;
  e.command_id =
      absl::StrCat("cmd", (seq + kEventsPerCommand - 1) / kEventsPerCommand);
  e.ruleset = "d20_three_action";
  e.ruleset_version = 1;
  e.prev_hash.assign(prev.begin(), prev.end());
  e.state_hash.assign(32, 0xab);
  fb::StateChangeT sc;
  sc.cause = seq > 1 ? seq - 1 : 0;
  sc.rule = "000.attack.damage";
  for (int i = 0; i < 3; ++i) {
    auto n = std::make_unique<fb::NumberT>();
    n->key = absl::StrCat("n", i);
    n->value = static_cast<int64_t>(seq) * 7 + i;
    sc.numbers.push_back(std::move(n));
  }
  fb::ResourceChangedT rc;
  rc.actor = "goblin-2";
  rc.name = "hp";
  rc.delta = -5;
  rc.value = 7;
  sc.change.Set(std::move(rc));
  e.body.Set(std::move(sc));
  absl::StatusOr<events::EventBuffer> buf =
      events::EventBuffer::FromOwned(events::EncodeEvent(e), "benchmark");
  if (!buf.ok()) abort();
  return *std::move(buf);
}

// Produces commands of `n` chained events for one branch, in order.
class ChainSource {
 public:
  ChainSource(std::string branch, uint64_t head, events::Digest hash)
      : branch_(std::move(branch)), head_(head), hash_(hash) {}

  std::vector<events::EventBuffer> Next(int n) {
    std::vector<events::EventBuffer> out;
    out.reserve(n);
    for (int i = 0; i < n; ++i) {
      out.push_back(MakeEvent(branch_, head_ + 1, hash_));
      ++head_;
      hash_ = out.back().hash();
    }
    return out;
  }

 private:
  std::string branch_;
  uint64_t head_;
  events::Digest hash_;
};

std::unique_ptr<EventLog> OpenOrDie(const std::string& path, bool sync) {
  Options options;
  options.sync = sync;
  absl::StatusOr<std::unique_ptr<EventLog>> log = EventLog::Open(path, options);
  if (!log.ok()) abort();
  SessionMeta meta;
  meta.session = "bench";
  meta.ruleset = "d20_three_action";
  meta.ruleset_version = 1;
  if (!(*log)->CreateSession(meta, std::vector<uint8_t>(32, 7)).ok()) abort();
  return *std::move(log);
}

void BM_AppendCommand(benchmark::State& state) {
  const bool sync = state.range(0) != 0;
  TempDir dir("append_benchmark");
  std::unique_ptr<EventLog> log = OpenOrDie(dir.db(), sync);
  ChainSource source("main", 0, events::Digest{});
  // Commands are prepared in chunks with the timer paused once per chunk,
  // so the figure is the store's cost, not encoding and hashing.
  constexpr int kChunk = 2048;
  std::vector<std::vector<events::EventBuffer>> ready;
  size_t next = 0;
  uint64_t head = 0;
  int64_t command = 0;
  for (auto _ : state) {
    if (next == ready.size()) {
      state.PauseTiming();
      ready.clear();
      for (int i = 0; i < kChunk; ++i) {
        ready.push_back(source.Next(kEventsPerCommand));
      }
      next = 0;
      state.ResumeTiming();
    }
    absl::StatusOr<AppendResult> r = log->Append(
        "bench", "main", head, absl::StrCat("c", command++), ready[next++]);
    if (!r.ok()) {
      state.SkipWithError(std::string(r.status().message()).c_str());
      break;
    }
    head = r->last_seq;
  }
  state.SetItemsProcessed(state.iterations() * kEventsPerCommand);
  state.counters["events_per_command"] = kEventsPerCommand;
}
BENCHMARK(BM_AppendCommand)->ArgName("sync")->Arg(1)->Arg(0)->UseRealTime();

// A database with kScanEvents events on "main", and a branch "half" forked
// at the midpoint with kScanEvents / 2 events of its own, built once per
// process.
struct ScanFixture {
  TempDir dir{"append_benchmark"};
  std::unique_ptr<EventLog> log;

  ScanFixture() {
    log = OpenOrDie(dir.db(), /*sync=*/false);
    Load("main", 0, kScanEvents, events::Digest{});
    constexpr uint64_t kHalf = kScanEvents / 2;
    if (!log->Fork("bench", "main", kHalf, "half", "bench", "").ok()) abort();
    absl::StatusOr<Head> head = log->GetHead("bench", "half");
    if (!head.ok()) abort();
    Load("half", kHalf, kScanEvents - kHalf, head->hash);
  }

  void Load(const std::string& branch, uint64_t head, int n,
            const events::Digest& hash) {
    constexpr int kPerBatch = 100;
    ChainSource source(branch, head, hash);
    for (int i = 0; i < n / kPerBatch; ++i) {
      if (!log->Append("bench", branch,
                       head + static_cast<uint64_t>(i) * kPerBatch,
                       absl::StrCat("load-", branch, i), source.Next(kPerBatch))
               .ok()) {
        abort();
      }
    }
  }
};

ScanFixture& Fixture() {
  // Destroyed at exit (closing the database and removing its directory);
  // constructed after RocksDB's own statics, so destroyed before them.
  static ScanFixture fixture;
  return fixture;
}

void ScanBranch(benchmark::State& state, const std::string& branch) {
  EventLog& log = *Fixture().log;
  for (auto _ : state) {
    int64_t count = 0;
    absl::Status s =
        log.Scan("bench", branch, 1, 0, [&count](const events::EventBuffer& e) {
          benchmark::DoNotOptimize(e.event().seq());
          ++count;
          return absl::OkStatus();
        });
    if (!s.ok() || count != kScanEvents) {
      state.SkipWithError(s.ok() ? "short scan"
                                 : std::string(s.message()).c_str());
      break;
    }
  }
  state.SetItemsProcessed(state.iterations() * kScanEvents);
}

void BM_ScanBranch(benchmark::State& state) { ScanBranch(state, "main"); }
BENCHMARK(BM_ScanBranch)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ScanFork(benchmark::State& state) { ScanBranch(state, "half"); }
BENCHMARK(BM_ScanFork)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace combat::store
