// SHA-256 (OpenSSL libcrypto) and hex rendering.
#ifndef COMBAT_EVENTS_HASH_H_
#define COMBAT_EVENTS_HASH_H_

#include <array>
#include <cstdint>
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

}  // namespace combat::events

#endif  // COMBAT_EVENTS_HASH_H_
