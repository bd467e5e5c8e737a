#include "replay/progress.h"

#include <unistd.h>

#include <iostream>

#include "absl/strings/str_cat.h"

namespace combat::replay {

Progress::Progress(std::string label, std::ostream* out, bool enabled)
    : label_(std::move(label)),
      out_(out),
      enabled_(enabled && out != nullptr),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

Progress Progress::OnStderr(std::string label) {
  return Progress(std::move(label), &std::cerr, isatty(2) == 1);
}

Progress::Progress(Progress&& other)
    : label_(std::move(other.label_)),
      out_(other.out_),
      enabled_(other.enabled_),
      total_(other.total_),
      calls_(other.calls_),
      drawn_(other.drawn_),
      width_(other.width_),
      start_(other.start_),
      last_(other.last_) {
  other.enabled_ = false;  // the moved-from object must not clear the line
}

Progress::~Progress() { Finish(); }

std::string Progress::Line(const std::string& label, uint64_t done,
                           uint64_t total, uint64_t rate) {
  std::string line = absl::StrCat(label, ": ", done);
  if (total != 0) {
    absl::StrAppend(&line, "/", total, " (",
                    done >= total ? 100 : done * 100 / total, "%)");
  }
  if (rate != 0) absl::StrAppend(&line, " ", rate, "/s");
  return line;
}

void Progress::Update(uint64_t done) {
  if (!enabled_) return;
  if ((++calls_ & 1023) != 1) return;  // read the clock every 1024 calls
  const auto now = std::chrono::steady_clock::now();
  if (drawn_ && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  Draw(done);
}

void Progress::Draw(uint64_t done) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      last_ - start_)
                      .count();
  const uint64_t rate = ms > 0 ? done * 1000 / static_cast<uint64_t>(ms) : 0;
  std::string line = Line(label_, done, total_, rate);
  const size_t width = line.size();
  if (width < width_) line.append(width_ - width, ' ');
  width_ = width;
  *out_ << '\r' << line << std::flush;
  drawn_ = true;
}

void Progress::Finish() {
  if (!enabled_ || !drawn_) return;
  *out_ << '\r' << std::string(width_, ' ') << '\r' << std::flush;
  drawn_ = false;
  width_ = 0;
}

}  // namespace combat::replay
