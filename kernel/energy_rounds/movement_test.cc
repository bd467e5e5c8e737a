// Movement and simple acts (l.21-41, l.27, l.402-410, l.674).
// kara: Speed 6 (Medium, l.442), sprint_extra 2.
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "kernel/energy_rounds/test_util.h"

namespace combat::kernel::energy::testutil {
namespace {

fb::RosterT Field(Stats extra = {}, std::vector<std::string> tags = {}) {
  std::vector<fb::CombatantSpecT> cs;
  Stats kara = {{"con_score", 12}, {"sprint_extra", 2}, {"facing", 2}};
  for (auto& s : extra) kara.push_back(s);
  cs.push_back(Who("kara", "party", 2, 5, kara, {}, tags));
  cs.push_back(Who("orc", "orcs", 15, 15, {{"con_score", 14}}));
  fb::RosterT r = Roster(std::move(cs));
  auto wall = std::make_unique<fb::CellT>();
  wall->at = std::make_unique<fb::Pos>(2, 3);
  wall->terrain = "wall";
  r.map->cells.push_back(std::move(wall));
  return r;
}

fb::CommandT Move(const std::string& verb, std::vector<std::pair<int, int>> squares) {
  auto c = Cmd("kara", verb);
  Path(c, std::move(squares));
  return Now(c);
}

const Combatant& K(const Table& t) { return *t.state().Find("kara"); }

TEST(Movement, ShiftForEnergyOrAgility) {
  Table t(EnergyRounds(), Field());
  ASSERT_TRUE(t.Submit(Move("shift", {{3, 5}})).ok());
  EXPECT_EQ(K(t).Resource("energy"), 4);
  auto c = Move("shift", {{4, 5}});
  With(c, "agility", 1);
  ASSERT_TRUE(t.Submit(c).ok());
  EXPECT_EQ(K(t).Resource("agility"), 1);  // 2 Agility (l.21)
  EXPECT_EQ(t.Submit(Move("shift", {{5, 5}, {6, 5}})).status().code(),
            absl::StatusCode::kInvalidArgument);
  // 002 l.90: "At the beginning of each Round, your Agility pool resets to
  // your Maximum Agility" (3, l.88).
  ASSERT_TRUE(t.Submit(Gm("end_round")).ok());
  EXPECT_EQ(K(t).Resource("agility"), 3);
  EXPECT_EQ(K(t).Resource("energy"), 5);
  ExpectRulesKnown(t.log());
}

// The metres a creature moves are counted twice, each for the line that
// reads them: the Round's (`moved_m`), for l.35 "This defense bonus lasts
// until you ... move more than your Speed during a Round", and the
// back-to-back movement's (`move_streak`), for l.27 "This applies to
// back-to-back movement actions" (a Jump "immediately after having moved
// at least 2m", l.31). Each change cites that line: before, the Round's
// metres cited `002.defend` (Defend's cost) and the streak `002.move.jump`
// (the Jump's cost) even with no Defend nor Jump in sight.
TEST(Movement, MetresMovedCiteTheLinesThatCountThem) {
  Table t(EnergyRounds(), Field());
  auto ran = t.Submit(Move("run", {{3, 5}, {4, 5}}));
  ASSERT_TRUE(ran.ok()) << ran.status();
  EXPECT_EQ(K(t).Resource("moved_m"), 2);
  EXPECT_EQ(K(t).Resource("move_streak"), 2);
  EXPECT_EQ(RulesOfResource(*ran, "kara", "moved_m"),
            std::vector<std::string>{"002.move.round_metres"});
  EXPECT_EQ(RulesOfResource(*ran, "kara", "move_streak"),
            std::vector<std::string>{"002.move.back_to_back"});
  const RuleRef* metres = nullptr;
  const RuleRef* streak = nullptr;
  for (const RuleRef& r : RuleTable()) {
    if (r.id == "002.move.round_metres") metres = &r;
    if (r.id == "002.move.back_to_back") streak = &r;
  }
  ASSERT_NE(metres, nullptr);
  ASSERT_NE(streak, nullptr);
  EXPECT_EQ(metres->line, 35);
  EXPECT_EQ(streak->line, 27);
  // A new Round: its metres start again (l.35 "during a Round"); the
  // back-to-back movement goes on over the Round's end (reading 4).
  auto next = t.Submit(Gm("end_round"));
  ASSERT_TRUE(next.ok()) << next.status();
  EXPECT_EQ(K(t).Resource("moved_m"), 0);
  EXPECT_EQ(K(t).Resource("move_streak"), 2);
  EXPECT_EQ(RulesOfResource(*next, "kara", "moved_m"),
            std::vector<std::string>{"002.move.round_metres"});
  // A non-movement act ends the back-to-back movement (l.27).
  auto c = Cmd("kara", "defend");
  auto defended = t.Submit(Now(c));
  ASSERT_TRUE(defended.ok()) << defended.status();
  EXPECT_EQ(K(t).Resource("move_streak"), 0);
  EXPECT_EQ(RulesOfResource(*defended, "kara", "move_streak"),
            std::vector<std::string>{"002.move.back_to_back"});
  ExpectRulesKnown(t.log());
}

// 002 l.47: "Once per Round, you may spend 1 Stamina when you would
// normally spend 1 Energy": a Shift so paid costs no Energy, and says so.
TEST(Movement, AShiftPaidWithStaminaSaysSo) {
  Table t(EnergyRounds(), Field());
  const int64_t stamina = K(t).Resource("stamina");
  auto c = Move("shift", {{3, 5}});
  With(c, "stamina_energy", 1);
  auto ev = t.Submit(c);
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(K(t).Resource("energy"), 5);
  EXPECT_EQ(K(t).Resource("stamina"), stamina - 1);
  EXPECT_EQ(kernel::testing::LastOutcome(*ev), "shifted 1 m for 1 Stamina (as Energy, l.47)");
}

TEST(Movement, RunCostsItsShareOfSpeed) {
  Table t(EnergyRounds(), Field());
  ASSERT_TRUE(t.Submit(Move("run", {{3, 5}, {4, 5}, {5, 5}, {6, 5}})).ok());
  EXPECT_EQ(K(t).Resource("energy"), 3);  // 4 of 6 m: 2 Energy (Quick Run, l.11)
  EXPECT_EQ(K(t).at, (Pos{6, 5}));
  EXPECT_EQ(K(t).Resource("moved_m"), 4);
}

// 002 l.674 "Slowed: Your Speed is halved (the Speed left is rounded up)
// and you may not use Agility": a Small creature's Speed 5 (l.443) is 3
// Slowed (5 / 2 = 2.5, up), so a Run of 3 m costs its full 3 Energy
// (l.23), one of 4 m is refused, and neither a Shift for 2 Agility (l.21)
// nor an Agile Move (l.29) may be made.
TEST(Movement, SlowedSmallCreatureRunsThreeMetresAndUsesNoAgility) {
  Table t(EnergyRounds(), Field({}, {"small"}));
  ASSERT_TRUE(t.status().ok()) << t.status();
  ASSERT_TRUE(t.Submit(GmAdds("kara", "Slowed")).ok());
  EXPECT_EQ(Speed(K(t)), 3);
  auto far = t.Submit(Move("run", {{3, 5}, {4, 5}, {5, 5}, {6, 5}}));
  EXPECT_EQ(far.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(std::string(far.status().message()).find("Speed 3"), std::string::npos) << far.status();
  auto shift = Move("shift", {{3, 5}});
  With(shift, "agility", 1);
  EXPECT_EQ(t.Submit(shift).status().code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(t.Submit(Move("run", {{3, 5}, {4, 5}, {5, 5}})).ok());
  EXPECT_EQ(K(t).Resource("energy"), 2);  // 3 m of Speed 3: 3 Energy
  auto defend = Cmd("kara", "defend");
  ASSERT_TRUE(t.Submit(Now(defend)).ok());  // 1 Energy on a non-movement act
  EXPECT_EQ(K(t).Resource("agile_credit"), 1);
  auto agile = t.Submit(Move("agile_move", {{5, 4}}));
  EXPECT_EQ(agile.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(std::string(agile.status().message()).find("Slowed"), std::string::npos) << agile.status();
  EXPECT_EQ(K(t).Resource("agility"), 3);
}

TEST(Movement, RunNoFurtherThanSpeed) {
  Table t(EnergyRounds(), Field());
  auto r = t.Submit(Move("run", {{3, 5}, {4, 5}, {5, 5}, {6, 5}, {7, 5}, {8, 5}, {9, 5}}));
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(Movement, TurningCostsMetres) {
  Table t(EnergyRounds(), Field());
  // East 3 then south 3: one 90-degree turn, 1 m (l.27): 7 m > 6 - 1.
  auto r = t.Submit(Move("run", {{3, 5}, {4, 5}, {5, 5}, {5, 6}, {5, 7}, {5, 8}}));
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition);
  auto ok = t.Submit(Move("run", {{3, 5}, {4, 5}, {5, 5}, {5, 6}, {5, 7}}));
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ(NumOf(*ok, "turn_penalty"), 1);
}

TEST(Movement, ReversingBackToBackCostsTwo) {
  Table t(EnergyRounds(), Field());
  ASSERT_TRUE(t.Submit(Move("run", {{3, 5}, {4, 5}})).ok());
  auto back = t.Submit(Move("run", {{3, 5}}));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(NumOf(*back, "turn_penalty"), 2);  // reversing (l.27)
  // 002 l.27 "reversing the direction of your movement sacrifices 2m of
  // movement" and l.142 "only move 1/3 of your Speed, you would only spend
  // 1 Energy": 1 m run + 2 m sacrificed = 3 m of Speed 6: ceil(3 x 3 / 6)
  // = 2 Energy (before: 1, the turn cost nothing below the cap).
  EXPECT_EQ(NumOf(*back, "energy"), 2);
  EXPECT_EQ(K(t).Resource("energy"), 2);  // 5 - 1 (2 m of 6) - 2
  // A part run pays for the turns it made: reversing again and stopping
  // after 1 m: (1 + 2) m of 6: 2 Energy.
  auto again = Move("run", {{4, 5}, {5, 5}});
  With(again, "stop_after", 1);
  auto part = t.Submit(again);
  ASSERT_TRUE(part.ok()) << part.status();
  EXPECT_EQ(NumOf(*part, "metres"), 1);
  EXPECT_EQ(NumOf(*part, "turn_penalty"), 2);
  EXPECT_EQ(K(t).Resource("energy"), 0);
}

TEST(Movement, SprintAddsLegStrengthMetres) {
  Table t(EnergyRounds(), Field());
  auto ev = t.Submit(Move("sprint", {{3, 5}, {4, 5}, {5, 5}, {6, 5}, {7, 5}, {8, 5}, {9, 5}, {10, 5}}));
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(K(t).Resource("energy"), 2);
  EXPECT_EQ(K(t).Resource("stamina"), 11);  // l.66
}

// 002 l.25: "You can turn any full Run action (3 Energy cost) into a Sprint
// action by spending 1 Stamina"; l.138: "you can willingly end an action at
// any time"; l.142: "If you perform the Run action and only move 1/3 of your
// Speed, you would only spend 1 Energy". kara: Speed 6, sprint +2 = 8 m.
// A Sprint declared over 3 m is a Sprint ended at 3 m: ceil(3 x 3 / 8) = 2
// Energy + 1 Stamina, as the same Sprint declared over 8 m and stopped
// after 3 (it paid 3 declared, 2 stopped). A Sprint cut short also pays for
// the turns it made (l.27): 3 m with a reversal after 2 = ceil(3 x 5 / 8)
// = 2; 6 m (= Speed) = ceil(18 / 8) = 3.
TEST(Movement, ASprintEndedEarlyPaysItsShareWhetherDeclaredShortOrStopped) {
  Table t(EnergyRounds(), Field());
  ASSERT_TRUE(t.Submit(Move("sprint", {{3, 5}, {4, 5}, {5, 5}})).ok());
  EXPECT_EQ(K(t).Resource("energy"), 3);
  EXPECT_EQ(K(t).Resource("stamina"), 11);
  Table u(EnergyRounds(), Field());
  auto stopped = Move("sprint", {{3, 5}, {4, 5}, {5, 5}, {6, 5}, {7, 5}, {8, 5}, {9, 5}, {10, 5}});
  With(stopped, "stop_after", 3);
  ASSERT_TRUE(u.Submit(stopped).ok());
  EXPECT_EQ(K(u).Resource("energy"), 3);
  EXPECT_EQ(K(u).Resource("stamina"), 11);
  EXPECT_EQ(K(u).at, (Pos{5, 5}));
  Table v(EnergyRounds(), Field());
  auto turned = Move("sprint", {{3, 5}, {4, 5}, {3, 5}, {2, 5}});
  With(turned, "stop_after", 3);
  auto ev = v.Submit(turned);
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "turn_penalty"), 2);
  EXPECT_EQ(K(v).Resource("energy"), 3);
  Table w(EnergyRounds(), Field());
  ASSERT_TRUE(w.Submit(Move("sprint", {{3, 5}, {4, 5}, {5, 5}, {6, 5}, {7, 5}, {8, 5}})).ok());
  EXPECT_EQ(K(w).Resource("energy"), 2);
  ExpectRulesKnown(t.log());
}

// 002 l.25 "You can turn any full Run action (3 Energy cost) into a
// Sprint action by spending 1 Stamina": a Sprint starts as a full Run, so it
// needs the full Run's 3 Energy at its start; l.138 lets its runner end it
// early and pay its share, not begin one it cannot pay for. kara, 3 shifts
// (3 Energy, l.21) -> 2 Energy left: a Sprint over 5 m (ceil(3 x 5 / 8) = 2
// Energy, l.142) is refused (black-box, the eighth pass: accepted); a Quick
// Run over 4 m (ceil(3 x 4 / 6) = 2, l.11) is not; with 1 Energy paid by
// Stamina (l.47) the full Run is 2 + 1: the Sprint is allowed and pays its
// share, 2 = 1 Energy + 1 Stamina, and the Sprint's 1 Stamina: Energy 1,
// Stamina 12 - 2 = 10.
TEST(Movement, ASprintNeedsTheFullRunsThreeEnergyAtItsStart) {
  Table t(EnergyRounds(), Field());
  for (int x : {3, 4, 5}) ASSERT_TRUE(t.Submit(Move("shift", {{x, 5}})).ok());
  ASSERT_EQ(K(t).Resource("energy"), 2);
  auto sprint = Move("sprint", {{6, 5}, {7, 5}, {8, 5}, {9, 5}, {10, 5}});
  auto refused = t.Submit(sprint);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(refused.status().message().find("full Run"), std::string::npos) << refused.status();
  EXPECT_EQ(K(t).Resource("energy"), 2);
  Table u(EnergyRounds(), Field());
  for (int x : {3, 4, 5}) ASSERT_TRUE(u.Submit(Move("shift", {{x, 5}})).ok());
  ASSERT_TRUE(u.Submit(Move("run", {{6, 5}, {7, 5}, {8, 5}, {9, 5}})).ok());  // Quick Run
  EXPECT_EQ(K(u).Resource("energy"), 0);
  Table v(EnergyRounds(), Field());
  for (int x : {3, 4, 5}) ASSERT_TRUE(v.Submit(Move("shift", {{x, 5}})).ok());
  With(sprint, "stamina_energy", 1);
  auto ev = v.Submit(sprint);
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(K(v).Resource("energy"), 1);
  EXPECT_EQ(K(v).Resource("stamina"), 10);
  EXPECT_EQ(K(v).at, (Pos{10, 5}));
  ExpectRulesKnown(v.log());
}

TEST(Movement, JumpStandingAndRunning) {
  Table t(EnergyRounds(), Field({{"jump_bonus", 2}}));
  // Standing 2 m: 2 Energy + 1 Stamina; lands Unguarded (l.31, l.475).
  ASSERT_TRUE(t.Submit(Move("jump", {{3, 5}, {4, 5}})).ok());
  EXPECT_EQ(K(t).Resource("energy"), 3);
  EXPECT_EQ(K(t).Resource("stamina"), 11);
  EXPECT_TRUE(K(t).Has("Unguarded"));
  ASSERT_TRUE(t.Submit(Gm("end_round")).ok());
  ASSERT_TRUE(t.Submit(Move("run", {{5, 5}, {6, 5}})).ok());  // 1 Energy
  auto ev = t.Submit(Move("jump", {{7, 5}, {8, 5}, {9, 5}, {10, 5}, {11, 5}}));
  // Running start: 1; 5 m is beyond a 2-Energy run (4 m): +1 airtime.
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "running_start"), 1);
  EXPECT_EQ(NumOf(*ev, "airtime_energy"), 1);
  EXPECT_EQ(K(t).Resource("energy"), 2);
  ExpectRulesKnown(t.log());
}

// 002 l.31 "When landing from a Jump, you become Unguarded"; l.680
// "Unguarded: ... You are Exposed while you are Unguarded. Unless otherwise
// specified, being Unguarded lasts until the end of the Round"; l.468 "You
// may end being Unguarded early by taking the Defend Action". At its last
// step (the Round of the landing) kara is Unguarded and Exposed; one step
// later (the next Round) neither. Landing again, Defend ends both at once.
TEST(Movement, AJumpsUnguardedLastsToTheRoundsEndOrADefend) {
  Table t(EnergyRounds(), Field({{"jump_bonus", 2}}));
  ASSERT_TRUE(t.Submit(Move("jump", {{3, 5}, {4, 5}})).ok());
  EXPECT_TRUE(K(t).Has("Unguarded"));
  EXPECT_TRUE(K(t).Has("Exposed"));
  ASSERT_TRUE(t.Submit(Gm("end_round")).ok());
  EXPECT_FALSE(K(t).Has("Unguarded"));
  EXPECT_FALSE(K(t).Has("Exposed"));
  ASSERT_TRUE(t.Submit(Move("jump", {{5, 5}, {6, 5}})).ok());
  ASSERT_TRUE(K(t).Has("Unguarded"));
  auto d = Cmd("kara", "defend");
  ASSERT_TRUE(t.Submit(Now(d)).ok());
  EXPECT_FALSE(K(t).Has("Unguarded"));
  EXPECT_FALSE(K(t).Has("Exposed"));
}

// 002 l.438-446, the Size Chart's "Approximate Jump Reach & Distance (m)",
// row by row: "Huge ... 5" (l.440), "Large ... 4" (l.441), "Medium ... 3"
// (l.442), "Small ... 2" (l.443), "Tiny ... 1" (l.444), "Diminutive ...
// .5" (l.445) and "Fine ... .3" (l.446), both below a whole metre of the
// grid (l.416): 0 (reading 6); Miniscule as Fine, Gigantic as Huge (not in
// the chart). l.448: "how far one can jump without a running start": a
// standing jump of that many metres lands, one metre more is refused.
TEST(Movement, SizeChartJumpDistanceRowByRow) {
  struct Row {
    const char* tag;
    int64_t jump;
  };
  const Row rows[] = {{"gigantic", 5}, {"huge", 5},       {"large", 4}, {"medium", 3},
                      {"small", 2},    {"tiny", 1},       {"diminutive", 0},
                      {"fine", 0},     {"miniscule", 0}};
  for (const Row& r : rows) {
    std::vector<fb::CombatantSpecT> cs;
    cs.push_back(Who("kara", "party", 5, 10, {{"con_score", 12}, {"facing", 2}}, {}, {r.tag}));
    cs.push_back(Who("orc", "orcs", 35, 2, {{"con_score", 14}}));
    Table t(EnergyRounds(), Roster(std::move(cs), 40, 20));
    ASSERT_TRUE(t.status().ok()) << t.status();
    EXPECT_EQ(SizeJump(K(t)), r.jump) << r.tag;
    std::vector<std::pair<int, int>> over;
    for (int i = 1; i <= r.jump + 1; ++i) over.push_back({5 + i, 10});
    auto refused = t.Submit(Move("jump", over));
    EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition) << r.tag;
    EXPECT_NE(std::string(refused.status().message())
                  .find(absl::StrCat("can jump ", r.jump, " m; the path is ", r.jump + 1, " m")),
              std::string::npos)
        << r.tag << ": " << refused.status();
    if (std::string(r.tag) == "diminutive") {  // says why: l.445's .5 m under a square
      EXPECT_NE(std::string(refused.status().message()).find(".5 m, l.445, is under a 1 m square"),
                std::string::npos)
          << refused.status();
    }
    if (r.jump == 0) continue;
    over.pop_back();
    auto landed = t.Submit(Move("jump", over));
    ASSERT_TRUE(landed.ok()) << r.tag << ": " << landed.status();
    EXPECT_EQ(K(t).at.x, 5 + r.jump) << r.tag;
  }
}

