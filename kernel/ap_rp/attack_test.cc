// Attacks (l.52-58, l.60, l.111, l.32) with fixed dice.
#include "kernel/ap_rp/internal.h"
#include "kernel/ap_rp/test_util.h"

namespace combat::kernel::aprp {
namespace {

using namespace testing;  // NOLINT

// aria: Str 13, Dex 13: ax hit bonus 3 + 1 = 4 (l.53). Initiative 40.
// brute: Str 14, Dex 13, War Archetype: Evasion 17 (l.61).
fb::RosterT Roster(int bx = 2, int by = 1) {
  auto a = Being("aria", "x", 1, 1, {{"str", 13}, {"dex", 13}, {"ins", 20}});
  Arm(a, "ax", "1d8", "melee");
  Arm(a, "bow", "1d6", "ranged", "dex/str", 10);
  auto b = Being("brute", "y", bx, by, {{"armor", 1}});
  Arm(b, "ax", "1d8", "melee");
  return MakeRoster({a, b});
}

// aria's bow shot at the brute, leaning to (1,2) (l.112: out of a full
// cover at (2,1) in the tests that place one).
fb::CommandT LeaningShot() {
  auto c = Attack("aria", "brute", "bow");
  With(c, "lean_x", 1);
  With(c, "lean_y", 2);
  return c;
}

// aria takes the leaning shot (to hit 15, damage 3) and is Leaning.
void AriaLeansOutAndShoots(Table& t) {
  ASSERT_OK(t.Submit(LeaningShot(), {15, 3}));
  ASSERT_TRUE(Has(t, "aria", kLeaning));
}

// l.53 (hit bonus 4) and l.60 ("a hit bonus of 4 would need to roll at
// least a 12" against Evasion 16; here 17 needs 13).
TEST(Attack, HitBonusFourAgainstSeventeen) {
  Table t(ApRp(), Roster());
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto ev = t.Submit(Attack("aria", "brute", "ax"), {13, 5});
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "004.evasion", "hit_bonus"), 4);
  EXPECT_EQ(NumOf(*ev, "004.evasion", "evasion"), 17);
  EXPECT_EQ(Res(t, "brute", kVitality), 30 - (5 - 1));  // Armor 1 (l.64)
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("brute", "end_turn")));
  auto miss = t.Submit(Attack("aria", "brute", "ax"), {12});
  ASSERT_OK(miss);
  EXPECT_EQ(Res(t, "brute", kVitality), 26);  // 12 + 4 = 16 < 17
}

// l.56: a natural 20 hits for +6; l.57: a natural 1 always misses.
TEST(Attack, CriticalAndFumble) {
  Table t(ApRp(), Roster());
  ASSERT_OK(t.Submit(Attack("aria", "brute", "ax"), {20, 3}));
  EXPECT_EQ(Res(t, "brute", kVitality), 30 - (3 + 6 - 1));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  auto g = Gm("brute", "gm_set", "pump evasion down");
  ASSERT_OK(t.Submit(Cmd("brute", "end_turn")));
  auto ev = t.Submit(Attack("aria", "brute", "ax"), {1});
  ASSERT_OK(ev);
  EXPECT_TRUE(Cites(*ev, "004.attack.fumble"));
  EXPECT_EQ(Res(t, "brute", kVitality), 22);
}

// 004_1a3e461770fc9e7a.txt l.57 "A critical miss always fails to hit the
// target, no matter how high your hit bonus is": Str 40 gives the ax a hit
// bonus of 30 + 3 / 2 = 31 (l.53); a natural 1 totals 32 >= Evasion 17 and
// still misses; a natural 2 (33) hits for 5 - 1 Armor = 4.
TEST(Attack, ANaturalOneMissesWhateverTheHitBonus) {
  auto a = Being("aria", "x", 1, 1, {{"str", 40}, {"dex", 13}, {"ins", 20}});
  Arm(a, "ax", "1d8", "melee");
  auto b = Being("brute", "y", 2, 1, {{"armor", 1}});
  Table t(ApRp(), MakeRoster({a, b}));
  auto ev = t.Submit(Attack("aria", "brute", "ax"), {1});
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "004.attack.fumble", "hit_bonus"), 31);
  EXPECT_EQ(NumOf(*ev, "004.attack.fumble", "total"), 32);
  EXPECT_EQ(Res(t, "brute", kVitality), 30);
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("brute", "end_turn")));
  ASSERT_OK(t.Submit(Attack("aria", "brute", "ax"), {2, 5}));
  EXPECT_EQ(Res(t, "brute", kVitality), 26);
}

