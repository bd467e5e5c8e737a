// The state hash by parts (state_codec.h): part encoders and StateHash.
//
// The parts are hashed after every event, so the encoders avoid repeating
// work while writing exactly the bytes a fresh FlatBufferBuilder would:
//  - one builder and one scratch list per kind of offset per thread,
//    cleared between parts (FlatBuffers lays data out from the end of the
//    buffer, so a cleared builder writes the same bytes as a fresh one);
//  - a combatant's spec (id .. tags: what the roster gave) is encoded first,
//    so its bytes and the vtables it leaves behind do not depend on the
//    dynamic fields that follow; the builder's state after it is kept per
//    combatant id and restored while the spec compares equal;
//  - the last combatant encodings and their digests are kept, so that a
//    combatant the reducer marked changed but whose bytes are the same
//    (its digest hint finds them) costs a compare instead of a SHA-256.
// StateHashUncached encodes every part afresh (no cache of any kind) and
// is the reference the tests compare StateHash with.
#include <algorithm>
#include <array>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "kernel/state_codec.h"

namespace combat::kernel {
namespace {

using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;
using flatbuffers::uoffset_t;

// A builder whose state can be saved after the spec and restored later.
class PartBuilder : public FlatBufferBuilder {
 public:
  PartBuilder() : FlatBufferBuilder(1024) {}

  struct Mark {
    std::vector<uint8_t> bytes;     // the buffer so far
    std::vector<uoffset_t> vtables; // the vtables dedup may point at
    size_t minalign = 1;
  };
  void Save(Mark& m) const {
    m.bytes.assign(buf_.data(), buf_.data() + buf_.size());
    m.vtables.assign(reinterpret_cast<const uoffset_t*>(buf_.scratch_data()),
                     reinterpret_cast<const uoffset_t*>(buf_.scratch_end()));
    m.minalign = minalign_;
  }
  // Only between tables (nothing nested, no field pending).
  void Restore(const Mark& m) {
    Clear();
    buf_.push(m.bytes.data(), m.bytes.size());
    for (uoffset_t vt : m.vtables) buf_.scratch_push_small(vt);
    minalign_ = m.minalign;
  }
};

struct Scratch {
  PartBuilder fbb;
  std::vector<Offset<fb::Number>> numbers;
  std::vector<Offset<fb::Weapon>> weapons;
  std::vector<Offset<fb::ConditionState>> conditions;
  std::vector<Offset<fb::OrderEntry>> order;
  std::vector<Offset<fb::WindowState>> windows;
  std::vector<Offset<fb::Cell>> cells;
};

// A fresh scratch (the reference path) or this thread's, its builder
// cleared. Not reentrant: a part encoder must not call another.
class ScratchRef {
 public:
  explicit ScratchRef(bool fresh) {
    if (fresh) {
      own_ = std::make_unique<Scratch>();
      s_ = own_.get();
    } else {
      thread_local Scratch s;
      s_ = &s;
      s_->fbb.Clear();
    }
  }
  Scratch& operator*() const { return *s_; }

