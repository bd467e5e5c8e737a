#include "kernel/reducer.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "absl/base/attributes.h"
#include "absl/base/optimization.h"
#include "absl/strings/str_cat.h"
#include "events/codec.h"
#include "events/status_macros.h"

namespace combat::kernel {
namespace {

std::string Str(const flatbuffers::String* s) {
  return s == nullptr ? std::string() : s->str();
}

// The bytes of a FlatBuffers string, without a copy ("" when absent). For
// lookups: the state keeps its own copies.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline std::string_view View(const flatbuffers::String* s) {
  return s == nullptr ? std::string_view()
                      : std::string_view(s->c_str(), s->size());
}

// KeyHead (kernel/keys.h) of a FlatBuffers string: its length prefix
// makes the cheaper PrefixedKeyHead safe.
// Sets `dst`, empty (a new node's), to `s`: append is the cheapest copy
// std::string has (assignment goes through the general _M_replace).
ABSL_ATTRIBUTE_ALWAYS_INLINE inline void Fill(std::string& dst,
                                              const flatbuffers::String* s) {
  if (s != nullptr && s->size() != 0) dst.append(s->c_str(), s->size());
}

// The `n` (1..16) bytes at `p`, a FlatBuffers string's, as two words:
// for n <= 8 the 8 bytes ending at p + n with those before p shifted out
// (its length prefix and what precedes it: a verified buffer's root offset
// and vtables come first, so p + n - 8 is inside the buffer), and 0; else
// the first and the last 8.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline void Words(const char* p, uint32_t n, uint64_t& head,
                                               uint64_t& tail) {
  uint64_t last;
  std::memcpy(&last, p + n - 8, 8);
  if (n <= 8) {
    head = last >> (64 - 8 * n);
    tail = 0;
  } else {
    std::memcpy(&head, p, 8);
    tail = last;
  }
}

// Whether `dst` holds the bytes of `v` (a FlatBuffers string's), with no
// byte loop for up to 16 bytes: a std::string's buffer has room for 16
// (its inline buffer, or a heap block of more), so 8-byte loads stay in it.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline bool Same(const std::string& dst, std::string_view v) {
  const size_t n = v.size();
  if (dst.size() != n) return false;
  if (n == 0) return true;
  if (n > 16) return CompareKeys(dst, v) == 0;
  uint64_t head, tail, d;
  Words(v.data(), static_cast<uint32_t>(n), head, tail);
  std::memcpy(&d, dst.data(), 8);
  if (n <= 8) return (n == 8 ? d : d & ((uint64_t{1} << (8 * n)) - 1)) == head;
  uint64_t dt;
  std::memcpy(&dt, dst.data() + n - 8, 8);
  return d == head && dt == tail;
}

// Sets `dst` (any value) to `s` ("" when absent), reusing its capacity:
// left alone when equal (a reused window's ids mostly are), else cleared
// and appended to (assign goes through the general _M_replace).
ABSL_ATTRIBUTE_ALWAYS_INLINE inline void Assign(std::string& dst,
                                                const flatbuffers::String* s) {
  if (Same(dst, View(s))) return;
  dst.clear();
  Fill(dst, s);
}

// A reused entry (IdTable::Recycle, id_table.h) keeps the closed entry's values, so
// every field is set by hand in PendingOpened (PendingAct), WindowOpened
// (Window) and ConditionAdded (Condition). A field added to either would silently carry one act's or
// window's value into the next: these sizes make the build say so.
static_assert(sizeof(PendingAct) == 360 && sizeof(Trigger) == 128 && sizeof(Expiry) == 48,
              "PendingAct, Trigger or Expiry changed: set the new field in "
              "PendingOpened (and SetExpiry), then update these sizes");
static_assert(sizeof(Condition) == 216,
              "Condition changed: set the new field in ConditionAdded, then update this size");
static_assert(sizeof(OrderEntry) == 72,
              "OrderEntry changed: set the new field in OrderSet, then update this size");
static_assert(sizeof(Window) == 144,
              "Window changed: set the new field in WindowOpened, then update this size");

ABSL_ATTRIBUTE_ALWAYS_INLINE inline uint64_t Head(const flatbuffers::String* s) {
  return s == nullptr ? 0 : PrefixedKeyHead(s->c_str(), s->size());
}

absl::string_view AbslView(std::string_view v) {
  return absl::string_view(v.data(), v.size());
}

Pos ToPos(const fb::Pos* p) { return p == nullptr ? Pos{} : Pos{p->x(), p->y()}; }

// Sets every field of `out` (any value) from `e` (absent: Never).
ABSL_ATTRIBUTE_ALWAYS_INLINE inline void SetExpiry(Expiry& out, const fb::Expiry* e) {
  out.kind = e != nullptr ? e->kind() : fb::ExpiryKind::Never;
  Assign(out.actor, e != nullptr ? e->actor() : nullptr);
  out.round = e != nullptr ? e->round() : 0;
}

Weapon ToWeapon(const fb::Weapon& w) {
  Weapon out;
  out.name = Str(w.name());
  out.damage = Str(w.damage());
  out.kind = Str(w.kind());
  out.category = Str(w.category());
  out.reach = w.reach();
  out.range_increment = w.range_increment();
  out.damage_type = Str(w.damage_type());
  if (w.numbers() != nullptr) {
    for (const fb::Number* n : *w.numbers()) out.numbers[Str(n->key())] = n->value();
  }
  return out;
}

// A FlatBuffers table whose vtable is located once (the generated
// accessors locate it for every field, and ApplyRun's loop is too large for
// the compiler to inline them all). Same results as the accessors: a field
// beyond the vtable, or at offset 0, is absent. Scalar gives 0 for an
// absent field, so it is only for fields whose schema default is 0 (seq,
// the union types, delta, value; not, e.g., Die.kept). REQUIRES: the
// table passed the Verifier.
class Fields {
 public:
  ABSL_ATTRIBUTE_ALWAYS_INLINE explicit Fields(const void* table)
      : t_(static_cast<const uint8_t*>(table)),
        vt_(t_ - flatbuffers::ReadScalar<flatbuffers::soffset_t>(t_)),
        size_(flatbuffers::ReadScalar<flatbuffers::voffset_t>(vt_)) {}

  // Whether the vtable has a slot for `field` and every field before it:
  // then the reads below may pass `kCovered` and skip the size check per
  // field (a table's last field present means a vtable covering them all).
  ABSL_ATTRIBUTE_ALWAYS_INLINE bool Covers(flatbuffers::voffset_t field) const {
    return field < size_;
  }
  static constexpr bool kCovered = true;

