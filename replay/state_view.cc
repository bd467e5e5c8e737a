#include "replay/state_view.h"

#include "absl/strings/str_cat.h"
#include "events/json_line.h"

namespace combat::replay {

std::optional<int64_t> MaxOf(const kernel::Combatant& c, const std::string& key,
                             const kernel::Display& d) {
  for (const kernel::Vital& v : d.vitals) {
    if (v.resource == key) return kernel::VitalMax(c, v);
  }
  return std::nullopt;
}

std::string ResourceText(const kernel::Combatant& c, const std::string& key,
                         int64_t value, const kernel::Display& d) {
  const std::optional<int64_t> max = MaxOf(c, key, d);
  return max.has_value() ? absl::StrCat(key, "=", value, "/", *max)
                         : absl::StrCat(key, "=", value);
}

ResourceView ViewResources(const kernel::Combatant& c, const kernel::Display& d) {
  ResourceView v;
  for (const auto& [k, value] : c.resources) {
    (kernel::IsBookkeeping(d, k) ? v.bookkeeping : v.game)
        .push_back(ResourceText(c, k, value, d));
  }
  return v;
}

std::string CombatantsViewJson(const kernel::State& s, const kernel::Display& d) {
  std::string out = "[";
  bool first = true;
  for (const auto& [id, c] : s.combatants) {
    if (!first) out += ",";
    first = false;
    out += "{\"id\":";
    events::AppendJsonString(id, &out);
    out += ",\"name\":";
    events::AppendJsonString(c.name, &out);
    out += ",\"side\":";
    events::AppendJsonString(c.side, &out);
    out += ",\"controller\":";
    events::AppendJsonString(c.controller, &out);
    out += ",\"player\":";
    events::AppendJsonString(c.player, &out);
    std::string game, books;
    for (const auto& [k, value] : c.resources) {
      std::string* to = kernel::IsBookkeeping(d, k) ? &books : &game;
      if (!to->empty()) *to += ",";
      *to += "{\"key\":";
      events::AppendJsonString(k, to);
      absl::StrAppend(to, ",\"value\":", value);
      if (!kernel::IsBookkeeping(d, k)) {
        const std::optional<int64_t> max = MaxOf(c, k, d);
        absl::StrAppend(to, ",\"max\":", max.has_value() ? absl::StrCat(*max) : "null");
      }
      *to += "}";
    }
    absl::StrAppend(&out, ",\"game\":[", game, "],\"bookkeeping\":[", books, "]}");
  }
  return out + "]";
}

std::string PendingViewJson(const kernel::State& s, const kernel::Display& d) {
  std::string out = "[";
  bool first = true;
  for (const auto& [id, p] : s.pending) {
    if (!first) out += ",";
    first = false;
    absl::StrAppend(&out, "{\"id\":", id, ",\"actor\":");
    events::AppendJsonString(p.actor, &out);
    out += ",\"reacted\":[";
    for (size_t i = 0; i < p.reacted.size(); ++i) {
      if (i > 0) out += ",";
      events::AppendJsonString(kernel::ReactedText(d, p.reacted[i]), &out);
    }
    out += "]}";
  }
  return out + "]";
}

}  // namespace combat::replay
