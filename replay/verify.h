// Verify: recompute everything the log claims, and stop at the first thing
// that does not hold (events/FORMAT.md, "Hash chain"). For each event of a
// branch, from seq 1, in this order:
//   store      the store read it (FlatBuffers Verifier, key = envelope, no
//              gaps, the head record's hash; RocksDB block checksums of what
//              was read)
//   canonical  its bytes are the canonical encoding
//   envelope   session, seq, ruleset and ruleset version are the session's
//   chain      prev_hash = SHA-256 of the event before (zeros for seq 1).
//              A broken link is blamed on the event whose bytes changed:
//              the event before the link when the following link holds,
//              else the event after it.
//   reducer    the reducer applies it (strict)
//   state hash state_hash = SHA-256 of the replayed state
//   records    the stored session record's title = SessionStarted.title
//              (the store's and a bundle's records are only shown as part
//              of a session when chained events say the same)
//   dice seed  once the secret is known (revealed in the log, on any branch
//              of the session): SHA-256(secret) = the commitment of
//              SessionStarted, and every Seeded die = SeededDice::ValueAt
// and for each recorded command (recorded.h), once its events are in:
//   re-decision  the command, re-decided by the ruleset at the state
//              before it with the recorded dice (ExactOracle +
//              RecordedByIndex), yields byte-identical events. The set-up
//              is re-decided from the roster its events record
//              (setup_redecide.h); a command cut by a fork point must
//              yield the recorded events as a prefix.
//   command markers  every command's marker (what makes a retry
//              idempotent) names its events' seqs (store sources only;
//              store/command_markers.h)
// Before the branches, for a session: the dice secret this database stores
// against main#1's commitment ("dice secret", verify_secret.h), on every run.
// Then, for a session: RocksDB's own checksums over every table file
// (EventLog::VerifyChecksums).
//
// With re-decision, a command re-decided to byte-identical events vouches
// for its events' canonical bytes, links and state hashes (re-decided
// events are canonical, chained and hashed by the decider), so those are
// not computed twice; on any failure verify rewinds to the start of the
// command and checks its events one by one, giving the same report
// (VerifyOptions::trust_redecision, verify.cc).
//
// The first mismatch is reported with the event, both states (the state
// before and the replayed state after; the recorded state too when a
// snapshot holds it) or both events (recorded and re-decided), and the
// fields that differ. Verification never writes.
#ifndef COMBAT_REPLAY_VERIFY_H_
#define COMBAT_REPLAY_VERIFY_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "events/codec.h"
#include "events/hash.h"
#include "kernel/ruleset.h"
#include "kernel/state.h"
#include "replay/progress.h"
#include "store/event_log.h"

namespace combat::replay {

// Where verify reads one branch from: the store, or memory (import).
struct BranchSource {
  std::string session;
  std::string branch;
  uint64_t head = 0;
  std::optional<events::Digest> head_hash;  // checked after the last event
  // The branch's fork record as the store (or a bundle) keeps it, when the
  // branch is a fork: checked against its chained BranchForked event
  // (schema v6), the first of the branch's own events.
  std::optional<store::BranchMeta> fork;
  // Visits events from..to (1-based, inclusive) in seq order.
  std::function<absl::Status(
      uint64_t from, uint64_t to,
      const std::function<absl::Status(const events::EventBuffer&)>&)>
      scan;
  // Optional: a check fed every event of the walk, in seq order, once it
  // passed the checks above, and told when the walk ends (the store
  // source: the command-marker cross-check, store/command_markers.h). An
  // error is a "command markers" mismatch at `observed_seq()`.
  std::function<absl::Status(const events::EventBuffer&)> observe;
  std::function<absl::Status()> observe_end;
  std::function<uint64_t()> observed_seq;
  // The observer's verdict on an event depends only on the events fed
  // before it (and it may be called from another thread): verify's
  // pipeline may then run it ahead of the walk, on events the walk has
  // not checked yet (VerifyOptions::pipeline_from). The report is the
  // same; only the walk reaching an event consults its verdict.
  bool observe_ahead = false;
};

// A source over the store (the store adds its own read checks).
absl::StatusOr<BranchSource> StoreSource(const store::LogReader& log,
                                         const std::string& session,
                                         const std::string& branch);

struct VerifyOptions {
  bool redecide = true;  // re-run declarations (needs the ruleset)
  bool seeds = true;     // check seeded dice once the secret is known
  // Let a command re-decided to identical events vouch for its events'
  // canonical bytes, links and state hashes (verify.cc, "the fast path");
  // false recomputes them for every event. Same report either way.
  bool trust_redecision = true;
  // A secret revealed elsewhere in the session (verified against the
  // commitment before use); empty = only what this branch reveals.
  std::vector<uint8_t> secret;
  // Later secrets (issue 16: a reveal before the end commits a fresh one),
  // each used for the dice rolled while the commitment equal to its
  // SHA-256 is in force; a secret matching no commitment is unused.
  std::vector<std::vector<uint8_t>> later_secrets;
  // On a branch of at least `pipeline_from` events, and without the fast
  // path (trust_redecision off, or no re-decision), each event's canonical
  // check and SHA-256 run on a worker thread ahead of the walk, in batches
  // of `pipeline_batch` events (replay/verify_pipeline.h). Same report
  // either way; tests lower both to pipeline short branches.
  uint64_t pipeline_from = 4096;
  size_t pipeline_batch = 256;
  Progress* progress = nullptr;  // not owned; may be null
  // The recorded state after `seq`, when something holds it (a snapshot),
  // for mismatch reports; may be null.
  std::function<std::optional<kernel::State>(uint64_t seq)> recorded_state;
};

struct Mismatch {
  std::string check;    // "store", "canonical", "envelope", "chain",
                        // "reducer", "state hash", "dice seed",
                        // "re-decision", "records", "dice secret",
                        // "checksums", "anchor" (replay/anchor.h)
  std::string branch;
  uint64_t seq = 0;     // the event named (0 when none: checksums)
  std::string summary;  // one line naming the event
  std::string details;  // events, states and the fields that differ
};

struct VerifyReport {
  std::string session;
  std::vector<std::string> branches;
  uint64_t events = 0;
  uint64_t commands_redecided = 0;
  uint64_t seeded_dice_checked = 0;
  bool seed_known = false;
  bool checksums_checked = false;
  std::vector<std::string> notes;  // what was not checked, and why
  std::optional<Mismatch> mismatch;
  bool ok() const { return !mismatch.has_value(); }
};

// Verifies one branch. `rules` may be null (no re-decision; noted). The
// report's mismatch is set on the first failure; the status is an error
// only when verification could not run (e.g. an unknown session).
absl::StatusOr<VerifyReport> VerifyBranchEvents(const BranchSource& source,
                                                const store::SessionMeta& meta,
                                                const kernel::Ruleset* rules,
                                                const VerifyOptions& options);

// Verifies `branch` of `session` (every branch when empty), then RocksDB's
// checksums (when `checksums`). The secret, if any branch revealed it,
// is used for every branch.
absl::StatusOr<VerifyReport> VerifySession(store::EventLog& log,
                                           const kernel::Ruleset* rules,
                                           const std::string& session,
                                           const std::string& branch,
                                           bool checksums,
                                           VerifyOptions options);

// "verify s1: OK ..." or "verify s1: MISMATCH (chain) at event #7 ..."
// followed by the details.
std::string RenderVerifyReport(const VerifyReport& report);

}  // namespace combat::replay

#endif  // COMBAT_REPLAY_VERIFY_H_
