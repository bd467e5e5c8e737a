// The participants of a session (the table server's roles, issue 17): who
// holds a token for it and in what role. Stored in the session's database
// under p\0<session>\0<SHA-256 hex of the token> (store/keys.h), never in
// the chain and never exported: the token itself is never stored, only its
// hash, so the database's holder cannot read tokens back.
//
// The table knows nothing about HTTP or randomness: the caller (server/
// auth.h) draws the token and passes its hash.
//
// Thread safety: all methods may be called concurrently; Add is serialized
// with the other Adds to its session and is durable (fsync, as Options::sync) on
// return.
#ifndef COMBAT_STORE_PARTICIPANTS_H_
#define COMBAT_STORE_PARTICIPANTS_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "store/event_log.h"

namespace combat::store {

enum class ParticipantRole { kGm, kPlayer, kObserver };

// "gm", "player", "observer".
const char* RoleName(ParticipantRole role);
// The inverse; nullopt for any other text.
std::optional<ParticipantRole> ParseRole(const std::string& text);

struct Participant {
  std::string session;
  std::string name;  // a ValidId; for a player, the roster's `player` name
  ParticipantRole role = ParticipantRole::kObserver;
};

class ParticipantTable {
 public:
  // `log` must outlive the table.
  explicit ParticipantTable(EventLog& log);

  // Records `p` under `token_hash` (64 lowercase hex digits). Refused,
  // nothing written: InvalidArgument naming the field (an invalid session
  // id, name or hash); NotFound when the session does not exist;
  // AlreadyExists when the session already has a participant of that name
  // (one token per participant); FailedPrecondition when read-only.
  absl::Status Add(const Participant& p, const std::string& token_hash);

  // The participant whose token hashes to `token_hash` in `session`;
  // nullopt when none.
  absl::StatusOr<std::optional<Participant>> Find(
      const std::string& session, const std::string& token_hash) const;

  // Every participant of `session`, by token hash order (no hashes given).
  absl::StatusOr<std::vector<Participant>> List(const std::string& session) const;

 private:
  LogImpl* impl_;  // not owned: the EventLog's
};

}  // namespace combat::store

#endif  // COMBAT_STORE_PARTICIPANTS_H_
