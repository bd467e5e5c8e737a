// The bundled example script replay/examples/d20_ambush.json plays to its
// conclusion with the dice it supplies: set-up dice for initiative and
// every other die per command.
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "events/json.h"
#include "gtest/gtest.h"
#include "kernel/authority.h"
#include "kernel/d20_three_action/internal.h"
#include "kernel/d20_three_action/test_util.h"

namespace combat::kernel::d20 {
namespace {

using namespace testing;  // NOLINT

std::string ReadExample() {
  const char* root = std::getenv("TEST_SRCDIR");
  std::string path = std::string(root == nullptr ? "." : root) +
                     "/combat/replay/examples/d20_ambush.json";
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(Example, AmbushPlaysWithTheScriptsDice) {
  const std::string text = ReadExample();
  ASSERT_FALSE(text.empty());
  auto script = events::ParseScript(text);
  ASSERT_OK(script);
  Table t(D20ThreeAction(), *script->roster, script->setup_dice);
  ASSERT_TRUE(t.status().ok()) << t.status();
  EXPECT_EQ(t.state().order[0].actor, "bo");
  for (size_t i = 0; i < script->commands.size(); ++i) {
    fb::CommandT c = *script->commands[i];
    AssignAuthority(t.state(), c);  // as the CLI does (kernel/authority.h)
    std::vector<int> dice(c.dice.begin(), c.dice.end());
    auto ev = t.Submit(std::move(c), dice);
    ASSERT_TRUE(ev.ok()) << "command " << i + 1 << ": " << ev.status();
    for (const auto& e : *ev) {
      const auto* roll = e.event().body_as_Roll();
      if (roll == nullptr) continue;
      for (const auto* die : *roll->dice()) {
        EXPECT_EQ(die->provenance(), fb::Provenance::Manual)
            << "command " << i + 1 << " rolled a die the script did not give ("
            << roll->purpose()->str() << ")";
      }
    }
  }
  const State& s = t.state();
  EXPECT_TRUE(s.ended);
  EXPECT_TRUE(s.Find("gob")->Has(kDead));  // L132, from the Bleed Table
  // gob: 10 - 8 (bo's critical) - 5 (aria) = -3; it bleeds at its Round 1
  // Turn, unaware but still having it (L11, L15): 2; in Round 2: 3; in Round
  // 3 the Death band kills it (L132) with no 2d6: -8.
  EXPECT_EQ(s.Find("gob")->Resource(kHp), -8);
  EXPECT_TRUE(s.Find("grk")->Has(kDead));  // L140, at -max HP
  EXPECT_EQ(s.Find("grk")->Resource(kHp), -17);
  EXPECT_EQ(s.Find("bo")->Resource(kHp), 18);
  EXPECT_EQ(s.Find("aria")->Resource(kHp), 24);
  ASSERT_OK(t.Replay());
}


}  // namespace
}  // namespace combat::kernel::d20
