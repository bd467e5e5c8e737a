// The dice secret a database stores for a session, checked against the
// commitment chained in the session's first event (SessionStarted). Whoever
// overwrites the stored secret would make the next seeded rolls follow
// theirs; `verify` runs this on every run, revealed or not.
#ifndef COMBAT_REPLAY_VERIFY_SECRET_H_
#define COMBAT_REPLAY_VERIFY_SECRET_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "store/event_log.h"

namespace combat::replay {

// nullopt when the database holds no secret for `session` (imported
// without it) or when SHA-256(stored secret) equals main#1's
// SessionStarted.dice_commitment and every later secret (a reveal's fresh
// one, keyed by its commitment: store/keys.h) hashes to its key; otherwise
// one line naming both hashes. Errors: the store's, reading the secrets or
// main#1.
absl::StatusOr<std::optional<std::string>> StoredSecretMismatch(
    const store::EventLog& log, const std::string& session);

// main#1's SessionStarted.dice_commitment (empty when it has none).
absl::StatusOr<std::vector<uint8_t>> FirstCommitment(const store::EventLog& log,
                                                     const std::string& session);

}  // namespace combat::replay

#endif  // COMBAT_REPLAY_VERIFY_SECRET_H_
