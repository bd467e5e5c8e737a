// Diff of two branches (a what-if against its parent) and of two events.
#include "replay/diff.h"

#include "gtest/gtest.h"
#include "replay/testing/fixture.h"
#include "replay/whatif.h"

namespace combat::replay {
namespace {

using testing::ToyCmd;

class DiffTest : public testing::ToyFixture {};

TEST_F(DiffTest, AWhatIfAgainstItsParent) {
  const std::string x = Active(), y = Other(x);
  Do(ToyCmd("c1", x, "attack", {y}, {15, 6}));
  const auto second = Do(ToyCmd("c2", x, "attack", {y}, {14, 5}));
  Do(ToyCmd("c3", x, "end_turn"));
  uint64_t roll = 0;
  for (const auto& e : second) {
    if (e.event().body_type() == fb::Body::Roll) {
      roll = e.event().seq();
      break;
    }
  }
  WhatIfRequest req;
  req.session = "s1";
  req.branch = "miss";
  req.author = "dana";
  req.reason = "what if it missed";
  req.change.kind = WhatIfChange::Kind::kDie;
  req.change.seq = roll;
  req.change.value = 1;
  ASSERT_TRUE(WhatIf(engine_->log(), testing::Toy(), req).ok());

  auto d = Diff(engine_->log(), "s1", {"main", 0}, {"miss", 0});
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d->shared, second.front().event().seq() - 1);
  EXPECT_EQ(d->first_divergent, roll) << RenderDiff(*d)
      << "the re-run declaration and its action cost are the same outcome";
  EXPECT_EQ(d->first_divergent_b, roll + 1) << RenderDiff(*d)
      << "the branch's fork record (stepped over) comes before its re-run";
  ASSERT_TRUE(d->a_event.has_value());
  bool value_differs = false;
  for (const FieldDiff& f : d->event_fields) {
    if (f.field == "body.dice[0].value") {
      value_differs = true;
      EXPECT_EQ(f.a, "14");
      EXPECT_EQ(f.b, "1");
    }
  }
  EXPECT_TRUE(value_differs) << RenderDiff(*d);
  bool hp = false;
  for (const FieldDiff& f : d->state) {
    if (f.scope == y && f.field == "hp") {
      hp = true;
      EXPECT_EQ(f.a, "-1");
      EXPECT_EQ(f.b, "4");
    }
  }
  EXPECT_TRUE(hp) << RenderDiff(*d);
  const std::string text = RenderDiff(*d);
  EXPECT_NE(text.find("shared prefix: events 1.."), std::string::npos) << text;
  EXPECT_NE(text.find("first divergent event: main#" + std::to_string(roll) +
                      " | miss#" + std::to_string(roll + 1)),
            std::string::npos) << text;
}

TEST_F(DiffTest, TwoEventsOfOneBranch) {
  const std::string x = Active(), y = Other(x);
  const uint64_t before = HeadOf();
  Do(ToyCmd("c1", x, "attack", {y}, {15, 6}));
  auto d = Diff(engine_->log(), "s1", {"main", before}, {"main", 0});
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d->shared, before);
  EXPECT_EQ(d->first_divergent, 0u);
  ASSERT_FALSE(d->state.empty());
  EXPECT_NE(RenderDiff(*d).find("hp: 10 | 4"), std::string::npos) << RenderDiff(*d);
}

TEST(PointTest, Parse) {
  auto p = ParsePoint("alt@12");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->branch, "alt");
  EXPECT_EQ(p->seq, 12u);
  EXPECT_EQ(ParsePoint("@3")->branch, "main");
  EXPECT_EQ(ParsePoint("alt")->seq, 0u);
  EXPECT_FALSE(ParsePoint("alt@x").ok());
}

}  // namespace
}  // namespace combat::replay
