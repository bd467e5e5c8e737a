// What a GM at the table needs to know now (`combat status`,
// Engine::Status): the round, whose turn it is (or, without turns, who may
// act), every combatant with its vitals as current/max, the budgets left,
// its conditions with when they end, the open windows with who may still
// answer; and for one named combatant, the acts that are legal now, each
// with a ready-to-edit JSON command, and why the others are not.
//
// Legality is decided by the ruleset itself: each candidate command (the
// verb's Skeleton, kernel/verb_schema.h, tried against each combatant as
// target, each of the actor's weapons, and each neighbouring square as a
// one-square path where the verb needs those) is decided by
// kernel::DecideCommand on a copy of the state with throwaway dice, and
// the decision is discarded. Legal = decided; not now = refused as illegal
// (FailedPrecondition, with the ruleset's reason); an act whose refusal is
// about input the skeleton cannot guess (a required text, a path) is listed
// as legal to try with what it needs, unless the ruleset, asked again with
// a stand-in for its free-text inputs, refuses it as illegal now (not this
// creature's turn, no Actions left): then it is not now. Nothing is written.
#ifndef COMBAT_REPLAY_STATUS_H_
#define COMBAT_REPLAY_STATUS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "kernel/fold.h"
#include "kernel/ruleset.h"
#include "kernel/state.h"

namespace combat::replay {

struct VitalStatus {
  std::string resource;
  int64_t current = 0;
  std::optional<int64_t> max;
};

struct ConditionStatus {
  std::string name;
  int64_t level = 0;
  std::string source;
  std::string relative_to;
  std::string ends;  // "ends at the start of aria's turn in round 3",
                     // "until removed", ...
};

struct CombatantStatus {
  std::string id;
  std::string name;
  std::string side;
  std::string controller;  // the combatant commanding it (a summon's master)
  std::string player;      // who plays it ("" = the GM runs it)
  kernel::Pos at;
  std::vector<VitalStatus> vitals;
  std::vector<std::pair<std::string, int64_t>> budgets;
  std::vector<std::pair<std::string, int64_t>> other;  // other game values
  std::vector<ConditionStatus> conditions;
};

struct WindowStatus {
  uint32_t id = 0;
  std::string kind;
  uint64_t trigger = 0;  // the event it answers
  std::vector<std::string> may_answer;
  std::vector<std::string> answered;
};

struct LegalAct {
  std::string verb;
  std::string doc;
  std::vector<std::string> targets;  // legal against these (empty: none taken)
  std::vector<std::string> weapons;  // with these (empty: none taken)
  std::string needs;                 // input still to fill in, e.g. "params.name"
  std::string command;               // a ready-to-edit command (JSON, one line)
};

struct NotNow {
  std::string verb;
  std::string reason;  // the ruleset's refusal
};

struct TableStatus {
  std::string session;
  std::string branch;
  uint64_t seq = 0;  // the state after this event
  std::string ruleset;
  int64_t round = 0;
  std::string active;                      // whose turn ("" without turns)
  std::vector<std::string> active_members;  // a shared turn's members
  std::vector<std::string> may_act;        // without a turn: who may act now
  std::string ended;                       // the end reason, once ended
  std::vector<CombatantStatus> combatants;
  std::vector<WindowStatus> windows;
  std::string note;  // why no acts were tried, when none were
  // Set by the engine (replay/dice_epoch.h): e.g. the branch's dice secret
  // is public. Printed first, each as "warning: <line>".
  std::vector<std::string> warnings;
  // For `for_combatant` only.
  std::string for_combatant;
  std::vector<LegalAct> legal;
  std::vector<NotNow> not_now;
};

struct StatusRequest {
  const kernel::Ruleset* rules = nullptr;
  const kernel::State* state = nullptr;
  const kernel::PrefixScan* prefix = nullptr;  // the branch's earlier events
  std::string branch = "main";
  std::string for_combatant;  // "" = none; NotFound naming the list otherwise
  // When set, no acts are tried (legal, not now, may act): the reason, shown
  // as the status's note (e.g. the session's ruleset version is not this
  // build's).
  std::string no_acts_because;
};

absl::StatusOr<TableStatus> BuildStatus(const StatusRequest& request);

// The text `combat status` prints.
std::string RenderStatus(const TableStatus& status);
// One JSON object (one line).
std::string StatusJson(const TableStatus& status);

}  // namespace combat::replay

#endif  // COMBAT_REPLAY_STATUS_H_
