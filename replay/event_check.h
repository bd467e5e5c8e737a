// Verify's per-event checks (internal to replay/verify): every check of
// one event of a branch, in the order replay/verify.h lists them, and the
// walk's position between events.
//
// The position (the replayed state, the chain, the dice secret, the counts,
// notes and mismatch of the report) is one value, EventCheck::Position. A
// copy is a checkpoint; assigning it back rewinds the walk, report and all.
// That is how verify's fast path (verify.cc) goes back to the start of a
// command to check it event by event: nothing the checks change lives
// outside the position, so the rewound walk reports what a walk that was
// never fast would report.
#ifndef COMBAT_REPLAY_EVENT_CHECK_H_
#define COMBAT_REPLAY_EVENT_CHECK_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "events/codec.h"
#include "events/hash.h"
#include "kernel/fold.h"
#include "kernel/state.h"
#include "replay/verify.h"
#include "replay/verify_pipeline.h"
#include "store/log_types.h"

namespace combat::replay {

class EventCheck {
 public:
  // A broken prev_hash link, held until the link after it says which of
  // the two events was altered.
  struct PendingLink {
    uint64_t seq = 0;
    std::string recorded;  // the prev_hash event `seq` records
    std::string actual;    // the hash of the event before it
    std::optional<events::EventBuffer> previous;
    events::EventBuffer event;
  };

  // Everything the checks read and change between events.
  struct Position {
    kernel::State state;  // after event next_seq - 1
    events::Digest prev{};  // the hash of event next_seq - 1 (zeros first)
    std::optional<events::EventBuffer> previous;  // that event
    std::optional<PendingLink> pending;
    uint64_t next_seq = 1;
    std::optional<std::vector<uint8_t>> secret;  // of `commitment`, once known
    // The commitment in force: SessionStarted's, then each SeedRevealed's
    // next_commitment (events/FORMAT.md, "Dice").
    std::vector<uint8_t> commitment;
    // Every secret known so far, by commitment (the options', and those
    // revealed on the way).
    std::map<std::vector<uint8_t>, std::vector<uint8_t>> known;
    VerifyReport report;  // counts, notes and the first mismatch
  };

  // `state_before(seq)`: the state before event `seq` of the command being
  // checked, for mismatch reports (the caller keeps the commands).
  // `prefix` reads the branch's earlier events (kernel::ApplyEvent's).
  EventCheck(const BranchSource& source, const store::SessionMeta& meta,
             const VerifyOptions& options, const kernel::PrefixScan* prefix,
             std::function<kernel::State(uint64_t seq)> state_before);

  Position& at() { return at_; }
  const Position& at() const { return at_; }
  bool stopped() const { return at_.report.mismatch.has_value(); }

  // Records the first mismatch (later ones are ignored).
  void Fail(std::string check, uint64_t seq, std::string summary,
            std::string details);

  // The checks of an event on its own, before command boundaries are
  // considered: a pending broken link is blamed by this event's link (and
  // the walk stops), canonical bytes, envelope. `pre`: the pipeline's
  // canonical check and hash (may be null). False when the walk stops.
  bool CheckSelf(const events::EventBuffer& buffer, const Prechecked* pre);
  // The rest, in the branch: the link (a broken one is held: PendingLink),
  // reducer, state hash, dice, records; then the event is counted. False
  // when the walk stops.
  bool CheckInBranch(const events::EventBuffer& buffer, const Prechecked* pre);

  // The session and seq the event must carry (envelope).
  bool EnvelopeOk(const fb::Event& e) const;

  // An event whose command re-decision vouches for its canonical bytes,
  // link and state hash (the fast path): reducer, dice and records only,
  // then counted. False when one fails (the caller rewinds).
  bool ApplyVouched(const events::EventBuffer& buffer);
  // A vouched command ended with `last`: the chain goes on from its hash.
  void ChainFrom(const events::EventBuffer& last);

  // The branch's observer (BranchSource::observe) on an event that passed
  // its checks; `pre` carries its verdict when the pipeline ran it ahead
  // (`observed_ahead`). False when it fails (a "command markers" mismatch).
  bool Observe(const events::EventBuffer& buffer, const Prechecked* pre,
               bool observed_ahead);

  // Blames a broken link still held at the end of the branch against the
  // head record. Nothing when none is held.
  void ResolvePendingAtEnd();
  // The end of the branch: a fork without its fork record, the note for
  // forks of earlier schemas, the observer's end, the head record's hash.
  void FinishBranch();

 private:
  void ResolveChain(std::optional<bool> next_link_ok);
  bool CheckDice(const events::EventBuffer& buffer);
  bool CheckRecords(const events::EventBuffer& buffer);
  void StateHashMismatch(const events::EventBuffer& buffer,
                         const kernel::State& before);
  void Counted();

  const BranchSource& source_;
  const store::SessionMeta& meta_;
  const VerifyOptions& options_;
  const kernel::PrefixScan* prefix_;
  std::function<kernel::State(uint64_t)> state_before_;
  Position at_;
};

}  // namespace combat::replay

#endif  // COMBAT_REPLAY_EVENT_CHECK_H_
