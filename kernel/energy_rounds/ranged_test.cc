// Ranged attacks (l.190-288).
// ash: Dex 4 (halved 2), bow Accuracy 1: MCM 8 - 1 - 2 = 5 (l.196); draw
// weight 35 kg: +1 damage (l.262), needs Arm Strength 12.
// orc at 6 m: Ranged Evasion 0 + 1d4! (l.204); Ranged AC 10, AR 3.
#include "gtest/gtest.h"
#include "kernel/energy_rounds/test_util.h"

namespace combat::kernel::energy::testutil {
namespace {

fb::RosterT Range(int orc_x = 8, Stats ash_extra = {}, std::vector<std::string> orc_tags = {}) {
  std::vector<fb::CombatantSpecT> cs;
  Stats ash = {{"dex", 4}, {"con_score", 10}, {"arm_strength", 12}, {"mpl", 1}};
  for (auto& s : ash_extra) ash.push_back(s);
  cs.push_back(Who("ash", "party", 2, 5, ash,
                   {W("bow", "1d8", "ranged", "medium",
                      {{"accuracy", 1}, {"close", 5}, {"far", 30}, {"max", 120}, {"draw_weight", 35}},
                      "piercing"),
                    W("xbow", "1d10", "ranged", "medium",
                      {{"crossbow", 1}, {"draw_weight", 40}, {"load", 2}, {"close", 5}, {"far", 20}, {"max", 60}},
                      "piercing"),
                    W("dagger", "1d4", "melee", "light", {}, "piercing")}));
  cs.push_back(Who("orc", "orcs", orc_x, 5, {{"str", 3}, {"con", 2}, {"con_score", 14}, {"ac", 10}, {"ar", 3}},
                   {W("axe", "1d10", "melee", "heavy")}, orc_tags));
  return Roster(std::move(cs), 200, 20);
}

fb::CommandT Shoot(const std::string& weapon = "bow", const std::string& action = "ranged") {
  auto c = Cmd("ash", action, {"orc"});
  c.weapon = weapon;
  return Now(c);
}

int64_t Aura(const Table& t) { return t.state().Find("orc")->Resource("aura"); }

// 002 l.17 "Ranged Attack: Using 1 Energy you attack a target with a ranged
// attack" (l.192): Energy 5 -> 4; l.198 "The Miss Chance Modifier is a
// relatively static number which you add to the Miss Chance of every
// Ranged Attack": 5 + the Ranged Evasion roll 3 = 8.
TEST(Ranged, HitBypassesArmorWithDrawWeight) {
  Table t(EnergyRounds(), Range());
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto ev = t.Submit(Shoot(), {3, 12, 5});  // MC 5 + 3 = 8; 12 >= Ranged AC 10
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "mcm"), 5);
  EXPECT_EQ(NumOf(*ev, "miss_chance"), 8);
  EXPECT_EQ(NumOf(*ev, "damage"), 6);  // 5 + 1 (l.240)
  EXPECT_EQ(Aura(t), 20);
  EXPECT_EQ(t.state().Find("ash")->Resource("energy"), 4);  // 1 Energy (l.192)
}

// 002 l.235 "1-3 You are Exposed until the end of the next Round", at its
// boundary: ash's Hit roll 3 (Ranged Evasion 3: Miss Chance 5 + 3 = 8, a
// miss) in Round 1 leaves ash Exposed through Round 2 and not into Round 3
// (the low roll's own "next Round", not l.460's default, README reading 12).
TEST(Ranged, AHitRollOfThreeExposesTheShooterUntilTheEndOfTheNextRound) {
  Table t(EnergyRounds(), Range());
  auto ev = t.Submit(Shoot(), {3, 3});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "miss_chance"), 8);
  EXPECT_EQ(Aura(t), 26);  // 20 + (3 + 2) x 4/3 = 26 (l.298): missed
  EXPECT_TRUE(t.state().Find("ash")->Has("Exposed"));
  ASSERT_TRUE(t.Submit(Gm("end_round")).ok());  // Round 2: the next Round
  EXPECT_TRUE(t.state().Find("ash")->Has("Exposed"));
  ASSERT_TRUE(t.Submit(Gm("end_round")).ok());  // Round 3
  EXPECT_FALSE(t.state().Find("ash")->Has("Exposed"));
}

// 002 l.672 "Disadvantage on all Attack rolls, Evasion rolls" (README
// reading 29): a Blinded orc's Ranged Evasion roll (l.204, l.334) is 2d4
// keeping the lower: 3, 1 -> 1; Miss Chance 5 + 1 = 6; Hit roll 12 >= 6
// hits, 12 >= Ranged AC 10: 1d8 5 + 1 = 6 (l.240, reading 14), Aura 26 ->
// 20. A Blinded ash's Hit roll is 2d20 keeping the lower: 15, 9 -> 9 >=
// Miss Chance 5 + 3 = 8 hits, 9 < AC 10: 5 + 1 - AR 3 = 3, Aura 23.
TEST(Ranged, BlindedTargetAndBlindedShooterRollWithDisadvantage) {
  Table t(EnergyRounds(), Range());
  ASSERT_TRUE(t.Submit(GmAdds("orc", "Blinded")).ok());
  auto ev = t.Submit(Shoot(), {3, 1, 12, 5});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "evasion.dis.blinded"), 1);
  EXPECT_EQ(NumOf(*ev, "miss_chance"), 6);
  EXPECT_EQ(Aura(t), 20);

  Table u(EnergyRounds(), Range());
  ASSERT_TRUE(u.Submit(GmAdds("ash", "Blinded")).ok());
  auto sv = u.Submit(Shoot(), {3, 15, 9, 5});
  ASSERT_TRUE(sv.ok()) << sv.status();
  EXPECT_EQ(NumOf(*sv, "hit.dis.blinded"), 1);
  EXPECT_EQ(NumOf(*sv, "miss_chance"), 8);
  EXPECT_EQ(Aura(u), 23);
}

