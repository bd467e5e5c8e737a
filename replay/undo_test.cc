#include "replay/undo.h"

#include <string>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "replay/testing/fixture.h"
#include "replay/testing/toy.h"

namespace combat::replay {
namespace {

class UndoTest : public testing::ToyFixture {
 protected:
  UndoRequest Request(const std::string& command_id = "") {
    UndoRequest r;
    r.session = "s1";
    r.command_id = command_id;
    r.author = "gm";
    r.reason = "typed twice";
    return r;
  }
};

TEST_F(UndoTest, TheLastCommandStopsCountingAndTheLogSaysWhoAndWhy) {
  const std::string me = Active();
  const kernel::State before = StateOf();
  Do(testing::ToyCmd("hit-1", me, "attack", {Other(me)}, {19, 6}));  // hits for 6
  ASSERT_EQ(StateOf().Find(Other(me))->Resource("hp"), 4);
  const uint64_t head = HeadOf();
  auto undone = Undo(*engine_, Request());
  ASSERT_TRUE(undone.ok()) << undone.status();
  // Nothing was edited: new events after the head, the GM's, with the reason.
  ASSERT_FALSE(undone->events.empty());
  const fb::Event& decl = undone->events.front().event();
  EXPECT_EQ(decl.seq(), head + 1);
  EXPECT_EQ(decl.author()->str(), "gm");
  EXPECT_EQ(decl.role(), fb::Role::GM);
  EXPECT_EQ(decl.command_id()->str(), "undo-" + std::to_string(before.seq + 1));
  const fb::Command* c = decl.body_as_Declaration()->command();
  EXPECT_EQ(c->action()->str(), "gm_void");
  EXPECT_TRUE(absl::StrContains(c->text()->str(), "undo hit-1: typed twice"));
  // The state is as if the attack never happened.
  const kernel::State after = StateOf();
  EXPECT_EQ(after.Find(Other(me))->Resource("hp"), 10);
  EXPECT_EQ(after.Find(me)->Resource("actions"), before.Find(me)->Resource("actions"));
  // A retry is applied once.
  auto again = Undo(*engine_, Request("hit-1"));
  EXPECT_EQ(again.status().code(), absl::StatusCode::kFailedPrecondition) << again.status();
  EXPECT_TRUE(absl::StrContains(again.status().message(), "already undone"));
}

TEST_F(UndoTest, UndoTwiceTakesBackTheCommandBeforeAndNeverTheSetUp) {
  const std::string me = Active();
  Do(testing::ToyCmd("a-1", me, "attack", {Other(me)}, {2}));  // a miss
  Do(testing::ToyCmd("a-2", me, "attack", {Other(me)}, {2}));
  ASSERT_EQ(StateOf().Find(me)->Resource("actions"), 0);
  ASSERT_TRUE(Undo(*engine_, Request()).ok());
  EXPECT_EQ(StateOf().Find(me)->Resource("actions"), 1);
  ASSERT_TRUE(Undo(*engine_, Request()).ok());
  EXPECT_EQ(StateOf().Find(me)->Resource("actions"), 2);
  auto none = Undo(*engine_, Request());
  EXPECT_EQ(none.status().code(), absl::StatusCode::kFailedPrecondition) << none.status();
  EXPECT_TRUE(absl::StrContains(none.status().message(), "nothing to undo"));
}

TEST_F(UndoTest, BadRequestsNameTheField) {
  UndoRequest r = Request();
  r.reason.clear();
  EXPECT_TRUE(absl::StrContains(Undo(*engine_, r).status().message(), "'reason'"));
  r = Request("nope");
  auto missing = Undo(*engine_, r);
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_TRUE(absl::StrContains(missing.status().message(), "no command 'nope'"));
}

}  // namespace
}  // namespace combat::replay
