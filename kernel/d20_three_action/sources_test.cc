// Every modifier names its source and rule (issue 16): one test per kind of
// Advantage/Disadvantage (advantage.cc) and per modifier number; the
// automatic steps are the system's (kernel Decision::SystemSteps); a
// pending act records its command with the actor's author and role.
#include <algorithm>
#include <string>

#include "gtest/gtest.h"
#include "kernel/d20_three_action/internal.h"
#include "kernel/d20_three_action/test_util.h"
#include "kernel/pending.h"
#include "kernel/testing/events.h"

namespace combat::kernel::d20 {
namespace {

using namespace testing;  // NOLINT

// "<source> / <rule>" of the edge source `name` ("?" when absent).
std::string Src(const Edge& e, const std::string& name) {
  for (const auto* v : {&e.advantage, &e.disadvantage}) {
    for (const EdgeSource& s : *v) {
      if (s.name == name) return s.source + " / " + s.rule;
    }
  }
  return "?";
}

// The author and role of the last event of `events` that is a state change
// with rule `rule`: "author/Role".
std::string ByOf(const std::vector<events::EventBuffer>& events,
                 const std::string& rule) {
  const auto [author, role] = kernel::testing::ByRule(events, rule);
  return author == "(none)" ? "?" : author + "/" + fb::EnumNameRole(role);
}

TEST(Sources, FlankingNamesTheFlanker) {
  Table t(D20ThreeAction(),
          MakeRoster({Being("aria", "party", 4, 5), Being("bo", "party", 6, 5),
                      Being("gob", "goblins", 5, 5)}),
          {15, 14, 10});
  EXPECT_EQ(Src(EdgeOf(t, "aria", "gob"), "flanked"), "bo / 000.flanked");
}

TEST(Sources, CoverNamesTheCreatureOrTheSquare) {
  Table t(D20ThreeAction(),
          MakeRoster({Being("aria", "party", 0, 1), Being("gob", "goblins", 6, 1),
                      Being("orc", "goblins", 3, 1)}),
          {15, 10, 5});
  EXPECT_EQ(Src(EdgeOf(t, "aria", "gob", AttackKind::kRanged), "cover"),
            "orc / 000.cover");
  fb::RosterT p =
      MakeRoster({Being("aria", "party", 0, 1), Being("gob", "goblins", 6, 1)});
  Terrain(p, 3, 1, "cover");
  Table u(D20ThreeAction(), p, {15, 10});
  EXPECT_EQ(Src(EdgeOf(u, "aria", "gob", AttackKind::kRanged), "cover"),
            "cover at 3,1 / 000.cover");
}

TEST(Sources, IllusoryCoverNamesTheRuling) {
  Table t(D20ThreeAction(),
          MakeRoster({Being("aria", "party", 0, 0), Being("gob", "goblins", 4, 0)}),
          {15, 10});
  GmAdd(t, "gob", "cover");
  const uint64_t ruling = t.log().back().event().seq();
  EXPECT_EQ(Src(EdgeOf(t, "aria", "gob", AttackKind::kRanged), "cover"),
            "ruling #" + std::to_string(ruling) + " / 000.cover");
}

TEST(Sources, ConcealmentNamesItsSquareOrCondition) {
  fb::RosterT f =
      MakeRoster({Being("aria", "party", 0, 0), Being("gob", "goblins", 4, 0)});
  Terrain(f, 2, 0, "fog");
  Table t(D20ThreeAction(), f, {15, 10});
  EXPECT_EQ(Src(EdgeOf(t, "aria", "gob"), "concealed_fog"),
            "fog at 2,0 / 000.fog");
  fb::RosterT d =
      MakeRoster({Being("aria", "party", 0, 0), Being("gob", "goblins", 4, 0)});
  Terrain(d, 4, 0, "darkness");
  Table u(D20ThreeAction(), d, {15, 10});
  EXPECT_EQ(Src(EdgeOf(u, "aria", "gob"), "concealed_darkness"),
            "darkness at 4,0 / 000.darkness");
  Table v(D20ThreeAction(),
          MakeRoster({Being("aria", "party", 0, 0), Being("gob", "goblins", 4, 0)}),
          {15, 10});
  GmAdd(v, "gob", "invisible");
  EXPECT_EQ(Src(EdgeOf(v, "aria", "gob"), "concealed_invisible"),
            "invisible on gob / 000.invisible");
  Table w(D20ThreeAction(),
          MakeRoster({Being("aria", "party", 0, 0), Being("gob", "goblins", 4, 0)}),
          {15, 10});
  GmAdd(w, "aria", "blinded");
  EXPECT_EQ(Src(EdgeOf(w, "aria", "gob"), "concealed_viewer_blinded"),
            "blinded on aria / 000.blinded");
  // L138: aria, Blinded, is Flat Footed: gob has Advantage from it.
  EXPECT_EQ(Src(EdgeOf(w, "gob", "aria"), "blinded"),
            "blinded on aria / 000.blinded");
}

TEST(Sources, HiddenAttackerNamesWhoItIsHiddenFrom) {
  fb::CombatantSpecT a = Being("aria", "party", 0, 0);
  a.tags.push_back("undetected");
  Table t(D20ThreeAction(), MakeRoster({std::move(a), Being("gob", "goblins", 1, 0)}),
          {15, 10});
  EXPECT_EQ(Src(EdgeOf(t, "aria", "gob"), "attacker_hidden"),
            "aria undetected by gob / 000.undetected");
  EXPECT_EQ(Src(EdgeOf(t, "gob", "aria"), "concealed_undetected"),
            "aria undetected by gob / 000.undetected");
}

TEST(Sources, ConditionsNameTheirBearer) {
  Table t(D20ThreeAction(),
          MakeRoster({Being("aria", "party", 0, 0), Being("gob", "goblins", 1, 0)}),
          {15, 10});
  GmAdd(t, "gob", "prone");
  EXPECT_EQ(Src(EdgeOf(t, "aria", "gob"), "target_prone"), "prone on gob / 000.prone");
  EXPECT_EQ(Src(EdgeOf(t, "gob", "aria"), "prone"), "prone on gob / 000.prone");
  EXPECT_EQ(Src(EdgeOf(t, "aria", "gob", AttackKind::kRanged), "target_prone"),
            "prone on gob / 000.prone");
  GmAdd(t, "aria", "shaken");
  EXPECT_EQ(Src(EdgeOf(t, "aria", "gob"), "shaken"), "shaken on aria / 000.shaken");
  GmAdd(t, "gob", "stunned");
  EXPECT_EQ(Src(EdgeOf(t, "aria", "gob"), "stunned"), "stunned on gob / 000.stunned");
}

TEST(Sources, AFeintNamesTheFeinter) {
  fb::CombatantSpecT a = Being("aria", "party", 0, 0);
  Arm(a, "spear", "1d8", "melee");
  Table t(D20ThreeAction(), MakeRoster({std::move(a), Being("gob", "goblins", 1, 0)}),
          {15, 10});
  fb::CommandT feint = Cmd("aria", "feint", {"gob"});
  feint.weapon = "spear";
  ASSERT_OK(t.Submit(feint, {10}));  // 14 vs Mental Defense 10 (L53)
  EXPECT_EQ(Src(EdgeOf(t, "aria", "gob"), "flat_footed"),
            "flat_footed on gob by aria / 000.flat_footed");
}

TEST(Sources, DodgeNamesTheDodger) {
  Table t(D20ThreeAction(),
          MakeRoster({Being("aria", "party", 0, 0), Being("gob", "goblins", 1, 0)}),
          {10, 15});
  ASSERT_OK(t.Submit(Cmd("gob", "dodge")));
  EXPECT_EQ(Src(EdgeOf(t, "aria", "gob"), "dodge"), "dodging on gob / 000.dodge");
}

TEST(Sources, RangedWithinFiveFeetIsTheRulesAlone) {
  Table t(D20ThreeAction(),
          MakeRoster({Being("aria", "party", 0, 0), Being("gob", "goblins", 1, 0)}),
          {15, 10});
  EXPECT_EQ(Src(EdgeOf(t, "aria", "gob", AttackKind::kRanged), "within_5ft"),
            " / 000.attack.ranged_close");
}

TEST(Sources, RangePenaltyAndCriticalCiteTheirRules) {
  fb::CombatantSpecT a = Being("aria", "party", 0, 0);
  Arm(a, "bow", "1d6", "ranged", "medium", 5, 30);
  Table t(D20ThreeAction(), MakeRoster({std::move(a), Being("gob", "goblins", 8, 0)}),
          {15, 10});
  fb::CommandT shot = Cmd("aria", "attack", {"gob"});
  shot.weapon = "bow";
  auto ev = t.Submit(shot, {20, 4});  // 40 ft: -1 (L31); a natural 20 (L27)
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "000.attack.critical", "range_penalty"), -1);
  EXPECT_EQ(SourceOf(*ev, "range_penalty"), " / 000.attack.range_increment");
  EXPECT_EQ(NumOf(*ev, "000.attack.critical", "critical_x2"), 8);
  EXPECT_EQ(SourceOf(*ev, "critical_x2"), " / 000.attack.critical");
}

