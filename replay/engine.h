// The engine: the C++ API a virtual tabletop or bot embeds, and what the
// `combat` tool is a thin layer over. It joins the pieces: the store (the
// log is the truth), the ruleset's decider, the dice, and the reducer.
//
//   auto engine = Engine::Open("./data");
//   engine->CreateSession("s1", roster, secret, "gm");
//   engine->Submit("s1", "main", command);   // events, or a rejection
//   engine->StateAt("s1", "main", 0);        // the state at the head
//
// Submit: a command without an author is authored by its actor (a player
// acting for their creature), or by "gm" for the GM role. It reads the
// branch (fold of its events), asks the ruleset, and
// appends the command's events as one atomic batch expecting the head it
// read; a concurrent writer makes it fail with Aborted and write nothing.
// A command whose id was already applied returns the recorded events with
// `duplicate = true`. Dice: the command's `dice` (physical dice) are used
// first, in order, labelled Manual; further dice come from the session's
// seeded source. Supplying more dice than the command uses is an error
// (InvalidArgument), so a typo cannot shift later rolls. Seeded dice use
// the secret of the commitment the branch's state holds at its head
// (replay/dice_epoch.h).
//
// A gm_reveal before the session's end (Submit, or `combat reveal`) draws
// a fresh 32-byte secret (RAND_bytes) and records SeedRevealed{secret,
// next_commitment = SHA-256(fresh)}; the fresh secret is stored with the
// events in one batch (store::LogWriter::AppendReveal), so a crash leaves
// both or neither. The engine adds the command's next_commitment param
// (one given by the caller is refused: the engine would not hold its
// secret); a retried reveal id returns the recorded events. At or after the
// end, a reveal commits nothing new.
//
// Snapshots (replay/jump.h): Submit writes one at every multiple of
// SeekOptions::snapshot_every seqs its events cover; StateAt starts from
// the nearest one whose state hashes to its event's recorded state_hash
// and folds the rest (writing the snapshots it passes that are missing).
//
// Rulesets: the engine finds them with kernel::FindRuleset, which the
// binary links (//kernel:registry in :engine; tests may link their own).
//
// Errors: a ruleset's refusal keeps its code (FailedPrecondition for an
// illegal act, InvalidArgument/NotFound for a malformed command); DataLoss
// for a damaged log. Nothing is written on any error.
#ifndef COMBAT_REPLAY_ENGINE_H_
#define COMBAT_REPLAY_ENGINE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "events/codec.h"
#include "events/input_generated.h"
#include "kernel/fold.h"
#include "kernel/ruleset.h"
#include "kernel/state.h"
#include "replay/fork.h"
#include "replay/jump.h"
#include "replay/status.h"
#include "replay/whatif.h"
#include "store/event_log.h"

namespace combat::replay {

struct SubmitResult {
  std::vector<events::EventBuffer> events;
  bool duplicate = false;
  // Said after the command (replay/dice_epoch.h): the branch's dice secret
  // is public (revealed on another branch, or before this build's fresh
  // commitments).
  std::vector<std::string> warnings;
};


class Engine {
 public:
  static absl::StatusOr<std::unique_ptr<Engine>> Open(
      const std::string& db_path, store::Options options = {});

  // Creates session `session` from `roster` (its ruleset field picks the
  // ruleset). `secret` is the dice seed (exactly 32 bytes); when absent a
  // random one is drawn from the OS. `setup_dice` are physical dice for the
  // set-up's rolls (initiative), used first and labelled Manual; leaving
  // some unused is InvalidArgument. `signing_key`: the Ed25519 private key
  // (32 bytes) that signs the session's published heads (replay/anchor.h),
  // e.g. the GM's own long-term key; when absent a fresh one is drawn. Its
  // public key is chained in SessionStarted.signing_key; the private key is
  // stored with the session and never exported. Returns the set-up events.
  absl::StatusOr<std::vector<events::EventBuffer>> CreateSession(
      const std::string& session, const fb::RosterT& roster,
      std::optional<std::vector<uint8_t>> secret, const std::string& author,
      std::vector<int> setup_dice = {},
      std::optional<std::vector<uint8_t>> signing_key = std::nullopt);

  absl::StatusOr<SubmitResult> Submit(const std::string& session,
                                      const std::string& branch,
                                      const fb::CommandT& command);

  // The state after event `seq` (0 = the head) of `branch`: the nearest
  // valid snapshot plus a fold, ending on a state that hashes to the target
  // event's recorded state_hash (DataLoss otherwise). `report` (may be
  // null) says which snapshot was used, how many events were folded, and
  // which snapshots were ignored. May write snapshots (a cache).
  absl::StatusOr<kernel::State> StateAt(const std::string& session,
                                        const std::string& branch,
                                        uint64_t seq = 0,
                                        SeekReport* report = nullptr) const;

  // Creates branch `request.branch` at `request.at` of `request.parent`
  // (replay/fork.h). Returns the fork seq.
  absl::StatusOr<uint64_t> Fork(const ForkRequest& request);

  // Forks `request.branch` with one thing changed and re-runs the parent's
  // later declarations on it (replay/whatif.h), with the session's
  // ruleset. `progress` may be null.
  absl::StatusOr<WhatIfResult> WhatIf(const WhatIfRequest& request,
                                      Progress* progress = nullptr);

  // What a GM at the table needs to know at the head of `branch`
  // (replay/status.h); with `for_combatant`, its legal acts now.
  absl::StatusOr<TableStatus> Status(const std::string& session,
                                     const std::string& branch,
                                     const std::string& for_combatant = "");

  // The ruleset `session` was recorded with, as this build has it:
  // FailedPrecondition when the build lacks it or has another version.
  absl::StatusOr<const kernel::Ruleset*> RulesetOf(
      const std::string& session) const;

  // Snapshot policy for StateAt and Submit (progress: not owned, may be
  // null; shown while folding a long branch).
  void set_seek_options(const SeekOptions& options) { seek_ = options; }
  const SeekOptions& seek_options() const { return seek_; }

  absl::StatusOr<std::vector<events::EventBuffer>> Events(
      const std::string& session, const std::string& branch, uint64_t from = 1,
      uint64_t to = 0) const;

  // Visits events 1..upto of a branch from the store (for voids).
  kernel::PrefixScan BranchScan(const std::string& session,
                                const std::string& branch) const;

  store::EventLog& log() { return *log_; }
  const store::EventLog& log() const { return *log_; }

 private:
  explicit Engine(std::unique_ptr<store::EventLog> log);
  std::unique_ptr<store::EventLog> log_;
  SeekOptions seek_;
};

}  // namespace combat::replay

#endif  // COMBAT_REPLAY_ENGINE_H_
