// Start-of-turn effects (L127-L136, L156, L158, L41): Bleeding first, then
// drifting, falling, On fire and Poison, then the durations anchored to this
// turn's start (L13); the Reaction is refreshed (L19).
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/d20_three_action/internal.h"

namespace combat::kernel::d20 {

absl::Status RollBleedTable(Decision& d, std::string who, uint64_t cause) {
  const Combatant* c = d.state().Find(who);
  const int64_t penalty = c->Resource(kBleedPenalty);
  const int64_t hp = c->Resource(kHp);
  ASSIGN_OR_RETURN(dice::RollResult r,
                   d.Roll("1d20", "bleed table", who, cause));
  // L127: roll on the Bleed Table subtracting the Bleed Penalty.
  const int64_t result = r.total - penalty;
  Nums nums = {{"d20", r.total},
               {"bleed_penalty", penalty, On(kBleeding, who), "000.bleed.penalty"},
               {"result", result},
               {"hp", hp}};
  if (result <= 0) {
    // L132: "If you are already below 0 HP you die. If not you fall
    // Unconscious."
    if (hp < 0) {
      return Kill(
          d, who,
          {cause, "000.bleed.death", nums, "Bleed Table: Death, below 0 HP"});
    }
    RETURN_IF_ERROR(FallUnconscious(
        d, who,
        {cause, "000.bleed.death", nums,
         "Bleed Table: Death band at 0 or more HP: Unconscious"}));
  } else if (result <= 5) {
    RETURN_IF_ERROR(FallUnconscious(
        d, who,
        {cause, "000.bleed.unconscious", nums, "Bleed Table: Unconscious"}));
  } else if (result <= 10) {
    RETURN_IF_ERROR(AddResource(d, who, kBleedPenalty, 1,
                                {cause, "000.bleed.deteriorate", nums,
                                 "Bleed Table: Deteriorate"})
                        .status());
  } else if (result >= 16) {
    const Why why{cause, "000.bleed.stabilize", nums, "Bleed Table: Stabilize"};
    RETURN_IF_ERROR(RemoveConditionsNamed(d, who, kBleeding, why));
    return SetResource(d, who, kBleedPenalty, 0, why);
  }
  // 11-15: no effect (L135). Then, still bleeding, 2d6 Bleed Damage (L127;
  // reading: not after Stabilize, which ended the condition).
  return RollDamage(d, "2d6", who, who, "bleed", false, "000.bleeding", cause,
                    nums)
      .status();
}

namespace {

// The continuous Effects of `who`'s turn start (L127 Bleeding first, L85,
// L79, L156, L158). The Round durations anchored at this turn start are not
// yet counted (StartOfTurnEffects).
absl::Status OwnEffects(Decision& d, const std::string& who, uint64_t cause,
                        const std::string& rule) {
  const int64_t round = d.state().round;
  RETURN_IF_ERROR(
      SetResource(d, who, kSotRound, round,
                  {cause, rule, {{"round", round}}, "start-of-turn effects"}));
  // L127: Bleeding comes before any other continuous effect.
  if (d.state().Find(who)->Has(kBleeding)) {
    RETURN_IF_ERROR(RollBleedTable(d, who, cause));
  }
  if (IsDead(*d.state().Find(who))) return absl::OkStatus();
  // L85: "continue to Move in that direction ... at the beginning of your
  // Turn every Round until you run into something".
  RETURN_IF_ERROR(DriftAtTurnStart(d, who, cause));
  // L79: "continue Falling at the start of each of their Turns".
  RETURN_IF_ERROR(FallingAtTurnStart(d, who, cause));
  if (d.state().Find(who)->Has(kOnFire)) {
    // L156: 2d6 Fire Damage every Round at the beginning of the turn.
    RETURN_IF_ERROR(
        RollDamage(d, "2d6", who, who, "fire", false, "000.on_fire", cause, {})
            .status());
    if (IsDead(*d.state().Find(who))) return absl::OkStatus();
  }
  // L158: only the highest Level of Poison applies. Reading: a poison of
  // level N deals Nd6 (minimum 1d6).
  int64_t level = 0;
  int instances = 0;
  for (const Condition* p : Named(*d.state().Find(who), kPoisoned)) {
    level = std::max<int64_t>(level, std::max<int64_t>(1, p->level));
    ++instances;
  }
  if (instances > 0) {
    RETURN_IF_ERROR(RollDamage(d, absl::StrCat(level, "d6"), who, who, "poison",
                               false, "000.poisoned", cause,
                               {{"level", level}, {"instances", instances}})
                        .status());
  }
  return absl::OkStatus();
}

// L19: 1 Reaction per Round, starting on its turn.
absl::Status RefreshReaction(Decision& d, const std::string& who,
                             uint64_t cause) {
  if (IsDead(*d.state().Find(who))) return absl::OkStatus();
  Nums nums;
  const int64_t reactions = ReactionBudget(*d.state().Find(who), &nums);
  return SetResource(d, who, kReactions, reactions,
                     {cause, "000.reaction", nums});
}

}  // namespace

absl::Status StartOfTurnEffects(Decision& d, std::string who, uint64_t cause) {
  RETURN_IF_ERROR(OwnEffects(d, who, cause, "000.turn"));
  // L41: a commandable creature treats the start of its last commander's
  // turn as the start of its own for continuous effects (reading: its
  // controller, who alone may command it).
  std::vector<std::string> companions;
  for (const auto& [id, c] : d.state().combatants) {
    if (c.controller == who && !IsDead(c)) companions.push_back(id);
  }
  for (const std::string& id : companions) {
    RETURN_IF_ERROR(OwnEffects(d, id, cause, "000.command.start_of_turn"));
  }
  // L13: a Round anchored at this turn start is over here ("after all other
  // Creatures have gotten a Turn"), also when the Bleed Table or a damage
  // has just killed the creature and the Turn does not happen. It ends
  // after the continuous Effects of this turn start (L158 "takes Damage
  // every Round at the beginning of their Turn for the specified amount of
  // time": a Poison of N Rounds laid in its bearer's own Turn, whose last
  // Round ends as that Turn begins, bites there, N times in all; so does a
  // timed On fire, L156) and before the allotments counted there (the
  // Reaction here, L19; the Actions in turns.cc, L15): see README,
  // Readings, "1 Round".
  RETURN_IF_ERROR(ExpireAt(d, fb::ExpiryKind::TurnStart, who,
                           d.state().round, {cause, "000.duration.round"})
                      .status());
  for (const std::string& id : companions) {
    RETURN_IF_ERROR(ExpireAt(d, fb::ExpiryKind::TurnStart, id,
                             d.state().round, {cause, "000.duration.round"})
                        .status());
  }
  RETURN_IF_ERROR(RefreshReaction(d, who, cause));
  for (const std::string& id : companions) {
    RETURN_IF_ERROR(RefreshReaction(d, id, cause));
  }
  return absl::OkStatus();
}

}  // namespace combat::kernel::d20