// l.57 with l.18 and l.12/l.36: the natural 1 is the die kept. Against a
// Defending target (disadvantage) the dice 15 and 1 keep the 1: a critical
// miss, though 15 + 4 = 19 would hit Evasion 17. With advantage (the
// attacker starts hidden from a surprised target, l.12, l.36) the dice 1
// and 15 keep the 15: 19 >= 17 hits for 5 - 1 Armor = 4, no critical miss.
TEST(Attack, ANaturalOneCountsOnlyWhenItIsTheDieKept) {
  {
    Table t(ApRp(), Roster());
    ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
    ASSERT_OK(t.Submit(Cmd("brute", "defend")));
    ASSERT_OK(t.Submit(Cmd("brute", "end_turn")));
    auto ev = t.Submit(Attack("aria", "brute", "ax"), {15, 1});
    ASSERT_OK(ev);
    EXPECT_TRUE(Cites(*ev, "004.attack.fumble"));
    EXPECT_EQ(NumOf(*ev, "004.attack.fumble", "natural"), 1);
    EXPECT_EQ(Res(t, "brute", kVitality), 30);
  }
  {
    auto a = Being("aria", "x", 1, 1, {{"str", 13}, {"dex", 13}, {"ins", 20}});
    Arm(a, "ax", "1d8", "melee");
    auto b = Being("brute", "y", 2, 1, {{"armor", 1}});
    Tag(b, "surprised");
    Table t(ApRp(), MakeRoster({a, b}));
    auto ev = t.Submit(Attack("aria", "brute", "ax"), {1, 15, 5});
    ASSERT_OK(ev);
    EXPECT_FALSE(Cites(*ev, "004.attack.fumble"));
    EXPECT_EQ(NumOf(*ev, "004.evasion", "natural"), 15);
    EXPECT_EQ(NumOf(*ev, "004.evasion", "hidden"), 1);
    EXPECT_EQ(Res(t, "brute", kVitality), 26);
    // l.36 "You stay hidden until the end of the turn if this happens during
    // your turn": the attack gave the place away; the start's hiding (l.12)
    // ends with aria's turn.
    EXPECT_NE(t.state().Find("aria")->FindRelative(kHidden, "brute"), nullptr);
    ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
    EXPECT_EQ(t.state().Find("aria")->FindRelative(kHidden, "brute"), nullptr);
  }
}

// l.57 with l.111: a critical miss "always fails to hit the target", and
// the creature in front that a miss goes on to is then its target: the
// bow's hit bonus 3 + 30 / 2 = 18 (Str 40, l.53) would make the natural 1's
// 19 hit the front's Evasion 12, but it fails there too.
TEST(Attack, ACriticalMissDoesNotHitTheCreatureInFront) {
  auto a = Being("aria", "x", 1, 1, {{"ins", 20}, {"dex", 13}, {"str", 40}});
  Arm(a, "bow", "1d6", "ranged", "dex/str", 10);
  auto f = Being("front", "y", 5, 1, {{"dex", 8}});  // Evasion 8 + 4 = 12
  auto b = Being("brute", "y", 6, 1);
  Table t(ApRp(), MakeRoster({a, f, b}));
  auto ev = t.Submit(Attack("aria", "brute", "bow"), {1});
  ASSERT_OK(ev);
  EXPECT_TRUE(Cites(*ev, "004.attack.fumble"));
  EXPECT_EQ(Res(t, "brute", kVitality), 30);
  EXPECT_EQ(Res(t, "front", kVitality), 30);
}

