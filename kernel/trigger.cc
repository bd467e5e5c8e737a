#include "kernel/trigger.h"

#include <algorithm>
#include <limits>
#include <optional>

#include "kernel/space.h"

namespace combat::kernel {
namespace {

bool Contains(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// Whether act-level filters let `c` (by `actor`) set off `t` of `owner`.
bool Filters(const Trigger& t, const Combatant& owner, const Combatant& actor,
             const std::vector<std::string>& targets) {
  if (!t.by.empty() && t.by != actor.id) return false;
  if (!t.against.empty() && !Contains(targets, t.against)) return false;
  if (t.hostile_only && owner.side == actor.side) return false;
  return true;
}

// Where on c's path `t` is met, or nullopt.
std::optional<size_t> MatchOne(const State& s, const Trigger& t,
                               const Combatant& owner, const Combatant& mover,
                               const fb::CommandT& c, const ActClass& cls,
                               const TriggerRules& rules) {
  switch (t.kind) {
    case fb::TriggerKind::None:
    case fb::TriggerKind::IsDamaged:
    case fb::TriggerKind::EventKind:
      return std::nullopt;
    case fb::TriggerKind::Declared:
      if (!t.name.empty() && t.name != c.action) return std::nullopt;
      return 0;
    case fb::TriggerKind::Attacks:
      if (cls.attack) return 0;
      if (cls.move && rules.attack_step) return rules.attack_step(s, c);
      return std::nullopt;
    case fb::TriggerKind::Casts:
      return cls.cast ? std::optional<size_t>(0) : std::nullopt;
    case fb::TriggerKind::StandsUp:
      return cls.stand ? std::optional<size_t>(0) : std::nullopt;
    case fb::TriggerKind::Moves:
      return cls.move ? std::optional<size_t>(0) : std::nullopt;
    case fb::TriggerKind::MovesWithinReach:
    case fb::TriggerKind::LeavesReach: {
      if (!cls.move || !rules.in_reach) return std::nullopt;
      const bool entering = t.kind == fb::TriggerKind::MovesWithinReach;
      Pos prev = mover.at;
      for (size_t i = 0; i < c.path.size(); ++i) {
        const Pos next{c.path[i].x(), c.path[i].y()};
        const bool was_in = rules.in_reach(s, owner, prev, mover.size, t);
        const bool now_in = rules.in_reach(s, owner, next, mover.size, t);
        // Entering fires once the mover stands in reach; leaving fires
        // before it steps out (seed 003: "when a creature leaves reach").
        if (entering && !was_in && now_in) return i + 1;
        if (!entering && was_in && !now_in) return i;
        prev = next;
      }
      return std::nullopt;
    }
    case fb::TriggerKind::EntersSquare:
      if (!cls.move || !t.square.has_value()) return std::nullopt;
      for (size_t i = 0; i < c.path.size(); ++i) {
        if (space::Covers({c.path[i].x(), c.path[i].y()}, mover.size, *t.square)) return i + 1;
      }
      return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

std::vector<std::string> Rank(const State& s) {
  std::vector<std::string> ranked;
  for (const OrderEntry& e : s.order) {
    if (!Contains(ranked, e.actor)) ranked.push_back(e.actor);
    for (const std::string& m : e.members) {
      if (!Contains(ranked, m)) ranked.push_back(m);
    }
  }
  for (const auto& [id, c] : s.combatants) {
    if (!Contains(ranked, id)) ranked.push_back(id);
  }
  return ranked;
}

std::vector<TriggerHit> MatchDeclaration(const State& s, const fb::CommandT& c,
                                         const TriggerRules& rules,
                                         const std::vector<std::string>& skip) {
  std::vector<TriggerHit> out;
  const Combatant* actor = s.Find(c.actor);
  if (actor == nullptr || s.pending.empty()) return out;
  const ActClass cls = rules.classify ? rules.classify(c) : ActClass{};
  size_t best = std::numeric_limits<size_t>::max();
  for (const std::string& id : Rank(s)) {
    if (id == c.actor || Contains(skip, id)) continue;
    const Combatant* owner = s.Find(id);
    if (owner == nullptr) continue;
    if (rules.can_react && !rules.can_react(s, *owner)) continue;
    // One armed act per owner answers: the one met earliest along the
    // path (a later-armed act may be met first, e.g. leaving a reach
    // before coming back into it); at the same step, the first armed.
    std::optional<TriggerHit> first;
    for (const auto& [pid, p] : s.pending) {
      if (p.actor != id || p.trigger.kind == fb::TriggerKind::None) continue;
      if (!Filters(p.trigger, *owner, *actor, c.targets)) continue;
      const std::optional<size_t> at =
          MatchOne(s, p.trigger, *owner, *actor, c, cls, rules);
      if (at.has_value() && (!first.has_value() || *at < first->step)) {
        first = TriggerHit{pid, id, *at};
      }
    }
    if (!first.has_value()) continue;
    if (first->step < best) {
      best = first->step;
      out.clear();
    }
    if (first->step == best) out.push_back(std::move(*first));
  }
  return out;
}

std::vector<TriggerHit> MatchChanges(const State& s,
                                     const std::vector<events::EventBuffer>& emitted,
                                     const TriggerRules& rules) {
  std::vector<TriggerHit> out;
  if (s.pending.empty()) return out;
  for (const std::string& id : Rank(s)) {
    const Combatant* owner = s.Find(id);
    if (owner == nullptr) continue;
    if (rules.can_react && !rules.can_react(s, *owner)) continue;
    for (const auto& [pid, p] : s.pending) {
      if (p.actor != id) continue;
      const Trigger& t = p.trigger;
      bool hit = false;
      for (const events::EventBuffer& buffer : emitted) {
        const fb::Event& e = buffer.event();
        if (e.body_type() != fb::Body::StateChange) continue;
        const fb::StateChange* sc = e.body_as_StateChange();
        const auto name = [](const flatbuffers::String* x) {
          return x == nullptr ? std::string() : x->str();
        };
        switch (t.kind) {
          case fb::TriggerKind::IsDamaged:
            if (const auto* r = sc->change_as_ResourceChanged()) {
              hit = hit || (name(r->name()) == rules.damage_resource && r->delta() < 0 &&
                            name(r->actor()) != id &&
                            (t.against.empty() || name(r->actor()) == t.against));
            }
            break;
          case fb::TriggerKind::StandsUp:
            if (const auto* r = sc->change_as_ConditionRemoved()) {
              hit = hit || (name(r->name()) == rules.prone_condition && name(r->actor()) != id &&
                            (t.by.empty() || name(r->actor()) == t.by));
            }
            break;
          case fb::TriggerKind::EventKind:
            hit = hit || t.name == fb::EnumNameChange(sc->change_type());
            break;
          default:
            break;
        }
      }
      if (hit) out.push_back({pid, id, 0});
    }
  }
  return out;
}

}  // namespace combat::kernel
