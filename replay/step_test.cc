// Stepping through a session: each event with what it changed, forward and
// back, to a round or a turn; voided events are marked.
#include "replay/step.h"

#include <sstream>

#include "gtest/gtest.h"
#include "kernel/command.h"
#include "replay/testing/fixture.h"

namespace combat::replay {
namespace {

using testing::ToyCmd;

class StepTest : public testing::ToyFixture {};

TEST_F(StepTest, WalksAndShowsWhatChanged) {
  const std::string x = Active(), y = Other(x);
  const auto hit = Do(ToyCmd("c1", x, "attack", {y}, {15, 6}));
  Do(ToyCmd("c2", x, "end_turn"));
  Do(ToyCmd("c3", y, "end_turn"));  // round 2
  Walker w(engine_->log(), "s1", "main");
  const uint64_t damage = hit.back().event().seq();
  auto s = w.Goto(damage);
  ASSERT_TRUE(s.ok()) << s.status();
  ASSERT_EQ(s->changes.size(), 1u) << RenderStep(*s);
  EXPECT_EQ(s->changes[0].scope, y);
  EXPECT_EQ(s->changes[0].field, "hp");
  EXPECT_EQ(s->changes[0].a, "10");
  EXPECT_EQ(s->changes[0].b, "4");
  auto next = w.Next();
  ASSERT_TRUE(next.ok());
  EXPECT_EQ(next->event->event().seq(), damage + 1);
  auto back = w.Prev();
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->event->event().seq(), damage);
  EXPECT_NE(RenderStep(*back).find("hp: 10 -> 4"), std::string::npos) << RenderStep(*back);

  auto round2 = w.ToRound(2);
  ASSERT_TRUE(round2.ok()) << round2.status();
  EXPECT_EQ(round2->after.round, 2);
  auto turn = w.ToTurn(2, 1);
  ASSERT_TRUE(turn.ok()) << turn.status();
  EXPECT_EQ(turn->after.active, x);
  auto by_actor = w.ToTurn(1, 0, y);
  ASSERT_TRUE(by_actor.ok()) << by_actor.status();
  EXPECT_EQ(by_actor->after.active, y);
  EXPECT_EQ(w.ToRound(9).status().code(), absl::StatusCode::kNotFound);
  auto nobody = w.ToTurn(1, 0, x + x);
  EXPECT_EQ(nobody.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(nobody.status().message().find(absl::StrCat(
                "no turn of ", x, x, " in round 1: no actor '", x, x,
                "'; did you mean '", x, "'? actors with turns: ")),
            std::string::npos)
      << nobody.status();
  EXPECT_NE(w.ToTurn(1, 7).status().message().find("has no turn 7 in round 1 (it has 2)"),
            std::string::npos)
      << w.ToTurn(1, 7).status();
  EXPECT_EQ(w.Goto(HeadOf() + 1).status().code(), absl::StatusCode::kOutOfRange);
  ASSERT_TRUE(w.Goto(HeadOf()).ok());
  EXPECT_EQ(w.Next().status().code(), absl::StatusCode::kOutOfRange);
}

// The author shows once: a declaration names its own; other events get the
// envelope's.
TEST_F(StepTest, NamesTheAuthorOnce) {
  const std::string x = Active(), y = Other(x);
  const auto hit = Do(ToyCmd("c1", x, "attack", {y}, {15, 6}));
  Walker w(engine_->log(), "s1", "main");
  auto decl = w.Goto(hit.front().event().seq());
  ASSERT_TRUE(decl.ok()) << decl.status();
  const std::string text = RenderStep(*decl);
  const std::string by = "(by " + x + ", Player)";
  ASSERT_NE(text.find(by), std::string::npos) << text;
  EXPECT_EQ(text.find(by, text.find(by) + 1), std::string::npos) << text;
  auto damage = w.Goto(hit.back().event().seq());
  ASSERT_TRUE(damage.ok());
  EXPECT_NE(RenderStep(*damage).find(by), std::string::npos) << RenderStep(*damage);
}

TEST_F(StepTest, VoidedEventsAreMarked) {
  const std::string x = Active(), y = Other(x);
  const auto hit = Do(ToyCmd("c1", x, "attack", {y}, {15, 6}));
  fb::CommandT v = ToyCmd("v", "", "gm_void");
  v.role = fb::Role::GM;
  v.author = "dana";
  v.text = "wrong target";
  kernel::AddRef(v, "subject", static_cast<uint64_t>(hit.front().event().seq()));
  Do(v);
  Walker w(engine_->log(), "s1", "main");
  auto s = w.Goto(hit.back().event().seq());
  ASSERT_TRUE(s.ok());
  EXPECT_TRUE(s->voided_later);
  EXPECT_NE(RenderStep(*s).find("[VOIDED later]"), std::string::npos);
  // The void's own step shows the hp restored.
  auto last = w.Goto(HeadOf());
  ASSERT_TRUE(last.ok());
  EXPECT_NE(RenderStep(*last).find("hp: 4 -> 10"), std::string::npos) << RenderStep(*last);
}

TEST_F(StepTest, AnInteractiveWalk) {
  const std::string x = Active(), y = Other(x);
  Do(ToyCmd("c1", x, "attack", {y}, {15, 6}));
  Walker w(engine_->log(), "s1", "main");
  std::istringstream in("n\np\ng 3\nr 1\nbogus\nq\n");
  std::ostringstream out;
  ASSERT_TRUE(Walk(w, 1, in, out).ok());
  const std::string text = out.str();
  EXPECT_NE(text.find("#1 change"), std::string::npos) << text;
  EXPECT_NE(text.find("#2 "), std::string::npos) << text;
  EXPECT_NE(text.find("#3 "), std::string::npos) << text;
  EXPECT_NE(text.find("round 1 begins"), std::string::npos) << text;
  EXPECT_NE(text.find("n next, p previous"), std::string::npos) << text;
}

}  // namespace
}  // namespace combat::replay
