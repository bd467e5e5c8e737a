// The `combat` verbs, one function each: parse their flags, do the job
// through the engine, print to `out`. RunCli (cli.h) dispatches to them.
#ifndef COMBAT_REPLAY_CLI_VERBS_H_
#define COMBAT_REPLAY_CLI_VERBS_H_

#include <ostream>

#include "absl/status/status.h"
#include "replay/cli_flags.h"

namespace combat::replay {

// session_verbs.cc: the log as it is.
absl::Status VerbNew(const Flags& f, std::ostream& out);
absl::Status VerbSubmit(const Flags& f, std::ostream& out);
absl::Status VerbPlay(const Flags& f, std::ostream& out);
absl::Status VerbLog(const Flags& f, std::ostream& out);
absl::Status VerbState(const Flags& f, std::ostream& out);
absl::Status VerbSessions(const Flags& f, std::ostream& out);

}  // namespace combat::replay

#endif  // COMBAT_REPLAY_CLI_VERBS_H_
