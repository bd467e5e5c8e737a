// Issue 16: a reveal mid-session commits a fresh secret for the rest of the
// session (SeedRevealed.next_commitment), so later seeded dice stay
// unpredictable; verify checks each die against the secret of its epoch; a
// branch forked before the reveal warns; export/import carry the secrets.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "events/hash.h"
#include "gtest/gtest.h"
#include "kernel/authority.h"
#include "kernel/dice/source.h"
#include "kernel/session.h"
#include "replay/bundle.h"
#include "replay/dice_epoch.h"
#include "replay/testing/fixture.h"
#include "replay/testing/toy.h"
#include "replay/transcript.h"
#include "replay/verify.h"
#include "rocksdb/db.h"

namespace combat::replay {
namespace {

using testing::ToyCmd;

class RevealEpochTest : public testing::ToyFixture {
 protected:
  // Dice after a reveal follow a fresh random secret: hit points enough
  // that no attack of a test fells anyone, whatever they roll.
  void SetUp() override {
    testing::ToyFixture::SetUp();
    for (const char* who : {"a", "b"}) {
      fb::CommandT tough = ToyCmd("", who, "gm_set");
      tough.role = fb::Role::GM;
      tough.author = "dana";
      tough.text = "tough enough for the test";
      auto resource = std::make_unique<fb::ParamT>();
      resource->key = "resource";
      resource->text = "hp";
      tough.params.push_back(std::move(resource));
      auto value = std::make_unique<fb::ParamT>();
      value->key = "value";
      value->value = 1000;
      tough.params.push_back(std::move(value));
      Do(tough);
    }
  }

  VerifyReport Verify() {
    auto rules = engine_->RulesetOf("s1");
    EXPECT_TRUE(rules.ok());
    auto r = VerifySession(engine_->log(), *rules, "s1", "", true, {});
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? *r : VerifyReport();
  }

  // A gm_reveal of `secret` on `branch` through the engine (which adds the
  // next commitment before the end).
  absl::StatusOr<SubmitResult> Reveal(const std::vector<uint8_t>& secret,
                                      const std::string& branch = "main",
                                      const std::string& id = "") {
    fb::CommandT reveal = ToyCmd(id.empty() ? absl::StrCat("reveal-", next_id_++) : id,
                                 "", "gm_reveal");
    reveal.role = fb::Role::GM;
    reveal.author = "dana";
    reveal.text = "mid-session";
    auto p = std::make_unique<fb::ParamT>();
    p->key = "secret";
    p->text = events::Hex(secret);
    reveal.params.push_back(std::move(p));
    return engine_->Submit("s1", branch, reveal);
  }

  static const fb::SeedRevealed* RevealedIn(const std::vector<events::EventBuffer>& evs) {
    for (const events::EventBuffer& b : evs) {
      const fb::StateChange* sc = b.event().body_as_StateChange();
      if (sc != nullptr && sc->change_as_SeedRevealed() != nullptr) {
        return sc->change_as_SeedRevealed();
      }
    }
    return nullptr;
  }

  using Seeded = testing::SeededDie;  // replay/testing/fixture.h
  static std::vector<Seeded> SeededOf(const std::vector<events::EventBuffer>& evs) {
    return testing::SeededOf(evs);
  }

  // Seeded dice of several attacks on `branch`.
  std::vector<Seeded> Attacks(int n, const std::string& branch = "main") {
    std::vector<Seeded> all;
    for (int i = 0; i < n; ++i) {
      const std::string me = Active(branch);
      for (Seeded& d : SeededOf(Do(ToyCmd("", me, "attack", {Other(me)}), branch))) {
        all.push_back(std::move(d));
      }
      Do(ToyCmd("", me, "end_turn"), branch);
    }
    return all;
  }

  int ValueWith(const std::vector<uint8_t>& secret, const Seeded& d) {
    kernel::dice::RollContext ctx{StateOf().schema_version, d.branch, d.contribution};
    return kernel::dice::SeededDice::Value(secret, "s1", ctx, d.index, d.faces);
  }

