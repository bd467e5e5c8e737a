// Ruleset `wound_slots` (version 1): the Combat text of seed 001
// (../shared/seeds/001_45dec7998f478a90.txt). AP gained twice a round from
// the Speed table, initiative that moves (criticals, acting out of turn,
// Seize Initiative), actions paid over several turns, attacks against
// seven Defenses, wound thresholds and slots, stamina, fatigue, mana and
// rests. See kernel/wound_slots/README.md.
#ifndef COMBAT_KERNEL_WOUND_SLOTS_RULESET_H_
#define COMBAT_KERNEL_WOUND_SLOTS_RULESET_H_

#include <string>

#include "kernel/ruleset.h"

namespace combat::kernel::wound_slots {

const Ruleset& WoundSlots();

// Whether the number `key` a state change records is a modifier (a bonus
// or penalty, a defense's or toughness's addition, a kit, cover ...):
// every such number names its source or rule (README "Sources of
// modifiers"; the scenarios check it).
bool IsModifier(const std::string& key);

}  // namespace combat::kernel::wound_slots

#endif  // COMBAT_KERNEL_WOUND_SLOTS_RULESET_H_
