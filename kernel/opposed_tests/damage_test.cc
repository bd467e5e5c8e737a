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

TEST(Damage, BoneShieldBlocksSixPhysicalThreeMagical) {  // l.145
  const Combatant t = Target({});
  EXPECT_EQ(ComputeDamage(t, {10, "piercing", true, 6}).dealt, 4);
  EXPECT_EQ(ComputeDamage(t, {10, "frost", true, 6}).dealt, 7);
  EXPECT_EQ(ComputeDamage(t, {10, "frost", true, 5}).dealt, 7);  // half of 5 rounds up to 3
  EXPECT_EQ(ComputeDamage(t, {10, "acid", true, 6}).dealt, 10);
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

}  // namespace
}  // namespace combat::kernel::opposed::testutil
