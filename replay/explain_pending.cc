#include "replay/explain_pending.h"

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "replay/render.h"

namespace combat::replay {

bool ChangesPending(const fb::Event& e) {
  const fb::StateChange* sc = e.body_as_StateChange();
  if (sc == nullptr) return false;
  return sc->change_type() == fb::Change::PendingOpened ||
         sc->change_type() == fb::Change::PendingUpdated ||
         sc->change_type() == fb::Change::PendingClosed;
}

uint32_t PendingIdOf(const fb::Event& e) {
  const fb::StateChange* sc = e.body_as_StateChange();
  if (sc == nullptr) return 0;
  if (const auto* p = sc->change_as_PendingOpened()) return p->id();
  if (const auto* p = sc->change_as_PendingUpdated()) return p->id();
  if (const auto* p = sc->change_as_PendingClosed()) return p->id();
  if (const auto* w = sc->change_as_WindowOpened()) return w->pending();
  return 0;
}

absl::StatusOr<std::string> PendingDeclaration(store::EventLog& log,
                                               const std::string& session,
                                               const std::string& branch,
                                               uint32_t id, uint64_t upto) {
  uint64_t decl = 0;
  RETURN_IF_ERROR(log.Scan(session, branch, 1, upto, [&](const events::EventBuffer& b) {
    const fb::StateChange* sc = b.event().body_as_StateChange();
    const auto* p = sc == nullptr ? nullptr : sc->change_as_PendingOpened();
    if (p != nullptr && p->id() == id) decl = p->decl();
    return absl::OkStatus();
  }));
  if (decl == 0) {
    return absl::NotFoundError(
        absl::StrCat("no pending act #", id, " was opened by #", upto));
  }
  ASSIGN_OR_RETURN(auto d, log.Read(session, branch, decl, decl));
  return absl::StrCat("pending #", id, " carries the declaration #", decl, ":\n  ",
                      RenderEvent(d.front().event()), "\n");
}

}  // namespace combat::replay
