// Damage and healing (seed 000 L127, L140, L152, L168).
#include "gtest/gtest.h"
#include "kernel/d20_three_action/internal.h"
#include "kernel/d20_three_action/test_util.h"

namespace combat::kernel::d20 {
namespace {

using namespace testing;  // NOLINT

fb::RosterT Pair(int gob_hp) {
  fb::CombatantSpecT a = Being("aria", "party", 0, 0);
  Arm(a, "axe", "1d12", "melee", "heavy");
  return MakeRoster(
      {std::move(a), Being("gob", "goblins", 1, 0, {{"hp", gob_hp}})});
}

fb::CommandT Axe() {
  fb::CommandT c = Cmd("aria", "attack", {"gob"});
  c.weapon = "axe";
  return c;
}

TEST(Damage, ZeroHpIncapacitatesKnocksProneAndStartsBleeding) {
  Table t(D20ThreeAction(), Pair(8), {15, 10});
  auto ev = t.Submit(Axe(), {10, 5});  // 5 + 3 = 8 damage: 0 HP
  ASSERT_OK(ev);
  EXPECT_EQ(Res(t, "gob", kHp), 0);
  EXPECT_TRUE(Has(t, "gob", kIncapacitated));  // L152
  EXPECT_TRUE(Has(t, "gob", kProne));
  EXPECT_TRUE(Has(t, "gob", kBleeding));
  EXPECT_FALSE(Has(t, "gob", kDead));
  EXPECT_TRUE(Cites(*ev, "000.incapacitated"));
  // Already incapacitated: further damage does not add conditions again.
  // (Prone: the melee attack has Advantage, 2d20kh1 = 10.)
  ASSERT_OK(t.Submit(Axe(), {10, 1, 1}));
  EXPECT_EQ(Res(t, "gob", kHp), -4);
  EXPECT_EQ(Named(*t.state().Find("gob"), kBleeding).size(), 1u);
  EXPECT_EQ(Res(t, "gob", kBleedPenalty), 2);
}

TEST(Damage, DeadAtNegativeMaxHp) {
  Table t(D20ThreeAction(), Pair(6), {15, 10});
  ASSERT_OK(t.Submit(Axe(), {10, 6}));  // 9: HP -3
  EXPECT_FALSE(Has(t, "gob", kDead));
  ASSERT_OK(t.Submit(Axe(), {10, 1, 1}));  // prone: kh1; 4: HP -7 <= -6 (L140)
  EXPECT_TRUE(Has(t, "gob", kDead));
  EXPECT_FALSE(Has(t, "gob", kIncapacitated));
  EXPECT_FALSE(Has(t, "gob", kBleeding));
  auto out = t.Submit(Axe());
  EXPECT_EQ(out.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(out.status().message().find("Dead"), std::string::npos);
}

TEST(Damage, HealingLowersThePenaltyAndWakes) {
  Table t(D20ThreeAction(), Pair(8), {15, 10});
  ASSERT_OK(t.Submit(Axe(), {10, 9}));  // 12: HP -4, penalty 1
  fb::CommandT heal = Gm("gm", "heal", "potion of healing");
  heal.actor = "";
  heal.targets = {"gob"};
  With(heal, "amount", 10);
  ASSERT_OK(t.Submit(heal));
  EXPECT_EQ(Res(t, "gob", kHp), 6);
  EXPECT_EQ(Res(t, "gob", kBleedPenalty), 0);   // L127: healed: -1
  EXPECT_FALSE(Has(t, "gob", kIncapacitated));  // L152: above 0 HP
  EXPECT_TRUE(Has(t, "gob", kBleeding));        // only Medicine ends it
  ASSERT_OK(t.Submit(heal));
  EXPECT_EQ(Res(t, "gob", kHp), 8);  // not above max HP
  fb::CommandT player = heal;
  player.role = fb::Role::Player;
  EXPECT_EQ(t.Submit(player).status().code(),
            absl::StatusCode::kPermissionDenied);
}


// 000 l.127: "Any time the Creature is healed, their Bleed Penalty is
// reduced by 1": a heal applied is "healed" even with no HP missing
// (README "Healing", black-box pass 3); the penalty never goes below 0.
TEST(Damage, AHealAtFullHpStillLowersTheBleedPenalty) {
  Table t(D20ThreeAction(), Pair(20), {15, 10});
  fb::CommandT set = Gm("gob", "gm_set", "old wounds");
  WithText(set, "resource", "bleed_penalty");
  With(set, "value", 2);
  ASSERT_OK(t.Submit(set));
  fb::CommandT heal = Gm("gm", "heal", "potion of healing");
  heal.actor = "";
  heal.targets = {"gob"};
  With(heal, "amount", 5);
  ASSERT_OK(t.Submit(heal));
  EXPECT_EQ(Res(t, "gob", kHp), 20);  // already at max HP
  EXPECT_EQ(Res(t, "gob", kBleedPenalty), 1);
  ASSERT_OK(t.Submit(heal));
  ASSERT_OK(t.Submit(heal));
  EXPECT_EQ(Res(t, "gob", kBleedPenalty), 0);  // not below 0
}

// 000 l.152: "A Creature with 0 or less HP that is not Dead is
// Incapacitated. When a Creature first becomes Incapacitated it is knocked
// Prone, and begins Bleeding"; l.140: "A Creature dies when it has a negative
// HP equal to or greater than its max HP". HP changed by ruling (fall
// damage, l.79, is the GM's gm_adjust hp) counts as any other HP; l.127
// "Any time the Creature takes Damage, their Bleed Penalty increases by 1".
TEST(Damage, HpByRulingIncapacitatesKillsAndRevives) {
  Table t(D20ThreeAction(), Pair(8), {15, 10});
  fb::CommandT fall = Gm("gob", "gm_adjust", "fell 30 ft");
  WithText(fall, "resource", "hp");
  With(fall, "delta", -8);
  auto ev = t.Submit(fall);
  ASSERT_OK(ev);
  EXPECT_EQ(Res(t, "gob", kHp), 0);
  EXPECT_TRUE(Has(t, "gob", kIncapacitated));
  EXPECT_TRUE(Has(t, "gob", kProne));
  EXPECT_TRUE(Has(t, "gob", kBleeding));
  EXPECT_TRUE(Cites(*ev, "000.incapacitated"));
  EXPECT_EQ(Res(t, "gob", kBleedPenalty), 1);  // l.127: took Damage
  fb::CommandT up = Gm("gob", "gm_set", "revived by the GM");
  WithText(up, "resource", "hp");
  With(up, "value", 3);
  ASSERT_OK(t.Submit(up));
  EXPECT_FALSE(Has(t, "gob", kIncapacitated));  // 3 HP: no longer (l.152)
  EXPECT_TRUE(Has(t, "gob", kBleeding));        // only Medicine ends it
  fb::CommandT fall2 = Gm("gob", "gm_adjust", "fell 50 ft");
  WithText(fall2, "resource", "hp");
  With(fall2, "delta", -10);  // 3 - 10 = -7: alive (-7 > -8)
  ASSERT_OK(t.Submit(fall2));
  EXPECT_EQ(Res(t, "gob", kHp), -7);
  EXPECT_EQ(Res(t, "gob", kBleedPenalty), 2);  // gm_set is no Damage
  EXPECT_TRUE(Has(t, "gob", kIncapacitated));
  EXPECT_FALSE(Has(t, "gob", kDead));
  fb::CommandT one = Gm("gob", "gm_adjust", "fell again");
  WithText(one, "resource", "hp");
  With(one, "delta", -1);  // -8 = -max HP: dead (l.140)
  ev = t.Submit(one);
  ASSERT_OK(ev);
  EXPECT_TRUE(Has(t, "gob", kDead));
  EXPECT_FALSE(Has(t, "gob", kIncapacitated));
  EXPECT_TRUE(Cites(*ev, "000.dead"));
}

// 000 l.133 "Unconscious - You fall Unconscious" (the Bleed Table, at any
// HP): fall damage by ruling to an Unconscious creature above 0 HP does not
// wake it (only HP rising from 0 or less does, l.152).
TEST(Damage, DamageByRulingWakesNoOne) {
  Table t(D20ThreeAction(), Pair(8), {15, 10});
  GmAdd(t, "gob", "unconscious");
  fb::CommandT fall = Gm("gob", "gm_adjust", "fell 10 ft");
  WithText(fall, "resource", "hp");
  With(fall, "delta", -3);
  ASSERT_OK(t.Submit(fall));
  EXPECT_EQ(Res(t, "gob", kHp), 5);
  EXPECT_TRUE(Has(t, "gob", kUnconscious));
  EXPECT_EQ(Res(t, "gob", kBleedPenalty), 1);
}

}  // namespace
}  // namespace combat::kernel::d20
