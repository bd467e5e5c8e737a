// Space: positions, spaces, distance metrics, paths and their cost, the
// lines the texts draw for cover and flanking, and facing. Pure geometry in
// integers; what terrain means (difficult, cover, blocking) stays in the
// ruleset, passed in as callbacks.
//
// Coordinates: `Pos{x, y}`, x grows east, y grows south. A combatant of
// size n occupies the n x n block of squares whose top-left square is `at`
// (kernel/state.h `Combatant::at`, `Combatant::size`). On a hex grid `Pos`
// holds axial coordinates (x = q, y = r) and a size-n space is the rhombus
// of cells at + (i, j), 0 <= i, j < n.
//
// Units: "squares" count grid steps; "units" are the session's length unit
// (ft, yd, m): squares x `Grid::square`.
//
// Which text uses what (kernel/README.md "Space"):
//   000 d20_three_action  5 ft squares, every step 5 ft  (kChebyshev, 5)
//   001 wound_slots       1 yd squares or hexes, "count every second
//                         diagonal movement as 2 yards" (l.161)
//                                                (kAlternatingDiagonal, 1)
//   002 energy_rounds     1 m squares, diagonal 1 m (l.416)  (kChebyshev, 1)
//   003 opposed_tests     metres, no grid rule given
//   004 ap_rp             1 m squares, "even if it is diagonal" (l.106)
//                                                          (kChebyshev, 1)
#ifndef COMBAT_KERNEL_SPACE_H_
#define COMBAT_KERNEL_SPACE_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "kernel/state.h"

namespace combat::kernel::space {

enum class Metric {
  kChebyshev,            // every step, diagonal included, is 1 square
  kAlternatingDiagonal,  // every second diagonal step costs 2 squares
  kHex,                  // axial coordinates; 6 neighbours, each 1 step
};

struct Grid {
  Metric metric = Metric::kChebyshev;
  int64_t square = 1;  // one square's side in the session's unit (5 ft, 1 m)
};

// ---- spaces and distance (space.cc)

// Whether square `p` lies in the size x size space at `at`.
bool Covers(Pos at, int32_t size, Pos p);

// The squares of the size x size space at `at`, row by row.
std::vector<Pos> SquaresOf(Pos at, int32_t size);

// Whether two spaces share a square.
bool Overlaps(Pos a_at, int32_t a_size, Pos b_at, int32_t b_size);

// Squares between the nearest squares of two spaces along each axis:
// 0 when their columns (rows) overlap, 1 when adjacent.
struct AxisGap {
  int64_t dx = 0;
  int64_t dy = 0;
};
AxisGap Gaps(Pos a_at, int32_t a_size, Pos b_at, int32_t b_size);

// Grid steps between the nearest squares (cells) of two spaces: 0 when they
// overlap, 1 when adjacent.
//   kChebyshev: max(dx, dy).
//   kAlternatingDiagonal: the shortest path's length, min(dx, dy) diagonal
//     steps of which every second counts 2 (001 l.161), the rest straight:
//     max(dx, dy) + min(dx, dy) / 2, rounded down (the odd diagonal is the
//     1-square one).
//   kHex: the fewest hex steps between the nearest cells (cube distance).
// REQUIRES: sizes >= 1.
int64_t GapSquares(Metric metric, Pos a_at, int32_t a_size, Pos b_at,
                   int32_t b_size);

// GapSquares x grid.square, in the session's unit.
int64_t Distance(const Grid& grid, Pos a_at, int32_t a_size, Pos b_at,
                 int32_t b_size);
int64_t Distance(const Grid& grid, const Combatant& a, const Combatant& b);
// From `a`'s space to the square `p`.
int64_t DistanceTo(const Grid& grid, const Combatant& a, Pos p);

// Hex steps between two cells (axial coordinates).
int64_t HexSteps(Pos a, Pos b);

// ---- paths (space_path.cc)

// Whether `next` is one step from `prev` (never the same square): one of the
// 8 surrounding squares, or on kHex one of the 6 neighbouring cells.
bool CheckStep(Metric metric, Pos prev, Pos next);

// One reason a step costs more: a factor and why ("difficult terrain").
struct Factor {
  int64_t times = 1;
  std::string why;
};
// The factors that apply to the step from `from` into `to` (the ruleset
// decides which square's terrain counts: 000 reads the square moved out
// of, 001 and 004 the square entered).
using StepFactors = std::function<std::vector<Factor>(Pos from, Pos to)>;

// Walks a path step by step, carrying the alternating-diagonal count
// (001 l.161: the 2nd, 4th, ... diagonal of a movement cost 2 squares).
// REQUIRES: each step passes CheckStep.
class PathWalker {
 public:
  // `diagonals_before`: diagonal steps already taken in this movement.
  PathWalker(const Grid& grid, Pos from, int64_t diagonals_before = 0);
  // Steps into `to`; returns that step's cost in units: its squares (1, or
  // 2 for an even-numbered diagonal under kAlternatingDiagonal) x
  // `multiplier` x grid.square. Terrain multipliers multiply (001 l.163:
  // "multiply them together"); the even-diagonal 2 is multiplied too
  // (reading: each yard of it is a yard of difficult terrain).
  int64_t Step(Pos to, int64_t multiplier = 1);
  Pos at() const { return at_; }
  int64_t cost() const { return cost_; }  // units so far
  int64_t diagonals() const { return diagonals_; }

