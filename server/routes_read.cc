// What any participant of a session may read: heads, status and legal
// acts, the state at any event, log pages, explanations, the branch tree,
// diffs, verification and the exported bundle.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "events/hash.h"
#include "events/json.h"
#include "events/status_macros.h"
#include "replay/anchor.h"
#include "replay/bundle.h"
#include "replay/diff.h"
#include "replay/explain.h"
#include "replay/fork.h"
#include "replay/render.h"
#include "replay/status.h"
#include "replay/verify.h"
#include "server/auth.h"
#include "server/context.h"
#include "server/http.h"
#include "server/json_out.h"

namespace combat::server {
namespace {

constexpr char kSession[] = R"(/api/sessions/([^/]+))";
constexpr char kBranch[] = R"(/api/sessions/([^/]+)/branches/([^/]+))";

absl::StatusOr<std::string> Heads(Context& ctx, const httplib::Request& req,
                                  const std::string& session) {
  RETURN_IF_ERROR(Admit(ctx, req, session).status());
  ASSIGN_OR_RETURN(std::vector<replay::PublishedHead> heads,
                   replay::ReadHeads(ctx.engine->log(), session));
  RETURN_IF_ERROR(replay::SignHeads(ctx.engine->log(), session, heads));
  // RenderHeads' JSON Lines, one head a line, as one array.
  std::vector<std::string> lines =
      absl::StrSplit(replay::RenderHeads(heads, true), '\n', absl::SkipEmpty());
  return JsonObject().Raw("heads", JsonArray(lines)).Done();
}

absl::StatusOr<std::string> Head(Context& ctx, const httplib::Request& req,
                                 const std::string& session, const std::string& branch) {
  RETURN_IF_ERROR(Admit(ctx, req, session, branch).status());
  ASSIGN_OR_RETURN(store::Head head, ctx.engine->log().GetHead(session, branch));
  return HeadJson(head);
}

absl::StatusOr<std::string> Status(Context& ctx, const httplib::Request& req,
                                   const std::string& session, const std::string& branch) {
  RETURN_IF_ERROR(Admit(ctx, req, session, branch).status());
  ASSIGN_OR_RETURN(replay::TableStatus st,
                   ctx.engine->Status(session, branch, Param(req, "for")));
  std::string json = replay::StatusJson(st);
  while (!json.empty() && json.back() == '\n') json.pop_back();
  return json;
}

absl::StatusOr<std::string> State(Context& ctx, const httplib::Request& req,
                                  const std::string& session, const std::string& branch) {
  RETURN_IF_ERROR(Admit(ctx, req, session, branch).status());
  ASSIGN_OR_RETURN(uint64_t at, NumberParam(req, "at"));
  ASSIGN_OR_RETURN(store::Head head, ctx.engine->log().GetHead(session, branch));
  if (at > head.seq) {
    return absl::OutOfRangeError(absl::StrCat("query parameter 'at' (", at,
                                              "): branch '", branch, "' has events 1..",
                                              head.seq, " (0 = the head)"));
  }
  ASSIGN_OR_RETURN(kernel::State s, ctx.engine->StateAt(session, branch, at));
  ASSIGN_OR_RETURN(std::string state, StateJson(s));
  return JsonObject().Uint("seq", at == 0 ? head.seq : at).Raw("state", state).Done();
}

absl::StatusOr<std::string> Events(Context& ctx, const httplib::Request& req,
                                   const std::string& session, const std::string& branch) {
  RETURN_IF_ERROR(Admit(ctx, req, session, branch).status());
  ASSIGN_OR_RETURN(uint64_t from, NumberParam(req, "from", 1));
  ASSIGN_OR_RETURN(uint64_t limit, NumberParam(req, "limit", 100));
  ASSIGN_OR_RETURN(uint64_t last, NumberParam(req, "to"));  // 0: no bound
  if (from == 0) from = 1;
  if (limit == 0 || limit > ctx.limits.max_page) {
    return absl::InvalidArgumentError(absl::StrCat(
        "query parameter 'limit' (", limit, "): 1..", ctx.limits.max_page));
  }
  ASSIGN_OR_RETURN(store::Head head, ctx.engine->log().GetHead(session, branch));
  std::vector<std::string> items;
  uint64_t to = 0;
  if (from <= head.seq) {
    to = std::min(head.seq, from + limit - 1);
    if (last != 0) to = std::min(to, std::max(last, from));
    ASSIGN_OR_RETURN(std::vector<events::EventBuffer> evs,
                     ctx.engine->Events(session, branch, from, to));
    // Lines as `combat log` prints them: voided events marked.
    ASSIGN_OR_RETURN(kernel::State at_head, ctx.engine->StateAt(session, branch, head.seq));
    for (const events::EventBuffer& e : evs) {
      ASSIGN_OR_RETURN(std::string item,
                       EventItemJson(e, replay::RenderEventAt(e.event(), at_head)));
      items.push_back(std::move(item));
    }
  }
  JsonObject out;
  out.Str("session", session).Str("branch", branch).Raw("head", HeadJson(head));
  out.Uint("from", from).Raw("events", JsonArray(items));
  if (to != 0 && to < head.seq && (last == 0 || to < last)) {
    out.Uint("next", to + 1);
  } else {
    out.Null("next");
  }
  return out.Done();
}

absl::StatusOr<std::string> ExplainIt(Context& ctx, const httplib::Request& req,
                                      const std::string& session,
                                      const std::string& branch) {
  RETURN_IF_ERROR(Admit(ctx, req, session, branch).status());
  replay::ExplainRequest r;
  r.session = session;
  r.branch = branch;
  ASSIGN_OR_RETURN(r.at, NumberParam(req, "at"));
  ASSIGN_OR_RETURN(r.event, NumberParam(req, "event"));
  r.combatant = Param(req, "combatant");
  r.resource = Param(req, "resource");
  r.condition = Param(req, "condition");
  r.position = FlagParam(req, "position");
  ASSIGN_OR_RETURN(uint64_t pending, NumberParam(req, "pending"));
  if (pending > UINT32_MAX) {
    return absl::InvalidArgumentError("query parameter 'pending': a pending act's id");
  }
  r.pending = static_cast<uint32_t>(pending);
  auto rules = ctx.engine->RulesetOf(session);
  ASSIGN_OR_RETURN(std::string text,
                   replay::Explain(ctx.engine->log(), rules.ok() ? *rules : nullptr, r,
                                   ctx.engine->seek_options()));
  JsonObject out;
  out.Str("text", text);
  if (!rules.ok()) out.Str("note", rules.status().message());
  return out.Done();
}

absl::StatusOr<std::string> Branches(Context& ctx, const httplib::Request& req,
                                     const std::string& session) {
  RETURN_IF_ERROR(Admit(ctx, req, session).status());
  ASSIGN_OR_RETURN(std::vector<replay::BranchInfo> tree,
                   replay::BranchTree(ctx.engine->log(), session));
  std::vector<std::string> items;
  for (const replay::BranchInfo& b : tree) {
    items.push_back(JsonObject()
                        .Str("branch", b.meta.branch)
                        .Str("parent", b.meta.parent)
                        .Uint("fork_seq", b.meta.fork_seq)
                        .Str("author", b.meta.author)
                        .Str("reason", b.meta.reason)
                        .Int("depth", b.depth)
                        .Raw("head", HeadJson(b.head))
                        .Done());
  }
  return JsonObject().Raw("branches", JsonArray(items)).Done();
}

std::string FieldsJson(const std::vector<replay::FieldDiff>& fields) {
  std::vector<std::string> items;
  for (const replay::FieldDiff& f : fields) {
    items.push_back(JsonObject()
                        .Str("scope", f.scope)
                        .Str("field", f.field)
                        .Str("a", f.a)
                        .Str("b", f.b)
                        .Done());
  }
  return JsonArray(items);
}

absl::StatusOr<std::string> DiffIt(Context& ctx, const httplib::Request& req,
                                   const std::string& session) {
  RETURN_IF_ERROR(Admit(ctx, req, session).status());
  ASSIGN_OR_RETURN(std::string a_text, RequiredParam(req, "a"));
  ASSIGN_OR_RETURN(std::string b_text, RequiredParam(req, "b"));
  ASSIGN_OR_RETURN(replay::Point a, replay::ParsePoint(a_text));
  ASSIGN_OR_RETURN(replay::Point b, replay::ParsePoint(b_text));
  RETURN_IF_ERROR(CheckBranch(ctx, session, a.branch));
  RETURN_IF_ERROR(CheckBranch(ctx, session, b.branch));
  ASSIGN_OR_RETURN(replay::DiffResult d, replay::Diff(ctx.engine->log(), session, a, b,
                                                      ctx.engine->seek_options()));
  auto point = [](const replay::Point& p) {
    return JsonObject().Str("branch", p.branch).Uint("seq", p.seq).Done();
  };
  JsonObject out;
  out.Str("session", session).Raw("a", point(d.a)).Raw("b", point(d.b));
  out.Uint("shared", d.shared)
      .Uint("first_divergent", d.first_divergent)
      .Uint("first_divergent_b", d.first_divergent_b);
  for (const auto& [key, ev] : {std::pair{"a_event", &d.a_event}, {"b_event", &d.b_event}}) {
    if (ev->has_value()) {
      ASSIGN_OR_RETURN(std::string item,
                       EventItemJson(**ev, replay::RenderEvent((*ev)->event())));
      out.Raw(key, item);
    } else {
      out.Null(key);
    }
  }
  out.Raw("event_fields", FieldsJson(d.event_fields))
      .Raw("state", FieldsJson(d.state))
      .Str("text", replay::RenderDiff(d));
  return out.Done();
}

absl::StatusOr<std::string> VerifyIt(Context& ctx, const httplib::Request& req,
                                     const std::string& session) {
  RETURN_IF_ERROR(Admit(ctx, req, session).status());
  const std::string branch = Param(req, "branch");
  if (!branch.empty()) RETURN_IF_ERROR(CheckBranch(ctx, session, branch));
  auto rules = ctx.engine->RulesetOf(session);
  replay::VerifyOptions options;
  options.redecide = rules.ok();
  ASSIGN_OR_RETURN(replay::VerifyReport r,
                   replay::VerifySession(ctx.engine->log(), rules.ok() ? *rules : nullptr,
                                         session, branch, FlagParam(req, "checksums"),
                                         options));
  if (!rules.ok()) {
    r.notes.push_back(
        absl::StrCat("declarations not re-decided: ", rules.status().message()));
  }
  JsonObject out;
  out.Bool("ok", r.ok())
      .Str("session", r.session)
      .Strs("branches", r.branches)
      .Uint("events", r.events)
      .Uint("commands_redecided", r.commands_redecided)
      .Uint("seeded_dice_checked", r.seeded_dice_checked)
      .Bool("seed_known", r.seed_known)
      .Bool("checksums_checked", r.checksums_checked)
      .Strs("notes", r.notes);
  if (r.mismatch) {
    out.Raw("mismatch", JsonObject()
                            .Str("check", r.mismatch->check)
                            .Str("branch", r.mismatch->branch)
                            .Uint("seq", r.mismatch->seq)
                            .Str("summary", r.mismatch->summary)
                            .Str("details", r.mismatch->details)
                            .Done());
  } else {
    out.Null("mismatch");
  }
  out.Str("text", replay::RenderVerifyReport(r));
  return out.Done();
}

void Export(Context& ctx, const httplib::Request& req, httplib::Response& res,
            const std::string& session) {
  auto p = Admit(ctx, req, session);
  if (!p.ok()) return ReplyError(res, p.status());
  const bool with_secret = FlagParam(req, "with_secret");
  if (with_secret) {
    if (absl::Status st = RequireGm(*p, "exporting with the dice secret"); !st.ok()) {
      return ReplyError(res, st);
    }
  }
  std::vector<std::string> branches;
  if (req.has_param("branch")) {
    branches = absl::StrSplit(req.get_param_value("branch"), ',', absl::SkipEmpty());
  }
  for (const std::string& b : branches) {
    if (absl::Status st = CheckBranch(ctx, session, b); !st.ok()) return ReplyError(res, st);
  }
  auto bundle = replay::ReadSession(ctx.engine->log(), session, with_secret, branches);
  if (!bundle.ok()) return ReplyError(res, bundle.status());
  const std::vector<uint8_t> bytes = replay::EncodeBundle(*bundle);
  res.status = 200;
  res.set_header("Content-Disposition",
                 absl::StrCat("attachment; filename=\"", session, ".bundle\""));
  res.set_content(reinterpret_cast<const char*>(bytes.data()), bytes.size(),
                  "application/octet-stream");
}

}  // namespace

void AddReadRoutes(httplib::Server& http, Context& ctx) {
  using Req = const httplib::Request&;
  using Res = httplib::Response&;
  http.Get(absl::StrCat(kSession, "/heads"), [&ctx](Req req, Res res) {
    Answer(res, Heads(ctx, req, req.matches[1]), 200);
  });
  http.Get(absl::StrCat(kSession, "/branches"), [&ctx](Req req, Res res) {
    Answer(res, Branches(ctx, req, req.matches[1]), 200);
  });
  http.Get(absl::StrCat(kSession, "/diff"), [&ctx](Req req, Res res) {
    Answer(res, DiffIt(ctx, req, req.matches[1]), 200);
  });
  http.Get(absl::StrCat(kSession, "/verify"), [&ctx](Req req, Res res) {
    Answer(res, VerifyIt(ctx, req, req.matches[1]), 200);
  });
  http.Get(absl::StrCat(kSession, "/export"), [&ctx](Req req, Res res) {
    Export(ctx, req, res, req.matches[1]);
  });
  http.Get(absl::StrCat(kBranch, "/head"), [&ctx](Req req, Res res) {
    Answer(res, Head(ctx, req, req.matches[1], req.matches[2]), 200);
  });
  http.Get(absl::StrCat(kBranch, "/status"), [&ctx](Req req, Res res) {
    Answer(res, Status(ctx, req, req.matches[1], req.matches[2]), 200);
  });
  http.Get(absl::StrCat(kBranch, "/state"), [&ctx](Req req, Res res) {
    Answer(res, State(ctx, req, req.matches[1], req.matches[2]), 200);
  });
  http.Get(absl::StrCat(kBranch, "/events"), [&ctx](Req req, Res res) {
    Answer(res, Events(ctx, req, req.matches[1], req.matches[2]), 200);
  });
  http.Get(absl::StrCat(kBranch, "/explain"), [&ctx](Req req, Res res) {
    Answer(res, ExplainIt(ctx, req, req.matches[1], req.matches[2]), 200);
  });
}

}  // namespace combat::server
