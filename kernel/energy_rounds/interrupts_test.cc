// Initiative interrupts (l.120-128), Immediate Interrupts (l.130-134),
// incomplete actions (l.136-146).
#include "gtest/gtest.h"
#include "kernel/command.h"
#include "kernel/window.h"
#include "kernel/energy_rounds/test_util.h"

namespace combat::kernel::energy::testutil {
namespace {

fb::RosterT Skirmish() {
  std::vector<fb::CombatantSpecT> cs;
  cs.push_back(Who("kara", "party", 5, 5,
                   {{"level", 3}, {"str", 2}, {"dex", 2}, {"con", 1}, {"con_score", 12}, {"initiative", 2}},
                   {W("sword", "1d8", "melee", "medium", {{"av_bonus", 1}})}));
  cs.push_back(Who("orc1", "orcs", 6, 5, {{"str", 3}, {"con", 2}, {"con_score", 14}},
                   {W("axe", "1d10", "melee", "heavy")}));
  cs.push_back(Who("orc2", "orcs", 5, 6, {{"str", 3}, {"con", 2}, {"con_score", 14}},
                   {W("axe", "1d10", "melee", "heavy")}));
  return Roster(std::move(cs));
}

const Condition* Rel(const Combatant& c, const std::string& name, const std::string& other) {
  for (const auto& [id, k] : c.conditions) {
    if (k.name == name && k.relative_to == other) return &k;
  }
  return nullptr;
}

fb::CommandT Interrupt(uint32_t window, const std::string& act) {
  auto c = Cmd("kara", "interrupt");
  c.window = window;
  WithText(c, "act", act);
  return c;
}

TEST(Interrupts, OneRollWinsAgainstOneAndLosesAgainstAnother) {
  Table t(EnergyRounds(), Skirmish());
  ASSERT_TRUE(t.status().ok()) << t.status();
  ASSERT_TRUE(t.Submit(Cmd("orc1", "melee", {"kara"})).ok());  // window 1
  ASSERT_TRUE(t.Submit(Cmd("orc2", "melee", {"kara"})).ok());  // window 2
  ASSERT_EQ(t.state().windows.size(), 2u);
  auto in = Interrupt(1, "shift");
  kernel::AddRef(in, "also_window", 0, 2);
  Path(in, {{4, 4}});
  // kara 12 + 2 = 14; orc1 rolls 9; orc2 rolls 17 (l.122, l.128).
  auto ev = t.Submit(in, {12, 9, 17});
  ASSERT_TRUE(ev.ok()) << ev.status();
  const Combatant& k = *t.state().Find("kara");
  const Condition* won = Rel(k, "InitiativeWon", "orc1");
  const Condition* lost = Rel(k, "InitiativeLost", "orc2");
  ASSERT_NE(won, nullptr);
  ASSERT_NE(lost, nullptr);
  EXPECT_EQ(won->level, 5);   // 14 - 9
  EXPECT_EQ(lost->level, -3);  // 14 - 17
  EXPECT_EQ(NumOf(*ev, "kara.initiative"), 14);
  EXPECT_EQ(k.at, (Pos{4, 4}));  // the shift happened at once
  EXPECT_EQ(k.Resource("energy"), 4);
  EXPECT_TRUE(t.state().Find("orc2")->Has("ActsFirst"));
  // orc1's attack is stopped: kara left its reach before any roll (l.144).
  auto r1 = t.Submit(Cmd("orc1", "resolve"));
  ASSERT_TRUE(r1.ok()) << r1.status();
  EXPECT_NE(LastOutcome(*r1).find("ended incomplete"), std::string::npos);
  EXPECT_EQ(t.state().Find("orc1")->Resource("energy"), 4);  // 1 Energy (l.138)
  // orc2 beat kara: its attack came first and still lands (reach not
  // re-checked). Combat 15, kara's Evasion 1d10! 2 + 10 = 12 < AV.
  auto r2 = t.Submit(Cmd("orc2", "resolve"), {15, 2, 5});
  ASSERT_TRUE(r2.ok()) << r2.status();
  EXPECT_NE(LastOutcome(*r2).find("hit"), std::string::npos) << LastOutcome(*r2);
  EXPECT_EQ(t.state().Find("orc2")->Resource("energy"), 2);
  EXPECT_FALSE(t.state().Find("orc2")->Has("ActsFirst"));
  ExpectRulesKnown(t.log());
}

// Seed 002 l.118: "Normally, when an action is performed, it is resolved
// before anything else happens. This can be circumvented by Initiative and
// Immediate Interrupts." (and l.122: acting "in response to another
// creature's action, even before their action is completed ... is done by
// rolling Initiative"). orc1's swing is being performed: kara's ordinary
// Shift may neither resolve at once before it nor be resolved before it;
// it happens after the swing has landed.
TEST(Interrupts, AnActBeingPerformedResolvesBeforeAnythingElseHappens) {
  Table t(EnergyRounds(), Skirmish());
  ASSERT_TRUE(t.Submit(Cmd("orc1", "melee", {"kara"})).ok());  // window 1
  auto away = Cmd("kara", "shift");
  Path(away, {{4, 4}});
  Now(away);
  auto st = t.Submit(away);
  ASSERT_EQ(st.status().code(), absl::StatusCode::kFailedPrecondition) << st.status();
  EXPECT_NE(st.status().message().find("l.118"), std::string::npos) << st.status();
  EXPECT_EQ(t.state().Find("kara")->at, (Pos{5, 5}));
  EXPECT_EQ(t.state().windows.size(), 1u);
  // Declared without at_once it is performed at the same time (l.128) and
  // waits for the swing.
  auto step = Cmd("kara", "shift");
  Path(step, {{4, 4}});
  ASSERT_TRUE(t.Submit(step).ok());  // window 2
  auto early = t.Submit(Cmd("kara", "resolve"));
  ASSERT_EQ(early.status().code(), absl::StatusCode::kFailedPrecondition) << early.status();
  EXPECT_NE(early.status().message().find("l.118"), std::string::npos) << early.status();
  EXPECT_EQ(t.state().Find("kara")->at, (Pos{5, 5}));
  // orc1: AV 15 + (3 + 0) / 3 = 16; combat 15; kara's Evasion 8 + 3 / 3 +
  // 2 / 2 = 10, + 2 = 12 <= 16: hit, 15 >= AC 0: 5 + MASDB 1 = 6 damage,
  // kara's Aura 20 + 3 x 4 / 3 = 24 -> 18.
  auto swing = t.Submit(Cmd("orc1", "resolve"), {15, 2, 5});
  ASSERT_TRUE(swing.ok()) << swing.status();
  EXPECT_EQ(t.state().Find("kara")->Resource("aura"), 18);
  // Then kara steps away: 1 Energy (l.21).
  auto later = t.Submit(Cmd("kara", "resolve"));
  ASSERT_TRUE(later.ok()) << later.status();
  EXPECT_EQ(t.state().Find("kara")->at, (Pos{4, 4}));
  EXPECT_EQ(t.state().Find("kara")->Resource("energy"), 4);
  ExpectRulesKnown(t.log());
}

// 002 l.118 "when an action is performed, it is resolved before anything
// else happens" and l.138 "Typically, at least 1 Energy is still spent if
// an action is interrupted": an act whose performer is knocked out (l.72,
// 0 Stamina) is interrupted, no longer being performed, and holds nobody
// back; it ends incomplete when it is resolved or cancelled. Black-box:
// kara's Shift at once was refused (`002.order.first`) until someone
// resolved or cancelled the unconscious orc's swing.
TEST(Interrupts, AnActWhosePerformerIsKnockedOutHoldsNobodyBack) {
  Table t(EnergyRounds(), Skirmish());
  ASSERT_TRUE(t.Submit(Cmd("orc1", "melee", {"kara"})).ok());  // window 1
  auto ko = Gm("gm_set", "orc1");
  WithText(ko, "resource", "stamina");
  With(ko, "value", 0);
  ASSERT_TRUE(t.Submit(ko).ok());
  ASSERT_TRUE(t.state().Find("orc1")->Has("Unconscious"));
  auto away = Cmd("kara", "shift");
  Path(away, {{4, 4}});
  auto st = t.Submit(Now(away));
  ASSERT_TRUE(st.ok()) << st.status();
  EXPECT_EQ(t.state().Find("kara")->at, (Pos{4, 4}));
  EXPECT_EQ(t.state().Find("kara")->Resource("energy"), 4);  // l.21
  // The swing ends incomplete: the GM resolves its window.
  auto g = Gm("resolve");
  g.window = 1;
  auto end = t.Submit(g);
  ASSERT_TRUE(end.ok()) << end.status();
  EXPECT_TRUE(Cites(*end, "002.incomplete.attack"));
  EXPECT_TRUE(t.state().windows.empty());
  ExpectRulesKnown(t.log());
}

TEST(Interrupts, SecondInitiativeInARoundFails) {
  Table t(EnergyRounds(), Skirmish());
  ASSERT_TRUE(t.Submit(Cmd("orc1", "melee", {"kara"})).ok());
  auto a = Interrupt(1, "defend");
  ASSERT_TRUE(t.Submit(a, {15, 3}).ok());
  ASSERT_TRUE(t.Submit(Cmd("orc1", "resolve"), {15, 9}).ok());  // 16 vs 19: miss
  ASSERT_TRUE(t.Submit(Cmd("orc2", "melee", {"kara"})).ok());
  auto again = Interrupt(t.state().windows.begin()->first, "shift");
  Path(again, {{4, 5}});
  auto ev = t.Submit(again);  // no dice: an automatic failure (l.126)
  ASSERT_TRUE(ev.ok()) << ev.status();
  const Condition* lost = Rel(*t.state().Find("kara"), "InitiativeLost", "orc2");
  ASSERT_NE(lost, nullptr);
  EXPECT_NE(lost->note.find("automatically fails"), std::string::npos);
  EXPECT_EQ(t.state().Find("kara")->at, (Pos{5, 5}));
  EXPECT_TRUE(Cites(*ev, "002.initiative.once"));
  // Next round the roll is available again.
  ASSERT_TRUE(t.Submit(Cmd("orc2", "cancel")).ok());
  ASSERT_TRUE(t.Submit(Gm("end_round")).ok());
  ASSERT_TRUE(t.Submit(Cmd("orc2", "melee", {"kara"})).ok());
  auto third = Interrupt(t.state().windows.begin()->first, "shift");
  Path(third, {{4, 5}});
  auto r3 = t.Submit(third, {18, 2});
  ASSERT_TRUE(r3.ok()) << r3.status();
  EXPECT_NE(Rel(*t.state().Find("kara"), "InitiativeWon", "orc2"), nullptr);
}

TEST(Interrupts, ARollBeforeARestLeavesTheRollForTheRoundAfterIt) {
  // 002 l.126 "You may only roll Initiative once per Round": a Short Rest
  // (l.597) is 60 Rounds (l.103), so a roll before it was another Round's.
  Table t(EnergyRounds(), Skirmish());
  ASSERT_TRUE(t.Submit(Cmd("orc1", "melee", {"kara"})).ok());
  ASSERT_TRUE(t.Submit(Interrupt(1, "defend"), {15, 3}).ok());
  ASSERT_TRUE(t.Submit(Cmd("orc1", "resolve"), {15, 9}).ok());
  ASSERT_TRUE(t.Submit(Gm("short_rest")).ok());
  ASSERT_TRUE(t.Submit(Cmd("orc2", "melee", {"kara"})).ok());
  auto again = Interrupt(t.state().windows.begin()->first, "shift");
  Path(again, {{4, 5}});
  auto ev = t.Submit(again, {18, 2});  // rolled, not an automatic failure
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_NE(Rel(*t.state().Find("kara"), "InitiativeWon", "orc2"), nullptr);
}

TEST(Interrupts, ChallengedCreatureKeepsItsRollForTheRound) {
  Table t(EnergyRounds(), Skirmish());
  ASSERT_TRUE(t.Submit(Cmd("orc1", "melee", {"kara"})).ok());
  auto a = Interrupt(1, "defend");
  ASSERT_TRUE(t.Submit(a, {1, 10}).ok());  // kara 3 vs orc1 10: lost, nothing happens
  EXPECT_FALSE(t.state().Find("kara")->Has("Defending"));
  EXPECT_EQ(t.state().Find("kara")->Resource("energy"), 5);
  EXPECT_EQ(t.state().Find("orc1")->Resource("initiative_value"), 10);
}

// l.126: "If another situation arises that requires you to roll Initiative
// after you have already rolled it during the Round, you automatically
// fail." orc1 rolled when kara challenged it; orc2's challenge finds it
// without a roll left: orc1 fails, orc2 wins with a 2.
TEST(Interrupts, ChallengedCreatureThatAlreadyRolledAutomaticallyFails) {
  Table t(EnergyRounds(), Skirmish());
  ASSERT_TRUE(t.Submit(Cmd("orc1", "melee", {"kara"})).ok());  // window 1
  ASSERT_TRUE(t.Submit(Interrupt(1, "defend"), {1, 10}).ok());  // kara 3 vs orc1 10: lost
  ASSERT_NE(Rel(*t.state().Find("kara"), "InitiativeLost", "orc1"), nullptr);
  auto o = Cmd("orc2", "interrupt");
  o.window = 1;
  WithText(o, "act", "defend");
  auto ev = t.Submit(o, {2});  // orc2 rolls 2; orc1 rolls nothing
  ASSERT_TRUE(ev.ok()) << ev.status();
  const Condition* won = Rel(*t.state().Find("orc2"), "InitiativeWon", "orc1");
  ASSERT_NE(won, nullptr);
  EXPECT_NE(won->note.find("automatically fails"), std::string::npos) << won->note;
  EXPECT_TRUE(t.state().Find("orc2")->Has("Defending"));
  EXPECT_TRUE(Cites(*ev, "002.initiative.once"));
  EXPECT_EQ(NumOf(*ev, "orc2.initiative"), 2);
  EXPECT_EQ(NumOf(*ev, "orc1.automatically_fails"), 1);
  EXPECT_EQ(t.state().Find("orc1")->Resource("initiative_value"), 10);  // unchanged
}

// l.126: "You may decide not to roll Initiative and treat the situation as
// if you had lost Initiative (possibly saving your Initiative roll for
// later)": the challenged creature declines, the challenger wins without
// its roll, and its own roll for the Round is still to come.
TEST(Interrupts, AChallengedCreatureMayDeclineToRollAndKeepsItsRoll) {
  Table t(EnergyRounds(), Skirmish());
  ASSERT_TRUE(t.Submit(Cmd("orc1", "save_initiative")).ok());
  EXPECT_TRUE(t.state().Find("orc1")->Has("SavesInitiative"));
  ASSERT_TRUE(t.Submit(Cmd("orc1", "melee", {"kara"})).ok());  // window 1
  auto ev = t.Submit(Interrupt(1, "defend"), {1});  // kara 1 + 2 = 3; orc1 rolls nothing
  ASSERT_TRUE(ev.ok()) << ev.status();
  const Condition* won = Rel(*t.state().Find("kara"), "InitiativeWon", "orc1");
  ASSERT_NE(won, nullptr);
  EXPECT_NE(won->note.find("declines"), std::string::npos) << won->note;
  EXPECT_TRUE(Cites(*ev, "002.initiative.decline"));
  EXPECT_EQ(NumOf(*ev, "orc1.declines"), 1);
  EXPECT_EQ(t.state().Find("orc1")->Resource("initiative_round"), 0);  // still to roll
  // Declining twice, or stopping what it is not doing, is refused.
  EXPECT_EQ(t.Submit(Cmd("orc1", "save_initiative")).status().code(),
            absl::StatusCode::kFailedPrecondition);
  auto off = Cmd("orc1", "save_initiative");
  With(off, "off", 1);
  ASSERT_TRUE(t.Submit(off).ok());
  EXPECT_FALSE(t.state().Find("orc1")->Has("SavesInitiative"));
  auto bad = Cmd("orc1", "save_initiative");
  With(bad, "later", 1);
  EXPECT_EQ(t.Submit(bad).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(Interrupts, SwiftAttackIsImmediateAndOncePerRound) {
  Table t(EnergyRounds(), Skirmish());
  ASSERT_TRUE(t.Submit(GmAdds("orc1", "Unguarded")).ok());
  ASSERT_TRUE(t.Submit(Cmd("orc1", "melee", {"kara"})).ok());
  auto s = Interrupt(1, "melee");
  s.targets = {"orc1"};
  With(s, "swift", 1);
  auto ev = t.Submit(s, {15, 3, 4});  // no Initiative roll: Combat, Evasion, damage
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(t.state().Find("kara")->Resource("energy"), 4);  // 1 Energy (l.481)
  EXPECT_EQ(t.state().Find("kara")->Resource("swift_used"), 1);
  EXPECT_EQ(t.state().Find("kara")->Resource("initiative_round"), 0);
  auto again = Cmd("kara", "melee", {"orc1"});
  With(again, "swift", 1);
  EXPECT_EQ(t.Submit(again, {15, 3, 4}).status().code(), absl::StatusCode::kFailedPrecondition);
}

// 002 l.481: "A Swift Attack is an Immediate Interrupt and if the attack
// is a melee attack, it only takes 1 Energy to perform"; l.541: "Unarmed
// attacks are melee attacks ... but they require only 2 Energy": a Swift
// unarmed attack costs 1, not 2. l.47: "Once per Round, you may spend 1
// Stamina when you would normally spend 1 Energy": with no Energy left,
// kara's Swift Attack is paid with 1 Stamina, and (reading 7) earns no
// Agile Move, being no Energy spent (l.29 "Once per Energy you spend").
// kara: 5 Energy - 3 (melee, at orc2) - 1 (the Swift unarmed attack at
// the Unguarded orc1) = 1; - 1 (defend) = 0; next Round the Swift sword
// attack at orc1 (Unguarded again) costs 0 Energy and 1 Stamina: 12 -> 11.
TEST(Interrupts, ASwiftUnarmedAttackCostsOneAndStaminaMayPayIt) {
  Table t(EnergyRounds(), Skirmish());
  auto unguard = [&t] {
    ASSERT_TRUE(t.Submit(GmAdds("orc1", "Unguarded")).ok());
  };
  auto hew = Cmd("kara", "melee", {"orc2"});
  ASSERT_TRUE(t.Submit(Now(hew), {15, 3, 4}).ok());
  ASSERT_EQ(t.state().Find("kara")->Resource("energy"), 2);
  unguard();
  auto punch = Cmd("kara", "unarmed", {"orc1"});
  With(punch, "swift", 1);
  auto ev = t.Submit(punch, {15, 3});  // Combat roll, Evasion; damage MASAB 1 (l.547)
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "energy"), 1);
  EXPECT_EQ(t.state().Find("kara")->Resource("energy"), 1);
  auto defend = Cmd("kara", "defend");
  ASSERT_TRUE(t.Submit(Now(defend)).ok());
  ASSERT_EQ(t.state().Find("kara")->Resource("energy"), 0);
  ASSERT_TRUE(t.Submit(Gm("end_round")).ok());
  // A new Round: 5 Energy again; spend it all, then the Swift Attack.
  ASSERT_TRUE(t.Submit(hew, {15, 3, 4}).ok());
  auto jab = Cmd("kara", "unarmed", {"orc2"});
  ASSERT_TRUE(t.Submit(Now(jab), {15, 3}).ok());
  ASSERT_EQ(t.state().Find("kara")->Resource("energy"), 0);
  const int64_t credit = t.state().Find("kara")->Resource("agile_credit", 0);
  unguard();
  auto swift = Cmd("kara", "melee", {"orc1"});
  With(swift, "swift", 1);
  EXPECT_EQ(t.Submit(swift, {15, 3, 4}).status().code(), absl::StatusCode::kFailedPrecondition);
  With(swift, "stamina_energy", 1);
  auto paid = t.Submit(swift, {15, 3, 4});
  ASSERT_TRUE(paid.ok()) << paid.status();
  EXPECT_EQ(t.state().Find("kara")->Resource("energy"), 0);
  EXPECT_EQ(t.state().Find("kara")->Resource("stamina"), 11);
  EXPECT_EQ(t.state().Find("kara")->Resource("swift_used"), 1);
  EXPECT_EQ(t.state().Find("kara")->Resource("agile_credit", 0), credit);
  ExpectRulesKnown(t.log());
}

TEST(Interrupts, SwiftAttackNeedsAnEligibleTarget) {
  Table t(EnergyRounds(), Skirmish());
  auto s = Cmd("kara", "melee", {"orc1"});
  With(s, "swift", 1);
  auto r = t.Submit(s, {15, 3, 4});
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(r.status().message().find("l.485"), std::string::npos) << r.status();
}

TEST(Interrupts, SwiftAttackOnACreatureRunningThroughReach) {
  Table t(EnergyRounds(), Skirmish());
  auto run = Cmd("orc1", "run");
  Path(run, {{6, 6}, {6, 7}, {6, 8}});
  ASSERT_TRUE(t.Submit(run).ok());
  // kara faces east (the nearest foe); (6,6) is within her reach (l.487).
  auto s = Interrupt(t.state().windows.begin()->first, "melee");
  s.targets = {"orc1"};
  With(s, "swift", 1);
  auto ev = t.Submit(s, {15, 3, 4});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(t.state().Find("kara")->Resource("swift_used"), 1);
  ASSERT_TRUE(t.Submit(Cmd("orc1", "resolve")).ok());
  EXPECT_EQ(t.state().Find("orc1")->at, (Pos{6, 8}));
}

// 002 l.487: "When a creature moves through your maximum Reach (and you are
// facing them), you may make a Swift Attack against them"; l.441 a Large
// creature fills 2 x 2 squares. The Large orc runs from (8,3) by (7,3) and
// (6,3) to (6,2), each the top-left square of its space: at (6,3) it fills
// (6..7, 3..4), and (6,4) is 1 m from kara at (5,5), within her sword's
// Reach of 1 m and in front of her (she faces east), though (6,3) itself is
// 2 m away (was: only the path's top-left squares were measured: no square
// within 1 m, the Swift Attack refused). AV 17 vs Evasion 7 (Large, l.441)
// + 3 = 10: a hit, 4 + MASDB 1 = 5 damage; 1 Energy (l.481).
TEST(Interrupts, SwiftAttackOnALargeCreatureWhoseSpacePassesThroughReach) {
  std::vector<fb::CombatantSpecT> cs;
  cs.push_back(Who("kara", "party", 5, 5,
                   {{"level", 3}, {"str", 2}, {"dex", 2}, {"con_score", 12}, {"facing", 2}},
                   {W("sword", "1d8", "melee", "medium", {{"av_bonus", 1}})}));
  cs.push_back(Who("orc", "orcs", 8, 3, {{"str", 3}, {"con", 2}, {"con_score", 14}}, {}, {"large"}));
  cs.back().size = 2;  // 2 x 2 squares
  Table t(EnergyRounds(), Roster(std::move(cs)));
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto run = Cmd("orc", "run");
  Path(run, {{7, 3}, {6, 3}, {6, 2}});
  ASSERT_TRUE(t.Submit(run).ok());  // window 1
  auto s = Interrupt(1, "melee");
  s.targets = {"orc"};
  With(s, "swift", 1);
  auto ev = t.Submit(s, {15, 3, 4});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "defense_total", -1), 10);
  EXPECT_EQ(NumOf(*ev, "damage", -1), 5);
  EXPECT_EQ(t.state().Find("kara")->Resource("swift_used"), 1);
  EXPECT_EQ(t.state().Find("kara")->Resource("energy"), 4);
}

