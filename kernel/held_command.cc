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
// references, grown object by object.
struct Extent {
  const uint8_t* lo;
  const uint8_t* hi;

  void Add(const void* p, size_t n) {
    const uint8_t* b = static_cast<const uint8_t*>(p);
    if (b < lo) lo = b;
    if (b + n > hi) hi = b + n;
  }
  // A table: its vtable and its inline fields.
  void Table(const void* t) {
    const uint8_t* p = static_cast<const uint8_t*>(t);
    const uint8_t* vt = p - flatbuffers::ReadScalar<flatbuffers::soffset_t>(p);
    Add(vt, flatbuffers::ReadScalar<flatbuffers::voffset_t>(vt));
    Add(p, flatbuffers::ReadScalar<flatbuffers::voffset_t>(vt + 2));
  }
  // A string: its length, bytes and terminator.
  void String(const flatbuffers::String* s) {
    if (s != nullptr) Add(s, sizeof(flatbuffers::uoffset_t) + s->size() + 1);
  }
  // A vector: its length and `elem`-byte elements.
  template <typename V>
  void Vector(const V* v, size_t elem) {
    if (v != nullptr) Add(v, sizeof(flatbuffers::uoffset_t) + v->size() * elem);
  }
};

}  // namespace

HeldCommand::HeldCommand(const fb::CommandT& c) { *this = c; }

HeldCommand& HeldCommand::operator=(const fb::CommandT& c) {
  flatbuffers::FlatBufferBuilder fbb;
  fbb.Finish(fb::Command::Pack(fbb, &c));
  const uint8_t* buf = fbb.GetBufferPointer();
  return *this = Copy(*flatbuffers::GetRoot<fb::Command>(buf));
}

HeldCommand& HeldCommand::operator=(const HeldCommand& o) noexcept {
  if (b_ != o.b_) {
    o.Ref();
    Unref();
    b_ = o.b_;
  }
  return *this;
}

HeldCommand& HeldCommand::operator=(HeldCommand&& o) noexcept {
  if (this != &o) {
    Unref();
    b_ = o.b_;
    o.b_ = nullptr;
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

HeldCommand HeldCommand::Copy(const fb::Command& c) {
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
  return FromRange(e.lo, e.hi, t);
}

HeldCommand HeldCommand::FromRange(const uint8_t* lo, const uint8_t* hi,
                                   const uint8_t* table) {
  const size_t shift = reinterpret_cast<uintptr_t>(lo) & 7;
  const size_t n = static_cast<size_t>(hi - lo);
  void* mem = ::operator new(sizeof(Block) + shift + n);
  Block* b = new (mem) Block;
  b->refs.store(1, std::memory_order_relaxed);
  b->table = static_cast<uint32_t>(shift + (table - lo));
  b->unpacked.store(nullptr, std::memory_order_relaxed);
  std::memcpy(reinterpret_cast<uint8_t*>(b + 1) + shift, lo, n);
  HeldCommand out;
  out.b_ = b;
  return out;
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
