// Tests of the kernel concepts through a toy ruleset and the in-memory
// table: Decision, change emitters, durations, parent/daughter conditions,
// GM verbs, and the dice contract of DecideCommand.
#include "kernel/changes.h"

#include "events/hash.h"
#include "events/status_macros.h"
#include "gtest/gtest.h"
#include "kernel/command.h"
#include "kernel/dice/source.h"
#include "kernel/gm.h"
#include "kernel/ruleset.h"
#include "kernel/state_codec.h"
#include "kernel/testing/table.h"

namespace combat::kernel {
namespace {

using testing::Cmd;
using testing::Table;
using testing::With;
using testing::WithText;

// A toy ruleset: "hit" rolls 1d6 damage; "curse" adds Cursed (a parent) and
// Weak (its daughter) until the start of the actor's next turn; "pass"
// ends the turn and starts the other combatant's.
class Toy : public Ruleset {
 public:
  Measure measure() const override { return {}; }
  std::string id() const override { return "toy"; }
  int32_t version() const override { return 1; }
  const std::vector<RuleRef>& Rules() const override {
    static const auto* rules = new std::vector<RuleRef>{{"toy.hit", "", "", 0, ""}};
    return *rules;
  }
  absl::Status Setup(const fb::Roster& roster, Decision& d) const override {
    for (const fb::CombatantSpec* spec : *roster.combatants()) {
      fb::CombatantSpecT t;
      spec->UnPackTo(&t);
      RETURN_IF_ERROR(JoinCombatant(d, t, {0, "toy.join"}));
      RETURN_IF_ERROR(SetResource(d, t.id, "hp", 10, {0, "toy.hp"}));
    }
    RETURN_IF_ERROR(SetOrder(d, {{"a", 2, false}, {"b", 1, false}}, {0, "toy.order"}));
    RETURN_IF_ERROR(StartRound(d, {0, "toy.round"}));
    return StartTurn(d, "a", {0, "toy.turn"});
  }
  const std::vector<VerbSchema>& Verbs() const override {
    static const auto* verbs = [] {
      auto* v = new std::vector<VerbSchema>();
      VerbSchema hit{"hit", "1d6 damage", "toy.hit"};
      hit.targets = Use::kRequired;
      VerbSchema curse{"curse", "Cursed and Weak", "toy.curse"};
      curse.targets = Use::kRequired;
      *v = {hit, curse, VerbSchema{"pass", "end the turn", "toy.turn"}};
      for (VerbSchema& g : GmVerbSchemas({})) v->push_back(std::move(g));
      return v;
    }();
    return *verbs;
  }
  absl::Status Decide(const fb::CommandT& c, Decision& d) const override {
    if (IsGmVerb(c.action)) return DecideGm(c, "toy.gm", d);
    ASSIGN_OR_RETURN(const Combatant* me, Actor(d.state(), c));
    if (d.state().active != me->id) {
      return absl::FailedPreconditionError("not your turn");
    }
    if (c.action == "hit") {
      ASSIGN_OR_RETURN(const Combatant* foe, Target(d.state(), c));
      const std::string foe_id = foe->id;
      ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
      ASSIGN_OR_RETURN(auto dmg, d.Roll("1d6", "damage", me->id, decl));
      return AddResource(d, foe_id, "hp", -dmg.total,
                         {decl, "toy.hit", {{"d6", dmg.total}}})
          .status();
    }
    if (c.action == "curse") {
      ASSIGN_OR_RETURN(const Combatant* foe, Target(d.state(), c));
      const std::string foe_id = foe->id;
      const std::string me_id = me->id;
      ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
      NewCondition parent{foe_id, "Cursed", me_id};
      parent.expiry = {fb::ExpiryKind::TurnStart, me_id, d.state().round + 1};
      ASSIGN_OR_RETURN(uint32_t pid, AddCondition(d, parent, {decl, "toy.curse"}));
      NewCondition daughter{foe_id, "Weak", me_id};
      daughter.parent = pid;
      return AddCondition(d, daughter, {decl, "toy.curse"}).status();
    }
    if (c.action == "pass") {
      const std::string me_id = me->id;
      ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
      RETURN_IF_ERROR(EndTurn(d, me_id, {decl, "toy.turn"}));
      auto next = NextInOrder(d.state(), [](const std::string&) { return true; });
      if (!next.has_value()) {
        RETURN_IF_ERROR(EndRound(d, {decl, "toy.round"}));
        RETURN_IF_ERROR(StartRound(d, {decl, "toy.round"}));
        next = d.state().order.front().actor;
      }
      RETURN_IF_ERROR(StartTurn(d, *next, {decl, "toy.turn"}));
      return ExpireAt(d, fb::ExpiryKind::TurnStart, *next, d.state().round,
                      {decl, "toy.duration"})
          .status();
    }
    return absl::InvalidArgumentError("unknown action");
  }
};

fb::RosterT TwoFighters() {
  fb::RosterT r;
  r.ruleset = "toy";
  for (const char* id : {"a", "b"}) {
    auto c = std::make_unique<fb::CombatantSpecT>();
    c->id = id;
    c->at = std::make_unique<fb::Pos>(0, 0);
    r.combatants.push_back(std::move(c));
  }
  return r;
}

class ToyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(table_.status().ok()) << table_.status();
    fb::CommandT gm = Cmd("", "gm_note");
    gm.role = fb::Role::GM;
    gm.text = "order set";
    WithText(gm, "kind", "note");
    ASSERT_TRUE(table_.Submit(gm).ok());
  }
  Toy toy_;
  Table table_{toy_, TwoFighters()};
};

