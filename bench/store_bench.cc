// RocksDB (store/, replay/) side by side with SQLite (sqlite_log.h) on the
// same events: a d20_three_action encounter played through the real
// decider (generator.h).
//
//   bazel run -c opt //bench:store_bench -- [--events=N] [--commands=K]
//
// Every benchmark runs once (Iterations(1)) with its own manual timing;
// the figures are counters:
//  BM_DurableAppend/<store>/sync:<1|0>: K commands (one command's events in
//    one WriteBatch / one transaction, one writer), each timed: p50_us,
//    p99_us, commands_per_s. sync:1 = fsync per command (RocksDB sync=true,
//    SQLite synchronous=FULL); sync:0 = RocksDB sync=false, SQLite NORMAL.
//  BM_BulkImport/<store>: the whole branch (N events) into an empty
//    database, durable on return: RocksDB EventLog::ImportSession (the
//    bundle import's write path: checks, one table file, one ingestion;
//    canonical bytes are the bundle verifier's job); SQLite one transaction
//    with synchronous=FULL (one fsync at commit). events_per_s.
//  BM_ColdReplay/<store>/check:<0|1>: a fresh handle (empty block cache; the
//    OS page cache is warm), every event read, copied to aligned memory,
//    Verifier-checked, its envelope and hash-chain link checked (SQLite:
//    SqliteLog::ScanChecked, the same checks as the store's scan) and folded (kernel::FoldOne; check:1 also compares
//    every recorded state hash). events_per_s; cpu_us_per_event (process
//    CPU, all threads, user + system) and cpu_per_wall.
//  BM_ColdReplayBeside/fold:<0|1>: the two cold replays alternated, five
//    rounds: ratio_p50 and ratio_min (RocksDB over SQLite, same round);
//    CPU per event of each, RocksDB's critical path (the longer of the
//    calling thread's CPU and the other threads') and ratio_idle_cpu
//    (SQLite's CPU over that path: the ratio on a machine with idle cores,
//    from CPU times, which a busy machine disturbs far less than wall time).
//  BM_Disk/<store>: bytes on disk per event (RocksDB after EventLog::Compact:
//    flush + full compaction with the store's own table format; no
//    snapshots yet; SQLite after a WAL checkpoint).
//  BM_ReplayRss/<store>: a child process (this binary, --rss_replay) opens
//    the database, replays the branch (read, verify, fold) and reports its
//    peak resident set (getrusage ru_maxrss).
//  BM_Seek: replay/jump.h Seek to uniformly random events (snapshots every
//    1024, written by a first seek to the head): p50_us, p99_us.
//  BM_Fork/<prefix>: replay/fork.h ForkBranch at seq <prefix>: p50_us.
//  BM_Verify/redecide:<0|1>: replay/verify.h over the branch: events_per_s.
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "bench/generator.h"
#include "bench/sqlite_log.h"
#include "kernel/ruleset.h"
#include "kernel/session.h"
#include "kernel/state.h"
#include "replay/fork.h"
#include "replay/jump.h"
#include "replay/verify.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "store/event_log.h"
#include "tests/testing/bench_main.h"
#include "tests/testing/temp_dir.h"

