#include "kernel/testing/roster.h"

#include <memory>

namespace combat::kernel::testing {

fb::CombatantSpecT Creature(const std::string& id, const std::string& side,
                            int x, int y, Stats stats) {
  fb::CombatantSpecT c;
  c.id = id;
  c.name = id;
  c.side = side;
  c.size = 1;
  c.at = std::make_unique<fb::Pos>(x, y);
  for (auto& [k, v] : stats) {
    auto n = std::make_unique<fb::NumberT>();
    n->key = k;
    n->value = v;
    c.stats.push_back(std::move(n));
  }
  return c;
}

fb::CombatantSpecT Creature(const std::string& id, const std::string& side,
                            int x, int y, Stats stats,
                            std::vector<fb::WeaponT> weapons,
                            std::vector<std::string> tags) {
  fb::CombatantSpecT c = Creature(id, side, x, y, std::move(stats));
  for (auto& w : weapons) c.weapons.push_back(std::make_unique<fb::WeaponT>(std::move(w)));
  c.tags = std::move(tags);
  return c;
}

fb::WeaponT WeaponWith(const std::string& name, const std::string& damage,
                       const std::string& kind, const std::string& category,
                       Stats numbers, const std::string& type) {
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

Stats Overlay(Stats base, const Stats& more) {
  for (const auto& [k, v] : more) {
    bool found = false;
    for (auto& [k2, v2] : base) {
      if (k2 == k) {
        v2 = v;
        found = true;
      }
    }
    if (!found) base.emplace_back(k, v);
  }
  return base;
}

fb::CombatantSpecT& Tag(fb::CombatantSpecT& c, const std::string& tag) {
  c.tags.push_back(tag);
  return c;
}

void Terrain(fb::RosterT& r, int x, int y, const std::string& terrain) {
  if (!r.map) r.map = std::make_unique<fb::MapT>();
  auto cell = std::make_unique<fb::CellT>();
  cell->at = std::make_unique<fb::Pos>(x, y);
  cell->terrain = terrain;
  r.map->cells.push_back(std::move(cell));
}

fb::WeaponT MakeWeapon(const std::string& name, const std::string& damage,
                       const std::string& kind, const std::string& category,
                       int reach, int range_increment) {
  fb::WeaponT w;
  w.name = name;
  w.damage = damage;
  w.kind = kind;
  w.category = category;
  w.reach = reach;
  w.range_increment = range_increment;
  return w;
}

fb::RosterT MakeRoster(const std::string& ruleset,
                       std::vector<fb::CombatantSpecT> combatants, int w,
                       int h) {
  fb::RosterT r;
  r.title = "test";
  r.ruleset = ruleset;
  r.map = std::make_unique<fb::MapT>();
  r.map->width = w;
  r.map->height = h;
  for (auto& c : combatants) {
    r.combatants.push_back(std::make_unique<fb::CombatantSpecT>(std::move(c)));
  }
  return r;
}

}  // namespace combat::kernel::testing
