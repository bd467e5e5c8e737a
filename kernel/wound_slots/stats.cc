// Roster numbers (integers only). Stats: attributes str, dex, vit, spd,
// prc, rsn, prs, lor; "size" (the text's Size score, not the grid space);
// skills by name ("melee", "aim", "athletics", "reflex", "resistance",
// "healing", ...) and specializations as "<skill>/<spec>" ("melee/sword",
// "reflex/initiative"). Weapons: damage (dice or a number), category (the
// weapon group), numbers accuracy, block, ranged_block, reach, penetrating.
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "kernel/wound_slots/internal.h"

namespace combat::kernel::wound_slots {

const char* LevelName(int level) {
  static const char* kNames[] = {"none", "light", "moderate", "severe", "critical", "fatal"};
  return level >= 0 && level <= 5 ? kNames[level] : "?";
}
std::string WoundsKey(int level) { return absl::StrCat("wounds_", LevelName(level)); }
std::string SlotsKey(int level) { return absl::StrCat("slots_", LevelName(level)); }

int64_t CheckBonus(const Combatant& c, const std::string& attr,
                   const std::string& skill, const std::string& spec,
                   Nums* nums) {
  int64_t total = 0;
  auto add = [&](const std::string& key) {
    if (key.empty()) return;
    const int64_t v = c.Stat(key, 0);
    total += v;
    if (nums != nullptr) nums->push_back({key, v});
  };
  add(attr);
  add(skill);
  if (!skill.empty() && !spec.empty()) add(skill + "/" + spec);
  return total;
}

int64_t SizeScore(const Combatant& c) { return c.Stat("size", 0); }

// l.54, l.250, l.252, l.261: -5 without a healing kit; `kit` is required
// where it counts (verbs.cc, rest.cc), never assumed.
int64_t Kit(const fb::CommandT& c) { return ParamOr(c, "kit", 0) != 0 ? 0 : -5; }
kernel::Num KitNum(const fb::CommandT& c, const char* rule) {
  return {"kit", Kit(c), Kit(c) != 0 ? "without a healing kit" : "a healing kit in hand: no penalty", rule};
}

std::string CondSource(const Combatant& bearer, const std::string& name) {
  const Condition* k = bearer.FindCondition(name);
  if (k == nullptr) return "";
  std::string out = absl::StrCat(absl::AsciiStrToLower(name), " on ", bearer.id);
  if (!k->source.empty() && k->source != bearer.id) absl::StrAppend(&out, " by ", k->source);
  return out;
}
int64_t SpeedScore(const Combatant& c) { return c.Stat("spd", 0); }

SpeedRow SpeedTable(int64_t speed) {
  // l.113-117, columns Speed -10..10.
  static const int64_t kStart[] = {2, 2, 2, 3, 3, 3, 4, 4, 5, 5, 6, 7, 8, 9, 11, 12, 14, 16, 18, 21, 24};
  static const int64_t kEnd[] = {1, 1, 2, 2, 2, 3, 3, 4, 4, 5, 6, 7, 8, 9, 10, 12, 14, 16, 18, 21, 24};
  static const int64_t kMax[] = {5, 5, 6, 7, 8, 9, 10, 12, 14, 16, 18, 21, 24, 27, 31, 36, 41, 48, 55, 63, 72};
  const int64_t i = std::clamp<int64_t>(speed, -10, 10) + 10;
  return {kStart[i], kEnd[i], kMax[i]};
}

int64_t RateFromScore(int64_t score) {
  // l.134-159: rate 0 at -30 or less, then bands of 4 (-29..-26 is 1, ...,
  // 67..70 is 25). Only the bottom row says "or less": above 70 the bands
  // of 4 go on (71..74 is 26), read as the table's own pattern, like its
  // yards (YardsFor).
  if (score <= -30) return 0;
  return FloorDiv(score + 29, 4) + 1;
}

int64_t MovementRate(const Combatant& c) {
  if (c.stats.count("move_rate")) return c.Stat("move_rate");  // l.160: other rates
  return RateFromScore(c.Stat("str") + SizeScore(c) + c.Stat("athletics"));
}

int64_t YardsFor(int64_t rate, int64_t ap) {
  // l.133-159: AP 1, 2, 3, 4 by rate 0..25.
  static const int64_t kT[26][4] = {
      {0, 0, 0, 0}, {0, 0, 0, 1}, {0, 1, 1, 2}, {0, 1, 2, 3}, {1, 2, 3, 4},
      {1, 2, 3, 5}, {1, 3, 4, 6}, {1, 3, 5, 7}, {2, 4, 6, 8}, {2, 4, 6, 9},
      {2, 5, 7, 10}, {2, 5, 8, 11}, {3, 6, 9, 12}, {3, 6, 9, 13}, {3, 7, 10, 14},
      {3, 7, 11, 15}, {4, 8, 12, 16}, {4, 8, 12, 17}, {4, 9, 13, 18}, {4, 9, 14, 19},
      {5, 10, 15, 20}, {5, 10, 15, 21}, {5, 11, 16, 22}, {5, 11, 17, 23}, {6, 12, 18, 24},
      {6, 12, 18, 25}};
  ap = std::clamp<int64_t>(ap, 1, 4);
  if (rate < 0) return 0;
  if (rate <= 25) return kT[rate][ap - 1];
  return FloorDiv(rate * ap, 4);  // beyond the table (Dash): its pattern, rounded down
}

int64_t YardsForAp(int64_t rate, int64_t ap) {
  if (ap <= 0) return 0;
  return (ap / 4) * YardsFor(rate, 4) + (ap % 4 == 0 ? 0 : YardsFor(rate, ap % 4));
}

int64_t YardsBought(int64_t rate, int64_t before, int64_t ap) {
  before = std::max<int64_t>(0, before);
  return YardsForAp(rate, before + ap) - YardsForAp(rate, before);
}

int64_t ApForYards(int64_t rate, int64_t yards, int64_t before) {
  if (yards <= 0) return 0;
  for (int64_t ap = 1; ap <= 400; ++ap) {
    if (YardsBought(rate, before, ap) >= yards) return ap;
  }
  return -1;  // this movement rate cannot reach it
}

absl::StatusOr<Def> DefFromName(const std::string& n) {
  if (n == "melee") return Def::kMelee;
  if (n == "ranged") return Def::kRanged;
  if (n == "immobile") return Def::kImmobile;
  if (n == "power") return Def::kPower;
  if (n == "agility") return Def::kAgility;
  if (n == "fortitude") return Def::kFortitude;
  if (n == "willpower") return Def::kWillpower;
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown defense '", n, "': melee, ranged, immobile, power, agility, fortitude, willpower"));
}

const char* DefName(Def d) {
  switch (d) {
    case Def::kMelee: return "melee";
    case Def::kRanged: return "ranged";
    case Def::kImmobile: return "immobile";
    case Def::kPower: return "power";
    case Def::kAgility: return "agility";
    case Def::kFortitude: return "fortitude";
    case Def::kWillpower: return "willpower";
  }
  return "?";
}

// l.275 "While underwater": the GM's `Underwater`, the roster tag, or a
// swimmer who sank below the surface (`Sunk`, l.278: "sink underwater").
// "Fighting underwater is difficult for any non-aquatic creature": one
// tagged `aquatic` fights there as anywhere else.
bool IsUnderwater(const Combatant& c) {
  if (c.HasTag("aquatic")) return false;
  return InWater(c);
}

// In the water, aquatic or not: l.276 "All fire damage is halved
// underwater" is the fire's, whoever fights there.
bool InWater(const Combatant& c) { return c.Has("Underwater") || c.Has("Sunk") || c.HasTag("underwater"); }

bool Immobilized(const Combatant& c) {
  return c.Has("Immobile") || c.Has("Pinned") || IsUnderwater(c);  // l.99, l.235, l.275
}

int64_t Defense(const Combatant& c, Def d, Nums* nums) {
  auto push = [&](const char* k, int64_t v) {
    if (nums != nullptr) nums->push_back({k, v});
  };
  if ((d == Def::kMelee || d == Def::kRanged || d == Def::kAgility) && Immobilized(c)) {
    if (nums != nullptr) {
      std::string why;
      for (const char* k : {"Immobile", "Pinned", "Underwater", "Sunk"}) {
        if (why.empty()) why = CondSource(c, k);
      }
      if (why.empty()) why = "underwater " + c.id;
      nums->push_back({"immobilized", 1, why, "001.defense"});
    }
    d = Def::kImmobile;  // l.99
  }
  const int64_t size = SizeScore(c);
  int64_t total = 0;
  switch (d) {
    case Def::kMelee:
    case Def::kRanged: {
      const int64_t sr = std::max<int64_t>(-5, SpeedScore(c) + c.Stat("rsn"));  // l.100-101
      int64_t block = 0;
      std::vector<std::string> blockers;
      for (const Weapon& w : c.weapons) {
        if (Dropped(c, w)) continue;  // l.243: dropped, it blocks nothing
        const int64_t b = d == Def::kMelee ? Num(w, "block") : Num(w, "ranged_block");
        block += b;
        if (b != 0) blockers.push_back(absl::StrCat(w.name, " of ", c.id));
      }
      push("size", size);
      push("speed_reason", sr);
      if (nums != nullptr) nums->push_back({"block", block, absl::StrJoin(blockers, ", "), "001.defense"});
      total = 10 - size + sr + block;
      break;
    }
    case Def::kImmobile:
      push("size", size);
      total = 5 - size;  // l.102
      break;
    case Def::kPower:
      total = 10 + CheckBonus(c, "str", "athletics", "power", nums) + size;  // l.103
      push("size", size);
      break;
    case Def::kAgility:
      total = 10 + CheckBonus(c, "dex", "reflex", "agility", nums) - size;  // l.104
      push("size", size);
      break;
    case Def::kFortitude:
      total = 10 + CheckBonus(c, "vit", "resistance", "fortitude", nums);  // l.105
      break;
    case Def::kWillpower:
      total = 10 + CheckBonus(c, "prs", "resistance", "willpower", nums);  // l.106
      break;
  }
  if (c.Has("Distracted")) {  // l.244: "-2 penalty to attack and defense until the end of the round"
    if (nums != nullptr) nums->push_back({"distracted", -2, CondSource(c, "Distracted"), "001.hinder.distract"});
    total -= 2;
  }
  push((std::string(DefName(d)) + "_defense").c_str(), total);
  return total;
}

int64_t Toughness(const Combatant& c, bool bypass_armor, Nums* nums) {
  const int64_t vit = c.Stat("vit"), size = SizeScore(c);
  const int64_t armor = bypass_armor ? 0 : c.Stat("armor");
  const int64_t bonus = c.Stat("toughness_bonus");
  const int64_t t = vit + size + armor + bonus;  // l.16
  if (nums != nullptr) {
    nums->push_back({"vit", vit});
    nums->push_back({"size", size});
    nums->push_back({"armor", armor, bypass_armor || armor == 0 ? "" : "armor of " + c.id,
                     bypass_armor ? "001.wound.armor_piercing" : "001.wound.toughness"});
    if (bonus != 0) nums->push_back({"toughness_bonus", bonus, c.id, "001.wound.toughness"});
    nums->push_back({"toughness", t});
  }
  return t;
}

int64_t NormalMaxStamina(const Combatant& c) {
  return c.Stat("stamina") + c.Stat("vit");  // l.38: race value + Vitality
}
int64_t NormalMaxMana(const Combatant& c) {
  return c.Stat("mana") + c.Stat("lor");  // l.42: race value + Lore
}

bool IsNpc(const Combatant& c) {
  return c.HasTag("minion") || c.HasTag("standard") || c.HasTag("elite");
}

int64_t SlotsFor(const Combatant& c, int level) {
  if (level == kFatal) return 1;                       // l.33
  if (level == kLight) return std::max<int64_t>(0, 5 + c.Stat("prs"));  // l.33
  if (IsNpc(c)) {                                      // l.36
    return c.HasTag("minion") ? 1 : c.HasTag("standard") ? 2 : 3;
  }
  // l.18-30, Vitality -5..5 (clamped: the table's ends).
  static const int64_t kT[11][3] = {{1, 1, 0}, {1, 1, 1}, {2, 1, 1}, {2, 2, 1},
                                    {3, 2, 1}, {3, 2, 2}, {3, 3, 2}, {4, 3, 2},
                                    {4, 3, 3}, {4, 4, 3}, {5, 4, 3}};
  const int64_t i = std::clamp<int64_t>(c.Stat("vit"), -5, 5) + 5;
  return kT[i][level - kModerate];
}

int64_t Num(const Weapon& w, const char* key, int64_t otherwise) {
  auto it = w.numbers.find(key);
  return it == w.numbers.end() ? otherwise : it->second;
}

bool IsRanged(const Weapon& w) { return w.kind == "ranged" || w.kind == "thrown"; }

bool Dropped(const Combatant& c, const Weapon& w) {
  for (const auto& [id, k] : c.conditions) {
    if (k.name == "Disarmed" && k.note == w.name) return true;
  }
  return false;
}

const Weapon* WeaponOf(const Combatant& c, const fb::CommandT& cmd) {
  if (!cmd.weapon.empty()) return c.FindWeapon(cmd.weapon);
  for (const Weapon& w : c.weapons) {
    if (!Dropped(c, w)) return &w;  // the first one still in hand
  }
  return c.weapons.empty() ? nullptr : &c.weapons.front();
}

int64_t Reach(const Weapon* w) {
  // l.230 "an adjacent target using any weapon that has a reach of 0": the
  // yards between the spaces (adjacent 0). Reading: a weapon whose reach the
  // roster does not give reaches 1 yd (l.230's reach-0 weapons being the
  // ones a grapple names); no weapon in hand, 0: the hands' grapple reach.
  return w == nullptr ? 0 : Num(*w, "reach", 1);
}

Space SpaceOf(const State& s, const Combatant& c) {
  if (const Condition* k = c.FindCondition("Riding"); k != nullptr) {
    if (const Combatant* m = s.Find(k->relative_to); m != nullptr) return {m->at, m->size};
  }
  return {c.at, c.size};
}

int64_t Distance(const State& s, const Combatant& a, const Combatant& b) {
  const Space x = SpaceOf(s, a), y = SpaceOf(s, b);
  return space::Distance(kGrid, x.at, x.size, y.at, y.size);
}

}  // namespace combat::kernel::wound_slots
