// The main() plumbing the benchmark binaries share: their own "--name=value"
// flags are taken out of argv, the rest goes to Google Benchmark; a failed
// set-up step aborts with its message.
#ifndef COMBAT_TESTS_TESTING_BENCH_MAIN_H_
#define COMBAT_TESTS_TESTING_BENCH_MAIN_H_

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
