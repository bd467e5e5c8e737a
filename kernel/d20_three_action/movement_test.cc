// Movement (seed 000 L35, L69, L73, L93, L144, L148, L156, L160).
#include "gtest/gtest.h"
#include "kernel/d20_three_action/internal.h"
#include "kernel/d20_three_action/test_util.h"

namespace combat::kernel::d20 {
namespace {

using namespace testing;  // NOLINT

Pos At(const Table& t, const std::string& who) {
  return t.state().Find(who)->at;
}

TEST(Move, UpToSpeedAlongAdjacentSquares) {
  Table t(D20ThreeAction(),
          MakeRoster(
              {Being("aria", "party", 0, 0), Being("gob", "goblins", 10, 10)}),
          {15, 10});
  auto out = t.Submit(
      MoveTo("aria", {{1, 0}, {2, 0}, {3, 1}, {4, 2}, {5, 3}, {6, 4}, {7, 5}}));
  EXPECT_EQ(out.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(out.status().message().find("costs 35 ft"), std::string::npos);
  auto ev = t.Submit(
      MoveTo("aria", {{1, 0}, {2, 0}, {3, 1}, {4, 2}, {5, 3}, {6, 4}}));
  ASSERT_OK(ev);
  EXPECT_EQ(At(t, "aria"), (Pos{6, 4}));
  EXPECT_EQ(NumOf(*ev, "000.move", "spent_ft"), 30);
  EXPECT_EQ(Res(t, "aria", kActions), 2);
}

// A path too long is refused naming what makes it too long: the Speed
// (l.35 "Move up to your Speed") when the plain steps exceed it, the
// doubling (l.69 "counts as moving twice as far") when only that does
// (black-box pass 3: every refusal named l.69).
TEST(Move, ATooLongPathNamesTheRuleThatMakesItTooLong) {
  fb::RosterT r = MakeRoster(
      {Being("aria", "party", 0, 0), Being("gob", "goblins", 10, 10)});
  Terrain(r, 1, 0, "difficult");
  Table t(D20ThreeAction(), r, {15, 10});
  auto open = t.Submit(
      MoveTo("aria", {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 5}, {0, 6}, {0, 7}}));
  EXPECT_EQ(open.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(open.status().message().find("costs 35 ft"), std::string::npos);
  EXPECT_NE(open.status().message().find("Move, l.35)"), std::string::npos)
      << open.status();
  // 30 ft of steps, 35 ft with the difficult square (1,0) moved out of.
  auto rough = t.Submit(
      MoveTo("aria", {{1, 0}, {2, 0}, {3, 0}, {4, 0}, {5, 0}, {6, 0}}));
  EXPECT_EQ(rough.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(rough.status().message().find("costs 35 ft"), std::string::npos);
  EXPECT_NE(rough.status().message().find("Difficult Terrain, l.69)"),
            std::string::npos)
      << rough.status();
}

TEST(Move, DifficultTerrainCountsTheSquareMovedOutOf) {
  fb::RosterT r = MakeRoster(
      {Being("aria", "party", 0, 0), Being("gob", "goblins", 10, 10)});
  Terrain(r, 1, 0, "difficult");
  Table t(D20ThreeAction(), r, {15, 10});
  auto ev = t.Submit(MoveTo("aria", {{1, 0}, {2, 0}}));  // 5 in, 10 out (L69)
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "000.move", "spent_ft"), 15);
  ev = t.Submit(MoveTo("aria", {{1, 0}}));  // entering only: 5
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "000.move", "spent_ft"), 5);
}

