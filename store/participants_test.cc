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

TEST(ParticipantsTest, RevokedTokensNoLongerFoundAndRevocationIsDurable) {
  testing::TempDir dir;
  {
    auto log = EventLog::Open(dir.db());
    ASSERT_TRUE(log.ok()) << log.status();
    ASSERT_TRUE((*log)->CreateSession({"s1", "toy", 1, "t"}, {1, 2}).ok());
    ParticipantTable table(**log);
    ASSERT_TRUE(table.Add({"s1", "dana", ParticipantRole::kGm}, kHashA).ok());
    ASSERT_TRUE(table.Add({"s1", "ann", ParticipantRole::kPlayer}, kHashB).ok());
    ASSERT_TRUE(table.Revoke("s1", "ann").ok());
    EXPECT_EQ(table.Revoke("s1", "ann").code(), absl::StatusCode::kNotFound);
    EXPECT_EQ(table.Revoke("s1", "nobody").code(), absl::StatusCode::kNotFound);
  }
  auto log = EventLog::Open(dir.db());
  ASSERT_TRUE(log.ok()) << log.status();
  ParticipantTable table(**log);
  auto ann = table.Find("s1", kHashB);
  ASSERT_TRUE(ann.ok());
  EXPECT_FALSE(ann->has_value());
  auto gm = table.Find("s1", kHashA);
  ASSERT_TRUE(gm.ok() && gm->has_value());
  // The name is free again: a new token for ann.
  EXPECT_TRUE(table.Add({"s1", "ann", ParticipantRole::kPlayer}, std::string(64, 'c')).ok());
}

TEST(ParticipantsTest, FoundRecordsTheGmBeforeTheSessionAndClearsLeftovers) {
  testing::TempDir dir;
  auto log = EventLog::Open(dir.db());
  ASSERT_TRUE(log.ok()) << log.status();
  ParticipantTable table(**log);
  // A founding whose session was never written (a failed creation) leaves
  // a record that authenticates nothing and the next founding removes.
  ASSERT_TRUE(table.Found({"s1", "old", ParticipantRole::kGm}, kHashA).ok());
  ASSERT_TRUE(table.Found({"s1", "dana", ParticipantRole::kGm}, kHashB).ok());
  auto old = table.Find("s1", kHashA);
  ASSERT_TRUE(old.ok());
  EXPECT_FALSE(old->has_value());
  ASSERT_TRUE((*log)->CreateSession({"s1", "toy", 1, "t"}, {1, 2}).ok());
  auto all = table.List("s1");
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 1u);
  EXPECT_EQ((*all)[0].name, "dana");
  // A session that exists is not founded again.
  EXPECT_EQ(table.Found({"s1", "eve", ParticipantRole::kGm}, std::string(64, 'c')).code(),
            absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(table.List("s1")->size(), 1u);
}

TEST(ParticipantsTest, OperatorsAreApartFromEverySession) {
  testing::TempDir dir;
  {
    auto log = EventLog::Open(dir.db());
    ASSERT_TRUE(log.ok()) << log.status();
    ASSERT_TRUE((*log)->CreateSession({"s1", "toy", 1, "t"}, {1, 2}).ok());
    ParticipantTable table(**log);
    ASSERT_TRUE(table.AddOperator("root", kHashA).ok());
    EXPECT_EQ(table.AddOperator("root", kHashB).code(), absl::StatusCode::kAlreadyExists);
    EXPECT_EQ(table.AddOperator("r oot", kHashB).code(), absl::StatusCode::kInvalidArgument);
  }
  auto log = EventLog::Open(dir.db());
  ASSERT_TRUE(log.ok()) << log.status();
  ParticipantTable table(**log);
  auto op = table.FindOperator(kHashA);
  ASSERT_TRUE(op.ok() && op->has_value());
  EXPECT_EQ(**op, "root");
  auto none = table.FindOperator(kHashB);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
  // An operator's token is no session's participant token.
  auto in_s1 = table.Find("s1", kHashA);
  ASSERT_TRUE(in_s1.ok());
  EXPECT_FALSE(in_s1->has_value());
  EXPECT_TRUE(table.List("s1")->empty());
  EXPECT_EQ((*log)->ListSessions()->size(), 1u);
}

}  // namespace
}  // namespace combat::store
