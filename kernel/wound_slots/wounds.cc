// Wounds (l.3-36): the level by threshold, slots filled with overflow to
// the next level, NPC tracks dying on a fatal wound, healing a wound down
// a level.
#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/wound_slots/internal.h"

namespace combat::kernel::wound_slots {

int WoundLevel(int64_t damage) {
  // l.6-13: the highest level whose threshold the damage equals or exceeds.
  if (damage >= 8) return kFatal;
  if (damage >= 6) return kCritical;
  if (damage >= 4) return kSevere;
  if (damage >= 2) return kModerate;
  if (damage >= 0) return kLight;
  return kNone;
}

absl::StatusOr<int> Wound(Decision& d, const std::string& who, int level,
                          const Why& why) {
  const Combatant* c = d.state().Find(who);
  int l = std::clamp(level, static_cast<int>(kLight), static_cast<int>(kFatal));
  Nums nums{{"level", level}};
  // l.31: all slots of that level full: increase the severity.
  while (l < kFatal && c->Resource(WoundsKey(l)) >= SlotsFor(*c, l)) {
    nums.push_back({absl::StrCat(LevelName(l), "_full"), SlotsFor(*c, l)});
    ++l;
  }
  nums.push_back({"filled", l});
  const bool second_fatal = l == kFatal && c->Resource(WoundsKey(kFatal)) >= 1;
  if (!second_fatal) {
    RETURN_IF_ERROR(AddResource(d, who, WoundsKey(l), 1,
                                {why.cause, "001.wound.slots", nums,
                                 l == level ? absl::StrCat(LevelName(l), " wound")
                                            : absl::StrCat(LevelName(level), " slots full: ", LevelName(l), " wound")})
                        .status());
  }
  c = d.state().Find(who);
  RETURN_IF_ERROR(UpdateWounded(d, who, why));
  if (c->Has("Defending")) {  // l.199: "until ... you receive a wound"
    RETURN_IF_ERROR(RemoveConditionsNamed(d, who, "Defending", {why.cause, "001.act.defend", {}, "received a wound"}));
  }
  RETURN_IF_ERROR(AfterWound(d, who, l, why.cause));
  if (l == kFatal && !IsDead(*d.state().Find(who))) {
    c = d.state().Find(who);
    if (IsNpc(*c) && !c->HasTag("special")) {  // l.35
      RETURN_IF_ERROR(Impose(d, who, "Dead", "fatal wound", {}, {why.cause, "001.npc.death", {{"fatal", 1}}}).status());
    } else if (second_fatal) {  // reading: no slot left at all
      RETURN_IF_ERROR(Impose(d, who, "Dead", "fatal wound", {}, {why.cause, "001.wound.fatal", {{"fatal_slots_full", 1}}, "a fatal wound with its fatal slot already full"}).status());
    } else if (!c->Has("Dying")) {
      RETURN_IF_ERROR(Impose(d, who, "Dying", "fatal wound", {}, {why.cause, "001.wound.fatal", {}, "death if not treated (the GM rules when)"}).status());
      // l.250: a stabilized creature "is no longer dying and may immediately
      // make another check to wake up", and l.185 knocks "them unconscious
      // but prevent[s] them from gaining the dying condition": the dying are
      // unconscious. Stabilize ends Dying, not this; the wake-up check is the
      // wounded condition's, outside this text: the GM's (gm_condition).
      if (!d.state().Find(who)->Has("Unconscious")) {
        RETURN_IF_ERROR(Impose(d, who, "Unconscious", "fatal wound", {}, {why.cause, "001.wound.fatal", {}, "dying: unconscious until it wakes up (l.250)"}).status());
      }
    }
  }
  return l;
}

absl::StatusOr<int> HealWound(Decision& d, const std::string& who, int level,
                              int steps, const Why& why) {
  // The wound drops `steps` levels to a level with an open slot (l.63:
  // "assuming there is an open slot"); below light it is healed. Reading:
  // when the level it would land on is full it drops fewer steps; the
  // levels it passes need no slot.
  const Combatant c = *d.state().Find(who);
  if (c.Resource(WoundsKey(level)) <= 0 || steps <= 0) return 0;
  int taken = 0, to = kNone;
  for (int s = steps; s >= 1; --s) {
    const int lvl = level - s;
    if (lvl < kLight || c.Resource(WoundsKey(lvl)) < SlotsFor(c, lvl)) {
      taken = s;
      to = std::max(lvl, static_cast<int>(kNone));
      break;
    }
  }
  if (taken == 0) {
    RETURN_IF_ERROR(RecordOutcome(d, who, {why.cause, why.rule, why.nums,
                                           absl::StrCat("no open slot below the ", LevelName(level), " wound")}));
    return 0;
  }
  Nums nums = why.nums;
  nums.push_back({"from", level});
  nums.push_back({"to", to});
  RETURN_IF_ERROR(AddResource(d, who, WoundsKey(level), -1, {why.cause, why.rule, nums, why.note}).status());
  if (to >= kLight) {
    RETURN_IF_ERROR(AddResource(d, who, WoundsKey(to), 1, {why.cause, why.rule, {{"from", level}, {"to", to}}}).status());
  }
  if (level == kFatal && d.state().Find(who)->Has("Dying")) {
    RETURN_IF_ERROR(RemoveConditionsNamed(d, who, "Dying", {why.cause, why.rule, {}, "no longer fatally wounded"}));
  }
  RETURN_IF_ERROR(UpdateWounded(d, who, why));
  return taken;
}

absl::Status AfterWound(Decision& d, const std::string& who, int level,
                        uint64_t cause) {
  // l.278: climbing or swimming, a wound calls for a check at -5 for each
  // level beyond light; failing, the creature falls or sinks.
  for (const char* hold : {"Climbing", "Swimming"}) {
    const Combatant c = *d.state().Find(who);
    const Condition* k = c.FindCondition(hold);
    if (k == nullptr) continue;
    if (std::string(hold) == "Swimming" && c.Has("Sunk")) continue;  // already below the surface
    const std::string spec = std::string(hold) == "Climbing" ? "climbing" : "swimming";
    const int64_t penalty = -5 * (level - kLight);
    Nums n;  // the check's parts, so its numbers add up to its result
    const int64_t bonus = CheckBonus(c, "str", "athletics", spec, &n);
    ASSIGN_OR_RETURN(CheckRoll r, RollCheck(d, who, bonus + penalty, spec + " check (wounded)", cause));
    n.insert(n.end(), {{"penalty", penalty, absl::StrCat(LevelName(level), " wound of ", who), "001.swim_climb"},
                       {"d20", r.natural}, {"result", r.total}, {"tn", k->level}});
    if (r.total < k->level) {
      RETURN_IF_ERROR(Impose(d, who, std::string(hold) == "Climbing" ? "Fallen" : "Sunk", who, {},
                             {cause, "001.swim_climb", n, "falls or sinks"}).status());
      if (std::string(hold) == "Climbing") {  // l.278: it fell: no longer climbing
        RETURN_IF_ERROR(RemoveConditionsNamed(d, who, "Climbing", {cause, "001.swim_climb", n, "fell"}));
      }
    } else {
      RETURN_IF_ERROR(RecordOutcome(d, who, {cause, "001.swim_climb", n, "holds on"}));
    }
  }
  // l.281: an untrained mount: the rider checks each time rider or mount is
  // wounded.
  const Combatant c = *d.state().Find(who);
  std::string rider, mount;
  if (const Condition* k = c.FindCondition("Riding"); k != nullptr) { rider = who; mount = k->relative_to; }
  if (const Condition* k = c.FindCondition("Ridden"); k != nullptr) { rider = k->relative_to; mount = who; }
  if (rider.empty()) return absl::OkStatus();
  const Combatant m = *d.state().Find(mount);
  const Combatant rc = *d.state().Find(rider);
  if (!m.HasTag("untrained") || rc.Has("Uncontrolled")) return absl::OkStatus();
  const int64_t tn = m.Stat("control_tn", 5);  // l.281: an average untrained horse is 5
  ASSIGN_OR_RETURN(CheckRoll r, RollCheck(d, rider, CheckBonus(rc, "prs", "nature", "riding", nullptr),
                                          "riding check (wounded)", cause));
  Nums n{{"d20", r.natural}, {"result", r.total}, {"tn", tn}};
  if (r.total >= tn) return RecordOutcome(d, rider, {cause, "001.mount.untrained", n, "keeps control"});
  return Impose(d, rider, "Uncontrolled", mount, {}, {cause, "001.mount.untrained", n, "loses control of the mount"}, 0, mount)
      .status();
}

}  // namespace combat::kernel::wound_slots
