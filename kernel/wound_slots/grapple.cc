// Grappling (l.223-235) and Escape (l.217-218): Grapple, Pin, Escape, Drag,
// and the reactions Cling and Interpose.
//
// Conditions: "Grappling" on both, relative to the other; "Pinned" (helpless
// and immobile: the immobile defense, no other actions) on the pinned one.
// Readings: a Power or Agility check uses whichever bonus is higher (the
// text lets the actor choose; a program picks the better); Escape from a
// pin or grapple is against the higher of the grappler's Power and Agility
// defenses ("as if escaping the grapple", l.235), the highest of them when
// several grapple the escaper (one grapple, l.228), from anything else
// against params.tn (the effect's escape TN, set by the GM).
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "events/status_macros.h"
#include "kernel/pending.h"
#include "kernel/wound_slots/internal.h"

namespace combat::kernel::wound_slots {

int64_t HigherDefense(const Combatant& c) {
  return std::max(Defense(c, Def::kPower, nullptr), Defense(c, Def::kAgility, nullptr));
}

namespace {

// Combat checks "function the same as attack rolls" (l.70): they take the
// -2s to attack (CheckPenalties).
int64_t PowerBonus(const Combatant& c, Nums* n) {
  return CheckBonus(c, "str", "athletics", "power", n) + SizeScore(c) + CheckPenalties(c, n);  // l.74
}
int64_t AgilityBonus(const Combatant& c, Nums* n) {
  return CheckBonus(c, "dex", "reflex", "agility", n) - SizeScore(c) + CheckPenalties(c, n);  // l.75
}
std::vector<std::string> Grapplers(const Combatant& c) {
  std::vector<std::string> out;
  for (const auto& [id, k] : c.conditions) {
    if (k.name == "Grappling") out.push_back(k.relative_to);
  }
  return out;
}
bool Grapples(const Combatant& a, const std::string& other) {
  return a.FindRelative("Grappling", other) != nullptr;
}

}  // namespace

absl::Status CheckGrapple(const State& s, const Combatant& a, const fb::CommandT& c) {
  ASSIGN_OR_RETURN(const Combatant* t, Target(s, c));
  if (t->id == a.id) return Malformed(c, "targets[0]", "another creature");
  if (!Adjacent(s, a, *t)) return Refuse("001.grapple", t->id + " is not adjacent");
  if (std::abs(SizeScore(a) - SizeScore(*t)) >= 5) return Refuse("001.grapple", "sizes 5 or more apart");
  if (t->HasTag("ungrappleable") || a.HasTag("ungrappleable")) return Refuse("001.grapple", "its form prevents grappling");
  if (Grapples(a, t->id)) return Refuse("001.grapple", a.id + " already grapples " + t->id);
  if (!c.weapon.empty()) {
    const Weapon* w = a.FindWeapon(c.weapon);
    if (w == nullptr) return Malformed(c, "weapon", "unknown weapon");
    if (Num(*w, "reach", 1) != 0) return Refuse("001.grapple", "a grapple uses a weapon of reach 0");
    if (Dropped(a, *w)) return Refuse("001.act.hinder", absl::StrCat(a.id, " dropped its ", w->name, " (disarmed, l.243)"));
  }
  return absl::OkStatus();
}

absl::Status ResolveGrapple(Decision& d, const fb::CommandT& c, uint64_t cause) {
  AttackSpec spec;
  spec.no_damage = true;  // l.230: no damage
  // l.230: "using any weapon that has a reach of 0": with no weapon named,
  // the first one of reach 0 (reading: a creature without one grapples with
  // its first weapon, unarmed attacks not being in this text).
  fb::CommandT with = c;
  if (with.weapon.empty()) {
    const Combatant& a = *d.state().Find(c.actor);
    for (const Weapon& w : a.weapons) {
      if (!IsRanged(w) && !Dropped(a, w) && Num(w, "reach", 1) == 0) {
        with.weapon = w.name;
        break;
      }
    }
  }
  ASSIGN_OR_RETURN(AttackResult r, Attack(d, with, cause, spec));
  if (!r.hit) return absl::OkStatus();
  const Why why{cause, "001.grapple", {{"attack_roll", r.total}, {"defense", r.defense}}, "grappling each other"};
  RETURN_IF_ERROR(Impose(d, c.actor, "Grappling", c.actor, {}, why, 0, c.targets[0]).status());
  return Impose(d, c.targets[0], "Grappling", c.actor, {}, why, 0, c.actor).status();
}

absl::Status CheckPin(const State& s, const Combatant& a, const fb::CommandT& c) {
  ASSIGN_OR_RETURN(const Combatant* t, Target(s, c));
  if (!Grapples(a, t->id)) return Refuse("001.pin", a.id + " is not grappling " + t->id);
  if (t->Has("Pinned")) return Refuse("001.pin", t->id + " is already pinned");
  return absl::OkStatus();
}

absl::Status ResolvePin(Decision& d, const fb::CommandT& c, uint64_t cause) {
  const Combatant a = *d.state().Find(c.actor);
  const Combatant t = *d.state().Find(c.targets[0]);
  ASSIGN_OR_RETURN(const bool holds, HoldsOn(d, a.id, cause));  // l.278, l.70
  if (!holds) return absl::OkStatus();
  Nums nums;
  // l.235: -2; l.84-97's modifiers, melee column, as on an attack roll (l.70).
  const int64_t bonus = PowerBonus(a, &nums) - 2 + AttackModifiers(d.state(), a, t, false, 0, &nums);
  const int64_t tn = HigherDefense(t);
  ASSIGN_OR_RETURN(CheckRoll r, RollCheck(d, a.id, bonus, "pin", cause));
  nums.insert(nums.end(), {{"penalty", -2, "", "001.pin"}, {"d20", r.natural}, {"result", r.total}, {"tn", tn}});
  RETURN_IF_ERROR(CriticalInitiative(d, a.id, t.id, r.natural, cause));  // l.70, l.81-82
  if (r.total < tn) return RecordOutcome(d, a.id, {cause, "001.pin", nums, "pin fails"});
  return Impose(d, t.id, "Pinned", a.id, {}, {cause, "001.pin", nums, "helpless and immobile until it escapes"}).status();
}

absl::Status CheckEscape(const State& s, const Combatant& a, const fb::CommandT& c) {
  // The TN comes from a creature that grapples or pins `a`; a pin the GM
  // imposed with no creature behind it has its TN from the GM (l.218).
  const Condition* pin = a.FindCondition("Pinned");
  const bool held = !Grapplers(a).empty() || (pin != nullptr && s.Find(pin->source) != nullptr);
  if (!held && !HasParam(c, "tn")) {
    return Malformed(c, "params.tn",
                     "the escape TN of the effect (no creature grapples or pins " + a.id + ")");
  }
  return absl::OkStatus();
}

absl::Status ResolveEscape(Decision& d, const fb::CommandT& c, uint64_t cause) {
  const Combatant a = *d.state().Find(c.actor);
  ASSIGN_OR_RETURN(const bool holds, HoldsOn(d, a.id, cause));  // l.278, l.70
  if (!holds) return absl::OkStatus();
  const bool p = PowerBonus(a, nullptr) >= AgilityBonus(a, nullptr);
  Nums nums;
  const int64_t bonus = p ? PowerBonus(a, &nums) : AgilityBonus(a, &nums);
  int64_t tn = ParamOr(c, "tn", 0);
  std::string from;
  if (!HasParam(c, "tn")) {
    // l.218 "the escape TN of the effect": the grapple is one effect for
    // all who grapple the escaper (l.228 "all opponents grappling you",
    // "all others involved in the grapple"), so its TN is the highest of
    // their higher Power / Agility defenses, and a pin's is the same ("as
    // if escaping the grapple", l.235). The critical's -2 (l.81) goes to
    // the one whose defense it is (the first of them on a tie).
    const Condition* pin = a.FindCondition("Pinned");
    std::vector<std::string> holders = Grapplers(a);
    if (pin != nullptr && std::find(holders.begin(), holders.end(), pin->source) == holders.end()) {
      holders.insert(holders.begin(), pin->source);
    }
    for (const std::string& h : holders) {
      const Combatant* o = d.state().Find(h);
      if (o == nullptr) continue;
      const int64_t v = HigherDefense(*o);
      if (from.empty() || v > tn) {
        from = h;
        tn = v;
      }
    }
  }
  ASSIGN_OR_RETURN(CheckRoll r, RollCheck(d, a.id, bonus, p ? "escape (power)" : "escape (agility)", cause));
  nums.insert(nums.end(), {{"d20", r.natural}, {"result", r.total}, {"tn", tn}});
  RETURN_IF_ERROR(CriticalInitiative(d, a.id, from, r.natural, cause));  // l.70, l.81-82
  if (r.total < tn) return RecordOutcome(d, a.id, {cause, "001.escape", nums, "escape fails"});
  const Why why{cause, "001.escape", nums, "escapes"};
  if (a.Has("Pinned")) return RemoveConditionsNamed(d, a.id, "Pinned", why);  // l.235: ends the pin, not the grapple
  if (from.empty()) return RecordOutcome(d, a.id, why);
  for (const std::string& other : Grapplers(a)) {
    if (const Condition* k = a.FindRelative("Grappling", other); k != nullptr) {
      RETURN_IF_ERROR(RemoveCondition(d, a.id, k->id, why));
    }
    const Combatant* o = d.state().Find(other);
    if (const Condition* k = o->FindRelative("Grappling", a.id); k != nullptr) {
      RETURN_IF_ERROR(RemoveCondition(d, other, k->id, why));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckDrag(const State& s, const Combatant& a, const fb::CommandT& c) {
  if (Grapplers(a).empty()) return Refuse("001.drag", a.id + " is not grappling");
  return absl::OkStatus();
}

absl::Status ResolveDrag(Decision& d, const fb::CommandT& c, uint64_t cause) {
  const Combatant a = *d.state().Find(c.actor);
  ASSIGN_OR_RETURN(const bool holds, HoldsOn(d, a.id, cause));  // l.278, l.70
  if (!holds) return absl::OkStatus();
  Nums nums;
  int64_t tn = 0, opponents = 0;
  for (const std::string& o : Grapplers(a)) {
    tn = std::max(tn, Defense(*d.state().Find(o), Def::kPower, nullptr));
    ++opponents;
  }
  const int64_t bonus = PowerBonus(a, &nums) - 2 * (opponents - 1);  // l.228
  ASSIGN_OR_RETURN(CheckRoll r, RollCheck(d, a.id, bonus, "drag", cause));
  if (opponents > 1) nums.push_back({"extra_opponents", -2 * (opponents - 1), "", "001.drag"});
  nums.insert(nums.end(), {{"opponents", opponents}, {"d20", r.natural}, {"result", r.total}, {"tn", tn}});
  RETURN_IF_ERROR(CriticalInitiative(d, a.id, "", r.natural, cause));  // l.70, l.81-82
  if (r.total < tn) return RecordOutcome(d, a.id, {cause, "001.drag", nums, "drag fails"});
  return Impose(d, a.id, "Dragging", a.id, ForRounds(d.state(), 1),
                {cause, "001.drag", nums, "may spend up to 4 AP on movement this round, moving the grapple"}, 4)
      .status();
}

absl::Status CheckCling(const State& s, const Combatant& a, const fb::CommandT& c) {
  ASSIGN_OR_RETURN(const Combatant* t, Target(s, c));
  if (!Grapples(a, t->id)) return Refuse("001.cling", a.id + " is not grappling " + t->id);
  if (ParamOr(c, "reduce", 0) < 0) return Malformed(c, "params.reduce", "yards of the target's movement to take away");
  return absl::OkStatus();
}

absl::Status ResolveCling(Decision& d, const fb::CommandT& c, uint64_t cause) {
  const Combatant a = *d.state().Find(c.actor);
  ASSIGN_OR_RETURN(const bool holds, HoldsOn(d, a.id, cause));  // l.278, l.70
  if (!holds) return absl::OkStatus();
  Nums nums;
  ASSIGN_OR_RETURN(CheckRoll r, RollCheck(d, a.id, PowerBonus(a, &nums), "cling", cause));
  // l.226: 10 points per yard taken from the target's movement, 5 per yard
  // moved with it (rounded down).
  const int64_t reduce = std::min(ParamOr(c, "reduce", 0), std::max<int64_t>(0, FloorDiv(r.total, 10)));
  const int64_t with = std::max<int64_t>(0, FloorDiv(r.total - 10 * reduce, 5));
  nums.insert(nums.end(), {{"d20", r.natural}, {"result", r.total}, {"reduce_yards", reduce}, {"move_with_yards", with}});
  RETURN_IF_ERROR(RecordOutcome(d, a.id, {cause, "001.cling", nums, "cling"}));
  RETURN_IF_ERROR(CriticalInitiative(d, a.id, c.targets[0], r.natural, cause));  // l.70, l.81-82
  // l.226 "prevent the target's movement": the reduction cuts the move in
  // progress (the one whose window Cling answers), and the yards are lost
  // from the target's movement pool too (it cannot simply walk them again).
  if (reduce > 0) RETURN_IF_ERROR(CutHeldMove(d, c.window, reduce, cause).status());
  const Combatant* t = d.state().Find(c.targets[0]);
  const Combatant* mover = t;  // a rider's movement is its mount's (l.280)
  if (const Condition* k = t->FindCondition("Riding"); k != nullptr) mover = d.state().Find(k->relative_to);
  const int64_t cut = std::min(reduce, mover->Resource(res::kMovePool));
  if (cut > 0) {
    RETURN_IF_ERROR(AddResource(d, mover->id, res::kMovePool, -cut, {cause, "001.cling", {{"reduce", cut}}}).status());
  }
  t = d.state().Find(c.targets[0]);
  if (with > 0) {  // moves with the target as it goes (movement.cc)
    if (a.Resource(res::kClingDiagonals) != 0) {  // l.161: its diagonals count from its first step along
      RETURN_IF_ERROR(SetResource(d, a.id, res::kClingDiagonals, 0, {cause, "001.cling"}));
    }
    RETURN_IF_ERROR(Impose(d, a.id, "Clinging", a.id, ForRounds(d.state(), 1),
                           {cause, "001.cling", {{"yards", with}}, "moves with " + t->id}, with, t->id).status());
  }
  return absl::OkStatus();
}

absl::Status CheckInterpose(const State& s, const Combatant& a, const fb::CommandT& c) {
  ASSIGN_OR_RETURN(const Combatant* t, Target(s, c));
  if (!Grapples(a, t->id)) return Refuse("001.interpose", a.id + " is not grappling " + t->id);
  auto it = s.windows.find(c.window);
  const PendingAct* held = it == s.windows.end() ? nullptr : s.FindPending(it->second.pending);
  const Verb* v = held == nullptr ? nullptr : FindVerb(held->command->action);
  if (v == nullptr || !v->row.kind.cls.attack || held->command->targets.empty() || held->command->targets[0] != a.id) {
    return Refuse("001.interpose", "Interpose answers the window of an attack against you");
  }
  // l.233 "force the attack to target another creature you are grappling
  // instead": not the attacker, whose attack cannot target itself (l.69
  // "the target's Defense"; attack.cc: an attack targets another creature).
  if (t->id == held->actor) {
    std::vector<std::string> others;
    for (const auto& [cid, k] : a.conditions) {
      if (k.name == "Grappling" && k.relative_to != held->actor) others.push_back(k.relative_to);
    }
    return Refuse("001.interpose", absl::StrCat("targets[0]: ", t->id, " makes the attack and cannot become its target; name another creature ",
                                                a.id, " is grappling (", others.empty() ? "none" : absl::StrJoin(others, ", "), ")"));
  }
  return absl::OkStatus();
}

absl::Status ResolveInterpose(Decision& d, const fb::CommandT& c, uint64_t cause) {
  const State& s = d.state();
  const PendingAct held = *s.FindPending(s.windows.at(c.window).pending);
  const Combatant a = *s.Find(c.actor);
  const Combatant t = *s.Find(c.targets[0]);
  const Combatant attacker = *s.Find(held.actor);
  ASSIGN_OR_RETURN(const bool holds, HoldsOn(d, a.id, cause));  // l.278, l.70
  if (!holds) return absl::OkStatus();
  Nums nums;
  // l.233: "a Power or Agility check": the better one, its parts in the numbers.
  const bool power = PowerBonus(a, nullptr) >= AgilityBonus(a, nullptr);
  int64_t bonus = power ? PowerBonus(a, &nums) : AgilityBonus(a, &nums);
  if (!t.Has("Pinned")) {
    bonus -= 2;  // l.233
    nums.push_back({"not_pinned", -2, t.id + " not pinned", "001.interpose"});
  }
  const int64_t tn = HigherDefense(attacker);
  ASSIGN_OR_RETURN(CheckRoll r, RollCheck(d, a.id, bonus, "interpose", cause));
  nums.insert(nums.end(), {{"d20", r.natural}, {"result", r.total}, {"tn", tn}});
  RETURN_IF_ERROR(CriticalInitiative(d, a.id, attacker.id, r.natural, cause));  // l.70, l.81-82
  if (r.total < tn) return RecordOutcome(d, a.id, {cause, "001.interpose", nums, "interpose fails"});
  fb::CommandT rest = held.command;
  rest.targets[0] = t.id;
  SetParam(rest, "_interposed", 1);  // l.233: resolved as if the target were in your space
  return UpdatePending(d, held.id, held.progress, &rest, nullptr,
                       {cause, "001.interpose", nums, t.id + " becomes the target of the attack"});
}

}  // namespace combat::kernel::wound_slots
