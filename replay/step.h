// Step: walk a branch event by event, showing what each event changed
// (the state diff it caused), forward or backward, from any event or from
// the start of round R or of a turn.
//
//   Walker w(log, "s1", "main");
//   w.Goto(12);        // event 12 and what it changed
//   w.Next(); w.Prev();
//   w.ToRound(2);      // the RoundStarted of round 2
//   w.ToTurn(2, 1);    // the first TurnStarted of round 2 (or by actor)
//
// Each step costs one seek (jump.h: nearest snapshot + a short fold) or,
// walking forward, one fold.
#ifndef COMBAT_REPLAY_STEP_H_
#define COMBAT_REPLAY_STEP_H_

#include <cstdint>
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "events/codec.h"
#include "kernel/state.h"
#include "replay/jump.h"
#include "replay/state_diff.h"
#include "store/event_log.h"

namespace combat::replay {

struct Step {
  std::optional<events::EventBuffer> event;
  std::vector<FieldDiff> changes;  // the state before -> after the event
  kernel::State after;
  uint64_t head = 0;               // the branch's head seq
  // Set when the event was voided later on the branch (it counted when it
  // happened; it no longer counts at the head).
  bool voided_later = false;
  bool unapplied_later = false;
};

// "#12 roll ... " then the changes, indented; marks voided events.
std::string RenderStep(const Step& step);

class Walker {
 public:
  Walker(store::EventLog& log, std::string session, std::string branch,
         SeekOptions options = {});

  // Event `seq` (1..head) and what it changed.
  absl::StatusOr<Step> Goto(uint64_t seq);
  // The event after / before the current one (OutOfRange at the ends).
  absl::StatusOr<Step> Next();
  absl::StatusOr<Step> Prev();
  // The event that starts round `round` (RoundStarted).
  absl::StatusOr<Step> ToRound(int64_t round);
  // The `turn`-th TurnStarted (from 1) of round `round` (0 = counting from
  // the session's start), or, with `actor`, that actor's turn in `round`.
  absl::StatusOr<Step> ToTurn(int64_t round, int64_t turn,
                              const std::string& actor = "");

  uint64_t at() const { return at_; }

  // The seq of the event ToRound/ToTurn would go to (NotFound naming the
  // round and turn when there is none).
  absl::StatusOr<uint64_t> FindRound(int64_t round) const;
  absl::StatusOr<uint64_t> FindTurn(int64_t round, int64_t turn,
                                    const std::string& actor) const;

 private:
  absl::StatusOr<Step> StepFrom(kernel::State before, uint64_t seq);
  absl::Status LoadHead();

  store::EventLog& log_;
  std::string session_;
  std::string branch_;
  SeekOptions options_;
  uint64_t at_ = 0;
  std::optional<kernel::State> current_;  // the state after event at_
  std::optional<kernel::State> head_;
};

// An interactive walk over `in` (one command a line): n (next), p
// (previous), g N (go to event N), r R (start of round R), t R T (turn T of
// round R), q (quit). Prints each step to `out`. Starts at `start`.
absl::Status Walk(Walker& walker, uint64_t start, std::istream& in,
                  std::ostream& out);

}  // namespace combat::replay

#endif  // COMBAT_REPLAY_STEP_H_
