// Start-of-turn effects (seed 000 L127-L136, L156, L158).
#include "gtest/gtest.h"
#include "kernel/d20_three_action/internal.h"
#include "kernel/d20_three_action/test_util.h"

namespace combat::kernel::d20 {
namespace {

using namespace testing;  // NOLINT

// aria acts first; gob's turn follows. `setup` runs GM rulings on gob.
Table Bleeder(int64_t hp, int64_t penalty) {
  Table t(
      D20ThreeAction(),
      MakeRoster({Being("aria", "party", 0, 0), Being("gob", "goblins", 5, 5)}),
      {15, 10});
  fb::CommandT b = Gm("gob", "gm_condition", "wounded");
  WithText(b, "name", "bleeding");
  WithText(b, "op", "add");
  EXPECT_TRUE(t.Submit(b).ok());
  fb::CommandT h = Gm("gob", "gm_set", "wounded");
  WithText(h, "resource", "hp");
  With(h, "value", hp);
  EXPECT_TRUE(t.Submit(h).ok());
  fb::CommandT p = Gm("gob", "gm_set", "wounded");
  WithText(p, "resource", "bleed_penalty");
  With(p, "value", penalty);
  EXPECT_TRUE(t.Submit(p).ok());
  return t;
}

TEST(BleedTable, DeathBandKillsBelowZeroHp) {
  Table t = Bleeder(-3, 5);
  auto ev = t.Submit(Cmd("aria", "end_turn"), {4});  // 4 - 5 = -1 (L132)
  ASSERT_OK(ev);
  EXPECT_TRUE(Has(t, "gob", kDead));
  EXPECT_EQ(NumOf(*ev, "000.bleed.death", "result"), -1);
  EXPECT_EQ(t.state().round, 2);  // its turn ended at once
  EXPECT_EQ(t.state().active, "aria");
}

TEST(BleedTable, DeathBandAtZeroOrMoreIsUnconscious) {
  Table t = Bleeder(5, 5);
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn"), {3, 1, 1}));  // -2; then 2d6
  EXPECT_FALSE(Has(t, "gob", kDead));
  EXPECT_TRUE(Has(t, "gob", kUnconscious));
  EXPECT_TRUE(Has(t, "gob", kProne));  // L168
  EXPECT_EQ(Res(t, "gob", kHp), 3);
  EXPECT_EQ(Res(t, "gob", kActions), 0);
}

TEST(BleedTable, UnconsciousBand) {
  Table t = Bleeder(10, 0);
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn"), {5, 1, 1}));  // L133
  EXPECT_TRUE(Has(t, "gob", kUnconscious));
}

TEST(BleedTable, DeteriorateBandThenBleedDamage) {
  Table t = Bleeder(10, 0);
  auto ev = t.Submit(Cmd("aria", "end_turn"), {8, 2, 2});
  ASSERT_OK(ev);
  EXPECT_TRUE(Cites(*ev, "000.bleed.deteriorate"));  // L134: +1
  EXPECT_EQ(Res(t, "gob", kBleedPenalty), 2);        // +1 more: damage
  EXPECT_EQ(Res(t, "gob", kHp), 6);
  EXPECT_EQ(Res(t, "gob", kActions), 3);
}

TEST(BleedTable, NoEffectBandOnlyBleeds) {
  Table t = Bleeder(10, 2);
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn"), {15, 3, 3}));  // 13 (L135)
  EXPECT_EQ(Res(t, "gob", kHp), 4);
  EXPECT_EQ(Res(t, "gob", kBleedPenalty), 3);
}

TEST(BleedTable, StabilizeEndsBleedingWithoutDamage) {
  Table t = Bleeder(10, 3);
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn"), {19}));  // 16 (L136)
  EXPECT_FALSE(Has(t, "gob", kBleeding));
  EXPECT_EQ(Res(t, "gob", kBleedPenalty), 0);
  EXPECT_EQ(Res(t, "gob", kHp), 10);
}

TEST(StartOfTurn, FireAndTheHighestPoison) {
  Table t(
      D20ThreeAction(),
      MakeRoster({Being("aria", "party", 0, 0), Being("gob", "goblins", 5, 5)}),
      {15, 10});
  for (auto [name, level] : std::vector<std::pair<std::string, int>>{
           {"on_fire", 0}, {"poisoned", 1}, {"poisoned", 3}}) {
    fb::CommandT c = Gm("gob", "gm_condition", "alchemist's fire");
    WithText(c, "name", name);
    WithText(c, "op", "add");
    With(c, "level", level);
    ASSERT_OK(t.Submit(c));
  }
  // 2d6 fire (L156), then 3d6 poison: the highest level only (L158).
  auto ev = t.Submit(Cmd("aria", "end_turn"), {1, 2, 1, 1, 1});
  ASSERT_OK(ev);
  EXPECT_EQ(Res(t, "gob", kHp), 20 - 3 - 3);
  EXPECT_EQ(NumOf(*ev, "000.poisoned", "level"), 3);
  EXPECT_EQ(NumOf(*ev, "000.poisoned", "instances"), 2);
}

TEST(StartOfTurn, BleedingComesFirst) {
  Table t = Bleeder(10, 0);
  fb::CommandT c = Gm("gob", "gm_condition", "torch");
  WithText(c, "name", "on_fire");
  WithText(c, "op", "add");
  ASSERT_OK(t.Submit(c));
  auto ev = t.Submit(Cmd("aria", "end_turn"), {12, 1, 1, 2, 2});
  ASSERT_OK(ev);
  std::vector<std::string> purposes;
  for (const auto& e : *ev) {
    if (const auto* r = e.event().body_as_Roll(); r != nullptr) {
      purposes.push_back(r->purpose()->str());
    }
  }
  ASSERT_EQ(purposes.size(), 3u);
  EXPECT_EQ(purposes[0], "bleed table");
  EXPECT_EQ(purposes[1], "bleed damage");
  EXPECT_EQ(purposes[2], "fire damage");
  EXPECT_EQ(Res(t, "gob", kHp), 4);
}

}  // namespace
}  // namespace combat::kernel::d20