TEST_F(ToyTest, ManualDiceAreRecordedAndCaused) {
  auto events = table_.Submit(Cmd("a", "hit", {"b"}), {4});
  ASSERT_TRUE(events.ok()) << events.status();
  EXPECT_EQ(table_.state().Find("b")->Resource("hp"), 6);
  ASSERT_EQ(events->size(), 3u);  // declaration, roll, change
  const fb::Event& roll = (*events)[1].event();
  ASSERT_EQ(roll.body_type(), fb::Body::Roll);
  EXPECT_EQ(roll.body_as_Roll()->dice()->Get(0)->provenance(), fb::Provenance::Manual);
  const fb::Event& change = (*events)[2].event();
  EXPECT_EQ(change.body_as_StateChange()->cause(), (*events)[0].event().seq());
  EXPECT_EQ(change.body_as_StateChange()->rule()->str(), "toy.hit");
}

TEST_F(ToyTest, EventsChainByHash) {
  ASSERT_TRUE(table_.Submit(Cmd("a", "hit", {"b"}), {2}).ok());
  const auto& log = table_.log();
  for (size_t i = 1; i < log.size(); ++i) {
    const auto* prev = log[i].event().prev_hash();
    ASSERT_NE(prev, nullptr);
    const events::Digest want = log[i - 1].hash();
    EXPECT_TRUE(std::equal(want.begin(), want.end(), prev->begin())) << "seq " << i + 1;
  }
}

