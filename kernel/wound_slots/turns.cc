// Initiative, the order, rounds and turns, AP gains (l.107-127).
//
// - Initiative: a Prc [Reflex/Initiative] check + 5 at the start of combat
//   (set-up) or on joining (`join`, for a roster combatant tagged
//   "reserve"), minus 5 - Perception when surprised (l.119, l.122). It
//   floors at 0 (l.120) and lives in the order entries (OrderSet).
// - Order: descending initiative. At the start of each round every group
//   of tied combatants rolls 1d20 each (recorded rolls; higher first, a tie
//   again by id): "determined randomly each round" (l.119). Mid-round
//   changes re-sort stably (equal initiatives keep their places) and the
//   kernel's `acted` list keeps a lowered creature from a second turn.
// - AP (l.110, l.113-117): every combatant gains its Round Start AP at the
//   start of each round and its Turn End AP at the end of its turn, capped
//   at Max AP (excess lost). Surprised: no Round Start gain in round 1 (its
//   first gain is at the end of its first turn; reading of l.122).
// - A round ends when every combatant able to act has had its turn; the
//   movement pools are lost (l.160) and effects ending with the round
//   expire, older first (l.127, kernel ExpireAt).
#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/pending.h"
#include "kernel/window.h"
#include "kernel/wound_slots/internal.h"

