// Lines across the grid: the squares a segment crosses, cover lines from an
// origin to a space, and the "opposite sides" test for flanking. Integer
// arithmetic in quarter squares (lines) and half squares (sides).
#include <algorithm>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "kernel/arith.h"
#include "kernel/space.h"

namespace combat::kernel::space {
namespace {

// Whether the segment a-b crosses the box's side x = x0 and its opposite
// side x = x1 (corners count), a left of the box and b right of it (either
// order). Half-square units.
bool CrossesSides(int64_t ax, int64_t ay, int64_t bx, int64_t by, int64_t x0,
                  int64_t x1, int64_t y0, int64_t y1) {
  if (ax > bx) {
    std::swap(ax, bx);
    std::swap(ay, by);
  }
  if (!(ax < x0 && bx > x1)) return false;
  const int64_t dx = bx - ax;
  auto inside = [&](int64_t x) {
    const int64_t num = ay * dx + (by - ay) * (x - ax);  // y * dx
    return num >= y0 * dx && num <= y1 * dx;
  };
  return inside(x0) && inside(x1);
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
  const int64_t x0 = 2 * int64_t{t_at.x}, x1 = 2 * (int64_t{t_at.x} + t_size);
  const int64_t y0 = 2 * int64_t{t_at.y}, y1 = 2 * (int64_t{t_at.y} + t_size);
  for (int32_t ai = 0; ai < a_size; ++ai) {
    for (int32_t aj = 0; aj < a_size; ++aj) {
      const int64_t ax = 2 * int64_t{a_at.x + ai} + 1;
      const int64_t ay = 2 * int64_t{a_at.y + aj} + 1;
      for (int32_t bi = 0; bi < b_size; ++bi) {
        for (int32_t bj = 0; bj < b_size; ++bj) {
          const int64_t bx = 2 * int64_t{b_at.x + bi} + 1;
          const int64_t by = 2 * int64_t{b_at.y + bj} + 1;
          if (CrossesSides(ax, ay, bx, by, x0, x1, y0, y1) ||
              CrossesSides(ay, ax, by, bx, y0, y1, x0, x1)) {
            return true;
          }
        }
      }
    }
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
