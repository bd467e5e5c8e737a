// The wound_slots ruleset: Setup, free verbs and the command dispatch.
#include "kernel/wound_slots/ruleset.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/dice/notation.h"
#include "kernel/gm.h"
#include "kernel/roster_specs.h"
#include "kernel/wound_slots/internal.h"

namespace combat::kernel::wound_slots {
namespace {

absl::Status SpecError(const std::string& id, const std::string& field,
                       const std::string& why) {
  return RosterError(id, field, why);
}

absl::Status CheckSpec(const fb::CombatantSpecT& spec) {
  for (const auto& n : spec.stats) {
    if (!n) continue;
    if ((n->key == "stamina" || n->key == "mana" || n->key == "armor") && n->value < 0) {
      return SpecError(spec.id, "stats." + n->key, "at least 0");
    }
    if (n->key.rfind("ap/", 0) == 0 && n->value < 1) {
      return SpecError(spec.id, "stats." + n->key, "an AP cost is at least 1 (l.112)");
    }
    if (n->key == "move_rate" && n->value < 0) return SpecError(spec.id, "stats.move_rate", "at least 0");
  }
  int kinds = 0;
  for (const char* t : {"minion", "standard", "elite"}) {
    for (const std::string& tag : spec.tags) kinds += tag == t ? 1 : 0;
  }
  if (kinds > 1) return SpecError(spec.id, "tags", "at most one of minion, standard, elite (l.36)");
  for (const auto& w : spec.weapons) {
    if (!w) continue;
    if (w->name.empty()) return SpecError(spec.id, "weapons.name", "required");
    if (w->kind != "melee" && w->kind != "ranged" && w->kind != "thrown") {
      return SpecError(spec.id, "weapons." + w->name + ".kind", "melee, ranged or thrown");
    }
    // A reach is the weapon's number "reach", in yards between the spaces
    // (l.230; default 1), not the shared field (was: ignored without a word).
    RETURN_IF_ERROR(UnreadWeaponReach(spec.id, *w, "weapons." + w->name + ".reach",
                                      "give the reach in yards between the spaces as numbers.reach (l.230: "
                                      "adjacent is 0; default 1)"));
    if (!w->damage.empty()) {
      if (auto e = dice::ParseDice(w->damage); !e.ok()) {
        return SpecError(spec.id, "weapons." + w->name + ".damage", std::string(e.status().message()));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status SetUpResources(Decision& d, const std::string& id) {
  const Combatant c = *d.state().Find(id);
  const Why setup{0, "001.setup"};
  RETURN_IF_ERROR(SetResource(d, id, res::kAp, 0, {0, "001.ap.gain", {}, "AP come at the start of the round"}));
  // l.38: stamina never goes below 0 ("your stamina instead becomes 0"): a
  // pool of race + Vitality below 0 starts at 0 (likewise mana, l.42
  // "functions similarly to stamina").
  RETURN_IF_ERROR(SetResource(d, id, res::kStamina, std::max<int64_t>(0, NormalMaxStamina(c)),
                              {0, "001.stamina.pool", {{"race", c.Stat("stamina")}, {"vit", c.Stat("vit")}}}));
  RETURN_IF_ERROR(SetResource(d, id, res::kFatigue, 0, setup));
  RETURN_IF_ERROR(SetResource(d, id, res::kMana, std::max<int64_t>(0, NormalMaxMana(c)),
                              {0, "001.mana.pool", {{"race", c.Stat("mana")}, {"lor", c.Stat("lor")}}}));
  for (int l = kLight; l <= kFatal; ++l) {
    const char* rule = l == kLight || l == kFatal ? "001.wound.light" : IsNpc(c) ? "001.npc.track" : "001.wound.table";
    RETURN_IF_ERROR(SetResource(d, id, SlotsKey(l), SlotsFor(c, l),
                                {0, rule, {{"vit", c.Stat("vit")}, {"prs", c.Stat("prs")}}}));
    RETURN_IF_ERROR(SetResource(d, id, WoundsKey(l), 0, setup));
  }
  return absl::OkStatus();
}

// l.97: ignore specific flankers (any time on your turn, or as a free
// reaction when first flanked: reading, off your turn while you are
// flanked), stop ignoring on your turn. Free: no AP.
absl::Status DecideIgnore(const fb::CommandT& c, Decision& d) {
  const State& s = d.state();
  ASSIGN_OR_RETURN(const Combatant* a, Actor(s, c));
  if (c.targets.empty()) return Malformed(c, "targets", "the creatures to (stop) ignoring");
  const bool stop = c.action == "unignore";
  if (stop && !s.IsTurnOf(a->id)) return Refuse("001.attack.rear", "you stop ignoring a creature on your turn");
  if (!stop && !s.IsTurnOf(a->id)) {
    // Off its turn only "as a free reaction when you first become flanked"
    // (l.97): while flanked, and a reaction needs initiative above 0 (l.120).
    if (!Flanked(s, *a)) return Refuse("001.attack.rear", "off your turn you may ignore flankers only as a reaction when you become flanked, and " + a->id + " is not flanked");
    if (InitiativeOf(s, a->id) == 0) return Refuse("001.initiative.zero", a->id + " has initiative 0: no reactions");
  }
  std::vector<uint32_t> drop;
  for (size_t i = 0; i < c.targets.size(); ++i) {
    ASSIGN_OR_RETURN(const Combatant* t, Target(s, c, i));
    if (t->id == a->id) return Malformed(c, absl::StrCat("targets[", i, "]"), "another creature (l.97: the creatures flanking you)");
    const Condition* k = a->FindRelative("Ignoring", t->id);
    if (!stop && k != nullptr) return Refuse("001.attack.rear", a->id + " already ignores " + t->id);
    if (stop && k == nullptr) return Refuse("001.attack.rear", a->id + " does not ignore " + t->id);
    if (k != nullptr) drop.push_back(k->id);
  }
  const std::string who = a->id;
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  if (stop) {
    for (uint32_t id : drop) RETURN_IF_ERROR(RemoveCondition(d, who, id, {decl, "001.attack.rear"}));
    return absl::OkStatus();
  }
  for (const std::string& t : c.targets) {
    RETURN_IF_ERROR(Impose(d, who, "Ignoring", who, {}, {decl, "001.attack.rear", {}, "attacks from it are rear attacks"}, 0, t).status());
  }
  return absl::OkStatus();
}

// The shared GM verbs, with this text's consequences: a wound count or the
// fatigue set by ruling updates Wounded (l.32), Exhausted and Staggered
// (l.40); a condition imposed for `rounds` without `expires` lasts as l.127
// counts durations (ends at the end of round now + rounds - 1).
const GmRules& Gm() {
  static const GmRules* rules = [] {
    auto* r = new GmRules("001.gm");
    r->rounds_expiry = [](const State& s, const std::string&, int64_t rounds) {
      return ForRounds(s, rounds);
    };
    r->after = [](Decision& d, const fb::CommandT& c, uint64_t ruling) -> absl::Status {
      if ((c.action != "gm_set" && c.action != "gm_adjust") || c.actor.empty()) return absl::OkStatus();
      const Combatant* a = d.state().Find(c.actor);
      if (a == nullptr) return absl::OkStatus();
      const std::string resource = ParamText(c, "resource");
      if (resource.rfind("wounds_", 0) == 0) return UpdateWounded(d, a->id, {ruling, "001.wound.wounded"});
      if (resource == res::kFatigue) {
        return SetFatigue(d, a->id, a->Resource(res::kFatigue), {ruling, "001.fatigue"});
      }
      return absl::OkStatus();
    };
    return r;
  }();
  return *rules;
}

class WoundSlotsRuleset : public Ruleset {
 public:
  Measure measure() const override { return {fb::DistanceUnit::Yards, 1}; }  // l.161
  std::string id() const override { return kId; }
  int32_t version() const override { return kVersion; }
  const std::vector<RuleRef>& Rules() const override { return RuleTable(); }
  // Vitals: Stamina and Mana up to their maxima less fatigue and what is
  // invested (l.38, l.42); the turn's budget: AP; bookkeeping: the round a
  // turn last ended in; a move's `reacted` "ready:gob" reads "gob (readied)".
  Display display() const override {
    Display d;
    d.vitals = {{"stamina", "", "", MaxStamina}, {"mana", "", "", MaxMana}};
    d.budgets = {"ap"};
    d.bookkeeping = {"turn_round"};
    d.reacted = ReadyMarkText;
    return d;
  }
  const std::vector<VerbSchema>& Verbs() const override { return wound_slots::Verbs(); }

  absl::Status Setup(const fb::Roster& roster, Decision& d) const override {
    ASSIGN_OR_RETURN(std::vector<fb::CombatantSpecT> specs,
                     RosterSpecs(roster, CheckSpec));
    for (const fb::CombatantSpecT& t : specs) {
      RETURN_IF_ERROR(JoinCombatant(d, t, {0, "001.setup"}));
    }
    for (const fb::CombatantSpecT& t : specs) RETURN_IF_ERROR(SetUpResources(d, t.id));
    RETURN_IF_ERROR(UnderwaterTerrain(d, 0));  // l.174, l.275: who starts on an underwater square
    return BeginCombat(d);
  }

  // l.220 "You climb atop a horse": a rider occupies its mount's space. The
  // GM moving a mount moves its rider with it (l.280); the GM moving a
  // rider out of that space puts it off the mount (reading). As after any
  // movement, those no longer in the same space stop sharing it (l.216)
  // and a grapple whose two are no longer adjacent ends (l.230).
  static absl::Status DecideGmMove(const fb::CommandT& c, Decision& d) {
    const uint64_t decl = d.next_seq();  // DecideGm's declaration
    RETURN_IF_ERROR(DecideGm(c, Gm(), d));
    const Combatant* moved = d.state().Find(c.actor);
    if (moved == nullptr) return absl::OkStatus();
    if (const Condition* k = moved->FindCondition("Ridden"); k != nullptr) {
      const Combatant* rider = d.state().Find(k->relative_to);
      if (rider != nullptr && !(rider->at == moved->at)) {
        RETURN_IF_ERROR(Move(d, rider->id, {moved->at}, 0, true, {decl, "001.mount", {}, "moves with " + moved->id}));
      }
    } else if (const Condition* r = moved->FindCondition("Riding"); r != nullptr) {
      const Combatant* mount = d.state().Find(r->relative_to);
      if (mount != nullptr && !(mount->at == moved->at)) {
        RETURN_IF_ERROR(EndRiding(d, moved->id, {decl, "001.mount", {}, "moved off the mount by the GM"}));
      }
    }
    return EndSharedSpaces(d, decl);
  }

  absl::Status Decide(const fb::CommandT& c, Decision& d) const override {
    // A command knocking out or killing the active creature (a Rebuff, an
    // act out of turn, the GM's ruling) ends its turn (turns.cc
    // EndIncapableTurn, l.108, l.124), caused by the command's first event.
    const uint64_t first = d.next_seq();
    RETURN_IF_ERROR(Dispatch(c, d));
    if (d.next_seq() == first) return absl::OkStatus();
    RETURN_IF_ERROR(EndIncapableTurn(d, first));
    // The rounds stopped with nobody able to take a turn (turns.cc Advance)
    // go on once someone can (l.108).
    return ResumeRounds(d, first);
  }

  static absl::Status Dispatch(const fb::CommandT& c, Decision& d) {
    if (c.action == "gm_move") return DecideGmMove(c, d);
    if (IsGmVerb(c.action)) return DecideGm(c, Gm(), d);
    if (c.action == "end_turn") return DecideEndTurn(c, d);
    if (c.action == "interrupt") return DecideInterrupt(c, d);
    if (c.action == "pass") return DecidePass(c, d);
    if (c.action == "resolve") return DecideResolve(c, d);
    if (c.action == "cancel") return DecideCancel(c, d);
    if (c.action == "move") return DecideMove(c, d);
    if (c.action == "join") return DecideJoin(c, d);
    if (c.action == "ignore" || c.action == "unignore") return DecideIgnore(c, d);
    if (c.action == "spend_stamina") return DecideSpendStamina(c, d);
    if (c.action == "short_rest") return DecideShortRest(c, d);
    if (c.action == "long_rest") return DecideLongRest(c, d);
    if (wound_slots::FindVerb(c.action) != nullptr) return DeclareAct(c, d);
    return absl::InvalidArgumentError(absl::StrCat(
        "command: field 'action': unknown action '", c.action,
        "' for ruleset wound_slots (see kernel/wound_slots/README.md)"));
  }
};

}  // namespace

const Ruleset& WoundSlots() {
  static const WoundSlotsRuleset* r = new WoundSlotsRuleset();
  return *r;
}

}  // namespace combat::kernel::wound_slots
