#include "kernel/dice/notation.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace combat::kernel::dice {
namespace {

using ::testing::HasSubstr;

DiceExpr MustParse(const std::string& text) {
  absl::StatusOr<DiceExpr> e = ParseDice(text);
  EXPECT_TRUE(e.ok()) << text << ": " << e.status();
  return e.ok() ? *e : DiceExpr{};
}

TEST(ParseDice, SingleDie) {
  DiceExpr e = MustParse("d20");
  ASSERT_EQ(e.terms.size(), 1u);
  EXPECT_EQ(e.terms[0].count, 1);
  EXPECT_EQ(e.terms[0].faces, 20);
  EXPECT_EQ(e.terms[0].sign, 1);
  EXPECT_EQ(e.modifier, 0);
  EXPECT_EQ(e.text, "1d20");
}

TEST(ParseDice, Advantage) {
  DiceExpr e = MustParse("2d20kh1+7");
  ASSERT_EQ(e.terms.size(), 1u);
  EXPECT_EQ(e.terms[0].count, 2);
  EXPECT_EQ(e.terms[0].keep_high, 1);
  EXPECT_EQ(e.terms[0].keep_low, 0);
  EXPECT_EQ(e.modifier, 7);
  EXPECT_EQ(e.text, "2d20kh1+7");
}

TEST(ParseDice, Disadvantage) {
  DiceExpr e = MustParse("2d20kl1");
  ASSERT_EQ(e.terms.size(), 1u);
  EXPECT_EQ(e.terms[0].keep_low, 1);
  EXPECT_EQ(e.terms[0].keep_high, 0);
}

TEST(ParseDice, ExplodingAndPool) {
  DiceExpr e = MustParse("1d6!");
  ASSERT_EQ(e.terms.size(), 1u);
  EXPECT_TRUE(e.terms[0].explode);
  e = MustParse("6d6>=5");
  ASSERT_EQ(e.terms.size(), 1u);
  EXPECT_EQ(e.terms[0].count, 6);
  EXPECT_EQ(e.terms[0].pool_at, 5);
  EXPECT_FALSE(e.terms[0].explode);
  e = MustParse("4d10kh3!>=8");
  ASSERT_EQ(e.terms.size(), 1u);
  EXPECT_EQ(e.terms[0].keep_high, 3);
  EXPECT_TRUE(e.terms[0].explode);
  EXPECT_EQ(e.terms[0].pool_at, 8);
  EXPECT_EQ(e.text, "4d10kh3!>=8");
}

TEST(ParseDice, SignsAndConstants) {
  DiceExpr e = MustParse("2d6-1");
  EXPECT_EQ(e.modifier, -1);
  EXPECT_EQ(e.text, "2d6-1");
  e = MustParse("1d8+2d6-1d4+3-5");
  ASSERT_EQ(e.terms.size(), 3u);
  EXPECT_EQ(e.terms[0].sign, 1);
  EXPECT_EQ(e.terms[1].sign, 1);
  EXPECT_EQ(e.terms[2].sign, -1);
  EXPECT_EQ(e.modifier, -2);
  EXPECT_EQ(e.text, "1d8+2d6-1d4+3-5");
  e = MustParse("5");
  EXPECT_TRUE(e.terms.empty());
  EXPECT_EQ(e.modifier, 5);
  EXPECT_EQ(e.text, "5");
}

TEST(ParseDice, CaseAndSpacesIgnored) {
  DiceExpr e = MustParse("  2D20 KH1 + 07 ");
  ASSERT_EQ(e.terms.size(), 1u);
  EXPECT_EQ(e.terms[0].keep_high, 1);
  EXPECT_EQ(e.modifier, 7);
  EXPECT_EQ(e.text, "2d20kh1+7");
  EXPECT_EQ(MustParse("6D6 > = 5").terms[0].pool_at, 5);
}

TEST(ParseDice, Limits) {
  EXPECT_EQ(MustParse("100d1000").terms[0].count, 100);
  EXPECT_EQ(MustParse("d1").terms[0].faces, 1);
  EXPECT_EQ(MustParse("d1+d1+d1+d1+d1+d1+d1+1").terms.size(), 7u);
  EXPECT_EQ(MustParse("1000000").modifier, 1000000);
  EXPECT_EQ(MustParse("3d6kh3").terms[0].keep_high, 3);
}

TEST(ParseDice, ErrorMessageReadsWell) {
  absl::StatusOr<DiceExpr> e = ParseDice("2d20 kh3");
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.status().message(),
            "dice notation \"2d20 kh3\": at position 7: expected a number of "
            "dice to keep from 1 to 2, found 3");
}

struct BadCase {
  const char* text;
  const char* position;  // "position N"
  const char* expected;  // a piece of the "expected ..." part
};

class ParseDiceError : public ::testing::TestWithParam<BadCase> {};

TEST_P(ParseDiceError, NamesPositionAndExpectation) {
  const BadCase& c = GetParam();
  absl::StatusOr<DiceExpr> e = ParseDice(c.text);
  ASSERT_FALSE(e.ok()) << c.text;
  EXPECT_EQ(e.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(e.status().message()), HasSubstr(c.position));
  EXPECT_THAT(std::string(e.status().message()), HasSubstr(c.expected));
}

INSTANTIATE_TEST_SUITE_P(
    Bad, ParseDiceError,
    ::testing::Values(
        BadCase{"", "position 0", "expected a number or 'd'"},
        BadCase{"   ", "position 3", "found the end of the input"},
        BadCase{"2d", "position 2", "the number of faces after 'd'"},
        BadCase{"2dx", "position 2", "found 'x'"},
        BadCase{"d0", "position 1", "faces from 1 to 1000, found 0"},
        BadCase{"d1001", "position 1", "faces from 1 to 1000, found 1001"},
        BadCase{"0d6", "position 0", "a dice count from 1 to 100, found 0"},
        BadCase{"101d6", "position 0", "a dice count from 1 to 100"},
        BadCase{"2d20kh3", "position 6", "keep from 1 to 2, found 3"},
        BadCase{"2d20kh0", "position 6", "keep from 1 to 2"},
        BadCase{"2d20kx1", "position 5", "'h' or 'l' after 'k'"},
        BadCase{"2d20k", "position 5", "'h' or 'l' after 'k'"},
        BadCase{"2d20kh", "position 6", "the number of dice to keep"},
        BadCase{"2d20kh1kl1", "position 7", "'+', '-' or the end"},
        BadCase{"d1!", "position 2", "a d1 cannot explode"},
        BadCase{"6d6>5", "position 4", "'=' after '>'"},
        BadCase{"6d6>=", "position 5", "a success threshold after '>='"},
        BadCase{"6d6>=7", "position 5", "threshold from 1 to 6, found 7"},
        BadCase{"d20+", "position 4", "a number or 'd'"},
        BadCase{"d20 *2", "position 4", "'+', '-' or the end"},
        BadCase{"-d20", "position 0", "a number or 'd'"},
        BadCase{"d20++1", "position 4", "a number or 'd'"},
        BadCase{"d20+1000001", "position 4", "from 0 to 1000000"},
        BadCase{"d20+99999999999999999999999", "position 4", "from 0 to"},
        BadCase{"1+1+1+1+1+1+1+1+1", "position 16", "at most 8 terms"}));

}  // namespace
}  // namespace combat::kernel::dice
