// EventLog's snapshot cache: derived state stored beside the log, never
// vouched for (store/README.md, "Snapshots").
#include <algorithm>
#include <memory>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "store/snapshot_cache.h"
#include "store/event_log_impl.h"
#include "store/rocks_log.h"
#include "store/keys.h"
#include "store/records.h"
#include "store/rocks_status.h"
#include "store/view.h"

namespace combat::store {

absl::Status RocksSnapshotCache::PutSnapshot(const std::string& session,
                                   const std::string& branch, uint64_t seq,
                                   int32_t ruleset_version,
                                   const std::vector<uint8_t>& state) {
  RETURN_IF_ERROR(CheckId("session", session));
  RETURN_IF_ERROR(CheckId("branch", branch));
  const std::string context = absl::StrCat(
      "session ", session, " branch ", branch, " snapshot at seq ", seq);
  RETURN_IF_ERROR(impl_->CheckWritable(context));
  View view(impl_->db.get(), /*snapshot=*/true);
  ASSIGN_OR_RETURN(BranchMeta meta, view.Branch(session, branch));
  ASSIGN_OR_RETURN(Head head, view.HeadOf(meta));
  if (seq == 0 || seq > head.seq) {
    return absl::OutOfRangeError(absl::StrCat(
        context, ": the branch is at seq ", head.seq));
  }
  // The branch whose own events hold `seq`.
  for (int depth = 0; seq <= meta.fork_seq; ++depth) {
    if (depth > 10000) {
      return absl::DataLossError(
          absl::StrCat(context, ": branch ancestry does not end"));
    }
    ASSIGN_OR_RETURN(meta, view.Branch(session, meta.parent));
  }
  Snapshot record;
  record.branch = meta.branch;
  record.seq = seq;
  record.ruleset_version = ruleset_version;
  record.state = state;
  rocksdb::WriteOptions w;
  w.sync = false;  // derivable: a lost snapshot costs a longer fold
  return FromRocks(
      impl_->db->Put(w, keys::Snapshot(session, meta.branch, ruleset_version, seq),
                     records::EncodeSnapshot(record)),
      context);
}

absl::StatusOr<std::optional<Snapshot>> RocksSnapshotCache::NearestSnapshot(
    const std::string& session, const std::string& branch, uint64_t seq,
    int32_t ruleset_version) const {
  RETURN_IF_ERROR(CheckId("session", session));
  RETURN_IF_ERROR(CheckId("branch", branch));
  View view(impl_->db.get(), /*snapshot=*/true);
  ASSIGN_OR_RETURN(BranchMeta meta, view.Branch(session, branch));
  ASSIGN_OR_RETURN(Head head, view.HeadOf(meta));
  uint64_t limit = seq == 0 ? head.seq : std::min(seq, head.seq);
  rocksdb::ReadOptions options;
  options.verify_checksums = true;
  for (int depth = 0; limit > 0; ++depth) {
    if (depth > 10000) {
      return absl::DataLossError(absl::StrCat(
          "session ", session, " branch ", branch,
          ": branch ancestry does not end"));
    }
    if (limit > meta.fork_seq) {
      // The highest own snapshot in (fork_seq, limit].
      const std::string lower =
          keys::Snapshot(session, meta.branch, ruleset_version, meta.fork_seq + 1);
      rocksdb::Slice lower_slice(lower);
      rocksdb::ReadOptions bounded = options;
      bounded.iterate_lower_bound = &lower_slice;
      std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(bounded));
      const std::string prefix =
          keys::SnapshotPrefix(session, meta.branch, ruleset_version);
      it->SeekForPrev(keys::Snapshot(session, meta.branch, ruleset_version, limit));
      if (it->Valid()) {
        rocksdb::Slice key = it->key();
        uint64_t at = 0;
        const std::string context = absl::StrCat(
            "session ", session, " branch ", meta.branch, " snapshot");
        if (!keys::ParseEventKey(absl::string_view(key.data(), key.size()),
                                 prefix, &at) ||
            at <= meta.fork_seq || at > limit) {
          return absl::DataLossError(absl::StrCat(
              context, ": malformed snapshot key (", key.size(), " bytes)"));
        }
        rocksdb::Slice value = it->value();
        ASSIGN_OR_RETURN(
            Snapshot found,
            records::DecodeSnapshot(absl::string_view(value.data(), value.size()),
                                    at, ruleset_version,
                                    absl::StrCat(context, " at seq ", at)));
        found.branch = meta.branch;
        return std::optional<Snapshot>(std::move(found));
      }
      if (!it->status().ok()) {
        return FromRocks(it->status(),
                         absl::StrCat("session ", session, " branch ",
                                      meta.branch, ": reading snapshots"));
      }
    }
    if (meta.parent.empty()) break;
    limit = std::min(limit, meta.fork_seq);
    ASSIGN_OR_RETURN(meta, view.Branch(session, meta.parent));
  }
  return std::optional<Snapshot>();
}

absl::StatusOr<uint64_t> RocksSnapshotCache::CountSnapshots(
    const std::string& session) const {
  RETURN_IF_ERROR(CheckId("session", session));
  const std::string prefix = keys::SessionSnapshotPrefix(session);
  const std::string end = keys::PrefixEnd(prefix);
  rocksdb::Slice end_slice(end);
  rocksdb::ReadOptions options;
  options.iterate_upper_bound = &end_slice;
  std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(options));
  uint64_t n = 0;
  for (it->Seek(prefix); it->Valid(); it->Next()) ++n;
  if (!it->status().ok()) {
    return FromRocks(it->status(),
                     absl::StrCat("session ", session, ": counting snapshots"));
  }
  return n;
}

}  // namespace combat::store