TEST(Move, BadPathsAreMalformedAndWallsAreIllegal) {
  fb::RosterT r = MakeRoster(
      {Being("aria", "party", 0, 0), Being("gob", "goblins", 10, 10)});
  Terrain(r, 1, 0, "wall");
  Table t(D20ThreeAction(), r, {15, 10});
  auto out = t.Submit(MoveTo("aria", {{2, 2}}));
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(out.status().message().find("path[0]"), std::string::npos);
  // Moving into a wall is an illegal act, not a malformed command
  // (kernel/space.h CheckPath, the same in every ruleset).
  out = t.Submit(MoveTo("aria", {{1, 0}}));
  EXPECT_EQ(out.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(out.status().message().find("path[0] (1,0) is a wall"),
            std::string::npos);
  out = t.Submit(Cmd("aria", "move"));
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(Move, AlliesAreFreeAndOccupiedSquaresCannotEndAMove) {
  Table t(D20ThreeAction(),
          MakeRoster({Being("aria", "party", 0, 0), Being("bo", "party", 1, 0),
                      Being("gob", "goblins", 10, 10)}),
          {15, 12, 10});
  auto ev = t.Submit(MoveTo("aria", {{1, 0}, {2, 0}}));
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "000.move", "spent_ft"), 10);  // L35: no penalty
  auto out = t.Submit(MoveTo("aria", {{1, 0}}));
  EXPECT_EQ(out.status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(Move, SquaresOfMuchLargerCreaturesAreDifficult) {
  fb::CombatantSpecT ogre = Being("ogre", "goblins", 1, 0);
  ogre.stats.push_back(std::make_unique<fb::NumberT>());
  ogre.stats.back()->key = "size_rank";
  ogre.stats.back()->value = 3;
  Table t(D20ThreeAction(),
          MakeRoster({Being("aria", "party", 0, 0), std::move(ogre)}),
          {15, 10});
  auto ev = t.Submit(MoveTo("aria", {{1, 0}, {2, 0}}));  // L93
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "000.move", "spent_ft"), 15);
}

// seed 000 l.35 "on a Critical Success you can Move through their square at
// no Penalty" and "you decide where you are moving as you Move", by hand:
// aria (d20 18 + 1 + 3 = 22) vs gob (2 + 1 + 3 = 6): 22 >= 6 + 10,
// critical. A path is priced before the roll as if the Push only succeeds
// (README "Moving"), so 6 squares through gob (35 ft) are refused with
// Speed 30; 2 squares to (2, 0) cost 5 + 5 = 10 ft on the critical, and the
// 20 ft left (`continue`) take her on 4 squares to (6, 0): 30 ft in all.
TEST(Move, ACriticalPushThroughCostsNothingExtra) {
  Table t(
      D20ThreeAction(),
      MakeRoster({Being("aria", "party", 0, 0), Being("gob", "goblins", 1, 0)}),
      {15, 10});
  auto far = t.Submit(
      MoveTo("aria", {{1, 0}, {2, 0}, {3, 0}, {4, 0}, {5, 0}, {6, 0}}));
  EXPECT_EQ(far.status().code(), absl::StatusCode::kFailedPrecondition);
  auto ev = t.Submit(MoveTo("aria", {{1, 0}, {2, 0}}), {18, 2});
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "000.move", "spent_ft"), 10);
  fb::CommandT on = MoveTo("aria", {{3, 0}, {4, 0}, {5, 0}, {6, 0}});
  With(on, "continue", 1);
  ASSERT_OK(t.Submit(on));
  EXPECT_EQ(At(t, "aria"), (Pos{6, 0}));
  EXPECT_EQ(At(t, "gob"), (Pos{1, 0}));
  EXPECT_EQ(Res(t, "aria", kActions), 2);
}

TEST(Move, ThroughAnEnemyTakesAPushAttempt) {
  Table t(
      D20ThreeAction(),
      MakeRoster({Being("aria", "party", 0, 0), Being("gob", "goblins", 1, 0)}),
      {15, 10});
  // Success (16 vs 9): their square is Difficult Terrain (L35).
  auto ev = t.Submit(MoveTo("aria", {{1, 0}, {2, 0}}), {12, 5});
  ASSERT_OK(ev);
  EXPECT_EQ(At(t, "aria"), (Pos{2, 0}));
  EXPECT_EQ(NumOf(*ev, "000.move", "spent_ft"), 15);
  EXPECT_EQ(NumOf(*ev, "000.move.push_through", "success"), 1);
  // Failure: the movement ends before their square.
  ev = t.Submit(MoveTo("aria", {{1, 0}, {0, 0}}), {3, 15});
  ASSERT_OK(ev);
  EXPECT_EQ(At(t, "aria"), (Pos{2, 0}));
  EXPECT_EQ(Res(t, "aria", kActions), 1);
}

