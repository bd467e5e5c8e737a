// What every route shares: the engine over the one database, the
// participants table, the stream hub, per-session write locks and limits.
// Routes (routes_*.cc) are free functions registering handlers that capture
// a Context&; the TableServer (server.h) owns it.
#ifndef COMBAT_SERVER_CONTEXT_H_
#define COMBAT_SERVER_CONTEXT_H_

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "httplib.h"
#include "replay/engine.h"
#include "server/hub.h"
#include "store/participants.h"

namespace combat::server {

struct Limits {
  size_t max_body = 64 << 20;         // any request (an imported bundle)
  size_t max_command_body = 64 << 10; // a command or a roster of a what-if
  size_t max_roster_body = 4 << 20;   // a roster
  uint64_t max_page = 1000;           // events per log page
};

// One mutex per session: a write (submit, undo, fork, what-if) reads the
// head, checks it and appends under it, so the expected-seq check and the
// append cannot be interleaved with another of this process's writes.
class SessionLocks {
 public:
  std::mutex& For(const std::string& session);

 private:
  std::mutex mu_;
  std::map<std::string, std::unique_ptr<std::mutex>> locks_;
};

struct Context {
  Context(std::unique_ptr<replay::Engine> e, size_t max_watchers, Limits l)
      : engine(std::move(e)), participants(engine->log()), hub(max_watchers), limits(l) {}
  std::unique_ptr<replay::Engine> engine;
  store::ParticipantTable participants;
  BranchHub hub;
  SessionLocks locks;
  Limits limits;
};

// NotFound naming the sessions that exist, nearest first, unless `session`
// exists (events/nearest.h).
absl::Status CheckSession(const Context& ctx, const std::string& session);
// The same for a branch of an existing session.
absl::Status CheckBranch(const Context& ctx, const std::string& session,
                         const std::string& branch);

// Route registration, one area each.
void AddSessionRoutes(httplib::Server& http, Context& ctx);  // routes_sessions.cc
void AddReadRoutes(httplib::Server& http, Context& ctx);     // routes_read.cc
void AddWriteRoutes(httplib::Server& http, Context& ctx);    // routes_write.cc
void AddStreamRoutes(httplib::Server& http, Context& ctx);   // sse.cc
void AddWebRoutes(httplib::Server& http, Context& ctx);      // web.cc

}  // namespace combat::server

#endif  // COMBAT_SERVER_CONTEXT_H_