  // The field's offset in the table (0: absent).
  ABSL_ATTRIBUTE_ALWAYS_INLINE flatbuffers::voffset_t Offset(flatbuffers::voffset_t field,
                                                             bool covered = false) const {
    return covered || field < size_
               ? flatbuffers::ReadScalar<flatbuffers::voffset_t>(vt_ + field)
               : 0;
  }
  template <typename T>
  ABSL_ATTRIBUTE_ALWAYS_INLINE T Scalar(flatbuffers::voffset_t field, bool covered = false) const {
    const flatbuffers::voffset_t o = Offset(field, covered);
    return o != 0 ? flatbuffers::ReadScalar<T>(t_ + o) : T{};
  }
  // A string, table or union value (nullptr when absent).
  template <typename T>
  ABSL_ATTRIBUTE_ALWAYS_INLINE const T* Pointer(flatbuffers::voffset_t field,
                                                bool covered = false) const {
    const flatbuffers::voffset_t o = Offset(field, covered);
    if (o == 0) return nullptr;
    const uint8_t* p = t_ + o;
    return reinterpret_cast<const T*>(p + flatbuffers::ReadScalar<flatbuffers::uoffset_t>(p));
  }

 private:
  const uint8_t* t_;
  const uint8_t* vt_;
  flatbuffers::voffset_t size_;
};

// For the batch fold (ApplyRun) only: resource changes' targets by the
// bytes of the event's actor and resource name, so that a run's resource
// changes after the first on each (creature, resource) pair do no
// KeyIndex searches. Direct-mapped, 256 entries (a corpus has ~10-20
// creatures with ~5 counters each: fewer entries collide often),
// overwritten on a miss; looked up, never iterated. Holds pointers into
// the state's map nodes: valid for one ApplyRun (the reducer erases no
// combatant nor resource, and a void, which replaces the whole state, ends
// the run).
//
// Ids of 1 to 16 bytes are memoised (longer and empty ones go to the
// handlers): an id is its length and two words, the head (for up to 8
// bytes, all of them; else the first 8) and the tail (the last 8 when
// longer than 8, else 0), which tell ids of up to 16 bytes apart. The
// slot is chosen by the heads and lengths alone, and the tails are only
// read for an id longer than 8 bytes: the common probe reads two words per
// id. The reducer's resource handlers fill it (Remember).
class ResourceMemo {
 public:
  struct Entry {
    uint64_t actor_head = 0, name_head = 0;
    uint64_t sizes = 0;  // actor's << 32 | name's; 0: empty (no key has it)
    uint64_t actor_tail = 0, name_tail = 0;
    Combatant* combatant = nullptr;
    int64_t* value = nullptr;
    uint64_t unused = 0;  // 64 bytes: the slot is found by a shift
  };

  // Whether an id of `n` bytes is memoised.
  ABSL_ATTRIBUTE_ALWAYS_INLINE static bool Fits(uint32_t n) { return n - 1 < 16; }
  // The head of the `n` (1..16) bytes at `p`, a FlatBuffers string's: the
  // 8 bytes ending at p + min(n, 8), those before p shifted out (its
  // length prefix and what precedes it: a verified buffer's root offset
  // and vtables come first, so the load stays inside the buffer).
  ABSL_ATTRIBUTE_ALWAYS_INLINE static uint64_t Head(const char* p, uint32_t n) {
    uint64_t w;
    if (n >= 8) {
      std::memcpy(&w, p, 8);
      return w;
    }
    std::memcpy(&w, p + n - 8, 8);
    return w >> (64 - 8 * n);
  }
  // The tail of the `n` (9..16) bytes at `p`: the last 8.
  ABSL_ATTRIBUTE_ALWAYS_INLINE static uint64_t Tail(const char* p, uint32_t n) {
    uint64_t w;
    std::memcpy(&w, p + n - 8, 8);
    return w;
  }

  // Applies the resource change `table` (a T: fb::ResourceChanged or
  // fb::ResourceSet) when the memo holds its target: sets the value and
  // clears the combatant's cached digest. False, with nothing changed,
  // when the change is a pool's, its ids are not memoised or not in the
  // memo, or (ResourceChanged) the recorded value is not the slot's value
  // plus the delta: the reducer's handler then decides, with its errors.
  // Out of line on purpose: a leaf with few live values, it needs no stack
  // and runs in the caller-saved registers; inlined into ApplyRun's loop,
  // it spilled.
  template <typename T>
  ABSL_ATTRIBUTE_ALWAYS_INLINE bool Apply(const void* table) {
    const Fields f(table);
    // name is actor's successor: a vtable covering it covers actor.
    const bool covered = f.Covers(T::VT_NAME);
    const auto* actor = f.Pointer<flatbuffers::String>(T::VT_ACTOR, covered);
    const auto* name = f.Pointer<flatbuffers::String>(T::VT_NAME, covered);
    if (actor == nullptr || name == nullptr || f.Offset(T::VT_POOL) != 0) return false;
    const uint32_t an = actor->size(), nn = name->size();
    if (!Fits(an) || !Fits(nn)) return false;
    const uint64_t ah = Head(actor->c_str(), an), nh = Head(name->c_str(), nn);
    const uint64_t sizes = (uint64_t{an} << 32) | nn;
    Entry& e = Slot(ah, nh, sizes);
    if (e.actor_head != ah || e.name_head != nh || e.sizes != sizes) return false;
    if ((an > 8 && e.actor_tail != Tail(actor->c_str(), an)) ||
        (nn > 8 && e.name_tail != Tail(name->c_str(), nn))) {
      return false;
    }
    const int64_t value = f.Scalar<int64_t>(T::VT_VALUE);
    if constexpr (std::is_same_v<T, fb::ResourceChanged>) {
      if (*e.value + f.Scalar<int64_t>(T::VT_DELTA) != value) return false;
    }
    *e.value = value;
    e.combatant->digest_valid = false;
    return true;
  }

  // Remembers that (`actor`, `name`) is `c`'s resource at `value`, when
  // both ids are memoised (else does nothing).
  void Remember(std::string_view actor, std::string_view name, Combatant* c,
                int64_t* value) {
    const uint32_t an = static_cast<uint32_t>(actor.size());
    const uint32_t nn = static_cast<uint32_t>(name.size());
    if (!Fits(an) || !Fits(nn)) return;
    const uint64_t ah = Head(actor.data(), an), nh = Head(name.data(), nn);
    const uint64_t sizes = (uint64_t{an} << 32) | nn;
    Entry& e = Slot(ah, nh, sizes);
    e.actor_head = ah;
    e.name_head = nh;
    e.sizes = sizes;
    e.actor_tail = an <= 8 ? 0 : Tail(actor.data(), an);
    e.name_tail = nn <= 8 ? 0 : Tail(name.data(), nn);
    e.combatant = c;
    e.value = value;
  }