  // The fresh secret the store holds for the commitment in force on `branch`.
  std::vector<uint8_t> SecretInForceOn(const std::string& branch = "main") {
    auto s = SecretInForce(engine_->log(), "s1", StateOf(branch));
    EXPECT_TRUE(s.ok()) << s.status();
    return s.ok() ? *s : std::vector<uint8_t>();
  }

  void End(const std::string& branch = "main") {
    fb::CommandT end = ToyCmd("", "", "gm_end");
    end.role = fb::Role::GM;
    end.author = "dana";
    end.text = "the fight is over";
    Do(end, branch);
  }
};

TEST_F(RevealEpochTest, ARevealMidSessionCommitsAFreshSecretForTheLaterDice) {
  const std::vector<uint8_t> old = testing::FixtureSecret();
  const std::vector<uint8_t> old_commitment = StateOf().dice_commitment;
  Attacks(1);
  auto revealed = Reveal(old);
  ASSERT_TRUE(revealed.ok()) << revealed.status();
  const fb::SeedRevealed* ev = RevealedIn(revealed->events);
  ASSERT_NE(ev, nullptr);
  ASSERT_NE(ev->next_commitment(), nullptr);
  const std::vector<uint8_t> next(ev->next_commitment()->begin(), ev->next_commitment()->end());
  EXPECT_EQ(next.size(), 32u);
  EXPECT_NE(next, old_commitment);
  EXPECT_EQ(StateOf().dice_commitment, next) << "the commitment in force moved on";
  // The store holds the fresh secret, keyed by the commitment the event names.
  const std::vector<uint8_t> fresh = SecretInForceOn();
  ASSERT_EQ(fresh.size(), 32u);
  EXPECT_EQ(kernel::dice::SeededDice::Commitment(fresh), next);
  EXPECT_NE(fresh, old);

  // Later seeded dice follow the fresh secret, not the old one's formula.
  const std::vector<Seeded> later = Attacks(2);
  ASSERT_FALSE(later.empty());
  int like_old = 0;
  for (const Seeded& d : later) {
    EXPECT_EQ(d.value, ValueWith(fresh, d)) << "die index " << d.index;
    like_old += d.value == ValueWith(old, d) ? 1 : 0;
  }
  EXPECT_LT(like_old, static_cast<int>(later.size())) << "the old secret predicts them";
  VerifyReport r = Verify();
  EXPECT_TRUE(r.ok()) << RenderVerifyReport(r);
  EXPECT_TRUE(r.seed_known);
  EXPECT_GE(r.seeded_dice_checked, later.size() + 1);

  // At the end, the fresh secret is revealed in its turn; nothing new is
  // committed; verify checks the later dice against it.
  End();
  auto last = Reveal(fresh);
  ASSERT_TRUE(last.ok()) << last.status();
  const fb::SeedRevealed* end_ev = RevealedIn(last->events);
  ASSERT_NE(end_ev, nullptr);
  EXPECT_TRUE(end_ev->next_commitment() == nullptr || end_ev->next_commitment()->size() == 0);
  EXPECT_EQ(StateOf().dice_commitment, next);
  EXPECT_EQ(StateOf().revealed_seed, fresh);
  // Revealed twice over: refused.
  EXPECT_EQ(Reveal(fresh).status().code(), absl::StatusCode::kFailedPrecondition);
  VerifyReport after = Verify();
  EXPECT_TRUE(after.ok()) << RenderVerifyReport(after);
  EXPECT_GE(after.seeded_dice_checked, later.size() + 1);
}

TEST_F(RevealEpochTest, TheCallerCannotNameTheNextCommitmentAndARetryIsTheSameReveal) {
  fb::CommandT reveal = ToyCmd("r1", "", "gm_reveal");
  reveal.role = fb::Role::GM;
  reveal.author = "dana";
  reveal.text = "mid-session";
  for (const auto& [k, v] : {std::pair<std::string, std::string>{"secret", testing::FixtureSecretHex()},
                            {"next_commitment", std::string(64, 'a')}}) {
    auto p = std::make_unique<fb::ParamT>();
    p->key = k;
    p->text = v;
    reveal.params.push_back(std::move(p));
  }
  const uint64_t head = HeadOf();
  auto refused = engine_->Submit("s1", "main", reveal);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument) << refused.status();
  EXPECT_NE(refused.status().message().find("next_commitment"), std::string::npos);
  EXPECT_EQ(HeadOf(), head);
  auto first = Reveal(testing::FixtureSecret(), "main", "r2");
  ASSERT_TRUE(first.ok()) << first.status();
  const std::vector<uint8_t> fresh = SecretInForceOn();
  auto retry = Reveal(testing::FixtureSecret(), "main", "r2");
  ASSERT_TRUE(retry.ok()) << retry.status();
  EXPECT_TRUE(retry->duplicate);
  EXPECT_EQ(SecretInForceOn(), fresh) << "a retry draws no other secret";
  // An id another command took is a conflict, not a retry.
  Do(ToyCmd("taken", Active(), "end_turn"));
  EXPECT_EQ(Reveal(fresh, "main", "taken").status().code(), absl::StatusCode::kAlreadyExists);
}

// A die rolled after the reveal with the OLD secret (a crafted log: the
// command decided with the old secret's dice and appended as the engine
// would) fails verify. A d20 of the old secret shows what the fresh one
// gives one time in twenty, and such a log is a true one: those commands
// are appended as they are and the next one is crafted, until a die differs.
TEST_F(RevealEpochTest, ADieRolledWithTheOldSecretAfterTheRevealFailsVerify) {
  ASSERT_TRUE(Reveal(testing::FixtureSecret()).ok());
  ASSERT_TRUE(Verify().ok());
  auto rules = engine_->RulesetOf("s1");
  ASSERT_TRUE(rules.ok());
  const std::vector<uint8_t> fresh_secret = SecretInForceOn();
  uint64_t first_crafted = 0;
  for (int attempt = 0; attempt < 20; ++attempt) {
    kernel::State state = StateOf();
    auto head = engine_->log().GetHead("s1", "main");
    ASSERT_TRUE(head.ok());
    fb::CommandT cmd = ToyCmd(absl::StrCat("crafted", attempt), state.active, "attack",
                              {Other(state.active)});
    kernel::AssignAuthority(state, cmd);
    kernel::Envelope env;
    env.branch = "main";
    env.prev_hash = head->hash;
    const kernel::PrefixScan prefix = engine_->BranchScan("s1", "main");
    kernel::dice::SeededDice old(testing::FixtureSecret(), "s1");
    auto evs = kernel::DecideCommand(**rules, state, env, cmd, old, &prefix);
    ASSERT_TRUE(evs.ok()) << evs.status();
    kernel::dice::SeededDice fresh(fresh_secret, "s1");
    auto honest = kernel::DecideCommand(**rules, state, env, cmd, fresh, &prefix);
    ASSERT_TRUE(honest.ok()) << honest.status();
    ASSERT_FALSE(SeededOf(*evs).empty());
    ASSERT_TRUE(engine_->log().Append("s1", "main", head->seq, cmd.id, *evs).ok());
    const auto values = [](const std::vector<events::EventBuffer>& e) {
      std::vector<int> v;
      for (const Seeded& d : SeededOf(e)) v.push_back(d.value);
      return v;
    };
    if (values(*evs) != values(*honest)) {
      first_crafted = head->seq;
      break;
    }
  }
  ASSERT_GT(first_crafted, 0u) << "twenty commands rolled alike under both secrets";
  VerifyReport r = Verify();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.mismatch->check, "dice seed") << RenderVerifyReport(r);
  EXPECT_GT(r.mismatch->seq, first_crafted);
  EXPECT_NE(r.mismatch->summary.find("commitment in force"), std::string::npos)
      << r.mismatch->summary;
}

