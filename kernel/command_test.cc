// Reading a command's typed references (Command.refs).
#include "kernel/command.h"

#include <memory>
#include <string>

#include "gtest/gtest.h"

namespace combat::kernel {
namespace {

// The keys of `c`'s params, in order, with their values.
std::string Keys(const fb::CommandT& c) {
  std::string out;
  for (const auto& p : c.params) out += p->key + "=" + std::to_string(p->value) + " ";
  return out;
}

TEST(CommandParamsTest, SetParamReplacesAtTheEndAndDropParamKeepsTheOrder) {
  fb::CommandT c;
  SetParam(c, "a", 1);
  SetParam(c, "_cost", 3);
  SetParam(c, "b", 2);
  EXPECT_EQ(Keys(c), "a=1 _cost=3 b=2 ");
  SetParam(c, "_cost", 0);  // replaced, and now last
  EXPECT_EQ(Keys(c), "a=1 b=2 _cost=0 ");
  EXPECT_EQ(ParamOr(c, "_cost", 9), 0);
  DropParam(c, "a");
  DropParam(c, "missing");
  EXPECT_EQ(Keys(c), "b=2 _cost=0 ");
  EXPECT_FALSE(HasParam(c, "a"));
}

TEST(CommandRefsTest, ReadsEachKindByKey) {
  fb::CommandT c;
  c.action = "gm_void";
  AddRef(c, "subject", 12, 0, 0);
  AddRef(c, "window", 0, 3, 0);
  AddRef(c, "act", 0, 0, 7);
  EXPECT_EQ(RefSeq(c, "subject"), 12u);
  EXPECT_EQ(RefWindow(c, "window"), 3u);
  EXPECT_EQ(RefPending(c, "act"), 7u);
  EXPECT_EQ(RefSeq(c, "window"), std::nullopt);
  EXPECT_EQ(RefPending(c, "missing"), std::nullopt);
  EXPECT_EQ(*RequiredRefSeq(c, "subject", "the seq of the event ruled on"), 12u);
  EXPECT_EQ(*RequiredRefWindow(c, "window", "the window answered"), 3u);
  EXPECT_EQ(*RequiredRefPending(c, "act", "the act released"), 7u);
}

TEST(CommandRefsTest, TheFirstSetFieldOfTheKeyCounts) {
  fb::CommandT c;
  AddRef(c, "subject", 0, 2, 0);
  AddRef(c, "subject", 5, 0, 0);
  AddRef(c, "subject", 9, 0, 0);
  EXPECT_EQ(RefSeq(c, "subject"), 5u);
  EXPECT_EQ(RefWindow(c, "subject"), 2u);
}

TEST(CommandRefsTest, RequiredErrorsNameTheField) {
  fb::CommandT c;
  c.action = "gm_void";
  auto missing = RequiredRefSeq(c, "subject", "the seq of the event ruled on");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(missing.status().message(),
            "command 'gm_void': refs[key=subject]: required, the seq of the event "
            "ruled on");
  AddRef(c, "subject", 0, 4, 0);
  auto zero = RequiredRefSeq(c, "subject", "the seq of the event ruled on");
  ASSERT_FALSE(zero.ok());
  EXPECT_EQ(zero.status().message(),
            "command 'gm_void': refs[key=subject]: seq is 0; required, the seq of "
            "the event ruled on");
  auto pending = RequiredRefPending(c, "act", "the act released");
  EXPECT_EQ(pending.status().message(),
            "command 'gm_void': refs[key=act]: required, the act released");
  auto window = RequiredRefWindow(c, "subject", "the window");
  EXPECT_TRUE(window.ok());
}

fb::CommandT& AddParam(fb::CommandT& c, const std::string& key, int64_t v) {
  auto p = std::make_unique<fb::ParamT>();
  p->key = key;
  p->value = v;
  c.params.push_back(std::move(p));
  return c;
}

TEST(CommandTakesTest, AcceptsWhatTheVerbTakes) {
  fb::CommandT c;
  c.action = "strike";
  AddParam(c, "defense", 1);
  AddRef(c, "window", 0, 3, 0);
  EXPECT_TRUE(CheckTakes(c, {{"defense", "maneuver"}, {"window"}}).ok());
  fb::CommandT bare;
  EXPECT_TRUE(CheckTakes(bare, {}).ok());
}

TEST(CommandTakesTest, RefusesAnUnknownParameterNamingItAndTheKeys) {
  fb::CommandT c;
  c.action = "strike";
  AddParam(c, "edge", 0);
  absl::Status st = CheckTakes(c, {{"defense", "maneuver"}, {}});
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message(),
            "command 'strike': params[edge]: unknown parameter; 'strike' "
            "takes params: defense, maneuver");
  fb::CommandT none;
  none.action = "end_turn";
  AddParam(none, "x", 1);
  EXPECT_EQ(CheckTakes(none, {}).message(),
            "command 'end_turn': params[x]: unknown parameter; 'end_turn' "
            "takes params: none");
}

TEST(CommandTakesTest, RefusesAnUnknownRefAndARepeatedParameter) {
  fb::CommandT c;
  c.action = "defend";
  AddRef(c, "subject", 4);
  EXPECT_EQ(CheckTakes(c, {{}, {"window"}}).message(),
            "command 'defend': refs[subject]: unknown ref; 'defend' takes "
            "refs: window");
  fb::CommandT twice;
  twice.action = "strike";
  AddParam(twice, "defense", 1);
  AddParam(twice, "defense", 2);
  EXPECT_EQ(CheckTakes(twice, {{"defense"}, {}}).message(),
            "command 'strike': params[defense]: given twice; give each key "
            "once");
}

}  // namespace
}  // namespace combat::kernel
