// Every modifier names its source and rule (issue 16), one test per kind;
// the automatic steps are the system's, the act's own events its author's.
#include <string>
#include <vector>

#include "kernel/testing/events.h"
#include "kernel/wound_slots/test_util.h"

namespace combat::kernel::wound_slots {
namespace {

using namespace testutil;  // NOLINT
using kernel::testing::GmCmd;

using Seen = kernel::testing::NumberSeen;

Seen Number(const std::vector<events::EventBuffer>& events, const std::string& key) {
  return kernel::testing::LastNumber(events, key);
}

void ExpectSourced(const Table& t) {
  EXPECT_TRUE(t.status().ok()) << t.status();
  EXPECT_EQ(kernel::testing::UnsourcedModifiers(t.log(), WoundSlots().Rules(), IsModifier),
            std::vector<std::string>{});
}

fb::CommandT Condition(const std::string& on, const std::string& name) { return GmAdds(on, name, "ruling"); }

// aria 18 acts first, orc 17 (l.119).
Table Fight(std::vector<fb::CombatantSpecT> extra = {}, Stats orc = {}) {
  std::vector<fb::CombatantSpecT> cs;
  cs.push_back(Aria());
  cs.push_back(Orc("orc", 6, 5, orc));
  std::vector<int> dice = {10, 12};
  for (auto& c : extra) {
    cs.push_back(std::move(c));
    dice.push_back(1);
  }
  return Table(WoundSlots(), Roster(std::move(cs)), dice);
}

TEST(Sources, CoverNamesTheTargetAndItsRow) {
  Table t = Fight();
  fb::CommandT c = Cmd("aria", "standard_attack", {"orc"});
  With(c, "cover", 2);
  auto ev = t.Submit(c, {3});
  ASSERT_TRUE(ev.ok()) << ev.status();
  const Seen n = Number(*ev, "cover");
  EXPECT_EQ(n.value, -2);  // l.90: 1/2 cover, melee -2
  EXPECT_EQ(n.source, "1/2 cover of orc");
  EXPECT_EQ(n.rule, "001.attack.cover");
  ExpectSourced(t);
}

TEST(Sources, PostureNamesTheConditionAndItsBearer) {
  Table t = Fight();
  ASSERT_TRUE(t.Submit(Condition("orc", "Prone")).ok());
  auto ev = t.Submit(Cmd("aria", "standard_attack", {"orc"}), {3});
  ASSERT_TRUE(ev.ok()) << ev.status();
  const Seen n = Number(*ev, "posture");
  EXPECT_EQ(n.value, 3);  // l.86: prone, melee +3
  EXPECT_EQ(n.source, "prone on orc by gm");
  EXPECT_EQ(n.rule, "001.attack.posture");
  ExpectSourced(t);
}

TEST(Sources, FlankingNamesTheFlankers) {
  fb::CombatantSpecT bob = Who("bob", "party", 7, 5, {{"dex", 1}}, "club", "2", "club");
  Table t = Fight({std::move(bob)});
  auto ev = t.Submit(Cmd("aria", "standard_attack", {"orc"}), {3});
  ASSERT_TRUE(ev.ok()) << ev.status();
  const Seen n = Number(*ev, "flanked");
  EXPECT_EQ(n.value, 2);  // l.88, l.95
  EXPECT_EQ(n.source, "flanked by aria, bob");
  EXPECT_EQ(n.rule, "001.attack.flanking");
  ExpectSourced(t);
}

TEST(Sources, DistractionNamesItsBearerAndGiver) {
  Table t = Fight();
  ASSERT_TRUE(t.Submit(Condition("aria", "Distracted")).ok());
  auto ev = t.Submit(Cmd("aria", "standard_attack", {"orc"}), {3});
  ASSERT_TRUE(ev.ok()) << ev.status();
  const Seen n = Number(*ev, "distracted");
  EXPECT_EQ(n.value, -2);  // l.244
  EXPECT_EQ(n.source, "distracted on aria by gm");
  EXPECT_EQ(n.rule, "001.hinder.distract");
  ExpectSourced(t);
}

TEST(Sources, WeaponPropertiesNameTheWeapon) {
  Table t = Fight();
  auto ev = t.Submit(Cmd("aria", "standard_attack", {"orc"}), {3});
  ASSERT_TRUE(ev.ok()) << ev.status();
  const Seen acc = Number(*ev, "accuracy");
  EXPECT_EQ(acc.value, 1);
  EXPECT_EQ(acc.source, "sword of aria");
  EXPECT_EQ(acc.rule, "001.attack.skills");
  ExpectSourced(t);
}

TEST(Sources, BlockAndArmorNameTheDefendersGear) {
  fb::CombatantSpecT orc = Orc("orc", 6, 5, {{"armor", 2}});
  fb::WeaponT shield = kernel::testing::MakeWeapon("shield", "1", "melee", "shield");
  AddNumber(shield, "block", 2);
  orc.weapons.push_back(std::make_unique<fb::WeaponT>(std::move(shield)));
  Table t(WoundSlots(), Roster({Aria(), std::move(orc)}), {10, 12});
  auto ev = t.Submit(Cmd("aria", "standard_attack", {"orc"}), {15});
  ASSERT_TRUE(ev.ok()) << ev.status();
  const Seen block = Number(*ev, "block");
  EXPECT_EQ(block.value, 2);  // l.100
  EXPECT_EQ(block.source, "shield of orc");
  EXPECT_EQ(block.rule, "001.defense");
  const Seen armor = Number(*ev, "armor");
  EXPECT_EQ(armor.value, 2);  // l.16
  EXPECT_EQ(armor.source, "armor of orc");
  EXPECT_EQ(armor.rule, "001.wound.toughness");
  ExpectSourced(t);
}

TEST(Sources, VerbModifiersCiteTheVerb) {
  Table t = Fight();
  auto quick = t.Submit(Cmd("aria", "quick_attack", {"orc"}), {5});
  ASSERT_TRUE(quick.ok()) << quick.status();
  const Seen step = Number(*quick, "wound_step");
  EXPECT_EQ(step.value, -1);  // l.187
  EXPECT_EQ(step.source, "");
  EXPECT_EQ(step.rule, "001.act.quick");
  auto soft = t.Submit(Cmd("aria", "nonlethal_attack", {"orc"}), {5});
  ASSERT_TRUE(soft.ok()) << soft.status();
  const Seen action = Number(*soft, "action");
  EXPECT_EQ(action.value, -2);  // l.185
  EXPECT_EQ(action.rule, "001.act.nonlethal");
  ExpectSourced(t);
}

TEST(Sources, ACriticalMovesInitiativeCitingItsRule) {
  Table t = Fight();
  auto ev = t.Submit(Cmd("aria", "standard_attack", {"orc"}), {20});
  ASSERT_TRUE(ev.ok()) << ev.status();
  const Seen delta = Number(*ev, "delta");
  EXPECT_EQ(delta.value, -2);  // l.81: the target's -2, the last change
  EXPECT_EQ(delta.rule, "001.attack.crit");
  ExpectSourced(t);
}

TEST(Sources, TheKitNamesItsAbsence) {
  Table t = Fight();
  ASSERT_TRUE(t.Submit(Condition("orc", "Dying")).ok());
  fb::CommandT c = Cmd("aria", "stabilize", {"orc"});
  With(c, "kit", 0);
  auto ev = t.Submit(c, {10});
  ASSERT_TRUE(ev.ok()) << ev.status();
  const Seen kit = Number(*ev, "kit");
  EXPECT_EQ(kit.value, -5);  // l.250 "if you do not have a healing kit in hand"
  EXPECT_EQ(kit.source, "without a healing kit");
  EXPECT_EQ(kit.rule, "001.act.stabilize");  // was: l.54's 001.rest.tend
  ExpectSourced(t);
}

TEST(Sources, SurpriseNamesTheSurprised) {
  Table t(WoundSlots(), Roster({Aria(), Orc("orc", 6, 5, {}, {"standard", "surprised"})}), {10, 12});
  const Seen n = Number(t.log(), "surprise_penalty");
  EXPECT_EQ(n.value, -5);  // 001 l.122: "a penalty to your initiative equal to 5 - your Perception" (0), signed as added
  EXPECT_EQ(n.source, "surprised orc");
  EXPECT_EQ(n.rule, "001.surprise");
  ExpectSourced(t);
}

using kernel::testing::ByRule;

TEST(Authors, AutomaticStepsAreTheSystemsTheActsTheirAuthors) {
  Table t = Fight();
  // Set-up: initiative and the first round's AP are the system's.
  EXPECT_EQ(ByRule(t.log(), "001.ap.gain"), std::make_pair(std::string("system"), fb::Role::System));
  auto hit = t.Submit(Cmd("aria", "standard_attack", {"orc"}), {3});
  ASSERT_TRUE(hit.ok()) << hit.status();
  EXPECT_EQ(ByRule(*hit, "001.wound.damage"), std::make_pair(std::string("aria"), fb::Role::Player));
  auto end = t.Submit(Cmd("aria", "end_turn"));
  ASSERT_TRUE(end.ok()) << end.status();
  // l.116: the Turn End AP comes by itself; the next turn starts by itself.
  EXPECT_EQ(ByRule(*end, "001.ap.gain"), std::make_pair(std::string("system"), fb::Role::System));
  auto orc_end = t.Submit(Cmd("orc", "end_turn"));
  ASSERT_TRUE(orc_end.ok()) << orc_end.status();
  // The round's end and the next round's AP (l.115) are the system's.
  EXPECT_EQ(ByRule(*orc_end, "001.round"), std::make_pair(std::string("system"), fb::Role::System));
  EXPECT_EQ(ByRule(*orc_end, "001.ap.gain"), std::make_pair(std::string("system"), fb::Role::System));
}

TEST(Authors, AHeldBackActResolvesAsTheSystemsWhenTheOthersPass) {
  Table t = Fight();
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  // aria's initiative 18 beats the orc's 17: she may act first (l.124).
  ASSERT_TRUE(t.Submit(Cmd("orc", "standard_attack", {"aria"})).ok());
  ASSERT_EQ(t.state().windows.size(), 1u);
  const PendingAct& held = t.state().pending.begin()->second;
  EXPECT_EQ(held.command->author, "orc");
  fb::CommandT pass = Cmd("aria", "pass");
  pass.window = t.state().windows.begin()->first;
  auto ev = t.Submit(pass, {12});
  ASSERT_TRUE(ev.ok()) << ev.status();
  // The pass is aria's; the orc's attack then takes place by itself, not as
  // aria's act.
  const auto& first = ev->front().event();
  EXPECT_EQ(first.author()->str(), "aria");
  const std::pair<std::string, fb::Role> attack =
      kernel::testing::Cites(*ev, "001.wound.damage") ? ByRule(*ev, "001.wound.damage") : ByRule(*ev, "001.attack.hit");
  EXPECT_EQ(attack, std::make_pair(std::string("system"), fb::Role::System));
}

TEST(Authors, APaidActKeepsItsAuthorAndTakesEffectAsTheSystems) {
  Table t = Fight();
  // aria (7 AP) declares a 6 AP strong attack after a 4 AP standard one:
  // paid over her turns (l.111).
  ASSERT_TRUE(t.Submit(Cmd("aria", "standard_attack", {"orc"}), {2}).ok());
  ASSERT_TRUE(t.Submit(Cmd("aria", "strong_attack", {"orc"}), {}).ok());
  ASSERT_EQ(t.state().pending.size(), 1u);
  const PendingAct& p = t.state().pending.begin()->second;
  EXPECT_EQ(p.command->author, "aria");
  EXPECT_EQ(p.command->role, fb::Role::Player);
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  auto next = t.Submit(Cmd("orc", "end_turn"));
  ASSERT_TRUE(next.ok()) << next.status();
  // Round 2, aria's turn starts: the rest is paid and the attack takes
  // effect, by themselves.
  EXPECT_TRUE(t.state().pending.empty());
  EXPECT_EQ(ByRule(*next, "001.ap.paying"), std::make_pair(std::string("system"), fb::Role::System));
  EXPECT_TRUE(kernel::testing::Cites(*next, "001.attack.hit") || kernel::testing::Cites(*next, "001.wound.damage"));
}

// 001 l.127 "the effect ends at the end of the round equal to its
// duration": an effect's rounds running out during a rest (l.45: 15
// minutes, l.111: 4 rounds a minute) end it by themselves, as at a round's
// end: the system's, not the rester's act (was: logged as aria's).
TEST(Authors, ADurationRunningOutDuringARestIsTheSystems) {
  Table t = Fight();
  fb::CommandT slow = Condition("aria", "Hobbled");
  With(slow, "rounds", 2);
  ASSERT_TRUE(t.Submit(slow).ok());
  auto rest = t.Submit(Cmd("aria", "short_rest"));
  ASSERT_TRUE(rest.ok()) << rest.status();
  EXPECT_FALSE(t.state().Find("aria")->Has("Hobbled"));
  EXPECT_EQ(ByRule(*rest, "001.duration"), std::make_pair(std::string("system"), fb::Role::System));
}

}  // namespace
}  // namespace combat::kernel::wound_slots