// l.346: "if a target is asleep or fully restrained they cannot roll
// Evasion, and any attacks against them automatically hit" — a shot too.
TEST(Ranged, AsleepOrFullyRestrainedTargetIsHitAutomatically) {
  for (const char* cond : {"Asleep", "FullyRestrained"}) {
    Table t(EnergyRounds(), Range());
    auto g = GmAdds("orc", cond);
    ASSERT_TRUE(t.Submit(g).ok()) << cond;
    // No Ranged Evasion die: the first die is the Hit roll, 4 < MCM 5.
    auto ev = t.Submit(Shoot(), {4, 5});
    ASSERT_TRUE(ev.ok()) << ev.status();
    EXPECT_EQ(NumOf(*ev, "no_ranged_evasion"), 1) << cond;
    EXPECT_EQ(NumOf(*ev, "automatic_hit"), 1) << cond;
    EXPECT_EQ(NumOf(*ev, "damage"), 3) << cond;  // 5 + 1 - AR 3: 4 < Ranged AC 10 (l.240)
    EXPECT_EQ(Aura(t), 23) << cond;
    EXPECT_TRUE(Cites(*ev, "002.defense.none")) << cond;
  }
}

TEST(Ranged, HitLandsOnArmor) {
  Table t(EnergyRounds(), Range());
  auto ev = t.Submit(Shoot(), {3, 9, 5});  // 9 < 10: AR applies (l.240)
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "damage"), 3);
}

// 002 l.238 "If your Hit roll is greater than or equal to the target's
// Ranged AC, then you hit their armor and must subtract its AB" against
// l.240 "– AR if Hit Roll is less than AC" (README reading 14: the formula
// governs, as melee's l.178, and the critical's "ignore their armor",
// l.234, is then the top of the same scale), at the boundary: a Hit roll
// equal to the Ranged AC misses the armor; one below it lands on it. The
// orc's Ranged AC (`ranged_ac` 12) is read, not its melee AC (`ac` 10):
// Miss Chance 5 + 3 = 8; Hit roll 12 = Ranged AC 12: 1d8 5 + 1 = 6; Hit
// roll 11 < 12 (though >= AC 10): 5 + 1 - AR 3 = 3.
TEST(Ranged, AHitRollEqualToTheRangedAcMissesTheArmor) {
  auto with_ranged_ac = [] {
    std::vector<fb::CombatantSpecT> cs;
    cs.push_back(Who("ash", "party", 2, 5,
                     {{"dex", 4}, {"con_score", 10}, {"arm_strength", 12}, {"mpl", 1}},
                     {W("bow", "1d8", "ranged", "medium",
                        {{"accuracy", 1}, {"close", 5}, {"far", 30}, {"max", 120},
                         {"draw_weight", 35}},
                        "piercing")}));
    cs.push_back(Who("orc", "orcs", 8, 5,
                     {{"str", 3}, {"con", 2}, {"con_score", 14}, {"ac", 10}, {"ranged_ac", 12},
                      {"ar", 3}}));
    return Roster(std::move(cs), 200, 20);
  };
  Table equal(EnergyRounds(), with_ranged_ac());
  ASSERT_TRUE(equal.status().ok()) << equal.status();
  auto ev = equal.Submit(Shoot(), {3, 12, 5});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "miss_chance"), 8);
  EXPECT_EQ(NumOf(*ev, "ranged_ac"), 12);
  EXPECT_EQ(NumOf(*ev, "damage"), 6);
  EXPECT_FALSE(Cites(*ev, "002.ranged.armor"));
  Table below(EnergyRounds(), with_ranged_ac());
  auto low = below.Submit(Shoot(), {3, 11, 5});
  ASSERT_TRUE(low.ok()) << low.status();
  EXPECT_EQ(NumOf(*low, "damage"), 3);
  EXPECT_TRUE(Cites(*low, "002.ranged.armor"));
}

