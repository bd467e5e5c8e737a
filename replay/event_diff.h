// Field-by-field differences between two events (a recorded event and the
// one re-deciding it produced; the first divergent events of two
// branches), through their JSON form (FlatBuffers' printer, events/json.h)
// flattened to "path = value" pairs: "body.dice[0].value = 17". Arrays of
// numbers (hashes) stay one value.
#ifndef COMBAT_REPLAY_EVENT_DIFF_H_
#define COMBAT_REPLAY_EVENT_DIFF_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "events/codec.h"
#include "replay/state_diff.h"

namespace combat::replay {

// "path = value" pairs of a JSON document, in document order. Scalars as
// written (strings keep their quotes); an array of scalars as one value.
// InvalidArgument when `json` is not well formed.
absl::StatusOr<std::vector<std::pair<std::string, std::string>>> FlattenJson(
    absl::string_view json);

// The event's fields, one "path: value" line each (hashes in hex),
// each line prefixed with `indent`.
absl::StatusOr<std::string> EventFields(const events::EventBuffer& event,
                                        absl::string_view indent = "    ");

// The fields that differ between `a` and `b` (scope "event", field = path;
// "-" for a field only one of them has).
absl::StatusOr<std::vector<FieldDiff>> DiffEvents(const events::EventBuffer& a,
                                                  const events::EventBuffer& b);

}  // namespace combat::replay

#endif  // COMBAT_REPLAY_EVENT_DIFF_H_