 private:
  std::unique_ptr<Scratch> own_;
  Scratch* s_ = nullptr;
};

template <typename T>
Offset<flatbuffers::Vector<Offset<T>>> VectorOf(FlatBufferBuilder& fbb,
                                                const std::vector<Offset<T>>& v) {
  return fbb.CreateVector(v.data(), v.size());
}

Offset<flatbuffers::Vector<Offset<fb::Number>>> Numbers(
    Scratch& s, const std::map<std::string, int64_t>& m) {
  s.numbers.clear();
  for (const auto& [k, v] : m) {
    s.numbers.push_back(fb::CreateNumber(s.fbb, s.fbb.CreateString(k), v));
  }
  return VectorOf(s.fbb, s.numbers);
}

events::Digest Finish(FlatBufferBuilder& fbb) {
  return events::Sha256(fbb.GetBufferPointer(), fbb.GetSize());
}

// The session part: fixed after SessionStarted (and SeedRevealed).
events::Digest SessionDigest(const State& st, bool fresh) {
  ScratchRef ref(fresh);
  Scratch& s = *ref;
  FlatBufferBuilder& fbb = s.fbb;
  s.cells.clear();
  for (const auto& [pos, terrain] : st.map.terrain) {
    const fb::Pos at(pos.x, pos.y);
    s.cells.push_back(fb::CreateCell(fbb, &at, fbb.CreateString(terrain)));
  }
  auto map = fb::CreateMap(fbb, st.map.width, st.map.height, VectorOf(fbb, s.cells),
                           st.map.unit, st.map.square);
  auto session = fbb.CreateString(st.session);
  auto title = fbb.CreateString(st.title);
  auto ruleset = fbb.CreateString(st.ruleset);
  auto commitment = fbb.CreateVector(st.dice_commitment);
  auto revealed = fbb.CreateVector(st.revealed_seed);
  fb::StateBuilder b(fbb);
  b.add_session(session);
  b.add_title(title);
  b.add_ruleset(ruleset);
  b.add_ruleset_version(st.ruleset_version);
  b.add_schema_version(st.schema_version);
  b.add_dice_commitment(commitment);
  b.add_map(map);
  b.add_revealed_seed(revealed);
  fbb.Finish(b.Finish());
  return Finish(fbb);
}

// The schedule part: what changes with (almost) every event.
events::Digest ScheduleDigest(const State& st, bool fresh) {
  ScratchRef ref(fresh);
  Scratch& s = *ref;
  FlatBufferBuilder& fbb = s.fbb;
  s.order.clear();
  for (const OrderEntry& e : st.order) {
    // v5 members: absent when empty, so older states hash as before.
    Offset<flatbuffers::Vector<Offset<flatbuffers::String>>> members = 0;
    if (!e.members.empty()) members = fbb.CreateVectorOfStrings(e.members);
    auto actor = fbb.CreateString(e.actor);
    s.order.push_back(
        fb::CreateOrderEntry(fbb, actor, e.initiative, e.delayed, members));
  }
  s.windows.clear();
  for (const auto& [id, w] : st.windows) {
    // Every offset is made in a fixed order before the Create call: C++
    // leaves the order of argument evaluation to the compiler.
    auto kind = fbb.CreateString(w.kind);
    auto eligible = fbb.CreateVectorOfStrings(w.eligible);
    auto answered = fbb.CreateVectorOfStrings(w.answered);
    Offset<flatbuffers::Vector<uint64_t>> answer_seqs = 0;  // v5: absent when empty
    if (!w.answer_seqs.empty()) answer_seqs = fbb.CreateVector(w.answer_seqs);
    s.windows.push_back(fb::CreateWindowState(fbb, w.id, w.trigger, kind, eligible,
                                              answered, w.opened_at, w.policy, w.pay,
                                              w.parent, w.pending, answer_seqs));
  }
  auto order_v = VectorOf(fbb, s.order);
  auto windows_v = VectorOf(fbb, s.windows);
  auto active = fbb.CreateString(st.active);
  auto acted = fbb.CreateVectorOfStrings(st.acted);
  auto end_reason = fbb.CreateString(st.end_reason);
  auto voided = fbb.CreateVector(st.voided);
  auto unapplied = fbb.CreateVector(st.unapplied);
  // v5 parts: absent when empty, so a state that uses none of them hashes
  // as it did under schema version 4.
  Offset<flatbuffers::Vector<Offset<flatbuffers::String>>> members = 0;
  if (!st.active_members.empty()) members = fbb.CreateVectorOfStrings(st.active_members);
  Offset<flatbuffers::Vector<Offset<fb::PendingState>>> pending = 0;
  if (!st.pending.empty()) {
    std::vector<Offset<fb::PendingState>> items;
    for (const auto& [id, p] : st.pending) {
      const auto object = PendingToObject(p);
      items.push_back(fb::PendingState::Pack(fbb, object.get()));
    }
    pending = VectorOf(fbb, items);
  }
  Offset<flatbuffers::Vector<Offset<fb::PoolState>>> pools = 0;
  if (!st.pools.empty()) {
    std::vector<Offset<fb::PoolState>> items;
    for (const auto& [owner, values] : st.pools) {
      auto owner_s = fbb.CreateString(owner);
      auto values_v = Numbers(s, values);
      items.push_back(fb::CreatePoolState(fbb, owner_s, values_v));
    }
    pools = VectorOf(fbb, items);
  }
  fb::StateBuilder b(fbb);
  b.add_seq(st.seq);
  b.add_round(st.round);
  b.add_active(active);
  b.add_order(order_v);
  b.add_acted(acted);
  b.add_windows(windows_v);
  b.add_next_condition_id(st.next_condition_id);
  b.add_next_window_id(st.next_window_id);
  b.add_next_roll_index(st.next_roll_index);
  b.add_ended(st.ended);
  b.add_end_reason(end_reason);
  b.add_voided(voided);
  b.add_unapplied(unapplied);
  if (!members.IsNull()) b.add_active_members(members);
  if (!pending.IsNull()) b.add_pending(pending);
  b.add_last_pending_id(st.last_pending_id);
  if (!pools.IsNull()) b.add_pools(pools);
  fbb.Finish(b.Finish());
  return Finish(fbb);
}

// The spec fields of a combatant, as last encoded.
struct SpecCopy {
  std::string id, name, side, controller, player;
  int32_t size = 0;
  std::vector<std::string> tags;
  std::map<std::string, int64_t> stats;
  std::vector<Weapon> weapons;
};

bool SameWeapon(const Weapon& a, const Weapon& b) {
  return a.name == b.name && a.damage == b.damage && a.kind == b.kind &&
         a.category == b.category && a.reach == b.reach &&
         a.range_increment == b.range_increment &&
         a.damage_type == b.damage_type && a.numbers == b.numbers;
}

bool SameSpec(const Combatant& c, const SpecCopy& s) {
  return c.id == s.id && c.name == s.name && c.side == s.side &&
         c.size == s.size && c.controller == s.controller && c.player == s.player &&
         c.tags == s.tags &&
         c.stats == s.stats &&
         std::equal(c.weapons.begin(), c.weapons.end(), s.weapons.begin(),
                    s.weapons.end(), SameWeapon);
}

struct SpecEntry {
  SpecCopy spec;
  PartBuilder::Mark mark;
  Offset<fb::CombatantSpec> offset;
};

// This thread's encoded specs, by combatant id (bounded: a thread folds a
// handful of sessions at a time).
constexpr size_t kMaxSpecs = 64;

Offset<fb::CombatantSpec> BuildSpec(Scratch& s, const Combatant& c) {
  FlatBufferBuilder& fbb = s.fbb;
  s.weapons.clear();
  for (const Weapon& w : c.weapons) {
    // Offsets in a fixed order (argument evaluation order is unspecified).
    auto name = fbb.CreateString(w.name);
    auto damage = fbb.CreateString(w.damage);
    auto kind = fbb.CreateString(w.kind);
    auto category = fbb.CreateString(w.category);
    auto damage_type = fbb.CreateString(w.damage_type);
    auto numbers = Numbers(s, w.numbers);
    s.weapons.push_back(fb::CreateWeapon(fbb, name, damage, kind, category, w.reach,
                                         w.range_increment, damage_type, numbers));
  }
  auto id = fbb.CreateString(c.id);
  auto name = fbb.CreateString(c.name);
  auto side = fbb.CreateString(c.side);
  auto stats = Numbers(s, c.stats);
  auto weapons_v = VectorOf(fbb, s.weapons);
  auto controller = fbb.CreateString(c.controller);
  auto tags = fbb.CreateVectorOfStrings(c.tags);
  // v7: absent when empty, so a spec without a player hashes as before.
  auto player = c.player.empty() ? Offset<flatbuffers::String>() : fbb.CreateString(c.player);
  return fb::CreateCombatantSpec(fbb, id, name, side, c.size, nullptr, stats,
                                 weapons_v, controller, tags, player);
}

// The spec, first in the builder: restored from this thread's cache when
// the spec is unchanged, else built (and cached unless `fresh`).
Offset<fb::CombatantSpec> Spec(Scratch& s, const Combatant& c, bool fresh) {
  if (fresh) return BuildSpec(s, c);
  thread_local std::map<std::string, SpecEntry> specs;
  auto it = specs.find(c.id);
  if (it != specs.end() && SameSpec(c, it->second.spec)) {
    s.fbb.Restore(it->second.mark);
    return it->second.offset;
  }
  const Offset<fb::CombatantSpec> offset = BuildSpec(s, c);
  if (it == specs.end()) {
    if (specs.size() >= kMaxSpecs) specs.clear();
    it = specs.emplace(c.id, SpecEntry()).first;
  }
  SpecEntry& e = it->second;
  e.spec = SpecCopy{c.id, c.name, c.side, c.controller, c.player, c.size, c.tags, c.stats,
                    c.weapons};
  s.fbb.Save(e.mark);
  e.offset = offset;
  return offset;
}

// SHA-256 of combatant encodings, remembered for the last few (the digest
// of equal bytes is the same digest: this only saves recomputing it).
class DigestMemo {
 public:
  // The digest of `bytes`; `hint` is the digest the combatant had before.
  events::Digest Of(const uint8_t* data, size_t size, const events::Digest& hint) {
    for (Entry& e : entries_) {
      if (e.digest == hint && e.bytes.size() == size &&
          std::memcmp(e.bytes.data(), data, size) == 0) {
        return e.digest;
      }
    }
    Entry& e = entries_[next_];
    next_ = (next_ + 1) % entries_.size();
    e.digest = events::Sha256(data, size);
    e.bytes.assign(data, data + size);
    return e.digest;
  }