namespace combat::bench {
namespace {

uint64_t g_events = 1000000;
uint64_t g_commands = 2000;
std::string g_self;

using Clock = std::chrono::steady_clock;
double Since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// The calling thread's CPU time so far, seconds.
double ThreadCpuSeconds() {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

// This process's CPU time so far (user + system, all threads), seconds.
double ProcessCpuSeconds() {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

using ::combat::testing::Check;

using ::combat::testing::TempDir;

uint64_t DirBytes(const std::string& path) {
  uint64_t total = 0;
  std::error_code ec;
  if (std::filesystem::is_regular_file(path, ec)) return std::filesystem::file_size(path, ec);
  for (const auto& e : std::filesystem::recursive_directory_iterator(path, ec)) {
    if (e.is_regular_file(ec)) total += e.file_size(ec);
  }
  return total;
}

const Corpus& TheCorpus() {
  static Corpus* c = [] {
    GenOptions o;
    o.ruleset = "d20_three_action";
    o.events = g_events;
    o.combatants = 6;
    o.progress = true;
    auto r = GenerateCached(o);
    Check(r.status(), "generate");
    fprintf(stderr, "corpus: %zu events, %zu commands, %.0f bytes/event\n",
            r->events.size(), r->commands.size(),
            static_cast<double>(r->bytes) / static_cast<double>(r->events.size()));
    return new Corpus(*std::move(r));
  }();
  return *c;
}

using ::combat::testing::Percentiles;

// ---- durable append ------------------------------------------------------

void BM_DurableAppend(benchmark::State& st) {
  const bool sqlite = st.range(0) == 1;
  const bool sync = st.range(1) == 1;
  const Corpus& c = TheCorpus();
  const size_t k = std::min<size_t>(g_commands, c.commands.size());
  for (auto _ : st) {
    TempDir dir("combat_store_bench");
    std::vector<double> us;
    us.reserve(k);
    uint64_t events = 0;
    Clock::time_point t0;
    if (sqlite) {
      auto log = SqliteLog::Open(dir.path() + "/events.db", sync);
      Check(log.status(), "sqlite open");
      t0 = Clock::now();
      uint64_t head = 0;
      for (size_t i = 0; i < k; ++i) {
        const auto& cmd = c.commands[i];
        const auto t = Clock::now();
        Check((*log)->Append(c.meta.session, "main", head, cmd.id, c.events,
                             cmd.begin, cmd.end),
              "sqlite append");
        us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t).count());
        head += cmd.end - cmd.begin;
        events += cmd.end - cmd.begin;
      }
    } else {
      store::Options o;
      o.sync = sync;
      auto log = store::EventLog::Open(dir.path() + "/db", o);
      Check(log.status(), "open");
      Check((*log)->CreateSession(c.meta, c.secret), "session");
      // Each command's events as the engine hands them to Append (copied
      // outside the timing).
      std::vector<std::vector<events::EventBuffer>> batches;
      batches.reserve(k);
      for (size_t i = 0; i < k; ++i) {
        const auto& cmd = c.commands[i];
        batches.emplace_back(c.events.begin() + static_cast<long>(cmd.begin),
                             c.events.begin() + static_cast<long>(cmd.end));
      }
      t0 = Clock::now();
      uint64_t head = 0;
      for (size_t i = 0; i < k; ++i) {
        const auto t = Clock::now();
        auto r = (*log)->Append(c.meta.session, "main", head, c.commands[i].id, batches[i]);
        us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t).count());
        Check(r.status(), "append");
        head = r->last_seq;
        events += batches[i].size();
      }
    }
    const double secs = Since(t0);
    Percentiles(st, us);
    st.counters["commands_per_s"] = static_cast<double>(k) / secs;
    st.counters["events_per_command"] = static_cast<double>(events) / static_cast<double>(k);
  }
}
BENCHMARK(BM_DurableAppend)
    ->ArgNames({"sqlite", "sync"})
    ->Args({0, 1})
    ->Args({1, 1})
    ->Args({0, 0})
    ->Args({1, 0})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// ---- the long branch, bulk imported once per store ----------------------

struct Stores {
  TempDir dir{"combat_store_bench"};
  std::string rocks_path;
  std::string sqlite_path;
  std::unique_ptr<store::EventLog> rocks;
  bool rocks_loaded = false;
  bool sqlite_loaded = false;
  int forks = 0;
};

Stores* g_stores = nullptr;  // made by the first TheStores, removed by main

Stores& TheStores() {
  if (g_stores == nullptr) {
    g_stores = new Stores;
    g_stores->rocks_path = g_stores->dir.path() + "/rocks";
    g_stores->sqlite_path = g_stores->dir.path() + "/events.db";
  }
  return *g_stores;
}

// Closes the stores and removes their directory (~0.6 GB at 1M events).
void RemoveStores() {
  delete g_stores;
  g_stores = nullptr;
}

store::EventLog& Rocks() {
  Stores& s = TheStores();
  if (s.rocks == nullptr) {
    auto log = store::EventLog::Open(s.rocks_path);
    Check(log.status(), "open");
    s.rocks = *std::move(log);
  }
  return *s.rocks;
}

