// Near-miss suggestions for names a user typed (verbs, sessions, branches,
// schema fields and enum values): candidates ordered by edit distance.
// Pure and deterministic (ties by name).
#ifndef COMBAT_EVENTS_NEAREST_H_
#define COMBAT_EVENTS_NEAREST_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace combat::events {

// Levenshtein distance (insert, delete, substitute; bytes).
size_t EditDistance(absl::string_view a, absl::string_view b);

// `candidates` nearest first to `name` (edit distance, then name).
std::vector<std::string> NearestFirst(absl::string_view name,
                                      std::vector<std::string> candidates);

// The nearest candidate when it is close enough to be a typo of `name`
// (the same but for case, distance at most max(2, |name| / 3), or one is a
// prefix of the other);
// "" otherwise.
std::string ClosestName(absl::string_view name,
                        const std::vector<std::string>& candidates);

// "; did you mean 'y'?" when ClosestName finds one, else "" (for refusals
// that go on to list the names).
std::string DidYouMean(absl::string_view name,
                       const std::vector<std::string>& candidates);

// "no <what> 'x'; did you mean 'y'? <whats>: y, z" (nearest first; the
// "did you mean" part only when ClosestName finds one; "<whats>: none"
// when there are none).
std::string NoSuchName(absl::string_view what, absl::string_view whats,
                       absl::string_view name,
                       const std::vector<std::string>& candidates);

}  // namespace combat::events

#endif  // COMBAT_EVENTS_NEAREST_H_