// 002 l.27: "whenever you turn sharply by 45 degrees, you sacrifice 1m of
// movement ... reversing the direction of your movement sacrifices 2m ...
// This applies to back-to-back movement actions"; l.31: "You may Jump
// immediately after having moved at least 2m by spending 1 Energy and 1
// Stamina. Otherwise, it takes 2 Energy". A Round's end is no act: a run
// ending one Round and a run or jump opening the next are back-to-back.
// Waiting (`pass`, l.150) or a whole Round without moving is not.
// kara: Speed 6.
TEST(Movement, ARestBreaksBackToBackMovementAndRenewsTheRound) {
  // 002 l.31 "You may Jump immediately after having moved at least 2m by
  // spending 1 Energy": a 5-minute Short Rest (l.597) is 60 Rounds of
  // about 5 seconds (l.103) between the run and the jump, so the jump is a
  // standing one, 2 Energy (l.31 "Otherwise"), from a new Round's 5 (l.53).
  Table t(EnergyRounds(), Field());
  ASSERT_TRUE(t.Submit(Move("run", {{3, 5}, {4, 5}})).ok());  // 1 Energy
  ASSERT_EQ(K(t).Resource("energy"), 4);
  ASSERT_TRUE(t.Submit(Gm("short_rest")).ok());
  EXPECT_EQ(K(t).Resource("energy"), 5);
  EXPECT_EQ(K(t).Resource("moved_m", 0), 0);
  auto jump = t.Submit(Move("jump", {{5, 5}, {6, 5}}));
  ASSERT_TRUE(jump.ok()) << jump.status();
  EXPECT_EQ(NumOf(*jump, "running_start"), 0);
  EXPECT_EQ(K(t).Resource("energy"), 3);
}

