#include "replay/cli.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "kernel/ruleset.h"
#include "replay/cli_flags.h"
#include "replay/cli_verbs.h"
#include "events/nearest.h"

namespace combat::replay {
namespace {

constexpr char kUsage[] = R"(usage: combat <verb> [flags]

verbs:
  rulesets                              list the rulesets this build has
  new      --db DIR --session S --roster FILE [--seed HEX] [--author NAME]
           [--signing-key FILE] [--setup-dice D,D,..] [--json]
                                        create a session from a roster (JSON);
                                        its heads are signed with the Ed25519
                                        key in FILE (64 hex digits; default:
                                        a fresh key); --setup-dice: physical
                                        dice for the set-up's rolls, in order
                                        (as a play script's setup_dice)
  submit   --db DIR --session S [--branch B] --command FILE|- [--json]
                                        submit one command (JSON); print the
                                        events it produced or the rejection
  play     --db DIR --script FILE [--session S] [--seed HEX] [--json]
           [--signing-key FILE]         run a whole script (roster + commands,
                                        optional dice per command); print the
                                        log and the final state. Re-running is
                                        safe: commands apply once (by id).
  log      --db DIR --session S [--branch B] [--from N] [--to N] [--json]
  state    --db DIR --session S [--branch B] [--at N] [--json]
  sessions --db DIR                     list sessions
  status   --db DIR --session S [--branch B] [--for C] [--json]
                                        round, whose turn (or who may act),
                                        each combatant's vitals as current/max,
                                        budgets left, conditions and when they
                                        end, open windows and who may answer;
                                        with --for, C's legal acts now (each a
                                        ready-to-edit command) and why not the
                                        others
  verbs    --ruleset R                  R's verbs: fields, params (type,
                                        required, allowed values), refs
  undo     --db DIR --session S [--branch B] [--command ID] --author GM
           --reason TEXT [--json]       the GM takes back the last command
                                        that still counts (or command ID): a
                                        void, logged with who and why; the
                                        state is as if it never happened

  serve    --db DIR [--listen HOST:PORT] [--threads N] [--max-watchers N]
                                        the table server (server/README.md):
                                        a JSON API, roles from tokens, a live
                                        stream per branch; default
                                        127.0.0.1:0 (any free port), printed
                                        first as "listening on http://..";
                                        stops on SIGTERM or SIGINT
  token    --db DIR --session S [--role gm|player|observer] [--name N]
                                        a participant's token for the server,
                                        printed once (stored only as SHA-256),
                                        for sessions made by new, play or
                                        import; default the GM named "gm"
  token    --db DIR --role operator [--name N]
                                        the server's operator token (creates
                                        and imports sessions, revokes tokens)

replay, audit and explore (see README.md, "Replay tools"):
  jump     --db DIR --session S [--branch B] --at N [--json]
                                        the state after event N (nearest
                                        snapshot + fold), and how it was reached
  step     --db DIR --session S [--branch B] [--at N | --round R [--turn T |
           --actor A] | --turn T] [--count K]
                                        event by event from there (K < 0: back),
                                        each with the state fields it changed
  walk     --db DIR --session S [--branch B] [--at N | --round R [--turn T |
           --actor A] | --turn T]
                                        the same, interactively from standard
                                        input: n, p, g N, r R, t R T, q
  fork     --db DIR --session S [--from B] [--at N] --name NEW --author A
           --reason TEXT                a branch at event N (default: the head)
                                        sharing the prefix; branches of branches
  branches --db DIR --session S         the branch tree: fork points, who, why
  whatif   --db DIR --session S [--from B] --name NEW --author A --reason TEXT
           (--die SEQ[:DIE]=VALUE | --replace SEQ --command FILE | --drop SEQ |
            --insert FILE --at N | --at N)
                                        fork with one thing changed, re-run the
                                        later declarations; report which no
                                        longer apply and why
  diff     --db DIR --session S --a POINT --b POINT
                                        POINT = BRANCH, BRANCH@SEQ or @SEQ: shared
                                        prefix, first divergent event, state
                                        fields that differ by combatant
  verify   --db DIR [--session S] [--branch B] [--no-redecide] [--no-checksums]
           [--against FILE]             hash chain, state hashes, declarations
                                        re-decided, seeded dice once revealed,
                                        storage checksums (RocksDB's blocks, or
                                        each JetStream message's SHA-256); with
                                        --against, that the log still extends
                                        every head in FILE (as `head` printed
                                        them: a rewrite or rollback is named);
                                        exit 2 on a mismatch
  head     --db DIR --session S [--json]
                                        each branch's head seq and hash, to
                                        keep and check later (verify --against)
  explain  --db DIR --session S [--branch B] [--at N] (--event N |
           --pending ID | --combatant C (--resource R | --condition NAME |
           --position))
                                        the causal chain: declaration, dice and
                                        provenance, rules (seed, section, line),
                                        rulings, voids, authors
  reveal   --db DIR --session S [--branch B] [--author A] [--reason TEXT]
           [--id ID] [--json]
                                        the GM reveals the dice secret in force
                                        (gm_reveal); before the end it commits a
                                        fresh secret for the rest of the session
                                        (reveal again at the end); on a branch
                                        forked before a reveal, commits its own
  stats    --db DIR --session S [--branch B] [--include-voided]
                                        dice per face, mean vs expectation, by
                                        author and provenance
  export   --db DIR --session S --out FILE [--branch B,..] [--with-secret]
           [--transcript FILE]          a self-contained bundle (events/bundle.fbs)
  import   --db DIR --bundle FILE [--signing-key FILE]
                                        verify a bundle, then write it; a bundle
                                        that does not verify is refused, naming
                                        the first bad event, nothing written;
                                        with the session's signing key (never
                                        exported), heads from here are signed
  transcript (--db DIR --session S [--branch B,..] | --bundle FILE) [--out FILE]
                                        the readable log of every branch

