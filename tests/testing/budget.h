// How much work a reliability test does: short by default (bazel test),
// COMBAT_LONG=1 for long runs on request, COMBAT_QUICK=1 for a third of
// the short run (tests/sanitizers.sh sets it: sanitized binaries are slower).
#ifndef COMBAT_TESTS_TESTING_BUDGET_H_
#define COMBAT_TESTS_TESTING_BUDGET_H_

#include <algorithm>
#include <cstdlib>
#include <string>

namespace combat::testing {

inline bool EnvFlag(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' && std::string(v) != "0";
}

inline bool Long() { return EnvFlag("COMBAT_LONG"); }

// `short_n` normally, `long_n` with COMBAT_LONG, a third of `short_n` (at
// least 1) with COMBAT_QUICK.
inline int Budget(int short_n, int long_n) {
  if (Long()) return long_n;
  if (EnvFlag("COMBAT_QUICK")) return std::max(1, short_n / 3);
  return short_n;
}

}  // namespace combat::testing

#endif  // COMBAT_TESTS_TESTING_BUDGET_H_
