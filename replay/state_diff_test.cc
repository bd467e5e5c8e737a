#include "replay/state_diff.h"

#include "gtest/gtest.h"
#include "replay/render.h"

namespace combat::replay {
namespace {

kernel::State Two() {
  kernel::State s;
  s.session = "s1";
  s.round = 1;
  s.active = "a";
  s.order = {{"a", 15, false}, {"b", 9, false}};
  for (const char* id : {"a", "b"}) {
    kernel::Combatant c;
    c.id = id;
    c.side = "x";
    c.resources["hp"] = 10;
    s.combatants[id] = c;
  }
  return s;
}

TEST(StateDiffTest, EqualStatesHaveNoDiff) {
  EXPECT_TRUE(DiffStates(Two(), Two()).empty());
}

TEST(StateDiffTest, CombatantByCombatant) {
  kernel::State a = Two();
  kernel::State b = Two();
  b.seq = 5;
  b.round = 2;
  b.combatants["b"].resources["hp"] = 4;
  b.combatants["b"].at = {3, 4};
  kernel::Condition down;
  down.id = 1;
  down.name = "Down";
  down.source = "a";
  b.combatants["b"].conditions[1] = down;
  b.combatants["a"].resources["actions"] = 1;
  auto d = DiffStates(a, b);
  ASSERT_EQ(d.size(), 6u);
  EXPECT_EQ(d[0].field, "seq");
  EXPECT_EQ(d[1].field, "round");
  EXPECT_EQ(d[1].a, "1");
  EXPECT_EQ(d[1].b, "2");
  EXPECT_EQ(d[2].scope, "a");
  EXPECT_EQ(d[2].field, "actions");
  EXPECT_EQ(d[2].a, "-");
  EXPECT_EQ(d[3].scope, "b");
  EXPECT_EQ(d[3].field, "at");
  EXPECT_EQ(d[4].field, "hp");
  EXPECT_EQ(d[4].b, "4");
  EXPECT_EQ(d[5].field, "condition #1");
  EXPECT_EQ(d[5].b, "Down (from a)");
  EXPECT_EQ(DiffStates(a, b, /*include_seq=*/false).size(), 5u);
  const std::string text = RenderDiffs(d);
  EXPECT_NE(text.find("session  seq: 0 -> 5"), std::string::npos) << text;
  EXPECT_NE(text.find("b        at: (0,0) -> (3,4)"), std::string::npos) << text;
  EXPECT_NE(text.find("         hp: 10 -> 4"), std::string::npos) << text;
}

TEST(StateDiffTest, MissingCombatantAndWindows) {
  kernel::State a = Two();
  kernel::State b = Two();
  b.combatants.erase("b");
  kernel::Window w;
  w.id = 2;
  w.kind = "reaction";
  w.trigger = 9;
  w.eligible = {"a"};
  b.windows[2] = w;
  auto d = DiffStates(a, b);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].scope, "b");
  EXPECT_EQ(d[0].field, "present");
  EXPECT_EQ(d[1].scope, "window 2");
  EXPECT_EQ(d[1].a, "-");
}

kernel::PendingAct Held() {
  kernel::PendingAct p;
  p.id = 3;
  p.kind = "paying";
  p.actor = "a";
  p.decl = 12;
  fb::CommandT c;
  c.actor = "a";
  c.action = "cast";
  c.author = "ann";
  p.command = c;
  p.cost_due = 3;
  p.cost_paid = 1;
  p.budget = "ap";
  p.span = fb::Span::Rounds;
  return p;
}

