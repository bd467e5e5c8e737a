// A Decision: where a ruleset's decider emits the events a command causes.
//
// Every event emitted is applied at once to the working state (by
// the same reducer replay uses), so a decider always reads the state as it
// will be after what it has emitted so far, and an event the reducer would
// refuse is refused here, before anything is written. Nothing is written by
// a Decision: the engine appends its events as one atomic batch, or drops
// them all when the decider returns an error.
//
// Envelope fields (session, branch, seq, author, role, command id,
// ruleset, prev_hash, state_hash) are filled here, so the events leave
// complete and chained.
#ifndef COMBAT_KERNEL_DECISION_H_
#define COMBAT_KERNEL_DECISION_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "events/codec.h"
#include "events/events_generated.h"
#include "events/hash.h"
#include "kernel/dice/roller.h"
#include "kernel/dice/source.h"
#include "kernel/fold.h"
#include "kernel/state.h"

namespace combat::kernel {

// Who is asking, and where the events go.
struct Envelope {
  std::string branch = "main";
  std::string author;
  fb::Role role = fb::Role::Player;
  std::string command_id;
  std::string ruleset;
  int32_t ruleset_version = 0;
  events::Digest prev_hash{};  // hash of the branch head (zeros at seq 0)
  std::string dice_reason;     // recorded on rolls with GM-overridden dice
  // Mixed into seeded dice and recorded on every Roll (schema v5,
  // dice::RollContext); empty means the command id.
  std::string dice_contribution;
  // Set-up only: the Ed25519 public key SessionStarted records (may be
  // empty: the session signs nothing).
  std::vector<uint8_t> signing_key;
  // Set-up only: the schema version SessionStarted records; 0 = this
  // build's (events::kSchemaVersion). Re-deciding an older log's set-up
  // passes the version it recorded.
  int32_t schema_version = 0;
};

// A named number for audit: {"d20", 14}, {"level", 3}, ... A modifier
// names where it comes from (schema v7, events/common.fbs `Number`):
// `source` is the creature, condition, terrain or item that gives it
// ("ogre", "condition prone", "terrain rubble at 3,4"; "" when the key says
// it all) and `rule` the ruleset section id that applies it ("" when it is
// the change's own rule): {"dis.cover", 1, "ogre", "000.cover"}.
struct Num {
  std::string key;
  int64_t value;
  std::string source = {};
  std::string rule = {};
};
using Nums = std::vector<Num>;

// Answers rolls from a record instead of the dice source: `verify`
// re-deciding a declaration with its recorded dice, a what-if reusing the
// parent branch's dice where the same roll is asked.
struct RecordedRoll {
  std::vector<dice::RolledDie> dice;  // values and provenance, in order
  std::string reason;                 // recorded on the Roll event
};
class RollOracle {
 public:
  virtual ~RollOracle() = default;
  // A re-run recorded command keeps its `dice` (they are part of the
  // recorded Declaration): they answer the rolls they answered the first
  // time, and the oracle answers the others exactly as recorded.
  // The dice for the next roll asked as (purpose, roller, expression), or
  // nullopt to roll from the dice source. If the expression needs more dice
  // than returned, the rest come from the dice source.
  virtual std::optional<RecordedRoll> Next(absl::string_view purpose,
                                           absl::string_view roller,
                                           absl::string_view expression) = 0;
};

class Decision {
 public:
  // `base` is the state at the branch head; `dice` answers every roll.
  Decision(const State& base, Envelope envelope, dice::DiceSource& dice);

  Decision(const Decision&) = delete;
  Decision& operator=(const Decision&) = delete;

  // The branch's events before `base` (1..base.seq), for voids and for
  // Lookup(); may stay null for commands that need neither.
  void set_prefix(const PrefixScan* prefix) { prefix_ = prefix; }
  // Calls `visit` with event `seq` (from the prefix, or emitted here).
  // NotFound when there is no such event or no prefix to read it from.
  absl::Status Lookup(uint64_t seq, const EventVisitor& visit) const;
  // Calls `visit` with events 1..upto in seq order (the prefix, then those
  // emitted here): one pass for a decider that looks back over a stretch of
  // the log. NotFound when there is no prefix to read.
  absl::Status Scan(uint64_t upto, const EventVisitor& visit) const {
    return ScanAll(upto, visit);
  }

  // Rolls consult `oracle` first (may be null; not owned).
  void set_roll_oracle(RollOracle* oracle) { oracle_ = oracle; }

  // The working state: `base` plus everything emitted so far. Events are
  // applied to it in place, so pointers to combatants stay valid across
  // emits — but a combatant's strings and counters change under them, and a
  // void (re-derivation) replaces the whole state: copy what you need
  // (ids, numbers) before emitting.
  const State& state() const { return state_; }
  const Envelope& envelope() const { return envelope_; }

  // Events emitted while a SystemSteps lives are the system's: author
  // "system", role System (the automatic steps of the rules: a round or a
  // turn starting), not the author of the command that set them off (the
  // cause still names its declaration).
  class SystemSteps {
   public:
    explicit SystemSteps(Decision& d) : d_(d), was_(d.system_) { d.system_ = true; }
    ~SystemSteps() { d_.system_ = was_; }
    SystemSteps(const SystemSteps&) = delete;
    SystemSteps& operator=(const SystemSteps&) = delete;

   private:
    Decision& d_;
    bool was_;
  };
  // The seq the next emitted event will get.
  uint64_t next_seq() const { return state_.seq + 1; }
  // The window the command being decided answers (its Interrupt's window),
  // or 0: windows opened after it nest in it (kernel/window.h).
  uint32_t answering() const { return answering_; }

  // Family 1: records `command` as declared; returns its seq, the cause
  // that the events resolving it name.
  absl::StatusOr<uint64_t> Declare(const fb::CommandT& command);
  // Family 2: records `command` as an interrupt into `window`.
  absl::StatusOr<uint64_t> Interrupt(const fb::CommandT& command,
                                     uint32_t window);
  // Family 3: rolls `notation` (dice/notation.h) for `purpose`, records
  // every die, and returns the result.
  absl::StatusOr<dice::RollResult> Roll(absl::string_view notation,
                                        absl::string_view purpose,
                                        absl::string_view roller,
                                        uint64_t cause);
  // Family 4: a state change caused by `cause`, applying `rule` (a section
  // id of the ruleset) with the numbers used. `change` must be set.
  absl::Status Change(uint64_t cause, absl::string_view rule, const Nums& nums,
                      fb::ChangeUnion change, absl::string_view note = "");

  // The events emitted, in order, as canonical verified buffers.
  const std::vector<events::EventBuffer>& events() const { return events_; }
  std::vector<events::EventBuffer> TakeEvents() { return std::move(events_); }

 private:
  absl::StatusOr<uint64_t> Emit(fb::EventT event);

  // The prefix plus the events emitted so far.
  absl::Status ScanAll(uint64_t upto, const EventVisitor& visit) const;

  const PrefixScan* prefix_ = nullptr;
  RollOracle* oracle_ = nullptr;
  uint32_t answering_ = 0;
  bool system_ = false;  // SystemSteps
  uint64_t base_seq_ = 0;
  State state_;
  Envelope envelope_;
  dice::DiceSource& dice_;
  std::vector<events::EventBuffer> events_;
};

}  // namespace combat::kernel

#endif  // COMBAT_KERNEL_DECISION_H_
