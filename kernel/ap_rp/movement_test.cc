// Movement (l.106-109) and forced movement / teleporting into an occupied
// space (l.114-115).
#include "kernel/ap_rp/internal.h"
#include "kernel/ap_rp/test_util.h"

namespace combat::kernel::aprp {
namespace {

using namespace testing;  // NOLINT

fb::RosterT Roster() {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"athletics", 5}});
  auto ally = Being("ally", "x", 2, 1, {{"ins", 1}});
  auto e = Being("e", "y", 1, 3, {{"ins", 2}});
  auto r = MakeRoster({a, ally, e});
  Terrain(r, 1, 2, "difficult");
  return r;
}

// l.106: a diagonal step is 1 m.
TEST(Movement, DiagonalIsOneMetre) {
  Table t(ApRp(), Roster());
  ASSERT_OK(t.Submit(Path(Cmd("a", "move"), {{2, 2}, {3, 3}, {4, 4}})));
  EXPECT_EQ(Res(t, "a", kMovement), 0);
  EXPECT_EQ(t.state().Find("a")->at, (Pos{4, 4}));
}

// l.107: difficult terrain costs 2 m per square.
TEST(Movement, DifficultTerrainCostsTwo) {
  Table t(ApRp(), Roster());
  ASSERT_OK(t.Submit(Path(Cmd("a", "move"), {{1, 2}})));
  EXPECT_EQ(Res(t, "a", kMovement), 1);
}

// 004_1a3e461770fc9e7a.txt l.107 "you need 2 m of movement to move one 1 m
// square" (a diagonal square too, l.106) and l.109 "Moving through a space
// occupied by an enemy counts as difficult terrain": an enemy standing on
// difficult terrain is difficult terrain once, 2 m, not 4 (reading: the
// square "counts as" what it already is). Basic Movement 3: through the
// enemy on difficult (2,1) to (3,1) is 2 + 1 = 3 (contest 15 + 5 = 20
// against 5); the diagonal into difficult (2,2) is 2, leaving 1; (2,2) then
// the enemy's (2,1) then (3,1) is 2 + 2 + 1 = 5 > 3 (stacked it would be
// 7): refused whole, nothing spent.
TEST(Movement, AnEnemyOnDifficultTerrainCostsTwoNotFour) {
  auto roster = [] {
    auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"athletics", 5}});
    auto e = Being("e", "y", 2, 1, {{"ins", 2}});
    auto r = MakeRoster({a, e});
    Terrain(r, 2, 1, "difficult");
    Terrain(r, 2, 2, "difficult");
    return r;
  };
  {
    Table t(ApRp(), roster());
    ASSERT_OK(t.Submit(Path(Cmd("a", "move"), {{2, 1}, {3, 1}}), {15, 5}));
    EXPECT_EQ(t.state().Find("a")->at, (Pos{3, 1}));
    EXPECT_EQ(Res(t, "a", kMovement), 0);
  }
  {
    Table t(ApRp(), roster());
    ASSERT_OK(t.Submit(Path(Cmd("a", "move"), {{2, 2}})));
    EXPECT_EQ(Res(t, "a", kMovement), 1);
  }
  {
    Table t(ApRp(), roster());
    auto r = t.Submit(Path(Cmd("a", "move"), {{2, 2}, {2, 1}, {3, 1}}));
    EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition) << r.status();
    EXPECT_NE(r.status().message().find("costs 5 m"), std::string::npos) << r.status();
    EXPECT_EQ(Res(t, "a", kMovement), 3);
    EXPECT_EQ(t.state().Find("a")->at, (Pos{1, 1}));
  }
}

