// LogWriter::AppendReveal (issue 16): a reveal's events, the fresh secret
// it commits to (keyed by its commitment) and the marker of where the
// revealed commitment was first revealed, in one batch: all or nothing.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "events/codec.h"
#include "events/hash.h"
#include "gtest/gtest.h"
#include "store/event_log.h"
#include "store/testing/events.h"
#include "tests/testing/temp_dir.h"

namespace combat::store {
namespace {

std::vector<uint8_t> Commit(const std::vector<uint8_t>& secret) {
  const events::Digest d = events::Sha256(secret);
  return std::vector<uint8_t>(d.begin(), d.end());
}

events::EventBuffer RevealEvent(const std::string& branch, uint64_t seq,
                                const events::Digest& prev,
                                const std::vector<uint8_t>& secret,
                                const std::vector<uint8_t>& next,
                                const std::string& command) {
  return TestRevealEvent("s1", branch, seq, prev, secret, next, command);
}

class RevealStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto log = EventLog::Open(dir_.db());
    ASSERT_TRUE(log.ok()) << log.status();
    log_ = *std::move(log);
    setup_ = {TestRulingEvent("s1", "main", 1, events::Digest{}, "setup", "setup")};
    ASSERT_TRUE(log_->CreateSession({"s1", "toy", 1, "t"}, first_, "setup", setup_).ok());
  }

  // The reveal of the first secret at seq 2 of main, committing `fresh`.
  absl::StatusOr<AppendResult> RevealFirst(const std::vector<uint8_t>& fresh,
                                           const std::string& id = "reveal",
                                           uint64_t expected = 1) {
    const events::EventBuffer e =
        RevealEvent("main", 2, setup_.back().hash(), first_, Commit(fresh), id);
    return log_->AppendReveal("s1", "main", expected, id, {e}, std::nullopt,
                              RevealRecord{Commit(first_), fresh});
  }

  combat::testing::TempDir dir_;
  std::unique_ptr<EventLog> log_;
  const std::vector<uint8_t> first_ = std::vector<uint8_t>(32, 0x11);
  const std::vector<uint8_t> fresh_ = std::vector<uint8_t>(32, 0x22);
  std::vector<events::EventBuffer> setup_;
};

TEST_F(RevealStoreTest, TheEventsTheFreshSecretAndTheMarkerAreWrittenTogether) {
  EXPECT_EQ(*log_->GetSecretFor("s1", Commit(first_)), first_);
  EXPECT_TRUE(log_->GetSecretFor("s1", Commit(fresh_))->empty());
  EXPECT_FALSE(log_->GetReveal("s1", Commit(first_))->has_value());
  auto r = RevealFirst(fresh_);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(log_->GetHead("s1", "main")->seq, 2u);
  EXPECT_EQ(*log_->GetSecretFor("s1", Commit(fresh_)), fresh_);
  EXPECT_EQ(*log_->GetSecretFor("s1", Commit(first_)), first_) << "the first stays";
  EXPECT_EQ(*log_->GetSecret("s1"), first_);
  auto marker = log_->GetReveal("s1", Commit(first_));
  ASSERT_TRUE(marker.ok() && marker->has_value()) << marker.status();
  EXPECT_EQ((*marker)->branch, "main");
  EXPECT_EQ((*marker)->seq, 2u);
  auto reveals = log_->ListReveals("s1");
  ASSERT_TRUE(reveals.ok()) << reveals.status();
  ASSERT_EQ(reveals->size(), 1u);
  EXPECT_EQ((*reveals)[0].commitment_hex, events::Hex(Commit(first_)));
  EXPECT_EQ((*reveals)[0].branch, "main");
  auto all = log_->ListSecrets("s1");
  ASSERT_TRUE(all.ok()) << all.status();
  ASSERT_EQ(all->size(), 2u);
  EXPECT_TRUE((*all)[0].first);
  EXPECT_EQ((*all)[0].secret, first_);
  EXPECT_FALSE((*all)[1].first);
  EXPECT_EQ((*all)[1].commitment_hex, events::Hex(Commit(fresh_)));
  EXPECT_EQ((*all)[1].secret, fresh_);
}

