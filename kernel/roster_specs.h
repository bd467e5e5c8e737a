// A roster's combatants as a ruleset's set-up reads them: unpacked in
// order, each checked by the ruleset, with the checks every ruleset makes
// (at least one combatant, no id twice, standing on the map). Errors name
// the combatant and field: InvalidArgument "roster combatant 'orc': field
// 'id': given twice" (with the ruleset's citation appended when given).
#ifndef COMBAT_KERNEL_ROSTER_SPECS_H_
#define COMBAT_KERNEL_ROSTER_SPECS_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "events/input_generated.h"

namespace combat::kernel {

// "roster combatant '<id>': field '<field>': <why>[ (<cite>)]".
absl::Status RosterError(const std::string& id, const std::string& field,
                         const std::string& why, const std::string& cite = "");

// For a ruleset that does not read the shared weapon field `reach` (default
// 5, feet: d20_three_action's): InvalidArgument naming `field` when `w`
// sets it to other than the default or `also`, saying where this ruleset
// takes a reach (`instead`), since a value ignored without a word is not
// what the roster meant.
absl::Status UnreadWeaponReach(const std::string& id, const fb::WeaponT& w,
                               const std::string& field,
                               const std::string& instead, int32_t also = 5);

// The roster's combatants in order, each passed to `check` first (the
// ruleset's own field checks; may be null). InvalidArgument when the roster
// has none, a combatant has no id or `at`, an id repeats, or a combatant's
// n x n space leaves a map with a size; `cite` (e.g. "000 Setup, l.3") is
// appended to these errors.
absl::StatusOr<std::vector<fb::CombatantSpecT>> RosterSpecs(
    const fb::Roster& roster,
    const std::function<absl::Status(const fb::CombatantSpecT&)>& check,
    const std::string& cite = "");

}  // namespace combat::kernel

#endif  // COMBAT_KERNEL_ROSTER_SPECS_H_
