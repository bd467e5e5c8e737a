#include "events/signature.h"

#include "gtest/gtest.h"

namespace combat::events {
namespace {

TEST(Signature, SignsAndVerifiesAndRefusesAnyChange) {
  auto pair = NewSigningKey();
  ASSERT_TRUE(pair.ok()) << pair.status();
  auto pub = PublicKeyOf(pair->private_key);
  ASSERT_TRUE(pub.ok());
  EXPECT_EQ(*pub, pair->public_key);
  auto sig = Sign(pair->private_key, "head s1 main 7");
  ASSERT_TRUE(sig.ok()) << sig.status();
  EXPECT_TRUE(SignatureValid(pair->public_key, "head s1 main 7", *sig));
  EXPECT_FALSE(SignatureValid(pair->public_key, "head s1 main 6", *sig));
  std::vector<uint8_t> bad = *sig;
  bad[3] ^= 1;
  EXPECT_FALSE(SignatureValid(pair->public_key, "head s1 main 7", bad));
  auto other = NewSigningKey();
  ASSERT_TRUE(other.ok());
  EXPECT_FALSE(SignatureValid(other->public_key, "head s1 main 7", *sig));
  EXPECT_FALSE(Sign({1, 2, 3}, "x").ok());
}

}  // namespace
}  // namespace combat::events
