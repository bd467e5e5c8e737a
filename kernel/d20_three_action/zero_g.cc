// Zero-G / Free Fall (L85): squares of terrain `zero_g` have no gravity.
//
//  - A creature that does not fly moves only by pushing off: a `move` in
//    zero-G is a straight line. Off a fixed object (a `wall` or `cover`
//    square it touches, or a creature at least 2 sizes larger: param
//    push_off "wall" or the creature's id) up to its Speed; off an unfixed
//    creature within 1 size (push_off = its id) up to half its Speed, and
//    that creature moves as far the opposite way.
//  - Both keep moving (until they leave the zero_g squares) (condition `drifting`: level = ft, note = "dx,dy",
//    source = the creature whose turn start moves it): the pusher at its
//    Speed (half its Speed off an unfixed object), the pushed creature at
//    half the pusher's Speed, "at the beginning of your Turn every Round
//    until you run into something" (a wall, a cover square, a creature or
//    the map's edge).
//  - "If you make an Attack or are hit while not touching a fixed Object you
//    must spend an Action to Stabilize yourself or take Disadvantage on all
//    Attack rolls until you touch a fixed Object": condition `unsteady`,
//    ended by `stabilize` (1 Action) or by touching a fixed object.
//
// Readings: touching = a `wall` or `cover` square in or next to the
// creature's space (diagonals count); flyers fly normally (L85) and are
// not drifting, but the Stabilize sentence names no exception and applies
// to them too; nothing falls in zero-G (L83's fall needs gravity).
#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "events/status_macros.h"
#include "kernel/command.h"
#include "kernel/d20_three_action/internal.h"