// 000 l.115: a Hidden creature's location is discovered by "walking into
// them": the mover's Push attempt (l.35) is then against a creature it has
// found (a straight roll, no Concealment).
TEST(Move, WalkingIntoAHiddenCreatureFindsIt) {
  fb::RosterT r =
      MakeRoster({Being("aria", "party", 0, 0), Being("gob", "goblins", 2, 0)});
  Tag(*r.combatants[1], "hidden");
  Table t(D20ThreeAction(), r, {15, 10});
  ASSERT_TRUE(Has(t, "gob", kHidden));
  auto ev = t.Submit(MoveTo("aria", {{1, 0}, {2, 0}, {3, 0}}), {12, 5});
  ASSERT_OK(ev);
  EXPECT_FALSE(Has(t, "gob", kHidden));
  EXPECT_EQ(NumOf(*ev, "000.move.push_through", "attacker.total"), 16);
  EXPECT_EQ(NumOf(*ev, "000.move.push_through", "edge"), 0);
  EXPECT_EQ(At(t, "aria"), (Pos{3, 0}));
}

// 000 l.35 (seed 000_ab2f36f2929fdde3.txt): moving through an Enemy's
// square is "a Push attempt against them"; l.47: Maneuvers "count as
// Attacks"; l.115: a Hidden creature's "location is discovered by another
// Creature (... being attacked by them ...)": a Hidden mover that pushes
// through is found by the creature it pushed (was: still Hidden from it
// until its turn ended).
TEST(Move, AHiddenMoversPushAttemptGivesItsLocationAway) {
  fb::RosterT r =
      MakeRoster({Being("aria", "party", 0, 0), Being("gob", "goblins", 1, 0)});
  Tag(*r.combatants[0], "hidden");  // aria is Hidden from gob
  Table t(D20ThreeAction(), r, {15, 10});
  ASSERT_TRUE(Has(t, "aria", kHidden));
  // aria, Hidden (gob Flat Footed, l.115): 2d20kh1 = 12 + 4 = 16; gob,
  // aria Concealed from it: 2d20kl1 = 5 + 4 = 9. A success.
  auto ev = t.Submit(MoveTo("aria", {{1, 0}, {2, 0}}), {12, 3, 5, 15});
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "000.move.push_through", "attacker.total"), 16);
  EXPECT_EQ(NumOf(*ev, "000.move.push_through", "defender.total"), 9);
  EXPECT_EQ(NumOf(*ev, "000.move.push_through", "success"), 1);
  EXPECT_EQ(At(t, "aria"), (Pos{2, 0}));
  EXPECT_FALSE(Has(t, "aria", kHidden));  // found by gob, mid-turn
}

