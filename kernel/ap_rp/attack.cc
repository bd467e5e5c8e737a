// Attacks (l.51-58, l.60-62, l.110-112): d20 + hit bonus against Evasion,
// objects hit automatically, choosing to miss, melee 1 m ignoring cover,
// ranged at disadvantage within melee range of an enemy, criticals and
// critical misses, non-lethal damage, half and full cover, the creature in
// front (l.111) and the mount of a climber (l.32) taking the misses.
//
// Weapons (roster): kind "melee", "ranged" or "ability"; category
// "<primary>/<secondary>" (e.g. "str/dex", l.53); damage dice of
// damage_type (default physical); numbers: "dmg_<type>" flat damage of a
// second type (l.65), "reach" extra melee metres, "tier" (abilities, l.56).
// Ranged range in metres: range_increment. Ability attacks take the
// Archetype's tags primary:<stat> / secondary:<stat> (l.54).
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "events/status_macros.h"
#include "kernel/ap_rp/internal.h"
#include "kernel/command.h"
#include "kernel/fold.h"

namespace combat::kernel::aprp {
namespace {

int64_t Num(const Weapon& w, const std::string& k, int64_t otherwise = 0) {
  auto it = w.numbers.find(k);
  return it == w.numbers.end() ? otherwise : it->second;
}

bool IsAbility(const Weapon& w) { return w.kind == "ability"; }
bool IsRanged(const Weapon& w) { return w.kind == "ranged" || (IsAbility(w) && w.range_increment > 1); }

int64_t Reach(const Weapon& w) { return 1 + Num(w, "reach"); }  // l.55: 1 m

// Hit bonus of `a` with `w` (l.53, l.54).
int64_t WeaponHitBonus(const Combatant& a, const Weapon& w, Nums* nums) {
  std::string primary;
  std::string secondary;
  if (IsAbility(w)) {
    primary = TagValue(a, "primary");
    secondary = TagValue(a, "secondary");
  } else {
    std::vector<std::string> ps = absl::StrSplit(w.category, '/');
    primary = ps.size() > 0 ? ps[0] : "";
    secondary = ps.size() > 1 ? ps[1] : "";
  }
  const int64_t pb = IsStat(primary) ? StatBonus(a, primary) : 0;
  const int64_t sb = IsStat(secondary) ? StatBonus(a, secondary) : 0;
  nums->push_back({"primary_bonus", pb});
  nums->push_back({"secondary_bonus", sb});
  const int64_t hb = HitBonus(pb, sb);
  nums->push_back({"hit_bonus", hb});
  return hb;
}

const Weapon* WeaponOf(const Combatant& a, const fb::CommandT& c) {
  if (!c.weapon.empty()) return a.FindWeapon(c.weapon);
  return a.weapons.empty() ? nullptr : &a.weapons.front();
}

// l.55: "within melee range of an enemy": the enemy's melee range, 1 m
// ("Melee attacks have a base range of 1 m") or its longest melee weapon's.
int64_t MeleeRange(const Combatant& o) {
  int64_t r = 1;
  for (const Weapon& w : o.weapons) {
    if (w.kind == "melee") r = std::max(r, Reach(w));
  }
  return r;
}

// The first enemy (id order) within whose melee range `a` stands, or "".
std::string EnemyWithin1m(const State& s, const Combatant& a) {
  for (const auto& [id, o] : s.combatants) {
    if (id != a.id && Alive(o) && Enemies(a, o) && Dist(a, o) <= MeleeRange(o)) return id;
  }
  return "";
}

std::vector<DamagePart> Parts(const Weapon& w, int64_t main) {
  std::vector<DamagePart> parts;
  parts.push_back({w.damage_type.empty() ? "physical" : w.damage_type, main});
  for (const auto& [k, v] : w.numbers) {  // map: key order
    if (k.rfind("dmg_", 0) == 0) parts.push_back({k.substr(4), v});
  }
  return parts;
}

// Whether the total `total` (natural `nat`) hits `t` with `evasion`.
bool Hits(int nat, int64_t total, int64_t evasion) {
  if (nat == 1) return false;   // l.57
  if (nat == 20) return true;   // l.56: a critical hit (reading: it hits)
  return total >= evasion;      // l.52, l.60
}

absl::Status Damage(Decision& d, const Combatant& a, const Weapon& w,
                    const std::string& target, bool crit,
                    const fb::CommandT& c, uint64_t cause) {
  const std::string who = a.id;
  ASSIGN_OR_RETURN(dice::RollResult r, d.Roll(w.damage, "damage", who, cause));
  int64_t main = r.total;
  Nums nums{{"rolled", r.total}};
  const int64_t tier = IsAbility(w) ? Num(w, "tier") : 0;
  if (crit) {
    // l.56: +6 with weapons; Abilities +6 +3 per Tier; a Maneuver +3 x Tier.
    const int64_t extra = 6 + (IsAbility(w) ? 3 * tier : 0) + 3 * ParamOr(c, "maneuver_tier", 0);
    main += extra;
    nums.push_back({"critical", extra, "", "004.attack.critical"});
  }
  DamageOpts o;
  o.nonlethal = ParamOr(c, "nonlethal", 0) != 0;
  o.lethal_holy = ParamOr(c, "lethal_holy", 0) != 0;
  o.ignore_armor = ParamOr(c, "ignore_armor", 0);
  o.armor_from = ParamText(c, "armor_from");
  std::vector<DamagePart> parts = Parts(w, main);
  if (o.nonlethal) {
    // l.58: -1d4 with a weapon; an Ability -1d4 plus 1d4 per Tier.
    ASSIGN_OR_RETURN(dice::RollResult nl,
                     d.Roll(absl::StrCat(1 + tier, "d4"), "non-lethal", who, cause));
    // l.58 "subtract a 1d4 from the damage": from the attack's damage as a
    // whole: the dice's part first, what it cannot absorb off the other
    // parts (1d6 Physical 2 + 5 Poison - 4 = 3); never below 0.
    int64_t left = nl.total;
    for (DamagePart& p : parts) {
      const int64_t take = std::min(left, std::max<int64_t>(0, p.amount));
      p.amount -= take;
      left -= take;
    }
    nums.push_back({"nonlethal_minus", nl.total, "", "004.attack.nonlethal"});
  }
  return ApplyDamage(d, target, parts, o, cause, nums).status();
}

}  // namespace

// l.112: leaning out of full cover, the attacker sees and targets as if it
// stood in the square next to it (params lean_x, lean_y).
Combatant Viewpoint(const Combatant& a, const fb::CommandT& c) {
  Combatant v = a;
  if (HasParam(c, "lean_x")) {
    v.at = Pos{static_cast<int32_t>(ParamOr(c, "lean_x", 0)), static_cast<int32_t>(ParamOr(c, "lean_y", 0))};
  }
  return v;
}

const Condition* DroppedWeapon(const Combatant& c, const std::string& name) {
  if (name.empty()) return nullptr;
  for (const auto& [id, k] : c.conditions) {
    if (k.name == kDisarmed && k.note == name) return &k;
  }
  return nullptr;
}


// l.36: "You stop being hidden if ... you take any action that would clearly
// give away your location. You stay hidden until the end of the turn if this
// happens during your turn."
absl::Status GiveAway(Decision& d, const std::string& who, uint64_t cause, const std::string& why) {
  const Combatant a = *d.state().Find(who);
  std::vector<uint32_t> reveal;
  for (const auto& [id, k] : a.conditions) {
    if (k.name == kHidden && k.expiry.kind == fb::ExpiryKind::Never) reveal.push_back(id);
  }
  const bool own_turn = d.state().IsTurnOf(who);
  for (uint32_t id : reveal) {
    const Condition k = d.state().Find(who)->conditions.at(id);
    RETURN_IF_ERROR(RemoveCondition(d, who, id, {cause, "004.hide", {}, why}));
    if (!own_turn) continue;  // only during its own turn does it stay hidden to the end
    NewCondition h;
    h.actor = who;
    h.name = kHidden;
    h.source = k.source;
    h.relative_to = k.relative_to;
    h.expiry = Expiry{fb::ExpiryKind::TurnEnd, who, d.state().round};
    RETURN_IF_ERROR(AddCondition(d, h, {cause, "004.hide", {}, "hidden until the end of the turn (l.36)"}).status());
  }
  return absl::OkStatus();
}

// l.36 "You stop being hidden if an enemy sees you ... You stay hidden until
// the end of the turn if this happens during your turn": the GM rules that
// an enemy sees the creature (gm_condition remove Hidden, README "sees
// you"); on the creature's own turn each Hidden so ended (one lasting until
// found, not one already to the end of the turn) is recorded again until
// the end of the turn, as GiveAway does. Its ConditionAdded is read from
// the log (the ConditionRemoved names no enemy).
absl::Status AfterGmUnhide(Decision& d, const fb::CommandT& c, uint64_t ruling) {
  if (c.action != "gm_condition" || ParamText(c, "op") != "remove" || ParamText(c, "name") != kHidden) {
    return absl::OkStatus();
  }
  const std::string who = c.actor;
  if (!d.state().IsTurnOf(who)) return absl::OkStatus();
  std::vector<uint32_t> removed;
  for (const events::EventBuffer& e : d.events()) {
    const fb::StateChange* sc = e.event().body_as_StateChange();
    const auto* r = sc == nullptr ? nullptr : sc->change_as_ConditionRemoved();
    if (r != nullptr && r->actor() != nullptr && r->actor()->str() == who && r->name() != nullptr &&
        r->name()->str() == kHidden) {
      removed.push_back(r->id());
    }
  }
  if (removed.empty()) return absl::OkStatus();
  const std::vector<uint64_t> voided = d.state().voided;
  std::vector<fb::ConditionAddedT> back;
  RETURN_IF_ERROR(d.Scan(d.state().seq, [&](const fb::Event& e) -> absl::Status {
    if (IsVoided(e, voided)) return absl::OkStatus();
    const fb::StateChange* sc = e.body_as_StateChange();
    const auto* a = sc == nullptr ? nullptr : sc->change_as_ConditionAdded();
    if (a == nullptr || std::find(removed.begin(), removed.end(), a->id()) == removed.end()) {
      return absl::OkStatus();
    }
    fb::ConditionAddedT t;
    a->UnPackTo(&t);
    if (t.expiry == nullptr || t.expiry->kind == fb::ExpiryKind::Never) back.push_back(std::move(t));
    return absl::OkStatus();
  }));
  for (const fb::ConditionAddedT& a : back) {
    NewCondition h = AsNew(a);
    h.parent = 0;
    h.expiry = Expiry{fb::ExpiryKind::TurnEnd, who, d.state().round};
    RETURN_IF_ERROR(AddCondition(d, h, {ruling, "004.hide", {},
                                        "an enemy sees it during its own turn: hidden until the end of the turn "
                                        "(l.36)"}).status());
  }
  return absl::OkStatus();
}

// Reading of l.110-112: a wall anywhere on the line between the centres
// blocks it (full cover); a full_cover object next to either end blocks it
// (it covers the one behind it, who sees past it only by leaning); a
// half_cover object or a creature of the target's size or bigger next to
// the target gives half cover.
Cover CoverOf(const State& s, const Combatant& from, const Combatant& target, const std::string& ignore) {
  Cover out;
  bool leant = false;
  for (const Pos& p : space::LineBetween(from.at, from.size, target.at, target.size)) {
    if (space::Covers(from.at, from.size, p) || space::Covers(target.at, target.size, p)) continue;
    const std::string terrain = s.TerrainAt(p);
    const bool by_target = space::Distance(kGrid, p, 1, target.at, target.size) <= 1;
    const bool by_from = space::Distance(kGrid, p, 1, from.at, from.size) <= 1;
    const bool full = terrain == "wall" || (terrain == "full_cover" && (by_target || by_from));
    if (full && by_target && target.Has(kLeaning)) {
      // l.112: "While you are in full cover, you can lean ... You have half
      // cover while leaning out of full cover": the full cover it leans out
      // of, the wall or full_cover next to it (InFullCoverFrom), is half
      // cover; l.111 "from the direction of the cover": where the line
      // crosses it. Any other full cover on the line (the attacker's own,
      // one between them) is not the one it leans out of: it still blocks.
      leant = true;
      continue;
    }
    if (full) {
      out.level = 2;
      out.by = terrain + " at " + space::Sq(p);
      return out;
    }
    if (!by_target) continue;
    if (terrain == "half_cover") {
      out.level = std::max(out.level, 1);
      if (out.by.empty()) out.by = "half_cover at " + space::Sq(p);
    }
    const Combatant* o = s.OccupantAt(p, target.id);
    if (o != nullptr && o->id != from.id && o->id != ignore && SizeCat(*o) >= SizeCat(target) &&
        !(o->Has(kTakingCover) && SizeCat(*o) == SizeCat(target))) {
      out.level = std::max(out.level, 1);  // l.111 (and l.25)
      // l.111: the misses go on to a creature in front ("Standing behind a
      // creature ... all attacks that miss you target the creature in
      // front of you"), not to an object giving the half cover.
      if (out.front.empty() && !IsObject(*o)) out.front = o->id;
      if (out.by.empty()) out.by = o->id + " in front of " + target.id;
    }
  }
  if (leant) {
    // It is seen as from the square leant towards (l.112): half cover, no
    // creature in front of it to take the misses.
    out.level = 1;
    out.front.clear();
    out.by = "leaning " + target.id;
  }
  return out;
}

Cover CoverOf(const State& s, const Combatant& from, const Combatant& target) {
  return CoverOf(s, from, target, "");
}

// l.112 "While you are in full cover, you can lean": whether `from` itself
// stands in full cover from `target` — a wall or full_cover object on the
// line between them next to `from` (reading: the object it stands behind;
// a target behind its own full cover does not put the attacker in cover).
bool InFullCoverFrom(const State& s, const Combatant& from, const Combatant& target) {
  for (const Pos& p : space::LineBetween(from.at, from.size, target.at, target.size)) {
    if (space::Covers(from.at, from.size, p) || space::Covers(target.at, target.size, p)) continue;
    const std::string terrain = s.TerrainAt(p);
    if ((terrain == "wall" || terrain == "full_cover") &&
        space::Distance(kGrid, p, 1, from.at, from.size) <= 1) {
      return true;
    }
  }
  return false;
}

absl::Status CheckLean(const State& s, const Combatant& a, const Combatant& t, const fb::CommandT& c) {
  if (HasParam(c, "lean_x") != HasParam(c, "lean_y")) {
    return Malformed(c, HasParam(c, "lean_x") ? "params.lean_y" : "params.lean_x", "lean_x and lean_y go together");
  }
  if (!HasParam(c, "lean_x")) return absl::OkStatus();
  const Pos lean = Viewpoint(a, c).at;
  if (a.size != 1 || !space::CheckStep(kGrid.metric, a.at, lean)) {
    return Malformed(c, "params.lean_x", "a square next to " + a.id + ", who leans (l.112)");
  }
  const std::string terrain = s.TerrainAt(lean);
  if (terrain == "wall" || terrain == "full_cover" || terrain == "offmap" || s.OccupantAt(lean, a.id) != nullptr) {
    return Refuse("004.cover.full", "the square leant towards, " + space::Sq(lean) + ", is not free");
  }
  // l.112 "While you are in full cover, you can lean towards a space next
  // to you ... You have half cover while leaning out of full cover":
  // leaning is out of full cover (from the target), not from the open.
  if (!InFullCoverFrom(s, a, t)) {
    return Refuse("004.cover.full", a.id + " is not in full cover from " + t.id +
                                        ": there is nothing to lean out of");
  }
  return absl::OkStatus();
}

absl::Status AddLeaning(Decision& d, const std::string& who, const Pos& at, uint64_t cause) {
  if (d.state().Find(who)->Has(kLeaning)) return absl::OkStatus();
  NewCondition l;
  l.actor = who;
  l.name = kLeaning;
  l.source = who;
  l.note = space::Sq(at);
  // Reading: until the end of the turn it leans on: its own, or, for a
  // held attack fired on another's turn (l.9) or an effect the GM applies
  // then, that turn (the creature's own turn this round may have ended
  // already: it would never end).
  const bool own = d.state().IsTurnOf(who);
  l.expiry = Expiry{fb::ExpiryKind::TurnEnd, own ? who : d.state().active, d.state().round};
  return AddCondition(d, l, {cause, "004.cover.full", {},
                             own ? "leaning out of full cover: half cover (reading: until the end of its turn)"
                                 : "leaning out of full cover: half cover (reading: until the end of " +
                                       d.state().active + "'s turn, on which it leans)"}).status();
}

absl::Status CheckArmorFrom(const Weapon& w, const fb::CommandT& c) {
  if (const std::string from = ParamText(c, "armor_from"); !from.empty()) {
    bool deals = false;
    for (const DamagePart& p : Parts(w, 1)) deals = deals || p.type == from;
    if (!deals) {
      return Malformed(c, "params.armor_from", absl::StrCat("a damage type ", w.name,
                                                           " deals (l.65: the attacker chooses among them)"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckAttack(const State& s, const Combatant& a, const fb::CommandT& c) {
  ASSIGN_OR_RETURN(const Combatant* t, Target(s, c));
  const Weapon* w = WeaponOf(a, c);
  if (w == nullptr) {
    std::string names;
    for (const auto& wp : a.weapons) names += (names.empty() ? "" : ", ") + wp.name;
    if (names.empty()) names = "none in the roster";
    return absl::NotFoundError(absl::StrCat(
        "command '", c.action, "': field 'weapon': ",
        c.weapon.empty() ? std::string("is required") : absl::StrCat(a.id, " has no weapon '", c.weapon, "'"),
        " (", a.id, "'s weapons: ", names, ")"));
  }
  if (t->id == a.id) return Malformed(c, "targets[0]", "an attack targets another");
  RETURN_IF_ERROR(CheckNotHiddenFrom(a, *t));
  if (const Condition* k = DroppedWeapon(a, w->name); k != nullptr) {
    // l.34 "to drop one item that it is holding in their hand": it no longer
    // wields it until it picks it up (Interact, l.19).
    return Refuse("004.disarm", absl::StrCat(a.id, " dropped ", w->name, " (disarmed by ", k->source,
                                             k->level != 0 ? ", who took it" : "; Interact takes=1 item to pick it up",
                                             ")"));
  }
  if (ParamOr(c, "maneuver_tier", 0) > 0 && IsAbility(*w)) {
    return Malformed(c, "params.maneuver_tier", "a Maneuver is added to a weapon attack (l.56), not an Ability attack");
  }
  RETURN_IF_ERROR(CheckArmorFrom(*w, c));
  RETURN_IF_ERROR(CheckLean(s, a, *t, c));
  const Combatant from = Viewpoint(a, c);
  const int64_t dist = Dist(from, *t);
  if (IsRanged(*w)) {
    if (w->range_increment > 0 && dist > w->range_increment) {
      return Refuse("004.attack.range", absl::StrCat(t->id, " is ", dist, " m away; ", w->name,
                                                     " reaches ", w->range_increment, " m"));
    }
    if (CoverOf(s, from, *t).level == 2) {
      return Refuse("004.cover.full", t->id + " is in full cover from " + a.id);
    }
  } else if (dist > Reach(*w)) {
    return Refuse("004.attack.range", absl::StrCat(t->id, " is ", dist, " m away; melee reaches ",
                                                   Reach(*w), " m"));
  } else if (CoverOf(s, from, *t).level == 2) {
    // l.55 "Melee attacks ... ignore cover": half cover's +2 (l.111); but
    // l.112 "you can no longer be targeted by any effects that come from
    // the direction of your full cover": a reach weapon does not strike
    // through a wall.
    return Refuse("004.cover.full", t->id + " is in full cover from " + a.id);
  }
  return absl::OkStatus();
}

absl::Status ResolveAttack(Decision& d, const fb::CommandT& c, uint64_t cause) {
  const State& s = d.state();
  const Combatant a = *s.Find(c.actor);
  const Combatant t = *s.Find(c.targets.front());
  const Weapon w = *WeaponOf(a, c);
  const Combatant from = Viewpoint(a, c);
  // l.36: attacking (even choosing to miss, l.52, or striking an object)
  // "would clearly give away your location"; leaning out (l.112) is how the
  // attack is made.
  auto give_away = [&]() -> absl::Status {
    RETURN_IF_ERROR(GiveAway(d, a.id, cause, "attacking gives the location away"));
    if (HasParam(c, "lean_x")) RETURN_IF_ERROR(AddLeaning(d, a.id, from.at, cause));
    return absl::OkStatus();
  };
  if (ParamOr(c, "miss", 0) != 0) {
    RETURN_IF_ERROR(RecordOutcome(d, t.id, {cause, "004.attack.roll", {}, "the attacker chooses to miss (l.52)"}));
    return give_away();
  }
  if (IsObject(t)) {
    RETURN_IF_ERROR(RecordOutcome(d, t.id, {cause, "004.attack.roll", {}, "an object is hit automatically (l.52)"}));
    RETURN_IF_ERROR(give_away());
    return Damage(d, a, w, t.id, false, c, cause);
  }
  Nums nums;
  const int64_t bonus = WeaponHitBonus(a, w, &nums);
  int64_t evasion = Evasion(t, &nums);
  int adv = 0;
  int dis = 0;
  if (t.Has(kDefending)) {
    ++dis;
    nums.push_back({"defending", 1, "defending " + t.id, "004.defend"});  // l.18
  }
  if (a.FindRelative(kHidden, t.id) != nullptr) {
    ++adv;
    nums.push_back({"hidden", 1, a.id + " hidden from " + t.id, "004.hide"});  // l.36
  }
  if (const Condition* cl = t.FindCondition(kClimbing); cl != nullptr && cl->relative_to == a.id) {
    ++dis;  // l.32: the mount attacking its climber
    nums.push_back({"climbed_on", 1, t.id + " climbing " + a.id, "004.climb"});
  }
  Cover cover;
  if (IsRanged(w)) {
    if (const std::string near = EnemyWithin1m(s, from); !near.empty()) {
      ++dis;  // l.55
      nums.push_back({"enemy_in_melee_range", 1, "in melee range of " + near, "004.attack.range"});
    }
    cover = CoverOf(s, from, t);  // l.112 leaning: half cover from its full cover's direction
    if (cover.level == 1) {
      evasion += 2;  // l.111
      nums.push_back({"half_cover", 2, cover.by, "004.cover.half"});
      if (t.Has(kTakingCover)) {
        evasion += 2;  // l.25
        nums.push_back({"taking_cover", 2, "taking cover " + t.id, "004.take_cover"});
      }
    }
  }
  const int mode = adv > 0 && dis == 0 ? 1 : (dis > 0 && adv == 0 ? -1 : 0);
  nums.push_back({"evasion", evasion});
  ASSIGN_OR_RETURN(dice::RollResult r, d.Roll(D20(mode, bonus), "attack", a.id, cause));
  const int nat = r.natural();
  nums.push_back({"natural", nat});
  nums.push_back({"total", r.total});
  RETURN_IF_ERROR(give_away());
  if (Hits(nat, r.total, evasion)) {
    const bool crit = nat == 20;
    RETURN_IF_ERROR(RecordOutcome(d, t.id, {cause, crit ? "004.attack.critical" : "004.evasion", nums,
                                            crit ? "critical hit" : "hit"}));
    return Damage(d, a, w, t.id, crit, c, cause);
  }
  RETURN_IF_ERROR(RecordOutcome(d, t.id, {cause, nat == 1 ? "004.attack.fumble" : "004.evasion", nums,
                                          nat == 1 ? "critical miss" : "miss"}));
  if (nat == 1) return absl::OkStatus();
  // A miss goes on to the creature in front (l.111) or the climbed mount (l.32).
  std::string next;
  std::string rule;
  if (!cover.front.empty()) {
    next = cover.front;
    rule = "004.cover.half";
  } else if (const Condition* cl = t.FindCondition(kClimbing); cl != nullptr) {
    next = cl->relative_to;
    rule = "004.climb";
  }
  if (next.empty() || next == a.id) return absl::OkStatus();
  const Combatant* n = d.state().Find(next);
  Nums n2;
  const int64_t ev2 = Evasion(*n, &n2);
  n2.push_back({"total", r.total});
  n2.push_back({"evasion", ev2});
  if (Hits(nat, r.total, ev2)) {
    RETURN_IF_ERROR(RecordOutcome(d, next, {cause, rule, n2, "the miss hits " + next + " instead"}));
    return Damage(d, a, w, next, nat == 20, c, cause);
  }
  return RecordOutcome(d, next, {cause, rule, n2, "the miss goes on to " + next + " and misses"});
}

}  // namespace combat::kernel::aprp
