// Advantage and Disadvantage on attack rolls: every source the text names,
// and how they combine.
//
// Reading (the text never says how several sources combine): any source of
// Advantage and any source of Disadvantage cancel to a straight d20;
// several sources of one kind do not stack. Advantage rolls 2d20 keeping
// the highest ("2d20kh1"), Disadvantage keeps the lowest ("2d20kl1").
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "kernel/d20_three_action/internal.h"

namespace combat::kernel::d20 {

int Edge::mode() const {
  const bool a = !advantage.empty();
  const bool d = !disadvantage.empty();
  if (a && d) return 0;
  return a ? 1 : (d ? -1 : 0);
}

bool Edge::Has(const std::string& name) const {
  for (const auto* v : {&advantage, &disadvantage}) {
    for (const EdgeSource& e : *v) {
      if (e.name == name) return true;
    }
  }
  return false;
}

void Edge::AddTo(Nums& nums, const std::string& prefix) const {
  for (const EdgeSource& e : advantage) {
    nums.push_back({absl::StrCat(prefix, "adv.", e.name), 1, e.source, e.rule});
  }
  for (const EdgeSource& e : disadvantage) {
    nums.push_back({absl::StrCat(prefix, "dis.", e.name), 1, e.source, e.rule});
  }
  nums.push_back({prefix + "edge", mode()});
}

std::string On(const std::string& name, const std::string& who) {
  return absl::StrCat(name, " on ", who);
}

std::string At(Pos p) { return absl::StrCat(p.x, ",", p.y); }

std::string D20(int mode, int64_t bonus) {
  std::string dice = mode > 0 ? "2d20kh1" : (mode < 0 ? "2d20kl1" : "1d20");
  return bonus >= 0 ? absl::StrCat(dice, "+", bonus)
                    : absl::StrCat(dice, "-", -bonus);
}

bool FlatFootedAgainst(const State& s, const Combatant& target,
                       const Combatant& attacker, EdgeSource* why) {
  auto say = [&](const char* name, std::string source, const char* rule) {
    if (why != nullptr) *why = {name, std::move(source), rule};
    return true;
  };
  const std::string& t = target.id;
  if (const Condition* ff = target.FindRelative(kFlatFooted, attacker.id); ff != nullptr) {
    // L107 (a Feint, L53: its source is the feinter).
    std::string from = On(kFlatFooted, t);
    if (!ff->source.empty() && ff->source != t) absl::StrAppend(&from, " by ", ff->source);
    return say("flat_footed", from, "000.flat_footed");
  }
  if (target.Has(kStunned)) return say("stunned", On(kStunned, t), "000.stunned");
  if (target.Has(kUnconscious)) {
    return say("unconscious", On(kUnconscious, t), "000.unconscious");  // L168
  }
  if (target.Has(kBlinded)) return say("blinded", On(kBlinded, t), "000.blinded");
  if (target.Has(kSqueezing)) {
    return say("squeezing", On(kSqueezing, t), "000.squeezing");  // L166
  }
  // Any creature grappling it (two may: each needs only a free hand, L59).
  if (target.FindRelative(kGrappled, attacker.id) != nullptr) {
    return say("grappled", On(kGrappled, t), "000.grappled");  // L148
  }
  // L115: creatures it is Hidden from are Flat Footed against it.
  if (attacker.FindRelative(kHidden, target.id) != nullptr) {
    return say("attacker_hidden", absl::StrCat(attacker.id, " hidden from ", t),
               "000.hidden");
  }
  if (attacker.FindRelative(kUndetected, target.id) != nullptr) {
    return say("attacker_hidden",
               absl::StrCat(attacker.id, " undetected by ", t),
               "000.undetected");
  }
  (void)s;
  return false;
}

namespace {

// Concealment from the surroundings and senses (Obscured).
EdgeSource Surroundings(const State& s, const Combatant& viewer,
                        const Combatant& target) {
  const std::string& t = target.id;
  if (viewer.HasTag("blindsight")) return {};  // "another sense" (L154, L91)
  if (target.FindRelative(kConcealed, viewer.id) != nullptr) {
    return {"concealed", On(kConcealed, t), "000.concealed"};
  }
  if (target.Has(kInvisible) && !viewer.HasTag("see_invisible")) {
    return {"invisible", On(kInvisible, t), "000.invisible"};  // L154
  }
  if (viewer.Has(kBlinded)) {
    return {"viewer_blinded", On(kBlinded, viewer.id), "000.blinded"};  // L138
  }
  if (!viewer.HasTag("darkvision")) {
    for (Pos p : space::SquaresOf(target.at, target.size)) {
      if (s.TerrainAt(p) == "darkness") {
        return {"darkness", "darkness at " + At(p), "000.darkness"};  // L87
      }
    }
  }
  if (std::optional<Pos> fog = FogBetween(s, viewer, target)) {
    return {"fog", "fog at " + At(*fog), "000.fog"};  // L91
  }
  return {};
}

}  // namespace

EdgeSource Concealment(const State& s, const Combatant& viewer,
                       const Combatant& target) {
  const std::string& t = target.id;
  if (target.FindRelative(kHidden, viewer.id) != nullptr) {
    return {"hidden", absl::StrCat(t, " hidden from ", viewer.id), "000.hidden"};
  }
  if (target.FindRelative(kUndetected, viewer.id) != nullptr) {
    // L117: also Hidden, so Concealed.
    return {"undetected", absl::StrCat(t, " undetected by ", viewer.id),
            "000.undetected"};
  }
  return Surroundings(s, viewer, target);
}

std::string ConcealedFrom(const State& s, const Combatant& viewer,
                          const Combatant& target) {
  return Concealment(s, viewer, target).name;
}

std::string Obscured(const State& s, const Combatant& viewer,
                     const Combatant& target) {
  return Surroundings(s, viewer, target).name;
}

Edge AttackEdge(const State& s, const Combatant& attacker,
                const Combatant& target, const AttackSpec& spec) {
  Edge e;
  const bool melee = spec.kind == AttackKind::kMelee;
  const bool ranged = spec.kind == AttackKind::kRanged;
  const std::string& a = attacker.id;
  const std::string& t = target.id;
  auto adv = [&](std::string name, std::string source, std::string rule) {
    e.advantage.push_back({std::move(name), std::move(source), std::move(rule)});
  };
  auto dis = [&](std::string name, std::string source, std::string rule) {
    e.disadvantage.push_back(
        {std::move(name), std::move(source), std::move(rule)});
  };
  EdgeSource ff;
  if (FlatFootedAgainst(s, target, attacker, &ff)) e.advantage.push_back(ff);
  const std::string partner =
      FlankPartner(s, attacker, target, MeleeReach(attacker));
  if (!partner.empty()) {
    adv("flanked", partner, "000.flanked");  // L109: Flat Footed to both
  }
  if (melee && target.Has(kProne)) adv("target_prone", On(kProne, t), "000.prone");

  if (!spec.area) {
    // L113: attacks against an Area are not subject to concealment.
    const EdgeSource c = Concealment(s, attacker, target);
    if (!c.name.empty()) dis("concealed_" + c.name, c.source, c.rule);
  }
  const Pos from = spec.origin.value_or(attacker.at);
  const int32_t from_size = spec.origin.has_value() ? 1 : attacker.size;
  const CoverResult cover = CoverFrom(s, from, from_size, target, a);
  if (cover.cover) {
    dis("cover", cover.by, "000.cover");  // L121
  } else if (const Condition* illusion = target.FindRelative(kCoverCondition, a);
             illusion != nullptr) {
    // L121: "or the attacker believes the target is obscured due to an
    // illusion": a GM ruling (gm_condition "cover").
    dis("cover", absl::StrCat("ruling #", illusion->added_at), "000.cover");
  }
  if (attacker.Has(kShaken)) dis("shaken", On(kShaken, a), "000.shaken");  // L146
  if (attacker.Has(kUnsteady) && !TouchingFixed(s, attacker)) {
    dis("zero_g_unsteady", On(kUnsteady, a), "000.zero_g");  // L85
  }
  if (melee && attacker.Has(kProne)) dis("prone", On(kProne, a), "000.prone");
  if (ranged && target.Has(kProne)) dis("target_prone", On(kProne, t), "000.prone");
  if (ranged && DistanceFt(attacker, target) <= kSquare) {
    dis("within_5ft", "", "000.attack.ranged_close");  // L31
  }
  if (attacker.Has(kSqueezing) && spec.weapon != nullptr &&
      spec.weapon->category == "heavy") {
    dis("squeezing_heavy",  // L166
        absl::StrCat(On(kSqueezing, a), ", heavy ", spec.weapon->name),
        "000.squeezing");
  }
  if (spec.consume_dodge && target.Has(kDodging)) {
    dis("dodge", On(kDodging, t), "000.dodge");  // L45
  }
  return e;
}

}  // namespace combat::kernel::d20
