// Full verification of a branch, as `verify` (design.md, "Integrity") must
// do it: read through the store (which checks RocksDB checksums, the
// FlatBuffers Verifier, event keys against envelopes, gaps, and the head
// record's hash), then check the hash chain between EVERY pair of events
// (prev_hash = SHA-256 of the event before; zeros before seq 1), and fold
// with every recorded state hash checked (kernel::FoldOne, kYes), and
// cross-check every command's marker (store/command_markers.h).
//
// The store's Scan checks the chain only at the head, so a changed byte in
// a field the state does not depend on (a note, a die's purpose) of an
// event below the head passes Scan and the fold; the chain check here is
// what catches it. `layer` says which check refused the log.
#ifndef COMBAT_TESTS_TESTING_VERIFY_H_
#define COMBAT_TESTS_TESTING_VERIFY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "events/codec.h"
#include "events/hash.h"
#include "kernel/state.h"
#include "store/event_log.h"

namespace combat::testing {

enum class Layer {
  kNone,   // nothing refused the log
  kOpen,   // EventLog::Open refused (set by callers that open)
  kStore,  // the store's reads (Scan, GetHead, ...) returned an error
  kChain,  // prev_hash did not match the event before
  kFold,   // the reducer refused an event or a state hash did not match
  kMarkers,  // a command marker is missing or names other seqs
};
const char* LayerName(Layer layer);

struct Verified {
  std::vector<events::EventBuffer> events;
  kernel::State state;  // after the last event
};

// Reads and checks `branch` from seq 1 to its head. On failure returns the
// first error (naming the seq) and sets `*failed` (when given) to the layer.
absl::StatusOr<Verified> VerifyBranch(const store::EventLog& log,
                                      const std::string& session,
                                      const std::string& branch,
                                      Layer* failed = nullptr);

// The same checks over events already in memory (e.g. a copy read raw).
absl::StatusOr<kernel::State> VerifyEvents(
    const std::vector<events::EventBuffer>& events, Layer* failed = nullptr);

// Hex of the state hash (kernel::StateHash).
std::string StateHashHex(const kernel::State& state);

}  // namespace combat::testing

#endif  // COMBAT_TESTS_TESTING_VERIFY_H_