// l.52: you can choose to miss.
TEST(Attack, ChooseToMiss) {
  Table t(ApRp(), Roster());
  auto c = Attack("aria", "brute", "ax");
  With(c, "miss", 1);
  ASSERT_OK(t.Submit(c));
  EXPECT_EQ(Res(t, "brute", kVitality), 30);
  EXPECT_EQ(Res(t, "aria", kAp), 1);
}

// l.55: melee reaches 1 m.
TEST(Attack, MeleeRangeOneMetre) {
  Table t(ApRp(), Roster(4, 1));
  auto r = t.Submit(Attack("aria", "brute", "ax"));
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(Res(t, "aria", kAp), 3);
}

// 004 l.55 "Melee attacks have a base range of 1 m and ignore cover" and
// l.112 "you can no longer be targeted by any effects that come from the
// direction of your full cover": a spear reaching 2 m (numbers.reach 1)
// strikes over a half_cover square without its +2 (Evasion 17: 13 + 4 = 17
// hits; 1d8 5 - Armor 1 = 4) but not through a wall (black-box: it hit
// through the wall, while a DR from the same creature was refused).
TEST(Attack, AReachWeaponIgnoresHalfCoverNotAWall) {
  auto spear = [] {
    auto a = Being("aria", "x", 1, 1, {{"str", 13}, {"dex", 13}, {"ins", 20}});
    Arm(a, "spear", "1d8", "melee", "str/dex", 0, {{"reach", 1}});
    auto b = Being("brute", "y", 3, 1, {{"armor", 1}});
    return MakeRoster({a, b});
  };
  auto half = spear();
  Terrain(half, 2, 1, "half_cover");
  Table t(ApRp(), half);
  auto ev = t.Submit(Attack("aria", "brute", "spear"), {13, 5});
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "004.evasion", "evasion"), 17);
  EXPECT_EQ(NumOf(*ev, "004.evasion", "half_cover"), -999);
  EXPECT_EQ(Res(t, "brute", kVitality), 26);
  auto wall = spear();
  Terrain(wall, 2, 1, "wall");
  Table u(ApRp(), wall);
  auto r = u.Submit(Attack("aria", "brute", "spear"), {13, 5});
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(r.status().message().find("l.112"), std::string::npos) << r.status();
  EXPECT_EQ(Res(u, "aria", kAp), 3);
  EXPECT_EQ(Res(u, "brute", kVitality), 30);
}

// l.55: ranged within melee range of an enemy: disadvantage (2d20, lower).
TEST(Attack, RangedInMeleeHasDisadvantage) {
  Table t(ApRp(), Roster());
  auto ev = t.Submit(Attack("aria", "brute", "bow"), {19, 5});
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "004.evasion", "enemy_in_melee_range"), 1);
  EXPECT_EQ(NumOf(*ev, "004.evasion", "natural"), 5);
  EXPECT_EQ(Res(t, "brute", kVitality), 30);
}

// l.18: attacks against a Defending creature have disadvantage, named as
// the defender's.
TEST(Attack, DefendGivesDisadvantage) {
  auto a = Being("aria", "x", 1, 1, {{"ins", 1}});
  Arm(a, "ax", "1d8", "melee");
  auto b = Being("brute", "y", 2, 1, {{"ins", 20}});
  Table t(ApRp(), MakeRoster({a, b}));
  ASSERT_OK(t.Submit(Cmd("brute", "defend")));
  ASSERT_OK(t.Submit(Cmd("brute", "end_turn")));
  auto ev = t.Submit(Attack("aria", "brute", "ax"), {18, 4});
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "004.evasion", "defending"), 1);
  const Seen n = Number(*ev, "defending");  // its source and rule (issue 16)
  EXPECT_EQ(n.source, "defending brute");
  EXPECT_EQ(n.rule, "004.defend");
  EXPECT_EQ(Res(t, "brute", kVitality), 30);
}

