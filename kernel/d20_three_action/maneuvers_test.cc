// Maneuvers (seed 000 L47-L59) and grapples (L148, L150).
#include "gtest/gtest.h"
#include "kernel/d20_three_action/internal.h"
#include "kernel/d20_three_action/test_util.h"

namespace combat::kernel::d20 {
namespace {

using namespace testing;  // NOLINT

// aria (melee +4) next to gob (melee +4, a club). aria acts first.
fb::RosterT Pair(std::vector<std::pair<int, int>> walls = {}) {
  fb::CombatantSpecT a = Being("aria", "party", 0, 0);
  Arm(a, "spear", "1d8", "melee");
  fb::CombatantSpecT g = Being("gob", "goblins", 1, 0);
  Arm(g, "club", "1d6", "melee");
  fb::RosterT r = MakeRoster({std::move(a), std::move(g)});
  for (auto [x, y] : walls) Terrain(r, x, y, "wall");
  return r;
}

fb::CommandT M(const std::string& action, const std::string& who = "aria",
               const std::string& target = "gob") {
  return Cmd(who, action, {target});
}

Pos At(const Table& t, const std::string& who) {
  return t.state().Find(who)->at;
}

TEST(Maneuver, FeintMakesTheTargetFlatFootedForTheRestOfTheTurn) {
  Table t(D20ThreeAction(), Pair(), {15, 10});
  auto ev = t.Submit(M("feint"), {10});  // 14 vs Mental Defense 10 (L53)
  ASSERT_OK(ev);
  const Condition* ff = t.state().Find("gob")->FindCondition(kFlatFooted);
  ASSERT_NE(ff, nullptr);
  EXPECT_EQ(ff->relative_to, "aria");
  fb::CommandT hit = M("attack");
  hit.weapon = "spear";
  auto a = t.Submit(hit, {1, 10, 1});  // Advantage: 2d20kh1
  ASSERT_OK(a);
  EXPECT_EQ(NumOf(*a, "000.attack.melee", "adv.flat_footed"), 1);
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  EXPECT_FALSE(Has(t, "gob", kFlatFooted));
}

TEST(Maneuver, CriticalFeintAgainstEveryoneUntilTheNextTurn) {
  Table t(D20ThreeAction(), Pair(), {15, 10});
  ASSERT_OK(t.Submit(M("feint"), {16}));  // 20 = 10 + 10
  const Condition* ff = t.state().Find("gob")->FindCondition(kFlatFooted);
  ASSERT_NE(ff, nullptr);
  EXPECT_EQ(ff->relative_to, "");
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  EXPECT_TRUE(Has(t, "gob", kFlatFooted));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  EXPECT_FALSE(Has(t, "gob", kFlatFooted));
}

// 000 l.53 "If your roll is a Critical Success they are Flat Footed against
// everyone until your next Turn" with l.15 "If a Creature does not yet wish
// to act at the start of their Turn they may decide to delay": a feinter
// that delays its next Turn has started it at its original place (README
// "Hold vs Delay", pass 8 reading), so the Flat Footed ends there, not when
// it enters; a hold does not end it (the same Turn goes on). No deviation.
TEST(Maneuver, ACriticalFeintEndsAtTheFeintersPlaceThoughItDelays) {
  Table t(D20ThreeAction(), Pair(), {15, 10});
  ASSERT_OK(t.Submit(M("feint"), {16}));  // 20 = 10 + 10
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  EXPECT_FALSE(Has(t, "gob", kFlatFooted));  // aria's round 2 turn start
  ASSERT_OK(t.Submit(Cmd("aria", "delay")));
  EXPECT_FALSE(Has(t, "gob", kFlatFooted));
  Table u(D20ThreeAction(), Pair(), {15, 10});
  ASSERT_OK(u.Submit(M("feint"), {16}));
  HoldUntilAfter(u, "aria", "gob");
  ASSERT_OK(u.Submit(Cmd("gob", "end_turn")));
  EXPECT_EQ(u.state().active, "aria");  // her held Turn resumes
  EXPECT_TRUE(Has(u, "gob", kFlatFooted));
  ASSERT_OK(u.Submit(Cmd("aria", "end_turn")));
  EXPECT_TRUE(Has(u, "gob", kFlatFooted));  // round 2: gob, then aria
  ASSERT_OK(u.Submit(Cmd("gob", "end_turn")));
  EXPECT_FALSE(Has(u, "gob", kFlatFooted));
}

TEST(Maneuver, GrappleSharesTheSpaceHalvesSpeedAndMovesTogether) {
  Table t(D20ThreeAction(), Pair(), {15, 10});
  auto ev = t.Submit(M("grapple"), {12, 5});  // 16 vs 9
  ASSERT_OK(ev);
  EXPECT_TRUE(Has(t, "aria", kGrappling));
  EXPECT_TRUE(Has(t, "gob", kGrappled));
  EXPECT_EQ(At(t, "aria"), (Pos{1, 0}));  // same size: the grappled's space
  EXPECT_FALSE(Has(t, "gob", kSlowed));
  // Speed 30 halved: 15 ft (L150); gob moves with aria.
  auto far = t.Submit(MoveTo("aria", {{2, 0}, {3, 0}, {4, 0}, {5, 0}}));
  EXPECT_EQ(far.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(far.status().message().find("halved by the grapple"),
            std::string::npos)
      << far.status();
  EXPECT_NE(far.status().message().find("Grappling, l.150)"), std::string::npos)
      << far.status();
  ASSERT_OK(t.Submit(MoveTo("aria", {{2, 0}, {3, 0}, {4, 0}})));
  EXPECT_EQ(At(t, "gob"), (Pos{4, 0}));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  // gob is Flat Footed to aria (L148) and halved too.
  EXPECT_TRUE(FlatFootedAgainst(t.state(), *t.state().Find("gob"),
                                *t.state().Find("aria"), nullptr));
  // aria rolls 2d20 keep-higher here: both dice given, none seeded.
  ASSERT_OK(t.Submit(Cmd("gob", "escape"), {15, 3, 1}));  // 19 vs 7
  EXPECT_FALSE(Has(t, "aria", kGrappling));
  EXPECT_FALSE(Has(t, "gob", kGrappled));
}

// 000 l.59 "Both Creatures share the space of the larger Creature": gob
// grapples bo (same size: gob moves into bo's square, 7,4), then the ogre
// (size 2, at 5,3) grapples gob and pulls it into its own space. gob has
// left the space it shared with bo, so that grapple ends, as a Push (l.51)
// or a GM's move out of the shared space ends one; l.150 "If you Move the
// Creature you are Grappling moves with you" is gob's own Move, and gob is
// moved (was: gob at 5,3 still grappling bo at 7,4, two squares apart).
TEST(Maneuver, PulledIntoALargerGrapplersSpaceEndsTheOtherGrapple) {
  fb::CombatantSpecT ogre = Large(Being("ogre", "party", 5, 3));
  Table t(D20ThreeAction(),
          MakeRoster({Being("gob", "goblins", 7, 5), std::move(ogre),
                      Being("bo", "party", 7, 4)}),
          {15, 10, 5});
  ASSERT_EQ(t.state().active, "gob");
  ASSERT_OK(t.Submit(Cmd("gob", "grapple", {"bo"}), {12, 8}));
  ASSERT_TRUE(Has(t, "gob", kGrappling));
  ASSERT_EQ(At(t, "gob"), (Pos{7, 4}));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("ogre", "grapple", {"gob"}), {12, 8}));
  EXPECT_EQ(At(t, "gob"), (Pos{5, 3}));  // the larger creature's space
  EXPECT_TRUE(Has(t, "gob", kGrappled));
  EXPECT_TRUE(Has(t, "ogre", kGrappling));
  EXPECT_FALSE(Has(t, "gob", kGrappling));  // out of bo's space
  EXPECT_FALSE(Has(t, "bo", kGrappled));
}

// The GM's ruling that `who` is Grappled by `by` (relative to it), with no
// Grappling behind it, why `reason`.
fb::CommandT GmGrappled(const std::string& who, const std::string& by, const std::string& reason) {
  fb::CommandT held = Gm(who, "gm_condition", reason);
  WithText(held, "name", kGrappled);
  WithText(held, "op", "add");
  WithText(held, "relative_to", by);
  return held;
}

// gob (goblins, 7,5) and, north of it, bo (7,4) and orc (7,3), both of the
// party; gob acts first (15, 10, 5).
fb::RosterT GobBoOrc(std::vector<std::pair<std::string, int64_t>> gob = {}) {
  return MakeRoster({Being("gob", "goblins", 7, 5, gob), Being("bo", "party", 7, 4),
                     Being("orc", "party", 7, 3)});
}

// gob grapples bo (16 vs 12: into bo's square, 7,4), then orc (16 vs 12:
// into orc's square, 7,3, bo moved along, l.150): the three share 7,3.
void GobGrapplesBoAndOrc(Table& t) {
  ASSERT_OK(t.Submit(Cmd("gob", "grapple", {"bo"}), {12, 8}));   // 16 vs 12
  ASSERT_OK(t.Submit(Cmd("gob", "grapple", {"orc"}), {12, 8}));  // 16 vs 12
}

// gob (7,5) and orc (8,4), goblins, around bo (party, 7,4); gob, orc and
// bo act in that order (15, 10, 5).
std::vector<fb::CombatantSpecT> GobOrcBo() {
  return {Being("gob", "goblins", 7, 5), Being("orc", "goblins", 8, 4), Being("bo", "party", 7, 4)};
}

// gob grapples bo (16 vs 12: into bo's square, 7,4) and ends its turn; orc
// grapples bo too (16 vs 12, into the same square).
void GobThenOrcGrappleBo(Table& t) {
  ASSERT_OK(t.Submit(Cmd("gob", "grapple", {"bo"}), {12, 8}));  // 16 vs 12
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_EQ(t.state().active, "orc");
  ASSERT_OK(t.Submit(Cmd("orc", "grapple", {"bo"}), {12, 8}));  // 16 vs 12
}

// 000_ab2f36f2929fdde3.txt l.59 "Both Creatures share the space of the
// larger Creature", l.148 "You are being Grappled by another Creature": the
// GM rules gob Grappled by bo (at 12,8; no Grappling behind it); the ogre
// (size 2, at 5,3) grapples gob and pulls it into its own space, not bo's:
// that Grappled ends as a grapple with a Grappling does. Black-box: only a
// Grappling was looked for, so gob stayed Grappled by bo out of its space.
TEST(Maneuver, PulledIntoALargerGrapplersSpaceEndsARulingsGrapple) {
  fb::CombatantSpecT ogre = Large(Being("ogre", "party", 5, 3));
  Table t(D20ThreeAction(),
          MakeRoster({Being("gob", "goblins", 7, 5), std::move(ogre),
                      Being("bo", "party", 12, 8)}),
          {15, 10, 5});
  ASSERT_OK(t.Submit(GmGrappled("gob", "bo", "caught by bo")));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("ogre", "grapple", {"gob"}), {12, 8}));
  EXPECT_EQ(At(t, "gob"), (Pos{5, 3}));
  EXPECT_NE(t.state().Find("gob")->FindRelative(kGrappled, "ogre"), nullptr);
  EXPECT_EQ(t.state().Find("gob")->FindRelative(kGrappled, "bo"),
            nullptr);  // was: kept
}

