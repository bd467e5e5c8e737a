#include "kernel/dice/source.h"

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "events/hash.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace combat::kernel::dice {
namespace {

using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();

std::vector<uint8_t> GoldenSecret() {
  std::vector<uint8_t> s;
  for (int i = 0; i < 32; ++i) s.push_back(static_cast<uint8_t>(i));
  return s;
}

std::vector<int> Values(const std::vector<uint8_t>& secret,
                        const std::string& session, int faces, int n) {
  std::vector<int> out;
  for (int i = 0; i < n; ++i) {
    out.push_back(SeededDice::ValueAt(secret, session, i, faces));
  }
  return out;
}

// Computed independently (Python hashlib) from the formula in source.h with
// secret = bytes 0..31 and session "golden". A change here means every
// recorded session's seeded dice no longer verify.
TEST(SeededDice, GoldenValues) {
  const std::vector<uint8_t> secret = GoldenSecret();
  EXPECT_THAT(Values(secret, "golden", 20, 10),
              ElementsAreArray({19, 7, 3, 14, 18, 13, 19, 12, 3, 12}));
  EXPECT_THAT(Values(secret, "golden", 6, 10),
              ElementsAreArray({3, 5, 1, 2, 2, 5, 3, 4, 5, 6}));
  EXPECT_THAT(
      Values(secret, "golden", 1000, 10),
      ElementsAreArray({179, 327, 983, 894, 498, 393, 599, 352, 223, 192}));
  EXPECT_THAT(Values(secret, "golden", 3, 10),
              ElementsAreArray({3, 2, 1, 2, 2, 2, 3, 1, 2, 3}));
  EXPECT_EQ(SeededDice::ValueAt(secret, "golden", 1000000, 20), 7);
  EXPECT_EQ(SeededDice::ValueAt(secret, "golden", int64_t{1} << 40, 20), 3);
  EXPECT_EQ(SeededDice::ValueAt(secret, "golden",
                                std::numeric_limits<int64_t>::max(), 20),
            9);
  EXPECT_EQ(events::Hex(SeededDice::Commitment(secret)),
            "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd");
}

// The formula spelled out once more, byte by byte, for the first word.
TEST(SeededDice, FirstWordIsTheDigestPrefix) {
  std::vector<uint8_t> msg = GoldenSecret();
  const std::string session = "golden";
  msg.insert(msg.end(), session.begin(), session.end());
  const int64_t index = 7;
  for (int i = 7; i >= 0; --i) msg.push_back((index >> (8 * i)) & 0xff);
  for (int i = 0; i < 4; ++i) msg.push_back(0);  // counter 0
  const events::Digest d = events::Sha256(msg);
  uint64_t w = 0;
  for (int i = 0; i < 8; ++i) w = (w << 8) | d[i];
  // 2^64 mod 20 = 16: the word is rejected only if among the top 16 values.
  ASSERT_LT(w, kMax - 15);
  EXPECT_EQ(SeededDice::ValueAt(GoldenSecret(), session, index, 20),
            static_cast<int>(w % 20) + 1);
}

TEST(SeededDice, DeterministicAndMatchesValueAt) {
  SeededDice a(GoldenSecret(), "s1");
  SeededDice b(GoldenSecret(), "s1");
  for (int64_t i = 0; i < 200; ++i) {
    const int faces = 1 + static_cast<int>(i % 30);
    absl::StatusOr<RolledDie> x = a.Next(faces, i);
    absl::StatusOr<RolledDie> y = b.Next(faces, i);
    ASSERT_TRUE(x.ok() && y.ok());
    EXPECT_EQ(x->value, y->value);
    EXPECT_EQ(x->faces, faces);
    EXPECT_EQ(x->provenance, fb::Provenance::Seeded);
    EXPECT_EQ(x->value, SeededDice::ValueAt(GoldenSecret(), "s1", i, faces));
  }
  // Order of asking does not matter: a die depends on its index only.
  SeededDice c(GoldenSecret(), "s1");
  EXPECT_EQ(c.Next(20, 40)->value, a.Next(20, 40)->value);
}

TEST(SeededDice, DependsOnSecretSessionAndIndex) {
  std::vector<uint8_t> other = GoldenSecret();
  other[0] ^= 1;
  const std::vector<int> base = Values(GoldenSecret(), "golden", 1000, 20);
  EXPECT_NE(base, Values(other, "golden", 1000, 20));
  EXPECT_NE(base, Values(GoldenSecret(), "golden2", 1000, 20));
}

TEST(SeededDice, RejectsBadArguments) {
  SeededDice d(GoldenSecret(), "s");
  EXPECT_EQ(d.Next(0, 0).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(d.Next(1001, 0).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(d.Next(6, -1).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(SeededDice::ValueAt(GoldenSecret(), "s", 0, 0), 0);
  EXPECT_EQ(d.Next(1, 5)->value, 1);
}

TEST(SeededDice, UniformSanity) {
  SeededDice d(GoldenSecret(), "uniform");
  std::array<int, 7> counts{};
  for (int64_t i = 0; i < 60000; ++i) {
    absl::StatusOr<RolledDie> r = d.Next(6, i);
    ASSERT_TRUE(r.ok());
    ASSERT_GE(r->value, 1);
    ASSERT_LE(r->value, 6);
    ++counts[r->value];
  }
  for (int face = 1; face <= 6; ++face) {
    EXPECT_GE(counts[face], 9500) << "face " << face;
    EXPECT_LE(counts[face], 10500) << "face " << face;
  }
}

TEST(SeededDice, EveryFaceOfALargeDieIsReachable) {
  // d7 does not divide 2^64; each face within +-10% of 2000 over 14000.
  std::array<int, 8> counts{};
  for (int64_t i = 0; i < 14000; ++i) {
    ++counts[SeededDice::ValueAt(GoldenSecret(), "d7", i, 7)];
  }
  EXPECT_EQ(counts[0], 0);
  for (int face = 1; face <= 7; ++face) {
    EXPECT_GE(counts[face], 1800) << face;
    EXPECT_LE(counts[face], 2200) << face;
  }
}

TEST(SampleUniform, AcceptsBelowTheLargestMultiple) {
  // 2^64 mod 6 = 4: words 2^64-4 .. 2^64-1 are rejected, 2^64-5 is not.
  EXPECT_EQ(internal::SampleUniform(6, [](uint32_t) { return kMax - 4; }),
            static_cast<int>((kMax - 4) % 6) + 1);
  EXPECT_EQ(internal::SampleUniform(6, [](uint32_t) { return uint64_t{0}; }),
            1);
  EXPECT_EQ(internal::SampleUniform(6, [](uint32_t) { return uint64_t{11}; }),
            6);
  // A power of two divides 2^64: nothing is rejected.
  EXPECT_EQ(internal::SampleUniform(8, [](uint32_t) { return kMax; }), 8);
  EXPECT_EQ(internal::SampleUniform(1, [](uint32_t) { return kMax; }), 1);
}

TEST(SampleUniform, RejectsTheTopAndAsksForTheNextCounter) {
  // faces 6: the top 4 words are rejected; the counter moves on.
  std::vector<uint32_t> asked;
  const int v = internal::SampleUniform(6, [&](uint32_t counter) {
    asked.push_back(counter);
    if (counter == 0) return kMax;
    if (counter == 1) return kMax - 3;  // 2^64-4: still rejected
    return uint64_t{9};                 // 9 % 6 + 1 = 4
  });
  EXPECT_EQ(v, 4);
  EXPECT_THAT(asked, ElementsAreArray({0u, 1u, 2u}));

  // faces 3: 2^64 mod 3 = 1, only 2^64-1 is rejected.
  asked.clear();
  EXPECT_EQ(internal::SampleUniform(3,
                                    [&](uint32_t counter) {
                                      asked.push_back(counter);
                                      return counter == 0 ? kMax : kMax - 1;
                                    }),
            static_cast<int>((kMax - 1) % 3) + 1);
  EXPECT_THAT(asked, ElementsAreArray({0u, 1u}));

  // faces 1000: 2^64 mod 1000 = 616.
  EXPECT_EQ(internal::SampleUniform(
                1000, [](uint32_t c) { return c == 0 ? kMax - 615 : 0; }),
            1);
  EXPECT_EQ(internal::SampleUniform(
                1000, [](uint32_t c) { return c == 0 ? kMax - 616 : 0; }),
            static_cast<int>((kMax - 616) % 1000) + 1);
  // Accepted words are exactly a whole number of cycles: the last accepted
  // word maps to the highest face.
  EXPECT_EQ(internal::SampleUniform(1000, [](uint32_t) { return kMax - 616; }),
            1000);
  EXPECT_EQ(internal::SampleUniform(6, [](uint32_t) { return kMax - 4; }), 6);
  EXPECT_EQ(internal::SampleUniform(3, [](uint32_t) { return kMax - 1; }), 3);
}

TEST(ManualDice, UsesValuesInOrder) {
  ManualDice d({4, 17, 1}, nullptr);
  EXPECT_EQ(d.remaining(), 3u);
  absl::StatusOr<RolledDie> a = d.Next(6, 0);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->value, 4);
  EXPECT_EQ(a->faces, 6);
  EXPECT_EQ(a->provenance, fb::Provenance::Manual);
  EXPECT_EQ(d.Next(20, 1)->value, 17);
  EXPECT_EQ(d.Next(4, 2)->value, 1);
  EXPECT_EQ(d.remaining(), 0u);
}

TEST(ManualDice, LabelIsRecorded) {
  ManualDice d({20}, nullptr, fb::Provenance::GmOverride);
  EXPECT_EQ(d.Next(20, 0)->provenance, fb::Provenance::GmOverride);
}

TEST(ManualDice, OutOfRangeNamesDieAndValue) {
  ManualDice d({21, 0}, nullptr);
  absl::StatusOr<RolledDie> r = d.Next(20, 3);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("d20"));
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("21"));
  EXPECT_EQ(d.remaining(), 2u);  // not consumed
}

TEST(ManualDice, ZeroIsOutOfRange) {
  ManualDice d({0}, nullptr);
  absl::StatusOr<RolledDie> r = d.Next(6, 0);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("d6"));
}