// A wall blocks a move: the refusal cites the grid's line (l.106), not the
// allies' (l.108) (black-box: "square (4,2) is a wall (004 Terrain, l.108)").
TEST(Movement, AWallRefusalCitesTheGrid) {
  auto r = Roster();
  Terrain(r, 2, 2, "wall");
  Table t(ApRp(), r);
  auto m = t.Submit(Path(Cmd("a", "move"), {{2, 2}}));
  EXPECT_EQ(m.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(m.status().message().find("l.106"), std::string::npos) << m.status();
  EXPECT_EQ(t.state().Find("a")->at, (Pos{1, 1}));
}

// 004 l.6: "They can also move by an amount equal to their Basic Movement
// (usually 3 m) without needing to use any AP": a move off one's turn is
// refused for the movement rule (l.6, 004.budget.move), not for AP, which
// a move does not use. (Black-box: "AP are spent on your own turn".)
TEST(Movement, AMoveOffTurnIsRefusedForMovementNotAp) {
  Table t(ApRp(), Roster());
  auto m = t.Submit(Path(Cmd("e", "move"), {{1, 4}}));
  EXPECT_EQ(m.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(m.status().message().find("AP are spent"), std::string::npos) << m.status();
  EXPECT_NE(m.status().message().find("movement"), std::string::npos) << m.status();
  EXPECT_NE(m.status().message().find("l.6"), std::string::npos) << m.status();
  EXPECT_EQ(t.state().Find("e")->at, (Pos{1, 3}));
}

// l.108: through an ally, never stopping there.
TEST(Movement, ThroughAlliesNotStopping) {
  Table t(ApRp(), Roster());
  EXPECT_EQ(t.Submit(Path(Cmd("a", "move"), {{2, 1}})).status().code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_OK(t.Submit(Path(Cmd("a", "move"), {{2, 1}, {3, 1}})));
  EXPECT_EQ(t.state().Find("a")->at, (Pos{3, 1}));
}

// l.109: through an enemy by a contest; the square is difficult.
TEST(Movement, ThroughAnEnemy) {
  Table t(ApRp(), Roster());
  ASSERT_OK(t.Submit(Cmd("a", "move_action")));
  ASSERT_OK(t.Submit(Path(Cmd("a", "move"), {{2, 2}, {1, 3}, {1, 4}}), {10, 3}));  // 15 > 3
  EXPECT_EQ(t.state().Find("a")->at, (Pos{1, 4}));
  EXPECT_EQ(Res(t, "a", kMovement), 6 - 4);
}

// 004 l.109: "You can try to move through a space occupied by an enemy,
// but you have to succeed on a Raw Force, Athletics, or Nimbleness check
// against a Raw Force or Athletics check made by the enemy": a Dead enemy
// cannot act (it takes no turns, README "Shape of a round") and makes no
// check: the mover's check stands alone and succeeds, as against an object.
// The square still counts as difficult terrain (occupied by the enemy).
// (Black-box: the dead creature rolled Athletics and stopped the mover.)
TEST(Movement, ADeadEnemyMakesNoCheck) {
  Table t(ApRp(), Roster());
  ASSERT_OK(t.Submit(GmAdds("e", kDead, "killed")));
  ASSERT_OK(t.Submit(Cmd("a", "move_action")));
  auto ev = t.Submit(Path(Cmd("a", "move"), {{2, 2}, {1, 3}, {1, 4}}), {1});  // one die: a's 1 + 5
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "004.terrain.enemy", "actor"), 6);
  EXPECT_EQ(NumOf(*ev, "004.terrain.enemy", "target_total"), -999);  // e rolls nothing
  EXPECT_EQ(t.state().Find("a")->at, (Pos{1, 4}));
  EXPECT_EQ(Res(t, "a", kMovement), 6 - 4);  // 1 + 2 (difficult) + 1
}

TEST(Movement, EnemyStopsTheMoveOnAWonContest) {
  Table t(ApRp(), Roster());
  ASSERT_OK(t.Submit(Cmd("a", "move_action")));
  ASSERT_OK(t.Submit(Path(Cmd("a", "move"), {{2, 2}, {1, 3}, {1, 4}}), {1, 10}));  // 6 < 10
  EXPECT_EQ(t.state().Find("a")->at, (Pos{2, 2}));
}

// 004 l.109: "You can try to move through a space occupied by an enemy,
// but you have to succeed on a Raw Force, Athletics, or Nimbleness check
// ... Moving through a space occupied by an enemy counts as difficult
// terrain. You can be in a space occupied by a creature that is two size
// categories bigger or smaller than you": a giant two categories larger is
// still an enemy whose space needs the check and costs 2 m; the mover may
// stop in it. (Black-box: a walked through the giant's space for 1 m with
// no check.)
TEST(Movement, AnEnemyTwoSizesApartStillNeedsTheCheck) {
  auto roster = [] {
    auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"athletics", 5}});
    auto giant = Being("giant", "y", 2, 1, {{"ins", 1}, {"size_cat", 2}, {"raw_force", 3}});
    return MakeRoster({a, giant});
  };
  Table t(ApRp(), roster());
  // 5 + 5 = 10 against the giant's 7 + 3 = 10: not higher, stopped before.
  ASSERT_OK(t.Submit(Path(Cmd("a", "move"), {{2, 1}, {3, 1}}), {5, 7}));
  EXPECT_EQ(t.state().Find("a")->at, (Pos{1, 1}));
  EXPECT_EQ(Res(t, "a", kMovement), 3);
  // 6 + 5 = 11 > 10: through, 2 m + 1 m = 3 m.
  ASSERT_OK(t.Submit(Path(Cmd("a", "move"), {{2, 1}, {3, 1}}), {6, 7}));
  EXPECT_EQ(t.state().Find("a")->at, (Pos{3, 1}));
  EXPECT_EQ(Res(t, "a", kMovement), 0);
  Table u(ApRp(), roster());
  ASSERT_OK(u.Submit(Path(Cmd("a", "move"), {{2, 1}}), {6, 7}));  // stops in its space: 2 m
  EXPECT_EQ(u.state().Find("a")->at, (Pos{2, 1}));
  EXPECT_EQ(Res(u, "a", kMovement), 1);
}

// l.114: shoved into an occupied square: the occupant's Strength DR
// against the shover's DR Power (Str 14); fails: 1 damage to both; the
// target stays one space before.
TEST(Movement, ForcedIntoAnOccupiedSquare) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"athletics", 5}});
  auto e = Being("e", "y", 2, 1, {{"ins", 2}});
  auto w = Being("w", "y", 3, 1, {{"ins", 1}});
  Table t(ApRp(), MakeRoster({a, e, w}));
  auto shove = Path(Cmd("a", "shove", {"e"}), {{3, 1}});
  auto ev = t.Submit(shove, {15, 2, 5});  // 20 > 2; DR 5 + 4 + 0 = 9 < 14
  ASSERT_OK(ev);
  EXPECT_EQ(t.state().Find("e")->at, (Pos{2, 1}));
  EXPECT_EQ(Res(t, "e", kVitality), 29);
  EXPECT_EQ(Res(t, "w", kVitality), 29);
  EXPECT_EQ(Res(t, "a", kAp), 2);  // Shove: 1 AP (l.37)
}

