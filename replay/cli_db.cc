#include "replay/cli_verbs.h"

#include <filesystem>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "store/event_log.h"

namespace combat::replay {

absl::StatusOr<std::unique_ptr<Engine>> OpenDb(const std::string& db,
                                               DbUse use) {
  store::Options options;
  options.create_if_missing = use == DbUse::kCreate;
  if (use == DbUse::kRead) options.access = store::Options::Access::kReadOnly;
  return Engine::Open(db, options);
}

absl::Status CheckOutsideDb(const std::string& db, const std::string& path,
                            const std::string& flag) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path dir = fs::weakly_canonical(fs::absolute(db, ec), ec);
  const fs::path out = fs::weakly_canonical(fs::absolute(path, ec), ec);
  if (ec) return absl::OkStatus();  // the write itself reports a bad path
  // `out` is inside `dir` when `dir` is a prefix of it, element by element.
  auto d = dir.begin();
  auto o = out.begin();
  for (; d != dir.end() && o != out.end() && *d == *o; ++d, ++o) {
  }
  if (d != dir.end() && !d->empty()) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      "flag --", flag, ": '", path, "' is inside the database directory '", db,
      "': writing there could overwrite the database's own files; write it "
      "elsewhere"));
}

}  // namespace combat::replay
