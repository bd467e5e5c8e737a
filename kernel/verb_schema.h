// A verb's input, as its ruleset publishes it (Ruleset::Verbs()): which
// command fields it reads, each parameter's key, type, whether it is
// required and which values it allows, its refs. One table per ruleset
// serves three readers:
//   - the kernel, which checks every command against it before the
//     ruleset decides (CheckCommand, called by kernel::DecideCommand): a
//     field or parameter the verb does not take, a wrong type, a value
//     outside the allowed ones, a required parameter missing -- each
//     refused (InvalidArgument, nothing decided) naming the field and what
//     would be right; an unknown verb is refused with the nearest verb and
//     the list;
//   - `combat verbs` and the server's API (what to send);
//   - `combat status` (a ready-to-edit command for each legal act).
//
// Always accepted on every verb, whatever its schema says: `id`, `author`,
// `role`, `text` (the declaration's words, the GM's reason), `dice`
// (physical dice), `contribution`, `window` (answering an open window), and
// the kernel's parameters `dice_override` (GM only) and `digital_rest`
// (kernel/session.h).
#ifndef COMBAT_KERNEL_VERB_SCHEMA_H_
#define COMBAT_KERNEL_VERB_SCHEMA_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "events/input_generated.h"

namespace combat::kernel {

enum class ParamType {
  kInt,     // any integer (fb::Param.value)
  kNonNeg,  // an integer >= 0
  kFlag,    // 0 or 1
  kText,    // text (fb::Param.text)
};

struct ParamSpec {
  std::string key;  // "edge"; a key ending in '*' is a prefix ("skill_*")
  ParamType type = ParamType::kInt;
  bool required = false;
  // kText: the values allowed (empty: any text); compared exactly.
  std::vector<std::string> allowed;
  std::string doc;  // what it means, in a few words
};

struct RefSpec {
  std::string key;  // "subject", "window", "act"
  bool required = false;
  std::string doc;
};

// Whether a verb reads a command field.
enum class Use { kNo, kOptional, kRequired };

struct VerbSchema {
  std::string verb;
  std::string doc;   // one line: what it does
  std::string rule;  // the rule id its legality cites ("" for none)
  bool gm = false;   // a GM verb (rulings: the GM's role)
  Use actor = Use::kRequired;
  Use targets = Use::kNo;
  Use weapon = Use::kNo;
  Use path = Use::kNo;
  std::vector<ParamSpec> params;
  std::vector<RefSpec> refs;
};

// The schema of `verb` in `verbs`, or nullptr.
const VerbSchema* FindVerb(const std::vector<VerbSchema>& verbs,
                           const std::string& verb);

// The checks described above. `verbs` is the ruleset's whole table.
absl::Status CheckCommand(const std::vector<VerbSchema>& verbs,
                          const fb::CommandT& command);

// The shared GM verbs of kernel/gm.h, for a ruleset's table:
// `conditions` are the ruleset's condition names (gm_condition's `name`;
// empty: any text).
std::vector<VerbSchema> GmVerbSchemas(const std::vector<std::string>& conditions);

// A command skeleton for `schema` (for `status` and the API): the verb,
// `actor`, and every required parameter with a placeholder (0, or the first
// allowed text, or "" ); targets/weapon/path left for the caller.
fb::CommandT Skeleton(const VerbSchema& schema, const std::string& actor);

// "int", "int >= 0", "0 or 1", "text" or "text: a | b | c".
std::string TypeName(const ParamSpec& p);

}  // namespace combat::kernel

#endif  // COMBAT_KERNEL_VERB_SCHEMA_H_
