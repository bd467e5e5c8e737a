#include "replay/state_view.h"

#include <algorithm>
#include <iterator>

#include "absl/strings/str_cat.h"
#include "events/json_line.h"

namespace combat::replay {
namespace {

// Bookkeeping resources of the rulesets (sorted): when a turn last began
// (d20_three_action sot_round, turn_seq), which round a creature's turn
// last ended in (turn_round: d20_three_action, wound_slots, opposed_tests,
// ap_rp), which round its initiative was rolled in (energy_rounds).
constexpr absl::string_view kBookkeeping[] = {
    "initiative_round", "sot_round", "turn_round", "turn_seq"};

// Pools whose roster stat of the same name is their full value:
// d20_three_action hp (damage.cc heals up to Stat("hp")), opposed_tests
// health (the Health Pool, setup.cc), ap_rp vitality (ruleset.cc). Not
// wound_slots stamina or mana: their maximum is derived (MaxStamina =
// normal - fatigue), which the state does not hold.
constexpr absl::string_view kFullAtStat[] = {"health", "hp", "vitality"};

bool In(const absl::string_view* begin, const absl::string_view* end,
        absl::string_view name) {
  return std::binary_search(begin, end, name);
}

}  // namespace

bool IsBookkeeping(absl::string_view resource) {
  return In(std::begin(kBookkeeping), std::end(kBookkeeping), resource);
}

std::optional<int64_t> MaxOf(const kernel::Combatant& c, const std::string& key) {
  if (auto it = c.stats.find("max_" + key); it != c.stats.end()) return it->second;
  if (In(std::begin(kFullAtStat), std::end(kFullAtStat), key)) {
    if (auto it = c.stats.find(key); it != c.stats.end()) return it->second;
  }
  return std::nullopt;
}

std::string ResourceText(const kernel::Combatant& c, const std::string& key,
                         int64_t value) {
  const std::optional<int64_t> max = MaxOf(c, key);
  return max.has_value() ? absl::StrCat(key, "=", value, "/", *max)
                         : absl::StrCat(key, "=", value);
}

ResourceView ViewResources(const kernel::Combatant& c) {
  ResourceView v;
  for (const auto& [k, value] : c.resources) {
    (IsBookkeeping(k) ? v.bookkeeping : v.game).push_back(ResourceText(c, k, value));
  }
  return v;
}

std::string CombatantsViewJson(const kernel::State& s) {
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
    std::string game, books;
    for (const auto& [k, value] : c.resources) {
      std::string* to = IsBookkeeping(k) ? &books : &game;
      if (!to->empty()) *to += ",";
      *to += "{\"key\":";
      events::AppendJsonString(k, to);
      absl::StrAppend(to, ",\"value\":", value);
      if (!IsBookkeeping(k)) {
        const std::optional<int64_t> max = MaxOf(c, k);
        absl::StrAppend(to, ",\"max\":", max.has_value() ? absl::StrCat(*max) : "null");
      }
      *to += "}";
    }
    absl::StrAppend(&out, ",\"game\":[", game, "],\"bookkeeping\":[", books, "]}");
  }
  return out + "]";
}

}  // namespace combat::replay
