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
#include "kernel/dice/source.h"
#include "kernel/gm.h"
#include "kernel/energy_rounds/test_util.h"
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

// The verb's skeleton by kara, with the fields it requires filled in
// (targets orc, weapon sword, a path) and the GM's role for GM verbs.
fb::CommandT Filled(const VerbSchema& v) {
  fb::CommandT c = Skeleton(v, "kara");
  if (v.targets == Use::kRequired) c.targets = {"orc"};
  if (v.weapon == Use::kRequired) c.weapon = "sword";
  if (v.path == Use::kRequired) c.path.emplace_back(5, 6);
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
  Table t(EnergyRounds(), Pair());
  ASSERT_TRUE(t.status().ok()) << t.status();
  ASSERT_FALSE(EnergyRounds().Verbs().empty());
  for (const VerbSchema& v : EnergyRounds().Verbs()) {
    fb::CommandT c = Filled(v);
    // First, so that the skeleton's placeholders (empty text) come after.
    auto zz = std::make_unique<fb::ParamT>();
    zz->key = "zz";
    zz->value = 1;
    c.params.insert(c.params.begin(), std::move(zz));
    if (v.verb == "gm_order") {
      // Its params are keyed by combatant id (kernel/gm.h): zz is no one.
      c.targets = {"kara", "orc"};
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
  Table t(EnergyRounds(), Pair());
  ASSERT_TRUE(t.status().ok()) << t.status();
  dice::SeededDice seeded(std::vector<uint8_t>(32, 7), "verbs");
  for (const VerbSchema& v : EnergyRounds().Verbs()) {
    Decision d(t.state(), Envelope{}, seeded);
    const absl::Status st = EnergyRounds().Decide(Filled(v), d);
    EXPECT_FALSE(absl::StrContains(st.message(), "unknown action")) << v.verb << ": " << st;
  }
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

TEST(Verbs, TheReadmeListsTheTable) {
  const std::string rendered = Render(EnergyRounds().Verbs());
  EXPECT_EQ(ReadmeBlock("energy_rounds"), rendered) << "README.md, between the verbs markers:\n"
                                          << rendered;
}

// Every example command of the README is well formed for its verb.
TEST(Verbs, TheReadmesExamplesPassTheTable) {
  const std::vector<std::string> examples = ReadmeExamples("energy_rounds", "JSON examples (Script `commands` entries):");
  EXPECT_GE(examples.size(), 15u);
  for (const std::string& json : examples) {
    absl::StatusOr<fb::CommandT> c = events::ParseCommand(json);
    ASSERT_TRUE(c.ok()) << json << ": " << c.status();
    EXPECT_TRUE(CheckCommand(EnergyRounds().Verbs(), *c).ok()) << CheckCommand(EnergyRounds().Verbs(), *c);
  }
}

}  // namespace
}  // namespace combat::kernel::energy::testutil