TEST(Sources, GmCriticalNamesTheRuling) {
  fb::CombatantSpecT a = Being("aria", "party", 0, 0);
  Arm(a, "spear", "1d8", "melee");
  Table t(D20ThreeAction(), MakeRoster({std::move(a), Being("gob", "goblins", 1, 0)}),
          {15, 10});
  fb::CommandT c = Gm("aria", "attack", "a clean strike");
  c.targets = {"gob"};
  c.weapon = "spear";
  With(c, "critical", 1);
  auto ev = t.Submit(c, {12, 4});
  ASSERT_OK(ev);
  std::string ruling = "?";
  for (const auto& e : *ev) {
    const auto* sc = e.event().body_as_StateChange();
    if (sc != nullptr && sc->change_type() == fb::Change::Ruling) {
      ruling = "ruling #" + std::to_string(e.event().seq()) + " / 000.gm";
    }
  }
  EXPECT_EQ(SourceOf(*ev, "critical.ruled"), ruling);
}

TEST(Sources, BudgetAndSpeedModifiersNameTheCondition) {
  Table t(D20ThreeAction(),
          MakeRoster({Being("aria", "party", 0, 0), Being("gob", "goblins", 3, 0)}),
          {15, 10});
  GmAdd(t, "gob", "slowed");
  auto ev = t.Submit(Cmd("aria", "end_turn"));
  ASSERT_OK(ev);
  EXPECT_EQ(Res(t, "gob", kActions), 2);  // L162
  EXPECT_EQ(SourceOf(*ev, "slowed"), "slowed on gob / 000.slowed");
  GmAdd(t, "gob", "grappled");
  auto mv = t.Submit(MoveTo("gob", {{4, 0}}));
  ASSERT_OK(mv);
  EXPECT_EQ(NumOf(*mv, "000.move", "grapple_halved"), 15);  // L148
  EXPECT_EQ(SourceOf(*mv, "grapple_halved"), "grappled on gob / 000.grappled");
}

