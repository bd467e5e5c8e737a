// Advantage and Disadvantage sources (seed 000 L31, L45, L87-L91,
// L107-L121, L138, L146, L154, L160) and the grid geometry behind them.
#include <algorithm>

#include "gtest/gtest.h"
#include "kernel/d20_three_action/internal.h"
#include "kernel/d20_three_action/test_util.h"

namespace combat::kernel::d20 {
namespace {

using namespace testing;  // NOLINT

bool HasSource(const std::vector<EdgeSource>& v, const std::string& s) {
  return std::any_of(v.begin(), v.end(),
                     [&](const EdgeSource& e) { return e.name == s; });
}

TEST(Grid, DistanceCountsDiagonalsAsFiveFeet) {
  EXPECT_EQ(DistanceFt({0, 0}, 1, {1, 1}, 1), 5);
  EXPECT_EQ(DistanceFt({0, 0}, 1, {3, 2}, 1), 15);
  EXPECT_EQ(DistanceFt({0, 0}, 2, {3, 0}, 1), 10);  // nearest squares
  EXPECT_EQ(DistanceFt({0, 0}, 1, {0, 0}, 1), 0);
}

TEST(Advantage, FlankingNeedsOppositeSidesAndReach) {
  fb::RosterT r =
      MakeRoster({Being("aria", "party", 4, 5), Being("bo", "party", 6, 5),
                  Being("gob", "goblins", 5, 5), Being("cy", "party", 6, 6)});
  Table t(D20ThreeAction(), r, {15, 14, 10, 2});
  EXPECT_TRUE(
      HasSource(EdgeOf(t, "aria", "gob").advantage, "flanked"));  // L109
  // cy (diagonal, a knight's move from aria) flanks with aria too: seed 000
  // l.109 "if you can draw a line between any two points in their space
  // that crosses opposite sides of the Flanked Creature": from (4.9, 5.5)
  // in aria's square to (6.1, 6.01) in cy's, the line crosses gob's left
  // side (x 5, y 5.54) and its right side (x 6, y 5.97).
  EXPECT_EQ(
      FlankPartner(t.state(), *t.state().Find("cy"), *t.state().Find("gob"), 5),
      "aria");
  // Opposite corners do as well: move bo away and put cy at (4,4)'s opposite.
  fb::RosterT r2 =
      MakeRoster({Being("aria", "party", 4, 4), Being("gob", "goblins", 5, 5),
                  Being("cy", "party", 6, 6)});
  Table u(D20ThreeAction(), r2, {15, 10, 2});
  EXPECT_EQ(FlankPartner(u.state(), *u.state().Find("aria"),
                         *u.state().Find("gob"), 5),
            "cy");
}

// Seed 000 l.109 "Creatures are considered to be on opposite sides of a
// Creature if you can draw a line between any two points in their space
// that crosses opposite sides of the Flanked Creature": any two points, not
// only the squares' centres. Around gob at (5,5): (4,4) and (6,5) flank (a
// line from (4.9, 5.0) to (6.1, 5.5) crosses x = 5 at y 5.04 and x = 6 at
// y 5.46); two creatures at the corners of one side, or at right angles, do
// not (no line between them passes through gob from a side to the opposite
// one). A large target: gob2 (2x2 at (5,5)) is flanked from (4,5) and
// (7,6), not from (4,4) and (7,4) (both above its top edge).
TEST(Advantage, FlankingUsesAnyTwoPointsOfTheFlankersSpaces) {
  auto flank = [](std::pair<int, int> a, std::pair<int, int> b,
                  int size = 1) {
    fb::CombatantSpecT t = Being("gob", "goblins", 5, 5);
    t.size = size;
    Table u(D20ThreeAction(),
            MakeRoster({Being("aria", "party", a.first, a.second),
                        Being("cy", "party", b.first, b.second), std::move(t)}),
            {15, 10, 2});
    EXPECT_TRUE(u.status().ok()) << u.status();
    const Combatant& aria = *u.state().Find("aria");
    return FlankPartner(u.state(), aria, *u.state().Find("gob"), 5) == "cy";
  };
  EXPECT_TRUE(flank({4, 5}, {6, 5}));   // straight across
  EXPECT_TRUE(flank({4, 4}, {6, 6}));   // opposite corners
  EXPECT_TRUE(flank({4, 4}, {6, 5}));   // a knight's move apart
  EXPECT_TRUE(flank({5, 4}, {6, 6}));
  EXPECT_FALSE(flank({4, 4}, {6, 4}));  // two corners of the top side
  EXPECT_FALSE(flank({4, 4}, {4, 6}));  // two corners of the left side
  EXPECT_FALSE(flank({4, 5}, {5, 4}));  // at right angles
  EXPECT_FALSE(flank({4, 5}, {4, 6}));  // the same side
  EXPECT_TRUE(flank({4, 5}, {7, 6}, 2));
  EXPECT_FALSE(flank({4, 4}, {7, 4}, 2));
}

// aria (a spear) and bo on opposite sides of gob (L109).
fb::RosterT AriaAndBoAroundGob() {
  fb::CombatantSpecT a = Being("aria", "party", 4, 5);
  Arm(a, "spear", "1d8", "melee");
  return MakeRoster({std::move(a), Being("bo", "party", 6, 5), Being("gob", "goblins", 5, 5)});
}

TEST(Advantage, FlankingRollsTwoDiceKeepingTheHighest) {
  Table t(D20ThreeAction(), AriaAndBoAroundGob(), {15, 14, 10});
  fb::CommandT c = Cmd("aria", "attack", {"gob"});
  c.weapon = "spear";
  auto ev = t.Submit(c, {3, 15, 2});  // 2d20kh1: 15 + 4 = 19
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "000.attack.melee", "total"), 19);
  bool found = false;
  for (const auto& e : *ev) {
    if (const auto* roll = e.event().body_as_Roll();
        roll && roll->purpose()->str() == "attack") {
      EXPECT_EQ(roll->expression()->str(), "2d20kh1+4");
      found = true;
    }
  }
  EXPECT_TRUE(found);
}

