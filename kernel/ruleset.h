// The interface every ruleset implements, and the registry that finds one
// by id.
//
// A ruleset is a decider: given the state and a command, it emits the
// events the command causes into a Decision, or refuses. It never changes
// state itself and never touches storage. Conventions for refusals:
//   - FailedPrecondition: the act is illegal now ("aria has no Actions
//     left (000 Turn: three Actions)"). The CLI exits 1.
//   - InvalidArgument / NotFound: the command is malformed or names an
//     unknown combatant, weapon or field. The CLI exits 2.
// Messages name the command field at fault and, for rules, the section.
#ifndef COMBAT_KERNEL_RULESET_H_
#define COMBAT_KERNEL_RULESET_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "events/input_generated.h"
#include "kernel/decision.h"
#include "kernel/display.h"
#include "kernel/verb_schema.h"

namespace combat::kernel {

// One entry of a ruleset's rule table: the id state changes cite, and where
// the rules text says it.
struct RuleRef {
  std::string id;        // "000.attack.critical"
  std::string seed;      // "000_ab2f36f2929fdde3.txt"
  std::string section;   // "Actions > Attack"
  int line = 0;          // line of the seed text
  std::string summary;   // what the rule does, or how the text is read
};

// How a ruleset's text measures the battlefield: the unit every distance
// of its sessions is in (SessionStarted.map.unit) and a square's side in it.
struct Measure {
  fb::DistanceUnit unit = fb::DistanceUnit::Feet;
  int32_t square = 5;
};

class Ruleset {
 public:
  virtual ~Ruleset() = default;

  // The unit and square size of its text; set-up records them in the
  // session's first event and refuses a roster map that declares others.
  virtual Measure measure() const = 0;

  virtual std::string id() const = 0;
  virtual int32_t version() const = 0;

  // Checks `roster` (stats the ruleset needs, weapons, positions) and emits
  // the events that set the encounter up after SessionStarted (combatants
  // joining, resources, and whatever opens combat: initiative, round 1).
  // Errors name the combatant and field.
  virtual absl::Status Setup(const fb::Roster& roster, Decision& d) const = 0;

  // Decides `command` against d.state().
  virtual absl::Status Decide(const fb::CommandT& command,
                              Decision& d) const = 0;

  // Every rule the ruleset applies, for `explain` and the README.
  virtual const std::vector<RuleRef>& Rules() const = 0;

  // How its state reads at the table (kernel/display.h): vitals, budgets,
  // bookkeeping. The default shows every resource as a game value.
  virtual Display display() const { return {}; }

  // Every verb Decide takes, with its input (kernel/verb_schema.h), the
  // shared GM verbs included. kernel::DecideCommand checks each command
  // against it before Decide sees it, so Decide never meets a field,
  // parameter or ref its verb does not take, nor a parameter of the wrong
  // type or outside its allowed values.
  virtual const std::vector<VerbSchema>& Verbs() const = 0;
};

// The ruleset registered under `id`, or nullptr.
const Ruleset* FindRuleset(const std::string& id);
// Every registered id, sorted.
std::vector<std::string> RulesetIds();

}  // namespace combat::kernel

#endif  // COMBAT_KERNEL_RULESET_H_