TEST(Movement, BackToBackMovementCarriesAcrossARoundsEnd) {
  // Run 3 m east (ceil(3 x 3 / 6) = 2 Energy), the Round ends, run 2 m
  // back west: the reversal sacrifices 2 m, (2 + 2) m of 6 = 2 Energy.
  Table t(EnergyRounds(), Field());
  ASSERT_TRUE(t.Submit(Move("run", {{3, 5}, {4, 5}, {5, 5}})).ok());
  ASSERT_EQ(K(t).Resource("energy"), 3);
  ASSERT_TRUE(t.Submit(Gm("end_round")).ok());
  ASSERT_EQ(K(t).Resource("energy"), 5);
  auto back = t.Submit(Move("run", {{4, 5}, {3, 5}}));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(NumOf(*back, "turn_penalty"), 2);
  EXPECT_EQ(K(t).Resource("energy"), 3);
  ExpectRulesKnown(t.log());

  // Run 2 m (1 Energy), the Round ends, jump 2 m: a running jump, 1 Energy
  // + 1 Stamina (5 - 1 = 4 Energy, Stamina 12 - 1 = 11).
  Table u(EnergyRounds(), Field());
  ASSERT_TRUE(u.Submit(Move("run", {{3, 5}, {4, 5}})).ok());
  ASSERT_TRUE(u.Submit(Gm("end_round")).ok());
  auto jump = u.Submit(Move("jump", {{5, 5}, {6, 5}}));
  ASSERT_TRUE(jump.ok()) << jump.status();
  EXPECT_EQ(NumOf(*jump, "running_start"), 1);
  EXPECT_EQ(K(u).Resource("energy"), 4);
  EXPECT_EQ(K(u).Resource("stamina"), 11);

  // Run 2 m (5 - 1 = 4), wait (`pass`; the orc has not, the Round goes
  // on), jump 2 m: standing, 2 Energy (4 - 2 = 2).
  Table v(EnergyRounds(), Field());
  ASSERT_TRUE(v.Submit(Move("run", {{3, 5}, {4, 5}})).ok());
  ASSERT_TRUE(v.Submit(Cmd("kara", "pass")).ok());
  ASSERT_EQ(v.state().round, 1);
  auto standing = v.Submit(Move("jump", {{5, 5}, {6, 5}}));
  ASSERT_TRUE(standing.ok()) << standing.status();
  EXPECT_EQ(NumOf(*standing, "running_start"), 0);
  EXPECT_EQ(K(v).Resource("energy"), 2);

  // Run 2 m, a whole Round without moving, jump 2 m: standing, 2 Energy.
  Table w(EnergyRounds(), Field());
  ASSERT_TRUE(w.Submit(Move("run", {{3, 5}, {4, 5}})).ok());
  ASSERT_TRUE(w.Submit(Gm("end_round")).ok());
  ASSERT_TRUE(w.Submit(Gm("end_round")).ok());
  auto idle = w.Submit(Move("jump", {{5, 5}, {6, 5}}));
  ASSERT_TRUE(idle.ok()) << idle.status();
  EXPECT_EQ(NumOf(*idle, "running_start"), 0);
  EXPECT_EQ(K(w).Resource("energy"), 3);
}

