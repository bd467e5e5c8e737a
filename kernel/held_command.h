// A pending act's command (state.h PendingAct::command), kept as FlatBuffers
// bytes instead of an unpacked fb::CommandT.
//
// The reducer folds a PendingOpened by copying the bytes of its Command
// table and everything the table references (one allocation, one memcpy:
// the offsets inside are relative, so the copy reads as the original);
// unpacking into fb::CommandT, with an allocation per string, vector and
// param, waits until a decider or the state codec asks for the object.
//
// Contract:
//  - `get()` is the command as a table (nullptr when none was set: then
//    `object()` is an empty fb::CommandT, as a default PendingAct's was).
//  - `object()` (and the conversion to `const fb::CommandT&`, and `->`)
//    unpacks on first use and keeps the result with the bytes: equal to
//    `get()->UnPack()` in every field, so the state codec encodes a held
//    command exactly as it encoded the unpacked one.
//  - Copies share the immutable bytes and the unpacked object (reference
//    counted); a copy is a pointer copy and an atomic increment.
//  - `Assign(c)` is `*this = Copy(c)`, but writes the bytes into this
//    object's own block when no other HeldCommand shares it and it has room
//    (no allocation, no reference counting): a reused pending act's.
//  - Thread-safety: const members may be called from any number of threads
//    at once (the first unpacking is published with a compare-and-swap);
//    assigning to one HeldCommand while another thread reads that same
//    object is a race, as for any value type.
//  - `Copy` trusts that `c` lies in a buffer the FlatBuffers Verifier
//    accepted (the store's scans and the decider's own events are).
#ifndef COMBAT_KERNEL_HELD_COMMAND_H_
#define COMBAT_KERNEL_HELD_COMMAND_H_

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "events/common_generated.h"

namespace combat::kernel {

class HeldCommand {
 public:
  HeldCommand() = default;
  // Packs `c` (the state codec's decode path and tests).
  HeldCommand(const fb::CommandT& c);  // NOLINT: implicit, as the field was
  HeldCommand& operator=(const fb::CommandT& c);
  HeldCommand(const HeldCommand& o) noexcept : b_(o.b_) { Ref(); }
  HeldCommand(HeldCommand&& o) noexcept : b_(o.b_) { o.b_ = nullptr; }
  HeldCommand& operator=(const HeldCommand& o) noexcept;
  HeldCommand& operator=(HeldCommand&& o) noexcept {
    if (this != &o) {
      if (b_ != nullptr) Unref();
      b_ = o.b_;
      o.b_ = nullptr;
    }
    return *this;
  }
  ~HeldCommand() { Unref(); }

  // A copy of table `c` and what it references, out of `c`'s buffer.
  static HeldCommand Copy(const fb::Command& c);
  // Sets this to a copy of `c`, as `*this = Copy(c)` (see the contract).
  void Assign(const fb::Command& c);

  // The command as a FlatBuffers table, or nullptr when none was set.
  const fb::Command* get() const {
    return b_ == nullptr ? nullptr
                         : reinterpret_cast<const fb::Command*>(Bytes() + b_->table);
  }
  // The command unpacked (once; see the contract above).
  const fb::CommandT& object() const;
  operator const fb::CommandT&() const { return object(); }  // NOLINT
  const fb::CommandT* operator->() const { return &object(); }

 private:
  // One allocation: this header, then the copied bytes at the same address
  // modulo 8 as in the source buffer (so aligned scalars stay aligned).
  struct Block {
    std::atomic<uint32_t> refs;
    uint32_t table;  // offset of the table from Bytes()
    std::atomic<fb::CommandT*> unpacked;
    uint32_t capacity;  // bytes allocated after the header
  };
  static_assert(sizeof(Block) % 8 == 0, "bytes follow the header 8-aligned");

  // The bytes of table `c` and what it references: [*lo, *hi).
  static void Range(const fb::Command& c, const uint8_t** lo, const uint8_t** hi);
  // Copies [lo, hi), which holds `table`, into `b` (capacity checked).
  static void Fill(Block* b, const uint8_t* lo, const uint8_t* hi, const uint8_t* table);
  const uint8_t* Bytes() const { return reinterpret_cast<const uint8_t*>(b_ + 1); }
  void Ref() const {
    if (b_ != nullptr) b_->refs.fetch_add(1, std::memory_order_relaxed);
  }
  void Unref();

  Block* b_ = nullptr;
};

}  // namespace combat::kernel

#endif  // COMBAT_KERNEL_HELD_COMMAND_H_
