// Derived numbers (l.7, l.53, l.61-62, l.65, l.70): integers only.
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "kernel/ap_rp/internal.h"

namespace combat::kernel::aprp {

std::string SideOwner(const std::string& side) { return "side:" + side; }

bool IsStat(const std::string& k) {
  return k == "str" || k == "dex" || k == "con" || k == "int" || k == "cha" ||
         k == "ins" || k == "wil";
}

// Reading of l.53 ("a Strength ... of 13 ... your Strength Bonus ... 3") and
// l.61 ("a Strength of 14 ... 13 + 4"): the Stat Bonus is the Stat - 10.
int64_t StatBonus(const Combatant& c, const std::string& stat) {
  return c.Stat(stat, 10) - 10;
}

std::string TagValue(const Combatant& c, const std::string& prefix) {
  for (const std::string& t : c.tags) {
    if (absl::StartsWith(t, prefix + ":")) return t.substr(prefix.size() + 1);
  }
  return "";
}

bool IsObject(const Combatant& c) { return c.HasTag("object"); }

int64_t Hands(const Combatant& c) { return c.Stat("hands", 2); }
int64_t FreeHands(const Combatant& c) {
  return c.Resource(kFreeHands, c.Stat("free_hands", Hands(c)));
}

// l.53: "add your Strength Bonus and half of your Dexterity Bonus ... 3 plus
// 1,5, which is rounded down to 1, for a total of 4": half rounded down.
int64_t HitBonus(int64_t primary_bonus, int64_t secondary_bonus) {
  return primary_bonus + FloorDiv(secondary_bonus, 2);
}

int64_t BaseEvasion(const Combatant& c, Nums* nums) {
  const std::string stat = TagValue(c, "evasion_stat");
  const int64_t dex = c.Stat("dex", 10);
  const int64_t bonus = stat.empty() ? 0 : StatBonus(c, stat);
  int64_t base = dex + bonus;  // l.61
  if (nums != nullptr) {
    nums->push_back({"dex", dex});
    nums->push_back({"evasion_stat_bonus", bonus, stat.empty() ? "" : "evasion_stat:" + stat + " of " + c.id,
                     "004.evasion.base"});
  }
  if (c.stats.count("evasion_cap") > 0 && c.Stat("evasion_cap") < base) {
    base = c.Stat("evasion_cap");  // l.62
    if (nums != nullptr) nums->push_back({"evasion_cap", base, "evasion_cap of " + c.id, "004.evasion.cap"});
  }
  return base;
}

int64_t Evasion(const Combatant& c, Nums* nums) {
  // l.62: other sources of Evasion (Buffs, features) are not capped: the
  // roster's stat plus the resource a GM adjusts mid-combat.
  const int64_t bonus = c.Stat("evasion_bonus", 0) + c.Resource("evasion_bonus", 0);
  const int64_t e = BaseEvasion(c, nums) + bonus;
  if (nums != nullptr && bonus != 0) {
    // The roster's stat and the GM's adjustments (resource).
    nums->push_back({"evasion_bonus", bonus,
                     absl::StrCat("evasion_bonus of ", c.id,
                                  c.Resource("evasion_bonus", 0) != 0 ? " (GM adjustment)" : ""),
                     "004.evasion.cap"});
  }
  return e;
}

int64_t Initiative(const Combatant& c) {
  if (IsObject(c)) return 0;  // l.7
  return c.Stat("ins", 10) * 2 + c.Stat("athletics") + c.Stat("quick_fingers") +
         c.Stat("analysis") + c.Stat("grace") + c.Stat("improvisation") +
         c.Resource("initiative_mod");
}

bool IsDrKind(const std::string& kind) { return IsStat(kind); }

std::string DrSkill(const std::string& kind) {
  if (kind == "str") return "raw_force";     // l.71
  if (kind == "dex") return "nimbleness";    // l.72
  if (kind == "con") return "endurance";     // l.73
  if (kind == "int") return "psychology";    // l.74
  if (kind == "cha") return "presence";      // l.75
  if (kind == "ins") return "intuition";     // l.76
  return "perseverance";                     // l.77
}

int64_t DrValue(const Combatant& c, const std::string& kind) {
  return StatBonus(c, kind) + c.Stat(DrSkill(kind));
}

int64_t DrPower(const Combatant& c) {
  const std::string p = TagValue(c, "primary");
  return p.empty() ? 10 : c.Stat(p, 10);
}

int64_t SizeCat(const Combatant& c) { return c.Stat("size_cat", 0); }

std::string D20(int mode, int64_t bonus) {
  const std::string dice = mode > 0 ? "2d20kh1" : (mode < 0 ? "2d20kl1" : "1d20");
  if (bonus == 0) return dice;
  return bonus > 0 ? absl::StrCat(dice, "+", bonus) : absl::StrCat(dice, "-", -bonus);
}

bool Alive(const Combatant& c) { return !c.Has(kDead) && !IsObject(c); }

bool Enemies(const Combatant& a, const Combatant& b) { return a.side != b.side; }

absl::Status CheckNotHiddenFrom(const Combatant& a, const Combatant& t) {
  if (t.FindRelative(kHidden, a.id) == nullptr) return absl::OkStatus();
  return Refuse("004.hide", t.id + " is hidden from " + a.id + ": " + a.id +
                                " does not know where it is (\"the enemies do not know where you are\"); the GM"
                                " ends Hidden (gm_condition remove) when " + a.id + " finds it");
}

absl::Status CheckShape(const fb::CommandT& c, size_t targets, bool weapon, bool path) {
  if (c.targets.size() > targets) {
    return Malformed(c, absl::StrCat("targets[", targets, "]"),
                     targets == 0 ? "this verb takes no targets" : absl::StrCat("this verb takes ", targets, " target"));
  }
  if (!weapon && !c.weapon.empty()) return Malformed(c, "weapon", "this verb takes no weapon");
  if (!path && !c.path.empty()) return Malformed(c, "path", "this verb takes no path");
  return absl::OkStatus();
}

absl::Status CheckOneTarget(const fb::CommandT& c) { return CheckShape(c, 1, true, true); }

}  // namespace combat::kernel::aprp
