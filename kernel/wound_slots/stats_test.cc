// The text's tables (l.6-36, l.113-117, l.129-159) and movement costs
// (l.160-174).
#include <algorithm>

#include "gtest/gtest.h"
#include "kernel/testing/events.h"
#include "kernel/wound_slots/test_util.h"

namespace combat::kernel::wound_slots {
namespace {

using namespace testutil;  // NOLINT

TEST(Tables, SpeedTable) {
  EXPECT_EQ(SpeedTable(-10).round_start, 2);
  EXPECT_EQ(SpeedTable(-10).turn_end, 1);
  EXPECT_EQ(SpeedTable(-10).max_ap, 5);
  EXPECT_EQ(SpeedTable(-8).turn_end, 2);
  EXPECT_EQ(SpeedTable(4).round_start, 11);
  EXPECT_EQ(SpeedTable(4).turn_end, 10);
  EXPECT_EQ(SpeedTable(4).max_ap, 31);
  EXPECT_EQ(SpeedTable(10).max_ap, 72);
  EXPECT_EQ(SpeedTable(14).max_ap, 72);  // beyond the table: its end
}

// 001 l.114-117, every column as printed: Speed | -10 .. 10, "Round
// Start", "Turn End", "Max AP". The text stops at -10 and 10; reading
// (README "AP"): a Speed beyond reads the end column (-11 and -14 as -10,
// 11 and 15 as 10).
TEST(Tables, SpeedTableEveryColumnAndBeyondItsEnds) {
  const int64_t start[] = {2, 2, 2, 3, 3, 3, 4, 4, 5, 5, 6, 7, 8, 9, 11, 12, 14, 16, 18, 21, 24};
  const int64_t end[] = {1, 1, 2, 2, 2, 3, 3, 4, 4, 5, 6, 7, 8, 9, 10, 12, 14, 16, 18, 21, 24};
  const int64_t max[] = {5, 5, 6, 7, 8, 9, 10, 12, 14, 16, 18, 21, 24, 27, 31, 36, 41, 48, 55, 63, 72};
  for (int64_t speed = -10; speed <= 10; ++speed) {
    EXPECT_EQ(SpeedTable(speed).round_start, start[speed + 10]) << "Speed " << speed;
    EXPECT_EQ(SpeedTable(speed).turn_end, end[speed + 10]) << "Speed " << speed;
    EXPECT_EQ(SpeedTable(speed).max_ap, max[speed + 10]) << "Speed " << speed;
  }
  for (int64_t speed : {-11, -14}) {
    EXPECT_EQ(SpeedTable(speed).round_start, 2);
    EXPECT_EQ(SpeedTable(speed).turn_end, 1);
    EXPECT_EQ(SpeedTable(speed).max_ap, 5);
  }
  for (int64_t speed : {11, 15}) {
    EXPECT_EQ(SpeedTable(speed).round_start, 24);
    EXPECT_EQ(SpeedTable(speed).turn_end, 24);
    EXPECT_EQ(SpeedTable(speed).max_ap, 72);
  }
}

TEST(Tables, MovementRateBands) {
  EXPECT_EQ(RateFromScore(-30), 0);
  EXPECT_EQ(RateFromScore(-29), 1);
  EXPECT_EQ(RateFromScore(-26), 1);
  EXPECT_EQ(RateFromScore(-25), 2);
  EXPECT_EQ(RateFromScore(-1), 8);
  EXPECT_EQ(RateFromScore(2), 8);
  EXPECT_EQ(RateFromScore(3), 9);
  EXPECT_EQ(RateFromScore(67), 25);
  EXPECT_EQ(RateFromScore(70), 25);
  EXPECT_EQ(RateFromScore(71), 26);  // only the bottom row says "or less": the bands go on
  EXPECT_EQ(RateFromScore(74), 26);
  EXPECT_EQ(RateFromScore(75), 27);
  EXPECT_EQ(YardsFor(1, 4), 1);
  EXPECT_EQ(YardsFor(2, 2), 1);
  EXPECT_EQ(YardsFor(7, 2), 3);
  EXPECT_EQ(YardsFor(10, 3), 7);
  EXPECT_EQ(YardsFor(25, 1), 6);
  EXPECT_EQ(YardsFor(30, 3), 22);  // beyond the table: 30 x 3 / 4 rounded down
}

// 001 l.8-13 "the highest level whose threshold the damage exceeds or
// equals": Light 0, Moderate 2, Severe 4, Critical 6, Fatal 8, each played
// exactly at its threshold and one below, and far above the last.
TEST(Tables, WoundThresholdsAtAndOneBelowEach) {
  EXPECT_EQ(WoundLevel(-1), kNone);
  EXPECT_EQ(WoundLevel(0), kLight);
  EXPECT_EQ(WoundLevel(1), kLight);
  EXPECT_EQ(WoundLevel(2), kModerate);
  EXPECT_EQ(WoundLevel(3), kModerate);
  EXPECT_EQ(WoundLevel(4), kSevere);
  EXPECT_EQ(WoundLevel(5), kSevere);
  EXPECT_EQ(WoundLevel(6), kCritical);
  EXPECT_EQ(WoundLevel(7), kCritical);
  EXPECT_EQ(WoundLevel(8), kFatal);
  EXPECT_EQ(WoundLevel(30), kFatal);
}

// 001 l.18-30, every Vitality row as printed (Moderate | Severe |
// A reach is the weapon's number "reach" in yards between the spaces
// (l.230): the shared roster field `reach` (d20's feet) is refused, naming
// it and where the reach goes (was: ignored without a word, reach 1).
TEST(Tables, TheSharedReachFieldIsRefusedNamingTheNumber) {
  fb::CombatantSpecT a = Aria();
  a.weapons[0]->reach = 2;
  Table t(WoundSlots(), Roster({std::move(a), Orc()}), {1, 1});
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(t.status().message().find("weapons.sword.reach"), std::string::npos) << t.status();
  EXPECT_NE(t.status().message().find("numbers.reach"), std::string::npos) << t.status();
}

// Critical), and beyond its ends (README "Slots": the end rows).
TEST(Tables, SlotsEveryVitalityRowAndBeyond) {
  const int64_t rows[11][3] = {{1, 1, 0}, {1, 1, 1}, {2, 1, 1}, {2, 2, 1}, {3, 2, 1}, {3, 2, 2},
                               {3, 3, 2}, {4, 3, 2}, {4, 3, 3}, {4, 4, 3}, {5, 4, 3}};
  for (int64_t vit = -7; vit <= 7; ++vit) {
    Table t(WoundSlots(), Roster({Who("a", "x", 1, 1, {{"vit", vit}}, "club", "1", "club")}), {1});
    ASSERT_TRUE(t.status().ok()) << t.status();
    const Combatant& a = *t.state().Find("a");
    const int64_t* row = rows[std::clamp<int64_t>(vit, -5, 5) + 5];
    EXPECT_EQ(SlotsFor(a, kModerate), row[0]) << "Vitality " << vit;
    EXPECT_EQ(SlotsFor(a, kSevere), row[1]) << "Vitality " << vit;
    EXPECT_EQ(SlotsFor(a, kCritical), row[2]) << "Vitality " << vit;
    EXPECT_EQ(SlotsFor(a, kFatal), 1) << "Vitality " << vit;  // l.33
  }
}

TEST(Tables, SlotsByVitalityAndPersona) {
  Table t(WoundSlots(), Roster({Who("a", "x", 1, 1, {{"vit", -5}, {"prs", 2}}, "club", "1", "club"),
                                Who("b", "x", 3, 1, {{"vit", 5}, {"prs", -1}}, "club", "1", "club"),
                                Who("e", "y", 5, 1, {{"vit", 3}}, "club", "1", "club", {}, {"elite"})}),
          {1, 1, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  const Combatant& a = *t.state().Find("a");
  EXPECT_EQ(SlotsFor(a, kLight), 7);       // 5 + 2 (l.33)
  EXPECT_EQ(SlotsFor(a, kModerate), 1);    // Vitality -5 (l.20)
  EXPECT_EQ(SlotsFor(a, kCritical), 0);
  const Combatant& b = *t.state().Find("b");
  EXPECT_EQ(SlotsFor(b, kLight), 4);
  EXPECT_EQ(SlotsFor(b, kModerate), 5);    // Vitality 5 (l.30)
  EXPECT_EQ(SlotsFor(b, kSevere), 4);
  EXPECT_EQ(SlotsFor(b, kCritical), 3);
  const Combatant& e = *t.state().Find("e");
  EXPECT_EQ(SlotsFor(e, kSevere), 3);      // elite (l.36)
  EXPECT_EQ(SlotsFor(e, kFatal), 1);
  Table u(WoundSlots(), Roster({Who("c", "x", 1, 1, {{"vit", 3}}, "club", "1", "club")}), {1});
  ASSERT_TRUE(u.status().ok()) << u.status();
  const Combatant& c = *u.state().Find("c");
  EXPECT_EQ(SlotsFor(c, kModerate), 4);    // Vitality 3 (l.28): 4 | 3 | 3
  EXPECT_EQ(SlotsFor(c, kSevere), 3);
  EXPECT_EQ(SlotsFor(c, kCritical), 3);
}

// 001 l.165-174, the terrain table's other rows: climbing a steep hill 2
// (l.167), moving through thick undergrowth 3 (l.170), swimming 3 (l.171),
// wading through waist-high water 4 (l.172), a vertical climb 4 (l.173),
// walking underwater 10 (l.174). Aria (rate 9, l.143) buys 8 AP: 18 yd
// (l.143: two full movements); 2 + 3 + 3 + 4 + 4 = 16 yd along the first
// five squares, 2 left; the underwater square (10) is refused.
TEST(Movement, TheTerrainTableRows) {
  fb::RosterT r = Roster({Aria(2, 2, {{"spd", 3}}), Orc("orc", 15, 15)});
  const char* kinds[] = {"hill", "undergrowth", "swimming", "waist_water", "vertical", "underwater"};
  for (int i = 0; i < 6; ++i) {
    auto cell = std::make_unique<fb::CellT>();
    cell->at = std::make_unique<fb::Pos>(3 + i, 2);
    cell->terrain = kinds[i];
    r.map->cells.push_back(std::move(cell));
  }
  Table t(WoundSlots(), r, {10, 12});
  ASSERT_TRUE(t.status().ok()) << t.status();
  for (int k = 0; k < 2; ++k) {
    ASSERT_TRUE(t.Submit(BuyMove("aria", 4)).ok());
  }
  EXPECT_EQ(t.state().Find("aria")->Resource(res::kMovePool), 18);
  fb::CommandT mv = Cmd("aria", "move");
  for (int x = 3; x <= 7; ++x) mv.path.emplace_back(x, 2);
  ASSERT_TRUE(t.Submit(mv).ok());
  EXPECT_EQ(t.state().Find("aria")->Resource(res::kMovePool), 2);
  fb::CommandT deep = Cmd("aria", "move");
  deep.path = {fb::Pos(8, 2)};
  EXPECT_EQ(t.Submit(deep).status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(Movement, TerrainMultipliesAndDiagonalsAlternate) {
  fb::RosterT r = Roster({Aria(2, 2), Orc("orc", 15, 15)});
  auto cell = std::make_unique<fb::CellT>();
  cell->at = std::make_unique<fb::Pos>(3, 2);
  cell->terrain = "mud+knee_water";  // 2 x 2 (l.163, l.168-169)
  r.map->cells.push_back(std::move(cell));
  Table t(WoundSlots(), r, {10, 12});
  ASSERT_TRUE(t.status().ok()) << t.status();
  fb::CommandT buy = Cmd("aria", "buy_move");
  With(buy, "ap", 4);  // rate 9 (l.143): 9 yd
  ASSERT_TRUE(t.Submit(buy).ok());
  fb::CommandT mv = Cmd("aria", "move");
  mv.path = {fb::Pos(3, 2), fb::Pos(4, 3), fb::Pos(5, 4)};  // 4 + 1 + 2
  ASSERT_TRUE(t.Submit(mv).ok());
  EXPECT_EQ(t.state().Find("aria")->Resource(res::kMovePool), 2);
  fb::CommandT far = Cmd("aria", "move");
  far.path = {fb::Pos(6, 5), fb::Pos(7, 6)};  // 1 + 2 = 3 > 2
  EXPECT_EQ(t.Submit(far).status().code(), absl::StatusCode::kFailedPrecondition);
  fb::CommandT gap = Cmd("aria", "move");
  gap.path = {fb::Pos(9, 9)};
  EXPECT_EQ(t.Submit(gap).status().code(), absl::StatusCode::kInvalidArgument);  // not adjacent
}

TEST(Movement, TheColumnIsTheRoundsTotalAp) {
  Table t(WoundSlots(), Roster({Aria(2, 2), Orc("orc", 15, 15)}), {10, 12});
  ASSERT_TRUE(t.status().ok()) << t.status();
  // Rate 9 (Str 2 + Athletics 2 = 4, l.143): 2 AP buy 4 yd; 2 more make 4
  // AP in the round: a full movement, 9 yd (l.160), so they add 5.
  ASSERT_TRUE(t.Submit(BuyMove("aria", 2)).ok());
  EXPECT_EQ(t.state().Find("aria")->Resource(res::kMovePool), 4);
  ASSERT_TRUE(t.Submit(BuyMove("aria", 2)).ok());
  EXPECT_EQ(t.state().Find("aria")->Resource(res::kMovePool), 9);
  // A fifth AP begins a second movement: its 1-AP column, 2 yd.
  ASSERT_TRUE(t.Submit(BuyMove("aria", 1)).ok());
  EXPECT_EQ(t.state().Find("aria")->Resource(res::kMovePool), 11);
  EXPECT_EQ(Ap(t.state(), "aria"), 2);
  // Typed params: a flag other than 0/1, a negative count, text for a number.
  fb::CommandT neg = Cmd("aria", "buy_move");
  With(neg, "ap", -1);
  EXPECT_EQ(t.Submit(neg).status().code(), absl::StatusCode::kInvalidArgument);
  fb::CommandT txt = Cmd("aria", "buy_move");
  WithText(txt, "ap", "two");
  EXPECT_EQ(t.Submit(txt).status().code(), absl::StatusCode::kInvalidArgument);
  fb::CommandT flag = Cmd("aria", "long_rest");
  With(flag, "slept", 2);
  auto r = t.Submit(flag);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("params.slept"), std::string::npos) << r.status();
}

TEST(Movement, ADashAfterMovingDoublesTheRateForWhatIsBoughtAfter) {
  // 001 l.222 "Your movement rate is doubled until the end of the round";
  // l.160 "Once AP is spent to move, you can divide the movement however you
  // want for the remainder of the round". aria, rate 9: 2 AP buy 4 yd; she
  // walks 2 and Dashes (2 AP): rate 18; 2 AP more make 4 AP in the round:
  // 18 - 9 = 9 yd (the 4-AP column at 18 less the 2-AP column at 18), the
  // 4 yd bought before the Dash unchanged: 2 + 9 = 11 left. AP 7 - 6 = 1.
  Table t(WoundSlots(), Roster({Aria(5, 5), Orc("orc", 15, 15)}), {10, 12});
  ASSERT_TRUE(t.Submit(BuyMove("aria", 2)).ok());
  fb::CommandT walk = Cmd("aria", "move");
  walk.path = {fb::Pos(4, 5), fb::Pos(3, 5)};
  ASSERT_TRUE(t.Submit(walk).ok());
  EXPECT_EQ(t.state().Find("aria")->Resource(res::kMovePool), 2);
  auto dash = t.Submit(Cmd("aria", "dash"));
  ASSERT_TRUE(dash.ok()) << dash.status();
  EXPECT_EQ(EffectiveRate(*t.state().Find("aria")), 18);
  EXPECT_EQ(t.state().Find("aria")->Resource(res::kMovePool), 2);
  ASSERT_TRUE(t.Submit(BuyMove("aria", 2)).ok());
  EXPECT_EQ(t.state().Find("aria")->Resource(res::kMovePool), 11);
  EXPECT_EQ(Ap(t.state(), "aria"), 1);
}

TEST(Jump, BuysTheMovementItLacks) {
  Table t(WoundSlots(), Roster({Aria(5, 5), Orc("orc", 15, 15)}), {10, 12});
  fb::CommandT j = Cmd("aria", "jump");
  j.path = {fb::Pos(6, 5), fb::Pos(7, 5), fb::Pos(8, 5)};
  // 3 yd lacking at rate 9: 2 AP (4 yd, l.143). Str 2 + Athletics 2 + d20
  // 10 = 14, no run-up: halved, 7 feet = 2 yd (l.177, reading 3 ft a yard).
  auto jumped = t.Submit(j, {10});
  ASSERT_TRUE(jumped.ok()) << jumped.status();
  EXPECT_EQ(kernel::testing::NumOf(*jumped, "halved"), -7);  // 14 + (-7) = 7
  EXPECT_EQ(kernel::testing::NumOf(*jumped, "result"), 7);
  EXPECT_EQ(Ap(t.state(), "aria"), 5);
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{7, 5}));
  EXPECT_EQ(t.state().Find("aria")->Resource(res::kMovePool), 2);
}

TEST(Jump, AJumpOverMovementAlreadyBoughtCostsNoAp) {
  // 001 l.160: "Once AP is spent to move, you can divide the movement
  // however you want for the remainder of the round"; l.178: a jump pays AP
  // only when it goes "farther than you have AP available to move". Aria
  // (rate 9: Str 2 + Athletics 2, l.143) buys 4 AP: 9 yd, 7 - 4 = 3 AP;
  // walks 5 yd; jumps the 4 squares her pool still holds: no AP. d20 10 +
  // 4 = 14 + Speed 1 (a 5-yard run-up, l.177) = 15 feet = 5 yd: she lands
  // on the path's last square.
  Table t(WoundSlots(), Roster({Aria(5, 5), Orc("orc", 15, 15)}), {10, 12});
  ASSERT_TRUE(t.Submit(BuyMove("aria", 4)).ok());
  fb::CommandT walk = Cmd("aria", "move");
  for (int x = 6; x <= 10; ++x) walk.path.emplace_back(x, 5);
  ASSERT_TRUE(t.Submit(walk).ok());
  EXPECT_EQ(Ap(t.state(), "aria"), 3);
  fb::CommandT j = Cmd("aria", "jump");
  for (int x = 11; x <= 14; ++x) j.path.emplace_back(x, 5);
  auto jumped = t.Submit(j, {10});
  ASSERT_TRUE(jumped.ok()) << jumped.status();
  EXPECT_EQ(kernel::testing::NumOf(*jumped, "run_up"), 1);  // her Speed, in the numbers
  EXPECT_EQ(kernel::testing::NumOf(*jumped, "result"), 15);
  EXPECT_EQ(Ap(t.state(), "aria"), 3);
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{14, 5}));
  EXPECT_EQ(t.state().Find("aria")->Resource(res::kMovePool), 0);
}

// 001 l.189: Rebuff's trigger, "A creature you can see attempts to approach
// closer than your weapon's optimal reach", and l.190 "before it moves": a
// long jump into the orc's reach (the axe's 1 yd: (7,5) is 1 yd from (8,5))
// waits for its answer before the roll (l.177). The Rebuff misses (d20 5 +
// 2 = 7 < aria's melee Defense 13); the jump then takes place: Str 2 +
// Athletics 2 + d20 10 = 14, no run-up: halved, 7 feet = 2 yd (l.177): it
// lands on (7,5); 2 yd lacking: 1 AP (l.178).
TEST(Jump, AJumpIntoReachWaitsForTheRebuff) {
  Table t(WoundSlots(), Roster({Aria(5, 5), Orc("orc", 8, 5)}), {10, 12});
  fb::CommandT j = Cmd("aria", "jump");
  j.path = {fb::Pos(6, 5), fb::Pos(7, 5)};
  auto declared = t.Submit(j);
  ASSERT_TRUE(declared.ok()) << declared.status();
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{5, 5}));  // not yet in the air
  ASSERT_EQ(t.state().windows.size(), 1u);
  EXPECT_EQ(t.state().windows.begin()->second.eligible, (std::vector<std::string>{"orc"}));
  EXPECT_TRUE(kernel::testing::Cites(*declared, "001.act.rebuff"));
  fb::CommandT rb = Answer(t, "orc", "rebuff", "aria");
  auto answered = t.Submit(rb, {5, 10});
  ASSERT_TRUE(answered.ok()) << answered.status();
  EXPECT_TRUE(t.state().windows.empty());
  EXPECT_EQ(kernel::testing::NumOf(*answered, "result"), 7);
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{7, 5}));
  EXPECT_EQ(Ap(t.state(), "aria"), 6);
  EXPECT_EQ(Ap(t.state(), "orc"), 4);  // the Rebuff's 2 AP
}