// l.111: behind a creature of the same size: half cover (+2 vs ranged) and
// the misses go on to the creature in front.
TEST(Attack, CreatureInFrontTakesTheMiss) {
  auto a = Being("aria", "x", 1, 1, {{"ins", 20}, {"dex", 13}, {"str", 13}});
  Arm(a, "bow", "1d6", "ranged", "dex/str", 10);
  auto f = Being("front", "y", 5, 1, {{"dex", 8}});  // Evasion 8 + 4 = 12
  auto b = Being("brute", "y", 6, 1);
  Table t(ApRp(), MakeRoster({a, f, b}));
  auto ev = t.Submit(Attack("aria", "brute", "bow"), {12, 4});  // 12 + 4 = 16 < 19
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "004.evasion", "half_cover"), 2);
  EXPECT_EQ(Res(t, "brute", kVitality), 30);
  EXPECT_EQ(Res(t, "front", kVitality), 26);  // 16 >= 12: hit for 4
}

// 004_1a3e461770fc9e7a.txt l.111 "Standing behind an object that covers at
// least half of your body gives you half cover ... Standing behind a
// creature ... also gives you half cover, but all attacks that miss you
// target the creature in front of you instead": the misses go on to a
// creature in front, not to an object (a crate: tag object) giving the half
// cover (black-box: the miss "hit crate instead" against its Evasion, when
// an object would be hit automatically, l.52).
TEST(Attack, AnObjectInFrontTakesNoMiss) {
  auto a = Being("aria", "x", 1, 1, {{"ins", 20}, {"dex", 13}, {"str", 13}});
  Arm(a, "bow", "1d6", "ranged", "dex/str", 10);
  auto crate = kernel::testing::Creature("crate", "none", 5, 1, {{"vitality", 10}});
  crate.tags.push_back("object");
  auto b = Being("brute", "y", 6, 1);  // Evasion 17
  Table t(ApRp(), MakeRoster({a, crate, b}));
  auto ev = t.Submit(Attack("aria", "brute", "bow"), {12});  // 12 + 4 = 16 < 17 + 2
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "004.evasion", "half_cover"), 2);
  EXPECT_EQ(Res(t, "brute", kVitality), 30);
  EXPECT_EQ(Res(t, "crate", kVitality), 10);
  EXPECT_FALSE(Cites(*ev, "004.cover.half"));  // no "the miss goes on to crate"
}

// l.112: full cover cannot be targeted from that direction.
TEST(Attack, FullCoverRefuses) {
  auto r = Roster(6, 1);
  Terrain(r, 5, 1, "full_cover");
  Table t(ApRp(), r);
  EXPECT_EQ(t.Submit(Attack("aria", "brute", "bow")).status().code(), absl::StatusCode::kFailedPrecondition);
}

// 004 l.112 "While you are in full cover, you can lean towards a space next
// to you ... You have half cover while leaning out of full cover": in the
// open there is nothing to lean out of: refused, nothing spent, no Leaning
// (black-box: an archer in the open "leant" and got half cover to the end
// of its turn).
TEST(Attack, NoLeaningFromTheOpen) {
  Table t(ApRp(), Roster(6, 1));
  auto c = LeaningShot();
  auto r = t.Submit(c, {15, 3});
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(r.status().message().find("l.112"), std::string::npos) << r.status();
  EXPECT_FALSE(Has(t, "aria", kLeaning));
  EXPECT_EQ(Res(t, "aria", kAp), 3);
  EXPECT_EQ(Res(t, "brute", kVitality), 30);
}

