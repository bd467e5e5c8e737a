// Verify against a real RocksDB: a clean session (manual and seeded dice,
// rulings, a void, forks, a revealed seed) verifies; a hand-edited event in
// the database, a flipped byte in a table file, a wrong state hash, a
// changed die and a die the seed does not give are each caught, naming the
// event.
#include "replay/verify.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <limits>
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "events/codec.h"
#include "gtest/gtest.h"
#include "kernel/command.h"
#include "kernel/fold.h"
#include "kernel/session.h"
#include "kernel/state_codec.h"
#include "replay/testing/fixture.h"
#include "rocksdb/db.h"

namespace combat::replay {
namespace {

using testing::ToyCmd;

std::string EventKey(const std::string& branch, uint64_t seq) {
  std::string key = std::string("e\0s1\0", 5) + branch + std::string(1, '\0');
  for (int shift = 56; shift >= 0; shift -= 8) {
    key.push_back(static_cast<char>((seq >> shift) & 0xff));
  }
  return key;
}

events::EventBuffer Rebuild(const fb::EventT& e) {
  return *events::EventBuffer::FromOwned(events::EncodeEvent(e), "test");
}

// Re-chains events[from..]: each prev_hash the hash of the one before.
void Rechain(std::vector<events::EventBuffer>& evs, size_t from) {
  for (size_t i = std::max<size_t>(from, 1); i < evs.size(); ++i) {
    fb::EventT t;
    evs[i].event().UnPackTo(&t);
    const events::Digest h = evs[i - 1].hash();
    t.prev_hash.assign(h.begin(), h.end());
    evs[i] = Rebuild(t);
  }
}

// Re-forges events[from..] as a careful forger would: each state_hash the
// hash of the state the fold reaches, each prev_hash the hash of the event
// before, so that only re-decision can tell.
void Reforge(std::vector<events::EventBuffer>& evs, size_t from) {
  const kernel::PrefixScan prefix = kernel::ScanOf(evs);  // voids re-derive
  kernel::State state;
  for (size_t i = 0; i < evs.size(); ++i) {
    if (i >= from) {
      fb::EventT t;
      evs[i].event().UnPackTo(&t);
      const events::Digest prev = i == 0 ? events::Digest{} : evs[i - 1].hash();
      t.prev_hash.assign(prev.begin(), prev.end());
      kernel::State after = state;
      EXPECT_TRUE(kernel::ApplyEvent(evs[i].event(), after, &prefix).ok());
      const events::Digest h = kernel::StateHash(after);
      t.state_hash.assign(h.begin(), h.end());
      evs[i] = Rebuild(t);
    }
    EXPECT_TRUE(kernel::ApplyEvent(evs[i].event(), state, &prefix).ok());
  }
}

BranchSource MemorySource(const std::vector<events::EventBuffer>& evs,
                          const std::string& branch = "main") {
  BranchSource s;
  s.session = "s1";
  s.branch = branch;
  s.head = evs.size();
  s.scan = [&evs](uint64_t from, uint64_t to,
                  const std::function<absl::Status(const events::EventBuffer&)>& v)
      -> absl::Status {
    for (uint64_t i = from; i <= to && i <= evs.size(); ++i) {
      absl::Status st = v(evs[i - 1]);
      if (!st.ok()) return st;
    }
    return absl::OkStatus();
  };
  return s;
}

class VerifyTest : public testing::ToyFixture {
 protected:
  // A session with manual and seeded dice, a GM adjustment and a void.
  void PlayMixed() {
    const std::string me = Active();
    Do(ToyCmd("", me, "attack", {Other(me)}, {15, 3}));  // manual
    Do(ToyCmd("", me, "attack", {Other(me)}));           // seeded
    Do(ToyCmd("", me, "end_turn"));
    fb::CommandT gm = ToyCmd("", "", "gm_adjust");
    gm.actor = me;
    gm.role = fb::Role::GM;
    gm.author = "dana";
    gm.text = "needle-potion";
    auto p = std::make_unique<fb::ParamT>();
    p->key = "resource";
    p->text = "hp";
    gm.params.push_back(std::move(p));
    p = std::make_unique<fb::ParamT>();
    p->key = "delta";
    p->value = 2;
    gm.params.push_back(std::move(p));
    Do(gm);
    const std::string other = Active();
    const uint64_t decl =
        Do(ToyCmd("", other, "attack", {me}, {18, 6})).front().event().seq();
    fb::CommandT v = ToyCmd("", "", "gm_void");
    v.role = fb::Role::GM;
    v.author = "dana";
    v.text = "misclick";
    kernel::AddRef(v, "subject", static_cast<uint64_t>(decl));
    Do(v);
    Do(ToyCmd("", other, "attack", {me}));
  }

