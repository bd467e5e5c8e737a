// Costs: Energy (l.5), Stamina (l.45-80), Agility (l.86-99), and the
// once-per-Round Stamina-for-Energy (l.47).
#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/command.h"
#include "kernel/energy_rounds/internal.h"

namespace combat::kernel::energy {

bool CanSpendStamina(const Combatant& c) {
  return !Active(c, "Exhausted") && !Active(c, "Shaken");
}

absl::Status ReadCostParams(const fb::CommandT& c, Cost& cost) {
  // `stamina_energy` is a flag, `enhance` >= 0 and taken by attacks only
  // (l.80: Stamina spent "to enhance an attack"): verbs.cc.
  cost.stamina_energy = ParamOr(c, "stamina_energy", 0) == 1;
  const int64_t enhance = ParamOr(c, "enhance", 0);
  // l.80: at most 4 Stamina enhance one attack, unless a single ability
  // asks for more (then nothing else may be added).
  if (enhance > 4 && ParamOr(c, "enhance_single", 0) != 1) {
    return absl::FailedPreconditionError(absl::StrCat(
        "at most 4 Stamina may enhance one attack (got ", enhance,
        "; a single ability asking for more sets enhance_single=1) (",
        Cite("002.stamina.enhance"), ")"));
  }
  cost.enhance = enhance;
  return absl::OkStatus();
}

absl::Status CheckCost(const State& s, const Combatant& c, const Cost& cost,
                       const std::string& act) {
  int64_t energy = cost.energy;
  int64_t stamina = cost.stamina + cost.enhance;
  if (cost.stamina_energy) {
    if (cost.energy < 1) {
      return Refuse("002.stamina.as_energy",
                     absl::StrCat(act, " costs no Energy to replace with Stamina"));
    }
    if (c.Resource(res::kStaminaEnergy) > 0) {
      return Refuse("002.stamina.as_energy",
                     absl::StrCat(c.id, " already spent Stamina as Energy this round"));
    }
    energy -= 1;
    stamina += 1;
  }
  if (stamina > 0 && !CanSpendStamina(c)) {
    const char* why = Active(c, "Exhausted") ? "Exhausted" : "Shaken";
    return Refuse(Active(c, "Exhausted") ? "002.cond.exhausted" : "002.cond.shaken",
                   absl::StrCat(c.id, " is ", why, " and may not spend Stamina"));
  }
  if (stamina > c.Resource(res::kStamina)) {
    return Refuse("002.stamina.costs",
                   absl::StrCat(act, " needs ", stamina, " Stamina; ", c.id,
                                " has ", c.Resource(res::kStamina)));
  }
  if (cost.agility > 0 && Active(c, "Slowed")) {
    return Refuse("002.cond.slowed",
                   absl::StrCat(c.id, " is Slowed and may not use Agility"));
  }
  if (cost.agility > c.Resource(res::kAgility)) {
    return Refuse("002.agility.max",
                   absl::StrCat(act, " needs ", cost.agility, " Agility; ", c.id,
                                " has ", c.Resource(res::kAgility)));
  }
  if (energy > c.Resource(res::kEnergy)) {
    return Refuse("002.rounds.energy",
                   absl::StrCat(act, " needs ", energy, " Energy; ", c.id,
                                " has ", c.Resource(res::kEnergy), " this round"));
  }
  (void)s;
  return absl::OkStatus();
}

absl::Status Pay(Decision& d, const std::string& actor, const Cost& cost,
                 const Why& why) {
  int64_t energy = cost.energy;
  int64_t stamina = cost.stamina + cost.enhance;
  if (cost.stamina_energy && energy > 0) {
    energy -= 1;
    RETURN_IF_ERROR(AddResource(d, actor, res::kStamina, -1,
                                {why.cause, "002.stamina.as_energy", why.nums,
                                 "1 Stamina paid instead of 1 Energy"})
                        .status());
    RETURN_IF_ERROR(SetResource(d, actor, res::kStaminaEnergy, 1,
                                {why.cause, "002.stamina.as_energy", {}, ""}));
  }
  if (energy > 0) {
    RETURN_IF_ERROR(AddResource(d, actor, res::kEnergy, -energy, why).status());
  }
  if (stamina > 0) {
    Why w = why;
    if (cost.enhance > 0) {
      w.rule = "002.stamina.enhance";
      w.nums.push_back({"enhance", cost.enhance, "", "002.stamina.enhance"});
    } else {
      w.rule = "002.stamina.costs";
    }
    RETURN_IF_ERROR(AddResource(d, actor, res::kStamina, -stamina, w).status());
  }
  if (cost.agility > 0) {
    RETURN_IF_ERROR(AddResource(d, actor, res::kAgility, -cost.agility, why).status());
  }
  // l.29: "Once per Energy you spend on a non-movement action", one Agile
  // Move: Energy paid with Stamina instead (l.47, "pushing yourself to do
  // something faster") is not Energy spent and earns none (reading 7).
  const int64_t spent = energy;
  if (!cost.movement && spent > 0) {
    RETURN_IF_ERROR(AddResource(d, actor, res::kAgileCredit, spent,
                                {why.cause, "002.move.agile", {{"energy", spent}},
                                 "Agile Move credit"})
                        .status());
  }
  return absl::OkStatus();
}

absl::Status KnockOutAtZeroStamina(Decision& d, const std::string& who, const Why& why) {
  const Combatant* c = d.state().Find(who);
  // l.72: "Dropping to 0 Stamina will immediately result in
  // unconsciousness" -- also for one already unconscious from another cause
  // (a Death roll, sleep): it is now unconscious due to Stamina loss too,
  // and rolls to wake from it (FallUnconscious adds one per cause).
  if (c == nullptr || c->Resource(res::kStamina) != 0 || c->Has("Dead")) {
    return absl::OkStatus();
  }
  return FallUnconscious(d, who, "stamina", why);
}

absl::Status KnockOutIfSpent(Decision& d, const std::string& actor, uint64_t cause) {
  return KnockOutAtZeroStamina(
      d, actor,
      {cause, "002.stamina.zero", {{"stamina", 0}},
       "dropped to 0 Stamina paying for the act: unconscious once its "
       "results occurred (l.72, l.138)"});
}

absl::Status LoseStamina(Decision& d, const std::string& actor, int64_t n,
                         const Why& why) {
  const Combatant* c = d.state().Find(actor);
  if (c == nullptr) return absl::NotFoundError(actor);
  const int64_t have = c->Resource(res::kStamina);
  const int64_t lose = std::min(have, n);  // l.74: never below 0
  Why w = why;
  w.nums.push_back({"stamina_loss_asked", n});
  w.nums.push_back({"stamina_lost", lose});
  if (lose > 0) {
    RETURN_IF_ERROR(AddResource(d, actor, res::kStamina, -lose, w).status());
  }
  return KnockOutAtZeroStamina(
      d, actor, {why.cause, "002.stamina.zero", {{"stamina", 0}}, "dropped to 0 Stamina"});
}

int64_t EnergyForRound(const Combatant& c) {
  if (c.Has("Dead") || c.Has("Unconscious")) return 0;
  const int64_t stamina = c.Resource(res::kStamina);
  int64_t energy = std::min<int64_t>(stamina, 5);  // l.55-62
  // l.668 "2 less Energy" governs l.507's "only gain 3 Energy" (the same
  // at 5 Stamina; README reading 27 gives the reason).
  if (Active(c, "Exhausted")) energy -= 2;
  return std::max<int64_t>(0, energy);
}

}  // namespace combat::kernel::energy
