#include "replay/state_diff.h"

#include "gtest/gtest.h"

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

}  // namespace
}  // namespace combat::replay
