// Who may command what (design.md, "Roles"): the GM runs the session and
// every combatant the roster gives no player; a player commands only the
// combatants the roster says they play (CombatantSpec.player, schema v7)
// and answers windows only for them; automatic steps are the system's.
//
// Two steps, kept apart because they have different callers:
//   - AssignAuthority completes a command whose author or role the caller
//     did not establish (the `combat` tool and the C++ API, where whoever
//     holds the database is trusted to speak for the table): from the
//     roster, never from a guess about names.
//   - CheckAuthority is the rule itself, run by DecideCommand on every
//     command of a schema-7 session, whoever the caller (a server sets the
//     author and role from the participant's token, then relies on it).
#ifndef COMBAT_KERNEL_AUTHORITY_H_
#define COMBAT_KERNEL_AUTHORITY_H_

#include <string>

#include "absl/status/status.h"
#include "events/common_generated.h"
#include "kernel/state.h"

namespace combat::kernel {

// The participant who plays combatant `id` in `state` ("" = the GM runs
// it, or no such combatant).
std::string PlayerOf(const State& state, const std::string& id);

// True when `name` plays at least one combatant of `state`.
bool IsPlayer(const State& state, const std::string& name);

// Completes `command`'s author and role from the roster, for callers that
// take the command body's word (see above):
//   - a command the body marks GM keeps role GM; its author defaults to "gm";
//   - a command for a combatant with a player, whose author is empty or is
//     that player, is the player's (role Player, author the player);
//   - any other command left at role Player (the schema's default) whose
//     author plays no combatant — a GM-verb, a command with no actor, a
//     command for a combatant the GM runs — is the GM's: role GM, author
//     "gm" when empty.
// A command whose author plays other combatants than its actor is left as
// is, for CheckAuthority to refuse. Role System is left as is (refused).
void AssignAuthority(const State& state, fb::CommandT& command);

// The rule (schema-7 sessions; DecideCommand runs it):
//   - role System: refused (automatic steps come from the kernel only);
//   - an empty author: refused;
//   - role Player: the command names an actor the author plays; GM verbs
//     (kernel/gm.h) are refused.
// PermissionDenied naming the combatant, its player and what would be
// right; role GM may command anything.
absl::Status CheckAuthority(const State& state, const fb::CommandT& command);

}  // namespace combat::kernel

#endif  // COMBAT_KERNEL_AUTHORITY_H_
