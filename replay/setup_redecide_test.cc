// Re-deciding the set-up of both bundled examples (one per real ruleset)
// from the roster rebuilt out of its events gives the recorded events byte
// for byte; a set-up whose derived numbers were altered does not.
#include "replay/setup_redecide.h"

#include "gtest/gtest.h"
#include "replay/engine.h"
#include "replay/testing/script_session.h"

namespace combat::replay {
namespace {

class SetupRedecideTest : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    auto session = testing::ScriptSession::Open(
        testing::ReadWorkspaceFile(std::string("replay/examples/") + GetParam() + ".json"),
        "s1", 3, "dana");
    ASSERT_TRUE(session.ok()) << session.status();
    session_ = *std::move(session);
    CommandGrouper grouper(/*keep_events=*/true);
    for (const auto& e : session_->setup()) ASSERT_FALSE(grouper.Add(e).has_value());
    auto c = grouper.Finish();
    ASSERT_TRUE(c.has_value());
    setup_ = *std::move(c);
    auto rules = session_->engine().RulesetOf("s1");
    ASSERT_TRUE(rules.ok());
    rules_ = *rules;
  }
  std::unique_ptr<testing::ScriptSession> session_;
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
