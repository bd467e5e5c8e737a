// Explain: an event's causal chain (rule with its seed reference, dice with
// provenance, the arithmetic, authors, rulings and voids) and a value's
// history.
#include "replay/explain.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "kernel/command.h"
#include "replay/testing/fixture.h"

namespace combat::replay {
namespace {

using testing::ToyCmd;

class ExplainTest : public testing::ToyFixture {
 protected:
  std::string Run(ExplainRequest req) {
    req.session = "s1";
    auto r = Explain(engine_->log(), &testing::Toy(), req);
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? *r : "";
  }
};

TEST_F(ExplainTest, AnEventBackToItsDeclaration) {
  const std::string x = Active(), y = Other(x);
  const auto hit = Do(ToyCmd("c1", x, "attack", {y}, {15, 6}));
  const uint64_t damage = hit.back().event().seq();
  fb::CommandT note = ToyCmd("g1", "", "gm_note");
  note.role = fb::Role::GM;
  note.author = "dana";
  note.text = "the sword was blessed, allowed";
  for (auto [k, t, v] : std::vector<std::tuple<std::string, std::string, int64_t>>{
           {"kind", "allow", 0}}) {
    auto p = std::make_unique<fb::ParamT>();
    p->key = k;
    p->text = t;
    p->value = v;
    note.params.push_back(std::move(p));
  }
  kernel::AddRef(note, "subject", damage);
  Do(note);
  ExplainRequest req;
  req.event = damage;
  const std::string text = Run(req);
  for (const std::string& want : {
           std::string("rule toy.attack.damage: toy_seed.txt, \"Attack\", line 14"),
           std::string("numbers used: d20=15, atk=2, total=17, def=12, damage=6"),
           std::string("because of #") + std::to_string(hit.front().event().seq()),
           std::string("a declaration by ") + x + " (Player)",
           std::string("d20 = 15 (roll index"),
           std::string("manual: physical dice entered at the table"),
           std::string("arithmetic: 1d20+2 = 15 + 2 = 17"),
           std::string("<- this event"),
           std::string("GM rulings on the way:"),
           std::string("the sword was blessed"),
           std::string("(by dana (GM))"),
           std::string(" counts"),
       }) {
    EXPECT_NE(text.find(want), std::string::npos) << "missing: " << want << "\n" << text;
  }
}

TEST_F(ExplainTest, AValueHistoryWithAVoid) {
  const std::string x = Active(), y = Other(x);
  Do(ToyCmd("c1", x, "attack", {y}, {15, 6}));
  const auto second = Do(ToyCmd("c2", x, "attack", {y}, {16, 2}));
  fb::CommandT v = ToyCmd("v", "", "gm_void");
  v.role = fb::Role::GM;
  v.author = "dana";
  v.text = "misclick";
  kernel::AddRef(v, "subject", static_cast<uint64_t>(second.front().event().seq()));
  Do(v);
  ExplainRequest req;
  req.combatant = y;
  req.resource = "hp";
  const std::string text = Run(req);
  EXPECT_NE(text.find(y + " hp = 4"), std::string::npos) << text;
  EXPECT_NE(text.find("hp = 10  [toy.join]"), std::string::npos) << text;
  EXPECT_NE(text.find("hp -2 -> 2  [toy.attack.damage"), std::string::npos) << text;
  EXPECT_NE(text.find("[VOIDED: no longer counts]"), std::string::npos) << text;
  EXPECT_NE(text.find("the last change that counts, explained:\nevent #"),
            std::string::npos) << text;
  EXPECT_EQ(text.find("voids:"), std::string::npos)
      << "the void of c2 is not on the way of the last counting change\n" << text;
  // The voided event itself names its void.
  ExplainRequest ev;
  ev.event = second.back().event().seq();
  const std::string voided = Run(ev);
  EXPECT_NE(voided.find("voids:"), std::string::npos) << voided;
  EXPECT_NE(voided.find("misclick"), std::string::npos) << voided;
  EXPECT_NE(voided.find("VOIDED"), std::string::npos) << voided;
}

TEST_F(ExplainTest, APendingActAndItsDeclaration) {
  const std::string x = Active(), y = Other(x);
  const auto ready = Do(ToyCmd("r1", x, "ready", {y}));
  const uint64_t decl = ready.front().event().seq();
  const uint64_t opened = ready.back().event().seq();
  ExplainRequest open_req;
  open_req.pending = 1;
  const std::string open_text = Run(open_req);
  EXPECT_NE(open_text.find("pending #1 is open: kind: readied; actor: " + x + "; decl: #" +
                           std::to_string(decl) + "; command: " + x + ": attack " + y),
            std::string::npos)
      << open_text;

  fb::CommandT release = ToyCmd("r2", x, "release");
  const auto released = Do(testing::AddRef(release, "act", 0, 0, 1));
  const uint64_t closed = released.back().event().seq();
  ExplainRequest ev;
  ev.event = closed;
  const std::string why = Run(ev);
  EXPECT_NE(why.find("pending #1 carries the declaration #" + std::to_string(decl) + ":\n  #" +
                     std::to_string(decl) + " declare  " + x + ": ready " + y),
            std::string::npos)
      << why;

  ExplainRequest history;
  history.pending = 1;
  const std::string text = Run(history);
  EXPECT_NE(text.find("pending #1 is not open\nhistory:\n  #" + std::to_string(opened) +
                      " change   pending #1 (readied)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("#" + std::to_string(closed) + " change   pending #1 ends: fired"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("release act->pending #1"), std::string::npos) << text;
  EXPECT_NE(text.find("the last change that counts, explained:\nevent #" +
                      std::to_string(closed)),
            std::string::npos)
      << text;
}

// A GM's gm_condition on `who` with `params` (name, op, rounds, expires).
fb::CommandT GmCondition(const std::string& id, const std::string& who,
                         std::vector<std::pair<std::string, std::string>> params) {
  fb::CommandT gm = ToyCmd(id, "", "gm_condition");
  gm.actor = who;
  gm.role = fb::Role::GM;
  gm.author = "dana";
  gm.text = "ruled";
  for (auto& [k, t] : params) {
    auto p = std::make_unique<fb::ParamT>();
    p->key = k;
    if (k == "rounds") {
      p->value = std::stoll(t);
    } else {
      p->text = t;
    }
    gm.params.push_back(std::move(p));
  }
  return gm;
}

// Two instances of one condition: the one added first is in force, the
// other was added later and has expired. The change that counts is the
// addition of the one in force, not the later removal of the other.
TEST_F(ExplainTest, AConditionInForceIsExplainedByItsAddition) {
  const std::string x = Active(), y = Other(x);
  const auto lasting = Do(GmCondition("g1", y, {{"name", "Down"}, {"op", "add"}}));
  const uint64_t added = lasting.back().event().seq();
  Do(GmCondition("g2", y,
                 {{"name", "Down"}, {"op", "add"}, {"rounds", "0"}, {"expires", "round_end"}}));
  // Turns end until the round does (a Down creature takes no turn).
  bool expired = false;
  for (int i = 0; i < 2 && !expired; ++i) {
    for (const auto& b : Do(ToyCmd("e" + std::to_string(i), Active(), "end_turn"))) {
      const fb::Event& e = b.event();
      if (e.body_type() == fb::Body::StateChange &&
          e.body_as_StateChange()->change_as_ConditionRemoved() != nullptr) {
        expired = true;
      }
    }
  }
  ASSERT_TRUE(expired) << "the second Down should end with the round";
  ExplainRequest req;
  req.combatant = y;
  req.condition = "Down";
  const std::string text = Run(req);
  EXPECT_NE(text.find(y + " has Down"), std::string::npos) << text;
  EXPECT_NE(text.find("the last change that counts, explained:\nevent #" +
                      std::to_string(added)),
            std::string::npos)
      << text;
}

TEST_F(ExplainTest, BadRequests) {
  ExplainRequest req;
  req.session = "s1";
  EXPECT_EQ(Explain(engine_->log(), nullptr, req).status().code(),
            absl::StatusCode::kInvalidArgument);
  req.combatant = "nobody";
  req.resource = "hp";
  EXPECT_EQ(Explain(engine_->log(), nullptr, req).status().code(),
            absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace combat::replay