// Seed 000 l.109 "A Flanked Creature has two Enemies on opposites sides of
// it and is within both of their Reach": a Stunned (l.164) or Unconscious
// (l.168) Enemy is still an Enemy with its Reach, so bo, Stunned, still
// flanks gob with aria: 2d20kh1 = 15, + 1 + 3 = 19 vs 12, a hit (was: bo
// did not flank, one d20, 3 + 4 = 7, a miss). A Dead one does not (l.140).
TEST(Advantage, AStunnedOrUnconsciousEnemyStillFlanks) {
  Table t(D20ThreeAction(), AriaAndBoAroundGob(), {15, 14, 10});
  GmAdd(t, "bo", kStunned);
  fb::CommandT c = Cmd("aria", "attack", {"gob"});
  c.weapon = "spear";
  auto ev = t.Submit(c, {3, 15, 2});
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "000.attack.melee", "total"), 19);
  EXPECT_EQ(SourceOf(*ev, "adv.flanked"), "bo / 000.flanked");
  fb::CommandT wake = Gm("bo", "gm_condition", "test");
  WithText(wake, "name", kStunned);
  WithText(wake, "op", "remove");
  ASSERT_OK(t.Submit(wake));
  GmAdd(t, "bo", kUnconscious);
  EXPECT_TRUE(HasSource(EdgeOf(t, "aria", "gob").advantage, "flanked"));
  GmAdd(t, "bo", kDead);
  EXPECT_FALSE(HasSource(EdgeOf(t, "aria", "gob").advantage, "flanked"));
}

