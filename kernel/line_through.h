// Whether a straight line passes through a space: the test behind "one
// could draw a straight line and connect all three characters" (seed 003
// l.91, flanking), usable by any text that asks whether a line between
// two creatures passes through a third (or through any block of squares).
//
// Contract: exact, in integers (no sampling, no floating point). Points are
// space.h `QPoint`s (quarter squares: square (x, y) spans [4x, 4x + 4));
// a space of size n at `at` is the open box (4 at.x, 4 (at.x + n)) x
// (4 at.y, 4 (at.y + n)). The segment passes THROUGH the space when some
// point of it lies strictly inside that box: a segment that only touches
// a corner or runs along an edge does not.
#ifndef COMBAT_KERNEL_LINE_THROUGH_H_
#define COMBAT_KERNEL_LINE_THROUGH_H_

#include <cstdint>

#include "kernel/space.h"
#include "kernel/state.h"

namespace combat::kernel::space {

// Whether the closed segment a-b has a point strictly inside the space of
// size `size` at `at`.
bool SegmentThrough(QPoint a, QPoint b, Pos at, int32_t size);

// Whether the segment between the centres of spaces a and b passes through
// the interior of space t (seed 003 l.91's straight line through a foe).
bool CentresLineThrough(Pos a_at, int32_t a_size, Pos b_at, int32_t b_size,
                        Pos t_at, int32_t t_size);

}  // namespace combat::kernel::space

#endif  // COMBAT_KERNEL_LINE_THROUGH_H_
