// A consistent read view of the event log (internal to store/).
//
// Every read through one View sees the same state of the database: with
// `snapshot` it pins a RocksDB snapshot, so a Scan never pairs a head with
// events written after it; without, it reads the latest state (for writers,
// which hold EventLog's write lock so nothing moves under them).
//
// All values are untrusted: records are decoded defensively (records.h),
// events are copied into aligned memory and verified (events::EventBuffer),
// cross-checked against their key (seq, session, branch), and every
// iterator's status() is checked after its loop. Damage is DataLoss naming
// the session, branch and seq; it never shortens what a scan returns.
#ifndef COMBAT_STORE_VIEW_H_
#define COMBAT_STORE_VIEW_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "events/codec.h"
#include "rocksdb/db.h"
#include "store/log_types.h"
#include "store/scan_reporter.h"

namespace combat::store {

using Visitor = std::function<absl::Status(const events::EventBuffer&)>;

class View {
 public:
  View(rocksdb::DB* db, bool snapshot);
  ~View();
  View(const View&) = delete;
  View& operator=(const View&) = delete;

  // The value at `key`; nullopt when absent. `context` prefixes errors.
  absl::StatusOr<std::optional<std::string>> Get(
      const std::string& key, absl::string_view context) const;

  // Every key and value under `prefix` (ending in '\0'), in key order.
  absl::StatusOr<std::vector<std::pair<std::string, std::string>>> List(
      const std::string& prefix, absl::string_view context) const;

  // NotFound when the session does not exist.
  absl::StatusOr<SessionMeta> Session(const std::string& session) const;
  // NotFound naming the session or the branch, whichever is missing.
  absl::StatusOr<BranchMeta> Branch(const std::string& session,
                                    const std::string& branch) const;
  // The head of the branch `meta` describes (DataLoss when it is missing or
  // below the fork seq).
  absl::StatusOr<Head> HeadOf(const BranchMeta& meta) const;

  // The range command `command_id` produced in the history of `meta`'s
  // branch: its own commands, and its ancestors' commands whose events lie
  // wholly within the shared prefix.
  absl::StatusOr<std::optional<AppendResult>> Command(
      const BranchMeta& meta, const std::string& command_id) const;

  // LogReader::Scan, on this view: checks every prev_hash link inside the
  // range (and from seq 0 when it starts at 1; a broken one is DataLoss, or
  // handed to `reporter` when there is one), and that nothing is stored
  // past the head. Visited buffers carry their hash (RememberHash).
  // REQUIRES: valid ids.
  absl::Status Scan(const std::string& session, const std::string& branch,
                    uint64_t from, uint64_t to, const Visitor& visit,
                    ScanReporter* reporter = nullptr) const;

  absl::StatusOr<std::vector<std::string>> ListSessions() const;
  absl::StatusOr<std::vector<BranchMeta>> ListBranches(
      const std::string& session) const;

 private:
  // Events lo..hi of one branch's own keys.
  struct Segment {
    std::string branch;
    uint64_t lo = 0;
    uint64_t hi = 0;
  };

  // The segments, in seq order, that make up events 1..to of `meta`'s
  // branch: its own events above the fork seq, then (recursively) its
  // parent's below it.
  absl::StatusOr<std::vector<Segment>> Segments(const BranchMeta& meta,
                                                uint64_t to) const;
  // The parent of `meta` (DataLoss when it is missing: the log is damaged).
  absl::StatusOr<BranchMeta> Parent(const BranchMeta& meta) const;
  // Visits events lo..hi stored under `segment_branch`'s own keys. When
  // `last_hash` is given, the event at hi must hash to it (the head).
  // `chain` carries the hash of the event before lo (when known) in and the
  // hash of the event at hi out: each event's prev_hash must match it (a
  // broken link goes to `reporter` when there is one).
  absl::Status ScanOwn(const std::string& session,
                       const std::string& segment_branch,
                       const std::string& read_branch, uint64_t lo, uint64_t hi,
                       const events::Digest* last_hash,
                       std::optional<events::Digest>* chain,
                       ScanReporter* reporter, const Visitor& visit) const;

  rocksdb::ReadOptions MakeReadOptions() const;

  rocksdb::DB* db_;
  const rocksdb::Snapshot* snapshot_ = nullptr;
};

}  // namespace combat::store

#endif  // COMBAT_STORE_VIEW_H_
