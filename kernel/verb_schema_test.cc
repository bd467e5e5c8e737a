#include "kernel/verb_schema.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"

namespace combat::kernel {
namespace {

std::vector<VerbSchema> Table() {
  VerbSchema attack{"attack", "attack a target", "000.attack"};
  attack.targets = Use::kRequired;
  attack.weapon = Use::kOptional;
  attack.params = {{"edge", ParamType::kInt, false, {}, "advantage"},
                   {"stance", ParamType::kText, false, {"low", "high"}, ""},
                   {"count", ParamType::kNonNeg, true, {}, "how many"},
                   {"all_in", ParamType::kFlag, false, {}, ""},
                   {"skill_*", ParamType::kInt, false, {}, "a skill bonus"}};
  VerbSchema end{"end_turn", "end your turn", "000.turn"};
  std::vector<VerbSchema> t = {attack, end};
  for (VerbSchema& g : GmVerbSchemas({"Prone", "Shaken"})) t.push_back(std::move(g));
  return t;
}

fb::CommandT Cmd(const std::string& action) {
  fb::CommandT c;
  c.action = action;
  c.actor = "aria";
  return c;
}

void Add(fb::CommandT& c, const std::string& key, int64_t value,
         const std::string& text = "") {
  auto p = std::make_unique<fb::ParamT>();
  p->key = key;
  p->value = value;
  p->text = text;
  c.params.push_back(std::move(p));
}

// The refusal's message, or "" when the command passes.
std::string Check(const fb::CommandT& c) {
  absl::Status st = CheckCommand(Table(), c);
  if (!st.ok()) {
    EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
  }
  return std::string(st.message());
}

fb::CommandT GoodAttack() {
  fb::CommandT c = Cmd("attack");
  c.targets = {"grk"};
  Add(c, "count", 1);
  return c;
}

TEST(VerbSchema, AWellFormedCommandPasses) {
  EXPECT_EQ(Check(GoodAttack()), "");
  fb::CommandT c = GoodAttack();
  c.weapon = "bow";
  Add(c, "edge", -1);
  Add(c, "stance", 0, "low");
  Add(c, "all_in", 1);
  Add(c, "skill_climb", 2);
  Add(c, "dice_override", 1);  // the kernel's own, on every verb
  c.text = "words";
  EXPECT_EQ(Check(c), "");
}

TEST(VerbSchema, UnknownVerbNamesTheNearestAndTheList) {
  const std::string m = Check(Cmd("atack"));
  EXPECT_TRUE(absl::StrContains(m, "field 'action': unknown action 'atack'; did you mean 'attack'?")) << m;
  EXPECT_TRUE(absl::StrContains(m, "the actions are: attack, end_turn, gm_adjust")) << m;
}

TEST(VerbSchema, UnknownParameterIsRefusedNamingWhatTheVerbTakes) {
  // The case: an attack with {"key":"stats","text":"dex"}.
  fb::CommandT c = GoodAttack();
  Add(c, "stats", 0, "dex");
  std::string m = Check(c);
  EXPECT_TRUE(absl::StrContains(m, "field 'params.stats': unknown parameter; 'attack' takes params: edge, stance, count, all_in, skill_*")) << m;
  // "edge" on a verb that takes none.
  fb::CommandT e = Cmd("end_turn");
  Add(e, "edge", 0);
  m = Check(e);
  EXPECT_TRUE(absl::StrContains(m, "field 'params.edge': unknown parameter; 'end_turn' takes params: none")) << m;
  // A misspelling gets a suggestion.
  fb::CommandT s = GoodAttack();
  Add(s, "egde", 1);
  EXPECT_TRUE(absl::StrContains(Check(s), "did you mean 'edge'?"));
}

TEST(VerbSchema, TypesAllowedValuesAndRequiredParams) {
  fb::CommandT c = GoodAttack();
  Add(c, "edge", 0, "high");
  EXPECT_TRUE(absl::StrContains(Check(c), "field 'params.edge': a number expected, not text (int)"));
  c = GoodAttack();
  Add(c, "stance", 0, "hgih");
  std::string m = Check(c);
  EXPECT_TRUE(absl::StrContains(m, "'hgih' is not allowed; did you mean 'high'?; one of: low, high")) << m;
  c = GoodAttack();
  Add(c, "stance", 3);
  EXPECT_TRUE(absl::StrContains(Check(c), "field 'params.stance': text expected (text: low | high)"));
  c = GoodAttack();
  Add(c, "all_in", 2);
  EXPECT_TRUE(absl::StrContains(Check(c), "field 'params.all_in': 0 or 1"));
  c = Cmd("attack");
  c.targets = {"grk"};
  Add(c, "count", -1);
  EXPECT_TRUE(absl::StrContains(Check(c), "field 'params.count': must be >= 0"));
  c = Cmd("attack");
  c.targets = {"grk"};
  m = Check(c);
  EXPECT_TRUE(absl::StrContains(m, "field 'params.count': required (int >= 0: how many)")) << m;
  c = GoodAttack();
  Add(c, "count", 2);
  EXPECT_TRUE(absl::StrContains(Check(c), "field 'params.count': given twice"));
}

TEST(VerbSchema, FieldsTheVerbDoesNotTakeOrNeeds) {
  fb::CommandT c = Cmd("end_turn");
  c.targets = {"grk"};
  EXPECT_TRUE(absl::StrContains(Check(c), "field 'targets': 'end_turn' does not take targets"));
  c = Cmd("end_turn");
  c.weapon = "bow";
  EXPECT_TRUE(absl::StrContains(Check(c), "field 'weapon': 'end_turn' does not take weapon"));
  c = Cmd("attack");
  Add(c, "count", 1);
  EXPECT_TRUE(absl::StrContains(Check(c), "field 'targets': required"));
  c = Cmd("end_turn");
  c.actor.clear();
  EXPECT_TRUE(absl::StrContains(Check(c), "field 'actor': required"));
}

TEST(VerbSchema, GmVerbs) {
  fb::CommandT c = Cmd("gm_condition");
  Add(c, "name", 0, "prone");
  Add(c, "op", 0, "add");
  std::string m = Check(c);
  EXPECT_TRUE(absl::StrContains(m, "'prone' is not allowed; did you mean 'Prone'?; one of: Prone, Shaken")) << m;
  fb::CommandT v;
  v.action = "gm_void";
  m = Check(v);
  EXPECT_TRUE(absl::StrContains(m, "field 'refs.subject': required: the seq of the event to void")) << m;
  auto r = std::make_unique<fb::RefT>();
  r->key = "subjct";
  v.refs.push_back(std::move(r));
  m = Check(v);
  EXPECT_TRUE(absl::StrContains(m, "field 'refs.subjct': unknown ref; did you mean 'subject'?")) << m;
}

TEST(VerbSchema, SkeletonFillsRequiredParams) {
  const std::vector<VerbSchema> t = Table();
  fb::CommandT c = Skeleton(*FindVerb(t, "gm_condition"), "aria");
  EXPECT_EQ(c.action, "gm_condition");
  EXPECT_EQ(c.actor, "aria");
  ASSERT_EQ(c.params.size(), 2u);
  EXPECT_EQ(c.params[0]->key, "name");
  EXPECT_EQ(c.params[0]->text, "Prone");
  EXPECT_EQ(c.params[1]->key, "op");
  EXPECT_EQ(c.params[1]->text, "add");
  EXPECT_EQ(Skeleton(*FindVerb(t, "gm_end"), "aria").actor, "");
}

}  // namespace
}  // namespace combat::kernel
