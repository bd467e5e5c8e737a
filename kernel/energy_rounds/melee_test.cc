// Melee attacks: AV (l.162), the Combat roll (l.168-176), exploding Defense
// rolls (l.320), armor (l.178), damage multipliers (l.374-386).
// kara: MASAB (2+2)/3 = 1, sword +1: AV 15 + 1 + 1 = 17.
// orc: Evasion 8 (Medium, l.439); AC 10, AR 3; Aura 20 + 5 x 4/3 = 26.
#include <tuple>
#include <vector>

#include "gtest/gtest.h"
#include "kernel/energy_rounds/test_util.h"

namespace combat::kernel::energy::testutil {
namespace {

fb::RosterT Duel(std::vector<std::string> orc_tags = {}, Stats orc_extra = {},
                 Stats sword = {{"av_bonus", 1}}) {
  std::vector<fb::CombatantSpecT> cs;
  cs.push_back(Who("kara", "party", 5, 5,
                   {{"level", 3}, {"str", 2}, {"dex", 2}, {"con", 1}, {"con_score", 12}},
                   {W("sword", "1d8", "melee", "medium", sword),
                    W("scimitar", "1d6", "melee", "light", {{"precise", 1}})}));
  Stats orc = {{"str", 3}, {"con", 2}, {"con_score", 14}, {"ac", 10}, {"ar", 3}};
  for (auto& s : orc_extra) orc.push_back(s);
  cs.push_back(Who("orc", "orcs", 6, 5, orc, {W("axe", "1d10", "melee", "heavy")}, orc_tags));
  cs.push_back(Who("gob", "orcs", 9, 5, {{"con_score", 8}}, {W("knife", "1d4", "melee", "light")}));
  return Roster(std::move(cs));
}

fb::CommandT Attack(const std::string& weapon = "") {
  auto c = Cmd("kara", "melee", {"orc"});
  c.weapon = weapon;
  return Now(c);
}

int64_t Aura(const Table& t, const char* who) { return t.state().Find(who)->Resource("aura"); }

TEST(Melee, HitLandsOnArmor) {
  Table t(EnergyRounds(), Duel());
  ASSERT_TRUE(t.status().ok()) << t.status();
  // Combat roll 8 < AC 10: armor (l.178). Evasion 1d10! = 5 + 8 = 13 <= 17.
  auto ev = t.Submit(Attack(), {8, 5, 6});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "av"), 17);
  EXPECT_EQ(NumOf(*ev, "defense_total"), 13);
  EXPECT_EQ(NumOf(*ev, "after_armor"), 4);  // 6 + MASDB 1 - AR 3
  EXPECT_EQ(Aura(t, "orc"), 22);
  EXPECT_NE(LastOutcome(*ev).find("on armor"), std::string::npos);
  EXPECT_EQ(t.state().Find("kara")->Resource("energy"), 2);  // l.154
  EXPECT_TRUE(Cites(*ev, "002.melee.armor"));
}

// 002 l.346 "if a target is asleep or fully restrained they cannot roll
// Evasion, and any attacks against them automatically hit"; l.690 "If you
// have an ability which removes a Condition that is continually applied,
// you still ignore the Condition until the end of the Round". The orc, held
// fast by grasping roots (FullyRestrained, source environment), uses its
// ability to remove it: it ignores the roots this Round, so it rolls
// Evasion against kara's sword (was: the roots it ignored still made it
// hit automatically). AV 17; Combat roll 8; Evasion 1d10* 10, 1 -> 11 + 8 =
// 19 > 17: a miss, the orc's Aura stays 26.
TEST(Melee, AnIgnoredFullRestraintLetsTheTargetRollEvasion) {
  Table t(EnergyRounds(), Duel({"removes:FullyRestrained"}));
  ASSERT_TRUE(t.Submit(GmAdds("orc", "FullyRestrained", {}, "environment")).ok());
  auto r = Cmd("orc", "remove_condition");
  WithText(r, "name", "FullyRestrained");
  ASSERT_TRUE(t.Submit(r).ok());
  EXPECT_TRUE(t.state().Find("orc")->Has("FullyRestrained"));
  auto ev = t.Submit(Attack(), {8, 10, 1});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "defense_total", -1), 19);
  EXPECT_EQ(Aura(t, "orc"), 26);
}

