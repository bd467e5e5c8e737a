#include "replay/cli.h"

#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "events/json.h"
#include "events/status_macros.h"
#include "kernel/ruleset.h"
#include "kernel/state_codec.h"
#include "replay/engine.h"
#include "replay/render.h"

namespace combat::replay {
namespace {

constexpr char kUsage[] = R"(usage: combat <verb> [flags]

verbs:
  rulesets                              list the rulesets this build has
  new      --db DIR --session S --roster FILE [--seed HEX] [--author NAME]
                                        create a session from a roster (JSON)
  submit   --db DIR --session S [--branch B] --command FILE|- [--json]
                                        submit one command (JSON); print the
                                        events it produced or the rejection
  play     --db DIR --script FILE [--session S] [--seed HEX] [--json]
                                        run a whole script (roster + commands,
                                        optional dice per command); print the
                                        log and the final state. Re-running is
                                        safe: commands apply once (by id).
  log      --db DIR --session S [--branch B] [--from N] [--to N] [--json]
  state    --db DIR --session S [--branch B] [--at N] [--json]
  sessions --db DIR                     list sessions

exit codes: 0 ok, 1 rejected/illegal, 2 bad input or corrupt data
)";

struct Flags {
  std::string verb;
  std::map<std::string, std::string> values;
  bool Has(const std::string& k) const { return values.count(k) != 0; }
  std::string Get(const std::string& k, const std::string& otherwise = "") const {
    auto it = values.find(k);
    return it == values.end() ? otherwise : it->second;
  }
};

absl::StatusOr<Flags> ParseFlags(const std::vector<std::string>& args) {
  Flags f;
  if (args.empty()) return absl::InvalidArgumentError("no verb given");
  f.verb = args[0];
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.rfind("--", 0) != 0) {
      return absl::InvalidArgumentError(absl::StrCat("unexpected argument '", a, "'"));
    }
    std::string key = a.substr(2);
    if (key == "json" || key == "quiet") {
      f.values[key] = "1";
      continue;
    }
    if (auto eq = key.find('='); eq != std::string::npos) {
      f.values[key.substr(0, eq)] = key.substr(eq + 1);
      continue;
    }
    if (i + 1 >= args.size()) {
      return absl::InvalidArgumentError(absl::StrCat("flag --", key, " needs a value"));
    }
    f.values[key] = args[++i];
  }
  return f;
}

absl::StatusOr<std::string> Required(const Flags& f, const std::string& k) {
  if (!f.Has(k) || f.Get(k).empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("combat ", f.verb, ": flag --", k, " is required"));
  }
  return f.Get(k);
}

absl::StatusOr<uint64_t> Number(const Flags& f, const std::string& k) {
  uint64_t v = 0;
  if (!f.Has(k)) return 0;
  if (!absl::SimpleAtoi(f.Get(k), &v)) {
    return absl::InvalidArgumentError(
        absl::StrCat("flag --", k, ": '", f.Get(k), "' is not a number"));
  }
  return v;
}

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::stringstream ss;
  if (path == "-") {
    ss << std::cin.rdbuf();
    return ss.str();
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::InvalidArgumentError(absl::StrCat("cannot read file '", path, "'"));
  ss << in.rdbuf();
  return ss.str();
}

absl::StatusOr<std::optional<std::vector<uint8_t>>> Seed(const Flags& f) {
  if (!f.Has("seed")) return std::optional<std::vector<uint8_t>>();
  const std::string hex = f.Get("seed");
  if (hex.size() < 32 || hex.size() % 2 != 0) {
    return absl::InvalidArgumentError(
        "flag --seed: an even number of hex digits, at least 32");
  }
  std::vector<uint8_t> out;
  for (size_t i = 0; i < hex.size(); i += 2) {
    int v = 0;
    for (int k = 0; k < 2; ++k) {
      const char c = hex[i + k];
      int d = (c >= '0' && c <= '9')   ? c - '0'
              : (c >= 'a' && c <= 'f') ? c - 'a' + 10
              : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                       : -1;
      if (d < 0) return absl::InvalidArgumentError("flag --seed: not hex");
      v = v * 16 + d;
    }
    out.push_back(static_cast<uint8_t>(v));
  }
  return std::optional<std::vector<uint8_t>>(out);
}

