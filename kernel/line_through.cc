#include "kernel/line_through.h"

namespace combat::kernel::space {
namespace {

// A fraction n / d with d > 0.
struct Frac {
  int64_t n = 0;
  int64_t d = 1;
};
bool Less(Frac a, Frac b) { return a.n * b.d < b.n * a.d; }

// Narrows the open interval (lo, hi) of the parameter s in [0, 1] to where
// `low < p + s * dp < high` on one axis. False when it is empty.
bool Axis(int64_t p, int64_t dp, int64_t low, int64_t high, Frac& lo, Frac& hi) {
  if (dp == 0) return low < p && p < high;
  Frac enter{low - p, dp}, leave{high - p, dp};
  if (dp < 0) {
    enter = Frac{p - high, -dp};
    leave = Frac{p - low, -dp};
  }
  if (Less(lo, enter)) lo = enter;
  if (Less(leave, hi)) hi = leave;
  return true;
}

}  // namespace

bool SegmentThrough(QPoint a, QPoint b, Pos at, int32_t size) {
  const int64_t x0 = 4 * int64_t{at.x}, x1 = 4 * (int64_t{at.x} + size);
  const int64_t y0 = 4 * int64_t{at.y}, y1 = 4 * (int64_t{at.y} + size);
  // The parameter s runs over [0, 1]; the box is open, so the set of s
  // inside it is an open interval intersected with [0, 1]: non-empty when
  // its lower end is below its upper end.
  Frac lo{0, 1}, hi{1, 1};
  if (!Axis(a.x, b.x - a.x, x0, x1, lo, hi)) return false;
  if (!Axis(a.y, b.y - a.y, y0, y1, lo, hi)) return false;
  return Less(lo, hi);
}

bool CentresLineThrough(Pos a_at, int32_t a_size, Pos b_at, int32_t b_size,
                        Pos t_at, int32_t t_size) {
  return SegmentThrough(Centre(a_at, a_size), Centre(b_at, b_size), t_at, t_size);
}

}  // namespace combat::kernel::space
