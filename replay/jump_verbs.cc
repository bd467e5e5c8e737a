// combat jump: the state at any event, and how it was reached.
#include <chrono>
#include <string>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "replay/cli_verbs.h"
#include "replay/engine.h"
#include "replay/progress.h"

namespace combat::replay {

absl::Status VerbJump(const Flags& f, std::ostream& out) {
  ASSIGN_OR_RETURN(std::string db, Required(f, "db"));
  ASSIGN_OR_RETURN(std::string session, Required(f, "session"));
  ASSIGN_OR_RETURN(uint64_t at, EventSeq(f, "at"));
  const std::string branch = f.Get("branch", "main");
  ASSIGN_OR_RETURN(auto engine, OpenDb(db, DbUse::kRead));
  Progress progress = Progress::OnStderr(absl::StrCat("replaying ", session, "/", branch));
  SeekOptions options = engine->seek_options();
  options.progress = &progress;
  engine->set_seek_options(options);
  SeekReport report;
  const auto start = std::chrono::steady_clock::now();
  ASSIGN_OR_RETURN(kernel::State s, engine->StateAt(session, branch, at, &report));
  const auto us = std::chrono::duration_cast<std::chrono::microseconds>(
                      std::chrono::steady_clock::now() - start)
                      .count();
  RETURN_IF_ERROR(PrintState(s, f.Has("json"), out));
  if (!f.Has("json")) {
    out << "(event #" << report.target << " of " << branch << ": "
        << (report.snapshot_seq == 0
                ? std::string("replayed from the start")
                : absl::StrCat("from the snapshot at #", report.snapshot_seq,
                               report.snapshot_branch == branch
                                   ? std::string()
                                   : absl::StrCat(" of ", report.snapshot_branch)))
        << ", " << report.folded << " events folded, " << us << " us";
    if (report.snapshots_written > 0) {
      out << ", " << report.snapshots_written << " snapshots written";
    }
    out << ")\n";
    for (const std::string& i : report.ignored) {
      out << "(snapshot ignored: " << i << ")\n";
    }
  }
  return absl::OkStatus();
}

}  // namespace combat::replay
