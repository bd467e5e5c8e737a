#include "kernel/testing/roster.h"

#include <memory>

namespace combat::kernel::testing {

fb::CombatantSpecT Creature(const std::string& id, const std::string& side,
                            int x, int y,
                            std::vector<std::pair<std::string, int64_t>> stats) {
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
