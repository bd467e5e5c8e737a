// Mounted combat (l.279-282): Mount/Dismount (l.219-220) with a shared
// turn (kernel OrderSet members: the rider's entry lists the mount, at the
// worse of the two initiatives), regaining control of an untrained mount,
// and Jumping (l.176-179).
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/wound_slots/internal.h"

namespace combat::kernel::wound_slots {

absl::Status CheckMount(const State& s, const Combatant& a, const fb::CommandT& c) {
  ASSIGN_OR_RETURN(const Combatant* m, Target(s, c));
  if (m->id == a.id) return Malformed(c, "targets[0]", "the mount");
  if (a.Has("Riding")) return Refuse("001.mount", a.id + " is already mounted");
  if (m->Has("Ridden")) return Refuse("001.mount", m->id + " already has a rider");
  if (SizeScore(*m) < SizeScore(a)) return Refuse("001.mount", "a mount is at least the size of its rider");
  if (m->side != a.side) return Refuse("001.mount", m->id + " is not a willing mount");
  if (Distance(s, a, *m) > 1) return Refuse("001.mount", m->id + " is not adjacent");
  return absl::OkStatus();
}

absl::Status ResolveMount(Decision& d, const fb::CommandT& c, uint64_t cause) {
  const std::string rider = c.actor, mount = c.targets[0];
  const int64_t ri = InitiativeOf(d.state(), rider), mi = InitiativeOf(d.state(), mount);
  const bool sentient = d.state().Find(mount)->HasTag("sentient");
  const Why why{cause, "001.mount", {{"rider_initiative", ri}, {"mount_initiative", mi}}, "mounted"};
  // Each keeps its own initiative score (l.280 "the worse of your two"):
  // the rider's in `Riding`, the mount's in `Ridden` (turns.cc ChangeInitiative).
  RETURN_IF_ERROR(Impose(d, rider, "Riding", rider, {}, why, ri, mount).status());
  RETURN_IF_ERROR(Impose(d, mount, "Ridden", rider, {}, why, mi, rider).status());
  // l.220 "You climb atop a horse": the rider occupies the mount's space
  // (and moves with it, movement.cc CarriedBy); its distances are the
  // mount's space's (stats.cc SpaceOf). Climbing up is the action's 4 AP,
  // no movement.
  const Pos up = d.state().Find(mount)->at;
  RETURN_IF_ERROR(Move(d, rider, {up}, 0, true, {cause, "001.mount", {}, "climbs atop " + mount}));
  // Climbed up, it may no longer share a space (l.216) or be adjacent to
  // the one it grapples (l.230; l.280's yard too): those end, as after any
  // move.
  RETURN_IF_ERROR(EndSharedSpaces(d, cause));
  if (sentient) return absl::OkStatus();  // l.282: may keep its own turn
  std::vector<OrderEntry> order;
  for (const OrderEntry& e : d.state().order) {
    if (e.actor == mount) continue;
    OrderEntry x = e;
    if (x.actor == rider) {
      x.members.push_back(mount);
      x.initiative = std::min(ri, mi);  // l.280: the worse of the two
    }
    order.push_back(x);
  }
  std::stable_sort(order.begin(), order.end(), [](const OrderEntry& a, const OrderEntry& b) {
    return a.initiative > b.initiative;
  });
  RETURN_IF_ERROR(SetOrder(d, order, {cause, "001.mount", {{"initiative", std::min(ri, mi)}}, "rider and mount share a turn"}));
  // l.280 "While riding a mount, you and your mount share a single turn":
  // mounted during the rider's running turn, a mount yet to have its turn
  // this round (l.108 "Each participant has one turn per round") shares
  // the rest of that one: its turn comes now (its "until your next turn"
  // anchors end, l.199; its act paid over turns is paid, l.111), it may act
  // in it and gains its Turn End AP at its end (l.110, turns.cc
  // DecideEndTurn). The running turn is recorded again with the mount
  // among its members (TurnEnded, TurnStarted).
  const State& s = d.state();
  const bool acted = std::find(s.acted.begin(), s.acted.end(), mount) != s.acted.end();
  if (s.active != rider || acted || s.Find(mount)->Resource(res::kTurnRound) == s.round) return absl::OkStatus();
  std::vector<std::string> members = s.active_members;
  members.push_back(mount);
  const int64_t round = s.round;
  Decision::SystemSteps system(d);
  const Why shared{cause, "001.mount", {{"round", round}}, "the turn goes on, shared with " + mount};
  RETURN_IF_ERROR(EndTurn(d, rider, shared));
  RETURN_IF_ERROR(StartTurn(d, rider, shared, members));
  RETURN_IF_ERROR(ExpireTurnStartsDue(d, mount, round, cause));
  return PayOnTurnStart(d, mount, cause);
}

namespace {

// l.220 "or climb off of the mount": the text names no square. Reading:
// the rider steps down onto a free square (no wall, off the map, nor
// creature) adjacent to the mount's space, the one `path` names, else the
// first free one, row by row from the north-west; none free: it cannot
// climb off.
bool FreeBeside(const State& s, const Combatant& m, Pos q) {
  const std::string t = s.TerrainAt(q);
  if (t == "wall" || t == "offmap") return false;
  const Combatant* o = s.OccupantAt(q);
  if (o != nullptr && !IsDead(*o)) return false;
  return space::Distance(kGrid, q, 1, m.at, m.size) == 1;
}

absl::StatusOr<Pos> DismountSquare(const State& s, const Combatant& m, const fb::CommandT& c) {
  if (!c.path.empty()) {
    const Pos q{c.path[0].x(), c.path[0].y()};
    if (c.path.size() != 1 || !FreeBeside(s, m, q)) {
      return Malformed(c, "path", "one free square adjacent to " + m.id + "'s space (l.220: climbing off the mount)");
    }
    return q;
  }
  for (int y = m.at.y - 1; y <= m.at.y + m.size; ++y) {
    for (int x = m.at.x - 1; x <= m.at.x + m.size; ++x) {
      if (FreeBeside(s, m, Pos{x, y})) return Pos{x, y};
    }
  }
  return Refuse("001.mount", "no free square beside " + m.id + " to climb down onto");
}

}  // namespace

absl::Status CheckDismount(const State& s, const Combatant& a, const fb::CommandT& c) {
  if (!a.Has("Riding")) return Refuse("001.mount", a.id + " is not mounted");
  const Combatant* m = s.Find(a.FindCondition("Riding")->relative_to);
  if (m != nullptr) RETURN_IF_ERROR(DismountSquare(s, *m, c).status());
  return absl::OkStatus();
}

absl::Status ResolveDismount(Decision& d, const fb::CommandT& c, uint64_t cause) {
  const std::string mount = d.state().Find(c.actor)->FindCondition("Riding")->relative_to;
  ASSIGN_OR_RETURN(const Pos down, DismountSquare(d.state(), *d.state().Find(mount), c));
  RETURN_IF_ERROR(Move(d, c.actor, {down}, 0, true, {cause, "001.mount", {}, "climbs off " + mount}));
  RETURN_IF_ERROR(EndRiding(d, c.actor, {cause, "001.mount", {}, "dismounted"}));
  return EndSharedSpaces(d, cause);  // l.216, l.230: as after any move
}

absl::Status EndRiding(Decision& d, const std::string& rider, const Why& why) {
  const uint64_t cause = why.cause;
  const Combatant a = *d.state().Find(rider);
  const std::string mount = a.FindCondition("Riding")->relative_to;
  const Condition ridden = *d.state().Find(mount)->FindCondition("Ridden");
  RETURN_IF_ERROR(RemoveConditionsNamed(d, a.id, "Riding", why));
  RETURN_IF_ERROR(RemoveConditionsNamed(d, a.id, "Uncontrolled", why));
  RETURN_IF_ERROR(RemoveCondition(d, mount, ridden.id, why));
  std::vector<OrderEntry> order = d.state().order;
  bool had = false;
  for (OrderEntry& e : order) {
    had = had || e.actor == mount;
    std::vector<std::string> keep;
    for (const std::string& m : e.members) {
      if (m != mount) keep.push_back(m);
    }
    // l.280: "the worse of your two initiative scores" only "while riding":
    // off the mount, the rider's own score again.
    if (e.actor == rider && keep.size() != e.members.size()) e.initiative = a.FindCondition("Riding")->level;
    e.members = keep;
  }
  if (had) return absl::OkStatus();
  OrderEntry e;
  e.actor = mount;
  e.initiative = ridden.level;  // its own score (l.280), as kept while ridden (turns.cc ChangeInitiative)
  order.push_back(e);
  std::stable_sort(order.begin(), order.end(), [](const OrderEntry& x, const OrderEntry& y) {
    return x.initiative > y.initiative;
  });
  return SetOrder(d, order, {cause, "001.mount", {{"mount_initiative", ridden.level}}, "the mount has its own turn again"});
}

absl::Status CheckRegainControl(const State&, const Combatant& a, const fb::CommandT&) {
  if (!a.Has("Uncontrolled")) return Refuse("001.mount.untrained", a.id + " has not lost control of a mount");
  return absl::OkStatus();
}

absl::Status ResolveRegainControl(Decision& d, const fb::CommandT& c, uint64_t cause) {
  const Combatant a = *d.state().Find(c.actor);
  const Condition lost = *a.FindCondition("Uncontrolled");
  const Combatant m = *d.state().Find(lost.relative_to);
  int64_t enemies = 0;
  for (const auto& [id, o] : d.state().combatants) {
    // 30 feet = 10 yd between the spaces (l.230's count, adjacent 0), from
    // the rider: its mount's space (l.220), l.280's yard farther from
    // creatures on the ground smaller than the mount (YardsBetween).
    if (o.side != a.side && !IsOut(o) && YardsBetween(d.state(), a, o) <= 10) ++enemies;
  }
  const int64_t calm = std::min<int64_t>(5, lost.level);  // +1 per consecutive action, max +5
  Nums nums{{"enemies_within_30ft", -enemies, "enemies near " + m.id, "001.mount.untrained"},
            {"calming", calm, "consecutive tries of " + a.id, "001.mount.untrained"}};
  const int64_t bonus = CheckBonus(a, "prs", "nature", "riding", &nums) - enemies + calm;
  const int64_t tn = m.Stat("control_tn", 5);
  ASSIGN_OR_RETURN(CheckRoll r, RollCheck(d, a.id, bonus, "regain control", cause));
  nums.insert(nums.end(), {{"d20", r.natural}, {"result", r.total}, {"tn", tn}});
  RETURN_IF_ERROR(RemoveCondition(d, a.id, lost.id, {cause, "001.mount.untrained", nums}));
  if (r.total >= tn) return RecordOutcome(d, a.id, {cause, "001.mount.untrained", nums, "regains control"});
  // Reading: each failed try is a consecutive action spent calming it.
  return Impose(d, a.id, "Uncontrolled", m.id, {}, {cause, "001.mount.untrained", nums, "still out of control"},
                lost.level + 1, m.id)
      .status();
}

// ---- Jumping (l.177-178): a long jump along `path`; its yards (every
// second diagonal 2, l.161) come from the movement pool. Reading: feet to yards, 3 feet a
// yard, rounded down; a jump shorter than the path lands at the last square
// it reaches. A long jump is movement (l.160, l.178 "farther than you have
// AP available to move"): it costs the AP buying the yards its path lacks,
// none when the movement already bought covers it. A high jump names no
// yards: 1 AP (reading).
int64_t JumpYards(const Combatant& c, const fb::CommandT& cmd) {
  // l.161: on the square grid every second diagonal counts 2 yards, the
  // count going on from the round's movement (as a walk's, movement.cc);
  // in the air no terrain multiplies it. A step that is not adjacent ends
  // the count (CheckJump refuses it).
  space::PathWalker walk(kGrid, c.at, c.Resource(res::kDiagonals));
  for (const Pos& p : PathOf(cmd)) {
    if (!space::CheckStep(kGrid.metric, walk.at(), p)) break;
    walk.Step(p);
  }
  return walk.cost();
}

int64_t JumpAp(const Combatant& c, const fb::CommandT& cmd) {
  const int64_t missing = JumpYards(c, cmd) - c.Resource(res::kMovePool);
  if (ParamText(cmd, "kind") == "high") return 1;
  if (missing <= 0) return 0;
  return std::max<int64_t>(1, ApForYards(EffectiveRate(c), missing, c.Resource(res::kMoveAp)));
}

absl::Status CheckJump(const State& s, const Combatant& a, const fb::CommandT& c) {
  const std::string kind = ParamText(c, "kind").empty() ? "long" : ParamText(c, "kind");
  if (kind != "long" && kind != "high") return Malformed(c, "params.kind", "long or high");
  if (const Condition* k = a.FindCondition("Riding"); k != nullptr) {
    return Refuse("001.mount", a.id + " rides " + k->relative_to + ": the mount moves (reading of l.280)");
  }
  if (kind == "long") {
    if (c.path.empty()) return Malformed(c, "path", "the squares jumped over and landed on");
    const int64_t missing = JumpYards(a, c) - a.Resource(res::kMovePool);
    if (missing > 0 && ApForYards(EffectiveRate(a), missing, a.Resource(res::kMoveAp)) < 0) {
      return Refuse("001.move.pool", absl::StrCat(a.id, "'s movement rate cannot cover the jump"));
    }
    if (const Condition* drag = a.FindCondition("Dragging"); drag != nullptr) {
      // l.228: "you can spend up to 4 AP on movement before the end of the
      // round": a jump's AP buy movement (l.178).
      const int64_t need = HasParam(c, "_jump_ap") ? ParamOr(c, "_jump_ap", 0) : JumpAp(a, c);
      if (need > drag->level) {
        return Refuse("001.drag", absl::StrCat("dragging: up to 4 AP on movement this round, ", drag->level,
                                               " left; the jump needs ", need));
      }
    }
    if (const Condition* k = a.FindCondition("Ridden"); k != nullptr && !a.HasTag("sentient") && s.Find(k->relative_to) != nullptr) {
      // l.280: the rider spends the AP the mount spends to move (mount.cc
      // BuyJumpMovement).
      const int64_t need = HasParam(c, "_jump_ap") ? ParamOr(c, "_jump_ap", 0) : JumpAp(a, c);
      const int64_t have = s.Find(k->relative_to)->Resource(res::kAp);
      if (need > have) {
        return Refuse("001.mount", absl::StrCat(k->relative_to, " has ", have, " AP: controlling the mount's jump costs ", need));
      }
    }
    Pos prev = a.at;
    for (size_t i = 0; i < c.path.size(); ++i) {
      const Pos p{c.path[i].x(), c.path[i].y()};
      if (!space::CheckStep(kGrid.metric, prev, p)) return Malformed(c, absl::StrCat("path[", i, "]"), "not adjacent");
      prev = p;
    }
  }
  return absl::OkStatus();
}

absl::Status BuyJumpMovement(Decision& d, const fb::CommandT& c, uint64_t cause) {
  // l.178: the AP paid for the jump buy the movement it lacked.
  const int64_t ap = ParamOr(c, "_jump_ap", 0);
  if (ap <= 0) return absl::OkStatus();
  const Combatant& a = *d.state().Find(c.actor);
  const int64_t bought = YardsBought(EffectiveRate(a), a.Resource(res::kMoveAp), ap);
  // A jump's AP buy movement (l.178) as a purchase's do: the rider's
  // (l.280) and the drag's (l.228) as well.
  return SpendApOnMovement(d, a.id, ap, bought,
                           {cause, "001.move.pool", {{"ap", ap}, {"yards", bought}}, "movement for the jump"}, "jump");
}

namespace {

// l.179 "Landing in difficult terrain or on a slippery surface requires a
// Dex [Acrobatics/Balance] check to remain standing. ... TNs for both
// checks are set by the GM": with `params.landing_tn` (the GM's TN: the
// landing square is difficult terrain, or the GM rules the surface
// slippery) the check is rolled and a failure leaves the jumper prone;
// landing in difficult terrain without it, the check is due and its TN
// the GM's: recorded, nothing rolled.

absl::Status LandingCheck(Decision& d, const fb::CommandT& c, uint64_t cause) {
  const Combatant a = *d.state().Find(c.actor);
  const bool difficult = DifficultAt(d.state(), a.at);
  if (!HasParam(c, "landing_tn")) {
    if (!difficult) return absl::OkStatus();
    return RecordOutcome(d, a.id, {cause, "001.jump.landing", {},
                                   "landing in " + d.state().TerrainAt(a.at) +
                                       ": a Dex [Acrobatics/Balance] check to remain standing is due, its TN the GM's "
                                       "(params.landing_tn)"});
  }
  const int64_t tn = ParamOr(c, "landing_tn", 0);
  Nums nums;
  const int64_t bonus = CheckBonus(a, "dex", "acrobatics", "balance", &nums);
  ASSIGN_OR_RETURN(CheckRoll r, RollCheck(d, a.id, bonus, "landing", cause));
  nums.insert(nums.end(), {{"d20", r.natural}, {"result", r.total}, {"tn", tn}});
  const std::string where = difficult ? d.state().TerrainAt(a.at) : "a slippery surface";
  if (r.total >= tn) return RecordOutcome(d, a.id, {cause, "001.jump.landing", nums, "lands standing on " + where});
  RETURN_IF_ERROR(RemoveConditionsNamed(d, a.id, "Crouching", {cause, "001.jump.landing", nums}));
  if (a.Has("Prone")) return RecordOutcome(d, a.id, {cause, "001.jump.landing", nums, "falls on " + where});
  return Impose(d, a.id, "Prone", a.id, {}, {cause, "001.jump.landing", nums, "falls prone on " + where}).status();
}

}  // namespace

absl::Status ResolveJump(Decision& d, const fb::CommandT& c, uint64_t cause) {
  const Combatant a = *d.state().Find(c.actor);
  const bool high = ParamText(c, "kind") == "high";
  Nums nums;
  const int64_t bonus = CheckBonus(a, "str", "athletics", "jumping", &nums);
  ASSIGN_OR_RETURN(CheckRoll r, RollCheck(d, a.id, bonus, "jump", cause));
  const bool run_up = a.Resource("moved_round") == d.state().round && a.Resource("moved_yards") >= 5;
  const int64_t result = run_up ? r.total + SpeedScore(a) : FloorDiv(r.total, 2);  // l.177
  nums.push_back({"d20", r.natural});
  // l.177: after a 5-yard run-up the Speed is added; otherwise the result
  // is halved (rounded down): either way the numbers add up to the result.
  if (run_up) {
    nums.push_back({"run_up", SpeedScore(a), absl::StrCat(a.Resource("moved_yards"), " yd run-up of ", a.id), "001.jump"});
  } else {
    nums.push_back({"halved", result - r.total, "no run-up of " + a.id, "001.jump"});
  }
  nums.push_back({"result", result});
  if (high) {
    nums.push_back({"height_inches", 2 * result});
    RETURN_IF_ERROR(RecordOutcome(d, a.id, {cause, "001.jump", nums, absl::StrCat("high jump: up to ", 2 * result, " inches")}));
    return LandingCheck(d, c, cause);
  }
  const int64_t yards = std::max<int64_t>(0, FloorDiv(result, 3));  // feet -> yards, rounded down (reading)
  RETURN_IF_ERROR(BuyJumpMovement(d, c, cause));
  // The squares it reaches: their yards (l.161: every second diagonal 2)
  // within the jump's distance and the movement pool.
  const int64_t pool = d.state().Find(a.id)->Resource(res::kMovePool);
  std::vector<Pos> path;
  space::PathWalker walk(kGrid, a.at, a.Resource(res::kDiagonals));
  for (const auto& p : c.path) {
    const Pos q{p.x(), p.y()};
    if (d.state().TerrainAt(q) == "wall" || d.state().TerrainAt(q) == "offmap") break;
    space::PathWalker next = walk;
    next.Step(q);
    if (next.cost() > yards || next.cost() > pool) break;
    walk = next;
    path.push_back(q);
  }
  // It cannot land on another creature; its rider and those it drags land
  // with it (l.280, l.228).
  const std::vector<std::string> carried = CarriedBy(a);
  const auto blocked = [&](const Pos& q) {
    const Combatant* o = d.state().OccupantAt(q, a.id);
    return o != nullptr && std::find(carried.begin(), carried.end(), o->id) == carried.end();
  };
  while (!path.empty() && blocked(path.back())) path.pop_back();
  space::PathWalker landed(kGrid, a.at, a.Resource(res::kDiagonals));
  for (const Pos& q : path) landed.Step(q);
  nums.push_back({"distance_feet", result});
  nums.push_back({"yards", landed.cost()});
  if (path.empty()) return RecordOutcome(d, a.id, {cause, "001.jump", nums, "the jump goes nowhere"});
  RETURN_IF_ERROR(Move(d, a.id, path, landed.cost(), false, {cause, "001.jump", nums, "long jump"}));
  // l.280: the rider is carried by its mount's jump (a jump is the mount's
  // movement, l.178); l.228: a drag's movement, a jump's too, moves "all
  // others involved in the grapple with you".
  RETURN_IF_ERROR(CarryAlong(d, a, path, cause));
  RETURN_IF_ERROR(CarryClingers(d, a, path, cause));  // l.226: a Cling moving with it
  RETURN_IF_ERROR(UntrainedReach(d, a, path, cause));  // l.281: a jump into an enemy's reach too
  RETURN_IF_ERROR(AddResource(d, a.id, res::kMovePool, -landed.cost(), {cause, "001.move.pool", {}}).status());
  // l.177 "If you moved at least 5 yards leading up to the jump": the
  // yards jumped are moved too (l.178: a jump is movement), for a later
  // jump's run-up, as a walk's (movement.cc MoveSteps).
  RETURN_IF_ERROR(NoteYardsMoved(d, a.id, landed.cost(), cause));
  if (landed.diagonals() != a.Resource(res::kDiagonals)) {
    RETURN_IF_ERROR(SetResource(d, a.id, res::kDiagonals, landed.diagonals(), {cause, "001.move.grid", {}, "diagonals this round"}));
  }
  RETURN_IF_ERROR(EndSharedSpaces(d, cause));
  return LandingCheck(d, c, cause);
}

}  // namespace combat::kernel::wound_slots