TEST_F(RevealEpochTest, AStoredFreshSecretSwappedForAnotherIsCaught) {
  ASSERT_TRUE(Reveal(testing::FixtureSecret()).ok());
  const std::vector<uint8_t> next = StateOf().dice_commitment;
  Attacks(1);
  ASSERT_TRUE(Verify().ok());
  Close();
  {
    rocksdb::DB* raw = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(rocksdb::Options(), db_, &raw).ok());
    std::unique_ptr<rocksdb::DB> db(raw);
    // store/keys.h: K\0<session>\0<hex commitment>; the old secret in it.
    const std::string key = std::string("K\0s1\0", 5) + events::Hex(next);
    const std::vector<uint8_t> old = testing::FixtureSecret();
    ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), key,
                        std::string(old.begin(), old.end())).ok());
  }
  Reopen();
  const VerifyReport r = Verify();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.mismatch->check, "dice secret");
  EXPECT_NE(r.mismatch->summary.find(events::Hex(next)), std::string::npos)
      << r.mismatch->summary;
}

TEST_F(RevealEpochTest, ABranchForkedBeforeTheRevealWarnsAndRevealsOnItsOwn) {
  Attacks(1);
  ASSERT_TRUE(engine_->Fork({"s1", "main", HeadOf(), "alt", "dana", "before the reveal"}).ok());
  EXPECT_TRUE(engine_->Status("s1", "alt")->warnings.empty());
  auto revealed = Reveal(testing::FixtureSecret());
  ASSERT_TRUE(revealed.ok());
  const uint64_t at = revealed->events.back().event().seq();
  const std::string want = absl::StrCat(
      "the dice secret of this branch was revealed on main at #", at,
      "; its seeded dice are predictable: reveal on this branch to commit a fresh one");
  auto alt = engine_->Status("s1", "alt");
  ASSERT_TRUE(alt.ok()) << alt.status();
  ASSERT_EQ(alt->warnings.size(), 1u);
  EXPECT_EQ(alt->warnings[0], want);
  EXPECT_NE(RenderStatus(*alt).find("warning: " + want), std::string::npos);
  EXPECT_TRUE(engine_->Status("s1", "main")->warnings.empty()) << "main has a fresh one";
  // Submit on alt says so too.
  const std::string me = Active("alt");
  auto acted = engine_->Submit("s1", "alt", ToyCmd("alt-1", me, "attack", {Other(me)}));
  ASSERT_TRUE(acted.ok()) << acted.status();
  ASSERT_EQ(acted->warnings.size(), 1u);
  EXPECT_EQ(acted->warnings[0], want);
  // A reveal on alt commits alt's own fresh secret; the warning goes.
  auto own = Reveal(testing::FixtureSecret(), "alt");
  ASSERT_TRUE(own.ok()) << own.status();
  EXPECT_TRUE(engine_->Status("s1", "alt")->warnings.empty());
  const std::vector<uint8_t> alt_fresh = SecretInForceOn("alt");
  const std::vector<uint8_t> main_fresh = SecretInForceOn("main");
  ASSERT_EQ(alt_fresh.size(), 32u);
  EXPECT_NE(alt_fresh, main_fresh);
  for (const Seeded& d : Attacks(2, "alt")) EXPECT_EQ(d.value, ValueWith(alt_fresh, d));
  VerifyReport r = Verify();
  EXPECT_TRUE(r.ok()) << RenderVerifyReport(r);
}

