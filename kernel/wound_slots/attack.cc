// Attacks (l.67-97, l.183-194): the attack roll vs the right Defense, the
// modifier table, flanking, penetrating attacks, damage into wounds, and
// critical successes and failures moving initiative.
//
// Reading (l.67): "wild rolls" are not defined in this text; a check is
// 1d20 + its bonus, a natural 20 is a critical success and a natural 1 a
// critical failure.
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "events/status_macros.h"
#include "kernel/dice/notation.h"
#include "kernel/wound_slots/internal.h"

namespace combat::kernel::wound_slots {

absl::StatusOr<CheckRoll> RollCheck(Decision& d, const std::string& who,
                                    int64_t bonus, const std::string& purpose,
                                    uint64_t cause) {
  ASSIGN_OR_RETURN(dice::RollResult r, d.Roll("1d20", purpose, who, cause));
  return CheckRoll{r.total + bonus, r.natural()};
}

absl::Status CriticalInitiative(Decision& d, const std::string& attacker,
                                const std::string& target, int natural,
                                uint64_t cause) {
  if (natural == 20) {
    RETURN_IF_ERROR(ChangeInitiative(d, attacker, 2, {cause, "001.attack.crit", {{"d20", 20}}, "critical success"}).status());
    if (!target.empty()) {
      RETURN_IF_ERROR(ChangeInitiative(d, target, -2, {cause, "001.attack.crit", {{"d20", 20}}, "critical success against it"}).status());
    }
  } else if (natural == 1) {
    RETURN_IF_ERROR(ChangeInitiative(d, attacker, -2, {cause, "001.attack.fumble", {{"d20", 1}}, "critical failure"}).status());
  }
  return absl::OkStatus();
}

absl::StatusOr<bool> HoldsOn(Decision& d, const std::string& who, uint64_t cause) {
  // l.278: climbing or swimming, "any time you make an attack roll" (and a
  // combat check, which functions the same, l.70): a Str [Athletics/Climbing|
  // Swimming] check against the hold's TN (the condition's level) first;
  // failing, the attack misses and the creature falls or sinks.
  for (const char* hold : {"Climbing", "Swimming"}) {
    const Combatant a = *d.state().Find(who);
    const Condition* k = a.FindCondition(hold);
    if (k == nullptr) continue;
    if (std::string(hold) == "Swimming" && a.Has("Sunk")) continue;  // already below the surface
    const std::string spec_name = std::string(hold) == "Climbing" ? "climbing" : "swimming";
    Nums kn;  // the check's parts, so its numbers add up to its result
    const int64_t keep_bonus = CheckBonus(a, "str", "athletics", spec_name, &kn);
    ASSIGN_OR_RETURN(CheckRoll keep, RollCheck(d, who, keep_bonus, spec_name + " check", cause));
    if (keep.total < k->level) {
      kn.insert(kn.end(), {{"d20", keep.natural}, {"result", keep.total}, {"tn", k->level}});
      RETURN_IF_ERROR(RecordOutcome(d, who, {cause, "001.swim_climb", kn, "fails to hold on: the attack misses"}));
      RETURN_IF_ERROR(Impose(d, who, std::string(hold) == "Climbing" ? "Fallen" : "Sunk", who, {},
                             {cause, "001.swim_climb", kn}).status());
      if (std::string(hold) == "Climbing") {  // l.278: it fell: no longer climbing
        RETURN_IF_ERROR(RemoveConditionsNamed(d, who, "Climbing", {cause, "001.swim_climb", kn, "fell"}));
      }
      return false;
    }
  }
  return true;
}

namespace {

bool CanThreaten(const State& s, const Combatant& o, const Combatant& t) {
  for (const Weapon& w : o.weapons) {
    if (Dropped(o, w)) continue;  // l.95: "their currently equipped weapons"
    // l.280: a rider is "considered 1 yard farther from creatures on the
    // ground smaller than your mount", for whether it can attack them too.
    // Reach and "within the first range increment" are both the yards
    // between the spaces, as l.230 counts a reach (YardsBetween).
    if (!IsRanged(w) && WithinReach(s, o, t, &w)) return true;
    if (IsRanged(w) && w.range_increment > 0 && YardsBetween(s, o, t) <= w.range_increment) return true;
  }
  return false;
}

bool Ignores(const Combatant& t, const std::string& other) {
  for (const auto& [id, c] : t.conditions) {
    if (c.name == "Ignoring" && c.relative_to == other) return true;
  }
  return false;
}

// "aria sharing space with gob" (l.216).
std::string SharedWith(const Combatant& c) {
  const Condition* k = c.FindCondition("SharingSpace");
  return absl::StrCat(c.id, " sharing space with ", k == nullptr ? "" : k->relative_to);
}

}  // namespace

int64_t SameSpace(const Combatant& c, Nums* nums, const char* key) {
  if (!c.Has("SharingSpace")) return 0;
  if (nums != nullptr) nums->push_back({key, -2, SharedWith(c), "001.act.enter"});
  return -2;
}

int64_t MountedBonus(const State& s, const Combatant& rider, const Combatant& other, Nums* nums, const char* key) {
  const Condition* ride = rider.FindCondition("Riding");
  const Combatant* mount = ride == nullptr ? nullptr : s.Find(ride->relative_to);
  if (mount == nullptr || SizeScore(other) >= SizeScore(*mount)) return 0;
  const Condition* or_ = other.FindCondition("Riding");
  const Combatant* omount = or_ == nullptr ? nullptr : s.Find(or_->relative_to);
  if (omount != nullptr && SizeScore(*omount) >= SizeScore(*mount)) return 0;
  if (nums != nullptr) nums->push_back({key, 1, absl::StrCat(rider.id, " riding ", mount->id), "001.mount"});
  return 1;
}

int64_t CheckPenalties(const Combatant& c, Nums* nums) {
  int64_t out = 0;
  if (c.Has("Distracted")) {  // l.244
    if (nums != nullptr) nums->push_back({"distracted", -2, CondSource(c, "Distracted"), "001.hinder.distract"});
    out -= 2;
  }
  return out + SameSpace(c, nums);  // l.216
}

int64_t UnderwaterPenalty(const Combatant& c, Nums* nums) {
  if (!IsUnderwater(c)) return 0;
  if (nums != nullptr) nums->push_back({"underwater", -5, "underwater " + c.id, "001.underwater"});
  return -5;  // l.275
}

bool Flanked(const State& s, const Combatant& t) {
  std::vector<const Combatant*> around;
  for (const auto& [id, o] : s.combatants) {
    // l.97: an ignored creature does not count for flanking the one that
    // ignores it, and "you cannot contribute to flanking an ignored
    // creature": one that ignores t does not count for flanking t.
    // A pinned creature "is unable to take any other actions" (l.235): it
    // is not "capable of attacking the target" (l.95).
    if (id == t.id || o.side == t.side || IsOut(o) || o.Has("Pinned") || Ignores(t, id) || Ignores(o, t.id)) continue;
    if (CanThreaten(s, o, t)) around.push_back(&o);
  }
  for (size_t i = 0; i < around.size(); ++i) {
    for (size_t j = i + 1; j < around.size(); ++j) {
      // l.95 "from the center of the target's space": a rider's space is its
      // mount's (l.220, SpaceOf).
      const Space x = SpaceOf(s, *around[i]), y = SpaceOf(s, *around[j]), z = SpaceOf(s, t);
      if (space::AtLeast120Apart(x.at, x.size, y.at, y.size, z.at, z.size)) {
        return true;  // l.95
      }
    }
  }
  return false;
}

namespace {

// "flanked by gob, orc" / "" : the hostile creatures whose places flank `t`.
std::string Flankers(const State& s, const Combatant& t) {
  std::vector<std::string> who;
  for (const auto& [id, o] : s.combatants) {
    if (id == t.id || o.side == t.side || IsOut(o) || o.Has("Pinned") || Ignores(t, id) || Ignores(o, t.id)) continue;
    if (CanThreaten(s, o, t)) who.push_back(id);
  }
  return "flanked by " + absl::StrJoin(who, ", ");
}

}  // namespace

int64_t AttackModifiers(const State& s, const Combatant& a, const Combatant& t,
                        bool ranged, int64_t cover, Nums* nums) {
  int64_t posture = 0;
  if (t.Has("Prone")) posture = ranged ? -3 : 3;          // l.86
  else if (t.Has("Crouching")) posture = ranged ? -2 : 2;  // l.87
  static const int64_t kCoverMelee[] = {0, 0, -2, -3, -5};
  static const int64_t kCoverRanged[] = {0, -1, -2, -3, -5};  // l.89-92
  static const char* kCoverName[] = {"", "1/4", "1/2", "3/4", "9/10"};
  cover = std::clamp<int64_t>(cover, 0, 4);
  const int64_t cov = ranged ? kCoverRanged[cover] : kCoverMelee[cover];
  // l.93: cover and posture penalties do not stack: only the higher one.
  int64_t total = 0;
  const int64_t penalty = std::min<int64_t>({0, posture, cov});
  total += penalty + std::max<int64_t>(0, posture);
  int64_t flank = 0;
  if (Ignores(t, a.id)) flank = 4;           // l.97: rear attack, double bonus
  else if (Flanked(s, t)) flank = 2;         // l.88, l.95
  total += flank;
  if (nums != nullptr) {
    if (posture != 0) {
      nums->push_back({"posture", posture, CondSource(t, t.Has("Prone") ? "Prone" : "Crouching"), kModPosture});
    }
    // The cover is the declarer's (params.cover), between the attacker and
    // the target.
    if (cover != 0) nums->push_back({"cover", cov, absl::StrCat(kCoverName[cover], " cover of ", t.id), kModCover});
    if (posture < 0 && cov < 0) nums->push_back({"penalty_applied", penalty, "", "001.attack.modifiers"});
    if (flank == 4) nums->push_back({"rear_attack", flank, "ignored by " + t.id, "001.attack.rear"});
    if (flank == 2) nums->push_back({"flanked", flank, Flankers(s, t), "001.attack.flanking"});
  }
  return total;
}

int64_t MountedGap(const State& s, const Combatant& a, const Combatant& b) {
  // l.280: a rider is 1 yard farther from creatures on the ground smaller
  // than its mount.
  auto mount_of = [&](const Combatant& c) -> const Combatant* {
    const Condition* k = c.FindCondition("Riding");
    return k == nullptr ? nullptr : s.Find(k->relative_to);
  };
  const Combatant* ma = mount_of(a);
  const Combatant* mb = mount_of(b);
  if (ma != nullptr && mb == nullptr && SizeScore(b) < SizeScore(*ma)) return 1;
  if (mb != nullptr && ma == nullptr && SizeScore(a) < SizeScore(*mb)) return 1;
  return 0;
}

absl::Status CheckAttack(const State& s, const Combatant& a, const fb::CommandT& c) {
  ASSIGN_OR_RETURN(const Combatant* t, Target(s, c));
  if (t->id == a.id) return Malformed(c, "targets[0]", "an attack targets another creature");
  if (IsDead(*t)) return Refuse("001.attack.hit", t->id + " is dead");
  if (!c.weapon.empty() && a.FindWeapon(c.weapon) == nullptr) {
    return absl::NotFoundError(absl::StrCat("command '", c.action, "': field 'weapon': ", a.id, " has no weapon '", c.weapon, "'"));
  }
  const Weapon* w = WeaponOf(a, c);
  if (w == nullptr) return Malformed(c, "weapon", a.id + " has no weapon");
  if (Dropped(a, *w)) {
    return Refuse("001.act.hinder", absl::StrCat(a.id, " dropped its ", w->name, " (disarmed, l.243): pick it up first (use_object)"));
  }
  if (HasParam(c, "cover") && (ParamOr(c, "cover", 0) < 0 || ParamOr(c, "cover", 0) > 4)) {
    return Malformed(c, "params.cover", "0 none, 1 quarter, 2 half, 3 three-quarters, 4 nine-tenths");
  }
  if (IsRanged(*w)) {
    if (IsUnderwater(a)) return Refuse("001.underwater", "no ranged weapon attacks underwater");
  } else if (!HasParam(c, "_interposed") && !HasParam(c, "_jump") && c.action != "create_opening" &&
             c.action != "rebuff" && !WithinReach(s, a, *t, w)) {
    // l.230: a reach counts the yards between the spaces, adjacent 0.
    // Rebuff strikes "before it moves" (l.190) from wherever the step its
    // trigger found (l.189, acts.cc CheckTrigger) sets out, however far: a
    // diagonal step can come 2 yd nearer (l.161). Create an Opening is made
    // "to allow you to close the distance" (l.214) and, unlike the attacks
    // ("a target within range", l.185-194), names no range: it is rolled
    // from outside the reach, before the approach.
    const int64_t yards = YardsBetween(s, a, *t) - MountedGap(s, a, *t);
    if (const int64_t gap = MountedGap(s, a, *t); gap > 0) {  // l.280: the yard the mount adds
      return Refuse("001.mount", absl::StrCat(t->id, " is ", yards, " yd away (between the spaces) and 1 yd farther for a rider on a larger mount; ",
                                              w->name, " reaches ", Reach(w)));
    }
    return Refuse("001.attack.hit", absl::StrCat(t->id, " is ", yards, " yd away (between the spaces); ", w->name, " reaches ", Reach(w)));
  }
  return absl::OkStatus();
}

absl::Status CheckMeleeAttack(const State& s, const Combatant& a, const fb::CommandT& c) {
  RETURN_IF_ERROR(CheckAttack(s, a, c));
  if (const std::string k = ParamText(c, "knockout"); !k.empty() && k != "unconscious" && k != "helpless") {
    return Malformed(c, "params.knockout", "unconscious (no dying) or helpless (2 rounds)");
  }
  const Weapon* w = WeaponOf(a, c);
  if (IsRanged(*w)) {
    // Each verb's own line: "a single melee attack" (l.185, l.187, l.194),
    // "your weapon" against an approach (l.190), "a melee attack roll" (l.214).
    const Verb* v = FindVerb(c.action);
    return Refuse(v != nullptr ? v->row.rule : "001.act.quick", "this is a melee attack: " + w->name + " is a ranged weapon");
  }
  return absl::OkStatus();
}

absl::StatusOr<AttackResult> Attack(Decision& d, const fb::CommandT& c,
                                    uint64_t cause, const AttackSpec& spec) {
  const Combatant a = *d.state().Find(c.actor);
  const Combatant t = *d.state().Find(c.targets[0]);
  const Weapon w = *WeaponOf(a, c);
  const bool ranged = IsRanged(w);
  const bool underwater = IsUnderwater(a);
  Nums nums;
  int64_t bonus = CheckBonus(a, "dex", ranged ? "aim" : "melee", w.category, &nums);  // l.71-72
  const int64_t accuracy = Num(w, "accuracy");
  nums.push_back({"accuracy", accuracy, absl::StrCat(w.name, " of ", a.id), "001.attack.skills"});
  bonus += accuracy;
  bonus += AttackModifiers(d.state(), a, t, ranged, ParamOr(c, "cover", 0), &nums);
  if (spec.bonus != 0) { nums.push_back({"action", spec.bonus, "", spec.rule}); bonus += spec.bonus; }
  if (ranged && a.Has("Harried")) { nums.push_back({"harried", -2, CondSource(a, "Harried"), "001.act.harry"}); bonus -= 2; }  // l.202
  bonus += CheckPenalties(a, &nums);  // l.244, l.216
  if (!ranged) bonus += UnderwaterPenalty(a, &nums);  // l.275
  if (!ranged) bonus += MountedBonus(d.state(), a, t, &nums);  // l.280
  const Def def = ranged ? Def::kRanged : Def::kMelee;
  int64_t defense = Defense(t, def, &nums);
  if (t.Has("Defending")) {
    // l.199: the better of +2 and replacing it with a skill defense (a
    // program can choose: the highest).
    int64_t best = defense + 2;
    for (Def k : {Def::kPower, Def::kAgility, Def::kFortitude, Def::kWillpower}) {
      best = std::max(best, Defense(t, k, nullptr));
    }
    nums.push_back({"defend", best - defense, CondSource(t, "Defending"), "001.act.defend"});
    defense = best;
  }
  // l.216 "-2 penalty to ... melee and ranged defenses": also to the
  // immobile defense that replaces them (l.99), as Defend's +2 above and the
  // rider's +1 below, given in the same words.
  if (t.Has("SharingSpace")) { nums.push_back({"target_same_space", -2, SharedWith(t), "001.act.enter"}); defense -= 2; }
  if (!ranged) defense += MountedBonus(d.state(), t, a, &nums, "mounted_defense");  // l.280
  if (spec.rebuff) {  // l.214: an opening's roll replaces the Defense against this rebuff
    for (const auto& [id, k] : t.conditions) {
      if (k.name == "Opening" && k.relative_to == a.id && k.level > defense) {
        // Recorded as the change it makes, like defend's (l.199): the roll
        // k.level replaces the Defense.
        nums.push_back({"opening", k.level - defense,
                        absl::StrCat("opening on ", t.id, " by ", a.id, ": its roll ", k.level, " replaces Defense ", defense),
                        "001.act.opening"});
        defense = k.level;
      }
    }
  }
  auto damage_roll = [&]() -> absl::StatusOr<int64_t> {
    int64_t dmg = a.Stat("str");
    nums.push_back({"str", dmg});
    if (!spec.no_damage) {
      ASSIGN_OR_RETURN(dice::RollResult r, d.Roll(w.damage.empty() ? "0" : w.damage, "weapon damage", a.id, cause));
      int64_t wd = r.total;
      if (underwater && !ranged && Num(w, "aquatic") == 0) wd = FloorDiv(wd, 2);  // l.275, halved rounded down (reading)
      // The roll, then what halving takes off: the numbers add up (l.275).
      nums.push_back({"weapon_damage", r.total});
      if (wd != r.total) nums.push_back({"underwater_halved", wd - r.total, "underwater " + a.id, "001.underwater"});
      // l.276 "All fire damage is halved underwater": a weapon whose
      // damage type is fire, the attacker or its target in the water
      // (aquatic or not: the fire is halved, not the fighter), its damage
      // halved again after l.275's, rounded down (reading); Str is no fire.
      if (w.damage_type == "fire" && (InWater(a) || InWater(t))) {
        const int64_t fire = FloorDiv(wd, 2);
        nums.push_back({"fire_halved", fire - wd, "fire of " + w.name + " underwater (" + (InWater(t) ? t.id : a.id) + ")",
                        "001.underwater.fire"});
        wd = fire;
      }
      dmg += wd;
    }
    return dmg;
  };
  // l.194 "On a hit, you deal an additional 1d6 damage": rolled on a hit
  // only, after it, also with a penetrating weapon (l.79 adds the attack's
  // damage, Str + weapon, before the hit; the d6 is the hit's).
  auto strong_d6 = [&]() -> absl::StatusOr<int64_t> {
    if (!spec.extra_d6) return 0;
    ASSIGN_OR_RETURN(dice::RollResult r, d.Roll("1d6", "strong attack", a.id, cause));
    nums.push_back({"strong_d6", r.total, "", "001.act.strong"});
    return r.total;
  };
  const bool penetrating = Num(w, "penetrating") != 0 && !spec.no_damage;
  int64_t pre_damage = 0;
  if (penetrating) {  // l.79: damage added before determining a hit
    ASSIGN_OR_RETURN(pre_damage, damage_roll());
    nums.push_back({"penetrating", pre_damage, absl::StrCat(w.name, " of ", a.id), "001.attack.penetrating"});
  }
  // l.278: climbing or swimming, the hold comes first.
  ASSIGN_OR_RETURN(const bool holds, HoldsOn(d, a.id, cause));
  if (!holds) return AttackResult{false, 0, 0, defense};
  ASSIGN_OR_RETURN(CheckRoll roll, RollCheck(d, a.id, bonus + pre_damage, "attack roll", cause));
  nums.push_back({"d20", roll.natural});
  nums.push_back({"attack_roll", roll.total});
  AttackResult out{roll.total >= defense, roll.natural, roll.total, defense};  // l.69
  if (!out.hit) {
    RETURN_IF_ERROR(RecordOutcome(d, a.id, {cause, "001.attack.hit", nums, absl::StrCat("miss: ", roll.total, " < ", defense)}));
  } else if (spec.no_damage) {
    RETURN_IF_ERROR(RecordOutcome(d, a.id, {cause, "001.attack.check", nums, absl::StrCat("hit: ", roll.total, " >= ", defense)}));
  } else {
    int64_t dmg_value = roll.total;
    if (!penetrating) {
      ASSIGN_OR_RETURN(int64_t dmg, damage_roll());
      dmg_value += dmg;
    }
    ASSIGN_OR_RETURN(const int64_t d6, strong_d6());
    dmg_value += d6;
    const int64_t toughness = Toughness(t, Num(w, "armor_piercing") != 0 && !spec.nonlethal, &nums);
    const int64_t final_damage = dmg_value - defense - toughness;  // l.14
    nums.push_back({"damage", final_damage});
    int level = WoundLevel(final_damage);
    nums.push_back({"threshold_level", level});
    if (level > kNone && spec.step != 0) {
      nums.push_back({"wound_step", spec.step, "", spec.rule});
      level = std::clamp(level + spec.step, 0, static_cast<int>(kFatal));
    }
    if (spec.nonlethal && HasParam(c, "level")) {
      level = std::min<int>(level, static_cast<int>(std::clamp<int64_t>(ParamOr(c, "level", level), 0, 5)));
    }
    nums.push_back({"wound_level", level});
    RETURN_IF_ERROR(RecordOutcome(d, a.id, {cause, "001.wound.damage", nums,
                                            absl::StrCat("hit: ", final_damage, " damage: ", LevelName(level), " wound")}));
    if (level > kNone) {
      RETURN_IF_ERROR(Wound(d, t.id, level, {cause, "001.wound.threshold", {{"damage", final_damage}, {"level", level}}}).status());
    }
  }
  RETURN_IF_ERROR(CriticalInitiative(d, a.id, t.id, roll.natural, cause));
  return out;
}

absl::Status ResolveStandard(Decision& d, const fb::CommandT& c, uint64_t cause) {
  return Attack(d, c, cause, {}).status();
}
absl::Status ResolveQuick(Decision& d, const fb::CommandT& c, uint64_t cause) {
  AttackSpec s;
  s.step = -1;  // l.187
  s.rule = "001.act.quick";
  return Attack(d, c, cause, s).status();
}
absl::Status ResolveStrong(Decision& d, const fb::CommandT& c, uint64_t cause) {
  AttackSpec s;
  s.extra_d6 = true;  // l.194
  return Attack(d, c, cause, s).status();
}
absl::Status ResolveNonlethal(Decision& d, const fb::CommandT& c, uint64_t cause) {
  AttackSpec s;
  s.bonus = -2;  // l.185
  s.rule = "001.act.nonlethal";
  s.nonlethal = true;
  const std::string target = c.targets[0];
  const int64_t before = HighestWound(*d.state().Find(target));
  int64_t total_before = 0;
  for (int l = kLight; l <= kFatal; ++l) total_before += d.state().Find(target)->Resource(WoundsKey(l));
  ASSIGN_OR_RETURN(AttackResult r, Attack(d, c, cause, s));
  const std::string k = ParamText(c, "knockout");
  if (!r.hit || k.empty()) return absl::OkStatus();
  const Combatant* t = d.state().Find(target);
  int64_t total = 0;
  for (int l = kLight; l <= kFatal; ++l) total += t->Resource(WoundsKey(l));
  if (total == total_before || HighestWound(*t) == kFatal || IsDead(*t)) return absl::OkStatus();
  // l.185: whether the target "would fall unconscious" is the wounded
  // condition's (not in this text): the attacker's `knockout` says so.
  const Why why{cause, "001.act.nonlethal", {{"severity_before", before}}, k};
  if (k == "unconscious") return Impose(d, target, "Unconscious", c.actor, {}, why).status();
  return Impose(d, target, "Helpless", c.actor, ForRounds(d.state(), 2), why).status();  // for 2 rounds
}
absl::Status ResolveRebuff(Decision& d, const fb::CommandT& c, uint64_t cause) {
  AttackSpec s;
  s.step = 1;  // l.190
  s.rule = "001.act.rebuff";
  s.rebuff = true;
  return Attack(d, c, cause, s).status();
}

}  // namespace combat::kernel::wound_slots
