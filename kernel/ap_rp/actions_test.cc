// Basic and advanced actions (l.15-38) with fixed dice.
#include "kernel/ap_rp/internal.h"
#include "kernel/ap_rp/test_util.h"

namespace combat::kernel::aprp {
namespace {

using namespace testing;  // NOLINT

fb::CommandT Impose(const std::string& who, const std::string& name) {
  fb::CommandT g = Gm(who, "gm_condition", "as ruled");
  WithText(g, "name", name);
  WithText(g, "op", "add");
  return g;
}

// l.22: a First Aid Check against 8 removes Bleeding from a creature within 1 m.
TEST(Actions, Stabilize) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"first_aid", 2}});
  auto b = Being("b", "x", 2, 1);
  auto foe = Being("foe", "y", 15, 15, {{"ins", 0}});  // l.2: two parties
  Table t(ApRp(), MakeRoster({a, b, foe}));
  ASSERT_OK(t.Submit(Impose("b", kBleeding)));
  ASSERT_OK(t.Submit(Cmd("a", "stabilize", {"b"}), {5}));  // 7 < 8
  EXPECT_TRUE(Has(t, "b", kBleeding));
  EXPECT_EQ(Res(t, "a", kAp), 0);  // 3 AP
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("b", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("foe", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("a", "stabilize", {"b"}), {6}));  // 8 >= 8
  EXPECT_FALSE(Has(t, "b", kBleeding));
}

// l.23: the ally must use 1 RP.
TEST(Actions, SwitchPlaces) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}});
  auto b = Being("b", "x", 2, 1);
  auto foe = Being("foe", "y", 15, 15, {{"ins", 0}});  // l.2: two parties
  Table t(ApRp(), MakeRoster({a, b, foe}));
  ASSERT_OK(t.Submit(Cmd("a", "switch_places", {"b"})));
  EXPECT_EQ(t.state().Find("a")->at, (Pos{2, 1}));
  EXPECT_EQ(t.state().Find("b")->at, (Pos{1, 1}));
  EXPECT_EQ(Res(t, "b", kRp), 1);
  auto c = Cmd("a", "switch_places", {"b"});
  With(c, "declined", 1);
  ASSERT_OK(t.Submit(c));
  EXPECT_EQ(t.state().Find("a")->at, (Pos{2, 1}));  // fails without the RP
}

// l.25 + l.111: in half cover, +2 Evasion, and Taking Cover +2 more.
TEST(Actions, TakingCoverInHalfCover) {
  auto b = Being("b", "y", 6, 1, {{"ins", 20}});
  auto a = Being("a", "x", 1, 1, {{"ins", 10}, {"dex", 14}, {"str", 12}});
  Arm(a, "bow", "1d6", "ranged", "dex/str", 10);
  auto r = MakeRoster({a, b});
  Terrain(r, 5, 1, "half_cover");
  Table t(ApRp(), r);
  ASSERT_OK(t.Submit(Cmd("b", "take_cover")));
  EXPECT_EQ(Res(t, "b", kAp), 2);
  ASSERT_OK(t.Submit(Cmd("b", "end_turn")));
  auto ev = t.Submit(Attack("a", "b", "bow"), {15});  // 15 + 5 = 20 < 21
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "004.evasion", "evasion"), 21);
  EXPECT_EQ(Res(t, "b", kVitality), 30);
}

// 004 l.25 "Your Evasion increases by 2 and your DR by 1, as long as you
// are in half cover until your next turn. You also no longer grant
// half-cover to creatures of the same size category until your next turn":
// taken in the open it is not refused (the bonus waits on half cover, the
// second sentence holds at once): a at (4,5) in front of its ally b (5,5),
// the archer x at (1,5): b has no half cover from a, Evasion 17 (not 19);
// x's bow 12 + 5 = 17 hits, 4 damage: 30 - 4 = 26.
TEST(Actions, TakingCoverInTheOpenStillGrantsNoHalfCover) {
  auto a = Being("a", "p", 4, 5, {{"ins", 20}});
  auto x = Being("x", "y", 1, 5, {{"ins", 15}});
  Arm(x, "bow", "1d6", "ranged", "dex/str", 12);
  auto b = Being("b", "p", 5, 5, {{"ins", 1}});
  Table t(ApRp(), MakeRoster({a, x, b}));
  ASSERT_OK(t.Submit(Cmd("a", "take_cover")));
  EXPECT_TRUE(Has(t, "a", kTakingCover));
  EXPECT_EQ(Res(t, "a", kAp), 2);
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  auto ev = t.Submit(Attack("x", "b", "bow"), {12, 4});
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "004.evasion", "evasion"), 17);
  EXPECT_EQ(Res(t, "b", kVitality), 26);
}

// 004_1a3e461770fc9e7a.txt l.25 "You also no longer grant half-cover to
// creatures of the same size category until your next turn" with l.111
// "Standing behind a creature of the same size category or bigger also gives
// you half cover": a (size 1) Taking Cover still covers the smaller b (size
// 0) behind it: Evasion 17 + 2 = 19 against x's bow (hit bonus 3 + 4 / 2 =
// 5, l.53): 11 + 5 = 16 misses b, and the miss goes on to a (16 < 17).
TEST(Actions, TakingCoverStillGrantsHalfCoverToASmallerCreature) {
  auto a = Being("a", "p", 4, 5, {{"ins", 20}, {"size_cat", 1}});
  auto x = Being("x", "y", 1, 5, {{"ins", 15}});
  Arm(x, "bow", "1d6", "ranged", "dex/str", 12);
  auto b = Being("b", "p", 5, 5, {{"ins", 1}});
  Table t(ApRp(), MakeRoster({a, x, b}));
  ASSERT_OK(t.Submit(Cmd("a", "take_cover")));
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  auto ev = t.Submit(Attack("x", "b", "bow"), {11});
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "004.evasion", "evasion"), 19);
  EXPECT_EQ(NumOf(*ev, "004.cover.half", "evasion"), 17);
  EXPECT_EQ(Res(t, "b", kVitality), 30);
  EXPECT_EQ(Res(t, "a", kVitality), 30);
}

// 004 l.6 "move by an amount equal to their Basic Movement", l.20 Move (1
// AP) "You increase your movement by an amount equal to your Basic
// Movement", l.21 Sprint (3 AP) "by an amount equal to four times your Basic
// Movement": Basic Movement 2 gives 2 at the turn's start, 2 + 2 = 4 after
// Move; next turn 2 + 4 x 2 = 10 after Sprint (movement left over does not
// carry into the next turn).
TEST(Actions, MoveAndSprintAddBasicMovementOnceAndFourTimes) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"basic_movement", 2}});
  auto b = Being("b", "y", 9, 9, {{"ins", 1}});
  Table t(ApRp(), MakeRoster({a, b}));
  EXPECT_EQ(Res(t, "a", kMovement), 2);
  ASSERT_OK(t.Submit(Cmd("a", "move_action")));
  EXPECT_EQ(Res(t, "a", kMovement), 4);
  EXPECT_EQ(Res(t, "a", kAp), 2);
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("b", "end_turn")));
  EXPECT_EQ(Res(t, "a", kMovement), 2);
  ASSERT_OK(t.Submit(Cmd("a", "sprint")));
  EXPECT_EQ(Res(t, "a", kMovement), 10);
  EXPECT_EQ(Res(t, "a", kAp), 0);
}