// 001 l.271 "passing the check will reduce the AP cost of the action by 1
// at the cost of 1 stamina", l.178: a jump's AP buy the movement its path
// lacks. Aria's jump from (5,5) to (8,5), into the orc's reach (9,5), lacks
// 3 yd: 2 AP (4 yd at rate 9, l.143). Performed more quickly: Dex 3 + d20 5
// = 8 >= 5: 1 AP less (at least 1). It waits for the orc (l.189), who
// passes; the jump, d20 20 + 4 = 24, halved 12 feet = 4 yd (l.177), lands
// on (8,5): the 2 AP's 4 yd were bought, for 1 AP paid; pool 4 - 3 = 1.
TEST(Jump, AQuickerJumpHeldForARebuffStillBuysItsWholePath) {
  Table t(WoundSlots(), Roster({Aria(5, 5), Orc("orc", 9, 5)}), {10, 12});
  fb::CommandT j = Cmd("aria", "jump");
  j.path = {fb::Pos(6, 5), fb::Pos(7, 5), fb::Pos(8, 5)};
  With(j, "faster_tn", 5);
  ASSERT_TRUE(t.Submit(j, {5}).ok());
  ASSERT_EQ(t.state().windows.size(), 1u);
  fb::CommandT pass = Cmd("orc", "pass");
  pass.window = t.state().windows.begin()->first;
  auto jumped = t.Submit(pass, {20});
  ASSERT_TRUE(jumped.ok()) << jumped.status();
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{8, 5}));
  EXPECT_EQ(Ap(t.state(), "aria"), 7 - 1);
  EXPECT_EQ(t.state().Find("aria")->Resource(res::kMovePool), 1);
  EXPECT_EQ(t.state().Find("aria")->Resource(res::kStamina), 10 - 1);
}

