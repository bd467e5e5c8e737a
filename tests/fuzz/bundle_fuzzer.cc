// libFuzzer target for bundles given to `combat import` (replay/bundle.h):
// untrusted bytes through DecodeBundle (structure, Verifier on every
// event), then, when the structure holds, ImportBundle into a real RocksDB
// (verify in memory with the ruleset, then one all-or-nothing write).
// Properties: no crash, hang or sanitizer report; a rejection is
// InvalidArgument/DataLoss (decode) or a verify mismatch (import) with a
// message; a refused import writes nothing (the database's sessions are
// unchanged). Seeds: corpus/bundle_fuzzer (small exports of the examples,
// one with a fork).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "kernel/ruleset.h"
#include "replay/bundle.h"
#include "store/event_log.h"

namespace {

[[noreturn]] void Fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "bundle_fuzzer: %s: %s\n", what, detail.c_str());
  std::abort();
}

// One database for the whole run (opening RocksDB per input would be the
// whole cost), in a fresh directory.
combat::store::EventLog& Log() {
  static combat::store::EventLog* log = [] {
    const char* tmp = std::getenv("TMPDIR");
    std::string dir = std::string(tmp != nullptr ? tmp : "/tmp") + "/bundle_fuzzer.XXXXXX";
    if (mkdtemp(dir.data()) == nullptr) Fail("mkdtemp", dir);
    auto opened = combat::store::EventLog::Open(dir + "/db");
    if (!opened.ok()) Fail("open", opened.status().ToString());
    return opened->release();
  }();
  return *log;
}

size_t SessionCount() {
  auto sessions = Log().ListSessions();
  if (!sessions.ok()) Fail("list sessions", sessions.status().ToString());
  return sessions->size();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<uint8_t> bytes(data, data + size);
  absl::StatusOr<combat::replay::Bundle> bundle = combat::replay::DecodeBundle(bytes);
  if (!bundle.ok()) {
    const absl::StatusCode code = bundle.status().code();
    if (code != absl::StatusCode::kInvalidArgument && code != absl::StatusCode::kDataLoss) {
      Fail("decode error code", bundle.status().ToString());
    }
    if (bundle.status().message().empty()) Fail("decode error without a message", "");
    return 0;
  }
  // As `combat import` does: re-decision only with the recorded version.
  const combat::kernel::Ruleset* rules = combat::kernel::FindRuleset(bundle->meta.ruleset);
  if (rules != nullptr && rules->version() != bundle->meta.ruleset_version) rules = nullptr;
  const size_t before = SessionCount();
  absl::StatusOr<combat::replay::ImportResult> imported =
      combat::replay::ImportBundle(Log(), *bundle, rules);
  const size_t after = SessionCount();
  const bool wrote = imported.ok() && imported->imported;
  if (!wrote && after != before) {
    Fail("a refused import wrote a session",
         imported.ok() ? "verify mismatch" : imported.status().ToString());
  }
  if (wrote && after != before + 1) Fail("an import did not add one session", "");
  if (!imported.ok() && imported.status().message().empty()) {
    Fail("import error without a message", "");
  }
  if (imported.ok() && !imported->imported && imported->verify.ok()) {
    Fail("import refused without a mismatch", "");
  }
  return 0;
}
