// Interrupts (l.114-134): declared into the window of another creature's
// pending act.
//
//   initiative: the interrupter rolls Initiative once per Round (l.126);
//     it is compared with the Initiative of each creature whose act it
//     answers (the primary `window` plus any refs {key also_window, window}): higher
//     wins (l.122). One roll can win against some and lose against others
//     (l.128); each pair's outcome is a condition InitiativeWon/Lost on the
//     interrupter relative_to the other creature (ref = that act's seq),
//     with the numbers. A challenged creature rolls now (its roll for the
//     Round); one that already rolled this Round automatically fails
//     (l.126): the interrupter wins against it. The interrupter's own
//     second attempt in a Round automatically fails (l.126), recorded
//     without a roll. If the interrupt wins against anyone its act happens
//     "at the same time" (l.122), before the acts it answers resolve: they
//     may be stopped by it (l.138-146) and wait for it. Not being an
//     Immediate Interrupt, it can itself be interrupted by them (l.132):
//     HappenAtTheSameTime holds it in a window of its own for them.
//     Against those it lost to, the other act came first ("play continues
//     normally", l.122): that act gets an ActsFirst marker and resolves as
//     declared (reach is not re-checked). If it loses against everyone,
//     nothing happens.
//   immediate: Swift Attacks (l.481) and Agile Moves (l.29) need no roll
//     and happen now. Two creatures' Immediate Interrupts in the same window
//     are simultaneous (l.132): a Simultaneous hold is recorded and the act
//     cannot resolve until the GM rules (gm_note kind=resolve, subject = the
//     act's seq), which lifts the hold. Immediate Interrupts never open a
//     window others can answer, so they cannot be interrupted (l.132).
#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "events/status_macros.h"
#include "kernel/command.h"
#include "kernel/energy_rounds/internal.h"
#include "kernel/pending.h"
#include "kernel/window.h"

namespace combat::kernel::energy {
namespace {

struct Answered {
  uint32_t window = 0;
  uint64_t trigger = 0;
  std::string actor;
  fb::CommandT act;
};

absl::StatusOr<Answered> AnswerOf(const State& s, const fb::CommandT& c,
                                  uint32_t window, const std::string& field) {
  auto it = s.windows.find(window);
  if (it == s.windows.end()) {
    return absl::NotFoundError(absl::StrCat("command 'interrupt': field '", field,
                                            "': window ", window, " is not open"));
  }
  Answered a;
  a.window = window;
  a.trigger = it->second.trigger;
  if (const PendingAct* p = s.FindPending(it->second.pending); p != nullptr) {
    a.actor = p->actor;
    a.act = p->command;
  }
  if (a.actor.empty()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "window ", window, " has no pending act to interrupt (", Cite("002.immediate"), ")"));
  }
  if (a.actor == c.actor) {
    return Refuse("002.initiative.roll", "a creature does not interrupt its own act");
  }
  for (const std::string& who : it->second.answered) {
    if (who == c.actor) {
      return Refuse("002.initiative.roll",
                     absl::StrCat(c.actor, " already answered window ", window));
    }
  }
  return a;
}

absl::StatusOr<int64_t> RollInitiative(Decision& d, const std::string& who,
                                       uint64_t cause, const std::string& rule,
                                       Nums& nums) {
  const Combatant* c = d.state().Find(who);
  const int64_t bonus = c->Stat("initiative", 0);
  // l.670: Dazed gives "Disadvantage on all your ... Skill Checks", and
  // Initiative is a skill (l.126: "see Initiative in the Skills section").
  const bool dazed = Active(*c, "Dazed");
  std::string notation = dazed ? "2d20kl1" : "1d20";
  if (bonus > 0) absl::StrAppend(&notation, "+", bonus);
  if (bonus < 0) absl::StrAppend(&notation, "-", -bonus);
  ASSIGN_OR_RETURN(dice::RollResult r, d.Roll(notation, "initiative", who, cause));
  nums.push_back({who + ".d20", r.natural()});
  if (dazed) {
    nums.push_back({who + ".dazed_disadvantage", 1, "Dazed on " + who, "002.cond.dazed"});
  }
  nums.push_back({who + ".initiative_bonus", bonus});
  nums.push_back({who + ".initiative", r.total});
  RETURN_IF_ERROR(SetResource(d, who, res::kInitRound, d.state().round,
                              {cause, "002.initiative.once", {{"round", d.state().round}},
                               "Initiative rolled this round"}));
  RETURN_IF_ERROR(SetResource(d, who, res::kInitValue, r.total,
                              {cause, rule, nums, ""}));
  return r.total;
}

