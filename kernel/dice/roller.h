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
// Details:
// - Terms are rolled in order; within a term each die is followed by its
//   explosion chain (at most kMaxExplosions extra dice; the last die of a
//   capped chain has exploded=false even if it shows its highest face).
// - Keep ranks every die of the term, explosion extras included; among
//   equal values the earlier die is kept and the later one dropped.
// - Pool successes are the term's kept dice >= pool_at, signed like the
//   term; those dice also count in `total`.
// Errors: whatever the source returns (nothing is partially recorded: the
// caller gets no result); InvalidArgument for a term outside the limits of
// notation.h (hand-built expressions); Internal if the source answers a
// value that does not fit the die.
absl::StatusOr<RollResult> Evaluate(const DiceExpr& expr, DiceSource& source,
                                    int64_t first_index);

}  // namespace combat::kernel::dice

#endif  // COMBAT_KERNEL_DICE_ROLLER_H_
