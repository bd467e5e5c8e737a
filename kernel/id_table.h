// IdTable<T>: entries keyed by a uint32_t id, in id order; the subset of
// std::map<uint32_t, T> the state's windows, pending acts and conditions use
// (state.h), built for the reducer's pattern: ids only grow in a log, so an
// entry is added at the end and removed soon after.
//
// Contract:
//  - Iteration (begin/end, rbegin/rend, `for (auto& [id, v] : t)`) is in
//    ascending id order; `it->first` is the id, `it->second` the value.
//    `first` must not be written through an iterator.
//  - find, count, at, operator[], try_emplace, emplace, erase (by iterator
//    or id), size, empty, clear behave as std::map's, except: `at` on an
//    absent id aborts (no exceptions in this code base).
//  - Each entry is allocated once and never moves: a reference or pointer to
//    an entry stays valid until that entry is erased or the table destroyed
//    (as std::map's); iterators are invalidated by any insertion or erasure.
//  - An erased entry (and every entry on `clear`) is kept as a spare: the
//    next insertion reuses it instead of allocating. operator[], try_emplace
//    and emplace give the reused entry a fresh value (`T(args...)`).
//    `Recycle(id)` instead hands it over as the erased entry left it, its
//    strings and vectors with their capacity, so that a caller setting
//    every field allocates nothing.
//  - Inserting an id lower than the highest present works (the state codec,
//    tests) at the cost of shifting the later entries' pointers.
//  - Copies and copy-assignments copy the live entries only (no spares);
//    equality (when T has ==) compares the live entries. Moves take
//    everything, spares included.
//  - Thread-compatible, like std::map: const members from any number of
//    threads at once; any mutation needs exclusive access.
#ifndef COMBAT_KERNEL_ID_TABLE_H_
#define COMBAT_KERNEL_ID_TABLE_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace combat::kernel {

template <typename T>
class IdTable {
 public:
  using key_type = uint32_t;
  using mapped_type = T;
  struct value_type {
    uint32_t first = 0;
    T second{};
  };
  using size_type = size_t;

 private:
  using Slot = std::unique_ptr<value_type>;

  template <bool kConst>
  class Iter {
   public:
    using iterator_category = std::bidirectional_iterator_tag;
    using value_type = typename IdTable::value_type;
    using difference_type = std::ptrdiff_t;
    using reference = std::conditional_t<kConst, const value_type&, value_type&>;
    using pointer = std::conditional_t<kConst, const value_type*, value_type*>;

    Iter() = default;
    explicit Iter(const Slot* p) : p_(p) {}
    template <bool kOther, typename = std::enable_if_t<kConst && !kOther>>
    Iter(const Iter<kOther>& o) : p_(o.p_) {}  // NOLINT: iterator -> const

    reference operator*() const { return **p_; }
    pointer operator->() const { return p_->get(); }
    Iter& operator++() {
      ++p_;
      return *this;
    }
    Iter operator++(int) {
      Iter r = *this;
      ++p_;
      return r;
    }
    Iter& operator--() {
      --p_;
      return *this;
    }
    Iter operator--(int) {
      Iter r = *this;
      --p_;
      return r;
    }
    friend bool operator==(const Iter& a, const Iter& b) { return a.p_ == b.p_; }
    friend bool operator!=(const Iter& a, const Iter& b) { return a.p_ != b.p_; }

   private:
    friend class IdTable;
    template <bool>
    friend class Iter;
    const Slot* p_ = nullptr;
  };

 public:
  using iterator = Iter<false>;
  using const_iterator = Iter<true>;
  using reverse_iterator = std::reverse_iterator<iterator>;
  using const_reverse_iterator = std::reverse_iterator<const_iterator>;

  IdTable() = default;
  IdTable(const IdTable& o) { CopyFrom(o); }
  IdTable(IdTable&& o) noexcept : v_(std::move(o.v_)), live_(o.live_) {
    o.v_.clear();
    o.live_ = 0;
  }
  IdTable& operator=(const IdTable& o) {
    if (this != &o) CopyFrom(o);
    return *this;
  }
  IdTable& operator=(IdTable&& o) noexcept {
    if (this != &o) {
      v_ = std::move(o.v_);
      live_ = o.live_;
      o.v_.clear();
      o.live_ = 0;
    }
    return *this;
  }

  iterator begin() { return iterator(v_.data()); }
  iterator end() { return iterator(v_.data() + live_); }
  const_iterator begin() const { return const_iterator(v_.data()); }
  const_iterator end() const { return const_iterator(v_.data() + live_); }
  const_iterator cbegin() const { return begin(); }
  const_iterator cend() const { return end(); }
  reverse_iterator rbegin() { return reverse_iterator(end()); }
  reverse_iterator rend() { return reverse_iterator(begin()); }
  const_reverse_iterator rbegin() const { return const_reverse_iterator(end()); }
  const_reverse_iterator rend() const { return const_reverse_iterator(begin()); }

