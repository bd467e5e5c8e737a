#include "replay/recorded.h"

#include "gtest/gtest.h"
#include "replay/testing/fixture.h"

namespace combat::replay {
namespace {

using testing::ToyCmd;

class RecordedTest : public testing::ToyFixture {};

TEST_F(RecordedTest, GroupsEventsBackIntoCommands) {
  const std::string me = Active();
  Do(ToyCmd("hit", me, "attack", {Other(me)}, {15, 4}));
  Do(ToyCmd("done", me, "end_turn"));
  auto events = engine_->Events("s1", "main");
  ASSERT_TRUE(events.ok());
  CommandGrouper g(/*keep_events=*/true);
  std::vector<RecordedCommand> commands;
  for (const auto& e : *events) {
    if (auto c = g.Add(e); c.has_value()) commands.push_back(std::move(*c));
  }
  commands.push_back(*g.Finish());
  ASSERT_EQ(commands.size(), 3u);
  EXPECT_EQ(commands[0].command_id, "setup");
  EXPECT_FALSE(commands[0].command.has_value());
  EXPECT_EQ(commands[0].Describe(), "set-up");
  EXPECT_EQ(commands[0].rolls.size(), 2u) << "initiative";
  const RecordedCommand& hit = commands[1];
  EXPECT_EQ(hit.command_id, "hit");
  EXPECT_EQ(hit.first, commands[0].last + 1);
  EXPECT_EQ(hit.declared_at, hit.first);
  ASSERT_TRUE(hit.command.has_value());
  EXPECT_EQ(hit.command->dice, (std::vector<int>{15, 4}));
  ASSERT_EQ(hit.rolls.size(), 2u);
  EXPECT_EQ(hit.rolls[0].purpose, "attack");
  EXPECT_EQ(hit.rolls[0].dice[0].value, 15);
  EXPECT_EQ(hit.rolls[0].dice[0].provenance, fb::Provenance::Manual);
  EXPECT_EQ(hit.events.size(), hit.last - hit.first + 1);
  EXPECT_NE(hit.Describe().find(me + ": attack " + Other(me)), std::string::npos)
      << hit.Describe();

  // The oracle declines the rolls the command's own dice answered (one
  // die: the attack roll) and answers the rest exactly.
  ExactOracle oracle(hit.rolls, 1);
  EXPECT_FALSE(oracle.Next("attack", me, "1d20+2").has_value());
  auto dmg = oracle.Next("damage", me, "1d6");
  ASSERT_TRUE(dmg.has_value());
  EXPECT_EQ(dmg->dice[0].value, 4);
  EXPECT_FALSE(oracle.Next("damage", me, "1d6").has_value()) << "used once";
  EXPECT_TRUE(oracle.Unused().empty());

  RecordedByIndex by_index(hit.rolls);
  auto die = by_index.Next(6, hit.rolls[1].indices[0]);
  ASSERT_TRUE(die.ok());
  EXPECT_EQ(die->value, 4);
  EXPECT_FALSE(by_index.Next(8, hit.rolls[1].indices[0]).ok()) << "wrong die";
  EXPECT_FALSE(by_index.Next(6, 999).ok()) << "not recorded";
}

}  // namespace
}  // namespace combat::replay