// A jump that stays out of every hostile's reach opens no window.
TEST(Jump, AJumpOutsideReachIsNotRebuffed) {
  Table t(WoundSlots(), Roster({Aria(5, 5), Orc("orc", 9, 5)}), {10, 12});
  fb::CommandT j = Cmd("aria", "jump");
  j.path = {fb::Pos(6, 5), fb::Pos(7, 5)};
  auto jumped = t.Submit(j, {10});
  ASSERT_TRUE(jumped.ok()) << jumped.status();
  EXPECT_TRUE(t.state().windows.empty());
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{7, 5}));
}

// 001 l.177: "If you moved at least 5 yards leading up to the jump, you
// use your normal result and add your Speed": the yards of an earlier jump
// are moved too (l.178: a jump is movement). Aria buys 4 AP (9 yd, l.143),
// walks 2 yd, jumps 3: d20 20 + 4 = 24, 2 yd moved: halved, 12 feet = 4 yd,
// she lands on (10,5). Then 5 yd are moved: her next jump, d20 2 + 4 = 6 +
// Speed 1 = 7 feet = 2 yd, lands on (12,5) (halved, 3 feet, it would reach
// only (11,5)).
TEST(Jump, AnEarlierJumpsYardsCountTowardTheRunUp) {
  Table t(WoundSlots(), Roster({Aria(5, 5), Orc("orc", 15, 15)}), {10, 12});
  ASSERT_TRUE(t.Submit(BuyMove("aria", 4)).ok());
  fb::CommandT walk = Cmd("aria", "move");
  walk.path = {fb::Pos(6, 5), fb::Pos(7, 5)};
  ASSERT_TRUE(t.Submit(walk).ok());
  fb::CommandT j1 = Cmd("aria", "jump");
  j1.path = {fb::Pos(8, 5), fb::Pos(9, 5), fb::Pos(10, 5)};
  auto first = t.Submit(j1, {20});
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(kernel::testing::NumOf(*first, "result"), 12);
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{10, 5}));
  fb::CommandT j2 = Cmd("aria", "jump");
  j2.path = {fb::Pos(11, 5), fb::Pos(12, 5)};
  auto second = t.Submit(j2, {2});
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(kernel::testing::NumOf(*second, "run_up"), 1);
  EXPECT_EQ(kernel::testing::NumOf(*second, "result"), 7);
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{12, 5}));
  EXPECT_EQ(t.state().Find("aria")->Resource(res::kMovePool), 9 - 2 - 3 - 2);
}

