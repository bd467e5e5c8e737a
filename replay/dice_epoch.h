// Dice epochs (issue 16; events/FORMAT.md, "Dice"): a reveal before the
// session's end commits a fresh secret, so a branch's seeded dice use the
// secret of the commitment its state holds (SessionStarted's, or the last
// SeedRevealed's next_commitment). A branch forked before a reveal keeps
// the old commitment, whose secret is now public: its dice are predictable
// until it reveals on its own.
#ifndef COMBAT_REPLAY_DICE_EPOCH_H_
#define COMBAT_REPLAY_DICE_EPOCH_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "kernel/state.h"
#include "store/event_log.h"

namespace combat::replay {

// The secret in force at `state` (a state of `session`): the one whose
// SHA-256 is state.dice_commitment (LogReader::GetSecretFor); empty when
// this database does not hold it (imported without it).
absl::StatusOr<std::vector<uint8_t>> SecretInForce(const store::LogReader& log,
                                                   const std::string& session,
                                                   const kernel::State& state);

// One line when the secret in force at `state` (a branch's head) was
// revealed (the store's reveal marker, written with every reveal and by an
// import) while the session goes on there:
//   the dice secret of this branch was revealed on main at #N; its seeded
//   dice are predictable: reveal on this branch to commit a fresh one
// "" when it was not, or the session has ended on the branch.
absl::StatusOr<std::string> PredictableDiceWarning(const store::LogReader& log,
                                                   const std::string& session,
                                                   const kernel::State& state);

}  // namespace combat::replay

#endif  // COMBAT_REPLAY_DICE_EPOCH_H_
