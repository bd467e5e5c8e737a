// Roster builders and assertions shared by this package's tests.
#ifndef COMBAT_KERNEL_D20_THREE_ACTION_TEST_UTIL_H_
#define COMBAT_KERNEL_D20_THREE_ACTION_TEST_UTIL_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "events/input_generated.h"
#include "gtest/gtest.h"
#include "kernel/d20_three_action/internal.h"
#include "kernel/d20_three_action/ruleset.h"
#include "kernel/state.h"
#include "kernel/testing/events.h"
#include "kernel/testing/roster.h"
#include "kernel/testing/table.h"

#define ASSERT_OK(expr)                                \
  do {                                                 \
    const auto& combat_s_ = (expr);                    \
    ASSERT_TRUE(combat_s_.ok()) << combat_s_.status(); \
  } while (0)

namespace combat::kernel::d20::testing {

using kernel::testing::Cmd;
using kernel::testing::Table;
using kernel::testing::With;
using kernel::testing::WithText;

// A combatant with the seed-000 stats: level 1, STR 3, DEX 2, ESS 1,
// 20 HP, Speed 30, Physical Defense 12, Mental Defense 10; `more` overrides
// or adds stats.
inline fb::CombatantSpecT Being(
    const std::string& id, const std::string& side, int x, int y,
    std::vector<std::pair<std::string, int64_t>> more = {}) {
  // Played by a player of the same name (schema 7, kernel/authority.h):
  // Cmd(id, ...) is that player's command.
  fb::CombatantSpecT c = kernel::testing::Creature(id, side, x, y,
                                   kernel::testing::Overlay({{"level", 1},
                                                             {"str", 3},
                                                             {"dex", 2},
                                                             {"ess", 1},
                                                             {"hp", 20},
                                                             {"speed", 30},
                                                             {"physical_defense", 12},
                                                             {"mental_defense", 10}},
                                                            more));
  c.player = id;
  return c;
}

// `c` made Large: size 2, a 2 x 2 block of squares from its position.
inline fb::CombatantSpecT Large(fb::CombatantSpecT c) {
  c.size = 2;
  return c;
}

inline fb::CombatantSpecT& Arm(
    fb::CombatantSpecT& c, const std::string& name, const std::string& damage,
    const std::string& kind, const std::string& category = "medium",
    int reach = 5, int range_increment = 0,
    std::vector<std::pair<std::string, int64_t>> numbers = {}) {
  auto w = std::make_unique<fb::WeaponT>();
  w->name = name;
  w->damage = damage;
  w->kind = kind;
  w->category = category;
  w->reach = reach;
  w->range_increment = range_increment;
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

inline fb::RosterT MakeRoster(std::vector<fb::CombatantSpecT> cs, int w = 20,
                              int h = 20) {
  return kernel::testing::MakeRoster("d20_three_action", std::move(cs), w, h);
}

inline fb::CommandT Gm(const std::string& actor, const std::string& action,
                       const std::string& reason) {
  return kernel::testing::GmCmd(action, actor, reason);
}

inline fb::CommandT MoveTo(const std::string& actor,
                           std::vector<std::pair<int, int>> path) {
  fb::CommandT c = Cmd(actor, "move");
  kernel::testing::WithPath(c, std::move(path));
  return c;
}

// `actor` readies `action` for `trigger` set off by `by` (L61).
inline fb::CommandT Ready(const std::string& actor, const std::string& action,
                          const std::string& trigger, const std::string& by) {
  fb::CommandT r = Cmd(actor, "ready");
  WithText(r, "action", action);
  WithText(r, "trigger", trigger);
  WithText(r, "by", by);
  return r;
}

inline int64_t Res(const Table& t, const std::string& who,
                   const std::string& name) {
  return t.state().Find(who)->Resource(name);
}

inline bool Has(const Table& t, const std::string& who,
                const std::string& cond) {
  return t.state().Find(who)->Has(cond);
}

// The numbers of the last state change with rule `rule` in `events`.
inline int64_t NumOf(const std::vector<events::EventBuffer>& events,
                     const std::string& rule, const std::string& key,
                     int64_t otherwise = -999) {
  int64_t out = otherwise;
  for (const auto& e : events) {
    const auto* sc = e.event().body_as_StateChange();
    if (sc == nullptr || sc->rule() == nullptr || sc->rule()->str() != rule ||
        sc->numbers() == nullptr) {
      continue;
    }
    for (const auto* n : *sc->numbers()) {
      if (n->key() != nullptr && n->key()->str() == key) out = n->value();
    }
  }
  return out;
}

// "<source> / <rule>" of the last number `key` in `events`' state changes
// ("?" when none): where a modifier comes from.
inline std::string SourceOf(const std::vector<events::EventBuffer>& events,
                            const std::string& key) {
  const kernel::testing::NumberSeen n = kernel::testing::LastNumber(events, key);
  return n.value == -999 ? "?" : n.source + " / " + n.rule;
}

using kernel::testing::Cites;  // kernel/testing/events.h

// The edge `a` has attacking `b` now (advantage.cc), its sources named.
inline Edge EdgeOf(const Table& t, const std::string& a, const std::string& b,
                   AttackKind kind = AttackKind::kMelee) {
  return AttackEdge(t.state(), *t.state().Find(a), *t.state().Find(b), AttackSpec{kind});
}

// `who` holds its Turn until after `after`'s (L15); `dice` for what rolls
// as the next turn starts (its continuous Effects).
inline void HoldUntilAfter(Table& t, const std::string& who, const std::string& after,
                           std::vector<int> dice = {}) {
  fb::CommandT hold = Cmd(who, "hold");
  WithText(hold, "after", after);
  ASSERT_OK(t.Submit(hold, std::move(dice)));
}

// The GM gives `who` the condition `name`.
inline void GmAdd(Table& t, const std::string& who, const std::string& name) {
  fb::CommandT c = Gm(who, "gm_condition", "test");
  WithText(c, "name", name);
  WithText(c, "op", "add");
  ASSERT_OK(t.Submit(c));
}

}  // namespace combat::kernel::d20::testing

#endif  // COMBAT_KERNEL_D20_THREE_ACTION_TEST_UTIL_H_