  // The slot of the ids with these heads and sizes.
  ABSL_ATTRIBUTE_ALWAYS_INLINE Entry& Slot(uint64_t actor_head, uint64_t name_head,
                                           uint64_t sizes) {
    const uint64_t mix = (actor_head * 0x9E3779B97F4A7C15ull) ^ name_head ^ sizes;
    return entries_[(mix * 0xD6E8FEB86659FD93ull) >> (64 - kBits)];
  }

 private:
  static constexpr int kBits = 8;
  Entry entries_[1 << kBits];
};

class Applier {
 public:
  // Errors go to `out`, left untouched (OK) on success: the handlers
  // return bool, so no Status travels through memory per event.
  // `stop_at_void`: a Voided change is not applied but stops the run
  // (Run returns false, `out` left OK): the batch fold (ApplyRun).
  Applier(State& state, Mode mode, absl::Status& out, bool stop_at_void = false)
      : s_(state), mode_(mode), stop_at_void_(stop_at_void), out_(out) {}

  // ApplyRun's memo of resource slots (not owned; outlives the run).
  void UseMemo(ResourceMemo* memo) { memo_ = memo; }

  // Applies `event`. Inlined into Apply and into ApplyRun's loop with the
  // hot cases: one stack frame per event (Apply) or per run (ApplyRun).
  ABSL_ATTRIBUTE_ALWAYS_INLINE bool Run(const fb::Event& event) {
    event_ = &event;
    // Each field is read once, the vtable located once; body is Event's
    // last field, so a vtable with its slot has the others' too.
    const Fields ev(&event);
    const bool covered = ev.Covers(fb::Event::VT_BODY);
    seq_ = covered ? ev.Scalar<uint64_t>(fb::Event::VT_SEQ, Fields::kCovered)
                   : ev.Scalar<uint64_t>(fb::Event::VT_SEQ);
    if (seq_ != s_.seq + 1) return OutOfSequence();
    if (mode_ == Mode::kVoided) {
      Consume();
      s_.seq = seq_;
      return true;
    }
    const fb::Body type = static_cast<fb::Body>(
        ev.Scalar<uint8_t>(fb::Event::VT_BODY_TYPE, covered));
    const void* body = ev.Pointer<void>(fb::Event::VT_BODY, covered);
    if (type > fb::Body::MAX || (type != fb::Body::NONE && body == nullptr)) {
      return Corrupt("body", "unknown type or missing value");
    }
    switch (type) {
      case fb::Body::NONE:
        return Corrupt("body", "missing");
      case fb::Body::Declaration:
        break;  // Recorded for audit and re-runs; it changes no state.
      case fb::Body::Interrupt:
        if (!ApplyInterrupt(*static_cast<const fb::Interrupt*>(body))) return false;
        break;
      case fb::Body::Roll:
        if (!ApplyRoll(*static_cast<const fb::Roll*>(body))) return false;
        break;
      case fb::Body::StateChange:
        if (!ApplyChange(*static_cast<const fb::StateChange*>(body))) return false;
        break;
    }
    s_.seq = seq_;
    return true;
  }

 private:
  // A check failed: the log is damaged (strict), or the event no longer
  // applies after a void (re-derivation).
  ABSL_ATTRIBUTE_NOINLINE bool Corrupt(absl::string_view field,
                                               absl::string_view why) const {
    const std::string msg =
        absl::StrCat("event seq ", seq_, ": ", field, ": ", why);
    out_ = mode_ == Mode::kStrict ? absl::DataLossError(msg)
                                  : absl::FailedPreconditionError(msg);
    return false;
  }

  ABSL_ATTRIBUTE_NOINLINE bool OutOfSequence() const {
    out_ = absl::DataLossError(
        absl::StrCat("event seq ", seq_, ": seq: expected ", s_.seq + 1));
    return false;
  }

  // Whether a numbering check (round, roll index, condition or window id)
  // is enforced: not while re-deriving, where voided events left gaps.
  bool Numbering() const { return mode_ == Mode::kStrict; }

  // The numbering a voided event consumed still counts.
  ABSL_ATTRIBUTE_NOINLINE void Consume() {
    if (event_->body_type() == fb::Body::Roll) {
      const auto* dice = event_->body_as_Roll()->dice();
      if (dice != nullptr) {
        for (const fb::Die* d : *dice) {
          s_.next_roll_index = std::max(s_.next_roll_index, d->index() + 1);
        }
      }
    }
    if (event_->body_type() == fb::Body::StateChange) {
      const auto* sc = event_->body_as_StateChange();
      if (sc->change_type() == fb::Change::ConditionAdded) {
        s_.next_condition_id =
            std::max(s_.next_condition_id, sc->change_as_ConditionAdded()->id() + 1);
      }
      if (sc->change_type() == fb::Change::WindowOpened) {
        s_.next_window_id =
            std::max(s_.next_window_id, sc->change_as_WindowOpened()->id() + 1);
      }
      if (sc->change_type() == fb::Change::PendingOpened) {
        s_.last_pending_id =
            std::max(s_.last_pending_id, sc->change_as_PendingOpened()->id());
      }
    }
  }

  // The combatant an event changes (its cached digest cleared), or nullptr:
  // the caller then returns NoCombatant.
  ABSL_ATTRIBUTE_ALWAYS_INLINE Combatant* Who(const flatbuffers::String* id) {
    Combatant* c = Known(id);
    if (c != nullptr) c->digest_valid = false;
    return c;
  }
  // The combatant an event names without changing it, or nullptr.
  ABSL_ATTRIBUTE_ALWAYS_INLINE Combatant* Known(const flatbuffers::String* id) {
    return s_.combatant_slots.Find(s_.combatants, View(id), Head(id));
  }
  ABSL_ATTRIBUTE_NOINLINE bool NoCombatant(absl::string_view field,
                           const flatbuffers::String* id) const {
    return Corrupt(field, absl::StrCat("no combatant '", AbslView(View(id)), "'"));
  }

