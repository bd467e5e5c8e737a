#include "events/hash.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace combat::events {
namespace {

// FIPS 180-2 / NIST CAVP known answers.
TEST(Sha256, KnownAnswers) {
  EXPECT_EQ(Hex(Sha256("")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Hex(Sha256("abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(
      Hex(Sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(Hex(Sha256("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijkl"
                       "mnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopq"
                       "rstu")),
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
  EXPECT_EQ(Hex(Sha256(std::string(1000000, 'a'))),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, OverloadsAgree) {
  const std::string s("the combat rules kernel\0with a NUL", 34);
  const std::vector<uint8_t> v(s.begin(), s.end());
  const Digest a = Sha256(s);
  EXPECT_EQ(a, Sha256(v));
  EXPECT_EQ(a, Sha256(v.data(), v.size()));
  EXPECT_NE(a, Sha256(s.substr(0, 23)));  // the NUL and the rest count
  EXPECT_EQ(Sha256(nullptr, 0), Sha256(""));
}

TEST(Hex, LowerCaseTwoDigitsPerByte) {
  const std::vector<uint8_t> v = {0x00, 0x0f, 0xa0, 0xff, 0x5c};
  EXPECT_EQ(Hex(v), "000fa0ff5c");
  EXPECT_EQ(Hex(v.data(), 0), "");
  EXPECT_EQ(Hex(Digest{}), std::string(64, '0'));
}

}  // namespace
}  // namespace combat::events

namespace combat::events {
namespace {

TEST(FromHexTest, ReadsEitherCaseAndRefusesAnythingElse) {
  EXPECT_EQ(FromHex("00ff7A"), (std::vector<uint8_t>{0x00, 0xff, 0x7a}));
  EXPECT_EQ(FromHex(Hex(std::vector<uint8_t>{1, 2, 3}), 3), (std::vector<uint8_t>{1, 2, 3}));
  EXPECT_FALSE(FromHex("").has_value());
  EXPECT_FALSE(FromHex("abc").has_value());      // odd length
  EXPECT_FALSE(FromHex("zz").has_value());       // not hex
  EXPECT_FALSE(FromHex("0011", 3).has_value());  // not the bytes asked
}

}  // namespace
}  // namespace combat::events
