#include "replay/setup_dice.h"

#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace combat::replay {

absl::StatusOr<std::vector<int>> ParseSetupDice(absl::string_view text, absl::string_view what) {
  std::vector<int> dice;
  const std::vector<absl::string_view> parts = absl::StrSplit(text, ',');
  for (size_t i = 0; i < parts.size(); ++i) {
    int v = 0;
    if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(parts[i]), &v)) {
      return absl::InvalidArgumentError(absl::StrCat(
          what, ": die ", i + 1, " '", parts[i],
          "' is not a whole number; give the set-up's physical dice in the "
          "order it rolls them, comma-separated (e.g. 20,7)"));
    }
    dice.push_back(v);
  }
  return dice;
}

}  // namespace combat::replay
