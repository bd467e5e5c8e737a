// `combat undo`: the GM takes a command back. The log is never edited: the
// undo is a new command, a gm_void of the undone command's declaration
// (kernel/gm.h), so its events stop counting (kernel/fold.h: the state is
// as if it never happened) while the log keeps them and shows the void, who
// made it and why.
#ifndef COMBAT_REPLAY_UNDO_H_
#define COMBAT_REPLAY_UNDO_H_

#include <string>

#include "absl/status/statusor.h"
#include "replay/engine.h"

namespace combat::replay {

struct UndoRequest {
  std::string session;
  std::string branch = "main";
  // The command to undo; "" = the branch's last command that still counts
  // (not voided, not itself a void or a reveal; never the set-up or a fork
  // record).
  std::string command_id;
  std::string author;  // the GM (required)
  std::string reason;  // why (required)
};

// Submits the void as command "undo-<seq of the declaration>" in the GM's
// role (a retry is applied once). InvalidArgument without author or
// reason; NotFound for an unknown command id (naming the branch);
// FailedPrecondition when there is nothing to undo, or the command cannot
// be (a set-up, a fork record, a void, a reveal, already voided).
absl::StatusOr<SubmitResult> Undo(Engine& engine, const UndoRequest& request);

}  // namespace combat::replay

#endif  // COMBAT_REPLAY_UNDO_H_
