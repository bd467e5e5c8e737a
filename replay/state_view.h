// How `combat state` presents a combatant's resources: game values (with
// their maximum where the state knows one) apart from bookkeeping (markers
// of when something last happened: which round a turn started, the seq of
// the turn's first event). Generic over the rulesets: the only names are the
// lists in state_view.cc. Pure and deterministic (maps in key order).
#ifndef COMBAT_REPLAY_STATE_VIEW_H_
#define COMBAT_REPLAY_STATE_VIEW_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "kernel/state.h"

namespace combat::replay {

// True for resources that are bookkeeping, not game values: sot_round,
// turn_seq, turn_round, initiative_round.
bool IsBookkeeping(absl::string_view resource);

// The maximum of resource `key` of `c`, where the state knows one: the
// roster stat "max_<key>" when there is one; else, for a pool whose roster
// stat of the same name is its full value (hp, health, vitality), that
// stat. nullopt otherwise (no maximum is guessed).
std::optional<int64_t> MaxOf(const kernel::Combatant& c, const std::string& key);

// "hp=18/24" (with MaxOf) or "actions=2".
std::string ResourceText(const kernel::Combatant& c, const std::string& key,
                         int64_t value);

// A combatant's resources split: game values first, then bookkeeping; each
// "key=value[/max]" in key order.
struct ResourceView {
  std::vector<std::string> game;
  std::vector<std::string> bookkeeping;
};
ResourceView ViewResources(const kernel::Combatant& c);

// The same for `state --json`, as one JSON value: [{"id":..,"name":..,
// "side":..,"controller":..,"game":[{"key":..,"value":..,"max":N|null}],
// "bookkeeping":[{"key":..,"value":..}]}] per combatant in id order.
std::string CombatantsViewJson(const kernel::State& s);

}  // namespace combat::replay

#endif  // COMBAT_REPLAY_STATE_VIEW_H_
