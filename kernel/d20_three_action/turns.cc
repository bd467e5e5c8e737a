// Rounds and turns (L9-L21): who acts, budgets, end of turn, the automatic
// advance to the next creature and the next round, Hold (L13) and Delay
// (L15).
//
// Bookkeeping (resources, so that the state shows it):
//   turn_round  the round whose turn the creature has finished (end_turn)
//   sot_round   the round its start-of-turn effects were applied in
//   turn_seq    the seq of the TurnStarted of its current/last turn (a held
//               turn resuming keeps it: the same Turn, L13)
// A Delayed creature keeps its entry, flagged delayed, at its original
// place; each round, when the turn order passes that place, its
// start-of-turn effects still apply (L15). A Held turn moves its entry
// after a named creature and keeps its unspent Actions (L13).
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/command.h"
#include "kernel/d20_three_action/internal.h"

namespace combat::kernel::d20 {
namespace {

// L11: "Creatures that are completely unaware of combat ... do not act in
// the first Round of combat". They still get their Turn (L11 "every
// Creature gets a Turn", L13, L15 "Every Creature in the Initiative gets a
// Turn"): it starts, with its start-of-turn effects, and ends at once.
bool UnawareInRoundOne(const State& s, const Combatant& c) {
  return s.round == 1 && c.HasTag("unaware");
}

// L77 with L15 and L41: a Round without breath passes where no Turn ends
// (a delay, a delaying creature's original place) for `who` and for the
// companions whose Turn is its Turn (so nobody dies of it here).
absl::Status BreathRoundWithoutATurnEnd(Decision& d, const std::string& who,
                                        uint64_t cause) {
  RETURN_IF_ERROR(SuffocationCheck(d, who, cause, std::nullopt));
  std::vector<std::string> companions;
  for (const auto& [id, c] : d.state().combatants) {
    if (c.controller == who) companions.push_back(id);
  }
  for (const std::string& id : companions) {
    RETURN_IF_ERROR(SuffocationCheck(d, id, cause, std::nullopt));
  }
  return absl::OkStatus();
}

// The end-of-turn checks and the durations ending with `who`'s turn (the
// system's steps: the caller opens them).
absl::Status EndOfTurnChecks(Decision& d, const std::string& who,
                             uint64_t cause);

// The index of `actor` in the order, or -1.
int IndexOf(const std::vector<OrderEntry>& order, const std::string& actor) {
  for (size_t i = 0; i < order.size(); ++i) {
    if (order[i].actor == actor) return static_cast<int>(i);
  }
  return -1;
}

// Starts `who`'s turn. Returns false when it died of its start-of-turn
// effects (its turn then ends at once). `acts` false: a Turn in which it
// does not act (L11, an unaware creature in Round 1): no Action budget.
absl::StatusOr<bool> StartTurnOf(Decision& d, const std::string& who,
                                 uint64_t cause, bool acts = true) {
  const int64_t round = d.state().round;
  RETURN_IF_ERROR(StartTurn(
      d, who,
      {cause, acts ? "000.turn" : "000.initiative.unaware", {{"round", round}},
       acts ? "" : "unaware of combat: a Turn without acting in the first "
                   "Round"}));
  if (!d.state().Find(who)->Has(kHeld)) {
    // L13: a held Turn resumes, it does not start anew: a spell cast before
    // the hold is still this Turn's (L39 "Cast on a previous Turn").
    const int64_t turn_seq = static_cast<int64_t>(d.state().seq);
    RETURN_IF_ERROR(
        SetResource(d, who, kTurnSeq, turn_seq, {cause, "000.turn", {}}));
  }
  if (d.state().Find(who)->Resource(kSotRound) < round) {
    RETURN_IF_ERROR(StartOfTurnEffects(d, who, cause));
  } else {
    // A held turn resuming, or a delaying creature entering (L13, L15): its
    // start-of-turn effects came at its old place; the Rounds kept at that
    // old place when it was the round's start and this is now the last
    // place (KeepRoundAnchors) end here, every other creature having had
    // its Turn.
    RETURN_IF_ERROR(ExpireAt(d, fb::ExpiryKind::TurnStart, who, round,
                             {cause, "000.duration.round"})
                        .status());
  }
  const Combatant* c = d.state().Find(who);
  if (IsDead(*c)) {
    RETURN_IF_ERROR(ExpireAt(d, fb::ExpiryKind::TurnEnd, who, round,
                             {cause, "000.duration.round"})
                        .status());
    RETURN_IF_ERROR(SetResource(d, who, kTurnRound, round,
                                {cause, "000.dead", {}, "died"}));
    RETURN_IF_ERROR(EndTurn(
        d, who, {cause, "000.dead", {}, "died at the start of its turn"}));
    return false;
  }
  if (!acts) return true;
  if (const Condition* held = c->FindCondition(kHeld); held != nullptr) {
    // L13: a held turn resumes with the Actions it kept.
    const uint32_t id = held->id;
    RETURN_IF_ERROR(RemoveCondition(
        d, who, id, {cause, "000.hold", {}, "held turn resumes"}));
    return true;
  }
  Nums nums;
  const int64_t actions = ActionBudget(*c, &nums);
  RETURN_IF_ERROR(
      SetResource(d, who, kActions, actions, {cause, "000.turn", nums}));
  return true;
}

}  // namespace

bool IsActing(const State& s, const Combatant& c) {
  if (s.active.empty()) return false;
  if (s.active == c.id) return true;
  for (const Condition* k : Named(c, kCommanded)) {
    if (k->source == s.active) return true;
  }
  return false;
}

absl::Status CheckCanAct(const State& s, const Combatant& actor, int64_t cost,
                         const Ctx& ctx) {
  if (IsDead(actor)) return Refuse("000.dead", actor.id + " is Dead");
  if (actor.Has(kStunned)) {
    return Refuse("000.stunned", actor.id +
                                     " is Stunned: no Actions, Reactions or "
                                     "Free Actions");
  }
  if (actor.Has(kUnconscious)) {
    return Refuse("000.unconscious",
                  actor.id +
                      " is Unconscious: no Actions, Reactions or Free "
                      "Actions");
  }
  if (UnawareInRoundOne(s, actor)) {
    return Refuse("000.initiative.unaware",
                  actor.id +
                      " is unaware of combat: it does not act in the first "
                      "Round (no Actions, Reactions or Free Actions)");
  }
  if (ctx.via != Via::kDeclared) return absl::OkStatus();
  if (s.active.empty()) {
    return Refuse("000.turn",
                  "no turn is running (every creature is out of "
                  "the fight: the GM may end the session)");
  }
  if (!IsActing(s, actor)) {
    if (!actor.controller.empty()) {
      return Refuse("000.command",
                    absl::StrCat(actor.id, " acts only when ", actor.controller,
                                 " Commands it on its turn"));
    }
    return Refuse(cost == 0 ? "000.free_action" : "000.turn",
                  absl::StrCat("it is not ", actor.id, "'s turn (it is ",
                               s.active, "'s)"));
  }
  const int64_t left = actor.Resource(kActions);
  if (cost > left) {
    return Refuse("000.turn", absl::StrCat(actor.id, " has ", left, " Action",
                                           left == 1 ? "" : "s",
                                           " left and this needs ", cost));
  }
  return absl::OkStatus();
}

absl::Status SpendActions(Decision& d, std::string actor, int64_t cost,
                          uint64_t cause, std::string rule) {
  if (cost <= 0) return absl::OkStatus();
  return AddResource(d, actor, kActions, -cost,
                     {cause, rule, {{"cost", cost}}, "Actions spent"})
      .status();
}

absl::Status Advance(Decision& d, uint64_t cause) {
  // The next turn starting, rounds ending and starting, durations expiring
  // and start-of-turn effects: the system's steps.
  Decision::SystemSteps system(d);
  bool fresh_round = false;
  while (true) {
    const int64_t round = d.state().round;
    const std::vector<OrderEntry> order = d.state().order;
    std::optional<std::string> next;
    for (const OrderEntry& e : order) {
      const Combatant* c = d.state().Find(e.actor);
      if (c == nullptr || c->Resource(kTurnRound) >= round) continue;
      if (e.delayed) {
        if (IsDead(*c)) {
          // L13: killed while delaying, it has no Turn at its original
          // place; the Rounds anchored there still end as the order passes.
          RETURN_IF_ERROR(ExpireAt(d, fb::ExpiryKind::TurnStart, e.actor,
                                   round, {cause, "000.duration.round"})
                              .status());
          RETURN_IF_ERROR(ExpireAt(d, fb::ExpiryKind::TurnEnd, e.actor,
                                   round, {cause, "000.duration.round"})
                              .status());
          continue;
        }
        // L15: a delaying creature still suffers its ongoing effects each
        // Round at its original Initiative.
        if (c->Resource(kSotRound) < round) {
          RETURN_IF_ERROR(StartOfTurnEffects(d, e.actor, cause));
          // L77 with L15: a Round without breath passes for it (and its
          // companions, L41) here too; no Turn of it ends here.
          RETURN_IF_ERROR(BreathRoundWithoutATurnEnd(d, e.actor, cause));
        }
        continue;
      }
      if (IsDead(*c)) {
        // Durations anchored to a turn that does not happen still end when
        // the order passes it.
        RETURN_IF_ERROR(ExpireAt(d, fb::ExpiryKind::TurnStart, e.actor, round,
                                 {cause, "000.duration.round"})
                            .status());
        // So do those a moved Round was given at its turn's end
        // (conditions.cc:KeepRoundAnchors).
        RETURN_IF_ERROR(ExpireAt(d, fb::ExpiryKind::TurnEnd, e.actor, round,
                                 {cause, "000.duration.round"})
                            .status());
        continue;
      }
      if (UnawareInRoundOne(d.state(), *c)) {
        // L11: its Turn without acting, ended at once by the system.
        const std::string who = e.actor;
        ASSIGN_OR_RETURN(bool alive, StartTurnOf(d, who, cause, false));
        if (alive) {
          RETURN_IF_ERROR(EndOfTurnChecks(d, who, cause));
          const Why why{cause, "000.initiative.unaware", {{"round", round}},
                        "unaware of combat: does not act in the first Round"};
          RETURN_IF_ERROR(SetResource(d, who, kTurnRound, round, why));
          RETURN_IF_ERROR(EndTurn(d, who, why));
        }
        fresh_round = false;
        continue;
      }
      next = e.actor;
      break;
    }
    if (next.has_value()) {
      ASSIGN_OR_RETURN(bool alive, StartTurnOf(d, *next, cause));
      if (alive) return absl::OkStatus();
      fresh_round = false;
      continue;
    }
    // Every creature has had its turn: the round ends (L13).
    if (fresh_round) return absl::OkStatus();  // nobody can act at all
    RETURN_IF_ERROR(EndRound(d, {cause, "000.round", {{"round", round}}}));
    RETURN_IF_ERROR(
        ExpireAt(d, fb::ExpiryKind::RoundEnd, "", round, {cause, "000.round"})
            .status());
    // L13, L15: a creature still delaying took no Turn this round; what was
    // to end with its Turn of this round ends with the round.
    for (const OrderEntry& e : order) {
      if (!e.delayed) continue;
      RETURN_IF_ERROR(ExpireAt(d, fb::ExpiryKind::TurnEnd, e.actor, round,
                               {cause, "000.duration.round"})
                          .status());
    }
    RETURN_IF_ERROR(
        StartRound(d, {cause, "000.round", {{"round", round + 1}}}));
    RETURN_IF_ERROR(ExpireAt(d, fb::ExpiryKind::RoundStart, "", round + 1,
                             {cause, "000.round"})
                        .status());
    fresh_round = true;
  }
}

absl::Status EndTurnIfDead(Decision& d, uint64_t cause) {
  const State& s = d.state();
  if (s.active.empty() || !s.windows.empty()) return absl::OkStatus();
  if (!IsDead(*s.Find(s.active))) return absl::OkStatus();
  // A turn ending because its creature died: the system's step.
  Decision::SystemSteps system(d);
  const std::string who = s.active;
  const int64_t round = s.round;
  RETURN_IF_ERROR(ExpireAt(d, fb::ExpiryKind::TurnEnd, who, round,
                           {cause, "000.duration.round"})
                      .status());
  RETURN_IF_ERROR(SetResource(d, who, kTurnRound, round, {cause, "000.dead"}));
  RETURN_IF_ERROR(EndTurn(d, who, {cause, "000.dead", {}, "died on its turn"}));
  return Advance(d, cause);
}

absl::Status BeginCombat(Decision& d) {
  RETURN_IF_ERROR(StartRound(d, {0, "000.round", {{"round", 1}}}));
  return Advance(d, 0);
}

namespace {

// End-of-turn checks of `who`: L115, a Hidden creature that ends its turn
// without concealment (or cover) from a creature is no longer Hidden to it.
absl::Status HiddenCheck(Decision& d, const std::string& who, uint64_t cause) {
  const Combatant* c = d.state().Find(who);
  std::vector<std::pair<uint32_t, std::string>> lost;
  for (const auto& [id, cond] : c->conditions) {
    if (cond.name != kHidden && cond.name != kUndetected) continue;
    const Combatant* o = d.state().Find(cond.relative_to);
    if (o == nullptr || IsDead(*o)) continue;
    if (!Obscured(d.state(), *o, *c).empty()) continue;
    if (CoverFrom(d.state(), o->at, o->size, *c, o->id).cover) continue;
    lost.emplace_back(id, o->id);
  }
  for (const auto& [id, observer] : lost) {
    RETURN_IF_ERROR(RemoveCondition(
        d, who, id,
        {cause,
         "000.hidden",
         {},
         absl::StrCat("ended its turn without concealment from ", observer)}));
  }
  return absl::OkStatus();
}

// L83: a flyer that did not spend an Action to fly this turn falls (how
// far and the damage are the GM's: altitude is not tracked, L79).
absl::Status FlightCheck(Decision& d, const std::string& who, uint64_t cause) {
  const Combatant* c = d.state().Find(who);
  if (!c->Has(kFlying) || c->HasTag("improved_flight")) return absl::OkStatus();
  if (InZeroG(d.state(), *c)) return absl::OkStatus();  // L85: no gravity
  const Condition* m = c->FindCondition(kMoving);
  if (m != nullptr && m->note == "fly") return absl::OkStatus();
  const Why why{cause, "000.fly", {}, "did not fly this turn: falls"};
  RETURN_IF_ERROR(RemoveConditionsNamed(d, who, kFlying, why));
  if (Altitude(*d.state().Find(who)) > 0) {
    return Drop(d, who, 100, 0, "000.fall", cause);  // L79: 100 ft a Round
  }
  NewCondition fall;
  fall.actor = who;
  fall.name = kFallPending;
  fall.source = who;
  fall.note = "fell (altitude is not tracked): the GM rules the fall (L79)";
  RETURN_IF_ERROR(AddCondition(d, fall, why).status());
  RETURN_IF_ERROR(QuenchIfLanded(d, who, cause));  // L156, L79
  // L101: "Falling on the ground means you'll have the "Prone" condition".
  return KnockProne(d, who, why);
}

absl::Status EndOfTurnChecks(Decision& d, const std::string& who,
                             uint64_t cause) {
  const int64_t round = d.state().round;
  // The Turn ending (a commanded or uncommanded companion's too, L41).
  const int64_t turn_started = d.state().Find(who)->Resource(kTurnSeq);
  std::vector<std::string> acting = {who};
  for (const auto& [id, c] : d.state().combatants) {
    if (id != who && IsActing(d.state(), c)) acting.push_back(id);
  }
  for (const std::string& a : acting) {
    RETURN_IF_ERROR(HiddenCheck(d, a, cause));
    RETURN_IF_ERROR(FlightCheck(d, a, cause));
    RETURN_IF_ERROR(SuffocationCheck(d, a, cause, turn_started));
  }
  // L41: a companion's turn is its commander's for continuous Effects
  // "even if they are not commanded": its Round without breath (L77)
  // passes with its commander's turn too (once a round).
  // The ids are copied first (the order of the map kept): the checks change
  // the state being walked.
  std::vector<std::string> ids;
  for (const auto& [id, c] : d.state().combatants) ids.push_back(id);
  for (const std::string& id : ids) {
    const Combatant* c = d.state().Find(id);
    if (c != nullptr && c->controller == who) {
      RETURN_IF_ERROR(SuffocationCheck(d, id, cause, turn_started));
    }
  }
  return ExpireAt(d, fb::ExpiryKind::TurnEnd, who, round,
                  {cause, "000.duration.round"})
      .status();
}

}  // namespace

absl::Status DecideEndTurn(const fb::CommandT& cmd, Decision& d) {
  ASSIGN_OR_RETURN(const Combatant* actor, Actor(d.state(), cmd));
  const std::string who = actor->id;
  if (d.state().active != who) {
    if (IsActing(d.state(), *actor)) {
      return Refuse("000.command",
                    who + " is commanded: its turn ends with its commander's");
    }
    return Refuse("000.turn", absl::StrCat("it is not ", who, "'s turn"));
  }
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(cmd));
  const int64_t round = d.state().round;
  {
    // End-of-turn checks and durations ending with the turn: the system's.
    Decision::SystemSteps system(d);
    RETURN_IF_ERROR(EndOfTurnChecks(d, who, decl));
  }
  RETURN_IF_ERROR(SetResource(d, who, kTurnRound, round, {decl, "000.turn"}));
  RETURN_IF_ERROR(EndTurn(d, who, {decl, "000.turn", {{"round", round}}}));
  return Advance(d, decl);
}

