// Movement (L35, L65-L93, L144-L150, L156, L160, L166): Move along a path
// of adjacent squares up to Speed, difficult terrain by the square moved
// out of, allies and occupied squares, Push attempts through enemies,
// grapple partners moving together, Crawl, Stand, dropping Prone and
// putting out a fire.
#include <algorithm>
#include <cstdlib>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/command.h"
#include "kernel/d20_three_action/internal.h"

namespace combat::kernel::d20 {
namespace {

// Creatures other than the mover (and its grapple partners) whose space
// overlaps the mover's space at `at`. Dead creatures do not block.
std::vector<const Combatant*> Occupants(const State& s, const Combatant& mover,
                                        Pos at) {
  const std::vector<std::string> partners = GrapplePartners(mover);
  std::vector<const Combatant*> out;
  for (const auto& [id, c] : s.combatants) {
    if (id == mover.id || IsDead(c) ||
        std::find(partners.begin(), partners.end(), id) != partners.end()) {
      continue;
    }
    if (space::Overlaps(c.at, c.size, at, mover.size)) out.push_back(&c);
  }
  return out;
}

// L93: creatures 2 sizes larger or smaller can be moved through.
bool SizeApart(const Combatant& a, const Combatant& b) {
  return std::llabs(SizeRank(a) - SizeRank(b)) >= 2;
}

// Whether `o` blocks `mover` so that a Push attempt is needed (L35).
bool NeedsPush(const Combatant& mover, const Combatant& o) {
  return Hostile(mover, o) && !SizeApart(mover, o);
}

struct StepCtx {
  bool fly = false;
  bool zero_g = false;  // L85: floating, no ground to be difficult
  bool squeeze = false;
  std::set<std::string> pushed_ok;    // success: their square is difficult
  std::set<std::string> pushed_free;  // critical success: no penalty
};

// The factor of the step out of `from` (L69: determined by the square
// moved out of): x2 when it is difficult for any reason, and the last
// reason found. Reasons do not stack (L69: "counts as moving twice as
// far"), so at most one factor.
struct StepWhy {
  std::string source;  // "rubble at 3,4", "occupied by gob at 4,4"
  std::string rule;
};
std::optional<StepWhy> StepSource(const State& s, const Combatant& mover,
                                  Pos from, const StepCtx& sc) {
  std::optional<StepWhy> why;
  if (!sc.fly && !sc.zero_g) {
    for (Pos p : space::SquaresOf(from, mover.size)) {
      if (IsDifficult(s.TerrainAt(p))) {
        why = StepWhy{s.TerrainAt(p) + " at " + At(p), "000.terrain.difficult"};
        break;
      }
    }
  }
  for (const Combatant* o : Occupants(s, mover, from)) {
    if (!Hostile(mover, *o)) continue;  // L35: allies at no penalty
    if (SizeApart(mover, *o)) {
      why = StepWhy{"occupied by " + o->id + " at " + At(from),
                    "000.terrain.occupied"};  // L93
    } else if (sc.pushed_free.count(o->id) == 0) {
      why = StepWhy{"pushed through " + o->id + " at " + At(from),
                    "000.move.push_through"};  // L35: a successful Push
    }
  }
  if (sc.squeeze) why = StepWhy{On(kSqueezing, mover.id), "000.squeezing"};
  return why;
}

std::vector<space::Factor> StepFactor(const State& s, const Combatant& mover,
                                      Pos from, const StepCtx& sc) {
  const std::optional<StepWhy> why = StepSource(s, mover, from, sc);
  if (!why.has_value()) return {};
  return {{2, why->source}};
}

// Refusals of a path cite `rule`; the occupant check is the ruleset's.
space::PathRules PathRulesFor(const fb::CommandT& c, const char* rule) {
  space::PathRules rules;
  rules.action = c.action;
  rules.rule = rule;
  rules.cite = [](const std::string& id) { return Cite(id); };
  return rules;
}

// Who (not the mover, its grapple partner, or the dead) stands in `q` of
// the mover's space at `at`; "" when nobody.
std::string OccupantIn(const State& s, const Combatant& mover, Pos at, Pos q) {
  for (const Combatant* o : Occupants(s, mover, at)) {
    if (Covers(o->at, o->size, q)) return o->id;
  }
  return "";
}

// L83: "Turning 45 degrees requires an additional 5ft of movement". The
// heading of a step is one of the 8 grid directions; a step whose heading
// differs from the previous step's by k x 45 degrees (k = 1..4, the
// smaller way round) costs 5 x k ft more. Reading: the first step of a
// Move sets the heading at no cost (the text records no facing; a Move
// continued with `continue`, L35, is the same Move: its heading goes on,
// kept on `moving` as ref = heading + 1; so is the rest of a Move a readied
// action's window split, L61: resource split_heading, MoveHeading), and
// Improved Flight (roster tag 'improved_flight') turns free (L83).
int Heading(Pos from, Pos to) {
  const int dx = (to.x > from.x) - (to.x < from.x);
  const int dy = (to.y > from.y) - (to.y < from.y);
  static constexpr int kDir[3][3] = {{5, 4, 3}, {6, -1, 2}, {7, 0, 1}};
  return kDir[dx + 1][dy + 1];
}

int64_t TurnFt(int prev, int next) {
  if (prev < 0 || next < 0) return 0;
  const int k = std::abs(prev - next);
  return 5 * std::min(k, 8 - k);  // L83: 5 ft per 45 degrees
}

// The heading of the last step of this turn's Move (`moving`), or -1.
int LastHeading(const Condition& moving) {
  return moving.note == "fly" && moving.ref > 0
             ? static_cast<int>(moving.ref) - 1
             : -1;
}

}  // namespace

int MoveHeading(const Combatant& a, const fb::CommandT& c, Via via) {
  // L83 with L61: a Move a readied action's window split is the same Move
  // (L19 "interrupts the event"): its rest turns from the last step made
  // before the window (was: free, or a continued flight's heading from
  // before that step, a GM ruling point).
  if (via == Via::kResumed) return static_cast<int>(a.Resource(kSplitHeading)) - 1;
  const Condition* moving = a.FindCondition(kMoving);
  return ParamOr(c, "continue", 0) != 0 && moving != nullptr
             ? LastHeading(*moving)
             : -1;
}

namespace {

bool PaysTurns(const Combatant& c, bool fly) {
  return fly && !c.HasTag("improved_flight");
}

// The extra feet of turning along `path` from `start` (0 when not paid).
int64_t FlightTurnsFt(const Combatant& c, bool fly, Pos start,
                      const std::vector<Pos>& path, int prev) {
  if (!PaysTurns(c, fly)) return 0;
  int64_t ft = 0;
  Pos at = start;
  for (const Pos& p : path) {
    const int h = Heading(at, p);
    ft += TurnFt(prev, h);
    prev = h;
    at = p;
  }
  return ft;
}

}  // namespace

int64_t MoveSpeed(const Combatant& c, bool fly, Nums* nums) {
  int64_t speed = c.Stat("speed");
  if (nums != nullptr) nums->push_back({"speed", speed});
  if (fly) {
    speed *= 2;  // L83
    if (nums != nullptr) nums->push_back({"flight_x2", speed, "", "000.fly"});
  }
  if (c.Has(kEntangled)) return 0;  // L144
  if (c.Has(kGrappled) || c.Has(kGrappling)) {
    speed /= 2;  // L148/L150: halved, rounded down (to whole feet)
    const bool grappled = c.Has(kGrappled);
    if (nums != nullptr) {
      nums->push_back({"grapple_halved", speed,
                       On(grappled ? kGrappled : kGrappling, c.id),
                       grappled ? "000.grappled" : "000.grappling"});
    }
  }
  return speed;
}

absl::Status QuenchIfEntered(Decision& d, const std::string& who,
                             const std::vector<Pos>& path, uint64_t cause) {
  // L156: "put out the fire ... by entering a body of water", however the
  // creature got there (its move or crawl, a push, a grapple partner).
  bool water = false;
  for (Pos p : path) water = water || d.state().TerrainAt(p) == "water";
  const Combatant* c = d.state().Find(who);
  if (!water || c == nullptr || !c->Has(kOnFire)) return absl::OkStatus();
  return RemoveConditionsNamed(d, who, kOnFire,
                               {cause, "000.on_fire", {}, "entered water"});
}

absl::Status ValidateMove(const State& s, const fb::CommandT& c,
                          const Ctx& ctx) {
  ASSIGN_OR_RETURN(const Combatant* a, Actor(s, c));
  const bool fly = ParamOr(c, "fly", 0) != 0;
  if (fly && !a->HasTag("flight")) {
    return Refuse("000.fly", a->id + " cannot fly (roster tag 'flight')");
  }
  // L160: "A Prone Creature can stand as an Action or Crawl 5ft" (also
  // before flying: lying on the ground, it takes off once standing).
  if (a->Has(kProne)) {
    return Refuse("000.prone", a->id +
                                   " is Prone: 'stand' (a Move may stand "
                                   "you up, L35) or 'crawl' 5 ft");
  }
  if (a->Has(kEntangled)) {
    return Refuse("000.entangled",
                  a->id + " is Entangled: it cannot move from its space");
  }
  // L85: in zero-G a creature that does not fly moves by pushing off.
  if (ZeroGMove(s, c, *a)) return ValidateZeroGMove(s, c, *a, ctx);
  // L71 "Running - You Move as you choose up to your Speed along the
  // ground": a creature above the ground (a known altitude, L83) flies or
  // descends first (was: it walked on at its altitude, no longer flying).
  if (!fly && Altitude(*a) > 0) {
    return Refuse("000.fly",
                  absl::StrCat(a->id, " is ", Altitude(*a),
                               " ft above the ground: a Move without 'fly' "
                               "runs along the ground (L71); fly (param "
                               "fly=1) or descend to 0 ft first"));
  }
  const std::vector<Pos> path = PathOf(c);
  // L83: ascending and descending (params ascend / descend, fly only).
  ASSIGN_OR_RETURN(const int64_t vertical, VerticalFt(c, *a));
  if (path.empty() && vertical == 0) {
    if (ctx.via == Via::kResumed) return absl::OkStatus();
    return Malformed(c, "path", "is empty: list the squares entered");
  }
  StepCtx sc;
  sc.fly = fly;
  sc.squeeze = ParamOr(c, "squeeze", 0) != 0;
  const bool cont = ParamOr(c, "continue", 0) != 0;
  const Condition* moving = a->FindCondition(kMoving);
  if (cont && moving == nullptr) {
    return Refuse("000.move", a->id + " has no Move of this turn to continue");
  }
  if (cont && (moving->note == "fly") != fly) {
    return Refuse("000.move", "a continued Move keeps its way of moving (fly)");
  }
  // L35: "you decide where you are moving as you Move": param continue=1
  // spends what is left of this turn's Move without another Action.
  const int64_t speed = cont ? moving->level : MoveSpeed(*a, fly, nullptr);
  const int heading = MoveHeading(*a, c, ctx.via);
  // L35: allies (and L93 creatures 2 sizes apart) are moved through, but
  // a move cannot end in an occupied square.
  space::PathRules rules = PathRulesFor(c, "000.move");
  rules.occupant = [&](Pos q, size_t i, size_t n) -> std::string {
    if (i + 1 != n) return "";
    const std::string who = OccupantIn(s, *a, path[i], q);
    return who.empty() ? "" : who + ": a move cannot end there";
  };
  RETURN_IF_ERROR(
      space::CheckPath(s, kGrid.metric, a->at, a->size, path, rules));
  // Pessimistic: every enemy square is priced as a successful (not
  // critical) Push through it.
  const int64_t cost =
      ctx.spent +
      space::PathCost(kGrid, a->at, path, [&](Pos from, Pos) {
        return StepFactor(s, *a, from, sc);
      }).cost +
      FlightTurnsFt(*a, fly, a->at, path, heading) + vertical;
  // L83: "You must fly at least your Speed", Improved Flight or not (it
  // spares the extra feet of turning and ascending, and hovers only "if you
  // do not spend an Action to fly").
  if (fly && !cont && ctx.via == Via::kDeclared && cost < a->Stat("speed")) {
    return Refuse("000.fly",
                  absl::StrCat("a flyer must fly at least its Speed (",
                               a->Stat("speed"), " ft)"));
  }
  if (cost > speed) {
    // The rule named is the one that makes the path too long: the doubled
    // squares and turns (L69, L83) when the plain steps would fit, else the
    // Speed (L35), halved by a grapple (L148/L150) when the plain steps
    // would fit the whole Speed.
    const int64_t plain =
        ctx.spent + vertical + kGrid.square *
                                   static_cast<int64_t>(path.size());
    const bool halved =
        !cont && (a->Has(kGrappled) || a->Has(kGrappling));
    const int64_t whole = a->Stat("speed") * (fly ? 2 : 1);
    std::string rule = "000.terrain.difficult";
    if (plain > speed) {
      rule = !halved || plain > whole
                 ? "000.move"
                 : (a->Has(kGrappled) ? "000.grappled" : "000.grappling");
    }
    return Refuse(rule,
                  absl::StrCat("the path costs ", cost, " ft but ", a->id,
                               "'s Speed for this Move is ", speed,
                               halved ? " ft (halved by the grapple" : " ft (",
                               halved ? "; " : "",
                               "difficult terrain and pushed-through "
                               "squares count double; a flyer's 45-degree "
                               "turns cost 5 ft each, L83)"));
  }
  return absl::OkStatus();
}

std::optional<size_t> PushAttemptStep(const State& s, const fb::CommandT& c) {
  const Combatant* mover = s.Find(c.actor);
  if (mover == nullptr) return std::nullopt;
  const std::vector<Pos> path = PathOf(c);
  for (size_t i = 0; i < path.size(); ++i) {
    for (const Combatant* o : Occupants(s, *mover, path[i])) {
      if (NeedsPush(*mover, *o)) return i;  // before the attempt (L35, L61)
    }
  }
  return std::nullopt;
}

absl::StatusOr<MoveProgress> ResolveMoveSteps(Decision& d,
                                              const fb::CommandT& c,
                                              uint64_t cause, size_t to,
                                              int64_t spent, int heading) {
  const std::string who = c.actor;
  const std::vector<Pos> path = PathOf(c);
  MoveProgress out;
  out.spent = spent;
  StepCtx sc;
  sc.fly = ParamOr(c, "fly", 0) != 0;
  sc.squeeze = ParamOr(c, "squeeze", 0) != 0;
  sc.zero_g = ZeroGMove(d.state(), c, *d.state().Find(who));
  std::vector<Pos> done;
  const Pos start = d.state().Find(who)->at;
  space::PathWalker walk(kGrid, start);
  Nums nums;
  MoveSpeed(*d.state().Find(who), sc.fly, &nums);  // for the audit
  std::string notes;
  const bool pays_turns = PaysTurns(*d.state().Find(who), sc.fly);
  int64_t turn_ft = 0;
  Nums doubled;  // one per step counted double
  for (size_t i = 0; i < std::min(to, path.size()); ++i) {
    const Pos p = path[i];
    // L115: a Hidden creature's location is discovered by "walking into
    // them".
    {
      std::vector<std::string> found;
      const Combatant& mover = *d.state().Find(who);
      for (const Combatant* o : Occupants(d.state(), mover, p)) {
        if (HiddenFrom(*o, who)) found.push_back(o->id);
      }
      for (const std::string& f : found) {
        RETURN_IF_ERROR(Reveal(d, f, who,
                               {cause, "000.hidden", {}, "walked into it"}));
      }
    }
    // L35: an enemy's square needs a free Push attempt first.
    std::vector<std::string> blockers;
    {
      const Combatant& mover = *d.state().Find(who);
      for (const Combatant* o : Occupants(d.state(), mover, p)) {
        if (NeedsPush(mover, *o) && sc.pushed_ok.count(o->id) == 0 &&
            sc.pushed_free.count(o->id) == 0) {
          blockers.push_back(o->id);
        }
      }
    }
    for (const std::string& b : blockers) {
      const Combatant mover = *d.state().Find(who);
      const Combatant other = *d.state().Find(b);
      ASSIGN_OR_RETURN(Opposed o, OpposedMelee(d, mover, other, nullptr,
                                               "push through", cause));
      const char* result = !o.success   ? "failure: the move ends"
                           : o.critical ? "critical: through at no penalty"
                                        : "success: their square is Difficult "
                                          "Terrain";
      RETURN_IF_ERROR(
          RecordOutcome(d, who, {cause, "000.move.push_through", o.nums,
                       absl::StrCat("Push attempt through ", b, ": ", result)}));
      // L47: a Push attempt counts as an Attack: a Hidden mover's location
      // is discovered by the creature it attacks (L115) and, in zero-G, the
      // mover, where it makes the attempt, and the creature it hits are
      // Unsteady (L85 "make an Attack or are hit"; a flyer too).
      RETURN_IF_ERROR(AfterAnAttack(d, who, b, o.success, cause, walk.at()));
      if (!o.success) {
        out.stopped = true;
        break;
      }
      (o.critical ? sc.pushed_free : sc.pushed_ok).insert(b);
    }
    if (out.stopped) break;
    const std::optional<StepWhy> why =
        StepSource(d.state(), *d.state().Find(who), walk.at(), sc);
    const std::vector<space::Factor> f =
        StepFactor(d.state(), *d.state().Find(who), walk.at(), sc);
    if (!f.empty()) notes = f.back().why;
    if (pays_turns) {  // L83: 5 ft per 45-degree turn
      const int h = Heading(walk.at(), p);
      const int64_t extra = TurnFt(heading, h);
      heading = h;
      turn_ft += extra;
      out.spent += extra;
    }
    const int64_t step = walk.Step(p, space::Product(f));
    out.spent += step;
    if (why.has_value()) {
      // L69: the step counts double; the extra feet name their source.
      doubled.push_back({"doubled_ft", step / 2, why->source, why->rule});
    }
    done.push_back(p);
    ++out.steps_done;
  }
  out.heading = heading;
  // A failed Push may leave the mover short of its target square; it stops
  // in the last square it could stand in.
  while (!done.empty() &&
         !Occupants(d.state(), *d.state().Find(who), done.back()).empty()) {
    done.pop_back();
  }
  if (!done.empty()) {
    nums.insert(nums.end(), doubled.begin(), doubled.end());
    if (turn_ft > 0) nums.push_back({"turn_ft", turn_ft, "", "000.fly"});
    nums.push_back({"spent_ft", out.spent});
    nums.push_back({"squares", static_cast<int64_t>(done.size())});
    const Combatant mover = *d.state().Find(who);
    RETURN_IF_ERROR(Move(d, who, done, out.spent - spent, false,
                         {cause,
                          sc.fly      ? "000.fly"
                          : sc.zero_g ? "000.zero_g"
                                      : "000.move",
                          nums,
                          notes.empty() ? "" : "counted double: " + notes}));
    // L148 / L150 "If you Move the Creature Grappling you (you are
    // Grappling) moves with you": every one of them (a creature with two
    // hands may grapple two, L59).
    for (const std::string& partner : GrapplePartners(mover)) {
      const Pos there = d.state().Find(partner)->at;
      std::vector<Pos> theirs;
      for (Pos p : done) {
        theirs.push_back(
            {there.x + (p.x - start.x), there.y + (p.y - start.y)});
      }
      RETURN_IF_ERROR(
          Move(d, partner, theirs, 0, true,
               {cause,
                mover.FindRelative(kGrappled, partner) != nullptr
                    ? "000.grappled"
                    : "000.grappling",
                {},
                absl::StrCat("moves with ", who)}));
      // L156 "entering a body of water": a flight passes over it (L83).
      if (!sc.fly) RETURN_IF_ERROR(QuenchIfEntered(d, partner, theirs, cause));
    }
    if (!sc.fly) RETURN_IF_ERROR(QuenchIfEntered(d, who, done, cause));
  }
  const Combatant* m = d.state().Find(who);
  if (sc.fly && !m->Has(kFlying)) {
    RETURN_IF_ERROR(Apply(d, who, kFlying, who, 0, std::nullopt,
                          {cause, "000.fly", {}, "airborne"})
                        .status());
  } else if (!sc.fly && m->Has(kFlying) && !done.empty()) {
    RETURN_IF_ERROR(RemoveConditionsNamed(d, who, kFlying,
                                          {cause, "000.move", {}, "landed"}));
  }
  m = d.state().Find(who);
  if (sc.squeeze && !m->Has(kSqueezing)) {
    RETURN_IF_ERROR(Apply(d, who, kSqueezing, who, 0, std::nullopt,
                          {cause,
                           "000.squeezing",
                           {},
                           "moving through a "
                           "narrow space"})
                        .status());
  } else if (!sc.squeeze && m->Has(kSqueezing) && !done.empty()) {
    RETURN_IF_ERROR(RemoveConditionsNamed(
        d, who, kSqueezing, {cause, "000.squeezing", {}, "out of the space"}));
  }
  return out;
}

absl::Status ResolveMove(Decision& d, const fb::CommandT& c, const Ctx& ctx) {
  const bool fly = ParamOr(c, "fly", 0) != 0;
  const Combatant before = *d.state().Find(c.actor);
  const Condition* moving = before.FindCondition(kMoving);
  const bool cont = ParamOr(c, "continue", 0) != 0 && moving != nullptr;
  const int64_t speed = cont ? moving->level : MoveSpeed(before, fly, nullptr);
  const bool zero_g = ZeroGMove(d.state(), c, before);
  ASSIGN_OR_RETURN(MoveProgress p,
                   ResolveMoveSteps(d, c, ctx.cause, c.path.size(),
                                    ctx.spent,
                                    MoveHeading(before, c, ctx.via)));
  if (ctx.via == Via::kResumed && before.Resource(kSplitHeading) != 0) {
    RETURN_IF_ERROR(SetResource(d, c.actor, kSplitHeading, 0,
                                {ctx.cause, "000.fly", {}, "the Move resumed"}));
  }
  if (zero_g) {
    RETURN_IF_ERROR(AfterZeroGMove(d, c, before, ctx,
                                   static_cast<int64_t>(c.path.size())));
  }
  int64_t vertical = 0;
  if (fly) {
    ASSIGN_OR_RETURN(vertical, VerticalFt(c, before));
    RETURN_IF_ERROR(ClimbOrDive(d, c, ctx.cause));  // L83
  }
  // What is left of this Move for the rest of the turn (none once a failed
  // Push ended it, L35; none after pushing off in zero-G, L85).
  const int64_t left =
      p.stopped || zero_g ? 0
                          : std::max<int64_t>(0, speed - p.spent - vertical);
  if (moving != nullptr) {
    RETURN_IF_ERROR(RemoveConditionsNamed(
        d, c.actor, kMoving, {ctx.cause, "000.move", {}, "replaced"}));
  }
  NewCondition nc;
  nc.actor = c.actor;
  nc.name = kMoving;
  nc.source = c.actor;
  nc.level = left;
  nc.note = fly ? "fly" : "";
  // L83 with L35: the heading a continued flight turns from.
  if (fly && p.heading >= 0) nc.ref = static_cast<uint64_t>(p.heading) + 1;
  nc.expiry = ThisTurn(d.state(), c.actor);
  return AddCondition(
             d, nc,
             {ctx.cause,
              "000.move",
              {{"speed", speed}, {"spent_ft", p.spent}, {"left_ft", left}},
              "movement left this turn"})
      .status();
}

absl::Status ValidateCrawl(const State& s, const fb::CommandT& c,
                           const Ctx& ctx) {
  ASSIGN_OR_RETURN(const Combatant* a, Actor(s, c));
  if (!a->Has(kProne)) {
    return Refuse("000.crawl", a->id + " is not Prone: use 'move'");
  }
  if (InZeroG(s, *a)) {
    return Refuse("000.zero_g",
                  "in zero-G you are only able to Move by pushing off of "
                  "things ('move' with push_off)");
  }
  if (a->Has(kEntangled)) {
    return Refuse("000.entangled", a->id + " is Entangled: it cannot move");
  }
  if (c.path.size() != 1) {
    if (c.path.empty() && ctx.via == Via::kResumed) return absl::OkStatus();
    return Malformed(c, "path",
                     "crawling moves exactly one square (5 ft, L73)");
  }
  const std::vector<Pos> path = PathOf(c);
  space::PathRules rules = PathRulesFor(c, "000.crawl");
  rules.occupant = [&](Pos q, size_t, size_t) {
    return OccupantIn(s, *a, path[0], q);
  };
  RETURN_IF_ERROR(
      space::CheckPath(s, kGrid.metric, a->at, a->size, path, rules));
  // L69: "all movement through it counts as moving twice as far ...
  // Determined by the square you are moving out of" (difficult ground, or
  // the square of a creature 2 sizes apart, L93): the crawl's one square
  // out of it counts 10 ft, more than the 5 ft of L73. (No Push attempt is
  // made crawling: a creature sharing its square is no reason.)
  StepCtx sc;
  for (const Combatant* o : Occupants(s, *a, a->at)) sc.pushed_free.insert(o->id);
  if (const std::optional<StepWhy> why = StepSource(s, *a, a->at, sc);
      why.has_value()) {
    return Refuse(why->rule,
                  absl::StrCat("crawling out of ", why->source,
                               " counts as moving 10 ft (Difficult Terrain, "
                               "L69), more than the 5 ft a crawl moves (L73): "
                               "stand up (an Action) and move"));
  }
  return absl::OkStatus();
}

absl::Status ResolveCrawl(Decision& d, const fb::CommandT& c, const Ctx& ctx) {
  if (c.path.empty()) return absl::OkStatus();
  const Combatant mover = *d.state().Find(c.actor);
  const std::vector<Pos> path = PathOf(c);
  // L73: a crawl is one square, 5 ft (out of difficult ground it is
  // refused, ValidateCrawl).
  RETURN_IF_ERROR(Move(d, c.actor, path, kSquare, false,
                       {ctx.cause, "000.crawl", {{"ft", kSquare}}}));
  RETURN_IF_ERROR(QuenchIfEntered(d, c.actor, path, ctx.cause));
  for (const std::string& partner : GrapplePartners(mover)) {  // L148, L150
    const Pos there = d.state().Find(partner)->at;
    const std::vector<Pos> theirs = {
        {there.x + path[0].x - mover.at.x, there.y + path[0].y - mover.at.y}};
    RETURN_IF_ERROR(Move(
        d, partner, theirs, 0, true,
        {ctx.cause, "000.grappled", {}, "moves with " + mover.id}));
    RETURN_IF_ERROR(QuenchIfEntered(d, partner, theirs, ctx.cause));
  }
  return absl::OkStatus();
}

absl::Status ValidateStand(const State& s, const fb::CommandT& c,
                           const Ctx& ctx) {
  ASSIGN_OR_RETURN(const Combatant* a, Actor(s, c));
  (void)ctx;
  if (!a->Has(kProne)) return Refuse("000.prone", a->id + " is not Prone");
  return absl::OkStatus();
}

absl::Status ResolveStand(Decision& d, const fb::CommandT& c, const Ctx& ctx) {
  return RemoveConditionsNamed(
      d, c.actor, kProne,
      {ctx.cause, "000.move.stand", {}, "stands up (L35, L160)"});
}

absl::Status ValidateDropProne(const State& s, const fb::CommandT& c,
                               const Ctx& ctx) {
  ASSIGN_OR_RETURN(const Combatant* a, Actor(s, c));
  (void)ctx;
  if (a->Has(kProne)) return Refuse("000.prone", a->id + " is already Prone");
  return absl::OkStatus();
}

absl::Status ResolveDropProne(Decision& d, const fb::CommandT& c,
                              const Ctx& ctx) {
  return KnockProne(
      d, c.actor,
      {ctx.cause, "000.free_action", {}, "falls Prone (a Free Action, L21)"});
}

absl::Status ValidateExtinguish(const State& s, const fb::CommandT& c,
                                const Ctx& ctx) {
  ASSIGN_OR_RETURN(const Combatant* a, Actor(s, c));
  (void)ctx;
  if (!a->Has(kOnFire)) return Refuse("000.on_fire", a->id + " is not On fire");
  return absl::OkStatus();
}

absl::Status ResolveExtinguish(Decision& d, const fb::CommandT& c,
                               const Ctx& ctx) {
  const Why why{ctx.cause, "000.on_fire", {}, "dropped Prone and rolled"};
  RETURN_IF_ERROR(KnockProne(d, c.actor, why));
  return RemoveConditionsNamed(d, c.actor, kOnFire, why);
}

}  // namespace combat::kernel::d20
