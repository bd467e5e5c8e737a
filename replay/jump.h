// Jump: the state after any event of any branch, fast on long logs.
//
// Seek = the nearest usable snapshot at or below the target (store/
// NearestSnapshot, for the session's ruleset version) + a fold of the
// events after it. A snapshot is never trusted over replay: its decoded
// state must hash (kernel::StateHash) to the state_hash recorded in its
// own event, or it is ignored, reported in SeekReport::ignored, and the
// next one below it is tried (down to a fold from seq 1). The state reached
// must hash to the target event's recorded state_hash (DataLoss naming the
// seq otherwise), so a seek proves the state it returns is the one the
// log recorded. (Per-event checks of every state hash on the way are
// `verify`'s job, or SeekOptions::check_every_hash.)
//
// When snapshots are written (the policy):
//  - at append: Engine::Submit folds each new command's events and writes
//    one snapshot, at the last seq that is a multiple of `snapshot_every`
//    (256 by default) inside the command's range (SnapshotNewEvents; a
//    command longer than `snapshot_every`, like the set-up of thousands of
//    combatants, gets the others lazily, below);
//  - lazily on seek: a fold that passes a multiple of `snapshot_every`
//    writes the missing snapshots there (a log written without them, e.g.
//    by an older build or a bulk import, gets them the first time it is
//    read), and replaces an ignored (stale or damaged) one.
// So once written, a seek folds at most snapshot_every - 1 events. 256:
// on a 1M-event branch (replay_benchmark) a random seek took p50 142 us /
// p99 245 us, against 394 / 894 us with 1024, for one stored state (~1 KB
// here) per 256 events.
// Snapshots are a cache: they are written without fsync and a failure to
// write one is not an error (it is reported in SeekReport::notes).
#ifndef COMBAT_REPLAY_JUMP_H_
#define COMBAT_REPLAY_JUMP_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "events/codec.h"
#include "kernel/fold.h"
#include "kernel/state.h"
#include "replay/progress.h"
#include "store/event_log.h"

namespace combat::replay {

inline constexpr uint64_t kDefaultSnapshotEvery = 256;

struct SeekOptions {
  uint64_t snapshot_every = kDefaultSnapshotEvery;  // 0 = never write
  bool use_snapshots = true;
  bool write_snapshots = true;
  bool check_every_hash = false;
  Progress* progress = nullptr;  // not owned; may be null
};

struct SeekReport {
  uint64_t target = 0;         // the seq reached
  uint64_t snapshot_seq = 0;   // the snapshot started from (0 = none)
  std::string snapshot_branch;
  uint64_t folded = 0;         // events folded after it
  uint64_t snapshots_written = 0;
  std::vector<std::string> ignored;  // snapshots refused, and why
  std::vector<std::string> notes;
};

// The state after event `seq` (0 = the head) of `branch`. OutOfRange
// beyond the head; DataLoss when the log is damaged or the state reached
// does not match the recorded state hash. `log` is non-const because a
// seek may write snapshots (options.write_snapshots).
absl::StatusOr<kernel::State> Seek(store::EventLog& log,
                                   const std::string& session,
                                   const std::string& branch, uint64_t seq,
                                   const SeekOptions& options = {},
                                   SeekReport* report = nullptr);

// Folds `events` (just appended to `branch`, following `before`) and
// writes one snapshot, at the last multiple of options.snapshot_every among
// their seqs (if any). Returns the state after the last event.
absl::StatusOr<kernel::State> SnapshotNewEvents(
    store::EventLog& log, const std::string& session, const std::string& branch,
    int32_t ruleset_version, kernel::State before,
    const std::vector<events::EventBuffer>& events,
    const SeekOptions& options = {});

// Visits events 1..upto of a branch from the store (kernel::PrefixScan,
// for voids). The returned function refers to `log`.
kernel::PrefixScan StoreScan(const store::EventLog& log,
                             const std::string& session,
                             const std::string& branch);

// True when `state`'s hash equals the state_hash recorded in `event`.
bool MatchesRecordedHash(const kernel::State& state, const fb::Event& event);

}  // namespace combat::replay

#endif  // COMBAT_REPLAY_JUMP_H_
