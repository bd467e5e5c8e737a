#include "server/context.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "events/nearest.h"
#include "events/status_macros.h"

namespace combat::server {

std::mutex& SessionLocks::For(const std::string& session) {
  std::lock_guard<std::mutex> lock(mu_);
  std::unique_ptr<std::mutex>& m = locks_[session];
  if (!m) m = std::make_unique<std::mutex>();
  return *m;
}

absl::Status CheckSession(const Context& ctx, const std::string& session) {
  // The common case in one lookup; the names only when it is missing.
  absl::Status st = ctx.engine->log().GetSession(session).status();
  if (st.ok() || (!absl::IsNotFound(st) && !absl::IsInvalidArgument(st))) return st;
  ASSIGN_OR_RETURN(std::vector<std::string> sessions, ctx.engine->log().ListSessions());
  for (const std::string& s : sessions) {
    if (s == session) return absl::OkStatus();
  }
  return absl::NotFoundError(events::NoSuchName("session", "sessions", session, sessions));
}

absl::Status CheckBranch(const Context& ctx, const std::string& session,
                         const std::string& branch) {
  absl::Status st = ctx.engine->log().GetBranch(session, branch).status();
  if (st.ok() || (!absl::IsNotFound(st) && !absl::IsInvalidArgument(st))) return st;
  ASSIGN_OR_RETURN(std::vector<store::BranchMeta> branches,
                   ctx.engine->log().ListBranches(session));
  std::vector<std::string> names;
  for (const store::BranchMeta& b : branches) {
    if (b.branch == branch) return absl::OkStatus();
    names.push_back(b.branch);
  }
  return absl::NotFoundError(absl::StrCat(
      events::NoSuchName("branch", "branches", branch, names), " (in session '",
      session, "')"));
}

}  // namespace combat::server
