// Pending acts: declarations that have not resolved yet, typed in the
// schema (events.fbs PendingOpened / PendingUpdated / PendingClosed) so the
// reducer checks them and state, diff and explain show them field by field.
// No command is ever stored as text.
//
// Kinds the rulesets use (a ruleset may name others):
//   "held_back" a declaration waiting on a window (kernel/window.h); for a
//               move split at a trigger, `command` is the rest of the path
//               and `progress` the squares already moved
//   "readied"   an act readied on a trigger (seed 000 L61; seed 004 held
//               actions): `trigger` says what fires it, `expiry` when it
//               lapses (kernel/trigger.h finds the ones a declaration sets off)
//   "acting"    an act in progress until resolved or cancelled (seed 002)
//   "paying"    an act costing more than the actor has, paid over several
//               turns or rounds until it takes effect (seed 001): `budget`
//               names the resource, `cost_due`/`cost_paid` the account
//
// Contract: every function emits through the Decision (so the reducer
// checks it at once) and names `why`. The reducer refuses a pending act
// whose declaration is not an earlier event, a payment beyond its cost, an
// update or close of an act that is not open, and closing an act a window
// still holds back.
#ifndef COMBAT_KERNEL_PENDING_H_
#define COMBAT_KERNEL_PENDING_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "kernel/changes.h"
#include "kernel/decision.h"
#include "kernel/state.h"

namespace combat::kernel {

inline constexpr char kHeldBack[] = "held_back";
inline constexpr char kReadiedAct[] = "readied";
inline constexpr char kActing[] = "acting";
inline constexpr char kPaying[] = "paying";

struct NewPending {
  std::string kind;
  std::string actor;
  uint64_t decl = 0;            // the declaration it carries
  fb::CommandT command;         // what will resolve
  int64_t cost_due = 0;
  int64_t cost_paid = 0;
  int64_t progress = 0;
  fb::Span span = fb::Span::Instant;
  Trigger trigger;
  Expiry expiry;
  std::string budget;           // the resource cost_* count in
  std::vector<std::string> reacted;  // who already answered on it
};

// A pending act as its PendingOpened recorded it, to open it again (a
// lapsed act brought back).
NewPending AsNew(const fb::PendingOpenedT& opened);
// Opens a pending act; returns its id.
absl::StatusOr<uint32_t> OpenPending(Decision& d, const NewPending& p,
                                     const Why& why);
// Pays `amount` (> 0) more of pending act `id` from its actor's `budget`
// resource: a ResourceChanged (-amount) and a PendingUpdated. 
// FailedPrecondition when the actor has less than `amount` or it would pay
// more than is due.
absl::Status PayPending(Decision& d, uint32_t id, int64_t amount,
                        const Why& why);
// Records new `progress` and, when given, what is left of the command (a
// move's remaining path) and the new list of who has answered on it.
absl::Status UpdatePending(Decision& d, uint32_t id, int64_t progress,
                           const fb::CommandT* rest,
                           const std::vector<std::string>* reacted,
                           const Why& why);
// Closes pending act `id` with `outcome` ("resolved", "fired", "lapsed",
// "cancelled: <why>").
absl::Status ClosePending(Decision& d, uint32_t id, const std::string& outcome,
                          const Why& why);

// The open pending acts of `actor` (any actor when empty) of `kind` (any
// kind when empty), by id.
std::vector<const PendingAct*> PendingActs(const State& s,
                                           const std::string& actor,
                                           const std::string& kind);
// The first of them, or nullptr.
const PendingAct* FirstPending(const State& s, const std::string& actor,
                               const std::string& kind);

}  // namespace combat::kernel

#endif  // COMBAT_KERNEL_PENDING_H_
