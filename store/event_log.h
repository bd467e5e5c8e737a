// The RocksDB event log: sessions, branches, atomic appends, range reads.
//
// Layout (one RocksDB database, default column family; see store/README.md):
//   s\0<session>                   -> SessionMeta (ruleset, version, title)
//   k\0<session>                   -> the session's secret dice seed
//   b\0<session>\0<branch>         -> BranchMeta (parent, fork seq, who, why)
//   h\0<session>\0<branch>         -> head: seq (be64) + SHA-256 of head event
//   e\0<session>\0<branch>\0<be64> -> canonical event bytes (events/codec.h)
//   c\0<session>\0<branch>\0<cmd>  -> first seq (be64) + last seq (be64)
//   n\0<session>\0<branch>\0<be32 ruleset version><be64 seq>
//                                  -> snapshot of derived state after seq
// Ids (session, branch, command) are 1..64 chars of [A-Za-z0-9_.:-].
//
// Guarantees:
//  - One Append = one WriteBatch (events + head + command marker), written
//    with WriteOptions::sync = Options::sync (true by default): either all
//    of a command's events are durable and acknowledged, or none is.
//  - ImportSession (bulk import of a verified session) writes the same
//    records in one ingested table file: all or nothing, durable on return.
//  - Optimistic concurrency: Append names the seq it expects the branch head
//    to have; a stale writer gets Aborted ("expected head seq 7, branch is
//    at 9") and nothing is written. Appends are serialized in-process; a
//    second process opening the same database gets Unavailable ("in use").
//  - Idempotency: a command id already appended on the branch is not
//    applied again; Append returns the original seq range with
//    `duplicate = true`.
//  - The chain is checked on append: contiguous seqs from head+1, each
//    prev_hash the SHA-256 of the event before, session/branch fields
//    matching.
//  - Reads copy values into aligned memory and run the FlatBuffers Verifier
//    (events::EventBuffer); every scan checks the iterator's status(), so a
//    damaged log errors (DataLoss) instead of looking shorter. A gap in the
//    seqs of a branch is DataLoss too.
//  - WAL recovery mode kTolerateCorruptedTailRecords with paranoid checks:
//    a torn tail (an unacknowledged write) is dropped, a corrupted record
//    body mid-WAL refuses to open (measured on RocksDB 7.8.3: the default
//    mode silently dropped acknowledged events after one flipped byte).
//    Before DB::Open, the WAL files are pre-scanned (store/wal_check.h): a
//    damaged record header that RocksDB would take for the end of the log
//    refuses to open (DataLoss) unless it is the torn end of the file.
//  - Scans check every prev_hash link, and that nothing is stored past the
//    head; an append refuses to build on either kind of damage.
//  - Branches share their prefix: a fork writes only its BranchMeta and
//    head; reading a branch below its fork seq reads the parent.
//  - Errors name the session, branch and seq.
//  - Snapshots (PutSnapshot/NearestSnapshot) are a cache of derived state,
//    keyed by ruleset version: the store keeps their bytes opaque and never
//    vouches for them. Readers (replay/jump.h) check each against the state
//    hash recorded in its event and fall back to replay when it disagrees.
//    They are written without fsync and are the only values ever
//    overwritten; losing one costs a longer fold, never an event.
//
// Thread safety: all methods may be called concurrently.
#ifndef COMBAT_STORE_EVENT_LOG_H_
#define COMBAT_STORE_EVENT_LOG_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "events/codec.h"
#include "events/hash.h"

namespace rocksdb {
class Env;
}  // namespace rocksdb

