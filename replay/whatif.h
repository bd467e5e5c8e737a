// What-if: fork a branch at event N with one thing changed, then re-run
// the parent's later declarations on it and report which no longer apply.
//
// The change is one of:
//   die      the value of one die of a recorded roll: the fork is taken just
//            before the command that rolled it, and that command is re-run
//            with the die changed (labelled GmOverride, the reason naming
//            the change);
//   replace  a recorded command (a declaration or a GM ruling) replaced by
//            another; the fork is taken just before it;
//   drop     a recorded command left out (a ruling that never happened);
//   insert   a new command (e.g. a GM ruling) at N, which must end a
//            command; then everything after N is re-run;
//   none     a plain re-run from N (a determinism check).
// Every later command of the parent (its Declaration or Interrupt: the
// command as asked, GM verbs included) is then decided again on the new
// branch, in order, by the ruleset, at the new branch's state. Dice: where
// a re-run asks the same roll as the parent recorded for that command
// (matched by purpose, roller and expression, in order), the parent's dice
// are reused: a Seeded die that keeps its index stays Seeded (it is still
// what the seed gives); any other reused die is relabelled GmOverride with
// the reason "what-if: reused from main#123". Rolls the parent did not
// make use fresh seeded dice. The command's own `dice` are cleared (the
// record answers). A command's references follow what they name to the new
// branch (replay/whatif_refs.h): every `Command.refs` entry (an event by
// seq, a window, a pending act) and an interrupt's window; for logs
// recorded before schema v5 (commands without refs), a GM verb's "subject"
// param and params naming a window ("window", "also_window"). A reference
// whose target was not re-run (or the re-run opened no such window or
// pending act) makes the command no longer apply, the reason naming the
// reference. A refusal by the decider is recorded and the run goes on;
// nothing is written for a refused command.
//
// The parent's commands after the fork point are held in memory.
#ifndef COMBAT_REPLAY_WHATIF_H_
#define COMBAT_REPLAY_WHATIF_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "events/common_generated.h"
#include "kernel/ruleset.h"
#include "replay/jump.h"
#include "replay/progress.h"
#include "store/event_log.h"

namespace combat::replay {

struct WhatIfChange {
  enum class Kind { kNone, kDie, kReplace, kDrop, kInsert };
  Kind kind = Kind::kNone;
  uint64_t seq = 0;  // kDie: the roll event; kReplace/kDrop: an event of
                     // the command (its declaration)
  int die = 0;       // kDie: the die's position in the roll, from 0
  int value = 0;     // kDie: the new value (1..faces)
  fb::CommandT command;  // kReplace/kInsert: declared by the request's
                         // author in the GM role (its own author and role
                         // are replaced)
};

struct WhatIfRequest {
  std::string session;
  std::string parent = "main";
  std::string branch;  // the new branch (must not exist)
  std::string author;  // who asks (required)
  std::string reason;  // why (required)
  uint64_t at = 0;     // kNone/kInsert: the fork seq (0 = the parent's head)
  WhatIfChange change;
};

struct Rerun {
  enum class Outcome {
    kApplied,          // decided and appended
    kNoLongerApplies,  // the decider refused it on the new branch
    kDropped,          // left out by the change
    kNotRerun,         // nothing to re-run (no declaration recorded)
  };
  Outcome outcome = Outcome::kApplied;
  bool changed = false;        // the command the change is about
  uint64_t parent_first = 0;   // its events on the parent (0: inserted)
  uint64_t parent_last = 0;
  uint64_t first = 0;          // its events on the new branch
  uint64_t last = 0;
  std::string command_id;
  std::string description;     // "b: attack a (by b, Player, command t5)"
  std::string why;             // the refusal (or the change applied)
  absl::StatusCode code = absl::StatusCode::kOk;
  bool same_events = false;    // as on the parent, ignoring seqs, hashes
                               // and dice labels
  int reused_rolls = 0;
  int fresh_rolls = 0;
};

struct WhatIfResult {
  std::string session;
  std::string branch;
  std::string parent;
  uint64_t fork_seq = 0;
  uint64_t head = 0;
  std::string change;  // the change, described
  std::vector<Rerun> reruns;
  // The later declarations that no longer apply, in order.
  std::vector<const Rerun*> NoLongerApply() const;
};

// Runs the what-if (see above). Errors before anything is written:
// InvalidArgument naming the field (missing branch/author/reason, a die
// position or value that does not fit, a fork point inside a command),
// NotFound, AlreadyExists for the branch. Errors after the fork (a damaged
// log) leave the branch as far as it got.
absl::StatusOr<WhatIfResult> WhatIf(store::EventLog& log,
                                    const kernel::Ruleset& rules,
                                    const WhatIfRequest& request,
                                    const SeekOptions& seek = {},
                                    Progress* progress = nullptr);

// The report: the fork, one line per re-run command, and the later
// declarations that no longer apply with the decider's reason.
std::string RenderWhatIf(const WhatIfResult& result);

}  // namespace combat::replay

#endif  // COMBAT_REPLAY_WHATIF_H_