  // An interrupt (or a pass) answers its window.
  ABSL_ATTRIBUTE_NOINLINE bool ApplyInterrupt(const fb::Interrupt& in) {
    auto it = s_.windows.find(in.window());
    if (it == s_.windows.end()) {
      return Corrupt("interrupt.window",
                     absl::StrCat("window ", in.window(), " is not open"));
    }
    Window& w = it->second;
    const std::string_view who =
        in.command() == nullptr ? std::string_view() : View(in.command()->actor());
    // Sessions of schema version 5 on: the answer must come from an eligible
    // creature that has not answered yet, in turn for an in-order window
    // (kernel/window.h). Older logs were checked by their deciders only.
    if (s_.schema_version >= 5) {
      // Same: `who` is a FlatBuffers string's bytes.
      auto pos = std::find_if(w.eligible.begin(), w.eligible.end(),
                              [who](const std::string& e) { return Same(e, who); });
      if (pos == w.eligible.end()) {
        return Corrupt("interrupt.actor",
                       absl::StrCat("'", AbslView(who), "' is not eligible in window ", w.id));
      }
      if (std::any_of(w.answered.begin(), w.answered.end(),
                      [who](const std::string& a) { return Same(a, who); })) {
        return Corrupt("interrupt.actor",
                       absl::StrCat("'", AbslView(who), "' already answered window ", w.id));
      }
      if (w.policy == fb::AnswerPolicy::InOrder) {
        for (auto e = w.eligible.begin(); e != pos; ++e) {
          if (std::find(w.answered.begin(), w.answered.end(), *e) == w.answered.end()) {
            return Corrupt("interrupt.actor",
                           absl::StrCat("window ", w.id, " answers in order: '", *e,
                                        "' answers before '", AbslView(who), "'"));
          }
        }
      }
    }
    w.answered.emplace_back(who);
    if (s_.schema_version >= 5) w.answer_seqs.push_back(seq_);
    return true;
  }

  // A roll's errors, built out of line (keeps ApplyRoll's frame small).
  ABSL_ATTRIBUTE_NOINLINE bool BadDieIndex(int64_t next, int64_t index) const {
    return Corrupt("roll.dice.index", absl::StrCat("expected ", next, ", got ", index));
  }
  ABSL_ATTRIBUTE_NOINLINE bool BadDieValue(int32_t value, int32_t faces) const {
    return Corrupt("roll.dice.value", absl::StrCat(value, " on a d", faces));
  }

  ABSL_ATTRIBUTE_NOINLINE bool ApplyRoll(const fb::Roll& roll) {
    const auto* dice = roll.dice();
    if (dice == nullptr) return true;
    int64_t next = s_.next_roll_index;
    const bool numbering = Numbering();
    for (const fb::Die* d : *dice) {
      // The generated accessors, inlined here, locate the die's vtable once
      // (reading it through Fields measured more instructions per die).
      if (d->provenance() == fb::Provenance::GmOverride &&
          View(roll.reason()).empty()) {
        return Corrupt("roll.reason", "a GM override needs a reason");
      }
      const int64_t index = d->index();
      if (!numbering && index >= next) next = index;
      if (index != next) return BadDieIndex(next, index);
      const int32_t faces = d->faces(), value = d->value();
      // faces < 1 leaves no value in [1, faces]: BadDieValue as before.
      if (value < 1 || value > faces) return BadDieValue(value, faces);
      ++next;
    }
    s_.next_roll_index = next;
    return true;
  }

  // The dispatch is inlined into Apply; each change is applied by its own
  // small function (so the FlatBuffers accessors inline into it).
  ABSL_ATTRIBUTE_ALWAYS_INLINE bool ApplyChange(const fb::StateChange& sc) {
    const Fields f(&sc);
    const bool covered = f.Covers(fb::StateChange::VT_CHANGE);  // its last field
    const fb::Change type =
        static_cast<fb::Change>(f.Scalar<uint8_t>(fb::StateChange::VT_CHANGE_TYPE, covered));
    const void* change = f.Pointer<void>(fb::StateChange::VT_CHANGE, covered);
    if (type > fb::Change::MAX || (type != fb::Change::NONE && change == nullptr)) {
      return Corrupt("change", "unknown type or missing value");
    }
    if (type != fb::Change::SessionStarted && s_.session.empty()) {
      return Corrupt("change", "the first state change must be SessionStarted");
    }
    switch (type) {
      case fb::Change::NONE:
        return Corrupt("change", "missing");
      case fb::Change::SessionStarted:
        return SessionStarted(*static_cast<const fb::SessionStarted*>(change));
      case fb::Change::CombatantJoined:
        return CombatantJoined(*static_cast<const fb::CombatantJoined*>(change));
      case fb::Change::RoundStarted:
        return RoundStarted(*static_cast<const fb::RoundStarted*>(change));
      case fb::Change::RoundEnded:
        return RoundEnded(*static_cast<const fb::RoundEnded*>(change));
      case fb::Change::TurnStarted:
        return TurnStarted(*static_cast<const fb::TurnStarted*>(change));
      case fb::Change::TurnEnded:
        return TurnEnded(*static_cast<const fb::TurnEnded*>(change));
      case fb::Change::OrderSet:
        return OrderSet(*static_cast<const fb::OrderSet*>(change));
      case fb::Change::ResourceSet:
        if (memo_ != nullptr) return MemoResourceSet(*static_cast<const fb::ResourceSet*>(change));
        return ResourceSet(*static_cast<const fb::ResourceSet*>(change));
      case fb::Change::ResourceChanged:
        if (memo_ != nullptr) {
          return MemoResourceChanged(*static_cast<const fb::ResourceChanged*>(change));
        }
        return ResourceChanged(*static_cast<const fb::ResourceChanged*>(change));
      case fb::Change::ConditionAdded:
        return ConditionAdded(*static_cast<const fb::ConditionAdded*>(change));
      case fb::Change::ConditionRemoved:
        return ConditionRemoved(*static_cast<const fb::ConditionRemoved*>(change));
      case fb::Change::Moved:
        return Moved(*static_cast<const fb::Moved*>(change));
      case fb::Change::WindowOpened:
        return WindowOpened(*static_cast<const fb::WindowOpened*>(change));
      case fb::Change::WindowClosed:
        return WindowClosed(*static_cast<const fb::WindowClosed*>(change));
      case fb::Change::Ruling:
        return true;  // Its effects follow as their own events.
      case fb::Change::SessionEnded:
        return SessionEnded(*static_cast<const fb::SessionEnded*>(change));
      case fb::Change::Voided:
        if (stop_at_void_) return false;  // fold.h re-derives around it
        return Voided(*static_cast<const fb::Voided*>(change));
      case fb::Change::Outcome:
        return Outcome(*static_cast<const fb::Outcome*>(change));
      case fb::Change::SeedRevealed:
        return SeedRevealed(*static_cast<const fb::SeedRevealed*>(change));
      case fb::Change::PendingOpened:
        return PendingOpened(*static_cast<const fb::PendingOpened*>(change));
      case fb::Change::PendingUpdated:
        return PendingUpdated(*static_cast<const fb::PendingUpdated*>(change));
      case fb::Change::PendingClosed:
        return PendingClosed(*static_cast<const fb::PendingClosed*>(change));
      case fb::Change::BranchForked:
        return BranchForked(*static_cast<const fb::BranchForked*>(change));
    }
    return Corrupt("change", "unknown type");
  }

