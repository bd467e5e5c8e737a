// The `combat` verbs, one function each: parse their flags, do the job
// through the engine, print to `out`. RunCli (cli.h) dispatches to them.
#ifndef COMBAT_REPLAY_CLI_VERBS_H_
#define COMBAT_REPLAY_CLI_VERBS_H_

#include <ostream>

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "replay/cli_flags.h"
#include "replay/engine.h"

namespace combat::replay {

// cli_db.cc: how a verb opens the database. kRead: read-only (nothing is
// created or changed; a missing or non-database directory is refused);
// kWrite: an existing database; kCreate: an existing database, or a new one
// in an absent or empty directory (new, play, import).
enum class DbUse { kRead, kWrite, kCreate };
absl::StatusOr<std::unique_ptr<Engine>> OpenDb(const std::string& db,
                                               DbUse use);
// InvalidArgument when `path` (the value of --`flag`) lies inside the
// database directory `db` (it could overwrite the database's own files).
absl::Status CheckOutsideDb(const std::string& db, const std::string& path,
                            const std::string& flag);

// cli_names.cc: `st` when it is not NotFound or the --session and branch
// flags (--branch, --from, diff's --a and --b) name existing ones; otherwise NotFound naming
// the missing session or branch and the ones that exist, nearest first
// ("no session 'amush'; did you mean 'ambush'? sessions: ambush, duel").
absl::Status NameTheMissing(const Flags& f, const absl::Status& st);

// session_verbs.cc: the log as it is.
absl::Status VerbNew(const Flags& f, std::ostream& out);
absl::Status VerbSubmit(const Flags& f, std::ostream& out);
absl::Status VerbPlay(const Flags& f, std::ostream& out);
absl::Status VerbLog(const Flags& f, std::ostream& out);
absl::Status VerbState(const Flags& f, std::ostream& out);
absl::Status VerbSessions(const Flags& f, std::ostream& out);

// jump_verbs.cc: the state at any event, and how it was reached.
absl::Status VerbJump(const Flags& f, std::ostream& out);
// step_verbs.cc: event by event, with what each changed.
absl::Status VerbStep(const Flags& f, std::ostream& out);
absl::Status VerbWalk(const Flags& f, std::ostream& out);
// fork_verbs.cc: named branches sharing their prefix.
absl::Status VerbFork(const Flags& f, std::ostream& out);
absl::Status VerbBranches(const Flags& f, std::ostream& out);
// whatif_verbs.cc: fork with one thing changed, re-run what followed.
absl::Status VerbWhatIf(const Flags& f, std::ostream& out);
// diff_verbs.cc: two branches or two events.
absl::Status VerbDiff(const Flags& f, std::ostream& out);
// verify_verbs.cc: hashes, states, re-decisions, dice, checksums.
absl::Status VerbVerify(const Flags& f, std::ostream& out);
// undo_verbs.cc: the GM takes a command back (a void, never an edit).
absl::Status VerbUndo(const Flags& f, std::ostream& out);
// status_verbs.cc: what can happen now; a ruleset's verbs and their input.
absl::Status VerbStatus(const Flags& f, std::ostream& out);
absl::Status VerbVerbs(const Flags& f, std::ostream& out);
// head_verbs.cc: each branch's head seq and hash (replay/anchor.h).
absl::Status VerbHead(const Flags& f, std::ostream& out);
// explain_verbs.cc: the causal chain of an event or a value.
absl::Status VerbExplain(const Flags& f, std::ostream& out);
// dice_verbs.cc: reveal the dice secret; dice statistics.
absl::Status VerbReveal(const Flags& f, std::ostream& out);
absl::Status VerbStats(const Flags& f, std::ostream& out);
// bundle_verbs.cc: export, import, transcript.
absl::Status VerbExport(const Flags& f, std::ostream& out);
absl::Status VerbImport(const Flags& f, std::ostream& out);
absl::Status VerbTranscript(const Flags& f, std::ostream& out);
// serve_verbs.cc: the table server (server/server.h) until SIGTERM/SIGINT.
absl::Status VerbServe(const Flags& f, std::ostream& out);
// serve_verbs.cc: a participant's token (server/auth.h) for a session.
absl::Status VerbToken(const Flags& f, std::ostream& out);

}  // namespace combat::replay

#endif  // COMBAT_REPLAY_CLI_VERBS_H_
