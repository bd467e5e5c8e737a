// Damage against the text's worked examples (l.64-66) and the type rules
// (l.79, l.92, l.58).
#include "kernel/ap_rp/internal.h"
#include "kernel/ap_rp/test_util.h"

namespace combat::kernel::aprp {
namespace {

using namespace testing;  // NOLINT

Combatant Target(std::vector<std::pair<std::string, int64_t>> stats, std::vector<std::string> tags = {}) {
  Combatant c;
  c.id = "t";
  for (auto& [k, v] : stats) c.stats[k] = v;
  c.tags = tags;
  return c;
}

// l.64: Armor 2, hit for 12: 10. l.67 "For more information on how much
// Armor you get from what kind of armor, see the chapter on armor in the
// Item Rules": the Armor value is the roster's `armor`, as given.
TEST(Damage, ArmorSubtracted) {
  EXPECT_EQ(ComputeDamage(Target({{"armor", 2}}), {{"physical", 12}}, {}).total, 10);
}

// l.64: negative Armor adds damage.
TEST(Damage, NegativeArmorAdds) {
  EXPECT_EQ(ComputeDamage(Target({{"armor", -2}}), {{"physical", 12}}, {}).total, 14);
  EXPECT_EQ(ComputeDamage(Target({{"armor", -2}}), {{"physical", 0}}, {}).total, 0);
}

// l.65: Constitution 10, Endurance 3 (Constitution DR 3), 12 Poison: 9.
TEST(Damage, PoisonUsesConstitutionDr) {
  EXPECT_EQ(ComputeDamage(Target({{"armor", 5}, {"con", 10}, {"endurance", 3}}), {{"poison", 12}}, {}).total, 9);
}

// l.65: Armor 4, Constitution DR 1, 5 Physical + 5 Poison: 9 total, the
// attacker choosing where the 1 comes off.
TEST(Damage, MixedTypesTakeTheLowestDefense) {
  Combatant t = Target({{"armor", 4}, {"con", 10}, {"endurance", 1}});
  EXPECT_EQ(ComputeDamage(t, {{"physical", 5}, {"poison", 5}}, {}).total, 9);
  DamageOpts o;
  o.armor_from = "physical";
  DamageCalc c = ComputeDamage(t, {{"physical", 5}, {"poison", 5}}, o);
  EXPECT_EQ(c.total, 9);
  // 004 l.65: "you would deal a total of 9 damage, either 5 Physical and 4
  // Poison damage or 4 Physical and 5 Poison damage": taken off the Physical
  // part, the value 1 is still the Constitution DR value, not the Armor (4).
  bool named = false;
  for (const Num& n : c.nums) {
    if (n.key != "defense") continue;
    named = true;
    EXPECT_EQ(n.value, 1);
    EXPECT_EQ(n.source, "con DR value of t");
    EXPECT_EQ(n.rule, "004.armor.dr");
  }
  EXPECT_TRUE(named);
  bool from_physical = false;
  for (const Num& n : c.nums) from_physical = from_physical || (n.key == "defense_from_physical" && n.value == 1);
  EXPECT_TRUE(from_physical);
}

// l.66: Armor Piercer (ignore up to 4) against Armor 2: as if Armor 0, not -2.
TEST(Damage, ArmorPiercerNeverBelowZero) {
  DamageOpts o;
  o.ignore_armor = 4;
  EXPECT_EQ(ComputeDamage(Target({{"armor", 2}}), {{"physical", 10}}, o).total, 10);
  // l.66: negative Armor still adds when ignoring Armor.
  EXPECT_EQ(ComputeDamage(Target({{"armor", -1}}), {{"physical", 10}}, o).total, 11);
}

// 004_1a3e461770fc9e7a.txt l.65 "Damage that deals multiple types of
// damage simultaneously, for which different defenses become relevant, takes
// the lowest defensive value into account" with l.64 "A negative Armor value
// leads to taking increased damage" and l.66 "Such effects still deal
// increased damage if the target's Armor or DR values are negative": Armor
// -2 and a Constitution DR value of -4 + 1 = -3 (Con 6, Endurance 1): 5
// Physical + 5 Poison takes the lowest, -3: 10 + 3 = 13, and the same when
// ignoring 2 Armor (a negative value is not raised).
TEST(Damage, MixedTypesWithNegativeDefencesTakeTheLowest) {
  const Combatant t = Target({{"armor", -2}, {"con", 6}, {"endurance", 1}});
  EXPECT_EQ(ComputeDamage(t, {{"physical", 5}, {"poison", 5}}, {}).total, 13);
  DamageOpts o;
  o.ignore_armor = 2;
  EXPECT_EQ(ComputeDamage(t, {{"physical", 5}, {"poison", 5}}, o).total, 13);
}

// l.96 "Psychic damage ignores the Armor of its targets and instead takes
// the Will DR value into account when dealing damage as if it were Armor"
// and l.66 "Effects that ignore Armor ... also ignore the DR values if you
// damage a target with Poison or Psychic damage": Will 14, Perseverance 2:
// a Will DR value of 4 + 2 = 6 (l.77); Armor 5 does not count: 12 Psychic
// -> 6; ignoring up to 10: 12. Psychic with Poison (Constitution DR value
// 0) takes the lowest, 0 (l.65): 12 + 3 = 15.
TEST(Damage, PsychicUsesTheWillDrValue) {
  const Combatant t = Target({{"armor", 5}, {"wil", 14}, {"perseverance", 2}});
  EXPECT_EQ(ComputeDamage(t, {{"psychic", 12}}, {}).total, 6);
  DamageOpts o;
  o.ignore_armor = 10;
  EXPECT_EQ(ComputeDamage(t, {{"psychic", 12}}, o).total, 12);
  EXPECT_EQ(ComputeDamage(t, {{"psychic", 12}, {"poison", 3}}, {}).total, 15);
}

// 004_1a3e461770fc9e7a.txt l.79 "There are 11 damage types" and l.81-97,
// which name them: Physical (l.81); Chemical, Cold, Heat, Poison, Shock
// (l.84-88); Curse, Holy, Spirit (l.91-93); Psychic, Reality (l.96-97).
// Each is a type a creature can resist ("Resistance reduces all incoming
// damage of that type by half", l.79): 7 -> 4 for every one (Poison and
// Psychic meet a DR value of 0 at Con / Wil 10, l.87, l.96; the others
// Armor 0); a resistance to another type leaves 7. Holy against a creature
// is non-lethal (l.92) but still damage.
TEST(Damage, EachOfTheElevenTypesIsResistedByHalf) {
  const std::vector<std::string> types = {"physical", "chemical", "cold",  "heat",    "poison", "shock",
                                          "curse",    "holy",     "spirit", "psychic", "reality"};
  ASSERT_EQ(types.size(), 11u);
  for (const std::string& type : types) {
    EXPECT_TRUE(IsDamageType(type)) << type;
    EXPECT_EQ(ComputeDamage(Target({}, {"resist:" + type}), {{type, 7}}, {}).total, 4) << type;
    const std::string other = type == "cold" ? "heat" : "cold";
    EXPECT_EQ(ComputeDamage(Target({}, {"resist:" + other}), {{type, 7}}, {}).total, 7) << type;
  }
  EXPECT_FALSE(IsDamageType("fire"));  // l.86: fire is Heat
  EXPECT_FALSE(IsDamageType("necrotic"));
}

// l.79: resistance takes off half, immunity nullifies, vulnerability adds
// half (each half rounded down, l.53).
TEST(Damage, ResistanceImmunityVulnerability) {
  EXPECT_EQ(ComputeDamage(Target({}, {"resist:cold"}), {{"cold", 7}}, {}).total, 4);
  EXPECT_EQ(ComputeDamage(Target({}, {"immune:cold"}), {{"cold", 7}}, {}).total, 0);
  EXPECT_EQ(ComputeDamage(Target({}, {"vulnerable:cold"}), {{"cold", 7}}, {}).total, 10);
  EXPECT_EQ(ComputeDamage(Target({}, {"vulnerable:heat"}), {{"cold", 7}}, {}).total, 7);
}

// 004_1a3e461770fc9e7a.txt l.79 "Resistance reduces all incoming damage of
// that type by half ... Vulnerability increases all damage of that type by
// half": a creature with both takes both, each by half of the incoming
// damage: 7 cold - 3 + 3 = 7 (the old code let resistance alone apply: 3);
// immunity still nullifies (l.79 "any damage of that type").
TEST(Damage, ResistanceAndVulnerabilityTogetherCancel) {
  EXPECT_EQ(ComputeDamage(Target({}, {"resist:cold", "vulnerable:cold"}), {{"cold", 7}}, {}).total, 7);
  EXPECT_EQ(ComputeDamage(Target({{"armor", 2}}, {"resist:cold", "vulnerable:cold"}), {{"cold", 7}}, {}).total, 5);
  EXPECT_EQ(ComputeDamage(Target({}, {"resist:cold", "vulnerable:cold", "immune:cold"}), {{"cold", 7}}, {}).total, 0);
  EXPECT_EQ(ComputeDamage(Target({}, {"resist:cold", "vulnerable:heat"}), {{"cold", 7}, {"heat", 7}}, {}).total, 14);  // 4 + 10
}

// 004_1a3e461770fc9e7a.txt l.79 "Resistance reduces all incoming damage of
// that type by half ... Vulnerability increases all damage of that type by
// half": the parts of one type in a hit (a weapon's 5 Physical and its
// dmg_physical 3) are one amount: resisted 8 / 2 = 4, vulnerable 8 + 4 =
// 12 (black-box: each part apart, 2 + 1 = 3 and 7 + 4 = 11); another type
// stays apart (5 Physical + 3 Cold resisting Physical: 5 - 2 + 3 = 6).
TEST(Damage, PartsOfOneTypeAreHalvedAsOneAmount) {
  EXPECT_EQ(ComputeDamage(Target({}, {"resist:physical"}), {{"physical", 5}, {"physical", 3}}, {}).total, 4);
  EXPECT_EQ(ComputeDamage(Target({}, {"vulnerable:physical"}), {{"physical", 5}, {"physical", 3}}, {}).total, 12);
  EXPECT_EQ(ComputeDamage(Target({}, {"resist:physical"}), {{"physical", 5}, {"cold", 3}}, {}).total, 6);
}

// 004_1a3e461770fc9e7a.txt l.79 "Resistance reduces all incoming damage of
// that type by half" with l.53 "3 plus 1,5, which is rounded down to 1":
// the half is what is taken off, rounded down as l.53 rounds a half: 7 ->
// 7 - 3 = 4, 1 -> 1 - 0 = 1, 2 -> 1, 9 -> 5, as vulnerability adds the
// half rounded down (7 -> 10) and both together give 7 - 3 + 3 = 7
// (black-box: the damage itself was halved and rounded down, 7 -> 3, a
// half of 3.5 taken off as 4).
TEST(Damage, ResistanceTakesOffTheHalfRoundedDown) {
  const Combatant t = Target({}, {"resist:heat"});
  EXPECT_EQ(ComputeDamage(t, {{"heat", 7}}, {}).total, 4);
  EXPECT_EQ(ComputeDamage(t, {{"heat", 1}}, {}).total, 1);
  EXPECT_EQ(ComputeDamage(t, {{"heat", 2}}, {}).total, 1);
  EXPECT_EQ(ComputeDamage(t, {{"heat", 9}}, {}).total, 5);
  EXPECT_EQ(ComputeDamage(Target({{"armor", 1}}, {"resist:heat"}), {{"heat", 7}}, {}).total, 3);  // 4 - 1 (l.64)
}

fb::RosterT Two() {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}});
  Arm(a, "mace", "1d6", "melee");
  Arm(a, "light", "1d6", "melee", "str/dex", 0, {}, "holy");
  auto b = Being("b", "y", 2, 1, {{"vitality", 3}, {"armor", 0}});
  return MakeRoster({a, b});
}

