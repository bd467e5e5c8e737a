// What changes a branch: submit a command (players and the GM; the author
// and role come from the token), and the GM's undo, fork and what-if.
// Every write runs under its session's lock (context.h), so the expected
// head checked is the head appended to; a refused request writes nothing.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "events/json.h"
#include "events/status_macros.h"
#include "replay/fork.h"
#include "replay/undo.h"
#include "replay/whatif.h"
#include "server/auth.h"
#include "server/context.h"
#include "server/http.h"
#include "server/json_out.h"

namespace combat::server {
namespace {

constexpr char kSession[] = R"(/api/sessions/([^/]+))";
constexpr char kBranch[] = R"(/api/sessions/([^/]+)/branches/([^/]+))";

// The reply to a write: {"events":[...],"duplicate":b,"head":{...}}.
absl::StatusOr<std::string> WrittenJson(Context& ctx, const std::string& session,
                                        const std::string& branch,
                                        const replay::SubmitResult& r) {
  ASSIGN_OR_RETURN(store::Head head, ctx.engine->log().GetHead(session, branch));
  ctx.hub.Announce(session, branch, head.seq);
  ASSIGN_OR_RETURN(std::string items, EventItemsJson(r.events));
  return JsonObject()
      .Raw("events", items)
      .Bool("duplicate", r.duplicate)
      .Raw("head", HeadJson(head))
      .Done();
}

void Submit(Context& ctx, const httplib::Request& req, httplib::Response& res,
            const std::string& session, const std::string& branch) {
  auto run = [&]() -> absl::StatusOr<std::pair<int, std::string>> {
    ASSIGN_OR_RETURN(store::Participant p, Admit(ctx, req, session, branch));
    RETURN_IF_ERROR(RequireNotObserver(p, "submit commands"));
    if (!req.has_param("expected_seq")) {
      return absl::InvalidArgumentError(
          "query parameter 'expected_seq' is required: the head seq the command was "
          "decided against (GET .../head); a stale one gets 409 with the head");
    }
    ASSIGN_OR_RETURN(uint64_t expected, NumberParam(req, "expected_seq"));
    RETURN_IF_ERROR(CheckBodySize(req, ctx.limits.max_command_body, "command"));
    ASSIGN_OR_RETURN(fb::CommandT cmd, events::ParseCommand(req.body));
    if (cmd.id.empty()) {
      return absl::InvalidArgumentError(
          "command field 'id' is required: the idempotency key (a retry with the same id "
          "is applied once)");
    }
    StampAuthority(p, cmd);
    std::lock_guard<std::mutex> lock(ctx.locks.For(session));
    ASSIGN_OR_RETURN(auto done, ctx.engine->log().FindCommand(session, branch, cmd.id));
    if (!done.has_value()) {
      ASSIGN_OR_RETURN(store::Head head, ctx.engine->log().GetHead(session, branch));
      if (head.seq != expected) {
        return std::pair<int, std::string>(
            409, ErrorJson(absl::AbortedError(absl::StrCat(
                               "stale writer: expected head seq ", expected, ", branch '",
                               branch, "' is at ", head.seq,
                               "; read the new events and decide again; nothing was "
                               "written")),
                           absl::StrCat(",\"head\":", HeadJson(head))));
      }
    }
    ASSIGN_OR_RETURN(replay::SubmitResult r, ctx.engine->Submit(session, branch, cmd));
    ASSIGN_OR_RETURN(std::string body, WrittenJson(ctx, session, branch, r));
    return std::pair<int, std::string>(r.duplicate ? 200 : 201, body);
  };
  auto out = run();
  if (!out.ok()) return ReplyError(res, out.status());
  ReplyJson(res, out->first, out->second);
}

absl::StatusOr<std::string> UndoIt(Context& ctx, const httplib::Request& req,
                                   const std::string& session, const std::string& branch) {
  ASSIGN_OR_RETURN(store::Participant p, Admit(ctx, req, session, branch));
  RETURN_IF_ERROR(RequireGm(p, "undo"));
  replay::UndoRequest r;
  r.session = session;
  r.branch = branch;
  r.command_id = Param(req, "command");
  r.author = p.name;
  ASSIGN_OR_RETURN(r.reason, RequiredParam(req, "reason"));
  std::lock_guard<std::mutex> lock(ctx.locks.For(session));
  ASSIGN_OR_RETURN(replay::SubmitResult done, replay::Undo(*ctx.engine, r));
  return WrittenJson(ctx, session, branch, done);
}

// What a fork and a what-if both ask: the GM's token; the parent branch
// (`from`, default main; it must exist), the new branch's `name`, the
// `reason`, the fork point `at` (0: the head); the author is the GM.
template <typename Request>
absl::Status NewBranch(Context& ctx, const httplib::Request& req,
                       const std::string& session, const char* what, Request& r) {
  ASSIGN_OR_RETURN(store::Participant p, Admit(ctx, req, session));
  RETURN_IF_ERROR(RequireGm(p, what));
  r.session = session;
  r.parent = Param(req, "from", "main");
  RETURN_IF_ERROR(CheckBranch(ctx, session, r.parent));
  ASSIGN_OR_RETURN(r.branch, RequiredParam(req, "name"));
  ASSIGN_OR_RETURN(r.reason, RequiredParam(req, "reason"));
  ASSIGN_OR_RETURN(r.at, NumberParam(req, "at"));
  r.author = p.name;
  return absl::OkStatus();
}

absl::StatusOr<std::string> ForkIt(Context& ctx, const httplib::Request& req,
                                   const std::string& session) {
  replay::ForkRequest r;
  RETURN_IF_ERROR(NewBranch(ctx, req, session, "fork", r));
  std::lock_guard<std::mutex> lock(ctx.locks.For(session));
  ASSIGN_OR_RETURN(uint64_t at, ctx.engine->Fork(r));
  ASSIGN_OR_RETURN(store::Head head, ctx.engine->log().GetHead(session, r.branch));
  ctx.hub.Announce(session, r.branch, head.seq);
  return JsonObject()
      .Str("branch", r.branch)
      .Str("parent", r.parent)
      .Uint("fork_seq", at)
      .Raw("head", HeadJson(head))
      .Done();
}

absl::StatusOr<std::string> WhatIfIt(Context& ctx, const httplib::Request& req,
                                     const std::string& session) {
  replay::WhatIfRequest r;
  RETURN_IF_ERROR(NewBranch(ctx, req, session, "what-if", r));
  const std::string change = Param(req, "change", "none");
  replay::WhatIfChange& c = r.change;
  if (change == "die") {
    c.kind = replay::WhatIfChange::Kind::kDie;
    ASSIGN_OR_RETURN(c.seq, NumberParam(req, "seq"));
    ASSIGN_OR_RETURN(uint64_t die, NumberParam(req, "die", 1));
    ASSIGN_OR_RETURN(uint64_t value, NumberParam(req, "value"));
    if (die < 1 || die > 1000 || value > 1000000) {
      return absl::InvalidArgumentError(
          "query parameters 'die' (the die's position in the roll, from 1) and 'value' "
          "(the new face)");
    }
    c.die = static_cast<int>(die - 1);
    c.value = static_cast<int>(value);
  } else if (change == "drop" || change == "replace") {
    c.kind = change == "drop" ? replay::WhatIfChange::Kind::kDrop
                              : replay::WhatIfChange::Kind::kReplace;
    ASSIGN_OR_RETURN(c.seq, NumberParam(req, "seq"));
  } else if (change == "insert") {
    c.kind = replay::WhatIfChange::Kind::kInsert;
  } else if (change != "none") {
    return absl::InvalidArgumentError(absl::StrCat(
        "query parameter 'change' ('", change.substr(0, 40),
        "'): none, die (seq, die, value), replace (seq; the body is the command), drop "
        "(seq) or insert (at; the body is the command)"));
  }
  if (c.kind == replay::WhatIfChange::Kind::kReplace ||
      c.kind == replay::WhatIfChange::Kind::kInsert) {
    RETURN_IF_ERROR(CheckBodySize(req, ctx.limits.max_command_body, "command"));
    ASSIGN_OR_RETURN(c.command, events::ParseCommand(req.body));
  }
  std::lock_guard<std::mutex> lock(ctx.locks.For(session));
  ASSIGN_OR_RETURN(replay::WhatIfResult w, ctx.engine->WhatIf(r));
  ctx.hub.Announce(session, w.branch, w.head);
  std::vector<std::string> reruns;
  for (const replay::Rerun& x : w.reruns) {
    const char* outcome = x.outcome == replay::Rerun::Outcome::kApplied ? "applied"
                          : x.outcome == replay::Rerun::Outcome::kNoLongerApplies
                              ? "no_longer_applies"
                          : x.outcome == replay::Rerun::Outcome::kDropped ? "dropped"
                                                                          : "not_rerun";
    reruns.push_back(JsonObject()
                         .Str("outcome", outcome)
                         .Bool("changed", x.changed)
                         .Str("command_id", x.command_id)
                         .Str("description", x.description)
                         .Str("why", x.why)
                         .Uint("parent_first", x.parent_first)
                         .Uint("parent_last", x.parent_last)
                         .Uint("first", x.first)
                         .Uint("last", x.last)
                         .Bool("same_events", x.same_events)
                         .Done());
  }
  return JsonObject()
      .Str("branch", w.branch)
      .Str("parent", w.parent)
      .Uint("fork_seq", w.fork_seq)
      .Uint("head", w.head)
      .Str("change", w.change)
      .Raw("reruns", JsonArray(reruns))
      .Str("text", replay::RenderWhatIf(w))
      .Done();
}

}  // namespace

void AddWriteRoutes(httplib::Server& http, Context& ctx) {
  using Req = const httplib::Request&;
  using Res = httplib::Response&;
  http.Post(absl::StrCat(kBranch, "/commands"), [&ctx](Req req, Res res) {
    Submit(ctx, req, res, req.matches[1], req.matches[2]);
  });
  http.Post(absl::StrCat(kBranch, "/undo"), [&ctx](Req req, Res res) {
    Answer(res, UndoIt(ctx, req, req.matches[1], req.matches[2]), 201);
  });
  http.Post(absl::StrCat(kSession, "/branches"), [&ctx](Req req, Res res) {
    Answer(res, ForkIt(ctx, req, req.matches[1]), 201);
  });
  http.Post(absl::StrCat(kSession, "/whatif"), [&ctx](Req req, Res res) {
    Answer(res, WhatIfIt(ctx, req, req.matches[1]), 201);
  });
}

}  // namespace combat::server