void BM_BulkImport(benchmark::State& st) {
  const bool sqlite = st.range(0) == 1;
  const Corpus& c = TheCorpus();
  Stores& s = TheStores();
  for (auto _ : st) {
    Clock::time_point t0;
    if (sqlite) {
      auto log = SqliteLog::Open(s.sqlite_path, /*durable=*/true);
      Check(log.status(), "sqlite open");
      t0 = Clock::now();
      Check((*log)->BulkInsert(c.meta.session, "main", c.events), "sqlite bulk");
      s.sqlite_loaded = true;
    } else {
      auto opened = store::EventLog::Open(s.rocks_path);
      Check(opened.status(), "open");
      auto& log = **opened;
      // The store half of replay/bundle.h's ImportBundle, after the bundle
      // was verified (chain, state hashes, canonical bytes: `verify`'s
      // figure): one session, one branch, all or nothing, durable on return.
      store::ImportBranch main;
      main.meta.session = c.meta.session;
      main.meta.branch = "main";
      main.own = &c.events;
      t0 = Clock::now();
      auto r = log.ImportSession(c.meta, c.secret, {main},
                                 store::EventLog::Canonical::kCallerChecked);
      Check(r.status(), "import");
      s.rocks_loaded = true;
    }
    const double secs = Since(t0);
    if (!sqlite) {
      // What binding each command's marker to its content costs inside the
      // import (events::MarkerContent per command, as bulk_import.cc does),
      // timed apart: its share of the import's wall time.
      const Clock::time_point m0 = Clock::now();
      events::Digest sink{};
      for (const CorpusCommand& cmd : c.commands) {
        const events::Digest d = events::MarkerContent(absl::MakeConstSpan(
            c.events.data() + cmd.begin, cmd.end - cmd.begin));
        sink[0] ^= d[0];
      }
      benchmark::DoNotOptimize(sink);
      st.counters["marker_content_share"] = Since(m0) / secs;
    }
    if (!sqlite) {
      // Untimed: close and open once, so that RocksDB recovers its WAL into
      // a table file now rather than inside the first cold replay.
      auto again = store::EventLog::Open(s.rocks_path);
      Check(again.status(), "reopen");
    }
    st.counters["events_per_s"] = static_cast<double>(c.events.size()) / secs;
    st.counters["events"] = static_cast<double>(c.events.size());
    // As imported (before BM_Disk's compaction).
    st.counters["disk_bytes_per_event"] =
        static_cast<double>(DirBytes(sqlite ? s.sqlite_path : s.rocks_path)) /
        static_cast<double>(c.events.size());
  }
}
BENCHMARK(BM_BulkImport)->ArgName("sqlite")->Arg(0)->Arg(1)->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();

// Reads, verifies and folds the branch from a fresh handle.
absl::StatusOr<uint64_t> ReplayOnce(bool sqlite, const std::string& path,
                                    const std::string& session,
                                    kernel::CheckHashes check, bool fold) {
  kernel::State state;
  uint64_t n = 0;
  auto visit = [&](const events::EventBuffer& e) -> absl::Status {
    ++n;
    if (!fold) return absl::OkStatus();
    return kernel::FoldOne(e, state, check);
  };
  if (sqlite) {
    auto log = SqliteLog::Open(path, true);
    if (!log.ok()) return log.status();
    // The same checks as the store's scan: Verifier, envelope, chain.
    absl::Status st = (*log)->ScanChecked(session, "main", visit);
    if (!st.ok()) return st;
  } else {
    store::Options o;
    o.create_if_missing = false;
    auto log = store::EventLog::Open(path, o);
    if (!log.ok()) return log.status();
    absl::Status st = (*log)->Scan(session, "main", 1, 0, visit);
    if (!st.ok()) return st;
  }
  return n;
}

