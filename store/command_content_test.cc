// A command id is bound to its content hash (Append's `content`, or the
// content its events record): the same id with other content is a conflict
// naming both hashes; with the same content it is the idempotent duplicate.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "events/codec.h"
#include "events/hash.h"
#include "gtest/gtest.h"
#include "store/event_log.h"
#include "store/testing/events.h"
#include "tests/testing/temp_dir.h"

namespace combat::store {
namespace {

class CommandContentTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto log = EventLog::Open(dir_.db());
    ASSERT_TRUE(log.ok()) << log.status();
    log_ = *std::move(log);
    ASSERT_TRUE(log_->CreateSession({"s1", "toy", 1, "t"}, {1}).ok());
  }
  std::vector<events::EventBuffer> One(uint64_t seq, const events::Digest& prev) {
    return {TestRulingEvent("s1", "main", seq, prev, "r", "c1")};
  }
  testing::TempDir dir_;
  std::unique_ptr<EventLog> log_;
};

TEST_F(CommandContentTest, SameIdOtherContentIsAConflictNamingBoth) {
  const events::Digest a = events::Sha256("attack the goblin");
  const events::Digest b = events::Sha256("attack the troll");
  auto first = log_->Append("s1", "main", 0, "c1", One(1, {}), a);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(first->content, a);

  auto same = log_->Append("s1", "main", 1, "c1", One(2, first->content.value()), a);
  ASSERT_TRUE(same.ok()) << same.status();
  EXPECT_TRUE(same->duplicate);

  auto other = log_->Append("s1", "main", 1, "c1", One(2, a), b);
  EXPECT_EQ(other.status().code(), absl::StatusCode::kAlreadyExists) << other.status();
  EXPECT_TRUE(absl::StrContains(other.status().message(), "conflict")) << other.status();
  EXPECT_TRUE(absl::StrContains(other.status().message(), events::Hex(a))) << other.status();
  EXPECT_TRUE(absl::StrContains(other.status().message(), events::Hex(b))) << other.status();
  EXPECT_EQ(log_->GetHead("s1", "main")->seq, 1u) << "the conflict wrote something";

  // The marker keeps the hash across a reopen.
  log_.reset();
  auto log = EventLog::Open(dir_.db());
  ASSERT_TRUE(log.ok()) << log.status();
  auto found = (*log)->FindCommand("s1", "main", "c1");
  ASSERT_TRUE(found.ok() && found->has_value());
  EXPECT_EQ((*found)->content, a);
}

// Without a hash from the caller the marker binds the content its events
// record (events::MarkerContent): the same command again is the
// duplicate, other content a conflict.
TEST_F(CommandContentTest, WithoutACallersHashTheEventsContentIsBound) {
  const std::vector<events::EventBuffer> one = One(1, {});
  auto first = log_->Append("s1", "main", 0, "c1", one);
  ASSERT_TRUE(first.ok()) << first.status();
  ASSERT_TRUE(first->content.has_value());
  EXPECT_EQ(*first->content, events::MarkerContent(one));
  auto again = log_->Append("s1", "main", 1, "c1", One(2, {}),
                            events::MarkerContent(one));
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_TRUE(again->duplicate);
  auto other = log_->Append("s1", "main", 1, "c1", One(2, {}),
                            events::Sha256("anything"));
  EXPECT_EQ(other.status().code(), absl::StatusCode::kAlreadyExists) << other.status();
}

// A session's set-up is bound too: a command reusing its id is a conflict,
// never silently "already applied".
TEST_F(CommandContentTest, TheSetUpIdIsBound) {
  const std::vector<events::EventBuffer> setup = {
      TestRulingEvent("s2", "main", 1, {}, "r", "setup")};
  ASSERT_TRUE(log_->CreateSession({"s2", "toy", 1, "t"}, {1}, "setup", setup).ok());
  auto marker = log_->FindCommand("s2", "main", "setup");
  ASSERT_TRUE(marker.ok() && marker->has_value());
  EXPECT_EQ((*marker)->content, events::MarkerContent(setup));
  auto reuse = log_->Append("s2", "main", 1, "setup", {TestRulingEvent("s2", "main", 2, setup.front().hash(), "r", "setup")},
                            events::Sha256("a player's command"));
  EXPECT_EQ(reuse.status().code(), absl::StatusCode::kAlreadyExists) << reuse.status();
}

}  // namespace
}  // namespace combat::store
