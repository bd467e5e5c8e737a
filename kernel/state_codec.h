// Canonical encoding of the derived state (for snapshots and JSON output)
// and the state hash recorded in every event.
//
// Contract: equal states encode to equal bytes and hash equally; every map
// is listed in key order.
//
// The state hash is computed by parts, so that the hash after each event
// costs the parts that event changed, not the whole state:
//   schema_version < 5:
//   state_hash = SHA-256("combat-state-v1" || H(session part)
//                        || H(schedule part) || H(c) for each combatant c
//                        in id order)
//   schema_version >= 5 (so a change costs one bucket, not every combatant):
//   state_hash = SHA-256("combat-state-v5" || H(session part)
//                        || H(schedule part) || R)
//   R = SHA-256(b || B(b) for each non-empty bucket b = 0..255 in order),
//   B(b) = SHA-256(H(c) for each combatant c in bucket b, in id order),
//   bucket(c) = the first byte of SHA-256(c.id)
// where H is SHA-256 of a FlatBuffers encoding built field by field in
// schema order: the session part is a `State` table with session, title,
// ruleset, ruleset_version, schema_version, dice_commitment, map and
// revealed_seed; the schedule part a `State` table with seq, round, active,
// order, acted, windows, the next_* counters, ended, end_reason, voided and
// unapplied; a combatant a `CombatantState` table. The session part's and
// each combatant's digests are cached in the State and cleared by the
// reducer when it changes them (so StateHash must not run concurrently on
// one State object). state_hash.cc also keeps, per thread, the encoded spec
// of each combatant id and the last combatant encodings with their digests
// (equal bytes, same digest), so a part's cost is mostly what changed.
#ifndef COMBAT_KERNEL_STATE_CODEC_H_
#define COMBAT_KERNEL_STATE_CODEC_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "events/hash.h"
#include "events/state_generated.h"
#include "kernel/state.h"

namespace combat::kernel {

fb::StateT ToObject(const State& state);
// An expiry anchor and a trigger in their schema object form (absent
// trigger -> nullptr); the one conversion the kernel's emitters use too.
std::unique_ptr<fb::ExpiryT> ExpiryToObject(const Expiry& e);
std::unique_ptr<fb::TriggerT> TriggerToObject(const Trigger& t);
// Their inverses (nullptr -> the default: Never, no trigger).
Expiry ExpiryFromObject(const fb::ExpiryT* e);
Trigger TriggerFromObject(const fb::TriggerT* t);
// One pending act in its state-schema form (used by the state hash too).
std::unique_ptr<fb::PendingStateT> PendingToObject(const PendingAct& p);
// Canonical bytes ("CMBS" identifier).
std::vector<uint8_t> EncodeState(const State& state);
events::Digest StateHash(const State& state);
// The same hash with every part encoded afresh: no cached digest, spec or
// builder (the reference, for tests and for checking that caches are sound).
events::Digest StateHashUncached(const State& state);

// The inverse of EncodeState, for snapshots: DataLoss unless `bytes` are a
// verified "CMBS" buffer. DecodeState(EncodeState(s)) encodes to the same
// bytes as s.
absl::StatusOr<State> DecodeState(const uint8_t* data, size_t size);

}  // namespace combat::kernel

#endif  // COMBAT_KERNEL_STATE_CODEC_H_
