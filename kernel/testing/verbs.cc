#include "kernel/testing/verbs.h"

#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "events/json.h"
#include "kernel/command.h"
#include "kernel/decision.h"
#include "kernel/dice/source.h"

namespace combat::kernel::testing {
namespace {

std::string Cell(const std::string& s) {
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

std::string ReadReadme(const std::string& ruleset) {
  const char* root = std::getenv("TEST_SRCDIR");
  std::ifstream in(std::string(root == nullptr ? "." : root) + "/combat/kernel/" +
                   ruleset + "/README.md");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

fb::CommandT Filled(const VerbSchema& v, const VerbFill& f) {
  fb::CommandT c = Skeleton(v, f.actor);
  if (v.targets == Use::kRequired) c.targets = {f.target};
  if (v.weapon == Use::kRequired) c.weapon = f.weapon;
  if (v.path == Use::kRequired) c.path.emplace_back(f.step.x, f.step.y);
  for (const RefSpec& r : v.refs) {
    if (r.required) AddRef(c, r.key, 1);
  }
  for (auto& p : c.params) {  // text placeholders the skeleton left empty
    if (!p->text.empty()) continue;
    for (const ParamSpec& s : v.params) {
      if (s.key == p->key && s.type == ParamType::kText) p->text = "x";
    }
  }
  if (v.gm) {
    c.role = fb::Role::GM;
    c.author = "gm";
    c.text = "ruling";
  }
  return c;
}

std::string Refusal(Table& t, const fb::CommandT& c) {
  auto out = t.Submit(c);
  if (out.ok()) return "";
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument)
      << c.action << ": " << out.status();
  return std::string(out.status().message());
}

void ExpectEveryVerbRefusesAnUnknownParameter(Table& t, const Ruleset& rules,
                                              const VerbFill& f,
                                              const std::vector<std::string>& order) {
  ASSERT_FALSE(rules.Verbs().empty());
  for (const VerbSchema& v : rules.Verbs()) {
    fb::CommandT c = Filled(v, f);
    // First, so that the skeleton's placeholders (empty text) come after.
    auto zz = std::make_unique<fb::ParamT>();
    zz->key = "zz";
    zz->value = 1;
    c.params.insert(c.params.begin(), std::move(zz));
    if (v.verb == "gm_order") {
      // Its params are keyed by combatant id (kernel/gm.h): zz is no one.
      c.targets = order;
      const std::string m = Refusal(t, c);
      EXPECT_TRUE(absl::StrContains(m, "param 'zz': not a combatant")) << m;
      continue;
    }
    const std::string m = Refusal(t, c);
    EXPECT_TRUE(absl::StrContains(m, "field 'params.zz': unknown parameter"))
        << v.verb << ": " << m;
  }
}

void ExpectDecideTakesEveryVerb(const State& s, const Ruleset& rules,
                                const VerbFill& f) {
  dice::SeededDice seeded(std::vector<uint8_t>(32, 7), "verbs");
  for (const VerbSchema& v : rules.Verbs()) {
    Decision d(s, Envelope{}, seeded);
    const absl::Status st = rules.Decide(Filled(v, f), d);
    EXPECT_FALSE(absl::StrContains(st.message(), "unknown action")) << v.verb << ": " << st;
  }
}

std::string VerbsMarkdown(const std::vector<VerbSchema>& verbs) {
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

std::string ReadmeVerbsBlock(const std::string& ruleset) {
  const std::string text = ReadReadme(ruleset);
  const std::string begin = "<!-- verbs:begin (verbs_test renders it) -->\n";
  const size_t b = text.find(begin);
  const size_t e = text.find("<!-- verbs:end -->");
  if (b == std::string::npos || e == std::string::npos || e < b) return "";
  return text.substr(b + begin.size(), e - b - begin.size());
}

std::vector<std::string> ReadmeJsonExamples(const std::string& ruleset,
                                            const std::string& heading) {
  const std::string text = ReadReadme(ruleset);
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

void ExpectReadmeAgreesWithTheTable(const std::string& ruleset, const Ruleset& rules,
                                    const std::string& heading, size_t min_examples) {
  const std::string rendered = VerbsMarkdown(rules.Verbs());
  EXPECT_EQ(ReadmeVerbsBlock(ruleset), rendered)
      << "README.md, between the verbs markers:\n" << rendered;
  const std::vector<std::string> examples = ReadmeJsonExamples(ruleset, heading);
  EXPECT_GE(examples.size(), min_examples);
  for (const std::string& json : examples) {
    absl::StatusOr<fb::CommandT> c = events::ParseCommand(json);
    ASSERT_TRUE(c.ok()) << json << ": " << c.status();
    const absl::Status checked = CheckCommand(rules.Verbs(), *c);
    EXPECT_TRUE(checked.ok()) << json << ": " << checked;
  }
}

}  // namespace combat::kernel::testing
