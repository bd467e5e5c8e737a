// Movement and simple acts: Shift (l.21), Run and Quick Run (l.23, l.11),
// Sprint (l.25), turning while running (l.27), Agile Move (l.29), Jump
// (l.31), Kneel From Prone (l.33), Stand Up (l.13), Defend (l.35), Catch
// Your Breath (l.41), exertion (l.64), and facing (l.402-410).
//
// Grid: 1 square = 1 m (l.416); x grows east, y grows south; a diagonal
// step is 1 m. A path lists the squares entered, each adjacent to the last.
#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/command.h"
#include "kernel/energy_rounds/internal.h"

namespace combat::kernel::energy {
namespace {

int StepDir(Pos a, Pos b) { return DirToward(a, b); }

// l.27: each sharp 45-degree turn costs 1 m and reversing costs 2 m. Read
// as ceil(eighths / 2): 45 and 90 degrees cost 1 m, 135 and 180 cost 2 m.
int64_t TurnPenalty(int heading, Pos from, const std::vector<Pos>& path) {
  int64_t total = 0;
  int prev = heading;  // -1: none
  Pos at = from;
  for (Pos p : path) {
    const int dir = StepDir(at, p);
    if (prev >= 0) {
      int diff = std::abs(dir - prev);
      diff = std::min(diff, 8 - diff);
      total += CeilDiv(diff, 2);
    }
    prev = dir;
    at = p;
  }
  return total;
}

int LastHeading(const Combatant& c) {
  return static_cast<int>(c.Resource(res::kHeading, 0)) - 1;
}

absl::Status SetIf(Decision& d, const std::string& actor, const char* name,
                   int64_t value, const Why& why) {
  if (d.state().Find(actor)->Resource(name, 0) == value) return absl::OkStatus();
  return SetResource(d, actor, name, value, why);
}

// l.676 "Prone: ... sprawled out on the ground, which may limit what you
// are able to do" (reading 8); a Prone the creature ignores (l.690 "you
// still ignore the Condition until the end of the Round") limits nothing.
bool Lying(const Combatant& c) { return Active(c, "Prone") || Active(c, "Kneeling"); }

struct RunPlan {
  int64_t len = 0, speed = 0, extra = 0, penalty = 0, budget = 0, energy = 0;
  bool sprint = false;
};

absl::StatusOr<RunPlan> PlanRun(const State& s, const Combatant& a,
                                const fb::CommandT& c) {
  RunPlan p;
  p.sprint = c.action == "sprint";
  const std::vector<Pos> path = PathOf(c);
  if (path.empty()) return Malformed(c, "path", "the squares to run through are required");
  RETURN_IF_ERROR(CheckPath(s, a, path, c));
  p.len = space::PathCost(kGrid, a.at, path).cost;  // metres (l.416)
  p.speed = Speed(a);
  if (p.speed <= 0) return Refuse("002.cost.run", absl::StrCat(a.id, " has no Speed"));
  p.extra = p.sprint ? a.Stat("sprint_extra", 0) : 0;
  p.penalty = TurnPenalty(LastHeading(a), a.at, path);
  p.budget = p.speed + p.extra - p.penalty;
  if (p.len > p.budget) {
    return Refuse(p.penalty > 0 ? "002.move.turning" : "002.cost.run",
                   absl::StrCat(a.id, " can ", p.sprint ? "sprint" : "run", " ",
                                p.budget, " m (Speed ", p.speed, ", sprint +", p.extra,
                                ", turns -", p.penalty, "); the path is ", p.len, " m"));
  }
  // l.23, l.142: the share of 3 Energy for the share of Speed, rounded up
  // (Energy is spent as each third of the run starts, l.138). A Sprint is
  // a full Run (l.25). The metres a turn sacrifices (l.27 "you sacrifice
  // 1m of movement") are part of the run's share: a 2 m run that reverses
  // has used 4 m of its Speed (before, turns cost nothing below the cap).
  // A Sprint's share is of its whole distance, Speed + the sprint's metres
  // (l.25: the full Run's 3 Energy carry it that far): a Sprint declared
  // over a shorter path is a Sprint its runner ends there at will (l.138),
  // and pays as one cut short by `stop_after` (it paid 3 Energy for 3 m
  // declared but 2 for 3 m of 8 stopped).
  const int64_t denom = p.speed + p.extra;
  p.energy = std::min<int64_t>(3, std::max<int64_t>(1, CeilDiv(3 * (p.len + p.penalty), denom)));
  return p;
}

}  // namespace

absl::Status CheckPath(const State& s, const Combatant& mover,
                       const std::vector<Pos>& path, const fb::CommandT& c) {
  space::PathRules rules;
  rules.action = c.action;
  rules.rule = "002.move.path";
  rules.cite = [](const std::string& id) { return Cite(id); };
  // A jump passes over occupied squares; only the landing must be free.
  rules.occupant = [&](Pos q, size_t i, size_t n) -> std::string {
    if (c.action == "jump" && i + 1 != n) return "";
    const Combatant* o = s.OccupantAt(q, mover.id);
    return o == nullptr ? "" : o->id;
  };
  return space::CheckPath(s, kGrid.metric, mover.at, mover.size, path, rules);
}

absl::Status MoveAlong(Decision& d, const std::string& actor,
                       const std::vector<Pos>& path, int64_t cost, bool forced,
                       const Why& why) {
  const Pos from = d.state().Find(actor)->at;
  RETURN_IF_ERROR(Move(d, actor, path, cost, forced, why));
  if (!forced && !path.empty()) {
    const Pos before = path.size() > 1 ? path[path.size() - 2] : from;
    RETURN_IF_ERROR(SetIf(d, actor, res::kFacing, StepDir(before, path.back()),
                          {why.cause, "002.facing.turn", {}, "faces where it moved"}));
  }
  return absl::OkStatus();
}

absl::Status NoteMoved(Decision& d, const std::string& actor, int64_t metres,
                       bool sprint, int heading, uint64_t cause) {
  // The Round's metres (l.35 "move more than your Speed during a Round")
  // and the back-to-back movement's (l.27, read by l.31's Jump "after
  // having moved at least 2m"), each citing the line that counts it.
  RETURN_IF_ERROR(AddResource(d, actor, res::kMoved, metres,
                              {cause, "002.move.round_metres", {{"metres", metres}},
                               "metres moved this Round"})
                      .status());
  RETURN_IF_ERROR(AddResource(d, actor, res::kStreak, metres,
                              {cause, "002.move.back_to_back", {{"metres", metres}},
                               "back-to-back movement"})
                      .status());
  RETURN_IF_ERROR(SetIf(d, actor, res::kHeading, heading + 1,
                        {cause, "002.move.turning", {{"heading", heading}}, ""}));
  // Whether the back-to-back movement is a Sprint (l.25), and of how many
  // metres: read by l.31 (+1 m to a Jump), l.226 (+5 Miss Chance) and
  // l.587 (a push as part of a Sprint), so it cites none of them but the
  // back-to-back movement it belongs to (l.27).
  RETURN_IF_ERROR(SetIf(d, actor, res::kSprinted, sprint ? metres : 0,
                        {cause, "002.move.back_to_back", {{"sprint", sprint ? 1 : 0}},
                         sprint ? "a Sprint" : "no Sprint"}));
  const Combatant* c = d.state().Find(actor);
  if (c->Has("Defending") && c->Resource(res::kMoved) > Speed(*c)) {
    RETURN_IF_ERROR(RemoveConditionsNamed(
        d, actor, "Defending",
        {cause, "002.defend", {{"moved", c->Resource(res::kMoved)}, {"speed", Speed(*c)}},
         "moved more than its Speed this round"}));
  }
  return absl::OkStatus();
}

absl::Status BreakStreak(Decision& d, const std::string& actor, uint64_t cause,
                         const std::string& note) {
  // l.27 "back-to-back movement actions": the streak, heading and Sprint
  // are the back-to-back movement's, and end with it.
  const Why why{cause, "002.move.back_to_back", {}, note};
  RETURN_IF_ERROR(SetIf(d, actor, res::kStreak, 0, why));
  RETURN_IF_ERROR(SetIf(d, actor, res::kHeading, 0, why));
  return SetIf(d, actor, res::kSprinted, 0, why);
}

absl::Status TurnToward(Decision& d, const std::string& actor, const Combatant& to,
                        uint64_t cause) {
  const Combatant* c = d.state().Find(actor);
  if (FacesSpace(*c, to)) return absl::OkStatus();
  // Toward the target: from the centre of one space to the centre of the
  // other (space::DirBetween), whatever their sizes (l.402, l.439).
  const int dir = space::DirBetween(c->at, c->size, to.at, to.size);
  return SetResource(d, actor, res::kFacing, dir,
                     {cause, "002.facing.turn", {{"from", Facing(*c)}, {"to", dir}},
                      "turns to face its target (free)"});
}

// ---- shift
absl::Status CheckShift(const State& s, const Combatant& a, const fb::CommandT& c,
                        const ActOpts&) {
  const std::vector<Pos> path = PathOf(c);
  if (path.size() != 1) return Malformed(c, "path", "a Shift moves exactly 1 square (1 m)");
  RETURN_IF_ERROR(CheckPath(s, a, path, c));
  Cost cost;
  cost.movement = true;
  if (ParamOr(c, "agility", 0) == 1) cost.agility = 2; else cost.energy = 1;
  RETURN_IF_ERROR(ReadCostParams(c, cost));
  return CheckCost(s, a, cost, "Shift");
}

absl::StatusOr<Outcome> ResolveShift(Decision& d, const fb::CommandT& c,
                                     uint64_t cause, const ActOpts&) {
  Cost cost;
  cost.movement = true;
  const bool agility = ParamOr(c, "agility", 0) == 1;
  if (agility) cost.agility = 2; else cost.energy = 1;
  RETURN_IF_ERROR(ReadCostParams(c, cost));
  Nums nums{{"energy", cost.energy}, {"agility", cost.agility}};
  RETURN_IF_ERROR(Pay(d, c.actor, cost, {cause, "002.cost.shift", nums, ""}));
  const std::vector<Pos> path = PathOf(c);
  const Pos from = d.state().Find(c.actor)->at;
  // A one-metre step keeps the facing (only runs and jumps turn the mover).
  RETURN_IF_ERROR(Move(d, c.actor, path, 1, false, {cause, "002.cost.shift", nums, ""}));
  RETURN_IF_ERROR(NoteMoved(d, c.actor, 1, false, StepDir(from, path[0]), cause));
  return Outcome{absl::StrCat("shifted 1 m for ", agility                ? "2 Agility"
                                                  : cost.stamina_energy ? "1 Stamina (as Energy, l.47)"
                                                                        : "1 Energy"),
                 "002.cost.shift", nums};
}

// ---- run / sprint
absl::Status CheckRun(const State& s, const Combatant& a, const fb::CommandT& c,
                      const ActOpts&) {
  if (Lying(a)) {
    return Refuse("002.cond.prone", absl::StrCat(a.id, " must stand up before running"));
  }
  ASSIGN_OR_RETURN(RunPlan p, PlanRun(s, a, c));
  Cost cost;
  cost.movement = true;
  cost.energy = p.energy;
  cost.stamina = p.sprint ? 1 : 0;
  RETURN_IF_ERROR(ReadCostParams(c, cost));
  RETURN_IF_ERROR(CheckCost(s, a, cost, p.sprint ? "Sprint" : "Run"));
  if (p.sprint) {
    // l.25 "You can turn any full Run action (3 Energy cost) into a
    // Sprint": the Sprint is undertaken as a full Run, so its runner must
    // have the full Run's 3 Energy (one of them Stamina, once a Round, l.47)
    // and the Sprint's Stamina when it starts, even if it ends the Sprint
    // early and pays only its share (l.138, reading 3). With less it runs
    // (a Quick Run, l.11), not sprints.
    // The share's check above already passed, Stamina included, so only
    // the Energy of the full Run can be missing.
    const int64_t need = cost.stamina_energy ? 2 : 3;
    if (need > a.Resource(res::kEnergy)) {
      const char* paid = cost.stamina_energy
                             ? " (and 1 Stamina as Energy)"
                             : " (1 may be Stamina: stamina_energy=1, l.47)";
      return Refuse("002.cost.sprint",
                    absl::StrCat(a.id, " cannot Sprint: a Sprint is a full Run (3 Energy cost, "
                                 "l.25) turned into a Sprint by 1 Stamina, and needs ", need,
                                 " Energy", paid, " at its start even if ended early (l.138); ",
                                 a.id, " has ", a.Resource(res::kEnergy),
                                 "; a Run of that length is no Sprint"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<Outcome> ResolveRun(Decision& d, const fb::CommandT& c,
                                   uint64_t cause, const ActOpts&) {
  const Combatant* a = d.state().Find(c.actor);
  ASSIGN_OR_RETURN(RunPlan p, PlanRun(d.state(), *a, c));
  const Pos start = a->at;
  std::vector<Pos> path = PathOf(c);
  int64_t moved = p.len;
  if (auto stop = Param(c, "stop_after"); stop.has_value() && *stop < moved) {
    moved = *stop;
  }
  path.resize(static_cast<size_t>(moved));
  const bool cut = moved < p.len;
  // l.142: a run cut short spends its share of the 3 Energy (at least 1,
  // l.138); the Sprint's Stamina is spent once it starts (l.25, l.138).
  const int64_t denom = p.speed + p.extra;
  int64_t energy = p.energy;
  // The turns made on the part run (l.27) count with its metres.
  const int64_t penalty = cut ? TurnPenalty(LastHeading(*a), start, path) : p.penalty;
  if (cut) {
    energy = std::min<int64_t>(3, std::max<int64_t>(1, CeilDiv(3 * (moved + penalty),
                                                                 p.sprint ? denom : p.speed)));
  }
  Cost cost;
  cost.movement = true;
  cost.energy = energy;
  cost.stamina = (p.sprint && moved > 0) ? 1 : 0;
  RETURN_IF_ERROR(ReadCostParams(c, cost));
  const std::string rule = cut ? "002.incomplete.run" : (p.sprint ? "002.cost.sprint" : "002.cost.run");
  Nums nums{{"metres", moved},
            {"path_m", p.len},
            {"speed", p.speed},
            {"sprint_extra", p.extra, "", "002.cost.sprint"},
            {"turn_penalty", penalty, "", "002.move.turning"},
            {"energy", energy}};
  if (Active(*a, "Slowed")) {  // l.674: Speed halved
    nums.push_back({"slowed_halved", 1, "Slowed on " + c.actor, "002.cond.slowed"});
  }
  RETURN_IF_ERROR(Pay(d, c.actor, cost, {cause, rule, nums, ""}));
  if (moved > 0 && !d.state().Find(c.actor)->Has("Unconscious")) {
    const Pos before = path.size() > 1 ? path[path.size() - 2] : start;
    const int heading = StepDir(before, path.back());
    RETURN_IF_ERROR(MoveAlong(d, c.actor, path, moved, false, {cause, rule, nums, ""}));
    RETURN_IF_ERROR(NoteMoved(d, c.actor, moved, p.sprint, heading, cause));
    if (p.sprint) {
      // l.587: a Sprint push needs the Sprint to have begun at least 3 m
      // from its target: where it began.
      const Why from{cause, "002.maneuver.push_sprint", {{"x", start.x}, {"y", start.y}},
                     "where the sprint began"};
      RETURN_IF_ERROR(SetIf(d, c.actor, res::kSprintFromX, start.x, from));
      RETURN_IF_ERROR(SetIf(d, c.actor, res::kSprintFromY, start.y, from));
    }
  }
  return Outcome{absl::StrCat(p.sprint ? "sprinted " : "ran ", moved, " m of ", p.len,
                              cut ? " (cut short)" : ""),
                 rule, nums};
}

// ---- jump
namespace {
struct JumpPlan {
  int64_t dist = 0, max = 0, energy = 0, airtime = 0;
  bool running = false;
};
absl::StatusOr<JumpPlan> PlanJump(const State& s, const Combatant& a,
                                  const fb::CommandT& c) {
  const std::vector<Pos> path = PathOf(c);
  if (path.empty()) return Malformed(c, "path", "the squares jumped over, ending at the landing square");
  RETURN_IF_ERROR(CheckPath(s, a, path, c));
  JumpPlan j;
  j.dist = space::PathCost(kGrid, a.at, path).cost;  // metres (l.416)
  j.max = SizeJump(a) + a.Stat("jump_bonus", 0) +
          (a.Resource(res::kSprinted, 0) > 0 ? 1 : 0);  // l.31: +1 m after a sprint
  if (j.dist > j.max) {
    // l.445-446: Diminutive .5 m and Fine .3 m are under one 1 m square
    // (l.416); only multipliers' halves round (down, l.384), so the whole
    // metres jumped are 0 (reading 6).
    const int size = SizeOf(a);
    const std::string why =
        size == kDiminutive || size == kFine || size == kMiniscule
            ? absl::StrCat(" (the Size Chart's ", size == kDiminutive ? ".5 m, l.445" : ".3 m, l.446",
                           ", is under a 1 m square, l.416, and counts as 0; a jump_bonus, l.450, "
                           "adds whole metres, or the GM moves it, gm_move)")
            : "";
    return Refuse("002.move.jump",
                  absl::StrCat(a.id, " can jump ", j.max, " m; the path is ", j.dist, " m", why));
  }
  j.running = a.Resource(res::kStreak, 0) >= 2;  // l.31: after moving 2 m
  const int64_t speed = std::max<int64_t>(1, Speed(a));
  // l.31: airtime beyond a 2-Energy run costs more Energy (share of Speed
  // per Energy, rounded up as Energy is spent as it starts, l.138).
  if (3 * j.dist > 2 * speed) j.airtime = CeilDiv(3 * j.dist - 2 * speed, speed);
  j.energy = (j.running ? 1 : 2) + j.airtime;
  return j;
}
}  // namespace

absl::Status CheckJump(const State& s, const Combatant& a, const fb::CommandT& c,
                       const ActOpts&) {
  if (Lying(a)) return Refuse("002.cond.prone", absl::StrCat(a.id, " must stand up to jump"));
  ASSIGN_OR_RETURN(JumpPlan j, PlanJump(s, a, c));
  Cost cost;
  cost.movement = true;
  cost.energy = j.energy;
  cost.stamina = 1;
  RETURN_IF_ERROR(ReadCostParams(c, cost));
  return CheckCost(s, a, cost, "Jump");
}

absl::StatusOr<Outcome> ResolveJump(Decision& d, const fb::CommandT& c,
                                    uint64_t cause, const ActOpts&) {
  const Combatant* a = d.state().Find(c.actor);
  ASSIGN_OR_RETURN(JumpPlan j, PlanJump(d.state(), *a, c));
  const Pos start = a->at;
  Cost cost;
  cost.movement = true;
  cost.energy = j.energy;
  cost.stamina = 1;
  RETURN_IF_ERROR(ReadCostParams(c, cost));
  Nums nums{{"metres", j.dist}, {"max", j.max}, {"running_start", j.running ? 1 : 0},
            {"airtime_energy", j.airtime}, {"energy", j.energy}, {"stamina", 1}};
  RETURN_IF_ERROR(Pay(d, c.actor, cost, {cause, "002.move.jump", nums, ""}));
  if (d.state().Find(c.actor)->Has("Unconscious")) {
    return Outcome{"collapsed before jumping (0 Stamina)", "002.stamina.zero", nums};
  }
  const std::vector<Pos> path = PathOf(c);
  const Pos before = path.size() > 1 ? path[path.size() - 2] : start;
  RETURN_IF_ERROR(MoveAlong(d, c.actor, path, j.dist, false, {cause, "002.move.jump", nums, ""}));
  RETURN_IF_ERROR(NoteMoved(d, c.actor, j.dist, false, StepDir(before, path.back()), cause));
  Impose u;
  u.actor = c.actor;
  u.name = "Unguarded";
  u.source = "jump";
  u.expiry = EndOfRound(d.state());  // l.468
  RETURN_IF_ERROR(AddWithDaughters(d, u, {cause, "002.move.jump", {}, "landing a Jump (l.475)"})
                      .status());
  return Outcome{absl::StrCat("jumped ", j.dist, " m and landed Unguarded"), "002.move.jump", nums};
}

// ---- agile move
absl::Status CheckAgileMove(const State& s, const Combatant& a,
                            const fb::CommandT& c, const ActOpts&) {
  const std::vector<Pos> path = PathOf(c);
  if (path.size() != 1) return Malformed(c, "path", "an Agile Move is exactly 1 square (1 m)");
  RETURN_IF_ERROR(CheckPath(s, a, path, c));
  if (s.TerrainAt(path[0]) == "no_agile") {
    return Refuse("002.move.agile", "the GM ruled this terrain cannot be crossed with an Agile Move");
  }
  return CanAgileMove(s, a);
}

absl::Status CanAgileMove(const State& s, const Combatant& a) {
  if (a.Resource(res::kAgileCredit, 0) < 1) {
    return Refuse("002.move.agile",
                   absl::StrCat(a.id, " has spent no Energy on a non-movement action "
                                      "that still allows an Agile Move"));
  }
  Cost cost;
  cost.movement = true;
  cost.agility = 1;
  return CheckCost(s, a, cost, "Agile Move");
}

absl::StatusOr<Outcome> ResolveAgileMove(Decision& d, const fb::CommandT& c,
                                         uint64_t cause, const ActOpts&) {
  Cost cost;
  cost.movement = true;
  cost.agility = 1;
  Nums nums{{"agility", 1}};
  RETURN_IF_ERROR(Pay(d, c.actor, cost, {cause, "002.move.agile", nums, ""}));
  RETURN_IF_ERROR(AddResource(d, c.actor, res::kAgileCredit, -1,
                              {cause, "002.move.agile", {}, "credit used"})
                      .status());
  const std::vector<Pos> path = PathOf(c);
  const Pos from = d.state().Find(c.actor)->at;
  RETURN_IF_ERROR(Move(d, c.actor, path, 1, false, {cause, "002.move.agile", nums, ""}));
  RETURN_IF_ERROR(NoteMoved(d, c.actor, 1, false, StepDir(from, path[0]), cause));
  return Outcome{"agile move: 1 m for 1 Agility", "002.move.agile", nums};
}

// ---- kneel / stand
namespace {
absl::Status CheckOneEnergy(const State& s, const Combatant& a,
                            const fb::CommandT& c, const char* act) {
  Cost cost;
  cost.energy = 1;
  RETURN_IF_ERROR(ReadCostParams(c, cost));
  return CheckCost(s, a, cost, act);
}
absl::Status PayOne(Decision& d, const fb::CommandT& c, uint64_t cause,
                    const char* rule, const Nums& nums) {
  Cost cost;
  cost.energy = 1;
  RETURN_IF_ERROR(ReadCostParams(c, cost));
  return Pay(d, c.actor, cost, {cause, rule, nums, ""});
}
}  // namespace

absl::Status CheckKneel(const State& s, const Combatant& a, const fb::CommandT& c,
                        const ActOpts&) {
  if (!a.Has("Prone")) return Refuse("002.move.kneel", absl::StrCat(a.id, " is not Prone"));
  return CheckOneEnergy(s, a, c, "Kneel From Prone");
}

absl::StatusOr<Outcome> ResolveKneel(Decision& d, const fb::CommandT& c,
                                     uint64_t cause, const ActOpts&) {
  RETURN_IF_ERROR(PayOne(d, c, cause, "002.move.kneel", {{"energy", 1}}));
  const Why why{cause, "002.move.kneel", {}, "rights itself"};
  RETURN_IF_ERROR(RemoveConditionsNamed(d, c.actor, "Prone", why));
  Impose k;
  k.actor = c.actor;
  k.name = "Kneeling";
  k.source = "kneel";
  k.expiry = Forever();
  RETURN_IF_ERROR(AddWithDaughters(d, k, why).status());
  Impose u;
  u.actor = c.actor;
  u.name = "Unguarded";
  u.source = "kneel";
  u.expiry = EndOfRound(d.state());
  RETURN_IF_ERROR(AddWithDaughters(d, u, {cause, "002.move.kneel", {}, "Kneel from Prone (l.474)"})
                      .status());
  return Outcome{"knelt from Prone (Unguarded)", "002.move.kneel", {{"energy", 1}}};
}

absl::Status CheckStand(const State& s, const Combatant& a, const fb::CommandT& c,
                        const ActOpts&) {
  if (a.Has("Prone")) {
    return Refuse("002.move.kneel", absl::StrCat(a.id, " is Prone: kneel first (1 Energy)"));
  }
  if (!a.Has("Kneeling")) return Refuse("002.move.stand", absl::StrCat(a.id, " is already standing"));
  return CheckOneEnergy(s, a, c, "Stand Up");
}

absl::StatusOr<Outcome> ResolveStand(Decision& d, const fb::CommandT& c,
                                     uint64_t cause, const ActOpts&) {
  RETURN_IF_ERROR(PayOne(d, c, cause, "002.move.stand", {{"energy", 1}}));
  RETURN_IF_ERROR(RemoveConditionsNamed(d, c.actor, "Kneeling",
                                        {cause, "002.move.stand", {}, "stands up"}));
  return Outcome{"stood up", "002.move.stand", {{"energy", 1}}};
}

// ---- defend
absl::Status CheckDefend(const State& s, const Combatant& a, const fb::CommandT& c,
                         const ActOpts&) {
  if (a.Has("Defending") && !HasRoot(a, "Unguarded") && !HasRoot(a, "Exposed")) {
    return Refuse("002.defend", absl::StrCat(a.id, " is already Defending"));
  }
  return CheckOneEnergy(s, a, c, "Defend");
}

absl::StatusOr<Outcome> ResolveDefend(Decision& d, const fb::CommandT& c,
                                      uint64_t cause, const ActOpts&) {
  RETURN_IF_ERROR(PayOne(d, c, cause, "002.defend", {{"energy", 1}}));
  const Why why{cause, "002.defend", {}, "Defend ends it"};
  ASSIGN_OR_RETURN(int unguarded, LiftRoots(d, c.actor, "Unguarded", why));
  ASSIGN_OR_RETURN(int exposed, LiftRoots(d, c.actor, "Exposed", why));
  const Combatant* a = d.state().Find(c.actor);
  int kept = 0;
  for (const auto& [id, k] : a->conditions) {
    if ((k.name == "Unguarded" || k.name == "Exposed") && k.parent != 0) ++kept;
  }
  if (!a->Has("Defending")) {
    Impose df;
    df.actor = c.actor;
    df.name = "Defending";
    df.source = "defend";
    df.expiry = OnUse();  // until an attack, a spell, or moving beyond Speed
    RETURN_IF_ERROR(AddWithDaughters(d, df, {cause, "002.defend", {}, "wins ties on its Defenses"})
                        .status());
  }
  Nums nums{{"energy", 1}, {"unguarded_removed", unguarded}, {"exposed_removed", exposed},
            {"daughters_kept", kept}};
  return Outcome{kept > 0 ? "defending (daughter conditions stay while their parent holds, l.688)"
                          : "defending",
                 kept > 0 ? "002.cond.daughter" : "002.defend", nums};
}

// ---- catch your breath
absl::Status CheckCatchBreath(const State& s, const Combatant& a,
                              const fb::CommandT& c, const ActOpts&) {
  if (a.Resource(res::kEnergy) < 1) {
    return Refuse("002.stamina.breath", absl::StrCat(a.id, " has no Energy left"));
  }
  if (a.Resource(res::kStamina) >= MaxStamina(a)) {
    return Refuse("002.stamina.breath", absl::StrCat(a.id, " already has full Stamina"));
  }
  // l.47 "Once per Round, you may spend 1 Stamina when you would normally
  // spend 1 Energy": Catching your Breath spends Energy (l.41, l.51), so 1
  // of it may be paid so; the text makes no exception for it.
  Cost cost;
  cost.energy = std::min<int64_t>(3, a.Resource(res::kEnergy));
  RETURN_IF_ERROR(ReadCostParams(c, cost));
  return CheckCost(s, a, cost, "Catch Your Breath");
}

absl::StatusOr<Outcome> ResolveCatchBreath(Decision& d, const fb::CommandT& c,
                                           uint64_t cause, const ActOpts&) {
  const Combatant* a = d.state().Find(c.actor);
  // l.41: 3 Energy, or all your Energy when you have less.
  const int64_t energy = std::min<int64_t>(3, a->Resource(res::kEnergy));
  Cost cost;
  cost.energy = energy;
  // l.47: 1 of that Energy may be paid with 1 Stamina (CheckCatchBreath).
  RETURN_IF_ERROR(ReadCostParams(c, cost));
  Nums nums{{"energy", energy}, {"stamina_gained", 1}};
  RETURN_IF_ERROR(Pay(d, c.actor, cost, {cause, "002.stamina.breath", nums, ""}));
  RETURN_IF_ERROR(AddResource(d, c.actor, res::kStamina, 1,
                              {cause, "002.stamina.breath", nums, ""})
                      .status());
  return Outcome{"caught its breath: +1 Stamina", "002.stamina.breath", nums};
}

// ---- exertion (break down a door 1, climb 1-3, GM tasks: l.64-70)
absl::Status CheckExert(const State& s, const Combatant& a, const fb::CommandT& c,
                        const ActOpts&) {
  const int64_t n = ParamOr(c, "stamina", 0);
  if (n < 1) return Malformed(c, "params.stamina", "the Stamina the task costs (>= 1) is required");
  // l.64-69 "Spending Stamina": a task the table names costs what it says;
  // any other is the GM's (l.70 "up to the discretion of the GM").
  const std::string task = ParamText(c, "task");
  if ((task == "door" || task == "wall") && n != 1) {
    return Refuse("002.stamina.costs",
                  absl::StrCat("params.stamina: breaking down a ", task, " costs 1 Stamina (l.68), not ",
                               n));
  }
  if (task == "climb" && n > 3) {
    return Refuse("002.stamina.costs",
                  absl::StrCat("params.stamina: a climb costs 1 to 3 Stamina (l.69), not ", n));
  }
  Cost cost;
  cost.stamina = n;
  return CheckCost(s, a, cost, absl::StrCat("exertion '", ParamText(c, "stamina"), "'"));
}

absl::StatusOr<Outcome> ResolveExert(Decision& d, const fb::CommandT& c,
                                     uint64_t cause, const ActOpts&) {
  Cost cost;
  cost.stamina = ParamOr(c, "stamina", 0);
  Nums nums{{"stamina", cost.stamina}};
  RETURN_IF_ERROR(Pay(d, c.actor, cost, {cause, "002.stamina.costs", nums, c.text}));
  return Outcome{absl::StrCat("exertion: ", cost.stamina, " Stamina", c.text.empty() ? "" : " (" + c.text + ")"),
                 "002.stamina.costs", nums};
}

// ---- face (free, no window: l.410)
absl::Status DecideFace(const fb::CommandT& c, Decision& d) {
  const State& s = d.state();
  ASSIGN_OR_RETURN(const Combatant* a, Actor(s, c));
  if (a->Has("Dead") || a->Has("Unconscious")) {
    return Refuse("002.cond.unconscious", absl::StrCat(a->id, " cannot turn"));
  }
  int dir = 0;
  if (!c.targets.empty()) {
    ASSIGN_OR_RETURN(const Combatant* t, Target(s, c, 0));
    dir = space::DirBetween(a->at, a->size, t->at, t->size);  // centre to centre
  } else if (auto p = Param(c, "dir"); p.has_value()) {
    if (*p < 0 || *p > 7) return Malformed(c, "params.dir", "0..7 (0 north, clockwise)");
    dir = static_cast<int>(*p);
  } else {
    return Malformed(c, "params.dir", "a direction 0..7 or a target is required");
  }
  const std::string id = a->id;
  const int from = Facing(*a);
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  return SetResource(d, id, res::kFacing, dir,
                     {decl, "002.facing.turn", {{"from", from}, {"to", dir}}, "turning is free"});
}

}  // namespace combat::kernel::energy
