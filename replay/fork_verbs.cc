// combat fork / branches.
#include <string>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "replay/cli_verbs.h"
#include "replay/engine.h"
#include "replay/fork.h"

namespace combat::replay {

absl::Status VerbFork(const Flags& f, std::ostream& out) {
  ASSIGN_OR_RETURN(std::string db, Required(f, "db"));
  ForkRequest req;
  ASSIGN_OR_RETURN(req.session, Required(f, "session"));
  ASSIGN_OR_RETURN(req.branch, Required(f, "name"));
  ASSIGN_OR_RETURN(req.author, Required(f, "author"));
  ASSIGN_OR_RETURN(req.reason, Required(f, "reason"));
  ASSIGN_OR_RETURN(req.at, EventSeq(f, "at"));
  req.parent = f.Get("from", "main");
  ASSIGN_OR_RETURN(auto engine, OpenDb(db, DbUse::kWrite));
  ASSIGN_OR_RETURN(uint64_t at, engine->Fork(req));
  out << "branch " << req.branch << " forked from " << req.parent << " at #" << at
      << " by " << req.author << ": \"" << req.reason << "\" (events 1.." << at
      << " shared, nothing copied)\n";
  return absl::OkStatus();
}

absl::Status VerbBranches(const Flags& f, std::ostream& out) {
  ASSIGN_OR_RETURN(std::string db, Required(f, "db"));
  ASSIGN_OR_RETURN(std::string session, Required(f, "session"));
  ASSIGN_OR_RETURN(auto engine, OpenDb(db, DbUse::kRead));
  ASSIGN_OR_RETURN(auto tree, BranchTree(engine->log(), session));
  out << RenderBranchTree(tree);
  return absl::OkStatus();
}

}  // namespace combat::replay