TEST(Jump, PaidOverTwoTurns) {
  Table t(WoundSlots(), Roster({Aria(1, 5), Orc("orc", 15, 15)}), {10, 12});
  fb::CommandT j = Cmd("aria", "jump");
  for (int x = 2; x <= 17; ++x) j.path.emplace_back(x, 5);
  // 16 yd lacking: 4 AP buy 9, 4 more 18: 8 AP > 7: declared and paid over
  // its turns (l.178).
  ASSERT_TRUE(t.Submit(j).ok());
  ASSERT_EQ(t.state().pending.size(), 1u);
  EXPECT_EQ(t.state().pending.begin()->second.cost_due, 8);
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  // Round 2, aria's turn: the last AP is paid and the jump takes place:
  // d20 20 + 4 = 24, halved 12 feet = 4 yd.
  ASSERT_TRUE(t.Submit(Cmd("orc", "end_turn"), {20}).ok());
  EXPECT_TRUE(t.state().pending.empty());
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{5, 5}));
  EXPECT_EQ(Ap(t.state(), "aria"), 13);
}

// 001 l.178: "you can declare your intent to jump and spend all your AP
// until the necessary amount has been spent, at which point the jump takes
// place", and l.189-190 Rebuff's trigger, "A creature you can see attempts
// to approach closer than your weapon's optimal reach ... before it moves":
// the jump paid over turns meets the orc's reach when it takes place. Aria
// (1,5) declares the 16-yard jump (8 AP > 7: paid over turns); at her turn
// in round 2 the last AP is paid (14 - 1 = 13) and, the path entering the
// orc's reach at (5,5) (1 yd from (6,6), its axe's reach 1), the jump waits
// for the orc: its Rebuff, d20 5 + 2 = 7 < aria's melee Defense 13, misses;
// the jump: d20 20 + 4 = 24, halved 12 feet = 4 yd (l.177): (5,5). The 8 AP
// bought 18 yd at rate 9 (l.143, 4 + 4 AP): 18 - 4 = 14 left; she pays
// nothing more. The orc: 18 AP (max) - 2.
TEST(Jump, AJumpPaidOverTurnsWaitsForTheRebuffWhenItTakesPlace) {
  Table t(WoundSlots(), Roster({Aria(1, 5), Orc("orc", 6, 6)}), {10, 12});
  fb::CommandT j = Cmd("aria", "jump");
  for (int x = 2; x <= 17; ++x) j.path.emplace_back(x, 5);
  ASSERT_TRUE(t.Submit(j).ok());
  EXPECT_TRUE(t.state().windows.empty());  // declared: paid over turns, not yet taking place
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  auto started = t.Submit(Cmd("orc", "end_turn"));
  ASSERT_TRUE(started.ok()) << started.status();
  ASSERT_EQ(t.state().windows.size(), 1u);
  EXPECT_EQ(t.state().windows.begin()->second.eligible, (std::vector<std::string>{"orc"}));
  EXPECT_TRUE(kernel::testing::Cites(*started, "001.act.rebuff"));
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{1, 5}));
  EXPECT_EQ(Ap(t.state(), "aria"), 13);
  fb::CommandT rb = Answer(t, "orc", "rebuff", "aria");
  auto answered = t.Submit(rb, {5, 20});
  ASSERT_TRUE(answered.ok()) << answered.status();
  EXPECT_TRUE(t.state().windows.empty());
  EXPECT_TRUE(t.state().pending.empty());
  EXPECT_EQ(kernel::testing::NumOf(*answered, "result"), 12);
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{5, 5}));
  EXPECT_EQ(Ap(t.state(), "aria"), 13);
  EXPECT_EQ(t.state().Find("aria")->Resource(res::kMovePool), 14);
  EXPECT_EQ(Ap(t.state(), "orc"), 16);
}

