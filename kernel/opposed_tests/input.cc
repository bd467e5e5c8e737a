// What each verb takes: params with their types (kernel/command.h
// CheckTakes, kernel/param_types.h CheckParamTypes) and the command fields
// it reads. A field a verb does not read is refused naming it, so a
// mistaken command is never half-read.
#include <string>
#include <vector>

#include "events/status_macros.h"
#include "kernel/command.h"
#include "kernel/opposed_tests/internal.h"
#include "kernel/param_types.h"
#include "kernel/refusal.h"

namespace combat::kernel::opposed {

absl::Status CheckInput(const fb::CommandT& c, const Input& in) {
  std::vector<std::string> keys = in.text;
  keys.insert(keys.end(), in.flags.begin(), in.flags.end());
  RETURN_IF_ERROR(CheckTakes(c, {keys, {}}));
  ParamTypes types;
  types.text = in.text;
  types.flags = in.flags;
  RETURN_IF_ERROR(CheckParamTypes(c, types));
  const std::string verb = "'" + c.action + "' ";
  if (!in.targets && !c.targets.empty()) {
    return Malformed(c, "targets", verb + "takes no targets");
  }
  if (c.targets.size() > 1) {
    return Malformed(c, "targets", verb + "takes one target (every act of this text has one)");
  }
  if (!in.weapon && !c.weapon.empty()) return Malformed(c, "weapon", verb + "takes no weapon");
  if (!in.path && !c.path.empty()) return Malformed(c, "path", verb + "takes no path");
  if (!in.window && c.window != 0) {
    return Malformed(c, "window", verb + "answers no window (defend, maneuver, opportunity_attack and pass do)");
  }
  return absl::OkStatus();
}

}  // namespace combat::kernel::opposed