// Export with the secrets carries the later (unrevealed) one: the imported
// session goes on rolling the same dice. Without them it still imports;
// dice are checked once revealed.
TEST_F(RevealEpochTest, ExportAndImportCarryTheLaterSecrets) {
  Attacks(1);
  ASSERT_TRUE(Reveal(testing::FixtureSecret()).ok());
  const std::vector<uint8_t> fresh = SecretInForceOn();
  Attacks(2);
  auto rules = engine_->RulesetOf("s1");
  ASSERT_TRUE(rules.ok());
  for (const bool with_secret : {true, false}) {
    SCOPED_TRACE(with_secret ? "with the secrets" : "without them");
    auto bundle = ReadSession(engine_->log(), "s1", with_secret);
    ASSERT_TRUE(bundle.ok()) << bundle.status();
    EXPECT_EQ(bundle->later_secrets.size(), with_secret ? 1u : 0u);
    auto transcript = RenderTranscript(*bundle);
    ASSERT_TRUE(transcript.ok()) << transcript.status();
    EXPECT_NE(transcript->find("dice seed: revealed in part"), std::string::npos)
        << *transcript;
    auto decoded = DecodeBundle(EncodeBundle(*bundle));
    ASSERT_TRUE(decoded.ok()) << decoded.status();
    EXPECT_EQ(decoded->later_secrets, bundle->later_secrets);
    const std::string other = dir_ + (with_secret ? "/with" : "/without");
    auto target = Engine::Open(other);
    ASSERT_TRUE(target.ok()) << target.status();
    auto imported = ImportBundle((*target)->log(), *decoded, *rules);
    ASSERT_TRUE(imported.ok()) << imported.status();
    ASSERT_TRUE(imported->imported) << RenderVerifyReport(imported->verify);
    EXPECT_TRUE(imported->verify.seed_known);
    auto state = (*target)->StateAt("s1", "main");
    ASSERT_TRUE(state.ok());
    auto held = SecretInForce((*target)->log(), "s1", *state);
    ASSERT_TRUE(held.ok());
    EXPECT_EQ(*held, with_secret ? fresh : std::vector<uint8_t>());
    if (with_secret) {
      const std::string me = state->active;
      auto next = (*target)->Submit("s1", "main", ToyCmd("there", me, "attack", {Other(me)}));
      ASSERT_TRUE(next.ok()) << next.status();
      for (const Seeded& d : SeededOf(next->events)) EXPECT_EQ(d.value, ValueWith(fresh, d));
      auto r = VerifySession((*target)->log(), *rules, "s1", "", true, {});
      ASSERT_TRUE(r.ok());
      EXPECT_TRUE(r->ok()) << RenderVerifyReport(*r);
    }
  }
}

