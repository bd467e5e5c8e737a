#include "replay/cli_verbs.h"

#include "store/event_log.h"

namespace combat::replay {

absl::StatusOr<std::unique_ptr<Engine>> OpenDb(const std::string& db,
                                               DbUse use) {
  store::Options options;
  options.create_if_missing = use == DbUse::kCreate;
  if (use == DbUse::kRead) options.access = store::Options::Access::kReadOnly;
  return Engine::Open(db, options);
}

}  // namespace combat::replay
