// Roster builders for tests: combatants, weapons, rosters.
#ifndef COMBAT_KERNEL_TESTING_ROSTER_H_
#define COMBAT_KERNEL_TESTING_ROSTER_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "events/input_generated.h"

namespace combat::kernel::testing {

using Stats = std::vector<std::pair<std::string, int64_t>>;

// A one-square combatant at (x, y) with `stats` in the given order.
fb::CombatantSpecT Creature(const std::string& id, const std::string& side,
                            int x, int y, Stats stats);
// The same, carrying `weapons` and `tags`.
fb::CombatantSpecT Creature(const std::string& id, const std::string& side,
                            int x, int y, Stats stats,
                            std::vector<fb::WeaponT> weapons,
                            std::vector<std::string> tags = {});

// `base` with each of `more` replacing the stat of its key, or added after.
Stats Overlay(Stats base, const Stats& more);

// Adds `tag` to `c`; returns `c`.
fb::CombatantSpecT& Tag(fb::CombatantSpecT& c, const std::string& tag);

// Adds a terrain cell ("difficult", "wall", "cover", ...) at (x, y).
void Terrain(fb::RosterT& r, int x, int y, const std::string& terrain);

// A weapon with named `numbers` (in order) and a damage type.
fb::WeaponT WeaponWith(const std::string& name, const std::string& damage,
                       const std::string& kind, const std::string& category,
                       Stats numbers = {}, const std::string& type = "slashing");

fb::WeaponT MakeWeapon(const std::string& name, const std::string& damage,
                       const std::string& kind, const std::string& category,
                       int reach = 5, int range_increment = 0);

// A roster of `ruleset` on a w x h map.
fb::RosterT MakeRoster(const std::string& ruleset,
                       std::vector<fb::CombatantSpecT> combatants, int w = 20,
                       int h = 20);

}  // namespace combat::kernel::testing

#endif  // COMBAT_KERNEL_TESTING_ROSTER_H_
