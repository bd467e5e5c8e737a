// Kernel concepts a ruleset configures, as small emitters over a Decision:
// rounds and turns, the turn order, per-combatant resources (budgets such as
// actions, reactions, energy, AP; pools such as hp and stamina), conditions
// with expiry anchors and parent/daughter links, movement, interrupt
// windows and GM rulings. Each call emits one state change (or a short,
// documented sequence) citing `rule` and `cause`.
//
// None of these decide anything: the ruleset decides, these write it down
// the same way for every ruleset.
#ifndef COMBAT_KERNEL_CHANGES_H_
#define COMBAT_KERNEL_CHANGES_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "kernel/decision.h"
#include "kernel/state.h"

namespace combat::kernel {

// Where a change comes from: the event that caused it and the rule applied.
struct Why {
  uint64_t cause = 0;
  std::string rule;
  Nums nums = {};
  std::string note = {};
};

// The first event of every session (schema version from events/codec.h).
absl::Status StartSession(Decision& d, const std::string& session,
                          const std::string& title, const fb::MapT& map,
                          const std::vector<uint8_t>& dice_commitment,
                          const Why& why);
absl::Status JoinCombatant(Decision& d, const fb::CombatantSpecT& spec,
                           const Why& why);

// A round starting or ending and a turn starting are the system's steps
// (Decision::SystemSteps: author "system", role System), whoever's command
// set them off; a turn ending is its owner's.
absl::Status StartRound(Decision& d, const Why& why);
absl::Status EndRound(Decision& d, const Why& why);
// Starts `actor`'s turn; `members` share it (a union, rider and mount,
// commanded companions: State::IsTurnOf is true for each of them).
absl::Status StartTurn(Decision& d, const std::string& actor, const Why& why,
                       const std::vector<std::string>& members = {});
absl::Status EndTurn(Decision& d, const std::string& actor, const Why& why);
absl::Status SetOrder(Decision& d, const std::vector<OrderEntry>& order,
                      const Why& why);

// Pools: counters owned by the session ("session") or a side
// ("side:<name>"), not by a combatant (seed 004's Narrative Momentum).
absl::Status SetPool(Decision& d, const std::string& owner,
                     const std::string& name, int64_t value, const Why& why);
// Adds `delta` to pool counter `name` of `owner`; returns the new value.
absl::StatusOr<int64_t> AddPool(Decision& d, const std::string& owner,
                                const std::string& name, int64_t delta,
                                const Why& why);

// Sets resource `name` of `actor` to `value`.
absl::Status SetResource(Decision& d, const std::string& actor,
                         const std::string& name, int64_t value,
                         const Why& why);
// Adds `delta` (may be negative) to resource `name`; returns the new value.
absl::StatusOr<int64_t> AddResource(Decision& d, const std::string& actor,
                                    const std::string& name, int64_t delta,
                                    const Why& why);

struct NewCondition {
  std::string actor;        // who gets it
  std::string name;
  std::string source;
  std::string relative_to;  // subjective conditions
  int64_t level = 0;
  Expiry expiry;
  uint32_t parent = 0;
  uint64_t ref = 0;
  std::string note;
};
// A condition as a NewCondition, to add it again as it was (re-anchored,
// brought back, at a lower level: the caller changes what differs): the
// standing condition `c` of `actor`, or one as its ConditionAdded recorded
// it.
NewCondition AsNew(const std::string& actor, const Condition& c);
NewCondition AsNew(const fb::ConditionAddedT& added);
// Adds a condition; returns its instance id.
absl::StatusOr<uint32_t> AddCondition(Decision& d, const NewCondition& c,
                                      const Why& why);
// Removes condition `id` of `actor`, and first (depth-first) every daughter
// condition whose parent it is, on any combatant.
absl::Status RemoveCondition(Decision& d, const std::string& actor,
                             uint32_t id, const Why& why);
// Re-anchors conditions (an order change, a hand-on moving when a duration
// ends): each condition `to` gives a new expiry is removed and added again
// with it, with its daughters on any combatant (each daughter's own expiry
// moved too where `to` gives one, else kept); `why_of(root)` names the
// change. Roots in (combatant id, condition id) order, each subtree
// breadth-first, parents re-added before their daughters.
absl::Status ReAnchor(Decision& d,
                      const std::function<std::optional<Expiry>(const Condition&)>& to,
                      const std::function<Why(const Condition&)>& why_of);
// Removes every condition named `name` on `actor` (with daughters).
absl::Status RemoveConditionsNamed(Decision& d, const std::string& actor,
                                   const std::string& name, const Why& why);
// Removes every condition whose expiry matches (kind, actor, round), and
// closes ("lapsed") every pending act whose expiry matches, effects that
// began earlier first (seed 001: "effects active longer end first"; ties in
// (combatant id, condition id) order). `why.rule` is kept; the note names
// the anchor. Returns how many were removed or closed. When a condition
// began is its `added_at`, or what `began` says of it (a ruleset whose
// condition can be re-imposed as the same effect, e.g. at a lower level).
absl::StatusOr<int> ExpireAt(Decision& d, fb::ExpiryKind kind,
                             const std::string& actor, int64_t round,
                             const Why& why,
                             uint64_t (*began)(const Condition&) = nullptr);

absl::Status Move(Decision& d, const std::string& actor,
                  const std::vector<Pos>& path, int64_t cost, bool forced,
                  const Why& why);

// Windows: kernel/window.h. Pending acts: kernel/pending.h.

// Records the result of a check that changes nothing else (a miss, a failed
// save): `why` carries the numbers and, in its note, the result.
absl::Status RecordOutcome(Decision& d, const std::string& actor,
                           const Why& why);

absl::Status RecordRuling(Decision& d, const std::string& kind,
                          uint64_t subject, const std::string& reason,
                          const Why& why);
absl::Status EndSession(Decision& d, const std::string& reason,
                        const Why& why);

// Turn-order helper for rulesets with turns: the next combatant whose turn
// comes this round: the first order entry, not delayed, that has not acted
// this round and for which `can_act` is true; nullopt when the round is
// over. Entries for which `can_act` is false are skipped. An entry's
// `members` share its turn (StartTurn's `members`).
template <typename Pred>
std::optional<std::string> NextInOrder(const State& s, Pred can_act) {
  for (const OrderEntry& e : s.order) {
    if (e.delayed) continue;
    bool done = false;
    for (const std::string& a : s.acted) done = done || a == e.actor;
    if (!done && can_act(e.actor)) return e.actor;
  }
  return std::nullopt;
}

}  // namespace combat::kernel

#endif  // COMBAT_KERNEL_CHANGES_H_
