// Rounds (l.101-112) without turns (l.3, l.103): RoundStarted/RoundEnded
// only. A Round ends when the GM declares it (`end_round`, l.150) or when
// nobody acts: every conscious, living creature has passed (`pass`) since
// the last act (reading of l.150; any act clears the passes).
//
// At the beginning of each Round, in this order: conditions that end with
// the old Round expire; Death Saves for the bleeding (l.635, l.645) and
// wake-up rolls for the unconscious by Stamina loss or non-lethal damage
// (l.657, l.658), in combatant id order; then every creature's budgets
// reset: Energy from Stamina (l.55, less 2 when Exhausted l.668), Agility
// to its maximum (l.90), once-per-Round limits (l.110, l.47).
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/command.h"
#include "kernel/energy_rounds/internal.h"
#include "kernel/pending.h"
#include "kernel/window.h"

namespace combat::kernel::energy {
namespace {

absl::Status SetIfDifferent(Decision& d, const std::string& actor,
                            const std::string& name, int64_t value,
                            const Why& why) {
  const Combatant* c = d.state().Find(actor);
  if (c->Resource(name, 0) == value) {  // unset reads as 0
    return absl::OkStatus();
  }
  return SetResource(d, actor, name, value, why);
}

}  // namespace

absl::Status CheckNoWindow(const State& s) {
  if (!s.windows.empty()) {
    const Window& w = s.windows.begin()->second;
    return Refuse("002.rounds.span",
                   absl::StrCat("window ", w.id, " ('", w.kind, "', seq ", w.trigger,
                                ") is still open: an action cannot span rounds; "
                                "resolve or cancel it first"));
  }
  if (!s.pending.empty()) {
    const PendingAct& p = s.pending.begin()->second;
    return Refuse("002.rounds.span",
                   absl::StrCat("pending act ", p.id, " ('", p.kind, "' of ", p.actor, ", seq ",
                                p.decl, ") is still open: an action cannot span rounds; "
                                "resolve or cancel it first"));
  }
  return absl::OkStatus();
}

absl::Status ResetBudgets(Decision& d, const std::string& actor,
                          const Why& why) {
  const Combatant* c = d.state().Find(actor);
  if (c == nullptr) return absl::NotFoundError(actor);
  const int64_t energy = EnergyForRound(*c);
  const int64_t max_agility = MaxAgility(*c);
  const bool exhausted = Active(*c, "Exhausted");
  Nums en{{"stamina", c->Resource(res::kStamina)},
          {"exhausted", Active(*c, "Exhausted") ? 1 : 0},
          {"unconscious", c->Has("Unconscious") || c->Has("Dead") ? 1 : 0},
          {"energy", energy}};
  if (exhausted) {  // l.668 governs l.507
    en.push_back({"exhausted_less", 2, "Exhausted on " + actor, "002.cond.exhausted"});
  }
  RETURN_IF_ERROR(SetIfDifferent(d, actor, res::kEnergy, energy,
                                 {why.cause,
                                  exhausted ? "002.cond.exhausted" : "002.rounds.energy",
                                  en, why.note}));
  RETURN_IF_ERROR(SetIfDifferent(d, actor, res::kAgility, max_agility,
                                 {why.cause, "002.rounds.agility",
                                  {{"max_agility", max_agility}}, why.note}));
  // Each once-a-Round use is new, citing the line that limits it: the
  // Swift Attack l.110-111 (l.483), the Stamina paid as Energy l.47 "Once
  // per Round, you may spend 1 Stamina when you would normally spend 1
  // Energy" (not l.110, which lists only the Swift Attack and Initiative).
  RETURN_IF_ERROR(SetIfDifferent(d, actor, res::kSwiftUsed, 0,
                                 {why.cause, "002.rounds.once", {}, why.note}));
  RETURN_IF_ERROR(SetIfDifferent(d, actor, res::kStaminaEnergy, 0,
                                 {why.cause, "002.stamina.as_energy", {}, why.note}));
  // The Agile Move credit and the metres moved are the Round's (l.29 "Once
  // per Energy you spend", l.35 "move more than your Speed during a
  // Round"). The back-to-back movement (the streak of l.31 "immediately
  // after having moved at least 2m", the heading and Sprint of l.27 "This
  // applies to back-to-back movement actions") is no Round's: a Round's
  // end is no act, so a run that ends one Round and a run, turn or jump
  // that opens the next are back-to-back; only a non-movement act
  // (acts.cc), waiting (`pass`, l.150) or a whole Round without moving
  // ends it (README reading 4).
  const bool moved_this_round = c->Resource(res::kMoved, 0) > 0;
  const Why moves{why.cause, "002.move.round_metres", {}, "new round"};
  for (const char* name : {res::kAgileCredit, res::kMoved}) {
    RETURN_IF_ERROR(SetIfDifferent(d, actor, name, 0,
                                   std::string(name) == res::kAgileCredit
                                       ? Why{why.cause, "002.move.agile", {}, "new round"}
                                       : moves));
  }
  if (!moved_this_round) {
    const Why idle{why.cause, "002.move.back_to_back", {}, "a whole Round without moving"};
    for (const char* name : {res::kStreak, res::kHeading, res::kSprinted}) {
      RETURN_IF_ERROR(SetIfDifferent(d, actor, name, 0, idle));
    }
  }
  return absl::OkStatus();
}

absl::Status StartFirstRound(Decision& d) {
  // Round 1 starting (surprise, budgets): the system's steps.
  Decision::SystemSteps system(d);
  RETURN_IF_ERROR(StartRound(d, {0, "002.rounds.no_turns", {{"round", 1}},
                                 "no turns: everyone acts when they choose"}));
  // l.72 "you roll a 1d20 each Round until you get a 20" (l.657): a
  // creature the roster brings in at 0 Stamina is unconscious when Round 1
  // begins, so Round 1 is one of its Rounds: it rolls now (the script's
  // `setup_dice`), before the budgets, as at every Round's start.
  RETURN_IF_ERROR(RollsAtRoundStart(d, 0));
  std::vector<std::string> ids;
  // l.491: "the surprised party is Surprised until the end of the first
  // Round of combat. This applies to the entire party of creatures being
  // attacked, even if just one of them was targeted": a `surprised` tag on
  // any member surprises its whole side.
  std::set<std::string> surprised_sides;
  for (const auto& [id, c] : d.state().combatants) {
    ids.push_back(id);
    if (c.HasTag("surprised")) surprised_sides.insert(c.side);
  }
  for (const std::string& id : ids) {
    const Combatant* c = d.state().Find(id);
    if (surprised_sides.count(c->side) > 0) {
      const bool tagged = c->HasTag("surprised");
      Impose s;
      s.actor = id;
      s.name = "Surprised";
      s.source = "surprise";
      s.expiry = EndOfRound(d.state());  // until the end of round 1 (l.491)
      RETURN_IF_ERROR(AddWithDaughters(d, s, {0, "002.surprise", {{"round", 1}, {"tagged", tagged ? 1 : 0}},
                                              tagged ? "" : absl::StrCat("its party (", c->side,
                                                                         ") is surprised")})
                          .status());
    }
    RETURN_IF_ERROR(ResetBudgets(d, id, {0, "002.rounds.start", {}, "round 1"}));
  }
  return absl::OkStatus();
}

namespace {

bool RollsToWake(const Combatant& c) {
  for (const auto& [cid, cond] : c.conditions) {
    if (cond.name == "Unconscious" && (cond.source == "stamina" || cond.source == "nonlethal")) {
      return true;
    }
  }
  return false;
}

}  // namespace

bool AnyoneRollsAtRoundStart(const State& s) {
  for (const auto& [id, c] : s.combatants) {
    if (c.Has("Dead")) continue;
    if (c.Has("Bleeding") || RollsToWake(c)) return true;
  }
  return false;
}

absl::Status RollsAtRoundStart(Decision& d, uint64_t cause, int64_t rest_round) {
  const Nums extra = rest_round > 0 ? Nums{{"rest_round", rest_round}} : Nums{};
  std::vector<std::string> ids;
  for (const auto& [id, c] : d.state().combatants) ids.push_back(id);
  for (const std::string& id : ids) {
    const Combatant* c = d.state().Find(id);
    if (c->Has("Dead")) continue;
    // l.645 "only ever make one Death Save per Round": a rest's Rounds are
    // Rounds of their own (the session's count does not move in them).
    if (c->Has("Bleeding") &&
        (rest_round > 0 || c->Resource(res::kDeathSaveRound, 0) != d.state().round)) {
      RETURN_IF_ERROR(DeathSave(d, id, cause, extra));
    }
    c = d.state().Find(id);
    if (c->Has("Dead")) continue;
    if (RollsToWake(*c)) RETURN_IF_ERROR(WakeRoll(d, id, cause, extra));
  }
  return absl::OkStatus();
}

absl::Status AdvanceRound(Decision& d, uint64_t cause, const std::string& rule,
                          const std::string& note) {
  RETURN_IF_ERROR(CheckNoWindow(d.state()));
  // The round ending and the next starting (expiries, Death Saves, wake
  // rolls, budgets): the system's steps, whoever set them off.
  Decision::SystemSteps system(d);
  const int64_t old = d.state().round;
  RETURN_IF_ERROR(EndRound(d, {cause, rule, {{"round", old}}, note}));
  RETURN_IF_ERROR(
      ExpireAt(d, fb::ExpiryKind::RoundEnd, "", old, {cause, "002.cond.expire"}).status());
  RETURN_IF_ERROR(StartRound(d, {cause, "002.rounds.start", {{"round", old + 1}}, ""}));
  RETURN_IF_ERROR(ExpireAt(d, fb::ExpiryKind::RoundStart, "", old + 1,
                           {cause, "002.cond.expire"})
                      .status());
  RETURN_IF_ERROR(RollsAtRoundStart(d, cause));
  std::vector<std::string> ids;
  for (const auto& [id, c] : d.state().combatants) ids.push_back(id);
  for (const std::string& id : ids) {
    RETURN_IF_ERROR(ResetBudgets(d, id, {cause, "002.rounds.start", {},
                                         absl::StrCat("round ", old + 1)}));
  }
  return absl::OkStatus();
}

absl::Status DecideEndRound(const fb::CommandT& c, Decision& d) {
  if (c.role != fb::Role::GM) {
    return absl::PermissionDeniedError(absl::StrCat(
        "command 'end_round': only the GM declares the Round over (",
        Cite("002.rounds.gm_ends"), ")"));
  }
  RETURN_IF_ERROR(CheckNoWindow(d.state()));
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  return AdvanceRound(d, decl, "002.rounds.gm_ends",
                      c.text.empty() ? "the GM declares the Round over" : c.text);
}

absl::Status DecidePass(const fb::CommandT& c, Decision& d) {
  const State& s = d.state();
  ASSIGN_OR_RETURN(const Combatant* who, Actor(s, c));
  if (who->Has("Dead") || who->Has("Unconscious")) {
    return Refuse("002.rounds.nobody_acts",
                   absl::StrCat(who->id, " cannot act (and need not pass)"));
  }
  if (c.window != 0) {
    // `pass` into one window: declines to answer that act (an act that won
    // Initiative waits for those who may answer it with an Immediate
    // Interrupt, l.132), without waiting for the Round to end; allowed with
    // an act of one's own pending (it may be the act that one answers).
    RETURN_IF_ERROR(CheckAnswer(s, c, Cite("002.immediate.answers")));
    return Answer(d, c).status();
  }
  if (who->Has("Passed")) {
    return Refuse("002.rounds.nobody_acts",
                   absl::StrCat(who->id, " has already passed since the last act"));
  }
  if (ActingOf(s, who->id) != nullptr) {
    return Refuse("002.rounds.span",
                   absl::StrCat(who->id, " has an act pending; resolve or cancel it"));
  }
  const std::string id = who->id;
  const int64_t energy_left = who->Resource(res::kEnergy);
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  // Reading of l.150 ("waiting to act"): who passes does nothing until
  // somebody acts, so it lets every act now open go unanswered: a "pass"
  // answer in each window it may answer, so the window no longer waits for
  // it (combat status: "answered").
  std::vector<uint32_t> declined;
  for (const auto& [wid, w] : d.state().windows) {
    const std::vector<std::string> may = MayAnswer(w);
    if (std::find(may.begin(), may.end(), id) != may.end()) declined.push_back(wid);
  }
  for (uint32_t wid : declined) {
    fb::CommandT answer = c;
    answer.window = wid;
    RETURN_IF_ERROR(Answer(d, answer).status());
  }
  // Waiting breaks back-to-back movement (l.27, l.31 "immediately after
  // having moved"): a move after the wait is no longer back-to-back.
  RETURN_IF_ERROR(BreakStreak(d, id, decl, "waiting breaks the run"));
  NewCondition p;
  p.actor = id;
  p.name = "Passed";
  p.source = id;
  p.ref = decl;
  p.expiry = EndOfRound(d.state());
  RETURN_IF_ERROR(AddCondition(d, p, {decl, "002.rounds.nobody_acts",
                                      {{"energy_left", energy_left}},
                                      absl::StrCat(id, " waits")})
                      .status());
  int waiting = 0, able = 0;
  for (const auto& [cid, k] : d.state().combatants) {
    if (k.Has("Dead") || k.Has("Unconscious")) continue;
    ++able;
    if (k.Has("Passed")) ++waiting;
  }
  if (waiting == able && d.state().windows.empty()) {
    return AdvanceRound(d, decl, "002.rounds.nobody_acts",
                        absl::StrCat("all ", able, " conscious creatures passed"));
  }
  return absl::OkStatus();
}

}  // namespace combat::kernel::energy