// l.58: non-lethal damage (-1d4) brings Vitality to 0 at most, no Bleeding.
TEST(Damage, NonLethalCannotKill) {
  Table t(ApRp(), Two());
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto c = Attack("a", "b", "mace");
  With(c, "nonlethal", 1);
  auto ev = t.Submit(c, {15, 6, 1});  // hit 15+5 vs 17; 6 - 1 = 5
  ASSERT_OK(ev);
  EXPECT_EQ(Res(t, "b", kVitality), 0);
  EXPECT_FALSE(Has(t, "b", kBleeding));
}

// 004_1a3e461770fc9e7a.txt l.58 "you must subtract a 1d4 from the damage":
// from the attack's damage, not from its dice alone: an ax of 1d6 Physical
// + 5 Poison rolling 2, non-lethal 4: 2 + 5 - 4 = 3 (what the dice cannot
// absorb comes off the Poison part; black-box: 5, the dice stopping at 0).
TEST(Damage, NonLethalD4ComesOffTheWholeDamage) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}});
  Arm(a, "ax", "1d6", "melee", "str/dex", 0, {{"dmg_poison", 5}});
  auto b = Being("b", "y", 2, 1, {{"vitality", 20}});  // Armor 0, Con DR 0
  Table t(ApRp(), MakeRoster({a, b}));
  auto c = Attack("a", "b", "ax");
  With(c, "nonlethal", 1);
  auto ev = t.Submit(c, {15, 2, 4});  // 15 + 5 vs 17 hits
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "004.attack.nonlethal", "damage"), 3);
  EXPECT_EQ(Res(t, "b", kVitality), 20 - 3);
}

