// Every modifier names its source and rule (issue 16): one test per kind of
// Advantage/Disadvantage (defense.cc Edges) and per modifier number; the
// automatic steps are the system's (kernel Decision::SystemSteps); a
// pending act records its command with the actor's author and role.
#include <string>

#include "gtest/gtest.h"
#include "kernel/energy_rounds/test_util.h"
#include "kernel/testing/events.h"
#include "kernel/pending.h"

namespace combat::kernel::energy::testutil {
namespace {

// kara (sword +1, slashing) next to orc (AC 10, AR 3); ash with a bow two
// squares off; gob further away.
fb::RosterT Table3(std::vector<std::string> orc_tags = {}) {
  std::vector<fb::CombatantSpecT> cs;
  cs.push_back(Who("kara", "party", 5, 5,
                   {{"level", 3}, {"str", 2}, {"dex", 2}, {"con", 1}, {"con_score", 12}},
                   {W("sword", "1d8", "melee", "medium", {{"av_bonus", 1}})}));
  cs.push_back(Who("ash", "party", 4, 5, {{"dex", 4}, {"con_score", 10}, {"arm_strength", 12}, {"mpl", 1}},
                   {W("bow", "1d8", "ranged", "medium",
                      {{"accuracy", 1}, {"close", 5}, {"far", 30}, {"max", 120}, {"draw_weight", 35}},
                      "piercing")}));
  cs.push_back(Who("orc", "orcs", 6, 5, {{"str", 3}, {"con", 2}, {"con_score", 14}, {"ac", 10}, {"ar", 3}},
                   {W("axe", "1d10", "melee", "heavy")}, orc_tags));
  cs.push_back(Who("gob", "orcs", 12, 5, {{"con_score", 8}}, {W("knife", "1d4", "melee", "light")}));
  return Roster(std::move(cs));
}

fb::CommandT Swing(fb::CommandT c = Cmd("kara", "melee", {"orc"})) {
  c.weapon = "sword";
  return Now(c);
}

// The dice given first, seeded dice for the rest.
fb::CommandT Rest(fb::CommandT c) { return With(c, "digital_rest", 1); }

// "<source> / <rule>" of the last number `key` ("?" when none).
std::string SourceOf(const std::vector<events::EventBuffer>& events, const std::string& key) {
  const kernel::testing::NumberSeen n = kernel::testing::LastNumber(events, key);
  return n.value == -999 ? "?" : n.source + " / " + n.rule;
}

// The seq of the first Declaration in `events`.
uint64_t DeclSeq(const std::vector<events::EventBuffer>& events) {
  for (const auto& e : events) {
    if (e.event().body_type() == fb::Body::Declaration) return e.event().seq();
  }
  return 0;
}

TEST(Sources, DazedAttackerNamesTheCondition) {
  Table t(EnergyRounds(), Table3());
  ASSERT_TRUE(t.Submit(GmAdds("kara", "Dazed")).ok());
  auto ev = t.Submit(Rest(Swing()), {10, 10});  // l.670: 2d20kl1
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(SourceOf(*ev, "attack.dis.dazed"), "Dazed on kara / 002.cond.dazed");
  EXPECT_EQ(NumOf(*ev, "attack_edge"), -1);
}

TEST(Sources, ProneDefenderNamesTheCondition) {
  Table t(EnergyRounds(), Table3());
  ASSERT_TRUE(t.Submit(GmAdds("orc", "Prone")).ok());
  auto ev = t.Submit(Rest(Swing()), {10});  // no critical: the orc rolls Evasion
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(SourceOf(*ev, "defense.dis.prone"), "Prone on orc / 002.cond.prone");
}

TEST(Sources, AManeuverNamesItsPenaltyAndTheTargetsAdvantage) {
  Table t(EnergyRounds(), Table3());
  auto trip = Swing(Cmd("kara", "trip", {"orc"}));
  auto ev = t.Submit(Rest(trip), {10});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(SourceOf(*ev, "maneuver_av"), "trip / 002.maneuver.av");  // l.557
  EXPECT_EQ(SourceOf(*ev, "defense.adv.maneuver_first_defense"),
            "trip by kara / 002.maneuver.unguarded");  // l.553
}

TEST(Sources, SituationalModifiersAreDeclarationsOrRulings) {
  Table t(EnergyRounds(), Table3());
  auto mine = Swing();
  With(mine, "av_mod", 2);
  auto ev = t.Submit(Rest(mine), {10});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(SourceOf(*ev, "av_mod"), "declared #" + std::to_string(DeclSeq(*ev)) + " by kara / ");
  ASSERT_TRUE(t.Submit(Gm("end_round")).ok());  // Energy again
  auto gm = Swing(Gm("melee", "kara"));
  gm.targets = {"orc"};
  With(gm, "av_mod", -2);
  auto ruled = t.Submit(Rest(gm), {10});
  ASSERT_TRUE(ruled.ok()) << ruled.status();
  EXPECT_EQ(SourceOf(*ruled, "av_mod"), "ruling #" + std::to_string(DeclSeq(*ruled)) + " / 002.gm");
}

TEST(Sources, ArmorWeaknessAndTheWeaponNameTheirSource) {
  Table t(EnergyRounds(), Table3({"weak:slashing"}));
  auto ev = t.Submit(Swing(), {8, 5, 6});  // 8 < AC 10: on armor (l.178)
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(SourceOf(*ev, "weapon_av_bonus"), "sword / 002.melee.av");
  EXPECT_EQ(SourceOf(*ev, "ar"), "armor of orc / 002.melee.armor");
  EXPECT_EQ(SourceOf(*ev, "weakness"), "orc weak to slashing / 002.damage.weakness");
  EXPECT_EQ(NumOf(*ev, "damage"), 8);  // (6 + 1 - 3) x 2
}

TEST(Sources, RangedModifiersNameTheBowTheTargetAndTheRange) {
  Table t(EnergyRounds(), Table3());
  auto shot = Cmd("ash", "ranged", {"orc"});
  shot.weapon = "bow";
  // Ranged Evasion 1, hit roll 2d20kh1 15 (close: Advantage), damage 4.
  auto ev = t.Submit(Now(shot), {1, 15, 15, 4});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(SourceOf(*ev, "accuracy"), "bow / 002.ranged.mcm");
  EXPECT_EQ(SourceOf(*ev, "size_mod"), "orc (medium) / 002.ranged.size");
  EXPECT_EQ(SourceOf(*ev, "hit.adv.close_range"), " / 002.ranged.range");  // l.246
  EXPECT_EQ(SourceOf(*ev, "damage_bonus"), "bow / 002.ranged.draw_weight");
}

TEST(SystemSteps, TheRoundBoundaryIsTheSystemsAndTheDeclarationTheGms) {
  Table t(EnergyRounds(), Table3());
  ASSERT_TRUE(t.Submit(GmAdds("kara", "Exhausted")).ok());
  auto ev = t.Submit(Gm("end_round"));
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(SourceOf(*ev, "exhausted_less"), "Exhausted on kara / 002.cond.exhausted");
  int system = 0;
  for (const auto& e : *ev) {
    const std::string by = e.event().author()->str();
    if (e.event().body_type() == fb::Body::Declaration) {
      EXPECT_EQ(by, "gm");
      EXPECT_EQ(e.event().role(), fb::Role::GM);
    } else {
      EXPECT_EQ(by, "system");
      EXPECT_EQ(e.event().role(), fb::Role::System);
      ++system;
    }
  }
  EXPECT_GE(system, 3);  // round ended, round started, budgets
}

TEST(SystemSteps, AnAttacksDamageIsTheAttackers) {
  Table t(EnergyRounds(), Table3());
  auto ev = t.Submit(Swing(), {15, 4, 6});
  ASSERT_TRUE(ev.ok()) << ev.status();
  bool damage = false;
  for (const auto& e : *ev) {
    const auto* sc = e.event().body_as_StateChange();
    if (sc == nullptr || sc->rule() == nullptr || sc->rule()->str() != "002.damage.weapon") continue;
    damage = true;
    EXPECT_EQ(e.event().author()->str(), "kara");
    EXPECT_EQ(e.event().role(), fb::Role::Player);
  }
  EXPECT_TRUE(damage);
}

TEST(SystemSteps, APendingActKeepsItsAuthorAndRole) {
  Table t(EnergyRounds(), Table3());
  auto slow = Cmd("kara", "melee", {"orc"});
  slow.weapon = "sword";  // not at once: the orc may interrupt
  ASSERT_TRUE(t.Submit(slow).ok());
  const PendingAct* p = FirstPending(t.state(), "kara", kActing);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->command->author, "kara");
  EXPECT_EQ(p->command->role, fb::Role::Player);
}

TEST(Sources, EveryModifierOfAnEncounterNamesItsSource) {
  Table t(EnergyRounds(), Table3({"weak:slashing"}));
  ASSERT_TRUE(t.Submit(GmAdds("orc", "Prone")).ok());
  ASSERT_TRUE(t.Submit(GmAdds("kara", "Dazed")).ok());
  auto mine = Swing();
  With(mine, "av_mod", 1);
  ASSERT_TRUE(t.Submit(Rest(mine), {10, 10}).ok());
  auto shot = Cmd("ash", "ranged", {"orc"});
  shot.weapon = "bow";
  ASSERT_TRUE(t.Submit(Now(shot)).ok());
  ASSERT_TRUE(t.Submit(Gm("end_round")).ok());
  ASSERT_TRUE(t.Submit(Rest(Swing(Cmd("kara", "trip", {"orc"}))), {10, 10}).ok());
  const auto faults = kernel::testing::UnsourcedModifiers(t.log(), RuleTable(), IsModifier);
  EXPECT_TRUE(faults.empty()) << faults.front();
  EXPECT_NE(SourceOf(t.log(), "defense.dis.prone"), "?");
  EXPECT_NE(SourceOf(t.log(), "attack.dis.dazed"), "?");
  EXPECT_NE(SourceOf(t.log(), "size_mod"), "?");
}

}  // namespace
}  // namespace combat::kernel::energy::testutil
