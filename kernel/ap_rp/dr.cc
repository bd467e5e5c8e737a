// Defense Rolls (l.69-77): d20 + the Stat Bonus + the Skill Level against
// the DR Power (the Primary Stat) of the creature targeting; objects fail
// every DR; a creature may choose to fail; Defend gives advantage (l.18);
// half cover +1 from that direction (l.111), Taking Cover +1 more (l.25).
//
//   defense_roll  (GM: an Ability's effect) actor = the creature targeting,
//                 targets[0] = who rolls; params kind (text: str dex con int
//                 cha ins wil), fail (1: chooses to fail).
#include <string>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/ap_rp/internal.h"
#include "kernel/command.h"

namespace combat::kernel::aprp {

int64_t DrCoverBonus(const Cover& cover, const Combatant& target, Nums& nums) {
  int64_t bonus = 0;
  // l.112: "You have half cover while leaning out of full cover": from the
  // direction of that full cover (l.111; CoverOf), not from everywhere.
  if (cover.level == 1) {
    bonus += 1;
    nums.push_back({"half_cover", 1, cover.by, "004.cover.half"});
    if (target.Has(kTakingCover)) {
      bonus += 1;
      nums.push_back({"taking_cover", 1, "taking cover " + target.id, "004.take_cover"});
    }
  }
  return bonus;
}

absl::Status DecideDefenseRoll(const fb::CommandT& c, Decision& d) {
  RETURN_IF_ERROR(CheckOneTarget(c));  // the rest: the verb table (verbs.cc)
  if (c.role != fb::Role::GM) {
    return absl::PermissionDeniedError("command 'defense_roll': the GM calls for a DR (an Ability's effect)");
  }
  ASSIGN_OR_RETURN(const Combatant* src, Actor(d.state(), c));
  ASSIGN_OR_RETURN(const Combatant* t, Target(d.state(), c));
  const std::string kind = ParamText(c, "kind");
  if (!IsDrKind(kind)) return Malformed(c, "params.kind", "one of str dex con int cha ins wil (l.70)");
  const Combatant target = *t;
  // l.112 "you can lean towards a space next to you, allowing you to see and
  // target anything as if you were standing in that space": the effect's
  // source leans (lean_x / lean_y) as an attacker does.
  RETURN_IF_ERROR(CheckLean(d.state(), *src, target, c));
  const Combatant source = Viewpoint(*src, c);
  const Cover cover = source.id == target.id ? Cover{} : CoverOf(d.state(), source, target);
  if (cover.level == 2) {
    // l.112: "you can no longer be targeted by any effects that come from the
    // direction of your full cover".
    return Refuse("004.cover.full", target.id + " is in full cover from " + source.id);
  }
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  if (HasParam(c, "lean_x")) RETURN_IF_ERROR(AddLeaning(d, source.id, source.at, decl));
  const int64_t power = DrPower(source);
  Nums nums{{"dr_power", power}};
  if (IsObject(target)) {
    return RecordOutcome(d, target.id, {decl, "004.dr", nums, "an object fails every DR (l.69)"});
  }
  if (ParamOr(c, "fail", 0) != 0) {
    return RecordOutcome(d, target.id, {decl, "004.dr", nums, "chooses to fail (l.69)"});
  }
  int64_t bonus = DrValue(target, kind);
  nums.push_back({"stat_bonus", StatBonus(target, kind)});
  nums.push_back({"skill", target.Stat(DrSkill(kind))});
  bonus += DrCoverBonus(cover, target, nums);
  const int mode = target.Has(kDefending) ? 1 : 0;
  if (mode > 0) nums.push_back({"defending", 1, "defending " + target.id, "004.defend"});  // l.18: advantage
  ASSIGN_OR_RETURN(dice::RollResult r, d.Roll(D20(mode, bonus), absl::StrCat(kind, " DR"), target.id, decl));
  nums.push_back({"natural", r.natural()});
  nums.push_back({"total", r.total});
  return RecordOutcome(d, target.id, {decl, "004.dr", nums, r.total >= power ? "succeeds" : "fails"});
}

}  // namespace combat::kernel::aprp
