// Cover (l.86-89) and flanking (l.91) through the attack tests; dash,
// grapple, search, sneak, free actions, initiative, unconsciousness.
#include <string>

#include "gtest/gtest.h"
#include "kernel/opposed_tests/test_util.h"

namespace combat::kernel::opposed::testutil {
namespace {

fb::CombatantSpecT Target(int x) {
  return Who("d", "y", x, 5, {{"health", 20}, {"speed", 6}, {"dodge", 1}, {"agi", 1}, {"initiative", -9}},
             {W("knife", "1d4", "melee", "light", {}, "piercing")});
}

// The attack pool of a's shot at d (at x = `target_x`) with `terrain` at
// `cell`; the defender's Dodge pool in `dodge_dice`.
int64_t ShotDice(const std::string& terrain, int64_t* dodge_dice, Pos cell = {7, 5},
                 int target_x = 8) {
  Table t(OpposedTests(), WithMap({Archer(), Target(target_x)}, {{cell, terrain}}), {6, 1});
  EXPECT_TRUE(t.status().ok()) << t.status();
  const auto ev = Exchange(t, "bow", "dodge");
  *dodge_dice = NumOf(ev, "defense.dice");
  return NumOf(ev, "attack.dice", 0);
}

TEST(Cover, LowAndHighCoverAgainstRangedAttacksAndDodge) {
  int64_t dodge = 0;
  // Fighting Style 4 + AGI 2 (ranged: Agility, l.44) = 6 dice.
  EXPECT_EQ(ShotDice("", &dodge), 6);
  EXPECT_EQ(dodge, 2);
  EXPECT_EQ(ShotDice("cover_low", &dodge), 6 - 2);  // l.87
  EXPECT_EQ(dodge, 2 + 2);
  EXPECT_EQ(ShotDice("cover_high", &dodge), 6 - 5);  // l.88
  EXPECT_EQ(dodge, 2 + 5);
}

// seed 003 l.87-88: "To gain low cover, an obstacle must protect at least
// half of the character's body"; "The gain high cover, an obstacle must
// protect at least three-quarters". A target behind both a cover_high square
// (4,5) and, nearer it, a cover_low one (7,5) on the same line has the better
// protection, high cover (black-box case: the square nearest the target
// decided, low cover: -2 / +2). By hand: the bow's pool is Fighting Style 4
// + AGI 2 = 6, less 5 = 1 die; Dodge 1 + AGI 1 = 2, plus 5 = 7 dice.
TEST(Cover, BehindHighCoverAndNearerLowCoverTheHighDecides) {
  Table t(OpposedTests(), WithMap({Archer(), Target(8)}, {{{4, 5}, "cover_high"}, {{7, 5}, "cover_low"}}),
          {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto s = Cmd("a", "strike", {"d"});
  s.weapon = "bow";
  ASSERT_TRUE(t.Submit(s).ok());
  auto dodge = Cmd("d", "defend");
  dodge.window = t.state().windows.begin()->first;
  WithText(dodge, "defense", "dodge");
  auto ev = t.Submit(dodge, {1, 1, 1, 1, 1, 1, 1, 1});  // 1 attack die, 7 Dodge dice
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "attack.dice"), 6 - 5);   // l.88, not 6 - 2
  EXPECT_EQ(NumOf(*ev, "defense.dice"), 2 + 5);  // l.88, not 2 + 2
  EXPECT_EQ(NumOf(*ev, "attack.cover"), -5);
  EXPECT_EQ(Number(*ev, "attack.cover").source, "cover_high at 4,5");  // what gives it
  EXPECT_TRUE(Cites(*ev, "003.result.both_fail"));
}

// The attack pool of a's shot from (2,5) at a 2x2 d (8,5)-(9,6), Dodge 1 +
// AGI 1, with `cells` on the map; the cover's source in `source`.
int64_t BigShot(std::vector<std::pair<Pos, std::string>> cells, std::string* source) {
  auto big = Who("d", "y", 8, 5,
                 {{"health", 20}, {"speed", 6}, {"dodge", 1}, {"agi", 1}, {"initiative", -9}, {"size_class", 3}},
                 {W("knife", "1d4", "melee", "light", {}, "piercing")});
  big.size = 2;
  Table t(OpposedTests(), WithMap({Archer(), std::move(big)}, std::move(cells)), {6, 1});
  EXPECT_TRUE(t.status().ok()) << t.status();
  const auto ev = Exchange(t, "bow", "dodge");
  *source = Number(ev, "attack.cover").source;
  return NumOf(ev, "attack.dice", 0);
}

// seed 003 l.87: "To gain low cover, an obstacle must protect at least half
// of the character's body, like a waist-high wall." The half boundary for the
// 2x2 d (8,5)-(9,6) shot from (2,5), each of its twenty lines a twentieth of
// its body (reading, README row 86-89). By hand: cover_low at (7,5) and (7,6),
// half of every line: 20 x 1/2 = 10 of 20, exactly half: low, 6 - 2 = 4
// dice; cover_low at (7,5) only (11 lines): 5.5 of 20, under half: none, 6
// dice; a wall at (7,6) before the lower row (10 lines): 10 of 20, exactly
// half: low, 4 dice; a wall at (7,5) and cover_low at (7,6): 11 + 9 x 1/2 =
// 15.5 of 20, at least three-quarters: high, 6 - 5 = 1 die.
TEST(Cover, ALargeTargetHalfProtectedHasLowCoverUnderHalfNone) {
  std::string source;
  EXPECT_EQ(BigShot({{{7, 5}, "cover_low"}, {{7, 6}, "cover_low"}}, &source), 6 - 2);
  EXPECT_EQ(source, "cover_low at 7,5");
  EXPECT_EQ(BigShot({{{7, 5}, "cover_low"}}, &source), 6);
  EXPECT_EQ(source, "");
  EXPECT_EQ(BigShot({{{7, 6}, "wall"}}, &source), 6 - 2);
  EXPECT_EQ(source, "wall at 7,6");
  EXPECT_EQ(BigShot({{{7, 5}, "wall"}, {{7, 6}, "cover_low"}}, &source), 6 - 5);
  EXPECT_EQ(source, "cover_low at 7,6 and wall at 7,5");  // both give it
}

// seed 003 l.88: "The gain high cover, an obstacle must protect at least
// three-quarters of the character's body"; l.87 "at least half" for low.
// A 2x2 target (8,5)-(9,6) shot from (2,5): each of its twenty lines (five
// points of each square) stands for a twentieth of the body; a line crossing
// a cover_high square is protected three-quarters. By hand: cover_high at
// (5,6) crosses 5 lines: 5 x 3/4 = 3.75 of 20, under half: no cover, 6 dice
// (Fighting Style 4 + AGI 2); at (7,5), in front of its upper row, 11
// lines: 8.25 of 20, under half: no cover; at (7,5) and (7,6), every line:
// 15 of 20, three-quarters: high, 6 - 5 = 1 die. (Black-box case: a
// cover_high square on any one line gave high cover, 1 die, to all three.)
TEST(Cover, ALargeTargetPartlyBehindHighCoverIsNotThreeQuartersProtected) {
  std::string source;
  EXPECT_EQ(BigShot({{{5, 6}, "cover_high"}}, &source), 6);
  EXPECT_EQ(BigShot({{{7, 5}, "cover_high"}}, &source), 6);
  EXPECT_EQ(BigShot({{{7, 5}, "cover_high"}, {{7, 6}, "cover_high"}}, &source), 6 - 5);
  EXPECT_NE(source.find("cover_high at 7,"), std::string::npos) << source;
}

// seed 003 l.86: "Standing behind an obstacle can benefit the target of
// ranged attack"; l.88: high cover "like an arrowslit" protects the one
// behind it. A cover_high square beside the archer (3,5), 5 m from the
// target (8,5), is the archer's to shoot over: the target has no cover, 6
// attack dice (Fighting Style 4 + AGI 2), Dodge 1 + AGI 1 = 2 (black-box
// case: the map counted it, -5 / +5: 1 and 7 dice). The same square with
// the target beside it (4,5) is the target's: high cover, 1 and 7 dice.
TEST(Cover, AnObstacleBesideTheAttackerGivesTheTargetNoCover) {
  int64_t dodge = 0;
  EXPECT_EQ(ShotDice("cover_high", &dodge, {3, 5}, 8), 6);  // l.86: not behind it
  EXPECT_EQ(dodge, 2);
  EXPECT_EQ(ShotDice("cover_high", &dodge, {3, 5}, 4), 6 - 5);  // l.88: standing behind it
  EXPECT_EQ(dodge, 2 + 5);
}

// 003 l.86: "Standing behind an obstacle can benefit the target of ranged
// attack." Reading (README row 86-89): an obstacle midway, near neither side
// (cover_low at 5,5: 3 m from the archer at 2,5 and from the target at 8,5),
// still covers the target, which stands behind it as seen from the archer.
// By hand: bow 6 dice - 2 = 4 (l.87); Dodge 2 + 2 = 4.
TEST(Cover, AnObstacleMidwayStillGivesCover) {
  int64_t dodge = 0;
  EXPECT_EQ(ShotDice("cover_low", &dodge, {5, 5}, 8), 6 - 2);
  EXPECT_EQ(dodge, 2 + 2);
}

// The GM may rule the cover (Set the Stage, l.15) with a condition
// "Cover" of level 1 low, 2 high, 3 full on the target: it overrules the map.
TEST(Cover, TheGmRulesHighCoverByCondition) {
  Table t(OpposedTests(), WithMap({Archer(), Target(8)}, {}), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto cover = Gm("gm_condition", "d", "behind the cart");
  WithText(cover, "name", "Cover");
  WithText(cover, "op", "add");
  With(cover, "level", 2);
  ASSERT_TRUE(t.Submit(cover).ok());
  auto s = Cmd("a", "strike", {"d"});
  s.weapon = "bow";
  ASSERT_TRUE(t.Submit(s).ok());
  auto dodge = Cmd("d", "defend");
  dodge.window = t.state().windows.begin()->first;
  WithText(dodge, "defense", "dodge");
  auto ev = t.Submit(dodge, {1, 1, 1, 1, 1, 1, 1, 1});  // 1 attack die, 7 Dodge dice
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "attack.dice"), 6 - 5);   // l.88
  EXPECT_EQ(NumOf(*ev, "defense.dice"), 2 + 5);  // l.88
}

// seed 003 l.86: "Standing behind an obstacle can benefit the target": the
// GM's Cover (l.88 high) is ruled for where d stands. d walks 1 m on its
// turn (8,5 -> 8,4): it no longer stands there, and a's shot in round 2 has
// no cover, 6 attack dice and Dodge 2 (black-box case: the ruling stayed,
// 1 and 7 dice). Moved by the GM (a gm_move), likewise.
TEST(Cover, TheGmsCoverEndsWhenTheTargetMoves) {
  auto shot = [](Table& t) {
    auto s = Cmd("a", "strike", {"d"});
    s.weapon = "bow";
    EXPECT_TRUE(t.Submit(s).ok());
    auto dodge = Cmd("d", "defend");
    dodge.window = t.state().windows.begin()->first;
    WithText(dodge, "defense", "dodge");
    auto ev = t.Submit(dodge, {1, 1, 1, 1, 1, 1, 1, 1});  // 8 dice either way: both fail
    EXPECT_TRUE(ev.ok()) << ev.status();
    return std::make_pair(NumOf(*ev, "attack.dice", 0), NumOf(*ev, "defense.dice", 0));
  };
  auto rule_cover = [](Table& t) {
    auto cover = Gm("gm_condition", "d", "behind the cart");
    WithText(cover, "name", "Cover");
    WithText(cover, "op", "add");
    With(cover, "level", 2);
    ASSERT_TRUE(t.Submit(cover).ok());
  };
  {
    Table t(OpposedTests(), WithMap({Archer(), Target(8)}, {}), {6, 1});
    ASSERT_TRUE(t.status().ok()) << t.status();
    rule_cover(t);
    EXPECT_EQ(shot(t), std::make_pair(int64_t{6 - 5}, int64_t{2 + 5}));  // l.88, still there
    ASSERT_TRUE(t.Submit(Cmd("a", "end_turn")).ok());
    auto walk = Cmd("d", "move");
    walk.path.emplace_back(8, 4);
    ASSERT_TRUE(t.Submit(walk).ok());
    EXPECT_FALSE(t.state().Find("d")->Has("Cover"));
    ASSERT_TRUE(t.Submit(Cmd("d", "end_turn")).ok());
    EXPECT_EQ(shot(t), std::make_pair(int64_t{6}, int64_t{2}));  // l.86: not behind the cart
  }
  {
    Table t(OpposedTests(), WithMap({Archer(), Target(8)}, {}), {6, 1});
    ASSERT_TRUE(t.status().ok()) << t.status();
    rule_cover(t);
    auto away = Gm("gm_move", "d", "steps into the open");
    Path(away, {{9, 5}});
    ASSERT_TRUE(t.Submit(away).ok());
    EXPECT_EQ(shot(t), std::make_pair(int64_t{6}, int64_t{2}));
  }
}

// 003 l.89: "Ranged attacks against a target with full cover automatically
// fail." The GM rules high cover (l.88), then full cover: the later ruling
// decides (black-box case: the first one was used, -5 dice instead of the
// automatic failure).
TEST(Cover, ALaterGmRulingOverrulesAnEarlierOne) {
  Table t(OpposedTests(), WithMap({Archer(), Target(8)}, {}), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  for (int level : {2, 3}) {
    auto cover = Gm("gm_condition", "d", "behind the cart");
    WithText(cover, "name", "Cover");
    WithText(cover, "op", "add");
    With(cover, "level", level);
    ASSERT_TRUE(t.Submit(cover).ok());
  }
  const auto ev = Exchange(t, "bow", "none", {});
  EXPECT_EQ(NumOf(ev, "attack.automatic_fail"), 1);  // l.89, not 6 - 5 dice
  EXPECT_TRUE(Cites(ev, "003.result.both_fail"));
}

TEST(Cover, FullCoverAttackAutomaticallyFails) {  // l.89
  Table t(OpposedTests(),
          WithMap({Archer(), Target(8)}, {{{7, 4}, "wall"}, {{7, 5}, "wall"}, {{7, 6}, "wall"}}), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  const auto ev = Exchange(t, "bow", "none", {});
  EXPECT_EQ(NumOf(ev, "attack.automatic_fail"), 1);
  EXPECT_TRUE(Cites(ev, "003.result.both_fail"));
}

TEST(Flanking, AnAllyOnTheStraightLineGivesPlusTwo) {  // l.91
  auto a = Who("a", "x", 4, 5, {{"health", 20}, {"speed", 6}, {"fighting_style", 1}},
               {W("club", "1d6", "melee", "medium", {}, "crushing")});
  auto b = Who("b", "x", 6, 5, {{"health", 20}, {"speed", 6}, {"initiative", -8}},
               {W("club", "1d6", "melee", "medium", {}, "crushing")});
  Table t(OpposedTests(), Roster({std::move(a), std::move(b), Target(5)}), {6, 1, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  const auto ev = Exchange(t, "club", "none", {1, 1, 1});
  EXPECT_EQ(NumOf(ev, "attack.flanking"), 2);
  EXPECT_EQ(NumOf(ev, "attack.dice"), 1 + 2);
}

// 003 l.91: "When at least two allied characters have a foe in their reach
// between them, such that one could draw a straight line and connect all
// three characters, the foe is flanked." l.93: "Unarmed fighting is included
// in this as well." Black-box case: b, beside d with no weapon (unarmed, or
// disarmed), did not flank: a struck d with 1 die. By hand: Fighting Style 1
// + STR 0 = 1 die, +2 flanked (b's unarmed reach, 1 m, holds d) = 3.
TEST(Flanking, AnUnarmedAllyBesideTheFoeFlanks) {
  auto a = Who("a", "x", 4, 5, {{"health", 20}, {"speed", 6}, {"fighting_style", 1}},
               {W("club", "1d6", "melee", "medium", {}, "crushing")});
  auto b = Who("b", "x", 6, 5, {{"health", 20}, {"speed", 6}, {"initiative", -8}}, {});
  Table t(OpposedTests(), Roster({std::move(a), std::move(b), Target(5)}), {6, 1, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  const auto ev = Exchange(t, "club", "none", {1, 1, 1});
  EXPECT_EQ(NumOf(ev, "attack.dice"), 1 + 2);
  EXPECT_EQ(Number(ev, "attack.flanking").source, "flanked by a and b");
}

// 003 l.91: "When at least two allied characters have a foe in their reach
// between them [...] Fighting Style and Sorcery tests made to make a melee
// attack against a flanked foe gain a +2 bonus." Black-box case: b, whose
// one melee attack is a spell with the Melee Attack trait and a reach of
// 2 m, 2 m from d on the line a-d-b, did not flank: a struck d with 1 die.
// By hand: Fighting Style 1 + STR 0 = 1 die, +2 flanked = 3.
TEST(Flanking, AnAllyWithAMeleeAttackSpellReachingTheFoeFlanks) {
  auto a = Who("a", "x", 4, 5, {{"health", 20}, {"speed", 6}, {"fighting_style", 1}},
               {W("club", "1d6", "melee", "medium", {}, "crushing")});
  auto b = Who("b", "x", 7, 5, {{"health", 20}, {"speed", 6}, {"initiative", -8}, {"sorcery", 1}},
               {W("spike", "1d6", "spell", "", {{"attack", 1}, {"melee_attack", 1}, {"reach", 2}}, "psychic")});
  Table t(OpposedTests(), Roster({std::move(a), std::move(b), Target(5)}), {6, 1, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  const auto ev = Exchange(t, "club", "none", {1, 1, 1});
  EXPECT_EQ(NumOf(ev, "attack.dice"), 1 + 2);
  EXPECT_EQ(Number(ev, "attack.flanking").source, "flanked by a and b");
}

// 003 l.91: "When at least two allied characters have a foe in their reach
// between them, such that one could draw a straight line and connect all
// three characters, the foe is flanked. Fighting Style and Sorcery tests
// made to make a melee attack against a flanked foe gain a +2 bonus."
// Black-box case: b and c flank d on a line; their ally a, above d, struck
// d with 3 dice (no bonus): flanked is the foe's state, not only the
// flankers' own attacks.
TEST(Flanking, AThirdAllyStrikingAFlankedFoeGainsPlusTwo) {
  auto club = [] { return W("club", "1d6", "melee", "medium", {}, "crushing"); };
  auto a = Who("a", "x", 6, 4, {{"health", 20}, {"speed", 6}, {"fighting_style", 1}}, {club()});
  auto b = Who("b", "x", 5, 5, {{"health", 20}, {"speed", 6}, {"initiative", -8}}, {club()});
  auto c = Who("c", "x", 7, 5, {{"health", 20}, {"speed", 6}, {"initiative", -8}}, {club()});
  Table t(OpposedTests(), Roster({std::move(a), std::move(b), std::move(c), Target(6)}), {6, 1, 1, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  const auto ev = Exchange(t, "club", "none", {1, 1, 1});
  EXPECT_EQ(NumOf(ev, "attack.dice"), 1 + 2);
  const Seen n = Number(ev, "attack.flanking");
  EXPECT_EQ(n.value, 2);
  EXPECT_EQ(n.source, "flanked by b and c");
}

// 003 l.91: "Fighting Style and Sorcery tests made to make a melee attack
// against a flanked foe gain a +2 bonus." A caster's Melee Attack spell on a
// foe flanked by it and its ally: by hand, Sorcery 1 + WIL 0 = 1 die, +2 = 3
// dice (the defense, a Dodge: Dodge 1 + AGI 1 = 2 dice, no bonus).
TEST(Flanking, AMeleeAttackSpellOnAFlankedFoeGainsPlusTwo) {
  auto a = Who("a", "x", 4, 5, {{"health", 20}, {"speed", 6}, {"sorcery", 1}},
               {W("spike", "1d6", "spell", "", {{"attack", 1}, {"melee_attack", 1}}, "psychic")});
  auto b = Who("b", "x", 6, 5, {{"health", 20}, {"speed", 6}, {"initiative", -8}},
               {W("club", "1d6", "melee", "medium", {}, "crushing")});
  Table t(OpposedTests(), Roster({std::move(a), std::move(b), Target(5)}), {6, 1, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto s = Cmd("a", "use_magic", {"d"});
  s.weapon = "spike";
  ASSERT_TRUE(t.Submit(s).ok());
  auto dodge = Cmd("d", "defend");
  dodge.window = t.state().windows.begin()->first;
  WithText(dodge, "defense", "dodge");
  auto ev = t.Submit(dodge, {1, 1, 1, 1, 1});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "attack.dice"), 1 + 2);
  EXPECT_EQ(NumOf(*ev, "defense.dice"), 2);
  EXPECT_EQ(Number(*ev, "attack.flanking").source, "flanked by a and b");
}

// 003 l.91: the +2 is for tests "made to make a melee attack against a
// flanked foe": a bow shot at d, flanked by the archer (beside it, unarmed
// reach, l.93) and b, gains nothing. By hand: Fighting Style 4 + AGI 2
// (ranged: Agility, l.44) = 6 dice, no flanking; Dodge 1 + AGI 1 = 2 dice.
TEST(Flanking, ARangedAttackOnAFlankedFoeGainsNothing) {
  auto bow = W("bow", "1d6", "ranged", "", {}, "piercing");
  bow.range_increment = 30;
  auto a = Who("a", "x", 4, 5, {{"health", 20}, {"speed", 6}, {"fighting_style", 4}, {"agi", 2}}, {bow});
  auto b = Who("b", "x", 6, 5, {{"health", 20}, {"speed", 6}, {"initiative", -8}},
               {W("club", "1d6", "melee", "medium", {}, "crushing")});
  Table t(OpposedTests(), Roster({std::move(a), std::move(b), Target(5)}), {6, 1, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  const auto ev = Exchange(t, "bow", "dodge");
  EXPECT_EQ(NumOf(ev, "attack.dice"), 6);
  EXPECT_EQ(NumOf(ev, "attack.flanking", 0), 0);
  EXPECT_EQ(NumOf(ev, "defense.dice"), 2);
}

// 003 l.81: "An opportunity attack is a special kind of melee Strike"; l.91:
// "Fighting Style [...] tests made to make a melee attack against a flanked
// foe gain a +2 bonus." d, between a and b on a line, casts ward (no Melee
// Attack trait: provokes, l.83); a's opportunity attack is a melee attack on
// a flanked foe. By hand: Fighting Style 1 + STR 0 = 1 die, +2 = 3 dice.
TEST(Flanking, AnOpportunityAttackOnAFlankedFoeGainsPlusTwo) {
  auto club = [] { return W("club", "1d6", "melee", "medium", {}, "crushing"); };
  auto a = Who("a", "x", 5, 5, {{"health", 20}, {"speed", 6}, {"fighting_style", 1}, {"initiative", -8}}, {club()});
  auto b = Who("b", "x", 7, 5, {{"health", 20}, {"speed", 6}, {"initiative", -8}}, {club()});
  auto d = Who("d", "y", 6, 5, {{"health", 20}, {"speed", 6}, {"initiative", 5}}, {W("ward", "", "spell", "", {}, "")});
  Table t(OpposedTests(), Roster({std::move(a), std::move(b), std::move(d)}), {1, 1, 6});
  ASSERT_TRUE(t.status().ok()) << t.status();
  ASSERT_EQ(t.state().active, "d");
  auto cast = Cmd("d", "use_magic");
  cast.weapon = "ward";
  ASSERT_TRUE(t.Submit(cast).ok());
  ASSERT_EQ(t.state().windows.size(), 1u);  // casting in reach provokes (l.83)
  auto oa = Cmd("a", "opportunity_attack");
  oa.window = t.state().windows.begin()->first;
  oa.weapon = "club";
  ASSERT_TRUE(t.Submit(oa).ok());
  auto none = Cmd("d", "defend");
  none.window = t.state().windows.rbegin()->first;
  WithText(none, "defense", "none");
  auto ev = t.Submit(none, {1, 1, 1});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "attack.dice"), 1 + 2);
  EXPECT_EQ(Number(*ev, "attack.flanking").source, "flanked by a and b");
}

TEST(Flanking, NotOnAStraightLine) {
  auto a = Who("a", "x", 4, 5, {{"health", 20}, {"speed", 6}, {"fighting_style", 1}},
               {W("club", "1d6", "melee", "medium", {}, "crushing")});
  auto b = Who("b", "x", 5, 4, {{"health", 20}, {"speed", 6}, {"initiative", -8}},
               {W("club", "1d6", "melee", "medium", {}, "crushing")});
  Table t(OpposedTests(), Roster({std::move(a), std::move(b), Target(5)}), {6, 1, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  const auto ev = Exchange(t, "club", "none", {1});
  EXPECT_EQ(NumOf(ev, "attack.dice"), 1);
}

// a (club, Dodge 1, AGI 1, STR 1) at (5,5) and d (axe, Fighting Style 2,
// STR 2) at (6,5), a acting first.
fb::RosterT ClubAndAxe() {
  return Roster({Who("a", "x", 5, 5, {{"health", 20}, {"speed", 6}, {"str", 1}, {"agi", 1}, {"dodge", 1},
                                      {"initiative", 5}},
                     {W("club", "1d6", "melee", "medium", {}, "crushing")}),
                 Who("d", "y", 6, 5, {{"health", 20}, {"speed", 6}, {"fighting_style", 2}, {"str", 2},
                                      {"initiative", -9}},
                     {W("axe", "1d10", "melee", "heavy", {}, "slashing")})});
}

// a walks west, (4,5) then (3,5): its first step leaves the reach of the
// axes east of it (d at 6,5; e at 6,6), so an opportunity window holds the
// move (l.81-82).
void AWalksOutOfReach(Table& t) {
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto move = Cmd("a", "move");
  Path(move, {{4, 5}, {3, 5}});
  ASSERT_TRUE(t.Submit(move).ok());
  ASSERT_EQ(t.state().windows.size(), 1u);
}

// d answers the opportunity window just opened with its axe and a, dodging,
// fails (d: Fighting Style 2 + STR 2 = 4 dice: 1 Success; a: Dodge 1 +
// AGI 1 = 2: none): the maneuver window is open for d (l.67).
void AxeOpportunityWins(Table& t) {
  auto oa = Cmd("d", "opportunity_attack");
  oa.window = t.state().windows.begin()->first;
  oa.weapon = "axe";
  ASSERT_TRUE(t.Submit(oa).ok());
  auto dodge = Cmd("a", "defend");
  dodge.window = t.state().windows.rbegin()->first;
  WithText(dodge, "defense", "dodge");
  ASSERT_TRUE(t.Submit(dodge, {5, 1, 1, 1, 1, 1}).ok());
  ASSERT_EQ(t.state().windows.rbegin()->second.kind, "maneuver");
}

fb::RosterT Two() {
  return Roster({Who("a", "x", 2, 2, {{"health", 5}, {"speed", 3}, {"athletics", 1}, {"observation", 1},
                                      {"stealth", 1}, {"initiative", 1}},
                     {W("club", "1d6", "melee", "medium", {}, "crushing")}),
                 Who("d", "y", 3, 2, {{"health", 5}, {"speed", 3}, {"athletics", 1}, {"acrobatics", 2}, {"per", 1}},
                     {W("club", "1d6", "melee", "medium", {}, "crushing")}, {"npc"})});
}

TEST(Initiative, TiesGoToTheHigherBonusThenId) {  // l.10-11
  // a: 3 + Initiative 1 = 4; d (NPC): 3 + PER 1 = 4; tie, equal bonus: id.
  Table t(OpposedTests(), Two(), {3, 3});
  ASSERT_TRUE(t.status().ok()) << t.status();
  EXPECT_EQ(t.state().order[0].actor, "a");
  EXPECT_EQ(t.state().order[0].initiative, 4);
  EXPECT_EQ(t.state().order[1].initiative, 4);
}

// 003 l.12: "When the active character has resolved their turn, the
// character with the next highest initiative gets their turn, and so on
// until all characters have had a turn. After all character's have had
// their turn, a new round begins." By hand: a 1 + 5 = 6, b 1 + 3 = 4,
// c 1 + 1 = 2: a, b, c in round 1; round 2 begins with a, 3 AP each
// (l.11), the AP b spent in round 1 regained (l.19).
TEST(Initiative, TheNextHighestActsNextThenANewRound) {
  auto who = [](const char* id, int x, int init) {
    return Who(id, id, x, 2, {{"health", 5}, {"speed", 3}, {"initiative", init}},
               {W("club", "1d6", "melee", "medium", {}, "crushing")});
  };
  Table t(OpposedTests(), Roster({who("c", 2, 1), who("a", 6, 5), who("b", 10, 3)}), {1, 1, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  EXPECT_EQ(t.state().round, 1);
  ASSERT_EQ(t.state().active, "a");
  ASSERT_TRUE(t.Submit(Cmd("a", "end_turn")).ok());
  ASSERT_EQ(t.state().active, "b");
  ASSERT_TRUE(t.Submit(Cmd("b", "search")).ok());  // Observation 0 + PER 0: no dice
  EXPECT_EQ(t.state().Find("b")->Resource("ap"), 2);
  ASSERT_TRUE(t.Submit(Cmd("b", "end_turn")).ok());
  ASSERT_EQ(t.state().active, "c");
  EXPECT_EQ(t.state().round, 1);
  ASSERT_TRUE(t.Submit(Cmd("c", "end_turn")).ok());
  EXPECT_EQ(t.state().round, 2);
  EXPECT_EQ(t.state().active, "a");
  for (const char* id : {"a", "b", "c"}) EXPECT_EQ(t.state().Find(id)->Resource("ap"), 3) << id;
}

// 003 l.17: "Roll Initiative. The turn order is determined, by making an
// initiative roll as described above." l.18-19: each round every character
// has 3 AP and at most two Attacks; "Each character regains their spent
// AP." l.20: "Encounter Ends. Repeat steps 4 and 5 until the conflict is
// resolved." By hand: a 2 + 4 = 6 before b 2 + 0 = 2, rolled once, at
// set-up: the same order every round. Round 1: a strikes twice (AP 1,
// attacks 2), b's defense fails with no dice; round 2: AP 3, attacks 0
// again; round 3 likewise (the steps repeat). Then the GM rules the
// conflict resolved (gm_end): no round 4, every act refused.
TEST(Initiative, RoundsRepeatWithTheOrderRolledOnceUntilTheGmEndsTheEncounter) {
  Table t(OpposedTests(),
          Roster({Who("a", "x", 5, 5, {{"health", 20}, {"speed", 6}, {"initiative", 4}},
                      {W("club", "1d6", "melee", "medium", {}, "crushing")}),
                  Who("b", "y", 6, 5, {{"health", 20}, {"speed", 6}},
                      {W("club", "1d6", "melee", "medium", {}, "crushing")})}),
          {2, 2});
  ASSERT_TRUE(t.status().ok()) << t.status();
  ASSERT_EQ(t.state().order.size(), 2u);
  EXPECT_EQ(t.state().order[0].actor, "a");
  EXPECT_EQ(t.state().order[0].initiative, 6);
  EXPECT_EQ(t.state().order[1].initiative, 2);
  for (int strike = 0; strike < 2; ++strike) {
    auto s = Cmd("a", "strike", {"b"});
    s.weapon = "club";
    ASSERT_TRUE(t.Submit(s).ok());
    auto none = Cmd("b", "defend");
    none.window = t.state().windows.begin()->first;
    WithText(none, "defense", "none");
    ASSERT_TRUE(t.Submit(none).ok());  // a's pool: 0 dice; both fail
  }
  EXPECT_EQ(t.state().Find("a")->Resource("ap"), 1);
  EXPECT_EQ(t.state().Find("a")->Resource("attacks"), 2);
  for (int round = 2; round <= 3; ++round) {
    ASSERT_TRUE(t.Submit(Cmd("a", "end_turn")).ok());
    ASSERT_EQ(t.state().active, "b");
    ASSERT_TRUE(t.Submit(Cmd("b", "end_turn")).ok());
    EXPECT_EQ(t.state().round, round);
    EXPECT_EQ(t.state().active, "a") << "the order rolled at set-up (l.17)";
    EXPECT_EQ(t.state().Find("a")->Resource("ap"), 3) << round;
    EXPECT_EQ(t.state().Find("a")->Resource("attacks"), 0) << round;
  }
  ASSERT_TRUE(t.Submit(Gm("gm_end", "", "the conflict is resolved")).ok());
  EXPECT_TRUE(t.state().ended);
  EXPECT_FALSE(t.Submit(Cmd("a", "end_turn")).ok());
  EXPECT_EQ(t.state().round, 3);
}

// The first round's order of `pc`, which ann plays, and `gm`, which the
// roster gives no player (the GM runs it), with the set-up's dice `dice`.
absl::StatusOr<std::vector<OrderEntry>> OrderOfAnnsAndTheGms(fb::CombatantSpecT pc,
                                                              fb::CombatantSpecT gm,
                                                              std::vector<int> dice) {
  pc.player = "ann";
  std::vector<fb::CombatantSpecT> cs;
  cs.push_back(std::move(pc));
  cs.push_back(std::move(gm));
  Table t(OpposedTests(), kernel::testing::MakeRoster("opposed_tests", std::move(cs), 20, 20),
          std::move(dice));
  if (!t.status().ok()) return t.status();
  return t.state().order;
}

// 003 l.10: "Non-player characters (NPCs) are under the control of the GM
// and roll 1d6 + PER." A roster naming players (schema 7) gives g none: the
// GM runs it, so it rolls as an NPC without the tag "npc" (the old code
// rolled it 1d6 + Initiative): a (ann's) 3 + Initiative 1 = 4; g 3 + PER 3
// = 6: g first.
// 003 l.16: "Observing characters are surprised if the fail the contest,
// losing their first turn in the initiative structure. During this round
// their turn is skipped"; l.12: "After all character's have had their turn,
// a new round begins." With every combatant surprised (the GM's tag), round
// 1 has no turn to play: it ends and round 2 begins with the highest
// initiative (a: 6 + 5 = 11; d: 1 + 0 = 1), 3 AP each and no Surprised
// left. Black-box case: the encounter stayed in round 1 with nobody
// active, every act refused.
TEST(Initiative, WithEveryoneSurprisedRoundTwoBegins) {
  Table t(OpposedTests(),
          Roster({Who("a", "x", 2, 2, {{"health", 5}, {"speed", 3}, {"initiative", 5}},
                      {W("club", "1d6", "melee", "medium", {}, "crushing")}, {"surprised"}),
                  Who("d", "y", 6, 6, {{"health", 5}, {"speed", 3}},
                      {W("club", "1d6", "melee", "medium", {}, "crushing")}, {"surprised"})}),
          {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  EXPECT_EQ(t.state().round, 2);
  EXPECT_EQ(t.state().active, "a");
  EXPECT_FALSE(t.state().Find("a")->Has("Surprised"));
  EXPECT_FALSE(t.state().Find("d")->Has("Surprised"));
  EXPECT_EQ(t.state().Find("d")->Resource("ap"), 3);
  ASSERT_TRUE(t.Submit(Cmd("a", "end_turn")).ok());
  EXPECT_EQ(t.state().active, "d");
}

TEST(Initiative, ACombatantTheGmRunsRollsAsAnNpc) {
  auto order = OrderOfAnnsAndTheGms(
      Who("a", "x", 2, 2, {{"health", 5}, {"speed", 3}, {"initiative", 1}, {"per", 0}}),
      Who("g", "y", 5, 2, {{"health", 5}, {"speed", 3}, {"initiative", 0}, {"per", 3}}), {3, 3});
  ASSERT_TRUE(order.ok()) << order.status();
  ASSERT_EQ(order->size(), 2u);
  EXPECT_EQ((*order)[0].actor, "g");
  EXPECT_EQ((*order)[0].initiative, 6);
  EXPECT_EQ((*order)[1].initiative, 4);
}

// 003 l.10: "each player character rolls 1d6 + their Initiative.
// Non-player characters (NPCs) are under the control of the GM and roll
// 1d6 + PER." p is tagged "npc" but ann plays it: not under the GM's
// control, a player character: 2 + Initiative 4 = 6 (the old code let the
// tag win: 2 + PER 1 = 3); g (the GM's) 3 + PER 2 = 5: p first.
TEST(Initiative, ACombatantAPlayerRunsRollsAsAPlayerCharacterDespiteTheTag) {
  auto order = OrderOfAnnsAndTheGms(
      Who("p", "x", 2, 2, {{"health", 5}, {"speed", 3}, {"initiative", 4}, {"per", 1}}, {}, {"npc"}),
      Who("g", "y", 5, 2, {{"health", 5}, {"speed", 3}, {"initiative", 0}, {"per", 2}}), {2, 3});
  ASSERT_TRUE(order.ok()) << order.status();
  ASSERT_EQ(order->size(), 2u);
  EXPECT_EQ((*order)[0].actor, "p");
  EXPECT_EQ((*order)[0].initiative, 6);
  EXPECT_EQ((*order)[1].initiative, 5);
}

// 003 l.28: "Grapple. You use a free hand to hold your foe, prohibiting
// them from moving." An ally is no foe: grappling b (a's side) is refused
// citing the rule, nothing is written, no AP spent (the old code held the
// ally); the foe d may be grappled.
TEST(Actions, AGrappleHoldsAFoeNotAnAlly) {
  Table t(OpposedTests(),
          Roster({Who("a", "x", 2, 2, {{"health", 5}, {"speed", 3}, {"athletics", 1}, {"initiative", 5}}),
                  Who("b", "x", 2, 3, {{"health", 5}, {"speed", 3}}),
                  Who("d", "y", 3, 2, {{"health", 5}, {"speed", 3}}, {}, {"npc"})}),
          {6, 1, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  ASSERT_EQ(t.state().active, "a");
  auto st = t.Submit(Cmd("a", "grapple", {"b"})).status();
  EXPECT_EQ(st.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(std::string(st.message()).find("foe"), std::string::npos) << st;
  EXPECT_FALSE(t.state().Find("b")->Has("Grappled"));
  EXPECT_EQ(t.state().Find("a")->Resource("ap"), 3);
  // Athletics 1 die: 6 vs d's 0 dice: a holds d.
  ASSERT_TRUE(t.Submit(Cmd("a", "grapple", {"d"}), {6}).ok());
  EXPECT_TRUE(t.state().Find("d")->Has("Grappled"));
}

TEST(Actions, GrappleIsAContestAndStopsMovement) {  // l.28
  Table t(OpposedTests(), Two(), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  // a has a club in hand: one hand free. Athletics 1 die vs d's Acrobatics
  // (2 dice, its better choice): 6 vs 1,1: a wins.
  auto ev = t.Submit(Cmd("a", "grapple", {"d"}), {6, 1, 1});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "defender.acrobatics"), 2);
  EXPECT_TRUE(t.state().Find("d")->Has("Grappled"));
  EXPECT_EQ(t.state().Find("a")->Resource("attacks"), 0);  // not an attack (l.48)
  ASSERT_TRUE(t.Submit(Cmd("a", "end_turn")).ok());
  auto move = Cmd("d", "move");
  move.path.emplace_back(4, 2);
  EXPECT_EQ(t.Submit(move).status().code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(t.Submit(Cmd("d", "end_turn")).ok());
  ASSERT_TRUE(t.Submit(Cmd("a", "release", {"d"})).ok());
  EXPECT_FALSE(t.state().Find("d")->Has("Grappled"));
}

// README "Verbs": while a window is open, any other act is refused citing
// the rule of that window's kind; a combat roll is one exchange (seed 003
// l.55 "The manner of defense is decided before the attacker rolls", l.58
// "Now the attacker and defender each roll"). Letting go of a grappled foe
// (l.28) is such an act: refused while d's defense window is open (l.50),
// accepted once the exchange is resolved (black-box case: `release` was
// accepted with the window open, unlike every other act).
TEST(Actions, AReleaseWaitsForTheOpenWindow) {
  Table t(OpposedTests(), Two(), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  ASSERT_TRUE(t.Submit(Cmd("a", "grapple", {"d"}), {6, 1, 1}).ok());
  ASSERT_TRUE(t.state().Find("d")->Has("Grappled"));
  ASSERT_NO_FATAL_FAILURE(AStrikesD(t, "club"));
  const auto st = t.Submit(Cmd("a", "release", {"d"})).status();
  EXPECT_EQ(st.code(), absl::StatusCode::kFailedPrecondition) << st;
  EXPECT_NE(std::string(st.message()).find("Step II: Defend, l.50"), std::string::npos) << st;
  EXPECT_TRUE(t.state().Find("d")->Has("Grappled"));
  // a's club: Fighting Style 0 + STR 0 = 0 dice, fails; d chose none: both fail.
  auto none = Cmd("d", "defend");
  none.window = t.state().windows.begin()->first;
  WithText(none, "defense", "none");
  ASSERT_TRUE(t.Submit(none).ok());
  ASSERT_TRUE(t.state().windows.empty());
  ASSERT_TRUE(t.Submit(Cmd("a", "release", {"d"})).ok());
  EXPECT_FALSE(t.state().Find("d")->Has("Grappled"));
}

// A grapple holds while the grappler is within touch (reading, l.28); the
// held foe takes one of its hands.
TEST(Actions, GrappleUsesAHandAndEndsWhenTheGrapplerLeaves) {
  Table t(OpposedTests(),
          Roster({Who("a", "x", 2, 2, {{"health", 5}, {"speed", 3}, {"athletics", 1}, {"initiative", 5}},
                      {W("club", "1d6", "melee", "medium", {}, "crushing")}),
                  Who("d", "y", 3, 2, {{"health", 5}, {"speed", 3}}, {}, {"npc"}),
                  Who("e", "y", 1, 2, {{"health", 5}, {"speed", 3}}, {}, {"npc"})}),
          {6, 1, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  ASSERT_EQ(t.state().active, "a");
  // Athletics 1 die: 6 vs d's 0 dice: a wins.
  ASSERT_TRUE(t.Submit(Cmd("a", "grapple", {"d"}), {6}).ok());
  ASSERT_TRUE(t.state().Find("d")->Has("Grappled"));
  // Club in one hand, d in the other: no free hand for e.
  EXPECT_EQ(t.Submit(Cmd("a", "grapple", {"e"})).status().code(), absl::StatusCode::kFailedPrecondition);
  // a walks 2 m away (out of e's and d's reach: neither holds a weapon).
  auto away = Cmd("a", "move");
  away.path.emplace_back(2, 3);
  away.path.emplace_back(2, 4);
  auto ev = t.Submit(away);
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_FALSE(t.state().Find("d")->Has("Grappled"));
}

// Seed 003 l.28 "You use a free hand to hold your foe, prohibiting them
// from moving"; l.116 "knocked unconscious". A grappler knocked out lets go
// (README row 28: the grapple ends when the grappler falls unconscious),
// whether a blow takes its Health to 0 or the GM rules it out with
// `gm_condition` adding Unconscious, as the GM's ruling knocks out the
// active character (row 116). By hand: a's Athletics 1 die, 6; d's
// Acrobatics 2 dice, 1,1: a wins and holds d. The GM knocks a out on d's
// turn: d is held no longer and walks 1 m away (black-box case: the
// GM-ruled Unconscious left d Grappled, its move refused).
TEST(Actions, AGrapplerTheGmKnocksOutLetsGo) {
  Table t(OpposedTests(), Two(), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  ASSERT_TRUE(t.Submit(Cmd("a", "grapple", {"d"}), {6, 1, 1}).ok());
  ASSERT_TRUE(t.state().Find("d")->Has("Grappled"));
  ASSERT_TRUE(t.Submit(Cmd("a", "end_turn")).ok());
  ASSERT_EQ(t.state().active, "d");
  auto down = Gm("gm_condition", "a", "a sling stone to the head");
  WithText(down, "name", "Unconscious");
  WithText(down, "op", "add");
  auto ev = t.Submit(down);
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_TRUE(Cites(*ev, "003.grapple"));
  EXPECT_FALSE(t.state().Find("d")->Has("Grappled"));
  auto move = Cmd("d", "move");
  move.path.emplace_back(4, 2);
  auto moved = t.Submit(move);
  ASSERT_TRUE(moved.ok()) << moved.status();
  EXPECT_EQ(t.state().Find("d")->at.x, 4);
}

// Seed 003 l.28 "You use a free hand to hold your foe, prohibiting them
// from moving": a second Grapple won against a foe the grappler already
// holds holds it once, with one hand (black-box case: a second Grappled was
// added and took the other hand, so the grappler had no hand left for
// another foe and one `release` left the foe held). By hand: Athletics 1
// die, a 6 against d's 0 dice wins each time; a's hands: d in one, e in
// the other.
TEST(Actions, GrapplingAFoeAlreadyHeldHoldsItOnce) {
  Table t(OpposedTests(),
          Roster({Who("a", "x", 2, 2, {{"health", 5}, {"speed", 3}, {"athletics", 1}, {"initiative", 5}}),
                  Who("d", "y", 3, 2, {{"health", 5}, {"speed", 3}}, {}, {"npc"}),
                  Who("e", "y", 1, 2, {{"health", 5}, {"speed", 3}}, {}, {"npc"})}),
          {6, 1, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  ASSERT_TRUE(t.Submit(Cmd("a", "grapple", {"d"}), {6}).ok());
  ASSERT_TRUE(t.Submit(Cmd("a", "grapple", {"d"}), {6}).ok());
  EXPECT_EQ(CountCond(*t.state().Find("d"), "Grappled"), 1);
  auto e = t.Submit(Cmd("a", "grapple", {"e"}), {6});  // a hand is still free
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_TRUE(t.state().Find("e")->Has("Grappled"));
  ASSERT_TRUE(t.Submit(Cmd("a", "release", {"d"})).ok());
  EXPECT_FALSE(t.state().Find("d")->Has("Grappled"));
}

// l.48: "grappling, pushing, and tripping a creature do not count as
// attacks": after two Strikes (the limit, l.18) a Grapple is still allowed,
// a third Strike is not; and moving is only for the active character (l.11).
TEST(Actions, AGrappleAfterTwoAttacks) {
  Table t(OpposedTests(), Two(), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto early = Cmd("d", "move");
  early.path.emplace_back(4, 2);
  EXPECT_EQ(t.Submit(early).status().code(), absl::StatusCode::kFailedPrecondition);
  for (int i = 0; i < 2; ++i) {
    auto s = Cmd("a", "strike", {"d"});
    s.weapon = "club";
    ASSERT_TRUE(t.Submit(s).ok());
    auto none = Cmd("d", "defend");
    none.window = t.state().windows.begin()->first;
    WithText(none, "defense", "none");
    ASSERT_TRUE(t.Submit(none).ok());  // 0 attack dice, no defense: both fail
  }
  auto third = Cmd("a", "strike", {"d"});
  third.weapon = "club";
  EXPECT_EQ(t.Submit(third).status().code(), absl::StatusCode::kFailedPrecondition);
  auto ev = t.Submit(Cmd("a", "grapple", {"d"}), {6, 1, 1});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_TRUE(t.state().Find("d")->Has("Grappled"));
  EXPECT_EQ(t.state().Find("a")->Resource("attacks"), 2);
  EXPECT_EQ(t.state().Find("a")->Resource("ap"), 0);
}

// l.28 "(defender's choice)": tag grapple:athletics makes d roll its
// Athletics (1 die) though its Acrobatics (2 dice) is larger.
TEST(Actions, TheGrappledChoosesItsSkillByTag) {
  fb::RosterT r = Two();
  r.combatants[1]->tags.push_back("grapple:athletics");
  Table t(OpposedTests(), std::move(r), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto ev = t.Submit(Cmd("a", "grapple", {"d"}), {5, 6});  // 1 vs 1 Success: d holds
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "defender.athletics"), 1);
  EXPECT_FALSE(t.state().Find("d")->Has("Grappled"));
  fb::RosterT bad = Two();
  bad.combatants[1]->tags.push_back("grapple:luck");
  Table u(OpposedTests(), std::move(bad), {6, 1});
  EXPECT_EQ(u.status().code(), absl::StatusCode::kInvalidArgument);
}

// l.24 "Reaction can always be taken, regardless of whose turn it is";
// l.37 Use Magic as a reaction: only a non-attacking spell; l.35
// Manipulate as a reaction; primary actions only on one's own turn.
TEST(Actions, ReactionsOffTurn) {
  auto bolt = W("bolt", "1d6", "spell", "", {{"attack", 1}}, "fire");
  bolt.range_increment = 20;
  auto ward = W("ward", "", "spell", "", {}, "");
  Table t(OpposedTests(),
          Roster({Who("m", "x", 2, 2, {{"health", 5}, {"speed", 3}, {"sorcery", 1}, {"initiative", 5}},
                      {bolt, ward, W("knife", "1d4", "melee", "light", {}, "piercing")}),
                  Who("d", "y", 8, 8, {{"health", 5}, {"speed", 3}}, {}, {"npc"})}),
          {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  ASSERT_TRUE(t.Submit(Cmd("m", "end_turn")).ok());
  ASSERT_EQ(t.state().active, "d");
  auto attack = Cmd("m", "use_magic", {"d"});
  attack.weapon = "bolt";
  EXPECT_EQ(t.Submit(attack).status().code(), absl::StatusCode::kFailedPrecondition);
  auto search = Cmd("m", "search");
  EXPECT_EQ(t.Submit(search).status().code(), absl::StatusCode::kFailedPrecondition);
  auto cast = Cmd("m", "use_magic");
  cast.weapon = "ward";
  ASSERT_TRUE(t.Submit(cast).ok());
  auto stow = Cmd("m", "manipulate");
  stow.weapon = "knife";
  With(stow, "stow", 1);
  ASSERT_TRUE(t.Submit(stow).ok());
  EXPECT_EQ(t.state().Find("m")->Resource("ap"), 1);
}

TEST(Actions, DashSearchSneakAndTheApBudget) {  // l.26, l.29, l.30, l.24
  Table t(OpposedTests(), Two(), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto empty = Cmd("a", "move");
  EXPECT_EQ(t.Submit(empty).status().code(), absl::StatusCode::kInvalidArgument);  // path
  auto dash = Cmd("a", "dash");  // no path: the metres are taken by moves
  ASSERT_TRUE(t.Submit(dash).ok());
  EXPECT_EQ(t.state().Find("a")->Resource("ap"), 2);
  auto step = Cmd("a", "move");
  step.path.emplace_back(2, 3);
  ASSERT_TRUE(t.Submit(step).ok());  // d at (3,2) still within 1 m
  // Speed 3 + a Dash of 3: 6 m this turn; 1 moved.
  auto run = Cmd("a", "move");
  for (int y = 4; y <= 8; ++y) run.path.emplace_back(2, y);
  auto ev = t.Submit(run);
  ASSERT_TRUE(ev.ok()) << ev.status();
  if (!t.state().windows.empty()) {  // leaving d's reach provokes (l.82)
    auto pass = Cmd("d", "pass");
    pass.window = t.state().windows.begin()->first;
    ASSERT_TRUE(t.Submit(pass).ok());
  }
  EXPECT_EQ(t.state().Find("a")->Resource("moved_m"), 6);
  ev = t.Submit(Cmd("a", "search"), {5});  // Observation 1 + PER 0
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_TRUE(Cites(*ev, "003.search"));
  ev = t.Submit(Cmd("a", "sneak"), {1});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_TRUE(Cites(*ev, "003.sneak"));
  EXPECT_EQ(t.state().Find("a")->Resource("ap"), 0);
  EXPECT_EQ(t.Submit(Cmd("a", "search")).status().code(), absl::StatusCode::kFailedPrecondition);
  // One free action per round (l.39).
  auto free = Cmd("a", "manipulate");
  With(free, "free", 1);
  ASSERT_TRUE(t.Submit(free).ok());
  EXPECT_EQ(t.Submit(free).status().code(), absl::StatusCode::kFailedPrecondition);
}

// A reaction taken as the round's free action stays a reaction: any time,
// whoever's turn it is (l.24, l.35, l.37), for no AP, once a round (l.39).
// An attack spell is a primary action and is refused off turn (l.37).
TEST(Actions, AFreeReactionOffTurnAndNoAttackSpellOffTurn) {
  auto bolt = W("bolt", "1d6", "spell", "", {{"attack", 1}}, "fire");
  bolt.range_increment = 20;
  auto chant = W("chant", "", "spell", "", {}, "");
  fb::RosterT r = Two();
  r.combatants[0]->weapons.push_back(std::make_unique<fb::WeaponT>(bolt));
  r.combatants[0]->weapons.push_back(std::make_unique<fb::WeaponT>(chant));
  Table t(OpposedTests(), r, {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  ASSERT_TRUE(t.Submit(Cmd("a", "end_turn")).ok());
  ASSERT_EQ(t.state().active, "d");
  auto spell = Cmd("a", "use_magic", {"d"});
  spell.weapon = "bolt";
  auto refused = t.Submit(spell);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(refused.status().message().find("l.37"), std::string::npos) << refused.status();
  auto free = Cmd("a", "manipulate");
  With(free, "free", 1);
  auto ev = t.Submit(free);
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(t.state().Find("a")->Resource("ap"), 3);  // no AP (l.39)
  EXPECT_EQ(t.state().Find("a")->Resource("free_actions"), 1);
  auto cast = Cmd("a", "use_magic");
  cast.weapon = "chant";
  With(cast, "free", 1);
  EXPECT_EQ(t.Submit(cast).status().code(), absl::StatusCode::kFailedPrecondition);  // one per round
}

TEST(Health, ZeroHealthKnocksOutAndSkipsTheTurn) {  // l.116
  Table t(OpposedTests(), Two(), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto s = Cmd("a", "strike", {"d"});
  s.weapon = "club";
  ASSERT_TRUE(t.Submit(s).ok());
  auto none = Cmd("d", "defend");
  none.window = t.state().windows.begin()->first;
  WithText(none, "defense", "none");
  // a's pool is 0 dice (no Fighting Style): it fails without a roll.
  ASSERT_TRUE(t.Submit(none, {}).ok());
  EXPECT_EQ(t.state().Find("d")->Resource("health"), 5);
  auto gm = Cmd("d", "gm_set");
  gm.role = fb::Role::GM;
  gm.author = "gm";
  gm.text = "a falling beam";
  WithText(gm, "resource", "health");
  With(gm, "value", 0);
  ASSERT_TRUE(t.Submit(gm).ok());
  EXPECT_TRUE(t.state().Find("d")->Has("Unconscious"));
  ASSERT_TRUE(t.Submit(Cmd("a", "end_turn")).ok());
  EXPECT_EQ(t.state().round, 2);  // d's turn is skipped
  EXPECT_EQ(t.state().active, "a");
}

// seed 003 l.116: "Your Health Pool determines how many points of damage
// you can take before being knocked unconscious"; l.12: the next highest
// then gets its turn. The GM sets the active a's Health to 0: a's turn ends
// by itself and d's begins, round 1 (black-box case: a stayed the active
// character, unconscious, and d could not act).
TEST(Health, TheActiveCharacterKnockedOutByTheGmLosesItsTurn) {
  Table t(OpposedTests(), Two(), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  ASSERT_EQ(t.state().active, "a");
  ASSERT_TRUE(t.Submit(KnockOut("a")).ok());
  EXPECT_TRUE(t.state().Find("a")->Has("Unconscious"));
  EXPECT_EQ(t.state().round, 1);
  EXPECT_EQ(t.state().active, "d");
}

// seed 003 l.12: "When the active character has resolved their turn, the
// character with the next highest initiative gets their turn ... After all
// character's have had their turn, a new round begins." Both down (the GM
// sets d's, then a's Health to 0): a's turn ends, round 2 begins with
// nobody able to act. The GM wakes d (Health 3, Unconscious removed): d,
// whose round-2 turn is still to come, becomes the active character with
// its 3 AP (l.11) and strikes (black-box case: it stayed nobody's turn, and
// d's strike was refused "only on d's own turn (it is nobody's)").
TEST(Health, ACharacterTheGmWakesWhenEveryoneIsDownTakesTheNextTurn) {
  Table t(OpposedTests(), Two(), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  for (const char* who : {"d", "a"}) {
    auto gm = Gm("gm_set", who, "a falling beam");
    WithText(gm, "resource", "health");
    With(gm, "value", 0);
    ASSERT_TRUE(t.Submit(gm).ok());
  }
  EXPECT_EQ(t.state().active, "");
  EXPECT_EQ(t.state().round, 2);
  auto heal = Gm("gm_set", "d", "a potion");
  WithText(heal, "resource", "health");
  With(heal, "value", 3);
  ASSERT_TRUE(t.Submit(heal).ok());
  auto wake = Gm("gm_condition", "d", "wakes up");
  WithText(wake, "name", "Unconscious");
  WithText(wake, "op", "remove");
  ASSERT_TRUE(t.Submit(wake).ok());
  EXPECT_EQ(t.state().round, 2);
  EXPECT_EQ(t.state().active, "d");
  EXPECT_EQ(t.state().Find("d")->Resource("ap"), 3);
  auto s = Cmd("d", "strike", {"a"});
  s.weapon = "club";
  EXPECT_TRUE(t.Submit(s).ok());
}

TEST(Opportunity, CastingOutOfReachProvokesNothing) {  // l.81, l.83
  auto bolt = W("bolt", "1d6", "spell", "", {{"attack", 1}}, "fire");
  bolt.range_increment = 20;
  auto far = W("chant", "", "spell", "", {}, "");
  Table t(OpposedTests(),
          Roster({Who("m", "x", 2, 2, {{"health", 5}, {"speed", 3}, {"sorcery", 1}, {"initiative", 5}}, {bolt, far}),
                  Who("d", "y", 3, 2, {{"health", 5}, {"speed", 3}}, {W("club", "1d6", "melee", "medium", {}, "crushing")}),
                  Who("e", "y", 9, 9, {{"health", 5}, {"speed", 3}}, {W("club", "1d6", "melee", "medium", {}, "crushing")})}),
          {6, 1, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto cast = Cmd("m", "use_magic");
  cast.weapon = "chant";
  ASSERT_TRUE(t.Submit(cast).ok());
  // d is in reach (1 m), e is not: only d may answer.
  ASSERT_EQ(t.state().windows.size(), 1u);
  EXPECT_EQ(t.state().windows.begin()->second.eligible, std::vector<std::string>{"d"});
  auto pass = Cmd("d", "pass");
  pass.window = t.state().windows.begin()->first;
  auto ev = t.Submit(pass);
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_TRUE(Cites(*ev, "003.use_magic"));  // the cast then resolves
  EXPECT_TRUE(t.state().windows.empty());
}

// 003 l.30: "Sneak. You attempt to move without being detected": a Sneak
// makes its Stealth test even when its last square enters a foe's reach
// (l.82) and it waits for the opportunity window. Black-box case: the held
// sneak ended "stopped" on an empty rest of path and never rolled the test.
TEST(Opportunity, ASneakEndingInReachStillMakesItsTest) {
  Table t(OpposedTests(),
          Roster({Who("a", "x", 3, 5, {{"health", 20}, {"speed", 6}, {"stealth", 1}, {"agi", 1}, {"initiative", 5}},
                      {W("club", "1d6", "melee", "medium", {}, "crushing")}),
                  Who("d", "y", 6, 5, {{"health", 20}, {"speed", 6}, {"initiative", -9}},
                      {W("club", "1d6", "melee", "medium", {}, "crushing")})}),
          {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto sneak = Cmd("a", "sneak");
  sneak.path.emplace_back(4, 5);
  sneak.path.emplace_back(5, 5);
  ASSERT_TRUE(t.Submit(sneak).ok());
  ASSERT_EQ(t.state().windows.size(), 1u);  // entering d's reach provokes
  auto pass = Cmd("d", "pass");
  pass.window = t.state().windows.begin()->first;
  auto ev = t.Submit(pass, {5, 1});  // Stealth 1 + AGI 1 = 2 dice
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_TRUE(Cites(*ev, "003.sneak"));
  EXPECT_EQ(NumOf(*ev, "dice"), 2);
  EXPECT_EQ(NumOf(*ev, "successes"), 1);
  EXPECT_EQ(t.state().Find("a")->at, (Pos{5, 5}));
  EXPECT_EQ(t.state().Find("a")->Resource("moved_m"), 2);
  for (const auto& [id, p] : t.state().pending) EXPECT_NE(p.kind, "held_back") << id;
}

// l.27: after Disengage "You don't provoke opportunity attacks for the
// rest of your turn": a cast in a foe's reach then provokes nothing.
TEST(Opportunity, DisengagedCastingProvokesNothing) {
  auto chant = W("chant", "", "spell", "", {}, "");
  Table t(OpposedTests(),
          Roster({Who("m", "x", 2, 2, {{"health", 5}, {"speed", 3}, {"sorcery", 1}, {"initiative", 5}}, {chant}),
                  Who("d", "y", 3, 2, {{"health", 5}, {"speed", 3}}, {W("club", "1d6", "melee", "medium", {}, "crushing")})}),
          {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  ASSERT_TRUE(t.Submit(Cmd("m", "disengage")).ok());
  auto cast = Cmd("m", "use_magic");
  cast.weapon = "chant";
  auto ev = t.Submit(cast);
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_TRUE(t.state().windows.empty());
  EXPECT_TRUE(Cites(*ev, "003.use_magic"));
}

// 003 l.81: "An opportunity attack is a special kind of melee Strike you can
// perform as a reaction." and l.83 "Cast a Spell": while the opportunity
// window a cast opened is unanswered, another act is refused citing the
// opportunity rule (l.81), not Step II: Defend (l.50). Black-box case: the
// caster's end_turn and a foe's Manipulate were refused "(003 Step II:
// Defend, l.50)" / "(Actions in Combat, l.24)"; once the cast's defense
// window is open, the refusal cites l.50.
TEST(Opportunity, AnOpenOpportunityWindowIsCitedAsItsOwnRule) {
  auto chant = W("chant", "", "spell", "", {}, "");
  auto bolt = W("bolt", "1d6", "spell", "", {{"attack", 1}}, "shock");
  bolt.range_increment = 20;
  Table t(OpposedTests(),
          Roster({Who("m", "x", 2, 2, {{"health", 5}, {"speed", 3}, {"sorcery", 1}, {"initiative", 5}}, {chant, bolt}),
                  Who("d", "y", 3, 2, {{"health", 5}, {"speed", 3}}, {W("club", "1d6", "melee", "medium", {}, "crushing")})}),
          {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto cast = Cmd("m", "use_magic");
  cast.weapon = "bolt";
  cast.targets = {"d"};
  ASSERT_TRUE(t.Submit(cast).ok());
  ASSERT_EQ(t.state().windows.size(), 1u);
  ASSERT_EQ(t.state().windows.begin()->second.kind, "opportunity");
  for (const char* verb : {"end_turn", "manipulate"}) {
    const auto st = t.Submit(Cmd(verb == std::string("end_turn") ? "m" : "d", verb)).status();
    ASSERT_FALSE(st.ok()) << verb;
    EXPECT_NE(std::string(st.message()).find("Attack of Opportunity, l.81"), std::string::npos) << st;
  }
  auto pass = Cmd("d", "pass");
  pass.window = t.state().windows.begin()->first;
  ASSERT_TRUE(t.Submit(pass).ok());
  ASSERT_EQ(t.state().windows.size(), 1u);
  ASSERT_EQ(t.state().windows.begin()->second.kind, "defense");
  const auto st = t.Submit(Cmd("m", "end_turn")).status();
  ASSERT_FALSE(st.ok());
  EXPECT_NE(std::string(st.message()).find("Step II: Defend, l.50"), std::string::npos) << st;
}


// 003 l.72: "Push*. You drive your foe back. The target must pass an
// Athletics test, or be pushed back 1m." and l.82 (a willing move goes on).
// Black-box case: a mover leaving d's reach on its first step (5,5)->(4,5)
// is pushed by d's opportunity attack onto (4,5), its next square; the move
// ended "stopped: (4,5) is not adjacent to (4,5)" instead of going on to
// (3,5).
TEST(Opportunity, APushOntoTheNextSquareOfTheMoveLetsItGoOn) {
  Table t(OpposedTests(), ClubAndAxe(), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto move = Cmd("a", "move");
  Path(move, {{4, 5}, {3, 5}});
  ASSERT_TRUE(t.Submit(move).ok());
  ASSERT_EQ(t.state().windows.size(), 1u);  // leaving d's reach provokes
  ASSERT_NO_FATAL_FAILURE(AxeOpportunityWins(t));
  auto push = Cmd("d", "maneuver");
  push.window = t.state().windows.rbegin()->first;
  WithText(push, "maneuver", "push");
  // Athletics 0 + STR 1 = 1 die: 1, fails; pushed (5,5) -> (4,5); damage 5.
  auto ev = t.Submit(push, {1, 5});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(t.state().Find("a")->Resource("health"), 15);
  EXPECT_EQ(t.state().Find("a")->at, (Pos{3, 5}));
  EXPECT_EQ(t.state().Find("a")->Resource("moved_m"), 1);  // (4,5) was reached by the push, not walked
  EXPECT_TRUE(t.state().windows.empty());
  for (const auto& [id, p] : t.state().pending) EXPECT_NE(p.kind, "held_back") << id;
}

// 003 l.46: "Spell Attacks. Make a Sorcery test against a foe within the
// spell's range." with l.83 (casting provokes) and l.72 (Push). The bolt
// (range 4) is cast at e, 4 m away ((5,5) to (9,6): max(4, 1) = 4); d's
// opportunity attack wins and pushes the caster 1 m straight away from d,
// (5,5) -> (4,5), 5 m from e (max(5, 1) = 5 > 4): the Sorcery test is not
// made, the cast stops (its 1 AP and its Attack stay spent). Black-box
// case: the held cast resolved unchecked and opened e's defense window.
TEST(Opportunity, ACasterPushedOutOfRangeMakesNoSpellAttack) {
  auto bolt = W("bolt", "1d6", "spell", "", {{"attack", 1}}, "fire");
  bolt.range_increment = 4;
  Table t(OpposedTests(),
          Roster({Who("a", "x", 5, 5, {{"health", 20}, {"speed", 6}, {"str", 1}, {"agi", 1}, {"dodge", 1},
                                       {"sorcery", 1}, {"wil", 1}, {"initiative", 5}},
                      {bolt}),
                  Who("d", "y", 6, 5, {{"health", 20}, {"speed", 6}, {"fighting_style", 2}, {"str", 2},
                                       {"initiative", -9}},
                      {W("axe", "1d10", "melee", "heavy", {}, "slashing")}),
                  Who("e", "y", 9, 6, {{"health", 20}, {"speed", 6}, {"dodge", 1}, {"initiative", -9}})}),
          {6, 1, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto cast = Cmd("a", "use_magic");
  cast.weapon = "bolt";
  cast.targets = {"e"};
  ASSERT_TRUE(t.Submit(cast).ok());
  ASSERT_EQ(t.state().windows.size(), 1u);  // casting in d's reach provokes (l.83)
  ASSERT_NO_FATAL_FAILURE(AxeOpportunityWins(t));
  auto push = Cmd("d", "maneuver");
  push.window = t.state().windows.rbegin()->first;
  WithText(push, "maneuver", "push");
  // Athletics 0 + STR 1 = 1 die: 1, fails; pushed (5,5) -> (4,5); damage 5.
  auto ev = t.Submit(push, {1, 5});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(t.state().Find("a")->at, (Pos{4, 5}));
  EXPECT_EQ(t.state().Find("a")->Resource("health"), 15);
  EXPECT_TRUE(t.state().windows.empty());  // no defense window for e
  EXPECT_TRUE(Cites(*ev, "003.spell_attack"));
  for (const auto& [id, p] : t.state().pending) EXPECT_NE(p.kind, "held_back") << id;
  EXPECT_EQ(t.state().Find("a")->Resource("ap"), 1);       // 3 - the cast - the Dodge: the cast's AP stays spent
  EXPECT_EQ(t.state().Find("a")->Resource("attacks"), 1);  // and its Attack (l.48)
  EXPECT_EQ(t.state().Find("e")->Resource("health"), 20);
}

// 003 l.82: "Characters that willingly move within a foe's reach or leave
// it" provoke. Black-box case: a standing next to d walks (4,5) (4,6) (5,6),
// leaving d's reach on the first step and coming back into it on the last;
// d's opportunity window opened only once a stood at (5,6), 3 m walked,
// where it re-entered: the leaving, first on the path, was walked past.
TEST(Opportunity, LeavingAndComingBackProvokesWhereItLeaves) {
  Table t(OpposedTests(), ClubAndAxe(), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto move = Cmd("a", "move");
  Path(move, {{4, 5}, {4, 6}, {5, 6}});
  ASSERT_TRUE(t.Submit(move).ok());
  ASSERT_EQ(t.state().windows.size(), 1u);
  EXPECT_EQ(t.state().Find("a")->at, (Pos{5, 5}));  // still in reach: it provokes as it leaves
  EXPECT_EQ(t.state().Find("a")->Resource("moved_m"), 0);
  auto pass = Cmd("d", "pass");
  pass.window = t.state().windows.begin()->first;
  ASSERT_TRUE(t.Submit(pass).ok());
  // d reacts once per move: coming back into its reach opens no second window.
  EXPECT_TRUE(t.state().windows.empty());
  EXPECT_EQ(t.state().Find("a")->at, (Pos{5, 6}));
  EXPECT_EQ(t.state().Find("a")->Resource("moved_m"), 3);
}

// 003 l.116 "knocked unconscious", l.36 "Opportunity Attack. A special
// form of Strike" (a reaction), l.82 "Characters that willingly move ...
// leave it": a leaves d's reach ((5,5) -> (4,5), 2 m from d at (6,5)) and
// its move waits at (5,5) for d's answer; the GM knocks d out (Health 0)
// before it answers: d can make no attack, so the window waits for nobody
// and the move goes on to (3,5), 2 m walked. Black-box case: the window
// stayed open for the unconscious d, whose `pass` alone let a go on.
TEST(Opportunity, AnOwnerKnockedOutBeforeAnsweringDoesNotHoldTheMove) {
  Table t(OpposedTests(), ClubAndAxe(), {6, 1});
  ASSERT_NO_FATAL_FAILURE(AWalksOutOfReach(t));
  EXPECT_EQ(t.state().Find("a")->at, (Pos{5, 5}));
  auto down = Gm("gm_set", "d", "a falling beam");
  WithText(down, "resource", "health");
  With(down, "value", 0);
  auto ev = t.Submit(down);
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_TRUE(t.state().windows.empty());
  EXPECT_TRUE(Cites(*ev, "003.health"));
  EXPECT_EQ(t.state().Find("a")->at, (Pos{3, 5}));
  EXPECT_EQ(t.state().Find("a")->Resource("moved_m"), 2);
  EXPECT_EQ(t.state().active, "a");
}

// 003 l.24 "A character can use up to 3 AP per round ... reactions", l.36
// (an opportunity attack is a reaction), l.48 two Attacks per round: an
// owner the GM leaves without AP while the window waits for it can make no
// opportunity attack, as one without AP when the move began is offered no
// window: the move of a out of d's reach goes on at once to (3,5), 2 m
// walked. Black-box case: the window waited for d's `pass`, the only
// answer d could give.
TEST(Opportunity, AnOwnerLeftWithoutApBeforeAnsweringDoesNotHoldTheMove) {
  Table t(OpposedTests(), ClubAndAxe(), {6, 1});
  ASSERT_NO_FATAL_FAILURE(AWalksOutOfReach(t));
  auto broke = Gm("gm_set", "d", "spent");
  WithText(broke, "resource", "ap");
  With(broke, "value", 0);
  auto ev = t.Submit(broke);
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_TRUE(t.state().windows.empty());
  EXPECT_EQ(t.state().Find("a")->at, (Pos{3, 5}));
  EXPECT_EQ(t.state().Find("a")->Resource("moved_m"), 2);
  // 003 l.24 "A character can use up to 3 AP per round": the window closes
  // naming the owner left without the AP and why, citing l.24's cost, as
  // it names an unconscious one (l.116). Black-box case (third round): it
  // closed as a plain "reactions done" (003.opportunity), naming nobody.
  std::string rule;
  const std::string outcome = kernel::testing::LastOutcome(*ev, &rule);
  EXPECT_NE(outcome.find("d can make no opportunity attack (d has 0 AP left"), std::string::npos) << outcome;
  EXPECT_EQ(rule, "003.ap.cost");
}

// The same with d's two Attacks made (l.48 "Each character can perform up
// to two Attacks per Round"): the window closes naming d and the limit.
TEST(Opportunity, AnOwnerWithTwoAttacksMadeIsNamedWhenTheWindowCloses) {
  Table t(OpposedTests(), ClubAndAxe(), {6, 1});
  ASSERT_NO_FATAL_FAILURE(AWalksOutOfReach(t));
  auto two = Gm("gm_set", "d", "two attacks already");
  WithText(two, "resource", "attacks");
  With(two, "value", 2);
  auto ev = t.Submit(two);
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_TRUE(t.state().windows.empty());
  EXPECT_EQ(t.state().Find("a")->at, (Pos{3, 5}));
  std::string rule;
  const std::string outcome = kernel::testing::LastOutcome(*ev, &rule);
  EXPECT_NE(outcome.find("d can make no opportunity attack (d has made 2 attacks"), std::string::npos)
      << outcome;
  EXPECT_EQ(rule, "003.attacks");
}

// a (club) at (5,5), d (axe) at (6,5) and e (axe) at (6,6), in that
// order of initiative.
fb::RosterT ClubAndTwoAxes() {
  return Roster({Who("a", "x", 5, 5, {{"health", 20}, {"speed", 6}, {"initiative", 5}},
                     {W("club", "1d6", "melee", "medium", {}, "crushing")}),
                 Who("d", "y", 6, 5, {{"health", 20}, {"speed", 6}, {"initiative", -5}},
                     {W("axe", "1d10", "melee", "heavy", {}, "slashing")}),
                 Who("e", "y", 6, 6, {{"health", 20}, {"speed", 6}, {"initiative", -9}},
                     {W("axe", "1d10", "melee", "heavy", {}, "slashing")})});
}

// The same with two owners (l.116, l.81-82): a leaves the reach of d and
// of e (at (6,6): (4,5) is 2 m away) at once; the window asks d, then e.
// The GM knocks e out; d passes: nothing is left to wait for, the move
// goes on to (3,5). Black-box case: after d's pass it waited for e.
TEST(Opportunity, AnOwnerKnockedOutAfterAnotherIsNotWaitedFor) {
  Table t(OpposedTests(), ClubAndTwoAxes(), {6, 1, 1});
  ASSERT_NO_FATAL_FAILURE(AWalksOutOfReach(t));
  ASSERT_EQ(t.state().windows.begin()->second.eligible, (std::vector<std::string>{"d", "e"}));
  ASSERT_TRUE(t.Submit(KnockOut("e")).ok());
  ASSERT_EQ(t.state().windows.size(), 1u);  // d, conscious, still to answer
  auto pass = Cmd("d", "pass");
  pass.window = t.state().windows.begin()->first;
  ASSERT_TRUE(t.Submit(pass).ok());
  EXPECT_TRUE(t.state().windows.empty());
  EXPECT_EQ(t.state().Find("a")->at, (Pos{3, 5}));
  EXPECT_EQ(t.state().Find("a")->Resource("moved_m"), 2);
}

// 003 l.116 "knocked unconscious", l.36 (a reaction), l.81-82: the same
// two owners, the first one knocked out. a leaves the reach of d (6,5)
// and e (6,6) at once; the window asks d, then e. The GM knocks d out
// before it answers: d can make no attack, so the window asks e directly
// (the system answers `pass` for d, text naming l.116); e passes and the
// move goes on to (3,5), 2 m walked. Black-box case: e's `pass` was
// refused ("it is d's answer") until the GM answered `pass` for d.
TEST(Opportunity, AnOwnerKnockedOutBeforeAnotherIsNotAskedFirst) {
  Table t(OpposedTests(), ClubAndTwoAxes(), {6, 1, 1});
  ASSERT_NO_FATAL_FAILURE(AWalksOutOfReach(t));
  const uint32_t wid = t.state().windows.begin()->first;
  ASSERT_EQ(t.state().windows.at(wid).eligible, (std::vector<std::string>{"d", "e"}));
  auto ev = t.Submit(KnockOut("d"));
  ASSERT_TRUE(ev.ok()) << ev.status();
  ASSERT_EQ(t.state().windows.size(), 1u);  // e, conscious, still to answer
  EXPECT_EQ(t.state().windows.at(wid).answered, (std::vector<std::string>{"d"}));
  bool passed_for_d = false;
  for (const auto& e : *ev) {
    if (e.event().body_type() != fb::Body::Interrupt) continue;
    const fb::Command* c = e.event().body_as_Interrupt()->command();
    passed_for_d = c->actor()->str() == "d" && c->action()->str() == "pass" &&
                   e.event().author()->str() == "system" &&
                   c->text()->str().find("l.116") != std::string::npos;
  }
  EXPECT_TRUE(passed_for_d);
  EXPECT_EQ(t.state().Find("a")->at, (Pos{5, 5}));  // still held for e
  auto pass = Cmd("e", "pass");
  pass.window = wid;
  auto done = t.Submit(pass);
  ASSERT_TRUE(done.ok()) << done.status();
  EXPECT_TRUE(t.state().windows.empty());
  EXPECT_EQ(t.state().Find("a")->at, (Pos{3, 5}));
  EXPECT_EQ(t.state().Find("a")->Resource("moved_m"), 2);
}

// 003 l.82: "A character can avoid provoking an opportunity attack in this
// way by taking the Disengage action or moving through means of
// teleportation." The text gives teleportation no cost or range (a spell's,
// the Using Magic chapter); what it decides is that the move provokes
// nothing: the GM's `gm_move` carries a out of d's reach and back into it
// with no opportunity window, d keeping its AP and its two attacks.
TEST(Opportunity, ATeleportByTheGmProvokesNothing) {
  Table t(OpposedTests(), ClubAndAxe(), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto away = Gm("gm_move", "a", "teleports away");
  Path(away, {{2, 5}});
  ASSERT_TRUE(t.Submit(away).ok());
  EXPECT_TRUE(t.state().windows.empty());
  EXPECT_EQ(t.state().Find("a")->at, (Pos{2, 5}));
  auto back = Gm("gm_move", "a", "teleports back");
  Path(back, {{7, 5}});
  ASSERT_TRUE(t.Submit(back).ok());
  EXPECT_TRUE(t.state().windows.empty());
  EXPECT_EQ(t.state().Find("a")->at, (Pos{7, 5}));
  EXPECT_EQ(t.state().Find("a")->Resource("moved_m"), 0);  // no walk of a's own (l.11)
  EXPECT_EQ(t.state().Find("d")->Resource("ap"), 3);
  EXPECT_EQ(t.state().Find("d")->Resource("attacks"), 0);
}

// 003 l.84: "Stand Up. Characters standing up to end the Prone condition"
// provoke; l.73: "Trip*. ... The target must pass an Acrobatics test, or be
// knocked prone." A stand held by an opportunity attack whose Trip knocks
// the stander down leaves it Prone (the old code completed the stand).
TEST(Opportunity, ATripByTheOpportunityAttackAStandProvokesLeavesItProne) {
  Table t(OpposedTests(), ClubAndAxe(), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto down = Gm("gm_condition", "a", "fell");
  WithText(down, "name", "Prone");
  WithText(down, "op", "add");
  ASSERT_TRUE(t.Submit(down).ok());
  ASSERT_TRUE(t.Submit(Cmd("a", "stand")).ok());
  ASSERT_EQ(t.state().windows.size(), 1u);  // standing up provokes (l.84)
  ASSERT_NO_FATAL_FAILURE(AxeOpportunityWins(t));
  auto trip = Cmd("d", "maneuver");
  trip.window = t.state().windows.rbegin()->first;
  WithText(trip, "maneuver", "trip");
  // Acrobatics 0 + AGI 1 = 1 die: 1, fails: knocked prone; damage 5.
  auto ev = t.Submit(trip, {1, 5});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(t.state().Find("a")->Resource("health"), 15);
  EXPECT_TRUE(t.state().windows.empty());
  EXPECT_EQ(CountCond(*t.state().Find("a"), "Prone"), 1);
  for (const auto& [id, p] : t.state().pending) EXPECT_NE(p.kind, "held_back") << id;
  // The log says what happened: the Prone a lay in is replaced by the
  // Trip's, the stand stopped; nothing says a stands up (the old note).
  std::vector<std::string> notes;
  for (const auto& e : *ev) {
    const fb::Event& x = e.event();
    if (x.body_type() != fb::Body::StateChange) continue;
    const fb::StateChange* sc = x.body_as_StateChange();
    if (sc->note() != nullptr) notes.push_back(sc->note()->str());
    if (sc->change_type() == fb::Change::PendingClosed && sc->change_as_PendingClosed()->outcome() != nullptr) {
      notes.push_back(sc->change_as_PendingClosed()->outcome()->str());
    }
  }
  bool replaced = false, stopped = false;
  for (const std::string& n : notes) {
    EXPECT_EQ(n.find("stands up"), std::string::npos) << n;
    replaced = replaced || n.find("replaced by the Prone of the Trip") != std::string::npos;
    stopped = stopped || n.find("stopped: knocked prone") != std::string::npos;
  }
  EXPECT_TRUE(replaced);
  EXPECT_TRUE(stopped);
  // The last change to a's Prone is the Trip's (what `combat explain
  // --combatant a --condition Prone` explains), not the removal of the
  // Prone it lay in: that is removed first (black-box case).
  std::string last;
  for (const auto& e : *ev) {
    const fb::Event& x = e.event();
    if (x.body_type() != fb::Body::StateChange) continue;
    const fb::StateChange* sc = x.body_as_StateChange();
    if (const auto* add = sc->change_as_ConditionAdded(); add != nullptr && add->name()->str() == "Prone") {
      last = "added";
    }
    if (const auto* rm = sc->change_as_ConditionRemoved(); rm != nullptr && rm->name()->str() == "Prone") {
      last = "removed";
    }
  }
  EXPECT_EQ(last, "added");
}

// 003 l.31: "Strike. You attack with your weapon." l.36: "Opportunity
// Attack. A special form of Strike, requiring a foe to expose themselves."
// Reading: l.93-94 list "weapons, armor, and shields" apart, and a shield
// has its own uses (Block l.51, Bash l.67): it is no weapon to Strike
// with, and the opportunity attack, a special form of Strike, agrees: both
// refuse the shield and take the club. Both refusals are of one kind: the
// rule of l.31 refusing the act (FailedPrecondition citing "Primary
// Actions, l.31"), naming the field; the Strike's used to be an
// InvalidArgument on `weapon` (black-box, seventh pass).
TEST(Opportunity, NeitherAStrikeNorAnOpportunityAttackIsMadeWithAShield) {
  Table t(OpposedTests(),
          Roster({Who("a", "x", 5, 5, {{"health", 20}, {"speed", 6}, {"fighting_style", 1}, {"initiative", 5}},
                      {W("club", "1d6", "melee", "medium", {}, "crushing"), W("buckler", "", "shield", "", {{"br", 2}}, "")}),
                  Who("d", "y", 6, 5, {{"health", 20}, {"speed", 6}, {"initiative", -9}},
                      {W("axe", "1d10", "melee", "heavy", {}, "slashing")})}),
          {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto strike = Cmd("a", "strike", {"d"});
  strike.weapon = "buckler";
  const auto st = t.Submit(strike).status();
  ASSERT_FALSE(st.ok());
  EXPECT_NE(std::string(st.message()).find("buckler is a shield, no weapon to Strike with"), std::string::npos) << st;
  EXPECT_EQ(st.code(), absl::StatusCode::kFailedPrecondition) << st;
  EXPECT_NE(std::string(st.message()).find("field 'weapon'"), std::string::npos) << st;
  EXPECT_NE(std::string(st.message()).find("(003 Primary Actions, l.31)"), std::string::npos) << st;
  ASSERT_TRUE(t.Submit(Cmd("a", "end_turn")).ok());
  auto move = Cmd("d", "move");
  Path(move, {{7, 5}});
  ASSERT_TRUE(t.Submit(move).ok());
  ASSERT_EQ(t.state().windows.size(), 1u);  // leaving a's reach provokes (l.82)
  auto oa = Cmd("a", "opportunity_attack");
  oa.window = t.state().windows.begin()->first;
  oa.weapon = "buckler";
  const auto st2 = t.Submit(oa).status();
  ASSERT_FALSE(st2.ok());
  EXPECT_NE(std::string(st2.message()).find("buckler is a shield, no weapon to Strike with"), std::string::npos) << st2;
  EXPECT_EQ(st2.code(), st.code()) << st2;
  EXPECT_NE(std::string(st2.message()).find("field 'weapon'"), std::string::npos) << st2;
  EXPECT_NE(std::string(st2.message()).find("(003 Primary Actions, l.31)"), std::string::npos) << st2;
  EXPECT_EQ(t.state().Find("a")->Resource("ap"), 3);
  oa.weapon = "club";
  ASSERT_TRUE(t.Submit(oa).ok());
  EXPECT_EQ(t.state().Find("a")->Resource("ap"), 2);
  EXPECT_EQ(t.state().windows.rbegin()->second.kind, "defense");
}

// 003 l.32: "Use Magic. You cast a spell or activate a magic item." l.83:
// "Cast a Spell. Characters that cast spells which don't have the Melee
// Attack trait" provoke. By hand: m, next to d's club, activates an item
// (no spell): 1 AP (3 -> 2), nothing provoked; then casts ward, a spell:
// 1 AP (2 -> 1), d's opportunity window opens.
TEST(Opportunity, ActivatingAMagicItemProvokesNothingCastingASpellDoes) {
  Table t(OpposedTests(),
          Roster({Who("m", "x", 2, 2, {{"health", 5}, {"speed", 3}, {"initiative", 5}},
                      {W("ward", "", "spell", "", {}, "")}),
                  Who("d", "y", 3, 2, {{"health", 5}, {"speed", 3}}, {W("club", "1d6", "melee", "medium", {}, "crushing")})}),
          {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto ring = Cmd("m", "use_magic");
  ring.text = "activates a ring";
  ASSERT_TRUE(t.Submit(ring).ok());
  EXPECT_EQ(t.state().Find("m")->Resource("ap"), 2);
  EXPECT_TRUE(t.state().windows.empty());
  auto ward = Cmd("m", "use_magic");
  ward.weapon = "ward";
  ASSERT_TRUE(t.Submit(ward).ok());
  EXPECT_EQ(t.state().Find("m")->Resource("ap"), 1);
  ASSERT_EQ(t.state().windows.size(), 1u);
  EXPECT_EQ(t.state().windows.begin()->second.kind, "opportunity");
}

// 003 l.22: "A character can always choose not to act during their turn,
// instead postponing it for later. They must immediately declare after
// which character they would like to become the active character." By
// hand: a (1 + 9), d (1 + 5), c (1 + 0). d Dodges a's Strike on a's turn (a
// reaction, l.24: not during d's turn), so on its turn d has not acted and
// saves it until after c: c is active, then d. c walks 1 m (l.11, no AP)
// and is refused a save (the program's reading of "postponing it", the
// whole turn: GM ruling point); the GM who rules otherwise clears
// `moved_m` and `turn_acts`, and c saves until after d.
TEST(Turns, AReactionOffTurnIsNoActingDuringTheTurnAfterMovingTheGmRules) {
  Table t(OpposedTests(),
          Roster({Who("a", "x", 2, 2, {{"health", 50}, {"speed", 3}, {"fighting_style", 1}, {"initiative", 9}},
                      {W("club", "1d6", "melee", "medium", {}, "crushing")}),
                  Who("d", "y", 3, 2, {{"health", 50}, {"speed", 3}, {"dodge", 1}, {"initiative", 5}},
                      {W("club", "1d6", "melee", "medium", {}, "crushing")}),
                  Who("c", "y", 9, 9, {{"health", 50}, {"speed", 3}, {"initiative", 0}}, {})}),
          {1, 1, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  ASSERT_EQ(t.state().active, "a");
  auto s = Cmd("a", "strike", {"d"});
  s.weapon = "club";
  ASSERT_TRUE(t.Submit(s).ok());
  auto dodge = Cmd("d", "defend");
  dodge.window = t.state().windows.rbegin()->first;
  WithText(dodge, "defense", "dodge");
  ASSERT_TRUE(t.Submit(dodge, {1, 1}).ok());  // both fail: nothing happens (l.59)
  ASSERT_TRUE(t.Submit(Cmd("a", "end_turn")).ok());
  ASSERT_EQ(t.state().active, "d");
  EXPECT_EQ(t.state().Find("d")->Resource("ap"), 2);  // the Dodge's AP
  auto save = Cmd("d", "save_turn");
  WithText(save, "after", "c");
  auto saved = t.Submit(save);
  ASSERT_TRUE(saved.ok()) << saved.status();
  ASSERT_EQ(t.state().active, "c");
  auto walk = Cmd("c", "move");
  Path(walk, {{9, 8}});
  ASSERT_TRUE(t.Submit(walk).ok());
  auto late = Cmd("c", "save_turn");
  WithText(late, "after", "d");
  auto refused = t.Submit(late);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition) << refused.status();
  EXPECT_EQ(t.state().active, "c");
  for (const char* key : {"moved_m", "turn_acts"}) {
    auto gm = Gm("gm_set", "c", "c only stepped aside: it may still wait");
    WithText(gm, "resource", key);
    With(gm, "value", 0);
    ASSERT_TRUE(t.Submit(gm).ok());
  }
  ASSERT_TRUE(t.Submit(late).ok());
  EXPECT_EQ(t.state().active, "d");
  EXPECT_EQ(t.state().Find("c")->at, (Pos{9, 8}));
}

}  // namespace
}  // namespace combat::kernel::opposed::testutil