TEST(Melee, HitBypassesArmor) {
  Table t(EnergyRounds(), Duel());
  auto ev = t.Submit(Attack(), {15, 4, 6});  // 15 >= AC 10 (l.178)
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "damage"), 7);
  EXPECT_EQ(Aura(t, "orc"), 19);
  EXPECT_NE(LastOutcome(*ev).find("armor bypassed"), std::string::npos);
}

// 002 l.80: "For each attack, you are limited to spending only 4 Stamina to
// enhance an attack. If a single ability requires you to spend more than 4
// Stamina on an attack, you may do so ... Any Stamina spent as Energy does
// not count towards this limit." Only attacks are enhanced.
TEST(Melee, AtMostFourStaminaEnhanceOneAttack) {
  Table t(EnergyRounds(), Duel());
  auto five = Attack();
  With(five, "enhance", 5);
  EXPECT_EQ(t.Submit(five).status().code(), absl::StatusCode::kFailedPrecondition);
  auto four = Attack();
  With(four, "enhance", 4);
  With(four, "stamina_energy", 1);  // not counted in the 4
  auto ev = t.Submit(four, {15, 4, 6});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(t.state().Find("kara")->Resource("stamina"), 7);  // 12 - 4 - 1
  EXPECT_EQ(t.state().Find("kara")->Resource("energy"), 3);   // 5 - (3 - 1)
  EXPECT_TRUE(Cites(*ev, "002.stamina.enhance"));
  Table u(EnergyRounds(), Duel());
  auto single = Attack();
  With(single, "enhance", 6);
  With(single, "enhance_single", 1);
  ASSERT_TRUE(u.Submit(single, {15, 4, 6}).ok());
  EXPECT_EQ(u.state().Find("kara")->Resource("stamina"), 6);
  auto shift = Cmd("kara", "shift");
  Path(shift, {{4, 5}});
  With(shift, "enhance", 1);
  auto bad = u.Submit(Now(shift));
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("params.enhance"), std::string::npos) << bad.status();
  ExpectRulesKnown(t.log());
}

TEST(Melee, DefenseDieExplodesTwice) {
  Table t(EnergyRounds(), Duel());
  auto ev = t.Submit(Attack(), {8, 10, 10, 3});  // 10 + 10 + 3 = 23 (l.320)
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "defense_explosions"), 2);
  EXPECT_EQ(NumOf(*ev, "defense_total"), 31);
  EXPECT_EQ(Aura(t, "orc"), 26);
  EXPECT_NE(LastOutcome(*ev).find("miss"), std::string::npos);
}

TEST(Melee, CriticalHitIgnoresArmorAndExposes) {
  Table t(EnergyRounds(), Duel());
  auto ev = t.Submit(Attack(), {20, 5});  // no Defense roll (l.392)
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(Aura(t, "orc"), 20);          // 5 + 1, AR ignored
  EXPECT_TRUE(t.state().Find("orc")->Has("Exposed"));
}

TEST(Melee, PreciseWidensTheCriticalRange) {
  Table t(EnergyRounds(), Duel());
  auto ev = t.Submit(Attack("scimitar"), {19, 4});  // Precise 1: 19-20 (l.390)
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "crit_at"), 19);
  EXPECT_EQ(Aura(t, "orc"), 21);  // 4 + 1
}

TEST(Melee, CriticalFailureMissesAndExposesUntilNextRoundEnds) {
  Table t(EnergyRounds(), Duel());
  auto ev = t.Submit(Attack(), {1});
  ASSERT_TRUE(ev.ok()) << ev.status();
  const Condition* e = t.state().Find("kara")->FindCondition("Exposed");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->expiry.kind, fb::ExpiryKind::RoundEnd);
  EXPECT_EQ(e->expiry.round, 2);  // l.173
  ASSERT_TRUE(t.Submit(Gm("end_round")).ok());
  EXPECT_TRUE(t.state().Find("kara")->Has("Exposed"));
  ASSERT_TRUE(t.Submit(Gm("end_round")).ok());
  EXPECT_FALSE(t.state().Find("kara")->Has("Exposed"));
}

TEST(Melee, LowCombatRollExposesButCanStillHit) {
  Table t(EnergyRounds(), Duel());
  auto ev = t.Submit(Attack(), {3, 2, 6});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_TRUE(t.state().Find("kara")->Has("Exposed"));
  EXPECT_EQ(Aura(t, "orc"), 22);
}

TEST(Melee, DefendingWinsTies) {
  Table t(EnergyRounds(), Duel());
  auto d = Cmd("orc", "defend");
  ASSERT_TRUE(t.Submit(Now(d)).ok());
  auto ev = t.Submit(Attack(), {15, 9});  // 9 + 8 = 17 = AV: the defender wins (l.35)
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "defending_wins_ties"), 1);
  EXPECT_EQ(Aura(t, "orc"), 26);
}

