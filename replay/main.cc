// combat: the command-line tool. See replay/cli.h.
#include <iostream>
#include <string>
#include <vector>

#include "replay/cli.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  return combat::replay::RunCli(args, std::cout, std::cerr);
}
