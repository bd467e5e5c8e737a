// SHA-256 (OpenSSL libcrypto) and hex rendering.
#ifndef COMBAT_EVENTS_HASH_H_
#define COMBAT_EVENTS_HASH_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace combat::events {

using Digest = std::array<uint8_t, 32>;

Digest Sha256(const uint8_t* data, size_t size);
inline Digest Sha256(absl::string_view bytes) {
  return Sha256(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}
inline Digest Sha256(const std::vector<uint8_t>& bytes) {
  return Sha256(bytes.data(), bytes.size());
}

// Lower-case hex of `size` bytes.
std::string Hex(const uint8_t* data, size_t size);
inline std::string Hex(const Digest& d) { return Hex(d.data(), d.size()); }
inline std::string Hex(const std::vector<uint8_t>& v) {
  return Hex(v.data(), v.size());
}

// The bytes `hex` spells, two hex digits (either case) a byte; nullopt
// when it is empty, not hex, of odd length, or, with `bytes` > 0, not
// exactly that many bytes. The one hex reader (flags, files, params).
std::optional<std::vector<uint8_t>> FromHex(absl::string_view hex, size_t bytes = 0);

}  // namespace combat::events

#endif  // COMBAT_EVENTS_HASH_H_