TEST(Damage, LethalBelowOneBleeds) {
  Table t(ApRp(), Two());
  ASSERT_TRUE(t.status().ok()) << t.status();
  ASSERT_OK(t.Submit(Attack("a", "b", "mace"), {15, 6}));
  EXPECT_EQ(Res(t, "b", kVitality), -3);
  EXPECT_TRUE(Has(t, "b", kBleeding));
}

// l.92: Holy is non-lethal against biological creatures.
TEST(Damage, HolyIsNonLethal) {
  Table t(ApRp(), Two());
  ASSERT_TRUE(t.status().ok()) << t.status();
  ASSERT_OK(t.Submit(Attack("a", "b", "light"), {15, 6}));
  EXPECT_EQ(Res(t, "b", kVitality), 0);
  EXPECT_FALSE(Has(t, "b", kBleeding));
}


// 004_1a3e461770fc9e7a.txt l.92 "Holy damage is non-lethal against
// biological creatures and does not cause bleeding if they reduce their
// Vitality below 1": the Holy damage, not the hit's other parts. A blessed
// mace of 1d6 Physical + 5 Holy against Vitality 3, Armor 0:
// - rolling 5: the 5 Physical take 3 to -2 and start Bleeding; the Holy
//   part cannot go below 0 nor below what the Physical did: -2 (black-box:
//   the whole hit was non-lethal, 0 and no Bleeding);
// - rolling 2: the Physical leaves 1, the Holy takes it to 0, no lower, and
//   the Holy part reducing it below 1 causes no Bleeding.
TEST(Damage, OnlyTheHolyPartIsNonLethal) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}});
  Arm(a, "blessed", "1d6", "melee", "str/dex", 0, {{"dmg_holy", 5}});
  auto b = Being("b", "y", 2, 1, {{"vitality", 3}, {"armor", 0}});
  auto c = Being("c", "y", 1, 2, {{"vitality", 3}, {"armor", 0}});
  Table t(ApRp(), MakeRoster({a, b, c}));
  ASSERT_OK(t.Submit(Attack("a", "b", "blessed"), {15, 5}));
  EXPECT_EQ(Res(t, "b", kVitality), -2);
  EXPECT_TRUE(Has(t, "b", kBleeding));
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("b", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("c", "end_turn")));
  ASSERT_OK(t.Submit(Attack("a", "c", "blessed"), {15, 2}));
  EXPECT_EQ(Res(t, "c", kVitality), 0);
  EXPECT_FALSE(Has(t, "c", kBleeding));
}