 private:
  struct Entry {
    events::Digest digest{};
    std::vector<uint8_t> bytes;
  };
  std::array<Entry, 16> entries_;
  size_t next_ = 0;
};

events::Digest CombatantDigest(const Combatant& c, bool fresh) {
  ScratchRef ref(fresh);
  Scratch& s = *ref;
  FlatBufferBuilder& fbb = s.fbb;
  const Offset<fb::CombatantSpec> spec = Spec(s, c, fresh);
  s.conditions.clear();
  for (const auto& [cid, cond] : c.conditions) {
    auto cname = fbb.CreateString(cond.name);
    auto source = fbb.CreateString(cond.source);
    auto relative_to = fbb.CreateString(cond.relative_to);
    auto expiry = fb::CreateExpiry(fbb, cond.expiry.kind,
                                   fbb.CreateString(cond.expiry.actor),
                                   cond.expiry.round);
    auto note = fbb.CreateString(cond.note);
    s.conditions.push_back(fb::CreateConditionState(
        fbb, cond.id, cname, source, relative_to, cond.level, expiry,
        cond.parent, cond.ref, note, cond.added_at));
  }
  const fb::Pos at(c.at.x, c.at.y);
  auto resources = Numbers(s, c.resources);
  auto conds = VectorOf(fbb, s.conditions);
  fbb.Finish(fb::CreateCombatantState(fbb, spec, &at, resources, conds));
  if (fresh) return Finish(fbb);
  thread_local DigestMemo memo;
  return memo.Of(fbb.GetBufferPointer(), fbb.GetSize(), c.digest);
}

uint8_t BucketOf(const Combatant& c) {
  if (c.bucket < 0) c.bucket = events::Sha256(reinterpret_cast<const uint8_t*>(c.id.data()), c.id.size())[0];
  return static_cast<uint8_t>(c.bucket);
}

// The digest of combatant `c` (cached unless `fresh`); `changed` is set when
// it had to be recomputed.
events::Digest DigestOf(const Combatant& c, bool fresh, bool* changed) {
  if (fresh) return CombatantDigest(c, true);
  if (!c.digest_valid) {
    c.digest = CombatantDigest(c, false);
    c.digest_valid = true;
    if (changed != nullptr) *changed = true;
  }
  return c.digest;
}

// Schema version 5 on: the roster part, so that an event costs the bucket
// it changed, not every combatant (3,000 combatants: 96 KB hashed per event
// before). Combatants fall in 256 buckets by the first byte of SHA-256(id);
// a bucket's digest is SHA-256 of its combatants' digests in id order; the
// roster part is SHA-256 of (bucket number, bucket digest) for every
// non-empty bucket in bucket order.
events::Digest RosterDigest(const State& state, bool fresh) {
  // Every combatant's bucket and digest in id order; which buckets changed.
  std::vector<std::pair<uint8_t, events::Digest>> parts;
  parts.reserve(state.combatants.size());
  std::array<bool, 256> dirty{};
  for (const auto& [id, c] : state.combatants) {
    bool changed = fresh;
    const events::Digest d = DigestOf(c, fresh, &changed);
    parts.emplace_back(BucketOf(c), d);
    if (changed) dirty[parts.back().first] = true;
  }
  std::map<uint8_t, events::Digest> local;
  std::map<uint8_t, events::Digest>& buckets = fresh ? local : state.bucket_digests;
  std::vector<uint8_t> joined;
  for (int b = 0; b < 256; ++b) {
    const uint8_t bucket = static_cast<uint8_t>(b);
    if (!dirty[b] && (fresh || buckets.count(bucket) != 0)) continue;
    joined.clear();
    for (const auto& [pb, d] : parts) {
      if (pb == bucket) joined.insert(joined.end(), d.begin(), d.end());
    }
    if (joined.empty()) continue;
    buckets[bucket] = events::Sha256(joined.data(), joined.size());
  }
  joined.clear();
  joined.reserve(buckets.size() * 33);
  for (const auto& [b, d] : buckets) {
    joined.push_back(b);
    joined.insert(joined.end(), d.begin(), d.end());
  }
  return events::Sha256(joined.data(), joined.size());
}

events::Digest Hash(const State& state, bool fresh) {
  static constexpr char kDomain[] = "combat-state-v1";
  constexpr size_t kDomainSize = sizeof(kDomain) - 1;
  // The domain and every part's digest, inline for up to 14 combatants.
  const bool v5 = state.schema_version >= 5;
  absl::InlinedVector<uint8_t, kDomainSize + 32 * 16> joined(
      kDomainSize + 32 * (2 + (v5 ? 0 : state.combatants.size())));
  uint8_t* out = std::copy(kDomain, kDomain + kDomainSize, joined.data());
  if (fresh) {
    const events::Digest session = SessionDigest(state, true);
    out = std::copy(session.begin(), session.end(), out);
  } else {
    if (!state.session_digest_valid) {
      state.session_digest = SessionDigest(state, false);
      state.session_digest_valid = true;
    }
    out = std::copy(state.session_digest.begin(), state.session_digest.end(), out);
  }
  const events::Digest schedule = ScheduleDigest(state, fresh);
  out = std::copy(schedule.begin(), schedule.end(), out);
  if (v5) {
    static constexpr char kDomain5[] = "combat-state-v5";
    const events::Digest roster = RosterDigest(state, fresh);
    std::array<uint8_t, sizeof(kDomain5) - 1 + 3 * 32> v5{};
    uint8_t* at = std::copy(kDomain5, kDomain5 + sizeof(kDomain5) - 1, v5.data());
    at = std::copy(joined.data() + kDomainSize, joined.data() + kDomainSize + 64, at);
    std::copy(roster.begin(), roster.end(), at);
    return events::Sha256(v5.data(), v5.size());
  }
  for (const auto& [id, c] : state.combatants) {
    if (fresh) {
      const events::Digest d = CombatantDigest(c, true);
      out = std::copy(d.begin(), d.end(), out);
      continue;
    }
    if (!c.digest_valid) {
      c.digest = CombatantDigest(c, false);
      c.digest_valid = true;
    }
    out = std::copy(c.digest.begin(), c.digest.end(), out);
  }
  return events::Sha256(joined.data(), joined.size());
}

}  // namespace

events::Digest StateHash(const State& state) { return Hash(state, false); }

events::Digest StateHashUncached(const State& state) { return Hash(state, true); }

}  // namespace combat::kernel
