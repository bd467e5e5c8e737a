#include "replay/verify_text.h"

#include "absl/strings/str_cat.h"
#include "replay/event_diff.h"
#include "replay/render.h"

namespace combat::replay {

std::string ShowEvent(absl::string_view label, const events::EventBuffer& e) {
  std::string out = absl::StrCat("  ", label, ": ", RenderEvent(e.event()), "\n");
  auto fields = EventFields(e, "      ");
  absl::StrAppend(&out, fields.ok() ? *fields
                                    : absl::StrCat("      (", fields.status().message(), ")\n"));
  return out;
}

std::string Indent(const std::string& text) {
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    absl::StrAppend(&out, "    ", text.substr(start, end - start), "\n");
    start = end + 1;
  }
  return out;
}

}  // namespace combat::replay