// 002 l.13 "1 Energy = Shift, Stand Up" and l.33 "Using 1 Energy, you may
// kneel ... (It would take an additional 1 Energy to stand completely.)":
// Prone -> kneel 1 -> stand 1, Energy 5 - 2 = 3 (reading 8: no stand
// straight from Prone).
TEST(Movement, KneelThenStand) {
  Table t(EnergyRounds(), Field());
  ASSERT_TRUE(t.Submit(GmAdds("kara", "Prone")).ok());
  EXPECT_EQ(t.Submit(Move("run", {{3, 5}})).status().code(), absl::StatusCode::kFailedPrecondition);
  auto stand = Cmd("kara", "stand");
  EXPECT_EQ(t.Submit(Now(stand)).status().code(), absl::StatusCode::kFailedPrecondition);
  auto kneel = Cmd("kara", "kneel");
  ASSERT_TRUE(t.Submit(Now(kneel)).ok());
  EXPECT_FALSE(K(t).Has("Prone"));
  EXPECT_TRUE(K(t).Has("Unguarded"));  // l.33
  auto stand2 = Cmd("kara", "stand");
  ASSERT_TRUE(t.Submit(Now(stand2)).ok());
  EXPECT_FALSE(K(t).Has("Kneeling"));
  EXPECT_EQ(K(t).Resource("energy"), 3);
  // Reading 44: the kneel's Unguarded is the act's result (l.474, l.146),
  // not the posture's: standing up does not end it; the Round's end does
  // (l.468), or a Defend.
  EXPECT_TRUE(K(t).Has("Unguarded"));
  ASSERT_TRUE(t.Submit(Gm("end_round")).ok());
  EXPECT_FALSE(K(t).Has("Unguarded"));
}

