#include "bench/sqlite_log.h"

#include <sqlite3.h>

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"

namespace combat::bench {

absl::Status SqliteLog::Error(const char* what) {
  return absl::InternalError(absl::StrCat("sqlite ", what, ": ", sqlite3_errmsg(db_)));
}

absl::Status SqliteLog::Exec(const char* sql) {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : "?";
    sqlite3_free(err);
    return absl::InternalError(absl::StrCat("sqlite: ", sql, ": ", msg));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<SqliteLog>> SqliteLog::Open(const std::string& path,
                                                           bool durable) {
  sqlite3* db = nullptr;
  if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) {
    std::string msg = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    return absl::InternalError(absl::StrCat("sqlite open ", path, ": ", msg));
  }
  std::unique_ptr<SqliteLog> log(new SqliteLog(db));
  RETURN_IF_ERROR(log->Exec("PRAGMA journal_mode=WAL"));
  // Writers on other connections (bench/concurrent_bench.cc) wait for the
  // one writer lock instead of failing with SQLITE_BUSY.
  RETURN_IF_ERROR(log->Exec("PRAGMA busy_timeout=600000"));
  RETURN_IF_ERROR(log->Exec(durable ? "PRAGMA synchronous=FULL"
                                    : "PRAGMA synchronous=NORMAL"));
  RETURN_IF_ERROR(log->Exec(
      "CREATE TABLE IF NOT EXISTS events ("
      " session TEXT NOT NULL, branch TEXT NOT NULL, seq INTEGER NOT NULL,"
      " command TEXT NOT NULL, bytes BLOB NOT NULL,"
      " PRIMARY KEY (session, branch, seq)) WITHOUT ROWID"));
  if (sqlite3_prepare_v2(db,
                         "SELECT coalesce(max(seq), 0) FROM events "
                         "WHERE session = ?1 AND branch = ?2",
                         -1, &log->head_, nullptr) != SQLITE_OK ||
      sqlite3_prepare_v2(db,
                         "INSERT INTO events (session, branch, seq, command, bytes) "
                         "VALUES (?1, ?2, ?3, ?4, ?5)",
                         -1, &log->insert_, nullptr) != SQLITE_OK ||
      sqlite3_prepare_v2(db,
                         "SELECT bytes FROM events WHERE session = ?1 AND "
                         "branch = ?2 ORDER BY seq",
                         -1, &log->scan_, nullptr) != SQLITE_OK) {
    return log->Error("prepare");
  }
  return log;
}

SqliteLog::~SqliteLog() {
  sqlite3_finalize(head_);
  sqlite3_finalize(insert_);
  sqlite3_finalize(scan_);
  sqlite3_close(db_);
}

absl::Status SqliteLog::Append(const std::string& session,
                               const std::string& branch, uint64_t expected_seq,
                               const std::string& command_id,
                               const std::vector<events::EventBuffer>& events,
                               size_t begin, size_t end) {
  RETURN_IF_ERROR(Exec("BEGIN IMMEDIATE"));
  sqlite3_reset(head_);
  sqlite3_bind_text(head_, 1, session.data(), static_cast<int>(session.size()), SQLITE_STATIC);
  sqlite3_bind_text(head_, 2, branch.data(), static_cast<int>(branch.size()), SQLITE_STATIC);
  if (sqlite3_step(head_) != SQLITE_ROW) {
    (void)Exec("ROLLBACK");
    return Error("head");
  }
  const uint64_t head = static_cast<uint64_t>(sqlite3_column_int64(head_, 0));
  sqlite3_reset(head_);
  if (head != expected_seq) {
    (void)Exec("ROLLBACK");
    return absl::AbortedError(absl::StrCat("expected head seq ", expected_seq,
                                           ", branch is at ", head));
  }
  for (size_t i = begin; i < end; ++i) {
    RETURN_IF_ERROR(InsertRow(session, branch, command_id, events[i]));
  }
  return Exec("COMMIT");
}

absl::Status SqliteLog::InsertRow(const std::string& session, const std::string& branch,
                                  const std::string& command_id,
                                  const events::EventBuffer& e) {
  sqlite3_reset(insert_);
  sqlite3_bind_text(insert_, 1, session.data(), static_cast<int>(session.size()), SQLITE_STATIC);
  sqlite3_bind_text(insert_, 2, branch.data(), static_cast<int>(branch.size()), SQLITE_STATIC);
  sqlite3_bind_int64(insert_, 3, static_cast<sqlite3_int64>(e.event().seq()));
  sqlite3_bind_text(insert_, 4, command_id.data(), static_cast<int>(command_id.size()),
                    SQLITE_TRANSIENT);
  sqlite3_bind_blob(insert_, 5, e.bytes().data(), static_cast<int>(e.bytes().size()), SQLITE_STATIC);
  if (sqlite3_step(insert_) != SQLITE_DONE) {
    absl::Status st = Error("insert");
    (void)Exec("ROLLBACK");
    return st;
  }
  return absl::OkStatus();
}

absl::Status SqliteLog::BulkInsert(const std::string& session,
                                   const std::string& branch,
                                   const std::vector<events::EventBuffer>& events) {
  RETURN_IF_ERROR(Exec("BEGIN IMMEDIATE"));
  for (const auto& e : events) {
    const std::string cmd(e.event().command_id() ? e.event().command_id()->str() : "");
    RETURN_IF_ERROR(InsertRow(session, branch, cmd, e));
  }
  return Exec("COMMIT");
}

absl::Status SqliteLog::Scan(
    const std::string& session, const std::string& branch,
    const std::function<absl::Status(const events::EventBuffer&)>& visit) {
  sqlite3_reset(scan_);
  sqlite3_bind_text(scan_, 1, session.data(), static_cast<int>(session.size()), SQLITE_STATIC);
  sqlite3_bind_text(scan_, 2, branch.data(), static_cast<int>(branch.size()), SQLITE_STATIC);
  int rc;
  while ((rc = sqlite3_step(scan_)) == SQLITE_ROW) {
    const void* data = sqlite3_column_blob(scan_, 0);
    const int size = sqlite3_column_bytes(scan_, 0);
    ASSIGN_OR_RETURN(auto e, events::EventBuffer::FromBytes(
                                 data, static_cast<size_t>(size), "sqlite"));
    absl::Status st = visit(e);
    if (!st.ok()) {
      sqlite3_reset(scan_);
      return st;
    }
  }
  sqlite3_reset(scan_);
  if (rc != SQLITE_DONE) return Error("scan");
  return absl::OkStatus();
}

absl::Status SqliteLog::ScanChecked(
    const std::string& session, const std::string& branch,
    const std::function<absl::Status(const events::EventBuffer&)>& visit) {
  uint64_t seq = 0;
  events::Digest prev{};
  return Scan(session, branch, [&](const events::EventBuffer& e) -> absl::Status {
    ++seq;
    const auto& ev = e.event();
    const auto* s = ev.session();
    const auto* b = ev.branch();
    const auto* ph = ev.prev_hash();
    if (ev.seq() != seq || s == nullptr || s->string_view() != session ||
        b == nullptr || b->string_view() != branch) {
      return absl::DataLossError(absl::StrCat(
          "sqlite session ", session, " branch ", branch, " seq ", seq,
          ": the event's envelope names another place"));
    }
    if (ph == nullptr || ph->size() != prev.size() ||
        !std::equal(prev.begin(), prev.end(), ph->begin())) {
      return absl::DataLossError(absl::StrCat(
          "sqlite session ", session, " branch ", branch, " seq ", seq,
          ": prev_hash does not match the event before it"));
    }
    prev = e.hash();
    return visit(e);
  });
}

absl::Status SqliteLog::Checkpoint() {
  return Exec("PRAGMA wal_checkpoint(TRUNCATE)");
}

}  // namespace combat::bench
