// How verify's reports show events and states (shared by the branch walk,
// replay/verify.cc, and the re-decider, replay/redecide.cc).
#ifndef COMBAT_REPLAY_VERIFY_TEXT_H_
#define COMBAT_REPLAY_VERIFY_TEXT_H_

#include <string>

#include "absl/strings/string_view.h"
#include "events/codec.h"

namespace combat::replay {

// An event for a report: "  <label>: <readable line>\n" and then its
// fields, one per line, indented.
std::string ShowEvent(absl::string_view label, const events::EventBuffer& e);

// `text` with every line indented by four spaces.
std::string Indent(const std::string& text);

}  // namespace combat::replay

#endif  // COMBAT_REPLAY_VERIFY_TEXT_H_
