#include "tests/testing/spawn.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

extern char** environ;

namespace combat::testing {
namespace {

bool IsTestOutputVariable(const std::string& entry) {
  for (const char* name :
       {"XML_OUTPUT_FILE=", "GTEST_OUTPUT=", "TEST_PREMATURE_EXIT_FILE=",
        "TEST_SHARD_STATUS_FILE=", "GTEST_SHARD", "TEST_TOTAL_SHARDS=",
        "TEST_SHARD_INDEX=", "TEST_UNDECLARED_OUTPUTS_DIR=",
        "TEST_INFRASTRUCTURE_FAILURE_FILE=", "TEST_WARNINGS_OUTPUT_FILE=",
        "TEST_LOGSPLITTER_OUTPUT_FILE=", "GTEST_FILTER="}) {
    if (absl::StartsWith(entry, name)) return true;
  }
  return false;
}

}  // namespace

absl::StatusOr<std::unique_ptr<Child>> Child::Spawn(
    const std::string& exe, const std::vector<std::string>& args,
    const std::vector<std::string>& extra_env) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    return absl::InternalError(absl::StrCat("pipe: ", std::strerror(errno)));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);

  std::vector<std::string> env_strings;
  for (char** e = environ; *e != nullptr; ++e) {
    if (!IsTestOutputVariable(*e)) env_strings.push_back(*e);
  }
  for (const std::string& e : extra_env) env_strings.push_back(e);
  std::vector<char*> envp;
  for (std::string& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv_strings = {exe};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& s : argv_strings) argv.push_back(s.data());
  argv.push_back(nullptr);

  pid_t pid = 0;
  int rc = posix_spawn(&pid, exe.c_str(), &actions, nullptr, argv.data(),
                       envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    return absl::InternalError(
        absl::StrCat("posix_spawn ", exe, ": ", std::strerror(rc)));
  }
  return std::unique_ptr<Child>(new Child(pid, fds[0]));
}

Child::~Child() {
  if (!reaped_) {
    kill(pid_, SIGKILL);
    Wait();
  }
  close(fd_);
}

bool Child::FillBuffer(int timeout_ms) {
  if (eof_) return false;
  struct pollfd p = {fd_, POLLIN, 0};
  int r;
  do {
    r = poll(&p, 1, timeout_ms);
  } while (r < 0 && errno == EINTR);
  if (r == 0) {
    timed_out_ = true;
    return false;
  }
  char buf[4096];
  ssize_t n;
  do {
    n = read(fd_, buf, sizeof(buf));
  } while (n < 0 && errno == EINTR);
  if (n <= 0) {
    eof_ = true;
    return false;
  }
  buffer_.append(buf, static_cast<size_t>(n));
  return true;
}

std::optional<std::string> Child::ReadLine(int timeout_ms) {
  timed_out_ = false;
  while (true) {
    size_t nl = buffer_.find('\n');
    if (nl != std::string::npos) {
      std::string line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      return line;
    }
    if (!FillBuffer(timeout_ms)) return std::nullopt;
  }
}

std::vector<std::string> Child::DrainLines() {
  std::vector<std::string> lines;
  while (std::optional<std::string> line = ReadLine(10000)) {
    lines.push_back(*std::move(line));
  }
  // A partial last line (the child died mid-write) is not a line.
  return lines;
}

void Child::Kill(int sig) {
  if (!reaped_) kill(pid_, sig);
}

int Child::Wait() {
  if (reaped_) return status_;
  while (waitpid(pid_, &status_, 0) < 0 && errno == EINTR) {
  }
  reaped_ = true;
  return status_;
}

std::string Runfile(const std::string& workspace_path) {
  const char* dir = std::getenv("RUNFILES_DIR");
  if (dir == nullptr) dir = std::getenv("TEST_SRCDIR");
  if (dir == nullptr) return workspace_path;
  return absl::StrCat(dir, "/combat/", workspace_path);
}

std::string DescribeWaitStatus(int status) {
  if (WIFEXITED(status)) return absl::StrCat("exited ", WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    return absl::StrCat("killed by signal ", WTERMSIG(status));
  }
  return absl::StrCat("wait status ", status);
}

}  // namespace combat::testing
