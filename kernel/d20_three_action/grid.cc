// The battle grid: 5 ft squares, distance, terrain kinds, lines for cover
// and fog, and flanking geometry. Integer arithmetic only.
//
// Distance (reading; the text gives no metric): every step, diagonal
// included, is 5 ft, so the distance between two spaces is 5 ft times the
// larger of the column and row gaps between their nearest squares.
#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "kernel/arith.h"
#include "kernel/d20_three_action/internal.h"

namespace combat::kernel::d20 {
namespace {

int64_t Gap(int64_t a, int64_t sa, int64_t b, int64_t sb) {
  return std::max<int64_t>({0, b - (a + sa - 1), a - (b + sb - 1)});
}

// Squares whose interior the segment (x0,y0)-(x1,y1), in quarter-square
// units, passes through, sampled every 1/8 square, in order.
std::vector<Pos> Crossed(int64_t x0, int64_t y0, int64_t x1, int64_t y1) {
  int64_t n = 2 * std::max(std::llabs(x1 - x0), std::llabs(y1 - y0));
  if (n == 0) n = 1;
  std::vector<Pos> out;
  for (int64_t k = 0; k <= n; ++k) {
    const int64_t x = x0 * n + (x1 - x0) * k;
    const int64_t y = y0 * n + (y1 - y0) * k;
    Pos p{static_cast<int32_t>(FloorDiv(x, 4 * n)),
          static_cast<int32_t>(FloorDiv(y, 4 * n))};
    if (out.empty() || out.back() != p) out.push_back(p);
  }
  return out;
}

// Whether the line from a to b crosses the box's side x = x0 and its
// opposite side x = x1 (corners count), a left of the box, b right of it.
// Half-square units.
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

int64_t DistanceFt(Pos a, int32_t size_a, Pos b, int32_t size_b) {
  return kSquare *
         std::max(Gap(a.x, size_a, b.x, size_b), Gap(a.y, size_a, b.y, size_b));
}

int64_t DistanceFt(const Combatant& a, const Combatant& b) {
  return DistanceFt(a.at, a.size, b.at, b.size);
}

bool Covers(Pos at, int32_t size, Pos p) {
  return p.x >= at.x && p.x < at.x + size && p.y >= at.y && p.y < at.y + size;
}

bool IsWall(std::string terrain) {
  return terrain == "wall" || terrain == "offmap";
}

bool IsDifficult(std::string terrain) {
  // L69: "thick underbrush, knee deep water, rubble, etc."; a "cover" cell
  // (a crate, a low wall) is climbed over.
  return terrain == "difficult" || terrain == "water" || terrain == "rubble" ||
         terrain == "underbrush" || terrain == "cover";
}

int64_t MeleeReach(const Combatant& c) {
  int64_t reach = kSquare;  // unarmed
  for (const Weapon& w : c.weapons) {
    if (w.kind == "melee" || w.kind == "natural") {
      reach = std::max<int64_t>(reach, w.reach);
    }
  }
  return reach;
}

CoverResult CoverFrom(const State& s, Pos from, int32_t from_size,
                      const Combatant& target, std::string attacker) {
  CoverResult out;
  const int64_t ox = 4 * int64_t{from.x} + 2 * from_size;
  const int64_t oy = 4 * int64_t{from.y} + 2 * from_size;
  static constexpr int kOffsets[5][2] = {
      {2, 2}, {1, 1}, {3, 1}, {1, 3}, {3, 3}};
  int lines = 0;
  int walled = 0;
  for (int32_t i = 0; i < target.size; ++i) {
    for (int32_t j = 0; j < target.size; ++j) {
      for (const auto& off : kOffsets) {
        ++lines;
        const int64_t px = 4 * int64_t{target.at.x + i} + off[0];
        const int64_t py = 4 * int64_t{target.at.y + j} + off[1];
        bool wall = false;
        std::string obscured;
        for (Pos p : Crossed(ox, oy, px, py)) {
          if (Covers(from, from_size, p) || Covers(target.at, target.size, p)) {
            continue;
          }
          const std::string terrain = s.TerrainAt(p);
          if (terrain == "wall") {
            wall = true;
            break;
          }
          if (terrain == "cover" && SizeRank(target) <= 1) {
            obscured = "cover terrain";
          }
          for (const auto& [id, c] : s.combatants) {
            if (id == attacker || id == target.id || IsDead(c)) continue;
            if (Covers(c.at, c.size, p) && SizeRank(c) >= SizeRank(target)) {
              obscured = id;
            }
          }
        }
        if (wall) {
          ++walled;
          if (out.by.empty()) out.by = "wall";
        } else if (!obscured.empty()) {
          out.cover = true;
          if (out.by.empty() || out.by == "wall") out.by = obscured;
        }
      }
    }
  }
  if (walled == lines) {
    out.blocked = true;
    out.by = "wall";
  } else if (walled > 0) {
    out.cover = true;
  }
  return out;
}

bool FogBetween(const State& s, const Combatant& viewer,
                const Combatant& target) {
  for (const Combatant* c : {&viewer, &target}) {
    for (int32_t i = 0; i < c->size; ++i) {
      for (int32_t j = 0; j < c->size; ++j) {
        if (s.TerrainAt({c->at.x + i, c->at.y + j}) == "fog") return true;
      }
    }
  }
  const auto crossed = Crossed(4 * int64_t{viewer.at.x} + 2 * viewer.size,
                               4 * int64_t{viewer.at.y} + 2 * viewer.size,
                               4 * int64_t{target.at.x} + 2 * target.size,
                               4 * int64_t{target.at.y} + 2 * target.size);
  for (Pos p : crossed) {
    if (s.TerrainAt(p) == "fog") return true;
  }
  return false;
}

namespace {

// L109: "on opposite sides ... if you can draw a line between any two points
// in their space that crosses opposite sides of the Flanked Creature".
// Reading: lines between the centres of any square of one flanker and any
// square of the other; corners count as on both sides they join.
bool Opposite(const Combatant& a, const Combatant& b, const Combatant& t) {
  const int64_t x0 = 2 * int64_t{t.at.x}, x1 = 2 * int64_t{t.at.x + t.size};
  const int64_t y0 = 2 * int64_t{t.at.y}, y1 = 2 * int64_t{t.at.y + t.size};
  for (int32_t ai = 0; ai < a.size; ++ai) {
    for (int32_t aj = 0; aj < a.size; ++aj) {
      const int64_t ax = 2 * int64_t{a.at.x + ai} + 1;
      const int64_t ay = 2 * int64_t{a.at.y + aj} + 1;
      for (int32_t bi = 0; bi < b.size; ++bi) {
        for (int32_t bj = 0; bj < b.size; ++bj) {
          const int64_t bx = 2 * int64_t{b.at.x + bi} + 1;
          const int64_t by = 2 * int64_t{b.at.y + bj} + 1;
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

}  // namespace

std::string FlankPartner(const State& s, const Combatant& attacker,
                         const Combatant& target, int64_t attacker_reach) {
  if (!Hostile(attacker, target)) return "";
  if (DistanceFt(attacker, target) > attacker_reach) return "";
  for (const auto& [id, b] : s.combatants) {
    if (id == attacker.id || id == target.id) continue;
    // Reading: a flanker must be able to act (not Dead, Stunned or
    // Unconscious).
    if (!Hostile(b, target) || IsDead(b) || IsHelpless(b)) continue;
    if (DistanceFt(b, target) > MeleeReach(b)) continue;
    if (Opposite(attacker, b, target)) return id;
  }
  return "";
}

}  // namespace combat::kernel::d20
