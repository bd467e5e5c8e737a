// Realistic commands for reliability tests, built without any ruleset:
// through the kernel's own Decision and change emitters (kernel/decision.h,
// kernel/changes.h), as reducer_benchmark.cc's MakeLog does. Each command
// is what one decider call emits: the session set-up, a new round (with
// initiative rolls and the turn order), a turn (declaration, attack and
// damage rolls, hp change, movement, a condition that expires a round
// later), or a GM ruling with its adjustment.
//
// Stateless and deterministic: the command chosen at a branch head depends
// only on (seed, state at the head, branch, command id), so any process can
// produce the same next command, and a fixed seed gives a fixed log on
// every compiler and optimization level (tests/determinism). Choices use
// splitmix64 (no <random> distribution, whose results are
// implementation-defined); dice come from kernel::dice::SeededDice with a
// fixed secret.
#ifndef COMBAT_TESTS_TESTING_GEN_H_
#define COMBAT_TESTS_TESTING_GEN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "events/codec.h"
#include "events/hash.h"
#include "kernel/state.h"
#include "store/event_log.h"
#include "tests/testing/rng.h"

namespace combat::testing {

class CommandGen {
 public:
  explicit CommandGen(std::string session, uint64_t seed = 1);

  // The events of the next command on `branch` at `state` (the state after
  // the branch head, whose event hashes to `prev`; an empty State and zeros
  // for an empty branch): chained, canonical, with state hashes.
  absl::StatusOr<std::vector<events::EventBuffer>> Next(
      const kernel::State& state, const std::string& branch,
      const events::Digest& prev, const std::string& command_id) const;

  // The session's metadata and secret for EventLog::CreateSession.
  store::SessionMeta Meta() const;
  static std::vector<uint8_t> Secret();

  const std::string& session() const { return session_; }

 private:
  std::string session_;
  uint64_t seed_;
};

// Generates `commands` commands on a fresh "main" branch (the first is the
// set-up), folding as it goes. Command ids are "c1", "c2", ...
struct GeneratedLog {
  std::vector<std::vector<events::EventBuffer>> commands;
  std::vector<events::EventBuffer> events;  // all of them, in order
  kernel::State state;                      // after the last event
};
absl::StatusOr<GeneratedLog> GenerateLog(const CommandGen& gen, int commands);

}  // namespace combat::testing

#endif  // COMBAT_TESTS_TESTING_GEN_H_