absl::Status DecideDelay(const fb::CommandT& cmd, Decision& d) {
  ASSIGN_OR_RETURN(const Combatant* actor, Actor(d.state(), cmd));
  const std::string who = actor->id;
  if (d.state().active != who) {
    return Refuse("000.delay", absl::StrCat("only the creature whose turn it "
                                            "is can delay (it is ",
                                            d.state().active, "'s turn)"));
  }
  if (actor->Has(kHeld) || actor->Resource(kActions) < ActionBudget(*actor)) {
    return Refuse("000.delay",
                  "Delay is decided at the start of the turn, before acting "
                  "(use hold to drop back after acting)");
  }
  const int index = IndexOf(d.state().order, who);
  if (index < 0) return Refuse("000.delay", who + " is not in the order");
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(cmd));
  std::vector<OrderEntry> order = d.state().order;
  order[index].delayed = true;
  const int64_t round = d.state().round;
  RETURN_IF_ERROR(SetOrder(
      d, order,
      {decl, "000.delay", {{"place", index}}, who + " delays its turn"}));
  {
    Decision::SystemSteps system(d);  // durations ending with the turn
    // L77: the turn it gives up counts its Round without breath as any
    // other would; it ends no Turn (L15 "delay their Turn"), so no death.
    RETURN_IF_ERROR(BreathRoundWithoutATurnEnd(d, who, decl));
    RETURN_IF_ERROR(ExpireAt(d, fb::ExpiryKind::TurnEnd, who, round,
                             {decl, "000.duration.round"})
                        .status());
  }
  RETURN_IF_ERROR(EndTurn(d, who, {decl, "000.delay", {}, "delayed"}));
  return Advance(d, decl);
}

