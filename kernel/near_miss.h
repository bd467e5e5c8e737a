// "Did you mean ...?": the nearest of a list of names to a misspelled one,
// for refusals that name an unknown verb, combatant, weapon, condition,
// session or branch.
//
// Contract: NearMiss returns the candidate with the smallest edit distance
// to `word` (insertions, deletions, substitutions and transpositions of
// adjacent characters, case-insensitive), when that distance is at most
// max(1, size(word) / 3), and "" otherwise; ties go to the earlier
// candidate, so the answer depends only on the inputs' order. Candidates
// equal to `word` are skipped.
#ifndef COMBAT_KERNEL_NEAR_MISS_H_
#define COMBAT_KERNEL_NEAR_MISS_H_

#include <string>
#include <vector>

namespace combat::kernel {

std::string NearMiss(const std::string& word,
                     const std::vector<std::string>& candidates);

// "; did you mean 'aria'?" when NearMiss finds one, else "".
std::string DidYouMean(const std::string& word,
                       const std::vector<std::string>& candidates);

// "a, b, c" (the names in the order given).
std::string NameList(const std::vector<std::string>& names);

}  // namespace combat::kernel

#endif  // COMBAT_KERNEL_NEAR_MISS_H_