// 000_ab2f36f2929fdde3.txt l.150 "If you Move the Creature you are
// Grappling moves with you" (l.148 the same for the grappled creature);
// l.59 "You must have a free hand": gob, with two hands, grapples bo and
// then orc, all three sharing orc's square (7,3; l.59 "they share the space
// of the Grappled Creature"). gob moves one square east, 5 ft of its halved
// 15 ft: both creatures it grapples move with it. Black-box: only the
// first grapple partner moved, orc staying at 7,3 still Grappled by a
// creature a square away.
TEST(Maneuver, AGrapplerOfTwoMovesBoth) {
  Table t(D20ThreeAction(), GobBoOrc(), {15, 10, 5});
  ASSERT_EQ(t.state().active, "gob");
  ASSERT_NO_FATAL_FAILURE(GobGrapplesBoAndOrc(t));
  ASSERT_EQ(At(t, "gob"), (Pos{7, 3}));
  ASSERT_EQ(At(t, "bo"), (Pos{7, 3}));  // moved along into orc's space
  ASSERT_OK(t.Submit(MoveTo("gob", {{8, 3}})));
  EXPECT_EQ(At(t, "gob"), (Pos{8, 3}));
  EXPECT_EQ(At(t, "bo"), (Pos{8, 3}));
  EXPECT_EQ(At(t, "orc"), (Pos{8, 3}));  // was: 7,3
  EXPECT_TRUE(Has(t, "orc", kGrappled));
  EXPECT_TRUE(Has(t, "bo", kGrappled));
}

// 000_ab2f36f2929fdde3.txt l.150 "You can release the other Creature as a
// Free Action to end the Grapple": gob, grappling bo and orc, releases orc
// only (`targets`), still Grappling bo. Black-box: `release` took no
// creature (refused, a field the verb does not take) and let both go.
TEST(Maneuver, AGrapplerOfTwoReleasesOne) {
  Table t(D20ThreeAction(), GobBoOrc(), {15, 10, 5});
  ASSERT_NO_FATAL_FAILURE(GobGrapplesBoAndOrc(t));
  ASSERT_OK(t.Submit(Cmd("gob", "release", {"orc"})));
  EXPECT_FALSE(Has(t, "orc", kGrappled));
  EXPECT_TRUE(Has(t, "bo", kGrappled));
  EXPECT_TRUE(t.state().Find("gob")->FindRelative(kGrappling, "bo") != nullptr);
  EXPECT_EQ(Res(t, "gob", kActions), 1);  // a Free Action (l.150, l.21)
}

// 000_ab2f36f2929fdde3.txt l.59 "On a success you are Grappling the
// Creature ... You must have a free hand": gob (three hands) grapples bo and
// orc; orc is already Grappled by gob, so a second Grapple of it is refused
// as one of bo is. Black-box: only the first grapple was looked at, and gob
// grappled orc again with its third hand.
TEST(Maneuver, ASecondGrappleOfTheSameCreatureIsRefused) {
  Table t(D20ThreeAction(), GobBoOrc({{"hands", 3}}), {15, 10, 5});
  ASSERT_NO_FATAL_FAILURE(GobGrapplesBoAndOrc(t));
  auto again = t.Submit(Cmd("gob", "grapple", {"orc"}), {12, 8});
  EXPECT_EQ(again.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(again.status().message().find("already Grappling orc"),
            std::string::npos)
      << again.status();
}

// 000_ab2f36f2929fdde3.txt l.51 "If you succeed you Push them back 5ft
// ... You must remain adjacent", l.59 (the grappler pushing the creature it
// holds follows it into its square), l.150 "If you Move the Creature you
// are Grappling moves with you": gob, grappling bo and orc in orc's square
// (7,3), pushes orc east (dx 1): orc goes to 8,3, gob follows it and bo
// moves with gob; both grapples go on. Black-box: gob was read as a
// creature pushing its own grappler out of the shared space (only its
// first grapple, bo's, was looked at), so it stayed at 7,3 and the grapple
// with orc ended.
TEST(Maneuver, AGrapplerOfTwoPushingTheSecondFollowsIt) {
  Table t(D20ThreeAction(), GobBoOrc(), {15, 10, 5});
  ASSERT_NO_FATAL_FAILURE(GobGrapplesBoAndOrc(t));
  fb::CommandT push = Cmd("gob", "push", {"orc"});
  With(push, "dx", 1);
  With(push, "dy", 0);
  // orc is Flat Footed to gob (l.148): gob rolls 2d20 keep-higher.
  ASSERT_OK(t.Submit(push, {12, 1, 8}));  // 16 vs 12
  EXPECT_EQ(At(t, "orc"), (Pos{8, 3}));
  EXPECT_EQ(At(t, "gob"), (Pos{8, 3}));  // was: 7,3
  EXPECT_EQ(At(t, "bo"), (Pos{8, 3}));
  EXPECT_NE(t.state().Find("orc")->FindRelative(kGrappled, "gob"), nullptr);
  EXPECT_NE(t.state().Find("bo")->FindRelative(kGrappled, "gob"), nullptr);
}

// 000_ab2f36f2929fdde3.txt l.150 "If you fall Prone the Creature you are
// Grappling falls with you"; l.21 "fall Prone" is a Free Action. gob,
// grappling bo and orc (as above), drops Prone: both fall Prone with it.
// Black-box: only bo (the first grapple) fell.
TEST(Maneuver, AGrapplerOfTwoBringsBothDown) {
  Table t(D20ThreeAction(), GobBoOrc(), {15, 10, 5});
  ASSERT_NO_FATAL_FAILURE(GobGrapplesBoAndOrc(t));
  ASSERT_OK(t.Submit(Cmd("gob", "drop_prone")));
  EXPECT_TRUE(Has(t, "gob", kProne));
  EXPECT_TRUE(Has(t, "bo", kProne));
  EXPECT_TRUE(Has(t, "orc", kProne));  // was: standing
}

// 000_ab2f36f2929fdde3.txt l.150 "As an Action you may prevent the
// Creature you are Grappling from breathing for the next Round": gob,
// grappling bo and orc, chokes orc, the creature named. Black-box: refused,
// "gob is not Grappling orc" (only the first grapple was looked at).
TEST(Maneuver, AGrapplerOfTwoChokesEither) {
  Table t(D20ThreeAction(), GobBoOrc(), {15, 10, 5});
  ASSERT_NO_FATAL_FAILURE(GobGrapplesBoAndOrc(t));
  ASSERT_OK(t.Submit(Cmd("gob", "choke", {"orc"})));
  EXPECT_TRUE(Has(t, "orc", kChoked));
  EXPECT_FALSE(Has(t, "bo", kChoked));
  // The choke is a daughter of that grapple (L77 "a chance to breathe"):
  // releasing both ends it.
  ASSERT_OK(t.Submit(Cmd("gob", "release")));
  EXPECT_FALSE(Has(t, "orc", kChoked));
}

// 000_ab2f36f2929fdde3.txt l.148 "If you succeed an opposed Melee Attack
// roll against the Creature Grappling you to Push them away or Grapple them
// this condition ends": the Grappled condition, not a grapple the escaper
// holds itself. gob grapples bo (moving into bo's square, 7,4); bo, one hand
// still free, grapples orc (into orc's square, 8,4, gob moving with it) and
// escapes gob: bo is no longer Grappled, but still Grappling orc. Black-box:
// the escape ended every grapple of bo, orc's too.
TEST(Maneuver, AnEscapeEndsOnlyTheGrappleEscaped) {
  Table t(D20ThreeAction(),
          MakeRoster({Being("gob", "goblins", 7, 5), Being("bo", "party", 7, 4),
                      Being("orc", "goblins", 8, 4)}),
          {15, 10, 5});
  ASSERT_OK(t.Submit(Cmd("gob", "grapple", {"bo"}), {12, 8}));  // 16 vs 12
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_EQ(t.state().active, "bo");
  ASSERT_OK(t.Submit(Cmd("bo", "grapple", {"orc"}), {12, 8}));  // 16 vs 12
  ASSERT_TRUE(Has(t, "orc", kGrappled));
  // gob's opposed roll has Advantage (bo is Flat Footed to it, l.148):
  // 2d20 keep-higher, 8 and 1.
  ASSERT_OK(t.Submit(Cmd("bo", "escape"), {12, 8, 1}));  // 16 vs 12
  EXPECT_FALSE(Has(t, "bo", kGrappled));
  EXPECT_FALSE(Has(t, "gob", kGrappling));
  EXPECT_TRUE(Has(t, "bo", kGrappling));  // was: ended too
  EXPECT_TRUE(Has(t, "orc", kGrappled));
}

// 000_ab2f36f2929fdde3.txt l.148 "If you succeed an opposed Melee Attack
// roll against the Creature Grappling you to Push them away or Grapple them
// this condition ends": the Grappled condition, also one a GM gave with no
// Grappling behind it (l.150 ends only the grappler's own condition). The
// GM rules bo Grappled by gob (gob holds no Grappling); bo grapples orc
// (into orc's square, 8,4) and escapes gob: bo is no longer Grappled, but
// still Grappling orc. Black-box: with no Grappling of gob's to end, the
// escape ended every grapple of bo, its hold on orc too.
TEST(Maneuver, AnEscapeFromARulingsGrappleEndsOnlyThatCondition) {
  Table t(D20ThreeAction(),
          MakeRoster({Being("gob", "goblins", 7, 5), Being("bo", "party", 7, 4),
                      Being("orc", "goblins", 8, 4)}),
          {15, 10, 5});
  ASSERT_OK(t.Submit(GmGrappled("bo", "gob", "caught by gob")));
  ASSERT_EQ(t.state().Find("gob")->FindCondition(kGrappling), nullptr);
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_EQ(t.state().active, "bo");
  ASSERT_OK(t.Submit(Cmd("bo", "grapple", {"orc"}), {12, 8}));  // 16 vs 12
  ASSERT_TRUE(t.state().Find("orc")->FindRelative(kGrappled, "bo") != nullptr);
  // gob's opposed roll has Advantage (bo is Flat Footed to it, l.148):
  // 2d20 keep-higher, 8 and 1.
  ASSERT_OK(t.Submit(Cmd("bo", "escape", {"gob"}), {12, 8, 1}));  // 16 vs 12
  EXPECT_EQ(t.state().Find("bo")->FindRelative(kGrappled, "gob"), nullptr);
  EXPECT_NE(t.state().Find("bo")->FindRelative(kGrappling, "orc"),
            nullptr);  // was: ended too
  EXPECT_NE(t.state().Find("orc")->FindRelative(kGrappled, "bo"), nullptr);
}

// 000_ab2f36f2929fdde3.txt l.148 "You are Flat Footed to the Creature
// Grappling you", l.107 "Attacks against a Flat Footed Creature have
// Advantage": gob grapples bo (into bo's square, 7,4), then orc grapples bo
// too (into the same square): bo is Flat Footed to both. Black-box: only to
// gob (the first grapple), orc attacking it straight.
TEST(Maneuver, TheGrappledIsFlatFootedToEachGrappler) {
  Table t(D20ThreeAction(), MakeRoster(GobOrcBo()), {15, 10, 5});
  ASSERT_NO_FATAL_FAILURE(GobThenOrcGrappleBo(t));
  ASSERT_TRUE(t.state().Find("bo")->FindRelative(kGrappled, "orc") != nullptr);
  EXPECT_TRUE(EdgeOf(t, "gob", "bo").Has("grappled"));
  EXPECT_TRUE(EdgeOf(t, "orc", "bo").Has("grappled"));  // was: straight
}

// 000_ab2f36f2929fdde3.txt l.148 "If you succeed an opposed Melee Attack
// roll against the Creature Grappling you ... this condition ends": bo,
// grappled by gob and then orc, escapes orc, named in `targets`: no longer
// Grappled by orc, still by gob. Black-box: `escape` took no creature
// (refused, a field the verb does not take); it always rolled against gob.
TEST(Maneuver, AnEscapeNamesWhichGrapplerItEscapes) {
  Table t(D20ThreeAction(), MakeRoster(GobOrcBo()), {15, 10, 5});
  ASSERT_NO_FATAL_FAILURE(GobThenOrcGrappleBo(t));
  ASSERT_OK(t.Submit(Cmd("orc", "end_turn")));
  ASSERT_EQ(t.state().active, "bo");
  // orc's opposed roll has Advantage (bo is Flat Footed to it): 8 and 1.
  ASSERT_OK(t.Submit(Cmd("bo", "escape", {"orc"}), {12, 8, 1}));  // 16 vs 12
  EXPECT_EQ(t.state().Find("bo")->FindRelative(kGrappled, "orc"), nullptr);
  EXPECT_NE(t.state().Find("bo")->FindRelative(kGrappled, "gob"), nullptr);
}

// 000_ab2f36f2929fdde3.txt l.148 "If you succeed an opposed Melee Attack
// roll against the Creature Grappling you to Push them away or Grapple them
// this condition ends": bo, grappled by gob and then orc, Grapples orc (the
// second grappler) with its bite: no longer Grappled by orc, still by gob.
// Black-box: only the first grappler was looked at, so the grapple with orc
// went on.
TEST(Maneuver, GrapplingTheSecondGrapplerEndsItsGrapple) {
  std::vector<fb::CombatantSpecT> cs = GobOrcBo();
  Arm(cs[2], "bite", "1d4", "natural");  // both arms held: l.59 "or Natural Weapon"
  Table t(D20ThreeAction(), MakeRoster(std::move(cs)), {15, 10, 5});
  ASSERT_NO_FATAL_FAILURE(GobThenOrcGrappleBo(t));
  ASSERT_OK(t.Submit(Cmd("orc", "end_turn")));
  ASSERT_EQ(t.state().active, "bo");
  // orc's opposed roll has Advantage (bo is Flat Footed to it): 8 and 1.
  fb::CommandT g = Cmd("bo", "grapple", {"orc"});
  g.weapon = "bite";
  ASSERT_OK(t.Submit(g, {12, 8, 1}));  // 16 vs 12
  EXPECT_EQ(t.state().Find("bo")->FindRelative(kGrappled, "orc"), nullptr);
  EXPECT_EQ(t.state().Find("orc")->FindRelative(kGrappling, "bo"), nullptr);
  EXPECT_NE(t.state().Find("bo")->FindRelative(kGrappled, "gob"), nullptr);
}

// 000 l.148: "If you succeed an opposed Melee Attack roll against the
// Creature Grappling you to Push them away or Grapple them this condition
// ends"; l.47: Push and Grapple "count as Attacks"; l.61: a readied action
// on a specific condition. Black-box: an escape set off no readied
// "attacks" (it was classed as no Attack).
TEST(Maneuver, AnEscapeIsAnAttackForAReadiedAction) {
  Table t(D20ThreeAction(), Pair(), {15, 10});
  ASSERT_OK(t.Submit(M("grapple"), {12, 5}));  // 16 vs 9
  fb::CommandT r = Ready("aria", "attack", "attacks", "gob");
  ASSERT_OK(t.Submit(r));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("gob", "escape")));  // declared: the window opens
  ASSERT_EQ(t.state().windows.size(), 1u);
  EXPECT_TRUE(Has(t, "gob", kGrappled));  // not resolved yet
  EXPECT_EQ(Res(t, "gob", kActions), 2);  // paid at declaration
}

