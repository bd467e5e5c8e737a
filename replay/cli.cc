#include "replay/cli.h"

#include <map>

#include "kernel/ruleset.h"
#include "replay/cli_flags.h"
#include "replay/cli_verbs.h"

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

using Verb = absl::Status (*)(const Flags&, std::ostream&);

// Every verb but `help` and `rulesets`.
const std::map<std::string, Verb>& Verbs() {
  static const auto* verbs = new std::map<std::string, Verb>{
      {"new", VerbNew},     {"submit", VerbSubmit}, {"play", VerbPlay},
      {"log", VerbLog},     {"state", VerbState},   {"sessions", VerbSessions},
  };
  return *verbs;
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
  } else if (auto it = Verbs().find(verb); it != Verbs().end()) {
    st = it->second(*flags, out);
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
