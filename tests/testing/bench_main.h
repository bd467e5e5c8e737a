// The main() plumbing the benchmark binaries share: their own "--name=value"
// flags are taken out of argv, the rest goes to Google Benchmark; latency
// percentiles as counters; a failed set-up step aborts with its message.
#ifndef COMBAT_TESTS_TESTING_BENCH_MAIN_H_
#define COMBAT_TESTS_TESTING_BENCH_MAIN_H_

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "benchmark/benchmark.h"

namespace combat::testing {

// The value of `arg` when it is "--<name>=value", else nullptr.
inline const char* FlagValue(const char* arg, const char* name) {
  const std::string prefix = std::string("--") + name + "=";
  return std::strncmp(arg, prefix.c_str(), prefix.size()) == 0 ? arg + prefix.size()
                                                                : nullptr;
}

// Runs the registered benchmarks with `rest` (argv without the binary's
// own flags); main's exit code.
inline int RunBenchmarks(std::vector<char*> rest) {
  int n = static_cast<int>(rest.size());
  benchmark::Initialize(&n, rest.data());
  if (benchmark::ReportUnrecognizedArguments(n, rest.data())) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

// Latency counters from per-operation microseconds: <prefix>p50_us,
// <prefix>p99_us and <prefix>max_us (nothing when `us` is empty).
inline void Percentiles(benchmark::State& st, std::vector<double> us,
                        const std::string& prefix = "") {
  if (us.empty()) return;
  std::sort(us.begin(), us.end());
  st.counters[prefix + "p50_us"] = us[us.size() / 2];
  st.counters[prefix + "p99_us"] = us[std::min(us.size() - 1, us.size() * 99 / 100)];
  st.counters[prefix + "max_us"] = us.back();
}

// A benchmark's set-up cannot go on without `st`: prints `what` and the
// message, then aborts (a benchmark has no test to fail).
inline void Check(const absl::Status& st, const char* what) {
  if (!st.ok()) {
    std::fprintf(stderr, "%s: %s\n", what, std::string(st.message()).c_str());
    std::abort();
  }
}

}  // namespace combat::testing

#endif  // COMBAT_TESTS_TESTING_BENCH_MAIN_H_
