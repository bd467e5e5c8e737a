// Zero-G / Free Fall (seed 000 l.85) on squares of terrain `zero_g`.
#include "gtest/gtest.h"
#include "kernel/d20_three_action/internal.h"
#include "kernel/d20_three_action/test_util.h"

namespace combat::kernel::d20 {
namespace {

using namespace testing;  // NOLINT

// A 20 x 5 hall in free fall (x >= 1), walled at x = 0 and at `walls`.
fb::RosterT Hall(std::vector<fb::CombatantSpecT> cs,
                 std::vector<std::pair<int, int>> walls = {}) {
  fb::RosterT r = MakeRoster(std::move(cs), 20, 5);
  for (int y = 0; y < 5; ++y) {
    Terrain(r, 0, y, "wall");
    for (int x = 1; x < 20; ++x) {
      bool wall = false;
      for (auto [wx, wy] : walls) wall = wall || (wx == x && wy == y);
      Terrain(r, x, y, wall ? "wall" : "zero_g");
    }
  }
  return r;
}

Pos At(const Table& t, const std::string& who) {
  return t.state().Find(who)->at;
}

fb::CommandT PushOff(const std::string& who,
                     std::vector<std::pair<int, int>> path,
                     const std::string& off = "") {
  fb::CommandT c = MoveTo(who, std::move(path));
  if (!off.empty()) WithText(c, "push_off", off);
  return c;
}

// 000 l.85: "If you Push of of a fixed Object such as a wall ... you Move up
// to your Speed in a straight line. You will continue to Move in that
// direction at you Speed at the beginning of your Turn every Round until
// you run into something."
TEST(ZeroG, PushingOffAWallDriftsAtSpeedUntilItRunsIntoSomething) {
  Table t(D20ThreeAction(),
          Hall({Being("aria", "party", 1, 2), Being("gob", "goblins", 15, 4)},
               {{12, 2}}),
          {15, 10});
  auto bent = t.Submit(PushOff("aria", {{2, 2}, {3, 1}}));
  EXPECT_EQ(bent.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(bent.status().message().find("straight line"), std::string::npos);
  auto far = t.Submit(
      PushOff("aria", {{2, 2}, {3, 2}, {4, 2}, {5, 2}, {6, 2}, {7, 2}, {8, 2}}));
  EXPECT_EQ(far.status().code(), absl::StatusCode::kFailedPrecondition);  // 35 > 30
  ASSERT_OK(t.Submit(PushOff("aria", {{2, 2}, {3, 2}, {4, 2}})));
  EXPECT_EQ(At(t, "aria"), (Pos{4, 2}));
  const Condition* drift = t.state().Find("aria")->FindCondition(kDrifting);
  ASSERT_NE(drift, nullptr);
  EXPECT_EQ(drift->level, 30);  // at its Speed
  EXPECT_EQ(drift->note, "1,0");
  // Away from the wall nothing is left to push off.
  auto again = t.Submit(PushOff("aria", {{5, 2}}));
  EXPECT_EQ(again.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(again.status().message().find("touches no fixed object"),
            std::string::npos);
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  EXPECT_EQ(At(t, "aria"), (Pos{10, 2}));  // 30 ft at its turn's start
  ASSERT_TRUE(Has(t, "aria", kDrifting));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  auto ev = t.Submit(Cmd("gob", "end_turn"));
  ASSERT_OK(ev);
  EXPECT_EQ(At(t, "aria"), (Pos{11, 2}));  // the wall at (12, 2)
  EXPECT_FALSE(Has(t, "aria", kDrifting));
  EXPECT_EQ(NumOf(*ev, "000.zero_g", "moved_ft"), 5);
}

// 000_ab2f36f2929fdde3.txt l.85 "You will continue to Move in that
// direction at you Speed at the beginning of your Turn every Round", l.150
// "If you Move the Creature you are Grappling moves with you" (l.59 "a free
// hand": two hands hold two): gob grapples bo (into 1,1) and then orc (into
// 1,0, bo moving with it), and pushes off the wall 15 ft (its Speed 30
// halved, l.150) to 4,0; both held move with it. At its round-2 turn start
// it drifts 15 ft more to 7,0, bo and orc with it.
TEST(ZeroG, AGrapplerOfTwoDriftsWithBoth) {
  Table t(D20ThreeAction(),
          Hall({Being("gob", "goblins", 1, 2), Being("bo", "party", 1, 1),
                Being("orc", "party", 1, 0)}),
          {15, 10, 5});
  ASSERT_EQ(t.state().active, "gob");
  ASSERT_OK(t.Submit(Cmd("gob", "grapple", {"bo"}), {12, 8}));   // 16 vs 12
  ASSERT_OK(t.Submit(Cmd("gob", "grapple", {"orc"}), {12, 8}));  // 16 vs 12
  ASSERT_EQ(At(t, "gob"), (Pos{1, 0}));
  ASSERT_EQ(At(t, "bo"), (Pos{1, 0}));
  auto far = t.Submit(PushOff("gob", {{2, 0}, {3, 0}, {4, 0}, {5, 0}}));
  EXPECT_EQ(far.status().code(), absl::StatusCode::kFailedPrecondition);  // 20 > 15
  ASSERT_OK(t.Submit(PushOff("gob", {{2, 0}, {3, 0}, {4, 0}})));
  EXPECT_EQ(At(t, "bo"), (Pos{4, 0}));
  EXPECT_EQ(At(t, "orc"), (Pos{4, 0}));
  ASSERT_EQ(t.state().Find("gob")->FindCondition(kDrifting)->level, 15);
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("bo", "end_turn")));
  EXPECT_EQ(At(t, "bo"), (Pos{4, 0}));  // no drift of its own
  ASSERT_OK(t.Submit(Cmd("orc", "end_turn")));
  EXPECT_EQ(At(t, "gob"), (Pos{7, 0}));
  EXPECT_EQ(At(t, "bo"), (Pos{7, 0}));
  EXPECT_EQ(At(t, "orc"), (Pos{7, 0}));
  EXPECT_TRUE(Has(t, "bo", kGrappled));
  EXPECT_TRUE(Has(t, "orc", kGrappled));
}

// l.85 is the rule of free fall: a drift carried out of the zero_g squares
// ends there (gravity again).
TEST(ZeroG, ADriftEndsWhereFreeFallEnds) {
  fb::RosterT r = MakeRoster(
      {Being("aria", "party", 1, 2), Being("gob", "goblins", 15, 4)}, 20, 5);
  for (int y = 0; y < 5; ++y) {
    Terrain(r, 0, y, "wall");
    for (int x = 1; x < 10; ++x) Terrain(r, x, y, "zero_g");
  }
  Table t(D20ThreeAction(), r, {15, 10});
  ASSERT_OK(t.Submit(
      PushOff("aria", {{2, 2}, {3, 2}, {4, 2}, {5, 2}, {6, 2}, {7, 2}})));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  EXPECT_EQ(At(t, "aria"), (Pos{10, 2}));  // (10, 2) is ordinary ground
  EXPECT_FALSE(Has(t, "aria", kDrifting));
}

// 000 l.156 "A Creature may put out the fire ... by entering a body of
// water" with l.85 "You will continue to Move in that direction at you
// Speed at the beginning of your Turn": aria, On fire, pushes off to
// (7, 2); at her round-2 turn start the drift carries her out of free fall
// into the water at (10, 2). The drift comes before the fire (README,
// order of start-of-turn effects): the fire is out and does not burn; she
// keeps 20 HP (was: a drift checked no water, she burned 2d6).
TEST(ZeroG, ADriftIntoWaterPutsOutTheFire) {
  fb::RosterT r = MakeRoster(
      {Being("aria", "party", 1, 2), Being("gob", "goblins", 15, 4)}, 20, 5);
  for (int y = 0; y < 5; ++y) {
    Terrain(r, 0, y, "wall");
    for (int x = 1; x < 10; ++x) Terrain(r, x, y, "zero_g");
    Terrain(r, 10, y, "water");
  }
  Table t(D20ThreeAction(), r, {15, 10});
  GmAdd(t, "aria", "on_fire");
  ASSERT_OK(t.Submit(
      PushOff("aria", {{2, 2}, {3, 2}, {4, 2}, {5, 2}, {6, 2}, {7, 2}})));
  ASSERT_TRUE(Has(t, "aria", kOnFire));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));  // no die: no fire roll
  EXPECT_EQ(At(t, "aria"), (Pos{10, 2}));
  EXPECT_FALSE(Has(t, "aria", kOnFire));
  EXPECT_EQ(t.state().Find("aria")->Resource(kHp), 20);
}

