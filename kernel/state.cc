#include "kernel/state.h"

#include <algorithm>

namespace combat::kernel {

int64_t Combatant::Stat(const std::string& key, int64_t otherwise) const {
  auto it = stats.find(key);
  return it == stats.end() ? otherwise : it->second;
}

int64_t Combatant::Resource(const std::string& key, int64_t otherwise) const {
  auto it = resources.find(key);
  return it == resources.end() ? otherwise : it->second;
}

bool Combatant::HasTag(const std::string& tag) const {
  return std::find(tags.begin(), tags.end(), tag) != tags.end();
}

const Condition* Combatant::FindCondition(const std::string& name) const {
  for (const auto& [id, c] : conditions) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

const Condition* Combatant::FindRelative(const std::string& name,
                                         const std::string& other) const {
  for (const auto& [id, c] : conditions) {
    if (c.name == name && (c.relative_to.empty() || c.relative_to == other)) {
      return &c;
    }
  }
  return nullptr;
}

const Weapon* Combatant::FindWeapon(const std::string& name) const {
  for (const Weapon& w : weapons) {
    if (w.name == name) return &w;
  }
  return nullptr;
}

const Combatant* State::Find(std::string_view id) const {
  auto it = combatants.find(id);
  return it == combatants.end() ? nullptr : &it->second;
}

Combatant* State::FindMutable(std::string_view id) {
  auto it = combatants.find(id);
  if (it == combatants.end()) return nullptr;
  it->second.digest_valid = false;
  return &it->second;
}

std::string State::TerrainAt(Pos p) const {
  if (map.width > 0 && map.height > 0 &&
      (p.x < 0 || p.y < 0 || p.x >= map.width || p.y >= map.height)) {
    return "offmap";
  }
  auto it = map.terrain.find(p);
  return it == map.terrain.end() ? "" : it->second;
}

const Combatant* State::OccupantAt(Pos p, const std::string& except) const {
  for (const auto& [id, c] : combatants) {
    if (id == except) continue;
    if (p.x >= c.at.x && p.x < c.at.x + c.size && p.y >= c.at.y &&
        p.y < c.at.y + c.size) {
      return &c;
    }
  }
  return nullptr;
}

bool State::IsTurnOf(std::string_view id) const {
  if (active.empty()) return false;
  if (active == id) return true;
  for (const std::string& m : active_members) {
    if (m == id) return true;
  }
  return false;
}

int64_t State::Pool(const std::string& owner, const std::string& name,
                    int64_t otherwise) const {
  auto o = pools.find(owner);
  if (o == pools.end()) return otherwise;
  auto v = o->second.find(name);
  return v == o->second.end() ? otherwise : v->second;
}

const PendingAct* State::FindPending(uint32_t id) const {
  auto it = pending.find(id);
  return it == pending.end() ? nullptr : &it->second;
}

}  // namespace combat::kernel
