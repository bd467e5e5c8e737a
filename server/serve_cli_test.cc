// `combat serve` as a user runs it: a subprocess on port 0 that prints
// "listening on http://127.0.0.1:NNNN" first, serves, and stops gracefully
// on SIGTERM (exit 0) while a stream is open.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "gtest/gtest.h"
#include "httplib.h"

namespace {

// The "roster" object of an example script.
std::string ExampleRoster() {
  std::ifstream in("replay/examples/d20_ambush.json");
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string script = ss.str();
  const size_t at = script.find('{', script.find("\"roster\""));
  int depth = 0;
  for (size_t i = at; i < script.size(); ++i) {
    if (script[i] == '{') ++depth;
    if (script[i] == '}' && --depth == 0) return script.substr(at, i - at + 1);
  }
  return "";
}

TEST(ServeCliTest, PrintsThePortServesAndStopsOnSigterm) {
  const std::string db = std::string(std::getenv("TEST_TMPDIR")) + "/serve_db";
  int out[2];
  ASSERT_EQ(pipe(out), 0);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    dup2(out[1], 1);
    close(out[0]);
    execl("replay/combat", "combat", "serve", "--db", db.c_str(), "--listen",
          "127.0.0.1:0", static_cast<char*>(nullptr));
    _exit(127);
  }
  close(out[1]);
  std::string text;
  char buf[256];
  while (text.find('\n') == std::string::npos) {
    const ssize_t n = read(out[0], buf, sizeof(buf));
    if (n <= 0) break;
    text.append(buf, static_cast<size_t>(n));
  }
  const std::string prefix = "listening on http://127.0.0.1:";
  ASSERT_EQ(text.rfind(prefix, 0), 0u) << text;
  const int port = std::stoi(text.substr(prefix.size()));
  ASSERT_GT(port, 0);

  httplib::Client c("127.0.0.1", port);
  auto list = c.Get("/api/sessions");
  ASSERT_TRUE(list);
  EXPECT_EQ(list->status, 200) << list->body;
  auto spec = c.Get("/openapi.yaml");
  ASSERT_TRUE(spec);
  EXPECT_EQ(spec->status, 200);

  // An open stream must not keep the server from stopping.
  auto made = c.Post("/api/sessions?session=s1", ExampleRoster(), "application/json");
  ASSERT_TRUE(made);
  ASSERT_EQ(made->status, 201) << made->body;
  const size_t at = made->body.find("\"token\":\"");
  const std::string token = made->body.substr(at + 9, 64);
  std::atomic<size_t> streamed{0};
  std::thread watcher([port, token, &streamed] {
    httplib::Client w("127.0.0.1", port);
    w.set_read_timeout(30, 0);
    w.Get(("/api/sessions/s1/branches/main/stream?token=" + token).c_str(),
          [&streamed](const char*, size_t n) {
            streamed += n;
            return true;
          });
  });
  while (streamed.load() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  const auto start = std::chrono::steady_clock::now();
  ASSERT_EQ(kill(pid, SIGTERM), 0);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  const auto took = std::chrono::steady_clock::now() - start;
  if (watcher.joinable()) watcher.join();
  EXPECT_TRUE(WIFEXITED(status)) << status;
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_LT(took, std::chrono::seconds(10));
  while (true) {
    const ssize_t n = read(out[0], buf, sizeof(buf));
    if (n <= 0) break;
    text.append(buf, static_cast<size_t>(n));
  }
  close(out[0]);
  EXPECT_NE(text.find("stopped"), std::string::npos) << text;
}

}  // namespace
