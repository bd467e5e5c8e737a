// The ap_rp verb table (kernel/verb_schema.h): every verb Decide takes,
// with the fields and parameters it reads. kernel::DecideCommand checks each
// command against it before Decide sees it. What the table cannot say stays
// in Decide: one target at most on the actions naming one (CheckOneTarget);
// hold_action's params, targets, weapon and path being those of the action
// it holds (CheckShape, held.cc); cinematic_ruling's skill_<id> naming the
// act's actor or a helper (cinematic.cc).
#include <string>
#include <vector>

#include "kernel/ap_rp/internal.h"

namespace combat::kernel::aprp {
namespace {

using T = ParamType;

std::vector<std::string> DamageTypes() {
  return {"physical", "chemical", "cold", "heat", "poison", "shock",
          "curse", "holy", "spirit", "psychic", "reality"};
}

// Each action-table parameter's type, allowed values and meaning (one
// meaning per key across the actions); `skill`'s allowed values are the
// action's (ActorSkills).
ParamSpec Spec(const std::string& key, const std::string& action) {
  static const std::vector<ParamSpec>* const kSpecs = new std::vector<ParamSpec>{
      {"miss", T::kFlag, false, {}, "the attack misses on purpose"},
      {"nonlethal", T::kFlag, false, {}, "nonlethal damage (l.58)"},
      {"lethal_holy", T::kFlag, false, {}, "Holy damage made lethal (l.92)"},
      {"ignore_armor", T::kNonNeg, false, {}, "Armor ignored (l.66)"},
      {"armor_from", T::kText, false, DamageTypes(), "the damage type armor applies to (l.65)"},
      {"maneuver_tier", T::kNonNeg, false, {}, "a combat maneuver's tier"},
      {"lean_x", T::kInt, false, {}, "the actor leaning out of full cover: the square's x (l.112)"},
      {"lean_y", T::kInt, false, {}, "the actor leaning out of full cover: the square's y (l.112)"},
      {"takes", T::kFlag, false, {}, "an item comes into a free hand"},
      {"releases", T::kFlag, false, {}, "an item leaves a hand"},
      {"declined", T::kFlag, false, {}, "the ally declines its reaction (1 RP): the action fails (l.23)"},
      {"mode", T::kText, false, {"draw", "sheathe", "swap"}, "default: draw into a free hand, else swap"},
      {"take", T::kFlag, false, {}, "take the item disarmed"},
      {"item", T::kText, false, {}, "the weapon dropped (disarm) or picked up again (interact, takes=1)"},
      {"occupant_fails", T::kText, false, {}, "the occupants (ids, comma-separated) choosing to fail the Strength DR (l.69, l.114)"},
  };
  if (key == "skill") {
    return {"skill", T::kText, false, ActorSkills(action), "the skill rolled (default the best)"};
  }
  for (const ParamSpec& p : *kSpecs) {
    if (p.key == key) return p;
  }
  return {key, T::kInt, false, {}, ""};
}

Use TargetsOf(const std::string& action) {
  if (action == "interact") return Use::kOptional;
  return TakesTarget(action) ? Use::kRequired : Use::kNo;
}

VerbSchema ActionSchema(const ActionRow& r) {
  std::string what = "an action (" + std::to_string(r.ap) + " AP)";
  // l.19, l.24: the turn's first Interact or Switch Weapons (drawing into an
  // empty hand or sheathing) is free.
  if (std::string(r.name) == "interact" || std::string(r.name) == "switch_weapons") {
    what = "an action (1 AP; the turn's first Interact or Switch Weapons is free, l.19, l.24)";
  }
  VerbSchema s{r.name, what, r.rule};
  s.targets = TargetsOf(s.verb);
  if (s.verb == "attack") s.weapon = Use::kOptional;  // default: the first weapon
  if (s.verb == "shove") s.path = Use::kRequired;     // the square shoved into
  for (const std::string& k : r.params) s.params.push_back(Spec(k, s.verb));
  if (s.verb == "interact" || s.verb == "switch_weapons") {
    s.params.push_back({"paid", T::kFlag, false, {}, "not the turn's free one (l.19, l.24)"});
  }
  return s;
}

// hold_action: its own params and any action's (those of the action held:
// DecideHoldAction).
VerbSchema HoldAction() {
  VerbSchema s{"hold_action", "hold an action until a trigger (l.9)", "004.hold.action"};
  s.targets = Use::kOptional;
  s.weapon = Use::kOptional;
  s.path = Use::kOptional;
  ParamSpec action{"action", T::kText, true, {}, "the action held"};
  for (const ActionRow& r : Actions()) action.allowed.push_back(r.name);
  s.params = {action,
              {"trigger", T::kText, true,
               {"enters_range", "moves", "attacks", "attacks_me", "any_action", "enters_square", "is_damaged"},
               "what sets it off"},
              {"by", T::kText, false, {}, "only a trigger by this combatant"},
              {"whom", T::kText, false, {}, "only a trigger on this combatant"},
              {"range", T::kNonNeg, false, {}, "enters_range: metres"},
              {"x", T::kInt, false, {}, "enters_square: x"},
              {"y", T::kInt, false, {}, "enters_square: y"}};
  std::vector<std::string> skills;
  for (const ActionRow& r : Actions()) {
    for (const std::string& k : r.params) {
      bool seen = false;
      for (const ParamSpec& p : s.params) seen = seen || p.key == k;
      if (seen) continue;
      ParamSpec p = Spec(k, r.name);
      if (k == "skill") {
        p.allowed.clear();
        for (const ActionRow& o : Actions()) {
          for (const std::string& sk : ActorSkills(o.name)) {
            bool dup = false;
            for (const std::string& h : p.allowed) dup = dup || h == sk;
            if (!dup) p.allowed.push_back(sk);
          }
        }
        p.doc = "the held action's skill";
      }
      s.params.push_back(p);
    }
  }
  return s;
}

std::vector<VerbSchema> Build() {
  std::vector<VerbSchema> t;
  for (const ActionRow& r : Actions()) t.push_back(ActionSchema(r));
  t.push_back(HoldAction());
  t.push_back({"end_turn", "end your turn", "004.round"});
  t.push_back({"hold_turn", "hold your turn to the end of the round", "004.hold.turn"});
  t.push_back({"resume", "take your held turn now", "004.hold.turn"});
  {
    VerbSchema s{"form_union", "form a union turn with allies (l.10)", "004.union"};
    s.targets = Use::kRequired;
    t.push_back(std::move(s));
  }
  t.push_back({"leave_union", "leave the union turn", "004.union"});
  {
    VerbSchema s{"use_feature", "a feature or Ability (named in text) costing AP or RP", "004.budget.ap"};
    s.targets = Use::kOptional;
    s.params = {{"ap", T::kNonNeg, false, {}, "its AP cost"}, {"rp", T::kNonNeg, false, {}, "its RP cost"}};
    t.push_back(std::move(s));
  }
  {
    VerbSchema s{"move", "move along a path", "004.move"};
    s.path = Use::kRequired;
    t.push_back(std::move(s));
  }
  {
    VerbSchema s{"cinematic", "a Cinematic Action or Reaction, told in text; the GM rules (l.41)", "004.cinematic"};
    s.targets = Use::kOptional;  // the helpers of a cooperative one
    s.params = {{"kind", T::kText, true, {"action", "reaction"}, "a Cinematic Action or Reaction"},
                {"burst", T::kFlag, false, {}, "a Cinematic Burst (l.44)"},
                {"burst_*", T::kFlag, false, {}, "burst_<helper>: that helper pays by a Burst, 4 Momentum and no RP (l.44)"},
                {"reduction", T::kNonNeg, false, {}, "a feature's cost reduction (l.45)"},
                {"below_one", T::kFlag, false, {}, "the reduction may go below 1"}};
    t.push_back(std::move(s));
  }
  {
    VerbSchema s{"cinematic_ruling", "the GM rules on a cinematic act (l.41)", "004.cinematic", true};
    s.actor = Use::kNo;
    s.params = {{"allow", T::kFlag, true, {}, "1 possible, 0 not"},
                {"dc", T::kInt, false, {}, "the Skill Check's DC (allow)"},
                {"skill", T::kText, false, {}, "the Skill Check's skill (allow)"},
                {"skill_*", T::kText, false, {}, "skill_<id>: that participant's skill"}};
    s.refs = {{"act", true, "the cinematic act (pending)"}};
    t.push_back(std::move(s));
  }
  {
    VerbSchema s{"grant_momentum", "the GM adds to (or takes from) a side's Momentum", "004.cinematic", true};
    s.actor = Use::kNo;
    s.params = {{"side", T::kText, true, {}, "a side of the session"},
                {"delta", T::kInt, true, {}, "the Momentum added (negative: removed)"}};
    t.push_back(std::move(s));
  }
  {
    VerbSchema s{"force_move", "the GM moves the target along a path (an Ability's push)", "004.forced", true};
    s.targets = Use::kRequired;
    s.path = Use::kRequired;
    s.params = {{"combine", T::kFlag, false, {}, "combine the collision damage with the Ability's"},
                Spec("occupant_fails", ""), Spec("lean_x", ""), Spec("lean_y", "")};
    for (const std::string& d : DamageTypes()) {
      s.params.push_back({"dmg_" + d, T::kNonNeg, false, {}, "the Ability's " + d + " damage"});
    }
    t.push_back(std::move(s));
  }
  {
    VerbSchema s{"teleport", "the GM teleports the target to a square", "004.teleport", true};
    s.targets = Use::kRequired;
    s.params = {{"x", T::kInt, true, {}, "the destination's x"}, {"y", T::kInt, true, {}, "the destination's y"},
                Spec("lean_x", ""), Spec("lean_y", "")};
    t.push_back(std::move(s));
  }
  {
    VerbSchema s{"defense_roll", "the GM calls for a Defense Roll against the actor's effect", "004.dr", true};
    s.targets = Use::kRequired;
    s.params = {{"kind", T::kText, true, {"str", "dex", "con", "int", "cha", "ins", "wil"}, "the stat rolled (l.70)"},
                {"fail", T::kFlag, false, {}, "fails without a roll"},
                Spec("lean_x", ""), Spec("lean_y", "")};
    t.push_back(std::move(s));
  }
  for (VerbSchema& g : GmVerbSchemas({})) {
    for (ParamSpec& p : g.params) {
      if (p.key == "resource") p.allowed = GmResources();
    }
    t.push_back(std::move(g));
  }
  return t;
}

}  // namespace

const std::vector<std::string>& GmResources() {
  static const std::vector<std::string>* const kRead = new std::vector<std::string>{
      kVitality, kAp, kRp, kMovement, "initiative_mod", "evasion_bonus", kFreeHands,
      kApUsed, kRpUsed, kMoved, kFreeInteract, kFreeSwitch};
  return *kRead;
}

const std::vector<VerbSchema>& Verbs() {
  static const std::vector<VerbSchema>* const kVerbs = new std::vector<VerbSchema>(Build());
  return *kVerbs;
}

}  // namespace combat::kernel::aprp
