// Damage (l.164, l.240, l.547) after armor (l.178), with Weakness and
// Resistance (l.374-386) and non-lethal damage (l.503-519).
//
// Multipliers come after every additive part and after armor (l.386).
// Weakness and Resistance cancel (l.380) and count once each (l.380,
// l.382). Every source of double damage adds one more x1: two doublings
// make x3 (l.386). Each halving (Resistance, non-proficient l.527/l.529,
// thrown without Thrown l.272) halves the result, rounding down (l.384):
//   dealt = floor(after_armor x (1 + doublings) / 2^halvings)
#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/energy_rounds/internal.h"

namespace combat::kernel::energy {

DamageOut ComputeDamage(const Combatant& t, const DamageIn& in) {
  DamageOut out;
  const int64_t base = in.rolled + in.bonus;
  const int64_t armor = in.armor ? in.ar : 0;
  out.after_armor = std::max<int64_t>(0, base - armor);
  const bool weak = !in.type.empty() && t.HasTag("weak:" + in.type);
  const bool resist = !in.type.empty() && t.HasTag("resist:" + in.type);
  out.weak = weak && !resist ? 1 : 0;    // l.380: they cancel
  out.resist = resist && !weak ? 1 : 0;
  const int doublings = in.doublings + out.weak;
  const int halvings = in.halvings + out.resist;
  out.dealt = FloorDiv(out.after_armor * (1 + doublings), int64_t{1} << halvings);
  out.nums = {{"damage_roll", in.rolled},
              {"damage_bonus", in.bonus, in.bonus_source, in.bonus_rule}};
  out.nums.push_back({"armor_hit", in.armor ? 1 : 0});
  if (in.armor) out.nums.push_back({"ar", in.ar, "armor of " + t.id, in.armor_rule});
  out.nums.push_back({"after_armor", out.after_armor});
  if (weak) {
    out.nums.push_back({"weakness", 1, absl::StrCat(t.id, " weak to ", in.type),
                        resist ? "002.damage.cancel" : "002.damage.weakness"});
  }
  if (resist) {
    out.nums.push_back({"resistance", 1, absl::StrCat(t.id, " resists ", in.type),
                        weak ? "002.damage.cancel" : "002.damage.resistance"});
  }
  for (const Num& m : in.mods) out.nums.push_back(m);
  if (doublings) out.nums.push_back({"doublings", doublings, "", "002.damage.after_armor"});
  if (halvings) out.nums.push_back({"halvings", halvings, "", "002.damage.rounding"});
  out.nums.push_back({"damage", out.dealt});
  return out;
}

absl::StatusOr<bool> NonLethalChance(Decision& d, const std::string& attacker,
                                     int64_t threshold, int64_t trades,
                                     uint64_t cause, Nums& nums) {
  const int64_t need = threshold - 5 * trades;  // l.519
  ASSIGN_OR_RETURN(dice::RollResult r, d.Roll("1d20", "chance roll (non-lethal)", attacker, cause));
  nums.push_back({"nonlethal_chance_d20", r.natural()});
  if (trades) nums.push_back({"nonlethal_trade_range", -5 * trades, "", "002.nonlethal.trade"});
  nums.push_back({"nonlethal_needs", need});
  const bool ok = r.natural() >= need;
  nums.push_back({"nonlethal", ok ? 1 : 0});
  return ok;
}

absl::Status ApplyDamage(Decision& d, const std::string& target,
                         const DamageOut& dmg, bool nonlethal,
                         const std::string& rule, uint64_t cause) {
  const Combatant* t = d.state().Find(target);
  const int64_t before = t->Resource(res::kAura);
  if (dmg.dealt <= 0) return absl::OkStatus();
  if (before > 0) {
    const int64_t loss = std::min(before, dmg.dealt);
    Nums nums = dmg.nums;
    nums.push_back({"aura_before", before});
    nums.push_back({"aura_after", before - loss});
    RETURN_IF_ERROR(AddResource(d, target, res::kAura, -loss,
                                {cause, rule, nums,
                                 nonlethal ? "non-lethal damage reduces Aura (l.505)" : ""})
                        .status());
    return absl::OkStatus();  // the hit that empties Aura makes no Death roll
  }
  // At 0 Aura the body is harmed (l.626).
  if (!nonlethal) return DeathRoll(d, target, cause);
  // Non-lethal at 0 Aura (l.507, l.509): no Death roll.
  Impose ex;
  ex.actor = target;
  ex.name = "Exhausted";
  ex.source = "nonlethal";
  ex.expiry = EndOfRound(d.state(), 1);
  RETURN_IF_ERROR(AddWithDaughters(d, ex, {cause, "002.nonlethal.victim", dmg.nums,
                                           "winded: Exhausted until the end of the next Round"})
                      .status());
  // l.509: "Shaken until their next Short Rest": unless a Shaken that lasts
  // as long is already there (a shorter one, a GM's for some Rounds, would
  // end it early).
  bool until_rest = false;
  for (const auto& [id, k] : d.state().Find(target)->conditions) {
    if (k.name == "Shaken" && k.expiry.kind == fb::ExpiryKind::OnUse &&
        k.expiry.actor == "short_rest") {
      until_rest = true;
    }
  }
  if (!until_rest) {
    Impose sh;
    sh.actor = target;
    sh.name = "Shaken";
    sh.source = "nonlethal";
    sh.expiry = Expiry{fb::ExpiryKind::OnUse, "short_rest", 0};
    RETURN_IF_ERROR(AddWithDaughters(d, sh, {cause, "002.nonlethal.attacker", {},
                                             "Shaken until the next Short Rest"})
                        .status());
  }
  return LoseStamina(d, target, 5, {cause, "002.nonlethal.attacker", {}, "loses 5 Stamina"});
}

}  // namespace combat::kernel::energy