TEST(Melee, WeaknessAndResistanceCancel) {
  Table t(EnergyRounds(), Duel({"weak:slashing", "resist:slashing"}));
  auto ev = t.Submit(Attack(), {15, 4, 6});
  ASSERT_TRUE(ev.ok());
  EXPECT_EQ(NumOf(*ev, "damage"), 7);  // l.380
}

TEST(Melee, ResistanceHalvesRoundingDown) {
  Table t(EnergyRounds(), Duel({"resist:slashing"}));
  auto ev = t.Submit(Attack(), {15, 4, 6});
  ASSERT_TRUE(ev.ok());
  EXPECT_EQ(NumOf(*ev, "damage"), 3);  // 7 / 2 rounded down (l.384)
}

TEST(Melee, TwoDoublingsMakeThreeTimes) {
  Table t(EnergyRounds(), Duel({"weak:slashing"}));
  auto c = Attack();
  With(c, "double", 1);
  auto ev = t.Submit(c, {8, 4, 6});  // on armor: 6 + 1 - 3 = 4, then x3 (l.386)
  ASSERT_TRUE(ev.ok());
  EXPECT_EQ(NumOf(*ev, "after_armor"), 4);
  EXPECT_EQ(NumOf(*ev, "damage"), 12);
}

TEST(Melee, UnconsciousTargetIsHitAutomatically) {
  Table t(EnergyRounds(), Duel());
  ASSERT_TRUE(t.Submit(GmAdds("orc", "Unconscious")).ok());
  auto ev = t.Submit(Attack(), {10, 6});  // no Defense roll (l.653)
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "no_defense_roll"), 1);
  EXPECT_EQ(Aura(t, "orc"), 19);
}

// README reading 19: l.653 "creatures may automatically hit you" takes
// away the Defense roll, not the Combat roll; l.174 "1 Critical Failure.
// Your attack misses." still applies, and l.462 Exposes the attacker.
TEST(Melee, ANaturalOneMissesEvenAnUnconsciousTarget) {
  Table t(EnergyRounds(), Duel());
  ASSERT_TRUE(t.Submit(GmAdds("orc", "Unconscious")).ok());
  auto ev = t.Submit(Attack(), {1});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(Aura(t, "orc"), 26);  // untouched
  EXPECT_TRUE(t.state().Find("kara")->Has("Exposed"));
}

// 002 l.338-342 "Sometimes, such as when you are facing away from an
// attack, neither your Weapons or Shields will help you evade an attack:
// Unarmed Evasion Roll = 1d10* + Unarmed Evasion", "Unarmed Evasion =
// Inherent Evasion + 1/3 Level + Halved Dexterity Modifier - armor
// penalty": the orc's 8 + 0 + 0 - 0 = 8, its shield 2 left out; with l.404's
// Disadvantage: 8 + 4 = 12.
TEST(Melee, FromBehindUsesUnarmedEvasionWithDisadvantage) {
  Table t(EnergyRounds(), Duel({}, {{"facing", 2}, {"shield", 2}}));
  // The orc faces east; kara is west of it (l.404). 2d10kl1: 9, 4 -> 4.
  auto ev = t.Submit(Attack(), {15, 9, 4, 6});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "from_behind"), 1);
  EXPECT_EQ(NumOf(*ev, "defense_edge"), -1);
  EXPECT_EQ(NumOf(*ev, "def.unarmed_evasion"), 8);  // no shield
  EXPECT_EQ(NumOf(*ev, "defense_total"), 12);
}

