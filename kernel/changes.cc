#include "kernel/changes.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"
#include "events/codec.h"
#include "events/status_macros.h"
#include "kernel/internal/emit.h"
#include "kernel/state_codec.h"
#include "kernel/pending.h"

namespace combat::kernel {

using internal::Emit;
using internal::FbPos;
using internal::Union;

absl::Status StartSession(Decision& d, const std::string& session,
                          const std::string& title, const fb::MapT& map,
                          const std::vector<uint8_t>& dice_commitment,
                          const Why& why) {
  fb::SessionStartedT t;
  t.session = session;
  t.title = title;
  t.ruleset = d.envelope().ruleset;
  t.ruleset_version = d.envelope().ruleset_version;
  t.schema_version = d.envelope().schema_version != 0 ? d.envelope().schema_version
                                                     : events::kSchemaVersion;
  t.dice_commitment = dice_commitment;
  t.map = std::make_unique<fb::MapT>(map);
  t.signing_key = d.envelope().signing_key;
  return Emit(d, why, Union(std::move(t)));
}

absl::Status JoinCombatant(Decision& d, const fb::CombatantSpecT& spec,
                           const Why& why) {
  fb::CombatantJoinedT t;
  t.spec = std::make_unique<fb::CombatantSpecT>(spec);
  return Emit(d, why, Union(std::move(t)));
}

absl::Status StartRound(Decision& d, const Why& why) {
  Decision::SystemSteps system(d);
  fb::RoundStartedT t;
  t.round = d.state().round + 1;
  return Emit(d, why, Union(std::move(t)));
}

absl::Status EndRound(Decision& d, const Why& why) {
  Decision::SystemSteps system(d);
  fb::RoundEndedT t;
  t.round = d.state().round;
  return Emit(d, why, Union(std::move(t)));
}

absl::Status StartTurn(Decision& d, const std::string& actor, const Why& why,
                       const std::vector<std::string>& members) {
  Decision::SystemSteps system(d);
  fb::TurnStartedT t;
  t.actor = actor;
  t.round = d.state().round;
  t.members = members;
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
    entry->members = e.members;
    t.entries.push_back(std::move(entry));
  }
  return Emit(d, why, Union(std::move(t)));
}

absl::Status SetPool(Decision& d, const std::string& owner,
                     const std::string& name, int64_t value, const Why& why) {
  if (owner.empty()) return absl::InvalidArgumentError("pool: empty owner");
  fb::ResourceSetT t;
  t.pool = owner;
  t.name = name;
  t.value = value;
  return Emit(d, why, Union(std::move(t)));
}

absl::StatusOr<int64_t> AddPool(Decision& d, const std::string& owner,
                                const std::string& name, int64_t delta,
                                const Why& why) {
  if (owner.empty()) return absl::InvalidArgumentError("pool: empty owner");
  fb::ResourceChangedT t;
  t.pool = owner;
  t.name = name;
  t.delta = delta;
  t.value = d.state().Pool(owner, name) + delta;
  const int64_t value = t.value;
  RETURN_IF_ERROR(Emit(d, why, Union(std::move(t))));
  return value;
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

NewCondition AsNew(const std::string& actor, const Condition& c) {
  NewCondition nc;
  nc.actor = actor;
  nc.name = c.name;
  nc.source = c.source;
  nc.relative_to = c.relative_to;
  nc.level = c.level;
  nc.expiry = c.expiry;
  nc.parent = c.parent;
  nc.ref = c.ref;
  nc.note = c.note;
  return nc;
}

NewCondition AsNew(const fb::ConditionAddedT& added) {
  Condition c;
  c.name = added.name;
  c.source = added.source;
  c.relative_to = added.relative_to;
  c.level = added.level;
  c.expiry = ExpiryFromObject(added.expiry.get());
  c.parent = added.parent;
  c.ref = added.ref;
  c.note = added.note;
  return AsNew(added.actor, c);
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
  t.expiry = ExpiryToObject(c.expiry);
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

absl::Status ReAnchor(Decision& d,
                      const std::function<std::optional<Expiry>(const Condition&)>& to,
                      const std::function<Why(const Condition&)>& why_of) {
  struct Saved {
    Condition c;
    std::string actor;
  };
  std::vector<Saved> roots;
  for (const auto& [id, c] : d.state().combatants) {
    for (const auto& [cid, cond] : c.conditions) {
      if (to(cond).has_value()) roots.push_back({cond, id});
    }
  }
  for (const Saved& root : roots) {
    const Combatant* holder = d.state().Find(root.actor);
    if (holder == nullptr || holder->conditions.count(root.c.id) == 0) {
      continue;  // already moved as a daughter of an earlier one
    }
    std::vector<Saved> tree = {root};
    for (size_t i = 0; i < tree.size(); ++i) {
      for (const auto& [id, c] : d.state().combatants) {
        for (const auto& [cid, cond] : c.conditions) {
          if (cond.parent == tree[i].c.id) tree.push_back({cond, id});
        }
      }
    }
    const Why why = why_of(root.c);
    RETURN_IF_ERROR(RemoveCondition(d, root.actor, root.c.id, why));
    std::map<uint32_t, uint32_t> new_ids;
    for (const Saved& sv : tree) {
      NewCondition nc = AsNew(sv.actor, sv.c);
      auto parent = new_ids.find(sv.c.parent);
      if (parent != new_ids.end()) nc.parent = parent->second;
      if (std::optional<Expiry> e = to(sv.c); e.has_value()) nc.expiry = *e;
      ASSIGN_OR_RETURN(uint32_t nid, AddCondition(d, nc, why));
      new_ids[sv.c.id] = nid;
    }
  }
  return absl::OkStatus();
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
                             const Why& why,
                             uint64_t (*began)(const Condition&)) {
  // (began at, combatant id, condition id; pending acts: id 0 and `pending`)
  struct Due {
    uint64_t began = 0;
    std::string combatant;
    uint32_t condition = 0;
    uint32_t pending = 0;
    bool operator<(const Due& o) const {
      return std::tie(began, combatant, condition, pending) <
             std::tie(o.began, o.combatant, o.condition, o.pending);
    }
  };
  const auto matches = [&](const Expiry& e) {
    return e.kind == kind && e.round == round && e.actor == actor;
  };
  std::vector<Due> due;
  for (const auto& [cid, c] : d.state().combatants) {
    for (const auto& [id, cond] : c.conditions) {
      if (matches(cond.expiry)) {
        due.push_back({began == nullptr ? cond.added_at : began(cond), cid, id, 0});
      }
    }
  }
  for (const auto& [id, p] : d.state().pending) {
    if (matches(p.expiry)) due.push_back({p.opened_at, p.actor, 0, id});
  }
  std::sort(due.begin(), due.end());
  Why w = why;
  if (w.note.empty()) {
    w.note = absl::StrCat("duration ended (", fb::EnumNameExpiryKind(kind),
                          actor.empty() ? "" : " of ", actor, ", round ",
                          round, ")");
  }
  int removed = 0;
  for (const Due& x : due) {
    if (x.pending != 0) {
      if (d.state().FindPending(x.pending) == nullptr) continue;
      RETURN_IF_ERROR(ClosePending(d, x.pending, "lapsed", w));
      ++removed;
      continue;
    }
    // An earlier removal may have taken it with its parent.
    const Combatant* c = d.state().Find(x.combatant);
    if (c == nullptr || c->conditions.count(x.condition) == 0) continue;
    RETURN_IF_ERROR(RemoveCondition(d, x.combatant, x.condition, w));
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
