// Re-deciding the set-up of both bundled examples (one per real ruleset)
// from the roster rebuilt out of its events gives the recorded events byte
// for byte; a set-up whose derived numbers were altered does not.
#include "replay/setup_redecide.h"

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "events/json.h"
#include "gtest/gtest.h"
#include "replay/engine.h"

namespace combat::replay {
namespace {

class SetupRedecideTest : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    std::string templ = ::testing::TempDir() + "/setup-XXXXXX";
    ASSERT_NE(mkdtemp(templ.data()), nullptr);
    dir_ = templ;
    auto engine = Engine::Open(dir_ + "/db");
    ASSERT_TRUE(engine.ok()) << engine.status();
    engine_ = *std::move(engine);
    std::ifstream in(std::string("replay/examples/") + GetParam() + ".json");
    std::stringstream text;
    text << in.rdbuf();
    auto script = events::ParseScript(text.str());
    ASSERT_TRUE(script.ok()) << script.status();
    auto setup = engine_->CreateSession("s1", *script->roster, std::vector<uint8_t>(32, 3),
                                        "dana", script->setup_dice);
    ASSERT_TRUE(setup.ok()) << setup.status();
    CommandGrouper grouper(/*keep_events=*/true);
    for (const auto& e : *setup) ASSERT_FALSE(grouper.Add(e).has_value());
    auto c = grouper.Finish();
    ASSERT_TRUE(c.has_value());
    setup_ = *std::move(c);
    auto rules = engine_->RulesetOf("s1");
    ASSERT_TRUE(rules.ok());
    rules_ = *rules;
  }
  void TearDown() override {
    engine_.reset();
    std::filesystem::remove_all(dir_);
  }
  std::string dir_;
  std::unique_ptr<Engine> engine_;
  RecordedCommand setup_;
  const kernel::Ruleset* rules_ = nullptr;
};

TEST_P(SetupRedecideTest, TheRebuiltRosterReproducesTheSetUp) {
  auto roster = RosterOf(setup_);
  ASSERT_TRUE(roster.ok()) << roster.status();
  EXPECT_GE(roster->combatants.size(), 3u);
  EXPECT_EQ(roster->ruleset, rules_->id());
  auto again = RedecideSetup(*rules_, setup_);
  ASSERT_TRUE(again.ok()) << again.status();
  ASSERT_EQ(again->size(), setup_.events.size());
  for (size_t i = 0; i < again->size(); ++i) {
    EXPECT_EQ((*again)[i].bytes(), setup_.events[i].bytes()) << "set-up event " << i + 1;
  }
}

TEST_P(SetupRedecideTest, AnAlteredDerivedNumberIsNotReproduced) {
  // Change the first resource the set-up derives (hp, energy, ...) by one.
  bool altered = false;
  for (auto& e : setup_.events) {
    fb::EventT t;
    e.event().UnPackTo(&t);
    auto* sc = t.body.AsStateChange();
    if (sc == nullptr || sc->change.AsResourceSet() == nullptr) continue;
    sc->change.AsResourceSet()->value += 1;
    auto buf = events::EventBuffer::FromOwned(events::EncodeEvent(t), "altered");
    ASSERT_TRUE(buf.ok());
    e = *std::move(buf);
    altered = true;
    break;
  }
  ASSERT_TRUE(altered) << "the set-up sets no resource";
  auto again = RedecideSetup(*rules_, setup_);
  ASSERT_TRUE(again.ok()) << again.status();
  bool same = again->size() == setup_.events.size();
  for (size_t i = 0; same && i < again->size(); ++i) {
    same = (*again)[i].bytes() == setup_.events[i].bytes();
  }
  EXPECT_FALSE(same);
}

INSTANTIATE_TEST_SUITE_P(Examples, SetupRedecideTest,
                         ::testing::Values("d20_ambush", "energy_skirmish"));

}  // namespace
}  // namespace combat::replay
