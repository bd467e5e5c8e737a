// Field-by-field differences between two derived states, combatant by
// combatant: what one event changed (step), or how two branches or two
// events differ (diff), or a recorded state against a replayed one
// (verify). Pure.
#ifndef COMBAT_REPLAY_STATE_DIFF_H_
#define COMBAT_REPLAY_STATE_DIFF_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "kernel/state.h"

namespace combat::replay {

struct FieldDiff {
  std::string scope;  // "" = the session; a combatant id; "window 3"
  std::string field;  // "round", "hp", "condition #3", "at", ...
  std::string a;      // the value in the first state ("-" = absent)
  std::string b;      // the value in the second state
};

// Every field that differs, session fields first, then combatants by id
// (each combatant's fields in a fixed order: presence, side, name, at,
// size, controller, tags, stats, weapons, resources, conditions), then
// pools ("pool session", "pool side:party"; one field per counter), then
// open windows ("window 3") and pending acts ("pending #2"), field by field
// as state_text.h names them (an "open" field when only one state has it). `include_seq` = false leaves out `seq`, which always differs
// between two points of a log.
std::vector<FieldDiff> DiffStates(const kernel::State& a,
                                  const kernel::State& b,
                                  bool include_seq = true);

// One line per field, grouped under the scope:
//   session  round: 1 -> 2
//   b        hp: 10 -> 4
//            condition #1: - -> Down (from a)
// `arrow` joins the values (" -> " for before/after; " | " for two
// branches).
std::string RenderDiffs(const std::vector<FieldDiff>& diffs,
                        absl::string_view arrow = " -> ",
                        absl::string_view indent = "  ");

// A condition as one value: "Down (from a, vs b, level 2, until TurnStart
// of a round 3, daughter of #1)".
std::string DescribeCondition(const kernel::Condition& c);

}  // namespace combat::replay

#endif  // COMBAT_REPLAY_STATE_DIFF_H_
