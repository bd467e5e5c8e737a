// Canonical encoding of the derived state, for hashing and JSON output.
//
// Contract: equal states encode to equal bytes; the encoding lists every
// map in key order. The state hash recorded in each event is
// SHA-256(EncodeState(state after the event)).
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
// Canonical bytes ("CMBS" identifier).
std::vector<uint8_t> EncodeState(const State& state);
events::Digest StateHash(const State& state);

// The inverse of EncodeState, for snapshots: DataLoss unless `bytes` are a
// verified "CMBS" buffer. DecodeState(EncodeState(s)) encodes to the same
// bytes as s.
absl::StatusOr<State> DecodeState(const uint8_t* data, size_t size);

}  // namespace combat::kernel

#endif  // COMBAT_KERNEL_STATE_CODEC_H_
