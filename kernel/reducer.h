// The reducer: folds one event into the derived state.
//
// Contract: pure. No clock, no random numbers, no I/O, no iteration over
// hash-ordered containers, integer arithmetic only. The same events folded
// from an empty State always give equal states. The reducer is the same for
// every ruleset: rulesets differ in what their deciders emit, never in how
// events are applied.
//
// It also checks the events it is given: a seq that does not follow, a
// resource whose `value` disagrees with `delta`, a condition id out of order,
// an unknown combatant. Such an event is refused with a DataLoss error naming
// the seq and field, and the state is left unchanged.
#ifndef COMBAT_KERNEL_REDUCER_H_
#define COMBAT_KERNEL_REDUCER_H_

#include "absl/status/status.h"
#include "events/events_generated.h"
#include "kernel/state.h"

namespace combat::kernel {

// Applies `event` to `state`. REQUIRES: `event` passed the FlatBuffers
// Verifier (events::VerifyEvent does both).
[[nodiscard]] absl::Status Apply(const fb::Event& event, State& state);

}  // namespace combat::kernel

#endif  // COMBAT_KERNEL_REDUCER_H_
