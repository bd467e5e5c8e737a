// Canonical encoding of events and safe decoding of untrusted bytes.
//
// Canonical bytes: the FlatBuffers encoding that EncodeEvent() produces from
// the object form (fb::EventT) with a fresh builder. Packing is
// deterministic, so Canonical(bytes) == bytes for every event this kernel
// wrote, and the hash chain is computed over those bytes (FORMAT.md).
#ifndef COMBAT_EVENTS_CODEC_H_
#define COMBAT_EVENTS_CODEC_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "events/events_generated.h"
#include "events/hash.h"

namespace combat::events {

// The schema version written into SessionStarted. Bump on any change to
// the .fbs files (FORMAT.md keeps the history).
inline constexpr int kSchemaVersion = 7;

// Packs `event` into canonical bytes (with the "CMBE" identifier).
std::vector<uint8_t> EncodeEvent(const fb::EventT& event);

// An event decoded from untrusted bytes: copied into memory this object
// owns (heap storage, aligned for every FlatBuffers scalar: values read
// from RocksDB are not), then checked by the FlatBuffers Verifier. The
// Verifier guards memory safety only; integrity is the hash chain's job.
class EventBuffer {
 public:
  // `context` names the source in errors ("session s1 branch main seq 7").
  // Errors: DataLoss when the bytes are not a well-formed event.
  static absl::StatusOr<EventBuffer> FromBytes(const void* data, size_t size,
                                               absl::string_view context);
  static absl::StatusOr<EventBuffer> FromBytes(absl::string_view bytes,
                                               absl::string_view context) {
    return FromBytes(bytes.data(), bytes.size(), context);
  }
  // Takes ownership of bytes produced by EncodeEvent (still verified), or
  // of a vector a reader copied stored bytes into (see ReleaseBytes).
  static absl::StatusOr<EventBuffer> FromOwned(std::vector<uint8_t> bytes,
                                               absl::string_view context);

  const fb::Event& event() const { return *fb::GetEvent(bytes_.data()); }
  const std::vector<uint8_t>& bytes() const { return bytes_; }
  // Gives up the byte vector (its capacity kept), leaving this buffer empty
  // as a moved-from one is: how a reader that decodes batch after batch
  // reuses the storage of events already visited (assign the next stored
  // bytes into it, then FromOwned) instead of allocating per event, and
  // frees nothing in a thread other than the one that allocated.
  std::vector<uint8_t> ReleaseBytes() && {
    hash_.reset();
    return std::move(bytes_);
  }
  // SHA-256 of the bytes: what the next event's prev_hash must be. The
  // remembered hash when the buffer has one (RememberHash), else computed.
  Digest hash() const { return hash_.has_value() ? *hash_ : Sha256(bytes_); }
  // Computes the hash once and keeps it with the bytes (copies keep it
  // too), so that every later reader of this buffer gets it for free: the
  // store hashes each event it scans to check the chain, and verify's walk,
  // pipeline and re-decision then read that hash instead of hashing again.
  // Not thread-safe (it writes): call it on a buffer no other thread reads.
  const Digest& RememberHash() {
    if (!hash_.has_value()) hash_ = Sha256(bytes_);
    return *hash_;
  }
  // DataLoss unless the bytes are exactly the canonical encoding.
  absl::Status CheckCanonical(absl::string_view context) const;
  // Overwrites the event's state_hash in place. A byte vector's layout
  // depends only on its length, so the result is exactly what EncodeEvent
  // gives for the event with that hash, and still verified: how a decision
  // encodes each event once (kernel/decision.cc), with a placeholder of 32
  // zero bytes before the state after it is known. FailedPrecondition
  // unless the event carries a 32-byte state_hash.
  absl::Status SetStateHash(const Digest& state_hash);

 private:
  explicit EventBuffer(std::vector<uint8_t> bytes) : bytes_(std::move(bytes)) {}
  std::vector<uint8_t> bytes_;
  std::optional<Digest> hash_;  // of bytes_ (RememberHash); reset on change
};

// SHA-256 of `command` packed by the generated Pack into a fresh builder
// (as canonical event bytes are): what binds a command id to its content
// in the store's command markers (store::EventLog::Append's `content`).
Digest CommandContentHash(const fb::CommandT& command);

// The content a command's marker binds, read back from the command's
// events: the CommandContentHash of the command its first Declaration or
// Interrupt records, or, for a command without one (a session's set-up, a
// fork record), the hash of its first event. Zeros when `events` is empty.
Digest MarkerContent(absl::Span<const EventBuffer> events);

// Verifies bytes of any root table in memory `data` is aligned; used for
// inputs parsed from JSON (roster, script, command).
template <typename T>
bool VerifyRoot(const uint8_t* data, size_t size) {
  flatbuffers::Verifier v(data, size, /*max_depth=*/64, /*max_tables=*/1000000);
  return v.VerifyBuffer<T>(nullptr);
}

}  // namespace combat::events

#endif  // COMBAT_EVENTS_CODEC_H_
