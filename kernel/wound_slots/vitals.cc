// Stamina, fatigue and mana (l.37-42), the conditions they cause
// (Exhausted, Staggered), and the Wounded condition (l.32). Also the small
// condition helpers every file uses (durations, l.127).
#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/wound_slots/internal.h"

namespace combat::kernel::wound_slots {

bool IsDead(const Combatant& c) { return c.Has("Dead"); }
bool IsOut(const Combatant& c) {
  return c.Has("Dead") || c.Has("Unconscious") || c.Has("Helpless");
}
bool IsHelpless(const Combatant& c) {
  return c.Has("Helpless") || c.Has("Unconscious") || c.Has("Pinned");
}

int HighestWound(const Combatant& c) {
  for (int l = kFatal; l >= kLight; --l) {
    if (c.Resource(WoundsKey(l)) > 0) return l;
  }
  return kNone;
}

absl::StatusOr<uint32_t> Impose(Decision& d, const std::string& who,
                                const std::string& name,
                                const std::string& source, Expiry expiry,
                                const Why& why, int64_t level,
                                const std::string& relative_to) {
  NewCondition nc;
  nc.actor = who;
  nc.name = name;
  nc.source = source;
  nc.expiry = expiry;
  nc.level = level;
  nc.relative_to = relative_to;
  return AddCondition(d, nc, why);
}

Expiry ForRounds(const State& s, int64_t rounds) {
  // l.127: the round it begins is round 1; it ends at the end of round
  // (now + rounds - 1).
  return Expiry{fb::ExpiryKind::RoundEnd, "", s.round + std::max<int64_t>(1, rounds) - 1};
}

uint64_t Began(const Condition& k) {
  // A condition Treat Condition reduced (l.252) is the same effect: `ref`
  // names the event it began with.
  return k.ref != 0 && k.ref < k.added_at ? k.ref : k.added_at;
}

absl::Status Expire(Decision& d, fb::ExpiryKind kind, const std::string& actor, int64_t round,
                    const Why& why) {
  // l.127 "If the order in which effects end on a given round is
  // important, the ones that have been active longer end earlier."
  return ExpireAt(d, kind, actor, round, why, Began).status();
}

Expiry UntilTurnStart(const State& s, const std::string& who) {
  // "until your next turn": the start of its turn next round — or this
  // round, when it is taken out of turn by a creature that has not had its
  // turn yet this round.
  const Combatant* c = s.Find(who);
  const bool turn_to_come = !s.IsTurnOf(who) && c != nullptr && c->Resource(res::kTurnRound) != s.round;
  return Expiry{fb::ExpiryKind::TurnStart, who, turn_to_come ? s.round : s.round + 1};
}

absl::Status UpdateWounded(Decision& d, const std::string& who, const Why& why) {
  const Combatant* c = d.state().Find(who);
  const int level = HighestWound(*c);
  if (level == kNone && c->Resource(res::kRecovery) > 0) {
    // l.63: the cumulative bonus lasts "until a check results in a healed
    // wound or you have no more wounds", however they were healed.
    RETURN_IF_ERROR(SetResource(d, who, res::kRecovery, 0, {why.cause, "001.rest.recovery", {}, "no more wounds: the cumulative bonus ends"}));
    c = d.state().Find(who);
  }
  const Condition* w = c->FindCondition("Wounded");
  if (w != nullptr && w->level == level) return absl::OkStatus();
  if (w != nullptr) {
    RETURN_IF_ERROR(RemoveCondition(d, who, w->id, {why.cause, "001.wound.wounded", {}, "severity changes"}));
  }
  if (level == kNone) return absl::OkStatus();
  return Impose(d, who, "Wounded", "wounds", {}, 
                {why.cause, "001.wound.wounded", {{"severity", level}},
                 absl::StrCat(LevelName(level), "ly wounded")},
                level)
      .status();
}

int64_t MaxStamina(const Combatant& c) {
  return std::max<int64_t>(0, NormalMaxStamina(c) - c.Resource(res::kFatigue));
}
int64_t MaxMana(const Combatant& c) {
  return std::max<int64_t>(0, NormalMaxMana(c) - c.Resource(res::kInvested));
}

namespace {

absl::Status FatigueConditions(Decision& d, const std::string& who, const Why& why) {
  const Combatant* c = d.state().Find(who);
  const int64_t fatigue = c->Resource(res::kFatigue);
  const int64_t normal = NormalMaxStamina(*c);
  // l.40: "greater than or equal to half" compared exactly: 2 x fatigue >= max.
  const bool exhausted = fatigue > 0 && 2 * fatigue >= normal;
  const bool staggered = fatigue > 0 && fatigue >= normal && !(IsNpc(*c) && !c->HasTag("special"));  // l.35: NPCs immune unless special
  if (exhausted && !c->Has("Exhausted")) {
    RETURN_IF_ERROR(Impose(d, who, "Exhausted", "fatigue", {},
                           {why.cause, "001.fatigue.exhausted", {{"fatigue", fatigue}, {"normal_max", normal}}})
                        .status());
  } else if (!exhausted && c->Has("Exhausted")) {
    RETURN_IF_ERROR(RemoveConditionsNamed(d, who, "Exhausted", {why.cause, "001.fatigue.exhausted", {{"fatigue", fatigue}}}));
  }
  c = d.state().Find(who);
  if (staggered && !c->Has("Staggered")) {
    RETURN_IF_ERROR(Impose(d, who, "Staggered", "fatigue", {},
                           {why.cause, "001.fatigue.staggered", {{"fatigue", fatigue}, {"normal_max", normal}}})
                        .status());
  } else if (!staggered && c->Has("Staggered")) {
    RETURN_IF_ERROR(RemoveConditionsNamed(d, who, "Staggered", {why.cause, "001.fatigue.staggered", {{"fatigue", fatigue}}}));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status SetFatigue(Decision& d, const std::string& who, int64_t value,
                        const Why& why) {
  value = std::max<int64_t>(0, value);
  const Combatant* c = d.state().Find(who);
  if (c->Resource(res::kFatigue) != value) {
    RETURN_IF_ERROR(SetResource(d, who, res::kFatigue, value, why));
  }
  c = d.state().Find(who);
  const int64_t max = MaxStamina(*c);
  if (c->Resource(res::kStamina) > max) {  // l.40: decreases to match
    RETURN_IF_ERROR(SetResource(d, who, res::kStamina, max,
                                {why.cause, "001.fatigue", {{"max_stamina", max}}, "stamina above the new maximum"}));
  }
  return FatigueConditions(d, who, why);
}

absl::Status AddFatigue(Decision& d, const std::string& who, int64_t n,
                        const Why& why) {
  if (n <= 0) return absl::OkStatus();
  return SetFatigue(d, who, d.state().Find(who)->Resource(res::kFatigue) + n, why);
}

absl::Status SpendStamina(Decision& d, const std::string& who, int64_t n,
                          const Why& why) {
  if (n <= 0) return absl::OkStatus();
  const int64_t have = d.state().Find(who)->Resource(res::kStamina);
  const int64_t spent = std::min(have, n);
  if (spent > 0) {
    RETURN_IF_ERROR(AddResource(d, who, res::kStamina, -spent,
                                {why.cause, "001.stamina.spend", {{"cost", n}, {"stamina", have}}, why.note})
                        .status());
  }
  return AddFatigue(d, who, n - spent,
                    {why.cause, "001.stamina.spend", {{"excess", n - spent}}, "excess stamina cost becomes fatigue"});
}

absl::Status SpendMana(Decision& d, const std::string& who, int64_t n,
                       const Why& why) {
  const int64_t have = d.state().Find(who)->Resource(res::kMana);
  if (n > have) return Refuse("001.mana.spend", absl::StrCat(who, " has ", have, " mana, needs ", n));
  return AddResource(d, who, res::kMana, -n, {why.cause, "001.mana.spend", {{"cost", n}}, why.note}).status();
}

absl::Status InvestMana(Decision& d, const std::string& who, int64_t n,
                        const Why& why) {
  const int64_t have = d.state().Find(who)->Resource(res::kMana);
  if (n > have) return Refuse("001.mana.invest", absl::StrCat(who, " has ", have, " mana, needs ", n));
  RETURN_IF_ERROR(AddResource(d, who, res::kMana, -n, {why.cause, "001.mana.invest", {{"invest", n}}}).status());
  return AddResource(d, who, res::kInvested, n, {why.cause, "001.mana.invest", {{"invest", n}}}).status();
}

absl::Status ReturnExpiredMana(Decision& d, uint64_t cause) {
  std::map<std::string, int64_t> held;  // caster -> mana still tied up in Spell conditions
  for (const auto& [id, c] : d.state().combatants) {
    for (const auto& [cid, k] : c.conditions) {
      if (k.name == "Spell") held[k.source] += k.level;
    }
  }
  std::vector<std::pair<std::string, int64_t>> back;
  for (const auto& [id, c] : d.state().combatants) {
    const int64_t inv = c.Resource(res::kInvested);
    const auto it = held.find(id);
    const int64_t tied = it == held.end() ? 0 : it->second;
    if (inv > tied) back.emplace_back(id, inv - tied);
  }
  for (const auto& [id, n] : back) {
    // l.42: "returned as soon as the effect ends".
    RETURN_IF_ERROR(AddResource(d, id, res::kInvested, -n, {cause, "001.mana.invest", {{"returned", n}}, "the effect ended"}).status());
    RETURN_IF_ERROR(AddResource(d, id, res::kMana, n, {cause, "001.mana.invest", {{"returned", n}}, "the effect ended"}).status());
  }
  return absl::OkStatus();
}

absl::Status DecideSpendStamina(const fb::CommandT& c, Decision& d) {
  ASSIGN_OR_RETURN(const Combatant* a, Actor(d.state(), c));
  const int64_t n = ParamOr(c, "amount", 0);
  if (n < 1) return Malformed(c, "params.amount", "the stamina cost, at least 1");
  if (IsDead(*a)) return Refuse("001.stamina.spend", a->id + " is dead");
  const std::string who = a->id;
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  // l.38: allowed at 0 stamina; the excess becomes fatigue.
  return SpendStamina(d, who, n, {decl, "001.stamina.spend", {}, c.text.empty() ? "stamina cost" : c.text});
}

}  // namespace combat::kernel::wound_slots
