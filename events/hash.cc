#include "events/hash.h"

#include <openssl/evp.h>

namespace combat::events {

namespace {

// One digest context per thread, reused: EVP_Digest would allocate and free
// one per call, which dominates hashing the small parts of a state. The
// SHA-256 implementation is fetched once: with EVP_sha256() OpenSSL 3
// looks it up in the provider store (under a read lock) on every
// EVP_DigestInit_ex, which cost more than hashing a few hundred bytes.
struct Context {
  Context() : ctx(EVP_MD_CTX_new()), fetched(EVP_MD_fetch(nullptr, "SHA256", nullptr)) {
    md = fetched != nullptr ? fetched : EVP_sha256();
  }
  ~Context() {
    EVP_MD_CTX_free(ctx);
    EVP_MD_free(fetched);
  }
  EVP_MD_CTX* ctx;
  EVP_MD* fetched;
  const EVP_MD* md;
};

}  // namespace

Digest Sha256(const uint8_t* data, size_t size) {
  thread_local Context c;
  Digest out{};
  unsigned int len = 0;
  // These fail only on allocation failure, after which `out` stays zero
  // (and no hash would verify).
  if (c.ctx == nullptr || EVP_DigestInit_ex(c.ctx, c.md, nullptr) != 1 ||
      EVP_DigestUpdate(c.ctx, data, size) != 1 ||
      EVP_DigestFinal_ex(c.ctx, out.data(), &len) != 1) {
    return Digest{};
  }
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

std::optional<std::vector<uint8_t>> FromHex(absl::string_view hex, size_t bytes) {
  if (hex.empty() || hex.size() % 2 != 0) return std::nullopt;
  if (bytes > 0 && hex.size() != 2 * bytes) return std::nullopt;
  auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::vector<uint8_t> out(hex.size() / 2);
  for (size_t i = 0; i < out.size(); ++i) {
    const int hi = digit(hex[2 * i]);
    const int lo = digit(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out[i] = static_cast<uint8_t>(hi * 16 + lo);
  }
  return out;
}

}  // namespace combat::events
