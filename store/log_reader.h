// The event log's reads: sessions, branches, heads, command markers and
// verified scans of events (one part of store::EventLog; event_log.h has
// the layout and the guarantees). An interface: store/rocks_log.h
// implements it over RocksDB, store/jetstream/ over JetStream. Every read sees one consistent state of
// the database (a RocksDB snapshot per call) and treats every stored value
// as untrusted: damage is an error naming session, branch and seq, never a
// shorter answer.
//
// Thread safety: all methods may be called concurrently, also with writes.
#ifndef COMBAT_STORE_LOG_READER_H_
#define COMBAT_STORE_LOG_READER_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "events/codec.h"
#include "store/log_types.h"
#include "store/scan_reporter.h"

namespace combat::store {

struct LogImpl;

class LogReader {
 public:
  LogReader(const LogReader&) = delete;
  LogReader& operator=(const LogReader&) = delete;

  // NotFound when the session does not exist.
  virtual absl::StatusOr<SessionMeta> GetSession(const std::string& session) const = 0;
  // Every session id, sorted.
  virtual absl::StatusOr<std::vector<std::string>> ListSessions() const = 0;
  // The session's secret dice seed (DataLoss when its record is missing).
  virtual absl::StatusOr<std::vector<uint8_t>> GetSecret(const std::string& session) const = 0;
  // The secret whose SHA-256 is `commitment`: the first one when it
  // matches, else a later one stored with a reveal (AppendReveal); empty
  // when the database holds none (imported without it).
  virtual absl::StatusOr<std::vector<uint8_t>> GetSecretFor(
      const std::string& session, const std::vector<uint8_t>& commitment) const = 0;
  // Every secret the database holds for the session: the first (when
  // present), then the later ones in key order. Unchecked: verify compares
  // each with its commitment (replay/verify_secret.h).
  virtual absl::StatusOr<std::vector<StoredSecret>> ListSecrets(
      const std::string& session) const = 0;
  // Where the secret of `commitment` was first revealed (on any branch),
  // as the reveal recorded it; nullopt when no reveal of this database did.
  virtual absl::StatusOr<std::optional<RevealMarker>> GetReveal(
      const std::string& session, const std::vector<uint8_t>& commitment) const = 0;
  // Every reveal marker of the session, by commitment (hex order).
  virtual absl::StatusOr<std::vector<RevealMarker>> ListReveals(const std::string& session) const = 0;
  // The session's Ed25519 private signing key (stored by CreateSession, in
  // the same batch); empty when it has none. Never exported.
  virtual absl::StatusOr<std::vector<uint8_t>> GetSigningKey(const std::string& session) const = 0;

  // NotFound naming the session or the branch, whichever is missing.
  virtual absl::StatusOr<BranchMeta> GetBranch(const std::string& session,
                                       const std::string& branch) const = 0;
  // Every branch of the session, sorted by name.
  virtual absl::StatusOr<std::vector<BranchMeta>> ListBranches(
      const std::string& session) const = 0;
  // The branch's head (seq 0 and zeros for an empty branch).
  virtual absl::StatusOr<Head> GetHead(const std::string& session,
                               const std::string& branch) const = 0;

  // The seq range a command id produced on `branch` (its own commands, and
  // its ancestors' within the shared prefix), if it was applied.
  virtual absl::StatusOr<std::optional<AppendResult>> FindCommand(
      const std::string& session, const std::string& branch,
      const std::string& command_id) const = 0;

  // Calls `visit` for events from..to (inclusive, 1-based; to = 0 means the
  // head) of `branch`, in seq order, reading the shared prefix from parent
  // branches. Stops at the first error (from the store or from `visit`).
  // Each visited buffer carries its SHA-256 (EventBuffer::RememberHash):
  // the scan hashed it to check the chain. A broken prev_hash link is
  // DataLoss at the later event, unless `reporter` is given: it is then
  // handed the link and decides (store/scan_reporter.h; `verify` reads past
  // broken links to blame the event that was altered).
  virtual absl::Status Scan(const std::string& session, const std::string& branch,
                    uint64_t from, uint64_t to,
                    const std::function<absl::Status(const events::EventBuffer&)>&
                        visit,
                    ScanReporter* reporter = nullptr) const = 0;
  // Scan into a vector.
  absl::StatusOr<std::vector<events::EventBuffer>> Read(
      const std::string& session, const std::string& branch, uint64_t from = 1,
      uint64_t to = 0) const;

  virtual ~LogReader() = default;

 protected:
  LogReader() = default;
};

}  // namespace combat::store

#endif  // COMBAT_STORE_LOG_READER_H_
