#include "kernel/display.h"

#include "absl/strings/match.h"

namespace combat::kernel {

std::optional<int64_t> VitalMax(const Combatant& c, const Vital& v) {
  if (v.max_of) return v.max_of(c);
  if (!v.max_stat.empty()) {
    auto it = c.stats.find(v.max_stat);
    if (it != c.stats.end()) return it->second;
  }
  if (!v.max_resource.empty()) {
    auto it = c.resources.find(v.max_resource);
    if (it != c.resources.end()) return it->second;
  }
  return std::nullopt;
}

std::string ReactedText(const Display& d, const std::string& entry) {
  return d.reacted ? d.reacted(entry) : entry;
}

bool IsBookkeeping(const Display& d, const std::string& name) {
  for (const std::string& b : d.bookkeeping) {
    if (absl::EndsWith(b, "*") ? absl::StartsWith(name, b.substr(0, b.size() - 1))
                               : b == name) {
      return true;
    }
  }
  return false;
}

}  // namespace combat::kernel