// 001 l.160: "You may move on another character's turn as if interrupting
// their turn with an action, except it does not lower your initiative"; a
// long jump is movement (l.178). On the orc's turn (17) aria (18) jumps
// from (5,5) to (7,5): 2 yd lacking, 1 AP (rate 9, l.143); d20 10 + 4 = 14,
// halved 7 feet = 2 yd (l.177). Her initiative stays 18.
TEST(Jump, AJumpOnAnothersTurnDoesNotLowerInitiative) {
  Table t(WoundSlots(), Roster({Aria(5, 5), Orc("orc", 15, 15)}), {10, 12});
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.state().IsTurnOf("orc"));
  const int64_t ap = Ap(t.state(), "aria");
  fb::CommandT j = Cmd("aria", "jump");
  j.path = {fb::Pos(6, 5), fb::Pos(7, 5)};
  auto jumped = t.Submit(j, {10});
  ASSERT_TRUE(jumped.ok()) << jumped.status();
  EXPECT_EQ(t.state().Find("aria")->at, (Pos{7, 5}));
  EXPECT_EQ(Init(t.state(), "aria"), 18);
  EXPECT_EQ(Ap(t.state(), "aria"), ap - 1);
}

// 001 l.179 "Landing in difficult terrain or on a slippery surface
// requires a Dex [Acrobatics/Balance] check to remain standing. ... TNs for
// both checks are set by the GM". Aria (Dex 3, no Acrobatics) buys 4 AP (9
// yd) and jumps (6,5), (7,5) into mud (l.169): d20 20 + 4 = 24, halved 12
// feet = 4 yd, she lands on (7,5). The GM's TN 12: d20 8 + 3 = 11 < 12, she
// falls prone; d20 9 + 3 = 12 >= 12, she stays standing. Without a TN the
// check is due (recorded), nothing rolled, she lands standing.
TEST(Jump, LandingInDifficultTerrainCallsForABalanceCheck) {
  for (const auto& [die, prone] : std::vector<std::pair<int, bool>>{{8, true}, {9, false}, {0, false}}) {
    fb::RosterT r = Roster({Aria(5, 5), Orc("orc", 15, 15)});
    auto cell = std::make_unique<fb::CellT>();
    cell->at = std::make_unique<fb::Pos>(7, 5);
    cell->terrain = "mud";
    r.map->cells.push_back(std::move(cell));
    Table t(WoundSlots(), r, {10, 12});
    ASSERT_TRUE(t.Submit(BuyMove("aria", 4)).ok());
    fb::CommandT j = Cmd("aria", "jump");
    j.path = {fb::Pos(6, 5), fb::Pos(7, 5)};
    if (die != 0) With(j, "landing_tn", 12);
    auto jumped = die != 0 ? t.Submit(j, {20, die}) : t.Submit(j, {20});
    ASSERT_TRUE(jumped.ok()) << jumped.status();
    EXPECT_EQ(t.state().Find("aria")->at, (Pos{7, 5}));
    EXPECT_EQ(t.state().Find("aria")->Has("Prone"), prone) << die;
    EXPECT_EQ(kernel::testing::NumOf(*jumped, "tn"), die != 0 ? 12 : -999);
    if (die != 0) { EXPECT_EQ(kernel::testing::NumOf(*jumped, "result"), die + 3); }
    EXPECT_TRUE(kernel::testing::Cites(*jumped, "001.jump.landing"));
  }
}

