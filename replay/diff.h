// Diff: two branches, or two events, of a session. Reports
//  - the shared prefix: the events both histories read from the same
//    stored records (a fork's prefix);
//  - the first divergent event: the first seq, after the shared prefix,
//    where the two events differ as outcomes (recorded.h OutcomeBytes:
//    branch, hashes, seq numbering and dice labels aside, so a what-if that
//    re-ran a declaration identically does not diverge there), with both
//    events and the fields that differ;
//  - the state fields that differ at the two points, combatant by
//    combatant.
#ifndef COMBAT_REPLAY_DIFF_H_
#define COMBAT_REPLAY_DIFF_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "events/codec.h"
#include "replay/jump.h"
#include "replay/state_diff.h"
#include "store/event_log.h"

namespace combat::replay {

// A point of a session: the state after event `seq` (0 = the head) of a
// branch.
struct Point {
  std::string branch = "main";
  uint64_t seq = 0;
};
// "alt" (its head), "alt@12", "@12" (main's event 12). InvalidArgument
// naming the text otherwise.
absl::StatusOr<Point> ParsePoint(absl::string_view text);

struct DiffResult {
  std::string session;
  Point a, b;           // seqs resolved (never 0 unless the branch is empty)
  uint64_t shared = 0;  // events 1..shared are the same stored records
  // The first events (after the shared prefix, fork records stepped over)
  // whose outcomes differ: its seq on a and on b (they differ by the fork
  // records passed); 0: none up to the shorter point.
  uint64_t first_divergent = 0;
  uint64_t first_divergent_b = 0;
  std::optional<events::EventBuffer> a_event, b_event;
  std::vector<FieldDiff> event_fields;  // a_event | b_event
  std::vector<FieldDiff> state;         // state at a | state at b
};

absl::StatusOr<DiffResult> Diff(store::EventLog& log, const std::string& session,
                                Point a, Point b, const SeekOptions& seek = {});

std::string RenderDiff(const DiffResult& diff);

}  // namespace combat::replay

#endif  // COMBAT_REPLAY_DIFF_H_
