#include "kernel/arith.h"

#include "gtest/gtest.h"

namespace combat::kernel {
namespace {

TEST(Arith, FloorDivRoundsTowardMinusInfinity) {
  EXPECT_EQ(FloorDiv(7, 3), 2);
  EXPECT_EQ(FloorDiv(6, 3), 2);
  EXPECT_EQ(FloorDiv(-7, 3), -3);  // `/` would give -2
  EXPECT_EQ(FloorDiv(-6, 3), -2);
  EXPECT_EQ(FloorDiv(7, -3), -3);
  EXPECT_EQ(FloorDiv(-7, -3), 2);
  EXPECT_EQ(FloorDiv(0, 5), 0);
}

TEST(Arith, CeilDivRoundsTowardPlusInfinity) {
  EXPECT_EQ(CeilDiv(7, 3), 3);
  EXPECT_EQ(CeilDiv(6, 3), 2);
  EXPECT_EQ(CeilDiv(-7, 3), -2);
  EXPECT_EQ(CeilDiv(1, 2), 1);
}

}  // namespace
}  // namespace combat::kernel
