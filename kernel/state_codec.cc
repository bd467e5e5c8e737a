#include "kernel/state_codec.h"

#include <memory>

namespace combat::kernel {
namespace {

std::unique_ptr<fb::NumberT> Num(const std::string& key, int64_t value) {
  auto n = std::make_unique<fb::NumberT>();
  n->key = key;
  n->value = value;
  return n;
}

}  // namespace

std::unique_ptr<fb::ExpiryT> ExpiryToObject(const Expiry& e) {
  auto out = std::make_unique<fb::ExpiryT>();
  out->kind = e.kind;
  out->actor = e.actor;
  out->round = e.round;
  return out;
}

std::unique_ptr<fb::TriggerT> TriggerToObject(const Trigger& t) {
  if (t.kind == fb::TriggerKind::None && t.by.empty() && t.against.empty() &&
      !t.hostile_only && !t.square.has_value() && t.reach == 0 &&
      t.name.empty()) {
    return nullptr;
  }
  auto out = std::make_unique<fb::TriggerT>();
  out->kind = t.kind;
  out->by = t.by;
  out->against = t.against;
  out->hostile_only = t.hostile_only;
  if (t.square.has_value()) {
    out->square = std::make_unique<fb::Pos>(t.square->x, t.square->y);
  }
  out->reach = t.reach;
  out->name = t.name;
  return out;
}

Expiry ExpiryFromObject(const fb::ExpiryT* e) {
  Expiry out;
  if (e == nullptr) return out;
  out.kind = e->kind;
  out.actor = e->actor;
  out.round = e->round;
  return out;
}

Trigger TriggerFromObject(const fb::TriggerT* t) {
  Trigger out;
  if (t == nullptr) return out;
  out.kind = t->kind;
  out.by = t->by;
  out.against = t->against;
  out.hostile_only = t->hostile_only;
  if (t->square) out.square = Pos{t->square->x(), t->square->y()};
  out.reach = t->reach;
  out.name = t->name;
  return out;
}

std::unique_ptr<fb::PendingStateT> PendingToObject(const PendingAct& p) {
  auto out = std::make_unique<fb::PendingStateT>();
  out->id = p.id;
  out->kind = p.kind;
  out->actor = p.actor;
  out->decl = p.decl;
  out->command = std::make_unique<fb::CommandT>(p.command.object());
  out->cost_due = p.cost_due;
  out->cost_paid = p.cost_paid;
  out->progress = p.progress;
  out->span = p.span;
  out->trigger = TriggerToObject(p.trigger);
  out->expiry = ExpiryToObject(p.expiry);
  out->budget = p.budget;
  out->opened_at = p.opened_at;
  out->reacted = p.reacted;
  return out;
}

namespace {

std::unique_ptr<fb::CombatantStateT> ToObject(const Combatant& c) {
  auto out = std::make_unique<fb::CombatantStateT>();
  out->spec = std::make_unique<fb::CombatantSpecT>();
  fb::CombatantSpecT& spec = *out->spec;
  spec.id = c.id;
  spec.name = c.name;
  spec.side = c.side;
  spec.size = c.size;
  spec.controller = c.controller;
  spec.player = c.player;
  spec.tags = c.tags;
  for (const auto& [k, v] : c.stats) spec.stats.push_back(Num(k, v));
  for (const Weapon& w : c.weapons) {
    auto wt = std::make_unique<fb::WeaponT>();
    wt->name = w.name;
    wt->damage = w.damage;
    wt->kind = w.kind;
    wt->category = w.category;
    wt->reach = w.reach;
    wt->range_increment = w.range_increment;
    wt->damage_type = w.damage_type;
    for (const auto& [k, v] : w.numbers) wt->numbers.push_back(Num(k, v));
    spec.weapons.push_back(std::move(wt));
  }
  out->at = std::make_unique<fb::Pos>(c.at.x, c.at.y);
  for (const auto& [k, v] : c.resources) out->resources.push_back(Num(k, v));
  for (const auto& [id, cond] : c.conditions) {
    auto ct = std::make_unique<fb::ConditionStateT>();
    ct->id = cond.id;
    ct->name = cond.name;
    ct->source = cond.source;
    ct->relative_to = cond.relative_to;
    ct->level = cond.level;
    ct->expiry = ExpiryToObject(cond.expiry);
    ct->parent = cond.parent;
    ct->ref = cond.ref;
    ct->note = cond.note;
    ct->added_at = cond.added_at;
    out->conditions.push_back(std::move(ct));
  }
  return out;
}

}  // namespace

fb::StateT ToObject(const State& s) {
  fb::StateT out;
  out.session = s.session;
  out.title = s.title;
  out.ruleset = s.ruleset;
  out.ruleset_version = s.ruleset_version;
  out.schema_version = s.schema_version;
  out.dice_commitment = s.dice_commitment;
  out.map = std::make_unique<fb::MapT>();
  out.map->width = s.map.width;
  out.map->height = s.map.height;
  out.map->unit = s.map.unit;
  out.map->square = s.map.square;
  for (const auto& [pos, terrain] : s.map.terrain) {
    auto cell = std::make_unique<fb::CellT>();
    cell->at = std::make_unique<fb::Pos>(pos.x, pos.y);
    cell->terrain = terrain;
    out.map->cells.push_back(std::move(cell));
  }
  out.seq = s.seq;
  out.round = s.round;
  out.active = s.active;
  for (const OrderEntry& e : s.order) {
    auto ot = std::make_unique<fb::OrderEntryT>();
    ot->actor = e.actor;
    ot->initiative = e.initiative;
    ot->delayed = e.delayed;
    ot->members = e.members;
    out.order.push_back(std::move(ot));
  }
  out.acted = s.acted;
  for (const auto& [id, c] : s.combatants) out.combatants.push_back(ToObject(c));
  for (const auto& [id, w] : s.windows) {
    auto wt = std::make_unique<fb::WindowStateT>();
    wt->id = w.id;
    wt->trigger = w.trigger;
    wt->kind = w.kind;
    wt->eligible = w.eligible;
    wt->answered = w.answered;
    wt->opened_at = w.opened_at;
    wt->policy = w.policy;
    wt->pay = w.pay;
    wt->parent = w.parent;
    wt->pending = w.pending;
    wt->answer_seqs = w.answer_seqs;
    out.windows.push_back(std::move(wt));
  }
  out.next_condition_id = s.next_condition_id;
  out.next_window_id = s.next_window_id;
  out.next_roll_index = s.next_roll_index;
  out.ended = s.ended;
  out.end_reason = s.end_reason;
  out.voided = s.voided;
  out.unapplied = s.unapplied;
  out.revealed_seed = s.revealed_seed;
  out.active_members = s.active_members;
  for (const auto& [id, p] : s.pending) out.pending.push_back(PendingToObject(p));
  out.last_pending_id = s.last_pending_id;
  for (const auto& [owner, values] : s.pools) {
    auto pt = std::make_unique<fb::PoolStateT>();
    pt->owner = owner;
    for (const auto& [k, v] : values) pt->values.push_back(Num(k, v));
    out.pools.push_back(std::move(pt));
  }
  return out;
}

absl::StatusOr<State> DecodeState(const uint8_t* data, size_t size) {
  std::vector<uint8_t> copy(data, data + size);  // aligned
  flatbuffers::Verifier v(copy.data(), copy.size(), 64, 10000000);
  if (copy.size() < 8 || !fb::StateBufferHasIdentifier(copy.data()) ||
      !fb::VerifyStateBuffer(v)) {
    return absl::DataLossError("state bytes fail the FlatBuffers Verifier");
  }
  fb::StateT o;
  fb::GetState(copy.data())->UnPackTo(&o);
  State s;
  s.session = o.session;
  s.title = o.title;
  s.ruleset = o.ruleset;
  s.ruleset_version = o.ruleset_version;
  s.schema_version = o.schema_version;
  s.dice_commitment = o.dice_commitment;
  if (o.map) {
    s.map.width = o.map->width;
    s.map.height = o.map->height;
    s.map.unit = o.map->unit;
    s.map.square = o.map->square;
    for (const auto& cell : o.map->cells) {
      if (cell && cell->at) s.map.terrain[{cell->at->x(), cell->at->y()}] = cell->terrain;
    }
  }
  s.seq = o.seq;
  s.round = o.round;
  s.active = o.active;
  for (const auto& e : o.order) {
    if (e) s.order.push_back({e->actor, e->initiative, e->delayed, e->members});
  }
  s.acted = o.acted;
  for (const auto& ct : o.combatants) {
    if (!ct || !ct->spec) return absl::DataLossError("state: combatant without spec");
    Combatant c;
    const fb::CombatantSpecT& spec = *ct->spec;
    c.id = spec.id;
    c.name = spec.name;
    c.side = spec.side;
    c.size = spec.size;
    c.controller = spec.controller;
    c.player = spec.player;
    c.tags = spec.tags;
    for (const auto& n : spec.stats) {
      if (n) c.stats[n->key] = n->value;
    }
    for (const auto& w : spec.weapons) {
      if (!w) continue;
      Weapon weapon;
      weapon.name = w->name;
      weapon.damage = w->damage;
      weapon.kind = w->kind;
      weapon.category = w->category;
      weapon.reach = w->reach;
      weapon.range_increment = w->range_increment;
      weapon.damage_type = w->damage_type;
      for (const auto& n : w->numbers) {
        if (n) weapon.numbers[n->key] = n->value;
      }
      c.weapons.push_back(std::move(weapon));
    }
    if (ct->at) c.at = {ct->at->x(), ct->at->y()};
    for (const auto& n : ct->resources) {
      if (n) c.resources[n->key] = n->value;
    }
    for (const auto& cs : ct->conditions) {
      if (!cs) continue;
      Condition cond;
      cond.id = cs->id;
      cond.name = cs->name;
      cond.source = cs->source;
      cond.relative_to = cs->relative_to;
      cond.level = cs->level;
      cond.expiry = ExpiryFromObject(cs->expiry.get());
      cond.parent = cs->parent;
      cond.ref = cs->ref;
      cond.note = cs->note;
      cond.added_at = cs->added_at;
      c.conditions[cond.id] = std::move(cond);
    }
    s.combatants[c.id] = std::move(c);
  }
  for (const auto& wt : o.windows) {
    if (!wt) continue;
    Window w;
    w.id = wt->id;
    w.trigger = wt->trigger;
    w.kind = wt->kind;
    w.eligible = wt->eligible;
    w.answered = wt->answered;
    w.opened_at = wt->opened_at;
    w.policy = wt->policy;
    w.pay = wt->pay;
    w.parent = wt->parent;
    w.pending = wt->pending;
    w.answer_seqs = wt->answer_seqs;
    s.windows[w.id] = std::move(w);
  }
  s.next_condition_id = o.next_condition_id;
  s.next_window_id = o.next_window_id;
  s.next_roll_index = o.next_roll_index;
  s.ended = o.ended;
  s.end_reason = o.end_reason;
  s.voided = o.voided;
  s.unapplied = o.unapplied;
  s.revealed_seed = o.revealed_seed;
  s.active_members = o.active_members;
  for (const auto& pt : o.pending) {
    if (!pt) continue;
    PendingAct p;
    p.id = pt->id;
    p.kind = pt->kind;
    p.actor = pt->actor;
    p.decl = pt->decl;
    if (pt->command) p.command = *pt->command;
    p.cost_due = pt->cost_due;
    p.cost_paid = pt->cost_paid;
    p.progress = pt->progress;
    p.span = pt->span;
    p.trigger = TriggerFromObject(pt->trigger.get());
    p.expiry = ExpiryFromObject(pt->expiry.get());
    p.budget = pt->budget;
    p.opened_at = pt->opened_at;
    p.reacted = pt->reacted;
    s.pending[p.id] = std::move(p);
  }
  s.last_pending_id = o.last_pending_id;
  for (const auto& pt : o.pools) {
    if (!pt) continue;
    auto& values = s.pools[pt->owner];
    for (const auto& n : pt->values) {
      if (n) values[n->key] = n->value;
    }
  }
  if (EncodeState(s) != copy) {
    return absl::DataLossError("state bytes are not canonical");
  }
  return s;
}

std::vector<uint8_t> EncodeState(const State& state) {
  fb::StateT object = ToObject(state);
  flatbuffers::FlatBufferBuilder fbb(1024);
  fbb.Finish(fb::State::Pack(fbb, &object), fb::StateIdentifier());
  return std::vector<uint8_t>(fbb.GetBufferPointer(),
                              fbb.GetBufferPointer() + fbb.GetSize());
}

}  // namespace combat::kernel
