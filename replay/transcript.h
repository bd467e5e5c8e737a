// A readable transcript of a session, rendered from its events (a bundle,
// or the store through ReadSession): the header (ruleset and version, the
// dice commitment and whether the seed is revealed), the branch tree, then
// each branch's own events, one line each (dice labelled seeded, manual or
// GM override with the reason; rulings and voids shown; events that no
// longer count marked), and the state at each branch's head.
#ifndef COMBAT_REPLAY_TRANSCRIPT_H_
#define COMBAT_REPLAY_TRANSCRIPT_H_

#include <string>

#include "absl/status/statusor.h"
#include "replay/bundle.h"

namespace combat::replay {

absl::StatusOr<std::string> RenderTranscript(const Bundle& bundle);

}  // namespace combat::replay

#endif  // COMBAT_REPLAY_TRANSCRIPT_H_
