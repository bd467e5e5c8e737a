// combat explain: why an event happened, or how a value came to be.
#include <cstdint>
#include <string>

#include "events/status_macros.h"
#include "replay/cli_verbs.h"
#include "replay/engine.h"
#include "replay/explain.h"

namespace combat::replay {

absl::Status VerbExplain(const Flags& f, std::ostream& out) {
  ASSIGN_OR_RETURN(std::string db, Required(f, "db"));
  ExplainRequest req;
  ASSIGN_OR_RETURN(req.session, Required(f, "session"));
  req.branch = f.Get("branch", "main");
  ASSIGN_OR_RETURN(req.at, EventSeq(f, "at"));
  ASSIGN_OR_RETURN(req.event, Number(f, "event"));
  req.combatant = f.Get("combatant");
  req.resource = f.Get("resource");
  req.condition = f.Get("condition");
  req.position = f.Has("position");
  ASSIGN_OR_RETURN(uint64_t pending, Number(f, "pending"));
  if (pending > UINT32_MAX) {
    return absl::InvalidArgumentError("--pending: a pending act's id (1..4294967295)");
  }
  req.pending = static_cast<uint32_t>(pending);
  ASSIGN_OR_RETURN(auto engine, OpenDb(db, DbUse::kRead));
  auto rules = engine->RulesetOf(req.session);
  ASSIGN_OR_RETURN(std::string text,
                   Explain(engine->log(), rules.ok() ? *rules : nullptr, req,
                           engine->seek_options()));
  out << text;
  if (!rules.ok()) out << "(rule references unavailable: " << rules.status().message() << ")\n";
  return absl::OkStatus();
}

}  // namespace combat::replay
