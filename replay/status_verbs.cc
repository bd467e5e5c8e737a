// combat status: what a GM at the table needs to know now (replay/status.h);
// combat verbs: a ruleset's verbs with their input (kernel/verb_schema.h).
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "events/status_macros.h"
#include "events/nearest.h"
#include "kernel/ruleset.h"
#include "kernel/verb_schema.h"
#include "replay/cli_verbs.h"
#include "replay/status.h"

namespace combat::replay {
namespace {

std::string UseText(const char* field, kernel::Use use) {
  switch (use) {
    case kernel::Use::kNo:
      return "";
    case kernel::Use::kOptional:
      return absl::StrCat(" [", field, "]");
    case kernel::Use::kRequired:
      return absl::StrCat(" ", field);
  }
  return "";
}

std::string RenderVerbs(const kernel::Ruleset& rules) {
  std::string out = absl::StrCat(rules.id(), " v", rules.version(), ": ",
                                 rules.Verbs().size(), " verbs\n");
  for (const kernel::VerbSchema& v : rules.Verbs()) {
    absl::StrAppend(&out, v.verb, v.gm ? " (GM)" : "", UseText("actor", v.actor),
                    UseText("targets", v.targets), UseText("weapon", v.weapon),
                    UseText("path", v.path), "  ", v.doc);
    if (!v.rule.empty()) absl::StrAppend(&out, " [", v.rule, "]");
    absl::StrAppend(&out, "\n");
    for (const kernel::ParamSpec& p : v.params) {
      absl::StrAppend(&out, "    params.", p.key, ": ", kernel::TypeName(p),
                      p.required ? ", required" : "", p.doc.empty() ? "" : " -- ",
                      p.doc, "\n");
    }
    for (const kernel::RefSpec& r : v.refs) {
      absl::StrAppend(&out, "    refs.", r.key, r.required ? ": required" : "",
                      r.doc.empty() ? "" : " -- ", r.doc, "\n");
    }
  }
  return out;
}

}  // namespace

absl::Status VerbStatus(const Flags& f, std::ostream& out) {
  ASSIGN_OR_RETURN(std::string db, Required(f, "db"));
  ASSIGN_OR_RETURN(std::string session, Required(f, "session"));
  ASSIGN_OR_RETURN(auto engine, OpenDb(db, DbUse::kRead));
  ASSIGN_OR_RETURN(TableStatus st, engine->Status(session, f.Get("branch", "main"),
                                                  f.Get("for", "")));
  out << (f.Has("json") ? StatusJson(st) : RenderStatus(st));
  return absl::OkStatus();
}

absl::Status VerbVerbs(const Flags& f, std::ostream& out) {
  ASSIGN_OR_RETURN(std::string id, Required(f, "ruleset"));
  const kernel::Ruleset* rules = kernel::FindRuleset(id);
  if (rules == nullptr) {
    return absl::NotFoundError(absl::StrCat(
        "flag --ruleset: no ruleset '", id, "'",
        events::DidYouMean(id, kernel::RulesetIds()),
        "; the rulesets are: ", absl::StrJoin(kernel::RulesetIds(), ", ")));
  }
  out << RenderVerbs(*rules);
  return absl::OkStatus();
}

}  // namespace combat::replay
