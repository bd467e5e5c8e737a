// Acts: declare -> window -> resolve. Every act is bracketed by a window
// (kernel WindowOpened/WindowClosed); its closing outcome carries the rule
// and the numbers of the result, so a miss is as auditable as a hit.
//
// An act's declaration opens a window whose eligible list is everyone who
// could interrupt it (l.122, l.132). It resolves:
//   - at once when it is an Immediate Interrupt (no one may interrupt it,
//     l.132), when `at_once` is set (the table agrees nobody responds), or
//     when nobody is eligible;
//   - otherwise on `resolve` (by the actor or the GM), after any interrupts
//     were declared into the window. Its rolls happen only then, so
//     interrupts stop actions, never rolls (l.134).
// Resources are spent as results occur (l.138): a stopped or cancelled act
// spends 1 Energy (l.138, l.144); a Run cut short spends its share (l.142).
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "events/status_macros.h"
#include "kernel/command.h"
#include "kernel/energy_rounds/internal.h"
#include "kernel/pending.h"
#include "kernel/window.h"

namespace combat::kernel::energy {
namespace {

// Energy costs are priced by each act (energy.cc), so `cost` is unset.
const std::vector<Verb> kVerbs = {
    {"melee", "002.cost.melee", Kind(kAttack), nullptr, CheckMelee, ResolveMelee},
    {"unarmed", "002.cost.unarmed", Kind(kAttack), nullptr, CheckMelee, ResolveMelee},
    {"trip", "002.maneuver.trip", Kind(kAttack), nullptr, CheckManeuver, ResolveManeuver},
    {"disarm", "002.maneuver.disarm", Kind(kAttack), nullptr, CheckManeuver, ResolveManeuver},
    {"restrain", "002.maneuver.restrain", Kind(kAttack), nullptr, CheckManeuver, ResolveManeuver},
    {"push", "002.maneuver.push", Kind(kAttack), nullptr, CheckManeuver, ResolveManeuver},
    {"ranged", "002.cost.ranged", Kind(kAttack), nullptr, CheckRanged, ResolveRanged},
    {"throw", "002.ranged.thrown", Kind(kAttack), nullptr, CheckRanged, ResolveRanged},
    {"load", "002.ranged.load", Kind(), nullptr, CheckLoad, ResolveLoad},
    {"shift", "002.cost.shift", Kind(kMoves), nullptr, CheckShift, ResolveShift},
    {"run", "002.cost.run", Kind(kMoves), nullptr, CheckRun, ResolveRun},
    {"sprint", "002.cost.sprint", Kind(kMoves), nullptr, CheckRun, ResolveRun},
    {"jump", "002.move.jump", Kind(kMoves), nullptr, CheckJump, ResolveJump},
    {"agile_move", "002.move.agile", Kind(kMoves), nullptr, CheckAgileMove, ResolveAgileMove},
    {"kneel", "002.move.kneel", Kind(), nullptr, CheckKneel, ResolveKneel},
    {"stand", "002.move.stand", Kind(kStand), nullptr, CheckStand, ResolveStand},
    {"defend", "002.defend", Kind(), nullptr, CheckDefend, ResolveDefend},
    {"equip", "002.items.equip", Kind(), nullptr, CheckEquip, ResolveEquip},
    {"stow", "002.items.equip", Kind(), nullptr, CheckEquip, ResolveEquip},
    {"pick_up", "002.items.pickup", Kind(), nullptr, CheckPickUp, ResolvePickUp},
    {"catch_breath", "002.stamina.breath", Kind(), nullptr, CheckCatchBreath, ResolveCatchBreath},
    {"exert", "002.stamina.enhance", Kind(), nullptr, CheckExert, ResolveExert},
    {"escape", "002.maneuver.escape", Kind(), nullptr, CheckEscape, ResolveEscape},
};

}  // namespace

const Verb* FindVerb(const std::string& action) {
  return kernel::FindAction(kVerbs, action);
}

bool IsImmediate(const fb::CommandT& c) {
  if (c.action == "agile_move") return true;
  const Verb* v = FindVerb(c.action);
  return v != nullptr && v->kind.cls.attack && ParamOr(c, "swift", 0) == 1;
}

NewPending Acting(const State& s, const std::string& who, uint64_t decl,
                  const fb::CommandT& act) {
  NewPending acting;
  acting.kind = kActing;
  acting.actor = who;
  acting.decl = decl;
  acting.command = act;
  acting.span = fb::Span::Rounds;
  acting.expiry = EndOfRound(s);
  return acting;
}

const PendingAct* ActingOf(const State& s, const std::string& actor) {
  return FirstPending(s, actor, kActing);
}

uint32_t WindowOf(const State& s, uint64_t seq) { return WindowFor(s, seq); }

// l.118 "Normally, when an action is performed, it is resolved before
// anything else happens. This can be circumvented by Initiative and
// Immediate Interrupts": the first act of another creature than `actor`
// still being performed (pending in its window) that was declared before
// `before` (0: any). An act whose performer has been knocked out or
// killed is no longer being performed: it was interrupted (l.138) and ends
// incomplete when it is resolved or cancelled, holding nobody back.
const PendingAct* PerformedBefore(const State& s, const std::string& actor, uint64_t before) {
  const PendingAct* first = nullptr;
  for (const auto& [id, p] : s.pending) {
    if (p.kind != kActing || p.actor == actor) continue;
    if (const Combatant* k = s.Find(p.actor);
        k != nullptr && (k->Has("Unconscious") || k->Has("Dead"))) {
      continue;
    }
    if (before != 0 && p.decl >= before) continue;
    if (first == nullptr || p.decl < first->decl) first = &p;
  }
  return first;
}

std::vector<std::string> EligibleInterrupters(const State& s,
                                              const std::string& actor) {
  std::vector<std::string> out;
  for (const auto& [id, c] : s.combatants) {
    if (id == actor || c.Has("Dead") || c.Has("Unconscious")) continue;
    out.push_back(id);
  }
  return out;
}

absl::Status ClearPasses(Decision& d, uint64_t cause, const std::string& who) {
  std::vector<std::string> passed;
  for (const auto& [id, c] : d.state().combatants) {
    if (c.Has("Passed")) passed.push_back(id);
  }
  for (const std::string& id : passed) {
    RETURN_IF_ERROR(RemoveConditionsNamed(
        d, id, "Passed",
        {cause, "002.rounds.nobody_acts", {}, absl::StrCat(who, " acted")}));
  }
  return absl::OkStatus();
}

namespace {

// What stops anyone acting now, pending acts aside.
absl::Status StopReason(const Combatant& actor, const Verb& v) {
  if (actor.Has("Dead")) {
    return Refuse("002.death.dead", absl::StrCat(actor.id, " is dead"));
  }
  if (actor.Has("Unconscious")) {
    return Refuse("002.cond.unconscious", absl::StrCat(actor.id, " is unconscious"));
  }
  if ((v.kind.cls.move || v.kind.cls.attack) && Active(actor, "Restrained")) {
    return Refuse("002.cond.restrained",
                   absl::StrCat(actor.id, " is Restrained: no movement or attack actions"));
  }
  // l.346 "fully restrained": restrained, and more (l.577: the Restrained
  // are "not fully incapacitated"), so no movement or attack actions either
  // (l.575).
  if ((v.kind.cls.move || v.kind.cls.attack) && Active(actor, "FullyRestrained")) {
    return Refuse("002.cond.restrained",
                   absl::StrCat(actor.id, " is fully restrained: no movement or attack actions"));
  }
  if (v.kind.cls.attack && Active(actor, "Restraining")) {
    return Refuse("002.cond.restraining",
                   absl::StrCat(actor.id, " is Restraining and may not attack"));
  }
  return absl::OkStatus();
}

// A restrainer is "Holding" the one it restrains (l.571) and moves Slowed
// with it (l.579, l.684): a movement act of its own may not take it beyond
// the Reach of its hold (unarmed, l.541, l.571) from the creature it holds.
// To walk away it lets go first (`release`, free); the GM may move both
// (`gm_move`). Without this, a restrainer 4 m away still held its target.
absl::Status KeepsHold(const State& s, const Combatant& actor, const fb::CommandT& c) {
  const std::vector<Pos> path = PathOf(c);
  for (const auto& [id, k] : actor.conditions) {
    if (k.name != "Restraining" || k.relative_to.empty()) continue;
    const Combatant* held = s.Find(k.relative_to);
    if (held == nullptr) continue;
    const int64_t reach = ReachOf(actor, nullptr);
    for (const Pos& p : path) {
      const int64_t d = space::Distance(kGrid, p, actor.size, held->at, held->size);
      if (d > reach) {
        return Refuse("002.cond.restraining",
                      absl::StrCat(actor.id, " is Holding ", held->id, ": (", p.x, ",", p.y,
                                   ") is ", d, " m from it, beyond the hold's Reach of ", reach,
                                   " m; release it first (free), or the GM moves both"));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

bool ImmediateOnly(const Window& w) {
  return w.kind.rfind(kImmediateOnly, 0) == 0;
}

std::vector<std::string> ImmediateAnswerers(const State& s, const std::string& actor,
                                            const fb::CommandT& act) {
  std::vector<std::string> out;
  const Combatant* t = s.Find(actor);
  const Verb* swift = FindVerb("melee");
  const Verb* agile = FindVerb("agile_move");
  if (t == nullptr) return out;
  for (const auto& [id, c] : s.combatants) {
    if (id == t->id) continue;
    const bool may_swift = StopReason(c, *swift).ok() && MaySwiftAttack(c, *t, act);
    const bool may_move = !may_swift && StopReason(c, *agile).ok() && CanAgileMove(s, c).ok();
    if (may_swift || may_move) out.push_back(id);
  }
  return out;
}

const PendingAct* WinnerPendingOn(const State& s, uint64_t trigger, uint32_t* window) {
  // The winner's window is nested in the first window it won against...
  if (const uint32_t own = WindowFor(s, trigger); own != 0) {
    for (const auto& [wid, w] : s.windows) {
      if (w.parent != own || !ImmediateOnly(w)) continue;
      if (const PendingAct* p = s.FindPending(w.pending); p != nullptr) {
        *window = wid;
        return p;
      }
    }
  }
  // ... and names the others in its InitiativeWon conditions (l.128).
  for (const auto& [id, k] : s.combatants) {
    for (const auto& [cid, cond] : k.conditions) {
      if (cond.name != "InitiativeWon" || cond.ref != trigger) continue;
      // Its winning act was declared by the same Interrupt, just before the
      // condition (it had no other act pending then: CheckCanAct); a later
      // act of the same creature is not the winner.
      const PendingAct* p = ActingOf(s, id);
      if (p == nullptr || p->decl <= trigger || p->decl >= cond.added_at) continue;
      const uint32_t w = WindowFor(s, p->decl);
      if (w == 0 || !ImmediateOnly(s.windows.at(w))) continue;
      *window = w;
      return p;
    }
  }
  return nullptr;
}

absl::Status CheckCanAct(const State& s, const Combatant& actor,
                         const fb::CommandT& c, const Verb& v) {
  RETURN_IF_ERROR(StopReason(actor, v));
  if (v.kind.cls.move) RETURN_IF_ERROR(KeepsHold(s, actor, c));
  if (const PendingAct* p = ActingOf(s, actor.id); p != nullptr && !IsImmediate(c)) {
    return Refuse("002.incomplete",
                   absl::StrCat(actor.id, " is still performing the act declared at seq ",
                                p->decl, "; resolve or cancel it first"));
  }
  return absl::OkStatus();
}

absl::Status DeclareAct(const fb::CommandT& c, Decision& d) {
  const Verb* v = FindVerb(c.action);
  if (v == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("command: field 'action': unknown action '", c.action,
                     "' for ruleset energy_rounds"));
  }
  const State& s = d.state();
  ASSIGN_OR_RETURN(const Combatant* actor, Actor(s, c));
  // `at_once` and `swift` are flags (verbs.cc).
  const int64_t at_once = ParamOr(c, "at_once", 0);
  RETURN_IF_ERROR(CheckCanAct(s, *actor, c, *v));
  RETURN_IF_ERROR(v->validate(s, *actor, c, ActOpts{}));
  const std::string who = actor->id;
  const bool immediate = IsImmediate(c);
  // l.118: an act another creature is performing resolves before anything
  // else happens, so an ordinary act cannot resolve at once before it; only
  // Initiative (`interrupt`, l.122) and Immediate Interrupts (l.132) get in
  // first. Declared without `at_once`, it is performed at the same time
  // (l.128) and resolves after that act (DecideResolve).
  if (!immediate && at_once == 1) {
    if (const PendingAct* p = PerformedBefore(s, who, 0); p != nullptr) {
      return Refuse("002.order.first",
                    absl::StrCat(p->actor, "'s '", p->command->action, "' (window ",
                                 WindowFor(s, p->decl), ") is being performed and resolves "
                                 "before anything else happens: answer it with interrupt "
                                 "(Initiative, l.122) or an Immediate Interrupt, or declare "
                                 "without at_once and resolve after it"));
    }
  }
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  RETURN_IF_ERROR(ClearPasses(d, decl, who));
  std::vector<std::string> eligible;
  if (!immediate) eligible = EligibleInterrupters(d.state(), who);
  const bool now = immediate || at_once == 1 || eligible.empty();
  std::string note;
  if (immediate) {
    note = "an Immediate Interrupt: no one may interrupt it";
  } else if (at_once == 1) {
    note = "declared at once: the table lets it resolve now";
  } else if (eligible.empty()) {
    note = "nobody can interrupt";
  } else {
    note = "others may interrupt until it resolves";
  }
  // l.134-138: others answer in any order; resources are spent as results
  // occur, so the act pays when it resolves.
  WindowSpec spec;
  spec.trigger = decl;
  spec.kind = c.action;
  spec.eligible = eligible;
  spec.policy = fb::AnswerPolicy::AnyOrder;
  spec.pay = fb::PayWhen::AtResolution;
  if (!now) {
    const NewPending acting = Acting(d.state(), who, decl, c);
    ASSIGN_OR_RETURN(spec.pending,
                     OpenPending(d, acting,
                                 {decl, "002.rounds.span", {},
                                  absl::StrCat(who, " is performing '", c.action, "'")}));
  }
  ASSIGN_OR_RETURN(uint32_t wid,
                   OpenWindow(d, spec,
                              {decl, immediate ? "002.immediate" : "002.initiative.roll",
                               {{"round", d.state().round}}, note}));
  if (now) return ResolveInWindow(d, wid, c, decl, ActOpts{});
  return absl::OkStatus();
}

namespace {

// Energy an act spends when it ends before its results (l.138, l.144).
absl::Status SpendIncomplete(Decision& d, const fb::CommandT& act,
                             const Verb& v, uint64_t cause,
                             const std::string& rule, Nums nums) {
  const Combatant* c = d.state().Find(act.actor);
  if (c == nullptr) return absl::OkStatus();
  const int64_t have = c->Resource(res::kEnergy);
  // "at least 1 Energy" (l.138) of an act that costs Energy: never more
  // than the whole act would have cost, so an act paid without Energy
  // (a Shift for 2 Agility l.21, scooping up an item l.39, an exertion
  // paid in Stamina l.64) spends none.
  const bool energy_act =
      !((act.action == "shift" && ParamOr(act, "agility", 0) == 1) ||
        (act.action == "pick_up" && ParamText(act, "place") == "scoop") ||
        act.action == "exert");
  // An act declared paying 1 of its Energy with 1 Stamina (l.47 "when you
  // would normally spend 1 Energy") spends that Stamina for the 1 Energy
  // it still costs when it ends early, if it still may (once a Round, not
  // Exhausted or Shaken, Stamina left: l.47, l.666, l.668).
  const bool with_stamina = energy_act && ParamOr(act, "stamina_energy", 0) == 1 &&
                            c->Resource(res::kStaminaEnergy) == 0 && CanSpendStamina(*c) &&
                            c->Resource(res::kStamina) > 0;
  const int64_t spend = energy_act && (have > 0 || with_stamina) ? 1 : 0;
  if (!energy_act) nums.push_back({"act_costs_no_energy", 1});
  nums.push_back({"energy_spent", with_stamina ? 0 : spend});
  if (with_stamina) nums.push_back({"stamina_as_energy", 1});
  if (spend == 0) return absl::OkStatus();
  Cost cost;
  cost.energy = spend;
  cost.stamina_energy = with_stamina;
  cost.movement = v.kind.cls.move;
  const std::string id = c->id;  // emitted events replace the state
  return Pay(d, id, cost,
             {cause, rule, nums,
              with_stamina ? "incomplete action: at least 1 Energy, paid with 1 Stamina (l.47)"
                           : "incomplete action: at least 1 Energy"});
}

}  // namespace

absl::Status ResolveInWindow(Decision& d, uint32_t window,
                             const fb::CommandT& act, uint64_t cause,
                             const ActOpts& o) {
  const Verb* v = FindVerb(act.action);
  if (v == nullptr) return absl::InternalError("pending act: unknown verb");
  const Combatant* actor = d.state().Find(act.actor);
  if (actor == nullptr) return absl::NotFoundError(act.actor);
  const std::string who = actor->id;
  const uint64_t trigger = d.state().windows.count(window)
                               ? d.state().windows.at(window).trigger
                               : 0;
  Outcome out;
  ActOpts ro = o;
  ro.resolving = true;
  absl::Status can = StopReason(*actor, *v);
  if (can.ok()) can = v->validate(d.state(), *actor, act, ro);
  if (!can.ok()) {
    if (can.code() != absl::StatusCode::kFailedPrecondition) return can;
    // Stopped: the act ends before its results (l.138).
    const std::string rule = v->kind.cls.attack ? "002.incomplete.attack" : "002.incomplete";
    RETURN_IF_ERROR(SpendIncomplete(d, act, *v, cause, rule, {}));
    out.text = absl::StrCat("ended incomplete: ", can.message());
    out.rule = rule;
  } else {
    ASSIGN_OR_RETURN(out, v->resolve(d, act, cause, ro));
  }
  RETURN_IF_ERROR(KnockOutIfSpent(d, who, cause));  // l.72, after the results (l.138)
  if (!v->kind.cls.move) RETURN_IF_ERROR(BreakStreak(d, who, cause));
  ASSIGN_OR_RETURN(std::optional<PendingAct> held,
                   CloseWindow(d, window, out.text, {cause, out.rule, out.nums, ""}));
  // Its pending act goes with it.
  if (held.has_value() && held->decl == trigger) {
    return ClosePending(d, held->id, "resolved", {cause, "002.rounds.span", {}, "act resolved"});
  }
  return absl::OkStatus();
}

namespace {

absl::StatusOr<const PendingAct*> FindActing(const State& s, const fb::CommandT& c,
                                             uint32_t* window) {
  if (c.window != 0) {
    auto it = s.windows.find(c.window);
    if (it == s.windows.end()) {
      return absl::NotFoundError(absl::StrCat("command '", c.action,
                                              "': field 'window': window ",
                                              c.window, " is not open"));
    }
    const PendingAct* p = s.FindPending(it->second.pending);
    if (p == nullptr || p->kind != kActing) {
      return absl::FailedPreconditionError(absl::StrCat(
          "window ", c.window, " has no pending act (", Cite("002.incomplete"), ")"));
    }
    *window = c.window;
    return p;
  }
  ASSIGN_OR_RETURN(const Combatant* a, Actor(s, c));
  const PendingAct* p = ActingOf(s, a->id);
  if (p == nullptr) {
    return Refuse("002.incomplete", absl::StrCat(a->id, " has no act pending"));
  }
  *window = WindowFor(s, p->decl);
  return p;
}

// l.122: an act that won Initiative against the act declared at `trigger`
// "happens at the same time as their action—possibly interrupting theirs":
// it resolves first, so the act it answers waits for it.
absl::Status NotBeforeTheWinner(const State& s, uint64_t trigger, const char* verb) {
  uint32_t window = 0;
  const PendingAct* winner = WinnerPendingOn(s, trigger, &window);
  if (winner == nullptr) return absl::OkStatus();
  // A winner knocked out or killed was interrupted: EndKnockedOutWinner.
  if (const Combatant* k = s.Find(winner->actor);
      k != nullptr && (k->Has("Unconscious") || k->Has("Dead"))) {
    return absl::OkStatus();
  }
  return Refuse("002.initiative.first",
                absl::StrCat(winner->actor, "'s '", winner->command->action,
                             "' won Initiative against this act and happens at the same time: it "
                             "resolves first (window ", window, "); ", verb, " this act after it"));
}

// l.138 "Typically, at least 1 Energy is still spent if an action is
// interrupted": an act that won Initiative against the act declared at
// `trigger` (l.122) whose performer was knocked out or killed while it
// waited ends incomplete before that act resolves or is cancelled, its
// window (nested in that act's) closing first.
absl::Status EndKnockedOutWinner(Decision& d, uint64_t trigger) {
  for (int guard = 0; guard < 64; ++guard) {
    uint32_t window = 0;
    const PendingAct* winner = WinnerPendingOn(d.state(), trigger, &window);
    if (winner == nullptr) return absl::OkStatus();
    const Combatant* k = d.state().Find(winner->actor);
    if (k == nullptr || !(k->Has("Unconscious") || k->Has("Dead"))) return absl::OkStatus();
    const fb::CommandT act = winner->command;
    const uint64_t decl = winner->decl;
    RETURN_IF_ERROR(ResolveInWindow(d, window, act, decl, ActOpts{}));
  }
  return absl::InternalError("too many acts won Initiative against one act");
}

}  // namespace

absl::Status DecideResolve(const fb::CommandT& c, Decision& d) {
  const State& s = d.state();
  uint32_t window = 0;
  ASSIGN_OR_RETURN(const PendingAct* acting, FindActing(s, c, &window));
  const uint64_t trigger = acting->decl;
  fb::CommandT act = acting->command;
  if (c.role != fb::Role::GM && c.actor != act.actor) {
    return Refuse("002.gm", absl::StrCat("only ", act.actor,
                                          " or the GM may resolve this act"));
  }
  RETURN_IF_ERROR(NotBeforeTheWinner(s, trigger, "resolve"));
  if (s.windows.count(window) == 0) return absl::InternalError("pending act without a window");
  const Window& win = s.windows.at(window);
  // The GM naming the window with no actor rules it resolved now (l.122
  // "The GM determines how these actions resolve"); the GM running the
  // actor waits like a player.
  const bool ruling = c.role == fb::Role::GM && c.actor.empty();
  // l.118: an ordinary act resolves after the acts other creatures were
  // already performing when it was declared. Not an act that won
  // Initiative (its own window, l.122) nor one that acts first against a
  // lost Initiative (ActsFirst: it came first, l.122).
  bool acts_first = false;
  for (const auto& [cid, cond] : s.Find(act.actor)->conditions) {
    if (cond.name == "ActsFirst" && cond.ref == trigger) acts_first = true;
  }
  if (!ruling && !ImmediateOnly(win) && !acts_first) {
    if (const PendingAct* p = PerformedBefore(s, act.actor, trigger); p != nullptr) {
      return Refuse("002.order.first",
                    absl::StrCat(p->actor, "'s '", p->command->action, "' (window ",
                                 WindowFor(s, p->decl), ") was being performed when this act "
                                 "was declared and resolves first (or the GM rules: resolve, "
                                 "window ", window, ", no actor)"));
    }
  }
  if (ImmediateOnly(win) && !ruling) {
    // l.132: Immediate Interrupts "may be performed at any time, even
    // interrupting other actions": the act that won Initiative waits for
    // each creature that may still answer it with one to answer or pass.
    const std::vector<std::string> able = ImmediateAnswerers(s, act.actor, act);
    std::vector<std::string> waiting;
    for (const std::string& id : MayAnswer(win)) {
      if (std::find(able.begin(), able.end(), id) != able.end()) waiting.push_back(id);
    }
    if (!waiting.empty()) {
      return Refuse("002.immediate.answers",
                    absl::StrCat(absl::StrJoin(waiting, ", "), " may still answer ", act.actor,
                                 "'s '", act.action, "' (window ", window,
                                 ") with an Immediate Interrupt: each answers it (interrupt, window ", window,
                                 ") or declines (pass, window ", window,
                                 ") first, or the GM rules it resolved (resolve, window ", window,
                                 ", no actor; l.122)"));
    }
  }
  for (const auto& [id, k] : s.combatants) {
    for (const auto& [cid, cond] : k.conditions) {
      if (cond.name == "Simultaneous" && cond.ref == trigger) {
        return Refuse("002.gm.simultaneous",
                       absl::StrCat("Immediate Interrupts in window ", window,
                                    " happen simultaneously; the GM rules first "
                                    "(gm_note kind=resolve subject=", trigger, ")"));
      }
    }
  }
  if (auto stop = Param(c, "stop_after"); stop.has_value()) {
    if (*stop < 0) return Malformed(c, "params.stop_after", "must not be negative");
    auto p = std::make_unique<fb::ParamT>();
    p->key = "stop_after";
    p->value = *stop;
    act.params.push_back(std::move(p));
  }
  ActOpts o;
  const Combatant* who = s.Find(act.actor);
  for (const auto& [cid, cond] : who->conditions) {
    if (cond.name == "ActsFirst" && cond.ref == trigger) o.ignore_reach = true;
  }
  if (ImmediateOnly(win)) o = WinningActOpts(s, act);
  ASSIGN_OR_RETURN(uint64_t rseq, d.Declare(c));
  (void)rseq;
  RETURN_IF_ERROR(EndKnockedOutWinner(d, trigger));
  RETURN_IF_ERROR(ResolveInWindow(d, window, act, trigger, o));
  // Race markers of this act are spent.
  std::vector<std::pair<std::string, uint32_t>> spent;
  for (const auto& [id, k] : d.state().combatants) {
    for (const auto& [cid, cond] : k.conditions) {
      if (cond.name == "ActsFirst" && cond.ref == trigger) spent.emplace_back(id, cid);
    }
  }
  for (const auto& [id, cid] : spent) {
    RETURN_IF_ERROR(RemoveCondition(d, id, cid,
                                    {trigger, "002.initiative.several", {}, "act resolved"}));
  }
  return absl::OkStatus();
}

absl::Status DecideCancel(const fb::CommandT& c, Decision& d) {
  const State& s = d.state();
  uint32_t window = 0;
  ASSIGN_OR_RETURN(const PendingAct* acting, FindActing(s, c, &window));
  const uint32_t pending = acting->id;
  fb::CommandT act = acting->command;
  if (c.role != fb::Role::GM && c.actor != act.actor) {
    return Refuse("002.incomplete",
                   absl::StrCat("only ", act.actor, " may end its own act"));
  }
  const Verb* v = FindVerb(act.action);
  if (v == nullptr) return absl::InternalError("pending act: unknown verb");
  RETURN_IF_ERROR(NotBeforeTheWinner(s, acting->decl, "cancel"));
  const uint64_t trigger = acting->decl;
  ASSIGN_OR_RETURN(uint64_t cseq, d.Declare(c));
  RETURN_IF_ERROR(EndKnockedOutWinner(d, trigger));
  RETURN_IF_ERROR(SpendIncomplete(d, act, *v, cseq, "002.incomplete", {}));
  RETURN_IF_ERROR(KnockOutIfSpent(d, act.actor, cseq));  // l.72
  RETURN_IF_ERROR(CloseWindow(d, window, "cancelled: willingly ended (l.138)",
                              {cseq, "002.incomplete", {}, ""})
                      .status());
  return ClosePending(d, pending, "cancelled: willingly ended (l.138)",
                      {cseq, "002.incomplete", {}, "act ended"});
}

}  // namespace combat::kernel::energy
