// The other actions and reactions (l.195-282).
#include "gtest/gtest.h"
#include "events/status_macros.h"
#include "kernel/pending.h"
#include "kernel/testing/events.h"
#include "kernel/wound_slots/test_util.h"

namespace combat::kernel::wound_slots {
namespace {

using namespace testutil;  // NOLINT

// l.189, l.216: `who` entering `target`'s space waits for its Rebuff; the
// target lets it come (`pass`), and the entry's check rolls `die`.
absl::StatusOr<std::vector<events::EventBuffer>> EnterPassed(Table& t, const std::string& who,
                                                             const std::string& target, int die) {
  auto declared = t.Submit(Cmd(who, "enter_space", {target}));
  if (!declared.ok()) return declared.status();
  if (t.state().windows.empty()) return absl::FailedPreconditionError("no Rebuff window opened");
  fb::CommandT pass = Cmd(target, "pass");
  pass.window = t.state().windows.begin()->first;
  return t.Submit(pass, {die});
}

// aria grapples the orc (d20 3 + 7 = 10 >= its Defense 10; 2 AP by the
// roster) and ends her turn; the orc buys 4 AP of movement (Str 3 + Size 0
// + Athletics 0 = 3: rate 9, l.143: 9 yd) and walks `path` (or jumps along it, `how` "jump"): that move.
absl::StatusOr<std::vector<events::EventBuffer>> OrcBreaksAway(Table& t,
                                                               std::vector<fb::Pos> path,
                                                               const std::string& how = "move") {
  if (auto g = t.Submit(Cmd("aria", "grapple", {"orc"}), {3}); !g.ok()) return g.status();
  if (!t.state().Find("aria")->Has("Grappling")) {
    return absl::FailedPreconditionError("aria's grapple did not take hold");
  }
  if (auto e = t.Submit(Cmd("aria", "end_turn")); !e.ok()) return e.status();
  fb::CommandT buy = Cmd("orc", "buy_move");
  With(buy, "ap", 4);
  if (auto b = t.Submit(buy); !b.ok()) return b.status();
  fb::CommandT mv = Cmd("orc", how);
  mv.path = std::move(path);
  return t.Submit(mv);
}

// 001 l.230 "a close-quarters grapple with ... an adjacent target"
// (README: a grapple ends once its two are no longer adjacent): the GM
// moving the orc 3 squares away from aria ends their grapple as any other
// move does (was: a gm_move kept it, the two grappling 4 yards apart).
// aria answers the window open first with a Cling on the orc (l.225),
// cutting `reduce` yards of its movement (none given: the act's default).
fb::CommandT ClingOnTheOrc(const Table& t, int reduce = -1) {
  fb::CommandT cl = Answer(t, "aria", "cling", "orc");
  if (reduce >= 0) With(cl, "reduce", reduce);
  return cl;
}

TEST(Grapple, AGmMoveApartEndsTheGrapple) {
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  ASSERT_TRUE(t.Submit(Cmd("aria", "grapple", {"orc"}), {3}).ok());
  ASSERT_NE(t.state().Find("aria")->FindRelative("Grappling", "orc"), nullptr);
  fb::CommandT away = kernel::testing::GmCmd("gm_move", "orc", "a wave sweeps it off");
  away.path = {fb::Pos(7, 5), fb::Pos(8, 5), fb::Pos(9, 5)};
  { auto r = t.Submit(away); ASSERT_TRUE(r.ok()) << r.status(); }
  EXPECT_EQ(t.state().Find("aria")->FindRelative("Grappling", "orc"), nullptr);
  EXPECT_EQ(t.state().Find("orc")->FindRelative("Grappling", "aria"), nullptr);
}

TEST(Grapple, UsesAWeaponOfReachZero) {
  // 001 l.230: "Make a melee attack against an adjacent target using any
  // weapon that has a reach of 0." aria carries her sword (reach 1, first)
  // and a dagger of reach 0, accuracy 3; no weapon named: the dagger.
  // d20 2 + Dex 3 + Melee 2 + accuracy 3 = 10 >= the orc's Defense 10: a
  // hit (with the sword: 2 + 3 + 2 + Melee/sword 1 + accuracy 1 = 9, a miss).
  fb::CombatantSpecT aria = Aria();
  fb::WeaponT dagger = kernel::testing::MakeWeapon("dagger", "1", "melee", "dagger");
  AddNumber(dagger, "reach", 0);
  AddNumber(dagger, "accuracy", 3);
  aria.weapons.push_back(std::make_unique<fb::WeaponT>(std::move(dagger)));
  Table t(WoundSlots(), Roster({std::move(aria), Orc()}), {10, 12});
  auto g = t.Submit(Cmd("aria", "grapple", {"orc"}), {2});
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_TRUE(t.state().Find("aria")->FindRelative("Grappling", "orc") != nullptr);
  EXPECT_EQ(kernel::testing::NumOf(*g, "attack_roll"), 10);
}

TEST(Grapple, GrapplePinEscape) {
  Table t(WoundSlots(), Roster({Aria(5, 5, {{"ap/grapple", 2}, {"ap/pin", 2}}), Orc()}), {10, 12});
  // Grapple: a melee attack, d20 3 + 7 = 10 >= 10: both grappling, no damage (l.230).
  ASSERT_TRUE(t.Submit(Cmd("aria", "grapple", {"orc"}), {3}).ok());
  EXPECT_TRUE(t.state().Find("aria")->FindRelative("Grappling", "orc") != nullptr);
  EXPECT_TRUE(t.state().Find("orc")->FindRelative("Grappling", "aria") != nullptr);
  EXPECT_EQ(Wounds(t.state(), "orc", kLight), 0);
  // Pin: Power 2 + 2 - 2 + d20 11 = 13 vs the orc's higher of Power
  // 10 + 3 = 13 and Agility 10 + 1 = 11 (l.235).
  auto pin = t.Submit(Cmd("aria", "pin", {"orc"}), {11});
  ASSERT_TRUE(pin.ok()) << pin.status();
  EXPECT_TRUE(t.state().Find("orc")->Has("Pinned"));
  EXPECT_EQ(Defense(*t.state().Find("orc"), Def::kMelee, nullptr), 5);  // immobile (l.99)
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  // Pinned: no other actions (l.235).
  EXPECT_EQ(t.Submit(Cmd("orc", "standard_attack", {"aria"})).status().code(),
            absl::StatusCode::kFailedPrecondition);
  // Escape: Power 3 + d20 11 = 14 vs aria's higher of Power 14 and Agility 14:
  // the pin ends, not the grapple. aria (18) may act first: a window.
  ASSERT_TRUE(t.Submit(Cmd("orc", "escape")).ok());
  ASSERT_TRUE(t.Submit(Cmd("orc", "resolve"), {11}).ok());
  EXPECT_FALSE(t.state().Find("orc")->Has("Pinned"));
  EXPECT_TRUE(t.state().Find("orc")->Has("Grappling"));
}

// 001 l.218: "Make a Power or Agility check against the escape TN of the
// effect. On a success, you end the effect." With two grappling it, the
// grapple is one effect (l.228: "all opponents grappling you", "all others
// involved in the grapple"): its TN is the highest of the grapplers' higher
// Power / Agility defenses, not the first grappler's.
TEST(Grapple, AnEscapeFromSeveralGrapplersBeatsTheStrongest) {
  fb::CombatantSpecT gob = Who("gob", "party", 7, 5, {{"prc", 0}, {"spd", 0}, {"melee", 3}}, "club", "2", "club",
                               {}, {"standard"});
  Table t(WoundSlots(), Roster({Aria(5, 5), Orc(), std::move(gob)}), {10, 20, 12});  // by id
  ASSERT_EQ(Init(t.state(), "gob"), 25);
  ASSERT_EQ(Init(t.state(), "aria"), 18);
  ASSERT_EQ(Init(t.state(), "orc"), 17);
  // gob first: d20 7 + Melee 3 = 10 >= the orc's melee Defense 10.
  ASSERT_TRUE(t.Submit(Cmd("gob", "grapple", {"orc"}), {7}).ok());
  ASSERT_TRUE(t.Submit(Cmd("gob", "end_turn")).ok());
  // aria: d20 3 + 7 = 10 >= 10 (gob, 25, may act first: a window).
  ASSERT_TRUE(t.Submit(Cmd("aria", "grapple", {"orc"})).ok());
  ASSERT_TRUE(t.Submit(Cmd("aria", "resolve"), {3}).ok());
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_NE(t.state().Find("orc")->FindRelative("Grappling", "gob"), nullptr);
  ASSERT_NE(t.state().Find("orc")->FindRelative("Grappling", "aria"), nullptr);
  // The orc escapes: Power 3 + d20 9 = 12. gob's higher of Power 10 and
  // Agility 10 is 10; aria's of Power 14 (10 + 2 + 2) and Agility 14
  // (10 + 3 + 1) is 14: the TN is 14, 12 < 14 fails (against the first
  // grappler's 10 it would end both grapples).
  ASSERT_TRUE(t.Submit(Cmd("orc", "escape")).ok());
  auto ev = t.Submit(Cmd("orc", "resolve"), {9});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(kernel::testing::NumOf(*ev, "tn"), 14);
  EXPECT_EQ(kernel::testing::NumOf(*ev, "result"), 12);
  EXPECT_NE(t.state().Find("orc")->FindRelative("Grappling", "gob"), nullptr);
  EXPECT_NE(t.state().Find("orc")->FindRelative("Grappling", "aria"), nullptr);
}

// l.218 "against the escape TN of the effect": a Pinned the GM imposed
// with no creature behind it has no grappler's defenses to give the TN; the
// escape must name it (params.tn), and is refused without it.
TEST(Grapple, AnEscapeFromAGmPinWithNoCreatureNeedsItsTn) {
  Table t(WoundSlots(), Roster({Aria(5, 5), Orc()}), {10, 12});
  ASSERT_EQ(Init(t.state(), "aria"), 18);
  ASSERT_TRUE(t.Submit(GmAdds("aria", "Pinned", "a collapsed beam pins her")).ok());
  auto refused = t.Submit(Cmd("aria", "escape"));
  ASSERT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument) << refused.status();
  EXPECT_NE(refused.status().message().find("params.tn"), std::string::npos) << refused.status();
  fb::CommandT escape = Cmd("aria", "escape");
  kernel::testing::With(escape, "tn", 15);
  auto ev = t.Submit(escape, {20});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(kernel::testing::NumOf(*ev, "tn"), 15);
  EXPECT_FALSE(t.state().Find("aria")->Has("Pinned"));
}

TEST(Grapple, CombatChecksHaveCriticals) {
  Table t(WoundSlots(), Roster({Aria(5, 5, {{"ap/grapple", 2}, {"ap/pin", 2}}), Orc()}), {10, 12});
  ASSERT_EQ(Init(t.state(), "aria"), 18);
  ASSERT_EQ(Init(t.state(), "orc"), 17);
  ASSERT_TRUE(t.Submit(Cmd("aria", "grapple", {"orc"}), {3}).ok());
  // A Pin is a Power check, a combat check that "functions the same as an
  // attack roll" (l.70): a natural 20 is a critical success, +2 to aria
  // and -2 to the orc (l.81).
  ASSERT_TRUE(t.Submit(Cmd("aria", "pin", {"orc"}), {20}).ok());
  EXPECT_TRUE(t.state().Find("orc")->Has("Pinned"));
  EXPECT_EQ(Init(t.state(), "aria"), 20);
  EXPECT_EQ(Init(t.state(), "orc"), 15);
}

// The GM makes `who` Distracted (l.244's condition, by no creature).
fb::CommandT Distracted(const std::string& who) { return GmAdds(who, "Distracted", "distracted"); }

TEST(Grapple, ADistractedPinnerHasMinusTwo) {
  Table t(WoundSlots(), Roster({Aria(5, 5, {{"ap/grapple", 2}, {"ap/pin", 2}}), Orc()}), {10, 12});
  ASSERT_TRUE(t.Submit(Cmd("aria", "grapple", {"orc"}), {3}).ok());
  ASSERT_TRUE(t.Submit(Distracted("aria")).ok());
  // Power 4 - 2 (Distracted, l.244; a combat check is as an attack roll,
  // l.70) - 2 (Pin) + d20 12 = 12 < 13: no pin (14 without the distraction).
  ASSERT_TRUE(t.Submit(Cmd("aria", "pin", {"orc"}), {12}).ok());
  EXPECT_FALSE(t.state().Find("orc")->Has("Pinned"));
}

TEST(Grapple, InterposeRetargetsTheAttack) {
  // aria grapples gob; the orc attacks aria; aria interposes gob (l.233).
  Table t(WoundSlots(), Roster({Aria(5, 5, {{"ap/grapple", 2}}), Orc("orc", 6, 5),
                                Orc("gob", 5, 6, {{"prc", -3}}, {"minion"})}),
          {10, 1, 12});
  ASSERT_TRUE(t.Submit(Cmd("aria", "grapple", {"gob"}), {3}).ok());
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.Submit(Cmd("orc", "standard_attack", {"aria"})).ok());
  const uint32_t w = t.state().windows.begin()->first;
  fb::CommandT ip = Cmd("aria", "interrupt", {"gob"});
  ip.window = w;
  WithText(ip, "act", "interpose");
  // Better of Power 4 / Agility 4, -2 (gob not pinned), d20 12: 14 vs the
  // orc's higher of Power 13 / Agility 11: success; aria's the only one
  // eligible, so the attack resolves now, against gob: d20 10 + 2 = 12 >=
  // 10: 12 + 3 + 4 - 10 - 2 = 7: critical; a minion has 1 slot.
  auto ev = t.Submit(ip, {12, 10});
  ASSERT_TRUE(ev.ok()) << ev.status();
  // The check's parts are in its numbers (l.74: Str 2 + Athletics 2).
  EXPECT_EQ(kernel::testing::NumOf(*ev, "athletics"), 2);
  EXPECT_EQ(kernel::testing::NumOf(*ev, "result"), 14);
  EXPECT_EQ(Wounds(t.state(), "gob", kCritical), 1);
  EXPECT_EQ(Wounds(t.state(), "aria", kCritical), 0);
  EXPECT_EQ(Init(t.state(), "aria"), 18);  // a reaction: no initiative cost (l.125)
}

// 001 l.233 "You attempt to force the attack to target another creature
// you are grappling instead": the orc, grappled by aria (d20 3 + 7 = 10 >=
// 10), attacks her; the attacker is not "another creature" the attack can
// be forced onto (an attack targets another creature than its maker): her
// Interpose naming the orc is refused, naming the field, the window stays.
TEST(Grapple, InterposeCannotTurnTheAttackOnTheAttacker) {
  Table t(WoundSlots(), Roster({Aria(5, 5, {{"ap/grapple", 2}}), Orc()}), {10, 1});
  ASSERT_TRUE(t.Submit(Cmd("aria", "grapple", {"orc"}), {3}).ok());
  ASSERT_TRUE(t.state().Find("aria")->Has("Grappling"));
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.Submit(Cmd("orc", "standard_attack", {"aria"})).ok());
  ASSERT_EQ(t.state().windows.size(), 1u);
  auto ev = t.Submit(Answer(t, "aria", "interpose", "orc"), {20});
  ASSERT_FALSE(ev.ok());
  const std::string why(ev.status().message());
  EXPECT_NE(why.find("targets[0]: orc makes the attack"), std::string::npos) << why;
  EXPECT_NE(why.find("another creature aria is grappling (none)"), std::string::npos) << why;
  EXPECT_EQ(t.state().windows.size(), 1u);
}

// 001 l.232 Interpose's trigger, "A creature you can see makes an attack
// against you while you are grappling", is a reaction's (l.125: "regardless
// of your respective initiative scores"): aria (d20 1 + 3 + 5 = 9) grapples
// gob (1 - 3 + 5 = 3) on her turn; round 2, the orc (12 + 5 = 17) attacks
// her: the attack waits for her Interpose though her initiative is lower
// (l.124 would not let her act first). As in InterposeRetargetsTheAttack:
// d20 12 + 4 - 2 = 14 >= the orc's higher defense 13; the attack, d20 10 + 2
// = 12 >= gob's 10, deals 12 + 3 + 4 - 10 - 2 = 7 to gob: critical. Her
// initiative stays 9.
TEST(Grapple, InterposesTriggerIgnoresInitiative) {
  Table t(WoundSlots(), Roster({Aria(5, 5, {{"ap/grapple", 2}}), Orc("orc", 6, 5),
                                Orc("gob", 5, 6, {{"prc", -3}}, {"minion"})}),
          {1, 1, 12});
  ASSERT_TRUE(t.state().IsTurnOf("orc"));
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
  ASSERT_TRUE(t.Submit(Cmd("aria", "grapple", {"gob"})).ok());
  ASSERT_TRUE(t.Submit(Cmd("aria", "resolve"), {3}).ok());  // the orc (17) may act first
  ASSERT_TRUE(t.state().Find("aria")->Has("Grappling"));
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.Submit(Cmd("gob", "end_turn")).ok());
  ASSERT_TRUE(t.state().IsTurnOf("orc"));
  ASSERT_TRUE(t.Submit(Cmd("orc", "standard_attack", {"aria"})).ok());
  ASSERT_EQ(t.state().windows.size(), 1u);
  EXPECT_EQ(t.state().windows.begin()->second.eligible, (std::vector<std::string>{"aria"}));
  auto ev = t.Submit(Answer(t, "aria", "interpose", "gob"), {12, 10});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(Wounds(t.state(), "gob", kCritical), 1);
  EXPECT_EQ(Wounds(t.state(), "aria", kCritical), 0);
  EXPECT_EQ(Init(t.state(), "aria"), 9);
}

// 001 l.228: "If you succeed, you can spend up to 4 AP on movement before
// the end of the round, moving all others involved in the grapple with
// you": the movement the 4 AP buy carries the orc, and the orc, moving
// along, does not see aria leave its reach (no Cling window, l.225).
TEST(Grapple, DragMovesTheGrappleWithTheMovementItsApBuy) {
  Table t(WoundSlots(), Roster({Aria(5, 5, {{"ap/grapple", 2}, {"ap/drag", 1}}), Orc()}), {10, 12});
  ASSERT_TRUE(t.Submit(Cmd("aria", "grapple", {"orc"}), {3}).ok());  // 3 + 7 = 10 >= 10
  // Power check d20 9 + Str 2 + Athletics 2 = 13 >= the orc's Power
  // Defense 10 + 3 = 13; one opponent: no penalty.
  ASSERT_TRUE(t.Submit(Cmd("aria", "drag"), {9}).ok());
  ASSERT_TRUE(t.state().Find("aria")->Has("Dragging"));
  fb::CommandT buy = Cmd("aria", "buy_move");
  With(buy, "ap", 4);  // rate 9 (l.143): 9 yd
  ASSERT_TRUE(t.Submit(buy).ok());
  EXPECT_EQ(Ap(t.state(), "aria"), 7 - 2 - 1 - 4);
  fb::CommandT mv = Cmd("aria", "move");
  mv.path = {fb::Pos(5, 4), fb::Pos(5, 3)};
  ASSERT_TRUE(t.Submit(mv).ok());
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{5, 3}));
  EXPECT_EQ(t.state().Find("orc")->at, (Pos{6, 3}));
  EXPECT_EQ(t.state().Find("aria")->Resource(res::kMovePool), 9 - 2);
}

