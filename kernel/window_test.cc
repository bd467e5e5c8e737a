// Windows: nesting (a window opened while answering another), the answer
// policies (Simultaneous, InOrder), and the reducer's checks of answers and
// closes, through real Decisions over a schema v5 session.
#include <optional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernel/changes.h"
#include "kernel/pending.h"
#include "kernel/testing/roster.h"
#include "kernel/testing/scene.h"
#include "kernel/testing/table.h"
#include "kernel/window.h"

namespace combat::kernel {
namespace {

using testing::Cmd;
using testing::Creature;
using testing::Scene;
using testing::TestWhy;

constexpr char kCite[] = "test.window";

class WindowTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(s_.status().ok()) << s_.status(); }

  // `who` declares `action`, held back by a window that `eligible` answer
  // under `policy`; returns the window's id.
  uint32_t Declare(const std::string& who, const std::string& action,
                   std::vector<std::string> eligible, fb::AnswerPolicy policy) {
    Decision& d = s_.Next();
    const fb::CommandT c = Cmd(who, action, {"ogre"});
    auto decl = d.Declare(c);
    EXPECT_TRUE(decl.ok());
    NewPending p;
    p.kind = kHeldBack;
    p.actor = who;
    p.decl = *decl;
    p.command = c;
    auto pending = OpenPending(d, p, TestWhy(*decl));
    EXPECT_TRUE(pending.ok()) << pending.status();
    WindowSpec w;
    w.trigger = *decl;
    w.kind = "interrupt";
    w.eligible = std::move(eligible);
    w.policy = policy;
    w.pay = fb::PayWhen::AtResolution;
    w.pending = *pending;
    auto id = OpenWindow(d, w, TestWhy(*decl));
    EXPECT_TRUE(id.ok()) << id.status();
    return id.ok() ? *id : 0;
  }

  // `who`'s answer `action` into window `w`, as its own command.
  absl::StatusOr<uint64_t> Answer(const std::string& who, const std::string& action,
                                  uint32_t w) {
    Decision& d = s_.Next();
    fb::CommandT c = Cmd(who, action, {"ogre"});
    c.window = w;
    absl::Status ok = CheckAnswer(d.state(), c, kCite);
    if (!ok.ok()) return ok;
    return kernel::Answer(d, c);
  }

  // The same answer, forged past CheckAnswer: only the reducer checks it.
  absl::Status ForcedAnswer(const std::string& who, uint32_t w) {
    fb::CommandT c = Cmd(who, "forced", {"ogre"});
    c.window = w;
    return s_.Next().Interrupt(c, w).status();
  }

  Scene s_{{Creature("ogre", "foes", 5, 5, {}), Creature("bard", "party", 4, 5, {}),
            Creature("cleric", "party", 6, 5, {}), Creature("rogue", "party", 5, 6, {})}};
};