// Seed 000 l.109 "A Flanked Creature is Flat Footed against both of the
// flanking Creatures" with l.107 "Attacks against a Flat Footed Creature
// have Advantage": every Attack, ranged too; l.109 asks only that the
// flanked creature be within the flanker's Reach. aria (3,5), her glaive's
// Reach 10 ft, and bo (6,5) flank gob (5,5); her bow shot from 10 ft has
// Advantage (no l.31 Disadvantage at 10 ft): 2d20kh1 [4, 15] + Level 1 +
// DEX 2 = 18 >= 12, 1d6 = 5 (black-box pass 10: the reading, checked).
TEST(Advantage, AFlankersRangedAttackHasAdvantage) {
  fb::CombatantSpecT a = Being("aria", "party", 3, 5);
  Arm(a, "glaive", "1d10", "melee", "heavy", 10);
  Arm(a, "bow", "1d6", "ranged", "medium", 5, 30);
  Table t(D20ThreeAction(),
          MakeRoster({std::move(a), Being("bo", "party", 6, 5),
                      Being("gob", "goblins", 5, 5)}),
          {15, 14, 10});
  fb::CommandT c = Cmd("aria", "attack", {"gob"});
  c.weapon = "bow";
  auto ev = t.Submit(c, {4, 15, 5});
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "000.attack.ranged", "adv.flanked"), 1);
  EXPECT_EQ(NumOf(*ev, "000.attack.ranged", "edge"), 1);
  EXPECT_EQ(NumOf(*ev, "000.attack.ranged", "total"), 18);
  EXPECT_EQ(Res(t, "gob", kHp), 20 - 5);
}

// 000 l.105 "Subjective Conditions apply relative to the perspective of a
// specific Creature or Effect" and l.125 "Objective Conditions apply to
// you regardless of other circumstances" (l.107, l.53, l.160). aria (4,5)
// feints gob (5,5): d20 10 + Level 1 + STR 3 = 14 against Mental Defense
// 10, a success, not a critical (< 20): gob is Flat Footed against aria
// only: aria's attack has Advantage, bo's (at (9,9), no flank) none.
// Prone (objective): melee Attacks against gob have Advantage and Ranged
// ones Disadvantage, whoever makes them.
TEST(Advantage, SubjectiveConditionsAreRelativeObjectiveOnesAreNot) {
  Table t(D20ThreeAction(),
          MakeRoster({Being("aria", "party", 4, 5), Being("bo", "party", 9, 9),
                      Being("gob", "goblins", 5, 5)}),
          {15, 14, 10});
  ASSERT_EQ(t.state().active, "aria");
  ASSERT_OK(t.Submit(Cmd("aria", "feint", {"gob"}), {10}));
  EXPECT_TRUE(HasSource(EdgeOf(t, "aria", "gob").advantage, "flat_footed"));
  EXPECT_EQ(EdgeOf(t, "aria", "gob").mode(), 1);
  EXPECT_FALSE(HasSource(EdgeOf(t, "bo", "gob").advantage, "flat_footed"));
  EXPECT_EQ(EdgeOf(t, "bo", "gob").mode(), 0);
  GmAdd(t, "gob", "prone");
  EXPECT_TRUE(HasSource(EdgeOf(t, "bo", "gob").advantage, "target_prone"));
  EXPECT_TRUE(HasSource(EdgeOf(t, "aria", "gob").advantage, "target_prone"));
  EXPECT_TRUE(HasSource(EdgeOf(t, "bo", "gob", AttackKind::kRanged).disadvantage,
                        "target_prone"));
  EXPECT_TRUE(HasSource(
      EdgeOf(t, "aria", "gob", AttackKind::kRanged).disadvantage, "target_prone"));
}

