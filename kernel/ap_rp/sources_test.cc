// Every modifier names its source and rule (issue 16), one test per kind;
// the automatic steps are the system's, the act's own events its author's.
#include <string>
#include <utility>
#include <vector>

#include "kernel/ap_rp/internal.h"
#include "kernel/ap_rp/ruleset.h"
#include "kernel/ap_rp/test_util.h"
#include "kernel/pending.h"
#include "kernel/testing/events.h"

namespace combat::kernel::aprp {
namespace {

using namespace testing;  // NOLINT

const std::pair<std::string, fb::Role> kSystem{"system", fb::Role::System};

void ExpectSourced(const Table& t) {
  EXPECT_EQ(kernel::testing::UnsourcedModifiers(t.log(), RuleTable(), IsModifier),
            std::vector<std::string>{});
}

// aria (Initiative 40) acts first; brute: Evasion 13 + 4 (its evasion
// stat, Str 14) = 17, Armor 1.
fb::RosterT Roster(int bx = 2, int by = 1, std::vector<std::string> brute_tags = {}) {
  auto a = Being("aria", "x", 1, 1, {{"str", 13}, {"dex", 13}, {"ins", 20}});
  Arm(a, "ax", "1d8", "melee");
  Arm(a, "bow", "1d6", "ranged", "dex/str", 10);
  auto b = Being("brute", "y", bx, by, {{"armor", 1}});
  for (const std::string& tag : brute_tags) b.tags.push_back(tag);
  Arm(b, "ax", "1d8", "melee");
  return MakeRoster({a, b});
}

// Defending (l.18): Attack.DefendGivesDisadvantage checks its source.

TEST(Sources, AnEnemyInMeleeRangeIsNamed) {  // l.55
  Table t(ApRp(), Roster());
  auto ev = t.Submit(Attack("aria", "brute", "bow"), {19, 5});
  ASSERT_OK(ev);
  const Seen n = Number(*ev, "enemy_in_melee_range");
  EXPECT_EQ(n.value, 1);
  EXPECT_EQ(n.source, "in melee range of brute");
  EXPECT_EQ(n.rule, "004.attack.range");
  ExpectSourced(t);
}

TEST(Sources, HalfCoverNamesTheSquareOrTheCreatureInFront) {  // l.111
  fb::RosterT r = Roster(6, 1);
  Terrain(r, 5, 1, "half_cover");
  Table t(ApRp(), r);
  auto ev = t.Submit(Attack("aria", "brute", "bow"), {12});  // 12 + 4 < 17 + 2: a miss
  ASSERT_OK(ev);
  const Seen square = Number(*ev, "half_cover");
  EXPECT_EQ(square.value, 2);
  EXPECT_EQ(square.source, "half_cover at (5,1)");
  EXPECT_EQ(square.rule, "004.cover.half");
  ExpectSourced(t);

  auto a = Being("aria", "x", 1, 1, {{"ins", 20}, {"dex", 13}, {"str", 13}});
  Arm(a, "bow", "1d6", "ranged", "dex/str", 10);
  auto f = Being("front", "y", 5, 1, {{"dex", 8}});
  auto b = Being("brute", "y", 6, 1);
  Table u(ApRp(), MakeRoster({a, f, b}));
  auto miss = u.Submit(Attack("aria", "brute", "bow"), {12, 4});
  ASSERT_OK(miss);
  const Seen front = Number(*miss, "half_cover");
  EXPECT_EQ(front.source, "front in front of brute");
  ExpectSourced(u);
}

TEST(Sources, EvasionNamesItsStat) {  // l.61
  Table t(ApRp(), Roster());
  auto ev = t.Submit(Attack("aria", "brute", "ax"), {13, 5});
  ASSERT_OK(ev);
  const Seen n = Number(*ev, "evasion_stat_bonus");
  EXPECT_EQ(n.value, 4);
  EXPECT_EQ(n.source, "evasion_stat:str of brute");
  EXPECT_EQ(n.rule, "004.evasion.base");
  const Seen armor = Number(*ev, "defense");
  EXPECT_EQ(armor.value, 1);  // l.64
  EXPECT_EQ(armor.source, "armor of brute");
  EXPECT_EQ(armor.rule, "004.armor");
  ExpectSourced(t);
}

TEST(Sources, ACriticalAndAResistanceCiteTheirRules) {  // l.56, l.79
  Table t(ApRp(), Roster(2, 1, {"resist:physical"}));
  auto ev = t.Submit(Attack("aria", "brute", "ax"), {20, 4});
  ASSERT_OK(ev);
  const Seen crit = Number(*ev, "critical");
  EXPECT_EQ(crit.value, 6);
  EXPECT_EQ(crit.rule, "004.attack.critical");
  const Seen res = Number(*ev, "physical_type_modifier");
  EXPECT_EQ(res.value, -5);  // 4 + 6 = 10, halved
  EXPECT_EQ(res.source, "resist:physical of brute");
  EXPECT_EQ(res.rule, "004.damage.types");
  ExpectSourced(t);
}

TEST(Sources, SizeAdvantageNamesBothSizes) {  // l.31
  auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"size_cat", 1}, {"athletics", 2}});
  auto small = Being("small", "y", 2, 1);
  Table t(ApRp(), MakeRoster({a, small}));
  auto ev = t.Submit(Cmd("a", "trip", {"small"}), {3, 12, 9});
  ASSERT_OK(ev);
  const Seen n = Number(*ev, "actor_advantage");
  EXPECT_EQ(n.value, 1);
  EXPECT_EQ(n.source, "small size 0 vs a size 1");
  EXPECT_EQ(n.rule, "004.size");
  ExpectSourced(t);
}

