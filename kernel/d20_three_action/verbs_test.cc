// The verb table (verbs.cc): every verb refuses what it does not read, every
// verb of the table is one Decide takes, and the cases (issue 16).
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "kernel/d20_three_action/internal.h"
#include "kernel/d20_three_action/test_util.h"
#include "events/json.h"
#include "kernel/decision.h"
#include "kernel/dice/source.h"
#include "kernel/gm.h"
#include "kernel/testing/verbs.h"
#include "kernel/verb_schema.h"

namespace combat::kernel::d20 {
namespace {

using namespace testing;  // NOLINT

fb::RosterT Pair() {
  fb::CombatantSpecT a = Being("aria", "party", 0, 0);
  Arm(a, "spear", "1d8", "melee");
  Arm(a, "dagger", "1d4", "melee", "light");
  fb::CombatantSpecT g = Being("gob", "goblins", 1, 0);
  Arm(g, "club", "1d6", "melee");
  return MakeRoster({std::move(a), std::move(g)});
}

using kernel::testing::ExpectDecideTakesEveryVerb;
using kernel::testing::ExpectEveryVerbRefusesAnUnknownParameter;
using kernel::testing::Refusal;
using kernel::testing::VerbFill;

// Who fills a verb's required fields (kernel/testing/verbs.h).
const VerbFill kFill = {"aria", "gob", "spear", {0, 1}};

TEST(Verbs, EveryVerbRefusesAnUnknownParameter) {
  Table t(D20ThreeAction(), Pair(), {15, 10});
  ASSERT_TRUE(t.status().ok()) << t.status();
  ExpectEveryVerbRefusesAnUnknownParameter(t, D20ThreeAction(), kFill, {"aria", "gob"});
}

TEST(Verbs, DecideTakesEveryVerbOfTheTable) {
  Table t(D20ThreeAction(), Pair(), {15, 10});
  ASSERT_TRUE(t.status().ok()) << t.status();
  ExpectDecideTakesEveryVerb(t.state(), D20ThreeAction(), kFill);
}

TEST(Verbs, TheTableHoldsEveryActionAndGmVerb) {
  const std::vector<VerbSchema>& verbs = D20ThreeAction().Verbs();
  for (const ActionSpec& a : AllActions()) {
    EXPECT_NE(FindVerb(verbs, a.name), nullptr) << a.name;
  }
  for (const char* v : {"end_turn", "delay", "hold", "enter", "pass", "heal"}) {
    EXPECT_NE(FindVerb(verbs, v), nullptr) << v;
  }
  int gm = 0;
  for (const VerbSchema& v : verbs) gm += IsGmVerb(v.verb) ? 1 : 0;
  EXPECT_EQ(gm, 9);
  EXPECT_EQ(verbs.size(), AllActions().size() + 6 + 9);
}

// Issue 16: `end_turn` with `edge` was accepted; now refused naming it.
TEST(Verbs, EndTurnWithEdgeIsRefused) {
  Table t(D20ThreeAction(), Pair(), {15, 10});
  fb::CommandT c = Cmd("aria", "end_turn");
  With(c, "edge", 0);
  const std::string m = Refusal(t, c);
  EXPECT_TRUE(absl::StrContains(
      m, "field 'params.edge': unknown parameter; 'end_turn' takes params: none"))
      << m;
  EXPECT_EQ(t.state().active, "aria");  // nothing was decided
}

// Issue 16: an attack with {"key":"stats","text":"dex"} rolled with STR.
TEST(Verbs, AMisspelledAttackParameterIsRefusedWithTheRightOne) {
  Table t(D20ThreeAction(), Pair(), {15, 10});
  fb::CommandT c = Cmd("aria", "attack", {"gob"});
  c.weapon = "dagger";
  WithText(c, "stats", "dex");
  std::string m = Refusal(t, c);
  EXPECT_TRUE(absl::StrContains(m, "field 'params.stats': unknown parameter; did you mean 'stat'?"))
      << m;
  fb::CommandT upper = Cmd("aria", "attack", {"gob"});
  upper.weapon = "dagger";
  WithText(upper, "stat", "DEX");
  m = Refusal(t, upper);
  EXPECT_TRUE(absl::StrContains(m, "field 'params.stat': 'DEX' is not allowed")) << m;
  EXPECT_TRUE(absl::StrContains(m, "one of: str, dex")) << m;
}

TEST(Verbs, AMisspelledActionGetsDidYouMean) {
  Table t(D20ThreeAction(), Pair(), {15, 10});
  const std::string m = Refusal(t, Cmd("aria", "atack", {"gob"}));
  EXPECT_TRUE(absl::StrContains(m, "unknown action 'atack'; did you mean 'attack'?")) << m;
}

TEST(Verbs, FieldsAVerbDoesNotReadAreRefused) {
  Table t(D20ThreeAction(), Pair(), {15, 10});
  fb::CommandT c = Cmd("aria", "dodge", {"gob"});
  EXPECT_TRUE(absl::StrContains(Refusal(t, c), "field 'targets': 'dodge' does not take targets"));
  fb::CommandT r = Cmd("aria", "ready");
  WithText(r, "action", "atack");
  WithText(r, "trigger", "attacks");
  const std::string m = Refusal(t, r);
  EXPECT_TRUE(absl::StrContains(m, "'atack' is not allowed; did you mean 'attack'?")) << m;
  // control names its spell by text (a cast's seq would be a ref).
  fb::CommandT ctl = Cmd("aria", "control", {"gob"});
  With(ctl, "spell", 3);
  EXPECT_TRUE(absl::StrContains(Refusal(t, ctl), "field 'params.spell': text expected"));
  // cast's `rounds` is not control's.
  fb::CommandT ctl2 = Cmd("aria", "control", {"gob"});
  WithText(ctl2, "spell", "web");
  With(ctl2, "rounds", 2);
  EXPECT_TRUE(absl::StrContains(Refusal(t, ctl2), "field 'params.rounds': unknown parameter"));
}

TEST(Verbs, PassWithoutAWindowIsRefusedAsSuch) {
  Table t(D20ThreeAction(), Pair(), {15, 10});
  auto out = t.Submit(Cmd("aria", "pass"));
  EXPECT_EQ(out.status().code(), absl::StatusCode::kFailedPrecondition) << out.status();
  EXPECT_TRUE(absl::StrContains(out.status().message(), "no window is open"));
}

// The README shows the table, and its examples pass it.
TEST(Verbs, TheReadmeAgreesWithTheTable) {
  kernel::testing::ExpectReadmeAgreesWithTheTable("d20_three_action", D20ThreeAction(), "Examples (one per verb):", 40u);
}

}  // namespace
}  // namespace combat::kernel::d20
