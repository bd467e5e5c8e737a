// Movement (l.106-109, l.114-115): 1 m squares with diagonals 1 m,
// difficult terrain 2 m per square (the square entered), moving through
// allies (never stopping there) and through enemies (a contest; the square
// counts as difficult), sharing a space with a creature two size categories
// apart, climbers moving with their mount (l.32), forced movement into an
// occupied space (Strength DR, distance damage, half on a success, stopped
// one space before) and teleporting into one (Reality damage, returned,
// at most 100).
#include <algorithm>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "events/status_macros.h"
#include "kernel/ap_rp/internal.h"
#include "kernel/command.h"

namespace combat::kernel::aprp {
namespace {

// l.109: "You can be in a space occupied by a creature that is two size
// categories bigger or smaller than you" (reading: at least two apart).
// Creatures only: an object occupies its space whatever its size (l.114
// "the creature or object occupying that space").
bool CanShare(const Combatant& a, const Combatant& b) {
  if (IsObject(a) || IsObject(b)) return false;
  return std::llabs(SizeCat(a) - SizeCat(b)) >= 2;
}

// The creature in `p` that `mover` cannot share with, or nullptr.
const Combatant* Blocker(const State& s, const Combatant& mover, Pos p) {
  for (const auto& [id, o] : s.combatants) {
    if (id == mover.id || !space::Covers(o.at, o.size, p)) continue;
    if (const Condition* k = mover.FindCondition(kClimbing); k != nullptr && k->relative_to == id) continue;
    if (const Condition* k = o.FindCondition(kClimbing); k != nullptr && k->relative_to == mover.id) continue;
    if (CanShare(mover, o)) continue;
    return &o;
  }
  return nullptr;
}

// Whatever `mover` could not share any square with if it stood at `p` (a
// creature larger than one square covers several), each once, in the
// order of its squares.
std::vector<std::string> BlockersAt(const State& s, const Combatant& mover, Pos p) {
  std::vector<std::string> out;
  for (const Pos& q : space::SquaresOf(p, mover.size)) {
    const Combatant* b = Blocker(s, mover, q);
    if (b != nullptr && std::find(out.begin(), out.end(), b->id) == out.end()) {
      out.push_back(b->id);
    }
  }
  return out;
}

// The enemy in `p` whose space `mover` moves through, or nullptr: l.109
// "You can try to move through a space occupied by an enemy, but you have
// to succeed on a ... check" and "counts as difficult terrain" hold for
// every enemy; "You can be in a space occupied by a creature that is two
// size categories bigger or smaller" lets the mover be (stop) there, it
// does not waive the check.
const Combatant* EnemyIn(const State& s, const Combatant& mover, Pos p) {
  for (const auto& [id, o] : s.combatants) {
    if (id == mover.id || !space::Covers(o.at, o.size, p) || !Enemies(mover, o)) continue;
    if (const Condition* k = mover.FindCondition(kClimbing); k != nullptr && k->relative_to == id) continue;
    if (const Condition* k = o.FindCondition(kClimbing); k != nullptr && k->relative_to == mover.id) continue;
    return &o;
  }
  return nullptr;
}

int64_t StepCost(const State& s, const Combatant& mover, Pos to) {
  int64_t times = 1;
  for (const Pos& q : space::SquaresOf(to, mover.size)) {
    if (s.TerrainAt(q) == "difficult") times = 2;  // l.107
    if (EnemyIn(s, mover, q) != nullptr) times = 2;  // l.109
  }
  return times * kGrid.square;
}

}  // namespace

absl::Status MoveWithClimbers(Decision& d, const std::string& who, const std::vector<Pos>& path,
                              int64_t cost, bool forced, const Why& why) {
  RETURN_IF_ERROR(Move(d, who, path, cost, forced, why));
  // l.32 "You occupy a space that is also occupied by the target": a
  // climber moved off it (shoved, teleported, switched) is no longer on it.
  if (const Condition* k = d.state().Find(who)->FindCondition(kClimbing); k != nullptr) {
    const Combatant* mount = d.state().Find(k->relative_to);
    if (mount == nullptr || !space::Covers(mount->at, mount->size, d.state().Find(who)->at)) {
      const std::string off = k->relative_to;
      RETURN_IF_ERROR(RemoveConditionsNamed(d, who, kClimbing, {why.cause, "004.climb", {}, "moved off " + off}));
    }
  }
  std::vector<std::string> riders;
  for (const auto& [id, o] : d.state().combatants) {
    if (const Condition* k = o.FindCondition(kClimbing); k != nullptr && k->relative_to == who) {
      riders.push_back(id);
    }
  }
  const Pos to = d.state().Find(who)->at;
  for (const std::string& r : riders) {
    RETURN_IF_ERROR(Move(d, r, {to}, 0, true, {why.cause, "004.climb", {}, "moves with " + who}));
  }
  return absl::OkStatus();
}

absl::Status CheckMove(const State& s, const Combatant& a, const fb::CommandT& c) {
  if (c.path.empty()) return Malformed(c, "path", "the squares entered, in order");
  {
    // l.109: an enemy's space can be moved through, not stopped in (as an
    // ally's, l.108).
    const Pos last{c.path.back().x(), c.path.back().y()};
    for (const Pos& q : space::SquaresOf(last, a.size)) {
      const Combatant* b = Blocker(s, a, q);
      if (b != nullptr && Enemies(a, *b)) {
        return Refuse("004.terrain.enemy", absl::StrCat("path[", c.path.size() - 1, "] ", space::Sq(last),
                                                        " is occupied by the enemy ", b->id,
                                                        ": a move may pass through it, not end there"));
      }
    }
  }
  space::PathRules rules;
  rules.action = c.action;
  // The squares themselves first (adjacent, on the map, not a wall): the
  // grid's (l.106), not the allies' line (l.108).
  rules.rule = "004.terrain.grid";
  rules.cite = [](const std::string& r) { return Cite(r); };
  RETURN_IF_ERROR(space::CheckPath(s, kGrid.metric, a.at, a.size, PathOf(c), rules));
  rules.rule = "004.terrain.ally";
  rules.cite = [](const std::string& r) { return Cite(r); };
  rules.occupant = [&](Pos sq, size_t i, size_t n) -> std::string {
    const Combatant* b = Blocker(s, a, sq);
    if (b == nullptr) return "";
    // l.108-109: through allies and (by a contest) enemies, never stopping.
    return i + 1 == n ? b->id + " (an ally: a move may pass through its space, not stop there)" : "";
  };
  RETURN_IF_ERROR(space::CheckPath(s, kGrid.metric, a.at, a.size, PathOf(c), rules));
  // l.32 "you move with it if it moves" does not stop the climber moving by
  // itself: its own movement off the mount's space climbs down (reading:
  // each square costs as any, l.106; MoveWithClimbers ends Climbing).
  int64_t cost = 0;
  for (const Pos& p : PathOf(c)) cost += StepCost(s, a, p);
  if (cost > a.Resource(kMovement)) {
    return Refuse("004.budget.move", absl::StrCat("the path costs ", cost, " m and ", a.id, " has ",
                                                  a.Resource(kMovement), " m of movement left (Move: 1 AP, l.20)"));
  }
  return absl::OkStatus();
}

absl::StatusOr<size_t> ResolveMove(Decision& d, const fb::CommandT& c, uint64_t cause,
                                   size_t from, size_t steps) {
  const std::vector<Pos> path = PathOf(c);
  const size_t end = std::min(path.size(), from + steps);
  std::vector<Pos> walked;
  int64_t cost = 0;
  std::vector<std::string> why;
  size_t i = from;
  for (; i < end; ++i) {
    const Combatant mover = *d.state().Find(c.actor);
    const Combatant* enemy = nullptr;
    for (const Pos& q : space::SquaresOf(path[i], mover.size)) {
      const Combatant* b = EnemyIn(d.state(), mover, q);
      if (b != nullptr) enemy = b;
    }
    if (enemy != nullptr) {
      // l.109: through an enemy only by winning the contest.
      if (!walked.empty()) {
        RETURN_IF_ERROR(MoveWithClimbers(d, c.actor, walked, cost, false, {cause, "004.terrain.grid", {{"metres", cost}}}));
        RETURN_IF_ERROR(AddResource(d, c.actor, kMovement, -cost, {cause, "004.budget.move"}).status());
        RETURN_IF_ERROR(AddResource(d, c.actor, kMoved, cost, {cause, "004.budget.move"}).status());
        walked.clear();
        cost = 0;
      }
      const Combatant e = *enemy;
      Contest k{{"raw_force", "athletics", "nimbleness"}, {"raw_force", "athletics"}, false};
      ASSIGN_OR_RETURN(bool won, RollContest(d, *d.state().Find(c.actor), e, k, "", cause, "004.terrain.enemy"));
      if (!won) break;
    }
    const int64_t step = StepCost(d.state(), *d.state().Find(c.actor), path[i]);
    walked.push_back(path[i]);
    cost += step;
  }
  if (!walked.empty()) {
    RETURN_IF_ERROR(MoveWithClimbers(d, c.actor, walked, cost, false,
                                     {cause, "004.terrain.grid", {{"metres", cost}}}));
    RETURN_IF_ERROR(AddResource(d, c.actor, kMovement, -cost, {cause, "004.budget.move"}).status());
    RETURN_IF_ERROR(AddResource(d, c.actor, kMoved, cost, {cause, "004.budget.move"}).status());
  }
  return i - from;
}

std::vector<std::string> OccupantsFailing(const fb::CommandT& c) {
  std::vector<std::string> out;
  for (absl::string_view id : absl::StrSplit(ParamText(c, "occupant_fails"), ',', absl::SkipWhitespace())) {
    out.emplace_back(absl::StripAsciiWhitespace(id));
  }
  return out;
}

absl::Status CheckOccupantsFailing(const State& s, const fb::CommandT& c) {
  for (const std::string& id : OccupantsFailing(c)) {
    const Combatant* o = s.Find(id);
    if (o == nullptr || IsObject(*o)) {
      return Malformed(c, "params.occupant_fails",
                       "the ids of creatures of the session, comma-separated, that choose to fail the Strength DR of "
                       "l.114 (l.69; an object fails every DR): '" + id + "' is none");
    }
  }
  return absl::OkStatus();
}

absl::Status ForcedMove(Decision& d, const std::string& source, const std::string& target,
                        const std::vector<Pos>& path, uint64_t cause, const std::string& rule,
                        std::vector<DamagePart> with, bool combine,
                        const std::vector<std::string>& fails, const Pos* seen_from) {
  Nums with_nums;
  for (const DamagePart& p : with) with_nums.push_back({"ability_" + p.type, p.amount});
  const Combatant t = *d.state().Find(target);
  Combatant src = *d.state().Find(source);
  if (seen_from != nullptr) src.at = *seen_from;  // l.112: as if standing there
  std::vector<Pos> walked;
  Pos prev = t.at;
  const int64_t distance = static_cast<int64_t>(path.size()) * kGrid.square;
  for (const Pos& p : path) {
    if (!space::CheckStep(kGrid.metric, prev, p)) {
      return absl::InvalidArgumentError(absl::StrCat("path: ", space::Sq(p), " is not next to ", space::Sq(prev)));
    }
    // Every square the target would cover there: whatever occupies them.
    const std::vector<std::string> occupants = BlockersAt(d.state(), t, p);
    // Reading: a wall (or the map's edge) under any square the target would
    // cover stops it, as under its anchor square.
    std::string wall;  // the first wall (or the map's edge) it would cover
    for (const Pos& q : space::SquaresOf(p, t.size)) {
      const std::string terrain = d.state().TerrainAt(q);
      if (wall.empty() && terrain == "wall") wall = "the wall at " + space::Sq(q);
      if (wall.empty() && terrain == "offmap") wall = "the map's edge at " + space::Sq(q);
    }
    if (occupants.empty() && !wall.empty()) {
      // Reading: it stops, unharmed; the log says why, so the audit is a
      // read (l.106 "every square is 1 m ... a space"; l.114 speaks of
      // spaces occupied by a creature or object, which a wall is not).
      RETURN_IF_ERROR(RecordOutcome(
          d, target,
          {cause, "004.terrain.grid",
           {{"distance", distance}, {"moved", static_cast<int64_t>(walked.size()) * kGrid.square}},
           absl::StrCat("stopped at ", space::Sq(prev), " before ", wall, ": a wall is no space to move into",
                        " (README \"walls stop it\"; no collision damage: l.114 is about a space occupied by",
                        " a creature or object)")}));
      break;
    }
    if (!occupants.empty()) {
      // l.114: each occupant makes a Strength DR (advantage if at least one
      // size category bigger than the moved target); damage = the full
      // distance, half (rounded down: reading of l.53) on a success, to it
      // and to the moved target; the target stops one space before. Several
      // occupants (a large target): each rolls and takes its own; the moved
      // target takes the damage once, in full if any occupant failed
      // (reading: one movement, one collision for it).
      const int64_t power = DrPower(src);
      int64_t target_dmg = 0;
      std::vector<std::pair<std::string, int64_t>> hits;
      for (const std::string& oid : occupants) {
        const Combatant o = *d.state().Find(oid);
        bool success = false;
        Nums nums{{"distance", distance}, {"dr_power", power}};
        // l.69 "A creature can choose to fail their own DR": this DR too.
        const bool chooses =
            !IsObject(o) && std::find(fails.begin(), fails.end(), o.id) != fails.end();
        if (!IsObject(o) && !chooses) {
          const int mode = (SizeCat(o) >= SizeCat(t) + 1 || o.Has(kDefending)) ? 1 : 0;
          int64_t value = DrValue(o, "str");
          // l.111 "increases all of your DR by 1 against all effects that
          // come from that same direction" (and l.25, l.112): the effect is
          // the source's (the creature targeting, l.70), as for any DR; the
          // moved target is the effect, not a creature standing between
          // (reading). Full cover from the source counts as half here: the
          // occupant is not targeted (l.112), and an object covering the
          // whole body covers at least half of it (l.111; reading).
          if (o.id != src.id) {
            Cover cover = CoverOf(d.state(), src, o, t.id);
            if (cover.level == 2) cover.level = 1;
            value += DrCoverBonus(cover, o, nums);
          } else {
            value += DrCoverBonus(Cover{}, o, nums);
          }
          ASSIGN_OR_RETURN(dice::RollResult r, d.Roll(D20(mode, value), "strength DR", o.id, cause));
          success = r.total >= power;
          nums.push_back({"dr_total", r.total});
          nums.push_back({"advantage", mode,
                          mode == 0                              ? ""
                          : SizeCat(o) >= SizeCat(t) + 1         ? absl::StrCat(o.id, " larger than ", t.id)
                                                                 : "defending " + o.id,
                          SizeCat(o) >= SizeCat(t) + 1 || mode == 0 ? "004.forced" : "004.defend"});
        }
        const int64_t dmg = success ? FloorDiv(distance, 2) : distance;
        nums.push_back({"damage", dmg});
        RETURN_IF_ERROR(RecordOutcome(d, o.id, {cause, "004.forced", nums,
                                                success       ? "Strength DR succeeds: half damage"
                                                : IsObject(o) ? "an object fails every DR (l.69)"
                                                : chooses     ? "chooses to fail the Strength DR (l.69)"
                                                              : "Strength DR fails"}));
        target_dmg = std::max(target_dmg, dmg);
        hits.push_back({o.id, dmg});
      }
      const int64_t dmg = target_dmg;
      if (!walked.empty()) {
        RETURN_IF_ERROR(MoveWithClimbers(d, target, walked, 0, true, {cause, rule, {{"metres", static_cast<int64_t>(walked.size())}}}));
      }
      if (combine && !with.empty()) {
        // l.114: "You can add the damage that you deal that way to any
        // damage that you might have caused through an Ability or attack
        // that caused the movement ... instead of treating it as a separate
        // damage source": one hit, Armor subtracted once (l.64). Added:
        // the collision's Physical joins the Ability's Physical as one
        // amount, so a resistance or vulnerability halves their sum (l.79
        // "all incoming damage of that type"): 5 + 3 resisted is 4, not
        // 2 + 1.
        std::vector<DamagePart> parts = with;
        bool added = false;
        for (DamagePart& p : parts) {
          if (p.type == "physical" && !added) {
            p.amount += dmg;
            added = true;
          }
        }
        if (!added) parts.push_back({"physical", dmg});
        Nums n = with_nums;
        n.push_back({"forced", dmg});
        RETURN_IF_ERROR(ApplyDamage(d, target, parts, {}, cause, n).status());
      } else {
        if (!with.empty()) RETURN_IF_ERROR(ApplyDamage(d, target, with, {}, cause, with_nums).status());
        RETURN_IF_ERROR(ApplyDamage(d, target, {{"physical", dmg}}, {}, cause, {{"forced", dmg}}).status());
      }
      for (const auto& [oid, odmg] : hits) {
        RETURN_IF_ERROR(ApplyDamage(d, oid, {{"physical", odmg}}, {}, cause, {{"forced", odmg}}).status());
      }
      return absl::OkStatus();
    }
    walked.push_back(p);
    prev = p;
  }
  if (!walked.empty()) {
    RETURN_IF_ERROR(MoveWithClimbers(d, target, walked, 0, true,
                                     {cause, rule, {{"metres", static_cast<int64_t>(walked.size())}}}));
  }
  if (with.empty()) return absl::OkStatus();
  return ApplyDamage(d, target, with, {}, cause, with_nums).status();
}

// force_move params: dmg_<type> (the damage the Ability or attack causing
// the movement deals the moved target) and combine (1: the collision damage
// joins it as one damage source, l.114).
absl::Status DecideForceMove(const fb::CommandT& c, Decision& d) {
  std::vector<std::string> keys = {"combine"};
  for (const char* t : {"physical", "chemical", "cold", "heat", "poison", "shock", "curse", "holy",
                        "spirit", "psychic", "reality"}) {
    keys.push_back(std::string("dmg_") + t);
  }
  std::vector<DamagePart> with;
  for (size_t i = 1; i < keys.size(); ++i) {
    if (HasParam(c, keys[i])) with.push_back({keys[i].substr(4), ParamOr(c, keys[i], 0)});
  }
  if (ParamOr(c, "combine", 0) != 0 && with.empty()) {
    return Malformed(c, "params.combine", "combines the collision damage with the Ability's: give params dmg_<type>");
  }
  if (c.role != fb::Role::GM) {
    return absl::PermissionDeniedError("command 'force_move': the GM applies an Ability's forced movement");
  }
  RETURN_IF_ERROR(CheckOneTarget(c));  // the rest: the verb table (verbs.cc)
  ASSIGN_OR_RETURN(const Combatant* a, Actor(d.state(), c));
  ASSIGN_OR_RETURN(const Combatant* t, Target(d.state(), c));
  if (c.path.empty()) return Malformed(c, "path", "the squares the target is moved through");
  RETURN_IF_ERROR(CheckOccupantsFailing(d.state(), c));
  Pos prev = t->at;
  for (size_t i = 0; i < c.path.size(); ++i) {
    const Pos p{c.path[i].x(), c.path[i].y()};
    if (!space::CheckStep(kGrid.metric, prev, p)) {
      return Malformed(c, absl::StrCat("path[", i, "]"), space::Sq(p) + " is not next to " + space::Sq(prev));
    }
    prev = p;
  }
  // l.112 "you can lean towards a space next to you, allowing you to see and
  // target anything as if you were standing in that space": the Ability's
  // user leans (lean_x / lean_y) as an attacker does.
  RETURN_IF_ERROR(CheckLean(d.state(), *a, *t, c));
  const Combatant from = Viewpoint(*a, c);
  if (a->id != t->id && CoverOf(d.state(), from, *t).level == 2) {
    return Refuse("004.cover.full", t->id + " is in full cover from " + a->id + " (l.112)");
  }
  const std::string src = a->id;
  const std::string tgt = t->id;
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  if (HasParam(c, "lean_x")) RETURN_IF_ERROR(AddLeaning(d, src, from.at, decl));
  RETURN_IF_ERROR(ForcedMove(d, src, tgt, PathOf(c), decl, "004.forced", with, ParamOr(c, "combine", 0) != 0,
                             OccupantsFailing(c), &from.at));
  return FireOnChanges(d, c, decl);  // l.9: a held act on someone's damage
}

absl::Status DecideTeleport(const fb::CommandT& c, Decision& d) {
  RETURN_IF_ERROR(CheckOneTarget(c));  // the rest: the verb table (verbs.cc)
  if (c.role != fb::Role::GM) {
    return absl::PermissionDeniedError("command 'teleport': the GM applies an Ability's teleport");
  }
  ASSIGN_OR_RETURN(const Combatant* a, Actor(d.state(), c));
  ASSIGN_OR_RETURN(const Combatant* t, Target(d.state(), c));
  // l.112: the Ability's user leans out of full cover as an attacker does.
  RETURN_IF_ERROR(CheckLean(d.state(), *a, *t, c));
  const Combatant from = Viewpoint(*a, c);
  if (a->id != t->id && CoverOf(d.state(), from, *t).level == 2) {
    return Refuse("004.cover.full", t->id + " is in full cover from " + a->id + " (l.112)");
  }
  if (!HasParam(c, "x") || !HasParam(c, "y")) return Malformed(c, "params.x", "params x and y: the destination");
  const Pos to{static_cast<int32_t>(ParamOr(c, "x", 0)), static_cast<int32_t>(ParamOr(c, "y", 0))};
  for (const Pos& q : space::SquaresOf(to, t->size)) {
    const std::string terrain = d.state().TerrainAt(q);
    if (terrain == "offmap") return Malformed(c, "params.x", space::Sq(q) + " is off the map");
    if (terrain == "wall") {
      return Refuse("004.teleport", space::Sq(q) + " is a wall: not a space (reading: l.115 speaks of spaces occupied by creatures or objects)");
    }
  }
  const Combatant tc = *t;
  // l.115 "equal to the teleported distance": how far the creature is
  // moved (its anchor square to the destination; every square it covers
  // moves as far), not from its nearest square.
  const int64_t distance = space::Distance(kGrid, tc.at, 1, to, 1);
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  // Every square the creature would cover there (l.115 "a space that is
  // already occupied"): whatever occupies them.
  const std::vector<std::string> others = BlockersAt(d.state(), tc, to);
  if (HasParam(c, "lean_x")) RETURN_IF_ERROR(AddLeaning(d, from.id, from.at, decl));
  if (others.empty()) {
    // l.32 "you move with it if it moves": a climber goes with its
    // teleported mount (it stays on it).
    RETURN_IF_ERROR(MoveWithClimbers(d, tc.id, {to}, 0, true, {decl, "004.teleport", {{"distance", distance}}}));
    return FireOnChanges(d, c, decl);
  }
  // l.115: Reality damage equal to the distance to both, ignoring Armor;
  // the target returns; at most 100 damage to a creature.
  // The cap applies to what the creature receives, after resistance or
  // vulnerability (l.115 "cannot deal more than 100 damage to a creature";
  // an object is not capped).
  const int64_t dmg = distance;
  DamageOpts o;
  o.ignore_armor = 1 << 30;
  o.cap = 100;
  Nums nums{{"distance", distance}, {"cap", 100}};
  RETURN_IF_ERROR(ApplyDamage(d, tc.id, {{"reality", dmg}}, o, decl, nums).status());
  for (const std::string& other : others) {
    RETURN_IF_ERROR(ApplyDamage(d, other, {{"reality", dmg}}, o, decl, nums).status());
  }
  RETURN_IF_ERROR(RecordOutcome(d, tc.id, {decl, "004.teleport", nums, "returned to its original position"}));
  return FireOnChanges(d, c, decl);  // l.9: a held act on someone's damage
}

}  // namespace combat::kernel::aprp

namespace combat::kernel::aprp {

absl::Status DecideMove(const fb::CommandT& c, Decision& d) {
  ASSIGN_OR_RETURN(const Combatant* a, Actor(d.state(), c));
  // l.6: "They can also move by an amount equal to their Basic Movement
  // (usually 3 m) without needing to use any AP" -- during their turn:
  // movement, not AP, is what a move uses.
  if (!Alive(*a)) return Refuse("004.budget.move", a->id + " cannot act");
  if (!d.state().IsTurnOf(a->id)) {
    return Refuse("004.budget.move",
                  absl::StrCat("movement (Basic Movement, no AP) is used during your own turn: it is ",
                               d.state().active.empty() ? "nobody" : d.state().active,
                               "'s turn, not ", a->id, "'s"));
  }
  RETURN_IF_ERROR(CheckMove(d.state(), *a, c));
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  RETURN_IF_ERROR(FireOnDeclaration(d, c, decl, true));
  // l.9: a held act set off by the move may damage someone: a held act on
  // that damage (is_damaged) fires after it, as after any action.
  return FireOnChanges(d, c, decl);
}

}  // namespace combat::kernel::aprp
