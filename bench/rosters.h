// The benchmark's rosters, one per ruleset (bench/generator.h plays them):
// n combatants (4..6) in two sides standing in two facing columns, so that
// everyone has a foe in reach; each plays itself (player = its id).
#ifndef COMBAT_BENCH_ROSTERS_H_
#define COMBAT_BENCH_ROSTERS_H_

#include <string>

#include "absl/status/statusor.h"
#include "events/input_generated.h"

namespace combat::bench {

// The roster of `ruleset` with `n` combatants; NotFound for a ruleset the
// benchmark does not play.
absl::StatusOr<fb::RosterT> BenchRoster(const std::string& ruleset, int n);

}  // namespace combat::bench

#endif  // COMBAT_BENCH_ROSTERS_H_
