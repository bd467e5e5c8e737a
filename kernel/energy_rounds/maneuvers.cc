// Combat Maneuvers (l.549-591): melee attacks that deal no damage.
//
// Every maneuver is a melee attack at -5 AV (l.557, l.565, l.571, l.583).
// Unless it is a Swift Attack, a maneuver against a target that is not
// Exposed makes the attacker Unguarded and gives the target Advantage on
// its first Defense roll of the maneuver (l.553): the Evasion roll, or the
// Fortitude save when no Evasion roll was made. On a hit, Trip, Disarm and
// Push call for a Fortitude roll that must be higher than the AV without
// the -5 (Defending wins ties, l.35). Dice order: Combat roll, Evasion
// roll, Fortitude roll.
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/command.h"
#include "kernel/energy_rounds/internal.h"

namespace combat::kernel::energy {
namespace {

bool UsesUnarmed(const std::string& action) {
  return action == "restrain" || action == "push";  // l.571, l.583
}

const Weapon* ManeuverWeapon(const Combatant& a, const fb::CommandT& c) {
  if (UsesUnarmed(c.action)) return nullptr;
  if (!c.weapon.empty()) return a.FindWeapon(c.weapon);
  return WieldedMelee(a);  // unarmed when nothing is wielded
}

const Weapon* TargetWeapon(const Combatant& t, const fb::CommandT& c) {
  const std::string item = ParamText(c, "item");
  for (const Weapon& w : t.weapons) {
    if (!Wielding(t, w.name)) continue;
    if (item.empty() || w.name == item) return &w;
  }
  return nullptr;
}

// Reading 33: a hold is contact (l.571 "you are Holding them"). A push
// moves the creature pushed, not the hold: it may not carry a held
// creature beyond its holder's Reach (unarmed, l.541, l.452), nor a holder
// beyond the Reach from the creature it holds. The push direction is the
// pusher's common sense (l.591): another path, or the GM frees them
// (`gm_condition op=remove name=Restraining`) or moves both (`gm_move`).
// Without this a held creature pushed away stayed Restrained at any
// distance.
absl::Status PushKeepsHold(const State& s, const Combatant& t, const std::vector<Pos>& path) {
  for (const auto& [id, k] : s.combatants) {
    for (const auto& [cid, cond] : k.conditions) {
      if (cond.name != "Restraining" || cond.relative_to.empty()) continue;
      const Combatant* other = nullptr;
      const Combatant* holder = &k;
      if (cond.relative_to == t.id) {
        other = &k;  // t is held by k
      } else if (id == t.id) {
        other = s.Find(cond.relative_to);  // t holds another
      }
      if (other == nullptr) continue;
      const int64_t reach = ReachOf(*holder, nullptr);
      for (const Pos& p : path) {
        const int64_t dist = space::Distance(kGrid, p, t.size, other->at, other->size);
        if (dist > reach) {
          return Refuse("002.cond.restraining",
                        absl::StrCat(holder->id, " is Holding ", cond.relative_to, ": pushing ",
                                     t.id, " to (", p.x, ",", p.y, ") puts it ", dist, " m from ",
                                     other->id, ", beyond the hold's Reach of ", reach,
                                     " m (reading 33); push it elsewhere, or the GM ends the "
                                     "hold or moves both"));
        }
      }
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<Pos>> PushPath(const State& s, const Combatant& a,
                                          const Combatant& t, const fb::CommandT& c) {
  const bool sprint = ParamOr(c, "sprint_push", 0) == 1;
  const int64_t max = sprint ? 3 : 1;  // l.583, l.587
  std::vector<Pos> path = PathOf(c);
  if (path.empty()) {
    // l.583 "pushed 1 meter", l.591 "directly away from you": from the
    // centre of the pusher's space through the centre of the target's
    // (space::DirBetween), so a Large body pushes straight, not from its
    // top-left square.
    const Pos v = DirVec(space::DirBetween(a.at, a.size, t.at, t.size));
    path.push_back({t.at.x + v.x, t.at.y + v.y});
  }
  if (static_cast<int64_t>(path.size()) > max) {
    return Refuse(sprint ? "002.maneuver.push_sprint" : "002.maneuver.push",
                   absl::StrCat("a push moves the target up to ", max, " m"));
  }
  fb::CommandT probe;
  probe.action = "push";
  RETURN_IF_ERROR(CheckPath(s, t, path, probe));
  RETURN_IF_ERROR(PushKeepsHold(s, t, path));
  return path;
}

// l.565 "If the weapon is not Heavy, you may also spend 1 Agility to
// fling the weapon up to 2m away from the target": where it may land (the
// Agility is checked with the act's cost).
absl::Status FlingRefusal(const State& s, const Combatant& t, const Weapon& tw,
                          const fb::CommandT& c) {
  if (tw.category == "heavy") {
    return Refuse("002.maneuver.disarm", "a heavy weapon cannot be flung");
  }
  const Pos to{static_cast<int32_t>(ParamOr(c, "fling_x", 0)),
               static_cast<int32_t>(ParamOr(c, "fling_y", 0))};
  if (DistanceTo(t, to) > 2) {
    return Refuse("002.maneuver.disarm", "a flung weapon lands at most 2 m away");
  }
  if (s.TerrainAt(to) == "offmap") return Malformed(c, "params.fling_x", "off the map");
  // l.565 "fling the weapon up to 2m away from the target": it flies
  // from the target's space and lands on the ground; a wall (l.68: one
  // is broken down, not entered) is no landing square, nor does the
  // weapon fly through one (the squares on the line between the
  // target's space and the landing square, both ends included).
  for (const Pos& p : space::LineBetween(t.at, t.size, to, 1)) {
    if (s.TerrainAt(p) == "wall") {
      return Refuse("002.maneuver.disarm",
                    absl::StrCat("params.fling_x/fling_y ", space::Sq(to), ": the flung weapon meets a wall at ",
                                 space::Sq(p), "; it must land on open ground within 2 m of ", t.id,
                                 " with no wall between"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckManeuver(const State& s, const Combatant& a, const fb::CommandT& c,
                           const ActOpts& o) {
  ASSIGN_OR_RETURN(const Combatant* t, Target(s, c, 0));
  const Weapon* w = ManeuverWeapon(a, c);
  if (!c.weapon.empty() && w == nullptr) {
    return absl::NotFoundError(absl::StrCat("command '", c.action, "': field 'weapon': ", a.id,
                                            " has no weapon '", c.weapon, "'"));
  }
  if (w != nullptr && !Wielding(a, w->name)) {
    return Refuse("002.items.equip", absl::StrCat(a.id, " is not wielding '", w->name, "'"));
  }
  RETURN_IF_ERROR(CheckAttackCommon(s, a, *t, c, w, true, o));
  const int as = SizeOf(a), ts = SizeOf(*t);
  if (c.action == "trip" && ts > as + 1) {
    return Refuse("002.maneuver.trip_size", absl::StrCat(t->id, " (", SizeName(ts),
                                                          ") is more than one size larger"));
  }
  if (UsesUnarmed(c.action) && ts > as) {
    return Refuse(c.action == "push" ? "002.maneuver.push_size" : "002.maneuver.restrain_size",
                   absl::StrCat(t->id, " (", SizeName(ts), ") is larger than ", a.id));
  }
  Cost cost;
  cost.energy = EnergyForMelee(a, c, w == nullptr);
  if (c.action == "disarm") {
    if (!FacesSpace(*t, a)) {  // l.565 "facing you", l.402
      return Refuse("002.maneuver.disarm", absl::StrCat(t->id, " is not facing ", a.id));
    }
    const Weapon* tw = TargetWeapon(*t, c);
    if (tw == nullptr) {
      return Refuse("002.maneuver.disarm", absl::StrCat(t->id, " wields no such weapon"));
    }
    if (w != nullptr && w->category == "light" && tw->category == "heavy") {
      return Refuse("002.maneuver.disarm_light", "a light weapon may not disarm a heavy weapon");
    }
    if (HasParam(c, "fling_x") != HasParam(c, "fling_y")) {
      return Malformed(c, "params.fling_x", "fling_x and fling_y go together");
    }
    if (HasParam(c, "fling_x") && !o.resolving) {
      // Declared with a fling it cannot make: refused. As it resolves the
      // fling is an option of the result (l.565 "you may also"), checked
      // then (ResolveManeuver), no condition of the disarm.
      RETURN_IF_ERROR(FlingRefusal(s, *t, *tw, c));
      cost.agility = 1;
    }
  }
  if (c.action == "push") {
    if (ParamOr(c, "sprint_push", 0) == 1) {
      // l.587: "if you Sprinted from at least 3m away before the attack":
      // the Sprint just made began at least 3 m from the target (where it
      // began, not how far it went).
      if (a.Resource(res::kSprinted, 0) <= 0) {
        return Refuse("002.maneuver.push_sprint",
                       absl::StrCat(a.id, " did not just sprint (a Sprint push follows a "
                                          "Sprint begun at least 3 m from the target)"));
      }
      // The push is "a part of a Sprint Action" (l.587), and "You cannot
      // start an action in one Round and complete it in another" (l.105):
      // the Sprint must be this Round's. Its last move is the Sprint
      // (`sprinted`), so it moved this Round (`moved_m`) only if the Sprint
      // was this Round's; back-to-back movement itself carries over.
      if (a.Resource(res::kMoved, 0) <= 0) {
        return Refuse("002.rounds.span",
                       absl::StrCat(a.id, "'s Sprint was last Round: a Sprint push is part "
                                          "of the Sprint Action, which cannot end in "
                                          "another Round"));
      }
      const Pos from{static_cast<int32_t>(a.Resource(res::kSprintFromX, 0)),
                     static_cast<int32_t>(a.Resource(res::kSprintFromY, 0))};
      const int64_t away = space::Distance(kGrid, from, a.size, t->at, t->size);
      if (away < 3) {
        return Refuse("002.maneuver.push_sprint",
                       absl::StrCat(a.id, "'s sprint began at (", from.x, ",", from.y,
                                    "), ", away, " m from ", t->id,
                                    "; a Sprint push needs a Sprint begun at least 3 m away"));
      }
    }
    RETURN_IF_ERROR(PushPath(s, a, *t, c).status());
  }
  if (ParamOr(c, "swift", 0) == 1) RETURN_IF_ERROR(CheckSwift(s, a, *t));
  RETURN_IF_ERROR(ReadCostParams(c, cost));
  return CheckCost(s, a, cost, c.action);
}

absl::StatusOr<Outcome> ResolveManeuver(Decision& d, const fb::CommandT& c,
                                        uint64_t cause, const ActOpts& o) {
  const std::string aid = c.actor, tid = c.targets[0];
  const Combatant* a = d.state().Find(aid);
  const Weapon* w = ManeuverWeapon(*a, c);
  const Weapon wcopy = w ? *w : Weapon{};
  const bool swift = ParamOr(c, "swift", 0) == 1;
  // Computed before resolution: the push path from where the target stood.
  std::vector<Pos> push_path;
  if (c.action == "push") {
    ASSIGN_OR_RETURN(push_path, PushPath(d.state(), *a, *d.state().Find(tid), c));
  }
  Cost cost;
  cost.energy = EnergyForMelee(*a, c, w == nullptr);
  RETURN_IF_ERROR(ReadCostParams(c, cost));
  RETURN_IF_ERROR(Pay(d, aid, cost, {cause, swift ? "002.swift" : "002.maneuver",
                                     {{"energy", cost.energy}}, c.action}));
  if (swift) {
    RETURN_IF_ERROR(SetResource(d, aid, res::kSwiftUsed, 1, {cause, "002.swift.once", {}, ""}));
  }
  const bool unexposed_at_start = !swift && !Active(*d.state().Find(tid), "Exposed");
  MeleeSpec spec;
  spec.kind = c.action;
  spec.weapon = w ? &wcopy : nullptr;
  spec.av_penalty = 5;
  spec.defense_edge_adv = unexposed_at_start ? 1 : 0;
  ASSIGN_OR_RETURN(MeleeResult r, MeleeAttackRoll(d, c, spec, cause));
  Outcome out;
  out.nums = r.nums;
  out.nums.push_back({"energy", cost.energy});
  // A Critical Hit Exposes the target "during the attack, not after"
  // (l.172, l.176, l.392), and a melee attack "may choose to make use of
  // any effects that ... began during the attack" (l.158): the maneuver is
  // then one against an Exposed target, so l.553 neither makes the attacker
  // Unguarded nor gives the target Advantage on its save (a critical hit
  // rolls no Evasion, so that save would be its first Defense roll).
  const bool unguarded_penalty = unexposed_at_start && !r.crit;
  if (unexposed_at_start && r.crit) {
    out.nums.push_back({"exposed_by_critical", 1});
  }
  if (unguarded_penalty) {
    Impose u;
    u.actor = aid;
    u.name = "Unguarded";
    u.source = c.action;
    u.expiry = EndOfRound(d.state());
    RETURN_IF_ERROR(AddWithDaughters(d, u, {cause, "002.maneuver.unguarded", {},
                                            "a maneuver against a target that is not Exposed"})
                        .status());
    out.nums.push_back({"maneuver_vs_unexposed", 1, tid + " not Exposed", "002.maneuver.unguarded"});
  }
  if (!r.hit) {
    // l.476: "Being Pushed or failing a Push Combat Maneuver" makes you
    // Unguarded: a push that misses has failed too (l.585 names the failed
    // save). Already Unguarded by l.553 when the target was not Exposed.
    if (c.action == "push" && !unguarded_penalty) {
      Impose u;
      u.actor = aid;
      u.name = "Unguarded";
      u.source = "push";
      u.expiry = EndOfRound(d.state());
      RETURN_IF_ERROR(AddWithDaughters(d, u, {cause, "002.maneuver.push_miss", {},
                                              "failing a Push Combat Maneuver (l.476)"})
                          .status());
      out.nums.push_back({"push_failed", 1});
    }
    out.rule = r.crit_fail ? "002.melee.critical_failure" : "002.maneuver";
    out.text = absl::StrCat(c.action, ": the attack misses");
    return out;
  }
  if (c.action == "restrain") {
    Impose holding;
    holding.actor = aid;
    holding.name = "Restraining";
    holding.source = aid;
    holding.relative_to = tid;
    holding.expiry = Forever();
    ASSIGN_OR_RETURN(uint32_t hid, AddWithDaughters(d, holding, {cause, "002.maneuver.restrain", r.nums, ""}));
    Impose held;
    held.actor = tid;
    held.name = "Restrained";
    held.source = aid;
    held.relative_to = aid;
    held.expiry = Forever();
    held.parent = hid;  // released when the hold ends (l.688)
    RETURN_IF_ERROR(AddWithDaughters(d, held, {cause, "002.maneuver.restrain", {},
                                               absl::StrCat("held by ", aid)})
                        .status());
    out.rule = "002.maneuver.restrain";
    out.text = absl::StrCat(tid, " is Restrained by ", aid);
    return out;
  }
  // The Fortitude save (l.557, l.565, l.583).
  const Combatant* t = d.state().Find(tid);
  const bool evasion_rolled = !r.crit && !r.crit_fail && !t->Has("Asleep") &&
                              !Active(*t, "FullyRestrained") && !t->Has("Unconscious");
  Edges edges = EdgeOnDefense(*t, false, "");
  if (t->Has("Unconscious") && !Active(*t, "Surprised")) {
    // l.653, l.686: creatures "may automatically hit you (and Surprise you)
    // with melee attacks", and a maneuver is one (l.551): Surprised has
    // Disadvantage on its Defense rolls (l.493, l.678), this save among them.
    edges.dis.push_back({"surprised", "Unconscious on " + tid, "002.unconscious"});
  }
  if (unguarded_penalty && !evasion_rolled) {
    // l.553: the first Defense roll of the maneuver is this save.
    edges.adv.push_back({"maneuver_first_defense", absl::StrCat(c.action, " by ", aid),
                         "002.maneuver.unguarded"});
  }
  if (c.action == "trip" && o.moving_target) {  // l.559
    edges.dis.push_back({"moving", tid + " moving", "002.maneuver.trip_moving"});
  }
  Nums parts;
  const int64_t fort = Fortitude(*t, &parts);
  ASSIGN_OR_RETURN(DefenseRoll save,
                   RollDefense(d, tid, 10, fort, edges.mode(), "fortitude save", cause));
  for (const Num& p : parts) out.nums.push_back({"fort." + p.key, p.value, p.source, p.rule});
  out.nums.push_back({"fortitude_dice", save.dice_sum});
  out.nums.push_back({"fortitude_total", save.total});
  out.nums.push_back({"save_vs_av", r.av_base});
  edges.AddTo(out.nums, "save");
  const bool defending = d.state().Find(tid)->Has("Defending");
  t = d.state().Find(tid);
  const bool saved = defending ? save.total >= r.av_base : save.total > r.av_base;
  if (saved) {
    if (c.action == "push") {
      Impose u;
      u.actor = aid;
      u.name = "Unguarded";
      u.source = "push";
      u.expiry = EndOfRound(d.state());
      RETURN_IF_ERROR(AddWithDaughters(d, u, {cause, "002.maneuver.push_fail", out.nums, ""}).status());
    }
    out.rule = c.action == "push" ? "002.maneuver.push_fail" : absl::StrCat("002.maneuver.", c.action);
    out.text = absl::StrCat(tid, " resists the ", c.action, " (Fortitude ", save.total,
                            " vs ", r.av_base, ")");
    return out;
  }
  if (c.action == "trip") {
    Impose p;
    p.actor = tid;
    p.name = "Prone";
    p.source = aid;
    p.expiry = Forever();  // until it kneels (l.33)
    if (d.state().Find(tid)->Has("Kneeling")) {
      // l.146: "a Swift Attack which knocks you back down": no longer kneeling.
      RETURN_IF_ERROR(RemoveConditionsNamed(d, tid, "Kneeling",
                                            {cause, "002.maneuver.trip", {}, "knocked back down"}));
    }
    RETURN_IF_ERROR(AddWithDaughters(d, p, {cause, "002.maneuver.trip", out.nums, ""}).status());
    out.rule = "002.maneuver.trip";
    out.text = absl::StrCat(tid, " is knocked Prone");
    return out;
  }
  if (c.action == "disarm") {
    const std::string name = TargetWeapon(*t, c)->name;
    Pos at = t->at;
    int64_t flung = 0;
    if (HasParam(c, "fling_x")) {
      // l.565 "you may also spend 1 Agility to fling the weapon": an option
      // of the result, paid as it occurs (l.138). A disarmer that can no
      // longer fling it (no Agility left, Slowed l.674, or the landing
      // square out of 2 m of where the target now stands) still disarms:
      // the weapon drops in the target's space.
      Cost fling;
      fling.agility = 1;
      absl::Status can = FlingRefusal(d.state(), *t, *TargetWeapon(*t, c), c);
      if (can.ok()) can = CheckCost(d.state(), *d.state().Find(aid), fling, "the fling");
      if (can.ok()) {
        at = {static_cast<int32_t>(ParamOr(c, "fling_x", 0)), static_cast<int32_t>(ParamOr(c, "fling_y", 0))};
        RETURN_IF_ERROR(Pay(d, aid, fling, {cause, "002.maneuver.disarm", {{"agility", 1}}, "fling"}));
        flung = 1;
      } else {
        out.nums.push_back({"fling_not_made", 1, std::string(can.message()), "002.maneuver.disarm"});
      }
    }
    RETURN_IF_ERROR(DropWeapon(d, tid, name, at, {cause, "002.maneuver.disarm", out.nums,
                                                  flung ? "flung" : "dropped in its space"}));
    out.rule = "002.maneuver.disarm";
    out.text = absl::StrCat(tid, " drops '", name, "'", flung ? " (flung)" : "");
    return out;
  }
  // push
  Impose u;
  u.actor = tid;
  u.name = "Unguarded";
  u.source = "pushed";
  u.expiry = EndOfRound(d.state());
  RETURN_IF_ERROR(AddWithDaughters(d, u, {cause, "002.maneuver.push", out.nums, "being Pushed (l.476)"})
                      .status());
  const std::string rule = ParamOr(c, "sprint_push", 0) == 1 ? "002.maneuver.push_sprint" : "002.maneuver.push";
  RETURN_IF_ERROR(MoveAlong(d, tid, push_path, static_cast<int64_t>(push_path.size()), true,
                            {cause, rule, {{"metres", static_cast<int64_t>(push_path.size())}}, "pushed"}));
  out.rule = rule;
  out.text = absl::StrCat(tid, " is pushed ", push_path.size(), " m and Unguarded");
  return out;
}

namespace {

struct Holder {
  std::string id;          // "" when the environment holds
  uint32_t restraining = 0;
  uint32_t restrained = 0;
  int64_t dc = 0;  // l.575: the DC when no creature holds (the GM's number)
};

Holder FindHolder(const State& s, const Combatant& a) {
  Holder h;
  for (const auto& [id, k] : a.conditions) {
    if (k.name != "Restrained") continue;
    h.restrained = id;
    if (k.level > 0) h.dc = k.level;
    if (k.parent != 0) {
      for (const auto& [cid, other] : s.combatants) {
        auto it = other.conditions.find(k.parent);
        if (it != other.conditions.end() && it->second.name == "Restraining") {
          h.id = cid;
          h.restraining = k.parent;
        }
      }
    }
    break;
  }
  return h;
}

}  // namespace

absl::Status CheckEscape(const State& s, const Combatant& a, const fb::CommandT& c,
                         const ActOpts&) {
  if (!a.Has("Restrained")) return Refuse("002.maneuver.escape", absl::StrCat(a.id, " is not Restrained"));
  // l.575: "(or contested by a DC if there is no restrainer)": the text
  // gives no number, so the GM sets it as the condition's level.
  if (const Holder h = FindHolder(s, a); h.id.empty() && h.dc <= 0) {
    return Refuse("002.maneuver.escape",
                  absl::StrCat(a.id, " is Restrained by no creature and the GM has set no DC "
                                     "(gm_condition name=Restrained level=<DC>)"));
  }
  // `with`: fortitude, leg or arm (verbs.cc). `hold_with`: l.575 "contested
  // by the Arm Strength Check or Fortitude roll of the restrainer" does not
  // say who picks the restrainer's roll: a GM ruling point (reading 22).
  if (!ParamText(c, "hold_with").empty()) {
    if (c.role != fb::Role::GM) {
      return Refuse("002.maneuver.escape",
                    "params.hold_with: which roll the restrainer makes (l.575) is the GM's "
                    "ruling; leave it out (the restrainer's better roll) or the GM submits it");
    }
    if (FindHolder(s, a).id.empty()) {
      return Refuse("002.maneuver.escape",
                    absl::StrCat("params.hold_with: ", a.id,
                                 " is Restrained by no creature; the escape is against the DC"));
    }
  }
  Cost cost;
  cost.energy = 3;
  RETURN_IF_ERROR(ReadCostParams(c, cost));
  return CheckCost(s, a, cost, "escaping");
}

absl::StatusOr<Outcome> ResolveEscape(Decision& d, const fb::CommandT& c,
                                      uint64_t cause, const ActOpts&) {
  const std::string aid = c.actor;
  Cost cost;
  cost.energy = 3;
  RETURN_IF_ERROR(ReadCostParams(c, cost));
  RETURN_IF_ERROR(Pay(d, aid, cost, {cause, "002.maneuver.escape", {{"energy", 3}}, ""}));
  const Combatant* a = d.state().Find(aid);
  const Holder h = FindHolder(d.state(), *a);
  Nums n;
  const std::string with = ParamText(c, "with").empty() ? "fortitude" : ParamText(c, "with");
  int64_t mine = 0;
  // l.318: "Defense rolls are any rolls made to defend against an attack";
  // an escape (l.575) is no attack, so neither the escapee's roll nor the
  // restrainer's is a Defense roll: Surprised (l.678 "Disadvantage on your
  // Defense rolls") and Dazed (l.670 "Defense rolls, Attack rolls, and
  // Skill Checks") give them no Disadvantage. A Fortitude roll still
  // explodes (l.354 "1d10*").
  if (with == "fortitude") {
    ASSIGN_OR_RETURN(DefenseRoll r, RollDefense(d, aid, 10, Fortitude(*a, nullptr), 0,
                                                "escape: fortitude roll", cause));
    mine = r.total;
  } else {
    const int64_t bonus = a->Stat(with == "leg" ? "leg_strength" : "arm_strength", 0);
    ASSIGN_OR_RETURN(int d20, RollD20(d, aid, 0, absl::StrCat("escape: ", with, " strength check"), cause));
    mine = d20 + bonus;
    n.push_back({"escape_d20", d20});
    n.push_back({"escape_bonus", bonus});
  }
  n.push_back({"escape_total", mine});
  int64_t theirs = h.dc;
  if (!h.id.empty()) {
    const Combatant* r = d.state().Find(h.id);
    // The restrainer's roll (l.575 "the Arm Strength Check or Fortitude
    // roll of the restrainer"): the GM's `hold_with` (reading 22), else
    // its better option (reading 22): Fortitude when its Fortitude is at
    // least its Arm Strength + 5, else an Arm Strength check.
    const int64_t fort = Fortitude(*r, nullptr);
    const int64_t arm = r->Stat("arm_strength", 0);
    const std::string hold_with = ParamText(c, "hold_with");
    if (hold_with == "fortitude" || (hold_with.empty() && fort >= arm + 5)) {
      ASSIGN_OR_RETURN(DefenseRoll rr, RollDefense(d, h.id, 10, fort, 0,
                                                   "hold: fortitude roll", cause));
      theirs = rr.total;
      n.push_back({"hold_fortitude", theirs});
    } else {
      ASSIGN_OR_RETURN(int d20, RollD20(d, h.id, 0, "hold: arm strength check", cause));
      theirs = d20 + arm;
      n.push_back({"hold_d20", d20});
      n.push_back({"hold_arm", arm});
    }
  } else {
    n.push_back({"dc", theirs});
  }
  n.push_back({"hold_total", theirs});
  if (mine <= theirs) {  // contested: the hold stands on a tie (reading)
    return Outcome{absl::StrCat("fails to escape (", mine, " vs ", theirs, ")"),
                   "002.maneuver.escape", n};
  }
  if (h.restraining != 0) {
    RETURN_IF_ERROR(RemoveCondition(d, h.id, h.restraining, {cause, "002.maneuver.escape", n, "escaped"}));
  } else if (h.restrained != 0) {
    RETURN_IF_ERROR(RemoveCondition(d, aid, h.restrained, {cause, "002.maneuver.escape", n, "escaped"}));
  }
  return Outcome{absl::StrCat("escapes (", mine, " vs ", theirs, ")"), "002.maneuver.escape", n};
}

absl::Status DecideRelease(const fb::CommandT& c, Decision& d) {
  ASSIGN_OR_RETURN(const Combatant* a, Actor(d.state(), c));
  const Condition* hold = a->FindCondition("Restraining");
  if (hold == nullptr) {
    return Refuse("002.cond.restraining", absl::StrCat(a->id, " is not restraining anyone"));
  }
  // Letting go is the restrainer's doing (l.571 "you are Holding them"):
  // the unconscious and the dead do nothing (l.653, l.686; acts.cc
  // StopReason), so their hold stands until the GM ends it (reading 41:
  // `release` by the GM, or gm_condition op=remove name=Restraining).
  if (c.role != fb::Role::GM && (a->Has("Unconscious") || a->Has("Dead"))) {
    const bool dead = a->Has("Dead");
    return Refuse(dead ? "002.death.dead" : "002.cond.unconscious",
                  absl::StrCat("command 'release': field 'actor': ", a->id, " is ",
                               dead ? "dead" : "unconscious",
                               " and cannot let go; the GM may end the hold (release as GM, "
                               "or gm_condition op=remove name=Restraining)"));
  }
  const std::string id = a->id;
  const uint32_t hid = hold->id;
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  return RemoveCondition(d, id, hid, {decl, "002.cond.restraining", {}, "lets go"});
}

}  // namespace combat::kernel::energy