// l.31: blinded until the end of the target's next turn.
TEST(Actions, BlindLastsToTheEndOfTheTargetsNextTurn) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"quick_fingers", 5}});
  auto b = Being("b", "y", 2, 1);
  Table t(ApRp(), MakeRoster({a, b}));
  ASSERT_OK(t.Submit(Cmd("a", "blind", {"b"}), {10, 3}));
  EXPECT_TRUE(Has(t, "b", kBlinded));
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  EXPECT_TRUE(Has(t, "b", kBlinded));
  ASSERT_OK(t.Submit(Cmd("b", "end_turn")));
  EXPECT_FALSE(Has(t, "b", kBlinded));
}

// l.31, l.35: no more than one size category above; a larger target has
// advantage, a smaller one gives the actor advantage.
TEST(Actions, SizeRules) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"athletics", 2}});
  auto giant = Being("giant", "y", 2, 1, {{"size_cat", 2}});
  auto ogre = Being("ogre", "y", 1, 2, {{"size_cat", 1}});
  Table t(ApRp(), MakeRoster({a, giant, ogre}));
  EXPECT_EQ(t.Submit(Cmd("a", "grab", {"giant"})).status().code(), absl::StatusCode::kFailedPrecondition);
  auto ev = t.Submit(Cmd("a", "grab", {"ogre"}), {15, 3, 16});
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "004.grab", "target_advantage"), 1);
  EXPECT_EQ(NumOf(*ev, "004.grab", "target_total"), 16);
  EXPECT_TRUE(Has(t, "ogre", kGrabbed));  // 15 + 2 = 17 > 16 (the higher of 3, 16)
}

// l.32: climb onto a larger creature; a miss against the climber goes on
// to the creature climbed.
TEST(Actions, ClimbAndMissesRedirect) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"athletics", 5}});
  auto ogre = Being("ogre", "y", 2, 1, {{"size_cat", 1}, {"dex", 8}, {"ins", 15}});  // Evasion 12
  auto archer = Being("archer", "y", 8, 1, {{"ins", 10}, {"dex", 14}, {"str", 12}});
  Arm(archer, "bow", "1d6", "ranged", "dex/str", 10);
  Table t(ApRp(), MakeRoster({a, ogre, archer}));
  ASSERT_OK(t.Submit(Cmd("a", "climb", {"ogre"}), {12, 4}));
  EXPECT_TRUE(Has(t, "a", kClimbing));
  EXPECT_EQ(t.state().Find("a")->at, (Pos{2, 1}));
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  ASSERT_OK(t.Submit(Path(Cmd("ogre", "move"), {{3, 1}})));
  EXPECT_EQ(t.state().Find("a")->at, (Pos{3, 1}));  // moves with it
  ASSERT_OK(t.Submit(Cmd("ogre", "end_turn")));
  auto ev = t.Submit(Attack("archer", "a", "bow"), {10, 3});  // 15 < 17, >= 12
  ASSERT_OK(ev);
  EXPECT_EQ(Res(t, "a", kVitality), 30);
  EXPECT_EQ(Res(t, "ogre", kVitality), 27);
}

// 004_1a3e461770fc9e7a.txt l.32 "The target gains disadvantage if it tries
// to attack you ... Any attack that targets you and misses targets the
// creature you have climbed onto instead": the ogre's own attack at its
// climber, at disadvantage (15 and 3 keep 3; club hit bonus Str 14: 4 plus
// half of Dex 8's -2: 4 - 1 = 3, l.53; 3 + 3 = 6 < 17), misses and
// does not turn on the ogre itself (reading: an attacker is not its own
// target; l.52 "You must target them"): nobody is hurt.
TEST(Actions, AMountsMissAtItsClimberDoesNotTurnOnItself) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"athletics", 5}});
  auto ogre = Being("ogre", "y", 2, 1, {{"size_cat", 1}, {"dex", 8}, {"ins", 15}});  // Evasion 12
  Arm(ogre, "club", "1d8", "melee");
  Table t(ApRp(), MakeRoster({a, ogre}));
  ASSERT_OK(t.Submit(Cmd("a", "climb", {"ogre"}), {12, 4}));
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  auto ev = t.Submit(Attack("ogre", "a", "club"), {15, 3});
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "004.evasion", "climbed_on"), 1);
  EXPECT_EQ(NumOf(*ev, "004.evasion", "total"), 6);
  EXPECT_EQ(Res(t, "a", kVitality), 30);
  EXPECT_EQ(Res(t, "ogre", kVitality), 30);
}

// a (Stealth 5, an ax) beside b (Perception 1), a first.
fb::RosterT HiderAndWatcher() {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"stealth", 5}});
  Arm(a, "ax", "1d8", "melee");
  auto b = Being("b", "y", 2, 1, {{"perception", 1}});
  return MakeRoster({a, b});
}

// a hides from b (10 + 5 against 4 + 1) and round 2 comes to a's turn.
void HideFromBUntilRoundTwo(Table& t) {
  ASSERT_OK(t.Submit(Cmd("a", "hide"), {10, 4}));
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("b", "end_turn")));
}

// l.36: hidden: advantage on attacks; attacking keeps it to the turn's end.
TEST(Actions, HideGivesAdvantage) {
  Table t(ApRp(), HiderAndWatcher());
  ASSERT_OK(t.Submit(Cmd("a", "hide"), {10, 4}));
  EXPECT_NE(t.state().Find("a")->FindRelative(kHidden, "b"), nullptr);
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("b", "end_turn")));
  auto ev = t.Submit(Attack("a", "b", "ax"), {3, 16, 5});
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "004.evasion", "natural"), 16);
  EXPECT_EQ(Res(t, "b", kVitality), 25);
  EXPECT_NE(t.state().Find("a")->FindRelative(kHidden, "b"), nullptr);
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  EXPECT_EQ(t.state().Find("a")->FindRelative(kHidden, "b"), nullptr);
}

// 004 l.36 "You stop being hidden if an enemy sees you ... You stay hidden
// until the end of the turn if this happens during your turn": a hides in
// round 1 (10 + 5 = 15 > 4 + 1); on a's round-2 turn the GM rules that b
// sees a (gm_condition remove, README "sees you" is the GM's): a stays
// hidden to the end of that turn, so its attack has advantage (3, 16: the
// 16 kept, 16 + 5 = 21 >= 17, 5 damage), and is no longer hidden after it.
// (Black-box: the Hidden ended at once; the attack took the 3 and missed.)
TEST(Actions, AnEnemySeeingAHiddenCreatureOnItsOwnTurnLeavesItHiddenToTheEnd) {
  Table t(ApRp(), HiderAndWatcher());
  ASSERT_NO_FATAL_FAILURE(HideFromBUntilRoundTwo(t));
  ASSERT_EQ(t.state().active, "a");
  fb::CommandT seen = Gm("a", "gm_condition", "b sees a");
  WithText(seen, "name", kHidden);
  WithText(seen, "op", "remove");
  ASSERT_OK(t.Submit(seen));
  const Condition* h = t.state().Find("a")->FindRelative(kHidden, "b");
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h->expiry.kind, fb::ExpiryKind::TurnEnd);
  auto ev = t.Submit(Attack("a", "b", "ax"), {3, 16, 5});
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "004.evasion", "natural"), 16);
  EXPECT_EQ(Res(t, "b", kVitality), 25);
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  EXPECT_EQ(t.state().Find("a")->FindRelative(kHidden, "b"), nullptr);
}

