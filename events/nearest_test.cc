#include "events/nearest.h"

#include "gtest/gtest.h"

namespace combat::events {
namespace {

TEST(NearestTest, EditDistance) {
  EXPECT_EQ(EditDistance("", ""), 0u);
  EXPECT_EQ(EditDistance("stat", "state"), 1u);
  EXPECT_EQ(EditDistance("amush", "ambush"), 1u);
  EXPECT_EQ(EditDistance("kitten", "sitting"), 3u);
}

TEST(NearestTest, NearestFirstThenByName) {
  EXPECT_EQ(NearestFirst("amush", {"aaaaaaaa", "ambush", "duel"}),
            (std::vector<std::string>{"ambush", "duel", "aaaaaaaa"}));
  EXPECT_EQ(NearestFirst("ab", {"ac", "aa"}),
            (std::vector<std::string>{"aa", "ac"}));
}

TEST(NearestTest, ClosestOnlyWhenATypo) {
  EXPECT_EQ(ClosestName("stat", {"step", "stats", "state"}), "state");
  EXPECT_EQ(ClosestName("sesions", {"sessions", "state"}), "sessions");
  EXPECT_EQ(ClosestName("xyzzy", {"state", "log"}), "");
  EXPECT_EQ(ClosestName("ALT", {"main", "alt"}), "alt");
  EXPECT_EQ(ClosestName("x", {}), "");
}

TEST(NearestTest, NoSuchNameListsNearestFirst) {
  EXPECT_EQ(NoSuchName("session", "sessions", "amush", {"duel", "ambush"}),
            "no session 'amush'; did you mean 'ambush'? sessions: ambush, duel");
  EXPECT_EQ(NoSuchName("branch", "branches", "qqqqqqq", {"main"}),
            "no branch 'qqqqqqq'; branches: main");
  EXPECT_EQ(NoSuchName("session", "sessions", "a", {}), "no session 'a'; sessions: none");
}

}  // namespace
}  // namespace combat::events
