// Folding events into state as replay does: the reducer, plus voids.
//
// A Voided event makes its target (and every event whose cause is the
// target) stop counting. The state after it is re-derived from the start of
// the branch: voided events only advance the numbering they consumed, and
// the events after a voided one are applied in re-derivation mode
// (reducer.h); one that no longer applies is skipped and listed in
// State::unapplied. Events after the Voided event were decided against that
// re-derived state, so they replay strictly. Voids are rare; re-derivation
// costs one pass over the prefix.
#ifndef COMBAT_KERNEL_FOLD_H_
#define COMBAT_KERNEL_FOLD_H_

#include <cstdint>
#include <functional>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "events/codec.h"
#include "events/events_generated.h"
#include "kernel/state.h"

namespace combat::kernel {

// Visits events 1..upto of the branch being folded, in seq order.
using EventVisitor = std::function<absl::Status(const fb::Event&)>;
using PrefixScan =
    std::function<absl::Status(uint64_t upto, const EventVisitor& visit)>;

// Applies `event` to `state`. `prefix` must be able to visit the events
// before `event`; it is only called for a Voided event (and may be null
// when the caller knows there is none: a Voided event then fails with
// FailedPrecondition).
absl::Status ApplyEvent(const fb::Event& event, State& state,
                        const PrefixScan* prefix);

// The batch fold: applies `events` (in seq order) to `state` as ApplyEvent
// would one at a time, with the reducer's context kept across the run
// (reducer.h ApplyRun): what folds a run of events it holds (Fold with
// kNo, replay::SnapshotNewEvents, bench/fold_count). A store scan hands one
// event per call, so replay::Seek still folds with FoldOne.
// A Voided event goes through ApplyEvent with `prefix` (same rules as
// there), then the run goes on. Returns the first error, naming the event's
// seq as ApplyEvent does; `state` then holds the events before it.
absl::Status FoldEvents(absl::Span<const events::EventBuffer> events,
                        State& state, const PrefixScan* prefix);

// True when `event` no longer counts given the sorted `voided` seqs.
bool IsVoided(const fb::Event& event, const std::vector<uint64_t>& voided);

}  // namespace combat::kernel

#endif  // COMBAT_KERNEL_FOLD_H_
