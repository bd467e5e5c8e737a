// A fresh directory under the test's temp dir (TEST_TMPDIR under Bazel),
// removed with everything in it at destruction.
#ifndef COMBAT_TESTS_TESTING_TEMP_DIR_H_
#define COMBAT_TESTS_TESTING_TEMP_DIR_H_

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

namespace combat::testing {

class TempDir {
 public:
  explicit TempDir(const std::string& name = "combat") {
    const char* base = std::getenv("TEST_TMPDIR");
    std::string pattern =
        std::string(base != nullptr ? base : "/tmp") + "/" + name + ".XXXXXX";
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    char* made = mkdtemp(buf.data());
    if (made == nullptr) {
      std::fprintf(stderr, "mkdtemp %s: %s\n", pattern.c_str(),
                   std::strerror(errno));
      std::abort();
    }
    path_ = made;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  // The conventional database directory inside it.
  std::string db() const { return path_ + "/db"; }

 private:
  std::string path_;
};

}  // namespace combat::testing

#endif  // COMBAT_TESTS_TESTING_TEMP_DIR_H_
