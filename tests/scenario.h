// A scenario: a real encounter played through the engine into a real
// RocksDB (a fresh temp dir per scenario), with fixed dice per command.
//
//   Scenario s(roster, /*setup_dice=*/{14, 9, 11});   // initiative dice
//   ASSERT_TRUE(s.status().ok()) << s.status();
//   auto ev = s.Submit(Cmd("aria", "attack", {"goblin"}), {17, 5});
//   EXPECT_EQ(s.state().Find("goblin")->Resource("hp"), ...);  // cite §
//   s.ExpectDeterministic();  // replay twice + reopen: byte-identical
//
// Cmd/With/WithText are kernel::testing's (kernel/testing/table.h).
#ifndef COMBAT_TESTS_SCENARIO_H_
#define COMBAT_TESTS_SCENARIO_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "events/codec.h"
#include "events/input_generated.h"
#include "kernel/state.h"
#include "kernel/testing/roster.h"
#include "kernel/testing/table.h"
#include "replay/engine.h"

namespace combat::tests {

using kernel::testing::Cmd;
using kernel::testing::With;
using kernel::testing::WithText;

class Scenario {
 public:
  explicit Scenario(const fb::RosterT& roster, std::vector<int> setup_dice = {});
  ~Scenario();

  const absl::Status& status() const { return status_; }

  // Submits `command` with `dice` as its physical dice (Manual); dice beyond
  // those come from the session's seeded source (fixed test secret).
  absl::StatusOr<std::vector<events::EventBuffer>> Submit(
      fb::CommandT command, std::vector<int> dice = {});

  // The state at the head (folded from the store, hashes checked).
  const kernel::State& state() const { return state_; }
  // Every event so far, from the store.
  std::vector<events::EventBuffer> log() const;

  // Replays the log twice in this process and once after closing and
  // reopening the database; each must give the head state byte for byte.
  // Reports failures through gtest.
  void ExpectDeterministic();

  replay::Engine& engine() { return *engine_; }

 private:
  std::string dir_;
  std::unique_ptr<replay::Engine> engine_;
  absl::Status status_;
  kernel::State state_;
  int next_command_ = 1;
};

// Roster builders shared by scenario files (kernel/testing/roster.h).
using kernel::testing::Creature;
using kernel::testing::MakeRoster;
using kernel::testing::MakeWeapon;

}  // namespace combat::tests

#endif  // COMBAT_TESTS_SCENARIO_H_
