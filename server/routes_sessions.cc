// Sessions and their participants: list, create from a roster, import a
// bundle (both make the caller the GM and return the GM's token once), add
// players and observers (the GM; each token once), list them, who am I.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "events/hash.h"
#include "events/json.h"
#include "events/nearest.h"
#include "events/status_macros.h"
#include "kernel/authority.h"
#include "kernel/ruleset.h"
#include "kernel/verb_schema.h"
#include "replay/bundle.h"
#include "replay/setup_dice.h"
#include "replay/verify.h"
#include "server/auth.h"
#include "server/context.h"
#include "server/http.h"
#include "server/json_out.h"

namespace combat::server {
namespace {

constexpr char kSession[] = R"(/api/sessions/([^/]+))";

// Query parameter `seed`: the dice secret as 64 hex digits; empty when
// absent (the engine draws one).
absl::StatusOr<std::vector<uint8_t>> SeedParam(const httplib::Request& req) {
  if (!req.has_param("seed")) return std::vector<uint8_t>();
  std::optional<std::vector<uint8_t>> bytes =
      events::FromHex(req.get_param_value("seed"), 32);
  if (!bytes.has_value()) {
    return absl::InvalidArgumentError(
        "query parameter 'seed': the dice seed as 64 hex digits (32 bytes)");
  }
  return *std::move(bytes);
}

// Query parameter `setup_dice`: the set-up's physical dice, "20,7" in the
// order it rolls them (as `combat new --setup-dice`); empty when absent.
absl::StatusOr<std::vector<int>> SetupDiceParam(const httplib::Request& req) {
  if (!req.has_param("setup_dice")) return std::vector<int>();
  return replay::ParseSetupDice(req.get_param_value("setup_dice"), "query parameter 'setup_dice'");
}

std::string ParticipantJson(const store::Participant& p,
                            const std::vector<std::string>& plays) {
  return JsonObject()
      .Str("name", p.name)
      .Str("role", store::RoleName(p.role))
      .Strs("plays", plays)
      .Done();
}

// Admits the GM of `session` (false) or the server's operator (true), for
// `what`; 404 for no session, 403 for another participant, 401 otherwise.
absl::StatusOr<bool> GmOrOperator(const Context& ctx, const httplib::Request& req,
                                  const std::string& session, const std::string& what) {
  RETURN_IF_ERROR(CheckSession(ctx, session));
  absl::StatusOr<store::Participant> caller = Authenticate(ctx, req, session);
  if (caller.ok()) {
    RETURN_IF_ERROR(RequireGm(*caller, what));
    return false;
  }
  if (!absl::IsUnauthenticated(caller.status())) return caller.status();
  absl::StatusOr<std::string> op = AuthenticateOperator(ctx, req);
  if (!op.ok()) return caller.status();
  return true;
}

// The GM of a new session: the caller, named by ?gm= (default "gm").
absl::StatusOr<store::Participant> NewGm(const httplib::Request& req,
                                         const std::string& session) {
  store::Participant gm;
  gm.session = session;
  gm.name = Param(req, "gm", "gm");
  gm.role = store::ParticipantRole::kGm;
  if (!store::ValidId(gm.name)) {
    return absl::InvalidArgumentError(
        "query parameter 'gm': the GM's name, 1-64 of [A-Za-z0-9_.:-]");
  }
  return gm;
}

// A ruleset by id: NotFound naming the rulesets when none.
absl::StatusOr<const kernel::Ruleset*> RulesetParam(const std::string& id) {
  const kernel::Ruleset* rules = kernel::FindRuleset(id);
  if (rules == nullptr) {
    return absl::NotFoundError(
        events::NoSuchName("ruleset", "rulesets", id, kernel::RulesetIds()));
  }
  return rules;
}

const char* UseName(kernel::Use u) {
  return u == kernel::Use::kRequired ? "required" : u == kernel::Use::kOptional ? "optional" : "no";
}

const char* TypeKey(kernel::ParamType t) {
  switch (t) {
    case kernel::ParamType::kInt:
      return "int";
    case kernel::ParamType::kNonNeg:
      return "nonneg";
    case kernel::ParamType::kFlag:
      return "flag";
    case kernel::ParamType::kText:
      return "text";
  }
  return "text";
}

// The ruleset's verb table (kernel/verb_schema.h) as `combat verbs` shows
// it: what each verb reads, each parameter's key, type, allowed values and
// its words (the ruleset's labels).
absl::StatusOr<std::string> VerbsJson(const std::string& id) {
  ASSIGN_OR_RETURN(const kernel::Ruleset* rules, RulesetParam(id));
  std::vector<std::string> verbs;
  for (const kernel::VerbSchema& v : rules->Verbs()) {
    std::vector<std::string> params, refs;
    for (const kernel::ParamSpec& p : v.params) {
      params.push_back(JsonObject()
                           .Str("key", p.key)
                           .Str("type", TypeKey(p.type))
                           .Str("type_name", kernel::TypeName(p))
                           .Bool("required", p.required)
                           .Strs("allowed", p.allowed)
                           .Str("doc", p.doc)
                           .Done());
    }
    for (const kernel::RefSpec& r : v.refs) {
      refs.push_back(
          JsonObject().Str("key", r.key).Bool("required", r.required).Str("doc", r.doc).Done());
    }
    verbs.push_back(JsonObject()
                        .Str("verb", v.verb)
                        .Str("doc", v.doc)
                        .Str("rule", v.rule)
                        .Bool("gm", v.gm)
                        .Str("actor", UseName(v.actor))
                        .Str("targets", UseName(v.targets))
                        .Str("weapon", UseName(v.weapon))
                        .Str("path", UseName(v.path))
                        .Raw("params", JsonArray(params))
                        .Raw("refs", JsonArray(refs))
                        .Done());
  }
  return JsonObject()
      .Str("ruleset", id)
      .Int("version", rules->version())
      .Raw("verbs", JsonArray(verbs))
      .Done();
}

// The ruleset's rule table: each rule id with its seed file, section, line
// and summary (what explanations cite).
absl::StatusOr<std::string> RulesJson(const std::string& id) {
  ASSIGN_OR_RETURN(const kernel::Ruleset* rules, RulesetParam(id));
  std::vector<std::string> items;
  for (const kernel::RuleRef& r : rules->Rules()) {
    items.push_back(JsonObject()
                        .Str("id", r.id)
                        .Str("seed", r.seed)
                        .Str("section", r.section)
                        .Int("line", r.line)
                        .Str("summary", r.summary)
                        .Done());
  }
  return JsonObject().Str("ruleset", id).Raw("rules", JsonArray(items)).Done();
}

void ListSessions(Context& ctx, httplib::Response& res) {
  auto ids = ctx.engine->log().ListSessions();
  if (!ids.ok()) return ReplyError(res, ids.status());
  std::vector<std::string> items;
  for (const std::string& id : *ids) {
    auto m = ctx.engine->log().GetSession(id);
    auto h = ctx.engine->log().GetHead(id, "main");
    if (!m.ok()) return ReplyError(res, m.status());
    if (!h.ok()) return ReplyError(res, h.status());
    items.push_back(JsonObject()
                        .Str("session", id)
                        .Str("ruleset", m->ruleset)
                        .Int("ruleset_version", m->ruleset_version)
                        .Str("title", m->title)
                        .Raw("head", HeadJson(*h))
                        .Done());
  }
  ReplyJson(res, 200, JsonObject().Raw("sessions", JsonArray(items)).Done());
}

absl::StatusOr<std::string> CreateSession(Context& ctx, const httplib::Request& req) {
  RETURN_IF_ERROR(AuthenticateOperator(ctx, req).status());
  ASSIGN_OR_RETURN(std::string session, RequiredParam(req, "session"));
  ASSIGN_OR_RETURN(store::Participant gm, NewGm(req, session));
  ASSIGN_OR_RETURN(std::vector<uint8_t> seed_bytes, SeedParam(req));
  std::optional<std::vector<uint8_t>> seed;
  if (!seed_bytes.empty()) seed = std::move(seed_bytes);
  ASSIGN_OR_RETURN(std::vector<int> setup_dice, SetupDiceParam(req));
  RETURN_IF_ERROR(CheckBodySize(req, ctx.limits.max_roster_body, "roster"));
  ASSIGN_OR_RETURN(fb::RosterT roster, events::ParseRoster(req.body));
  std::lock_guard<std::mutex> lock(ctx.locks.For(session));
  // The GM first: a session is never written without its GM's record
  // (store::ParticipantTable::Found says why that recovers).
  ASSIGN_OR_RETURN(std::string token, FoundSession(ctx, gm));
  ASSIGN_OR_RETURN(std::vector<events::EventBuffer> evs,
                   ctx.engine->CreateSession(session, roster, seed, gm.name, std::move(setup_dice)));
  ASSIGN_OR_RETURN(store::Head head, ctx.engine->log().GetHead(session, "main"));
  ctx.hub.Announce(session, "main", head.seq);
  ASSIGN_OR_RETURN(std::string items, EventItemsJson(evs));
  return JsonObject()
      .Str("session", session)
      .Raw("participant", ParticipantJson(gm, {}))
      .Str("token", token)
      .Raw("head", HeadJson(head))
      .Raw("events", items)
      .Done();
}

absl::StatusOr<std::string> Import(Context& ctx, const httplib::Request& req) {
  RETURN_IF_ERROR(AuthenticateOperator(ctx, req).status());
  RETURN_IF_ERROR(CheckBodySize(req, ctx.limits.max_body, "bundle"));
  absl::StatusOr<replay::Bundle> decoded =
      replay::DecodeBundle(std::vector<uint8_t>(req.body.begin(), req.body.end()));
  if (!decoded.ok()) {
    // A damaged upload is the request's fault (400), not the database's.
    return absl::InvalidArgumentError(
        absl::StrCat("the body is not a valid bundle: ", decoded.status().message(),
                     "; nothing was written"));
  }
  replay::Bundle& b = *decoded;
  const std::string session = b.meta.session;
  ASSIGN_OR_RETURN(store::Participant gm, NewGm(req, session));
  const kernel::Ruleset* rules = nullptr;
  if (const kernel::Ruleset* r = kernel::FindRuleset(b.meta.ruleset);
      r != nullptr && r->version() == b.meta.ruleset_version) {
    rules = r;
  }
  std::lock_guard<std::mutex> lock(ctx.locks.For(session));
  ASSIGN_OR_RETURN(std::string token, FoundSession(ctx, gm));
  ASSIGN_OR_RETURN(replay::ImportResult r, replay::ImportBundle(ctx.engine->log(), b, rules));
  if (!r.imported) {
    return absl::FailedPreconditionError(absl::StrCat(
        "import refused (nothing written): ", r.verify.mismatch->summary));
  }
  for (const replay::BundleBranch& br : b.branches) {
    ctx.hub.Announce(session, br.meta.branch, br.head.seq);
  }
  return JsonObject()
      .Str("session", session)
      .Raw("participant", ParticipantJson(gm, {}))
      .Str("token", token)
      .Uint("events", r.events)
      .Uint("branches", b.branches.size())
      .Bool("with_secret", !b.secret.empty())
      .Str("verify", replay::RenderVerifyReport(r.verify))
      .Done();
}

absl::StatusOr<std::string> AddOne(Context& ctx, const httplib::Request& req,
                                   const std::string& session) {
  ASSIGN_OR_RETURN(bool op, GmOrOperator(ctx, req, session, "adding participants"));
  store::Participant p;
  p.session = session;
  ASSIGN_OR_RETURN(p.name, RequiredParam(req, "name"));
  ASSIGN_OR_RETURN(std::string role, RequiredParam(req, "role"));
  if (role == "player") {
    p.role = store::ParticipantRole::kPlayer;
  } else if (role == "observer") {
    p.role = store::ParticipantRole::kObserver;
  } else if (role == "gm" && op) {
    p.role = store::ParticipantRole::kGm;
  } else {
    return absl::InvalidArgumentError(absl::StrCat(
        "query parameter 'role' ('", role.substr(0, 40),
        "'): 'player' or 'observer' (a GM is added by the operator only)"));
  }
  ASSIGN_OR_RETURN(std::vector<std::string> plays, CombatantsOf(ctx, session, p.name));
  if (p.role == store::ParticipantRole::kPlayer && plays.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "query parameter 'name': '", p.name.substr(0, 64),
        "' plays no combatant of session '", session,
        "' (a player is a roster combatant's 'player'); add them as an observer, or "
        "name a player of the roster"));
  }
  if (p.role == store::ParticipantRole::kObserver) plays.clear();
  ASSIGN_OR_RETURN(std::string token, AddParticipant(ctx, p));
  return JsonObject()
      .Str("session", session)
      .Raw("participant", ParticipantJson(p, plays))
      .Str("token", token)
      .Done();
}

