// Logs written before schema version 5 still open, replay and verify
// (events/FORMAT.md, "Evolution policy"). The fixtures in
// tests/fixtures/schema_v4/ were exported, with their dice secret, by the
// `combat` tool of commit 39e7166 (schema version 4, d20_three_action v1
// and energy_rounds v1) after playing the bundled examples, a fork
// (d20_ambush, "alt" at #60) and a what-if (energy_skirmish, "miss" at
// #100). This build imports each into a fresh RocksDB (which verifies every
// branch: chain, reducer, state hashes, seeded dice), verifies again from
// the database, and replays every branch to its head. Their declarations
// are not re-decided: this build's rulesets are version 2, and verify says
// so in a note.
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernel/ruleset.h"
#include "kernel/state_codec.h"
#include "replay/bundle.h"
#include "replay/engine.h"
#include "replay/verify.h"
#include "tests/testing/temp_dir.h"

namespace combat {
namespace {

std::vector<uint8_t> ReadFixture(const std::string& name) {
  std::ifstream in("tests/fixtures/schema_v4/" + name, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

class SchemaV4LogTest : public ::testing::TestWithParam<std::string> {};

TEST_P(SchemaV4LogTest, OpensReplaysAndVerifies) {
  const std::vector<uint8_t> bytes = ReadFixture(GetParam() + ".cmbb");
  ASSERT_FALSE(bytes.empty()) << GetParam();
  auto bundle = replay::DecodeBundle(bytes);
  ASSERT_TRUE(bundle.ok()) << bundle.status();
  EXPECT_EQ(bundle->schema_version, 4);
  EXPECT_EQ(bundle->meta.ruleset_version, 1);
  const kernel::Ruleset* rules = kernel::FindRuleset(bundle->meta.ruleset);
  ASSERT_NE(rules, nullptr);
  ASSERT_NE(rules->version(), bundle->meta.ruleset_version);

  combat::testing::TempDir dir("schema_v4");
  auto engine = replay::Engine::Open(dir.db());
  ASSERT_TRUE(engine.ok()) << engine.status();
  // As `combat import` does: re-decision only with the recorded version.
  auto imported = replay::ImportBundle((*engine)->log(), *bundle, nullptr);
  ASSERT_TRUE(imported.ok()) << imported.status();
  ASSERT_TRUE(imported->imported) << replay::RenderVerifyReport(imported->verify);
  // Chain, reducer and state hashes of every event were checked.
  EXPECT_GT(imported->verify.events, 180u);

  replay::VerifyOptions options;
  auto again = replay::VerifySession((*engine)->log(), nullptr, GetParam(), "",
                                     /*checksums=*/true, options);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_TRUE(again->ok()) << replay::RenderVerifyReport(*again);
  EXPECT_EQ(again->branches.size(), 2u);

  for (const auto& branch : bundle->branches) {
    auto head = (*engine)->StateAt(GetParam(), branch.meta.branch, 0);
    ASSERT_TRUE(head.ok()) << branch.meta.branch << ": " << head.status();
    EXPECT_EQ(head->schema_version, 4);
    EXPECT_TRUE(head->pending.empty());  // v4 logs hold no typed pending acts
    EXPECT_EQ(head->seq, branch.head.seq) << branch.meta.branch;
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, SchemaV4LogTest,
                         ::testing::Values("d20_ambush", "energy_skirmish"));

}  // namespace
}  // namespace combat