void BM_ColdReplay(benchmark::State& st) {
  const bool sqlite = st.range(0) == 1;
  const int mode = static_cast<int>(st.range(1));  // 0 read only, 1 fold, 2 fold+hash
  const Corpus& c = TheCorpus();
  Stores& s = TheStores();
  s.rocks.reset();  // a cold handle: close the writer
  uint64_t n = c.events.size();
  if (mode == 2) n = std::min<uint64_t>(n, 200000);
  for (auto _ : st) {
    const double cpu0 = ProcessCpuSeconds();
    const auto t0 = Clock::now();
    uint64_t seen = 0;
    if (mode == 2) {
      // Fold + every state hash over the first 200k events.
      kernel::State state;
      auto visit = [&](const events::EventBuffer& e) -> absl::Status {
        ++seen;
        return kernel::FoldOne(e, state, kernel::CheckHashes::kYes);
      };
      if (sqlite) {
        auto log = SqliteLog::Open(s.sqlite_path, true);
        Check(log.status(), "open");
        absl::Status stt = (*log)->ScanChecked(c.meta.session, "main", [&](const events::EventBuffer& e) -> absl::Status {
          if (seen >= n) return absl::CancelledError("done");
          return visit(e);
        });
        if (!absl::IsCancelled(stt)) Check(stt, "replay");
      } else {
        auto log = store::EventLog::Open(s.rocks_path);
        Check(log.status(), "open");
        Check((*log)->Scan(c.meta.session, "main", 1, n, visit), "replay");
      }
    } else {
      auto r = ReplayOnce(sqlite, sqlite ? s.sqlite_path : s.rocks_path, c.meta.session,
                          kernel::CheckHashes::kNo, mode == 1);
      Check(r.status(), "replay");
      seen = *r;
    }
    const double secs = Since(t0);
    const double cpu = ProcessCpuSeconds() - cpu0;
    if (seen != n) {
      st.SkipWithError("short replay");
      return;
    }
    st.counters["events_per_s"] = static_cast<double>(n) / secs;
    // CPU of every thread of the process (the reader thread too) per
    // event, and the share of the wall time it was on a CPU.
    st.counters["cpu_us_per_event"] = cpu * 1e6 / static_cast<double>(n);
    st.counters["cpu_per_wall"] = cpu / secs;
    st.counters["events"] = static_cast<double>(n);
  }
}
BENCHMARK(BM_ColdReplay)
    ->ArgNames({"sqlite", "mode"})
    ->Args({0, 0})
    ->Args({1, 0})
    ->Args({0, 1})
    ->Args({1, 1})
    ->Args({0, 2})
    ->Args({1, 2})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// The two cold replays of BM_ColdReplay (mode 0: read + checks; 1: + fold)
// alternated, five rounds (RocksDB first in odd rounds, SQLite first in
// even ones), so that both see the same machine: on a shared machine the
// load changes within seconds, and two figures a minute apart compare two
// machines. ratio_p50 / ratio_min: RocksDB's events/s over SQLite's in the
// same round; the sides' own p50 events/s and CPU per event (process CPU,
// all threads).
void BM_ColdReplayBeside(benchmark::State& st) {
  const bool fold = st.range(0) == 1;
  const Corpus& c = TheCorpus();
  Stores& s = TheStores();
  s.rocks.reset();
  const double n = static_cast<double>(c.events.size());
  constexpr int kRounds = 5;
  for (auto _ : st) {
    std::vector<double> ratio, rocks_eps, sqlite_eps, rocks_cpu, sqlite_cpu,
        rocks_path, rocks_main;
    for (int round = 0; round < kRounds; ++round) {
      double eps[2] = {0, 0};
      double cpu[2] = {0, 0};
      double main_cpu[2] = {0, 0};
      for (int k = 0; k < 2; ++k) {
        const bool sqlite = (k == 1) == (round % 2 == 0);
        const double cpu0 = ProcessCpuSeconds();
        const double main0 = ThreadCpuSeconds();
        const auto t0 = Clock::now();
        auto r = ReplayOnce(sqlite, sqlite ? s.sqlite_path : s.rocks_path,
                            c.meta.session, kernel::CheckHashes::kNo, fold);
        Check(r.status(), "replay");
        if (*r != c.events.size()) {
          st.SkipWithError("short replay");
          return;
        }
        eps[sqlite] = n / Since(t0);
        cpu[sqlite] = (ProcessCpuSeconds() - cpu0) * 1e6 / n;
        main_cpu[sqlite] = (ThreadCpuSeconds() - main0) * 1e6 / n;
      }
      ratio.push_back(eps[0] / eps[1]);
      rocks_eps.push_back(eps[0]);
      sqlite_eps.push_back(eps[1]);
      rocks_cpu.push_back(cpu[0]);
      sqlite_cpu.push_back(cpu[1]);
      // The longer of the calling thread's CPU and the other threads': the
      // wall time per event on a machine with a free core for each.
      rocks_path.push_back(std::max(main_cpu[0], cpu[0] - main_cpu[0]));
      rocks_main.push_back(main_cpu[0]);
    }
    auto median = [](std::vector<double> v) {
      std::sort(v.begin(), v.end());
      return v[v.size() / 2];
    };
    st.counters["ratio_p50"] = median(ratio);
    st.counters["ratio_min"] = *std::min_element(ratio.begin(), ratio.end());
    st.counters["rocks_events_per_s"] = median(rocks_eps);
    st.counters["sqlite_events_per_s"] = median(sqlite_eps);
    st.counters["rocks_cpu_us_per_event"] = median(rocks_cpu);
    st.counters["sqlite_cpu_us_per_event"] = median(sqlite_cpu);
    st.counters["rocks_path_us_per_event"] = median(rocks_path);
    // The calling thread's share (hash, checks, visit); the rest is the
    // reader thread's (and RocksDB's).
    st.counters["rocks_main_us_per_event"] = median(rocks_main);
    // SQLite's CPU per event (its one thread: its wall time when it has a
    // core) over RocksDB's critical path: the ratio on an idle machine.
    st.counters["ratio_idle_cpu"] = median(sqlite_cpu) / median(rocks_path);
  }
}
BENCHMARK(BM_ColdReplayBeside)
    ->ArgName("fold")
    ->Arg(0)
    ->Arg(1)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_Disk(benchmark::State& st) {
  const bool sqlite = st.range(0) == 1;
  const Corpus& c = TheCorpus();
  Stores& s = TheStores();
  for (auto _ : st) {
    uint64_t bytes = 0;
    if (sqlite) {
      auto log = SqliteLog::Open(s.sqlite_path, true);
      Check(log.status(), "open");
      Check((*log)->Checkpoint(), "checkpoint");
      log->reset();
      bytes = DirBytes(s.sqlite_path) + DirBytes(s.sqlite_path + "-wal");
    } else {
      s.rocks.reset();
      {
        // Flush + full compaction with the store's own table format.
        auto log = store::EventLog::Open(s.rocks_path);
        Check(log.status(), "open");
        Check((*log)->Compact(), "compact");
      }
      // Only the data: table files, the live WAL and the manifest (no LOG
      // files, which are text diagnostics).
      std::error_code ec;
      for (const auto& e : std::filesystem::directory_iterator(s.rocks_path, ec)) {
        const std::string name = e.path().filename().string();
        if (name.rfind("LOG", 0) == 0) continue;
        if (e.is_regular_file(ec)) bytes += e.file_size(ec);
      }
    }
    st.counters["bytes_per_event"] = static_cast<double>(bytes) / static_cast<double>(c.events.size());
    st.counters["event_bytes_per_event"] = static_cast<double>(c.bytes) / static_cast<double>(c.events.size());
  }
}
BENCHMARK(BM_Disk)->ArgName("sqlite")->Arg(0)->Arg(1)->Iterations(1)->UseRealTime();

