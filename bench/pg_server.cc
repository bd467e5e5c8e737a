#include "bench/pg_server.h"

#include <glob.h>
#include <netinet/in.h>
#include <pwd.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <system_error>
#include <vector>

#include "absl/strings/str_cat.h"

namespace combat::bench {
namespace {

// The newest /usr/lib/postgresql/<version>/bin holding initdb.
std::string FindBin() {
  glob_t g;
  std::string best;
  if (glob("/usr/lib/postgresql/*/bin/initdb", 0, nullptr, &g) == 0) {
    for (size_t i = 0; i < g.gl_pathc; ++i) {
      std::string p = g.gl_pathv[i];
      p.resize(p.size() - std::string("/initdb").size());
      if (best.empty() || p > best) best = p;
    }
  }
  globfree(&g);
  return best;
}

int FreePort() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return 0;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = 0;
  socklen_t len = sizeof(a);
  int port = 0;
  if (bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0) {
    port = ntohs(a.sin_port);
  }
  close(fd);
  return port;
}

int Run(const std::string& cmd) {
  const int rc = std::system(cmd.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

}  // namespace

absl::StatusOr<std::unique_ptr<PgServer>> PgServer::Start(int max_connections) {
  std::unique_ptr<PgServer> s(new PgServer);
  s->bin_ = FindBin();
  if (s->bin_.empty()) {
    return absl::UnavailableError(
        "no PostgreSQL binaries under /usr/lib/postgresql/*/bin (apt-get "
        "install postgresql)");
  }
  std::vector<char> buf{'/', 't', 'm', 'p', '/', 'c', 'o', 'm', 'b', 'a', 't',
                        '_', 'p', 'g', '.', 'X', 'X', 'X', 'X', 'X', 'X', '\0'};
  if (mkdtemp(buf.data()) == nullptr) {
    return absl::InternalError("mkdtemp /tmp/combat_pg.XXXXXX failed");
  }
  s->dir_ = buf.data();
  if (geteuid() == 0) {
    passwd* pw = getpwnam("postgres");
    if (pw == nullptr) {
      return absl::UnavailableError(
          "running as root and there is no 'postgres' user to run PostgreSQL");
    }
    if (chown(s->dir_.c_str(), pw->pw_uid, pw->pw_gid) != 0) {
      return absl::InternalError(absl::StrCat("chown ", s->dir_));
    }
    s->run_as_ = "runuser -u postgres --";
  }
  const std::string data = s->dir_ + "/data";
  const std::string log = s->dir_ + "/server.log";
  const std::string initdb =
      absl::StrCat(s->run_as_, " ", s->bin_, "/initdb -D ", data,
                   " -A trust -U bench --no-sync > ", s->dir_,
                   "/initdb.log 2>&1");
  if (Run(initdb) != 0) {
    return absl::InternalError(absl::StrCat("initdb failed: ", initdb, " (see ",
                                            s->dir_, "/initdb.log)"));
  }
  const int port = FreePort();
  // Defaults kept for durability: fsync = on, synchronous_commit = on,
  // full_page_writes = on.
  const std::string opts = absl::StrCat(
      "-c listen_addresses=127.0.0.1 -c port=", port,
      " -c unix_socket_directories=", s->dir_,
      " -c max_connections=", max_connections,
      " -c fsync=on -c synchronous_commit=on");
  const std::string start =
      absl::StrCat(s->run_as_, " ", s->bin_, "/pg_ctl -D ", data, " -l ", log,
                   " -w -t 60 -o '", opts, "' start > ", s->dir_,
                   "/pg_ctl.log 2>&1");
  if (Run(start) != 0) {
    return absl::InternalError(
        absl::StrCat("pg_ctl start failed: ", start, " (see ", log, ")"));
  }
  s->started_ = true;
  s->conninfo_ = absl::StrCat("host=127.0.0.1 port=", port,
                              " user=bench dbname=postgres");
  return s;
}

PgServer::~PgServer() {
  if (started_) {
    Run(absl::StrCat(run_as_, " ", bin_, "/pg_ctl -D ", dir_,
                     "/data -m fast -w stop > /dev/null 2>&1"));
  }
  if (!dir_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
}

}  // namespace combat::bench
