// What-if against a real RocksDB with the toy ruleset: a changed attack
// roll reports exactly the later declarations that became illegal; the
// changed die is labelled; a plain re-run reproduces the head state; rulings
// can be dropped or inserted and GM verbs follow their subjects; the new
// branch verifies.
#include "replay/state_diff.h"
#include "replay/whatif.h"

#include <iostream>

#include "gtest/gtest.h"
#include "kernel/command.h"
#include "kernel/state_codec.h"
#include "replay/testing/fixture.h"
#include "replay/verify.h"

namespace combat::replay {
namespace {

using testing::ToyCmd;

class WhatIfTest : public testing::ToyFixture {
 protected:
  // X hits Y twice (Y goes Down), ends the turn (Y is skipped: a new
  // round, X again), finishes Y off with a coup, ends the turn.
  void SetUp() override {
    ToyFixture::SetUp();
    x_ = Active();
    y_ = Other(x_);
    Do(ToyCmd("c1", x_, "attack", {y_}, {15, 6}));          // y hp 4
    second_ = Do(ToyCmd("c2", x_, "attack", {y_}, {14, 5}));  // y hp -1: Down
    Do(ToyCmd("c3", x_, "end_turn"));
    Do(ToyCmd("c4", x_, "coup", {y_}));
    Do(ToyCmd("c5", x_, "end_turn"));
    ASSERT_TRUE(StateOf().Find(y_)->Has("Dead"));
  }

  WhatIfResult Run(WhatIfRequest req) {
    req.session = "s1";
    if (req.author.empty()) req.author = "dana";
    if (req.reason.empty()) req.reason = "what if";
    auto r = WhatIf(engine_->log(), testing::Toy(), req);
    EXPECT_TRUE(r.ok()) << r.status();
    if (r.ok() && getenv("SHOW_REPORTS")) std::cout << RenderWhatIf(*r);
    return r.ok() ? *r : WhatIfResult();
  }

  uint64_t AttackRollOf(const std::vector<events::EventBuffer>& evs) {
    for (const auto& e : evs) {
      if (e.event().body_type() == fb::Body::Roll &&
          e.event().body_as_Roll()->purpose()->str() == "attack") {
        return e.event().seq();
      }
    }
    return 0;
  }

