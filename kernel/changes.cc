#include "kernel/changes.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "events/codec.h"
#include "events/status_macros.h"

namespace combat::kernel {
namespace {

absl::Status Emit(Decision& d, const Why& why, fb::ChangeUnion change) {
  return d.Change(why.cause, why.rule, why.nums, std::move(change), why.note);
}

template <typename T>
fb::ChangeUnion Union(T value) {
  fb::ChangeUnion u;
  u.Set(std::move(value));
  return u;
}

std::unique_ptr<fb::Pos> FbPos(Pos p) { return std::make_unique<fb::Pos>(p.x, p.y); }

}  // namespace

absl::Status StartSession(Decision& d, const std::string& session,
                          const std::string& title, const fb::MapT& map,
                          const std::vector<uint8_t>& dice_commitment,
                          const Why& why) {
  fb::SessionStartedT t;
  t.session = session;
  t.title = title;
  t.ruleset = d.envelope().ruleset;
  t.ruleset_version = d.envelope().ruleset_version;
  t.schema_version = events::kSchemaVersion;
  t.dice_commitment = dice_commitment;
  t.map = std::make_unique<fb::MapT>(map);
  return Emit(d, why, Union(std::move(t)));
}

absl::Status JoinCombatant(Decision& d, const fb::CombatantSpecT& spec,
                           const Why& why) {
  fb::CombatantJoinedT t;
  t.spec = std::make_unique<fb::CombatantSpecT>(spec);
  return Emit(d, why, Union(std::move(t)));
}

absl::Status StartRound(Decision& d, const Why& why) {
  fb::RoundStartedT t;
  t.round = d.state().round + 1;
  return Emit(d, why, Union(std::move(t)));
}

absl::Status EndRound(Decision& d, const Why& why) {
  fb::RoundEndedT t;
  t.round = d.state().round;
  return Emit(d, why, Union(std::move(t)));
}

absl::Status StartTurn(Decision& d, const std::string& actor, const Why& why) {
  fb::TurnStartedT t;
  t.actor = actor;
  t.round = d.state().round;
  return Emit(d, why, Union(std::move(t)));
}

absl::Status EndTurn(Decision& d, const std::string& actor, const Why& why) {
  fb::TurnEndedT t;
  t.actor = actor;
  t.round = d.state().round;
  return Emit(d, why, Union(std::move(t)));
}

absl::Status SetOrder(Decision& d, const std::vector<OrderEntry>& order,
                      const Why& why) {
  fb::OrderSetT t;
  for (const OrderEntry& e : order) {
    auto entry = std::make_unique<fb::OrderEntryT>();
    entry->actor = e.actor;
    entry->initiative = e.initiative;
    entry->delayed = e.delayed;
    t.entries.push_back(std::move(entry));
  }
  return Emit(d, why, Union(std::move(t)));
}

absl::Status SetResource(Decision& d, const std::string& actor,
                         const std::string& name, int64_t value,
                         const Why& why) {
  fb::ResourceSetT t;
  t.actor = actor;
  t.name = name;
  t.value = value;
  return Emit(d, why, Union(std::move(t)));
}

absl::StatusOr<int64_t> AddResource(Decision& d, const std::string& actor,
                                    const std::string& name, int64_t delta,
                                    const Why& why) {
  const Combatant* c = d.state().Find(actor);
  if (c == nullptr) return absl::NotFoundError(absl::StrCat("no combatant '", actor, "'"));
  fb::ResourceChangedT t;
  t.actor = actor;
  t.name = name;
  t.delta = delta;
  t.value = c->Resource(name) + delta;
  const int64_t value = t.value;
  RETURN_IF_ERROR(Emit(d, why, Union(std::move(t))));
  return value;
}

absl::StatusOr<uint32_t> AddCondition(Decision& d, const NewCondition& c,
                                      const Why& why) {
  fb::ConditionAddedT t;
  t.id = d.state().next_condition_id;
  t.actor = c.actor;
  t.name = c.name;
  t.source = c.source;
  t.relative_to = c.relative_to;
  t.level = c.level;
  t.expiry = std::make_unique<fb::ExpiryT>();
  t.expiry->kind = c.expiry.kind;
  t.expiry->actor = c.expiry.actor;
  t.expiry->round = c.expiry.round;
  t.parent = c.parent;
  t.ref = c.ref;
  t.note = c.note;
  const uint32_t id = t.id;
  RETURN_IF_ERROR(Emit(d, why, Union(std::move(t))));
  return id;
}

absl::Status RemoveCondition(Decision& d, const std::string& actor,
                             uint32_t id, const Why& why) {
  // Daughters first, so no condition is ever left with a missing parent.
  std::vector<std::pair<std::string, uint32_t>> daughters;
  for (const auto& [cid, c] : d.state().combatants) {
    for (const auto& [did, cond] : c.conditions) {
      if (cond.parent == id) daughters.emplace_back(cid, did);
    }
  }
  for (const auto& [cid, did] : daughters) {
    Why child = why;
    child.note = absl::StrCat("its parent condition #", id, " ended");
    RETURN_IF_ERROR(RemoveCondition(d, cid, did, child));
  }
  const Combatant* c = d.state().Find(actor);
  if (c == nullptr) return absl::NotFoundError(absl::StrCat("no combatant '", actor, "'"));
  auto it = c->conditions.find(id);
  if (it == c->conditions.end()) {
    return absl::NotFoundError(absl::StrCat(actor, " has no condition #", id));
  }
  fb::ConditionRemovedT t;
  t.id = id;
  t.actor = actor;
  t.name = it->second.name;
  return Emit(d, why, Union(std::move(t)));
}

absl::Status RemoveConditionsNamed(Decision& d, const std::string& actor,
                                   const std::string& name, const Why& why) {
  while (true) {
    const Combatant* c = d.state().Find(actor);
    if (c == nullptr) return absl::NotFoundError(absl::StrCat("no combatant '", actor, "'"));
    const Condition* cond = c->FindCondition(name);
    if (cond == nullptr) return absl::OkStatus();
    RETURN_IF_ERROR(RemoveCondition(d, actor, cond->id, why));
  }
}

absl::StatusOr<int> ExpireAt(Decision& d, fb::ExpiryKind kind,
                             const std::string& actor, int64_t round,
                             const Why& why) {
  std::vector<std::pair<std::string, uint32_t>> due;
  for (const auto& [cid, c] : d.state().combatants) {
    for (const auto& [id, cond] : c.conditions) {
      if (cond.expiry.kind == kind && cond.expiry.round == round &&
          cond.expiry.actor == actor) {
        due.emplace_back(cid, id);
      }
    }
  }
  int removed = 0;
  for (const auto& [cid, id] : due) {
    // An earlier removal may have taken it with its parent.
    const Combatant* c = d.state().Find(cid);
    if (c == nullptr || c->conditions.count(id) == 0) continue;
    Why w = why;
    if (w.note.empty()) {
      w.note = absl::StrCat("duration ended (", fb::EnumNameExpiryKind(kind),
                            actor.empty() ? "" : " of ", actor, ", round ",
                            round, ")");
    }
    RETURN_IF_ERROR(RemoveCondition(d, cid, id, w));
    ++removed;
  }
  return removed;
}

absl::Status Move(Decision& d, const std::string& actor,
                  const std::vector<Pos>& path, int64_t cost, bool forced,
                  const Why& why) {
  const Combatant* c = d.state().Find(actor);
  if (c == nullptr) return absl::NotFoundError(absl::StrCat("no combatant '", actor, "'"));
  if (path.empty()) return absl::InvalidArgumentError("path: empty");
  fb::MovedT t;
  t.actor = actor;
  t.from = FbPos(c->at);
  t.to = FbPos(path.back());
  for (Pos p : path) t.path.push_back(fb::Pos(p.x, p.y));
  t.cost = cost;
  t.forced = forced;
  return Emit(d, why, Union(std::move(t)));
}

absl::StatusOr<uint32_t> OpenWindow(Decision& d, uint64_t trigger,
                                    const std::string& kind,
                                    const std::vector<std::string>& eligible,
                                    const Why& why) {
  fb::WindowOpenedT t;
  t.id = d.state().next_window_id;
  t.trigger = trigger;
  t.kind = kind;
  t.eligible = eligible;
  const uint32_t id = t.id;
  RETURN_IF_ERROR(Emit(d, why, Union(std::move(t))));
  return id;
}

absl::Status CloseWindow(Decision& d, uint32_t id, const std::string& outcome,
                         const Why& why) {
  fb::WindowClosedT t;
  t.id = id;
  t.outcome = outcome;
  return Emit(d, why, Union(std::move(t)));
}

absl::Status RecordOutcome(Decision& d, const std::string& actor,
                           const Why& why) {
  fb::OutcomeT t;
  t.actor = actor;
  return Emit(d, why, Union(std::move(t)));
}

absl::Status RecordRuling(Decision& d, const std::string& kind,
                          uint64_t subject, const std::string& reason,
                          const Why& why) {
  fb::RulingT t;
  t.kind = kind;
  t.subject = subject;
  t.reason = reason;
  return Emit(d, why, Union(std::move(t)));
}

absl::Status EndSession(Decision& d, const std::string& reason,
                        const Why& why) {
  fb::SessionEndedT t;
  t.reason = reason;
  return Emit(d, why, Union(std::move(t)));
}

}  // namespace combat::kernel
