// Height (seed 000 l.57, l.79, l.83): ascending and descending, falling
// 100 ft a Round, a tripped flyer's 50 ft.
#include "gtest/gtest.h"
#include "kernel/d20_three_action/internal.h"
#include "kernel/d20_three_action/test_util.h"

namespace combat::kernel::d20 {
namespace {

using namespace testing;  // NOLINT

// hawk (Speed 30, flight) and gob far away; hawk acts first.
fb::RosterT Sky(int64_t altitude = 0, bool improved = false) {
  fb::CombatantSpecT h = Being("hawk", "party", 0, 0);
  if (altitude > 0) {
    h = Being("hawk", "party", 0, 0, {{"altitude", altitude}});
  }
  fb::RosterT r = MakeRoster({std::move(h), Being("gob", "goblins", 15, 15)});
  Tag(*r.combatants[0], "flight");
  if (altitude > 0) Tag(*r.combatants[0], "flying");
  if (improved) Tag(*r.combatants[0], "improved_flight");
  return r;
}

fb::CommandT Fly(std::vector<std::pair<int, int>> path, int64_t up,
                 int64_t down = 0) {
  fb::CommandT c = MoveTo("hawk", std::move(path));
  With(c, "fly", 1);
  if (up != 0) With(c, "ascend", up);
  if (down != 0) With(c, "descend", down);
  return c;
}

// How many times `events` add or remove the condition `name`.
int AddsAndRemoves(const std::vector<events::EventBuffer>& events,
                   const std::string& name) {
  int n = 0;
  for (const auto& e : events) {
    const auto* sc = e.event().body_as_StateChange();
    if (sc == nullptr) continue;
    if (const auto* a = sc->change_as_ConditionAdded();
        a != nullptr && a->name()->str() == name) {
      ++n;
    }
    if (const auto* r = sc->change_as_ConditionRemoved();
        r != nullptr && r->name()->str() == name) {
      ++n;
    }
  }
  return n;
}

// 000 l.71 "Running - You Move as you choose up to your Speed along the
// ground": the hawk 30 ft up cannot run (was: it walked one square at
// 30 ft, no longer flying, and did not fall); it flies, or dives to 0 ft
// and then runs.
TEST(Height, AFlyerAloftDoesNotRunAlongTheGround) {
  Table t(D20ThreeAction(), Sky(30), {15, 10});
  auto run = t.Submit(MoveTo("hawk", {{1, 0}}));
  EXPECT_EQ(run.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(run.status().message().find("30 ft above the ground"),
            std::string::npos)
      << run.status();
  EXPECT_TRUE(Has(t, "hawk", kFlying));
  EXPECT_EQ(t.state().Find("hawk")->at.x, 0);
  // 30 ft down costs 15 ft, + 15 ft across = 30 ft: its Speed (l.83).
  ASSERT_OK(t.Submit(Fly({{1, 0}, {2, 0}, {3, 0}}, 0, 30)));
  EXPECT_EQ(Res(t, "hawk", kAltitude), 0);
  ASSERT_OK(t.Submit(MoveTo("hawk", {{4, 0}})));  // on the ground: runs
  EXPECT_FALSE(Has(t, "hawk", kFlying));
  EXPECT_EQ(t.state().Find("hawk")->at.x, 4);
}

// 000 l.83: "ascending 5ft requires 10 ft of movement, but descending 10ft
// only requires 5ft of movement" (twice Speed: 60 ft).
TEST(Height, AscendingCostsDoubleAndDescendingHalf) {
  Table t(D20ThreeAction(), Sky(), {15, 10});
  // 15 ft across + 25 ft up (50 ft) = 65 ft > 60.
  auto over = t.Submit(Fly({{1, 0}, {2, 0}, {3, 0}}, 25));
  EXPECT_EQ(over.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(over.status().message().find("costs 65 ft"), std::string::npos)
      << over.status();
  // 10 ft across + 20 ft up (40 ft) = 50 ft.
  auto ev = t.Submit(Fly({{1, 0}, {2, 0}}, 20));
  ASSERT_OK(ev);
  EXPECT_EQ(Res(t, "hawk", kAltitude), 20);
  EXPECT_EQ(NumOf(*ev, "000.fly", "vertical_ft"), 40);
  EXPECT_EQ(t.state().Find("hawk")->FindCondition(kMoving)->level, 10);
  EXPECT_EQ(t.Submit(Fly({{3, 0}}, 7)).status().code(),
            absl::StatusCode::kInvalidArgument);  // not a multiple of 5
  fb::CommandT walk = MoveTo("hawk", {{3, 0}});
  With(walk, "ascend", 5);
  EXPECT_EQ(t.Submit(walk).status().code(),
            absl::StatusCode::kFailedPrecondition);  // only when flying
  EXPECT_EQ(t.Submit(Fly({{3, 0}}, 0, 25)).status().code(),
            absl::StatusCode::kFailedPrecondition);  // only 20 ft up
  // 20 ft across + 15 ft down (5 + 5, rounded up to whole 5 ft) = 30 ft.
  auto down = t.Submit(Fly({{3, 0}, {4, 0}, {5, 0}, {6, 0}}, 0, 15));
  ASSERT_OK(down);
  EXPECT_EQ(NumOf(*down, "000.fly", "vertical_ft"), 10);
  EXPECT_EQ(Res(t, "hawk", kAltitude), 5);
  EXPECT_EQ(t.state().Find("hawk")->FindCondition(kMoving)->level, 30);
  // Down to the ground: it lands.
  ASSERT_OK(t.Submit(Fly({{7, 0}, {8, 0}, {9, 0}, {10, 0}, {11, 0}}, 0, 5)));
  EXPECT_EQ(Res(t, "hawk", kAltitude), 0);
  EXPECT_FALSE(Has(t, "hawk", kFlying));
}

// 000 l.83: "With Improved Flight you do not have to spend additional
// movement to Turn or ascend": 20 ft up costs 20 ft (10 ft across + 20 ft
// up = 30 ft, its Speed: "You must fly at least your Speed").
TEST(Height, ImprovedFlightAscendsWithoutExtraMovement) {
  Table t(D20ThreeAction(), Sky(0, true), {15, 10});
  auto ev = t.Submit(Fly({{1, 0}, {2, 0}}, 20));
  ASSERT_OK(ev);
  EXPECT_EQ(NumOf(*ev, "000.fly", "vertical_ft"), 20);
  EXPECT_EQ(Res(t, "hawk", kAltitude), 20);
  EXPECT_EQ(t.state().Find("hawk")->FindCondition(kMoving)->level, 30);
}

// 000 l.83: "You must fly at least your Speed. ... With Improved Flight
// you do not have to spend additional movement to Turn or ascend and hover
// in place if you do not spend an Action to fly on your Turn": Improved
// Flight lifts the extra feet and lets it hover without flying, not the
// least distance of a flight it spends an Action on (a 25 ft flight of an
// improved flyer, Speed 30, used to be taken).
TEST(Height, ImprovedFlightStillFliesAtLeastItsSpeed) {
  Table t(D20ThreeAction(), Sky(0, true), {15, 10});
  auto short_flight = t.Submit(Fly({{1, 0}}, 20));  // 5 + 20 = 25 ft < 30
  EXPECT_EQ(short_flight.status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(short_flight.status().message().find("at least its Speed"),
            std::string::npos)
      << short_flight.status();
  ASSERT_OK(t.Submit(Fly({{1, 0}, {2, 0}, {3, 0}, {4, 0}, {5, 0}, {6, 0}},
                         0)));  // 30 ft
  // Not flying on its turn, it hovers (no fall).
  ASSERT_OK(t.Submit(Cmd("hawk", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("hawk", "end_turn")));
  EXPECT_TRUE(Has(t, "hawk", kFlying));
  EXPECT_FALSE(Has(t, "hawk", kFalling));
  EXPECT_FALSE(Has(t, "hawk", kFallPending));
}

// 000 l.79: "Creatures fall 100ft a Round starting as soon as they are
// unsupported ... If Falling a distance greater than 100 ft they continue
// Falling at the start of each of their Turns"; l.83: "If you do not spend
// an Action on your Turn to fly you fall as normal". The fall Damage owed
// (`fall_pending`) counts l.79's "the distance they fell up to a maximum of
// 100ft": 250 ft fallen, 100 ft of fall Damage.
TEST(Height, AFallDrops100FtARoundUntilTheGround) {
  Table t(D20ThreeAction(), Sky(250), {15, 10});
  EXPECT_EQ(Res(t, "hawk", kAltitude), 250);
  ASSERT_OK(t.Submit(Cmd("hawk", "end_turn")));  // did not fly
  EXPECT_EQ(Res(t, "hawk", kAltitude), 150);
  EXPECT_TRUE(Has(t, "hawk", kFalling));
  EXPECT_EQ(t.state().Find("hawk")->FindCondition(kFallPending)->level, 100);
  EXPECT_EQ(Res(t, "hawk", kFallFt), 100);
  const uint32_t owed_id =
      t.state().Find("hawk")->FindCondition(kFallPending)->id;
  auto second = t.Submit(Cmd("gob", "end_turn"));  // hawk's turn starts
  ASSERT_OK(second);
  EXPECT_EQ(Res(t, "hawk", kAltitude), 50);
  EXPECT_EQ(Res(t, "hawk", kFallFt), 200);
  EXPECT_EQ(t.state().Find("hawk")->FindCondition(kFallPending)->level, 100);
  // Past 100 ft nothing more is owed: the log neither removes nor re-adds
  // `fall_pending` at the same level (open point of pass 6).
  EXPECT_EQ(AddsAndRemoves(*second, kFallPending), 0);
  ASSERT_OK(t.Submit(Cmd("hawk", "end_turn")));
  auto landing = t.Submit(Cmd("gob", "end_turn"));
  ASSERT_OK(landing);
  EXPECT_EQ(AddsAndRemoves(*landing, kFallPending), 0);
  EXPECT_EQ(t.state().Find("hawk")->FindCondition(kFallPending)->id, owed_id);
  EXPECT_EQ(Res(t, "hawk", kAltitude), 0);  // the ground
  EXPECT_FALSE(Has(t, "hawk", kFalling));
  EXPECT_EQ(t.state().Find("hawk")->FindCondition(kFallPending)->level, 100);
  EXPECT_EQ(Res(t, "hawk", kFallFt), 0);  // the fall is over
}

// 000 l.156 "A Creature may put out the fire ... by entering a body of
// water" with l.79 "Landing in water" and l.83 "If you do not spend an
// Action on your Turn to fly you fall as normal": the hawk, On fire, 50 ft
// over a water square, ends its turn without flying: it falls the 50 ft
// into the water and the fire is out; at its next turn start nothing
// burns, 20 HP kept (was: put out only by the GM, it burned 2d6).
TEST(Height, AFlyerThatFallsIntoWaterIsPutOut) {
  fb::RosterT r = Sky(50);
  Terrain(r, 0, 0, "water");
  Table t(D20ThreeAction(), r, {15, 10});
  GmAdd(t, "hawk", "on_fire");
  ASSERT_OK(t.Submit(Cmd("hawk", "end_turn")));  // did not fly
  EXPECT_EQ(Res(t, "hawk", kAltitude), 0);
  EXPECT_FALSE(Has(t, "hawk", kOnFire));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));  // no die: no fire roll
  EXPECT_EQ(Res(t, "hawk", kHp), 20);
}

// The same landing by a dive (l.83 "descending 10ft only requires 5ft of
// movement"): the hawk 10 ft over the water descends 10 ft into it.
TEST(Height, AFlyerThatDivesIntoWaterIsPutOut) {
  fb::RosterT r = Sky(10);
  Terrain(r, 1, 0, "water");
  Table t(D20ThreeAction(), r, {15, 10});
  GmAdd(t, "hawk", "on_fire");
  ASSERT_OK(t.Submit(Fly({{1, 0}, {2, 0}, {3, 0}, {4, 0}, {5, 0}, {6, 0}}, 0)));
  ASSERT_TRUE(Has(t, "hawk", kOnFire));  // over the water, through the air
  ASSERT_OK(t.Submit(Fly({{5, 0}, {4, 0}, {3, 0}, {2, 0}, {1, 0}}, 0, 10)));
  EXPECT_EQ(Res(t, "hawk", kAltitude), 0);
  EXPECT_FALSE(Has(t, "hawk", kOnFire));
}

// 000 l.79 "the distance they fell up to a maximum of 100ft": the GM who
// applied the 100 ft owed and removed `fall_pending` in the air owes nothing
// more for the rest of that fall (no `fall_pending` of level 0, which would
// say "an unknown height").
TEST(Height, NothingMoreIsOwedPast100FtOnceTheGmAppliedIt) {
  Table t(D20ThreeAction(), Sky(250), {15, 10});
  ASSERT_OK(t.Submit(Cmd("hawk", "end_turn")));  // 250 -> 150: 100 ft owed
  fb::CommandT applied = Gm("hawk", "gm_condition", "fall damage applied");
  WithText(applied, "name", "fall_pending");
  WithText(applied, "op", "remove");
  ASSERT_OK(t.Submit(applied));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));  // 150 -> 50
  EXPECT_FALSE(Has(t, "hawk", kFallPending));
  ASSERT_OK(t.Submit(Cmd("hawk", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));  // 50 -> 0
  EXPECT_EQ(Res(t, "hawk", kAltitude), 0);
  EXPECT_FALSE(Has(t, "hawk", kFallPending));
}

// 000 l.79 "up to a maximum of 100ft" with l.57 "On a Critical Success the
// target takes fall Damage as if they had fallen from 10 ft. (in addition
// to any other fall Damage they would take)": a flyer tripped critically at
// 200 ft drops 50 ft (50 + 10 owed), then 100 ft at its turn start (150 ft
// fallen: 100 count) and 50 ft more: owed 100 + 10 = 110.
TEST(Height, AFallCountsAtMost100FtPlusACriticalTripsTen) {
  fb::CombatantSpecT a = Being("aria", "party", 0, 0);
  Arm(a, "spear", "1d8", "melee");
  fb::CombatantSpecT h = Being("hawk", "goblins", 1, 0, {{"altitude", 200}});
  fb::RosterT r = MakeRoster({std::move(a), std::move(h)});
  Tag(*r.combatants[1], "flight");
  Tag(*r.combatants[1], "flying");
  Table t(D20ThreeAction(), r, {15, 10});
  // Opposed: 18 + 1 + 3 = 22 against 2 + 1 + 3 = 6: critical.
  ASSERT_OK(t.Submit(Cmd("aria", "trip", {"hawk"}), {18, 2}));
  EXPECT_EQ(Res(t, "hawk", kAltitude), 150);
  EXPECT_EQ(t.state().Find("hawk")->FindCondition(kFallPending)->level, 60);
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));  // hawk's turn: 150 -> 50
  EXPECT_EQ(Res(t, "hawk", kAltitude), 50);
  EXPECT_EQ(t.state().Find("hawk")->FindCondition(kFallPending)->level, 110);
  ASSERT_OK(t.Submit(Cmd("hawk", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));  // 50 -> 0: 200 ft fallen
  EXPECT_EQ(Res(t, "hawk", kAltitude), 0);
  EXPECT_EQ(t.state().Find("hawk")->FindCondition(kFallPending)->level, 110);
}

// 000 l.101: "Falling on the ground means you'll have the "Prone"
// condition"; l.83 "If you do not spend an Action on your Turn to fly you
// fall as normal": a flyer that falls to the ground lands Prone, from a
// known height (250 -> 150 in the air, not yet Prone) or an unknown one
// (only a Trip knocked Prone before).
TEST(Height, AFlyerThatFallsToTheGroundIsProne) {
  Table t(D20ThreeAction(), Sky(150), {15, 10});
  ASSERT_OK(t.Submit(Cmd("hawk", "end_turn")));  // did not fly: 150 -> 50
  EXPECT_TRUE(Has(t, "hawk", kFalling));
  EXPECT_FALSE(Has(t, "hawk", kProne));  // still in the air
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));  // 50 -> 0: the ground
  EXPECT_EQ(Res(t, "hawk", kAltitude), 0);
  EXPECT_TRUE(Has(t, "hawk", kProne));
  Table u(D20ThreeAction(), Sky(0), {15, 10});
  ASSERT_OK(u.Submit(Fly({{1, 0}, {2, 0}, {3, 0}, {4, 0}, {5, 0}, {6, 0}}, 0)));
  ASSERT_OK(u.Submit(Cmd("hawk", "end_turn")));
  ASSERT_OK(u.Submit(Cmd("gob", "end_turn")));
  ASSERT_OK(u.Submit(Cmd("hawk", "end_turn")));  // did not fly: unknown height
  EXPECT_TRUE(Has(u, "hawk", kFallPending));
  EXPECT_TRUE(Has(u, "hawk", kProne));
}