TEST(Sources, DifficultStepsNameTheTerrainSquare) {
  fb::RosterT r =
      MakeRoster({Being("aria", "party", 0, 0), Being("gob", "goblins", 9, 9)});
  Terrain(r, 1, 0, "rubble");
  Table t(D20ThreeAction(), r, {15, 10});
  auto ev = t.Submit(MoveTo("aria", {{1, 0}, {2, 0}}));
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "000.move", "spent_ft"), 15);  // L69: out of rubble
  EXPECT_EQ(NumOf(*ev, "000.move", "doubled_ft"), 5);
  EXPECT_EQ(SourceOf(*ev, "doubled_ft"), "rubble at 1,0 / 000.terrain.difficult");
}

TEST(Sources, BleedPenaltyNamesTheBleeding) {
  Table t(D20ThreeAction(),
          MakeRoster({Being("aria", "party", 0, 0), Being("gob", "goblins", 3, 0)}),
          {15, 10});
  GmAdd(t, "gob", "bleeding");
  // gob's turn: Bleed Table 12 (no effect, L135), then 2d6 bleed damage.
  auto ev = t.Submit(Cmd("aria", "end_turn"), {12, 3, 3});
  ASSERT_OK(ev);
  EXPECT_EQ(SourceOf(*ev, "bleed_penalty"), "bleeding on gob / 000.bleed.penalty");
  // The start of gob's turn is the system's; aria's turn ending is hers.
  EXPECT_EQ(ByOf(*ev, "000.bleeding"), "system/System");
  EXPECT_EQ(ByOf(*ev, "000.reaction"), "system/System");
  EXPECT_EQ(Res(t, "gob", kHp), 14);
}