// 000 l.148: "If you succeed an opposed Melee Attack roll against the
// Creature Grappling you to Push them away ... this condition ends"; l.51:
// "If you succeed you Push them back 5ft". Grappler and grappled share a
// space (l.59), so "back" needs the direction: without dx/dy the Push is
// refused (it used to succeed and leave the grappler in place).
TEST(Maneuver, PushingAGrapplerInYourSpaceNeedsADirectionAndMovesIt) {
  Table t(D20ThreeAction(), Pair(), {15, 10});
  ASSERT_OK(t.Submit(M("grapple"), {12, 5}));  // 16 vs 9: aria joins gob at (1,0)
  ASSERT_EQ(At(t, "aria"), (Pos{1, 0}));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  auto out = t.Submit(M("push", "gob", "aria"), {15, 3, 1});
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(out.status().message().find("params.dx"), std::string::npos);
  EXPECT_EQ(Res(t, "gob", kActions), 3);  // nothing spent
  fb::CommandT push = M("push", "gob", "aria");
  With(push, "dx", -1);
  // gob rolls 15 + 4 = 19; aria (the grappler: gob is Flat Footed to her,
  // l.148) 2d20kh1 = 3 + 4 = 7: success by 12, a critical (15 ft by
  // default), but aria goes only to x = 0, then the map's edge.
  ASSERT_OK(t.Submit(push, {15, 3, 1}));
  EXPECT_FALSE(Has(t, "gob", kGrappled));
  EXPECT_FALSE(Has(t, "aria", kGrappling));
  EXPECT_EQ(At(t, "aria"), (Pos{0, 0}));
  EXPECT_EQ(At(t, "gob"), (Pos{1, 0}));  // already adjacent: stays
}

// 000 l.59: "Both Creatures share the space"; l.150: choking is the
// Grappling creature's. A GM ruling that moves one partner out of the
// other's space separates them: the grapple ends (no choke from afar).
TEST(Maneuver, AGmMoveOutOfThePartnersSpaceEndsTheGrapple) {
  Table t(D20ThreeAction(), Pair(), {15, 10});
  ASSERT_OK(t.Submit(M("grapple"), {12, 5}));  // 16 vs 9
  ASSERT_TRUE(Has(t, "gob", kGrappled));
  fb::CommandT river = Gm("gob", "gm_move", "swept away by the river");
  kernel::testing::WithPath(river, {{6, 0}});
  auto ev = t.Submit(river);
  ASSERT_OK(ev);
  EXPECT_EQ(At(t, "gob"), (Pos{6, 0}));
  EXPECT_FALSE(Has(t, "gob", kGrappled));
  EXPECT_FALSE(Has(t, "aria", kGrappling));
  EXPECT_TRUE(Cites(*ev, "000.grappled"));
  EXPECT_FALSE(t.Submit(Cmd("aria", "choke", {"gob"})).ok());
}

// 000_ab2f36f2929fdde3.txt l.59 "Both Creatures share the space ... You
// must have a free hand": gob (8,5) grapples the ogre (size 2, at
// 8,3: 16 vs 12, into its space, 8,3), then bo (7,3: 16 vs 12, into bo's
// square, the ogre moving along to 7,3, l.150). A GM moves gob to 8,4:
// still in the ogre's space (7-8, 3-4), out of bo's. The grapple with bo
// ends, the ogre's goes on. Black-box: only gob's first grapple (the
// ogre's) was looked at, and gob went on grappling bo a square away.
TEST(Maneuver, AGmMoveOutOfOnePartnersSpaceEndsOnlyThatGrapple) {
  fb::CombatantSpecT ogre = Large(Being("ogre", "party", 8, 3));
  Table t(D20ThreeAction(),
          MakeRoster({Being("gob", "goblins", 8, 5), std::move(ogre),
                      Being("bo", "party", 7, 3)}),
          {15, 10, 5});
  ASSERT_EQ(t.state().active, "gob");
  ASSERT_OK(t.Submit(Cmd("gob", "grapple", {"ogre"}), {12, 8}));  // 16 vs 12
  ASSERT_EQ(At(t, "gob"), (Pos{8, 3}));
  // gob is Flanked by bo and the ogre around it (l.109): bo's opposed roll
  // has Advantage, 2d20 keep-higher, 8 and 1.
  ASSERT_OK(t.Submit(Cmd("gob", "grapple", {"bo"}), {12, 8, 1}));  // 16 vs 12
  ASSERT_EQ(At(t, "gob"), (Pos{7, 3}));
  ASSERT_EQ(At(t, "ogre"), (Pos{7, 3}));
  fb::CommandT shove = Gm("gob", "gm_move", "shoved by the crowd");
  kernel::testing::WithPath(shove, {{8, 4}});
  ASSERT_OK(t.Submit(shove));
  EXPECT_EQ(At(t, "gob"), (Pos{8, 4}));
  EXPECT_EQ(t.state().Find("gob")->FindRelative(kGrappling, "bo"), nullptr);
  EXPECT_FALSE(Has(t, "bo", kGrappled));  // was: still Grappled by gob
  EXPECT_NE(t.state().Find("gob")->FindRelative(kGrappling, "ogre"), nullptr);
  EXPECT_TRUE(Has(t, "ogre", kGrappled));
}

// 000 l.59 "Both Creatures share the space"; l.51 "you Push them back
// 5ft": a third creature pushing the grappled one out of its grappler's
// space separates them: the grapple ends.
TEST(Maneuver, PushedOutOfTheGrapplersSpaceEndsTheGrapple) {
  fb::RosterT r = Pair();
  fb::CombatantSpecT orc = Being("orc", "ogres", 0, 1);
  Arm(orc, "club", "1d6", "melee");
  r.combatants.push_back(std::make_unique<fb::CombatantSpecT>(std::move(orc)));
  Table t(D20ThreeAction(), r, {15, 10, 5});
  ASSERT_OK(t.Submit(M("grapple"), {12, 5}));  // aria holds gob at (1,0)
  ASSERT_EQ(At(t, "aria"), (Pos{1, 0}));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_OK(t.Submit(MoveTo("orc", {{0, 0}})));
  // Pushed diagonally (the orc can follow to (1,1) and remain adjacent).
  fb::CommandT push = M("push", "orc", "gob");
  With(push, "distance", 5);
  With(push, "dx", 1);
  With(push, "dy", 1);
  ASSERT_OK(t.Submit(push, {15, 3}));  // 19 vs 7: gob to (2,1)
  EXPECT_EQ(At(t, "gob"), (Pos{2, 1}));
  EXPECT_EQ(At(t, "orc"), (Pos{1, 1}));
  EXPECT_EQ(At(t, "aria"), (Pos{1, 0}));
  EXPECT_FALSE(Has(t, "gob", kGrappled));
  EXPECT_FALSE(Has(t, "aria", kGrappling));
}

// 000_ab2f36f2929fdde3.txt l.59 "Both Creatures share the space", l.51
// "You must remain adjacent to the Enemy": gob and then orc grapple bo (all
// three in 7,4); orc pushes bo 5 ft east and follows it into 8,4 (its
// hold goes with it). bo left gob's space: gob's grapple ends; orc's, in
// the space bo shares, goes on. Black-box: only the first grapple (gob's)
// was looked at, and its end ended every grapple of bo, orc's too.
TEST(Maneuver, PushedOutOfOneGrapplersSpaceKeepsTheGrapplerWhoFollowed) {
  Table t(D20ThreeAction(), MakeRoster(GobOrcBo()), {15, 10, 5});
  ASSERT_NO_FATAL_FAILURE(GobThenOrcGrappleBo(t));
  fb::CommandT push = Cmd("orc", "push", {"bo"});
  With(push, "distance", 5);
  With(push, "dx", 1);
  With(push, "dy", 0);
  // bo is Flat Footed to orc (l.148): orc rolls 2d20 keep-higher, 15 and 1;
  // bo 3: 19 vs 7.
  ASSERT_OK(t.Submit(push, {15, 1, 3}));
  EXPECT_EQ(At(t, "bo"), (Pos{8, 4}));
  EXPECT_EQ(At(t, "orc"), (Pos{8, 4}));
  EXPECT_EQ(At(t, "gob"), (Pos{7, 4}));
  EXPECT_EQ(t.state().Find("bo")->FindRelative(kGrappled, "gob"), nullptr);
  EXPECT_EQ(t.state().Find("gob")->FindCondition(kGrappling), nullptr);
  EXPECT_NE(t.state().Find("bo")->FindRelative(kGrappled, "orc"),
            nullptr);  // was: ended too
  EXPECT_NE(t.state().Find("orc")->FindRelative(kGrappling, "bo"), nullptr);
}

