#include "kernel/space.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernel/state.h"

namespace combat::kernel::space {
namespace {

constexpr Grid kFeet{Metric::kChebyshev, 5};
constexpr Grid kYards{Metric::kAlternatingDiagonal, 1};
constexpr Grid kHexMetres{Metric::kHex, 1};

TEST(Space, CoversTheBlock) {
  EXPECT_TRUE(Covers({2, 3}, 2, {3, 4}));
  EXPECT_FALSE(Covers({2, 3}, 2, {4, 4}));
  EXPECT_FALSE(Covers({2, 3}, 1, {2, 4}));
}

TEST(Space, GapsBetweenNearestSquares) {
  const AxisGap g = Gaps({0, 0}, 2, {3, 5}, 1);
  EXPECT_EQ(g.dx, 2);
  EXPECT_EQ(g.dy, 4);
  EXPECT_EQ(GapSquares(Metric::kChebyshev, {0, 0}, 1, {0, 0}, 1), 0);
  EXPECT_EQ(GapSquares(Metric::kChebyshev, {0, 0}, 1, {1, 1}, 1), 1);
  EXPECT_EQ(GapSquares(Metric::kChebyshev, {0, 0}, 3, {1, 1}, 1), 0);
}

TEST(Space, ChebyshevDistanceInUnits) {
  EXPECT_EQ(Distance(kFeet, {0, 0}, 1, {1, 1}, 1), 5);
  EXPECT_EQ(Distance(kFeet, {0, 0}, 1, {3, 2}, 1), 15);
  EXPECT_EQ(Distance(kFeet, {0, 0}, 2, {3, 0}, 1), 10);
}

TEST(Space, EverySecondDiagonalCountsDouble) {
  // 001 l.161: 1 diagonal = 1, 2 = 3, 3 = 4, 4 = 6; straight steps add 1.
  EXPECT_EQ(Distance(kYards, {0, 0}, 1, {1, 1}, 1), 1);
  EXPECT_EQ(Distance(kYards, {0, 0}, 1, {2, 2}, 1), 3);
  EXPECT_EQ(Distance(kYards, {0, 0}, 1, {3, 3}, 1), 4);
  EXPECT_EQ(Distance(kYards, {0, 0}, 1, {4, 4}, 1), 6);
  EXPECT_EQ(Distance(kYards, {0, 0}, 1, {5, 2}, 1), 6);
  EXPECT_EQ(Distance(kYards, {0, 0}, 1, {0, 7}, 1), 7);
}

TEST(Space, HexDistance) {
  EXPECT_EQ(HexSteps({0, 0}, {1, -1}), 1);
  EXPECT_EQ(HexSteps({0, 0}, {1, 1}), 2);
  EXPECT_EQ(HexSteps({0, 0}, {3, -1}), 3);
  EXPECT_EQ(Distance(kHexMetres, {0, 0}, 1, {2, 2}, 1), 4);
  EXPECT_EQ(Distance(kHexMetres, {0, 0}, 2, {2, 2}, 1), 2);  // from (1,1)
}

TEST(Space, StepsAreAdjacent) {
  EXPECT_TRUE(CheckStep(Metric::kChebyshev, {0, 0}, {1, 1}));
  EXPECT_FALSE(CheckStep(Metric::kChebyshev, {0, 0}, {0, 0}));
  EXPECT_FALSE(CheckStep(Metric::kChebyshev, {0, 0}, {2, 0}));
  EXPECT_TRUE(CheckStep(Metric::kHex, {0, 0}, {1, -1}));
  EXPECT_FALSE(CheckStep(Metric::kHex, {0, 0}, {1, 1}));
}

TEST(Space, PathCostCarriesDiagonalsAndMultipliesFactors) {
  const std::vector<Pos> path = {{1, 1}, {2, 1}, {3, 2}, {4, 3}};
  EXPECT_EQ(PathCost(kFeet, {0, 0}, path).cost, 20);
  // Diagonals: 1st 1, straight 1, 2nd 2, 3rd 1.
  EXPECT_EQ(PathCost(kYards, {0, 0}, path).cost, 5);
  // 001 l.163: mud (x2) under water (x2) is x4.
  auto mud_and_water = [](Pos, Pos to) {
    std::vector<Factor> f;
    if (to == Pos{2, 1}) f = {{2, "water"}, {2, "mud"}};
    return f;
  };
  const PathTally t = PathCost(kYards, {0, 0}, path, mud_and_water);
  EXPECT_EQ(t.cost, 8);
  EXPECT_EQ(t.squares, 4);
  EXPECT_EQ(t.why, (std::vector<std::string>{"water", "mud"}));
  PathWalker w(kYards, {0, 0}, 1);  // one diagonal already taken
  EXPECT_EQ(w.Step({1, 1}), 2);
  EXPECT_EQ(w.Step({2, 2}, 3), 3);
  EXPECT_EQ(w.cost(), 5);
}

TEST(Space, CheckPathRefusesUniformly) {
  State s;
  s.map.width = 6;
  s.map.height = 6;
  s.map.terrain[{2, 0}] = "wall";
  PathRules rules;
  rules.action = "move";
  rules.rule = "x.move";
  rules.cite = [](const std::string& r) { return "seed " + r; };
  absl::Status st = CheckPath(s, Metric::kChebyshev, {0, 0}, 1,
                              {{1, 0}, {3, 0}}, rules);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("field 'path[1]': (3,0) is not adjacent to "
                              "(1,0)"),
            std::string::npos);
  st = CheckPath(s, Metric::kChebyshev, {0, 0}, 1, {{1, 0}, {2, 0}}, rules);
  EXPECT_EQ(st.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(st.message(), "path[1] (2,0) is a wall (seed x.move)");
  st = CheckPath(s, Metric::kChebyshev, {0, 4}, 2, {{0, 5}}, rules);
  EXPECT_EQ(st.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(st.message(),
            "path[0] (0,5): square (0,6) is off the map (seed x.move)");
  rules.occupant = [](Pos q, size_t i, size_t n) {
    return q == Pos{1, 1} && i + 1 == n ? "gob" : "";
  };
  EXPECT_TRUE(
      CheckPath(s, Metric::kChebyshev, {0, 0}, 1, {{1, 1}, {1, 2}}, rules)
          .ok());
  st = CheckPath(s, Metric::kChebyshev, {0, 0}, 1, {{1, 1}}, rules);
  EXPECT_EQ(st.message(), "path[0] (1,1) is occupied by gob (seed x.move)");
}

TEST(Space, CrossedSquaresInOrder) {
  EXPECT_EQ(LineBetween({0, 0}, 1, {3, 0}, 1),
            (std::vector<Pos>{{0, 0}, {1, 0}, {2, 0}, {3, 0}}));
  EXPECT_EQ(LineBetween({0, 0}, 1, {2, 2}, 1),
            (std::vector<Pos>{{0, 0}, {1, 1}, {2, 2}}));
}

TEST(Space, CoverLinesCountWhatTheyMeet) {
  // A wall square at (1,1) between (0,1) and (2,1): the centre line and the
  // lines to the quarter points all cross it.
  auto wall = [](Pos p, std::string* by) {
    if (p == Pos{1, 1}) {
      *by = "wall";
      return Sight::kBlocked;
    }
    return Sight::kClear;
  };
  LineCover c = CoverLines({0, 1}, 1, {2, 1}, 1, wall);
  EXPECT_EQ(c.lines, 5);
  EXPECT_EQ(c.blocked, 5);
  EXPECT_EQ(c.blocked_by, "wall");
  // A creature below the line obscures only the lines passing its square.
  auto ogre = [](Pos p, std::string* by) {
    if (p == Pos{1, 2}) {
      *by = "ogre";
      return Sight::kObscured;
    }
    return Sight::kClear;
  };
  c = CoverLines({0, 1}, 1, {2, 2}, 1, ogre);
  EXPECT_EQ(c.blocked, 0);
  EXPECT_GT(c.obscured, 0);
  EXPECT_LT(c.obscured, 5);
  EXPECT_EQ(c.obscured_by, "ogre");
}

TEST(Space, OppositeSidesOfATarget) {
  EXPECT_TRUE(OppositeSides({0, 1}, 1, {2, 1}, 1, {1, 1}, 1));
  EXPECT_TRUE(OppositeSides({0, 0}, 1, {2, 2}, 1, {1, 1}, 1));  // corners
  EXPECT_FALSE(OppositeSides({0, 1}, 1, {1, 0}, 1, {1, 1}, 1));
  EXPECT_TRUE(OppositeSides({0, 0}, 1, {3, 1}, 1, {1, 0}, 2));
  // 000 L109 "any two points in their space": a knight's move apart around
  // the target (a line from a's lower left to b's upper right crosses the
  // target's left and right sides); not two at the corners of one side.
  EXPECT_TRUE(OppositeSides({0, 1}, 1, {2, 2}, 1, {1, 1}, 1));
  EXPECT_FALSE(OppositeSides({0, 0}, 1, {2, 0}, 1, {1, 1}, 1));
}

TEST(Space, SeparationOf120Degrees) {
  // 001 l.95. Straight across: 180 degrees.
  EXPECT_TRUE(AtLeast120Apart({0, 1}, 1, {2, 1}, 1, {1, 1}, 1));
  // A knight's move apart around the target: (-1,0) and (1,-1) from it,
  // 135 degrees.
  EXPECT_TRUE(AtLeast120Apart({0, 1}, 1, {2, 0}, 1, {1, 1}, 1));
  // Side and corner on the same side: 45 or 90 degrees.
  EXPECT_FALSE(AtLeast120Apart({0, 1}, 1, {0, 0}, 1, {1, 1}, 1));
  EXPECT_FALSE(AtLeast120Apart({0, 1}, 1, {1, 0}, 1, {1, 1}, 1));
  // Near the boundary (exactly 120 degrees never falls on squares):
  // (4,0) and (-2,3) from the target, 123.7 degrees; (4,0) and (-1,3),
  // 108.4 degrees.
  EXPECT_TRUE(AtLeast120Apart({5, 1}, 1, {-1, 4}, 1, {1, 1}, 1));
  EXPECT_FALSE(AtLeast120Apart({5, 1}, 1, {0, 4}, 1, {1, 1}, 1));
  EXPECT_FALSE(AtLeast120Apart({1, 1}, 1, {2, 1}, 1, {1, 1}, 1));
}

TEST(Space, SquaresAndOverlap) {
  EXPECT_EQ(SquaresOf({1, 1}, 2),
            (std::vector<Pos>{{1, 1}, {2, 1}, {1, 2}, {2, 2}}));
  EXPECT_TRUE(Overlaps({0, 0}, 2, {1, 1}, 1));
  EXPECT_FALSE(Overlaps({0, 0}, 2, {2, 1}, 1));
}

TEST(Space, Facing) {
  EXPECT_EQ(DirToward({0, 0}, {0, -3}), 0);
  EXPECT_EQ(DirToward({0, 0}, {3, 3}), 3);
  EXPECT_EQ(DirToward({0, 0}, {5, 1}), 2);
  // Centre to centre: a 2x2 space at (5,5) and a square at (4,6) west of
  // its lower row are due west of each other; their top-left squares are
  // not.
  EXPECT_EQ(DirBetween({5, 5}, 2, {4, 6}, 1), 6);
  EXPECT_EQ(DirToward({5, 5}, {4, 6}), 5);
  EXPECT_EQ(DirBetween({4, 6}, 1, {5, 5}, 2), 2);
  EXPECT_EQ(DirBetween({1, 1}, 1, {1, 1}, 1), 0);
  EXPECT_EQ(DirVec(9).x, 1);
  EXPECT_EQ(DirVec(-1).x, -1);
  // Facing south (4) from (2,2): the row below and the side squares count.
  EXPECT_TRUE(Faces({2, 2}, 1, 4, {2, 5}));
  EXPECT_TRUE(Faces({2, 2}, 1, 4, {0, 2}));
  EXPECT_FALSE(Faces({2, 2}, 1, 4, {2, 1}));
  EXPECT_TRUE(Faces({2, 2}, 1, 4, {2, 2}));
}

}  // namespace
}  // namespace combat::kernel::space