  // Out of line: a std::string temporary in Apply's frame would give every
  // event's Apply a stack-protector check.
  ABSL_ATTRIBUTE_NOINLINE bool SessionEnded(const fb::SessionEnded& e) {
    s_.ended = true;
    s_.end_reason = Str(e.reason());
    return true;
  }

  ABSL_ATTRIBUTE_NOINLINE bool RoundStarted(const fb::RoundStarted& r) {
    const int64_t round = r.round();
    if (round != s_.round + 1 && (Numbering() || round <= s_.round)) {
      return Corrupt("round", absl::StrCat("expected ", s_.round + 1));
    }
    s_.round = round;
    s_.acted.clear();
    return true;
  }

  ABSL_ATTRIBUTE_NOINLINE bool RoundEnded(const fb::RoundEnded& r) {
    if (r.round() != s_.round) return Corrupt("round", "not the current round");
    if (!s_.active.empty()) return Corrupt("round", "a turn is still running");
    return true;
  }

  ABSL_ATTRIBUTE_NOINLINE bool TurnStarted(const fb::TurnStarted& t) {
    if (!s_.active.empty()) return TurnNotEnded();
    const flatbuffers::String* actor = t.actor();
    const Combatant* c = Known(actor);
    if (c == nullptr) return NoCombatant("actor", actor);
    // Every member checked first (a refused event changes nothing), then
    // the turn written in place: active_members keeps its capacity. A
    // member found has the event's bytes as its id, so the ones before it
    // are compared as the event spells them.
    const auto* m = t.members();
    const uint32_t n = m == nullptr ? 0 : m->size();
    for (uint32_t i = 0; i < n; ++i) {
      const flatbuffers::String* id = m->Get(i);
      const Combatant* member = Known(id);
      if (member == nullptr) return NoCombatant("members", id);
      bool twice = member == c;
      for (uint32_t j = 0; j < i && !twice; ++j) twice = Same(member->id, View(m->Get(j)));
      if (twice) return ListedTwice(member->id);
    }
    Fill(s_.active, actor);  // empty (checked above); `actor` is c->id's bytes
    s_.active_members.resize(n);
    for (uint32_t i = 0; i < n; ++i) Assign(s_.active_members[i], m->Get(i));
    return true;
  }

  // Out of line: the message's temporaries would give every TurnStarted a
  // stack-protector check.
  ABSL_ATTRIBUTE_NOINLINE bool ListedTwice(const std::string& id) const {
    return Corrupt("members", absl::StrCat("'", id, "' listed twice"));
  }

  ABSL_ATTRIBUTE_NOINLINE bool TurnNotEnded() const {
    return Corrupt("actor", absl::StrCat("turn of '", s_.active, "' has not ended"));
  }

  ABSL_ATTRIBUTE_NOINLINE bool TurnEnded(const fb::TurnEnded& t) {
    const flatbuffers::String* actor = t.actor();
    if (!Same(s_.active, View(actor))) return NotActive(actor);
    s_.acted.push_back(std::move(s_.active));
    s_.active.clear();
    s_.active_members.clear();
    return true;
  }

  ABSL_ATTRIBUTE_NOINLINE bool NotActive(const flatbuffers::String* actor) const {
    return Corrupt("actor", absl::StrCat("'", AbslView(View(actor)),
                                         "' is not the active combatant"));
  }

  ABSL_ATTRIBUTE_NOINLINE bool OrderSet(const fb::OrderSet& o) {
    const auto* entries = o.entries();
    if (entries == nullptr) {
      s_.order.clear();
      return true;
    }
    // Every name checked first (a refused event changes nothing), then the
    // order rewritten in place: its strings and vectors keep their
    // capacity, and an id found is the event's bytes.
    for (const fb::OrderEntry* e : *entries) {
      if (Known(e->actor()) == nullptr) return NoCombatant("order.actor", e->actor());
      if (const auto* m = e->members()) {
        for (const flatbuffers::String* id : *m) {
          if (Known(id) == nullptr) return NoCombatant("order.members", id);
        }
      }
    }
    s_.order.resize(entries->size());
    for (size_t i = 0; i < entries->size(); ++i) {
      const fb::OrderEntry* e = entries->Get(i);
      OrderEntry& out = s_.order[i];
      Assign(out.actor, e->actor());
      out.initiative = e->initiative();
      out.delayed = e->delayed();
      const auto* m = e->members();
      out.members.resize(m == nullptr ? 0 : m->size());
      for (size_t j = 0; j < out.members.size(); ++j) Assign(out.members[j], m->Get(j));
    }
    return true;
  }

  // A pool counter (v5): owned by the session or a side, `actor` empty.
  ABSL_ATTRIBUTE_NOINLINE bool PoolChange(const flatbuffers::String* pool,
                                                  const flatbuffers::String* actor,
                                                  const flatbuffers::String* name,
                                                  bool set, int64_t delta, int64_t value) {
    if (View(actor).size() != 0) return Corrupt("pool", "a pool change names no actor");
    if (View(name).size() == 0) return Corrupt("name", "missing");
    int64_t& slot = s_.pools[Str(pool)][Str(name)];
    if (set) {
      slot = value;
      return true;
    }
    if (mode_ == Mode::kStrict && slot + delta != value) {
      return ResourceMismatch(View(name), slot, delta, value);
    }
    slot += delta;
    return true;
  }

  ABSL_ATTRIBUTE_NOINLINE bool ResourceSet(const fb::ResourceSet& r) {
    if (r.pool() != nullptr && r.pool()->size() != 0) {
      return PoolChange(r.pool(), r.actor(), r.name(), true, 0, r.value());
    }
    Combatant* c = Who(r.actor());
    if (c == nullptr) return NoCombatant("actor", r.actor());
    const flatbuffers::String* name = r.name();
    if (int64_t* v = c->resource_slots.Find(c->resources, View(name), Head(name))) {
      *v = r.value();
      if (memo_ != nullptr) memo_->Remember(View(r.actor()), View(name), c, v);
    } else {
      c->resource_slots.Insert(c->resources, View(name), r.value());
    }
    return true;
  }

