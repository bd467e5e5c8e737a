#include "kernel/held_command.h"

#include <cstring>
#include <new>
#include <utility>

#include "flatbuffers/flatbuffers.h"

namespace combat::kernel {
namespace {

// Every field of Command, Param and Ref is covered below: a field added to
// the schema must be added to Extent too (these asserts fail first).
static_assert(fb::Command::VT_CONTRIBUTION == 30,
              "Command has a new field: cover it in HeldCommand's Extent");
static_assert(fb::Param::VT_TEXT == 8,
              "Param has a new field: cover it in HeldCommand's Extent");
static_assert(fb::Ref::VT_PENDING == 10,
              "Ref has a new field: cover it in HeldCommand's Extent");

// The lowest and highest (one past) address of the objects a table
// references, grown object by object. A table, string or vector is
// reached through an unsigned offset (uoffset_t), so it lies above the
// table that references it, which lies at or above `lo` already: only a
// vtable (a signed offset away) can lower `lo`.
struct Extent {
  const uint8_t* lo;
  const uint8_t* hi;

  void Add(const void* p, size_t n) {
    const uint8_t* b = static_cast<const uint8_t*>(p);
    if (b < lo) lo = b;
    Above(b, n);
  }
  void Above(const void* p, size_t n) {
    const uint8_t* e = static_cast<const uint8_t*>(p) + n;
    if (e > hi) hi = e;
  }
  // A table (the root, at `lo`, or one referenced): its vtable and its
  // inline fields.
  void Table(const void* t) {
    const uint8_t* p = static_cast<const uint8_t*>(t);
    const uint8_t* vt = p - flatbuffers::ReadScalar<flatbuffers::soffset_t>(p);
    Add(vt, flatbuffers::ReadScalar<flatbuffers::voffset_t>(vt));
    Above(p, flatbuffers::ReadScalar<flatbuffers::voffset_t>(vt + 2));
  }
  // A string: its length, bytes and terminator.
  void String(const flatbuffers::String* s) {
    if (s != nullptr) Above(s, sizeof(flatbuffers::uoffset_t) + s->size() + 1);
  }
  // A vector: its length and `elem`-byte elements.
  template <typename V>
  void Vector(const V* v, size_t elem) {
    if (v != nullptr) Above(v, sizeof(flatbuffers::uoffset_t) + v->size() * elem);
  }
};

}  // namespace

HeldCommand::HeldCommand(const fb::CommandT& c) { *this = c; }

HeldCommand& HeldCommand::operator=(const fb::CommandT& c) {
  flatbuffers::FlatBufferBuilder fbb;
  fbb.Finish(fb::Command::Pack(fbb, &c));
  const uint8_t* buf = fbb.GetBufferPointer();
  Assign(*flatbuffers::GetRoot<fb::Command>(buf));
  return *this;
}

HeldCommand& HeldCommand::operator=(const HeldCommand& o) noexcept {
  if (b_ != o.b_) {
    o.Ref();
    Unref();
    b_ = o.b_;
  }
  return *this;
}

void HeldCommand::Unref() {
  if (b_ == nullptr) return;
  if (b_->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    delete b_->unpacked.load(std::memory_order_acquire);
    b_->~Block();
    ::operator delete(b_);
  }
  b_ = nullptr;
}

void HeldCommand::Range(const fb::Command& c, const uint8_t** lo, const uint8_t** hi) {
  const uint8_t* t = reinterpret_cast<const uint8_t*>(&c);
  Extent e{t, t};
  e.Table(t);
  e.String(c.id());
  e.String(c.actor());
  e.String(c.author());
  e.String(c.action());
  if (const auto* v = c.targets()) {
    e.Vector(v, sizeof(flatbuffers::uoffset_t));
    for (const flatbuffers::String* s : *v) e.String(s);
  }
  e.String(c.weapon());
  e.Vector(c.path(), sizeof(fb::Pos));
  if (const auto* v = c.params()) {
    e.Vector(v, sizeof(flatbuffers::uoffset_t));
    for (const fb::Param* p : *v) {
      e.Table(p);
      e.String(p->key());
      e.String(p->text());
    }
  }
  e.String(c.text());
  e.Vector(c.dice(), sizeof(int32_t));
  if (const auto* v = c.refs()) {
    e.Vector(v, sizeof(flatbuffers::uoffset_t));
    for (const fb::Ref* r : *v) {
      e.Table(r);
      e.String(r->key());
    }
  }
  e.String(c.contribution());
  *lo = e.lo;
  *hi = e.hi;
}

HeldCommand HeldCommand::Copy(const fb::Command& c) {
  HeldCommand out;
  out.Assign(c);
  return out;
}

void HeldCommand::Assign(const fb::Command& c) {
  if (&c == get()) return;  // its own table: already a copy of it
  const uint8_t* lo;
  const uint8_t* hi;
  Range(c, &lo, &hi);
  const size_t need = (reinterpret_cast<uintptr_t>(lo) & 7) + static_cast<size_t>(hi - lo);
  // Reused when this is its only owner (acquire: another owner's last
  // reads happen before its release in Unref) and it has room.
  if (b_ != nullptr && b_->capacity >= need &&
      b_->refs.load(std::memory_order_acquire) == 1) {
    delete b_->unpacked.load(std::memory_order_relaxed);
    b_->unpacked.store(nullptr, std::memory_order_relaxed);
    Fill(b_, lo, hi, reinterpret_cast<const uint8_t*>(&c));
    return;
  }
  if (b_ != nullptr) Unref();
  // Rounded up: a later, somewhat longer command fits in the same block.
  const size_t capacity = (need + 63) & ~size_t{63};
  void* mem = ::operator new(sizeof(Block) + capacity);
  Block* b = new (mem) Block;
  b->refs.store(1, std::memory_order_relaxed);
  b->unpacked.store(nullptr, std::memory_order_relaxed);
  b->capacity = static_cast<uint32_t>(capacity);
  Fill(b, lo, hi, reinterpret_cast<const uint8_t*>(&c));
  b_ = b;
}

void HeldCommand::Fill(Block* b, const uint8_t* lo, const uint8_t* hi,
                       const uint8_t* table) {
  const size_t shift = reinterpret_cast<uintptr_t>(lo) & 7;
  b->table = static_cast<uint32_t>(shift + (table - lo));
  std::memcpy(reinterpret_cast<uint8_t*>(b + 1) + shift, lo, static_cast<size_t>(hi - lo));
}

const fb::CommandT& HeldCommand::object() const {
  static const fb::CommandT* const kEmpty = new fb::CommandT();
  if (b_ == nullptr) return *kEmpty;
  fb::CommandT* u = b_->unpacked.load(std::memory_order_acquire);
  if (u != nullptr) return *u;
  fb::CommandT* fresh = get()->UnPack();
  if (b_->unpacked.compare_exchange_strong(u, fresh, std::memory_order_acq_rel,
                                           std::memory_order_acquire)) {
    return *fresh;
  }
  delete fresh;  // another thread published first: `u` holds its object
  return *u;
}

}  // namespace combat::kernel
