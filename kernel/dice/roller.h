// Evaluates a dice expression against a source.
#ifndef COMBAT_KERNEL_DICE_ROLLER_H_
#define COMBAT_KERNEL_DICE_ROLLER_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "events/events_generated.h"
#include "kernel/dice/notation.h"
#include "kernel/dice/source.h"

namespace combat::kernel::dice {

struct RollResult {
  std::vector<fb::DieT> dice;  // every die, in the order rolled, with
                               // index, kept and exploded set
  int64_t modifier = 0;
  int64_t total = 0;           // kept dice (signed by term) + modifier
  int64_t successes = 0;       // pool terms only
  // The value of the first kept die (e.g. the natural d20), or 0.
  int natural() const;
};

// Rolls `expr`, numbering dice from `first_index` on. Dropped dice (keep
// highest/lowest) stay in `dice` with kept=false; a die that exploded has
// exploded=true and is followed by its extra die.
absl::StatusOr<RollResult> Evaluate(const DiceExpr& expr, DiceSource& source,
                                    int64_t first_index);

}  // namespace combat::kernel::dice

#endif  // COMBAT_KERNEL_DICE_ROLLER_H_
