// Ruleset `wound_slots` (version 1): the Combat text of seed 001
// (../shared/seeds/001_45dec7998f478a90.txt). AP gained twice a round from
// the Speed table, initiative that moves (criticals, acting out of turn,
// Seize Initiative), actions paid over several turns, attacks against
// seven Defenses, wound thresholds and slots, stamina, fatigue, mana and
// rests. See kernel/wound_slots/README.md.
#ifndef COMBAT_KERNEL_WOUND_SLOTS_RULESET_H_
#define COMBAT_KERNEL_WOUND_SLOTS_RULESET_H_

#include "kernel/ruleset.h"

namespace combat::kernel::wound_slots {

const Ruleset& WoundSlots();

}  // namespace combat::kernel::wound_slots

#endif  // COMBAT_KERNEL_WOUND_SLOTS_RULESET_H_
