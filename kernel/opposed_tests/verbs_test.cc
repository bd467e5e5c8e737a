// The verb table (verbs.cc): complete (every verb Decide takes, nothing
// else) and strict (unknown fields refused before anything is decided).
#include <string>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "kernel/command.h"
#include "kernel/opposed_tests/test_util.h"
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
fb::CommandT Ready(const VerbSchema& v) {
  fb::CommandT c = kernel::Skeleton(v, "a");
  if (v.targets == Use::kRequired) c.targets = {"d"};
  if (v.weapon == Use::kRequired) c.weapon = "club";
  if (v.path == Use::kRequired) Path(c, {{5, 6}});
  for (const RefSpec& r : v.refs) {
    if (r.required) AddRef(c, r.key, 1);
  }
  for (auto& p : c.params) {
    if (!p->text.empty()) continue;
    for (const ParamSpec& s : v.params) {
      if (s.key == p->key && s.type == ParamType::kText) p->text = "x";
    }
  }
  return c;
}

std::string Refusal(const fb::CommandT& c) {
  Table t(OpposedTests(), Two(), {6, 1});
  EXPECT_TRUE(t.status().ok()) << t.status();
  return std::string(t.Submit(c).status().message());
}

TEST(Verbs, EveryVerbRefusesAnUnknownParameter) {
  ASSERT_FALSE(OpposedTests().Verbs().empty());
  for (const VerbSchema& v : OpposedTests().Verbs()) {
    // gm_order's params are "<combatant id>: initiative" (any key).
    if (v.verb == "gm_order") continue;
    fb::CommandT c = Ready(v);
    With(c, "zz", 1);
    Table t(OpposedTests(), Two(), {6, 1});
    absl::Status st = t.Submit(c).status();
    EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << v.verb << ": " << st;
    EXPECT_TRUE(absl::StrContains(st.message(), "params.zz")) << v.verb << ": " << st;
  }
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
