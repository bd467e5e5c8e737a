// Forks share their prefix; a fork's head state equals replaying its prefix
// plus its own events; branches of branches work.
#include "replay/fork.h"

#include "gtest/gtest.h"
#include "kernel/session.h"
#include "kernel/state_codec.h"
#include "replay/jump.h"
#include "replay/testing/fixture.h"

namespace combat::replay {
namespace {

using testing::ToyCmd;

class ForkTest : public testing::ToyFixture {
 protected:
  // The state from folding `prefix` (1..n of the parent) then `own`.
  kernel::State Replay(const std::vector<events::EventBuffer>& all) {
    kernel::State s;
    absl::Status st = kernel::Fold(all, s, kernel::CheckHashes::kYes);
    EXPECT_TRUE(st.ok()) << st;
    return s;
  }
};

TEST_F(ForkTest, AForkHeadIsItsPrefixPlusItsOwnEvents) {
  const std::string x = Active(), y = Other(x);
  Do(ToyCmd("c1", x, "attack", {y}, {15, 6}));
  Do(ToyCmd("c2", x, "end_turn"));
  const uint64_t at = HeadOf();
  Do(ToyCmd("c3", y, "attack", {x}, {19, 4}));  // main goes on
  auto fork_seq = engine_->Fork({"s1", "main", at, "alt", "dana", "what if y waited"});
  ASSERT_TRUE(fork_seq.ok()) << fork_seq.status();
  EXPECT_EQ(*fork_seq, at);
  Do(ToyCmd("a1", y, "end_turn"), "alt");
  Do(ToyCmd("a2", x, "attack", {y}, {12, 1}), "alt");
  // Branch of the branch, below its head.
  ASSERT_TRUE(engine_->Fork({"s1", "alt", HeadOf("alt") - 1, "alt2", "bo", "deeper"}).ok());
  Do(ToyCmd("b1", x, "end_turn"), "alt2");

  for (const std::string branch : {"alt", "alt2"}) {
    auto meta = engine_->log().GetBranch("s1", branch);
    ASSERT_TRUE(meta.ok());
    auto parent = engine_->Events("s1", meta->parent, 1, meta->fork_seq);
    auto own = engine_->Events("s1", branch, meta->fork_seq + 1, 0);
    ASSERT_TRUE(parent.ok() && own.ok());
    std::vector<events::EventBuffer> all = *parent;
    all.insert(all.end(), own->begin(), own->end());
    EXPECT_EQ(kernel::EncodeState(StateOf(branch)), kernel::EncodeState(Replay(all)))
        << branch;
  }
  // The parent is untouched by its forks.
  auto main_events = engine_->Events("s1", "main");
  ASSERT_TRUE(main_events.ok());
  EXPECT_EQ(kernel::EncodeState(StateOf("main")), kernel::EncodeState(Replay(*main_events)));

  auto tree = BranchTree(engine_->log(), "s1");
  ASSERT_TRUE(tree.ok());
  ASSERT_EQ(tree->size(), 3u);
  EXPECT_EQ((*tree)[1].meta.branch, "alt");
  EXPECT_EQ((*tree)[2].depth, 2);
  const std::string text = RenderBranchTree(*tree);
  EXPECT_NE(text.find("    alt2  forked from alt at #"), std::string::npos) << text;
  EXPECT_NE(text.find("by dana: \"what if y waited\""), std::string::npos) << text;
}

TEST_F(ForkTest, MissingWhoOrWhyIsRefused) {
  EXPECT_EQ(engine_->Fork({"s1", "main", 1, "alt", "", "why"}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(engine_->Fork({"s1", "main", 1, "alt", "dana", ""}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(engine_->Fork({"s1", "main", HeadOf() + 1, "alt", "dana", "x"}).status().code(),
            absl::StatusCode::kOutOfRange);
  auto at_head = engine_->Fork({"s1", "main", 0, "alt", "dana", "x"});
  ASSERT_TRUE(at_head.ok());
  EXPECT_EQ(*at_head, HeadOf());
  EXPECT_EQ(engine_->Fork({"s1", "main", 1, "alt", "dana", "x"}).status().code(),
            absl::StatusCode::kAlreadyExists);
}

}  // namespace
}  // namespace combat::replay