// 001 l.228: "Make a Power check against the highest Power defense of all
// opponents grappling you, with a -2 penalty for each opponent beyond the
// first." aria grapples two orcs (Power Defense 10 + 3 = 13 each): d20 11
// + Str 2 + Athletics 2 - 2 = 13 >= 13 drags; d20 10 (12) does not.
TEST(Grapple, DragTakesTwoLessForEachOpponentBeyondTheFirst) {
  for (const auto& [die, drags] : std::vector<std::pair<int, bool>>{{11, true}, {10, false}}) {
    Table t(WoundSlots(), Roster({Aria(5, 5, {{"ap/grapple", 1}, {"ap/drag", 1}}), Orc(), Orc("orc2", 4, 5)}), {10, 12, 1});
    ASSERT_TRUE(t.Submit(Cmd("aria", "grapple", {"orc"}), {3}).ok());   // 3 + 7 = 10 >= 10
    ASSERT_TRUE(t.Submit(Cmd("aria", "grapple", {"orc2"}), {3}).ok());
    auto ev = t.Submit(Cmd("aria", "drag"), {die});
    ASSERT_TRUE(ev.ok()) << ev.status();
    EXPECT_EQ(kernel::testing::NumOf(*ev, "extra_opponents"), -2);
    EXPECT_EQ(kernel::testing::NumOf(*ev, "result"), die + 4 - 2);
    EXPECT_EQ(t.state().Find("aria")->Has("Dragging"), drags) << die;
  }
}

// 001 l.228: "you can spend up to 4 AP on movement before the end of the
// round, moving all others involved in the grapple with you", and l.178: a
// long jump's AP buy movement. After the drag aria (7 - 1 - 1 = 5 AP) may
// spend 4 AP on movement; her jump from (5,5) to (5,3) lacks 2 yd: 1 AP
// (rate 9, l.143); d20 20 +
// 4 = 24, halved 12 feet = 4 yd (l.177): she lands on (5,3), the orc with
// her on (6,3). 3 AP of the 4 are left: buying 4 more is refused; 3 buy
// the 4-AP column less the 1-AP one, 9 - 2 = 7 yd (l.143, the round's AP
// on movement in all).
TEST(Grapple, ADraggersJumpCarriesTheGrappleAndCountsTowardItsFourAp) {
  Table t(WoundSlots(), Roster({Aria(5, 5, {{"ap/grapple", 1}, {"ap/drag", 1}}), Orc()}), {10, 12});
  ASSERT_TRUE(t.Submit(Cmd("aria", "grapple", {"orc"}), {3}).ok());
  ASSERT_TRUE(t.Submit(Cmd("aria", "drag"), {9}).ok());
  fb::CommandT j = Cmd("aria", "jump");
  j.path = {fb::Pos(5, 4), fb::Pos(5, 3)};
  auto jumped = t.Submit(j, {20});
  ASSERT_TRUE(jumped.ok()) << jumped.status();
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{5, 3}));
  EXPECT_EQ(t.state().Find("orc")->at, (Pos{6, 3}));
  EXPECT_EQ(Ap(t.state(), "aria"), 7 - 1 - 1 - 1);
  fb::CommandT buy = Cmd("aria", "buy_move");
  With(buy, "ap", 4);
  EXPECT_EQ(t.Submit(buy).status().code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(t.Submit(BuyMove("aria", 3)).ok());
  EXPECT_EQ(t.state().Find("aria")->Resource(res::kMovePool), 7);
  EXPECT_EQ(Ap(t.state(), "aria"), 1);
}

TEST(Grapple, ClingOnLeavingReach) {
  Table t(WoundSlots(), Roster({Aria(5, 5, {{"ap/grapple", 2}}), Orc()}), {10, 12});
  auto moved = OrcBreaksAway(t, {fb::Pos(7, 5), fb::Pos(8, 5), fb::Pos(9, 5)});
  ASSERT_TRUE(moved.ok()) << moved.status();
  // Its first step leaves aria's reach: the move waits for her Cling (l.225),
  // a window citing Cling, not Rebuff's approach (l.189).
  ASSERT_EQ(t.state().windows.size(), 1u);
  EXPECT_FALSE(kernel::testing::Cites(*moved, "001.act.rebuff"));
  EXPECT_TRUE(kernel::testing::Cites(*moved, "001.cling"));
  EXPECT_EQ(t.state().Find("orc")->at, (Pos{6, 5}));
  fb::CommandT cl = ClingOnTheOrc(t, 1);
  // Power 4 + d20 13 = 17: 10 points take 1 yd of its movement, 5 more
  // move her 1 yd with it (l.226). "prevent the target's movement": the
  // move in progress loses its last yard (it ended at 9,5 with pool to
  // spare), and the yard is gone from its pool too: 9 - 1 - 2.
  ASSERT_TRUE(t.Submit(cl, {13}).ok());
  EXPECT_EQ(t.state().Find("orc")->at, (Pos{8, 5}));
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{6, 5}));
  EXPECT_EQ(t.state().Find("orc")->Resource(res::kMovePool), 9 - 1 - 2);
  EXPECT_EQ(Ap(t.state(), "aria"), 12 - 2);
  // 3 yd apart: the grapple is over (l.225, l.230).
  EXPECT_FALSE(t.state().Find("aria")->Has("Grappling"));
}

// 001 l.225 Cling's trigger, "A target you are grappling is about to move
// out of reach", and l.125 "You can only take a single reaction in response
// to a specific trigger": aria, grappling the orc, readies an attack (l.204,
// "in response to any event"). The orc walks (6,6), (7,6), (8,6): its move
// waits before its first step, still adjacent to her, for her readied
// action; she passes. Its second step leaves her reach: a trigger of its
// own, Cling's, and the move waits again for it (was: no window, she had
// answered the move already; the orc walked off and the grapple ended).
// Her Cling, Power 4 + d20 13 = 17: 10 points take its last yard (l.226):
// it stops at (7,6).
TEST(Grapple, AReadiedGrapplerThatPassedStillClings) {
  Table t(WoundSlots(), Roster({Aria(5, 5, {{"ap/grapple", 2}}), Orc()}), {10, 12});
  ASSERT_TRUE(t.Submit(Cmd("aria", "grapple", {"orc"}), {3}).ok());
  ASSERT_TRUE(t.state().Find("aria")->Has("Grappling"));
  ASSERT_TRUE(t.Submit(ReadyAttack("aria")).ok());
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.Submit(BuyMove("orc", 4)).ok());
  fb::CommandT mv = Cmd("orc", "move");
  mv.path = {fb::Pos(6, 6), fb::Pos(7, 6), fb::Pos(8, 6)};
  auto moved = t.Submit(mv);
  ASSERT_TRUE(moved.ok()) << moved.status();
  ASSERT_EQ(t.state().windows.size(), 1u);
  EXPECT_TRUE(kernel::testing::Cites(*moved, "001.act.ready"));
  // The held move notes aria as having had her readied action's window only:
  // stored "ready:aria" (what replay reads), shown "aria (readied)" (display).
  ASSERT_EQ(t.state().pending.size(), 1u);
  const std::vector<std::string>& reacted = t.state().pending.begin()->second.reacted;
  ASSERT_EQ(reacted, (std::vector<std::string>{"ready:aria"}));
  EXPECT_EQ(kernel::ReactedText(WoundSlots().display(), reacted[0]), "aria (readied)");
  EXPECT_EQ(kernel::ReactedText(WoundSlots().display(), "orc"), "orc");
  fb::CommandT pass = Cmd("aria", "pass");
  pass.window = t.state().windows.begin()->first;
  auto passed = t.Submit(pass);
  ASSERT_TRUE(passed.ok()) << passed.status();
  ASSERT_EQ(t.state().windows.size(), 1u);
  EXPECT_TRUE(kernel::testing::Cites(*passed, "001.cling"));
  EXPECT_EQ(t.state().windows.begin()->second.eligible, (std::vector<std::string>{"aria"}));
  EXPECT_EQ(t.state().Find("orc")->at, (Pos{6, 6}));
  auto clung = t.Submit(ClingOnTheOrc(t, 1), {13});
  ASSERT_TRUE(clung.ok()) << clung.status();
  EXPECT_EQ(t.state().Find("orc")->at, (Pos{7, 6}));
}

// As AReadiedGrapplerThatPassedStillClings, by a long jump (l.178: one
// window before its roll): aria is in it for her readied action and, the
// jump's second yard leaving her reach, for Cling's trigger too: her Cling
// is taken (was: refused, "not cling's trigger"). Power 4 + d20 13 = 17:
// the jump loses its last yard (l.226); Str 3 + d20 15 = 18, no run-up:
// halved, 9 feet = 3 yd (l.177): the orc lands on (7,6).
TEST(Grapple, AReadiedGrapplerClingsToAJumpAway) {
  Table t(WoundSlots(), Roster({Aria(5, 5, {{"ap/grapple", 2}}), Orc()}), {10, 12});
  ASSERT_TRUE(t.Submit(Cmd("aria", "grapple", {"orc"}), {3}).ok());
  ASSERT_TRUE(t.Submit(ReadyAttack("aria")).ok());
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.Submit(BuyMove("orc", 4)).ok());
  fb::CommandT j = Cmd("orc", "jump");
  j.path = {fb::Pos(6, 6), fb::Pos(7, 6), fb::Pos(8, 6)};
  auto declared = t.Submit(j);
  ASSERT_TRUE(declared.ok()) << declared.status();
  ASSERT_EQ(t.state().windows.size(), 1u);
  EXPECT_EQ(t.state().windows.begin()->second.eligible, (std::vector<std::string>{"aria"}));
  auto clung = t.Submit(ClingOnTheOrc(t, 1), {13, 15});
  ASSERT_TRUE(clung.ok()) << clung.status();
  EXPECT_EQ(kernel::testing::NumOf(*clung, "reduce_yards"), 1);
  EXPECT_EQ(t.state().Find("orc")->at, (Pos{7, 6}));
}

// 001 l.225: Cling's trigger, "A target you are grappling is about to move
// out of reach", by a long jump: the jump waits whole for aria's answer
// before its roll (it cannot be split in the air). Her Cling, Power 4 +
// d20 13 = 17: 10 points take 1 yd from its movement (the jump's path loses
// its last yard, and its pool the yard), 5 move her 1 yd with it (l.226).
// The orc's jump: Str 3 + d20 15 = 18, no run-up: halved, 9 feet = 3 yd
// (l.177), enough for the 2 yd left: it lands on (8,5); its pool 9 - 1 - 2.
TEST(Grapple, ClingOnAJumpAway) {
  Table t(WoundSlots(), Roster({Aria(5, 5, {{"ap/grapple", 2}}), Orc()}), {10, 12});
  auto declared = OrcBreaksAway(t, {fb::Pos(7, 5), fb::Pos(8, 5), fb::Pos(9, 5)}, "jump");
  ASSERT_TRUE(declared.ok()) << declared.status();
  ASSERT_EQ(t.state().windows.size(), 1u);
  EXPECT_EQ(t.state().windows.begin()->second.eligible, (std::vector<std::string>{"aria"}));
  EXPECT_TRUE(kernel::testing::Cites(*declared, "001.cling"));
  EXPECT_EQ(t.state().Find("orc")->at, (Pos{6, 5}));
  fb::CommandT cl = ClingOnTheOrc(t, 1);
  auto answered = t.Submit(cl, {13, 15});
  ASSERT_TRUE(answered.ok()) << answered.status();
  EXPECT_TRUE(t.state().windows.empty());
  EXPECT_EQ(kernel::testing::NumOf(*answered, "reduce_yards"), 1);
  EXPECT_EQ(kernel::testing::NumOf(*answered, "move_with_yards"), 1);
  EXPECT_EQ(kernel::testing::NumOf(*answered, "result"), 9);  // the jump's, last
  EXPECT_EQ(t.state().Find("orc")->at, (Pos{8, 5}));
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{6, 5}));
  EXPECT_EQ(t.state().Find("orc")->Resource(res::kMovePool), 9 - 1 - 2);
  EXPECT_EQ(Ap(t.state(), "aria"), 12 - 2);
}

// 001 l.225 Cling's trigger, "A target you are grappling is about to move
// out of reach": the orc, grappled by aria (5,5), jumps 1 yd from (6,5) to
// (6,6), still beside her. Its jump waits for aria, whose initiative 18 is
// above its 17 (l.124), but the jump does not take it out of her reach: no
// Cling (was: she clung, her Power check, d20 13 + 4 = 17, cutting its one
// yard).
TEST(Grapple, NoClingOnAJumpThatStaysWithinReach) {
  Table t(WoundSlots(), Roster({Aria(5, 5, {{"ap/grapple", 2}}), Orc()}), {10, 12});
  auto declared = OrcBreaksAway(t, {fb::Pos(6, 6)}, "jump");
  ASSERT_TRUE(declared.ok()) << declared.status();
  ASSERT_EQ(t.state().windows.size(), 1u);
  EXPECT_EQ(t.state().windows.begin()->second.eligible, (std::vector<std::string>{"aria"}));
  const int64_t ap = Ap(t.state(), "aria");
  auto r = t.Submit(ClingOnTheOrc(t, 1), {13});
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition) << r.status();
  EXPECT_NE(r.status().message().find("l.225"), std::string::npos) << r.status();
  EXPECT_EQ(Ap(t.state(), "aria"), ap);
  EXPECT_EQ(t.state().windows.size(), 1u);
}

// 001 l.226 "You can attempt to either prevent the target's movement ...
// for every 10 points, you may reduce the target's movement by 1 yard": the
// orc (pool 9) steps 1 yd away; aria's Cling, Power 4 + d20 6 = 10, reduces
// it by 1 yd: the move is prevented, the orc stays adjacent and grappled,
// its pool 9 - 1 = 8.
TEST(Grapple, ClingPreventsTheMoveInProgress) {
  Table t(WoundSlots(), Roster({Aria(5, 5, {{"ap/grapple", 2}}), Orc()}), {10, 12});
  auto moved = OrcBreaksAway(t, {fb::Pos(7, 5)});
  ASSERT_TRUE(moved.ok()) << moved.status();
  ASSERT_EQ(t.state().windows.size(), 1u);
  fb::CommandT cl = ClingOnTheOrc(t, 1);
  auto ev = t.Submit(cl, {6});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(kernel::testing::NumOf(*ev, "cut_yards"), 1);
  EXPECT_EQ(t.state().Find("orc")->at, (Pos{6, 5}));
  EXPECT_EQ(t.state().Find("orc")->Resource(res::kMovePool), 8);
  EXPECT_TRUE(t.state().Find("aria")->Has("Grappling"));
  EXPECT_TRUE(t.state().Find("orc")->Has("Grappling"));
}

// 001 l.226 "For every 5 points in the result, you may move 1 yard with the
// target" and l.161 "count every second diagonal movement as 2 yards": the
// count runs over all the yards the Cling moves, even when the target's
// move is split by a window. aria grapples the orc diagonally (6,6); the
// orc (rate 9, 4 AP: 9 yd) walks (7,7) (8,8) (9,9); aria clings, Power 4 +
// d20 6 = 10: 2 yd with it. The move then waits again, before (8,8), for
// bob's Rebuff (l.189). Along the whole move her 2 yd are the first
// diagonal (1 yd) and not the second (2 yd more: 3 > 2): she moves to
// (6,6) and keeps 1 yd; the split must not restart the count (it did: a
// second diagonal for 1 yd, to (7,7)).
TEST(Grapple, ClingCountsItsDiagonalsAcrossAWindow) {
  fb::CombatantSpecT bob = Who("bob", "party", 9, 7, {{"prc", 0}, {"spd", 0}, {"dex", 1}, {"melee", 1}},
                               "sword", "3", "sword");
  bob.player = "bob";
  Table t(WoundSlots(), Roster({Aria(5, 5, {{"ap/grapple", 2}}), Orc("orc", 6, 6), std::move(bob)}), {10, 1, 12});
  auto moved = OrcBreaksAway(t, {fb::Pos(7, 7), fb::Pos(8, 8), fb::Pos(9, 9)});
  ASSERT_TRUE(moved.ok()) << moved.status();
  ASSERT_EQ(t.state().windows.size(), 1u);  // Cling's trigger (l.225)
  fb::CommandT cl = ClingOnTheOrc(t);
  auto ev = t.Submit(cl, {6});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(kernel::testing::NumOf(*ev, "move_with_yards"), 2);
  ASSERT_EQ(t.state().windows.size(), 1u);  // bob's Rebuff (l.189)
  EXPECT_EQ(t.state().Find("orc")->at, (Pos{7, 7}));
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{6, 6}));
  fb::CommandT pass = Cmd("bob", "pass");
  pass.window = t.state().windows.begin()->first;
  auto passed = t.Submit(pass);
  ASSERT_TRUE(passed.ok()) << passed.status();
  EXPECT_EQ(t.state().Find("orc")->at, (Pos{9, 9}));
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{6, 6}));
}

TEST(Grapple, DragClingAndInterposeCiteTheirOwnLines) {
  // Refused for want of a grapple, each names its own rule: Drag l.228,
  // Cling l.226, Interpose l.233 (they all cited Grapple, l.230).
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  auto drag = t.Submit(Cmd("aria", "drag"));
  EXPECT_NE(drag.status().message().find("l.228"), std::string::npos) << drag.status();
  fb::CommandT cl = Cmd("aria", "cling", {"orc"});
  auto cling = t.Submit(cl);
  EXPECT_NE(cling.status().message().find("l.226"), std::string::npos) << cling.status();
  auto inter = t.Submit(Cmd("aria", "interpose", {"orc"}));
  EXPECT_NE(inter.status().message().find("l.233"), std::string::npos) << inter.status();
}

TEST(Grapple, NoLongerAdjacentTheGrappleAndItsPinEnd) {
  // 001 l.230: a grapple is "close-quarters" with "an adjacent target";
  // l.225: Cling answers a grappled target "about to move out of reach";
  // l.235: a pin is made "while grappling". aria grapples the orc (d20 3 +
  // 7 = 10 >= 10, 2 AP by the roster), pins it (d20 11 + 4 - 2 = 13 >= 13,
  // 4 AP), buys 1 AP of movement (2 yd) and walks away: 2 yd apart, the
  // grapple ends for both, and the pin with it; a Pin is refused.
  Table t(WoundSlots(), Roster({Aria(5, 5, {{"ap/grapple", 2}}), Orc()}), {10, 12});
  ASSERT_TRUE(t.Submit(Cmd("aria", "grapple", {"orc"}), {3}).ok());
  ASSERT_TRUE(t.Submit(Cmd("aria", "pin", {"orc"}), {11}).ok());
  ASSERT_TRUE(t.state().Find("orc")->Has("Pinned"));
  ASSERT_TRUE(t.Submit(BuyMove("aria", 1)).ok());
  fb::CommandT away = Cmd("aria", "move");
  away.path = {fb::Pos(4, 5), fb::Pos(3, 5)};
  ASSERT_TRUE(t.Submit(away).ok());
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{3, 5}));
  EXPECT_FALSE(t.state().Find("aria")->Has("Grappling"));
  EXPECT_FALSE(t.state().Find("orc")->Has("Grappling"));
  EXPECT_FALSE(t.state().Find("orc")->Has("Pinned"));
  EXPECT_EQ(t.Submit(Cmd("aria", "pin", {"orc"})).status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(Grapple, ATargetThatWalksOutOfReachIsNoLongerGrappled) {
  // As ClingOnLeavingReach, aria passes instead of clinging: the orc walks
  // 3 yd away (rate 9, 4 AP) and neither grapples the other any more.
  Table t(WoundSlots(), Roster({Aria(5, 5, {{"ap/grapple", 2}}), Orc()}), {10, 12});
  auto moved = OrcBreaksAway(t, {fb::Pos(7, 5), fb::Pos(8, 5), fb::Pos(9, 5)});
  ASSERT_TRUE(moved.ok()) << moved.status();
  ASSERT_EQ(t.state().windows.size(), 1u);  // Cling's trigger (l.225)
  fb::CommandT pass = Cmd("aria", "pass");
  pass.window = t.state().windows.begin()->first;
  ASSERT_TRUE(t.Submit(pass).ok());
  EXPECT_EQ(t.state().Find("orc")->at, (Pos{9, 5}));
  EXPECT_FALSE(t.state().Find("aria")->Has("Grappling"));
  EXPECT_FALSE(t.state().Find("orc")->Has("Grappling"));
}

TEST(Reactions, HarryInTheWindowOfARangedAttack) {
  auto archer = Who("archer", "orcs", 6, 5, {{"prc", -4}, {"dex", 1}, {"aim", 1}}, "bow", "2", "bow", {}, {"standard"}, "ranged");
  // Dice in id order: archer 12 - 4 + 5 = 13, aria 10 + 3 + 5 = 18.
  Table t(WoundSlots(), Roster({Aria(), std::move(archer)}), {12, 10});
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.Submit(Cmd("archer", "standard_attack", {"aria"})).ok());
  ASSERT_EQ(t.state().windows.size(), 1u);
  fb::CommandT h = Answer(t, "aria", "harry", "archer");
  // The shot resolves after the reaction: d20 12 + 2 - 2 = 12 < ranged
  // Defense 12? 12 >= 12 would hit; Harry's -2 makes it 10: a miss (l.202).
  ASSERT_TRUE(t.Submit(h, {10}).ok());
  EXPECT_TRUE(t.state().Find("archer")->Has("Harried"));
  EXPECT_EQ(Wounds(t.state(), "aria", kLight) + Wounds(t.state(), "aria", kModerate), 0);
  EXPECT_EQ(Init(t.state(), "aria"), 18);
}