// 002 l.487: "When a creature moves through your maximum Reach (and you are
// facing them), you may make a Swift Attack against them" — also when it
// starts its run from afar: the blow lands as it passes (6,6).
TEST(Interrupts, SwiftAttackOnACreatureRunningPastFromAfar) {
  std::vector<fb::CombatantSpecT> cs;
  cs.push_back(Who("kara", "party", 5, 5,
                   {{"level", 3}, {"str", 2}, {"dex", 2}, {"con_score", 12}, {"facing", 2}},
                   {W("sword", "1d8", "melee", "medium", {{"av_bonus", 1}})}));
  cs.push_back(Who("orc", "orcs", 9, 6, {{"str", 3}, {"con", 2}, {"con_score", 14}}));
  Table t(EnergyRounds(), Roster(std::move(cs)));
  auto run = Cmd("orc", "run");
  Path(run, {{8, 6}, {7, 6}, {6, 6}, {6, 7}});
  ASSERT_TRUE(t.Submit(run).ok());  // window 1; the orc is 4 m away
  auto far = Cmd("kara", "melee", {"orc"});
  With(far, "swift", 1);
  EXPECT_EQ(t.Submit(Now(far), {15}).status().code(),
            absl::StatusCode::kFailedPrecondition);  // not as an answer to the run: out of reach
  auto s = Interrupt(1, "melee");
  s.targets = {"orc"};
  With(s, "swift", 1);
  auto ev = t.Submit(s, {15, 3, 4});  // AV 17 vs 8 + 3; 4 + 1 damage
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "damage"), 5);
  EXPECT_EQ(t.state().Find("kara")->Resource("energy"), 4);  // l.481: 1 Energy
  ASSERT_TRUE(t.Submit(Cmd("orc", "resolve")).ok());
  EXPECT_EQ(t.state().Find("orc")->at, (Pos{6, 7}));
  // Next Round, a path that never comes within reach gives no Swift Attack.
  ASSERT_TRUE(t.Submit(Gm("end_round")).ok());
  auto run2 = Cmd("orc", "run");
  Path(run2, {{7, 8}, {8, 9}});
  ASSERT_TRUE(t.Submit(run2).ok());
  auto s2 = Interrupt(t.state().windows.begin()->first, "melee");
  s2.targets = {"orc"};
  With(s2, "swift", 1);
  auto no = t.Submit(s2, {15, 3, 4});
  EXPECT_EQ(no.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(no.status().message().find("reach is 1 m"), std::string::npos) << no.status();
  ExpectRulesKnown(t.log());
}

