// Replay tooling benchmarks on one long branch in a real RocksDB:
//
//   bazel run -c opt //replay:replay_benchmark                   # 1M events
//   bazel run -c opt //replay:replay_benchmark -- --events=10000000
//
// The branch is built quickly, as the engine would write it but without
// its per-command reads: commands of the toy ruleset (replay/testing/
// toy.h: attacks with seeded dice, turns, rounds) decided by
// kernel::DecideCommand and appended directly through store::EventLog
// (sync off), with the engine's snapshot policy (one every 256 events,
// replay/jump.h) written on the way.
//
// BM_Seek: Seek (replay/jump.h) to a uniformly random event: the nearest
//   snapshot (decoded and checked against its event's state hash) plus a
//   fold to the target, whose recorded state hash is checked. Counters:
//   p50_us, p99_us over every iteration.
// BM_SeekNoSnapshots: the same without snapshots (a fold from seq 1) to
//   the middle of the branch, for contrast.
// BM_Fork/<prefix>: EventLog::Fork at seq <prefix>: must not depend on
//   the prefix length (nothing is copied).
// BM_Verify / BM_VerifyNoRedecide: replay/verify.h over the whole branch
//   (chain, canonical bytes, reducer, every state hash, and, with
//   re-decision, every command decided again with its recorded dice);
//   items/s = events verified per second.
#include <stdlib.h>

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
#include "tests/testing/temp_dir.h"
#include "kernel/dice/source.h"
#include "kernel/session.h"
#include "kernel/state_codec.h"
#include "replay/fork.h"
#include "replay/jump.h"
#include "replay/testing/toy.h"
#include "replay/verify.h"
#include "store/event_log.h"
#include "tests/testing/bench_main.h"