// 002 l.250 "Your Arm Strength allows you to use and control a greater draw
// weight ... choose the highest draw weight you can comfortably manage for
// your weapon" and l.252 "If you increase your Arm Strength and want to
// increase the draw weight of your weapon, you will either have to buy a
// new weapon, find someone who can adjust the draw weight ... or attempt to
// adjust the weapon yourself": the Extra Damage is the weapon's draw
// weight's (l.240 "Extra Damage from Draw Weight"), not the arm's. ash at
// Arm Strength 25 (the 50 kg row, +4, l.265) shooting the 35 kg bow (+1,
// l.262): 1d8 5 + 1 = 6, Miss Chance 5 + 3 = 8, Hit roll 12 >= Ranged AC 10.
TEST(Ranged, AStrongerArmAddsNothingToTheBowsDrawWeight) {
  std::vector<fb::CombatantSpecT> cs;
  cs.push_back(Who("ash", "party", 2, 5,
                   {{"dex", 4}, {"con_score", 10}, {"arm_strength", 25}, {"mpl", 5}},
                   {W("bow", "1d8", "ranged", "medium",
                      {{"accuracy", 1}, {"close", 5}, {"far", 30}, {"max", 120},
                       {"draw_weight", 35}},
                      "piercing")}));
  cs.push_back(Who("orc", "orcs", 8, 5,
                   {{"str", 3}, {"con", 2}, {"con_score", 14}, {"ac", 10}, {"ar", 3}}));
  Table t(EnergyRounds(), Roster(std::move(cs), 200, 20));
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto ev = t.Submit(Shoot(), {3, 12, 5});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "damage_bonus"), 1);
  EXPECT_EQ(NumOf(*ev, "damage"), 6);
}

TEST(Ranged, RangedEvasionExplodes) {
  Table t(EnergyRounds(), Range());
  auto ev = t.Submit(Shoot(), {4, 4, 2, 14});  // 4 + 4 + 2 = 10: MC 15
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "evasion_explosions"), 2);
  EXPECT_EQ(NumOf(*ev, "miss_chance"), 15);
  EXPECT_EQ(Aura(t), 26);
}

TEST(Ranged, CloseRangeGivesAdvantage) {
  Table t(EnergyRounds(), Range(6));
  auto ev = t.Submit(Shoot(), {1, 3, 15, 5});  // 2d20kh1 (l.246)
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "hit_edge"), 1);
  EXPECT_EQ(NumOf(*ev, "hit_d20"), 15);
}

// 002 l.232-236: Hit roll "20 Critical Hit (You hit the target, ignore
// their armor, and they are Exposed); 1-3 You are Exposed until the end of
// the next Round; 1 Critical Failure (counts as a miss)". l.246: "further
// away than the 2nd number of meters, you have Disadvantage".
TEST(Ranged, HitRollTableAndLongRange) {
  Table t(EnergyRounds(), Range(40));  // 38 m > 30: Disadvantage
  auto low = t.Submit(Shoot(), {1, 3, 9});  // 2d20kl1: 3, 9 -> 3 < MC 6
  ASSERT_TRUE(low.ok()) << low.status();
  EXPECT_EQ(NumOf(*low, "hit_edge"), -1);
  EXPECT_EQ(NumOf(*low, "hit_d20"), 3);
  EXPECT_TRUE(t.state().Find("ash")->Has("Exposed"));
  auto one = t.Submit(Shoot(), {1, 1, 20});  // 2d20kl1: 1 -> critical failure
  ASSERT_TRUE(one.ok()) << one.status();
  EXPECT_NE(LastOutcome(*one).find("critical failure"), std::string::npos);
  EXPECT_EQ(Aura(t), 26);
  // l.462 "You are always Exposed when you roll a Critical Fail (natural
  // 1) on a Combat roll or Hit roll", for as long as l.235 says: "until
  // the end of the next Round", Round 2, as a Combat roll's natural 1
  // (l.173). Black-box: a Hit roll's 1 cited only the table and recorded
  // no `exposed_until_round`, where a Combat roll's 1 did both.
  EXPECT_TRUE(Cites(*one, "002.exposed.crit_fail"));
  const kernel::testing::NumberSeen one_until = kernel::testing::LastNumber(*one, "exposed_until_round");
  EXPECT_EQ(one_until.value, 2);
  EXPECT_EQ(one_until.rule, "002.ranged.hit_roll");
  ASSERT_TRUE(t.Submit(Gm("end_round")).ok());
  EXPECT_TRUE(t.state().Find("ash")->Has("Exposed"));  // to the end of round 2
  auto crit = t.Submit(Shoot(), {3, 20, 20, 5});  // MC 8; 2d20kl1: 20, 20
  ASSERT_TRUE(crit.ok()) << crit.status();
  EXPECT_EQ(NumOf(*crit, "armor_hit"), 0);
  EXPECT_EQ(Aura(t), 20);  // 5 + 1, no AR
  EXPECT_TRUE(t.state().Find("orc")->Has("Exposed"));
  // l.234 Exposes; how long is l.460's (reading 12): the Exposure names it.
  const kernel::testing::NumberSeen until = kernel::testing::LastNumber(*crit, "exposed_until_round");
  EXPECT_EQ(until.value, 2);
  EXPECT_EQ(until.rule, "002.exposed");
  ASSERT_TRUE(t.Submit(Gm("end_round")).ok());
  EXPECT_FALSE(t.state().Find("ash")->Has("Exposed"));
  EXPECT_FALSE(t.state().Find("orc")->Has("Exposed"));
  ExpectRulesKnown(t.log());
}

TEST(Ranged, BeyondMaxRangeCannotAim) {
  Table t(EnergyRounds(), Range(150));
  EXPECT_EQ(t.Submit(Shoot(), {3}).status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(Ranged, MovementAndSizeModifiers) {
  Table t(EnergyRounds(), Range(8, {}, {"small"}));
  auto c = Shoot();
  WithText(c, "target_movement", "none");
  auto ev = t.Submit(c, {1, 5, 5});  // MC 5 + 1 + 2 (Small) - 5 (still) = 3
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "size_mod"), 2);
  EXPECT_EQ(NumOf(*ev, "movement_mod"), -5);
  EXPECT_EQ(NumOf(*ev, "miss_chance"), 3);
}

