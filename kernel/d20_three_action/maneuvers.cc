// Maneuvers (L47-L59): Break, Disarm, Feint, Grapple, Push, Trip; and the
// grapple follow-ups Escape (L148), Choke and Release (L150), and picking a
// dropped item up.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/command.h"
#include "kernel/d20_three_action/internal.h"
#include "kernel/space.h"

namespace combat::kernel::d20 {

absl::Status AfterAnAttack(Decision& d, const std::string& attacker,
                           const std::string& target, bool hit,
                           uint64_t cause, std::optional<Pos> attacker_at) {
  RETURN_IF_ERROR(
      Reveal(d, attacker, target, {cause, "000.hidden", {}, "attacked"}));
  RETURN_IF_ERROR(Unsteady(d, attacker, cause, "made an Attack", attacker_at));
  if (!hit) return absl::OkStatus();
  RETURN_IF_ERROR(Unsteady(d, target, cause, "was hit"));
  return Reveal(d, target, attacker,
                {cause, "000.hidden", {}, "hit: location found"});
}

namespace {

int Sign(int64_t v) { return v > 0 ? 1 : (v < 0 ? -1 : 0); }

// From `from`'s centre to `target`'s, in half squares.
std::pair<int64_t, int64_t> CentreToCentre(const Combatant& from,
                                           const Combatant& target) {
  return {(2 * int64_t{target.at.x} + target.size) -
              (2 * int64_t{from.at.x} + from.size),
          (2 * int64_t{target.at.y} + target.size) -
              (2 * int64_t{from.at.y} + from.size)};
}

// L51 "Push them back": the step along the line from `from`'s centre to
// `target`'s, the grid direction nearest it (space::DirBetween's octants;
// was: the sign of each axis, so a line 18 degrees off east went south-east);
// {0, 0} when the centres meet (a creature sharing the space).
Pos AwayFrom(const Combatant& from, const Combatant& target) {
  if (CentreToCentre(from, target) == std::pair<int64_t, int64_t>{0, 0}) {
    return {0, 0};
  }
  return space::DirVec(
      space::DirBetween(from.at, from.size, target.at, target.size));
}

// L51: directly away from the pusher (centre to centre) unless the command
// gives `dx`/`dy`.
Pos PushDirection(const Combatant& a, const Combatant& t,
                  const fb::CommandT& c) {
  if (HasParam(c, "dx") || HasParam(c, "dy")) {
    return {Sign(ParamOr(c, "dx", 0)), Sign(ParamOr(c, "dy", 0))};
  }
  return AwayFrom(a, t);
}

std::string WithMod(const std::string& dice, int64_t mod) {
  if (mod == 0) return dice;
  return mod > 0 ? absl::StrCat(dice, "+", mod) : absl::StrCat(dice, "-", -mod);
}

absl::StatusOr<uint32_t> AddNoted(Decision& d, const std::string& who,
                                  const std::string& name,
                                  const std::string& by, int64_t level,
                                  const std::string& note, const Why& why,
                                  uint32_t parent = 0,
                                  const std::string& relative_to = "") {
  NewCondition nc;
  nc.actor = who;
  nc.name = name;
  nc.source = by;
  nc.level = level;
  nc.note = note;
  nc.parent = parent;
  nc.relative_to = relative_to;
  return AddCondition(d, nc, why);
}

const Weapon* ManeuverWeapon(const Combatant& a, const fb::CommandT& c) {
  return c.weapon.empty() ? nullptr : a.FindWeapon(c.weapon);
}

int64_t FreeHands(const Combatant& a) {
  // L148/L150: each grapple takes one arm.
  return a.Stat("hands", 2) - static_cast<int64_t>(Named(a, kGrappling).size() +
                                                   Named(a, kGrappled).size());
}

}  // namespace

absl::Status ValidateManeuver(const State& s, const fb::CommandT& c,
                              const Ctx& ctx) {
  (void)ctx;
  ASSIGN_OR_RETURN(const Combatant* a, Actor(s, c));
  if (c.targets.size() != 1)
    return Malformed(c, "targets", "exactly one target");
  ASSIGN_OR_RETURN(const Combatant* t, Target(s, c, 0));
  if (t->id == a->id) return Malformed(c, "targets", "not itself");
  if (IsDead(*t)) return Refuse("000.dead", t->id + " is Dead");
  const Weapon* w = nullptr;
  if (!c.weapon.empty()) {
    w = a->FindWeapon(c.weapon);
    if (w == nullptr) {
      return Malformed(c, "weapon",
                       absl::StrCat(a->id, " has no weapon '", c.weapon, "'"));
    }
    if (w->kind != "melee" && w->kind != "natural") {
      return Refuse("000.maneuver",
                    "a Maneuver replaces a Melee Attack: use a melee weapon");
    }
    if (!InHand(*a, *w)) {
      return Refuse("000.disarm", a->id + "'s " + w->name + " is not in hand");
    }
  }
  // L47: "with the same Reach" as a Melee Attack.
  const int64_t reach = w != nullptr ? w->reach : MeleeReach(*a);
  const int64_t dist = DistanceFt(*a, *t);
  if (dist > reach) {
    return Refuse("000.maneuver",
                  absl::StrCat(t->id, " is ", dist, " ft away, beyond reach (",
                               reach, " ft)"));
  }
  if (CoverFrom(s, a->at, a->size, *t, a->id).blocked) {
    return Refuse("000.cover", t->id + " is completely obscured by a wall");
  }
  // L47 "These count as Attacks"; L115: "Other Creatures attempting to
  // target a Hidden Creature must declare what square they think it is in
  // before attempting an Attack roll."
  if (c.path.empty() && HiddenFrom(*t, a->id)) {
    return Malformed(c, "path",
                     t->id +
                         " is Hidden from you: declare the square you think "
                         "it is in (L115)");
  }
  if (c.action == "grapple") {
    if (a->FindRelative(kGrappling, t->id) != nullptr) {
      return Refuse("000.grapple", a->id + " is already Grappling " + t->id);
    }
    const bool natural = w != nullptr && w->kind == "natural";
    if (!natural && FreeHands(*a) <= 0) {
      return Refuse(
          "000.grapple",
          a->id + " needs a free hand or a Natural Weapon to Grapple");
    }
  }
  if (c.action == "disarm") {
    const std::string item = ParamText(c, "item");  // required (verbs.cc)
    const Weapon* held = t->FindWeapon(item);
    if (held == nullptr) {
      return Malformed(c, "params.item",
                       absl::StrCat(t->id, " carries no '", item, "'"));
    }
    // L55: "they drop an item they are carrying": a Natural Weapon is part
    // of the creature (L59, L148 "arms or Natural Weapons"), not an item.
    if (held->kind == "natural") {
      return Refuse("000.disarm",
                    absl::StrCat("params.item: ", t->id, "'s ", item,
                                 " is a Natural Weapon, not an item it "
                                 "carries: name a weapon it holds"));
    }
    if (!InHand(*t, item)) {
      return Refuse("000.disarm", t->id + " no longer holds its " + item);
    }
    // `crit` is drop / fling / take (verbs.cc).
  }
  if (c.action == "break") {
    // `item` and `weapon` are required (verbs.cc); the weapon must deal Damage.
    if (w == nullptr || w->damage.empty()) {
      return Malformed(c, "weapon", "Break deals a weapon's Damage: name one");
    }
    // L49: "you deal Damage to an Object they are carrying": not a Natural
    // Weapon (part of the creature, L59), nor an item it no longer holds
    // (dropped, flung or taken, L55).
    const std::string item = ParamText(c, "item");
    if (const Weapon* own = t->FindWeapon(item);
        own != nullptr && own->kind == "natural") {
      return Refuse("000.break",
                    absl::StrCat("params.item: ", t->id, "'s ", item,
                                 " is a Natural Weapon, not an Object it "
                                 "carries"));
    }
    if (!InHand(*t, item)) {
      return Refuse("000.break",
                    absl::StrCat("params.item: ", t->id,
                                 " no longer carries its ", item,
                                 " (L55): name an Object it carries"));
    }
  }
  if (c.action == "push") {
    const int64_t dist_ft = ParamOr(c, "distance", 15);
    if (dist_ft < kSquare || dist_ft > 15 || dist_ft % kSquare != 0) {
      return Malformed(c, "params.distance", "5, 10 or 15 (ft)");
    }
    // L51 "you Push them back 5ft": back from you. A creature sharing your
    // space (a grapple, L59) has no "back": the pusher names the direction,
    // or the Push would succeed without moving it.
    const Pos dir = PushDirection(*a, *t, c);
    if (dir.x == 0 && dir.y == 0) {
      return Malformed(c, "params.dx",
                       t->id +
                           " shares your space: give the Push's direction "
                           "(dx, dy: -1, 0 or 1, not both 0; L51)");
    }
    // L51 "you Push them back": never toward the pusher (was: accepted, the
    // pushed creature passing into or through the pusher's space).
    const auto [vx, vy] = CentreToCentre(*a, *t);
    if (dir.x * vx + dir.y * vy < 0) {
      const Pos back = AwayFrom(*a, *t);
      return Refuse("000.push",
                    absl::StrCat("a Push sends ", t->id,
                                 " back, not toward ", a->id, " (L51): dx ",
                                 dir.x, ", dy ", dir.y, " points at ", a->id,
                                 "; back is dx ", back.x, ", dy ", back.y));
    }
  }
  return absl::OkStatus();
}

namespace {

// L148 "If you Move the Creature Grappling you moves with you" (L150
// likewise for the creature you are Grappling): when `mover` (as it was
// before moving) moves along `path` as part of a Maneuver, its grapple
// partners other than `except` (the creature the Maneuver moved) move along.
absl::Status PartnersMoveAlong(Decision& d, const Combatant& mover,
                               const std::string& except,
                               const std::vector<Pos>& path, uint64_t cause) {
  std::vector<std::pair<std::string, const char*>> partners;
  for (const auto& [id, cond] : mover.conditions) {
    if (cond.name != kGrappled && cond.name != kGrappling) continue;
    if (cond.relative_to.empty() || cond.relative_to == except) continue;
    partners.emplace_back(cond.relative_to, cond.name == kGrappled
                                                ? "000.grappled"
                                                : "000.grappling");
  }
  for (const auto& [partner, rule] : partners) {
    const Combatant* o = d.state().Find(partner);
    if (o == nullptr) continue;
    const Pos there = o->at;
    std::vector<Pos> theirs;
    for (Pos p : path) {
      theirs.push_back(
          {there.x + (p.x - mover.at.x), there.y + (p.y - mover.at.y)});
    }
    RETURN_IF_ERROR(Move(d, partner, theirs, 0, true,
                         {cause, rule, {}, "moves with " + mover.id}));
    RETURN_IF_ERROR(QuenchIfEntered(d, partner, theirs, cause));  // L156
  }
  return absl::OkStatus();
}

// L59 "Both Creatures share the space": `who`, pulled by `by`'s Grapple
// into `by`'s space at `to`, leaves the space it shares with its other
// grapple partners; those grapples end, as a Push or a GM's move out of
// the shared space ends one (L148 "If you Move the Creature Grappling you
// moves with you" is the creature's own Move, not being moved).
absl::Status EndGrapplesLeftBehind(Decision& d, const std::string& who,
                                   const std::string& by, Pos to,
                                   uint64_t cause) {
  const Combatant* c = d.state().Find(who);
  std::vector<std::string> apart;
  for (const std::string& other : GrapplePartners(*c)) {
    const Combatant* o = d.state().Find(other);
    if (other == by || o == nullptr ||
        space::Overlaps(to, c->size, o->at, o->size)) {
      continue;
    }
    apart.push_back(other);
  }
  for (const std::string& other : apart) {
    RETURN_IF_ERROR(EndGrappleWith(
        d, who, other,
        {cause, "000.grapple", {},
         absl::StrCat(who, " is pulled into ", by, "'s space, out of ", other,
                      "'s (L59)")}));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status PushAway(Decision& d, std::string pusher, std::string target,
                      Pos dir, int64_t squares, uint64_t cause) {
  if (dir.x == 0 && dir.y == 0) return absl::OkStatus();
  const Combatant p0 = *d.state().Find(pusher);
  // L51: "You must remain adjacent to the Enemy and cannot Move more than
  // your Speed": the pusher follows, so the push is capped by its Speed.
  // Whole 5 ft squares, rounded down (a push moves square by square, L51).
  const int64_t walk = MoveSpeed(p0, false, nullptr);
  int64_t speed = walk;
  // L73 "While Prone you can Move 5ft" (L160 "Crawl 5ft"): a Prone pusher
  // follows by crawling, one square at most.
  if (p0.Has(kProne)) speed = std::min<int64_t>(speed, kSquare);
  bool doubled = false;  // a follow-up step out of difficult ground, L69
  const Combatant t0 = *d.state().Find(target);
  // A creature sharing its grappler's space pushes the grappler out of it
  // and stays (L148); the grappler pushing the creature it holds follows it
  // into its square (L59).
  const bool stays = space::Overlaps(p0.at, p0.size, t0.at, t0.size) &&
                     p0.FindRelative(kGrappling, target) == nullptr;
  int64_t cap = speed / kSquare;
  if (!stays) {
    // L69 "all movement through it counts as moving twice as far ...
    // Determined by the square you are moving out of": each square the
    // pusher follows out of difficult ground counts 10 ft of its Speed (not
    // in flight or in zero-G: no ground under it, L69 "fly over it", L85).
    const bool ground = !p0.Has(kFlying) && !InZeroG(d.state(), p0);
    int64_t spent = 0;
    cap = 0;
    for (int64_t k = 0; k < squares; ++k) {
      const Pos from{p0.at.x + static_cast<int32_t>(dir.x * k),
                     p0.at.y + static_cast<int32_t>(dir.y * k)};
      int64_t step = kSquare;
      for (Pos q : space::SquaresOf(from, p0.size)) {
        if (ground && IsDifficult(d.state().TerrainAt(q))) step = 2 * kSquare;
      }
      if (step > kSquare) doubled = true;
      if (spent + step > speed) break;
      spent += step;
      ++cap;
    }
  }
  if (cap >= 1 && cap < squares) {
    // L51 "cannot Move more than your Speed": say why the push goes no
    // farther than the pusher can follow (the adjacency limit records its
    // own outcome below; an Entangled pusher, cap 0, is stopped by it).
    RETURN_IF_ERROR(RecordOutcome(
        d, pusher,
        {cause,
         "000.push",
         {{"ft", squares * kSquare},
          {"pusher_speed_ft", walk},
          {"pusher_follow_ft", cap * kSquare}},
         absl::StrCat("the push goes ", cap * kSquare, " ft at most: ", pusher,
                      " cannot Move more than its Speed (", walk, " ft",
                      p0.Has(kProne) ? ", crawling 5 ft, L73" : "",
                      doubled ? ", difficult ground counting double, L69"
                              : "",
                      "; L51)")}));
  }
  squares = std::min(squares, std::max<int64_t>(cap, 1));
  std::vector<Pos> path;
  bool wall = false;
  for (int64_t k = 1; k <= squares; ++k) {
    const Pos next{t0.at.x + static_cast<int32_t>(dir.x * k),
                   t0.at.y + static_cast<int32_t>(dir.y * k)};
    bool blocked = false;
    for (Pos q : space::SquaresOf(next, t0.size)) {
      const std::string terrain = d.state().TerrainAt(q);
      if (terrain == "wall" || terrain == "cover") {
        wall = true;  // a hard surface
        blocked = true;
      } else if (terrain == "offmap") {
        blocked = true;
      }
      const Combatant* o = d.state().OccupantAt(q, target);
      if (o != nullptr && o->id != pusher && !IsDead(*o)) blocked = true;
      if (blocked) break;
    }
    if (blocked) break;
    path.push_back(next);
  }
  // The squares the pusher can follow along (a wall, the map's edge or
  // another living creature stops it; the pushed creature is ahead).
  std::vector<Pos> follow;
  // Its grapple partners move with it (L148, L150): none stands in its way.
  const std::vector<std::string> partners = GrapplePartners(p0);
  // L51 "cannot Move more than your Speed", L144 "cannot Move from its
  // space under its own Power": it follows no farther than `cap` squares
  // (none when Entangled, Speed 0), and adjacency then stops the push.
  for (int64_t k = 1; k <= std::min(squares, cap) && !stays; ++k) {
    const Pos next{p0.at.x + static_cast<int32_t>(dir.x * k),
                   p0.at.y + static_cast<int32_t>(dir.y * k)};
    bool blocked = false;
    for (Pos q : space::SquaresOf(next, p0.size)) {
      const Combatant* o = d.state().OccupantAt(q, pusher);
      if (IsWall(d.state().TerrainAt(q)) ||
          (o != nullptr && !IsDead(*o) && o->id != target &&
           std::find(partners.begin(), partners.end(), o->id) ==
               partners.end())) {
        blocked = true;
        break;
      }
    }
    if (blocked) break;
    follow.push_back(next);
  }
  // L51 "You must remain adjacent to the Enemy": the push goes only as far
  // as the pusher, following, stays adjacent (or as close as it began, with
  // a longer reach). Reading (black-box): a blocked follow-up stops the
  // push; the roll is made before, so it is not refused.
  const int64_t near_ft =
      std::max<int64_t>(kSquare, DistanceFt(p0.at, p0.size, t0.at, t0.size));
  const int64_t surface = static_cast<int64_t>(path.size());
  int64_t keeps = 0;  // the farthest push the pusher stays adjacent through
  for (int64_t k = 1; k <= surface; ++k) {
    const int64_t f = std::min<int64_t>(k, static_cast<int64_t>(follow.size()));
    const Pos p{p0.at.x + static_cast<int32_t>(dir.x * f),
                p0.at.y + static_cast<int32_t>(dir.y * f)};
    const Pos t{t0.at.x + static_cast<int32_t>(dir.x * k),
                t0.at.y + static_cast<int32_t>(dir.y * k)};
    if (DistanceFt(p, p0.size, t, t0.size) > near_ft) break;
    keeps = k;
  }
  if (keeps < surface) {
    RETURN_IF_ERROR(RecordOutcome(
        d, pusher,
        {cause,
         "000.push",
         {{"ft", surface * kSquare}, {"pusher_adjacent_ft", keeps * kSquare}},
         absl::StrCat("the push stops at ", keeps * kSquare, " ft: ", pusher,
                      " cannot follow farther and remain adjacent (L51)")}));
    path.resize(keeps);
    wall = false;  // it stops before any hard surface
  }
  const int64_t travelled = static_cast<int64_t>(path.size());
  if (!path.empty()) {
    RETURN_IF_ERROR(Move(d, target, path, 0, true,
                         {cause,
                          "000.push",
                          {{"squares", travelled}, {"ft", travelled * kSquare}},
                          "pushed by " + pusher}));
    RETURN_IF_ERROR(QuenchIfEntered(d, target, path, cause));  // L156
  }
  // L51: "If their movement is ended prematurely by a hard surface": a d6
  // per 5 ft not travelled, and Prone.
  const int64_t short_by = squares - travelled;
  if (wall && short_by > 0) {
    RETURN_IF_ERROR(RollDamage(d, absl::StrCat(short_by, "d6"), pusher, target,
                               "collision", false, "000.push.wall", cause,
                               {{"ft_not_travelled", short_by * kSquare}})
                        .status());
    if (!IsDead(*d.state().Find(target))) {
      RETURN_IF_ERROR(KnockProne(
          d, target, {cause, "000.push.wall", {}, "hit a hard surface"}));
    }
  }
  // The pusher follows to remain adjacent.
  if (static_cast<int64_t>(follow.size()) > travelled) follow.resize(travelled);
  if (!follow.empty()) {
    RETURN_IF_ERROR(Move(d, pusher, follow, 0, false,
                         {cause, "000.push", {}, "follows to stay adjacent"}));
    RETURN_IF_ERROR(QuenchIfEntered(d, pusher, follow, cause));  // L156
    RETURN_IF_ERROR(PartnersMoveAlong(d, p0, target, follow, cause));
  }
  // L59 "Both Creatures share the space": pushed out of its grapple
  // partner's space, the pushed creature is no longer held / holding (as a
  // Push by the grappled creature itself ends it, L148).
  // Each partner left behind (a creature may be held by two, L59 "a free
  // hand"): only those grapples end; a grappler that followed still shares
  // the space.
  for (const std::string& other :
       PartnersApart(d.state(), *d.state().Find(target))) {
    RETURN_IF_ERROR(EndGrappleWith(
        d, target, other,
        {cause, "000.push", {}, "pushed out of " + other + "'s space"}));
  }
  return absl::OkStatus();
}

absl::Status ResolveManeuver(Decision& d, const fb::CommandT& c,
                             const Ctx& ctx) {
  const uint64_t cause = ctx.cause;
  const Combatant a = *d.state().Find(c.actor);
  const Combatant t = *d.state().Find(c.targets[0]);
  const Weapon* wp = ManeuverWeapon(a, c);
  const Weapon w = wp != nullptr ? *wp : Weapon{};
  const Weapon* weapon = wp != nullptr ? &w : nullptr;
  // L115: "If the wrong square is targeted the Attack roll is still made,
  // but always misses."
  const bool wrong_square =
      HiddenFrom(t, a.id) && !c.path.empty() &&
      !Covers(t.at, t.size, Pos{c.path[0].x(), c.path[0].y()});
  const char* wrong_note = " (wrong square: always misses, L115)";

  if (c.action == "feint") {
    // L53: a Melee Attack roll against Mental Defense.
    const Edge edge = AttackEdge(d.state(), a, t, {AttackKind::kMelee, weapon});
    Nums nums;
    const int64_t bonus = MeleeBonus(a, weapon, ParamText(c, "stat"), &nums);
    ASSIGN_OR_RETURN(RollOutcome o,
                     RollAttack(d, a.id, bonus, edge, "feint", cause));
    const int64_t def = t.Stat("mental_defense");
    const bool ok = !wrong_square && o.total >= def;
    const bool crit = ok && IsCritical(o, def);
    edge.AddTo(nums);
    nums.insert(nums.end(), {{"d20", o.natural},
                             {"total", o.total},
                             {"mental_defense", def},
                             {"success", ok},
                             {"critical", crit}});
    RETURN_IF_ERROR(RecordOutcome(d, a.id, {cause, "000.feint", nums,
                                 absl::StrCat("feint vs ", t.id, ": ",
                                              crit ? "critical"
                                              : ok ? "success"
                                                   : "failure",
                                              wrong_square ? wrong_note : "")}));
    RETURN_IF_ERROR(ConsumeDodge(d, *d.state().Find(t.id), edge, cause));
    RETURN_IF_ERROR(AfterAnAttack(d, a.id, t.id, ok, cause));
    if (crit) {
      // L53 "until your next Turn": the feinter's, whoever's turn it is;
      // marked so that it follows the feinter when it holds or delays
      // (KeepRoundAnchors), unlike a Round's duration.
      NewCondition nc;
      nc.actor = t.id;
      nc.name = kFlatFooted;
      nc.source = a.id;
      nc.expiry = UntilNextTurnOf(d.state(), a.id);
      nc.note = kUntilYourNextTurn;
      return AddCondition(d, nc,
                          {cause,
                           "000.feint",
                           {},
                           "critical: against everyone until "
                           "the feinter's next turn"})
          .status();
    }
    if (ok) {
      return Apply(d, t.id, kFlatFooted, a.id, 0, ThisTurn(d.state(), a.id),
                   {cause,
                    "000.feint",
                    {},
                    "against the feinter for the rest "
                    "of its turn"},
                   0, a.id)
          .status();
    }
    return absl::OkStatus();
  }

  ASSIGN_OR_RETURN(Opposed o, OpposedMelee(d, a, t, weapon, c.action, cause));
  if (wrong_square) {
    o.success = false;
    o.critical = false;
    for (Num& n : o.nums) {
      if (n.key == "success" || n.key == "critical") n.value = 0;
    }
    o.nums.push_back({"wrong_square", 1});
  }
  const std::string rule = "000." + c.action;
  RETURN_IF_ERROR(RecordOutcome(d, a.id, {cause, rule, o.nums,
                               absl::StrCat(c.action, " vs ", t.id, ": ",
                                            o.critical  ? "critical success"
                                            : o.success ? "success"
                                                        : "failure",
                                            wrong_square ? wrong_note : "")}));
  RETURN_IF_ERROR(AfterAnAttack(d, a.id, t.id, o.success, cause));
  if (!o.success) return absl::OkStatus();
  // L148/L150: succeeding an opposed roll to Push or Grapple the creature
  // grappling you ends the grapple.
  if ((c.action == "push" || c.action == "grapple") &&
      a.FindRelative(kGrappled, t.id) != nullptr) {
    RETURN_IF_ERROR(EndHold(d, t.id, a.id,
                            {cause, "000.grappled", {}, "broke the grapple"}));
  }
  if (c.action == "break") {
    const std::string item = ParamText(c, "item");
    ASSIGN_OR_RETURN(
        dice::RollResult r,
        d.Roll(WithMod(w.damage, a.Stat("str")), "break damage", a.id, cause));
    int64_t amount = std::max<int64_t>(0, r.total);
    Nums nums = {{"rolled", r.total}};
    if (o.critical) {
      amount *= 2;  // L49
      nums.push_back({"critical_x2", amount, "", "000.attack.critical"});
    }
    nums.push_back({"damage", amount});
    return AddResource(d, t.id, "item_damage:" + item, amount,
                       {cause,
                        o.critical ? "000.attack.critical" : "000.break",
                        nums,
                        "damage to a carried object; its HP and Durability are "
                        "the GM's (L142)"})
        .status();
  }
  if (c.action == "disarm") {
    const std::string item = ParamText(c, "item");
    std::string how = o.critical ? ParamText(c, "crit") : "drop";
    if (how.empty()) how = "drop";
    const int64_t level = how == "fling" ? 1 : (how == "take" ? 2 : 0);
    const std::string note = item;
    RETURN_IF_ERROR(AddNoted(d, t.id, kDisarmed, a.id, level, note,
                             {cause,
                              "000.disarm",
                              {{"how", level}},
                              how == "drop"    ? "dropped in its square"
                              : how == "fling" ? "flung 10 ft away"
                                               : "taken by " + a.id})
                        .status());
    if (how == "take") {
      return AddNoted(d, a.id, kTookItem, a.id, 0, item,
                      {cause, "000.disarm", {}, "took " + t.id + "'s " + item})
          .status();
    }
    return absl::OkStatus();
  }
  if (c.action == "grapple") {
    // L59: Grappling / Grappled; Entangled when smaller (L148, L150).
    ASSIGN_OR_RETURN(uint32_t g,
                     AddNoted(d, a.id, kGrappling, a.id, 0, "",
                              {cause, "000.grapple", o.nums}, 0, t.id));
    ASSIGN_OR_RETURN(uint32_t gd,
                     AddNoted(d, t.id, kGrappled, a.id, 0, "",
                              {cause, "000.grapple", {}}, g, a.id));
    if (SizeRank(t) < SizeRank(a)) {
      RETURN_IF_ERROR(AddNoted(d, t.id, kEntangled, a.id, 0,
                               "smaller than "
                               "its grappler",
                               {cause, "000.grappled", {}}, gd)
                          .status());
    }
    if (SizeRank(a) < SizeRank(t)) {
      RETURN_IF_ERROR(AddNoted(d, a.id, kEntangled, a.id, 0,
                               "smaller than "
                               "the creature it grapples",
                               {cause, "000.grappling", {}}, g)
                          .status());
    }
    // Both share the space of the larger creature; of the Grappled one when
    // the same size (L59).
    if (SizeRank(a) <= SizeRank(t)) {
      if (a.at != t.at) {
        RETURN_IF_ERROR(Move(d, a.id, {t.at}, 0, false,
                             {cause, "000.grapple", {}, "shares its space"}));
        RETURN_IF_ERROR(QuenchIfEntered(d, a.id, {t.at}, cause));  // L156
        RETURN_IF_ERROR(PartnersMoveAlong(d, a, t.id, {t.at}, cause));
      }
    } else if (a.at != t.at) {
      RETURN_IF_ERROR(EndGrapplesLeftBehind(d, t.id, a.id, a.at, cause));
      RETURN_IF_ERROR(Move(d, t.id, {a.at}, 0, true,
                           {cause, "000.grapple", {}, "shares its space"}));
      RETURN_IF_ERROR(QuenchIfEntered(d, t.id, {a.at}, cause));  // L156
    }
    if (o.critical) {
      return Apply(d, t.id, kSlowed, a.id, 0, ForRounds(d.state(), a.id, 1),
                   {cause, "000.grapple", {}, "critical: Slowed for one Round"})
          .status();
    }
    return absl::OkStatus();
  }
  if (c.action == "push") {
    // L51: 5 ft; on a critical success up to 15 ft.
    const int64_t squares =
        o.critical ? ParamOr(c, "distance", 15) / kSquare : 1;
    return PushAway(d, a.id, t.id, PushDirection(a, t, c), squares, cause);
  }
  if (c.action == "trip") {
    RETURN_IF_ERROR(KnockProne(d, t.id, {cause, "000.trip", {}, "tripped"}));
    int64_t fall_ft = 0;
    if (t.Has(kFlying) && Altitude(t) > 0) {
      // L57: "Flying Creatures fall 50ft (or until they hit the ground)";
      // a critical adds fall Damage as from 10 ft.
      RETURN_IF_ERROR(RemoveConditionsNamed(d, t.id, kFlying,
                                            {cause, "000.trip", {}, "falls"}));
      return Drop(d, t.id, 50, o.critical ? 10 : 0, "000.trip", cause);
    }
    if (t.Has(kFlying)) {
      fall_ft += 50;  // L57: flying creatures fall 50 ft
      RETURN_IF_ERROR(RemoveConditionsNamed(d, t.id, kFlying,
                                            {cause, "000.trip", {}, "falls"}));
      RETURN_IF_ERROR(QuenchIfLanded(d, t.id, cause));  // L156, L79
    }
    Nums trip_nums;
    if (o.critical) {
      fall_ft += 10;  // L57: fall damage as from 10 ft
      trip_nums.push_back({"critical_extra_ft", 10, "", "000.trip"});
    }
    trip_nums.push_back({"fall_ft", fall_ft});
    if (fall_ft > 0) {
      // No fall damage table in the text (L79): the GM applies it.
      return AddNoted(d, t.id, kFallPending, a.id, fall_ft,
                      absl::StrCat("fall damage as from ", fall_ft,
                                   " ft: the GM applies it (gm_adjust hp) "
                                   "and removes this"),
                      {cause, "000.fall", trip_nums})
          .status();
    }
    return absl::OkStatus();
  }
  return absl::InternalError("unknown maneuver " + c.action);
}

absl::Status ValidateEscape(const State& s, const fb::CommandT& c,
                            const Ctx& ctx) {
  (void)ctx;
  ASSIGN_OR_RETURN(const Combatant* a, Actor(s, c));
  if (GrapplerOf(*a).empty()) {
    return Refuse("000.grappled", a->id + " is not Grappled");
  }
  // L148 "against the Creature Grappling you": the one named, when two do.
  if (c.targets.size() > 1) return Malformed(c, "targets", "at most one creature");
  if (!c.targets.empty() && a->FindRelative(kGrappled, c.targets[0]) == nullptr) {
    return Refuse("000.grappled",
                  a->id + " is not Grappled by " + c.targets[0]);
  }
  return absl::OkStatus();
}

absl::Status ResolveEscape(Decision& d, const fb::CommandT& c, const Ctx& ctx) {
  const Combatant a = *d.state().Find(c.actor);
  const Combatant g =
      *d.state().Find(c.targets.empty() ? GrapplerOf(a) : c.targets[0]);
  ASSIGN_OR_RETURN(Opposed o,
                   OpposedMelee(d, a, g, nullptr, "escape", ctx.cause));
  RETURN_IF_ERROR(
      RecordOutcome(d, a.id, {ctx.cause, "000.grappled", o.nums,
                   o.success ? "escaped the grapple" : "failed to escape"}));
  // L148 "an opposed Melee Attack roll ... to Push them away or Grapple
  // them": a Push or Grapple, so an Attack (L47 "These count as Attacks"),
  // with an Attack's consequences.
  RETURN_IF_ERROR(AfterAnAttack(d, a.id, g.id, o.success, ctx.cause));
  if (!o.success) return absl::OkStatus();
  // L148 "this condition ends": g's hold on a, no other grapple of a.
  return EndHold(d, g.id, a.id, {ctx.cause, "000.grappled", {}, "escaped"});
}

absl::Status ValidateChoke(const State& s, const fb::CommandT& c,
                           const Ctx& ctx) {
  (void)ctx;
  ASSIGN_OR_RETURN(const Combatant* a, Actor(s, c));
  const std::string held = GrappledBy(*a);
  if (held.empty()) return Refuse("000.grappling", a->id + " is not Grappling");
  // L150 "the Creature you are Grappling": any of them (two hands, L59).
  if (!c.targets.empty() && a->FindRelative(kGrappling, c.targets[0]) == nullptr) {
    return Refuse("000.grappling", a->id + " is not Grappling " + c.targets[0]);
  }
  return absl::OkStatus();
}

absl::Status ResolveChoke(Decision& d, const fb::CommandT& c, const Ctx& ctx) {
  const Combatant* a = d.state().Find(c.actor);
  const std::string held = c.targets.empty() ? GrappledBy(*a) : c.targets[0];
  // L150: "prevent the Creature you are Grappling from breathing for the
  // next Round" (until the choker's next turn starts); the held breath is
  // counted at the end of its turns (L77, damage.cc:SuffocationCheck).
  NewCondition nc;
  nc.actor = held;
  nc.name = kChoked;
  nc.source = c.actor;
  nc.expiry = ForRounds(d.state(), c.actor, 1);
  nc.note = "cannot breathe (L77: STR rounds, then 0 HP)";
  // L150: it is "the Creature you are Grappling" that cannot breathe: a
  // daughter of the grapple, it ends when the grapple does (an escape, a
  // release, a death), and the creature has "a chance to breathe" (L77).
  if (const Condition* g = a->FindRelative(kGrappling, held); g != nullptr) {
    nc.parent = g->id;
  }
  RETURN_IF_ERROR(
      AddCondition(d, nc, {ctx.cause, "000.grappling", {}}).status());
  return BreathCutOff(d, held, ctx.cause);  // L77: STR 0 holds no Round
}

absl::Status ValidateRelease(const State& s, const fb::CommandT& c,
                             const Ctx& ctx) {
  (void)ctx;
  ASSIGN_OR_RETURN(const Combatant* a, Actor(s, c));
  if (GrappledBy(*a).empty()) {
    return Refuse("000.grappling", a->id + " is not Grappling anyone");
  }
  // L150 "release the other Creature": the one named, when it grapples two.
  if (c.targets.size() > 1) return Malformed(c, "targets", "at most one creature");
  if (!c.targets.empty() && a->FindRelative(kGrappling, c.targets[0]) == nullptr) {
    return Refuse("000.grappling", a->id + " is not Grappling " + c.targets[0]);
  }
  return absl::OkStatus();
}

absl::Status ResolveRelease(Decision& d, const fb::CommandT& c,
                            const Ctx& ctx) {
  if (!c.targets.empty()) {
    const Condition* g =
        d.state().Find(c.actor)->FindRelative(kGrappling, c.targets[0]);
    return RemoveCondition(
        d, c.actor, g->id,
        {ctx.cause, "000.grappling", {}, "released (a Free Action)"});
  }
  return RemoveConditionsNamed(
      d, c.actor, kGrappling,
      {ctx.cause, "000.grappling", {}, "released (a Free Action)"});
}

absl::Status ValidateDropItem(const State& s, const fb::CommandT& c,
                              const Ctx& ctx) {
  (void)ctx;
  ASSIGN_OR_RETURN(const Combatant* a, Actor(s, c));
  const std::string item = ParamText(c, "item");
  const Weapon* held = a->FindWeapon(item);
  if (held == nullptr) {  // `item` is required (verbs.cc)
    return Malformed(c, "params.item",
                     absl::StrCat(a->id, " carries no '", item, "'"));
  }
  // L21 "drop an item": a Natural Weapon is no item (L55, L59).
  if (held->kind == "natural") {
    return Refuse("000.free_action",
                  absl::StrCat("params.item: ", a->id, "'s ", item,
                               " is a Natural Weapon, not an item it "
                               "carries: name a weapon it holds"));
  }
  if (!InHand(*a, item)) {
    return Refuse("000.free_action", a->id + " no longer holds its " + item);
  }
  return absl::OkStatus();
}

absl::Status ResolveDropItem(Decision& d, const fb::CommandT& c,
                             const Ctx& ctx) {
  // L21: "Free Actions can be used to do things that require no effort like
  // drop an item": it lies in the creature's square (`pick_up` takes it).
  return AddNoted(d, c.actor, kDisarmed, c.actor, 0, ParamText(c, "item"),
                  {ctx.cause, "000.free_action", {}, "dropped in its square"})
      .status();
}

absl::Status ValidatePickUp(const State& s, const fb::CommandT& c,
                            const Ctx& ctx) {
  (void)ctx;
  ASSIGN_OR_RETURN(const Combatant* a, Actor(s, c));
  const std::string item = ParamText(c, "item");
  for (const Condition* dis : Named(*a, kDisarmed)) {
    if (dis->note != item) continue;
    if (dis->level == 0) return absl::OkStatus();
    return Refuse(
        "000.disarm",
        dis->level == 1
            ? "the item was flung 10 ft away: the GM rules when it is "
              "reached (gm_condition remove)"
            : "the item was taken by " + dis->source);
  }
  return Refuse("000.disarm", a->id + " has not dropped a '" + item + "'");
}

absl::Status ResolvePickUp(Decision& d, const fb::CommandT& c, const Ctx& ctx) {
  const std::string item = ParamText(c, "item");
  for (const Condition* dis : Named(*d.state().Find(c.actor), kDisarmed)) {
    if (dis->note == item) {
      const uint32_t id = dis->id;
      return RemoveCondition(
          d, c.actor, id,
          {ctx.cause, "000.interact", {}, "picked the " + item + " up"});
    }
  }
  return absl::OkStatus();
}

}  // namespace combat::kernel::d20
