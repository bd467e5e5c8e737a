// Logs written with schema version 5 still open, replay and verify in this
// build (schema version 6; events/FORMAT.md, "Version 6"). The fixtures in
// tests/fixtures/schema_v5/ were exported, with their dice secret, by the
// `combat` tool of commit 44bc3ec (schema version 5, d20_three_action v2
// and energy_rounds v2) after playing the bundled examples, a fork
// (d20_ambush, "alt" at #60, inside a command) and a what-if
// (energy_skirmish, "miss": die of #95 set to 10). Their rulesets are
// older than this build's (d20_three_action and energy_rounds are version 3:
// the fidelity pass and the verb schemas decide differently), so their
// declarations are not re-decided (verify says so in a note) while chain,
// reducer and state hashes of every event are checked; their forks keep
// their records in the store (no BranchForked event before schema 6), and
// verify says so in a note. A fork made now of a v5 session keeps the
// same convention: a v6 event never enters a v5 log.
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernel/ruleset.h"
#include "replay/bundle.h"
#include "replay/engine.h"
#include "replay/verify.h"
#include "tests/testing/temp_dir.h"

namespace combat {
namespace {

std::vector<uint8_t> ReadFixture(const std::string& name) {
  std::ifstream in("tests/fixtures/schema_v5/" + name, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

bool NotesStoreFork(const replay::VerifyReport& r, const std::string& branch) {
  for (const std::string& n : r.notes) {
    if (n.find("branch " + branch + ": its fork record") != std::string::npos &&
        n.find("not a chained event (schema 5 session") != std::string::npos) {
      return true;
    }
  }
  return false;
}

class SchemaV5LogTest : public ::testing::TestWithParam<std::string> {};

TEST_P(SchemaV5LogTest, OpensReplaysVerifiesAndForks) {
  const std::vector<uint8_t> bytes = ReadFixture(GetParam() + ".cmbb");
  ASSERT_FALSE(bytes.empty()) << GetParam();
  auto bundle = replay::DecodeBundle(bytes);
  ASSERT_TRUE(bundle.ok()) << bundle.status();
  EXPECT_EQ(bundle->schema_version, 5);
  const kernel::Ruleset* rules = kernel::FindRuleset(bundle->meta.ruleset);
  ASSERT_NE(rules, nullptr);
  EXPECT_EQ(bundle->meta.ruleset_version, 2);
  ASSERT_NE(rules->version(), bundle->meta.ruleset_version);

  combat::testing::TempDir dir("schema_v5");
  auto engine = replay::Engine::Open(dir.db());
  ASSERT_TRUE(engine.ok()) << engine.status();
  // As `combat import` does: re-decision only with the recorded version.
  auto imported = replay::ImportBundle((*engine)->log(), *bundle, nullptr);
  ASSERT_TRUE(imported.ok()) << imported.status();
  ASSERT_TRUE(imported->imported) << replay::RenderVerifyReport(imported->verify);
  EXPECT_GT(imported->verify.events, 180u);
  EXPECT_EQ(imported->verify.commands_redecided, 0u);

  auto again = replay::VerifySession((*engine)->log(), nullptr, GetParam(), "",
                                     /*checksums=*/true, {});
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_TRUE(again->ok()) << replay::RenderVerifyReport(*again);
  EXPECT_EQ(again->branches.size(), 2u);
  std::string forked;
  for (const auto& branch : bundle->branches) {
    auto head = (*engine)->StateAt(GetParam(), branch.meta.branch, 0);
    ASSERT_TRUE(head.ok()) << branch.meta.branch << ": " << head.status();
    EXPECT_EQ(head->schema_version, 5);
    EXPECT_EQ(head->seq, branch.head.seq) << branch.meta.branch;
    if (!branch.meta.parent.empty()) forked = branch.meta.branch;
  }
  ASSERT_FALSE(forked.empty());
  EXPECT_TRUE(NotesStoreFork(*again, forked)) << replay::RenderVerifyReport(*again);

  // status shows the table of an older-version session, but tries no acts
  // (they would be decided by this build's rules, not the session's).
  auto st = (*engine)->Status(GetParam(), "main", "");
  ASSERT_TRUE(st.ok()) << st.status();
  EXPECT_FALSE(st->combatants.empty());
  EXPECT_NE(st->note.find("recorded with " + bundle->meta.ruleset + " version 2"),
            std::string::npos)
      << st->note;
  EXPECT_TRUE(st->legal.empty());

  // A fork made by this build of a v5 session: no v6 event in a v5 log.
  auto at = (*engine)->Fork({GetParam(), "main", 50, "now", "dana", "later"});
  ASSERT_TRUE(at.ok()) << at.status();
  auto head = (*engine)->log().GetHead(GetParam(), "now");
  ASSERT_TRUE(head.ok());
  EXPECT_EQ(head->seq, 50u);
  auto v = replay::VerifySession((*engine)->log(), nullptr, GetParam(), "now", false, {});
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_TRUE(v->ok()) << replay::RenderVerifyReport(*v);
  EXPECT_TRUE(NotesStoreFork(*v, "now")) << replay::RenderVerifyReport(*v);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, SchemaV5LogTest,
                         ::testing::Values("d20_ambush", "energy_skirmish"));

}  // namespace
}  // namespace combat
