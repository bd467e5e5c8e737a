// Export / import: a session as one self-contained file (events/bundle.fbs,
// identifier "CMBB"): every branch's own events as their canonical stored
// bytes, the ruleset id and version, the dice commitment, each branch's
// fork point (who forked and why) and head hash; optionally the dice
// secrets (to move a live session to another machine): the first, and the
// later ones of reveals before the end (format 2; format 1 still read).
//
// Import trusts nothing in the file: the structure is checked (FlatBuffers
// Verifier, identifier, ids, parents before children, seq ranges), then
// every branch is verified in memory exactly as `verify` does (chain, state
// hashes, re-decision with the ruleset when this build has it, seeded dice
// once the secret is known, each branch's head hash); only then is anything
// written. A bundle that fails is refused with the first bad event named,
// and the database is left untouched.
#ifndef COMBAT_REPLAY_BUNDLE_H_
#define COMBAT_REPLAY_BUNDLE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "events/codec.h"
#include "kernel/ruleset.h"
#include "replay/progress.h"
#include "replay/verify.h"
#include "store/event_log.h"

namespace combat::replay {

struct BundleBranch {
  store::BranchMeta meta;
  store::Head head;
  std::vector<events::EventBuffer> own;  // seqs fork_seq+1 .. head.seq
};

struct Bundle {
  store::SessionMeta meta;
  int32_t schema_version = 0;
  std::vector<uint8_t> commitment;
  std::vector<uint8_t> secret;  // empty unless exported with it
  // The later secrets the database stores (a reveal's fresh ones), with
  // the secret only; each is used for the epoch of its commitment.
  std::vector<std::vector<uint8_t>> later_secrets;
  std::vector<BundleBranch> branches;  // parents before children

  // Events 1..head of `branch` (its ancestors' shared prefix, then its own)
  // as a verify source. REQUIRES: the bundle outlives the source.
  absl::StatusOr<BranchSource> Source(const std::string& branch) const;
  const BundleBranch* Find(const std::string& branch) const;
};

// Reads `session` from the store: every branch (or those named, with
// their ancestors), parents first.
absl::StatusOr<Bundle> ReadSession(const store::EventLog& log,
                                   const std::string& session,
                                   bool with_secret,
                                   const std::vector<std::string>& branches = {});

std::vector<uint8_t> EncodeBundle(const Bundle& bundle);
// Structure only (events are decoded and Verifier-checked; their chain is
// ImportBundle's job). DataLoss naming the branch and seq of a malformed
// event; InvalidArgument for a file that is not a bundle.
absl::StatusOr<Bundle> DecodeBundle(const std::vector<uint8_t>& bytes);

// Verifies every branch of `bundle` in memory (see above).
absl::StatusOr<VerifyReport> VerifyBundle(const Bundle& bundle,
                                          const kernel::Ruleset* rules,
                                          Progress* progress = nullptr);

struct ImportResult {
  VerifyReport verify;    // mismatch set: refused, nothing written
  bool imported = false;
  uint64_t events = 0;    // events written
};

// Verifies, then writes the session in one step (store::EventLog::
// ImportSession: one ingested table file, all or nothing, durable on
// return; AlreadyExists when the database has a session of that id:
// nothing is written). The secret is stored when the
// bundle carries one (and it matches the commitment); otherwise the
// imported session cannot roll seeded dice here (engine.h).
// `signing_key` (may be empty): the session's Ed25519 private key (never
// in a bundle), so heads published from this database are signed too; it
// must be the key whose public half SessionStarted chains
// (InvalidArgument naming it otherwise, nothing written).
absl::StatusOr<ImportResult> ImportBundle(store::EventLog& log,
                                          const Bundle& bundle,
                                          const kernel::Ruleset* rules,
                                          Progress* progress = nullptr,
                                          const std::vector<uint8_t>& signing_key = {});

}  // namespace combat::replay

#endif  // COMBAT_REPLAY_BUNDLE_H_
