// Roster builders and assertions shared by this package's tests.
#ifndef COMBAT_KERNEL_AP_RP_TEST_UTIL_H_
#define COMBAT_KERNEL_AP_RP_TEST_UTIL_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "events/input_generated.h"
#include "gtest/gtest.h"
#include "kernel/ap_rp/ruleset.h"
#include "kernel/state.h"
#include "kernel/testing/roster.h"
#include "kernel/testing/events.h"
#include "kernel/testing/table.h"

#define ASSERT_OK(expr)                                \
  do {                                                 \
    const auto& combat_s_ = (expr);                    \
    ASSERT_TRUE(combat_s_.ok()) << combat_s_.status(); \
  } while (0)

namespace combat::kernel::aprp::testing {

using kernel::testing::Cmd;
using kernel::testing::Table;
using kernel::testing::With;
using kernel::testing::WithText;

// A War-Archetype fighter: Str 14, Dex 13 (Evasion 13 + 4 = 17, l.61),
// Instinct 10, Vitality 30; `more` overrides or adds stats.
inline fb::CombatantSpecT Being(const std::string& id, const std::string& side, int x, int y,
                                std::vector<std::pair<std::string, int64_t>> more = {}) {
  auto c = kernel::testing::Creature(
      id, side, x, y,
      kernel::testing::Overlay({{"str", 14}, {"dex", 13}, {"ins", 10}, {"vitality", 30}}, more));
  c.tags.push_back("evasion_stat:str");
  c.tags.push_back("primary:str");
  c.tags.push_back("secondary:dex");
  return c;
}

inline fb::CombatantSpecT& Arm(fb::CombatantSpecT& c, const std::string& name,
                               const std::string& damage, const std::string& kind,
                               const std::string& stats = "str/dex", int range = 0,
                               std::vector<std::pair<std::string, int64_t>> numbers = {},
                               const std::string& type = "physical") {
  auto w = std::make_unique<fb::WeaponT>();
  w->name = name;
  w->damage = damage;
  w->kind = kind;
  w->category = stats;
  w->reach = 1;
  w->range_increment = range;
  w->damage_type = type;
  for (auto& [k, v] : numbers) {
    auto n = std::make_unique<fb::NumberT>();
    n->key = k;
    n->value = v;
    w->numbers.push_back(std::move(n));
  }
  c.weapons.push_back(std::move(w));
  return c;
}

using kernel::testing::Tag;
using kernel::testing::Terrain;

inline fb::RosterT MakeRoster(std::vector<fb::CombatantSpecT> cs, int w = 20, int h = 20) {
  // Each plays itself (schema 7: the tests' commands are by their actors).
  for (auto& c : cs) {
    if (c.player.empty()) c.player = c.id;
  }
  return kernel::testing::MakeRoster("ap_rp", std::move(cs), w, h);
}

inline fb::CommandT Gm(const std::string& actor, const std::string& action, const std::string& reason) {
  return kernel::testing::GmCmd(action, actor, reason);
}

// The GM's `gm_condition` adding `name` to `who`, for `rounds` rounds when
// given (ends at `who`'s turn start that many rounds on), why `reason`.
inline fb::CommandT GmAdds(const std::string& who, const std::string& name, const std::string& reason,
                           int64_t rounds = 0) {
  fb::CommandT c = Gm(who, "gm_condition", reason);
  WithText(c, "name", name);
  WithText(c, "op", "add");
  if (rounds > 0) With(c, "rounds", rounds);
  return c;
}
// The GM's `defense_roll`: `target` rolls the `kind` DR (l.70) against
// `source`'s effect, why `reason`.
inline fb::CommandT GmDr(const std::string& source, const std::string& target, const std::string& kind,
                         const std::string& reason) {
  fb::CommandT c = Gm(source, "defense_roll", reason);
  c.targets = {target};
  WithText(c, "kind", kind);
  return c;
}
// The GM's `gm_order`: the order `targets`, why `reason` (l.7 ties).
inline fb::CommandT GmOrder(std::vector<std::string> targets, const std::string& reason) {
  fb::CommandT c = Gm("", "gm_order", reason);
  c.targets = std::move(targets);
  return c;
}
inline fb::CommandT Path(fb::CommandT c, std::vector<std::pair<int, int>> path) {
  kernel::testing::WithPath(c, std::move(path));
  return c;
}

inline fb::CommandT Attack(const std::string& a, const std::string& t, const std::string& weapon = "") {
  fb::CommandT c = Cmd(a, "attack", {t});
  c.weapon = weapon;
  return c;
}

inline int64_t Res(const Table& t, const std::string& who, const std::string& name) {
  return t.state().Find(who)->Resource(name);
}

inline bool Has(const Table& t, const std::string& who, const std::string& cond) {
  return t.state().Find(who)->Has(cond);
}

// The last number `key` of a state change citing `rule` in `events`.
inline int64_t NumOf(const std::vector<events::EventBuffer>& events, const std::string& rule,
                     const std::string& key, int64_t otherwise = -999) {
  int64_t out = otherwise;
  for (const auto& e : events) {
    const auto* sc = e.event().body_as_StateChange();
    if (sc == nullptr || sc->rule() == nullptr || sc->rule()->str() != rule || sc->numbers() == nullptr) continue;
    for (const auto* n : *sc->numbers()) {
      if (n->key() != nullptr && n->key()->str() == key) out = n->value();
    }
  }
  return out;
}

// A number of the events' state changes with what gives it and its rule
// (kernel/testing/events.h LastNumber).
using Seen = kernel::testing::NumberSeen;
inline Seen Number(const std::vector<events::EventBuffer>& events, const std::string& key) {
  return kernel::testing::LastNumber(events, key);
}

using kernel::testing::ByRule;  // kernel/testing/events.h

// The note of the last state change citing `rule` in `events` ("" if none).
inline std::string NoteOf(const std::vector<events::EventBuffer>& events, const std::string& rule) {
  std::string out;
  for (const auto& e : events) {
    const auto* sc = e.event().body_as_StateChange();
    if (sc == nullptr || sc->rule() == nullptr || sc->rule()->str() != rule) continue;
    out = sc->note() == nullptr ? "" : sc->note()->str();
  }
  return out;
}

inline bool Cites(const std::vector<events::EventBuffer>& events, const std::string& rule) {
  for (const auto& e : events) {
    const auto* sc = e.event().body_as_StateChange();
    if (sc != nullptr && sc->rule() != nullptr && sc->rule()->str() == rule) return true;
  }
  return false;
}

}  // namespace combat::kernel::aprp::testing

#endif  // COMBAT_KERNEL_AP_RP_TEST_UTIL_H_