TEST(Advantage, CoverFromCreaturesAndWalls) {
  fb::RosterT r =
      MakeRoster({Being("aria", "party", 0, 1), Being("gob", "goblins", 6, 1),
                  Being("orc", "goblins", 3, 1)});
  Table t(D20ThreeAction(), r, {15, 10, 5});
  EXPECT_TRUE(
      HasSource(EdgeOf(t, "aria", "gob", AttackKind::kRanged).disadvantage,
                "cover"));  // L121, L31
  fb::RosterT w =
      MakeRoster({Being("aria", "party", 0, 1), Being("gob", "goblins", 6, 1)});
  for (int y = 0; y < 3; ++y) Terrain(w, 3, y, "wall");
  Table u(D20ThreeAction(), w, {15, 10});
  const CoverResult full =
      CoverFrom(u.state(), {0, 1}, 1, *u.state().Find("gob"), "aria");
  EXPECT_TRUE(full.blocked);
  fb::CombatantSpecT archer = Being("aria", "party", 0, 1);
  Arm(archer, "bow", "1d6", "ranged", "medium", 5, 30);
  fb::RosterT w2 =
      MakeRoster({std::move(archer), Being("gob", "goblins", 6, 1)});
  for (int y = 0; y < 3; ++y) Terrain(w2, 3, y, "wall");
  Table v(D20ThreeAction(), w2, {15, 10});
  fb::CommandT shot = Cmd("aria", "attack", {"gob"});
  shot.weapon = "bow";
  auto out = v.Submit(shot);
  EXPECT_EQ(out.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(out.status().message().find("cannot be attacked"),
            std::string::npos);
  fb::RosterT p =
      MakeRoster({Being("aria", "party", 0, 1), Being("gob", "goblins", 6, 1)});
  Terrain(p, 3, 1, "cover");
  Table q(D20ThreeAction(), p, {15, 10});
  EXPECT_TRUE(
      CoverFrom(q.state(), {0, 1}, 1, *q.state().Find("gob"), "aria").cover);
}

// 000 l.121: "partially obscured by a Creature or Object of at least their
// Size ... it has Cover"; l.140 "A Creature dies": a dead creature (its
// body) still obscures (it gave no Cover before).
TEST(Advantage, ADeadCreatureStillGivesCover) {
  fb::RosterT r =
      MakeRoster({Being("aria", "party", 0, 1), Being("gob", "goblins", 6, 1),
                  Being("orc", "goblins", 3, 1)});
  Table t(D20ThreeAction(), r, {15, 10, 5});
  GmAdd(t, "orc", "dead");
  ASSERT_TRUE(Has(t, "orc", kDead));
  EXPECT_TRUE(
      HasSource(EdgeOf(t, "aria", "gob", AttackKind::kRanged).disadvantage,
                "cover"));
}

TEST(Advantage, IllusoryCoverIsAGmRuling) {
  fb::RosterT r =
      MakeRoster({Being("aria", "party", 0, 0), Being("gob", "goblins", 4, 0)});
  Table t(D20ThreeAction(), r, {15, 10});
  EXPECT_FALSE(HasSource(
      EdgeOf(t, "aria", "gob", AttackKind::kRanged).disadvantage, "cover"));
  GmAdd(t, "gob", "cover");
  EXPECT_TRUE(HasSource(
      EdgeOf(t, "aria", "gob", AttackKind::kRanged).disadvantage, "cover"));
}

TEST(Advantage, ConcealmentFromFogDarknessInvisibilityAndBlindness) {
  fb::RosterT r =
      MakeRoster({Being("aria", "party", 0, 0), Being("gob", "goblins", 4, 0)});
  Terrain(r, 2, 0, "fog");
  Table t(D20ThreeAction(), r, {15, 10});
  EXPECT_EQ(
      ConcealedFrom(t.state(), *t.state().Find("aria"), *t.state().Find("gob")),
      "fog");  // L91: fog between
  fb::RosterT d =
      MakeRoster({Being("aria", "party", 0, 0), Being("gob", "goblins", 4, 0)});
  Terrain(d, 4, 0, "darkness");
  Table u(D20ThreeAction(), d, {15, 10});
  EXPECT_EQ(
      ConcealedFrom(u.state(), *u.state().Find("aria"), *u.state().Find("gob")),
      "darkness");  // L87
  EXPECT_EQ(
      ConcealedFrom(u.state(), *u.state().Find("gob"), *u.state().Find("aria")),
      "");
  GmAdd(u, "gob", "invisible");
  GmAdd(u, "aria", "blinded");
  const Edge e = EdgeOf(u, "gob", "aria");
  EXPECT_TRUE(HasSource(e.advantage, "blinded"));  // L138: flat footed
  const Edge f = EdgeOf(u, "aria", "gob");
  EXPECT_EQ(f.mode(), -1);
}

TEST(Advantage, AnyAdvantageAndAnyDisadvantageCancel) {
  fb::RosterT r =
      MakeRoster({Being("aria", "party", 0, 0), Being("gob", "goblins", 1, 0)});
  Table t(D20ThreeAction(), r, {15, 10});
  GmAdd(t, "gob", "prone");
  GmAdd(t, "gob", "stunned");
  EXPECT_EQ(EdgeOf(t, "aria", "gob").mode(), 1);  // two sources: still 1
  GmAdd(t, "aria", "shaken");                     // L146
  const Edge e = EdgeOf(t, "aria", "gob");
  EXPECT_EQ(e.mode(), 0);
  EXPECT_TRUE(HasSource(e.disadvantage, "shaken"));
  EXPECT_TRUE(
      HasSource(EdgeOf(t, "aria", "gob", AttackKind::kRanged).disadvantage,
                "target_prone"));  // L160
  EXPECT_EQ(D20(1, 4), "2d20kh1+4");
  EXPECT_EQ(D20(-1, -2), "2d20kl1-2");
  EXPECT_EQ(D20(0, 0), "1d20+0");
}

TEST(Advantage, DodgeGivesTheNextAttackDisadvantageOnce) {
  fb::CombatantSpecT g = Being("gob", "goblins", 1, 0);
  Arm(g, "club", "1d6", "melee");
  fb::RosterT r = MakeRoster({Being("aria", "party", 0, 0), std::move(g)});
  Table t(D20ThreeAction(), r, {15, 10});
  ASSERT_OK(t.Submit(Cmd("aria", "dodge")));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  fb::CommandT c = Cmd("gob", "attack", {"aria"});
  c.weapon = "club";
  auto ev = t.Submit(c, {18, 3});  // kl1: 3 + 4 = 7, miss
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "000.attack.melee", "dis.dodge"), 1);
  EXPECT_FALSE(Has(t, "aria", kDodging));   // L45: used
  ASSERT_OK(t.Submit(c, {18, 3}));          // straight now: 22, critical
  EXPECT_EQ(Res(t, "aria", kHp), 20 - 12);  // (3 + 3) x 2
}

