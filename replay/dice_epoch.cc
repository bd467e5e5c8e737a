#include "replay/dice_epoch.h"

#include <optional>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/dice/source.h"

namespace combat::replay {

absl::StatusOr<std::vector<uint8_t>> SecretInForce(const store::LogReader& log,
                                                   const std::string& session,
                                                   const kernel::State& state) {
  if (state.dice_commitment.empty()) return log.GetSecret(session);
  return log.GetSecretFor(session, state.dice_commitment);
}

absl::StatusOr<std::string> PredictableDiceWarning(const store::LogReader& log,
                                                   const std::string& session,
                                                   const kernel::State& state) {
  if (state.ended || state.dice_commitment.empty()) return std::string();
  ASSIGN_OR_RETURN(std::optional<store::RevealMarker> at,
                   log.GetReveal(session, state.dice_commitment));
  if (!at.has_value()) return std::string();
  std::string line = absl::StrCat("the dice secret of this branch was revealed on ",
                                  at->branch, " at #", at->seq,
                                  "; its seeded dice are predictable");
  // Revealed on this branch already (a reveal without a next commitment,
  // as before schema 7): another reveal here is refused.
  const bool here = !state.revealed_seed.empty() &&
                    kernel::dice::SeededDice::Commitment(state.revealed_seed) ==
                        state.dice_commitment;
  if (!here) absl::StrAppend(&line, ": reveal on this branch to commit a fresh one");
  return line;
}

}  // namespace combat::replay