  ABSL_ATTRIBUTE_NOINLINE bool ResourceChanged(const fb::ResourceChanged& r) {
    if (r.pool() != nullptr && r.pool()->size() != 0) {
      return PoolChange(r.pool(), r.actor(), r.name(), false, r.delta(), r.value());
    }
    Combatant* c = Who(r.actor());
    if (c == nullptr) return NoCombatant("actor", r.actor());
    const flatbuffers::String* name = r.name();
    int64_t* slot = c->resource_slots.Find(c->resources, View(name), Head(name));
    const int64_t v = slot != nullptr ? *slot : 0;
    const int64_t delta = r.delta();
    if (mode_ == Mode::kStrict && v + delta != r.value()) {
      return ResourceMismatch(View(name), v, delta, r.value());
    }
    if (slot != nullptr) {
      *slot = v + delta;
      if (memo_ != nullptr) memo_->Remember(View(r.actor()), View(name), c, slot);
    } else {
      c->resource_slots.Insert(c->resources, View(name), v + delta);
    }
    return true;
  }

  // ApplyRun's resource changes: the target found in the memo (a
  // combatant's resource, no pool) by ResourceMemo::Apply, else by the
  // handlers above, which then fill the memo when the resource exists.
  // Same checks, same errors.
  ABSL_ATTRIBUTE_ALWAYS_INLINE bool MemoResourceChanged(const fb::ResourceChanged& r) {
    if (ABSL_PREDICT_TRUE(memo_->Apply<fb::ResourceChanged>(&r))) return true;
    return ResourceChanged(r);
  }

  ABSL_ATTRIBUTE_ALWAYS_INLINE bool MemoResourceSet(const fb::ResourceSet& r) {
    if (ABSL_PREDICT_TRUE(memo_->Apply<fb::ResourceSet>(&r))) return true;
    return ResourceSet(r);
  }

  ABSL_ATTRIBUTE_NOINLINE bool ResourceMismatch(std::string_view name,
                                                        int64_t v, int64_t delta,
                                                        int64_t value) const {
    return Corrupt(absl::StrCat("resource ", AbslView(name)),
                   absl::StrCat(v, " + ", delta, " is not ", value));
  }

  ABSL_ATTRIBUTE_NOINLINE bool ConditionRemoved(const fb::ConditionRemoved& r) {
    Combatant* c = Who(r.actor());
    if (c == nullptr) return NoCombatant("actor", r.actor());
    const uint32_t id = r.id();
    auto it = c->conditions.find(id);
    if (it == c->conditions.end() || !Same(it->second.name, View(r.name()))) {
      return Corrupt("condition", absl::StrCat("'", c->id, "' has no ",
                                               Str(r.name()), " #", id));
    }
    // A daughter has a higher id than its parent (ids only grow, and
    // ConditionAdded requires the parent present): only later ones are
    // looked at.
    for (auto d = std::next(it); d != c->conditions.end(); ++d) {
      const auto& [other_id, other] = *d;
      if (other.parent == id) {
        return Corrupt("condition",
                       absl::StrCat(Str(r.name()), " #", id, " still has daughter ",
                                    other.name, " #", other_id));
      }
    }
    c->conditions.erase(it);
    return true;
  }

  ABSL_ATTRIBUTE_NOINLINE bool Moved(const fb::Moved& m) {
    Combatant* c = Who(m.actor());
    if (c == nullptr) return NoCombatant("actor", m.actor());
    if (c->at != ToPos(m.from())) return Corrupt("from", "not where it stood");
    c->at = ToPos(m.to());
    return true;
  }

  ABSL_ATTRIBUTE_NOINLINE bool WindowOpened(const fb::WindowOpened& w) {
    const uint32_t id = w.id();
    if (id != s_.next_window_id && (Numbering() || id < s_.next_window_id)) {
      return Corrupt("window.id", absl::StrCat("expected ", s_.next_window_id));
    }
    if (w.parent() != 0 && s_.windows.count(w.parent()) == 0) {
      return Corrupt("window.parent", absl::StrCat("window ", w.parent(), " is not open"));
    }
    if (w.pending() != 0 && s_.pending.count(w.pending()) == 0) {
      return Corrupt("window.pending", absl::StrCat("no pending act #", w.pending()));
    }
    // Built in the closed window's entry when there is one (IdTable's
    // Recycle); every field set (a reused entry, or a window a
    // re-derivation reopened, holds the old values).
    auto it = s_.windows.Recycle(id);
    Window& win = it->second;
    win.id = id;
    win.trigger = w.trigger();
    Assign(win.kind, w.kind());
    if (const auto* eligible = w.eligible()) {
      const size_t n = eligible->size();
      win.eligible.resize(n);
      for (size_t i = 0; i < n; ++i) Assign(win.eligible[i], eligible->Get(i));
    } else {
      win.eligible.clear();
    }
    win.answered.clear();
    win.answer_seqs.clear();
    win.opened_at = seq_;
    win.policy = w.policy();
    win.pay = w.pay();
    win.parent = w.parent();
    win.pending = w.pending();
    s_.next_window_id = id + 1;
    return true;
  }

  ABSL_ATTRIBUTE_NOINLINE bool WindowClosed(const fb::WindowClosed& w) {
    auto it = s_.windows.find(w.id());
    if (it == s_.windows.end()) {
      return Corrupt("window.id", absl::StrCat("window ", w.id(), " is not open"));
    }
    // A nested window closes before the window it was opened in (v5). It
    // has a higher id than its parent (ids only grow, and WindowOpened
    // requires the parent open): only later windows are looked at.
    for (auto n = std::next(it); n != s_.windows.end(); ++n) {
      const auto& [id, other] = *n;
      if (other.parent == w.id()) {
        return Corrupt("window.id", absl::StrCat("window ", w.id(),
                                                 " still has nested window ", id, " open"));
      }
    }
    s_.windows.erase(it);
    return true;
  }

