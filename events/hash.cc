#include "events/hash.h"

#include <openssl/evp.h>

namespace combat::events {

Digest Sha256(const uint8_t* data, size_t size) {
  Digest out{};
  unsigned int len = 0;
  // EVP_Digest is one-shot and thread-safe; it fails only on allocation
  // failure, after which `out` stays zero (and no hash would verify).
  EVP_Digest(data, size, out.data(), &len, EVP_sha256(), nullptr);
  return out;
}

std::string Hex(const uint8_t* data, size_t size) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s(size * 2, '0');
  for (size_t i = 0; i < size; ++i) {
    s[2 * i] = kDigits[data[i] >> 4];
    s[2 * i + 1] = kDigits[data[i] & 15];
  }
  return s;
}

}  // namespace combat::events