namespace combat::kernel::d20 {
namespace {

bool IsFixed(const std::string& terrain) {
  return terrain == "wall" || terrain == "cover";
}

Pos Step(const Pos& from, const Pos& to) {
  return {(to.x > from.x) - (to.x < from.x), (to.y > from.y) - (to.y < from.y)};
}

std::string DirNote(Pos dir) { return absl::StrCat(dir.x, ",", dir.y); }

Pos DirOf(const std::string& note) {
  std::vector<std::string> parts = absl::StrSplit(note, ',');
  int x = 0, y = 0;
  if (parts.size() != 2 || !absl::SimpleAtoi(parts[0], &x) ||
      !absl::SimpleAtoi(parts[1], &y)) {
    return {0, 0};
  }
  return {x, y};
}

// Whether `who` and its grapple partners can take one step `dir`: the
// partners move with it (L148, L150 "If you Move the Creature ... moves with
// you"), so each one's squares must be free as its own are (a Large partner
// of a Medium drifter has squares beside the drifter's). `c` is `who` as
// far as it has come; its partners, not yet moved, are as far along.
bool CanStep(const State& s, const Combatant& c, Pos dir) {
  const Combatant* start = s.Find(c.id);
  const Pos come{c.at.x - start->at.x, c.at.y - start->at.y};
  std::vector<std::string> moving = GrapplePartners(c);
  moving.push_back(c.id);
  for (const std::string& id : moving) {
    const Combatant* m = s.Find(id);
    if (m == nullptr) continue;
    const Pos next{m->at.x + come.x + dir.x, m->at.y + come.y + dir.y};
    for (Pos q : space::SquaresOf(next, m->size)) {
      const std::string terrain = s.TerrainAt(q);
      if (IsWall(terrain) || IsFixed(terrain)) return false;
      for (const auto& [oid, o] : s.combatants) {
        if (IsDead(o) ||
            std::find(moving.begin(), moving.end(), oid) != moving.end()) {
          continue;
        }
        if (Covers(o.at, o.size, q)) return false;
      }
    }
  }
  return true;
}

// Moves `who` up to `squares` steps `dir`, stopping before anything in the
// way; returns the steps taken.
absl::StatusOr<int64_t> Float(Decision& d, const std::string& who, Pos dir,
                              int64_t squares, const Why& why) {
  std::vector<Pos> path;
  Combatant c = *d.state().Find(who);
  for (int64_t k = 0; k < squares; ++k) {
    if (!CanStep(d.state(), c, dir)) break;
    c.at = {c.at.x + dir.x, c.at.y + dir.y};
    path.push_back(c.at);
    if (!InZeroG(d.state(), c)) break;  // out of free fall: gravity again
  }
  if (path.empty()) return 0;
  const Combatant before = *d.state().Find(who);
  RETURN_IF_ERROR(Move(d, who, path, 0, true, why));
  // L156 "by entering a body of water": a drift too.
  RETURN_IF_ERROR(QuenchIfEntered(d, who, path, why.cause));
  // L148 / L150: every grapple partner moves with it.
  for (const std::string& partner : GrapplePartners(before)) {
    const Pos there = d.state().Find(partner)->at;
    std::vector<Pos> theirs;
    for (Pos p : path) {
      theirs.push_back(
          {there.x + (p.x - before.at.x), there.y + (p.y - before.at.y)});
    }
    Why w = why;
    w.note = absl::StrCat("moves with ", who);
    RETURN_IF_ERROR(Move(d, partner, theirs, 0, true, w));
    RETURN_IF_ERROR(QuenchIfEntered(d, partner, theirs, why.cause));  // L156
  }
  return static_cast<int64_t>(path.size());
}

absl::Status Drift(Decision& d, const std::string& who, int64_t ft, Pos dir,
                   const std::string& source, const Why& why) {
  RETURN_IF_ERROR(RemoveConditionsNamed(d, who, kDrifting, why));
  if (ft <= 0 || (dir.x == 0 && dir.y == 0)) return absl::OkStatus();
  NewCondition nc;
  nc.actor = who;
  nc.name = kDrifting;
  nc.source = source;
  nc.level = ft;
  nc.note = DirNote(dir);
  Why w = why;
  w.nums.push_back({"drift_ft", ft});
  return AddCondition(d, nc, w).status();
}

// What `a` pushes off: "" = a fixed object (full Speed), else the id of an
// unfixed creature within 1 size (half Speed, it moves the other way).
struct PushOff {
  bool fixed = true;
  std::string creature;  // the unfixed creature pushed away
  std::string what;      // for the audit
};

// `contact`: check that `a` touches what it pushes off (false when a move
// resumes after a readied action's window: it has already left).
absl::StatusOr<PushOff> PushOffOf(const State& s, const fb::CommandT& c,
                                  const Combatant& a, bool contact = true) {
  std::string named = ParamText(c, "push_off");
  if (named.empty() || named == "wall") {
    if (contact && !TouchingFixed(s, a)) {
      return Refuse("000.zero_g",
                    a.id +
                        " touches no fixed object: name what it pushes off "
                        "(params.push_off: a creature within 5 ft)");
    }
    return PushOff{true, "", "a fixed object"};
  }
  const Combatant* o = s.Find(named);
  if (o == nullptr || o->id == a.id) {
    return Malformed(c, "params.push_off",
                     "\"wall\" or another creature's id");
  }
  if (contact && DistanceFt(a, *o) > kSquare) {
    return Refuse("000.zero_g", o->id + " is not within 5 ft to push off");
  }
  const int64_t diff = SizeRank(*o) - SizeRank(a);
  if (diff >= 2) return PushOff{true, "", o->id + " (2 sizes larger)"};
  if (std::llabs(diff) <= 1) return PushOff{false, o->id, o->id};
  return Refuse("000.zero_g",
                o->id + " is 2 or more sizes smaller: L85 names only fixed "
                        "objects, objects 2 sizes larger and unfixed objects "
                        "within 1 size (the GM rules with gm_move)");
}

}  // namespace

bool InZeroG(const State& s, const Combatant& c) {
  for (Pos p : space::SquaresOf(c.at, c.size)) {
    if (s.TerrainAt(p) == "zero_g") return true;
  }
  return false;
}

bool TouchingFixed(const State& s, const Combatant& c) {
  for (int32_t x = c.at.x - 1; x <= c.at.x + c.size; ++x) {
    for (int32_t y = c.at.y - 1; y <= c.at.y + c.size; ++y) {
      if (IsFixed(s.TerrainAt({x, y}))) return true;
    }
  }
  return false;
}

bool ZeroGMove(const State& s, const fb::CommandT& c, const Combatant& a) {
  return ParamOr(c, "fly", 0) == 0 && InZeroG(s, a);
}

absl::Status ValidateZeroGMove(const State& s, const fb::CommandT& c,
                               const Combatant& a, const Ctx& ctx) {
  if (ParamOr(c, "continue", 0) != 0) {
    return Refuse("000.zero_g",
                  "in zero-G a Move is one push off in a straight line (no "
                  "continue)");
  }
  const std::vector<Pos> path = PathOf(c);
  if (path.empty()) {
    if (ctx.via == Via::kResumed) return absl::OkStatus();
    return Malformed(c, "path", "is empty: list the squares entered");
  }
  space::PathRules rules;
  rules.action = c.action;
  rules.rule = "000.zero_g";
  rules.cite = [](const std::string& id) { return Cite(id); };
  const std::vector<std::string> partners = GrapplePartners(a);
  rules.occupant = [&](Pos q, size_t, size_t) -> std::string {
    for (const auto& [id, o] : s.combatants) {
      if (id == a.id || IsDead(o) ||
          std::find(partners.begin(), partners.end(), id) != partners.end())
        continue;
      if (Covers(o.at, o.size, q)) return id + ": in zero-G it runs into it";
    }
    return "";
  };
  RETURN_IF_ERROR(space::CheckPath(s, kGrid.metric, a.at, a.size, path, rules));
  Pos at = a.at;
  const Pos dir = Step(a.at, path[0]);
  for (const Pos& p : path) {
    if (Step(at, p) != dir) {
      return Refuse("000.zero_g",
                    "in zero-G you move in a straight line after pushing off "
                    "(every step the same direction)");
    }
    at = p;
  }
  if (ctx.via == Via::kResumed) return absl::OkStatus();
  ASSIGN_OR_RETURN(PushOff off, PushOffOf(s, c, a));
  // L85: up to your Speed (fixed), up to half your Speed (unfixed), halved
  // rounded down to whole feet.
  const int64_t speed = MoveSpeed(a, false, nullptr);
  const int64_t allowed = off.fixed ? speed : speed / 2;
  const int64_t cost = kSquare * static_cast<int64_t>(path.size());
  if (cost > allowed) {
    return Refuse("000.zero_g",
                  absl::StrCat("pushing off ", off.what, " moves up to ",
                               allowed, " ft; the path is ", cost, " ft"));
  }
  return absl::OkStatus();
}

absl::Status AfterZeroGMove(Decision& d, const fb::CommandT& c,
                            const Combatant& before, const Ctx& ctx,
                            int64_t squares) {
  if (c.path.empty()) return absl::OkStatus();
  // A move resumed after a readied action's window (readied.cc) is the rest
  // of the path: the push off was checked when it was declared.
  ASSIGN_OR_RETURN(PushOff off, PushOffOf(d.state(), c, before,
                                          ctx.via != Via::kResumed));
  const Pos dir = Step(before.at, Pos{c.path[0].x(), c.path[0].y()});
  const int64_t speed = MoveSpeed(before, false, nullptr);
  // L85: "at you Speed" / "at half your Speed" (halved rounded down).
  const int64_t drift = off.fixed ? speed : speed / 2;
  Why why{ctx.cause,
          "000.zero_g",
          {{"speed", speed}, {"fixed", off.fixed ? 1 : 0}},
          "pushed off " + off.what + ": keeps moving at each turn start"};
  RETURN_IF_ERROR(Drift(d, c.actor, drift, dir, c.actor, why));
  if (!off.fixed) {
    // "the Object you pushed off of moves in the opposite direction at the
    // same Speed": as far as the pusher moved, then it drifts at half the
    // pusher's Speed at the start of the pusher's turns.
    const Pos back{-dir.x, -dir.y};
    Why w{ctx.cause, "000.zero_g", {{"squares", squares}},
          absl::StrCat(c.actor, " pushed off it")};
    ASSIGN_OR_RETURN(int64_t moved,
                     Float(d, off.creature, back, squares, w));
    if (moved == squares) {
      RETURN_IF_ERROR(Drift(d, off.creature, drift, back, c.actor, w));
    } else {
      RETURN_IF_ERROR(RemoveConditionsNamed(d, off.creature, kDrifting, w));
    }
  }
  return SteadyAllTouching(d, ctx.cause);
}

absl::Status DriftAtTurnStart(Decision& d, const std::string& who,
                              uint64_t cause) {
  struct Mover {
    std::string id;
    Pos dir;
    int64_t ft;
  };
  std::vector<Mover> movers;
  for (const auto& [id, c] : d.state().combatants) {
    if (IsDead(c)) continue;
    for (const Condition* k : Named(c, kDrifting)) {
      if (k->source == who) movers.push_back({id, DirOf(k->note), k->level});
    }
  }
  for (const Mover& m : movers) {
    // Whole 5 ft squares of the drift's feet, rounded down (L85 moves the
    // creature square by square on the grid).
    const int64_t squares = m.ft / kSquare;
    const Why why{cause, "000.zero_g", {{"drift_ft", m.ft}},
                  "keeps moving (zero-G)"};
    ASSIGN_OR_RETURN(int64_t moved, Float(d, m.id, m.dir, squares, why));
    if (moved < squares || !InZeroG(d.state(), *d.state().Find(m.id))) {
      RETURN_IF_ERROR(RemoveConditionsNamed(
          d, m.id, kDrifting,
          {cause, "000.zero_g", {{"moved_ft", moved * kSquare}},
           "ran into something"}));
    }
    RETURN_IF_ERROR(SteadyIfTouching(d, m.id, cause));
  }
  return SteadyAllTouching(d, cause);  // the pushed creatures, partners
}

absl::Status Unsteady(Decision& d, const std::string& who, uint64_t cause,
                      const std::string& why, std::optional<Pos> at) {
  const Combatant* found = d.state().Find(who);
  if (found == nullptr || IsDead(*found) || found->Has(kUnsteady)) {
    return absl::OkStatus();
  }
  Combatant c = *found;
  if (at.has_value()) c.at = *at;  // where it is when it attacks
  if (!InZeroG(d.state(), c) || TouchingFixed(d.state(), c)) {
    return absl::OkStatus();
  }
  return Apply(d, who, kUnsteady, who, 0, std::nullopt,
               {cause, "000.zero_g", {},
                why + " while not touching a fixed object: Disadvantage on "
                      "all Attack rolls until it stabilizes or touches one"})
      .status();
}

absl::Status SteadyIfTouching(Decision& d, const std::string& who,
                              uint64_t cause) {
  const Combatant* c = d.state().Find(who);
  if (c == nullptr || !c->Has(kUnsteady) || !TouchingFixed(d.state(), *c)) {
    return absl::OkStatus();
  }
  return RemoveConditionsNamed(
      d, who, kUnsteady, {cause, "000.zero_g", {}, "touches a fixed object"});
}

absl::Status SteadyAllTouching(Decision& d, uint64_t cause) {
  std::vector<std::string> ids;
  for (const auto& [id, c] : d.state().combatants) {
    if (c.Has(kUnsteady) && TouchingFixed(d.state(), c)) ids.push_back(id);
  }
  for (const std::string& id : ids) {
    RETURN_IF_ERROR(SteadyIfTouching(d, id, cause));
  }
  return absl::OkStatus();
}

absl::Status ValidateStabilize(const State& s, const fb::CommandT& c,
                               const Ctx& ctx) {
  (void)ctx;
  ASSIGN_OR_RETURN(const Combatant* a, Actor(s, c));
  if (!a->Has(kUnsteady)) {
    return Refuse("000.zero_g", a->id + " has nothing to stabilize from");
  }
  return absl::OkStatus();
}

absl::Status ResolveStabilize(Decision& d, const fb::CommandT& c,
                              const Ctx& ctx) {
  return RemoveConditionsNamed(
      d, c.actor, kUnsteady,
      {ctx.cause, "000.zero_g", {}, "spent an Action to stabilize"});
}

}  // namespace combat::kernel::d20
