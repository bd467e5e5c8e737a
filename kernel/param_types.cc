#include "kernel/param_types.h"

#include <string>

#include "absl/strings/match.h"
#include "kernel/refusal.h"

namespace combat::kernel {
namespace {

bool In(const std::vector<std::string>& keys, const std::string& k) {
  for (const std::string& p : keys) {
    if (p == k) return true;
    if (absl::EndsWith(p, "*") && absl::StartsWith(k, p.substr(0, p.size() - 1))) return true;
  }
  return false;
}

}  // namespace

absl::Status CheckParamTypes(const fb::CommandT& c, const ParamTypes& t) {
  for (const auto& p : c.params) {
    if (!p) continue;
    const std::string field = "params." + p->key;
    if (In(t.text, p->key)) {
      if (p->text.empty()) return Malformed(c, field, "text expected");
      continue;
    }
    if (!p->text.empty()) return Malformed(c, field, "a number expected, not text");
    if (In(t.flags, p->key) && p->value != 0 && p->value != 1) return Malformed(c, field, "0 or 1");
    if (In(t.nonneg, p->key) && p->value < 0) return Malformed(c, field, "must be >= 0");
  }
  return absl::OkStatus();
}

}  // namespace combat::kernel