// 004 l.37 "move a target within 1 m of you up to 1 m" names no direction
// and l.114 "forces the creature or object occupying that space to make a
// Strength DR" excepts no occupant: shoved into the shover's own square
// (reading, README), the shover rolls the Strength DR against its own DR
// Power: 5 + 4 = 9 < 14 fails, 1 damage to both, e stays where it stood.
TEST(Movement, AShoveIntoTheShoversOwnSquareCollidesWithTheShover) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"athletics", 5}});
  auto e = Being("e", "y", 2, 1, {{"ins", 2}});
  Table t(ApRp(), MakeRoster({a, e}));
  auto ev = t.Submit(Path(Cmd("a", "shove", {"e"}), {{1, 1}}), {15, 2, 5});
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "004.forced", "damage"), 1);
  EXPECT_EQ(t.state().Find("e")->at, (Pos{2, 1}));
  EXPECT_EQ(t.state().Find("a")->at, (Pos{1, 1}));
  EXPECT_EQ(Res(t, "e", kVitality), 29);
  EXPECT_EQ(Res(t, "a", kVitality), 29);
}

// 004 l.109 "You can be in a space occupied by a *creature* that is two
// size categories bigger or smaller than you" grants no share of an
// object's space; l.114 "forces the creature or object occupying that
// space to make a Strength DR": e shoved into the square of a box of size
// 3 collides: the box fails (l.69 "Objects automatically fail all DR"), 1
// damage to both, e stays. (Black-box: e was moved into the box's square.)
TEST(Movement, AnObjectIsNotSharedWhateverItsSize) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"athletics", 5}});
  auto e = Being("e", "y", 2, 1, {{"ins", 2}});
  auto box = Being("box", "z", 3, 1, {{"size_cat", 3}});
  box.tags.push_back("object");
  Table t(ApRp(), MakeRoster({a, e, box}));
  auto ev = t.Submit(Path(Cmd("a", "shove", {"e"}), {{3, 1}}), {15, 2});
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "004.forced", "damage"), 1);
  EXPECT_EQ(t.state().Find("e")->at, (Pos{2, 1}));
  EXPECT_EQ(Res(t, "e", kVitality), 29);
  EXPECT_EQ(Res(t, "box", kVitality), 29);
}

// 004 l.114 "On a success, you only deal half as much damage": a 1 m shove
// into w's square, w's Strength DR 10 + 4 + 0 = 14 >= 14 succeeds: half of
// 1 is 0 (rounded down: the text's only rounding, l.53 "rounded down"; no
// minimum is given): no damage to either, e stopped in its square.
TEST(Movement, AOneMetreShoveHalvedOnASuccessDealsNothing) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}});
  auto e = Being("e", "y", 2, 1, {{"ins", 2}});
  auto w = Being("w", "y", 3, 1, {{"ins", 1}});
  Table t(ApRp(), MakeRoster({a, e, w}));
  auto ev = t.Submit(Path(Cmd("a", "shove", {"e"}), {{3, 1}}), {15, 5, 10});
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "004.forced", "distance"), 1);
  EXPECT_EQ(NumOf(*ev, "004.forced", "damage"), 0);
  EXPECT_EQ(t.state().Find("e")->at, (Pos{2, 1}));
  EXPECT_EQ(Res(t, "e", kVitality), 30);
  EXPECT_EQ(Res(t, "w", kVitality), 30);
}

// 004 l.114 "On a failure, you deal physical damage - equal to the full
// distance in meters that the target would have been moved - to both ...
// The moving target is stopped one space before it": e is pushed 4 m
// (3,1)..(6,1) but w stands at (4,1), the second square: w's DR 2 + 4 = 6 <
// 14 fails; both take the full 4 (not the 1 m e went), e stops at (3,1).
TEST(Movement, ForcedDamageIsTheFullDistanceNotTheDistanceMoved) {
  auto a = Being("a", "x", 1, 5, {{"ins", 20}});
  auto e = Being("e", "y", 2, 1, {{"ins", 2}});
  auto w = Being("w", "y", 4, 1, {{"ins", 1}});
  Table t(ApRp(), MakeRoster({a, e, w}));
  auto fm = Gm("a", "force_move", "a gust ability");
  fm.targets = {"e"};
  fm = Path(fm, {{3, 1}, {4, 1}, {5, 1}, {6, 1}});
  auto ev = t.Submit(fm, {2});
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "004.forced", "distance"), 4);
  EXPECT_EQ(t.state().Find("e")->at, (Pos{3, 1}));
  EXPECT_EQ(Res(t, "e", kVitality), 26);
  EXPECT_EQ(Res(t, "w", kVitality), 26);
}

// 004 l.114 "The creature or object has advantage on that DR if it is at
// least one size category bigger than the target that you are moving into
// their space": w (size 1) rolls two d20 against e (size 0), keeps the
// higher: 5, 9 -> 9 + 4 = 13 < 14 fails; 2 m: 2 to both. The same dice with
// w and e of one size would keep the first (5): one die only is rolled.
TEST(Movement, AnOccupantOneSizeBiggerHasAdvantageOnTheStrengthDr) {
  auto a = Being("a", "x", 1, 5, {{"ins", 20}});
  auto e = Being("e", "y", 2, 1, {{"ins", 2}});
  auto w = Being("w", "y", 4, 1, {{"ins", 1}, {"size_cat", 1}});
  Table t(ApRp(), MakeRoster({a, e, w}));
  auto fm = Gm("a", "force_move", "a gust ability");
  fm.targets = {"e"};
  fm = Path(fm, {{3, 1}, {4, 1}});
  auto ev = t.Submit(fm, {5, 9});
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "004.forced", "advantage"), 1);
  EXPECT_EQ(NumOf(*ev, "004.forced", "dr_total"), 13);
  EXPECT_EQ(Res(t, "e", kVitality), 28);
  EXPECT_EQ(Res(t, "w", kVitality), 28);
  auto same = Being("w", "y", 4, 1, {{"ins", 1}});
  Table u(ApRp(), MakeRoster({a, e, same}));
  EXPECT_FALSE(u.Submit(fm, {5, 9}).ok());  // one die rolled: two supplied
}

