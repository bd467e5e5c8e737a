// combat reveal / stats: dice provenance.
#include <string>

#include "absl/strings/str_cat.h"
#include "events/hash.h"
#include "events/status_macros.h"
#include "replay/cli_verbs.h"
#include "replay/engine.h"
#include "replay/stats.h"

namespace combat::replay {

absl::Status VerbReveal(const Flags& f, std::ostream& out) {
  ASSIGN_OR_RETURN(std::string db, Required(f, "db"));
  ASSIGN_OR_RETURN(std::string session, Required(f, "session"));
  ASSIGN_OR_RETURN(auto engine, OpenDb(db, DbUse::kWrite));
  ASSIGN_OR_RETURN(std::vector<uint8_t> secret, engine->log().GetSecret(session));
  if (secret.empty()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "session ", session, ": this database does not hold its dice secret"));
  }
  fb::CommandT cmd;
  cmd.id = f.Get("id", "reveal");
  cmd.action = "gm_reveal";
  cmd.role = fb::Role::GM;
  cmd.author = f.Get("author", "gm");
  cmd.text = f.Get("reason", "the dice secret is revealed so every seeded roll can be verified");
  auto p = std::make_unique<fb::ParamT>();
  p->key = "secret";
  p->text = events::Hex(secret);
  cmd.params.push_back(std::move(p));
  ASSIGN_OR_RETURN(SubmitResult r, engine->Submit(session, f.Get("branch", "main"), cmd));
  if (r.duplicate && !f.Has("json")) out << "(the secret was already revealed by command " << cmd.id << ")\n";
  RETURN_IF_ERROR(PrintEvents(r.events, f.Has("json"), out));
  if (!f.Has("json")) {
    out << "now `combat verify --db " << db << " --session " << session
        << "` checks every seeded die against the seed\n";
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
