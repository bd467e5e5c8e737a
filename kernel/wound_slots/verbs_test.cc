// The verb table (verbs.cc): complete (every verb Decide takes, nothing
// else) and strict (unknown fields refused before anything is decided).
#include <string>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "kernel/testing/verbs.h"
#include "kernel/verb_schema.h"
#include "kernel/wound_slots/test_util.h"

namespace combat::kernel::wound_slots {
namespace {

using testutil::Aria;
using testutil::Cmd;
using testutil::Orc;
using testutil::Roster;
using testutil::Table;
using testutil::With;
using testutil::WithText;

// A command the table lets through to Decide: the skeleton, with a target,
// a path, refs and text placeholders where the verb requires them.
// Who fills a verb's required fields (kernel/testing/verbs.h).
const kernel::testing::VerbFill kFill = {"aria", "orc", "", {6, 6}};

fb::CommandT Ready(const VerbSchema& v) { return kernel::testing::Filled(v, kFill); }

std::string Refusal(const fb::CommandT& c) {
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  EXPECT_TRUE(t.status().ok()) << t.status();
  return std::string(t.Submit(c).status().message());
}

TEST(Verbs, EveryVerbRefusesAnUnknownParameter) {
  Table t(WoundSlots(), Roster({Aria(), Orc()}), {10, 12});
  ASSERT_TRUE(t.status().ok()) << t.status();
  kernel::testing::ExpectEveryVerbRefusesAnUnknownParameter(t, WoundSlots(), kFill, {"aria", "orc"});
}

TEST(Verbs, DecideKnowsEveryVerbInTheTable) {
  for (const VerbSchema& v : WoundSlots().Verbs()) {
    // The skeleton passes the table, so Decide sees it.
    EXPECT_TRUE(CheckCommand(WoundSlots().Verbs(), Ready(v)).ok()) << v.verb;
    const std::string m = Refusal(Ready(v));
    EXPECT_FALSE(absl::StrContains(m, "unknown action")) << v.verb << ": " << m;
  }
}

TEST(Verbs, TheIssuesCases) {
  fb::CommandT end = Cmd("aria", "end_turn");
  With(end, "edge", 0);
  std::string m = Refusal(end);
  EXPECT_TRUE(absl::StrContains(m, "field 'params.edge': unknown parameter")) << m;
  fb::CommandT atk = Cmd("aria", "standard_attack", {"orc"});
  WithText(atk, "stats", "dex");
  m = Refusal(atk);
  EXPECT_TRUE(absl::StrContains(m, "field 'params.stats'")) << m;
  EXPECT_TRUE(absl::StrContains(m, "takes params: cover")) << m;
  m = Refusal(Cmd("aria", "standart_attack", {"orc"}));
  EXPECT_TRUE(absl::StrContains(m, "did you mean 'standard_attack'?")) << m;
  fb::CommandT sit = Cmd("aria", "change_posture");
  WithText(sit, "to", "sitting");
  m = Refusal(sit);
  EXPECT_TRUE(absl::StrContains(m, "one of: crouching, prone, standing") ||
              absl::StrContains(m, "one of: standing")) << m;
  fb::CommandT cover = Cmd("aria", "standard_attack", {"orc"});
  WithText(cover, "cover", "half");
  m = Refusal(cover);
  EXPECT_TRUE(absl::StrContains(m, "field 'params.cover': a number expected")) << m;
  fb::CommandT armed = Cmd("aria", "defend");
  armed.weapon = "sword";
  m = Refusal(armed);
  EXPECT_TRUE(absl::StrContains(m, "field 'weapon'")) << m;
}

}  // namespace
}  // namespace combat::kernel::wound_slots
