// Recorded commands: a branch's events grouped back into the commands that
// produced them (one command = a contiguous run of events with the same
// `branch` field and command_id), each with the command as declared and
// its rolls as recorded. Verify re-decides them; what-if re-runs them.
#ifndef COMBAT_REPLAY_RECORDED_H_
#define COMBAT_REPLAY_RECORDED_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "events/codec.h"
#include "events/common_generated.h"
#include "kernel/decision.h"
#include "kernel/dice/source.h"

namespace combat::replay {

struct RecordedRoll {
  uint64_t seq = 0;
  std::string branch;  // the branch that wrote it
  std::string purpose;
  std::string roller;
  std::string expression;
  std::string reason;
  std::vector<kernel::dice::RolledDie> dice;  // values and provenance
  std::vector<int64_t> indices;               // each die's roll index
};

struct RecordedCommand {
  std::string branch;      // the `branch` field of its events
  std::string command_id;
  uint64_t first = 0;      // seqs of its first and last events
  uint64_t last = 0;
  // The command from its first Declaration or Interrupt event, exactly as
  // asked; absent for the session's set-up.
  std::optional<fb::CommandT> command;
  uint64_t declared_at = 0;  // seq of that event
  bool interrupt = false;
  std::vector<RecordedRoll> rolls;
  std::vector<events::EventBuffer> events;  // when the grouper keeps them

  // "aria: attack grub with spear (by bob, Player)" or "set-up".
  std::string Describe() const;
};

// Groups a stream of events (in seq order) into commands.
class CommandGrouper {
 public:
  explicit CommandGrouper(bool keep_events) : keep_(keep_events) {}
  // Adds the next event. When it starts a new command, returns the one it
  // completed.
  std::optional<RecordedCommand> Add(const events::EventBuffer& event);
  // The last command (if any), completed by the end of the stream.
  std::optional<RecordedCommand> Finish();
  // The command being collected (null before the first event).
  const RecordedCommand* current() const {
    return current_.has_value() ? &*current_ : nullptr;
  }

 private:
  bool keep_;
  std::optional<RecordedCommand> current_;
};

// The roll in `event`, if it is one.
std::optional<RecordedRoll> RollOf(const fb::Event& event);

// Answers the rolls of a re-decision exactly as recorded, so that
// re-deciding a recorded command yields byte-identical events.
//
// The command is re-decided as it was recorded, `dice` included (its
// Declaration embeds them, so clearing them would change the bytes): its
// first `manual_dice` dice come from those, through DecideCommand's own
// path (labelled Manual, or GmOverride with the command's text), as they
// did when it was first decided. This oracle declines the rolls those dice
// answered and answers every later roll with the next unused recorded roll
// of the same (purpose, roller, expression): values, provenance and reason
// as recorded (which also reproduces what-if branches, whose reused dice
// carry a reason). A roll with no such record gets nullopt; the dice
// source given to DecideCommand should then be a RecordedByIndex.
class ExactOracle : public kernel::RollOracle {
 public:
  ExactOracle(const std::vector<RecordedRoll>& rolls, size_t manual_dice);
  std::optional<kernel::RecordedRoll> Next(absl::string_view purpose,
                                           absl::string_view roller,
                                           absl::string_view expression) override;
  // Recorded rolls nobody asked for.
  std::vector<const RecordedRoll*> Unused() const;

 private:
  const std::vector<RecordedRoll>& rolls_;
  std::vector<bool> used_;
  size_t manual_dice_;
  size_t declined_dice_ = 0;
};

// A dice source answering die `index` with the recorded die of that index
// (value and provenance), and refusing any other: re-deciding must not
// roll dice the log does not record.
class RecordedByIndex : public kernel::dice::DiceSource {
 public:
  explicit RecordedByIndex(const std::vector<RecordedRoll>& rolls);
  absl::StatusOr<kernel::dice::RolledDie> Next(int faces, int64_t index) override;

 private:
  std::vector<std::pair<int64_t, kernel::dice::RolledDie>> dice_;  // by index
};

// An event as an outcome, for comparing branches: its canonical bytes with
// the branch, seq, causes, hashes, dice labels (provenance, index, roll
// reason) and the declaration's physical dice cleared.
std::vector<uint8_t> OutcomeBytes(const events::EventBuffer& event);

}  // namespace combat::replay

#endif  // COMBAT_REPLAY_RECORDED_H_
