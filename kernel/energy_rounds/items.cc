// Items: Stow/Equip (l.37), Pick Up (l.39), dropped weapons (Disarm l.565,
// thrown weapons l.272), Shaken fumbles (l.666).
//
// A weapon in hand is resource "wield.<name>" = 1 (roster weapon number
// "equipped": 0 leaves it stowed at the start). A dropped weapon is a
// "Dropped" condition on its owner: source = the weapon, note = "x,y".
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "events/status_macros.h"
#include "kernel/command.h"
#include "kernel/energy_rounds/internal.h"

namespace combat::kernel::energy {
namespace {

const Condition* DroppedOf(const Combatant& owner, const std::string& weapon) {
  for (const auto& [id, k] : owner.conditions) {
    if (k.name == "Dropped" && k.source == weapon) return &k;
  }
  return nullptr;
}

Pos ParseAt(const std::string& note) {
  std::vector<std::string> xy = absl::StrSplit(note, ',');
  Pos p;
  if (xy.size() == 2) {
    (void)absl::SimpleAtoi(xy[0], &p.x);
    (void)absl::SimpleAtoi(xy[1], &p.y);
  }
  return p;
}

int64_t EquipEnergy(const Combatant& a, const fb::CommandT& c) {
  const Weapon* w = a.FindWeapon(c.weapon);
  const bool side = ParamOr(c, "sidearm", 0) == 1 ||
                    (w != nullptr && w->numbers.count("sidearm") && w->numbers.at("sidearm") == 1);
  return side ? 1 : 2;  // l.37
}

}  // namespace

std::string WieldKey(const std::string& weapon) { return "wield." + weapon; }
std::string LoadedKey(const std::string& weapon) { return "loaded." + weapon; }

absl::StatusOr<bool> ShakenCheck(Decision& d, const std::string& who,
                                 uint64_t cause, Nums& nums) {
  ASSIGN_OR_RETURN(dice::RollResult r, d.Roll("1d20", "chance roll (Shaken, DC 5)", who, cause));
  nums.push_back({"shaken_chance_d20", r.natural()});
  nums.push_back({"shaken_dc", 5, "Shaken on " + who, "002.cond.shaken"});
  return r.natural() >= 5;  // l.666, l.372
}

absl::Status DropWeapon(Decision& d, const std::string& owner,
                        const std::string& weapon, Pos at, const Why& why) {
  if (d.state().Find(owner)->Resource(WieldKey(weapon), 0) != 0) {
    RETURN_IF_ERROR(SetResource(d, owner, WieldKey(weapon), 0, why));
  }
  NewCondition nc;
  nc.actor = owner;
  nc.name = "Dropped";
  nc.source = weapon;
  nc.expiry = Forever();
  nc.note = absl::StrCat(at.x, ",", at.y);
  Why w = why;
  w.nums.push_back({"x", at.x});
  w.nums.push_back({"y", at.y});
  return AddCondition(d, nc, w).status();
}

absl::Status CheckEquip(const State& s, const Combatant& a, const fb::CommandT& c,
                        const ActOpts&) {
  if (c.weapon.empty()) return Malformed(c, "weapon", "the item to equip or stow is required");
  const Weapon* w = a.FindWeapon(c.weapon);
  if (w == nullptr) {
    return absl::NotFoundError(absl::StrCat("command '", c.action, "': field 'weapon': ", a.id,
                                            " has no item '", c.weapon, "'"));
  }
  if (DroppedOf(a, w->name) != nullptr) {
    return Refuse("002.items.pickup", absl::StrCat("'", w->name, "' lies on the ground: pick it up"));
  }
  const bool wielding = Wielding(a, w->name);
  if (c.action == "equip" && wielding) {
    return Refuse("002.items.equip", absl::StrCat("'", w->name, "' is already in hand"));
  }
  if (c.action == "stow" && !wielding) {
    return Refuse("002.items.equip", absl::StrCat("'", w->name, "' is not in hand"));
  }
  Cost cost;
  cost.energy = EquipEnergy(a, c);
  RETURN_IF_ERROR(ReadCostParams(c, cost));
  return CheckCost(s, a, cost, c.action);
}

absl::StatusOr<Outcome> ResolveEquip(Decision& d, const fb::CommandT& c,
                                     uint64_t cause, const ActOpts&) {
  const Combatant* a = d.state().Find(c.actor);
  const std::string name = a->FindWeapon(c.weapon)->name;
  const Pos at = a->at;
  Cost cost;
  cost.energy = EquipEnergy(*a, c);
  RETURN_IF_ERROR(ReadCostParams(c, cost));
  Nums nums{{"energy", cost.energy}};
  RETURN_IF_ERROR(Pay(d, c.actor, cost, {cause, "002.items.equip", nums, ""}));
  if (Active(*d.state().Find(c.actor), "Shaken")) {
    ASSIGN_OR_RETURN(bool kept, ShakenCheck(d, c.actor, cause, nums));
    if (!kept) {
      RETURN_IF_ERROR(DropWeapon(d, c.actor, name, at, {cause, "002.cond.shaken", nums, "fumbled"}));
      return Outcome{absl::StrCat("Shaken: dropped '", name, "'"), "002.cond.shaken", nums};
    }
  }
  const bool equip = c.action == "equip";
  RETURN_IF_ERROR(SetResource(d, c.actor, WieldKey(name), equip ? 1 : 0,
                              {cause, "002.items.equip", nums, ""}));
  return Outcome{absl::StrCat(equip ? "equipped '" : "stowed '", name, "'"), "002.items.equip", nums};
}

absl::Status CheckPickUp(const State& s, const Combatant& a, const fb::CommandT& c,
                         const ActOpts&) {
  if (c.weapon.empty()) return Malformed(c, "weapon", "the item to pick up is required");
  const Combatant* owner = &a;
  if (!c.targets.empty()) {
    ASSIGN_OR_RETURN(owner, Target(s, c, 0));
  }
  const Condition* dropped = DroppedOf(*owner, c.weapon);
  if (dropped == nullptr) {
    return Refuse("002.items.pickup", absl::StrCat("'", c.weapon, "' of ", owner->id,
                                                    " is not lying on the ground"));
  }
  if (DistanceTo(a, ParseAt(dropped->note)) > 1) {
    return Refuse("002.items.pickup", absl::StrCat("'", c.weapon, "' lies at (", dropped->note,
                                                    "), out of reach"));
  }
  const std::string place = ParamText(c, "place");  // ground, table or scoop (verbs.cc)
  if (place == "scoop" && c.role != fb::Role::GM && a.Resource(res::kStreak, 0) == 0) {
    return Refuse("002.items.pickup", "scooping up an item needs a run past it (or the GM's word)");
  }
  Cost cost;
  cost.energy = place == "scoop" ? 0 : place == "table" ? 2 : 1;
  RETURN_IF_ERROR(ReadCostParams(c, cost));
  return CheckCost(s, a, cost, "picking up");
}

absl::StatusOr<Outcome> ResolvePickUp(Decision& d, const fb::CommandT& c,
                                      uint64_t cause, const ActOpts&) {
  const std::string owner = c.targets.empty() ? c.actor : c.targets[0];
  const std::string place = ParamText(c, "place").empty() ? "ground" : ParamText(c, "place");
  Cost cost;
  cost.energy = place == "scoop" ? 0 : place == "table" ? 2 : 1;  // l.39, l.11
  RETURN_IF_ERROR(ReadCostParams(c, cost));
  Nums nums{{"energy", cost.energy}};
  if (cost.energy > 0 || cost.stamina_energy) {
    RETURN_IF_ERROR(Pay(d, c.actor, cost, {cause, "002.items.pickup", nums, place}));
  }
  // l.666: the Shaken "have a chance to drop items while manipulating
  // them": picking one up is manipulating it (the list after "This
  // includes" is not closed). A fumble leaves it where it lies; the Energy
  // is spent, and one who bent to the ground for it is Exposed all the same
  // (reading: the attempt had a result, l.138).
  bool fumbled = false;
  if (Active(*d.state().Find(c.actor), "Shaken")) {
    ASSIGN_OR_RETURN(bool kept, ShakenCheck(d, c.actor, cause, nums));
    fumbled = !kept;
  }
  if (!fumbled) {
    const uint32_t id = DroppedOf(*d.state().Find(owner), c.weapon)->id;
    RETURN_IF_ERROR(RemoveCondition(d, owner, id, {cause, "002.items.pickup", nums, "picked up"}));
  }
  if (place == "ground") {
    Impose e;
    e.actor = c.actor;
    e.name = "Exposed";
    e.source = "pick up";
    e.expiry = EndOfRound(d.state());
    // l.39 Exposes; l.460 is how long (reading 12).
    RETURN_IF_ERROR(AddWithDaughters(d, e, {cause, "002.items.pickup",
                                            {{"exposed_until_round", d.state().round, "", "002.exposed"}},
                                            "picking up from the ground"})
                        .status());
  }
  if (fumbled) {
    return Outcome{absl::StrCat("Shaken: fumbled '", c.weapon, "', which stays where it lies"),
                   "002.cond.shaken", nums};
  }
  if (owner == c.actor) {
    RETURN_IF_ERROR(SetResource(d, c.actor, WieldKey(c.weapon), 1, {cause, "002.items.pickup", {}, ""}));
  } else {
    NewCondition carry;
    carry.actor = c.actor;
    carry.name = "Carrying";
    carry.source = c.weapon;
    carry.relative_to = owner;
    carry.expiry = Forever();
    RETURN_IF_ERROR(AddCondition(d, carry, {cause, "002.items.pickup", {}, "someone else's weapon"})
                        .status());
  }
  return Outcome{absl::StrCat("picked up '", c.weapon, "'"), "002.items.pickup", nums};
}

}  // namespace combat::kernel::energy
