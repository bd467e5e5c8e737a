// AP costs and spending (l.110-112), and actions paid over several turns
// (l.111; the jump of l.178 is the same rule): a kernel "paying" pending act
// whose `budget` is the "ap" resource (kernel/pending.h PayPending).
//
//   declare (cost > AP, on your turn) -> PendingOpened(paying, cost_due)
//                                      -> PayPending(all AP)
//   each later turn start              -> PayPending(all AP, up to the due)
//   paid in full                       -> the act resolves, PendingClosed
//   AP spent on anything else, or `cancel` -> PendingClosed("cancelled")
#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/pending.h"
#include "kernel/window.h"
#include "kernel/wound_slots/internal.h"

namespace combat::kernel::wound_slots {

int64_t ApCost(const Combatant& c, const std::string& verb, int64_t base) {
  const int64_t cost = c.Stat("ap/" + verb, base);  // roster override
  return std::max<int64_t>(1, cost);                // l.112: never below 1
}

absl::Status SpendAp(Decision& d, const std::string& who, int64_t cost,
                     const Why& why) {
  // Nothing spent (a long jump over movement already bought, l.178) is no
  // AP "spent on anything else" (l.111).
  if (cost <= 0) return absl::OkStatus();
  if (const PendingAct* p = FirstPending(d.state(), who, kActing); p != nullptr) {
    RETURN_IF_ERROR(ClosePending(d, p->id, "cancelled: AP spent on something else",
                                 {why.cause, "001.ap.rounds", {{"rounds_done", p->progress}}}));
  }
  if (const PendingAct* p = FirstPending(d.state(), who, kPaying); p != nullptr) {
    // l.111: "canceled if you spend AP on anything else".
    RETURN_IF_ERROR(ClosePending(d, p->id, "cancelled: AP spent on something else",
                                 {why.cause, "001.ap.paying", {{"cost_paid", p->cost_paid}, {"cost_due", p->cost_due}}}));
  }
  const int64_t have = d.state().Find(who)->Resource(res::kAp);
  if (cost > have) {
    return Refuse("001.ap.spend", absl::StrCat(who, " has ", have, " AP and this costs ", cost));
  }
  Nums nums = why.nums;
  nums.push_back({"cost", cost});
  return AddResource(d, who, res::kAp, -cost, {why.cause, why.rule, nums, why.note}).status();
}

absl::Status PayOnTurnStart(Decision& d, const std::string& who,
                            uint64_t cause) {
  // l.235 "The target is unable to take any other actions while pinned"
  // (so a helpless creature, l.185): one that cannot act when its turn
  // comes does not continue the act it was paying over turns or performing
  // for rounds (l.111): it is cancelled.
  for (const char* kind : {kPaying, kActing}) {
    const PendingAct* p = FirstPending(d.state(), who, kind);
    const Verb* v = p == nullptr ? nullptr : FindVerb(p->command->action);
    if (v == nullptr) continue;
    if (absl::Status st = CheckActor(*d.state().Find(who), *v); !st.ok()) {
      RETURN_IF_ERROR(ClosePending(d, p->id, absl::StrCat("cancelled: ", st.message()),
                                   {cause, kind == std::string(kPaying) ? "001.ap.paying" : "001.ap.rounds",
                                    {{"cost_paid", p->cost_paid}, {"cost_due", p->cost_due}}}));
    }
  }
  RETURN_IF_ERROR(ContinueTimed(d, who, cause));
  const PendingAct* p = FirstPending(d.state(), who, kPaying);
  if (p == nullptr) return absl::OkStatus();
  const uint32_t id = p->id;
  const uint64_t decl = p->decl;
  const fb::CommandT act = p->command;
  const int64_t ap = d.state().Find(who)->Resource(res::kAp);
  const int64_t amount = std::min(ap, p->cost_due - p->cost_paid);
  if (amount > 0) {
    RETURN_IF_ERROR(PayPending(d, id, amount, {cause, "001.ap.paying", {{"ap", ap}}, "all AP spent on the action"}));
  }
  p = d.state().FindPending(id);
  if (p->cost_paid < p->cost_due) return absl::OkStatus();
  const Verb* v = FindVerb(act.action);
  const Combatant* actor = d.state().Find(who);
  if (v != nullptr) {
    if (absl::Status st = v->row.validate(d.state(), *actor, act); !st.ok()) {
      return ClosePending(d, id, absl::StrCat("cancelled: ", st.message()), {cause, "001.ap.paying"});
    }
  }
  RETURN_IF_ERROR(ClosePending(d, id, "resolved", {cause, "001.ap.paying", {{"cost_paid", p->cost_paid}}, "paid in full: the action takes effect"}));
  if (act.action == "jump" && ParamText(act, "kind") != "high") {
    // l.178 "at which point the jump takes place": a long jump paid over
    // turns meets the Rebuffs (l.189), Clings (l.225) and readied actions
    // (l.204) of its path then, as one paid at once does (acts.cc
    // DeclareAct): the AP paid buy its movement (l.160) and it waits whole
    // in one window before its roll; its AP are spent, so it costs nothing
    // more when it resolves (`_cost` 0). Those who might act first are not asked again
    // (reading of l.111: that was its declaration's turn).
    const JumpReactors jump = ForJump(d.state(), *actor, PathOf(act));
    if (!jump.who.empty()) {
      RETURN_IF_ERROR(BuyJumpMovement(d, act, cause));
      fb::CommandT held = act;
      DropParam(held, "_jump_ap");
      SetParam(held, "_cost", 0);  // paid: nothing more is spent when it resolves
      return HoldJump(d, held, decl, cause, jump);
    }
  }
  return ResolveAct(d, act, decl, /*spend=*/false);
}

absl::Status DecideCancel(const fb::CommandT& c, Decision& d) {
  ASSIGN_OR_RETURN(const Combatant* actor, Actor(d.state(), c));
  const std::string who = actor->id;
  const PendingAct* p = FirstPending(d.state(), who, kPaying);
  if (p == nullptr) p = FirstPending(d.state(), who, kActing);
  if (p == nullptr) p = FirstPending(d.state(), who, kHeldBack);
  if (p == nullptr) return Refuse("001.ap.paying", who + " has no declared action to cancel");
  const uint32_t id = p->id;
  const bool held = p->kind == kHeldBack;
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  if (held) {
    for (const auto& [wid, w] : d.state().windows) {
      if (w.pending == id) {
        RETURN_IF_ERROR(CloseWindow(d, wid, "cancelled by its actor", {decl, "001.out_of_turn"}).status());
        break;
      }
    }
  }
  return ClosePending(d, id, "cancelled: by its actor", {decl, "001.ap.paying", {}, "you choose to cancel it (l.111)"});
}

}  // namespace combat::kernel::wound_slots
