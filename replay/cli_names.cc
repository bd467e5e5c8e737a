// When a verb fails because a session or branch named on the command line
// does not exist, the error names the ones that do, nearest first.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "replay/cli_verbs.h"
#include "events/nearest.h"

namespace combat::replay {
namespace {

// The branch flags a verb may take: --branch (most), --from (fork, whatif),
// --a and --b (diff: POINT = BRANCH, BRANCH@SEQ or @SEQ).
constexpr const char* kBranchFlags[] = {"branch", "from", "a", "b"};

// The branch a flag's value names ("" for none: diff's "@SEQ").
std::string BranchOf(const std::string& value) {
  return value.substr(0, value.find('@'));
}

}  // namespace

absl::Status NameTheMissing(const Flags& f, const absl::Status& st) {
  if (!absl::IsNotFound(st) || !f.Has("db") || !f.Has("session")) return st;
  auto engine = OpenDb(f.Get("db"), DbUse::kRead);
  if (!engine.ok()) return st;
  const store::EventLog& log = (*engine)->log();
  const std::string session = f.Get("session");
  auto sessions = log.ListSessions();
  if (!sessions.ok()) return st;
  bool found = false;
  for (const std::string& s : *sessions) found = found || s == session;
  if (!found) {
    return absl::NotFoundError(
        events::NoSuchName("session", "sessions", session, *sessions));
  }
  auto branches = log.ListBranches(session);
  if (!branches.ok()) return st;
  std::vector<std::string> names;
  for (const store::BranchMeta& b : *branches) names.push_back(b.branch);
  for (const char* flag : kBranchFlags) {
    if (!f.Has(flag)) continue;
    const std::string branch = BranchOf(f.Get(flag));
    if (branch.empty()) continue;
    bool exists = false;
    for (const std::string& b : names) exists = exists || b == branch;
    if (!exists) {
      return absl::NotFoundError(absl::StrCat(
          "flag --", flag, ": ", events::NoSuchName("branch", "branches", branch, names),
          " (in session '", session, "')"));
    }
  }
  return st;
}

}  // namespace combat::replay
