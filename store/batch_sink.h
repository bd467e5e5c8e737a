// A hook on the RocksDB backend's write path, for a backend that keeps a
// RocksDB database as the local replica of a log held elsewhere
// (store/jetstream/): every write the RocksDB classes decided on (all its
// checks passed, under their write lock) goes to the sink as one batch
// instead of to the database; the sink makes it durable where the log
// lives and then applies it to the replica, or refuses it.
//
// Thread safety: Write is called with the write's locks held
// (store/write_locks.h: its branch; a fork also its parent; a reveal and a
// session's creation their session; a participant its session's
// participants), so writes to different branches call it concurrently; a
// sink never waits for one of those locks.
#ifndef COMBAT_STORE_BATCH_SINK_H_
#define COMBAT_STORE_BATCH_SINK_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "rocksdb/write_batch.h"
#include "store/event_log.h"  // kParticipantsBranch
#include "store/log_types.h"

namespace combat::store {

class BatchSink {
 public:
  virtual ~BatchSink() = default;
  // `batch` (the records one CreateSession, Fork, Append or AppendReveal
  // writes: store/README.md's key layout) leaves `session`/`branch` at
  // `head` (a participant: branch kParticipantsBranch, an empty head); `context` names the write for errors. OK only when the write
  // is durable and applied to the database.
  virtual absl::Status Write(rocksdb::WriteBatch* batch,
                             absl::string_view context,
                             const std::string& session,
                             const std::string& branch, const Head& head) = 0;
};

}  // namespace combat::store

#endif  // COMBAT_STORE_BATCH_SINK_H_
