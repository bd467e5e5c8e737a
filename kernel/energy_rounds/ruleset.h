// Ruleset `energy_rounds` (version 1): the Combat text of seed 002
// (../shared/seeds/002_ca603e8fb651e0df.txt). No turns: rounds, Energy,
// Agility and Stamina budgets, one Initiative roll per round to interrupt
// through windows, Immediate Interrupts, exploding Defense rolls, the d20
// Combat and Hit rolls, Aura with Death rolls and Death Saves, parent and
// daughter conditions. See kernel/energy_rounds/README.md.
#ifndef COMBAT_KERNEL_ENERGY_ROUNDS_RULESET_H_
#define COMBAT_KERNEL_ENERGY_ROUNDS_RULESET_H_

#include <string>

#include "kernel/ruleset.h"

namespace combat::kernel::energy {

const Ruleset& EnergyRounds();

// Whether a number's key is a modifier (an advantage or disadvantage, a
// bonus or penalty to AV, Miss Chance or a defense, a damage multiplier, a
// cost or a budget): such a number names its source or rule (README
// "Sources of modifiers").
bool IsModifier(const std::string& key);

}  // namespace combat::kernel::energy

#endif  // COMBAT_KERNEL_ENERGY_ROUNDS_RULESET_H_
