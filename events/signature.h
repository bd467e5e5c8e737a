// Ed25519 signatures (OpenSSL libcrypto, EVP_PKEY_ED25519): the keys that
// sign a session's published heads (replay/anchor.h). Keys and signatures
// are raw bytes: a 32-byte private key, a 32-byte public key, a 64-byte
// signature.
#ifndef COMBAT_EVENTS_SIGNATURE_H_
#define COMBAT_EVENTS_SIGNATURE_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace combat::events {

struct SigningKeyPair {
  std::vector<uint8_t> private_key;  // 32 bytes
  std::vector<uint8_t> public_key;   // 32 bytes
};

// A fresh key pair from the OS random source. Internal on an OpenSSL error.
absl::StatusOr<SigningKeyPair> NewSigningKey();
// The public key of `private_key`. InvalidArgument unless 32 bytes.
absl::StatusOr<std::vector<uint8_t>> PublicKeyOf(
    const std::vector<uint8_t>& private_key);
// The 64-byte signature of `message`. InvalidArgument unless the key is 32
// bytes.
absl::StatusOr<std::vector<uint8_t>> Sign(const std::vector<uint8_t>& private_key,
                                          absl::string_view message);
// True when `signature` is `public_key`'s over `message`; false for any
// malformed key or signature.
bool SignatureValid(const std::vector<uint8_t>& public_key,
                    absl::string_view message,
                    const std::vector<uint8_t>& signature);

}  // namespace combat::events

#endif  // COMBAT_EVENTS_SIGNATURE_H_