// 002 l.19 "Load: This action loads a ranged weapon with ammunition. Energy
// cost varies depending on weapon used": the crossbow's `load` 2, Energy
// 5 -> 3; unloaded, it cannot shoot.
TEST(Ranged, CrossbowNeedsLoadingAndAddsFive) {
  Table t(EnergyRounds(), Range());
  EXPECT_EQ(t.Submit(Shoot("xbow"), {3}).status().code(), absl::StatusCode::kFailedPrecondition);
  auto load = Cmd("ash", "load");
  load.weapon = "xbow";
  ASSERT_TRUE(t.Submit(Now(load)).ok());
  EXPECT_EQ(t.state().Find("ash")->Resource("energy"), 3);  // load 2
  // 40 kg needs Arm Strength 16: 12 + 5 for a two-handed crossbow (l.254).
  auto ev = t.Submit(Shoot("xbow"), {3, 12, 5});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "damage"), 7);  // 5 + 2 (l.263)
  EXPECT_EQ(t.state().Find("ash")->Resource("loaded.xbow"), 0);
}

TEST(Ranged, DrawWeightTooHeavy) {
  Table t(EnergyRounds(), Range(8, {{"arm_strength", 5}}));
  auto r = t.Submit(Shoot(), {3});
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition);
}

// 002 l.263-268: "40 ... Max for MPL 1-2; 45 ... Max for MPL 3-4; 50 ...
// Max for MPL >=5; 60 ... Heavy and siege crossbow only". The MPL caps hold
// for a two-handed crossbow too (its +5, l.254, only lets the arm draw it);
// a heavy crossbow has its own rows.
TEST(Ranged, MplCapsTheDrawWeightOfBowsAndCrossbows) {
  auto roster = [](int64_t mpl, int64_t kind, int64_t kg) {
    std::vector<fb::CombatantSpecT> cs;
    cs.push_back(Who("ash", "party", 2, 5, {{"con_score", 10}, {"arm_strength", 25}, {"mpl", mpl}},
                     {W("xbow", "1d10", "ranged", "medium",
                        {{"crossbow", kind}, {"draw_weight", kg}, {"loaded", 1}, {"load", 2},
                         {"close", 5}, {"far", 20}, {"max", 60}},
                        "piercing")}));
    cs.push_back(Who("orc", "orcs", 8, 5, {{"con_score", 14}}));
    return Roster(std::move(cs), 40, 20);
  };
  Table low(EnergyRounds(), roster(1, 1, 45));
  auto r = low.Submit(Shoot("xbow"), {3});
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(r.status().message().find("maximum 40 kg for MPL 1"), std::string::npos) << r.status();
  Table mid(EnergyRounds(), roster(3, 1, 45));
  EXPECT_TRUE(mid.Submit(Shoot("xbow"), {3, 12, 5}).ok());
  Table heavy(EnergyRounds(), roster(1, 3, 60));  // Arm 25 + 5 = 30 draws 60 kg
  auto h = heavy.Submit(Shoot("xbow"), {3, 12, 5});
  ASSERT_TRUE(h.ok()) << h.status();
  EXPECT_EQ(NumOf(*h, "damage_bonus"), 5);  // l.266: +5
}

// 002 l.256-268, the Draw Weight Table, row by row at its edges: the
// weight needs the row's lowest Arm Strength and adds the row's Extra
// Damage; "<=0 <20 ... -" (l.258): under 20 kg no Arm is needed and no
// damage is added; "8-11 30 ... -" (l.261); "20-24 45 ... +3 Max for MPL
// 3-4" (l.264); "25-29 50 ... +4 Max for MPL >=5" (l.265); "35-39 70 ...
// +6 Siege crossbow only" (l.267); ">=40 80 ... +7 Siege crossbow only"
// (l.268); a two-handed (siege) crossbow adds +5 to the Arm (l.254).
// Dice 3, 12, 5: Ranged Evasion 3, Miss Chance 8 + 3 = 11 (l.194, l.196),
// Hit roll 12 hits the unarmoured orc, damage 5 + the row's extra (l.240).
TEST(Ranged, DrawWeightRowsAtTheirEdges) {
  auto roster = [](int64_t arm, int64_t mpl, int64_t kind, int64_t kg) {
    std::vector<fb::CombatantSpecT> cs;
    cs.push_back(Who("ash", "party", 2, 5, {{"con_score", 10}, {"arm_strength", arm}, {"mpl", mpl}},
                     {W("bow", "1d10", "ranged", "medium",
                        {{"crossbow", kind}, {"draw_weight", kg}, {"loaded", 1}, {"load", 2},
                         {"close", 5}, {"far", 20}, {"max", 60}},
                        "piercing")}));
    cs.push_back(Who("orc", "orcs", 8, 5, {{"con_score", 14}}));
    return Roster(std::move(cs), 40, 20);
  };
  struct Case {
    int64_t arm, mpl, kind, kg;
    int64_t bonus;  // -1: refused
    int line;
  };
  const Case cases[] = {
      {0, 0, 0, 15, 0, 258},   // under 20 kg: no Arm needed, no extra
      {8, 1, 0, 30, 0, 261},   // 30 kg at Arm 8: +0
      {7, 1, 0, 30, -1, 261},  // Arm 7 cannot draw 30 kg (row 8-11)
      {8, 1, 0, 34, 0, 261},   // 34 kg is still the 30 kg row
      {20, 3, 0, 45, 3, 264},  // 45 kg: +3
      {19, 3, 0, 45, -1, 264}, // Arm 19 cannot draw 45 kg (row 20-24)
      {25, 5, 0, 50, 4, 265},  // 50 kg: +4
      {25, 4, 0, 50, -1, 264}, // MPL 4: 45 kg at most
      {30, 0, 4, 70, 6, 267},  // siege: Arm 30 + 5 = 35 draws 70 kg: +6
      {30, 0, 3, 70, -1, 267}, // a heavy crossbow may not be 70 kg
      {35, 0, 4, 80, 7, 268},  // siege: 35 + 5 = 40 draws 80 kg: +7
      {34, 0, 4, 80, -1, 268}, // 34 + 5 = 39 cannot
  };
  for (const Case& k : cases) {
    Table t(EnergyRounds(), roster(k.arm, k.mpl, k.kind, k.kg));
    ASSERT_TRUE(t.status().ok()) << t.status();
    auto ev = t.Submit(Shoot("bow"), {3, 12, 5});
    if (k.bonus < 0) {
      EXPECT_EQ(ev.status().code(), absl::StatusCode::kFailedPrecondition)
          << "l." << k.line << " " << k.kg << " kg, Arm " << k.arm;
      continue;
    }
    ASSERT_TRUE(ev.ok()) << "l." << k.line << ": " << ev.status();
    EXPECT_EQ(NumOf(*ev, "damage"), 5 + k.bonus) << "l." << k.line << " " << k.kg << " kg";
  }
}

