// Which writes may run at the same time (internal to store/).
//
// Group commit needs appends to different branches to reach RocksDB
// together (its write thread then merges their WAL records under one
// fdatasync), while every read-check-write of one branch stays atomic: the
// expected seq, the head, the chain link and the command id are read and
// checked, then written, with no other writer of that branch in between.
//
// A write names what it reads and writes as lock names (`BranchLock`,
// `SessionLock`, `ParticipantsLock`) and holds them for its whole
// read-check-write; whole-database operations (bulk import, SyncWal) take
// everything. Names map onto a fixed table of mutexes by hash: two names
// sharing a mutex only serialise, never deadlock, because a Guard takes its
// mutexes in index order, once each, after a shared hold on the whole
// table (which `LockAll` takes exclusively; a waiting LockAll is not
// starved by a stream of new writers: they queue behind it).
//
// Thread-safety: all methods may be called from any thread. A Guard
// belongs to the thread that took it (std::mutex).
#ifndef COMBAT_STORE_WRITE_LOCKS_H_
#define COMBAT_STORE_WRITE_LOCKS_H_

#include <array>
#include <cstddef>
#include <initializer_list>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace combat::store {

// The lock names: one branch's head, markers and events; one session's
// records (its creation, its reveal markers); one session's participants.
std::string BranchLock(absl::string_view session, absl::string_view branch);
std::string SessionLock(absl::string_view session);
std::string ParticipantsLock(absl::string_view session);

class WriteLocks {
 public:
  class Guard {
   public:
    Guard(Guard&&) = default;
    Guard& operator=(Guard&&) = default;

   private:
    friend class WriteLocks;
    Guard() = default;
    std::shared_lock<std::shared_mutex> shared_;
    std::unique_lock<std::shared_mutex> all_;
    std::vector<std::unique_lock<std::mutex>> held_;
  };

  // Blocks until no other Guard holds any of `names` (nor LockAll).
  Guard Lock(std::initializer_list<std::string> names);
  // Blocks until no other Guard is held; excludes every other writer.
  Guard LockAll();

  // How many mutexes names hash onto (exposed for tests).
  static constexpr size_t kStripes = 1024;

 private:
  // Taken briefly before `whole_` by every Guard, and held by LockAll
  // while it waits for the writers in flight to finish.
  std::mutex gate_;
  std::shared_mutex whole_;
  std::array<std::mutex, kStripes> stripes_;
};

}  // namespace combat::store

#endif  // COMBAT_STORE_WRITE_LOCKS_H_