// 002 l.402 "you face the 3 squares in front of you and the half of the 2
// beside you - when the square is taken as a whole you are counted as
// facing it"; l.404 "If you are attacked from where you are not facing, you
// have Disadvantage on Evasion rolls and you use your Unarmed Evasion". The
// orc at (6,5) faces south-east; kara, Large (l.441), fills (4..5, 6..7):
// her top-left square (4,6) is behind the orc, but (5,7) is in front of it
// (from the orc, (-1, 2) against south-east (1, 1): within 90 degrees), so
// the orc faces her: Evasion 8 + shield 2 = 10, no Disadvantage (was: only
// kara's top-left square was looked at: from behind, Unarmed Evasion 8
// with Disadvantage). 7 + 10 = 17, which AV 17 meets (l.166).
TEST(Melee, AnAttackerIsFacedWhenAnySquareOfItsSpaceIs) {
  std::vector<fb::CombatantSpecT> cs;
  cs.push_back(Who("kara", "party", 4, 6,
                   {{"level", 3}, {"str", 2}, {"dex", 2}, {"con", 1}, {"con_score", 12}, {"facing", 1}},
                   {W("sword", "1d8", "melee", "medium", {{"av_bonus", 1}})}, {"large"}));
  cs.back().size = 2;  // 2 x 2 squares
  cs.push_back(Who("orc", "orcs", 6, 5,
                   {{"str", 3}, {"con", 2}, {"con_score", 14}, {"ac", 10}, {"ar", 3},
                    {"facing", 3}, {"shield", 2}},
                   {W("axe", "1d10", "melee", "heavy")}));
  Table t(EnergyRounds(), Roster(std::move(cs)));
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto ev = t.Submit(Attack(), {15, 7, 6});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "from_behind", 0), 0);
  EXPECT_EQ(NumOf(*ev, "def.evasion", -1), 10);
  EXPECT_EQ(NumOf(*ev, "defense_total", -1), 17);
}

// 002 l.326 "Evasion Roll = 1d10* + Evasion", l.328 "Evasion = Inherent
// Evasion + 1/3 Level + Halved Dexterity Modifier + shield & weapon bonuses
// - armor penalty": 8 + 0 + 0 + 2 = 10; the roll 7 + 10 = 17, which AV 17
// meets (l.166), and l.348 "If an attack doesn't specify a Defense to
// target, assume it is Evasion": no `defense` given, Evasion rolled.
TEST(Melee, ShieldCountsWhenFacing) {
  Table t(EnergyRounds(), Duel({}, {{"shield", 2}}));
  auto ev = t.Submit(Attack(), {15, 7, 6});
  ASSERT_TRUE(ev.ok());
  EXPECT_EQ(NumOf(*ev, "def.evasion"), 10);
  EXPECT_EQ(NumOf(*ev, "defense_total"), 17);  // 17 >= 17: hit
  EXPECT_EQ(Aura(t, "orc"), 19);
}

TEST(Melee, NonProficientLosesAvAndHalvesDamage) {
  Table t(EnergyRounds(), Duel({}, {}, {{"av_bonus", 1}, {"mpr", 5}}));
  auto ev = t.Submit(Attack(), {15, 4, 6});
  ASSERT_TRUE(ev.ok());
  EXPECT_EQ(NumOf(*ev, "av"), 16);     // l.527: -1 AV
  EXPECT_EQ(NumOf(*ev, "damage"), 3);  // 7 / 2 rounded down
}

TEST(Melee, UnarmedCostsTwoAndDealsMasab) {
  Table t(EnergyRounds(), Duel());
  auto c = Cmd("kara", "unarmed", {"orc"});
  auto ev = t.Submit(Now(c), {15, 4});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "av"), 16);  // 15 + MASAB (l.545)
  EXPECT_EQ(Aura(t, "orc"), 25);    // MASAB 1 (min 1, l.547)
  EXPECT_EQ(t.state().Find("kara")->Resource("energy"), 3);  // l.541
}

// 002 l.15 "Using 3 Energy you attack a target within your Reach": the gob
// 4 m away is beyond the sword's 1 m (l.402: adjacent), so the attack is
// refused before a die is rolled, naming the reach.
TEST(Melee, OutOfReachIsRefused) {
  Table t(EnergyRounds(), Duel());
  auto c = Cmd("kara", "melee", {"gob"});
  auto r = t.Submit(Now(c), {10});
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(r.status().message().find("reach"), std::string::npos);
}

TEST(Melee, NonLethalNeedsAChanceRoll) {
  Table t(EnergyRounds(), Duel());
  auto c = Attack();
  With(c, "nonlethal", 1);
  With(c, "nl_trade", 1);
  auto ev = t.Submit(c, {15, 4, 6, 5});  // AV 14; Chance 5 >= 10 - 5 (l.519)
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "av"), 14);
  EXPECT_EQ(NumOf(*ev, "nonlethal_needs"), 5);
  EXPECT_EQ(NumOf(*ev, "nonlethal"), 1);
}

