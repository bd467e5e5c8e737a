// The derived combat state: what the reducer folds events into.
//
// Contract: every container is ordered (std::map / IdTable / std::vector in a defined
// order), every number an integer, so that two folds of the same events give
// equal states and byte-identical canonical encodings (state_codec.h). The
// state holds no pointers into event buffers: it owns all its strings.
#ifndef COMBAT_KERNEL_STATE_H_
#define COMBAT_KERNEL_STATE_H_

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "events/common_generated.h"
#include "events/events_generated.h"
#include "kernel/held_command.h"
#include "kernel/id_table.h"
#include "kernel/keys.h"

namespace combat::kernel {

struct Pos {
  int32_t x = 0;
  int32_t y = 0;
  friend bool operator==(const Pos& a, const Pos& b) {
    return a.x == b.x && a.y == b.y;
  }
  friend bool operator!=(const Pos& a, const Pos& b) { return !(a == b); }
  friend bool operator<(const Pos& a, const Pos& b) {
    return a.y != b.y ? a.y < b.y : a.x < b.x;
  }
};

struct Weapon {
  std::string name;
  std::string damage;  // dice notation
  std::string kind;    // "melee", "ranged", "thrown", "spell", "natural"
  std::string category;
  int32_t reach = 5;
  int32_t range_increment = 0;
  std::string damage_type;
  std::map<std::string, int64_t> numbers;
};

struct Expiry {
  fb::ExpiryKind kind = fb::ExpiryKind::Never;
  std::string actor;
  int64_t round = 0;
};

struct Condition {
  uint32_t id = 0;
  std::string name;
  std::string source;
  std::string relative_to;
  int64_t level = 0;
  Expiry expiry;
  uint32_t parent = 0;
  uint64_t ref = 0;
  std::string note;
  uint64_t added_at = 0;  // seq of the ConditionAdded event
};

struct Combatant {
  std::string id;
  std::string name;
  std::string side;
  int32_t size = 1;
  Pos at;
  std::string controller;
  std::string player;  // v7: who plays it ("" = the GM runs it)
  std::vector<std::string> tags;
  std::map<std::string, int64_t> stats;      // as the roster gave them
  std::vector<Weapon> weapons;
  std::map<std::string, int64_t> resources;  // changing counters
  IdTable<Condition> conditions;  // by instance id

  // The value of stat `key`, or `otherwise` when the roster has none.
  int64_t Stat(const std::string& key, int64_t otherwise = 0) const;
  // The value of resource `key`, or `otherwise` when it was never set.
  int64_t Resource(const std::string& key, int64_t otherwise = 0) const;
  bool HasTag(const std::string& tag) const;
  // The first condition named `name` (any source), or nullptr.
  const Condition* FindCondition(const std::string& name) const;
  bool Has(const std::string& name) const {
    return FindCondition(name) != nullptr;
  }
  // The first condition named `name` relative to `other` (or to everyone,
  // when relative_to is empty), or nullptr.
  const Condition* FindRelative(const std::string& name,
                                const std::string& other) const;
  const Weapon* FindWeapon(const std::string& name) const;

  // Cache of this combatant's part of the state hash (state_hash.h). The
  // reducer clears it whenever it changes the combatant; nothing else may
  // change a combatant of a folded state.
  mutable bool digest_valid = false;
  mutable std::array<uint8_t, 32> digest{};
  // Its bucket of the roster part of a v5 state hash (the first byte of
  // SHA-256(id)), -1 until computed; a function of `id` alone.
  mutable int16_t bucket = -1;

