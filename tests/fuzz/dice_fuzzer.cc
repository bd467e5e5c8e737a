// libFuzzer target for dice notation: the input is a notation, optionally
// followed by a NUL byte and die values (one byte each) for a manual dice
// source. Properties: no crash, hang or sanitizer report; a rejected
// notation is InvalidArgument naming a position; an accepted one has a
// normalized text that parses to itself; evaluation with manual dice either
// succeeds with every die within its faces and indexes in sequence, or
// fails with ResourceExhausted (dice ran out) or InvalidArgument (a value
// that does not fit).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "kernel/dice/notation.h"
#include "kernel/dice/roller.h"
#include "kernel/dice/source.h"

namespace {

[[noreturn]] void Fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "dice_fuzzer: %s: %s\n", what, detail.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  const size_t nul = input.find('\0');
  const std::string text = input.substr(0, nul);
  std::vector<int> values;
  if (nul != std::string::npos) {
    for (size_t i = nul + 1; i < input.size(); ++i) {
      values.push_back(static_cast<int8_t>(input[i]));
    }
  }
  using combat::kernel::dice::DiceExpr;
  absl::StatusOr<DiceExpr> expr = combat::kernel::dice::ParseDice(text);
  if (!expr.ok()) {
    if (expr.status().code() != absl::StatusCode::kInvalidArgument ||
        expr.status().message().empty()) {
      Fail("rejection is not a clear InvalidArgument", expr.status().ToString());
    }
    return 0;
  }
  absl::StatusOr<DiceExpr> again = combat::kernel::dice::ParseDice(expr->text);
  if (!again.ok() || again->text != expr->text) {
    Fail("normalized text does not parse to itself",
         text + " -> " + expr->text + " -> " +
             (again.ok() ? again->text : again.status().ToString()));
  }
  combat::kernel::dice::ManualDice manual(values, nullptr);
  absl::StatusOr<combat::kernel::dice::RollResult> roll =
      combat::kernel::dice::Evaluate(*expr, manual, 7);
  if (!roll.ok()) {
    const absl::StatusCode c = roll.status().code();
    if (c != absl::StatusCode::kResourceExhausted &&
        c != absl::StatusCode::kInvalidArgument) {
      Fail("evaluation error code", roll.status().ToString());
    }
    return 0;
  }
  int64_t index = 7;
  for (const auto& d : roll->dice) {
    if (d.index != index++ || d.value < 1 || d.value > d.faces) {
      Fail("a die out of sequence or range", text);
    }
  }
  return 0;
}