// 002 l.276-288, Increased Throwing Distance, each row at its low and
// high edge: "<=4 +(0/0/0)" (l.280), "5-9 +(0/2/4)" (l.281), "10-14
// +(1/4/8)" (l.282), "15-19 +(1/6/10)" (l.283), "20-24 +(2/8/16)" (l.284),
// "25-29 +(2/10/20)" (l.285), "30-34 +(3/12/24)" (l.286), "35-39
// +(3/14/28)" (l.287), ">=40 +(4/16/32)" (l.288).
TEST(Ranged, ThrowingDistanceRowsAtTheirEdges) {
  struct Row {
    int64_t low, high, close, far, max;
  };
  const Row rows[] = {{-3, 4, 0, 0, 0},    {5, 9, 0, 2, 4},     {10, 14, 1, 4, 8},
                      {15, 19, 1, 6, 10},  {20, 24, 2, 8, 16},  {25, 29, 2, 10, 20},
                      {30, 34, 3, 12, 24}, {35, 39, 3, 14, 28}, {40, 90, 4, 16, 32}};
  for (const Row& r : rows) {
    for (int64_t arm : {r.low, r.high}) {
      const Trio t = ThrowExtra(arm);
      EXPECT_EQ(t.close, r.close) << "Arm " << arm;
      EXPECT_EQ(t.far, r.far) << "Arm " << arm;
      EXPECT_EQ(t.max, r.max) << "Arm " << arm;
    }
  }
  // Played: a light dagger thrown (3/5/10, l.272) with Arm 15: (4/11/20).
  // The orc 4 m away is within 4: Advantage (l.246); at 11 m, not "further
  // away than" 11: no edge; at 12 m: Disadvantage; at 20 m it may still be
  // aimed, at 21 m not. Dice: Ranged Evasion 3 (Miss Chance 8 + 3 = 11),
  // the Hit roll (2d20 with an edge: 12 and 14 hit either way), 1d4 3
  // halved for a weapon without the Thrown property (l.272): 1.
  auto roster = [](int orc_x) {
    std::vector<fb::CombatantSpecT> cs;
    cs.push_back(Who("ash", "party", 2, 5, {{"con_score", 10}, {"arm_strength", 15}},
                     {W("dagger", "1d4", "melee", "light", {}, "piercing")}));
    cs.push_back(Who("orc", "orcs", orc_x, 5, {{"con_score", 14}}));
    return Roster(std::move(cs), 40, 20);
  };
  {
    Table t(EnergyRounds(), roster(6));
    auto ev = t.Submit(Shoot("dagger", "throw"), {3, 12, 14, 3});
    ASSERT_TRUE(ev.ok()) << ev.status();
    EXPECT_EQ(NumOf(*ev, "hit.adv.close_range"), 1);
    EXPECT_EQ(NumOf(*ev, "damage"), 1);
  }
  {
    Table t(EnergyRounds(), roster(13));
    auto ev = t.Submit(Shoot("dagger", "throw"), {3, 12, 3});
    ASSERT_TRUE(ev.ok()) << ev.status();
    EXPECT_EQ(NumOf(*ev, "hit.dis.beyond_far_range", 0), 0);
    EXPECT_EQ(NumOf(*ev, "hit.adv.close_range", 0), 0);
  }
  {
    Table t(EnergyRounds(), roster(14));
    auto ev = t.Submit(Shoot("dagger", "throw"), {3, 12, 14, 3});
    ASSERT_TRUE(ev.ok()) << ev.status();
    EXPECT_EQ(NumOf(*ev, "hit.dis.beyond_far_range"), 1);
  }
  {
    Table t(EnergyRounds(), roster(22));
    EXPECT_TRUE(t.Submit(Shoot("dagger", "throw"), {3, 12, 14, 3}).ok());
  }
  {
    Table t(EnergyRounds(), roster(23));
    EXPECT_EQ(t.Submit(Shoot("dagger", "throw"), {3}).status().code(),
              absl::StatusCode::kFailedPrecondition);
  }
}