// l.114: success halves (rounded down); 4 m: 2 each.
TEST(Movement, ForcedSuccessHalves) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}});
  auto e = Being("e", "y", 2, 1, {{"ins", 2}});
  auto w = Being("w", "y", 6, 1, {{"ins", 1}, {"raw_force", 5}});
  Table t(ApRp(), MakeRoster({a, e, w}));
  auto fm = Gm("a", "force_move", "a gust ability");
  fm.targets = {"e"};
  fm = Path(fm, {{3, 1}, {4, 1}, {5, 1}, {6, 1}});
  ASSERT_OK(t.Submit(fm, {10}));  // 10 + 4 + 5 = 19 >= 14
  EXPECT_EQ(t.state().Find("e")->at, (Pos{5, 1}));
  EXPECT_EQ(Res(t, "e", kVitality), 28);
  EXPECT_EQ(Res(t, "w", kVitality), 28);
}

// 004 l.114 "Moving a target into a space that is already occupied forces
// the creature or object occupying that space to make a Strength DR ...
// On a failure, you deal physical damage ... to both the moving target and
// whatever is occupying the space. On a success, you only deal half": a
// 2x2 creature moved 2 m from (1,1) to cover (3,1)-(4,2), where c (4,1) and
// e (4,2) stand: each occupant rolls (DR Power 14): c 5 + 4 = 9 fails, 2;
// e 10 + 4 = 14 succeeds, 1; the moved target once, 2 (one failed:
// reading), stopped at (2,1). (Black-box: only c rolled and took damage.)
TEST(Movement, ALargeTargetForcedOntoSeveralOccupantsEachRolls) {
  auto a = Being("a", "x", 10, 10, {{"ins", 20}});
  auto big = Being("big", "y", 1, 1, {{"ins", 2}, {"size_cat", 1}});
  big.size = 2;
  auto c = Being("c", "y", 4, 1, {{"ins", 1}});
  auto e = Being("e", "y", 4, 2, {{"ins", 1}});
  Table t(ApRp(), MakeRoster({a, big, c, e}));
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto fm = Gm("a", "force_move", "a gust ability");
  fm.targets = {"big"};
  fm = Path(fm, {{2, 1}, {3, 1}});
  ASSERT_OK(t.Submit(fm, {5, 10}));
  EXPECT_EQ(t.state().Find("big")->at, (Pos{2, 1}));
  EXPECT_EQ(Res(t, "c", kVitality), 28);
  EXPECT_EQ(Res(t, "e", kVitality), 29);
  EXPECT_EQ(Res(t, "big", kVitality), 28);
}

// Reading (README "walls stop it"): a 2x2 creature forced from (1,1) along
// (2,1), (3,1) would cover the wall at (4,2) at (3,1): it stops at (2,1),
// no damage (black-box: it was moved onto the wall, only its anchor square
// being checked).
TEST(Movement, AWallUnderAnySquareOfALargeTargetStopsIt) {
  auto a = Being("a", "x", 10, 10, {{"ins", 20}});
  auto big = Being("big", "y", 1, 1, {{"ins", 2}, {"size_cat", 1}});
  big.size = 2;
  auto r = MakeRoster({a, big});
  Terrain(r, 4, 2, "wall");
  Table t(ApRp(), r);
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto fm = Gm("a", "force_move", "a gust ability");
  fm.targets = {"big"};
  fm = Path(fm, {{2, 1}, {3, 1}});
  ASSERT_OK(t.Submit(fm));
  EXPECT_EQ(t.state().Find("big")->at, (Pos{2, 1}));
  EXPECT_EQ(Res(t, "big", kVitality), 30);
}

// 004 l.106 "every square is 1 m long and wide ... a space", l.114 "the
// creature or object occupying that space" (reading, README "walls stop
// it"): a Shove won (athletics 15 + 5 = 20 > 2) or a force_move into a
// wall leaves the target where it stands, unharmed, and the log says why,
// naming the wall (black-box: the contest succeeded, e did not move, no
// event said why).
TEST(Movement, AShoveOrForceMoveIntoAWallSaysWhyTheTargetStays) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"athletics", 5}});
  auto e = Being("e", "y", 2, 1, {{"ins", 2}});
  auto r = MakeRoster({a, e});
  Terrain(r, 3, 1, "wall");
  Table t(ApRp(), r);
  auto ev = t.Submit(Path(Cmd("a", "shove", {"e"}), {{3, 1}}), {15, 2});
  ASSERT_OK(ev);
  EXPECT_EQ(t.state().Find("e")->at, (Pos{2, 1}));
  EXPECT_EQ(Res(t, "e", kVitality), 30);
  EXPECT_NE(NoteOf(*ev, "004.terrain.grid").find("before the wall at (3,1)"), std::string::npos)
      << NoteOf(*ev, "004.terrain.grid");
  EXPECT_EQ(NumOf(*ev, "004.terrain.grid", "moved"), 0);
  auto fm = Gm("a", "force_move", "a gust ability");
  fm.targets = {"e"};
  fm = Path(fm, {{3, 1}, {4, 1}});
  auto ev2 = t.Submit(fm);
  ASSERT_OK(ev2);
  EXPECT_EQ(t.state().Find("e")->at, (Pos{2, 1}));
  EXPECT_NE(NoteOf(*ev2, "004.terrain.grid").find("before the wall at (3,1)"), std::string::npos);
  EXPECT_EQ(NumOf(*ev2, "004.terrain.grid", "distance"), 2);
}

