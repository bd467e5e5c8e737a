#include "kernel/dice/roller.h"

#include <algorithm>
#include <cstddef>

#include "absl/strings/str_cat.h"

namespace combat::kernel::dice {
namespace {

// The limits ParseDice enforces, checked again for hand-built expressions.
absl::Status CheckTerm(const DiceTerm& t, size_t i) {
  const bool ok =
      (t.sign == 1 || t.sign == -1) && t.count >= 1 && t.count <= 100 &&
      t.faces >= 1 && t.faces <= 1000 && t.keep_high >= 0 &&
      t.keep_high <= t.count && t.keep_low >= 0 && t.keep_low <= t.count &&
      !(t.keep_high > 0 && t.keep_low > 0) && !(t.explode && t.faces == 1) &&
      t.pool_at >= 0 && t.pool_at <= t.faces;
  if (ok) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("dice term ", i + 1, " (", t.count, "d", t.faces,
                   ") is outside the limits of dice/notation.h"));
}

// Marks all but `n` dice of dice[begin, end) kept=false: the highest (or
// lowest) values stay; among equal values the earlier die stays.
void Keep(std::vector<fb::DieT>& dice, size_t begin, size_t end, int n,
          bool highest) {
  std::vector<size_t> order;
  for (size_t i = begin; i < end; ++i) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return highest ? dice[a].value > dice[b].value
                   : dice[a].value < dice[b].value;
  });
  for (size_t r = static_cast<size_t>(n); r < order.size(); ++r) {
    dice[order[r]].kept = false;
  }
}

}  // namespace

int RollResult::natural() const {
  for (const fb::DieT& d : dice) {
    if (d.kept) return d.value;
  }
  return 0;
}

absl::StatusOr<RollResult> Evaluate(const DiceExpr& expr, DiceSource& source,
                                    int64_t first_index) {
  RollResult result;
  result.modifier = expr.modifier;
  int64_t index = first_index;
  for (size_t t = 0; t < expr.terms.size(); ++t) {
    const DiceTerm& term = expr.terms[t];
    absl::Status s = CheckTerm(term, t);
    if (!s.ok()) return s;
    const size_t begin = result.dice.size();
    for (int n = 0; n < term.count; ++n) {
      // A die, then its explosion chain: at most kMaxExplosions extra dice.
      for (int extra = 0; extra <= kMaxExplosions; ++extra) {
        absl::StatusOr<RolledDie> rolled = source.Next(term.faces, index);
        if (!rolled.ok()) return rolled.status();
        if (rolled->faces != term.faces || rolled->value < 1 ||
            rolled->value > term.faces) {
          return absl::InternalError(
              absl::StrCat("dice source answered ", rolled->value, " on a d",
                           rolled->faces, " for a d", term.faces));
        }
        fb::DieT die;
        die.faces = term.faces;
        die.value = rolled->value;
        die.index = index++;
        die.kept = true;
        die.provenance = rolled->provenance;
        die.exploded =
            term.explode && die.value == term.faces && extra < kMaxExplosions;
        result.dice.push_back(die);
        if (!die.exploded) break;
      }
    }
    const size_t end = result.dice.size();
    if (term.keep_high > 0) Keep(result.dice, begin, end, term.keep_high, true);
    if (term.keep_low > 0) Keep(result.dice, begin, end, term.keep_low, false);
    for (size_t i = begin; i < end; ++i) {
      const fb::DieT& d = result.dice[i];
      if (!d.kept) continue;
      result.total += term.sign * d.value;
      if (term.pool_at > 0 && d.value >= term.pool_at) {
        result.successes += term.sign;
      }
    }
  }
  result.total += expr.modifier;
  return result;
}

}  // namespace combat::kernel::dice