// 002 l.438-446, the Size Chart, row by row: Inherent Evasion "Huge 6,
// Large 7, Medium 8, Small 9, Tiny 10, Diminutive 11, Fine 12" (l.330:
// "8 for Medium creatures and 9 for Small"), Speed "10, 8, 6, 5, 3, 2, 1";
// and the Miss Chance Size Modifier of l.211-220 (reading 13): "Huge -4"
// (l.213), "Large -2" (l.214), "Medium +0" (l.215), "Small +2" (l.216),
// "Tiny +4" (l.217), "Diminutive +8" (l.218), "Fine +12" (l.219),
// "Miniscule +18" (l.220); Reach +1 for Huge, -1 for Tiny and smaller
// (l.452).
TEST(Ranged, SizeChartRowsGiveEvasionSpeedMissChanceAndReach) {
  struct Row {
    const char* tag;
    int64_t evasion, speed, miss, reach;
  };
  const Row rows[] = {{"huge", 6, 10, -4, 2},      {"large", 7, 8, -2, 1}, {"medium", 8, 6, 0, 1},
                      {"small", 9, 5, 2, 1},       {"tiny", 10, 3, 4, 0},  {"diminutive", 11, 2, 8, 0},
                      {"fine", 12, 1, 12, 0},      {"miniscule", 12, 1, 18, 0}};
  std::vector<fb::CombatantSpecT> cs;
  int x = 1;
  for (const Row& r : rows) {
    cs.push_back(Who(r.tag, "all", x, 10, {{"con_score", 10}}, {}, {r.tag}));
    x += 4;
  }
  Table t(EnergyRounds(), Roster(std::move(cs), 40, 20));
  ASSERT_TRUE(t.status().ok()) << t.status();
  for (const Row& r : rows) {
    const Combatant& c = *t.state().Find(r.tag);
    EXPECT_EQ(InherentEvasion(c), r.evasion) << r.tag;
    EXPECT_EQ(BaseSpeed(c), r.speed) << r.tag;
    EXPECT_EQ(SizeMissMod(SizeOf(c)), r.miss) << r.tag;
    EXPECT_EQ(ReachOf(c, nullptr), r.reach) << r.tag;
  }
}

// 002 l.517: "Ranged/thrown weapon >=15" for Non-Lethal damage: a Chance
// roll of 15 deals it, 14 does not; l.519: each -3 Miss Chance trade ("+3
// Miss Chance") widens it by 5: one trade, 10. Dice: Ranged Evasion 3,
// Hit roll 12 (Miss Chance 5 + 3 = 8, +3 with the trade = 11), 1d8 5,
// the Chance roll.
TEST(Ranged, NonLethalChanceNeedsFifteenForARangedWeapon) {
  struct Case {
    int trades, chance;
    int64_t needs, nonlethal, miss_chance;
  };
  const Case cases[] = {{0, 15, 15, 1, 8}, {0, 14, 15, 0, 8}, {1, 10, 10, 1, 11}, {1, 9, 10, 0, 11}};
  for (const Case& k : cases) {
    Table t(EnergyRounds(), Range());
    auto c = Shoot();
    With(c, "nonlethal", 1);
    if (k.trades) With(c, "nl_trade", k.trades);
    auto ev = t.Submit(c, {3, 12, 5, k.chance});
    ASSERT_TRUE(ev.ok()) << ev.status();
    EXPECT_EQ(NumOf(*ev, "miss_chance"), k.miss_chance);
    EXPECT_EQ(NumOf(*ev, "nonlethal_needs"), k.needs);
    EXPECT_EQ(NumOf(*ev, "nonlethal"), k.nonlethal) << k.chance;
  }
}

TEST(Ranged, NonProficientCostsMoreAndHalves) {
  Table t(EnergyRounds(), Range(8, {{"mpl", 0}}));
  // A 35 kg bow is fine at MPL 0; make the bow need MPL 2 instead.
  Table u(EnergyRounds(), [] {
    auto r = Range();
    r.combatants[0]->weapons[0]->numbers.push_back(std::make_unique<fb::NumberT>());
    r.combatants[0]->weapons[0]->numbers.back()->key = "mpr";
    r.combatants[0]->weapons[0]->numbers.back()->value = 2;
    return r;
  }());
  auto ev = u.Submit(Shoot(), {3, 12, 5});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(u.state().Find("ash")->Resource("energy"), 3);  // 2 Energy (l.529)
  EXPECT_EQ(NumOf(*ev, "damage"), 3);                        // 6 / 2
}

TEST(Ranged, ThrowingANonThrownWeaponHalvesDamage) {
  Table t(EnergyRounds(), Range(8));
  // Light: 3/5/10; Arm Strength 12 adds 1/4/8 (l.282): 4/9/18.
  auto ev = t.Submit(Shoot("dagger", "throw"), {3, 12, 4});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "range_max"), 18);
  EXPECT_EQ(NumOf(*ev, "damage"), 2);  // 4 / 2 (l.272)
  const Combatant& a = *t.state().Find("ash");
  EXPECT_EQ(a.Resource("wield.dagger"), 0);
  EXPECT_EQ(a.FindCondition("Dropped")->note, "8,5");
}