// l.115: teleporting into an occupied space: Reality damage = distance,
// ignoring Armor, to both; the target returns.
// 004_1a3e461770fc9e7a.txt l.114 "you deal physical damage ... to both"
// meets l.64 "Your Armor is subtracted from any incoming damage": a failed
// Strength DR deals 1 (the 1 m shove) to both: e's Armor 1 leaves 0, w's
// Armor -1 makes it 2. l.115 "The damage ignores Armor" with l.66 "Such
// effects still deal increased damage if the target's Armor ... values are
// negative": teleported 1 m onto w, e takes 1 (Armor 1 ignored), w 1 + 1 = 2.
TEST(Movement, ForcedDamageMeetsArmorTeleportIgnoresOnlyPositiveArmor) {
  auto roster = [] {
    auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"athletics", 5}});
    auto e = Being("e", "y", 2, 1, {{"ins", 2}, {"armor", 1}});
    auto w = Being("w", "y", 3, 1, {{"ins", 1}, {"armor", -1}});
    return MakeRoster({a, e, w});
  };
  {
    Table t(ApRp(), roster());
    ASSERT_OK(t.Submit(Path(Cmd("a", "shove", {"e"}), {{3, 1}}), {15, 2, 5}));  // DR 5 + 4 < 14
    EXPECT_EQ(Res(t, "e", kVitality), 30);
    EXPECT_EQ(Res(t, "w", kVitality), 28);
  }
  {
    Table t(ApRp(), roster());
    auto tp = Gm("a", "teleport", "blink");
    tp.targets = {"e"};
    With(tp, "x", 3);
    With(tp, "y", 1);
    ASSERT_OK(t.Submit(tp));
    EXPECT_EQ(t.state().Find("e")->at, (Pos{2, 1}));
    EXPECT_EQ(Res(t, "e", kVitality), 29);
    EXPECT_EQ(Res(t, "w", kVitality), 28);
  }
}

// 004_1a3e461770fc9e7a.txt l.115 "Teleporting a target into a space that is
// already occupied deals Reality damage equal to the teleported distance"
// read with l.109 "You can be in a space occupied by a creature that is two
// size categories bigger or smaller than you" (reading, README): a space a
// creature two categories apart holds is one a can be in: teleported 2 m
// onto the giant (size 2 vs 0) it lands, no damage; onto the ogre (size 1,
// one apart) it is a collision: 2 Reality to both, a returned.
TEST(Movement, TeleportOntoACreatureTwoSizesApartLandsWithoutDamage) {
  auto roster = [] {
    auto a = Being("a", "x", 1, 1, {{"ins", 20}});
    auto giant = Being("giant", "y", 3, 1, {{"ins", 2}, {"size_cat", 2}});
    auto ogre = Being("ogre", "y", 1, 3, {{"ins", 1}, {"size_cat", 1}});
    return MakeRoster({a, giant, ogre});
  };
  auto tp = [](int x, int y) {
    auto c = Gm("a", "teleport", "blink");
    c.targets = {"a"};
    With(c, "x", x);
    With(c, "y", y);
    return c;
  };
  {
    Table t(ApRp(), roster());
    ASSERT_OK(t.Submit(tp(3, 1)));
    EXPECT_EQ(t.state().Find("a")->at, (Pos{3, 1}));
    EXPECT_EQ(Res(t, "a", kVitality), 30);
    EXPECT_EQ(Res(t, "giant", kVitality), 30);
  }
  {
    Table t(ApRp(), roster());
    ASSERT_OK(t.Submit(tp(1, 3)));
    EXPECT_EQ(t.state().Find("a")->at, (Pos{1, 1}));
    EXPECT_EQ(Res(t, "a", kVitality), 28);
    EXPECT_EQ(Res(t, "ogre", kVitality), 28);
  }
}

TEST(Movement, TeleportIntoOccupied) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"armor", 3}});
  auto w = Being("w", "y", 8, 1, {{"ins", 1}, {"armor", 3}});
  Table t(ApRp(), MakeRoster({a, w}));
  auto tp = Gm("a", "teleport", "blink");
  tp.targets = {"a"};
  With(tp, "x", 8);
  With(tp, "y", 1);
  ASSERT_OK(t.Submit(tp));
  EXPECT_EQ(t.state().Find("a")->at, (Pos{1, 1}));
  EXPECT_EQ(Res(t, "a", kVitality), 23);
  EXPECT_EQ(Res(t, "w", kVitality), 23);
}