// 000_ab2f36f2929fdde3.txt l.51 "You must remain adjacent to the Enemy",
// l.150 "If you Move the Creature you are Grappling moves with you", l.59
// "share the space of the larger Creature": the ogre (size 2, squares
// 2-3,0-1) grapples zed and then ann (both pulled to 2,0), and pushes tim
// (1,0) 5 ft west to 0,0. It follows to 1,0 (its space now covers 2,0,
// where the two it holds are, and they move with it): tim at 0,0, the ogre,
// zed and ann at 1,0. Black-box: only the first creature held (zed) was
// let through; ann, the second, blocked the follow-up, so the push stopped
// at 0 ft (the ogre could not stay adjacent).
TEST(Maneuver, AGrapplerOfTwoFollowsItsPushOverBoth) {
  fb::CombatantSpecT ogre = Large(Being("ogre", "ogres", 2, 0));
  Table t(D20ThreeAction(),
          MakeRoster({std::move(ogre), Being("zed", "party", 4, 0),
                      Being("ann", "party", 4, 1), Being("tim", "party", 1, 0)}),
          {15, 10, 5, 3});
  ASSERT_EQ(t.state().active, "ogre");
  // The ogre is Flanked by tim and zed / ann (l.109): the defender's opposed
  // roll has Advantage (2d20 keep-higher, 8 and 1): 16 vs 12 each.
  ASSERT_OK(t.Submit(Cmd("ogre", "grapple", {"zed"}), {12, 8, 1}));
  ASSERT_OK(t.Submit(Cmd("ogre", "grapple", {"ann"}), {12, 8, 1}));
  ASSERT_EQ(At(t, "zed"), (Pos{2, 0}));
  ASSERT_EQ(At(t, "ann"), (Pos{2, 0}));
  fb::CommandT push = Cmd("ogre", "push", {"tim"});
  With(push, "distance", 5);
  With(push, "dx", -1);
  With(push, "dy", 0);
  ASSERT_OK(t.Submit(push, {15, 3}));  // 19 vs 7
  EXPECT_EQ(At(t, "tim"), (Pos{0, 0}));  // was: 1,0
  EXPECT_EQ(At(t, "ogre"), (Pos{1, 0}));
  EXPECT_EQ(At(t, "zed"), (Pos{1, 0}));
  EXPECT_EQ(At(t, "ann"), (Pos{1, 0}));
  EXPECT_TRUE(Has(t, "zed", kGrappled));
  EXPECT_TRUE(Has(t, "ann", kGrappled));
}

// 000 l.51: "You must remain adjacent to the Enemy and cannot Move more
// than your Speed": like the Speed, adjacency caps the push. Black-box: a
// pusher whose follow-up was blocked ended 15 ft from the creature it
// pushed. The push now stops where the pusher, following as far as it can,
// is still adjacent (the roll is made first, so nothing is refused).
TEST(Maneuver, APushStopsWhereThePusherCanNoLongerFollow) {
  {
    // aria's own follow-up square (0,1) is a wall: a critical push of 15 ft
    // south moves gob 5 ft, to (1,1), still adjacent to aria at (0,0).
    Table t(D20ThreeAction(), Pair({{0, 1}}), {15, 10});
    fb::CommandT push = M("push");
    With(push, "dx", 0);
    With(push, "dy", 1);
    auto ev = t.Submit(push, {18, 2});  // 22 vs 6: critical, up to 15 ft
    ASSERT_OK(ev);
    EXPECT_EQ(At(t, "gob"), (Pos{1, 1}));
    EXPECT_EQ(At(t, "aria"), (Pos{0, 0}));
    EXPECT_EQ(NumOf(*ev, "000.push", "pusher_adjacent_ft"), 5);
    EXPECT_EQ(Res(t, "gob", kHp), 20);  // stopped by the pusher, not a wall
    EXPECT_FALSE(Has(t, "gob", kProne));
  }
  {
    // The orc pushes gob straight out of aria's space, but aria's square is
    // where it would follow: gob cannot be pushed away from the orc, stays
    // in aria's space and in her grapple.
    fb::RosterT r = Pair();
    fb::CombatantSpecT orc = Being("orc", "ogres", 0, 1);
    Arm(orc, "club", "1d6", "melee");
    r.combatants.push_back(std::make_unique<fb::CombatantSpecT>(std::move(orc)));
    Table t(D20ThreeAction(), r, {15, 10, 5});
    ASSERT_OK(t.Submit(M("grapple"), {12, 5}));  // aria holds gob at (1,0)
    ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
    ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
    ASSERT_OK(t.Submit(MoveTo("orc", {{0, 0}})));
    fb::CommandT push = M("push", "orc", "gob");
    With(push, "distance", 5);
    auto ev = t.Submit(push, {15, 3});  // 19 vs 7: a success
    ASSERT_OK(ev);
    EXPECT_EQ(NumOf(*ev, "000.push", "pusher_adjacent_ft"), 0);
    EXPECT_EQ(At(t, "gob"), (Pos{1, 0}));
    EXPECT_EQ(At(t, "orc"), (Pos{0, 0}));
    EXPECT_TRUE(Has(t, "gob", kGrappled));
  }
}

// 000 l.51 "cannot Move more than your Speed" with l.69 "all movement
// through it counts as moving twice as far ... Determined by the square you
// are moving out of": the pusher's follow-up out of difficult ground counts
// double. aria (Speed 10) stands in rubble at (0,0); a critical push of up to
// 15 ft east: following 1 square out of the rubble counts 10 ft (= her
// Speed), a 2nd would make 10 + 5 = 15 > 10. So gob goes 5 ft to (2,0) and
// aria follows to (1,0) (was: 10 ft, the Speed counted in plain squares).
TEST(Maneuver, APushersFollowUpOutOfDifficultGroundCountsDouble) {
  fb::RosterT r = Pair();
  Terrain(r, 0, 0, "rubble");
  for (auto& c : r.combatants) {
    if (c->id != "aria") continue;
    for (auto& n : c->stats) {
      if (n->key == "speed") n->value = 10;
    }
  }
  Table t(D20ThreeAction(), r, {15, 10});
  fb::CommandT push = M("push");
  With(push, "distance", 15);
  auto ev = t.Submit(push, {18, 2});  // 18+4 = 22 vs 2+4 = 6: critical
  ASSERT_OK(ev);
  EXPECT_EQ(At(t, "gob"), (Pos{2, 0}));
  EXPECT_EQ(At(t, "aria"), (Pos{1, 0}));
  {
    // Without the rubble: 10 ft, two plain squares.
    fb::RosterT plain = Pair();
    for (auto& c : plain.combatants) {
      if (c->id != "aria") continue;
      for (auto& n : c->stats) {
        if (n->key == "speed") n->value = 10;
      }
    }
    Table u(D20ThreeAction(), plain, {15, 10});
    ASSERT_OK(u.Submit(push, {18, 2}));
    EXPECT_EQ(At(u, "gob"), (Pos{3, 0}));
    EXPECT_EQ(At(u, "aria"), (Pos{2, 0}));
  }
}

// 000 l.51 "If your roll is a Critical Success you may Push them up to 15ft.
// ... cannot Move more than your Speed": a push cut short by the pusher's
// Speed says so, as the adjacency limit does. aria (Speed 10) pushes gob
// critically (18+4 = 22 vs 2+4 = 6), 15 ft asked: she follows 10 ft (2
// squares), so the push goes 10 ft; an outcome records (ft 15 asked),
// pusher_speed_ft 10, pusher_follow_ft 10 (was: none). A 5 ft push within
// her Speed records none.
TEST(Maneuver, APushCutShortByThePushersSpeedSaysWhy) {
  fb::RosterT r = Pair();
  for (auto& c : r.combatants) {
    if (c->id != "aria") continue;
    for (auto& n : c->stats) {
      if (n->key == "speed") n->value = 10;
    }
  }
  Table t(D20ThreeAction(), r, {15, 10});
  fb::CommandT push = M("push");
  With(push, "distance", 15);
  auto ev = t.Submit(push, {18, 2});
  ASSERT_OK(ev);
  EXPECT_EQ(At(t, "gob"), (Pos{3, 0}));
  EXPECT_EQ(At(t, "aria"), (Pos{2, 0}));
  EXPECT_EQ(NumOf(*ev, "000.push", "ft"), 10);  // the move, last
  EXPECT_EQ(NumOf(*ev, "000.push", "pusher_speed_ft"), 10);
  EXPECT_EQ(NumOf(*ev, "000.push", "pusher_follow_ft"), 10);
  EXPECT_EQ(NumOf(*ev, "000.push", "pusher_adjacent_ft"), -999);
  Table u(D20ThreeAction(), r, {15, 10});
  auto plain = u.Submit(M("push"), {10, 5});  // 14 vs 9: a success, 5 ft
  ASSERT_OK(plain);
  EXPECT_EQ(At(u, "gob"), (Pos{2, 0}));
  EXPECT_EQ(NumOf(*plain, "000.push", "pusher_follow_ft"), -999);
}

// 000 l.144 "An Entangled Creature cannot Move from its space under its own
// Power" with l.51 "You must remain adjacent to the Enemy and cannot Move
// more than your Speed": an Entangled pusher does not follow, so its push
// stops where it is still adjacent: 0 ft (was: aria followed to (1,0)).
TEST(Maneuver, AnEntangledPusherDoesNotFollow) {
  Table t(D20ThreeAction(), Pair(), {15, 10});
  GmAdd(t, "aria", "entangled");
  auto ev = t.Submit(M("push"), {15, 3});  // 19 vs 7: a success, 5 ft
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "000.push", "pusher_adjacent_ft"), 0);
  EXPECT_EQ(At(t, "gob"), (Pos{1, 0}));
  EXPECT_EQ(At(t, "aria"), (Pos{0, 0}));
}

// 000 l.73 "Crawling - While Prone you can Move 5ft" (l.160 "Crawl 5ft")
// with l.51 "You must remain adjacent to the Enemy": a Prone pusher follows
// one square at most. aria (Prone: Disadvantage, gob's roll Advantage)
// 18+4 = 22 vs 2+4 = 6: a critical, up to 15 ft; she crawls 5 ft after gob,
// so gob goes 5 ft to (2,0) and she to (1,0) (was: 15 ft each, walking
// while Prone).
TEST(Maneuver, APronePusherFollowsOneSquare) {
  Table t(D20ThreeAction(), Pair(), {15, 10});
  ASSERT_OK(t.Submit(Cmd("aria", "drop_prone")));
  fb::CommandT push = M("push");
  With(push, "distance", 15);
  auto ev = t.Submit(push, {18, 18, 2, 2});
  ASSERT_OK(ev);
  EXPECT_EQ(At(t, "gob"), (Pos{2, 0}));
  EXPECT_EQ(At(t, "aria"), (Pos{1, 0}));
  EXPECT_TRUE(Has(t, "aria", kProne));
  // The outcome says why (l.51): her Speed is 30 ft, her follow-up 5 ft.
  EXPECT_EQ(NumOf(*ev, "000.push", "pusher_speed_ft"), 30);
  EXPECT_EQ(NumOf(*ev, "000.push", "pusher_follow_ft"), 5);
}

