// Height (L57, L79, L83): the resource `altitude` (ft above the ground) of
// a flyer that climbed with `move` params `ascend` / `descend`, or started
// with the roster stat `altitude`; and falls from it.
//
//  - L83 "ascending 5ft requires 10 ft of movement, but descending 10ft
//    only requires 5ft of movement ... With Improved Flight you do not have
//    to spend additional movement to ... ascend": ascend costs twice its
//    feet (once with Improved Flight), descend half its feet, rounded up to
//    whole 5 ft (reading: a 5 ft descent costs 5 ft, as 10 ft does).
//  - L79 "Creatures fall 100ft a Round starting as soon as they are
//    unsupported ... If Falling a distance greater than 100 ft they
//    continue Falling at the start of each of their Turns": a fall drops at
//    most 100 ft at once; what is left continues at the start of each of
//    the creature's turns (condition `falling`) until the ground.
//  - L57 "Flying Creatures fall 50ft (or until they hit the ground)": a
//    tripped flyer drops 50 ft, or its altitude when lower.
//  - The ft of fall Damage add up in `fall_pending` (level = ft owed): of
//    each fall at most 100 ft count (L79 "up to a maximum of 100ft"; the
//    feet fallen so far in the fall going on are `fall_ft`), plus a
//    critical Trip's 10 ft (L57 "in addition to"); L79's damage by size
//    and distance has no table: the GM applies it.
// A flyer whose altitude is not tracked (0) keeps the older behaviour:
// `fall_pending` with the text's distance (50, 60) or 0 (unknown height).
#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/arith.h"
#include "kernel/command.h"
#include "kernel/d20_three_action/internal.h"

