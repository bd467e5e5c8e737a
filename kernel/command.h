// Reading a command's fields, with errors that name the field.
#ifndef COMBAT_KERNEL_COMMAND_H_
#define COMBAT_KERNEL_COMMAND_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "events/common_generated.h"
#include "kernel/state.h"

namespace combat::kernel {

// The integer parameter `key`, if given.
std::optional<int64_t> Param(const fb::CommandT& c, const std::string& key);
// The integer parameter `key`, or `otherwise`.
int64_t ParamOr(const fb::CommandT& c, const std::string& key,
                int64_t otherwise);
// The text of parameter `key` ("" when absent).
std::string ParamText(const fb::CommandT& c, const std::string& key);
bool HasParam(const fb::CommandT& c, const std::string& key);
// Sets integer parameter `key` of `c` to `value`: every earlier `key` is
// removed and {key, value} appended last (so a command that had none gets
// it at its end). For a decider's own marks on a command it holds or
// resolves (`_cost`, `_jump_ap`), never read from a player.
void SetParam(fb::CommandT& c, const std::string& key, int64_t value);
// Removes every parameter `key` of `c`; the others keep their order.
void DropParam(fb::CommandT& c, const std::string& key);

// Typed references (Command.refs, schema v5): an earlier event, an open
// window or a pending act, named by `key` ("subject", "window", "act").
// What-if remaps every reference when it re-runs a command on a new branch
// (replay/whatif_refs.h), so a verb must read references through these and
// never through params. The first ref with `key` whose field is set (non-0)
// counts; nullopt when there is none.
std::optional<uint64_t> RefSeq(const fb::CommandT& c, const std::string& key);
std::optional<uint32_t> RefWindow(const fb::CommandT& c, const std::string& key);
std::optional<uint32_t> RefPending(const fb::CommandT& c,
                                   const std::string& key);
// The same, required: InvalidArgument naming the field and what it means,
// e.g. "command 'gm_void': refs[key=subject]: required, the seq of the event
// ruled on" (`what` = "the seq of the event ruled on"); when a ref with
// `key` exists but names no event (window, pending act): "...: refs[key=
// subject]: seq is 0; required, ...".
absl::StatusOr<uint64_t> RequiredRefSeq(const fb::CommandT& c,
                                        const std::string& key,
                                        const std::string& what);
absl::StatusOr<uint32_t> RequiredRefWindow(const fb::CommandT& c,
                                           const std::string& key,
                                           const std::string& what);
absl::StatusOr<uint32_t> RequiredRefPending(const fb::CommandT& c,
                                            const std::string& key,
                                            const std::string& what);

// Adds a ref {key, seq, window, pending} to `c` (for tools and tests that
// write commands); returns `c`.
fb::CommandT& AddRef(fb::CommandT& c, const std::string& key, uint64_t seq,
                     uint32_t window = 0, uint32_t pending = 0);

// What a verb takes beyond actor/targets/weapon/path/text/dice/window: the
// keys of its parameters and of its refs.
struct Takes {
  std::vector<std::string> params;
  std::vector<std::string> refs;
};
// Refuses (InvalidArgument) a command carrying a parameter or ref its verb
// does not take, or one parameter key twice, naming the field and listing what the
// verb takes, e.g. "command 'strike': params[edge]: unknown parameter;
// 'strike' takes params: defense, maneuver". Every command is checked
// against its verb's schema before it is decided (kernel/verb_schema.h);
// this is for what a schema cannot say: the params that belong to another
// act a command names (a held or interrupting act's own).
absl::Status CheckTakes(const fb::CommandT& c, const Takes& takes);

// The acting combatant. InvalidArgument when `actor` is empty, NotFound when
// no such combatant.
absl::StatusOr<const Combatant*> Actor(const State& s, const fb::CommandT& c);
// targets[i]. InvalidArgument when missing, NotFound when unknown.
absl::StatusOr<const Combatant*> Target(const State& s, const fb::CommandT& c,
                                        size_t i = 0);
// The path as kernel positions.
std::vector<Pos> PathOf(const fb::CommandT& c);

}  // namespace combat::kernel

#endif  // COMBAT_KERNEL_COMMAND_H_
