// Logs written with schema version 6 still open, replay and verify in this
// build (schema version 7; events/FORMAT.md, "Version 7"). The fixtures in
// tests/fixtures/schema_v6/ were exported, with their dice secret, by the
// `combat` tool of commit 8217acd (schema 6; d20_three_action and
// energy_rounds v3, wound_slots, opposed_tests and ap_rp v2) after playing
// the five bundled examples, a fork ("alt" at #60, with its BranchForked
// record in the chain) and a what-if ("what": one die changed). Their
// rulesets are older than this build's (schema 7 moved every ruleset on:
// modifiers name their sources), so their declarations are not re-decided
// (verify says so in a note) while chain, reducer, state hashes and dice of
// every event are checked. A command submitted to them now is refused
// (another version's rules), and a fork of them is a v6-style fork.
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
  std::ifstream in("tests/fixtures/schema_v6/" + name, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

class SchemaV6LogTest : public ::testing::TestWithParam<std::string> {};

TEST_P(SchemaV6LogTest, OpensReplaysVerifiesAndForks) {
  const std::vector<uint8_t> bytes = ReadFixture(GetParam() + ".cmbb");
  ASSERT_FALSE(bytes.empty()) << GetParam();
  auto bundle = replay::DecodeBundle(bytes);
  ASSERT_TRUE(bundle.ok()) << bundle.status();
  EXPECT_EQ(bundle->schema_version, 6);
  const kernel::Ruleset* rules = kernel::FindRuleset(bundle->meta.ruleset);
  ASSERT_NE(rules, nullptr);
  ASSERT_LT(bundle->meta.ruleset_version, rules->version());

  combat::testing::TempDir dir("schema_v6");
  auto engine = replay::Engine::Open(dir.db());
  ASSERT_TRUE(engine.ok()) << engine.status();
  auto imported = replay::ImportBundle((*engine)->log(), *bundle, nullptr);
  ASSERT_TRUE(imported.ok()) << imported.status();
  ASSERT_TRUE(imported->imported) << replay::RenderVerifyReport(imported->verify);
  EXPECT_GT(imported->verify.events, 140u);
  EXPECT_EQ(imported->verify.commands_redecided, 0u);

  auto again = replay::VerifySession((*engine)->log(), nullptr, GetParam(), "",
                                     /*checksums=*/true, {});
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_TRUE(again->ok()) << replay::RenderVerifyReport(*again);
  EXPECT_EQ(again->branches.size(), 3u);
  for (const auto& branch : bundle->branches) {
    auto head = (*engine)->StateAt(GetParam(), branch.meta.branch, 0);
    ASSERT_TRUE(head.ok()) << branch.meta.branch << ": " << head.status();
    EXPECT_EQ(head->schema_version, 6);
    EXPECT_EQ(head->seq, branch.head.seq) << branch.meta.branch;
  }

  // Another version's rules decide no new command of the session.
  fb::CommandT c;
  c.action = "gm_note";
  c.role = fb::Role::GM;
  c.text = "later";
  auto submitted = (*engine)->Submit(GetParam(), "main", c);
  EXPECT_FALSE(submitted.ok());

  // A fork made by this build of a v6 session carries its record (schema 6
  // has BranchForked) and verifies.
  auto at = (*engine)->Fork({GetParam(), "main", 50, "now", "dana", "later"});
  ASSERT_TRUE(at.ok()) << at.status();
  auto head = (*engine)->log().GetHead(GetParam(), "now");
  ASSERT_TRUE(head.ok());
  EXPECT_EQ(head->seq, 51u);
  auto v = replay::VerifySession((*engine)->log(), nullptr, GetParam(), "now", false, {});
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_TRUE(v->ok()) << replay::RenderVerifyReport(*v);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, SchemaV6LogTest,
                         ::testing::Values("d20_ambush", "energy_skirmish",
                                           "wound_slots_bell", "opposed_duel",
                                           "ap_rp_ambush"));

}  // namespace
}  // namespace combat
