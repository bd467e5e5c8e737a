#include "replay/event_diff.h"

#include "gtest/gtest.h"

namespace combat::replay {
namespace {

events::EventBuffer Roll(int value, const std::string& reason = "") {
  fb::EventT e;
  e.session = "s1";
  e.branch = "main";
  e.seq = 7;
  e.prev_hash.assign(32, 1);
  fb::RollT r;
  r.purpose = "attack";
  r.roller = "a";
  r.expression = "1d20+2";
  auto d = std::make_unique<fb::DieT>();
  d->faces = 20;
  d->value = value;
  d->index = 3;
  r.dice.push_back(std::move(d));
  r.total = value + 2;
  r.modifier = 2;
  r.reason = reason;
  e.body.Set(std::move(r));
  return *events::EventBuffer::FromOwned(events::EncodeEvent(e), "test");
}

TEST(EventDiffTest, FlattenJson) {
  auto f = FlattenJson(R"({"a": 1, "b": {"c": [1, 2], "d": [{"e": "x"}]}, "f": []})");
  ASSERT_TRUE(f.ok()) << f.status();
  ASSERT_EQ(f->size(), 4u);
  EXPECT_EQ((*f)[0], (std::pair<std::string, std::string>("a", "1")));
  EXPECT_EQ((*f)[1], (std::pair<std::string, std::string>("b.c", "[1,2]")));
  EXPECT_EQ((*f)[2], (std::pair<std::string, std::string>("b.d[0].e", "\"x\"")));
  EXPECT_EQ((*f)[3], (std::pair<std::string, std::string>("f", "[]")));
  EXPECT_FALSE(FlattenJson("{\"a\": }").ok());
  EXPECT_FALSE(FlattenJson("{\"a\": 1} x").ok());
}

TEST(EventDiffTest, NamesTheFieldsThatDiffer) {
  auto d = DiffEvents(Roll(17), Roll(4, "what-if"));
  ASSERT_TRUE(d.ok()) << d.status();
  ASSERT_EQ(d->size(), 3u);
  EXPECT_EQ((*d)[0].field, "body.dice[0].value");
  EXPECT_EQ((*d)[0].a, "17");
  EXPECT_EQ((*d)[0].b, "4");
  EXPECT_EQ((*d)[1].field, "body.total");
  EXPECT_EQ((*d)[2].field, "body.reason");
  EXPECT_EQ((*d)[2].a, "-");
  EXPECT_TRUE(DiffEvents(Roll(3), Roll(3))->empty());
}

}  // namespace
}  // namespace combat::replay
