// Lines across the grid: the squares a segment crosses, cover lines from an
// origin to a space, and the "opposite sides" test for flanking. Integer
// arithmetic in quarter squares (lines) and whole squares (sides).
#include <algorithm>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "kernel/arith.h"
#include "kernel/space.h"

namespace combat::kernel::space {
namespace {

// An axis-aligned box of the grid, in square units: [x0, x1] x [y0, y1].
struct Box {
  int64_t x0, x1, y0, y1;
};

Box SpaceBox(Pos at, int32_t size, bool swap) {
  Box b{at.x, int64_t{at.x} + size, at.y, int64_t{at.y} + size};
  if (swap) return Box{b.y0, b.y1, b.x0, b.x1};
  return b;
}

// A non-vertical line y = m x + c with m = M / D, c = C / D, D > 0.
struct Line {
  int64_t M, C, D;
};

// lo <= m x + c <= hi for some x in [xa, xb].
bool Meets(const Line& l, int64_t xa, int64_t xb, int64_t lo, int64_t hi) {
  const int64_t fa = l.M * xa + l.C, fb = l.M * xb + l.C;  // times D
  return std::min(fa, fb) <= hi * l.D && std::max(fa, fb) >= lo * l.D;
}

// L109: "draw a line between any two points in their space that crosses
// opposite sides of the Flanked Creature", for the left and right sides of
// `t`: a line through a point of `a` left of `t` and a point of `b` right
// of it, meeting both sides of `t` and passing through its inside (a line
// along its top or bottom edge crosses nothing; through a corner it
// crosses both sides the corner joins).
bool CrossesLeftToRight(const Box& a, const Box& b, const Box& t) {
  if (a.x0 >= t.x0 || b.x1 <= t.x1) return false;
  const int64_t ax1 = std::min(a.x1, t.x0), bx0 = std::max(b.x0, t.x1);
  auto ok = [&](const Line& l) {
    if (!Meets(l, t.x0, t.x0, t.y0, t.y1) || !Meets(l, t.x1, t.x1, t.y0, t.y1))
      return false;
    if (l.M == 0 && (l.C == t.y0 * l.D || l.C == t.y1 * l.D)) return false;
    return Meets(l, a.x0, ax1, a.y0, a.y1) && Meets(l, bx0, b.x1, b.y0, b.y1);
  };
  // Where such lines exist, one passes through two corners of the parts of
  // `a` and `b` outside `t` or of `t` (a vertex of the region of lines), or
  // lies midway between two that do.
  std::vector<std::pair<int64_t, int64_t>> pts;
  for (const Box& k : {Box{a.x0, ax1, a.y0, a.y1}, Box{bx0, b.x1, b.y0, b.y1}, t}) {
    for (int64_t x : {k.x0, k.x1}) {
      for (int64_t y : {k.y0, k.y1}) pts.emplace_back(x, y);
    }
  }
  std::vector<Line> found;
  for (size_t i = 0; i < pts.size(); ++i) {
    for (size_t j = i + 1; j < pts.size(); ++j) {
      const auto [x1, y1] = pts[i];
      const auto [x2, y2] = pts[j];
      if (x1 == x2) continue;
      Line l{y2 - y1, y1 * (x2 - x1) - (y2 - y1) * x1, x2 - x1};
      if (l.D < 0) l = Line{-l.M, -l.C, -l.D};
      if (ok(l)) return true;
      // Degenerate lines (along an edge) still bound the region.
      const bool edge = l.M == 0 && (l.C == t.y0 * l.D || l.C == t.y1 * l.D);
      if (edge && Meets(l, a.x0, ax1, a.y0, a.y1) &&
          Meets(l, bx0, b.x1, b.y0, b.y1) &&
          Meets(l, t.x0, t.x1, t.y0, t.y1)) {
        found.push_back(l);
      }
    }
  }
  for (size_t i = 0; i < found.size(); ++i) {
    for (size_t j = i + 1; j < found.size(); ++j) {
      const Line& p = found[i];
      const Line& q = found[j];
      if (ok(Line{p.M * q.D + q.M * p.D, p.C * q.D + q.C * p.D, 2 * p.D * q.D}))
        return true;
    }
  }
  return false;
}

}  // namespace

QPoint Centre(Pos at, int32_t size) {
  return {4 * int64_t{at.x} + 2 * size, 4 * int64_t{at.y} + 2 * size};
}

std::vector<Pos> Crossed(QPoint a, QPoint b) {
  int64_t n = 2 * std::max(std::llabs(b.x - a.x), std::llabs(b.y - a.y));
  if (n == 0) n = 1;
  std::vector<Pos> out;
  for (int64_t k = 0; k <= n; ++k) {
    const int64_t x = a.x * n + (b.x - a.x) * k;
    const int64_t y = a.y * n + (b.y - a.y) * k;
    // Floor: a sample on a grid line belongs to the square east / south.
    Pos p{static_cast<int32_t>(FloorDiv(x, 4 * n)),
          static_cast<int32_t>(FloorDiv(y, 4 * n))};
    if (out.empty() || out.back() != p) out.push_back(p);
  }
  return out;
}

std::vector<Pos> LineBetween(Pos a_at, int32_t a_size, Pos b_at,
                             int32_t b_size) {
  return Crossed(Centre(a_at, a_size), Centre(b_at, b_size));
}

LineCover CoverLines(Pos from, int32_t from_size, Pos to_at, int32_t to_size,
                     const SquareSight& sight) {
  LineCover out;
  const QPoint origin = Centre(from, from_size);
  // A square's centre and the centres of its quarters, in quarter squares.
  static constexpr int kOffsets[5][2] = {
      {2, 2}, {1, 1}, {3, 1}, {1, 3}, {3, 3}};
  for (int32_t i = 0; i < to_size; ++i) {
    for (int32_t j = 0; j < to_size; ++j) {
      for (const auto& off : kOffsets) {
        ++out.lines;
        const QPoint end{4 * int64_t{to_at.x + i} + off[0],
                         4 * int64_t{to_at.y + j} + off[1]};
        bool blocked = false;
        std::string blocker;
        std::string obscurer;
        for (Pos p : Crossed(origin, end)) {
          if (Covers(from, from_size, p) || Covers(to_at, to_size, p)) {
            continue;
          }
          std::string by;
          const Sight seen = sight(p, &by);
          if (seen == Sight::kBlocked) {
            blocked = true;
            blocker = by;
            break;
          }
          if (seen == Sight::kObscured) obscurer = by;
        }
        if (blocked) {
          if (out.blocked++ == 0) out.blocked_by = blocker;
        } else if (!obscurer.empty()) {
          if (out.obscured++ == 0) out.obscured_by = obscurer;
        }
      }
    }
  }
  return out;
}

bool OppositeSides(Pos a_at, int32_t a_size, Pos b_at, int32_t b_size,
                   Pos t_at, int32_t t_size) {
  for (bool swap : {false, true}) {
    const Box a = SpaceBox(a_at, a_size, swap);
    const Box b = SpaceBox(b_at, b_size, swap);
    const Box t = SpaceBox(t_at, t_size, swap);
    if (CrossesLeftToRight(a, b, t) || CrossesLeftToRight(b, a, t)) return true;
  }
  return false;
}

bool AtLeast120Apart(Pos a_at, int32_t a_size, Pos b_at, int32_t b_size,
                     Pos t_at, int32_t t_size) {
  const QPoint t = Centre(t_at, t_size);
  const QPoint a = Centre(a_at, a_size);
  const QPoint b = Centre(b_at, b_size);
  const int64_t ux = a.x - t.x, uy = a.y - t.y;
  const int64_t vx = b.x - t.x, vy = b.y - t.y;
  const int64_t uu = ux * ux + uy * uy, vv = vx * vx + vy * vy;
  if (uu == 0 || vv == 0) return false;
  const int64_t dot = ux * vx + uy * vy;
  return dot < 0 && 4 * dot * dot >= uu * vv;
}

}  // namespace combat::kernel::space
