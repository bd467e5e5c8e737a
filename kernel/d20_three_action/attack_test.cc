// Attacks (seed 000 L27-L33, L115, L121): bonuses, hits at >= defense,
// critical successes, range increments, area attacks, hidden targets.
#include "gtest/gtest.h"
#include "kernel/d20_three_action/internal.h"
#include "kernel/d20_three_action/test_util.h"

namespace combat::kernel::d20 {
namespace {

using namespace testing;  // NOLINT

// aria (level 1, STR 3, DEX 2, ESS 1) next to gob (Physical Defense 12).
fb::RosterT Melee(int gob_x = 1,
                  std::vector<std::pair<std::string, int64_t>> gob = {}) {
  fb::CombatantSpecT a = Being("aria", "party", 0, 0);
  Arm(a, "spear", "1d8", "melee", "medium");
  Arm(a, "maul", "1d10", "melee", "heavy");
  Arm(a, "bow", "1d6", "ranged", "medium", 5, 30);
  Arm(a, "wand", "1d6", "spell", "", 5, 60, {{"mental", 1}});
  Arm(a, "burst", "2d6", "spell", "", 5, 60);
  Arm(a, "venom", "1d4", "melee", "light", 5, 0,
      {{"poison", 2}, {"poison_rounds", 2}});
  return MakeRoster({std::move(a), Being("gob", "goblins", gob_x, 0, gob)}, 40,
                    20);
}

fb::CommandT Attack(const std::string& weapon,
                    std::vector<std::string> t = {"gob"}) {
  fb::CommandT c = Cmd("aria", "attack", std::move(t));
  c.weapon = weapon;
  return c;
}

TEST(Attack, MeleeHitDealsWeaponDamagePlusStr) {
  Table t(D20ThreeAction(), Melee(), {15, 10});
  auto ev = t.Submit(Attack("spear"), {10, 5});
  ASSERT_OK(ev);
  // L29: d20 10 + Level 1 + STR 3 = 14 >= 12 (L33); 1d8 5 + STR 3 = 8.
  EXPECT_EQ(NumOf(*ev, "000.attack.melee", "total"), 14);
  EXPECT_EQ(NumOf(*ev, "000.attack.melee", "physical_defense"), 12);
  EXPECT_EQ(Res(t, "gob", kHp), 12);
  EXPECT_EQ(Res(t, "gob", kBleedPenalty), 1);  // L127
  EXPECT_EQ(Res(t, "aria", kActions), 2);
}

// seed 000 L27 "On a success you deal Damage with your Weapon"; L29 melee
// damage adds STR. aria STR -3 with a 1d4 club: d20 12 + Level 1 + DEX 2
// (L29, Medium) = 15 >= 12 hits; 1d4 rolls 2, 2 - 3 = -1, never negative: 0.
// No HP changes, so there is no damage event: an outcome says the hit
// dealt 0 (was: only the roll in the log).
TEST(Attack, AHitThatDealsNothingSaysSo) {
  fb::RosterT r = MakeRoster(
      {[] {
         fb::CombatantSpecT a = Being("aria", "party", 0, 0, {{"str", -3}});
         Arm(a, "club", "1d4", "melee", "medium");
         return a;
       }(),
       Being("gob", "goblins", 1, 0)},
      40, 20);
  Table t(D20ThreeAction(), r, {15, 10});
  fb::CommandT c = Cmd("aria", "attack", {"gob"});
  c.weapon = "club";
  auto ev = t.Submit(c, {12, 2});
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "000.attack.melee", "hit"), 1);
  EXPECT_EQ(NumOf(*ev, "000.attack", "damage"), 0);
  EXPECT_TRUE(Cites(*ev, "000.attack"));
  EXPECT_EQ(Res(t, "gob", kHp), 20);
  EXPECT_EQ(Res(t, "gob", kBleedPenalty), 0);  // L127: no Damage taken
}