// 002 l.511 "Other attacks require a Chance roll", l.513-517: "Blunt melee
// weapon >=5" (l.515), "Other melee weapon >=10" (l.516), "Ranged/thrown
// weapon >=15" (l.517), each at its edge: the threshold itself deals
// Non-Lethal damage, one less does not (l.372 "a Chance roll has a DC: 10,
// meaning it succeeds on a roll of 10 or above and fails on a roll of 9 or
// less": the "Other melee weapon" row). kara's sword (l.516) and a club
// (`blunt`, l.515): Combat roll 15 (not on the orc's armor, AC 10),
// Evasion 4 + 8 = 12 against AV 17, damage 6, then the Chance roll.
TEST(Melee, NonLethalChanceRowsAtTheirEdges) {
  struct Case {
    const char* weapon;
    int chance;
    int64_t needs, nonlethal;
  };
  const Case cases[] = {{"sword", 10, 10, 1}, {"sword", 9, 10, 0},
                        {"club", 5, 5, 1},    {"club", 4, 5, 0}};
  for (const Case& k : cases) {
    Table t(EnergyRounds(), [] {
      auto r = Duel();
      auto club = W("club", "1d8", "melee", "medium", {{"av_bonus", 1}, {"blunt", 1}, {"equipped", 1}});
      r.combatants[0]->weapons.push_back(std::make_unique<fb::WeaponT>(std::move(club)));
      return r;
    }());
    ASSERT_TRUE(t.status().ok()) << t.status();
    auto c = Attack(k.weapon);
    With(c, "nonlethal", 1);
    auto ev = t.Submit(c, {15, 4, 6, k.chance});
    ASSERT_TRUE(ev.ok()) << k.weapon << ": " << ev.status();
    EXPECT_EQ(NumOf(*ev, "nonlethal_needs"), k.needs) << k.weapon;
    EXPECT_EQ(NumOf(*ev, "nonlethal"), k.nonlethal) << k.weapon << " " << k.chance;
  }
}

// 002 l.156: "A single strike against something that cannot defend (such
// as an inanimate object or a person who refuses or is unable to defend)
// does not require as much Energy ... 1 Energy may be all that is needed."
TEST(Melee, SingleStrikeAtWhatCannotDefendCostsOne) {
  Table t(EnergyRounds(), Duel());
  auto awake = Attack();
  With(awake, "single_strike", 1);
  auto r = t.Submit(awake, {10, 6});
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(r.status().message().find("l.156"), std::string::npos) << r.status();
  ASSERT_TRUE(t.Submit(GmAdds("orc", "Asleep")).ok());
  auto c = Attack();
  With(c, "single_strike", 1);
  auto ev = t.Submit(c, {10, 6});  // no Defense roll (l.346); 10 >= AC 10
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(t.state().Find("kara")->Resource("energy"), 4);
  EXPECT_EQ(NumOf(*ev, "no_defense_roll"), 1);
  EXPECT_EQ(Aura(t, "orc"), 19);  // 6 + 1
  EXPECT_TRUE(Cites(*ev, "002.cost.single_strike"));
  ExpectRulesKnown(t.log());
}

// 002 l.344: "Attacks which target Fortitude or Will are not affected by the
// target's armor"; l.366: Will = 10 + 1/3 Level + Cha/2 + Wis/2.
TEST(Melee, AnAttackOnWillIgnoresArmor) {
  Table t(EnergyRounds(), Duel({}, {{"wis", 3}, {"cha", 1}}));
  auto c = Attack();
  WithText(c, "defense", "will");
  auto ev = t.Submit(c, {8, 5, 6});  // Combat 8 < AC 10, yet no armor
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "def.will"), 11);  // 10 + 0 + 1/2 + 3/2 = 10 + 0 + 0 + 1
  EXPECT_EQ(NumOf(*ev, "defense_total"), 16);
  EXPECT_EQ(NumOf(*ev, "armor_hit"), 0);
  EXPECT_EQ(NumOf(*ev, "damage"), 7);  // 6 + 1, no AR 3
  EXPECT_EQ(Aura(t, "orc"), 25);       // 20 + (3+2+3+1) x 4/3 = 32 (l.298), - 7
  ExpectRulesKnown(t.log());
}