TEST_F(WindowTest, NestedWindowClosesFirst) {
  const uint32_t w1 = Declare("ogre", "smash", {"bard"}, fb::AnswerPolicy::InOrder);
  ASSERT_EQ(w1, 1u);
  const uint32_t held = s_.state().windows.at(w1).pending;
  EXPECT_EQ(s_.state().windows.at(w1).trigger, 6u);
  EXPECT_EQ(s_.state().windows.at(w1).parent, 0u);

  // The bard's answer opens a second window while window 1 is answered.
  auto answer = Answer("bard", "riposte", w1);
  ASSERT_TRUE(answer.ok()) << answer.status();
  Decision& d = s_.d();
  EXPECT_EQ(d.answering(), w1);
  WindowSpec inner;
  inner.trigger = *answer;
  inner.kind = "maneuver";
  inner.eligible = {"ogre"};
  auto w2 = OpenWindow(d, inner, TestWhy(*answer));
  ASSERT_TRUE(w2.ok()) << w2.status();
  EXPECT_EQ(*w2, 2u);
  EXPECT_EQ(d.state().windows.at(*w2).parent, w1);
  EXPECT_EQ(InnermostWindow(d.state())->id, *w2);
  EXPECT_EQ(WindowFor(d.state(), *answer), *w2);

  // Window 1 cannot close while window 2, nested in it, is open.
  auto early = CloseWindow(d, w1, "resolved", TestWhy());
  EXPECT_EQ(early.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(early.status().message().find("window 1 still has nested window 2 open"),
            absl::string_view::npos)
      << early.status();
  EXPECT_EQ(d.state().windows.size(), 2u);
  // Nor may the act window 1 holds back close under it.
  EXPECT_EQ(ClosePending(d, held, "cancelled: test", TestWhy()).code(),
            absl::StatusCode::kDataLoss);

  auto inner_closed = CloseWindow(d, *w2, "passed", TestWhy());
  ASSERT_TRUE(inner_closed.ok()) << inner_closed.status();
  EXPECT_FALSE(inner_closed->has_value()) << "window 2 held no pending act";
  auto outer_closed = CloseWindow(d, w1, "resolved", TestWhy());
  ASSERT_TRUE(outer_closed.ok()) << outer_closed.status();
  ASSERT_TRUE(outer_closed->has_value());
  const PendingAct& act = **outer_closed;
  EXPECT_EQ(act.id, held);
  EXPECT_EQ(act.kind, "held_back");
  EXPECT_EQ(act.actor, "ogre");
  EXPECT_EQ(act.decl, 6u) << "the smash: after SessionStarted and four joins";
  EXPECT_EQ(act.command->action, "smash");
  EXPECT_TRUE(d.state().windows.empty());
  EXPECT_EQ(CloseWindow(d, w1, "again", TestWhy()).status().code(),
            absl::StatusCode::kNotFound);
  // Resumed: the ruleset resolves the act and closes it.
  ASSERT_TRUE(ClosePending(d, held, "resolved", TestWhy()).ok());
  EXPECT_TRUE(d.state().pending.empty());
}

TEST_F(WindowTest, SimultaneousAnswersInEitherOrder) {
  const uint32_t w =
      Declare("ogre", "roar", {"bard", "cleric"}, fb::AnswerPolicy::Simultaneous);
  EXPECT_EQ(MayAnswer(s_.state().windows.at(w)),
            (std::vector<std::string>{"bard", "cleric"}));
  auto first = Answer("cleric", "ward", w);  // the second eligible, first
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(MayAnswer(s_.state().windows.at(w)), std::vector<std::string>{"bard"});
  EXPECT_FALSE(AllAnswered(s_.state().windows.at(w)));

  // The rogue is not eligible: CheckAnswer and the reducer refuse it.
  auto rogue = Answer("rogue", "stab", w);
  EXPECT_EQ(rogue.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(rogue.status().message(),
            "rogue may not answer window 1 (eligible: bard, cleric) (test.window)");
  absl::Status forced = ForcedAnswer("rogue", w);
  EXPECT_EQ(forced.code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(forced.message().find("interrupt.actor: 'rogue' is not eligible in window 1"),
            absl::string_view::npos)
      << forced;
  // Nor may the cleric answer twice.
  EXPECT_EQ(Answer("cleric", "ward", w).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(ForcedAnswer("cleric", w).message().find("'cleric' already answered window 1"),
            absl::string_view::npos);

  auto second = Answer("bard", "song", w);
  ASSERT_TRUE(second.ok()) << second.status();
  const Window& win = s_.state().windows.at(w);
  EXPECT_TRUE(AllAnswered(win));
  EXPECT_EQ(win.answered, (std::vector<std::string>{"cleric", "bard"}));
  EXPECT_EQ(win.answer_seqs, (std::vector<uint64_t>{*first, *second}));

  // Read back through the log (the first answer is in the prefix).
  auto answers = AnswersOf(s_.d(), w);
  ASSERT_TRUE(answers.ok()) << answers.status();
  ASSERT_EQ(answers->size(), 2u);
  EXPECT_EQ((*answers)[0].seq, *first);
  EXPECT_EQ((*answers)[0].command.actor, "cleric");
  EXPECT_EQ((*answers)[0].command.action, "ward");
  EXPECT_EQ((*answers)[1].seq, *second);
  EXPECT_EQ((*answers)[1].command.actor, "bard");
  EXPECT_EQ((*answers)[1].command.action, "song");
  EXPECT_EQ((*answers)[1].command.window, w);
  EXPECT_EQ(AnswersOf(s_.d(), 7).status().code(), absl::StatusCode::kNotFound);
}

TEST_F(WindowTest, InOrderRefusesAnswersOutOfOrder) {
  const uint32_t w = Declare("ogre", "smash", {"bard", "cleric"}, fb::AnswerPolicy::InOrder);
  EXPECT_EQ(MayAnswer(s_.state().windows.at(w)), std::vector<std::string>{"bard"});
  auto early = Answer("cleric", "ward", w);
  EXPECT_EQ(early.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(early.status().message(), "window 1: it is bard's answer (test.window)");
  absl::Status forced = ForcedAnswer("cleric", w);
  EXPECT_EQ(forced.code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(forced.message().find("window 1 answers in order: 'bard' answers before 'cleric'"),
            absl::string_view::npos)
      << forced;
  ASSERT_TRUE(Answer("bard", "pass", w).ok());
  ASSERT_TRUE(Answer("cleric", "ward", w).ok());
  EXPECT_TRUE(AllAnswered(s_.state().windows.at(w)));
  EXPECT_TRUE(MayAnswer(s_.state().windows.at(w)).empty());
}

TEST_F(WindowTest, AnsweringAWindowThatIsNotOpen) {
  auto none = Answer("bard", "riposte", 0);
  EXPECT_EQ(none.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(none.status().message(),
            "command 'riposte': field 'window': window 0 is not open (no window is open)");
  const uint32_t w = Declare("ogre", "smash", {"bard"}, fb::AnswerPolicy::AnyOrder);
  auto wrong = Answer("bard", "riposte", w + 4);
  EXPECT_EQ(wrong.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(wrong.status().message().find("window 5 is not open (open: 1)"),
            absl::string_view::npos)
      << wrong.status();
  EXPECT_NE(ForcedAnswer("bard", w + 4).message().find("interrupt.window: window 5 is not open"),
            absl::string_view::npos);
}

}  // namespace
}  // namespace combat::kernel
