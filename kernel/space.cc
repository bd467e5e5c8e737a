// Spaces and distance. Integers only; the one rounding (alternating
// diagonals, min / 2 rounded down) cites 001 l.161.
#include <algorithm>
#include <cstdlib>
#include <vector>

#include "kernel/space.h"

namespace combat::kernel::space {
namespace {

// Squares between [a, a + sa) and [b, b + sb) along one axis.
int64_t Gap(int64_t a, int64_t sa, int64_t b, int64_t sb) {
  return std::max<int64_t>({0, b - (a + sa - 1), a - (b + sb - 1)});
}

}  // namespace

bool Covers(Pos at, int32_t size, Pos p) {
  return p.x >= at.x && p.x < at.x + size && p.y >= at.y && p.y < at.y + size;
}

std::vector<Pos> SquaresOf(Pos at, int32_t size) {
  std::vector<Pos> out;
  for (int32_t j = 0; j < size; ++j) {
    for (int32_t i = 0; i < size; ++i) out.push_back({at.x + i, at.y + j});
  }
  return out;
}

bool Overlaps(Pos a_at, int32_t a_size, Pos b_at, int32_t b_size) {
  const AxisGap g = Gaps(a_at, a_size, b_at, b_size);
  return g.dx == 0 && g.dy == 0;
}

AxisGap Gaps(Pos a_at, int32_t a_size, Pos b_at, int32_t b_size) {
  return {Gap(a_at.x, a_size, b_at.x, b_size),
          Gap(a_at.y, a_size, b_at.y, b_size)};
}

int64_t HexSteps(Pos a, Pos b) {
  const int64_t dq = int64_t{b.x} - a.x;
  const int64_t dr = int64_t{b.y} - a.y;
  // Cube distance: (|dq| + |dr| + |dq + dr|) / 2, always even.
  return (std::llabs(dq) + std::llabs(dr) + std::llabs(dq + dr)) / 2;
}

int64_t GapSquares(Metric metric, Pos a_at, int32_t a_size, Pos b_at,
                   int32_t b_size) {
  if (metric == Metric::kHex) {
    int64_t best = -1;
    for (int32_t ai = 0; ai < a_size; ++ai) {
      for (int32_t aj = 0; aj < a_size; ++aj) {
        for (int32_t bi = 0; bi < b_size; ++bi) {
          for (int32_t bj = 0; bj < b_size; ++bj) {
            const int64_t d = HexSteps({a_at.x + ai, a_at.y + aj},
                                       {b_at.x + bi, b_at.y + bj});
            if (best < 0 || d < best) best = d;
          }
        }
      }
    }
    return std::max<int64_t>(best, 0);
  }
  const AxisGap g = Gaps(a_at, a_size, b_at, b_size);
  const int64_t hi = std::max(g.dx, g.dy);
  const int64_t lo = std::min(g.dx, g.dy);
  if (metric == Metric::kAlternatingDiagonal) {
    // 001 l.161: "count every second diagonal movement as 2 yards": of the
    // `lo` diagonal steps, lo / 2 (rounded down) cost one square more.
    return hi + lo / 2;
  }
  return hi;
}

int64_t Distance(const Grid& grid, Pos a_at, int32_t a_size, Pos b_at,
                 int32_t b_size) {
  return grid.square * GapSquares(grid.metric, a_at, a_size, b_at, b_size);
}

int64_t Distance(const Grid& grid, const Combatant& a, const Combatant& b) {
  return Distance(grid, a.at, a.size, b.at, b.size);
}

int64_t DistanceTo(const Grid& grid, const Combatant& a, Pos p) {
  return Distance(grid, a.at, a.size, p, 1);
}

}  // namespace combat::kernel::space
