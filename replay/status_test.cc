#include "replay/status.h"

#include <string>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "replay/engine.h"
#include "replay/testing/fixture.h"
#include "replay/testing/toy.h"

namespace combat::replay {
namespace {

using testing::ToyCmd;

class StatusTest : public testing::ToyFixture {};

const LegalAct* Find(const TableStatus& st, const std::string& verb) {
  for (const LegalAct& a : st.legal) {
    if (a.verb == verb) return &a;
  }
  return nullptr;
}

const NotNow* FindNot(const TableStatus& st, const std::string& verb) {
  for (const NotNow& n : st.not_now) {
    if (n.verb == verb) return &n;
  }
  return nullptr;
}

TEST_F(StatusTest, WhoseTurnVitalsBudgetsAndTheLegalActs) {
  const std::string me = Active();
  const std::string foe = Other(me);
  auto st = engine_->Status("s1", "main", me);
  ASSERT_TRUE(st.ok()) << st.status();
  EXPECT_EQ(st->active, me);
  EXPECT_EQ(st->round, 1);
  ASSERT_EQ(st->combatants.size(), 2u);
  // The toy's display: hp up to the roster's hp (10), actions (2 a turn).
  const CombatantStatus& c = st->combatants[0];
  ASSERT_EQ(c.vitals.size(), 1u);
  EXPECT_EQ(c.vitals[0].resource, "hp");
  EXPECT_EQ(c.vitals[0].current, 10);
  EXPECT_EQ(c.vitals[0].max, 10);
  // Legal now: attack (against the foe only: the toy refuses nothing else
  // about targets, so itself too), ready, end_turn; coup is not: the
  // target must be Down.
  const LegalAct* attack = Find(*st, "attack");
  ASSERT_NE(attack, nullptr);
  EXPECT_TRUE(absl::StrContains(attack->command, "\"action\": \"attack\"")) << attack->command;
  EXPECT_TRUE(absl::StrContains(attack->command, "\"targets\": [")) << attack->command;
  EXPECT_FALSE(absl::StrContains(attack->command, "\"id\"")) << attack->command;
  ASSERT_NE(Find(*st, "end_turn"), nullptr);
  const NotNow* coup = FindNot(*st, "coup");
  ASSERT_NE(coup, nullptr);
  EXPECT_TRUE(absl::StrContains(coup->reason, "must be Down")) << coup->reason;
  // release needs a readied act (a ref the skeleton cannot guess).
  const LegalAct* release = Find(*st, "release");
  ASSERT_NE(release, nullptr);
  EXPECT_TRUE(absl::StrContains(release->needs, "refs.act")) << release->needs;
  // Nothing was written: the head is where it was.
  const uint64_t head = HeadOf();
  ASSERT_TRUE(engine_->Status("s1", "main", foe).ok());
  EXPECT_EQ(HeadOf(), head);
}

TEST_F(StatusTest, NotYourTurnIsWhyNot) {
  const std::string other = Other(Active());
  auto st = engine_->Status("s1", "main", other);
  ASSERT_TRUE(st.ok()) << st.status();
  EXPECT_TRUE(st->legal.empty() || Find(*st, "attack") == nullptr);
  const NotNow* attack = FindNot(*st, "attack");
  ASSERT_NE(attack, nullptr);
  EXPECT_TRUE(absl::StrContains(attack->reason, "turn")) << attack->reason;
}

TEST_F(StatusTest, TheSpentBudgetAndAnUnknownCombatant) {
  const std::string me = Active();
  Do(ToyCmd("s-1", me, "attack", {Other(me)}, {2}));  // misses (2+2 < 12)
  auto st = engine_->Status("s1", "main");
  ASSERT_TRUE(st.ok()) << st.status();
  for (const CombatantStatus& c : st->combatants) {
    if (c.id != me) continue;
    ASSERT_EQ(c.budgets.size(), 1u);
    EXPECT_EQ(c.budgets[0].first, "actions");
    EXPECT_EQ(c.budgets[0].second, 1);
  }
  auto bad = engine_->Status("s1", "main", "zz");
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kNotFound);
  EXPECT_TRUE(absl::StrContains(bad.status().message(), "the combatants are: a, b"))
      << bad.status();
  const std::string text = RenderStatus(*st);
  EXPECT_TRUE(absl::StrContains(text, absl::StrCat(", ", me, "'s turn"))) << text;
  EXPECT_TRUE(absl::StrContains(text, "hp 10/10")) << text;
  const std::string json = StatusJson(*st);
  EXPECT_TRUE(absl::StrContains(json, "{\"resource\":\"hp\",\"current\":10,\"max\":10}")) << json;
  EXPECT_EQ(json.find('\n'), json.size() - 1);  // one line
}

}  // namespace
}  // namespace combat::replay