// Reading (README, GM ruling points, Hiding): 004 l.36 "You stop being
// hidden if an enemy sees you" ends the hiding, towards every enemy: the
// GM's `gm_condition remove Hidden` (off a's turn) ends a's Hidden from b
// and from c (a hid from both: 10 + 5 = 15 > 4 + 1, 3 + 1). A GM ruling
// that only b knows where a is adds Hidden again relative to c: b can
// target a, c cannot.
TEST(Actions, AnEnemySeeingAHiddenCreatureEndsItsHidingTowardsEveryEnemy) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"stealth", 5}});
  auto b = Being("b", "y", 2, 1, {{"perception", 1}});
  Arm(b, "ax", "1d8", "melee");
  auto c = Being("c", "y", 1, 2, {{"perception", 1}});
  Arm(c, "ax", "1d8", "melee");
  Table t(ApRp(), MakeRoster({a, b, c}));
  ASSERT_OK(t.Submit(Cmd("a", "hide"), {10, 4, 3}));
  ASSERT_NE(t.state().Find("a")->FindRelative(kHidden, "b"), nullptr);
  ASSERT_NE(t.state().Find("a")->FindRelative(kHidden, "c"), nullptr);
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  ASSERT_EQ(t.state().active, "b");
  fb::CommandT seen = Gm("a", "gm_condition", "b sees a");
  WithText(seen, "name", kHidden);
  WithText(seen, "op", "remove");
  ASSERT_OK(t.Submit(seen));
  EXPECT_EQ(t.state().Find("a")->FindRelative(kHidden, "b"), nullptr);
  EXPECT_EQ(t.state().Find("a")->FindRelative(kHidden, "c"), nullptr);
  fb::CommandT still = Gm("a", "gm_condition", "c was not told");
  WithText(still, "name", kHidden);
  WithText(still, "op", "add");
  WithText(still, "relative_to", "c");
  ASSERT_OK(t.Submit(still));
  ASSERT_OK(t.Submit(Attack("b", "a", "ax"), {18, 5}));
  ASSERT_OK(t.Submit(Cmd("b", "end_turn")));
  ASSERT_EQ(t.state().active, "c");
  EXPECT_EQ(t.Submit(Attack("c", "a", "ax"), {18, 5}).status().code(), absl::StatusCode::kFailedPrecondition);
}

// 004 l.36 "While you are hidden ... the enemies do not know where you
// are": b cannot target a (l.52 "You must target them") while a is hidden
// from it, neither with an attack nor a Trip; once the GM rules that b
// finds a (l.36 "if an enemy sees you": gm_condition remove), it can.
// (Black-box: b attacked the hidden a.)
TEST(Actions, AHiddenCreatureCannotBeTargetedByThatEnemy) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"stealth", 5}});
  auto b = Being("b", "y", 2, 1, {{"perception", 1}});
  Arm(b, "ax", "1d8", "melee");
  Table t(ApRp(), MakeRoster({a, b}));
  ASSERT_OK(t.Submit(Cmd("a", "hide"), {10, 4}));  // 15 > 5
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  auto r = t.Submit(Attack("b", "a", "ax"), {18, 5});
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition) << r.status();
  EXPECT_NE(r.status().message().find("l.36"), std::string::npos) << r.status();
  EXPECT_EQ(t.Submit(Cmd("b", "trip", {"a"}), {18, 1}).status().code(), absl::StatusCode::kFailedPrecondition);
  // l.19 "trying to poke a creature": nor an Interact with it.
  EXPECT_EQ(t.Submit(Cmd("b", "interact", {"a"})).status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(Res(t, "b", kAp), 3);
  fb::CommandT seen = Gm("a", "gm_condition", "b spots a");
  WithText(seen, "name", kHidden);
  WithText(seen, "op", "remove");
  ASSERT_OK(t.Submit(seen));
  ASSERT_OK(t.Submit(Attack("b", "a", "ax"), {18, 5}));
  EXPECT_EQ(Res(t, "a", kVitality), 25);
}

// l.69: objects fail every DR; l.18: Defend gives advantage on DRs.

// 004_1a3e461770fc9e7a.txt l.70 "The target must roll a d20 and add the
// corresponding Stat Bonus and Skill Level. They succeed on their DR if they
// roll at least as high as the DR Power of the creature targeting them. The
// DR Power is equal to the Primary Stat of the creature": the mage's Primary
// Stat Int 15 is the DR Power; a's Constitution 8 gives a Stat Bonus of -2
// (l.53: Stat - 10) and Endurance 3 (l.73): 14 - 2 + 3 = 15 >= 15 succeeds,
// 13 - 2 + 3 = 14 fails.
TEST(Actions, ADefenseRollMeetingTheDrPowerSucceedsOneLessFails) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"con", 8}, {"endurance", 3}});
  auto m = Being("m", "y", 5, 5, {{"int", 15}});
  m.tags = {"primary:int"};
  Table t(ApRp(), MakeRoster({a, m}));
  auto dr = GmDr("m", "a", "con", "poison cloud");
  auto ok = t.Submit(dr, {14});
  ASSERT_OK(ok);
  EXPECT_EQ(NumOf(*ok, "004.dr", "dr_power"), 15);
  EXPECT_EQ(NumOf(*ok, "004.dr", "stat_bonus"), -2);
  EXPECT_EQ(NumOf(*ok, "004.dr", "skill"), 3);
  EXPECT_EQ(NumOf(*ok, "004.dr", "total"), 15);
  EXPECT_EQ(NoteOf(*ok, "004.dr"), "succeeds");
  auto no = t.Submit(dr, {13});
  ASSERT_OK(no);
  EXPECT_EQ(NumOf(*no, "004.dr", "total"), 14);
  EXPECT_EQ(NoteOf(*no, "004.dr"), "fails");
}

TEST(Actions, DefenseRolls) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"wil", 12}, {"perseverance", 3}});
  auto m = Being("m", "y", 5, 5, {{"int", 15}});
  m.tags = {"primary:int"};
  auto door = kernel::testing::Creature("door", "none", 3, 3, {{"vitality", 5}});
  door.tags.push_back("object");
  Table t(ApRp(), MakeRoster({a, m, door}));
  auto dr = GmDr("m", "door", "wil", "fear");
  auto ev = t.Submit(dr);
  ASSERT_OK(ev);
  ASSERT_OK(t.Submit(Cmd("a", "defend")));
  dr.targets = {"a"};
  ev = t.Submit(dr, {4, 11});  // 2d20kh1 + 2 + 3 = 16 >= 15
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "004.dr", "total"), 16);
  EXPECT_EQ(NumOf(*ev, "004.dr", "dr_power"), 15);
}

}  // namespace
}  // namespace combat::kernel::aprp

namespace combat::kernel::aprp {
namespace {

using namespace testing;  // NOLINT

// l.32: the mount's action (2 AP) shakes a climber off when its repeated
// check fails.
TEST(Actions, ShakeOff) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"athletics", 5}});
  auto ogre = Being("ogre", "y", 2, 1, {{"size_cat", 1}, {"ins", 15}});
  Table t(ApRp(), MakeRoster({a, ogre}));
  // Nobody on a: the refusal says so (status --for read "a is not climbing
  // a"); the actor as its own target is a wrong input.
  auto none = t.Submit(Cmd("a", "shake_off", {"ogre"}));
  EXPECT_EQ(none.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(none.status().message().find("no creature is climbing a"), std::string::npos);
  ASSERT_OK(t.Submit(Cmd("a", "climb", {"ogre"}), {12, 4}));
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  EXPECT_EQ(t.Submit(Cmd("ogre", "shake_off", {"ogre"})).status().code(), absl::StatusCode::kInvalidArgument);
  ASSERT_OK(t.Submit(Cmd("ogre", "shake_off", {"a"}), {2, 9}));  // 7 < 9
  EXPECT_FALSE(Has(t, "a", kClimbing));
  EXPECT_EQ(t.state().Find("a")->at, (Pos{1, 0}));
  EXPECT_EQ(Res(t, "ogre", kAp), 1);
}

