// RocksDB status -> absl::Status (internal to store/).
#ifndef COMBAT_STORE_ROCKS_STATUS_H_
#define COMBAT_STORE_ROCKS_STATUS_H_

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "rocksdb/status.h"

namespace combat::store {

// Maps `s` to the nearest absl code, with `context` (what was being done,
// naming session/branch/seq) ahead of RocksDB's own message:
// Corruption -> DataLoss, IOError -> Internal (NoSpace -> ResourceExhausted),
// Busy/TimedOut/TryAgain/Incomplete/ShutdownInProgress -> Unavailable,
// NotFound, InvalidArgument, NotSupported (Unimplemented), Aborted as named.
absl::Status FromRocks(const rocksdb::Status& s, absl::string_view context);

// True when `s` is DB::Open failing to take the database's LOCK file.
// `*in_this_process` tells RocksDB's in-process lock table ("lock hold by
// current process") apart from another process's advisory lock.
bool IsLockConflict(const rocksdb::Status& s, bool* in_this_process);

}  // namespace combat::store

#endif  // COMBAT_STORE_ROCKS_STATUS_H_
