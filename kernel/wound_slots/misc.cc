// More actions (l.196-238, l.251-252, l.176-179, l.272-282): Cast a Spell
// (mana spent or invested), End a Magical Effect, Ready an Action, Create
// an Opening, Enter Occupied Space, Treat Condition, Jump, Mount/Dismount
// (a shared turn: kernel OrderSet members), regaining control of an
// untrained mount, returning to the surface.
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "events/status_macros.h"
#include "kernel/wound_slots/internal.h"

namespace combat::kernel::wound_slots {
namespace {

int64_t BetterBonus(const Combatant& c, Nums* n) {
  const int64_t p = CheckBonus(c, "str", "athletics", "power", nullptr) + SizeScore(c);
  const int64_t a = CheckBonus(c, "dex", "reflex", "agility", nullptr) - SizeScore(c);
  if (n != nullptr) n->push_back({p >= a ? "power_bonus" : "agility_bonus", std::max(p, a)});
  return std::max(p, a) + CheckPenalties(c, n);  // l.244, l.216, l.70
}

}  // namespace

// ---- Cast a Spell (l.196, l.42): the effect is the school's (GM); the
// ruleset spends or invests the mana. Invested mana makes a "Spell"
// condition (level = mana) that returns it when it ends.
absl::Status CheckCast(const State& s, const Combatant& a, const fb::CommandT& c) {
  const int64_t spend = ParamOr(c, "spend", 0), invest = ParamOr(c, "invest", 0);
  if (spend < 0) return Malformed(c, "params.spend", "mana spent, at least 0");
  if (invest < 0) return Malformed(c, "params.invest", "mana invested, at least 0");
  if (ParamOr(c, "rounds", 1) < 1) return Malformed(c, "params.rounds", "the duration in rounds, at least 1");
  if (spend + invest > a.Resource(res::kMana)) {
    return Refuse("001.mana.spend", absl::StrCat(a.id, " has ", a.Resource(res::kMana), " mana"));
  }
  if (!c.targets.empty()) RETURN_IF_ERROR(Target(s, c).status());
  return absl::OkStatus();
}

absl::Status ResolveCast(Decision& d, const fb::CommandT& c, uint64_t cause) {
  const int64_t spend = ParamOr(c, "spend", 0), invest = ParamOr(c, "invest", 0);
  const std::string spell = c.text.empty() ? "spell" : c.text;
  if (spend > 0) RETURN_IF_ERROR(SpendMana(d, c.actor, spend, {cause, "001.mana.spend", {}, spell}));
  if (invest > 0 || HasParam(c, "rounds")) {
    if (invest > 0) RETURN_IF_ERROR(InvestMana(d, c.actor, invest, {cause, "001.mana.invest", {}, spell}));
    const std::string on = c.targets.empty() ? c.actor : c.targets[0];
    const Expiry e = HasParam(c, "rounds") ? ForRounds(d.state(), ParamOr(c, "rounds", 1)) : Expiry{};
    NewCondition nc;
    nc.actor = on;
    nc.name = "Spell";
    nc.source = c.actor;
    nc.level = invest;
    nc.expiry = e;
    nc.note = spell;
    return AddCondition(d, nc, {cause, "001.duration", {{"invested", invest}, {"rounds", ParamOr(c, "rounds", 0)}}, spell}).status();
  }
  return RecordOutcome(d, c.actor, {cause, "001.mana.spend", {{"spend", spend}}, spell});
}

// ---- End a Magical Effect (l.238): one effect the actor controls, "If
// the item has multiple effects active, each one must be ended
// individually": `params.effect` names which (the spell's name as cast,
// the condition's note), the oldest of that name; without it, the oldest.
namespace {

const Condition* EffectToEnd(const Combatant& on, const std::string& actor, const std::string& name) {
  for (const auto& [id, k] : on.conditions) {  // by instance id: the oldest first
    if (k.name == "Spell" && k.source == actor && (name.empty() || k.note == name)) return &k;
  }
  return nullptr;
}

}  // namespace

absl::Status CheckEndEffect(const State& s, const Combatant& a, const fb::CommandT& c) {
  const Combatant* on = &a;
  if (!c.targets.empty()) { ASSIGN_OR_RETURN(on, Target(s, c)); }
  const std::string name = ParamText(c, "effect");
  if (EffectToEnd(*on, a.id, name) != nullptr) return absl::OkStatus();
  std::vector<std::string> there;
  for (const auto& [id, k] : on->conditions) {
    if (k.name == "Spell" && k.source == a.id) there.push_back(k.note);
  }
  if (there.empty()) return Refuse("001.act.end_effect", a.id + " controls no effect on " + on->id);
  return Refuse("001.act.end_effect", absl::StrCat(a.id, " controls no effect '", name, "' on ", on->id,
                                                   "; params.effect names one of: ", absl::StrJoin(there, ", ")));
}

absl::Status ResolveEndEffect(Decision& d, const fb::CommandT& c, uint64_t cause) {
  const std::string on = c.targets.empty() ? c.actor : c.targets[0];
  const Condition* k = EffectToEnd(*d.state().Find(on), c.actor, ParamText(c, "effect"));
  if (k == nullptr) return absl::OkStatus();
  const uint32_t cid = k->id;
  const int64_t mana = k->level;
  RETURN_IF_ERROR(RemoveCondition(d, on, cid, {cause, "001.act.end_effect", {{"returned", mana}}, "effect ended"}));
  if (mana > 0) {  // l.42: returned as soon as the effect ends (reading: the usual case)
    RETURN_IF_ERROR(AddResource(d, c.actor, res::kInvested, -mana, {cause, "001.mana.invest", {{"returned", mana}}}).status());
    RETURN_IF_ERROR(AddResource(d, c.actor, res::kMana, mana, {cause, "001.mana.invest", {{"returned", mana}}}).status());
  }
  return absl::OkStatus();  // each effect ended individually (l.238)
}

// ---- Ready an Action (l.204): the chosen action may be taken as a
// reaction until the actor takes an action or reaction (acts.cc).
absl::Status CheckReady(const State&, const Combatant& a, const fb::CommandT& c) {
  const std::string act = ParamText(c, "act");
  const Verb* v = FindVerb(act);
  if (v == nullptr || v->reaction || act == "ready") return Malformed(c, "params.act", "the action readied (a verb)");
  return absl::OkStatus();
}

absl::Status ResolveReady(Decision& d, const fb::CommandT& c, uint64_t cause) {
  NewCondition nc;
  nc.actor = c.actor;
  nc.name = "Readied";
  nc.source = c.actor;
  nc.note = ParamText(c, "act");
  return AddCondition(d, nc, {cause, "001.act.ready", {}, "readied: " + nc.note}).status();
}

// ---- Create an Opening (l.214): a melee attack roll; its result replaces
// the actor's Defense against the target's Rebuff for the rest of the turn.
absl::Status ResolveOpening(Decision& d, const fb::CommandT& c, uint64_t cause) {
  AttackSpec spec;
  spec.no_damage = true;
  ASSIGN_OR_RETURN(AttackResult r, Attack(d, c, cause, spec));
  NewCondition nc;
  nc.actor = c.actor;
  nc.name = "Opening";
  nc.source = c.actor;
  nc.relative_to = c.targets[0];
  nc.level = r.total;
  nc.expiry = Expiry{fb::ExpiryKind::TurnEnd, d.state().active, d.state().round};
  return AddCondition(d, nc, {cause, "001.act.opening", {{"attack_roll", r.total}}, "Defense against its rebuff"}).status();
}

// ---- Enter Occupied Space (l.216).
absl::Status CheckEnterSpace(const State& s, const Combatant& a, const fb::CommandT& c) {
  ASSIGN_OR_RETURN(const Combatant* t, Target(s, c));
  if (t->id == a.id) return Malformed(c, "targets[0]", "another creature (l.216: a space occupied by another creature)");
  if (std::abs(SizeScore(a) - SizeScore(*t)) >= 5) return Refuse("001.act.enter", "sizes 5 or more apart");
  if (!Adjacent(s, a, *t)) return Refuse("001.act.enter", t->id + " is not adjacent");
  if (const Condition* k = a.FindCondition("Riding"); k != nullptr) {
    return Refuse("001.mount", a.id + " rides " + k->relative_to + ": the mount moves (reading of l.280)");
  }
  return absl::OkStatus();
}

absl::Status ResolveEnterSpace(Decision& d, const fb::CommandT& c, uint64_t cause) {
  const Combatant a = *d.state().Find(c.actor);
  const Combatant t = *d.state().Find(c.targets[0]);
  ASSIGN_OR_RETURN(const bool holds, HoldsOn(d, a.id, cause));  // l.278, l.70
  if (!holds) return absl::OkStatus();
  Nums nums;
  const int64_t tn = HigherDefense(t);
  // l.84-97's modifiers (melee column) on this check against the target, as
  // on an attack roll (l.70).
  const int64_t bonus = BetterBonus(a, &nums) + AttackModifiers(d.state(), a, t, false, 0, &nums);
  ASSIGN_OR_RETURN(CheckRoll r, RollCheck(d, a.id, bonus, "enter occupied space", cause));
  nums.insert(nums.end(), {{"d20", r.natural}, {"result", r.total}, {"tn", tn}});
  RETURN_IF_ERROR(CriticalInitiative(d, a.id, t.id, r.natural, cause));  // l.70, l.81-82
  if (r.total < tn) return RecordOutcome(d, a.id, {cause, "001.act.enter", nums, "fails"});
  const Why why{cause, "001.act.enter", nums, "same space: -2 to attacks and melee and ranged defenses"};
  RETURN_IF_ERROR(Move(d, a.id, {t.at}, 0, false, why));
  // As after any move: a space it no longer shares (l.216) and a grapple
  // whose two are no longer adjacent (l.230) end.
  RETURN_IF_ERROR(EndSharedSpaces(d, cause));
  RETURN_IF_ERROR(Impose(d, a.id, "SharingSpace", a.id, {}, why, 0, t.id).status());
  return Impose(d, t.id, "SharingSpace", a.id, {}, why, 0, a.id).status();
}

// ---- Treat Condition (l.252).
absl::Status CheckTreatCondition(const State& s, const Combatant& a, const fb::CommandT& c) {
  const Combatant* t = &a;
  if (!c.targets.empty()) { ASSIGN_OR_RETURN(t, Target(s, c)); }
  if (t->id != a.id && !Adjacent(s, a, *t)) return Refuse("001.act.treat_condition", t->id + " is not adjacent");
  if (t->side != a.side && !IsHelpless(*t)) {  // l.252: "willing or helpless"
    return Refuse("001.act.treat_condition", t->id + " is neither willing nor helpless");
  }
  const std::string k = ParamText(c, "condition");
  if (k != "Bleeding" && k != "Burning" && k != "Hobbled" && k != "Poisoned") {
    return Malformed(c, "params.condition", "Bleeding, Burning, Hobbled or Poisoned");
  }
  if (!t->Has(k)) return Refuse("001.act.treat_condition", t->id + " is not " + k);
  if (!HasParam(c, "tn")) return Malformed(c, "params.tn", "the effect's TN");
  return absl::OkStatus();
}

absl::Status ResolveTreatCondition(Decision& d, const fb::CommandT& c, uint64_t cause) {
  const Combatant a = *d.state().Find(c.actor);
  const std::string on = c.targets.empty() ? a.id : c.targets[0];
  const std::string k = ParamText(c, "condition");
  const int64_t tn = ParamOr(c, "tn", 0);
  Nums nums{{"tn", tn}, KitNum(c, "001.act.treat_condition")};  // l.252
  const int64_t bonus = CheckBonus(a, "lor", "healing", ParamText(c, "spec"), &nums) + Kit(c);
  ASSIGN_OR_RETURN(CheckRoll r, RollCheck(d, a.id, bonus, "treat condition", cause));
  nums.insert(nums.end(), {{"d20", r.natural}, {"result", r.total}});
  if (r.total < tn) return RecordOutcome(d, a.id, {cause, "001.act.treat_condition", nums, "fails"});
  const Condition cond = *d.state().Find(on)->FindCondition(k);
  if (k == "Hobbled") return RemoveCondition(d, on, cond.id, {cause, "001.act.treat_condition", nums, "hobbled ends"});
  if (k == "Poisoned") {
    return RecordOutcome(d, a.id, {cause, "001.act.treat_condition", nums, "the poison is reduced as its description says (GM)"});
  }
  const int64_t steps = 1 + FloorDiv(r.total - tn, 2);  // l.252
  nums.push_back({"steps", steps});
  RETURN_IF_ERROR(RemoveCondition(d, on, cond.id, {cause, "001.act.treat_condition", nums, "level reduced"}));
  if (cond.level - steps >= 1) {
    // The same effect at a lower level: it keeps when it began (`ref`), so
    // it still ends before those it began before (l.127).
    NewCondition nc = AsNew(on, cond);
    nc.level = cond.level - steps;
    nc.ref = Began(cond);
    RETURN_IF_ERROR(AddCondition(d, nc, {cause, "001.act.treat_condition", nums}).status());
  }
  return absl::OkStatus();
}

}  // namespace combat::kernel::wound_slots
