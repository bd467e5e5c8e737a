// Held actions (l.9): paid on the holder's turn, fired automatically on
// another's turn, lapsing at the holder's next turn.
#include <string>

#include "kernel/ap_rp/internal.h"
#include "kernel/ap_rp/test_util.h"
#include "kernel/pending.h"

namespace combat::kernel::aprp {
namespace {

using namespace testing;  // NOLINT

fb::RosterT Roster() {
  auto archer = Being("archer", "x", 1, 1, {{"ins", 20}, {"dex", 14}, {"str", 12}});
  Arm(archer, "bow", "1d6", "ranged", "dex/str", 5);  // +4 + 1 = 5
  auto orc = Being("orc", "y", 9, 1, {{"ins", 10}, {"basic_movement", 4}});
  auto ally = Being("ally", "x", 1, 3, {{"ins", 5}});
  return MakeRoster({archer, orc, ally});
}

// `who` holds a bow shot on `trigger` (and its `whom`, when given).
fb::CommandT HoldShot(const std::string& who = "archer",
                      const std::string& trigger = "enters_range",
                      const std::string& whom = "") {
  fb::CommandT c = Cmd(who, "hold_action");
  c.weapon = "bow";
  WithText(c, "action", "attack");
  WithText(c, "trigger", trigger);
  if (!whom.empty()) WithText(c, "whom", whom);
  return c;
}

// l.9: "I attack the first enemy that moves into my range" (2 AP now).
TEST(Held, FiresOnAnotherCreaturesTurn) {
  Table t(ApRp(), Roster());
  ASSERT_TRUE(t.status().ok()) << t.status();
  ASSERT_OK(t.Submit(HoldShot()));
  EXPECT_EQ(Res(t, "archer", kAp), 1);
  ASSERT_NE(FirstPending(t.state(), "archer", kReadiedAct), nullptr);
  ASSERT_OK(t.Submit(Cmd("archer", "end_turn")));
  ASSERT_EQ(t.state().active, "orc");
  // The orc walks west: at (6,1) it is 5 m away (in range) and is shot:
  // 15 + 5 >= 17, 4 damage.
  auto ev = t.Submit(Path(Cmd("orc", "move"), {{8, 1}, {7, 1}, {6, 1}}), {15, 4});
  ASSERT_OK(ev);
  EXPECT_EQ(FirstPending(t.state(), "archer", kReadiedAct), nullptr);
  EXPECT_EQ(Res(t, "orc", kVitality), 26);
  EXPECT_EQ(t.state().Find("orc")->at, (Pos{6, 1}));
  EXPECT_EQ(Res(t, "archer", kAp), 1);  // paid on its own turn
}

// 004 l.9 "a creature must spend the AP that the action would cost on
// their turn" and l.19 "one free Interact with Target action on your
// turn": a held Interact fires "no matter whose turn it is", so it is paid
// its table cost, 1 AP (reading, README); the turn's free Interact stays.
TEST(Held, AHeldInteractPaysItsApNotTheFreeOne) {
  Table t(ApRp(), Roster());
  fb::CommandT c = Cmd("archer", "hold_action");
  WithText(c, "action", "interact");
  WithText(c, "trigger", "moves");
  ASSERT_OK(t.Submit(c));
  EXPECT_EQ(Res(t, "archer", kAp), 3 - 1);
  ASSERT_OK(t.Submit(Cmd("archer", "interact")));  // the turn's free one
  EXPECT_EQ(Res(t, "archer", kAp), 2);
}

// 004_1a3e461770fc9e7a.txt l.31 "blind a target ... until the end of their
// next turn" with l.9 (a held action fires "no matter whose turn it is"): a
// held Blind set off by b's move into 1 m (`enters_range`, `range` 1)
// during b's own turn lasts past the end of
// that turn (the running turn is not "their next turn") and ends with b's
// turn of round 2. Contest: 10 + 5 = 15 > 3.
TEST(Held, AHeldBlindOnTheTargetsTurnLastsToTheEndOfItsNextTurn) {
  auto a = Being("a", "x", 1, 1, {{"ins", 20}, {"quick_fingers", 5}});
  auto b = Being("b", "y", 3, 1, {{"ins", 10}});
  Table t(ApRp(), MakeRoster({a, b}));
  fb::CommandT h = Cmd("a", "hold_action");
  WithText(h, "action", "blind");
  WithText(h, "trigger", "enters_range");
  With(h, "range", 1);
  ASSERT_OK(t.Submit(h));
  EXPECT_EQ(Res(t, "a", kAp), 1);
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  ASSERT_OK(t.Submit(Path(Cmd("b", "move"), {{2, 1}}), {10, 3}));
  ASSERT_TRUE(Has(t, "b", kBlinded));
  ASSERT_OK(t.Submit(Cmd("b", "end_turn")));
  EXPECT_TRUE(Has(t, "b", kBlinded));
  ASSERT_OK(t.Submit(Cmd("a", "end_turn")));
  EXPECT_TRUE(Has(t, "b", kBlinded));
  ASSERT_OK(t.Submit(Cmd("b", "end_turn")));
  EXPECT_FALSE(Has(t, "b", kBlinded));
}

// The move goes on after the shot.
TEST(Held, MoveContinuesAfterFiring) {
  Table t(ApRp(), Roster());
  ASSERT_OK(t.Submit(Cmd("archer", "sprint")));
  ASSERT_OK(t.Submit(Cmd("archer", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("orc", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("ally", "end_turn")));
  ASSERT_OK(t.Submit(HoldShot()));
  ASSERT_OK(t.Submit(Cmd("archer", "end_turn")));
  auto ev = t.Submit(Path(Cmd("orc", "move"), {{8, 1}, {7, 1}, {6, 1}, {5, 2}}), {2});
  ASSERT_OK(ev);
  EXPECT_EQ(t.state().Find("orc")->at, (Pos{5, 2}));
  EXPECT_EQ(Res(t, "orc", kVitality), 30);  // 2 + 5 < 17
}

// l.9: not performed if the trigger does not happen until the next turn.
TEST(Held, LapsesAtTheHoldersNextTurn) {
  Table t(ApRp(), Roster());
  ASSERT_OK(t.Submit(HoldShot()));
  ASSERT_OK(t.Submit(Cmd("archer", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("orc", "end_turn")));
  ASSERT_NE(FirstPending(t.state(), "archer", kReadiedAct), nullptr);
  ASSERT_OK(t.Submit(Cmd("ally", "end_turn")));
  EXPECT_EQ(t.state().active, "archer");
  EXPECT_EQ(FirstPending(t.state(), "archer", kReadiedAct), nullptr);
}

// 004 l.36 "While you are hidden ... the enemies do not know where you
// are": an orc hidden from the archer walks into its range unseen; for the
// archer "the first enemy that moves into my range" (l.9) has not happened
// and its held shot stays. (Black-box: the hidden orc set the shot off.)
TEST(Held, AHiddenEnemyDoesNotSetOffTheShot) {
  Table t(ApRp(), Roster());
  ASSERT_OK(t.Submit(HoldShot()));
  ASSERT_OK(t.Submit(Cmd("archer", "end_turn")));
  // Stealth 15 vs Perception: ally 2, archer 3 (id order): hidden from both.
  ASSERT_OK(t.Submit(Cmd("orc", "hide"), {15, 2, 3}));
  ASSERT_NE(t.state().Find("orc")->FindRelative(kHidden, "archer"), nullptr);
  auto ev = t.Submit(Path(Cmd("orc", "move"), {{8, 1}, {7, 1}, {6, 1}}));
  ASSERT_OK(ev);
  EXPECT_EQ(t.state().Find("orc")->at, (Pos{6, 1}));  // 5 m: in range
  EXPECT_NE(FirstPending(t.state(), "archer", kReadiedAct), nullptr);
  EXPECT_EQ(Res(t, "orc", kVitality), 30);
}

// Allies do not set off "enters_range".
TEST(Held, AlliesDoNotTrigger) {
  Table t(ApRp(), Roster());
  ASSERT_OK(t.Submit(HoldShot()));
  ASSERT_OK(t.Submit(Cmd("archer", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("orc", "end_turn")));
  ASSERT_OK(t.Submit(Path(Cmd("ally", "move"), {{2, 3}})));
  EXPECT_NE(FirstPending(t.state(), "archer", kReadiedAct), nullptr);
}

// Reading (README "Held actions"; GM ruling point): l.9 "the first enemy
// that moves into my range" is the enemy's own move; teleported (l.115) or
// force-moved (l.114) into the range by another, it does not set the held
// shot off; its own move entering the range afterwards does.
TEST(Held, BeingShovedIntoRangeIsNotMoving) {
  Table t(ApRp(), Roster());
  ASSERT_OK(t.Submit(HoldShot()));
  ASSERT_OK(t.Submit(Cmd("archer", "end_turn")));
  auto tp = Gm("orc", "teleport", "blink");
  tp.targets = {"orc"};
  With(tp, "x", 6);
  With(tp, "y", 1);
  ASSERT_OK(t.Submit(tp));  // 5 m from the archer: in range, not moving
  EXPECT_EQ(t.state().Find("orc")->at, (Pos{6, 1}));
  auto fm = Gm("orc", "force_move", "gust");
  fm.targets = {"orc"};
  fm = Path(fm, {{5, 1}});
  ASSERT_OK(t.Submit(fm));
  ASSERT_NE(FirstPending(t.state(), "archer", kReadiedAct), nullptr);
  EXPECT_EQ(Res(t, "orc", kVitality), 30);
  // Its own move out (7,1) and back in (6,1) sets it off: 15 + 5 >= 17, 4.
  ASSERT_OK(t.Submit(Path(Cmd("orc", "move"), {{6, 1}, {7, 1}, {6, 1}}), {15, 4}));
  EXPECT_EQ(FirstPending(t.state(), "archer", kReadiedAct), nullptr);
  EXPECT_EQ(Res(t, "orc", kVitality), 26);
}

// A held attack on "when the ally is damaged" fires at the attacker after
// the attack resolves.
TEST(Held, FiresWhenAnAllyIsDamaged) {
  auto archer = Being("archer", "x", 1, 1, {{"ins", 20}, {"dex", 14}, {"str", 12}});
  Arm(archer, "bow", "1d6", "ranged", "dex/str", 10);
  auto orc = Being("orc", "y", 5, 5, {{"ins", 10}});
  Arm(orc, "club", "1d6", "melee");
  auto ally = Being("ally", "x", 5, 4, {{"ins", 5}});
  Table t(ApRp(), MakeRoster({archer, orc, ally}));
  ASSERT_OK(t.Submit(HoldShot("archer", "is_damaged", "ally")));
  ASSERT_OK(t.Submit(Cmd("archer", "end_turn")));
  auto ev = t.Submit(Cmd("orc", "attack", {"ally"}), {15, 3, 14, 5});
  ASSERT_OK(ev);
  EXPECT_EQ(Res(t, "ally", kVitality), 27);
  EXPECT_EQ(Res(t, "orc", kVitality), 25);  // 14 + 5 >= 17
  EXPECT_EQ(FirstPending(t.state(), "archer", kReadiedAct), nullptr);
}

// 004 l.9 "a creature must spend the AP that the action would cost on their
// turn and name a trigger": "when I am damaged" is a trigger (is_damaged,
// whom = the holder). The orc's club hits the archer (15 + 5 = 20 >= its
// Evasion 14 + 2 = 16: 3 damage); the held shot then fires at the orc:
// 14 + 5 = 19 >= 17, 5 damage. (Black-box: the held Defend / shot
// never fired: only another creature's damage was watched.)
TEST(Held, FiresWhenTheHolderItselfIsDamaged) {
  auto archer = Being("archer", "x", 1, 1, {{"ins", 20}, {"dex", 14}, {"str", 12}});
  Arm(archer, "bow", "1d6", "ranged", "dex/str", 10);
  auto orc = Being("orc", "y", 2, 2, {{"ins", 10}});
  Arm(orc, "club", "1d6", "melee");
  Table t(ApRp(), MakeRoster({archer, orc}));
  ASSERT_OK(t.Submit(HoldShot("archer", "is_damaged", "archer")));
  ASSERT_OK(t.Submit(Cmd("archer", "end_turn")));
  // The shot is ranged with the orc within 1 m: disadvantage (l.55), 14 and 18.
  auto ev = t.Submit(Cmd("orc", "attack", {"archer"}), {15, 3, 14, 18, 5});
  ASSERT_OK(ev);
  EXPECT_EQ(Res(t, "archer", kVitality), 27);
  EXPECT_EQ(Res(t, "orc", kVitality), 25);
  EXPECT_EQ(FirstPending(t.state(), "archer", kReadiedAct), nullptr);
}

// l.9: an Ability's damage (the GM's teleport, l.115) sets off a held act
// on "is_damaged" as an attack's does: the orc teleported into the archer's
// square, 4 m: 4 Reality to each; the held shot fires at the orc (the act's
// actor is the GM's source, the orc itself): 14 + 5 >= 17, 5. (Black-box:
// only the actions' damage was watched, not force_move / teleport.)
TEST(Held, FiresOnDamageFromAForcedMoveOrTeleport) {
  auto archer = Being("archer", "x", 1, 1, {{"ins", 20}, {"dex", 14}, {"str", 12}});
  Arm(archer, "bow", "1d6", "ranged", "dex/str", 10);
  auto orc = Being("orc", "y", 5, 1, {{"ins", 10}});
  Table t(ApRp(), MakeRoster({archer, orc}));
  ASSERT_OK(t.Submit(HoldShot("archer", "is_damaged", "archer")));
  ASSERT_OK(t.Submit(Cmd("archer", "end_turn")));
  auto tp = Gm("orc", "teleport", "blink");
  tp.targets = {"orc"};
  With(tp, "x", 1);
  With(tp, "y", 1);
  ASSERT_OK(t.Submit(tp, {14, 5}));
  EXPECT_EQ(Res(t, "archer", kVitality), 26);
  EXPECT_EQ(Res(t, "orc", kVitality), 30 - 4 - 5);
  EXPECT_EQ(FirstPending(t.state(), "archer", kReadiedAct), nullptr);
}

// l.9: the archer's held shot, set off by the orc's move (at (6,1), 5 m),
// hits it (15 + 5 >= 17, 4); the ally's held attack on "the orc is
// damaged" then fires at the orc too (bow 14 + 5 >= 17, 3). (Black-box: a
// move never looked for is_damaged acts: the second held act never fired.)
TEST(Held, DamageByAHeldActDuringAMoveSetsOffAnother) {
  auto ally = Being("ally", "x", 1, 3, {{"ins", 5}, {"dex", 14}, {"str", 12}});
  Arm(ally, "bow", "1d6", "ranged", "dex/str", 10);
  auto archer = Being("archer", "x", 1, 1, {{"ins", 20}, {"dex", 14}, {"str", 12}});
  Arm(archer, "bow", "1d6", "ranged", "dex/str", 5);
  auto orc = Being("orc", "y", 9, 1, {{"ins", 10}, {"basic_movement", 4}});
  Table t(ApRp(), MakeRoster({archer, orc, ally}));
  ASSERT_OK(t.Submit(Cmd("archer", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("orc", "end_turn")));
  ASSERT_OK(t.Submit(HoldShot("ally", "is_damaged", "orc")));  // until its turn in round 2
  ASSERT_OK(t.Submit(Cmd("ally", "end_turn")));
  ASSERT_OK(t.Submit(HoldShot()));  // round 2
  ASSERT_OK(t.Submit(Cmd("archer", "end_turn")));
  auto ev = t.Submit(Path(Cmd("orc", "move"), {{8, 1}, {7, 1}, {6, 1}}), {15, 4, 14, 3});
  ASSERT_OK(ev);
  EXPECT_EQ(Res(t, "orc", kVitality), 30 - 4 - 3);
  EXPECT_EQ(FirstPending(t.state(), "archer", kReadiedAct), nullptr);
  EXPECT_EQ(FirstPending(t.state(), "ally", kReadiedAct), nullptr);
}

TEST(Held, BadTriggerNamedInTheRefusal) {
  Table t(ApRp(), Roster());
  fb::CommandT c = Cmd("archer", "hold_action");
  WithText(c, "action", "attack");
  WithText(c, "trigger", "whenever");
  auto r = t.Submit(c);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("params.trigger"), std::string::npos);
  // The held act's target and weapon must exist (not cancelled later).
  fb::CommandT d = Cmd("archer", "hold_action", {"nobody"});
  d.weapon = "bow";
  WithText(d, "action", "attack");
  WithText(d, "trigger", "moves");
  r = t.Submit(d);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kNotFound) << r.status();
  EXPECT_NE(r.status().message().find("targets[0]"), std::string::npos);
  fb::CommandT e = Cmd("archer", "hold_action");
  e.weapon = "sling";
  WithText(e, "action", "attack");
  WithText(e, "trigger", "moves");
  r = t.Submit(e);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kNotFound) << r.status();
  EXPECT_NE(r.status().message().find("field 'weapon'"), std::string::npos);
  // The held act's own params are checked now too (l.24 modes, l.65).
  fb::CommandT f = Cmd("archer", "hold_action");
  WithText(f, "action", "switch_weapons");
  WithText(f, "trigger", "moves");
  WithText(f, "mode", "juggle");
  r = t.Submit(f);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << r.status();
  EXPECT_NE(r.status().message().find("params.mode"), std::string::npos);
  fb::CommandT g = Cmd("archer", "hold_action");
  g.weapon = "bow";
  WithText(g, "action", "attack");
  WithText(g, "trigger", "moves");
  WithText(g, "armor_from", "heat");
  r = t.Submit(g);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << r.status();
  EXPECT_NE(r.status().message().find("params.armor_from"), std::string::npos);
  EXPECT_EQ(Res(t, "archer", kAp), 3);  // nothing written
}

// 004 l.9 "A creature can also decide to hold an action" (no action
// excepted) and l.20 Move "You increase your movement": a held Move is
// accepted, and it is not idle, since a trigger can happen on the holder's
// own turn (l.10 "All creatures of a union have their turn at the same
// time and can alternate their actions and movement"): the knight holds a
// Move (1 AP) on the horse moving; the horse steps 1 m; the knight's
// movement is 3 + 3 = 6 and it walks 6 m on the shared turn.
TEST(Held, AHeldMoveFiresOnTheHoldersOwnUnionTurn) {
  auto knight = Being("knight", "x", 1, 1, {{"ins", 13}});
  Tag(knight, "union:kh");
  auto horse = Being("horse", "x", 1, 3, {{"ins", 16}});
  Tag(horse, "union:kh");
  auto foe = Being("foe", "y", 15, 15, {{"ins", 14}});
  Table t(ApRp(), MakeRoster({knight, horse, foe}));
  ASSERT_TRUE(t.status().ok()) << t.status();
  fb::CommandT c = Cmd("knight", "hold_action");
  WithText(c, "action", "move_action");
  WithText(c, "trigger", "moves");
  WithText(c, "by", "horse");
  ASSERT_OK(t.Submit(c));
  EXPECT_EQ(Res(t, "knight", kAp), 2);
  ASSERT_OK(t.Submit(Path(Cmd("horse", "move"), {{1, 4}})));
  EXPECT_EQ(Res(t, "knight", kMovement), 6);
  ASSERT_OK(t.Submit(Path(Cmd("knight", "move"), {{2, 1}, {3, 1}, {4, 1}, {5, 1}, {6, 1}, {7, 1}})));
  EXPECT_EQ(t.state().Find("knight")->at, (Pos{7, 1}));
}

}  // namespace
}  // namespace combat::kernel::aprp
