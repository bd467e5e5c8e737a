// The other actions and reactions (l.195-269): Defend, Harry, Seize
// Initiative, Change Posture, Retrieve/Stow, Use an Object, Hinder, Treat
// Wound, Stabilize. AP costs: acts.cc and the README's readings.
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/wound_slots/internal.h"

namespace combat::kernel::wound_slots {
namespace {

bool OneOf(const std::string& v, std::initializer_list<const char*> options) {
  for (const char* o : options) {
    if (v == o) return true;
  }
  return false;
}

const Weapon* MeleeWeapon(const Combatant& c) {
  for (const Weapon& w : c.weapons) {
    if (!IsRanged(w) && !Dropped(c, w)) return &w;
  }
  return nullptr;
}


}  // namespace

absl::Status CheckNothing(const State&, const Combatant&, const fb::CommandT&) {
  return absl::OkStatus();
}

absl::Status ResolveDefend(Decision& d, const fb::CommandT& c, uint64_t cause) {
  // l.199: until your next turn or a wound (wounds.cc ends it); reading: the
  // +2 to melee and ranged defenses.
  return Impose(d, c.actor, "Defending", c.actor, UntilTurnStart(d.state(), c.actor),
                {cause, "001.act.defend", {{"defense_bonus", 2}}})
      .status();
}

absl::Status CheckSeize(const State&, const Combatant&, const fb::CommandT&) {
  return absl::OkStatus();
}

absl::Status ResolveSeize(Decision& d, const fb::CommandT& c, uint64_t cause) {
  ASSIGN_OR_RETURN(dice::RollResult r, d.Roll("1d6", "seize initiative", c.actor, cause));
  return ChangeInitiative(d, c.actor, r.total, {cause, "001.act.seize", {{"d6", r.total}}, "Seize Initiative"}).status();
}

absl::Status CheckPosture(const State&, const Combatant& a, const fb::CommandT& c) {
  const std::string to = ParamText(c, "to");
  if (!OneOf(to, {"standing", "crouching", "prone"})) {
    return Malformed(c, "params.to", "standing, crouching or prone");
  }
  const std::string now = a.Has("Prone") ? "prone" : a.Has("Crouching") ? "crouching" : "standing";
  if (to == now) return Refuse("001.act.posture", a.id + " is already " + now);
  if (now == "prone" && to == "standing") {
    return Refuse("001.act.posture", "from prone you cannot change directly to standing (crouch first)");
  }
  return absl::OkStatus();
}

absl::Status ResolvePosture(Decision& d, const fb::CommandT& c, uint64_t cause) {
  const std::string to = ParamText(c, "to");
  const Why why{cause, "001.act.posture", {}, "now " + to};
  RETURN_IF_ERROR(RemoveConditionsNamed(d, c.actor, "Prone", why));
  RETURN_IF_ERROR(RemoveConditionsNamed(d, c.actor, "Crouching", why));
  if (to == "prone") return Impose(d, c.actor, "Prone", c.actor, {}, why).status();
  if (to == "crouching") return Impose(d, c.actor, "Crouching", c.actor, {}, why).status();
  return absl::OkStatus();
}

absl::Status CheckRetrieve(const State&, const Combatant&, const fb::CommandT& c) {
  const std::string k = ParamText(c, "container");
  if (!k.empty() && !OneOf(k, {"scabbard", "pocket", "pouch", "concealed", "sack", "backpack"})) {
    return Malformed(c, "params.container", "scabbard, pocket (1), pouch, concealed (3), sack, backpack (6)");
  }
  return absl::OkStatus();
}

absl::Status ResolveRetrieve(Decision& d, const fb::CommandT& c, uint64_t cause) {
  const std::string k = ParamText(c, "container");
  return RecordOutcome(d, c.actor, {cause, "001.act.retrieve", {},
                                    absl::StrCat(c.action == "stow" ? "stows " : "retrieves ",
                                                 ParamText(c, "item").empty() ? "an item" : ParamText(c, "item"),
                                                 k.empty() ? "" : " (" + k + ")")});
}

absl::Status CheckUseObject(const State&, const Combatant&, const fb::CommandT& c) {
  const std::string k = ParamText(c, "object");
  if (HasParam(c, "ap")) {
    if (ParamOr(c, "ap", 0) < 1) return Malformed(c, "params.ap", "the item's AP cost, at least 1 (l.112)");
    return absl::OkStatus();
  }
  if (!OneOf(k, {"door", "torch", "potion", "bell", "fire"})) {
    return Malformed(c, "params.object", "door, torch (2), potion (4), bell (6), fire (8), or params.ap for another object");
  }
  return absl::OkStatus();
}

absl::Status ResolveUseObject(Decision& d, const fb::CommandT& c, uint64_t cause) {
  // l.264 "an object ... within reach": a weapon it dropped (Disarm, l.243)
  // is picked up, in hand again.
  const std::string object = ParamText(c, "object");
  for (const auto& [cid, k] : d.state().Find(c.actor)->conditions) {
    if (k.name == "Disarmed" && k.note == object) {
      return RemoveCondition(d, c.actor, cid, {cause, "001.act.use_object", {}, "picks up " + object});
    }
  }
  return RecordOutcome(d, c.actor, {cause, "001.act.use_object", {}, "uses " + object});
}

absl::Status CheckHarry(const State& s, const Combatant& a, const fb::CommandT& c) {
  ASSIGN_OR_RETURN(const Combatant* t, Target(s, c));
  const Weapon* w = MeleeWeapon(a);
  if (w == nullptr || !WithinReach(s, a, *t, w)) {  // l.280: a rider's extra yard
    return Refuse("001.act.harry", t->id + " is not within reach of a melee weapon of " + a.id);
  }
  for (const auto& [id, cond] : t->conditions) {
    if (cond.name == "Harried" && cond.source == a.id) {
      return Refuse("001.act.harry", "once per round per target");
    }
  }
  return absl::OkStatus();
}

absl::Status ResolveHarry(Decision& d, const fb::CommandT& c, uint64_t cause) {
  return Impose(d, c.targets[0], "Harried", c.actor, ForRounds(d.state(), 1),
                {cause, "001.act.harry", {{"ranged_penalty", -2}}, "-2 to ranged weapon attacks and checks this round"})
      .status();
}

absl::Status CheckHinder(const State& s, const Combatant& a, const fb::CommandT& c) {
  ASSIGN_OR_RETURN(const Combatant* t, Target(s, c));
  if (t->id == a.id) return Malformed(c, "targets[0]", "another creature (l.240: your opponent)");
  const std::string h = ParamText(c, "hindrance");
  if (!OneOf(h, {"disarm", "distract", "shove", "trip"})) {
    return Malformed(c, "params.hindrance", "disarm, distract, shove or trip");
  }
  const Weapon* w = MeleeWeapon(a);
  // l.280: a rider is "considered 1 yard farther from creatures on the
  // ground smaller than your mount" (attack.cc MountedGap).
  if (!WithinReach(s, a, *t, w)) {
    return Refuse("001.act.hinder", absl::StrCat("you must be within melee reach of ", t->id, " (", YardsBetween(s, a, *t),
                                                 " yd between the spaces", MountedGap(s, a, *t) > 0 ? ", 1 yd farther for a rider on a larger mount" : "",
                                                 "; reach ", Reach(w), ")"));
  }
  const std::string def = ParamText(c, "defense");
  if (!def.empty() && !(h == "disarm" && (def == "check" || def == "agility")) &&
      !((h == "shove" || h == "trip") && (def == "power" || def == "agility"))) {
    return Malformed(c, "params.defense", "disarm: check or agility; shove, trip: power or agility; distract: none (l.243-246)");
  }
  if (h == "shove") {
    const int64_t dx = ParamOr(c, "dx", 0), dy = ParamOr(c, "dy", 0);
    if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx == 0 && dy == 0)) {
      return Malformed(c, "params.dx", "shove direction dx, dy in -1..1, not both 0");
    }
  }
  return absl::OkStatus();
}