// 000 l.45: "You spend one Action to give the next Attack against you
// Disadvantage." No time limit: a Dodge not used this round still gives
// the next attack, a round later, Disadvantage.
TEST(Advantage, DodgeLastsUntilTheNextAttackEvenRoundsLater) {
  fb::CombatantSpecT g = Being("gob", "goblins", 1, 0);
  Arm(g, "club", "1d6", "melee");
  fb::RosterT r = MakeRoster({Being("aria", "party", 0, 0), std::move(g)});
  Table t(D20ThreeAction(), r, {15, 10});
  ASSERT_OK(t.Submit(Cmd("aria", "dodge")));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));  // round 2: aria's turn passed
  EXPECT_EQ(t.state().round, 2);
  EXPECT_TRUE(Has(t, "aria", kDodging));
  fb::CommandT c = Cmd("gob", "attack", {"aria"});
  c.weapon = "club";
  auto ev = t.Submit(c, {18, 3});  // kl1: 3 + 1 + 3 = 7 < 12, miss
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "000.attack.melee", "dis.dodge"), 1);
  EXPECT_EQ(NumOf(*ev, "000.attack.melee", "total"), 7);
  EXPECT_EQ(Res(t, "aria", kHp), 20);
  EXPECT_FALSE(Has(t, "aria", kDodging));
}

TEST(Advantage, HiddenAttackersMakeTheirTargetFlatFooted) {
  fb::RosterT r =
      MakeRoster({Being("aria", "party", 0, 0), Being("gob", "goblins", 1, 0)});
  Tag(*r.combatants[0], "undetected");
  Table t(D20ThreeAction(), r, {15, 10});
  EXPECT_TRUE(HasSource(EdgeOf(t, "aria", "gob").advantage, "attacker_hidden"));
}

}  // namespace
}  // namespace combat::kernel::d20
