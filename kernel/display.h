// How a ruleset's state reads at the table (`combat status`, `state`, the
// browser view): which resources are its vitals (the pools that matter,
// shown as current/max), which are the turn's budgets, and which are
// bookkeeping (counters the rules keep that are not game values: shown
// apart from the game). Presentation only: nothing decided reads it.
#ifndef COMBAT_KERNEL_DISPLAY_H_
#define COMBAT_KERNEL_DISPLAY_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "kernel/state.h"

namespace combat::kernel {

struct Vital {
  std::string resource;      // "hp"
  std::string max_stat;      // the roster stat holding its maximum, or ""
  std::string max_resource;  // or the resource holding it, or ""
  // Or the ruleset's own formula (a maximum the state does not hold, e.g.
  // normal stamina less fatigue); may be empty.
  std::function<int64_t(const Combatant&)> max_of;
};

struct Display {
  std::vector<Vital> vitals;             // the one that matters most first
  std::vector<std::string> budgets;      // resources a turn or round spends
  // Resource names that are bookkeeping; a name ending in '*' is a prefix.
  std::vector<std::string> bookkeeping;
  // How an entry of a pending act's `reacted` list reads, for a ruleset
  // that stores its own marks there (e.g. wound_slots' "ready:<id>"); may
  // be empty: the entry as stored.
  std::function<std::string(const std::string&)> reacted;
};

// The maximum of `v` for `c` (its stat or resource), if it has one.
std::optional<int64_t> VitalMax(const Combatant& c, const Vital& v);

// Entry `entry` of a pending act's `reacted` list as `d` reads it.
std::string ReactedText(const Display& d, const std::string& entry);

// Whether resource `name` is bookkeeping in `d`.
bool IsBookkeeping(const Display& d, const std::string& name);

}  // namespace combat::kernel

#endif  // COMBAT_KERNEL_DISPLAY_H_
