// What the verb table (verbs.cc) cannot say: every act of this text has
// one target (the table says only whether a verb takes targets), and
// `window` (always accepted by the kernel's schema check) is read only by
// the verbs answering a window. Each refused naming the field, before
// anything is decided.
#include <string>

#include "kernel/command.h"
#include "kernel/opposed_tests/internal.h"

namespace combat::kernel::opposed {

absl::Status CheckShape(const fb::CommandT& c) {
  const std::string verb = "'" + c.action + "' ";
  if (c.targets.size() > 1) {
    return Malformed(c, "targets", verb + "takes one target (every act of this text has one)");
  }
  const bool answers = c.action == "defend" || c.action == "maneuver" ||
                       c.action == "opportunity_attack" || c.action == "pass";
  if (!answers && c.window != 0) {
    return Malformed(c, "window", verb + "answers no window (defend, maneuver, opportunity_attack and pass do)");
  }
  return absl::OkStatus();
}

}  // namespace combat::kernel::opposed