  ABSL_ATTRIBUTE_NOINLINE bool PendingOpened(const fb::PendingOpened& p) {
    const uint32_t id = p.id();
    const uint32_t next = s_.last_pending_id + 1;
    if (id != next && (Numbering() || id < next)) {
      return Corrupt("pending.id", absl::StrCat("expected ", next));
    }
    const Combatant* c = Known(p.actor());
    if (c == nullptr) return NoCombatant("pending.actor", p.actor());
    if (p.command() == nullptr) return Corrupt("pending.command", "missing");
    // Fields read once (a string written below may alias the buffer for
    // the compiler: a second read would go through the vtable again).
    const uint64_t decl = p.decl();
    const int64_t cost_due = p.cost_due();
    const int64_t cost_paid = p.cost_paid();
    if (decl == 0 || decl >= seq_) {
      return Corrupt("pending.decl", absl::StrCat("no earlier event ", decl));
    }
    if (cost_due < 0 || cost_paid < 0 || cost_paid > cost_due) {
      return Corrupt("pending.cost_paid",
                     absl::StrCat(cost_paid, " paid of ", cost_due, " due"));
    }
    // Built in the closed act's entry when there is one (IdTable's
    // Recycle), the command copied into its own block (HeldCommand::Assign):
    // no PendingAct moved or destroyed, no allocation. A reused entry holds
    // the closed act's values: every field is set (its strings and vectors
    // keep their capacity).
    PendingAct& act = s_.pending.Recycle(id)->second;
    act.id = id;
    Assign(act.kind, p.kind());
    Assign(act.actor, p.actor());  // c->id's bytes
    act.decl = decl;
    act.command.Assign(*p.command());
    act.cost_due = cost_due;
    act.cost_paid = cost_paid;
    act.progress = p.progress();
    act.span = p.span();
    const fb::Trigger* t = p.trigger();
    act.trigger.kind = t != nullptr ? t->kind() : fb::TriggerKind::None;
    Assign(act.trigger.by, t != nullptr ? t->by() : nullptr);
    Assign(act.trigger.against, t != nullptr ? t->against() : nullptr);
    act.trigger.hostile_only = t != nullptr && t->hostile_only();
    if (t != nullptr && t->square() != nullptr) {
      act.trigger.square = ToPos(t->square());
    } else {
      act.trigger.square.reset();
    }
    act.trigger.reach = t != nullptr ? t->reach() : 0;
    Assign(act.trigger.name, t != nullptr ? t->name() : nullptr);
    SetExpiry(act.expiry, p.expiry());
    Assign(act.budget, p.budget());
    act.opened_at = seq_;
    if (const auto* r = p.reacted()) {
      const size_t n = r->size();
      act.reacted.resize(n);
      for (size_t i = 0; i < n; ++i) Assign(act.reacted[i], r->Get(i));
    } else {
      act.reacted.clear();
    }
    s_.last_pending_id = std::max(s_.last_pending_id, id);
    return true;
  }

  ABSL_ATTRIBUTE_NOINLINE bool PendingUpdated(const fb::PendingUpdated& u) {
    auto it = s_.pending.find(u.id());
    if (it == s_.pending.end()) {
      return Corrupt("pending.id", absl::StrCat("no pending act #", u.id()));
    }
    PendingAct& act = it->second;
    if (mode_ == Mode::kStrict && act.cost_paid + u.paid() != u.cost_paid()) {
      return Corrupt("pending.cost_paid",
                     absl::StrCat(act.cost_paid, " + ", u.paid(), " is not ", u.cost_paid()));
    }
    const int64_t paid = act.cost_paid + u.paid();
    if (u.paid() < 0 || paid > act.cost_due) {
      return Corrupt("pending.paid", absl::StrCat(paid, " paid of ", act.cost_due, " due"));
    }
    act.cost_paid = paid;
    act.progress = u.progress();
    if (u.command() != nullptr) {
      act.command.Assign(*u.command());
    }
    if (const auto* r = u.reacted()) {
      act.reacted.clear();
      for (const flatbuffers::String* id : *r) act.reacted.push_back(id->str());
    }
    return true;
  }

  ABSL_ATTRIBUTE_NOINLINE bool PendingClosed(const fb::PendingClosed& c) {
    auto it = s_.pending.find(c.id());
    if (it == s_.pending.end()) {
      return Corrupt("pending.id", absl::StrCat("no pending act #", c.id()));
    }
    for (const auto& [id, w] : s_.windows) {
      if (w.pending == c.id()) {
        // Closing it would leave the window resuming nothing.
        return Corrupt("pending.id", absl::StrCat("window ", id, " still holds it"));
      }
    }
    s_.pending.erase(it);
    return true;
  }

  ABSL_ATTRIBUTE_NOINLINE bool Voided(const fb::Voided& v) {
    const uint64_t target = v.target();
    if (target == 0 || target >= seq_) {
      return Corrupt("voided.target", absl::StrCat("no earlier event ", target));
    }
    auto at = std::lower_bound(s_.voided.begin(), s_.voided.end(), target);
    if (at != s_.voided.end() && *at == target) {
      return Corrupt("voided.target", absl::StrCat(target, " is already voided"));
    }
    s_.voided.insert(at, target);
    return true;
  }

  // Checked, not changed: the combatant's digest stays valid.
  ABSL_ATTRIBUTE_NOINLINE bool Outcome(const fb::Outcome& o) {
    const flatbuffers::String* actor = o.actor();
    if (actor != nullptr && actor->size() > 0 && Known(actor) == nullptr) {
      return NoCombatant("actor", actor);
    }
    return true;
  }

  // Checked, not changed (schema v6): a fork's record is the first event of
  // its branch, names that branch and a parent other than it, and says the
  // fork point is the event before it.
  ABSL_ATTRIBUTE_NOINLINE bool BranchForked(const fb::BranchForked& f) {
    if (s_.schema_version < 6) {
      return Corrupt("branch_forked", absl::StrCat("a schema 6 event in a session of schema ",
                                                   s_.schema_version));
    }
    const absl::string_view branch = AbslView(View(f.branch()));
    const absl::string_view parent = AbslView(View(f.parent()));
    if (branch.empty() || branch != AbslView(View(event_->branch()))) {
      return Corrupt("branch_forked.branch",
                     absl::StrCat("'", branch, "' is not the event's branch '",
                                  AbslView(View(event_->branch())), "'"));
    }
    if (parent.empty() || parent == branch) {
      return Corrupt("branch_forked.parent",
                     absl::StrCat("'", parent, "': a fork needs a parent other than itself"));
    }
    if (f.fork_seq() + 1 != seq_) {
      return Corrupt("branch_forked.fork_seq",
                     absl::StrCat(f.fork_seq(), ": a fork's record follows its fork point (expected ",
                                  seq_ - 1, ")"));
    }
    if (AbslView(View(f.author())).empty()) {
      return Corrupt("branch_forked.author", "empty: a fork names who made it");
    }
    return true;
  }

