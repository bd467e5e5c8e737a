// Melee and unarmed attacks (l.152-188, l.535-547) and Swift Attacks
// (l.479-487).
//
// Resolution order (and so the order of dice in a command): the Combat roll
// (d20, l.168); unless it is a critical (20 or the Precise range, l.390) or
// a critical failure (1, l.174), the defender's Defense roll (1d10
// exploding, l.320), skipped when it cannot defend (l.346, l.653); on a hit
// the weapon's damage dice; then a Chance roll when non-lethal damage needs
// one (l.511); then a Death roll when the target was already at 0 Aura.
#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/command.h"
#include "kernel/energy_rounds/internal.h"
#include "kernel/pending.h"
#include "kernel/window.h"

namespace combat::kernel::energy {
namespace {

int64_t WNum(const Weapon* w, const char* key, int64_t otherwise = 0) {
  if (w == nullptr) return otherwise;
  auto it = w->numbers.find(key);
  return it == w->numbers.end() ? otherwise : it->second;
}

bool CannotAvoid(const Combatant& t) {
  // l.156 "something that cannot defend (such as an inanimate object ...)
  // ... This can count as a Swift Attack": an `object` cannot avoid one.
  return t.Has("Unconscious") || t.Has("Asleep") || Active(t, "FullyRestrained") ||
         t.HasTag("object");
}

absl::StatusOr<const Weapon*> MeleeWeapon(const Combatant& a, const fb::CommandT& c) {
  if (c.action == "unarmed" || c.action == "restrain" || c.action == "push") return nullptr;
  const Weapon* w = nullptr;
  if (!c.weapon.empty()) {
    w = a.FindWeapon(c.weapon);
    if (w == nullptr) {
      return absl::NotFoundError(absl::StrCat("command '", c.action, "': field 'weapon': ",
                                              a.id, " has no weapon '", c.weapon, "'"));
    }
    if (w->kind != "melee" && w->kind != "thrown") {
      return Malformed(c, "weapon", absl::StrCat("'", w->name, "' is not a melee weapon"));
    }
  } else {
    w = WieldedMelee(a);
    if (w == nullptr) {
      return Refuse("002.items.equip", absl::StrCat(a.id, " wields no melee weapon"));
    }
  }
  if (!Wielding(a, w->name)) {
    return Refuse("002.items.equip", absl::StrCat(a.id, " is not wielding '", w->name, "'"));
  }
  return w;
}

}  // namespace

int64_t MaxReach(const Combatant& a) {
  int64_t reach = ReachOf(a, nullptr);
  for (const Weapon& w : a.weapons) {
    if ((w.kind == "melee" || w.kind == "thrown") && Wielding(a, w.name)) {
      reach = std::max(reach, ReachOf(a, &w));
    }
  }
  return reach;
}

bool PassesThroughReach(const Combatant& a, const fb::CommandT& act, int32_t mover_size) {
  const Verb* v = FindVerb(act.action);
  if (v == nullptr || !v->kind.cls.move) return false;
  const int64_t reach = MaxReach(a);  // l.487: "your maximum Reach"
  for (const fb::Pos& q : act.path) {
    // The mover's whole space at each step (a Large one fills 2 x 2
    // squares from the path's square), and faced when one of its squares
    // is (l.402).
    const Pos sq{q.x(), q.y()};
    if (space::Distance(kGrid, sq, mover_size, a.at, a.size) > reach) continue;
    for (const Pos& p : space::SquaresOf(sq, mover_size)) {
      if (Faces(a, p)) return true;
    }
  }
  return false;
}

bool MovesThroughReach(const State& s, const Combatant& a, const Combatant& t) {
  const PendingAct* p = ActingOf(s, t.id);
  return p != nullptr && PassesThroughReach(a, p->command, t.size);
}

namespace {

// l.485: "against creatures who are Unguarded, completely unaware of your
// attack, or unable to obstruct or avoid your attack".
bool SwiftTarget(const Combatant& t) {
  return Active(t, "Unguarded") || t.HasTag("unaware") || CannotAvoid(t);
}

bool WieldsMissile(const Combatant& a) {
  for (const Weapon& w : a.weapons) {
    if ((w.kind == "ranged" || w.kind == "thrown") && Wielding(a, w.name)) return true;
  }
  return false;
}

}  // namespace

absl::Status CheckSwift(const State& s, const Combatant& a, const Combatant& t) {
  if (a.Resource(res::kSwiftUsed, 0) > 0) {
    return Refuse("002.swift.once", absl::StrCat(a.id, " already made a Swift Attack this round"));
  }
  if (SwiftTarget(t)) return absl::OkStatus();
  // l.487: a creature moving through your maximum reach while you face it.
  if (MovesThroughReach(s, a, t)) return absl::OkStatus();
  return Refuse("002.swift.targets",
                 absl::StrCat(t.id, " is not Unguarded, unaware, unable to avoid the attack, "
                                    "or moving through ", a.id, "'s reach"));
}

bool MaySwiftAttack(const Combatant& a, const Combatant& t, const fb::CommandT& act) {
  if (a.Resource(res::kSwiftUsed, 0) > 0) return false;  // l.483
  if (PassesThroughReach(a, act, t.size)) return true;    // l.487
  return SwiftTarget(t) && (Distance(a, t) <= MaxReach(a) || WieldsMissile(a));
}

int64_t EnergyForMelee(const Combatant& a, const fb::CommandT& c, bool unarmed) {
  if (ParamOr(c, "swift", 0) == 1) return 1;          // l.481
  if (ParamOr(c, "single_strike", 0) == 1) return 1;  // l.156
  (void)a;
  return unarmed ? 2 : 3;                             // l.541, l.154
}

absl::Status CheckAttackCommon(const State& s, const Combatant& a,
                               const Combatant& t, const fb::CommandT& c,
                               const Weapon* weapon, bool melee,
                               const ActOpts& o) {
  if (t.id == a.id) return Malformed(c, "targets", "a creature does not attack itself");
  if (t.Has("Dead")) return Refuse("002.death.dead", absl::StrCat(t.id, " is already dead"));
  if (melee && !o.ignore_reach) {
    const int64_t reach = ReachOf(a, weapon);
    const int64_t dist = Distance(a, t);
    if (dist > reach) {
      // Reading 34: Reach0 is the adjacent square (l.541), so a Tiny (or
      // smaller) creature's -1 Reach (l.452) reaches only into its own
      // space; sharing a space is the GM's (l.418, l.454: gm_move).
      const std::string tiny =
          reach == 0 ? absl::StrCat(" (a Tiny or smaller creature's -1 Reach, l.452, reaches only "
                                    "a creature in its own space: the GM may move it into ",
                                    t.id, "'s space with gm_move, l.418)")
                     : "";
      return Refuse("002.melee.reach", absl::StrCat(t.id, " is ", dist, " m away; ", a.id,
                                                     "'s reach is ", reach, " m", tiny));
    }
  }
  // Types and `defense`'s values: verbs.cc. What the table cannot say:
  if (ParamOr(c, "nl_trade", 0) > 0 && ParamOr(c, "nonlethal", 0) != 1) {
    return Malformed(c, "params.nl_trade", "only with nonlethal=1 (l.519)");
  }
  (void)s;
  return absl::OkStatus();
}

absl::Status CheckMelee(const State& s, const Combatant& a, const fb::CommandT& c,
                        const ActOpts& o) {
  ASSIGN_OR_RETURN(const Combatant* t, Target(s, c, 0));
  const bool unarmed = c.action == "unarmed";
  ASSIGN_OR_RETURN(const Weapon* w, MeleeWeapon(a, c));
  RETURN_IF_ERROR(CheckAttackCommon(s, a, *t, c, w, true, o));
  if (ParamOr(c, "swift", 0) == 1) RETURN_IF_ERROR(CheckSwift(s, a, *t));
  if (ParamOr(c, "single_strike", 0) == 1) {
    std::string why;
    if (!NoDefenseRoll(*t, true, &why) && !t->HasTag("unaware") && !t->HasTag("object")) {
      return Refuse("002.cost.single_strike",
                     absl::StrCat(t->id, " can defend itself: a single strike needs a target "
                                         "that cannot"));
    }
  }
  Cost cost;
  cost.energy = EnergyForMelee(a, c, unarmed);
  RETURN_IF_ERROR(ReadCostParams(c, cost));
  return CheckCost(s, a, cost, unarmed ? "an unarmed attack" : "a melee attack");
}

absl::StatusOr<MeleeResult> MeleeAttackRoll(Decision& d, const fb::CommandT& c,
                                            const MeleeSpec& spec, uint64_t cause) {
  MeleeResult r;
  const std::string aid = c.actor, tid = c.targets[0];
  RETURN_IF_ERROR(TurnToward(d, aid, *d.state().Find(tid), cause));
  if (d.state().Find(aid)->Has("Defending")) {
    RETURN_IF_ERROR(RemoveConditionsNamed(d, aid, "Defending",
                                          {cause, "002.defend", {}, "it attacks"}));
  }
  // Copies: every emitted event replaces the working state.
  const Combatant a = *d.state().Find(aid);
  const Combatant t = *d.state().Find(tid);
  const Weapon* w = spec.weapon;
  const int64_t masab = Masab(a);
  const int64_t bonus = WNum(w, "av_bonus");
  const int64_t nonprof = (w != nullptr && !Proficient(a, *w)) ? 1 : 0;  // l.527
  const int64_t trades = ParamOr(c, "nl_trade", 0);
  const int64_t av_mod = ParamOr(c, "av_mod", 0);
  r.av_base = 15 + masab + bonus - nonprof - 3 * trades + av_mod;
  r.av = r.av_base - spec.av_penalty;
  Nums& n = r.nums;
  const std::string wname = w == nullptr ? "unarmed" : w->name;
  n = {{"av_base", 15}, {"masab", masab}, {"weapon_av_bonus", bonus, wname, "002.melee.av"}};
  if (nonprof) n.push_back({"nonproficient", -1, wname + " (not proficient)", "002.mpl.melee"});
  if (trades) n.push_back({"nonlethal_trade_av", -3 * trades, "", "002.nonlethal.trade"});
  if (av_mod) n.push_back(Declared(c, cause, "av_mod", av_mod));
  if (spec.av_penalty) {
    n.push_back({"maneuver_av", -spec.av_penalty, spec.kind, "002.maneuver.av"});
  }
  n.push_back({"av", r.av});

  // The Combat roll (l.168): Dazed and Blinded give Disadvantage on attack
  // rolls (l.670, l.672).
  const Edges edges = EdgeOnAttack(a);
  ASSIGN_OR_RETURN(r.combat_d20, RollD20(d, aid, edges.mode(), "combat roll", cause));
  const int64_t precise = WNum(w, "precise");
  const int64_t crit_at = 20 - precise;  // l.390: Precise 1 crits on 19-20
  n.push_back({"combat_d20", r.combat_d20});
  n.push_back({"crit_at", crit_at});
  edges.AddTo(n, "attack");
  if (r.combat_d20 <= 3) {
    // l.173: 1-3 Exposes the attacker until the end of the next Round,
    // during the attack (l.176).
    Impose e;
    e.actor = aid;
    e.name = "Exposed";
    e.source = "combat roll";
    e.expiry = EndOfRound(d.state(), 1);
    // A natural 1 is Exposed by l.462, for as long as l.173 says: the
    // number names the line of its duration.
    Nums en{{"combat_d20", r.combat_d20}};
    if (r.combat_d20 == 1) {
      en.push_back({"exposed_until_round", d.state().round + 1, "", "002.melee.exposed_low"});
    }
    RETURN_IF_ERROR(AddWithDaughters(d, e, {cause, r.combat_d20 == 1 ? "002.exposed.crit_fail"
                                                                     : "002.melee.exposed_low",
                                            en, ""})
                        .status());
  }
  if (r.combat_d20 == 1) {
    r.crit_fail = true;
    return r;
  }
  if (r.combat_d20 >= crit_at) {
    r.crit = true;
    r.hit = true;
    Impose e;
    e.actor = tid;
    e.name = "Exposed";
    e.source = aid;
    e.expiry = EndOfRound(d.state());  // l.460
    // l.392 Exposes; l.460 ("Unless otherwise specified ... until the end
    // of the Round", reading 12) is how long: the number names its line.
    RETURN_IF_ERROR(AddWithDaughters(d, e, {cause, "002.melee.critical",
                                            {{"combat_d20", r.combat_d20},
                                             {"crit_at", crit_at},
                                             {"exposed_until_round", d.state().round, "", "002.exposed"}},
                                            "a critical hit Exposes the target"})
                        .status());
    return r;
  }
  std::string none;
  if (NoDefenseRoll(*d.state().Find(tid), true, &none)) {
    r.hit = true;
    n.push_back({"no_defense_roll", 1, absl::StrCat(tid, " ", none), "002.defense.none"});
    return r;
  }
  const std::string def = ParamText(c, "defense").empty() ? "evasion" : ParamText(c, "defense");
  const bool behind = !FacesSpace(t, a);  // l.404, l.402
  Nums parts;
  int64_t base = 0;
  if (def == "evasion") {
    base = Evasion(t, /*unarmed=*/behind, &parts);  // l.404: Unarmed Evasion
  } else if (def == "fortitude") {
    base = Fortitude(t, &parts);
  } else {
    base = Will(t, &parts);
  }
  Edges de = EdgeOnDefense(t, def == "evasion", behind ? aid : "");
  if (spec.defense_edge_adv != 0) {
    // l.553: the target's first Defense roll of the maneuver.
    de.adv.push_back({"maneuver_first_defense", absl::StrCat(spec.kind, " by ", aid),
                      "002.maneuver.unguarded"});
  }
  ASSIGN_OR_RETURN(DefenseRoll roll, RollDefense(d, tid, 10, base, de.mode(),
                                                 absl::StrCat(def, " roll"), cause));
  for (const Num& p : parts) n.push_back({"def." + p.key, p.value, p.source, p.rule});
  n.push_back({"defense_dice", roll.dice_sum});
  n.push_back({"defense_explosions", roll.explosions});
  de.AddTo(n, "defense");
  if (behind) n.push_back({"from_behind", 1, aid, "002.facing.behind"});
  n.push_back({"defense_total", roll.total});
  const bool defending = d.state().Find(tid)->Has("Defending");
  if (defending) {
    n.push_back({"defending_wins_ties", 1, "Defending on " + tid, "002.defend"});
  }
  r.hit = defending ? r.av > roll.total : r.av >= roll.total;  // l.166, l.35
  return r;
}

absl::StatusOr<Outcome> ResolveMelee(Decision& d, const fb::CommandT& c,
                                     uint64_t cause, const ActOpts& o) {
  const Combatant* a = d.state().Find(c.actor);
  const bool unarmed = c.action == "unarmed";
  ASSIGN_OR_RETURN(const Weapon* found, MeleeWeapon(*a, c));
  const Weapon copy = found ? *found : Weapon{};
  const Weapon* w = found ? &copy : nullptr;
  const bool swift = ParamOr(c, "swift", 0) == 1;
  Cost cost;
  cost.energy = EnergyForMelee(*a, c, unarmed);
  RETURN_IF_ERROR(ReadCostParams(c, cost));
  const std::string cost_rule = swift ? "002.swift"
                                : ParamOr(c, "single_strike", 0) == 1 ? "002.cost.single_strike"
                                : unarmed ? "002.cost.unarmed" : "002.cost.melee";
  RETURN_IF_ERROR(Pay(d, c.actor, cost, {cause, cost_rule, {{"energy", cost.energy}}, ""}));
  if (swift) {
    RETURN_IF_ERROR(SetResource(d, c.actor, res::kSwiftUsed, 1,
                                {cause, "002.swift.once", {}, "one Swift Attack per round"}));
  }
  MeleeSpec spec;
  spec.kind = c.action;
  spec.weapon = w;
  ASSIGN_OR_RETURN(MeleeResult r, MeleeAttackRoll(d, c, spec, cause));
  Outcome out;
  out.nums = r.nums;
  out.nums.push_back({"energy", cost.energy});
  const std::string tid = c.targets[0];
  if (!r.hit) {
    out.rule = r.crit_fail ? "002.melee.critical_failure" : "002.melee.hit";
    out.text = r.crit_fail ? "critical failure: the attack misses"
                           : absl::StrCat("miss: AV ", r.av, " vs defense roll");
    return out;
  }
  // Damage (l.164, l.547).
  a = d.state().Find(c.actor);
  const Combatant* t = d.state().Find(tid);
  DamageIn in;
  const int64_t masab = Masab(*a);
  const bool proficient = w == nullptr || Proficient(*a, *w);
  if (unarmed) {
    in.rolled = std::max<int64_t>(1, masab);  // l.547: MASAB (min 1)
    in.type = "bludgeoning";
  } else {
    ASSIGN_OR_RETURN(dice::RollResult dmg, d.Roll(w->damage, "damage", c.actor, cause));
    in.rolled = dmg.total;
    in.bonus = masab;  // MASDB (l.186) is the same formula as MASAB
    in.type = w->damage_type;
    if (!proficient) {
      in.halvings += 1;  // l.527
      in.mods.push_back({"halved.nonproficient", 1, w->name + " (not proficient)",
                         "002.mpl.melee"});
    }
  }
  const std::string def = ParamText(c, "defense").empty() ? "evasion" : ParamText(c, "defense");
  t = d.state().Find(tid);  // rolls replace the working state
  const int64_t ac = t->Stat("ac", 0);
  in.armor = !r.crit && def == "evasion" && r.combat_d20 < ac;  // l.178, l.344
  in.ar = t->Stat("ar", 0);
  in.doublings = static_cast<int>(ParamOr(c, "double", 0));
  if (in.doublings) in.mods.push_back(Declared(c, cause, "doubled.declared", in.doublings));
  bool nonlethal = false;
  if (ParamOr(c, "nonlethal", 0) == 1) {
    if (unarmed) {
      nonlethal = true;  // l.511, l.543: unarmed freely
    } else {
      const bool blunt = WNum(w, "blunt") == 1 || w->damage_type == "bludgeoning";
      ASSIGN_OR_RETURN(nonlethal, NonLethalChance(d, c.actor, blunt ? 5 : 10,
                                                  ParamOr(c, "nl_trade", 0), cause, out.nums));
    }
  }
  DamageOut dmg = ComputeDamage(*d.state().Find(tid), in);
  out.nums.push_back({"ac", ac});
  for (const Num& x : dmg.nums) out.nums.push_back(x);
  RETURN_IF_ERROR(ApplyDamage(d, tid, dmg, nonlethal,
                              unarmed ? "002.unarmed.damage" : "002.damage.weapon", cause));
  out.rule = r.crit ? "002.melee.critical" : (in.armor ? "002.melee.armor" : "002.melee.hit");
  out.text = absl::StrCat(r.crit ? "critical hit" : "hit", ": ", dmg.dealt,
                          nonlethal ? " non-lethal" : "", " damage",
                          in.armor ? " (on armor)" : " (armor bypassed)");
  (void)o;
  return out;
}

}  // namespace combat::kernel::energy