// 004_1a3e461770fc9e7a.txt l.96 "Psychic damage ignores the Armor of its
// targets and instead takes the Will DR value into account ... as if it were
// Armor" and l.87 the same for Poison with the Constitution DR value: Will
// 14 + Perseverance 2 = 6 against 12 Psychic: 6 (Armor 3 not used); 6
// Psychic + 4 Physical: the lowest value, Armor 3, once (l.65): 7.
// Constitution 12 + Endurance 0 = 2 against 12 Poison: 10.
TEST(Damage, PsychicAndPoisonTakeTheirDrValueAsArmor) {
  Combatant t = Target({{"armor", 3}, {"wil", 14}, {"perseverance", 2}, {"con", 12}});
  EXPECT_EQ(ComputeDamage(t, {{"psychic", 12}}, {}).total, 6);
  EXPECT_EQ(ComputeDamage(t, {{"psychic", 6}, {"physical", 4}}, {}).total, 7);
  EXPECT_EQ(ComputeDamage(t, {{"poison", 12}}, {}).total, 10);
}

// l.64: "Your Armor is subtracted from any incoming damage": a defence larger
// than the part it is taken from comes off the other parts too (5 Physical
// + 2 Poison, lowest defence 4: 3, whichever part the attacker names).
TEST(Damage, DefenceLargerThanThePartComesOffTheRest) {
  Combatant t = Target({{"armor", 4}, {"con", 14}, {"endurance", 0}});
  DamageOpts o;
  o.armor_from = "poison";
  EXPECT_EQ(ComputeDamage(t, {{"physical", 5}, {"poison", 2}}, o).total, 3);
  o.armor_from = "physical";
  EXPECT_EQ(ComputeDamage(t, {{"physical", 5}, {"poison", 2}}, o).total, 3);
  EXPECT_EQ(ComputeDamage(t, {{"physical", 1}, {"poison", 2}}, o).total, 0);  // never below 0
}

