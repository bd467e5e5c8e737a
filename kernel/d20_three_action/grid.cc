// The battle grid's rules for this text: 5 ft squares, terrain kinds,
// reach, what gives cover, fog on a line, and who flanks. The geometry
// (distance, lines, opposite sides) is kernel/space.h.
//
// Distance (reading; the text gives no metric): every step, diagonal
// included, is 5 ft (kGrid: Chebyshev, 5 ft).
#include <algorithm>
#include <string>

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

bool InHand(const Combatant& c, const std::string& item) {
  for (const Condition* dis : Named(c, kDisarmed)) {
    if (dis->note == item) return false;
  }
  return true;
}

bool InHand(const Combatant& c, const Weapon& w) { return InHand(c, w.name); }

int64_t MeleeReach(const Combatant& c) {
  int64_t reach = kSquare;  // unarmed
  for (const Weapon& w : c.weapons) {
    if (w.kind != "melee" && w.kind != "natural") continue;
    // L55, L21: a weapon dropped, flung or taken is not in hand: its Reach
    // is not the creature's (L47 "the same Reach", L109 "within ... Reach").
    if (InHand(c, w)) reach = std::max<int64_t>(reach, w.reach);
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

std::string FlankPartner(const State& s, const Combatant& attacker,
                         const Combatant& target, int64_t attacker_reach) {
  if (!Hostile(attacker, target)) return "";
  if (DistanceFt(attacker, target) > attacker_reach) return "";
  for (const auto& [id, b] : s.combatants) {
    if (id == attacker.id || id == target.id) continue;
    // L109 asks two Enemies on opposite sides, within both their Reach: a
    // Stunned or Unconscious one still flanks (was: it had to be able to
    // act, which the text does not ask). Reading: the Dead are no Enemies
    // in the fight (L140: they get no Turn).
    if (!Hostile(b, target) || IsDead(b)) continue;
    if (DistanceFt(b, target) > MeleeReach(b)) continue;
    // L109: "on opposite sides ... if you can draw a line between any two
    // points in their space that crosses opposite sides of the Flanked
    // Creature": any points, not only the squares' centres (so a pair a
    // knight's move apart around the target flanks; two creatures on the
    // same side, or at two corners of one side, do not).
    if (space::OppositeSides(attacker.at, attacker.size, b.at, b.size,
                             target.at, target.size)) {
      return id;
    }
  }
  return "";
}

}  // namespace combat::kernel::d20
