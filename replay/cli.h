// The `combat` command-line tool, as a library function over output
// streams so it can be tested without a process. main.cc is a thin wrapper.
//
// Exit codes: 0 ok; 1 the command was rejected (illegal act, stale writer,
// not permitted); 2 bad input (JSON, flags, unknown ids), a missing or
// non-database directory, or corrupt data; 3 the database is in use by
// another process (try again when it has finished).
#ifndef COMBAT_REPLAY_CLI_H_
#define COMBAT_REPLAY_CLI_H_

#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"

namespace combat::replay {

inline constexpr int kExitOk = 0;
inline constexpr int kExitRejected = 1;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitInUse = 3;

// The exit code for a failed status (see above).
int ExitCodeFor(const absl::Status& status);

// Runs `combat args...` (args excludes the program name).
int RunCli(const std::vector<std::string>& args, std::ostream& out,
           std::ostream& err);

}  // namespace combat::replay

#endif  // COMBAT_REPLAY_CLI_H_
