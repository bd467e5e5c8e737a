// Damage (l.58, l.64-66, l.79-97): the 11 types, resistance / immunity /
// vulnerability, Armor (or the Constitution / Will DR value for Poison /
// Psychic) subtracted once per hit, ignoring Armor, non-lethal damage and
// Bleeding.
//
// Order (reading; the text gives none): each part's type modifier first
// (l.79 "reduces all incoming damage of that type"), then the one defensive
// value (l.64 "subtracted once"), the lowest of the parts' (l.65), off the
// part the attacker names (default: the first part whose defence is that
// lowest value), what it cannot absorb off the other parts; the total never
// goes below 0.
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/ap_rp/internal.h"

namespace combat::kernel::aprp {
namespace {

constexpr const char* kTypes[] = {"physical", "chemical", "cold",  "heat",
                                  "poison",   "shock",    "curse", "holy",
                                  "spirit",   "psychic",  "reality"};

// The defensive value against a part of `type` (l.64-65).
int64_t DefenseFor(const Combatant& t, const std::string& type) {
  if (type == "poison") return DrValue(t, "con");
  if (type == "psychic") return DrValue(t, "wil");
  return t.Stat("armor", 0);
}

}  // namespace

bool IsDamageType(const std::string& t) {
  for (const char* k : kTypes) {
    if (t == k) return true;
  }
  return false;
}

DamageCalc ComputeDamage(const Combatant& target, std::vector<DamagePart> parts,
                         const DamageOpts& o) {
  DamageCalc out;
  {
    // l.79 "Resistance reduces all incoming damage of that type by half":
    // the parts of one type in a hit are one amount, halved together (a
    // weapon's 5 Physical and its 3 more Physical, resisted: 8 -> 4, not
    // 2 + 1); the first part of a type keeps its place.
    std::vector<DamagePart> merged;
    for (const DamagePart& p : parts) {
      auto it = std::find_if(merged.begin(), merged.end(),
                             [&](const DamagePart& m) { return m.type == p.type; });
      if (it == merged.end()) {
        merged.push_back(p);
      } else {
        it->amount += p.amount;
      }
    }
    parts = std::move(merged);
  }
  bool incoming = false;
  for (DamagePart& p : parts) {
    const int64_t before = p.amount;
    std::string tag;
    if (target.HasTag("immune:" + p.type)) {
      p.amount = 0;  // l.79: immunity nullifies
      tag = "immune:" + p.type;
    } else if (target.HasTag("resist:" + p.type) && target.HasTag("vulnerable:" + p.type)) {
      // l.79 "Resistance reduces all incoming damage of that type by half
      // ... Vulnerability increases all damage of that type by half": both
      // apply, each by half of the incoming damage (the text orders
      // neither): - half + half, the damage unchanged (7 cold: 7).
      tag = "resist:" + p.type + " and vulnerable:" + p.type;
      out.nums.push_back({p.type, before});
      out.nums.push_back({p.type + "_type_modifier", 0, tag + " of " + target.id, "004.damage.types"});
      incoming = incoming || p.amount > 0;
      continue;
    } else if (target.HasTag("resist:" + p.type)) {
      // l.79 "reduces all incoming damage of that type by half": the half
      // is what is taken off, and a half is rounded down (l.53 "1,5, which
      // is rounded down to 1"): 7 -> 7 - 3 = 4, as vulnerability's half
      // (below) and both together (above: - 3 + 3).
      p.amount = p.amount - FloorDiv(p.amount, 2);
      tag = "resist:" + p.type;
    } else if (target.HasTag("vulnerable:" + p.type)) {
      p.amount = p.amount + FloorDiv(p.amount, 2);  // l.79: "by half" more, the half rounded down (l.53)
      tag = "vulnerable:" + p.type;
    }
    out.nums.push_back({p.type, before});
    // The type modifier: the change it makes, named by the target's tag.
    if (p.amount != before) {
      out.nums.push_back({p.type + "_type_modifier", p.amount - before, tag + " of " + target.id, "004.damage.types"});
      out.nums.push_back({p.type + "_after_type", p.amount});
    }
    incoming = incoming || p.amount > 0;
  }
  if (!incoming) {
    out.nums.push_back({"damage", 0});
    return out;
  }
  // l.65: the lowest defensive value among the types that deal damage.
  int64_t def = 0;
  size_t from = parts.size();
  for (size_t i = 0; i < parts.size(); ++i) {
    if (parts[i].amount <= 0) continue;
    const int64_t v = DefenseFor(target, parts[i].type);
    if (from == parts.size() || v < def) {
      def = v;
      from = i;
    }
  }
  // The type whose defence is the lowest names the value's source (l.65:
  // against Armor 4 and a Constitution DR value of 1 the value is the DR
  // value, whichever part the attacker takes it from).
  const std::string def_type = from < parts.size() ? parts[from].type : "";
  if (!o.armor_from.empty()) {
    for (size_t i = 0; i < parts.size(); ++i) {
      if (parts[i].type == o.armor_from && parts[i].amount > 0) from = i;
    }
  }
  // The one defensive value: the target's Armor, or its Constitution / Will
  // DR value against Poison / Psychic (l.64-65).
  out.nums.push_back({"defense", def,
                      def_type == "poison" ? "con DR value of " + target.id
                      : def_type == "psychic" ? "wil DR value of " + target.id
                                              : "armor of " + target.id,
                      def_type == "poison" || def_type == "psychic" ? "004.armor.dr" : "004.armor"});
  // l.66: ignoring Armor never takes a positive value below 0; a negative
  // one still adds.
  int64_t eff = def;
  if (o.ignore_armor > 0 && def > 0) {
    eff = std::max<int64_t>(0, def - o.ignore_armor);
    out.nums.push_back({"ignore_armor", o.ignore_armor, "", "004.armor.ignore"});
    out.nums.push_back({"effective_defense", eff});
  }
  // l.64: "Your Armor is subtracted from any incoming damage" (12 - 2 =
  // 10): the value comes off the named part first and what that part cannot
  // absorb off the others (reading: the choice of l.65 only says which type
  // the reduction is taken from; 5 Physical + 2 Poison against a defence of
  // 4 deals 3, not 5); the total never goes below 0.
  if (eff < 0) {
    parts[from].amount -= eff;  // l.64: negative Armor adds
  } else {
    int64_t left = eff;
    const int64_t first = std::min(left, parts[from].amount);
    parts[from].amount -= first;
    left -= first;
    for (size_t i = 0; i < parts.size() && left > 0; ++i) {
      const int64_t take = std::min(left, parts[i].amount);
      if (take <= 0) continue;
      parts[i].amount -= take;
      left -= take;
    }
    if (eff > 0) out.nums.push_back({"defense_from_" + parts[from].type, first});
  }
  int64_t total = 0;
  for (const DamagePart& p : parts) total += p.amount;
  if (o.cap > 0 && !IsObject(target) && total > o.cap) {
    total = o.cap;  // l.115: "cannot deal more than 100 damage to a creature"
    out.nums.push_back({"capped_at", o.cap, "", "004.teleport"});
  }
  out.total = total;
  for (const DamagePart& p : parts) {
    if (p.type == "holy") out.holy += std::max<int64_t>(0, p.amount);
  }
  out.holy = std::min(out.holy, total);
  out.nums.push_back({"damage", total});
  return out;
}

absl::StatusOr<int64_t> ApplyDamage(Decision& d, const std::string& target,
                                    std::vector<DamagePart> parts,
                                    const DamageOpts& o, uint64_t cause,
                                    Nums nums) {
  const Combatant* t = d.state().Find(target);
  DamageCalc calc = ComputeDamage(*t, parts, o);
  for (const Num& n : calc.nums) nums.push_back(n);
  bool holy = false;
  for (const DamagePart& p : parts) holy = holy || (p.type == "holy" && p.amount > 0);
  // l.92: "Holy damage is non-lethal against biological creatures ...
  // unless the one dealing the damage wishes to do so": the Holy damage, not
  // the rest of the hit (reading: the lethal parts come first and the Holy
  // part takes Vitality no lower than 0; 5 Physical + 5 Holy against 3: -2
  // and Bleeding; black-box: the whole hit was non-lethal, 0).
  const bool biological = !IsObject(*t) && !t->HasTag("not_biological");
  const bool holy_nonlethal = holy && biological && !o.lethal_holy && !o.nonlethal;
  const int64_t holy_part = holy_nonlethal ? calc.holy : 0;
  const int64_t lethal_part = calc.total - holy_part;
  const bool nonlethal = o.nonlethal || (holy_nonlethal && lethal_part <= 0);
  const int64_t before = t->Resource(kVitality);
  int64_t dealt = calc.total;
  // The most specific rule applied (the numbers show every step).
  std::string rule = "004.armor";
  for (const DamagePart& p : parts) {
    if (p.type == "poison" || p.type == "psychic") rule = "004.armor.dr";
    if (t->HasTag("immune:" + p.type) || t->HasTag("resist:" + p.type) || t->HasTag("vulnerable:" + p.type)) {
      rule = "004.damage.types";
    }
  }
  if (o.ignore_armor > 0) rule = "004.armor.ignore";
  if (holy && biological && !o.lethal_holy) rule = "004.damage.holy";
  if (o.nonlethal) rule = "004.attack.nonlethal";
  if (nonlethal && before - dealt < 0) {
    // l.58: non-lethal damage cannot kill: reading, it stops at 0 (the
    // thresholds of death are outside this chapter).
    dealt = std::max<int64_t>(0, before);
    nums.push_back({"nonlethal_cap", dealt});
  } else if (!nonlethal && holy_part > 0) {
    // l.92 with l.58: the lethal parts take Vitality where they would; the
    // Holy part no lower than 0 (nor any lower than the lethal parts did).
    nums.push_back({"lethal_part", lethal_part});
    nums.push_back({"holy_nonlethal_part", holy_part, "", "004.damage.holy"});
    const int64_t floor = std::min<int64_t>(0, before - lethal_part);
    if (before - dealt < floor) {
      dealt = before - floor;
      nums.push_back({"nonlethal_cap", dealt});
    }
  }
  if (dealt <= 0) {
    RETURN_IF_ERROR(RecordOutcome(d, target, {cause, rule, nums, "no damage"}));
    return 0;
  }
  RETURN_IF_ERROR(AddResource(d, target, kVitality, -dealt,
                              {cause, rule, nums, nonlethal ? "non-lethal" : ""}).status());
  // l.58, l.92: lethal damage leaving Vitality below 1 starts Bleeding
  // (reading: also when Vitality was already below 1, e.g. at 0 after
  // non-lethal damage, which started none).
  // l.92: Holy damage "does not cause bleeding if they reduce their
  // Vitality below 1": only the lethal parts count.
  if (!nonlethal && before - lethal_part < 1 && !t->Has(kBleeding) && !IsObject(*t)) {
    NewCondition b;
    b.actor = target;
    b.name = kBleeding;
    b.source = "damage";
    RETURN_IF_ERROR(AddCondition(d, b, {cause, "004.vitality", {{"vitality", before - dealt}},
                                        "Vitality below 1: starts bleeding"}).status());
  }
  return dealt;
}

}  // namespace combat::kernel::aprp