// 001 l.201 Harry's trigger, "A creature within reach of your melee weapon
// attempts to make a ranged weapon attack", the reach counted as l.230
// counts it, the yards between the spaces (adjacent 0): the archer (7,5) is
// 1 yd from aria (5,5), within her sword's reach 1 (the default). Dice in
// id order: archer 12 - 4 + 5 = 13, aria 10 + 3 + 5 = 18: aria may answer
// its shot by Harry's trigger only (l.124: her initiative is higher, but
// it is her own turn that passed; she is eligible as a harrier), a window
// opens (was: 2 yd, adjacent counted 1, beyond reach 1: no window, the shot
// resolved at once).
TEST(Reactions, HarryReachesOneYardWithReachOne) {
  auto archer = Who("archer", "orcs", 7, 5, {{"prc", -4}, {"dex", 1}, {"aim", 1}}, "bow", "2", "bow", {}, {"standard"}, "ranged");
  Table t(WoundSlots(), Roster({Aria(), std::move(archer)}), {12, 10});
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.Submit(Cmd("archer", "standard_attack", {"aria"})).ok());
  ASSERT_EQ(t.state().windows.size(), 1u);
  EXPECT_EQ(t.state().windows.begin()->second.eligible, (std::vector<std::string>{"aria"}));
  ASSERT_TRUE(t.Submit(Answer(t, "aria", "harry", "archer"), {10}).ok());
  EXPECT_TRUE(t.state().Find("archer")->Has("Harried"));
}

TEST(Reactions, HarryOncePerRoundOpensNoSecondWindow) {
  // archer initiative 12 + 5 = 17, aria 1 + 3 + 5 = 9: aria may answer the
  // archer's shots only by Harry's trigger (l.201).
  auto archer = Who("archer", "orcs", 6, 5, {{"dex", 1}, {"aim", 1}, {"spd", 10}}, "bow", "2", "bow", {}, {"standard"}, "ranged");
  Table t(WoundSlots(), Roster({Aria(), std::move(archer)}), {12, 1});
  ASSERT_TRUE(t.Submit(Cmd("archer", "standard_attack", {"aria"})).ok());
  ASSERT_EQ(t.state().windows.size(), 1u);
  EXPECT_EQ(t.state().windows.begin()->second.eligible, (std::vector<std::string>{"aria"}));
  fb::CommandT h = Answer(t, "aria", "harry", "archer");
  ASSERT_TRUE(t.Submit(h, {10}).ok());
  EXPECT_EQ(Ap(t.state(), "aria"), 5);  // 7 - 2
  // 001 l.202: "You can only use this reaction once per round per target":
  // the second shot this round resolves at once, no window for aria.
  ASSERT_TRUE(t.Submit(Cmd("archer", "standard_attack", {"aria"}), {10}).ok());
  EXPECT_TRUE(t.state().windows.empty());
  EXPECT_EQ(Ap(t.state(), "archer"), 24 - 8);
}

// 001 l.125: "Reactions are a special type of action that you can take any
// time that its requirements are met"; l.189 Rebuff's trigger "A creature
// you can see attempts to approach", l.201 Harry's "attempts to make a
// ranged weapon attack": without its trigger a reaction is refused, nothing
// spent, and an answer in a window that is not its trigger's is refused too.
TEST(Targets, HinderEnterSpaceAndIgnoreTakeAnotherCreature) {
  // 001 l.240 Hinder "a target ... your opponent", l.216 "a space occupied
  // by another creature", l.97 ignoring the creatures that flank you: none
  // takes the actor itself (it tripped itself, shared its own space and
  // ignored itself). Nothing is spent or written.
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  fb::CommandT trip = Cmd("aria", "hinder", {"aria"});
  WithText(trip, "hindrance", "trip");
  for (fb::CommandT c : {trip, Cmd("aria", "enter_space", {"aria"}), Cmd("aria", "ignore", {"aria"})}) {
    auto r = t.Submit(c, {12});
    ASSERT_FALSE(r.ok()) << c.action;
    EXPECT_NE(r.status().message().find("another creature"), std::string::npos) << r.status();
  }
  EXPECT_EQ(Ap(t.state(), "aria"), 7);
  EXPECT_FALSE(t.state().Find("aria")->Has("Prone"));
  EXPECT_FALSE(t.state().Find("aria")->Has("SharingSpace"));
  EXPECT_FALSE(t.state().Find("aria")->Has("Ignoring"));
}

TEST(Reactions, AReactionNeedsItsTrigger) {
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});  // aria 18, orc 17
  // aria's turn: the orc (lower initiative) rebuffs with nobody approaching.
  auto rb = t.Submit(Cmd("orc", "rebuff", {"aria"}), {15});
  EXPECT_EQ(rb.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(rb.status().message().find("l.189"), std::string::npos) << rb.status();
  EXPECT_EQ(Ap(t.state(), "orc"), 6);
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  EXPECT_EQ(Ap(t.state(), "aria"), 14);  // 7 + 7
  // The orc's turn: a Harry with no ranged attack declared is refused.
  EXPECT_EQ(t.Submit(Cmd("aria", "harry", {"orc"})).status().code(), absl::StatusCode::kFailedPrecondition);
  // Its melee attack opens a window for aria (18 > 17): neither Harry (not
  // a ranged attack) nor Rebuff (not an approach) answers it.
  ASSERT_TRUE(t.Submit(Cmd("orc", "standard_attack", {"aria"})).ok());
  ASSERT_EQ(t.state().windows.size(), 1u);
  const uint32_t win = t.state().windows.begin()->first;
  for (const char* r : {"harry", "rebuff"}) {
    fb::CommandT h = Cmd("aria", "interrupt", {"orc"});
    h.window = win;
    WithText(h, "act", r);
    EXPECT_EQ(t.Submit(h, {15}).status().code(), absl::StatusCode::kFailedPrecondition) << r;
  }
  EXPECT_EQ(Ap(t.state(), "aria"), 14);
  EXPECT_EQ(Init(t.state(), "aria"), 18);
  EXPECT_FALSE(t.state().Find("orc")->Has("Harried"));
  EXPECT_EQ(t.state().windows.size(), 1u);
}

TEST(Reactions, RebuffOnApproach) {
  Table t(WoundSlots(), Roster({Aria(5, 5), Orc("orc", 8, 5)}), {10, 12});
  // Rate 9 (Str 2 + Athletics 2 = 4, l.143): 2 AP -> 4 yd. The first step
  // stays outside the axe's reach; the second would enter it: the move
  // waits there for the orc's Rebuff (l.189).
  ASSERT_NO_FATAL_FAILURE(AriaStepsTowardTheOrc(t));
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{6, 5}));
  EXPECT_EQ(t.state().windows.begin()->second.eligible, (std::vector<std::string>{"orc"}));
  fb::CommandT rb = Answer(t, "orc", "rebuff", "aria");
  // d20 5 + 2 = 7 < 13: a miss; the reaction costs no initiative (l.125)
  // and the move goes on.
  ASSERT_TRUE(t.Submit(rb, {5}).ok());
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{7, 5}));
  EXPECT_EQ(Init(t.state(), "orc"), 17);
  EXPECT_EQ(Ap(t.state(), "orc"), 4);
  EXPECT_EQ(t.state().Find("aria")->Resource(res::kMovePool), 2);
}

// 001 l.189 "attempts to approach closer than your weapon's optimal
// reach", l.190 "You use your weapon to make an attack against the target
// before it moves": the Rebuff strikes from where the target stands before
// the step, however far that step brings it. aria (6,6) steps diagonally to
// (7,7), beside the orc (8,8): from 2 yd between the spaces (l.161: two
// diagonals, the second 2 yd: 3 squares' distance) to 0, closer than the
// axe's reach 1 (l.230's count): the move waits at (6,6) and the orc's
// Rebuff, d20 5 + 2 = 7 < 13, misses; she steps on (was: refused, "3 yd
// away", beyond the reach plus the one step allowed).
TEST(Reactions, ARebuffStrikesBeforeADiagonalStepOfTwoYards) {
  Table t(WoundSlots(), Roster({Aria(6, 6), Orc("orc", 8, 8)}), {10, 12});
  ASSERT_TRUE(t.Submit(BuyMove("aria", 1)).ok());
  fb::CommandT mv = Cmd("aria", "move");
  mv.path = {fb::Pos(7, 7)};
  ASSERT_TRUE(t.Submit(mv).ok());
  ASSERT_EQ(t.state().windows.size(), 1u);
  EXPECT_EQ(t.state().windows.begin()->second.eligible, (std::vector<std::string>{"orc"}));
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{6, 6}));
  auto rb = t.Submit(Answer(t, "orc", "rebuff", "aria"), {5});
  ASSERT_TRUE(rb.ok()) << rb.status();
  EXPECT_EQ(Ap(t.state(), "orc"), 4);
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{7, 7}));
}

// 001 l.214: Create an Opening is made "to allow you to close the
// distance": from outside the orc's reach (3 yd), d20 10 + 7 = 17; the
// approach then waits for the orc's Rebuff, d20 12 + 2 = 14: it would hit
// aria's melee Defense 13, but the opening's 17 replaces it: a miss.
TEST(Reactions, AnOpeningFromOutsideTheReachCountsAgainstTheRebuff) {
  Table t(WoundSlots(), Roster({Aria(5, 5), Orc("orc", 8, 5)}), {10, 12});
  auto op = t.Submit(Cmd("aria", "create_opening", {"orc"}), {10});
  ASSERT_TRUE(op.ok()) << op.status();
  EXPECT_EQ(kernel::testing::NumOf(*op, "attack_roll"), 17);
  EXPECT_EQ(Ap(t.state(), "aria"), 7 - 3);
  ASSERT_NO_FATAL_FAILURE(AriaStepsTowardTheOrc(t));
  fb::CommandT rb = Answer(t, "orc", "rebuff", "aria");
  auto ev = t.Submit(rb, {12});
  ASSERT_TRUE(ev.ok()) << ev.status();
  // Recorded as the change, like defend's: 17 replaces 13, +4.
  EXPECT_EQ(kernel::testing::NumOf(*ev, "opening"), 17 - 13);
  EXPECT_EQ(Wounds(t.state(), "aria", kLight) + Wounds(t.state(), "aria", kModerate), 0);
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{7, 5}));
}

TEST(Reactions, InitiativeZeroCannotReact) {
  Table t(WoundSlots(), Roster({Aria(), Orc("orc", 6, 5, {{"prc", -10}})}), {10, 1});
  EXPECT_EQ(Init(t.state(), "orc"), 0);  // 1 - 10 + 5 = -4: floors at 0 (l.120)
  EXPECT_EQ(t.Submit(Cmd("orc", "rebuff", {"aria"}), {5}).status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(Ready, ReadiedActionIsAReaction) {
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  ASSERT_TRUE(t.Submit(ReadyAttack("aria")).ok());
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.Submit(Cmd("aria", "standard_attack", {"orc"}), {3}).ok());
  EXPECT_EQ(Init(t.state(), "aria"), 18);  // no -2 (l.204, l.125)
  EXPECT_EQ(Wounds(t.state(), "orc", kModerate), 1);
  EXPECT_FALSE(t.state().Find("aria")->Has("Readied"));
}

TEST(Ready, MovingIsNotAnActionAndKeepsTheReadiedAction) {
  // 001 l.204: "Until you take an action or reaction, you can take the
  // chosen action as a reaction"; l.110 "move or perform an action", l.160
  // "Just like actions, movement requires spending AP": moving is not an
  // action. aria readies an attack (7 - 2 = 5 AP), buys 1 AP of movement
  // (2 yd at rate 9, 4 AP left) and steps: still readied. Defend (an
  // action, 2 AP) ends it.
  Table t(WoundSlots(), Roster({Aria(), Orc("orc", 15, 15)}), {10, 12});
  ASSERT_TRUE(t.Submit(ReadyAttack("aria")).ok());
  ASSERT_TRUE(t.Submit(BuyMove("aria", 1)).ok());
  fb::CommandT step = Cmd("aria", "move");
  step.path = {fb::Pos(5, 6)};
  ASSERT_TRUE(t.Submit(step).ok());
  EXPECT_EQ(Ap(t.state(), "aria"), 4);
  EXPECT_TRUE(t.state().Find("aria")->Has("Readied"));
  ASSERT_TRUE(t.Submit(Cmd("aria", "defend")).ok());
  EXPECT_EQ(Ap(t.state(), "aria"), 2);
  EXPECT_FALSE(t.state().Find("aria")->Has("Readied"));
}

// Round 1: aria (18) ends her turn; the orc (17) readies an attack (aria,
// higher, passes on its window, l.124) and ends its turn: round 2 begins,
// the orc still Readied (l.204).
void TheOrcReadiesAnAttackInRoundOne(Table& t) {
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.Submit(ReadyAttack("orc")).ok());
  fb::CommandT pass = Cmd("aria", "pass");
  pass.window = t.state().windows.begin()->first;
  ASSERT_TRUE(t.Submit(pass).ok());
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
}

// 001 l.204: "you can take the chosen action as a reaction in response to
// any event": a plain move is one. The orc (initiative 17, lower than
// aria's 18) readies an attack; aria steps 1 yd (still adjacent, no rebuff):
// the move waits before its first step for the orc's readied attack, taken
// as a reaction (no -2), d20 11 + 2 = 13 >= 13: critical (as in
// ALowerInitiativeReadiedCreatureMayAnswer); then aria's move goes on.
TEST(Ready, AReadiedCreatureAnswersAPlainMove) {
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  ASSERT_NO_FATAL_FAILURE(TheOrcReadiesAnAttackInRoundOne(t));
  ASSERT_TRUE(t.Submit(BuyMove("aria", 1)).ok());
  fb::CommandT step = Cmd("aria", "move");
  step.path = {fb::Pos(5, 6)};
  auto moved = t.Submit(step);
  ASSERT_TRUE(moved.ok()) << moved.status();
  EXPECT_TRUE(kernel::testing::Cites(*moved, "001.act.ready"));
  ASSERT_EQ(t.state().windows.size(), 1u);
  EXPECT_EQ(t.state().windows.begin()->second.eligible, (std::vector<std::string>{"orc"}));
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{5, 5}));
  fb::CommandT a = Answer(t, "orc", "standard_attack", "aria");
  ASSERT_TRUE(t.Submit(a, {11}).ok());
  EXPECT_TRUE(t.state().windows.empty());
  EXPECT_EQ(Init(t.state(), "orc"), 17);
  EXPECT_EQ(Wounds(t.state(), "aria", kCritical), 1);
  EXPECT_FALSE(t.state().Find("orc")->Has("Readied"));
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{5, 6}));
}

// 001 l.235 "The target is unable to take any other actions while pinned"
// and l.204 (a readied action is taken as a reaction): the orc (17) readies
// an attack; round 2, aria (18) grapples it (d20 3 + 7 = 10 >= 10) and pins
// it (Power 4 - 2 + d20 15 = 17 >= its higher of Power 13 / Agility 11).
// Pinned, it has no readied action to take: aria's Defend resolves at once
// (was: it waited in a window only the orc's pass could close), and so does
// her step to (5,6), still adjacent (was: a move window for its readied
// action).
TEST(Ready, APinnedReadiedCreatureAnswersNothing) {
  Table t(WoundSlots(), Roster({Aria(5, 5, {{"ap/grapple", 2}}), Orc()}), {10, 12});
  ASSERT_NO_FATAL_FAILURE(TheOrcReadiesAnAttackInRoundOne(t));
  ASSERT_TRUE(t.state().IsTurnOf("aria"));
  ASSERT_TRUE(t.Submit(Cmd("aria", "grapple", {"orc"})).ok());  // the readied orc's window
  fb::CommandT p2 = Cmd("orc", "pass");
  p2.window = t.state().windows.begin()->first;
  ASSERT_TRUE(t.Submit(p2, {3}).ok());
  ASSERT_TRUE(t.state().Find("orc")->Has("Grappling"));
  ASSERT_TRUE(t.Submit(Cmd("aria", "pin", {"orc"})).ok());
  fb::CommandT p3 = Cmd("orc", "pass");
  p3.window = t.state().windows.begin()->first;
  ASSERT_TRUE(t.Submit(p3, {15}).ok());
  ASSERT_TRUE(t.state().Find("orc")->Has("Pinned"));
  ASSERT_TRUE(t.state().Find("orc")->Has("Readied"));
  ASSERT_TRUE(t.Submit(Cmd("aria", "defend")).ok());
  EXPECT_TRUE(t.state().windows.empty());
  EXPECT_TRUE(t.state().Find("aria")->Has("Defending"));
  ASSERT_TRUE(t.Submit(BuyMove("aria", 1)).ok());
  fb::CommandT step = Cmd("aria", "move");
  step.path = {fb::Pos(5, 6)};
  ASSERT_TRUE(t.Submit(step).ok());
  EXPECT_TRUE(t.state().windows.empty());
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{5, 6}));
}

// 001 l.235 "The target is unable to take any other actions while pinned"
// with l.124 "You may also take an action when it is not your turn if your
// initiative is higher": a pinned aria (18) above the orc (17) may act first
// only to Escape (l.217, 4 AP), so the orc's Defend waits for her only
// while she has 4 AP: with 3 no window opens (was: a window only her pass
// could close); with 4 she escapes in it (d20 15 against the GM's TN 12).
TEST(Grapple, APinnedCreatureActsFirstOnlyWithTheApToEscape) {
  Table t(WoundSlots(), Roster({Aria(5, 5), Orc()}), {10, 12});
  ASSERT_EQ(Init(t.state(), "aria"), 18);
  ASSERT_TRUE(t.Submit(GmAdds("aria", "Pinned", "a collapsed beam pins her")).ok());
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.state().IsTurnOf("orc"));
  auto set_ap = [&](int64_t v) {
    fb::CommandT set = Cmd("aria", "gm_set");
    set.author = "gm";
    set.role = fb::Role::GM;
    set.text = "test set-up";
    WithText(set, "resource", "ap");
    With(set, "value", v);
    ASSERT_TRUE(t.Submit(set).ok());
  };
  set_ap(3);
  ASSERT_TRUE(t.Submit(Cmd("orc", "defend")).ok());
  EXPECT_TRUE(t.state().windows.empty());
  EXPECT_TRUE(t.state().Find("orc")->Has("Defending"));
  set_ap(4);
  ASSERT_TRUE(t.Submit(Cmd("orc", "seize_initiative")).ok());
  ASSERT_EQ(t.state().windows.size(), 1u);
  EXPECT_FALSE(t.Submit(Answer(t, "aria", "defend", "aria")).ok());
  fb::CommandT escape = Answer(t, "aria", "escape", "aria");
  escape.targets.clear();
  With(escape, "tn", 12);
  auto ev = t.Submit(escape, {15});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_FALSE(t.state().Find("aria")->Has("Pinned"));
  EXPECT_EQ(Ap(t.state(), "aria"), 0);
  EXPECT_EQ(Init(t.state(), "aria"), 16);
}