// 004 l.112 "While you are in full cover, you can lean towards a space next
// to you": the full cover must be the attacker's. aria at (2,3) in the
// open; brute at (6,1) behind a full_cover object at (5,1) (full cover from
// aria). Leaning to (3,4), from where the line to brute misses (5,1), is
// refused: aria is not in full cover (black-box: accepted, aria shot brute
// and got Leaning's half cover).
TEST(Attack, NoLeaningWhenOnlyTheTargetIsInFullCover) {
  auto a = Being("aria", "x", 2, 3, {{"str", 13}, {"dex", 13}, {"ins", 20}});
  Arm(a, "bow", "1d6", "ranged", "dex/str", 10);
  auto b = Being("brute", "y", 6, 1, {{"armor", 1}});
  auto r = MakeRoster({a, b});
  Terrain(r, 5, 1, "full_cover");
  Table t(ApRp(), r);
  EXPECT_EQ(t.Submit(Attack("aria", "brute", "bow")).status().code(), absl::StatusCode::kFailedPrecondition);
  auto c = Attack("aria", "brute", "bow");
  With(c, "lean_x", 3);
  With(c, "lean_y", 4);
  auto ev = t.Submit(c, {15, 3});
  EXPECT_EQ(ev.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(ev.status().message().find("not in full cover"), std::string::npos) << ev.status();
  EXPECT_FALSE(Has(t, "aria", kLeaning));
  EXPECT_EQ(Res(t, "brute", kVitality), 30);
  EXPECT_EQ(Res(t, "aria", kAp), 3);
}

// l.112: leaning out of full cover to a square next to you, you target as
// if standing there, and have half cover while leaning.
TEST(Attack, LeaningOutOfFullCover) {
  auto r = Roster(6, 1);
  Terrain(r, 2, 1, "full_cover");
  Table t(ApRp(), r);
  EXPECT_EQ(t.Submit(Attack("aria", "brute", "bow")).status().code(), absl::StatusCode::kFailedPrecondition);
  auto c = LeaningShot();
  auto ev = t.Submit(c, {15, 3});  // from (1,2): 5 m, no enemy within 1 m
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "004.evasion", "enemy_in_melee_range"), -999);
  EXPECT_TRUE(Has(t, "aria", kLeaning));
  EXPECT_EQ(Res(t, "brute", kVitality), 28);
  auto bad = Attack("aria", "brute", "bow");
  With(bad, "lean_x", 2);
  With(bad, "lean_y", 2);
  EXPECT_EQ(t.Submit(bad).status().code(), absl::StatusCode::kFailedPrecondition);
}

// l.54, l.56, l.58: an Ability attack uses the Archetype's Primary and
// Secondary Stat; its critical adds 6 + 3 per Tier; non-lethal subtracts
// 1d4 + 1d4 per Tier.
TEST(Attack, AbilityAttack) {
  auto a = Being("aria", "x", 1, 1, {{"ins", 20}, {"int", 16}, {"wil", 14}});
  a.tags = {"evasion_stat:str", "primary:int", "secondary:wil"};
  Arm(a, "bolt", "2d6", "ability", "", 8, {{"tier", 2}}, "heat");
  auto b = Being("brute", "y", 4, 1);
  Table t(ApRp(), MakeRoster({a, b}));
  auto ev = t.Submit(Attack("aria", "brute", "bolt"), {20, 3, 4});
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "004.attack.critical", "hit_bonus"), 6 + 2);
  EXPECT_EQ(Res(t, "brute", kVitality), 30 - (7 + 6 + 6));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("brute", "end_turn")));
  auto c = Attack("aria", "brute", "bolt");
  With(c, "nonlethal", 1);
  ev = t.Submit(c, {15, 6, 6, 1, 1, 2});  // 12 - (1 + 1 + 2)
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "004.attack.nonlethal", "nonlethal_minus"), 4);
  EXPECT_EQ(Res(t, "brute", kVitality), 11 - 8);
}

// l.52: an object is hit automatically.
TEST(Attack, ObjectsAreHitAutomatically) {
  auto a = Being("aria", "x", 1, 1, {{"ins", 20}});
  Arm(a, "ax", "1d8", "melee");
  auto door = kernel::testing::Creature("door", "none", 2, 1, {{"vitality", 10}, {"armor", 2}});
  door.tags.push_back("object");
  auto foe = Being("foe", "y", 15, 15, {{"ins", 0}});  // l.2: two parties
  Table t(ApRp(), MakeRoster({a, door, foe}));
  ASSERT_TRUE(t.status().ok()) << t.status();
  ASSERT_OK(t.Submit(Attack("aria", "door", "ax"), {7}));
  EXPECT_EQ(Res(t, "door", kVitality), 5);
  // 004 l.58 "A creature does not start bleeding ...": Bleeding is a
  // creature's; an object knocked below 1 (5 - (7 - 2) = 0) does not bleed.
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("foe", "end_turn")));
  ASSERT_OK(t.Submit(Attack("aria", "door", "ax"), {7}));
  EXPECT_EQ(Res(t, "door", kVitality), 0);
  EXPECT_FALSE(Has(t, "door", kBleeding));
}