TEST(Interrupts, SimultaneousImmediateInterruptsWaitForTheGm) {
  Table t(EnergyRounds(), Skirmish());
  ASSERT_TRUE(t.Submit(GmAdds("orc1", "Unguarded")).ok());
  ASSERT_TRUE(t.Submit(Cmd("orc1", "melee", {"kara"})).ok());
  const uint64_t trigger = t.state().windows.begin()->second.trigger;
  auto s = Interrupt(1, "melee");
  s.targets = {"orc1"};
  With(s, "swift", 1);
  ASSERT_TRUE(t.Submit(s, {15, 3, 4}).ok());
  auto o = Cmd("orc2", "interrupt", {"orc1"});
  o.window = 1;
  WithText(o, "act", "unarmed");
  With(o, "swift", 1);
  ASSERT_TRUE(t.Submit(o, {1}).ok());
  EXPECT_TRUE(t.state().Find("orc2")->Has("Simultaneous"));
  EXPECT_EQ(t.Submit(Cmd("orc1", "resolve")).status().code(), absl::StatusCode::kFailedPrecondition);
  auto ruling = Gm("gm_note", "", "both strikes land together");
  WithText(ruling, "kind", "resolve");
  kernel::AddRef(ruling, "subject", trigger);
  auto rv = t.Submit(ruling);
  ASSERT_TRUE(rv.ok()) << rv.status();
  EXPECT_TRUE(Cites(*rv, "002.gm.simultaneous"));
  EXPECT_FALSE(t.state().Find("orc2")->Has("Simultaneous"));
  ASSERT_TRUE(t.Submit(Cmd("orc1", "resolve"), {15, 3, 4}).ok());
}