fb::CommandT ActOf(const fb::CommandT& c, const std::string& verb) {
  fb::CommandT act = c;
  act.action = verb;
  act.window = 0;
  std::vector<std::unique_ptr<fb::ParamT>> kept;
  for (auto& p : act.params) {
    if (p && p->key == "act") continue;
    kept.push_back(std::move(p));
  }
  act.params = std::move(kept);
  act.refs.clear();
  act.dice.clear();
  return act;
}

absl::Status ResolveNow(Decision& d, const fb::CommandT& act, uint64_t cause,
                        const ActOpts& o, const std::string& rule,
                        const std::string& note = "an interrupt: it cannot itself be interrupted") {
  WindowSpec spec;
  spec.trigger = cause;
  spec.kind = act.action;
  spec.policy = fb::AnswerPolicy::AnyOrder;
  spec.pay = fb::PayWhen::AtResolution;
  ASSIGN_OR_RETURN(uint32_t wid,
                   OpenWindow(d, spec,
                              {cause, rule, {}, note}));
  return ResolveInWindow(d, wid, act, cause, o);
}

// An Initiative interrupt that won: its act "happens at the same time as
// their action" (l.122), before the acts it answers resolve (they wait for
// it: acts.cc NotBeforeTheWinner). Immediate Interrupts "may be performed
// at any time, even interrupting other actions" (l.132), so it is held in a
// window of its own (kind immediate_only:<act>) whose eligible creatures
// are those with an Immediate Interrupt against it (ImmediateAnswerers); it
// resolves on `resolve` once each has answered or declined (or when the GM
// resolves it). With `at_once` (the table agrees nobody answers) or nobody
// eligible it resolves now.
absl::Status HappenAtTheSameTime(Decision& d, const fb::CommandT& act, uint64_t cause,
                                 const ActOpts& o, const std::string& rule,
                                 uint32_t first_won,
                                 const std::vector<std::string>& won_against) {
  const std::string who = act.actor;
  if (ParamOr(act, "at_once", 0) == 1) {
    return ResolveNow(d, act, cause, o, rule, "declared at once: the table lets it resolve now");
  }
  const std::vector<std::string> eligible = ImmediateAnswerers(d.state(), who, act);
  if (eligible.empty()) {
    return ResolveNow(d, act, cause, o, rule,
                      "won Initiative; nobody may answer it with an Immediate Interrupt");
  }
  const NewPending acting = Acting(d.state(), who, cause, act);
  const std::string what = absl::StrCat(who, "'s '", act.action, "'");
  WindowSpec spec;
  spec.trigger = cause;
  spec.kind = absl::StrCat(kImmediateOnly, act.action);
  spec.eligible = eligible;
  spec.policy = fb::AnswerPolicy::AnyOrder;
  spec.pay = fb::PayWhen::AtResolution;
  spec.parent = first_won;  // it closes before the act it answers
  ASSIGN_OR_RETURN(spec.pending,
                   OpenPending(d, acting,
                               {cause, "002.immediate.answers", {},
                                absl::StrCat(what, " won Initiative against ",
                                             absl::StrJoin(won_against, ", "),
                                             " and happens at the same time")}));
  return OpenWindow(d, spec,
                    {cause, "002.immediate.answers", {{"round", d.state().round}},
                     absl::StrCat("only Immediate Interrupts may answer ", what, " (",
                                  absl::StrJoin(eligible, ", "), ")")})
      .status();
}

}  // namespace

