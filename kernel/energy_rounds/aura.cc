// Aura (l.290-312), Death rolls and Death Saves (l.622-649) and
// unconsciousness by cause (l.651-660).
//
// Each roll's outcome is written as a resource (death_roll, death_save,
// wake_roll: the last value) citing its table row, so a "nothing happens"
// row is still an auditable state change.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/energy_rounds/internal.h"

namespace combat::kernel::energy {
namespace {

absl::Status Bleed(Decision& d, const std::string& who, const Why& why) {
  if (d.state().Find(who)->Has("Bleeding")) return absl::OkStatus();  // l.645
  Impose b;
  b.actor = who;
  b.name = "Bleeding";
  b.source = "death roll";
  b.expiry = Forever();  // until Stabilized (l.635, l.647)
  b.note = "Death Save at the beginning of every Round until Stabilized";
  return AddWithDaughters(d, b, why).status();
}

absl::Status Exhaust(Decision& d, const std::string& who, bool until_rest,
                     const Why& why) {
  Impose e;
  e.actor = who;
  e.name = "Exhausted";
  e.source = "death roll";
  e.expiry = until_rest ? Expiry{fb::ExpiryKind::OnUse, "short_rest", 0}
                        : EndOfRound(d.state(), 1);
  return AddWithDaughters(d, e, why).status();
}

}  // namespace

absl::Status FallUnconscious(Decision& d, const std::string& who,
                             const std::string& cause_kind, const Why& why) {
  const Combatant* c = d.state().Find(who);
  for (const auto& [id, k] : c->conditions) {
    if (k.name == "Unconscious" && k.source == cause_kind) return absl::OkStatus();
  }
  Impose u;
  u.actor = who;
  u.name = "Unconscious";
  u.source = cause_kind;  // stamina, nonlethal, dying, sleep (l.657-660)
  u.expiry = Forever();
  // AddWithDaughters also takes its Energy (l.57).
  return AddWithDaughters(d, u, why).status();
}

absl::Status Die(Decision& d, const std::string& who, const Why& why) {
  Impose dead;
  dead.actor = who;
  dead.name = "Dead";
  dead.source = why.rule;
  dead.expiry = Forever();
  RETURN_IF_ERROR(AddWithDaughters(d, dead, why).status());
  RETURN_IF_ERROR(RemoveConditionsNamed(d, who, "Bleeding", why));
  if (d.state().Find(who)->Resource(res::kEnergy) != 0) {
    RETURN_IF_ERROR(SetResource(d, who, res::kEnergy, 0, why));
  }
  return absl::OkStatus();
}

absl::Status DeathRoll(Decision& d, const std::string& who, uint64_t cause) {
  ASSIGN_OR_RETURN(dice::RollResult r, d.Roll("1d20", "death roll", who, cause));
  const int v = r.natural();
  const char* row = v >= 20 ? ">=20: just a scratch"
                    : v >= 15 ? "15-19: Exhausted until the end of the next Round"
                    : v >= 10 ? "10-14: major injury, Exhausted until the next Short Rest"
                    : v >= 5  ? "5-9: major injury, bleeding out"
                    : v >= 2  ? "2-4: major injury, bleeding out, unconscious"
                              : "<=1: dies";
  const Why why{cause, "002.death.roll", {{"death_roll_d20", v}}, row};
  RETURN_IF_ERROR(SetResource(d, who, "death_roll", v, why));
  if (v >= 20) return absl::OkStatus();
  if (v <= 1) return Die(d, who, why);
  RETURN_IF_ERROR(Exhaust(d, who, /*until_rest=*/v < 15, why));
  if (v >= 10) return absl::OkStatus();
  RETURN_IF_ERROR(Bleed(d, who, why));
  if (v >= 5) return absl::OkStatus();
  return FallUnconscious(d, who, "dying", why);
}

absl::Status DeathSave(Decision& d, const std::string& who, uint64_t cause,
                       const Nums& extra) {
  ASSIGN_OR_RETURN(dice::RollResult r, d.Roll("1d20", "death save", who, cause));
  const int v = r.natural();
  const char* row = v >= 20 ? ">=20: Stabilized"
                    : v >= 5 ? "5-19: still bleeding out"
                    : v >= 2 ? (d.state().Find(who)->Has("Unconscious")
                                    ? "2-4: falls unconscious, if not already: already unconscious"
                                    : "2-4: falls unconscious")
                             : "<=1: dies";
  Why why{cause, "002.death.save", {{"death_save_d20", v}, {"round", d.state().round}}, row};
  for (const Num& n : extra) why.nums.push_back(n);
  // A rest's Rounds leave the session's count as it was (rest.cc): the
  // Round is recorded once.
  if (d.state().Find(who)->Resource(res::kDeathSaveRound, 0) != d.state().round) {
    RETURN_IF_ERROR(SetResource(d, who, res::kDeathSaveRound, d.state().round,
                                {cause, "002.death.one_save", {{"round", d.state().round}}, ""}));
  }
  RETURN_IF_ERROR(SetResource(d, who, "death_save", v, why));
  if (v >= 20) {
    return RemoveConditionsNamed(d, who, "Bleeding",
                                 {cause, "002.death.stabilize", {{"death_save_d20", v}},
                                  "Stabilized; the GM decides when it wakes (l.659)"});
  }
  if (v >= 5) return absl::OkStatus();
  if (v >= 2) {
    // l.643: "You fall unconscious, if not already unconscious": one
    // unconscious already (Stamina loss, a blow, sleep) stays so for that
    // cause only, and wakes as that cause allows (l.657-660).
    if (d.state().Find(who)->Has("Unconscious")) return absl::OkStatus();
    return FallUnconscious(d, who, "dying", why);
  }
  return Die(d, who, why);
}

// l.655-658: each cause of unconsciousness has its own way to wake: "You
// roll a 1d20 each Round until you get a 20" is said of Stamina loss
// (l.657) and of non-lethal damage (l.658) alike, so one unconscious from
// both rolls for each, in the order it fell unconscious from them
// (condition id), and a 20 ends that cause only: it wakes when no cause
// is left.
absl::Status WakeRoll(Decision& d, const std::string& who, uint64_t cause,
                      const Nums& extra) {
  std::vector<std::pair<uint32_t, std::string>> causes;
  for (const auto& [cid, k] : d.state().Find(who)->conditions) {
    if (k.name == "Unconscious" && (k.source == "stamina" || k.source == "nonlethal")) {
      causes.emplace_back(cid, k.source);
    }
  }
  for (const auto& [id, kind] : causes) {
    const std::string rule =
        kind == "stamina" ? "002.unconscious.stamina" : "002.unconscious.nonlethal";
    ASSIGN_OR_RETURN(dice::RollResult r, d.Roll("1d20", "wake-up roll", who, cause));
    const int v = r.natural();
    Nums nums{{"wake_d20", v}};
    for (const Num& n : extra) nums.push_back(n);
    RETURN_IF_ERROR(SetResource(d, who, "wake_roll", v,
                                {cause, rule, nums, v == 20 ? "wakes" : "stays unconscious"}));
    if (v != 20) continue;
    RETURN_IF_ERROR(RemoveCondition(d, who, id, {cause, rule, {{"wake_d20", v}}, "wakes up"}));
    if (kind == "stamina" && d.state().Find(who)->Resource(res::kStamina) == 0) {
      RETURN_IF_ERROR(AddResource(d, who, res::kStamina, 1,
                                  {cause, rule, {}, "wakes with 1 Stamina"})
                          .status());
    }
  }
  return absl::OkStatus();
}

absl::Status StabiliseIfGained(Decision& d, const std::string& who,
                               int64_t before, uint64_t cause) {
  const Combatant* c = d.state().Find(who);
  if (c == nullptr || c->Resource(res::kAura) <= before || !c->Has("Bleeding")) {
    return absl::OkStatus();
  }
  return RemoveConditionsNamed(d, who, "Bleeding",
                               {cause, "002.death.stabilize",
                                {{"aura_before", before}, {"aura_after", c->Resource(res::kAura)}},
                                "gaining Aura stabilises"});
}

absl::Status GainAura(Decision& d, const std::string& who, int64_t amount,
                      const Why& why) {
  const Combatant* c = d.state().Find(who);
  const int64_t before = c->Resource(res::kAura);
  const int64_t room = AuraMax(*c) - before;
  const int64_t gain = std::min(amount, room);
  if (gain > 0) {
    Why w = why;
    w.nums.push_back({"aura_before", before});
    w.nums.push_back({"aura_max", AuraMax(*c)});
    RETURN_IF_ERROR(AddResource(d, who, res::kAura, gain, w).status());
  }
  return StabiliseIfGained(d, who, before, why.cause);
}

}  // namespace combat::kernel::energy
