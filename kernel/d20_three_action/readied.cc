// Readied actions (L61) and the windows they fire in, plus the generic
// declare-pay-resolve path of every action, on the kernel's concepts:
//
// `ready` (two Actions) opens a pending act of kind "readied" (kernel/
// pending.h) on the readier with its trigger as data (kernel/trigger.h:
// any_action = Declared, attacks, casts, moves, moves_within_reach,
// enters_square; `by` = the creature it watches), lapsing at the start of
// its next turn. When a later declaration sets one off (MatchDeclaration),
// the declaration is recorded, its cost paid (PayWhen::Before), and it
// waits as a "held_back" pending act while a window (kernel/window.h,
// AnswerPolicy::InOrder, initiative order) lets the readiers answer with
// `pass` or their readied action; a move first resolves the squares up to
// the one that triggers (the pending act's `progress` is the feet spent,
// its `command` the rest of the path, `reacted` who has answered). When all
// have answered the window closes and the held-back declaration resolves
// if still legal (else the pending act closes saying why not).
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "events/status_macros.h"
#include "kernel/command.h"
#include "kernel/d20_three_action/internal.h"
#include "kernel/pending.h"
#include "kernel/trigger.h"
#include "kernel/window.h"

namespace combat::kernel::d20 {
namespace {

struct TriggerName {
  const char* name;
  fb::TriggerKind kind;
};
constexpr TriggerName kTriggers[] = {
    {"any_action", fb::TriggerKind::Declared},
    {"attacks", fb::TriggerKind::Attacks},
    {"casts", fb::TriggerKind::Casts},
    {"moves", fb::TriggerKind::Moves},
    {"moves_within_reach", fb::TriggerKind::MovesWithinReach},
    {"enters_square", fb::TriggerKind::EntersSquare}};

bool IsMoveLike(const std::string& action) {
  const ActionSpec* a = FindAction(action);
  return a != nullptr && a->kind.cls.move;
}

// How this ruleset's acts meet the kernel's triggers.
const TriggerRules& Rules() {
  static const TriggerRules* rules = [] {
    auto* r = new TriggerRules;
    r->classify = [](const fb::CommandT& c) { return ClassOf(AllActions(), c); };
    r->can_react = [](const State&, const Combatant& owner) {
      return !IsDead(owner) && !IsHelpless(owner);
    };
    // "moves within reach": the mover's space comes within the readier's
    // melee reach (L61 with L39's reach).
    r->in_reach = [](const State&, const Combatant& owner, Pos at, int32_t size,
                     const Trigger&) {
      return DistanceFt(at, size, owner.at, owner.size) <= MeleeReach(owner);
    };
    // L35 with L47: a move's Push attempt through an Enemy's square is an
    // Attack, so it sets off "attacks" before it is made.
    r->attack_step = PushAttemptStep;
    r->damage_resource = kHp;
    r->prone_condition = kProne;
    return r;
  }();
  return *rules;
}

std::vector<std::string> Owners(const std::vector<TriggerHit>& hits) {
  std::vector<std::string> out;
  for (const TriggerHit& h : hits) out.push_back(h.owner);
  return out;
}

// Holds back `rest` of declaration `decl` (its cost paid) and opens the
// window in which `eligible` answer, in initiative order.
absl::Status HoldBack(Decision& d, uint64_t decl, uint32_t pending,
                      const fb::CommandT& rest,
                      const std::vector<std::string>& eligible) {
  WindowSpec w;
  w.trigger = decl;
  w.kind = "readied";
  w.eligible = eligible;
  w.policy = fb::AnswerPolicy::InOrder;
  w.pay = fb::PayWhen::Before;
  w.pending = pending;
  return OpenWindow(
             d, w,
             {decl,
              "000.ready",
              {},
              absl::StrCat("readied action triggered by ", rest.actor, "'s ",
                           rest.action, "; ", absl::StrJoin(eligible, ", "),
                           " may answer")})
      .status();
}

// For a move: resolves the squares before the trigger (from `spent` ft
// already moved), then holds the rest back (no window when the move ended
// early). `pending` is the held-back act to update (0 = open one).
absl::Status SplitMove(Decision& d, uint64_t decl, uint32_t pending,
                       const fb::CommandT& c, const std::vector<TriggerHit>& hits,
                       int64_t spent, std::vector<std::string> reacted) {
  const size_t steps = hits.front().step;
  const int heading = MoveHeading(*d.state().Find(c.actor), c,
                                  pending == 0 ? Via::kDeclared : Via::kResumed);
  ASSIGN_OR_RETURN(MoveProgress p,
                   ResolveMoveSteps(d, c, decl, steps, spent, heading));
  if (p.stopped) {
    if (pending == 0) return absl::OkStatus();
    return ClosePending(d, pending, "stopped: the move ended early",
                        {decl, "000.move"});
  }
  // L83: the heading the rest turns from when it resumes.
  if (d.state().Find(c.actor)->Resource(kSplitHeading) != p.heading + 1) {
    RETURN_IF_ERROR(SetResource(d, c.actor, kSplitHeading, p.heading + 1,
                                {decl, "000.fly", {}, "heading at the window"}));
  }
  fb::CommandT rest = c;
  rest.path.erase(rest.path.begin(), rest.path.begin() + p.steps_done);
  for (const std::string& e : Owners(hits)) reacted.push_back(e);
  if (pending == 0) {
    NewPending np;
    np.kind = kHeldBack;
    np.actor = c.actor;
    np.decl = decl;
    np.command = rest;
    np.progress = p.spent;
    np.reacted = reacted;
    ASSIGN_OR_RETURN(pending, OpenPending(d, np, {decl, "000.ready", {},
                                                  "waits for the readied actions"}));
  } else {
    RETURN_IF_ERROR(UpdatePending(d, pending, p.spent, &rest, &reacted,
                                  {decl, "000.ready", {}, "moved up to the trigger"}));
  }
  return HoldBack(d, decl, pending, rest, Owners(hits));
}

// Closes window `wid` and resolves the declaration it held back.
absl::Status CloseAndResume(Decision& d, uint32_t wid) {
  const uint64_t trigger = d.state().windows.at(wid).trigger;
  const PendingAct* held = d.state().FindPending(d.state().windows.at(wid).pending);
  if (held == nullptr) {
    return CloseWindow(d, wid, "resolved", {trigger, "000.ready"}).status();
  }
  const PendingAct pending = *held;
  const fb::CommandT& c = pending.command;
  const ActionSpec* spec = FindAction(c.action);
  if (spec == nullptr) {
    return absl::InternalError("pending action '" + c.action + "'");
  }
  const Ctx ctx{Via::kResumed, trigger, pending.progress};
  absl::Status legal = CheckCanAct(d.state(), *d.state().Find(c.actor), 0, ctx);
  if (legal.ok()) legal = spec->validate(d.state(), c, ctx);
  if (!legal.ok()) {
    const std::string outcome = absl::StrCat("cancelled: ", legal.message());
    RETURN_IF_ERROR(CloseWindow(d, wid, outcome,
                                {trigger, "000.ready", {}, "no longer legal"})
                        .status());
    return ClosePending(d, pending.id, outcome, {trigger, "000.ready"});
  }
  RETURN_IF_ERROR(CloseWindow(d, wid, "resolved", {trigger, "000.ready"}).status());
  if (IsMoveLike(c.action)) {
    const std::vector<TriggerHit> hits =
        MatchDeclaration(d.state(), c, Rules(), pending.reacted);
    if (!hits.empty()) {
      return SplitMove(d, trigger, pending.id, c, hits, pending.progress,
                       pending.reacted);
    }
  }
  RETURN_IF_ERROR(ClosePending(d, pending.id, "resolved",
                               {trigger, "000.ready", {}, "the held-back declaration resumes"}));
  return spec->resolve(d, c, ctx);
}

}  // namespace

const std::vector<std::string>& ReadyTriggers() {
  static const std::vector<std::string>* const names = [] {
    auto* v = new std::vector<std::string>();
    for (const TriggerName& t : kTriggers) v->push_back(t.name);
    return v;
  }();
  return *names;
}

absl::Status ValidateReady(const State& s, const fb::CommandT& c,
                           const Ctx& ctx) {
  (void)ctx;
  ASSIGN_OR_RETURN(const Combatant* a, Actor(s, c));
  // `action` (an action other than ready) and `trigger` (one of
  // ReadyTriggers()) are checked by the verb table (verbs.cc).
  const std::string trigger = ParamText(c, "trigger");
  const std::string by = ParamText(c, "by");
  if (!by.empty() && s.Find(by) == nullptr) {
    return absl::NotFoundError(absl::StrCat("command 'ready': params.by '", by,
                                            "' is not in this session"));
  }
  if (trigger == "enters_square" && (!HasParam(c, "x") || !HasParam(c, "y"))) {
    return Malformed(c, "params.x", "enters_square needs params x and y");
  }
  if (FirstPending(s, a->id, kReadiedAct) != nullptr) {
    return Refuse("000.ready", a->id + " already has a readied action");
  }
  return absl::OkStatus();
}

absl::Status ResolveReady(Decision& d, const fb::CommandT& c, const Ctx& ctx) {
  const std::string trigger = ParamText(c, "trigger");
  NewPending p;
  p.kind = kReadiedAct;
  p.actor = c.actor;
  p.decl = ctx.cause;
  p.command = c;
  for (const TriggerName& t : kTriggers) {
    if (trigger == t.name) p.trigger.kind = t.kind;
  }
  p.trigger.by = ParamText(c, "by");
  if (trigger == "enters_square") {
    p.trigger.square = Pos{static_cast<int32_t>(ParamOr(c, "x", 0)),
                           static_cast<int32_t>(ParamOr(c, "y", 0))};
  }
  // L61: "may be triggered at any point up to your next Turn".
  p.expiry = ForRounds(d.state(), c.actor, 1);
  p.span = fb::Span::Rounds;
  return OpenPending(d, p, {ctx.cause, "000.ready", {}, "readied"}).status();
}

absl::Status DeclareAction(const ActionSpec& a, const fb::CommandT& c,
                           Decision& d) {
  const State& s = d.state();
  ASSIGN_OR_RETURN(const Combatant* actor, Actor(s, c));
  const int64_t cost = a.kind.free ? 0 : a.cost(c);
  const Ctx declared{Via::kDeclared, 0};
  RETURN_IF_ERROR(CheckCanAct(s, *actor, cost, declared));
  RETURN_IF_ERROR(a.validate(s, c, declared));
  const std::vector<TriggerHit> hits =
      a.kind.reactable ? MatchDeclaration(s, c, Rules(), {}) : std::vector<TriggerHit>{};
  const std::string who = actor->id;
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  RETURN_IF_ERROR(SpendActions(d, who, cost, decl, a.rule));
  if (!hits.empty()) {
    if (IsMoveLike(c.action)) {
      RETURN_IF_ERROR(SplitMove(d, decl, 0, c, hits, 0, {}));
      return EndTurnIfDead(d, decl);
    }
    NewPending np;
    np.kind = kHeldBack;
    np.actor = who;
    np.decl = decl;
    np.command = c;
    np.cost_due = cost;
    np.cost_paid = cost;
    np.budget = kActions;
    np.reacted = Owners(hits);
    ASSIGN_OR_RETURN(uint32_t pending,
                     OpenPending(d, np, {decl, "000.ready", {}, "waits for the readied actions"}));
    return HoldBack(d, decl, pending, c, Owners(hits));
  }
  RETURN_IF_ERROR(a.resolve(d, c, Ctx{Via::kDeclared, decl}));
  RETURN_IF_ERROR(SteadyAllTouching(d, decl));  // L85
  return EndTurnIfDead(d, decl);
}

absl::Status DecideAnswer(const fb::CommandT& c, Decision& d) {
  const State& s = d.state();
  if (c.window == 0 && !s.windows.empty()) {
    const Window& first = s.windows.begin()->second;
    const std::vector<std::string> next = MayAnswer(first);
    return Refuse(
        "000.ready",
        absl::StrCat("window ", first.id, " is open: ",
                     next.empty() ? std::string() : next.front(),
                     " answers it first ('pass' or its readied "
                     "action, with \"window\": ",
                     first.id, ")"));
  }
  RETURN_IF_ERROR(CheckAnswer(s, c, Cite("000.ready")));
  ASSIGN_OR_RETURN(const Combatant* actor, Actor(s, c));
  const std::string who = actor->id;
  const uint32_t wid = c.window;
  if (c.action == "pass") {
    RETURN_IF_ERROR(Answer(d, c).status());
  } else {
    const PendingAct* readied = FirstPending(s, who, kReadiedAct);
    const std::string ready_action =
        readied == nullptr ? "nothing" : ParamText(readied->command, "action");
    // L47: "Any time you would be able to make a Melee Attack you may
    // instead attempt to Break, Disarm, Feint, Grapple, Push, or Trip with
    // the same Reach": a readied Attack may fire as a Maneuver (its reach
    // is checked as any Maneuver's).
    const ActionSpec* fired = FindAction(c.action);
    const bool instead = ready_action == "attack" && fired != nullptr &&
                         std::string(fired->rule) == "000.maneuver";
    if (readied == nullptr || (ready_action != c.action && !instead)) {
      return Refuse("000.ready", absl::StrCat(who, " readied '", ready_action,
                                              "', not '", c.action, "'"));
    }
    const uint32_t readied_id = readied->id;
    const ActionSpec* spec = fired;
    // L61: "You may use two Actions to ready a single Action": what fires is
    // one Action's worth (a Focus, Cast, Use a Skill or interaction of
    // `actions` 2 or 3 is not readied by two Actions).
    if (!spec->kind.free && spec->cost(c) > 1) {
      return Refuse("000.ready",
                    absl::StrCat("a readied action is a single Action (L61): ",
                                 c.action, " with ", spec->cost(c),
                                 " Actions cannot fire"));
    }
    const Ctx ctx{Via::kInterrupt, 0};
    RETURN_IF_ERROR(CheckCanAct(s, *actor, 0, ctx));
    RETURN_IF_ERROR(spec->validate(s, c, ctx));
    ASSIGN_OR_RETURN(uint64_t seq, Answer(d, c));
    RETURN_IF_ERROR(ClosePending(d, readied_id, "fired", {seq, "000.ready", {}, "fires"}));
    RETURN_IF_ERROR(spec->resolve(d, c, Ctx{Via::kInterrupt, seq}));
    RETURN_IF_ERROR(SteadyAllTouching(d, seq));  // L85
  }
  if (AllAnswered(d.state().windows.at(wid))) {
    // Every readier has answered: the window closes by itself and the
    // held-back declaration resumes, the system's steps.
    Decision::SystemSteps system(d);
    const uint64_t trigger = d.state().windows.at(wid).trigger;
    RETURN_IF_ERROR(CloseAndResume(d, wid));
    RETURN_IF_ERROR(SteadyAllTouching(d, trigger));  // L85
    return EndTurnIfDead(d, trigger);
  }
  return absl::OkStatus();
}

}  // namespace combat::kernel::d20
