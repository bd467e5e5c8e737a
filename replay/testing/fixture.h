// A test fixture for replay/ tests: a real RocksDB in a temp dir, an
// Engine over the toy ruleset (link :toy_registry), and session "s1" with
// combatants "a" and "b" created with a fixed dice secret.
#ifndef COMBAT_REPLAY_TESTING_FIXTURE_H_
#define COMBAT_REPLAY_TESTING_FIXTURE_H_

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernel/state.h"
#include "replay/engine.h"
#include "replay/testing/toy.h"

namespace combat::replay::testing {

// The seeded dice of `events`' rolls, with the roll's branch and
// contribution (what the seeded formula mixes in).
struct SeededDie {
  std::string branch;
  std::string contribution;
  int64_t index;
  int faces;
  int value;
};
std::vector<SeededDie> SeededOf(const std::vector<events::EventBuffer>& events);

// 32 bytes: the fixture's dice secret.
std::vector<uint8_t> FixtureSecret();
std::string FixtureSecretHex();

class ToyFixture : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  // Closes and reopens the database.
  void Reopen();
  // Closes the database (engine_ becomes null).
  void Close() { engine_.reset(); }

  // Submits `c` on `branch`; fails the test on error.
  std::vector<events::EventBuffer> Do(const fb::CommandT& c,
                                      const std::string& branch = "main");
  // The state at the head (or event `seq`) of `branch`.
  kernel::State StateOf(const std::string& branch = "main", uint64_t seq = 0);
  uint64_t HeadOf(const std::string& branch = "main");
  // Whose turn it is at the head of `branch`, and the other combatant.
  std::string Active(const std::string& branch = "main");
  std::string Other(const std::string& id) const { return id == "a" ? "b" : "a"; }

  // A typical exchange: the active combatant attacks the other with the
  // given dice, then ends the turn. Returns the seq of the declaration.
  uint64_t AttackAndEnd(std::vector<int> dice, const std::string& branch = "main");

  std::string dir_;
  std::string db_;
  std::unique_ptr<Engine> engine_;
  int next_id_ = 1;
};

}  // namespace combat::replay::testing

#endif  // COMBAT_REPLAY_TESTING_FIXTURE_H_