TEST(Interrupts, AfterTheRollsAMoveDoesNotUndoTheHit) {
  Table t(EnergyRounds(), Skirmish());
  auto a = Cmd("kara", "melee", {"orc1"});
  ASSERT_TRUE(t.Submit(Now(a), {15, 3, 4}).ok());
  const int64_t aura = t.state().Find("orc1")->Resource("aura");
  EXPECT_LT(aura, 26);
  EXPECT_EQ(t.state().Find("kara")->Resource("agile_credit"), 3);  // l.29
  auto m = Cmd("kara", "agile_move");
  Path(m, {{4, 4}});
  ASSERT_TRUE(t.Submit(m).ok());
  EXPECT_EQ(t.state().Find("orc1")->Resource("aura"), aura);
  EXPECT_EQ(t.state().Find("kara")->Resource("agility"), 2);
}

TEST(Interrupts, RunCutShortSpendsItsShare) {
  Table t(EnergyRounds(), Skirmish());
  auto run = Cmd("orc2", "run");
  Path(run, {{5, 7}, {5, 8}, {5, 9}});
  ASSERT_TRUE(t.Submit(run).ok());
  auto stop = Cmd("orc2", "resolve");
  With(stop, "stop_after", 1);
  auto ev = t.Submit(stop);
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(t.state().Find("orc2")->at, (Pos{5, 7}));
  EXPECT_EQ(t.state().Find("orc2")->Resource("energy"), 4);  // 1/6 of Speed: 1 Energy (l.142)
  EXPECT_TRUE(Cites(*ev, "002.incomplete.run"));
}

