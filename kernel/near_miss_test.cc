#include "kernel/near_miss.h"

#include "gtest/gtest.h"

namespace combat::kernel {
namespace {

TEST(NearMiss, FindsTheNearestWithinAThirdOfTheWord) {
  const std::vector<std::string> verbs = {"attack", "end_turn", "move", "state"};
  EXPECT_EQ(NearMiss("atack", verbs), "attack");     // a deletion
  EXPECT_EQ(NearMiss("attakc", verbs), "attack");    // a transposition
  EXPECT_EQ(NearMiss("ATTACK!", verbs), "attack");   // case, one insertion
  EXPECT_EQ(NearMiss("end-turn", verbs), "end_turn");
  EXPECT_EQ(NearMiss("stat", verbs), "state");
  // Too far: "mv" is 2 edits from "move" (limit max(1, 2/3) = 1).
  EXPECT_EQ(NearMiss("mv", verbs), "");
  EXPECT_EQ(NearMiss("fireball", verbs), "");
  EXPECT_EQ(NearMiss("attack", verbs), "");  // itself is not a near miss
}

TEST(NearMiss, TiesGoToTheEarlierCandidate) {
  EXPECT_EQ(NearMiss("bat", {"cat", "hat"}), "cat");
  EXPECT_EQ(NearMiss("bat", {"hat", "cat"}), "hat");
}

TEST(NearMiss, DidYouMeanAndNameList) {
  EXPECT_EQ(DidYouMean("aira", {"aria", "bo"}), "; did you mean 'aria'?");
  EXPECT_EQ(DidYouMean("zed", {"aria", "bo"}), "");
  EXPECT_EQ(NameList({"aria", "bo", "gob"}), "aria, bo, gob");
}

}  // namespace
}  // namespace combat::kernel
