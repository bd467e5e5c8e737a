// Advantage and Disadvantage on attack rolls: every source the text names,
// and how they combine.
//
// Reading (the text never says how several sources combine): any source of
// Advantage and any source of Disadvantage cancel to a straight d20;
// several sources of one kind do not stack. Advantage rolls 2d20 keeping
// the highest ("2d20kh1"), Disadvantage keeps the lowest ("2d20kl1").
#include <string>

#include "absl/strings/str_cat.h"
#include "kernel/d20_three_action/internal.h"

namespace combat::kernel::d20 {

int Edge::mode() const {
  const bool a = !advantage.empty();
  const bool d = !disadvantage.empty();
  if (a && d) return 0;
  return a ? 1 : (d ? -1 : 0);
}

void Edge::AddTo(Nums& nums) const {
  for (std::string s : advantage) nums.push_back({"adv." + s, 1});
  for (std::string s : disadvantage) nums.push_back({"dis." + s, 1});
  nums.push_back({"edge", mode()});
}

std::string D20(int mode, int64_t bonus) {
  std::string dice = mode > 0 ? "2d20kh1" : (mode < 0 ? "2d20kl1" : "1d20");
  return bonus >= 0 ? absl::StrCat(dice, "+", bonus)
                    : absl::StrCat(dice, "-", -bonus);
}

bool FlatFootedAgainst(const State& s, const Combatant& target,
                       const Combatant& attacker, std::string* why) {
  auto say = [&](const char* w) {
    if (why != nullptr) *why = w;
    return true;
  };
  if (target.FindRelative(kFlatFooted, attacker.id) != nullptr) {
    return say("flat_footed");  // L107 (Feint, L53)
  }
  if (target.Has(kStunned)) return say("stunned");                // L164
  if (target.Has(kUnconscious)) return say("unconscious");        // L168
  if (target.Has(kBlinded)) return say("blinded");                // L138
  if (target.Has(kSqueezing)) return say("squeezing");            // L166
  if (GrapplerOf(target) == attacker.id) return say("grappled");  // L148
  // L115: creatures it is Hidden from are Flat Footed against it.
  if (attacker.FindRelative(kHidden, target.id) != nullptr ||
      attacker.FindRelative(kUndetected, target.id) != nullptr) {
    return say("attacker_hidden");
  }
  (void)s;
  return false;
}

std::string ConcealedFrom(const State& s, const Combatant& viewer,
                          const Combatant& target) {
  if (target.FindRelative(kHidden, viewer.id) != nullptr) return "hidden";
  if (target.FindRelative(kUndetected, viewer.id) != nullptr) {
    return "undetected";  // L117: also Hidden, so Concealed
  }
  return Obscured(s, viewer, target);
}

std::string Obscured(const State& s, const Combatant& viewer,
                     const Combatant& target) {
  if (viewer.HasTag("blindsight")) return "";  // "another sense" (L154, L91)
  if (target.FindRelative(kConcealed, viewer.id) != nullptr) return "concealed";
  if (target.Has(kInvisible) && !viewer.HasTag("see_invisible")) {
    return "invisible";  // L154
  }
  if (viewer.Has(kBlinded)) return "viewer_blinded";  // L138
  if (!viewer.HasTag("darkvision")) {
    for (Pos p : space::SquaresOf(target.at, target.size)) {
      if (s.TerrainAt(p) == "darkness") return "darkness";  // L87
    }
  }
  if (FogBetween(s, viewer, target)) return "fog";  // L91
  return "";
}

Edge AttackEdge(const State& s, const Combatant& attacker,
                const Combatant& target, const AttackSpec& spec) {
  Edge e;
  const bool melee = spec.kind == AttackKind::kMelee;
  const bool ranged = spec.kind == AttackKind::kRanged;
  std::string ff;
  if (FlatFootedAgainst(s, target, attacker, &ff)) {
    e.advantage.push_back(ff);
  }
  if (!FlankPartner(s, attacker, target, MeleeReach(attacker)).empty()) {
    e.advantage.push_back("flanked");  // L109: Flat Footed to both flankers
  }
  if (melee && target.Has(kProne)) e.advantage.push_back("target_prone");

  if (!spec.area) {
    // L113: attacks against an Area are not subject to concealment.
    const std::string c = ConcealedFrom(s, attacker, target);
    if (!c.empty()) e.disadvantage.push_back(absl::StrCat("concealed_", c));
  }
  const Pos from = spec.origin.value_or(attacker.at);
  const int32_t from_size = spec.origin.has_value() ? 1 : attacker.size;
  if (CoverFrom(s, from, from_size, target, attacker.id).cover) {
    e.disadvantage.push_back("cover");  // L121
  } else if (target.FindRelative(kCoverCondition, attacker.id) != nullptr) {
    // L121: "or the attacker believes the target is obscured due to an
    // illusion": a GM ruling (gm_condition "cover").
    e.disadvantage.push_back("cover");
  }
  if (attacker.Has(kShaken)) e.disadvantage.push_back("shaken");  // L146
  if (attacker.Has(kUnsteady) && !TouchingFixed(s, attacker)) {
    e.disadvantage.push_back("zero_g_unsteady");  // L85
  }
  if (melee && attacker.Has(kProne)) e.disadvantage.push_back("prone");
  if (ranged && target.Has(kProne)) e.disadvantage.push_back("target_prone");
  if (ranged && DistanceFt(attacker, target) <= kSquare) {
    e.disadvantage.push_back("within_5ft");  // L31
  }
  if (attacker.Has(kSqueezing) && spec.weapon != nullptr &&
      spec.weapon->category == "heavy") {
    e.disadvantage.push_back("squeezing_heavy");  // L166
  }
  if (spec.consume_dodge && target.Has(kDodging)) {
    e.disadvantage.push_back("dodge");  // L45
  }
  return e;
}

}  // namespace combat::kernel::d20
