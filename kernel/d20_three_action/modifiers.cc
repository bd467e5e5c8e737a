// The keys of the numbers that are modifiers (README "Sources of
// modifiers"): each names its source or its rule (kernel::Num).
#include <string>

#include "absl/strings/match.h"
#include "kernel/d20_three_action/ruleset.h"

namespace combat::kernel::d20 {

bool IsModifier(const std::string& key) {
  for (const char* prefix :
       {"adv.", "dis.", "defender.adv.", "defender.dis."}) {
    if (absl::StartsWith(key, prefix)) return true;  // advantage.cc
  }
  for (const char* k :
       {"range_penalty", "critical_x2", "critical.ruled", "critical_extra_ft",
        "slowed", "incapacitated", "stunned_or_unconscious", "flight_x2",
        "grapple_halved", "bleed_penalty", "doubled_ft", "turn_ft", "bonus"}) {
    if (key == k) return true;
  }
  return false;
}

}  // namespace combat::kernel::d20
