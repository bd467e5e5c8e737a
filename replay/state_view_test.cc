#include "replay/state_view.h"

#include "gtest/gtest.h"
#include "replay/render.h"

namespace combat::replay {
namespace {

kernel::Combatant Fighter() {
  kernel::Combatant c;
  c.id = "bo";
  c.name = "Bo the Bold";
  c.side = "party";
  c.stats = {{"hp", 24}, {"max_stamina", 9}, {"stamina", 7}, {"mana", 3}};
  c.resources = {{"hp", 18},        {"stamina", 5},   {"mana", 4},
                 {"actions", 2},    {"turn_seq", 40}, {"sot_round", 2},
                 {"turn_round", 1}, {"initiative_round", 2}};
  return c;
}

TEST(StateViewTest, Bookkeeping) {
  EXPECT_TRUE(IsBookkeeping("turn_seq"));
  EXPECT_TRUE(IsBookkeeping("sot_round"));
  EXPECT_TRUE(IsBookkeeping("turn_round"));
  EXPECT_TRUE(IsBookkeeping("initiative_round"));
  EXPECT_FALSE(IsBookkeeping("hp"));
  EXPECT_FALSE(IsBookkeeping("round"));
}

TEST(StateViewTest, MaxOnlyWhereTheStateKnowsIt) {
  const kernel::Combatant c = Fighter();
  EXPECT_EQ(MaxOf(c, "hp"), 24);          // a pool full at its stat
  EXPECT_EQ(MaxOf(c, "stamina"), 9);      // max_<name> wins over <name>
  EXPECT_EQ(MaxOf(c, "mana"), std::nullopt);  // a same-named stat is no max
  EXPECT_EQ(MaxOf(c, "actions"), std::nullopt);
  EXPECT_EQ(ResourceText(c, "hp", 18), "hp=18/24");
  EXPECT_EQ(ResourceText(c, "actions", 2), "actions=2");
}

TEST(StateViewTest, GameApartFromBookkeeping) {
  const ResourceView v = ViewResources(Fighter());
  EXPECT_EQ(v.game, (std::vector<std::string>{"actions=2", "hp=18/24", "mana=4",
                                              "stamina=5/9"}));
  EXPECT_EQ(v.bookkeeping, (std::vector<std::string>{"initiative_round=2", "sot_round=2",
                                                     "turn_round=1", "turn_seq=40"}));
}

TEST(StateViewTest, RenderStateShowsNamesMaximaAndBookkeepingApart) {
  kernel::State s;
  s.session = "s1";
  kernel::Combatant bo = Fighter();
  bo.controller = "ann";
  s.combatants["bo"] = bo;
  kernel::Combatant gob;
  gob.id = "gob";
  gob.name = "gob";  // the same as the id: not repeated
  gob.side = "goblins";
  gob.resources = {{"hp", 3}};
  s.combatants["gob"] = gob;
  const std::string text = RenderState(s);
  EXPECT_NE(text.find("  bo (Bo the Bold) [party, controlled by ann] at (0,0) actions=2 "
                      "hp=18/24 mana=4 stamina=5/9\n"
                      "      bookkeeping: initiative_round=2 sot_round=2 turn_round=1 "
                      "turn_seq=40\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  gob [goblins] at (0,0) hp=3\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("gob (gob)"), std::string::npos) << text;
  EXPECT_EQ(CombatantsViewJson(s),
            "[{\"id\":\"bo\",\"name\":\"Bo the Bold\",\"side\":\"party\","
            "\"controller\":\"ann\",\"game\":["
            "{\"key\":\"actions\",\"value\":2,\"max\":null},"
            "{\"key\":\"hp\",\"value\":18,\"max\":24},"
            "{\"key\":\"mana\",\"value\":4,\"max\":null},"
            "{\"key\":\"stamina\",\"value\":5,\"max\":9}],\"bookkeeping\":["
            "{\"key\":\"initiative_round\",\"value\":2},"
            "{\"key\":\"sot_round\",\"value\":2},"
            "{\"key\":\"turn_round\",\"value\":1},"
            "{\"key\":\"turn_seq\",\"value\":40}]},"
            "{\"id\":\"gob\",\"name\":\"gob\",\"side\":\"goblins\",\"controller\":\"\","
            "\"game\":[{\"key\":\"hp\",\"value\":3,\"max\":null}],\"bookkeeping\":[]}]");
}

}  // namespace
}  // namespace combat::replay
