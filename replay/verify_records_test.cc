// Everything shown as part of a session comes from chained events (issue
// 11, item 5): a stored or bundled title that disagrees with
// SessionStarted.title is refused by verify and import, naming the field.
#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "replay/bundle.h"
#include "replay/testing/fixture.h"
#include "replay/verify.h"
#include "rocksdb/db.h"

namespace combat::replay {
namespace {

class VerifyRecordsTest : public testing::ToyFixture {};

TEST_F(VerifyRecordsTest, ATitleEditedInTheDatabaseIsNamed) {
  AttackAndEnd({});
  Close();
  {
    rocksdb::DB* raw = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(rocksdb::Options(), db_, &raw).ok());
    std::unique_ptr<rocksdb::DB> db(raw);
    const std::string key("s\0s1", 4);  // store/keys.h: s\0<session>
    std::string value;
    ASSERT_TRUE(db->Get(rocksdb::ReadOptions(), key, &value).ok());
    const size_t at = value.find("toy fight");
    ASSERT_NE(at, std::string::npos);
    value.replace(at, 9, "toy feast");  // same length: a well-formed record
    ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), key, value).ok());
  }
  Reopen();
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

TEST_F(VerifyRecordsTest, AForkSaysItsRecordIsNotChained) {
  AttackAndEnd({});
  ASSERT_TRUE(engine_->Fork({"s1", "main", 0, "alt", "dana", "why not"}).ok());
  auto rules = engine_->RulesetOf("s1");
  ASSERT_TRUE(rules.ok());
  auto r = VerifySession(engine_->log(), *rules, "s1", "", false, {});
  ASSERT_TRUE(r.ok() && r->ok());
  bool noted = false;
  for (const std::string& n : r->notes) {
    noted |= n.find("branch alt: its fork record") != std::string::npos;
  }
  EXPECT_TRUE(noted) << RenderVerifyReport(*r);
}

}  // namespace
}  // namespace combat::replay
