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

#include <cstddef>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "events/codec.h"
#include "events/events_generated.h"
#include "kernel/state.h"

namespace combat::kernel {

// How an event is applied.
enum class Mode {
  // Replay of a log as written: every check applies; a failure is DataLoss.
  kStrict,
  // Re-deriving state without voided events (kernel/fold.h): numbering
  // checks (seq excepted) adopt the recorded numbers, a resource change
  // applies its delta, and an event that no longer applies is refused with
  // FailedPrecondition (the caller lists it as unapplied).
  kRederive,
  // The event is voided: only the seq and the numbering it consumed (roll
  // indices, condition and window ids) advance.
  kVoided,
};

// Applies `event` to `state`. REQUIRES: `event` passed the FlatBuffers
// Verifier (events::EventBuffer does). A Voided event only records its
// target here; re-deriving the state without it is kernel/fold.h's job.
[[nodiscard]] absl::Status Apply(const fb::Event& event, State& state,
                                 Mode mode = Mode::kStrict);

// The batch fold's core: applies `events` in order, strictly, as Apply
// would one at a time (the same handlers and checks), with one applier for
// the whole run: no Status, frame or context per event. Stops before the
// first Voided event (not applied: re-deriving around it is
// kernel/fold.h's FoldEvents's job) and at the first event refused, whose
// error (as Apply's) goes to `error`, left untouched otherwise. Returns
// how many events were applied: `state` holds them, and nothing of the
// event it stopped at. REQUIRES: `error` is OK. Not thread-safe on `state`.
size_t ApplyRun(absl::Span<const events::EventBuffer> events, State& state,
                absl::Status& error);

}  // namespace combat::kernel

#endif  // COMBAT_KERNEL_REDUCER_H_