// 000 l.85: "If you Push off an unfixed Object within 1 Size of you, you
// Move up to half your Speed in a straight line and the Object you pushed
// off of moves in the opposite direction at the same Speed. You and the
// other Object will continue to Move in the corresponding directions at
// half your Speed at the beginning of your Turn every Round until you run
// into something."
TEST(ZeroG, PushingOffACreatureMovesBothApartAtHalfSpeed) {
  Table t(D20ThreeAction(),
          Hall({Being("aria", "party", 5, 2), Being("bo", "party", 4, 2),
                Being("gob", "goblins", 15, 4)}),
          {15, 10, 5});
  auto far = t.Submit(PushOff("aria", {{6, 2}, {7, 2}, {8, 2}, {9, 2}}, "bo"));
  EXPECT_EQ(far.status().code(), absl::StatusCode::kFailedPrecondition);  // 20 > 15
  ASSERT_OK(t.Submit(PushOff("aria", {{6, 2}, {7, 2}, {8, 2}}, "bo")));
  EXPECT_EQ(At(t, "aria"), (Pos{8, 2}));
  EXPECT_EQ(At(t, "bo"), (Pos{1, 2}));  // 15 ft the other way
  const Condition* mine = t.state().Find("aria")->FindCondition(kDrifting);
  const Condition* theirs = t.state().Find("bo")->FindCondition(kDrifting);
  ASSERT_NE(mine, nullptr);
  ASSERT_NE(theirs, nullptr);
  EXPECT_EQ(mine->level, 15);
  EXPECT_EQ(theirs->level, 15);
  EXPECT_EQ(theirs->note, "-1,0");
  EXPECT_EQ(theirs->source, "aria");  // moves at the start of aria's turn
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("bo", "end_turn")));
  EXPECT_EQ(At(t, "bo"), (Pos{1, 2}));  // not at its own turn
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  EXPECT_EQ(At(t, "aria"), (Pos{11, 2}));
  EXPECT_EQ(At(t, "bo"), (Pos{1, 2}));  // the wall at x = 0: stops
  EXPECT_FALSE(Has(t, "bo", kDrifting));
  EXPECT_TRUE(Has(t, "aria", kDrifting));
}

