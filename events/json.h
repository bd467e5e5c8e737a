// JSON in and out for every root table of the schemas, with FlatBuffers' own
// parser and printer driven by the schema texts compiled into the binary
// (schema_text.h). The JSON shape is the one FlatBuffers defines: field
// names as in the .fbs files, enums by name, a union as two fields
// ("body_type": "Roll", "body": {...}), structs as objects, [ubyte] as
// arrays of numbers. See FORMAT.md.
//
// Root tables: "Event" (identifier CMBE), "State" (CMBS), "Script" (CMBI),
// "Roster" and "Command" (no identifier). Any other name is InvalidArgument.
//
// Thread-safe: every function may be called concurrently.
#ifndef COMBAT_EVENTS_JSON_H_
#define COMBAT_EVENTS_JSON_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "events/codec.h"
#include "events/common_generated.h"
#include "events/input_generated.h"

namespace combat::events {

// Parses `json` as a `root_table` and returns the binary, which has passed
// the Verifier for that root (and carries its file identifier, if any).
// For "Event" the bytes are canonical (EncodeEvent of the unpacked object,
// codec.h), ready to be hashed and stored.
// Parsing is strict: an unknown field, a value of the wrong type or out of
// range, an unknown enum name, a NUL byte or trailing text is an error.
// Field names may be unquoted and trailing commas are accepted.
// Errors: InvalidArgument naming the root and the parser's message, which
// gives the line, the column and the field or token
// ("invalid Event JSON: input:2: 10: error: unknown field: bogus"); also
// InvalidArgument when the result is not a well-formed buffer (an event
// with "body_type" but no "body").
absl::StatusOr<std::vector<uint8_t>> JsonToBinary(absl::string_view json,
                                                  absl::string_view root_table);

// Prints the `root_table` binary at `data` (any alignment; the bytes are
// copied first) as strict JSON: quoted names, 2-space indent, fields equal
// to their default omitted, UTF-8 strings as they are.
// Errors: DataLoss when the bytes fail the Verifier, lack the root's file
// identifier, or cannot be printed (a union value without a known type, a
// string that is not UTF-8); InvalidArgument for an unknown root.
absl::StatusOr<std::string> BinaryToJson(const uint8_t* data, size_t size,
                                         absl::string_view root_table);

// BinaryToJson(event.bytes(), "Event").
absl::StatusOr<std::string> EventToJson(const EventBuffer& event);

// The `root_table` binary at `data` as ONE line of JSON (no newline), for
// JSON Lines output (`combat ... --json`): every field printed (defaults,
// "" and [] included, absent tables as null), [ubyte] as lowercase hex,
// strings escaped so the line is valid JSON whatever they hold (invalid
// UTF-8 bytes as \ufffd). The rules: json_line.h. Not meant to be parsed
// back by JsonToBinary (hex bytes). Errors as BinaryToJson.
absl::StatusOr<std::string> BinaryToJsonLine(const uint8_t* data, size_t size,
                                             absl::string_view root_table);

// BinaryToJsonLine(event.bytes(), "Event").
absl::StatusOr<std::string> EventToJsonLine(const EventBuffer& event);

// JsonToBinary for the input roots, unpacked into the object API.
absl::StatusOr<fb::ScriptT> ParseScript(absl::string_view json);
absl::StatusOr<fb::RosterT> ParseRoster(absl::string_view json);
absl::StatusOr<fb::CommandT> ParseCommand(absl::string_view json);

}  // namespace combat::events

#endif  // COMBAT_EVENTS_JSON_H_
