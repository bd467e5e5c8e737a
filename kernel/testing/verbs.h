// Test helpers for a ruleset's verb table (kernel/verb_schema.h): the
// checks every ruleset's verbs_test makes, written once.
#ifndef COMBAT_KERNEL_TESTING_VERBS_H_
#define COMBAT_KERNEL_TESTING_VERBS_H_

#include <string>
#include <vector>

#include "events/input_generated.h"
#include "kernel/ruleset.h"
#include "kernel/state.h"
#include "kernel/testing/table.h"
#include "kernel/verb_schema.h"

namespace combat::kernel::testing {

// Who fills a verb's required fields in a test.
struct VerbFill {
  std::string actor;
  std::string target;
  std::string weapon;
  Pos step;  // a square one step away (a one-square path)
};

// The verb's Skeleton by `f.actor` with its required fields filled in
// from `f` (required refs name seq 1, required text params "x"), and the
// GM's role (author "gm", a reason) for GM verbs.
fb::CommandT Filled(const VerbSchema& v, const VerbFill& f);

// The refusal's message of `c` submitted to `t` ("" when it passes);
// expects InvalidArgument.
std::string Refusal(Table& t, const fb::CommandT& c);

// Every verb of `rules`' table, filled and given an unknown parameter
// `zz`, is refused naming `params.zz` (gm_order, whose params are keyed by
// combatant ids, names it "not a combatant"; `order` are its targets).
void ExpectEveryVerbRefusesAnUnknownParameter(Table& t, const Ruleset& rules,
                                              const VerbFill& f,
                                              const std::vector<std::string>& order);

// The ruleset's Decide never answers "unknown action" to a verb of its
// table (decided on `s`, discarded).
void ExpectDecideTakesEveryVerb(const State& s, const Ruleset& rules,
                                const VerbFill& f);

// The verb table as the rulesets' READMEs show it (a markdown table).
std::string VerbsMarkdown(const std::vector<VerbSchema>& verbs);
// The block of kernel/<ruleset>/README.md between the verbs markers ("" when
// absent), read from the test's runfiles.
std::string ReadmeVerbsBlock(const std::string& ruleset);
// The JSON objects of the first ```json block after `heading` in
// kernel/<ruleset>/README.md.
std::vector<std::string> ReadmeJsonExamples(const std::string& ruleset,
                                            const std::string& heading);

// The README of kernel/<ruleset> shows `rules`' table (the block between
// the verbs markers is VerbsMarkdown), and every JSON example after
// `heading` (at least `min_examples`) parses and passes the table.
void ExpectReadmeAgreesWithTheTable(const std::string& ruleset, const Ruleset& rules,
                                    const std::string& heading, size_t min_examples);

}  // namespace combat::kernel::testing

#endif  // COMBAT_KERNEL_TESTING_VERBS_H_
