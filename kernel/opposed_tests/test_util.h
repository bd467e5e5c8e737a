// Roster builders and event readers for the opposed_tests unit tests.
#ifndef COMBAT_KERNEL_OPPOSED_TESTS_TEST_UTIL_H_
#define COMBAT_KERNEL_OPPOSED_TESTS_TEST_UTIL_H_

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "events/codec.h"
#include "events/input_generated.h"
#include "gtest/gtest.h"
#include "kernel/opposed_tests/internal.h"
#include "kernel/opposed_tests/ruleset.h"
#include "kernel/testing/events.h"
#include "kernel/testing/roster.h"
#include "kernel/testing/table.h"

namespace combat::kernel::opposed::testutil {

using kernel::testing::Cmd;
using kernel::testing::Table;
using kernel::testing::With;
using kernel::testing::WithText;

using kernel::testing::Stats;

// Roster and command builders (kernel/testing): a weapon with numbers and a
// damage type, a combatant with stats, weapons and tags, a roster of this
// ruleset, a GM command, a path.
inline fb::WeaponT W(const std::string& name, const std::string& damage,
                     const std::string& kind, const std::string& category,
                     Stats numbers = {}, const std::string& type = "slashing") {
  return kernel::testing::WeaponWith(name, damage, kind, category, std::move(numbers), type);
}
inline fb::CombatantSpecT Who(const std::string& id, const std::string& side,
                              int x, int y, Stats stats,
                              std::vector<fb::WeaponT> weapons = {},
                              std::vector<std::string> tags = {}) {
  return kernel::testing::Creature(id, side, x, y, std::move(stats), std::move(weapons),
                                   std::move(tags));
}
inline fb::RosterT Roster(std::vector<fb::CombatantSpecT> cs, int w = 20, int h = 20) {
  // Each plays itself (schema 7: the tests' commands are by their actors),
  // but one tagged "npc": the GM runs it (l.10).
  for (auto& c : cs) {
    const bool npc = std::find(c.tags.begin(), c.tags.end(), "npc") != c.tags.end();
    if (c.player.empty() && !npc) c.player = c.id;
  }
  return kernel::testing::MakeRoster("opposed_tests", std::move(cs), w, h);
}
inline fb::CommandT Gm(const std::string& action, const std::string& actor = "",
                       const std::string& text = "ruling") {
  return kernel::testing::GmCmd(action, actor, text);
}
inline fb::CommandT& Path(fb::CommandT& c, std::vector<std::pair<int, int>> squares) {
  return kernel::testing::WithPath(c, std::move(squares));
}

using kernel::testing::Cites;
using kernel::testing::LastOutcome;
using kernel::testing::NumOf;

// Every state change after set-up cites a rule of the table.
inline void ExpectRulesKnown(const std::vector<events::EventBuffer>& log) {
  for (const std::string& unknown : kernel::testing::UnknownRules(log, RuleTable())) {
    ADD_FAILURE() << unknown;
  }
}

// `cs` on a map whose `cells` have the given terrain (cover, walls, ...).
inline fb::RosterT WithMap(std::vector<fb::CombatantSpecT> cs,
                           std::vector<std::pair<Pos, std::string>> cells) {
  fb::RosterT r = Roster(std::move(cs));
  for (const auto& [p, terrain] : cells) {
    auto cell = std::make_unique<fb::CellT>();
    cell->at = std::make_unique<fb::Pos>(p.x, p.y);
    cell->terrain = terrain;
    r.map->cells.push_back(std::move(cell));
  }
  return r;
}

// "a" of side x at (2,5) with a bow (range increment 30), Fighting Style 4.
inline fb::CombatantSpecT Archer() {
  auto bow = W("bow", "1d6", "ranged", "", {}, "piercing");
  bow.range_increment = 30;
  return Who("a", "x", 2, 5, {{"health", 20}, {"speed", 6}, {"fighting_style", 4}, {"agi", 2}}, {bow});
}

// A number of the events' state changes with what gives it and its rule
// (kernel/testing/events.h LastNumber).
using Seen = kernel::testing::NumberSeen;
inline Seen Number(const std::vector<events::EventBuffer>& events, const std::string& key) {
  return kernel::testing::LastNumber(events, key);
}
inline Seen Number(const Nums& nums, const std::string& key) {
  Seen out;
  for (const Num& n : nums) {
    if (n.key == key) out = {n.value, n.source, n.rule};
  }
  return out;
}

using kernel::testing::ByRule;  // kernel/testing/events.h

// a strikes d with `weapon`: d's defense window opens (l.50).
inline void AStrikesD(Table& t, const std::string& weapon) {
  auto s = Cmd("a", "strike", {"d"});
  s.weapon = weapon;
  ASSERT_TRUE(t.Submit(s).ok());
  ASSERT_EQ(t.state().windows.size(), 1u);
}

// a attacks d with `weapon`; d answers with `defense`; the answer's events.
inline std::vector<events::EventBuffer> Exchange(Table& t, const std::string& weapon, const std::string& defense,
                                          std::vector<int> dice = {}) {
  auto s = Cmd("a", "strike", {"d"});
  s.weapon = weapon;
  EXPECT_TRUE(t.Submit(s).ok());
  auto answer = Cmd("d", "defend");
  answer.window = t.state().windows.empty() ? 0 : t.state().windows.begin()->first;
  WithText(answer, "defense", defense);
  auto ev = t.Submit(answer, std::move(dice));
  EXPECT_TRUE(ev.ok()) << ev.status();
  return ev.ok() ? *ev : std::vector<events::EventBuffer>{};
}

// The GM sets `who`'s Health to 0: knocked unconscious (l.116), why `why`.
inline fb::CommandT KnockOut(const std::string& who, const std::string& why = "a falling beam") {
  fb::CommandT c = Gm("gm_set", who, why);
  WithText(c, "resource", "health");
  With(c, "value", 0);
  return c;
}

inline int CountCond(const Combatant& c, const std::string& name) {
  int n = 0;
  for (const auto& [id, k] : c.conditions) n += k.name == name;
  return n;
}

}  // namespace combat::kernel::opposed::testutil

#endif  // COMBAT_KERNEL_OPPOSED_TESTS_TEST_UTIL_H_