// 004 l.115 "Teleporting a target into a space that is already occupied
// deals Reality damage equal to the teleported distance to both": a 2x2
// creature (size 2, size category 1) teleported from (8,1) to (5,5) would
// cover (5,5)-(6,6), where c and e stand (size category 0: they cannot
// share, l.109): 4 m (max(3, 4)), Armor ignored, to each, and it stays at (8,1)
// (black-box: it landed on c's square without damage, at "distance 3",
// measured from its nearest square).
TEST(Movement, ALargeCreatureTeleportedOntoAnotherAnySquare) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}});
  auto big = Being("big", "y", 8, 1, {{"ins", 10}, {"size_cat", 1}, {"armor", 3}});
  big.size = 2;
  auto c = Being("c", "y", 6, 6, {{"ins", 1}, {"armor", 3}});
  auto e = Being("e", "y", 5, 5, {{"ins", 2}});  // a second occupant: it takes 4 too
  Table t(ApRp(), MakeRoster({a, big, c, e}));
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto tp = Gm("a", "teleport", "blink");
  tp.targets = {"big"};
  With(tp, "x", 5);
  With(tp, "y", 5);
  auto ev = t.Submit(tp);
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "004.teleport", "distance"), 4);
  EXPECT_EQ(t.state().Find("big")->at, (Pos{8, 1}));
  EXPECT_EQ(Res(t, "big", kVitality), 26);
  EXPECT_EQ(Res(t, "c", kVitality), 26);
  EXPECT_EQ(Res(t, "e", kVitality), 26);
  auto free = Gm("a", "teleport", "blink");  // to (2,5)-(3,6): free, 6 m
  free.targets = {"big"};
  With(free, "x", 2);
  With(free, "y", 5);
  auto ev2 = t.Submit(free);
  ASSERT_OK(ev2);
  EXPECT_EQ(NumOf(*ev2, "004.teleport", "distance"), 6);
  EXPECT_EQ(t.state().Find("big")->at, (Pos{2, 5}));
}

// 004 l.32 "you move with it if it moves": a climber on a mount (one size
// larger) that is teleported 6 m (l.115, to a free space) goes with it and
// is still on it (black-box: it stayed behind at (2,1), "Climbing" a mount
// 6 m away).
TEST(Movement, AClimberGoesWithItsTeleportedMount) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"athletics", 5}});
  auto g = Being("g", "y", 2, 1, {{"ins", 1}, {"size_cat", 1}});
  Table t(ApRp(), MakeRoster({a, g}));
  ASSERT_OK(t.Submit(Cmd("a", "climb", {"g"}), {15, 2}));  // 15 + 5 = 20 > 2
  ASSERT_TRUE(Has(t, "a", kClimbing));
  ASSERT_EQ(t.state().Find("a")->at, (Pos{2, 1}));
  auto tp = Gm("a", "teleport", "blink");
  tp.targets = {"g"};
  With(tp, "x", 8);
  With(tp, "y", 1);
  ASSERT_OK(t.Submit(tp));
  EXPECT_EQ(t.state().Find("g")->at, (Pos{8, 1}));
  EXPECT_EQ(t.state().Find("a")->at, (Pos{8, 1}));
  EXPECT_TRUE(Has(t, "a", kClimbing));
  EXPECT_EQ(Res(t, "a", kVitality), 30);
  EXPECT_EQ(Res(t, "g", kVitality), 30);
}

// l.115: "This cannot deal more than 100 damage to a creature": the cap is
// on what the creature takes, after its vulnerability (150 m, vulnerable to
// Reality: 225 -> 100); an object is not a creature: 150.
TEST(Movement, TeleportCapIsOnTheDamageTaken) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"vitality", 300}});
  auto w = Being("w", "y", 151, 1, {{"ins", 1}, {"vitality", 300}});
  Tag(w, "vulnerable:reality");
  auto rock = Being("rock", "y", 151, 3, {{"vitality", 300}});
  Tag(rock, "object");
  Table t(ApRp(), MakeRoster({a, w, rock}, 160, 10));
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto tp = Gm("a", "teleport", "blink");
  tp.targets = {"a"};
  With(tp, "x", 151);
  With(tp, "y", 1);
  ASSERT_OK(t.Submit(tp));
  EXPECT_EQ(Res(t, "a", kVitality), 200);  // 150 -> 100
  EXPECT_EQ(Res(t, "w", kVitality), 200);  // 150 x 1.5 = 225 -> 100
  auto tp2 = Gm("a", "teleport", "blink");
  tp2.targets = {"a"};
  With(tp2, "x", 151);
  With(tp2, "y", 3);
  ASSERT_OK(t.Submit(tp2));
  EXPECT_EQ(Res(t, "rock", kVitality), 150);  // an object: 150, not capped
}


// l.114: the collision damage can be added to the damage of the Ability that
// moved the target, as one damage source: Armor 2 comes off once (5 + 4 - 2
// = 7) instead of from each (5 - 2 + 4 - 2 = 5); the occupant takes 4 - 2.
TEST(Movement, ForcedDamageAddedToTheCausingAbility) {
  for (int combine : {0, 1}) {
    auto a = Being("a", "x", 1, 1, {{"ins", 20}});
    auto e = Being("e", "y", 2, 1, {{"ins", 2}, {"armor", 2}});
    auto w = Being("w", "y", 6, 1, {{"ins", 1}, {"armor", 2}});
    Table t(ApRp(), MakeRoster({a, e, w}));
    auto fm = Gm("a", "force_move", "a gust ability");
    fm.targets = {"e"};
    fm = Path(fm, {{3, 1}, {4, 1}, {5, 1}, {6, 1}});
    With(fm, "dmg_physical", 5);
    With(fm, "combine", combine);
    ASSERT_OK(t.Submit(fm, {1}));  // DR 1 + 4 < 14: fails, 4 damage
    EXPECT_EQ(Res(t, "e", kVitality), combine ? 23 : 25);
    EXPECT_EQ(Res(t, "w", kVitality), 28);
  }
  Table t(ApRp(), Roster());
  auto fm = Gm("a", "force_move", "gust");
  fm.targets = {"e"};
  fm = Path(fm, {{1, 4}});
  With(fm, "combine", 1);
  auto r = t.Submit(fm);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("params.combine"), std::string::npos);
}


