// Pending acts: an act paid over three turns from a budget resource (seed
// 001: actions costing more AP than you have), and the reducer's checks of
// forged pending events.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernel/changes.h"
#include "kernel/pending.h"
#include "kernel/reducer.h"
#include "kernel/state_codec.h"
#include "kernel/testing/roster.h"
#include "kernel/testing/scene.h"
#include "kernel/testing/table.h"

namespace combat::kernel {
namespace {

using testing::AsChange;
using testing::Cmd;
using testing::Creature;
using testing::Scene;
using testing::TestWhy;

class PayingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(s_.status().ok()) << s_.status();
    ASSERT_TRUE(SetOrder(s_.d(), {{"mage", 12, false, {}}, {"troll", 5, false, {}}},
                         TestWhy())
                    .ok());
    s_.Next();
  }

  // Round `round`: the mage's turn starts with 2 AP.
  void StartMageTurn() {
    Decision& d = s_.Next();
    ASSERT_TRUE(StartRound(d, TestWhy()).ok());
    ASSERT_TRUE(StartTurn(d, "mage", TestWhy()).ok());
    ASSERT_TRUE(SetResource(d, "mage", "ap", 2, TestWhy()).ok());
  }
  void EndRound() {
    Decision& d = s_.Next();
    ASSERT_TRUE(EndTurn(d, "mage", TestWhy()).ok());
    ASSERT_TRUE(StartTurn(d, "troll", TestWhy()).ok());
    ASSERT_TRUE(EndTurn(d, "troll", TestWhy()).ok());
    ASSERT_TRUE(kernel::EndRound(d, TestWhy()).ok());
  }
  // Opens the 5-AP ritual as a "paying" act; returns its id.
  uint32_t DeclareRitual() {
    Decision& d = s_.Next();
    const fb::CommandT ritual = Cmd("mage", "ritual", {"troll"});
    auto decl = d.Declare(ritual);
    EXPECT_TRUE(decl.ok());
    NewPending p;
    p.kind = kPaying;
    p.actor = "mage";
    p.decl = *decl;
    p.command = ritual;
    p.cost_due = 5;
    p.span = fb::Span::Rounds;
    p.budget = "ap";
    auto id = OpenPending(d, p, TestWhy(*decl));
    EXPECT_TRUE(id.ok()) << id.status();
    return id.ok() ? *id : 0;
  }
  const PendingAct& Act(uint32_t id) { return s_.state().pending.at(id); }
  int64_t Ap() { return s_.state().Find("mage")->Resource("ap"); }

  Scene s_{{Creature("mage", "party", 1, 1, {}), Creature("troll", "foes", 6, 6, {})}};
};

