// The PostgreSQL baseline: one table of events, one row per event (its
// canonical bytes), a unique key (session, branch, seq), on a server
// started by bench/pg_server.h (synchronous_commit on: a commit returns
// after its WAL is fsynced).
//
// Append is one statement (one round trip, its own transaction): the rows
// are inserted only if the branch's head is the expected seq, and the
// unique key refuses a second writer that read the same head. A best case
// for PostgreSQL: no separate BEGIN/SELECT/COMMIT round trips.
//
// One connection per object; not thread-safe (one per writer thread).
#ifndef COMBAT_BENCH_PG_LOG_H_
#define COMBAT_BENCH_PG_LOG_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "events/codec.h"

struct pg_conn;

namespace combat::bench {

class PgLog {
 public:
  // Connects; creates the table when `create` (once, before the writers).
  static absl::StatusOr<std::unique_ptr<PgLog>> Open(const std::string& conninfo,
                                                     bool create);
  ~PgLog();

  // events[begin, end) as one command: Aborted when the head is not
  // `expected_seq` (or another writer won the race: unique violation).
  absl::Status Append(const std::string& session, const std::string& branch,
                      uint64_t expected_seq, const std::string& command_id,
                      const std::vector<events::EventBuffer>& events,
                      size_t begin, size_t end);

 private:
  explicit PgLog(pg_conn* conn) : conn_(conn) {}
  absl::Status Exec(const std::string& sql);
  // The prepared statement name for a command of `n` events.
  absl::StatusOr<std::string> Prepared(size_t n);
  pg_conn* conn_;
  std::map<size_t, std::string> prepared_;
};

}  // namespace combat::bench

#endif  // COMBAT_BENCH_PG_LOG_H_
