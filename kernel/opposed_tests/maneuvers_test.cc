// Maneuvers after a critical win (maneuvers.cc, l.65-77) and the size
// rules (l.74-77). Pools: a strikes with Fighting Style 1 (1 die); d
// defends with "none" (automatic failure, l.56), so a 5 is a critical win.
// d: Athletics 1, Acrobatics 1 (attributes 0): 1 die each.
#include <string>
#include <tuple>
#include <vector>

#include "gtest/gtest.h"
#include "kernel/opposed_tests/test_util.h"

namespace combat::kernel::opposed::testutil {
namespace {

fb::RosterT Pair(int64_t d_size, bool heavy = false) {
  auto a = Who("a", "x", 5, 5, {{"health", 20}, {"speed", 6}, {"fighting_style", 1}, {"deception", 1}},
               {W("club", "1d6", "melee", heavy ? "heavy" : "medium", {}, "crushing")});
  auto d = Who("d", "y", 6, 5,
               {{"health", 20}, {"speed", 6}, {"athletics", 1}, {"acrobatics", 1}, {"fighting_style", 1},
                {"size_class", d_size}, {"initiative", -5}},
               {W("sword", "1d8", "melee", "medium"), W("shield", "", "shield", "", {{"br", 2}}, "")});
  return Roster({std::move(a), std::move(d)});
}

// a strikes d with its club and d does not defend; a's attack dice are
// `dice`: the events of d's answer.
absl::StatusOr<std::vector<events::EventBuffer>> UndefendedClubStrike(Table& t,
                                                                      std::vector<int> dice) {
  auto s = Cmd("a", "strike", {"d"});
  s.weapon = "club";
  if (auto st = t.Submit(s); !st.ok()) return st.status();
  auto none = Cmd("d", "defend");
  none.window = t.state().windows.rbegin()->first;
  WithText(none, "defense", "none");
  return t.Submit(none, std::move(dice));
}

// a strikes d, d does not defend, a rolls a 5: the maneuver window is open.
void CriticalWin(Table& t) {
  ASSERT_TRUE(UndefendedClubStrike(t, {5}).ok());
  ASSERT_EQ(t.state().windows.rbegin()->second.kind, "maneuver");
}

// A falling beam knocks d out (Health 0, l.116); a's club Strike meets no
// defense (l.56, l.58): its die 5 is a critical win, a maneuver to choose.
void KnockOutThenWinCritically(Table& t) {
  ASSERT_TRUE(t.status().ok()) << t.status();
  ASSERT_TRUE(t.Submit(KnockOut("d")).ok());
  ASSERT_TRUE(t.state().Find("d")->Has("Unconscious"));
  auto s = Cmd("a", "strike", {"d"});
  s.weapon = "club";
  ASSERT_TRUE(t.Submit(s, {5}).ok());
  ASSERT_EQ(t.state().windows.rbegin()->second.kind, "maneuver");
}

absl::StatusOr<std::vector<events::EventBuffer>> Maneuver(Table& t, const std::string& m,
                                                          std::vector<int> dice,
                                                          const std::string& item = "") {
  auto c = Cmd("a", "maneuver");
  c.window = t.state().windows.rbegin()->first;
  WithText(c, "maneuver", m);
  if (!item.empty()) WithText(c, "item", item);
  return t.Submit(c, dice);
}

// The note of the last window opened in `events`.
std::string OpenedNote(const std::vector<events::EventBuffer>& events) {
  std::string note;
  for (const auto& e : events) {
    const fb::Event& ev = e.event();
    if (ev.body_type() != fb::Body::StateChange) continue;
    const fb::StateChange* sc = ev.body_as_StateChange();
    if (sc->change_type() == fb::Change::WindowOpened && sc->note() != nullptr) note = sc->note()->str();
  }
  return note;
}

// 003 l.67 "You must be wielding a shield or heavy weapon to use this
// maneuver", l.71 Precision "Must be used as part of a Strike": the
// maneuver window names only the maneuvers the winner may take, as the
// defense window names only the open defenses. Black-box case: a defender
// with a bare club was offered "bash, ..., precision" and both were then
// refused (l.67, l.71).
TEST(Maneuvers, TheWindowNamesOnlyTheManeuversOpenToTheWinner) {
  Table t(OpposedTests(), Pair(2), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto ev = UndefendedClubStrike(t, {5});  // a's critical win with a medium club
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(OpenedNote(*ev), "a may maneuver (brace, disarm, feint, precision, push, trip or none)");
  // d wins with its shield: Bash, but no Precision (not its Strike).
  Table u(OpposedTests(), Pair(2), {6, 1});
  auto s = Cmd("a", "strike", {"d"});
  s.weapon = "club";
  ASSERT_TRUE(u.Submit(s).ok());
  auto block = Cmd("d", "defend");
  block.window = u.state().windows.rbegin()->first;
  WithText(block, "defense", "block");
  ev = u.Submit(block, {1, 6});  // a fails, d passes
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(OpenedNote(*ev), "d may maneuver (bash, brace, disarm, feint, push, trip or none)");
}

TEST(Maneuvers, BashNeedsAShieldOrHeavyWeapon) {  // l.67
  Table t(OpposedTests(), Pair(2), {6, 1});
  CriticalWin(t);
  EXPECT_EQ(Maneuver(t, "bash", {}).status().code(), absl::StatusCode::kFailedPrecondition);
  Table h(OpposedTests(), Pair(2, true), {6, 1});
  CriticalWin(h);
  // d's Athletics (1 die) 1 fails: Dazed; then damage 3.
  auto ev = Maneuver(h, "bash", {1, 3});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_TRUE(h.state().Find("d")->Has("Dazed"));
  EXPECT_EQ(h.state().Find("d")->Resource("health"), 17);
}

// Seed 003 l.67 "The target must succeed on an Athletics test or become
// Dazed": a foe already Dazed that fails the test again stays as it was,
// one Dazed (black-box case: a second Dazed was added, which the GM had to
// remove twice). By hand: d's Athletics 1 + STR 0 = 1 die, a 1 fails twice;
// club damage 3 then 2: 20 - 3 - 2 = 15.
TEST(Maneuvers, ABashOfAFoeAlreadyDazedLeavesOneDazed) {
  Table h(OpposedTests(), Pair(2, true), {6, 1});
  CriticalWin(h);
  ASSERT_TRUE(Maneuver(h, "bash", {1, 3}).ok());
  ASSERT_EQ(CountCond(*h.state().Find("d"), "Dazed"), 1);
  CriticalWin(h);
  auto ev = Maneuver(h, "bash", {1, 2});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "successes"), 0);
  EXPECT_EQ(CountCond(*h.state().Find("d"), "Dazed"), 1);
  EXPECT_EQ(h.state().Find("d")->Resource("health"), 15);
}

// A shield held by the winner also allows a Bash (l.67): here the
// defender wins (a rolls 1, d blocks with a 6) and bashes back. l.66:
// "Whenever the outcome of a combat roll is a critical win, the winner can
// attempt a maneuver against the loser as part of the attack": the winner
// may be the defender, the loser the attacker.
TEST(Maneuvers, TheDefenderBashesWithItsShield) {
  Table t(OpposedTests(), Pair(2), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto s = Cmd("a", "strike", {"d"});
  s.weapon = "club";
  ASSERT_TRUE(t.Submit(s).ok());
  auto block = Cmd("d", "defend");
  block.window = t.state().windows.rbegin()->first;
  WithText(block, "defense", "block");
  ASSERT_TRUE(t.Submit(block, {1, 6}).ok());  // a fails, d passes: d's critical win
  auto bash = Cmd("d", "maneuver");
  bash.window = t.state().windows.rbegin()->first;
  WithText(bash, "maneuver", "bash");
  auto ev = t.Submit(bash);  // a has no Athletics: 0 dice, fails: Dazed
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_TRUE(t.state().Find("a")->Has("Dazed"));
  EXPECT_EQ(t.state().Find("a")->Resource("health"), 20);  // the attack negated (l.60)
}

TEST(Maneuvers, TripTwoSizesSmallerAutomaticallyFails) {  // l.73, l.77
  Table t(OpposedTests(), Pair(0), {6, 1});
  CriticalWin(t);
  auto ev = Maneuver(t, "trip", {2});  // no test die: only the damage die
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "automatic_fail"), 1);
  EXPECT_TRUE(t.state().Find("d")->Has("Prone"));
}