 private:
  Grid grid_;
  Pos at_;
  int64_t diagonals_;
  int64_t cost_ = 0;
};

// The product of the factors' `times` (1 for none).
int64_t Product(const std::vector<Factor>& factors);

struct PathTally {
  int64_t cost = 0;              // units
  int64_t squares = 0;           // steps taken (path.size())
  std::vector<std::string> why;  // every factor's reason, in order
};
// The cost of moving from `from` along `path` (the squares entered, in
// order): each step's factors (`factors`, may be empty) multiply.
// REQUIRES: each step passes CheckStep.
PathTally PathCost(const Grid& grid, Pos from, const std::vector<Pos>& path,
                    const StepFactors& factors = nullptr);

// How a ruleset words refusals of a path. The kernel picks the code:
// InvalidArgument for a malformed path (a step that is not adjacent), and
// FailedPrecondition for an illegal move (into a wall, off the map, or into
// a square someone else holds).
struct PathRules {
  std::string action;  // the command's action, for InvalidArgument
  std::string field = "path";
  std::string rule;  // rule id cited by a FailedPrecondition
  // "000 Movement, L35" for a rule id; the ruleset's rule table.
  std::function<std::string(const std::string& rule)> cite;
  // Who stands in `square` so that the mover may not be there at step `i`
  // of `n` (the ruleset's reading: allies, pass-through, ending a move);
  // "" when free. Null: nobody blocks.
  std::function<std::string(Pos square, size_t i, size_t n)> occupant;
};

// Checks each square of `path` (entered in order from `from`) for a mover
// of `size`: adjacency (InvalidArgument "command 'move': field 'path[3]':
// (4,5) is not adjacent to (2,2) ..."), then each square of the mover's
// space there: "wall" or "offmap" terrain (State::TerrainAt) and
// `rules.occupant` (FailedPrecondition "path[3] (4,5): square (5,5) is a
// wall (<cite>)").
absl::Status CheckPath(const State& s, Metric metric, Pos from, int32_t size,
                       const std::vector<Pos>& path, const PathRules& rules);

// "(4,5)".
std::string Sq(Pos p);

// ---- lines (space_lines.cc)

// A point in quarter squares: square (x, y) spans [4x, 4x + 4).
struct QPoint {
  int64_t x = 0;
  int64_t y = 0;
};
// The centre of a space.
QPoint Centre(Pos at, int32_t size);

// The squares whose interior the segment a-b passes through, in order from
// a, sampled every 1/8 square (floor to the square: a point on a grid line
// belongs to the square east / south of it).
std::vector<Pos> Crossed(QPoint a, QPoint b);

// The squares on the line between the centres of two spaces, both ends
// included.
std::vector<Pos> LineBetween(Pos a_at, int32_t a_size, Pos b_at,
                             int32_t b_size);

// What one square does to a line of sight or effect.
enum class Sight { kClear, kObscured, kBlocked };
// The ruleset's reading of a square crossed by a line (terrain, creatures
// of some size...): kBlocked stops the line; kObscured names what in `by`.
using SquareSight = std::function<Sight(Pos square, std::string* by)>;

// What the lines from an origin space to a target space meet.
struct LineCover {
  int lines = 0;     // lines drawn
  int blocked = 0;   // stopped by a kBlocked square
  int obscured = 0;  // not stopped, but crossing a kObscured square
  std::string blocked_by;   // what stopped the first stopped line
  std::string obscured_by;  // on the first obscured line, the obscuring
                            // square nearest the target
};
// Lines from the centre of the origin space to five points of every square
// of the target space (its centre and the centres of its four quarters),
// each walked through the squares it crosses outside both spaces, in order.
// The fractions (blocked / lines) are the ruleset's to read: all blocked is
// full cover; some, partial.
LineCover CoverLines(Pos from, int32_t from_size, Pos to_at, int32_t to_size,
                     const SquareSight& sight);

// Whether a line between some point of space a and some point of space b
// crosses two opposite sides of the target space t, passing through its
// inside (a line along one of its edges crosses nothing; one through a
// corner crosses both sides the corner joins): 000 L109's "draw a line
// between any two points in their space that crosses opposite sides". So
// two spaces a knight's move apart around t are on opposite sides; two on
// one side of t, or at right angles, are not. Exact, in integers.
bool OppositeSides(Pos a_at, int32_t a_size, Pos b_at, int32_t b_size,
                   Pos t_at, int32_t t_size);

// Whether the centres of spaces a and b, seen from the centre of space t,
// are at least 120 degrees apart (001 l.95: flanking). Exact in integers:
// the angle between u and v is >= 120 degrees when u . v <= -|u||v| / 2,
// that is u . v < 0 and 4 (u . v)^2 >= |u|^2 |v|^2. False when a or b
// shares t's centre.
bool AtLeast120Apart(Pos a_at, int32_t a_size, Pos b_at, int32_t b_size,
                     Pos t_at, int32_t t_size);

// ---- facing (space_facing.cc): 8 directions, 0 = north (y - 1), clockwise.

// The unit step of direction `dir` (taken mod 8).
Pos DirVec(int dir);
// The direction from `from` toward `to` (octants split at 22.5 degrees,
// tan 22.5 read as 5/12); 0 when they are the same square.
int DirToward(Pos from, Pos to);
// The direction from the centre of space a toward the centre of space b
// (DirToward's octants): "straight away" from a body of any size, as a push
// reads it. 0 when the centres meet.
int DirBetween(Pos a_at, int32_t a_size, Pos b_at, int32_t b_size);
// Whether square `p` lies within 90 degrees of direction `dir` seen from
// the centre of the space at `at` (002 l.402: the 3 squares in front and
// the 2 beside); a square of the space itself counts.
bool Faces(Pos at, int32_t size, int dir, Pos p);

}  // namespace combat::kernel::space

#endif  // COMBAT_KERNEL_SPACE_H_
