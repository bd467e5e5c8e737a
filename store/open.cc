// RocksEventLog::Open: what may be opened, how, and the check that the database
// RocksDB recovered holds every acknowledged write (store/ack_log.h).
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/options.h"
#include "rocksdb/table.h"
#include "store/ack_log.h"
#include "store/db_dir.h"
#include "store/event_log.h"
#include "store/event_log_impl.h"
#include "store/rocks_log.h"
#include "store/rocks_status.h"
#include "store/wal_check.h"

namespace combat::store {
namespace {

// The table format (store/README.md, "Table format"): 64 KiB blocks (a
// scan is mostly block reads; bigger blocks compress better too), format
// version 5, LZ4 for the levels that are rewritten soon (flushes), zstd
// for the bottommost level, where the bulk of a long log lives and the
// repeated envelope strings of neighbouring events compress away. zstd's
// fast level -3 there: measured on the 1M-event benchmark branch
// (bench/store_bench), 126 bytes/event on disk against 110 at zstd's
// default level (target <= 150), ~7% less CPU per event in a cold replay
// (decompression was a fifth of the reader thread) and a faster bulk
// import. Tables written at another level read the same (each block
// records its own compression).
constexpr int kBottommostZstdLevel = -3;

void ApplyTableFormat(rocksdb::Options* db_options,
                      rocksdb::BlockBasedTableOptions* table) {
  table->block_size = 64 << 10;
  table->format_version = 5;
  db_options->compression = rocksdb::kLZ4Compression;
  db_options->bottommost_compression = rocksdb::kZSTD;
  db_options->bottommost_compression_opts.level = kBottommostZstdLevel;
  db_options->bottommost_compression_opts.enabled = true;
}

rocksdb::Options DbOptions(const Options& options) {
  rocksdb::Options db_options;
  db_options.create_if_missing = options.create_if_missing;
  if (options.env != nullptr) db_options.env = options.env;
  // Measured on RocksDB 7.8.3 (design.md, "Storage facts"): the default
  // recovery mode opened "fine" after one flipped byte mid-WAL and dropped
  // acknowledged events; this mode refuses to open instead, and still drops
  // a torn (never acknowledged) tail.
  db_options.wal_recovery_mode =
      rocksdb::WALRecoveryMode::kTolerateCorruptedTailRecords;
  db_options.paranoid_checks = true;
  // The MANIFEST records every WAL's creation and deletion (and the synced
  // size of closed ones): a WAL that is deleted, or cut below its synced
  // size, refuses to open, naming the file.
  db_options.track_and_verify_wals_in_manifest = true;
  // Group commit (store/README.md, "Writes"): the write group's leader
  // inserts every batch of the group into the memtable itself, after the
  // one WAL sync. Letting each writer insert its own batch in parallel
  // (RocksDB's default) wakes every follower twice per group; on this
  // 2-core machine that cost more CPU per command than it saved
  // (bench/concurrent_bench: 71 -> 54 µs of CPU per command at 64
  // sessions, 81 -> 69 at 8).
  db_options.allow_concurrent_memtable_write = false;
  // Every Append looks up its command marker, which is almost always
  // absent: a Bloom filter answers those misses without reading SST data.
  rocksdb::BlockBasedTableOptions table;
  table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  ApplyTableFormat(&db_options, &table);
  db_options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  return db_options;
}

absl::Status OpenError(const rocksdb::Status& s, const std::string& path) {
  bool in_this_process = false;
  if (IsLockConflict(s, &in_this_process)) {
    return absl::UnavailableError(
        in_this_process
            ? absl::StrCat("database ", path,
                           " is in use: it is already open in this process")
            : absl::StrCat("database ", path, " is in use by another process"));
  }
  if (s.IsInvalidArgument() && absl::StrContains(s.ToString(), "does not exist")) {
    return absl::NotFoundError(absl::StrCat("database ", path, " does not exist"));
  }
  return FromRocks(s, absl::StrCat("opening database ", path));
}

// DataLoss when the recovered database is behind the last acknowledged
// write recorded in COMBAT-ACKED.
absl::Status CheckAcked(const EventLog& log, rocksdb::DB* db,
                        const std::string& path, const Acked& acked) {
  const std::string where = absl::StrCat(path, "/", kAckFileName);
  const uint64_t recovered = db->GetLatestSequenceNumber();
  const std::string what =
      acked.session.empty()
          ? std::string()
          : absl::StrCat(" (session ", acked.session, " branch ", acked.branch,
                         " at seq ", acked.head_seq, ")");
  if (recovered < acked.db_seq) {
    return absl::DataLossError(absl::StrCat(
        "database ", path, " has lost acknowledged writes: RocksDB recovered "
        "writes up to #", recovered, ", but write #", acked.db_seq, what,
        " was acknowledged (", where, "); a WAL file, a MANIFEST record or a "
        "table file is missing or damaged. Restore the database from a copy"));
  }
  if (acked.session.empty()) return absl::OkStatus();
  absl::StatusOr<Head> head = log.GetHead(acked.session, acked.branch);
  if (!head.ok() && head.status().code() != absl::StatusCode::kNotFound) {
    // A damaged branch or head record: every read of it says so (DataLoss
    // naming the branch); it is not a shorter log.
    return absl::OkStatus();
  }
  const std::string lost = absl::StrCat(
      "database ", path, " has lost acknowledged events: session ",
      acked.session, " branch ", acked.branch, " was acknowledged up to seq ",
      acked.head_seq, " (", where, ")");
  if (!head.ok()) {
    return absl::DataLossError(
        absl::StrCat(lost, ", but the branch is missing: ", head.status().message()));
  }
  if (head->seq < acked.head_seq) {
    return absl::DataLossError(
        absl::StrCat(lost, ", but its head is seq ", head->seq));
  }
  if (head->seq == acked.head_seq && head->hash != acked.head_hash) {
    return absl::DataLossError(absl::StrCat(
        lost, " with head hash ", events::Hex(acked.head_hash),
        ", but its head at that seq hashes to ", events::Hex(head->hash)));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status LogImpl::CheckWritable(absl::string_view context) const {
  if (!read_only) return absl::OkStatus();
  return absl::FailedPreconditionError(absl::StrCat(
      context, ": database ", path, " was opened read-only"));
}

void LogImpl::NoteWrite(uint64_t db_seq, const std::string& session,
                        const std::string& branch, const Head& head) {
  if (db_seq < last.db_seq) return;  // a newer write is already noted
  last.db_seq = db_seq;
  last.session = session;
  last.branch = branch;
  last.head_seq = head.seq;
  last.head_hash = head.hash;
}

void LogImpl::RecordLast(AckLog::Durability durability) {
  if (durability == AckLog::Durability::kSync) {
    ack_synced = std::chrono::steady_clock::now();
  }
  if (acks != nullptr && acks->Record(last, durability).ok()) return;
  // The file may end in a partial record now: start it afresh (holding
  // `last`, durably); if that fails too, the next write tries again.
  acks.reset();
  absl::StatusOr<std::unique_ptr<AckLog>> fresh =
      AckLog::Start(db_options.env, path, last);
  if (fresh.ok()) acks = *std::move(fresh);
}

namespace {
// How stale COMBAT-ACKED's fsync may get while synced writes go on
// (store/README.md, "Durability"): its records are written after every
// synced write, and fsynced by the first write this long after the last
// fsync, so a durable append pays one fdatasync (the WAL's), not two.
constexpr std::chrono::milliseconds kAckSyncInterval(100);
}  // namespace

absl::Status LogImpl::Write(rocksdb::WriteBatch* batch,
                            absl::string_view context,
                            const std::string& session,
                            const std::string& branch, const Head& head) {
  if (sink != nullptr) return sink->Write(batch, context, session, branch, head);
  rocksdb::WriteOptions w;
  w.sync = options.sync;
  // Every write up to this number was published before this one started,
  // so it is in the WAL ahead of it, durable once this synced write
  // returns. (The number after the write could name a later unsynced
  // write of another thread, e.g. a snapshot.)
  const uint64_t before = db->GetLatestSequenceNumber();
  RETURN_IF_ERROR(FromRocks(db->Write(w, batch), context));
  std::lock_guard<std::mutex> lock(ack_mu);
  NoteWrite(before, session, branch, head);
  if (options.sync) {
    const bool due =
        std::chrono::steady_clock::now() - ack_synced >= kAckSyncInterval;
    RecordLast(due ? AckLog::Durability::kSync : AckLog::Durability::kFlush);
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<RocksEventLog>> RocksEventLog::Open(
    const std::string& path, Options options) {
  const bool read_only = options.access == Options::Access::kReadOnly;
  rocksdb::Options db_options = DbOptions(options);
  if (read_only) db_options.create_if_missing = false;
  RETURN_IF_ERROR(CheckDatabaseDir(
      db_options.env, path,
      db_options.create_if_missing ? MayCreate::kYes : MayCreate::kNo));
  // RocksDB takes some damaged WAL record headers for the end of the log
  // and drops what follows without an error; refuse those first
  // (store/wal_check.h).
  RETURN_IF_ERROR(CheckWalFiles(db_options.env, path));
  // Read before the database: a writer in another process appends to this
  // file only after its write is in the WAL, so everything it names is
  // there when a read-only open recovers the WAL afterwards.
  ASSIGN_OR_RETURN(std::optional<Acked> acked, ReadAcked(db_options.env, path));
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s =
      read_only ? rocksdb::DB::OpenForReadOnly(db_options, path, &raw)
                : rocksdb::DB::Open(db_options, path, &raw);
  std::unique_ptr<rocksdb::DB> db(raw);
  if (!s.ok()) return OpenError(s, path);
  auto impl = std::make_unique<LogImpl>();
  impl->path = path;
  impl->options = options;
  impl->db_options = db_options;
  impl->db = std::move(db);
  impl->read_only = read_only;
  LogImpl* state = impl.get();
  std::unique_ptr<RocksEventLog> log(new RocksEventLog(std::move(impl)));
  if (acked) RETURN_IF_ERROR(CheckAcked(*log, state->db.get(), path, *acked));
  if (!read_only) {
    Acked start = acked.value_or(Acked{});
    start.db_seq = state->db->GetLatestSequenceNumber();
    std::lock_guard<std::mutex> lock(state->ack_mu);
    state->last = start;
    ASSIGN_OR_RETURN(state->acks, AckLog::Start(db_options.env, path, start));
    state->ack_synced = std::chrono::steady_clock::now();
  }
  return log;
}

bool RocksEventLog::read_only() const { return impl_->read_only; }

rocksdb::DB* RocksEventLog::db() { return impl_->db.get(); }

void RocksEventLog::SetSink(BatchSink* sink) { impl_->sink = sink; }

}  // namespace combat::store
