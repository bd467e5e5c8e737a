// Cast, Control and Focus (seed 000 L33, L37-L43).
#include "gtest/gtest.h"
#include "kernel/d20_three_action/internal.h"
#include "kernel/d20_three_action/test_util.h"

namespace combat::kernel::d20 {
namespace {

using namespace testing;  // NOLINT

// mage: Level 3, ESS 4, Energy 10 of 10, a spell attack "bolt".
fb::RosterT Duel() {
  fb::CombatantSpecT m = Being("mage", "party", 0, 0,
                               {{"level", 3}, {"ess", 4}, {"energy_max", 10}});
  Arm(m, "bolt", "2d6", "spell", "", 5, 60);
  return MakeRoster({std::move(m), Being("gob", "goblins", 4, 0)});
}

fb::CommandT Cast(const std::string& spell) {
  fb::CommandT c = Cmd("mage", "cast", {"gob"});
  WithText(c, "spell", spell);
  return c;
}

TEST(Spells, CastSpendsEnergyPerComponentAndMayAttack) {
  Table t(D20ThreeAction(), Duel(), {15, 10});
  EXPECT_EQ(Res(t, "mage", kEnergy), 10);
  fb::CommandT c = Cast("firebolt");
  c.weapon = "bolt";
  With(c, "energy.damage", 3);
  With(c, "energy.range", 1);
  auto ev = t.Submit(c, {5, 2, 3});  // 5 + Level 3 + ESS 4 = 12 >= 12
  ASSERT_OK(ev);
  EXPECT_EQ(Res(t, "mage", kEnergy), 6);
  EXPECT_EQ(NumOf(*ev, "000.attack.spell", "total"), 12);
  EXPECT_EQ(Res(t, "gob", kHp), 15);
  const Condition* sp = t.state().Find("mage")->FindCondition(kSpell);
  ASSERT_NE(sp, nullptr);
  EXPECT_EQ(sp->note, "firebolt");
  EXPECT_EQ(sp->level, 4);
  fb::CommandT big = Cast("meteor");
  With(big, "energy.damage", 7);
  auto out = t.Submit(big);
  EXPECT_EQ(out.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(out.status().message().find("l.37"), std::string::npos);
  EXPECT_EQ(t.Submit(Cmd("mage", "cast", {"gob"})).status().code(),
            absl::StatusCode::kInvalidArgument);
}

// 000 l.33 (seed 000_ab2f36f2929fdde3.txt): a Spell Attack "from ... an
// enchanted item you are wielding"; l.21 "drop an item": the dropped bolt is
// not wielded, so a cast's spell attack with it is refused, as an `attack`
// with it is (was: the cast rolled and hit with the item on the ground).
TEST(Spells, ASpellAttackNeedsTheItemInHand) {
  Table t(D20ThreeAction(), Duel(), {15, 10});
  fb::CommandT drop = Cmd("mage", "drop_item");
  WithText(drop, "item", "bolt");
  ASSERT_OK(t.Submit(drop));
  fb::CommandT c = Cast("firebolt");
  c.weapon = "bolt";
  With(c, "energy.damage", 3);
  auto out = t.Submit(c, {15, 2, 3});
  EXPECT_EQ(out.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(out.status().message().find("not in hand"), std::string::npos)
      << out.status();
  EXPECT_EQ(Res(t, "mage", kEnergy), 10);
  EXPECT_EQ(Res(t, "gob", kHp), 20);
  fb::CommandT pick = Cmd("mage", "pick_up");
  WithText(pick, "item", "bolt");
  ASSERT_OK(t.Submit(pick));
  ASSERT_OK(t.Submit(c, {10, 2, 3}));  // in hand again: 10 + 7 = 17, a hit
  EXPECT_EQ(Res(t, "gob", kHp), 15);
}

TEST(Spells, ControlOnlyASpellFromAPreviousTurnOncePerTurn) {
  Table t(D20ThreeAction(), Duel(), {15, 10});
  fb::CommandT web = Cast("web");
  With(web, "energy.area", 2);
  With(web, "rounds", 3);
  WithText(web, "condition", "entangled");
  ASSERT_OK(t.Submit(web));
  EXPECT_TRUE(Has(t, "gob", kEntangled));
  fb::CommandT ctl = Cmd("mage", "control", {"gob"});
  WithText(ctl, "spell", "web");
  auto out = t.Submit(ctl);
  EXPECT_EQ(out.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(out.status().message().find("previous Turn"), std::string::npos);
  ASSERT_OK(t.Submit(Cmd("mage", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_OK(t.Submit(ctl));
  out = t.Submit(ctl);
  EXPECT_NE(out.status().message().find("already Controlled"),
            std::string::npos);
  // Dismissing the spell (GM) takes its effects with it.
  fb::CommandT end = Gm("mage", "gm_condition", "the web burns away");
  WithText(end, "name", "spell");
  WithText(end, "op", "remove");
  ASSERT_OK(t.Submit(end));
  EXPECT_FALSE(Has(t, "gob", kEntangled));
}

// 000 l.39: "You can spend an Action to Control a Spell you Cast on a
// previous Turn"; l.13: a held Turn resumes (with the Actions it kept),
// it is not a new Turn: a spell cast before holding is still this Turn's.
TEST(Spells, ASpellCastBeforeAHoldIsStillThisTurns) {
  Table t(D20ThreeAction(), Duel(), {15, 10});
  fb::CommandT web = Cast("web");
  With(web, "rounds", 3);
  WithText(web, "condition", "entangled");
  ASSERT_OK(t.Submit(web));
  HoldUntilAfter(t, "mage", "gob");
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_EQ(t.state().active, "mage");  // the held turn resumes
  EXPECT_EQ(Res(t, "mage", kActions), 2);
  fb::CommandT ctl = Cmd("mage", "control", {"gob"});
  WithText(ctl, "spell", "web");
  auto out = t.Submit(ctl);
  EXPECT_EQ(out.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(out.status().message().find("previous Turn"), std::string::npos)
      << out.status();
  ASSERT_OK(t.Submit(Cmd("mage", "end_turn")));
  // Round 2: gob, then mage (the held place holds): a previous Turn now.
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_OK(t.Submit(ctl));
}

TEST(Spells, SpellEffectsEndWithTheSpell) {
  Table t(D20ThreeAction(), Duel(), {15, 10});
  fb::CommandT web = Cast("web");
  With(web, "rounds", 1);
  WithText(web, "condition", "entangled");
  ASSERT_OK(t.Submit(web));
  ASSERT_OK(t.Submit(Cmd("mage", "end_turn")));
  EXPECT_TRUE(Has(t, "gob", kEntangled));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  EXPECT_FALSE(Has(t, "mage", kSpell));
  EXPECT_FALSE(Has(t, "gob", kEntangled));
}

// L39 "If a Spell is not controlled it will continue until its Duration
// ends" with L13 "(If something has a Duration of 1 Round it will end after
// all other Creatures have gotten a Turn, not the end of the Initiative
// count)" and L15 (delay, enter "after the current Turn"): a web of 2
// Rounds cast in the mage's round-1 Turn lasts through gob's round-1 and
// round-2 Turns; the mage delays in round 2 and enters after gob: the web
// ends as the mage's entered Turn starts, after gob's second Turn, not
// before it (at the entry) nor a Round later at the mage's new place.
TEST(Spells, ASpellsRoundsEndAfterTheOthersTurnsWhenItsCasterDelays) {
  Table t(D20ThreeAction(), Duel(), {15, 10});
  fb::CommandT web = Cast("web");
  With(web, "rounds", 2);
  WithText(web, "condition", "entangled");
  ASSERT_OK(t.Submit(web));
  ASSERT_OK(t.Submit(Cmd("mage", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("mage", "delay")));  // round 2
  ASSERT_OK(t.Submit(Cmd("mage", "enter")));
  EXPECT_TRUE(Has(t, "gob", kEntangled));  // gob's round-2 Turn
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  EXPECT_EQ(t.state().round, 2);
  EXPECT_EQ(t.state().active, "mage");
  EXPECT_FALSE(Has(t, "gob", kEntangled));
  EXPECT_FALSE(Has(t, "mage", kSpell));
}

// L146 "Shaken" in the text's spelling is the condition `shaken`; a name
// no spell applies is refused with the list.
TEST(Spells, ConditionNamesAreCaseInsensitiveAndClosed) {
  Table t(D20ThreeAction(), Duel(), {15, 10});
  fb::CommandT fear = Cast("fear");
  WithText(fear, "condition", "Shaken");
  With(fear, "condition_rounds", 1);
  ASSERT_OK(t.Submit(fear));
  EXPECT_TRUE(Has(t, "gob", kShaken));
  fb::CommandT odd = Cast("fear");
  WithText(odd, "condition", "sleepy");
  auto out = t.Submit(odd);
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(out.status().message().find("one of: slowed"), std::string::npos)
      << out.status();
}

// 000 l.168: "Unconscious - ... They fall Prone and are Flat Footed". A
// spell that applies Unconscious knocks its target Prone (a ranged attack
// then has Disadvantage, l.160), and a grapple partner with it (l.148); it
// used to add the bare condition.
TEST(Spells, ASpellsUnconsciousKnocksItsTargetProne) {
  Table t(D20ThreeAction(), Duel(), {15, 10});
  fb::CommandT sleep = Cast("sleep");
  WithText(sleep, "condition", "Unconscious");
  ASSERT_OK(t.Submit(sleep));
  EXPECT_TRUE(Has(t, "gob", kUnconscious));
  EXPECT_TRUE(Has(t, "gob", kProne));
  EXPECT_TRUE(
      EdgeOf(t, "mage", "gob", AttackKind::kRanged).Has("target_prone"));
}

// 000 l.168 "Unconscious" gives no end of its own; a spell's lasts as the
// spell's Effect (l.39 "it will continue until its Duration ends"), and
// the README's reading wakes a creature when its HP rises above 0 (l.152).
// A potion given to gob, asleep at full HP (20), is healing (l.127: the
// Bleed Penalty would drop) but raises no HP from 0 or less: gob sleeps on
// (was: any heal that left HP above 0 woke it, where a GM's HP change wakes
// only from 0 or less).
TEST(Spells, AHealDoesNotWakeASpellsSleeperAboveZeroHp) {
  Table t(D20ThreeAction(), Duel(), {15, 10});
  fb::CommandT sleep = Cast("sleep");
  WithText(sleep, "condition", "Unconscious");
  ASSERT_OK(t.Submit(sleep));
  ASSERT_TRUE(Has(t, "gob", kUnconscious));
  fb::CommandT heal = Gm("gm", "heal", "a potion poured in");
  heal.actor = "";
  heal.targets = {"gob"};
  With(heal, "amount", 5);
  ASSERT_OK(t.Submit(heal));
  EXPECT_EQ(Res(t, "gob", kHp), 20);
  EXPECT_TRUE(Has(t, "gob", kUnconscious));
}

TEST(Spells, ShakenAgainAddsToTheDuration) {
  Table t(D20ThreeAction(), Duel(), {15, 10});
  fb::CommandT fear = Cast("fear");
  WithText(fear, "condition", "shaken");
  With(fear, "condition_rounds", 1);
  ASSERT_OK(t.Submit(fear));
  ASSERT_OK(t.Submit(fear));
  const auto shaken = Named(*t.state().Find("gob"), kShaken);
  ASSERT_EQ(shaken.size(), 1u);           // L146: one instance...
  EXPECT_EQ(shaken[0]->expiry.round, 3);  // ...for 1 + 1 rounds
}

// 000 l.146: "Additional instances of Shaken add to the Duration": the
// summed Duration is the Shaken's own; the newer spell ending (l.39 "until
// its Duration ends") does not take it away (it took the whole Shaken
// before, the older spell's rounds too). fear: Shaken to round 3 (1 + 2);
// dread adds 2: round 5; dread ends at round 2's start.
TEST(Spells, AMergedShakenOutlivesTheNewerSpell) {
  Table t(D20ThreeAction(), Duel(), {15, 10});
  fb::CommandT fear = Cast("fear");
  WithText(fear, "condition", "shaken");
  With(fear, "condition_rounds", 2);
  With(fear, "rounds", 3);
  ASSERT_OK(t.Submit(fear));
  fb::CommandT dread = Cast("dread");
  WithText(dread, "condition", "shaken");
  With(dread, "condition_rounds", 2);
  With(dread, "rounds", 1);
  ASSERT_OK(t.Submit(dread));
  ASSERT_OK(t.Submit(Cmd("mage", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));  // round 2: dread ends
  const auto shaken = Named(*t.state().Find("gob"), kShaken);
  ASSERT_EQ(shaken.size(), 1u);
  EXPECT_EQ(shaken[0]->expiry.round, 5);
}

// 000 l.146: "Additional instances of Shaken add to the Duration", also
// when the GM imposes them (gm_condition with rounds): a 1-round Shaken and
// then a 2-round one make one Shaken of 3 rounds.
TEST(Spells, AGmShakenAddsToTheRunningDuration) {
  Table t(D20ThreeAction(), Duel(), {15, 10});
  fb::CommandT fear = Cast("fear");
  WithText(fear, "condition", "shaken");
  With(fear, "condition_rounds", 1);
  ASSERT_OK(t.Submit(fear));  // until the start of mage's turn in round 2
  fb::CommandT gm = Gm("gob", "gm_condition", "a terrible roar");
  WithText(gm, "name", "Shaken");
  WithText(gm, "op", "add");
  With(gm, "rounds", 2);
  ASSERT_OK(t.Submit(gm));
  const auto shaken = Named(*t.state().Find("gob"), kShaken);
  ASSERT_EQ(shaken.size(), 1u);
  EXPECT_EQ(shaken[0]->expiry.round, 4);  // 2 + 2
  EXPECT_EQ(shaken[0]->expiry.actor, "mage");
}

TEST(Spells, FocusGainsEssPlusLevelOverThreeRoundedDown) {
  fb::RosterT r = Duel();
  Table t(D20ThreeAction(), r, {15, 10});
  fb::CommandT c = Cast("shield");
  c.targets = {"mage"};
  With(c, "energy.power", 9);
  ASSERT_OK(t.Submit(c));
  EXPECT_EQ(Res(t, "mage", kEnergy), 1);
  fb::CommandT f = Cmd("mage", "focus");
  With(f, "actions", 2);
  auto ev = t.Submit(f);
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "000.focus", "per_action"), 2);  // (4 + 3) / 3 = 2 (L43)
  EXPECT_EQ(Res(t, "mage", kEnergy), 5);
  EXPECT_EQ(Res(t, "mage", kActions), 0);
}

}  // namespace
}  // namespace combat::kernel::d20