// 000 l.160: "A Prone Creature can stand as an Action or Crawl 5ft": a
// Prone flyer does not take off from the ground without standing first.
TEST(Move, AProneFlyerStandsBeforeFlying) {
  fb::RosterT r =
      MakeRoster({Being("hawk", "party", 0, 0), Being("gob", "goblins", 10, 10)});
  Tag(*r.combatants[0], "flight");
  Table t(D20ThreeAction(), r, {15, 10});
  ASSERT_OK(t.Submit(Cmd("hawk", "drop_prone")));
  fb::CommandT fly = MoveTo("hawk", {{1, 0}, {2, 0}, {3, 0}, {4, 0}, {5, 0},
                                     {6, 0}});
  With(fly, "fly", 1);
  auto out = t.Submit(fly);
  EXPECT_EQ(out.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(out.status().message().find("l.160"), std::string::npos) << out.status();
  ASSERT_OK(t.Submit(Cmd("hawk", "stand")));
  ASSERT_OK(t.Submit(fly));
  EXPECT_EQ(At(t, "hawk"), (Pos{6, 0}));
}

TEST(Move, ProneCreaturesStandOrCrawl) {
  Table t(D20ThreeAction(),
          MakeRoster(
              {Being("aria", "party", 0, 0), Being("gob", "goblins", 10, 10)}),
          {15, 10});
  ASSERT_OK(t.Submit(Cmd("aria", "drop_prone")));  // free (L21)
  EXPECT_EQ(Res(t, "aria", kActions), 3);
  auto out = t.Submit(MoveTo("aria", {{1, 0}}));
  EXPECT_EQ(out.status().code(), absl::StatusCode::kFailedPrecondition);
  fb::CommandT crawl = Cmd("aria", "crawl");
  crawl.path.emplace_back(1, 0);
  ASSERT_OK(t.Submit(crawl));  // L73
  EXPECT_EQ(At(t, "aria"), (Pos{1, 0}));
  crawl.path.emplace_back(2, 0);
  EXPECT_EQ(t.Submit(crawl).status().code(),
            absl::StatusCode::kInvalidArgument);
  ASSERT_OK(t.Submit(Cmd("aria", "stand")));  // L160
  EXPECT_FALSE(Has(t, "aria", kProne));
  EXPECT_EQ(Res(t, "aria", kActions), 1);
}

// 000 l.73 (seed 000_ab2f36f2929fdde3.txt): "Crawling - While Prone you
// can Move 5ft"; l.69: "all movement through it counts as moving twice as
// far ... Whether you are moving in Difficult Terrain is Determined by the
// square you are moving out of". A crawl out of rubble counts 10 ft, more
// than a crawl's 5 ft: refused (was: one square whatever the terrain); a
// crawl into rubble is out of plain ground, 5 ft.
TEST(Move, ACrawlOutOfDifficultTerrainIsRefused) {
  fb::RosterT r = MakeRoster(
      {Being("aria", "party", 0, 0), Being("gob", "goblins", 10, 10)});
  Terrain(r, 0, 0, "rubble");
  Terrain(r, 2, 0, "rubble");
  Table t(D20ThreeAction(), r, {15, 10});
  ASSERT_OK(t.Submit(Cmd("aria", "drop_prone")));
  fb::CommandT crawl = Cmd("aria", "crawl");
  crawl.path.emplace_back(1, 0);
  auto out = t.Submit(crawl);
  EXPECT_EQ(out.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(out.status().message().find("10 ft"), std::string::npos)
      << out.status();
  EXPECT_EQ(At(t, "aria"), (Pos{0, 0}));
  EXPECT_EQ(Res(t, "aria", kActions), 3);
  ASSERT_OK(t.Submit(Cmd("aria", "stand")));
  ASSERT_OK(t.Submit(MoveTo("aria", {{1, 0}})));  // 10 ft out of the rubble
  ASSERT_OK(t.Submit(Cmd("aria", "drop_prone")));
  crawl.path[0] = fb::Pos(2, 0);
  ASSERT_OK(t.Submit(crawl));  // into the rubble: out of plain ground
  EXPECT_EQ(At(t, "aria"), (Pos{2, 0}));
  EXPECT_EQ(Res(t, "aria", kActions), 0);
}

TEST(Move, EntangledCreaturesCannotMove) {
  Table t(D20ThreeAction(),
          MakeRoster(
              {Being("aria", "party", 0, 0), Being("gob", "goblins", 10, 10)}),
          {15, 10});
  GmAdd(t, "aria", "entangled");
  auto out = t.Submit(MoveTo("aria", {{1, 0}}));
  EXPECT_EQ(out.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(out.status().message().find("l.144"), std::string::npos);
}

TEST(Move, WaterPutsOutFire) {
  fb::RosterT r = MakeRoster(
      {Being("aria", "party", 0, 0), Being("gob", "goblins", 10, 10)});
  Terrain(r, 1, 0, "water");
  Table t(D20ThreeAction(), r, {15, 10});
  GmAdd(t, "aria", "on_fire");
  ASSERT_OK(t.Submit(MoveTo("aria", {{1, 0}})));
  EXPECT_FALSE(Has(t, "aria", kOnFire));  // L156
  GmAdd(t, "aria", "on_fire");
  ASSERT_OK(t.Submit(Cmd("aria", "extinguish")));  // an Action: prone, out
  EXPECT_FALSE(Has(t, "aria", kOnFire));
  EXPECT_TRUE(Has(t, "aria", kProne));
}

// 000 l.156: "A Creature may put out the fire ... by entering a body of
// water" -- however it enters it: crawling in (Prone, l.73) or pushed in
// (l.51). Only a walk or a flight put the fire out before.
TEST(Move, CrawlingOrPushedIntoWaterPutsOutFire) {
  fb::RosterT r = MakeRoster(
      {Being("aria", "party", 0, 0), Being("gob", "goblins", 0, 1)});
  Terrain(r, 1, 0, "water");
  Terrain(r, 0, 2, "water");
  Table t(D20ThreeAction(), r, {15, 10});
  for (const char* who : {"aria", "gob"}) {
    GmAdd(t, who, "on_fire");
  }
  ASSERT_OK(t.Submit(Cmd("aria", "drop_prone")));
  fb::CommandT crawl = Cmd("aria", "crawl");
  kernel::testing::WithPath(crawl, {{1, 0}});
  ASSERT_OK(t.Submit(crawl));
  EXPECT_FALSE(Has(t, "aria", kOnFire));  // crawled into the water
  ASSERT_OK(t.Submit(Cmd("aria", "stand")));
  // aria at (1,0) pushes gob (0,1) 5 ft down, into (0,2)'s water: 8 + 4 =
  // 12 vs 5 + 4 = 9, a success, not a critical.
  fb::CommandT push = Cmd("aria", "push", {"gob"});
  With(push, "dx", 0);  // straight down (directly away is off the map)
  With(push, "dy", 1);
  ASSERT_OK(t.Submit(push, {8, 5}));
  EXPECT_EQ(t.state().Find("gob")->at, (Pos{0, 2}));
  EXPECT_FALSE(Has(t, "gob", kOnFire));  // pushed into the water
}

// 000 l.156 "A Creature may put out the fire ... by entering a body of
// water" with l.59 "If both are the same Size they share the space of the
// Grappled Creature": aria, On fire at (0,0), grapples gob standing in the
// water at (1,0) (8 + 4 = 12 vs 5 + 4 = 9) and moves into its square: she
// entered the water. And "share the space of the larger Creature": a
// burning gob pulled by the ogre (size 2) into the ogre's water square is
// put out too (was: both kept burning; only walks, crawls, pushes and a
// partner's move put a fire out).
TEST(Move, AGrappleThatEntersTheWaterPutsOutFire) {
  fb::RosterT r = MakeRoster(
      {Being("aria", "party", 0, 0), Being("gob", "goblins", 1, 0)});
  Terrain(r, 1, 0, "water");
  Table t(D20ThreeAction(), r, {15, 10});
  GmAdd(t, "aria", "on_fire");
  ASSERT_OK(t.Submit(Cmd("aria", "grapple", {"gob"}), {8, 5}));
  ASSERT_TRUE(Has(t, "aria", kGrappling));
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{1, 0}));
  EXPECT_FALSE(Has(t, "aria", kOnFire));
  fb::CombatantSpecT ogre = Large(Being("ogre", "party", 5, 3));
  fb::RosterT r2 =
      MakeRoster({std::move(ogre), Being("gob", "goblins", 7, 3)});
  Terrain(r2, 5, 3, "water");
  Table u(D20ThreeAction(), r2, {15, 10});
  GmAdd(u, "gob", "on_fire");
  ASSERT_OK(u.Submit(Cmd("ogre", "grapple", {"gob"}), {8, 5}));
  ASSERT_TRUE(Has(u, "gob", kGrappled));
  EXPECT_EQ(u.state().Find("gob")->at, (Pos{5, 3}));
  EXPECT_FALSE(Has(u, "gob", kOnFire));
}

// 000 l.156: "put out the fire ... by entering a body of water"; l.83
// "Move up to twice your Speed through the air": flying over water squares
// is not entering the water (the fire went out before).
TEST(Move, FlyingOverWaterDoesNotPutOutFire) {
  fb::RosterT r = MakeRoster(
      {Being("aria", "party", 0, 0), Being("gob", "goblins", 19, 19)});
  Tag(*r.combatants[0], "flight");
  Terrain(r, 1, 0, "water");
  Terrain(r, 2, 0, "water");
  Table t(D20ThreeAction(), r, {15, 10});
  GmAdd(t, "aria", "on_fire");
  std::vector<std::pair<int, int>> path;
  for (int x = 1; x <= 6; ++x) path.push_back({x, 0});
  fb::CommandT c = MoveTo("aria", path);
  With(c, "fly", 1);
  ASSERT_OK(t.Submit(c));
  EXPECT_TRUE(Has(t, "aria", kFlying));
  EXPECT_TRUE(Has(t, "aria", kOnFire));  // flew over, never entered it
}

TEST(Move, SqueezingCostsDoubleAndLeavesYouFlatFooted) {
  Table t(D20ThreeAction(),
          MakeRoster(
              {Being("aria", "party", 0, 0), Being("gob", "goblins", 10, 10)}),
          {15, 10});
  fb::CommandT c = MoveTo("aria", {{1, 0}, {2, 0}});
  With(c, "squeeze", 1);
  auto ev = t.Submit(c);
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "000.move", "spent_ft"), 20);  // L166: difficult
  EXPECT_TRUE(Has(t, "aria", kSqueezing));
  EXPECT_TRUE(FlatFootedAgainst(t.state(), *t.state().Find("aria"),
                                *t.state().Find("gob"), nullptr));
  ASSERT_OK(t.Submit(MoveTo("aria", {{3, 0}})));
  EXPECT_FALSE(Has(t, "aria", kSqueezing));
}

