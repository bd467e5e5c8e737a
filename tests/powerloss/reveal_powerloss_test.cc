// A reveal mid-session (issue 16) stores the fresh dice secret with the
// SeedRevealed that commits to it, in one batch (store::LogWriter::
// AppendReveal): a power loss at any moment of the write leaves both or
// neither, and an acknowledged reveal has both. Without this, a crash could
// leave a commitment whose secret is lost (no seeded die could be rolled
// again) or a stored secret no event commits to.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "events/codec.h"
#include "events/hash.h"
#include "gtest/gtest.h"
#include "store/event_log.h"
#include "tests/testing/fault_fs.h"
#include "tests/testing/temp_dir.h"

namespace combat::testing {
namespace {

std::vector<uint8_t> Commit(const std::vector<uint8_t>& secret) {
  const events::Digest d = events::Sha256(secret);
  return std::vector<uint8_t>(d.begin(), d.end());
}

events::EventBuffer Event(uint64_t seq, const events::Digest& prev,
                          const std::string& command, fb::StateChangeT sc) {
  fb::EventT e;
  e.session = "s1";
  e.branch = "main";
  e.seq = seq;
  e.command_id = command;
  e.prev_hash.assign(prev.begin(), prev.end());
  e.body.Set(std::move(sc));
  auto buf = events::EventBuffer::FromOwned(events::EncodeEvent(e), "test");
  EXPECT_TRUE(buf.ok()) << buf.status();
  return *std::move(buf);
}

TEST(RevealPowerLossTest, TheFreshSecretAndItsRevealSurviveTogetherOrNotAtAll) {
  const std::vector<uint8_t> first(32, 0x11), fresh(32, 0x22);
  int with = 0, without = 0;
  for (const PowerLoss mode : {PowerLoss::kDropUnsynced, PowerLoss::kKeepRandomPrefix}) {
    for (int ops = 0; ops < 24; ++ops) {
      SCOPED_TRACE(absl::StrCat("crash after ", ops, " ops, mode ", static_cast<int>(mode)));
      TempDir dir("reveal-powerloss");
      std::shared_ptr<FaultFs> fs = FaultFs::Create(4242 + ops);
      std::unique_ptr<rocksdb::Env> env = NewEnv(fs);
      store::Options options;
      options.sync = true;
      options.env = env.get();
      fb::StateChangeT setup;
      setup.rule = "x";
      fb::RulingT ruling;
      ruling.reason = "setup";
      setup.change.Set(std::move(ruling));
      const events::EventBuffer one = Event(1, events::Digest{}, "setup", std::move(setup));
      fb::StateChangeT sc;
      sc.rule = "x";
      fb::SeedRevealedT r;
      r.secret = first;
      r.next_commitment = Commit(fresh);
      sc.change.Set(std::move(r));
      const events::EventBuffer two = Event(2, one.hash(), "reveal", std::move(sc));
      bool acked = false;
      {
        auto log = store::EventLog::Open(dir.db(), options);
        ASSERT_TRUE(log.ok()) << log.status();
        ASSERT_TRUE((*log)->CreateSession({"s1", "toy", 1, "t"}, first, "setup", {one}).ok());
        fs->CrashAfterOps(ops);
        acked = (*log)
                    ->AppendReveal("s1", "main", 1, "reveal", {two}, std::nullopt,
                                   store::RevealRecord{Commit(first), fresh})
                    .ok();
        fs->CrashNow();
      }
      fs->PowerLossAndRestart(mode, /*lose_dir_entries=*/false);
      auto log = store::EventLog::Open(dir.db(), options);
      ASSERT_TRUE(log.ok()) << "after the power loss: " << log.status();
      auto head = (*log)->GetHead("s1", "main");
      ASSERT_TRUE(head.ok()) << head.status();
      auto secret = (*log)->GetSecretFor("s1", Commit(fresh));
      ASSERT_TRUE(secret.ok()) << secret.status();
      auto marker = (*log)->GetReveal("s1", Commit(first));
      ASSERT_TRUE(marker.ok()) << marker.status();
      if (acked) {
        EXPECT_EQ(head->seq, 2u) << "an acknowledged reveal was lost";
      }
      if (head->seq == 2) {
        ++with;
        EXPECT_EQ(*secret, fresh) << "the reveal survived without its fresh secret";
        EXPECT_TRUE(marker->has_value());
      } else {
        ++without;
        EXPECT_EQ(head->seq, 1u);
        EXPECT_TRUE(secret->empty()) << "a fresh secret survived without its reveal";
        EXPECT_FALSE(marker->has_value());
      }
    }
  }
  // Both outcomes happened: the crash points cover the write.
  EXPECT_GT(with, 0);
  EXPECT_GT(without, 0);
}

}  // namespace
}  // namespace combat::testing
