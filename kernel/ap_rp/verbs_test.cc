// The verb table (verbs.cc): complete (every verb Decide takes, nothing
// else) and strict (unknown fields refused before anything is decided).
#include <string>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "kernel/ap_rp/internal.h"
#include "kernel/ap_rp/test_util.h"
#include "kernel/command.h"
#include "kernel/testing/verbs.h"
#include "kernel/verb_schema.h"

namespace combat::kernel::aprp {
namespace {

using namespace testing;  // NOLINT

fb::RosterT Two() {
  auto a = Being("a", "party", 1, 1);
  Arm(a, "ax", "1d8", "melee");
  auto o = Being("orc", "orcs", 2, 1);
  return MakeRoster({a, o});
}

// A command the table lets through to Decide: the skeleton, with a target,
// a path, refs and text placeholders where the verb requires them.
// Who fills a verb's required fields (kernel/testing/verbs.h).
const kernel::testing::VerbFill kFill = {"a", "orc", "", {1, 2}};

fb::CommandT Ready(const VerbSchema& v) { return kernel::testing::Filled(v, kFill); }

std::string Refusal(const fb::CommandT& c) {
  Table t(ApRp(), Two());
  EXPECT_TRUE(t.status().ok()) << t.status();
  return std::string(t.Submit(c).status().message());
}

TEST(Verbs, EveryVerbRefusesAnUnknownParameter) {
  Table t(ApRp(), Two());
  ASSERT_TRUE(t.status().ok()) << t.status();
  kernel::testing::ExpectEveryVerbRefusesAnUnknownParameter(t, ApRp(), kFill, {"a", "orc"});
}

TEST(Verbs, DecideKnowsEveryVerbInTheTable) {
  for (const VerbSchema& v : ApRp().Verbs()) {
    // The skeleton passes the table, so Decide sees it.
    EXPECT_TRUE(kernel::CheckCommand(ApRp().Verbs(), Ready(v)).ok()) << v.verb;
    const std::string m = Refusal(Ready(v));
    EXPECT_FALSE(absl::StrContains(m, "unknown action")) << v.verb << ": " << m;
  }
}

TEST(Verbs, TheIssuesCases) {
  fb::CommandT end = Cmd("a", "end_turn");
  With(end, "edge", 0);
  std::string m = Refusal(end);
  EXPECT_TRUE(absl::StrContains(m, "field 'params.edge': unknown parameter")) << m;
  fb::CommandT atk = Attack("a", "orc", "ax");
  WithText(atk, "stats", "dex");
  m = Refusal(atk);
  EXPECT_TRUE(absl::StrContains(m, "field 'params.stats'")) << m;
  EXPECT_TRUE(absl::StrContains(m, "takes params: miss")) << m;
  m = Refusal(Cmd("a", "atack", {"orc"}));
  EXPECT_TRUE(absl::StrContains(m, "did you mean 'attack'?")) << m;
  fb::CommandT trip = Cmd("a", "trip", {"orc"});
  WithText(trip, "skill", "nimbleness");
  m = Refusal(trip);
  EXPECT_TRUE(absl::StrContains(m, "field 'params.skill'")) << m;
  EXPECT_TRUE(absl::StrContains(m, "athletics")) << m;
  fb::CommandT typed = Attack("a", "orc", "ax");
  WithText(typed, "armor_from", "fire");
  m = Refusal(typed);
  EXPECT_TRUE(absl::StrContains(m, "field 'params.armor_from'")) << m;
  fb::CommandT two = Cmd("a", "trip", {"orc", "a"});
  m = Refusal(two);
  EXPECT_TRUE(absl::StrContains(m, "targets[1]")) << m;
}

// A parameter's doc cites the line of its rule: Switch Places's `declined`
// is 004_1a3e461770fc9e7a.txt l.23 ("They must use a reaction (1 RP), or
// this action fails"), not l.25 (Taking Cover) (black-box: the verb table
// said "the ally declines (l.25)").
TEST(Verbs, ParameterDocsCiteTheirOwnLine) {
  bool seen = false;
  for (const VerbSchema& v : ApRp().Verbs()) {
    if (v.verb != "switch_places") continue;
    for (const ParamSpec& p : v.params) {
      if (p.key != "declined") continue;
      seen = true;
      EXPECT_TRUE(absl::StrContains(p.doc, "(l.23)")) << p.doc;
    }
  }
  EXPECT_TRUE(seen);
}

}  // namespace
}  // namespace combat::kernel::aprp
