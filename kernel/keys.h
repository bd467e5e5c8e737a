// String keys for the state's maps, looked up by the reducer straight from
// an event's bytes (no std::string copy, no memcmp call).
//
//  - KeyLess: the order of std::less<std::string> (bytes as unsigned char,
//    then length), compared inline 8 bytes at a time. Transparent, so a map
//    using it is searched with a std::string_view. Ids and names are short:
//    a call to memcmp costs more than comparing them.
//  - KeyIndex: for the hottest lookups (a combatant by id, a resource by
//    name), a sorted array of the map's entries keyed by their first 8
//    bytes as an integer. It points into the map's nodes: it is emptied by
//    any copy or move and re-read whenever the map's size changed; entries
//    must not be erased while it is in use (state.h: only the reducer
//    changes a state it folds into). It remembers the key it found last
//    and checks it first.
#ifndef COMBAT_KERNEL_KEYS_H_
#define COMBAT_KERNEL_KEYS_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace combat::kernel {

// <0, 0 or >0 as std::string_view::compare, without calling memcmp.
inline int CompareKeys(std::string_view a, std::string_view b) {
  const size_t n = a.size() < b.size() ? a.size() : b.size();
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t x, y;
    std::memcpy(&x, a.data() + i, 8);
    std::memcpy(&y, b.data() + i, 8);
    if (x != y) break;
  }
  for (; i < n; ++i) {
    const unsigned char x = static_cast<unsigned char>(a[i]);
    const unsigned char y = static_cast<unsigned char>(b[i]);
    if (x != y) return x < y ? -1 : 1;
  }
  return a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
}

struct KeyLess {
  using is_transparent = void;
  bool operator()(std::string_view a, std::string_view b) const {
    return CompareKeys(a, b) < 0;
  }
};

// The first 8 bytes of `k` (zero-padded) as a big-endian integer: where two
// heads differ they order as the keys do; equal heads need CompareKeys.
// Reads only the bytes of `k`.
inline uint64_t KeyHead(std::string_view k) {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(k.data());
  const size_t n = k.size();
  if (n >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    return __builtin_bswap64(w);
  }
  if (n >= 4) {  // two overlapping 4-byte loads
    uint32_t hi, lo;
    std::memcpy(&hi, p, 4);
    std::memcpy(&lo, p + n - 4, 4);
    return (uint64_t{__builtin_bswap32(hi)} << 32) |
           (uint64_t{__builtin_bswap32(lo)} << (8 * (8 - n)));
  }
  if (n == 0) return 0;
  return (uint64_t{p[0]} << 56) | (uint64_t{p[n / 2]} << (56 - 8 * (n / 2))) |
         (uint64_t{p[n - 1]} << (56 - 8 * (n - 1)));
}

// KeyHead(std::string_view(p, n)) for a key that the 4 readable bytes of
// a length prefix precede (a flatbuffers::String): loads that may start
// in the prefix replace KeyHead's branches and byte loads.
__attribute__((always_inline)) inline uint64_t PrefixedKeyHead(const char* p, size_t n) {
  if (n >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    return __builtin_bswap64(w);
  }
  if (n >= 4) {  // bytes [p + n - 8, p + n): from inside the prefix
    uint64_t w;
    std::memcpy(&w, p + n - 8, 8);
    return __builtin_bswap64(w) << (8 * (8 - n));
  }
  if (n == 0) return 0;
  uint32_t w;  // bytes [p + n - 4, p + n)
  std::memcpy(&w, p + n - 4, 4);
  return uint64_t{__builtin_bswap32(w)} << (32 + 8 * (4 - n));
}

// An index of the values of a std::map<std::string, V, C> (C ordering as
// std::less<std::string> does), for a map whose lookups are hot: a sorted
// array of (KeyHead, key, value) searched by comparing integers. It holds
// pointers into the map's nodes, so:
//  - it serves one map: the object that owns both;
//  - a copy or move starts empty (it would point into the source);
//  - it is re-read whenever the map's size is not the size it last saw (an
//    entry added elsewhere is then found);
//  - entries must not be erased, nor the map reassigned, while it is in use.
template <typename Map>
class KeyIndex {
 public:
  using Value = typename Map::mapped_type;

