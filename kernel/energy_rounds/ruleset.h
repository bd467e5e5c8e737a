// Ruleset `energy_rounds` (version 1): the Combat text of seed 002
// (../shared/seeds/002_ca603e8fb651e0df.txt). No turns: rounds, Energy,
// Agility and Stamina budgets, one Initiative roll per round to interrupt
// through windows, Immediate Interrupts, exploding Defense rolls, the d20
// Combat and Hit rolls, Aura with Death rolls and Death Saves, parent and
// daughter conditions. See kernel/energy_rounds/README.md.
#ifndef COMBAT_KERNEL_ENERGY_ROUNDS_RULESET_H_
#define COMBAT_KERNEL_ENERGY_ROUNDS_RULESET_H_

#include "kernel/ruleset.h"

namespace combat::kernel::energy {

const Ruleset& EnergyRounds();

}  // namespace combat::kernel::energy

#endif  // COMBAT_KERNEL_ENERGY_ROUNDS_RULESET_H_
