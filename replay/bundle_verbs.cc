// combat export / import / transcript.
#include <fstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "events/status_macros.h"
#include "kernel/ruleset.h"
#include "replay/bundle.h"
#include "replay/cli_verbs.h"
#include "replay/engine.h"
#include "replay/progress.h"
#include "replay/transcript.h"

namespace combat::replay {
namespace {

absl::Status WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  file.close();
  if (!file) return absl::InvalidArgumentError(absl::StrCat("cannot write file '", path, "'"));
  return absl::OkStatus();
}

absl::StatusOr<Bundle> BundleFromFile(const std::string& path) {
  ASSIGN_OR_RETURN(std::string text, ReadFile(path));
  return DecodeBundle(std::vector<uint8_t>(text.begin(), text.end()));
}

}  // namespace

absl::Status VerbExport(const Flags& f, std::ostream& out) {
  ASSIGN_OR_RETURN(std::string db, Required(f, "db"));
  ASSIGN_OR_RETURN(std::string session, Required(f, "session"));
  ASSIGN_OR_RETURN(std::string path, Required(f, "out"));
  RETURN_IF_ERROR(CheckOutsideDb(db, path, "out"));
  if (f.Has("transcript")) {
    RETURN_IF_ERROR(CheckOutsideDb(db, f.Get("transcript"), "transcript"));
  }
  std::vector<std::string> branches;
  if (f.Has("branch")) branches = absl::StrSplit(f.Get("branch"), ',');
  ASSIGN_OR_RETURN(auto engine, OpenDb(db, DbUse::kRead));
  ASSIGN_OR_RETURN(Bundle b, ReadSession(engine->log(), session, f.Has("with-secret"),
                                         branches));
  const std::vector<uint8_t> bytes = EncodeBundle(b);
  RETURN_IF_ERROR(WriteFile(path, std::string(bytes.begin(), bytes.end())));
  uint64_t events = 0;
  for (const BundleBranch& br : b.branches) events += br.own.size();
  out << "exported session " << session << " (" << b.meta.ruleset << " v"
      << b.meta.ruleset_version << "): " << b.branches.size() << " branches, " << events
      << " events, " << bytes.size() << " bytes to " << path
      << (b.secret.empty() ? "" : " (WITH the dice secret)") << "\n";
  if (f.Has("transcript")) {
    ASSIGN_OR_RETURN(std::string t, RenderTranscript(b));
    RETURN_IF_ERROR(WriteFile(f.Get("transcript"), t));
    out << "transcript written to " << f.Get("transcript") << "\n";
  }
  return absl::OkStatus();
}

absl::Status VerbImport(const Flags& f, std::ostream& out) {
  ASSIGN_OR_RETURN(std::string db, Required(f, "db"));
  ASSIGN_OR_RETURN(std::string path, Required(f, "bundle"));
  ASSIGN_OR_RETURN(Bundle b, BundleFromFile(path));
  ASSIGN_OR_RETURN(auto signing_key, SigningKey(f));
  // ImportBundle writes through EventLog::ImportSession: one ingested
  // table file, durable when it returns whatever Options::sync says.
  ASSIGN_OR_RETURN(auto engine, OpenDb(db, DbUse::kCreate));
  const kernel::Ruleset* rules = nullptr;
  if (const kernel::Ruleset* r = kernel::FindRuleset(b.meta.ruleset);
      r != nullptr && r->version() == b.meta.ruleset_version) {
    rules = r;
  }
  Progress progress = Progress::OnStderr(absl::StrCat("import ", b.meta.session));
  ASSIGN_OR_RETURN(ImportResult r,
                   ImportBundle(engine->log(), b, rules, &progress,
                                signing_key.value_or(std::vector<uint8_t>())));
  if (rules == nullptr) {
    r.verify.notes.push_back(absl::StrCat("declarations not re-decided: this build has no ",
                                          b.meta.ruleset, " v", b.meta.ruleset_version));
  }
  out << RenderVerifyReport(r.verify);
  if (!r.imported) {
    return absl::DataLossError(absl::StrCat("import refused: ", r.verify.mismatch->summary));
  }
  out << "imported session " << b.meta.session << ": " << b.branches.size()
      << " branches, " << r.events << " events"
      << (b.secret.empty() ? " (without the dice secret: new seeded rolls need it)" : "")
      << "\n";
  return absl::OkStatus();
}

absl::Status VerbTranscript(const Flags& f, std::ostream& out) {
  Bundle b;
  if (f.Has("bundle")) {
    ASSIGN_OR_RETURN(b, BundleFromFile(f.Get("bundle")));
  } else {
    ASSIGN_OR_RETURN(std::string db, Required(f, "db"));
    ASSIGN_OR_RETURN(std::string session, Required(f, "session"));
    if (f.Has("out")) RETURN_IF_ERROR(CheckOutsideDb(db, f.Get("out"), "out"));
    std::vector<std::string> branches;
    if (f.Has("branch")) branches = absl::StrSplit(f.Get("branch"), ',');
    ASSIGN_OR_RETURN(auto engine, OpenDb(db, DbUse::kRead));
    ASSIGN_OR_RETURN(b, ReadSession(engine->log(), session, false, branches));
  }
  ASSIGN_OR_RETURN(std::string t, RenderTranscript(b));
  if (f.Has("out")) return WriteFile(f.Get("out"), t);
  out << t;
  return absl::OkStatus();
}

}  // namespace combat::replay
