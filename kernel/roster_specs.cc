#include "kernel/roster_specs.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace combat::kernel {

absl::Status RosterError(const std::string& id, const std::string& field,
                         const std::string& why, const std::string& cite) {
  return absl::InvalidArgumentError(
      absl::StrCat("roster combatant '", id, "': field '", field, "': ", why,
                   cite.empty() ? "" : absl::StrCat(" (", cite, ")")));
}

absl::Status UnreadWeaponReach(const std::string& id, const fb::WeaponT& w,
                               const std::string& field,
                               const std::string& instead, int32_t also) {
  if (w.reach == 5 || w.reach == also) return absl::OkStatus();
  return RosterError(id, field, absl::StrCat(w.reach, ": not read by this ruleset; ", instead));
}

absl::StatusOr<std::vector<fb::CombatantSpecT>> RosterSpecs(
    const fb::Roster& roster,
    const std::function<absl::Status(const fb::CombatantSpecT&)>& check,
    const std::string& cite) {
  if (roster.combatants() == nullptr || roster.combatants()->size() == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("roster field 'combatants' is empty",
                     cite.empty() ? "" : absl::StrCat(" (", cite, ")")));
  }
  const int width = roster.map() != nullptr ? roster.map()->width() : 0;
  const int height = roster.map() != nullptr ? roster.map()->height() : 0;
  std::vector<fb::CombatantSpecT> specs;
  for (const fb::CombatantSpec* c : *roster.combatants()) {
    fb::CombatantSpecT spec;
    c->UnPackTo(&spec);
    if (spec.id.empty()) return RosterError("?", "id", "required", cite);
    if (!spec.at) return RosterError(spec.id, "at", "required", cite);
    if (check) {
      absl::Status st = check(spec);
      if (!st.ok()) return st;
    }
    for (const fb::CombatantSpecT& o : specs) {
      if (o.id == spec.id) return RosterError(spec.id, "id", "given twice", cite);
    }
    const int size = spec.size > 0 ? spec.size : 1;
    if (width > 0 && height > 0 &&
        (spec.at->x() < 0 || spec.at->y() < 0 || spec.at->x() + size > width ||
         spec.at->y() + size > height)) {
      return RosterError(spec.id, "at",
                         absl::StrCat("off the ", width, " x ", height, " map"), cite);
    }
    specs.push_back(std::move(spec));
  }
  return specs;
}

}  // namespace combat::kernel