// 002 l.274 "Thrown(#/#/#) ... For example: Thrown(5/10/20) would mean if
// the target is 5m or closer, you have Advantage on the Hit Roll; if the
// target is over 10m away, you have Disadvantage on your Hit Roll; and 20m
// is the maximum range" (l.244, l.246: "Range values come in a trio"),
// with l.272 "Weapons with the Thrown property have Accuracy equal to their
// AV bonus" and no halving. ash (Dex 4: halved 2; Arm Strength 0: no extra
// distance, l.280) throws a javelin with the Thrown property, AV bonus 2,
// Thrown(5/10/20): MCM 8 - 2 - 2 = 4 (l.196). The orc (Dex 0, no armor,
// Aura 20) rolls Ranged Evasion 1: Miss Chance 4 + 1 = 5.
//   5 m: Advantage, 2d20 3, 12 -> 12 >= 5: 1d6 5 in full, Aura 15;
//   10 m: no edge, 12 hits: Aura 15;
//   11 m: Disadvantage, 12, 3 -> 3 < 5: a miss, Aura 20;
//   20 m: may still be aimed; 21 m: refused (002.ranged.range).
TEST(Ranged, AThrownPropertyWeaponHasItsOwnTrioAndItsAvBonusAsAccuracy) {
  auto roster = [](int orc_x) {
    std::vector<fb::CombatantSpecT> cs;
    cs.push_back(Who("ash", "party", 2, 5, {{"dex", 4}, {"con_score", 10}},
                     {W("javelin", "1d6", "thrown", "medium",
                        {{"av_bonus", 2}, {"close", 5}, {"far", 10}, {"max", 20}}, "piercing")}));
    cs.push_back(Who("orc", "orcs", orc_x, 5, {{"con_score", 14}}));
    return Roster(std::move(cs), 40, 20);
  };
  struct Case {
    int dist;
    std::vector<int> dice;
    int64_t edge, aura;
  };
  for (const Case& k : std::vector<Case>{{5, {1, 3, 12, 5}, 1, 15},
                                         {10, {1, 12, 5}, 0, 15},
                                         {11, {1, 12, 3}, -1, 20},
                                         {20, {1, 12, 3}, -1, 20}}) {
    Table t(EnergyRounds(), roster(2 + k.dist));
    auto ev = t.Submit(Shoot("javelin", "throw"), k.dice);
    ASSERT_TRUE(ev.ok()) << k.dist << ": " << ev.status();
    EXPECT_EQ(NumOf(*ev, "accuracy"), 2) << k.dist;
    EXPECT_EQ(NumOf(*ev, "mcm"), 4) << k.dist;
    EXPECT_EQ(NumOf(*ev, "miss_chance"), 5) << k.dist;
    EXPECT_EQ(NumOf(*ev, "range_close"), 5) << k.dist;
    EXPECT_EQ(NumOf(*ev, "range_far"), 10) << k.dist;
    EXPECT_EQ(NumOf(*ev, "range_max"), 20) << k.dist;
    EXPECT_EQ(NumOf(*ev, "hit_edge", 0), k.edge) << k.dist;
    EXPECT_EQ(NumOf(*ev, "halved.not_thrown", 0), 0) << k.dist;
    EXPECT_EQ(t.state().Find("orc")->Resource("aura"), k.aura) << k.dist;
  }
  Table t(EnergyRounds(), roster(23));
  auto far = t.Submit(Shoot("javelin", "throw"), {1, 12, 3});
  EXPECT_EQ(far.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(far.status().message().find("aims up to 20 m"), std::string::npos) << far.status();
}

// 002 l.332 "When defending against a Ranged Attack, you do not get to use
// your Weapon Bonuses for your Evasion roll (plus note the roll uses a 1d4
// instead of a 1d10 ...)", l.334-336 "Ranged Evasion Roll = 1d4* + Ranged
// Evasion", "Ranged Evasion = Halved Dexterity Modifier + shield bonuses -
// armor penalty", l.206 "This is a Defense roll". The orc: Dex 2 (halved
// 1), shield 2, armor penalty 1, an axe giving Evasion +3: Ranged Evasion
// 1 + 2 - 1 = 2 (the axe's 3 not counted; its melee Evasion would be
// 8 + 0 + 1 + 2 + 3 - 1 = 13). Ranged Evasion roll 2: 4; Miss Chance
// 5 + 4 = 9 (ash's MCM 5); l.230 "a 1d20 roll with nothing added": a Hit
// roll of 9 >= 9 hits (l.192), 9 < Ranged AC 10: 1d8 5 + 1 (35 kg, l.262)
// - AR 3 = 3 (l.240), Aura 26 -> 23.
TEST(Ranged, RangedEvasionTakesNoWeaponBonus) {
  std::vector<fb::CombatantSpecT> cs;
  cs.push_back(Who("ash", "party", 2, 5,
                   {{"dex", 4}, {"con_score", 10}, {"arm_strength", 12}, {"mpl", 1}},
                   {W("bow", "1d8", "ranged", "medium",
                      {{"accuracy", 1}, {"close", 5}, {"far", 30}, {"max", 120}, {"draw_weight", 35}},
                      "piercing")}));
  cs.push_back(Who("orc", "orcs", 8, 5,
                   {{"str", 3}, {"con", 2}, {"dex", 2}, {"con_score", 14}, {"ac", 10}, {"ar", 3},
                    {"shield", 2}, {"armor_penalty", 1}},
                   {W("axe", "1d10", "melee", "heavy", {{"evasion_bonus", 3}})}));
  Table t(EnergyRounds(), Roster(std::move(cs), 40, 20));
  EXPECT_EQ(Evasion(*t.state().Find("orc"), false, nullptr), 13);
  auto ev = t.Submit(Shoot(), {2, 9, 5});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "def.ranged_evasion"), 2);
  EXPECT_EQ(NumOf(*ev, "def.shield"), 2);
  EXPECT_EQ(NumOf(*ev, "def.weapon_evasion", 0), 0);
  EXPECT_EQ(NumOf(*ev, "ranged_evasion_roll"), 4);
  EXPECT_EQ(NumOf(*ev, "miss_chance"), 9);
  EXPECT_EQ(NumOf(*ev, "hit_d20"), 9);
  EXPECT_EQ(NumOf(*ev, "damage"), 3);
  EXPECT_EQ(Aura(t), 23);
}

