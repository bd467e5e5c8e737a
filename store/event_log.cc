#include "store/event_log.h"

#include <algorithm>
#include <memory>
#include <mutex>
#include <utility>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "store/event_log_impl.h"
#include "store/rocks_log.h"
#include "store/rocks_participants.h"
#include "store/rocks_status.h"

namespace combat::store {

absl::Status CheckId(absl::string_view what, const std::string& id) {
  if (ValidId(id)) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("invalid ", what, " id '", id.substr(0, 80),
                   "': ids are 1..64 characters of [A-Za-z0-9_.:-]"));
}

bool ValidId(const std::string& id) {
  if (id.empty() || id.size() > 64) return false;
  for (char c : id) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '_' || c == '.' || c == ':' ||
              c == '-';
    if (!ok) return false;
  }
  return true;
}

RocksEventLog::RocksEventLog(std::unique_ptr<LogImpl> impl)
    : RocksLogReader(impl.get()),
      RocksLogWriter(impl.get()),
      RocksSnapshotCache(impl.get()),
      impl_(std::move(impl)),
      participants_(std::make_unique<RocksParticipants>(impl_.get())) {}

ParticipantStore& RocksEventLog::participants() { return *participants_; }

// One process holds the database (its LOCK file), through one open: no
// other open writes it, so there is never anything to report.
absl::Status RocksEventLog::Follow(ChangeListener) { return absl::OkStatus(); }

RocksEventLog::~RocksEventLog() {
  if (impl_ != nullptr && impl_->db != nullptr) {
    // Nothing to report to: every acknowledged write is already in the WAL.
    rocksdb::Status s = impl_->db->Close();
    (void)s;
  }
}

// ---- Whole-database integrity -----------------------------------------------

absl::Status RocksEventLog::VerifyChecksums() const {
  return FromRocks(impl_->db->VerifyChecksum(),
                   absl::StrCat("database ", impl_->path,
                                ": RocksDB checksum verification"));
}

absl::Status RocksEventLog::SyncWal() {
  RETURN_IF_ERROR(impl_->CheckWritable("syncing the WAL"));
  WriteLocks::Guard all = impl_->locks.LockAll();
  // Every write up to this sequence number is durable after the sync.
  const uint64_t db_seq = impl_->db->GetLatestSequenceNumber();
  RETURN_IF_ERROR(
      FromRocks(impl_->db->FlushWAL(/*sync=*/true),
                absl::StrCat("database ", impl_->path, ": syncing the WAL")));
  std::lock_guard<std::mutex> lock(impl_->ack_mu);
  impl_->last.db_seq = std::max(impl_->last.db_seq, db_seq);
  impl_->RecordLast(AckLog::Durability::kSync);
  return absl::OkStatus();
}

absl::Status RocksEventLog::Compact() {
  RETURN_IF_ERROR(impl_->CheckWritable("compacting"));
  rocksdb::FlushOptions flush;
  RETURN_IF_ERROR(FromRocks(impl_->db->Flush(flush),
                            absl::StrCat("database ", impl_->path, ": flushing")));
  rocksdb::CompactRangeOptions options;
  options.bottommost_level_compaction =
      rocksdb::BottommostLevelCompaction::kForce;
  return FromRocks(impl_->db->CompactRange(options, nullptr, nullptr),
                   absl::StrCat("database ", impl_->path, ": compacting"));
}

}  // namespace combat::store
