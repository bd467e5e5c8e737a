// combat diff: two branches, or two events.
#include <string>

#include "events/status_macros.h"
#include "replay/cli_verbs.h"
#include "replay/diff.h"
#include "replay/engine.h"

namespace combat::replay {

absl::Status VerbDiff(const Flags& f, std::ostream& out) {
  ASSIGN_OR_RETURN(std::string db, Required(f, "db"));
  ASSIGN_OR_RETURN(std::string session, Required(f, "session"));
  ASSIGN_OR_RETURN(std::string a_text, Required(f, "a"));
  ASSIGN_OR_RETURN(std::string b_text, Required(f, "b"));
  ASSIGN_OR_RETURN(Point a, ParsePoint(a_text));
  ASSIGN_OR_RETURN(Point b, ParsePoint(b_text));
  ASSIGN_OR_RETURN(auto engine, OpenDb(db, DbUse::kRead));
  ASSIGN_OR_RETURN(DiffResult d, Diff(engine->log(), session, a, b, engine->seek_options()));
  out << RenderDiff(d);
  return absl::OkStatus();
}

}  // namespace combat::replay
