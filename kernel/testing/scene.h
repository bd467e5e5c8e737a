// A session built straight through the kernel's emitters, without a
// ruleset: for tests of kernel concepts (windows, pending acts, triggers,
// shared turns, pools, durations) over a real Decision and a real State.
//
//   Scene s({Creature("a", "party", 0, 0, {}), Creature("b", "foes", 1, 0, {})});
//   Decision& d = s.Next();          // a new command's decision
//   ASSERT_OK(StartTurn(d, "a", {0, "test.turn"}));
//   s.Next();                        // commits it: state() and log() advance
//
// Every event goes through the reducer as it is emitted (strict mode); the
// session is of the current schema version (events::kSchemaVersion).
#ifndef COMBAT_KERNEL_TESTING_SCENE_H_
#define COMBAT_KERNEL_TESTING_SCENE_H_

#include <memory>
#include <string>
#include <vector>

#include "events/codec.h"
#include "events/input_generated.h"
#include "kernel/changes.h"
#include "kernel/decision.h"
#include "kernel/dice/source.h"
#include "kernel/fold.h"
#include "kernel/state.h"

namespace combat::kernel::testing {

class Scene {
 public:
  // Starts the session on a 20 x 20 map and joins `combatants`; status()
  // says whether that worked.
  explicit Scene(std::vector<fb::CombatantSpecT> combatants);
  Scene(const Scene&) = delete;
  Scene& operator=(const Scene&) = delete;

  const absl::Status& status() const { return status_; }

  // Commits the open decision (its events join the log, its state becomes
  // state()) and opens a new one over it, reading the log as its prefix.
  Decision& Next();
  // The open decision.
  Decision& d() { return *decision_; }
  // The state of the open decision (everything emitted so far).
  const State& state() const { return decision_->state(); }
  // The committed events.
  const std::vector<events::EventBuffer>& log() const { return log_; }

  // A state change as a hostile or damaged log could hold it: the next seq
  // of the open decision's state, nothing else filled in.
  static events::EventBuffer Forge(const State& s, fb::ChangeUnion change);

 private:
  void Commit();

  dice::SeededDice dice_;
  absl::Status status_;
  State committed_;
  std::vector<events::EventBuffer> log_;
  PrefixScan prefix_;
  std::unique_ptr<Decision> decision_;
};

// Why a test change happened: rule "test".
Why TestWhy(uint64_t cause = 0);

template <typename T>
fb::ChangeUnion AsChange(T value) {
  fb::ChangeUnion u;
  u.Set(std::move(value));
  return u;
}

}  // namespace combat::kernel::testing

#endif  // COMBAT_KERNEL_TESTING_SCENE_H_