// 002 l.358: "Inherent Fortitude represents the base natural fortitude
// creatures have. This starts at 10, but can be modified depending on the
// creature's Race."; l.368 likewise "Inherent Will ... starts at 10". The
// orc (level 1, Str 3, Con 2, Wis 0, Cha 0) without a race's number:
// Fortitude 10 + 1/3 + 2/2 + 3/2 = 10 + 0 + 1 + 1 = 12 (l.356), Will 10 +
// 0 + 0 + 0 = 10 (l.366); a race's roster `inherent_fortitude` 13 and
// `inherent_will` 7 give 15 and 7. Combat roll 8, the defense die 5, no
// explosion: 12 + 5 = 17 <= AV 17 hits, 15 + 5 = 20 does not; 10 + 5 = 15
// hits, 7 + 5 = 12 hits.
TEST(Melee, InherentFortitudeAndWillStartAtTenAndTheRaceChangesThem) {
  for (const bool race : {false, true}) {
    Stats extra;
    if (race) extra = {{"inherent_fortitude", 13}, {"inherent_will", 7}};
    Table t(EnergyRounds(), Duel({}, extra));
    auto f = Attack();
    WithText(f, "defense", "fortitude");
    auto ev = t.Submit(f, race ? std::vector<int>{8, 5} : std::vector<int>{8, 5, 6});
    ASSERT_TRUE(ev.ok()) << ev.status();
    EXPECT_EQ(NumOf(*ev, "def.inherent_fortitude"), race ? 13 : 10);
    EXPECT_EQ(NumOf(*ev, "def.fortitude"), race ? 15 : 12);
    EXPECT_EQ(NumOf(*ev, "defense_total"), race ? 20 : 17);
    EXPECT_EQ(Aura(t, "orc"), race ? 26 : 19);  // 6 + 1, no AR (l.344)
    Table u(EnergyRounds(), Duel({}, extra));
    auto w = Attack();
    WithText(w, "defense", "will");
    auto wv = u.Submit(w, {8, 5, 6});
    ASSERT_TRUE(wv.ok()) << wv.status();
    EXPECT_EQ(NumOf(*wv, "def.inherent_will"), race ? 7 : 10);
    EXPECT_EQ(NumOf(*wv, "def.will"), race ? 7 : 10);
    EXPECT_EQ(NumOf(*wv, "defense_total"), race ? 12 : 15);
    EXPECT_EQ(Aura(u, "orc"), 19);
  }
}

// 002 l.452: "Huge (and larger) creatures have +1 Reach and Tiny (or
// smaller) creatures have -1 Reach."
TEST(Melee, SizeChangesReach) {
  std::vector<fb::CombatantSpecT> cs;
  cs.push_back(Who("ogre", "orcs", 5, 5, {{"con_score", 14}}, {W("club", "1d6", "melee", "medium")},
                   {"huge"}));
  cs.push_back(Who("kara", "party", 7, 5, {{"con_score", 12}}));
  cs.push_back(Who("imp", "orcs", 8, 5, {{"con_score", 6}}, {W("claw", "1d2", "melee", "light")},
                   {"tiny"}));
  Table t(EnergyRounds(), Roster(std::move(cs)));
  auto ogre = Cmd("ogre", "melee", {"kara"});
  With(ogre, "digital_rest", 1);  // the dice after these three: seeded
  EXPECT_TRUE(t.Submit(Now(ogre), {15, 1, 3}).ok());  // 2 m <= reach 1 + 1
  auto imp = Cmd("imp", "melee", {"kara"});
  auto r = t.Submit(Now(imp), {15});
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition);  // 1 m > reach 1 - 1
  EXPECT_NE(r.status().message().find("reach is 0 m"), std::string::npos) << r.status();
  // Reading 34: -1 Reach from Reach0 (the adjacent square, l.541) is the
  // creature's own space; the GM puts the imp there (l.418) and it strikes
  // at 0 m: Combat roll 15 >= AC 0, Evasion 1 + 8 = 9 <= AV 15, damage 2.
  EXPECT_NE(r.status().message().find("its own space"), std::string::npos) << r.status();
  auto mv = Gm("gm_move", "imp");
  Path(mv, {{7, 5}});
  ASSERT_TRUE(t.Submit(mv).ok());
  const int64_t before = Aura(t, "kara");
  auto strike = Cmd("imp", "melee", {"kara"});
  auto hit = t.Submit(Now(strike), {15, 1, 2});
  ASSERT_TRUE(hit.ok()) << hit.status();
  EXPECT_EQ(NumOf(*hit, "damage"), 2);
  EXPECT_EQ(Aura(t, "kara"), before - 2);
}

