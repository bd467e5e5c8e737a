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