TEST(Sources, ASkillBonusNamesTheStatOrTheDeclaration) {
  Table t(D20ThreeAction(),
          MakeRoster({Being("aria", "party", 0, 0, {{"skill_athletics", 2}}),
                      Being("gob", "goblins", 5, 0)}),
          {15, 10});
  fb::CommandT own = Cmd("aria", "use_skill");
  WithText(own, "skill", "athletics");
  With(own, "dc", 10);
  auto ev = t.Submit(own, {12});
  ASSERT_OK(ev);
  EXPECT_EQ(SourceOf(*ev, "bonus"), "skill_athletics of aria / 000.skill");
  fb::CommandT told = Cmd("aria", "use_skill");
  WithText(told, "skill", "athletics");
  With(told, "dc", 10);
  With(told, "bonus", 5);
  auto ev2 = t.Submit(told, {12});
  ASSERT_OK(ev2);
  uint64_t decl = 0;
  for (const auto& e : *ev2) {
    if (decl == 0 && e.event().body_type() == fb::Body::Declaration) decl = e.event().seq();
  }
  EXPECT_EQ(SourceOf(*ev2, "bonus"),
            "declared #" + std::to_string(decl) + " by aria / 000.skill");
}

TEST(SystemSteps, TurnBoundariesAreTheSystemsAndActsTheActors) {
  fb::CombatantSpecT a = Being("aria", "party", 0, 0);
  Arm(a, "spear", "1d8", "melee");
  Table t(D20ThreeAction(), MakeRoster({std::move(a), Being("gob", "goblins", 1, 0)}),
          {15, 10});
  fb::CommandT c = Cmd("aria", "attack", {"gob"});
  c.weapon = "spear";
  auto hit = t.Submit(c, {15, 4});
  ASSERT_OK(hit);
  EXPECT_EQ(ByOf(*hit, "000.attack.melee"), "aria/Player");  // the damage
  auto end = t.Submit(Cmd("aria", "end_turn"));
  ASSERT_OK(end);
  int system = 0;
  bool ended = false;
  for (const auto& e : *end) {
    const auto* sc = e.event().body_as_StateChange();
    if (sc == nullptr) continue;
    const std::string author = e.event().author()->str();
    if (sc->change_type() == fb::Change::TurnEnded) {
      EXPECT_EQ(author, "aria");  // a turn ending is its owner's
      ended = true;
    } else if (ended) {  // gob's turn starting
      EXPECT_EQ(author, "system");
      EXPECT_EQ(e.event().role(), fb::Role::System);
      ++system;
    }
  }
  EXPECT_GE(system, 3);  // gob's turn, its reactions, its actions
}

