#include "kernel/dice/roller.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace combat::kernel::dice {
namespace {

using ::testing::HasSubstr;

DiceExpr Parse(const std::string& text) {
  absl::StatusOr<DiceExpr> e = ParseDice(text);
  EXPECT_TRUE(e.ok()) << e.status();
  return e.ok() ? *e : DiceExpr{};
}

RollResult Roll(const std::string& text, std::vector<int> values,
                int64_t first_index = 0) {
  ManualDice dice(std::move(values), nullptr);
  absl::StatusOr<RollResult> r = Evaluate(Parse(text), dice, first_index);
  EXPECT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(dice.remaining(), 0u) << text;
  return r.ok() ? *r : RollResult{};
}

std::vector<int> Vals(const RollResult& r) {
  std::vector<int> v;
  for (const fb::DieT& d : r.dice) v.push_back(d.value);
  return v;
}
std::vector<bool> Kept(const RollResult& r) {
  std::vector<bool> v;
  for (const fb::DieT& d : r.dice) v.push_back(d.kept);
  return v;
}
std::vector<bool> Exploded(const RollResult& r) {
  std::vector<bool> v;
  for (const fb::DieT& d : r.dice) v.push_back(d.exploded);
  return v;
}

TEST(Evaluate, PlainRollWithModifier) {
  RollResult r = Roll("1d20+5", {14}, 40);
  ASSERT_EQ(r.dice.size(), 1u);
  EXPECT_EQ(r.dice[0].faces, 20);
  EXPECT_EQ(r.dice[0].value, 14);
  EXPECT_EQ(r.dice[0].index, 40);
  EXPECT_TRUE(r.dice[0].kept);
  EXPECT_FALSE(r.dice[0].exploded);
  EXPECT_EQ(r.dice[0].provenance, fb::Provenance::Manual);
  EXPECT_EQ(r.modifier, 5);
  EXPECT_EQ(r.total, 19);
  EXPECT_EQ(r.successes, 0);
  EXPECT_EQ(r.natural(), 14);
}

TEST(Evaluate, IndicesRunAcrossTerms) {
  RollResult r = Roll("2d6+1d4-1d8-2", {3, 5, 2, 7}, 10);
  ASSERT_EQ(r.dice.size(), 4u);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(r.dice[i].index, 10 + i);
  EXPECT_EQ(r.total, 3 + 5 + 2 - 7 - 2);
  EXPECT_EQ(r.modifier, -2);
}

TEST(Evaluate, Advantage) {
  RollResult r = Roll("2d20kh1+7", {6, 15});
  EXPECT_EQ(Kept(r), (std::vector<bool>{false, true}));
  EXPECT_EQ(r.total, 22);
  EXPECT_EQ(r.natural(), 15);
}

TEST(Evaluate, Disadvantage) {
  RollResult r = Roll("2d20kl1", {6, 15});
  EXPECT_EQ(Kept(r), (std::vector<bool>{true, false}));
  EXPECT_EQ(r.total, 6);
  EXPECT_EQ(r.natural(), 6);
}

TEST(Evaluate, KeepTiesDropTheLaterDie) {
  RollResult r = Roll("2d20kh1", {12, 12});
  EXPECT_EQ(Kept(r), (std::vector<bool>{true, false}));
  r = Roll("2d20kl1", {12, 12});
  EXPECT_EQ(Kept(r), (std::vector<bool>{true, false}));
  r = Roll("4d6kh3", {5, 2, 5, 2});
  EXPECT_EQ(Kept(r), (std::vector<bool>{true, true, true, false}));
  EXPECT_EQ(r.total, 12);
  r = Roll("4d6kl2", {5, 2, 5, 2});
  EXPECT_EQ(Kept(r), (std::vector<bool>{false, true, false, true}));
  r = Roll("4d6kl3", {5, 2, 5, 2});
  EXPECT_EQ(Kept(r), (std::vector<bool>{true, true, false, true}));
}

TEST(Evaluate, ExplodesTwiceInARow) {
  RollResult r = Roll("1d6!+1", {6, 6, 3});
  EXPECT_EQ(Vals(r), (std::vector<int>{6, 6, 3}));
  EXPECT_EQ(Exploded(r), (std::vector<bool>{true, true, false}));
  EXPECT_EQ(Kept(r), (std::vector<bool>{true, true, true}));
  for (int i = 0; i < 3; ++i) EXPECT_EQ(r.dice[i].index, i);
  EXPECT_EQ(r.total, 16);
  EXPECT_EQ(r.natural(), 6);
}

TEST(Evaluate, EachDieHasItsOwnChain) {
  RollResult r = Roll("2d4!", {4, 1, 4, 4, 2});
  EXPECT_EQ(Vals(r), (std::vector<int>{4, 1, 4, 4, 2}));
  EXPECT_EQ(Exploded(r), (std::vector<bool>{true, false, true, true, false}));
  EXPECT_EQ(r.total, 15);
}

TEST(Evaluate, ExplosionChainIsCapped) {
  std::vector<int> sixes(kMaxExplosions + 1, 6);
  RollResult r = Roll("1d6!", sixes);
  ASSERT_EQ(r.dice.size(), static_cast<size_t>(kMaxExplosions + 1));
  for (int i = 0; i < kMaxExplosions; ++i) EXPECT_TRUE(r.dice[i].exploded);
  EXPECT_FALSE(r.dice.back().exploded);
  EXPECT_EQ(r.total, 6 * (kMaxExplosions + 1));
}

TEST(Evaluate, NoExplosionWithoutBang) {
  RollResult r = Roll("1d6", {6});
  EXPECT_EQ(Exploded(r), (std::vector<bool>{false}));
}

TEST(Evaluate, KeepRanksExplosionExtras) {
  // 6 explodes into 2; then 5. Keep the highest two of {6, 2, 5}.
  RollResult r = Roll("2d6kh2!", {6, 2, 5});
  EXPECT_EQ(Kept(r), (std::vector<bool>{true, false, true}));
  EXPECT_EQ(r.total, 11);
}

TEST(Evaluate, PoolCountsSuccessesAndTotals) {
  RollResult r = Roll("6d6>=5", {5, 1, 6, 4, 5, 2});
  EXPECT_EQ(r.successes, 3);
  EXPECT_EQ(r.total, 23);
}

TEST(Evaluate, PoolWithKeepAndExplosion) {
  // Keep the best 2 of 3 d10, exploding, successes on 8+.
  RollResult r = Roll("3d10kh2!>=8", {10, 3, 8, 1});
  EXPECT_EQ(Vals(r), (std::vector<int>{10, 3, 8, 1}));
  EXPECT_EQ(Kept(r), (std::vector<bool>{true, false, true, false}));
  EXPECT_EQ(r.successes, 2);
  EXPECT_EQ(r.total, 18);
}

TEST(Evaluate, NegativePoolSubtractsSuccesses) {
  RollResult r = Roll("3d6>=5-2d6>=5", {6, 5, 1, 5, 2});
  EXPECT_EQ(r.successes, 1);
  EXPECT_EQ(r.total, 12 - 7);
}

TEST(Evaluate, ConstantOnly) {
  RollResult r = Roll("7", {});
  EXPECT_TRUE(r.dice.empty());
  EXPECT_EQ(r.total, 7);
  EXPECT_EQ(r.natural(), 0);
}

TEST(Evaluate, NaturalSkipsDroppedDice) {
  RollResult r = Roll("2d20kh1+1d4", {3, 9, 2});
  EXPECT_EQ(r.natural(), 9);
}

TEST(Evaluate, ManualExhaustionFails) {
  ManualDice dice({6}, nullptr);
  absl::StatusOr<RollResult> r = Evaluate(Parse("1d6!"), dice, 0);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("d6"));
}

