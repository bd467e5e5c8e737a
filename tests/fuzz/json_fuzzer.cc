// libFuzzer target for the JSON inputs a user writes: one binary per root
// (COMBAT_FUZZ_ROOT is set by the BUILD rule: Command, Roster or Script).
// Properties: no crash, hang or sanitizer report; a rejection is
// InvalidArgument with a message; an accepted input prints back to JSON
// (through FlatBuffers' printer) and that JSON parses to the same bytes.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/strings/string_view.h"
#include "events/json.h"

#ifndef COMBAT_FUZZ_ROOT
#error "COMBAT_FUZZ_ROOT must name the root table"
#endif

namespace {

[[noreturn]] void Fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "json_fuzzer (%s): %s: %s\n", COMBAT_FUZZ_ROOT, what,
               detail.c_str());
  std::abort();
}

template <typename T>
void CheckParsed(const absl::StatusOr<T>& parsed) {
  if (parsed.ok()) return;
  if (parsed.status().code() != absl::StatusCode::kInvalidArgument ||
      parsed.status().message().empty()) {
    Fail("a rejection that is not a clear InvalidArgument", parsed.status().ToString());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const absl::string_view json(reinterpret_cast<const char*>(data), size);
  const std::string root = COMBAT_FUZZ_ROOT;
  // The typed parser the CLI uses.
  if (root == "Command") {
    CheckParsed(combat::events::ParseCommand(json));
  } else if (root == "Roster") {
    CheckParsed(combat::events::ParseRoster(json));
  } else if (root == "Script") {
    CheckParsed(combat::events::ParseScript(json));
  }
  // And the generic one, with a round trip through the printer.
  absl::StatusOr<std::vector<uint8_t>> bin = combat::events::JsonToBinary(json, root);
  CheckParsed(bin);
  if (!bin.ok()) return 0;
  absl::StatusOr<std::string> printed =
      combat::events::BinaryToJson(bin->data(), bin->size(), root);
  if (!printed.ok()) {
    // Only strings that are not UTF-8 may fail to print (json.h).
    if (printed.status().code() != absl::StatusCode::kDataLoss) {
      Fail("accepted input does not print", printed.status().ToString());
    }
    return 0;
  }
  absl::StatusOr<std::vector<uint8_t>> again = combat::events::JsonToBinary(*printed, root);
  if (!again.ok()) Fail("printed JSON does not parse", again.status().ToString() + "\n" + *printed);
  absl::StatusOr<std::string> printed_again =
      combat::events::BinaryToJson(again->data(), again->size(), root);
  if (!printed_again.ok() || *printed_again != *printed) {
    Fail("JSON round trip is not stable", *printed);
  }
  return 0;
}
