// Cast (L37), Control (L39) and Focus (L43).
//
// A cast spell is a "spell" condition on its caster: note = the spell's
// name, level = Energy spent, ref = the cast's declaration seq, expiring
// after param "rounds" (or never: until the GM ends it). The effects a cast
// or a control applies (param "condition", "heal", a spell attack with a
// "spell" weapon) hang from it as daughters, so they end with the spell.
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "events/status_macros.h"
#include "kernel/command.h"
#include "kernel/arith.h"
#include "kernel/d20_three_action/internal.h"

namespace combat::kernel::d20 {
namespace {

const char* const kSpellConditions[] = {
    kSlowed,   kStunned,   kShaken,    kBlinded, kEntangled,   kOnFire,
    kPoisoned, kInvisible, kConcealed, kProne,   kUnconscious, kFlatFooted};

// Param "condition" in the text's spelling, any case ("Flat Footed",
// "PRONE"), as its canonical name; "" when absent or unknown.
std::string SpellCondition(const fb::CommandT& c) {
  const std::string raw = ParamText(c, "condition");
  if (raw.empty()) return "";
  absl::StatusOr<std::string> canon = CanonicalCondition(raw, "");
  if (!canon.ok()) return "";
  for (const char* k : kSpellConditions) {
    if (*canon == k) return *canon;
  }
  return "";
}

int64_t EnergyOf(const fb::CommandT& c, Nums* nums) {
  int64_t total = 0;
  for (const auto& p : c.params) {
    if (p && absl::StartsWith(p->key, "energy.")) {
      total += p->value;
      if (nums != nullptr) nums->push_back({p->key, p->value});
    }
  }
  return total;
}

const Weapon* SpellWeapon(const Combatant& a, const fb::CommandT& c) {
  return c.weapon.empty() ? nullptr : a.FindWeapon(c.weapon);
}

// Checks the effect params shared by cast and control.
absl::Status ValidateEffect(const State& s, const fb::CommandT& c,
                            const Combatant& a) {
  if (!c.weapon.empty()) {
    const Weapon* w = a.FindWeapon(c.weapon);
    if (w == nullptr) {
      return Malformed(
          c, "weapon",
          absl::StrCat(a.id, " has no spell attack '", c.weapon, "'"));
    }
    if (w->kind != "spell") {
      return Malformed(c, "weapon",
                       "a spell attack needs a weapon of kind 'spell'");
    }
    // L33: "an enchanted item you are wielding": one dropped or disarmed
    // (L21, L55) is not wielded, as for `attack`.
    if (!InHand(a, *w)) {
      return Refuse("000.disarm",
                    absl::StrCat(a.id, "'s ", w->name,
                                 " is not in hand (dropped, or knocked away "
                                 "by a Disarm)"));
    }
    AttackSpec spec{AttackKind::kSpell, w, ParamOr(c, "area", 0) != 0};
    if (HasParam(c, "origin_x") && HasParam(c, "origin_y")) {
      spec.origin = Pos{static_cast<int32_t>(ParamOr(c, "origin_x", 0)),
                        static_cast<int32_t>(ParamOr(c, "origin_y", 0))};
    }
    int64_t range = -1;
    if (w->numbers.count("range") != 0)
      range = w->numbers.at("range");
    else if (w->range_increment > 0)
      range = w->range_increment;
    RETURN_IF_ERROR(ValidateTargets(s, c, a, spec, range));
  } else {
    for (size_t i = 0; i < c.targets.size(); ++i) {
      ASSIGN_OR_RETURN(const Combatant* t, Target(s, c, i));
      if (IsDead(*t)) return Refuse("000.dead", t->id + " is Dead");
    }
  }
  const std::string cond = SpellCondition(c);
  if (HasParam(c, "condition") && cond.empty()) {
    return Malformed(c, "params.condition",
                     absl::StrCat("'", ParamText(c, "condition"),
                                  "' is not a condition a spell applies; one "
                                  "of: ",
                                  absl::StrJoin(kSpellConditions, ", ")));
  }
  if (!cond.empty()) {
    if (c.targets.empty()) {
      return Malformed(c, "targets", "a condition needs targets");
    }
  }
  if (HasParam(c, "heal") && ParamOr(c, "heal", 0) <= 0) {
    return Malformed(c, "params.heal", "must be > 0");
  }
  if (HasParam(c, "rounds") && ParamOr(c, "rounds", 0) < 1) {
    return Malformed(c, "params.rounds", "must be >= 1");
  }
  return absl::OkStatus();
}

// Applies the spell effect of `c` under spell condition `spell`.
absl::Status ApplyEffect(Decision& d, const fb::CommandT& c, uint64_t cause,
                         uint32_t spell, const std::string& rule) {
  const Combatant a = *d.state().Find(c.actor);
  std::vector<std::string> affected;
  if (const Weapon* wp = SpellWeapon(a, c); wp != nullptr) {
    const Weapon w = *wp;
    AttackPlan plan;
    plan.spec = AttackSpec{AttackKind::kSpell, &w, ParamOr(c, "area", 0) != 0};
    if (HasParam(c, "origin_x") && HasParam(c, "origin_y")) {
      plan.spec.origin = Pos{static_cast<int32_t>(ParamOr(c, "origin_x", 0)),
                             static_cast<int32_t>(ParamOr(c, "origin_y", 0))};
    }
    plan.bonus = SpellBonus(a, &plan.bonus_nums);
    plan.mental =
        ParamText(c, "defense") == "mental" ||
        (w.numbers.count("mental") != 0 && w.numbers.at("mental") != 0);
    plan.damage = w.damage;
    plan.damage_kind = w.damage_type.empty() ? "spell" : w.damage_type;
    plan.rule = "000.attack.spell";
    ASSIGN_OR_RETURN(std::vector<Hit> hits,
                     ResolveAttackRoll(d, c, plan, cause));
    for (const Hit& h : hits) affected.push_back(h.target);
  } else {
    affected = c.targets;  // no Spell Attack needed (L37: the Effect decides)
  }
  const std::string cond = SpellCondition(c);
  for (const std::string& t : affected) {
    if (IsDead(*d.state().Find(t))) continue;
    if (!cond.empty()) {
      std::optional<Expiry> expiry;
      if (HasParam(c, "condition_rounds")) {
        expiry =
            ForRounds(d.state(), c.actor, ParamOr(c, "condition_rounds", 1));
      }
      if (cond == kProne) {
        RETURN_IF_ERROR(KnockProne(d, t, {cause, rule, {}, "spell effect"}));
      } else if (cond == kShaken && expiry.has_value()) {
        RETURN_IF_ERROR(AddShaken(d, t, c.actor,
                                  ParamOr(c, "condition_rounds", 1), spell,
                                  {cause, "000.shaken", {}, "spell effect"}));
      } else {
        RETURN_IF_ERROR(Apply(d, t, cond, c.actor, ParamOr(c, "level", 0),
                              expiry, {cause, rule, {}, "spell effect"}, spell)
                            .status());
        if (cond == kUnconscious) {
          // L168: "They fall Prone" (and a grapple partner with them).
          RETURN_IF_ERROR(KnockProne(
              d, t,
              {cause, "000.unconscious", {},
               "an Unconscious creature falls Prone (L168)"}));
        }
      }
    }
    if (HasParam(c, "heal")) {
      RETURN_IF_ERROR(HealDamage(d, t, ParamOr(c, "heal", 0),
                                 {cause, "000.heal", {}, "spell"}));
    }
  }
  return absl::OkStatus();
}

// The active spell of `a` that `c` names (param "spell": its name), or
// nullptr. (A cast's seq would be a ref, which what-if remaps; the verb
// table takes the name only.)
const Condition* NamedSpell(const Combatant& a, const fb::CommandT& c) {
  const std::string name = ParamText(c, "spell");
  for (const Condition* sp : Named(a, kSpell)) {
    if (sp->note == name) return sp;
  }
  return nullptr;
}

}  // namespace

int64_t MultiActionCost(const fb::CommandT& c) {
  return ParamOr(c, "actions", 1);
}

absl::Status ValidateCast(const State& s, const fb::CommandT& c,
                          const Ctx& ctx) {
  (void)ctx;
  ASSIGN_OR_RETURN(const Combatant* a, Actor(s, c));
  // `spell` (its name) is required (verbs.cc).
  const int64_t actions = MultiActionCost(c);
  if (actions < 1 || actions > 3) {
    return Malformed(c, "params.actions", "1 to 3 Actions");
  }
  // `energy.*` are >= 0 (verbs.cc).
  const int64_t energy = EnergyOf(c, nullptr);
  if (energy > a->Resource(kEnergy)) {
    return Refuse("000.cast",
                  absl::StrCat(a->id, " has ", a->Resource(kEnergy),
                               " Energy; the components need ", energy));
  }
  return ValidateEffect(s, c, *a);
}

absl::Status ResolveCast(Decision& d, const fb::CommandT& c, const Ctx& ctx) {
  Nums nums;
  const int64_t energy = EnergyOf(c, &nums);
  if (energy > 0) {
    RETURN_IF_ERROR(AddResource(d, c.actor, kEnergy, -energy,
                                {ctx.cause, "000.cast", nums,
                                 "Energy spent on the components"})
                        .status());
  }
  NewCondition sp;
  sp.actor = c.actor;
  sp.name = kSpell;
  sp.source = c.actor;
  sp.level = energy;
  sp.note = ParamText(c, "spell");
  sp.ref = ctx.cause;
  if (HasParam(c, "rounds")) {
    sp.expiry = ForRounds(d.state(), c.actor, ParamOr(c, "rounds", 1));
  }
  ASSIGN_OR_RETURN(
      uint32_t id,
      AddCondition(
          d, sp,
          {ctx.cause, "000.cast", {{"energy", energy}}, "casts " + sp.note}));
  return ApplyEffect(d, c, ctx.cause, id, "000.cast");
}

absl::Status ValidateControl(const State& s, const fb::CommandT& c,
                             const Ctx& ctx) {
  (void)ctx;
  ASSIGN_OR_RETURN(const Combatant* a, Actor(s, c));
  // `spell` (the active spell's name) is required (verbs.cc).
  const Condition* sp = NamedSpell(*a, c);
  if (sp == nullptr) {
    return Refuse("000.control", a->id + " has no such active spell");
  }
  // L39: a Spell Cast on a previous Turn.
  const Combatant* owner = s.Find(TurnOwner(s, a->id));
  const int64_t turn_seq = owner == nullptr ? 0 : owner->Resource(kTurnSeq);
  if (static_cast<int64_t>(sp->added_at) >= turn_seq) {
    return Refuse("000.control",
                  "'" + sp->note +
                      "' was cast this turn: only a spell cast on "
                      "a previous Turn can be Controlled");
  }
  for (const Condition* done : Named(*a, kControlled)) {
    if (done->ref == sp->ref) {
      return Refuse("000.control",
                    "'" + sp->note + "' was already Controlled this Turn");
    }
  }
  return ValidateEffect(s, c, *a);
}

absl::Status ResolveControl(Decision& d, const fb::CommandT& c,
                            const Ctx& ctx) {
  const Condition* sp = NamedSpell(*d.state().Find(c.actor), c);
  const uint32_t spell = sp->id;
  NewCondition done;
  done.actor = c.actor;
  done.name = kControlled;
  done.source = c.actor;
  done.ref = sp->ref;
  done.note = sp->note;
  done.expiry = ThisTurn(d.state(), c.actor);
  RETURN_IF_ERROR(
      AddCondition(d, done,
                   {ctx.cause, "000.control", {}, "controls " + done.note})
          .status());
  return ApplyEffect(d, c, ctx.cause, spell, "000.control");
}

absl::Status ValidateFocus(const State& s, const fb::CommandT& c,
                           const Ctx& ctx) {
  (void)ctx;
  RETURN_IF_ERROR(Actor(s, c).status());
  const int64_t actions = MultiActionCost(c);
  if (actions < 1 || actions > 3) {
    return Malformed(c, "params.actions", "1 to 3 Actions");
  }
  return absl::OkStatus();
}

absl::Status ResolveFocus(Decision& d, const fb::CommandT& c, const Ctx& ctx) {
  const Combatant a = *d.state().Find(c.actor);
  const int64_t actions = MultiActionCost(c);
  const int64_t sum = a.Stat("ess") + a.Stat("level");
  // L43: "(ESS+Level)/3 rounded down" (floor, also for a negative sum).
  const int64_t per = FloorDiv(sum, 3);
  int64_t gain = std::max<int64_t>(0, per) * actions;
  Nums nums = {{"ess", a.Stat("ess")},
               {"level", a.Stat("level")},
               {"per_action", per},
               {"actions", actions}};
  const int64_t now = a.Resource(kEnergy);
  if (a.stats.count("energy_max") != 0) {
    // Reading: "recharging" fills up to energy_max, not past it.
    const int64_t cap = a.Stat("energy_max");
    nums.push_back({"energy_max", cap});
    gain = std::max<int64_t>(0, std::min(gain, cap - now));
  }
  return AddResource(d, c.actor, kEnergy, gain,
                     {ctx.cause, "000.focus", nums, "Focus"})
      .status();
}

}  // namespace combat::kernel::d20
