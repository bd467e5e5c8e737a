#include "kernel/pending.h"

#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/internal/emit.h"
#include "kernel/state_codec.h"

namespace combat::kernel {

NewPending AsNew(const fb::PendingOpenedT& o) {
  NewPending p;
  p.kind = o.kind;
  p.actor = o.actor;
  p.decl = o.decl;
  if (o.command) p.command = *o.command;
  p.cost_due = o.cost_due;
  p.cost_paid = o.cost_paid;
  p.progress = o.progress;
  p.span = o.span;
  p.trigger = TriggerFromObject(o.trigger.get());
  p.expiry = ExpiryFromObject(o.expiry.get());
  p.budget = o.budget;
  p.reacted = o.reacted;
  return p;
}

absl::StatusOr<uint32_t> OpenPending(Decision& d, const NewPending& p,
                                     const Why& why) {
  fb::PendingOpenedT t;
  t.id = d.state().last_pending_id + 1;
  t.kind = p.kind;
  t.actor = p.actor;
  t.decl = p.decl;
  t.command = std::make_unique<fb::CommandT>(p.command);
  t.cost_due = p.cost_due;
  t.cost_paid = p.cost_paid;
  t.progress = p.progress;
  t.span = p.span;
  if (p.trigger.kind != fb::TriggerKind::None) t.trigger = TriggerToObject(p.trigger);
  if (p.expiry.kind != fb::ExpiryKind::Never) t.expiry = ExpiryToObject(p.expiry);
  t.budget = p.budget;
  t.reacted = p.reacted;
  const uint32_t id = t.id;
  RETURN_IF_ERROR(internal::Emit(d, why, internal::Union(std::move(t))));
  return id;
}

absl::Status PayPending(Decision& d, uint32_t id, int64_t amount, const Why& why) {
  const PendingAct* p = d.state().FindPending(id);
  if (p == nullptr) return absl::NotFoundError(absl::StrCat("no pending act #", id));
  if (amount <= 0) {
    return absl::InvalidArgumentError(absl::StrCat("pending act #", id, ": pay ", amount));
  }
  if (p->cost_paid + amount > p->cost_due) {
    return absl::FailedPreconditionError(
        absl::StrCat("pending act #", id, ": ", p->cost_paid, " + ", amount,
                     " would pay more than the ", p->cost_due, " due"));
  }
  const Combatant* c = d.state().Find(p->actor);
  if (c == nullptr) return absl::NotFoundError(p->actor);
  if (c->Resource(p->budget) < amount) {
    return absl::FailedPreconditionError(
        absl::StrCat(p->actor, " has ", c->Resource(p->budget), " ", p->budget,
                     ", not ", amount));
  }
  const std::string actor = p->actor, budget = p->budget;
  const int64_t paid = p->cost_paid + amount, progress = p->progress;
  RETURN_IF_ERROR(AddResource(d, actor, budget, -amount, why).status());
  fb::PendingUpdatedT t;
  t.id = id;
  t.paid = amount;
  t.cost_paid = paid;
  t.progress = progress;
  return internal::Emit(d, why, internal::Union(std::move(t)));
}

absl::Status UpdatePending(Decision& d, uint32_t id, int64_t progress,
                           const fb::CommandT* rest,
                           const std::vector<std::string>* reacted,
                           const Why& why) {
  const PendingAct* p = d.state().FindPending(id);
  if (p == nullptr) return absl::NotFoundError(absl::StrCat("no pending act #", id));
  fb::PendingUpdatedT t;
  t.id = id;
  t.cost_paid = p->cost_paid;
  t.progress = progress;
  if (rest != nullptr) t.command = std::make_unique<fb::CommandT>(*rest);
  if (reacted != nullptr) t.reacted = *reacted;
  return internal::Emit(d, why, internal::Union(std::move(t)));
}

absl::Status ClosePending(Decision& d, uint32_t id, const std::string& outcome,
                          const Why& why) {
  fb::PendingClosedT t;
  t.id = id;
  t.outcome = outcome;
  return internal::Emit(d, why, internal::Union(std::move(t)));
}

std::vector<const PendingAct*> PendingActs(const State& s, const std::string& actor,
                                           const std::string& kind) {
  std::vector<const PendingAct*> out;
  for (const auto& [id, p] : s.pending) {
    if ((actor.empty() || p.actor == actor) && (kind.empty() || p.kind == kind)) {
      out.push_back(&p);
    }
  }
  return out;
}

const PendingAct* FirstPending(const State& s, const std::string& actor,
                               const std::string& kind) {
  for (const auto& [id, p] : s.pending) {
    if ((actor.empty() || p.actor == actor) && (kind.empty() || p.kind == kind)) {
      return &p;
    }
  }
  return nullptr;
}

}  // namespace combat::kernel
