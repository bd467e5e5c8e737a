#include "server/json_out.h"

#include "absl/strings/str_cat.h"
#include "events/json.h"
#include "events/json_line.h"
#include "events/status_macros.h"
#include "kernel/ruleset.h"
#include "kernel/state_codec.h"
#include "replay/render.h"
#include "replay/state_view.h"

namespace combat::server {

void JsonObject::Key(absl::string_view key) {
  if (text_.size() > 1) text_.push_back(',');
  events::AppendJsonString(key, &text_);
  text_.push_back(':');
}

JsonObject& JsonObject::Str(absl::string_view key, absl::string_view value) {
  Key(key);
  events::AppendJsonString(value, &text_);
  return *this;
}

JsonObject& JsonObject::Int(absl::string_view key, int64_t value) {
  Key(key);
  absl::StrAppend(&text_, value);
  return *this;
}

JsonObject& JsonObject::Uint(absl::string_view key, uint64_t value) {
  Key(key);
  absl::StrAppend(&text_, value);
  return *this;
}

JsonObject& JsonObject::Bool(absl::string_view key, bool value) {
  Key(key);
  text_ += value ? "true" : "false";
  return *this;
}

JsonObject& JsonObject::Null(absl::string_view key) {
  Key(key);
  text_ += "null";
  return *this;
}

JsonObject& JsonObject::Raw(absl::string_view key, absl::string_view json) {
  Key(key);
  text_.append(json.data(), json.size());
  return *this;
}

JsonObject& JsonObject::Strs(absl::string_view key,
                             const std::vector<std::string>& values) {
  Key(key);
  text_.push_back('[');
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) text_.push_back(',');
    events::AppendJsonString(values[i], &text_);
  }
  text_.push_back(']');
  return *this;
}

std::string JsonArray(const std::vector<std::string>& values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out.push_back(',');
    out += values[i];
  }
  out.push_back(']');
  return out;
}

std::string HeadJson(const store::Head& head) {
  return JsonObject().Uint("seq", head.seq).Str("hash", events::Hex(head.hash)).Done();
}

absl::StatusOr<std::string> EventItemJson(const events::EventBuffer& event,
                                          const std::string& line) {
  ASSIGN_OR_RETURN(std::string json, events::EventToJsonLine(event));
  return JsonObject()
      .Uint("seq", event.event().seq())
      .Str("line", line)
      .Raw("event", json)
      .Done();
}

absl::StatusOr<std::string> EventItemsJson(const std::vector<events::EventBuffer>& evs) {
  std::vector<std::string> items;
  items.reserve(evs.size());
  for (const events::EventBuffer& e : evs) {
    ASSIGN_OR_RETURN(std::string item, EventItemJson(e, replay::RenderEvent(e.event())));
    items.push_back(std::move(item));
  }
  return JsonArray(items);
}

absl::StatusOr<std::string> StateJson(const kernel::State& s) {
  const kernel::Ruleset* rules = kernel::FindRuleset(s.ruleset);
  const kernel::Display display = rules != nullptr ? rules->display() : kernel::Display();
  const std::vector<uint8_t> bytes = kernel::EncodeState(s);
  ASSIGN_OR_RETURN(std::string text,
                   events::BinaryToJsonLine(bytes.data(), bytes.size(), "State"));
  text.pop_back();  // the closing brace
  return absl::StrCat(text, ",\"combatant_view\":",
                      replay::CombatantsViewJson(s, display), ",\"pending_view\":",
                      replay::PendingViewJson(s, display), "}");
}

}  // namespace combat::server
