// The verb table (kernel/verb_schema.h): every verb Decide takes, with the
// fields and parameters its code reads (ruleset.cc dispatches; each row
// names the file that decides it). kernel::DecideCommand refuses anything
// else before Decide sees it.
//
// What the table cannot say, and the code still checks:
//  - condition names (gm_condition `name`, cast/control `condition`) are a
//    closed list in the text's spelling, any case ("Flat Footed"):
//    CanonicalCondition, conditions.cc;
//  - number ranges: `actions` 1-3, cast `rounds` >= 1, `heal`/`amount` > 0,
//    `ascend`/`descend` multiples of 5, push `distance` 5/10/15;
//  - one of `targets` / `actor` for heal; `break`'s weapon must deal
//    Damage; ids named in text params (`by`, `after`, `push_off`, `item`)
//    are looked up by the verb;
//  - `pass` needs an open window (refused otherwise, ruleset.cc).
#include <string>
#include <vector>

#include "kernel/d20_three_action/internal.h"
#include "kernel/verb_schema.h"

namespace combat::kernel::d20 {
namespace {

constexpr ParamType kInt = ParamType::kInt;
constexpr ParamType kNonNeg = ParamType::kNonNeg;
constexpr ParamType kFlag = ParamType::kFlag;
constexpr ParamType kText = ParamType::kText;

// A verb of the action table (actions.cc): its rule is the row's.
VerbSchema Act(const std::string& verb, const std::string& doc) {
  VerbSchema v;
  v.verb = verb;
  v.doc = doc;
  const ActionSpec* a = FindAction(verb);
  v.rule = a == nullptr ? "" : a->rule;
  return v;
}

VerbSchema Other(const std::string& verb, const std::string& doc,
                 const std::string& rule) {
  VerbSchema v;
  v.verb = verb;
  v.doc = doc;
  v.rule = rule;
  return v;
}

ParamSpec Actions() {
  return {"actions", kNonNeg, false, {}, "Actions spent, 1 to 3 (default 1)"};
}

// An attack roll's parameters (attack.cc: ValidateTargets,
// ResolveAttackRoll; spells.cc for a spell weapon).
std::vector<ParamSpec> AttackRollParams() {
  return {{"area", kFlag, false, {}, "an Area attack: several targets (L27)"},
          {"origin_x", kInt, false, {}, "the Area's point of origin, x"},
          {"origin_y", kInt, false, {}, "the Area's point of origin, y"},
          {"defense", kText, false, {"physical", "mental"},
           "the defense a spell attack targets (default physical, L33)"},
          {"critical", kFlag, false, {}, "GM only: rule a Critical Success (1) or not (0)"}};
}

// The effect parameters cast and control share (spells.cc: ValidateEffect,
// ApplyEffect), with a spell weapon's attack-roll ones.
std::vector<ParamSpec> EffectParams() {
  std::vector<ParamSpec> p = {
      {"condition", kText, false, {},
       "a condition the spell applies (the text's name, any case)"},
      {"level", kInt, false, {}, "the condition's level"},
      {"condition_rounds", kNonNeg, false, {}, "Rounds the condition lasts"},
      {"heal", kNonNeg, false, {}, "HP healed on each target (> 0)"}};
  for (ParamSpec& a : AttackRollParams()) p.push_back(std::move(a));
  return p;
}

// A maneuver (maneuvers.cc): one target within reach, an optional melee
// weapon, `path[0]` = the square guessed for a Hidden target (L115).
VerbSchema Maneuver(const std::string& verb, const std::string& doc) {
  VerbSchema v = Act(verb, doc);
  v.targets = Use::kRequired;
  v.weapon = Use::kOptional;
  v.path = Use::kOptional;
  return v;
}

std::vector<std::string> ReadyableActions() {
  std::vector<std::string> names;
  for (const ActionSpec& a : AllActions()) {
    if (std::string(a.name) != "ready") names.push_back(a.name);
  }
  return names;
}

std::vector<VerbSchema>* Build() {
  auto* t = new std::vector<VerbSchema>();
  // turns.cc
  t->push_back(Other("end_turn", "ends your turn; the next creature's starts", "000.turn"));
  t->push_back(Other("delay", "delays your turn, before acting (L15)", "000.delay"));
  t->push_back(Other("enter", "a delaying creature enters after the current turn", "000.delay"));
  {
    VerbSchema v = Other("hold", "holds the rest of your turn until after a creature's (L13)", "000.hold");
    v.params = {{"after", kText, true, {}, "the creature after whose turn you enter"}};
    t->push_back(std::move(v));
  }
  // attack.cc
  {
    VerbSchema v = Act("attack", "an Attack with a weapon (L27-L33)");
    v.targets = Use::kRequired;
    v.weapon = Use::kRequired;
    v.path = Use::kOptional;
    v.params = {{"stat", kText, false, {"str", "dex"},
                 "melee: STR, or DEX with a Light or Medium weapon (default the better)"}};
    for (ParamSpec& a : AttackRollParams()) v.params.push_back(std::move(a));
    t->push_back(std::move(v));
  }
  // movement.cc, falling.cc, zero_g.cc
  {
    VerbSchema v = Act("move", "a Move along `path` (L35); fly, climb, push off");
    v.path = Use::kOptional;  // empty for a flyer only ascending / descending
    v.params = {{"fly", kFlag, false, {}, "fly (roster tag flight, L83)"},
                {"squeeze", kFlag, false, {}, "squeeze through (L166)"},
                {"continue", kFlag, false, {}, "continue this turn's Move: no Action (L35)"},
                {"ascend", kNonNeg, false, {}, "ft climbed, a multiple of 5 (fly, L83)"},
                {"descend", kNonNeg, false, {}, "ft descended, a multiple of 5 (fly, L83)"},
                {"push_off", kText, false, {},
                 "zero-G: \"wall\" or the creature pushed off (L85)"}};
    t->push_back(std::move(v));
  }
  {
    VerbSchema v = Act("crawl", "Prone: crawls one square (L73, L160)");
    v.path = Use::kRequired;
    t->push_back(std::move(v));
  }
  t->push_back(Act("stand", "stands up from Prone (L35, L160)"));
  t->push_back(Act("drop_prone", "drops Prone (a Free Action, L21)"));
  t->push_back(Act("extinguish", "drops Prone and rolls: ends On fire (L156)"));
  // maneuvers.cc
  {
    VerbSchema v = Maneuver("break", "damages a carried object (L49)");
    v.weapon = Use::kRequired;
    v.params = {{"item", kText, true, {}, "the object"}};
    t->push_back(std::move(v));
  }
  {
    VerbSchema v = Maneuver("disarm", "knocks an item out of the target's hands (L55)");
    v.params = {{"item", kText, true, {}, "the target's weapon"},
                {"crit", kText, false, {"drop", "fling", "take"},
                 "on a critical success (default drop)"}};
    t->push_back(std::move(v));
  }
  {
    VerbSchema v = Maneuver("feint", "makes the target Flat Footed (L53)");
    v.params = {{"stat", kText, false, {"str", "dex"},
                 "STR, or DEX with a Light or Medium weapon"}};
    t->push_back(std::move(v));
  }
  t->push_back(Maneuver("grapple", "grapples the target (L59)"));
  {
    VerbSchema v = Maneuver("push", "pushes the target away (L51)");
    v.params = {{"distance", kNonNeg, false, {}, "ft on a critical success: 5, 10 or 15 (default 15)"},
                {"dx", kInt, false, {}, "direction x (sign), default directly away"},
                {"dy", kInt, false, {}, "direction y (sign), default directly away"}};
    t->push_back(std::move(v));
  }
  t->push_back(Maneuver("trip", "knocks the target Prone (L57)"));
  {
    VerbSchema v = Act("escape", "opposed roll against your grappler (L148)");
    v.targets = Use::kOptional;  // when given, the grappler escaped
    t->push_back(std::move(v));
  }
  {
    VerbSchema v = Act("choke", "the creature you grapple cannot breathe for a Round (L150)");
    v.targets = Use::kOptional;  // when given, the creature grappled
    t->push_back(std::move(v));
  }
  {
    VerbSchema v = Act("release", "ends your grapple (a Free Action, L150)");
    v.targets = Use::kOptional;  // when given, the creature released (else all)
    t->push_back(std::move(v));
  }
  {
    VerbSchema v = Act("drop_item", "drops a carried weapon in your square (a Free Action, L21)");
    v.params = {{"item", kText, true, {}, "the weapon"}};
    t->push_back(std::move(v));
  }
  {
    VerbSchema v = Act("pick_up", "picks a dropped item up");
    v.params = {{"item", kText, true, {}, "the item"}};
    t->push_back(std::move(v));
  }
  // spells.cc
  {
    VerbSchema v = Act("cast", "casts a spell (L37): Energy per component, its effect");
    v.targets = Use::kOptional;
    v.weapon = Use::kOptional;  // a spell weapon: a Spell Attack
    v.path = Use::kOptional;
    v.params = {{"spell", kText, true, {}, "the spell's name"},
                Actions(),
                {"energy.*", kNonNeg, false, {}, "energy.<component>: Energy spent on it"},
                {"rounds", kNonNeg, false, {}, "Rounds the spell lasts (>= 1; default until ended)"}};
    for (ParamSpec& e : EffectParams()) v.params.push_back(std::move(e));
    t->push_back(std::move(v));
  }
  {
    VerbSchema v = Act("control", "controls a spell cast on a previous turn (L39)");
    v.targets = Use::kOptional;
    v.weapon = Use::kOptional;
    v.path = Use::kOptional;
    v.params = {{"spell", kText, true, {}, "the active spell's name"}};
    for (ParamSpec& e : EffectParams()) v.params.push_back(std::move(e));
    t->push_back(std::move(v));
  }
  {
    VerbSchema v = Act("focus", "gains (ESS + Level) / 3 Energy per Action (L43)");
    v.params = {Actions()};
    t->push_back(std::move(v));
  }
  // companions.cc
  {
    VerbSchema v = Act("command", "your companion acts during your turn (L41)");
    v.targets = Use::kRequired;
    t->push_back(std::move(v));
  }
  // skills.cc, zero_g.cc
  t->push_back(Act("dodge", "the next attack against you has Disadvantage (L45)"));
  t->push_back(Act("stabilize", "ends unsteady (zero-G, L85)"));
  // readied.cc
  {
    VerbSchema v = Act("ready", "readies an action for a trigger (L61)");
    v.params = {{"action", kText, true, ReadyableActions(), "the action readied"},
                {"trigger", kText, true, ReadyTriggers(), "what sets it off"},
                {"by", kText, false, {}, "the creature watched"},
                {"x", kInt, false, {}, "enters_square: the square's x"},
                {"y", kInt, false, {}, "enters_square: the square's y"}};
    t->push_back(std::move(v));
  }
  t->push_back(Other("pass", "answers an open window without acting (`window`)", "000.ready"));
  {
    VerbSchema v = Act("use_skill", "a skill check against the GM's DC (L63)");
    v.targets = Use::kOptional;  // the creature it acts on (Medicine, Perception)
    v.params = {{"skill", kText, true, {}, "the skill (any case)"},
                {"dc", kInt, true, {}, "the DC, set by the GM"},
                Actions(),
                {"bonus", kInt, false, {}, "the bonus (default the roster's skill_<name>)"},
                {"reaction", kFlag, false, {}, "spend the Reaction instead (climb when falling, L19, L79)"}};
    t->push_back(std::move(v));
  }
  {
    VerbSchema v = Act("interact", "draws a weapon, opens a door ... (L17, L25)");
    v.params = {Actions()};
    t->push_back(std::move(v));
  }
  {
    VerbSchema v = Other("heal", "GM: heals a creature (the reason in text; L127)", "000.heal");
    v.gm = true;
    v.actor = Use::kOptional;  // the creature healed, when no targets
    v.targets = Use::kOptional;
    v.params = {{"amount", kNonNeg, true, {}, "HP healed (> 0)"}};
    t->push_back(std::move(v));
  }
  // kernel/gm.h; condition names: any case, checked by CanonicalCondition.
  for (VerbSchema& g : GmVerbSchemas({})) {
    g.rule = "000.gm";
    t->push_back(std::move(g));
  }
  return t;
}

}  // namespace

const std::vector<VerbSchema>& Verbs() {
  static const std::vector<VerbSchema>* const table = Build();
  return *table;
}

}  // namespace combat::kernel::d20
