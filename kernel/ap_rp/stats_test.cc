// Derived numbers, each against the text's worked example.
#include "kernel/ap_rp/internal.h"
#include "kernel/ap_rp/test_util.h"

namespace combat::kernel::aprp {
namespace {

using testing::Being;

Combatant Of(const fb::CombatantSpecT& spec) {
  Combatant c;
  c.id = spec.id;
  for (const auto& n : spec.stats) c.stats[n->key] = n->value;
  c.tags = spec.tags;
  return c;
}

// l.53: Strength and Dexterity 13 with an ax (Str/Dex): 3 + 1.5 rounded
// down to 1 = 4.
TEST(Stats, AxHitBonusIsFour) {
  Combatant c = Of(Being("a", "x", 0, 0, {{"str", 13}, {"dex", 13}}));
  EXPECT_EQ(StatBonus(c, "str"), 3);
  EXPECT_EQ(HitBonus(StatBonus(c, "str"), StatBonus(c, "dex")), 4);
}

TEST(Stats, HalfOfANegativeBonusRoundsDown) {
  EXPECT_EQ(HitBonus(2, -1), 1);  // -0.5 rounded down is -1 (l.53)
}

// l.61: War Archetype (Evasion Stat Strength), Dexterity 13, Strength 14:
// 13 + 4 = 17.
TEST(Stats, WarArchetypeEvasionIsSeventeen) {
  Combatant c = Of(Being("a", "x", 0, 0, {{"str", 14}, {"dex", 13}}));
  EXPECT_EQ(BaseEvasion(c, nullptr), 17);
}

// l.62: base 17 in medium armor (Evasion Cap 14) is 14; buffs are not capped.
TEST(Stats, EvasionCapLimitsBaseOnly) {
  Combatant c = Of(Being("a", "x", 0, 0, {{"evasion_cap", 14}, {"evasion_bonus", 2}}));
  EXPECT_EQ(BaseEvasion(c, nullptr), 14);
  EXPECT_EQ(Evasion(c, nullptr), 16);
}

// l.7: Instinct x 2 + Athletics + Quick Fingers + Analysis + Grace +
// Improvisation; objects 0.
TEST(Stats, Initiative) {
  Combatant c = Of(Being("a", "x", 0, 0, {{"ins", 12}, {"athletics", 1}, {"quick_fingers", 2},
                                          {"analysis", 3}, {"grace", 4}, {"improvisation", 5},
                                          {"stealth", 9}}));
  EXPECT_EQ(Initiative(c), 24 + 15);
  c.tags.push_back("object");
  EXPECT_EQ(Initiative(c), 0);
}

// l.65: Constitution 10 and Endurance 3 give a Constitution DR of 3.
TEST(Stats, ConstitutionDrValue) {
  Combatant c = Of(Being("a", "x", 0, 0, {{"con", 10}, {"endurance", 3}}));
  EXPECT_EQ(DrValue(c, "con"), 3);
  EXPECT_EQ(DrSkill("wil"), "perseverance");
  EXPECT_EQ(DrPower(c), 14);  // l.70: the Primary Stat (Strength 14)
}

// 004_1a3e461770fc9e7a.txt l.71-77: each DR is its Stat's bonus plus one
// Skill: Strength (Raw Force) l.71, Dexterity (Nimbleness) l.72,
// Constitution (Endurance) l.73, Intelligence (Psychology) l.74, Charisma
// (Presence) l.75, Instinct (Intuition) l.76, Will (Perseverance) l.77.
// Stats 12..18 give bonuses 2..8; each Skill 1: 3..9.
TEST(Stats, TheSevenDrsAndTheirSkills) {
  Combatant c = Of(Being("a", "x", 0, 0, {{"str", 12}, {"dex", 13}, {"con", 14}, {"int", 15},
                                          {"cha", 16}, {"ins", 17}, {"wil", 18},
                                          {"raw_force", 1}, {"nimbleness", 1}, {"endurance", 1},
                                          {"psychology", 1}, {"presence", 1}, {"intuition", 1},
                                          {"perseverance", 1}}));
  EXPECT_EQ(DrValue(c, "str"), 3);
  EXPECT_EQ(DrValue(c, "dex"), 4);
  EXPECT_EQ(DrValue(c, "con"), 5);
  EXPECT_EQ(DrValue(c, "int"), 6);
  EXPECT_EQ(DrValue(c, "cha"), 7);
  EXPECT_EQ(DrValue(c, "ins"), 8);
  EXPECT_EQ(DrValue(c, "wil"), 9);
}

// A roster error cites the line its field reads: 004 l.3 ("Everybody that
// fights on your side counts as an ally") is about sides, not stats, so a
// negative Stat cites no line (seed 004 gives none for a Stat's range),
// and a missing side still cites l.3 (black-box: "stats.ins must be >= 0
// (004 Battle, l.3)").
TEST(Stats, RosterErrorsCiteTheirOwnLine) {
  auto bad = testing::Being("a", "x", 1, 1, {{"ins", -1}});
  auto e = testing::Being("e", "y", 3, 1, {{"ins", 1}});
  testing::Table t(ApRp(), testing::MakeRoster({bad, e}));
  ASSERT_FALSE(t.status().ok());
  EXPECT_NE(t.status().message().find("stats.ins"), absl::string_view::npos) << t.status();
  EXPECT_EQ(t.status().message().find("l.3"), absl::string_view::npos) << t.status();
  auto sideless = testing::Being("a", "", 1, 1, {{"ins", 1}});
  testing::Table u(ApRp(), testing::MakeRoster({sideless, e}));
  ASSERT_FALSE(u.status().ok());
  EXPECT_NE(u.status().message().find("Battle, l.3"), absl::string_view::npos) << u.status();
}

// Roster errors about no one field cite the line they rest on, not l.3
// (about sides): an empty roster has no parties (l.2 "at least two
// parties"); a missing or off-map `at` is the tool's 1 m grid (l.106); a
// repeated id is an input rule of the tool, citing no line of seed 004.
TEST(Stats, RosterShapeErrorsCiteTheLineTheyRestOn) {
  testing::Table empty(ApRp(), testing::MakeRoster({}));
  ASSERT_FALSE(empty.status().ok());
  EXPECT_NE(empty.status().message().find("Battle, l.2)"), absl::string_view::npos) << empty.status();
  auto a = testing::Being("a", "x", 1, 1);
  auto e = testing::Being("e", "y", 3, 1);
  auto twice = testing::Being("a", "y", 5, 1);
  testing::Table dup(ApRp(), testing::MakeRoster({a, e, twice}));
  ASSERT_FALSE(dup.status().ok());
  EXPECT_NE(dup.status().message().find("given twice"), absl::string_view::npos) << dup.status();
  EXPECT_NE(dup.status().message().find("input rule of the tool"), absl::string_view::npos) << dup.status();
  EXPECT_EQ(dup.status().message().find("l."), absl::string_view::npos) << dup.status();
  auto nowhere = testing::Being("n", "y", 5, 1);
  nowhere.at.reset();
  testing::Table at(ApRp(), testing::MakeRoster({a, nowhere}));
  ASSERT_FALSE(at.status().ok());
  EXPECT_NE(at.status().message().find("field 'at'"), absl::string_view::npos) << at.status();
  EXPECT_NE(at.status().message().find("Terrain, l.106)"), absl::string_view::npos) << at.status();
  auto off = testing::Being("o", "y", 30, 1);
  testing::Table map(ApRp(), testing::MakeRoster({a, off}));
  ASSERT_FALSE(map.status().ok());
  EXPECT_NE(map.status().message().find("off the 20 x 20 map"), absl::string_view::npos) << map.status();
  EXPECT_NE(map.status().message().find("Terrain, l.106)"), absl::string_view::npos) << map.status();
}

}  // namespace
}  // namespace combat::kernel::aprp
