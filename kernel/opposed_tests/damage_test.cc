// Damage mitigation (damage.cc): AR, BR, half BR vs magic, resistances.
#include "gtest/gtest.h"
#include "kernel/opposed_tests/test_util.h"

namespace combat::kernel::opposed::testutil {
namespace {

Combatant Target(Stats stats) {
  Combatant c;
  c.id = "t";
  for (const auto& [k, v] : stats) c.stats[k] = v;
  return c;
}

TEST(Damage, ArReducesPhysicalOnly) {  // l.142: Iron Armor AR 5
  const Combatant t = Target({{"ar", 5}});
  EXPECT_EQ(ComputeDamage(t, {9, "slashing", false, 0}).dealt, 4);
  EXPECT_EQ(ComputeDamage(t, {9, "fire", false, 0}).dealt, 9);
  EXPECT_EQ(ComputeDamage(t, {3, "crushing", false, 0}).dealt, 0);
}

TEST(Damage, OneArmorSourceAtATimeTheBest) {  // l.143
  const Combatant t = Target({{"ar", 2}, {"ar.iron", 5}, {"ar.leather", 3}});
  EXPECT_EQ(ComputeDamage(t, {9, "slashing", false, 0}).dealt, 4);  // 9 - 5, not 9 - 10
}

// l.143 "you choose which one to use": the wearer's choice, per attack
// (defend param armor) or standing (tag armor:<source>), one rating only.
TEST(Damage, TheWearersChoiceOfArmorSource) {
  Combatant t = Target({{"ar", 2}, {"ar.iron", 5}, {"ar_magical.runed", 3}, {"ar.runed", 1}});
  DamageIn leather{9, "slashing", false, 0, "ar"};
  EXPECT_EQ(ComputeDamage(t, leather).dealt, 7);  // 9 - 2
  DamageIn runed{9, "slashing", false, 0, "runed"};
  EXPECT_EQ(ComputeDamage(t, runed).dealt, 8);  // 9 - 1
  DamageIn runed_fire{9, "fire", false, 0, "runed"};
  EXPECT_EQ(ComputeDamage(t, runed_fire).dealt, 6);  // 9 - 3 (l.141)
  DamageIn iron_fire{9, "fire", false, 0, "iron"};
  EXPECT_EQ(ComputeDamage(t, iron_fire).dealt, 9);  // iron: no magical AR
  t.tags = {"armor:runed"};  // standing choice
  EXPECT_EQ(ComputeDamage(t, {9, "slashing", false, 0}).dealt, 8);
  EXPECT_EQ(ComputeDamage(t, {9, "slashing", false, 0, "iron"}).dealt, 4);  // this attack
}

// l.137 "from multiple sources, you only benefit from the highest one".
TEST(Damage, SeveralSourcesOfOneResistanceTheHighest) {
  const Combatant t = Target({{"resist.fire.ancestry", 2}, {"resist.fire.ring", 4}, {"resist.magical", 3},
                              {"vuln.crushing.curse", 1}, {"vuln.crushing", 2}});
  EXPECT_EQ(ComputeDamage(t, {10, "fire", false, 0}).dealt, 6);      // 10 - 4
  EXPECT_EQ(ComputeDamage(t, {10, "frost", false, 0}).dealt, 7);     // 10 - 3
  EXPECT_EQ(ComputeDamage(t, {10, "crushing", false, 0}).dealt, 12);  // 10 + 2
}

// Reading of the order (README): rolled - AR - BR share - resistance +
// vulnerability, floored at 0 once, at the end.
TEST(Damage, OrderAndFloor) {
  const Combatant t = Target({{"ar", 5}, {"vuln.crushing", 3}, {"resist.slashing", 2}});
  EXPECT_EQ(ComputeDamage(t, {3, "crushing", false, 0}).dealt, 1);   // 3 - 5 + 3
  EXPECT_EQ(ComputeDamage(t, {12, "slashing", true, 4}).dealt, 1);   // 12 - 5 - 4 - 2
  EXPECT_EQ(ComputeDamage(t, {6, "slashing", true, 4}).dealt, 0);    // never below 0
}

TEST(Damage, BoneShieldBlocksSixPhysicalThreeMagical) {  // l.145
  const Combatant t = Target({});
  EXPECT_EQ(ComputeDamage(t, {10, "piercing", true, 6}).dealt, 4);
  EXPECT_EQ(ComputeDamage(t, {10, "frost", true, 6}).dealt, 7);
  EXPECT_EQ(ComputeDamage(t, {10, "frost", true, 5}).dealt, 7);  // half of 5 rounds up to 3
}

// Seed 003 l.62: "The attacker rolls damage which is reduced by the
// shield's Block Rating (BR)"; l.145 halves BR for magical damage only, so
// acid, force, psychic and the other types (l.127-133) lose the full BR:
// 10 acid blocked with BR 6: 10 - 6 = 4 (the old code dealt 10).
TEST(Damage, ABlockTakesTheFullBrOffTheOtherDamageTypes) {
  const Combatant t = Target({});
  EXPECT_EQ(ComputeDamage(t, {10, "acid", true, 6}).dealt, 4);
  EXPECT_EQ(ComputeDamage(t, {10, "psychic", true, 5}).dealt, 5);
  EXPECT_EQ(ComputeDamage(t, {4, "force", true, 6}).dealt, 0);  // never below 0
}

TEST(Damage, ResistanceByTypeAndGroupHighestOnly) {  // l.135, l.137
  const Combatant ork = Target({{"resist.magical", 2}, {"resist.fire", 3}});
  EXPECT_EQ(ComputeDamage(ork, {8, "fire", false, 0}).dealt, 5);
  EXPECT_EQ(ComputeDamage(ork, {8, "shock", false, 0}).dealt, 6);
  EXPECT_EQ(ComputeDamage(ork, {8, "slashing", false, 0}).dealt, 8);
}

TEST(Damage, VulnerabilityMostSevere) {  // l.136-137
  const Combatant t = Target({{"vuln.crushing", 3}, {"vuln.physical", 1}});
  EXPECT_EQ(ComputeDamage(t, {4, "crushing", false, 0}).dealt, 7);
  EXPECT_EQ(ComputeDamage(t, {4, "slashing", false, 0}).dealt, 5);
}

// Seed 003 l.119-126: "Physical Damage: Crushing ... Piercing ...
// Slashing" and "Magical Damage: Fire ... Frost ... Shock"; l.140 "Being
// unarmored grants you no protection". Each of the six by hand, against
// AR 5 (l.142: physical only), Magic Resistance (2) (l.135: fire, frost
// and shock) and a blocked BR 5 (l.145: physical 5, magical ceil(5/2) = 3):
// physical 12 - 5 - 5 = 2; magical 12 - 3 - 2 = 7;
// unarmored, unblocked: 12 of any of them.
TEST(Damage, TheSixTypesOfTheTwoGroupsByHand) {
  const Combatant t = Target({{"ar", 5}, {"resist.magical", 2}});
  for (const char* type : {"crushing", "piercing", "slashing"}) {
    EXPECT_EQ(ComputeDamage(t, {12, type, false, 0}).dealt, 7) << type;  // 12 - AR 5
    EXPECT_EQ(ComputeDamage(t, {12, type, true, 5}).dealt, 2) << type;   // 12 - 5 - BR 5
  }
  for (const char* type : {"fire", "frost", "shock"}) {
    EXPECT_EQ(ComputeDamage(t, {12, type, false, 0}).dealt, 10) << type;  // 12 - 2, no AR
    EXPECT_EQ(ComputeDamage(t, {12, type, true, 5}).dealt, 7) << type;    // 12 - 3 - 2
  }
  const Combatant unarmored = Target({});
  for (const char* type : {"crushing", "piercing", "slashing", "fire", "frost", "shock"}) {
    EXPECT_EQ(ComputeDamage(unarmored, {12, type, false, 0}).dealt, 12) << type;
  }
}

}  // namespace
}  // namespace combat::kernel::opposed::testutil