  KeyIndex() = default;
  KeyIndex(const KeyIndex&) {}
  KeyIndex(KeyIndex&&) noexcept {}
  KeyIndex& operator=(const KeyIndex&) {
    Reset();
    return *this;
  }
  KeyIndex& operator=(KeyIndex&&) noexcept {
    Reset();
    return *this;
  }

  // The value of `key` in `m`, or nullptr. `head` is KeyHead(key). Heads
  // are sorted (they order as the keys do): a search on integers, then
  // the slots with that head are told apart by length and the bytes after
  // the first 8 (for keys of up to 16 bytes: their last 8, one integer).
  __attribute__((always_inline)) Value* Find(Map& m, std::string_view key,
                                             uint64_t head) {
    if (m.size() != seen_) Rebuild(m);
    const size_t n = key.size();
    // The key found last, first: events come in runs about one creature
    // (an attack's changes) and one counter. Keys of up to 16 bytes only.
    if (last_ != nullptr && last_->head == head && last_->size == n &&
        (n <= 8 || (n <= 16 && Tail(key.data(), n) == last_->tail))) {
      return last_->value;
    }
    const Slot* p = slots_.data();
    const Slot* const end = p + slots_.size();
    size_t count = slots_.size();
    while (count > 8) {
      const size_t half = count / 2;
      if (p[half].head < head) {
        p += half + 1;
        count -= half + 1;
      } else {
        count = half;
      }
    }
    while (p != end && p->head < head) ++p;
    for (; p != end && p->head == head; ++p) {
      if (p->size != n) continue;
      if (n <= 8) return Hit(p);
      if (n <= 16) {  // equal heads, sizes and last 8 bytes: equal keys
        if (Tail(key.data(), n) == p->tail) return Hit(p);
        continue;
      }
      if (CompareKeys(std::string_view(p->data + 8, n - 8), key.substr(8)) == 0) {
        return p->value;
      }
    }
    return nullptr;
  }

  // Adds `key`, absent from `m`, to both with `value`.
  void Insert(Map& m, std::string_view key, Value value) {
    if (m.size() != seen_) Rebuild(m);
    auto it = m.emplace(std::string(key), std::move(value)).first;
    auto at = slots_.begin();
    while (at != slots_.end() && CompareKeys(std::string_view(at->data, at->size), key) < 0) {
      ++at;
    }
    slots_.insert(at, MakeSlot(it->first, it->second));
    seen_ = m.size();
    last_ = nullptr;  // the insertion moved the slots
  }

 private:
  struct Slot {
    uint64_t head;
    size_t size;
    const char* data;  // the key's bytes, in the map's node
    Value* value;
    uint64_t tail;     // Tail(data, size) for keys of 9 to 16 bytes, else 0
  };

  // The last 8 bytes of a key of `n` > 8 bytes at `p`, as stored.
  __attribute__((always_inline)) static uint64_t Tail(const char* p, size_t n) {
    uint64_t w;
    std::memcpy(&w, p + n - 8, 8);
    return w;
  }

  static Slot MakeSlot(const std::string& key, Value& value) {
    const size_t n = key.size();
    return Slot{KeyHead(key), n, key.data(), &value,
                n > 8 && n <= 16 ? Tail(key.data(), n) : 0};
  }

  __attribute__((always_inline)) Value* Hit(const Slot* p) {
    last_ = p;
    return p->value;
  }

  void Reset() {
    slots_.clear();
    seen_ = kNever;
    last_ = nullptr;
  }

  __attribute__((noinline)) void Rebuild(Map& m) {
    last_ = nullptr;
    slots_.clear();
    slots_.reserve(m.size());
    for (auto& [k, v] : m) slots_.push_back(MakeSlot(k, v));
    seen_ = m.size();
  }

  static constexpr size_t kNever = ~size_t{0};
  std::vector<Slot> slots_;
  size_t seen_ = kNever;
  const Slot* last_ = nullptr;  // the slot Find returned last, in slots_
};

// The index of a combatant's resources (whose map keeps std::less: the
// state hash code names its type).
using SlotIndex = KeyIndex<std::map<std::string, int64_t>>;

}  // namespace combat::kernel

#endif  // COMBAT_KERNEL_KEYS_H_