// 001 l.185 "leave them conscious but helpless for 2 rounds" with l.235
// "helpless and immobile until it succeeds on an Escape attempt" and l.124
// "You may also take an action when it is not your turn if your initiative
// is higher": one helpless and grappled may act first to Escape, as one
// pinned may (was: a helpless creature was out of every window though it
// may Escape on its turn). Aria (18) grapples the orc, then is made
// helpless; on the orc's turn its Defend waits for her (4 AP, 18 > 17).
// Her escape out of turn costs 2 initiative and the Defend does not take
// place (l.124); once free of the grapple,
// helpless with nothing to escape, she gets no window.
TEST(Grapple, AHelplessGrappledCreatureActsFirstOnlyToEscape) {
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  ASSERT_EQ(Init(t.state(), "aria"), 18);
  ASSERT_TRUE(t.Submit(Cmd("aria", "grapple", {"orc"}), {3}).ok());
  ASSERT_NE(t.state().Find("aria")->FindRelative("Grappling", "orc"), nullptr);
  ASSERT_TRUE(t.Submit(GmAdds("aria", "Helpless", "a nonlethal blow by a GM's ruling")).ok());
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.state().IsTurnOf("orc"));
  ASSERT_GE(Ap(t.state(), "aria"), 4);
  ASSERT_TRUE(t.Submit(Cmd("orc", "defend")).ok());
  ASSERT_EQ(t.state().windows.size(), 1u);
  EXPECT_FALSE(t.Submit(Answer(t, "aria", "defend", "aria")).ok());
  fb::CommandT escape = Answer(t, "aria", "escape", "aria");
  escape.targets.clear();
  auto ev = t.Submit(escape, {19});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(t.state().Find("aria")->FindRelative("Grappling", "orc"), nullptr);
  EXPECT_TRUE(t.state().Find("aria")->Has("Helpless"));
  EXPECT_EQ(Init(t.state(), "aria"), 16);
  EXPECT_FALSE(t.state().Find("orc")->Has("Defending"));  // l.124: interrupted
  ASSERT_TRUE(t.Submit(Cmd("orc", "seize_initiative"), {1}).ok());
  EXPECT_TRUE(t.state().windows.empty());
}

// 001 l.204 "Choose an action. Until you take an action or reaction, you
// can take the chosen action as a reaction": readying is itself an action,
// so the orc (17) readying a standard attack, then a quick attack, has the
// quick attack readied, the standard one no longer (was: both kept, the
// first the one taken). Round 2, aria (18) defends: the orc's standard
// attack in the window is acting first, refused at 17 < 18 (l.124); its
// quick attack is a reaction (no -2): d20 11 + 2 = 13 >= aria's melee
// Defense 13 (Defend not yet resolved), 13 + 3 + 4 - 13 - 1 = 6: critical,
// one step less (l.187): severe.
TEST(Ready, ReadyingAgainReplacesTheReadiedAction) {
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  for (const char* act : {"standard_attack", "quick_attack"}) {
    fb::CommandT r = Cmd("orc", "ready");
    WithText(r, "act", act);
    ASSERT_TRUE(t.Submit(r).ok());
    fb::CommandT pass = Cmd("aria", "pass");
    pass.window = t.state().windows.begin()->first;
    ASSERT_TRUE(t.Submit(pass).ok());
  }
  int readied = 0;
  for (const auto& [id, k] : t.state().Find("orc")->conditions) readied += k.name == "Readied" ? 1 : 0;
  EXPECT_EQ(readied, 1);
  EXPECT_EQ(t.state().Find("orc")->FindCondition("Readied")->note, "quick_attack");
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
  ASSERT_TRUE(t.Submit(Cmd("aria", "defend")).ok());
  ASSERT_EQ(t.state().windows.size(), 1u);
  EXPECT_FALSE(t.Submit(Answer(t, "orc", "standard_attack", "aria"), {11}).ok());
  auto ev = t.Submit(Answer(t, "orc", "quick_attack", "aria"), {11});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(Init(t.state(), "orc"), 17);
  EXPECT_EQ(Wounds(t.state(), "aria", kSevere), 1);
  EXPECT_FALSE(t.state().Find("orc")->Has("Readied"));
}

TEST(Ready, ALowerInitiativeReadiedCreatureMayAnswer) {
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.Submit(ReadyAttack("orc")).ok());
  ASSERT_EQ(t.state().windows.size(), 1u);  // aria (18) may act first: she passes
  fb::CommandT pass = Cmd("aria", "pass");
  pass.window = t.state().windows.begin()->first;
  ASSERT_TRUE(t.Submit(pass).ok());
  ASSERT_TRUE(t.state().Find("orc")->Has("Readied"));
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
  // Round 2: aria (18) declares an attack; the orc (17) readied one, a
  // reaction "in response to any event" (l.204): it may answer.
  ASSERT_TRUE(t.Submit(Cmd("aria", "standard_attack", {"orc"})).ok());
  ASSERT_EQ(t.state().windows.size(), 1u);
  EXPECT_EQ(t.state().windows.begin()->second.eligible, (std::vector<std::string>{"orc"}));
  fb::CommandT a = Answer(t, "orc", "standard_attack", "aria");
  // The orc: d20 11 + 2 = 13 >= 13: 13 + 3 + 4 - 13 - 1 = 6, critical; no
  // initiative cost (l.125); aria's attack still resolves: d20 3 + 7 = 10
  // >= 10 (everyone eligible answered): 10 + 5 - 12 = 3, moderate.
  ASSERT_TRUE(t.Submit(a, {11, 3}).ok());
  EXPECT_TRUE(t.state().windows.empty());
  EXPECT_EQ(Init(t.state(), "orc"), 17);
  EXPECT_EQ(Wounds(t.state(), "aria", kCritical), 1);
  EXPECT_FALSE(t.state().Find("orc")->Has("Readied"));
  EXPECT_EQ(Wounds(t.state(), "orc", kModerate), 1);
}

TEST(Mounted, SharedTurnAtTheWorseInitiative) {
  auto horse = Who("horse", "party", 5, 6, {{"spd", 3}, {"size", 6}}, "hooves", "2", "hooves");
  auto rider = Aria();
  AddNumber(*rider.weapons[0], "reach", 1);  // a rider is 1 yd farther from the orc on foot (l.280)
  Table t(WoundSlots(), Roster({std::move(rider), std::move(horse), Orc()}), {10, 5, 12});
  EXPECT_EQ(Init(t.state(), "horse"), 10);
  ASSERT_TRUE(t.Submit(Cmd("aria", "mount", {"horse"})).ok());
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{5, 6}));  // l.220: atop the horse, in its space
  ASSERT_EQ(OrderIds(t.state()), (std::vector<std::string>{"orc", "aria"}));
  EXPECT_EQ(Init(t.state(), "aria"), 10);  // l.280: the worse of 18 and 10
  EXPECT_EQ(t.state().order[1].members, (std::vector<std::string>{"horse"}));
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
  EXPECT_EQ(t.state().round, 2);
  // Speed 3 (l.115-117): 9 at round 1, 9 at the end of the turn it shared
  // from its mounting (l.280, l.110), 9 at round 2: 27 (max 27).
  EXPECT_EQ(Ap(t.state(), "horse"), 27);
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
  EXPECT_TRUE(t.state().IsTurnOf("horse"));
  // +1 against a smaller creature on foot (l.280): d20 2 + 7 + 1 = 10 >= 10.
  ASSERT_TRUE(t.Submit(Cmd("aria", "standard_attack", {"orc"})).ok());  // the orc (17) may act first
  ASSERT_TRUE(t.Submit(Cmd("aria", "resolve"), {2}).ok());
  EXPECT_EQ(Wounds(t.state(), "orc", kModerate), 1);  // 10 + 5 - 12 = 3
  // The mount moves and carries its rider; controlling it costs the rider
  // the same AP (l.280). Horse: Str 0 + Size 6 = 6: rate 9, 2 AP -> 4 yd.
  ASSERT_TRUE(t.Submit(BuyMove("horse", 2)).ok());
  EXPECT_EQ(Ap(t.state(), "aria"), 17 - 4 - 2);
  fb::CommandT walk = Cmd("aria", "move");
  walk.path = {fb::Pos(4, 4)};
  EXPECT_EQ(t.Submit(walk).status().code(), absl::StatusCode::kFailedPrecondition);
  fb::CommandT ride = Cmd("horse", "move");
  ride.path = {fb::Pos(4, 7)};
  ASSERT_TRUE(t.Submit(ride).ok());
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{4, 7}));
  ASSERT_TRUE(t.Submit(Cmd("aria", "dismount")).ok());
  ASSERT_TRUE(t.Submit(Cmd("aria", "resolve")).ok());
  // Reading of l.220 "climb off of the mount": onto the first free square
  // beside the mount's space, row by row from the north-west: (3,6).
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{3, 6}));
  EXPECT_EQ(Init(t.state(), "horse"), 10);
  EXPECT_EQ(t.state().order.size(), 3u);
}

// 001 l.220 "You climb atop a horse", l.280 "While riding a mount": the
// mount's long jump (l.178: a jump is movement) carries its rider as its
// walk does. Round 2, the horse's turn (Str 0 + Size 6: rate 9, l.143)
// jumps from (5,6) to (5,8): 2 yd lacking, 1 AP (2 yd); d20 20 + 0 = 20,
// no run-up: halved, 10 feet = 3 yd (l.177): it lands on (5,8) and aria,
// on its back (in its space), goes from (5,6) to (5,8) with it; she pays
// the 1 AP too.
TEST(Mounted, TheMountsJumpCarriesItsRider) {
  auto horse = Who("horse", "party", 5, 6, {{"spd", 3}, {"size", 6}}, "hooves", "2", "hooves");
  Table t(WoundSlots(), Roster({Aria(), std::move(horse), Orc("orc", 12, 12)}), {10, 5, 12});
  ASSERT_TRUE(t.Submit(Cmd("aria", "mount", {"horse"})).ok());
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
  ASSERT_TRUE(t.state().IsTurnOf("horse"));
  fb::CommandT j = Cmd("horse", "jump");
  j.path = {fb::Pos(5, 7), fb::Pos(5, 8)};
  ASSERT_TRUE(t.Submit(j).ok());  // the orc (17) may act first
  auto jumped = t.Submit(Cmd("horse", "resolve"), {20});
  ASSERT_TRUE(jumped.ok()) << jumped.status();
  EXPECT_EQ(kernel::testing::NumOf(*jumped, "result"), 10);
  EXPECT_EQ(t.state().Find("horse")->at, (Pos{5, 8}));
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{5, 8}));
  EXPECT_TRUE(t.state().Find("aria")->Has("Riding"));
  EXPECT_EQ(Ap(t.state(), "horse"), 27 - 1);  // 9 + 9 (the turn it shared from its mounting) + 9
  // l.280 "Controlling your mount's movement requires spending AP equal to
  // that spent by the mount to move": aria, 7 - 4 (mount) + 7 + 7 = 17,
  // spends the jump's 1 AP too.
  EXPECT_EQ(Ap(t.state(), "aria"), 17 - 1);
}

// 001 l.220 "You climb atop a horse", l.280 "you are considered 1 yard
// farther from creatures on the ground smaller than your mount": the rider
// occupies its mount's space and its reach is measured from there. Aria
// (8,5) mounts the horse (7,5): she is at (7,5). Round 2, her spear (reach
// 1) reaches the orc (6,5) on foot: 0 + 1 = 1 yd between the spaces (l.230)
// (from her own old square it was 1 + 1 = 2: refused). d20 2 + 7 + mounted 1 = 10 >= the orc's
// Defense 10: damage 10 + Str 2 + 3 - 10 - Toughness 2 = 3, moderate
// (l.13). Rider and mount are not "in the same space" of l.216: no -2.
// Dismounting (reading of l.220 "climb off of the mount"): onto the square
// `path` names, free and beside the mount's space; (9,5) is not beside it.
TEST(Mounted, ARiderOccupiesItsMountsSpace) {
  auto horse = Who("horse", "party", 7, 5, {{"spd", 3}, {"size", 6}}, "hooves", "2", "hooves", {{"reach", 0}});
  auto rider = Aria(8, 5);
  AddNumber(*rider.weapons[0], "reach", 1);
  Table t(WoundSlots(), Roster({std::move(rider), std::move(horse), Orc()}), {10, 5, 12});
  ASSERT_TRUE(t.Submit(Cmd("aria", "mount", {"horse"})).ok());
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{7, 5}));
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
  auto decl = t.Submit(Cmd("aria", "standard_attack", {"orc"}));
  ASSERT_TRUE(decl.ok()) << decl.status();
  auto hit = t.Submit(Cmd("aria", "resolve"), {2});  // the orc (17) may act first
  ASSERT_TRUE(hit.ok()) << hit.status();
  EXPECT_EQ(kernel::testing::NumOf(*hit, "mounted"), 1);
  EXPECT_EQ(kernel::testing::NumOf(*hit, "same_space"), -999);
  EXPECT_EQ(Wounds(t.state(), "orc", kModerate), 1);
  fb::CommandT far = Cmd("aria", "dismount");
  far.path = {fb::Pos(9, 5)};
  EXPECT_EQ(t.Submit(far).status().code(), absl::StatusCode::kInvalidArgument);
  fb::CommandT down = Cmd("aria", "dismount");
  down.path = {fb::Pos(8, 6)};
  ASSERT_TRUE(t.Submit(down).ok());
  if (!t.state().windows.empty()) {
    ASSERT_TRUE(t.Submit(Cmd("aria", "resolve")).ok());
  }
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{8, 6}));
  EXPECT_FALSE(t.state().Find("aria")->Has("Riding"));
  // l.108 "Each participant has one turn per round": the horse shared
  // aria's turn of round 2; off her turn's end it has no second one: round
  // 3 begins, aria first: off the mount her own 18 again, not the worse
  // of the two (l.280 "While riding"), before the orc's 17.
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  EXPECT_EQ(t.state().round, 3) << t.state().active;
  EXPECT_TRUE(t.state().IsTurnOf("aria"));
}

// 001 l.220: the rider is atop the mount, in its space; l.245 Shove: "The
// target is forced to move 1 yard ...": a shoved mount carries its rider
// (l.280). Round 2, the orc (17) shoves the horse (7,5) east: Power d20 19
// + Str 3 = 22 >= the horse's higher of Power 10 + 0 + 6 = 16 and Agility
// 10 + 0 - 6 = 4: 1 yd (`yards` 1): horse and aria to (8,5).
TEST(Mounted, AShovedMountCarriesItsRider) {
  auto horse = Who("horse", "party", 7, 5, {{"spd", 3}, {"size", 6}}, "hooves", "2", "hooves", {{"reach", 0}});
  Table t(WoundSlots(), Roster({Aria(7, 4), std::move(horse), Orc()}), {10, 5, 12});
  ASSERT_TRUE(t.Submit(Cmd("aria", "mount", {"horse"})).ok());
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
  ASSERT_TRUE(t.state().IsTurnOf("orc"));
  fb::CommandT shove = Cmd("orc", "hinder", {"horse"});
  WithText(shove, "hindrance", "shove");
  With(shove, "dx", 1);
  With(shove, "dy", 0);
  With(shove, "yards", 1);
  auto ev = t.Submit(shove, {19});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(t.state().Find("horse")->at, (Pos{8, 5}));
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{8, 5}));
  EXPECT_TRUE(t.state().Find("aria")->Has("Riding"));
  // The GM moving the horse moves its rider (l.220, l.280); moving the
  // rider out of the horse's space puts her off it (reading).
  fb::CommandT gm = Cmd("horse", "gm_move");
  gm.author = "gm";
  gm.role = fb::Role::GM;
  gm.text = "the current pushes the horse";
  gm.path = {fb::Pos(9, 5)};
  { auto r = t.Submit(gm); ASSERT_TRUE(r.ok()) << r.status(); }
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{9, 5}));
  EXPECT_TRUE(t.state().Find("aria")->Has("Riding"));
  gm.actor = "aria";
  gm.path = {fb::Pos(9, 6)};
  ASSERT_TRUE(t.Submit(gm).ok());
  EXPECT_FALSE(t.state().Find("aria")->Has("Riding"));
  EXPECT_FALSE(t.state().Find("horse")->Has("Ridden"));
}

// 001 l.95: a target is flanked by creatures "capable of attacking the
// target with their currently equipped weapons"; l.280: a rider is
// "considered 1 yard farther from creatures on the ground smaller than your
// mount". Aria rides the horse (Size 6) at (8,5), in its space (l.220),
// 1 yd from the orc (6,5) on foot (Size 0) between the spaces (l.230's
// count): 1 + 1 = 2 yd, beyond her sword's reach 1: she cannot attack it,
// so bob (5,5), on the orc's other side, does not flank it (nor does the
// horse: its hooves, reach 0, reach no creature 1 yd away).
// bob: d20 5 + Dex 3 + Melee 2 = 10 >= the orc's Defense 10: a hit, no +2;
// damage 10 + 3 - 10 - Toughness 2 = 1: a light wound (l.13). (Counted as
// a flanker, 12 + 3 - 12 = 3 was a moderate one.)
TEST(Mounted, ARiderOutOfReachOfACreatureOnFootDoesNotFlankIt) {
  auto horse = Who("horse", "party", 8, 5, {{"spd", 3}, {"size", 6}}, "hooves", "2", "hooves", {{"reach", 0}});
  auto bob = Who("bob", "party", 5, 5, {{"dex", 3}, {"melee", 2}}, "sword", "3", "sword");
  auto rider = Aria(7, 4);
  Table t(WoundSlots(), Roster({std::move(rider), std::move(horse), Orc(), std::move(bob)}), {10, 1, 5, 12});
  ASSERT_TRUE(t.Submit(Cmd("aria", "mount", {"horse"})).ok());
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
  ASSERT_TRUE(t.state().IsTurnOf("bob"));
  ASSERT_TRUE(t.Submit(Cmd("bob", "standard_attack", {"orc"})).ok());
  auto hit = t.Submit(Cmd("bob", "resolve"), {5});
  ASSERT_TRUE(hit.ok()) << hit.status();
  EXPECT_EQ(kernel::testing::NumOf(*hit, "flanked"), -999);
  EXPECT_EQ(Wounds(t.state(), "orc", kLight), 1);
  EXPECT_EQ(Wounds(t.state(), "orc", kModerate), 0);
}

// 001 l.189 Rebuff's trigger, "A creature you can see attempts to approach
// closer than your weapon's optimal reach", and l.280 "you are considered 1
// yard farther from creatures on the ground smaller than your mount": aria
// rides the horse (Size 6), in its space (4,5) (l.220); the orc (Size 0,
// rate 9) walks from (8,5) to (5,5), beside that space: 0 + 1 = 1 yd (l.230's count),
// not closer than her sword's reach 1: no Rebuff window opens, the orc
// walks on (the horse's hooves reach 0: it rebuffs nobody).
TEST(Mounted, ACreatureOnFootNextToARiderIsNotWithinItsReach) {
  auto horse = Who("horse", "party", 4, 5, {{"spd", 3}, {"size", 6}}, "hooves", "2", "hooves", {{"reach", 0}});
  Table t(WoundSlots(), Roster({Aria(), std::move(horse), Orc("orc", 8, 5)}), {10, 5, 12});
  ASSERT_TRUE(t.Submit(Cmd("aria", "mount", {"horse"})).ok());
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.state().IsTurnOf("orc"));
  ASSERT_TRUE(t.Submit(BuyMove("orc", 4)).ok());
  fb::CommandT walk = Cmd("orc", "move");
  walk.path = {fb::Pos(7, 5), fb::Pos(6, 5), fb::Pos(5, 5)};
  auto moved = t.Submit(walk);
  ASSERT_TRUE(moved.ok()) << moved.status();
  EXPECT_TRUE(t.state().windows.empty());
  EXPECT_EQ(t.state().Find("orc")->at, (Pos{5, 5}));
}

