// The baseline a user would otherwise pick: an SQLite event table in WAL
// mode, one row per event (its canonical bytes), primary key (session,
// branch, seq). Durable = synchronous=FULL (an fsync per commit, as
// RocksDB's sync=true); fast = synchronous=NORMAL (WAL, no fsync at commit:
// survives a process crash, not power loss, as RocksDB's sync=false).
#ifndef COMBAT_BENCH_SQLITE_LOG_H_
#define COMBAT_BENCH_SQLITE_LOG_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "events/codec.h"

struct sqlite3;
struct sqlite3_stmt;

namespace combat::bench {

class SqliteLog {
 public:
  static absl::StatusOr<std::unique_ptr<SqliteLog>> Open(const std::string& path,
                                                         bool durable);
  ~SqliteLog();

  // One command: BEGIN IMMEDIATE; the head seq must be `expected_seq`
  // (optimistic concurrency, as EventLog::Append); one INSERT per event;
  // COMMIT.
  absl::Status Append(const std::string& session, const std::string& branch,
                      uint64_t expected_seq, const std::string& command_id,
                      const std::vector<events::EventBuffer>& events, size_t begin,
                      size_t end);
  // Bulk: one transaction, one prepared INSERT, every event.
  absl::Status BulkInsert(const std::string& session, const std::string& branch,
                          const std::vector<events::EventBuffer>& events);
  // SELECT bytes ... ORDER BY seq; each row copied into an aligned buffer
  // and Verifier-checked (EventBuffer::FromBytes), as the store does.
  absl::Status Scan(const std::string& session, const std::string& branch,
                    const std::function<absl::Status(const events::EventBuffer&)>&
                        visit);
  // Scan plus the checks the store's scan makes on every event (equal
  // work for the cold replay): the envelope names this session, branch and
  // the next seq from 1, and each prev_hash is the SHA-256 of the event
  // before (32 zero bytes for seq 1). DataLoss naming the seq otherwise.
  absl::Status ScanChecked(
      const std::string& session, const std::string& branch,
      const std::function<absl::Status(const events::EventBuffer&)>& visit);
  // Checkpoints the WAL into the main file (for the disk figure).
  absl::Status Checkpoint();

 private:
  explicit SqliteLog(sqlite3* db) : db_(db) {}
  absl::Status Exec(const char* sql);
  absl::Status Error(const char* what);
  // Inserts one event row inside the open transaction; on failure rolls
  // it back and says why.
  absl::Status InsertRow(const std::string& session, const std::string& branch,
                         const std::string& command_id, const events::EventBuffer& e);
  sqlite3* db_;
  sqlite3_stmt* head_ = nullptr;
  sqlite3_stmt* insert_ = nullptr;
  sqlite3_stmt* scan_ = nullptr;
};

}  // namespace combat::bench

#endif  // COMBAT_BENCH_SQLITE_LOG_H_
