#include "store/write_locks.h"

#include <algorithm>
#include <functional>

#include "absl/strings/str_cat.h"

namespace combat::store {

std::string BranchLock(absl::string_view session, absl::string_view branch) {
  return absl::StrCat("b", absl::string_view("\0", 1), session,
                      absl::string_view("\0", 1), branch);
}

std::string SessionLock(absl::string_view session) {
  return absl::StrCat("s", absl::string_view("\0", 1), session);
}

std::string ParticipantsLock(absl::string_view session) {
  return absl::StrCat("p", absl::string_view("\0", 1), session);
}

WriteLocks::Guard WriteLocks::Lock(std::initializer_list<std::string> names) {
  std::vector<size_t> index;
  index.reserve(names.size());
  for (const std::string& name : names) {
    index.push_back(std::hash<std::string>()(name) % kStripes);
  }
  std::sort(index.begin(), index.end());
  index.erase(std::unique(index.begin(), index.end()), index.end());
  Guard guard;
  {
    // Through the gate: a waiting LockAll holds it, so new writers queue
    // behind it instead of starving it (glibc's rwlock prefers readers).
    std::lock_guard<std::mutex> gate(gate_);
    guard.shared_ = std::shared_lock<std::shared_mutex>(whole_);
  }
  guard.held_.reserve(index.size());
  for (size_t i : index) guard.held_.emplace_back(stripes_[i]);
  return guard;
}

WriteLocks::Guard WriteLocks::LockAll() {
  Guard guard;
  std::lock_guard<std::mutex> gate(gate_);
  guard.all_ = std::unique_lock<std::shared_mutex>(whole_);
  return guard;
}

}  // namespace combat::store