// 003 l.73 "Trip*. You knock your foe down. The target must pass an
// Acrobatics test, or be knocked prone." A foe already lying Prone (and
// not standing up) still makes the test the text demands; failing it, it
// is down as it was: one Prone, not a second one (black-box case: a Trip
// of a Prone foe left it with two Prone conditions).
TEST(Maneuvers, ATripOfAFoeAlreadyProneLeavesOneProne) {
  Table t(OpposedTests(), Pair(2), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto down = Gm("gm_condition", "d", "fell");
  WithText(down, "name", "Prone");
  WithText(down, "op", "add");
  ASSERT_TRUE(t.Submit(down).ok());
  CriticalWin(t);
  // d: Acrobatics 1 + AGI 0 = 1 die: 1, no Success: fails; club damage 2.
  auto ev = Maneuver(t, "trip", {1, 2});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "successes"), 0);
  EXPECT_EQ(CountCond(*t.state().Find("d"), "Prone"), 1);
  EXPECT_EQ(t.state().Find("d")->Resource("health"), 18);  // 20 - 2
}

// 003 l.116 "knocked unconscious", l.73 "The target must pass an Acrobatics
// test, or be knocked prone": a loser lying unconscious cannot make the
// test it must pass, so it fails it automatically (`cannot_defend`, its
// reason and l.116), as its defense (l.56, l.58) and its test against a
// Grapple (l.28) do. Black-box case: an unconscious foe rolled its
// Acrobatics (3 dice: 5, 1, 1) and "resisted the trip".
TEST(Maneuvers, AnUnconsciousLoserFailsItsTestAgainstAManeuver) {
  Table t(OpposedTests(), Pair(2), {6, 1});
  KnockOutThenWinCritically(t);  // d cannot defend: no window
  // No Acrobatics die: the only die given is the club's damage (2).
  auto ev = Maneuver(t, "trip", {2});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "automatic_fail"), 1);
  const Seen why = Number(*ev, "cannot_defend");
  EXPECT_EQ(why.source, "d unconscious");
  EXPECT_EQ(why.rule, "003.health");
  EXPECT_TRUE(t.state().Find("d")->Has("Prone"));
}

