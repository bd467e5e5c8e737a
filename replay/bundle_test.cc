// Export / import between two real databases: the import verifies and
// reproduces every branch; a hand-edited event in the export is refused
// with the event named and nothing written; the transcript labels dice.
#include "replay/bundle.h"

#include <filesystem>

#include "gtest/gtest.h"
#include "kernel/state_codec.h"
#include "replay/testing/fixture.h"
#include "replay/transcript.h"
#include "replay/whatif.h"

namespace combat::replay {
namespace {

using testing::ToyCmd;

class BundleTest : public testing::ToyFixture {
 protected:
  void SetUp() override {
    ToyFixture::SetUp();
    const std::string x = Active(), y = Other(x);
    Do(ToyCmd("c1", x, "attack", {y}, {15, 6}));
    Do(ToyCmd("c2", x, "attack", {y}));  // seeded
    Do(ToyCmd("c3", x, "end_turn"));
    fb::CommandT gm = ToyCmd("g1", "", "gm_note");
    gm.role = fb::Role::GM;
    gm.author = "dana";
    gm.text = "needle-ruling";
    auto p = std::make_unique<fb::ParamT>();
    p->key = "kind";
    p->text = "note";
    gm.params.push_back(std::move(p));
    Do(gm);
    ASSERT_TRUE(engine_->Fork({"s1", "main", HeadOf() - 2, "alt", "dana", "try"}).ok());
    Do(ToyCmd("a1", Active("alt"), "end_turn"), "alt");
    other_db_ = dir_ + "/other";
  }

  std::unique_ptr<Engine> OtherDb() {
    auto e = Engine::Open(other_db_);
    EXPECT_TRUE(e.ok()) << e.status();
    return e.ok() ? *std::move(e) : nullptr;
  }

  std::vector<uint8_t> Export(bool with_secret = false) {
    auto b = ReadSession(engine_->log(), "s1", with_secret);
    EXPECT_TRUE(b.ok()) << b.status();
    return EncodeBundle(*b);
  }

  std::string other_db_;
};

// Imported command markers are bound to their content like appended ones:
// retrying a command after the import is the duplicate, reusing its id for
// another command a conflict; the set-up and fork record ids are bound too.
TEST_F(BundleTest, ImportedCommandIdsKeepTheirContent) {
  const std::vector<uint8_t> bytes = Export(/*with_secret=*/true);
  auto bundle = DecodeBundle(bytes);
  ASSERT_TRUE(bundle.ok()) << bundle.status();
  auto other = OtherDb();
  auto r = ImportBundle(other->log(), *bundle, &testing::Toy());
  ASSERT_TRUE(r.ok() && r->imported) << r.status();
  // c1 as it was asked (the declaration records it).
  auto marker = engine_->log().FindCommand("s1", "main", "c1");
  ASSERT_TRUE(marker.ok() && marker->has_value());
  auto c1 = engine_->Events("s1", "main", (*marker)->first_seq, (*marker)->first_seq);
  ASSERT_TRUE(c1.ok() && c1->size() == 1u);
  fb::CommandT asked;
  c1->front().event().body_as_Declaration()->command()->UnPackTo(&asked);
  const std::string x = asked.actor;
  auto again = other->Submit("s1", "main", asked);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_TRUE(again->duplicate);
  auto reused = other->Submit("s1", "main", ToyCmd("c1", x, "end_turn"));
  EXPECT_EQ(reused.status().code(), absl::StatusCode::kAlreadyExists) << reused.status();
  auto setup = other->Submit("s1", "main", ToyCmd("setup", x, "end_turn"));
  EXPECT_EQ(setup.status().code(), absl::StatusCode::kAlreadyExists) << setup.status();
  auto fork = other->Submit("s1", "alt", ToyCmd("fork", Active("alt"), "end_turn"));
  EXPECT_EQ(fork.status().code(), absl::StatusCode::kAlreadyExists) << fork.status();
}

TEST_F(BundleTest, ExportThenImportElsewhereReproducesEveryBranch) {
  const std::vector<uint8_t> bytes = Export();
  auto bundle = DecodeBundle(bytes);
  ASSERT_TRUE(bundle.ok()) << bundle.status();
  ASSERT_EQ(bundle->branches.size(), 2u);
  EXPECT_TRUE(bundle->secret.empty());
  auto other = OtherDb();
  auto r = ImportBundle(other->log(), *bundle, &testing::Toy());
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->imported) << RenderVerifyReport(r->verify);
  EXPECT_GT(r->verify.commands_redecided, 4u);
  for (const std::string b : {"main", "alt"}) {
    auto there = other->StateAt("s1", b);
    ASSERT_TRUE(there.ok()) << there.status();
    EXPECT_EQ(kernel::EncodeState(*there), kernel::EncodeState(StateOf(b))) << b;
  }
  auto meta = other->log().GetBranch("s1", "alt");
  ASSERT_TRUE(meta.ok());
  EXPECT_EQ(meta->author, "dana");
  EXPECT_EQ(meta->reason, "try");
  auto v = VerifySession(other->log(), &testing::Toy(), "s1", "", true, {});
  ASSERT_TRUE(v.ok());
  EXPECT_TRUE(v->ok()) << RenderVerifyReport(*v);
  // Importing again is refused: the session exists.
  EXPECT_EQ(ImportBundle(other->log(), *bundle, &testing::Toy()).status().code(),
            absl::StatusCode::kAlreadyExists);
  // Without the secret the imported session cannot roll seeded dice...
  const std::string x = other->StateAt("s1", "main")->active;
  fb::CommandT cmd = ToyCmd("new1", x, "attack", {x == "a" ? "b" : "a"});
  auto refused = other->Submit("s1", "main", cmd);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition)
      << refused.status();
  EXPECT_NE(refused.status().message().find("no dice secret"), std::string::npos);
  // ...but physical dice still work.
  cmd.dice = {3};
  EXPECT_TRUE(other->Submit("s1", "main", cmd).ok());
}