TEST(ManualDice, ExhaustedWithoutFallback) {
  ManualDice d({5}, nullptr);
  ASSERT_TRUE(d.Next(6, 0).ok());
  absl::StatusOr<RolledDie> r = d.Next(8, 1);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("d8"));
}

TEST(ManualDice, ExhaustedWithFallback) {
  SeededDice seeded(GoldenSecret(), "golden");
  ManualDice d({5}, &seeded);
  absl::StatusOr<RolledDie> a = d.Next(6, 0);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->provenance, fb::Provenance::Manual);
  for (int64_t i = 1; i < 5; ++i) {
    absl::StatusOr<RolledDie> b = d.Next(20, i);
    ASSERT_TRUE(b.ok());
    EXPECT_EQ(b->provenance, fb::Provenance::Seeded);
    EXPECT_EQ(b->value, SeededDice::ValueAt(GoldenSecret(), "golden", i, 20));
  }
}

}  // namespace
}  // namespace combat::kernel::dice

namespace combat::kernel::dice {
namespace {

// Schema v5 (source.h): the branch and the contribution are mixed in, each
// length-prefixed; before v5 the v4 formula is kept byte for byte.
TEST(SeededDiceV5, BranchAndContributionChangeTheDice) {
  const std::vector<uint8_t> secret(32, 9);
  int same_branch = 0, same_contribution = 0;
  for (int64_t i = 0; i < 200; ++i) {
    const int a = SeededDice::Value(secret, "s1", {5, "main", "c1"}, i, 1000);
    EXPECT_EQ(a, SeededDice::Value(secret, "s1", {5, "main", "c1"}, i, 1000));
    same_branch += a == SeededDice::Value(secret, "s1", {5, "alt", "c1"}, i, 1000);
    same_contribution +=
        a == SeededDice::Value(secret, "s1", {5, "main", "c2"}, i, 1000);
  }
  EXPECT_LT(same_branch, 5);
  EXPECT_LT(same_contribution, 5);
}

TEST(SeededDiceV5, OlderSessionsKeepTheV4Formula) {
  const std::vector<uint8_t> secret(32, 9);
  for (int64_t i = 0; i < 50; ++i) {
    EXPECT_EQ(SeededDice::Value(secret, "s1", {4, "alt", "c1"}, i, 20),
              SeededDice::ValueAt(secret, "s1", i, 20));
  }
}

// The v5 formula spelled out byte by byte for the first word.
TEST(SeededDiceV5, FirstWordIsTheDigestPrefix) {
  const std::vector<uint8_t> secret(32, 1);
  std::vector<uint8_t> msg;
  const std::string tag = "combat-dice-v5";
  msg.insert(msg.end(), tag.begin(), tag.end());
  msg.insert(msg.end(), secret.begin(), secret.end());
  for (const char* part : {"s1", "main", "cmd-7"}) {
    const std::string s = part;
    for (int i = 3; i >= 0; --i) msg.push_back((s.size() >> (8 * i)) & 0xff);
    msg.insert(msg.end(), s.begin(), s.end());
  }
  const int64_t index = 7;
  for (int i = 7; i >= 0; --i) msg.push_back((index >> (8 * i)) & 0xff);
  for (int i = 0; i < 4; ++i) msg.push_back(0);
  const events::Digest d = events::Sha256(msg);
  uint64_t w = 0;
  for (int i = 0; i < 8; ++i) w = (w << 8) | d[i];
  ASSERT_LT(w, kMax - 15);
  EXPECT_EQ(SeededDice::Value(secret, "s1", {5, "main", "cmd-7"}, index, 20),
            static_cast<int>(w % 20) + 1);
}

// Decision sets the context; a source wrapping another passes it on.
TEST(SeededDiceV5, NextUsesTheContextThroughManualDice) {
  const std::vector<uint8_t> secret(32, 9);
  SeededDice seeded(secret, "s1");
  ManualDice manual({}, &seeded);
  manual.SetContext({5, "alt", "x"});
  auto d = manual.Next(1000, 3);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->value, SeededDice::Value(secret, "s1", {5, "alt", "x"}, 3, 1000));
}

}  // namespace
}  // namespace combat::kernel::dice
