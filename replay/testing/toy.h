// A small ruleset for replay/ tests, so the replay tools can be tested
// end to end without the real rulesets (kernel/<ruleset>/):
//
//   setup      every combatant joins with hp = stat "hp" (10), rolls 1d20
//              initiative (order: highest first, then id); round 1 starts
//              with the first combatant's turn (2 actions)
//   attack     actor, targets[0]: one action; 1d20 + stat "atk" vs stat
//              "def" (10); a hit rolls the first weapon's damage (1d6) off
//              the target's hp; hp <= 0 adds "Down". Refused when the target
//              is Down ("no attacking the fallen") or no action is left.
//   coup       actor, targets[0]: one action; only on a Down target, which
//              becomes "Dead"
//   end_turn   the next combatant in order who is not Down; a new round
//              when everyone has acted
//   ready      actor, targets[0]: readies an attack on the target as a
//              pending act ("readied", kernel/pending.h; cost 1 "actions"
//              due, nothing paid); costs nothing now
//   release    actor, refs[key=act] (a pending act of the actor's): closes
//              it ("fired"); refs[key=cue], when given, is an earlier event
//              and recorded as the number "cue" of the close
//   gm_*       the shared GM verbs (kernel/gm.h)
//
// Rules() cites a made-up seed text ("toy_seed.txt") so explain has rule
// references to show.
#ifndef COMBAT_REPLAY_TESTING_TOY_H_
#define COMBAT_REPLAY_TESTING_TOY_H_

#include <string>
#include <vector>

#include "events/input_generated.h"
#include "kernel/command.h"
#include "kernel/ruleset.h"

namespace combat::replay::testing {

const kernel::Ruleset& Toy();

// A roster of `ids` (all "toy"), each with hp 10, atk 2, def 12 and a
// 1d6 "sword", side "a" or "b" alternating.
fb::RosterT ToyRoster(const std::vector<std::string>& ids);

// A command by `actor` (also its author), as a player.
fb::CommandT ToyCmd(const std::string& id, const std::string& actor,
                    const std::string& action,
                    std::vector<std::string> targets = {},
                    std::vector<int> dice = {});

// Typed references (Command.refs) for test commands.
using kernel::AddRef;

}  // namespace combat::replay::testing

#endif  // COMBAT_REPLAY_TESTING_TOY_H_