TEST(Jump, EverySecondDiagonalCountsTwoYards) {
  // 001 l.161: "If you are using a square grid, count every second diagonal
  // movement as 2 yards instead of 1"; l.177: a long jump covers "a distance
  // up to your check result in feet"; l.178: AP buy what the pool lacks.
  // Aria (rate 9, l.143) jumps two diagonal squares from (5,5) with no
  // movement bought: 1 + 2 = 3 yd lacking: 2 AP (1 AP buys 2 yd, 2 AP 4).
  // d20 20 + Str 2 + Athletics 2 = 24, no run-up: halved, 12 feet = 4 yd:
  // she lands on (7,7), 3 yd of her 4 spent: 7 - 2 = 5 AP, 1 yd left.
  {
    Table t(WoundSlots(), Roster({Aria(5, 5), Orc("orc", 15, 15)}), {10, 12});
    fb::CommandT j = Cmd("aria", "jump");
    j.path = {fb::Pos(6, 6), fb::Pos(7, 7)};
    auto jumped = t.Submit(j, {20});
    ASSERT_TRUE(jumped.ok()) << jumped.status();
    EXPECT_EQ(kernel::testing::NumOf(*jumped, "yards"), 3);
    EXPECT_EQ(t.state().Find("aria")->at, (Pos{7, 7}));
    EXPECT_EQ(Ap(t.state(), "aria"), 5);
    EXPECT_EQ(t.state().Find("aria")->Resource(res::kMovePool), 1);
    EXPECT_EQ(t.state().Find("aria")->Resource(res::kDiagonals), 2);
  }
  // Bought 4 AP (9 yd); d20 14 + 4 = 18, halved: 9 feet = 3 yd. Three
  // diagonal squares are 1 + 2 + 1 = 4 yd: she lands on the second, (7,7),
  // 3 yd from (5,5); 9 - 3 = 6 yd left.
  {
    Table t(WoundSlots(), Roster({Aria(5, 5), Orc("orc", 15, 15)}), {10, 12});
    ASSERT_TRUE(t.Submit(BuyMove("aria", 4)).ok());
    fb::CommandT j = Cmd("aria", "jump");
    j.path = {fb::Pos(6, 6), fb::Pos(7, 7), fb::Pos(8, 8)};
    auto jumped = t.Submit(j, {14});
    ASSERT_TRUE(jumped.ok()) << jumped.status();
    EXPECT_EQ(kernel::testing::NumOf(*jumped, "result"), 9);
    EXPECT_EQ(t.state().Find("aria")->at, (Pos{7, 7}));
    EXPECT_EQ(t.state().Find("aria")->Resource(res::kMovePool), 6);
    EXPECT_EQ(Ap(t.state(), "aria"), 3);
  }
}