TEST_F(RevealStoreTest, ARefusedRevealWritesNeitherTheEventsNorTheSecret) {
  // A stale head.
  EXPECT_EQ(RevealFirst(fresh_, "reveal", 0).status().code(), absl::StatusCode::kAborted);
  // A fresh secret of the wrong size.
  EXPECT_EQ(RevealFirst(std::vector<uint8_t>(5, 1)).status().code(),
            absl::StatusCode::kInvalidArgument);
  // Events without a SeedRevealed.
  const events::EventBuffer ruling =
      TestRulingEvent("s1", "main", 2, setup_.back().hash(), "no reveal", "r");
  auto none = log_->AppendReveal("s1", "main", 1, "r", {ruling}, std::nullopt,
                                 RevealRecord{Commit(first_), fresh_});
  EXPECT_EQ(none.status().code(), absl::StatusCode::kInvalidArgument) << none.status();
  EXPECT_NE(none.status().message().find("SeedRevealed"), std::string::npos);
  EXPECT_EQ(log_->GetHead("s1", "main")->seq, 1u);
  EXPECT_TRUE(log_->GetSecretFor("s1", Commit(fresh_))->empty());
  EXPECT_FALSE(log_->GetReveal("s1", Commit(first_))->has_value());
  EXPECT_EQ(log_->ListSecrets("s1")->size(), 1u);
}

TEST_F(RevealStoreTest, ARetriedIdStoresNoOtherSecretAndTheFirstRevealIsKept) {
  ASSERT_TRUE(RevealFirst(fresh_).ok());
  const std::vector<uint8_t> other(32, 0x33);
  auto again = RevealFirst(other, "reveal", 1);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_TRUE(again->duplicate);
  EXPECT_TRUE(log_->GetSecretFor("s1", Commit(other))->empty());
  // A branch forked before the reveal reveals the same commitment: the
  // marker still names main's reveal.
  ASSERT_TRUE(log_->Fork("s1", "main", 1, "alt", "gm", "test").ok());
  const events::EventBuffer e =
      RevealEvent("alt", 2, setup_.back().hash(), first_, Commit(other), "alt-reveal");
  ASSERT_TRUE(log_->AppendReveal("s1", "alt", 1, "alt-reveal", {e}, std::nullopt,
                                 RevealRecord{Commit(first_), other})
                  .ok());
  EXPECT_EQ(*log_->GetSecretFor("s1", Commit(other)), other);
  EXPECT_EQ((*log_->GetReveal("s1", Commit(first_)))->branch, "main");
}

TEST_F(RevealStoreTest, AnImportStoresTheLaterSecretsAndTheMarkers) {
  const events::EventBuffer e =
      RevealEvent("main", 2, setup_.back().hash(), first_, Commit(fresh_), "reveal");
  std::vector<events::EventBuffer> own = setup_;
  own.push_back(e);
  ImportBranch main{BranchMeta{"s1", "main", "", 0, "", ""}, &own};
  // Into a second database (s1 exists in the first).
  combat::testing::TempDir other;
  auto log = EventLog::Open(other.db());
  ASSERT_TRUE(log.ok()) << log.status();
  auto n = (*log)->ImportSession({"s1", "toy", 1, "t"}, first_, {main},
                                 EventLog::Canonical::kCheck, {}, {fresh_});
  ASSERT_TRUE(n.ok()) << n.status();
  EXPECT_EQ(*(*log)->GetSecretFor("s1", Commit(fresh_)), fresh_);
  auto marker = (*log)->GetReveal("s1", Commit(first_));
  ASSERT_TRUE(marker.ok() && marker->has_value()) << marker.status();
  EXPECT_EQ((*marker)->branch, "main");
  EXPECT_EQ((*marker)->seq, 2u);
}

}  // namespace
}  // namespace combat::store