// 004 l.32 "It can try to shake you off by using an action (2 AP)
// repeating the Skill Checks and will shake you off successfully if you
// fail the Skill Check": a Dead climber cannot act and repeats no check:
// it is shaken off, nobody rolls. (Black-box: the dead climber rolled and
// could hold on.)
TEST(Actions, ADeadClimberIsShakenOffWithoutACheck) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"athletics", 5}});
  auto ogre = Being("ogre", "y", 2, 1, {{"size_cat", 1}, {"ins", 15}});
  Table t(ApRp(), MakeRoster({a, ogre}));
  ASSERT_OK(t.Submit(Cmd("a", "climb", {"ogre"}), {12, 4}));
  fb::CommandT dead = Gm("a", "gm_condition", "killed");
  WithText(dead, "name", kDead);
  WithText(dead, "op", "add");
  ASSERT_OK(t.Submit(dead));  // a's turn is lost (l.8): the ogre's begins
  auto ev = t.Submit(Cmd("ogre", "shake_off", {"a"}));
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "004.climb", "actor_total"), -999);
  EXPECT_FALSE(Has(t, "a", kClimbing));
  EXPECT_EQ(Res(t, "ogre", kAp), 1);
}

// 004 l.32 "You occupy a space that is also occupied by the target, and
// you move with it if it moves": a climber shoved (l.37) off its mount's
// space is no longer on it, and moves on its own again (black-box: shoved
// to (2,2), it stayed "Climbing" the ogre at (2,1) and its moves were
// refused as a climber's). A mount that switches places (l.23) carries its
// climber.
TEST(Actions, AClimberShovedOffIsNoLongerOnItsMount) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"athletics", 5}});
  auto ogre = Being("ogre", "y", 2, 1, {{"size_cat", 1}, {"ins", 1}});
  auto b = Being("b", "y", 3, 1, {{"ins", 15}, {"athletics", 5}});
  Table t(ApRp(), MakeRoster({a, ogre, b}));
  ASSERT_OK(t.Submit(Cmd("a", "climb", {"ogre"}), {15, 2}));  // 20 > 2
  ASSERT_EQ(t.state().Find("a")->at, (Pos{2, 1}));
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  ASSERT_EQ(t.state().active, "b");
  // b shoves a 1 m to (2,2): athletics 15 + 5 = 20 > a's 2 + 5 = 7.
  ASSERT_OK(t.Submit(Path(Cmd("b", "shove", {"a"}), {{2, 2}}), {15, 2}));
  EXPECT_EQ(t.state().Find("a")->at, (Pos{2, 2}));
  EXPECT_FALSE(Has(t, "a", kClimbing));
  ASSERT_OK(t.Submit(Cmd("b", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("ogre", "end_turn")));
  ASSERT_OK(t.Submit(Path(Cmd("a", "move"), {{1, 2}})));  // on its own again
  EXPECT_EQ(t.state().Find("a")->at, (Pos{1, 2}));
}

// l.32: climbing from one creature onto another leaves the first: one
// Climbing, on the second (black-box: it was "Climbing" both).
TEST(Actions, ClimbingOntoAnotherLeavesTheFirst) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"athletics", 5}});
  auto g = Being("g", "y", 2, 1, {{"size_cat", 1}, {"ins", 1}});
  auto g2 = Being("g2", "y", 3, 1, {{"size_cat", 1}, {"ins", 2}});
  Table t(ApRp(), MakeRoster({a, g, g2}));
  ASSERT_OK(t.Submit(Cmd("a", "climb", {"g"}), {15, 2}));
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("g2", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("g", "end_turn")));
  ASSERT_EQ(t.state().active, "a");
  ASSERT_OK(t.Submit(Cmd("a", "climb", {"g2"}), {15, 2}));
  EXPECT_EQ(t.state().Find("a")->at, (Pos{3, 1}));
  int climbing = 0;
  for (const auto& [id, k] : t.state().Find("a")->conditions) climbing += k.name == kClimbing ? 1 : 0;
  EXPECT_EQ(climbing, 1);
  EXPECT_EQ(t.state().Find("a")->FindCondition(kClimbing)->relative_to, "g2");
}

TEST(Actions, AMountSwitchingPlacesCarriesItsClimber) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"athletics", 5}});
  auto ogre = Being("ogre", "y", 2, 1, {{"size_cat", 1}, {"ins", 15}});
  auto pal = Being("pal", "y", 3, 1, {{"ins", 1}});
  Table t(ApRp(), MakeRoster({a, ogre, pal}));
  ASSERT_OK(t.Submit(Cmd("a", "climb", {"ogre"}), {15, 2}));
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("ogre", "switch_places", {"pal"})));  // pal's 1 RP
  EXPECT_EQ(Res(t, "pal", kRp), 1);
  EXPECT_EQ(t.state().Find("ogre")->at, (Pos{3, 1}));
  EXPECT_EQ(t.state().Find("pal")->at, (Pos{2, 1}));
  EXPECT_EQ(t.state().Find("a")->at, (Pos{3, 1}));
  EXPECT_TRUE(Has(t, "a", kClimbing));
}

TEST(Actions, WrongTypesAndSkillsAreRefusedNamingTheField) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}});
  Arm(a, "ax", "1d8", "melee");
  auto b = Being("b", "y", 2, 1);
  Table t(ApRp(), MakeRoster({a, b}));
  auto c = Attack("a", "b", "ax");
  WithText(c, "miss", "yes");
  auto r = t.Submit(c);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("params.miss"), std::string::npos);
  auto c2 = Attack("a", "b", "ax");
  With(c2, "nonlethal", 2);
  EXPECT_EQ(t.Submit(c2).status().code(), absl::StatusCode::kInvalidArgument);
  auto c3 = Cmd("a", "trip", {"b"});
  WithText(c3, "skill", "stealth");
  r = t.Submit(c3, {10, 10});
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("params.skill"), std::string::npos);
  EXPECT_EQ(Res(t, "a", kAp), 3);  // nothing written
  // Malformed stays malformed (exit 2) when the AP are spent too; the AP
  // refusal (exit 1) only for a well-formed act.
  ASSERT_OK(t.Submit(Cmd("a", "sprint")));
  auto c4 = Cmd("a", "blind", {"b"});
  WithText(c4, "skill", "athletics");
  r = t.Submit(c4);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << r.status();
  EXPECT_NE(r.status().message().find("params.skill"), std::string::npos);
  r = t.Submit(Cmd("a", "blind", {"b"}));
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition) << r.status();
}

}  // namespace
}  // namespace combat::kernel::aprp

namespace combat::kernel::aprp {
namespace {

using namespace testing;  // NOLINT

// l.103: dying does not remove Status Effects; the Dead take no turns.
TEST(Actions, StatusEffectsPersistThroughDeath) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}});
  auto b = Being("b", "y", 2, 1);
  auto c = Being("c", "y", 5, 5, {{"ins", 1}});
  Table t(ApRp(), MakeRoster({a, b, c}));
  ASSERT_OK(t.Submit(GmAdds("b", kBleeding, "a deep cut")));
  ASSERT_OK(t.Submit(GmAdds("b", kDead, "bled out")));
  EXPECT_TRUE(Has(t, "b", kBleeding));
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  EXPECT_EQ(t.state().active, "c");  // b is skipped
}

