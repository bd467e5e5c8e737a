#include "replay/stats.h"

#include "gtest/gtest.h"
#include "kernel/command.h"
#include "replay/testing/fixture.h"

namespace combat::replay {
namespace {

using testing::ToyCmd;

TEST(FaceStatsTest, MeanAndChiSquareInIntegers) {
  FaceStats f;
  f.faces = 6;
  for (int v : {1, 2, 3, 4, 5, 6}) f.Add(v);
  EXPECT_EQ(f.n, 6u);
  EXPECT_EQ(f.MeanX1000(), 3500);
  EXPECT_EQ(f.ExpectedX1000(), 3500);
  EXPECT_EQ(f.ChiSquareX1000(), 0);
  f.Add(6);
  f.Add(6);
  // counts 1,1,1,1,1,3; n=8: sum (c*6-8)^2 = 5*4 + 100 = 120; /(8*6) = 2.5
  EXPECT_EQ(f.ChiSquareX1000(), 2500);
  EXPECT_EQ(f.MeanX1000(), 33 * 1000 / 8);
  f.Add(7);  // does not fit a d6: ignored
  EXPECT_EQ(f.n, 8u);
}

class StatsTest : public testing::ToyFixture {};

TEST_F(StatsTest, PerAuthorAndProvenanceWithoutVoidedRolls) {
  const std::string x = Active(), y = Other(x);
  Do(ToyCmd("c1", x, "attack", {y}, {15, 6}));
  const auto second = Do(ToyCmd("c2", x, "attack", {y}, {20, 6}));
  fb::CommandT v = ToyCmd("v", "", "gm_void");
  v.role = fb::Role::GM;
  v.author = "dana";
  v.text = "misclick";
  kernel::AddRef(v, "subject", static_cast<uint64_t>(second.front().event().seq()));
  Do(v);
  auto s = CollectDiceStats(engine_->log(), "s1", "main", false);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->voided_rolls, 2u);
  EXPECT_EQ(s->rolls, 4u) << "two initiative rolls, c1's two rolls";
  EXPECT_EQ(s->all.at(20).n, 3u);
  const FaceStats& mine = s->by_author.at(x).at(20);
  EXPECT_EQ(mine.n, 1u);
  EXPECT_EQ(mine.counts[14], 1u);
  EXPECT_EQ(mine.MeanX1000(), 15000);
  EXPECT_EQ(s->by_provenance.at("manual (physical dice)").at(6).counts[5], 1u);
  EXPECT_EQ(s->by_provenance.at("seeded").at(20).n, 2u) << "initiative";
  const std::string text = RenderDiceStats(*s);
  EXPECT_NE(text.find("by " + x), std::string::npos) << text;
  EXPECT_NE(text.find("d20  n=1  mean 15.000 (expected 10.500)"), std::string::npos) << text;
  EXPECT_NE(text.find("(2 voided rolls left out)"), std::string::npos) << text;
  auto with = CollectDiceStats(engine_->log(), "s1", "main", true);
  ASSERT_TRUE(with.ok());
  EXPECT_EQ(with->rolls, 6u);
}

}  // namespace
}  // namespace combat::replay
