// Roster builders for the wound_slots unit tests.
//
// aria (party):  prc 2, reflex 1, spd 1 (AP 7 + 7, max 21), dex 3,
//   melee 2, melee/sword 1, str 2, vit 1, rsn 1; sword damage 3,
//   accuracy 1, block 1. Initiative d20 + 3 + 5; attack d20 + 7;
//   melee Defense 10 + (1 + 1) + 1 = 13; Toughness 1.
// orc (standard NPC): prc 0, spd 0 (AP 6 + 6, max 18), dex 1, melee 1,
//   str 3, vit 2; axe damage 4. Initiative d20 + 5; attack d20 + 2;
//   melee Defense 10; Toughness 2; slots 5 light, 2/2/2, 1 fatal.
#ifndef COMBAT_KERNEL_WOUND_SLOTS_TEST_UTIL_H_
#define COMBAT_KERNEL_WOUND_SLOTS_TEST_UTIL_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "kernel/testing/roster.h"
#include "kernel/testing/table.h"
#include "kernel/wound_slots/internal.h"
#include "kernel/wound_slots/ruleset.h"

namespace combat::kernel::wound_slots::testutil {

using kernel::testing::Cmd;
using kernel::testing::Table;
using kernel::testing::With;
using kernel::testing::WithText;
using Stats = std::vector<std::pair<std::string, int64_t>>;

inline void AddNumber(fb::WeaponT& w, const std::string& k, int64_t v) {
  auto n = std::make_unique<fb::NumberT>();
  n->key = k;
  n->value = v;
  w.numbers.push_back(std::move(n));
}

inline fb::CombatantSpecT Who(const std::string& id, const std::string& side, int x, int y,
                              Stats stats, const std::string& weapon, const std::string& damage,
                              const std::string& category, Stats numbers = {},
                              std::vector<std::string> tags = {}, const std::string& kind = "melee") {
  fb::CombatantSpecT c = kernel::testing::Creature(id, side, x, y, std::move(stats));
  fb::WeaponT w = kernel::testing::MakeWeapon(weapon, damage, kind, category);
  for (const auto& [k, v] : numbers) AddNumber(w, k, v);
  c.weapons.push_back(std::make_unique<fb::WeaponT>(std::move(w)));
  c.tags = std::move(tags);
  return c;
}

inline fb::CombatantSpecT Aria(int x = 5, int y = 5, Stats extra = {}) {
  Stats s = {{"prc", 2}, {"reflex", 1}, {"spd", 1}, {"dex", 3}, {"melee", 2}, {"melee/sword", 1},
             {"str", 2}, {"vit", 1}, {"rsn", 1}, {"stamina", 9}, {"mana", 3}, {"lor", 1},
             {"athletics", 2}, {"healing", 2}};
  for (auto& e : extra) s.push_back(e);
  return Who("aria", "party", x, y, s, "sword", "3", "sword", {{"accuracy", 1}, {"block", 1}});
}

inline fb::CombatantSpecT Orc(const std::string& id = "orc", int x = 6, int y = 5, Stats extra = {},
                              std::vector<std::string> tags = {"standard"}) {
  Stats s = {{"prc", 0}, {"spd", 0}, {"dex", 1}, {"melee", 1}, {"str", 3}, {"vit", 2}, {"stamina", 8}};
  for (auto& e : extra) s.push_back(e);
  return Who(id, "orcs", x, y, s, "axe", "4", "axe", {}, std::move(tags));
}

inline fb::RosterT Roster(std::vector<fb::CombatantSpecT> cs) {
  fb::RosterT r = kernel::testing::MakeRoster("wound_slots", {}, 20, 20);
  r.map->unit = fb::DistanceUnit::Yards;
  r.map->square = 1;
  for (auto& c : cs) {
    // Each plays itself (schema 7: the tests' commands are by their actors).
    if (c.player.empty()) c.player = c.id;
    r.combatants.push_back(std::make_unique<fb::CombatantSpecT>(std::move(c)));
  }
  return r;
}

// `who` readies a standard attack (l.204).
inline fb::CommandT ReadyAttack(const std::string& who) {
  fb::CommandT r = Cmd(who, "ready");
  WithText(r, "act", "standard_attack");
  return r;
}
// `who` buys movement with `ap` AP (l.160).
inline fb::CommandT BuyMove(const std::string& who, int64_t ap) {
  fb::CommandT buy = Cmd(who, "buy_move");
  With(buy, "ap", ap);
  return buy;
}

inline int64_t Init(const State& s, const std::string& who) { return InitiativeOf(s, who); }
inline int64_t Ap(const State& s, const std::string& who) { return s.Find(who)->Resource(res::kAp); }
inline int64_t Wounds(const State& s, const std::string& who, int level) {
  return s.Find(who)->Resource(WoundsKey(level));
}
// The GM knocks `who` out (Unconscious, for `why`): it takes no turn (l.108).
// `who` answers the first open window with the interrupt `act` on `on`
// (a Rebuff, a Cling, a Harry, ...); the test adds dice or params.
inline fb::CommandT Answer(const Table& t, const std::string& who, const std::string& act,
                           const std::string& on) {
  fb::CommandT c = Cmd(who, "interrupt", {on});
  c.window = t.state().windows.begin()->first;
  WithText(c, "act", act);
  return c;
}
// Aria (at 5,5; the orc at 8,5) buys 2 AP of movement (rate 9: 4 yd,
// l.143) and walks (6,5), (7,5): her second step would enter the orc's
// axe's reach, so the move waits at (6,5) in a window for its Rebuff (l.189).
inline void AriaStepsTowardTheOrc(Table& t) {
  fb::CommandT buy = Cmd("aria", "buy_move");
  With(buy, "ap", 2);
  ASSERT_TRUE(t.Submit(buy).ok());
  fb::CommandT mv = Cmd("aria", "move");
  mv.path = {fb::Pos(6, 5), fb::Pos(7, 5)};
  ASSERT_TRUE(t.Submit(mv).ok());
  ASSERT_EQ(t.state().windows.size(), 1u);
}
// The GM adds condition `name` to `who`, for `why` (gm_condition add).
inline fb::CommandT GmAdds(const std::string& who, const std::string& name, const std::string& why) {
  fb::CommandT c = kernel::testing::GmCmd("gm_condition", who, why);
  kernel::testing::WithText(c, "op", "add");
  kernel::testing::WithText(c, "name", name);
  return c;
}
inline void KnockOut(Table& t, const std::string& who, const std::string& why = "a blow to the head") {
  auto r = t.Submit(GmAdds(who, "Unconscious", why));
  ASSERT_TRUE(r.ok()) << r.status();
}

inline std::vector<std::string> OrderIds(const State& s) {
  std::vector<std::string> out;
  for (const OrderEntry& e : s.order) out.push_back(e.actor);
  return out;
}

}  // namespace combat::kernel::wound_slots::testutil

#endif  // COMBAT_KERNEL_WOUND_SLOTS_TEST_UTIL_H_