// 003 l.116 "knocked unconscious", l.66 "the winner can attempt a
// maneuver", l.60 "If the attacker wins roll for damage": a winner the GM
// knocks out (Health 0) while its maneuver window is open attempts none,
// as a winner already unconscious when it wins does: the system answers
// `none` for it at once (author `system`, text naming l.116) and the
// attack it won rolls its damage on the GM's ruling: club 1d6 = 2, d 20 -
// 2 = 18, d's Acrobatics not rolled, d standing, no window left, and a's
// turn ends (l.12). Black-box cases: the unconscious a tripped d (d's
// Acrobatics rolled, d Prone); then the window waited for the GM to answer
// for a.
TEST(Maneuvers, AWinnerKnockedOutBeforeItsManeuverMakesNone) {
  Table t(OpposedTests(), Pair(2), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  CriticalWin(t);
  auto ev = t.Submit(KnockOut("a"), {2});  // the only die: the club's damage
  ASSERT_TRUE(ev.ok()) << ev.status();
  ASSERT_TRUE(t.state().Find("a")->Has("Unconscious"));
  EXPECT_TRUE(t.state().windows.empty());
  EXPECT_TRUE(Cites(*ev, "003.health"));
  EXPECT_FALSE(Cites(*ev, "003.maneuver.trip"));
  bool answered_for_a = false;
  for (const auto& e : *ev) {
    if (e.event().body_type() != fb::Body::Interrupt) continue;
    const fb::Command* c = e.event().body_as_Interrupt()->command();
    answered_for_a = c->actor()->str() == "a" && c->action()->str() == "maneuver" &&
                     e.event().author()->str() == "system" &&
                     c->text()->str().find("l.116") != std::string::npos;
  }
  EXPECT_TRUE(answered_for_a);
  EXPECT_FALSE(t.state().Find("d")->Has("Prone"));
  EXPECT_EQ(t.state().Find("d")->Resource("health"), 18);
  EXPECT_EQ(t.state().active, "d");
}

// 003 l.76: "Creatures more than one size larger than you automatically
// pass the test." with l.116 (unconscious: the reading that a loser lying
// unconscious fails its test, l.67-73). The text's automatic pass needs no
// test, so it holds for an unconscious creature too: d (size 4) two sizes
// larger than a (size 2, medium), unconscious, is not pushed. Black-box
// case: the unconscious reading's automatic failure overrode l.76 and a
// pushed the unconscious giant 1 m.
TEST(Maneuvers, AnUnconsciousCreatureTwoSizesLargerStillAutomaticallyPasses) {
  Table t(OpposedTests(), Pair(4), {6, 1});
  KnockOutThenWinCritically(t);
  auto ev = Maneuver(t, "push", {2});  // no Athletics die; the club's damage 2
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "automatic_pass"), 1);
  EXPECT_EQ(NumOf(*ev, "automatic_fail"), -999);  // none
  EXPECT_EQ(t.state().Find("d")->at, (Pos{6, 5}));
}

TEST(Maneuvers, PushTwoSizesLargerAutomaticallyPasses) {  // l.72, l.76
  Table t(OpposedTests(), Pair(4), {6, 1});
  CriticalWin(t);
  auto ev = Maneuver(t, "push", {2});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "automatic_pass"), 1);
  EXPECT_EQ(t.state().Find("d")->at.x, 6);
}

TEST(Maneuvers, PushOneSizeSmallerHasABaneAndMovesOneMetre) {  // l.72, l.77
  Table t(OpposedTests(), Pair(1), {6, 1});
  CriticalWin(t);
  // Athletics 1 die - bane 1 = 0 dice: fails without a roll; pushed from
  // (6,5) straight away from a at (5,5) to (7,5): forced, no opportunity
  // attack (l.82).
  auto ev = Maneuver(t, "push", {2});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "banes"), 1);
  EXPECT_EQ(t.state().Find("d")->at.x, 7);
  EXPECT_TRUE(t.state().windows.empty());
}

