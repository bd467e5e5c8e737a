// Running the `combat` tool in-process for tests (RunCli over string
// streams): its exit code and both outputs.
#ifndef COMBAT_REPLAY_TESTING_CLI_RUN_H_
#define COMBAT_REPLAY_TESTING_CLI_RUN_H_

#include <sstream>
#include <string>
#include <vector>

#include "replay/cli.h"

namespace combat::replay {

struct CliRun {
  int code;
  std::string out;
  std::string err;
};

inline CliRun RunCombat(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  const int code = RunCli(args, out, err);
  return {code, out.str(), err.str()};
}

}  // namespace combat::replay

#endif  // COMBAT_REPLAY_TESTING_CLI_RUN_H_
