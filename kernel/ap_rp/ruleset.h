// Ruleset `ap_rp` (version 1): the Battle text of seed 004
// (../shared/seeds/004_1a3e461770fc9e7a.txt): 3 AP per turn, 2 RP per
// round, Initiative fixed each round, unions sharing a turn, held actions on
// triggers, Cinematic Actions paid from Narrative Momentum, eleven damage
// types with Armor and DR values. See kernel/ap_rp/README.md.
#ifndef COMBAT_KERNEL_AP_RP_RULESET_H_
#define COMBAT_KERNEL_AP_RP_RULESET_H_

#include <string>

#include "kernel/ruleset.h"

namespace combat::kernel::aprp {

const Ruleset& ApRp();

// Whether the number `key` a state change records is a modifier: an
// advantage or disadvantage, a bonus to Evasion or a DR, a change to
// damage; each names its source and rule (README "Sources of modifiers").
bool IsModifier(const std::string& key);

}  // namespace combat::kernel::aprp

#endif  // COMBAT_KERNEL_AP_RP_RULESET_H_