absl::Status PrintEvents(const std::vector<events::EventBuffer>& evs, bool json,
                         std::ostream& out) {
  for (const events::EventBuffer& e : evs) {
    if (json) {
      ASSIGN_OR_RETURN(std::string text, events::EventToJson(e));
      out << text << "\n";
    } else {
      out << RenderEvent(e.event()) << "\n";
    }
  }
  return absl::OkStatus();
}

absl::Status PrintState(const kernel::State& s, bool json, std::ostream& out) {
  if (json) {
    const std::vector<uint8_t> bytes = kernel::EncodeState(s);
    ASSIGN_OR_RETURN(std::string text,
                     events::BinaryToJson(bytes.data(), bytes.size(), "State"));
    out << text << "\n";
  } else {
    out << RenderState(s);
  }
  return absl::OkStatus();
}

absl::Status New(const Flags& f, std::ostream& out) {
  ASSIGN_OR_RETURN(std::string db, Required(f, "db"));
  ASSIGN_OR_RETURN(std::string session, Required(f, "session"));
  ASSIGN_OR_RETURN(std::string path, Required(f, "roster"));
  ASSIGN_OR_RETURN(std::string text, ReadFile(path));
  ASSIGN_OR_RETURN(fb::RosterT roster, events::ParseRoster(text));
  ASSIGN_OR_RETURN(auto seed, Seed(f));
  ASSIGN_OR_RETURN(auto engine, Engine::Open(db));
  ASSIGN_OR_RETURN(auto evs, engine->CreateSession(session, roster, seed,
                                                   f.Get("author", "gm")));
  return PrintEvents(evs, f.Has("json"), out);
}

absl::Status Submit(const Flags& f, std::ostream& out) {
  ASSIGN_OR_RETURN(std::string db, Required(f, "db"));
  ASSIGN_OR_RETURN(std::string session, Required(f, "session"));
  ASSIGN_OR_RETURN(std::string path, Required(f, "command"));
  ASSIGN_OR_RETURN(std::string text, ReadFile(path));
  ASSIGN_OR_RETURN(fb::CommandT command, events::ParseCommand(text));
  ASSIGN_OR_RETURN(auto engine, Engine::Open(db));
  ASSIGN_OR_RETURN(SubmitResult r,
                   engine->Submit(session, f.Get("branch", "main"), command));
  if (r.duplicate) out << "(command " << command.id << " was already applied)\n";
  return PrintEvents(r.events, f.Has("json"), out);
}

absl::Status Play(const Flags& f, std::ostream& out) {
  ASSIGN_OR_RETURN(std::string db, Required(f, "db"));
  ASSIGN_OR_RETURN(std::string path, Required(f, "script"));
  ASSIGN_OR_RETURN(std::string text, ReadFile(path));
  ASSIGN_OR_RETURN(fb::ScriptT script, events::ParseScript(text));
  if (!script.roster) {
    return absl::InvalidArgumentError("script field 'roster' is required");
  }
  std::string session = f.Get("session");
  if (session.empty()) {
    // The script file's name without directory and extension.
    session = path.substr(path.find_last_of('/') + 1);
    session = session.substr(0, session.find('.'));
  }
  ASSIGN_OR_RETURN(auto seed, Seed(f));
  ASSIGN_OR_RETURN(auto engine, Engine::Open(db));
  auto existing = engine->log().GetSession(session);
  if (existing.ok()) {
    if (existing->ruleset != script.roster->ruleset) {
      return absl::InvalidArgumentError(absl::StrCat(
          "session ", session, " exists with ruleset ", existing->ruleset));
    }
  } else if (absl::IsNotFound(existing.status())) {
    RETURN_IF_ERROR(
        engine->CreateSession(session, *script.roster, seed, "gm").status());
  } else {
    return existing.status();
  }
  for (size_t i = 0; i < script.commands.size(); ++i) {
    fb::CommandT cmd = *script.commands[i];
    if (cmd.id.empty()) cmd.id = absl::StrCat("script-", i + 1);
    auto r = engine->Submit(session, "main", cmd);
    if (!r.ok()) {
      return absl::Status(
          r.status().code(),
          absl::StrCat("script command ", i + 1, " (", cmd.action, " by ",
                       cmd.actor.empty() ? "GM" : cmd.actor, ", id ", cmd.id,
                       "): ", r.status().message()));
    }
  }
  ASSIGN_OR_RETURN(auto evs, engine->Events(session, "main"));
  const bool json = f.Has("json");
  if (!json) out << "== log of session " << session << " ==\n";
  RETURN_IF_ERROR(PrintEvents(evs, json, out));
  ASSIGN_OR_RETURN(kernel::State state, engine->StateAt(session, "main"));
  if (!json) out << "\n== final state ==\n";
  return PrintState(state, json, out);
}

