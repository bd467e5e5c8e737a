// A registry with only the toy ruleset: test binaries that link this
// instead of //kernel:registry run the engine and the `combat` tool over
// Toy() (replay/testing/toy.h). Never link both.
#include "kernel/ruleset.h"
#include "replay/testing/toy.h"

namespace combat::kernel {

const Ruleset* FindRuleset(const std::string& id) {
  const Ruleset& toy = replay::testing::Toy();
  return id == toy.id() ? &toy : nullptr;
}

std::vector<std::string> RulesetIds() { return {replay::testing::Toy().id()}; }

}  // namespace combat::kernel
