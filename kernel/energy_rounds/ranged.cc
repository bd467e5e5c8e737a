// Ranged and thrown attacks (l.190-288), Load (l.19).
//
// Resolution order (dice order): the target's Ranged Evasion roll (1d4
// exploding, l.204) when it is aware and able to avoid the attack (l.202);
// the Hit roll (d20, l.230) with Advantage within the first range number
// and Disadvantage beyond the second (l.246); on a hit the damage dice;
// then a Chance roll when non-lethal damage needs one (l.517).
//
// Miss Chance = (8 - Accuracy - halved Dex, l.196) + Ranged Evasion roll
//   + size (l.211) + movement (l.222) + 3 per non-lethal trade (l.519)
//   + mc_mod (situational, GM).
// Hit when the Hit roll >= Miss Chance (l.192; Defending wins ties, l.35);
// 20 (or the Precise range) is a critical (l.234, l.390), 1 misses (l.236),
// 1-3 Exposes the attacker until the end of the next Round (l.235).
// Armor: the formula (l.240) subtracts AR when the Hit roll is less than
// the Ranged AC, like melee (l.178); l.238's prose says the opposite and is
// read as a slip.
#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/command.h"
#include "kernel/energy_rounds/internal.h"

namespace combat::kernel::energy {
namespace {

int64_t WNum(const Weapon& w, const char* key, int64_t otherwise = 0) {
  auto it = w.numbers.find(key);
  return it == w.numbers.end() ? otherwise : it->second;
}

struct DrawRow {
  int64_t kg, min_arm, extra;
};
// l.256-268 (the Range column is not read: see README).
const DrawRow kDraw[] = {{20, 1, 0},   {25, 4, 0},   {30, 8, 0},  {35, 12, 1},
                         {40, 16, 2},  {45, 20, 3},  {50, 25, 4}, {60, 30, 5},
                         {70, 35, 6},  {80, 40, 7}};

const DrawRow* RowFor(int64_t kg) {
  const DrawRow* row = nullptr;
  for (const DrawRow& r : kDraw) {
    if (kg >= r.kg) row = &r;
  }
  return row;
}

absl::StatusOr<const Weapon*> RangedWeapon(const Combatant& a, const fb::CommandT& c) {
  const bool thrown = c.action == "throw";
  const Weapon* w = nullptr;
  if (!c.weapon.empty()) {
    w = a.FindWeapon(c.weapon);
    if (w == nullptr) {
      return absl::NotFoundError(absl::StrCat("command '", c.action, "': field 'weapon': ",
                                              a.id, " has no weapon '", c.weapon, "'"));
    }
  } else {
    for (const Weapon& x : a.weapons) {
      if (!Wielding(a, x.name)) continue;
      if ((thrown && (x.kind == "thrown" || x.kind == "melee")) || (!thrown && x.kind == "ranged")) {
        w = &x;
        break;
      }
    }
    if (w == nullptr) return Malformed(c, "weapon", "no wielded weapon fits; name one");
  }
  if (!thrown && w->kind != "ranged") {
    return Malformed(c, "weapon", absl::StrCat("'", w->name, "' is not a ranged weapon (throw it instead)"));
  }
  if (thrown && w->kind == "ranged") {
    return Malformed(c, "weapon", absl::StrCat("'", w->name, "' is fired, not thrown"));
  }
  if (!Wielding(a, w->name)) {
    return Refuse("002.items.equip", absl::StrCat(a.id, " is not wielding '", w->name, "'"));
  }
  return w;
}

bool HasThrown(const Weapon& w) { return w.kind == "thrown" || WNum(w, "thrown") == 1; }

Trio RangeOf(const Combatant& a, const Weapon& w, bool thrown) {
  Trio t{WNum(w, "close"), WNum(w, "far"), WNum(w, "max")};
  if (thrown) {
    if (!HasThrown(w) || t.max == 0) {
      // l.272: Light 3/5/10, Heavy 1/3/6, other 2/4/8.
      if (w.category == "light") t = {3, 5, 10};
      else if (w.category == "heavy") t = {1, 3, 6};
      else t = {2, 4, 8};
    }
    const Trio extra = ThrowExtra(a.Stat("arm_strength", 0));  // l.278
    t.close += extra.close;
    t.far += extra.far;
    t.max += extra.max;
  }
  return t;
}

absl::Status CheckDraw(const Combatant& a, const Weapon& w) {
  const int64_t kg = WNum(w, "draw_weight");
  if (kg <= 0) return absl::OkStatus();
  const int64_t crossbow = WNum(w, "crossbow");  // 1 two-handed, 2 hand, 3 heavy, 4 siege
  const int64_t arm = a.Stat("arm_strength", 0) + (crossbow == 1 || crossbow == 3 || crossbow == 4 ? 5 : 0);
  if (arm < DrawMinArm(kg)) {
    return Refuse("002.ranged.draw_weight",
                   absl::StrCat(a.id, "'s Arm Strength ", arm, crossbow ? " (crossbow +5)" : "",
                                " cannot draw ", kg, " kg (needs ", DrawMinArm(kg), ")"));
  }
  if (crossbow == 2 && kg > 35) {
    return Refuse("002.ranged.draw_weight", "35 kg is the maximum for hand crossbows");
  }
  if (kg >= 70 && crossbow != 4) {
    return Refuse("002.ranged.draw_weight", "70 kg and more: siege crossbows only");
  }
  if (kg >= 60 && crossbow != 3 && crossbow != 4) {
    return Refuse("002.ranged.draw_weight", "60 kg: heavy and siege crossbows only");
  }
  // l.263-265: "Max for MPL 1-2" (40 kg), "3-4" (45), ">=5" (50). The
  // rows above 50 kg are for heavy and siege crossbows only, so those two
  // are not held to the MPL caps; bows, two-handed and hand crossbows are.
  if (kg < 60 && crossbow != 3 && crossbow != 4) {
    const int64_t mpl = Mpl(a);
    const int64_t cap = mpl <= 2 ? 40 : mpl <= 4 ? 45 : 50;
    if (kg > cap) {
      return Refuse("002.ranged.draw_weight",
                     absl::StrCat(kg, " kg is over the maximum ", cap, " kg for MPL ", mpl));
    }
  }
  return absl::OkStatus();
}

}  // namespace

int64_t DrawExtraDamage(int64_t kg) {
  const DrawRow* r = RowFor(kg);
  return r == nullptr ? 0 : r->extra;
}

int64_t DrawMinArm(int64_t kg) {
  const DrawRow* r = RowFor(kg);
  return r == nullptr ? INT64_MIN / 2 : r->min_arm;
}

Trio ThrowExtra(int64_t arm) {
  if (arm <= 4) return {0, 0, 0};
  if (arm <= 9) return {0, 2, 4};
  if (arm <= 14) return {1, 4, 8};
  if (arm <= 19) return {1, 6, 10};
  if (arm <= 24) return {2, 8, 16};
  if (arm <= 29) return {2, 10, 20};
  if (arm <= 34) return {3, 12, 24};
  if (arm <= 39) return {3, 14, 28};
  return {4, 16, 32};
}

int64_t SizeMissMod(int size) {
  // l.211-220 (Gigantic read as Huge).
  static const int64_t kMod[] = {18, 12, 8, 4, 2, 0, -2, -4, -4};
  return kMod[size];
}

absl::Status CheckRanged(const State& s, const Combatant& a, const fb::CommandT& c,
                         const ActOpts& o) {
  ASSIGN_OR_RETURN(const Combatant* t, Target(s, c, 0));
  ASSIGN_OR_RETURN(const Weapon* w, RangedWeapon(a, c));
  RETURN_IF_ERROR(CheckAttackCommon(s, a, *t, c, w, false, o));
  const bool thrown = c.action == "throw";
  if (!thrown) {
    RETURN_IF_ERROR(CheckDraw(a, *w));
    if (WNum(*w, "load") > 0 && a.Resource(LoadedKey(w->name), 0) < 1) {
      return Refuse("002.ranged.load", absl::StrCat("'", w->name, "' is not loaded"));
    }
  }
  const Trio r = RangeOf(a, *w, thrown);
  const int64_t dist = Distance(a, *t);
  if (r.max > 0 && dist > r.max) {
    return Refuse("002.ranged.range", absl::StrCat(t->id, " is ", dist, " m away; '", w->name,
                                                    "' aims up to ", r.max, " m"));
  }
  if (ParamOr(c, "swift", 0) == 1) RETURN_IF_ERROR(CheckSwift(s, a, *t));
  // `target_movement`: none, normal or zigzag (verbs.cc).
  Cost cost;
  cost.energy = 1 + (Proficient(a, *w) ? 0 : 1);  // l.192, l.529
  RETURN_IF_ERROR(ReadCostParams(c, cost));
  return CheckCost(s, a, cost, thrown ? "a throw" : "a ranged attack");
}

absl::StatusOr<Outcome> ResolveRanged(Decision& d, const fb::CommandT& c,
                                      uint64_t cause, const ActOpts&) {
  const bool thrown = c.action == "throw";
  const std::string aid = c.actor, tid = c.targets[0];
  const Combatant* a = d.state().Find(aid);
  ASSIGN_OR_RETURN(const Weapon* wp, RangedWeapon(*a, c));
  const Weapon w = *wp;  // the combatant may change below
  const bool prof = Proficient(*a, w);
  Cost cost;
  cost.energy = 1 + (prof ? 0 : 1);
  RETURN_IF_ERROR(ReadCostParams(c, cost));
  RETURN_IF_ERROR(Pay(d, aid, cost, {cause, prof ? "002.cost.ranged" : "002.mpl.ranged",
                                     {{"energy", cost.energy}}, ""}));
  if (ParamOr(c, "swift", 0) == 1) {
    RETURN_IF_ERROR(SetResource(d, aid, res::kSwiftUsed, 1, {cause, "002.swift.once", {}, ""}));
  }
  RETURN_IF_ERROR(TurnToward(d, aid, *d.state().Find(tid), cause));
  if (d.state().Find(aid)->Has("Defending")) {
    RETURN_IF_ERROR(RemoveConditionsNamed(d, aid, "Defending", {cause, "002.defend", {}, "it attacks"}));
  }
  if (!thrown && WNum(w, "load") > 0) {
    RETURN_IF_ERROR(AddResource(d, aid, LoadedKey(w.name), -1,
                                {cause, "002.ranged.load", {}, "shot"}).status());
  }
  a = d.state().Find(aid);
  const Combatant* t = d.state().Find(tid);
  Outcome out;
  Nums& n = out.nums;
  const int64_t dex_half = FloorDiv(Mod(*a, "dex"), 2);
  const int64_t accuracy = thrown ? (HasThrown(w) ? WNum(w, "av_bonus") : WNum(w, "accuracy"))
                                  : WNum(w, "accuracy");
  const int64_t mcm = 8 - accuracy - dex_half;
  n = {{"accuracy", accuracy, w.name, "002.ranged.mcm"}, {"dex_half", dex_half}, {"mcm", mcm}};
  // Ranged Evasion roll (l.202-206, l.334).
  int64_t evasion_roll = 0;
  // l.346: "if a target is asleep or fully restrained they cannot roll
  // Evasion, and any attacks against them automatically hit" — ranged ones
  // too: no Ranged Evasion roll and no Miss Chance comparison (a natural 1
  // still misses, as in melee, l.236).
  std::string no_defense;
  const bool auto_hit = NoDefenseRoll(*t, false, &no_defense);
  const bool aware = !t->HasTag("unaware") && !t->HasTag("object") && !t->Has("Unconscious") &&
                     !auto_hit;
  if (aware) {
    const bool facing = FacesSpace(*t, *a);  // l.204, l.402
    Nums parts;
    const int64_t base = RangedEvasion(*t, facing, &parts);
    const Edges de = EdgeOnDefense(*t, true, facing ? "" : aid);
    ASSIGN_OR_RETURN(DefenseRoll roll,
                     RollDefense(d, tid, 4, base, de.mode(), "ranged evasion roll", cause));
    for (const Num& p : parts) n.push_back({"def." + p.key, p.value, p.source, p.rule});
    n.push_back({"evasion_dice", roll.dice_sum});
    n.push_back({"evasion_explosions", roll.explosions});
    de.AddTo(n, "evasion");
    evasion_roll = roll.total;
  } else {
    // l.202: only a target aware of the attack and able to avoid it rolls.
    const std::string why = auto_hit                   ? no_defense
                            : t->HasTag("unaware")      ? std::string("unaware")
                            : t->HasTag("object")       ? std::string("an object (l.156)")
                                                        : std::string("Unconscious");
    n.push_back({"no_ranged_evasion", 1, absl::StrCat(tid, " ", why), "002.ranged.evasion"});
  }
  n.push_back({"ranged_evasion_roll", evasion_roll});
  a = d.state().Find(aid);
  t = d.state().Find(tid);
  const int64_t size_mod = SizeMissMod(SizeOf(*t));
  // l.222-226: a target that cannot move at all (unconscious, asleep,
  // fully restrained, an object) is the table's "none" (-5); one that has
  // just sprinted is "Sprinting" (+5); any other is "typical combat" (+0)
  // unless the command names what the state cannot show.
  std::string mv = ParamText(c, "target_movement");
  const bool declared_mv = !mv.empty();
  // The source names the row read from the state: "sprinting" is the +5
  // row (l.226 "Running with zig-zagging, Sprinting") like "zigzag".
  std::string seen = mv;
  if (mv.empty()) {
    const bool still = t->Has("Unconscious") || t->Has("Asleep") || Active(*t, "FullyRestrained") ||
                       t->HasTag("object");
    const bool sprinted = t->Resource(res::kSprinted, 0) > 0;
    mv = still ? "none" : sprinted ? "zigzag" : "normal";
    seen = still ? "none" : sprinted ? "sprinting" : "normal";
  }
  const int64_t move_mod = mv == "none" ? -5 : mv == "zigzag" ? 5 : 0;
  const int64_t trades = ParamOr(c, "nl_trade", 0);
  const int64_t mc_mod = ParamOr(c, "mc_mod", 0);
  const int64_t mc = mcm + evasion_roll + size_mod + move_mod + 3 * trades + mc_mod;
  n.push_back({"size_mod", size_mod, absl::StrCat(tid, " (", SizeName(SizeOf(*t)), ")"),
               "002.ranged.size"});
  Num movement = declared_mv ? Declared(c, cause, "movement_mod", move_mod)
                             : Num{"movement_mod", move_mod, absl::StrCat(tid, " ", seen)};
  if (movement.rule.empty()) movement.rule = "002.ranged.movement";
  n.push_back(movement);
  if (trades) n.push_back({"nonlethal_trade_mc", 3 * trades, "", "002.nonlethal.trade"});
  if (mc_mod) n.push_back(Declared(c, cause, "mc_mod", mc_mod));
  n.push_back({"miss_chance", mc});
  // Hit roll (l.230) with range edge (l.246) and Dazed/Blinded (l.670, l.672).
  const Trio range = RangeOf(*a, w, thrown);
  const int64_t dist = Distance(*a, *t);
  Edges edges = EdgeOnAttack(*a);
  if (dist <= range.close) edges.adv.push_back({"close_range", "", "002.ranged.range"});
  if (range.far > 0 && dist > range.far) {
    edges.dis.push_back({"beyond_far_range", "", "002.ranged.range"});
  }
  ASSIGN_OR_RETURN(int hit_d20, RollD20(d, aid, edges.mode(), "hit roll", cause));
  const int64_t crit_at = 20 - WNum(w, "precise");
  t = d.state().Find(tid);
  n.push_back({"distance", dist});
  n.push_back({"range_close", range.close});
  n.push_back({"range_far", range.far});
  n.push_back({"range_max", range.max});
  edges.AddTo(n, "hit");
  n.push_back({"hit_d20", hit_d20});
  n.push_back({"crit_at", crit_at});
  if (hit_d20 <= 3) {
    Impose e;
    e.actor = aid;
    e.name = "Exposed";
    e.source = "hit roll";
    e.expiry = EndOfRound(d.state(), 1);
    // As a Combat roll's (melee.cc): a natural 1 is Exposed by l.462, for
    // as long as l.235 says; the number names the line of its duration.
    Nums en{{"hit_d20", hit_d20}};
    if (hit_d20 == 1) {
      en.push_back({"exposed_until_round", d.state().round + 1, "", "002.ranged.hit_roll"});
    }
    RETURN_IF_ERROR(AddWithDaughters(d, e, {cause, hit_d20 == 1 ? "002.exposed.crit_fail"
                                                                : "002.ranged.hit_roll",
                                            en, ""})
                        .status());
  }
  const bool crit = hit_d20 >= crit_at;
  const bool defending = d.state().Find(tid)->Has("Defending");
  bool hit = crit || (hit_d20 != 1 && (auto_hit || (defending ? hit_d20 > mc : hit_d20 >= mc)));
  if (auto_hit) {
    n.push_back({"automatic_hit", 1, absl::StrCat(tid, " ", no_defense), "002.defense.none"});
  }
  if (thrown) {
    RETURN_IF_ERROR(DropWeapon(d, aid, w.name, d.state().Find(tid)->at,
                               {cause, "002.ranged.thrown", {}, "thrown"}));
  }
  if (!hit) {
    out.rule = hit_d20 == 1 ? "002.ranged.hit_roll" : "002.ranged.hit";
    out.text = hit_d20 == 1 ? "critical failure: the shot misses"
                            : absl::StrCat("miss: hit roll ", hit_d20, " vs Miss Chance ", mc);
    return out;
  }
  if (crit) {
    Impose e;
    e.actor = tid;
    e.name = "Exposed";
    e.source = aid;
    e.expiry = EndOfRound(d.state());
    // l.234, l.392 Expose; l.460 is how long (reading 12).
    RETURN_IF_ERROR(AddWithDaughters(d, e, {cause, "002.melee.critical",
                                            {{"hit_d20", hit_d20},
                                             {"exposed_until_round", d.state().round, "", "002.exposed"}},
                                            "a critical hit Exposes the target"})
                        .status());
  }
  ASSIGN_OR_RETURN(dice::RollResult dmg, d.Roll(w.damage, "damage", aid, cause));
  DamageIn in;
  in.rolled = dmg.total;
  in.bonus = thrown ? 0 : DrawExtraDamage(WNum(w, "draw_weight"));
  in.bonus_source = w.name;
  in.bonus_rule = "002.ranged.draw_weight";
  in.armor_rule = "002.ranged.armor";
  in.type = w.damage_type;
  t = d.state().Find(tid);
  const int64_t rac = t->Stat("ranged_ac", t->Stat("ac", 0));
  in.armor = !crit && hit_d20 < rac;
  in.ar = t->Stat("ar", 0);
  if (!prof) {  // l.529
    in.halvings += 1;
    in.mods.push_back({"halved.nonproficient", 1, w.name + " (not proficient)", "002.mpl.ranged"});
  }
  if (thrown && !HasThrown(w) && hit_d20 != 20) {  // l.272
    in.halvings += 1;
    in.mods.push_back({"halved.not_thrown", 1, w.name + " (not a Thrown weapon)",
                       "002.ranged.thrown"});
  }
  in.doublings = static_cast<int>(ParamOr(c, "double", 0));
  if (in.doublings) in.mods.push_back(Declared(c, cause, "doubled.declared", in.doublings));
  bool nonlethal = false;
  if (ParamOr(c, "nonlethal", 0) == 1) {
    ASSIGN_OR_RETURN(nonlethal, NonLethalChance(d, aid, 15, trades, cause, n));
  }
  DamageOut out_dmg = ComputeDamage(*d.state().Find(tid), in);
  n.push_back({"ranged_ac", rac});
  for (const Num& x : out_dmg.nums) n.push_back(x);
  RETURN_IF_ERROR(ApplyDamage(d, tid, out_dmg, nonlethal, "002.damage.ranged", cause));
  out.rule = crit ? "002.melee.critical"
             : auto_hit ? "002.defense.none"
             : in.armor ? "002.ranged.armor" : "002.ranged.hit";
  out.text = absl::StrCat(crit ? "critical hit" : "hit",
                          auto_hit && !crit ? absl::StrCat(" (automatic: ", no_defense, ")") : "",
                          ": ", out_dmg.dealt,
                          nonlethal ? " non-lethal" : "", " damage",
                          in.armor ? " (on armor)" : " (armor bypassed)");
  return out;
}

absl::Status CheckLoad(const State& s, const Combatant& a, const fb::CommandT& c,
                       const ActOpts&) {
  if (c.weapon.empty()) return Malformed(c, "weapon", "the weapon to load is required");
  const Weapon* w = a.FindWeapon(c.weapon);
  if (w == nullptr) {
    return absl::NotFoundError(absl::StrCat("command 'load': field 'weapon': ", a.id,
                                            " has no weapon '", c.weapon, "'"));
  }
  if (WNum(*w, "load") <= 0) return Malformed(c, "weapon", absl::StrCat("'", w->name, "' needs no loading"));
  if (!Wielding(a, w->name)) {
    return Refuse("002.items.equip", absl::StrCat(a.id, " is not wielding '", w->name, "'"));
  }
  if (a.Resource(LoadedKey(w->name), 0) > 0) {
    return Refuse("002.ranged.load", absl::StrCat("'", w->name, "' is already loaded"));
  }
  Cost cost;
  cost.energy = WNum(*w, "load");
  RETURN_IF_ERROR(ReadCostParams(c, cost));
  return CheckCost(s, a, cost, "Load");
}

absl::StatusOr<Outcome> ResolveLoad(Decision& d, const fb::CommandT& c,
                                    uint64_t cause, const ActOpts&) {
  const Weapon w = *d.state().Find(c.actor)->FindWeapon(c.weapon);
  Cost cost;
  cost.energy = WNum(w, "load");
  RETURN_IF_ERROR(ReadCostParams(c, cost));
  Nums nums{{"energy", cost.energy}};
  RETURN_IF_ERROR(Pay(d, c.actor, cost, {cause, "002.ranged.load", nums, ""}));
  if (Active(*d.state().Find(c.actor), "Shaken")) {
    ASSIGN_OR_RETURN(bool kept, ShakenCheck(d, c.actor, cause, nums));
    if (!kept) return Outcome{"Shaken: fumbled the ammunition", "002.cond.shaken", nums};
  }
  RETURN_IF_ERROR(SetResource(d, c.actor, LoadedKey(w.name), 1, {cause, "002.ranged.load", nums, ""}));
  return Outcome{absl::StrCat("loaded '", w.name, "'"), "002.ranged.load", nums};
}

}  // namespace combat::kernel::energy