  VerifyReport Verify(const std::string& branch = "") {
    auto rules = engine_->RulesetOf("s1");
    EXPECT_TRUE(rules.ok());
    auto r = VerifySession(engine_->log(), *rules, "s1", branch, true, {});
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? *r : VerifyReport();
  }

  void RawEdit(const std::string& key,
               const std::function<void(std::string&)>& edit, bool flush) {
    Close();
    rocksdb::DB* raw = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(rocksdb::Options(), db_, &raw).ok());
    std::unique_ptr<rocksdb::DB> db(raw);
    if (!key.empty()) {
      std::string value;
      ASSERT_TRUE(db->Get(rocksdb::ReadOptions(), key, &value).ok());
      edit(value);
      ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), key, value).ok());
    }
    if (flush) {
      ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
    }
    db.reset();
    Reopen();
  }

  std::vector<events::EventBuffer> All() {
    auto evs = engine_->Events("s1", "main");
    EXPECT_TRUE(evs.ok());
    return *evs;
  }
};

TEST_F(VerifyTest, ACleanSessionVerifies) {
  PlayMixed();
  ASSERT_TRUE(engine_->Fork({"s1", "main", HeadOf() - 5, "alt", "dana", "test"}).ok());
  AttackAndEnd({}, "alt");
  VerifyReport r = Verify();
  EXPECT_TRUE(r.ok()) << RenderVerifyReport(r);
  EXPECT_EQ(r.branches.size(), 2u);
  EXPECT_GE(r.commands_redecided, 9u);
  EXPECT_FALSE(r.seed_known);
  EXPECT_TRUE(r.checksums_checked);
  EXPECT_NE(RenderVerifyReport(r).find("verify s1: OK"), std::string::npos);
}

TEST_F(VerifyTest, AfterTheRevealEverySeededDieIsChecked) {
  PlayMixed();
  fb::CommandT reveal = ToyCmd("", "", "gm_reveal");
  reveal.role = fb::Role::GM;
  reveal.author = "dana";
  reveal.text = "end of session";
  auto p = std::make_unique<fb::ParamT>();
  p->key = "secret";
  p->text = testing::FixtureSecretHex();
  reveal.params.push_back(std::move(p));
  Do(reveal);
  VerifyReport r = Verify();
  EXPECT_TRUE(r.ok()) << RenderVerifyReport(r);
  EXPECT_TRUE(r.seed_known);
  EXPECT_GE(r.seeded_dice_checked, 4u) << "initiative and two seeded attacks";
}

TEST_F(VerifyTest, AHandEditedEventInTheDatabaseIsNamed) {
  PlayMixed();
  // Change the value of a die (a field the state does not depend on) of
  // a roll in the middle of the log, keeping the bytes well formed.
  std::vector<events::EventBuffer> evs = All();
  uint64_t target = 0;
  for (const auto& e : evs) {
    if (e.event().body_type() == fb::Body::Roll && e.event().seq() > 8) {
      target = e.event().seq();
      break;
    }
  }
  ASSERT_GT(target, 0u);
  ASSERT_LT(target, evs.size());
  RawEdit(EventKey("main", target), [&](std::string& value) {
    fb::EventT t;
    evs[target - 1].event().UnPackTo(&t);
    auto& die = t.body.AsRoll()->dice[0];
    die->value = die->value == 1 ? 2 : 1;
    const auto bytes = events::EncodeEvent(t);
    value.assign(bytes.begin(), bytes.end());
  }, false);
  VerifyReport r = Verify();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.mismatch->check, "chain") << RenderVerifyReport(r);
  EXPECT_EQ(r.mismatch->seq, target) << RenderVerifyReport(r);
  EXPECT_NE(RenderVerifyReport(r).find(absl::StrCat("event #", target, " was altered")),
            std::string::npos)
      << RenderVerifyReport(r);
}

