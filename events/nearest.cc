#include "events/nearest.h"

#include <algorithm>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace combat::events {

size_t EditDistance(absl::string_view a, absl::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1,
                         diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

std::vector<std::string> NearestFirst(absl::string_view name,
                                      std::vector<std::string> candidates) {
  std::vector<std::pair<size_t, std::string>> ranked;
  for (std::string& c : candidates) {
    const size_t d = EditDistance(name, c);
    ranked.emplace_back(d, std::move(c));
  }
  std::sort(ranked.begin(), ranked.end());
  std::vector<std::string> out;
  for (auto& [d, c] : ranked) out.push_back(std::move(c));
  return out;
}

std::string ClosestName(absl::string_view name,
                        const std::vector<std::string>& candidates) {
  if (name.empty() || candidates.empty()) return "";
  // A difference of case only is always a typo.
  for (const std::string& c : candidates) {
    if (absl::EqualsIgnoreCase(c, name)) return c;
  }
  const std::vector<std::string> ranked = NearestFirst(name, candidates);
  const std::string& best = ranked.front();
  const size_t limit = std::max<size_t>(2, name.size() / 3);
  if (EditDistance(name, best) <= limit || absl::StartsWith(best, name) ||
      absl::StartsWith(name, best)) {
    return best;
  }
  return "";
}

std::string DidYouMean(absl::string_view name,
                       const std::vector<std::string>& candidates) {
  const std::string best = ClosestName(name, candidates);
  return best.empty() ? "" : absl::StrCat("; did you mean '", best, "'?");
}

std::string NoSuchName(absl::string_view what, absl::string_view whats,
                       absl::string_view name,
                       const std::vector<std::string>& candidates) {
  std::string out = absl::StrCat("no ", what, " '", name, "'");
  const std::string best = ClosestName(name, candidates);
  if (!best.empty()) absl::StrAppend(&out, "; did you mean '", best, "'?");
  const std::vector<std::string> ranked = NearestFirst(name, candidates);
  absl::StrAppend(&out, best.empty() ? "; " : " ", whats, ": ",
                  ranked.empty() ? "none" : absl::StrJoin(ranked, ", "));
  return out;
}

}  // namespace combat::events
