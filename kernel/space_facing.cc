// Facing geometry: 8 directions, 0 = north (y - 1), clockwise.
#include <cstdlib>

#include "kernel/space.h"

namespace combat::kernel::space {

Pos DirVec(int dir) {
  static const Pos kVec[8] = {{0, -1}, {1, -1}, {1, 0},  {1, 1},
                              {0, 1},  {-1, 1}, {-1, 0}, {-1, -1}};
  return kVec[((dir % 8) + 8) % 8];
}

int DirToward(Pos from, Pos to) {
  const int64_t dx = int64_t{to.x} - from.x, dy = int64_t{to.y} - from.y;
  const int64_t ax = std::llabs(dx), ay = std::llabs(dy);
  if (ax == 0 && ay == 0) return 0;
  // Octants split at 22.5 degrees: tan(22.5) ~ 5/12.
  if (ay * 12 < ax * 5) return dx > 0 ? 2 : 6;
  if (ax * 12 < ay * 5) return dy > 0 ? 4 : 0;
  if (dx > 0) return dy > 0 ? 3 : 1;
  return dy > 0 ? 5 : 7;
}

int DirBetween(Pos a_at, int32_t a_size, Pos b_at, int32_t b_size) {
  // Doubled coordinates: the centre of an n-square space is at 2 at + n.
  return DirToward({2 * a_at.x + a_size, 2 * a_at.y + a_size},
                   {2 * b_at.x + b_size, 2 * b_at.y + b_size});
}

bool Faces(Pos at, int32_t size, int dir, Pos p) {
  if (Covers(at, size, p)) return true;
  const Pos f = DirVec(dir);
  // Doubled coordinates: the centre of the space against the square.
  const int64_t cx = 2 * int64_t{at.x} + (size - 1);
  const int64_t cy = 2 * int64_t{at.y} + (size - 1);
  const int64_t vx = 2 * int64_t{p.x} - cx, vy = 2 * int64_t{p.y} - cy;
  return f.x * vx + f.y * vy >= 0;  // within 90 degrees (002 l.402)
}

}  // namespace combat::kernel::space