// Imported without any secret, a session revealed mid-session and at the
// end: verify knows both secrets from the chain (the store's reveal
// markers) and checks every die of both epochs, none left unchecked.
TEST_F(RevealEpochTest, WithoutStoredSecretsEveryEpochIsCheckedFromItsReveal) {
  const std::vector<Seeded> before = Attacks(1);
  ASSERT_TRUE(Reveal(testing::FixtureSecret()).ok());
  const std::vector<uint8_t> fresh = SecretInForceOn();
  const std::vector<Seeded> after = Attacks(1);
  End();
  ASSERT_TRUE(Reveal(fresh).ok());
  auto rules = engine_->RulesetOf("s1");
  ASSERT_TRUE(rules.ok());
  auto bundle = ReadSession(engine_->log(), "s1", /*with_secret=*/false);
  ASSERT_TRUE(bundle.ok()) << bundle.status();
  auto target = Engine::Open(dir_ + "/bare");
  ASSERT_TRUE(target.ok()) << target.status();
  auto imported = ImportBundle((*target)->log(), *bundle, *rules);
  ASSERT_TRUE(imported.ok() && imported->imported) << imported.status();
  auto r = VerifySession((*target)->log(), *rules, "s1", "", true, {});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->ok()) << RenderVerifyReport(*r);
  EXPECT_TRUE(r->seed_known);
  EXPECT_GE(r->seeded_dice_checked, before.size() + after.size() + 1);
  for (const std::string& n : r->notes) {
    EXPECT_EQ(n.find("checked when the secret is known"), std::string::npos) << n;
  }
}

}  // namespace
}  // namespace combat::replay