// 001 l.240 Hinder: "You must be within melee reach of your opponent to
// use this action"; l.280: a rider is "considered 1 yard farther from
// creatures on the ground smaller than your mount". Aria, on the horse
// (Size 6), is beside the orc on foot (Size 0): 0 + 1 = 1 yd (l.230's
// count), beyond her sword's reach 0: her Trip is refused.
// 001 l.280 "You gain a +1 bonus to melee defense and melee attack rolls
// against any opponents of a size smaller than your mount"; l.70 "Combat
// checks function the same as attack rolls": Disarm's melee weapon check
// (l.243) takes it. aria (reach 1; 0 + 1 = 1 yd, l.230's count and l.280's
// yard) on the horse (Size 6) disarms the orc on foot (Size 0): Dex 3 + Melee 2 + Sword 1 + accuracy 1 + mounted 1 = 8;
// d20 3 + 8 = 11 >= its Agility defense 10 + 1 = 11: the orc drops its axe
// (was: 10, a miss).
TEST(Mounted, ARidersDisarmTakesThePlusOne) {
  auto horse = Who("horse", "party", 5, 6, {{"spd", 3}, {"size", 6}}, "hooves", "2", "hooves");
  auto rider = Aria(5, 5, {{"ap/mount", 1}});
  AddNumber(*rider.weapons[0], "reach", 1);
  Table t(WoundSlots(), Roster({std::move(rider), std::move(horse), Orc()}), {10, 5, 12});
  ASSERT_TRUE(t.Submit(Cmd("aria", "mount", {"horse"})).ok());
  fb::CommandT disarm = Cmd("aria", "hinder", {"orc"});
  WithText(disarm, "hindrance", "disarm");
  auto ev = t.Submit(disarm);
  ASSERT_TRUE(ev.ok()) << ev.status();
  if (!t.state().windows.empty()) ev = t.Submit(Cmd("aria", "resolve"), {3});  // the orc (17) may act first
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_TRUE(t.state().Find("orc")->Has("Disarmed"));
}

TEST(Mounted, ARiderCannotHinderACreatureOnFootBeyondItsReach) {
  auto horse = Who("horse", "party", 5, 6, {{"spd", 3}, {"size", 6}}, "hooves", "2", "hooves");
  auto rider = Aria(5, 5, {{"ap/mount", 1}});
  AddNumber(*rider.weapons[0], "reach", 0);
  Table t(WoundSlots(), Roster({std::move(rider), std::move(horse), Orc()}), {10, 5, 12});
  ASSERT_TRUE(t.Submit(Cmd("aria", "mount", {"horse"})).ok());
  fb::CommandT trip = Cmd("aria", "hinder", {"orc"});
  WithText(trip, "hindrance", "trip");
  auto tried = t.Submit(trip);
  EXPECT_EQ(tried.status().code(), absl::StatusCode::kFailedPrecondition) << tried.status();
  EXPECT_TRUE(t.state().windows.empty());
}

// 001 l.201 Harry's trigger: "A creature within reach of your melee weapon
// attempts to make a ranged weapon attack"; l.280: a rider is "considered 1
// yard farther from creatures on the ground smaller than your mount". The
// archer on foot (Size 0) shoots bob from beside aria's square, the
// horse's (4,5) (l.220); aria, on the horse (Size 6), is 0 + 1 = 1 yd from
// it (l.230's count), beyond her sword's reach 0: she may not harry it
// (nobody has a higher initiative than the archer's 17). The horse, its
// hooves' reach 0 reaching the archer beside it (0 yd, no yard added),
// may: the window is the horse's alone.
TEST(Mounted, ACreatureOnFootNextToARiderIsNotHarried) {
  auto horse = Who("horse", "party", 4, 5, {{"spd", 3}, {"size", 6}}, "hooves", "2", "hooves", {{"reach", 0}});
  auto archer = Who("archer", "orcs", 5, 5, {{"dex", 2}, {"aim", 2}}, "bow", "3", "bow", {}, {"standard"}, "ranged");
  auto bob = Who("bob", "party", 10, 5, {{"dex", 3}, {"melee", 2}}, "sword", "3", "sword");
  auto rider = Aria(4, 4);
  AddNumber(*rider.weapons[0], "reach", 0);
  Table t(WoundSlots(), Roster({std::move(rider), std::move(horse), std::move(archer), std::move(bob)}), {10, 12, 1, 5});
  ASSERT_TRUE(t.Submit(Cmd("aria", "mount", {"horse"})).ok());
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.state().IsTurnOf("archer"));
  auto shot = t.Submit(Cmd("archer", "standard_attack", {"bob"}));
  ASSERT_TRUE(shot.ok()) << shot.status();
  ASSERT_EQ(t.state().windows.size(), 1u);
  EXPECT_EQ(t.state().windows.begin()->second.eligible, (std::vector<std::string>{"horse"}));
}

TEST(Mounted, TheRidersExtraYardIsNamedWhenItPutsTheTargetOutOfReach) {
  // 001 l.280: a rider is "considered 1 yard farther from creatures on the
  // ground smaller than your mount": aria's sword (reach 0) on a horse
  // (Size 6) does not reach the orc on foot beside it (0 + 1 > 0); the
  // refusal names the mounted rule and the yard, not only the distance.
  auto horse = Who("horse", "party", 5, 6, {{"size", 6}}, "hooves", "2", "hooves");
  auto rider = Aria();
  AddNumber(*rider.weapons[0], "reach", 0);
  Table t(WoundSlots(), Roster({std::move(rider), std::move(horse), Orc()}), {10, 5, 12});
  ASSERT_TRUE(t.Submit(Cmd("aria", "mount", {"horse"})).ok());
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
  auto far = t.Submit(Cmd("aria", "standard_attack", {"orc"}));
  EXPECT_EQ(far.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(far.status().message().find("1 yd farther"), std::string::npos) << far.status();
  EXPECT_NE(far.status().message().find("l.280"), std::string::npos) << far.status();
}

// aria mounts the horse; in their shared turn the horse buys 2 AP of
// movement and walks (6,6)..(9,6), toward the orc at (10,6): the walk's
// events (l.220, l.280).
absl::StatusOr<std::vector<events::EventBuffer>> MountedWalkTowardTheOrc(Table& t) {
  for (const fb::CommandT& c : {Cmd("aria", "mount", {"horse"}), Cmd("aria", "end_turn"), Cmd("orc", "end_turn")}) {
    RETURN_IF_ERROR(t.Submit(c).status());
  }
  if (!t.state().IsTurnOf("horse")) return absl::FailedPreconditionError("not the horse's turn");
  RETURN_IF_ERROR(t.Submit(BuyMove("horse", 2)).status());
  fb::CommandT walk = Cmd("horse", "move");
  walk.path = {fb::Pos(6, 6), fb::Pos(7, 6), fb::Pos(8, 6), fb::Pos(9, 6)};
  return t.Submit(walk);
}

// 001 l.281: an untrained mount's rider checks "each time ... you come into
// reach of an enemy's melee weapon"; l.280: "you are considered 1 yard
// farther from creatures on the ground smaller than your mount". The
// untrained horse (Size 6, rate 9: 2 AP, 4 yd, aria paying the same)
// walks from (5,6) to (9,6), beside the orc (Size 0) on foot: aria is 0 +
// 1 = 1 yd from it (l.230's count), beyond its axe's reach 0: no riding
// check.
TEST(Mounted, ARiderIsNotInReachOfASmallerCreatureOnFootOneYardFromItsMount) {
  auto horse = Who("horse", "party", 5, 6, {{"size", 6}}, "hooves", "2", "hooves", {}, {"untrained"});
  auto orc = Orc("orc", 10, 6);
  AddNumber(*orc.weapons[0], "reach", 0);
  Table t(WoundSlots(), Roster({Aria(5, 5, {{"ap/mount", 1}}), std::move(horse), std::move(orc)}), {15, 10, 1});
  auto moved = MountedWalkTowardTheOrc(t);
  ASSERT_TRUE(moved.ok()) << moved.status();
  EXPECT_FALSE(kernel::testing::Cites(*moved, "001.mount.untrained"));
  if (!t.state().windows.empty()) {  // the orc may rebuff the horse (l.189): it passes
    fb::CommandT pass = Cmd("orc", "pass");
    pass.window = t.state().windows.begin()->first;
    auto passed = t.Submit(pass);
    ASSERT_TRUE(passed.ok()) << passed.status();
    EXPECT_FALSE(kernel::testing::Cites(*passed, "001.mount.untrained"));
  }
  EXPECT_EQ(t.state().Find("horse")->at, (Pos{9, 6}));
  EXPECT_FALSE(t.state().Find("aria")->Has("Uncontrolled"));
}

// 001 l.281 "each time ... you come into reach of an enemy's melee weapon",
// the reach counted as l.230 counts it (adjacent 0): as above, but the
// orc's axe has the default reach 1: the horse walking up beside it brings
// aria to 0 + 1 = 1 yd (l.280's yard), within 1: Prs [Nature/Riding] d20 3
// + 0 = 3 < TN 5: she loses control (was: 1 + 1 = 2 yd, adjacent counted
// 1, beyond reach 1: no check).
TEST(Mounted, ARiderOneYardFromAnEnemysReachOneComesIntoIt) {
  auto horse = Who("horse", "party", 5, 6, {{"size", 6}}, "hooves", "2", "hooves", {}, {"untrained"});
  Table t(WoundSlots(), Roster({Aria(5, 5, {{"ap/mount", 1}}), std::move(horse), Orc("orc", 10, 6)}), {15, 10, 1});
  auto moved = MountedWalkTowardTheOrc(t);
  ASSERT_TRUE(moved.ok()) << moved.status();
  // The step beside the orc comes closer than its axe's reach 1: the walk
  // waits at (8,6) for its Rebuff (l.189); it passes, and the step is made.
  ASSERT_EQ(t.state().windows.size(), 1u);
  fb::CommandT pass = Cmd("orc", "pass");
  pass.window = t.state().windows.begin()->first;
  moved = t.Submit(pass, {3});
  ASSERT_TRUE(moved.ok()) << moved.status();
  EXPECT_TRUE(kernel::testing::Cites(*moved, "001.mount.untrained"));
  EXPECT_TRUE(t.state().Find("aria")->Has("Uncontrolled"));
}

// Aria rides the untrained horse (Size 6; hooves reach 0) at (5,6); on its
// turn the orc on foot (Size 0, spear reach 1, rate 9) at (9,6) buys 4 AP
// of movement (9 yd) and walks `path`, `yards` long; the riding check's
// d20 is 3 (Prs [Nature/Riding] 3 + 0 < TN 5, l.281): she loses control.
void ExpectTheOrcsWalkCostsTheRiderHerHorse(const std::vector<fb::Pos>& path, int64_t yards) {
  auto horse = Who("horse", "party", 5, 6, {{"size", 6}}, "hooves", "2", "hooves", {{"reach", 0}}, {"untrained"});
  auto orc = Orc("orc", 9, 6);
  AddNumber(*orc.weapons[0], "reach", 1);
  Table t(WoundSlots(), Roster({Aria(5, 5, {{"ap/mount", 1}}), std::move(horse), std::move(orc)}), {15, 10, 1});
  ASSERT_TRUE(t.Submit(Cmd("aria", "mount", {"horse"})).ok());
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.state().IsTurnOf("orc"));
  ASSERT_TRUE(t.Submit(BuyMove("orc", 4)).ok());
  fb::CommandT walk = Cmd("orc", "move");
  walk.path = path;
  auto moved = t.Submit(walk, {3});
  ASSERT_TRUE(moved.ok()) << moved.status();
  EXPECT_TRUE(kernel::testing::Cites(*moved, "001.mount.untrained"));
  EXPECT_EQ(t.state().Find("orc")->at, (Pos{path.back().x(), path.back().y()}));
  EXPECT_EQ(t.state().Find("orc")->Resource(res::kMovePool), 9 - yards);
  EXPECT_TRUE(t.state().Find("aria")->Has("Uncontrolled"));
}

// 001 l.281: an untrained mount's rider checks "each time ... you come
// into reach of an enemy's melee weapon": an enemy walking up to the rider
// brings it into reach as much as the mount walking up to the enemy. Aria
// rides the untrained horse (Size 6; hooves reach 0) at (5,6); the orc on
// foot (Size 0, spear reach 1, rate 9: 4 AP, 9 yd) walks from (9,6) to
// (6,6): yards between the spaces (l.230's count) and l.280's yard, 3 + 1
// = 4 from her before, 1 + 1 = 2 at (7,6), 0 + 1 = 1 after: within 1. Prs [Nature/Riding]: d20 3 + 0 = 3 < TN 5: she loses control.
TEST(Mounted, AnEnemyWalkingUpToAnUntrainedMountsRiderCallsForTheCheck) {
  ExpectTheOrcsWalkCostsTheRiderHerHorse({fb::Pos(8, 6), fb::Pos(7, 6), fb::Pos(6, 6)}, 3);
}

// 001 l.281 "you come into reach of an enemy's melee weapon"; l.178 a
// jump is movement. Round 2, the untrained horse (Size 6, rate 9; hooves
// reach 0) jumps from (5,6) to (7,6): 2 yd lacking, 1 AP; d20 20, no
// run-up: halved, 10 feet = 3 yd (l.177). Aria, on its back, was 2 + 1 =
// 3 yd from the orc (8,6) on foot (spear reach 1; Rebuff too dear for it),
// now 0 + 1 = 1 (l.230's count, l.280's yard): within reach. Prs [Nature/Riding] d20 3 + 0 < TN
// 5: she loses control.
TEST(Mounted, AnUntrainedMountsJumpIntoAnEnemysReachCallsForTheCheck) {
  auto horse = Who("horse", "party", 5, 6, {{"spd", 3}, {"size", 6}}, "hooves", "2", "hooves", {{"reach", 0}}, {"untrained"});
  auto orc = Orc("orc", 8, 6, {{"ap/rebuff", 99}});
  AddNumber(*orc.weapons[0], "reach", 1);
  Table t(WoundSlots(), Roster({Aria(), std::move(horse), std::move(orc)}), {10, 5, 12});
  ASSERT_TRUE(t.Submit(Cmd("aria", "mount", {"horse"})).ok());
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
  ASSERT_TRUE(t.state().IsTurnOf("horse"));
  fb::CommandT j = Cmd("horse", "jump");
  j.path = {fb::Pos(6, 6), fb::Pos(7, 6)};
  ASSERT_TRUE(t.Submit(j).ok());  // the orc (17) may act first
  auto jumped = t.Submit(Cmd("horse", "resolve"), {20, 3});
  ASSERT_TRUE(jumped.ok()) << jumped.status();
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{7, 6}));
  EXPECT_TRUE(kernel::testing::Cites(*jumped, "001.mount.untrained"));
  EXPECT_TRUE(t.state().Find("aria")->Has("Uncontrolled"));
}

TEST(Mounted, UntrainedMountCalmingIsConsecutive) {
  auto horse = Who("horse", "party", 5, 6, {{"size", 6}}, "hooves", "2", "hooves", {}, {"untrained"});
  Table t(WoundSlots(),
          Roster({Aria(5, 5, {{"ap/mount", 1}, {"ap/regain_control", 1}}), std::move(horse), Orc("orc", 15, 15)}),
          {15, 10, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto m = t.Submit(Cmd("aria", "mount", {"horse"}));
  ASSERT_TRUE(m.ok()) << m.status();
  fb::CommandT lose = Cmd("aria", "gm_condition");
  lose.author = "gm";
  lose.role = fb::Role::GM;
  lose.text = "the horse bolts";
  WithText(lose, "name", "Uncontrolled");
  WithText(lose, "op", "add");
  WithText(lose, "relative_to", "horse");
  ASSERT_TRUE(t.Submit(lose).ok());
  // l.281: Prs 0 + d20 1 < TN 5; then +1 for the consecutive try: 3 + 1 < 5.
  ASSERT_TRUE(t.Submit(Cmd("aria", "regain_control"), {1}).ok());
  ASSERT_TRUE(t.Submit(Cmd("aria", "regain_control"), {3}).ok());
  EXPECT_EQ(t.state().Find("aria")->FindCondition("Uncontrolled")->level, 2);
  // Another action breaks the run: d20 4 + 0 < 5 (it would be 4 + 2).
  fb::CommandT door = Cmd("aria", "use_object");
  WithText(door, "object", "door");
  ASSERT_TRUE(t.Submit(door).ok());
  ASSERT_TRUE(t.Submit(Cmd("aria", "regain_control"), {4}).ok());
  EXPECT_TRUE(t.state().Find("aria")->Has("Uncontrolled"));
  // d20 4 + 1 = 5 >= 5: back in control.
  ASSERT_TRUE(t.Submit(Cmd("aria", "regain_control"), {4}).ok());
  EXPECT_FALSE(t.state().Find("aria")->Has("Uncontrolled"));
}

TEST(EnterSpace, ThePenaltyEndsWhenTheSpaceIsNoLongerShared) {
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  // l.216: the better of Power 4 and Agility 4 + d20 10 = 14 >= the orc's
  // higher of Power 13 and Agility 11.
  ASSERT_TRUE(EnterPassed(t, "aria", "orc", 10).ok());
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{6, 5}));
  EXPECT_TRUE(t.state().Find("aria")->Has("SharingSpace"));
  EXPECT_TRUE(t.state().Find("orc")->Has("SharingSpace"));
  fb::CommandT buy = Cmd("aria", "buy_move");
  With(buy, "ap", 1);
  ASSERT_TRUE(t.Submit(buy).ok());  // rate 9, 1 AP: 2 yd
  fb::CommandT out = Cmd("aria", "move");
  out.path = {fb::Pos(5, 5)};
  ASSERT_TRUE(t.Submit(out).ok());
  // "While you are in the same space" (l.216): no longer.
  EXPECT_FALSE(t.state().Find("aria")->Has("SharingSpace"));
  EXPECT_FALSE(t.state().Find("orc")->Has("SharingSpace"));
}

// 001 l.189 Rebuff's trigger, "A creature you can see attempts to approach
// closer than your weapon's optimal reach", l.190 "before it moves", and
// l.216 "You attempt to enter a space occupied by another creature": aria
// (5,5), beside the orc (6,5) and its axe (reach 1), tries to come into its
// very space, 0 yd from it: the entry waits for the orc's Rebuff (was: she
// entered at once, no window). The Rebuff, d20 5 + Dex 1 + Melee 1 = 7 <
// aria's melee Defense 13, misses; the orc pays its 2 AP (6 - 2 = 4) and no
// initiative (l.125: 17). Then her check, the better of Power 4 / Agility
// 4 + d20 10 = 14 >= the orc's higher defense 13: she enters.
TEST(EnterSpace, EnteringTheSpaceWaitsForTheTargetsRebuff) {
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  auto declared = t.Submit(Cmd("aria", "enter_space", {"orc"}));
  ASSERT_TRUE(declared.ok()) << declared.status();
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{5, 5}));
  ASSERT_EQ(t.state().windows.size(), 1u);
  EXPECT_EQ(t.state().windows.begin()->second.eligible, (std::vector<std::string>{"orc"}));
  EXPECT_TRUE(kernel::testing::Cites(*declared, "001.act.rebuff"));
  fb::CommandT rb = Answer(t, "orc", "rebuff", "aria");
  auto r = t.Submit(rb, {5, 10});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Ap(t.state(), "orc"), 4);
  EXPECT_EQ(Init(t.state(), "orc"), 17);
  EXPECT_TRUE(t.state().windows.empty());
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{6, 5}));
  EXPECT_TRUE(t.state().Find("aria")->Has("SharingSpace"));
}