absl::Status ResolveHinder(Decision& d, const fb::CommandT& c, uint64_t cause) {
  const Combatant a = *d.state().Find(c.actor);
  const Combatant t = *d.state().Find(c.targets[0]);
  const std::string h = ParamText(c, "hindrance");
  Nums nums;
  int64_t bonus = 0, tn = 0;
  // The defender's column (l.243-246): a check is rolled (an opposed
  // check, l.67: "defense rolls"; the hinderer wins ties, as an attack roll
  // that "equals or exceeds", l.69); a defense is its value (l.103-104).
  const std::string def = ParamText(c, "defense");
  if (h != "distract") {  // Disarm's melee weapon check, Shove's and Trip's Power check (l.71, l.74)
    ASSIGN_OR_RETURN(const bool holds, HoldsOn(d, a.id, cause));  // l.278, l.70
    if (!holds) return absl::OkStatus();
  }
  int64_t opposed_bonus = 0;
  bool opposed = false;
  if (h == "disarm") {  // l.243
    const Weapon* w = MeleeWeapon(a);
    bonus = CheckBonus(a, "dex", "melee", w ? w->category : "", &nums) + (w ? Num(*w, "accuracy") : 0);
    if (w != nullptr) nums.push_back({"accuracy", Num(*w, "accuracy"), absl::StrCat(w->name, " of ", a.id), "001.attack.skills"});
    if (def == "check") {  // the defender's melee weapon check
      const Weapon* tw = MeleeWeapon(t);
      opposed = true;
      opposed_bonus = CheckBonus(t, "dex", "melee", tw ? tw->category : "", nullptr) + (tw ? Num(*tw, "accuracy") : 0);
    } else {
      tn = Defense(t, Def::kAgility, nullptr);
    }
  } else if (h == "distract") {  // l.244: Prs [Deception] vs Prc [Deception]
    bonus = CheckBonus(a, "prs", "deception", "", &nums);
    opposed = true;
    opposed_bonus = CheckBonus(t, "prc", "deception", "", nullptr);
  } else {  // shove, trip: Power vs Power or Agility defense (l.245-246)
    bonus = CheckBonus(a, "str", "athletics", "power", &nums) + SizeScore(a);
    const int64_t pw = Defense(t, Def::kPower, nullptr), ag = Defense(t, Def::kAgility, nullptr);
    tn = def == "power" ? pw : def == "agility" ? ag : std::max(pw, ag);  // reading: the defender's better one
  }
  // l.244 "-2 penalty to attack" and l.216 "-2 penalty to all attacks", on
  // a combat check (l.70): Disarm's melee weapon check, Shove's and Trip's
  // Power check (not Distract's Prs [Deception], not one of l.71-77).
  if (h != "distract") bonus += CheckPenalties(a, &nums);
  // l.84-97 "Modifiers to Attack" (posture, flanking, a rear attack), on a
  // combat check against the target as on an attack roll (l.70), the melee
  // column (within melee reach, l.240); not Distract's Prs [Deception].
  if (h != "distract") bonus += AttackModifiers(d.state(), a, t, false, 0, &nums);
  if (opposed && h == "disarm") opposed_bonus += SameSpace(t, &nums, "target_same_space");  // its melee weapon check
  if (h == "disarm") {  // l.280 "+1 bonus to ... melee attack rolls", l.275 "-5 penalty to your attack roll", on a melee weapon check (l.70)
    bonus += UnderwaterPenalty(a, &nums);
    bonus += MountedBonus(d.state(), a, t, &nums);
    if (opposed) opposed_bonus += MountedBonus(d.state(), t, a, &nums, "target_mounted");
  }
  ASSIGN_OR_RETURN(CheckRoll r, RollCheck(d, a.id, bonus, "hinder " + h, cause));
  nums.push_back({"d20", r.natural});
  nums.push_back({"result", r.total});
  if (opposed) {
    if (t.Has("Distracted")) {  // l.244: -2 to defense
      opposed_bonus -= 2;
      nums.push_back({"defender_distracted", -2, CondSource(t, "Distracted"), "001.hinder.distract"});
    }
    ASSIGN_OR_RETURN(CheckRoll o, RollCheck(d, t.id, opposed_bonus, "opposes " + h, cause));
    nums.push_back({"defender_d20", o.natural});
    tn = o.total;
  }
  nums.push_back({"tn", tn});
  if (r.total < tn) {
    RETURN_IF_ERROR(RecordOutcome(d, a.id, {cause, "001.act.hinder", nums, h + " fails"}));
    return CriticalInitiative(d, a.id, t.id, r.natural, cause);
  }
  const Why why{cause, "001.act.hinder", nums, h + " succeeds"};
  if (h == "disarm") {
    // l.243: "The target drops one item it is holding": the melee weapon its
    // check uses (else its first weapon in hand), named in the note.
    const Weapon* item = MeleeWeapon(t);
    if (item == nullptr) item = WeaponOf(t, fb::CommandT{});
    if (item == nullptr || Dropped(t, *item)) {
      RETURN_IF_ERROR(RecordOutcome(d, a.id, {cause, "001.act.hinder", nums, h + " succeeds: nothing left in hand"}));
    } else {
      NewCondition nc;
      nc.actor = t.id;
      nc.name = "Disarmed";
      nc.source = a.id;
      nc.note = item->name;
      RETURN_IF_ERROR(AddCondition(d, nc, {cause, "001.act.hinder", nums, h + " succeeds: drops " + item->name}).status());
    }
  } else if (h == "distract") {
    RETURN_IF_ERROR(Impose(d, t.id, "Distracted", a.id, ForRounds(d.state(), 1), why).status());
  } else if (h == "trip") {
    RETURN_IF_ERROR(RemoveConditionsNamed(d, t.id, "Crouching", why));
    if (!d.state().Find(t.id)->Has("Prone")) RETURN_IF_ERROR(Impose(d, t.id, "Prone", a.id, {}, why).status());
  } else {
    const int64_t most = 1 + FloorDiv(r.total - tn, 3);  // l.245: 1 yd + a third of the margin, rounded down
    const int64_t yards = std::clamp<int64_t>(ParamOr(c, "yards", most), 1, most);
    std::vector<Pos> path;
    Pos p = t.at;
    const int dx = static_cast<int>(ParamOr(c, "dx", 0)), dy = static_cast<int>(ParamOr(c, "dy", 0));
    // The yards on the grid (l.161): every second diagonal step counts 2
    // yards (a movement of its own: the count starts at the shove).
    space::PathWalker walk(kGrid, t.at);
    for (;;) {
      Pos next{p.x + dx, p.y + dy};
      const std::string terrain = d.state().TerrainAt(next);
      if (terrain == "wall" || terrain == "offmap" || d.state().OccupantAt(next, t.id) != nullptr) break;
      space::PathWalker after = walk;
      after.Step(next);
      if (after.cost() > yards) break;
      walk = after;
      path.push_back(next);
      p = next;
    }
    Nums mn = nums;
    mn.push_back({"yards", walk.cost()});
    if (!path.empty()) {
      RETURN_IF_ERROR(Move(d, t.id, path, walk.cost(), true, {cause, "001.act.hinder", mn, "shoved"}));
      // l.220: a rider occupies its mount's space: a shoved mount carries
      // it (l.280); a shoved rider is forced out of that space, off the
      // mount (reading).
      if (const Condition* k = t.FindCondition("Ridden"); k != nullptr) {
        RETURN_IF_ERROR(Move(d, k->relative_to, path, 0, true, {cause, "001.mount", {}, "moves with " + t.id}));
      }
      if (t.Has("Riding")) RETURN_IF_ERROR(EndRiding(d, t.id, {cause, "001.mount", {}, "shoved off the mount"}));
      RETURN_IF_ERROR(EndSharedSpaces(d, cause));
    } else {
      RETURN_IF_ERROR(RecordOutcome(d, a.id, {cause, "001.act.hinder", mn, "shove succeeds but the way is blocked"}));
    }
  }
  return CriticalInitiative(d, a.id, t.id, r.natural, cause);
}

