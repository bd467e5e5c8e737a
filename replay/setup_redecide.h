// Re-deciding a session's set-up, for verify (replay/verify.h).
//
// The set-up (command id "setup": SessionStarted, then the ruleset's Setup:
// CombatantJoined for each combatant, initiative rolls, order, ...) has no
// Declaration: the roster it was decided from is not stored as such. It is
// in the events, though: SessionStarted records the title, ruleset, map and
// the dice commitment, and each CombatantJoined the combatant's spec as the
// roster gave it, in roster order. So the set-up can be re-decided like any
// command: rebuild the roster, run kernel::SetUpSession with the recorded
// author and the recorded dice (each die by its index, with its recorded
// provenance), and compare the events byte for byte.
#ifndef COMBAT_REPLAY_SETUP_REDECIDE_H_
#define COMBAT_REPLAY_SETUP_REDECIDE_H_

#include <vector>

#include "absl/status/statusor.h"
#include "events/codec.h"
#include "events/input_generated.h"
#include "kernel/ruleset.h"
#include "replay/recorded.h"

namespace combat::replay {

// The roster `setup` (a recorded set-up, events kept) was decided from.
// InvalidArgument when its first event is not SessionStarted.
absl::StatusOr<fb::RosterT> RosterOf(const RecordedCommand& setup);

// The set-up events re-decided from RosterOf(setup) with the recorded
// dice; errors from the ruleset as they come (a refusal is a mismatch).
absl::StatusOr<std::vector<events::EventBuffer>> RedecideSetup(
    const kernel::Ruleset& rules, const RecordedCommand& setup);

}  // namespace combat::replay

#endif  // COMBAT_REPLAY_SETUP_REDECIDE_H_