// 002 l.670: "Dazed: ... Disadvantage on all your ... Skill Checks", and
// l.126 sends Initiative to "the Skills section": a Dazed creature rolls
// Initiative as 2d20, keeping the lower.
TEST(Interrupts, DazedCreatureRollsInitiativeWithDisadvantage) {
  Table t(EnergyRounds(), Skirmish());
  ASSERT_TRUE(t.Submit(GmAdds("kara", "Dazed")).ok());
  ASSERT_TRUE(t.Submit(Cmd("orc1", "melee", {"kara"})).ok());  // window 1
  // kara 2d20kl1: 15, 4 -> 4 + 2 = 6; orc1 (not Dazed) 1d20: 5. 6 > 5: won.
  auto ev = t.Submit(Interrupt(1, "defend"), {15, 4, 5});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "kara.d20"), 4);
  EXPECT_EQ(NumOf(*ev, "kara.dazed_disadvantage"), 1);
  EXPECT_EQ(NumOf(*ev, "kara.initiative"), 6);
  EXPECT_EQ(NumOf(*ev, "orc1.initiative"), 5);
  EXPECT_NE(Rel(*t.state().Find("kara"), "InitiativeWon", "orc1"), nullptr);
  ExpectRulesKnown(t.log());
}

// 002 l.531: "For every level of Martial Proficiency you have, you gain +1
// Arm Strength, +1 Leg Strength, or +1 Initiative" — the player's choice,
// made outside combat: the roster's `initiative` 2 already holds it (README
// reading 43), `mpl` 2 is not added again. l.672 "Skill Checks relying on
// sight": whether a Blinded creature's Initiative relies on sight is the
// GM's (reading 29), so the kernel rolls it as one d20. Blinded kara: 1d20
// 12 + 2 = 14; orc1 1d20 9: 14 > 9, won (l.122).
TEST(Interrupts, InitiativeAddsTheRostersBonusOnlyAndBlindnessLeavesItToTheGm) {
  std::vector<fb::CombatantSpecT> cs;
  cs.push_back(Who("kara", "party", 5, 5, {{"con_score", 12}, {"initiative", 2}, {"mpl", 2}},
                   {W("sword", "1d8", "melee", "medium")}));
  cs.push_back(Who("orc1", "orcs", 6, 5, {{"con_score", 14}}, {W("axe", "1d10", "melee", "heavy")}));
  Table t(EnergyRounds(), Roster(std::move(cs)));
  ASSERT_TRUE(t.Submit(GmAdds("kara", "Blinded")).ok());
  ASSERT_TRUE(t.Submit(Cmd("orc1", "melee", {"kara"})).ok());  // window 1
  auto ev = t.Submit(Interrupt(1, "defend"), {12, 9});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "kara.d20"), 12);
  EXPECT_EQ(NumOf(*ev, "kara.initiative_bonus"), 2);
  EXPECT_EQ(NumOf(*ev, "kara.initiative"), 14);
  EXPECT_EQ(NumOf(*ev, "kara.dazed_disadvantage"), -999);
  EXPECT_EQ(NumOf(*ev, "orc1.initiative"), 9);
  EXPECT_NE(Rel(*t.state().Find("kara"), "InitiativeWon", "orc1"), nullptr);
}

// 002 l.116 "There is no official "right of way" in combat—if you want to
// do something, and you have the necessary resources, you just do it.
// However, it is recommended that common sense is applied and enforced by
// the players and the GM together. For instance, if someone just attacked
// you, you should have an opportunity to respond before they can attack
// you again" (README: a GM ruling point): orc1, 5 Energy, may punch kara
// twice in a row (2 Energy each, l.541): nothing refuses the second; the
// opportunity to respond is its window, which kara may answer (here with
// an Initiative Defend, l.122) before it resolves.
TEST(Interrupts, NoRightOfWayTheSecondAttackOpensAWindowToRespond) {
  Table t(EnergyRounds(), Skirmish());
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto first = Cmd("orc1", "unarmed", {"kara"});
  ASSERT_TRUE(t.Submit(Now(first), {10, 5}).ok());
  EXPECT_EQ(t.state().Find("orc1")->Resource("energy"), 3);
  EXPECT_TRUE(t.state().windows.empty());
  ASSERT_TRUE(t.Submit(Cmd("orc1", "unarmed", {"kara"})).ok());  // the second, right after
  ASSERT_EQ(t.state().windows.size(), 1u);
  auto respond = Interrupt(t.state().windows.begin()->first, "defend");
  auto ev = t.Submit(Now(respond), {15, 2});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_NE(Rel(*t.state().Find("kara"), "InitiativeWon", "orc1"), nullptr);
  EXPECT_TRUE(t.state().Find("kara")->Has("Defending"));
}

// 002 l.394 "Optional Rule: Critical Successes and Failures": l.396 "When
// you roll a natural 20 on a 1d20 roll it is a Critical Success ... This
// does not necessarily mean you succeeded ... It is up to a GM to determine
// any special benefits from a Critical Success" and l.398 "When you roll a
// natural 1 on a 1d20 roll it is a Critical Failure ... it is up to a GM to
// determine if there are any special penalties" (README reading 43: a GM
// ruling point, no switch): Initiative is decided by l.122 "If your roll
// is higher" alone, the natural value recorded for the GM. kara (+0) rolls
// a natural 20 against orc1's 18 + 3 = 21: 20 is not higher, she loses;
// kara (+5) rolls a natural 1 against orc1's 4 + 0: 1 + 5 = 6 is higher,
// she wins.
TEST(Interrupts, ANaturalTwentyOrOneOnInitiativeIsTheGmsToRewardOrPunish) {
  auto table = [](int64_t kara_bonus, int64_t orc_bonus) {
    std::vector<fb::CombatantSpecT> cs;
    cs.push_back(Who("kara", "party", 5, 5, {{"con_score", 12}, {"initiative", kara_bonus}},
                     {W("sword", "1d8", "melee", "medium")}));
    cs.push_back(Who("orc1", "orcs", 6, 5, {{"con_score", 14}, {"initiative", orc_bonus}},
                     {W("axe", "1d10", "melee", "heavy")}));
    return Roster(std::move(cs));
  };
  Table twenty(EnergyRounds(), table(0, 3));
  ASSERT_TRUE(twenty.Submit(Cmd("orc1", "melee", {"kara"})).ok());  // window 1
  auto high = twenty.Submit(Interrupt(1, "defend"), {20, 18});
  ASSERT_TRUE(high.ok()) << high.status();
  EXPECT_EQ(NumOf(*high, "kara.d20"), 20);
  EXPECT_EQ(NumOf(*high, "kara.initiative"), 20);
  EXPECT_EQ(NumOf(*high, "orc1.initiative"), 21);
  EXPECT_NE(Rel(*twenty.state().Find("kara"), "InitiativeLost", "orc1"), nullptr);
  EXPECT_EQ(Rel(*twenty.state().Find("kara"), "InitiativeWon", "orc1"), nullptr);
  Table one(EnergyRounds(), table(5, 0));
  ASSERT_TRUE(one.Submit(Cmd("orc1", "melee", {"kara"})).ok());  // window 1
  auto low = one.Submit(Interrupt(1, "defend"), {1, 4});
  ASSERT_TRUE(low.ok()) << low.status();
  EXPECT_EQ(NumOf(*low, "kara.d20"), 1);
  EXPECT_EQ(NumOf(*low, "kara.initiative"), 6);
  EXPECT_NE(Rel(*one.state().Find("kara"), "InitiativeWon", "orc1"), nullptr);
  EXPECT_FALSE(one.state().Find("kara")->Has("Exposed"));  // l.462 is the Combat and Hit roll's
}

