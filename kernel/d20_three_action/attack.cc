// The Attack action (L27-L33): melee, ranged and spell attacks, range
// increments, hits at total >= defense, critical successes, area attacks
// with a single roll, and Hidden targets (L115).
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/command.h"
#include "kernel/d20_three_action/internal.h"

namespace combat::kernel::d20 {
namespace {

AttackKind KindOf(const Weapon& w) {
  if (w.kind == "ranged" || w.kind == "thrown") return AttackKind::kRanged;
  if (w.kind == "spell") return AttackKind::kSpell;
  return AttackKind::kMelee;
}

int64_t Number(const Weapon& w, const std::string& key, int64_t otherwise) {
  auto it = w.numbers.find(key);
  return it == w.numbers.end() ? otherwise : it->second;
}

// Range of a weapon in ft, or nullopt for none: a melee weapon's reach; a
// ranged weapon's "max_range" number when given; a spell's "range" number
// (or its range_increment).
std::optional<int64_t> MaxRange(const Weapon& w) {
  switch (KindOf(w)) {
    case AttackKind::kMelee:
      return w.reach;
    case AttackKind::kRanged:
      if (w.numbers.count("max_range") != 0) return w.numbers.at("max_range");
      return std::nullopt;
    case AttackKind::kSpell:
      if (w.numbers.count("range") != 0) return w.numbers.at("range");
      if (w.range_increment > 0) return w.range_increment;
      return std::nullopt;
  }
  return std::nullopt;
}

std::string WithMod(const std::string& dice, int64_t mod) {
  if (mod == 0) return dice;
  return mod > 0 ? absl::StrCat(dice, "+", mod) : absl::StrCat(dice, "-", -mod);
}

std::optional<Pos> Origin(const fb::CommandT& c) {
  if (HasParam(c, "origin_x") && HasParam(c, "origin_y")) {
    return Pos{static_cast<int32_t>(ParamOr(c, "origin_x", 0)),
               static_cast<int32_t>(ParamOr(c, "origin_y", 0))};
  }
  return std::nullopt;
}

// L27 "On a success you deal Damage with your Weapon": a hit whose damage
// comes to 0 (a roll below 1, never negative: reading) changes no HP and so
// leaves no damage event; this outcome says the hit dealt 0 (log and
// explain only).
absl::Status NoDamageOutcome(Decision& d, const std::string& actor,
                             const std::string& target, int64_t amount,
                             uint64_t cause) {
  if (amount != 0) return absl::OkStatus();
  const Combatant* t = d.state().Find(target);
  if (t == nullptr || IsDead(*t)) return absl::OkStatus();
  return RecordOutcome(
      d, actor,
      {cause,
       "000.attack",
       {{"damage", 0}},
       absl::StrCat("the hit on ", target,
                    " deals 0 damage (the roll came to 0 or less; damage is "
                    "never negative)")});
}

}  // namespace

absl::Status ValidateTargets(const State& s, const fb::CommandT& c,
                             const Combatant& actor, const AttackSpec& spec,
                             int64_t range_ft) {
  if (c.targets.empty()) return Malformed(c, "targets", "a target is required");
  if (c.targets.size() > 1 && !spec.area) {
    return Malformed(c, "targets",
                     "one target, unless the attack is on an Area (param "
                     "area=1, L27)");
  }
  for (size_t i = 0; i < c.targets.size(); ++i) {
    ASSIGN_OR_RETURN(const Combatant* t, Target(s, c, i));
    if (t->id == actor.id)
      return Malformed(c, "targets", "cannot attack itself");
    if (IsDead(*t)) return Refuse("000.dead", t->id + " is Dead");
    const int64_t dist = DistanceFt(actor, *t);
    if (range_ft >= 0 && !spec.origin.has_value() && dist > range_ft) {
      return Refuse(
          spec.kind == AttackKind::kMelee ? "000.maneuver" : "000.attack",
          absl::StrCat(t->id, " is ", dist,
                       " ft away, out of reach "
                       "or range (",
                       range_ft, " ft)"));
    }
    const Pos from = spec.origin.value_or(actor.at);
    const int32_t size = spec.origin.has_value() ? 1 : actor.size;
    if (CoverFrom(s, from, size, *t, actor.id).blocked) {
      return Refuse("000.cover", t->id +
                                     " is completely obscured by a wall: "
                                     "it cannot be attacked");
    }
    if (!spec.area && c.path.empty() &&
        (t->FindRelative(kHidden, actor.id) != nullptr ||
         t->FindRelative(kUndetected, actor.id) != nullptr)) {
      return Malformed(c, "path",
                       t->id +
                           " is Hidden from you: declare the square you "
                           "think it is in (L115)");
    }
  }
  if (spec.origin.has_value() && range_ft >= 0 &&
      DistanceFt(actor.at, actor.size, *spec.origin, 1) > range_ft) {
    return Refuse("000.attack", "the Area's point of origin is out of range");
  }
  if (HasParam(c, "critical") && c.role != fb::Role::GM) {
    return absl::PermissionDeniedError(
        "command: param 'critical': only the GM may rule a Critical Success");
  }
  return absl::OkStatus();
}

absl::Status ValidateAttack(const State& s, const fb::CommandT& c,
                            const Ctx& ctx) {
  ASSIGN_OR_RETURN(const Combatant* actor, Actor(s, c));
  if (c.weapon.empty()) {
    return Malformed(c, "weapon",
                     "is required (a weapon of " + actor->id + ")");
  }
  const Weapon* w = actor->FindWeapon(c.weapon);
  if (w == nullptr) {
    return Malformed(
        c, "weapon",
        absl::StrCat(actor->id, " has no weapon '", c.weapon, "'"));
  }
  if (!InHand(*actor, *w)) {
    return Refuse("000.disarm", absl::StrCat(actor->id, "'s ", w->name,
                                             " is not in hand (dropped, or knocked away by a Disarm)"));
  }
  // `stat` is "str" or "dex" (verbs.cc); DEX needs a Light or Medium weapon.
  const std::string stat = ParamText(c, "stat");
  if (stat == "dex" && KindOf(*w) == AttackKind::kMelee &&
      w->category != "light" && w->category != "medium") {
    return Refuse("000.attack.melee",
                  "DEX is for Light or Medium weapons only");
  }
  AttackSpec spec{KindOf(*w), w, ParamOr(c, "area", 0) != 0, Origin(c)};
  (void)ctx;
  return ValidateTargets(s, c, *actor, spec, MaxRange(*w).value_or(-1));
}

absl::StatusOr<std::vector<Hit>> ResolveAttackRoll(Decision& d,
                                                   const fb::CommandT& c,
                                                   const AttackPlan& plan,
                                                   uint64_t cause) {
  const std::string actor = c.actor;
  struct Row {
    std::string target;
    Edge edge;
    int64_t defense = 0;
    bool wrong_square = false;
    int64_t distance = 0;
    int64_t range_penalty = 0;
  };
  std::vector<Row> rows;
  {
    const State& s = d.state();
    const Combatant& a = *s.Find(actor);
    for (const std::string& id : c.targets) {
      const Combatant& t = *s.Find(id);
      Row r;
      r.target = id;
      r.edge = AttackEdge(s, a, t, plan.spec);
      r.defense = t.Stat(plan.mental ? "mental_defense" : "physical_defense");
      if (plan.range_increment > 0) {
        // L31: "a -1 Penalty on the Attack for every Range Increment it is
        // from you rounded down", once it is "farther away than the Range
        // Increment"; for each target of an Area attack its own distance.
        r.distance = DistanceFt(a, t);
        r.range_penalty = r.distance > plan.range_increment
                              ? r.distance / plan.range_increment
                              : 0;
      }
      if (!plan.spec.area && (t.FindRelative(kHidden, actor) != nullptr ||
                              t.FindRelative(kUndetected, actor) != nullptr)) {
        const Pos guess{c.path[0].x(), c.path[0].y()};
        r.wrong_square = !Covers(t.at, t.size, guess);  // L115
      }
      rows.push_back(std::move(r));
    }
  }
  // One roll for the whole attack (L27). When an Area attack's targets
  // differ in edge, 2d20 are rolled once and each target keeps the die its
  // edge says (highest, lowest, or the first for a straight roll).
  bool same = true;
  bool same_penalty = true;
  for (const Row& r : rows) {
    same = same && r.edge.mode() == rows[0].edge.mode();
    same_penalty = same_penalty && r.range_penalty == rows[0].range_penalty;
  }
  // A penalty every target shares is part of the rolled bonus; otherwise
  // each target's total takes its own.
  const int64_t common = same_penalty ? rows[0].range_penalty : 0;
  std::vector<RollOutcome> outcomes;
  if (same) {
    ASSIGN_OR_RETURN(RollOutcome o,
                     RollAttack(d, actor, plan.bonus - common, rows[0].edge,
                                "attack", cause));
    outcomes.assign(rows.size(), o);
  } else {
    ASSIGN_OR_RETURN(
        dice::RollResult r,
        d.Roll("2d20", "attack (area, per-target edge)", actor, cause));
    const int64_t a = r.dice[0].value, b = r.dice[1].value;
    for (const Row& row : rows) {
      const int m = row.edge.mode();
      RollOutcome o;
      o.natural = m > 0 ? std::max(a, b) : (m < 0 ? std::min(a, b) : a);
      o.total = o.natural + plan.bonus - common;
      o.mode = m;
      outcomes.push_back(o);
    }
  }
  for (size_t i = 0; i < rows.size(); ++i) {
    outcomes[i].total -= rows[i].range_penalty - common;
  }
  std::optional<bool> gm_critical;
  uint64_t ruling = 0;  // the seq of the GM's ruling on the critical
  if (HasParam(c, "critical")) {
    gm_critical = ParamOr(c, "critical", 0) != 0;
    ruling = d.next_seq();
    RETURN_IF_ERROR(
        RecordRuling(d, "critical", cause, c.text,
                     {cause, "000.gm", {{"critical", *gm_critical}}, c.text}));
  }
  std::vector<Hit> hits;
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    const RollOutcome& o = outcomes[i];
    bool hit = !r.wrong_square && o.total >= r.defense;  // L33
    bool crit = hit && IsCritical(o, r.defense);         // L27 (reading)
    if (gm_critical.has_value()) {
      // L115 "If the wrong square is targeted the Attack roll is still
      // made, but always misses": no ruled critical makes it hit.
      crit = *gm_critical && !r.wrong_square;
      hit = hit || crit;
    }
    Nums nums = plan.bonus_nums;
    if (plan.range_increment > 0) {
      nums.push_back({"distance_ft", r.distance});
      nums.push_back({"range_increment", plan.range_increment});
      nums.push_back(
          {"range_penalty", -r.range_penalty, "", "000.attack.range_increment"});
    }
    r.edge.AddTo(nums);
    nums.push_back({"d20", o.natural});
    nums.push_back({"total", o.total});
    nums.push_back(
        {plan.mental ? "mental_defense" : "physical_defense", r.defense});
    nums.push_back({"hit", hit ? 1 : 0});
    nums.push_back({"critical", crit ? 1 : 0});
    if (gm_critical.has_value()) {
      nums.push_back({"critical.ruled", *gm_critical ? 1 : 0,
                      absl::StrCat("ruling #", ruling), "000.gm"});
    }
    std::string note =
        absl::StrCat(actor, " vs ", r.target, ": ",
                     hit ? (crit ? "critical success" : "hit") : "miss");
    if (r.wrong_square) note += " (wrong square: always misses, L115)";
    RETURN_IF_ERROR(
        RecordOutcome(d, actor, {cause, crit ? "000.attack.critical" : plan.rule, nums, note}));
    const Combatant* t = d.state().Find(r.target);
    RETURN_IF_ERROR(ConsumeDodge(d, *t, r.edge, cause));
    if (hit) hits.push_back({r.target, crit});
  }
  // Damage: one roll for an Area (reading of L27), doubled per critical
  // target; otherwise per target.
  if (!plan.damage.empty() && !hits.empty()) {
    std::optional<dice::RollResult> area_roll;
    if (plan.spec.area) {
      ASSIGN_OR_RETURN(area_roll,
                       d.Roll(plan.damage, plan.damage_kind + " damage (area)",
                              actor, cause));
    }
    for (const Hit& h : hits) {
      if (area_roll.has_value()) {
        int64_t amount = std::max<int64_t>(0, area_roll->total);
        Nums nums = {{"rolled", area_roll->total}};
        if (h.critical) {
          amount *= 2;
          nums.push_back({"critical_x2", amount, "", "000.attack.critical"});
        }
        RETURN_IF_ERROR(DealDamage(
            d, h.target, amount, plan.damage_kind,
            {cause, h.critical ? "000.attack.critical" : "000.attack.area",
             nums}));
        RETURN_IF_ERROR(NoDamageOutcome(d, actor, h.target, amount, cause));
      } else {
        ASSIGN_OR_RETURN(
            int64_t amount,
            RollDamage(d, plan.damage, actor, h.target, plan.damage_kind,
                       h.critical, "000.attack", cause, {}));
        RETURN_IF_ERROR(NoDamageOutcome(d, actor, h.target, amount, cause));
      }
    }
  }
  // L85: attacking, or being hit, while not touching a fixed object in
  // zero-G.
  RETURN_IF_ERROR(Unsteady(d, actor, cause, "made an Attack"));
  for (const Hit& h : hits) {
    RETURN_IF_ERROR(Unsteady(d, h.target, cause, "was hit"));
  }
  // L115: hitting a Hidden creature reveals it to the attacker; being
  // attacked by a Hidden creature reveals the attacker to the target.
  for (const Hit& h : hits) {
    RETURN_IF_ERROR(Reveal(d, h.target, actor,
                           {cause, "000.hidden", {}, "hit: location found"}));
  }
  for (const std::string& t : c.targets) {
    RETURN_IF_ERROR(Reveal(
        d, actor, t, {cause, "000.hidden", {}, "attacked: location given"}));
  }
  return hits;
}