// 000 l.85 "you Move up to half your Speed ... the Object you pushed off
// of moves in the opposite direction at the same Speed ... at half your
// Speed at the beginning of your Turn every Round", with an odd Speed, by
// hand: aria's Speed 25, half 12 ft (rounded down, README), that is 2
// squares (10 ft) on the 5 ft grid; 3 squares (15 ft) are too far. Both
// move 10 ft apart; at aria's next turn start aria drifts 2 squares on to
// x = 9 and bo 1 square to x = 1, stopped by the wall at x = 0.
TEST(ZeroG, HalfAnOddSpeedPushOffGoesWholeSquaresOnly) {
  Table t(D20ThreeAction(),
          Hall({Being("aria", "party", 5, 2, {{"speed", 25}}),
                Being("bo", "party", 4, 2), Being("gob", "goblins", 15, 4)}),
          {15, 10, 5});
  auto far = t.Submit(PushOff("aria", {{6, 2}, {7, 2}, {8, 2}}, "bo"));
  EXPECT_EQ(far.status().code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_OK(t.Submit(PushOff("aria", {{6, 2}, {7, 2}}, "bo")));
  EXPECT_EQ(At(t, "aria"), (Pos{7, 2}));
  EXPECT_EQ(At(t, "bo"), (Pos{2, 2}));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("bo", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  EXPECT_EQ(At(t, "aria"), (Pos{9, 2}));
  EXPECT_EQ(At(t, "bo"), (Pos{1, 2}));
  EXPECT_FALSE(Has(t, "bo", kDrifting));
}

// 000 l.85: "You and the other Object will continue to Move ... at half
// your Speed at the beginning of your Turn every Round": the pusher's turn
// starts; a dead pusher has none, so the drift waits on the GM (README
// "Zero-G", GM ruling point; black-box pass 3).
TEST(ZeroG, ADeadPushersDriftingCreatureWaitsOnTheGm) {
  Table t(D20ThreeAction(),
          Hall({Being("aria", "party", 10, 2), Being("bo", "party", 9, 2),
                Being("gob", "goblins", 15, 4)}),
          {15, 10, 5});
  ASSERT_OK(t.Submit(PushOff("aria", {{11, 2}, {12, 2}, {13, 2}}, "bo")));
  EXPECT_EQ(At(t, "bo"), (Pos{6, 2}));  // 15 ft the other way
  GmAdd(t, "aria", "dead");  // ends aria's turn
  EXPECT_EQ(t.state().active, "bo");
  ASSERT_OK(t.Submit(Cmd("bo", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));  // round 2: no aria turn
  EXPECT_EQ(t.state().round, 2);
  EXPECT_EQ(At(t, "bo"), (Pos{6, 2}));
  EXPECT_EQ(At(t, "aria"), (Pos{13, 2}));
  ASSERT_TRUE(Has(t, "bo", kDrifting));  // the GM moves it on or ends it
  fb::CommandT stop = Gm("bo", "gm_condition", "caught a beam");
  WithText(stop, "name", "drifting");
  WithText(stop, "op", "remove");
  ASSERT_OK(t.Submit(stop));
  EXPECT_FALSE(Has(t, "bo", kDrifting));
}

// 000 l.85: "If you make an Attack or are hit while not touching a fixed
// Object you must spend an Action to Stabilize yourself or take
// Disadvantage on all Attack rolls until you touch a fixed Object."
TEST(ZeroG, AttackingOrBeingHitAwayFromAWallUnsteadies) {
  fb::CombatantSpecT a = Being("aria", "party", 5, 2);
  Arm(a, "spear", "1d8", "melee");
  fb::CombatantSpecT b = Being("bo", "party", 1, 0);  // touches the wall
  Arm(b, "bow", "1d6", "ranged", "medium", 5, 30);
  Table t(D20ThreeAction(),
          Hall({std::move(a), std::move(b), Being("gob", "goblins", 6, 2)}),
          {15, 10, 5});
  fb::CommandT hit = Cmd("aria", "attack", {"gob"});
  hit.weapon = "spear";
  ASSERT_OK(t.Submit(hit, {15, 3}));  // 15 + 4 = 19 >= 12: 3 + 3 damage
  EXPECT_EQ(Res(t, "gob", kHp), 14);
  EXPECT_TRUE(Has(t, "aria", kUnsteady));  // made an Attack
  EXPECT_TRUE(Has(t, "gob", kUnsteady));   // was hit
  auto ev = t.Submit(hit, {15, 2});  // Disadvantage: 2 + 4 = 6, a miss
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "000.attack.melee", "dis.zero_g_unsteady"), 1);
  EXPECT_EQ(NumOf(*ev, "000.attack.melee", "total"), 6);
  ASSERT_OK(t.Submit(Cmd("aria", "stabilize")));  // the third Action
  EXPECT_FALSE(Has(t, "aria", kUnsteady));
  EXPECT_EQ(Res(t, "aria", kActions), 0);
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  fb::CommandT shot = Cmd("bo", "attack", {"gob"});
  shot.weapon = "bow";
  ASSERT_OK(t.Submit(shot, {15, 1}));  // bo touches a wall: steady
  EXPECT_FALSE(Has(t, "bo", kUnsteady));
  EXPECT_EQ(t.Submit(Cmd("bo", "stabilize")).status().code(),
            absl::StatusCode::kFailedPrecondition);
}

// 000 l.85: "If you make an Attack or are hit while not touching a fixed
// Object ..."; l.148: the escape is "an opposed Melee Attack roll ... to
// Push them away or Grapple them", which l.47 counts as Attacks. Black-box:
// an escape in the open left both steady.
TEST(ZeroG, AnEscapeInTheOpenIsAnAttackAndItsSuccessAHit) {
  Table t(D20ThreeAction(),
          Hall({Being("aria", "party", 3, 2), Being("gob", "goblins", 4, 2)}),
          {15, 10});
  ASSERT_OK(t.Submit(Cmd("aria", "grapple", {"gob"}), {12, 5}));  // 16 vs 9
  ASSERT_TRUE(Has(t, "gob", kGrappled));
  ASSERT_OK(t.Submit(Cmd("aria", "stabilize")));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("gob", "stabilize")));
  ASSERT_FALSE(Has(t, "aria", kUnsteady));
  ASSERT_FALSE(Has(t, "gob", kUnsteady));
  ASSERT_OK(t.Submit(Cmd("gob", "escape"), {15, 3, 1}));  // 19 vs 7
  EXPECT_FALSE(Has(t, "gob", kGrappled));
  EXPECT_TRUE(Has(t, "gob", kUnsteady));   // made an Attack
  EXPECT_TRUE(Has(t, "aria", kUnsteady));  // was hit
}