// 002 l.138: "Typically, at least 1 Energy is still spent if an action is
// interrupted" — of an act that costs Energy. A Shift paid with 2 Agility
// (l.21) ended before it moves spends no Energy; one paid with Energy, 1.
TEST(Interrupts, CancelledActSpendsNoEnergyItWouldNotHaveSpent) {
  Table t(EnergyRounds(), Skirmish());
  auto sh = Cmd("orc2", "shift");
  Path(sh, {{4, 7}});
  With(sh, "agility", 1);
  ASSERT_TRUE(t.Submit(sh).ok());
  ASSERT_TRUE(t.Submit(Cmd("orc2", "cancel")).ok());
  EXPECT_EQ(t.state().Find("orc2")->Resource("energy"), 5);
  EXPECT_EQ(t.state().Find("orc2")->Resource("agility"), 3);
  auto sh2 = Cmd("orc2", "shift");
  Path(sh2, {{4, 7}});
  ASSERT_TRUE(t.Submit(sh2).ok());
  ASSERT_TRUE(t.Submit(Cmd("orc2", "cancel")).ok());
  EXPECT_EQ(t.state().Find("orc2")->Resource("energy"), 4);
  ExpectRulesKnown(t.log());
}

TEST(Interrupts, CannotInterruptOwnActOrAClosedWindow) {
  Table t(EnergyRounds(), Skirmish());
  ASSERT_TRUE(t.Submit(Cmd("kara", "melee", {"orc1"})).ok());
  auto own = Interrupt(1, "defend");
  EXPECT_EQ(t.Submit(own).status().code(), absl::StatusCode::kFailedPrecondition);
  auto closed = Interrupt(7, "defend");
  EXPECT_EQ(t.Submit(closed).status().code(), absl::StatusCode::kNotFound);
  auto noact = Cmd("orc1", "interrupt");
  noact.window = 1;
  EXPECT_EQ(t.Submit(noact).status().code(), absl::StatusCode::kInvalidArgument);
}

// ---- An act that won Initiative and the Immediate Interrupts (l.122, l.132)

// orc1 swings at kara (window 1); kara answers with a Run past orc2 and
// wins Initiative: d20 12 + 2 = 14 against orc1's 9 (l.122). Her first
// square (4,6) is beside orc2, which faces north towards her: it "moves
// through your maximum Reach (and you are facing them)" (l.487), so orc2
// has a Swift Attack against the run and the run waits in window 2.
fb::CommandT DefendNow(const std::string& who) {
  auto c = Cmd(who, "defend");
  return Now(c);
}

uint32_t RunPastOrc2(Table& t) {
  EXPECT_TRUE(t.Submit(Cmd("orc1", "melee", {"kara"})).ok());  // window 1
  auto run = Interrupt(1, "run");
  Path(run, {{4, 6}, {3, 7}, {2, 8}});
  auto ev = t.Submit(run, {12, 9});
  EXPECT_TRUE(ev.ok()) << ev.status();
  return t.state().windows.rbegin()->first;
}

fb::CommandT Swift(const std::string& who, uint32_t window, const std::string& target) {
  auto c = Cmd(who, "interrupt", {target});
  c.window = window;
  WithText(c, "act", "melee");
  With(c, "swift", 1);
  return c;
}

