// What a FlatBuffers JSON parser error leaves out, read from the schema.
#ifndef COMBAT_EVENTS_JSON_ERRORS_H_
#define COMBAT_EVENTS_JSON_ERRORS_H_

#include <string>

#include "absl/strings/string_view.h"

namespace flatbuffers {
class Parser;
}  // namespace flatbuffers

namespace combat::events {

// For a parser `error` about `json` ("input:1: 34: error: unknown enum
// value: gm"), the field the bad value was given for and the values its
// enum takes, read from the schema in `schema` (never hard-coded):
// "field 'role' takes one of System, GM, Player; did you mean 'GM'?"
// (the suggestion: the nearest value, events/nearest.h); for "unknown field:
// parms", the fields of the table it was given in (found by following the
// keys from the root table, unions by their "_type" key):
// "Command fields: id, actor, ...; did you mean 'params'?". "" when the
// error is neither or the field or table cannot be found.
std::string ExplainJsonError(const flatbuffers::Parser& schema,
                             absl::string_view json, absl::string_view error);

}  // namespace combat::events

#endif  // COMBAT_EVENTS_JSON_ERRORS_H_
