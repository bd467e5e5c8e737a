// GM verbs every ruleset shares: rulings that overrule or fill in what the
// rules text leaves to the GM. Each is recorded as a Declaration by the GM,
// a Ruling event (kind, subject, reason), and the concrete state changes
// whose cause is the ruling. The GM must give a reason (`text`).
//
//   gm_adjust      actor, params {resource: name in `text` of param
//                  "resource", delta}  -> ResourceChanged
//   gm_set         actor, params {resource (text), value} -> ResourceSet
//   gm_condition   actor, params {name (text), op: text "add"/"remove",
//                  level, rounds, expires (text), relative_to (text: a
//                  subjective condition against one creature), note
//                  (text)}: add or remove. With
//                  `rounds`, the condition expires `rounds` rounds on at
//                  `expires`: "turn_start" (the actor's turn; the default
//                  when a turn is running) or "round_start" / "round_end"
//                  (the default in rulesets without turns); a ruleset
//                  may set its text's default (GmRules::rounds_expiry)
//   gm_move        actor, path (forced movement: falls, currents, shoves)
//   gm_end         end the session (reason in text)
//   gm_note        a ruling with no state change (e.g. "allow", "deny",
//                  "resolve"): params {kind (text)}, refs {subject: seq}
//   gm_void        undo: refs {subject: seq}: that event, and every
//                  event it caused, stop counting (kernel/fold.h)
//   gm_reveal      reveal the dice secret: params {secret (text, hex)};
//                  refused unless its SHA-256 is the session's commitment
//   gm_order       set or reorder the turn order: `targets` = the new order
//                  (every creature in the current order, each once, and any
//                  others to add), params {<id>: initiative} to change an
//                  initiative; delayed flags and shared-turn members stay.
//                  Also how the GM decides ties (seed 004) or moves a
//                  creature's initiative (seed 001) by ruling.
//
// A ruleset's Decide calls DecideGm for any action starting with "gm_".
#ifndef COMBAT_KERNEL_GM_H_
#define COMBAT_KERNEL_GM_H_

#include <functional>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "kernel/changes.h"
#include "kernel/decision.h"

namespace combat::kernel {

// True when `action` is one of the shared GM verbs.
bool IsGmVerb(const std::string& action);

// What a ruleset adds to the shared GM verbs.
struct GmRules {
  GmRules(std::string rule_id) : rule(std::move(rule_id)) {}  // NOLINT
  GmRules(const char* rule_id) : rule(rule_id) {}             // NOLINT
  std::string rule;  // the ruleset's section id for GM rulings
  // gm_condition "add": how the ruleset imposes the condition (daughters,
  // special cases); unset = kernel AddCondition.
  std::function<absl::Status(Decision&, const NewCondition&, const Why&)>
      add_condition;
  // gm_condition "add" with `rounds` and no `expires`: when the condition
  // ends, for a text that says how durations in rounds count (e.g. seed
  // 001 l.127: the round it begins is round 1, it ends at that round's
  // end); unset = the kernel's default above (`expires` "turn_start" of
  // the actor while a turn runs, else "round_start", `rounds` rounds on).
  // An `expires` the GM gives is always followed.
  std::function<Expiry(const State&, const std::string& actor, int64_t rounds)>
      rounds_expiry;
  // Called after any GM verb was decided, with the Ruling's seq, for the
  // ruleset's consequences (e.g. a gained value that ends a condition).
  std::function<absl::Status(Decision&, const fb::CommandT&, uint64_t ruling)>
      after;
};

// Decides a GM verb. PermissionDenied unless command.role is GM;
// InvalidArgument for a missing field (named) or missing reason.
absl::Status DecideGm(const fb::CommandT& command, const GmRules& rules,
                      Decision& d);

}  // namespace combat::kernel

#endif  // COMBAT_KERNEL_GM_H_
