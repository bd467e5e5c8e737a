// The d20_three_action ruleset (version 1): seed 000's Combat chapter
// (000_ab2f36f2929fdde3.txt). Initiative order with random ties; each turn
// three Actions, one Reaction per round and Free Actions; Hold and Delay;
// readied actions that fire in windows; d20 + Level + stat against
// Physical or Mental Defense; HP, Incapacitated and the Bleed Table;
// Subjective and Objective conditions on a 5 ft grid.
//
// The command vocabulary, the roster stats it needs and every reading of
// the text are in kernel/d20_three_action/README.md.
#ifndef COMBAT_KERNEL_D20_THREE_ACTION_RULESET_H_
#define COMBAT_KERNEL_D20_THREE_ACTION_RULESET_H_

#include <string>

#include "kernel/ruleset.h"

namespace combat::kernel::d20 {

// The ruleset, id "d20_three_action". Lives for the whole program.
const Ruleset& D20ThreeAction();

// Whether a number's key is a modifier (an advantage or disadvantage, a
// bonus or penalty to a roll, a cost or a budget, a damage multiplier):
// such a number names its source or rule (README "Sources of modifiers").
bool IsModifier(const std::string& key);

}  // namespace combat::kernel::d20

#endif  // COMBAT_KERNEL_D20_THREE_ACTION_RULESET_H_
