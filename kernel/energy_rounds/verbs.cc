// The verb table (kernel/verb_schema.h): every verb Decide takes, with the
// fields and parameters its code reads (ruleset.cc dispatches; acts.cc's
// action table holds the acts). kernel::DecideCommand refuses anything
// else before Decide sees it.
//
// What the table cannot say, and the code still checks:
//  - `interrupt` carries the fields of the act it names (param `act`): its
//    row takes the union of the acts' params, and DecideInterrupt checks
//    the act itself against the act's own row (interrupts.cc);
//  - `window` is required by `interrupt` (always accepted, never listed);
//  - condition names (gm_condition / remove_condition `name`) are a closed
//    list in any case and spelling ("fully restrained"): CanonicalCondition;
//  - ranges and relations: `enhance` > 4 needs `enhance_single`, `nl_trade`
//    needs `nonlethal`, `fling_x` with `fling_y`, `dir` 0..7, `stamina` >= 1,
//    `minutes` 1..30, `hours` 1..8, `sleep_hours` <= `hours`;
//  - resolve / cancel name the act by `actor` or by `window`.
#include <string>
#include <vector>

#include "kernel/energy_rounds/internal.h"
#include "kernel/verb_schema.h"

namespace combat::kernel::energy {
namespace {

constexpr ParamType kInt = ParamType::kInt;
constexpr ParamType kNonNeg = ParamType::kNonNeg;
constexpr ParamType kFlag = ParamType::kFlag;
constexpr ParamType kText = ParamType::kText;

void Add(VerbSchema& v, const std::vector<ParamSpec>& more) {
  for (const ParamSpec& p : more) v.params.push_back(p);
}

// An act of acts.cc's table: its rule is the row's; every act takes
// `at_once` (DeclareAct) and, unless noted, the cost params (energy.cc:
// ReadCostParams).
VerbSchema Act(const std::string& verb, const std::string& doc, bool cost = true) {
  VerbSchema v;
  v.verb = verb;
  v.doc = doc;
  const Verb* row = FindVerb(verb);
  v.rule = row == nullptr ? "" : row->rule;
  v.params = {{"at_once", kFlag, false, {}, "1: resolve now, without waiting for interrupts"}};
  if (cost) {
    v.params.push_back({"stamina_energy", kFlag, false, {},
                        "1: pay 1 Energy with 1 Stamina, once a Round (l.47)"});
  }
  return v;
}

// An attack act: one target, and what every attack reads (acts.cc swift,
// energy.cc enhance, melee.cc CheckAttackCommon).
VerbSchema Attack(const std::string& verb, const std::string& doc) {
  VerbSchema v = Act(verb, doc);
  v.targets = Use::kRequired;
  Add(v, {{"enhance", kNonNeg, false, {}, "Stamina enhancing the attack, at most 4 (l.80)"},
          {"enhance_single", kFlag, false, {}, "1: one ability asks for more than 4 (l.80)"},
          {"swift", kFlag, false, {}, "1: a Swift Attack (l.481)"},
          {"nonlethal", kFlag, false, {}, "1: non-lethal damage (l.511)"},
          {"nl_trade", kNonNeg, false, {}, "non-lethal trades, -3 AV / +3 Miss Chance each (l.519)"}});
  return v;
}

// What a melee attack roll reads (melee.cc MeleeAttackRoll).
std::vector<ParamSpec> MeleeRoll() {
  return {{"defense", kText, false, {"evasion", "fortitude", "will"},
           "the defense rolled against (default evasion)"},
          {"av_mod", kInt, false, {}, "situational AV modifier"}};
}

ParamSpec Double() {
  return {"double", kNonNeg, false, {}, "extra sources of double damage (l.386)"};
}

ParamSpec StopAfter() {
  return {"stop_after", kNonNeg, false, {}, "metres after which the run stops"};
}

std::vector<VerbSchema> Acts() {
  std::vector<VerbSchema> t;
  {
    VerbSchema v = Attack("melee", "a melee attack (3 Energy; single strike 1)");
    v.weapon = Use::kOptional;  // default: the first wielded melee weapon
    Add(v, MeleeRoll());
    Add(v, {Double(),
            {"single_strike", kFlag, false, {}, "1: against a target that cannot defend (l.156)"}});
    t.push_back(std::move(v));
  }
  {
    VerbSchema v = Attack("unarmed", "an unarmed attack (2 Energy)");
    Add(v, MeleeRoll());
    Add(v, {Double(),
            {"single_strike", kFlag, false, {}, "1: against a target that cannot defend (l.156)"}});
    t.push_back(std::move(v));
  }
  {
    VerbSchema v = Attack("trip", "knocks the target Prone (l.557)");
    v.weapon = Use::kOptional;
    Add(v, MeleeRoll());
    t.push_back(std::move(v));
  }
  {
    VerbSchema v = Attack("disarm", "knocks the target's weapon away (l.565)");
    v.weapon = Use::kOptional;
    Add(v, MeleeRoll());
    Add(v, {{"item", kText, false, {}, "the target's wielded weapon (default its first)"},
            {"fling_x", kInt, false, {}, "where it is flung, x (+1 Agility)"},
            {"fling_y", kInt, false, {}, "where it is flung, y"}});
    t.push_back(std::move(v));
  }
  {
    VerbSchema v = Attack("restrain", "restrains the target, unarmed (l.571)");
    Add(v, MeleeRoll());
    t.push_back(std::move(v));
  }
  {
    VerbSchema v = Attack("push", "pushes the target, unarmed (l.583)");
    v.path = Use::kOptional;  // the squares pushed through (default 1 m away)
    Add(v, MeleeRoll());
    Add(v, {{"sprint_push", kFlag, false, {}, "1: after a sprint, up to 3 m (l.587)"}});
    t.push_back(std::move(v));
  }
  for (const char* verb : {"ranged", "throw"}) {
    VerbSchema v = Attack(verb, std::string(verb) == "ranged" ? "a ranged attack (l.192)"
                                                              : "throws a weapon (l.272)");
    v.weapon = Use::kOptional;  // default: the first wielded one that fits
    Add(v, {{"target_movement", kText, false, {"none", "normal", "zigzag"},
             "how the target moves (default from its state, l.222)"},
            {"mc_mod", kInt, false, {}, "situational Miss Chance modifier"},
            Double()});
    t.push_back(std::move(v));
  }
  {
    VerbSchema v = Act("load", "loads a weapon (its `load` Energy)");
    v.weapon = Use::kRequired;
    t.push_back(std::move(v));
  }
  {
    VerbSchema v = Act("shift", "moves 1 square (1 Energy or 2 Agility)");
    v.path = Use::kRequired;
    Add(v, {{"agility", kFlag, false, {}, "1: pay 2 Agility instead of 1 Energy (l.21)"}});
    t.push_back(std::move(v));
  }
  {
    VerbSchema v = Act("run", "runs along `path`, up to Speed (l.23)");
    v.path = Use::kRequired;
    Add(v, {StopAfter()});
    t.push_back(std::move(v));
  }
  {
    VerbSchema v = Act("sprint",
                       "sprints along `path` (its share of 3 Energy for Speed + sprint "
                       "metres, + 1 Stamina, l.25)");
    v.path = Use::kRequired;
    Add(v, {StopAfter()});
    t.push_back(std::move(v));
  }
  {
    VerbSchema v = Act("jump", "jumps over `path`, landing on its last square (l.31)");
    v.path = Use::kRequired;
    t.push_back(std::move(v));
  }
  {
    VerbSchema v = Act("agile_move", "an Immediate 1-square move for 1 Agility (l.29)", false);
    v.path = Use::kRequired;
    t.push_back(std::move(v));
  }
  t.push_back(Act("kneel", "kneels from Prone (1 Energy, l.33)"));
  t.push_back(Act("stand", "stands up from kneeling (1 Energy, l.13)"));
  t.push_back(Act("defend", "Defends: ends Unguarded / Exposed (1 Energy, l.35)"));
  for (const char* verb : {"equip", "stow"}) {
    VerbSchema v = Act(verb, std::string(verb) == "equip" ? "draws an item (l.37)"
                                                          : "puts an item away (l.37)");
    v.weapon = Use::kRequired;
    Add(v, {{"sidearm", kFlag, false, {}, "1: a side arm (1 Energy, else 2)"}});
    t.push_back(std::move(v));
  }
  {
    VerbSchema v = Act("pick_up", "picks up a dropped item (l.39)");
    v.weapon = Use::kRequired;
    v.targets = Use::kOptional;  // its owner (default the actor)
    Add(v, {{"place", kText, false, {"ground", "table", "scoop"},
             "where it lies (default ground)"}});
    t.push_back(std::move(v));
  }
  t.push_back(Act("catch_breath", "+1 Stamina for 3 Energy, or all its Energy (l.41)"));
  {
    VerbSchema v = Act("exert", "a task costing Stamina (the task in text, l.64)", false);
    v.params.push_back({"stamina", kNonNeg, true, {}, "the Stamina it costs (>= 1)"});
    v.params.push_back({"task", kText, false, {"door", "wall", "climb", "other"},
                        "the text's task: door or wall 1 Stamina (l.68), climb 1-3 (l.69); "
                        "other (default): the GM's number (l.70)"});
    t.push_back(std::move(v));
  }
  {
    VerbSchema v = Act("escape", "escapes a restraint (3 Energy, l.575)");
    Add(v, {{"with", kText, false, {"fortitude", "leg", "arm"},
             "a Fortitude roll or a strength check (default fortitude)"},
            {"hold_with", kText, false, {"fortitude", "arm"},
             "the GM's ruling only: the restrainer's Fortitude roll or Arm Strength Check "
             "(default its better, reading 22)"}});
    t.push_back(std::move(v));
  }
  return t;
}

// `interrupt`: any act's params, and the act it is.
VerbSchema Interrupt(const std::vector<VerbSchema>& acts) {
  VerbSchema v;
  v.verb = "interrupt";
  v.doc = "interrupts an open window with an act (its fields too; `window` required)";
  v.rule = "002.initiative.roll";
  v.targets = Use::kOptional;
  v.weapon = Use::kOptional;
  v.path = Use::kOptional;
  std::vector<std::string> names;
  for (const VerbSchema& a : acts) names.push_back(a.verb);
  v.params = {{"act", kText, true, names, "the interrupting act"}};
  for (const VerbSchema& a : acts) {
    for (const ParamSpec& p : a.params) {
      bool have = false;
      for (const ParamSpec& q : v.params) have = have || q.key == p.key;
      if (!have) v.params.push_back({p.key, p.type, false, p.allowed, p.doc});
    }
  }
  v.refs = {{"also_window", false, "a further window answered (repeatable)"}};
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

std::vector<VerbSchema>* Build() {
  auto* t = new std::vector<VerbSchema>(Acts());
  t->push_back(Interrupt(Acts()));
  {
    VerbSchema v = Other("resolve", "resolves the actor's pending act (or `window`'s)", "002.incomplete");
    v.actor = Use::kOptional;  // or `window`
    v.params = {StopAfter()};
    t->push_back(std::move(v));
  }
  {
    VerbSchema v = Other("cancel", "ends the actor's pending act (1 Energy, l.138)", "002.incomplete");
    v.actor = Use::kOptional;  // or `window`
    t->push_back(std::move(v));
  }
  t->push_back(Other("pass", "does nothing until somebody acts", "002.rounds.nobody_acts"));
  {
    VerbSchema v = Other("save_initiative", "declines to roll Initiative this Round (l.126)",
                         "002.initiative.decline");
    v.params = {{"off", kFlag, false, {}, "1: stop declining"}};
    t->push_back(std::move(v));
  }
  {
    VerbSchema v = Other("end_round", "GM: the Round is over (the reason in text)", "002.rounds.gm_ends");
    v.gm = true;
    v.actor = Use::kNo;
    t->push_back(std::move(v));
  }
  {
    VerbSchema v = Other("face", "turns to a direction or a creature (free, l.410)", "002.facing.turn");
    v.targets = Use::kOptional;
    v.params = {{"dir", kNonNeg, false, {}, "0..7, 0 north, clockwise (or targets[0])"}};
    t->push_back(std::move(v));
  }
  t->push_back(Other("release", "the restrainer lets go (free)", "002.cond.restraining"));
  {
    VerbSchema v = Other("remove_condition", "removes a condition (tag removes:<Name>, or the GM)",
                         "002.cond.ignore");
    v.params = {{"name", kText, true, {}, "the condition (any case)"}};
    t->push_back(std::move(v));
  }
  {
    VerbSchema v = Other("short_rest", "GM: a Short Rest (l.599)", "002.rest.short");
    v.gm = true;
    v.actor = Use::kNo;
    v.targets = Use::kOptional;  // default everyone alive
    v.params = {{"minutes", kNonNeg, false, {}, "1 to 30, the minutes rested (default 5; under 5 or off the 5s: interrupted, l.606)"},
                {"surges", kNonNeg, false, {}, "Recovery Surges spent, 1 per 5 minutes"}};
    t->push_back(std::move(v));
  }
  {
    VerbSchema v = Other("long_rest", "GM: a Long Rest (l.612)", "002.rest.long");
    v.gm = true;
    v.actor = Use::kNo;
    v.targets = Use::kOptional;
    v.params = {{"hours", kNonNeg, false, {}, "1 to 8, the hours rested (default 8; fewer: interrupted, l.620)"},
                {"minutes", kNonNeg, false, {}, "1 to 480, the minutes rested, instead of hours (interrupted between the hours, l.620)"},
                {"sleep_hours", kNonNeg, false, {}, "hours slept (default min(whole hours, 6))"},
                {"surges", kNonNeg, false, {}, "Recovery Surges spent"}};
    t->push_back(std::move(v));
  }
  {
    VerbSchema v = Other("surge", "GM: an ability spends a Recovery Surge", "002.rest.surge");
    v.gm = true;
    t->push_back(std::move(v));
  }
  // kernel/gm.h; condition names: any case, checked by CanonicalCondition.
  for (VerbSchema& g : GmVerbSchemas({})) {
    g.rule = "002.gm";
    t->push_back(std::move(g));
  }
  return t;
}

}  // namespace

const std::vector<VerbSchema>& Verbs() {
  static const std::vector<VerbSchema>* const table = Build();
  return *table;
}

}  // namespace combat::kernel::energy