// 000 l.148 "If you Move the Creature Grappling you moves with you": a
// grappled pusher's follow-up (l.51 "You must remain adjacent") moves its
// grappler along. The orc (14 vs 9: a success, not a critical) holds aria
// in her square (0,0); aria pushes gob (14 vs 9) 5 ft to (2,0), follows to
// (1,0), and the orc comes with her, still grappling (was: left at (0,0),
// the grapple kept across two squares).
TEST(Maneuver, AGrappledPushersGrapplerMovesWithHer) {
  fb::RosterT r = Pair();
  fb::CombatantSpecT orc = Being("orc", "ogres", 0, 1);
  Arm(orc, "club", "1d6", "melee");
  r.combatants.push_back(std::make_unique<fb::CombatantSpecT>(std::move(orc)));
  Table t(D20ThreeAction(), r, {15, 10, 5});
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_OK(t.Submit(M("grapple", "orc", "aria"), {10, 5}));
  ASSERT_EQ(At(t, "orc"), (Pos{0, 0}));
  ASSERT_OK(t.Submit(Cmd("orc", "end_turn")));
  ASSERT_OK(t.Submit(M("push"), {10, 5}));
  EXPECT_EQ(At(t, "gob"), (Pos{2, 0}));
  EXPECT_EQ(At(t, "aria"), (Pos{1, 0}));
  EXPECT_EQ(At(t, "orc"), (Pos{1, 0}));
  EXPECT_TRUE(Has(t, "aria", kGrappled));
  EXPECT_TRUE(Has(t, "orc", kGrappling));
}

// 000 l.148 "If you Move the Creature Grappling you moves with you" with
// l.59 "If both are the same Size they share the space of the Grappled
// Creature": aria, held by the orc in her square (0,0), grapples gob (14 vs
// 9) and moves into his square (1,0); the orc moves with her and still
// holds her (was: left at (0,0), grappling her across two squares).
TEST(Maneuver, AGrappledGrapplersGrapplerMovesWithHerIntoTheSharedSpace) {
  fb::RosterT r = Pair();
  fb::CombatantSpecT orc = Being("orc", "ogres", 0, 1);
  Arm(orc, "club", "1d6", "melee");
  r.combatants.push_back(std::make_unique<fb::CombatantSpecT>(std::move(orc)));
  Table t(D20ThreeAction(), r, {15, 10, 5});
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_OK(t.Submit(M("grapple", "orc", "aria"), {10, 5}));
  ASSERT_OK(t.Submit(Cmd("orc", "end_turn")));
  ASSERT_OK(t.Submit(M("grapple"), {10, 5}));
  EXPECT_EQ(At(t, "aria"), (Pos{1, 0}));
  EXPECT_EQ(At(t, "orc"), (Pos{1, 0}));
  EXPECT_TRUE(Has(t, "aria", kGrappled));
  EXPECT_TRUE(Has(t, "aria", kGrappling));
  EXPECT_TRUE(Has(t, "gob", kGrappled));
}

TEST(Maneuver, CriticalGrappleSlowsForOneRound) {
  Table t(D20ThreeAction(), Pair(), {15, 10});
  ASSERT_OK(t.Submit(M("grapple"), {18, 2}));  // 22 vs 6
  EXPECT_TRUE(Has(t, "gob", kSlowed));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  EXPECT_EQ(Res(t, "gob", kActions), 2);  // L162
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  EXPECT_FALSE(Has(t, "gob", kSlowed));
}

// seed 000 l.59 "On a Critical Success the Grappled Creature is Slowed for
// one Round" with l.152 "An Incapacitated Creature gets 2 less Actions ...
// to a minimum of 0" and l.162 "one less Action ... to a minimum of 0". By
// hand: aria's critical Grapple (22 vs 6) Slows gob, and gob drops to 0 HP
// before its Turn (the GM's `gm_set hp 0`: Incapacitated). Its Round-1
// Turn: 3 - 1 - 2 = 0 Actions. The Slowed ends as aria's Round-2 Turn
// comes (l.13), so gob's Round-2 Turn has 3 - 2 = 1 Action.
TEST(Maneuver, ACriticalGrapplesSlowOnAKnockedOutTargetStillEndsWithTheRound) {
  Table t(D20ThreeAction(), Pair(), {15, 10});
  ASSERT_OK(t.Submit(M("grapple"), {18, 2}));  // 22 vs 6
  ASSERT_TRUE(Has(t, "gob", kSlowed));
  fb::CommandT ko = Gm("gob", "gm_set", "test");
  WithText(ko, "resource", "hp");
  With(ko, "value", 0);
  ASSERT_OK(t.Submit(ko));
  ASSERT_TRUE(Has(t, "gob", kIncapacitated));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn"), {12, 1, 1}));  // bleed: 12, 2
  ASSERT_EQ(t.state().active, "gob");
  EXPECT_EQ(Res(t, "gob", kActions), 0);
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  EXPECT_FALSE(Has(t, "gob", kSlowed));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn"), {12, 1, 1}));
  ASSERT_EQ(t.state().active, "gob");
  EXPECT_EQ(Res(t, "gob", kActions), 1);
}

// seed 000 l.59 "On a Critical Success the Grappled Creature is Slowed for
// one Round" with l.13 "(If something has a Duration of 1 Round it will end
// after all other Creatures have gotten a Turn, not the end of the
// Initiative count)" and l.162 "one less Action". gob acts first (15), aria
// second (10): aria's critical Grapple (22 vs 6) in Round 1 lasts through
// gob's Round 2 Turn, 3 - 1 = 2 Actions, and ends when aria's Round 2 Turn
// comes (gob, the only other creature, has had its Turn).
TEST(Maneuver, ACriticalGrapplesSlowLastsThroughTheNextTurnOfAnEarlierTarget) {
  Table t(D20ThreeAction(), Pair(), {10, 15});
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_OK(t.Submit(M("grapple"), {18, 2}));
  EXPECT_TRUE(Has(t, "gob", kSlowed));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  EXPECT_TRUE(Has(t, "gob", kSlowed));
  EXPECT_EQ(Res(t, "gob", kActions), 2);  // L162
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  EXPECT_FALSE(Has(t, "gob", kSlowed));
  EXPECT_EQ(Res(t, "aria", kActions), 3);
}

// seed 000 l.150 "If you are smaller than the Creature you are Grappling,
// you are Entangled", l.148 "otherwise your Speed is halved ... If you Move
// the Creature Grappling you moves with you", l.59 "share the space of the
// larger Creature", by hand: small aria (size_rank 1) grapples gob
// (size_rank 2; 16 vs 9). aria is Entangled and in gob's square (1, 0);
// gob's Speed 30 is halved to 15 ft: 20 ft is refused, 15 ft goes, and aria
// goes along to (4, 0).
TEST(Maneuver, ASmallGrapplerIsEntangledAndDraggedAlong) {
  fb::RosterT r = Pair();
  auto rank = [](fb::CombatantSpecT& c, int64_t v) {
    c.stats.push_back(std::make_unique<fb::NumberT>());
    c.stats.back()->key = "size_rank";
    c.stats.back()->value = v;
  };
  rank(*r.combatants[0], 1);
  rank(*r.combatants[1], 2);
  Table t(D20ThreeAction(), r, {15, 10});
  ASSERT_OK(t.Submit(M("grapple"), {12, 5}));
  EXPECT_TRUE(Has(t, "aria", kEntangled));
  EXPECT_FALSE(Has(t, "gob", kEntangled));
  EXPECT_EQ(At(t, "aria"), (Pos{1, 0}));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  auto far = t.Submit(MoveTo("gob", {{2, 0}, {3, 0}, {4, 0}, {5, 0}}));
  EXPECT_EQ(far.status().code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_OK(t.Submit(MoveTo("gob", {{2, 0}, {3, 0}, {4, 0}})));
  EXPECT_EQ(At(t, "gob"), (Pos{4, 0}));
  EXPECT_EQ(At(t, "aria"), (Pos{4, 0}));
  EXPECT_TRUE(Has(t, "aria", kGrappling));
}

// seed 000 l.148 "If you fall Prone the Creature Grappling you falls with
// you" and l.150 "If you fall Prone the Creature you are Grappling falls
// with you", by hand: aria grapples gob (16 vs 9). Tripped by aria (16 vs
// 9), gob falls Prone and so does aria; in another table, aria's own
// drop_prone (l.21, a Free Action) takes gob down with her.
TEST(Maneuver, AGrapplePairFallsProneTogether) {
  Table t(D20ThreeAction(), Pair(), {15, 10});
  ASSERT_OK(t.Submit(M("grapple"), {12, 5}));
  // gob is Flat Footed to its grappler (l.148): 2d20kh1 = 12.
  ASSERT_OK(t.Submit(M("trip"), {12, 1, 5}));
  EXPECT_TRUE(Has(t, "gob", kProne));
  EXPECT_TRUE(Has(t, "aria", kProne));
  Table u(D20ThreeAction(), Pair(), {15, 10});
  ASSERT_OK(u.Submit(M("grapple"), {12, 5}));
  ASSERT_OK(u.Submit(Cmd("aria", "drop_prone")));
  EXPECT_TRUE(Has(u, "aria", kProne));
  EXPECT_TRUE(Has(u, "gob", kProne));
  EXPECT_EQ(Res(u, "aria", kActions), 2);  // a Free Action
}

// seed 000 l.59 "Both Creatures share the space of the larger Creature",
// l.148 "If you are smaller than the Creature Grappling you, you are
// Entangled", l.150 "otherwise your Speed is halved", by hand: large aria
// (size_rank 3) grapples gob (size_rank 2; 16 vs 9): gob is drawn into
// aria's square (0, 0) and Entangled; aria's Speed 30 is halved: 15 ft
// (3 squares) go, 20 ft do not, and gob goes along.
TEST(Maneuver, ALargerGrapplerKeepsItsSpaceAndTheSmallerIsEntangled) {
  fb::RosterT r = Pair();
  auto rank = [](fb::CombatantSpecT& c, int64_t v) {
    c.stats.push_back(std::make_unique<fb::NumberT>());
    c.stats.back()->key = "size_rank";
    c.stats.back()->value = v;
  };
  rank(*r.combatants[0], 3);
  rank(*r.combatants[1], 2);
  Table t(D20ThreeAction(), r, {15, 10});
  ASSERT_OK(t.Submit(M("grapple"), {12, 5}));
  EXPECT_EQ(At(t, "gob"), (Pos{0, 0}));
  EXPECT_EQ(At(t, "aria"), (Pos{0, 0}));
  EXPECT_TRUE(Has(t, "gob", kEntangled));
  EXPECT_FALSE(Has(t, "aria", kEntangled));
  auto far = t.Submit(MoveTo("aria", {{0, 1}, {0, 2}, {0, 3}, {0, 4}}));
  EXPECT_EQ(far.status().code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_OK(t.Submit(MoveTo("aria", {{0, 1}, {0, 2}, {0, 3}})));
  EXPECT_EQ(At(t, "gob"), (Pos{0, 3}));
}

TEST(Maneuver, GrappleNeedsAFreeHand) {
  fb::RosterT r = Pair();
  r.combatants.push_back(
      std::make_unique<fb::CombatantSpecT>(Being("orc", "goblins", 0, 1)));
  auto hands = std::make_unique<fb::NumberT>();
  hands->key = "hands";
  hands->value = 1;
  r.combatants[0]->stats.push_back(std::move(hands));
  Table t(D20ThreeAction(), r, {15, 10, 5});
  ASSERT_OK(t.Submit(M("grapple"), {12, 5}));
  auto out = t.Submit(M("grapple", "aria", "orc"));
  EXPECT_EQ(out.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(out.status().message().find("free hand"), std::string::npos);
  ASSERT_OK(t.Submit(Cmd("aria", "choke", {"gob"})));  // L150
  EXPECT_TRUE(Has(t, "gob", kChoked));
  ASSERT_OK(t.Submit(Cmd("aria", "release")));  // free
  EXPECT_FALSE(Has(t, "gob", kGrappled));
  EXPECT_EQ(Res(t, "aria", kActions), 1);
}

// L77: "You can hold your breath a number of Rounds equal to your STR. At
// the end of this time you drop to 0 HP and become Incapacitated. At the
// end of your next Turn if you still have not gotten a chance to breathe
// you die." L150: "As an Action you may prevent the Creature you are
// Grappling from breathing for the next Round."
TEST(Maneuver, ChokingCountsStrRoundsThenZeroHpThenDeath) {
  for (bool keep_choking : {true, false}) {
    fb::CombatantSpecT a = Being("aria", "party", 0, 0);
    fb::CombatantSpecT g = Being("gob", "goblins", 1, 0, {{"str", 2}});
    Table t(D20ThreeAction(), MakeRoster({std::move(a), std::move(g)}),
            {15, 10});
    ASSERT_OK(t.Submit(M("grapple"), {12, 5}));  // 16 vs 9
    ASSERT_OK(t.Submit(M("choke")));
    ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
    ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));  // round 1 held
    const Condition* held = t.state().Find("gob")->FindCondition(
        kHoldingBreath);
    ASSERT_NE(held, nullptr);
    EXPECT_EQ(held->level, 1);
    EXPECT_EQ(Res(t, "gob", kHp), 20);
    EXPECT_FALSE(Has(t, "gob", kChoked));  // "for the next Round" is over
    ASSERT_OK(t.Submit(M("choke")));
    ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
    ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));  // STR 2 rounds: 0 HP
    EXPECT_EQ(Res(t, "gob", kHp), 0);
    EXPECT_TRUE(Has(t, "gob", kIncapacitated));
    EXPECT_TRUE(Has(t, "gob", kProne));
    EXPECT_TRUE(Has(t, "gob", kSuffocating));
    EXPECT_FALSE(Has(t, "gob", kDead));
    if (keep_choking) ASSERT_OK(t.Submit(M("choke")));
    // gob's turn starts Bleeding: table 12 ("-"), 2d6 = 1 + 1.
    ASSERT_OK(t.Submit(Cmd("aria", "end_turn"), {12, 1, 1}));
    ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
    EXPECT_EQ(Has(t, "gob", kDead), keep_choking);
    EXPECT_FALSE(Has(t, "gob", kSuffocating));
    EXPECT_FALSE(Has(t, "gob", kHoldingBreath));
  }
}

