// The server's JSON replies, built field by field (one line, strict JSON;
// strings escaped by events::AppendJsonString, the project's one escaper).
// Values that are already JSON (an event as events::EventToJsonLine prints
// it, a status as replay::StatusJson prints it) are inserted as they are.
#ifndef COMBAT_SERVER_JSON_OUT_H_
#define COMBAT_SERVER_JSON_OUT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "events/codec.h"
#include "events/hash.h"
#include "kernel/state.h"
#include "store/log_types.h"

namespace combat::server {

// One JSON object, fields in the order they are added.
class JsonObject {
 public:
  JsonObject& Str(absl::string_view key, absl::string_view value);
  JsonObject& Int(absl::string_view key, int64_t value);
  JsonObject& Uint(absl::string_view key, uint64_t value);
  JsonObject& Bool(absl::string_view key, bool value);
  JsonObject& Null(absl::string_view key);
  // `json` must be one JSON value.
  JsonObject& Raw(absl::string_view key, absl::string_view json);
  JsonObject& Strs(absl::string_view key, const std::vector<std::string>& values);
  std::string Done() const { return text_ + "}"; }

 private:
  void Key(absl::string_view key);
  std::string text_ = "{";
};

// "[a,b,...]" of JSON values.
std::string JsonArray(const std::vector<std::string>& values);

// {"seq":N,"hash":"<hex>"}
std::string HeadJson(const store::Head& head);

// One event as the log pages and the stream give it:
// {"seq":N,"line":"<rendered>","event":{...every field (JSON Lines form)}}.
// `line` is the rendered text (replay/render.h).
absl::StatusOr<std::string> EventItemJson(const events::EventBuffer& event,
                                          const std::string& line);
// EventItemJson of each, rendered by replay::RenderEvent.
absl::StatusOr<std::string> EventItemsJson(const std::vector<events::EventBuffer>& evs);

// The state as `combat state --json` prints it: the schema's State (every
// field), plus "combatant_view" (names, maxima, bookkeeping apart) and
// "pending_view" (each pending act's reacted as the ruleset reads it).
absl::StatusOr<std::string> StateJson(const kernel::State& state);

}  // namespace combat::server

#endif  // COMBAT_SERVER_JSON_OUT_H_
