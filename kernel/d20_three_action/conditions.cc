// Condition helpers: budgets from conditions, duration anchors, Prone and
// grapple bookkeeping, and revealing hidden creatures.
#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "events/status_macros.h"
#include "kernel/d20_three_action/internal.h"
#include "kernel/space.h"

namespace combat::kernel::d20 {

bool IsDead(const Combatant& c) { return c.Has(kDead); }

bool IsHelpless(const Combatant& c) {
  return c.Has(kStunned) || c.Has(kUnconscious);
}

bool Hostile(const Combatant& a, const Combatant& b) {
  return a.side != b.side;
}

int64_t SizeRank(const Combatant& c) { return c.Stat("size_rank", c.size); }

std::vector<const Condition*> Named(const Combatant& c, std::string name) {
  std::vector<const Condition*> out;
  for (const auto& [id, cond] : c.conditions) {
    if (cond.name == name) out.push_back(&cond);
  }
  return out;
}

namespace {

// Budget = base - Slowed (1, L162) - Incapacitated (2, L152), minimum 0
// ("per Turn": an allotment). Stunned (L164) and Unconscious (L168) "can
// take no Actions, Reactions or Free Actions": that is checked on every act
// (turns.cc:CheckCanAct) while they last, and takes nothing from the
// allotment, so a Reaction got on a Stunned Turn (L19 "starting on their
// Turn and expiring the start of their next Turn") is usable once the stun
// ends.
int64_t Budget(const Combatant& c, int64_t base, const char* what, Nums* nums) {
  int64_t v = base;
  if (nums != nullptr) nums->push_back({absl::StrCat(what, ".base"), base});
  auto add = [&](const char* key, int64_t value, const char* name,
                 const char* rule) {
    if (nums != nullptr) nums->push_back({key, value, On(name, c.id), rule});
  };
  if (c.Has(kSlowed)) {
    v -= 1;
    add("slowed", -1, kSlowed, "000.slowed");
  }
  if (c.Has(kIncapacitated)) {
    v -= 2;
    add("incapacitated", -2, kIncapacitated, "000.incapacitated");
  }
  return std::max<int64_t>(0, v);
}

}  // namespace

int64_t ActionBudget(const Combatant& c, Nums* nums) {
  return Budget(c, 3, "actions", nums);  // L15: three Actions
}

int64_t ReactionBudget(const Combatant& c, Nums* nums) {
  return Budget(c, 1, "reactions", nums);  // L19: 1 Reaction per Round
}

std::string TurnOwner(const State& s, std::string who) {
  return s.active.empty() ? who : s.active;
}

Expiry ForRounds(const State& s, std::string who, int64_t rounds) {
  return Expiry{fb::ExpiryKind::TurnStart, TurnOwner(s, who), s.round + rounds};
}

namespace {

// A Round's duration (L13): anchored at a turn start, not "until your next
// Turn" (a critical Feint, L53, follows its feinter).
bool IsRoundAnchor(const Condition& c) {
  return c.expiry.kind == fb::ExpiryKind::TurnStart &&
         c.note != kUntilYourNextTurn;
}

// For kernel ReAnchor: `to` moves the Round durations only.
template <typename To>
auto RoundAnchors(const To& to) {
  return [&to](const Condition& c) -> std::optional<Expiry> {
    if (!IsRoundAnchor(c)) return std::nullopt;
    return to(c.expiry);
  };
}

}  // namespace

absl::Status KeepRoundAnchors(Decision& d, const std::string& who,
                              const std::vector<OrderEntry>& old_order,
                              uint64_t cause) {
  const State& s = d.state();
  int mine = -1;
  for (size_t i = 0; i < old_order.size(); ++i) {
    if (old_order[i].actor == who) mine = static_cast<int>(i);
  }
  if (mine < 0) return absl::OkStatus();
  const bool has_next = mine + 1 < static_cast<int>(old_order.size());
  // L13 "it will end after all other Creatures have gotten a Turn": the old
  // place of a creature that was first is the round's start, right after
  // the last other creature's turn of the round before; moved to the last
  // place, it now comes between that turn and the round's start, so those
  // Rounds end where its own turn comes, a round earlier (for a held turn,
  // as it resumes: turns.cc:StartTurnOf). The Dead get no Turn (L140):
  // only Dead creatures before its old place, it was first; only Dead ones
  // after its new place, it is last.
  const std::vector<OrderEntry>& new_order = s.order;
  auto dead = [&](const OrderEntry& e) {
    const Combatant* c = s.Find(e.actor);
    return c != nullptr && IsDead(*c);
  };
  bool first_to_last = old_order.size() > 1;
  for (int i = 0; i < mine; ++i) {
    first_to_last = first_to_last && dead(old_order[i]);
  }
  bool after_new = false;
  bool found = false;
  for (const OrderEntry& e : new_order) {
    if (after_new) first_to_last = first_to_last && dead(e);
    if (e.actor == who) after_new = found = true;
  }
  first_to_last = first_to_last && found;
  // Otherwise the last Turn before its old place is that of the last living
  // creature ahead of it (round R), or, none being ahead, the round before's
  // last (it was first): the Round ends as that Turn ends, before the next
  // place's turn start and its continuous Effects (L13; was: at the next
  // creature's turn start, after its On fire or Poison). A delaying one's
  // original place still counts as its place (README "1 Round"): the Round
  // ends as that place passes, after its own Effects there (L15), before
  // the next place's turn start (was: at the next place's turn start, after
  // its continuous Effects).
  std::string prev;
  bool prev_delays = false;
  for (int i = mine - 1; i >= 0 && prev.empty(); --i) {
    if (dead(old_order[i])) continue;
    prev = old_order[i].actor;
    prev_delays = old_order[i].delayed;
  }
  auto to = [&](const Expiry& e) -> std::optional<Expiry> {
    if (e.actor != who) return std::nullopt;
    if (first_to_last) {
      return Expiry{fb::ExpiryKind::TurnStart, who, e.round - 1};
    }
    if (!has_next) return Expiry{fb::ExpiryKind::RoundEnd, "", e.round};
    if (prev.empty()) return Expiry{fb::ExpiryKind::RoundEnd, "", e.round - 1};
    if (prev_delays) return Expiry{fb::ExpiryKind::TurnStart, prev, e.round};
    return Expiry{fb::ExpiryKind::TurnEnd, prev, e.round};
  };
  auto why_of = [&](const Condition& root) {
    return Why{
        cause,
        "000.duration.round",
        {{"until_round", root.expiry.round}},
        absl::StrCat(
            "a Round's duration stays at ", who,
            "'s place in the order (L13): it ends ",
            first_to_last
                ? absl::StrCat("after every other creature's turn of round ",
                               root.expiry.round - 1, ", as ", who,
                               "'s turn comes")
            : !has_next     ? std::string("with the round")
            : prev.empty()  ? absl::StrCat("with round ", root.expiry.round - 1)
            : prev_delays   ? "as " + prev + "'s original place passes (delaying)"
                            : "when " + prev + "'s turn ends")};
  };
  return ReAnchor(d, RoundAnchors(to), why_of);
}

absl::Status KeepRoundPlacesOnReorder(
    Decision& d, const std::vector<OrderEntry>& old_order, uint64_t cause) {
  const State& s = d.state();
  const std::vector<OrderEntry> order = s.order;  // the GM's new order
  const int64_t now = s.round;
  const std::string active = s.active;
  auto index_in = [](const std::vector<OrderEntry>& o, const std::string& id) {
    for (size_t i = 0; i < o.size(); ++i) {
      if (o[i].actor == id) return static_cast<int>(i);
    }
    return -1;
  };
  auto dead = [&](const std::string& id) {
    const Combatant* c = s.Find(id);
    return c == nullptr || IsDead(*c);
  };
  // Its place of this round passed: its Turn taken, or its original place,
  // delaying (L15), passed.
  auto done = [&](const OrderEntry& e) {
    const Combatant* c = s.Find(e.actor);
    return c == nullptr || c->Resource(kTurnRound) >= now ||
           (e.delayed && c->Resource(kSotRound) >= now);
  };
  // Where a creature's place of round q comes, from now on: this round, the
  // running Turn first and then the places not yet passed in the new order
  // (turns.cc:Advance); later rounds, the new order.
  using Key = std::pair<int64_t, int>;
  auto key = [&](int64_t q, const std::string& id) {
    return Key{q, q == now && id == active ? -1 : index_in(order, id)};
  };
  // L13 "it will end after all other Creatures have gotten a Turn": the
  // Round anchored at X's turn start of round R in the old order ends once
  // each other creature has had the Turn the old order gave it before that
  // place (round R for those ahead of X, round R - 1 for those behind), and
  // ends at the place that comes next in the new order (a turn start, so
  // after that place's continuous Effects: README "1 Round").
  auto to = [&](const Expiry& e) -> std::optional<Expiry> {
    const int x = index_in(old_order, e.actor);
    if (x < 0 || index_in(order, e.actor) < 0) return std::nullopt;
    std::optional<Key> last;
    for (size_t i = 0; i < old_order.size(); ++i) {
      const OrderEntry& y = old_order[i];
      if (static_cast<int>(i) == x || dead(y.actor)) continue;
      const int64_t q = static_cast<int>(i) < x ? e.round : e.round - 1;
      const int at = index_in(order, y.actor);
      if (q < now || at < 0 || (q == now && done(order[at]))) continue;
      const Key k = key(q, y.actor);
      if (!last.has_value() || *last < k) last = k;
    }
    if (!last.has_value()) return std::nullopt;  // nothing left to wait for
    // The next place after it: alive (or X's own), not yet passed this
    // round; else the first of the next round if X's own, or that round's end.
    auto place = [&](int64_t q, int after) -> std::optional<Expiry> {
      for (size_t i = 0; i < order.size(); ++i) {
        const OrderEntry& z = order[i];
        if (static_cast<int>(i) <= after) continue;
        if (z.actor != e.actor && dead(z.actor)) continue;
        if (q == now && (z.actor == active || done(z))) continue;
        return Expiry{fb::ExpiryKind::TurnStart, z.actor, q};
      }
      return std::nullopt;
    };
    std::optional<Expiry> end = place(last->first, last->second);
    // A place follows that last Turn in its round: the Round ends as that
    // Turn ends, before the place's turn start and its continuous Effects
    // (L13; was: after them), as KeepRoundAnchors ends one; a delaying
    // creature's original place still counts as its place: the Round ends
    // as it passes, after its own Effects there (L15; was: at the next
    // place's turn start, after that place's continuous Effects).
    const std::string last_actor =
        last->second < 0 ? active : order[last->second].actor;
    const bool last_delays = last->second >= 0 && order[last->second].delayed;
    if (end.has_value() && (end->actor != e.actor || end->round != e.round)) {
      return Expiry{last_delays ? fb::ExpiryKind::TurnStart
                                : fb::ExpiryKind::TurnEnd,
                    last_actor, last->first};
    }
    // No place after it in that round: the Round ends with the round, right
    // after that last Turn, before the next round's first turn start and its
    // continuous Effects (L13 "after all other Creatures have gotten a
    // Turn"), as KeepRoundAnchors ends one whose creature was last; unless
    // that first place is X's own of round R, where it ended already.
    if (!end.has_value()) {
      end = place(last->first + 1, -1);
      if (!end.has_value() || end->actor != e.actor ||
          end->round != e.round) {
        end = Expiry{fb::ExpiryKind::RoundEnd, "", last->first};
      }
    }
    if (end->actor == e.actor && end->round == e.round) return std::nullopt;
    return end;
  };
  // Decided before any event (the state is replaced on each).
  std::map<std::pair<std::string, int64_t>, std::optional<Expiry>> moves;
  for (const auto& [id, c] : s.combatants) {
    for (const auto& [cid, cond] : c.conditions) {
      if (!IsRoundAnchor(cond)) continue;
      const auto k = std::make_pair(cond.expiry.actor, cond.expiry.round);
      if (moves.count(k) == 0) moves[k] = to(cond.expiry);
    }
  }
  auto moved = [moves](const Expiry& e) -> std::optional<Expiry> {
    auto it = moves.find({e.actor, e.round});
    return it == moves.end() ? std::nullopt : it->second;
  };
  auto why_of = [&](const Condition& root) {
    const std::optional<Expiry> end = moved(root.expiry);
    return Why{cause,
               "000.duration.round",
               {{"until_round", end->round}},
               absl::StrCat("a Round's duration stays at ", root.expiry.actor,
                            "'s old place in the order (L13), after every "
                            "other creature's Turn: it ends ",
                            end->kind == fb::ExpiryKind::RoundEnd
                                ? "with round "
                            : absl::StrCat(
                                  "when ", end->actor,
                                  end->kind == fb::ExpiryKind::TurnEnd
                                      ? "'s turn ends in round "
                                      : "'s turn starts in round "),
                            end->round)};
  };
  return ReAnchor(d, RoundAnchors(moved), why_of);
}

Expiry UntilNextTurnOf(const State& s, const std::string& who) {
  // A companion's turn is its controller's (L41).
  const Combatant* c = s.Find(who);
  const std::string owner =
      c == nullptr || c->controller.empty() ? who : c->controller;
  // Its turn of this round has started (or passed its place, delayed):
  // the next one is next round's; otherwise it is still to come this round
  // (a readied act firing in another creature's turn, L61).
  const Combatant* o = s.Find(owner);
  const bool started = o == nullptr || o->Resource(kSotRound) >= s.round;
  return Expiry{fb::ExpiryKind::TurnStart, owner,
                started ? s.round + 1 : s.round};
}

Expiry ThisTurn(const State& s, std::string who) {
  return Expiry{fb::ExpiryKind::TurnEnd, TurnOwner(s, who), s.round};
}

std::string GrapplerOf(const Combatant& c) {
  const Condition* g = c.FindCondition(kGrappled);
  return g == nullptr ? "" : g->relative_to;
}

std::string GrappledBy(const Combatant& c) {
  const Condition* g = c.FindCondition(kGrappling);
  return g == nullptr ? "" : g->relative_to;
}

std::vector<std::string> GrapplePartners(const Combatant& c) {
  std::vector<std::string> out;
  for (const auto& [id, cond] : c.conditions) {
    if ((cond.name == kGrappled || cond.name == kGrappling) &&
        !cond.relative_to.empty() &&
        std::find(out.begin(), out.end(), cond.relative_to) == out.end()) {
      out.push_back(cond.relative_to);
    }
  }
  return out;
}

absl::StatusOr<uint32_t> Apply(Decision& d, std::string who, std::string name,
                               std::string by, int64_t level,
                               std::optional<Expiry> expiry, const Why& why,
                               uint32_t parent, std::string relative_to) {
  NewCondition nc;
  nc.actor = who;
  nc.name = name;
  nc.source = by;
  nc.level = level;
  nc.relative_to = relative_to;
  nc.parent = parent;
  if (expiry.has_value()) nc.expiry = *expiry;
  return AddCondition(d, nc, why);
}

absl::Status KnockProne(Decision& d, std::string who, const Why& why) {
  std::vector<std::string> fall = {who};
  // L148 / L150: if you fall Prone the creature grappling you (or that you
  // are grappling) falls with you.
  const Combatant* c = d.state().Find(who);
  if (c == nullptr) return absl::NotFoundError(who);
  // Every partner: a creature with two hands may grapple two (L59).
  for (const std::string& other : GrapplePartners(*c)) fall.push_back(other);
  for (size_t i = 0; i < fall.size(); ++i) {
    const Combatant* f = d.state().Find(fall[i]);
    if (f == nullptr || f->Has(kProne)) continue;
    Why w = why;
    if (i > 0) {
      w.rule = "000.grappled";
      w.note = absl::StrCat("falls Prone with ", who, " (grapple)");
    }
    RETURN_IF_ERROR(
        Apply(d, fall[i], kProne, who, 0, std::nullopt, w).status());
  }
  return absl::OkStatus();
}

absl::Status EndGrapples(Decision& d, std::string who, const Why& why) {
  // Grappling conditions are parents of the partner's Grappled (and of any
  // Entangled it causes): removing the parent removes them too.
  while (true) {
    const Combatant* c = d.state().Find(who);
    if (c == nullptr) return absl::NotFoundError(who);
    if (const Condition* g = c->FindCondition(kGrappling); g != nullptr) {
      const uint32_t id = g->id;
      RETURN_IF_ERROR(RemoveCondition(d, who, id, why));
      continue;
    }
    const Condition* g = c->FindCondition(kGrappled);
    if (g == nullptr) return absl::OkStatus();
    const std::string holder_id = g->relative_to;
    const uint32_t grappled_id = g->id;
    const Combatant* holder = d.state().Find(holder_id);
    uint32_t parent = 0;
    if (holder != nullptr) {
      for (const auto& [id, cond] : holder->conditions) {
        if (cond.name == kGrappling && cond.relative_to == who) parent = id;
      }
    }
    if (parent != 0) {
      RETURN_IF_ERROR(RemoveCondition(d, holder_id, parent, why));
    } else {
      RETURN_IF_ERROR(RemoveCondition(d, who, grappled_id, why));
    }
  }
}

std::vector<std::string> PartnersApart(const State& s, const Combatant& c) {
  std::vector<std::string> out;
  for (const std::string& other : GrapplePartners(c)) {
    const Combatant* o = s.Find(other);
    if (o != nullptr && !space::Overlaps(c.at, c.size, o->at, o->size)) {
      out.push_back(other);
    }
  }
  return out;
}

absl::Status EndHold(Decision& d, const std::string& holder,
                     const std::string& held, const Why& why) {
  // A Grappling condition is the parent of its partner's Grappled: removing
  // it removes both; a Grappled without its parent (one a GM added) is
  // removed alone, and no other grapple of either creature ends.
  const Combatant* h = d.state().Find(holder);
  if (h != nullptr) {
    if (const Condition* g = h->FindRelative(kGrappling, held); g != nullptr) {
      RETURN_IF_ERROR(RemoveCondition(d, holder, g->id, why));
    }
  }
  const Combatant* c = d.state().Find(held);
  if (c == nullptr) return absl::OkStatus();
  if (const Condition* g = c->FindRelative(kGrappled, holder); g != nullptr) {
    RETURN_IF_ERROR(RemoveCondition(d, held, g->id, why));
  }
  return absl::OkStatus();
}

absl::Status EndGrappleWith(Decision& d, const std::string& who,
                            const std::string& other, const Why& why) {
  RETURN_IF_ERROR(EndHold(d, who, other, why));
  return EndHold(d, other, who, why);
}

absl::Status AddShaken(Decision& d, std::string who, std::string by,
                       int64_t rounds, uint32_t parent, const Why& why,
                       std::optional<Expiry> fresh) {
  const Combatant* c = d.state().Find(who);
  if (c == nullptr) return absl::NotFoundError(who);
  Expiry expiry = fresh.value_or(ForRounds(d.state(), by, rounds));
  for (const Condition* old : Named(*c, kShaken)) {
    const fb::ExpiryKind k = old->expiry.kind;
    // (A Round kept at a held creature's old place may end with a Turn's
    // end: KeepRoundAnchors.)
    if (k != fb::ExpiryKind::TurnStart && k != fb::ExpiryKind::RoundStart &&
        k != fb::ExpiryKind::RoundEnd && k != fb::ExpiryKind::TurnEnd) {
      continue;
    }
    expiry = Expiry{k, old->expiry.actor, old->expiry.round + rounds};
    // L146: the summed Duration is the Shaken's own, no one spell's: the
    // newer spell ending (L39) does not take the older one's rounds with it.
    parent = 0;
    const uint32_t id = old->id;
    Why gone = why;
    gone.note = "replaced by the longer duration";
    RETURN_IF_ERROR(RemoveCondition(d, who, id, gone));
    break;
  }
  Why w = why;
  w.nums.push_back({"rounds", rounds});
  w.nums.push_back({"until_round", expiry.round});
  return Apply(d, who, kShaken, by, 0, expiry, w, parent).status();
}

bool HiddenFrom(const Combatant& c, const std::string& observer) {
  return c.FindRelative(kHidden, observer) != nullptr ||
         c.FindRelative(kUndetected, observer) != nullptr;
}

absl::Status Reveal(Decision& d, std::string who, std::string observer,
                    const Why& why) {
  const Combatant* c = d.state().Find(who);
  if (c == nullptr) return absl::NotFoundError(who);
  std::vector<uint32_t> ids;
  for (const auto& [id, cond] : c->conditions) {
    if ((cond.name == kHidden || cond.name == kUndetected) &&
        (cond.relative_to == observer || cond.relative_to.empty())) {
      ids.push_back(id);
    }
  }
  for (uint32_t id : ids) RETURN_IF_ERROR(RemoveCondition(d, who, id, why));
  return absl::OkStatus();
}

// The closed list of this ruleset's condition names (canonical form).
const std::vector<std::string>& ConditionNames() {
  static const auto* names = new std::vector<std::string>{
      kBleeding,   kBlinded,     kChoked,      kCommanded,  kConcealed,
      kControlled, kCoverCondition, kDead,     kDisarmed,   kDodging,
      kEntangled,  kFallPending, kFlatFooted,  kFlying,     kGrappled,
      kGrappling,  kHeld,        kHidden,      kHoldingBreath,
      kIncapacitated, kInvisible, kMoving,     kOnFire,     kPoisoned,
      kProne,      kShaken,      kSlowed,      kSpell,      kSqueezing,
      kStunned,    kSuffocating, kTookItem,    kUnconscious, kUndetected,
      kDrifting,   kUnsteady,    kFalling};
  return *names;
}

absl::StatusOr<std::string> CanonicalCondition(const std::string& name,
                                               const std::string& field) {
  // The text's spelling ("Flat Footed", "On Fire", "Prone") in any case:
  // lower case, spaces and hyphens as underscores.
  std::string canon;
  for (char ch : name) {
    if (ch == ' ' || ch == '-') {
      canon.push_back('_');
    } else {
      canon.push_back(static_cast<char>(
          std::tolower(static_cast<unsigned char>(ch))));
    }
  }
  const auto& names = ConditionNames();
  if (std::find(names.begin(), names.end(), canon) != names.end()) {
    return canon;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      field, ": unknown condition '", name, "'; one of: ",
      absl::StrJoin(names, ", ")));
}

}  // namespace combat::kernel::d20