TEST_F(BundleTest, AHandEditedEventInTheExportIsRefusedAndNamed) {
  std::vector<uint8_t> bytes = Export();
  const std::string needle = "needle-ruling";
  auto it = std::search(bytes.begin(), bytes.end(), needle.begin(), needle.end());
  ASSERT_NE(it, bytes.end());
  it[0] = 'N';  // same length: the bytes stay well formed
  auto bundle = DecodeBundle(bytes);
  ASSERT_TRUE(bundle.ok()) << bundle.status();
  // Which event carries the edit?
  uint64_t edited = 0;
  const std::string changed = "Needle-ruling";
  for (const auto& e : bundle->Find("main")->own) {
    const auto& b = e.bytes();
    if (std::search(b.begin(), b.end(), changed.begin(), changed.end()) != b.end()) {
      edited = e.event().seq();
    }
  }
  ASSERT_NE(edited, 0u);
  auto other = OtherDb();
  auto r = ImportBundle(other->log(), *bundle, &testing::Toy());
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_FALSE(r->imported);
  ASSERT_FALSE(r->verify.ok());
  EXPECT_EQ(r->verify.mismatch->seq, edited) << RenderVerifyReport(r->verify);
  EXPECT_NE(RenderVerifyReport(r->verify).find("event #" + std::to_string(edited)),
            std::string::npos);
  EXPECT_EQ(other->log().GetSession("s1").status().code(), absl::StatusCode::kNotFound)
      << "nothing is written";
}

TEST_F(BundleTest, MalformedBundlesAreRefused) {
  std::vector<uint8_t> bytes = Export();
  std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + bytes.size() / 2);
  EXPECT_FALSE(DecodeBundle(cut).ok());
  std::vector<uint8_t> junk = {1, 2, 3};
  EXPECT_EQ(DecodeBundle(junk).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(BundleTest, WithTheSecretTheSessionLivesOn) {
  auto bundle = DecodeBundle(Export(/*with_secret=*/true));
  ASSERT_TRUE(bundle.ok());
  EXPECT_EQ(bundle->secret, testing::FixtureSecret());
  auto other = OtherDb();
  auto r = ImportBundle(other->log(), *bundle, &testing::Toy());
  ASSERT_TRUE(r.ok() && r->imported);
  const std::string x = other->StateAt("s1", "main")->active;
  EXPECT_TRUE(other->Submit("s1", "main", ToyCmd("n1", x, "attack", {x == "a" ? "b" : "a"})).ok());
}

TEST_F(BundleTest, Transcript) {
  auto bundle = DecodeBundle(Export());
  ASSERT_TRUE(bundle.ok());
  auto t = RenderTranscript(*bundle);
  ASSERT_TRUE(t.ok()) << t.status();
  for (const std::string& want :
       {std::string("Transcript of session s1"), std::string("ruleset toy v1"),
        std::string("(manual)"), std::string("(seeded)"),
        std::string("alt  forked from main at #"), std::string("== alt (events 1.."),
        std::string("needle-ruling"), std::string("-- state at the head of alt --"),
        std::string("dice seed: not revealed")}) {
    EXPECT_NE(t->find(want), std::string::npos) << "missing " << want << "\n" << *t;
  }
}

}  // namespace
}  // namespace combat::replay
