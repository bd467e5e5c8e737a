// Derived numbers. Integers only. The text gives a rounding rule only for
// damage multipliers ("rounded down", l.384) and Slowed ("rounded up",
// l.674); every other division (MASAB l.182, halved modifiers l.328,
// 1/3 Level l.328, Aura Strength l.298) reads l.384 and rounds down
// (toward -infinity: FloorDiv). See README "Rounding".
#include <algorithm>
#include <string>

#include "kernel/energy_rounds/internal.h"

namespace combat::kernel::energy {

namespace {

struct SizeRow {
  const char* name;
  int64_t inherent_evasion;  // l.439
  int64_t jump_m;            // l.439 (Diminutive .5 and Fine .3 round down)
  int64_t speed;             // l.439
};

// Size Chart (l.438-446). Miniscule and Gigantic are not in the chart: read
// as Fine and Huge for these columns.
const SizeRow kRows[] = {
    {"miniscule", 12, 0, 1}, {"fine", 12, 0, 1},  {"diminutive", 11, 0, 2},
    {"tiny", 10, 1, 3},      {"small", 9, 2, 5},  {"medium", 8, 3, 6},
    {"large", 7, 4, 8},      {"huge", 6, 5, 10},  {"gigantic", 6, 5, 10},
};

int64_t Halved(int64_t v) { return FloorDiv(v, 2); }  // l.328 read with l.384
int64_t Third(int64_t v) { return FloorDiv(v, 3); }   // l.328 read with l.384

}  // namespace

int SizeOf(const Combatant& c) {
  for (int i = kMiniscule; i <= kGigantic; ++i) {
    if (c.HasTag(kRows[i].name)) return i;
  }
  return kMedium;
}

const char* SizeName(int size) {
  if (size < kMiniscule || size > kGigantic) return "?";
  return kRows[size].name;
}

int64_t Level(const Combatant& c) { return c.Stat("level", 1); }

int64_t Mod(const Combatant& c, const char* ability) {
  return c.Stat(ability, 0);
}

int64_t Masab(const Combatant& c) {
  return Third(Mod(c, "str") + Mod(c, "dex") + c.Stat("masab_extra_mod", 0));
}

int64_t BaseSpeed(const Combatant& c) {
  return c.Stat("speed", kRows[SizeOf(c)].speed);
}

// The Size Chart's "Approximate Jump Reach & Distance (m)" (l.439-446),
// the distance jumped "without a running start" (l.448).
int64_t SizeJump(const Combatant& c) { return kRows[SizeOf(c)].jump_m; }

int64_t Speed(const Combatant& c) {
  const int64_t base = BaseSpeed(c);
  if (Active(c, "Slowed")) return CeilDiv(base, 2);  // l.674: rounded up
  return base;
}

int64_t MaxAgility(const Combatant& c) {
  return 3 + c.Stat("agility_bonus", 0);
}

int64_t MaxStamina(const Combatant& c) { return c.Stat("con_score", 10); }

int64_t AuraModifier(const Combatant& c) {
  return Mod(c, "str") + Mod(c, "con") + Mod(c, "int") + Mod(c, "wis") +
         Mod(c, "cha");
}

int64_t AuraMax(const Combatant& c) {
  // 20 + mod x (1 + 1/3) = 20 + mod x 4 / 3, rounded down (l.298, l.384).
  return 20 + FloorDiv(AuraModifier(c) * 4, 3);
}

int64_t SurgesMax(const Combatant& c) { return 5 + Halved(Mod(c, "con")); }

int64_t RecoveryValue(const Combatant& c) {
  return std::max<int64_t>(1, AuraModifier(c));
}

int64_t InherentEvasion(const Combatant& c) {
  return c.Stat("inherent_evasion", kRows[SizeOf(c)].inherent_evasion);
}

int64_t Mpl(const Combatant& c) { return c.Stat("mpl", 0); }

bool Proficient(const Combatant& c, const Weapon& w) {
  auto it = w.numbers.find("mpr");
  return it == w.numbers.end() || Mpl(c) >= it->second;
}

bool Wielding(const Combatant& c, const std::string& weapon) {
  return c.Resource(WieldKey(weapon), 0) > 0;
}

const Weapon* WieldedMelee(const Combatant& c) {
  for (const Weapon& w : c.weapons) {
    if ((w.kind == "melee" || w.kind == "thrown") && Wielding(c, w.name)) {
      return &w;
    }
  }
  return nullptr;
}

namespace {
int64_t Num(const Weapon& w, const char* key, int64_t otherwise = 0) {
  auto it = w.numbers.find(key);
  return it == w.numbers.end() ? otherwise : it->second;
}
}  // namespace

int64_t Evasion(const Combatant& c, bool unarmed, Nums* nums) {
  const int64_t inherent = InherentEvasion(c);
  const int64_t lvl = Third(Level(c));
  const int64_t dex = Halved(Mod(c, "dex"));
  const int64_t penalty = c.Stat("armor_penalty", 0);
  int64_t shield = 0, weapons = 0, nonprof = 0;
  if (!unarmed) {
    shield = c.Stat("shield", 0);
    for (const Weapon& w : c.weapons) {
      if (!Wielding(c, w.name)) continue;
      weapons += Num(w, "evasion_bonus");
      if (w.kind == "melee" && !Proficient(c, w)) nonprof = 1;  // l.527
    }
  }
  const int64_t total = inherent + lvl + dex + shield + weapons - penalty -
                        nonprof;
  if (nums != nullptr) {
    nums->push_back({"inherent_evasion", inherent});
    nums->push_back({"level_third", lvl});
    nums->push_back({"dex_half", dex});
    // The modifiers, when there are any, with what gives them.
    if (!unarmed) {
      if (shield) nums->push_back({"shield", shield, "shield of " + c.id, "002.defense.evasion"});
      if (weapons) {
        nums->push_back({"weapon_evasion", weapons, "weapons of " + c.id, "002.defense.evasion"});
      }
      if (nonprof) {
        nums->push_back({"nonproficient", -1, "a melee weapon of " + c.id + " (not proficient)",
                         "002.mpl.melee"});
      }
    }
    if (penalty) {
      nums->push_back({"armor_penalty", penalty, "armor of " + c.id, "002.defense.evasion"});
    }
    nums->push_back({unarmed ? "unarmed_evasion" : "evasion", total});
  }
  return total;
}

int64_t RangedEvasion(const Combatant& c, bool facing, Nums* nums) {
  const int64_t dex = Halved(Mod(c, "dex"));
  const int64_t shield = facing ? c.Stat("shield", 0) : 0;
  const int64_t penalty = c.Stat("armor_penalty", 0);
  const int64_t total = dex + shield - penalty;
  if (nums != nullptr) {
    nums->push_back({"dex_half", dex});
    if (shield) {
      nums->push_back({"shield", shield, "shield of " + c.id, "002.defense.ranged_evasion"});
    }
    if (penalty) {
      nums->push_back({"armor_penalty", penalty, "armor of " + c.id, "002.defense.ranged_evasion"});
    }
    nums->push_back({"ranged_evasion", total});
  }
  return total;
}

int64_t Fortitude(const Combatant& c, Nums* nums) {
  const int64_t inherent = c.Stat("inherent_fortitude", 10);
  const int64_t total = inherent + Third(Level(c)) + Halved(Mod(c, "con")) +
                        Halved(Mod(c, "str"));
  if (nums != nullptr) {
    nums->push_back({"inherent_fortitude", inherent});
    nums->push_back({"level_third", Third(Level(c))});
    nums->push_back({"con_half", Halved(Mod(c, "con"))});
    nums->push_back({"str_half", Halved(Mod(c, "str"))});
    nums->push_back({"fortitude", total});
  }
  return total;
}

int64_t Will(const Combatant& c, Nums* nums) {
  const int64_t inherent = c.Stat("inherent_will", 10);
  const int64_t total = inherent + Third(Level(c)) + Halved(Mod(c, "cha")) +
                        Halved(Mod(c, "wis"));
  if (nums != nullptr) {
    nums->push_back({"inherent_will", inherent});
    nums->push_back({"level_third", Third(Level(c))});
    nums->push_back({"cha_half", Halved(Mod(c, "cha"))});
    nums->push_back({"wis_half", Halved(Mod(c, "wis"))});
    nums->push_back({"will", total});
  }
  return total;
}

int64_t ReachOf(const Combatant& c, const Weapon* weapon) {
  int64_t reach = 1 + (weapon == nullptr ? 0 : Num(*weapon, "reach"));
  const int size = SizeOf(c);
  if (size >= kHuge) reach += 1;  // l.452
  if (size <= kTiny) reach -= 1;  // l.452
  return std::max<int64_t>(0, reach);
}

int Facing(const Combatant& c) {
  return static_cast<int>(c.Resource(res::kFacing, 0));
}

bool Faces(const Combatant& c, Pos p) {
  return space::Faces(c.at, c.size, Facing(c), p);  // l.402
}

// l.402 "when the square is taken as a whole you are counted as facing it":
// a creature filling several squares is faced when one of them is.
bool FacesSpace(const Combatant& c, const Combatant& o) {
  for (const Pos& p : space::SquaresOf(o.at, o.size)) {
    if (Faces(c, p)) return true;
  }
  return false;
}

}  // namespace combat::kernel::energy
