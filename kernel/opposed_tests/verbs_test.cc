// The verb table (verbs.cc): complete (every verb Decide takes, nothing
// else) and strict (unknown fields refused before anything is decided).
#include <string>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "kernel/command.h"
#include "kernel/opposed_tests/test_util.h"
#include "kernel/testing/verbs.h"
#include "kernel/verb_schema.h"

namespace combat::kernel::opposed::testutil {
namespace {

fb::RosterT Two() {
  auto a = Who("a", "x", 5, 5, {{"health", 20}, {"speed", 6}, {"fighting_style", 2}},
               {W("club", "1d6", "melee", "medium", {}, "crushing")});
  auto d = Who("d", "y", 6, 5, {{"health", 20}, {"speed", 6}, {"initiative", -5}},
               {W("sword", "1d8", "melee", "medium")});
  return Roster({std::move(a), std::move(d)});
}

// A command the table lets through to Decide: the skeleton, with a target,
// a weapon, a path, refs and text placeholders where the verb requires them.
// Who fills a verb's required fields (kernel/testing/verbs.h).
const kernel::testing::VerbFill kFill = {"a", "d", "club", {5, 6}};

fb::CommandT Ready(const VerbSchema& v) { return kernel::testing::Filled(v, kFill); }

std::string Refusal(const fb::CommandT& c) {
  Table t(OpposedTests(), Two(), {6, 1});
  EXPECT_TRUE(t.status().ok()) << t.status();
  return std::string(t.Submit(c).status().message());
}

TEST(Verbs, EveryVerbRefusesAnUnknownParameter) {
  Table t(OpposedTests(), Two(), {6, 1});
  ASSERT_TRUE(t.status().ok()) << t.status();
  kernel::testing::ExpectEveryVerbRefusesAnUnknownParameter(t, OpposedTests(), kFill, {"a", "d"});
}

TEST(Verbs, DecideKnowsEveryVerbInTheTable) {
  for (const VerbSchema& v : OpposedTests().Verbs()) {
    // The skeleton passes the table, so Decide sees it.
    EXPECT_TRUE(CheckCommand(OpposedTests().Verbs(), Ready(v)).ok()) << v.verb;
    const std::string m = Refusal(Ready(v));
    EXPECT_FALSE(absl::StrContains(m, "unknown action")) << v.verb << ": " << m;
  }
}

TEST(Verbs, TheIssuesCases) {
  fb::CommandT end = Cmd("a", "end_turn");
  With(end, "edge", 0);
  std::string m = Refusal(end);
  EXPECT_TRUE(absl::StrContains(m, "field 'params.edge': unknown parameter")) << m;
  fb::CommandT strike = Cmd("a", "strike", {"d"});
  strike.weapon = "club";
  WithText(strike, "stats", "dex");
  m = Refusal(strike);
  EXPECT_TRUE(absl::StrContains(m, "field 'params.stats'")) << m;
  EXPECT_TRUE(absl::StrContains(m, "takes params: attribute")) << m;
  fb::CommandT agi = Cmd("a", "strike", {"d"});
  agi.weapon = "club";
  WithText(agi, "attribute", "dex");
  m = Refusal(agi);
  EXPECT_TRUE(absl::StrContains(m, "one of: str, agi")) << m;
  m = Refusal(Cmd("a", "strke", {"d"}));
  EXPECT_TRUE(absl::StrContains(m, "did you mean 'strike'?")) << m;
  m = Refusal(Cmd("a", "strike", {"d"}));
  EXPECT_TRUE(absl::StrContains(m, "field 'weapon': required")) << m;
}

}  // namespace
}  // namespace combat::kernel::opposed::testutil
