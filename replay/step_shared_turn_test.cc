// `combat step --round R --turn N` with the real wound_slots ruleset (seed
// 001): a running turn recorded again when a mount yet to act joins it
// (l.280 "While riding a mount, you and your mount share a single turn";
// TurnEnded then at once TurnStarted, same actor and round) is one turn,
// not two (was: counted twice, the orc's turn being the third of round 1).
#include "absl/strings/str_cat.h"
#include "events/json.h"
#include "gtest/gtest.h"
#include "replay/engine.h"
#include "replay/step.h"
#include "replay/testing/script_session.h"

namespace combat::replay {
namespace {

// Aria 10 + 2 + 1 + 5 = 18, the horse 5 + 5 = 10, the orc 1 + 1 + 5 = 7.
constexpr char kScript[] = R"JSON({
  "roster": {
    "ruleset": "wound_slots",
    "map": { "width": 20, "height": 20, "unit": "Yards", "square": 1 },
    "combatants": [
      { "id": "aria", "player": "ana", "side": "party", "at": { "x": 5, "y": 5 },
        "stats": [ { "key": "prc", "value": 2 }, { "key": "reflex", "value": 1 }, { "key": "spd", "value": 1 } ],
        "weapons": [ { "name": "sword", "damage": "3", "kind": "melee", "category": "sword" } ] },
      { "id": "horse", "player": "ana", "side": "party", "at": { "x": 5, "y": 6 },
        "stats": [ { "key": "size", "value": 6 } ],
        "weapons": [ { "name": "hooves", "damage": "2", "kind": "melee", "category": "hooves" } ] },
      { "id": "orc", "side": "orcs", "at": { "x": 15, "y": 15 }, "tags": ["standard"],
        "stats": [ { "key": "prc", "value": 1 } ],
        "weapons": [ { "name": "axe", "damage": "4", "kind": "melee", "category": "axe" } ] }
    ]
  },
  "setup_dice": [10, 5, 1],
  "commands": []
})JSON";

constexpr char kCommands[] = R"JSON({"commands": [
 {"id": "c1", "actor": "aria", "author": "ana", "action": "mount", "targets": ["horse"]},
 {"id": "c2", "actor": "aria", "author": "ana", "action": "end_turn"},
 {"id": "c3", "actor": "orc", "author": "gm", "action": "end_turn"}
]})JSON";

TEST(StepSharedTurn, ARunningTurnRecordedAgainCountsOnce) {
  auto session = testing::ScriptSession::Open(kScript, "ford", 9);
  ASSERT_TRUE(session.ok()) << session.status();
  Engine& engine = (*session)->engine();
  auto commands = events::ParseScript(kCommands);
  ASSERT_TRUE(commands.ok()) << commands.status();
  for (const auto& c : commands->commands) {
    auto r = engine.Submit("ford", "main", *c);
    ASSERT_TRUE(r.ok()) << c->id << ": " << r.status();
  }
  Walker w(engine.log(), "ford", "main");
  auto first = w.ToTurn(1, 1);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(first->after.active, "aria");
  auto second = w.ToTurn(1, 2);
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(second->after.active, "orc");
  EXPECT_NE(w.ToTurn(1, 3).status().message().find("has no turn 3 in round 1 (it has 2)"), std::string::npos)
      << w.ToTurn(1, 3).status();
}

}  // namespace
}  // namespace combat::replay
