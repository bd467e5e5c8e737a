// Physical dice for a session's set-up, written as text: "20,7" (the
// `combat new --setup-dice` flag and the server's `setup_dice` query
// parameter), for Engine::CreateSession's `setup_dice`.
#ifndef COMBAT_REPLAY_SETUP_DICE_H_
#define COMBAT_REPLAY_SETUP_DICE_H_

#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace combat::replay {

// The dice in `text`, comma-separated whole numbers in the order the
// set-up rolls them (spaces around each ignored). InvalidArgument naming
// `what` (e.g. "flag --setup-dice") and the die that is not a whole number.
// Whether each fits its die, and whether all are used, is the engine's to
// check (as for a play script's setup_dice).
absl::StatusOr<std::vector<int>> ParseSetupDice(absl::string_view text, absl::string_view what);

}  // namespace combat::replay

#endif  // COMBAT_REPLAY_SETUP_DICE_H_
