// Many sessions at once (issue 18): N writer threads, one session each,
// appending the same realistic commands (generator.h) with sync on, for
// RocksDB (EventLog, group commit), SQLite (WAL mode, synchronous=FULL,
// one connection per writer, its single writer lock) and PostgreSQL (a
// server of its own on loopback, synchronous_commit on, one table with a
// unique (session, branch, seq) key, one connection per writer); and the
// raw fdatasync floor of the same disk, measured in the same run.
//
//   bazel run -c opt //bench:concurrent_bench -- [--commands=T]
//
// Every benchmark runs once (Iterations(1)) with its own timing; the
// figures are counters:
//  BM_FsyncFloor/prealloc:<0|1>: 2000 times: write one record the size of
//    a command's WAL record (its events' bytes + keys) at the end of a file
//    and fdatasync it. prealloc:0 appends to a growing file (each sync also
//    commits the new size, as a growing WAL does); prealloc:1 overwrites a
//    file fallocated and fsynced beforehand (data only). p50_us, p99_us.
//  BM_FloorBeside: the durable single-writer append and the floor
//    (prealloc:0) alternated command by command, so both see the same disk
//    moments (the target's ratio is taken from it).
//  BM_Concurrent/backend:<0 RocksDB|1 SQLite|2 PostgreSQL>/sessions:N: N
//    threads start together, each appends T/N commands (at least 20) to its
//    own session with the expected head seq; each command timed. p50_us,
//    p99_us, commands_per_s (all threads' commands / wall time),
//    cpu_us_per_command (this process's CPU time, all threads, per command:
//    steadier than wall time on a shared machine).
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "bench/generator.h"
#include "bench/pg_log.h"
#include "bench/pg_server.h"
#include "bench/sqlite_log.h"
#include "store/event_log.h"
#include "tests/testing/bench_main.h"
#include "tests/testing/temp_dir.h"

namespace combat::bench {
namespace {

uint64_t g_commands = 3200;  // per run, split between the writers
constexpr int kMaxSessions = 64;

using Clock = std::chrono::steady_clock;

using ::combat::testing::Check;

using ::combat::testing::TempDir;

size_t PerSession(int sessions) {
  return std::max<size_t>(20, g_commands / static_cast<size_t>(sessions));
}

// One corpus per session ("g0".."g63": the events name their session),
// each long enough for a one-session run's commands.
const std::vector<Corpus>& Corpora() {
  static std::vector<Corpus>* all = [] {
    auto* v = new std::vector<Corpus>;
    for (int i = 0; i < kMaxSessions; ++i) {
      GenOptions o;
      o.ruleset = "d20_three_action";
      o.session = absl::StrCat("g", i);
      o.combatants = 6;
      // Session 0 serves the one-session run (all T commands).
      o.events = (i == 0 ? g_commands : PerSession(8)) * 8 + 100;
      // The generator's encounter may stall for some dice (it says so):
      // then the next seed.
      absl::StatusOr<Corpus> r = absl::InternalError("no seed tried");
      for (o.seed = 1; o.seed <= 20; ++o.seed) {
        r = GenerateCached(o);
        if (r.ok()) break;
        fprintf(stderr, "corpus %s seed %llu: %s\n", o.session.c_str(),
                static_cast<unsigned long long>(o.seed),
                std::string(r.status().message()).c_str());
      }
      Check(r.status(), "generate");
      v->push_back(*std::move(r));
    }
    return v;
  }();
  return *all;
}

using ::combat::testing::Percentiles;

// ---- the fdatasync floor ---------------------------------------------------

// The size of a command's WAL record: its events' bytes plus, per event,
// the key (~20 bytes) and RocksDB's record framing; plus the head and
// marker; averaged over the corpus's first 2000 commands.
size_t CommandRecordBytes(const Corpus& c) {
  size_t bytes = 0;
  const size_t n = std::min<size_t>(c.commands.size(), 2000);
  for (size_t i = 0; i < n; ++i) {
    for (size_t e = c.commands[i].begin; e < c.commands[i].end; ++e) {
      bytes += c.events[e].bytes().size() + 24;
    }
    bytes += 120;
  }
  return bytes / n;
}

void BM_FsyncFloor(benchmark::State& st) {
  const bool prealloc = st.range(0) == 1;
  const size_t record = CommandRecordBytes(Corpora()[0]);
  const int k = 2000;
  for (auto _ : st) {
    TempDir dir("combat_concurrent_bench");
    const std::string path = dir.path() + "/floor";
    const int fd = open(path.c_str(), O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd < 0) abort();
    if (prealloc) {
      if (fallocate(fd, 0, 0, static_cast<off_t>(record) * (k + 1)) != 0) abort();
      if (fsync(fd) != 0) abort();
    }
    std::vector<char> buf(record, 'x');
    std::vector<double> us;
    us.reserve(k);
    for (int i = 0; i < k; ++i) {
      const auto t = Clock::now();
      if (pwrite(fd, buf.data(), buf.size(), static_cast<off_t>(record) * i) !=
          static_cast<ssize_t>(buf.size())) {
        abort();
      }
      if (fdatasync(fd) != 0) abort();
      us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t).count());
    }
    close(fd);
    Percentiles(st, us);
    st.counters["record_bytes"] = static_cast<double>(record);
  }
}
BENCHMARK(BM_FsyncFloor)->ArgName("prealloc")->Arg(0)->Arg(1)->Iterations(1)->UseRealTime();

