#include <string>

#include "absl/strings/str_cat.h"
#include "events/json.h"
#include "events/status_macros.h"
#include "kernel/ruleset.h"
#include "kernel/verb_schema.h"
#include "replay/cli_verbs.h"
#include "replay/engine.h"
#include "replay/limits.h"
#include "replay/render.h"

namespace combat::replay {

absl::Status VerbNew(const Flags& f, std::ostream& out) {
  ASSIGN_OR_RETURN(std::string db, Required(f, "db"));
  ASSIGN_OR_RETURN(std::string session, Required(f, "session"));
  ASSIGN_OR_RETURN(std::string path, Required(f, "roster"));
  ASSIGN_OR_RETURN(std::string text, ReadFile(path, kMaxInputFileBytes));
  ASSIGN_OR_RETURN(fb::RosterT roster, events::ParseRoster(text));
  ASSIGN_OR_RETURN(auto seed, Seed(f));
  ASSIGN_OR_RETURN(auto signing_key, SigningKey(f));
  // Physical dice for the set-up (a `play` script's `setup_dice`).
  ASSIGN_OR_RETURN(std::vector<int> setup_dice, SetupDice(f));
  ASSIGN_OR_RETURN(auto engine, OpenDb(db, DbUse::kCreate));
  ASSIGN_OR_RETURN(auto evs, engine->CreateSession(session, roster, seed,
                                                   f.Get("author", "gm"),
                                                   std::move(setup_dice),
                                                   std::move(signing_key)));
  return PrintEvents(evs, f.Has("json"), out);
}

absl::Status VerbSubmit(const Flags& f, std::ostream& out) {
  ASSIGN_OR_RETURN(std::string db, Required(f, "db"));
  ASSIGN_OR_RETURN(std::string session, Required(f, "session"));
  ASSIGN_OR_RETURN(std::string path, Required(f, "command"));
  ASSIGN_OR_RETURN(std::string text, ReadFile(path, kMaxCommandFileBytes));
  ASSIGN_OR_RETURN(fb::CommandT command, events::ParseCommand(text));
  ASSIGN_OR_RETURN(auto engine, OpenDb(db, DbUse::kWrite));
  ASSIGN_OR_RETURN(SubmitResult r,
                   engine->Submit(session, f.Get("branch", "main"), command));
  // JSON Lines carry only events: the note is for readers.
  if (r.duplicate && !f.Has("json")) {
    out << "(command " << command.id << " was already applied)\n";
  }
  RETURN_IF_ERROR(PrintEvents(r.events, f.Has("json"), out));
  if (!f.Has("json")) {
    for (const std::string& w : r.warnings) out << "warning: " << w << "\n";
  }
  return absl::OkStatus();
}

absl::Status VerbPlay(const Flags& f, std::ostream& out) {
  ASSIGN_OR_RETURN(std::string db, Required(f, "db"));
  ASSIGN_OR_RETURN(std::string path, Required(f, "script"));
  ASSIGN_OR_RETURN(std::string text, ReadFile(path, kMaxInputFileBytes));
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
  ASSIGN_OR_RETURN(auto signing_key, SigningKey(f));
  // The whole script's shape first (every command against its verb's
  // schema), so that a malformed command late in the script writes nothing.
  if (const kernel::Ruleset* rules = kernel::FindRuleset(script.roster->ruleset);
      rules != nullptr) {
    for (size_t i = 0; i < script.commands.size(); ++i) {
      const fb::CommandT& cmd = *script.commands[i];
      if (absl::Status st = kernel::CheckCommand(rules->Verbs(), cmd); !st.ok()) {
        return absl::Status(
            st.code(), absl::StrCat("script command ", i + 1, " (", cmd.action,
                                    cmd.id.empty() ? "" : ", id " + cmd.id,
                                    "): ", st.message(), "; nothing was written"));
      }
    }
  }
  ASSIGN_OR_RETURN(auto engine, OpenDb(db, DbUse::kCreate));
  auto existing = engine->log().GetSession(session);
  if (existing.ok()) {
    if (existing->ruleset != script.roster->ruleset) {
      return absl::InvalidArgumentError(absl::StrCat(
          "session ", session, " exists with ruleset ", existing->ruleset));
    }
  } else if (absl::IsNotFound(existing.status())) {
    RETURN_IF_ERROR(engine
                        ->CreateSession(session, *script.roster, seed, "gm",
                                        script.setup_dice, std::move(signing_key))
                        .status());
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

absl::Status VerbLog(const Flags& f, std::ostream& out) {
  ASSIGN_OR_RETURN(std::string db, Required(f, "db"));
  ASSIGN_OR_RETURN(std::string session, Required(f, "session"));
  ASSIGN_OR_RETURN(uint64_t from, Number(f, "from"));
  ASSIGN_OR_RETURN(uint64_t to, Number(f, "to"));
  ASSIGN_OR_RETURN(auto engine, OpenDb(db, DbUse::kRead));
  const std::string branch = f.Get("branch", "main");
  ASSIGN_OR_RETURN(auto evs, engine->Events(session, branch, from == 0 ? 1 : from, to));
  if (f.Has("json")) return PrintEvents(evs, true, out);
  // Readable: events that no longer count (voids) are marked.
  ASSIGN_OR_RETURN(kernel::State head, engine->StateAt(session, branch));
  std::string author;  // RenderAuthorChange
  for (const events::EventBuffer& e : evs) {
    out << RenderEventAt(e.event(), head) << RenderAuthorChange(e.event(), &author) << "\n";
  }
  return absl::OkStatus();
}

absl::Status VerbState(const Flags& f, std::ostream& out) {
  ASSIGN_OR_RETURN(std::string db, Required(f, "db"));
  ASSIGN_OR_RETURN(std::string session, Required(f, "session"));
  ASSIGN_OR_RETURN(uint64_t at, EventSeq(f, "at"));
  ASSIGN_OR_RETURN(auto engine, OpenDb(db, DbUse::kRead));
  ASSIGN_OR_RETURN(kernel::State s,
                   engine->StateAt(session, f.Get("branch", "main"), at));
  return PrintState(s, f.Has("json"), out);
}

absl::Status VerbSessions(const Flags& f, std::ostream& out) {
  ASSIGN_OR_RETURN(std::string db, Required(f, "db"));
  ASSIGN_OR_RETURN(auto engine, OpenDb(db, DbUse::kRead));
  ASSIGN_OR_RETURN(auto ids, engine->log().ListSessions());
  for (const std::string& id : ids) {
    ASSIGN_OR_RETURN(store::SessionMeta m, engine->log().GetSession(id));
    ASSIGN_OR_RETURN(store::Head h, engine->log().GetHead(id, "main"));
    out << id << "  " << m.ruleset << " v" << m.ruleset_version << "  "
        << h.seq << " events  \"" << m.title << "\"\n";
  }
  return absl::OkStatus();
}

}  // namespace combat::replay