namespace combat::kernel::d20 {
namespace {

// L79: "the distance they fell up to a maximum of 100ft".
constexpr int64_t kMaxFallFt = 100;

}  // namespace

int64_t Altitude(const Combatant& c) {
  return std::max<int64_t>(0, c.Resource(kAltitude));
}

absl::StatusOr<int64_t> VerticalFt(const fb::CommandT& c, const Combatant& a) {
  const int64_t up = ParamOr(c, "ascend", 0);
  const int64_t down = ParamOr(c, "descend", 0);
  // Both are >= 0 (verbs.cc); multiples of 5 is checked here.
  if (up % kSquare != 0) {
    return Malformed(c, "params.ascend", "feet, a multiple of 5 (L83)");
  }
  if (down % kSquare != 0) {
    return Malformed(c, "params.descend", "feet, a multiple of 5 (L83)");
  }
  if ((up > 0 || down > 0) && ParamOr(c, "fly", 0) == 0) {
    return Refuse("000.fly", "only a flying Move ascends or descends");
  }
  if (down > Altitude(a) + up) {
    return Refuse("000.fly", absl::StrCat(a.id, " is ", Altitude(a),
                                          " ft up: it cannot descend ", down,
                                          " ft"));
  }
  // L83: 5 ft up costs 10 ft (5 with Improved Flight: no additional
  // movement); 10 ft down costs 5 ft, rounded up to whole 5 ft.
  const int64_t up_cost = a.HasTag("improved_flight") ? up : 2 * up;
  const int64_t down_cost = CeilDiv(down, 2 * kSquare) * kSquare;
  return up_cost + down_cost;
}

absl::Status ClimbOrDive(Decision& d, const fb::CommandT& c, uint64_t cause) {
  const int64_t up = ParamOr(c, "ascend", 0);
  const int64_t down = ParamOr(c, "descend", 0);
  const Combatant* a = d.state().Find(c.actor);
  if (a->Has(kFalling)) {
    // L83: flying again, it no longer falls.
    RETURN_IF_ERROR(RemoveConditionsNamed(
        d, c.actor, kFalling, {cause, "000.fly", {}, "flies again"}));
  }
  if (up == 0 && down == 0) return absl::OkStatus();
  ASSIGN_OR_RETURN(int64_t cost, VerticalFt(c, *d.state().Find(c.actor)));
  const int64_t now = Altitude(*d.state().Find(c.actor));
  const int64_t after = now + up - down;
  RETURN_IF_ERROR(SetResource(
      d, c.actor, kAltitude, after,
      {cause,
       "000.fly",
       {{"ascend", up}, {"descend", down}, {"vertical_ft", cost}},
       "climbs or dives"}));
  if (after == 0) {
    RETURN_IF_ERROR(RemoveConditionsNamed(
        d, c.actor, kFlying, {cause, "000.fly", {}, "landed"}));
    if (now > 0) RETURN_IF_ERROR(QuenchIfLanded(d, c.actor, cause));
  }
  return absl::OkStatus();
}

absl::Status QuenchIfLanded(Decision& d, const std::string& who,
                            uint64_t cause) {
  const Combatant* c = d.state().Find(who);
  return QuenchIfEntered(d, who, space::SquaresOf(c->at, c->size), cause);
}

absl::Status Drop(Decision& d, const std::string& who, int64_t ft,
                  int64_t extra_ft, const std::string& rule, uint64_t cause) {
  const Combatant* c = d.state().Find(who);
  const int64_t alt = Altitude(*c);
  const int64_t drop = std::min(ft, alt);
  const int64_t left = alt - drop;
  // L79: "Creatures that fall take Damage based on their Size and the
  // distance they fell up to a maximum of 100ft": of one fall (the feet it
  // has fallen so far, `fall_ft`, while it is still `falling`), at most
  // 100 ft count; a critical Trip's 10 ft come on top (L57 "in addition to
  // any other fall Damage they would take").
  const int64_t before =
      c->Has(kFalling) ? std::max<int64_t>(0, c->Resource(kFallFt)) : 0;
  const int64_t counted = std::min<int64_t>(kMaxFallFt, before + drop) -
                          std::min<int64_t>(kMaxFallFt, before);
  Why why{cause,
          rule,
          {{"altitude", alt}, {"fell_ft", drop}, {"altitude_left", left}},
          left > 0 ? "falls (L79: 100 ft a Round)" : "hits the ground"};
  if (extra_ft > 0) {
    // L57: a critical Trip adds fall Damage as from 10 ft.
    why.nums.push_back({"critical_extra_ft", extra_ft, "", "000.trip"});
  }
  why.nums.push_back({"fall_ft", before + drop});
  why.nums.push_back({"counted_ft", counted});
  RETURN_IF_ERROR(SetResource(d, who, kAltitude, left, why));
  const int64_t fall_ft = left > 0 ? before + drop : 0;
  if (d.state().Find(who)->Resource(kFallFt) != fall_ft) {
    RETURN_IF_ERROR(SetResource(d, who, kFallFt, fall_ft, why));
  }
  const int64_t owed = counted + extra_ft;
  c = d.state().Find(who);
  const Condition* pending = c->FindCondition(kFallPending);
  // Nothing more owed (a fall already past 100 ft): the fall Damage owed
  // stays as it is, with no remove and re-add at the same level.
  if (owed > 0) {
    const int64_t total = (pending == nullptr ? 0 : pending->level) + owed;
    if (pending != nullptr) {
      RETURN_IF_ERROR(RemoveConditionsNamed(d, who, kFallPending, why));
    }
    NewCondition fall;
    fall.actor = who;
    fall.name = kFallPending;
    fall.source = who;
    fall.level = total;
    fall.note = absl::StrCat(
        "fall damage for ", total,
        " ft (L79: by size and distance, at most 100 ft of a fall count): "
        "the GM applies it (gm_adjust hp) and removes this");
    RETURN_IF_ERROR(AddCondition(d, fall, why).status());
  }
  c = d.state().Find(who);
  if (left > 0 && !c->Has(kFalling)) {
    return Apply(d, who, kFalling, who, 0, std::nullopt, why).status();
  }
  if (left == 0 && c->Has(kFalling)) {
    RETURN_IF_ERROR(RemoveConditionsNamed(d, who, kFalling, why));
  }
  if (left == 0) {
    RETURN_IF_ERROR(QuenchIfLanded(d, who, cause));  // L156, L79
    // L101: "Falling on the ground means you'll have the "Prone" condition".
    return KnockProne(d, who, why);
  }
  return absl::OkStatus();
}

absl::Status FallingAtTurnStart(Decision& d, const std::string& who,
                                uint64_t cause) {
  const Combatant* c = d.state().Find(who);
  if (c == nullptr || !c->Has(kFalling)) return absl::OkStatus();
  return Drop(d, who, 100, 0, "000.fall", cause);  // L79
}

}  // namespace combat::kernel::d20