// 000 l.85: "take Disadvantage on all Attack rolls until you touch a fixed
// Object". Black-box: a creature pushed against a wall stayed `unsteady`
// (and would be again once it pushed off that wall). Touching ends it,
// however the creature got there.
TEST(ZeroG, PushedAgainstAWallItIsSteadyAgain) {
  fb::CombatantSpecT a = Being("aria", "party", 3, 2);
  Arm(a, "spear", "1d8", "melee");
  Table t(D20ThreeAction(),
          Hall({std::move(a), Being("gob", "goblins", 4, 2)}, {{6, 2}}),
          {15, 10});
  ASSERT_OK(t.Submit(Cmd("aria", "push", {"gob"}), {12, 5}));  // 16 vs 9
  EXPECT_EQ(At(t, "gob"), (Pos{5, 2}));  // next to the wall at (6,2)
  EXPECT_EQ(At(t, "aria"), (Pos{4, 2}));
  EXPECT_TRUE(Has(t, "aria", kUnsteady));  // made an Attack, in the open
  EXPECT_FALSE(Has(t, "gob", kUnsteady));  // was hit, then touched the wall
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  // gob pushes off that wall and attacks from the open: no Disadvantage.
  ASSERT_OK(t.Submit(PushOff("gob", {{5, 3}, {5, 4}})));
  EXPECT_FALSE(Has(t, "gob", kUnsteady));
}