TEST(Attack, MissAndHitAtExactlyTheDefense) {
  Table t(D20ThreeAction(), Melee(), {15, 10});
  ASSERT_OK(t.Submit(Attack("spear"), {7}));  // 11 < 12: miss, no damage die
  EXPECT_EQ(Res(t, "gob", kHp), 20);
  ASSERT_OK(t.Submit(Attack("spear"), {8, 1}));  // 12 >= 12: hit
  EXPECT_EQ(Res(t, "gob", kHp), 16);
}

TEST(Attack, BeatingTheDefenseByTenIsACriticalDoublingDamage) {
  Table t(D20ThreeAction(), Melee(), {15, 10});
  auto ev = t.Submit(Attack("spear"), {18, 5});  // 22 = 12 + 10
  ASSERT_OK(ev);
  EXPECT_TRUE(Cites(*ev, "000.attack.critical"));
  EXPECT_EQ(Res(t, "gob", kHp), 20 - 16);  // (5 + 3) x 2 (L27)
}

TEST(Attack, NaturalTwentyThatHitsIsCritical) {
  Table t(D20ThreeAction(), Melee(1, {{"physical_defense", 24}}), {15, 10});
  ASSERT_OK(t.Submit(Attack("spear"), {20, 1}));  // 24 >= 24, natural 20
  EXPECT_EQ(Res(t, "gob", kHp), 20 - 8);
  Table u(D20ThreeAction(), Melee(1, {{"physical_defense", 25}}), {15, 10});
  ASSERT_OK(u.Submit(Attack("spear"), {20}));  // a natural 20 that misses
  EXPECT_EQ(Res(u, "gob", kHp), 20);
}

TEST(Attack, DexOnlyWithLightOrMediumWeapons) {
  fb::RosterT r = Melee();
  r.combatants[0]->stats[2]->value = 6;  // DEX 6
  Table t(D20ThreeAction(), r, {15, 10});
  auto ev = t.Submit(Attack("spear"), {5, 2});  // 5 + 1 + DEX 6 = 12
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "000.attack.melee", "dex"), 6);
  EXPECT_EQ(Res(t, "gob", kHp), 20 - 5);  // damage still adds STR 3
  fb::CommandT heavy = Attack("maul");
  WithText(heavy, "stat", "dex");
  EXPECT_EQ(t.Submit(heavy).status().code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST(Attack, RangeIncrementsRoundDown) {
  Table t(D20ThreeAction(), Melee(13), {15, 10});  // 65 ft away
  auto ev = t.Submit(Attack("bow"), {11, 4});
  ASSERT_OK(ev);
  // L31: 65 / 30 = 2 (rounded down): -2. 11 + 1 + 2 - 2 = 12 hits.
  EXPECT_EQ(NumOf(*ev, "000.attack.ranged", "range_penalty"), -2);
  EXPECT_EQ(NumOf(*ev, "000.attack.ranged", "total"), 12);
  EXPECT_EQ(Res(t, "gob", kHp), 16);  // 1d6 = 4, no STR
}

// 000 l.31: "If the target of the Attack is farther away than the Range
// Increment of the Weapon you take a -1 Penalty on the Attack for every
// Range Increment it is from you rounded down"; l.27: an Area attack makes
// "a single Attack roll". Each target takes the penalty of its own
// distance: one d20 of 11 + 3 is 14 at gob (30 ft, no penalty) and
// 14 - 2 = 12 at orc (65 ft: 65 / 30 = 2).
TEST(Attack, AnAreaAttackTakesEachTargetsOwnRangePenalty) {
  fb::RosterT r = Melee(6);
  r.combatants.push_back(std::make_unique<fb::CombatantSpecT>(
      Being("orc", "goblins", 13, 5, {{"physical_defense", 13}})));
  Table t(D20ThreeAction(), r, {15, 10, 5});
  fb::CommandT c = Attack("bow", {"gob", "orc"});
  With(c, "area", 1);
  auto ev = t.Submit(c, {11, 4});
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "000.attack.ranged", "range_penalty"), -2);  // orc
  EXPECT_EQ(NumOf(*ev, "000.attack.ranged", "distance_ft"), 65);
  EXPECT_EQ(NumOf(*ev, "000.attack.ranged", "total"), 12);  // < 13: miss
  EXPECT_EQ(Res(t, "gob", kHp), 16);  // 14 >= 12: 1d6 = 4
  EXPECT_EQ(Res(t, "orc", kHp), 20);
}

