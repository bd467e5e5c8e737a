#include "kernel/line_through.h"

#include "gtest/gtest.h"

namespace combat::kernel::space {
namespace {

TEST(LineThrough, StraightAndDiagonalLinesThroughTheMiddle) {
  EXPECT_TRUE(CentresLineThrough({4, 5}, 1, {6, 5}, 1, {5, 5}, 1));
  EXPECT_TRUE(CentresLineThrough({4, 4}, 1, {6, 6}, 1, {5, 5}, 1));
  EXPECT_TRUE(CentresLineThrough({5, 3}, 1, {5, 7}, 1, {5, 5}, 1));
}

TEST(LineThrough, TouchingACornerOrAnEdgeIsNotThrough) {
  // (4,5)-(5,4): the centres' line touches only the corner of (5,5).
  EXPECT_FALSE(CentresLineThrough({4, 5}, 1, {5, 4}, 1, {5, 5}, 1));
  // Along the top edge of the space: y = 4 * 5 exactly.
  EXPECT_FALSE(SegmentThrough({0, 20}, {40, 20}, {5, 5}, 1));
  EXPECT_TRUE(SegmentThrough({0, 21}, {40, 21}, {5, 5}, 1));
}

TEST(LineThrough, AKnightsMoveThroughALargeSpace) {
  // A 2x2 foe at (5,5): (4,5) to (7,6) passes through it.
  EXPECT_TRUE(CentresLineThrough({4, 5}, 1, {7, 6}, 1, {5, 5}, 2));
  // A segment ending before the space does not reach it.
  EXPECT_FALSE(SegmentThrough({0, 22}, {19, 22}, {5, 5}, 1));
}

}  // namespace
}  // namespace combat::kernel::space
