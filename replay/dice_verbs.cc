// combat reveal / stats: dice provenance.
#include <string>

#include "absl/strings/str_cat.h"
#include "events/hash.h"
#include "events/status_macros.h"
#include "replay/cli_verbs.h"
#include "replay/dice_epoch.h"
#include "replay/engine.h"
#include "replay/stats.h"

namespace combat::replay {

absl::Status VerbReveal(const Flags& f, std::ostream& out) {
  ASSIGN_OR_RETURN(std::string db, Required(f, "db"));
  ASSIGN_OR_RETURN(std::string session, Required(f, "session"));
  const std::string branch = f.Get("branch", "main");
  ASSIGN_OR_RETURN(auto engine, OpenDb(db, DbUse::kWrite));
  // The secret of the commitment in force at the branch's head (a reveal
  // before the end moved it on to a fresh one: replay/dice_epoch.h).
  ASSIGN_OR_RETURN(kernel::State state, engine->StateAt(session, branch, 0));
  ASSIGN_OR_RETURN(std::vector<uint8_t> secret,
                   SecretInForce(engine->log(), session, state));
  if (secret.empty()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "session ", session, " branch ", branch,
        ": this database does not hold the dice secret of its commitment ",
        events::Hex(state.dice_commitment)));
  }
  fb::CommandT cmd;
  // One reveal per secret: the default id names the commitment revealed,
  // so a retry is the same command and a later reveal (of the fresh
  // secret) is another.
  cmd.id = f.Get("id", absl::StrCat("reveal-", events::Hex(state.dice_commitment).substr(0, 16)));
  cmd.action = "gm_reveal";
  cmd.role = fb::Role::GM;
  cmd.author = f.Get("author", "gm");
  cmd.text = f.Get("reason", state.ended
                                 ? "the dice secret is revealed so every seeded roll can be verified"
                                 : "the dice secret is revealed mid-session; a fresh one is "
                                   "committed for the rest of the session");
  auto p = std::make_unique<fb::ParamT>();
  p->key = "secret";
  p->text = events::Hex(secret);
  cmd.params.push_back(std::move(p));
  ASSIGN_OR_RETURN(SubmitResult r, engine->Submit(session, branch, cmd));
  if (r.duplicate && !f.Has("json")) out << "(the secret was already revealed by command " << cmd.id << ")\n";
  RETURN_IF_ERROR(PrintEvents(r.events, f.Has("json"), out));
  if (!f.Has("json")) {
    out << "now `combat verify --db " << db << " --session " << session
        << "` checks every seeded die rolled with this secret\n";
    if (!state.ended && !r.duplicate) {
      out << "a fresh dice secret is committed for the rest of the session on branch "
          << branch << "; reveal again at the end\n";
    }
  }
  return absl::OkStatus();
}

absl::Status VerbStats(const Flags& f, std::ostream& out) {
  ASSIGN_OR_RETURN(std::string db, Required(f, "db"));
  ASSIGN_OR_RETURN(std::string session, Required(f, "session"));
  ASSIGN_OR_RETURN(auto engine, OpenDb(db, DbUse::kRead));
  ASSIGN_OR_RETURN(DiceStats s, CollectDiceStats(engine->log(), session,
                                                 f.Get("branch", "main"),
                                                 f.Has("include-voided"),
                                                 engine->seek_options()));
  out << RenderDiceStats(s);
  return absl::OkStatus();
}

}  // namespace combat::replay
