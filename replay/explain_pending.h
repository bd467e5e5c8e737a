// Explain's view of pending acts (kernel/pending.h): which events belong to
// a pending act's history, and the declaration behind it.
#ifndef COMBAT_REPLAY_EXPLAIN_PENDING_H_
#define COMBAT_REPLAY_EXPLAIN_PENDING_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "events/events_generated.h"
#include "store/event_log.h"

namespace combat::replay {

// The pending act `e` opens, updates or closes, or that the window `e`
// opens holds back (WindowOpened.pending); 0 for any other event.
uint32_t PendingIdOf(const fb::Event& e);

// Whether `e` is a PendingOpened, PendingUpdated or PendingClosed.
bool ChangesPending(const fb::Event& e);

// The declaration behind pending act `id` on `branch` (its PendingOpened at
// or before `upto` gives the seq), as
//   "pending #3 carries the declaration #12:\n  #12 declare  ...\n".
// NotFound when no such act was opened by `upto`.
absl::StatusOr<std::string> PendingDeclaration(store::EventLog& log,
                                               const std::string& session,
                                               const std::string& branch,
                                               uint32_t id, uint64_t upto);

}  // namespace combat::replay

#endif  // COMBAT_REPLAY_EXPLAIN_PENDING_H_