TEST(Ranged, UnawareTargetMakesNoRangedEvasion) {
  Table t(EnergyRounds(), Range(8, {}, {"unaware"}));
  auto ev = t.Submit(Shoot(), {6, 5});  // MC 5
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "no_ranged_evasion"), 1);
  EXPECT_EQ(Aura(t), 23);  // on armor: 5 + 1 - 3
}

// 002 l.222-224: "Amount of Movement: none -5". An unconscious target does
// not move at all: Miss Chance 5 + 0 (no Ranged Evasion, l.202) - 5 = 0,
// so a Hit roll of 4 hits (l.192) where "typical combat" (5) would miss.
TEST(Ranged, AnUnconsciousTargetDoesNotMove) {
  Table t(EnergyRounds(), Range());
  ASSERT_TRUE(t.Submit(GmAdds("orc", "Unconscious")).ok());
  auto ev = t.Submit(Shoot(), {4, 5});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "movement_mod"), -5);
  EXPECT_EQ(NumOf(*ev, "miss_chance"), 0);
  EXPECT_EQ(Aura(t), 23);  // 5 + 1 - AR 3 (4 < Ranged AC 10)
  ExpectRulesKnown(t.log());
}

// 002 l.226: "Running with zig-zagging, Sprinting +5". An orc that has
// just sprinted is shot at +5 Miss Chance, and the modifier's source names
// the row read from the state ("sprinting"; it said "zigzag").
// ash at (2,5), orc sprints 6 m to (14,5), its back to ash: Ranged
// Evasion 2d4kl1 (l.404) 1, 1. MC 5 + 1 + 0 + 5 = 11: a Hit roll of 10
// misses.
TEST(Ranged, ASprintingTargetIsHarderToHitAndSaysSo) {
  Table t(EnergyRounds(), Range());
  auto sprint = Cmd("orc", "sprint");
  Path(sprint, {{9, 5}, {10, 5}, {11, 5}, {12, 5}, {13, 5}, {14, 5}});
  ASSERT_TRUE(t.Submit(Now(sprint)).ok());
  auto ev = t.Submit(Shoot(), {1, 1, 10});
  ASSERT_TRUE(ev.ok()) << ev.status();
  const auto mv = kernel::testing::LastNumber(*ev, "movement_mod");
  EXPECT_EQ(mv.value, 5);
  EXPECT_EQ(mv.source, "orc sprinting");
  EXPECT_EQ(NumOf(*ev, "miss_chance"), 11);
  EXPECT_NE(LastOutcome(*ev).find("miss"), std::string::npos) << LastOutcome(*ev);
}

// 002 l.225: "Running, Walking, and typical combat +0" (l.208 "Situational
// Modifiers to Miss Chance", l.222). The same orc running the same 6 m
// instead of sprinting is shot at +0: MC 5 + 1 + 0 + 0 = 6, so a Hit roll
// of 6 hits (l.192), where the Sprint's 11 missed. 6 < Ranged AC 10: on
// armor, 5 + 1 - 3 = 3 damage (l.240).
TEST(Ranged, ARunningTargetIsTypicalCombat) {
  Table t(EnergyRounds(), Range());
  auto run = Cmd("orc", "run");
  Path(run, {{9, 5}, {10, 5}, {11, 5}, {12, 5}, {13, 5}, {14, 5}});
  ASSERT_TRUE(t.Submit(Now(run)).ok());
  auto ev = t.Submit(Shoot(), {1, 1, 6, 5});
  ASSERT_TRUE(ev.ok()) << ev.status();
  const auto mv = kernel::testing::LastNumber(*ev, "movement_mod");
  EXPECT_EQ(mv.value, 0);
  EXPECT_EQ(mv.source, "orc normal");
  EXPECT_EQ(NumOf(*ev, "miss_chance"), 6);
  EXPECT_EQ(Aura(t), 23);
  ExpectRulesKnown(t.log());
}

}  // namespace
}  // namespace combat::kernel::energy::testutil