// l.112: no effect from the direction of full cover targets the creature,
// a Defense Roll's included; leaning out of full cover is half cover: +1 DR
// (l.111, l.112).
TEST(Attack, FullCoverAndLeaningForDefenseRolls) {
  auto r = Roster(6, 1);
  Terrain(r, 5, 1, "full_cover");
  Table t(ApRp(), r);
  auto dr = GmDr("aria", "brute", "wil", "a fear effect");
  auto refused = t.Submit(dr);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(refused.status().message().find("l.112"), std::string::npos);
  auto fm = Gm("aria", "force_move", "a gust");
  fm.targets = {"brute"};
  fm = Path(fm, {{7, 1}});
  EXPECT_EQ(t.Submit(fm).status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(Attack, LeaningCreatureHasHalfCoverForDefenseRolls) {
  auto r = Roster(6, 1);
  Terrain(r, 2, 1, "full_cover");
  Table t(ApRp(), r);
  auto dr = GmDr("brute", "aria", "wil", "a fear effect");
  EXPECT_EQ(t.Submit(dr).status().code(), absl::StatusCode::kFailedPrecondition);  // full cover
  ASSERT_NO_FATAL_FAILURE(AriaLeansOutAndShoots(t));
  auto ev = t.Submit(dr, {10});  // 10 + 0 + 0 + 1 (half cover) = 11
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "004.dr", "half_cover"), 1);
  EXPECT_EQ(NumOf(*ev, "004.dr", "total"), 11);
}


// 004 l.112 "While you are in full cover, you can lean towards a space next
// to you, allowing you to see and target anything as if you were standing in
// that space": an effect calling for a DR (the GM's defense_roll for the
// actor's effect) is targeted as an attack is. aria behind the full_cover
// at (2,1) cannot target the brute at (6,1); leaning to (1,2) she can: the
// brute rolls its Will DR, 10 + 0 + 0 = 10, and aria leans (half cover) to
// the end of her turn; from the open there is nothing to lean out of
// (black-box: defense_roll took no lean_x / lean_y, so a creature in full
// cover could never target with an effect calling for a DR).
TEST(Attack, LeaningOutOfFullCoverForAnEffectCallingForADr) {
  auto r = Roster(6, 1);
  Terrain(r, 2, 1, "full_cover");
  Table t(ApRp(), r);
  auto dr = GmDr("aria", "brute", "wil", "a fear effect");
  EXPECT_EQ(t.Submit(dr).status().code(), absl::StatusCode::kFailedPrecondition);  // full cover
  With(dr, "lean_x", 1);
  With(dr, "lean_y", 2);
  auto ev = t.Submit(dr, {10});
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "004.dr", "total"), 10);
  EXPECT_TRUE(Has(t, "aria", kLeaning));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  EXPECT_FALSE(Has(t, "aria", kLeaning));
  auto open = GmDr("brute", "aria", "wil", "a fear effect");
  With(open, "lean_x", 6);
  With(open, "lean_y", 2);
  auto refused = t.Submit(open);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(refused.status().message().find("nothing to lean out of"), std::string::npos) << refused.status();
  EXPECT_FALSE(Has(t, "brute", kLeaning));
}

