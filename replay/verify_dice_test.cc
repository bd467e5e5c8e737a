// Dice nobody can predict or choose (issue 11, item 7): seeded dice mix the
// branch and the acting side's contribution (recorded on every Roll), and
// verify checks the stored secret against the commitment on every run.
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernel/dice/source.h"
#include "replay/testing/fixture.h"
#include "replay/testing/toy.h"
#include "replay/verify.h"
#include "rocksdb/db.h"

namespace combat::replay {
namespace {

using testing::ToyCmd;

class VerifyDiceTest : public testing::ToyFixture {
 protected:
  VerifyReport Verify() {
    auto rules = engine_->RulesetOf("s1");
    EXPECT_TRUE(rules.ok());
    auto r = VerifySession(engine_->log(), *rules, "s1", "", true, {});
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? *r : VerifyReport();
  }

  using Seeded = testing::SeededDie;  // replay/testing/fixture.h
  static std::vector<Seeded> SeededOf(const std::vector<events::EventBuffer>& evs) {
    return testing::SeededOf(evs);
  }

  void Reveal() {
    fb::CommandT reveal = ToyCmd("", "", "gm_reveal");
    reveal.role = fb::Role::GM;
    reveal.author = "dana";
    reveal.text = "end of session";
    auto p = std::make_unique<fb::ParamT>();
    p->key = "secret";
    p->text = testing::FixtureSecretHex();
    reveal.params.push_back(std::move(p));
    Do(reveal);
  }
};

TEST_F(VerifyDiceTest, EverySeededDieMixesItsBranchAndContribution) {
  const std::string me = Active();
  fb::CommandT chosen = ToyCmd("c1", me, "attack", {Other(me)});
  chosen.contribution = "player-picked-after-the-commitment";
  const std::vector<Seeded> dice = SeededOf(Do(chosen));
  ASSERT_FALSE(dice.empty());
  for (const Seeded& d : dice) {
    EXPECT_EQ(d.contribution, "player-picked-after-the-commitment");
    EXPECT_EQ(d.branch, "main");
    kernel::dice::RollContext ctx{5, d.branch, d.contribution};
    EXPECT_EQ(d.value, kernel::dice::SeededDice::Value(
                           testing::FixtureSecret(), "s1", ctx, d.index, d.faces));
  }
  // Absent, the command id is the contribution.
  Do(ToyCmd("", me, "end_turn"));
  const std::string next = Active();
  for (const Seeded& d : SeededOf(Do(ToyCmd("c3", next, "attack", {me})))) {
    EXPECT_EQ(d.contribution, "c3");
  }
}

TEST_F(VerifyDiceTest, AForkRollsOtherDiceThanItsParent) {
  const uint64_t at = HeadOf();
  ASSERT_TRUE(engine_->Fork({"s1", "main", at, "alt", "dana", "test"}).ok());
  const std::string me = Active();
  // The same command, id and contribution at the same roll index on both.
  std::vector<int> main_values, alt_values;
  for (int i = 0; i < 3; ++i) {
    const std::string who = Active("main");
    const std::string id = "same-" + std::to_string(i);
    for (const Seeded& d : SeededOf(Do(ToyCmd(id, who, "attack", {Other(who)}), "main"))) {
      main_values.push_back(d.value);
    }
    for (const Seeded& d : SeededOf(Do(ToyCmd(id, who, "attack", {Other(who)}), "alt"))) {
      alt_values.push_back(d.value);
    }
    Do(ToyCmd("end-" + std::to_string(i), who, "end_turn"), "main");
    Do(ToyCmd("end-" + std::to_string(i), who, "end_turn"), "alt");
  }
  ASSERT_FALSE(main_values.empty());
  EXPECT_NE(main_values, alt_values) << "a fork repeats its parent's dice";
  (void)me;
  Reveal();
  const VerifyReport r = Verify();
  EXPECT_TRUE(r.ok()) << RenderVerifyReport(r);
  EXPECT_TRUE(r.seed_known);
  EXPECT_GE(r.seeded_dice_checked, main_values.size() + alt_values.size());
}

TEST_F(VerifyDiceTest, AnOverwrittenStoredSecretIsCaughtOnEveryRun) {
  AttackAndEnd({});
  ASSERT_TRUE(Verify().ok());
  Close();
  {
    rocksdb::DB* raw = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(rocksdb::Options(), db_, &raw).ok());
    std::unique_ptr<rocksdb::DB> db(raw);
    const std::string attacker(32, '\x42');
    ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), std::string("k\0s1", 4) /* store/keys.h: k\0<session> */,
                        attacker).ok());
  }
  Reopen();
  const VerifyReport r = Verify();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.mismatch->check, "dice secret");
  EXPECT_NE(r.mismatch->summary.find("dice_commitment"), std::string::npos)
      << r.mismatch->summary;
}

// Issue 16: physical dice are all or nothing. A command that gives some
// and rolls more is refused, nothing written, unless it asks for digital
// dice for the rest (param digital_rest).
TEST_F(VerifyDiceTest, TooFewPhysicalDiceAreRefusedUnlessTheRestIsDigital) {
  const std::string me = Active();
  const uint64_t head = HeadOf();
  fb::CommandT hit = ToyCmd("few", me, "attack", {Other(me)}, {19});  // a hit: d6 next
  auto refused = engine_->Submit("s1", "main", hit);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument) << refused.status();
  EXPECT_NE(refused.status().message().find(
                "field 'dice': 1 physical dice given but the command rolled 2"),
            std::string::npos)
      << refused.status();
  EXPECT_EQ(HeadOf(), head);
  auto p = std::make_unique<fb::ParamT>();
  p->key = "digital_rest";
  p->value = 1;
  hit.params.push_back(std::move(p));
  auto rolled = engine_->Submit("s1", "main", hit);
  ASSERT_TRUE(rolled.ok()) << rolled.status();
  std::vector<fb::Provenance> provenance;
  for (const events::EventBuffer& e : rolled->events) {
    if (e.event().body_type() != fb::Body::Roll) continue;
    for (const fb::Die* d : *e.event().body_as_Roll()->dice()) {
      provenance.push_back(d->provenance());
    }
  }
  EXPECT_EQ(provenance, (std::vector<fb::Provenance>{fb::Provenance::Manual,
                                                      fb::Provenance::Seeded}));
  EXPECT_TRUE(Verify().ok());
}

}  // namespace
}  // namespace combat::replay
