// combat undo: the GM takes a command back, as a new event (replay/undo.h).
#include <string>

#include "events/status_macros.h"
#include "replay/cli_verbs.h"
#include "replay/undo.h"

namespace combat::replay {

absl::Status VerbUndo(const Flags& f, std::ostream& out) {
  ASSIGN_OR_RETURN(std::string db, Required(f, "db"));
  UndoRequest r;
  ASSIGN_OR_RETURN(r.session, Required(f, "session"));
  ASSIGN_OR_RETURN(r.author, Required(f, "author"));
  ASSIGN_OR_RETURN(r.reason, Required(f, "reason"));
  r.branch = f.Get("branch", "main");
  r.command_id = f.Get("command", "");
  ASSIGN_OR_RETURN(auto engine, OpenDb(db, DbUse::kWrite));
  ASSIGN_OR_RETURN(SubmitResult done, Undo(*engine, r));
  if (done.duplicate && !f.Has("json")) out << "(this undo was already applied)\n";
  return PrintEvents(done.events, f.Has("json"), out);
}

}  // namespace combat::replay