// 004 l.111 "Half cover grants you +2 Evasion against all ranged attacks
// that come from the direction of the cover and increases all of your DR by
// 1 against all effects that come from that same direction" with l.112 "You
// have half cover while leaning out of full cover": aria leans out of the
// full_cover at (2,1) to shoot the brute at (6,1). From the brute's side (the
// full cover's direction) her DR gets +1 (10 + 0 + 0 + 1 = 11); cob, at
// (1,5) on her open side, has a clear line: no half cover, 10 + 0 + 0 = 10
// (black-box: leaning gave +1 DR and +2 Evasion from every direction).
TEST(Attack, LeaningHalfCoverOnlyFromTheFullCoversDirection) {
  auto a = Being("aria", "x", 1, 1, {{"str", 13}, {"dex", 13}, {"ins", 20}});
  Arm(a, "bow", "1d6", "ranged", "dex/str", 10);
  auto b = Being("brute", "y", 6, 1, {{"armor", 1}});
  auto cob = Being("cob", "y", 1, 5, {});
  auto r = MakeRoster({a, b, cob});
  Terrain(r, 2, 1, "full_cover");
  Table t(ApRp(), r);
  ASSERT_NO_FATAL_FAILURE(AriaLeansOutAndShoots(t));
  auto from_brute = GmDr("brute", "aria", "wil", "a fear effect");
  auto ev = t.Submit(from_brute, {10});
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "004.dr", "half_cover"), 1);
  EXPECT_EQ(NumOf(*ev, "004.dr", "total"), 11);
  auto from_cob = GmDr("cob", "aria", "wil", "a fear effect");
  ev = t.Submit(from_cob, {10});
  ASSERT_OK(ev);
  EXPECT_EQ(Number(*ev, "half_cover").value, -999);  // none
  EXPECT_EQ(NumOf(*ev, "004.dr", "total"), 10);
}

// 004 l.112 "While you are in full cover, you can lean towards a space next
// to you ... You have half cover while leaning out of full cover": the half
// cover is the full cover it leans out of, the full_cover at (2,1) next to
// aria; cob at (9,1) stands behind a full_cover of its own at (8,1), which
// aria does not lean out of: "you can no longer be targeted by any effects
// that come from the direction of your full cover" still holds, cob's
// effect on aria is refused (black-box: any full cover on the line turned
// into the leaner's half cover, and cob's fear effect got a DR with +1).
TEST(Attack, LeaningTurnsOnlyItsOwnFullCoverIntoHalfCover) {
  auto a = Being("aria", "x", 1, 1, {{"str", 13}, {"dex", 13}, {"ins", 20}});
  Arm(a, "bow", "1d6", "ranged", "dex/str", 10);
  auto b = Being("brute", "y", 6, 1, {{"armor", 1}});
  auto cob = Being("cob", "y", 9, 1, {});
  auto r = MakeRoster({a, b, cob});
  Terrain(r, 2, 1, "full_cover");
  Terrain(r, 8, 1, "full_cover");
  Table t(ApRp(), r);
  ASSERT_NO_FATAL_FAILURE(AriaLeansOutAndShoots(t));
  auto from_cob = GmDr("cob", "aria", "wil", "a fear effect");
  auto ev = t.Submit(from_cob, {10});
  EXPECT_EQ(ev.status().code(), absl::StatusCode::kFailedPrecondition) << ev.status();
  EXPECT_NE(ev.status().message().find("full cover"), std::string::npos) << ev.status();
  auto from_brute = GmDr("brute", "aria", "wil", "a fear effect");
  ev = t.Submit(from_brute, {10});  // 10 + 0 + 0 + 1 (leaning's half cover)
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "004.dr", "total"), 11);
}

