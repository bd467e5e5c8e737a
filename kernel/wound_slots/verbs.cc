// The wound_slots verb table (kernel/verb_schema.h): every verb Decide
// takes, with the fields and parameters it reads. kernel::DecideCommand
// checks each command against it before Decide sees it.
//
// The acts (acts.cc's table) take the parameters listed there; those that
// are not attacks, spells, reactions or buying movement also take the
// timing params `time_rounds`, `time_minutes` (timing.cc); every act takes
// `faster_tn`, `faster_skill` (refused citing l.271 on those that cannot be
// performed more quickly: DeclareAct). `interrupt` takes `act` and any act's
// parameters: that they are the named act's is checked in DecideInterrupt
// (the schema cannot make one parameter's keys depend on another's value).
#include <string>
#include <vector>

#include "kernel/wound_slots/internal.h"

namespace combat::kernel::wound_slots {
namespace {

using T = ParamType;

// Each act parameter's type, allowed values and meaning (one meaning per
// key across the acts).
ParamSpec Spec(const std::string& key) {
  static const std::vector<ParamSpec>* const kSpecs = new std::vector<ParamSpec>{
      {"cover", T::kNonNeg, false, {}, "the target's cover, 0-4 (l.192)"},
      {"level", T::kNonNeg, false, {}, "the wound level (nonlethal: at most; treat_wound: treated)"},
      {"knockout", T::kText, false, {"unconscious", "helpless"}, "what a knockout does (l.185)"},
      {"to", T::kText, true, {"standing", "crouching", "prone"}, "the new posture"},
      {"container", T::kText, false, {"scabbard", "pocket", "pouch", "concealed", "sack", "backpack"},
       "where the item is (default scabbard)"},
      {"item", T::kText, false, {}, "the item"},
      {"object", T::kText, false, {}, "door, torch, potion, bell, fire (or any with `ap`)"},
      {"ap", T::kNonNeg, false, {}, "the AP spent (use_object: the item's cost; buy_move: 1-4)"},
      {"hindrance", T::kText, true, {"disarm", "distract", "shove", "trip"}, "which hindrance"},
      {"defense", T::kText, false, {"check", "agility", "power"},
       "disarm: check or agility; shove, trip: power or agility"},
      {"dx", T::kInt, false, {}, "shove direction, -1..1"},
      {"dy", T::kInt, false, {}, "shove direction, -1..1"},
      {"yards", T::kNonNeg, false, {}, "shove distance"},
      {"kit", T::kFlag, true, {}, "1: a healing kit in hand, 0: none (-5, l.250, l.252, l.261)"},
      {"spend", T::kNonNeg, false, {}, "mana spent"},
      {"invest", T::kNonNeg, false, {}, "mana invested (l.42)"},
      {"rounds", T::kNonNeg, false, {}, "the effect's duration in rounds, at least 1"},
      {"act", T::kText, true, {}, "the act readied (a verb)"},
      {"condition", T::kText, true, {"Bleeding", "Burning", "Hobbled", "Poisoned"}, "the condition treated"},
      {"tn", T::kInt, false, {}, "the TN"},
      {"spec", T::kText, false, {}, "a healing specialisation"},
      {"kind", T::kText, false, {"long", "high"}, "the jump (default long)"},
      {"landing_tn", T::kInt, false, {}, "the GM's TN of the Dex [Acrobatics/Balance] landing check (l.179)"},
      {"reduce", T::kNonNeg, false, {}, "yards of the target's movement taken away"},
      {"effect", T::kText, false, {}, "the effect ended: the spell's name as cast (default the oldest, l.238)"},
  };
  for (const ParamSpec& p : *kSpecs) {
    if (p.key == key) return p;
  }
  return {key, T::kInt, false, {}, ""};
}

// Which acts take a target, a weapon, a path.
Use TargetsOf(const std::string& v) {
  for (const char* o : {"treat_wound", "cast_spell", "end_effect", "treat_condition"}) {
    if (v == o) return Use::kOptional;
  }
  for (const char* r : {"standard_attack", "quick_attack", "strong_attack", "nonlethal_attack", "rebuff",
                        "harry", "hinder", "stabilize", "create_opening", "enter_space", "mount",
                        "grapple", "pin", "cling", "interpose"}) {
    if (v == r) return Use::kRequired;
  }
  return Use::kNo;
}

// The acts whose checks read the weapon (CheckAttack, CheckGrapple); hinder,
// harry and pin use the melee weapon, whatever is named.
bool TakesWeapon(const std::string& v) {
  for (const char* w : {"standard_attack", "quick_attack", "strong_attack", "nonlethal_attack", "rebuff",
                        "create_opening", "grapple"}) {
    if (v == w) return true;
  }
  return false;
}

// Performing it more quickly (l.271): taken by every act so that an attack,
// a spell, a reaction or buying movement is refused citing the rule
// (DeclareAct), not as an unknown parameter.
std::vector<ParamSpec> Faster() {
  return {{"faster_tn", T::kInt, false, {}, "performed more quickly: the check's TN (l.271)"},
          {"faster_skill", T::kText, false, {"acrobatics", "athletics"}, "the check's skill (default acrobatics)"}};
}

std::vector<ParamSpec> Timing() {
  return {{"time_rounds", T::kNonNeg, false, {}, "performed over rounds (l.111)"},
          {"time_minutes", T::kNonNeg, false, {}, "performed over minutes (4 rounds each)"}};
}

bool CanHurry(const Verb& v) {
  return !v.row.kind.cls.attack && !v.row.kind.cls.cast && !v.reaction &&
         std::string(v.row.name) != "buy_move";
}

VerbSchema ActSchema(const Verb& v) {
  VerbSchema s{v.row.name, "an act (" + std::to_string(v.ap) + " AP)", v.row.rule};
  if (v.reaction) s.doc = "a reaction (" + std::to_string(v.ap) + " AP)";
  s.targets = TargetsOf(s.verb);
  if (TakesWeapon(s.verb)) s.weapon = Use::kOptional;
  if (s.verb == "jump") s.path = Use::kOptional;  // a long jump's squares
  if (s.verb == "dismount") s.path = Use::kOptional;  // the square climbed down onto (l.220)
  for (const std::string& k : v.params) s.params.push_back(Spec(k));
  if (s.verb == "ready") {
    for (ParamSpec& p : s.params) {
      if (p.key != "act") continue;
      for (const Verb& o : Acts()) {
        if (!o.reaction && std::string(o.row.name) != "ready") p.allowed.push_back(o.row.name);
      }
    }
  }
  if (s.verb == "treat_condition") {
    for (ParamSpec& p : s.params) p.required = p.required || p.key == "tn";
  }
  if (s.verb == "surface") {
    s.params[0].required = true;
    s.params[0].doc = "the swimming TN";
  }
  for (ParamSpec& p : Faster()) s.params.push_back(std::move(p));
  if (CanHurry(v)) {
    for (ParamSpec& p : Timing()) s.params.push_back(std::move(p));
  }
  return s;
}

// interrupt: `act` and every parameter any act takes.
VerbSchema Interrupt() {
  VerbSchema s{"interrupt", "answer a declared act's window with an act of your own", "001.out_of_turn"};
  s.targets = Use::kOptional;
  s.weapon = Use::kOptional;
  ParamSpec act{"act", T::kText, true, {}, "the act taken"};
  std::vector<std::string> keys;
  for (const Verb& v : Acts()) {
    if (std::string(v.row.name) == "buy_move") continue;
    act.allowed.push_back(v.row.name);
    for (const std::string& k : v.params) {
      bool seen = false;
      for (const std::string& o : keys) seen = seen || o == k;
      if (!seen) keys.push_back(k);
    }
  }
  s.params.push_back(act);
  for (const std::string& k : keys) {
    ParamSpec p = Spec(k);
    p.required = false;  // required by the act named (DecideInterrupt)
    if (k == "act") continue;
    s.params.push_back(p);
  }
  return s;
}

std::vector<VerbSchema> Build() {
  std::vector<VerbSchema> t;
  for (const Verb& v : Acts()) t.push_back(ActSchema(v));
  t.push_back(Interrupt());
  t.push_back({"pass", "answer a window: let the declared act go first", "001.out_of_turn"});
  {
    VerbSchema s{"resolve", "close a window: nobody else acts (its actor or the GM)", "001.out_of_turn"};
    s.actor = Use::kOptional;
    t.push_back(std::move(s));
  }
  t.push_back({"cancel", "cancel your act being paid, performed or held back", "001.ap.paying"});
  {
    VerbSchema s{"move", "move along a path, from the movement pool", "001.move.pool"};
    s.path = Use::kRequired;
    t.push_back(std::move(s));
  }
  t.push_back({"end_turn", "end your turn", "001.round"});
  t.push_back({"join", "a reserve combatant joins the combat", "001.initiative.roll"});
  for (const char* v : {"ignore", "unignore"}) {
    VerbSchema s{v, "(stop) ignoring flankers: their attacks are rear attacks", "001.attack.rear"};
    s.targets = Use::kRequired;
    t.push_back(std::move(s));
  }
  {
    VerbSchema s{"spend_stamina", "an ability's stamina cost (the reason in text)", "001.stamina.spend"};
    s.params = {{"amount", T::kNonNeg, true, {}, "the stamina, at least 1"}};
    t.push_back(std::move(s));
  }
  t.push_back({"short_rest", "a short rest", "001.rest.short"});
  {
    VerbSchema s{"long_rest", "a long rest; the target tends the wounds", "001.rest.long"};
    s.targets = Use::kOptional;
    s.params = {{"minutes", T::kNonNeg, false, {}, "its length (default 480; 540 resumed)"},
                {"resumed", T::kNonNeg, false, {}, "resumed after an interruption of this many minutes (1..30): an extra hour"},
                {"wound", T::kNonNeg, false, {}, "the wound level healed (1-3)"},
                {"kit", T::kFlag, false, {}, "with a tender, required: 1 a healing kit, 0 none (-5, l.54)"},
                {"retrieve", T::kFlag, false, {}, "retrieve invested mana"},
                {"day", T::kNonNeg, false, {}, "the in-game day, from 1"},
                {"slept", T::kFlag, false, {}, "slept (default 1)"}};
    t.push_back(std::move(s));
  }
  for (VerbSchema& g : GmVerbSchemas({})) t.push_back(std::move(g));
  return t;
}

}  // namespace

const std::vector<VerbSchema>& Verbs() {
  static const std::vector<VerbSchema>* const kVerbs = new std::vector<VerbSchema>(Build());
  return *kVerbs;
}

}  // namespace combat::kernel::wound_slots
