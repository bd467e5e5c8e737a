// EventLog's state, shared by its .cc files (internal to store/).
#ifndef COMBAT_STORE_EVENT_LOG_IMPL_H_
#define COMBAT_STORE_EVENT_LOG_IMPL_H_

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/write_batch.h"
#include "store/ack_log.h"
#include "store/batch_sink.h"
#include "store/event_log.h"
#include "store/write_locks.h"

namespace combat::store {

// InvalidArgument naming `what` unless ValidId(id).
absl::Status CheckId(absl::string_view what, const std::string& id);

struct LogImpl {
  std::string path;
  Options options;
  rocksdb::Options db_options;  // as opened (bulk import writes tables)
  std::unique_ptr<rocksdb::DB> db;
  // Which writes may run together (store/write_locks.h): each
  // read-check-write holds the locks of what it reads and writes (its
  // branch; a fork also its parent; CreateSession and reveals their
  // session); whole-database operations take all. std::mutex underneath,
  // not absl::Mutex: ThreadSanitizer sees it (Debian's Abseil is not built
  // for TSan).
  WriteLocks locks;
  // Guards `acks`, `last` and `ack_synced` (taken after `locks`, never
  // the other way round).
  std::mutex ack_mu;
  bool read_only = false;
  // The record of acknowledged writes (store/ack_log.h); nullptr when the
  // database was opened read-only, or after the file failed to be written
  // (the next write starts it afresh).
  std::unique_ptr<AckLog> acks;
  // The newest acknowledged write (by RocksDB sequence number) and the
  // branch head it left (recorded at the next sync point when
  // Options::sync is false).
  Acked last;
  // Where Write sends batches instead of the database (store/batch_sink.h);
  // nullptr: the database itself. Not owned.
  BatchSink* sink = nullptr;
  // When COMBAT-ACKED was last fsynced (see RecordLast).
  std::chrono::steady_clock::time_point ack_synced;

  // FailedPrecondition when the database was opened read-only.
  absl::Status CheckWritable(absl::string_view context) const;

  // Writes `batch` (sync = Options::sync), then notes that it left
  // `session`/`branch` at `head` and, with Options::sync, records it.
  // REQUIRES: the write's locks held (so records of one branch are in
  // order); not ack_mu.
  absl::Status Write(rocksdb::WriteBatch* batch, absl::string_view context,
                     const std::string& session, const std::string& branch,
                     const Head& head);

  // Sets `last` to `head` of `session`/`branch` at RocksDB sequence number
  // `db_seq` (every write up to it durable once this one is), unless
  // `last` already names a newer one. REQUIRES: ack_mu held.
  void NoteWrite(uint64_t db_seq, const std::string& session,
                 const std::string& branch, const Head& head);

  // Appends `last` to COMBAT-ACKED with `durability`. The write it records
  // is already acknowledged by RocksDB, so a failure here is not the
  // caller's: the file stays behind (which opens) and the next record
  // rewrites it. REQUIRES: ack_mu held, !read_only.
  void RecordLast(AckLog::Durability durability);
};

}  // namespace combat::store

#endif  // COMBAT_STORE_EVENT_LOG_IMPL_H_