// 001 l.189 Rebuff's trigger, "A creature you can see attempts to approach
// closer than your weapon's optimal reach": it is the rebuffer's own. orc2
// (3,5), initiative 16 + 5 = 21 above aria's 18, may act first in the
// window of her entry into the orc's space (6,5) (l.124), but the entry
// takes her from 2 yd to 3 yd of it: no approach, no Rebuff (was: it
// rebuffed her, 2 yd being within its axe's reach + the one step of
// "before it moves"). The orc, whose space she enters, still may.
TEST(EnterSpace, OnlyThoseTheEntryApproachesMayRebuffIt) {
  Table t(WoundSlots(), Roster({Aria(), Orc(), Orc("orc2", 3, 5)}), {10, 12, 16});
  ASSERT_EQ(t.state().active, "orc2");
  ASSERT_TRUE(t.Submit(Cmd("orc2", "end_turn")).ok());
  ASSERT_EQ(t.state().active, "aria");
  ASSERT_TRUE(t.Submit(Cmd("aria", "enter_space", {"orc"})).ok());
  ASSERT_EQ(t.state().windows.size(), 1u);
  const auto& eligible = t.state().windows.begin()->second.eligible;
  EXPECT_NE(std::find(eligible.begin(), eligible.end(), "orc2"), eligible.end());
  const int64_t ap = Ap(t.state(), "orc2");
  fb::CommandT rb = Answer(t, "orc2", "rebuff", "aria");
  auto r = t.Submit(rb, {15});
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition) << r.status();
  EXPECT_NE(r.status().message().find("l.189"), std::string::npos) << r.status();
  EXPECT_EQ(Ap(t.state(), "orc2"), ap);
  EXPECT_EQ(Init(t.state(), "orc2"), 21);
  fb::CommandT orb = Answer(t, "orc", "rebuff", "aria");
  EXPECT_TRUE(t.Submit(orb, {5}).ok());
  EXPECT_EQ(Ap(t.state(), "orc"), 4);
}

TEST(EnterSpace, SharingASpaceLowersCombatChecksToo) {
  // 001 l.216: "While you are in the same space, both you and the target
  // take a -2 penalty to all attacks and melee and ranged defenses"; l.70:
  // "Combat checks function the same as attack rolls" (as Distract's -2,
  // l.244, applies to them). aria enters the orc's space (d20 10: the
  // better of Power 4 / Agility 4 + 10 = 14 >= 13), then trips it: Power
  // Str 2 + Athletics 2 - 2 (same space) + d20 10 = 12 < the orc's higher
  // of Power 13 / Agility 11 (not a melee or ranged defense: no -2): no
  // trip (14 >= 13 without the -2).
  Table t(WoundSlots(), Roster({Aria(5, 5, {{"ap/hinder", 1}}), Orc()}), {10, 12});
  ASSERT_TRUE(EnterPassed(t, "aria", "orc", 10).ok());
  ASSERT_TRUE(t.state().Find("aria")->Has("SharingSpace"));
  fb::CommandT trip = Cmd("aria", "hinder", {"orc"});
  WithText(trip, "hindrance", "trip");
  auto ev = t.Submit(trip, {10});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(kernel::testing::NumOf(*ev, "same_space"), -2);
  EXPECT_EQ(kernel::testing::NumOf(*ev, "result"), 12);
  EXPECT_FALSE(t.state().Find("orc")->Has("Prone"));
}

// 001 l.99 "If an effect immobilizes you, you replace your melee, ranged,
// and Agility defenses with your immobile defense" and l.216 "both you and
// the target take a -2 penalty to all attacks and melee and ranged
// defenses": the immobile defense that replaces the melee one is the melee
// Defense a melee attack targets (l.99), so the -2 applies to it, as
// Defend's "+2 bonus to your melee and ranged defenses" (l.199) and a
// rider's "+1 bonus to melee defense" (l.280), in the same words, do (was:
// the -2 dropped). aria enters the orc's space (d20 10), the GM makes it
// Immobile; her Standard Attack, d20 2 + 7 - 2 (same space) = 7 >= the
// orc's immobile 5 - 2 = 3; damage 7 + Str 2 + sword 3 = 12 - 3 -
// Toughness 2 = 7: critical (6) (was: 12 - 5 - 2 = 5, severe).
TEST(EnterSpace, SharingASpaceLowersTheImmobileDefenseThatReplacesMelee) {
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  ASSERT_TRUE(EnterPassed(t, "aria", "orc", 10).ok());
  ASSERT_TRUE(t.Submit(GmAdds("orc", "Immobile", "a net")).ok());
  auto ev = t.Submit(Cmd("aria", "standard_attack", {"orc"}), {2});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(kernel::testing::NumOf(*ev, "target_same_space"), -2);
  EXPECT_EQ(Wounds(t.state(), "orc", 4), 1);
  EXPECT_EQ(Wounds(t.state(), "orc", 3), 0);
}

TEST(Mana, InvestAndEnd) {
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  fb::CommandT cast = Cmd("aria", "cast_spell");
  With(cast, "invest", 3);
  With(cast, "rounds", 2);
  ASSERT_TRUE(t.Submit(cast).ok());
  EXPECT_EQ(t.state().Find("aria")->Resource(res::kMana), 1);
  EXPECT_EQ(MaxMana(*t.state().Find("aria")), 1);  // l.42: current and maximum
  const Condition* spell = t.state().Find("aria")->FindCondition("Spell");
  ASSERT_NE(spell, nullptr);
  EXPECT_EQ(spell->expiry.round, 2);  // l.127: 2 rounds cast in round 1 end with round 2
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_effect")).ok());
  EXPECT_EQ(t.state().Find("aria")->Resource(res::kMana), 4);
  EXPECT_EQ(MaxMana(*t.state().Find("aria")), 4);
}

TEST(Mana, EndAMagicalEffectNamesWhichOne) {
  // 001 l.238 "If the item has multiple effects active, each one must be
  // ended individually": aria (mana 3 + Lor 1 = 4) invests 1 in "ward"
  // then 2 in "light" on herself (1 left); ending "light" by name returns
  // its 2 (3 mana) and leaves "ward"; a name she controls no effect of is
  // refused naming the ones there are, nothing written (Cast a Spell at 1
  // AP by roster, so both are cast on her 7 AP).
  Table t(WoundSlots(), Roster({Aria(5, 5, {{"ap/cast_spell", 1}}), Orc()}), {10, 12});
  for (const auto& [name, mana] : std::vector<std::pair<std::string, int64_t>>{{"ward", 1}, {"light", 2}}) {
    fb::CommandT cast = Cmd("aria", "cast_spell");
    cast.text = name;
    With(cast, "invest", mana);
    ASSERT_TRUE(t.Submit(cast).ok());
  }
  EXPECT_EQ(t.state().Find("aria")->Resource(res::kMana), 1);
  fb::CommandT wrong = Cmd("aria", "end_effect");
  WithText(wrong, "effect", "haste");
  const size_t before = t.log().size();
  auto refused = t.Submit(wrong);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(refused.status().message().find("ward, light"), std::string::npos) << refused.status();
  EXPECT_EQ(t.log().size(), before);
  fb::CommandT end = Cmd("aria", "end_effect");
  WithText(end, "effect", "light");
  ASSERT_TRUE(t.Submit(end).ok());
  EXPECT_EQ(t.state().Find("aria")->Resource(res::kMana), 3);
  EXPECT_EQ(t.state().Find("aria")->Resource(res::kInvested), 1);
  const Condition* left = t.state().Find("aria")->FindCondition("Spell");
  ASSERT_NE(left, nullptr);
  EXPECT_EQ(left->note, "ward");
}