// 002 l.156: "something that cannot defend (such as an inanimate object
// ...)": a door (tag `object`) makes no Defense roll against the single
// strike (before, it rolled Evasion 8 + d10 and could parry), and the
// strike may count as a Swift Attack (l.485 "unable to obstruct or avoid").
// Combat roll 10 >= AC 10: armor missed; damage 6 + MASDB 1 = 7.
TEST(Melee, AnObjectCannotDefendAgainstASingleStrike) {
  Table t(EnergyRounds(), Duel({"object"}));
  auto c = Attack();
  With(c, "single_strike", 1);
  auto ev = t.Submit(c, {10, 6});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "no_defense_roll"), 1);
  EXPECT_EQ(NumOf(*ev, "defense_total"), -999);  // none rolled
  EXPECT_EQ(Aura(t, "orc"), 26 - 7);  // Aura 20 + (3+2) x 4/3 = 26 (l.298)
  EXPECT_EQ(t.state().Find("kara")->Resource("energy"), 4);
  auto sw = Cmd("kara", "melee", {"orc"});
  With(sw, "swift", 1);
  auto swift = t.Submit(sw, {10, 6});
  ASSERT_TRUE(swift.ok()) << swift.status();
  EXPECT_EQ(t.state().Find("kara")->Resource("energy"), 3);
  ExpectRulesKnown(t.log());
}

TEST(Melee, ResolveAfterAWindow) {
  Table t(EnergyRounds(), Duel());
  auto ev = t.Submit(Cmd("kara", "melee", {"orc"}));
  ASSERT_TRUE(ev.ok());
  EXPECT_NE(ActingOf(t.state(), "kara"), nullptr);
  EXPECT_EQ(t.Submit(Cmd("orc", "resolve")).status().code(), absl::StatusCode::kFailedPrecondition);
  auto r = t.Submit(Cmd("kara", "resolve"), {15, 4, 6});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(ActingOf(t.state(), "kara"), nullptr);
  EXPECT_EQ(Aura(t, "orc"), 19);
  ExpectRulesKnown(t.log());
}

// 002 l.180 "Your Melee Ability Score Attack Bonus (MASAB) is added to the
// AV of your melee attacks", l.184 "Your Melee Ability Score Damage Bonus
// (MASDB) is added to the damage", l.182/l.186 "(Strength Modifier +
// Dexterity Modifier) / 3", and l.188 "Some Themes, Feats, or other effects
// may add another Ability Modifier into the MASAB or MASDB calculation, in
// which case the Ability Modifier is added inside the parentheses" (roster
// `masab_extra_mod`). kara Str 2, Dex 2, sword +1; the orc's Evasion 8,
// AC 10. Dice: Combat roll 15 (>= AC 10, armor bypassed, l.178), Evasion
// 1d10 9 -> 17, damage 1d8 5.
//   extra 1: (2 + 2 + 1) / 3 = 5/3 -> 1 (l.384: down), AV 15 + 1 + 1 = 17
//            (added outside the parentheses it would be 1 + 1 = 2: AV 18);
//            17 >= 17 hits (l.166); damage 5 + MASDB 1 = 6: Aura 26 -> 20.
//   extra 2: (2 + 2 + 2) / 3 = 2, AV 18; damage 5 + 2 = 7: Aura 26 -> 19.
TEST(Melee, AnExtraAbilityModifierGoesInsideTheParentheses) {
  for (const auto& [extra, av, aura] : std::vector<std::tuple<int, int, int>>{
           {1, 17, 20}, {2, 18, 19}}) {
    std::vector<fb::CombatantSpecT> cs;
    cs.push_back(Who("kara", "party", 5, 5,
                     {{"str", 2}, {"dex", 2}, {"con_score", 12}, {"masab_extra_mod", extra}},
                     {W("sword", "1d8", "melee", "medium", {{"av_bonus", 1}})}));
    cs.push_back(Who("orc", "orcs", 6, 5,
                     {{"str", 3}, {"con", 2}, {"con_score", 14}, {"ac", 10}, {"ar", 3}},
                     {W("axe", "1d10", "melee", "heavy")}));
    Table t(EnergyRounds(), Roster(std::move(cs)));
    auto ev = t.Submit(Attack(), {15, 9, 5});
    ASSERT_TRUE(ev.ok()) << ev.status();
    EXPECT_EQ(NumOf(*ev, "masab"), av - 16) << extra;
    EXPECT_EQ(NumOf(*ev, "av"), av) << extra;
    EXPECT_EQ(NumOf(*ev, "defense_total"), 17) << extra;
    EXPECT_EQ(Aura(t, "orc"), aura) << extra;
  }
}