TEST_F(PayingTest, PaidOverThreeTurns) {
  StartMageTurn();
  const uint32_t id = DeclareRitual();
  ASSERT_EQ(id, 1u);
  EXPECT_EQ(Act(id).kind, "paying");
  EXPECT_EQ(Act(id).cost_due, 5);
  EXPECT_EQ(Act(id).cost_paid, 0);
  EXPECT_EQ(Act(id).span, fb::Span::Rounds);
  EXPECT_EQ(Act(id).command->action, "ritual");

  // Turn 1: 2 of 5.
  ASSERT_TRUE(PayPending(s_.d(), id, 2, TestWhy()).ok());
  EXPECT_EQ(Ap(), 0);
  EXPECT_EQ(Act(id).cost_paid, 2);
  absl::Status broke = PayPending(s_.d(), id, 1, TestWhy());
  EXPECT_EQ(broke.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(broke.message(), "mage has 0 ap, not 1");
  EndRound();

  // Turn 2 (round 2): 4 of 5; the act stayed open across the turns.
  StartMageTurn();
  EXPECT_EQ(s_.state().round, 2);
  ASSERT_TRUE(PayPending(s_.d(), id, 2, TestWhy()).ok());
  EXPECT_EQ(Ap(), 0);
  EXPECT_EQ(Act(id).cost_paid, 4);
  EndRound();

  // Turn 3 (round 3): 2 more would pay beyond the 5 due; 1 completes it.
  StartMageTurn();
  const uint64_t seq = s_.state().seq;
  absl::Status over = PayPending(s_.d(), id, 2, TestWhy());
  EXPECT_EQ(over.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(over.message(), "pending act #1: 4 + 2 would pay more than the 5 due");
  EXPECT_EQ(s_.state().seq, seq) << "a refused payment spends nothing";
  EXPECT_EQ(PayPending(s_.d(), id, 0, TestWhy()).code(), absl::StatusCode::kInvalidArgument);
  ASSERT_TRUE(PayPending(s_.d(), id, 1, TestWhy()).ok());
  EXPECT_EQ(Ap(), 1);
  EXPECT_EQ(Act(id).cost_paid, 5);
  ASSERT_TRUE(ClosePending(s_.d(), id, "resolved", TestWhy()).ok());
  EXPECT_TRUE(s_.state().pending.empty());
  EXPECT_EQ(PayPending(s_.d(), id, 1, TestWhy()).code(), absl::StatusCode::kNotFound);

  // The payments as recorded: ResourceChanged -amount, then PendingUpdated
  // with the running total, three times.
  s_.Next();
  std::vector<std::string> paid;
  for (const events::EventBuffer& e : s_.log()) {
    const fb::StateChange* sc = e.event().body_as_StateChange();
    if (sc == nullptr) continue;
    if (const auto* r = sc->change_as_ResourceChanged()) {
      paid.push_back("ap " + std::to_string(r->delta()) + " = " + std::to_string(r->value()));
    }
    if (const auto* u = sc->change_as_PendingUpdated()) {
      paid.push_back("#" + std::to_string(u->id()) + " +" + std::to_string(u->paid()) +
                     " = " + std::to_string(u->cost_paid()));
    }
  }
  EXPECT_EQ(paid, (std::vector<std::string>{"ap -2 = 0", "#1 +2 = 2", "ap -2 = 0", "#1 +2 = 4",
                                            "ap -1 = 1", "#1 +1 = 5"}));
}

// A PendingUpdated written by hand, applied in strict mode.
absl::Status ApplyUpdate(State& st, uint32_t id, int64_t paid, int64_t cost_paid) {
  fb::PendingUpdatedT u;
  u.id = id;
  u.paid = paid;
  u.cost_paid = cost_paid;
  u.progress = 0;
  return Apply(Scene::Forge(st, AsChange(std::move(u))).event(), st, Mode::kStrict);
}

TEST_F(PayingTest, ReducerRefusesForgedPayments) {
  StartMageTurn();
  const uint32_t id = DeclareRitual();
  ASSERT_TRUE(PayPending(s_.d(), id, 2, TestWhy()).ok());
  s_.Next();
  State st = s_.state();
  const std::vector<uint8_t> before = EncodeState(st);

  absl::Status sum = ApplyUpdate(st, id, 2, 5);  // 2 + 2 is not 5
  EXPECT_EQ(sum.code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(sum.message().find("pending.cost_paid: 2 + 2 is not 5"), absl::string_view::npos)
      << sum;
  absl::Status over = ApplyUpdate(st, id, 4, 6);  // adds up, but 6 of 5
  EXPECT_EQ(over.code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(over.message().find("pending.paid: 6 paid of 5 due"), absl::string_view::npos)
      << over;
  absl::Status back = ApplyUpdate(st, id, -1, 1);  // a refund
  EXPECT_EQ(back.code(), absl::StatusCode::kDataLoss) << back;
  absl::Status nobody = ApplyUpdate(st, 9, 1, 1);
  EXPECT_EQ(nobody.code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(nobody.message().find("no pending act #9"), absl::string_view::npos) << nobody;
  EXPECT_EQ(EncodeState(st), before) << "a refused event changes nothing";

  ASSERT_TRUE(ApplyUpdate(st, id, 3, 5).ok()) << "the right arithmetic applies";
  EXPECT_EQ(st.pending.at(id).cost_paid, 5);

  // An act whose declaration is not an earlier event.
  fb::PendingOpenedT open;
  open.id = id + 1;
  open.kind = kPaying;
  open.actor = "mage";
  open.decl = st.seq + 1;
  open.command = std::make_unique<fb::CommandT>(Cmd("mage", "ritual"));
  absl::Status decl = Apply(Scene::Forge(st, AsChange(std::move(open))).event(), st);
  EXPECT_EQ(decl.code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(decl.message().find("pending.decl: no earlier event"), absl::string_view::npos)
      << decl;
}

}  // namespace
}  // namespace combat::kernel
