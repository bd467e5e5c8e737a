// Child processes for crash and multi-process tests: started with
// posix_spawn (never fork: RocksDB keeps its table of locked files per
// process, so a forked child would share the parent's locks), stdout read
// line by line through a pipe.
#ifndef COMBAT_TESTS_TESTING_SPAWN_H_
#define COMBAT_TESTS_TESTING_SPAWN_H_

#include <sys/types.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace combat::testing {

class Child {
 public:
  // Runs `exe` with `args` (argv[1..]) in this process's environment minus
  // the per-test output files Bazel gives the test (they belong to it),
  // plus `extra_env` ("NAME=value").
  static absl::StatusOr<std::unique_ptr<Child>> Spawn(
      const std::string& exe, const std::vector<std::string>& args,
      const std::vector<std::string>& extra_env = {});
  ~Child();  // SIGKILLs and reaps a child still running
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  // The next line of the child's stdout, without its newline; nullopt at
  // end of file or when `timeout_ms` passes first (timed_out() says which).
  std::optional<std::string> ReadLine(int timeout_ms);
  bool timed_out() const { return timed_out_; }
  // Every line still readable, until end of file (after the child died).
  std::vector<std::string> DrainLines();

  void Kill(int sig);
  // Waits for the child; returns its wait status.
  int Wait();
  pid_t pid() const { return pid_; }

 private:
  Child(pid_t pid, int out_fd) : pid_(pid), fd_(out_fd) {}
  bool FillBuffer(int timeout_ms);  // false at EOF or timeout

  pid_t pid_;
  int fd_;
  bool reaped_ = false;
  bool eof_ = false;
  bool timed_out_ = false;
  int status_ = 0;
  std::string buffer_;
};

// The path of a runfile (a `data` dependency) given its workspace path,
// e.g. "tests/crash/writer".
std::string Runfile(const std::string& workspace_path);

// "exited 3", "killed by signal 9", ...
std::string DescribeWaitStatus(int status);

}  // namespace combat::testing

#endif  // COMBAT_TESTS_TESTING_SPAWN_H_
