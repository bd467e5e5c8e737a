// Roster builders and event readers for the opposed_tests unit tests.
#ifndef COMBAT_KERNEL_OPPOSED_TESTS_TEST_UTIL_H_
#define COMBAT_KERNEL_OPPOSED_TESTS_TEST_UTIL_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "events/codec.h"
#include "events/input_generated.h"
#include "gtest/gtest.h"
#include "kernel/opposed_tests/internal.h"
#include "kernel/opposed_tests/ruleset.h"
#include "kernel/testing/table.h"

namespace combat::kernel::opposed::testutil {

using kernel::testing::Cmd;
using kernel::testing::Table;
using kernel::testing::With;
using kernel::testing::WithText;

using Stats = std::vector<std::pair<std::string, int64_t>>;

inline fb::WeaponT W(const std::string& name, const std::string& damage,
                     const std::string& kind, const std::string& category,
                     Stats numbers = {}, const std::string& type = "slashing") {
  fb::WeaponT w;
  w.name = name;
  w.damage = damage;
  w.kind = kind;
  w.category = category;
  w.damage_type = type;
  for (const auto& [k, v] : numbers) {
    auto n = std::make_unique<fb::NumberT>();
    n->key = k;
    n->value = v;
    w.numbers.push_back(std::move(n));
  }
  return w;
}

inline fb::CombatantSpecT Who(const std::string& id, const std::string& side,
                              int x, int y, Stats stats,
                              std::vector<fb::WeaponT> weapons = {},
                              std::vector<std::string> tags = {}) {
  fb::CombatantSpecT c;
  c.id = id;
  c.name = id;
  c.side = side;
  c.size = 1;
  c.at = std::make_unique<fb::Pos>(x, y);
  for (const auto& [k, v] : stats) {
    auto n = std::make_unique<fb::NumberT>();
    n->key = k;
    n->value = v;
    c.stats.push_back(std::move(n));
  }
  for (auto& w : weapons) c.weapons.push_back(std::make_unique<fb::WeaponT>(std::move(w)));
  c.tags = std::move(tags);
  return c;
}

inline fb::RosterT Roster(std::vector<fb::CombatantSpecT> cs, int w = 20, int h = 20) {
  fb::RosterT r;
  r.title = "test";
  r.ruleset = "opposed_tests";
  r.map = std::make_unique<fb::MapT>();
  r.map->width = w;
  r.map->height = h;
  for (auto& c : cs) r.combatants.push_back(std::make_unique<fb::CombatantSpecT>(std::move(c)));
  return r;
}

inline fb::CommandT Gm(const std::string& action, const std::string& actor = "",
                       const std::string& text = "ruling") {
  fb::CommandT c = Cmd(actor, action);
  c.author = "gm";
  c.role = fb::Role::GM;
  c.text = text;
  return c;
}

inline fb::CommandT& Path(fb::CommandT& c, std::vector<std::pair<int, int>> squares) {
  for (auto [x, y] : squares) c.path.emplace_back(x, y);
  return c;
}



// The outcome of the last window closed in `events`.
inline std::string LastOutcome(const std::vector<events::EventBuffer>& events) {
  std::string out;
  for (const auto& e : events) {
    const fb::Event& ev = e.event();
    if (ev.body_type() != fb::Body::StateChange) continue;
    const auto* sc = ev.body_as_StateChange();
    if (sc->change_type() == fb::Change::WindowClosed) {
      out = sc->change_as_WindowClosed()->outcome()->str();
    }
  }
  return out;
}

// The number `key` of the last state change (in `events`) that carries it.
inline int64_t NumOf(const std::vector<events::EventBuffer>& events,
                     const std::string& key, int64_t otherwise = -999) {
  int64_t v = otherwise;
  for (const auto& e : events) {
    const fb::Event& ev = e.event();
    if (ev.body_type() != fb::Body::StateChange) continue;
    const auto* nums = ev.body_as_StateChange()->numbers();
    if (nums == nullptr) continue;
    for (const auto* n : *nums) {
      if (n->key()->str() == key) v = n->value();
    }
  }
  return v;
}

// Whether some state change in `events` cites `rule`.
inline bool Cites(const std::vector<events::EventBuffer>& events, const std::string& rule) {
  for (const auto& e : events) {
    const fb::Event& ev = e.event();
    if (ev.body_type() != fb::Body::StateChange) continue;
    const auto* r = ev.body_as_StateChange()->rule();
    if (r != nullptr && r->str() == rule) return true;
  }
  return false;
}

// Every state change after set-up cites a rule of the table.
inline void ExpectRulesKnown(const std::vector<events::EventBuffer>& log) {
  for (const auto& e : log) {
    const fb::Event& ev = e.event();
    if (ev.body_type() != fb::Body::StateChange) continue;
    const auto* r = ev.body_as_StateChange()->rule();
    const std::string rule = r == nullptr ? "" : r->str();
    if (rule == "session.start") continue;
    EXPECT_NE(FindRule(RuleTable(), rule), nullptr) << "seq " << ev.seq() << " cites unknown rule '" << rule << "'";
  }
}

inline int CountCond(const Combatant& c, const std::string& name) {
  int n = 0;
  for (const auto& [id, k] : c.conditions) n += k.name == name;
  return n;
}

}  // namespace combat::kernel::opposed::testutil

#endif  // COMBAT_KERNEL_OPPOSED_TESTS_TEST_UTIL_H_
