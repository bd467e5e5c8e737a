// The table server (`combat serve`, issue 17): one process over the
// embedded RocksDB log, a JSON API over HTTP (cpp-httplib), documented in
// server/openapi.yaml (served at /openapi.yaml), a live stream per branch
// (Server-Sent Events) and roles from per-session tokens (auth.h).
//
//   auto engine = replay::Engine::Open("./data");
//   ServeOptions o;                        // 127.0.0.1, port 0 = any free
//   auto server = TableServer::Start(std::move(*engine), o);
//   (*server)->port();                     // the port bound
//   (*server)->Stop();                     // graceful: streams end, joins
//
// Threads: one pool of `threads` (httplib's task queue) serves requests;
// each open stream holds one of them, so at most `max_watchers` streams are
// open at once (503 beyond), leaving the rest for writers and readers.
#ifndef COMBAT_SERVER_SERVER_H_
#define COMBAT_SERVER_SERVER_H_

#include <memory>
#include <string>
#include <thread>

#include "absl/status/statusor.h"
#include "replay/engine.h"
#include "server/context.h"

namespace httplib {
class Server;
}  // namespace httplib

namespace combat::server {

struct ServeOptions {
  std::string host = "127.0.0.1";
  int port = 0;               // 0: any free port
  size_t threads = 64;        // the request pool
  size_t max_watchers = 48;   // open streams (< threads)
  Limits limits;
};

class TableServer {
 public:
  // Binds `options.host:port` and starts serving on a thread of its own.
  // InvalidArgument for max_watchers >= threads; Unavailable when the
  // address cannot be bound (naming it).
  static absl::StatusOr<std::unique_ptr<TableServer>> Start(
      std::unique_ptr<replay::Engine> engine, const ServeOptions& options);
  ~TableServer();  // Stop()

  int port() const { return port_; }
  const std::string& host() const { return host_; }
  // Stops accepting, ends the open streams, waits for the requests under
  // way. Idempotent; call from one thread.
  void Stop();

 private:
  TableServer() = default;
  std::unique_ptr<Context> ctx_;
  std::unique_ptr<httplib::Server> http_;
  std::thread thread_;
  std::string host_;
  int port_ = 0;
};

// The accept queue of the listening socket (Linux caps it at
// net.core.somaxconn). Connections beyond it would have their SYNs dropped.
inline constexpr int kListenBacklog = 4096;

// The OpenAPI document (server/openapi.yaml, compiled in).
extern const char kOpenApiYaml[];

}  // namespace combat::server

#endif  // COMBAT_SERVER_SERVER_H_