// seed 000 l.121 "If being attacked by an Effect with an Area determine
// Cover based on the point of origin of the Area", by hand: aria (0, 1)
// casts her burst (Spell Attack d20 + Level 1 + ESS 1, l.33) at gob (6, 1)
// with orc at (3, 1) in between (l.121 "partially obscured by a Creature ...
// of at least their Size": Cover, Disadvantage). From aria that is Cover
// (edge -1); with the Area's origin at (8, 1), beyond gob, nothing is in
// between: no Cover, edge 0, and d20 10 + 2 = 12 >= 12 hits for 2d6 = 3 + 4.
TEST(Attack, AnAreasCoverIsJudgedFromItsPointOfOrigin) {
  fb::RosterT r = Melee(6);
  r.combatants[0]->at = std::make_unique<fb::Pos>(0, 1);
  r.combatants[1]->at = std::make_unique<fb::Pos>(6, 1);
  r.combatants.push_back(
      std::make_unique<fb::CombatantSpecT>(Being("orc", "goblins", 3, 1)));
  Table t(D20ThreeAction(), r, {15, 10, 5});
  fb::CommandT from_aria = Attack("burst");
  With(from_aria, "area", 1);
  auto ev = t.Submit(from_aria, {10, 3});  // 2d20kl1: 3 + 2 = 5, a miss
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "000.attack.spell", "edge"), -1);
  EXPECT_EQ(NumOf(*ev, "000.attack.spell", "dis.cover"), 1);
  Table u(D20ThreeAction(), r, {15, 10, 5});
  fb::CommandT c = Attack("burst");
  With(c, "area", 1);
  With(c, "origin_x", 8);
  With(c, "origin_y", 1);
  ev = u.Submit(c, {10, 3, 4});
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "000.attack.spell", "edge"), 0);
  EXPECT_EQ(NumOf(*ev, "000.attack.spell", "total"), 12);
  EXPECT_EQ(Res(u, "gob", kHp), 20 - 7);
}

TEST(Attack, NoPenaltyWithinTheFirstIncrement) {
  Table t(D20ThreeAction(), Melee(6), {15, 10});  // 30 ft
  auto ev = t.Submit(Attack("bow"), {9, 4});
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "000.attack.ranged", "range_penalty"), 0);
}

TEST(Attack, RangedWithinFiveFeetHasDisadvantage) {
  Table t(D20ThreeAction(), Melee(1), {15, 10});
  auto ev = t.Submit(Attack("bow"), {15, 6});  // 2d20kl1: 6 + 3 = 9
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "000.attack.ranged", "dis.within_5ft"), 1);
  EXPECT_EQ(NumOf(*ev, "000.attack.ranged", "total"), 9);
  EXPECT_EQ(Res(t, "gob", kHp), 20);
}

TEST(Attack, SpellAttackAgainstMentalDefense) {
  Table t(D20ThreeAction(), Melee(4), {15, 10});
  auto ev = t.Submit(Attack("wand"), {8, 3});  // 8 + 1 + ESS 1 = 10 >= 10
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "000.attack.spell", "mental_defense"), 10);
  EXPECT_EQ(Res(t, "gob", kHp), 17);
}

TEST(Attack, AreaAttackMakesOneRoll) {
  fb::RosterT r = Melee(4);
  r.combatants.push_back(std::make_unique<fb::CombatantSpecT>(
      Being("orc", "goblins", 5, 0, {{"physical_defense", 15}})));
  Table t(D20ThreeAction(), r, {15, 10, 5});
  fb::CommandT c = Attack("burst", {"gob", "orc"});
  With(c, "area", 1);
  With(c, "digital_rest", 1);  // the dice after these three: seeded
  // One d20 (12 + 2 = 14: hits gob's 12, misses orc's 15), one damage roll.
  ASSERT_OK(t.Submit(c, {12, 3, 4}));
  EXPECT_EQ(Res(t, "gob", kHp), 13);
  EXPECT_EQ(Res(t, "orc", kHp), 20);
  fb::CommandT two = Attack("spear", {"gob", "orc"});
  EXPECT_EQ(t.Submit(two).status().code(), absl::StatusCode::kInvalidArgument);
}

