// The opposed_tests verb table (kernel/verb_schema.h): every verb Decide
// takes, with the fields and parameters it reads. kernel::DecideCommand
// checks each command against it before Decide sees it; what the table
// cannot say (one target at most; `window` only on the verbs answering
// one) is CheckShape's (input.cc).
#include <string>
#include <vector>

#include "kernel/opposed_tests/internal.h"

namespace combat::kernel::opposed {
namespace {

using T = ParamType;

const ParamSpec kAttribute{"attribute", T::kText, false, {"str", "agi"}, "the attribute rolled (ranged: agi)"};

VerbSchema V(const char* verb, const char* doc, const char* rule) { return {verb, doc, rule}; }

std::vector<VerbSchema> Build() {
  std::vector<VerbSchema> t;
  {
    VerbSchema s = V("strike", "a melee or ranged Strike: opens the target's defense window", "003.strike");
    s.targets = Use::kRequired;
    s.weapon = Use::kRequired;
    s.params = {kAttribute};
    t.push_back(std::move(s));
  }
  {
    VerbSchema s = V("defend", "answer a defense window", "003.defend");
    s.params = {{"defense", T::kText, true, {"block", "dodge", "parry", "withstand", "none"}, "the defense"},
                {"attribute", T::kText, false, {"str", "agi"}, "a parry's attribute"},
                {"armor", T::kText, false, {}, "the armor source: ar or a stat ar.<source> / ar_magical.<source>"}};
    t.push_back(std::move(s));
  }
  {
    VerbSchema s = V("maneuver", "answer a maneuver window (a critical win)", "003.maneuver");
    s.params = {{"maneuver", T::kText, true, {"bash", "brace", "disarm", "feint", "precision", "push", "trip", "none"},
                 "the maneuver"},
                {"item", T::kText, false, {}, "disarm: the item taken"},
                {"location", T::kText, false, {}, "precision: the hit location"}};
    t.push_back(std::move(s));
  }
  {
    VerbSchema s = V("opportunity_attack", "answer an opportunity window: a melee Strike on the provoker",
                     "003.opportunity");
    s.targets = Use::kOptional;  // the provoker, if named
    s.weapon = Use::kRequired;
    s.params = {kAttribute};
    t.push_back(std::move(s));
  }
  t.push_back(V("pass", "answer an opportunity window: no reaction", "003.opportunity"));
  {
    VerbSchema s = V("move", "move along a path (speed, metres)", "003.move");
    s.path = Use::kRequired;
    t.push_back(std::move(s));
  }
  {
    VerbSchema s = V("dash", "add your speed to the movement allowance; and move", "003.dash");
    s.path = Use::kOptional;
    t.push_back(std::move(s));
  }
  {
    VerbSchema s = V("sneak", "move stealthily", "003.sneak");
    s.path = Use::kOptional;
    t.push_back(std::move(s));
  }
  t.push_back(V("disengage", "move away without provoking this turn", "003.disengage"));
  t.push_back(V("stand", "stand up from Prone (provokes)", "003.opportunity.stand"));
  {
    VerbSchema s = V("grapple", "grapple a creature within touch", "003.grapple");
    s.targets = Use::kRequired;
    t.push_back(std::move(s));
  }
  {
    VerbSchema s = V("release", "release a creature you grapple", "003.grapple");
    s.targets = Use::kRequired;
    t.push_back(std::move(s));
  }
  t.push_back(V("search", "an observation test", "003.search"));
  {
    VerbSchema s = V("manipulate", "draw, stow or handle an item", "003.manipulate");
    s.weapon = Use::kOptional;
    s.params = {{"free", T::kFlag, false, {}, "the free manipulation of the turn"},
                {"stow", T::kFlag, false, {}, "stow the item named"}};
    t.push_back(std::move(s));
  }
  {
    VerbSchema s = V("use_magic", "cast a spell (an attack spell opens a defense window)", "003.use_magic");
    s.targets = Use::kOptional;
    s.weapon = Use::kOptional;
    s.params = {{"free", T::kFlag, false, {}, "a free action"}};
    t.push_back(std::move(s));
  }
  t.push_back(V("end_turn", "end your turn", "003.turn"));
  {
    VerbSchema s = V("save_turn", "save your turn until after another character's", "003.save_turn");
    s.params = {{"after", T::kText, true, {}, "the character after whom to become active"}};
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

}  // namespace combat::kernel::opposed
