#include "replay/verify_secret.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "events/hash.h"
#include "events/status_macros.h"
#include "kernel/dice/source.h"

namespace combat::replay {

absl::StatusOr<std::vector<uint8_t>> FirstCommitment(const store::EventLog& log,
                                                     const std::string& session) {
  ASSIGN_OR_RETURN(std::vector<events::EventBuffer> first,
                   log.Read(session, "main", 1, 1));
  std::vector<uint8_t> committed;
  if (!first.empty()) {
    const fb::Event& e = first.front().event();
    const fb::StateChange* sc = e.body_as_StateChange();
    const fb::SessionStarted* started =
        sc != nullptr ? sc->change_as_SessionStarted() : nullptr;
    if (started != nullptr && started->dice_commitment() != nullptr) {
      committed.assign(started->dice_commitment()->begin(),
                       started->dice_commitment()->end());
    }
  }
  return committed;
}

absl::StatusOr<std::optional<std::string>> StoredSecretMismatch(
    const store::EventLog& log, const std::string& session) {
  ASSIGN_OR_RETURN(std::vector<store::StoredSecret> stored, log.ListSecrets(session));
  for (const store::StoredSecret& s : stored) {
    const std::vector<uint8_t> held = kernel::dice::SeededDice::Commitment(s.secret);
    if (s.first) {
      ASSIGN_OR_RETURN(std::vector<uint8_t> committed, FirstCommitment(log, session));
      if (held == committed) continue;
      return std::optional<std::string>(absl::StrCat(
          "session ", session, ": the dice secret stored in this database hashes "
          "to ", events::Hex(held), " but main#1 (SessionStarted."
          "dice_commitment) commits to ", events::Hex(committed),
          ": the stored secret was replaced"));
    }
    if (events::Hex(held) == s.commitment_hex) continue;
    return std::optional<std::string>(absl::StrCat(
        "session ", session, ": the later dice secret stored for commitment ",
        s.commitment_hex, " (a reveal's next_commitment) hashes to ",
        events::Hex(held), ": the stored secret was replaced"));
  }
  return std::optional<std::string>();
}

}  // namespace combat::replay
