// The main() plumbing the benchmark binaries share: their own "--name=value"
// flags are taken out of argv, the rest goes to Google Benchmark.
#ifndef COMBAT_TESTS_TESTING_BENCH_MAIN_H_
#define COMBAT_TESTS_TESTING_BENCH_MAIN_H_

#include <cstring>
#include <string>
#include <vector>

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

}  // namespace combat::testing

#endif  // COMBAT_TESTS_TESTING_BENCH_MAIN_H_
