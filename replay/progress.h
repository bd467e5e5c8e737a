// Progress of long operations (verify, import, replaying a long branch):
// a single self-overwriting line on a terminal, nothing when piped.
//
//   Progress p = Progress::OnStderr("verify s1/main");   // on iff isatty(2)
//   p.SetTotal(n);
//   for (...) p.Update(done);                            // cheap per call
//   p.Finish();                                          // clears the line
//
// Updates are throttled (at most one redraw per 100 ms; the clock is read
// once every 1024 updates), so calling Update per event costs nothing
// measurable. A disabled Progress does nothing at all.
#ifndef COMBAT_REPLAY_PROGRESS_H_
#define COMBAT_REPLAY_PROGRESS_H_

#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>

namespace combat::replay {

class Progress {
 public:
  // Draws to `out` (not owned) when `enabled`.
  Progress(std::string label, std::ostream* out, bool enabled);
  // Draws to std::cerr when standard error is a terminal.
  static Progress OnStderr(std::string label);
  // A Progress that never draws.
  static Progress Off() { return Progress("", nullptr, false); }
  ~Progress();
  Progress(Progress&& other);
  Progress& operator=(Progress&&) = delete;

  bool enabled() const { return enabled_; }
  // The number of items expected (0 = unknown: no percentage shown).
  void SetTotal(uint64_t total) { total_ = total; }
  void SetLabel(std::string label) { label_ = std::move(label); }
  // `done` items so far.
  void Update(uint64_t done);
  // Clears the line (idempotent; the destructor calls it).
  void Finish();

  // The line drawn for `done` of `total` at `rate` items/s (exposed for
  // tests): "verify s1/main: 51200/100000 (51%) 250000/s".
  static std::string Line(const std::string& label, uint64_t done,
                          uint64_t total, uint64_t rate);

 private:
  void Draw(uint64_t done);

  std::string label_;
  std::ostream* out_;
  bool enabled_;
  uint64_t total_ = 0;
  uint64_t calls_ = 0;
  bool drawn_ = false;
  size_t width_ = 0;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace combat::replay

#endif  // COMBAT_REPLAY_PROGRESS_H_
