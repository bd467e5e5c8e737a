// Explain (audit): why an event happened, or how a combatant's value came
// to be, read from the log (no recomputation):
//  - an event: its rule (the ruleset's Rules() table: seed file, section,
//    line and summary), its numbers and author; the declaration (or
//    interrupt, with the window it answered, or GM ruling) that caused it;
//    every die of that declaration with its provenance (seeded, manual:
//    physical dice entered at the table, or GM override with its reason)
//    and the arithmetic; everything else it caused; GM rulings that name
//    any of these events; voids on the way and whether the event still
//    counts.
//  - a combatant's value (a resource, a condition, the position): every
//    event that changed it up to the point asked, each with its cause in
//    one line (voided ones marked), then the last change that counts,
//    explained as above.
//  - a pending act (kernel/pending.h): its fields now (or that it is no
//    longer open), then every event that opened, updated or closed it or
//    opened a window holding it back, each with its cause, and the last one
//    explained as above. Explaining a PendingOpened / PendingUpdated /
//    PendingClosed event names the declaration the act carries.
#ifndef COMBAT_REPLAY_EXPLAIN_H_
#define COMBAT_REPLAY_EXPLAIN_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "kernel/ruleset.h"
#include "replay/jump.h"
#include "store/event_log.h"

namespace combat::replay {

struct ExplainRequest {
  std::string session;
  std::string branch = "main";
  uint64_t at = 0;         // as of this event (0 = the head)
  uint64_t event = 0;      // explain this event, or:
  std::string combatant;   // this combatant's
  std::string resource;    //   resource ("hp"), or
  std::string condition;   //   condition ("Down"), or
  bool position = false;   //   position, or:
  uint32_t pending = 0;    // this pending act's history (no combatant)
};

// The explanation as text. `rules` (may be null) gives the rule table.
// InvalidArgument when the request names nothing; NotFound for an unknown
// combatant or an event beyond `at`.
absl::StatusOr<std::string> Explain(store::EventLog& log,
                                    const kernel::Ruleset* rules,
                                    const ExplainRequest& request,
                                    const SeekOptions& seek = {});

// "seeded", "manual (physical dice)", "GM override: <reason>".
std::string ProvenanceLabel(fb::Provenance p, const std::string& reason = "");

}  // namespace combat::replay

#endif  // COMBAT_REPLAY_EXPLAIN_H_