// 000 l.77: "You can hold your breath a number of Rounds equal to your
// STR. At the end of this time you drop to 0 HP and become Incapacitated.
// At the end of your next Turn if you still have not gotten a chance to
// breathe you die." STR 0 holds it for 0 Rounds: out of breath as soon as
// it is choked (l.150), dead at the end of its next Turn still choked (was:
// a Round held, as with STR 1). STR -1 holds no Round either.
TEST(Maneuver, StrZeroOrLessHoldsItsBreathForNoRound) {
  for (int64_t str : {0, -1}) {
    fb::CombatantSpecT a = Being("aria", "party", 0, 0);
    fb::CombatantSpecT g = Being("gob", "goblins", 1, 0, {{"str", str}});
    Table t(D20ThreeAction(), MakeRoster({std::move(a), std::move(g)}),
            {15, 10});
    ASSERT_OK(t.Submit(M("grapple"), {12, 5}));  // 16 vs 5 + 1 + STR
    ASSERT_OK(t.Submit(M("choke")));
    EXPECT_EQ(Res(t, "gob", kHp), 0) << str;
    EXPECT_TRUE(Has(t, "gob", kSuffocating));
    EXPECT_TRUE(Has(t, "gob", kIncapacitated));
    EXPECT_TRUE(Has(t, "gob", kProne));
    // gob's turn starts Bleeding: table 12 ("-"), 2d6 = 1 + 1: HP -2.
    ASSERT_OK(t.Submit(Cmd("aria", "end_turn"), {12, 1, 1}));
    EXPECT_FALSE(Has(t, "gob", kDead));
    ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));  // still choked: dies
    EXPECT_TRUE(Has(t, "gob", kDead)) << str;
  }
}

// 000 l.77 with the GM's `choked` (water, smoke: README, L77 row): a
// creature with STR 0 is out of breath as soon as it cannot breathe, as
// when choked by a grapple.
TEST(Maneuver, StrZeroIsOutOfBreathWhenTheGmCutsItsBreathOff) {
  fb::CombatantSpecT a = Being("aria", "party", 0, 0);
  fb::CombatantSpecT g = Being("gob", "goblins", 1, 0, {{"str", 0}});
  Table t(D20ThreeAction(), MakeRoster({std::move(a), std::move(g)}),
          {15, 10});
  GmAdd(t, "gob", "choked");
  EXPECT_EQ(Res(t, "gob", kHp), 0);
  EXPECT_TRUE(Has(t, "gob", kSuffocating));
  EXPECT_TRUE(Has(t, "gob", kIncapacitated));
}

// 000 l.77 "At the end of this time you drop to 0 HP ... At the end of your
// next Turn if you still have not gotten a chance to breathe you die": a
// STR 0 creature whose breath a readied choke (l.61) cuts off in its own
// Turn drops then, and that Turn is not its next one: it lives through its
// end; its next Turn ends with breath (the choke lasted "the next Round",
// l.150, until aria's turn).
TEST(Maneuver, CutOffInItsOwnTurnItDiesOnlyAtTheEndOfItsNextTurn) {
  fb::CombatantSpecT a = Being("aria", "party", 0, 0);
  fb::CombatantSpecT g = Being("gob", "goblins", 1, 0, {{"str", 0}});
  Table t(D20ThreeAction(), MakeRoster({std::move(a), std::move(g)}),
          {15, 10});
  ASSERT_OK(t.Submit(M("grapple"), {12, 5}));  // 16 vs 7
  fb::CommandT r = Ready("aria", "choke", "any_action", "gob");
  ASSERT_OK(t.Submit(r));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("gob", "dodge")));
  ASSERT_EQ(t.state().windows.size(), 1u);
  fb::CommandT choke = Cmd("aria", "choke", {"gob"});
  choke.window = t.state().windows.begin()->first;
  ASSERT_OK(t.Submit(choke));
  EXPECT_EQ(Res(t, "gob", kHp), 0);
  EXPECT_TRUE(Has(t, "gob", kSuffocating));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));  // this Turn: not the next
  EXPECT_FALSE(Has(t, "gob", kDead));
  EXPECT_TRUE(Has(t, "gob", kSuffocating));
}

// 000 l.150: "As an Action you may prevent the Creature you are Grappling
// from breathing for the next Round"; l.77: "if you still have not gotten
// a chance to breathe". A creature no longer grappled (it escaped, l.148,
// or was released, l.150) is no longer the one being kept from breathing:
// its turn ends with breath (it used to stay `choked` until the choker's
// next turn and lose a Round, here its last: STR 1).
TEST(Maneuver, AChokeEndsWithTheGrapple) {
  for (bool escape : {true, false}) {
    fb::CombatantSpecT a = Being("aria", "party", 0, 0);
    fb::CombatantSpecT g = Being("gob", "goblins", 1, 0, {{"str", 1}});
    Table t(D20ThreeAction(), MakeRoster({std::move(a), std::move(g)}),
            {15, 10});
    ASSERT_OK(t.Submit(M("grapple"), {12, 5}));  // 16 vs 7
    ASSERT_OK(t.Submit(M("choke")));
    ASSERT_TRUE(Has(t, "gob", kChoked));
    if (!escape) ASSERT_OK(t.Submit(Cmd("aria", "release")));
    ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
    if (escape) {
      // gob 18 + Level 1 + STR 1 = 20 vs aria (Advantage: gob is Flat
      // Footed to its grappler, l.148) 3 + Level 1 + STR 3 = 7.
      ASSERT_OK(t.Submit(Cmd("gob", "escape"), {18, 3, 1}));
      EXPECT_FALSE(Has(t, "gob", kGrappled));
    }
    EXPECT_FALSE(Has(t, "gob", kChoked));
    ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
    EXPECT_EQ(Res(t, "gob", kHp), 20);
    EXPECT_FALSE(Has(t, "gob", kSuffocating));
    EXPECT_FALSE(Has(t, "gob", kHoldingBreath));
    EXPECT_FALSE(Has(t, "gob", kIncapacitated));
  }
}

// 000 l.77: "You can hold your breath a number of Rounds equal to your
// STR"; l.15: a delaying creature "continue[s] to suffer any ongoing Effects
// ... each Round at their original Initiative". Black-box: a choked
// creature that delayed every turn never ran out of breath. Its delayed
// turn and its original place each round count one Round, never two in a
// round when it enters.
TEST(Maneuver, DelayingDoesNotStopTheBreathCount) {
  for (bool enters : {false, true}) {
    fb::CombatantSpecT a = Being("aria", "party", 0, 0);
    fb::CombatantSpecT g = Being("gob", "goblins", 1, 0, {{"str", 2}});
    Table t(D20ThreeAction(), MakeRoster({std::move(a), std::move(g)}),
            {15, 10});
    ASSERT_OK(t.Submit(M("grapple"), {12, 5}));  // 16 vs 9
    ASSERT_OK(t.Submit(M("choke")));
    ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
    ASSERT_OK(t.Submit(Cmd("gob", "delay")));  // round 1 held
    const Condition* held =
        t.state().Find("gob")->FindCondition(kHoldingBreath);
    ASSERT_NE(held, nullptr);
    EXPECT_EQ(held->level, 1);
    EXPECT_EQ(t.state().round, 2);
    ASSERT_OK(t.Submit(M("choke")));
    if (enters) {
      // gob enters after aria's turn and ends its turn still choked: round
      // 2 counts once.
      ASSERT_OK(t.Submit(Cmd("gob", "enter")));
      ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
      EXPECT_EQ(t.state().active, "gob");
      EXPECT_EQ(Res(t, "gob", kHp), 20);
      ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
    } else {
      // Round 2 passes gob's original place: STR 2 Rounds held.
      ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
    }
    EXPECT_EQ(Res(t, "gob", kHp), 0);
    EXPECT_TRUE(Has(t, "gob", kSuffocating));
    EXPECT_TRUE(Has(t, "gob", kIncapacitated));
    EXPECT_FALSE(Has(t, "gob", kDead));
  }
}