TEST(StateDiffTest, PendingActFieldByField) {
  kernel::State a = Two();
  kernel::State b = Two();
  b.pending[3] = Held();
  auto opened = DiffStates(a, b);
  ASSERT_EQ(opened.size(), 1u);
  EXPECT_EQ(opened[0].scope, "pending #3");
  EXPECT_EQ(opened[0].field, "open");
  EXPECT_EQ(opened[0].a, "-");
  EXPECT_NE(opened[0].b.find("kind: paying; actor: a; decl: #12; command: a: cast"),
            std::string::npos)
      << opened[0].b;
  EXPECT_NE(opened[0].b.find("cost: paid 1 of 3 ap; progress: 0; span: Rounds"),
            std::string::npos)
      << opened[0].b;

  a = b;
  b.pending[3].cost_paid = 2;
  b.pending[3].progress = 1;
  b.pending[3].reacted = {"b"};
  b.pending[3].trigger.kind = fb::TriggerKind::Attacks;
  b.pending[3].trigger.by = "b";
  fb::CommandT targeted = b.pending[3].command;
  targeted.targets = {"b"};
  b.pending[3].command = targeted;
  auto d = DiffStates(a, b);
  ASSERT_EQ(d.size(), 5u);
  EXPECT_EQ(d[0].scope, "pending #3");
  EXPECT_EQ(d[0].field, "command");
  EXPECT_EQ(d[1].field, "cost");
  EXPECT_EQ(d[1].a, "paid 1 of 3 ap");
  EXPECT_EQ(d[1].b, "paid 2 of 3 ap");
  EXPECT_EQ(d[2].field, "progress");
  EXPECT_EQ(d[3].field, "trigger");
  EXPECT_EQ(d[3].b, "Attacks by b");
  EXPECT_EQ(d[4].field, "reacted");
  EXPECT_EQ(d[4].a, "none");
}

TEST(StateDiffTest, WindowFieldsPoolsAndSharedTurns) {
  kernel::State a = Two();
  kernel::Window w;
  w.id = 2;
  w.kind = "reaction";
  w.trigger = 9;
  w.eligible = {"a", "b"};
  a.windows[2] = w;
  kernel::State b = a;
  b.windows[2].answered = {"a"};
  b.windows[2].answer_seqs = {11};
  b.windows[2].policy = fb::AnswerPolicy::AnyOrder;
  b.windows[2].pay = fb::PayWhen::AtResolution;
  b.windows[2].parent = 1;
  b.windows[2].pending = 3;
  b.pools["session"]["momentum"] = 2;
  b.active_members = {"b"};
  b.order[0].members = {"b"};
  auto d = DiffStates(a, b);
  ASSERT_EQ(d.size(), 9u);
  EXPECT_EQ(d[0].field, "turn members");
  EXPECT_EQ(d[0].b, "b");
  EXPECT_EQ(d[1].field, "order");
  EXPECT_EQ(d[1].b, "a(15, with b) > b(9)");
  EXPECT_EQ(d[2].scope, "pool session");
  EXPECT_EQ(d[2].field, "momentum");
  EXPECT_EQ(d[2].b, "2");
  EXPECT_EQ(d[3].scope, "window 2");
  EXPECT_EQ(d[3].field, "answered");
  EXPECT_EQ(d[4].field, "answer seqs");
  EXPECT_EQ(d[4].b, "#11");
  EXPECT_EQ(d[5].field, "policy");
  EXPECT_EQ(d[5].b, "AnyOrder");
  EXPECT_EQ(d[6].field, "pay");
  EXPECT_EQ(d[6].b, "AtResolution");
  EXPECT_EQ(d[7].field, "parent");
  EXPECT_EQ(d[7].b, "window 1");
  EXPECT_EQ(d[8].field, "pending");
  EXPECT_EQ(d[8].b, "#3");
}

TEST(StateDiffTest, StateTextShowsPendingPoolsWindowsAndMembers) {
  kernel::State s = Two();
  s.active_members = {"b"};
  s.pending[3] = Held();
  s.pools["side:x"]["momentum"] = 4;
  kernel::Window w;
  w.id = 1;
  w.kind = "held";
  w.pending = 3;
  w.policy = fb::AnswerPolicy::Simultaneous;
  s.windows[1] = w;
  const std::string text = RenderState(s);
  for (const char* want : {
           "round 1, a's turn (shared with b)\n",
           "  pool side:x: momentum=4\n",
           "  window 1: may answer now: nobody; kind: held; trigger: none; eligible: none; answered: none; "
           "answer seqs: none; policy: Simultaneous; pay: Before; parent: none; "
           "pending: #3; opened at: none\n",
           "  pending #3: kind: paying; actor: a; decl: #12; cost: paid 1 of 3 ap; "
           "progress: 0; span: Rounds; trigger: none; expiry: never; reacted: none; "
           "opened at: none\n      command: a: cast  (by ann, Player)\n",
       }) {
    EXPECT_NE(text.find(want), std::string::npos) << want << "\nin:\n" << text;
  }
}

}  // namespace
}  // namespace combat::replay
