// Rounds and turns (l.10-12, l.17-20), AP (l.11, l.19, l.24), the limit of
// two attacks per round (l.18, l.48), the one free action (l.39) and
// saving a turn (l.22).
//
// Bookkeeping resources: "ap", "attacks" and "free_actions" (this round),
// "moved_m" and "dash_m" (this turn), "turn_round" (the round whose turn
// the character has had), "turn_acts" (acts on the current turn: a turn
// can be saved only before acting).
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/command.h"
#include "kernel/opposed_tests/internal.h"
#include "kernel/window.h"

namespace combat::kernel::opposed {
namespace {

constexpr char kTurnRound[] = "turn_round";
constexpr char kTurnActs[] = "turn_acts";
constexpr int64_t kApPerRound = 3;  // l.11
constexpr int64_t kAttacksPerRound = 2;  // l.18, l.48

bool TakesTurn(const State& s, const Combatant& c) {
  return Conscious(c) && !Surprised(s, c);  // l.16: surprised: skipped
}

int IndexOf(const std::vector<OrderEntry>& order, const std::string& actor) {
  for (size_t i = 0; i < order.size(); ++i) {
    if (order[i].actor == actor) return static_cast<int>(i);
  }
  return -1;
}

absl::Status NewRound(Decision& d, uint64_t cause) {
  const int64_t round = d.state().round + 1;
  RETURN_IF_ERROR(StartRound(d, {cause, "003.round", {{"round", round}}}));
  std::vector<std::string> ids;
  for (const auto& [id, c] : d.state().combatants) ids.push_back(id);
  for (const std::string& id : ids) {
    // l.11: all characters gain 3 AP; l.19: unspent AP are lost.
    RETURN_IF_ERROR(SetResource(d, id, kAp, kApPerRound,
                                {cause, "003.ap", {{"ap", kApPerRound}, {"round", round}}}));
    const Combatant* c = d.state().Find(id);
    if (c->Resource(kAttacks) != 0) {
      RETURN_IF_ERROR(SetResource(d, id, kAttacks, 0, {cause, "003.attacks", {}, "new round"}));
    }
    if (c->Resource(kFree) != 0) {
      RETURN_IF_ERROR(SetResource(d, id, kFree, 0, {cause, "003.free", {}, "new round"}));
    }
  }
  return ExpireAt(d, fb::ExpiryKind::RoundStart, "", round, {cause, "003.round"})
      .status();
}

}  // namespace

int64_t ApCost(const Combatant& c, const std::string& verb) {
  return c.Stat("ap_" + verb, 1);
}

absl::Status CheckReaction(const State& s, const Combatant& a,
                           const std::string& verb, bool attack) {
  if (!Conscious(a)) return Refuse("003.health", a.id + " is unconscious");
  if (Surprised(s, a)) {
    return Refuse("003.surprise", a.id + " is surprised: no actions or reactions this round");
  }
  const int64_t cost = ApCost(a, verb);
  if (a.Resource(kAp) < cost) {
    return Refuse("003.ap.cost", absl::StrCat(a.id, " has ", a.Resource(kAp),
                                              " AP left and ", verb, " costs ", cost));
  }
  if (attack && a.Resource(kAttacks) >= kAttacksPerRound) {
    return Refuse("003.attacks", absl::StrCat(a.id, " has made ", a.Resource(kAttacks),
                                              " attacks this round (at most 2)"));
  }
  return absl::OkStatus();
}

absl::Status CheckPrimary(const State& s, const Combatant& a,
                          const std::string& verb, bool attack, bool free) {
  if (!s.windows.empty()) return WindowFirst(s, "003.defend");
  if (s.active != a.id) {
    return Refuse("003.turn", absl::StrCat(verb, " is a primary action: only on ", a.id,
                                           "'s own turn (it is ",
                                           s.active.empty() ? "nobody" : s.active, "'s)"));
  }
  if (free) return CheckFree(s, a, attack);
  return CheckReaction(s, a, verb, attack);
}

absl::Status WindowFirst(const State& s, const std::string& fallback_rule) {
  const Window* w = InnermostWindow(s);
  // The refusal cites the rule that opened the window (black-box: an open
  // opportunity window was cited as Step II: Defend, l.50): a defense window
  // l.50/55, a maneuver window l.66, an opportunity window l.81.
  const std::string rule = w->kind == "defense"       ? "003.defend"
                           : w->kind == "maneuver"    ? "003.maneuver"
                           : w->kind == "opportunity" ? "003.opportunity"
                                                      : fallback_rule;
  std::string who;
  for (const std::string& e : w->eligible) {
    if (std::find(w->answered.begin(), w->answered.end(), e) != w->answered.end()) continue;
    absl::StrAppend(&who, who.empty() ? "" : " or ", e);
  }
  const std::string verb = w->kind == "defense"     ? "defend"
                           : w->kind == "maneuver"  ? "maneuver"
                           : w->kind == "opportunity" ? "opportunity_attack or pass"
                                                      : "an answer";
  return Refuse(rule, absl::StrCat("window ", w->id, " (", w->kind, ") is open: it is answered first (",
                                   who.empty() ? "nobody" : who, ": ", verb, " with \"window\": ",
                                   w->id, ")"));
}

absl::Status CheckFree(const State& s, const Combatant& a, bool attack) {
  if (!Conscious(a)) return Refuse("003.health", a.id + " is unconscious");
  if (Surprised(s, a)) {
    return Refuse("003.surprise", a.id + " is surprised: no actions or reactions this round");
  }
  if (a.Resource(kFree) >= 1) {
    return Refuse("003.free", a.id + " has taken its one free action this round");
  }
  // A free action costs no AP, but an Attack is still one of the two (l.48).
  if (attack && a.Resource(kAttacks) >= kAttacksPerRound) {
    return Refuse("003.attacks", absl::StrCat(a.id, " has made ", a.Resource(kAttacks),
                                              " attacks this round (at most 2)"));
  }
  return absl::OkStatus();
}

absl::Status Spend(Decision& d, const std::string& who, const std::string& verb,
                   bool attack, bool free, uint64_t cause, const std::string& rule) {
  const Combatant* c = d.state().Find(who);
  if (free) {
    RETURN_IF_ERROR(AddResource(d, who, kFree, 1, {cause, "003.free", {}, verb}).status());
  } else {
    const int64_t cost = ApCost(*c, verb);
    if (cost > 0) {
      RETURN_IF_ERROR(AddResource(d, who, kAp, -cost,
                                  {cause, rule,
                                   {{"ap_cost", cost, c->stats.count("ap_" + verb) > 0 ? "ap_" + verb + " of " + who : "",
                                     "003.ap.cost"}},
                                   verb + ": AP spent"})
                          .status());
    }
  }
  if (attack) {
    ASSIGN_OR_RETURN(int64_t n, AddResource(d, who, kAttacks, 1,
                                            {cause, "003.attacks", {{"max", kAttacksPerRound}}}));
    (void)n;
  }
  // Reactions (l.33-37) are not actions: Defend, Opportunity Attack and
  // Manipulate leave the Feint waiting; a Manipulate taken as the free
  // action (l.39) is still that reaction (l.35), not the "next action".
  const bool reaction = verb == "defend" || verb == "opportunity_attack" || verb == "manipulate";
  if (verb != "strike" && !reaction && d.state().active == who && c->Has(kFeint)) {
    // l.70: the boon is for the NEXT action, if it is a Strike.
    RETURN_IF_ERROR(RemoveConditionsNamed(d, who, kFeint, {cause, "003.maneuver.feint", {}, "the next action was not a Strike"}));
  }
  if (d.state().active == who) {
    RETURN_IF_ERROR(AddResource(d, who, kTurnActs, 1, {cause, "003.turn"}).status());
  }
  return absl::OkStatus();
}

// What follows a turn's end happens by itself: the system's (rounds,
// turns, AP regained, expiries).
absl::Status Advance(Decision& d, uint64_t cause) {
  Decision::SystemSteps system(d);
  bool fresh = false;
  while (true) {
    const State& s = d.state();
    std::optional<std::string> next;
    for (const OrderEntry& e : s.order) {
      const Combatant* c = s.Find(e.actor);
      if (c == nullptr || c->Resource(kTurnRound) >= s.round) continue;
      if (!TakesTurn(s, *c)) continue;
      next = e.actor;
      break;
    }
    if (next.has_value()) {
      const std::string who = *next;
      RETURN_IF_ERROR(StartTurn(d, who, {cause, "003.turn", {{"round", d.state().round}}}));
      RETURN_IF_ERROR(SetResource(d, who, kMoved, 0, {cause, "003.move", {}, "new turn"}));
      RETURN_IF_ERROR(SetResource(d, who, kTurnActs, 0, {cause, "003.turn"}));
      if (d.state().Find(who)->Resource(kDash) != 0) {
        RETURN_IF_ERROR(SetResource(d, who, kDash, 0, {cause, "003.dash"}));
      }
      return ExpireAt(d, fb::ExpiryKind::TurnStart, who, d.state().round,
                      {cause, "003.turn"})
          .status();
    }
    if (fresh) {
      // Nobody can take a turn in this new round. l.16: a surprised
      // character's turn is skipped "During this round" only, and l.12:
      // "After all character's have had their turn, a new round begins":
      // a round 1 whose every turn is lost to surprise ends, and round 2
      // begins. Otherwise (nobody conscious) nobody can take a turn.
      bool waits = false;
      for (const auto& [id, c] : s.combatants) waits = waits || (Conscious(c) && Surprised(s, c));
      if (!waits) return absl::OkStatus();
    }
    const int64_t round = s.round;
    if (round > 0) {
      RETURN_IF_ERROR(EndRound(d, {cause, "003.round", {{"round", round}}}));
      RETURN_IF_ERROR(ExpireAt(d, fb::ExpiryKind::RoundEnd, "", round,
                               {cause, "003.round"}).status());
    }
    RETURN_IF_ERROR(NewRound(d, cause));
    fresh = true;
  }
}

absl::Status BeginCombat(Decision& d) { return Advance(d, 0); }

namespace {
absl::Status FinishTurn(Decision& d, const std::string& who, uint64_t cause,
                        const std::string& rule, const std::string& note) {
  const int64_t round = d.state().round;
  {
    Decision::SystemSteps system(d);  // effects ending with the turn expire by themselves
    RETURN_IF_ERROR(ExpireAt(d, fb::ExpiryKind::TurnEnd, who, round, {cause, rule}).status());
    RETURN_IF_ERROR(SetResource(d, who, kTurnRound, round, {cause, rule}));
  }
  RETURN_IF_ERROR(EndTurn(d, who, {cause, rule, {{"round", round}}, note}));
  return Advance(d, cause);
}
}  // namespace

absl::Status DecideEndTurn(const fb::CommandT& c, Decision& d) {
  ASSIGN_OR_RETURN(const Combatant* a, Actor(d.state(), c));
  if (!d.state().windows.empty()) {
    return WindowFirst(d.state(), "003.defend");
  }
  if (d.state().active != a->id) {
    return Refuse("003.turn", absl::StrCat("it is not ", a->id, "'s turn (it is ",
                                           d.state().active.empty() ? "nobody" : d.state().active, "'s)"));
  }
  const std::string who = a->id;
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  return FinishTurn(d, who, decl, "003.round", "turn resolved (l.12)");
}

absl::Status DecideSaveTurn(const fb::CommandT& c, Decision& d) {
  ASSIGN_OR_RETURN(const Combatant* a, Actor(d.state(), c));
  const State& s = d.state();
  if (!s.windows.empty()) return WindowFirst(s, "003.defend");
  if (s.active != a->id) {
    return Refuse("003.save_turn", absl::StrCat("only the active character saves its turn (it is ",
                                                s.active, "'s)"));
  }
  if (a->Resource(kTurnActs) > 0 || a->Resource(kMoved) > 0) {
    return Refuse("003.save_turn", a->id + " has already acted this turn: a turn is saved instead of acting");
  }
  const std::string after = ParamText(c, "after");
  if (after.empty()) {
    return Malformed(c, "params.after", "the character after whom to become active (l.22)");
  }
  const Combatant* other = s.Find(after);
  if (other == nullptr) {
    return absl::NotFoundError(absl::StrCat("command 'save_turn': field 'params.after': '", after,
                                            "' is not in this session"));
  }
  const int mine = IndexOf(s.order, a->id);
  const int theirs = IndexOf(s.order, after);
  if (after == a->id) {
    return Refuse("003.save_turn", a->id + " saves its turn until after another character, not itself");
  }
  if (theirs < 0 || other->Resource(kTurnRound) >= s.round || !TakesTurn(s, *other)) {
    // Name the characters one may still wait for, so the refusal says what is right.
    std::string to_come;
    for (const OrderEntry& e : s.order) {
      const Combatant* o = s.Find(e.actor);
      if (o == nullptr || e.actor == a->id || o->Resource(kTurnRound) >= s.round || !TakesTurn(s, *o)) continue;
      absl::StrAppend(&to_come, to_come.empty() ? "" : ", ", e.actor);
    }
    return Refuse("003.save_turn", absl::StrCat(after, " has no turn still to come this round (still to come: ",
                                                to_come.empty() ? "nobody" : to_come, ")"));
  }
  const std::string who = a->id;
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  std::vector<OrderEntry> order = d.state().order;
  OrderEntry moved = order[mine];
  moved.initiative = order[theirs].initiative;
  order.erase(order.begin() + mine);
  order.insert(order.begin() + IndexOf(order, after) + 1, moved);
  RETURN_IF_ERROR(SetOrder(d, order, {decl, "003.save_turn", {}, who + " acts after " + after}));
  RETURN_IF_ERROR(EndTurn(d, who, {decl, "003.save_turn", {}, "turn saved"}));
  return Advance(d, decl);
}

absl::Status ResumeTurns(Decision& d, uint64_t cause) {
  // l.12: "the character with the next highest initiative gets their turn,
  // and so on until all characters have had a turn. After all character's
  // have had their turn, a new round begins." With everyone unconscious
  // nobody is active; a character the GM wakes is one whose turn is to come
  // (or, its turn had this round, the next round's first), so the turns go
  // on (black-box case: it stayed nobody's turn, every act refused).
  const State& s = d.state();
  if (s.ended || !s.active.empty() || !s.windows.empty() || s.round <= 0) return absl::OkStatus();
  bool someone = false;
  for (const auto& [id, c] : s.combatants) someone = someone || TakesTurn(s, c);
  if (!someone) return absl::OkStatus();
  return Advance(d, cause);
}

absl::Status EndTurnIfDown(Decision& d, uint64_t cause) {
  const State& s = d.state();
  if (s.active.empty() || !s.windows.empty()) return absl::OkStatus();
  if (Conscious(*s.Find(s.active))) return absl::OkStatus();
  const std::string who = s.active;
  Decision::SystemSteps system(d);  // the turn ends by itself
  return FinishTurn(d, who, cause, "003.health", "unconscious: the turn ends");
}

}  // namespace combat::kernel::opposed