TEST(Mana, RetrievedAtALongRestItsEffectEnds) {
  // 001 l.42: invested mana is "tied up in a particular effect" until
  // retrieved, "at your option at the end of a long rest". aria (mana 3 +
  // Lor 1 = 4) invests 3 (1/1 left); she rests and retrieves it: 4/4, and
  // the effect holding it is over: ending it now would hand the 3 back a
  // second time (7/7, invested -3).
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  fb::CommandT cast = Cmd("aria", "cast_spell");
  With(cast, "invest", 3);
  ASSERT_TRUE(t.Submit(cast).ok());
  EXPECT_EQ(MaxMana(*t.state().Find("aria")), 1);
  fb::CommandT rest = Cmd("aria", "long_rest");
  With(rest, "day", 1);
  With(rest, "retrieve", 1);
  ASSERT_TRUE(t.Submit(rest).ok());
  EXPECT_FALSE(t.state().Find("aria")->Has("Spell"));
  EXPECT_EQ(t.state().Find("aria")->Resource(res::kInvested), 0);
  EXPECT_EQ(t.state().Find("aria")->Resource(res::kMana), 4);
  EXPECT_EQ(MaxMana(*t.state().Find("aria")), 4);
  auto none = t.Submit(Cmd("aria", "end_effect"));
  EXPECT_EQ(none.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(none.status().message().find("l.238"), std::string::npos) << none.status();  // End a Magical Effect
  EXPECT_EQ(t.state().Find("aria")->Resource(res::kMana), 4);
}

TEST(Mana, ReturnedWhenTheEffectExpires) {
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  fb::CommandT cast = Cmd("aria", "cast_spell");
  With(cast, "invest", 2);
  With(cast, "rounds", 1);
  ASSERT_TRUE(t.Submit(cast).ok());
  EXPECT_EQ(t.state().Find("aria")->Resource(res::kMana), 2);
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
  // l.127: a 1-round effect ends with round 1; l.42: the mana comes back.
  EXPECT_FALSE(t.state().Find("aria")->Has("Spell"));
  EXPECT_EQ(t.state().Find("aria")->Resource(res::kMana), 4);
  EXPECT_EQ(t.state().Find("aria")->Resource(res::kInvested), 0);
}

TEST(Costs, ObjectsAndContainers) {
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  fb::CommandT potion = Cmd("aria", "use_object");
  WithText(potion, "object", "potion");
  ASSERT_TRUE(t.Submit(potion).ok());
  EXPECT_EQ(Ap(t.state(), "aria"), 3);  // l.267: 4
  fb::CommandT pouch = Cmd("aria", "retrieve");
  WithText(pouch, "container", "pouch");
  ASSERT_TRUE(t.Submit(pouch).ok());
  EXPECT_EQ(Ap(t.state(), "aria"), 0);  // l.208: 3
  fb::CommandT bad = Cmd("aria", "retrieve");
  WithText(bad, "container", "hat");
  EXPECT_EQ(t.Submit(bad).status().code(), absl::StatusCode::kInvalidArgument);
}

// 001 l.207 "Scabbard or normal pocket: 1", l.209 "Sack or backpack: 6",
// l.265 "Open or close a door: 2", l.266 "Light a torch ...: 2", l.269
// "Start a fire with flint and steel: 8" (more than aria's AP: paid over
// her turns, l.111).
TEST(Costs, TheOtherContainersAndObjects) {
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  fb::CommandT scabbard = Cmd("aria", "retrieve");
  WithText(scabbard, "container", "scabbard");
  ASSERT_TRUE(t.Submit(scabbard).ok());
  EXPECT_EQ(Ap(t.state(), "aria"), 7 - 1);
  fb::CommandT sack = Cmd("aria", "stow");
  WithText(sack, "container", "sack");
  ASSERT_TRUE(t.Submit(sack).ok());
  EXPECT_EQ(Ap(t.state(), "aria"), 0);
  Table u(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  fb::CommandT door = Cmd("aria", "use_object");
  WithText(door, "object", "door");
  ASSERT_TRUE(u.Submit(door).ok());
  EXPECT_EQ(Ap(u.state(), "aria"), 7 - 2);
  fb::CommandT torch = Cmd("aria", "use_object");
  WithText(torch, "object", "torch");
  ASSERT_TRUE(u.Submit(torch).ok());
  EXPECT_EQ(Ap(u.state(), "aria"), 3);
  fb::CommandT fire = Cmd("aria", "use_object");
  WithText(fire, "object", "fire");
  ASSERT_TRUE(u.Submit(fire).ok());
  ASSERT_EQ(u.state().pending.size(), 1u);
  EXPECT_EQ(u.state().pending.begin()->second.cost_due, 8);
  EXPECT_EQ(u.state().pending.begin()->second.cost_paid, 3);
}

TEST(Hinder, TripAndPosture) {
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  fb::CommandT trip = Cmd("aria", "hinder", {"orc"});
  WithText(trip, "hindrance", "trip");
  // Power 4 + d20 10 = 14 >= the orc's higher defense 13: prone (l.246).
  ASSERT_TRUE(t.Submit(trip, {10}).ok());
  EXPECT_TRUE(t.state().Find("orc")->Has("Prone"));
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  fb::CommandT up = Cmd("orc", "change_posture");
  WithText(up, "to", "standing");
  EXPECT_EQ(t.Submit(up).status().code(), absl::StatusCode::kFailedPrecondition);  // l.212
}

// 001 l.240 Hinder: "You must be within melee reach of your opponent",
// the reach counted as l.230 counts it (adjacent 0): the orc (7,5) is 1 yd
// from aria (5,5), within her sword's reach 1; at (8,5), 2 yd, it is not.
// Power 4 + d20 10 = 14 >= the orc's higher defense 13: prone (l.246).
// (Was: 2 yd under adjacent = 1, beyond reach 1: refused.)
TEST(Hinder, WithinMeleeReachOneYardAway) {
  Table t(WoundSlots(), Roster({Aria(), Orc("orc", 7, 5)}), {10, 12});
  fb::CommandT trip = Cmd("aria", "hinder", {"orc"});
  WithText(trip, "hindrance", "trip");
  auto ev = t.Submit(trip, {10});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_TRUE(t.state().Find("orc")->Has("Prone"));
  Table far(WoundSlots(), Roster({Aria(), Orc("orc", 8, 5)}), {10, 12});
  EXPECT_EQ(far.Submit(trip, {10}).status().code(), absl::StatusCode::kFailedPrecondition);
}

// 001 l.244 Distract: "The target has a -2 penalty to attack and
// defense". Distract's own Prs [Deception] check is neither an attack nor a
// combat check (l.70-77), so a distracted creature distracting another
// takes no -2 on it: d20 10 + Prs 0 + Deception 0 = 10 against the orc's
// Prc [Deception] d20 10 + 0 = 10: a tie, the hinderer wins (l.69) and the
// orc is distracted (with the -2, 8 < 10 would fail).
TEST(Hinder, ADistractedDistracterHasNoPenaltyOnItsDeception) {
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  ASSERT_TRUE(t.Submit(Distracted("aria")).ok());
  fb::CommandT distract = Cmd("aria", "hinder", {"orc"});
  WithText(distract, "hindrance", "distract");
  auto ev = t.Submit(distract, {10, 10});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(kernel::testing::NumOf(*ev, "result"), 10);
  EXPECT_EQ(kernel::testing::NumOf(*ev, "tn"), 10);
  EXPECT_TRUE(t.state().Find("orc")->Has("Distracted"));
}

TEST(Hinder, ADisarmedWeaponIsDroppedUntilPickedUp) {
  // 001 l.243 Disarm: "The target drops one item it is holding". aria
  // (hinder at 1 AP): 7 + d20 4 = 11 >= the orc's Agility 11: it drops its
  // axe, its only weapon: its attack is refused until it picks the axe up
  // (Use an Object, l.264: "an object ... within reach", 2 AP at the GM's
  // discretion); then it attacks again.
  Table t(WoundSlots(), Roster({Aria(5, 5, {{"ap/hinder", 1}}), Orc()}), {10, 12});
  fb::CommandT disarm = Cmd("aria", "hinder", {"orc"});
  WithText(disarm, "hindrance", "disarm");
  ASSERT_TRUE(t.Submit(disarm, {4}).ok());
  const Condition* k = t.state().Find("orc")->FindCondition("Disarmed");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->note, "axe");
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  auto swing = t.Submit(Cmd("orc", "standard_attack", {"aria"}));
  EXPECT_EQ(swing.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(swing.status().message().find("dropped its axe"), std::string::npos) << swing.status();
  fb::CommandT pick = Cmd("orc", "use_object");
  WithText(pick, "object", "axe");
  With(pick, "ap", 2);
  ASSERT_TRUE(t.Submit(pick).ok());
  if (!t.state().windows.empty()) {  // aria (18) may act first: she passes
    fb::CommandT pass = Cmd("aria", "pass");
    pass.window = t.state().windows.begin()->first;
    ASSERT_TRUE(t.Submit(pass).ok());
  }
  EXPECT_FALSE(t.state().Find("orc")->Has("Disarmed"));
  EXPECT_EQ(Ap(t.state(), "orc"), 6 - 2);
  EXPECT_TRUE(t.Submit(Cmd("orc", "standard_attack", {"aria"})).ok());
}

TEST(Hinder, DisarmByCheckOrAgilityDefense) {
  Table t(WoundSlots(), Roster({Aria(5, 5, {{"ap/hinder", 1}}), Orc()}), {10, 12});
  // l.243: the defender's melee weapon check is rolled (l.67 "defense
  // rolls"): aria 7 + d20 5 = 12 < the orc's 2 + d20 15 = 17: fails.
  fb::CommandT by_check = Cmd("aria", "hinder", {"orc"});
  WithText(by_check, "hindrance", "disarm");
  WithText(by_check, "defense", "check");
  ASSERT_TRUE(t.Submit(by_check, {5, 15}).ok());
  EXPECT_FALSE(t.state().Find("orc")->Has("Disarmed"));
  // Against the Agility defense 10 + 1 + 0 = 11 (l.104): 7 + d20 4 = 11 >= 11.
  fb::CommandT by_def = Cmd("aria", "hinder", {"orc"});
  WithText(by_def, "hindrance", "disarm");
  ASSERT_TRUE(t.Submit(by_def, {4}).ok());
  EXPECT_TRUE(t.state().Find("orc")->Has("Disarmed"));
  fb::CommandT wrong = Cmd("aria", "hinder", {"orc"});
  WithText(wrong, "hindrance", "distract");
  WithText(wrong, "defense", "power");
  EXPECT_EQ(t.Submit(wrong).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(Underwater, ImmobileDefenseAndCosts) {
  Table t(WoundSlots(), Roster({Aria(5, 5, {}), Orc()}), {10, 12});
  Combatant a = *t.state().Find("aria");
  a.tags.push_back("underwater");
  EXPECT_EQ(Defense(a, Def::kMelee, nullptr), 5);  // l.275: immobile defense
  const Verb* v = FindVerb("standard_attack");
  EXPECT_EQ(CostOf(a, *v, Cmd("aria", "standard_attack", {"orc"})), 6);  // +2 AP
  // "When you make a melee attack": Grapple is one (l.230 "Make a melee
  // attack"), Trip's and Pin's Power checks are not (l.246, l.235, l.74);
  // Disarm's melee weapon check is (UnderwaterDisarmIsAMeleeAttack).
  EXPECT_EQ(CostOf(a, *FindVerb("grapple"), Cmd("aria", "grapple", {"orc"})), 6);
  fb::CommandT trip = Cmd("aria", "hinder", {"orc"});
  WithText(trip, "hindrance", "trip");
  EXPECT_EQ(CostOf(a, *FindVerb("hinder"), trip), 4);
  EXPECT_EQ(CostOf(a, *FindVerb("pin"), Cmd("aria", "pin", {"orc"})), 4);
}

// 001 l.275: "When you make a melee attack, you must pay an extra 2 AP and
// have a -5 penalty to your attack roll"; l.70: "Combat checks function the
// same as attack rolls". Disarm's melee weapon check (l.243, l.71) is the
// melee attack roll's combat check, as for the mounted +1 (l.280,
// `ARidersDisarmTakesThePlusOne`): underwater it costs 4 + 2 = 6 AP and
// takes -5. aria's check: Dex 3 + Melee 2 + Sword 1 + accuracy 1 - 5
// + d20 8 = 10 < the orc's Agility defense 10 + Dex 1 + Reflex 0 - Size 0
// = 11: the disarm fails (without the -5, 15 would succeed). Trip's Power
// check (l.246, l.74) takes neither (`ImmobileDefenseAndCosts`).
TEST(Underwater, UnderwaterDisarmIsAMeleeAttack) {
  Table t(WoundSlots(), Roster({Aria(5, 5, {}), Orc()}), {10, 12});
  ASSERT_TRUE(t.Submit(GmAdds("aria", "Underwater", "she dives")).ok());
  const int64_t before = Ap(t.state(), "aria");
  fb::CommandT disarm = Cmd("aria", "hinder", {"orc"});
  WithText(disarm, "hindrance", "disarm");
  auto ev = t.Submit(disarm, {8});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(before - Ap(t.state(), "aria"), 6);
  EXPECT_EQ(kernel::testing::NumOf(*ev, "underwater"), -5);
  EXPECT_EQ(kernel::testing::NumOf(*ev, "result"), 10);
  EXPECT_EQ(kernel::testing::NumOf(*ev, "tn"), 11);
  EXPECT_FALSE(t.state().Find("orc")->Has("Disarmed"));
}

TEST(Timing, PerformedMoreQuickly) {
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  fb::CommandT door = Cmd("aria", "use_object");
  WithText(door, "object", "door");
  With(door, "faster_tn", 5);
  // Dex 3 + Acrobatics 0 + d20 10 = 13 vs 5: 2 - 1 - (13 - 5) / 3 -> at
  // least 1 AP (l.112), for 1 stamina (l.271).
  ASSERT_TRUE(t.Submit(door, {10}).ok());
  EXPECT_EQ(Ap(t.state(), "aria"), 6);
  EXPECT_EQ(t.state().Find("aria")->Resource(res::kStamina), 9);
  // Failing by 15: 2 + 1 + 15 / 3 = 8 AP, more than the 6 left: paid over turns.
  fb::CommandT slow = Cmd("aria", "use_object");
  WithText(slow, "object", "door");
  With(slow, "faster_tn", 20);
  ASSERT_TRUE(t.Submit(slow, {2}).ok());
  ASSERT_EQ(t.state().pending.size(), 1u);
  EXPECT_EQ(t.state().pending.begin()->second.cost_due, 8);
  fb::CommandT atk = Cmd("aria", "faster_attack");
  EXPECT_EQ(t.Submit(atk).status().code(), absl::StatusCode::kInvalidArgument);
  fb::CommandT hurried = Cmd("aria", "standard_attack", {"orc"});
  With(hurried, "faster_tn", 5);  // not for attacks (l.271): an illegal act, citing the rule
  EXPECT_EQ(t.Submit(hurried).status().code(), absl::StatusCode::kFailedPrecondition);
}

// 001 l.271 "passing the check will reduce the AP cost of the action by 1
// at the cost of 1 stamina" with l.112 "no effect can reduce an AP cost
// below 1": drawing from a scabbard (1 AP, l.207) performed more quickly,
// Dex 3 + d20 10 = 13 >= 5, still costs 1 AP, and with no reduction its
// cost, the 1 stamina, is not spent: stamina 10 stays 10 (was: 9).
// A door (2 AP) the same way: 1 AP and 1 stamina (10 - 1 = 9).
TEST(Timing, AOneApActPerformedMoreQuicklySpendsNoStamina) {
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  ASSERT_EQ(t.state().Find("aria")->Resource(res::kStamina), 10);
  fb::CommandT draw = Cmd("aria", "retrieve");
  WithText(draw, "container", "scabbard");
  With(draw, "faster_tn", 5);
  auto ev = t.Submit(draw, {10});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(kernel::testing::NumOf(*ev, "ap_change"), 0);
  EXPECT_EQ(Ap(t.state(), "aria"), 7 - 1);
  EXPECT_EQ(t.state().Find("aria")->Resource(res::kStamina), 10);
  fb::CommandT door = Cmd("aria", "use_object");
  WithText(door, "object", "door");
  With(door, "faster_tn", 5);
  ASSERT_TRUE(t.Submit(door, {10}).ok());
  EXPECT_EQ(Ap(t.state(), "aria"), 6 - 1);
  EXPECT_EQ(t.state().Find("aria")->Resource(res::kStamina), 9);
}

TEST(Timing, ActionMeasuredInRounds) {
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  fb::CommandT fire = Cmd("aria", "use_object");
  WithText(fire, "object", "fire");
  With(fire, "time_rounds", 2);
  ASSERT_TRUE(t.Submit(fire).ok());
  EXPECT_EQ(Ap(t.state(), "aria"), 0);  // l.111: all AP each round
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
  EXPECT_EQ(Ap(t.state(), "aria"), 0);  // round 2: 7 + 7 spent on it
  ASSERT_EQ(t.state().pending.size(), 1u);
  EXPECT_EQ(t.state().pending.begin()->second.progress, 2);
  // l.111 "a time measured in rounds": its due is 2 rounds, not 2 AP (the
  // state showed "paid 0 of 2 ap").
  EXPECT_EQ(t.state().pending.begin()->second.cost_due, 2);
  EXPECT_EQ(t.state().pending.begin()->second.budget, "rounds");
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
  EXPECT_TRUE(t.state().pending.empty());  // round 3: its 2 rounds have passed
  EXPECT_EQ(Ap(t.state(), "aria"), 14);
}

TEST(Hinder, ADiagonalShoveCountsEverySecondDiagonalTwoYards) {
  // 001 l.245 Shove: "forced to move 1 yard plus up to one third of your
  // margin of success"; l.161: "count every second diagonal movement as 2
  // yards". aria (5,5) shoves the orc (6,6) diagonally: Power 4 + d20 13 =
  // 17 against its higher defense 13: margin 4, 1 + 1 = 2 yd. One diagonal
  // is 1 yd, a second 2 more (3 > 2): the orc stops at (7,7). With d20 16
  // (margin 7: 1 + 2 = 3 yd) it goes on to (8,8), 1 + 2 = 3 yd.
  for (const auto& [die, to] : std::vector<std::pair<int, Pos>>{{13, Pos{7, 7}}, {16, Pos{8, 8}}}) {
    Table t(WoundSlots(), Roster({Aria(), Orc("orc", 6, 6)}), {10, 12});
    fb::CommandT shove = Cmd("aria", "hinder", {"orc"});
    WithText(shove, "hindrance", "shove");
    With(shove, "dx", 1);
    With(shove, "dy", 1);
    auto r = t.Submit(shove, {die});
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(t.state().Find("orc")->at, to) << die;
  }
}

// 001 l.87 "Crouching | +2" (melee), l.93 "Certain situations grant
// bonuses or penalties to your attack roll"; l.70 "Combat checks function
// the same as attack rolls": a Shove (a Power check, l.245) at a crouching
// orc takes +2. aria: Power 4 + 2 + d20 7 = 13 >= the orc's higher defense
// 13 (Power 10 + 3): margin 0, 1 yd: (6,5) -> (7,5) (was: 11, a failure).
// A Pin's Power check the same: Power 4 - 2 (l.235) + 2 + d20 9 = 13 >= 13.
// And Enter Occupied Space's (l.216).
TEST(Hinder, AttackModifiersApplyToCombatChecks) {
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  fb::CommandT crouch = kernel::testing::GmCmd("gm_condition", "orc", "crouching");
  WithText(crouch, "name", "Crouching");
  WithText(crouch, "op", "add");
  ASSERT_TRUE(t.Submit(crouch).ok());
  fb::CommandT shove = Cmd("aria", "hinder", {"orc"});
  WithText(shove, "hindrance", "shove");
  With(shove, "dx", 1);
  With(shove, "dy", 0);
  auto r = t.Submit(shove, {7});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(t.state().Find("orc")->at, (Pos{7, 5}));
  // Back next to it, aria grapples the crouching orc (an attack roll: +2
  // already) and pins it.
  Table u(WoundSlots(), Roster({Aria(5, 5, {{"ap/grapple", 1}, {"ap/pin", 1}}), Orc()}), {10, 12});
  ASSERT_TRUE(u.Submit(crouch).ok());
  ASSERT_TRUE(u.Submit(Cmd("aria", "grapple", {"orc"}), {15}).ok());
  ASSERT_TRUE(u.state().Find("orc")->Has("Grappling"));
  ASSERT_TRUE(u.Submit(Cmd("aria", "pin", {"orc"}), {9}).ok());
  EXPECT_TRUE(u.state().Find("orc")->Has("Pinned"));
  // Enter Occupied Space (l.216), its better check, Power 4 (Agility 3 + 1
  // = 4), + 2 + d20 7 = 13 >= the orc's higher defense 13: aria enters.
  Table w(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  ASSERT_TRUE(w.Submit(crouch).ok());
  ASSERT_TRUE(EnterPassed(w, "aria", "orc", 7).ok());
  EXPECT_EQ(w.state().Find("aria")->at, (Pos{6, 5}));
}

TEST(Grapple, ClingMovesTheGridsYardsWithTheTarget) {
  // 001 l.226 Cling: "For every 5 points in the result, you may move 1 yard
  // with the target"; l.161: "count every second diagonal movement as 2
  // yards". aria (5,5) grapples the orc (6,6); the orc buys 4 AP (9 yd) and
  // walks away diagonally; aria's Cling, Power 4 + d20 6 = 10: 2 yd with it.
  // Her first diagonal step is 1 yd, a second 2 more (3 > 2): she follows
  // one square, to (6,6); the orc ends at (9,9), 1 + 2 + 1 = 4 yd.
  Table t(WoundSlots(), Roster({Aria(5, 5, {{"ap/grapple", 2}}), Orc("orc", 6, 6)}), {10, 12});
  auto moved = OrcBreaksAway(t, {fb::Pos(7, 7), fb::Pos(8, 8), fb::Pos(9, 9)});
  ASSERT_TRUE(moved.ok()) << moved.status();
  ASSERT_EQ(t.state().windows.size(), 1u);
  fb::CommandT cl = ClingOnTheOrc(t, 0);
  ASSERT_TRUE(t.Submit(cl, {6}).ok());
  EXPECT_EQ(t.state().Find("orc")->at, (Pos{9, 9}));
  EXPECT_EQ(t.state().Find("orc")->Resource(res::kMovePool), 9 - 4);
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{6, 6}));
}

// 001 l.225 Cling: "Trigger A target you are grappling is about to move out
// of reach"; l.280: the mount moves and carries its rider. The orc rides the
// wolf (6,5; Size 0, no larger than aria: she is not a yard farther, l.280);
// aria (5,5) grapples the orc (adjacent to its space, l.220).
// The wolf walks east, (7,5), (8,5): the orc, carried, is about to move out
// of aria's reach: the move waits for her Cling. Power 4 + d20 6 = 10: 2 yd
// with it (l.226, 5 points a yard): she follows to (7,5), beside the wolf's
// (8,5), and the grapple holds (l.230).
TEST(Mounted, AGrapplerClingsToARiderItsMountCarriesAway) {
  auto wolf = Who("wolf", "orcs", 6, 5, {{"spd", 0}, {"size", 0}, {"str", 3}}, "bite", "2", "bite", {{"reach", 0}});
  Table t(WoundSlots(), Roster({Aria(5, 5, {{"ap/grapple", 2}}), Orc("orc", 6, 4), std::move(wolf)}), {10, 12, 12});
  // aria (18) acts first; the orc mounts on its turn; round 2, aria
  // grapples it.
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  if (t.state().IsTurnOf("wolf")) {
    ASSERT_TRUE(t.Submit(Cmd("wolf", "end_turn")).ok());
  }
  { auto m = t.Submit(Cmd("orc", "mount", {"wolf"})); ASSERT_TRUE(m.ok()) << m.status(); }
  if (!t.state().windows.empty()) {
    ASSERT_TRUE(t.Submit(Cmd("orc", "resolve")).ok());
  }
  ASSERT_TRUE(t.state().Find("orc")->Has("Riding"));
  while (!t.state().IsTurnOf("aria")) {
    auto e = t.Submit(Cmd(t.state().active, "end_turn"));
    ASSERT_TRUE(e.ok()) << t.state().active << " " << e.status();
  }
  auto g = t.Submit(Cmd("aria", "grapple", {"orc"}), {15});
  ASSERT_TRUE(g.ok()) << g.status();
  if (!t.state().windows.empty()) {
    ASSERT_TRUE(t.Submit(Cmd("aria", "resolve"), {15}).ok());
  }
  ASSERT_TRUE(t.state().Find("aria")->FindRelative("Grappling", "orc") != nullptr);
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.state().IsTurnOf("orc") || t.state().IsTurnOf("wolf"));
  fb::CommandT buy = Cmd("wolf", "buy_move");
  With(buy, "ap", 4);
  { auto b = t.Submit(buy); ASSERT_TRUE(b.ok()) << b.status(); }
  fb::CommandT mv = Cmd("wolf", "move");
  mv.path = {fb::Pos(7, 5), fb::Pos(8, 5)};
  auto moved = t.Submit(mv);
  ASSERT_TRUE(moved.ok()) << moved.status();
  ASSERT_EQ(t.state().windows.size(), 1u);
  EXPECT_EQ(t.state().windows.begin()->second.eligible, (std::vector<std::string>{"aria"}));
  EXPECT_TRUE(kernel::testing::Cites(*moved, "001.cling"));
  fb::CommandT cl = ClingOnTheOrc(t, 0);
  auto answered = t.Submit(cl, {6});
  ASSERT_TRUE(answered.ok()) << answered.status();
  EXPECT_EQ(kernel::testing::NumOf(*answered, "move_with_yards"), 2);
  EXPECT_EQ(t.state().Find("wolf")->at, (Pos{8, 5}));
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{7, 5}));
  EXPECT_TRUE(t.state().Find("aria")->FindRelative("Grappling", "orc") != nullptr);
}

// 001 l.230 Grapple: "Make a melee attack against an adjacent target";
// l.280: a rider is "considered 1 yard farther from creatures on the ground
// smaller than your mount". Aria rides the horse (Size 6) at (7,5); the orc
// on foot (Size 0) at (6,5) is 0 + 1 = 1 yd from her (l.230's count): not
// adjacent, it cannot grapple her, nor she it; the horse it may (0 yd, no
// yard added).
TEST(Mounted, ACreatureOnFootBesideTheMountIsNotAdjacentToTheRider) {
  auto horse = Who("horse", "party", 7, 5, {{"spd", 3}, {"size", 6}}, "hooves", "2", "hooves", {{"reach", 0}});
  Table t(WoundSlots(), Roster({Aria(8, 5, {{"ap/grapple", 2}}), std::move(horse), Orc()}), {10, 5, 12});
  ASSERT_TRUE(t.Submit(Cmd("aria", "mount", {"horse"})).ok());
  auto g = t.Submit(Cmd("aria", "grapple", {"orc"}));
  EXPECT_EQ(g.status().code(), absl::StatusCode::kFailedPrecondition) << g.status();
  EXPECT_NE(g.status().message().find("not adjacent"), std::string::npos) << g.status();
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.state().IsTurnOf("orc"));
  auto og = t.Submit(Cmd("orc", "grapple", {"aria"}));
  EXPECT_EQ(og.status().code(), absl::StatusCode::kFailedPrecondition) << og.status();
}

// 001 l.281: a check "each time ... you come into reach of an enemy's
// melee weapon": a path through the reach and out again comes into it.
// Aria rides the untrained horse (Size 6; hooves reach 0) at (5,6); the orc
// on foot (spear reach 1, rate 9: 4 AP, 9 yd) walks (9,6) → (8,6), (7,6),
// (6,7), (7,8): 1 + 1 + 1 + 2 = 5 yd. From her, the yards between the
// spaces (l.230) and l.280's yard: 3 + 1 = 4, 2 + 1 = 3, 1 + 1 = 2, at
// (6,7) 0 + 1 = 1 (within 1: she comes into reach), at (7,8) 2 + 1 = 3
// (out again). Prs [Nature/Riding] d20 3 + 0 = 3 < TN
// 5: she loses control, though the orc ends out of reach.
TEST(Mounted, AnEnemyPassingThroughAnUntrainedMountsRidersReachCallsForTheCheck) {
  ExpectTheOrcsWalkCostsTheRiderHerHorse({fb::Pos(8, 6), fb::Pos(7, 6), fb::Pos(6, 7), fb::Pos(7, 8)}, 5);
}

// 001 l.108 "Each participant has one turn per round"; l.280 "you and your
// mount share a single turn". The horse (Speed 1: Round Start 7, Turn End
// 7, Max 21, l.115) takes its turn first (d20 12 + 5 = 17): 7 + 7 = 14 AP.
// On the orc's turn (5 + 5 = 10), aria, a reserve, joins (d20 10 + 2 + 1 +
// 5 = 18) and mounts the horse out of turn. Her turn then comes: the horse
// has had its own this round, so it shares hers from the next round only:
// at her turn's end it gains no second Turn End AP: round 2 starts with
// 10 + 7 = 17 (not 10 + 7 + 7 = 24, capped at 21).
TEST(Mounted, AMountThatHadItsTurnTakesNoSecondOneWithItsNewRider) {
  auto aria = Aria(5, 5);
  aria.tags.push_back("reserve");
  auto horse = Who("horse", "party", 5, 6, {{"spd", 1}, {"size", 6}}, "hooves", "2", "hooves", {{"reach", 0}});
  Table t(WoundSlots(), Roster({std::move(aria), std::move(horse), Orc("orc", 12, 12)}), {12, 5});
  ASSERT_TRUE(t.state().IsTurnOf("horse"));
  ASSERT_TRUE(t.Submit(BuyMove("horse", 4)).ok());
  ASSERT_TRUE(t.Submit(Cmd("horse", "end_turn")).ok());
  EXPECT_EQ(Ap(t.state(), "horse"), 10);
  ASSERT_TRUE(t.state().IsTurnOf("orc"));
  { auto j = t.Submit(Cmd("aria", "join"), {10}); ASSERT_TRUE(j.ok()) << j.status(); }
  { auto m = t.Submit(Cmd("aria", "mount", {"horse"})); ASSERT_TRUE(m.ok()) << m.status(); }
  if (!t.state().windows.empty()) {
    ASSERT_TRUE(t.Submit(Cmd("aria", "resolve")).ok());
  }
  ASSERT_TRUE(t.state().Find("aria")->Has("Riding"));
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
  ASSERT_EQ(t.state().round, 1);
  ASSERT_TRUE(t.state().IsTurnOf("aria"));
  EXPECT_FALSE(t.state().IsTurnOf("horse"));
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  EXPECT_EQ(t.state().round, 2);
  EXPECT_EQ(Ap(t.state(), "horse"), 10 + 7);  // round 2's Round Start AP only
}