TEST(Move, FlightDoublesSpeed) {
  fb::RosterT r = MakeRoster(
      {Being("aria", "party", 0, 0), Being("gob", "goblins", 19, 19)});
  Tag(*r.combatants[0], "flight");
  Table t(D20ThreeAction(), r, {15, 10});
  std::vector<std::pair<int, int>> path;
  for (int x = 1; x <= 12; ++x) path.push_back({x, 0});
  fb::CommandT c = MoveTo("aria", path);
  EXPECT_FALSE(t.Submit(c).ok());
  With(c, "fly", 1);
  ASSERT_OK(t.Submit(c));  // L83: twice the Speed
  EXPECT_TRUE(Has(t, "aria", kFlying));
  fb::CommandT hop = MoveTo("aria", {{13, 0}});
  With(hop, "fly", 1);
  auto out = t.Submit(hop);  // L83: at least the Speed
  EXPECT_NE(out.status().message().find("at least its Speed"),
            std::string::npos);
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));  // did not fly: falls
  EXPECT_FALSE(Has(t, "aria", kFlying));
  EXPECT_TRUE(Has(t, "aria", kFallPending));
}

// L83: "Turning 45 degrees requires an additional 5ft of movement ...
// With Improved Flight you do not have to spend additional movement to
// Turn".
// 000 l.83 "Turning 45 degrees requires an additional 5ft of movement" with
// l.35 "you decide where you are moving as you Move ... use the second half
// to continue": a Move continued (`continue`) is the same Move, so its
// heading goes on. aria (Speed 30, flying 60 ft) flies 30 ft east, then
// continues south: the 90-degree turn costs 10 ft. 5 squares south: 25 +
// 10 = 35 ft > the 30 ft left, refused; 2 squares: 10 + 10 = 20 ft, 10 ft
// left (was: the turn free, 25 ft accepted, 20 ft left after 2 squares).
TEST(Move, AContinuedFlightPaysForItsTurn) {
  fb::RosterT r = MakeRoster(
      {Being("aria", "party", 0, 0), Being("gob", "goblins", 19, 19)});
  Tag(*r.combatants[0], "flight");
  Table t(D20ThreeAction(), r, {15, 10});
  fb::CommandT east = MoveTo("aria", {{1, 0}, {2, 0}, {3, 0}, {4, 0}, {5, 0}, {6, 0}});
  With(east, "fly", 1);
  ASSERT_OK(t.Submit(east));
  EXPECT_EQ(t.state().Find("aria")->FindCondition(kMoving)->level, 30);
  fb::CommandT far = MoveTo("aria", {{6, 1}, {6, 2}, {6, 3}, {6, 4}, {6, 5}});
  With(far, "fly", 1);
  With(far, "continue", 1);
  auto refused = t.Submit(far);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(refused.status().message().find("costs 35 ft"), std::string::npos)
      << refused.status();
  fb::CommandT south = MoveTo("aria", {{6, 1}, {6, 2}});
  With(south, "fly", 1);
  With(south, "continue", 1);
  auto ev = t.Submit(south);
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "000.fly", "turn_ft"), 10);
  EXPECT_EQ(t.state().Find("aria")->FindCondition(kMoving)->level, 10);
  EXPECT_EQ(Res(t, "aria", kActions), 2);  // one Move
}

