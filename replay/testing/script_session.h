// For replay/ tests with the real rulesets: an Engine over a real RocksDB
// in a fresh temp dir (removed at destruction), with one session set up
// from a script's roster (JSON text, events/input.fbs Script) and its
// set-up dice. The script's commands are parsed, not submitted.
#ifndef COMBAT_REPLAY_TESTING_SCRIPT_SESSION_H_
#define COMBAT_REPLAY_TESTING_SCRIPT_SESSION_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "events/codec.h"
#include "events/input_generated.h"
#include "replay/engine.h"

namespace combat::replay::testing {

class ScriptSession {
 public:
  // Sets up `session` from `script_json`, authored by `author`, with a
  // dice secret of 32 bytes `secret_byte`.
  static absl::StatusOr<std::unique_ptr<ScriptSession>> Open(
      const std::string& script_json, const std::string& session,
      uint8_t secret_byte = 7, const std::string& author = "gm");
  ~ScriptSession();
  ScriptSession(const ScriptSession&) = delete;
  ScriptSession& operator=(const ScriptSession&) = delete;

  Engine& engine() { return *engine_; }
  const fb::ScriptT& script() const { return script_; }
  const std::vector<events::EventBuffer>& setup() const { return setup_; }

 private:
  ScriptSession() = default;
  std::string dir_;
  std::unique_ptr<Engine> engine_;
  fb::ScriptT script_;
  std::vector<events::EventBuffer> setup_;
};

// The text of a file named relative to the workspace (a test's `data`).
std::string ReadWorkspaceFile(const std::string& path);

}  // namespace combat::replay::testing

#endif  // COMBAT_REPLAY_TESTING_SCRIPT_SESSION_H_
