// Aura, Death rolls, Death Saves, unconsciousness (l.290-312, l.622-660),
// non-lethal damage at 0 Aura (l.507, l.509).
// kara hits with {Combat 15, Evasion 4, damage 6}: 7 damage past armor.
#include "gtest/gtest.h"
#include "kernel/energy_rounds/test_util.h"

namespace combat::kernel::energy::testutil {
namespace {

fb::RosterT AtZero(int64_t aura = 0, Stats extra = {}) {
  std::vector<fb::CombatantSpecT> cs;
  cs.push_back(Who("kara", "party", 5, 5,
                   {{"level", 3}, {"str", 2}, {"dex", 2}, {"con", 1}, {"con_score", 12}},
                   {W("sword", "1d8", "melee", "medium", {{"av_bonus", 1}})}));
  Stats orc = {{"str", 3}, {"con", 2}, {"con_score", 14}, {"aura", aura}};
  for (auto& s : extra) orc.push_back(s);
  cs.push_back(Who("orc", "orcs", 6, 5, orc, {W("axe", "1d10", "melee", "heavy")}));
  return Roster(std::move(cs));
}

absl::StatusOr<std::vector<events::EventBuffer>> Hit(Table& t, std::vector<int> extra) {
  auto c = Cmd("kara", "melee", {"orc"});
  std::vector<int> dice = {15, 4, 6};
  for (int v : extra) dice.push_back(v);
  return t.Submit(Now(c), dice);
}

TEST(Aura, TheHitThatEmptiesAuraMakesNoDeathRoll) {
  Table t(EnergyRounds(), AtZero(3));
  ASSERT_TRUE(Hit(t, {}).ok());
  EXPECT_EQ(t.state().Find("orc")->Resource("aura"), 0);
  EXPECT_EQ(t.state().Find("orc")->Resource("death_roll", -1), -1);
}

TEST(Aura, DeathRollTable) {
  struct Row {
    int d20;
    bool exhausted, until_rest, bleeding, unconscious, dead;
  };
  const Row rows[] = {{20, false, false, false, false, false},
                      {17, true, false, false, false, false},
                      {12, true, true, false, false, false},
                      {7, true, true, true, false, false},
                      {3, true, true, true, true, false},
                      {1, false, false, false, false, true}};
  for (const Row& r : rows) {
    Table t(EnergyRounds(), AtZero());
    auto ev = Hit(t, {r.d20});
    ASSERT_TRUE(ev.ok()) << ev.status();
    const Combatant& o = *t.state().Find("orc");
    EXPECT_EQ(o.Resource("death_roll"), r.d20);
    EXPECT_EQ(o.Has("Exhausted"), r.exhausted) << r.d20;
    if (r.exhausted) {
      const Condition* e = o.FindCondition("Exhausted");
      EXPECT_EQ(e->expiry.kind, r.until_rest ? fb::ExpiryKind::OnUse : fb::ExpiryKind::RoundEnd) << r.d20;
    }
    EXPECT_EQ(o.Has("Bleeding"), r.bleeding) << r.d20;
    EXPECT_EQ(o.Has("Unconscious"), r.unconscious) << r.d20;
    EXPECT_EQ(o.Has("Dead"), r.dead) << r.d20;
    EXPECT_TRUE(Cites(*ev, "002.death.roll"));
    ExpectRulesKnown(t.log());
  }
}

// 002 l.626-634, the Death Roll table's row ends, each side of every
// boundary: ">=20", "15-19", "10-14", "5-9", "2-4", "<=1".
TEST(Aura, DeathRollTableBoundaries) {
  struct Row {
    int d20;
    bool exhausted, until_rest, bleeding, unconscious, dead;
  };
  const Row rows[] = {{19, true, false, false, false, false},
                      {15, true, false, false, false, false},
                      {14, true, true, false, false, false},
                      {10, true, true, false, false, false},
                      {9, true, true, true, false, false},
                      {5, true, true, true, false, false},
                      {4, true, true, true, true, false},
                      {2, true, true, true, true, false}};
  for (const Row& r : rows) {
    Table t(EnergyRounds(), AtZero());
    auto ev = Hit(t, {r.d20});
    ASSERT_TRUE(ev.ok()) << ev.status();
    const Combatant& o = *t.state().Find("orc");
    EXPECT_EQ(o.Has("Exhausted"), r.exhausted) << r.d20;
    const Condition* e = o.FindCondition("Exhausted");
    ASSERT_NE(e, nullptr) << r.d20;
    EXPECT_EQ(e->expiry.kind, r.until_rest ? fb::ExpiryKind::OnUse : fb::ExpiryKind::RoundEnd)
        << r.d20;
    EXPECT_EQ(o.Has("Bleeding"), r.bleeding) << r.d20;
    EXPECT_EQ(o.Has("Unconscious"), r.unconscious) << r.d20;
    EXPECT_EQ(o.Has("Dead"), r.dead) << r.d20;
  }
}

// 002 l.631-637 and l.640-644, every row at both its edges: Death roll
// 19/15 Exhausted to the end of the next Round, 14/10 until the next Short
// Rest, 9/5 bleeding out, 4/2 unconscious too, 1 dead (and 20 nothing,
// in DeathRollTable); Death Save 20 Stabilized, 19/5 still bleeding, 4/2
// unconscious, 1 dead.
TEST(Aura, DeathRollAndDeathSaveTablesAtTheirEdges) {
  struct Row {
    int d20;
    bool until_rest, bleeding, unconscious, dead;
  };
  for (const Row& r : {Row{19, false, false, false, false}, Row{15, false, false, false, false},
                       Row{14, true, false, false, false}, Row{10, true, false, false, false},
                       Row{9, true, true, false, false}, Row{5, true, true, false, false},
                       Row{4, true, true, true, false}, Row{2, true, true, true, false}}) {
    Table t(EnergyRounds(), AtZero());
    ASSERT_TRUE(Hit(t, {r.d20}).ok()) << r.d20;
    const Combatant& o = *t.state().Find("orc");
    const Condition* e = o.FindCondition("Exhausted");
    ASSERT_NE(e, nullptr) << r.d20;
    EXPECT_EQ(e->expiry.kind, r.until_rest ? fb::ExpiryKind::OnUse : fb::ExpiryKind::RoundEnd) << r.d20;
    EXPECT_EQ(o.Has("Bleeding"), r.bleeding) << r.d20;
    EXPECT_EQ(o.Has("Unconscious"), r.unconscious) << r.d20;
    EXPECT_FALSE(o.Has("Dead")) << r.d20;
  }
  for (const Row& r : {Row{20, false, false, false, false}, Row{19, false, true, false, false},
                       Row{5, false, true, false, false}, Row{4, false, true, true, false},
                       Row{2, false, true, true, false}, Row{1, false, false, false, true}}) {
    Table t(EnergyRounds(), AtZero());
    ASSERT_TRUE(Hit(t, {7}).ok());  // bleeding out, conscious (l.635)
    auto save = t.Submit(Gm("end_round"), {r.d20});
    ASSERT_TRUE(save.ok()) << save.status();
    const Combatant& o = *t.state().Find("orc");
    EXPECT_EQ(o.Resource("death_save"), r.d20);
    EXPECT_EQ(o.Has("Bleeding"), r.bleeding) << r.d20;
    EXPECT_EQ(o.Has("Unconscious"), r.unconscious) << r.d20;
    EXPECT_EQ(o.Has("Dead"), r.dead) << r.d20;
  }
}

// 002 l.630: "15-19 ... You are Exhausted until the end of the next Round";
// l.668: "you gain 2 less Energy at the beginning of each Round". Orc with
// 14 Stamina: round 2 gets 5 - 2 = 3 Energy, round 3 gets 5 again.
TEST(Aura, DeathRollFifteenExhaustsThroughTheNextRoundOnly) {
  Table t(EnergyRounds(), AtZero());
  ASSERT_TRUE(Hit(t, {15}).ok());
  ASSERT_TRUE(t.Submit(Gm("end_round")).ok());
  EXPECT_EQ(t.state().round, 2);
  EXPECT_EQ(t.state().Find("orc")->Resource("energy"), 3);
  ASSERT_TRUE(t.Submit(Gm("end_round")).ok());
  EXPECT_FALSE(t.state().Find("orc")->Has("Exhausted"));
  EXPECT_EQ(t.state().Find("orc")->Resource("energy"), 5);
}

// 002 l.624 "To be killed, a creature's Aura must be at 0 strength": the
// GM's death for a hopeless case (l.649) at Aura 1 is refused (was: a
// Dead orc with Aura 1), naming the field and what is right; at 0 it
// stands.
TEST(Aura, TheGmKillsOnlyAtZeroAura) {
  Table t(EnergyRounds(), AtZero(1));
  auto dead = GmAdds("orc", "dead");
  auto st = t.Submit(dead).status();
  EXPECT_EQ(st.code(), absl::StatusCode::kFailedPrecondition) << st;
  EXPECT_NE(st.message().find("params.name"), std::string::npos) << st;
  EXPECT_NE(st.message().find("gm_set resource=aura value=0"), std::string::npos) << st;
  EXPECT_FALSE(t.state().Find("orc")->Has("Dead"));
  auto zero = Gm("gm_set", "orc");
  WithText(zero, "resource", "aura");
  With(zero, "value", 0);
  ASSERT_TRUE(t.Submit(zero).ok());
  ASSERT_TRUE(t.Submit(dead).ok());
  EXPECT_TRUE(t.state().Find("orc")->Has("Dead"));
}

TEST(Aura, DeathSavesEachRoundUntilStabilised) {
  Table t(EnergyRounds(), AtZero());
  ASSERT_TRUE(Hit(t, {7}).ok());  // bleeding out (l.635)
  auto r2 = t.Submit(Gm("end_round"), {10});  // Death Save 10: still bleeding (l.642)
  ASSERT_TRUE(r2.ok()) << r2.status();
  EXPECT_TRUE(t.state().Find("orc")->Has("Bleeding"));
  EXPECT_EQ(t.state().Find("orc")->Resource("death_save_round"), 2);
  // A second low Death roll in the same round adds no second save (l.645).
  ASSERT_TRUE(Hit(t, {6}).ok());
  EXPECT_EQ(CountCond(*t.state().Find("orc"), "Bleeding"), 1);
  auto r3 = t.Submit(Gm("end_round"), {20});  // Stabilized (l.641)
  ASSERT_TRUE(r3.ok()) << r3.status();
  EXPECT_FALSE(t.state().Find("orc")->Has("Bleeding"));
  EXPECT_TRUE(Cites(*r3, "002.death.stabilize"));
  ASSERT_TRUE(t.Submit(Gm("end_round")).ok());  // no more saves: no dice
}

TEST(Aura, DeathSaveLowRollsKnockOutThenKill) {
  Table t(EnergyRounds(), AtZero());
  ASSERT_TRUE(Hit(t, {8}).ok());
  ASSERT_TRUE(t.Submit(Gm("end_round"), {3}).ok());  // 2-4: unconscious (l.643)
  EXPECT_TRUE(t.state().Find("orc")->Has("Unconscious"));
  ASSERT_TRUE(t.Submit(Gm("end_round"), {1}).ok());  // <=1: dies (l.644)
  EXPECT_TRUE(t.state().Find("orc")->Has("Dead"));
  auto act = Cmd("orc", "defend");
  EXPECT_EQ(t.Submit(Now(act)).status().code(), absl::StatusCode::kFailedPrecondition);
}

// 002 l.643: Death Save "2-4 You fall unconscious, if not already
// unconscious"; l.72, l.657: one unconscious from Stamina loss rolls a d20
// each Round and wakes on a 20 with 1 Stamina. A bleeding orc knocked out by
// Stamina loss that saves a 3 stays unconscious for that cause only, and
// wakes on its 20. Black-box: the save added an Unconscious of its own
// (dying), so the orc woke from the Stamina loss and stayed unconscious.
TEST(Aura, DeathSaveTwoToFourLeavesTheAlreadyUnconsciousAsTheyWere) {
  Table t(EnergyRounds(), AtZero());
  ASSERT_TRUE(Hit(t, {7}).ok());  // 5-9: Bleeding, Exhausted to the Short Rest
  auto ko = Gm("gm_set", "orc");
  WithText(ko, "resource", "stamina");
  With(ko, "value", 0);
  ASSERT_TRUE(t.Submit(ko).ok());
  ASSERT_EQ(CountCond(*t.state().Find("orc"), "Unconscious"), 1);
  // Round 2 begins: Death Save 3 (already unconscious), then the wake roll 20.
  auto ev = t.Submit(Gm("end_round"), {3, 20});
  ASSERT_TRUE(ev.ok()) << ev.status();
  const Combatant& o = *t.state().Find("orc");
  EXPECT_EQ(o.Resource("death_save"), 3);
  EXPECT_EQ(CountCond(o, "Unconscious"), 0);
  EXPECT_EQ(o.Resource("stamina"), 1);
  EXPECT_TRUE(o.Has("Bleeding"));
  EXPECT_EQ(o.Resource("energy"), 0);  // 1 Stamina: 1 Energy, less 2 Exhausted (l.668)
  ExpectRulesKnown(t.log());
}

// 002 l.636 (Death roll 2-4): "You sustain a major injury, begin to bleed
// out, and fall unconscious. You suffer the effects of rolling a 5-9. You
// also fall unconscious." -- unlike the Death Save's "if not already
// unconscious" (l.643), unconditionally; l.659: unconscious from Death
// rolls, "It is up to the GM to decide when you awaken". An orc knocked
// out by Stamina loss (l.72) and hit at 0 Aura (7 damage) rolls 3: it is
// now unconscious from the Death roll too. Round 2: Death Save 10 (bleeds
// on), wake roll 20 (l.657): the Stamina loss is over, with its 1 Stamina,
// but the orc stays unconscious until the GM wakes it.
TEST(Aura, DeathRollTwoToFourKnocksOutTheAlreadyUnconsciousForItsOwnCause) {
  Table t(EnergyRounds(), AtZero(0, {{"stamina", 0}}));
  ASSERT_EQ(CountCond(*t.state().Find("orc"), "Unconscious"), 1);
  auto c = Cmd("kara", "melee", {"orc"});
  // Combat 15, no Defense roll (l.653), damage 6 + 1, Death roll 3.
  auto ev = t.Submit(Now(c), {15, 6, 3});
  ASSERT_TRUE(ev.ok()) << ev.status();
  const Combatant& o = *t.state().Find("orc");
  EXPECT_EQ(o.Resource("death_roll"), 3);
  EXPECT_EQ(CountCond(o, "Unconscious"), 2);
  EXPECT_TRUE(o.Has("Bleeding"));
  ASSERT_TRUE(t.Submit(Gm("end_round"), {10, 20}).ok());
  const Combatant& o2 = *t.state().Find("orc");
  EXPECT_EQ(o2.Resource("death_save"), 10);
  EXPECT_EQ(o2.Resource("wake_roll"), 20);
  ASSERT_EQ(CountCond(o2, "Unconscious"), 1);
  EXPECT_EQ(o2.FindCondition("Unconscious")->source, "dying");
  EXPECT_EQ(o2.Resource("stamina"), 1);
  EXPECT_EQ(o2.Resource("energy"), 0);
  ExpectRulesKnown(t.log());
}

// 002 l.72: "Dropping to 0 Stamina will immediately result in
// unconsciousness. If you are unconscious due to Stamina loss, you roll a
// 1d20 each Round until you get a 20, in which case you wake up and have 1
// Stamina"; l.509: non-lethal damage at 0 Aura "lose 5 Stamina". An orc
// already unconscious from a Death roll (3, l.636) loses its last 5 Stamina
// to a non-lethal punch: it is unconscious from Stamina loss too, so it
// rolls to wake each Round and its 20 brings 1 Stamina (it stays
// unconscious from the Death roll, l.659). Black-box: no Unconscious of
// Stamina loss was added, no wake roll was ever made, Stamina stayed 0.
TEST(Aura, ZeroStaminaKnocksOutForStaminaLossEvenTheAlreadyUnconscious) {
  Table t(EnergyRounds(), AtZero(0, {{"stamina", 5}}));
  ASSERT_TRUE(Hit(t, {3}).ok());  // Death roll 3: unconscious (dying)
  ASSERT_EQ(CountCond(*t.state().Find("orc"), "Unconscious"), 1);
  auto p = Cmd("kara", "unarmed", {"orc"});
  With(p, "nonlethal", 1);
  // Combat 15, no Defense roll (l.653): MASAB 1 non-lethal at 0 Aura.
  auto ev = t.Submit(Now(p), {15});
  ASSERT_TRUE(ev.ok()) << ev.status();
  const Combatant& o = *t.state().Find("orc");
  EXPECT_EQ(o.Resource("stamina"), 0);
  EXPECT_EQ(CountCond(o, "Unconscious"), 2);
  // Round 2: Death Save 10, wake roll 20.
  ASSERT_TRUE(t.Submit(Gm("end_round"), {10, 20}).ok());
  const Combatant& o2 = *t.state().Find("orc");
  EXPECT_EQ(o2.Resource("wake_roll"), 20);
  EXPECT_EQ(o2.Resource("stamina"), 1);
  ASSERT_EQ(CountCond(o2, "Unconscious"), 1);
  EXPECT_EQ(o2.FindCondition("Unconscious")->source, "dying");
  ExpectRulesKnown(t.log());
}

TEST(Aura, GainingAuraStabilises) {
  Table t(EnergyRounds(), AtZero());
  ASSERT_TRUE(Hit(t, {6}).ok());
  auto g = Gm("gm_adjust", "orc", "a healing draught");
  WithText(g, "resource", "aura");
  With(g, "delta", 2);
  auto ev = t.Submit(g);
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_FALSE(t.state().Find("orc")->Has("Bleeding"));
  EXPECT_TRUE(Cites(*ev, "002.death.stabilize"));
}

// 002 l.505 "Non-Lethal damage reduces Aura Strength just like lethal
// (normal) damage, but if your target's Aura is 0, then it will not kill
// the target": the punch at 0 Aura makes no Death roll (l.507), the orc
// lives, Exhausted and Shaken, 14 - 5 = 9 Stamina (l.509).
TEST(Aura, NonLethalAtZeroAuraExhaustsShakesAndDrains) {
  Table t(EnergyRounds(), AtZero());
  auto c = Cmd("kara", "unarmed", {"orc"});
  With(c, "nonlethal", 1);
  auto ev = t.Submit(Now(c), {15, 4});  // unarmed: no Chance roll, no Death roll
  ASSERT_TRUE(ev.ok()) << ev.status();
  const Combatant& o = *t.state().Find("orc");
  EXPECT_TRUE(o.Has("Exhausted"));
  EXPECT_TRUE(o.Has("Shaken"));
  EXPECT_EQ(o.Resource("stamina"), 9);  // 14 - 5 (l.509)
  EXPECT_EQ(o.Resource("death_roll", -1), -1);
  ExpectRulesKnown(t.log());
}

// 002 l.509: "If you deal Non-Lethal damage to a creature with 0 Aura ...
// they are Shaken until their next Short Rest and lose 5 Stamina". An orc
// the GM had Shaken for one Round is Shaken until its next Short Rest after
// the blow. Black-box: the blow added nothing (it was Shaken already), and
// the orc was no longer Shaken once the GM's Round had passed.
TEST(Aura, NonLethalAtZeroAuraShakesUntilTheShortRestEvenIfShakenForAWhile) {
  Table t(EnergyRounds(), AtZero());
  ASSERT_TRUE(t.Submit(GmAdds("orc", "Shaken", {{"rounds", 1}})).ok());
  auto c = Cmd("kara", "unarmed", {"orc"});
  With(c, "nonlethal", 1);
  ASSERT_TRUE(t.Submit(Now(c), {15, 4}).ok());
  ASSERT_TRUE(t.Submit(Gm("end_round")).ok());
  ASSERT_TRUE(t.Submit(Gm("end_round")).ok());
  EXPECT_TRUE(t.state().Find("orc")->Has("Shaken"));
  auto rest = Gm("short_rest");
  ASSERT_TRUE(t.Submit(rest).ok());
  EXPECT_FALSE(t.state().Find("orc")->Has("Shaken"));
  ExpectRulesKnown(t.log());
}

TEST(Aura, StaminaUnconsciousWakesOnTwenty) {
  Table t(EnergyRounds(), AtZero(10, {{"stamina", 1}}));
  auto x = Cmd("orc", "exert");
  With(x, "stamina", 1);
  x.text = "climb";
  ASSERT_TRUE(t.Submit(Now(x)).ok());
  EXPECT_TRUE(t.state().Find("orc")->Has("Unconscious"));  // l.72
  ASSERT_TRUE(t.Submit(Gm("end_round"), {7}).ok());
  EXPECT_TRUE(t.state().Find("orc")->Has("Unconscious"));
  EXPECT_EQ(t.state().Find("orc")->Resource("energy"), 0);
  ASSERT_TRUE(t.Submit(Gm("end_round"), {20}).ok());  // l.657
  const Combatant& o = *t.state().Find("orc");
  EXPECT_FALSE(o.Has("Unconscious"));
  EXPECT_FALSE(o.Has("Unguarded"));
  EXPECT_EQ(o.Resource("stamina"), 1);
  EXPECT_EQ(o.Resource("energy"), 1);
}

// 002 l.72: "If you are unconscious due to Stamina loss, you roll a 1d20
// each Round until you get a 20, in which case you wake up and have 1
// Stamina" (l.657). A creature the roster brings in at 0 Stamina is
// unconscious when Round 1 begins: Round 1 is one of its Rounds, so it rolls
// then (the set-up's dice), as one knocked out in Round N rolls when Round
// N+1 begins. A 20 wakes it with 1 Stamina and so 1 Energy for Round 1
// (l.58); a 7 keeps it down. (Before the tenth pass's second round it made
// no roll until Round 2 began.)
TEST(Aura, UnconsciousFromStaminaAtSetUpRollsToWakeWhenRoundOneBegins) {
  Table woke(EnergyRounds(), AtZero(10, {{"stamina", 0}}), {20});
  ASSERT_TRUE(woke.status().ok()) << woke.status();
  const Combatant& o = *woke.state().Find("orc");
  EXPECT_EQ(o.Resource("wake_roll", -1), 20);
  EXPECT_FALSE(o.Has("Unconscious"));
  EXPECT_EQ(o.Resource("stamina"), 1);  // l.72 "have 1 Stamina"
  EXPECT_EQ(o.Resource("energy"), 1);   // l.58: 1 Stamina, 1 Energy
  EXPECT_TRUE(Cites(woke.log(), "002.unconscious.stamina"));

  Table down(EnergyRounds(), AtZero(10, {{"stamina", 0}}), {7});
  ASSERT_TRUE(down.status().ok()) << down.status();
  EXPECT_EQ(down.state().Find("orc")->Resource("wake_roll", -1), 7);
  EXPECT_TRUE(down.state().Find("orc")->Has("Unconscious"));
  EXPECT_EQ(down.state().Find("orc")->Resource("energy"), 0);
  // Round 2 begins: its roll, one a Round.
  ASSERT_TRUE(down.Submit(Gm("end_round"), {20}).ok());
  EXPECT_FALSE(down.state().Find("orc")->Has("Unconscious"));
  EXPECT_EQ(down.state().Find("orc")->Resource("energy"), 1);
  ExpectRulesKnown(down.log());
}

// 002 l.658: "Non-Lethal Damage (your head got whacked). You roll a 1d20
// each Round until you get a 20, in which case you wake up" — with no
// Stamina regained (that is l.657's, for Stamina loss).
TEST(Aura, KnockedOutByNonLethalDamageWakesOnTwenty) {
  Table t(EnergyRounds(), AtZero(10));
  ASSERT_TRUE(t.Submit(GmAdds("orc", "Unconscious", {}, "nonlethal")).ok());
  auto r1 = t.Submit(Gm("end_round"), {19});
  ASSERT_TRUE(r1.ok()) << r1.status();
  EXPECT_TRUE(t.state().Find("orc")->Has("Unconscious"));
  EXPECT_TRUE(Cites(*r1, "002.unconscious.nonlethal"));
  const int64_t stamina = t.state().Find("orc")->Resource("stamina");
  ASSERT_TRUE(t.Submit(Gm("end_round"), {20}).ok());
  EXPECT_FALSE(t.state().Find("orc")->Has("Unconscious"));
  EXPECT_EQ(t.state().Find("orc")->Resource("stamina"), stamina);
  ExpectRulesKnown(t.log());
}

// 002 l.655-658: "There are many reasons why you may fall unconscious, and
// that effects how quickly you might awaken: ◇ Stamina loss ... You roll a
// 1d20 each Round until you get a 20, in which case you wake up, regaining
// 1 Stamina if you were at 0. ◇ Non-Lethal Damage ... You roll a 1d20 each
// Round until you get a 20, in which case you wake up." Each cause has its
// own roll: unconscious from both, the orc rolls twice a Round (Stamina
// loss first, it fell so first), and a 20 ends one cause only.
TEST(Aura, EachCauseOfUnconsciousnessRollsItsOwnWakeRoll) {
  Table t(EnergyRounds(), AtZero(10, {{"stamina", 1}}));
  auto x = Cmd("orc", "exert");
  With(x, "stamina", 1);
  x.text = "climb";
  ASSERT_TRUE(t.Submit(Now(x)).ok());  // l.72: 0 Stamina, unconscious
  ASSERT_TRUE(t.Submit(GmAdds("orc", "Unconscious", {}, "nonlethal")).ok());
  // Round 1 ends: Stamina loss rolls 5, the blow rolls 20: the blow's
  // cause ends, Stamina loss keeps it unconscious, still at 0 Stamina.
  auto r1 = t.Submit(Gm("end_round"), {5, 20});
  ASSERT_TRUE(r1.ok()) << r1.status();
  EXPECT_TRUE(Cites(*r1, "002.unconscious.stamina"));
  EXPECT_TRUE(Cites(*r1, "002.unconscious.nonlethal"));
  const Combatant* o = t.state().Find("orc");
  ASSERT_TRUE(o->Has("Unconscious"));
  for (const auto& [id, k] : o->conditions) {
    if (k.name == "Unconscious") {
      EXPECT_EQ(k.source, "stamina");
    }
  }
  EXPECT_EQ(o->Resource("stamina"), 0);
  // Round 2 ends: one cause left, one roll: 20 wakes it with 1 Stamina.
  ASSERT_TRUE(t.Submit(Gm("end_round"), {20}).ok());
  o = t.state().Find("orc");
  EXPECT_FALSE(o->Has("Unconscious"));
  EXPECT_EQ(o->Resource("stamina"), 1);
  ExpectRulesKnown(t.log());
}

TEST(Aura, RecoverySurgeAndFormulae) {
  Table t(EnergyRounds(), AtZero(0, {{"int", -2}}));
  // Aura Modifier 3 + 2 - 2 = 3: Strength 20 + 4 = 24 (l.298); Value 3 (l.312).
  auto s = Gm("surge", "orc");
  ASSERT_TRUE(t.Submit(s).ok());
  EXPECT_EQ(t.state().Find("orc")->Resource("aura"), 3);
  EXPECT_EQ(t.state().Find("orc")->Resource("surges"), 5);  // 5 + 2/2 - 1
  auto p = Cmd("orc", "surge");
  p.author = "ann";  // a player (kernel/testing/table.h)
  EXPECT_EQ(t.Submit(p).status().code(), absl::StatusCode::kPermissionDenied);
}

// 002 l.306 "some spells and abilities allow you to restore Aura using
// Recover Surges during combat", l.310 "When you spend a Recovery Surge to
// restore your Aura": at full Aura (the orc's 24 of 24) there is nothing to
// restore, and the surge is not spent (black-box, this pass: `surge` took
// 6 -> 5 surges and restored nothing). One below full: spent, the Aura
// regained up to its Strength (23 + 3 -> 24).
TEST(Aura, NoRecoverySurgeIsSpentAtFullAura) {
  Table t(EnergyRounds(), AtZero(0, {{"int", -2}}));
  auto full = Gm("gm_set", "orc");
  WithText(full, "resource", "aura");
  With(full, "value", 24);
  ASSERT_TRUE(t.Submit(full).ok());
  auto refused = t.Submit(Gm("surge", "orc"));
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(refused.status().message().find("Aura is full"), std::string::npos)
      << refused.status();
  EXPECT_EQ(t.state().Find("orc")->Resource("surges"), 6);
  auto dent = Gm("gm_set", "orc");
  WithText(dent, "resource", "aura");
  With(dent, "value", 23);
  ASSERT_TRUE(t.Submit(dent).ok());
  ASSERT_TRUE(t.Submit(Gm("surge", "orc")).ok());
  EXPECT_EQ(t.state().Find("orc")->Resource("aura"), 24);
  EXPECT_EQ(t.state().Find("orc")->Resource("surges"), 5);
  ExpectRulesKnown(t.log());
}

}  // namespace
}  // namespace combat::kernel::energy::testutil
