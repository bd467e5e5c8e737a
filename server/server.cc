#include "server/server.h"

#include <sys/socket.h>

#include <atomic>
#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "httplib.h"
#include "server/http.h"
#include "server/query_params.h"

namespace combat::server {

absl::StatusOr<std::unique_ptr<TableServer>> TableServer::Start(
    std::unique_ptr<replay::Engine> engine, const ServeOptions& options) {
  if (options.threads < 2 || options.max_watchers >= options.threads) {
    return absl::InvalidArgumentError(absl::StrCat(
        "max watchers (", options.max_watchers, ") must be below the threads (",
        options.threads, "): streams must leave threads for writers"));
  }
  std::unique_ptr<TableServer> s(new TableServer());
  s->ctx_ = std::make_unique<Context>(std::move(engine), options.max_watchers,
                                      options.limits);
  // Writes made by other processes on the same log (JetStream: `combat
  // token`, `combat submit`, another server) wake the streams waiting for
  // them; a participants' change makes each stream check its token.
  Context* ctx = s->ctx_.get();
  absl::Status follow =
      ctx->engine->log().Follow([ctx](const store::LogChange& change) {
        if (change.branch == store::kParticipantsBranch) {
          ctx->hub.WakeAll();
        } else {
          ctx->hub.Announce(change.session, change.branch, change.head_seq);
        }
      });
  if (!follow.ok()) return follow;
  s->http_ = std::make_unique<httplib::Server>();
  httplib::Server& http = *s->http_;
  const size_t threads = options.threads;
  http.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  http.set_payload_max_length(options.limits.max_body);
  http.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;
    absl::Status st =
        res.status == 404 ? absl::NotFoundError(absl::StrCat(
                                "no route ", req.method, " ", req.path,
                                " (the routes: GET /openapi.yaml)"))
        : res.status == 413 ? absl::ResourceExhaustedError(
                                  "the body is over the server's limit; nothing was written")
        // The library's own 400, before any route: a malformed request line
        // or headers, or a POST with neither a body nor 'Content-Length: 0'.
        : res.status == 400 ? absl::InvalidArgumentError(
                                  "malformed HTTP request (a POST without a body must send "
                                  "'Content-Length: 0'); nothing was written")
                            : absl::UnknownError(absl::StrCat("HTTP ", res.status));
    const int code = res.status;
    ReplyJson(res, code, ErrorJson(st));
  });
  // A query parameter the route does not take is refused before the route
  // runs (server/query_params.h), naming it and the ones it takes.
  http.set_pre_routing_handler([](const httplib::Request& req, httplib::Response& res) {
    std::vector<std::string> names;
    for (const auto& [name, value] : req.params) names.push_back(name);
    const absl::Status st = CheckQueryParams(ServedQueryRoutes(), req.method, req.path, names);
    if (st.ok()) return httplib::Server::HandlerResponse::Unhandled;
    ReplyError(res, st);
    return httplib::Server::HandlerResponse::Handled;
  });
  http.Get("/openapi.yaml", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(kOpenApiYaml, "application/yaml");
  });
  AddSessionRoutes(http, *s->ctx_);
  AddReadRoutes(http, *s->ctx_);
  AddWriteRoutes(http, *s->ctx_);
  AddStreamRoutes(http, *s->ctx_);
  AddWebRoutes(http, *s->ctx_);
  // The listening socket's accept queue. Debian's libcpp-httplib is built
  // with a backlog of 5 (CPPHTTPLIB_LISTEN_BACKLOG, compiled into the .so):
  // when more connections arrive than the one accepting thread takes in a
  // moment (64 clients reconnecting per request), Linux drops the SYNs
  // beyond it (TcpExtListenOverflows) and each client waits for a SYN
  // retransmit (1 s, 3 s, ...). The socket is ours before the bind (the
  // library's default options, then noted), and listen() again after it
  // raises the queue to the system's limit (net.core.somaxconn).
  auto listen_fd = std::make_shared<std::atomic<int>>(-1);
  http.set_socket_options([listen_fd](socket_t sock) {
    httplib::default_socket_options(sock);
    listen_fd->store(sock);
  });
  s->host_ = options.host;
  if (options.port == 0) {
    s->port_ = http.bind_to_any_port(options.host);
  } else {
    s->port_ = http.bind_to_port(options.host, options.port) ? options.port : -1;
  }
  if (s->port_ <= 0) {
    return absl::UnavailableError(absl::StrCat("cannot listen on ", options.host, ":",
                                               options.port));
  }
  if (::listen(listen_fd->load(), kListenBacklog) != 0) {
    return absl::UnavailableError(absl::StrCat("cannot listen on ", options.host, ":",
                                               s->port_, " with a backlog of ",
                                               kListenBacklog));
  }
  s->thread_ = std::thread([&http] { http.listen_after_bind(); });
  // Running before returning, so that a Stop right away is not lost.
  while (!http.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return s;
}

void TableServer::Stop() {
  if (ctx_) (void)ctx_->engine->log().Follow(nullptr);
  if (!http_) return;
  ctx_->hub.Shutdown();
  http_->stop();
  if (thread_.joinable()) thread_.join();
}

TableServer::~TableServer() { Stop(); }

}  // namespace combat::server