// 004 l.8: "Any effects that last until the end of a creature's turn keep
// being in effect until a creature ends their turn or they lose it"; l.103
// "as if they had been alive the whole time". A Blind (l.31 "until the end
// of their next turn") on a creature that then dies ends where its turn is
// skipped (lost), not never: revived in round 3, it is no longer Blinded.
// (Black-box: the condition stayed with "ends at the end of t's turn in
// round 1" in round 3.)
TEST(Actions, UntilTheEndOfTheTurnEndsWhenADeadCreaturesTurnIsLost) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"quick_fingers", 5}});
  auto b = Being("b", "y", 2, 1, {{"ins", 15}});
  Table t(ApRp(), MakeRoster({a, b}));
  ASSERT_OK(t.Submit(Cmd("a", "blind", {"b"}), {15, 2}));  // 15 + 5 = 20 > 2
  ASSERT_TRUE(Has(t, "b", kBlinded));
  ASSERT_OK(t.Submit(GmAdds("b", kDead, "killed")));
  EXPECT_TRUE(Has(t, "b", kBlinded));  // l.103: dying does not remove it
  auto ev = t.Submit(Cmd("a", "end_turn"));  // b's turn (round 1) is skipped: lost
  ASSERT_OK(ev);
  EXPECT_TRUE(Cites(*ev, "004.duration.end_turn"));
  EXPECT_EQ(t.state().round, 2);
  EXPECT_FALSE(Has(t, "b", kBlinded));
  fb::CommandT alive = Gm("b", "gm_condition", "revived");
  WithText(alive, "name", kDead);
  WithText(alive, "op", "remove");
  ASSERT_OK(t.Submit(alive));
  EXPECT_FALSE(Has(t, "b", kBlinded));
}

// 004_1a3e461770fc9e7a.txt l.8 "Any effects that last until the end of a
// creature's turn keep being in effect until a creature ends their turn or
// they lose it": a creature the GM makes Dead during its own turn cannot act,
// so it cannot end its turn: the turn is lost at once (its "until the end of
// its turn" Blind ends) and the next takes its turn (the old code waited for
// the dead creature's end_turn).
TEST(Actions, ACreatureDyingOnItsTurnLosesIt) {
  auto b = Being("b", "y", 2, 1, {{"ins", 20}, {"quick_fingers", 5}});
  auto a = Being("a", "x", 1, 1, {{"ins", 15}});
  auto c = Being("c", "x", 1, 3, {{"ins", 10}});
  Table t(ApRp(), MakeRoster({a, b, c}));
  ASSERT_OK(t.Submit(Cmd("b", "blind", {"a"}), {15, 2}));  // 15 + 5 = 20 > 2
  ASSERT_TRUE(Has(t, "a", kBlinded));
  ASSERT_OK(t.Submit(Cmd("b", "end_turn")));
  ASSERT_EQ(t.state().active, "a");
  fb::CommandT dead = Gm("a", "gm_condition", "killed");
  WithText(dead, "name", kDead);
  WithText(dead, "op", "add");
  auto ev = t.Submit(dead);
  ASSERT_OK(ev);
  EXPECT_TRUE(Cites(*ev, "004.duration.end_turn"));
  EXPECT_FALSE(Has(t, "a", kBlinded));
  EXPECT_EQ(t.state().round, 1);
  EXPECT_EQ(t.state().active, "c");
  EXPECT_FALSE(t.Submit(Cmd("a", "end_turn")).ok());
  // Killing a creature whose turn is not running changes no turn.
  ASSERT_OK(t.Submit(GmAdds("b", kDead, "killed")));
  EXPECT_EQ(t.state().active, "c");
}

// The same when the Blind comes after the dead creature's place was passed
// this round (l.8: that turn is lost): it lasts to the end of its place in
// round 2, where it ends (not "round 1", which would never come again).
TEST(Actions, ABlindOnTheDeadAfterItsPlacePassedEndsNextRound) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}});
  auto b = Being("b", "y", 2, 1, {{"ins", 15}});
  auto c = Being("c", "x", 3, 1, {{"ins", 10}, {"quick_fingers", 5}});
  Table t(ApRp(), MakeRoster({a, b, c}));
  ASSERT_OK(t.Submit(GmAdds("b", kDead, "killed")));
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));  // b's place: skipped
  ASSERT_EQ(t.state().active, "c");
  ASSERT_OK(t.Submit(Cmd("c", "blind", {"b"}), {15}));  // 15 + 5 = 20; the Dead make no check
  ASSERT_TRUE(Has(t, "b", kBlinded));
  EXPECT_EQ(t.state().Find("b")->FindCondition(kBlinded)->expiry.round, 2);
  ASSERT_OK(t.Submit(Cmd("c", "end_turn")));  // round 2: a
  EXPECT_TRUE(Has(t, "b", kBlinded));
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));  // b's place in round 2: lost
  EXPECT_FALSE(Has(t, "b", kBlinded));
}

// The same when the Blind comes in a turn held to the end of the round (l.8
// "hold their turn and take it later in a round"): a holds, b is killed
// before its place, which is skipped (lost); a takes its held turn last and
// blinds b: the Blind lasts to b's place in round 2, where it ends with the
// lost turn (black-box: tied to round 1's place, passed already, it ended
// with a's held turn, still in round 1, before b's next turn had come).
TEST(Actions, ABlindOnTheDeadInATurnHeldToTheEndEndsNextRound) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"quick_fingers", 5}});  // 40
  auto b = Being("b", "y", 2, 1, {{"ins", 10}});                        // 20
  auto c = Being("c", "y", 5, 5, {{"ins", 15}});                        // 30
  Table t(ApRp(), MakeRoster({a, b, c}));
  ASSERT_OK(t.Submit(Cmd("a", "hold_turn")));
  ASSERT_EQ(t.state().active, "c");
  ASSERT_OK(t.Submit(GmAdds("b", kDead, "killed")));
  ASSERT_OK(t.Submit(Cmd("c", "end_turn")));  // b's place: skipped; a's held turn
  ASSERT_EQ(t.state().active, "a");
  ASSERT_EQ(t.state().round, 1);
  ASSERT_OK(t.Submit(Cmd("a", "blind", {"b"}), {15}));  // 15 + 5 = 20; the Dead make no check
  ASSERT_TRUE(Has(t, "b", kBlinded));
  EXPECT_EQ(t.state().Find("b")->FindCondition(kBlinded)->expiry.round, 2);
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));  // round 2: a
  ASSERT_EQ(t.state().round, 2);
  EXPECT_TRUE(Has(t, "b", kBlinded));
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));  // c
  EXPECT_TRUE(Has(t, "b", kBlinded));
  ASSERT_OK(t.Submit(Cmd("c", "end_turn")));  // b's place in round 2: lost
  EXPECT_FALSE(Has(t, "b", kBlinded));
}

// l.69: a creature can choose to fail its own DR.
TEST(Actions, ChooseToFailADefenseRoll) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}});
  auto m = Being("m", "y", 5, 5);
  Table t(ApRp(), MakeRoster({a, m}));
  auto dr = GmDr("m", "a", "cha", "a willing ally's buff");
  With(dr, "fail", 1);
  auto ev = t.Submit(dr);
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "004.dr", "dr_power"), 14);
  EXPECT_EQ(NumOf(*ev, "004.dr", "total"), -999);  // no roll
}


