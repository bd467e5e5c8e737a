// Dice notation: what a decider asks the dice source for.
//
// Grammar (case-insensitive, spaces ignored):
//   expr   := term (('+'|'-') term)*
//   term   := dice | integer
//   dice   := [count] 'd' faces [keep] ['!'] [pool]
//   keep   := 'kh' n | 'kl' n          keep the n highest / lowest dice
//   '!'    := exploding: a die showing its highest face is rolled again and
//             the new die added (repeatedly, at most kMaxExplosions times)
//   pool   := '>=' n                   count dice >= n as successes
// Examples: "d20", "2d20kh1+7" (advantage), "2d20kl1" (disadvantage),
// "1d6!", "2d6-1", "6d6>=5" (a pool of six, successes on 5 and 6).
// Limits: 1..100 dice per term, faces 1..1000 (faces 1 may not explode),
// at most 8 terms; constants 0..1000000; keep n in 1..count; a pool
// threshold in 1..faces. A leading sign is not part of the grammar.
// `DiceExpr::text` writes every count ("d20" -> "1d20") and keeps the terms,
// constants included, in the order given.
#ifndef COMBAT_KERNEL_DICE_NOTATION_H_
#define COMBAT_KERNEL_DICE_NOTATION_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace combat::kernel::dice {

inline constexpr int kMaxExplosions = 20;

struct DiceTerm {
  int sign = 1;         // +1 or -1
  int count = 1;
  int faces = 6;
  int keep_high = 0;    // 0 = keep all
  int keep_low = 0;
  bool explode = false;
  int pool_at = 0;      // 0 = not a pool; else successes on >= pool_at
};

struct DiceExpr {
  std::vector<DiceTerm> terms;
  int64_t modifier = 0;  // the sum of constant terms
  std::string text;      // normalized notation, e.g. "2d20kh1+7"
};

// Parses `text`. Errors (InvalidArgument) name the offending character
// position (a 0-based offset into `text`, spaces counted), what was expected
// and what was found there.
absl::StatusOr<DiceExpr> ParseDice(absl::string_view text);

}  // namespace combat::kernel::dice

#endif  // COMBAT_KERNEL_DICE_NOTATION_H_
