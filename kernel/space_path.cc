// Paths: adjacency, cost with multiplying terrain factors and alternating
// diagonals, and one way to refuse a path.
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "kernel/space.h"

namespace combat::kernel::space {
namespace {

bool Diagonal(Pos a, Pos b) { return a.x != b.x && a.y != b.y; }

}  // namespace

std::string Sq(Pos p) { return absl::StrCat("(", p.x, ",", p.y, ")"); }

bool CheckStep(Metric metric, Pos prev, Pos next) {
  if (prev == next) return false;
  const int64_t dx = int64_t{next.x} - prev.x;
  const int64_t dy = int64_t{next.y} - prev.y;
  if (metric == Metric::kHex) return HexSteps(prev, next) == 1;
  return std::llabs(dx) <= 1 && std::llabs(dy) <= 1;
}

PathWalker::PathWalker(const Grid& grid, Pos from, int64_t diagonals_before)
    : grid_(grid), at_(from), diagonals_(diagonals_before) {}

int64_t PathWalker::Step(Pos to, int64_t multiplier) {
  int64_t squares = 1;
  if (grid_.metric == Metric::kAlternatingDiagonal && Diagonal(at_, to)) {
    ++diagonals_;
    if (diagonals_ % 2 == 0) squares = 2;  // 001 l.161: every second one
  }
  const int64_t step = squares * multiplier * grid_.square;
  cost_ += step;
  at_ = to;
  return step;
}

int64_t Product(const std::vector<Factor>& factors) {
  int64_t times = 1;
  for (const Factor& f : factors) times *= f.times;  // 001 l.163: multiply
  return times;
}

PathTally PathCost(const Grid& grid, Pos from, const std::vector<Pos>& path,
                   const StepFactors& factors) {
  PathTally out;
  PathWalker walk(grid, from);
  for (Pos p : path) {
    std::vector<Factor> f;
    if (factors) f = factors(walk.at(), p);
    for (const Factor& one : f) {
      if (one.times != 1) out.why.push_back(one.why);
    }
    walk.Step(p, Product(f));
    ++out.squares;
  }
  out.cost = walk.cost();
  return out;
}

absl::Status CheckPath(const State& s, Metric metric, Pos from, int32_t size,
                       const std::vector<Pos>& path, const PathRules& rules) {
  const std::string cite = rules.cite ? rules.cite(rules.rule) : rules.rule;
  Pos at = from;
  for (size_t i = 0; i < path.size(); ++i) {
    const Pos p = path[i];
    const std::string where = absl::StrCat(rules.field, "[", i, "]");
    if (!CheckStep(metric, at, p)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "command '", rules.action, "': field '", where, "': ", Sq(p),
          " is not adjacent to ", Sq(at),
          ": list each square entered, one step from the one before"));
    }
    for (int32_t dx = 0; dx < size; ++dx) {
      for (int32_t dy = 0; dy < size; ++dy) {
        const Pos q{p.x + dx, p.y + dy};
        const std::string square =
            q == p ? absl::StrCat(where, " ", Sq(p))
                   : absl::StrCat(where, " ", Sq(p), ": square ", Sq(q));
        const std::string t = s.TerrainAt(q);
        std::string what;
        if (t == "wall") what = "a wall";
        if (t == "offmap") what = "off the map";
        if (what.empty() && rules.occupant) {
          const std::string who = rules.occupant(q, i, path.size());
          if (!who.empty()) what = "occupied by " + who;
        }
        if (!what.empty()) {
          return absl::FailedPreconditionError(
              absl::StrCat(square, " is ", what, " (", cite, ")"));
        }
      }
    }
    at = p;
  }
  return absl::OkStatus();
}

}  // namespace combat::kernel::space
