// Ruleset `opposed_tests` (version 1): the Combat text of seed 003
// (../shared/seeds/003_ddd5865ba645a58b.txt). Initiative 1d6 + stat, 3 AP
// per round for actions and reactions, at most two attacks a round, every
// attack an opposed exchange (the defender chooses a defense before the
// dice), critical wins with maneuvers, opportunity attacks, cover,
// flanking, AR/BR and resistances. See kernel/opposed_tests/README.md.
#ifndef COMBAT_KERNEL_OPPOSED_TESTS_RULESET_H_
#define COMBAT_KERNEL_OPPOSED_TESTS_RULESET_H_

#include <string>

#include "kernel/ruleset.h"

namespace combat::kernel::opposed {

const Ruleset& OpposedTests();

// Whether the number `key` (after any "attack."-style prefix) is a
// modifier: a bonus, penalty, boon, bane or automatic result of a test, or
// a reduction or addition to damage; each names its source and rule
// (README "Sources of modifiers").
bool IsModifier(const std::string& key);

}  // namespace combat::kernel::opposed

#endif  // COMBAT_KERNEL_OPPOSED_TESTS_RULESET_H_