// seed 000 l.27 "On a Critical Success you deal double Damage" and "make
// a single Attack roll for the ability" (an Area), by hand: one d20, 12 + 2
// (Level 1 + ESS 1, l.33) = 14, is a hit on gob (12) and a critical on orc
// (4: 14 >= 4 + 10); one damage roll, 2d6 = 3 + 4 = 7: gob 20 - 7 = 13,
// orc 20 - 14 = 6.
TEST(Attack, AnAreaDoublesItsOneDamageRollForACriticalTargetOnly) {
  fb::RosterT r = Melee(4);
  r.combatants.push_back(std::make_unique<fb::CombatantSpecT>(
      Being("orc", "goblins", 0, 4, {{"physical_defense", 4}})));
  Table t(D20ThreeAction(), r, {15, 10, 5});
  fb::CommandT c = Attack("burst", {"gob", "orc"});
  With(c, "area", 1);
  ASSERT_OK(t.Submit(c, {12, 3, 4}));
  EXPECT_EQ(Res(t, "gob", kHp), 13);
  EXPECT_EQ(Res(t, "orc", kHp), 6);
}

// 000 l.113 (seed 000_ab2f36f2929fdde3.txt): "All Attacks made against
// Concealed Creatures are at a Disadvantage. Attacks made against an Area
// are not subject to concealment"; l.119: "Line of Effect is not affected
// by things that prevent vision, like Darkness or Fog", while a wall that
// completely obscures the target stops the attack (l.121).
TEST(Attack, AnAreaIgnoresConcealmentAndOnlyWallsStopTheLineOfEffect) {
  fb::RosterT r = Melee(4);
  Terrain(r, 4, 0, "darkness");  // gob in darkness (l.87)
  Terrain(r, 2, 0, "fog");       // and fog between (l.91)
  Table t(D20ThreeAction(), r, {15, 10});
  // A single target: Disadvantage, 2d20kl1 = 5 + Level 1 + ESS 1 = 7 vs 12.
  auto one = t.Submit(Attack("burst"), {15, 5});
  ASSERT_OK(one);
  EXPECT_EQ(NumOf(*one, "000.attack.spell", "edge"), -1);
  EXPECT_EQ(NumOf(*one, "000.attack.spell", "total"), 7);
  EXPECT_EQ(Res(t, "gob", kHp), 20);
  // The same target in an Area: one straight d20, 10 + 2 = 12 vs 12, a hit;
  // 2d6 = 3 + 4.
  fb::CommandT area = Attack("burst");
  With(area, "area", 1);
  auto hit = t.Submit(area, {10, 3, 4});
  ASSERT_OK(hit);
  EXPECT_EQ(NumOf(*hit, "000.attack.spell", "edge"), 0);
  EXPECT_EQ(NumOf(*hit, "000.attack.spell", "total"), 12);
  EXPECT_EQ(Res(t, "gob", kHp), 13);
  // A wall across every line: no Line of Effect, no attack, Area or not.
  fb::RosterT w = Melee(4);
  Terrain(w, 2, 0, "wall");
  Terrain(w, 2, 1, "wall");
  Table u(D20ThreeAction(), w, {15, 10});
  auto blocked = u.Submit(Attack("burst"));
  EXPECT_EQ(blocked.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(blocked.status().message().find("cannot be attacked"),
            std::string::npos);
  fb::CommandT blocked_area = Attack("burst");
  With(blocked_area, "area", 1);
  EXPECT_EQ(u.Submit(blocked_area).status().code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST(Attack, HiddenTargetsNeedASquareAndTheWrongOneMisses) {
  fb::RosterT r = Melee(1);
  Tag(*r.combatants[1], "hidden");
  Table t(D20ThreeAction(), r, {15, 10});
  EXPECT_TRUE(t.state().Find("gob")->FindRelative(kHidden, "aria") != nullptr);
  auto out = t.Submit(Attack("spear"));
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
  fb::CommandT wrong = Attack("spear");
  wrong.path.emplace_back(0, 1);
  // L115: still rolled (with Disadvantage: concealed) but always misses.
  ASSERT_OK(t.Submit(wrong, {20, 20}));
  EXPECT_EQ(Res(t, "gob", kHp), 20);
  fb::CommandT right = Attack("spear");
  right.path.emplace_back(1, 0);
  ASSERT_OK(t.Submit(right, {15, 12, 2}));  // kl1: 12 + 4 = 16
  EXPECT_EQ(Res(t, "gob", kHp), 15);
  EXPECT_FALSE(Has(t, "gob", kHidden));  // hit: revealed
}

TEST(Attack, TheGmMayRuleACritical) {
  Table t(D20ThreeAction(), Melee(), {15, 10});
  fb::CommandT c = Attack("spear");
  c.author = "ann";  // a player (kernel/testing/table.h)
  With(c, "critical", 1);
  EXPECT_EQ(t.Submit(c, {10, 5}).status().code(),
            absl::StatusCode::kPermissionDenied);
  c.role = fb::Role::GM;
  c.text = "called shot, as agreed";
  auto ev = t.Submit(c, {10, 5});
  ASSERT_OK(ev);
  EXPECT_EQ(Res(t, "gob", kHp), 20 - 16);
}

// 000 l.115 "If the wrong square is targeted the Attack roll is still made,
// but always misses": a GM's ruled Critical Success (param `critical`, the
// reading of l.27's undefined term) does not make it hit. gob, Hidden, is at
// (1,0); aria guesses (0,1): 20 HP stays, gob still Hidden (was: a hit,
// its damage rolled and doubled, gob revealed).
TEST(Attack, ARuledCriticalAtTheWrongSquareStillMisses) {
  fb::RosterT r = Melee(1);
  Tag(*r.combatants[1], "hidden");
  Table t(D20ThreeAction(), r, {15, 10});
  fb::CommandT wrong = Attack("spear");
  wrong.path.emplace_back(0, 1);
  wrong.role = fb::Role::GM;
  wrong.text = "called shot";
  With(wrong, "critical", 1);
  auto ev = t.Submit(wrong, {20, 20});
  ASSERT_OK(ev);
  EXPECT_EQ(Res(t, "gob", kHp), 20);
  EXPECT_EQ(NumOf(*ev, "000.attack.melee", "hit"), 0);
  EXPECT_EQ(NumOf(*ev, "000.attack.melee", "critical"), 0);
  EXPECT_TRUE(t.state().Find("gob")->FindRelative(kHidden, "aria") != nullptr);
}

TEST(Attack, RefusalsNameTheFieldOrTheRule) {
  Table t(D20ThreeAction(), Melee(3), {15, 10});
  auto out = t.Submit(Attack("sword"));
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(out.status().message().find("'weapon'"), std::string::npos);
  out = t.Submit(Attack("spear", {}));
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(out.status().message().find("'targets'"), std::string::npos);
  out = t.Submit(Attack("spear"));  // 15 ft away, reach 5
  EXPECT_EQ(out.status().code(), absl::StatusCode::kFailedPrecondition);
  out = t.Submit(Attack("spear", {"nobody"}));
  EXPECT_EQ(out.status().code(), absl::StatusCode::kNotFound);
}

TEST(Attack, PoisonedWeaponsPoisonOnAHit) {
  Table t(D20ThreeAction(), Melee(), {15, 10});
  ASSERT_OK(t.Submit(Attack("venom"), {10, 1}));
  const Condition* p = t.state().Find("gob")->FindCondition(kPoisoned);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->level, 2);
  EXPECT_EQ(p->expiry.round, 3);  // 2 rounds, anchored at aria's turn
}

}  // namespace
}  // namespace combat::kernel::d20