  size_t size() const { return live_; }
  bool empty() const { return live_ == 0; }
  // Every entry becomes a spare.
  void clear() { live_ = 0; }

  iterator find(uint32_t id) { return iterator(v_.data() + Find(id)); }
  const_iterator find(uint32_t id) const { return const_iterator(v_.data() + Find(id)); }
  size_t count(uint32_t id) const { return Find(id) != live_ ? 1 : 0; }
  T& at(uint32_t id) { return AtOrDie(id); }
  const T& at(uint32_t id) const { return const_cast<IdTable*>(this)->AtOrDie(id); }

  T& operator[](uint32_t id) { return try_emplace(id).first->second; }
  // As std::map's: the entry `id`, added with value T(args...) when absent.
  template <typename... Args>
  std::pair<iterator, bool> try_emplace(uint32_t id, Args&&... args) {
    bool added = false;
    const size_t i = Place(id, &added);
    if (added) v_[i]->second = T(std::forward<Args>(args)...);
    return {iterator(v_.data() + i), added};
  }
  template <typename V>
  std::pair<iterator, bool> emplace(uint32_t id, V&& value) {
    return try_emplace(id, std::forward<V>(value));
  }
  // The entry `id`: the present one, else a new one holding either T's
  // default or a removed entry's values (see the contract): the caller
  // sets every field.
  iterator Recycle(uint32_t id) {
    bool added = false;
    const size_t i = Place(id, &added);  // may grow v_: before data()
    return iterator(v_.data() + i);
  }

  // Erases the entry at `it` (kept as a spare); the iterator after it.
  iterator erase(const_iterator it) {
    const size_t i = static_cast<size_t>(it.p_ - v_.data());
    if (i + 1 != live_) {
      std::rotate(v_.begin() + i, v_.begin() + i + 1, v_.begin() + live_);
    }
    --live_;
    return iterator(v_.data() + i);
  }
  iterator erase(iterator it) { return erase(const_iterator(it)); }
  size_t erase(uint32_t id) {
    const size_t i = Find(id);
    if (i == live_) return 0;
    erase(const_iterator(v_.data() + i));
    return 1;
  }

  // The spares kept (tests).
  size_t spares() const { return v_.size() - live_; }

  friend bool operator==(const IdTable& a, const IdTable& b) {
    if (a.live_ != b.live_) return false;
    for (size_t i = 0; i < a.live_; ++i) {
      if (a.v_[i]->first != b.v_[i]->first || !(a.v_[i]->second == b.v_[i]->second)) {
        return false;
      }
    }
    return true;
  }
  friend bool operator!=(const IdTable& a, const IdTable& b) { return !(a == b); }

 private:
  // The index of `id`, or live_.
  size_t Find(uint32_t id) const {
    if (live_ == 0) return live_;
    const uint32_t last = v_[live_ - 1]->first;
    if (id == last) return live_ - 1;
    if (id > last) return live_;
    const auto end = v_.begin() + live_;
    auto at = std::lower_bound(v_.begin(), end, id,
                               [](const Slot& s, uint32_t k) { return s->first < k; });
    return at != end && (*at)->first == id ? static_cast<size_t>(at - v_.begin()) : live_;
  }
  // The index of entry `id`, made live (a spare or a new allocation, keyed
  // `id`, its value untouched) when absent; `*added` says which.
  size_t Place(uint32_t id, bool* added) {
    size_t pos = live_;
    if (live_ != 0 && v_[live_ - 1]->first >= id) {
      const auto end = v_.begin() + live_;
      auto at = std::lower_bound(v_.begin(), end, id,
                                 [](const Slot& s, uint32_t k) { return s->first < k; });
      pos = static_cast<size_t>(at - v_.begin());
      if ((*at)->first == id) return pos;
    }
    if (v_.size() == live_) v_.push_back(std::make_unique<value_type>());
    if (pos != live_) {
      std::rotate(v_.begin() + pos, v_.begin() + live_, v_.begin() + live_ + 1);
    }
    ++live_;
    v_[pos]->first = id;
    *added = true;
    return pos;
  }
  T& AtOrDie(uint32_t id) {
    const size_t i = Find(id);
    if (i == live_) std::abort();  // std::map::at would throw out_of_range
    return v_[i]->second;
  }
  void CopyFrom(const IdTable& o) {
    // Live entries are copied into this table's own entries (theirs keep
    // their capacity); the rest of this table's entries become spares.
    for (size_t i = 0; i < o.live_; ++i) {
      if (i < v_.size()) {
        *v_[i] = *o.v_[i];
      } else {
        v_.push_back(std::make_unique<value_type>(*o.v_[i]));
      }
    }
    live_ = o.live_;
  }

  std::vector<Slot> v_;  // [0, live_) live in id order, then spares
  size_t live_ = 0;
};

}  // namespace combat::kernel

#endif  // COMBAT_KERNEL_ID_TABLE_H_