// ---- the floor beside the append, interleaved --------------------------------
//
// This disk's fdatasync is bimodal (a quiet p50 of ~0.2 ms, bursts of 2-8 ms
// when other work writes), so two figures measured a minute apart compare
// two disks. BM_FloorBeside alternates, 2000 times, one durable RocksDB
// append (one session, one writer) with one raw write + fdatasync of a
// record the same size at the end of a growing file on the same disk:
// both p50s see the same moments. append_p50_us, floor_p50_us, ratio.
void BM_FloorBeside(benchmark::State& st) {
  const Corpus& c = Corpora()[0];
  const size_t k = std::min<size_t>(c.commands.size(), 2000);
  const size_t record = CommandRecordBytes(c);
  for (auto _ : st) {
    TempDir dir("combat_concurrent_bench");
    store::Options o;
    o.sync = true;
    auto log = store::EventLog::Open(dir.path() + "/db", o);
    Check(log.status(), "open");
    Check((*log)->CreateSession(c.meta, c.secret), "session");
    const std::string path = dir.path() + "/floor";
    const int fd = open(path.c_str(), O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd < 0) abort();
    std::vector<char> buf(record, 'x');
    std::vector<double> append_us, floor_us;
    uint64_t head = 0;
    for (size_t i = 0; i < k; ++i) {
      const std::vector<events::EventBuffer> cmd(
          c.events.begin() + static_cast<long>(c.commands[i].begin),
          c.events.begin() + static_cast<long>(c.commands[i].end));
      auto t = Clock::now();
      auto r = (*log)->Append(c.meta.session, "main", head, c.commands[i].id, cmd);
      append_us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t).count());
      Check(r.status(), "append");
      head = r->last_seq;
      t = Clock::now();
      if (pwrite(fd, buf.data(), buf.size(), static_cast<off_t>(record * i)) !=
          static_cast<ssize_t>(buf.size())) {
        abort();
      }
      if (fdatasync(fd) != 0) abort();
      floor_us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t).count());
    }
    close(fd);
    Percentiles(st, append_us, "append_");
    Percentiles(st, floor_us, "floor_");
    st.counters["ratio"] = st.counters["append_p50_us"] / st.counters["floor_p50_us"];
    st.counters["record_bytes"] = static_cast<double>(record);
  }
}
BENCHMARK(BM_FloorBeside)->Iterations(1)->UseRealTime();

// ---- N sessions at once -----------------------------------------------------

