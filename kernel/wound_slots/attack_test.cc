// Attacks, Defenses, modifiers, flanking, wounds and slots (l.3-36,
// l.67-106, l.183-194). With the test roster, aria's damage against the
// orc equals her natural d20: d20 + 7 + 2 + 3 - 10 - 2 (l.14).
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "kernel/testing/events.h"
#include "kernel/wound_slots/test_util.h"

namespace combat::kernel::wound_slots {
namespace {

using namespace testutil;  // NOLINT

fb::CommandT Attack(const std::string& verb, const std::string& target = "orc") {
  return Cmd("aria", verb, {target});
}

// The GM has aria climbing a wall of TN 10 (Climbing, level 10; l.278).
absl::Status PutAriaOnTheWall(Table& t) {
  fb::CommandT climb = kernel::testing::GmCmd("gm_condition", "aria", "on the wall");
  WithText(climb, "name", "Climbing");
  WithText(climb, "op", "add");
  With(climb, "level", 10);
  return t.Submit(climb).status();
}

TEST(Defense, SevenFormulas) {
  Table t(WoundSlots(), Roster({Aria(), Orc(), Who("slow", "orcs", 9, 9, {{"spd", -4}, {"rsn", -3}, {"size", 1}}, "club", "2", "club")}), {10, 12, 3});
  ASSERT_TRUE(t.status().ok()) << t.status();
  const Combatant& a = *t.state().Find("aria");
  EXPECT_EQ(Defense(a, Def::kMelee, nullptr), 13);      // l.100: 10 - 0 + 1 + 1 + block 1
  EXPECT_EQ(Defense(a, Def::kRanged, nullptr), 12);     // l.101: no defensive block
  EXPECT_EQ(Defense(a, Def::kImmobile, nullptr), 5);    // l.102
  EXPECT_EQ(Defense(a, Def::kPower, nullptr), 14);      // l.103: 10 + 2 + 0 + 2
  EXPECT_EQ(Defense(a, Def::kAgility, nullptr), 14);    // l.104: 10 + 3 - 0 + 1
  EXPECT_EQ(Defense(a, Def::kFortitude, nullptr), 11);  // l.105: 10 + 1
  EXPECT_EQ(Defense(a, Def::kWillpower, nullptr), 10);  // l.106
  const Combatant& s = *t.state().Find("slow");
  EXPECT_EQ(Defense(s, Def::kMelee, nullptr), 4);       // l.100: -7 -> -5: 10 - 1 - 5
  EXPECT_EQ(Toughness(*t.state().Find("orc"), false, nullptr), 2);  // l.16
}

TEST(Defense, DistractedLowersEveryDefense) {
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  Combatant o = *t.state().Find("orc");
  o.conditions[99] = Condition{99, "Distracted"};
  // l.244: "-2 penalty to attack and defense": melee 10 - 2, Power 13 - 2.
  EXPECT_EQ(Defense(o, Def::kMelee, nullptr), 8);
  EXPECT_EQ(Defense(o, Def::kPower, nullptr), 11);
}

TEST(Defense, ImmobileReplaces) {
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  Combatant a = *t.state().Find("aria");
  a.conditions[99] = Condition{99, "Pinned"};
  EXPECT_EQ(Defense(a, Def::kMelee, nullptr), 5);    // l.99
  EXPECT_EQ(Defense(a, Def::kAgility, nullptr), 5);
  EXPECT_EQ(Defense(a, Def::kPower, nullptr), 14);   // skill defenses stay
}

TEST(Modifiers, CoverAndPostureDoNotStack) {
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  const Combatant& a = *t.state().Find("aria");
  Combatant o = *t.state().Find("orc");
  o.conditions[99] = Condition{99, "Prone"};
  EXPECT_EQ(AttackModifiers(t.state(), a, o, true, 2, nullptr), -3);  // ranged: -3 and -2: only -3 (l.93)
  EXPECT_EQ(AttackModifiers(t.state(), a, o, false, 2, nullptr), 1);  // melee: +3 bonus and -2 stack
  o.conditions.clear();
  o.conditions[98] = Condition{98, "Crouching"};
  EXPECT_EQ(AttackModifiers(t.state(), a, o, true, 3, nullptr), -3);  // -2 (l.87) and 3/4 cover -3 (l.91): only -3
  EXPECT_EQ(AttackModifiers(t.state(), a, o, false, 3, nullptr), -1);  // melee: +2 (l.87) and -3 (l.91) stack
  EXPECT_EQ(AttackModifiers(t.state(), a, o, true, 1, nullptr), -2);  // -2 and -1: only -2
  o.conditions.clear();
  EXPECT_EQ(AttackModifiers(t.state(), a, o, true, 4, nullptr), -5);  // 9/10 cover (l.92)
}

// 001 l.84 "Target is/has... | Melee | Ranged |", its row l.89 "1/4 cover
// | 0 | -1 |": a quarter cover costs a melee attack nothing and a ranged one
// 1. l.93: prone (l.86: +3 melee, -3 ranged) with it is +3 melee (its 0 is
// no penalty; "Penalties and bonuses do stack") and -3 ranged ("only the
// higher penalty applies": -3, not -4).
TEST(Modifiers, QuarterCoverRow) {
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  const Combatant& a = *t.state().Find("aria");
  Combatant o = *t.state().Find("orc");
  EXPECT_EQ(AttackModifiers(t.state(), a, o, false, 1, nullptr), 0);
  EXPECT_EQ(AttackModifiers(t.state(), a, o, true, 1, nullptr), -1);
  o.conditions[99] = Condition{99, "Prone"};
  EXPECT_EQ(AttackModifiers(t.state(), a, o, false, 1, nullptr), 3);
  EXPECT_EQ(AttackModifiers(t.state(), a, o, true, 1, nullptr), -3);
}

TEST(Attack, HitDamageAndWoundLevel) {
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  // d20 3: 10 >= 10 hits; 10 + 2 + 3 - 10 - 2 = 3: moderate (threshold 2, l.9).
  ASSERT_TRUE(t.Submit(Attack("standard_attack"), {3}).ok());
  EXPECT_EQ(Wounds(t.state(), "orc", kModerate), 1);
  EXPECT_EQ(Ap(t.state(), "aria"), 3);  // reading: Standard Attack 4 AP
  // d20 2: 9 < 10: a miss.
  ASSERT_TRUE(t.Submit(Cmd("aria", "quick_attack", {"orc"}), {2}).ok());
  EXPECT_EQ(Wounds(t.state(), "orc", kModerate), 1);
  EXPECT_EQ(Ap(t.state(), "aria"), 0);
  ASSERT_TRUE(t.Submit(Attack("standard_attack")).ok());
  // 4 > 0 AP: declared and paid over its turns (l.111).
  ASSERT_EQ(t.state().pending.size(), 1u);
  EXPECT_EQ(t.state().pending.begin()->second.cost_due, 4);
}

TEST(Attack, SlotsOverflowToTheNextLevel) {
  Table t(WoundSlots(), Roster({Aria(5, 5, {{"ap/standard_attack", 1}}), Orc()}), {10, 12});
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(t.Submit(Attack("standard_attack"), {3}).ok());
  // l.31: 2 moderate slots (standard NPC, l.36): the third moderate is severe.
  EXPECT_EQ(Wounds(t.state(), "orc", kModerate), 2);
  EXPECT_EQ(Wounds(t.state(), "orc", kSevere), 1);
  EXPECT_EQ(t.state().Find("orc")->FindCondition("Wounded")->level, kSevere);
}

// 001 l.14 "Damage received = Attack Roll + Damage Roll - Defense -
// Toughness", l.16 Toughness "Vitality + Size plus any modifiers from
// armor", l.13 "the highest level whose threshold the damage exceeds or
// equals", l.31 "If all the slots of that level are already full,
// increase the wound's severity until there is an empty slot", l.33 light
// slots "5 + your Persona", l.20 Vitality -5: 1 | 1 | 0. pc: Vitality -5,
// Persona -5 (0 light slots), armor 10: Toughness -5 + 0 + 10 = 5; melee
// Defense 10 (l.100). aria: attack d20 + 7, damage roll 2 + 3: damage
// d20 + 7 + 5 - 10 - 5 = d20 - 3. pc2: Vitality 0, armor 6: Toughness 6,
// damage d20 - 4.
TEST(Attack, ThresholdsAgainstArmorAndSlotsFilledUpToFatal) {
  Table t(WoundSlots(), Roster({Aria(5, 5, {{"ap/standard_attack", 1}}),
                                Who("pc", "x", 6, 5, {{"vit", -5}, {"prs", -5}, {"armor", 10}}, "club", "1", "club"),
                                Who("pc2", "x", 4, 5, {{"armor", 6}}, "club", "1", "club")}),
          {10, 1, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  ASSERT_TRUE(t.state().IsTurnOf("aria"));
  // pc2: d20 3: 10 hits Defense 10 (l.69), damage 3 - 4 = -1: below the
  // Light threshold 0, no wound; d20 4: damage 0, exactly Light.
  ASSERT_TRUE(t.Submit(Attack("standard_attack", "pc2"), {3}).ok());
  EXPECT_EQ(Wounds(t.state(), "pc2", kLight), 0);
  ASSERT_TRUE(t.Submit(Attack("standard_attack", "pc2"), {4}).ok());
  EXPECT_EQ(Wounds(t.state(), "pc2", kLight), 1);
  // pc: d20 3: damage 0, light; no light slot: the moderate one.
  ASSERT_TRUE(t.Submit(Attack("standard_attack", "pc"), {3}).ok());
  EXPECT_EQ(Wounds(t.state(), "pc", kLight), 0);
  EXPECT_EQ(Wounds(t.state(), "pc", kModerate), 1);
  // d20 3 again: light and moderate full: the severe slot.
  ASSERT_TRUE(t.Submit(Attack("standard_attack", "pc"), {3}).ok());
  EXPECT_EQ(Wounds(t.state(), "pc", kModerate), 1);
  EXPECT_EQ(Wounds(t.state(), "pc", kSevere), 1);
  // d20 8: damage 5, severe; severe full, no critical slot: fatal.
  ASSERT_TRUE(t.Submit(Attack("standard_attack", "pc"), {8}).ok());
  EXPECT_EQ(Wounds(t.state(), "pc", kSevere), 1);
  EXPECT_EQ(Wounds(t.state(), "pc", kCritical), 0);
  EXPECT_EQ(Wounds(t.state(), "pc", kFatal), 1);
  EXPECT_EQ(t.state().Find("pc")->FindCondition("Wounded")->level, kFatal);  // l.32
}

TEST(Attack, QuickLowersAndStrongAddsD6) {
  Table t(WoundSlots(), Roster({Aria(5, 5, {{"ap/strong_attack", 1}, {"ap/quick_attack", 1}}), Orc()}), {10, 12});
  // Quick: d20 5: damage 5 severe, one step lower: moderate (l.187).
  ASSERT_TRUE(t.Submit(Attack("quick_attack"), {5}).ok());
  EXPECT_EQ(Wounds(t.state(), "orc", kModerate), 1);
  // Strong: d20 3 + d6 4: damage 7: critical (l.194).
  ASSERT_TRUE(t.Submit(Attack("strong_attack"), {3, 4}).ok());
  EXPECT_EQ(Wounds(t.state(), "orc", kCritical), 1);
}

TEST(Attack, NonlethalCapsTheWoundAndKnocksOut) {
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  fb::CommandT c = Cmd("aria", "nonlethal_attack", {"orc"});
  With(c, "level", kLight);
  WithText(c, "knockout", "helpless");
  // d20 7 - 2 + 7 = 12 >= 10: damage 12 + 5 - 12 = 5: severe, chosen light (l.185).
  ASSERT_TRUE(t.Submit(c, {7}).ok());
  EXPECT_EQ(Wounds(t.state(), "orc", kLight), 1);
  EXPECT_EQ(Wounds(t.state(), "orc", kSevere), 0);
  const Condition* h = t.state().Find("orc")->FindCondition("Helpless");
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h->expiry.round, 2);  // 2 rounds from round 1 (l.127)
}

TEST(Attack, ArmorPiercingBypassesArmorButNotOnANonlethalAttack) {
  // 001 l.16: "Certain attacks bypass armor"; l.185 (Nonlethal): "Ignore
  // the armor piercing ... properties of your weapon". aria's sword is
  // armor piercing; the orc wears armor 2: Toughness 2 + 2 = 4, 2 bypassed.
  auto piercing = [] {
    auto aria = Aria();
    AddNumber(*aria.weapons[0], "armor_piercing", 1);
    return aria;
  };
  {  // Standard: d20 3 + 7 = 10 hits; 10 + 2 + 3 - 10 - 2 = 3: moderate
    // (with the armor it would be 1: light).
    Table t(WoundSlots(), Roster({piercing(), Orc("orc", 6, 5, {{"armor", 2}})}), {10, 12});
    ASSERT_TRUE(t.Submit(Attack("standard_attack"), {3}).ok());
    EXPECT_EQ(Wounds(t.state(), "orc", kModerate), 1);
    EXPECT_EQ(Wounds(t.state(), "orc", kLight), 0);
  }
  {  // Nonlethal: d20 5 + 7 - 2 = 10 hits; 10 + 5 - 10 - 4 = 1: light (the
    // armor counts; bypassed it would be 3: moderate).
    Table t(WoundSlots(), Roster({piercing(), Orc("orc", 6, 5, {{"armor", 2}})}), {10, 12});
    ASSERT_TRUE(t.Submit(Cmd("aria", "nonlethal_attack", {"orc"}), {5}).ok());
    EXPECT_EQ(Wounds(t.state(), "orc", kLight), 1);
    EXPECT_EQ(Wounds(t.state(), "orc", kModerate), 0);
  }
}

TEST(Attack, CriticalMovesInitiativeAndNpcDies) {
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  ASSERT_TRUE(t.Submit(Attack("standard_attack"), {20}).ok());
  EXPECT_EQ(Init(t.state(), "aria"), 20);  // l.81: +2
  EXPECT_EQ(Init(t.state(), "orc"), 15);   // l.81: -2
  EXPECT_TRUE(t.state().Find("orc")->Has("Dead"));  // damage 20: fatal; an NPC dies (l.35)
}

// 001 l.80 "Critical Successes and Failures", l.81 "your initiative is
// increased by 2 and your target's initiative is decreased by 2", l.120
// "Your initiative cannot drop below 0": the orc's initiative, d20 1 + Prc
// -5 + 5 = 1, drops to 0, not -1; aria's, 10 + 3 + 5 = 18, rises to 20. Its
// armor 20 keeps it alive: 20 + 7 = 27 hits; 27 + 2 + 3 - 10 - (2 + 20) = 0:
// light (l.8, threshold 0). A second critical (quick attack, l.187): aria
// 22, the orc stays 0.
TEST(Attack, ACriticalLowersTheTargetsInitiativeToZeroNotBelow) {
  Table t(WoundSlots(), Roster({Aria(), Orc("orc", 6, 5, {{"prc", -5}, {"armor", 20}})}), {10, 1});
  ASSERT_EQ(Init(t.state(), "orc"), 1);
  ASSERT_TRUE(t.Submit(Attack("standard_attack"), {20}).ok());
  EXPECT_EQ(Init(t.state(), "aria"), 20);
  EXPECT_EQ(Init(t.state(), "orc"), 0);
  EXPECT_EQ(Wounds(t.state(), "orc", kLight), 1);
  ASSERT_TRUE(t.Submit(Cmd("aria", "quick_attack", {"orc"}), {20}).ok());
  EXPECT_EQ(Init(t.state(), "aria"), 22);
  EXPECT_EQ(Init(t.state(), "orc"), 0);
}

TEST(Attack, CriticalFailureLowersInitiative) {
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  ASSERT_TRUE(t.Submit(Attack("standard_attack"), {1}).ok());
  EXPECT_EQ(Init(t.state(), "aria"), 16);  // l.82
  EXPECT_EQ(OrderIds(t.state()), (std::vector<std::string>{"orc", "aria"}));
  // aria's turn goes on; after it the orc acts, and aria gets no second turn (l.119).
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  EXPECT_EQ(t.state().active, "orc");
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
  EXPECT_EQ(t.state().round, 2);
  EXPECT_EQ(t.state().active, "orc");
}

TEST(Flanking, OppositeSidesGivePlusTwo) {
  Table t(WoundSlots(), Roster({Aria(5, 5), Orc("orc", 6, 5), Who("bob", "party", 7, 5, {{"prc", -5}}, "spear", "2", "spear")}), {10, 1, 12});
  ASSERT_TRUE(t.status().ok()) << t.status();
  EXPECT_TRUE(Flanked(t.state(), *t.state().Find("orc")));  // l.95: 180 degrees
  // d20 2: 9 + 2 = 11 >= 10: damage 11 + 5 - 12 = 4: severe.
  ASSERT_TRUE(t.Submit(Attack("standard_attack"), {2}).ok());
  EXPECT_EQ(Wounds(t.state(), "orc", kSevere), 1);
}

TEST(Flanking, IgnoredCreatureMakesRearAttacks) {
  Table t(WoundSlots(), Roster({Aria(5, 5), Orc("orc", 6, 5), Who("bob", "party", 7, 5, {{"prc", -5}}, "spear", "2", "spear")}), {10, 1, 12});
  ASSERT_TRUE(t.Submit(Cmd("orc", "ignore", {"aria"})).ok());
  EXPECT_FALSE(Flanked(t.state(), *t.state().Find("orc")));  // aria no longer counts
  // l.97: rear attack, double bonus: d20 2: 9 + 4 = 13: damage 6: critical.
  ASSERT_TRUE(t.Submit(Attack("standard_attack"), {2}).ok());
  EXPECT_EQ(Wounds(t.state(), "orc", kCritical), 1);
}

TEST(Flanking, AnIgnoringCreatureCannotFlankWhatItIgnores) {
  Table t(WoundSlots(), Roster({Aria(5, 5), Orc("orc", 6, 5), Who("bob", "party", 7, 5, {{"prc", -5}}, "spear", "2", "spear")}), {10, 1, 12});
  EXPECT_TRUE(Flanked(t.state(), *t.state().Find("orc")));
  // l.97: "you cannot contribute to flanking an ignored creature".
  ASSERT_TRUE(t.Submit(Cmd("aria", "ignore", {"orc"})).ok());
  EXPECT_FALSE(Flanked(t.state(), *t.state().Find("orc")));
  // Off its turn, bob (not flanked: one hostile) may not ignore the orc.
  EXPECT_EQ(t.Submit(Cmd("bob", "ignore", {"orc"})).status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(Flanking, AtLeast120Degrees) {
  // Seen from the orc at (6,5): aria at (5,5) is west. bob at (7,7) is
  // 116.6 degrees from her (not flanked), at (7,6) 135 (flanked) (l.95).
  auto bob_at = [](int x, int y) {
    return Who("bob", "party", x, y, {{"prc", -5}}, "spear", "2", "spear", {{"reach", 2}});
  };
  Table far(WoundSlots(), Roster({Aria(5, 5), Orc("orc", 6, 5), bob_at(7, 7)}), {10, 1, 12});
  EXPECT_FALSE(Flanked(far.state(), *far.state().Find("orc")));
  Table near(WoundSlots(), Roster({Aria(5, 5), Orc("orc", 6, 5), bob_at(7, 6)}), {10, 1, 12});
  EXPECT_TRUE(Flanked(near.state(), *near.state().Find("orc")));
}

// 001 l.95: flanked by creatures "capable of attacking the target with
// their currently equipped weapons"; l.230 counts a reach in the yards
// between the spaces ("an adjacent target using any weapon that has a reach
// of 0"). aria (5,5) and bob (9,5), swords of reach 1 (the default), stand
// 1 yd from the orc (7,5) on opposite sides, 180 degrees apart: both can
// attack it, it is flanked (was: 2 yd each, adjacent counted 1, beyond
// reach 1: not flanked).
TEST(Flanking, FlankersOneYardAwayWithReachOne) {
  Table t(WoundSlots(), Roster({Aria(5, 5), Orc("orc", 7, 5), Who("bob", "party", 9, 5, {{"prc", -5}}, "sword", "3", "sword")}),
          {10, 1, 12});
  EXPECT_TRUE(Flanked(t.state(), *t.state().Find("orc")));
}

// 001 l.95: flanked by creatures "capable of attacking the target with
// their currently equipped weapons and within the first range increment if
// using ranged weapons", the range counted as l.230 counts a reach, in the
// yards between the spaces (adjacent 0): bob's bow (range increment 3) at
// (11,5) is 3 yd from the orc (7,5), within its first increment; with aria
// (5,5; sword, reach 1, 1 yd away) on the other side, 180 degrees: flanked
// (was: 4 yd, adjacent counted 1, beyond the increment: not flanked). At
// (12,5), 4 yd, it is not.
TEST(Flanking, AnArcherWithinItsFirstRangeIncrementFlanks) {
  auto archer_at = [](int x) {
    fb::CombatantSpecT b = kernel::testing::Creature("bob", "party", x, 5, {{"prc", -5}});
    b.weapons.push_back(std::make_unique<fb::WeaponT>(kernel::testing::MakeWeapon("bow", "2", "ranged", "bow", 5, 3)));
    return b;
  };
  Table near(WoundSlots(), Roster({Aria(5, 5), Orc("orc", 7, 5), archer_at(11)}), {10, 1, 12});
  ASSERT_TRUE(near.status().ok()) << near.status();
  EXPECT_TRUE(Flanked(near.state(), *near.state().Find("orc")));
  Table far(WoundSlots(), Roster({Aria(5, 5), Orc("orc", 7, 5), archer_at(12)}), {10, 1, 12});
  EXPECT_FALSE(Flanked(far.state(), *far.state().Find("orc")));
}

TEST(Flanking, APinnedCreatureDoesNotFlank) {
  Table t(WoundSlots(), Roster({Aria(5, 5), Orc("orc", 6, 5), Who("bob", "party", 7, 5, {{"prc", -5}}, "spear", "2", "spear")}), {10, 1, 12});
  State s = t.state();
  EXPECT_TRUE(Flanked(s, *s.Find("orc")));
  // l.235 a pinned creature cannot act: not "capable of attacking" (l.95).
  s.combatants.at("bob").conditions[99] = Condition{99, "Pinned"};
  EXPECT_FALSE(Flanked(s, *s.Find("orc")));
}

TEST(Attack, PenetratingAddsDamageBeforeTheHit) {
  auto aria = Aria();
  auto pn = std::make_unique<fb::NumberT>();
  pn->key = "penetrating";
  pn->value = 1;
  aria.weapons[0]->numbers.push_back(std::move(pn));
  Table t(WoundSlots(), Roster({std::move(aria), Orc()}), {10, 12});
  // d20 1 is a critical failure but 1 + 7 + 5 = 13 >= 10 hits (l.79):
  // 13 - 10 - 2 = 1: light.
  ASSERT_TRUE(t.Submit(Attack("standard_attack"), {1}).ok());
  EXPECT_EQ(Wounds(t.state(), "orc", kLight), 1);
}

// 001 l.194 "On a hit, you deal an additional 1d6 damage"; l.79
// penetrating attacks "add their damage to the attack roll before
// determining a hit". Aria's penetrating sword (Str 2 + damage 3 = 5
// before the hit) strikes an orc of melee Defense 10 + (0 + 6) = 16
// (l.100) with a Strong Attack: d20 3 + 7 + 5 = 15 < 16: a miss, the d6
// never rolled (was: the d6 rolled first and added before the hit, a
// d6 of 1 or more making it a hit). Then d20 5: 17 >= 16 hits, and on the hit the d6, 3: damage
// 17 + 3 - 16 - 2 = 2: moderate (l.9, l.14).
TEST(Attack, AStrongAttacksD6ComesOnTheHitEvenWhenPenetrating) {
  auto aria = Aria(5, 5, {{"ap/strong_attack", 1}});
  AddNumber(*aria.weapons[0], "penetrating", 1);
  Table t(WoundSlots(), Roster({std::move(aria), Orc("orc", 6, 5, {{"rsn", 6}})}), {10, 12});
  auto miss = t.Submit(Attack("strong_attack"), {3});
  ASSERT_TRUE(miss.ok()) << miss.status();
  EXPECT_EQ(kernel::testing::NumOf(*miss, "penetrating"), 5);
  EXPECT_EQ(kernel::testing::NumOf(*miss, "attack_roll"), 15);
  EXPECT_EQ(Wounds(t.state(), "orc", kLight) + Wounds(t.state(), "orc", kModerate), 0);
  auto hit = t.Submit(Attack("strong_attack"), {5, 3});
  ASSERT_TRUE(hit.ok()) << hit.status();
  EXPECT_EQ(kernel::testing::NumOf(*hit, "attack_roll"), 17);
  EXPECT_EQ(kernel::testing::NumOf(*hit, "strong_d6"), 3);
  EXPECT_EQ(kernel::testing::NumOf(*hit, "damage"), 2);
  EXPECT_EQ(Wounds(t.state(), "orc", kModerate), 1);
}

TEST(Attack, AFallEndsTheClimb) {
  // 001 l.278: "Any time you make an attack roll, you must make a Str
  // [Athletics/Climbing] ... check to not fall ... If you fail the check,
  // then your attack automatically misses." aria climbs (TN 10): d20 5 +
  // Str 2 + Athletics 2 = 9 < 10: she falls and misses; fallen, she is no
  // longer climbing, so her next attack rolls no climbing check: d20 3 + 7
  // = 10 hits, damage 3, moderate, one step less (Quick Attack): light.
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  ASSERT_TRUE(PutAriaOnTheWall(t).ok());
  auto first = t.Submit(Attack("quick_attack"), {5});
  ASSERT_TRUE(first.ok()) << first.status();
  // The check's parts are in its numbers: 5 + 2 + 2 + 0 = 9.
  EXPECT_EQ(kernel::testing::NumOf(*first, "str"), 2);
  EXPECT_EQ(kernel::testing::NumOf(*first, "athletics"), 2);
  EXPECT_EQ(kernel::testing::NumOf(*first, "athletics/climbing"), 0);
  EXPECT_EQ(kernel::testing::NumOf(*first, "result"), 9);
  EXPECT_TRUE(t.state().Find("aria")->Has("Fallen"));
  EXPECT_FALSE(t.state().Find("aria")->Has("Climbing"));
  EXPECT_EQ(Wounds(t.state(), "orc", kLight), 0);
  auto second = t.Submit(Attack("quick_attack"), {3});
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(Wounds(t.state(), "orc", kLight), 1);
}

TEST(Attack, AWoundWhileSwimmingChecksAtMinusFivePerLevelBeyondLight) {
  // 001 l.278: "whenever you take a wound, you must make another check at a
  // -5 penalty for each wound level beyond light". aria swims (TN 5); the
  // orc hits her: d20 11 + 2 = 13 >= 13, damage 13 + 3 + 4 - 13 - 1 = 6:
  // critical, -15. Her check d20 16 + Str 2 + Athletics 2 - 15 = 5 >= 5:
  // she stays up, and the check's parts are its numbers.
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  fb::CommandT swim = Cmd("aria", "gm_condition");
  swim.author = "gm";
  swim.role = fb::Role::GM;
  swim.text = "in the river";
  WithText(swim, "name", "Swimming");
  WithText(swim, "op", "add");
  With(swim, "level", 5);
  ASSERT_TRUE(t.Submit(swim).ok());
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.Submit(Cmd("orc", "standard_attack", {"aria"})).ok());
  ASSERT_EQ(t.state().windows.size(), 1u);  // aria (18) may act first: she passes
  fb::CommandT pass = Cmd("aria", "pass");
  pass.window = t.state().windows.begin()->first;
  auto hit = t.Submit(pass, {11, 16});
  ASSERT_TRUE(hit.ok()) << hit.status();
  EXPECT_EQ(Wounds(t.state(), "aria", kCritical), 1);
  EXPECT_EQ(kernel::testing::NumOf(*hit, "penalty"), -15);
  EXPECT_EQ(kernel::testing::NumOf(*hit, "str"), 2);
  EXPECT_EQ(kernel::testing::NumOf(*hit, "athletics"), 2);
  EXPECT_EQ(kernel::testing::NumOf(*hit, "result"), 5);
  EXPECT_FALSE(t.state().Find("aria")->Has("Sunk"));
}

TEST(Attack, AnAquaticCreatureFightsUnderwaterUnhindered) {
  // 001 l.275: "Fighting underwater is difficult for any non-aquatic
  // creature": aria, underwater but tagged aquatic, pays 4 AP (7 - 4 = 3),
  // no -5: d20 3 + 7 = 10 >= 10; damage 10 + 2 + 3 (not halved) - 10 - 2 =
  // 3, moderate; her melee Defense stays 13 (not the immobile 5).
  auto fish = Aria();
  fish.tags = {"underwater", "aquatic"};
  Table t(WoundSlots(), Roster({std::move(fish), Orc()}), {10, 12});
  auto hit = t.Submit(Attack("standard_attack"), {3});
  ASSERT_TRUE(hit.ok()) << hit.status();
  EXPECT_EQ(Ap(t.state(), "aria"), 3);
  EXPECT_EQ(kernel::testing::NumOf(*hit, "underwater"), -999);  // no such modifier
  EXPECT_EQ(kernel::testing::NumOf(*hit, "damage"), 3);
  EXPECT_EQ(Wounds(t.state(), "orc", kModerate), 1);
  EXPECT_EQ(Defense(*t.state().Find("aria"), Def::kMelee, nullptr), 13);
}

TEST(Attack, FireDamageIsHalvedUnderwater) {
  // 001 l.276 "All fire damage is halved underwater": aria's sword deals
  // fire (damage_type fire, damage 5); the orc is in the water but aquatic
  // (its melee Defense stays 10). d20 3 + 7 = 10 >= 10 hits; damage 10 + 2
  // + 5/2 (2) - 10 - 2 = 2: moderate (unhalved 5 would be severe).
  auto fire = Aria();
  fire.weapons[0]->damage = "5";
  fire.weapons[0]->damage_type = "fire";
  Table t(WoundSlots(), Roster({std::move(fire), Orc("orc", 6, 5, {}, {"standard", "underwater", "aquatic"})}), {10, 12});
  auto hit = t.Submit(Attack("standard_attack"), {3});
  ASSERT_TRUE(hit.ok()) << hit.status();
  EXPECT_EQ(kernel::testing::NumOf(*hit, "fire_halved"), -3);
  EXPECT_EQ(kernel::testing::NumOf(*hit, "damage"), 2);
  EXPECT_EQ(Wounds(t.state(), "orc", kModerate), 1);
  EXPECT_EQ(Wounds(t.state(), "orc", kSevere), 0);
  // Underwater herself (not aquatic), damage 7: l.275 halves the weapon's
  // damage (3) and l.276 the fire again (1); -5 to hit, 4 + 2 AP. d20 8 + 7
  // - 5 = 10 >= 10; damage 10 + 2 + 1 - 10 - 2 = 1: light.
  auto wet = Aria();
  wet.tags = {"underwater"};
  wet.weapons[0]->damage = "7";
  wet.weapons[0]->damage_type = "fire";
  Table u(WoundSlots(), Roster({std::move(wet), Orc("orc", 6, 5, {}, {"standard", "underwater", "aquatic"})}), {10, 12});
  auto both = u.Submit(Attack("standard_attack"), {8});
  ASSERT_TRUE(both.ok()) << both.status();
  EXPECT_EQ(kernel::testing::NumOf(*both, "underwater_halved"), -4);
  EXPECT_EQ(kernel::testing::NumOf(*both, "fire_halved"), -2);
  EXPECT_EQ(kernel::testing::NumOf(*both, "damage"), 1);
  EXPECT_EQ(Wounds(u.state(), "orc", kLight), 1);
}

TEST(Attack, StandingOnAnUnderwaterSquareIsUnderwater) {
  // 001 l.174 "Walking underwater | 10", l.275 "While underwater, you use
  // your immobile defense ... When you make a melee attack, you must pay an
  // extra 2 AP and have a -5 penalty to your attack roll, and all weapon
  // damage is halved": aria starts on an underwater square: her melee
  // Defense is the immobile 5 - 0 = 5; her Standard Attack costs 4 + 2 (7 -
  // 6 = 1 AP); d20 12 + 7 - 5 = 14 >= 10; damage 14 + 2 + 3/2 (1) - 10 - 2 =
  // 5: severe. She buys 1 AP of movement (2 yd, l.143) and steps onto dry
  // ground: her melee Defense is 13 again.
  fb::RosterT r = Roster({Aria(5, 5), Orc()});
  auto cell = std::make_unique<fb::CellT>();
  cell->at = std::make_unique<fb::Pos>(5, 5);
  cell->terrain = "underwater";
  r.map->cells.push_back(std::move(cell));
  Table t(WoundSlots(), r, {10, 12});
  ASSERT_TRUE(t.status().ok()) << t.status();
  EXPECT_EQ(Defense(*t.state().Find("aria"), Def::kMelee, nullptr), 5);
  auto hit = t.Submit(Attack("standard_attack"), {12});
  ASSERT_TRUE(hit.ok()) << hit.status();
  EXPECT_EQ(Ap(t.state(), "aria"), 1);
  EXPECT_EQ(kernel::testing::NumOf(*hit, "underwater"), -5);
  EXPECT_EQ(kernel::testing::NumOf(*hit, "damage"), 5);
  EXPECT_EQ(Wounds(t.state(), "orc", kSevere), 1);
  ASSERT_TRUE(t.Submit(BuyMove("aria", 1)).ok());
  fb::CommandT step = Cmd("aria", "move");
  step.path = {fb::Pos(5, 4)};
  ASSERT_TRUE(t.Submit(step).ok());
  EXPECT_EQ(Defense(*t.state().Find("aria"), Def::kMelee, nullptr), 13);
}

// 001 l.174 "Walking underwater", l.275 "While underwater": the text says
// nothing of a creature larger than one square (GM ruling point, README):
// a size-2 ogre at (6,5) covers (6,5), (7,5), (6,6), (7,6); with its anchor
// square (6,5) alone underwater it is not Underwater (was: it was, the
// anchor square alone read), with all four it is.
TEST(Attack, ALargeCreatureIsUnderwaterWhenAllItsSquaresAre) {
  for (const int wet : {1, 4}) {
    fb::CombatantSpecT ogre = Orc("ogre", 6, 5);
    ogre.size = 2;
    fb::RosterT r = Roster({Aria(4, 5), std::move(ogre)});
    for (const fb::Pos& p : {fb::Pos(6, 5), fb::Pos(7, 5), fb::Pos(6, 6), fb::Pos(7, 6)}) {
      if (static_cast<int>(r.map->cells.size()) == wet) break;
      auto cell = std::make_unique<fb::CellT>();
      cell->at = std::make_unique<fb::Pos>(p);
      cell->terrain = "underwater";
      r.map->cells.push_back(std::move(cell));
    }
    Table t(WoundSlots(), r, {10, 12});
    ASSERT_TRUE(t.status().ok()) << t.status();
    EXPECT_EQ(t.state().Find("ogre")->Has("Underwater"), wet == 4) << wet << " squares underwater";
  }
}

TEST(Attack, SunkBelowTheSurfaceRollsNoSwimmingCheck) {
  // 001 l.278: the Swimming check is "to not ... sink underwater"; once sunk
  // (until she surfaces, AP 4) there is nothing left to keep: d20 5 + 4 = 9
  // < 10 sinks her and misses. 001 l.275: below the surface she is
  // underwater: her melee attack pays 2 AP more, has -5, and the weapon's
  // damage is halved (Strength in full). Quick Attack at 1 AP (roster
  // ap/quick_attack): 7 - 1 = 6, then 6 - (1 + 2) = 3. d20 12 + 7 - 5 = 14
  // >= 10 hits; damage 14 + 2 + 3/2 (1) - 10 - 2 = 5: severe, one step
  // less: moderate (l.187).
  Table t(WoundSlots(), Roster({Aria(5, 5, {{"ap/quick_attack", 1}}), Orc()}), {10, 12});
  fb::CommandT swim = Cmd("aria", "gm_condition");
  swim.author = "gm";
  swim.role = fb::Role::GM;
  swim.text = "in the river";
  WithText(swim, "name", "Swimming");
  WithText(swim, "op", "add");
  With(swim, "level", 10);
  ASSERT_TRUE(t.Submit(swim).ok());
  ASSERT_TRUE(t.Submit(Attack("quick_attack"), {5}).ok());
  EXPECT_TRUE(t.state().Find("aria")->Has("Sunk"));
  EXPECT_EQ(t.state().Find("aria")->Resource(res::kAp), 6);
  auto second = t.Submit(Attack("quick_attack"), {12});
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(kernel::testing::NumOf(*second, "underwater"), -5);
  EXPECT_EQ(kernel::testing::NumOf(*second, "weapon_damage"), 3);     // the roll
  EXPECT_EQ(kernel::testing::NumOf(*second, "underwater_halved"), -2);  // 3 / 2 = 1: 14 + 2 + 3 - 2 - 10 - 2 = 5
  EXPECT_EQ(kernel::testing::NumOf(*second, "damage"), 5);
  EXPECT_EQ(t.state().Find("aria")->Resource(res::kAp), 3);
  EXPECT_EQ(Wounds(t.state(), "orc", kModerate), 1);
  // Her immobile Defense (5 - Size 0) replaces melee and ranged (l.99).
  EXPECT_EQ(Defense(*t.state().Find("aria"), Def::kMelee, nullptr), 5);
}

TEST(Attack, AMeleeAttackWithARangedWeaponIsRefusedCitingItsOwnLine) {
  // Strong (l.194), Nonlethal (l.185) and Create an Opening (l.214) are
  // melee attacks: with a bow each is refused naming its own line, not
  // Quick Attack's (l.187).
  auto archer = Who("archer", "party", 5, 5, {{"spd", 10}}, "bow", "2", "bow", {}, {}, "ranged");
  Table t(WoundSlots(), Roster({std::move(archer), Orc()}), {12, 2});
  for (const auto& [verb, line] : std::vector<std::pair<std::string, std::string>>{
           {"strong_attack", "l.194"}, {"nonlethal_attack", "l.185"}, {"create_opening", "l.214"}, {"quick_attack", "l.187"}}) {
    auto r = t.Submit(Cmd("archer", verb, {"orc"}));
    EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition) << verb;
    EXPECT_NE(r.status().message().find(line), std::string::npos) << r.status();
  }
}

TEST(Attack, MinionTrackAndRefusals) {
  Table t(WoundSlots(), Roster({Aria(), Orc("orc", 6, 5, {}, {"minion"})}), {10, 12});
  EXPECT_EQ(t.state().Find("orc")->Resource(SlotsKey(kSevere)), 1);  // l.36
  auto far = t.Submit(Cmd("aria", "standard_attack", {"nobody"}));
  EXPECT_EQ(far.status().code(), absl::StatusCode::kNotFound);
  const size_t before = t.log().size();
  fb::CommandT bad = Attack("standard_attack");
  With(bad, "edge", 1);
  EXPECT_EQ(t.Submit(bad).status().code(), absl::StatusCode::kInvalidArgument);
  fb::CommandT cover = Attack("standard_attack");
  With(cover, "cover", 7);
  EXPECT_EQ(t.Submit(cover).status().code(), absl::StatusCode::kInvalidArgument);
  fb::CommandT typed = Attack("standard_attack");
  WithText(typed, "cover", "half");
  EXPECT_EQ(t.Submit(typed).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(t.log().size(), before);  // nothing written
}

TEST(Attack, ACombatCheckWhileClimbingNeedsTheHoldToo) {
  // 001 l.278: "Any time you make an attack roll, you must make a Str
  // [Athletics/Climbing] ... check to not fall ... If you fail the check,
  // then your attack automatically misses"; l.70: "Combat checks function
  // the same as attack rolls". aria climbs (TN 10) and trips the orc (a
  // Power check, l.246): d20 3 + Str 2 + Athletics 2 = 7 < 10: she falls,
  // the trip misses (no check of its own is rolled), the orc stays standing.
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  ASSERT_TRUE(PutAriaOnTheWall(t).ok());
  fb::CommandT trip = Cmd("aria", "hinder", {"orc"});
  WithText(trip, "hindrance", "trip");
  auto r = t.Submit(trip, {3});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(kernel::testing::NumOf(*r, "result"), 7);
  EXPECT_TRUE(t.state().Find("aria")->Has("Fallen"));
  EXPECT_FALSE(t.state().Find("aria")->Has("Climbing"));
  EXPECT_FALSE(t.state().Find("orc")->Has("Prone"));
  // Fallen, no longer climbing: her next trip rolls no climbing check.
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
  ASSERT_TRUE(t.Submit(trip, {10}).ok());
  EXPECT_TRUE(t.state().Find("orc")->Has("Prone"));
}

// 001 l.230 "Make a melee attack against an adjacent target using any
// weapon that has a reach of 0": a reach counts the yards between the two
// spaces, an adjacent target being 0 yd away; l.192 "a target within
// range": a weapon of reach R reaches a target at most R yd away. aria
// (5,5) attacks the orc at (6 + y, 5), y yd between the spaces, with her
// sword given reach R: R 0 reaches y 0, not 1; R 1 reaches y 1, not 2; R 2
// reaches y 2, not 3. d20 3 + 7 = 10 >= the orc's Defense 10: damage 10 + 2
// + 3 - 10 - 2 = 3, a moderate wound (l.13, l.14). (Was: adjacent counted
// 1 yd: a reach-0 weapon reached no adjacent target, reach 1 nothing 1 yd
// away, reach 2 nothing 2 yd away.)
TEST(Reach, AWeaponReachesTheYardsBetweenTheSpacesAdjacentBeingZero) {
  for (int reach = 0; reach <= 2; ++reach) {
    for (int yards = reach; yards <= reach + 1; ++yards) {
      SCOPED_TRACE(absl::StrCat("reach ", reach, ", ", yards, " yd between the spaces"));
      auto aria = Aria();
      AddNumber(*aria.weapons[0], "reach", reach);
      Table t(WoundSlots(), Roster({std::move(aria), Orc("orc", 6 + yards, 5)}), {10, 12});
      auto hit = t.Submit(Attack("standard_attack"), {3});
      if (yards <= reach) {
        ASSERT_TRUE(hit.ok()) << hit.status();
        EXPECT_EQ(Wounds(t.state(), "orc", kModerate), 1);
      } else {
        EXPECT_EQ(hit.status().code(), absl::StatusCode::kFailedPrecondition) << hit.status();
        EXPECT_NE(hit.status().message().find(absl::StrCat(yards, " yd away")), std::string::npos) << hit.status();
      }
    }
  }
}

}  // namespace
}  // namespace combat::kernel::wound_slots
