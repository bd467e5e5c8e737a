// The battle grid's rules for this text: 5 ft squares, terrain kinds,
// reach, what gives cover, fog on a line, and who flanks. The geometry
// (distance, lines, opposite sides) is kernel/space.h.
//
// Distance (reading; the text gives no metric): every step, diagonal
// included, is 5 ft (kGrid: Chebyshev, 5 ft).
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "kernel/d20_three_action/internal.h"

namespace combat::kernel::d20 {

int64_t DistanceFt(Pos a, int32_t size_a, Pos b, int32_t size_b) {
  return space::Distance(kGrid, a, size_a, b, size_b);
}

int64_t DistanceFt(const Combatant& a, const Combatant& b) {
  return space::Distance(kGrid, a, b);
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
  // L121: a wall stops a line; "cover" terrain obscures a small target; a
  // creature of at least the target's size obscures it, dead or alive (L140
  // "A Creature dies": its body is still in the way).
  auto sight = [&](Pos p, std::string* by) {
    const std::string terrain = s.TerrainAt(p);
    if (terrain == "wall") {
      *by = "wall at " + At(p);
      return space::Sight::kBlocked;
    }
    if (terrain == "cover" && SizeRank(target) <= 1) *by = "cover at " + At(p);
    for (const auto& [id, c] : s.combatants) {
      if (id == attacker || id == target.id) continue;
      if (space::Covers(c.at, c.size, p) && SizeRank(c) >= SizeRank(target)) {
        *by = id;
      }
    }
    return by->empty() ? space::Sight::kClear : space::Sight::kObscured;
  };
  const space::LineCover lines =
      space::CoverLines(from, from_size, target.at, target.size, sight);
  CoverResult out;
  if (lines.blocked == lines.lines) {
    out.blocked = true;
    out.by = "wall";
  } else {
    out.cover = lines.blocked > 0 || lines.obscured > 0;
    out.by = lines.obscured > 0 ? lines.obscured_by : lines.blocked_by;
  }
  return out;
}

std::optional<Pos> FogBetween(const State& s, const Combatant& viewer,
                              const Combatant& target) {
  for (const Combatant* c : {&viewer, &target}) {
    for (Pos p : space::SquaresOf(c->at, c->size)) {
      if (s.TerrainAt(p) == "fog") return p;
    }
  }
  for (Pos p : space::LineBetween(viewer.at, viewer.size, target.at,
                                  target.size)) {
    if (s.TerrainAt(p) == "fog") return p;
  }
  return std::nullopt;
}

namespace {

// An axis-aligned box of the grid, in square units: [x0, x1] x [y0, y1].
struct Box {
  int64_t x0, x1, y0, y1;
};

Box SpaceBox(Pos at, int32_t size, bool swap) {
  Box b{at.x, int64_t{at.x} + size, at.y, int64_t{at.y} + size};
  if (swap) return Box{b.y0, b.y1, b.x0, b.x1};
  return b;
}

// A non-vertical line y = m x + c with m = M / D, c = C / D, D > 0.
struct Line {
  int64_t M, C, D;
};

// lo <= m x + c <= hi for some x in [xa, xb].
bool Meets(const Line& l, int64_t xa, int64_t xb, int64_t lo, int64_t hi) {
  const int64_t fa = l.M * xa + l.C, fb = l.M * xb + l.C;  // times D
  return std::min(fa, fb) <= hi * l.D && std::max(fa, fb) >= lo * l.D;
}

// L109: "draw a line between any two points in their space that crosses
// opposite sides of the Flanked Creature", for the left and right sides of
// `t`: a line through a point of `a` left of `t` and a point of `b` right
// of it, meeting both sides of `t` and passing through its inside (a line
// along its top or bottom edge crosses nothing; through a corner it
// crosses both sides the corner joins).
bool CrossesLeftToRight(const Box& a, const Box& b, const Box& t) {
  if (a.x0 >= t.x0 || b.x1 <= t.x1) return false;
  const int64_t ax1 = std::min(a.x1, t.x0), bx0 = std::max(b.x0, t.x1);
  auto ok = [&](const Line& l) {
    if (!Meets(l, t.x0, t.x0, t.y0, t.y1) || !Meets(l, t.x1, t.x1, t.y0, t.y1))
      return false;
    if (l.M == 0 && (l.C == t.y0 * l.D || l.C == t.y1 * l.D)) return false;
    return Meets(l, a.x0, ax1, a.y0, a.y1) && Meets(l, bx0, b.x1, b.y0, b.y1);
  };
  // Where such lines exist, one passes through two corners of the parts of
  // `a` and `b` outside `t` or of `t` (a vertex of the region of lines), or
  // lies midway between two that do.
  std::vector<std::pair<int64_t, int64_t>> pts;
  for (const Box& k : {Box{a.x0, ax1, a.y0, a.y1}, Box{bx0, b.x1, b.y0, b.y1}, t}) {
    for (int64_t x : {k.x0, k.x1}) {
      for (int64_t y : {k.y0, k.y1}) pts.emplace_back(x, y);
    }
  }
  std::vector<Line> found;
  for (size_t i = 0; i < pts.size(); ++i) {
    for (size_t j = i + 1; j < pts.size(); ++j) {
      const auto [x1, y1] = pts[i];
      const auto [x2, y2] = pts[j];
      if (x1 == x2) continue;
      Line l{y2 - y1, y1 * (x2 - x1) - (y2 - y1) * x1, x2 - x1};
      if (l.D < 0) l = Line{-l.M, -l.C, -l.D};
      if (ok(l)) return true;
      // Degenerate lines (along an edge) still bound the region.
      const bool edge = l.M == 0 && (l.C == t.y0 * l.D || l.C == t.y1 * l.D);
      if (edge && Meets(l, a.x0, ax1, a.y0, a.y1) &&
          Meets(l, bx0, b.x1, b.y0, b.y1) &&
          Meets(l, t.x0, t.x1, t.y0, t.y1)) {
        found.push_back(l);
      }
    }
  }
  for (size_t i = 0; i < found.size(); ++i) {
    for (size_t j = i + 1; j < found.size(); ++j) {
      const Line& p = found[i];
      const Line& q = found[j];
      if (ok(Line{p.M * q.D + q.M * p.D, p.C * q.D + q.C * p.D, 2 * p.D * q.D}))
        return true;
    }
  }
  return false;
}

bool OnOppositeSides(const Combatant& a, const Combatant& b,
                     const Combatant& t) {
  for (bool swap : {false, true}) {
    const Box ab = SpaceBox(a.at, a.size, swap);
    const Box bb = SpaceBox(b.at, b.size, swap);
    const Box tb = SpaceBox(t.at, t.size, swap);
    if (CrossesLeftToRight(ab, bb, tb) || CrossesLeftToRight(bb, ab, tb)) {
      return true;
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
    // L109: "on opposite sides ... if you can draw a line between any two
    // points in their space that crosses opposite sides of the Flanked
    // Creature": any points, not only the squares' centres (so a pair a
    // knight's move apart around the target flanks; two creatures on the
    // same side, or at two corners of one side, do not).
    if (OnOppositeSides(attacker, b, target)) return id;
  }
  return "";
}

}  // namespace combat::kernel::d20
