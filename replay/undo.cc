#include "replay/undo.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/command.h"

namespace combat::replay {
namespace {

// The command an event records (its declaration or interrupt), or null.
const fb::Command* CommandOf(const fb::Event& e) {
  if (e.body_type() == fb::Body::Declaration) return e.body_as_Declaration()->command();
  if (e.body_type() == fb::Body::Interrupt) return e.body_as_Interrupt()->command();
  return nullptr;
}

bool Undoable(const fb::Command* c) {
  return c != nullptr && c->action() != nullptr &&
         c->action()->str() != "gm_void" && c->action()->str() != "gm_reveal";
}

}  // namespace

absl::StatusOr<SubmitResult> Undo(Engine& engine, const UndoRequest& r) {
  if (r.author.empty()) {
    return absl::InvalidArgumentError("undo: field 'author' (the GM) is required");
  }
  if (r.reason.empty()) {
    return absl::InvalidArgumentError("undo: field 'reason' (why) is required");
  }
  ASSIGN_OR_RETURN(kernel::State state, engine.StateAt(r.session, r.branch, 0));
  ASSIGN_OR_RETURN(std::vector<events::EventBuffer> log,
                   engine.Events(r.session, r.branch, 1, 0));
  const auto voided = [&state](uint64_t seq) {
    return std::binary_search(state.voided.begin(), state.voided.end(), seq);
  };
  uint64_t target = 0;
  std::string target_id;
  if (!r.command_id.empty()) {
    ASSIGN_OR_RETURN(std::optional<store::AppendResult> found,
                     engine.log().FindCommand(r.session, r.branch, r.command_id));
    if (!found.has_value()) {
      return absl::NotFoundError(absl::StrCat("undo: no command '", r.command_id,
                                              "' on branch ", r.branch));
    }
    const fb::Event& first = log[found->first_seq - 1].event();
    if (!Undoable(CommandOf(first))) {
      return absl::FailedPreconditionError(absl::StrCat(
          "undo: command '", r.command_id, "' (#", found->first_seq,
          ") cannot be undone: it is a set-up, a fork record, a void or a reveal"));
    }
    if (voided(found->first_seq)) {
      return absl::FailedPreconditionError(absl::StrCat(
          "undo: command '", r.command_id, "' (#", found->first_seq,
          ") is already undone"));
    }
    target = found->first_seq;
    target_id = r.command_id;
  } else {
    // The last command that still counts: its first event, walking back.
    for (size_t i = log.size(); i-- > 0;) {
      const fb::Event& e = log[i].event();
      const bool first_of_command =
          i == 0 || log[i - 1].event().command_id() == nullptr ||
          e.command_id() == nullptr ||
          log[i - 1].event().command_id()->str() != e.command_id()->str();
      if (!first_of_command || !Undoable(CommandOf(e)) || voided(e.seq())) continue;
      target = e.seq();
      target_id = e.command_id() != nullptr ? e.command_id()->str() : "";
      break;
    }
    if (target == 0) {
      return absl::FailedPreconditionError(absl::StrCat(
          "undo: nothing to undo on branch ", r.branch,
          " (no command that still counts besides the set-up)"));
    }
  }
  fb::CommandT c;
  c.id = absl::StrCat("undo-", target);
  c.action = "gm_void";
  c.author = r.author;
  c.role = fb::Role::GM;
  c.text = absl::StrCat("undo ", target_id, ": ", r.reason);
  kernel::AddRef(c, "subject", target);
  return engine.Submit(r.session, r.branch, c);
}

}  // namespace combat::replay
