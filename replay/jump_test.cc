// Jump: seeking with snapshots gives exactly the state a full replay gives;
// bad snapshots are ignored and reported; snapshots are written at append
// and lazily on seek.
#include "replay/jump.h"

#include "gtest/gtest.h"
#include "kernel/state_codec.h"
#include "replay/engine.h"
#include "replay/testing/fixture.h"

namespace combat::replay {
namespace {

using testing::ToyFixture;

class JumpTest : public ToyFixture {
 protected:
  void Play(int exchanges) {
    for (int i = 0; i < exchanges; ++i) {
      // Misses (d20 = 1) keep everyone standing, so the fight goes on.
      AttackAndEnd({1});
    }
  }

  // The state after `seq` by a fold from seq 1, no snapshots.
  kernel::State Replayed(const std::string& branch, uint64_t seq) {
    SeekOptions plain;
    plain.use_snapshots = false;
    plain.write_snapshots = false;
    auto s = Seek(engine_->log(), "s1", branch, seq, plain);
    EXPECT_TRUE(s.ok()) << s.status();
    return s.ok() ? *s : kernel::State();
  }
};

TEST_F(JumpTest, EverySeekEqualsAFullReplay) {
  SeekOptions small;
  small.snapshot_every = 8;
  engine_->set_seek_options(small);
  Play(12);
  const uint64_t head = HeadOf();
  ASSERT_GT(head, 40u);
  auto count = engine_->log().CountSnapshots("s1");
  ASSERT_TRUE(count.ok());
  EXPECT_EQ(*count, head / 8) << "one snapshot per 8 events, at append";
  for (uint64_t seq = 1; seq <= head; ++seq) {
    SeekReport report;
    auto s = engine_->StateAt("s1", "main", seq, &report);
    ASSERT_TRUE(s.ok()) << s.status();
    EXPECT_EQ(kernel::EncodeState(*s), kernel::EncodeState(Replayed("main", seq)))
        << "seq " << seq;
    EXPECT_EQ(report.snapshot_seq, seq / 8 * 8) << "seq " << seq;
    EXPECT_LT(report.folded, 8u);
    EXPECT_TRUE(report.ignored.empty());
  }
}

TEST_F(JumpTest, ASnapshotThatDisagreesWithItsEventIsIgnoredAndReplaced) {
  SeekOptions small;
  small.snapshot_every = 8;
  engine_->set_seek_options(small);
  Play(6);
  const uint64_t head = HeadOf();
  ASSERT_GT(head, 17u);
  // A forged snapshot at 16: the right seq, a different hp.
  kernel::State forged = Replayed("main", 16);
  forged.combatants["a"].resources["hp"] = 99;
  ASSERT_TRUE(engine_->log()
                  .PutSnapshot("s1", "main", 16, 1, kernel::EncodeState(forged))
                  .ok());
  SeekReport report;
  auto s = engine_->StateAt("s1", "main", 17, &report);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(kernel::EncodeState(*s), kernel::EncodeState(Replayed("main", 17)));
  ASSERT_EQ(report.ignored.size(), 1u);
  EXPECT_NE(report.ignored[0].find("seq 16"), std::string::npos)
      << report.ignored[0];
  EXPECT_EQ(report.snapshot_seq, 8u);
  EXPECT_EQ(report.snapshots_written, 1u) << "the bad one is replaced";
  SeekReport again;
  ASSERT_TRUE(engine_->StateAt("s1", "main", 17, &again).ok());
  EXPECT_TRUE(again.ignored.empty());
  EXPECT_EQ(again.snapshot_seq, 16u);

  // Garbage bytes are ignored the same way.
  ASSERT_TRUE(engine_->log().PutSnapshot("s1", "main", 16, 1, {1, 2, 3}).ok());
  SeekReport garbage;
  ASSERT_TRUE(engine_->StateAt("s1", "main", 17, &garbage).ok());
  ASSERT_EQ(garbage.ignored.size(), 1u);
  EXPECT_NE(garbage.ignored[0].find("undecodable"), std::string::npos);
}

TEST_F(JumpTest, SnapshotsOfAnotherRulesetVersionAreNotUsed) {
  Play(3);
  SeekOptions none;
  none.write_snapshots = false;
  engine_->set_seek_options(none);
  kernel::State at5 = Replayed("main", 5);
  ASSERT_TRUE(engine_->log()
                  .PutSnapshot("s1", "main", 5, 2, kernel::EncodeState(at5))
                  .ok());
  SeekReport report;
  ASSERT_TRUE(engine_->StateAt("s1", "main", 9, &report).ok());
  EXPECT_EQ(report.snapshot_seq, 0u);
}

TEST_F(JumpTest, ALogWithoutSnapshotsGetsThemOnFirstSeek) {
  SeekOptions none;
  none.write_snapshots = false;
  engine_->set_seek_options(none);
  Play(8);
  EXPECT_EQ(*engine_->log().CountSnapshots("s1"), 0u);
  SeekOptions lazy;
  lazy.snapshot_every = 10;
  engine_->set_seek_options(lazy);
  const uint64_t head = HeadOf();
  SeekReport first;
  ASSERT_TRUE(engine_->StateAt("s1", "main", head, &first).ok());
  EXPECT_EQ(first.folded, head);
  EXPECT_EQ(first.snapshots_written, head / 10);
  SeekReport second;
  ASSERT_TRUE(engine_->StateAt("s1", "main", head, &second).ok());
  EXPECT_EQ(second.snapshot_seq, head / 10 * 10);
}

TEST_F(JumpTest, BeyondTheHeadIsOutOfRange) {
  EXPECT_EQ(engine_->StateAt("s1", "main", HeadOf() + 1).status().code(),
            absl::StatusCode::kOutOfRange);
}

TEST_F(JumpTest, AForkSeeksThroughItsParentsSnapshots) {
  SeekOptions small;
  small.snapshot_every = 8;
  engine_->set_seek_options(small);
  Play(5);
  ForkRequest f{"s1", "main", 20, "alt", "dana", "test"};
  ASSERT_TRUE(engine_->Fork(f).ok());
  Play(2);  // main moves on
  AttackAndEnd({1}, "alt");
  SeekReport report;
  auto s = engine_->StateAt("s1", "alt", 0, &report);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(kernel::EncodeState(*s),
            kernel::EncodeState(Replayed("alt", HeadOf("alt"))));
  EXPECT_EQ(report.snapshot_branch, HeadOf("alt") >= 24 ? "alt" : "main");
}

}  // namespace
}  // namespace combat::replay