// 000 l.77 (seed 000_ab2f36f2929fdde3.txt): "At the end of this time you
// drop to 0 HP and become Incapacitated. At the end of your next Turn if
// you still have not gotten a chance to breathe you die"; l.15: "they may
// decide to delay their Turn ... enter the Initiative again after the
// current Turn". A delay ends no Turn, nor does the original place passing:
// a creature out of breath that delays dies at the end of the Turn it takes
// when it enters, still choked; one that stays delayed until the choke is
// over (l.150 "for the next Round") breathes (was: dead at the delay).
TEST(Maneuver, OutOfBreathADelayingCreatureDiesAtTheEndOfTheTurnItEnters) {
  for (bool enters : {true, false}) {
    fb::CombatantSpecT a = Being("aria", "party", 0, 0);
    fb::CombatantSpecT g = Being("gob", "goblins", 1, 0, {{"str", 1}});
    Table t(D20ThreeAction(),
            MakeRoster({std::move(a), std::move(g),
                        Being("cat", "goblins", 9, 9)}),
            {15, 10, 5});
    ASSERT_OK(t.Submit(M("grapple"), {12, 5}));  // 16 vs 5 + 1 + STR 1 = 7
    ASSERT_OK(t.Submit(M("choke")));
    ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
    ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));  // STR 1 Round: 0 HP
    EXPECT_EQ(Res(t, "gob", kHp), 0);
    ASSERT_TRUE(Has(t, "gob", kSuffocating));
    ASSERT_OK(t.Submit(Cmd("cat", "end_turn")));
    ASSERT_OK(t.Submit(M("choke")));  // round 2
    // gob's turn starts Bleeding: table 12 ("-"), 2d6 = 1 + 1: HP -2.
    ASSERT_OK(t.Submit(Cmd("aria", "end_turn"), {12, 1, 1}));
    EXPECT_EQ(Res(t, "gob", kHp), -2);
    ASSERT_OK(t.Submit(Cmd("gob", "delay")));
    EXPECT_FALSE(Has(t, "gob", kDead)) << enters;  // no Turn ended
    EXPECT_EQ(t.state().active, "cat");
    if (enters) {
      ASSERT_OK(t.Submit(Cmd("gob", "enter")));
      ASSERT_OK(t.Submit(Cmd("cat", "end_turn")));
      EXPECT_EQ(t.state().active, "gob");
      EXPECT_TRUE(Has(t, "gob", kChoked));
      ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));  // its next Turn ends
      EXPECT_TRUE(Has(t, "gob", kDead));
    } else {
      ASSERT_OK(t.Submit(Cmd("cat", "end_turn")));  // round 3: aria
      EXPECT_FALSE(Has(t, "gob", kChoked));  // the Round of the choke is over
      // gob's original place: table 12, 2d6 = 1 + 1: HP -4; it breathed.
      ASSERT_OK(t.Submit(Cmd("aria", "end_turn"), {12, 1, 1}));
      EXPECT_EQ(Res(t, "gob", kHp), -4);
      EXPECT_FALSE(Has(t, "gob", kDead));
      EXPECT_FALSE(Has(t, "gob", kSuffocating));
    }
  }
}

TEST(Maneuver, PushIntoAWallDealsD6PerFiveFeetAndProne) {
  Table t(D20ThreeAction(), Pair({{3, 0}}), {15, 10});
  auto ev = t.Submit(M("push"), {18, 2, 3, 4});  // critical: up to 15 ft
  ASSERT_OK(ev);
  EXPECT_EQ(At(t, "gob"), (Pos{2, 0}));  // 5 ft, then the wall
  EXPECT_EQ(NumOf(*ev, "000.push.wall", "ft_not_travelled"), 10);
  EXPECT_EQ(Res(t, "gob", kHp), 13);  // 2d6 = 3 + 4 (L51)
  EXPECT_TRUE(Has(t, "gob", kProne));
  EXPECT_EQ(At(t, "aria"), (Pos{1, 0}));  // stays adjacent
}

// seed 000 l.51 "If their movement is ended prematurely by a hard surface
// (such as a wall) they take a d6 of Damage for every 5 ft they could not
// travel and fall Prone", by hand:
// - a plain success (d20 10 + 4 = 14 vs 5 + 4 = 9) against gob with a wall
//   right behind it (2, 0): it cannot move, 5 ft not travelled, 1d6 = 4:
//   20 - 4 = 16 HP, Prone, still at (1, 0);
// - a critical (22 vs 6) with a chosen `distance` of 10 ft and the wall at
//   (4, 0): gob goes 10 ft to (3, 0), nothing it could not travel: no die,
//   no Damage, not Prone.
TEST(Maneuver, AWallRightBehindOrNotReachedByTheChosenDistance) {
  Table t(D20ThreeAction(), Pair({{2, 0}}), {15, 10});
  auto ev = t.Submit(M("push"), {10, 5, 4});
  ASSERT_OK(ev);
  EXPECT_EQ(At(t, "gob"), (Pos{1, 0}));
  EXPECT_EQ(NumOf(*ev, "000.push.wall", "ft_not_travelled"), 5);
  EXPECT_EQ(Res(t, "gob", kHp), 16);
  EXPECT_TRUE(Has(t, "gob", kProne));
  Table u(D20ThreeAction(), Pair({{4, 0}}), {15, 10});
  fb::CommandT push = M("push");
  With(push, "distance", 10);
  auto ev2 = u.Submit(push, {18, 2});
  ASSERT_OK(ev2);
  EXPECT_EQ(At(u, "gob"), (Pos{3, 0}));
  EXPECT_EQ(At(u, "aria"), (Pos{2, 0}));
  EXPECT_EQ(Res(u, "gob", kHp), 20);
  EXPECT_FALSE(Has(u, "gob", kProne));
}

TEST(Maneuver, PushFiveFeet) {
  Table t(D20ThreeAction(), Pair(), {15, 10});
  ASSERT_OK(t.Submit(M("push"), {10, 10}));  // a tie: the initiator wins
  EXPECT_EQ(At(t, "gob"), (Pos{2, 0}));
  EXPECT_EQ(At(t, "aria"), (Pos{1, 0}));
  ASSERT_OK(t.Submit(M("push"), {5, 15}));  // failure
  EXPECT_EQ(At(t, "gob"), (Pos{2, 0}));
}

// seed 000 l.51 "If you succeed you Push them back 5ft": back along the line
// from the pusher to the target, the grid direction nearest it (the
// kernel's octants, space::DirBetween). By hand: large aria (her space
// (0..1, 0..1), centre (1, 1)) pushes gob at (2, 1) (centre
// (2.5, 1.5)): the line runs east, 18 degrees south of it, so "back" is
// east, to (3, 1) (was: the sign of each axis' difference, south-east to
// (3, 2), 27 degrees off the line).
TEST(Maneuver, APushGoesBackAlongTheLineNotBySignsOfEachAxis) {
  fb::CombatantSpecT a = Large(Being("aria", "party", 0, 0));
  Arm(a, "spear", "1d8", "melee");
  Table t(D20ThreeAction(),
          MakeRoster({std::move(a), Being("gob", "goblins", 2, 1)}), {15, 10});
  ASSERT_OK(t.Submit(M("push"), {12, 5}));  // 16 vs 9: 5 ft
  EXPECT_EQ(At(t, "gob"), (Pos{3, 1}));
}

