#include "replay/render.h"

#include "events/codec.h"
#include "gtest/gtest.h"

namespace combat::replay {
namespace {

std::string Rendered(fb::EventT e) {
  e.session = "s1";
  e.branch = "main";
  e.seq = 2;
  e.author = "gm";
  e.role = fb::Role::GM;
  auto b = events::EventBuffer::FromOwned(events::EncodeEvent(e), "test");
  EXPECT_TRUE(b.ok()) << b.status();
  return b.ok() ? RenderEvent(b->event()) : "";
}

TEST(RenderTest, JoinNamesTheRosterNameAndController) {
  fb::EventT e;
  fb::StateChangeT sc;
  fb::CombatantJoinedT j;
  j.spec = std::make_unique<fb::CombatantSpecT>();
  j.spec->id = "gob";
  j.spec->name = "Goblin sentry";
  j.spec->side = "goblins";
  j.spec->controller = "ann";
  sc.change.Set(std::move(j));
  e.body.Set(std::move(sc));
  EXPECT_EQ(Rendered(std::move(e)).rfind(
                "#2 change   gob \"Goblin sentry\" joins (goblins, controlled by ann)", 0),
            0u);
}

TEST(RenderTest, ACommandWithoutAnAuthorSaysSo) {
  fb::CommandT c;
  c.actor = "aria";
  c.action = "opportunity_attack";
  EXPECT_EQ(RenderCommand(c), "aria: opportunity_attack  (no author, Player)");
  c.author = "ann";
  EXPECT_EQ(RenderCommand(c), "aria: opportunity_attack  (by ann, Player)");
}

}  // namespace
}  // namespace combat::replay
