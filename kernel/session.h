// The pure core of running a session, shared by the engine (with the store)
// and by in-memory tests (kernel/testing/table.h): set a session up from a
// roster, decide one command, fold events. No I/O here.
#ifndef COMBAT_KERNEL_SESSION_H_
#define COMBAT_KERNEL_SESSION_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "events/codec.h"
#include "events/input_generated.h"
#include "kernel/decision.h"
#include "kernel/dice/source.h"
#include "kernel/fold.h"
#include "kernel/ruleset.h"
#include "kernel/state.h"

namespace combat::kernel {

// The events that open a session: SessionStarted (with the dice
// commitment), then the ruleset's Setup. `envelope.ruleset` is filled from
// `rules`. InvalidArgument when roster.ruleset names another ruleset.
absl::StatusOr<std::vector<events::EventBuffer>> SetUpSession(
    const Ruleset& rules, const std::string& session, const fb::RosterT& roster,
    const std::vector<uint8_t>& dice_commitment, Envelope envelope,
    dice::DiceSource& seeded);

// The kernel's own parameters, taken by every verb (kernel/verb_schema.h).
inline constexpr char kDiceOverride[] = "dice_override";
inline constexpr char kDigitalRest[] = "digital_rest";

// The events `command` causes at `state` (the branch head whose hash is
// envelope.prev_hash). The command's own dice are used first (Manual, or
// GmOverride when param "dice_override" is set by the GM), then `seeded`:
// a command without dice rolls digital (seeded) dice; one that gives some
// must give every die it rolls (InvalidArgument naming how many it rolled)
// unless param "digital_rest" is 1, which rolls the rest digitally.
// InvalidArgument when the command leaves supplied dice unused.
// FailedPrecondition once the session has ended, except for gm_reveal.
// `prefix` visits the branch's events (needed by voids; see fold.h).
// `oracle` (may be null; not owned) answers rolls from a record first
// (decision.h: verify re-deciding with the recorded dice, what-if reusing
// a parent branch's dice); callers using one clear the command's `dice`.
absl::StatusOr<std::vector<events::EventBuffer>> DecideCommand(
    const Ruleset& rules, const State& state, Envelope envelope,
    const fb::CommandT& command, dice::DiceSource& seeded,
    const PrefixScan* prefix = nullptr, RollOracle* oracle = nullptr);

// Folds `events` onto `state` (ApplyEvent, fold.h; with kNo, the batch
// fold FoldEvents: one reducer context for the whole vector). With kYes, each
// event's recorded state_hash must equal the hash of the state after it
// (DataLoss naming the seq otherwise). `prefix` visits the branch from seq 1
// (voids re-derive from it); when null, Fold uses `events` themselves, which
// must then start at seq 1.
enum class CheckHashes { kNo, kYes };
absl::Status Fold(const std::vector<events::EventBuffer>& events, State& state,
                  CheckHashes check, const PrefixScan* prefix = nullptr);
absl::Status FoldOne(const events::EventBuffer& event, State& state,
                     CheckHashes check, const PrefixScan* prefix = nullptr);

// A PrefixScan over `events` (which start at seq 1).
PrefixScan ScanOf(const std::vector<events::EventBuffer>& events);

}  // namespace combat::kernel

#endif  // COMBAT_KERNEL_SESSION_H_
