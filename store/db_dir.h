// What may be opened as a database directory (internal to store/).
//
// RocksDB's create_if_missing turns any directory without a CURRENT file
// into a fresh, empty database, and its next open deletes table files it
// does not know: a lost CURRENT would silently become an empty log, and
// `sessions --db somedir` would make any directory a database. This check
// runs before DB::Open and refuses those cases.
#ifndef COMBAT_STORE_DB_DIR_H_
#define COMBAT_STORE_DB_DIR_H_

#include <string>

#include "absl/status/status.h"

namespace rocksdb {
class Env;
}  // namespace rocksdb

namespace combat::store {

enum class MayCreate { kNo, kYes };

// OK when `path` holds a database (a CURRENT file), or, with
// MayCreate::kYes, when it is absent or an empty directory, or holds only
// what an interrupted creation leaves (IDENTITY, LOCK, LOG*, MANIFEST-*,
// OPTIONS-*, *.dbtmp: no WAL, no table file, no COMBAT-ACKED). Otherwise:
//  - NotFound "database <path> does not exist" (absent, or an empty
//    directory, and kNo);
//  - FailedPrecondition when `path` is not a directory;
//  - DataLoss when it is a non-empty directory without CURRENT, naming the
//    directory and what it holds (a MANIFEST: "its CURRENT file is
//    missing"; none: "not a database"); nothing is created over it.
absl::Status CheckDatabaseDir(rocksdb::Env* env, const std::string& path,
                              MayCreate may_create);

}  // namespace combat::store

#endif  // COMBAT_STORE_DB_DIR_H_