// 001 l.199 Defend: "Until your next turn or you receive a wound"; l.280
// "you and your mount share a single turn". Aria (18) mounts the horse (10)
// in round 1; the orc (6) is far. Round 2: the horse defends in the shared
// turn; it still defends through the orc's turn of round 2 and its own
// next turn, round 3's shared one, ends it (was: a mount's "next turn"
// never came, the shared turn being its rider's, and it defended for ever).
// 001 l.199 "Until your next turn or you receive a wound, when targeted by
// an attack you can see" (GM ruling point, README: sight is not
// modelled). Aria (18) defends; on the orc's (17) turn the GM rules its
// attack unseen: removes Defending; the orc's d20 10 + 2 = 12 is against
// her plain melee Defense 13 (no "defend" number) and misses; the GM puts
// Defend back until her next turn (round 2: rounds 1, turn_start): kept
// through the orc's turn, ended when hers starts.
TEST(Defend, TheGmRulesAnAttackTheDefenderCannotSee) {
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  ASSERT_TRUE(t.Submit(Cmd("aria", "defend")).ok());
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.state().IsTurnOf("orc"));
  fb::CommandT off = kernel::testing::GmCmd("gm_condition", "aria", "the orc strikes from the dark");
  WithText(off, "op", "remove");
  WithText(off, "name", "Defending");
  ASSERT_TRUE(t.Submit(off).ok());
  ASSERT_TRUE(t.Submit(Cmd("orc", "standard_attack", {"aria"})).ok());
  ASSERT_EQ(t.state().windows.size(), 1u);  // aria (18) may act first (l.124): she passes
  fb::CommandT pass = Cmd("aria", "pass");
  pass.window = t.state().windows.begin()->first;
  auto attack = t.Submit(pass, {10});
  ASSERT_TRUE(attack.ok()) << attack.status();
  EXPECT_EQ(Wounds(t.state(), "aria", kLight) + Wounds(t.state(), "aria", kModerate), 0);
  EXPECT_EQ(kernel::testing::NumOf(*attack, "defend"), -999);
  fb::CommandT back = GmAdds("aria", "Defending", "seen attacks again");
  With(back, "rounds", 1);
  WithText(back, "expires", "turn_start");
  ASSERT_TRUE(t.Submit(back).ok());
  EXPECT_TRUE(t.state().Find("aria")->Has("Defending"));
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
  ASSERT_EQ(t.state().round, 2);
  ASSERT_TRUE(t.state().IsTurnOf("aria"));
  EXPECT_FALSE(t.state().Find("aria")->Has("Defending"));
}

TEST(Mounted, AMountsDefendEndsAtItsNextSharedTurn) {
  auto horse = Who("horse", "party", 5, 6, {{"spd", 3}, {"size", 6}}, "hooves", "2", "hooves");
  Table t(WoundSlots(), Roster({Aria(), std::move(horse), Orc("orc", 15, 15)}), {10, 5, 1});
  ASSERT_EQ(Init(t.state(), "orc"), 6);
  ASSERT_TRUE(t.Submit(Cmd("aria", "mount", {"horse"})).ok());
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
  ASSERT_EQ(t.state().round, 2);
  ASSERT_TRUE(t.state().IsTurnOf("horse"));
  { auto r = t.Submit(Cmd("horse", "defend")); ASSERT_TRUE(r.ok()) << r.status(); }
  ASSERT_TRUE(t.state().windows.empty());
  EXPECT_TRUE(t.state().Find("horse")->Has("Defending"));
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.state().IsTurnOf("orc"));
  EXPECT_TRUE(t.state().Find("horse")->Has("Defending"));  // not yet its next turn
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
  ASSERT_EQ(t.state().round, 3);
  ASSERT_TRUE(t.state().IsTurnOf("horse"));
  EXPECT_FALSE(t.state().Find("horse")->Has("Defending"));
}

// 001 l.280 "you and your mount share a single turn", l.282 "Trained
// mounts can be made to attack or perform other actions on command",
// l.108, l.110, l.199. Aria (18) mounts the horse (10) in round 1; round 2
// the horse defends in the shared turn; the GM knocks aria out on the
// orc's (6) turn. Round 3: the shared turn passes at its place (the horse,
// commanded by none, takes none): its Defend ends (its next turn) and, the
// turn ending, the horse gains its Turn End 6 on top of the Round Start 6
// (Speed 0, l.115-116; max 18, l.117); the orc's turn follows (was: no
// Turn End AP).
TEST(Mounted, AMountUnderAKnockedOutRiderHasItsSharedTurnPass) {
  auto horse = Who("horse", "party", 5, 6, {{"spd", 0}, {"size", 6}}, "hooves", "2", "hooves");
  Table t(WoundSlots(), Roster({Aria(), std::move(horse), Orc("orc", 15, 15)}), {10, 5, 1});
  ASSERT_TRUE(t.Submit(Cmd("aria", "mount", {"horse"})).ok());
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
  ASSERT_EQ(t.state().round, 2);
  ASSERT_TRUE(t.Submit(Cmd("horse", "defend")).ok());
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.state().IsTurnOf("orc"));
  ASSERT_NO_FATAL_FAILURE(KnockOut(t, "aria", "a low branch"));
  fb::CommandT set = Cmd("horse", "gm_set");  // the horse's AP at 0 (set-up)
  set.author = "gm";
  set.role = fb::Role::GM;
  set.text = "test set-up";
  WithText(set, "resource", "ap");
  With(set, "value", 0);
  ASSERT_TRUE(t.Submit(set).ok());
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
  ASSERT_EQ(t.state().round, 3);
  EXPECT_TRUE(t.state().IsTurnOf("orc"));  // the shared turn (10) passed before the orc's (6)
  EXPECT_FALSE(t.state().Find("horse")->Has("Defending"));
  EXPECT_EQ(Ap(t.state(), "horse"), 6 + 6);
}

// 001 l.124 "You may also take an action when it is not your turn if your
// initiative is higher than the active character's"; l.282 "Trained mounts
// can be made to attack or perform other actions on command". Aria (18)
// rides the horse (10: the shared turn at the worse, l.280); the GM knocks
// her out on the orc's (6) turn: the horse, initiative 10 above the orc's
// 6, has no rider to command it and may not act out of turn (was: its
// Defend accepted, initiative -2).
TEST(Mounted, AMountUnderAKnockedOutRiderDoesNotActOutOfTurn) {
  auto horse = Who("horse", "party", 5, 6, {{"spd", 0}, {"size", 6}}, "hooves", "2", "hooves");
  Table t(WoundSlots(), Roster({Aria(), std::move(horse), Orc("orc", 15, 15)}), {10, 5, 1});
  ASSERT_TRUE(t.Submit(Cmd("aria", "mount", {"horse"})).ok());
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.state().IsTurnOf("orc"));
  { auto r = t.Submit(Cmd("horse", "defend")); ASSERT_TRUE(r.ok()) << r.status(); }  // commanded: may
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.state().IsTurnOf("orc"));
  ASSERT_NO_FATAL_FAILURE(KnockOut(t, "aria", "a low branch"));
  const int64_t init = Init(t.state(), "horse");
  auto r = t.Submit(Cmd("horse", "defend"));
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(Init(t.state(), "horse"), init);
}

// 001 l.216 "On a success, you can enter their space"; l.230 "a
// close-quarters grapple with ... an adjacent target". Aria (18) grapples
// the goblin west of her: d20 10 + 7 = 17 >= 10; then enters the orc's
// space east of her: Power 2 + 2 = 4 (Agility 3 + 1 = 4), d20 10 + 4 = 14
// >= the orc's higher defense, Power 10 + 3 = 13. At (6,5) she is 2 yd
// from the goblin: the grapple ends for both, as after any move (was: it
// went on apart).
TEST(Grapple, EnteringASpaceAwayFromAGrappleEndsIt) {
  Table t(WoundSlots(), Roster({Aria(5, 5), Orc("orc", 6, 5), Orc("gob", 4, 5)}), {10, 12, 1});
  ASSERT_TRUE(t.Submit(Cmd("aria", "grapple", {"gob"}), {10}).ok());
  ASSERT_TRUE(t.state().Find("gob")->Has("Grappling"));
  auto r = EnterPassed(t, "aria", "orc", 10);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{6, 5}));
  EXPECT_TRUE(t.state().Find("aria")->Has("SharingSpace"));
  EXPECT_FALSE(t.state().Find("aria")->Has("Grappling"));
  EXPECT_FALSE(t.state().Find("gob")->Has("Grappling"));
}

// 001 l.230 "initiate a close-quarters grapple with ... an adjacent
// target", l.220 "You climb atop a horse", l.280 "considered 1 yard
// farther from creatures on the ground smaller than your mount". Aria (18,
// 7 AP) grapples the orc north of her (2 AP here): d20 10 + 7 = 17 >= 10;
// then mounts the horse south of her (4 AP): atop it at (5,6), 2 yd from
// the orc (and l.280's yard): no longer adjacent, the grapple ends for both,
// as after any move (was: they went on grappling each other apart).
TEST(Mounted, MountingAwayFromAGrappleEndsIt) {
  auto horse = Who("horse", "party", 5, 6, {{"size", 6}}, "hooves", "2", "hooves");
  Table t(WoundSlots(), Roster({Aria(5, 5, {{"ap/grapple", 2}}), std::move(horse), Orc("orc", 5, 4)}), {10, 5, 1});
  ASSERT_TRUE(t.Submit(Cmd("aria", "grapple", {"orc"}), {10}).ok());
  ASSERT_TRUE(t.state().Find("aria")->Has("Grappling"));
  ASSERT_TRUE(t.state().Find("orc")->Has("Grappling"));
  auto r = t.Submit(Cmd("aria", "mount", {"horse"}));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{5, 6}));
  EXPECT_FALSE(t.state().Find("aria")->Has("Grappling"));
  EXPECT_FALSE(t.state().Find("orc")->Has("Grappling"));
  EXPECT_EQ(Ap(t.state(), "aria"), 7 - 2 - 4);
}

// 001 l.280 "While riding a mount, you and your mount share a single
// turn"; l.108 "Each participant has one turn per round"; l.110 AP "once
// at the end of your turn". Aria (18) mounts the horse (10, Speed 0: 6 +
// 6, max 18), yet to act, on her turn in round 1: the rest of her turn is
// the horse's too: it may act in it, and at its end gains its Turn End 6
// (6 + 6 = 12); round 2 adds 6 (18) (was: the horse had no turn at all in
// round 1 and no Turn End AP: 6, then 12).
TEST(Mounted, AMountYetToActSharesTheRunningTurnItIsMountedIn) {
  auto horse = Who("horse", "party", 5, 6, {{"size", 6}}, "hooves", "2", "hooves");
  Table t(WoundSlots(), Roster({Aria(), std::move(horse), Orc("orc", 15, 15)}), {10, 5, 1});
  ASSERT_EQ(Init(t.state(), "horse"), 10);
  ASSERT_TRUE(t.Submit(Cmd("aria", "mount", {"horse"})).ok());
  EXPECT_TRUE(t.state().IsTurnOf("horse"));
  EXPECT_EQ(Ap(t.state(), "horse"), 6);
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  EXPECT_EQ(t.state().active, "orc");
  EXPECT_EQ(Ap(t.state(), "horse"), 12);
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
  ASSERT_EQ(t.state().round, 2);
  EXPECT_TRUE(t.state().IsTurnOf("horse"));
  EXPECT_EQ(Ap(t.state(), "horse"), 18);
}

// 001 l.111 "continue to spend all AP on each of your subsequent turns
// until the total cost has been spent, at which point the action takes
// effect"; l.280 "you and your mount share a single turn". Aria (18)
// mounts the horse (Speed 0: 6 + 6, max 18; 10) in round 1, the orc (6)
// far. Round 2, the horse (6 at round 1's start + 6 at the end of the turn
// it shared from its mounting + 6 = 18) uses an object of 26 AP: it pays
// 18, 8 due; its shared turn's end gives it 6. Round 3: +6 = 12; the shared
// turn starts: it pays the 8 and the act takes effect, 4 AP left (was: its
// shared turns never paid it, the act open for ever).
TEST(Mounted, AMountsActPaidOverTurnsIsPaidAtItsSharedTurns) {
  auto horse = Who("horse", "party", 5, 6, {{"size", 6}}, "hooves", "2", "hooves");
  Table t(WoundSlots(), Roster({Aria(), std::move(horse), Orc("orc", 15, 15)}), {10, 5, 1});
  ASSERT_TRUE(t.Submit(Cmd("aria", "mount", {"horse"})).ok());
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
  ASSERT_EQ(t.state().round, 2);
  ASSERT_TRUE(t.state().IsTurnOf("horse"));
  ASSERT_EQ(Ap(t.state(), "horse"), 18);
  fb::CommandT crank = Cmd("horse", "use_object");
  WithText(crank, "object", "winch");
  With(crank, "ap", 26);
  { auto r = t.Submit(crank); ASSERT_TRUE(r.ok()) << r.status(); }
  const PendingAct* p = FirstPending(t.state(), "horse", kPaying);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->cost_paid, 18);
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  EXPECT_EQ(Ap(t.state(), "horse"), 6);
  ASSERT_NE(FirstPending(t.state(), "horse", kPaying), nullptr);  // the orc's turn: not yet
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
  ASSERT_EQ(t.state().round, 3);
  ASSERT_TRUE(t.state().IsTurnOf("horse"));
  EXPECT_EQ(FirstPending(t.state(), "horse", kPaying), nullptr);
  EXPECT_EQ(Ap(t.state(), "horse"), 12 - 8);
}

// 001 l.281: aria (Prs 0) mounts the untrained horse (Size 6) at (5,6), the
// GM rules that it bolts, and she tries to regain control (d20 5, TN 5,
// first try) with the orc on foot (Size 0) at (orc_x, 6): the penalty for
// enemies within 30 feet, her result and whether the horse is still
// Uncontrolled.
void RegainControlWithTheOrcAt(int orc_x, int64_t enemies, int64_t result, bool uncontrolled) {
  auto horse = Who("horse", "party", 5, 6, {{"size", 6}}, "hooves", "2", "hooves", {}, {"untrained"});
  Table t(WoundSlots(),
          Roster({Aria(5, 5, {{"ap/mount", 1}, {"ap/regain_control", 1}}), std::move(horse), Orc("orc", orc_x, 6)}),
          {15, 10, 1});
  ASSERT_TRUE(t.Submit(Cmd("aria", "mount", {"horse"})).ok());
  fb::CommandT lose = Cmd("aria", "gm_condition");
  lose.author = "gm";
  lose.role = fb::Role::GM;
  lose.text = "the horse bolts";
  WithText(lose, "name", "Uncontrolled");
  WithText(lose, "op", "add");
  WithText(lose, "relative_to", "horse");
  ASSERT_TRUE(t.Submit(lose).ok());
  auto ev = t.Submit(Cmd("aria", "regain_control"), {5});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(kernel::testing::NumOf(*ev, "enemies_within_30ft"), enemies);
  EXPECT_EQ(kernel::testing::NumOf(*ev, "result"), result);
  EXPECT_EQ(t.state().Find("aria")->Has("Uncontrolled"), uncontrolled);
}

// 001 l.281: regaining control, "a -1 penalty for each enemy within 30
// feet" (10 yd); l.280: "you are considered 1 yard farther from creatures
// on the ground smaller than your mount". Aria rides the untrained horse
// (Size 6) at (5,6); the orc on foot (Size 0) stands at (16,6), 10 yd from
// the horse's space (the yards between the spaces, l.230's count): 10 + 1
// = 11 yd from her, not within 30 feet. Prs 0 + d20 5 - 0 + 0 (first try)
// = 5 >= TN 5: she regains control (with the orc counted, 5 - 1 = 4 < 5).
TEST(Mounted, TheRidersExtraYardCountsForEnemiesWithinThirtyFeet) {
  RegainControlWithTheOrcAt(16, 0, 5, false);
}

// 001 l.281 "a -1 penalty for each enemy within 30 feet" (10 yd), the
// yards counted between the spaces as l.230 counts them (adjacent 0): the
// orc on foot (Size 0) at (15,6) has 9 squares between it and the horse's
// space (5,6): 9 yd, and l.280's yard: 10 yd from aria, within 30 feet.
// Prs 0 + d20 5 - 1 + 0 = 4 < TN 5: she does not regain control (was: 10
// + 1 = 11 yd, adjacent counted 1: not counted, 5 >= 5, regained).
TEST(Mounted, AnEnemyTenYardsBetweenTheSpacesIsWithinThirtyFeet) {
  RegainControlWithTheOrcAt(15, -1, 4, true);
}

// 001 l.280 "you and your mount share a single turn, using the worse of your
// two initiative scores"; l.81-82 (a critical success lowers the target's
// initiative by 2). Aria 10 + 2 + 1 + 5 = 18 mounts the horse (5 + 5 = 10):
// their turn at 10. The orc (17; spear, reach 1: 0 + 1 = 1 yd from her,
// l.230, l.280) rolls a natural 20 against her: her own score 18 - 2 = 16, the
// worse of the two still the horse's 10 (not 10 - 2 = 8). Dismounted, she
// is back at her own 16. (Her armor 10 keeps the wound short of fatal: a
// dying rider would be unconscious, l.250.)
TEST(Mounted, ARidersOwnInitiativeChangesAndTheSharedTurnKeepsTheWorse) {
  auto horse = Who("horse", "party", 7, 5, {{"spd", 3}, {"size", 6}}, "hooves", "2", "hooves", {{"reach", 0}});
  auto orc = Orc();
  AddNumber(*orc.weapons[0], "reach", 1);
  Table t(WoundSlots(), Roster({Aria(8, 5, {{"armor", 10}}), std::move(horse), std::move(orc)}), {10, 5, 12});
  ASSERT_TRUE(t.Submit(Cmd("aria", "mount", {"horse"})).ok());
  EXPECT_EQ(Init(t.state(), "aria"), 10);
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.state().IsTurnOf("orc"));
  auto decl = t.Submit(Cmd("orc", "standard_attack", {"aria"}), {20});
  ASSERT_TRUE(decl.ok()) << decl.status();
  if (!t.state().windows.empty()) {
    auto r = t.Submit(Cmd("orc", "resolve"), {20});
    ASSERT_TRUE(r.ok()) << r.status();
  }
  EXPECT_EQ(Init(t.state(), "orc"), 19);
  EXPECT_EQ(t.state().Find("aria")->FindCondition("Riding")->level, 16);
  EXPECT_EQ(Init(t.state(), "aria"), 10);
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());  // round 2: the orc (19) first
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn")).ok());
  ASSERT_TRUE(t.state().IsTurnOf("aria"));
  fb::CommandT down = Cmd("aria", "dismount");
  down.path = {fb::Pos(8, 6)};
  ASSERT_TRUE(t.Submit(down).ok());
  if (!t.state().windows.empty()) {
    ASSERT_TRUE(t.Submit(Cmd("aria", "resolve")).ok());
  }
  EXPECT_EQ(Init(t.state(), "aria"), 16);
  EXPECT_EQ(Init(t.state(), "horse"), 10);
}

// 001 l.120 "If your initiative is 0, you cannot take reactions"; l.280 the
// mount shares its rider's turn "using the worse of your two initiative
// scores": the horse's initiative is that shared score (10), not 0. Aria
// rides the trained horse (hooves reach 1) at (7,5); the orc walks from
// (3,5) to (5,5), (6,5): entering the horse's reach at (6,5), the move waits
// for its Rebuff (l.189); aria's sword (reach 1) is 0 + 1 = 1 yd from the
// orc there (l.230's count, l.280's yard), not closer than 1: not hers.
TEST(Mounted, ARiddenMountMayRebuffAtTheSharedInitiative) {
  auto horse = Who("horse", "party", 7, 5, {{"spd", 3}, {"size", 6}}, "hooves", "2", "hooves", {{"reach", 1}});
  Table t(WoundSlots(), Roster({Aria(8, 5), std::move(horse), Orc("orc", 3, 5)}), {10, 5, 12});
  ASSERT_TRUE(t.Submit(Cmd("aria", "mount", {"horse"})).ok());
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.state().IsTurnOf("orc"));
  EXPECT_EQ(InitiativeOf(t.state(), "horse"), 10);
  ASSERT_TRUE(t.Submit(BuyMove("orc", 4)).ok());
  fb::CommandT mv = Cmd("orc", "move");
  mv.path = {fb::Pos(4, 5), fb::Pos(5, 5), fb::Pos(6, 5)};
  auto moved = t.Submit(mv);
  ASSERT_TRUE(moved.ok()) << moved.status();
  ASSERT_EQ(t.state().windows.size(), 1u);
  EXPECT_EQ(t.state().windows.begin()->second.eligible, (std::vector<std::string>{"horse"}));
  EXPECT_EQ(t.state().Find("orc")->at, (Pos{5, 5}));
}

}  // namespace
}  // namespace combat::kernel::wound_slots
