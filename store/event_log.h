// The event log: sessions, branches, atomic appends, range reads; the
// embedded RocksDB backend described here, or JetStream (store/jetstream/).
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
//   p\0<session>\0<token hash hex> -> a server participant (role, name):
//                                     store/participants.h, not chained
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
//    at 9") and nothing is written. Appends to one branch are serialized
//    in-process (other branches' run at once: group commit); a second
//    process opening the same database gets Unavailable ("in use").
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
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "store/log_reader.h"
#include "store/log_types.h"
#include "store/log_writer.h"
#include "store/scan_reporter.h"
#include "store/snapshot_cache.h"

namespace combat::store {

// One open database: its reads (LogReader), its writes (LogWriter) and its
// snapshot cache (SnapshotCache), each a class of its own over the same
// database, and what concerns the whole database (opening, checksums, WAL
// sync, compaction). Code that only reads takes a `const LogReader&`.
class ParticipantStore;  // store/participants.h

// The `branch` a participant's record (store/participants.h) is written
// under: not a branch id (ValidId never admits '~').
inline constexpr char kParticipantsBranch[] = "~participants";

// A write made through another open of the same log (another process),
// as EventLog::Follow reports it: `session`'s `branch` now ends at
// `head_seq`; or, with `branch` kParticipantsBranch and head_seq 0,
// `session`'s participants changed (session "": the operators).
struct LogChange {
  std::string session;
  std::string branch;
  uint64_t head_seq = 0;
};
using ChangeListener = std::function<void(const LogChange&)>;

// An open event log, whichever backend holds it: a LogReader, a LogWriter
// and a SnapshotCache over one log, with the same contracts on every
// backend (the RocksDB database above, or store/jetstream/'s JetStream
// cluster). What a backend cannot offer is an error naming it
// (Unimplemented or FailedPrecondition), never a silent no-op.
//
// Thread safety: all methods may be called concurrently.
class EventLog : public virtual LogReader,
                 public virtual LogWriter,
                 public virtual SnapshotCache {
 public:
  // Opens the log `url` names:
  //  - a plain path, or "rocksdb:PATH": the embedded RocksDB database at
  //    PATH (the default; RocksEventLog, store/rocks_log.h);
  //  - "nats://HOST:PORT[,HOST:PORT...][/PREFIX]": NATS JetStream
  //    (store/jetstream/README.md; the binary must link
  //    //store/jetstream, else Unimplemented naming it).
  // RocksDB refuses, with nothing created or changed:
  //  - NotFound: `path` is absent or an empty directory and may not be
  //    created; DataLoss: a non-empty directory without RocksDB's CURRENT
  //    file (a lost CURRENT, or not a database), naming it;
  //  - Unavailable: another process holds the database ("in use");
  //  - DataLoss: RocksDB's own refusals (a damaged WAL record, a missing
  //    WAL or table file, a damaged MANIFEST), and a database recovered
  //    behind the last acknowledged write recorded in <path>/COMBAT-ACKED
  //    (store/ack_log.h): a WAL cut or deleted, a MANIFEST edit lost, a
  //    table file gone. The message names the write or branch head lost.
  static absl::StatusOr<std::unique_ptr<EventLog>> Open(const std::string& url,
                                                        Options options = {});
  ~EventLog() override = default;
  EventLog(const EventLog&) = delete;
  EventLog& operator=(const EventLog&) = delete;

  // True when opened with Options::Access::kReadOnly.
  virtual bool read_only() const = 0;

  // ---- Whole-database integrity and durability.
  // RocksDB's own block checksums over every table file
  // (DB::VerifyChecksum); DataLoss naming the file on a mismatch. The WAL
  // is checked when the database opens (kTolerateCorruptedTailRecords).
  virtual absl::Status VerifyChecksums() const = 0;
  // Syncs the WAL to disk: for bulk writers that opened with sync = false
  // (import), one fsync at the end instead of one per append.
  virtual absl::Status SyncWal() = 0;
  // Flushes the memtable and compacts every table file into the bottommost
  // level (maintenance: rewrites the whole database in the current table
  // format; events are not changed).
  virtual absl::Status Compact() = 0;

  // ---- Writes of other opens.
  // From now on, keeps this open current with the writes other opens
  // (other processes) make, and calls `listener` for each (and possibly
  // for some of this open's own), from a thread of the backend's; nullptr
  // stops the calls (none runs after this returns). A listener must be
  // quick and must not call Follow. RocksDB: no other open can write the
  // database (one process holds it), so nothing is ever reported: OK.
  // JetStream (store/jetstream/README.md): the stream is followed (an
  // ordered consumer, and a catch-up every second), so a write
  // acknowledged to another process is applied to this open's replica,
  // and reported, within a second while the cluster answers (normally
  // milliseconds). Unavailable when following cannot start.
  virtual absl::Status Follow(ChangeListener listener) = 0;

 protected:
  EventLog() = default;

 private:
  friend class ParticipantTable;  // store/participants.h: its own records
  // The backend's participants and operators (store/participants.h),
  // reached through ParticipantTable, which checks the arguments first.
  virtual ParticipantStore& participants() = 0;
};

// How EventLog::Open reaches a backend linked into the binary: `scheme`
// (e.g. "nats://") and the opener of URLs that start with it. For a
// backend's static initialiser (its library is alwayslink); returns true.
using BackendOpener = absl::StatusOr<std::unique_ptr<EventLog>> (*)(
    const std::string& url, const Options& options);
bool RegisterBackend(const char* scheme, BackendOpener opener);

}  // namespace combat::store

#endif  // COMBAT_STORE_EVENT_LOG_H_
