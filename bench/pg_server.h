// A throwaway PostgreSQL server for the benchmarks: Debian's `postgresql`
// binaries (/usr/lib/postgresql/<version>/bin), a fresh cluster made by
// `initdb` in a temp dir, started with `pg_ctl` on 127.0.0.1 at a free
// port (and a Unix socket in the temp dir), stopped (`pg_ctl stop -m fast`)
// and deleted by the destructor.
//
// PostgreSQL refuses to run as root: when this process is root, every
// command runs as the `postgres` user (`runuser -u postgres --`, the
// Debian package's system user) and the temp dir is handed to it.
// Durability is PostgreSQL's default: fsync on, synchronous_commit on,
// wal_sync_method its Linux default (fdatasync).
//
// Not thread-safe; one server per object.
#ifndef COMBAT_BENCH_PG_SERVER_H_
#define COMBAT_BENCH_PG_SERVER_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"

namespace combat::bench {

class PgServer {
 public:
  // Unavailable when no PostgreSQL binaries are installed; Internal when
  // initdb or pg_ctl fail (their log is named in the message).
  static absl::StatusOr<std::unique_ptr<PgServer>> Start(int max_connections);
  ~PgServer();

  // A libpq connection string for the server's `postgres` database.
  const std::string& conninfo() const { return conninfo_; }
  // "runuser -u postgres" or "" (not root).
  const std::string& run_as() const { return run_as_; }

 private:
  PgServer() = default;
  std::string dir_;
  std::string bin_;
  std::string run_as_;
  std::string conninfo_;
  bool started_ = false;
};

}  // namespace combat::bench

#endif  // COMBAT_BENCH_PG_SERVER_H_
