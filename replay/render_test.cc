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

// A pool's counter (events.fbs ResourceChanged `pool`, v5) has no actor:
// the line names its owner, as a combatant's names the combatant.
TEST(RenderTest, APoolsCounterNamesItsOwner) {
  fb::EventT e;
  fb::StateChangeT sc;
  fb::ResourceChangedT r;
  r.pool = "side:party";
  r.name = "narrative_momentum";
  r.delta = -6;
  r.value = 2;
  sc.change.Set(std::move(r));
  e.body.Set(std::move(sc));
  EXPECT_EQ(Rendered(std::move(e)).rfind(
                "#2 change   side:party narrative_momentum -6 -> 2", 0),
            0u);
  fb::EventT f;
  fb::StateChangeT sd;
  fb::ResourceSetT s;
  s.actor = "aria";
  s.name = "hp";
  s.value = 7;
  sd.change.Set(std::move(s));
  f.body.Set(std::move(sd));
  EXPECT_EQ(Rendered(std::move(f)).rfind("#2 change   aria hp = 7", 0), 0u);
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
