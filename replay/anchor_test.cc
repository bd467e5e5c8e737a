// Anchors on real RocksDB databases: a head published earlier catches a
// rewrite of an earlier event with the rest re-chained (a log that plain
// verify accepts) and a rollback of the last command, naming the seq.
#include "replay/anchor.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "replay/testing/fixture.h"
#include "replay/testing/toy.h"
#include "replay/verify.h"

namespace combat::replay {
namespace {

using testing::ToyCmd;

class AnchorTest : public testing::ToyFixture {
 protected:
  // Plays `rounds` attack + end_turn exchanges with ids "<tag>-<n>" for the
  // end_turns (dice-free, so only their bytes change with the tag).
  void Play(int rounds, const std::string& end_tag, int first = 0) {
    for (int i = first; i < first + rounds; ++i) {
      const std::string me = Active();
      Do(ToyCmd("atk-" + std::to_string(i), me, "attack", {Other(me)}));
      Do(ToyCmd(end_tag + "-" + std::to_string(i), me, "end_turn"));
    }
  }
  // Switches the fixture to a fresh database holding session s1 with the
  // same roster and secret: what the database's holder could write.
  void StartOver(const std::string& name) {
    Close();
    db_ = dir_ + "/" + name;
    Reopen();
    auto setup = engine_->CreateSession("s1", testing::ToyRoster({"a", "b"}),
                                        testing::FixtureSecret(), "dana");
    ASSERT_TRUE(setup.ok()) << setup.status();
  }
  VerifyReport Verify() {
    auto rules = engine_->RulesetOf("s1");
    EXPECT_TRUE(rules.ok());
    auto r = VerifySession(engine_->log(), *rules, "s1", "", false, {});
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? *r : VerifyReport();
  }
  std::optional<Mismatch> Against(const std::vector<PublishedHead>& heads) {
    auto r = CheckAgainst(engine_->log(), "s1", heads);
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? *r : std::nullopt;
  }
};

TEST_F(AnchorTest, HeadsRoundTripAndALongerLogExtendsThem) {
  Play(2, "end");
  auto heads = ReadHeads(engine_->log(), "s1");
  ASSERT_TRUE(heads.ok());
  ASSERT_EQ(heads->size(), 1u);
  EXPECT_EQ((*heads)[0].seq, HeadOf());
  auto parsed = ParseHeads("# kept by the players\n" + RenderHeads(*heads, false));
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  ASSERT_EQ(parsed->size(), 1u);
  EXPECT_EQ((*parsed)[0].hash, (*heads)[0].hash);
  EXPECT_NE(RenderHeads(*heads, true).find("\"branch\":\"main\""), std::string::npos);
  Play(1, "more");
  EXPECT_FALSE(Against(*parsed).has_value());
  EXPECT_FALSE(ParseHeads("head s1 main 3 nothex").ok());
}

TEST_F(AnchorTest, ARewriteWithTheChainRebuiltIsCaught) {
  Play(3, "end");
  auto published = ReadHeads(engine_->log(), "s1");
  ASSERT_TRUE(published.ok());
  // The same game with one earlier event changed (an end_turn's id) and
  // everything after it re-decided and re-chained.
  StartOver("rewritten");
  Play(1, "end");
  Play(2, "forged", 1);
  ASSERT_EQ(HeadOf(), (*published)[0].seq);
  const VerifyReport plain = Verify();
  EXPECT_TRUE(plain.ok()) << "without an anchor the rewrite passes";
  auto m = Against(*published);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->check, "anchor");
  EXPECT_EQ(m->seq, (*published)[0].seq);
  EXPECT_NE(m->summary.find("rewrite: event #"), std::string::npos) << m->summary;
}

TEST_F(AnchorTest, ARollbackOfTheLastCommandIsCaught) {
  Play(2, "end");
  const uint64_t before = HeadOf();
  Do(ToyCmd("last", Active(), "end_turn"));
  auto published = ReadHeads(engine_->log(), "s1");
  ASSERT_TRUE(published.ok());
  // The same database content without the last command: a rollback.
  StartOver("rolledback");
  Play(2, "end");
  ASSERT_EQ(HeadOf(), before);
  EXPECT_TRUE(Verify().ok());
  auto m = Against(*published);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->check, "anchor");
  EXPECT_EQ(m->seq, (*published)[0].seq);
  EXPECT_NE(m->summary.find("rollback: branch main ends at #" + std::to_string(before)),
            std::string::npos)
      << m->summary;
}

TEST_F(AnchorTest, HeadsAreSignedWithTheChainedKeyAndAForgeryIsRefused) {
  Play(2, "end");
  auto heads = ReadHeads(engine_->log(), "s1");
  ASSERT_TRUE(heads.ok());
  ASSERT_TRUE(SignHeads(engine_->log(), "s1", *heads).ok());
  ASSERT_EQ((*heads)[0].signature.size(), 64u) << "new sessions carry a key";
  auto parsed = ParseHeads(RenderHeads(*heads, false));
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ((*parsed)[0].signature, (*heads)[0].signature);
  EXPECT_FALSE(Against(*parsed).has_value());
  // A head someone else made up (an earlier seq, its real hash) with the
  // signature of another head: refused, naming the signature.
  std::vector<PublishedHead> forged = *parsed;
  forged[0].seq -= 1;
  auto events = engine_->Events("s1", "main", forged[0].seq, forged[0].seq);
  ASSERT_TRUE(events.ok());
  forged[0].hash = events->front().hash();
  auto m = Against(forged);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->check, "anchor");
  EXPECT_NE(m->summary.find("signature"), std::string::npos) << m->summary;
  forged[0].signature.clear();  // unsigned, it is just a head: extended
  EXPECT_FALSE(Against(forged).has_value());
}

}  // namespace
}  // namespace combat::replay