TEST(Evaluate, ManualThenSeededFallback) {
  SeededDice seeded({1, 2, 3}, "s");
  ManualDice dice({17}, &seeded);
  absl::StatusOr<RollResult> r = Evaluate(Parse("2d20kh1"), dice, 5);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->dice.size(), 2u);
  EXPECT_EQ(r->dice[0].provenance, fb::Provenance::Manual);
  EXPECT_EQ(r->dice[1].provenance, fb::Provenance::Seeded);
  EXPECT_EQ(r->dice[1].value, SeededDice::ValueAt({1, 2, 3}, "s", 6, 20));
}

TEST(Evaluate, OutOfRangeManualValue) {
  ManualDice dice({21}, nullptr);
  absl::StatusOr<RollResult> r = Evaluate(Parse("1d20"), dice, 0);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("d20"));
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("21"));
}

TEST(Evaluate, SeededIsReproducible) {
  SeededDice a({9, 9}, "x");
  SeededDice b({9, 9}, "x");
  DiceExpr e = Parse("4d6kh3+2d10!+3");
  absl::StatusOr<RollResult> ra = Evaluate(e, a, 100);
  absl::StatusOr<RollResult> rb = Evaluate(e, b, 100);
  ASSERT_TRUE(ra.ok() && rb.ok());
  EXPECT_EQ(Vals(*ra), Vals(*rb));
  EXPECT_EQ(ra->total, rb->total);
  for (size_t i = 0; i < ra->dice.size(); ++i) {
    EXPECT_EQ(ra->dice[i].index, 100 + static_cast<int64_t>(i));
  }
}

TEST(Evaluate, RejectsHandBuiltTermsOutsideTheLimits) {
  DiceExpr e;
  DiceTerm t;
  t.count = 0;
  e.terms.push_back(t);
  ManualDice dice({}, nullptr);
  EXPECT_EQ(Evaluate(e, dice, 0).status().code(),
            absl::StatusCode::kInvalidArgument);
  e.terms[0].count = 2;
  e.terms[0].keep_high = 3;
  EXPECT_EQ(Evaluate(e, dice, 0).status().code(),
            absl::StatusCode::kInvalidArgument);
  e.terms[0].keep_high = 0;
  e.terms[0].faces = 1;
  e.terms[0].explode = true;
  EXPECT_EQ(Evaluate(e, dice, 0).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace combat::kernel::dice
