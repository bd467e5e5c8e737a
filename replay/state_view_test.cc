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

// A display as a ruleset publishes it (kernel/display.h).
kernel::Display FighterDisplay() {
  kernel::Display d;
  d.vitals = {{"hp", "hp", "", {}},
              {"stamina", "", "", [](const kernel::Combatant& c) {
                 return c.Stat("max_stamina");
               }}};
  d.budgets = {"actions"};
  d.bookkeeping = {"turn_*", "sot_round", "initiative_round"};
  return d;
}

TEST(StateViewTest, MaximaAreTheRulesetsVitals) {
  const kernel::Combatant c = Fighter();
  const kernel::Display d = FighterDisplay();
  EXPECT_EQ(MaxOf(c, "hp", d), 24);       // a roster stat
  EXPECT_EQ(MaxOf(c, "stamina", d), 9);   // the ruleset's formula
  EXPECT_EQ(MaxOf(c, "mana", d), std::nullopt);  // not a vital: no max guessed
  EXPECT_EQ(MaxOf(c, "actions", d), std::nullopt);
  EXPECT_EQ(MaxOf(c, "hp", kernel::Display()), std::nullopt);
  EXPECT_EQ(ResourceText(c, "hp", 18, d), "hp=18/24");
  EXPECT_EQ(ResourceText(c, "actions", 2, d), "actions=2");
}

TEST(StateViewTest, GameApartFromBookkeeping) {
  const ResourceView v = ViewResources(Fighter(), FighterDisplay());
  EXPECT_EQ(v.game, (std::vector<std::string>{"actions=2", "hp=18/24", "mana=4",
                                              "stamina=5/9"}));
  EXPECT_EQ(v.bookkeeping, (std::vector<std::string>{"initiative_round=2", "sot_round=2",
                                                     "turn_round=1", "turn_seq=40"}));
  // Without a display every resource is a game value.
  EXPECT_EQ(ViewResources(Fighter(), kernel::Display()).bookkeeping.size(), 0u);
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
  const std::string text = RenderState(s, FighterDisplay());
  EXPECT_NE(text.find("  bo (Bo the Bold) [party, controlled by ann] at (0,0) actions=2 "
                      "hp=18/24 mana=4 stamina=5/9\n"
                      "      bookkeeping: initiative_round=2 sot_round=2 turn_round=1 "
                      "turn_seq=40\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  gob [goblins] at (0,0) hp=3\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("gob (gob)"), std::string::npos) << text;
  EXPECT_EQ(CombatantsViewJson(s, FighterDisplay()),
            "[{\"id\":\"bo\",\"name\":\"Bo the Bold\",\"side\":\"party\","
            "\"controller\":\"ann\",\"player\":\"\",\"game\":["
            "{\"key\":\"actions\",\"value\":2,\"max\":null},"
            "{\"key\":\"hp\",\"value\":18,\"max\":24},"
            "{\"key\":\"mana\",\"value\":4,\"max\":null},"
            "{\"key\":\"stamina\",\"value\":5,\"max\":9}],\"bookkeeping\":["
            "{\"key\":\"initiative_round\",\"value\":2},"
            "{\"key\":\"sot_round\",\"value\":2},"
            "{\"key\":\"turn_round\",\"value\":1},"
            "{\"key\":\"turn_seq\",\"value\":40}]},"
            "{\"id\":\"gob\",\"name\":\"gob\",\"side\":\"goblins\",\"controller\":\"\",\"player\":\"\","
            "\"game\":[{\"key\":\"hp\",\"value\":3,\"max\":null}],\"bookkeeping\":[]}]");
}

// A ruleset's own marks in a pending act's `reacted` read as its display
// says (kernel::Display::reacted); the stored entries are unchanged.
TEST(StateViewTest, ReactedEntriesReadAsTheDisplaySays) {
  kernel::State s;
  kernel::PendingAct p;
  p.id = 4;
  p.actor = "orc";
  p.reacted = {"ready:aria", "gob"};
  s.pending[4] = p;
  kernel::Display d;
  d.reacted = [](const std::string& e) {
    return e.rfind("ready:", 0) == 0 ? e.substr(6) + " (readied)" : e;
  };
  EXPECT_EQ(PendingViewJson(s, d),
            "[{\"id\":4,\"actor\":\"orc\",\"reacted\":[\"aria (readied)\",\"gob\"]}]");
  EXPECT_EQ(PendingViewJson(s, kernel::Display()),
            "[{\"id\":4,\"actor\":\"orc\",\"reacted\":[\"ready:aria\",\"gob\"]}]");
  const std::string text = RenderState(s, d);
  EXPECT_NE(text.find("reacted: aria (readied), gob"), std::string::npos) << text;
  EXPECT_EQ(s.pending[4].reacted[0], "ready:aria");
}

}  // namespace
}  // namespace combat::replay