  ABSL_ATTRIBUTE_NOINLINE bool SeedRevealed(const fb::SeedRevealed& r) {
    const auto* secret = r.secret();
    if (secret == nullptr || secret->size() == 0) {
      return Corrupt("seed_revealed.secret", "empty");
    }
    s_.revealed_seed.assign(secret->begin(), secret->end());
    // v7: a reveal before the end commits a fresh secret, in force from now.
    if (const auto* next = r.next_commitment(); next != nullptr && next->size() != 0) {
      if (next->size() != 32) {
        return Corrupt("seed_revealed.next_commitment",
                       absl::StrCat(next->size(), " bytes; a SHA-256 has 32"));
      }
      s_.dice_commitment.assign(next->begin(), next->end());
    }
    s_.session_digest_valid = false;
    return true;
  }

  ABSL_ATTRIBUTE_NOINLINE bool SessionStarted(const fb::SessionStarted& s) {
    if (!s_.session.empty()) return Corrupt("session", "already started");
    if (Str(s.session()).empty()) return Corrupt("session", "empty id");
    if (s.schema_version() > events::kSchemaVersion) {
      return Corrupt("schema_version",
                     absl::StrCat(s.schema_version(), " is newer than this build's ",
                                  events::kSchemaVersion));
    }
    s_.session_digest_valid = false;
    s_.session = Str(s.session());
    s_.title = Str(s.title());
    s_.ruleset = Str(s.ruleset());
    s_.ruleset_version = s.ruleset_version();
    s_.schema_version = s.schema_version();
    if (s.dice_commitment() != nullptr) {
      s_.dice_commitment.assign(s.dice_commitment()->begin(),
                                s.dice_commitment()->end());
    }
    if (s.map() != nullptr) {
      s_.map.width = s.map()->width();
      s_.map.height = s.map()->height();
      s_.map.unit = s.map()->unit();
      s_.map.square = s.map()->square();
      if (s.map()->cells() != nullptr) {
        for (const fb::Cell* cell : *s.map()->cells()) {
          s_.map.terrain[ToPos(cell->at())] = Str(cell->terrain());
        }
      }
    }
    return true;
  }

  ABSL_ATTRIBUTE_NOINLINE bool CombatantJoined(const fb::CombatantJoined& j) {
    const fb::CombatantSpec* spec = j.spec();
    if (spec == nullptr || Str(spec->id()).empty()) {
      return Corrupt("spec.id", "missing");
    }
    Combatant c;
    c.id = Str(spec->id());
    if (s_.combatants.count(c.id) != 0) {
      return Corrupt("spec.id", absl::StrCat("'", c.id, "' already joined"));
    }
    c.name = Str(spec->name());
    c.side = Str(spec->side());
    c.size = spec->size();
    c.at = ToPos(spec->at());
    c.controller = Str(spec->controller());
    c.player = Str(spec->player());
    if (spec->tags() != nullptr) {
      for (const auto* t : *spec->tags()) c.tags.push_back(t->str());
    }
    if (spec->stats() != nullptr) {
      for (const fb::Number* n : *spec->stats()) c.stats[Str(n->key())] = n->value();
    }
    if (spec->weapons() != nullptr) {
      for (const fb::Weapon* w : *spec->weapons()) c.weapons.push_back(ToWeapon(*w));
    }
    s_.combatants[c.id] = std::move(c);
    return true;
  }

  ABSL_ATTRIBUTE_NOINLINE bool ConditionAdded(const fb::ConditionAdded& a) {
    // Fields read once (a string written below may alias the buffer for
    // the compiler: a second read would go through the vtable again).
    const uint32_t id = a.id();
    const uint32_t parent = a.parent();
    if (id != s_.next_condition_id && (Numbering() || id < s_.next_condition_id)) {
      return Corrupt("condition.id", absl::StrCat("expected ", s_.next_condition_id));
    }
    Combatant* c = Who(a.actor());
    if (c == nullptr) return NoCombatant("actor", a.actor());
    if (parent != 0 && !HasCondition(*c, parent)) {
      return Corrupt("condition.parent", absl::StrCat("no condition #", parent));
    }
    // Built in a condition this combatant lost when there is one (IdTable's
    // Recycle); every field set (a reused entry, or a condition a
    // re-derivation re-added, holds the old values): numbers first.
    Condition& cond = c->conditions.Recycle(id)->second;
    cond.id = id;
    cond.level = a.level();
    cond.parent = parent;
    cond.ref = a.ref();
    cond.added_at = seq_;
    s_.next_condition_id = id + 1;
    Assign(cond.name, a.name());
    Assign(cond.source, a.source());
    Assign(cond.relative_to, a.relative_to());
    SetExpiry(cond.expiry, a.expiry());
    Assign(cond.note, a.note());
    return true;
  }

  // Whether any combatant has condition `id`; `likely` (the one the
  // daughter goes to, usually its parent's holder too) first.
  bool HasCondition(const Combatant& likely, uint32_t id) const {
    if (likely.conditions.count(id) != 0) return true;
    for (const auto& [cid, other] : s_.combatants) {
      if (other.conditions.count(id) != 0) return true;
    }
    return false;
  }

  ResourceMemo* memo_ = nullptr;      // ApplyRun's, else none
  const fb::Event* event_ = nullptr;  // the event being applied
  State& s_;
  const Mode mode_;
  const bool stop_at_void_;
  uint64_t seq_ = 0;  // its seq
  absl::Status& out_;
};

}  // namespace

absl::Status Apply(const fb::Event& event, State& state, Mode mode) {
  // Every case checks before it mutates, so a refused event leaves `state`
  // unchanged without the cost of a copy.
  absl::Status out;
  Applier(state, mode, out).Run(event);
  return out;
}

// Runs shorter than this fold without ResourceMemo.
constexpr size_t kMemoFrom = 128;

size_t ApplyRun(absl::Span<const events::EventBuffer> events, State& state,
                absl::Status& error) {
  Applier applier(state, Mode::kStrict, error, /*stop_at_void=*/true);
  // The memo (14 KiB zeroed) pays off over a long run only.
  std::unique_ptr<ResourceMemo> memo;
  if (events.size() >= kMemoFrom) {
    memo = std::make_unique<ResourceMemo>();
    applier.UseMemo(memo.get());
  }
  const events::EventBuffer* const begin = events.data();
  const events::EventBuffer* const end = begin + events.size();
  for (const events::EventBuffer* e = begin; e != end; ++e) {
    if (ABSL_PREDICT_FALSE(!applier.Run(e->event()))) return e - begin;
  }
  return events.size();
}

}  // namespace combat::kernel