  // For the reducer only: its index of `resources` (keys.h). Not part of
  // the state: empty in a copy, re-read when `resources` grew elsewhere.
  SlotIndex resource_slots;
};

struct OrderEntry {
  std::string actor;
  int64_t initiative = 0;
  bool delayed = false;
  // Others sharing this entry's turn (a union, rider and mount): the turn
  // is `actor`'s and theirs (kernel/changes.h).
  std::vector<std::string> members;
};

// An open window (kernel/window.h).
struct Window {
  uint32_t id = 0;
  uint64_t trigger = 0;
  std::string kind;
  std::vector<std::string> eligible;
  std::vector<std::string> answered;
  uint64_t opened_at = 0;
  fb::AnswerPolicy policy = fb::AnswerPolicy::InOrder;
  fb::PayWhen pay = fb::PayWhen::Before;
  uint32_t parent = 0;   // the window being resolved when this one opened
  uint32_t pending = 0;  // the pending act it holds back (0 = none)
  // The Interrupt event of each answer, as `answered` (schema v5 on).
  std::vector<uint64_t> answer_seqs;
};

// What sets off a readied, held or reactive act (kernel/trigger.h).
struct Trigger {
  fb::TriggerKind kind = fb::TriggerKind::None;
  std::string by;
  std::string against;
  bool hostile_only = false;
  std::optional<Pos> square;
  int32_t reach = 0;
  std::string name;
};

// A pending act (kernel/pending.h): a declaration held back by a window,
// an act readied or held on a trigger, an act paid over several turns.
struct PendingAct {
  uint32_t id = 0;
  std::string kind;
  std::string actor;
  uint64_t decl = 0;
  // Kept as bytes, unpacked when read as fb::CommandT (held_command.h):
  // `act.command->action`, `const fb::CommandT& c = act.command`.
  HeldCommand command;
  int64_t cost_due = 0;
  int64_t cost_paid = 0;
  int64_t progress = 0;
  fb::Span span = fb::Span::Instant;
  Trigger trigger;
  Expiry expiry;
  std::string budget;
  uint64_t opened_at = 0;
  // Who already answered a window on this act: a trigger fires once per act.
  std::vector<std::string> reacted;
};

struct MapState {
  int32_t width = 0;
  int32_t height = 0;
  std::map<Pos, std::string> terrain;  // only non-plain cells
  fb::DistanceUnit unit = fb::DistanceUnit::Feet;
  int32_t square = 0;  // a square's side in `unit` (0 = the ruleset's)
};

struct State {
  std::string session;
  std::string title;
  std::string ruleset;
  int32_t ruleset_version = 0;
  int32_t schema_version = 0;
  std::vector<uint8_t> dice_commitment;
  MapState map;
  uint64_t seq = 0;
  int64_t round = 0;
  std::string active;
  std::vector<OrderEntry> order;
  std::vector<std::string> acted;  // whose turns ended this round, in order
  // KeyLess is the order of std::less<std::string>, transparent: the
  // reducer looks combatants up by an event's bytes, without a copy.
  std::map<std::string, Combatant, KeyLess> combatants;
  IdTable<Window> windows;  // open windows, by id
  uint32_t next_condition_id = 1;
  uint32_t next_window_id = 1;
  int64_t next_roll_index = 0;
  bool ended = false;
  std::string end_reason;
  std::vector<uint64_t> voided;     // sorted
  std::vector<uint64_t> unapplied;  // sorted
  std::vector<uint8_t> revealed_seed;
  // Others sharing the running turn with `active` (kernel/changes.h).
  std::vector<std::string> active_members;
  IdTable<PendingAct> pending;  // open pending acts, by id
  uint32_t last_pending_id = 0;            // 0 = none allocated yet
  // Pools: counters owned by the session ("session") or a side
  // ("side:<name>"), not by a combatant. owner -> name -> value.
  std::map<std::string, std::map<std::string, int64_t>> pools;

  // Cache of the session part of the state hash (session, ruleset, map,
  // commitment, revealed seed); cleared by the reducer when those change.
  mutable bool session_digest_valid = false;
  mutable std::array<uint8_t, 32> session_digest{};
  // Cache of the v5 roster part's bucket digests (state_codec.h): a bucket
  // is present while none of its combatants changed since it was hashed.
  mutable std::map<uint8_t, std::array<uint8_t, 32>> bucket_digests;

  // For the reducer only: its index of `combatants` (keys.h), like
  // Combatant::resource_slots.
  KeyIndex<std::map<std::string, Combatant, KeyLess>> combatant_slots;

  const Combatant* Find(std::string_view id) const;
  // For the reducer only: clears the combatant's cached digest.
  Combatant* FindMutable(std::string_view id);
  // The terrain at `p` ("" for plain ground; "offmap" outside the map when
  // the map has a size).
  std::string TerrainAt(Pos p) const;
  // The combatant whose space covers `p`, other than `except`, or nullptr.
  const Combatant* OccupantAt(Pos p, const std::string& except = "") const;
  // Whether the running turn is `id`'s: the active creature or a member.
  bool IsTurnOf(std::string_view id) const;
  // Pool counter `name` of `owner`, or `otherwise` when never set.
  int64_t Pool(const std::string& owner, const std::string& name,
               int64_t otherwise = 0) const;
  // The pending act `id`, or nullptr.
  const PendingAct* FindPending(uint32_t id) const;
};

}  // namespace combat::kernel

#endif  // COMBAT_KERNEL_STATE_H_
