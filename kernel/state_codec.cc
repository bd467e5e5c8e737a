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

std::unique_ptr<fb::ExpiryT> ToObject(const Expiry& e) {
  auto out = std::make_unique<fb::ExpiryT>();
  out->kind = e.kind;
  out->actor = e.actor;
  out->round = e.round;
  return out;
}

std::unique_ptr<fb::CombatantStateT> ToObject(const Combatant& c) {
  auto out = std::make_unique<fb::CombatantStateT>();
  out->spec = std::make_unique<fb::CombatantSpecT>();
  fb::CombatantSpecT& spec = *out->spec;
  spec.id = c.id;
  spec.name = c.name;
  spec.side = c.side;
  spec.size = c.size;
  spec.controller = c.controller;
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
    ct->expiry = ToObject(cond.expiry);
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
    for (const auto& cell : o.map->cells) {
      if (cell && cell->at) s.map.terrain[{cell->at->x(), cell->at->y()}] = cell->terrain;
    }
  }
  s.seq = o.seq;
  s.round = o.round;
  s.active = o.active;
  for (const auto& e : o.order) {
    if (e) s.order.push_back({e->actor, e->initiative, e->delayed});
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
      if (cs->expiry) {
        cond.expiry.kind = cs->expiry->kind;
        cond.expiry.actor = cs->expiry->actor;
        cond.expiry.round = cs->expiry->round;
      }
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

namespace {

using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<flatbuffers::String>>>
Strings(FlatBufferBuilder& fbb, const std::vector<std::string>& v) {
  return fbb.CreateVectorOfStrings(v);
}

Offset<fb::Expiry> BuildExpiry(FlatBufferBuilder& fbb, const Expiry& e) {
  return fb::CreateExpiry(fbb, e.kind, fbb.CreateString(e.actor), e.round);
}

Offset<flatbuffers::Vector<Offset<fb::Number>>> Numbers(
    FlatBufferBuilder& fbb, const std::map<std::string, int64_t>& m) {
  std::vector<Offset<fb::Number>> out;
  out.reserve(m.size());
  for (const auto& [k, v] : m) {
    out.push_back(fb::CreateNumber(fbb, fbb.CreateString(k), v));
  }
  return fbb.CreateVector(out);
}

events::Digest Finish(FlatBufferBuilder& fbb) {
  return events::Sha256(fbb.GetBufferPointer(), fbb.GetSize());
}

// The session part: fixed after SessionStarted (and SeedRevealed).
events::Digest SessionDigest(const State& s) {
  FlatBufferBuilder fbb(512);
  std::vector<Offset<fb::Cell>> cells;
  for (const auto& [pos, terrain] : s.map.terrain) {
    const fb::Pos at(pos.x, pos.y);
    cells.push_back(fb::CreateCell(fbb, &at, fbb.CreateString(terrain)));
  }
  auto map = fb::CreateMap(fbb, s.map.width, s.map.height, fbb.CreateVector(cells));
  auto session = fbb.CreateString(s.session);
  auto title = fbb.CreateString(s.title);
  auto ruleset = fbb.CreateString(s.ruleset);
  auto commitment = fbb.CreateVector(s.dice_commitment);
  auto revealed = fbb.CreateVector(s.revealed_seed);
  fb::StateBuilder b(fbb);
  b.add_session(session);
  b.add_title(title);
  b.add_ruleset(ruleset);
  b.add_ruleset_version(s.ruleset_version);
  b.add_schema_version(s.schema_version);
  b.add_dice_commitment(commitment);
  b.add_map(map);
  b.add_revealed_seed(revealed);
  fbb.Finish(b.Finish());
  return Finish(fbb);
}

// The schedule part: what changes with (almost) every event.
events::Digest ScheduleDigest(const State& s) {
  FlatBufferBuilder fbb(512);
  std::vector<Offset<fb::OrderEntry>> order;
  for (const OrderEntry& e : s.order) {
    order.push_back(fb::CreateOrderEntry(fbb, fbb.CreateString(e.actor),
                                         e.initiative, e.delayed));
  }
  std::vector<Offset<fb::WindowState>> windows;
  for (const auto& [id, w] : s.windows) {
    // Every offset is made in a fixed order before the Create call: C++
    // leaves the order of argument evaluation to the compiler.
    auto kind = fbb.CreateString(w.kind);
    auto eligible = Strings(fbb, w.eligible);
    auto answered = Strings(fbb, w.answered);
    windows.push_back(fb::CreateWindowState(fbb, w.id, w.trigger, kind, eligible,
                                            answered, w.opened_at));
  }
  auto order_v = fbb.CreateVector(order);
  auto windows_v = fbb.CreateVector(windows);
  auto active = fbb.CreateString(s.active);
  auto acted = Strings(fbb, s.acted);
  auto end_reason = fbb.CreateString(s.end_reason);
  auto voided = fbb.CreateVector(s.voided);
  auto unapplied = fbb.CreateVector(s.unapplied);
  fb::StateBuilder b(fbb);
  b.add_seq(s.seq);
  b.add_round(s.round);
  b.add_active(active);
  b.add_order(order_v);
  b.add_acted(acted);
  b.add_windows(windows_v);
  b.add_next_condition_id(s.next_condition_id);
  b.add_next_window_id(s.next_window_id);
  b.add_next_roll_index(s.next_roll_index);
  b.add_ended(s.ended);
  b.add_end_reason(end_reason);
  b.add_voided(voided);
  b.add_unapplied(unapplied);
  fbb.Finish(b.Finish());
  return Finish(fbb);
}

events::Digest CombatantDigest(const Combatant& c) {
  FlatBufferBuilder fbb(512);
  std::vector<Offset<fb::Weapon>> weapons;
  for (const Weapon& w : c.weapons) {
    // Offsets in a fixed order (argument evaluation order is unspecified).
    auto name = fbb.CreateString(w.name);
    auto damage = fbb.CreateString(w.damage);
    auto kind = fbb.CreateString(w.kind);
    auto category = fbb.CreateString(w.category);
    auto damage_type = fbb.CreateString(w.damage_type);
    auto numbers = Numbers(fbb, w.numbers);
    weapons.push_back(fb::CreateWeapon(fbb, name, damage, kind, category, w.reach,
                                       w.range_increment, damage_type, numbers));
  }
  auto id = fbb.CreateString(c.id);
  auto name = fbb.CreateString(c.name);
  auto side = fbb.CreateString(c.side);
  auto stats = Numbers(fbb, c.stats);
  auto weapons_v = fbb.CreateVector(weapons);
  auto controller = fbb.CreateString(c.controller);
  auto tags = Strings(fbb, c.tags);
  auto spec = fb::CreateCombatantSpec(fbb, id, name, side, c.size, nullptr, stats,
                                      weapons_v, controller, tags);
  std::vector<Offset<fb::ConditionState>> conditions;
  for (const auto& [cid, cond] : c.conditions) {
    auto cname = fbb.CreateString(cond.name);
    auto source = fbb.CreateString(cond.source);
    auto relative_to = fbb.CreateString(cond.relative_to);
    auto expiry = BuildExpiry(fbb, cond.expiry);
    auto note = fbb.CreateString(cond.note);
    conditions.push_back(fb::CreateConditionState(
        fbb, cond.id, cname, source, relative_to, cond.level, expiry,
        cond.parent, cond.ref, note, cond.added_at));
  }
  const fb::Pos at(c.at.x, c.at.y);
  auto resources = Numbers(fbb, c.resources);
  auto conds = fbb.CreateVector(conditions);
  fbb.Finish(fb::CreateCombatantState(fbb, spec, &at, resources, conds));
  return Finish(fbb);
}

}  // namespace

events::Digest StateHash(const State& state) {
  static constexpr char kDomain[] = "combat-state-v1";
  std::vector<uint8_t> joined(kDomain, kDomain + sizeof(kDomain) - 1);
  joined.reserve(joined.size() + 32 * (2 + state.combatants.size()));
  if (!state.session_digest_valid) {
    state.session_digest = SessionDigest(state);
    state.session_digest_valid = true;
  }
  joined.insert(joined.end(), state.session_digest.begin(),
                state.session_digest.end());
  const events::Digest schedule = ScheduleDigest(state);
  joined.insert(joined.end(), schedule.begin(), schedule.end());
  for (const auto& [id, c] : state.combatants) {
    if (!c.digest_valid) {
      c.digest = CombatantDigest(c);
      c.digest_valid = true;
    }
    joined.insert(joined.end(), c.digest.begin(), c.digest.end());
  }
  return events::Sha256(joined);
}

events::Digest StateHashUncached(const State& state) {
  State copy = state;
  copy.session_digest_valid = false;
  for (auto& [id, c] : copy.combatants) c.digest_valid = false;
  return StateHash(copy);
}

}  // namespace combat::kernel