// seed 000 l.51 "If you succeed you Push them back 5ft": back, away from
// the pusher. By hand: aria at (0, 0) pushing gob at (1, 0) with dx -1
// (toward her) is refused, naming the way back (dx 1), and writes nothing
// (was: accepted, gob pushed into aria's own square, the two sharing it
// without a grapple).
TEST(Maneuver, APushTowardThePusherIsRefused) {
  Table t(D20ThreeAction(), Pair(), {15, 10});
  fb::CommandT push = M("push");
  With(push, "dx", -1);
  With(push, "dy", 0);
  auto out = t.Submit(push, {12, 5});
  EXPECT_EQ(out.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(out.status().message().find("back is dx 1, dy 0"),
            std::string::npos);
  EXPECT_EQ(At(t, "gob"), (Pos{1, 0}));
  EXPECT_EQ(Res(t, "aria", kActions), 3);
}

TEST(Maneuver, TripKnocksProneAndFlyersFall) {
  fb::RosterT r = Pair();
  Tag(*r.combatants[1], "flying");
  Table t(D20ThreeAction(), r, {15, 10});
  ASSERT_OK(t.Submit(M("trip"), {18, 2}));  // critical
  EXPECT_TRUE(Has(t, "gob", kProne));
  EXPECT_FALSE(Has(t, "gob", kFlying));
  const Condition* fall = t.state().Find("gob")->FindCondition(kFallPending);
  ASSERT_NE(fall, nullptr);
  EXPECT_EQ(fall->level, 60);  // L57: 50 ft fall + as from 10 ft
}

TEST(Maneuver, DisarmDropsTheItemWhichCanBePickedUp) {
  Table t(D20ThreeAction(), Pair(), {15, 10});
  fb::CommandT d = M("disarm");
  EXPECT_EQ(t.Submit(d).status().code(), absl::StatusCode::kInvalidArgument);
  WithText(d, "item", "club");
  ASSERT_OK(t.Submit(d, {12, 5}));
  EXPECT_TRUE(Has(t, "gob", kDisarmed));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  fb::CommandT club = M("attack", "gob", "aria");
  club.weapon = "club";
  EXPECT_EQ(t.Submit(club).status().code(),
            absl::StatusCode::kFailedPrecondition);
  fb::CommandT up = Cmd("gob", "pick_up");
  WithText(up, "item", "club");
  ASSERT_OK(t.Submit(up));
  ASSERT_OK(t.Submit(club, {1}));
}

TEST(Maneuver, CriticalDisarmTakesTheItem) {
  Table t(D20ThreeAction(), Pair(), {15, 10});
  fb::CommandT d = M("disarm");
  WithText(d, "item", "club");
  WithText(d, "crit", "take");
  ASSERT_OK(t.Submit(d, {18, 2}));
  EXPECT_TRUE(Has(t, "aria", kTookItem));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  fb::CommandT up = Cmd("gob", "pick_up");
  WithText(up, "item", "club");
  EXPECT_EQ(t.Submit(up).status().code(),
            absl::StatusCode::kFailedPrecondition);
}

// seed 000 l.55 "If your roll is a Critical Success you may either fling
// the item 10ft away ... or take the item", at the edge of a critical
// (reading, README L27: the opposing total + 10 or more), by hand:
// 15 + 1 + 3 = 19 vs 5 + 1 + 3 = 9: 19 >= 9 + 10, critical, aria takes the
// club; 14 + 4 = 18 vs 9: a success only, the club lands in gob's square
// though `crit` asks to take it.
TEST(Maneuver, ADisarmBeatingTheOpposedRollByExactlyTenIsCritical) {
  for (const auto& [d20, taken] :
       std::vector<std::pair<int, bool>>{{15, true}, {14, false}}) {
    Table t(D20ThreeAction(), Pair(), {15, 10});
    fb::CommandT d = M("disarm");
    WithText(d, "item", "club");
    WithText(d, "crit", "take");
    ASSERT_OK(t.Submit(d, {d20, 5}));
    EXPECT_EQ(Has(t, "aria", kTookItem), taken) << d20;
    EXPECT_TRUE(Has(t, "gob", kDisarmed)) << d20;
  }
}

// Seed 000 l.55: "Disarm - ... If you succeed they drop an item they are
// carrying of your choice. The item lands on the ground in their square";
// l.21 "drop an item". A Natural Weapon (l.59 "a free hand or Natural
// Weapon", l.148 "one of your arms or Natural Weapons") is part of the
// creature, not an item it carries: neither disarmed nor dropped.
TEST(Maneuver, ANaturalWeaponIsNoItemToDisarmOrDrop) {
  fb::RosterT r = Pair();
  Arm(*r.combatants[1], "bite", "1d6", "natural");
  Table t(D20ThreeAction(), r, {15, 10});
  fb::CommandT d = M("disarm");
  WithText(d, "item", "bite");
  auto out = t.Submit(d, {18, 2});
  EXPECT_EQ(out.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(out.status().message().find("params.item"), std::string::npos)
      << out.status();
  EXPECT_NE(out.status().message().find("l.55"), std::string::npos)
      << out.status();
  EXPECT_FALSE(Has(t, "gob", kDisarmed));
  EXPECT_EQ(Res(t, "aria", kActions), 3);  // nothing decided
  fb::CommandT club = M("disarm");  // the club it holds still can be
  WithText(club, "item", "club");
  ASSERT_OK(t.Submit(club, {12, 5}));
  EXPECT_TRUE(Has(t, "gob", kDisarmed));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  fb::CommandT drop = Cmd("gob", "drop_item");
  WithText(drop, "item", "bite");
  EXPECT_EQ(t.Submit(drop).status().code(),
            absl::StatusCode::kFailedPrecondition);
  fb::CommandT bite = M("attack", "gob", "aria");
  bite.weapon = "bite";
  ASSERT_OK(t.Submit(bite, {1}));  // still its own to bite with
}

TEST(Maneuver, BreakDamagesACarriedObject) {
  Table t(D20ThreeAction(), Pair(), {15, 10});
  fb::CommandT b = M("break");
  b.weapon = "spear";
  WithText(b, "item", "shield");
  ASSERT_OK(t.Submit(b, {12, 5, 4}));  // 1d8 4 + STR 3
  EXPECT_EQ(Res(t, "gob", "item_damage:shield"), 7);
}

// Seed 000 l.49: "Break - ... If you succeed you deal Damage to an Object
// they are carrying": a Natural Weapon is no Object (l.59, l.148), and an
// item dropped by a Disarm (l.55 "lands on the ground") is carried no more.
TEST(Maneuver, BreakDamagesOnlyAnObjectItCarries) {
  fb::RosterT r = Pair();
  Arm(*r.combatants[1], "bite", "1d6", "natural");
  Table t(D20ThreeAction(), r, {15, 10});
  fb::CommandT b = M("break");
  b.weapon = "spear";
  WithText(b, "item", "bite");
  auto out = t.Submit(b, {12, 5, 4});
  EXPECT_EQ(out.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(out.status().message().find("params.item"), std::string::npos)
      << out.status();
  EXPECT_NE(out.status().message().find("l.49"), std::string::npos)
      << out.status();
  EXPECT_EQ(Res(t, "gob", "item_damage:bite"), 0);
  fb::CommandT d = M("disarm");
  WithText(d, "item", "club");
  ASSERT_OK(t.Submit(d, {12, 5}));
  fb::CommandT club = M("break");
  club.weapon = "spear";
  WithText(club, "item", "club");
  EXPECT_EQ(t.Submit(club, {12, 5, 4}).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(Res(t, "gob", "item_damage:club"), 0);
  fb::CommandT shield = M("break");
  shield.weapon = "spear";
  WithText(shield, "item", "shield");
  ASSERT_OK(t.Submit(shield, {12, 5, 4}));  // 1d8 4 + STR 3
  EXPECT_EQ(Res(t, "gob", "item_damage:shield"), 7);
}

// 000 l.47: "These count as Attacks and use Attack rolls"; l.115: "Other
// Creatures attempting to target a Hidden Creature must declare what square
// they think it is in before attempting an Attack roll. If the wrong square
// is targeted the Attack roll is still made, but always misses."
TEST(Maneuver, AHiddenTargetNeedsADeclaredSquareAndTheWrongOneMisses) {
  fb::RosterT r = Pair();
  Tag(*r.combatants[1], "hidden");  // gob is Hidden from aria
  Table t(D20ThreeAction(), r, {15, 10});
  auto no_square = t.Submit(M("trip"));
  EXPECT_EQ(no_square.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(no_square.status().message().find("path"), std::string::npos);
  fb::CommandT wrong = M("trip");
  kernel::testing::WithPath(wrong, {{2, 0}});
  // aria: Concealed (Hidden), 2d20kl1 = 17 + 4 = 21; gob, Hidden from its
  // opponent (aria Flat Footed, l.115): 2d20kh1 = 2 + 4 = 6. Yet a miss.
  auto ev = t.Submit(wrong, {18, 17, 2, 1});
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "000.trip", "attacker.total"), 21);
  EXPECT_EQ(NumOf(*ev, "000.trip", "success"), 0);
  EXPECT_EQ(NumOf(*ev, "000.trip", "wrong_square"), 1);
  EXPECT_FALSE(Has(t, "gob", kProne));
  EXPECT_TRUE(Has(t, "gob", kHidden));
  fb::CommandT right = M("trip");
  kernel::testing::WithPath(right, {{1, 0}});
  ASSERT_OK(t.Submit(right, {12, 11, 2, 1}));  // 11 + 4 = 15 vs 6: success
  EXPECT_TRUE(Has(t, "gob", kProne));
  EXPECT_FALSE(Has(t, "gob", kHidden));  // l.115: "hitting them"
}

// 000 l.115 (seed 000_ab2f36f2929fdde3.txt): a Hidden creature's "location
// is discovered by another Creature (hitting them, ...)"; a Feint is a
// Maneuver (l.47) whose success is its hit (l.53), as for the opposed
// Maneuvers: the target is no longer Hidden from the feinter (was: still
// Hidden after a successful Feint).
TEST(Maneuver, ASuccessfulFeintFindsAHiddenTarget) {
  fb::RosterT r = Pair();
  Tag(*r.combatants[1], "hidden");  // gob is Hidden from aria
  Table t(D20ThreeAction(), r, {15, 10});
  fb::CommandT wrong = M("feint");
  kernel::testing::WithPath(wrong, {{2, 0}});
  // Concealed (Hidden): 2d20kl1 = 17 + 4 = 21 vs Mental Defense 10, yet a
  // miss in the wrong square: still Hidden.
  auto miss = t.Submit(wrong, {18, 17});
  ASSERT_OK(miss);
  EXPECT_EQ(NumOf(*miss, "000.feint", "success"), 0);
  EXPECT_TRUE(Has(t, "gob", kHidden));
  fb::CommandT right = M("feint");
  kernel::testing::WithPath(right, {{1, 0}});
  auto ev = t.Submit(right, {12, 11});  // 2d20kl1 = 11 + 4 = 15 vs 10
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "000.feint", "success"), 1);
  EXPECT_EQ(NumOf(*ev, "000.feint", "critical"), 0);
  EXPECT_TRUE(Has(t, "gob", kFlatFooted));
  EXPECT_FALSE(Has(t, "gob", kHidden));  // l.115: "hitting them"
}

// 000 l.21: "Free Actions can be used to do things that require no effort
// like drop an item": no Action spent; the dropped spear is picked up with
// an Action and can be used again.
TEST(Maneuver, DroppingAnItemIsAFreeAction) {
  Table t(D20ThreeAction(), Pair(), {15, 10});
  fb::CommandT drop = Cmd("aria", "drop_item");
  WithText(drop, "item", "spear");
  ASSERT_OK(t.Submit(drop));
  EXPECT_EQ(Res(t, "aria", kActions), 3);
  fb::CommandT hit = M("attack");
  hit.weapon = "spear";
  EXPECT_EQ(t.Submit(hit).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(t.Submit(drop).status().code(),
            absl::StatusCode::kFailedPrecondition);  // already dropped
  fb::CommandT pick = Cmd("aria", "pick_up");
  WithText(pick, "item", "spear");
  ASSERT_OK(t.Submit(pick));
  EXPECT_EQ(Res(t, "aria", kActions), 2);
  ASSERT_OK(t.Submit(hit, {10, 5}));
  EXPECT_EQ(Res(t, "gob", kHp), 12);  // 1d8 5 + STR 3
}

// 000 l.109 (seed 000_ab2f36f2929fdde3.txt): a Flanked Creature "is within
// both of their Reach"; l.47: a Maneuver "with the same Reach" as a Melee
// Attack; l.55 / l.21: a disarmed or dropped weapon lies on the ground. A
// creature whose 10 ft glaive is no longer in hand reaches 5 ft (unarmed):
// it no longer flanks from 10 ft, nor trips from there (was: the dropped
// glaive's Reach still counted).
TEST(Maneuver, ADroppedReachWeaponNoLongerGivesItsReach) {
  fb::CombatantSpecT b = Being("bo", "party", 3, 0);
  Arm(b, "glaive", "1d10", "melee", "heavy", 10);
  fb::CombatantSpecT a = Being("aria", "party", 0, 0);
  Arm(a, "spear", "1d8", "melee");
  fb::RosterT r = MakeRoster(
      {std::move(b), std::move(a), Being("gob", "goblins", 1, 0)});
  Table t(D20ThreeAction(), r, {15, 10, 5});  // bo, aria, gob
  const auto partner = [&] {
    return FlankPartner(t.state(), *t.state().Find("aria"),
                        *t.state().Find("gob"), 5);
  };
  EXPECT_EQ(partner(), "bo");  // 10 ft away with a 10 ft glaive
  fb::CommandT drop = Cmd("bo", "drop_item");
  WithText(drop, "item", "glaive");
  ASSERT_OK(t.Submit(drop));
  EXPECT_EQ(partner(), "");  // unarmed: 5 ft
  auto trip = t.Submit(M("trip", "bo", "gob"));
  EXPECT_EQ(trip.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(trip.status().message().find("beyond reach (5 ft)"),
            std::string::npos)
      << trip.status();
}

// 000 l.29 (seed 000_ab2f36f2929fdde3.txt): "While wielding a Light Weapon
// or Medium Weapon you may use your DEX for Melee Attack rolls"; l.55: a
// disarmed creature's item "lands on the ground". A defender whose dagger
// is on the ground makes its opposed roll with STR (was: DEX, by the dagger
// it no longer wields).
TEST(Maneuver, ADefenderWithoutItsLightWeaponOpposesWithStr) {
  fb::CombatantSpecT g = Being("gob", "goblins", 1, 0, {{"str", 1}, {"dex", 4}});
  Arm(g, "dagger", "1d4", "melee", "light");
  fb::CombatantSpecT a = Being("aria", "party", 0, 0);
  Arm(a, "spear", "1d8", "melee");
  Table t(D20ThreeAction(), MakeRoster({std::move(g), std::move(a)}),
          {15, 10});  // gob, then aria
  fb::CommandT drop = Cmd("gob", "drop_item");
  WithText(drop, "item", "dagger");
  ASSERT_OK(t.Submit(drop));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  // aria: 10 + Level 1 + STR 3 = 14; gob: 10 + Level 1 + STR 1 = 12 (with
  // the dagger in hand it would be DEX 4: 15, a failure).
  auto ev = t.Submit(M("trip"), {10, 10});
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "000.trip", "defender.str"), 1);
  EXPECT_EQ(NumOf(*ev, "000.trip", "defender.total"), 12);
  EXPECT_EQ(NumOf(*ev, "000.trip", "success"), 1);
  EXPECT_TRUE(Has(t, "gob", kProne));
}

TEST(Maneuver, OutOfReachIsRefused) {
  fb::RosterT r = Pair();
  r.combatants[1]->at = std::make_unique<fb::Pos>(3, 0);
  Table t(D20ThreeAction(), r, {15, 10});
  auto out = t.Submit(M("trip"));
  EXPECT_EQ(out.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(out.status().message().find("beyond reach"), std::string::npos);
}

}  // namespace
}  // namespace combat::kernel::d20
