// combat verify: every hash, every state, every declaration re-decided,
// every seeded die once revealed, RocksDB's checksums.
#include <string>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "replay/cli_verbs.h"
#include "replay/engine.h"
#include "replay/anchor.h"
#include "replay/progress.h"
#include "replay/verify.h"

namespace combat::replay {

absl::Status VerbVerify(const Flags& f, std::ostream& out) {
  ASSIGN_OR_RETURN(std::string db, Required(f, "db"));
  ASSIGN_OR_RETURN(auto engine, OpenDb(db, DbUse::kRead));
  std::vector<std::string> sessions;
  if (f.Has("session")) {
    sessions.push_back(f.Get("session"));
  } else {
    ASSIGN_OR_RETURN(sessions, engine->log().ListSessions());
  }
  std::vector<PublishedHead> published;
  if (f.Has("against")) {
    ASSIGN_OR_RETURN(std::string text, ReadFile(f.Get("against")));
    ASSIGN_OR_RETURN(published, ParseHeads(text));
  }
  Progress progress = Progress::OnStderr("verify");
  bool all_ok = true;
  std::string first_failure;
  for (size_t i = 0; i < sessions.size(); ++i) {
    const std::string& session = sessions[i];
    const kernel::Ruleset* rules = nullptr;
    if (!f.Has("no-redecide")) {
      auto r = engine->RulesetOf(session);
      if (r.ok()) rules = *r;
    }
    VerifyOptions options;
    options.redecide = !f.Has("no-redecide");
    options.progress = &progress;
    const bool checksums = !f.Has("no-checksums") && i + 1 == sessions.size();
    ASSIGN_OR_RETURN(VerifyReport report,
                     VerifySession(engine->log(), rules, session, f.Get("branch"),
                                   checksums, options));
    if (report.ok() && f.Has("against")) {
      ASSIGN_OR_RETURN(std::optional<Mismatch> anchor,
                       CheckAgainst(engine->log(), session, published));
      if (anchor.has_value()) report.mismatch = std::move(anchor);
    }
    if (rules == nullptr && options.redecide) {
      report.notes.push_back(absl::StrCat(
          "declarations not re-decided: ", engine->RulesetOf(session).status().message()));
    }
    out << RenderVerifyReport(report);
    if (!report.ok() && all_ok) {
      all_ok = false;
      first_failure = absl::StrCat("session ", session, ": ", report.mismatch->summary);
    }
  }
  if (sessions.empty()) out << "verify: no sessions\n";
  if (!all_ok) return absl::DataLossError(first_failure);
  return absl::OkStatus();
}

}  // namespace combat::replay