--json output is JSON Lines: one object per line (an event, a state, a
head), every field present, hashes and bytes as lowercase hex.

read-only verbs (log, state, sessions, jump, step, walk, branches, diff,
verify, explain, stats, export, transcript) never create or change anything;
new, play and import may create a database in an absent or empty directory.

exit codes: 0 ok, 1 rejected/illegal, 2 bad input, not a database or corrupt
data, 3 database in use by another process, or a nats:// log unreachable
(try again later)
)";

using Verb = absl::Status (*)(const Flags&, std::ostream&);

// Every verb but `help` and `rulesets`.
const std::map<std::string, Verb>& Verbs() {
  static const auto* verbs = new std::map<std::string, Verb>{
      {"new", VerbNew},         {"submit", VerbSubmit},
      {"play", VerbPlay},       {"log", VerbLog},
      {"state", VerbState},     {"sessions", VerbSessions},
      {"jump", VerbJump},       {"step", VerbStep},
      {"walk", VerbWalk},       {"fork", VerbFork},
      {"branches", VerbBranches}, {"whatif", VerbWhatIf},
      {"diff", VerbDiff},       {"verify", VerbVerify},
      {"explain", VerbExplain}, {"reveal", VerbReveal},
      {"stats", VerbStats},     {"export", VerbExport},
      {"import", VerbImport},   {"transcript", VerbTranscript},
      {"head", VerbHead},       {"status", VerbStatus},
      {"verbs", VerbVerbs},     {"undo", VerbUndo},
      {"serve", VerbServe},     {"token", VerbToken},
  };
  return *verbs;
}

// Every verb name, `help` and `rulesets` included, sorted.
std::vector<std::string> VerbNames() {
  std::vector<std::string> names = {"help", "rulesets"};
  for (const auto& [name, verb] : Verbs()) names.push_back(name);
  std::sort(names.begin(), names.end());
  return names;
}

// The flags `verb` takes: those its entries in kUsage name, so the usage is
// the one list of them. An entry is a line starting "  <verb> " and the
// lines under it indented less than the descriptions' column; in each, the
// flags before the description.
std::set<std::string> FlagsOf(const std::string& verb) {
  std::set<std::string> flags;
  bool in = false;
  for (absl::string_view line : absl::StrSplit(kUsage, '\n')) {
    const size_t indent = line.find_first_not_of(' ');
    if (indent == absl::string_view::npos) {
      in = false;
      continue;
    }
    if (indent == 2) {
      const absl::string_view rest = line.substr(2);
      in = rest.substr(0, rest.find(' ')) == verb;
    } else if (indent < 2 || indent >= 20) {
      if (indent < 2) in = false;
      continue;  // a heading, or a description line
    }
    if (!in) continue;
    // The syntax ends where the description begins: 3 spaces or more.
    const size_t start = line.find_first_not_of(' ', indent + (indent == 2 ? verb.size() : 0));
    const size_t syntax_end = line.find("   ", start);
    absl::string_view syntax = line.substr(0, syntax_end);
    for (size_t at = syntax.find("--"); at != absl::string_view::npos; at = syntax.find("--", at + 2)) {
      const size_t end = syntax.find_first_not_of("abcdefghijklmnopqrstuvwxyz-", at + 2);
      flags.insert(std::string(syntax.substr(at + 2, end == absl::string_view::npos ? end : end - at - 2)));
    }
  }
  return flags;
}

// InvalidArgument naming the first flag given that `verb` does not take
// (was: ignored without a word, so a mistyped flag changed nothing).
absl::Status CheckFlagsKnown(const Flags& f) {
  const std::set<std::string> known = FlagsOf(f.verb);
  std::vector<std::string> names;
  for (const std::string& n : known) names.push_back("--" + n);
  for (const auto& [key, value] : f.values) {
    if (known.count(key) != 0) continue;
    return absl::InvalidArgumentError(
        events::NoSuchName("flag", absl::StrCat("the flags ", f.verb, " takes"), "--" + key, names));
  }
  return absl::OkStatus();
}

// `message` without a leading "<verb>: " (the library's own context, as
// "what-if: " for whatif): RunCli already names the verb.
absl::string_view WithoutVerb(const std::string& verb, absl::string_view message) {
  const size_t colon = message.find(": ");
  if (colon == absl::string_view::npos) return message;
  std::string word(message.substr(0, colon));
  word.erase(std::remove(word.begin(), word.end(), '-'), word.end());
  return word == verb ? message.substr(colon + 2) : message;
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
    case absl::StatusCode::kUnavailable:
      return kExitInUse;
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
    st = CheckFlagsKnown(*flags);
    if (st.ok()) st = it->second(*flags, out);
  } else {
    const std::string best = events::ClosestName(verb, VerbNames());
    err << "combat: unknown verb '" << verb << "'"
        << (best.empty() ? "" : "; did you mean '" + best + "'?")
        << "\n"
        << kUsage;
    return kExitBadInput;
  }
  if (!st.ok()) {
    st = NameTheMissing(*flags, st);
    const int code = ExitCodeFor(st);
    err << "combat " << verb << ": "
        << (code == kExitRejected ? "rejected: "
            : code == kExitInUse
                ? (absl::StrContains(st.message(), "in use") ? "in use: "
                                                             : "unavailable: ")
                : "error: ")
        << WithoutVerb(verb, st.message()) << "\n";
    return code;
  }
  return kExitOk;
}

}  // namespace combat::replay