// 003 l.72 "Push*. You drive your foe back. The target must pass an
// Athletics test, or be pushed back 1m": back is straight away from the
// winner's body, measured from the centres of the two spaces, not from
// their top-left squares. By hand: a 2x2 ogre a (5,5)-(6,6), size 3,
// pushes the medium d standing at (4,6), west of its lower row: d's
// Athletics 1 - 1 bane (one size smaller, l.77) = 0 dice fails; d goes
// 1 m west to (3,6). Then a medium a at (4,6) pushes the 2x2 ogre d
// (5,5)-(6,6), size 3, east of it: Athletics 1 + 1 boon (l.76) = 2 dice,
// 1,2 fail; d goes 1 m east to (6,5). Black-box case: both went
// diagonally, to (3,7) and to (6,4), the direction read from the corners.
TEST(Maneuvers, APushDrivesTheFoeStraightAwayFromTheWinnersBody) {
  for (const bool big_winner : {true, false}) {
    auto a = Who("a", "x", big_winner ? 5 : 4, big_winner ? 5 : 6,
                 {{"health", 20}, {"speed", 6}, {"fighting_style", 1}, {"size_class", big_winner ? 3 : 2}},
                 {W("club", "1d6", "melee", "medium", {}, "crushing")});
    auto d = Who("d", "y", big_winner ? 4 : 5, big_winner ? 6 : 5,
                 {{"health", 20}, {"speed", 6}, {"athletics", 1}, {"size_class", big_winner ? 2 : 3},
                  {"initiative", -5}},
                 {W("sword", "1d8", "melee", "medium")});
    (big_winner ? a : d).size = 2;
    Table t(OpposedTests(), Roster({std::move(a), std::move(d)}), {6, 1});
    ASSERT_TRUE(t.status().ok()) << t.status();
    CriticalWin(t);
    auto ev = big_winner ? Maneuver(t, "push", {2}) : Maneuver(t, "push", {1, 2, 2});
    ASSERT_TRUE(ev.ok()) << ev.status();
    EXPECT_EQ(NumOf(*ev, "pass"), 0);
    EXPECT_EQ(t.state().Find("d")->at, big_winner ? (Pos{3, 6}) : (Pos{6, 5}));
  }
}

TEST(Maneuvers, DisarmAShieldWithABoonThenPickItUp) {  // l.69, l.35
  Table t(OpposedTests(), Pair(2), {6, 1});
  CriticalWin(t);
  // A shield: the test gains a boon: Athletics 1 + 1 = 2 dice: 1,2 fail.
  auto ev = Maneuver(t, "disarm", {1, 2, 3}, "shield");
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "boons"), 1);
  EXPECT_EQ(t.state().Find("d")->Resource("dropped.shield"), 1);
  EXPECT_EQ(FindShield(*t.state().Find("d")), nullptr);
  // Manipulate (a reaction, 1 AP): d picks it up.
  auto pick = Cmd("d", "manipulate");
  pick.weapon = "shield";
  ASSERT_TRUE(t.Submit(pick).ok());
  EXPECT_EQ(t.state().Find("d")->Resource("dropped.shield"), 0);
  EXPECT_EQ(t.state().Find("d")->Resource("ap"), 2);
}

// 003 l.69: "It the item is a weapon held with two hands or a shield, the
// test is made with a boon"; l.77: "If the target is one size smaller than
// you, the target makes their test with a bane". A two-handed sword (number
// `two_handed`) gives its holder the boon as a shield does, and a bane from
// size cancels it. By hand (d: Athletics 1, STR 0): one size larger than a
// (size 3 vs 2): 1 + 1 boon (size) + 1 boon (two-handed) = 3 dice; medium:
// 1 + 1 = 2 dice; one size smaller (1 vs 2): 1 + 1 - 1 = 1 die.
TEST(Maneuvers, DisarmATwoHandedWeaponWithABoonThatSizeAddsToOrCancels) {
  for (const auto& [size, boons, banes, dice] :
       std::vector<std::tuple<int64_t, int64_t, int64_t, int64_t>>{{3, 2, 0, 3}, {2, 1, 0, 2}, {1, 1, 1, 1}}) {
    auto a = Who("a", "x", 5, 5, {{"health", 20}, {"speed", 6}, {"fighting_style", 1}},
                 {W("club", "1d6", "melee", "medium", {}, "crushing")});
    auto d = Who("d", "y", 6, 5, {{"health", 20}, {"speed", 6}, {"athletics", 1}, {"size_class", size}, {"initiative", -5}},
                 {W("greatsword", "2d6", "melee", "heavy", {{"two_handed", 1}}, "slashing")});
    Table t(OpposedTests(), Roster({std::move(a), std::move(d)}), {6, 1});
    ASSERT_TRUE(t.status().ok()) << t.status();
    CriticalWin(t);
    std::vector<int> rolls(static_cast<size_t>(dice), 1);  // every die a 1: it fails
    rolls.push_back(3);  // the club's damage
    auto ev = Maneuver(t, "disarm", rolls, "greatsword");
    ASSERT_TRUE(ev.ok()) << size << ev.status();
    EXPECT_EQ(NumOf(*ev, "shield_or_two_handed"), 1) << size;
    EXPECT_EQ(NumOf(*ev, "boons", 0), boons) << size;
    EXPECT_EQ(NumOf(*ev, "banes", 0), banes) << size;
    EXPECT_EQ(NumOf(*ev, "dice"), dice) << size;
    EXPECT_EQ(t.state().Find("d")->Resource("dropped.greatsword"), 1) << size;
  }
}

