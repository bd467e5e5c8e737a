// How `combat state` presents a combatant's resources: game values (with
// their maximum where the ruleset names one: its vitals) apart from
// bookkeeping (markers of when something last happened: which round a turn
// started, the seq of the turn's first event), as each ruleset's
// kernel::Display says. Pure and deterministic (maps in key order).
#ifndef COMBAT_REPLAY_STATE_VIEW_H_
#define COMBAT_REPLAY_STATE_VIEW_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "kernel/display.h"
#include "kernel/state.h"

namespace combat::replay {

// The maximum of resource `key` of `c` when `d` names it a vital with one.
std::optional<int64_t> MaxOf(const kernel::Combatant& c, const std::string& key,
                             const kernel::Display& d);

// "hp=18/24" (with MaxOf) or "actions=2".
std::string ResourceText(const kernel::Combatant& c, const std::string& key,
                         int64_t value, const kernel::Display& d);

// A combatant's resources split: game values first, then bookkeeping; each
// "key=value[/max]" in key order.
struct ResourceView {
  std::vector<std::string> game;
  std::vector<std::string> bookkeeping;
};
ResourceView ViewResources(const kernel::Combatant& c, const kernel::Display& d);

// The same for `state --json`, as one JSON value: [{"id":..,"name":..,
// "side":..,"controller":..,"game":[{"key":..,"value":..,"max":N|null}],
// "bookkeeping":[{"key":..,"value":..}]}] per combatant in id order.
std::string CombatantsViewJson(const kernel::State& s, const kernel::Display& d);

// For `state --json`: per pending act in id order, {"id":N,"actor":..,
// "reacted":[..]}, each `reacted` entry as `d` reads it (kernel::ReactedText;
// the schema's `pending` keeps the entries as stored).
std::string PendingViewJson(const kernel::State& s, const kernel::Display& d);

}  // namespace combat::replay

#endif  // COMBAT_REPLAY_STATE_VIEW_H_