// Revokes participant `name`'s token: the GM revokes players' and
// observers', the operator anyone's. Open streams of that token end.
absl::StatusOr<std::string> RevokeOne(Context& ctx, const httplib::Request& req,
                                      const std::string& session, const std::string& name) {
  ASSIGN_OR_RETURN(bool op, GmOrOperator(ctx, req, session, "revoking a token"));
  ASSIGN_OR_RETURN(std::vector<store::Participant> all, ctx.participants.List(session));
  const store::Participant* target = nullptr;
  for (const store::Participant& p : all) {
    if (p.name == name) target = &p;
  }
  if (target == nullptr) {
    std::vector<std::string> names;
    for (const store::Participant& p : all) names.push_back(p.name);
    return absl::NotFoundError(absl::StrCat(
        events::NoSuchName("participant", "participants", name, names), " (in session '",
        session, "')"));
  }
  if (target->role == store::ParticipantRole::kGm && !op) {
    return absl::PermissionDeniedError(absl::StrCat(
        "'", name, "' is a GM of session '", session,
        "': only the operator revokes a GM's token; nothing was written"));
  }
  const store::Participant revoked = *target;
  RETURN_IF_ERROR(ctx.participants.Revoke(session, name));
  ctx.hub.WakeAll();  // its open streams check their token and end
  return JsonObject().Raw("revoked", ParticipantJson(revoked, {})).Done();
}