// l.112 "you can lean towards a space next to you ... You have half cover
// while leaning out of full cover" (how long: reading, until the end of the
// turn it leans on) and l.9 (a held attack fires "no matter whose turn it
// is"): aria holds a bow shot leaning to (1,2) and ends her turn; the
// brute's move sets it off on the brute's turn (15 + 4 = 19 >= 17, 3 - 1 =
// 2). Aria leans until the brute's turn ends, not for good (black-box: her
// own turn had ended, so the Leaning never did).
TEST(Attack, LeaningOnAnothersTurnEndsWithThatTurn) {
  auto r = Roster(6, 1);
  Terrain(r, 2, 1, "full_cover");
  Table t(ApRp(), r);
  fb::CommandT hold = Cmd("aria", "hold_action", {"brute"});
  hold.weapon = "bow";
  WithText(hold, "action", "attack");
  WithText(hold, "trigger", "moves");
  With(hold, "lean_x", 1);
  With(hold, "lean_y", 2);
  ASSERT_OK(t.Submit(hold));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_EQ(t.state().active, "brute");
  ASSERT_OK(t.Submit(Path(Cmd("brute", "move"), {{5, 1}}), {15, 3}));
  EXPECT_EQ(Res(t, "brute", kVitality), 28);
  EXPECT_TRUE(Has(t, "aria", kLeaning));  // during the brute's turn
  ASSERT_OK(t.Submit(Cmd("brute", "end_turn")));
  EXPECT_EQ(t.state().round, 2);
  ASSERT_EQ(t.state().active, "aria");
  EXPECT_FALSE(Has(t, "aria", kLeaning));  // ended with the brute's turn
}

// l.56: a critical weapon attack with a Maneuver of Tier 2: +6, and the
// Maneuver +3 x 2; a Maneuver goes only with a weapon attack.
TEST(Attack, CriticalWithAManeuver) {
  Table t(ApRp(), Roster());
  auto c = Attack("aria", "brute", "ax");
  With(c, "maneuver_tier", 2);
  auto ev = t.Submit(c, {20, 5});
  ASSERT_OK(ev);
  EXPECT_EQ(Res(t, "brute", kVitality), 30 - (5 + 6 + 6 - 1));  // Armor 1
  auto a = Being("aria", "x", 1, 1, {{"ins", 20}});
  Arm(a, "bolt", "2d6", "ability", "", 8, {{"tier", 2}}, "heat");
  auto b = Being("brute", "y", 4, 1);
  Table t2(ApRp(), MakeRoster({a, b}));
  auto m = Attack("aria", "brute", "bolt");
  With(m, "maneuver_tier", 1);
  auto r = t2.Submit(m);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("params.maneuver_tier"), std::string::npos);
}


// l.55: within the melee range of an enemy wielding a reach weapon (2 m):
// disadvantage; 3 m away: none.
TEST(Attack, RangedWithinAnEnemysReachHasDisadvantage) {
  auto a = Being("aria", "x", 1, 1, {{"ins", 20}});
  Arm(a, "bow", "1d6", "ranged", "dex/str", 10);
  auto b = Being("pike", "y", 3, 1);
  Arm(b, "pike", "1d8", "melee", "str/dex", 0, {{"reach", 1}});
  Table t(ApRp(), MakeRoster({a, b}));
  auto ev = t.Submit(Attack("aria", "pike", "bow"), {19, 5});
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "004.evasion", "enemy_in_melee_range"), 1);
  auto c = Being("club", "y", 4, 1);
  Arm(c, "club", "1d8", "melee");
  Table t2(ApRp(), MakeRoster({a, c}));
  ev = t2.Submit(Attack("aria", "club", "bow"), {19, 5});
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "004.evasion", "enemy_in_melee_range"), -999);
}


// l.17 (the Attack action is "one weapon attack", 2 AP) and l.54: an Ability
// attack costs its Ability's AP (roster weapon number "ap"), else 2.
TEST(Attack, AbilityAttackCostsItsAbilitysAp) {
  auto a = Being("aria", "x", 1, 1, {{"ins", 20}});
  Arm(a, "bolt", "2d6", "ability", "", 8, {{"tier", 1}, {"ap", 3}}, "heat");
  Arm(a, "spark", "1d4", "ability", "", 8, {}, "shock");
  auto b = Being("brute", "y", 4, 1);
  Table t(ApRp(), MakeRoster({a, b}));
  ASSERT_OK(t.Submit(Attack("aria", "brute", "bolt"), {2}));
  EXPECT_EQ(Res(t, "aria", kAp), 0);
  Table t2(ApRp(), MakeRoster({a, b}));
  ASSERT_OK(t2.Submit(Attack("aria", "brute", "spark"), {2}));
  EXPECT_EQ(Res(t2, "aria", kAp), 1);
}

}  // namespace
}  // namespace combat::kernel::aprp
