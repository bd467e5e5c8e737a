#include "store/db_dir.h"

#include <algorithm>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "rocksdb/env.h"

namespace combat::store {

absl::Status CheckDatabaseDir(rocksdb::Env* env, const std::string& path,
                              MayCreate may_create) {
  const bool create = may_create == MayCreate::kYes;
  if (env->FileExists(path).IsNotFound()) {
    if (create) return absl::OkStatus();
    return absl::NotFoundError(
        absl::StrCat("database ", path, " does not exist"));
  }
  bool is_dir = false;
  rocksdb::Status s = env->IsDirectory(path, &is_dir);
  if (!s.ok() || !is_dir) {
    return absl::FailedPreconditionError(absl::StrCat(
        "database ", path, " is not a directory: --db names a directory"));
  }
  std::vector<std::string> children;
  s = env->GetChildren(path, &children);
  if (!s.ok()) {
    return absl::InternalError(
        absl::StrCat("listing database directory ", path, ": ", s.ToString()));
  }
  children.erase(std::remove_if(children.begin(), children.end(),
                                [](const std::string& c) {
                                  return c == "." || c == "..";
                                }),
                 children.end());
  if (std::find(children.begin(), children.end(), "CURRENT") != children.end()) {
    return absl::OkStatus();
  }
  // What an interrupted first DB::Open leaves before it writes CURRENT:
  // RocksDB's own small files, no data (no WAL, no table file) and no
  // COMBAT-ACKED (written once a database opened). Nothing to lose.
  const bool only_creation_debris =
      std::all_of(children.begin(), children.end(), [](const std::string& c) {
        return c == "IDENTITY" || c == "LOCK" || c == "LOG" ||
               absl::StartsWith(c, "LOG.old.") ||
               absl::StartsWith(c, "MANIFEST-") ||
               absl::StartsWith(c, "OPTIONS-") || absl::EndsWith(c, ".dbtmp");
      });
  if (children.empty() || only_creation_debris) {
    if (create) return absl::OkStatus();
    return absl::NotFoundError(absl::StrCat(
        "database ", path, " does not exist (the directory is empty)"));
  }
  std::sort(children.begin(), children.end());
  const bool has_manifest =
      std::any_of(children.begin(), children.end(), [](const std::string& c) {
        return absl::StartsWith(c, "MANIFEST-");
      });
  std::vector<std::string> shown(
      children.begin(), children.begin() + std::min<size_t>(children.size(), 5));
  const std::string listing = absl::StrCat(
      absl::StrJoin(shown, ", "), children.size() > shown.size() ? ", ..." : "");
  if (has_manifest) {
    return absl::DataLossError(absl::StrCat(
        "database ", path, " has lost its CURRENT file (RocksDB's pointer to "
        "its MANIFEST; the directory holds ", children.size(), " files: ",
        listing, "); refusing to open or re-create it"));
  }
  return absl::DataLossError(absl::StrCat(
      "directory ", path, " is not a database: it has no CURRENT file and "
      "holds ", children.size(), " other files (", listing,
      "); refusing to create a database over them"));
}

}  // namespace combat::store
