#include "bench/pg_log.h"

#include <libpq-fe.h>

#include <cstring>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"

namespace combat::bench {

absl::StatusOr<std::unique_ptr<PgLog>> PgLog::Open(const std::string& conninfo,
                                                   bool create) {
  PGconn* conn = PQconnectdb(conninfo.c_str());
  if (PQstatus(conn) != CONNECTION_OK) {
    std::string msg = PQerrorMessage(conn);
    PQfinish(conn);
    return absl::UnavailableError(absl::StrCat("postgres connect: ", msg));
  }
  std::unique_ptr<PgLog> log(new PgLog(conn));
  if (create) {
    RETURN_IF_ERROR(log->Exec(
        "CREATE TABLE IF NOT EXISTS events ("
        " session text NOT NULL, branch text NOT NULL, seq bigint NOT NULL,"
        " command text NOT NULL, bytes bytea NOT NULL,"
        " PRIMARY KEY (session, branch, seq))"));
  }
  return log;
}

PgLog::~PgLog() { PQfinish(conn_); }

absl::Status PgLog::Exec(const std::string& sql) {
  PGresult* r = PQexec(conn_, sql.c_str());
  const ExecStatusType st = PQresultStatus(r);
  absl::Status out = absl::OkStatus();
  if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
    out = absl::InternalError(
        absl::StrCat("postgres: ", sql, ": ", PQerrorMessage(conn_)));
  }
  PQclear(r);
  return out;
}

absl::StatusOr<std::string> PgLog::Prepared(size_t n) {
  auto it = prepared_.find(n);
  if (it != prepared_.end()) return it->second;
  // $1 session, $2 branch, $3 expected head seq, $4 command, $5.. bytes.
  std::string values;
  for (size_t i = 0; i < n; ++i) {
    absl::StrAppend(&values, i == 0 ? "" : ", ", "(", i + 1, ", $", i + 5,
                    "::bytea)");
  }
  const std::string sql = absl::StrCat(
      "INSERT INTO events (session, branch, seq, command, bytes) "
      "SELECT $1, $2, $3::bigint + v.i, $4, v.b FROM (VALUES ", values,
      ") AS v(i, b) WHERE (SELECT coalesce(max(seq), 0) FROM events "
      "WHERE session = $1 AND branch = $2) = $3::bigint");
  const std::string name = absl::StrCat("append", n);
  PGresult* r = PQprepare(conn_, name.c_str(), sql.c_str(), 0, nullptr);
  const bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
  PQclear(r);
  if (!ok) {
    return absl::InternalError(
        absl::StrCat("postgres prepare: ", PQerrorMessage(conn_)));
  }
  prepared_[n] = name;
  return name;
}

absl::Status PgLog::Append(const std::string& session, const std::string& branch,
                           uint64_t expected_seq, const std::string& command_id,
                           const std::vector<events::EventBuffer>& events,
                           size_t begin, size_t end) {
  const size_t n = end - begin;
  ASSIGN_OR_RETURN(std::string name, Prepared(n));
  const std::string expected = absl::StrCat(expected_seq);
  std::vector<const char*> values = {session.c_str(), branch.c_str(),
                                     expected.c_str(), command_id.c_str()};
  std::vector<int> lengths(4, 0);
  std::vector<int> formats(4, 0);
  for (size_t i = begin; i < end; ++i) {
    values.push_back(reinterpret_cast<const char*>(events[i].bytes().data()));
    lengths.push_back(static_cast<int>(events[i].bytes().size()));
    formats.push_back(1);  // binary bytea
  }
  PGresult* r = PQexecPrepared(conn_, name.c_str(), static_cast<int>(values.size()),
                               values.data(), lengths.data(), formats.data(), 0);
  absl::Status out = absl::OkStatus();
  if (PQresultStatus(r) != PGRES_COMMAND_OK) {
    const char* state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
    if (state != nullptr && std::strcmp(state, "23505") == 0) {
      out = absl::AbortedError(absl::StrCat(
          "expected head seq ", expected_seq, ": another writer won"));
    } else {
      out = absl::InternalError(
          absl::StrCat("postgres append: ", PQerrorMessage(conn_)));
    }
  } else if (std::strcmp(PQcmdTuples(r), "0") == 0) {
    out = absl::AbortedError(absl::StrCat(
        "expected head seq ", expected_seq, ", branch is elsewhere"));
  }
  PQclear(r);
  return out;
}

}  // namespace combat::bench
