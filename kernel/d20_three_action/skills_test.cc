// Use a Skill (seed 000 L63), Medicine (L127), Hidden (L115), Reactions
// (L19).
#include "gtest/gtest.h"
#include "kernel/d20_three_action/internal.h"
#include "kernel/d20_three_action/test_util.h"

namespace combat::kernel::d20 {
namespace {

using namespace testing;  // NOLINT

fb::CommandT Skill(const std::string& who, const std::string& skill, int dc,
                   std::vector<std::string> targets = {}) {
  fb::CommandT c = Cmd(who, "use_skill", std::move(targets));
  WithText(c, "skill", skill);
  With(c, "dc", dc);
  return c;
}

TEST(Skill, MedicineEndsBleedingAndResetsThePenalty) {
  Table t(
      D20ThreeAction(),
      MakeRoster({Being("aria", "party", 0, 0, {{"skill_medicine", 3}}),
                  Being("bo", "party", 1, 0), Being("gob", "goblins", 9, 9)}),
      {15, 10, 5});
  GmAdd(t, "bo", "bleeding");
  fb::CommandT p = Gm("bo", "gm_set", "cut");
  WithText(p, "resource", "bleed_penalty");
  With(p, "value", 4);
  ASSERT_OK(t.Submit(p));
  ASSERT_OK(t.Submit(Skill("aria", "medicine", 15, {"bo"}), {11}));  // 14 < 15
  EXPECT_TRUE(Has(t, "bo", kBleeding));
  auto ev = t.Submit(Skill("aria", "medicine", 15, {"bo"}), {12});  // 15
  ASSERT_OK(ev);
  EXPECT_TRUE(Cites(*ev, "000.bleed.medicine"));
  EXPECT_FALSE(Has(t, "bo", kBleeding));
  EXPECT_EQ(Res(t, "bo", kBleedPenalty), 0);
  EXPECT_EQ(t.Submit(Skill("aria", "medicine", 15, {"gob"})).status().code(),
            absl::StatusCode::kFailedPrecondition);  // out of reach
  fb::CommandT nodc = Cmd("aria", "use_skill");
  WithText(nodc, "skill", "jump");
  EXPECT_EQ(t.Submit(nodc).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(Skill, AReactionSkillOutsideTheTurn) {
  Table t(
      D20ThreeAction(),
      MakeRoster({Being("aria", "party", 0, 0), Being("gob", "goblins", 9, 9)}),
      {15, 10});
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  fb::CommandT climb = Skill("aria", "climb", 12);
  With(climb, "reaction", 1);
  ASSERT_OK(t.Submit(climb, {12}));  // catching a ledge (L79)
  EXPECT_EQ(Res(t, "aria", kReactions), 0);
  auto out = t.Submit(climb, {12});
  EXPECT_NE(out.status().message().find("no Reaction"), std::string::npos);
}

// 000 l.19 "Every Creature gets 1 Reaction per Round starting on their Turn
// and expiring the start of their next Turn" with l.15 "If a Creature does
// not yet wish to act at the start of their Turn they may decide to delay":
// the delaying creature's Turn started at its original place (README "Hold
// vs Delay", pass 8 reading), so the Reaction given there is the one it
// has; one spent while delaying is not given again when it enters. No
// deviation.
TEST(Skill, ADelayingCreaturesReactionIsTheOneItsOriginalPlaceGave) {
  Table t(
      D20ThreeAction(),
      MakeRoster({Being("aria", "party", 0, 0), Being("gob", "goblins", 9, 9)}),
      {15, 10});
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  EXPECT_EQ(Res(t, "aria", kReactions), 1);  // round 2, at her place
  ASSERT_OK(t.Submit(Cmd("aria", "delay")));
  fb::CommandT climb = Skill("aria", "climb", 12);
  With(climb, "reaction", 1);
  ASSERT_OK(t.Submit(climb, {12}));  // during gob's turn
  ASSERT_OK(t.Submit(Cmd("aria", "enter")));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  EXPECT_EQ(t.state().active, "aria");
  EXPECT_EQ(Res(t, "aria", kActions), 3);
  EXPECT_EQ(Res(t, "aria", kReactions), 0);
  auto out = t.Submit(climb, {12});
  EXPECT_NE(out.status().message().find("no Reaction"), std::string::npos);
}

// 000 l.19: "Reactions cannot be used to take normal Actions and are only
// used for specific abilities": Medicine as a Reaction is refused; the
// Climb check of l.79 is the one this text names.
TEST(Skill, OnlyTheClimbCheckIsAReaction) {
  Table t(
      D20ThreeAction(),
      MakeRoster({Being("aria", "party", 0, 0), Being("gob", "goblins", 9, 9)}),
      {15, 10});
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  fb::CommandT heal = Skill("aria", "medicine", 12);
  With(heal, "reaction", 1);
  auto out = t.Submit(heal, {12});
  EXPECT_EQ(out.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(out.status().message().find("l.19"), std::string::npos) << out.status();
  EXPECT_EQ(Res(t, "aria", kReactions), 1);
}

TEST(Skill, SneakingHidesFromThoseItIsConcealedFrom) {
  fb::RosterT r =
      MakeRoster({Being("aria", "party", 0, 0), Being("gob", "goblins", 5, 0),
                  Being("orc", "goblins", 0, 5)});
  Terrain(r, 2, 0, "fog");
  Table t(D20ThreeAction(), r, {15, 10, 5});
  ASSERT_OK(t.Submit(Skill("aria", "sneak", 10), {10}));
  EXPECT_NE(t.state().Find("aria")->FindRelative(kHidden, "gob"), nullptr);
  EXPECT_EQ(t.state().Find("aria")->FindRelative(kHidden, "orc"), nullptr);
  // L115: ending the turn still concealed from gob keeps it Hidden.
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  EXPECT_NE(t.state().Find("aria")->FindRelative(kHidden, "gob"), nullptr);
}

TEST(Skill, HiddenIsLostWhenTheTurnEndsInTheOpen) {
  fb::RosterT r =
      MakeRoster({Being("aria", "party", 0, 0), Being("gob", "goblins", 5, 0)});
  Tag(*r.combatants[0], "hidden");
  Table t(D20ThreeAction(), r, {15, 10});
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  EXPECT_FALSE(Has(t, "aria", kHidden));
}

}  // namespace
}  // namespace combat::kernel::d20
