// What-if with the real energy_rounds ruleset (seed 002), where every act
// opens a window and interrupts name windows by id: ids follow the order
// windows open, so a re-run that opens fewer of them renumbers the later
// ones, and an interrupt must follow its window to the re-run of the act
// that opened it (replay/whatif.h). The roster is the bundled skirmish's
// (replay/examples/energy_skirmish.json).
#include <stdlib.h>

#include <map>

#include "absl/strings/str_cat.h"
#include "events/json.h"
#include "gtest/gtest.h"
#include "replay/engine.h"
#include "replay/testing/script_session.h"
#include "replay/verify.h"
#include "replay/whatif.h"

namespace combat::replay {
namespace {

// orc1 swings (window 1), orc2 swings (window 2), kara interrupts orc2's
// swing (window 2) with a shift, winning the Initiative roll.
// The commands only; the roster is the bundled example's.
constexpr char kCommands[] = R"JSON({"commands": [
 {"id": "c1", "actor": "orc1", "author": "gm", "action": "melee", "targets": ["kara"],
  "text": "window 1"},
 {"id": "c2", "actor": "orc2", "author": "gm", "action": "melee", "targets": ["kara"],
  "text": "window 2"},
 {"id": "c3", "actor": "kara", "author": "ana", "action": "interrupt", "window": 2,
  "path": [{"x": 4, "y": 4}], "params": [{"key": "act", "text": "shift"}],
  "text": "Initiative 12+2 against orc2's 9", "dice": [12, 9]}
]})JSON";

class EnergyWhatIfTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto session = testing::ScriptSession::Open(
        testing::ReadWorkspaceFile("replay/examples/energy_skirmish.json"), "ford", 9);
    ASSERT_TRUE(session.ok()) << session.status();
    session_ = *std::move(session);
    engine_ = &session_->engine();
    auto commands = events::ParseScript(kCommands);
    ASSERT_TRUE(commands.ok()) << commands.status();
    for (const auto& c : commands->commands) {
      auto r = engine_->Submit("ford", "main", *c);
      ASSERT_TRUE(r.ok()) << c->id << ": " << r.status();
      seq_[c->id] = r->events.front().event().seq();
    }
    auto s = engine_->StateAt("ford", "main");
    ASSERT_TRUE(s.ok()) << s.status();
    ASSERT_EQ(s->Find("kara")->at.x, 4) << "kara's shift happened on main";
  }
  WhatIfResult Drop(const std::string& branch, const std::string& command) {
    WhatIfRequest req;
    req.session = "ford";
    req.branch = branch;
    req.author = "dana";
    req.reason = "what if it had not happened";
    req.change.kind = WhatIfChange::Kind::kDrop;
    req.change.seq = seq_[command];
    auto r = engine_->WhatIf(req);
    EXPECT_TRUE(r.ok()) << r.status();
    if (r.ok() && getenv("SHOW_REPORTS")) printf("%s", RenderWhatIf(*r).c_str());
    return r.ok() ? *r : WhatIfResult();
  }
  const Rerun* RerunOf(const WhatIfResult& r, const std::string& id) {
    for (const Rerun& x : r.reruns) {
      if (x.command_id == id) return &x;
    }
    return nullptr;
  }

  std::unique_ptr<testing::ScriptSession> session_;
  Engine* engine_ = nullptr;
  std::map<std::string, uint64_t> seq_;
};

TEST_F(EnergyWhatIfTest, AnInterruptFollowsItsWindowWhenEarlierWindowsAreGone) {
  WhatIfResult r = Drop("no-orc1", "c1");
  const Rerun* c3 = RerunOf(r, "c3");
  ASSERT_NE(c3, nullptr);
  ASSERT_EQ(c3->outcome, Rerun::Outcome::kApplied) << RenderWhatIf(r);
  // On the new branch orc2's swing opened window 1: the interrupt names it.
  auto events = engine_->Events("ford", "no-orc1");
  ASSERT_TRUE(events.ok());
  const auto& first = (*events)[c3->first - 1].event();
  ASSERT_EQ(first.body_type(), fb::Body::Interrupt);
  EXPECT_EQ(first.body_as_Interrupt()->window(), 1u);
  auto s = engine_->StateAt("ford", "no-orc1");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->Find("kara")->at.x, 4);
  EXPECT_EQ(s->Find("kara")->at.y, 4);
  EXPECT_EQ(s->windows.count(2), 0u) << "only one window was ever opened here";

  auto rules = engine_->RulesetOf("ford");
  ASSERT_TRUE(rules.ok());
  auto v = VerifySession(engine_->log(), *rules, "ford", "", true, {});
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_TRUE(v->ok()) << RenderVerifyReport(*v);
}

TEST_F(EnergyWhatIfTest, AnInterruptWhoseWindowWasNeverOpenedNoLongerApplies) {
  WhatIfResult r = Drop("no-orc2", "c2");
  auto gone = r.NoLongerApply();
  ASSERT_EQ(gone.size(), 1u) << RenderWhatIf(r);
  EXPECT_EQ(gone[0]->command_id, "c3");
  EXPECT_NE(gone[0]->why.find(absl::StrCat("its window 2, opened by main#", seq_["c2"])),
            std::string::npos)
      << gone[0]->why;
  auto s = engine_->StateAt("ford", "no-orc2");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->Find("kara")->at.x, 5) << "kara never moved";
}

}  // namespace
}  // namespace combat::replay
