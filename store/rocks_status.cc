#include "store/rocks_status.h"

#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace combat::store {

absl::Status FromRocks(const rocksdb::Status& s, absl::string_view context) {
  if (s.ok()) return absl::OkStatus();
  std::string message = absl::StrCat(context, ": ", s.ToString());
  using Code = rocksdb::Status::Code;
  switch (s.code()) {
    case Code::kNotFound:
      return absl::NotFoundError(message);
    case Code::kCorruption:
      return absl::DataLossError(message);
    case Code::kInvalidArgument:
      return absl::InvalidArgumentError(message);
    case Code::kNotSupported:
      return absl::UnimplementedError(message);
    case Code::kAborted:
      return absl::AbortedError(message);
    case Code::kBusy:
    case Code::kTimedOut:
    case Code::kTryAgain:
    case Code::kIncomplete:
    case Code::kShutdownInProgress:
      return absl::UnavailableError(message);
    case Code::kIOError:
      if (s.IsNoSpace()) return absl::ResourceExhaustedError(message);
      return absl::InternalError(message);
    default:
      return absl::InternalError(message);
  }
}

bool IsLockConflict(const rocksdb::Status& s, bool* in_this_process) {
  // RocksDB 7.8.3 (env/fs_posix.cc, LockFile):
  //   same process:  "IO error: lock hold by current process, ...: <db>/LOCK:
  //                   No locks available"
  //   other process: "IO error: While lock file: <db>/LOCK: Resource
  //                   temporarily unavailable"
  if (!s.IsIOError()) return false;
  std::string text = s.ToString();
  if (!absl::StrContains(text, "/LOCK")) return false;
  *in_this_process = absl::StrContains(text, "lock hold by current process");
  return absl::StrContains(text, "lock");
}

}  // namespace combat::store
