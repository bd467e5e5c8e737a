// The table server's participants (store/participants.h): by token hash,
// per session, one token per name, durable, and never part of the chain.
#include "store/participants.h"

#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "store/event_log.h"
#include "tests/testing/temp_dir.h"

namespace combat::store {
namespace {

const std::string kHashA(64, 'a');
const std::string kHashB(64, 'b');

TEST(ParticipantsTest, FoundByTokenHashPerSessionAndKeptAcrossReopen) {
  testing::TempDir dir;
  {
    auto log = EventLog::Open(dir.db());
    ASSERT_TRUE(log.ok()) << log.status();
    ASSERT_TRUE((*log)->CreateSession({"s1", "toy", 1, "t"}, {1, 2}).ok());
    ASSERT_TRUE((*log)->CreateSession({"s2", "toy", 1, "t"}, {1, 2}).ok());
    ParticipantTable table(**log);
    ASSERT_TRUE(table.Add({"s1", "dana", ParticipantRole::kGm}, kHashA).ok());
    ASSERT_TRUE(table.Add({"s1", "ann", ParticipantRole::kPlayer}, kHashB).ok());
    // One token per name.
    EXPECT_EQ(table.Add({"s1", "ann", ParticipantRole::kObserver}, std::string(64, 'c')).code(),
              absl::StatusCode::kAlreadyExists);
    // No session: NotFound, nothing written.
    EXPECT_EQ(table.Add({"nope", "x", ParticipantRole::kGm}, kHashA).code(),
              absl::StatusCode::kNotFound);
    // Not a SHA-256 hex, or a bad name: InvalidArgument.
    EXPECT_EQ(table.Add({"s1", "eve", ParticipantRole::kObserver}, "XYZ").code(),
              absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(table.Add({"s1", "e ve", ParticipantRole::kObserver}, std::string(64, 'd')).code(),
              absl::StatusCode::kInvalidArgument);
    // The chain is untouched: sessions still have no events.
    EXPECT_EQ((*log)->GetHead("s1", "main")->seq, 0u);
  }
  auto log = EventLog::Open(dir.db());
  ASSERT_TRUE(log.ok()) << log.status();
  ParticipantTable table(**log);
  auto gm = table.Find("s1", kHashA);
  ASSERT_TRUE(gm.ok() && gm->has_value());
  EXPECT_EQ((*gm)->name, "dana");
  EXPECT_EQ((*gm)->role, ParticipantRole::kGm);
  // A token of s1 is not one of s2.
  auto other = table.Find("s2", kHashA);
  ASSERT_TRUE(other.ok());
  EXPECT_FALSE(other->has_value());
  auto all = table.List("s1");
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 2u);
  auto none = table.List("s2");
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
  // Sessions are listed as before (the p\0 keys are apart).
  auto sessions = (*log)->ListSessions();
  ASSERT_TRUE(sessions.ok());
  EXPECT_EQ(sessions->size(), 2u);
}

}  // namespace
}  // namespace combat::store
