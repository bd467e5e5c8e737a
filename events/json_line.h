// One FlatBuffers table as one line of JSON, walked through the schema
// (flatbuffers::Parser's definitions), for the `--json` outputs of the
// `combat` tool (JSON Lines). Used by BinaryToJsonLine (json.h), which
// verifies the bytes first; nothing here checks bounds.
//
// The shape is FlatBuffers' own (field names and order as in the .fbs
// files, enums by name, a union as "x_type" and "x") with these rules:
//  - every field is printed: a scalar absent from the bytes as its default
//    (0, false, the enum's name for 0), an absent string as "", an absent
//    vector as [], an absent table or struct as null, an absent union as
//    "x_type": "NONE", "x": null;
//  - [ubyte] (hashes, keys, seeds) as one lowercase hex string;
//  - strings escaped for strict JSON: '"', '\\' and every control byte
//    (U+0000..U+001F, U+007F) escaped (\n \t \r \b \f, else \u00XX); valid
//    UTF-8 kept as it is; each byte that is not part of valid UTF-8
//    becomes \ufffd (the replacement character);
//  - no whitespace outside strings; non-finite floats as null.
#ifndef COMBAT_EVENTS_JSON_LINE_H_
#define COMBAT_EVENTS_JSON_LINE_H_

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"

namespace flatbuffers {
struct StructDef;
}  // namespace flatbuffers

namespace combat::events {

// Appends the table at `table` (a verified buffer's table of type `def`)
// to `out` as one JSON object, without a newline.
void AppendTableJson(const flatbuffers::StructDef& def, const uint8_t* table,
                     std::string* out);

// Appends `text` as a JSON string literal (quotes included), escaped as
// above.
void AppendJsonString(absl::string_view text, std::string* out);

}  // namespace combat::events

#endif  // COMBAT_EVENTS_JSON_LINE_H_
