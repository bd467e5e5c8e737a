// The event log's reads: sessions, branches, heads, command markers and
// verified scans of events (one part of store::EventLog; event_log.h has
// the layout and the guarantees). Every read sees one consistent state of
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
  absl::StatusOr<SessionMeta> GetSession(const std::string& session) const;
  // Every session id, sorted.
  absl::StatusOr<std::vector<std::string>> ListSessions() const;
  // The session's secret dice seed (DataLoss when its record is missing).
  absl::StatusOr<std::vector<uint8_t>> GetSecret(const std::string& session) const;
  // The secret whose SHA-256 is `commitment`: the first one when it
  // matches, else a later one stored with a reveal (AppendReveal); empty
  // when the database holds none (imported without it).
  absl::StatusOr<std::vector<uint8_t>> GetSecretFor(
      const std::string& session, const std::vector<uint8_t>& commitment) const;
  // Every secret the database holds for the session: the first (when
  // present), then the later ones in key order. Unchecked: verify compares
  // each with its commitment (replay/verify_secret.h).
  absl::StatusOr<std::vector<StoredSecret>> ListSecrets(
      const std::string& session) const;
  // Where the secret of `commitment` was first revealed (on any branch),
  // as the reveal recorded it; nullopt when no reveal of this database did.
  absl::StatusOr<std::optional<RevealMarker>> GetReveal(
      const std::string& session, const std::vector<uint8_t>& commitment) const;
  // Every reveal marker of the session, by commitment (hex order).
  absl::StatusOr<std::vector<RevealMarker>> ListReveals(const std::string& session) const;
  // The session's Ed25519 private signing key (stored by CreateSession, in
  // the same batch); empty when it has none. Never exported.
  absl::StatusOr<std::vector<uint8_t>> GetSigningKey(const std::string& session) const;

  // NotFound naming the session or the branch, whichever is missing.
  absl::StatusOr<BranchMeta> GetBranch(const std::string& session,
                                       const std::string& branch) const;
  // Every branch of the session, sorted by name.
  absl::StatusOr<std::vector<BranchMeta>> ListBranches(
      const std::string& session) const;
  // The branch's head (seq 0 and zeros for an empty branch).
  absl::StatusOr<Head> GetHead(const std::string& session,
                               const std::string& branch) const;

  // The seq range a command id produced on `branch` (its own commands, and
  // its ancestors' within the shared prefix), if it was applied.
  absl::StatusOr<std::optional<AppendResult>> FindCommand(
      const std::string& session, const std::string& branch,
      const std::string& command_id) const;

  // Calls `visit` for events from..to (inclusive, 1-based; to = 0 means the
  // head) of `branch`, in seq order, reading the shared prefix from parent
  // branches. Stops at the first error (from the store or from `visit`).
  // Each visited buffer carries its SHA-256 (EventBuffer::RememberHash):
  // the scan hashed it to check the chain. A broken prev_hash link is
  // DataLoss at the later event, unless `reporter` is given: it is then
  // handed the link and decides (store/scan_reporter.h; `verify` reads past
  // broken links to blame the event that was altered).
  absl::Status Scan(const std::string& session, const std::string& branch,
                    uint64_t from, uint64_t to,
                    const std::function<absl::Status(const events::EventBuffer&)>&
                        visit,
                    ScanReporter* reporter = nullptr) const;
  // Scan into a vector.
  absl::StatusOr<std::vector<events::EventBuffer>> Read(
      const std::string& session, const std::string& branch, uint64_t from = 1,
      uint64_t to = 0) const;

 protected:
  explicit LogReader(LogImpl* impl) : impl_(impl) {}
  ~LogReader() = default;

 private:
  LogImpl* impl_;  // not owned: the EventLog's
};

}  // namespace combat::store

#endif  // COMBAT_STORE_LOG_READER_H_