// 002 l.525 "If you meet or exceed this value with your MPL you incur no
// penalties while using the item and are considered Proficient with the
// item", at its edge, for the attacker and the defender (l.527 "-1
// Evasion and -1 AV with the weapon"). The sword's MPR 2, the orc's axe's
// MPR 1. Dice: Combat roll 15, Evasion die 4, damage 6.
//   kara MPL 2 = MPR 2: AV 15 + 1 + 1 = 17, damage 6 + 1 = 7 in full;
//   kara MPL 1 < 2: AV 16, damage 7 / 2 = 3 (l.384).
//   orc MPL 1 = MPR 1: Evasion 8, 4 + 8 = 12; orc MPL 0: Evasion 7, 11.
TEST(Melee, MeetingTheRequirementIsProficient) {
  for (const auto& [mpl, orc_mpl, av, evasion, dealt] :
       std::vector<std::tuple<int, int, int, int, int>>{
           {2, 1, 17, 8, 7}, {1, 0, 16, 7, 3}}) {
    std::vector<fb::CombatantSpecT> cs;
    cs.push_back(Who("kara", "party", 5, 5,
                     {{"str", 2}, {"dex", 2}, {"con_score", 12}, {"mpl", mpl}},
                     {W("sword", "1d8", "melee", "medium", {{"av_bonus", 1}, {"mpr", 2}})}));
    cs.push_back(Who("orc", "orcs", 6, 5,
                     {{"str", 3}, {"con", 2}, {"con_score", 14}, {"ac", 10}, {"ar", 3},
                      {"mpl", orc_mpl}},
                     {W("axe", "1d10", "melee", "heavy", {{"mpr", 1}})}));
    Table t(EnergyRounds(), Roster(std::move(cs)));
    auto ev = t.Submit(Attack(), {15, 4, 6});
    ASSERT_TRUE(ev.ok()) << ev.status();
    EXPECT_EQ(NumOf(*ev, "av"), av) << mpl;
    EXPECT_EQ(NumOf(*ev, "def.evasion"), evasion) << orc_mpl;
    EXPECT_EQ(NumOf(*ev, "defense_total"), 4 + evasion) << orc_mpl;
    EXPECT_EQ(NumOf(*ev, "damage"), dealt) << mpl;
    EXPECT_EQ(Aura(t, "orc"), 26 - dealt) << mpl;
  }
}

// 002 l.537-543: "Unarmed attacks can be punches, slaps, kicks ...", "You
// may make Unarmed attacks with hands that are wielding weapons", "melee
// attacks with Reach0 but they require only 2 Energy", "You may willingly
// deal Non-Lethal damage with Unarmed attacks" (l.511 "Unarmed attacks may
// freely deal Non-Lethal damage": no Chance roll). kara, sword in hand,
// punches: AV 15 + MASAB 1 = 16 (l.545: no sword bonus); Combat roll 15,
// Evasion 4 + 8 = 12: a hit for MASAB 1 (l.547), non-lethal, with no
// Chance die (the two dice given are all it rolls). Energy 5 - 2 = 3. The
// gob 4 m away is beyond Reach0 (1 m): refused.
TEST(Melee, AnUnarmedAttackWithASwordInHandIsFreelyNonLethal) {
  Table t(EnergyRounds(), Duel());
  ASSERT_EQ(t.state().Find("kara")->Resource("wield.sword"), 1);
  auto c = Cmd("kara", "unarmed", {"orc"});
  With(c, "nonlethal", 1);
  auto ev = t.Submit(Now(c), {15, 4});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "av"), 16);
  EXPECT_EQ(NumOf(*ev, "weapon_av_bonus"), 0);
  EXPECT_EQ(NumOf(*ev, "nonlethal_chance_d20", 0), 0);  // no Chance roll
  EXPECT_NE(LastOutcome(*ev).find("1 non-lethal damage"), std::string::npos) << LastOutcome(*ev);
  EXPECT_EQ(Aura(t, "orc"), 25);
  EXPECT_EQ(t.state().Find("kara")->Resource("energy"), 3);
  auto far = Cmd("kara", "unarmed", {"gob"});
  EXPECT_EQ(t.Submit(Now(far), {15, 4}).status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(Melee, CancelSpendsOneEnergy) {
  Table t(EnergyRounds(), Duel());
  ASSERT_TRUE(t.Submit(Cmd("kara", "melee", {"orc"})).ok());
  auto r = t.Submit(Cmd("kara", "cancel"));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(t.state().Find("kara")->Resource("energy"), 4);  // l.138
  EXPECT_TRUE(t.state().windows.empty());
}

}  // namespace
}  // namespace combat::kernel::energy::testutil
