// An in-memory session for ruleset tests: the same SetUpSession,
// DecideCommand and reducer as the engine, without the store.
//
//   Table t(MyRuleset(), roster, /*setup_dice=*/{12, 7});
//   ASSERT_OK(t.status());
//   auto events = t.Submit(Cmd("aria", "attack", {"goblin"}), {17, 6});
//   EXPECT_EQ(t.state().Find("goblin")->Resource("hp"), 3);
//
// Dice: each call's dice are used first, in order, labelled Manual; any
// further die comes from a seeded source with a fixed test secret.
#ifndef COMBAT_KERNEL_TESTING_TABLE_H_
#define COMBAT_KERNEL_TESTING_TABLE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "events/codec.h"
#include "events/input_generated.h"
#include "kernel/dice/source.h"
#include "kernel/ruleset.h"
#include "kernel/state.h"

namespace combat::kernel::testing {

class Table {
 public:
  Table(const Ruleset& rules, const fb::RosterT& roster,
        std::vector<int> setup_dice = {});

  // Whether set-up succeeded.
  const absl::Status& status() const { return status_; }

  // Decides and applies `command` (its `dice` replaced by `dice` when
  // given). On error nothing changes.
  absl::StatusOr<std::vector<events::EventBuffer>> Submit(
      fb::CommandT command, std::vector<int> dice = {});

  const State& state() const { return state_; }
  const std::vector<events::EventBuffer>& log() const { return log_; }

  // Folds the whole log again from nothing, checking every state hash.
  absl::StatusOr<State> Replay() const;

 private:
  const Ruleset& rules_;
  dice::SeededDice seeded_;
  absl::Status status_;
  State state_;
  std::vector<events::EventBuffer> log_;
  int next_command_ = 1;
};

// A command: `actor` does `action` to `targets`, asked as the roster says
// (Table::Submit completes a command without author with
// kernel::AssignAuthority: the actor's player, or the GM for a combatant
// the GM runs). A test of what a player may not do names the player:
// `c.author = "ann"` keeps role Player.
fb::CommandT Cmd(const std::string& actor, const std::string& action,
                 std::vector<std::string> targets = {});
// Adds an integer parameter (and optional text) to `c`; returns `c`.
fb::CommandT& With(fb::CommandT& c, const std::string& key, int64_t value,
                   const std::string& text = "");
fb::CommandT& WithText(fb::CommandT& c, const std::string& key,
                       const std::string& text);
// A GM command: `action` (by `actor`, "" for none) with the GM role,
// author "gm", and `text` as its reason.
fb::CommandT GmCmd(const std::string& action, const std::string& actor = "",
                   const std::string& text = "ruling");
// Appends `squares` to c.path; returns `c`.
fb::CommandT& WithPath(fb::CommandT& c, std::vector<std::pair<int, int>> squares);

}  // namespace combat::kernel::testing

#endif  // COMBAT_KERNEL_TESTING_TABLE_H_