TEST(Authors, TurnsAndRoundsAreTheSystemsTheActsTheirAuthors) {
  Table t(ApRp(), Roster());
  ASSERT_TRUE(t.status().ok()) << t.status();
  EXPECT_EQ(ByRule(t.log(), "004.budget.rp"), kSystem);  // l.6, round 1
  EXPECT_EQ(ByRule(t.log(), "004.budget.ap"), kSystem);  // aria's turn starts
  auto hit = t.Submit(Attack("aria", "brute", "ax"), {13, 5});
  ASSERT_OK(hit);
  EXPECT_EQ(ByRule(*hit, "004.evasion"), std::make_pair(std::string("aria"), fb::Role::Player));
  EXPECT_EQ(ByRule(*hit, "004.armor"), std::make_pair(std::string("aria"), fb::Role::Player));
  auto end = t.Submit(Cmd("aria", "end_turn"));
  ASSERT_OK(end);
  EXPECT_EQ(ByRule(*end, "004.budget.ap"), kSystem);  // brute's 3 AP (l.6)
  auto round = t.Submit(Cmd("brute", "end_turn"));
  ASSERT_OK(round);
  EXPECT_EQ(ByRule(*round, "004.initiative"), kSystem);  // round 2's order (l.11)
}

TEST(Authors, AHeldActFiresAsTheSystemsKeepingItsHoldersCommand) {  // l.9
  auto archer = Being("archer", "x", 1, 1, {{"ins", 20}, {"dex", 14}, {"str", 12}});
  Arm(archer, "bow", "1d6", "ranged", "dex/str", 5);
  auto orc = Being("orc", "y", 9, 1, {{"ins", 10}, {"basic_movement", 4}});
  Table t(ApRp(), MakeRoster({archer, orc}));
  fb::CommandT hold = Cmd("archer", "hold_action");
  hold.weapon = "bow";
  WithText(hold, "action", "attack");
  WithText(hold, "trigger", "enters_range");
  ASSERT_OK(t.Submit(hold));
  const PendingAct* p = FirstPending(t.state(), "archer", kReadiedAct);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->command->author, "archer");
  EXPECT_EQ(p->command->role, fb::Role::Player);
  ASSERT_OK(t.Submit(Cmd("archer", "end_turn")));
  auto ev = t.Submit(Path(Cmd("orc", "move"), {{8, 1}, {7, 1}, {6, 1}}), {15, 4});
  ASSERT_OK(ev);
  EXPECT_EQ(ByRule(*ev, "004.hold.action"), kSystem);
  EXPECT_EQ(ByRule(*ev, "004.evasion"), kSystem);  // the shot fires by itself
  EXPECT_EQ(ByRule(*ev, "004.terrain.grid"), std::make_pair(std::string("orc"), fb::Role::Player));
}

}  // namespace
}  // namespace combat::kernel::aprp
