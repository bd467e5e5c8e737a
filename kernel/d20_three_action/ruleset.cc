// The ruleset object: Setup and the dispatch of commands to the files that
// decide them.
#include "kernel/d20_three_action/ruleset.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "events/status_macros.h"
#include "kernel/command.h"
#include "kernel/d20_three_action/internal.h"
#include "kernel/gm.h"
#include "kernel/space.h"

namespace combat::kernel::d20 {
namespace {

// HP set or adjusted by ruling (fall damage, L79, is applied with
// gm_adjust hp; a negative gm_adjust is Damage and raises the Bleed Penalty,
// L127): L140 "A Creature dies when it has a negative HP equal to or
// greater than its max HP"; L152 "A Creature with 0 or less HP that is not
// Dead is Incapacitated" (knocked Prone, Bleeding) and, above 0 HP, no
// longer is (as after healing: Unconscious ends with it, damage.cc).
absl::Status HpByRuling(Decision& d, const fb::CommandT& c, uint64_t ruling) {
  if ((c.action != "gm_adjust" && c.action != "gm_set") ||
      ParamText(c, "resource") != kHp) {
    return absl::OkStatus();
  }
  const Combatant* a = d.state().Find(c.actor);
  if (a == nullptr || IsDead(*a)) return absl::OkStatus();
  const std::string who = a->id;
  const int64_t hp = a->Resource(kHp);
  const int64_t max_hp = a->Stat("hp");
  const int64_t delta = ParamOr(c, "delta", 0);
  if (c.action == "gm_adjust" && delta < 0) {
    // L127: "Any time the Creature takes Damage, their Bleed Penalty
    // increases by 1" (HP lowered by ruling is Damage: fall damage, L79;
    // healing is the `heal` verb, damage.cc).
    RETURN_IF_ERROR(AddResource(d, who, kBleedPenalty, 1,
                                {ruling,
                                 "000.bleed.penalty",
                                 {{"damage", -delta}},
                                 "took damage"})
                        .status());
  }
  if (hp <= -max_hp) {
    return Kill(d, who,
                {ruling,
                 "000.dead",
                 {{"hp", hp}, {"max_hp", max_hp}},
                 "negative HP reached max HP"});
  }
  if (hp <= 0) return Incapacitate(d, who, ruling);
  // Back above 0 HP from 0 or less (Incapacitated says it was there): no
  // longer Incapacitated, and awake (as after healing). Damage by ruling to
  // a creature still above 0 HP wakes no one.
  // (Found again: the Bleed Penalty above replaced the working state.)
  if (!d.state().Find(who)->Has(kIncapacitated)) return absl::OkStatus();
  const Why up{ruling, "000.incapacitated", {{"hp", hp}}, "above 0 HP"};
  RETURN_IF_ERROR(RemoveConditionsNamed(d, who, kIncapacitated, up));
  return RemoveConditionsNamed(d, who, kUnconscious, up);
}

// A creature the GM moves out of its grapple partner's space: L59 "Both
// Creatures share the space"; the ruling separated them, so the grapple
// ends (the GM moves both to keep it: L148 "If you Move the Creature
// Grappling you moves with you" is the creature's own Move).
absl::Status SeparatedByRuling(Decision& d, const fb::CommandT& c,
                               uint64_t ruling) {
  if (c.action != "gm_move") return absl::OkStatus();
  const Combatant* a = d.state().Find(c.actor);
  if (a == nullptr) return absl::OkStatus();
  // Each partner left (a creature with two hands may hold two, L59 "a free
  // hand"): only those grapples end, the others still share the space.
  const std::string who = a->id;
  for (const std::string& other : PartnersApart(d.state(), *a)) {
    const Combatant* now = d.state().Find(who);
    const bool held = now->FindRelative(kGrappled, other) != nullptr;
    RETURN_IF_ERROR(EndGrappleWith(
        d, who, other,
        {ruling, held ? "000.grappled" : "000.grappling", {},
         "moved out of " + other + "'s space by ruling"}));
  }
  return absl::OkStatus();
}

// The shared GM verbs with this text's rules: L146 "Additional instances
// of Shaken add to the Duration" also for a timed gm_condition; a condition
// added by ruling has the consequences the text gives it (Dead L140/L152,
// Incapacitated L152, Unconscious L168, Prone L148/L150); HP by ruling (HpByRuling); a grapple
// ends when a ruling moves one partner out of the other's space; a
// condition imposed for `rounds` without `expires` lasts as L13 counts a
// Round: to the start of the running turn's owner's turn `rounds` rounds
// on, after every other creature has had a turn (ForRounds).
const GmRules& Gm() {
  static const GmRules* rules = [] {
    auto* r = new GmRules("000.gm");
    r->rounds_expiry = [](const State& s, const std::string& actor, int64_t rounds) {
      return ForRounds(s, actor, rounds);
    };
    r->add_condition = [](Decision& d, const NewCondition& nc,
                          const Why& why) -> absl::Status {
      const fb::ExpiryKind k = nc.expiry.kind;
      if (nc.name == kShaken &&
          (k == fb::ExpiryKind::TurnStart || k == fb::ExpiryKind::RoundStart ||
           k == fb::ExpiryKind::RoundEnd)) {
        Why w = why;
        w.rule = "000.shaken";
        return AddShaken(d, nc.actor, nc.source,
                         nc.expiry.round - d.state().round, nc.parent, w,
                         nc.expiry);
      }
      // L140/L152: the Dead are no longer Incapacitated nor Bleeding, hold
      // no one and wait with no readied action (Kill).
      if (nc.name == kDead) return Kill(d, nc.actor, why);
      const bool first_incapacitated =
          nc.name == kIncapacitated &&
          !d.state().Find(nc.actor)->Has(kIncapacitated);
      RETURN_IF_ERROR(AddCondition(d, nc, why).status());
      if (first_incapacitated) {
        // L152: "When a Creature first becomes Incapacitated it is knocked
        // Prone, and begins Bleeding".
        const Why inc{why.cause, "000.incapacitated", {},
                      "first Incapacitated: Prone and Bleeding (L152)"};
        RETURN_IF_ERROR(KnockProne(d, nc.actor, inc));
        if (!d.state().Find(nc.actor)->Has(kBleeding)) {
          RETURN_IF_ERROR(Apply(d, nc.actor, kBleeding, nc.actor, 0,
                                std::nullopt, inc)
                              .status());
        }
        return absl::OkStatus();
      }
      if (nc.name == kUnconscious) {
        // L168: "They fall Prone" (and a grapple partner with them).
        return KnockProne(d, nc.actor,
                          {why.cause, "000.unconscious", {},
                           "an Unconscious creature falls Prone (L168)"});
      }
      if (nc.name == kProne) {
        // L148/L150: "If you fall Prone the Creature Grappling you falls
        // with you" (and the one you grapple).
        return KnockProne(d, nc.actor, why);
      }
      if (nc.name == kChoked) {
        // L77: a creature with STR 0 or less holds its breath for no Round,
        // whatever cuts it off (water, smoke: the GM's `choked`).
        return BreathCutOff(d, nc.actor, why.cause);
      }
      return absl::OkStatus();
    };
    r->after = [](Decision& d, const fb::CommandT& c,
                  uint64_t ruling) -> absl::Status {
      RETURN_IF_ERROR(HpByRuling(d, c, ruling));
      RETURN_IF_ERROR(SeparatedByRuling(d, c, ruling));
      RETURN_IF_ERROR(SteadyAllTouching(d, ruling));  // L85, a GM's move
      // A creature killed by ruling on its own turn: its turn ends.
      return EndTurnIfDead(d, ruling);
    };
    return r;
  }();
  return *rules;
}

class D20ThreeActionRuleset : public Ruleset {
 public:
  // 5 ft squares (the text's distances are in feet: L35, L39).
  Measure measure() const override { return {fb::DistanceUnit::Feet, kSquare}; }
  std::string id() const override { return "d20_three_action"; }
  // 2: kernel pending acts and windows (schema v5); 3: the fidelity pass
  // (issue 15) and verb schemas (issue 16) decide differently.
  int32_t version() const override { return 15; }

