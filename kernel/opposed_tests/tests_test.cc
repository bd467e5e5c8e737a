// The test mechanics (tests.cc) with fixed dice.
#include "gtest/gtest.h"
#include "kernel/opposed_tests/test_util.h"

namespace combat::kernel::opposed::testutil {
namespace {

TEST(TestMechanics, PoolCountsSkillAttributeModifierAndBoons) {
  Table t(OpposedTests(), Roster({Who("a", "x", 0, 0, {{"health", 5}, {"speed", 5}, {"fighting_style", 2}, {"str", 3}}),
                                  Who("b", "y", 5, 5, {{"health", 5}, {"speed", 5}})}),
          {1, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  TestSpec s{"a", "fighting_style", "str", -2, 1, 0, false, false, "t"};
  EXPECT_EQ(PoolDice(t.state(), s, nullptr), 2 + 3 - 2 + 1);
  s.banes = 2;  // boons and banes cancel one for one; net bane -1 die
  EXPECT_EQ(PoolDice(t.state(), s, nullptr), 2 + 3 - 2 - 1);
  EXPECT_EQ(MechanicsOf(t.state()).faces, 6);
  EXPECT_EQ(MechanicsOf(t.state()).success_at, 5);
}

TEST(TestMechanics, SessionSetupChangesTheMechanics) {
  Table t(OpposedTests(),
          Roster({Who("a", "x", 0, 0, {{"health", 5}, {"speed", 5}, {"test_faces", 10}, {"test_success_at", 8}, {"test_pass_at", 2}}),
                  Who("b", "y", 5, 5, {{"health", 5}, {"speed", 5}})}),
          {1, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  const TestMechanics m = MechanicsOf(t.state());
  EXPECT_EQ(m.faces, 10);
  EXPECT_EQ(m.success_at, 8);
  EXPECT_EQ(m.pass_at, 2);
  EXPECT_EQ(t.state().Pool("session", "test_faces"), 10);
}

TEST(TestMechanics, DisagreeingMechanicsAreRefusedNamingTheField) {
  Table t(OpposedTests(),
          Roster({Who("a", "x", 0, 0, {{"health", 5}, {"speed", 5}, {"test_faces", 10}}),
                  Who("b", "y", 5, 5, {{"health", 5}, {"speed", 5}, {"test_faces", 6}})}),
          {1, 1});
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(t.status().message()).find("stats.test_faces"), std::string::npos);
}

TEST(TestMechanics, ContestOutcomes) {
  TestResult fail, pass1, pass2;
  pass1.pass = pass2.pass = true;
  pass1.successes = 1;
  pass2.successes = 2;
  EXPECT_EQ(Contest(fail, fail, 2).winner, 0);
  EXPECT_EQ(Contest(pass1, fail, 2).winner, 1);
  EXPECT_TRUE(Contest(pass1, fail, 2).critical);
  EXPECT_EQ(Contest(fail, pass1, 2).winner, 2);
  EXPECT_EQ(Contest(pass2, pass1, 2).winner, 1);
  EXPECT_FALSE(Contest(pass2, pass1, 2).critical);
  EXPECT_EQ(Contest(pass1, pass1, 2).winner, 2);  // ties to the second
}

// Every die of a pool is rolled, in terms of at most 100 dice (the dice
// notation's limit), their successes added up (was: a pool above 100 dice
// rolled 100 while its numbers said more). More than 800 is refused.
TEST(TestMechanics, APoolAboveAHundredDiceRollsEveryDie) {
  auto big = [](int64_t style) {
    return Roster({Who("a", "x", 5, 5, {{"health", 5}, {"speed", 5}, {"fighting_style", style}, {"initiative", 9}},
                       {W("sword", "1d8", "melee", "medium")}),
                   Who("d", "y", 6, 5, {{"health", 50}, {"speed", 5}, {"dodge", 1}})});
  };
  Table t(OpposedTests(), big(150), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  ASSERT_EQ(t.state().active, "a");
  std::vector<int> dice(150, 1);
  dice[0] = dice[120] = dice[149] = 5;  // three Successes, one past the 100th die and one the last
  dice.push_back(5);                    // d's Dodge die: one Success, no critical
  dice.push_back(3);                    // the sword's 1d8
  auto ev = Exchange(t, "sword", "dodge", dice);
  EXPECT_EQ(Number(ev, "attack.dice").value, 150);
  EXPECT_EQ(Number(ev, "attack.successes").value, 3);
  EXPECT_LT(t.state().Find("d")->Resource("health"), 50);  // a hit: a wins 3 to 1

  Table huge(OpposedTests(), big(801), {6, 1});
  ASSERT_TRUE(huge.status().ok()) << huge.status();
  auto s = Cmd("a", "strike", {"d"});
  s.weapon = "sword";
  ASSERT_TRUE(huge.Submit(s).ok());
  auto answer = Cmd("d", "defend");
  answer.window = huge.state().windows.begin()->first;
  WithText(answer, "defense", "dodge");
  const absl::Status st = huge.Submit(answer).status();
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(st.message()).find("a pool of 801 dice"), std::string::npos) << st;
}

}  // namespace
}  // namespace combat::kernel::opposed::testutil
