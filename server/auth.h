// Who is asking: participants and their tokens (issue 17, "Roles").
//
// A token is 32 random bytes (OpenSSL RAND_bytes) as 64 hex digits, shown
// once, when the participant is made; the database keeps only its SHA-256
// (store/participants.h), per session. A request names its token as
// "Authorization: Bearer <token>" or, for clients that cannot set headers
// (a browser's EventSource), as the query parameter `token`.
//
// Roles: the GM (the session's creator) may do everything; a player
// commands only the combatants the roster says they play (the kernel's
// check, kernel/authority.h, on the author and role the server sets from
// the token); an observer only reads. The author and role recorded in each
// event come from the token, never from the request body.
#ifndef COMBAT_SERVER_AUTH_H_
#define COMBAT_SERVER_AUTH_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "events/input_generated.h"
#include "httplib.h"
#include "server/context.h"
#include "store/participants.h"

namespace combat::server {

// A fresh token (Internal when the OS's random source fails).
absl::StatusOr<std::string> NewToken();
// The SHA-256 of `token`, lowercase hex: what the database keeps.
std::string TokenHash(const std::string& token);

// Records `p` with a fresh token and returns the token (shown once).
absl::StatusOr<std::string> AddParticipant(Context& ctx, const store::Participant& p);
// Records `gm` as the GM of a session about to be created (before it is:
// store::ParticipantTable::Found) with a fresh token, and returns the token.
absl::StatusOr<std::string> FoundSession(Context& ctx, const store::Participant& gm);

// The token a request carries (Bearer header, else ?token=); "" when none.
std::string TokenOf(const httplib::Request& req);

// The name of the server's operator whose token `req` carries (who may
// create and import sessions, and revoke any token). Unauthenticated when
// it carries none, or one that is not an operator's.
absl::StatusOr<std::string> AuthenticateOperator(const Context& ctx,
                                                 const httplib::Request& req);

// The participant of `session` whose token `req` carries. Unauthenticated
// when it carries none, or one that is not a token of this session.
absl::StatusOr<store::Participant> Authenticate(const Context& ctx,
                                                const httplib::Request& req,
                                                const std::string& session);

// The preamble of every session route: the session exists (404 naming
// the nearest), the token is one of its participants' (401), and, when
// `branch` is not empty, the branch exists (404). Returns who asks.
absl::StatusOr<store::Participant> Admit(const Context& ctx, const httplib::Request& req,
                                         const std::string& session,
                                         const std::string& branch = "");

// PermissionDenied unless `p` is the GM, naming `what` ("undo", "fork").
absl::Status RequireGm(const store::Participant& p, const std::string& what);
// PermissionDenied for an observer (who only reads), naming `what`.
absl::Status RequireNotObserver(const store::Participant& p, const std::string& what);

// `command` with its author and role set from `p` (GM: role GM; player:
// role Player), whatever the body said.
void StampAuthority(const store::Participant& p, fb::CommandT& command);

// The combatants `name` plays at the head of main (the roster's `player`).
absl::StatusOr<std::vector<std::string>> CombatantsOf(const Context& ctx,
                                                      const std::string& session,
                                                      const std::string& name);

}  // namespace combat::server

#endif  // COMBAT_SERVER_AUTH_H_
