// combat step / walk: event by event, with what each changed.
#include <iostream>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "replay/cli_verbs.h"
#include "replay/engine.h"
#include "replay/step.h"

namespace combat::replay {
namespace {

// Where a step starts: --at N, or --round R [--turn T | --actor A], or
// --turn T alone (the T-th turn of the session).
absl::StatusOr<uint64_t> StartOf(const Flags& f, Walker& w) {
  ASSIGN_OR_RETURN(uint64_t at, EventSeq(f, "at"));
  ASSIGN_OR_RETURN(uint64_t round, Number(f, "round"));
  ASSIGN_OR_RETURN(uint64_t turn, Number(f, "turn"));
  const std::string actor = f.Get("actor");
  if (at != 0) return at;
  if (turn != 0 || !actor.empty()) {
    return w.FindTurn(static_cast<int64_t>(round), static_cast<int64_t>(turn), actor);
  }
  if (round != 0) return w.FindRound(static_cast<int64_t>(round));
  return uint64_t{1};
}

}  // namespace

absl::Status VerbStep(const Flags& f, std::ostream& out) {
  ASSIGN_OR_RETURN(std::string db, Required(f, "db"));
  ASSIGN_OR_RETURN(std::string session, Required(f, "session"));
  int64_t count = 1;
  if (f.Has("count") && !absl::SimpleAtoi(f.Get("count"), &count)) {
    return absl::InvalidArgumentError(
        absl::StrCat("flag --count: '", f.Get("count"), "' is not a number"));
  }
  ASSIGN_OR_RETURN(auto engine, OpenDb(db, DbUse::kRead));
  Walker w(engine->log(), session, f.Get("branch", "main"), engine->seek_options());
  ASSIGN_OR_RETURN(uint64_t start, StartOf(f, w));
  ASSIGN_OR_RETURN(Step first, w.Goto(start));
  out << RenderStep(first);
  for (int64_t i = 1; i < (count < 0 ? -count : count); ++i) {
    auto next = count < 0 ? w.Prev() : w.Next();
    if (absl::IsOutOfRange(next.status())) break;
    if (!next.ok()) return next.status();
    out << RenderStep(*next);
  }
  return absl::OkStatus();
}

absl::Status VerbWalk(const Flags& f, std::ostream& out) {
  ASSIGN_OR_RETURN(std::string db, Required(f, "db"));
  ASSIGN_OR_RETURN(std::string session, Required(f, "session"));
  ASSIGN_OR_RETURN(auto engine, OpenDb(db, DbUse::kRead));
  Walker w(engine->log(), session, f.Get("branch", "main"), engine->seek_options());
  ASSIGN_OR_RETURN(uint64_t start, StartOf(f, w));
  return Walk(w, start, std::cin, out);
}

}  // namespace combat::replay