namespace combat::store {

struct Options {
  bool sync = true;               // fsync every append (power-loss safe)
  // Create a database when `path` is absent or an empty directory (never
  // over other files: store/db_dir.h). False: NotFound unless it exists.
  bool create_if_missing = true;
  // For tests: fault injection (a rocksdb::Env over a FileSystem that
  // simulates power loss or I/O errors). nullptr = the default Env. Not
  // owned; it must outlive the EventLog.
  rocksdb::Env* env = nullptr;
  // kReadOnly: DB::OpenForReadOnly: nothing is created or changed (no
  // LOCK taken, so it may run while a writer holds the database); every
  // write method returns FailedPrecondition. Implies !create_if_missing.
  enum class Access { kReadWrite, kReadOnly };
  Access access = Access::kReadWrite;
};

// The command id of a fork record (the first event of a forked branch,
// schema v6): reserved on every forked branch.
inline constexpr char kForkCommandId[] = "fork";

struct SessionMeta {
  std::string session;
  std::string ruleset;
  int32_t ruleset_version = 0;
  std::string title;
};

struct BranchMeta {
  std::string session;
  std::string branch;
  std::string parent;             // "" for "main"
  uint64_t fork_seq = 0;          // events 1..fork_seq come from parent
  std::string author;
  std::string reason;
};

struct Head {
  uint64_t seq = 0;               // 0 = empty branch
  events::Digest hash{};          // SHA-256 of event `seq` (zeros when 0)
};

// A snapshot of derived state (see PutSnapshot).
struct Snapshot {
  std::string branch;          // the branch whose own events hold `seq`
  uint64_t seq = 0;            // the state after this event
  int32_t ruleset_version = 0;
  std::vector<uint8_t> state;  // opaque to the store (replay/ writes
                               // kernel::EncodeState bytes)
};

// One branch of a bulk import (EventLog::ImportSession): its metadata
// (parent "" and fork seq 0 for main) and its own events, seqs
// fork_seq+1.., each command's events consecutive and carrying its id.
struct ImportBranch {
  BranchMeta meta;
  const std::vector<events::EventBuffer>* own = nullptr;  // not owned
};

struct AppendResult {
  uint64_t first_seq = 0;
  uint64_t last_seq = 0;
  bool duplicate = false;         // the command id was already applied
  // The content hash the command's marker binds (Append's `content`, or
  // events::MarkerContent of its events: set-up, fork records, bulk
  // import, appends without one); nullopt for markers of older logs.
  std::optional<events::Digest> content;
};

class EventLog {
 public:
  // Opens (or, with Options::create_if_missing, creates) the database at
  // `path`. Refused, with nothing created or changed:
  //  - NotFound: `path` is absent or an empty directory and may not be
  //    created; DataLoss: a non-empty directory without RocksDB's CURRENT
  //    file (a lost CURRENT, or not a database), naming it;
  //  - Unavailable: another process holds the database ("in use");
  //  - DataLoss: RocksDB's own refusals (a damaged WAL record, a missing
  //    WAL or table file, a damaged MANIFEST), and a database recovered
  //    behind the last acknowledged write recorded in <path>/COMBAT-ACKED
  //    (store/ack_log.h): a WAL cut or deleted, a MANIFEST edit lost, a
  //    table file gone. The message names the write or branch head lost.
  static absl::StatusOr<std::unique_ptr<EventLog>> Open(const std::string& path,
                                                        Options options = {});
  ~EventLog();
  // True when opened with Options::Access::kReadOnly.
  bool read_only() const;
  EventLog(const EventLog&) = delete;
  EventLog& operator=(const EventLog&) = delete;

  // Creates a session with an empty "main" branch and stores its secret
  // dice seed. AlreadyExists when the id is taken.
  absl::Status CreateSession(const SessionMeta& meta,
                             const std::vector<uint8_t>& secret_seed);
  // The same, and the session's first command (its set-up) appended on
  // "main" in the same WriteBatch: the session exists with its set-up or
  // not at all (a crash cannot leave a session with 0 events). `first` is
  // checked as Append checks it (seqs from 1, prev_hash zeros for seq 1,
  // session/branch fields, canonical bytes; InvalidArgument otherwise).
  absl::Status CreateSession(const SessionMeta& meta,
                             const std::vector<uint8_t>& secret_seed,
                             const std::string& command_id,
                             const std::vector<events::EventBuffer>& first,
                             const std::vector<uint8_t>& signing_key = {});
  absl::StatusOr<SessionMeta> GetSession(const std::string& session) const;
  // Every session id, sorted.
  absl::StatusOr<std::vector<std::string>> ListSessions() const;
  absl::StatusOr<std::vector<uint8_t>> GetSecret(const std::string& session) const;
  // The session's Ed25519 private signing key (stored by CreateSession, in
  // the same batch); empty when it has none. Never exported.
  absl::StatusOr<std::vector<uint8_t>> GetSigningKey(const std::string& session) const;

  // Creates `branch` at `fork_seq` of `parent` (0 < fork_seq <= parent head;
  // sharing the prefix, copying nothing). AlreadyExists, NotFound,
  // OutOfRange as the case may be.
  absl::Status Fork(const std::string& session, const std::string& parent,
                    uint64_t fork_seq, const std::string& branch,
                    const std::string& author, const std::string& reason);
  // The same, with the branch's first event, its fork record (schema v6:
  // a BranchForked change at seq fork_seq + 1 chained to the parent's event
  // at fork_seq), written in the same batch: the branch exists with its
  // record or not at all. `record` is checked as Append checks events
  // (seq, prev_hash, session/branch fields, canonical bytes, its command id
  // kForkCommandId; InvalidArgument otherwise) and marked as the branch's
  // first command, bound to its own hash.
  absl::Status Fork(const std::string& session, const std::string& parent,
                    uint64_t fork_seq, const std::string& branch,
                    const std::string& author, const std::string& reason,
                    const events::EventBuffer& record);
  absl::StatusOr<BranchMeta> GetBranch(const std::string& session,
                                       const std::string& branch) const;
  absl::StatusOr<std::vector<BranchMeta>> ListBranches(
      const std::string& session) const;

  absl::StatusOr<Head> GetHead(const std::string& session,
                               const std::string& branch) const;

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
  absl::StatusOr<AppendResult> Append(
      const std::string& session, const std::string& branch,
      uint64_t expected_seq, const std::string& command_id,
      const std::vector<events::EventBuffer>& events,
      const std::optional<events::Digest>& content = std::nullopt);

