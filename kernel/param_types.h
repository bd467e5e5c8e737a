// Parameter types: the one check that a command's params have the types
// its verb expects, alongside CheckTakes (kernel/command.h), which checks
// their keys. fb::Param carries both `value` (integer) and `text`; a verb
// lists which of its keys are text, which are 0/1 flags and which integers
// must not be negative; every other key is an integer.
//
// Contract: InvalidArgument naming the field and what would be right, e.g.
// "command 'attack': field 'params.miss': a number expected, not text" —
// for a text key given no text ("text expected"), an integer key given text,
// a flag other than 0 or 1 ("0 or 1"), a negative count ("must be >= 0").
// A key ending in '*' is a prefix ("skill_*" covers "skill_aria").
// Call it after CheckTakes, before anything is decided.
#ifndef COMBAT_KERNEL_PARAM_TYPES_H_
#define COMBAT_KERNEL_PARAM_TYPES_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "events/common_generated.h"

namespace combat::kernel {

struct ParamTypes {
  std::vector<std::string> text;    // text params
  std::vector<std::string> flags;   // integers 0 or 1
  std::vector<std::string> nonneg;  // integers >= 0
};

absl::Status CheckParamTypes(const fb::CommandT& c, const ParamTypes& t);

}  // namespace combat::kernel

#endif  // COMBAT_KERNEL_PARAM_TYPES_H_