// 003 l.69: "Disarm*. ... Choose an item the target is holding. It must
// pass an Athletics or Sleight of Hand test, or loose the item. The item
// lands on the floor." Black-box case: a wolf whose only weapon is its bite
// (kind natural) was offered Disarm, failed its test and "bite lands on the
// floor": it could bite no more. A natural weapon is not an item held.
TEST(Maneuvers, ANaturalWeaponIsNoItemToDisarm) {
  auto a = Who("a", "x", 5, 5, {{"health", 20}, {"speed", 6}, {"fighting_style", 1}},
               {W("club", "1d6", "melee", "medium", {}, "crushing")});
  auto d = Who("d", "y", 6, 5, {{"health", 20}, {"speed", 6}, {"initiative", -5}},
               {W("bite", "1d6", "natural", "", {}, "piercing")});
  Table t(OpposedTests(), Roster({std::move(a), std::move(d)}), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto ev = UndefendedClubStrike(t, {5});  // a's critical win
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(OpenedNote(*ev), "a may maneuver (brace, feint, precision, push, trip or none)");
  auto disarm = Maneuver(t, "disarm", {3}, "bite");  // d's test: 0 dice, fails; damage 3
  EXPECT_EQ(disarm.status().code(), absl::StatusCode::kFailedPrecondition) << disarm.status();
  EXPECT_EQ(t.state().Find("d")->Resource("dropped.bite"), 0);
}

// After a's disarm: a ends its turn, d walks east to (9,5) (a passing on
// the opportunity when d leaves its reach).
void DWalksToNineFive(Table& t) {
  ASSERT_TRUE(t.Submit(Cmd("a", "end_turn")).ok());
  auto away = Cmd("d", "move");
  Path(away, {{7, 5}, {8, 5}, {9, 5}});
  ASSERT_TRUE(t.Submit(away).ok());
  if (!t.state().windows.empty()) {  // leaving a's reach: a passes
    auto pass = Cmd("a", "pass");
    pass.window = t.state().windows.begin()->first;
    ASSERT_TRUE(t.Submit(pass).ok());
  }
  ASSERT_EQ(t.state().Find("d")->at, (Pos{9, 5}));
}

// 003 l.69: "The item lands on the floor." and l.35: "Manipulate. You
// interact with an object within touch, such as ... picking up a ring".
// Black-box case: a disarmed d walked 3 m away and picked its sword up
// from there. It lies where d stood; picked up only from within touch.
TEST(Maneuvers, ADisarmedItemIsPickedUpFromWithinTouchOfWhereItLies) {
  Table t(OpposedTests(), Pair(2), {6, 1});
  CriticalWin(t);
  // d's Athletics 1 die: 1 fails; damage 3.
  ASSERT_TRUE(Maneuver(t, "disarm", {1, 3}, "sword").ok());
  EXPECT_EQ(t.state().Find("d")->Resource("dropped.sword"), 1);
  ASSERT_NO_FATAL_FAILURE(DWalksToNineFive(t));
  auto pick = Cmd("d", "manipulate");
  pick.weapon = "sword";
  auto far = t.Submit(pick);
  EXPECT_EQ(far.status().code(), absl::StatusCode::kFailedPrecondition) << far.status();
  EXPECT_EQ(t.state().Find("d")->Resource("dropped.sword"), 1);
  auto back = Cmd("d", "move");
  Path(back, {{8, 5}, {7, 5}});
  ASSERT_TRUE(t.Submit(back).ok());
  ASSERT_TRUE(t.Submit(pick).ok());  // 1 m from (6,5): within touch
  EXPECT_EQ(t.state().Find("d")->Resource("dropped.sword"), 0);
}

// 003 l.69: "The item lands on the floor." and l.35: "Manipulate. You
// interact with an object within touch". Black-box case: a 2 x 2 ogre
// (size class 3) disarmed at (6,5) stands on (6..7, 5..6); the text names
// no square of its body for the item, so it lies under the ogre's space,
// within touch of whoever is within 1 m of any square of it. The ogre steps
// 2 m right, to (8..9, 5..6): 1 m from (7,5), it picks its sword up; 3 m
// right it is 2 m from the space: refused.
TEST(Maneuvers, AnItemDisarmedFromALargeFoeLiesUnderItsWholeSpace) {
  auto a = Who("a", "x", 5, 5, {{"health", 20}, {"speed", 6}, {"fighting_style", 1}},
               {W("club", "1d6", "melee", "medium", {}, "crushing")});
  auto d = Who("d", "y", 6, 5,
               {{"health", 20}, {"speed", 6}, {"athletics", 1}, {"size_class", 3}, {"initiative", -5}},
               {W("sword", "1d8", "melee", "medium")});
  d.size = 2;
  Table t(OpposedTests(), Roster({std::move(a), std::move(d)}), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  CriticalWin(t);
  // d one size larger: Athletics 1 + a boon = 2 dice: 1, 2 fail; damage 3.
  ASSERT_TRUE(Maneuver(t, "disarm", {1, 2, 3}, "sword").ok());
  ASSERT_EQ(t.state().Find("d")->Resource("dropped.sword"), 1);
  ASSERT_NO_FATAL_FAILURE(DWalksToNineFive(t));
  auto pick = Cmd("d", "manipulate");
  pick.weapon = "sword";
  auto far = t.Submit(pick);  // (9..10) to (6..7): 2 m
  EXPECT_EQ(far.status().code(), absl::StatusCode::kFailedPrecondition) << far.status();
  auto back = Cmd("d", "move");
  Path(back, {{8, 5}});
  ASSERT_TRUE(t.Submit(back).ok());
  ASSERT_TRUE(t.Submit(pick).ok()) << "1 m from (7,5), a square of the ogre's space where it lost it";
  EXPECT_EQ(t.state().Find("d")->Resource("dropped.sword"), 0);
}

TEST(Maneuvers, DisarmNamesAnItemTheLoserHolds) {
  Table t(OpposedTests(), Pair(2), {6, 1});
  CriticalWin(t);
  EXPECT_EQ(Maneuver(t, "disarm", {}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Maneuver(t, "disarm", {}, "spoon").status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(Maneuver(t, "wrestle", {}).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(Maneuvers, FeintGivesABoonToTheNextStrikeOnTheSameTarget) {  // l.70
  Table t(OpposedTests(), Pair(2), {6, 1});
  CriticalWin(t);
  // Deception 1 die: 6 passes.
  ASSERT_TRUE(Maneuver(t, "feint", {6, 2}).ok());
  ASSERT_NE(t.state().Find("a")->FindRelative("Feint", "d"), nullptr);
  auto ev = UndefendedClubStrike(t, {1, 1});  // 1 + boon = 2 dice
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "attack.dice"), 2);
  EXPECT_EQ(t.state().Find("a")->FindRelative("Feint", "d"), nullptr);
}

TEST(Maneuvers, FeintWaitsThroughAReactionButNotAnotherAction) {  // l.70, l.33-35
  Table t(OpposedTests(), Pair(2), {6, 1});
  CriticalWin(t);
  ASSERT_TRUE(Maneuver(t, "feint", {6, 2}).ok());
  // Manipulate is a reaction (l.35), not the "next action": the Feint stays.
  ASSERT_TRUE(t.Submit(Cmd("a", "manipulate")).ok());
  ASSERT_NE(t.state().Find("a")->FindRelative("Feint", "d"), nullptr);
  // A Search is an action that is not a Strike: the Feint is gone.
  ASSERT_TRUE(t.Submit(Cmd("a", "search")).ok());  // Observation 0 dice: no roll
  EXPECT_EQ(t.state().Find("a")->FindRelative("Feint", "d"), nullptr);
}

// Seed 003 l.70: "If your next action is a Strike against the same
// target"; l.35 lists Manipulate among the Reactions (l.33), and a reaction
// taken as the round's free action (l.39) is still that reaction: a free
// Manipulate leaves the Feint waiting, as a paid one does (the old code
// ended it).
TEST(Maneuvers, FeintWaitsThroughAFreeManipulate) {
  Table t(OpposedTests(), Pair(2), {6, 1});
  CriticalWin(t);
  ASSERT_TRUE(Maneuver(t, "feint", {6, 2}).ok());
  auto m = Cmd("a", "manipulate");
  With(m, "free", 1);
  ASSERT_TRUE(t.Submit(m).ok());
  EXPECT_NE(t.state().Find("a")->FindRelative("Feint", "d"), nullptr);
}

// Seed 003 l.70: "If your next action is a Strike against the same target,
// you gain a boon"; l.24: "An action (also referred to as primary action)
// is a type of action you can only use on your turn. Reaction can always be
// taken"; l.36 lists the Opportunity Attack among the Reactions (l.33). An
// opportunity attack on the feinted foe is a reaction, not the "next
// action": it rolls without the boon and leaves the Feint waiting for the
// feinter's next action.
TEST(Maneuvers, AnOpportunityAttackOnTheFeintedFoeIsNotTheNextAction) {
  Table t(OpposedTests(), Pair(2), {6, 1});
  CriticalWin(t);
  ASSERT_TRUE(Maneuver(t, "feint", {6, 2}).ok());  // Deception 1 die: 6 passes; damage 2
  ASSERT_TRUE(t.Submit(Cmd("a", "end_turn")).ok());
  ASSERT_EQ(t.state().active, "d");
  auto move = Cmd("d", "move");
  Path(move, {{7, 5}});  // leaves a's reach (1 m): provokes (l.82)
  ASSERT_TRUE(t.Submit(move).ok());
  ASSERT_EQ(t.state().windows.size(), 1u);
  auto oa = Cmd("a", "opportunity_attack");
  oa.window = t.state().windows.begin()->first;
  oa.weapon = "club";
  ASSERT_TRUE(t.Submit(oa).ok());
  auto none = Cmd("d", "defend");
  none.window = t.state().windows.rbegin()->first;
  WithText(none, "defense", "none");
  auto ev = t.Submit(none, {1});  // Fighting Style 1: 1 die, no boon
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "attack.dice"), 1);
  EXPECT_NE(t.state().Find("a")->FindRelative("Feint", "d"), nullptr);
}

// Seed 003 l.68 "Brace. ... Your next Defense test gains a boon"; l.70
// "Feint. ... If your next action is a Strike against the same target, you
// gain a boon". A second Brace or Feint won before the first is used names
// the same next Defense test or Strike: that one uses both, and the test
// after rolls without a boon (black-box case: the second waited and gave
// its boon to the test after). By hand: a's Dodge is 1 die, +1 boon = 2 on
// the next defense, 1 on the one after; a's club Strike 1 die, +1 = 2 on
// the next Strike, 1 on the one after.
fb::RosterT Duel() {
  auto a = Who("a", "x", 5, 5,
               {{"health", 20}, {"speed", 6}, {"fighting_style", 1}, {"dodge", 1}, {"deception", 1},
                {"ap_defend", 0}},
               {W("club", "1d6", "melee", "medium", {}, "crushing")});
  auto d = Who("d", "y", 6, 5, {{"health", 20}, {"speed", 6}, {"fighting_style", 1}, {"initiative", -5}},
               {W("sword", "1d8", "melee", "medium")});
  return Roster({std::move(a), std::move(d)});
}

// d strikes a with its sword, a dodges (or answers `defense`); `dice`: d's
// attack, then a's Dodge.
absl::StatusOr<std::vector<events::EventBuffer>> DodgedSwordStrike(Table& t, std::vector<int> dice,
                                                                   const std::string& defense = "dodge") {
  auto s = Cmd("d", "strike", {"a"});
  s.weapon = "sword";
  if (auto st = t.Submit(s); !st.ok()) return st.status();
  auto dodge = Cmd("a", "defend");
  dodge.window = t.state().windows.rbegin()->first;
  WithText(dodge, "defense", defense);
  return t.Submit(dodge, std::move(dice));
}

TEST(Maneuvers, TwoBracesBoonTheNextDefenseTestOnly) {
  Table t(OpposedTests(), Duel(), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  for (int i = 0; i < 2; ++i) {  // two critical wins, two Braces, no defense between
    CriticalWin(t);
    ASSERT_TRUE(Maneuver(t, "brace", {2}).ok());  // damage 2
  }
  ASSERT_TRUE(t.Submit(Cmd("a", "end_turn")).ok());
  auto first = DodgedSwordStrike(t, {1, 1, 1});  // 1 attack die; Dodge 1 + boon = 2
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(NumOf(*first, "defense.dice"), 2);
  EXPECT_EQ(t.state().Find("a")->FindCondition("Braced"), nullptr);
  auto second = DodgedSwordStrike(t, {1, 1});  // Dodge 1 die: no boon left
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(NumOf(*second, "defense.dice"), 1);
}

// Seed 003 l.68 "Your next Defense test gains a boon"; l.56 "The defender
// can also decide not to defend. If they do so, they automatically fail
// their defense test" (l.58 "their test"). The defense not made is the
// next Defense test: it uses the Brace (the boon listed beside the
// automatic failure, which it cannot change) and the Dodge after rolls
// without it (black-box case: the Brace waited for the Dodge). By hand: d's
// sword Strike 1 die (Fighting Style 1), 1: fails; a's defense fails
// automatically: both fail (l.59); then a's Dodge is 1 die (Dodge 1), no
// boon.
TEST(Maneuvers, ADefenseNotMadeIsTheDefenseTestTheBraceBoons) {
  Table t(OpposedTests(), Duel(), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  CriticalWin(t);
  ASSERT_TRUE(Maneuver(t, "brace", {2}).ok());  // damage 2
  ASSERT_TRUE(t.Submit(Cmd("a", "end_turn")).ok());
  auto none = DodgedSwordStrike(t, {1}, "none");
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_TRUE(Cites(*none, "003.result.both_fail"));
  EXPECT_EQ(NumOf(*none, "defense.no_defense"), 1);
  EXPECT_EQ(NumOf(*none, "defense.braced"), 1);
  EXPECT_EQ(NumOf(*none, "defense.automatic_fail"), 1);
  EXPECT_EQ(t.state().Find("a")->FindCondition("Braced"), nullptr);
  auto dodge = DodgedSwordStrike(t, {1, 1});  // Dodge 1 die: the Brace is spent
  ASSERT_TRUE(dodge.ok()) << dodge.status();
  EXPECT_EQ(NumOf(*dodge, "defense.dice"), 1);
}

TEST(Maneuvers, TwoFeintsBoonTheNextStrikeOnly) {
  Table t(OpposedTests(), Duel(), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  ASSERT_TRUE(t.Submit(Cmd("a", "end_turn")).ok());
  for (int i = 0; i < 2; ++i) {  // a wins d's two Strikes as the defender and feints twice
    ASSERT_TRUE(DodgedSwordStrike(t, {1, 5}).ok());
    ASSERT_TRUE(Maneuver(t, "feint", {6}).ok());  // Deception 1 die: 6 passes
  }
  ASSERT_TRUE(t.Submit(Cmd("d", "end_turn")).ok());
  ASSERT_EQ(t.state().active, "a");
  auto next = UndefendedClubStrike(t, {1, 1});  // 1 + boon = 2 dice
  ASSERT_TRUE(next.ok()) << next.status();
  EXPECT_EQ(NumOf(*next, "attack.dice"), 2);
  EXPECT_EQ(t.state().Find("a")->FindRelative("Feint", "d"), nullptr);
  auto after = UndefendedClubStrike(t, {1});  // not the next action: 1 die
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_EQ(NumOf(*after, "attack.dice"), 1);
}

// Manipulate (l.35): stowing a held item, then drawing it again.
TEST(Maneuvers, ManipulateStowsAndDraws) {
  Table t(OpposedTests(), Pair(2), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto stow = Cmd("a", "manipulate");
  stow.weapon = "club";
  With(stow, "stow", 1);
  ASSERT_TRUE(t.Submit(stow).ok());
  EXPECT_EQ(t.state().Find("a")->Resource("dropped.club"), 1);
  auto s = Cmd("a", "strike", {"d"});
  s.weapon = "club";
  EXPECT_EQ(t.Submit(s).status().code(), absl::StatusCode::kFailedPrecondition);  // not in hand
  // Stowing it again: the item is not in hand, a refusal of the state
  // citing l.35 and naming the field, like the Strike's (it was an
  // InvalidArgument, as if the command were malformed); nothing spent.
  const absl::Status again = t.Submit(stow).status();
  EXPECT_EQ(again.code(), absl::StatusCode::kFailedPrecondition) << again;
  EXPECT_NE(std::string(again.message()).find("field 'weapon': club is not in a's hand"), std::string::npos) << again;
  EXPECT_NE(std::string(again.message()).find("(003 Reactions, l.35)"), std::string::npos) << again;
  EXPECT_EQ(t.state().Find("a")->Resource("ap"), 2);
  auto draw = Cmd("a", "manipulate");
  draw.weapon = "club";
  auto drawn = t.Submit(draw);
  ASSERT_TRUE(drawn.ok()) << drawn.status();
  EXPECT_EQ(t.state().Find("a")->Resource("dropped.club"), 0);
  EXPECT_EQ(t.state().Find("a")->Resource("ap"), 1);
  // l.35 "drawing or stowing a sword, picking up a ring": the stowed club
  // is drawn, not picked up (black-box case: the log said "picks up club").
  std::string note;
  for (const auto& e : *drawn) {
    if (e.event().body_type() != fb::Body::StateChange) continue;
    const fb::StateChange* sc = e.event().body_as_StateChange();
    if (sc->rule() != nullptr && sc->rule()->str() == "003.manipulate" && sc->note() != nullptr) {
      note = sc->note()->str();
    }
  }
  EXPECT_EQ(note, "draws club");
}

// 003 l.35: "Manipulate. You interact with an object within touch, such as
// drawing or stowing a sword, picking up a ring". Black-box case: a
// fighter's fist (kind natural) was stowed ("stows fist: not in hand") for
// 1 AP, and then could strike no more. A natural weapon or a spell is no
// object: refused, nothing spent.
TEST(Maneuvers, ManipulateTakesAnObjectNotAFistOrASpell) {
  auto a = Who("a", "x", 5, 5, {{"health", 20}, {"speed", 6}},
               {W("fist", "1d2", "natural", "", {}, "crushing"), W("light", "", "spell", "", {}, "")});
  auto d = Who("d", "y", 9, 5, {{"health", 20}, {"speed", 6}, {"initiative", -5}});
  Table t(OpposedTests(), Roster({std::move(a), std::move(d)}), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  for (const char* item : {"fist", "light"}) {
    auto stow = Cmd("a", "manipulate");
    stow.weapon = item;
    With(stow, "stow", 1);
    EXPECT_EQ(t.Submit(stow).status().code(), absl::StatusCode::kFailedPrecondition) << item;
    EXPECT_EQ(t.state().Find("a")->Resource(std::string("dropped.") + item), 0) << item;
  }
  EXPECT_EQ(t.state().Find("a")->Resource("ap"), 3);
}

TEST(Maneuvers, PrecisionMaximizesTheDamageDie) {  // l.71
  Table t(OpposedTests(), Pair(2), {6, 1});
  CriticalWin(t);
  auto c = Cmd("a", "maneuver");
  c.window = t.state().windows.rbegin()->first;
  WithText(c, "maneuver", "precision");
  WithText(c, "location", "head");
  auto ev = t.Submit(c);  // no damage die rolled
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "maximized"), 1);
  EXPECT_EQ(t.state().Find("d")->Resource("health"), 20 - 6);
}

}  // namespace
}  // namespace combat::kernel::opposed::testutil
