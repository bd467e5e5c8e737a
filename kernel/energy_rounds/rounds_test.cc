// Rounds, Energy, Stamina and passing (l.5, l.47, l.55, l.101-112, l.150).
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "kernel/energy_rounds/test_util.h"
#include "kernel/window.h"

namespace combat::kernel::energy::testutil {
namespace {

fb::RosterT Two(Stats kara_extra = {}) {
  Stats kara = {{"level", 3}, {"str", 2}, {"dex", 2}, {"con", 1}, {"con_score", 12}};
  for (auto& s : kara_extra) kara.push_back(s);
  std::vector<fb::CombatantSpecT> cs;
  cs.push_back(Who("kara", "party", 5, 5, kara, {W("sword", "1d8", "melee", "medium", {{"av_bonus", 1}})}));
  cs.push_back(Who("orc", "orcs", 6, 5, {{"str", 3}, {"con", 2}, {"con_score", 14}},
                   {W("axe", "1d10", "melee", "heavy")}));
  return Roster(std::move(cs));
}

// A Reach is 1 m plus the weapon's number "reach" (l.15): the shared roster
// field `reach` (d20's feet) is refused, naming it and where the reach goes
// (was: ignored without a word).
TEST(Rounds, TheSharedReachFieldIsRefusedNamingTheNumber) {
  fb::RosterT r = Two();
  r.combatants[0]->weapons.push_back(std::make_unique<fb::WeaponT>(W("pike", "1d8", "melee", "")));
  r.combatants[0]->weapons.back()->reach = 2;
  Table t(EnergyRounds(), std::move(r));
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(t.status().message().find("weapons.pike.reach"), std::string::npos) << t.status();
  EXPECT_NE(t.status().message().find("numbers.reach"), std::string::npos) << t.status();
}

TEST(Rounds, SetupGivesBudgetsAndNoTurns) {
  Table t(EnergyRounds(), Two());
  ASSERT_TRUE(t.status().ok()) << t.status();
  const Combatant& k = *t.state().Find("kara");
  EXPECT_EQ(t.state().round, 1);
  EXPECT_EQ(k.Resource("energy"), 5);    // l.62: Stamina >= 5
  EXPECT_EQ(k.Resource("agility"), 3);   // l.88
  EXPECT_EQ(k.Resource("stamina"), 12);  // l.76-78: Constitution Score 12
  EXPECT_EQ(k.Resource("aura"), 24);     // l.298: 20 + (2+1) x 4/3 = 24
  EXPECT_EQ(k.Resource("surges"), 5);    // l.308: 5 + 1/2 rounded down
  EXPECT_EQ(k.Resource("facing"), 2);    // faces the orc to the east
  EXPECT_TRUE(t.state().active.empty());
  for (const auto& e : t.log()) {
    if (e.event().body_type() != fb::Body::StateChange) continue;
    EXPECT_NE(e.event().body_as_StateChange()->change_type(), fb::Change::TurnStarted);
  }
}

// The derived numbers with negative modifiers, which round down (l.384,
// README "Rounding"). kara: level 4, Str -2, Dex +5, Con -1, Int 0, Wis 0,
// Cha -1, shield 2, armor penalty 1, a sword with evasion bonus 1.
// l.302 "Aura Modifier = Ability Modifier of every Ability except
// Dexterity": -2 - 1 + 0 + 0 - 1 = -4 (Dexterity counted, it would be 1).
// l.298 "Aura Strength = 20 + (Aura Modifier * (1 + 1/3))": 20 + (-16 / 3
// = -5.33, down to -6) = 14. l.308 "5 + Halved Constitution Modifier":
// 5 + (-1 / 2 = -0.5, down to -1) = 4. l.312 "Recovery Value = Aura
// Modifier (min 1)": 1. l.182 MASAB (-2 + 5) / 3 = 1.
// l.328 "Evasion = Inherent Evasion + 1/3 Level + Halved Dexterity Modifier
// + shield & weapon bonuses - armor penalty": 8 + 1 + 2 + 2 + 1 - 1 = 13.
// l.342 "Unarmed Evasion = Inherent Evasion + 1/3 Level + Halved Dexterity
// Modifier - armor penalty": 8 + 1 + 2 - 1 = 10. l.336 "Ranged Evasion =
// Halved Dexterity Modifier + shield bonuses - armor penalty": 2 + 2 - 1 = 3
// facing the shot, 2 - 1 = 1 not (l.204 "Shield bonus if facing the
// attack"). l.356 "Fortitude = Inherent Fortitude + 1/3 Level + Halved
// Constitution Modifier + Halved Strength Modifier": 10 + 1 - 1 - 1 = 9.
// l.366 "Will = Inherent Will + 1/3 Level + Halved Charisma Modifier +
// Halved Wisdom Modifier": 10 + 1 - 1 + 0 = 10.
TEST(Rounds, NegativeModifiersRoundDownAndAuraLeavesOutDexterity) {
  std::vector<fb::CombatantSpecT> cs;
  cs.push_back(Who("kara", "party", 5, 5,
                   {{"level", 4}, {"str", -2}, {"dex", 5}, {"con", -1}, {"cha", -1},
                    {"con_score", 8}, {"shield", 2}, {"armor_penalty", 1}},
                   {W("sword", "1d8", "melee", "medium", {{"evasion_bonus", 1}})}));
  cs.push_back(Who("orc", "orcs", 6, 5, {{"con_score", 14}}));
  Table t(EnergyRounds(), Roster(std::move(cs)));
  ASSERT_TRUE(t.status().ok()) << t.status();
  const Combatant& k = *t.state().Find("kara");
  EXPECT_EQ(AuraModifier(k), -4);
  EXPECT_EQ(AuraMax(k), 14);
  EXPECT_EQ(k.Resource("aura"), 14);
  EXPECT_EQ(SurgesMax(k), 4);
  EXPECT_EQ(k.Resource("surges"), 4);
  EXPECT_EQ(RecoveryValue(k), 1);
  EXPECT_EQ(Masab(k), 1);
  EXPECT_EQ(Evasion(k, false, nullptr), 13);
  EXPECT_EQ(Evasion(k, true, nullptr), 10);
  EXPECT_EQ(RangedEvasion(k, true, nullptr), 3);
  EXPECT_EQ(RangedEvasion(k, false, nullptr), 1);
  EXPECT_EQ(Fortitude(k, nullptr), 9);
  EXPECT_EQ(Will(k, nullptr), 10);
}

TEST(Rounds, EnergyFollowsStaminaTable) {
  Table t(EnergyRounds(), Two({{"stamina", 3}}));
  ASSERT_TRUE(t.status().ok()) << t.status();
  EXPECT_EQ(t.state().Find("kara")->Resource("energy"), 3);  // l.60
}

// 002 l.53-62, "Energy Per Round", every row: "1 1" (l.58), "2 2" (l.59),
// "3 3" (l.60), "4 4" (l.61), ">=5 5" (l.62), at set-up and again at the
// beginning of the next Round (l.108 "Your Energy is reset based on your
// Stamina").
TEST(Rounds, EnergyFollowsEveryRowOfTheStaminaTable) {
  const std::pair<int64_t, int64_t> rows[] = {{1, 1}, {2, 2}, {3, 3}, {4, 4}, {5, 5}, {12, 5}};
  for (const auto& [stamina, energy] : rows) {
    Table t(EnergyRounds(), Two({{"stamina", stamina}}));
    ASSERT_TRUE(t.status().ok()) << t.status();
    EXPECT_EQ(t.state().Find("kara")->Resource("energy"), energy) << "Stamina " << stamina;
    auto g = Gm("gm_set", "kara");
    WithText(g, "resource", "energy");
    With(g, "value", 0);
    ASSERT_TRUE(t.Submit(g).ok());
    ASSERT_TRUE(t.Submit(Gm("end_round")).ok());
    EXPECT_EQ(t.state().Find("kara")->Resource("energy"), energy) << "Stamina " << stamina;
  }
}

TEST(Rounds, ZeroStaminaIsUnconscious) {
  Table t(EnergyRounds(), Two({{"stamina", 0}}));
  ASSERT_TRUE(t.status().ok()) << t.status();
  const Combatant& k = *t.state().Find("kara");
  EXPECT_EQ(k.Resource("energy"), 0);  // l.57
  EXPECT_TRUE(k.Has("Unconscious"));
  EXPECT_TRUE(k.Has("Unguarded"));     // daughter (l.686)
  EXPECT_TRUE(k.Has("Exposed"));       // granddaughter (l.680)
}

// 002 l.72: "Dropping to 0 Stamina will immediately result in
// unconsciousness"; l.74: "Negative Stamina does not exist. If you are
// supposed to lose more Stamina than you have, you simply drop to (or stay
// at) zero"; l.294: Aura is "reduced to 0". A GM's gm_adjust / gm_set keeps
// them (black-box: 2 Stamina - 5 left -3 and no unconsciousness; gm_set 0
// left a conscious creature with 0 Energy; Aura went to -10).
TEST(Rounds, GmStaminaToZeroKnocksOutAndNothingGoesNegative) {
  Table t(EnergyRounds(), Two({{"stamina", 2}}));
  ASSERT_TRUE(t.status().ok()) << t.status();
  auto adj = Gm("gm_adjust", "kara");
  WithText(adj, "resource", "stamina");
  With(adj, "delta", -5);
  auto ev = t.Submit(adj);
  ASSERT_TRUE(ev.ok()) << ev.status();
  const Combatant* k = t.state().Find("kara");
  EXPECT_EQ(k->Resource("stamina"), 0);  // not -3 (l.74)
  EXPECT_TRUE(k->Has("Unconscious"));    // l.72
  EXPECT_EQ(k->Resource("energy"), 0);
  EXPECT_TRUE(Cites(*ev, "002.stamina.negative"));
  EXPECT_TRUE(Cites(*ev, "002.stamina.zero"));
  // gm_set to 0 on a conscious creature: unconscious at once.
  auto set = Gm("gm_set", "orc");
  WithText(set, "resource", "stamina");
  With(set, "value", 0);
  ASSERT_TRUE(t.Submit(set).ok());
  EXPECT_TRUE(t.state().Find("orc")->Has("Unconscious"));
  EXPECT_EQ(t.state().Find("orc")->Resource("energy"), 0);
  // Aura stops at 0.
  auto aura = Gm("gm_adjust", "orc");
  WithText(aura, "resource", "aura");
  With(aura, "delta", -30);
  ASSERT_TRUE(t.Submit(aura).ok());
  EXPECT_EQ(t.state().Find("orc")->Resource("aura"), 0);
  ExpectRulesKnown(t.log());
}

// 002 l.78 "Maximum Stamina = Constitution Score", l.298 Aura Strength,
// l.308 "# of Recovery Surges": maxima (only Agility's is raised by
// abilities, l.94). kara: Constitution 12 -> Stamina 12; Aura 20 + (2+1) x
// 4/3 = 24; surges 5 + 1/2 (down) = 5. A GM's gm_set above one is refused
// naming it; a gm_adjust gain stops at it and says so (black-box, the
// eighth pass: gm_set stamina=15 left 15/12, which a later rest quietly
// lowered to 12).
TEST(Rounds, TheGmsNumbersStopAtTheTextsMaxima) {
  Table t(EnergyRounds(), Two());
  ASSERT_TRUE(t.status().ok()) << t.status();
  for (const auto& [resource, max] :
       std::vector<std::pair<std::string, int>>{{"stamina", 12}, {"aura", 24}, {"surges", 5}}) {
    auto set = Gm("gm_set", "kara");
    WithText(set, "resource", resource);
    With(set, "value", max + 3);
    auto refused = t.Submit(set);
    EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition) << resource;
    EXPECT_NE(refused.status().message().find("params.value"), std::string::npos)
        << refused.status();
    EXPECT_NE(refused.status().message().find(absl::StrCat("set at most ", max)),
              std::string::npos)
        << refused.status();
    auto at = Gm("gm_set", "kara");
    WithText(at, "resource", resource);
    With(at, "value", max);
    ASSERT_TRUE(t.Submit(at).ok()) << resource;  // the maximum itself is fine
    auto low = Gm("gm_set", "kara");
    WithText(low, "resource", resource);
    With(low, "value", max - 4);
    ASSERT_TRUE(t.Submit(low).ok()) << resource;
    auto adj = Gm("gm_adjust", "kara");
    WithText(adj, "resource", resource);
    With(adj, "delta", 7);  // max - 4 + 7 = max + 3: stops at max
    auto ev = t.Submit(adj);
    ASSERT_TRUE(ev.ok()) << ev.status();
    EXPECT_EQ(t.state().Find("kara")->Resource(resource), max) << resource;
    EXPECT_EQ(NumOf(*ev, absl::StrCat(resource, "_asked")), max + 3) << resource;
  }
  // Agility and Energy are the Round's budgets (l.53, l.90): not capped here.
  auto agi = Gm("gm_adjust", "kara");
  WithText(agi, "resource", "agility");
  With(agi, "delta", 1);
  ASSERT_TRUE(t.Submit(agi).ok());
  EXPECT_EQ(t.state().Find("kara")->Resource("agility"), 4);
  ExpectRulesKnown(t.log());
}

// 002 l.82 "Keep track of Stamina, Energy, and Agility using some sort of
// token", l.308 "# of Recovery Surges": counts, none below 0, as Stamina
// (l.74) and Aura (l.294). Black-box (this pass): gm_adjust surges -10 left
// kara 5 - 10 = -5 surges, gm_set agility -2 left -2. Now: 0, recorded.
TEST(Rounds, TheGmsNumbersLeaveNoCountBelowZero) {
  Table t(EnergyRounds(), Two());
  ASSERT_TRUE(t.status().ok()) << t.status();
  for (const char* resource : {"surges", "energy", "agility"}) {
    auto adj = Gm("gm_adjust", "kara");
    WithText(adj, "resource", resource);
    With(adj, "delta", -10);
    auto ev = t.Submit(adj);
    ASSERT_TRUE(ev.ok()) << ev.status();
    EXPECT_EQ(t.state().Find("kara")->Resource(resource), 0) << resource;
    EXPECT_LT(NumOf(*ev, absl::StrCat(resource, "_asked")), 0) << resource;
  }
  auto set = Gm("gm_set", "kara");
  WithText(set, "resource", "agility");
  With(set, "value", -2);
  ASSERT_TRUE(t.Submit(set).ok());
  EXPECT_EQ(t.state().Find("kara")->Resource("agility"), 0);
  EXPECT_FALSE(t.state().Find("kara")->Has("Unconscious"));  // only 0 Stamina knocks out
  ExpectRulesKnown(t.log());
}

TEST(Rounds, GmEndsRoundAndBudgetsReset) {
  Table t(EnergyRounds(), Two());
  ASSERT_TRUE(t.status().ok());
  auto c = Cmd("kara", "melee", {"orc"});
  ASSERT_TRUE(t.Submit(Now(c), {10, 5, 3}).ok());
  EXPECT_EQ(t.state().Find("kara")->Resource("energy"), 2);
  auto player = Cmd("kara", "end_round");
  player.author = "ann";  // a player (kernel/testing/table.h)
  player.actor.clear();  // end_round takes no actor (verbs.cc): only the role matters
  EXPECT_EQ(t.Submit(player).status().code(), absl::StatusCode::kPermissionDenied);
  auto ev = t.Submit(Gm("end_round"));
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(t.state().round, 2);
  EXPECT_EQ(t.state().Find("kara")->Resource("energy"), 5);
  EXPECT_TRUE(Cites(*ev, "002.rounds.gm_ends"));
}

TEST(Rounds, NobodyActsEndsTheRound) {
  Table t(EnergyRounds(), Two());
  ASSERT_TRUE(t.Submit(Cmd("kara", "pass")).ok());
  EXPECT_TRUE(t.state().Find("kara")->Has("Passed"));
  EXPECT_EQ(t.Submit(Cmd("kara", "pass")).status().code(), absl::StatusCode::kFailedPrecondition);
  // An act clears the passes: kara must wait again.
  auto d = Cmd("orc", "defend");
  ASSERT_TRUE(t.Submit(Now(d)).ok());
  EXPECT_FALSE(t.state().Find("kara")->Has("Passed"));
  ASSERT_TRUE(t.Submit(Cmd("kara", "pass")).ok());
  EXPECT_EQ(t.state().round, 1);
  auto ev = t.Submit(Cmd("orc", "pass"));
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(t.state().round, 2);
  EXPECT_TRUE(Cites(*ev, "002.rounds.nobody_acts"));
  EXPECT_FALSE(t.state().Find("kara")->Has("Passed"));
}

// 002 l.150 (reading): who passes lets every open act go unanswered; the
// window stops waiting for it (issue 16: "waiting for imp" after imp passed).
TEST(Rounds, PassingDeclinesTheOpenWindows) {
  Table t(EnergyRounds(), Two());
  ASSERT_TRUE(t.Submit(Cmd("orc", "melee", {"kara"})).ok());
  ASSERT_EQ(t.state().windows.size(), 1u);
  const Window& w = t.state().windows.begin()->second;
  EXPECT_EQ(MayAnswer(w), std::vector<std::string>{"kara"});
  ASSERT_TRUE(t.Submit(Cmd("kara", "pass")).ok());
  const Window& after = t.state().windows.begin()->second;
  EXPECT_TRUE(MayAnswer(after).empty());
  EXPECT_EQ(after.answered, std::vector<std::string>{"kara"});
  EXPECT_TRUE(t.state().Find("kara")->Has("Passed"));
  auto late = Cmd("kara", "interrupt");
  late.window = after.id;
  WithText(late, "act", "defend");
  EXPECT_FALSE(t.Submit(late).ok());
}

TEST(Rounds, NotEnoughEnergyIsRefusedNamingTheRule) {
  Table t(EnergyRounds(), Two({{"stamina", 2}}));
  auto c = Cmd("kara", "melee", {"orc"});
  auto r = t.Submit(Now(c), {10, 5, 3});
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(r.status().message().find("l.55"), std::string::npos) << r.status();
}

TEST(Rounds, StaminaAsEnergyOncePerRound) {
  Table t(EnergyRounds(), Two());
  auto a = Cmd("kara", "melee", {"orc"});
  With(a, "stamina_energy", 1);
  ASSERT_TRUE(t.Submit(Now(a), {10, 5, 3}).ok());
  const Combatant& k = *t.state().Find("kara");
  EXPECT_EQ(k.Resource("energy"), 3);   // 2 Energy + 1 Stamina (l.47)
  EXPECT_EQ(k.Resource("stamina"), 11);
  auto b = Cmd("kara", "shift");
  Path(b, {{5, 4}});
  With(b, "stamina_energy", 1);
  EXPECT_EQ(t.Submit(Now(b)).status().code(), absl::StatusCode::kFailedPrecondition);
}

// Each change cites the line that governs it: the once-a-Round Stamina paid
// as Energy is l.47's ("Once per Round, you may spend 1 Stamina when you
// would normally spend 1 Energy"), set when paid and new each Round
// (before, the new Round's reset cited l.110, "Only once per Round you
// may: Make a Swift Attack ... Roll Initiative", which does not list it);
// a Sprint (l.25) marks the back-to-back movement (l.27) that l.31, l.226
// and l.587 read (before, it cited l.587's push even with no push).
TEST(Rounds, OnceARoundUsesAndTheSprintCiteTheirOwnLines) {
  Table t(EnergyRounds(), Two());
  auto a = Cmd("kara", "melee", {"orc"});
  With(a, "stamina_energy", 1);
  auto paid = t.Submit(Now(a), {10, 5, 3});
  ASSERT_TRUE(paid.ok()) << paid.status();
  EXPECT_EQ(RulesOfResource(*paid, "kara", "stamina_energy_used"),
            std::vector<std::string>{"002.stamina.as_energy"});
  auto next = t.Submit(Gm("end_round"));
  ASSERT_TRUE(next.ok()) << next.status();
  EXPECT_EQ(t.state().Find("kara")->Resource("stamina_energy_used"), 0);
  EXPECT_EQ(RulesOfResource(*next, "kara", "stamina_energy_used"),
            std::vector<std::string>{"002.stamina.as_energy"});
  auto sprint = Cmd("kara", "sprint");
  Path(sprint, {{5, 4}, {5, 3}});
  auto sp = t.Submit(Now(sprint));
  ASSERT_TRUE(sp.ok()) << sp.status();
  EXPECT_EQ(t.state().Find("kara")->Resource("sprinted"), 2);
  EXPECT_EQ(RulesOfResource(*sp, "kara", "sprinted"),
            std::vector<std::string>{"002.move.back_to_back"});
  ExpectRulesKnown(t.log());
}

// 002 l.72: "Dropping to 0 Stamina will immediately result in
// unconsciousness"; l.138: resources are "spent as the results of the
// action occur". A jump paid with the last Stamina happens (the Stamina
// buys it) and its jumper falls unconscious as it lands, before anything
// else: before, it was knocked out first and then moved and landed.
TEST(Rounds, TheLastStaminaPaysForTheActThenKnocksOut) {
  Table t(EnergyRounds(), Two());
  auto one = Gm("gm_set", "kara");
  WithText(one, "resource", "stamina");
  With(one, "value", 1);
  ASSERT_TRUE(t.Submit(one).ok());
  auto run = Cmd("kara", "run");
  Path(run, {{5, 4}, {5, 3}});  // 2 m: ceil(3 x 2 / 6) = 1 Energy (l.142)
  ASSERT_TRUE(t.Submit(Now(run)).ok());
  auto jump = Cmd("kara", "jump");
  Path(jump, {{5, 2}, {5, 1}});  // after 2 m: 1 Energy + 1 Stamina (l.31)
  auto ev = t.Submit(Now(jump));
  ASSERT_TRUE(ev.ok()) << ev.status();
  const Combatant& k = *t.state().Find("kara");
  EXPECT_EQ(k.at.y, 1);  // the jump happened
  EXPECT_EQ(k.Resource("stamina"), 0);
  EXPECT_TRUE(k.Has("Unconscious"));
  // The knock-out comes after the landing: after it, only the window's
  // closing still cites the jump.
  size_t ko = ev->size();
  for (size_t i = 0; i < ev->size(); ++i) {
    if (ko == ev->size() && Cites({(*ev)[i]}, "002.stamina.zero")) ko = i;
  }
  ASSERT_LT(ko, ev->size());
  int jump_after = 0;
  for (size_t i = ko; i < ev->size(); ++i) jump_after += Cites({(*ev)[i]}, "002.move.jump");
  EXPECT_EQ(jump_after, 1);
  ExpectRulesKnown(t.log());
}

// 002 l.138 "Typically, at least 1 Energy is still spent if an action is
// interrupted" with l.47 "you may spend 1 Stamina when you would normally
// spend 1 Energy": a cancelled melee declared paying 1 Energy with Stamina
// spends that Stamina, not Energy (before: Energy 5 -> 4, Stamina kept),
// and earns no Agile Move (reading 7). Once the Round's Stamina-for-Energy
// is spent, the next cancelled act pays its 1 Energy.
TEST(Rounds, CancelledActDeclaredWithStaminaSpendsTheStamina) {
  Table t(EnergyRounds(), Two());
  auto m = Cmd("kara", "melee", {"orc"});
  With(m, "stamina_energy", 1);
  ASSERT_TRUE(t.Submit(m).ok());
  ASSERT_TRUE(t.Submit(Cmd("kara", "cancel")).ok());
  const Combatant* k = t.state().Find("kara");
  EXPECT_EQ(k->Resource("energy"), 5);
  EXPECT_EQ(k->Resource("stamina"), 11);
  EXPECT_EQ(k->Resource("stamina_energy_used"), 1);
  EXPECT_EQ(k->Resource("agile_credit"), 0);
  auto again = Cmd("kara", "melee", {"orc"});
  With(again, "stamina_energy", 1);
  EXPECT_EQ(t.Submit(again).status().code(), absl::StatusCode::kFailedPrecondition);  // l.47
  ASSERT_TRUE(t.Submit(Cmd("kara", "melee", {"orc"})).ok());
  ASSERT_TRUE(t.Submit(Cmd("kara", "cancel")).ok());
  k = t.state().Find("kara");
  EXPECT_EQ(k->Resource("energy"), 4);
  EXPECT_EQ(k->Resource("stamina"), 11);
  ExpectRulesKnown(t.log());
}

// 002 l.638 "Exhausted means you gain 2 fewer Energy each Round, and may not
// use any Stamina" (as l.668): no Sprint (its 1 Stamina, l.25), and the next
// Round 5 - 2 = 3 Energy.
TEST(Rounds, ExhaustedGainsTwoLessAndSpendsNoStamina) {
  Table t(EnergyRounds(), Two());
  ASSERT_TRUE(t.Submit(GmAdds("kara", "Exhausted")).ok());
  auto s = Cmd("kara", "sprint");
  Path(s, {{4, 5}});
  EXPECT_EQ(t.Submit(Now(s)).status().code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(t.Submit(Gm("end_round")).ok());
  EXPECT_EQ(t.state().Find("kara")->Resource("energy"), 3);  // l.668
}

// l.507 ("Exhausted (may not use any Stamina and only gain 3 Energy per
// Round)") and l.668 ("you gain 2 less Energy at the beginning of each
// Round") agree at 5 Stamina and conflict below it; l.668, the condition's
// own definition, governs (README reading 27): 4 Stamina -> 4 - 2 = 2.
TEST(Rounds, ExhaustedBelowFiveStaminaGainsTwoLessNotThree) {
  Table t(EnergyRounds(), Two());
  ASSERT_TRUE(t.Submit(GmAdds("kara", "Exhausted")).ok());
  auto st = Gm("gm_adjust", "kara", "winded");
  WithText(st, "resource", "stamina");
  With(st, "delta", 4 - t.state().Find("kara")->Resource("stamina"));
  ASSERT_TRUE(t.Submit(st).ok());
  ASSERT_EQ(t.state().Find("kara")->Resource("stamina"), 4);
  auto ev = t.Submit(Gm("end_round"));
  ASSERT_TRUE(ev.ok()) << ev.status();
  EXPECT_EQ(t.state().Find("kara")->Resource("energy"), 2);  // l.55-62: 4, l.668: - 2
  EXPECT_TRUE(Cites(*ev, "002.cond.exhausted"));
  EXPECT_EQ(NumOf(*ev, "exhausted_less"), 2);
}

TEST(Rounds, WindowOpenBlocksRoundEnd) {
  Table t(EnergyRounds(), Two());
  ASSERT_TRUE(t.Submit(Cmd("kara", "melee", {"orc"})).ok());
  EXPECT_EQ(t.state().windows.size(), 1u);
  EXPECT_EQ(t.Submit(Gm("end_round")).status().code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(t.Submit(Cmd("kara", "resolve"), {10, 5, 3}).ok());
  EXPECT_TRUE(t.state().windows.empty());
  ASSERT_TRUE(t.Submit(Gm("end_round")).ok());
  ExpectRulesKnown(t.log());
  auto replay = t.Replay();
  ASSERT_TRUE(replay.ok()) << replay.status();
}

TEST(Rounds, UnknownActionNamesTheField) {
  Table t(EnergyRounds(), Two());
  auto r = t.Submit(Cmd("kara", "fly"));
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("action"), std::string::npos);
}

}  // namespace
}  // namespace combat::kernel::energy::testutil
