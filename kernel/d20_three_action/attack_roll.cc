// Attack rolls: the bonuses of L29/L31/L33, the d20 with its edge, the
// critical-success reading of L27, and opposed Melee Attack rolls.
#include <string>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/d20_three_action/internal.h"

namespace combat::kernel::d20 {
namespace {

bool Finesse(const Weapon* w) {
  return w != nullptr && (w->category == "light" || w->category == "medium");
}

void Push(Nums* nums, std::string key, int64_t v) {
  if (nums != nullptr) nums->push_back({key, v});
}

// The weapon a defender uses for its opposed roll: its first light or
// medium melee weapon in hand (L29 "While wielding": so it may use DEX; not
// one dropped or disarmed, L55), else none (STR).
const Weapon* DefenderWeapon(const Combatant& c) {
  for (const Weapon& w : c.weapons) {
    if ((w.kind == "melee" || w.kind == "natural") && Finesse(&w) &&
        InHand(c, w)) {
      return &w;
    }
  }
  return nullptr;
}

}  // namespace

int64_t MeleeBonus(const Combatant& c, const Weapon* w, std::string stat,
                   Nums* nums) {
  const int64_t level = c.Stat("level");
  const int64_t str = c.Stat("str");
  const int64_t dex = c.Stat("dex");
  // L29: d20+Level+STR; with a Light or Medium weapon DEX may be used
  // instead. Reading: the attacker's choice (param "stat"), else the better.
  const bool use_dex =
      Finesse(w) && (stat == "dex" || (stat.empty() && dex > str));
  Push(nums, "level", level);
  Push(nums, use_dex ? "dex" : "str", use_dex ? dex : str);
  return level + (use_dex ? dex : str);
}

int64_t RangedBonus(const Combatant& c, Nums* nums) {
  Push(nums, "level", c.Stat("level"));
  Push(nums, "dex", c.Stat("dex"));
  return c.Stat("level") + c.Stat("dex");  // L31
}

int64_t SpellBonus(const Combatant& c, Nums* nums) {
  Push(nums, "level", c.Stat("level"));
  Push(nums, "ess", c.Stat("ess"));
  return c.Stat("level") + c.Stat("ess");  // L33
}

absl::StatusOr<RollOutcome> RollAttack(Decision& d, std::string roller,
                                       int64_t bonus, const Edge& edge,
                                       std::string purpose, uint64_t cause) {
  ASSIGN_OR_RETURN(dice::RollResult r,
                   d.Roll(D20(edge.mode(), bonus), purpose, roller, cause));
  RollOutcome out;
  out.natural = r.natural();
  out.total = r.total;
  out.mode = edge.mode();
  return out;
}

bool IsCritical(const RollOutcome& r, int64_t against) {
  return r.total >= against && (r.natural == 20 || r.total >= against + 10);
}

absl::Status ConsumeDodge(Decision& d, const Combatant& target,
                          const Edge& edge, uint64_t cause) {
  for (const EdgeSource& s : edge.disadvantage) {
    if (s.name != "dodge") continue;
    const Condition* c = target.FindCondition(kDodging);
    if (c == nullptr) return absl::OkStatus();
    const std::string id = target.id;
    const uint32_t cond = c->id;
    return RemoveCondition(d, id, cond,
                           {cause, "000.dodge", {}, "used by this attack"});
  }
  return absl::OkStatus();
}

absl::StatusOr<Opposed> OpposedMelee(Decision& d, const Combatant& attacker,
                                     const Combatant& defender,
                                     const Weapon* weapon, std::string purpose,
                                     uint64_t cause) {
  Opposed o;
  const State& s = d.state();
  AttackSpec mine{AttackKind::kMelee, weapon};
  const Edge edge_a = AttackEdge(s, attacker, defender, mine);
  const Weapon* dw = DefenderWeapon(defender);
  AttackSpec theirs{AttackKind::kMelee, dw};
  theirs.consume_dodge = false;
  const Edge edge_d = AttackEdge(s, defender, attacker, theirs);
  Nums a_nums, d_nums;
  const int64_t bonus_a = MeleeBonus(attacker, weapon, "", &a_nums);
  const int64_t bonus_d = MeleeBonus(defender, dw, "", &d_nums);
  const std::string attacker_id = attacker.id;
  const std::string defender_id = defender.id;
  ASSIGN_OR_RETURN(o.mine,
                   RollAttack(d, attacker_id, bonus_a, edge_a, purpose, cause));
  ASSIGN_OR_RETURN(o.theirs,
                   RollAttack(d, defender_id, bonus_d, edge_d,
                              absl::StrCat(purpose, " (opposed)"), cause));
  // Reading of L33's "equal to or higher" for opposed rolls: the initiator
  // wins ties.
  o.success = o.mine.total >= o.theirs.total;
  o.critical = IsCritical(o.mine, o.theirs.total);
  for (const Num& n : a_nums) o.nums.push_back({"attacker." + n.key, n.value});
  edge_a.AddTo(o.nums);
  o.nums.push_back({"attacker.d20", o.mine.natural});
  o.nums.push_back({"attacker.total", o.mine.total});
  for (const Num& n : d_nums) o.nums.push_back({"defender." + n.key, n.value});
  edge_d.AddTo(o.nums, "defender.");
  o.nums.push_back({"defender.d20", o.theirs.natural});
  o.nums.push_back({"defender.total", o.theirs.total});
  o.nums.push_back({"success", o.success ? 1 : 0});
  o.nums.push_back({"critical", o.critical ? 1 : 0});
  const Combatant* fresh = d.state().Find(defender_id);
  if (fresh != nullptr) RETURN_IF_ERROR(ConsumeDodge(d, *fresh, edge_a, cause));
  return o;
}

}  // namespace combat::kernel::d20