absl::Status DecideInterrupt(const fb::CommandT& c, Decision& d) {
  const State& s = d.state();
  ASSIGN_OR_RETURN(const Combatant* actor, Actor(s, c));
  if (c.window == 0) return Malformed(c, "window", "the window to interrupt is required");
  const std::string verb = ParamText(c, "act");
  // `act` is required and one of the acts (verbs.cc).
  const Verb* v = FindVerb(verb);
  if (v == nullptr) return Malformed(c, "params.act", absl::StrCat("unknown act '", verb, "'"));
  fb::CommandT act = ActOf(c, verb);
  // The interrupt's row takes every act's params; the act takes its own.
  RETURN_IF_ERROR(CheckCommand(Verbs(), act));

  std::vector<Answered> answered;
  ASSIGN_OR_RETURN(Answered first, AnswerOf(s, c, c.window, "window"));
  answered.push_back(std::move(first));
  if (HasParam(c, "also_window")) {
    return Malformed(c, "params.also_window",
                     "name each further window in refs: [{\"key\": \"also_window\", \"window\": N}]");
  }
  for (const auto& r : c.refs) {
    if (!r || r->key != "also_window") continue;
    if (r->window == 0) return Malformed(c, "refs[key=also_window]", "window is 0");
    ASSIGN_OR_RETURN(Answered more, AnswerOf(s, c, r->window, "refs[key=also_window]"));
    for (const Answered& a : answered) {
      if (a.window == more.window) return Malformed(c, "refs[key=also_window]", "window repeated");
    }
    answered.push_back(std::move(more));
  }
  const bool immediate = IsImmediate(act);
  for (const Answered& a : answered) {
    const Window& w = s.windows.at(a.window);
    if (!ImmediateOnly(w)) continue;
    // l.132: an act that won Initiative may be interrupted by Immediate
    // Interrupts; a race with Initiative answers the act it answers
    // (reading 11).
    if (!immediate) {
      return Refuse("002.immediate.answers",
                    absl::StrCat("window ", a.window, " holds ", a.actor, "'s '", a.act.action,
                                 "', which won Initiative: only an Immediate Interrupt (a Swift "
                                 "Attack, an Agile Move) may answer it; to race it with "
                                 "Initiative, answer the act it answers"));
    }
    if (std::find(w.eligible.begin(), w.eligible.end(), c.actor) == w.eligible.end()) {
      return Refuse("002.immediate.answers",
                    absl::StrCat(c.actor, " had no Immediate Interrupt against ", a.actor,
                                 "'s '", a.act.action, "' when window ", a.window,
                                 " opened; it may answer: ",
                                 w.eligible.empty() ? "nobody" : absl::StrJoin(w.eligible, ", ")));
    }
  }
  if (immediate && answered.size() > 1) {
    return Malformed(c, "refs[key=also_window]",
                    "an Immediate Interrupt answers one window (it needs no Initiative roll)");
  }
  ActOpts o;
  o.interrupt = true;
  for (const Answered& a : answered) {
    const Verb* tv = FindVerb(a.act.action);
    if (tv != nullptr && tv->kind.cls.move && !act.targets.empty() &&
        act.targets[0] == a.actor) {
      o.moving_target = true;  // l.559
      // l.487: "When a creature moves through your maximum Reach (and you
      // are facing them), you may make a Swift Attack against them": the
      // Swift Attack lands as the mover passes, wherever it started.
      const Combatant* mover = s.Find(a.actor);
      if (immediate && v->kind.cls.attack && mover != nullptr &&
          MovesThroughReach(s, *actor, *mover)) {
        o.ignore_reach = true;
      }
    }
  }
  RETURN_IF_ERROR(CheckCanAct(s, *actor, act, *v));
  RETURN_IF_ERROR(v->validate(s, *actor, act, o));
  const std::string who = actor->id;
  const int64_t round = s.round;

  if (immediate) {
    const Answered& a = answered[0];
    ASSIGN_OR_RETURN(uint64_t iseq, d.Interrupt(c, a.window));
    RETURN_IF_ERROR(ClearPasses(d, iseq, who));
    // Other creatures' Immediate Interrupts into the same window.
    std::vector<std::pair<std::string, uint64_t>> others;
    for (const auto& [id, k] : d.state().combatants) {
      if (id == who) continue;
      for (const auto& [cid, cond] : k.conditions) {
        if (cond.name == "ImmediateInterrupt" && cond.ref == a.trigger) {
          others.emplace_back(id, cond.added_at);
        }
      }
    }
    for (const auto& [other, at] : others) {
      NewCondition hold;
      hold.actor = who;
      hold.name = "Simultaneous";
      hold.source = who;
      hold.relative_to = other;
      hold.ref = a.trigger;
      hold.expiry = EndOfRound(d.state());
      hold.note = absl::StrCat("simultaneous with ", other,
                               "'s Immediate Interrupt; the GM resolves (gm_note "
                               "kind=resolve subject=", a.trigger, ")");
      RETURN_IF_ERROR(AddCondition(d, hold,
                                   {iseq, "002.gm.simultaneous",
                                    {{"window", a.window}, {"other_interrupt_at", static_cast<int64_t>(at)}},
                                    ""})
                          .status());
    }
    NewCondition mark;
    mark.actor = who;
    mark.name = "ImmediateInterrupt";
    mark.source = verb;
    mark.relative_to = a.actor;
    mark.ref = a.trigger;
    mark.expiry = EndOfRound(d.state());
    RETURN_IF_ERROR(AddCondition(d, mark,
                                 {iseq, "002.immediate", {{"window", a.window}},
                                  absl::StrCat(verb, " into ", a.actor, "'s act")})
                        .status());
    return ResolveNow(d, act, iseq, o, "002.immediate");
  }

  // An Initiative interrupt: one Interrupt event per window it answers.
  uint64_t cause = 0;
  for (const Answered& a : answered) {
    ASSIGN_OR_RETURN(uint64_t iseq, d.Interrupt(c, a.window));
    if (cause == 0) cause = iseq;
  }
  RETURN_IF_ERROR(ClearPasses(d, cause, who));
  const std::string rule =
      answered.size() > 1 ? "002.initiative.several" : "002.initiative.roll";
  const int64_t first_roll = d.state().Find(who)->Resource(res::kInitValue, 0);
  if (d.state().Find(who)->Resource(res::kInitRound, 0) == round) {
    // l.126: a second Initiative in the Round automatically fails.
    for (const Answered& a : answered) {
      NewCondition lost;
      lost.actor = who;
      lost.name = "InitiativeLost";
      lost.source = who;
      lost.relative_to = a.actor;
      lost.ref = a.trigger;
      lost.expiry = EndOfRound(d.state());
      lost.note = absl::StrCat("automatically fails: ", who,
                               " already rolled Initiative in round ", round);
      RETURN_IF_ERROR(AddCondition(d, lost,
                                   {cause, "002.initiative.once",
                                    {{"rolled_in_round", round},
                                     {"first_roll", first_roll}},
                                    lost.note})
                          .status());
    }
    return absl::OkStatus();
  }
  Nums mine_nums;
  ASSIGN_OR_RETURN(int64_t mine, RollInitiative(d, who, cause, rule, mine_nums));
  bool any_won = false;
  std::vector<const Answered*> lost_to;
  // Creatures rolled for by this very challenge (one creature may own two
  // of the answered windows): their roll is this situation's, not another.
  std::map<std::string, int64_t> rolled_now;
  for (const Answered& a : answered) {
    Nums nums = mine_nums;
    int64_t theirs = 0;
    bool fails = false;
    std::string why = rule;
    const Combatant* other = d.state().Find(a.actor);
    if (auto it = rolled_now.find(a.actor); it != rolled_now.end()) {
      theirs = it->second;
      nums.push_back({a.actor + ".initiative", theirs});
    } else if (other->Has("SavesInitiative") &&
               other->Resource(res::kInitRound, 0) != round) {
      // l.126: "You may decide not to roll Initiative and treat the
      // situation as if you had lost Initiative (possibly saving your
      // Initiative roll for later)": it does not roll, the challenger wins
      // against it, and its roll for the Round is still to come.
      fails = true;
      why = "002.initiative.decline";
      nums.push_back({a.actor + ".declines", 1});
    } else if (other->Resource(res::kInitRound, 0) == round) {
      // l.126: "If another situation arises that requires you to roll
      // Initiative after you have already rolled it during the Round, you
      // automatically fail." The challenged creature fails: the
      // interrupter wins against it, whatever its own roll.
      fails = true;
      why = "002.initiative.once";
      nums.push_back({a.actor + ".rolled_in_round", round});
      nums.push_back({a.actor + ".earlier_roll", other->Resource(res::kInitValue, 0)});
      nums.push_back({a.actor + ".automatically_fails", 1});
    } else {
      // The challenged creature's roll is forced on it (l.126): the
      // system's step, not the interrupter's.
      Decision::SystemSteps system(d);
      ASSIGN_OR_RETURN(theirs, RollInitiative(d, a.actor, cause, rule, nums));
      rolled_now[a.actor] = theirs;
    }
    const bool won = fails || mine > theirs;  // "higher" wins (l.122): ties lose
    any_won = any_won || won;
    if (!won) lost_to.push_back(&a);
    NewCondition res;
    res.actor = who;
    res.name = won ? "InitiativeWon" : "InitiativeLost";
    res.source = who;
    res.relative_to = a.actor;
    res.ref = a.trigger;
    res.level = fails ? 0 : mine - theirs;
    res.expiry = EndOfRound(d.state());
    res.note = fails && why == "002.initiative.decline"
                   ? absl::StrCat(a.actor, " declines to roll Initiative (saving its roll): ",
                                  who, " acts at the same time")
               : fails ? absl::StrCat(a.actor, " already rolled Initiative in round ", round,
                                    " and automatically fails: ", who,
                                    " acts at the same time")
                     : absl::StrCat(who, " ", mine, won ? " beats " : " does not beat ",
                                    a.actor, " ", theirs,
                                    won ? ": acts at the same time" : ": play continues normally");
    RETURN_IF_ERROR(AddCondition(d, res, {cause, why, nums, res.note}).status());
  }
  if (!any_won) return absl::OkStatus();
  uint32_t first_won = 0;
  std::vector<std::string> won_against;
  for (const Answered& a : answered) {
    if (std::find(lost_to.begin(), lost_to.end(), &a) != lost_to.end()) continue;
    if (first_won == 0) first_won = a.window;
    won_against.push_back(a.actor);
  }
  for (const Answered* a : lost_to) {
    NewCondition first;
    first.actor = a->actor;
    first.name = "ActsFirst";
    first.source = a->actor;
    first.relative_to = who;
    first.ref = a->trigger;
    first.expiry = EndOfRound(d.state());
    first.note = absl::StrCat("its act came before ", who, "'s interrupt");
    RETURN_IF_ERROR(AddCondition(d, first, {cause, "002.initiative.several", {}, first.note})
                        .status());
  }
  return HappenAtTheSameTime(d, act, cause, o, rule, first_won, won_against);
}