// 000 l.83 "Turning 45 degrees requires an additional 5ft of movement" with
// l.61 and l.19 ("When a Reaction is triggered by an event it interrupts
// the event"): a Move a readied action's window splits is still one Move;
// its rest turns from the last step made before the window. gob (flight,
// Speed 30, so 60 ft flying) at (10,10); aria readies an attack for when
// gob enters a square, and passes when the window opens.
// (a) a new flight east 6 squares then 1 south, the window at (16,10):
//     30 ft, then the rest: 90-degree turn 10 ft + 5 ft = 45 ft, 15 left
//     (was: the rest turned free, 35 ft, 25 left: a GM ruling point).
// (b) a flight of 6 east (30 ft, 30 left), then `continue`: 1 south, 1
//     east, the window at (16,11): east->south 10 + 5 = 15 ft, then the
//     rest south->east 10 + 5 = 15 ft: 30 ft, 0 left (was: the first part
//     turned free, 5 ft, and the rest turned from the first command's
//     heading east, 5 ft: 10 ft, 20 left).
TEST(Move, AFlightSplitByAReadiedWindowKeepsItsHeading) {
  auto play = [](bool cont, std::vector<std::pair<int, int>> first,
                 std::vector<std::pair<int, int>> second, int x, int y,
                 bool improved = false) {
    fb::CombatantSpecT aria = Being("aria", "party", 0, 0);
    Arm(aria, "spear", "1d8", "melee");
    fb::RosterT r = MakeRoster({std::move(aria), Being("gob", "goblins", 10, 10)});
    Tag(*r.combatants[1], "flight");
    if (improved) Tag(*r.combatants[1], "improved_flight");
    Table t(D20ThreeAction(), r, {15, 10});
    fb::CommandT ready = Ready("aria", "attack", "enters_square", "gob");
    With(ready, "x", x);
    With(ready, "y", y);
    EXPECT_TRUE(t.Submit(ready).ok());
    EXPECT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
    if (!first.empty()) {
      fb::CommandT m = MoveTo("gob", first);
      With(m, "fly", 1);
      EXPECT_TRUE(t.Submit(m).ok());
    }
    fb::CommandT m = MoveTo("gob", second);
    With(m, "fly", 1);
    if (cont) With(m, "continue", 1);
    EXPECT_TRUE(t.Submit(m).ok());
    EXPECT_EQ(t.state().windows.size(), 1u);
    if (t.state().windows.empty()) return int64_t{-1};
    fb::CommandT pass = Cmd("aria", "pass");
    pass.window = t.state().windows.begin()->first;
    EXPECT_TRUE(t.Submit(pass).ok());
    EXPECT_EQ(Res(t, "gob", kSplitHeading), 0);  // spent on the resume
    return t.state().Find("gob")->FindCondition(kMoving)->level;
  };
  EXPECT_EQ(play(false, {},
                 {{11, 10}, {12, 10}, {13, 10}, {14, 10}, {15, 10}, {16, 10},
                  {16, 11}},
                 16, 10),
            15);
  EXPECT_EQ(play(true,
                 {{11, 10}, {12, 10}, {13, 10}, {14, 10}, {15, 10}, {16, 10}},
                 {{16, 11}, {17, 11}}, 16, 11),
            0);
  // (c) as (a) with Improved Flight (l.83 "you do not have to spend
  // additional movement to Turn"): 35 ft, 25 left, split or not.
  EXPECT_EQ(play(false, {},
                 {{11, 10}, {12, 10}, {13, 10}, {14, 10}, {15, 10}, {16, 10},
                  {16, 11}},
                 16, 10, true),
            25);
}

