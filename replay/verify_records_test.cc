// Everything shown as part of a session comes from chained events (issue
// 11, item 5): a stored or bundled title that disagrees with
// SessionStarted.title, or a fork record (parent, fork point, author,
// reason) that disagrees with the branch's BranchForked event, is refused
// by verify and import, naming the field.
#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "replay/bundle.h"
#include "replay/testing/fixture.h"
#include "replay/verify.h"
#include "rocksdb/db.h"

namespace combat::replay {
namespace {

class VerifyRecordsTest : public testing::ToyFixture {
 protected:
  // Replaces `from` by `to` (the same length: the record stays well formed)
  // in the stored record under `key` (store/keys.h), behind the store's back.
  void EditRecord(const std::string& key, const std::string& from, const std::string& to) {
    ASSERT_EQ(from.size(), to.size());
    Close();
    {
      rocksdb::DB* raw = nullptr;
      ASSERT_TRUE(rocksdb::DB::Open(rocksdb::Options(), db_, &raw).ok());
      std::unique_ptr<rocksdb::DB> db(raw);
      std::string value;
      ASSERT_TRUE(db->Get(rocksdb::ReadOptions(), key, &value).ok());
      const size_t at = value.find(from);
      ASSERT_NE(at, std::string::npos);
      value.replace(at, from.size(), to);
      ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), key, value).ok());
    }
    Reopen();
  }
};

TEST_F(VerifyRecordsTest, ATitleEditedInTheDatabaseIsNamed) {
  AttackAndEnd({});
  EditRecord(std::string("s\0s1", 4), "toy fight", "toy feast");  // s\0<session>
  auto rules = engine_->RulesetOf("s1");
  ASSERT_TRUE(rules.ok());
  auto r = VerifySession(engine_->log(), *rules, "s1", "", false, {});
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_FALSE(r->ok());
  EXPECT_EQ(r->mismatch->check, "records");
  EXPECT_EQ(r->mismatch->seq, 1u);
  EXPECT_NE(r->mismatch->summary.find("SessionStarted.title"), std::string::npos)
      << r->mismatch->summary;
}

TEST_F(VerifyRecordsTest, ABundleWithAnotherTitleIsRefused) {
  AttackAndEnd({});
  auto bundle = ReadSession(engine_->log(), "s1", false);
  ASSERT_TRUE(bundle.ok()) << bundle.status();
  auto rules = engine_->RulesetOf("s1");
  ASSERT_TRUE(rules.ok());
  auto clean = VerifyBundle(*bundle, *rules);
  ASSERT_TRUE(clean.ok() && clean->ok());
  bundle->meta.title = "a nicer story";
  auto r = VerifyBundle(*bundle, *rules);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_FALSE(r->ok());
  EXPECT_EQ(r->mismatch->check, "records");
  EXPECT_NE(r->mismatch->summary.find("a nicer story"), std::string::npos);
}

// A fork's record is its branch's first event (schema v6): verify checks
// the store's branch record against it, with nothing noted on a clean log.
TEST_F(VerifyRecordsTest, AForkRecordIsChainedAndChecked) {
  AttackAndEnd({});
  auto fork_seq = engine_->Fork({"s1", "main", 0, "alt", "dana", "why not"});
  ASSERT_TRUE(fork_seq.ok()) << fork_seq.status();
  auto record = engine_->Events("s1", "alt", *fork_seq + 1, *fork_seq + 1);
  ASSERT_TRUE(record.ok() && record->size() == 1u);
  const fb::Event& e = record->front().event();
  EXPECT_EQ(e.command_id()->str(), "fork");
  EXPECT_EQ(e.author()->str(), "dana");
  const fb::BranchForked* f = e.body_as_StateChange()->change_as_BranchForked();
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->branch()->str(), "alt");
  EXPECT_EQ(f->parent()->str(), "main");
  EXPECT_EQ(f->fork_seq(), *fork_seq);
  EXPECT_EQ(f->author()->str(), "dana");
  EXPECT_EQ(f->reason()->str(), "why not");
  auto rules = engine_->RulesetOf("s1");
  ASSERT_TRUE(rules.ok());
  auto r = VerifySession(engine_->log(), *rules, "s1", "", false, {});
  ASSERT_TRUE(r.ok() && r->ok()) << RenderVerifyReport(*r);
  for (const std::string& n : r->notes) {
    EXPECT_EQ(n.find("fork record"), std::string::npos) << n;
  }
}

TEST_F(VerifyRecordsTest, AForkReasonEditedInTheDatabaseIsNamed) {
  AttackAndEnd({});
  auto fork_seq = engine_->Fork({"s1", "main", 0, "alt", "dana", "why not"});
  ASSERT_TRUE(fork_seq.ok());
  EditRecord(std::string("b\0s1\0alt", 8), "why not", "why yes");  // b\0<session>\0<branch>
  auto rules = engine_->RulesetOf("s1");
  ASSERT_TRUE(rules.ok());
  auto r = VerifySession(engine_->log(), *rules, "s1", "", false, {});
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_FALSE(r->ok());
  EXPECT_EQ(r->mismatch->check, "records");
  EXPECT_EQ(r->mismatch->seq, *fork_seq + 1);
  EXPECT_NE(r->mismatch->summary.find("\"why yes\""), std::string::npos)
      << r->mismatch->summary;
  EXPECT_NE(r->mismatch->summary.find("\"why not\""), std::string::npos)
      << r->mismatch->summary;
}

TEST_F(VerifyRecordsTest, ABundleWithAnotherForkAuthorIsRefused) {
  AttackAndEnd({});
  ASSERT_TRUE(engine_->Fork({"s1", "main", 0, "alt", "dana", "why not"}).ok());
  auto bundle = ReadSession(engine_->log(), "s1", false);
  ASSERT_TRUE(bundle.ok()) << bundle.status();
  auto rules = engine_->RulesetOf("s1");
  ASSERT_TRUE(rules.ok());
  auto clean = VerifyBundle(*bundle, *rules);
  ASSERT_TRUE(clean.ok() && clean->ok());
  bool edited = false;
  for (BundleBranch& b : bundle->branches) {
    if (b.meta.branch == "alt") {
      b.meta.author = "mallory";
      edited = true;
    }
  }
  ASSERT_TRUE(edited);
  auto r = VerifyBundle(*bundle, *rules);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_FALSE(r->ok());
  EXPECT_EQ(r->mismatch->check, "records");
  EXPECT_NE(r->mismatch->summary.find("mallory"), std::string::npos)
      << r->mismatch->summary;
}

}  // namespace
}  // namespace combat::replay