// 000 l.85: "Unless you are able to fly (in which case you can fly
// normally) you are only able to Move by pushing off of things": no walking
// or crawling, and a flyer that does not fly does not fall (no gravity).
TEST(ZeroG, FlyersFlyAndNobodyWalksOrFalls) {
  fb::RosterT r = Hall(
      {Being("hawk", "party", 5, 2), Being("gob", "goblins", 15, 4)});
  Tag(*r.combatants[0], "flight");
  Tag(*r.combatants[0], "flying");
  Table t(D20ThreeAction(), r, {15, 10});
  fb::CommandT fly = MoveTo("hawk", {{6, 2}, {7, 2}, {8, 2}, {9, 2}, {10, 2},
                                     {11, 2}});
  With(fly, "fly", 1);
  ASSERT_OK(t.Submit(fly));
  EXPECT_FALSE(Has(t, "hawk", kDrifting));
  ASSERT_OK(t.Submit(Cmd("hawk", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("gob", "drop_prone")));
  fb::CommandT crawl = Cmd("gob", "crawl");
  crawl.path.emplace_back(14, 4);
  EXPECT_EQ(t.Submit(crawl).status().code(),
            absl::StatusCode::kFailedPrecondition);
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("hawk", "end_turn")));  // did not fly: no fall
  EXPECT_FALSE(Has(t, "hawk", kFallPending));
  EXPECT_TRUE(Has(t, "hawk", kFlying));
}

