#include "events/signature.h"

#include <openssl/evp.h>

#include <memory>

namespace combat::events {
namespace {

constexpr size_t kKeyBytes = 32;
constexpr size_t kSignatureBytes = 64;

struct PkeyFree {
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
};
struct MdCtxFree {
  void operator()(EVP_MD_CTX* c) const { EVP_MD_CTX_free(c); }
};
struct PkeyCtxFree {
  void operator()(EVP_PKEY_CTX* c) const { EVP_PKEY_CTX_free(c); }
};
using Pkey = std::unique_ptr<EVP_PKEY, PkeyFree>;

absl::Status KeySize(const std::vector<uint8_t>& key, const char* what) {
  if (key.size() == kKeyBytes) return absl::OkStatus();
  return absl::InvalidArgumentError(
      std::string(what) + ": an Ed25519 key is 32 bytes, got " +
      std::to_string(key.size()));
}

}  // namespace

absl::StatusOr<SigningKeyPair> NewSigningKey() {
  std::unique_ptr<EVP_PKEY_CTX, PkeyCtxFree> ctx(
      EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, nullptr));
  EVP_PKEY* raw = nullptr;
  if (ctx == nullptr || EVP_PKEY_keygen_init(ctx.get()) != 1 ||
      EVP_PKEY_keygen(ctx.get(), &raw) != 1) {
    return absl::InternalError("Ed25519 key generation failed (OpenSSL)");
  }
  Pkey key(raw);
  SigningKeyPair pair;
  pair.private_key.resize(kKeyBytes);
  pair.public_key.resize(kKeyBytes);
  size_t n = kKeyBytes, m = kKeyBytes;
  if (EVP_PKEY_get_raw_private_key(key.get(), pair.private_key.data(), &n) != 1 ||
      EVP_PKEY_get_raw_public_key(key.get(), pair.public_key.data(), &m) != 1 ||
      n != kKeyBytes || m != kKeyBytes) {
    return absl::InternalError("Ed25519 key export failed (OpenSSL)");
  }
  return pair;
}

absl::StatusOr<std::vector<uint8_t>> PublicKeyOf(
    const std::vector<uint8_t>& private_key) {
  if (absl::Status s = KeySize(private_key, "signing key"); !s.ok()) return s;
  Pkey key(EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nullptr,
                                        private_key.data(), private_key.size()));
  std::vector<uint8_t> pub(kKeyBytes);
  size_t n = kKeyBytes;
  if (key == nullptr || EVP_PKEY_get_raw_public_key(key.get(), pub.data(), &n) != 1) {
    return absl::InternalError("Ed25519 public key derivation failed (OpenSSL)");
  }
  return pub;
}

absl::StatusOr<std::vector<uint8_t>> Sign(const std::vector<uint8_t>& private_key,
                                          absl::string_view message) {
  if (absl::Status s = KeySize(private_key, "signing key"); !s.ok()) return s;
  Pkey key(EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nullptr,
                                        private_key.data(), private_key.size()));
  std::unique_ptr<EVP_MD_CTX, MdCtxFree> ctx(EVP_MD_CTX_new());
  std::vector<uint8_t> sig(kSignatureBytes);
  size_t len = sig.size();
  if (key == nullptr || ctx == nullptr ||
      EVP_DigestSignInit(ctx.get(), nullptr, nullptr, nullptr, key.get()) != 1 ||
      EVP_DigestSign(ctx.get(), sig.data(), &len,
                     reinterpret_cast<const unsigned char*>(message.data()),
                     message.size()) != 1 ||
      len != kSignatureBytes) {
    return absl::InternalError("Ed25519 signing failed (OpenSSL)");
  }
  return sig;
}

bool SignatureValid(const std::vector<uint8_t>& public_key,
                    absl::string_view message,
                    const std::vector<uint8_t>& signature) {
  if (public_key.size() != kKeyBytes || signature.size() != kSignatureBytes) {
    return false;
  }
  Pkey key(EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nullptr,
                                       public_key.data(), public_key.size()));
  std::unique_ptr<EVP_MD_CTX, MdCtxFree> ctx(EVP_MD_CTX_new());
  return key != nullptr && ctx != nullptr &&
         EVP_DigestVerifyInit(ctx.get(), nullptr, nullptr, nullptr, key.get()) == 1 &&
         EVP_DigestVerify(ctx.get(), signature.data(), signature.size(),
                          reinterpret_cast<const unsigned char*>(message.data()),
                          message.size()) == 1;
}

}  // namespace combat::events