// l.83: a falling flyer that flies again stops falling.
TEST(Height, FlyingAgainStopsTheFall) {
  Table t(D20ThreeAction(), Sky(250), {15, 10});
  ASSERT_OK(t.Submit(Cmd("hawk", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));  // 250 -> 150 -> 50
  ASSERT_OK(t.Submit(Fly({{1, 0}, {2, 0}, {3, 0}, {4, 0}, {5, 0}, {6, 0}}, 0)));
  EXPECT_FALSE(Has(t, "hawk", kFalling));
  EXPECT_TRUE(Has(t, "hawk", kFlying));
  ASSERT_OK(t.Submit(Cmd("hawk", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  EXPECT_EQ(Res(t, "hawk", kAltitude), 50);
}

// 000 l.79: "Any time a Creature would fall they may make a Climb Check as
// a Reaction to Grab a nearby surface if possible": a success stops the
// fall where it is.
TEST(Height, AClimbReactionStopsTheFall) {
  Table t(D20ThreeAction(), Sky(250), {15, 10});
  ASSERT_OK(t.Submit(Cmd("hawk", "end_turn")));  // 250 -> 150
  fb::CommandT climb = Cmd("hawk", "use_skill");
  WithText(climb, "skill", "climb");
  With(climb, "dc", 15);
  With(climb, "bonus", 2);
  With(climb, "reaction", 1);
  ASSERT_OK(t.Submit(climb, {12}));  // 14 < 15: still falling
  EXPECT_TRUE(Has(t, "hawk", kFalling));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));  // 150 -> 50
  ASSERT_OK(t.Submit(Cmd("hawk", "end_turn")));
  ASSERT_OK(t.Submit(climb, {13}));  // 15 >= 15: holds on
  EXPECT_FALSE(Has(t, "hawk", kFalling));
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  EXPECT_EQ(Res(t, "hawk", kAltitude), 50);
  // 200 ft fallen, 100 ft of fall Damage (l.79 "up to a maximum of 100ft").
  EXPECT_EQ(t.state().Find("hawk")->FindCondition(kFallPending)->level, 100);
}

// 000 l.19 "Every Creature gets 1 Reaction per Round starting on their Turn
// and expiring the start of their next Turn", l.164 "A Stunned Creature can
// take no Actions, Reactions or Free Actions": the hawk, Stunned for 1 Round
// in gob's round-1 Turn, has its round-2 Turn Stunned; the stun ends at
// gob's round-2 turn start (l.13), and the Reaction the hawk got on its
// Turn is still its own until its next Turn: it grabs a surface (l.79)
// (was: a Turn that started Stunned got no Reaction, refused).
TEST(Height, AReactionGotWhileStunnedIsUsableOnceTheStunEnds) {
  Table t(D20ThreeAction(), Sky(2000), {15, 10});
  ASSERT_OK(t.Submit(Cmd("hawk", "end_turn")));  // no flight: falls
  fb::CommandT stun = Gm("hawk", "gm_condition", "a stunning blow");
  WithText(stun, "name", "stunned");
  WithText(stun, "op", "add");
  With(stun, "rounds", 1);
  ASSERT_OK(t.Submit(stun));  // in gob's round-1 Turn
  ASSERT_OK(t.Submit(Cmd("gob", "end_turn")));
  EXPECT_TRUE(Has(t, "hawk", kStunned));  // its round-2 Turn
  fb::CommandT climb = Cmd("hawk", "use_skill");
  WithText(climb, "skill", "climb");
  With(climb, "dc", 15);
  With(climb, "bonus", 2);
  With(climb, "reaction", 1);
  EXPECT_FALSE(t.Submit(climb, {13}).ok());  // Stunned: no Reaction
  ASSERT_OK(t.Submit(Cmd("hawk", "end_turn")));
  EXPECT_FALSE(Has(t, "hawk", kStunned));  // ended at gob's turn start
  EXPECT_EQ(Res(t, "hawk", kReactions), 1);
  ASSERT_OK(t.Submit(climb, {13}));  // 15 >= 15: holds on
  EXPECT_FALSE(Has(t, "hawk", kFalling));
  EXPECT_EQ(Res(t, "hawk", kReactions), 0);
}

// 000 l.57: "Flying Creatures fall 50ft (or until they hit the ground). On
// a Critical Success the target takes fall Damage as if they had fallen
// from 10 ft".
TEST(Height, ATrippedFlyerFalls50FtOrToTheGround) {
  for (const auto& [alt, dice, left, owed] :
       std::vector<std::tuple<int64_t, std::vector<int>, int64_t, int64_t>>{
           {30, {18, 2}, 0, 40},    // critical: 30 ft to the ground + 10
           {80, {12, 5}, 30, 50}}) {  // 50 ft; 30 ft still to fall
    fb::CombatantSpecT a = Being("aria", "party", 0, 0);
    Arm(a, "spear", "1d8", "melee");
    fb::CombatantSpecT h = Being("hawk", "goblins", 1, 0, {{"altitude", alt}});
    fb::RosterT r = MakeRoster({std::move(a), std::move(h)});
    Tag(*r.combatants[1], "flight");
    Tag(*r.combatants[1], "flying");
    Table t(D20ThreeAction(), r, {15, 10});
    fb::CommandT trip = Cmd("aria", "trip", {"hawk"});
    ASSERT_OK(t.Submit(trip, dice));
    EXPECT_EQ(Res(t, "hawk", kAltitude), left) << alt;
    EXPECT_FALSE(Has(t, "hawk", kFlying));
    EXPECT_EQ(Has(t, "hawk", kFalling), left > 0);
    EXPECT_EQ(t.state().Find("hawk")->FindCondition(kFallPending)->level, owed);
    if (left > 0) {
      ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));  // hawk's turn: l.79
      EXPECT_EQ(Res(t, "hawk", kAltitude), 0);
      EXPECT_EQ(t.state().Find("hawk")->FindCondition(kFallPending)->level, 80);
    }
  }
}

