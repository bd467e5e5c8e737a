// Reading a command's typed references (Command.refs).
#include "kernel/command.h"

#include "gtest/gtest.h"

namespace combat::kernel {
namespace {

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

}  // namespace
}  // namespace combat::kernel
