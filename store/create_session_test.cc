// CreateSession with the session's first command: one WriteBatch, so a
// session never exists without its set-up (issue 11: a kill -9 between the
// two left sessions stuck at 0 events for ever).
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "events/codec.h"
#include "gtest/gtest.h"
#include "store/event_log.h"
#include "store/testing/events.h"
#include "tests/testing/temp_dir.h"

namespace combat::store {
namespace {

std::vector<events::EventBuffer> SetUpEvents(int n, uint64_t first_seq = 1) {
  std::vector<events::EventBuffer> out;
  events::Digest prev{};
  for (int i = 0; i < n; ++i) {
    out.push_back(TestRulingEvent("s1", "main", first_seq + i, prev,
                                  absl::StrCat("setup ", i), "setup"));
    prev = out.back().hash();
  }
  return out;
}

TEST(CreateSessionTest, SessionAndSetUpAreWrittenTogether) {
  testing::TempDir dir;
  auto log = EventLog::Open(dir.db());
  ASSERT_TRUE(log.ok()) << log.status();
  const std::vector<events::EventBuffer> setup = SetUpEvents(3);
  ASSERT_TRUE((*log)->CreateSession({"s1", "toy", 1, "t"}, {1, 2}, "setup", setup).ok());
  auto head = (*log)->GetHead("s1", "main");
  ASSERT_TRUE(head.ok()) << head.status();
  EXPECT_EQ(head->seq, 3u);
  EXPECT_EQ(head->hash, setup.back().hash());
  auto done = (*log)->FindCommand("s1", "main", "setup");
  ASSERT_TRUE(done.ok() && done->has_value());
  EXPECT_EQ((*done)->first_seq, 1u);
  EXPECT_EQ((*done)->last_seq, 3u);
  auto events = (*log)->Read("s1", "main");
  ASSERT_TRUE(events.ok()) << events.status();
  EXPECT_EQ(events->size(), 3u);
  // Reopened: the same (the batch was one acknowledged write).
  log->reset();
  auto again = EventLog::Open(dir.db());
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ((*again)->GetHead("s1", "main")->seq, 3u);
}

TEST(CreateSessionTest, ABadSetUpWritesNoSession) {
  testing::TempDir dir;
  auto log = EventLog::Open(dir.db());
  ASSERT_TRUE(log.ok()) << log.status();
  absl::Status st =
      (*log)->CreateSession({"s1", "toy", 1, "t"}, {1, 2}, "setup", SetUpEvents(2, 2));
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
  EXPECT_TRUE(absl::StrContains(st.message(), "session s1 branch main seq 1"))
      << st;
  EXPECT_EQ((*log)->GetSession("s1").status().code(), absl::StatusCode::kNotFound);
  // The id is free: the retry with a good set-up works.
  EXPECT_TRUE((*log)->CreateSession({"s1", "toy", 1, "t"}, {1, 2}, "setup", SetUpEvents(2)).ok());
}

}  // namespace
}  // namespace combat::store