TEST_F(ToyTest, UnusedDiceAreAnError) {
  const uint64_t before = table_.state().seq;
  auto events = table_.Submit(Cmd("a", "hit", {"b"}), {4, 5});
  EXPECT_EQ(events.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(events.status().message().find("'dice'"), absl::string_view::npos);
  EXPECT_EQ(table_.state().seq, before) << "nothing may be written";
}

TEST_F(ToyTest, ManualDieOutOfRangeIsRefused) {
  auto events = table_.Submit(Cmd("a", "hit", {"b"}), {7});
  EXPECT_EQ(events.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(ToyTest, RefusalWritesNothing) {
  const uint64_t before = table_.state().seq;
  auto events = table_.Submit(Cmd("b", "hit", {"a"}), {3});
  EXPECT_EQ(events.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(table_.state().seq, before);
}

TEST_F(ToyTest, DurationExpiresAtItsAnchorWithItsDaughter) {
  ASSERT_TRUE(table_.Submit(Cmd("a", "curse", {"b"})).ok());
  EXPECT_TRUE(table_.state().Find("b")->Has("Cursed"));
  EXPECT_TRUE(table_.state().Find("b")->Has("Weak"));
  ASSERT_TRUE(table_.Submit(Cmd("a", "pass")).ok());  // b's turn, round 1
  EXPECT_TRUE(table_.state().Find("b")->Has("Cursed")) << "anchored on a's turn";
  ASSERT_TRUE(table_.Submit(Cmd("b", "pass")).ok());  // round 2, a's turn
  EXPECT_EQ(table_.state().round, 2);
  EXPECT_FALSE(table_.state().Find("b")->Has("Cursed"));
  EXPECT_FALSE(table_.state().Find("b")->Has("Weak")) << "daughter goes with parent";
}

TEST_F(ToyTest, OnlyTheGmRules) {
  fb::CommandT c = Cmd("b", "gm_adjust");
  c.author = "ann";  // a player (kernel/testing/table.h)
  c.text = "healing potion";
  WithText(c, "resource", "hp");
  With(c, "delta", 3);
  EXPECT_EQ(table_.Submit(c).status().code(), absl::StatusCode::kPermissionDenied);
  c.role = fb::Role::GM;
  auto events = table_.Submit(c);
  ASSERT_TRUE(events.ok()) << events.status();
  EXPECT_EQ(table_.state().Find("b")->Resource("hp"), 13);
  bool ruling = false;
  for (const auto& e : *events) {
    if (e.event().body_type() == fb::Body::StateChange &&
        e.event().body_as_StateChange()->change_type() == fb::Change::Ruling) {
      ruling = true;
      EXPECT_EQ(e.event().body_as_StateChange()->change_as_Ruling()->reason()->str(),
                "healing potion");
    }
  }
  EXPECT_TRUE(ruling) << "a GM adjustment is recorded as a ruling";
}

TEST_F(ToyTest, GmConditionExpiryAnchors) {
  fb::CommandT c = Cmd("b", "gm_condition");
  c.role = fb::Role::GM;
  c.text = "smoke";
  WithText(c, "name", "Blinded");
  WithText(c, "op", "add");
  With(c, "rounds", 2);
  ASSERT_TRUE(table_.Submit(c).ok());
  const Condition* turn = table_.state().Find("b")->FindCondition("Blinded");
  ASSERT_NE(turn, nullptr);
  EXPECT_EQ(turn->expiry.kind, fb::ExpiryKind::TurnStart) << "a turn is running";
  EXPECT_EQ(turn->expiry.actor, "b");
  EXPECT_EQ(turn->expiry.round, 3);
  WithText(c, "expires", "round_end");
  WithText(c, "name", "Deafened");
  c.params.erase(c.params.begin());  // the first "name"
  ASSERT_TRUE(table_.Submit(c).ok());
  const Condition* round = table_.state().Find("b")->FindCondition("Deafened");
  ASSERT_NE(round, nullptr);
  EXPECT_EQ(round->expiry.kind, fb::ExpiryKind::RoundEnd);
  fb::CommandT odd = Cmd("b", "gm_condition");
  odd.role = fb::Role::GM;
  odd.text = "smoke";
  WithText(odd, "name", "Blinded");
  WithText(odd, "op", "add");
  With(odd, "rounds", 1);
  WithText(odd, "expires", "someday");
  EXPECT_EQ(table_.Submit(odd).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(ToyTest, GmConditionCanBeSubjective) {
  fb::CommandT c = Cmd("a", "gm_condition");
  c.role = fb::Role::GM;
  c.text = "a is behind the curtain";
  WithText(c, "name", "Hidden");
  WithText(c, "op", "add");
  WithText(c, "relative_to", "b");
  ASSERT_TRUE(table_.Submit(c).ok());
  const Combatant* a = table_.state().Find("a");
  EXPECT_NE(a->FindRelative("Hidden", "b"), nullptr);
  EXPECT_EQ(a->FindRelative("Hidden", "someone else"), nullptr);
  fb::CommandT bad = Cmd("a", "gm_condition");
  bad.role = fb::Role::GM;
  bad.text = "typo";
  WithText(bad, "name", "Hidden");
  WithText(bad, "op", "add");
  WithText(bad, "relative_to", "nobody");
  EXPECT_EQ(table_.Submit(bad).status().code(), absl::StatusCode::kNotFound);
}

TEST_F(ToyTest, GmNeedsAReason) {
  fb::CommandT c = Cmd("b", "gm_adjust");
  c.author = "ann";  // a player (kernel/testing/table.h)
  c.role = fb::Role::GM;
  WithText(c, "resource", "hp");
  With(c, "delta", 3);
  EXPECT_EQ(table_.Submit(c).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(ToyTest, GmDiceOverrideIsLabelled) {
  fb::CommandT c = Cmd("a", "hit", {"b"});
  c.author = "ann";  // a player (kernel/testing/table.h)
  With(c, "dice_override", 1);
  EXPECT_EQ(table_.Submit(c, {6}).status().code(), absl::StatusCode::kPermissionDenied);
  c.role = fb::Role::GM;
  EXPECT_EQ(table_.Submit(c, {6}).status().code(), absl::StatusCode::kInvalidArgument)
      << "an override needs a reason";
  c.text = "the die fell off the table";
  auto events = table_.Submit(c, {6});
  ASSERT_TRUE(events.ok()) << events.status();
  const fb::Roll* roll = (*events)[1].event().body_as_Roll();
  EXPECT_EQ(roll->dice()->Get(0)->provenance(), fb::Provenance::GmOverride);
  EXPECT_EQ(roll->reason()->str(), "the die fell off the table");
}

fb::CommandT VoidOf(uint64_t seq, const std::string& why) {
  fb::CommandT c = Cmd("", "gm_void");
  c.role = fb::Role::GM;
  c.author = "dana";
  c.text = why;
  AddRef(c, "subject", seq);
  return c;
}

TEST_F(ToyTest, VoidedDeclarationStopsCountingWithWhatItCaused) {
  auto first = table_.Submit(Cmd("a", "hit", {"b"}), {4});
  ASSERT_TRUE(first.ok()) << first.status();
  auto second = table_.Submit(Cmd("a", "hit", {"b"}), {3});
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(table_.state().Find("b")->Resource("hp"), 3);
  const uint64_t decl = (*first)[0].event().seq();
  auto voided = table_.Submit(VoidOf(decl, "rolled on the wrong target"));
  ASSERT_TRUE(voided.ok()) << voided.status();
  // The first hit no longer counts; the second still does (its delta).
  EXPECT_EQ(table_.state().Find("b")->Resource("hp"), 7);
  EXPECT_EQ(table_.state().voided, std::vector<uint64_t>{decl});
  EXPECT_TRUE(table_.state().unapplied.empty());
  // The log still holds every event: nothing was deleted.
  EXPECT_EQ(table_.log().size(), table_.state().seq);
  auto replayed = table_.Replay();
  ASSERT_TRUE(replayed.ok()) << replayed.status();
  EXPECT_EQ(EncodeState(*replayed), EncodeState(table_.state()));
  // Play goes on after a void, and replays strictly.
  ASSERT_TRUE(table_.Submit(Cmd("a", "hit", {"b"}), {1}).ok());
  EXPECT_EQ(table_.state().Find("b")->Resource("hp"), 6);
  ASSERT_TRUE(table_.Replay().ok());
}

TEST_F(ToyTest, EventsThatNoLongerApplyAfterAVoidAreListed) {
  auto curse = table_.Submit(Cmd("a", "curse", {"b"}));
  ASSERT_TRUE(curse.ok());
  ASSERT_TRUE(table_.Submit(Cmd("a", "pass")).ok());
  ASSERT_TRUE(table_.Submit(Cmd("b", "pass")).ok());  // the curse expires
  ASSERT_FALSE(table_.state().Find("b")->Has("Cursed"));
  const uint64_t decl = (*curse)[0].event().seq();
  ASSERT_TRUE(table_.Submit(VoidOf(decl, "the curse was never cast")).ok());
  // The expiry removals of the voided conditions no longer apply.
  EXPECT_EQ(table_.state().unapplied.size(), 2u);
  EXPECT_FALSE(table_.state().Find("b")->Has("Cursed"));
  EXPECT_EQ(table_.state().round, 2) << "the turns after the void still count";
  ASSERT_TRUE(table_.Replay().ok());
}

TEST_F(ToyTest, VoidRefusals) {
  EXPECT_EQ(table_.Submit(VoidOf(1, "no")).status().code(),
            absl::StatusCode::kFailedPrecondition)
      << "the session's first event";
  EXPECT_EQ(table_.Submit(VoidOf(10000, "no")).status().code(),
            absl::StatusCode::kInvalidArgument);
  auto hit = table_.Submit(Cmd("a", "hit", {"b"}), {2});
  ASSERT_TRUE(hit.ok());
  const uint64_t decl = (*hit)[0].event().seq();
  auto v = table_.Submit(VoidOf(decl, "undo"));
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(table_.Submit(VoidOf(decl, "again")).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(table_.Submit(VoidOf(v->back().event().seq(), "undo the undo"))
                .status()
                .code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST_F(ToyTest, RevealNeedsTheCommittedSecret) {
  fb::CommandT c = Cmd("", "gm_reveal");
  c.role = fb::Role::GM;
  c.text = "end of session";
  WithText(c, "secret", std::string(64, '0'));
  EXPECT_EQ(table_.Submit(c).status().code(), absl::StatusCode::kFailedPrecondition);
  // The test table's secret is 32 bytes of 0x5a.
  c.params.clear();
  std::string hex;
  for (int i = 0; i < 32; ++i) hex += "5a";
  WithText(c, "secret", hex);
  ASSERT_TRUE(table_.Submit(c).ok());
  EXPECT_EQ(table_.state().revealed_seed, std::vector<uint8_t>(32, 0x5a));
}

// Issue 16: a reveal before the end names the next commitment; the state
// holds it from then on, and its secret (not the old one) is the one a
// later reveal must give. Refused on an ended session. (Its own fixture:
// the GM's commands name their author, as schema 7 requires.)
class RevealTest : public ::testing::Test {
 protected:
  fb::CommandT Gm(const std::string& action, const std::string& text) {
    fb::CommandT c = Cmd("", action);
    c.role = fb::Role::GM;
    c.author = "gm";
    c.text = text;
    return c;
  }
  Toy toy_;
  Table table_{toy_, TwoFighters()};
};

TEST_F(RevealTest, ARevealMidSessionMovesTheCommitmentOn) {
  std::string old_hex, fresh_hex;
  for (int i = 0; i < 32; ++i) old_hex += "5a", fresh_hex += "07";
  const std::vector<uint8_t> fresh(32, 0x07);
  const std::vector<uint8_t> next = dice::SeededDice::Commitment(fresh);
  ASSERT_TRUE(table_.status().ok()) << table_.status();
  fb::CommandT c = Gm("gm_reveal", "mid-session");
  WithText(c, "secret", old_hex);
  WithText(c, "next_commitment", "abc");
  EXPECT_EQ(table_.Submit(c).status().code(), absl::StatusCode::kInvalidArgument);
  c.params.clear();
  WithText(c, "secret", old_hex);
  WithText(c, "next_commitment", events::Hex(next));
  const uint64_t seq = table_.state().seq;
  auto r = table_.Submit(c);
  ASSERT_TRUE(r.ok()) << r.status();
  const fb::SeedRevealed* ev = r->back().event().body_as_StateChange()->change_as_SeedRevealed();
  ASSERT_NE(ev, nullptr);
  ASSERT_NE(ev->next_commitment(), nullptr);
  EXPECT_EQ(std::vector<uint8_t>(ev->next_commitment()->begin(), ev->next_commitment()->end()),
            next);
  EXPECT_EQ(table_.state().dice_commitment, next);
  EXPECT_EQ(table_.state().revealed_seed, std::vector<uint8_t>(32, 0x5a));
  EXPECT_GT(table_.state().seq, seq);
  // The old secret again: not the commitment in force.
  c.params.clear();
  WithText(c, "secret", old_hex);
  EXPECT_EQ(table_.Submit(c).status().code(), absl::StatusCode::kFailedPrecondition);
  // The fresh one, at the end: no next commitment on an ended session.
  auto ended = table_.Submit(Gm("gm_end", "done"));
  ASSERT_TRUE(ended.ok()) << ended.status();
  c.params.clear();
  WithText(c, "secret", fresh_hex);
  WithText(c, "next_commitment", events::Hex(dice::SeededDice::Commitment(
                                     std::vector<uint8_t>(32, 0x08))));
  EXPECT_EQ(table_.Submit(c).status().code(), absl::StatusCode::kFailedPrecondition);
  c.params.clear();
  WithText(c, "secret", fresh_hex);
  ASSERT_TRUE(table_.Submit(c).ok());
  EXPECT_EQ(table_.state().revealed_seed, fresh);
  EXPECT_EQ(table_.state().dice_commitment, next);
  EXPECT_EQ(table_.Submit(c).status().code(), absl::StatusCode::kFailedPrecondition)
      << "already revealed";
}

TEST_F(ToyTest, ReplayGivesTheSameBytes) {
  ASSERT_TRUE(table_.Submit(Cmd("a", "hit", {"b"})).ok());
  ASSERT_TRUE(table_.Submit(Cmd("a", "curse", {"b"})).ok());
  ASSERT_TRUE(table_.Submit(Cmd("a", "pass")).ok());
  auto replayed = table_.Replay();
  ASSERT_TRUE(replayed.ok()) << replayed.status();
  EXPECT_EQ(EncodeState(*replayed), EncodeState(table_.state()));
}

TEST_F(ToyTest, StateDecodesToTheSameBytes) {
  ASSERT_TRUE(table_.Submit(Cmd("a", "curse", {"b"})).ok());
  const std::vector<uint8_t> bytes = EncodeState(table_.state());
  auto decoded = DecodeState(bytes.data(), bytes.size());
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_EQ(EncodeState(*decoded), bytes);
  std::vector<uint8_t> bad = bytes;
  bad[bad.size() / 2] ^= 0x40;
  // A damaged snapshot either fails to decode or hashes differently, so the
  // recorded state hash of its event exposes it.
  auto damaged = DecodeState(bad.data(), bad.size());
  if (damaged.ok()) {
    EXPECT_NE(StateHash(*damaged), StateHash(table_.state()));
  }
}

}  // namespace
}  // namespace combat::kernel