void BM_ReplayRss(benchmark::State& st) {
  const bool sqlite = st.range(0) == 1;
  const Corpus& c = TheCorpus();
  Stores& s = TheStores();
  s.rocks.reset();
  for (auto _ : st) {
    const std::string cmd = absl::StrCat(g_self, " --rss_replay=", sqlite ? "sqlite:" : "rocks:",
                                         sqlite ? s.sqlite_path : s.rocks_path,
                                         " --rss_session=", c.meta.session);
    FILE* p = popen(cmd.c_str(), "r");
    if (p == nullptr) abort();
    long kb = 0;
    unsigned long long events = 0;
    double secs = 0;
    if (fscanf(p, "%ld %llu %lf", &kb, &events, &secs) != 3) kb = -1;
    pclose(p);
    if (kb < 0 || events != c.events.size()) {
      st.SkipWithError("child replay failed");
      return;
    }
    st.counters["rss_mb"] = static_cast<double>(kb) / 1024.0;
    st.counters["events_per_s"] = static_cast<double>(events) / secs;
    st.counters["events"] = static_cast<double>(events);
  }
}
BENCHMARK(BM_ReplayRss)->ArgName("sqlite")->Arg(0)->Arg(1)->Iterations(1)->UseRealTime();

uint64_t SplitMix(uint64_t& x) {
  uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

void BM_Seek(benchmark::State& st) {
  const Corpus& c = TheCorpus();
  const uint64_t head = c.events.size();
  store::EventLog& log = Rocks();
  // The snapshots: a first seek to the head writes one every 1024 events.
  {
    const auto t0 = Clock::now();
    replay::SeekOptions w;
    auto s = replay::Seek(log, c.meta.session, "main", head, w);
    Check(s.status(), "seek head");
    st.counters["first_seek_s"] = Since(t0);
    auto n = log.CountSnapshots(c.meta.session);
    Check(n.status(), "count");
    st.counters["snapshots"] = static_cast<double>(*n);
  }
  replay::SeekOptions o;
  o.write_snapshots = false;
  uint64_t rng = 12345;
  std::vector<double> us;
  uint64_t folded = 0;
  for (auto _ : st) {
    const uint64_t target = 1 + SplitMix(rng) % head;
    replay::SeekReport report;
    const auto t0 = Clock::now();
    auto s = replay::Seek(log, c.meta.session, "main", target, o, &report);
    us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
    if (!s.ok() || s->seq != target) abort();
    folded += report.folded;
  }
  Percentiles(st, us);
  st.counters["events"] = static_cast<double>(head);
  st.counters["mean_folded"] = static_cast<double>(folded) / static_cast<double>(us.size());
}
BENCHMARK(BM_Seek)->Unit(benchmark::kMicrosecond)->Iterations(2000);

void BM_Fork(benchmark::State& st) {
  const Corpus& c = TheCorpus();
  Stores& s = TheStores();
  store::EventLog& log = Rocks();
  const uint64_t at = std::min<uint64_t>(static_cast<uint64_t>(st.range(0)), c.events.size());
  std::vector<double> us;
  for (auto _ : st) {
    replay::ForkRequest r;
    r.session = c.meta.session;
    r.at = at;
    r.branch = absl::StrCat("f", ++s.forks);
    r.author = "bench";
    r.reason = "fork cost";
    const auto t0 = Clock::now();
    Check(replay::ForkBranch(log, r).status(), "fork");
    us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
  }
  Percentiles(st, us);
  st.counters["prefix"] = static_cast<double>(at);
}
BENCHMARK(BM_Fork)
    ->Unit(benchmark::kMicrosecond)
    ->Iterations(300)
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(100000)
    ->Arg(1000000)
    ->Arg(10000000);

void BM_Verify(benchmark::State& st) {
  const bool redecide = st.range(0) == 1;
  const Corpus& c = TheCorpus();
  store::EventLog& log = Rocks();
  const kernel::Ruleset* rules = kernel::FindRuleset(c.meta.ruleset);
  for (auto _ : st) {
    const auto t0 = Clock::now();
    auto source = replay::StoreSource(log, c.meta.session, "main");
    Check(source.status(), "source");
    replay::VerifyOptions o;
    o.redecide = redecide;
    auto r = replay::VerifyBranchEvents(*source, c.meta, redecide ? rules : nullptr, o);
    Check(r.status(), "verify");
    if (!r->ok()) {
      fprintf(stderr, "%s\n", replay::RenderVerifyReport(*r).c_str());
      st.SkipWithError("verify mismatch");
      return;
    }
    const double secs = Since(t0);
    st.counters["events_per_s"] = static_cast<double>(r->events) / secs;
    st.counters["events"] = static_cast<double>(r->events);
    st.counters["commands_redecided"] = static_cast<double>(r->commands_redecided);
  }
}
BENCHMARK(BM_Verify)->ArgName("redecide")->Arg(0)->Arg(1)->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();

// The child of BM_ReplayRss: prints "<maxrss KB> <events> <seconds>".
int RssReplay(const std::string& spec, const std::string& session) {
  const bool sqlite = spec.rfind("sqlite:", 0) == 0;
  const std::string path = spec.substr(spec.find(':') + 1);
  const auto t0 = Clock::now();
  auto n = ReplayOnce(sqlite, path, session, kernel::CheckHashes::kNo, true);
  const double secs = Since(t0);
  if (!n.ok()) {
    fprintf(stderr, "%s\n", std::string(n.status().message()).c_str());
    return 1;
  }
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  printf("%ld %llu %f\n", ru.ru_maxrss, static_cast<unsigned long long>(*n), secs);
  return 0;
}

}  // namespace
}  // namespace combat::bench

int main(int argc, char** argv) {
  std::vector<char*> rest;
  std::string rss, session = "bench";
  char self[4096];
  const ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (len > 0) {
    self[len] = '\0';
    combat::bench::g_self = self;
  }
  using combat::testing::FlagValue;
  for (int i = 0; i < argc; ++i) {
    if (const char* v = FlagValue(argv[i], "events")) {
      combat::bench::g_events = std::strtoull(v, nullptr, 10);
    } else if (const char* v = FlagValue(argv[i], "commands")) {
      combat::bench::g_commands = std::strtoull(v, nullptr, 10);
    } else if (const char* v = FlagValue(argv[i], "rss_replay")) {
      rss = v;
    } else if (const char* v = FlagValue(argv[i], "rss_session")) {
      session = v;
    } else {
      rest.push_back(argv[i]);
    }
  }
  if (!rss.empty()) return combat::bench::RssReplay(rss, session);
  const int code = combat::testing::RunBenchmarks(rest);
  combat::bench::RemoveStores();
  return code;
}
