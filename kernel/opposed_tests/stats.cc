// Derived numbers: governing attributes, damage groups, sizes, weapons and
// their reach, cover (l.86-89) and flanking (l.91). Integers only.
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "kernel/line_through.h"
#include "kernel/opposed_tests/internal.h"

namespace combat::kernel::opposed {

int64_t Distance(const Combatant& a, const Combatant& b) {
  return space::Distance(kGrid, a, b);
}

int64_t SizeClass(const Combatant& c) { return c.Stat("size_class", 2); }

// Reading (README): the text names the governing attribute only for the
// Fighting Style tests (l.44, l.51, l.53); the others read as below.
std::string GoverningAttribute(const std::string& skill) {
  if (skill == "fighting_style" || skill == "athletics") return "str";
  if (skill == "dodge" || skill == "acrobatics" || skill == "stealth" ||
      skill == "sleight_of_hand") {
    return "agi";
  }
  if (skill == "observation") return "per";
  if (skill == "focus" || skill == "sorcery") return "wil";
  if (skill == "deception") return "cha";
  return "";
}

bool IsPhysical(const std::string& t) {  // l.119-122
  return t == "crushing" || t == "piercing" || t == "slashing";
}
bool IsMagical(const std::string& t) {  // l.123-126
  return t == "fire" || t == "frost" || t == "shock";
}
std::string GroupOf(const std::string& t) {  // l.127-133: the rest
  return IsPhysical(t) ? "physical" : IsMagical(t) ? "magical" : "other";
}

const Weapon* FindShield(const Combatant& c) {
  for (const Weapon& w : c.weapons) {
    if (w.kind == "shield" && Holds(c, w.name)) return &w;
  }
  return nullptr;
}

bool Holds(const Combatant& c, const std::string& weapon) {
  return c.Resource("dropped." + weapon, 0) == 0;
}

bool Trait(const Weapon& w, const std::string& key) {
  auto it = w.numbers.find(key);
  return it != w.numbers.end() && it->second != 0;
}

std::string ChosenSkill(const State& s, const Combatant& c, const std::string& choice,
                        const std::string& a, const std::string& b) {
  for (const std::string& t : c.tags) {
    if (t == choice + ":" + a) return a;
    if (t == choice + ":" + b) return b;
  }
  TestSpec ta{c.id, a, GoverningAttribute(a), 0, 0, 0, false, false, ""};
  TestSpec tb{c.id, b, GoverningAttribute(b), 0, 0, 0, false, false, ""};
  return PoolDice(s, tb, nullptr) > PoolDice(s, ta, nullptr) ? b : a;
}

std::string WieldedUntrained(const Combatant& c, const Weapon* used) {
  for (const Weapon& w : c.weapons) {
    if (w.kind == "spell" || !Holds(c, w.name)) continue;
    // l.110 lists "unarmed fighting" as one piece of a style's gear, which
    // most styles (l.104-114) lack: a fighter untrained in it is untrained
    // when fighting unarmed (l.99 "Using a weapon"), not when it wields a
    // trained sword (black-box case: a knight's untrained fist took -2 off
    // its longsword's Strike).
    if (w.kind == "natural" && (used == nullptr || used->name != w.name)) continue;
    if (Trait(w, "untrained")) return w.name;
  }
  return "";
}

const Weapon* UnarmedWeapon(const Combatant& c) {
  const Weapon* natural = nullptr;
  for (const Weapon& w : c.weapons) {
    // Anything held to fight with in melee (a sword, a javelin, a shield):
    // the Parry is not bare-handed.
    if ((w.kind == "melee" || w.kind == "thrown" || w.kind == "shield") && Holds(c, w.name)) return nullptr;
    // Several natural weapons (a trained bite, an untrained fist): the
    // defender parries with a trained one (l.53 names no weapon and l.55
    // leaves the manner of defense to the defender; l.99 "Using a weapon
    // with which you are untrained" costs -2, so the defender's best is a
    // trained one); all untrained: the first listed.
    if (w.kind != "natural") continue;
    if (natural == nullptr || (Trait(*natural, "untrained") && !Trait(w, "untrained"))) natural = &w;
  }
  return natural;
}

absl::Status NoSuchWeapon(const std::string& verb, const Combatant& c, const std::string& weapon) {
  std::string has;
  bool natural = false;
  for (const Weapon& w : c.weapons) {
    if (w.kind == "spell" || w.kind == "shield") continue;
    absl::StrAppend(&has, has.empty() ? "" : ", ", w.name);
    natural = natural || w.kind == "natural";
  }
  std::string msg = absl::StrCat("command '", verb, "': field 'weapon': ", c.id, " has no weapon '", weapon,
                                 "' (its weapons: ", has.empty() ? "none" : has, ")");
  if (!natural) {
    // l.93 "Unarmed fighting is included in this as well", but the text
    // gives an unarmed blow no damage (GM ruling point, README row 31, 44).
    absl::StrAppend(&msg, "; to strike unarmed (l.93) add a natural weapon to ", c.id,
                    "'s roster weapons, e.g. {\"name\": \"fist\", \"kind\": \"natural\", "
                    "\"damage\": \"1d2\", \"damage_type\": \"crushing\"}: the text gives unarmed "
                    "fighting no damage, the GM rules it");
  }
  return absl::NotFoundError(msg);
}

// Reach in metres (reading; the text gives none): the weapon's number
// "reach" when given, else its `reach` field when set to other than the
// schema's default 5 (meant as 5 ft), else 1 m (the adjacent squares).
int64_t ReachOf(const Weapon& w) {
  auto it = w.numbers.find("reach");
  if (it != w.numbers.end()) return it->second;
  if (w.reach != 5 && w.reach > 0) return w.reach;
  return 1;
}

bool IsMelee(const Weapon& w) {
  return w.kind == "melee" || w.kind == "natural" || w.kind == "shield" ||
         (w.kind == "spell" && Trait(w, "melee_attack"));
}
bool IsRanged(const Weapon& w) { return w.kind == "ranged" || w.kind == "thrown"; }
bool IsSpell(const Weapon& w) { return w.kind == "spell"; }

bool Conscious(const Combatant& c) {
  return !c.Has(kUnconscious) && c.Resource(kHealth, 1) > 0;
}

bool Surprised(const State& s, const Combatant& c) {
  return s.round == 1 && c.Has(kSurprised);
}

const Weapon* MeleeReaching(const State& s, const Combatant& c,
                            const Combatant& target) {
  (void)s;
  for (const Weapon& w : c.weapons) {
    if (w.kind == "spell" || w.kind == "shield" || !IsMelee(w)) continue;
    if (!Holds(c, w.name)) continue;
    if (Distance(c, target) <= ReachOf(w)) return &w;
  }
  return nullptr;
}

int CoverOf(const State& s, const Combatant& from, const Combatant& target,
            std::string* why) {
  // The GM's ruling overrules the map: a condition "Cover" on the target
  // (gm_condition, level 0 none, 1 low, 2 high, 3 full). A later ruling
  // overrules an earlier one still in force: the newest instance (highest
  // id; `conditions` is ordered by id) decides.
  for (auto it = target.conditions.rbegin(); it != target.conditions.rend(); ++it) {
    const auto& k = it->second;
    if (k.name != kCover) continue;
    const int cover = k.level < 0 ? 0 : k.level > 3 ? 3 : static_cast<int>(k.level);
    if (why != nullptr) *why = absl::StrCat("cover on ", target.id, " by ", k.source.empty() ? "gm" : k.source);
    return cover;
  }
  // `high_only`: a cover_low square is clear, so the lines obscured are
  // those crossing a cover_high square.
  // l.86 "Standing behind an obstacle can benefit the target": the target
  // stands behind it; an obstacle next to the attacker and not next to the
  // target is the attacker's to shoot over or through (l.88's arrowslit
  // protects the one behind it, not the one it is shot at), so it protects
  // no part of the target's body (l.87-88; black-box case: a cover_high
  // square beside the archer gave a target 6 m away high cover).
  auto sight = [&s, &from, &target](bool high_only) {
    return [&s, &from, &target, high_only](Pos p, std::string* by) {
      const std::string t = s.TerrainAt(p);
      if (t == "wall") {
        *by = absl::StrCat("wall at ", p.x, ",", p.y);
        return space::Sight::kBlocked;
      }
      const bool attackers_own =
          space::DistanceTo(kGrid, from, p) <= 1 && space::DistanceTo(kGrid, target, p) > 1;
      if (attackers_own) return space::Sight::kClear;
      if (t == "cover_high" || (t == "cover_low" && !high_only)) {
        *by = absl::StrCat(t, " at ", p.x, ",", p.y);
        return space::Sight::kObscured;
      }
      return space::Sight::kClear;
    };
  };
  const space::LineCover lc =
      space::CoverLines(from.at, from.size, target.at, target.size, sight(false));
  // l.87-88: on a line the better protection of its obstacles counts. A line
  // crossing a cover_high square ("at least three-quarters", l.88) protects
  // three-quarters wherever on the line it stands, even with a cover_low
  // square nearer the target (black-box case: only the square nearest the
  // target on the first obscured line counted, so a target behind both had
  // low cover).
  const space::LineCover high =
      space::CoverLines(from.at, from.size, target.at, target.size, sight(true));
  // l.87-88 "an obstacle must protect at least half / three-quarters of the
  // character's body": each line stands for an equal part of the body (five
  // points of each of its squares), protected in quarters: a wall all of it
  // (4), a cover_high square three-quarters (3), a cover_low one half (2).
  // The body protected is their mean (black-box case: one line of a 2x2
  // target's twenty crossing a cover_high square gave it high cover).
  const int low_only = lc.obscured - high.obscured;
  const int quarters = 4 * lc.blocked + 3 * high.obscured + 2 * low_only;
  int cover = 0;
  if (lc.lines > 0 && lc.blocked == lc.lines) {
    cover = 3;
  } else if (lc.lines > 0 && quarters >= 3 * lc.lines) {
    cover = 2;
  } else if (lc.lines > 0 && quarters >= 2 * lc.lines) {
    cover = 1;
  }
  if (why != nullptr) {
    // The square that gives it: the obscuring one when its kind decides,
    // else the first wall.
    const bool walls_decide = cover == 2 ? lc.blocked * 4 >= lc.lines * 3 : lc.blocked * 2 >= lc.lines;
    *why = cover == 0                        ? ""
           : walls_decide && lc.blocked > 0  ? lc.blocked_by
           : cover == 2 && high.obscured > 0 ? high.obscured_by
           : lc.obscured > 0                 ? lc.obscured_by
                                             : lc.blocked_by;
    // Neither the walls nor the other obstacles protect enough alone: both
    // give it, and both are named (black-box case: a wall before a 2x2
    // target's upper row and cover_low before its lower gave high cover,
    // -5, "from cover_low at 7,6").
    const int need = cover == 2 ? 3 * lc.lines : 2 * lc.lines;
    if (cover == 1 || cover == 2) {
      if (!walls_decide && lc.blocked > 0 && lc.obscured > 0 && 3 * high.obscured + 2 * low_only < need) {
        absl::StrAppend(why, " and ", lc.blocked_by);
      }
    }
  }
  return cover;
}

// l.91 "have a foe in their reach": a character's reach, not only a held
// weapon's. l.93 "Unarmed fighting is included in this as well": every
// character fights unarmed, so a foe adjacent (1 m, the unarmed reach) is in
// reach with no weapon in hand (black-box case: a disarmed ally beside the
// foe did not flank); else a held melee weapon reaching it, or a spell with
// the Melee Attack trait reaching it (l.91 counts Sorcery tests "made to make
// a melee attack"; black-box case: a caster whose one melee attack is such a
// spell, 2 m from the foe, did not flank).
static bool FlankReach(const State& s, const Combatant& c, const Combatant& target) {
  if (Distance(c, target) <= 1) return true;  // unarmed, l.93
  for (const Weapon& w : c.weapons) {
    if (IsSpell(w) && IsMelee(w) && Distance(c, target) <= ReachOf(w)) return true;
  }
  return MeleeReaching(s, c, target) != nullptr;
}

std::string Flankers(const State& s, const Combatant& attacker,
                     const Combatant& target) {
  // l.91: "When at least two allied characters have a foe in their reach
  // between them, such that one could draw a straight line and connect all
  // three characters, the foe is flanked" -- a state of the foe: any melee
  // attack on it by their side gains the +2, whether or not the attacker is
  // one of the two. The attacker (making a melee attack: in reach) first,
  // then any other pair, in id order.
  // Those who could flank: the attacker's side, conscious, the foe in
  // melee reach (once each: a roster may be large, the flankers few).
  std::vector<const Combatant*> near;
  for (const auto& [id, c] : s.combatants) {  // id order
    if (id == attacker.id || id == target.id || c.side != attacker.side || !Conscious(c)) continue;
    if (FlankReach(s, c, target)) near.push_back(&c);
  }
  auto line = [&](const Combatant& p, const Combatant& q) {
    return space::CentresLineThrough(p.at, p.size, q.at, q.size, target.at, target.size);
  };
  for (const Combatant* ally : near) {
    if (line(attacker, *ally)) return attacker.id + " and " + ally->id;
  }
  for (size_t i = 0; i < near.size(); ++i) {
    for (size_t j = i + 1; j < near.size(); ++j) {
      if (line(*near[i], *near[j])) return near[i]->id + " and " + near[j]->id;
    }
  }
  return "";
}

}  // namespace combat::kernel::opposed