  // AlreadyExists when `applied` (a marker found for `command_id`) carries
  // a content hash other than `content`: the same id with other content.
  static absl::Status CheckSameContent(
      const std::string& context, const std::string& command_id,
      const AppendResult& applied,
      const std::optional<events::Digest>& content);

  // The seq range a command id produced on `branch`, if it was applied.
  absl::StatusOr<std::optional<AppendResult>> FindCommand(
      const std::string& session, const std::string& branch,
      const std::string& command_id) const;

  // Calls `visit` for events from..to (inclusive, 1-based; to = 0 means the
  // head) of `branch`, in seq order, reading the shared prefix from parent
  // branches. Stops at the first error (from the store or from `visit`).
  // `links`: kCheck (the default) refuses a broken prev_hash link with
  // DataLoss at the later event; kLeaveToCaller is for `verify`, which reads
  // past a broken link to blame the event that was altered.
  enum class Links { kCheck, kLeaveToCaller };
  absl::Status Scan(const std::string& session, const std::string& branch,
                    uint64_t from, uint64_t to,
                    const std::function<absl::Status(const events::EventBuffer&)>&
                        visit,
                    Links links = Links::kCheck) const;
  // Scan into a vector.
  absl::StatusOr<std::vector<events::EventBuffer>> Read(
      const std::string& session, const std::string& branch, uint64_t from = 1,
      uint64_t to = 0) const;

  // Bulk import: creates `meta`'s session with its secret and every branch
  // of `branches` (main first, parents before children) in one step, all or
  // nothing, durable when it returns (whatever Options::sync says). Makes
  // the checks CreateSession, Fork and Append would (AlreadyExists,
  // InvalidArgument, OutOfRange naming branch and seq; nothing written on
  // any error), except that `canonical = kCallerChecked` skips re-encoding
  // each event (replay/bundle.h verifies canonical bytes before importing).
  // `signing_key` (may be empty): the session's Ed25519 private key, stored
  // as CreateSession stores it, in the same table file (the caller checks
  // it against the chained public key). Returns the number of events
  // written. See store/bulk_import.h.
  enum class Canonical { kCheck, kCallerChecked };
  absl::StatusOr<uint64_t> ImportSession(
      const SessionMeta& meta, const std::vector<uint8_t>& secret,
      const std::vector<ImportBranch>& branches,
      Canonical canonical = Canonical::kCheck,
      const std::vector<uint8_t>& signing_key = {});

  // ---- Snapshots of derived state (a cache; see the guarantees above).
  // Stores `state` as the derived state after event `seq` of `branch`
  // (1 <= seq <= head; OutOfRange otherwise), for `ruleset_version`,
  // replacing any snapshot there. It is stored under the branch whose own
  // events hold `seq` (an ancestor's, when seq is in a fork's shared
  // prefix), so every branch sharing that prefix finds it. Not fsynced.
  absl::Status PutSnapshot(const std::string& session,
                           const std::string& branch, uint64_t seq,
                           int32_t ruleset_version,
                           const std::vector<uint8_t>& state);
  // The snapshot with the highest seq <= `seq` (0 = the head) in the
  // history of `branch` (its own events, then its ancestors' shared
  // prefixes) for exactly `ruleset_version`; nullopt when there is none.
  // DataLoss when a snapshot record is damaged.
  absl::StatusOr<std::optional<Snapshot>> NearestSnapshot(
      const std::string& session, const std::string& branch, uint64_t seq,
      int32_t ruleset_version) const;
  // How many snapshots `session` has (every branch and version).
  absl::StatusOr<uint64_t> CountSnapshots(const std::string& session) const;

  // ---- Whole-database integrity and durability.
  // RocksDB's own block checksums over every table file
  // (DB::VerifyChecksum); DataLoss naming the file on a mismatch. The WAL
  // is checked when the database opens (kTolerateCorruptedTailRecords).
  absl::Status VerifyChecksums() const;
  // Syncs the WAL to disk: for bulk writers that opened with sync = false
  // (import), one fsync at the end instead of one per append.
  absl::Status SyncWal();
  // Flushes the memtable and compacts every table file into the bottommost
  // level (maintenance: rewrites the whole database in the current table
  // format; events are not changed).
  absl::Status Compact();

 private:
  struct Impl;
  explicit EventLog(std::unique_ptr<Impl> impl);
  absl::Status ForkWith(const std::string& session, const std::string& parent,
                        uint64_t fork_seq, const std::string& branch,
                        const std::string& author, const std::string& reason,
                        const events::EventBuffer* record);
  std::unique_ptr<Impl> impl_;
};

// True when `id` is a valid session, branch or command id.
bool ValidId(const std::string& id);

}  // namespace combat::store

#endif  // COMBAT_STORE_EVENT_LOG_H_
