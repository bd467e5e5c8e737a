// Rounds and turns (l.5-12): the turn order fixed at the start of each
// round (OrderSet), unions sharing a turn (OrderEntry.members), surprise,
// holding a turn to later in the round, and the budgets (AP per turn, RP per
// round, Basic Movement).
//
// Bookkeeping resources: turn_round (the round whose turn the creature has
// ended), ap_used / rp_used (for the Cinematic Burst, l.44), movement and
// moved (metres), free_interact / free_switch (l.19, l.24), cinematic_acted
// (a Cinematic Action or Reaction proposed this turn, l.41, l.44).
#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "events/status_macros.h"
#include "kernel/ap_rp/internal.h"
#include "kernel/command.h"
#include "kernel/fold.h"
#include "kernel/pending.h"

namespace combat::kernel::aprp {
namespace {

// Reading: objects stand in the order at Initiative 0 (l.7) but take no
// turns; neither do the Dead.
bool TakesTurn(const Combatant& c) { return Alive(c); }

bool Flag(const Combatant& c, const char* name) {
  return c.HasTag(name) || c.Has(name);
}

int IndexOf(const std::vector<OrderEntry>& order, const std::string& actor) {
  for (size_t i = 0; i < order.size(); ++i) {
    if (order[i].actor == actor) return static_cast<int>(i);
  }
  return -1;
}

// The entry whose turn `who` takes: its own, or its union's (as a member).
int EntryOf(const std::vector<OrderEntry>& order, const std::string& who) {
  for (size_t i = 0; i < order.size(); ++i) {
    if (order[i].actor == who ||
        std::find(order[i].members.begin(), order[i].members.end(), who) != order[i].members.end()) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

absl::Status SetIfDifferent(Decision& d, const std::string& who,
                            const std::string& name, int64_t value,
                            const Why& why) {
  const Combatant* c = d.state().Find(who);
  if (c->resources.count(name) > 0 && c->Resource(name) == value) {
    return absl::OkStatus();
  }
  return SetResource(d, who, name, value, why);
}

// The union each creature belongs to (its "Union" condition's note), or "".
std::string UnionOf(const Combatant& c) {
  const Condition* u = c.FindCondition(kUnion);
  return u == nullptr ? "" : u->note;
}

struct Entry {
  OrderEntry e;
  int group = 1;       // 0 act first, 1 normal, 2 act last, 3 surprised
  int prev = 1 << 30;  // place in the previous round's order (ties, l.7)
  std::string key;     // id order: the last tie-break
};

// l.7, l.10-12: the order of the round about to start.
absl::Status SetRoundOrder(Decision& d, uint64_t cause) {
  const State& s = d.state();
  std::map<std::string, std::vector<std::string>> unions;
  std::map<std::string, std::vector<std::string>> dead;  // a union's Dead creatures
  std::vector<std::string> solo;
  for (const auto& [id, c] : s.combatants) {
    const std::string u = UnionOf(c);
    if (u.empty() || !Alive(c)) {
      solo.push_back(id);
      if (!u.empty()) dead[u].push_back(id);
    } else {
      unions[u].push_back(id);
    }
  }
  // l.10 "Two or more allies can decide to act as a union": a union with one
  // creature that takes its turn (the others Dead: they take none) acts as
  // no union this round: that creature is an ordinary entry at its own
  // Initiative (the sum of the participating creatures' divided by their
  // number, one, is the same); its union stays, for the next round's order
  // if the dead are revived (l.103).
  std::vector<std::string> alone;
  for (auto it = unions.begin(); it != unions.end();) {
    if (it->second.size() != 1) {
      ++it;
      continue;
    }
    solo.push_back(it->second.front());
    alone.push_back(absl::StrCat(it->second.front(), " acts alone: ", absl::StrJoin(dead[it->first], ", "),
                                 " of its union take", dead[it->first].size() == 1 ? "s" : "",
                                 " no turn (Dead; l.10 \"Two or more allies\")"));
    it = unions.erase(it);
  }
  std::vector<Entry> entries;
  Nums nums;
  auto place = [&](Entry& en, const std::vector<std::string>& ids) {
    bool all_first = true;
    bool any_last = false;
    bool surprised = false;
    for (const std::string& id : ids) {
      const Combatant& c = *s.Find(id);
      all_first = all_first && Flag(c, "acts_first");
      any_last = any_last || Flag(c, "acts_last");
      surprised = surprised || c.HasTag("surprised");
    }
    en.group = (s.round == 1 && surprised) ? 3 : any_last ? 2 : all_first ? 0 : 1;
    const int p = IndexOf(s.order, en.e.actor);
    if (p >= 0) en.prev = p;
    en.key = en.e.actor;
  };
  for (const std::string& id : solo) {
    Entry en;
    en.e.actor = id;
    en.e.initiative = Initiative(*s.Find(id));
    nums.push_back({"init." + id, en.e.initiative});
    place(en, {id});
    entries.push_back(en);
  }
  for (const auto& [name, ids] : unions) {
    // l.10: the sum of the members' Initiative divided by their number
    // ("(26+32)/2=29"); rounded down (reading: the text's only rounding,
    // l.53, rounds down).
    int64_t sum = 0;
    std::string lead = ids.front();
    for (const std::string& id : ids) {
      const int64_t i = Initiative(*s.Find(id));
      sum += i;
      nums.push_back({"init." + id, i});
      if (i > Initiative(*s.Find(lead))) lead = id;
    }
    Entry en;
    en.e.actor = lead;
    en.e.initiative = FloorDiv(sum, static_cast<int64_t>(ids.size()));
    for (const std::string& id : ids) {
      if (id != lead) en.e.members.push_back(id);
    }
    nums.push_back({"union_sum." + lead, sum});
    nums.push_back({"union_count." + lead, static_cast<int64_t>(ids.size())});
    nums.push_back({"union_init." + lead, en.e.initiative});
    place(en, ids);
    entries.push_back(en);
  }
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    if (a.group != b.group) return a.group < b.group;
    if (a.e.initiative != b.e.initiative) return a.e.initiative > b.e.initiative;
    if (a.prev != b.prev) return a.prev < b.prev;
    return a.key < b.key;
  });
  std::vector<OrderEntry> order;
  std::vector<std::string> ties;
  for (size_t i = 0; i < entries.size(); ++i) {
    order.push_back(entries[i].e);
    if (i > 0 && entries[i].group == entries[i - 1].group &&
        entries[i].e.initiative == entries[i - 1].e.initiative) {
      ties.push_back(absl::StrCat(entries[i - 1].e.actor, "=", entries[i].e.actor));
    }
  }
  std::string note = "highest Initiative first (l.7), fixed for the round (l.11)";
  for (const std::string& a : alone) absl::StrAppend(&note, "; ", a);
  if (!ties.empty()) {
    absl::StrAppend(&note, "; ties (", absl::StrJoin(ties, ", "),
                    ") by the previous round's order, then id: the GM may "
                    "decide otherwise with gm_order (l.7)");
  }
  RETURN_IF_ERROR(SetOrder(d, order, {cause, ties.empty() ? "004.initiative" : "004.initiative.tie", nums, note}));
  return absl::OkStatus();
}

// A round's start is automatic: the system's (RP, expiries, the order).
absl::Status StartNewRound(Decision& d, uint64_t cause) {
  Decision::SystemSteps system(d);
  const int64_t round = d.state().round + 1;
  RETURN_IF_ERROR(StartRound(d, {cause, "004.round", {{"round", round}}}));
  RETURN_IF_ERROR(ExpireAt(d, fb::ExpiryKind::RoundStart, "", round,
                           {cause, "004.round"}).status());
  std::vector<std::string> ids;
  for (const auto& [id, c] : d.state().combatants) {
    if (!IsObject(c)) ids.push_back(id);
  }
  for (const std::string& id : ids) {
    // l.6: two RP for the whole round.
    RETURN_IF_ERROR(SetIfDifferent(d, id, kRp, 2, {cause, "004.budget.rp", {{"rp", 2}}}));
    RETURN_IF_ERROR(SetIfDifferent(d, id, kRpUsed, 0, {cause, "004.budget.rp"}));
  }
  return SetRoundOrder(d, cause);
}

absl::Status StartTurnOf(Decision& d, const OrderEntry& e, uint64_t cause,
                         const std::string& note) {
  Decision::SystemSteps system(d);  // a turn's start: budgets, expiries
  const int64_t round = d.state().round;
  RETURN_IF_ERROR(StartTurn(d, e.actor, {cause, e.members.empty() ? "004.round" : "004.union",
                                         {{"round", round}}, note},
                            e.members));
  std::vector<std::string> all = {e.actor};
  for (const std::string& m : e.members) all.push_back(m);
  for (const std::string& who : all) {
    // l.8: effects until the creature's next turn end now, even if it holds.
    RETURN_IF_ERROR(ExpireAt(d, fb::ExpiryKind::TurnStart, who, round,
                             {cause, "004.duration.next_turn"}).status());
    const Combatant* c = d.state().Find(who);
    const int64_t basic = c->Stat("basic_movement", 3);
    RETURN_IF_ERROR(SetIfDifferent(d, who, kAp, 3, {cause, "004.budget.ap", {{"ap", 3}}}));
    RETURN_IF_ERROR(SetIfDifferent(d, who, kApUsed, 0, {cause, "004.budget.ap"}));
    RETURN_IF_ERROR(SetIfDifferent(d, who, kMovement, basic,
                                   {cause, "004.budget.move", {{"basic_movement", basic}}}));
    RETURN_IF_ERROR(SetIfDifferent(d, who, kMoved, 0, {cause, "004.budget.move"}));
    RETURN_IF_ERROR(SetIfDifferent(d, who, kFreeInteract, 0, {cause, "004.interact"}));
    RETURN_IF_ERROR(SetIfDifferent(d, who, kFreeSwitch, 0, {cause, "004.switch_weapons"}));
    // Set only by a Cinematic Action or Reaction proposed on the creature's turn (so
    // logs without one keep their turn starts).
    RETURN_IF_ERROR(SetIfDifferent(d, who, kCinematicActed, 0, {cause, "004.cinematic"}));
    // Set only by a feature paid with RP on the creature's turn, reset only
    // where set (logs without one keep their turn starts).
    if (d.state().Find(who)->Resource(kFeatureActed) != 0) {
      RETURN_IF_ERROR(SetResource(d, who, kFeatureActed, 0, {cause, "004.budget.rp"}));
    }
  }
  return absl::OkStatus();
}

// Whether `c` acted in the running turn: AP, movement, the turn's free
// Interact / Switch Weapons (l.19, l.24: "on your turn"), or a Cinematic
// Action or Reaction proposed on it (l.41 "You tell the GM what you want to
// attempt"; l.44 a Burst pays no AP, a Reaction RP, but either is an act on
// the turn), or a feature or Ability paid with RP on it (l.6 "RP can be used
// to act").
bool Acted(const Combatant& c) {
  return c.Resource(kApUsed) > 0 || c.Resource(kMoved) > 0 || c.Resource(kFreeInteract) > 0 ||
         c.Resource(kFreeSwitch) > 0 || c.Resource(kCinematicActed) > 0 || c.Resource(kFeatureActed) > 0;
}

bool Done(const State& s, const OrderEntry& e) {
  return s.Find(e.actor)->Resource(kTurnRound) >= s.round;
}

}  // namespace

std::vector<std::string> TurnTakers(const State& s) {
  std::vector<std::string> out;
  if (s.active.empty()) return out;
  out.push_back(s.active);
  for (const std::string& m : s.active_members) out.push_back(m);
  return out;
}

namespace {

// l.8 "Any effects that last until the end of a creature's turn keep being
// in effect until a creature ends their turn or they lose it": a creature
// that takes no turn (Dead: skipped in the order) loses it, and its "until
// the end of its turn" effects end there; l.103 "as if they had been alive
// the whole time" (a Status Effect with such a duration does not outlast
// its turn because the creature was dead). The lost turn is this round's
// one turn (l.5 "Each combatant gets one turn during one round", l.8 "they
// lose their turn for this round"): recorded as taken (turn_round), so a
// creature the GM revives later in the round takes no turn in it.
// An object (l.7 "The Initiative of objects is always 0") takes no turns
// either (reading): its place passes the same way, said as what it is.
absl::Status LoseTurn(Decision& d, const std::string& who, uint64_t cause) {
  const int64_t round = d.state().round;
  RETURN_IF_ERROR(ExpireAt(d, fb::ExpiryKind::TurnEnd, who, round,
                           {cause, "004.duration.end_turn"}).status());
  const std::string note =
      IsObject(*d.state().Find(who))
          ? who + " is an object: it takes no turn (l.7 \"The Initiative of objects is always 0\"; reading)"
          : who + " takes no turn (Dead): its turn this round is lost (l.5, l.8)";
  return SetIfDifferent(d, who, kTurnRound, round, {cause, "004.round", {{"round", round}}, note});
}

// An entry none of whose creatures can take its turn (all Dead): l.10 "All
// creatures of a union have their turn at the same time", so every member
// loses it with the leader, its "until the end of its turn" effects ending
// (l.8) and, unless the turn's start passed already (a held turn), its
// "until its next turn" effects too.
absl::Status LoseEntryTurn(Decision& d, const OrderEntry& e, bool starts, uint64_t cause) {
  std::vector<std::string> all = {e.actor};
  for (const std::string& m : e.members) all.push_back(m);
  for (const std::string& who : all) {
    if (starts) {
      RETURN_IF_ERROR(ExpireAt(d, fb::ExpiryKind::TurnStart, who, d.state().round,
                               {cause, "004.duration.next_turn"}).status());
    }
    RETURN_IF_ERROR(LoseTurn(d, who, cause));
  }
  return absl::OkStatus();
}

// l.10 "All creatures of a union have their turn at the same time": a union
// whose leader takes no turn (Dead) still has it: the member with the
// highest Initiative that takes turns leads it (the union's Initiative,
// fixed for the round, l.11, is kept). False when no member can.
absl::StatusOr<bool> PromoteMember(Decision& d, const OrderEntry& e, uint64_t cause) {
  const State& s = d.state();
  std::string lead;
  for (const std::string& m : e.members) {
    const Combatant* c = s.Find(m);
    if (c == nullptr || !TakesTurn(*c)) continue;
    if (lead.empty() || Initiative(*c) > Initiative(*s.Find(lead))) lead = m;
  }
  if (lead.empty()) return false;
  std::vector<OrderEntry> order = s.order;
  const int idx = IndexOf(order, e.actor);
  if (idx < 0) return false;
  std::vector<std::string> members;
  for (const std::string& m : e.members) {
    if (m != lead) members.push_back(m);
  }
  order[idx].actor = lead;
  order[idx].members = members;
  RETURN_IF_ERROR(SetOrder(d, order, {cause, "004.union", {},
                                      absl::StrCat(e.actor, " takes no turn: ", lead,
                                                   " leads the union's turn (l.10)")}));
  return true;
}

}  // namespace

// What follows a turn's end happens by itself: the system's.
absl::Status Advance(Decision& d, uint64_t cause) {
  Decision::SystemSteps system(d);
  bool fresh = false;
  while (true) {
    const std::vector<OrderEntry> order = d.state().order;
    bool promoted = false;
    for (const OrderEntry& e : order) {
      if (e.delayed || Done(d.state(), e)) continue;
      if (!TakesTurn(*d.state().Find(e.actor))) {
        RETURN_IF_ERROR(ExpireAt(d, fb::ExpiryKind::TurnStart, e.actor, d.state().round,
                                 {cause, "004.duration.next_turn"}).status());
        RETURN_IF_ERROR(LoseTurn(d, e.actor, cause));
        ASSIGN_OR_RETURN(promoted, PromoteMember(d, e, cause));
        if (promoted) break;
        RETURN_IF_ERROR(LoseEntryTurn(d, e, true, cause));  // no member can take it
        continue;
      }
      return StartTurnOf(d, e, cause, "");
    }
    if (promoted) continue;  // the union's entry has a new leader: look again
    // l.8 "Should more than one creature hold their turn to the end of the
    // round, they will take turns according to their Initiative": by
    // Initiative, not by their places (an act-first or act-last place,
    // l.10, is not their Initiative); equal Initiatives keep their places
    // (the GM's tie order, l.7).
    std::vector<OrderEntry> held;
    for (const OrderEntry& e : order) {
      if (e.delayed) held.push_back(e);
    }
    std::stable_sort(held.begin(), held.end(), [](const OrderEntry& a, const OrderEntry& b) {
      return a.initiative > b.initiative;
    });
    for (const OrderEntry& e : held) {
      if (Done(d.state(), e)) continue;
      if (!TakesTurn(*d.state().Find(e.actor))) {
        RETURN_IF_ERROR(LoseTurn(d, e.actor, cause));
        ASSIGN_OR_RETURN(promoted, PromoteMember(d, e, cause));
        if (promoted) break;
        RETURN_IF_ERROR(LoseEntryTurn(d, e, false, cause));  // no member can take it
        continue;
      }
      return StartTurnOf(d, e, cause,
                         "held turn taken at the end of the round (l.8): end_turn "
                         "without acting loses it");
    }
    if (promoted) continue;
    if (fresh) return absl::OkStatus();  // nobody can take a turn
    const int64_t round = d.state().round;
    RETURN_IF_ERROR(EndRound(d, {cause, "004.round", {{"round", round}}}));
    RETURN_IF_ERROR(ExpireAt(d, fb::ExpiryKind::RoundEnd, "", round,
                             {cause, "004.round"}).status());
    RETURN_IF_ERROR(StartNewRound(d, cause));
    fresh = true;
  }
}

// l.7 "The creature with the highest Initiative goes first ... If two
// creatures have the same Initiative, the GM decides who goes first": a
// gm_order may reorder only entries of equal Initiative; it may not put one
// before an entry it followed with a different Initiative, nor set
// Initiatives (params): l.11 "Initiative is determined at the beginning of a
// round" (a change is gm_adjust initiative_mod, next round).
absl::Status CheckGmOrder(const State& s, const fb::CommandT& c) {
  for (const auto& p : c.params) {
    if (p && s.Find(p->key) != nullptr) {
      return Refuse("004.initiative.fixed",
                    "Initiative is determined at the beginning of a round (l.11): change it with gm_adjust "
                    "initiative_mod, from the next round; gm_order only decides ties (l.7)");
    }
  }
  for (size_t i = 0; i < c.targets.size(); ++i) {
    // l.10 "All creatures of a union have their turn at the same time": a
    // member is in the order through its union's entry (its leader), not
    // as an entry of its own, which would split the shared turn and give
    // the member an Initiative of 0 ahead of higher ones (l.7).
    if (IndexOf(s.order, c.targets[i]) < 0) {
      if (const int u = EntryOf(s.order, c.targets[i]); u >= 0) {
        return Refuse("004.union",
                      absl::StrCat("targets[", i, "]: ", c.targets[i], " takes its turn with its union (l.10): list the "
                                   "union's entry ", s.order[u].actor, " instead"));
      }
    }
  }
  for (size_t i = 0; i < c.targets.size(); ++i) {
    const int ia = IndexOf(s.order, c.targets[i]);
    if (ia < 0) continue;
    for (size_t j = i + 1; j < c.targets.size(); ++j) {
      const int ib = IndexOf(s.order, c.targets[j]);
      if (ib < 0 || ib > ia) continue;
      const OrderEntry& a = s.order[ia];
      const OrderEntry& b = s.order[ib];
      if (a.initiative != b.initiative) {
        return Refuse("004.initiative.tie",
                      absl::StrCat("only ties are the GM's (l.7): ", b.actor, " (", b.initiative,
                                   ") goes before ", a.actor, " (", a.initiative, ")"));
      }
    }
  }
  return absl::OkStatus();
}

namespace {

// What a gm_order handing `was`'s untouched turn on (l.7) reads from the
// log, in one pass: whether the turn is a held one taken up again (l.8, see
// AfterGmOrder), and what its start ended (BringBackTurnStartEnds).
struct HandOnLog {
  bool held = false;  // a TurnEnded of `was` this round by 004.hold.turn
  uint64_t started = 0;  // the seq of its TurnStarted this round
  std::map<uint32_t, std::pair<uint64_t, fb::ConditionAddedT>> added;  // id: (seq, as added)
  std::map<uint32_t, fb::PendingOpenedT> opened;
  std::vector<uint32_t> removed;  // conditions ended at its start this round
  std::vector<uint32_t> lapsed;   // held actions closed there
};

absl::StatusOr<HandOnLog> ReadHandOn(Decision& d, const std::string& was) {
  const int64_t round = d.state().round;
  const std::vector<uint64_t> voided = d.state().voided;
  HandOnLog log;
  uint64_t start = 0;  // the TurnStarted's cause
  bool run = false;    // in that start's events
  RETURN_IF_ERROR(d.Scan(d.state().seq, [&](const fb::Event& e) -> absl::Status {
    if (IsVoided(e, voided)) return absl::OkStatus();
    const fb::StateChange* sc = e.body_as_StateChange();
    if (run && (sc == nullptr || sc->cause() != start)) run = false;
    if (sc == nullptr) return absl::OkStatus();
    if (const auto* a = sc->change_as_ConditionAdded()) {
      fb::ConditionAddedT t;
      a->UnPackTo(&t);
      log.added[a->id()] = {e.seq(), std::move(t)};
    } else if (const auto* p = sc->change_as_PendingOpened()) {
      p->UnPackTo(&log.opened[p->id()]);
    } else if (const auto* t = sc->change_as_TurnStarted()) {
      if (t->actor() != nullptr && t->actor()->str() == was && t->round() == round) {
        start = sc->cause();
        run = true;
        log.started = e.seq();
        log.removed.clear();
        log.lapsed.clear();
      }
    } else if (const auto* t = sc->change_as_TurnEnded()) {
      if (t->round() == round && t->actor() != nullptr && t->actor()->str() == was &&
          sc->rule() != nullptr && sc->rule()->str() == "004.hold.turn") {
        log.held = true;
      }
    } else if (run && sc->rule() != nullptr && sc->rule()->str() == "004.duration.next_turn") {
      if (const auto* r = sc->change_as_ConditionRemoved()) log.removed.push_back(r->id());
      const auto* c = sc->change_as_PendingClosed();
      if (c != nullptr && c->outcome() != nullptr && c->outcome()->str() == "lapsed") {
        log.lapsed.push_back(c->id());
      }
    }
    return absl::OkStatus();
  }));
  return log;
}

// l.8 "Any effects that last until a creature's next turn stop when their
// turn would normally start": a gm_order handing `was`'s untouched turn on
// (l.7) puts its start later in the round, so what its handed-on start ended
// (Defending l.18, Taking Cover l.25, Commanding l.33, a held action l.9, a
// GM's "until its next turn") lasts until then: each is recorded again as it
// was (its expiry the same turn start, its daughters under it), from the
// log (`log`, ReadHandOn): the ConditionAdded / PendingOpened of what that
// start's expiries (004.duration.next_turn, the TurnStarted's cause)
// removed or closed.
absl::Status BringBackTurnStartEnds(Decision& d, const std::string& was, HandOnLog log,
                                    uint64_t ruling) {
  auto& added = log.added;
  auto& opened = log.opened;
  auto& removed = log.removed;
  auto& lapsed = log.lapsed;
  const std::string note = absl::StrCat(
      "back: the GM's order puts ", was, "'s turn start later this round (l.7); an effect until its next turn "
      "lasts until then (l.8)");
  // Parents before daughters: the order they were added in.
  std::sort(removed.begin(), removed.end(), [&](uint32_t a, uint32_t b) {
    return added[a].first < added[b].first;
  });
  std::map<uint32_t, uint32_t> renamed;  // old id: new id
  for (const uint32_t id : removed) {
    auto it = added.find(id);
    if (it == added.end()) continue;
    const fb::ConditionAddedT& a = it->second.second;
    NewCondition k = AsNew(a);
    k.parent = 0;
    if (renamed.count(a.parent) > 0) {
      k.parent = renamed[a.parent];
    } else {
      for (const auto& [cid, other] : d.state().combatants) {  // a parent still in effect
        if (a.parent != 0 && other.conditions.count(a.parent) > 0) k.parent = a.parent;
      }
    }
    ASSIGN_OR_RETURN(const uint32_t now, AddCondition(d, k, {ruling, "004.duration.next_turn", {}, note}));
    renamed[id] = now;
  }
  for (const uint32_t id : lapsed) {
    auto it = opened.find(id);
    if (it == opened.end() || !it->second.command) continue;
    const NewPending p = AsNew(it->second);
    RETURN_IF_ERROR(OpenPending(d, p, {ruling, "004.duration.next_turn", {}, note}).status());
  }
  return absl::OkStatus();
}

// l.8 "Any effects that last until the end of a creature's turn keep being
// in effect until a creature ends their turn or they lose it", l.31 "until
// the end of their next turn": an effect set on a creature while its
// untouched turn ran ends with the end of its next turn, counted from the
// running one (the next round's). A gm_order handing that turn on (l.7)
// makes the running one no turn of the creature's: its next turn is the one
// it takes in its new place this round, so what was to end at the end of
// the next round's turn of a taker of `takers` ends at the end of this
// round's: recorded again with that expiry (its daughters under it).
// Likewise l.8 "Any effects that last until a creature's next turn stop
// when their turn would normally start": when the turn handed on was taken
// at its place (`from_place`), its start was handed on with it
// (BringBackTurnStartEnds), so what was set during it to last until the
// next round's turn start of a taker (a GM's condition until its next turn)
// ends at its turn start in its new place; what was set before that turn
// started (`started`, its TurnStarted's seq) to last through it keeps the
// next round's. A turn held to the end of the round (not `from_place`)
// would normally have started at its place, passed already: what lasts
// until its next turn start keeps the next round's.
absl::Status BringForwardNextTurnEnds(Decision& d, const std::vector<std::string>& takers,
                                      bool from_place, uint64_t started, uint64_t ruling) {
  const int64_t round = d.state().round;
  auto to = [&](const Condition& k) -> std::optional<Expiry> {
    const bool kind = k.expiry.kind == fb::ExpiryKind::TurnEnd ||
                      (from_place && k.expiry.kind == fb::ExpiryKind::TurnStart && k.added_at > started);
    if (!kind || k.expiry.round != round + 1 ||
        std::find(takers.begin(), takers.end(), k.expiry.actor) == takers.end()) {
      return std::nullopt;
    }
    return Expiry{k.expiry.kind, k.expiry.actor, round};
  };
  const std::string end = "the GM's order hands the turn on (l.7): its next turn is the one it takes later "
                          "this round, and the effect ends with it (l.8, l.31)";
  const std::string start = "the GM's order hands the turn on (l.7): its next turn starts in its new place this "
                            "round, and the effect stops there (l.8)";
  return ReAnchor(d, to, [&](const Condition& k) {
    return k.expiry.kind == fb::ExpiryKind::TurnStart ? Why{ruling, "004.duration.next_turn", {}, start}
                                                      : Why{ruling, "004.duration.end_turn", {}, end};
  });
}

}  // namespace

// l.7 "If two creatures have the same Initiative, the GM decides who goes
// first": a gm_order made while the running turn is still untouched (no AP,
// movement, free Interact / Switch Weapons used, not a held turn taken up
// again by `resume`) and that puts another creature first hands the turn to
// that creature at once, so the GM's ruling at the start of the round is the
// order of this round too; among turns held to the end of the round (l.8 "by
// their Initiative") the same.
absl::Status AfterGmOrder(Decision& d, uint64_t ruling) {
  const State& s = d.state();
  if (s.active.empty()) return absl::OkStatus();
  const int idx = IndexOf(s.order, s.active);
  if (idx < 0) return absl::OkStatus();
  for (const std::string& who : TurnTakers(s)) {
    const Combatant* t = s.Find(who);
    if (Acted(*t)) return absl::OkStatus();
  }
  // The first turn still to take: of the turns not held, or (a held turn
  // taken at the end of the round running) of the held ones, which l.8 has
  // "take turns according to their Initiative", ties the GM's (l.7), as
  // Advance takes them.
  std::vector<OrderEntry> next;
  for (const OrderEntry& e : s.order) {
    if (e.delayed == s.order[idx].delayed) next.push_back(e);
  }
  if (s.order[idx].delayed) {
    std::stable_sort(next.begin(), next.end(), [](const OrderEntry& a, const OrderEntry& b) {
      return a.initiative > b.initiative;
    });
  }
  for (const OrderEntry& e : next) {
    if (Done(s, e) || !TakesTurn(*s.Find(e.actor))) continue;
    if (e.actor == s.active) return absl::OkStatus();  // still first
    break;
  }
  const std::string was = s.active;
  const bool from_place = !s.order[idx].delayed;
  // l.8 "hold their turn and take it later": a held turn taken up again is
  // taken when its creature chose, not at a place its Initiative gives; the
  // GM's tie (l.7) does not hand it on.
  // Whether it is (a TurnEnded of this round by 004.hold.turn) is read in
  // the one pass that also reads what its start ended.
  ASSIGN_OR_RETURN(HandOnLog log, ReadHandOn(d, was));
  if (from_place && log.held) return absl::OkStatus();
  const std::vector<std::string> takers = TurnTakers(s);
  RETURN_IF_ERROR(EndTurn(d, was, {ruling, "004.initiative.tie", {},
                                   "the GM's order puts another first: " + was +
                                       " had not acted and takes its turn in its new place"}));
  const uint64_t started = log.started;
  RETURN_IF_ERROR(BringBackTurnStartEnds(d, was, std::move(log), ruling));
  RETURN_IF_ERROR(BringForwardNextTurnEnds(d, takers, from_place, started, ruling));
  return Advance(d, ruling);
}

// l.8 "Any effects that last until the end of a creature's turn keep being
// in effect until a creature ends their turn or they lose it": a creature
// made Dead (the GM's: death is outside this chapter) during its own turn
// cannot act (reading: the Dead cannot act), so it cannot end its turn
// either: the turn is lost at once, as a Dead creature's skipped turn is
// (LoseTurn), and the next creature takes its turn. A union's shared turn
// goes on while one of its creatures can act (l.10).
absl::Status AfterGmCondition(Decision& d, uint64_t ruling) {
  const State& s = d.state();
  if (s.active.empty()) return absl::OkStatus();
  const std::vector<std::string> takers = TurnTakers(s);
  for (const std::string& who : takers) {
    if (TakesTurn(*s.Find(who))) return absl::OkStatus();
  }
  const std::string lead = s.active;
  const int64_t round = s.round;
  {
    Decision::SystemSteps system(d);  // the lost turn ends by itself
    for (const std::string& who : takers) {
      RETURN_IF_ERROR(LoseTurn(d, who, ruling));  // recorded as taken (turn_round)
    }
    RETURN_IF_ERROR(EndTurn(d, lead, {ruling, "004.duration.end_turn", {{"round", round}},
                                      lead + " cannot act (Dead): its turn is lost (l.8)"}));
  }
  return Advance(d, ruling);
}

absl::Status BeginCombat(Decision& d) {
  Decision::SystemSteps system(d);  // the start of combat
  RETURN_IF_ERROR(StartNewRound(d, 0));
  return Advance(d, 0);
}

absl::Status CheckAp(const State& s, const Combatant& actor, int64_t ap,
                     const std::string& rule) {
  if (!Alive(actor)) return Refuse(rule, actor.id + " cannot act");
  if (!s.IsTurnOf(actor.id) && ap <= 0) {
    // The free Interact with Target / Switch Weapons costs no AP: it is
    // taken "on your turn" (l.19, l.24; `rule` cites the action's line).
    return Refuse(rule, absl::StrCat("the free one is made on your own turn: it is ",
                                     s.active.empty() ? "nobody" : s.active, "'s turn, not ",
                                     actor.id, "'s"));
  }
  if (!s.IsTurnOf(actor.id)) {
    return Refuse("004.budget.ap", absl::StrCat("AP are spent on your own turn: it is ",
                                                s.active.empty() ? "nobody" : s.active,
                                                "'s turn, not ", actor.id, "'s"));
  }
  if (actor.Resource(kAp) < ap) {
    // The budget is l.6's; the cost is the act's own line (`rule`), named too.
    return Refuse("004.budget.ap", absl::StrCat(actor.id, " has ", actor.Resource(kAp),
                                                " AP left and this needs ", ap,
                                                rule == "004.budget.ap" ? "" : " (" + Cite(rule) + ")"));
  }
  return absl::OkStatus();
}

absl::Status SpendAp(Decision& d, const std::string& who, int64_t ap,
                     uint64_t cause, const std::string& rule) {
  if (ap <= 0) return absl::OkStatus();
  RETURN_IF_ERROR(AddResource(d, who, kAp, -ap, {cause, rule, {{"ap", ap}}, "AP spent"}).status());
  return AddResource(d, who, kApUsed, ap, {cause, rule, {{"ap", ap}}}).status();
}

absl::Status CheckRp(const State& s, const Combatant& actor, int64_t rp,
                     const std::string& rule) {
  (void)s;
  if (!Alive(actor)) return Refuse(rule, actor.id + " cannot react");
  if (actor.Resource(kRp) < rp) {
    return Refuse("004.budget.rp", absl::StrCat(actor.id, " has ", actor.Resource(kRp),
                                                " RP left this round and this needs ", rp));
  }
  return absl::OkStatus();
}

absl::Status SpendRp(Decision& d, const std::string& who, int64_t rp,
                     uint64_t cause, const std::string& rule) {
  if (rp <= 0) return absl::OkStatus();
  RETURN_IF_ERROR(AddResource(d, who, kRp, -rp, {cause, rule, {{"rp", rp}}, "RP spent"}).status());
  return AddResource(d, who, kRpUsed, rp, {cause, rule, {{"rp", rp}}}).status();
}

// The round of `who`'s next turn start: this round if its place in the
// order is still to come, else the next (reading of l.8). For the end of its
// next turn (`end`), a turn it holds and has not yet taken this round is its
// next turn: "until the end of their next turn" (l.31) ends with it (l.8:
// "until a creature ends their turn or they lose it"); its start, though,
// has passed ("stop when their turn would normally start even if the
// creature decides to hold their turn").
static int64_t NextTurnRound(const State& s, const std::string& who, bool end = false) {
  const Combatant* c = s.Find(who);
  if (c == nullptr) return s.round + 1;
  const bool running = s.IsTurnOf(who);
  if (running || c->Resource(kTurnRound) >= s.round) return s.round + 1;
  const int active = IndexOf(s.order, s.active);
  for (size_t i = 0; i < s.order.size(); ++i) {
    const OrderEntry& e = s.order[i];
    const bool mine = e.actor == who ||
                      std::find(e.members.begin(), e.members.end(), who) != e.members.end();
    if (!mine) continue;
    // A creature that takes no turn (Dead) whose place this round has been
    // passed (skipped: its turn lost, l.8): the next round's place. A held
    // turn taken at the end of the round (l.8, the running entry still
    // `delayed`) comes after every place that is not held.
    const bool passed = active >= 0 && (static_cast<int>(i) < active || s.order[active].delayed);
    if (!TakesTurn(*c) && !e.delayed && passed) return s.round + 1;
    return e.delayed && !end ? s.round + 1 : s.round;
  }
  return s.round + 1;
}

Expiry UntilNextTurn(const State& s, const std::string& who) {
  return Expiry{fb::ExpiryKind::TurnStart, who, NextTurnRound(s, who)};
}

Expiry EndOfNextTurn(const State& s, const std::string& who) {
  return Expiry{fb::ExpiryKind::TurnEnd, who, NextTurnRound(s, who, true)};
}

absl::Status DecideEndTurn(const fb::CommandT& c, Decision& d) {
  ASSIGN_OR_RETURN(const Combatant* a, Actor(d.state(), c));
  if (!d.state().IsTurnOf(a->id)) {
    return Refuse("004.round", absl::StrCat("it is not ", a->id, "'s turn (it is ",
                                            d.state().active, "'s)"));
  }
  const std::vector<std::string> takers = TurnTakers(d.state());
  const std::string lead = d.state().active;
  const int64_t round = d.state().round;
  const int idx = IndexOf(d.state().order, lead);
  const bool held = idx >= 0 && d.state().order[idx].delayed;
  // l.8 "If any of those creatures refuse, they lose their turn": a held
  // turn ended with no one acting; a union's shared turn is taken when any
  // member acts in it (l.10 "can alternate their actions").
  bool acted = false;
  for (const std::string& who : takers) acted = acted || Acted(*d.state().Find(who));
  const bool lost = held && !acted;
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  for (const std::string& who : takers) {
    Decision::SystemSteps system(d);  // expiries at the turn's end happen by themselves
    // l.8: effects until the end of the turn last until it ends or is lost.
    RETURN_IF_ERROR(ExpireAt(d, fb::ExpiryKind::TurnEnd, who, round,
                             {decl, "004.duration.end_turn"}).status());
    RETURN_IF_ERROR(SetResource(d, who, kTurnRound, round, {decl, "004.round"}));
  }
  RETURN_IF_ERROR(EndTurn(d, lead, {decl, held ? "004.hold.turn" : "004.round",
                                    {{"round", round}},
                                    lost ? "refused the held turn: it is lost (l.8)" : ""}));
  return Advance(d, decl);
}

absl::Status DecideHoldTurn(const fb::CommandT& c, Decision& d) {
  ASSIGN_OR_RETURN(const Combatant* a, Actor(d.state(), c));
  const State& s = d.state();
  if (!s.IsTurnOf(a->id)) {
    return Refuse("004.hold.turn", absl::StrCat("only the creature whose turn it is holds it (it is ",
                                                s.active, "'s turn)"));
  }
  for (const std::string& who : TurnTakers(s)) {
    const Combatant* t = s.Find(who);
    // l.8 "hold their turn and take it later": the one turn, held whole
    // (reading), so not after its free Interact / Switch Weapons either
    // (l.19 "one free Interact with Target action on your turn": holding
    // after it would give the held turn a second one).
    if (Acted(*t)) {
      return Refuse("004.hold.turn", who + " already acted this turn: a turn is held whole");
    }
  }
  const int idx = IndexOf(s.order, s.active);
  if (idx < 0 || s.order[idx].delayed) {
    return Refuse("004.hold.turn", a->id + " already holds its turn: take it or end it");
  }
  const std::string who = s.active;  // a union holds its shared turn together
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  std::vector<OrderEntry> order = d.state().order;
  order[idx].delayed = true;
  RETURN_IF_ERROR(SetOrder(d, order, {decl, "004.hold.turn", {{"place", idx}},
                                      who + " holds its turn"}));
  RETURN_IF_ERROR(EndTurn(d, who, {decl, "004.hold.turn", {}, "held: resume later this round"}));
  return Advance(d, decl);
}

absl::Status DecideResume(const fb::CommandT& c, Decision& d) {
  ASSIGN_OR_RETURN(const Combatant* a, Actor(d.state(), c));
  const State& s = d.state();
  // l.8 "Any Participant can hold their turn and take it later", l.10 a
  // union's turn is its members' together: any member takes the held
  // shared turn (its entry is the leader's). The Dead cannot act (reading):
  // a Dead holder's held turn is lost when the order reaches it.
  if (!Alive(*a)) {
    return Refuse("004.hold.turn", a->id + " cannot act (Dead): its held turn is lost (l.8)");
  }
  const int mine = EntryOf(s.order, a->id);
  if (mine < 0 || !s.order[mine].delayed || a->Resource(kTurnRound) >= s.round) {
    return Refuse("004.hold.turn", a->id + " holds no turn this round");
  }
  if (s.active.empty() || s.IsTurnOf(a->id)) {
    return Refuse("004.hold.turn", "a held turn is taken after the running turn: resume during another's turn");
  }
  const std::string current = s.active;
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  std::vector<OrderEntry> order = d.state().order;
  OrderEntry moved = order[mine];
  moved.delayed = false;
  order.erase(order.begin() + mine);
  const int at = IndexOf(order, current);
  order.insert(order.begin() + at + 1, moved);
  return SetOrder(d, order, {decl, "004.hold.turn", {},
                             absl::StrCat(a->id, " takes its held turn after ", current, "'s")});
}

namespace {

// l.10 "Two or more allies can decide to act as a union": `leaving` quit
// their unions (joining another, or `leave_union`); an old union left with
// one creature is no union, so that creature acts alone again from the
// next round (an ordinary entry of the order, not a one-member union).
absl::Status DissolveLoneUnions(Decision& d, const std::vector<std::string>& leaving,
                                uint64_t decl) {
  std::vector<std::string> names;
  for (const std::string& id : leaving) {
    const std::string u = UnionOf(*d.state().Find(id));
    if (!u.empty() && std::find(names.begin(), names.end(), u) == names.end()) names.push_back(u);
  }
  for (const std::string& u : names) {
    std::vector<std::string> rest;
    for (const auto& [id, c] : d.state().combatants) {
      if (UnionOf(c) == u && std::find(leaving.begin(), leaving.end(), id) == leaving.end()) {
        rest.push_back(id);
      }
    }
    if (rest.size() != 1) continue;
    RETURN_IF_ERROR(RemoveConditionsNamed(d, rest.front(), kUnion,
                                          {decl, "004.union", {},
                                           "its union has no other member left: acts alone from the "
                                           "start of the next round (l.10 \"Two or more allies\")"}));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status DecideFormUnion(const fb::CommandT& c, Decision& d) {
  ASSIGN_OR_RETURN(const Combatant* a, Actor(d.state(), c));
  if (c.targets.empty()) return Malformed(c, "targets", "the allies joining the union (l.10)");
  // l.10 "allies can decide": the Dead cannot act (reading), as actor nor as ally.
  if (!Alive(*a)) return Refuse("004.union", a->id + " cannot act");
  std::vector<std::string> ids = {a->id};
  for (size_t i = 0; i < c.targets.size(); ++i) {
    ASSIGN_OR_RETURN(const Combatant* t, Target(d.state(), c, i));
    if (t->side != a->side) return Refuse("004.union", t->id + " is not an ally of " + a->id);
    if (!Alive(*t)) return Refuse("004.union", t->id + " cannot act");
    if (t->id == a->id) {
      // l.10 "Two or more allies": the actor is in its union already.
      return Malformed(c, absl::StrCat("targets[", i, "]"),
                       "'" + t->id + "' is the actor, who joins its own union already: name only the other allies (l.10 \"Two or more allies\")");
    }
    if (std::find(ids.begin(), ids.end(), t->id) != ids.end()) {
      return Malformed(c, absl::StrCat("targets[", i, "]"),
                       "'" + t->id + "' is named twice: name each other ally once (l.10)");
    }
    ids.push_back(t->id);
  }
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  const std::string name = absl::StrJoin(ids, "+");
  RETURN_IF_ERROR(DissolveLoneUnions(d, ids, decl));
  for (const std::string& id : ids) {
    RETURN_IF_ERROR(RemoveConditionsNamed(d, id, kUnion, {decl, "004.union", {}, "leaves its union"}));
    NewCondition u;
    u.actor = id;
    u.name = kUnion;
    u.source = a->id;
    u.note = name;
    RETURN_IF_ERROR(AddCondition(d, u, {decl, "004.union", {},
                                        "acts as a union from the start of the next round (l.10)"}).status());
  }
  return absl::OkStatus();
}

// l.6: "They can use their AP for all kinds of actions" and "RP can be used
// to act outside your turn but usually require specific features or
// Abilities": a feature or Ability of another chapter, its cost paid here,
// its effect the GM's (gm_* verbs).
absl::Status DecideUseFeature(const fb::CommandT& c, Decision& d) {
  ASSIGN_OR_RETURN(const Combatant* a, Actor(d.state(), c));
  if (c.text.empty()) return Malformed(c, "text", "the feature or Ability used");
  const int64_t ap = ParamOr(c, "ap", 0);
  const int64_t rp = ParamOr(c, "rp", 0);
  if (ap + rp == 0) return Malformed(c, "params.ap", "the AP (or params.rp the RP) it costs");
  if (ap > 0) RETURN_IF_ERROR(CheckAp(d.state(), *a, ap, "004.budget.ap"));
  if (rp > 0) RETURN_IF_ERROR(CheckRp(d.state(), *a, rp, "004.budget.rp"));
  const std::string who = a->id;
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  RETURN_IF_ERROR(SpendAp(d, who, ap, decl, "004.budget.ap"));
  RETURN_IF_ERROR(SpendRp(d, who, rp, decl, "004.budget.rp"));
  if (rp > 0 && ap == 0 && d.state().IsTurnOf(who)) {
    // l.6 "RP can be used to act": a feature paid with RP on one's own turn
    // is acting on the turn (its AP would show in ap_used), so a later
    // gm_order (l.7) does not hand the turn on nor can it be held whole (l.8).
    RETURN_IF_ERROR(SetResource(d, who, kFeatureActed, 1, {decl, "004.budget.rp"}));
  }
  return RecordOutcome(d, who, {decl, rp > 0 ? "004.budget.rp" : "004.budget.ap", {{"ap", ap}, {"rp", rp}},
                                c.text + " (its effect is the GM's)"});
}

absl::Status DecideLeaveUnion(const fb::CommandT& c, Decision& d) {
  ASSIGN_OR_RETURN(const Combatant* a, Actor(d.state(), c));
  if (!a->Has(kUnion)) return Refuse("004.union", a->id + " is in no union");
  // l.10 "allies can decide": leaving is a decision; the Dead cannot act (reading).
  if (!Alive(*a)) return Refuse("004.union", a->id + " cannot act");
  const std::string who = a->id;
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  RETURN_IF_ERROR(DissolveLoneUnions(d, {who}, decl));
  return RemoveConditionsNamed(d, who, kUnion, {decl, "004.union", {},
                                                "acts alone from the start of the next round (l.10)"});
}

}  // namespace combat::kernel::aprp
