// Verify's re-decider: one recorded command decided again, at the state
// before it and with its recorded dice, by the ruleset it was recorded with
// (the set-up from the roster its events record; a fork record from the
// branch record it was made from), and compared byte for byte with the
// events the log holds. Pure: no store, no report; replay/verify.cc's
// branch walk (slow and fast path alike) applies the verdict, so both
// paths re-decide through this one function.
#ifndef COMBAT_REPLAY_REDECIDE_H_
#define COMBAT_REPLAY_REDECIDE_H_

#include <optional>
#include <string>

#include "events/codec.h"
#include "kernel/fold.h"
#include "kernel/ruleset.h"
#include "kernel/state.h"
#include "replay/recorded.h"
#include "replay/verify.h"
#include "store/event_log.h"

namespace combat::replay {

struct RedecideInput {
  const kernel::Ruleset* rules = nullptr;       // not null
  const RecordedCommand* command = nullptr;     // with its events kept
  const kernel::State* before = nullptr;        // the state before its first event
  events::Digest prev_before{};                 // the hash of the event before it
  const kernel::PrefixScan* prefix = nullptr;   // the branch up to it (voids)
  std::string session;
  std::string branch;                           // the branch being walked
  // The walked branch's fork record as the store or bundle keeps it.
  const std::optional<store::BranchMeta>* fork = nullptr;
  // Whether the event after the command is on another branch (a fork of
  // the walked branch starts there): a command may then be cut short.
  bool followed_by_other_branch = false;
};

struct Redecision {
  enum class Verdict {
    kSame,           // the recorded events are the re-decided ones
    kNotRedecided,   // nothing to re-decide it from (`note` says why)
    kDiffers,        // `mismatch` names the first difference
  };
  Verdict verdict = Verdict::kNotRedecided;
  // For the report: why it was not re-decided, or (kSame) that the command
  // is cut by a fork and matched up to there.
  std::string note;
  // kDiffers: check "re-decision", the seq, summary and details (the branch
  // is left to the caller).
  Mismatch mismatch;
};

Redecision Redecide(const RedecideInput& in);

}  // namespace combat::replay

#endif  // COMBAT_REPLAY_REDECIDE_H_
