// combat serve: the table server over the database (server/server.h), until
// SIGTERM or SIGINT; combat token: a participant's token for a session made
// outside the server (by `new`, `play` or `import`), from the trusted side
// (whoever holds the database).
#include <csignal>
#include <pthread.h>

#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "replay/cli_verbs.h"
#include "kernel/authority.h"
#include "server/auth.h"
#include "server/server.h"
#include "store/participants.h"

namespace combat::replay {
namespace {

// --listen HOST:PORT (default 127.0.0.1:0, any free port).
absl::Status ParseListen(const std::string& text, server::ServeOptions& o) {
  const size_t colon = text.rfind(':');
  int port = -1;
  if (colon == std::string::npos || colon == 0 ||
      !absl::SimpleAtoi(text.substr(colon + 1), &port) || port < 0 || port > 65535) {
    return absl::InvalidArgumentError(absl::StrCat(
        "flag --listen ('", text, "'): HOST:PORT, e.g. 127.0.0.1:8080 (port 0: any free port)"));
  }
  o.host = text.substr(0, colon);
  o.port = port;
  return absl::OkStatus();
}

}  // namespace

absl::Status VerbServe(const Flags& f, std::ostream& out) {
  ASSIGN_OR_RETURN(std::string db, Required(f, "db"));
  server::ServeOptions o;
  RETURN_IF_ERROR(ParseListen(f.Get("listen", "127.0.0.1:0"), o));
  if (f.Has("threads")) {
    ASSIGN_OR_RETURN(uint64_t n, Number(f, "threads"));
    o.threads = n;
    o.max_watchers = n > 16 ? n - 16 : n / 2;
  }
  if (f.Has("max-watchers")) {
    ASSIGN_OR_RETURN(uint64_t n, Number(f, "max-watchers"));
    o.max_watchers = n;
  }
  // SIGTERM and SIGINT are taken by this thread (sigwait below): blocked
  // before any other thread starts (RocksDB's, the server's), which inherit
  // the mask, so none of them is killed by one.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  ASSIGN_OR_RETURN(auto engine, OpenDb(db, DbUse::kCreate));
  ASSIGN_OR_RETURN(auto server, server::TableServer::Start(std::move(engine), o));
  out << "listening on http://" << server->host() << ":" << server->port() << std::endl;
  int sig = 0;
  sigwait(&signals, &sig);
  out << "stopping (" << (sig == SIGINT ? "SIGINT" : "SIGTERM") << ")" << std::endl;
  server->Stop();
  out << "stopped" << std::endl;
  return absl::OkStatus();
}

absl::Status VerbToken(const Flags& f, std::ostream& out) {
  ASSIGN_OR_RETURN(std::string db, Required(f, "db"));
  if (f.Get("role") == "operator") {
    // The server's operator: creates and imports sessions, revokes tokens.
    const std::string name = f.Get("name", "operator");
    ASSIGN_OR_RETURN(auto engine, OpenDb(db, DbUse::kCreate));
    ASSIGN_OR_RETURN(std::string token, server::NewToken());
    store::ParticipantTable table(engine->log());
    RETURN_IF_ERROR(table.AddOperator(name, server::TokenHash(token)));
    out << token << "\n";
    return absl::OkStatus();
  }
  store::Participant p;
  ASSIGN_OR_RETURN(p.session, Required(f, "session"));
  p.name = f.Get("name", "gm");
  const std::string role = f.Get("role", "gm");
  std::optional<store::ParticipantRole> parsed = store::ParseRole(role);
  if (!parsed) {
    return absl::InvalidArgumentError(
        absl::StrCat("flag --role ('", role, "'): gm, player, observer or operator"));
  }
  p.role = *parsed;
  ASSIGN_OR_RETURN(auto engine, OpenDb(db, DbUse::kWrite));
  if (p.role == store::ParticipantRole::kPlayer) {
    ASSIGN_OR_RETURN(kernel::State state, engine->StateAt(p.session, "main"));
    if (!kernel::IsPlayer(state, p.name)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "flag --name: '", p.name, "' plays no combatant of session '", p.session,
          "' (a player is a roster combatant's 'player')"));
    }
  }
  ASSIGN_OR_RETURN(std::string token, server::NewToken());
  store::ParticipantTable table(engine->log());
  RETURN_IF_ERROR(table.Add(p, server::TokenHash(token)));
  out << token << "\n";
  return absl::OkStatus();
}

}  // namespace combat::replay