absl::Status CheckTreatWound(const State& s, const Combatant& a, const fb::CommandT& c) {
  const Combatant* t = &a;
  if (!c.targets.empty()) { ASSIGN_OR_RETURN(t, Target(s, c)); }
  if (t->id != a.id && !Adjacent(s, a, *t)) return Refuse("001.act.treat_wound", t->id + " is not adjacent");
  if (t->side != a.side && !IsHelpless(*t)) {
    return Refuse("001.act.treat_wound", t->id + " is neither willing nor helpless");
  }
  const int64_t level = ParamOr(c, "level", 0);
  if (level < kLight || level > kFatal) return Malformed(c, "params.level", "the wound level treated, 1 light .. 5 fatal");
  if (t->Resource(WoundsKey(static_cast<int>(level))) <= 0) {
    return Refuse("001.act.treat_wound", absl::StrCat(t->id, " has no ", LevelName(static_cast<int>(level)), " wound"));
  }
  return absl::OkStatus();
}

absl::Status ResolveTreatWound(Decision& d, const fb::CommandT& c, uint64_t cause) {
  const Combatant a = *d.state().Find(c.actor);
  const std::string tid = c.targets.empty() ? a.id : c.targets[0];
  const Combatant t = *d.state().Find(tid);
  const int level = static_cast<int>(ParamOr(c, "level", 1));
  static const int64_t kTn[] = {0, -3, 0, 3, 6, 9};  // l.254-260
  Nums nums{{"tn", kTn[level]}};
  if (t.Resource(res::kFatigue) >= NormalMaxStamina(t)) {  // l.261
    // No check is made ("Otherwise, ... make a Lor [Healing/Wounds]
    // check"), so l.262's "Whether the check succeeds or fails" adds no
    // fatigue (reading, README).
    return RecordOutcome(d, a.id, {cause, "001.act.treat_wound", {{"fatigue", t.Resource(res::kFatigue)}},
                                   "fails automatically: fatigue at or above normal max stamina; no check, no fatigue"});
  } else {
    int64_t bonus = CheckBonus(a, "lor", "healing", "wounds", &nums) + Kit(c);
    nums.push_back(KitNum(c, "001.act.treat_wound"));  // l.261
    ASSIGN_OR_RETURN(CheckRoll r, RollCheck(d, a.id, bonus, "treat wound", cause));
    nums.push_back({"d20", r.natural});
    nums.push_back({"result", r.total});
    if (r.total >= kTn[level]) {
      const int steps = static_cast<int>(1 + FloorDiv(r.total - kTn[level], 2));  // l.261
      nums.push_back({"steps", steps});
      RETURN_IF_ERROR(HealWound(d, tid, level, steps, {cause, "001.act.treat_wound", nums, "wound treated"}).status());
    } else {
      RETURN_IF_ERROR(RecordOutcome(d, a.id, {cause, "001.act.treat_wound", nums, "fails"}));
    }
  }
  const int highest = HighestWound(*d.state().Find(tid));  // l.262
  return AddFatigue(d, tid, highest, {cause, "001.act.treat_wound", {{"highest_wound", highest}}, "fatigue from treatment"});
}

