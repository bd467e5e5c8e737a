// Maneuvers (l.65-77): on a critical win the winner may attempt one
// against the loser "as part of the attack" (l.66). The attack's
// resolution waits in a "maneuver" window nested in the defense window
// (kernel/window.h), eligible: the winner, who answers
//   maneuver {maneuver: bash|brace|disarm|feint|precision|push|trip|none,
//             item (disarm: the loser's weapon or shield)}
// Then the attack finishes: damage when the attacker won (maximized by
// Precision, l.71), nothing when the defender won (l.60).
// Size (l.74-77), for the starred maneuvers: stat "size_class" (default 2,
// medium); target one larger: boon; more: automatic pass; one smaller:
// bane; more: automatic fail.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "events/status_macros.h"
#include "kernel/command.h"
#include "kernel/opposed_tests/internal.h"
#include "kernel/pending.h"
#include "kernel/window.h"

namespace combat::kernel::opposed {
namespace {

constexpr char kManeuverWindow[] = "maneuver";
constexpr char kManeuverAct[] = "maneuver";

bool HeavyOrShield(const Combatant& c) {
  for (const Weapon& w : c.weapons) {
    if (!Holds(c, w.name)) continue;
    if (w.kind == "shield" || w.category == "heavy" || Trait(w, "heavy")) return true;
  }
  return false;
}

// The target's test against a starred maneuver, with size (l.76-77).
TestSpec Resist(const Combatant& winner, const Combatant& loser,
                const std::string& skill, Nums& nums) {
  TestSpec t;
  t.who = loser.id;
  t.skill = skill;
  t.attribute = GoverningAttribute(skill);
  t.purpose = skill + " test against a maneuver";
  const int64_t diff = SizeClass(loser) - SizeClass(winner);
  nums.push_back({"size_difference", diff});
  // l.76-77: the sizes of the two give it.
  const std::string sizes = absl::StrCat(loser.id, " size ", SizeClass(loser), " vs ", winner.id, " size ", SizeClass(winner));
  if (diff == 1) t.Boon("size", sizes, "003.maneuver.size");
  if (diff >= 2) t.AutoPass("size", sizes, "003.maneuver.size");
  if (diff == -1) t.Bane("size", sizes, "003.maneuver.size");
  if (diff <= -2) t.AutoFail("size", sizes, "003.maneuver.size");
  // l.116 "knocked unconscious": a loser lying unconscious cannot make the
  // test it "must pass" (l.67-73): it fails it, as its defense (l.58) and
  // its test against a Grapple (actions.cc) do. But l.76's automatic
  // pass of a creature more than one size larger needs no test: it holds
  // for an unconscious one too (the text's rule before the reading).
  if (!Conscious(loser) && diff < 2) t.AutoFail("cannot_defend", loser.id + " unconscious", "003.health");
  return t;
}

// l.69 "Choose an item the target is holding": a weapon or shield in its
// hands, not a spell nor a natural weapon (a bite, claws, unarmed
// fighting: no item to lose, nothing to land on the floor).
bool HeldItem(const Combatant& c, const Weapon& w) {
  return w.kind != "spell" && w.kind != "natural" && Holds(c, w.name);
}

absl::StatusOr<TestResult> Roll(Decision& d, TestSpec t, uint64_t cause, Nums& nums) {
  ASSIGN_OR_RETURN(TestResult r, RollTest(d, t, cause));
  for (const Num& n : r.nums) nums.push_back(n);
  nums.push_back({"pass", r.pass ? 1 : 0});
  return r;
}

absl::Status Impose(Decision& d, const std::string& who, const std::string& name,
                    const std::string& source, Expiry e, const std::string& relative,
                    const Why& why) {
  NewCondition nc;
  nc.actor = who;
  nc.name = name;
  nc.source = source;
  nc.expiry = e;
  nc.relative_to = relative;
  return AddCondition(d, nc, why).status();
}

// l.73 "Trip*. You knock your foe down. The target must pass an
// Acrobatics test, or be knocked prone": the test failed, the loser is
// Prone, once. A loser already lying Prone stays as it was (no second
// Prone). One standing up from it (its `stand` held by the opportunity
// attack the stand provoked, l.84, and not yet tripped) is knocked down as
// it stands: the Prone it lay in is replaced by the Trip's, removed first
// so that the Trip's Prone is the last change to it (movement.cc
// FinishStand then leaves it: the stand does not stand it up).
absl::Status Trip(Decision& d, const std::string& winner, const std::string& loser, uint64_t seq,
                  const std::string& rule, const Nums& nums) {
  const Combatant& l = *d.state().Find(loser);
  if (!l.Has(kProne)) {
    return Impose(d, loser, kProne, winner, Expiry{}, "", {seq, rule, nums, "knocked prone"});
  }
  uint64_t stand = 0;  // the declaration of the stand under way, if any
  for (const auto& [id, p] : d.state().pending) {
    if (p.kind == kHeldBack && p.actor == loser && p.command->action == "stand") stand = p.decl;
  }
  // Lying, not standing up: or tripped already since it began to stand.
  if (stand == 0 || ProneSince(d.state(), loser, stand) != 0) {
    return RecordOutcome(d, loser, {seq, rule, nums, loser + " is already prone: it stays Prone"});
  }
  std::vector<uint32_t> lying;  // the Prone it lay in
  for (const auto& [id, k] : l.conditions) {
    if (k.name == kProne) lying.push_back(id);
  }
  for (uint32_t id : lying) {
    RETURN_IF_ERROR(RemoveCondition(d, loser, id,
                                    {seq, rule, {},
                                     absl::StrCat("replaced by the Prone of the Trip: knocked down as it stood up, ",
                                                  loser, " does not stand up")}));
  }
  return Impose(d, loser, kProne, winner, Expiry{}, "", {seq, rule, nums, "knocked prone as it stood up"});
}

}  // namespace

absl::Status OpenManeuver(Decision& d, const fb::CommandT& attack, uint64_t cause,
                          const std::string& winner, const std::string& loser,
                          bool attacker_won) {
  if (!Conscious(*d.state().Find(winner))) {
    return FinishAttack(d, attack, cause, attacker_won, false, false);
  }
  NewPending np;
  np.kind = kManeuverAct;
  np.actor = winner;
  np.decl = cause;
  np.command = attack;
  np.progress = attacker_won ? 1 : 2;
  ASSIGN_OR_RETURN(uint32_t pending,
                   OpenPending(d, np, {cause, "003.maneuver", {}, "the attack waits for the winner's maneuver"}));
  WindowSpec w;
  w.trigger = cause;
  w.kind = kManeuverWindow;
  w.eligible = {winner};
  w.policy = fb::AnswerPolicy::InOrder;
  w.pending = pending;
  // The window names only the maneuvers DecideManeuver would take (as the
  // defense window names the open defenses): Bash with a shield or heavy
  // weapon (l.67), Disarm when the loser holds an item (l.69), Precision
  // as part of a Strike the attacker won (l.71).
  const Combatant& w_c = *d.state().Find(winner);
  const Combatant& l_c = *d.state().Find(loser);
  bool holds = false;
  for (const Weapon& item : l_c.weapons) holds = holds || HeldItem(l_c, item);
  const bool precision = attacker_won && (attack.action == "strike" || attack.action == "opportunity_attack");
  std::vector<std::string> open;
  if (HeavyOrShield(w_c)) open.push_back("bash");
  open.push_back("brace");
  if (holds) open.push_back("disarm");
  open.push_back("feint");
  if (precision) open.push_back("precision");
  open.push_back("push");
  open.push_back("trip");
  return OpenWindow(d, w, {cause, "003.maneuver", {},
                           absl::StrCat(winner, " may maneuver (", absl::StrJoin(open, ", "),
                                        " or none)")})
      .status();
}

absl::Status DecideManeuver(const fb::CommandT& c, Decision& d) {
  const State& s = d.state();
  RETURN_IF_ERROR(CheckAnswer(s, c, Cite("003.maneuver")));
  const Window& w = s.windows.at(c.window);
  if (w.kind != kManeuverWindow) {
    return Malformed(c, "window", absl::StrCat("window ", w.id, " is a ", w.kind,
                                               " window, not a maneuver window"));
  }
  const PendingAct held = *s.FindPending(w.pending);
  const fb::CommandT attack = held.command;
  const bool attacker_won = held.progress == 1;
  const Combatant winner = *s.Find(held.actor);
  const Combatant loser = *s.Find(attacker_won ? attack.targets[0] : attack.actor);
  const std::string m = ParamText(c, "maneuver");
  static const char* kKnown[] = {"bash", "brace", "disarm", "feint", "precision",
                                 "push", "trip", "none"};
  bool known = false;
  for (const char* k : kKnown) known = known || m == k;
  if (!known) {
    return Malformed(c, "params.maneuver",
                     "bash, brace, disarm, feint, precision, push, trip or none");
  }
  if ((HasParam(c, "item")) != (m == "disarm")) {
    return Malformed(c, "params.item", "disarm (only) names the item to take");
  }
  if (HasParam(c, "location") && m != "precision") {
    return Malformed(c, "params.location", "only precision chooses a hit location");
  }
  if (m == "bash" && !HeavyOrShield(winner)) {
    return Refuse("003.maneuver.bash", winner.id + " wields no shield or heavy weapon");
  }
  if (m == "precision" && (!attacker_won || (attack.action != "strike" &&
                                              attack.action != "opportunity_attack"))) {
    return Refuse("003.maneuver.precision", "Precision must be used as part of a Strike that hits");
  }
  const Weapon* item = nullptr;
  if (m == "disarm") {
    item = loser.FindWeapon(ParamText(c, "item"));
    if (item == nullptr || !HeldItem(loser, *item)) {
      std::string held;  // what could be named instead
      for (const Weapon& w : loser.weapons) {
        if (HeldItem(loser, w)) absl::StrAppend(&held, held.empty() ? "" : ", ", w.name);
      }
      const bool natural = item != nullptr && item->kind == "natural";
      return Refuse("003.maneuver.disarm",
                    absl::StrCat(loser.id, " holds no item '", ParamText(c, "item"), "'",
                                 natural ? " (a natural weapon is not an item it holds)" : "",
                                 " (it holds: ", held.empty() ? "nothing" : held, ")"));
    }
  }
  const Weapon item_copy = item != nullptr ? *item : Weapon{};
  const uint64_t cause = held.decl;
  if (!Conscious(winner)) {
    // l.116 "knocked unconscious": a winner knocked out (a GM ruling) while
    // its maneuver window is open can no longer attempt one (l.66), as a
    // winner unconscious when it wins makes none (OpenManeuver): the answer
    // (the system's `none`, AnswerForTheUnconscious in combat_roll.cc) is
    // recorded, no maneuver made, and the attack ends as won without one
    // (the attacker's hit rolls its damage, l.60). Black-box case: the
    // unconscious winner tripped its foe.
    const std::string why = "no maneuver: " + winner.id + " is unconscious";
    ASSIGN_OR_RETURN(uint64_t seq, Answer(d, c));
    Decision::SystemSteps system(d);
    ASSIGN_OR_RETURN(std::optional<PendingAct> p, CloseWindow(d, c.window, why, {seq, "003.health"}));
    if (p.has_value()) RETURN_IF_ERROR(ClosePending(d, p->id, why, {seq, "003.health"}));
    return FinishAttack(d, attack, cause, attacker_won, false, false);
  }
  ASSIGN_OR_RETURN(uint64_t seq, Answer(d, c));
  ASSIGN_OR_RETURN(std::optional<PendingAct> p,
                   CloseWindow(d, c.window, "maneuver: " + m, {seq, "003.maneuver"}));
  if (p.has_value()) {
    RETURN_IF_ERROR(ClosePending(d, p->id, "resolved", {seq, "003.maneuver"}));
  }
  Nums nums;
  bool maximize = false;
  const std::string rule = "003.maneuver." + m;
  if (m == "none") {
    RETURN_IF_ERROR(RecordOutcome(d, winner.id, {seq, "003.maneuver", {}, "no maneuver"}));
  } else if (m == "brace") {
    RETURN_IF_ERROR(Impose(d, winner.id, kBraced, winner.id, Expiry{fb::ExpiryKind::OnUse, winner.id, 0},
                           "", {seq, rule, {}, "next Defense test gains a boon"}));
  } else if (m == "precision") {
    maximize = true;
    RETURN_IF_ERROR(RecordOutcome(d, winner.id, {seq, rule, {},
                                                 "damage die maximized; hit location: " +
                                                     (ParamText(c, "location").empty()
                                                          ? std::string("chosen by the player")
                                                          : ParamText(c, "location"))}));
  } else if (m == "feint") {
    TestSpec t{winner.id, "deception", GoverningAttribute("deception"), 0, 0, 0, false, false,
               "deception test (feint)"};
    ASSIGN_OR_RETURN(TestResult r, Roll(d, t, seq, nums));
    if (r.pass) {
      RETURN_IF_ERROR(Impose(d, winner.id, kFeint, winner.id, Expiry{fb::ExpiryKind::OnUse, winner.id, 0},
                             loser.id, {seq, rule, nums, "boon on the next Strike against " + loser.id}));
    } else {
      RETURN_IF_ERROR(RecordOutcome(d, winner.id, {seq, rule, nums, "the feint fails"}));
    }
  } else {
    std::string skill = m == "trip" ? "acrobatics" : "athletics";
    if (m == "disarm") {
      // "an Athletics or Sleight of Hand test" (l.69): the target's choice
      // (tag "disarm:<skill>"), else its larger pool.
      skill = ChosenSkill(d.state(), loser, "disarm", "athletics", "sleight_of_hand");
    }
    TestSpec t = Resist(winner, loser, skill, nums);
    if (m == "disarm" && (item_copy.kind == "shield" || Trait(item_copy, "two_handed"))) {
      t.Boon("shield_or_two_handed", item_copy.name + " of " + loser.id, "003.maneuver.disarm");  // l.69
    }
    ASSIGN_OR_RETURN(TestResult r, Roll(d, t, seq, nums));
    if (r.pass) {
      RETURN_IF_ERROR(RecordOutcome(d, loser.id, {seq, rule, nums, loser.id + " resists the " + m}));
    } else if (m == "bash" && d.state().Find(loser.id)->Has(kDazed)) {
      // l.67 "or become Dazed": one already Dazed stays as it is, one Dazed
      // (as a Trip leaves one Prone, l.73).
      RETURN_IF_ERROR(RecordOutcome(d, loser.id, {seq, rule, nums, loser.id + " is already Dazed: it stays Dazed"}));
    } else if (m == "bash") {
      RETURN_IF_ERROR(Impose(d, loser.id, kDazed, winner.id, Expiry{}, "", {seq, rule, nums, "Dazed"}));
    } else if (m == "trip") {
      RETURN_IF_ERROR(Trip(d, winner.id, loser.id, seq, rule, nums));
    } else if (m == "disarm") {
      RETURN_IF_ERROR(SetResource(d, loser.id, "dropped." + item_copy.name, 1,
                                  {seq, rule, nums, item_copy.name + " lands on the floor"}));
      // Where it lands (l.69 "lands on the floor"): under the loser, on the
      // floor of its whole space (the text names no square of a large
      // body), picked up again only from within touch of that floor (l.35;
      // actions.cc).
      const Combatant* l = d.state().Find(loser.id);
      const Pos at = l->at;
      const int32_t side = l->size;
      const bool record_side = side > 1 || l->Resource(kFloorSize + item_copy.name, 1) != side;
      RETURN_IF_ERROR(SetResource(d, loser.id, kOnFloor + item_copy.name, 1, {seq, rule, {}, "on the floor"}));
      RETURN_IF_ERROR(SetResource(d, loser.id, kFloorX + item_copy.name, at.x, {seq, rule}));
      RETURN_IF_ERROR(SetResource(d, loser.id, kFloorY + item_copy.name, at.y, {seq, rule}));
      if (record_side) RETURN_IF_ERROR(SetResource(d, loser.id, kFloorSize + item_copy.name, side, {seq, rule}));
    } else if (m == "push") {
      const Combatant* l = d.state().Find(loser.id);
      // l.72 "pushed back": straight away from the winner's body, centre
      // to centre, so a large winner or loser is measured from its middle,
      // not its top-left square.
      const Pos v = space::DirVec(space::DirBetween(winner.at, winner.size, l->at, l->size));
      const Pos to{l->at.x + v.x, l->at.y + v.y};
      space::PathRules pr;
      pr.action = "maneuver";
      pr.rule = rule;
      pr.cite = [](const std::string& r) { return Cite(r); };
      pr.occupant = [&](Pos sq, size_t, size_t) {
        const Combatant* o = d.state().OccupantAt(sq, loser.id);
        return o == nullptr ? std::string() : o->id;
      };
      if (space::CheckPath(d.state(), kGrid.metric, l->at, l->size, {to}, pr).ok()) {
        // Forced movement: provokes nothing (l.82).
        RETURN_IF_ERROR(Move(d, loser.id, {to}, 1, true, {seq, rule, nums, "pushed back 1 m"}));
        RETURN_IF_ERROR(LeaveCover(d, loser.id, seq));
        RETURN_IF_ERROR(BreakGrapples(d, loser.id, seq));
      } else {
        RETURN_IF_ERROR(RecordOutcome(d, loser.id, {seq, rule, nums,
                                                    "would be pushed 1 m but the square is not free: the GM rules"}));
      }
    }
  }
  return FinishAttack(d, attack, cause, attacker_won, false, maximize);
}

}  // namespace combat::kernel::opposed
