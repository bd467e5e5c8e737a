// Movement (l.128-175): AP buys yards into a per-round pool by the table of
// the movement rate (Strength + Size + Athletics), the pool is spent along
// a path on the 1-yard grid (every second diagonal 2 yards, terrain costs
// multiplying), and is lost at the end of the round. Dash (l.222).
//
// Readings: each `buy_move` spends 1 to 4 AP and may be repeated; the
// yards are the table's for the AP spent on movement this round in all
// (beyond 4 AP: full movements of 4 AP plus the rest's column); the alternating diagonal count runs over the round's
// movement. Buying movement is allowed at any time (l.160). Moving on another's turn needs an
// initiative higher than the active character's, like an action out of
// turn, but costs no initiative (l.160). Terrain names (map terrain, "+"
// joining several): hill, knee_water, mud, difficult 2; undergrowth,
// swimming 3; waist_water, vertical 4; underwater 10 (l.165-174).
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "events/status_macros.h"
#include "kernel/pending.h"
#include "kernel/window.h"
#include "kernel/wound_slots/internal.h"

namespace combat::kernel::wound_slots {
namespace {

int64_t TerrainFactor(const std::string& name) {
  if (name == "hill" || name == "knee_water" || name == "mud" || name == "difficult") return 2;
  if (name == "undergrowth" || name == "swimming") return 3;
  if (name == "waist_water" || name == "vertical") return 4;
  if (name == "underwater") return 10;
  return 1;
}

// The parts of square `p`'s terrain: map terrain names, "+" joining several
// (l.163 "multiply them together").
std::vector<std::string> TerrainParts(const State& s, Pos p) { return absl::StrSplit(s.TerrainAt(p), '+'); }

}  // namespace

// l.162-174: a square whose terrain (any part of a `+` join) costs more
// than normal movement is difficult terrain.
bool DifficultAt(const State& s, Pos p) {
  for (const std::string& part : TerrainParts(s, p)) {
    if (TerrainFactor(part) > 1) return true;
  }
  return false;
}

int64_t EffectiveRate(const Combatant& c) {
  int64_t rate = MovementRate(c);
  if (const Condition* dash = c.FindCondition("Dashing"); dash != nullptr) {
    rate = 2 * rate + dash->level;  // l.222
  }
  return rate;
}

namespace {

absl::Status CheckMayMove(const State& s, const Combatant& c) {
  if (s.IsTurnOf(c.id)) return absl::OkStatus();
  if (s.active.empty()) return Refuse("001.round", "no turn is running");
  if (InitiativeOf(s, c.id) <= InitiativeOf(s, s.active)) {
    return Refuse("001.move.pool", absl::StrCat("moving on ", s.active, "'s turn needs a higher initiative than its ",
                                                InitiativeOf(s, s.active)));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckBuyMove(const State& s, const Combatant& c, const fb::CommandT& cmd) {
  const int64_t ap = ParamOr(cmd, "ap", 4);
  if (ap < 1 || ap > 4) return Malformed(cmd, "params.ap", "1 to 4 AP per purchase (l.133)");
  if (const Condition* drag = c.FindCondition("Dragging"); drag != nullptr && ap > drag->level) {
    return Refuse("001.drag", absl::StrCat("dragging: up to 4 AP on movement this round, ", drag->level, " left"));
  }
  if (c.Has("Pinned") || c.Has("Immobile")) return Refuse("001.pin", c.id + " cannot move");
  // l.160: "You can spend AP to increase your movement pool at any time":
  // buying needs no turn nor initiative; moving on another's turn needs the
  // higher initiative (DecideMove).
  if (s.active.empty()) return Refuse("001.round", "no turn is running");
  return absl::OkStatus();
}

absl::Status ResolveBuyMove(Decision& d, const fb::CommandT& cmd, uint64_t cause) {
  const Combatant c = *d.state().Find(cmd.actor);
  const int64_t ap = ParamOr(cmd, "ap", 4);
  const int64_t rate = EffectiveRate(c);
  // l.160: "A full movement costs 4 AP and moves you ... your movement
  // rate"; fewer AP "a proportionally shorter distance, up to the limits
  // indicated in the table". The table's column is the AP spent on movement
  // this round in all (so 2 AP + 2 AP is the 4 AP column, not twice the 2
  // AP column); a purchase adds what its AP add to the round's total.
  const int64_t before = c.Resource(res::kMoveAp);
  const int64_t yards = YardsBought(rate, before, ap);
  return SpendApOnMovement(
      d, c.id, ap, yards,
      {cause, "001.move.pool", {{"movement_rate", rate}, {"ap", ap}, {"ap_this_round", before + ap}, {"yards", yards}}},
      "movement");
}

absl::Status SpendApOnMovement(Decision& d, const std::string& id, int64_t ap, int64_t yards, const Why& pool,
                               const std::string& what) {
  const uint64_t cause = pool.cause;
  const Combatant& c = *d.state().Find(id);
  if (const Condition* k = c.FindCondition("Ridden"); k != nullptr && !c.HasTag("sentient")) {
    // l.280: "Controlling your mount's movement requires spending AP equal
    // to that spent by the mount to move".
    const std::string rider = k->relative_to;
    const int64_t have = d.state().Find(rider)->Resource(res::kAp);
    if (have < ap) {
      return Refuse("001.mount", absl::StrCat(rider, " has ", have, " AP: controlling the mount's ", what, " costs ", ap));
    }
    RETURN_IF_ERROR(SpendAp(d, rider, ap, {cause, "001.mount", {{"mount_ap", ap}}, "controls the mount's " + what}));
  }
  if (const Condition* drag = d.state().Find(id)->FindCondition("Dragging"); drag != nullptr) {
    // l.228: up to 4 AP on movement before the end of the round.
    const Condition k = *drag;
    // The movement those AP buy moves "all others involved in the grapple
    // with you": Dragging stays until the round ends (its level the AP left
    // to spend on movement, 0 once the 4 are spent), carrying them.
    RETURN_IF_ERROR(RemoveCondition(d, id, k.id, {cause, "001.drag", {{"ap", ap}}}));
    RETURN_IF_ERROR(Impose(d, id, "Dragging", id, k.expiry, {cause, "001.drag", {{"ap_left", k.level - ap}}},
                           std::max<int64_t>(0, k.level - ap)).status());
  }
  RETURN_IF_ERROR(AddResource(d, id, res::kMovePool, yards, pool).status());
  return AddResource(d, id, res::kMoveAp, ap, {cause, "001.move.pool", {{"ap", ap}}}).status();
}

absl::Status CheckDash(const State& s, const Combatant& c, const fb::CommandT&) {
  if (c.Has("Dashing") && c.Resource(res::kDashed) == s.round) {
    return Refuse("001.act.dash", "the movement rate increases this way only once per round");
  }
  return absl::OkStatus();
}

absl::Status ResolveDash(Decision& d, const fb::CommandT& cmd, uint64_t cause) {
  const Combatant c = *d.state().Find(cmd.actor);
  const Condition* dash = c.FindCondition("Dashing");
  if (dash == nullptr) {
    return Impose(d, c.id, "Dashing", c.id, ForRounds(d.state(), 1),
                  {cause, "001.act.dash", {{"movement_rate", MovementRate(c)}}, "movement rate doubled until the end of the round"})
        .status();
  }
  Nums nums;
  const std::string mode = c.HasTag("swimmer") ? "swimming" : c.HasTag("flyer") ? "flying" : "running";
  const int64_t bonus = CheckBonus(c, "str", "athletics", mode, &nums);
  ASSIGN_OR_RETURN(CheckRoll r, RollCheck(d, c.id, bonus, "dash athletics", cause));
  const int64_t extra = std::max<int64_t>(0, FloorDiv(r.total, 3));  // l.222: per 3 points, rounded down
  nums.push_back({"d20", r.natural});
  nums.push_back({"result", r.total});
  nums.push_back({"extra_rate", extra});
  const uint32_t id = dash->id;
  RETURN_IF_ERROR(RemoveCondition(d, c.id, id, {cause, "001.act.dash", {}, "dashing again"}));
  RETURN_IF_ERROR(Impose(d, c.id, "Dashing", c.id, ForRounds(d.state(), 1), {cause, "001.act.dash", nums}, extra).status());
  return SetResource(d, c.id, res::kDashed, d.state().round, {cause, "001.act.dash"});
}

namespace {

space::PathRules RulesFor(const State& s, const std::string& action, const std::string& self) {
  space::PathRules rules;
  rules.action = action;
  rules.rule = "001.move.path";
  rules.cite = [](const std::string& r) { return Cite(r); };
  const Combatant* me = s.Find(self);
  const std::vector<std::string> carried = me == nullptr ? std::vector<std::string>{} : CarriedBy(*me);
  rules.occupant = [&s, self, carried](Pos p, size_t, size_t) {
    const Combatant* o = s.OccupantAt(p, self);
    if (o == nullptr || IsDead(*o)) return std::string();
    if (std::find(carried.begin(), carried.end(), o->id) != carried.end()) return std::string();
    return o->id;
  };
  return rules;
}

struct Priced {
  int64_t cost = 0;
  int64_t yards = 0;  // the distance, without terrain or occupied-space factors
  int64_t diagonals = 0;
  std::vector<std::string> why;
};

Priced Price(const State& s, const Combatant& mover, const std::vector<Pos>& path) {
  space::PathWalker walk(kGrid, mover.at, mover.Resource(res::kDiagonals));
  space::PathWalker plain(kGrid, mover.at, mover.Resource(res::kDiagonals));
  Priced out;
  for (const Pos& p : path) {
    int64_t factor = 1;
    for (const auto& [cid, k] : mover.conditions) {
      const Combatant* other = k.name == "SharingSpace" ? s.Find(k.relative_to) : nullptr;
      if (other != nullptr && space::Covers(other->at, other->size, p)) {
        factor *= 2;  // l.216: movement within their space costs double
        out.why.push_back("occupied space");
      }
    }
    for (const std::string& part : TerrainParts(s, p)) {
      const int64_t f = TerrainFactor(part);
      if (f > 1) out.why.push_back(part);
      factor *= f;  // l.163: multiply them together
    }
    walk.Step(p, factor);
    plain.Step(p, 1);
  }
  out.yards = plain.cost();
  out.cost = walk.cost();
  out.diagonals = walk.diagonals();
  return out;
}

}  // namespace

// Who moves along with `mover`: its rider (l.280) and, while it drags,
// everyone in its grapple (l.228).
std::vector<std::string> CarriedBy(const Combatant& mover) {
  std::vector<std::string> out;
  for (const auto& [id, k] : mover.conditions) {
    if (k.name == "Ridden") out.push_back(k.relative_to);
  }
  if (mover.Has("Dragging")) {
    for (const auto& [id, k] : mover.conditions) {
      if (k.name == "Grappling") out.push_back(k.relative_to);
    }
  }
  return out;
}

namespace {

// Moves the carried creatures by the same steps (forced: they do not pay).
absl::Status MoveCarried(Decision& d, const Combatant& mover, const std::vector<Pos>& steps,
                         const std::vector<std::string>& carried, uint64_t cause) {
  for (const std::string& id : carried) {
    const Combatant* o = d.state().Find(id);
    if (o == nullptr) continue;
    std::vector<Pos> path;
    for (const Pos& p : steps) path.push_back(Pos{o->at.x + p.x - mover.at.x, o->at.y + p.y - mover.at.y});
    for (size_t i = 0; i < path.size(); ++i) {
      const std::string t = d.state().TerrainAt(path[i]);
      if (t == "wall" || t == "offmap") {
        return Refuse("001.move.path", absl::StrCat(id, " moving along would enter ", t, " at ", space::Sq(path[i])));
      }
    }
    RETURN_IF_ERROR(Move(d, id, path, 0, true,
                         {cause, o->Has("Riding") ? "001.mount" : o->FindRelative("Clinging", mover.id) != nullptr ? "001.cling" : "001.drag",
                          {}, "moves with " + mover.id}));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CarryAlong(Decision& d, const Combatant& mover, const std::vector<Pos>& steps, uint64_t cause) {
  return MoveCarried(d, mover, steps, CarriedBy(mover), cause);
}

// l.281: an untrained mount's rider checks "each time ... you come into
// reach of an enemy's melee weapon": after `before` (the creature that
// moved, as it was) moved along `steps`, every rider of an untrained mount
// coming, at a step, within an enemy's melee reach it was not within at the
// step before, whether its mount carried it there or the enemy came up to
// it (reading: "come into reach" names no mover), checks or loses control;
// a path passing through the reach and out again comes into it too, and
// each entry is a time.
absl::Status UntrainedReach(Decision& d, const Combatant& before, const std::vector<Pos>& steps, uint64_t cause) {
  if (steps.empty()) return absl::OkStatus();
  std::vector<std::string> riders;
  for (const auto& [id, m] : d.state().combatants) {
    const Condition* k = m.FindCondition("Ridden");
    if (k == nullptr || !m.HasTag("untrained")) continue;
    const Combatant* rider = d.state().Find(k->relative_to);
    if (rider != nullptr && !rider->Has("Uncontrolled")) riders.push_back(rider->id);
  }
  // Those that moved with `before` (its rider, those it drags: l.280,
  // l.228): at each step, their space now shifted back by the mover's way
  // still to go (l.220: a rider's space is its mount's, SpaceOf).
  std::vector<std::string> moved = CarriedBy(before);
  moved.push_back(before.id);
  const Pos end = steps.back();
  auto space_at = [&](const Combatant& c, const Pos& mover_at) {
    Space sp = SpaceOf(d.state(), c);
    const Condition* k = c.FindCondition("Riding");
    const bool shifted = std::find(moved.begin(), moved.end(), c.id) != moved.end() ||
                         (k != nullptr && std::find(moved.begin(), moved.end(), k->relative_to) != moved.end());
    if (shifted) sp.at = Pos{sp.at.x + mover_at.x - end.x, sp.at.y + mover_at.y - end.y};
    return sp;
  };
  for (const std::string& rid : riders) {
    for (size_t i = 0; i < steps.size(); ++i) {
      const Combatant* rider = d.state().Find(rid);
      if (rider->Has("Uncontrolled")) break;
      const Combatant* m = d.state().Find(rider->FindCondition("Riding")->relative_to);
      const Pos was_at = i == 0 ? before.at : steps[i - 1];
      bool entered = false;
      for (const auto& [id, o] : d.state().combatants) {
        if (o.side == m->side || IsOut(o)) continue;
        // l.280: the rider is "considered 1 yard farther from creatures on
        // the ground smaller than your mount" (attack.cc MountedGap).
        const int64_t gap = MountedGap(d.state(), *rider, o);
        const Space rb = space_at(*rider, was_at), ob = space_at(o, was_at);
        const Space rn = space_at(*rider, steps[i]), on = space_at(o, steps[i]);
        // The yards between the spaces, adjacent 0 (l.230; YardsBetween).
        const int64_t was = space::Distance(kGrid, rb.at, rb.size, ob.at, ob.size) - 1 + gap;
        const int64_t now = space::Distance(kGrid, rn.at, rn.size, on.at, on.size) - 1 + gap;
        for (const Weapon& w : o.weapons) {
          if (IsRanged(w) || Dropped(o, w)) continue;
          entered = entered || (was > Reach(&w) && now <= Reach(&w));
        }
      }
      if (!entered) continue;
      const int64_t tn = m->Stat("control_tn", 5);
      const std::string mid = m->id;
      ASSIGN_OR_RETURN(CheckRoll r, RollCheck(d, rid, CheckBonus(*rider, "prs", "nature", "riding", nullptr),
                                              "riding check (enemy reach)", cause));
      Nums n{{"d20", r.natural}, {"result", r.total}, {"tn", tn}, {"step", static_cast<int64_t>(i)}};
      if (r.total >= tn) {
        RETURN_IF_ERROR(RecordOutcome(d, rid, {cause, "001.mount.untrained", n, "keeps control"}));
      } else {
        RETURN_IF_ERROR(Impose(d, rid, "Uncontrolled", mid, {}, {cause, "001.mount.untrained", n, "loses control of the mount"}, 0, mid)
                            .status());
      }
    }
  }
  return absl::OkStatus();
}

absl::Status NoteYardsMoved(Decision& d, const std::string& who, int64_t yards, uint64_t cause) {
  const Combatant* c = d.state().Find(who);
  const int64_t before = c->Resource("moved_round") == d.state().round ? c->Resource("moved_yards") : 0;
  RETURN_IF_ERROR(SetResource(d, who, "moved_yards", before + yards, {cause, "001.jump", {}, "yards moved this round"}));
  if (d.state().Find(who)->Resource("moved_round") != d.state().round) {
    RETURN_IF_ERROR(SetResource(d, who, "moved_round", d.state().round, {cause, "001.jump"}));
  }
  return absl::OkStatus();
}

// l.226: each grappler clinging to `mover` (as it stood before `steps`)
// moves with it, a yard per 5 points of its Cling.
absl::Status CarryClingers(Decision& d, const Combatant& mover, const std::vector<Pos>& steps, uint64_t cause) {
  const std::string& self = mover.id;
  // Clinging to the mover, or to its rider, carried with it (l.220, l.280).
  const Condition* ridden = mover.FindCondition("Ridden");
  const std::string rider = ridden == nullptr ? "" : ridden->relative_to;
  std::vector<std::pair<std::string, Condition>> clingers;
  for (const auto& [id, o] : d.state().combatants) {
    for (const auto& [cid, k] : o.conditions) {
      if (k.name == "Clinging" && (k.relative_to == self || (!rider.empty() && k.relative_to == rider)) && k.level > 0) {
        clingers.emplace_back(id, k);
      }
    }
  }
  for (const auto& [id, k] : clingers) {
    // The yards are the grid's (l.161: every second diagonal step 2 yards,
    // counted from the clinger's first step along, across every part of a
    // move split by a window): as many steps as fit.
    const Pos from = d.state().Find(id)->at;
    const int64_t diagonals = d.state().Find(id)->Resource(res::kClingDiagonals);
    space::PathWalker walk(kGrid, from, diagonals);
    size_t n = 0;
    for (const Pos& p : steps) {
      space::PathWalker next = walk;
      next.Step(Pos{from.x + p.x - mover.at.x, from.y + p.y - mover.at.y});
      if (next.cost() > k.level) break;
      walk = next;
      ++n;
    }
    if (n > 0) RETURN_IF_ERROR(MoveCarried(d, mover, std::vector<Pos>(steps.begin(), steps.begin() + n), {id}, cause));
    RETURN_IF_ERROR(RemoveCondition(d, id, k.id, {cause, "001.cling", {{"yards", walk.cost()}}}));
    if (walk.diagonals() != diagonals) {
      RETURN_IF_ERROR(SetResource(d, id, res::kClingDiagonals, walk.diagonals(), {cause, "001.cling", {}, "diagonals moved along"}));
    }
    if (k.level - walk.cost() > 0) {
      RETURN_IF_ERROR(Impose(d, id, "Clinging", id, k.expiry, {cause, "001.cling", {}}, k.level - walk.cost(), k.relative_to).status());
    }
  }
  return absl::OkStatus();
}

namespace {

// Moves `who` along `steps` (checked), paying from its pool.
absl::Status MoveSteps(Decision& d, const std::string& self, const std::vector<Pos>& steps, uint64_t cause) {
  if (steps.empty()) return absl::OkStatus();
  const Combatant mover = *d.state().Find(self);
  const Priced p = Price(d.state(), mover, steps);
  const int64_t pool = mover.Resource(res::kMovePool);
  if (p.cost > pool) {
    return Refuse("001.move.pool", absl::StrCat("the path costs ", p.cost, " yd and ", self, " has ", pool,
                                                " yd of movement this round (buy_move spends AP for more)"));
  }
  RETURN_IF_ERROR(Move(d, self, steps, p.cost, false,
                       {cause, p.why.empty() ? "001.move.grid" : "001.move.terrain", {{"cost", p.cost}, {"pool", pool}},
                        p.why.empty() ? "" : absl::StrCat("terrain: ", absl::StrJoin(p.why, ", "))}));
  RETURN_IF_ERROR(MoveCarried(d, mover, steps, CarriedBy(mover), cause));
  RETURN_IF_ERROR(CarryClingers(d, mover, steps, cause));
  RETURN_IF_ERROR(UntrainedReach(d, mover, steps, cause));
  RETURN_IF_ERROR(AddResource(d, self, res::kMovePool, -p.cost, {cause, "001.move.pool", {{"cost", p.cost}}}).status());
  RETURN_IF_ERROR(NoteYardsMoved(d, self, p.yards, cause));
  if (p.diagonals != d.state().Find(self)->Resource(res::kDiagonals)) {
    RETURN_IF_ERROR(SetResource(d, self, res::kDiagonals, p.diagonals, {cause, "001.move.grid", {}, "diagonals this round"}));
  }
  return EndSharedSpaces(d, cause);
}

}  // namespace

absl::Status EndSharedSpaces(Decision& d, uint64_t cause) {
  // l.216: "While you are in the same space": the -2 ends when the two no
  // longer share a square.
  std::vector<std::pair<std::string, uint32_t>> ended;
  for (const auto& [id, c] : d.state().combatants) {
    for (const auto& [cid, k] : c.conditions) {
      if (k.name != "SharingSpace") continue;
      const Combatant* o = d.state().Find(k.relative_to);
      const bool shared = o != nullptr && (space::Covers(o->at, o->size, c.at) || space::Covers(c.at, c.size, o->at));
      if (!shared) ended.emplace_back(id, cid);
    }
  }
  for (const auto& [id, cid] : ended) {
    RETURN_IF_ERROR(RemoveCondition(d, id, cid, {cause, "001.act.enter", {}, "no longer in the same space"}));
  }
  RETURN_IF_ERROR(EndApartGrapples(d, cause));
  return UnderwaterTerrain(d, cause);
}

absl::Status UnderwaterTerrain(Decision& d, uint64_t cause) {
  std::vector<std::string> in;
  std::vector<std::pair<std::string, uint32_t>> out;
  for (const auto& [id, c] : d.state().combatants) {
    // GM ruling point (l.174, l.275 are silent on a creature larger than a
    // square): it is underwater when every square of its space is; partly
    // in the water, the GM decides (`gm_condition` Underwater).
    bool wet = true;
    for (const Pos& p : space::SquaresOf(c.at, c.size)) {
      const std::vector<std::string> parts = TerrainParts(d.state(), p);
      wet = wet && std::find(parts.begin(), parts.end(), "underwater") != parts.end();
    }
    const Condition* had = nullptr;
    for (const auto& [cid, k] : c.conditions) {
      if (k.name == "Underwater" && k.source == "terrain") had = &k;
    }
    if (wet && had == nullptr) in.push_back(id);
    if (!wet && had != nullptr) out.emplace_back(id, had->id);
  }
  for (const auto& [id, cid] : out) {
    RETURN_IF_ERROR(RemoveCondition(d, id, cid, {cause, "001.underwater", {}, "out of the water"}));
  }
  for (const std::string& id : in) {
    RETURN_IF_ERROR(Impose(d, id, "Underwater", "terrain", {}, {cause, "001.underwater", {}, "on an underwater square (l.174)"}).status());
  }
  return absl::OkStatus();
}

absl::Status EndApartGrapples(Decision& d, uint64_t cause) {
  // l.230: a grapple is "close-quarters", with "an adjacent target"; l.225:
  // Cling's trigger is the grappled target "about to move out of reach".
  // Once the two are no longer adjacent (a move Cling did not hold, a
  // shove, a jump), neither grapples the other, and a pin by the one gone
  // ends with it (l.235: pinning is done "while grappling").
  std::vector<std::pair<std::string, uint32_t>> ended;
  for (const auto& [id, c] : d.state().combatants) {
    for (const auto& [cid, k] : c.conditions) {
      if (k.name != "Grappling" && k.name != "Pinned") continue;
      const std::string other = k.name == "Grappling" ? k.relative_to : k.source;
      const Combatant* o = d.state().Find(other);  // a GM's pin names no combatant: kept
      if (o != nullptr && !Adjacent(d.state(), c, *o)) ended.emplace_back(id, cid);  // l.280's yard too
    }
  }
  for (const auto& [id, cid] : ended) {
    RETURN_IF_ERROR(RemoveCondition(d, id, cid, {cause, "001.grapple", {}, "no longer adjacent: the grapple ends"}));
  }
  return absl::OkStatus();
}

std::string ReadyMarkText(const std::string& entry) {
  if (!absl::StartsWith(entry, kReadyMark)) return entry;
  return absl::StrCat(entry.substr(sizeof(kReadyMark) - 1), " (readied)");
}

namespace {

// l.189: hostile creatures whose melee reach the mover would enter at a
// step of `path` (from outside it): the first such step and who. Each
// reacts once per move (`reacted`, l.125).
struct Approach {
  size_t step = 0;
  std::vector<std::string> who;
  std::vector<std::string> clingers;  // of `who`, those answering by Cling's trigger (l.225)
  std::vector<std::string> readied;   // of `who`, those with a readied action (l.204)
  std::vector<std::string> rebuffers;  // of `who`, those answering by Rebuff's trigger (l.189)
};
Approach FindApproach(const State& s, const Combatant& mover, const std::vector<Pos>& path,
                      const std::vector<std::string>& reacted) {
  const Verb* rebuff = FindVerb("rebuff");
  const Verb* cling = FindVerb("cling");
  Approach out;
  Pos at = mover.at;
  const std::vector<std::string> carried = CarriedBy(mover);  // they move with it (l.228, l.280)
  // l.225 "A target you are grappling is about to move out of reach": the
  // mover, or its rider, carried in its space (l.220, l.280).
  std::vector<std::string> targets = {mover.id};
  if (const Condition* k = mover.FindCondition("Ridden"); k != nullptr) targets.push_back(k->relative_to);
  auto relative_to_any = [&](const Combatant& o, const char* name) {
    for (const std::string& t : targets) {
      if (o.FindRelative(name, t) != nullptr) return true;
    }
    return false;
  };
  for (size_t i = 0; i < path.size(); ++i) {
    for (const auto& [id, o] : s.combatants) {
      const bool grappler = relative_to_any(o, "Grappling");
      if (id == mover.id || (o.side == mover.side && !grappler) || IsOut(o) || o.Has("Pinned") || InitiativeOf(s, id) <= 0) continue;
      if (relative_to_any(o, "Clinging")) continue;  // moving with it
      if (std::find(carried.begin(), carried.end(), id) != carried.end()) continue;  // dragged or ridden along
      if (std::find(reacted.begin(), reacted.end(), id) != reacted.end()) continue;
      const Weapon* w = nullptr;
      for (const Weapon& x : o.weapons) {
        if (!IsRanged(x) && !Dropped(o, x)) { w = &x; break; }
      }
      const bool may_rebuff = w != nullptr && o.Resource(res::kAp) >= CostOf(o, *rebuff, fb::CommandT{});
      // l.280: a rider is "considered 1 yard farther from creatures on the
      // ground smaller than your mount" (attack.cc MountedGap).
      const int64_t gap = MountedGap(s, o, mover);
      const Space os = SpaceOf(s, o);  // a rider's is its mount's (l.220)
      // The yards between the spaces, adjacent 0, the same space -1 (l.230;
      // YardsBetween): the step from no closer than the reach to closer.
      const int64_t before = space::Distance(kGrid, at, mover.size, os.at, os.size) - 1 + gap;
      const int64_t after = space::Distance(kGrid, path[i], mover.size, os.at, os.size) - 1 + gap;
      if (may_rebuff && before >= Reach(w) && after < Reach(w)) {
        out.who.push_back(id);
        out.rebuffers.push_back(id);
      }
      // l.225: Cling's trigger: a creature grappling the mover that it is
      // about to leave the reach of: the grapple's, adjacent (l.230), with
      // or without a weapon in hand (Cling is a Power check).
      else if (grappler && o.Resource(res::kAp) >= CostOf(o, *cling, fb::CommandT{}) && before - gap <= 0 && after - gap > 0) {
        out.who.push_back(id);
        out.clingers.push_back(id);
      }
    }
    if (i == 0) {
      // l.204: a readied action is taken "in response to any event": a
      // move is one; the window opens before its first step (reading: the
      // text names no yard), once per move (`reacted`).
      for (const auto& [id, o] : s.combatants) {
        // l.235: a pinned creature takes no other action than Escape.
        if (id == mover.id || !o.Has("Readied") || IsOut(o) || o.Has("Pinned") || InitiativeOf(s, id) <= 0 || o.Resource(res::kAp) < 1) continue;
        if (std::find(carried.begin(), carried.end(), id) != carried.end()) continue;
        if (std::find(reacted.begin(), reacted.end(), id) != reacted.end()) continue;
        if (std::find(reacted.begin(), reacted.end(), absl::StrCat(kReadyMark, id)) != reacted.end()) continue;
        out.readied.push_back(id);
        if (std::find(out.who.begin(), out.who.end(), id) == out.who.end()) out.who.push_back(id);
      }
    }
    if (!out.who.empty()) {
      out.step = i;
      return out;
    }
    at = path[i];
  }
  return out;
}

// l.125 "You can only take a single reaction in response to a specific
// trigger": a readied action's trigger, the move itself (l.204 "any
// event"), is neither Rebuff's (l.189) nor Cling's (l.225). One whose window
// was its readied action's only is noted `kReadyMark` + id: no second
// readied window on the move, but a later step coming closer than its reach,
// or leaving its grapple, still opens one for it (was: none).
void NoteReacted(const Approach& a, std::vector<std::string>& reacted) {
  for (const std::string& w : a.who) {
    const bool own = std::find(a.rebuffers.begin(), a.rebuffers.end(), w) != a.rebuffers.end() ||
                     std::find(a.clingers.begin(), a.clingers.end(), w) != a.clingers.end();
    reacted.push_back(own ? w : absl::StrCat(kReadyMark, w));
  }
}

}  // namespace

JumpReactors ForJump(const State& s, const Combatant& mover, const std::vector<Pos>& path) {
  JumpReactors out;
  std::vector<std::string> reacted;
  for (;;) {
    const Approach a = FindApproach(s, mover, path, reacted);
    if (a.who.empty()) return out;
    // FindApproach stops at the first step someone answers; the rest of
    // the path is searched again without them.
    NoteReacted(a, reacted);
    for (const std::string& w : a.who) {  // a readied one may come again as a rebuffer or clinger
      if (std::find(out.who.begin(), out.who.end(), w) == out.who.end()) out.who.push_back(w);
    }
    out.rebuffers.insert(out.rebuffers.end(), a.rebuffers.begin(), a.rebuffers.end());
    out.readied.insert(out.readied.end(), a.readied.begin(), a.readied.end());
    out.clingers.insert(out.clingers.end(), a.clingers.begin(), a.clingers.end());
  }
}

absl::Status MoveFrom(Decision& d, const std::string& self, const std::vector<Pos>& path,
                      const fb::CommandT& cmd, uint64_t cause, std::vector<std::string> reacted) {
  const Combatant mover = *d.state().Find(self);
  const Approach a = FindApproach(d.state(), mover, path, reacted);
  if (a.who.empty()) return MoveSteps(d, self, path, cause);
  RETURN_IF_ERROR(MoveSteps(d, self, std::vector<Pos>(path.begin(), path.begin() + a.step), cause));
  fb::CommandT rest = cmd;
  rest.path.clear();
  for (size_t i = a.step; i < path.size(); ++i) rest.path.emplace_back(path[i].x, path[i].y);
  NoteReacted(a, reacted);
  NewPending p;
  p.kind = kHeldBack;
  p.actor = self;
  p.decl = cause;
  p.command = rest;
  p.progress = static_cast<int64_t>(a.step);
  p.reacted = reacted;
  // Rebuff's trigger (l.189), Cling's (l.225) or a readied action's
  // (l.204): the window says which.
  const std::vector<std::string>& rebuffers = a.rebuffers;
  const char* rule = !rebuffers.empty() ? "001.act.rebuff" : !a.clingers.empty() ? "001.cling" : "001.act.ready";
  std::vector<std::string> may;
  if (!rebuffers.empty()) may.push_back("may rebuff: " + absl::StrJoin(rebuffers, ", "));
  if (!a.readied.empty()) may.push_back("may take a readied action: " + absl::StrJoin(a.readied, ", "));
  if (!a.clingers.empty()) may.push_back("may cling: " + absl::StrJoin(a.clingers, ", "));
  ASSIGN_OR_RETURN(uint32_t id, OpenPending(d, p, {cause, rule, {{"step", static_cast<int64_t>(a.step)}},
                                                   !rebuffers.empty() ? "approaching within reach: the move waits for rebuffs"
                                                   : !a.clingers.empty()   ? "leaving a grappler's reach: the move waits for Cling"
                                                                           : "a move: the move waits for readied actions (l.204 'any event')"}));
  WindowSpec w;
  w.trigger = cause;
  w.kind = "approach";
  w.eligible = a.who;
  w.policy = fb::AnswerPolicy::AnyOrder;
  w.pay = fb::PayWhen::AtResolution;
  w.pending = id;
  return OpenWindow(d, w, {cause, rule, {}, absl::StrJoin(may, "; ")}).status();
}

// l.226 "prevent the target's movement ... reduce the target's movement by
// 1 yard": the move in progress (held in the window `window`) loses its last
// `yards` yards of distance, so the target walks that much less of it; all
// of it when the cut covers the rest. Returns the yards cut.
absl::StatusOr<int64_t> CutHeldMove(Decision& d, uint32_t window, int64_t yards, uint64_t cause) {
  const State& s = d.state();
  auto it = s.windows.find(window);
  const PendingAct* held = it == s.windows.end() ? nullptr : s.FindPending(it->second.pending);
  if (held == nullptr || (held->command->action != "move" && held->command->action != "jump") || yards <= 0) return 0;
  const Combatant* mover = s.Find(held->actor);
  std::vector<Pos> path = PathOf(held->command);
  const int64_t full = Price(s, *mover, path).yards;
  while (!path.empty() && Price(s, *mover, path).yards > full - yards) path.pop_back();
  const int64_t cut = full - Price(s, *mover, path).yards;
  if (cut <= 0) return 0;
  fb::CommandT rest = held->command.object();
  rest.path.clear();
  for (const Pos& p : path) rest.path.emplace_back(p.x, p.y);
  RETURN_IF_ERROR(UpdatePending(d, held->id, held->progress, &rest, nullptr,
                                {cause, "001.cling", {{"reduce", yards}, {"path_yards", full}, {"cut_yards", cut}},
                                 path.empty() ? "the move is prevented" : "the move in progress is cut short"}));
  return cut;
}

absl::Status ContinueMove(Decision& d, const PendingAct& held, uint64_t cause) {
  const Combatant* mover = d.state().Find(held.actor);
  if (IsOut(*mover) || mover->Has("Pinned") || mover->Has("Immobile")) {
    return RecordOutcome(d, held.actor, {cause, "001.act.rebuff", {}, "the move stops: it can no longer move"});
  }
  const std::vector<Pos> path = PathOf(held.command);
  if (absl::Status st = space::CheckPath(d.state(), kGrid.metric, mover->at, mover->size, path,
                                         RulesFor(d.state(), "move", held.actor));
      !st.ok()) {
    return RecordOutcome(d, held.actor, {cause, "001.move.path", {}, absl::StrCat("the move stops: ", st.message())});
  }
  // A Cling may have cut its movement (l.226): it goes as far as it can.
  std::vector<Pos> affordable;
  for (const Pos& p : path) {
    std::vector<Pos> next = affordable;
    next.push_back(p);
    if (Price(d.state(), *mover, next).cost > mover->Resource(res::kMovePool)) break;
    affordable = next;
  }
  if (affordable.size() < path.size()) {
    RETURN_IF_ERROR(RecordOutcome(d, held.actor, {cause, "001.cling", {{"yards_short", static_cast<int64_t>(path.size() - affordable.size())}},
                                                  "the move is cut short"}));
  }
  if (affordable.empty()) return absl::OkStatus();
  return MoveFrom(d, held.actor, affordable, held.command, cause, held.reacted);
}

absl::Status DecideMove(const fb::CommandT& c, Decision& d) {
  const State& s = d.state();
  ASSIGN_OR_RETURN(const Combatant* mover, Actor(s, c));
  if (IsOut(*mover) || mover->Has("Pinned") || mover->Has("Immobile")) {
    return Refuse("001.pin", mover->id + " cannot move");
  }
  if (c.path.empty()) return Malformed(c, "path", "the squares entered, in order");
  if (!s.windows.empty()) return Refuse("001.out_of_turn", "a declared action waits: answer or resolve it first");
  if (const Condition* k = mover->FindCondition("Riding"); k != nullptr) {
    return Refuse("001.mount", mover->id + " rides " + k->relative_to + ": the mount moves (reading of l.280)");
  }
  if (const Condition* k = mover->FindCondition("Ridden"); k != nullptr && !mover->HasTag("sentient")) {
    const Combatant* rider = s.Find(k->relative_to);
    if (rider != nullptr && rider->Has("Uncontrolled")) {
      return Refuse("001.mount.untrained", k->relative_to + " has lost control of " + mover->id);
    }
  }
  RETURN_IF_ERROR(CheckMayMove(s, *mover));
  const std::vector<Pos> path = PathOf(c);
  const std::string self = mover->id;
  RETURN_IF_ERROR(space::CheckPath(s, kGrid.metric, mover->at, mover->size, path, RulesFor(s, c.action, self)));
  const Priced p = Price(s, *mover, path);
  const int64_t pool = mover->Resource(res::kMovePool);
  if (p.cost > pool) {
    return Refuse("001.move.pool", absl::StrCat("the path costs ", p.cost, " yd and ", self, " has ", pool,
                                                " yd of movement this round (buy_move spends AP for more)"));
  }
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  return MoveFrom(d, self, path, c, decl, {});
}

absl::Status LoseMovement(Decision& d, const std::string& who, const Why& why) {
  for (const char* k : {res::kMovePool, res::kMoveAp, res::kDiagonals}) {
    if (d.state().Find(who)->Resource(k) != 0) RETURN_IF_ERROR(SetResource(d, who, k, 0, why));
  }
  return absl::OkStatus();
}

}  // namespace combat::kernel::wound_slots