absl::Status CheckStabilize(const State& s, const Combatant& a, const fb::CommandT& c) {
  ASSIGN_OR_RETURN(const Combatant* t, Target(s, c));
  if (!t->Has("Dying")) return Refuse("001.act.stabilize", t->id + " is not dying");
  if (!Adjacent(s, a, *t)) return Refuse("001.act.stabilize", t->id + " is not within reach");
  return absl::OkStatus();
}

absl::Status ResolveStabilize(Decision& d, const fb::CommandT& c, uint64_t cause) {
  const Combatant a = *d.state().Find(c.actor);
  const Combatant t = *d.state().Find(c.targets[0]);
  int64_t tn = 0;
  for (int l = kLight; l <= kFatal; ++l) tn += t.Resource(WoundsKey(l));  // l.250
  Nums nums{{"tn", tn}, KitNum(c, "001.act.stabilize")};  // l.250
  const int64_t bonus = CheckBonus(a, "lor", "healing", "wounds", &nums) + Kit(c);
  ASSIGN_OR_RETURN(CheckRoll r, RollCheck(d, a.id, bonus, "stabilize", cause));
  nums.push_back({"d20", r.natural});
  nums.push_back({"result", r.total});
  if (r.total < tn) return RecordOutcome(d, a.id, {cause, "001.act.stabilize", nums, "fails"});
  return RemoveConditionsNamed(d, t.id, "Dying", {cause, "001.act.stabilize", nums, "no longer dying"});
}

}  // namespace combat::kernel::wound_slots
