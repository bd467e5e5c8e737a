// The opposed_tests ruleset: Setup and the command dispatch.
#include "kernel/opposed_tests/ruleset.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/command.h"
#include "kernel/gm.h"
#include "kernel/opposed_tests/internal.h"

namespace combat::kernel::opposed {
namespace {

// The shared GM verbs; Health set to 0 by ruling knocks out (l.116).
const GmRules& Gm() {
  static const GmRules* rules = [] {
    auto* r = new GmRules("003.gm");
    r->after = [](Decision& d, const fb::CommandT& c, uint64_t ruling) -> absl::Status {
      if ((c.action == "gm_adjust" || c.action == "gm_set") &&
          ParamText(c, "resource") == kHealth) {
        const Combatant* a = d.state().Find(c.actor);
        if (a != nullptr && a->Resource(kHealth) <= 0) RETURN_IF_ERROR(FallUnconscious(d, a->id, ruling));
      }
      // l.28, l.116: a grappler the GM rules unconscious lets go, as one a
      // blow knocks out does (FallUnconscious; black-box case: the GM's
      // Unconscious left its foe Grappled, unable to move).
      if (c.action == "gm_condition" && ParamText(c, "name") == kUnconscious &&
          ParamText(c, "op") == "add" && d.state().Find(c.actor) != nullptr) {
        RETURN_IF_ERROR(BreakGrapples(d, c.actor, ruling));
      }
      if (c.action == "gm_move" && d.state().Find(c.actor) != nullptr) {
        RETURN_IF_ERROR(LeaveCover(d, c.actor, ruling));
        RETURN_IF_ERROR(BreakGrapples(d, c.actor, ruling));
      }
      // l.116: the active character knocked out by a ruling (Health 0, or
      // Unconscious added) loses the rest of its turn, as when a blow
      // knocks it out (black-box case: it stayed active, unconscious).
      // Settle first: an opportunity window left waiting only for owners
      // now unconscious lets its held act go on (l.116; Settle).
      RETURN_IF_ERROR(Settle(d, ruling));
      return ResumeTurns(d, ruling);
    };
    return r;
  }();
  return *rules;
}

class OpposedTestsRuleset : public Ruleset {
 public:
  // Metres (l.11, l.26, l.72); 1 m squares (reading: no grid rule given).
  Measure measure() const override { return {fb::DistanceUnit::Metres, 1}; }
  std::string id() const override { return kId; }
  int32_t version() const override { return kVersion; }
  const std::vector<RuleRef>& Rules() const override { return RuleTable(); }
  // Vital: the Health Pool up to the roster's health; the turn's budget:
  // AP; bookkeeping: the round a turn last ended in.
  Display display() const override {
    Display d;
    d.vitals = {{kHealth, "health", "", {}}};
    d.budgets = {"ap", "attacks"};
    d.bookkeeping = {"turn_round"};
    return d;
  }
  const std::vector<VerbSchema>& Verbs() const override { return opposed::Verbs(); }

  absl::Status Setup(const fb::Roster& roster, Decision& d) const override {
    return SetupRoster(roster, d);
  }

  absl::Status Decide(const fb::CommandT& c, Decision& d) const override {
    if (IsGmVerb(c.action)) return DecideGm(c, Gm(), d);
    const std::string& a = c.action;
    RETURN_IF_ERROR(CheckShape(c));
    if (a == "strike") return DecideStrike(c, d);
    if (a == "defend") return DecideDefend(c, d);
    if (a == "maneuver") return DecideManeuver(c, d);
    if (a == "opportunity_attack" || a == "pass") return DecideOpportunity(c, d);
    if (a == "move" || a == "dash" || a == "sneak") return DecideMove(c, d);
    if (a == "disengage") return DecideDisengage(c, d);
    if (a == "stand") return DecideStand(c, d);
    if (a == "grapple") return DecideGrapple(c, d);
    if (a == "release") return DecideRelease(c, d);
    if (a == "search") return DecideSearch(c, d);
    if (a == "manipulate") return DecideManipulate(c, d);
    if (a == "use_magic") return DecideUseMagic(c, d);
    if (a == "end_turn") return DecideEndTurn(c, d);
    if (a == "save_turn") return DecideSaveTurn(c, d);
    return absl::InvalidArgumentError(absl::StrCat(
        "command: field 'action': unknown action '", a,
        "' for ruleset opposed_tests (see kernel/opposed_tests/README.md)"));
  }
};

}  // namespace

const Ruleset& OpposedTests() {
  static const OpposedTestsRuleset* r = new OpposedTestsRuleset();
  return *r;
}

}  // namespace combat::kernel::opposed