TEST(SystemSteps, InitiativeAtTheStartIsTheSystems) {
  Table t(D20ThreeAction(),
          MakeRoster({Being("aria", "party", 0, 0), Being("gob", "goblins", 5, 0)}),
          {15, 10});
  int rolls = 0;
  for (const auto& e : t.log()) {
    if (e.event().body_type() != fb::Body::Roll) continue;
    ++rolls;
    EXPECT_EQ(e.event().author()->str(), "system");
    EXPECT_EQ(e.event().role(), fb::Role::System);
  }
  EXPECT_EQ(rolls, 2);  // one initiative each
  EXPECT_EQ(ByOf(t.log(), "000.initiative.order"), "system/System");
  EXPECT_EQ(ByOf(t.log(), "000.setup"), "gm/GM");  // joining is the set-up's
}

TEST(SystemSteps, AReadiedActionLapsesAsTheSystem) {
  fb::CombatantSpecT a = Being("aria", "party", 0, 0);
  Arm(a, "spear", "1d8", "melee");
  Table t(D20ThreeAction(), MakeRoster({std::move(a), Being("gob", "goblins", 5, 0)}),
          {15, 10});
  fb::CommandT r = Ready("aria", "attack", "moves_within_reach", "gob");
  ASSERT_OK(t.Submit(r));
  // The pending act's recorded command is aria's, as a player.
  const PendingAct* p = FirstPending(t.state(), "aria", kReadiedAct);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->command->author, "aria");
  EXPECT_EQ(p->command->role, fb::Role::Player);
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  auto lapse = t.Submit(Cmd("gob", "end_turn"));  // aria's next turn starts
  ASSERT_OK(lapse);
  bool lapsed = false;
  for (const auto& e : *lapse) {
    const auto* sc = e.event().body_as_StateChange();
    if (sc == nullptr || sc->change_type() != fb::Change::PendingClosed) continue;
    lapsed = true;
    EXPECT_EQ(e.event().author()->str(), "system");
  }
  EXPECT_TRUE(lapsed);
}

TEST(Sources, EveryModifierOfAnEncounterNamesItsSource) {
  fb::CombatantSpecT a = Being("aria", "party", 4, 5);
  Arm(a, "spear", "1d8", "melee");
  fb::CombatantSpecT b = Being("bo", "party", 6, 5);
  Arm(b, "bow", "1d6", "ranged", "medium", 5, 30);
  fb::RosterT r = MakeRoster({std::move(a), std::move(b),
                              Being("gob", "goblins", 5, 5),
                              Being("orc", "goblins", 2, 5)});
  Terrain(r, 2, 6, "rubble");
  Table t(D20ThreeAction(), r, {15, 14, 10, 5});
  GmAdd(t, "gob", "slowed");
  fb::CommandT stab = Cmd("aria", "attack", {"gob"});
  stab.weapon = "spear";
  ASSERT_OK(t.Submit(stab));  // flanked: advantage (seeded dice)
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  fb::CommandT shot = Cmd("bo", "attack", {"orc"});
  shot.weapon = "bow";
  ASSERT_OK(t.Submit(shot));  // gob in the way: cover
  ASSERT_OK(t.Submit(Cmd("bo", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("gob", "trip", {"aria"})));  // opposed: both edges
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_OK(t.Submit(MoveTo("orc", {{2, 6}, {2, 7}, {2, 8}})));  // rubble
  const auto faults =
      kernel::testing::UnsourcedModifiers(t.log(), D20ThreeAction().Rules(), IsModifier);
  EXPECT_TRUE(faults.empty()) << faults.front();
  EXPECT_NE(SourceOf(t.log(), "adv.flanked"), "?");
  EXPECT_NE(SourceOf(t.log(), "dis.cover"), "?");
  EXPECT_NE(SourceOf(t.log(), "slowed"), "?");
  EXPECT_NE(SourceOf(t.log(), "defender.adv.flanked"), "?");
  EXPECT_NE(SourceOf(t.log(), "doubled_ft"), "?");
}

}  // namespace
}  // namespace combat::kernel::d20