// 000 l.85 (seed 000_ab2f36f2929fdde3.txt): "Unless you are able to fly
// (in which case you can fly normally) ... If you make an Attack or are hit
// while not touching a fixed Object you must spend an Action to Stabilize
// yourself or take Disadvantage on all Attack rolls"; l.35: moving through
// an Enemy's square is "a Push attempt against them"; l.47: a Push is a
// Maneuver, and Maneuvers "count as Attacks". A flyer's Push attempt in
// zero-G is an Attack, made from the square before the Enemy's (here (2,2),
// away from the wall its move started against); on a success the Enemy is
// hit (was: both left steady, the GM's).
TEST(ZeroG, AFlyersPushAttemptThroughAnEnemyIsAnAttack) {
  for (bool success : {true, false}) {
    fb::RosterT r = Hall(
        {Being("hawk", "party", 1, 2), Being("gob", "goblins", 3, 2)});
    Tag(*r.combatants[0], "flight");
    Tag(*r.combatants[0], "flying");
    Table t(D20ThreeAction(), r, {15, 10});
    fb::CommandT fly = MoveTo("hawk", {{2, 2}, {3, 2}, {4, 2}, {5, 2},
                                       {6, 2}, {7, 2}});
    With(fly, "fly", 1);
    // hawk 12 + 1 + STR 3 = 16 vs gob 5 + 1 + 3 = 9: a success; 3 + 4 = 7
    // vs 15 + 4 = 19: a failure, the move ends at (2, 2).
    auto ev = t.Submit(fly, success ? std::vector<int>{12, 5}
                                    : std::vector<int>{3, 15});
    ASSERT_OK(ev);
    EXPECT_EQ(NumOf(*ev, "000.move.push_through", "success"), success ? 1 : 0);
    EXPECT_EQ(At(t, "hawk"), success ? (Pos{7, 2}) : (Pos{2, 2}));
    EXPECT_TRUE(Has(t, "hawk", kUnsteady)) << success;  // made an Attack
    EXPECT_EQ(Has(t, "gob", kUnsteady), success);       // was hit
    EXPECT_TRUE(Cites(*ev, "000.zero_g"));
  }
}

// 000 l.85 "You will continue to Move in that direction ... until you run
// into something", l.150 "If you Move the Creature you are Grappling moves
// with you", l.59 "Both Creatures share the space of the larger Creature".
// By hand: gob (Medium) pushes off the wall at x = 0 along y = 2 to (4, 2),
// drifting 30 ft east, and grapples the ogre (a 2 x 2 space at (5, 1); 16
// vs 9), drawn into its space, at (5, 1). At gob's round-2 turn start both
// drift east; gob's row y = 1 is open, but the ogre's lower row y = 2 runs
// into the wall at (10, 2): the drift stops after 15 ft, the ogre at
// (8, 1), its space (8..9, 1..2) touching the wall (was: only gob's squares
// were checked, and the ogre drifted through the wall, to (11, 1)).
TEST(ZeroG, ADriftStopsWhereACarriedPartnersSquaresRunIntoSomething) {
  fb::CombatantSpecT ogre = Large(Being("ogre", "party", 5, 1));
  Table t(D20ThreeAction(),
          Hall({Being("gob", "goblins", 1, 2), std::move(ogre)}, {{10, 2}}),
          {15, 10});
  ASSERT_OK(t.Submit(PushOff("gob", {{2, 2}, {3, 2}, {4, 2}})));
  ASSERT_TRUE(Has(t, "gob", kDrifting));
  ASSERT_OK(t.Submit(Cmd("gob", "grapple", {"ogre"}), {12, 5}));
  ASSERT_TRUE(Has(t, "ogre", kGrappled));
  ASSERT_EQ(At(t, "gob"), (Pos{5, 1}));
  ASSERT_EQ(At(t, "ogre"), (Pos{5, 1}));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("ogre", "end_turn")));
  EXPECT_EQ(At(t, "ogre"), (Pos{8, 1}));
  EXPECT_EQ(At(t, "gob"), (Pos{8, 1}));
  EXPECT_FALSE(Has(t, "gob", kDrifting));
  EXPECT_TRUE(Has(t, "ogre", kGrappled));
}

}  // namespace
}  // namespace combat::kernel::d20