  absl::Status Setup(const fb::Roster& roster, Decision& d) const override {
    return SetupRoster(roster, d);
  }

  absl::Status Decide(const fb::CommandT& cmd, Decision& d) const override {
    if (cmd.action == "gm_condition" && HasParam(cmd, "name")) {
      // Condition names are a closed list (CanonicalCondition).
      ASSIGN_OR_RETURN(std::string name,
                       CanonicalCondition(ParamText(cmd, "name"),
                                          "command 'gm_condition': param "
                                          "'name'"));
      fb::CommandT canon = cmd;
      for (auto& p : canon.params) {
        if (p && p->key == "name") p->text = name;
      }
      return DecideGm(canon, Gm(), d);
    }
    if (cmd.action == "gm_order") {
      // L13: a reorder keeps the Round durations at their old places.
      const std::vector<OrderEntry> old_order = d.state().order;
      RETURN_IF_ERROR(DecideGm(cmd, Gm(), d));
      uint64_t ruling = 0;
      for (const events::EventBuffer& e : d.events()) {
        if (e.event().body_type() == fb::Body::StateChange &&
            e.event().body_as_StateChange()->change_type() ==
                fb::Change::Ruling) {
          ruling = e.event().seq();
          break;
        }
      }
      Decision::SystemSteps system(d);
      return KeepRoundPlacesOnReorder(d, old_order, ruling);
    }
    if (IsGmVerb(cmd.action)) return DecideGm(cmd, Gm(), d);
    if (cmd.action == "heal") return DecideHeal(cmd, d);
    if (!d.state().windows.empty() || cmd.window != 0) {
      return DecideAnswer(cmd, d);
    }
    if (cmd.action == "pass") {
      return Refuse("000.ready", "no window is open: there is nothing to pass");
    }
    if (cmd.action == "end_turn") return DecideEndTurn(cmd, d);
    if (cmd.action == "delay") return DecideDelay(cmd, d);
    if (cmd.action == "hold") return DecideHold(cmd, d);
    if (cmd.action == "enter") return DecideEnter(cmd, d);
    if (cmd.action == "use_skill" && ParamOr(cmd, "reaction", 0) != 0) {
      return DecideReactionSkill(cmd, d);
    }
    const ActionSpec* a = FindAction(cmd.action);
    if (a == nullptr) {
      // Unreachable through kernel::DecideCommand, which checks the verb
      // table first; `pass` without an open window lands here too.
      std::vector<std::string> known;
      for (const VerbSchema& v : d20::Verbs()) known.push_back(v.verb);
      return Malformed(
          cmd, "action",
          absl::StrCat("unknown action '", cmd.action,
                       "' (known: ", absl::StrJoin(known, ", "), ")"));
    }
    return DeclareAction(*a, cmd, d);
  }

  const std::vector<RuleRef>& Rules() const override { return RuleTable(); }
  // Vitals: HP up to the roster's hp (L57, damage.cc heals up to it) and
  // Energy up to energy_max; the turn's budgets: Actions and Reactions
  // (L13-L19); bookkeeping: when a turn last began or ended.
  Display display() const override {
    Display d;
    d.vitals = {{"hp", "hp", "", {}}, {"energy", "energy_max", "", {}}};
    d.budgets = {"actions", "reactions"};
    d.bookkeeping = {"breath_round", "fall_ft", "sot_round", "split_heading",
                     "turn_round", "turn_seq"};
    return d;
  }
  const std::vector<VerbSchema>& Verbs() const override { return d20::Verbs(); }
};

}  // namespace

const Ruleset& D20ThreeAction() {
  static const D20ThreeActionRuleset* rules = new D20ThreeActionRuleset();
  return *rules;
}

}  // namespace combat::kernel::d20
