#include "kernel/refusal.h"

#include "absl/strings/str_cat.h"

namespace combat::kernel {

const RuleRef* FindRule(const std::vector<RuleRef>& table, const std::string& id) {
  for (const RuleRef& r : table) {
    if (r.id == id) return &r;
  }
  return nullptr;
}

std::string Cite(const std::vector<RuleRef>& table, const std::string& id) {
  const RuleRef* r = FindRule(table, id);
  if (r == nullptr) return id;
  return absl::StrCat(r->seed.substr(0, 3), " ", r->section, ", l.", r->line);
}

absl::Status Refuse(const std::vector<RuleRef>& table, const std::string& id,
                    const std::string& message) {
  return absl::FailedPreconditionError(
      absl::StrCat(message, " (", Cite(table, id), ")"));
}

absl::Status Malformed(const fb::CommandT& c, const std::string& field,
                       const std::string& message) {
  return absl::InvalidArgumentError(
      absl::StrCat("command '", c.action, "': field '", field, "': ", message));
}

}  // namespace combat::kernel