namespace combat::replay {
namespace {

uint64_t g_events = 1000000;

using ::combat::testing::TempDir;

using ::combat::testing::Check;

// The long branch, built once.
struct Log {
  TempDir dir{"replay_benchmark"};
  std::unique_ptr<store::EventLog> log;
  uint64_t head = 0;
  double build_seconds = 0;
  int forks = 0;
};

Log* g_built = nullptr;  // deleted at the end of main: removes the database

Log& TheLog() {
  static Log* built = g_built = [] {
    auto* l = new Log;
    const auto start = std::chrono::steady_clock::now();
    store::Options o;
    o.sync = false;
    auto log = store::EventLog::Open(l->dir.db(), o);
    Check(log.status(), "open");
    l->log = *std::move(log);
    const kernel::Ruleset& toy = testing::Toy();
    const std::vector<uint8_t> secret(32, 0x42);
    Check(l->log->CreateSession({"bench", "toy", 1, "toy fight"}, secret), "session");
    kernel::dice::SeededDice seeded(secret, "bench");
    fb::RosterT roster = testing::ToyRoster({"a", "b", "c", "d"});
    for (auto& c : roster.combatants) {
      for (auto& n : c->stats) {
        if (n->key == "hp") n->value = int64_t{1} << 60;  // nobody falls
      }
    }
    kernel::Envelope env;
    env.author = "gm";
    env.role = fb::Role::GM;
    env.command_id = "setup";
    auto setup = kernel::SetUpSession(toy, "bench", roster,
                                      kernel::dice::SeededDice::Commitment(secret),
                                      env, seeded);
    Check(setup.status(), "setup");
    kernel::State state;
    const kernel::PrefixScan prefix = StoreScan(*l->log, "bench", "main");
    events::Digest prev{};
    SeekOptions policy;  // the engine's: a snapshot every 256 events
    auto append = [&](const std::string& id, std::vector<events::EventBuffer> evs) {
      Check(l->log->Append("bench", "main", state.seq, id, evs).status(), "append");
      for (const auto& e : evs) {
        Check(kernel::FoldOne(e, state, kernel::CheckHashes::kNo, &prefix), "fold");
        if (state.seq % policy.snapshot_every == 0) {
          Check(l->log->PutSnapshot("bench", "main", state.seq, 1,
                                    kernel::EncodeState(state)),
                "snapshot");
        }
      }
      prev = evs.back().hash();
    };
    append("setup", *std::move(setup));
    uint64_t n = 0;
    int turn_attacks = 0;
    while (state.seq < g_events) {
      fb::CommandT c;
      c.id = absl::StrCat("c", ++n);
      c.actor = state.active;
      c.author = state.active;
      if (turn_attacks < 2) {
        c.action = "attack";
        const std::string& me = state.active;
        for (const auto& [id, who] : state.combatants) {
          if (id != me) {
            c.targets = {id};
            break;
          }
        }
        ++turn_attacks;
      } else {
        c.action = "end_turn";
        turn_attacks = 0;
      }
      kernel::Envelope e;
      e.prev_hash = prev;
      auto evs = kernel::DecideCommand(toy, state, e, c, seeded, &prefix);
      Check(evs.status(), "decide");
      append(c.id, *std::move(evs));
      if (n % 20000 == 0) {
        fprintf(stderr, "\rbuilding: %llu / %llu events",
                static_cast<unsigned long long>(state.seq),
                static_cast<unsigned long long>(g_events));
      }
    }
    l->head = state.seq;
    l->build_seconds = std::chrono::duration<double>(
                           std::chrono::steady_clock::now() - start)
                           .count();
    fprintf(stderr, "\rbuilt %llu events in %.1f s (%.0f events/s)\n",
            static_cast<unsigned long long>(l->head), l->build_seconds,
            static_cast<double>(l->head) / l->build_seconds);
    return l;
  }();
  return *built;
}

uint64_t SplitMix(uint64_t& x) {
  uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

using ::combat::testing::Percentiles;

void BM_Seek(benchmark::State& st) {
  Log& l = TheLog();
  SeekOptions o;
  o.write_snapshots = false;
  uint64_t rng = 12345;
  std::vector<double> us;
  for (auto _ : st) {
    const uint64_t target = 1 + SplitMix(rng) % l.head;
    const auto t0 = std::chrono::steady_clock::now();
    auto s = Seek(*l.log, "bench", "main", target, o);
    us.push_back(std::chrono::duration<double, std::micro>(
                     std::chrono::steady_clock::now() - t0)
                     .count());
    if (!s.ok() || s->seq != target) abort();
  }
  Percentiles(st, us);
  st.counters["events"] = static_cast<double>(l.head);
}
BENCHMARK(BM_Seek)->Unit(benchmark::kMicrosecond)->Iterations(2000);

void BM_SeekNoSnapshots(benchmark::State& st) {
  Log& l = TheLog();
  SeekOptions o;
  o.use_snapshots = false;
  o.write_snapshots = false;
  for (auto _ : st) {
    auto s = Seek(*l.log, "bench", "main", l.head / 2, o);
    if (!s.ok()) abort();
  }
  st.SetItemsProcessed(st.iterations() * static_cast<int64_t>(l.head / 2));
}
BENCHMARK(BM_SeekNoSnapshots)->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();

void BM_Fork(benchmark::State& st) {
  Log& l = TheLog();
  const uint64_t at = std::min<uint64_t>(static_cast<uint64_t>(st.range(0)), l.head);
  std::vector<double> us;
  for (auto _ : st) {
    const std::string name = absl::StrCat("f", ++l.forks);
    const auto t0 = std::chrono::steady_clock::now();
    // The fork verbs' path (schema v6): seek the state at the fork point,
    // build the fork record, write branch and record in one batch.
    ForkRequest request;
    request.session = "bench";
    request.at = at;
    request.branch = name;
    request.author = "bench";
    request.reason = "fork cost";
    Check(ForkBranch(*l.log, request).status(), "fork");
    us.push_back(std::chrono::duration<double, std::micro>(
                     std::chrono::steady_clock::now() - t0)
                     .count());
  }
  Percentiles(st, us);
}
BENCHMARK(BM_Fork)
    ->Unit(benchmark::kMicrosecond)
    ->Iterations(500)
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(100000)
    ->Arg(1000000)
    ->Arg(10000000);

void Verify(benchmark::State& st, const kernel::Ruleset* rules) {
  Log& l = TheLog();
  for (auto _ : st) {
    auto source = StoreSource(*l.log, "bench", "main");
    if (!source.ok()) abort();
    VerifyOptions o;
    o.redecide = rules != nullptr;
    auto meta = l.log->GetSession("bench");
    if (!meta.ok()) abort();
    auto r = VerifyBranchEvents(*source, *meta, rules, o);
    if (!r.ok() || !r->ok()) {
      fprintf(stderr, "%s\n", r.ok() ? RenderVerifyReport(*r).c_str()
                                     : std::string(r.status().message()).c_str());
      abort();
    }
    st.counters["commands_redecided"] = static_cast<double>(r->commands_redecided);
  }
  st.SetItemsProcessed(st.iterations() * static_cast<int64_t>(l.head));
}

void BM_Verify(benchmark::State& st) { Verify(st, &testing::Toy()); }
BENCHMARK(BM_Verify)->Unit(benchmark::kSecond)->Iterations(1)->UseRealTime();

void BM_VerifyNoRedecide(benchmark::State& st) { Verify(st, nullptr); }
BENCHMARK(BM_VerifyNoRedecide)->Unit(benchmark::kSecond)->Iterations(1)->UseRealTime();

}  // namespace
}  // namespace combat::replay

int main(int argc, char** argv) {
  // Our own flag first: --events=N (the branch length).
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i) {
    if (const char* v = combat::testing::FlagValue(argv[i], "events")) {
      combat::replay::g_events = std::strtoull(v, nullptr, 10);
    } else {
      rest.push_back(argv[i]);
    }
  }
  const int rc = combat::testing::RunBenchmarks(rest);
  delete combat::replay::g_built;  // closes the log, removes the temp dir
  return rc;
}