absl::Status Log(const Flags& f, std::ostream& out) {
  ASSIGN_OR_RETURN(std::string db, Required(f, "db"));
  ASSIGN_OR_RETURN(std::string session, Required(f, "session"));
  ASSIGN_OR_RETURN(uint64_t from, Number(f, "from"));
  ASSIGN_OR_RETURN(uint64_t to, Number(f, "to"));
  ASSIGN_OR_RETURN(auto engine, Engine::Open(db));
  ASSIGN_OR_RETURN(auto evs, engine->Events(session, f.Get("branch", "main"),
                                            from == 0 ? 1 : from, to));
  return PrintEvents(evs, f.Has("json"), out);
}

absl::Status State(const Flags& f, std::ostream& out) {
  ASSIGN_OR_RETURN(std::string db, Required(f, "db"));
  ASSIGN_OR_RETURN(std::string session, Required(f, "session"));
  ASSIGN_OR_RETURN(uint64_t at, Number(f, "at"));
  ASSIGN_OR_RETURN(auto engine, Engine::Open(db));
  ASSIGN_OR_RETURN(kernel::State s,
                   engine->StateAt(session, f.Get("branch", "main"), at));
  return PrintState(s, f.Has("json"), out);
}

absl::Status Sessions(const Flags& f, std::ostream& out) {
  ASSIGN_OR_RETURN(std::string db, Required(f, "db"));
  ASSIGN_OR_RETURN(auto engine, Engine::Open(db));
  ASSIGN_OR_RETURN(auto ids, engine->log().ListSessions());
  for (const std::string& id : ids) {
    ASSIGN_OR_RETURN(store::SessionMeta m, engine->log().GetSession(id));
    ASSIGN_OR_RETURN(store::Head h, engine->log().GetHead(id, "main"));
    out << id << "  " << m.ruleset << " v" << m.ruleset_version << "  "
        << h.seq << " events  \"" << m.title << "\"\n";
  }
  return absl::OkStatus();
}

}  // namespace

int ExitCodeFor(const absl::Status& status) {
  switch (status.code()) {
    case absl::StatusCode::kOk:
      return kExitOk;
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kPermissionDenied:
    case absl::StatusCode::kAborted:
    case absl::StatusCode::kAlreadyExists:
      return kExitRejected;
    default:
      return kExitBadInput;
  }
}

int RunCli(const std::vector<std::string>& args, std::ostream& out,
           std::ostream& err) {
  auto flags = ParseFlags(args);
  if (!flags.ok()) {
    err << "combat: " << flags.status().message() << "\n" << kUsage;
    return kExitBadInput;
  }
  const std::string& verb = flags->verb;
  absl::Status st;
  if (verb == "help" || verb == "--help" || verb == "-h") {
    out << kUsage;
    return kExitOk;
  } else if (verb == "rulesets") {
    for (const std::string& id : kernel::RulesetIds()) {
      out << id << " v" << kernel::FindRuleset(id)->version() << "\n";
    }
    return kExitOk;
  } else if (verb == "new") {
    st = New(*flags, out);
  } else if (verb == "submit") {
    st = Submit(*flags, out);
  } else if (verb == "play") {
    st = Play(*flags, out);
  } else if (verb == "log") {
    st = Log(*flags, out);
  } else if (verb == "state") {
    st = State(*flags, out);
  } else if (verb == "sessions") {
    st = Sessions(*flags, out);
  } else {
    err << "combat: unknown verb '" << verb << "'\n" << kUsage;
    return kExitBadInput;
  }
  if (!st.ok()) {
    const int code = ExitCodeFor(st);
    err << "combat " << verb << ": "
        << (code == kExitRejected ? "rejected: " : "error: ") << st.message()
        << "\n";
    return code;
  }
  return kExitOk;
}

}  // namespace combat::replay