// 002 l.690 "If you have an ability which removes a Condition that is
// continually applied, you still ignore the Condition until the end of the
// Round"; l.676 "Prone: ... sprawled out on the ground, which may limit what
// you are able to do" (reading 8: no Run, Sprint or Jump while Prone). kara,
// laid flat by a gale (Prone, source environment), uses her ability to
// remove it: the gale still applies it, so she ignores it this Round and may
// run 2 m (Speed 6: 1 Energy) and then jump 1 m (a running jump, l.31:
// 1 Energy and 1 Stamina) (was: the Prone she ignores still refused both).
// When the Round ends the gale's Prone holds again, and a Run is refused.
TEST(Movement, AnIgnoredProneLetsTheCreatureRunAndJump) {
  Table t(EnergyRounds(), Field({}, {"removes:Prone"}));
  ASSERT_TRUE(t.Submit(GmAdds("kara", "Prone", {}, "environment")).ok());
  EXPECT_EQ(t.Submit(Move("run", {{3, 5}, {4, 5}})).status().code(),
            absl::StatusCode::kFailedPrecondition);
  auto r = Cmd("kara", "remove_condition");
  WithText(r, "name", "Prone");
  ASSERT_TRUE(t.Submit(r).ok());
  EXPECT_TRUE(K(t).Has("Prone"));
  EXPECT_FALSE(Active(K(t), "Prone"));
  auto run = t.Submit(Move("run", {{3, 5}, {4, 5}}));
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(K(t).Resource("energy"), 4);
  const int64_t stamina = K(t).Resource("stamina");
  auto jump = t.Submit(Move("jump", {{5, 5}}));
  ASSERT_TRUE(jump.ok()) << jump.status();
  EXPECT_EQ(K(t).at, (Pos{5, 5}));
  EXPECT_EQ(K(t).Resource("energy"), 3);
  EXPECT_EQ(K(t).Resource("stamina"), stamina - 1);
  ASSERT_TRUE(t.Submit(Gm("end_round")).ok());
  EXPECT_TRUE(Active(K(t), "Prone"));
  EXPECT_EQ(t.Submit(Move("run", {{6, 5}})).status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(Movement, DefendEndsWhenMovingBeyondSpeed) {
  Table t(EnergyRounds(), Field());
  ASSERT_TRUE(t.Submit(GmAdds("kara", "Unguarded")).ok());
  auto d = Cmd("kara", "defend");
  ASSERT_TRUE(t.Submit(Now(d)).ok());
  EXPECT_FALSE(K(t).Has("Unguarded"));
  EXPECT_FALSE(K(t).Has("Exposed"));
  EXPECT_TRUE(K(t).Has("Defending"));
  ASSERT_TRUE(t.Submit(Move("run", {{3, 5}, {4, 5}, {5, 5}, {6, 5}, {7, 5}, {8, 5}})).ok());
  EXPECT_TRUE(K(t).Has("Defending"));  // 6 m: not more than Speed
  auto c = Move("shift", {{9, 5}});
  With(c, "agility", 1);
  ASSERT_TRUE(t.Submit(c).ok());
  EXPECT_FALSE(K(t).Has("Defending"));  // 7 m > 6 (l.35)
}

// 002 l.35: "This defense bonus lasts until you make an attack, cast a
// spell, or move more than your Speed during a Round": the metres are the
// Round's (reading 37), so a full Run (6 m, Speed 6) before the Defend
// and one Shift after it make 7 m > 6 during the Round, and it ends.
TEST(Movement, DefendCountsTheRoundsMetresFromItsStart) {
  Table t(EnergyRounds(), Field());
  ASSERT_TRUE(t.Submit(Move("run", {{3, 5}, {4, 5}, {5, 5}, {6, 5}, {7, 5}, {8, 5}})).ok());
  auto d = Cmd("kara", "defend");
  ASSERT_TRUE(t.Submit(Now(d)).ok());
  EXPECT_TRUE(K(t).Has("Defending"));  // 6 m: not more than Speed
  auto c = Move("shift", {{9, 5}});
  With(c, "agility", 1);
  ASSERT_TRUE(t.Submit(c).ok());
  EXPECT_FALSE(K(t).Has("Defending"));  // 6 + 1 = 7 m > 6 during the Round
  ExpectRulesKnown(t.log());
}

// 002 l.35 (README reading 37, the sixth pass's decision): "If you were
// Unguarded, you no longer are ... You now win ties on your Defenses. This
// defense bonus lasts until you make an attack, cast a spell, or move more
// than your Speed during a Round". The three ends are acts made after the
// Defend (an attack made before it ends nothing); l.460 and l.468 let the
// Defend end Exposure and Unguarded whatever was moved. So a Defend after
// 7 m (Speed 6) is not refused and does not end at once: it ends the
// Unguarded now, and the bonus lasts until kara moves again this Round
// (7 + 1 = 8 m > 6). A new Round counts its own metres from 0.
TEST(Movement, DefendAfterMovingBeyondSpeedStandsUntilTheNextMetre) {
  Table t(EnergyRounds(), Field());
  ASSERT_TRUE(t.Submit(Move("run", {{3, 5}, {4, 5}, {5, 5}, {6, 5}, {7, 5}, {8, 5}})).ok());
  ASSERT_TRUE(t.Submit(Move("shift", {{9, 5}})).ok());  // 3 + 1 Energy: 7 m, 1 Energy left
  EXPECT_EQ(K(t).Resource("moved_m"), 7);
  ASSERT_TRUE(t.Submit(GmAdds("kara", "Unguarded")).ok());
  auto d = Cmd("kara", "defend");
  auto ev = t.Submit(Now(d));
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(K(t).Resource("energy"), 0);
  EXPECT_FALSE(K(t).Has("Unguarded"));
  EXPECT_FALSE(K(t).Has("Exposed"));
  EXPECT_TRUE(K(t).Has("Defending"));  // 7 m were moved before it: nothing ends it yet
  auto a = Cmd("kara", "agile_move");  // the Defend's 1 Energy earned the credit (l.29)
  Path(a, {{10, 5}});
  ASSERT_TRUE(t.Submit(a).ok());
  EXPECT_EQ(K(t).Resource("moved_m"), 8);
  EXPECT_FALSE(K(t).Has("Defending"));  // 8 m > 6 during the Round
  // Defending again, then a new Round: its full Run (6 m) is not more than 6.
  ASSERT_TRUE(t.Submit(Gm("end_round")).ok());
  auto d2 = Cmd("kara", "defend");
  ASSERT_TRUE(t.Submit(Now(d2)).ok());
  ASSERT_TRUE(t.Submit(Gm("end_round")).ok());
  EXPECT_EQ(K(t).Resource("moved_m"), 0);
  ASSERT_TRUE(t.Submit(Move("run", {{9, 5}, {8, 5}, {7, 5}, {6, 5}, {5, 5}, {4, 5}})).ok());
  EXPECT_TRUE(K(t).Has("Defending"));  // lasts across the Round's end: 6 m this Round
  ExpectRulesKnown(t.log());
}

TEST(Movement, CatchYourBreath) {
  Table t(EnergyRounds(), Field({{"stamina", 5}}));
  ASSERT_TRUE(t.Submit(Move("shift", {{3, 5}})).ok());
  ASSERT_TRUE(t.Submit(Move("shift", {{4, 5}})).ok());
  auto b = Cmd("kara", "catch_breath");
  ASSERT_TRUE(t.Submit(Now(b)).ok());
  EXPECT_EQ(K(t).Resource("stamina"), 6);
  EXPECT_EQ(K(t).Resource("energy"), 0);
  ASSERT_TRUE(t.Submit(Gm("end_round")).ok());
  ASSERT_TRUE(t.Submit(Move("run", {{5, 5}, {6, 5}, {7, 5}})).ok());  // 2 Energy
  auto b2 = Cmd("kara", "catch_breath");
  ASSERT_TRUE(t.Submit(Now(b2)).ok());  // all 3 left
  EXPECT_EQ(K(t).Resource("energy"), 0);
  EXPECT_EQ(K(t).Resource("stamina"), 7);
}

// kara catches her breath, paying 1 of its Energy with Stamina (l.41, l.47).
fb::CommandT CatchBreathPayingStamina() {
  auto b = Cmd("kara", "catch_breath");
  With(b, "stamina_energy", 1);
  return b;
}

// 002 l.47: "Once per Round, you may spend 1 Stamina when you would
// normally spend 1 Energy"; l.41: "Catch Your Breath: Using 3 Energy (or all
// your Energy), you may regain 1 Stamina". The text makes no exception for
// Catching your Breath: kara (Stamina 4 of 12, so 4 Energy, l.60) pays its
// 3 Energy as 2 Energy + 1 Stamina: Energy 4 - 2 = 2, Stamina 4 - 1 + 1 = 4;
// once a Round, so a second Stamina-for-Energy this Round is refused.
// With 2 Energy left, "all your Energy" is 2, 1 of it paid with Stamina:
// next Round (Energy 4), after a 2-Energy run, 2 left: 1 Energy + 1 Stamina.
TEST(Movement, CatchYourBreathMayPayOneEnergyWithStamina) {
  Table t(EnergyRounds(), Field({{"stamina", 4}}));
  ASSERT_EQ(K(t).Resource("energy"), 4);
  auto b = CatchBreathPayingStamina();
  auto ev = t.Submit(Now(b));
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(K(t).Resource("energy"), 2);
  EXPECT_EQ(K(t).Resource("stamina"), 4);
  EXPECT_EQ(K(t).Resource("stamina_energy_used"), 1);
  EXPECT_EQ(K(t).Resource("agile_credit"), 2);  // 2 Energy spent (l.29, reading 7)
  auto again = Move("shift", {{3, 5}});
  With(again, "stamina_energy", 1);
  EXPECT_EQ(t.Submit(again).status().code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(t.Submit(Gm("end_round")).ok());
  ASSERT_EQ(K(t).Resource("energy"), 4);
  ASSERT_TRUE(t.Submit(Move("run", {{3, 5}, {4, 5}, {5, 5}, {6, 5}})).ok());  // 4 of 6 m: 2
  ASSERT_EQ(K(t).Resource("energy"), 2);
  auto b2 = CatchBreathPayingStamina();
  ASSERT_TRUE(t.Submit(Now(b2)).ok());
  EXPECT_EQ(K(t).Resource("energy"), 1);
  EXPECT_EQ(K(t).Resource("stamina"), 4);
  ExpectRulesKnown(t.log());
}

// README reading 46. l.41 "Using 3 Energy (or all your Energy), you may
// regain 1 Stamina"; l.47 "Once per Round, you may spend 1 Stamina when you
// would normally spend 1 Energy" (no exception); l.138 "spent as the results
// of the action occur"; l.72 "Dropping to 0 Stamina will immediately result
// in unconsciousness". With 1 Energy and 1 Stamina, paying all its Energy
// with the Stamina: the Stamina is paid as the 1 Stamina regained arrives,
// so Stamina never stands at 0 and nobody falls unconscious; Energy stays 1
// and the Round's Stamina-as-Energy is used.
TEST(Movement, CatchYourBreathPaidWithTheLastStaminaKnocksNobodyOut) {
  Table t(EnergyRounds(), Field({{"stamina", 1}}));
  ASSERT_EQ(K(t).Resource("energy"), 1);  // l.58: Stamina 1, Energy 1
  auto b = CatchBreathPayingStamina();
  auto ev = t.Submit(Now(b));
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(K(t).Resource("energy"), 1);
  EXPECT_EQ(K(t).Resource("stamina"), 1);
  EXPECT_EQ(K(t).Resource("stamina_energy_used"), 1);
  EXPECT_FALSE(K(t).Has("Unconscious"));
  EXPECT_FALSE(Cites(*ev, "002.stamina.zero"));
  // Paid with its Energy instead, it is the ordinary all-your-Energy breath.
  ASSERT_TRUE(t.Submit(Gm("end_round")).ok());
  auto plain = Cmd("kara", "catch_breath");
  ASSERT_TRUE(t.Submit(Now(plain)).ok());
  EXPECT_EQ(K(t).Resource("energy"), 0);
  EXPECT_EQ(K(t).Resource("stamina"), 2);
  ExpectRulesKnown(t.log());
}

// README reading 36. l.51: "You may Catch Your Breath (spending 3 Energy or
// all your Energy) to regain 1 Stamina"; l.78: "Maximum Stamina =
// Constitution Score"; l.35: Defend ends Unguarded and Exposed, and "You now
// win ties on your Defenses ... until you make an attack, cast a spell, or
// move more than your Speed"; l.138: Energy "is technically spent as the
// results of the action occur". With nothing to result, both are refused
// and cost nothing; Defend is taken again once there is an Unguarded to end.
TEST(Movement, CatchYourBreathAtFullStaminaAndASecondDefendAreRefused) {
  Table t(EnergyRounds(), Field());
  auto b = Cmd("kara", "catch_breath");
  auto full = t.Submit(Now(b));
  EXPECT_EQ(full.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(full.status().message().find("full Stamina"), std::string::npos) << full.status();
  auto d = Cmd("kara", "defend");
  ASSERT_TRUE(t.Submit(Now(d)).ok());
  EXPECT_TRUE(K(t).Has("Defending"));
  auto again = Cmd("kara", "defend");
  auto twice = t.Submit(Now(again));
  EXPECT_EQ(twice.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(twice.status().message().find("already Defending"), std::string::npos)
      << twice.status();
  EXPECT_EQ(K(t).Resource("energy"), 4);  // only the first Defend's 1 Energy
  ASSERT_TRUE(t.Submit(GmAdds("kara", "Unguarded")).ok());
  auto third = Cmd("kara", "defend");
  ASSERT_TRUE(t.Submit(Now(third)).ok());  // l.35: "If you were Unguarded, you no longer are"
  EXPECT_FALSE(K(t).Has("Unguarded"));
  EXPECT_EQ(K(t).Resource("energy"), 3);
}

TEST(Movement, AgileMoveNeedsEnergySpentOnOtherActs) {
  Table t(EnergyRounds(), Field());
  auto a = Cmd("kara", "agile_move");
  Path(a, {{3, 5}});
  EXPECT_EQ(t.Submit(a).status().code(), absl::StatusCode::kFailedPrecondition);
  auto d = Cmd("kara", "defend");
  ASSERT_TRUE(t.Submit(Now(d)).ok());
  ASSERT_TRUE(t.Submit(a).ok());
  EXPECT_EQ(K(t).Resource("agility"), 2);
  auto a2 = Cmd("kara", "agile_move");
  Path(a2, {{4, 5}});
  EXPECT_EQ(t.Submit(a2).status().code(), absl::StatusCode::kFailedPrecondition);
}

// l.29: "Once per Energy you spend on a non-movement action, you may also
// move one meter as an Immediate Interrupt"; l.47: "you may spend 1 Stamina
// when you would normally spend 1 Energy". A Defend paid with Stamina
// spends no Energy and so earns no Agile Move.
TEST(Movement, EnergyPaidWithStaminaEarnsNoAgileMove) {
  Table t(EnergyRounds(), Field());
  auto d = Cmd("kara", "defend");
  With(d, "stamina_energy", 1);
  auto ev = t.Submit(Now(d));
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(K(t).Resource("energy"), 5);
  EXPECT_EQ(K(t).Resource("stamina"), 11);
  EXPECT_EQ(K(t).Resource("agile_credit"), 0);
  auto a = Cmd("kara", "agile_move");
  Path(a, {{3, 5}});
  EXPECT_EQ(t.Submit(a).status().code(), absl::StatusCode::kFailedPrecondition);
  ExpectRulesKnown(t.log());
}

TEST(Movement, SlowedHalvesSpeedRoundingUpAndForbidsAgility) {
  Table t(EnergyRounds(), Field({{"speed", 5}}));
  ASSERT_TRUE(t.Submit(GmAdds("kara", "Slowed")).ok());
  EXPECT_EQ(Speed(K(t)), 3);  // 5 / 2 rounded up (l.674)
  EXPECT_EQ(t.Submit(Move("run", {{3, 5}, {4, 5}, {5, 5}, {6, 5}})).status().code(),
            absl::StatusCode::kFailedPrecondition);
  auto c = Move("shift", {{3, 5}});
  With(c, "agility", 1);
  EXPECT_EQ(t.Submit(c).status().code(), absl::StatusCode::kFailedPrecondition);
}

// 002 l.64-69 "Spending Stamina: ... Break down door/wall 1, Climb 1-3";
// l.70 "many other tasks ... up to the discretion of the GM". An exertion
// naming the table's task costs what the table says: a door or a wall
// exactly 1 Stamina, a climb 1 to 3; `other` (or none) is the GM's number.
// (Before the tenth pass's second round, `exert` took any number for any
// task: a door for 2 Stamina, a climb for 4.)
TEST(Movement, ExertionCostsWhatTheTableSays) {
  Table t(EnergyRounds(), Field());
  auto exert = [](const std::string& task, int n) {
    auto x = Cmd("kara", "exert");
    With(x, "stamina", n);
    WithText(x, "task", task);
    return Now(x);
  };
  auto door2 = t.Submit(exert("door", 2));
  ASSERT_EQ(door2.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(door2.status().message().find("params.stamina"), std::string::npos) << door2.status();
  EXPECT_NE(door2.status().message().find("costs 1 Stamina"), std::string::npos) << door2.status();
  EXPECT_EQ(t.Submit(exert("wall", 3)).status().code(), absl::StatusCode::kFailedPrecondition);
  auto climb4 = t.Submit(exert("climb", 4));
  ASSERT_EQ(climb4.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(climb4.status().message().find("1 to 3"), std::string::npos) << climb4.status();
  EXPECT_EQ(K(t).Resource("stamina"), 12);  // nothing spent
  ASSERT_TRUE(t.Submit(exert("door", 1)).ok());
  EXPECT_EQ(K(t).Resource("stamina"), 11);
  ASSERT_TRUE(t.Submit(exert("climb", 3)).ok());  // the table's top
  EXPECT_EQ(K(t).Resource("stamina"), 8);
  ASSERT_TRUE(t.Submit(exert("other", 4)).ok());  // the GM's number (l.70)
  EXPECT_EQ(K(t).Resource("stamina"), 4);
  ExpectRulesKnown(t.log());
}

// 002 l.402 "you face the 3 squares in front of you"; l.410 "Turning around
// does not take Energy"; l.441 a Large creature fills 2 x 2 squares. Facing
// a creature turns toward it from the centre of one's space to the centre
// of its: kara, Large at (4,5) (squares (4..5, 5..6), centre (5, 6)), and
// the orc at (6,6) (centre (6.5, 6.5)): (1.5, 0.5), 18 degrees from east,
// under the 22.5 that splits the octants: east (2) (was: from kara's
// top-left square (4,5) to (6,6), (2, 1), 27 degrees: south-east, 3). So
// she starts facing it (the nearest foe) and turns back to it the same.
TEST(Movement, ALargeCreatureFacesAFoeFromTheCentreOfItsSpace) {
  std::vector<fb::CombatantSpecT> cs;
  cs.push_back(Who("kara", "party", 4, 5, {{"con_score", 12}}, {}, {"large"}));
  cs.back().size = 2;  // 2 x 2 squares
  cs.push_back(Who("orc", "orcs", 6, 6, {{"con_score", 14}}));
  Table t(EnergyRounds(), Roster(std::move(cs)));
  ASSERT_TRUE(t.status().ok()) << t.status();
  EXPECT_EQ(K(t).Resource("facing"), 2);
  auto away = Cmd("kara", "face");
  With(away, "dir", 6);
  ASSERT_TRUE(t.Submit(away).ok());
  auto f = Cmd("kara", "face", {"orc"});
  ASSERT_TRUE(t.Submit(f).ok());
  EXPECT_EQ(K(t).Resource("facing"), 2);
  EXPECT_EQ(K(t).Resource("energy"), 5);
}

TEST(Movement, WallsAndFacing) {
  Table t(EnergyRounds(), Field());
  EXPECT_EQ(t.Submit(Move("run", {{2, 4}, {2, 3}})).status().code(),
            absl::StatusCode::kFailedPrecondition);
  auto f = Cmd("kara", "face");
  With(f, "dir", 6);
  ASSERT_TRUE(t.Submit(f).ok());
  EXPECT_EQ(K(t).Resource("facing"), 6);
  EXPECT_EQ(K(t).Resource("energy"), 5);  // free (l.410)
  EXPECT_TRUE(Faces(K(t), Pos{0, 5}));
  EXPECT_TRUE(Faces(K(t), Pos{2, 4}));   // side squares count (l.402)
  EXPECT_FALSE(Faces(K(t), Pos{4, 5}));
}

}  // namespace
}  // namespace combat::kernel::energy::testutil
