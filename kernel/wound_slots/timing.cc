// How long an act takes: performing an action more quickly (l.270-271) and
// actions measured in rounds or minutes (l.111).
//
// - `faster_tn` (params, any verb that is not an attack or a spell): the GM's
//   TN for doing it faster; the check is Dex [Acrobatics] (or
//   `faster_skill` = "athletics": Str [Athletics]). Success: the AP cost
//   drops by 1 + 1 per 3 points over the TN (rounded down), at least 1
//   (l.112), for 1 stamina spent when the act takes effect (l.182), none
//   when no AP came off (an act already at 1 AP). Failure:
//   1 AP more + 1 per 3 points under (the GM's discretion: the reading
//   applies it; gm_adjust undoes it). The adjusted cost travels with the act
//   as params `_cost` and `_stamina`.
// - `time_rounds` / `time_minutes` (1 minute = 4 rounds): the act is
//   performed over that many rounds: a kernel pending act of kind "acting"
//   whose `progress` counts the rounds performed; all AP is spent on it
//   now and at the start of each of the actor's turns, and it takes effect
//   at the start of its turn once the rounds have passed. Spending AP on
//   anything else cancels it (as a paying act).
#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/pending.h"
#include "kernel/wound_slots/internal.h"

namespace combat::kernel::wound_slots {

absl::StatusOr<int64_t> FasterCost(Decision& d, const Combatant& actor,
                                   fb::CommandT& act, int64_t cost,
                                   uint64_t cause) {
  const int64_t tn = ParamOr(act, "faster_tn", 0);
  const bool athletics = ParamText(act, "faster_skill") == "athletics";
  Nums nums{{"tn", tn}, {"base_cost", cost}};
  const int64_t bonus = athletics ? CheckBonus(actor, "str", "athletics", "", &nums)
                                  : CheckBonus(actor, "dex", "acrobatics", "", &nums);
  ASSIGN_OR_RETURN(CheckRoll r, RollCheck(d, actor.id, bonus, "perform more quickly", cause));
  nums.insert(nums.end(), {{"d20", r.natural}, {"result", r.total}});
  int64_t now = cost;
  bool stamina = false;
  if (r.total >= tn) {
    now = std::max<int64_t>(1, cost - 1 - FloorDiv(r.total - tn, 3));
    // l.271 "reduce the AP cost of the action by 1 at the cost of 1
    // stamina": the stamina buys the reduction; an act already at 1 AP
    // is not reduced (l.112) and costs none.
    stamina = now < cost;
  } else {
    now = cost + 1 + FloorDiv(tn - r.total, 3);
  }
  nums.push_back({"ap_change", now - cost, "", "001.faster"});
  nums.push_back({"cost", now});
  RETURN_IF_ERROR(RecordOutcome(d, actor.id, {cause, "001.faster", nums,
                                              r.total < tn ? "fumbled: costs more AP" : stamina ? "faster: costs less AP, 1 stamina" : "faster, but no AP cost goes below 1 (l.112): no stamina"}));
  SetParam(act, "_cost", now);
  SetParam(act, "_stamina", stamina ? 1 : 0);
  return now;
}

int64_t TimedRounds(const fb::CommandT& c) {
  return ParamOr(c, "time_rounds", 0) + 4 * ParamOr(c, "time_minutes", 0);  // l.111: a minute is 4 rounds
}

absl::Status StartTimed(Decision& d, const fb::CommandT& act, uint64_t decl) {
  const std::string who = act.actor;
  const int64_t rounds = TimedRounds(act);
  NewPending p;
  p.kind = kActing;
  p.actor = who;
  p.decl = decl;
  p.command = act;
  p.cost_due = rounds;  // rounds to perform (progress counts them)
  p.budget = "rounds";  // l.111: counted in rounds, not AP (all AP is spent each round)
  ASSIGN_OR_RETURN(uint32_t id, OpenPending(d, p, {decl, "001.ap.rounds", {{"rounds", rounds}},
                                                   "performed over several rounds: all AP each round"}));
  const int64_t ap = d.state().Find(who)->Resource(res::kAp);
  if (ap > 0) {
    RETURN_IF_ERROR(AddResource(d, who, res::kAp, -ap, {decl, "001.ap.rounds", {{"ap", ap}}, "all AP spent performing it"}).status());
  }
  return UpdatePending(d, id, 1, nullptr, nullptr, {decl, "001.ap.rounds", {{"round_of", 1}, {"rounds", rounds}}});
}

absl::Status ContinueTimed(Decision& d, const std::string& who, uint64_t cause) {
  const PendingAct* p = FirstPending(d.state(), who, kActing);
  if (p == nullptr) return absl::OkStatus();
  const uint32_t id = p->id;
  const uint64_t decl = p->decl;
  const fb::CommandT act = p->command;
  if (p->progress >= p->cost_due) {
    RETURN_IF_ERROR(ClosePending(d, id, "resolved", {cause, "001.ap.rounds", {{"rounds", p->cost_due}}, "its rounds have passed: it takes effect"}));
    return ResolveAct(d, act, decl, /*spend=*/false);
  }
  const int64_t ap = d.state().Find(who)->Resource(res::kAp);
  if (ap > 0) {
    RETURN_IF_ERROR(AddResource(d, who, res::kAp, -ap, {cause, "001.ap.rounds", {{"ap", ap}}, "all AP spent performing it"}).status());
  }
  return UpdatePending(d, id, p->progress + 1, nullptr, nullptr,
                       {cause, "001.ap.rounds", {{"round_of", p->progress + 1}, {"rounds", p->cost_due}}});
}

absl::Status CheckSurface(const State& s, const Combatant& a, const fb::CommandT& c) {
  if (!a.Has("Sunk")) return Refuse("001.swim_climb", a.id + " is not below the surface");
  if (!s.IsTurnOf(a.id)) return Refuse("001.swim_climb", "on your turn (l.278)");
  if (!HasParam(c, "tn")) return Malformed(c, "params.tn", "the swimming TN");
  return absl::OkStatus();
}

absl::Status ResolveSurface(Decision& d, const fb::CommandT& c, uint64_t cause) {
  const Combatant a = *d.state().Find(c.actor);
  Nums nums{{"tn", ParamOr(c, "tn", 0)}};
  ASSIGN_OR_RETURN(CheckRoll r, RollCheck(d, a.id, CheckBonus(a, "str", "athletics", "swimming", &nums), "swim to the surface", cause));
  nums.insert(nums.end(), {{"d20", r.natural}, {"result", r.total}});
  if (r.total < ParamOr(c, "tn", 0)) return RecordOutcome(d, a.id, {cause, "001.swim_climb", nums, "still below"});
  return RemoveConditionsNamed(d, a.id, "Sunk", {cause, "001.swim_climb", nums, "back at the surface"});
}

}  // namespace combat::kernel::wound_slots
