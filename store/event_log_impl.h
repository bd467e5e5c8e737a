// EventLog's state, shared by its .cc files (internal to store/).
#ifndef COMBAT_STORE_EVENT_LOG_IMPL_H_
#define COMBAT_STORE_EVENT_LOG_IMPL_H_

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

namespace combat::store {

// InvalidArgument naming `what` unless ValidId(id).
absl::Status CheckId(absl::string_view what, const std::string& id);

struct LogImpl {
  std::string path;
  Options options;
  rocksdb::Options db_options;  // as opened (bulk import writes tables)
  std::unique_ptr<rocksdb::DB> db;
  // Serializes every write (CreateSession, Fork, Append, import, SyncWal):
  // each reads the latest state, checks it, and writes one batch before the
  // next starts. A std::mutex, not absl::Mutex: ThreadSanitizer sees it
  // (Debian's Abseil is not built for TSan), so the project state written
  // under it (`last`, `acks`) is checked too.
  std::mutex write_mu;
  bool read_only = false;
  // The record of acknowledged writes (store/ack_log.h); nullptr when the
  // database was opened read-only, or after the file failed to be written
  // (the next write starts it afresh).
  std::unique_ptr<AckLog> acks;
  // The branch head the last write left (recorded at the next sync point
  // when Options::sync is false).
  Acked last;
  // Where Write sends batches instead of the database (store/batch_sink.h);
  // nullptr: the database itself. Not owned.
  BatchSink* sink = nullptr;

  // FailedPrecondition when the database was opened read-only.
  absl::Status CheckWritable(absl::string_view context) const;

  // Writes `batch` (sync = Options::sync), then notes that it left
  // `session`/`branch` at `head` and, with Options::sync, records it.
  // REQUIRES: write_mu held.
  absl::Status Write(rocksdb::WriteBatch* batch, absl::string_view context,
                     const std::string& session, const std::string& branch,
                     const Head& head);

  // Sets `last` to `head` of `session`/`branch` at the database's current
  // sequence number. REQUIRES: write_mu held.
  void NoteWrite(const std::string& session, const std::string& branch,
                 const Head& head);

  // Appends `last` to COMBAT-ACKED with `durability`. The write it records
  // is already acknowledged by RocksDB, so a failure here is not the
  // caller's: the file stays behind (which opens) and the next record
  // rewrites it. REQUIRES: write_mu, !read_only.
  void RecordLast(AckLog::Durability durability);
};

}  // namespace combat::store

#endif  // COMBAT_STORE_EVENT_LOG_IMPL_H_
