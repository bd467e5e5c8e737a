// The rulesets this build knows, by id. Add a ruleset here and to the
// :registry target's deps.
#include <algorithm>

#include "kernel/ap_rp/ruleset.h"
#include "kernel/d20_three_action/ruleset.h"
#include "kernel/energy_rounds/ruleset.h"
#include "kernel/opposed_tests/ruleset.h"
#include "kernel/ruleset.h"
#include "kernel/wound_slots/ruleset.h"

namespace combat::kernel {
namespace {

const std::vector<const Ruleset*>& All() {
  static const auto* all = new std::vector<const Ruleset*>{
      &d20::D20ThreeAction(),
      &energy::EnergyRounds(),
      &opposed::OpposedTests(),
      &aprp::ApRp(),
      &wound_slots::WoundSlots(),
  };
  return *all;
}

}  // namespace

const Ruleset* FindRuleset(const std::string& id) {
  for (const Ruleset* r : All()) {
    if (r->id() == id) return r;
  }
  return nullptr;
}

std::vector<std::string> RulesetIds() {
  std::vector<std::string> ids;
  for (const Ruleset* r : All()) ids.push_back(r->id());
  std::sort(ids.begin(), ids.end());
  return ids;
}

}  // namespace combat::kernel
