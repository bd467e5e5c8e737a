// Every modifier names its source and rule (issue 16), one test per kind;
// the automatic steps are the system's, the act's own events its author's.
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "kernel/opposed_tests/test_util.h"

namespace combat::kernel::opposed::testutil {
namespace {

const std::pair<std::string, fb::Role> kSystem{"system", fb::Role::System};

void ExpectSourced(const Table& t) {
  EXPECT_EQ(kernel::testing::UnsourcedModifiers(t.log(), RuleTable(), IsModifier),
            std::vector<std::string>{});
}

fb::CombatantSpecT Defender(int x, Stats extra = {}) {
  Stats s = {{"health", 20}, {"speed", 6}, {"dodge", 1}, {"agi", 1}, {"initiative", -9}};
  for (auto& e : extra) s.push_back(e);
  return Who("d", "y", x, 5, s, {W("knife", "1d4", "melee", "light", {}, "piercing")});
}

TEST(Sources, CoverNamesTheSquareThatGivesIt) {  // l.87
  Table t(OpposedTests(), WithMap({Archer(), Defender(8)}, {{{7, 5}, "cover_low"}}), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  const auto ev = Exchange(t, "bow", "dodge");
  const Seen at = Number(ev, "attack.cover"), dt = Number(ev, "defense.cover");
  EXPECT_EQ(at.value, -2);
  EXPECT_EQ(at.source, "cover_low at 7,5");
  EXPECT_EQ(at.rule, "003.cover");
  EXPECT_EQ(dt.value, 2);
  EXPECT_EQ(dt.source, "cover_low at 7,5");
  ExpectSourced(t);
}

TEST(Sources, TheGmsCoverNamesTheRuling) {  // l.88, l.15
  Table t(OpposedTests(), Roster({Archer(), Defender(8)}), {6, 1});
  auto cover = Gm("gm_condition", "d", "behind the cart");
  WithText(cover, "name", "Cover");
  WithText(cover, "op", "add");
  With(cover, "level", 2);
  ASSERT_TRUE(t.Submit(cover).ok());
  const Seen n = Number(Exchange(t, "bow", "dodge"), "attack.cover");
  EXPECT_EQ(n.value, -5);
  EXPECT_EQ(n.source, "cover on d by gm");
  EXPECT_EQ(n.rule, "003.cover");
  ExpectSourced(t);
}

TEST(Sources, FlankingNamesBothFlankers) {  // l.91
  auto a = Who("a", "x", 4, 5, {{"health", 20}, {"speed", 6}, {"fighting_style", 1}},
               {W("club", "1d6", "melee", "medium", {}, "crushing")});
  auto b = Who("b", "x", 6, 5, {{"health", 20}, {"speed", 6}, {"initiative", -8}},
               {W("club", "1d6", "melee", "medium", {}, "crushing")});
  Table t(OpposedTests(), Roster({std::move(a), std::move(b), Defender(5)}), {6, 1, 1});
  const Seen n = Number(Exchange(t, "club", "none"), "attack.flanking");
  EXPECT_EQ(n.value, 2);
  EXPECT_EQ(n.source, "flanked by a and b");
  EXPECT_EQ(n.rule, "003.flanking");
  ExpectSourced(t);
}

TEST(Sources, UntrainedGearNamesTheItem) {  // l.99-100
  auto a = Who("a", "x", 4, 5, {{"health", 20}, {"speed", 6}, {"fighting_style", 3}, {"untrained_armor", 1}},
               {W("flail", "1d6", "melee", "medium", {{"untrained", 1}}, "crushing")});
  Table t(OpposedTests(), Roster({std::move(a), Defender(5)}), {6, 1});
  const auto ev = Exchange(t, "flail", "dodge");
  const Seen weapon = Number(ev, "attack.untrained_weapon");
  EXPECT_EQ(weapon.value, -2);
  EXPECT_EQ(weapon.source, "flail of a");
  EXPECT_EQ(weapon.rule, "003.untrained_weapon");
  const Seen armor = Number(ev, "attack.untrained_armor");
  EXPECT_EQ(armor.value, -1);
  EXPECT_EQ(armor.source, "armor of a");
  EXPECT_EQ(armor.rule, "003.untrained_armor");
  // l.45's -2 counts once for weapons or armor: the flail names it.
  EXPECT_EQ(Number(ev, "attack.untrained_gear").value, -999);  // none
  ExpectSourced(t);
}

// Seed 003 l.45: "wielding a weapons or armor not included in your Fighting
// Style imposes a -2 penalty to all Fighting Style tests": untrained armor
// alone names the armor, with l.45's rule, beside l.100's bane.
TEST(Sources, UntrainedArmorAloneNamesTheArmorForTheMinusTwo) {
  auto a = Who("a", "x", 4, 5, {{"health", 20}, {"speed", 6}, {"fighting_style", 3}, {"untrained_armor", 1}},
               {W("club", "1d6", "melee", "medium", {}, "crushing")});
  Table t(OpposedTests(), Roster({std::move(a), Defender(5)}), {6, 1});
  const auto ev = Exchange(t, "club", "dodge");
  const Seen gear = Number(ev, "attack.untrained_gear");
  EXPECT_EQ(gear.value, -2);
  EXPECT_EQ(gear.source, "armor of a");
  EXPECT_EQ(gear.rule, "003.untrained_gear");
  EXPECT_EQ(Number(ev, "attack.untrained_armor").value, -1);
  EXPECT_EQ(Number(ev, "attack.untrained_weapon").value, -999);  // none
  ExpectSourced(t);
}

TEST(Sources, NoDefenseNamesTheDefender) {  // l.56
  Table t(OpposedTests(), Roster({Archer(), Defender(8)}), {6, 1});
  const Seen n = Number(Exchange(t, "bow", "none"), "defense.no_defense");
  EXPECT_EQ(n.value, 1);
  EXPECT_EQ(n.source, "d does not defend");
  EXPECT_EQ(n.rule, "003.defend.none");
  ExpectSourced(t);
}

// l.58 "if the defender didn't defend, they automatically fail": a target
// that cannot defend gets no window; its automatic failure names why and
// the rule saying so (l.16 surprised, l.50 unaware), not "d does not
// defend" (l.56, a choice it never had). Black-box case: a surprised pc's
// failure read "from pc does not defend, 003.defend.none".
TEST(Sources, ATargetThatCannotDefendNamesWhy) {
  for (const auto& [tag, source, rule] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"surprised", "d surprised", "003.surprise"}, {"unaware", "d unaware of the attack", "003.defend"}}) {
    auto d = Defender(8);
    kernel::testing::Tag(d, tag);
    Table t(OpposedTests(), Roster({Archer(), std::move(d)}), {6, 1});
    ASSERT_TRUE(t.status().ok()) << t.status();
    auto shot = Cmd("a", "strike", {"d"});
    shot.weapon = "bow";
    auto ev = t.Submit(shot, {1, 1, 1, 1, 1, 1});  // the attack fails: both fail
    ASSERT_TRUE(ev.ok()) << ev.status();
    const Seen n = Number(*ev, "defense.cannot_defend");
    EXPECT_EQ(n.value, 1) << tag;
    EXPECT_EQ(n.source, source);
    EXPECT_EQ(n.rule, rule);
    EXPECT_EQ(Number(*ev, "defense.no_defense").value, -999) << tag;
    // 003 l.56 "The defender can also decide not to defend": d decided
    // nothing; its automatic failure cites why (l.16, l.50), not l.56
    // (the old code cited 003.defend.none for it).
    EXPECT_FALSE(kernel::testing::Cites(*ev, "003.defend.none")) << tag;
    EXPECT_TRUE(kernel::testing::Cites(*ev, rule)) << tag;
    ExpectSourced(t);
  }
}

// l.116 "knocked unconscious", l.58 "if the defender didn't defend, they
// automatically fail": a defender knocked out (the GM sets its Health to
// 0) while its defense window is open can no longer choose; the system
// answers `none` for it at once (author `system`, text naming l.116), a
// target that cannot defend, named "d unconscious" (003.health), not
// l.56's choice "d does not defend" (black-box cases: 003.defend.none was
// cited; then the window waited for the GM to answer `none` for d). By
// hand: a's bow 6 dice, 1,1,1,1,1,1 (given on the GM's ruling, the command
// that resolves the attack): the attack fails; d fails automatically: both
// fail (l.59).
TEST(Sources, ADefenderKnockedOutBeforeAnsweringCannotDefend) {
  Table t(OpposedTests(), Roster({Archer(), Defender(8)}), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto shot = Cmd("a", "strike", {"d"});
  shot.weapon = "bow";
  ASSERT_TRUE(t.Submit(shot).ok());
  ASSERT_EQ(t.state().windows.size(), 1u);
  auto ev = t.Submit(KnockOut("d"), {1, 1, 1, 1, 1, 1});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_TRUE(t.state().windows.empty());
  const Seen n = Number(*ev, "defense.cannot_defend");
  EXPECT_EQ(n.value, 1);
  EXPECT_EQ(n.source, "d unconscious");
  EXPECT_EQ(n.rule, "003.health");
  EXPECT_EQ(Number(*ev, "defense.no_defense").value, -999);
  EXPECT_FALSE(kernel::testing::Cites(*ev, "003.defend.none"));
  EXPECT_TRUE(kernel::testing::Cites(*ev, "003.result.both_fail"));
  bool answered_for_d = false;
  for (const auto& e : *ev) {
    if (e.event().body_type() != fb::Body::Interrupt) continue;
    const fb::Command* c = e.event().body_as_Interrupt()->command();
    answered_for_d = c->actor()->str() == "d" && c->action()->str() == "defend" &&
                     e.event().author()->str() == "system" &&
                     c->text()->str().find("l.116") != std::string::npos;
  }
  EXPECT_TRUE(answered_for_d);
  ExpectSourced(t);
}

TEST(Sources, DamageNamesTheArmorAndResistanceStats) {  // l.135, l.142
  Combatant d;
  d.id = "d";
  d.stats = {{"ar.chain", 3}, {"resist.physical", 1}, {"vuln.fire", 2}};
  const DamageOut cut = ComputeDamage(d, {9, "slashing", false, 0});
  EXPECT_EQ(cut.dealt, 5);
  const Seen ar = Number(cut.nums, "ar");
  EXPECT_EQ(ar.source, "ar.chain of d");
  EXPECT_EQ(ar.rule, "003.damage.armor");
  const Seen res = Number(cut.nums, "resistance");
  EXPECT_EQ(res.source, "resist.physical of d");
  EXPECT_EQ(res.rule, "003.damage.resistance");
  const DamageOut burn = ComputeDamage(d, {4, "fire", false, 0});
  const Seen vuln = Number(burn.nums, "vulnerability");
  EXPECT_EQ(vuln.value, 2);
  EXPECT_EQ(vuln.source, "vuln.fire of d");
  EXPECT_EQ(vuln.rule, "003.damage.vulnerability");
  DamageIn blocked{9, "slashing", true, 2};
  blocked.shield = "buckler";
  const Seen br = Number(ComputeDamage(d, blocked).nums, "br");
  EXPECT_EQ(br.source, "buckler of d");
  EXPECT_EQ(br.rule, "003.damage.shield");
}

TEST(Authors, RoundsAndTurnsAreTheSystemsTheActsTheirAuthors) {
  Table t(OpposedTests(), Roster({Archer(), Defender(8)}), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  // Set-up: the first round's AP (l.11) and a's turn start by themselves.
  EXPECT_EQ(ByRule(t.log(), "003.ap"), kSystem);
  EXPECT_EQ(ByRule(t.log(), "003.turn"), kSystem);
  const auto ev = Exchange(t, "bow", "none", {6, 1, 1, 1, 1, 1});
  // The defense is d's; the combat roll then resolves by itself.
  EXPECT_EQ(ev.front().event().author()->str(), "d");
  EXPECT_EQ(ByRule(ev, "003.result.critical"), kSystem);
  auto pass = Cmd("a", "maneuver");
  pass.window = t.state().windows.rbegin()->first;
  WithText(pass, "maneuver", "none");
  auto hit = t.Submit(pass, {4});
  ASSERT_TRUE(hit.ok()) << hit.status();
  EXPECT_EQ(ByRule(*hit, "003.damage"), std::make_pair(std::string("a"), fb::Role::Player));
  auto end = t.Submit(Cmd("a", "end_turn"));
  ASSERT_TRUE(end.ok()) << end.status();
  EXPECT_EQ(ByRule(*end, "003.turn"), kSystem);  // d's turn starts by itself
  auto again = t.Submit(Cmd("d", "end_turn"));
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(ByRule(*again, "003.ap"), kSystem);  // round 2: 3 AP each (l.11)
}

TEST(Authors, AnActHeldForOpportunityAttacksGoesOnAsTheSystems) {  // l.81-83
  auto chant = W("chant", "", "spell", "", {}, "");
  Table t(OpposedTests(),
          Roster({Who("m", "x", 2, 2, {{"health", 5}, {"speed", 3}, {"sorcery", 1}, {"initiative", 5}}, {chant}),
                  Who("d", "y", 3, 2, {{"health", 5}, {"speed", 3}}, {W("club", "1d6", "melee", "medium", {}, "crushing")})}),
          {6, 1});
  auto cast = Cmd("m", "use_magic");
  cast.weapon = "chant";
  ASSERT_TRUE(t.Submit(cast).ok());
  ASSERT_EQ(t.state().windows.size(), 1u);
  auto pass = Cmd("d", "pass");
  pass.window = t.state().windows.begin()->first;
  auto ev = t.Submit(pass);
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(ev->front().event().author()->str(), "d");  // the pass is d's
  EXPECT_EQ(ByRule(*ev, "003.use_magic"), kSystem);      // m's cast goes on by itself
}

TEST(Authors, ArmedOpportunityAttacksAreTheirCommanders) {  // l.81
  fb::CombatantSpecT ogre = Defender(8);
  ogre.player = "";  // nobody plays it: the GM runs it
  fb::RosterT r = Roster({Archer(), std::move(ogre)});
  r.combatants[1]->player = "";
  Table t(OpposedTests(), r, {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  int seen = 0;
  for (const auto& [id, p] : t.state().pending) {
    if (p.command->action != "opportunity_attack") continue;
    ++seen;
    EXPECT_EQ(p.command->author, p.actor == "a" ? "a" : "gm") << p.actor;
    EXPECT_EQ(p.command->role, p.actor == "a" ? fb::Role::Player : fb::Role::GM) << p.actor;
  }
  EXPECT_EQ(seen, 8);  // four triggers each
}

}  // namespace
}  // namespace combat::kernel::opposed::testutil
