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

// The verb's skeleton by aria, with the fields it requires filled in
// (targets gob, weapon spear, a path) and the GM's role for GM verbs.
fb::CommandT Filled(const VerbSchema& v) {
  fb::CommandT c = Skeleton(v, "aria");
  if (v.targets == Use::kRequired) c.targets = {"gob"};
  if (v.weapon == Use::kRequired) c.weapon = "spear";
  if (v.path == Use::kRequired) c.path.emplace_back(0, 1);
  if (v.gm) {
    c.role = fb::Role::GM;
    c.author = "gm";
    c.text = "ruling";
  }
  return c;
}

// The README's verb table is the one Verbs() publishes: rendered here, it
// must be the block between the markers.
std::string Cell(std::string s) {
  std::string out;
  for (char ch : s) {
    if (ch == '|') out += '\\';
    out += ch;
  }
  return out;
}

std::string Field(const char* name, Use use) {
  if (use == Use::kNo) return "";
  return absl::StrCat("`", name, "`", use == Use::kOptional ? " (optional)" : "");
}

std::string Render(const std::vector<VerbSchema>& verbs) {
  std::string md = "| verb | fields | params and refs |\n|---|---|---|\n";
  for (const VerbSchema& v : verbs) {
    std::vector<std::string> fields;
    if (v.gm) fields.push_back("GM");
    for (const std::string& f : {Field("actor", v.actor), Field("targets", v.targets),
                                 Field("weapon", v.weapon), Field("path", v.path)}) {
      if (!f.empty()) fields.push_back(f);
    }
    std::vector<std::string> params;
    for (const ParamSpec& p : v.params) {
      params.push_back(absl::StrCat("`", p.key, "` (", TypeName(p),
                                    p.required ? ", required" : "", ")",
                                    p.doc.empty() ? "" : ": " + p.doc));
    }
    for (const RefSpec& r : v.refs) {
      params.push_back(absl::StrCat("ref `", r.key, "`", r.required ? " (required)" : "",
                                    r.doc.empty() ? "" : ": " + r.doc));
    }
    absl::StrAppend(&md, "| `", v.verb, "` | ",
                    Cell(fields.empty() ? "–" : absl::StrJoin(fields, ", ")), " | ",
                    Cell(params.empty() ? "–" : absl::StrJoin(params, "; ")), " |\n");
  }
  return md;
}

std::string ReadmeBlock(const std::string& ruleset) {
  const char* root = std::getenv("TEST_SRCDIR");
  std::ifstream in(std::string(root == nullptr ? "." : root) + "/combat/kernel/" + ruleset +
                   "/README.md");
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  const std::string begin = "<!-- verbs:begin (verbs_test renders it) -->\n";
  const size_t b = text.find(begin);
  const size_t e = text.find("<!-- verbs:end -->");
  if (b == std::string::npos || e == std::string::npos || e < b) return "";
  return text.substr(b + begin.size(), e - b - begin.size());
}

// The JSON objects of the README's first ```json block after `heading`.
std::vector<std::string> ReadmeExamples(const std::string& ruleset, const std::string& heading) {
  const char* root = std::getenv("TEST_SRCDIR");
  std::ifstream in(std::string(root == nullptr ? "." : root) + "/combat/kernel/" + ruleset +
                   "/README.md");
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  const size_t h = text.find(heading);
  if (h == std::string::npos) return {};
  const size_t b = text.find("```json\n", h);
  const size_t e = text.find("```\n", b + 8);
  if (b == std::string::npos || e == std::string::npos) return {};
  std::vector<std::string> out;
  std::string cur;
  int depth = 0;
  for (char ch : text.substr(b + 8, e - b - 8)) {
    if (ch == '{') ++depth;
    if (depth > 0) cur += ch;
    if (ch == '}' && --depth == 0) {
      out.push_back(cur);
      cur.clear();
    }
  }
  return out;
}

std::string Refusal(Table& t, const fb::CommandT& c) {
  auto out = t.Submit(c);
  if (out.ok()) return "";
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument)
      << c.action << ": " << out.status();
  return std::string(out.status().message());
}

TEST(Verbs, EveryVerbRefusesAnUnknownParameter) {
  Table t(D20ThreeAction(), Pair(), {15, 10});
  ASSERT_TRUE(t.status().ok()) << t.status();
  ASSERT_FALSE(D20ThreeAction().Verbs().empty());
  for (const VerbSchema& v : D20ThreeAction().Verbs()) {
    fb::CommandT c = Filled(v);
    // First, so that the skeleton's placeholders (empty text) come after.
    auto zz = std::make_unique<fb::ParamT>();
    zz->key = "zz";
    zz->value = 1;
    c.params.insert(c.params.begin(), std::move(zz));
    if (v.verb == "gm_order") {
      // Its params are keyed by combatant id (kernel/gm.h): zz is no one.
      c.targets = {"aria", "gob"};
      const std::string m = Refusal(t, c);
      EXPECT_TRUE(absl::StrContains(m, "param 'zz': not a combatant")) << m;
      continue;
    }
    const std::string m = Refusal(t, c);
    EXPECT_TRUE(absl::StrContains(m, "field 'params.zz': unknown parameter"))
        << v.verb << ": " << m;
  }
}

TEST(Verbs, DecideTakesEveryVerbOfTheTable) {
  Table t(D20ThreeAction(), Pair(), {15, 10});
  ASSERT_TRUE(t.status().ok()) << t.status();
  dice::SeededDice seeded(std::vector<uint8_t>(32, 7), "verbs");
  for (const VerbSchema& v : D20ThreeAction().Verbs()) {
    Decision d(t.state(), Envelope{}, seeded);
    const absl::Status st = D20ThreeAction().Decide(Filled(v), d);
    EXPECT_FALSE(absl::StrContains(st.message(), "unknown action"))
        << v.verb << ": " << st;
  }
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

TEST(Verbs, TheReadmeListsTheTable) {
  const std::string rendered = Render(D20ThreeAction().Verbs());
  EXPECT_EQ(ReadmeBlock("d20_three_action"), rendered) << "README.md, between the verbs markers:\n"
                                          << rendered;
}

// Every example command of the README is well formed for its verb.
TEST(Verbs, TheReadmesExamplesPassTheTable) {
  const std::vector<std::string> examples = ReadmeExamples("d20_three_action", "Examples (one per verb):");
  EXPECT_GE(examples.size(), 40u);
  for (const std::string& json : examples) {
    absl::StatusOr<fb::CommandT> c = events::ParseCommand(json);
    ASSERT_TRUE(c.ok()) << json << ": " << c.status();
    EXPECT_TRUE(CheckCommand(D20ThreeAction().Verbs(), *c).ok()) << CheckCommand(D20ThreeAction().Verbs(), *c);
  }
}

}  // namespace
}  // namespace combat::kernel::d20
