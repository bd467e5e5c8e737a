#include "kernel/near_miss.h"

#include <algorithm>
#include <cctype>
#include <cstddef>

#include "absl/strings/str_join.h"

namespace combat::kernel {
namespace {

char Lower(char c) {
  return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

// Optimal string alignment distance (Damerau-Levenshtein without repeated
// edits of one substring), case-insensitive.
size_t Distance(const std::string& a, const std::string& b) {
  const size_t n = a.size();
  const size_t m = b.size();
  std::vector<std::vector<size_t>> d(n + 1, std::vector<size_t>(m + 1, 0));
  for (size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (size_t i = 1; i <= n; ++i) {
    for (size_t j = 1; j <= m; ++j) {
      const size_t cost = Lower(a[i - 1]) == Lower(b[j - 1]) ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1,
                          d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && Lower(a[i - 1]) == Lower(b[j - 2]) &&
          Lower(a[i - 2]) == Lower(b[j - 1])) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[n][m];
}

}  // namespace

std::string NearMiss(const std::string& word,
                     const std::vector<std::string>& candidates) {
  const size_t limit = std::max<size_t>(1, word.size() / 3);
  std::string best;
  size_t best_distance = limit + 1;
  for (const std::string& c : candidates) {
    if (c == word) continue;
    const size_t dist = Distance(word, c);
    if (dist < best_distance) {
      best = c;
      best_distance = dist;
    }
  }
  return best;
}

std::string DidYouMean(const std::string& word,
                       const std::vector<std::string>& candidates) {
  const std::string near = NearMiss(word, candidates);
  return near.empty() ? "" : "; did you mean '" + near + "'?";
}

std::string NameList(const std::vector<std::string>& names) {
  return absl::StrJoin(names, ", ");
}

}  // namespace combat::kernel
