// What-if follows a command's typed references (Command.refs) to the new
// branch: pending acts renumbered by a dropped command map to the re-run's,
// events by seq to their re-runs; a reference whose target is gone makes
// the command no longer apply, naming the ref. Toy ruleset: ready/release.
#include "replay/whatif.h"

#include <string>

#include "gtest/gtest.h"
#include "replay/testing/fixture.h"
#include "replay/verify.h"

namespace combat::replay {
namespace {

using testing::AddRef;
using testing::ToyCmd;

class WhatIfRefsTest : public testing::ToyFixture {
 protected:
  // X readies two attacks on Y (pending acts #1 and #2).
  void SetUp() override {
    ToyFixture::SetUp();
    x_ = Active();
    y_ = Other(x_);
    first_ = Do(ToyCmd("r1", x_, "ready", {y_})).front().event().seq();
    second_ = Do(ToyCmd("r2", x_, "ready", {y_})).front().event().seq();
    ASSERT_EQ(StateOf().pending.size(), 2u);
  }

  fb::CommandT Release(const std::string& id, uint32_t act, uint64_t cue) {
    fb::CommandT c = ToyCmd(id, x_, "release");
    AddRef(c, "act", 0, 0, act);
    return AddRef(c, "cue", cue);
  }

  WhatIfResult DropFirst(const std::string& branch) {
    WhatIfRequest req;
    req.session = "s1";
    req.author = "dana";
    req.reason = "what if X readied once";
    req.branch = branch;
    req.change.kind = WhatIfChange::Kind::kDrop;
    req.change.seq = first_;
    auto r = WhatIf(engine_->log(), testing::Toy(), req);
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? *r : WhatIfResult();
  }

  // The PendingClosed events of `branch`: (act id, cue number).
  std::vector<std::pair<uint32_t, int64_t>> Closes(const std::string& branch) {
    std::vector<std::pair<uint32_t, int64_t>> out;
    auto evs = engine_->Events("s1", branch, 1, HeadOf(branch));
    EXPECT_TRUE(evs.ok());
    for (const auto& e : *evs) {
      const auto* sc = e.event().body_as_StateChange();
      const auto* c = sc == nullptr ? nullptr : sc->change_as_PendingClosed();
      if (c == nullptr) continue;
      int64_t cue = 0;
      if (sc->numbers() != nullptr) {
        for (const fb::Number* n : *sc->numbers()) {
          if (n->key()->str() == "cue") cue = n->value();
        }
      }
      out.emplace_back(c->id(), cue);
    }
    return out;
  }

  std::string x_, y_;
  uint64_t first_ = 0, second_ = 0;
};

TEST_F(WhatIfRefsTest, PendingAndSeqRefsFollowTheirTargets) {
  Do(Release("c3", 2, second_));
  ASSERT_EQ(Closes("main"), (std::vector<std::pair<uint32_t, int64_t>>{
                                {2, static_cast<int64_t>(second_)}}));

  WhatIfResult r = DropFirst("once");
  EXPECT_TRUE(r.NoLongerApply().empty()) << RenderWhatIf(r);
  ASSERT_EQ(r.reruns.size(), 3u) << RenderWhatIf(r);
  EXPECT_EQ(r.reruns[2].outcome, Rerun::Outcome::kApplied) << RenderWhatIf(r);
  // r2's re-run opened act #1 (r1's is gone) and its declaration moved to
  // r1's place, after the branch's fork record: the release names both anew.
  EXPECT_EQ(Closes("once"), (std::vector<std::pair<uint32_t, int64_t>>{
                                {1, static_cast<int64_t>(first_ + 1)}}));
  EXPECT_TRUE(StateOf("once").pending.empty());

  auto v = VerifySession(engine_->log(), &testing::Toy(), "s1", "once", false, {});
  ASSERT_TRUE(v.ok());
  EXPECT_TRUE(v->ok()) << RenderVerifyReport(*v);
}

TEST_F(WhatIfRefsTest, ARefThatNoLongerMapsNamesItsKey) {
  Do(Release("c3", 2, first_));  // its cue is r1's declaration
  Do(Release("c4", 1, 0));       // r1's act
  WhatIfResult r = DropFirst("once");
  auto gone = r.NoLongerApply();
  ASSERT_EQ(gone.size(), 2u) << RenderWhatIf(r);
  EXPECT_EQ(gone[0]->command_id, "c3");
  EXPECT_EQ(gone[0]->code, absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(gone[0]->why, "refs[key=cue]: its seq, event main#" + std::to_string(first_) +
                              ", was not re-run on this branch");
  EXPECT_EQ(gone[1]->command_id, "c4");
  EXPECT_EQ(gone[1]->why, "refs[key=act]: its pending act #1, opened by main#" +
                              std::to_string(first_) + ", was not opened again on this branch");
  // r2's act stays open on the new branch, as #1, declared after the
  // branch's fork record.
  kernel::State s = StateOf("once");
  ASSERT_EQ(s.pending.size(), 1u);
  EXPECT_EQ(s.pending.begin()->first, 1u);
  EXPECT_EQ(s.pending.begin()->second.decl, first_ + 1);
}

TEST_F(WhatIfRefsTest, RefsToWhatWasOpenAtTheForkStay) {
  // Fork after both readies: the release's act and cue are before the fork.
  Do(Release("c3", 2, second_));
  WhatIfRequest req;
  req.session = "s1";
  req.author = "dana";
  req.reason = "again";
  req.branch = "again";
  req.at = HeadOf() - 2;  // before c3 (a declaration and a close)
  auto r = WhatIf(engine_->log(), testing::Toy(), req);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->reruns.size(), 1u) << RenderWhatIf(*r);
  EXPECT_TRUE(r->reruns[0].same_events) << RenderWhatIf(*r);
  EXPECT_EQ(Closes("again"), Closes("main"));
}

}  // namespace
}  // namespace combat::replay
