// The participants of a session (the table server's roles, issue 17): who
// holds a token for it and in what role. Stored in the session's database
// under p\0<session>\0<SHA-256 hex of the token> (store/keys.h), never in
// the chain and never exported: the token itself is never stored, only its
// hash, so the database's holder cannot read tokens back.
//
// The table knows nothing about HTTP or randomness: the caller (server/
// auth.h) draws the token and passes its hash.
//
// Operators are the server's, not a session's: they create and import
// sessions and may revoke any token. Kept the same way, under the empty
// session id (p\0\0<hash>), which no session can have.
//
// A session made by the server gets its GM by Found() *before* the session
// is written: if the GM's record cannot be written, no session is; if the
// session's write fails after it, the GM record is inert (every use of a
// token checks that its session exists) and the next Found of that id
// clears it. So a session never exists without a GM record.
//
// Thread safety: all methods may be called concurrently; the writes of one
// session's participants are serialized with each other and durable on
// return (RocksDB: fsync, as Options::sync; JetStream: stored on a quorum).
// On JetStream, Find and FindOperator read the open's replica, which
// follows the stream (store/jetstream/README.md: a change made by another
// process is seen within a bounded time); a token not found there is looked
// up again after a catch-up.
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

// What each backend implements (EventLog::participants()): the storage of
// participants and operators, with the read-check-writes below made atomic
// by the backend (RocksDB: its participants lock and one batch; JetStream:
// one message on the session's `~participants` subject, published with the
// subject's expected last sequence). Callers go through ParticipantTable,
// which checks the arguments first: a backend's methods receive valid ids
// (ValidId) and hashes (64 lowercase hex digits) only. The contracts are
// ParticipantTable's.
class ParticipantStore {
 public:
  virtual ~ParticipantStore() = default;
  virtual absl::Status Add(const Participant& p, const std::string& token_hash) = 0;
  virtual absl::Status Found(const Participant& gm, const std::string& token_hash) = 0;
  virtual absl::Status Revoke(const std::string& session, const std::string& name) = 0;
  virtual absl::Status AddOperator(const std::string& name,
                                   const std::string& token_hash) = 0;
  virtual absl::StatusOr<std::optional<std::string>> FindOperator(
      const std::string& token_hash) const = 0;
  virtual absl::StatusOr<std::optional<Participant>> Find(
      const std::string& session, const std::string& token_hash) const = 0;
  virtual absl::StatusOr<std::vector<Participant>> List(
      const std::string& session) const = 0;
};

// The participants of one open log: checks the arguments, then asks the
// log's backend (ParticipantStore). Cheap to make; holds no state of its own.
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

  // The GM of a session about to be created: refused with AlreadyExists
  // when `gm.session` exists, InvalidArgument as Add, otherwise, in one
  // durable batch, every participant record left under that session id (by
  // a creation that failed after its Found) is removed and `gm` recorded.
  // The caller then creates the session (holding off other creators of
  // that id).
  absl::Status Found(const Participant& gm, const std::string& token_hash);

  // Revokes the token of `session`'s participant `name`: its record is
  // removed (durable on return), so the token no longer authenticates.
  // NotFound when the session has no participant of that name.
  absl::Status Revoke(const std::string& session, const std::string& name);

  // An operator of the server, named `name` (a ValidId), with a token
  // hashing to `token_hash`. AlreadyExists when an operator of that name
  // exists; InvalidArgument naming the field; durable on return.
  absl::Status AddOperator(const std::string& name, const std::string& token_hash);
  // The name of the operator whose token hashes to `token_hash`; nullopt
  // when none.
  absl::StatusOr<std::optional<std::string>> FindOperator(
      const std::string& token_hash) const;

  // The participant whose token hashes to `token_hash` in `session`;
  // nullopt when none.
  absl::StatusOr<std::optional<Participant>> Find(
      const std::string& session, const std::string& token_hash) const;

  // Every participant of `session`, by token hash order (no hashes given).
  absl::StatusOr<std::vector<Participant>> List(const std::string& session) const;

 private:
  ParticipantStore* store_;  // not owned: the EventLog's
};

}  // namespace combat::store

#endif  // COMBAT_STORE_PARTICIPANTS_H_