absl::Status ResolveAttack(Decision& d, const fb::CommandT& c, const Ctx& ctx) {
  const Combatant actor = *d.state().Find(c.actor);
  const Weapon w = *actor.FindWeapon(c.weapon);
  AttackPlan plan;
  plan.spec =
      AttackSpec{KindOf(w), nullptr, ParamOr(c, "area", 0) != 0, Origin(c)};
  plan.spec.weapon = &w;
  switch (plan.spec.kind) {
    case AttackKind::kMelee:
      plan.bonus =
          MeleeBonus(actor, &w, ParamText(c, "stat"), &plan.bonus_nums);
      plan.rule = "000.attack.melee";
      // Reading of L29 ("DEX ... but not Damage rolls"): melee damage adds
      // STR.
      if (!w.damage.empty()) plan.damage = WithMod(w.damage, actor.Stat("str"));
      break;
    case AttackKind::kRanged: {
      plan.bonus = RangedBonus(actor, &plan.bonus_nums);
      plan.rule = "000.attack.ranged";
      plan.damage = w.damage;
      plan.range_increment = w.range_increment;  // L31, per target
      break;
    }
    case AttackKind::kSpell:
      plan.bonus = SpellBonus(actor, &plan.bonus_nums);
      plan.rule = "000.attack.spell";
      plan.mental =
          ParamText(c, "defense") == "mental" || Number(w, "mental", 0) != 0;
      plan.damage = w.damage;
      break;
  }
  plan.damage_kind = w.damage_type.empty() ? "weapon" : w.damage_type;
  ASSIGN_OR_RETURN(std::vector<Hit> hits,
                   ResolveAttackRoll(d, c, plan, ctx.cause));
  // Weapon riders on a hit: numbers "poison" (level) with "poison_rounds",
  // and "ignite" (sets the target On fire).
  for (const Hit& h : hits) {
    if (IsDead(*d.state().Find(h.target))) continue;
    if (Number(w, "poison", 0) > 0) {
      const int64_t rounds = Number(w, "poison_rounds", 1);
      RETURN_IF_ERROR(
          Apply(d, h.target, kPoisoned, c.actor, Number(w, "poison", 0),
                ForRounds(d.state(), c.actor, rounds),
                {ctx.cause,
                 "000.poisoned",
                 {{"level", Number(w, "poison", 0)}, {"rounds", rounds}},
                 w.name})
              .status());
    }
    if (Number(w, "ignite", 0) != 0 &&
        !d.state().Find(h.target)->Has(kOnFire)) {
      RETURN_IF_ERROR(Apply(d, h.target, kOnFire, c.actor, 0, std::nullopt,
                            {ctx.cause, "000.on_fire", {}, w.name})
                          .status());
    }
  }
  return absl::OkStatus();
}

}  // namespace combat::kernel::d20
