// Fork: a named branch at event N of any branch, sharing the prefix
// (store::EventLog::Fork copies nothing), recorded with who forked it and
// why. Branches of branches work: a fork of a fork reads its ancestors'
// events below its fork point.
#ifndef COMBAT_REPLAY_FORK_H_
#define COMBAT_REPLAY_FORK_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "events/codec.h"
#include "kernel/state.h"
#include "replay/jump.h"
#include "store/event_log.h"

namespace combat::replay {

struct ForkRequest {
  std::string session;
  std::string parent = "main";
  uint64_t at = 0;      // the last shared event; 0 = the parent's head
  std::string branch;   // the new branch's name
  std::string author;   // who forks (required)
  std::string reason;   // why (required)
};

// Creates the branch. From schema version 6 its first event is its fork
// record (a BranchForked change at seq fork_seq + 1, chained to the
// parent's event at the fork point, authored by `author` as GM), written
// with the branch in one batch: the branch's name, parent, fork point,
// author and reason are then hashed and chained, and `verify` checks the
// store's branch record against it. Sessions of earlier schemas keep them
// in the store only. InvalidArgument naming the field when branch, author
// or reason is missing; otherwise the store's errors (AlreadyExists,
// NotFound, OutOfRange naming the valid range). Returns the fork seq.
absl::StatusOr<uint64_t> ForkBranch(store::EventLog& log,
                                    const ForkRequest& request,
                                    const SeekOptions& seek = {});

// Whether `e` is a fork record (a BranchForked change, schema v6).
bool IsForkRecord(const events::EventBuffer& e);

// The fork record of `request` at `fork_seq` (schema v6): `at_fork` is the
// state after the parent's event `fork_seq`, whose hash is `fork_hash`.
absl::StatusOr<events::EventBuffer> ForkRecord(const kernel::State& at_fork,
                                               const events::Digest& fork_hash,
                                               const ForkRequest& request,
                                               uint64_t fork_seq);

// One branch of a session with its head, for listings.
struct BranchInfo {
  store::BranchMeta meta;
  store::Head head;
  int depth = 0;  // 0 for main, 1 for its forks, ...
};

// Every branch of `session`, as a tree in depth-first order (children by
// name), each with its head.
absl::StatusOr<std::vector<BranchInfo>> BranchTree(const store::EventLog& log,
                                                   const std::string& session);

// The tree as text, one branch a line:
//   main  12 events
//     alt  forked at #8 by dana: "what if the goblin missed"  10 events
std::string RenderBranchTree(const std::vector<BranchInfo>& tree);

}  // namespace combat::replay

#endif  // COMBAT_REPLAY_FORK_H_