namespace {

// L13 "hold its Turn and drop its point in the Initiative count": a Round
// kept at the place behind `who`'s, given the end of `who`'s Turn as its
// end before this Turn began (KeepRoundAnchors, KeepRoundPlacesOnReorder),
// ends at the hold, the count passing that place there, as a Round left at
// its own place ends there when the creature ahead holds past it (was:
// after the resumed Turn, through the next creatures' Turns). What this
// Turn laid "for the rest of your Turn" (L53) follows the held Turn. A
// Round a GM's reorder kept there during this Turn (re-added citing
// 000.duration.round) is such a kept Round too (was: it followed the
// resumed Turn, being added after the Turn began).
absl::Status EndKeptRoundsAtTheHold(Decision& d, const std::string& who,
                                    uint64_t cause) {
  const State& s = d.state();
  const int64_t began = s.Find(who)->Resource(kTurnSeq);
  auto kept_round = [&](const Condition& cond) -> absl::StatusOr<bool> {
    if (static_cast<int64_t>(cond.added_at) < began) return true;
    bool kept = false;
    absl::Status looked = d.Lookup(cond.added_at, [&](const fb::Event& e) {
      const fb::StateChange* sc = e.body_as_StateChange();
      kept = sc != nullptr && sc->rule() != nullptr &&
             sc->rule()->str() == "000.duration.round";
      return absl::OkStatus();
    });
    if (absl::IsNotFound(looked)) return false;  // no log to read: a caller deciding without the prefix (bench/generator.cc)
    RETURN_IF_ERROR(looked);
    return kept;
  };
  std::vector<std::pair<std::string, uint32_t>> due;
  for (const auto& [id, c] : s.combatants) {
    for (const auto& [cid, cond] : c.conditions) {
      if (cond.expiry.kind != fb::ExpiryKind::TurnEnd ||
          cond.expiry.actor != who || cond.expiry.round != s.round) {
        continue;
      }
      ASSIGN_OR_RETURN(const bool kept, kept_round(cond));
      if (kept) due.emplace_back(id, cid);
    }
  }
  for (const auto& [id, cid] : due) {
    const Combatant* c = d.state().Find(id);
    if (c == nullptr || c->conditions.count(cid) == 0) continue;  // a daughter
    RETURN_IF_ERROR(RemoveCondition(
        d, id, cid,
        {cause, "000.duration.round", {{"round", d.state().round}},
         absl::StrCat("a Round kept behind ", who,
                      "'s place ends as it holds (L13)")}));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status DecideHold(const fb::CommandT& cmd, Decision& d) {
  ASSIGN_OR_RETURN(const Combatant* actor, Actor(d.state(), cmd));
  const std::string who = actor->id;
  const State& s = d.state();
  if (s.active != who) {
    return Refuse("000.hold", absl::StrCat("only the creature whose turn it "
                                           "is can hold (it is ",
                                           s.active, "'s turn)"));
  }
  const std::string after = ParamText(cmd, "after");  // required (verbs.cc)
  if (s.Find(after) == nullptr) {
    return absl::NotFoundError(absl::StrCat("command 'hold': params.after '",
                                            after, "' is not in this session"));
  }
  const int mine = IndexOf(s.order, who);
  const int theirs = IndexOf(s.order, after);
  if (theirs < 0 || s.order[theirs].delayed) {
    return Refuse("000.hold", after + " has no place in the order to follow");
  }
  // L13 "it must wait until the end of another's Creatures Turn": a Dead
  // creature gets no Turn (README "Dead"), so there is no end of it to wait
  // for (was: accepted, the hold resuming after the living one before it).
  if (IsDead(*s.Find(after))) {
    return Refuse("000.hold", absl::StrCat(after, " is Dead and gets no Turn to wait for (L13): hold until after "
                                                  "a living creature still to act this round"));
  }
  if (theirs <= mine || s.Find(after)->Resource(kTurnRound) >= s.round) {
    return Refuse("000.hold",
                  absl::StrCat("a held turn drops to a lower position: ", after,
                               " must still be to act this round"));
  }
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(cmd));
  const std::vector<OrderEntry> old_order = d.state().order;
  std::vector<OrderEntry> order = old_order;
  OrderEntry moved = order[mine];
  moved.initiative = order[theirs].initiative;
  order.erase(order.begin() + mine);
  order.insert(order.begin() + IndexOf(order, after) + 1, moved);
  const int64_t left = d.state().Find(who)->Resource(kActions);
  RETURN_IF_ERROR(
      Apply(
          d, who, kHeld, who, left, Expiry{fb::ExpiryKind::OnUse, who, 0},
          {decl, "000.hold", {{"actions_kept", left}}, "enters after " + after})
          .status());
  RETURN_IF_ERROR(SetOrder(
      d, order, {decl, "000.hold", {}, who + " holds until after " + after}));
  {
    Decision::SystemSteps system(d);  // durations staying at the old place
    RETURN_IF_ERROR(EndKeptRoundsAtTheHold(d, who, decl));
    RETURN_IF_ERROR(KeepRoundAnchors(d, who, old_order, decl));
  }
  RETURN_IF_ERROR(EndTurn(d, who, {decl, "000.hold", {}, "held"}));
  return Advance(d, decl);
}

absl::Status DecideEnter(const fb::CommandT& cmd, Decision& d) {
  ASSIGN_OR_RETURN(const Combatant* actor, Actor(d.state(), cmd));
  const std::string who = actor->id;
  const State& s = d.state();
  const int mine = IndexOf(s.order, who);
  if (mine < 0 || !s.order[mine].delayed) {
    return Refuse("000.delay", who + " is not delaying its turn");
  }
  if (IsDead(*actor)) return Refuse("000.dead", who + " is Dead");
  if (s.active.empty() || s.active == who) {
    return Refuse("000.delay",
                  "a delaying creature enters after the current turn: enter "
                  "during another creature's turn");
  }
  const std::string current = s.active;
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(cmd));
  const std::vector<OrderEntry> old_order = d.state().order;
  std::vector<OrderEntry> order = old_order;
  OrderEntry moved = order[mine];
  moved.delayed = false;
  order.erase(order.begin() + mine);
  const int at = IndexOf(order, current);
  moved.initiative = at >= 0 ? order[at].initiative : moved.initiative;
  order.insert(order.begin() + (at >= 0 ? at + 1 : 0), moved);
  RETURN_IF_ERROR(SetOrder(
      d, order,
      {decl,
       "000.delay",
       {},
       absl::StrCat(who, " enters after ", current,
                    "'s turn, for the rest of the combat")}));
  Decision::SystemSteps system(d);  // durations staying at the old place
  return KeepRoundAnchors(d, who, old_order, decl);
}

}  // namespace combat::kernel::d20
