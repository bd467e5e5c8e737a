// Input limits (replay/limits.h) and the CLI's guards around files: each
// refusal names the field or flag and the limit, and nothing is written.
#include "replay/limits.h"

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernel/dice/notation.h"
#include "replay/testing/cli_run.h"
#include "tests/testing/temp_dir.h"

namespace combat::replay {
namespace {

TEST(LimitsTest, CommandTextFieldOverTheLimitIsRefusedNamingIt) {
  fb::CommandT c;
  c.id = "c1";
  c.text = std::string(kMaxTextBytes, 'x');
  EXPECT_TRUE(CheckCommandLimits(c).ok());
  c.text.push_back('x');
  absl::Status st = CheckCommandLimits(c);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message(),
            "command field 'text': 4097 bytes is over the limit of 4096 bytes");
}

TEST(LimitsTest, CommandListsAndDiceAreBounded) {
  fb::CommandT c;
  c.dice.assign(kMaxManualDice + 1, 3);
  EXPECT_EQ(CheckCommandLimits(c).message(),
            "command field 'dice': 1001 items is over the limit of 1000 items");
  c.dice.clear();
  c.targets.assign(kMaxListItems + 1, "gob");
  EXPECT_NE(CheckCommandLimits(c).message().find("command field 'targets'"),
            std::string::npos);
}

// A rest's Rounds may ask more dice than a command holds (energy_rounds:
// a d20 a Round for each creature rolling to wake or bleeding out, 12 Rounds
// a minute, kernel/energy_rounds/README.md "Dice order"): the refusal says
// how to go on, with the kernel's `digital_rest`. Other commands keep the
// plain refusal (above).
TEST(LimitsTest, TooManyDiceForARestNamesDigitalRest) {
  for (const char* rest : {"short_rest", "long_rest"}) {
    fb::CommandT c;
    c.action = rest;
    c.dice.assign(kMaxManualDice, 3);
    EXPECT_TRUE(CheckCommandLimits(c).ok()) << rest;
    c.dice.push_back(3);
    absl::Status st = CheckCommandLimits(c);
    EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(st.message(),
              "command field 'dice': 1001 items is over the limit of 1000 items; "
              "a rest's many rolls: give at most 1000 dice with params "
              "{\"key\": \"digital_rest\", \"value\": 1} and the rest are "
              "rolled digitally (seeded)")
        << rest;
  }
}

TEST(LimitsTest, RosterSizeIsBounded) {
  fb::RosterT r;
  r.ruleset = "d20_three_action";
  for (uint64_t i = 0; i <= kMaxCombatants; ++i) {
    r.combatants.push_back(std::make_unique<fb::CombatantSpecT>());
  }
  EXPECT_EQ(CheckRosterLimits(r).message(),
            "roster field 'combatants': 10001 items is over the limit of "
            "10000 items");
  r.combatants.resize(3000);
  EXPECT_TRUE(CheckRosterLimits(r).ok());
  r.combatants[7]->name = std::string(kMaxTextBytes + 1, 'n');
  EXPECT_NE(CheckRosterLimits(r).message().find("'combatants[7].name"),
            std::string::npos);
}

TEST(LimitsTest, DiceCountInAnExpressionIsBoundedByTheNotation) {
  EXPECT_TRUE(kernel::dice::ParseDice("100d6").ok());
  absl::StatusOr<kernel::dice::DiceExpr> e = kernel::dice::ParseDice("101d6");
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.status().message().find("a dice count from 1 to 100"),
            std::string::npos) << e.status();
}

class CliGuardsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    CliRun played = RunCombat({"play", "--db", db_, "--session", "s1",
                               "--script", "replay/examples/d20_ambush.json"});
    ASSERT_EQ(played.code, 0) << played.err;
  }
  int Combat(std::vector<std::string> args, std::string* err) {
    CliRun r = RunCombat(args);
    *err = r.err;
    return r.code;
  }
  testing::TempDir tmp_{"limits"};
  const std::string dir_ = tmp_.path();
  const std::string db_ = tmp_.db();
};

TEST_F(CliGuardsTest, ExportRefusesToWriteInsideTheDatabase) {
  std::string err;
  for (const std::string& out :
       {db_ + "/CURRENT", db_ + "/new.cmbb", db_ + "/../db/x.cmbb", db_}) {
    EXPECT_EQ(Combat({"export", "--db", db_, "--session", "s1", "--out", out},
                     &err),
              2)
        << out;
    EXPECT_NE(err.find("is inside the database directory"), std::string::npos)
        << err;
  }
  EXPECT_EQ(Combat({"export", "--db", db_, "--session", "s1", "--out",
                    dir_ + "/s1.cmbb", "--transcript", db_ + "/t.txt"},
                   &err),
            2);
  EXPECT_NE(err.find("flag --transcript"), std::string::npos) << err;
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/s1.cmbb"));
  EXPECT_EQ(Combat({"export", "--db", db_, "--session", "s1", "--out",
                    dir_ + "/s1.cmbb"},
                   &err),
            0)
      << err;
  // A sibling whose name starts with the database's is not inside it.
  EXPECT_EQ(Combat({"export", "--db", db_, "--session", "s1", "--out",
                    dir_ + "/db2.cmbb"},
                   &err),
            0)
      << err;
}

TEST_F(CliGuardsTest, AtZeroIsRefusedNotTheHead) {
  std::string err;
  for (const char* verb : {"state", "jump", "step", "explain"}) {
    std::vector<std::string> args = {verb, "--db", db_, "--session", "s1",
                                     "--at", "0"};
    if (std::string(verb) == "explain") {
      args.insert(args.end(), {"--event", "1"});
    }
    EXPECT_EQ(Combat(args, &err), 2) << verb;
    EXPECT_NE(err.find("flag --at: 0 is not an event"), std::string::npos)
        << verb << ": " << err;
  }
}

TEST_F(CliGuardsTest, AnOversizedCommandFileIsRefusedUnread) {
  const std::string path = dir_ + "/huge.json";
  std::ofstream(path) << std::string(kMaxCommandFileBytes + 1, ' ');
  std::string err;
  EXPECT_EQ(Combat({"submit", "--db", db_, "--session", "s1", "--command", path},
                   &err),
            2);
  EXPECT_NE(err.find("over the limit of 65536 bytes"), std::string::npos) << err;
}

}  // namespace
}  // namespace combat::replay
