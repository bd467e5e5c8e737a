#include "server/auth.h"

#include <openssl/rand.h>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "events/hash.h"
#include "events/status_macros.h"
#include "kernel/authority.h"
#include "server/http.h"

namespace combat::server {

absl::StatusOr<std::string> NewToken() {
  unsigned char bytes[32];
  if (RAND_bytes(bytes, sizeof(bytes)) != 1) {
    return absl::InternalError("the OS random source failed (RAND_bytes)");
  }
  return events::Hex(bytes, sizeof(bytes));
}

std::string TokenHash(const std::string& token) {
  return events::Hex(events::Sha256(token));
}

absl::StatusOr<std::string> AddParticipant(Context& ctx, const store::Participant& p) {
  ASSIGN_OR_RETURN(std::string token, NewToken());
  RETURN_IF_ERROR(ctx.participants.Add(p, TokenHash(token)));
  return token;
}

absl::StatusOr<std::string> FoundSession(Context& ctx, const store::Participant& gm) {
  ASSIGN_OR_RETURN(std::string token, NewToken());
  RETURN_IF_ERROR(ctx.participants.Found(gm, TokenHash(token)));
  return token;
}

std::string TokenOf(const httplib::Request& req) {
  const std::string header = req.get_header_value("Authorization");
  if (absl::StartsWithIgnoreCase(header, "Bearer ")) return header.substr(7);
  if (req.has_param("token")) return req.get_param_value("token");
  return "";
}

absl::StatusOr<std::string> AuthenticateOperator(const Context& ctx,
                                                 const httplib::Request& req) {
  const std::string token = TokenOf(req);
  if (token.empty()) {
    return absl::UnauthenticatedError(
        "no token: creating or importing a session is the operator's; send "
        "'Authorization: Bearer <token>' with an operator token (combat token --db DIR "
        "--role operator)");
  }
  ASSIGN_OR_RETURN(std::optional<std::string> name,
                   ctx.participants.FindOperator(TokenHash(token)));
  if (!name) {
    return absl::UnauthenticatedError(
        "the token is not an operator's (creating or importing a session is the "
        "operator's: combat token --db DIR --role operator)");
  }
  return *name;
}

absl::StatusOr<store::Participant> Authenticate(const Context& ctx,
                                                const httplib::Request& req,
                                                const std::string& session) {
  const std::string token = TokenOf(req);
  if (token.empty()) {
    return absl::UnauthenticatedError(absl::StrCat(
        "no token: send 'Authorization: Bearer <token>' (or ?token=) with a token of "
        "session '", session, "'"));
  }
  ASSIGN_OR_RETURN(std::optional<store::Participant> p,
                   ctx.participants.Find(session, TokenHash(token)));
  if (!p) {
    return absl::UnauthenticatedError(
        absl::StrCat("the token is not one of session '", session, "'"));
  }
  return *p;
}

absl::StatusOr<store::Participant> Admit(const Context& ctx, const httplib::Request& req,
                                         const std::string& session,
                                         const std::string& branch) {
  RETURN_IF_ERROR(CheckSession(ctx, session));
  ASSIGN_OR_RETURN(store::Participant p, Authenticate(ctx, req, session));
  if (!branch.empty()) RETURN_IF_ERROR(CheckBranch(ctx, session, branch));
  return p;
}

absl::Status RequireGm(const store::Participant& p, const std::string& what) {
  if (p.role == store::ParticipantRole::kGm) return absl::OkStatus();
  return absl::PermissionDeniedError(absl::StrCat(
      what, " is the GM's; '", p.name, "' is a ", store::RoleName(p.role),
      " of session '", p.session, "'; nothing was written"));
}

absl::Status RequireNotObserver(const store::Participant& p, const std::string& what) {
  if (p.role != store::ParticipantRole::kObserver) return absl::OkStatus();
  return absl::PermissionDeniedError(absl::StrCat(
      "'", p.name, "' observes session '", p.session, "' and may only read, not ",
      what, "; nothing was written"));
}

void StampAuthority(const store::Participant& p, fb::CommandT& command) {
  command.author = p.name;
  command.role = p.role == store::ParticipantRole::kGm ? fb::Role::GM : fb::Role::Player;
}

absl::StatusOr<std::vector<std::string>> CombatantsOf(const Context& ctx,
                                                      const std::string& session,
                                                      const std::string& name) {
  ASSIGN_OR_RETURN(kernel::State state, ctx.engine->StateAt(session, "main", 0));
  std::vector<std::string> ids;
  for (const auto& [id, c] : state.combatants) {
    if (kernel::PlayerOf(state, id) == name) ids.push_back(id);
  }
  return ids;
}

}  // namespace combat::server