namespace combat::kernel::wound_slots {
namespace {

bool CanTakeTurn(const State& s, const std::string& id) {
  const Combatant* c = s.Find(id);
  // l.108 "one turn per round": not a second one for a mount that shared
  // its rider's turn this round (kTurnRound, DecideEndTurn).
  return c != nullptr && !IsDead(*c) && !c->Has("Unconscious") && c->Resource(res::kTurnRound) != s.round;
}

absl::Status GainAp(Decision& d, const std::string& who, bool round_start,
                    const Why& why) {
  const Combatant* c = d.state().Find(who);
  const SpeedRow row = SpeedTable(SpeedScore(*c));
  const int64_t gain = round_start ? row.round_start : row.turn_end;
  const int64_t have = c->Resource(res::kAp);
  const int64_t now = std::max(have, std::min(have + gain, row.max_ap));
  Nums nums{{"speed", SpeedScore(*c)}, {"gain", gain}, {"max_ap", row.max_ap},
            {"lost", have + gain - now}};
  return SetResource(d, who, res::kAp, now,
                     {why.cause, "001.ap.gain", nums,
                      round_start ? "round start" : "end of turn"});
}

// Rolls initiative for `who`: Prc [Reflex/Initiative] + 5 (l.119), less the
// surprise penalty (l.122), floored at 0 (l.120).
absl::StatusOr<int64_t> RollInitiative(Decision& d, const std::string& who,
                                       uint64_t cause, bool at_start) {
  const Combatant c = *d.state().Find(who);
  Nums nums;
  const int64_t bonus = CheckBonus(c, "prc", "reflex", "initiative", &nums);
  ASSIGN_OR_RETURN(CheckRoll r, RollCheck(d, who, bonus, "initiative", cause));
  int64_t init = r.total + 5;
  nums.push_back({"d20", r.natural});
  nums.push_back({"plus", 5});
  if (at_start && c.HasTag("surprised") && c.Stat("prc") <= 5) {  // "surprised by the start of combat"
    // Signed, as every modifier here: the initiative is the sum of the
    // numbers (prc + reflex + d20 + 5 - (5 - Perception)).
    nums.push_back({"surprise_penalty", -(5 - c.Stat("prc")), "surprised " + who, "001.surprise"});
    init -= 5 - c.Stat("prc");
  }
  init = std::max<int64_t>(0, init);
  nums.push_back({"initiative", init});
  RETURN_IF_ERROR(RecordOutcome(d, who, {cause, "001.initiative.roll", nums,
                                         absl::StrCat(who, " initiative ", init)}));
  return init;
}

// Sorts the order by initiative, descending, keeping equal entries in
// their current places (stable).
std::vector<OrderEntry> Sorted(std::vector<OrderEntry> order) {
  std::stable_sort(order.begin(), order.end(), [](const OrderEntry& a, const OrderEntry& b) {
    return a.initiative > b.initiative;
  });
  return order;
}

// Start of a round: ties re-randomised (l.119) with recorded rolls.
absl::Status RerollTies(Decision& d, uint64_t cause) {
  std::vector<OrderEntry> order = d.state().order;
  std::vector<std::tuple<int64_t, int64_t, std::string>> keyed;  // -init, -roll, id
  Nums nums;
  auto alive = [&](const std::string& id) { return !IsDead(*d.state().Find(id)); };
  for (size_t i = 0; i < order.size(); ++i) {
    int tied = 0;
    for (const OrderEntry& o : order) tied += o.initiative == order[i].initiative && alive(o.actor) ? 1 : 0;
    int64_t roll = 0;
    if (tied > 1 && alive(order[i].actor)) {
      ASSIGN_OR_RETURN(dice::RollResult r, d.Roll("1d20", "initiative tie", order[i].actor, cause));
      roll = r.total;
      nums.push_back({order[i].actor + ".tie_roll", roll});
    }
    keyed.emplace_back(-order[i].initiative, -roll, order[i].actor);
  }
  if (nums.empty()) return absl::OkStatus();
  std::sort(keyed.begin(), keyed.end());
  std::vector<OrderEntry> out;
  for (const auto& [ni, nr, id] : keyed) {
    for (const OrderEntry& o : order) {
      if (o.actor == id) out.push_back(o);
    }
  }
  return SetOrder(d, out, {cause, "001.initiative.order", nums, "ties re-rolled for this round"});
}

// Everything a round's start does is automatic: the system's.
absl::Status StartNewRound(Decision& d, uint64_t cause) {
  Decision::SystemSteps system(d);
  const int64_t round = d.state().round + 1;
  RETURN_IF_ERROR(StartRound(d, {cause, "001.round", {{"round", round}}}));
  RETURN_IF_ERROR(Expire(d, fb::ExpiryKind::RoundStart, "", round, {cause, "001.duration"}));
  RETURN_IF_ERROR(ReturnExpiredMana(d, cause));
  RETURN_IF_ERROR(RerollTies(d, cause));
  std::vector<std::string> ids;
  for (const OrderEntry& e : d.state().order) {
    ids.push_back(e.actor);
    for (const std::string& m : e.members) ids.push_back(m);  // a mount (l.280)
  }
  for (const std::string& id : ids) {
    const Combatant* c = d.state().Find(id);
    if (IsDead(*c)) continue;
    if (c->Has("Surprised")) continue;  // l.122: no AP until after its first turn
    RETURN_IF_ERROR(GainAp(d, id, true, {cause}));
  }
  return absl::OkStatus();
}

}  // namespace

// l.199 "Until your next turn": every anchor at the start of `who`'s turn
// due by `round`, those of this round and those of an earlier round whose
// turn passed with `who` unable to take it (older rounds first, l.127).
absl::Status ExpireTurnStartsDue(Decision& d, const std::string& who, int64_t round, uint64_t cause) {
  std::set<int64_t> rounds;
  const auto due = [&](const Expiry& e) {
    if (e.kind == fb::ExpiryKind::TurnStart && e.actor == who && e.round <= round) rounds.insert(e.round);
  };
  for (const auto& [id, c] : d.state().combatants) {
    for (const auto& [cid, k] : c.conditions) due(k.expiry);
  }
  for (const auto& [pid, p] : d.state().pending) due(p.expiry);
  for (const int64_t r : rounds) {
    RETURN_IF_ERROR(Expire(d, fb::ExpiryKind::TurnStart, who, r, {cause, "001.duration"}));
  }
  return rounds.empty() ? absl::OkStatus() : ReturnExpiredMana(d, cause);
}

namespace {

// l.108 "Each participant has one turn per round, with the order
// determined by their current initiative": the turn of a creature that
// cannot take it (dead, unconscious) comes at its place in the order and
// passes with nothing done. What lasts "until your next turn" ends there
// (l.199), and an act it was paying over turns, or performing for rounds,
// is cancelled: it does not "continue to spend all AP on each of your
// subsequent turns" (l.111). `next` is the creature whose turn starts
// (none: the round ends, every such place passed).
absl::Status PassIncapableTurns(Decision& d, const std::optional<std::string>& next, uint64_t cause) {
  const int64_t round = d.state().round;
  const std::vector<OrderEntry> order = d.state().order;
  for (const OrderEntry& e : order) {
    if (next.has_value() && e.actor == *next) break;
    if (e.delayed) continue;
    if (std::find(d.state().acted.begin(), d.state().acted.end(), e.actor) != d.state().acted.end()) continue;
    std::vector<std::string> ids{e.actor};
    ids.insert(ids.end(), e.members.begin(), e.members.end());
    const Combatant* head = d.state().Find(e.actor);
    const bool passes = head != nullptr && (IsDead(*head) || head->Has("Unconscious"));
    for (const std::string& id : ids) {
      const Combatant* c = d.state().Find(id);
      if (passes && c != nullptr && !IsDead(*c) && c->Resource(res::kTurnRound) != round) {
        // l.110 "once at the end of your turn": the turn that passes ends,
        // for every living member of it (a mount under a rider unable to
        // act, l.280): its Turn End AP, what ends with it, and l.122 "you
        // cannot gain AP until after your first turn": that turn is over.
        Decision::SystemSteps system(d);
        RETURN_IF_ERROR(ExpireTurnStartsDue(d, id, round, cause));
        RETURN_IF_ERROR(Expire(d, fb::ExpiryKind::TurnEnd, id, round, {cause, "001.duration"}));
        RETURN_IF_ERROR(ReturnExpiredMana(d, cause));
        RETURN_IF_ERROR(GainAp(d, id, false, {cause}));
        if (d.state().Find(id)->Has("Surprised")) {
          RETURN_IF_ERROR(RemoveConditionsNamed(d, id, "Surprised", {cause, "001.surprise", {}, "its first turn is over"}));
        }
        // l.108 "one turn per round": had, though passed (not again if it
        // wakes later this round).
        RETURN_IF_ERROR(SetResource(d, id, res::kTurnRound, round, {cause, "001.round"}));
        c = d.state().Find(id);
      }
      if (c == nullptr || (!IsDead(*c) && !c->Has("Unconscious"))) continue;
      const std::string why = IsDead(*c) ? " is dead" : " is unconscious";
      RETURN_IF_ERROR(ExpireTurnStartsDue(d, id, round, cause));
      for (const char* kind : {kPaying, kActing}) {
        if (const PendingAct* p = FirstPending(d.state(), id, kind); p != nullptr) {
          RETURN_IF_ERROR(ClosePending(d, p->id, absl::StrCat("cancelled: ", id, why),
                                       {cause, kind == kPaying ? "001.ap.paying" : "001.ap.rounds",
                                        {{"cost_paid", p->cost_paid}, {"cost_due", p->cost_due}, {"progress", p->progress}},
                                        "its turn passes without it: it does not continue to spend all AP on it"}));
        }
      }
    }
  }
  return absl::OkStatus();
}

// A turn's start, its expiries and the payments due are the system's.
absl::Status StartTurnOf(Decision& d, const std::string& who, uint64_t cause) {
  Decision::SystemSteps system(d);
  const int64_t round = d.state().round;
  std::vector<std::string> members;
  for (const OrderEntry& e : d.state().order) {
    if (e.actor != who) continue;
    for (const std::string& m : e.members) {
      // l.108 "Each participant has one turn per round": a mount that had
      // its own turn this round before its rider mounted shares the
      // rider's turn (l.280) from the next round.
      if (d.state().Find(m)->Resource(res::kTurnRound) != round) members.push_back(m);
    }
  }
  RETURN_IF_ERROR(StartTurn(d, who, {cause, "001.round", {{"round", round}}}, members));
  RETURN_IF_ERROR(ExpireTurnStartsDue(d, who, round, cause));
  for (const std::string& m : members) {
    // l.199 "Until your next turn": a mount's next turn is the one it
    // shares with its rider (l.280).
    RETURN_IF_ERROR(ExpireTurnStartsDue(d, m, round, cause));
  }
  RETURN_IF_ERROR(ReturnExpiredMana(d, cause));
  RETURN_IF_ERROR(PayOnTurnStart(d, who, cause));
  for (const std::string& m : members) {
    // l.111 "continue to spend all AP on each of your subsequent turns":
    // a mount's subsequent turns are those it shares (l.280).
    RETURN_IF_ERROR(PayOnTurnStart(d, m, cause));
  }
  return absl::OkStatus();
}

// Starts the next turn, ending rounds as needed.
// The system's: what follows a turn's end happens by itself.
// l.108 "Each participant has one turn per round": when nobody can take a
// turn (every combatant dead or unconscious), the turns left in the round
// pass and the round ends (l.127: what ends with it ends), the next one
// starts (its Round Start AP) and the rounds stop there, at its start, with
// no turn running: nothing a turn or a round brings (AP, expiries) changes
// whether anyone wakes (the text wakes nobody by the round: Stabilize's
// checks every 10 minutes, l.250, are the GM's), so more rounds would only
// run on without end. A command that lets someone take a turn (the GM
// waking it, a creature joining) goes on from that round's start
// (ResumeRounds).
absl::Status Advance(Decision& d, uint64_t cause) {
  Decision::SystemSteps system(d);
  for (int pass = 0; pass < 2; ++pass) {
    const State& s = d.state();
    std::optional<std::string> next = NextInOrder(s, [&](const std::string& id) {
      return CanTakeTurn(s, id);
    });
    if (!next.has_value() && pass > 0) {
      return RecordOutcome(d, "", {cause, "001.round", {{"round", s.round}},
                                   "nobody can take a turn (every combatant dead or unconscious): the rounds "
                                   "stop at this one's start until someone can"});
    }
    RETURN_IF_ERROR(PassIncapableTurns(d, next, cause));
    if (next.has_value()) return StartTurnOf(d, *next, cause);
    const int64_t round = d.state().round;
    RETURN_IF_ERROR(EndRound(d, {cause, "001.round", {{"round", round}}}));
    RETURN_IF_ERROR(Expire(d, fb::ExpiryKind::RoundEnd, "", round, {cause, "001.duration"}));
  RETURN_IF_ERROR(ReturnExpiredMana(d, cause));
    std::vector<std::string> ids;
    for (const auto& [id, c] : d.state().combatants) ids.push_back(id);
    for (const std::string& id : ids) {
      RETURN_IF_ERROR(LoseMovement(d, id, {cause, "001.move.pool", {}, "unspent movement is lost at the end of the round"}));
    }
    RETURN_IF_ERROR(StartNewRound(d, cause));
  }
  return absl::OkStatus();
}

}  // namespace

int64_t InitiativeOf(const State& s, const std::string& who) {
  for (const OrderEntry& e : s.order) {
    if (e.actor == who) return e.initiative;
    // l.280: a mount sharing its rider's turn goes at the shared score (the
    // worse of the two), not 0 (l.120: it may still react).
    if (std::find(e.members.begin(), e.members.end(), who) != e.members.end()) return e.initiative;
  }
  return 0;
}

absl::StatusOr<int64_t> ChangeInitiative(Decision& d, const std::string& who,
                                         int64_t delta, const Why& why) {
  std::vector<OrderEntry> order = d.state().order;
  int64_t now = 0, before = 0;
  for (OrderEntry& e : order) {
    const bool member = std::find(e.members.begin(), e.members.end(), who) != e.members.end();
    if (e.actor != who && !member) continue;
    before = e.initiative;
    if (e.members.empty()) {
      now = std::max<int64_t>(0, e.initiative + delta);  // l.120
      e.initiative = now;
      continue;
    }
    // l.280 "using the worse of your two initiative scores": rider and
    // mount keep their own scores (`Riding` / `Ridden` level); the change
    // is to `who`'s own (l.120: not below 0), the shared turn at the worse.
    const std::string rider = e.actor, mount = e.members.front();
    const Condition riding = *d.state().Find(rider)->FindCondition("Riding");
    const Condition ridden = *d.state().Find(mount)->FindCondition("Ridden");
    const Condition& own = who == rider ? riding : ridden;
    const int64_t updated = std::max<int64_t>(0, own.level + delta);
    if (updated != own.level) {
      const Why w{why.cause, why.rule, {{"own_initiative_before", own.level}, {"own_initiative", updated}}, who + "'s own initiative"};
      RETURN_IF_ERROR(RemoveCondition(d, who, own.id, w));
      RETURN_IF_ERROR(Impose(d, who, own.name, own.source, own.expiry, w, updated, own.relative_to).status());
    }
    now = std::min(who == rider ? updated : riding.level, who == mount ? updated : ridden.level);
    e.initiative = now;
  }
  if (now == before) return now;
  Nums nums = why.nums;
  nums.push_back({"initiative_before", before});
  nums.push_back({"delta", delta, "", why.rule});
  nums.push_back({"initiative", now});
  RETURN_IF_ERROR(SetOrder(d, Sorted(order), {why.cause, why.rule, nums,
                                              absl::StrCat(who, " initiative ", before, " -> ", now,
                                                           why.note.empty() ? "" : ": ", why.note)}));
  return now;
}

// The start of combat: initiative and the first round, the system's.
absl::Status BeginCombat(Decision& d) {
  Decision::SystemSteps system(d);
  std::vector<OrderEntry> order;
  std::vector<std::string> ids;
  for (const auto& [id, c] : d.state().combatants) {
    if (!c.HasTag("reserve")) ids.push_back(id);
  }
  for (const std::string& id : ids) {
    ASSIGN_OR_RETURN(int64_t init, RollInitiative(d, id, 0, /*at_start=*/true));
    OrderEntry e;
    e.actor = id;
    e.initiative = init;
    order.push_back(e);
    const Combatant* c = d.state().Find(id);
    if (c->HasTag("surprised") && c->Stat("prc") <= 5) {
      RETURN_IF_ERROR(Impose(d, id, "Surprised", "surprise", {}, {0, "001.surprise", {{"prc", c->Stat("prc")}}}).status());
    }
  }
  RETURN_IF_ERROR(SetOrder(d, Sorted(order), {0, "001.initiative.order", {}, "descending initiative"}));
  RETURN_IF_ERROR(StartNewRound(d, 0));
  return Advance(d, 0);
}

namespace {

// The turn's end: expiries, the Turn End AP (not for the dead), surprise
// over: automatic (the system's).
absl::Status TurnEnds(Decision& d, const std::string& who, uint64_t decl) {
  const int64_t round = d.state().round;
  Decision::SystemSteps system(d);
  RETURN_IF_ERROR(Expire(d, fb::ExpiryKind::TurnEnd, who, round, {decl, "001.duration"}));
  RETURN_IF_ERROR(ReturnExpiredMana(d, decl));
  if (!IsDead(*d.state().Find(who))) RETURN_IF_ERROR(GainAp(d, who, false, {decl}));
  for (const std::string& m : std::vector<std::string>(d.state().active_members)) {
    if (!IsDead(*d.state().Find(m))) {
      RETURN_IF_ERROR(GainAp(d, m, false, {decl}));  // the shared turn ends for the mount too
    }
    // l.108 "Each participant has one turn per round": a mount whose
    // rider dismounted during their shared turn (l.280) has had it.
    RETURN_IF_ERROR(SetResource(d, m, res::kTurnRound, round, {decl, "001.round"}));
  }
  if (d.state().Find(who)->Has("Surprised")) {
    RETURN_IF_ERROR(RemoveConditionsNamed(d, who, "Surprised", {decl, "001.surprise", {}, "its first turn is over"}));
  }
  return SetResource(d, who, res::kTurnRound, round, {decl, "001.round"});
}

}  // namespace

absl::Status DecideEndTurn(const fb::CommandT& c, Decision& d) {
  ASSIGN_OR_RETURN(const Combatant* actor, Actor(d.state(), c));
  const std::string who = actor->id;
  if (d.state().active != who) {
    return Refuse("001.round", absl::StrCat("it is not ", who, "'s turn (it is ", d.state().active, "'s)"));
  }
  if (!d.state().windows.empty()) {
    return Refuse("001.out_of_turn", absl::StrCat("window ", d.state().windows.begin()->first,
                                                  " is open: resolve the declared action first"));
  }
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  const int64_t round = d.state().round;
  RETURN_IF_ERROR(TurnEnds(d, who, decl));
  RETURN_IF_ERROR(EndTurn(d, who, {decl, "001.round", {{"round", round}}}));
  return Advance(d, decl);
}

// l.108 "Each participant has one turn per round", l.124 "On your turn,
// you can move and take any number of actions": a creature knocked out or
// killed during its own turn can take no more of it, and its turn ends
// there, as the turn of one unable to take it passes (PassIncapableTurns):
// its Turn End AP if alive (l.110), its turn-end anchors, its mount's part
// of a shared turn (l.280, l.282: a rider unable to act commands none).
// Once no declared act waits in a window (l.124: the one acting first may
// still act before it resolves). The system's: nobody ends it.
absl::Status EndIncapableTurn(Decision& d, uint64_t cause) {
  const State& s = d.state();
  if (s.ended || s.active.empty() || !s.windows.empty()) return absl::OkStatus();
  const Combatant* a = s.Find(s.active);
  if (a == nullptr || (!IsDead(*a) && !a->Has("Unconscious"))) return absl::OkStatus();
  const std::string who = a->id;
  const int64_t round = s.round;
  Decision::SystemSteps system(d);
  RETURN_IF_ERROR(TurnEnds(d, who, cause));
  RETURN_IF_ERROR(EndTurn(d, who, {cause, "001.round", {{"round", round}},
                                   absl::StrCat(who, IsDead(*d.state().Find(who)) ? " is dead" : " is unconscious",
                                                ": it can act no more, its turn ends")}));
  return Advance(d, cause);
}

// After the rounds stopped with nobody able to take a turn (Advance): a
// command that lets someone take one (the GM waking it, a creature
// joining) goes on from the stopped round's start, the turns before its
// place passing (l.108). The system's.
absl::Status ResumeRounds(Decision& d, uint64_t cause) {
  const State& s = d.state();
  if (s.ended || !s.active.empty() || !s.windows.empty() || s.order.empty()) return absl::OkStatus();
  if (!NextInOrder(s, [&](const std::string& id) { return CanTakeTurn(s, id); }).has_value()) {
    return absl::OkStatus();
  }
  return Advance(d, cause);
}

absl::Status DecideJoin(const fb::CommandT& c, Decision& d) {
  ASSIGN_OR_RETURN(const Combatant* actor, Actor(d.state(), c));
  const std::string who = actor->id;
  for (const OrderEntry& e : d.state().order) {
    if (e.actor == who) return Refuse("001.initiative.roll", who + " is already in the combat");
  }
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  ASSIGN_OR_RETURN(int64_t init, RollInitiative(d, who, decl, /*at_start=*/false));
  std::vector<OrderEntry> order = d.state().order;
  OrderEntry e;
  e.actor = who;
  e.initiative = init;
  order.push_back(e);
  RETURN_IF_ERROR(SetOrder(d, Sorted(order), {decl, "001.initiative.roll", {{"initiative", init}}, who + " joins"}));
  // Reading: a joiner gains this round's Round Start AP as it joins (the
  // system's, as every AP gain).
  Decision::SystemSteps system(d);
  return GainAp(d, who, true, {decl});
}

}  // namespace combat::kernel::wound_slots