// l.22: "a creature within 1 m of you": a bleeding creature may stabilize
// itself (0 m); 2 m away is refused citing the rule.
TEST(Actions, StabilizeSelfAndRange) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"first_aid", 2}});
  auto b = Being("b", "x", 3, 1);
  auto foe = Being("foe", "y", 15, 15, {{"ins", 0}});  // l.2: two parties
  Table t(ApRp(), MakeRoster({a, b, foe}));
  ASSERT_OK(t.Submit(Impose("b", kBleeding)));
  auto far = t.Submit(Cmd("a", "stabilize", {"b"}), {19});
  EXPECT_EQ(far.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(far.status().message().find("l.22"), std::string::npos);
  ASSERT_OK(t.Submit(Impose("a", kBleeding)));
  ASSERT_OK(t.Submit(Cmd("a", "stabilize", {"a"}), {6}));  // 6 + 2 = 8 >= 8
  EXPECT_FALSE(Has(t, "a", kBleeding));
}


// l.24: Switch Weapons is free drawing into an empty hand or sheathing
// without replacing; a swap costs 1 AP; the free one excludes the free
// Interact (l.19) and vice versa.
TEST(Actions, SwitchWeaponsFreeOnlyDrawingOrSheathing) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"free_hands", 0}});
  auto b = Being("b", "y", 2, 1);
  Table t(ApRp(), MakeRoster({a, b}));
  ASSERT_TRUE(t.status().ok()) << t.status();
  EXPECT_EQ(Res(t, "a", kFreeHands), 0);
  auto draw = Cmd("a", "switch_weapons");
  WithText(draw, "mode", "draw");
  EXPECT_EQ(t.Submit(draw).status().code(), absl::StatusCode::kFailedPrecondition);  // no empty hand
  ASSERT_OK(t.Submit(Cmd("a", "switch_weapons")));  // a swap (both hands full): 1 AP
  EXPECT_EQ(Res(t, "a", kAp), 2);
  auto sheathe = Cmd("a", "switch_weapons");
  WithText(sheathe, "mode", "sheathe");
  ASSERT_OK(t.Submit(sheathe));  // free
  EXPECT_EQ(Res(t, "a", kAp), 2);
  EXPECT_EQ(Res(t, "a", kFreeHands), 1);
  ASSERT_OK(t.Submit(Cmd("a", "interact")));  // the free one is used: 1 AP
  EXPECT_EQ(Res(t, "a", kAp), 1);
  auto bad = Cmd("a", "switch_weapons");
  WithText(bad, "mode", "juggle");
  auto r = t.Submit(bad);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("params.mode"), std::string::npos);
}

// l.35 "with a free hand"; l.32 "at least one free hand or the ability to
// climb without using your hands"; l.34 the dropped item is taken only with
// a free hand.
TEST(Actions, FreeHands) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"free_hands", 0}, {"athletics", 5}});
  auto b = Being("b", "y", 2, 1, {{"free_hands", 1}});
  auto ogre = Being("ogre", "y", 1, 2, {{"size_cat", 1}});
  Table t(ApRp(), MakeRoster({a, b, ogre}));
  auto g = t.Submit(Cmd("a", "grab", {"b"}));
  EXPECT_EQ(g.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(g.status().message().find("l.35"), std::string::npos);
  EXPECT_EQ(t.Submit(Cmd("a", "climb", {"ogre"})).status().code(), absl::StatusCode::kFailedPrecondition);
  auto take = Cmd("a", "disarm", {"b"});
  With(take, "take", 1);
  EXPECT_EQ(t.Submit(take).status().code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_OK(t.Submit(Cmd("a", "disarm", {"b"}), {15, 3}));  // 20 > 3
  EXPECT_EQ(Res(t, "b", kFreeHands), 2);                     // dropped
  EXPECT_EQ(Res(t, "a", kAp), 1);                             // Disarm 2 AP (l.34)
  // b now holds nothing: nothing to disarm.
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
}

TEST(Actions, DisarmAndTakeTheItem) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"free_hands", 1}});
  auto b = Being("b", "y", 2, 1, {{"free_hands", 1}});
  Table t(ApRp(), MakeRoster({a, b}));
  auto take = Cmd("a", "disarm", {"b"});
  With(take, "take", 1);
  ASSERT_OK(t.Submit(take, {10, 10}));  // a tie: not higher (l.34), fails
  EXPECT_EQ(Res(t, "b", kFreeHands), 1);
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("b", "end_turn")));
  ASSERT_OK(t.Submit(take, {11, 10}));
  EXPECT_EQ(Res(t, "b", kFreeHands), 2);
  EXPECT_EQ(Res(t, "a", kFreeHands), 0);
}

// 004 l.34: "force a target ... to drop one item that it is holding in
// their hand": a dropped weapon is no longer wielded; attacking with it is
// refused until it is picked up again (l.19 "picking up a weapon", 1 AP /
// free); one the disarmer took cannot be picked up.
TEST(Actions, ADisarmedCreatureCannotAttackWithTheDroppedWeapon) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}});
  auto b = Being("b", "y", 2, 1, {{"ins", 15}});
  Arm(b, "club", "1d6", "melee");
  Arm(b, "bolt", "1d4", "ability");
  Table t(ApRp(), MakeRoster({a, b}));
  auto bad = Cmd("a", "disarm", {"b"});
  WithText(bad, "item", "bolt");  // an Ability is not held in a hand
  EXPECT_EQ(t.Submit(bad).status().code(), absl::StatusCode::kInvalidArgument);
  ASSERT_OK(t.Submit(Cmd("a", "disarm", {"b"}), {12, 3}));  // 12 > 3
  EXPECT_EQ(Res(t, "b", kFreeHands), 2);
  EXPECT_TRUE(Has(t, "b", kDisarmed));
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  auto hit = Cmd("b", "attack", {"a"});
  hit.weapon = "club";
  auto r = t.Submit(hit);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(r.status().message().find("l.34"), std::string::npos);
  auto pick = Cmd("b", "interact");
  With(pick, "takes", 1);
  WithText(pick, "item", "club");
  ASSERT_OK(t.Submit(pick));  // the turn's free Interact (l.19)
  EXPECT_FALSE(Has(t, "b", kDisarmed));
  EXPECT_EQ(Res(t, "b", kFreeHands), 1);
  EXPECT_EQ(Res(t, "b", kAp), 3);
  ASSERT_OK(t.Submit(hit, {1}));  // allowed again (a natural 1 misses)
  EXPECT_EQ(Res(t, "b", kAp), 1);
  ASSERT_OK(t.Submit(Cmd("b", "end_turn")));
  // Taken by the disarmer: b cannot pick it up.
  auto take = Cmd("a", "disarm", {"b"});
  With(take, "take", 1);
  ASSERT_OK(t.Submit(take, {12, 3}));
  EXPECT_EQ(Res(t, "a", kFreeHands), 1);
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  auto r2 = t.Submit(pick);
  EXPECT_EQ(r2.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(r2.status().message().find("a took club"), std::string::npos);
}

// l.33: Command needs summons (controller = the commander).
TEST(Actions, CommandNeedsSummons) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}});
  auto b = Being("b", "y", 5, 1);
  Table t(ApRp(), MakeRoster({a, b}));
  auto r = t.Submit(Cmd("a", "command"));
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(r.status().message().find("l.33"), std::string::npos);
  auto wolf = Being("wolf", "x", 1, 3);
  wolf.controller = "a";
  Table t2(ApRp(), MakeRoster({a, b, wolf}));
  ASSERT_OK(t2.Submit(Cmd("a", "command")));
  EXPECT_TRUE(Has(t2, "a", kCommanding));
  EXPECT_EQ(Res(t2, "a", kAp), 2);  // 1 AP
}


