// combat whatif: fork with one thing changed and re-run what followed.
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "events/json.h"
#include "events/status_macros.h"
#include "replay/cli_verbs.h"
#include "replay/limits.h"
#include "replay/engine.h"
#include "replay/progress.h"
#include "replay/whatif.h"

namespace combat::replay {
namespace {

// --die SEQ[:POS]=VALUE (POS counts from 1, as the log shows dice).
absl::Status ParseDie(const std::string& text, WhatIfChange& c) {
  const auto bad = absl::InvalidArgumentError(absl::StrCat(
      "flag --die: '", text, "': use SEQ=VALUE or SEQ:DIE=VALUE (DIE from 1)"));
  std::pair<std::string, std::string> lhs_rhs = absl::StrSplit(text, '=');
  std::pair<std::string, std::string> seq_pos = absl::StrSplit(lhs_rhs.first, ':');
  int pos = 1;
  if (!absl::SimpleAtoi(seq_pos.first, &c.seq) ||
      !absl::SimpleAtoi(lhs_rhs.second, &c.value) ||
      (!seq_pos.second.empty() && !absl::SimpleAtoi(seq_pos.second, &pos)) || pos < 1) {
    return bad;
  }
  c.die = pos - 1;
  c.kind = WhatIfChange::Kind::kDie;
  return absl::OkStatus();
}

absl::StatusOr<fb::CommandT> CommandFrom(const Flags& f, const std::string& flag) {
  ASSIGN_OR_RETURN(std::string path, Required(f, flag));
  ASSIGN_OR_RETURN(std::string text, ReadFile(path, kMaxCommandFileBytes));
  return events::ParseCommand(text);
}

}  // namespace

absl::Status VerbWhatIf(const Flags& f, std::ostream& out) {
  ASSIGN_OR_RETURN(std::string db, Required(f, "db"));
  WhatIfRequest req;
  ASSIGN_OR_RETURN(req.session, Required(f, "session"));
  ASSIGN_OR_RETURN(req.branch, Required(f, "name"));
  ASSIGN_OR_RETURN(req.author, Required(f, "author"));
  ASSIGN_OR_RETURN(req.reason, Required(f, "reason"));
  ASSIGN_OR_RETURN(req.at, EventSeq(f, "at"));
  req.parent = f.Get("from", "main");
  int changes = 0;
  if (f.Has("die")) {
    ++changes;
    RETURN_IF_ERROR(ParseDie(f.Get("die"), req.change));
  }
  if (f.Has("replace")) {
    ++changes;
    req.change.kind = WhatIfChange::Kind::kReplace;
    ASSIGN_OR_RETURN(req.change.seq, Number(f, "replace"));
    ASSIGN_OR_RETURN(req.change.command, CommandFrom(f, "command"));
  }
  if (f.Has("drop")) {
    ++changes;
    req.change.kind = WhatIfChange::Kind::kDrop;
    ASSIGN_OR_RETURN(req.change.seq, Number(f, "drop"));
  }
  if (f.Has("insert")) {
    ++changes;
    req.change.kind = WhatIfChange::Kind::kInsert;
    ASSIGN_OR_RETURN(req.change.command, CommandFrom(f, "insert"));
  }
  if (changes > 1) {
    return absl::InvalidArgumentError(
        "one change at a time: --die, --replace, --drop or --insert");
  }
  ASSIGN_OR_RETURN(auto engine, OpenDb(db, DbUse::kWrite));
  ASSIGN_OR_RETURN(const kernel::Ruleset* rules, engine->RulesetOf(req.session));
  Progress progress = Progress::OnStderr(absl::StrCat("what-if ", req.branch));
  ASSIGN_OR_RETURN(WhatIfResult r, WhatIf(engine->log(), *rules, req,
                                          engine->seek_options(), &progress));
  out << RenderWhatIf(r);
  return absl::OkStatus();
}

}  // namespace combat::replay