TEST(Move, FlightTurnsCostFiveFeetPer45Degrees) {
  for (bool improved : {false, true}) {
    fb::RosterT r = MakeRoster(
        {Being("aria", "party", 0, 0), Being("gob", "goblins", 19, 19)});
    Tag(*r.combatants[0], "flight");
    if (improved) Tag(*r.combatants[0], "improved_flight");
    Table t(D20ThreeAction(), r, {15, 10});
    // 6 east then 5 south: 55 ft + one 90-degree turn (2 x 45) = 65 ft.
    std::vector<std::pair<int, int>> path;
    for (int x = 1; x <= 6; ++x) path.push_back({x, 0});
    for (int y = 1; y <= 5; ++y) path.push_back({6, y});
    fb::CommandT c = MoveTo("aria", path);
    With(c, "fly", 1);
    auto out = t.Submit(c);
    if (!improved) {
      ASSERT_FALSE(out.ok());  // 65 ft > 60 ft (twice the Speed)
      EXPECT_NE(out.status().message().find("costs 65 ft"), std::string::npos)
          << out.status();
      // 6 east, 1 south-east (45), 2 south (45): 45 ft + 10 ft = 55 ft.
      path = {{1, 0}, {2, 0}, {3, 0}, {4, 0}, {5, 0}, {6, 0},
              {7, 1}, {7, 2}, {7, 3}};
      c = MoveTo("aria", path);
      With(c, "fly", 1);
      ASSERT_OK(t.Submit(c));
      EXPECT_EQ(t.state().Find("aria")->FindCondition(kMoving)->level, 5);
    } else {
      ASSERT_OK(out);  // 55 ft, no turning cost
      EXPECT_EQ(t.state().Find("aria")->FindCondition(kMoving)->level, 5);
    }
  }
}

TEST(Move, AMoveCanBeContinuedWithoutAnotherAction) {
  Table t(D20ThreeAction(),
          MakeRoster(
              {Being("aria", "party", 0, 0), Being("gob", "goblins", 10, 10)}),
          {15, 10});
  ASSERT_OK(t.Submit(MoveTo("aria", {{1, 0}, {2, 0}})));
  EXPECT_EQ(t.state().Find("aria")->FindCondition(kMoving)->level, 20);
  fb::CommandT more = MoveTo("aria", {{3, 0}, {4, 0}, {5, 0}, {6, 0}});
  With(more, "continue", 1);
  ASSERT_OK(t.Submit(more));  // L35: decide as you move
  EXPECT_EQ(Res(t, "aria", kActions), 2);
  fb::CommandT again = MoveTo("aria", {{7, 0}});
  With(again, "continue", 1);
  EXPECT_EQ(t.Submit(again).status().code(),
            absl::StatusCode::kFailedPrecondition);
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  EXPECT_FALSE(Has(t, "aria", kMoving));
}

}  // namespace
}  // namespace combat::kernel::d20