// Starts N writers together; each runs `work(i, us)`; returns the wall time.
// This process's CPU time (user + system, all threads), in seconds.
double ProcessCpu() {
  rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
         static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

template <typename Work>
double RunWriters(int n, std::vector<std::vector<double>>* us, Work work) {
  std::mutex mu;
  std::condition_variable cv;
  bool go = false;
  int ready = 0;
  std::vector<std::thread> threads;
  us->assign(static_cast<size_t>(n), {});
  for (int i = 0; i < n; ++i) {
    threads.emplace_back([&, i] {
      {
        std::unique_lock<std::mutex> l(mu);
        ++ready;
        cv.notify_all();
        cv.wait(l, [&] { return go; });
      }
      work(i, &(*us)[static_cast<size_t>(i)]);
    });
  }
  Clock::time_point t0;
  {
    std::unique_lock<std::mutex> l(mu);
    cv.wait(l, [&] { return ready == n; });
    go = true;
    t0 = Clock::now();
  }
  cv.notify_all();
  for (std::thread& t : threads) t.join();
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

PgServer& Postgres() {
  static PgServer* server = [] {
    auto s = PgServer::Start(kMaxSessions + 16);
    Check(s.status(), "postgres");
    auto log = PgLog::Open((*s)->conninfo(), /*create=*/true);
    Check(log.status(), "postgres table");
    return s->release();
  }();
  return *server;
}

void BM_Concurrent(benchmark::State& st) {
  const int backend = static_cast<int>(st.range(0));
  const int n = static_cast<int>(st.range(1));
  const std::vector<Corpus>& corpora = Corpora();
  const size_t per = n == 1 ? g_commands : PerSession(n);
  for (const Corpus& c : corpora) {
    if (static_cast<int>(&c - corpora.data()) >= n) break;
    if (c.commands.size() < per) {
      st.SkipWithError("corpus too short");
      return;
    }
  }
  static int run = 0;
  ++run;
  for (auto _ : st) {
    TempDir dir("combat_concurrent_bench");
    std::vector<std::vector<double>> us;
    std::atomic<int> failures{0};
    double secs = 0;
    double cpu0 = 0;
    if (backend == 0) {
      store::Options o;
      o.sync = true;
      auto log = store::EventLog::Open(dir.path() + "/db", o);
      Check(log.status(), "open");
      for (int i = 0; i < n; ++i) {
        Check((*log)->CreateSession(corpora[i].meta, corpora[i].secret), "session");
      }
      // Each command's events as the engine hands them to Append.
      std::vector<std::vector<std::vector<events::EventBuffer>>> batches(n);
      for (int i = 0; i < n; ++i) {
        const Corpus& c = corpora[i];
        for (size_t k = 0; k < per; ++k) {
          batches[i].emplace_back(
              c.events.begin() + static_cast<long>(c.commands[k].begin),
              c.events.begin() + static_cast<long>(c.commands[k].end));
        }
      }
      cpu0 = ProcessCpu();
      secs = RunWriters(n, &us, [&](int i, std::vector<double>* mine) {
        const Corpus& c = corpora[i];
        uint64_t head = 0;
        for (size_t k = 0; k < per; ++k) {
          const auto t = Clock::now();
          auto r = (*log)->Append(c.meta.session, "main", head, c.commands[k].id,
                                  batches[i][k]);
          mine->push_back(
              std::chrono::duration<double, std::micro>(Clock::now() - t).count());
          if (!r.ok()) {
            ++failures;
            return;
          }
          head = r->last_seq;
        }
      });
    } else if (backend == 1) {
      const std::string path = dir.path() + "/events.db";
      std::vector<std::unique_ptr<SqliteLog>> logs;
      for (int i = 0; i < n; ++i) {
        auto log = SqliteLog::Open(path, /*durable=*/true);
        Check(log.status(), "sqlite open");
        logs.push_back(*std::move(log));
      }
      cpu0 = ProcessCpu();
      secs = RunWriters(n, &us, [&](int i, std::vector<double>* mine) {
        const Corpus& c = corpora[i];
        uint64_t head = 0;
        for (size_t k = 0; k < per; ++k) {
          const auto& cmd = c.commands[k];
          const auto t = Clock::now();
          absl::Status s = logs[i]->Append(c.meta.session, "main", head, cmd.id,
                                           c.events, cmd.begin, cmd.end);
          mine->push_back(
              std::chrono::duration<double, std::micro>(Clock::now() - t).count());
          if (!s.ok()) {
            fprintf(stderr, "sqlite: %s\n", std::string(s.message()).c_str());
            ++failures;
            return;
          }
          head += cmd.end - cmd.begin;
        }
      });
    } else {
      PgServer& server = Postgres();
      std::vector<std::unique_ptr<PgLog>> logs;
      for (int i = 0; i < n; ++i) {
        auto log = PgLog::Open(server.conninfo(), /*create=*/false);
        Check(log.status(), "postgres connect");
        logs.push_back(*std::move(log));
      }
      cpu0 = ProcessCpu();
      secs = RunWriters(n, &us, [&](int i, std::vector<double>* mine) {
        const Corpus& c = corpora[i];
        // A session name of its own per run (the table is shared).
        const std::string session = absl::StrCat("r", run, "_", c.meta.session);
        uint64_t head = 0;
        for (size_t k = 0; k < per; ++k) {
          const auto& cmd = c.commands[k];
          const auto t = Clock::now();
          absl::Status s = logs[i]->Append(session, "main", head, cmd.id,
                                           c.events, cmd.begin, cmd.end);
          mine->push_back(
              std::chrono::duration<double, std::micro>(Clock::now() - t).count());
          if (!s.ok()) {
            fprintf(stderr, "postgres: %s\n", std::string(s.message()).c_str());
            ++failures;
            return;
          }
          head += cmd.end - cmd.begin;
        }
      });
    }
    if (failures.load() != 0) {
      st.SkipWithError("an append failed");
      return;
    }
    const double cpu = ProcessCpu() - cpu0;
    std::vector<double> all;
    for (const auto& v : us) all.insert(all.end(), v.begin(), v.end());
    Percentiles(st, all);
    st.counters["commands_per_s"] = static_cast<double>(all.size()) / secs;
    st.counters["commands"] = static_cast<double>(all.size());
    // This process only (PostgreSQL's server work is in its own processes).
    st.counters["cpu_us_per_command"] =
        cpu * 1e6 / static_cast<double>(all.size());
    st.counters["sessions"] = n;
  }
}
BENCHMARK(BM_Concurrent)
    ->ArgNames({"backend", "sessions"})
    ->ArgsProduct({{0, 1, 2}, {1, 8, 64}})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace combat::bench

int main(int argc, char** argv) {
  std::vector<char*> rest;
  using combat::testing::FlagValue;
  for (int i = 0; i < argc; ++i) {
    if (const char* v = FlagValue(argv[i], "commands")) {
      combat::bench::g_commands = std::strtoull(v, nullptr, 10);
    } else {
      rest.push_back(argv[i]);
    }
  }
  return combat::testing::RunBenchmarks(rest);
}
