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
#include "events/json.h"
#include "kernel/decision.h"
#include "kernel/display.h"
#include "kernel/dice/source.h"
#include "kernel/gm.h"
#include "kernel/energy_rounds/test_util.h"
#include "kernel/testing/verbs.h"
#include "kernel/verb_schema.h"

namespace combat::kernel::energy::testutil {
namespace {

fb::RosterT Pair() {
  std::vector<fb::CombatantSpecT> cs;
  cs.push_back(Who("kara", "party", 5, 5,
                   {{"level", 3}, {"str", 2}, {"dex", 2}, {"con", 1}, {"con_score", 12}},
                   {W("sword", "1d8", "melee", "medium")}));
  cs.push_back(Who("orc", "orcs", 6, 5, {{"str", 3}, {"con", 2}, {"con_score", 14}},
                   {W("axe", "1d10", "melee", "heavy")}));
  return Roster(std::move(cs));
}

using kernel::testing::ExpectDecideTakesEveryVerb;
using kernel::testing::ExpectEveryVerbRefusesAnUnknownParameter;
using kernel::testing::Refusal;
using kernel::testing::VerbFill;

// Who fills a verb's required fields (kernel/testing/verbs.h).
const VerbFill kFill = {"kara", "orc", "sword", {5, 6}};

TEST(Verbs, EveryVerbRefusesAnUnknownParameter) {
  Table t(EnergyRounds(), Pair());
  ASSERT_TRUE(t.status().ok()) << t.status();
  ExpectEveryVerbRefusesAnUnknownParameter(t, EnergyRounds(), kFill, {"kara", "orc"});
}

TEST(Verbs, DecideTakesEveryVerbOfTheTable) {
  Table t(EnergyRounds(), Pair());
  ASSERT_TRUE(t.status().ok()) << t.status();
  ExpectDecideTakesEveryVerb(t.state(), EnergyRounds(), kFill);
}

TEST(Verbs, TheTableHoldsEveryActAndGmVerb) {
  const std::vector<VerbSchema>& verbs = EnergyRounds().Verbs();
  int acts = 0, gm = 0;
  for (const VerbSchema& v : verbs) {
    acts += FindVerb(v.verb) != nullptr ? 1 : 0;
    gm += IsGmVerb(v.verb) ? 1 : 0;
  }
  EXPECT_EQ(acts, 23);  // acts.cc's table
  EXPECT_EQ(gm, 9);
  for (const char* v : {"interrupt", "resolve", "cancel", "pass", "save_initiative",
                        "end_round", "face", "release", "remove_condition", "short_rest",
                        "long_rest", "surge"}) {
    EXPECT_NE(kernel::FindVerb(verbs, v), nullptr) << v;
  }
  EXPECT_EQ(verbs.size(), 23u + 12u + 9u);
}

// Issue 16: an unsupported parameter was ignored ("edge": 0).
TEST(Verbs, PassWithEdgeIsRefused) {
  Table t(EnergyRounds(), Pair());
  fb::CommandT c = Cmd("kara", "pass");
  With(c, "edge", 0);
  const std::string m = Refusal(t, c);
  EXPECT_TRUE(absl::StrContains(
      m, "field 'params.edge': unknown parameter; 'pass' takes params: none"))
      << m;
  EXPECT_FALSE(t.state().Find("kara")->Has("Passed"));  // nothing was decided
}

TEST(Verbs, AMisspelledParameterGetsTheRightOne) {
  Table t(EnergyRounds(), Pair());
  fb::CommandT c = Cmd("kara", "melee", {"orc"});
  With(c, "swfit", 1);
  std::string m = Refusal(t, c);
  EXPECT_TRUE(absl::StrContains(m, "field 'params.swfit': unknown parameter; did you mean 'swift'?"))
      << m;
  fb::CommandT d = Cmd("kara", "melee", {"orc"});
  WithText(d, "defense", "Will");
  m = Refusal(t, d);
  EXPECT_TRUE(absl::StrContains(m, "'Will' is not allowed; did you mean 'will'?; one of: evasion, "
                                   "fortitude, will"))
      << m;
  // The ranged roll is always against Ranged Evasion: `defense` was read
  // (checked) and never used.
  fb::CommandT r = Cmd("kara", "ranged", {"orc"});
  WithText(r, "defense", "will");
  EXPECT_TRUE(absl::StrContains(Refusal(t, r), "field 'params.defense': unknown parameter"));
}

TEST(Verbs, AMisspelledActionGetsDidYouMean) {
  Table t(EnergyRounds(), Pair());
  const std::string m = Refusal(t, Cmd("kara", "mele", {"orc"}));
  EXPECT_TRUE(absl::StrContains(m, "unknown action 'mele'; did you mean 'melee'?")) << m;
}

// Stamina enhances attacks only (l.80); a unarmed attack takes no weapon.
TEST(Verbs, FieldsAndParamsAnActDoesNotRead) {
  Table t(EnergyRounds(), Pair());
  fb::CommandT s = Cmd("kara", "shift");
  Path(s, {{5, 6}});
  With(s, "enhance", 1);
  EXPECT_TRUE(absl::StrContains(Refusal(t, s), "field 'params.enhance': unknown parameter"));
  fb::CommandT u = Cmd("kara", "unarmed", {"orc"});
  u.weapon = "sword";
  EXPECT_TRUE(absl::StrContains(Refusal(t, u), "field 'weapon': 'unarmed' does not take weapon"));
}

// An interrupt takes any act's params, but its act only its own.
TEST(Verbs, AnInterruptsActIsCheckedAgainstItsOwnRow) {
  Table t(EnergyRounds(), Pair());
  ASSERT_TRUE(t.Submit(Cmd("orc", "melee", {"kara"})).ok());
  ASSERT_EQ(t.state().windows.size(), 1u);
  fb::CommandT c = Cmd("kara", "interrupt");
  c.window = t.state().windows.begin()->first;
  WithText(c, "act", "shift");
  Path(c, {{4, 5}});
  With(c, "swift", 1);
  const std::string m = Refusal(t, c);
  EXPECT_TRUE(absl::StrContains(m, "command 'shift': field 'params.swift': unknown parameter")) << m;
}

// The README shows the table, and its examples pass it.
TEST(Verbs, TheReadmeAgreesWithTheTable) {
  kernel::testing::ExpectReadmeAgreesWithTheTable("energy_rounds", EnergyRounds(), "JSON examples (Script `commands` entries):", 15u);
}

// How the state reads (kernel/display.h): the Round's metres (`moved_m`,
// l.35 "move more than your Speed during a Round"), the Sprint marking
// back-to-back movement (`sprinted`, l.25, l.27) and the once-a-Round
// Stamina paid as Energy (`stamina_energy_used`, l.47) are counters the
// rules keep, not game values: bookkeeping, with the other once-a-Round
// uses, never among Energy, Agility and Stamina.
TEST(Verbs, RoundCountersAreBookkeepingNotBudgets) {
  const kernel::Display d = EnergyRounds().display();
  for (const char* name : {"moved_m", "sprinted", "stamina_energy_used", "swift_used",
                           "initiative_round", "move_streak"}) {
    EXPECT_TRUE(kernel::IsBookkeeping(d, name)) << name;
  }
  for (const char* name : {"energy", "agility", "stamina", "aura", "surges", "facing"}) {
    EXPECT_FALSE(kernel::IsBookkeeping(d, name)) << name;
  }
}

}  // namespace
}  // namespace combat::kernel::energy::testutil
