// The one pair of refusals every ruleset gives (ruleset.h conventions):
//   Refuse     FailedPrecondition: the act is illegal now. The message ends
//              with the citation of the rule broken: "(000 Actions > Attack,
//              l.27)" from the ruleset's rule table.
//   Malformed  InvalidArgument: the command is malformed: "command
//              '<action>': field '<field>': <what would be right>".
#ifndef COMBAT_KERNEL_REFUSAL_H_
#define COMBAT_KERNEL_REFUSAL_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "events/common_generated.h"
#include "kernel/ruleset.h"

namespace combat::kernel {

// The entry `id` of `table`, or nullptr.
const RuleRef* FindRule(const std::vector<RuleRef>& table, const std::string& id);
// "<seed number> <section>, l.<line>" for rule `id` of `table` (the seed
// number is the first three characters of its file name); "<id>" alone
// when the table has no such rule.
std::string Cite(const std::vector<RuleRef>& table, const std::string& id);
absl::Status Refuse(const std::vector<RuleRef>& table, const std::string& id,
                    const std::string& message);
absl::Status Malformed(const fb::CommandT& c, const std::string& field,
                       const std::string& message);

}  // namespace combat::kernel

#endif  // COMBAT_KERNEL_REFUSAL_H_