// seed 000 l.57 "Flying Creatures fall 50ft ... On a Critical Success the
// target takes fall Damage as if they had fallen from 10 ft. (in addition to
// any other fall Damage they would take)" with l.79 "Creatures fall 100ft a
// Round ... continue Falling at the start of each of their Turns" and "up to
// a maximum of 100ft" (README reading, black-box pass 8: each turn start
// drops 100 ft; the Trip's 50 ft come before). A hawk 300 ft up, tripped
// critically by aria (22 vs 6) before its Turn in Round 1:
//   Trip:                 300 - 50 = 250 ft, owed 50 + 10 = 60
//   hawk's start, Round 1: 250 - 100 = 150, fallen 150, owed 60 + (100 - 50) = 110
//   hawk's start, Round 2: 150 - 100 = 50, owed still 110 (100 ft counted)
//   hawk's start, Round 3: 50 - 50 = 0: on the ground, Prone, owed 110.
TEST(Height, ATrippedFlyerHighUpFallsFiftyThenAHundredAtEachTurnStart) {
  fb::CombatantSpecT a = Being("aria", "party", 0, 0);
  Arm(a, "spear", "1d8", "melee");
  fb::CombatantSpecT h = Being("hawk", "goblins", 1, 0, {{"altitude", 300}});
  fb::RosterT r = MakeRoster({std::move(a), std::move(h)});
  Tag(*r.combatants[1], "flight");
  Tag(*r.combatants[1], "flying");
  Table t(D20ThreeAction(), r, {15, 10});
  ASSERT_OK(t.Submit(Cmd("aria", "trip", {"hawk"}), {18, 2}));
  EXPECT_EQ(Res(t, "hawk", kAltitude), 250);
  EXPECT_EQ(t.state().Find("hawk")->FindCondition(kFallPending)->level, 60);
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  EXPECT_EQ(Res(t, "hawk", kAltitude), 150);
  EXPECT_EQ(Res(t, "hawk", kFallFt), 150);
  EXPECT_EQ(t.state().Find("hawk")->FindCondition(kFallPending)->level, 110);
  ASSERT_OK(t.Submit(Cmd("hawk", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  EXPECT_EQ(Res(t, "hawk", kAltitude), 50);
  EXPECT_EQ(t.state().Find("hawk")->FindCondition(kFallPending)->level, 110);
  ASSERT_OK(t.Submit(Cmd("hawk", "end_turn")));
  ASSERT_OK(t.Submit(Cmd("aria", "end_turn")));
  EXPECT_EQ(Res(t, "hawk", kAltitude), 0);
  EXPECT_FALSE(Has(t, "hawk", kFalling));
  EXPECT_TRUE(Has(t, "hawk", kProne));
  EXPECT_EQ(t.state().Find("hawk")->FindCondition(kFallPending)->level, 110);
}

}  // namespace
}  // namespace combat::kernel::d20
