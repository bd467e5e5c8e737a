// Damage and healing: HP, the Bleed Penalty (L127), Incapacitated (L152),
// Dead (L140), Unconscious (L168).
#include <algorithm>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/d20_three_action/internal.h"
#include "kernel/pending.h"

namespace combat::kernel::d20 {

absl::Status Kill(Decision& d, std::string who, const Why& why) {
  const Combatant* c = d.state().Find(who);
  if (c == nullptr) return absl::NotFoundError(who);
  if (IsDead(*c)) return absl::OkStatus();
  RETURN_IF_ERROR(Apply(d, who, kDead, who, 0, std::nullopt, why).status());
  // "A Creature with 0 or less HP that is not Dead is Incapacitated" (L152):
  // the dead no longer are, nor bleed, hold anyone or wait with a readied
  // action.
  Why after = why;
  after.nums = {};
  after.note = "ends with death";
  for (const char* name : {kIncapacitated, kBleeding, kDodging}) {
    RETURN_IF_ERROR(RemoveConditionsNamed(d, who, name, after));
  }
  if (const PendingAct* readied = FirstPending(d.state(), who, kReadiedAct)) {
    RETURN_IF_ERROR(ClosePending(d, readied->id, "cancelled: dead", after));
  }
  return EndGrapples(d, who, after);
}

absl::Status FallUnconscious(Decision& d, std::string who, const Why& why) {
  const Combatant* c = d.state().Find(who);
  if (c == nullptr) return absl::NotFoundError(who);
  if (!c->Has(kUnconscious)) {
    RETURN_IF_ERROR(
        Apply(d, who, kUnconscious, who, 0, std::nullopt, why).status());
  }
  Why prone = why;
  prone.rule = "000.unconscious";
  prone.note = "an Unconscious creature falls Prone (L168)";
  return KnockProne(d, who, prone);
}

absl::Status DealDamage(Decision& d, std::string who, int64_t amount,
                        std::string kind, const Why& why) {
  const Combatant* c = d.state().Find(who);
  if (c == nullptr) return absl::NotFoundError(who);
  if (amount <= 0 || IsDead(*c)) return absl::OkStatus();
  Why hp_why = why;
  hp_why.nums.push_back({"damage", amount});
  if (hp_why.note.empty()) hp_why.note = absl::StrCat(kind, " damage");
  ASSIGN_OR_RETURN(int64_t hp, AddResource(d, who, kHp, -amount, hp_why));
  // L127: "Any time the Creature takes Damage, their Bleed Penalty increases
  // by 1" (kept for every creature, bleeding or not).
  RETURN_IF_ERROR(
      AddResource(
          d, who, kBleedPenalty, 1,
          {why.cause, "000.bleed.penalty", {{"damage", amount}}, "took damage"})
          .status());
  c = d.state().Find(who);
  const int64_t max_hp = c->Stat("hp");
  // L140: dead at a negative HP equal to or greater than max HP.
  if (hp <= -max_hp) {
    return Kill(d, who,
                {why.cause,
                 "000.dead",
                 {{"hp", hp}, {"max_hp", max_hp}},
                 "negative HP reached max HP"});
  }
  return Incapacitate(d, who, why.cause);
}

absl::Status Incapacitate(Decision& d, std::string who, uint64_t cause) {
  const Combatant* c = d.state().Find(who);
  if (c == nullptr) return absl::NotFoundError(who);
  const int64_t hp = c->Resource(kHp);
  if (hp > 0 || IsDead(*c) || c->Has(kIncapacitated)) {
    return absl::OkStatus();
  }
  // L152: when it first becomes Incapacitated it is knocked Prone and
  // begins Bleeding (reading: every time it drops to 0 or less from above).
  const Why inc{cause,
                "000.incapacitated",
                {{"hp", hp}},
                "0 or less HP and not dead"};
  RETURN_IF_ERROR(
      Apply(d, who, kIncapacitated, who, 0, std::nullopt, inc).status());
  RETURN_IF_ERROR(KnockProne(d, who, inc));
  if (!d.state().Find(who)->Has(kBleeding)) {
    RETURN_IF_ERROR(
        Apply(d, who, kBleeding, who, 0, std::nullopt, inc).status());
  }
  return absl::OkStatus();
}

namespace {

// L77: "At the end of this time you drop to 0 HP and become
// Incapacitated." Reading: an HP already below 0 stays where it is.
absl::Status OutOfBreath(Decision& d, const std::string& who, int64_t rounds,
                         const Why& why) {
  Why w = why;
  w.note = "out of breath: 0 HP";
  if (d.state().Find(who)->Resource(kHp) > 0) {
    RETURN_IF_ERROR(SetResource(d, who, kHp, 0, w));
  }
  RETURN_IF_ERROR(
      Apply(d, who, kSuffocating, who, rounds, std::nullopt, w).status());
  return Incapacitate(d, who, why.cause);
}

}  // namespace

absl::Status SuffocationCheck(Decision& d, const std::string& who,
                              uint64_t cause,
                              std::optional<int64_t> turn_started) {
  const Combatant* c = d.state().Find(who);
  if (c == nullptr || IsDead(*c)) return absl::OkStatus();
  const Condition* held = c->FindCondition(kHoldingBreath);
  if (!c->Has(kChoked)) {
    // It got a chance to breathe: the count starts over (L77).
    for (const char* name : {kHoldingBreath, kSuffocating}) {
      RETURN_IF_ERROR(RemoveConditionsNamed(
          d, who, name, {cause, "000.suffocate", {}, "breathed"}));
    }
    return absl::OkStatus();
  }
  const int64_t str = c->Stat("str");
  if (const Condition* out = c->FindCondition(kSuffocating); out != nullptr) {
    // L77: "At the end of your next Turn if you still have not gotten a
    // chance to breathe you die": the end of a Turn taken, the first to
    // start after it ran out of breath. A delay ends no Turn, nor does its
    // original place passing (L15 "delay their Turn"): a delaying creature
    // dies at the end of the Turn it takes when it enters.
    if (!turn_started.has_value() ||
        static_cast<int64_t>(out->added_at) >= *turn_started) {
      return absl::OkStatus();
    }
    RETURN_IF_ERROR(Kill(d, who,
                         {cause, "000.suffocate", {{"str", str}},
                          "a turn ended suffocating without breath"}));
    for (const char* name : {kHoldingBreath, kSuffocating}) {
      RETURN_IF_ERROR(RemoveConditionsNamed(
          d, who, name, {cause, "000.suffocate", {}, "ends with death"}));
    }
    return absl::OkStatus();
  }
  // L77 counts Rounds: at most one per round, whether the count comes at a
  // turn's end or, for a delaying creature, at its original place (L15).
  const int64_t round = d.state().round;
  if (c->Resource(kBreathRound) >= round) return absl::OkStatus();
  RETURN_IF_ERROR(SetResource(d, who, kBreathRound, round,
                              {cause, "000.suffocate", {{"round", round}}}));
  c = d.state().Find(who);
  held = c->FindCondition(kHoldingBreath);
  // L77: "hold your breath a number of Rounds equal to your STR". Reading:
  // each of its turns that ends without breath is one Round held.
  const int64_t rounds = (held == nullptr ? 0 : held->level) + 1;
  const Why why{cause, "000.suffocate", {{"rounds_held", rounds}, {"str", str}},
                ""};
  if (held != nullptr) {
    RETURN_IF_ERROR(RemoveConditionsNamed(d, who, kHoldingBreath, why));
  }
  if (rounds < str) {
    Why w = why;
    w.note = "holding its breath";
    return Apply(d, who, kHoldingBreath, who, rounds, std::nullopt, w)
        .status();
  }
  return OutOfBreath(d, who, rounds, why);
}

absl::Status BreathCutOff(Decision& d, const std::string& who,
                          uint64_t cause) {
  const Combatant* c = d.state().Find(who);
  if (c == nullptr || IsDead(*c) || c->Has(kSuffocating)) {
    return absl::OkStatus();
  }
  const int64_t str = c->Stat("str");
  if (str > 0) return absl::OkStatus();  // counted at its turn ends
  // L77: "hold your breath a number of Rounds equal to your STR": STR 0
  // holds it for no Round, so "the end of this time" is when its breath is
  // cut off; no number of Rounds is below 0, so a negative STR is read as
  // 0. "At the end of your next Turn" it dies (SuffocationCheck): cut off
  // in its own Turn (a readied choke), the Turn running started before, so
  // it is not its next one.
  return OutOfBreath(d, who, 0,
                     {cause, "000.suffocate", {{"rounds_held", 0}, {"str", str}},
                      ""});
}

absl::Status HealDamage(Decision& d, std::string who, int64_t amount,
                        const Why& why) {
  const Combatant* c = d.state().Find(who);
  if (c == nullptr) return absl::NotFoundError(who);
  const int64_t max_hp = c->Stat("hp");
  const int64_t hp = c->Resource(kHp);
  const int64_t penalty = c->Resource(kBleedPenalty);
  // Reading: healing never raises HP above max HP.
  const int64_t applied = std::max<int64_t>(0, std::min(amount, max_hp - hp));
  Why w = why;
  w.nums.push_back({"heal", amount});
  w.nums.push_back({"max_hp", max_hp});
  RETURN_IF_ERROR(AddResource(d, who, kHp, applied, w).status());
  // L127: "Any time the Creature is healed, their Bleed Penalty is reduced
  // by 1" (reading: not below 0).
  if (penalty > 0) {
    RETURN_IF_ERROR(
        AddResource(
            d, who, kBleedPenalty, -1,
            {why.cause, "000.bleed.penalty", {{"heal", amount}}, "healed"})
            .status());
  }
  c = d.state().Find(who);
  if (hp <= 0 && c->Resource(kHp) > 0) {
    // L152 defines Incapacitated by HP; reading: waking from Unconscious
    // comes with it, when HP rises above 0 from 0 or less (as by ruling,
    // ruleset.cc:HpByRuling): a heal above 0 HP wakes no one.
    const Why up{why.cause,
                 "000.incapacitated",
                 {{"hp", c->Resource(kHp)}},
                 "above 0 HP"};
    RETURN_IF_ERROR(RemoveConditionsNamed(d, who, kIncapacitated, up));
    RETURN_IF_ERROR(RemoveConditionsNamed(d, who, kUnconscious, up));
  }
  return absl::OkStatus();
}

absl::StatusOr<int64_t> RollDamage(Decision& d, std::string notation,
                                   std::string roller, std::string target,
                                   std::string kind, bool critical,
                                   std::string rule, uint64_t cause,
                                   Nums nums) {
  ASSIGN_OR_RETURN(
      dice::RollResult r,
      d.Roll(notation, absl::StrCat(kind, " damage"), roller, cause));
  int64_t amount = std::max<int64_t>(0, r.total);  // reading: never negative
  nums.push_back({"rolled", r.total});
  if (critical) {
    amount *= 2;  // L27: a Critical Success deals double Damage
    nums.push_back({"critical_x2", amount, "", "000.attack.critical"});
  }
  RETURN_IF_ERROR(DealDamage(d, target, amount, kind,
                             {cause, critical ? "000.attack.critical" : rule,
                              nums, absl::StrCat(kind, " damage")}));
  return amount;
}

}  // namespace combat::kernel::d20