// 004_1a3e461770fc9e7a.txt l.114 "You can add the damage that you deal that
// way to any damage that you might have caused through an Ability ...
// instead of treating it as a separate damage source" with l.79
// "Resistance reduces all incoming damage of that type by half": added, the
// 3 m collision's Physical joins the gust's 5 Physical: 8, resisted 4 (30 ->
// 26; black-box: each part was halved apart, 2 + 1 = 3, 30 -> 27).
// Vulnerable: 8 + 4 = 12 (30 -> 18; apart 7 + 4 = 11). The occupant, not
// added, takes its own 3.
TEST(Movement, AddedCollisionDamageIsHalvedWithTheAbilitysAsOneAmount) {
  for (const std::string tag : {"resist:physical", "vulnerable:physical"}) {
    auto m = Being("m", "x", 1, 1, {{"ins", 20}, {"str", 14}});
    auto o = Being("o", "y", 5, 5, {{"ins", 2}});
    o.tags.push_back(tag);
    auto b = Being("b", "y", 7, 5, {{"ins", 1}, {"str", 12}, {"raw_force", 1}});
    Table t(ApRp(), MakeRoster({m, o, b}));
    auto fm = Gm("m", "force_move", "a gust ability");
    fm.targets = {"o"};
    fm = Path(fm, {{6, 5}, {7, 5}, {8, 5}});
    With(fm, "dmg_physical", 5);
    With(fm, "combine", 1);
    ASSERT_OK(t.Submit(fm, {10}));  // b's Strength DR 10 + 2 + 1 = 13 < 14: fails, 3
    EXPECT_EQ(Res(t, "o", kVitality), tag == "resist:physical" ? 26 : 18) << tag;
    EXPECT_EQ(Res(t, "b", kVitality), 27);
  }
}

// A teleport's destination is a space on the map (params x, y named).
TEST(Movement, TeleportDestinationOnTheMap) {
  auto r = Roster();
  Terrain(r, 5, 5, "wall");
  Table t(ApRp(), r);
  auto tp = Gm("a", "teleport", "blink");
  tp.targets = {"a"};
  With(tp, "x", 40);
  With(tp, "y", 1);
  auto off = t.Submit(tp);
  EXPECT_EQ(off.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(off.status().message().find("params.x"), std::string::npos);
  auto wall = Gm("a", "teleport", "blink");
  wall.targets = {"a"};
  With(wall, "x", 5);
  With(wall, "y", 5);
  EXPECT_EQ(t.Submit(wall).status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(t.state().Find("a")->at, (Pos{1, 1}));
}


// l.109: a move may pass through an enemy's space, not end there (cites l.109).
TEST(Movement, CannotStopInAnEnemysSpace) {
  Table t(ApRp(), Roster());
  auto r = t.Submit(Path(Cmd("a", "move"), {{1, 2}, {1, 3}}));
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(r.status().message().find("l.109"), std::string::npos);
}


// 004 l.69 "A creature can choose to fail their own DR" holds for the
// Strength DR of l.114 "forces the creature or object occupying that space
// to make a Strength DR": w, shoved into (params occupant_fails "w"), rolls
// no die and fails: the full 1 m, 1 damage to both (30 - 1 = 29). The shove
// contest: 15 + 5 = 20 against e's 2 + 0 = 2. (Black-box: the parameter was
// refused; w always rolled.)
TEST(Movement, AnOccupantMayChooseToFailTheStrengthDr) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"athletics", 5}});
  auto e = Being("e", "y", 2, 1, {{"ins", 2}});
  auto w = Being("w", "y", 3, 1, {{"ins", 1}});
  Table t(ApRp(), MakeRoster({a, e, w}));
  auto shove = Path(Cmd("a", "shove", {"e"}), {{3, 1}});
  WithText(shove, "occupant_fails", "w");
  auto ev = t.Submit(shove, {15, 2});  // no die for w
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "004.forced", "dr_total"), -999);
  EXPECT_EQ(NumOf(*ev, "004.forced", "damage"), 1);
  EXPECT_EQ(NoteOf(*ev, "004.forced"), "chooses to fail the Strength DR (l.69)");
  EXPECT_EQ(Res(t, "e", kVitality), 29);
  EXPECT_EQ(Res(t, "w", kVitality), 29);
  // A GM's force_move carries the occupant's choice too; a name that is no
  // creature of the session is refused, naming the field.
  auto fm = Gm("a", "force_move", "a gust ability");
  fm.targets = {"e"};
  fm = Path(fm, {{3, 1}});
  auto bad = fm;
  WithText(bad, "occupant_fails", "nobody");
  EXPECT_EQ(t.Submit(bad, {}).status().code(), absl::StatusCode::kInvalidArgument);
  WithText(fm, "occupant_fails", "w");
  ASSERT_OK(t.Submit(fm, {}));
  EXPECT_EQ(Res(t, "w", kVitality), 28);
}