absl::StatusOr<std::string> ListParticipants(Context& ctx, const httplib::Request& req,
                                             const std::string& session, bool only_me) {
  RETURN_IF_ERROR(CheckSession(ctx, session));
  ASSIGN_OR_RETURN(store::Participant caller, Authenticate(ctx, req, session));
  if (only_me) {
    ASSIGN_OR_RETURN(std::vector<std::string> plays,
                     CombatantsOf(ctx, session, caller.name));
    if (caller.role != store::ParticipantRole::kPlayer) plays.clear();
    return ParticipantJson(caller, plays);
  }
  ASSIGN_OR_RETURN(std::vector<store::Participant> all, ctx.participants.List(session));
  std::vector<std::string> items;
  for (const store::Participant& p : all) {
    std::vector<std::string> plays;
    if (p.role == store::ParticipantRole::kPlayer) {
      ASSIGN_OR_RETURN(plays, CombatantsOf(ctx, session, p.name));
    }
    items.push_back(ParticipantJson(p, plays));
  }
  return JsonObject().Raw("participants", JsonArray(items)).Done();
}

}  // namespace

void AddSessionRoutes(httplib::Server& http, Context& ctx) {
  http.Get("/api/rulesets", [](const httplib::Request&, httplib::Response& res) {
    std::vector<std::string> items;
    for (const std::string& id : kernel::RulesetIds()) {
      items.push_back(JsonObject()
                          .Str("ruleset", id)
                          .Int("version", kernel::FindRuleset(id)->version())
                          .Done());
    }
    ReplyJson(res, 200, JsonObject().Raw("rulesets", JsonArray(items)).Done());
  });
  http.Get(R"(/api/rulesets/([^/]+)/verbs)",
           [](const httplib::Request& req, httplib::Response& res) {
             Answer(res, VerbsJson(req.matches[1]), 200);
           });
  http.Get(R"(/api/rulesets/([^/]+)/rules)",
           [](const httplib::Request& req, httplib::Response& res) {
             Answer(res, RulesJson(req.matches[1]), 200);
           });
  http.Get("/api/sessions", [&ctx](const httplib::Request&, httplib::Response& res) {
    ListSessions(ctx, res);
  });
  http.Post("/api/sessions", [&ctx](const httplib::Request& req, httplib::Response& res) {
    Answer(res, CreateSession(ctx, req), 201);
  });
  http.Post("/api/import", [&ctx](const httplib::Request& req, httplib::Response& res) {
    Answer(res, Import(ctx, req), 201);
  });
  http.Get(absl::StrCat(kSession, "/participants"),
           [&ctx](const httplib::Request& req, httplib::Response& res) {
             Answer(res, ListParticipants(ctx, req, req.matches[1], false), 200);
           });
  http.Delete(absl::StrCat(kSession, R"(/participants/([^/]+))"),
              [&ctx](const httplib::Request& req, httplib::Response& res) {
                Answer(res, RevokeOne(ctx, req, req.matches[1], req.matches[2]), 200);
              });
  http.Get(absl::StrCat(kSession, "/me"),
           [&ctx](const httplib::Request& req, httplib::Response& res) {
             Answer(res, ListParticipants(ctx, req, req.matches[1], true), 200);
           });
  http.Post(absl::StrCat(kSession, "/participants"),
            [&ctx](const httplib::Request& req, httplib::Response& res) {
              Answer(res, AddOne(ctx, req, req.matches[1]), 201);
            });
}

}  // namespace combat::server
