// combat head: each branch's head seq and hash, to be kept somewhere the
// database's holder cannot change (replay/anchor.h).
#include <string>

#include "events/status_macros.h"
#include "replay/anchor.h"
#include "replay/cli_verbs.h"

namespace combat::replay {

absl::Status VerbHead(const Flags& f, std::ostream& out) {
  ASSIGN_OR_RETURN(std::string db, Required(f, "db"));
  ASSIGN_OR_RETURN(std::string session, Required(f, "session"));
  ASSIGN_OR_RETURN(auto engine, OpenDb(db, DbUse::kRead));
  ASSIGN_OR_RETURN(std::vector<PublishedHead> heads,
                   ReadHeads(engine->log(), session));
  RETURN_IF_ERROR(SignHeads(engine->log(), session, heads));
  out << RenderHeads(heads, f.Has("json"));
  return absl::OkStatus();
}

}  // namespace combat::replay