// 004 l.111 "increases all of your DR by 1 against all effects that come
// from that same direction" and l.25 Taking Cover "your DR by 1, as long as
// you are in half cover": the Strength DR of l.114 is a DR. The effect is
// g's (the creature targeting, whose DR Power it is, l.70), from (0,3); w at
// (4,3) stands behind the half_cover object at (3,3). e is pushed 2 m down
// into w: w's 9 + 4 + 1 = 14 >= 14 succeeds, half of 2 = 1 to both (was
// 9 + 4 = 13: fails, 2 to both). Taking Cover as well: 8 + 4 + 1 + 1 = 14
// succeeds.
TEST(Movement, HalfCoverAndTakingCoverRaiseTheOccupantsStrengthDr) {
  auto g = Being("g", "x", 0, 3, {{"ins", 20}});
  auto e = Being("e", "y", 4, 1, {{"ins", 2}});
  auto w = Being("w", "y", 4, 3, {{"ins", 1}});
  auto r = MakeRoster({g, e, w});
  Terrain(r, 3, 3, "half_cover");
  Table t(ApRp(), r);
  auto fm = Gm("g", "force_move", "a crushing Ability");
  fm.targets = {"e"};
  fm = Path(fm, {{4, 2}, {4, 3}});
  auto ev = t.Submit(fm, {9});
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "004.forced", "half_cover"), 1);
  EXPECT_EQ(NumOf(*ev, "004.forced", "dr_total"), 14);
  EXPECT_EQ(NumOf(*ev, "004.forced", "damage"), 1);
  EXPECT_EQ(Res(t, "e", kVitality), 29);
  EXPECT_EQ(Res(t, "w", kVitality), 29);

  Table u(ApRp(), r);
  ASSERT_OK(u.Submit(GmAdds("w", kTakingCover, "took cover"), {}));
  auto ev2 = u.Submit(fm, {8});
  ASSERT_OK(ev2);
  EXPECT_EQ(NumOf(*ev2, "004.forced", "taking_cover"), 1);
  EXPECT_EQ(NumOf(*ev2, "004.forced", "dr_total"), 14);
  EXPECT_EQ(Res(u, "w", kVitality), 29);
}

// Reading of l.111 with l.114: the moved target is the effect, not a
// creature standing in front of the occupant: a shoves e (same size) from
// (1,1) into w at (3,1); e, between them, gives w no half cover: 10 + 4 =
// 14 succeeds, half of 1 = 0.
TEST(Movement, TheMovedTargetGivesTheOccupantNoCover) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"athletics", 5}});
  auto e = Being("e", "y", 2, 1, {{"ins", 2}});
  auto w = Being("w", "y", 3, 1, {{"ins", 1}});
  Table t(ApRp(), MakeRoster({a, e, w}));
  auto ev = t.Submit(Path(Cmd("a", "shove", {"e"}), {{3, 1}}), {15, 2, 10});
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "004.forced", "half_cover"), -999);
  EXPECT_EQ(NumOf(*ev, "004.forced", "dr_total"), 14);
  EXPECT_EQ(Res(t, "w", kVitality), 30);
}

// 004 l.112 "While you are in full cover, you can lean towards a space next
// to you, allowing you to see and target anything as if you were standing in
// that space": the GM's force_move and teleport for a's Ability are
// targeted as an attack is. a behind the full_cover at (2,1) cannot target
// e at (6,1); leaning to (1,2) it can: e is pushed to (8,1) (or teleported
// to (6,5)) and a leans (half cover) to the end of its turn (black-box: the
// verbs took no lean_x / lean_y, so a source in full cover was refused by
// its own cover).
TEST(Movement, ForceMoveAndTeleportLeaningOutOfFullCover) {
  auto roster = [] {
    auto a = Being("a", "x", 1, 1, {{"ins", 20}});
    auto e = Being("e", "y", 6, 1, {{"ins", 1}});
    auto r = MakeRoster({a, e});
    Terrain(r, 2, 1, "full_cover");
    return r;
  };
  {
    Table t(ApRp(), roster());
    auto fm = Path(Gm("a", "force_move", "a gust ability"), {{7, 1}, {8, 1}});
    fm.targets = {"e"};
    EXPECT_EQ(t.Submit(fm).status().code(), absl::StatusCode::kFailedPrecondition);  // full cover
    With(fm, "lean_x", 1);
    With(fm, "lean_y", 2);
    ASSERT_OK(t.Submit(fm));
    EXPECT_EQ(t.state().Find("e")->at, (Pos{8, 1}));
    EXPECT_EQ(t.state().Find("a")->at, (Pos{1, 1}));
    EXPECT_TRUE(Has(t, "a", kLeaning));
    ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
    EXPECT_FALSE(Has(t, "a", kLeaning));
  }
  {
    Table t(ApRp(), roster());
    auto tp = Gm("a", "teleport", "blink");
    tp.targets = {"e"};
    With(tp, "x", 6);
    With(tp, "y", 5);
    EXPECT_EQ(t.Submit(tp).status().code(), absl::StatusCode::kFailedPrecondition);  // full cover
    With(tp, "lean_x", 1);
    With(tp, "lean_y", 2);
    ASSERT_OK(t.Submit(tp));
    EXPECT_EQ(t.state().Find("e")->at, (Pos{6, 5}));
    EXPECT_TRUE(Has(t, "a", kLeaning));
    // From the open there is nothing to lean out of (as for an attack).
    auto open = Gm("e", "teleport", "blink");
    open.targets = {"e"};
    With(open, "x", 6);
    With(open, "y", 7);
    With(open, "lean_x", 7);
    With(open, "lean_y", 5);
    auto refused = t.Submit(open);
    EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
    EXPECT_NE(refused.status().message().find("nothing to lean out of"), std::string::npos) << refused.status();
  }
}

}  // namespace
}  // namespace combat::kernel::aprp