TEST_F(VerifyTest, AnEditedHeadEventIsNamed) {
  PlayMixed();
  const uint64_t head = HeadOf();
  std::vector<events::EventBuffer> evs = All();
  fb::EventT t;
  evs.back().event().UnPackTo(&t);
  t.author = "mallory";
  RawEdit(EventKey("main", head), [&](std::string& value) {
    const auto bytes = events::EncodeEvent(t);
    value.assign(bytes.begin(), bytes.end());
  }, false);
  VerifyReport r = Verify();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.mismatch->check, "store") << RenderVerifyReport(r);
  EXPECT_NE(r.mismatch->summary.find(absl::StrCat("seq ", head)), std::string::npos)
      << RenderVerifyReport(r);
}

TEST_F(VerifyTest, AFlippedByteInATableFileIsCaught) {
  PlayMixed();
  RawEdit("", nullptr, /*flush=*/true);
  Close();
  std::string sst;
  for (const auto& f : std::filesystem::directory_iterator(db_)) {
    if (f.path().extension() == ".sst") sst = f.path();
  }
  ASSERT_FALSE(sst.empty());
  std::string bytes;
  {
    std::ifstream in(sst, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  size_t at = bytes.find("needle-potion");
  if (at == std::string::npos) at = bytes.size() / 3;
  bytes[at + 2] ^= 0x01;
  {
    std::ofstream out(sst, std::ios::binary | std::ios::trunc);
    out << bytes;
  }
  Reopen();
  VerifyReport r = Verify();
  ASSERT_FALSE(r.ok());
  const std::string text = RenderVerifyReport(r);
  if (getenv("SHOW_REPORTS")) std::cout << text;
  EXPECT_TRUE(r.mismatch->check == "store" || r.mismatch->check == "checksums") << text;
  if (r.mismatch->check == "store") {
    EXPECT_GT(r.mismatch->seq, 0u) << text;
    EXPECT_NE(text.find("seq "), std::string::npos) << text;
  }
}

TEST_F(VerifyTest, AWrongStateHashShowsBothStates) {
  PlayMixed();
  std::vector<events::EventBuffer> evs = All();
  const size_t k = 10;  // a state change somewhere in the middle
  fb::EventT t;
  evs[k].event().UnPackTo(&t);
  t.state_hash.assign(32, 0xab);
  evs[k] = Rebuild(t);
  Rechain(evs, k + 1);
  auto meta = engine_->log().GetSession("s1");
  auto r = VerifyBranchEvents(MemorySource(evs), *meta, &testing::Toy(), {});
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_FALSE(r->ok());
  EXPECT_EQ(r->mismatch->check, "state hash") << RenderVerifyReport(*r);
  EXPECT_EQ(r->mismatch->seq, k + 1);
  const std::string text = RenderVerifyReport(*r);
  if (getenv("SHOW_REPORTS")) std::cout << text;
  EXPECT_NE(text.find("state before:"), std::string::npos) << text;
  EXPECT_NE(text.find("replayed state after:"), std::string::npos) << text;
  EXPECT_NE(text.find("abababab"), std::string::npos) << text;
}

TEST_F(VerifyTest, AChangedDieWithAConsistentChainFailsReDecision) {
  PlayMixed();
  std::vector<events::EventBuffer> evs = All();
  // The damage roll of the first (manual) attack: re-deciding with the
  // recorded dice gives the command's own die, not the edited one.
  size_t k = 0;
  for (; k < evs.size(); ++k) {
    const fb::Event& e = evs[k].event();
    if (e.body_type() == fb::Body::Roll && e.body_as_Roll()->purpose()->str() == "damage") break;
  }
  ASSERT_LT(k, evs.size());
  fb::EventT t;
  evs[k].event().UnPackTo(&t);
  t.body.AsRoll()->dice[0]->value = 1;
  t.body.AsRoll()->total = 1;
  evs[k] = Rebuild(t);
  Rechain(evs, k + 1);
  auto meta = engine_->log().GetSession("s1");
  auto r = VerifyBranchEvents(MemorySource(evs), *meta, &testing::Toy(), {});
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_FALSE(r->ok());
  const std::string text = RenderVerifyReport(*r);
  if (getenv("SHOW_REPORTS")) std::cout << text;
  EXPECT_EQ(r->mismatch->check, "re-decision") << text;
  EXPECT_EQ(r->mismatch->seq, k + 1) << text;
  EXPECT_NE(text.find("body.dice[0].value: 1 | 3"), std::string::npos) << text;
}

TEST_F(VerifyTest, AForgedSetUpIsCaughtByReDecision) {
  PlayMixed();
  std::vector<events::EventBuffer> evs = All();
  // The set-up rolls initiative and sets the order from the rolls; a
  // forger raises the leader's initiative (the order stays the same, so
  // nothing later changes) and re-forges every later hash, so that chain
  // and state hashes all hold.
  size_t k = 0;
  for (; k < evs.size(); ++k) {
    const auto* sc = evs[k].event().body_as_StateChange();
    if (sc != nullptr && sc->change_as_OrderSet() != nullptr) break;
  }
  ASSERT_LT(k, evs.size());
  ASSERT_EQ(evs[k].event().command_id()->str(), "setup");
  fb::EventT t;
  evs[k].event().UnPackTo(&t);
  t.body.AsStateChange()->change.AsOrderSet()->entries[0]->initiative += 1;
  evs[k] = Rebuild(t);
  Reforge(evs, k);
  auto meta = engine_->log().GetSession("s1");
  VerifyOptions no_redecision;
  no_redecision.redecide = false;
  auto blind = VerifyBranchEvents(MemorySource(evs), *meta, &testing::Toy(), no_redecision);
  ASSERT_TRUE(blind.ok());
  EXPECT_TRUE(blind->ok()) << "the forgery should hold against every other check:\n"
                           << RenderVerifyReport(*blind);
  auto r = VerifyBranchEvents(MemorySource(evs), *meta, &testing::Toy(), {});
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_FALSE(r->ok());
  const std::string text = RenderVerifyReport(*r);
  if (getenv("SHOW_REPORTS")) std::cout << text;
  EXPECT_EQ(r->mismatch->check, "re-decision") << text;
  EXPECT_EQ(r->mismatch->seq, k + 1) << text;
  EXPECT_NE(text.find("command setup"), std::string::npos) << text;
}

TEST_F(VerifyTest, ADeletedCommandMarkerIsNamed) {
  PlayMixed();
  auto evs = All();
  // The second command's id, whatever the fixture named it.
  std::string id;
  uint64_t first = 0;
  for (const auto& e : evs) {
    const std::string c = e.event().command_id()->str();
    if (c != "setup" && id.empty()) {
      id = c;
      first = e.event().seq();
    }
  }
  ASSERT_FALSE(id.empty());
  std::string key = std::string("c\0s1\0main\0", 10) + id;
  Close();
  {
    rocksdb::DB* raw = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(rocksdb::Options(), db_, &raw).ok());
    std::unique_ptr<rocksdb::DB> db(raw);
    ASSERT_TRUE(db->Delete(rocksdb::WriteOptions(), key).ok());
  }
  Reopen();
  VerifyReport r = Verify("main");
  ASSERT_FALSE(r.ok());
  const std::string text = RenderVerifyReport(r);
  EXPECT_EQ(r.mismatch->check, "command markers") << text;
  EXPECT_EQ(r.mismatch->seq, first) << text;
  EXPECT_NE(text.find(absl::StrCat("command ", id, ": events seq ", first)), std::string::npos)
      << text;
  EXPECT_NE(text.find("marker is missing"), std::string::npos) << text;
  // The same report when the pipeline's worker runs the marker check
  // ahead of the walk (StoreSource: observe_ahead).
  auto rules = engine_->RulesetOf("s1");
  ASSERT_TRUE(rules.ok());
  VerifyOptions alone;
  alone.trust_redecision = false;
  alone.pipeline_from = std::numeric_limits<uint64_t>::max();
  auto a = VerifySession(engine_->log(), *rules, "s1", "main", true, alone);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(RenderVerifyReport(*a), text);
  for (size_t batch : {1, 3, 256}) {
    VerifyOptions piped = alone;
    piped.pipeline_from = 0;
    piped.pipeline_batch = batch;
    auto b = VerifySession(engine_->log(), *rules, "s1", "main", true, piped);
    ASSERT_TRUE(b.ok());
    EXPECT_EQ(RenderVerifyReport(*b), text) << "batch " << batch;
  }
}

TEST_F(VerifyTest, ASeededDieTheSeedDoesNotGiveIsCaught) {
  PlayMixed();
  std::vector<events::EventBuffer> evs = All();
  size_t k = 0;  // the first seeded die after set-up
  for (; k < evs.size(); ++k) {
    const fb::Event& e = evs[k].event();
    if (e.seq() > 10 && e.body_type() == fb::Body::Roll &&
        e.body_as_Roll()->dice()->Get(0)->provenance() == fb::Provenance::Seeded) {
      break;
    }
  }
  ASSERT_LT(k, evs.size());
  fb::EventT t;
  evs[k].event().UnPackTo(&t);
  auto& die = t.body.AsRoll()->dice[0];
  die->value = die->value == 1 ? 2 : 1;
  evs[k] = Rebuild(t);
  Rechain(evs, k + 1);
  auto meta = engine_->log().GetSession("s1");
  VerifyOptions o;
  o.secret = testing::FixtureSecret();
  auto r = VerifyBranchEvents(MemorySource(evs), *meta, &testing::Toy(), o);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_FALSE(r->ok());
  EXPECT_EQ(r->mismatch->check, "dice seed") << RenderVerifyReport(*r);
  EXPECT_EQ(r->mismatch->seq, k + 1);
  // A wrong secret fails at the commitment, at event 1.
  o.secret.assign(32, 9);
  auto w = VerifyBranchEvents(MemorySource(All()), *meta, &testing::Toy(), o);
  ASSERT_TRUE(w.ok());
  ASSERT_FALSE(w->ok());
  EXPECT_EQ(w->mismatch->check, "dice seed");
  EXPECT_EQ(w->mismatch->seq, 1u);
}

// The fast path (trusting identical re-decided events) must report
// exactly what checking every event on its own reports, whatever is wrong
// and wherever: every event of the log edited in several ways.
TEST_F(VerifyTest, TheFastPathReportsWhatTheSlowPathDoes) {
  PlayMixed();
  const std::vector<events::EventBuffer> clean = All();
  auto meta = engine_->log().GetSession("s1");
  ASSERT_TRUE(meta.ok());
  auto report = [&](const std::vector<events::EventBuffer>& evs, bool fast,
                    bool secret, bool head) {
    VerifyOptions o;
    o.trust_redecision = fast;
    if (secret) o.secret = testing::FixtureSecret();
    BranchSource src = MemorySource(evs);
    if (head && !evs.empty()) src.head_hash = clean.back().hash();
    auto r = VerifyBranchEvents(src, *meta, &testing::Toy(), o);
    EXPECT_TRUE(r.ok()) << r.status();
    if (!r.ok()) return std::string();
    return absl::StrCat(RenderVerifyReport(*r), "events=", r->events,
                        " redecided=", r->commands_redecided,
                        " dice=", r->seeded_dice_checked);
  };
  auto expect_same = [&](const std::vector<events::EventBuffer>& evs,
                         const std::string& what) {
    for (int variant = 0; variant < 4; ++variant) {
      const bool secret = (variant & 1) != 0, head = (variant & 2) != 0;
      EXPECT_EQ(report(evs, true, secret, head), report(evs, false, secret, head))
          << what << " secret=" << secret << " head=" << head;
    }
  };
  expect_same(clean, "clean");
  EXPECT_NE(report(clean, true, true, true).find(": OK"), std::string::npos);
  int edits = 0;
  for (size_t k = 0; k < clean.size(); ++k) {
    const std::string at = absl::StrCat(" at index ", k);
    fb::EventT t;
    clean[k].event().UnPackTo(&t);
    std::vector<events::EventBuffer> evs = clean;

    fb::EventT h = t;
    h.state_hash.assign(32, 0xab);
    evs[k] = Rebuild(h);
    Rechain(evs, k + 1);
    expect_same(evs, "state hash" + at);
    // Without re-decision (nothing keeps the state before each command)
    // the details show the same states.
    VerifyOptions no;
    no.redecide = false;
    auto without = VerifyBranchEvents(MemorySource(evs), *meta, nullptr, no);
    VerifyOptions slow;
    slow.trust_redecision = false;
    auto with = VerifyBranchEvents(MemorySource(evs), *meta, &testing::Toy(), slow);
    ASSERT_TRUE(without.ok() && with.ok());
    ASSERT_TRUE(without->mismatch.has_value() && with->mismatch.has_value()) << at;
    if (with->mismatch->check == "state hash") {
      EXPECT_EQ(without->mismatch->details, with->mismatch->details) << at;
    }

    evs = clean;
    fb::EventT a = t;
    a.author = "mallory";
    evs[k] = Rebuild(a);
    expect_same(evs, "author, chain broken" + at);
    Rechain(evs, k + 1);
    expect_same(evs, "author, rechained" + at);

    evs = clean;
    std::vector<uint8_t> padded = clean[k].bytes();
    padded.resize(padded.size() + 8, 0);
    auto p = events::EventBuffer::FromOwned(padded, "test");
    if (p.ok()) {
      evs[k] = *p;
      Rechain(evs, k + 1);
      expect_same(evs, "not canonical" + at);
    }

    evs = clean;
    fb::EventT q = t;
    q.seq += 1;
    evs[k] = Rebuild(q);
    Rechain(evs, k + 1);
    expect_same(evs, "seq" + at);

    evs = clean;
    evs.erase(evs.begin() + static_cast<long>(k));
    Rechain(evs, k);
    expect_same(evs, "dropped" + at);
    evs = std::vector<events::EventBuffer>(clean.begin(),
                                           clean.begin() + static_cast<long>(k));
    expect_same(evs, "truncated" + at);

    if (t.body.type == fb::Body::Roll && !t.body.AsRoll()->dice.empty()) {
      evs = clean;
      fb::EventT d = t;
      auto& die = d.body.AsRoll()->dice[0];
      die->value = die->value == 1 ? 2 : 1;
      evs[k] = Rebuild(d);
      Rechain(evs, k + 1);
      expect_same(evs, "die" + at);
    }
    ++edits;
  }
  EXPECT_GT(edits, 20);
}

// What the damage matrix edits: every event of `clean` in several ways.
std::vector<std::pair<std::string, std::vector<events::EventBuffer>>> DamageMatrix(
    const std::vector<events::EventBuffer>& clean) {
  std::vector<std::pair<std::string, std::vector<events::EventBuffer>>> out;
  out.emplace_back("clean", clean);
  for (size_t k = 0; k < clean.size(); ++k) {
    const std::string at = absl::StrCat(" at index ", k);
    fb::EventT t;
    clean[k].event().UnPackTo(&t);
    std::vector<events::EventBuffer> evs = clean;
    fb::EventT h = t;
    h.state_hash.assign(32, 0xab);
    evs[k] = Rebuild(h);
    Rechain(evs, k + 1);
    out.emplace_back("state hash" + at, evs);
    evs = clean;
    fb::EventT a = t;
    a.author = "mallory";
    evs[k] = Rebuild(a);
    out.emplace_back("author, chain broken" + at, evs);
    Rechain(evs, k + 1);
    out.emplace_back("author, rechained" + at, evs);
    std::vector<uint8_t> padded = clean[k].bytes();
    padded.resize(padded.size() + 8, 0);
    auto p = events::EventBuffer::FromOwned(padded, "test");
    if (p.ok()) {
      evs = clean;
      evs[k] = *p;
      Rechain(evs, k + 1);
      out.emplace_back("not canonical" + at, evs);
    }
    evs = clean;
    fb::EventT q = t;
    q.seq += 1;
    evs[k] = Rebuild(q);
    Rechain(evs, k + 1);
    out.emplace_back("seq" + at, evs);
    evs = clean;
    evs.erase(evs.begin() + static_cast<long>(k));
    Rechain(evs, k);
    out.emplace_back("dropped" + at, evs);
    out.emplace_back("truncated" + at,
                     std::vector<events::EventBuffer>(
                         clean.begin(), clean.begin() + static_cast<long>(k)));
    if (t.body.type == fb::Body::Roll && !t.body.AsRoll()->dice.empty()) {
      evs = clean;
      fb::EventT d = t;
      auto& die = d.body.AsRoll()->dice[0];
      die->value = die->value == 1 ? 2 : 1;
      evs[k] = Rebuild(d);
      Rechain(evs, k + 1);
      out.emplace_back("die" + at, evs);
    }
  }
  return out;
}

// The pipeline (canonical checks and hashes on a worker thread, batches
// walked behind it) must report exactly what the walk alone reports: the
// damage matrix, with and without re-decision, the secret and the head
// hash, a store that refuses an event and an observer that fails (run by
// the walk or ahead of it by the worker), in
// batches of several sizes (the threshold lowered so that this short
// branch is pipelined).
TEST_F(VerifyTest, ThePipelineReportsWhatTheWalkAloneDoes) {
  PlayMixed();
  const std::vector<events::EventBuffer> clean = All();
  auto meta = engine_->log().GetSession("s1");
  ASSERT_TRUE(meta.ok());
  // `refuse`: the seq the store cannot read (0: none); `refuse_observed`:
  // the seq the observer fails at (0: none).
  auto report = [&](const std::vector<events::EventBuffer>& evs, size_t batch,
                    int variant, uint64_t refuse, uint64_t refuse_observed,
                    bool ahead = false) {
    VerifyOptions o;
    o.trust_redecision = false;
    o.redecide = (variant & 4) == 0;
    if ((variant & 1) != 0) o.secret = testing::FixtureSecret();
    if (batch == 0) {
      o.pipeline_from = std::numeric_limits<uint64_t>::max();
    } else {
      o.pipeline_from = 0;
      o.pipeline_batch = batch;
    }
    BranchSource src = MemorySource(evs);
    if ((variant & 2) != 0 && !evs.empty()) src.head_hash = clean.back().hash();
    if (refuse != 0) {
      auto inner = src.scan;
      src.scan = [inner, refuse](uint64_t from, uint64_t to, const auto& v) {
        if (from > refuse) return absl::DataLossError("refused");
        absl::Status st = inner(from, std::min(to, refuse - 1), v);
        if (!st.ok() || to < refuse) return st;
        return absl::DataLossError(absl::StrCat("cannot read seq ", refuse));
      };
    }
    auto last = std::make_shared<uint64_t>(0);
    if (refuse_observed != 0) {
      src.observe = [last, refuse_observed](const events::EventBuffer& e) {
        *last = e.event().seq();
        return *last == refuse_observed ? absl::DataLossError("observer refuses")
                                        : absl::OkStatus();
      };
      src.observe_end = [] { return absl::OkStatus(); };
      src.observed_seq = [last] { return *last; };
      src.observe_ahead = ahead;
    }
    auto r = VerifyBranchEvents(src, *meta, o.redecide ? &testing::Toy() : nullptr, o);
    EXPECT_TRUE(r.ok()) << r.status();
    if (!r.ok()) return std::string();
    return absl::StrCat(RenderVerifyReport(*r), "events=", r->events,
                        " redecided=", r->commands_redecided,
                        " dice=", r->seeded_dice_checked);
  };
  const auto matrix = DamageMatrix(clean);
  EXPECT_GT(matrix.size(), 100u);
  const uint64_t n = clean.size();
  int compared = 0;
  for (const auto& [what, evs] : matrix) {
    for (int variant = 0; variant < 8; ++variant) {
      const std::string alone = report(evs, 0, variant, 0, 0);
      for (size_t batch : {1, 3, 7, 256}) {
        EXPECT_EQ(report(evs, batch, variant, 0, 0), alone)
            << what << " variant=" << variant << " batch=" << batch;
        ++compared;
      }
    }
  }
  // A store that refuses an event, an observer that fails, on the clean
  // log and on a damaged one.
  for (const auto& [what, evs] : {matrix[0], matrix[matrix.size() / 2]}) {
    for (uint64_t at : {uint64_t{1}, uint64_t{2}, n / 3, n / 2, n - 1, n}) {
      for (int variant : {0, 3, 4, 7}) {
        const std::string refused = report(evs, 0, variant, at, 0);
        const std::string observed = report(evs, 0, variant, 0, at);
        for (size_t batch : {1, 3, 256}) {
          EXPECT_EQ(report(evs, batch, variant, at, 0), refused)
              << what << " refused at " << at << " batch=" << batch;
          for (bool ahead : {false, true}) {
            EXPECT_EQ(report(evs, batch, variant, 0, at, ahead), observed)
                << what << " observer fails at " << at << " batch=" << batch
                << " ahead=" << ahead;
          }
        }
      }
    }
  }
  EXPECT_GT(compared, 1000);
  // Through the store (StoreSource): the same report.
  auto rules = engine_->RulesetOf("s1");
  ASSERT_TRUE(rules.ok());
  VerifyOptions alone;
  alone.trust_redecision = false;
  alone.pipeline_from = std::numeric_limits<uint64_t>::max();
  VerifyOptions piped = alone;
  piped.pipeline_from = 0;
  piped.pipeline_batch = 3;
  auto a = VerifySession(engine_->log(), *rules, "s1", "main", true, alone);
  auto b = VerifySession(engine_->log(), *rules, "s1", "main", true, piped);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_TRUE(a->ok()) << RenderVerifyReport(*a);
  EXPECT_EQ(RenderVerifyReport(*a), RenderVerifyReport(*b));
}

// The same on a fork, whose first events are the parent's (a command cut
// by the fork point included).
TEST_F(VerifyTest, TheFastPathReportsWhatTheSlowPathDoesOnAFork) {
  PlayMixed();
  ASSERT_TRUE(engine_->Fork({"s1", "main", HeadOf() - 5, "alt", "dana", "test"}).ok());
  AttackAndEnd({}, "alt");
  auto all = engine_->Events("s1", "alt");
  ASSERT_TRUE(all.ok());
  const std::vector<events::EventBuffer> clean = *all;
  auto meta = engine_->log().GetSession("s1");
  ASSERT_TRUE(meta.ok());
  auto fork_meta = engine_->log().GetBranch("s1", "alt");
  ASSERT_TRUE(fork_meta.ok());
  auto report = [&](const std::vector<events::EventBuffer>& evs, bool fast) {
    VerifyOptions o;
    o.trust_redecision = fast;
    BranchSource source = MemorySource(evs, "alt");
    source.fork = *fork_meta;
    auto r = VerifyBranchEvents(source, *meta, &testing::Toy(), o);
    EXPECT_TRUE(r.ok()) << r.status();
    if (!r.ok()) return std::string();
    return absl::StrCat(RenderVerifyReport(*r), "events=", r->events,
                        " redecided=", r->commands_redecided);
  };
  EXPECT_EQ(report(clean, true), report(clean, false));
  EXPECT_NE(report(clean, true).find(": OK"), std::string::npos) << report(clean, true);
  if (getenv("SHOW_REPORTS")) std::cout << report(clean, true);
  for (size_t k = 0; k < clean.size(); ++k) {
    fb::EventT t;
    clean[k].event().UnPackTo(&t);
    std::vector<events::EventBuffer> evs = clean;
    fb::EventT h = t;
    h.state_hash.assign(32, 0xab);
    evs[k] = Rebuild(h);
    Rechain(evs, k + 1);
    EXPECT_EQ(report(evs, true), report(evs, false)) << "state hash at " << k;
    evs = clean;
    fb::EventT a = t;
    a.author = "mallory";
    evs[k] = Rebuild(a);
    Rechain(evs, k + 1);
    EXPECT_EQ(report(evs, true), report(evs, false)) << "author at " << k;
    evs = std::vector<events::EventBuffer>(clean.begin(),
                                           clean.begin() + static_cast<long>(k));
    EXPECT_EQ(report(evs, true), report(evs, false)) << "truncated at " << k;
  }
}

}  // namespace
}  // namespace combat::replay