TEST(Movement, MovementIsBoughtAtAnyTime) {
  // 001 l.160: "You can spend AP to increase your movement pool at any
  // time"; moving on another character's turn is "as if interrupting their
  // turn with an action": it needs the higher initiative. On aria's turn
  // (18) the orc (17, rate 9: Str 3, l.143) buys 4 AP: 9 yd, 6 - 4 = 2 AP,
  // its initiative unchanged; it moves on its own turn.
  Table t(WoundSlots(), Roster({Aria(), Orc("orc", 15, 15)}), {10, 12});
  fb::CommandT buy = Cmd("orc", "buy_move");
  With(buy, "ap", 4);
  auto bought = t.Submit(buy);
  ASSERT_TRUE(bought.ok()) << bought.status();
  EXPECT_EQ(t.state().Find("orc")->Resource(res::kMovePool), 9);
  EXPECT_EQ(Ap(t.state(), "orc"), 2);
  EXPECT_EQ(Init(t.state(), "orc"), 17);
  fb::CommandT step = Cmd("orc", "move");
  step.path = {fb::Pos(14, 15)};
  EXPECT_EQ(t.Submit(step).status().code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(t.Submit(Cmd("aria", "end_turn")).ok());
  ASSERT_TRUE(t.Submit(step).ok());
  EXPECT_EQ(t.state().Find("orc")->Resource(res::kMovePool), 8);
}

// Row by row, each cell checked by hand against the text.
// l.20-30 "Vitality | Moderate | Severe | Critical": {line, Vitality, slots}.
TEST(Tables, SlotsTableRowByRow) {
  struct Row { int line; int64_t vit, moderate, severe, critical; };
  const Row rows[] = {
      {20, -5, 1, 1, 0},
      {21, -4, 1, 1, 1},
      {22, -3, 2, 1, 1},
      {23, -2, 2, 2, 1},
      {24, -1, 3, 2, 1},
      {25, 0, 3, 2, 2},
      {26, 1, 3, 3, 2},
      {27, 2, 4, 3, 2},
      {28, 3, 4, 3, 3},
      {29, 4, 4, 4, 3},
      {30, 5, 5, 4, 3},
  };
  for (const Row& r : rows) {
    Combatant c;
    c.stats["vit"] = r.vit;
    EXPECT_EQ(SlotsFor(c, kModerate), r.moderate) << "l." << r.line;
    EXPECT_EQ(SlotsFor(c, kSevere), r.severe) << "l." << r.line;
    EXPECT_EQ(SlotsFor(c, kCritical), r.critical) << "l." << r.line;
  }
}

// l.113-117: "Speed" (l.113), "Round Start" (l.115), "Turn End" (l.116),
// "Max AP" (l.117), column by column.
TEST(Tables, SpeedTableColumnByColumn) {
  const int64_t speed[] = {-10, -9, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  const int64_t round_start[] = {2, 2, 2, 3, 3, 3, 4, 4, 5, 5, 6, 7, 8, 9, 11, 12, 14, 16, 18, 21, 24};  // l.115
  const int64_t turn_end[] = {1, 1, 2, 2, 2, 3, 3, 4, 4, 5, 6, 7, 8, 9, 10, 12, 14, 16, 18, 21, 24};  // l.116
  const int64_t max_ap[] = {5, 5, 6, 7, 8, 9, 10, 12, 14, 16, 18, 21, 24, 27, 31, 36, 41, 48, 55, 63, 72};  // l.117
  for (int i = 0; i < 21; ++i) {
    EXPECT_EQ(SpeedTable(speed[i]).round_start, round_start[i]) << "l.115, Speed " << speed[i];
    EXPECT_EQ(SpeedTable(speed[i]).turn_end, turn_end[i]) << "l.116, Speed " << speed[i];
    EXPECT_EQ(SpeedTable(speed[i]).max_ap, max_ap[i]) << "l.117, Speed " << speed[i];
  }
}

// l.134-159 Movement: {line, rate, Strength + Size + Athletics from, to,
// yards for 1, 2, 3, 4 AP}; both ends of every band ("-30 or less": -40).
TEST(Tables, MovementTableRowByRow) {
  struct Row { int line; int64_t rate, lo, hi, y1, y2, y3, y4; };
  const Row rows[] = {
      {134, 0, -40, -30, 0, 0, 0, 0},
      {135, 1, -29, -26, 0, 0, 0, 1},
      {136, 2, -25, -22, 0, 1, 1, 2},
      {137, 3, -21, -18, 0, 1, 2, 3},
      {138, 4, -17, -14, 1, 2, 3, 4},
      {139, 5, -13, -10, 1, 2, 3, 5},
      {140, 6, -9, -6, 1, 3, 4, 6},
      {141, 7, -5, -2, 1, 3, 5, 7},
      {142, 8, -1, 2, 2, 4, 6, 8},
      {143, 9, 3, 6, 2, 4, 6, 9},
      {144, 10, 7, 10, 2, 5, 7, 10},
      {145, 11, 11, 14, 2, 5, 8, 11},
      {146, 12, 15, 18, 3, 6, 9, 12},
      {147, 13, 19, 22, 3, 6, 9, 13},
      {148, 14, 23, 26, 3, 7, 10, 14},
      {149, 15, 27, 30, 3, 7, 11, 15},
      {150, 16, 31, 34, 4, 8, 12, 16},
      {151, 17, 35, 38, 4, 8, 12, 17},
      {152, 18, 39, 42, 4, 9, 13, 18},
      {153, 19, 43, 46, 4, 9, 14, 19},
      {154, 20, 47, 50, 5, 10, 15, 20},
      {155, 21, 51, 54, 5, 10, 15, 21},
      {156, 22, 55, 58, 5, 11, 16, 22},
      {157, 23, 59, 62, 5, 11, 17, 23},
      {158, 24, 63, 66, 6, 12, 18, 24},
      {159, 25, 67, 70, 6, 12, 18, 25},
  };
  for (const Row& r : rows) {
    EXPECT_EQ(RateFromScore(r.lo), r.rate) << "l." << r.line;
    EXPECT_EQ(RateFromScore(r.hi), r.rate) << "l." << r.line;
    EXPECT_EQ(YardsFor(r.rate, 1), r.y1) << "l." << r.line;
    EXPECT_EQ(YardsFor(r.rate, 2), r.y2) << "l." << r.line;
    EXPECT_EQ(YardsFor(r.rate, 3), r.y3) << "l." << r.line;
    EXPECT_EQ(YardsFor(r.rate, 4), r.y4) << "l." << r.line;
  }
}

}  // namespace
}  // namespace combat::kernel::wound_slots