// Every row of the two action tables (l.17-38): its AP cost, paid on the
// actor's own turn (the target sizes and dice are fixed).
// 004_1a3e461770fc9e7a.txt l.26 "Use Item | 3 | Use a non-ability
// consumable": all three of the turn's AP (l.6). After a Move (1 AP) the 2
// left are not enough: refused, nothing spent, naming l.26 (black-box: the
// refusal cited only l.6, "this needs 3"); off the turn it is refused
// (AP are spent during one's turn, l.6); held, it pays the same 3 AP on the
// holder's turn (l.9 "spend the AP that the action would cost").
TEST(Actions, UseItemTakesAllThreeAp) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}});
  auto foe = Being("foe", "y", 10, 10, {{"ins", 0}});
  Table t(ApRp(), MakeRoster({a, foe}));
  ASSERT_OK(t.Submit(Cmd("a", "move_action")));
  auto r = t.Submit(Cmd("a", "use_item"));
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition) << r.status();
  // The refusal names the cost's line, not only the budget's (l.6).
  EXPECT_NE(r.status().message().find("needs 3 (004 Basic Actions, l.26)"), std::string::npos) << r.status();
  EXPECT_EQ(Res(t, "a", kAp), 2);
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  auto off = t.Submit(Cmd("a", "use_item"));
  EXPECT_EQ(off.status().code(), absl::StatusCode::kFailedPrecondition) << off.status();
  ASSERT_OK(t.Submit(Cmd("foe", "end_turn")));
  auto h = Cmd("a", "hold_action");
  WithText(h, "action", "use_item");
  WithText(h, "trigger", "moves");
  ASSERT_OK(t.Submit(h));
  EXPECT_EQ(Res(t, "a", kAp), 0);
}

// 004 l.14 "Here is a list of the most basic actions ... It contains
// everything you need for a basic battle", l.27-28 the advanced ones: each
// row of both tables (l.17-26, l.31-38) is a verb paying its AP column
// (Interact l.19 and Switch Weapons l.24, free once a turn:
// PaidOnlyForInteractAndSwitchWeapons).
TEST(Actions, EveryRowCostsItsAp) {
  struct Row {
    const char* action;
    std::vector<std::string> targets;
    int64_t ap;
    int line;
  };
  const std::vector<Row> rows = {
      {"attack", {"e"}, 2, 17},        {"defend", {}, 2, 18},         {"move_action", {}, 1, 20},
      {"sprint", {}, 3, 21},           {"stabilize", {"b"}, 3, 22},   {"switch_places", {"b"}, 1, 23},
      {"take_cover", {}, 1, 25},       {"use_item", {}, 3, 26},       {"blind", {"e"}, 2, 31},
      {"climb", {"g"}, 2, 32},         {"command", {}, 1, 33},        {"disarm", {"e"}, 2, 34},
      {"grab", {"e"}, 2, 35},          {"hide", {}, 2, 36},           {"shove", {"e"}, 1, 37},
      {"trip", {"e"}, 2, 38},
  };
  for (const Row& r : rows) {
    auto a = Being("a", "x", 1, 1, {{"ins", 20}});
    Arm(a, "ax", "1d8", "melee");
    auto b = Being("b", "x", 2, 1);
    auto e = Being("e", "y", 1, 2, {{"free_hands", 1}});
    auto g = Being("g", "y", 2, 2, {{"size_cat", 1}});
    auto wolf = Being("wolf", "x", 5, 5);
    wolf.controller = "a";
    Table t(ApRp(), MakeRoster({a, b, e, g, wolf}));
    ASSERT_TRUE(t.status().ok()) << t.status();
    ASSERT_OK(t.Submit(Impose("b", kBleeding)));
    auto c = Cmd("a", r.action, r.targets);
    if (std::string(r.action) == "shove") c = Path(c, {{1, 3}});
    auto ev = t.Submit(c);  // seeded dice
    ASSERT_TRUE(ev.ok()) << r.action << ": " << ev.status();
    EXPECT_EQ(Res(t, "a", kAp), 3 - r.ap) << r.action << " (l." << r.line << ")";
  }
  // Interact and Switch Weapons (l.19, l.24) cost 1 AP when paid.
  for (const char* action : {"interact", "switch_weapons"}) {
    auto a = Being("a", "x", 1, 1, {{"ins", 20}});
    auto foe = Being("foe", "y", 15, 15, {{"ins", 0}});  // l.2: two parties
    Table t(ApRp(), MakeRoster({a, foe}));
    auto c = Cmd("a", action);
    With(c, "paid", 1);
    ASSERT_OK(t.Submit(c));
    EXPECT_EQ(Res(t, "a", kAp), 2) << action;
  }
}

// l.31, l.37, l.38: the size rules on Blind, Shove and Trip: a target one
// size larger has advantage; two larger is refused; a smaller target gives
// the actor advantage. l.38: Trip knocks Prone on a higher roll.
TEST(Actions, SizeRulesOnBlindShoveTrip) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"size_cat", 1}, {"athletics", 2}});
  auto small = Being("small", "y", 2, 1);                    // one smaller
  auto big = Being("big", "y", 1, 2, {{"size_cat", 2}});     // one larger
  auto huge = Being("huge", "y", 2, 2, {{"size_cat", 3}});   // two larger
  Table t(ApRp(), MakeRoster({a, small, big, huge}));
  for (const char* action : {"blind", "trip", "shove"}) {
    auto c = Cmd("a", action, {"huge"});
    if (std::string(action) == "shove") c = Path(c, {{3, 3}});
    auto r = t.Submit(c);
    EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition) << action;
  }
  auto ev = t.Submit(Cmd("a", "trip", {"small"}), {3, 12, 9});  // a: 2d20kh1 12 + 2 = 14 > 9
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "004.trip", "actor_advantage"), 1);
  EXPECT_TRUE(Has(t, "small", kProne));
  Table t2(ApRp(), MakeRoster({a, small, big, huge}));
  ev = t2.Submit(Cmd("a", "blind", {"big"}), {15, 3, 16});  // 15 vs 2d20kh1 16: fails
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "004.blind", "target_advantage"), 1);
  EXPECT_FALSE(Has(t2, "big", kBlinded));
}


// 004 l.38 "If you succeed on an Athletics or Raw Force check against the
// target's Athletics or Nimbleness Check"; l.34 "You and your target make
// an ... Check": the check is the target's act, and the Dead cannot act
// (README "Shape of a round"): a Dead target makes none; a's check
// succeeds as against an object. (Black-box: the dead creature rolled.)
TEST(Actions, ADeadTargetMakesNoCheck) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"athletics", 2}});
  auto b = Being("b", "y", 2, 1, {{"athletics", 9}});
  Table t(ApRp(), MakeRoster({a, b}));
  ASSERT_OK(t.Submit(GmAdds("b", kDead, "killed")));
  auto ev = t.Submit(Cmd("a", "trip", {"b"}), {1});  // one die: 1 + 2 = 3; b rolls none
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "004.trip", "actor"), 3);
  EXPECT_EQ(NumOf(*ev, "004.trip", "target_total"), -999);
  EXPECT_TRUE(Has(t, "b", kProne));
}

// `paid` exists only where a free action does (l.19, l.24).
TEST(Actions, PaidOnlyForInteractAndSwitchWeapons) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}});
  auto foe = Being("foe", "y", 15, 15, {{"ins", 0}});  // l.2: two parties
  Table t(ApRp(), MakeRoster({a, foe}));
  auto c = Cmd("a", "defend");
  With(c, "paid", 1);
  auto r = t.Submit(c);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("paid"), std::string::npos);
  EXPECT_EQ(Res(t, "a", kAp), 3);
}