ActOpts WinningActOpts(const State& s, const fb::CommandT& act) {
  ActOpts o;
  o.interrupt = true;
  if (act.targets.empty()) return o;
  const Verb* v = FindVerb(act.action);
  const PendingAct* moving = ActingOf(s, act.targets[0]);
  const Verb* mv = moving == nullptr ? nullptr : FindVerb(moving->command->action);
  o.moving_target = v != nullptr && v->kind.cls.attack && mv != nullptr && mv->kind.cls.move;
  return o;
}

absl::Status AfterGmResolve(Decision& d, uint64_t ruling_seq, uint64_t subject) {
  std::vector<std::pair<std::string, uint32_t>> holds;
  for (const auto& [id, k] : d.state().combatants) {
    for (const auto& [cid, cond] : k.conditions) {
      if (cond.name == "Simultaneous" && cond.ref == subject) holds.emplace_back(id, cid);
    }
  }
  for (const auto& [id, cid] : holds) {
    RETURN_IF_ERROR(RemoveCondition(d, id, cid,
                                    {ruling_seq, "002.gm.simultaneous", {},
                                     "the GM resolved the simultaneous interrupts"}));
  }
  return absl::OkStatus();
}

absl::Status DecideSaveInitiative(const fb::CommandT& c, Decision& d) {
  const std::optional<int64_t> off = Param(c, "off");  // a flag (verbs.cc)
  const State& s = d.state();
  ASSIGN_OR_RETURN(const Combatant* who, Actor(s, c));
  const std::string id = who->id;
  const bool stop = off.value_or(0) == 1;
  if (stop != who->Has("SavesInitiative")) {
    return Refuse("002.initiative.decline",
                  stop ? absl::StrCat(id, " is not declining Initiative")
                       : absl::StrCat(id, " already declines Initiative this Round"));
  }
  if (!stop && who->Resource(res::kInitRound, 0) == s.round) {
    return Refuse("002.initiative.decline",
                  absl::StrCat(id, " already rolled Initiative in round ", s.round,
                               ": there is no roll left to save (l.126)"));
  }
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  if (stop) {
    return RemoveConditionsNamed(d, id, "SavesInitiative",
                                 {decl, "002.initiative.decline", {}, "rolls when challenged again"});
  }
  NewCondition k;
  k.actor = id;
  k.name = "SavesInitiative";
  k.source = id;
  k.ref = decl;
  k.expiry = EndOfRound(d.state());
  return AddCondition(d, k, {decl, "002.initiative.decline", {},
                             absl::StrCat(id, " declines to roll Initiative when challenged "
                                              "this Round (l.126)")})
      .status();
}

}  // namespace combat::kernel::energy
