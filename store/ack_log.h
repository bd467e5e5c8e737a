// The record of the last acknowledged write, kept beside RocksDB's files
// (internal to store/).
//
// Why: RocksDB recovers whatever its WAL, MANIFEST and table files still
// hold. When one of them is damaged in a way that still parses (a WAL cut
// at a record boundary or deleted, the MANIFEST's last edit lost, a table
// file gone with the WAL that fed it), it opens "fine" with a shorter log.
// Nothing inside the database can tell, so this file records, after every
// acknowledged write, RocksDB's write sequence number and the head (seq and
// hash) of the branch written. `EventLog::Open` compares the recovered
// database against the last record and refuses one that is behind.
//
// File: <db>/COMBAT-ACKED, a sequence of records, each
//   "CMBA" | be32 payload length | payload | be32 CRC-32C of all before it
// payload: be64 RocksDB sequence | be32 len + session | be32 len + branch |
//   be64 head seq | 32-byte head hash.
// The reader takes the last record of the valid prefix: a torn or damaged
// record makes it fall back to an earlier one, which is accepted (it is
// behind the database, never ahead of it).
//
// Crash consistency: a record is appended only after the RocksDB write it
// describes returned, so the file is never ahead of the database; a kill
// -9 between the two leaves it one write behind, which opens. With
// Options::sync every synced write's record is written (kFlush) and the
// file fsynced (kSync) at most 100 ms apart and at close, so a power loss
// leaves it behind at worst, never ahead (store/README.md, "Durability");
// without Options::sync, records are written only at sync points (SyncWal,
// bulk import), so a power loss that takes unsynced WAL data takes no
// recorded write with it.
// At every read-write open the file is rewritten (temp file, fsync,
// rename, directory fsync) to hold one record, so it never grows past one
// process's writes and never carries a torn record into the middle.
#ifndef COMBAT_STORE_ACK_LOG_H_
#define COMBAT_STORE_ACK_LOG_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "events/hash.h"

namespace rocksdb {
class Env;
class WritableFile;
}  // namespace rocksdb

namespace combat::store {

inline constexpr char kAckFileName[] = "COMBAT-ACKED";

struct Acked {
  uint64_t db_seq = 0;   // rocksdb::DB::GetLatestSequenceNumber() after it
  std::string session;   // "" = no branch recorded (db_seq only)
  std::string branch;
  uint64_t head_seq = 0;
  events::Digest head_hash{};
};

std::string EncodeAcked(const Acked& acked);

// The last valid record of <db>/COMBAT-ACKED; nullopt when the file is
// absent or holds no valid record (a database written before this file
// existed, or the file itself lost: nothing to compare against).
absl::StatusOr<std::optional<Acked>> ReadAcked(rocksdb::Env* env,
                                               const std::string& db);

// Appends records for one read-write EventLog. Not thread-safe: the
// EventLog calls it under its write mutex.
class AckLog {
 public:
  // Rewrites <db>/COMBAT-ACKED to hold `start` alone (durably), then keeps
  // it open for appending.
  static absl::StatusOr<std::unique_ptr<AckLog>> Start(rocksdb::Env* env,
                                                       const std::string& db,
                                                       const Acked& start);
  ~AckLog();
  AckLog(const AckLog&) = delete;
  AckLog& operator=(const AckLog&) = delete;

  enum class Durability { kSync, kFlush };
  // Appends `acked`; kSync fsyncs it (call after a synced RocksDB write).
  absl::Status Record(const Acked& acked, Durability durability);

 private:
  AckLog(std::string path, std::unique_ptr<rocksdb::WritableFile> file);
  std::string path_;
  std::unique_ptr<rocksdb::WritableFile> file_;
};

}  // namespace combat::store

#endif  // COMBAT_STORE_ACK_LOG_H_