// Reading: an armed creature holds its weapon in one hand (free_hands =
// hands - 1); unarmed, both are free; so Disarm works on the armed one.
TEST(Actions, FreeHandsDefault) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}});
  auto b = Being("b", "y", 2, 1);
  Arm(b, "club", "1d6", "melee");
  Table t(ApRp(), MakeRoster({a, b}));
  EXPECT_EQ(Res(t, "a", kFreeHands), 2);
  EXPECT_EQ(Res(t, "b", kFreeHands), 1);
  auto r = t.Submit(Cmd("b", "disarm", {"a"}));
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition);  // not b's turn
  ASSERT_OK(t.Submit(Cmd("a", "disarm", {"b"}), {12, 3}));
  EXPECT_EQ(Res(t, "b", kFreeHands), 2);
}


// l.36: tripping an enemy clearly gives the location away (reading): hidden
// until the end of the turn, then not; Hide again before the turn ends
// keeps it hidden.
TEST(Actions, ActingOnAnEnemyRevealsAHiddenCreature) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"stealth", 5}, {"athletics", 3}});
  auto b = Being("b", "y", 2, 1, {{"perception", 1}});
  Table t(ApRp(), MakeRoster({a, b}));
  ASSERT_OK(t.Submit(Cmd("a", "hide"), {10, 4}));
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("b", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("a", "trip", {"b"}), {15, 2}));
  EXPECT_TRUE(Has(t, "b", kProne));
  const Condition* h = t.state().Find("a")->FindRelative(kHidden, "b");
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h->expiry.kind, fb::ExpiryKind::TurnEnd);
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  EXPECT_EQ(t.state().Find("a")->FindRelative(kHidden, "b"), nullptr);
}

// 004 l.52 "You can choose to miss with your own attack" and l.36 "You stop
// being hidden if ... you take any action that would clearly give away your
// location. You stay hidden until the end of the turn": an attack made to
// miss is still an attack: hidden only to the end of the turn. (Black-box:
// with miss=1 a stayed hidden for good.)
TEST(Actions, ChoosingToMissStillRevealsAHiddenAttacker) {
  Table t(ApRp(), HiderAndWatcher());
  ASSERT_NO_FATAL_FAILURE(HideFromBUntilRoundTwo(t));
  auto miss = Attack("a", "b", "ax");
  With(miss, "miss", 1);
  ASSERT_OK(t.Submit(miss));
  EXPECT_EQ(Res(t, "b", kVitality), 30);
  EXPECT_EQ(Res(t, "a", kAp), 1);
  const Condition* h = t.state().Find("a")->FindRelative(kHidden, "b");
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h->expiry.kind, fb::ExpiryKind::TurnEnd);
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  EXPECT_EQ(t.state().Find("a")->FindRelative(kHidden, "b"), nullptr);
}

// 004 l.36 "You successfully hide if you beat their Perception Check with
// your Stealth Check. ... You stop being hidden if an enemy sees you ... You
// stay hidden until the end of the turn if this happens during your turn":
// a second Hide whose Stealth (2 + 5 = 7) does not beat b's Perception
// (10 + 1 = 11) means b sees a: the earlier Hidden from b lasts only to the
// end of the turn. (Black-box: the failed Hide kept the first for good.)
TEST(Actions, AFailedSecondHideEndsTheEarlierHidden) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"stealth", 5}});
  auto b = Being("b", "y", 5, 1, {{"perception", 1}});
  Table t(ApRp(), MakeRoster({a, b}));
  ASSERT_OK(t.Submit(Cmd("a", "hide"), {10, 4}));  // 15 > 5
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("b", "end_turn")));
  ASSERT_NE(t.state().Find("a")->FindRelative(kHidden, "b"), nullptr);
  ASSERT_OK(t.Submit(Cmd("a", "hide"), {2, 10}));  // 7 <= 11: seen
  const Condition* h = t.state().Find("a")->FindRelative(kHidden, "b");
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h->expiry.kind, fb::ExpiryKind::TurnEnd);
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  EXPECT_EQ(t.state().Find("a")->FindRelative(kHidden, "b"), nullptr);
}

// 004 l.36 (seeds/004_1a3e461770fc9e7a.txt) "You stop being hidden if an
// enemy sees you ... You stay hidden until the end of the turn if this
// happens during your turn": a failed second Hide (b sees a) ends the
// hiding, not only the hiding from b, as the GM's `gm_condition remove
// Hidden` does (README, Hiding). a hid from b and c (10 + 5 = 15 > 4 + 1,
// 3 + 1); c is Dead when a hides again, 2 + 5 = 7 <= 10 + 1 = 11: seen by
// b, c makes no check. a's Hidden from c lasts to the end of a's turn, then
// ends. (Black-box: the Hidden from c stayed until found.)
TEST(Actions, AFailedSecondHideEndsTheHidingTowardsEveryEnemy) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"stealth", 5}});
  auto b = Being("b", "y", 5, 1, {{"perception", 1}, {"ins", 2}});
  auto c = Being("c", "y", 2, 1, {{"perception", 1}});
  Arm(c, "ax", "1d8", "melee");
  Table t(ApRp(), MakeRoster({a, b, c}));
  ASSERT_OK(t.Submit(Cmd("a", "hide"), {10, 4, 3}));
  ASSERT_NE(t.state().Find("a")->FindRelative(kHidden, "c"), nullptr);
  ASSERT_OK(t.Submit(GmAdds("c", kDead, "felled")));
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  ASSERT_EQ(t.state().active, "b");
  ASSERT_OK(t.Submit(Cmd("b", "end_turn")));
  ASSERT_EQ(t.state().round, 2);
  ASSERT_EQ(t.state().active, "a");
  ASSERT_OK(t.Submit(Cmd("a", "hide"), {2, 10}));  // 7 <= 11: seen by b; c rolls nothing
  const Condition* h = t.state().Find("a")->FindRelative(kHidden, "c");
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h->expiry.kind, fb::ExpiryKind::TurnEnd);
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  EXPECT_EQ(t.state().Find("a")->FindRelative(kHidden, "b"), nullptr);
  EXPECT_EQ(t.state().Find("a")->FindRelative(kHidden, "c"), nullptr);
}

// 004 l.32 "You occupy a space that is also occupied by the target, and you
// move with it if it moves": nothing keeps the climber from getting down by
// its own movement: a at (2,1) on the ogre moves to (1,2): 1 m of its 3,
// no longer Climbing; the ogre then moves alone. (Black-box: the move was
// refused, "it moves with it", and the climber could never get off.)
TEST(Actions, AClimberClimbsDownByMoving) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"athletics", 5}});
  auto ogre = Being("ogre", "y", 2, 1, {{"size_cat", 1}, {"ins", 15}});
  Table t(ApRp(), MakeRoster({a, ogre}));
  ASSERT_OK(t.Submit(Cmd("a", "climb", {"ogre"}), {12, 4}));
  ASSERT_TRUE(Has(t, "a", kClimbing));
  ASSERT_OK(t.Submit(Path(Cmd("a", "move"), {{1, 2}})));
  EXPECT_FALSE(Has(t, "a", kClimbing));
  EXPECT_EQ(t.state().Find("a")->at, (Pos{1, 2}));
  EXPECT_EQ(Res(t, "a", kMovement), 2);
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  ASSERT_OK(t.Submit(Path(Cmd("ogre", "move"), {{3, 1}})));
  EXPECT_EQ(t.state().Find("a")->at, (Pos{1, 2}));
}

}  // namespace
}  // namespace combat::kernel::aprp
