// The event log's writes: sessions with their set-up, forks with their
// fork records, appends (optimistic concurrency, idempotent command ids
// bound to their content) and bulk imports (one part of store::EventLog;
// event_log.h has the layout and the guarantees). An interface:
// store/rocks_log.h implements it over RocksDB, store/jetstream/ over
// JetStream. Each write is one atomic batch, durable on return with
// Options::sync; nothing is written on any error. Writes of one branch are
// serialized in-process (on RocksDB, writes of other branches run at once
// and share WAL syncs: store/README.md, "Writes"); a read-only log refuses
// every one with FailedPrecondition.
//
// Thread safety: all methods may be called concurrently.
#ifndef COMBAT_STORE_LOG_WRITER_H_
#define COMBAT_STORE_LOG_WRITER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "events/codec.h"
#include "events/hash.h"
#include "store/log_types.h"

namespace combat::store {

struct LogImpl;

class LogWriter {
 public:
  LogWriter(const LogWriter&) = delete;
  LogWriter& operator=(const LogWriter&) = delete;

  // Creates a session with an empty "main" branch and stores its secret
  // dice seed. AlreadyExists when the id is taken.
  virtual absl::Status CreateSession(const SessionMeta& meta,
                             const std::vector<uint8_t>& secret_seed) = 0;
  // The same, and the session's first command (its set-up) appended on
  // "main" in the same WriteBatch: the session exists with its set-up or
  // not at all (a crash cannot leave a session with 0 events). `first` is
  // checked as Append checks it (seqs from 1, prev_hash zeros for seq 1,
  // session/branch fields, canonical bytes; InvalidArgument otherwise).
  virtual absl::Status CreateSession(const SessionMeta& meta,
                             const std::vector<uint8_t>& secret_seed,
                             const std::string& command_id,
                             const std::vector<events::EventBuffer>& first,
                             const std::vector<uint8_t>& signing_key = {}) = 0;
  // Creates `branch` at `fork_seq` of `parent` (0 < fork_seq <= parent head;
  // sharing the prefix, copying nothing). AlreadyExists, NotFound,
  // OutOfRange as the case may be.
  virtual absl::Status Fork(const std::string& session, const std::string& parent,
                    uint64_t fork_seq, const std::string& branch,
                    const std::string& author, const std::string& reason) = 0;
  // The same, with the branch's first event, its fork record (schema v6:
  // a BranchForked change at seq fork_seq + 1 chained to the parent's event
  // at fork_seq), written in the same batch: the branch exists with its
  // record or not at all. `record` is checked as Append checks events
  // (seq, prev_hash, session/branch fields, canonical bytes, its command id
  // kForkCommandId; InvalidArgument otherwise) and marked as the branch's
  // first command, bound to its own hash.
  virtual absl::Status Fork(const std::string& session, const std::string& parent,
                    uint64_t fork_seq, const std::string& branch,
                    const std::string& author, const std::string& reason,
                    const events::EventBuffer& record) = 0;
  // Appends one command's events (see the guarantees above).
  // `content`: a hash of the command's content (replay/ passes
  // events::CommandContentHash of the command), stored in its marker; when
  // absent, events::MarkerContent(events) (the same hash, read from the
  // declaration the events record) is stored. A later Append of the same
  // id with a different content hash is refused with AlreadyExists naming
  // the id, its seqs and both hashes (a conflict, not a retry); with the
  // same hash (or none on either side: markers of older logs, callers
  // passing none) it is the idempotent duplicate. Set-up markers
  // (CreateSession), fork records (Fork) and bulk imports bind
  // MarkerContent too, so no marker of this build is without content.
  // REQUIRES: !events.empty(); events[i].seq == expected_seq + 1 + i.
  virtual absl::StatusOr<AppendResult> Append(
      const std::string& session, const std::string& branch,
      uint64_t expected_seq, const std::string& command_id,
      const std::vector<events::EventBuffer>& events,
      const std::optional<events::Digest>& content = std::nullopt) = 0;

  // Append, for a reveal's events (a SeedRevealed): in the same batch,
  // stores `reveal.fresh` (when not empty) keyed by its commitment, and
  // the marker of where `reveal.revealed` was first revealed (kept when one
  // exists). A crash leaves the events with the secret, or neither. A
  // duplicate command id writes nothing (as Append).
  virtual absl::StatusOr<AppendResult> AppendReveal(
      const std::string& session, const std::string& branch,
      uint64_t expected_seq, const std::string& command_id,
      const std::vector<events::EventBuffer>& events,
      const std::optional<events::Digest>& content, const RevealRecord& reveal) = 0;

  // AlreadyExists when `applied` (a marker found for `command_id`) carries
  // a content hash other than `content`: the same id with other content.
  static absl::Status CheckSameContent(
      const std::string& context, const std::string& command_id,
      const AppendResult& applied,
      const std::optional<events::Digest>& content);

  // Bulk import: creates `meta`'s session with its secret and every branch
  // of `branches` (main first, parents before children) in one step, all or
  // nothing, durable when it returns (whatever Options::sync says). Makes
  // the checks CreateSession, Fork and Append would (AlreadyExists,
  // InvalidArgument, OutOfRange naming branch and seq; nothing written on
  // any error), except that `canonical = kCallerChecked` skips re-encoding
  // each event (replay/bundle.h verifies canonical bytes before importing).
  // `signing_key` (may be empty): the session's Ed25519 private key, stored
  // as CreateSession stores it, in the same table file (the caller checks
  // it against the chained public key). `later_secrets`: the session's
  // later dice secrets (a reveal's fresh ones), stored keyed by their
  // commitments as AppendReveal stores them. Returns the number of events
  // written. See store/bulk_import.h.
  enum class Canonical { kCheck, kCallerChecked };
  virtual absl::StatusOr<uint64_t> ImportSession(
      const SessionMeta& meta, const std::vector<uint8_t>& secret,
      const std::vector<ImportBranch>& branches,
      Canonical canonical = Canonical::kCheck,
      const std::vector<uint8_t>& signing_key = {},
      const std::vector<std::vector<uint8_t>>& later_secrets = {}) = 0;

  virtual ~LogWriter() = default;

 protected:
  LogWriter() = default;
};

}  // namespace combat::store

#endif  // COMBAT_STORE_LOG_WRITER_H_
