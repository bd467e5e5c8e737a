#include "store/digest.h"

#include <openssl/evp.h>

namespace combat::store {
namespace {

// One context and one fetched algorithm per thread, reused.
struct Context {
  Context()
      : ctx(EVP_MD_CTX_new()), md(EVP_MD_fetch(nullptr, "SHA256", nullptr)) {}
  ~Context() {
    EVP_MD_free(md);
    EVP_MD_CTX_free(ctx);
  }
  EVP_MD_CTX* ctx;
  EVP_MD* md;
};

}  // namespace

events::Digest ChainHash(const uint8_t* data, size_t size) {
  thread_local Context c;
  if (c.ctx == nullptr || c.md == nullptr) {
    return events::Sha256(data, size);  // the slower path still works
  }
  events::Digest out{};
  unsigned int len = 0;
  if (EVP_DigestInit_ex(c.ctx, c.md, nullptr) != 1 ||
      EVP_DigestUpdate(c.ctx, data, size) != 1 ||
      EVP_DigestFinal_ex(c.ctx, out.data(), &len) != 1 || len != out.size()) {
    return events::Sha256(data, size);
  }
  return out;
}

}  // namespace combat::store
