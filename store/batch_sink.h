// A hook on the RocksDB backend's write path, for a backend that keeps a
// RocksDB database as the local replica of a log held elsewhere
// (store/jetstream/): every write the RocksDB classes decided on (all its
// checks passed, under their write lock) goes to the sink as one batch
// instead of to the database; the sink makes it durable where the log
// lives and then applies it to the replica, or refuses it.
//
// Thread safety: Write is called with the RocksDB writer's lock held
// (LogImpl::write_mu), except for a participant (store/participants.h),
// which calls it without: a sink serializes its writes itself and may be
// called concurrently.
#ifndef COMBAT_STORE_BATCH_SINK_H_
#define COMBAT_STORE_BATCH_SINK_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "rocksdb/write_batch.h"
#include "store/log_types.h"

namespace combat::store {

// The `branch` a participant's record (store/participants.h) is written
// under: not a branch id (ValidId never admits '~').
inline constexpr char kParticipantsBranch[] = "~participants";

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
