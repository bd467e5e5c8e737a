// A cache of derived state beside the event log (one part of
// store::EventLog, an interface: store/rocks_log.h implements it):
// snapshots of a branch's state after an event, keyed by ruleset version.
// The store keeps their bytes opaque and never vouches for them: readers
// (replay/jump.h) check each against the state hash recorded in its event
// and fall back to replay when it disagrees. They are written without
// fsync and are the only values ever overwritten; losing one costs a
// longer fold, never an event.
//
// Thread safety: all methods may be called concurrently.
#ifndef COMBAT_STORE_SNAPSHOT_CACHE_H_
#define COMBAT_STORE_SNAPSHOT_CACHE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "store/log_types.h"

namespace combat::store {

struct LogImpl;

class SnapshotCache {
 public:
  SnapshotCache(const SnapshotCache&) = delete;
  SnapshotCache& operator=(const SnapshotCache&) = delete;

  // Stores `state` as the derived state after event `seq` of `branch`
  // (1 <= seq <= head; OutOfRange otherwise), for `ruleset_version`,
  // replacing any snapshot there. It is stored under the branch whose own
  // events hold `seq` (an ancestor's, when seq is in a fork's shared
  // prefix), so every branch sharing that prefix finds it. Not fsynced.
  virtual absl::Status PutSnapshot(const std::string& session,
                           const std::string& branch, uint64_t seq,
                           int32_t ruleset_version,
                           const std::vector<uint8_t>& state) = 0;
  // The snapshot with the highest seq <= `seq` (0 = the head) in the
  // history of `branch` (its own events, then its ancestors' shared
  // prefixes) for exactly `ruleset_version`; nullopt when there is none.
  // DataLoss when a snapshot record is damaged.
  virtual absl::StatusOr<std::optional<Snapshot>> NearestSnapshot(
      const std::string& session, const std::string& branch, uint64_t seq,
      int32_t ruleset_version) const = 0;
  // How many snapshots `session` has (every branch and version).
  virtual absl::StatusOr<uint64_t> CountSnapshots(const std::string& session) const = 0;

  virtual ~SnapshotCache() = default;

 protected:
  SnapshotCache() = default;
};

}  // namespace combat::store

#endif  // COMBAT_STORE_SNAPSHOT_CACHE_H_