  std::string x_, y_;
  std::vector<events::EventBuffer> second_;
};

TEST_F(WhatIfTest, AMissedAttackReportsExactlyTheDeclarationsThatBecameIllegal) {
  WhatIfRequest req;
  req.branch = "miss";
  req.change.kind = WhatIfChange::Kind::kDie;
  req.change.seq = AttackRollOf(second_);
  req.change.die = 0;
  req.change.value = 1;
  WhatIfResult r = Run(req);
  EXPECT_EQ(r.fork_seq, second_.front().event().seq() - 1);
  ASSERT_EQ(r.reruns.size(), 4u) << RenderWhatIf(r);
  EXPECT_TRUE(r.reruns[0].changed);
  EXPECT_EQ(r.reruns[0].outcome, Rerun::Outcome::kApplied);
  EXPECT_EQ(r.reruns[1].outcome, Rerun::Outcome::kApplied) << "c3: end_turn";
  auto gone = r.NoLongerApply();
  ASSERT_EQ(gone.size(), 2u) << RenderWhatIf(r);
  EXPECT_EQ(gone[0]->command_id, "c4");
  EXPECT_NE(gone[0]->why.find("not " + x_ + "'s turn"), std::string::npos)
      << gone[0]->why;
  EXPECT_EQ(gone[0]->code, absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(gone[1]->command_id, "c5");
  const std::string text = RenderWhatIf(r);
  EXPECT_NE(text.find("2 later declarations no longer apply"), std::string::npos) << text;

  kernel::State s = StateOf("miss");
  EXPECT_EQ(s.Find(y_)->Resource("hp"), 4);
  EXPECT_FALSE(s.Find(y_)->Has("Down"));
  EXPECT_EQ(s.active, y_);
  // The changed die is labelled, with the change as its reason.
  auto evs = engine_->Events("s1", "miss", r.fork_seq + 1, r.fork_seq + 4);
  ASSERT_TRUE(evs.ok());
  const uint64_t roll = AttackRollOf(*evs);
  ASSERT_NE(roll, 0u);
  const fb::Roll* rr = (*evs)[roll - r.fork_seq - 1].event().body_as_Roll();
  EXPECT_EQ(rr->dice()->Get(0)->value(), 1);
  EXPECT_EQ(rr->dice()->Get(0)->provenance(), fb::Provenance::GmOverride);
  EXPECT_NE(rr->reason()->str().find("set to 1 (was 14)"), std::string::npos)
      << rr->reason()->str();
  // The fork records who and why.
  auto meta = engine_->log().GetBranch("s1", "miss");
  ASSERT_TRUE(meta.ok());
  EXPECT_EQ(meta->author, "dana");
  EXPECT_NE(meta->reason.find("what-if: die 1 of roll"), std::string::npos);

  // The new branch verifies: re-decided with its recorded (relabelled) dice.
  auto v = VerifySession(engine_->log(), &testing::Toy(), "s1", "miss", false, {});
  ASSERT_TRUE(v.ok());
  EXPECT_TRUE(v->ok()) << RenderVerifyReport(*v);
}

TEST_F(WhatIfTest, APlainReRunReproducesTheHeadState) {
  WhatIfRequest req;
  req.branch = "again";
  req.at = second_.front().event().seq() - 1;
  WhatIfResult r = Run(req);
  ASSERT_EQ(r.reruns.size(), 4u);
  for (const Rerun& x : r.reruns) {
    EXPECT_EQ(x.outcome, Rerun::Outcome::kApplied) << x.description;
    EXPECT_TRUE(x.same_events) << x.description;
  }
  EXPECT_TRUE(r.NoLongerApply().empty());
  // The same state, one event later (the branch's fork record).
  kernel::State again = StateOf("again");
  const kernel::State main = StateOf();
  EXPECT_EQ(again.seq, main.seq + 1);
  EXPECT_TRUE(DiffStates(again, main, /*include_seq=*/false).empty())
      << RenderDiffs(DiffStates(again, main, false), " | ", "  ");
  // Reused manual dice are relabelled GmOverride, naming where they came from.
  auto evs = engine_->Events("s1", "again", r.fork_seq + 1, 0);
  ASSERT_TRUE(evs.ok());
  const fb::Roll* first = nullptr;
  for (const auto& e : *evs) {
    if (e.event().body_type() == fb::Body::Roll) {
      first = e.event().body_as_Roll();
      break;
    }
  }
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->dice()->Get(0)->provenance(), fb::Provenance::GmOverride);
  EXPECT_EQ(first->reason()->str(),
            "what-if: reused from main#" + std::to_string(AttackRollOf(second_)));
}

TEST_F(WhatIfTest, AForkInsideACommandIsRefusedAndNothingIsWritten) {
  WhatIfRequest req;
  req.branch = "bad";
  req.at = second_.front().event().seq();  // the declaration: mid-command
  req.session = "s1";
  req.author = "dana";
  req.reason = "x";
  auto r = WhatIf(engine_->log(), testing::Toy(), req);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << r.status();
  EXPECT_EQ(engine_->log().GetBranch("s1", "bad").status().code(),
            absl::StatusCode::kNotFound);
  req.change.kind = WhatIfChange::Kind::kDie;
  req.change.seq = AttackRollOf(second_);
  req.change.value = 21;
  EXPECT_EQ(WhatIf(engine_->log(), testing::Toy(), req).status().code(),
            absl::StatusCode::kInvalidArgument);
  req.change.value = 0;
  req.change.die = 3;
  EXPECT_EQ(WhatIf(engine_->log(), testing::Toy(), req).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST_F(WhatIfTest, InsertingARulingMakesLaterDeclarationsIllegal) {
  // The GM rules Y down right after the first attack.
  WhatIfRequest req;
  req.branch = "ruled";
  req.at = second_.front().event().seq() - 1;
  req.change.kind = WhatIfChange::Kind::kInsert;
  fb::CommandT gm = ToyCmd("", "", "gm_condition");
  gm.actor = y_;
  gm.role = fb::Role::GM;
  gm.author = "dana";
  gm.text = "knocked out by the fall";
  for (auto [k, t] : std::vector<std::pair<std::string, std::string>>{
           {"name", "Down"}, {"op", "add"}}) {
    auto p = std::make_unique<fb::ParamT>();
    p->key = k;
    p->text = t;
    gm.params.push_back(std::move(p));
  }
  req.change.command = gm;
  WhatIfResult r = Run(req);
  ASSERT_EQ(r.reruns.size(), 5u) << RenderWhatIf(r);
  EXPECT_TRUE(r.reruns[0].changed);
  EXPECT_EQ(r.reruns[0].outcome, Rerun::Outcome::kApplied) << RenderWhatIf(r);
  auto gone = r.NoLongerApply();
  ASSERT_EQ(gone.size(), 1u) << RenderWhatIf(r);
  EXPECT_EQ(gone[0]->command_id, "c2");
  EXPECT_NE(gone[0]->why.find("is Down"), std::string::npos);
}

TEST_F(WhatIfTest, GmVerbsFollowTheirSubjectsAndDroppingOneOrphansThem) {
  // On main: the GM voids the coup.
  auto coup = engine_->log().FindCommand("s1", "main", "c4");
  ASSERT_TRUE(coup.ok() && coup->has_value());
  const uint64_t coup_seq = (*coup)->first_seq;
  fb::CommandT v = ToyCmd("v1", "", "gm_void");
  v.role = fb::Role::GM;
  v.author = "dana";
  v.text = "too harsh";
  kernel::AddRef(v, "subject", static_cast<uint64_t>(coup_seq));
  Do(v);
  ASSERT_FALSE(StateOf().Find(y_)->Has("Dead"));

  // A re-run from before the first attack: an extra exchange first shifts
  // every later seq, and the void must follow the coup.
  WhatIfRequest req;
  req.branch = "shifted";
  req.at = second_.front().event().seq() - 1;
  req.change.kind = WhatIfChange::Kind::kInsert;
  fb::CommandT note = ToyCmd("n1", "", "gm_note");
  note.role = fb::Role::GM;
  note.author = "dana";
  note.text = "a bird flies by";
  auto p = std::make_unique<fb::ParamT>();
  p->key = "kind";
  p->text = "note";
  note.params.push_back(std::move(p));
  req.change.command = note;
  WhatIfResult r = Run(req);
  EXPECT_TRUE(r.NoLongerApply().empty()) << RenderWhatIf(r);
  kernel::State s = StateOf("shifted");
  ASSERT_EQ(s.voided.size(), 1u);
  EXPECT_EQ(s.voided[0], coup_seq + 3)
      << "the branch's fork record and the note's two events come before it";
  EXPECT_FALSE(s.Find(y_)->Has("Dead"));

  // Dropping the coup leaves the void with nothing to void.
  WhatIfRequest drop;
  drop.branch = "nocoup";
  drop.change.kind = WhatIfChange::Kind::kDrop;
  drop.change.seq = coup_seq;
  WhatIfResult d = Run(drop);
  auto gone = d.NoLongerApply();
  ASSERT_EQ(gone.size(), 1u) << RenderWhatIf(d);
  EXPECT_EQ(gone[0]->command_id, "v1");
  EXPECT_NE(gone[0]->why.find("was not re-run"), std::string::npos);
  EXPECT_EQ(d.reruns[0].outcome, Rerun::Outcome::kDropped);
}

TEST_F(WhatIfTest, ReplacingADeclaration) {
  // c2 becomes an end_turn: the coup then is not X's (Y's turn comes).
  WhatIfRequest req;
  req.branch = "replaced";
  req.change.kind = WhatIfChange::Kind::kReplace;
  req.change.seq = second_.front().event().seq();
  req.change.command = ToyCmd("", x_, "end_turn");
  req.change.command.author = "";  // as from a command file without one
  WhatIfResult r = Run(req);
  ASSERT_EQ(r.reruns.size(), 4u) << RenderWhatIf(r);
  // The replacement is declared by who asked for the what-if, as the GM.
  auto evs = engine_->Events("s1", "replaced", second_.front().event().seq(),
                             second_.front().event().seq());
  ASSERT_TRUE(evs.ok() && evs->size() == 1u);
  EXPECT_EQ(evs->front().event().author()->str(), "dana");
  EXPECT_EQ(evs->front().event().role(), fb::Role::GM);
  EXPECT_NE(r.change.find("(by dana, GM)"), std::string::npos) << r.change;
  EXPECT_TRUE(r.reruns[0].changed);
  EXPECT_EQ(r.reruns[0].command_id, "c2");
  auto gone = r.NoLongerApply();
  ASSERT_EQ(gone.size(), 3u) << RenderWhatIf(r);
  EXPECT_EQ(gone[0]->command_id, "c3");
}

}  // namespace
}  // namespace combat::replay