// l.132: "Some actions are Immediate Interrupt actions, which means they
// may be performed at any time, even interrupting other actions": a Swift
// Attack (l.481) interrupts the run that won Initiative, hitting kara
// before the run ends; the run then happens, and orc1's swing, which it
// answered, finds her gone (l.144).
TEST(Interrupts, ASwiftAttackInterruptsTheActThatWonInitiative) {
  Table t(EnergyRounds(), Skirmish());
  const uint32_t w = RunPastOrc2(t);
  ASSERT_EQ(w, 2u);
  const Window& win = t.state().windows.at(w);
  EXPECT_EQ(win.kind, "immediate_only:run");
  EXPECT_EQ(win.eligible, std::vector<std::string>{"orc2"});
  EXPECT_EQ(win.parent, 1u);
  EXPECT_EQ(t.state().Find("kara")->at, (Pos{5, 5}));  // not yet run
  EXPECT_NE(Rel(*t.state().Find("kara"), "InitiativeWon", "orc1"), nullptr);
  // Neither act resolves yet: the run waits for orc2, orc1's swing for the run.
  auto early = t.Submit(Cmd("kara", "resolve"));
  EXPECT_EQ(early.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(early.status().message().find("orc2 may still answer"), std::string::npos)
      << early.status();
  auto first = t.Submit(Cmd("orc1", "resolve"), {15, 2, 5});
  EXPECT_EQ(first.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(first.status().message().find("resolves first (window 2)"), std::string::npos)
      << first.status();
  EXPECT_EQ(t.Submit(Cmd("orc1", "cancel")).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(t.Submit(Gm("end_round")).status().code(), absl::StatusCode::kFailedPrecondition);
  // orc2's Swift Attack, no Initiative roll (l.132): AV 15 + (3+0)/3 = 16;
  // Combat 15; kara's Evasion 10 + 1d10 3 = 13 <= 16: hit; 1d10 5 + MASDB
  // 1 = 6 damage. kara is still at (5,5): hit before the run ends.
  auto sw = t.Submit(Swift("orc2", w, "kara"), {15, 3, 5});
  ASSERT_TRUE(sw.ok()) << sw.status();
  EXPECT_EQ(NumOf(*sw, "av"), 16);
  EXPECT_EQ(NumOf(*sw, "defense_total"), 13);
  EXPECT_EQ(NumOf(*sw, "damage"), 6);
  EXPECT_EQ(t.state().Find("kara")->Resource("aura"), 24 - 6);
  EXPECT_EQ(t.state().Find("kara")->at, (Pos{5, 5}));
  EXPECT_EQ(t.state().Find("orc2")->Resource("energy"), 4);  // l.481: 1 Energy
  EXPECT_EQ(t.state().Find("orc2")->Resource("swift_used"), 1);
  EXPECT_EQ(t.state().Find("orc2")->Resource("initiative_round"), 0);  // no roll
  // Nobody may answer the Swift Attack (l.132): it has no window left open.
  EXPECT_EQ(t.state().windows.size(), 2u);
  // The run resolves: 3 m of Speed 6 = ceil(9 / 6) = 2 Energy (l.142).
  auto run = t.Submit(Cmd("kara", "resolve"));
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(t.state().Find("kara")->at, (Pos{2, 8}));
  EXPECT_EQ(t.state().Find("kara")->Resource("energy"), 3);
  // orc1's swing: kara left its reach before any roll (l.134, l.144).
  auto r1 = t.Submit(Cmd("orc1", "resolve"));
  ASSERT_TRUE(r1.ok()) << r1.status();
  EXPECT_NE(LastOutcome(*r1).find("ended incomplete"), std::string::npos) << LastOutcome(*r1);
  EXPECT_EQ(t.state().Find("orc1")->Resource("energy"), 4);
  EXPECT_TRUE(t.state().windows.empty());
  // l.483: one Swift Attack per Round, across windows: kara, Unguarded and
  // back beside orc2, is not open to a second one.
  auto back = Gm("gm_move", "kara");
  Path(back, {{4, 7}});
  ASSERT_TRUE(t.Submit(back).ok());
  ASSERT_TRUE(t.Submit(GmAdds("kara", "Unguarded")).ok());
  auto again = Cmd("orc2", "melee", {"kara"});
  With(again, "swift", 1);
  auto no = t.Submit(again, {15});
  EXPECT_EQ(no.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(no.status().message().find("already made a Swift Attack"), std::string::npos);
  ExpectRulesKnown(t.log());
}

// Declining: each creature that may answer passes (into the window alone,
// even with its own act pending, or with a Round `pass`), and then the act
// that won Initiative resolves.
TEST(Interrupts, PassesLetTheActThatWonInitiativeResolve) {
  Table t(EnergyRounds(), Skirmish());
  // orc1 Defends first (1 Energy on a non-movement act: an Agile Move
  // credit, l.29), so it has an Immediate Interrupt too.
  ASSERT_TRUE(t.Submit(DefendNow("orc1")).ok());  // window 1, closed
  ASSERT_TRUE(t.Submit(Cmd("orc1", "melee", {"kara"})).ok());  // window 2
  auto run = Interrupt(2, "run");
  Path(run, {{4, 6}, {3, 7}, {2, 8}});
  ASSERT_TRUE(t.Submit(run, {12, 9}).ok());
  const uint32_t w = 3;
  EXPECT_EQ(t.state().windows.at(w).eligible, (std::vector<std::string>{"orc1", "orc2"}));
  auto r = t.Submit(Cmd("kara", "resolve"));
  EXPECT_NE(r.status().message().find("orc1, orc2 may still answer"), std::string::npos)
      << r.status();
  auto decline = Cmd("orc1", "pass");
  decline.window = w;
  auto d1 = t.Submit(decline);
  ASSERT_TRUE(d1.ok()) << d1.status();
  EXPECT_FALSE(t.state().Find("orc1")->Has("Passed"));  // not the Round's pass
  EXPECT_EQ(t.Submit(decline).status().code(), absl::StatusCode::kFailedPrecondition);
  r = t.Submit(Cmd("kara", "resolve"));
  EXPECT_NE(r.status().message().find("orc2 may still answer"), std::string::npos) << r.status();
  ASSERT_TRUE(t.Submit(Cmd("orc2", "pass")).ok());  // the Round's pass declines it too
  EXPECT_TRUE(kernel::MayAnswer(t.state().windows.at(w)).empty());
  r = t.Submit(Cmd("kara", "resolve"));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(t.state().Find("kara")->at, (Pos{2, 8}));
  EXPECT_EQ(t.state().Find("kara")->Resource("aura"), 24);
  ASSERT_TRUE(t.Submit(Cmd("orc1", "resolve")).ok());
  EXPECT_TRUE(t.state().windows.empty());
  ExpectRulesKnown(t.log());
}

// l.122 "(The GM determines how these actions resolve)": the GM may resolve
// the act that won Initiative without waiting; `at_once` on the interrupt
// (the table agrees nobody answers) resolves it now, as does having nobody
// who may answer it with an Immediate Interrupt.
TEST(Interrupts, TheGmOrAtOnceResolvesTheActThatWonInitiativeNow) {
  {
    Table t(EnergyRounds(), Skirmish());
    const uint32_t w = RunPastOrc2(t);
    auto gm = Gm("resolve");
    gm.window = w;
    auto r = t.Submit(gm);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(t.state().Find("kara")->at, (Pos{2, 8}));
  }
  {
    Table t(EnergyRounds(), Skirmish());
    ASSERT_TRUE(t.Submit(Cmd("orc1", "melee", {"kara"})).ok());
    auto run = Interrupt(1, "run");
    Path(run, {{4, 6}, {3, 7}, {2, 8}});
    auto ev = t.Submit(Now(run), {12, 9});
    ASSERT_TRUE(ev.ok()) << ev.status();
    EXPECT_EQ(t.state().Find("kara")->at, (Pos{2, 8}));
    EXPECT_EQ(t.state().windows.size(), 1u);
  }
  {
    // Running away from both orcs: no path square is within orc2's reach.
    Table t(EnergyRounds(), Skirmish());
    ASSERT_TRUE(t.Submit(Cmd("orc1", "melee", {"kara"})).ok());
    auto run = Interrupt(1, "run");
    Path(run, {{4, 4}, {3, 3}});
    auto ev = t.Submit(run, {12, 9});
    ASSERT_TRUE(ev.ok()) << ev.status();
    EXPECT_EQ(t.state().Find("kara")->at, (Pos{3, 3}));
    EXPECT_EQ(t.state().windows.size(), 1u);
  }
}

// l.132 "Immediate Interrupts cannot interrupt other Immediate Interrupts.
// If two creatures try to use Immediate Interrupts at the same time, the
// actions happen simultaneously (The GM determines how these actions
// resolve)": in the window of the act that won Initiative as in any other.
// An Initiative act may not answer it (reading 11): it races the act it
// answers instead.
TEST(Interrupts, ImmediateInterruptsIntoTheActThatWonInitiative) {
  Table t(EnergyRounds(), Skirmish());
  ASSERT_TRUE(t.Submit(DefendNow("orc1")).ok());  // Agile Move credit
  ASSERT_TRUE(t.Submit(Cmd("orc1", "melee", {"kara"})).ok());  // window 2
  auto run = Interrupt(2, "run");
  Path(run, {{4, 6}, {3, 7}, {2, 8}});
  ASSERT_TRUE(t.Submit(run, {12, 9}).ok());  // window 3
  const uint64_t trigger = t.state().windows.at(3).trigger;
  auto shift = Cmd("orc2", "interrupt");
  shift.window = 3;
  WithText(shift, "act", "shift");
  Path(shift, {{4, 7}});
  auto no = t.Submit(shift, {20});
  EXPECT_EQ(no.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(no.status().message().find("only an Immediate Interrupt"), std::string::npos)
      << no.status();
  ASSERT_TRUE(t.Submit(Swift("orc2", 3, "kara"), {15, 3, 5}).ok());
  auto step = Cmd("orc1", "interrupt");
  step.window = 3;
  WithText(step, "act", "agile_move");
  Path(step, {{7, 5}});
  auto am = t.Submit(step);
  ASSERT_TRUE(am.ok()) << am.status();
  EXPECT_TRUE(t.state().Find("orc1")->Has("Simultaneous"));
  EXPECT_EQ(t.state().Find("orc1")->at, (Pos{7, 5}));
  EXPECT_EQ(t.Submit(Cmd("kara", "resolve")).status().code(),
            absl::StatusCode::kFailedPrecondition);
  auto ruling = Gm("gm_note", "", "the blow and the step happen together");
  WithText(ruling, "kind", "resolve");
  kernel::AddRef(ruling, "subject", trigger);
  ASSERT_TRUE(t.Submit(ruling).ok());
  ASSERT_TRUE(t.Submit(Cmd("kara", "resolve")).ok());
  EXPECT_EQ(t.state().Find("kara")->at, (Pos{2, 8}));
  ExpectRulesKnown(t.log());
}

// l.138: "you can willingly end an action at any time": kara cancels the
// run that won Initiative (1 Energy); orc1's swing, which waited for it,
// then lands on her where she stands.
TEST(Interrupts, CancellingTheActThatWonInitiativeLetsTheOtherResolve) {
  Table t(EnergyRounds(), Skirmish());
  RunPastOrc2(t);
  ASSERT_TRUE(t.Submit(Cmd("kara", "cancel")).ok());
  EXPECT_EQ(t.state().Find("kara")->Resource("energy"), 4);
  EXPECT_EQ(t.state().Find("kara")->at, (Pos{5, 5}));
  // AV 16; Combat 15; Evasion 2 + 10 = 12: hit; 5 + 1 = 6.
  auto r = t.Submit(Cmd("orc1", "resolve"), {15, 2, 5});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(t.state().Find("kara")->Resource("aura"), 24 - 6);
}

// 002 l.122 "your action happens at the same time as their action" and
// l.138 "Typically, at least 1 Energy is still spent if an action is
// interrupted": kara's run won Initiative against orc1's swing, and kara is
// knocked out (l.72, 0 Stamina) while the run waits in its window (nested
// in the swing's). The run was interrupted: when the swing resolves (or is
// cancelled) the run ends incomplete first, its window closing before the
// swing's, and the swing lands where she lies. Black-box: the swing's
// `resolve` and `cancel` were refused (`002.initiative.first`) and the GM's
// resolve of window 1 failed ("window 1 still has nested window 2 open").
TEST(Interrupts, AKnockedOutWinnersActEndsIncompleteBeforeTheActItWonAgainst) {
  for (const int mode : {0, 1, 2}) {  // orc1 resolves, orc1 cancels, the GM resolves window 1
    const bool cancel = mode == 1;
    Table t(EnergyRounds(), Skirmish());
    const uint32_t w = RunPastOrc2(t);
    ASSERT_EQ(w, 2u);
    auto ko = Gm("gm_set", "kara");
    WithText(ko, "resource", "stamina");
    With(ko, "value", 0);
    ASSERT_TRUE(t.Submit(ko).ok());
    ASSERT_TRUE(t.state().Find("kara")->Has("Unconscious"));
    const int64_t energy = t.state().Find("kara")->Resource("energy");
    auto gm = Gm("resolve");
    gm.window = 1;
    auto end = cancel      ? t.Submit(Cmd("orc1", "cancel"))
               : mode == 0 ? t.Submit(Cmd("orc1", "resolve"), {15, 5})
                           : t.Submit(gm, {15, 5});
    ASSERT_TRUE(end.ok()) << end.status();
    EXPECT_TRUE(Cites(*end, "002.incomplete"));
    // The swing: kara, unconscious, makes no Evasion roll (l.346): Combat
    // 15, 1d10 5 + MASDB (3+0)/3 = 1 -> 6 damage; cancelled, none.
    EXPECT_EQ(t.state().Find("kara")->Resource("aura"), cancel ? 24 : 24 - 6);
    // The run never moved her; it spent at least 1 Energy if she had any.
    EXPECT_EQ(t.state().Find("kara")->at, (Pos{5, 5}));
    EXPECT_EQ(t.state().Find("kara")->Resource("energy"), energy > 0 ? energy - 1 : 0);
    EXPECT_TRUE(t.state().windows.empty());
    EXPECT_TRUE(t.state().pending.empty());
    if (cancel) {
      EXPECT_EQ(t.state().Find("orc1")->Resource("energy"), 4);  // l.138: 1 Energy
    } else {
      EXPECT_EQ(t.state().Find("orc1")->Resource("energy"), 2);  // l.154: 3 Energy
    }
    ExpectRulesKnown(t.log());
  }
}

// l.559 "If the target is moving during the attack": a trip that won
// Initiative against a run and waited in its own window still finds the
// runner moving when it resolves.
TEST(Interrupts, ATripThatWonInitiativeAndWaitedStillFindsTheTargetMoving) {
  Table t(EnergyRounds(), Skirmish());
  ASSERT_TRUE(t.Submit(DefendNow("orc1")).ok());  // orc1: an Agile Move credit
  auto run = Cmd("orc2", "run");
  Path(run, {{4, 7}, {3, 8}});
  ASSERT_TRUE(t.Submit(run).ok());  // window 2
  auto trip = Interrupt(2, "trip");
  trip.targets = {"orc2"};
  trip.weapon = "sword";
  ASSERT_TRUE(t.Submit(trip, {15, 3}).ok());  // 17 vs 3: won; window 3 waits for orc1
  ASSERT_EQ(t.state().windows.count(3), 1u);
  auto pass = Cmd("orc1", "pass");
  pass.window = 3;
  ASSERT_TRUE(t.Submit(pass).ok());
  // AV 17 - 5 = 12; Combat 15; Evasion with Advantage (l.553) 3, 2 -> 8 + 3
  // = 11; Fortitude with Disadvantage 2d10kl1: 9, 4 -> 12 + 4 = 16, not > 17.
  auto ev = t.Submit(Cmd("kara", "resolve"), {15, 3, 2, 9, 4});
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(NumOf(*ev, "save_edge"), -1);
  EXPECT_TRUE(t.state().Find("orc2")->Has("Prone"));
  // Prone, the run cannot go on (l.676, reading 8): it ends incomplete.
  auto r = t.Submit(Cmd("orc2", "resolve"));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(t.state().Find("orc2")->at, (Pos{5, 6}));
  ExpectRulesKnown(t.log());
}

// l.146: "If you try to Kneel From Prone but when you become Unguarded,
// someone attacks you with a Swift Attack which knocks you back down, you
// do lose the 1 Energy because there was a result (becoming Unguarded)".
TEST(Interrupts, ASwiftTripKnocksAKneelingCreatureBackDownAndTheEnergyStaysSpent) {
  Table t(EnergyRounds(), Skirmish());
  ASSERT_TRUE(t.Submit(GmAdds("kara", "Prone")).ok());
  auto kneel = Cmd("kara", "kneel");
  ASSERT_TRUE(t.Submit(Now(kneel)).ok());
  EXPECT_TRUE(t.state().Find("kara")->Has("Kneeling"));
  EXPECT_TRUE(t.state().Find("kara")->Has("Unguarded"));  // l.33
  EXPECT_EQ(t.state().Find("kara")->Resource("energy"), 4);
  // orc1's Swift trip (kara is Unguarded, l.485): AV 16 - 5 = 11; Combat
  // 15; Evasion 10 + 1 = 11 <= 11: hit; Fortitude 4 + 10 = 14, not higher
  // than 16: Prone (l.557).
  auto trip = Cmd("orc1", "trip", {"kara"});
  With(trip, "swift", 1);
  auto ev = t.Submit(trip, {15, 1, 4});
  ASSERT_TRUE(ev.ok()) << ev.status();
  const Combatant& k = *t.state().Find("kara");
  EXPECT_TRUE(k.Has("Prone"));
  EXPECT_FALSE(k.Has("Kneeling"));
  EXPECT_EQ(k.Resource("energy"), 4);  // the Kneel's 1 Energy is not refunded
  ExpectRulesKnown(t.log());
}

}  // namespace
}  // namespace combat::kernel::energy::testutil