// l.65: "The attacker can choose from which damage type": only a type the
// attack deals; anything else is refused naming the field.
TEST(Damage, ArmorFromMustBeATypeTheAttackDeals) {
  Table t(ApRp(), Two());
  auto c = Attack("a", "b", "mace");
  WithText(c, "armor_from", "poison");
  auto r = t.Submit(c, {15, 6});
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("params.armor_from"), std::string::npos);
  EXPECT_EQ(Res(t, "b", kVitality), 3);
}


// l.58: non-lethal damage takes Vitality to 0 without Bleeding; lethal
// damage after that leaves it below 1: Bleeding.
TEST(Damage, LethalAfterNonLethalBleeds) {
  Table t(ApRp(), Two());
  auto c = Attack("a", "b", "mace");
  With(c, "nonlethal", 1);
  ASSERT_OK(t.Submit(c, {15, 6, 1}));
  ASSERT_EQ(Res(t, "b", kVitality), 0);
  ASSERT_FALSE(Has(t, "b", kBleeding));
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("b", "end_turn")));
  ASSERT_OK(t.Submit(Attack("a", "b", "mace"), {15, 2}));
  EXPECT_EQ(Res(t, "b", kVitality), -2);
  EXPECT_TRUE(Has(t, "b", kBleeding));
}

}  // namespace
}  // namespace combat::kernel::aprp
