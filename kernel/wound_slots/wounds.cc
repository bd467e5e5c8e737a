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
  if (l == kFatal && !IsDead(*d.state().Find(who))) {
    c = d.state().Find(who);
    if (IsNpc(*c) && !c->HasTag("special")) {  // l.35
      RETURN_IF_ERROR(Impose(d, who, "Dead", "fatal wound", {}, {why.cause, "001.npc.death", {{"fatal", 1}}}).status());
    } else if (second_fatal) {  // reading: no slot left at all
      RETURN_IF_ERROR(Impose(d, who, "Dead", "fatal wound", {}, {why.cause, "001.wound.fatal", {{"fatal_slots_full", 1}}, "a fatal wound with its fatal slot already full"}).status());
    } else if (!c->Has("Dying")) {
      RETURN_IF_ERROR(Impose(d, who, "Dying", "fatal wound", {}, {why.cause, "001.wound.fatal", {}, "death if not treated (the GM rules when)"}).status());
    }
  }
  return l;
}

absl::StatusOr<int> HealWound(Decision& d, const std::string& who, int level,
                              int steps, const Why& why) {
  int l = level, taken = 0;
  while (taken < steps) {
    const Combatant* c = d.state().Find(who);
    if (c->Resource(WoundsKey(l)) <= 0) break;
    if (l > kLight && c->Resource(WoundsKey(l - 1)) >= SlotsFor(*c, l - 1)) break;  // l.63
    RETURN_IF_ERROR(AddResource(d, who, WoundsKey(l), -1, {why.cause, why.rule, why.nums, why.note}).status());
    if (l > kLight) {
      RETURN_IF_ERROR(AddResource(d, who, WoundsKey(l - 1), 1, {why.cause, why.rule, {{"from", l}, {"to", l - 1}}}).status());
    }
    if (l == kFatal && d.state().Find(who)->Has("Dying")) {
      RETURN_IF_ERROR(RemoveConditionsNamed(d, who, "Dying", {why.cause, why.rule, {}, "no longer fatally wounded"}));
    }
    ++taken;
    if (l == kLight) break;
    --l;
  }
  RETURN_IF_ERROR(UpdateWounded(d, who, why));
  return taken;
}

}  // namespace combat::kernel::wound_slots
