// In-memory figures over events the real deciders produced (generator.h):
//
//   bazel run -c opt //bench:kernel_bench -- [--events=N]
//
// BM_Generate/<ruleset>: deciding commands (kernel::DecideCommand, seeded
//   dice, the state hash of every event) and folding them: events/s.
// BM_Fold/<ruleset>: kernel::Apply (the reducer, strict) over the corpus
//   from an empty state: events/s. No state hash.
// BM_FoldOneNoCheck/<ruleset>: kernel::FoldOne(kNo) (ApplyEvent: reducer +
//   voids), as replay folds.
// BM_FoldCheckHashes/<ruleset>: kernel::FoldOne(kYes): the reducer plus
//   the state hash of every event compared with the recorded one.
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "bench/generator.h"
#include "kernel/reducer.h"
#include "kernel/session.h"
#include "kernel/state.h"
#include "tests/testing/bench_main.h"

namespace combat::bench {
namespace {

uint64_t g_events = 200000;

std::string RulesetName(int i) { return kRulesets[i]; }

const Corpus& CorpusOf(int i) {
  static std::map<int, Corpus>* cache = new std::map<int, Corpus>;
  auto it = cache->find(i);
  if (it == cache->end()) {
    GenOptions o;
    o.ruleset = RulesetName(i);
    o.events = g_events;
    o.combatants = BenchCombatants(o.ruleset);
    auto c = GenerateCached(o);
    if (!c.ok()) {
      fprintf(stderr, "generate: %s\n", std::string(c.status().message()).c_str());
      abort();
    }
    it = cache->emplace(i, *std::move(c)).first;
  }
  return it->second;
}

void BM_Generate(benchmark::State& st) {
  GenOptions o;
  o.ruleset = RulesetName(static_cast<int>(st.range(0)));
  o.events = 20000;
  o.combatants = BenchCombatants(o.ruleset);
  uint64_t events = 0, commands = 0, rejected = 0;
  for (auto _ : st) {
    auto c = Generate(o);
    if (!c.ok()) {
      st.SkipWithError(std::string(c.status().message()).c_str());
      return;
    }
    events += c->events.size();
    commands += c->commands.size();
    rejected += c->rejected;
  }
  st.SetItemsProcessed(static_cast<int64_t>(events));
  st.SetLabel(o.ruleset);
  st.counters["events_per_command"] =
      static_cast<double>(events) / static_cast<double>(commands);
  st.counters["refused_per_command"] =
      static_cast<double>(rejected) / static_cast<double>(commands);
}
BENCHMARK(BM_Generate)->DenseRange(0, 4)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Fold(benchmark::State& st) {
  const Corpus& c = CorpusOf(static_cast<int>(st.range(0)));
  for (auto _ : st) {
    kernel::State s;
    for (const auto& e : c.events) {
      if (!kernel::Apply(e.event(), s).ok()) abort();
    }
    benchmark::DoNotOptimize(s.seq);
  }
  st.SetItemsProcessed(st.iterations() * static_cast<int64_t>(c.events.size()));
  st.SetLabel(c.meta.ruleset);
  st.counters["bytes_per_event"] =
      static_cast<double>(c.bytes) / static_cast<double>(c.events.size());
}
BENCHMARK(BM_Fold)->DenseRange(0, 4)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_FoldOneNoCheck(benchmark::State& st) {
  const Corpus& c = CorpusOf(static_cast<int>(st.range(0)));
  for (auto _ : st) {
    kernel::State s;
    for (const auto& e : c.events) {
      if (!kernel::FoldOne(e, s, kernel::CheckHashes::kNo).ok()) abort();
    }
    benchmark::DoNotOptimize(s.seq);
  }
  st.SetItemsProcessed(st.iterations() * static_cast<int64_t>(c.events.size()));
  st.SetLabel(c.meta.ruleset);
}
BENCHMARK(BM_FoldOneNoCheck)->DenseRange(0, 4)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_FoldCheckHashes(benchmark::State& st) {
  const Corpus& c = CorpusOf(static_cast<int>(st.range(0)));
  // At most 50k events: with a full re-hash per event this is slow.
  const size_t n = std::min<size_t>(c.events.size(), 50000);
  for (auto _ : st) {
    kernel::State s;
    for (size_t i = 0; i < n; ++i) {
      if (!kernel::FoldOne(c.events[i], s, kernel::CheckHashes::kYes).ok()) abort();
    }
    benchmark::DoNotOptimize(s.seq);
  }
  st.SetItemsProcessed(st.iterations() * static_cast<int64_t>(n));
  st.SetLabel(c.meta.ruleset);
}
BENCHMARK(BM_FoldCheckHashes)->DenseRange(0, 4)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace combat::bench

int main(int argc, char** argv) {
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i) {
    if (const char* v = combat::testing::FlagValue(argv[i], "events")) {
      combat::bench::g_events = std::strtoull(v, nullptr, 10);
    } else {
      rest.push_back(argv[i]);
    }
  }
  return combat::testing::RunBenchmarks(rest);
}
