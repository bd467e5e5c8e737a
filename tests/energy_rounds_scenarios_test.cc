// Scenarios for the energy_rounds ruleset (seed 002), played through the
// engine into a real RocksDB with fixed dice. Every number cites the seed
// line it comes from (002_ca603e8fb651e0df.txt).
//
// kara: level 3, Str +2, Dex +2, Con +1, Con 12, Initiative +2, sword 1d8 +1.
//   MASAB (2+2)/3 = 1 (l.182): AV 15 + 1 + 1 = 17 (l.162); MASDB 1 (l.186).
//   Evasion 8 + 3/3 + 2/2 = 10 (l.328); Aura 20 + 3 x 4/3 = 24 (l.298).
// orcs: Str +3, Con +2, Con 14, axe 1d10; AC 10, AR 3.
//   AV 15 + 1 = 16; Evasion 8; Aura 20 + 5 x 4/3 = 26 (l.298).
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernel/command.h"
#include "kernel/energy_rounds/ruleset.h"
#include "kernel/state.h"
#include "kernel/testing/events.h"
#include "tests/scenario.h"

namespace combat::tests {
namespace {

using kernel::Combatant;
using kernel::Condition;
using kernel::Pos;

fb::WeaponT Weapon(const std::string& name, const std::string& dmg,
                   std::vector<std::pair<std::string, int64_t>> numbers) {
  fb::WeaponT w = MakeWeapon(name, dmg, "melee", "medium");
  w.damage_type = "slashing";
  for (auto& [k, v] : numbers) {
    auto n = std::make_unique<fb::NumberT>();
    n->key = k;
    n->value = v;
    w.numbers.push_back(std::move(n));
  }
  return w;
}

fb::CombatantSpecT Kara(int x, int y) {
  auto c = Creature("kara", "party", x, y,
                    {{"level", 3}, {"str", 2}, {"dex", 2}, {"con", 1},
                     {"con_score", 12}, {"initiative", 2}});
  c.weapons.push_back(std::make_unique<fb::WeaponT>(Weapon("sword", "1d8", {{"av_bonus", 1}})));
  return c;
}

fb::CombatantSpecT Orc(const std::string& id, int x, int y, int64_t aura = -1) {
  std::vector<std::pair<std::string, int64_t>> stats = {
      {"str", 3}, {"con", 2}, {"con_score", 14}, {"ac", 10}, {"ar", 3}};
  if (aura >= 0) stats.push_back({"aura", aura});
  auto c = Creature(id, "orcs", x, y, stats);
  c.weapons.push_back(std::make_unique<fb::WeaponT>(Weapon("axe", "1d10", {})));
  return c;
}

fb::RosterT Roster(std::vector<fb::CombatantSpecT> cs) {
  fb::RosterT r;
  r.title = "energy rounds scenario";
  r.ruleset = "energy_rounds";
  r.map = std::make_unique<fb::MapT>();
  r.map->width = 20;
  r.map->height = 20;
  for (auto& c : cs) r.combatants.push_back(std::make_unique<fb::CombatantSpecT>(std::move(c)));
  return r;
}

fb::CommandT Gm(const std::string& action, const std::string& actor, const std::string& why) {
  auto c = Cmd(actor, action);
  c.author = "gm";
  c.role = fb::Role::GM;
  c.text = why;
  return c;
}

fb::CommandT AtOnce(fb::CommandT c) {
  With(c, "at_once", 1);
  return c;
}

const Condition* Rel(const Combatant& c, const std::string& name, const std::string& other) {
  for (const auto& [id, k] : c.conditions) {
    if (k.name == name && k.relative_to == other) return &k;
  }
  return nullptr;
}

std::string Outcome(const std::vector<events::EventBuffer>& events) {
  std::string out;
  for (const auto& e : events) {
    if (e.event().body_type() != fb::Body::StateChange) continue;
    const auto* sc = e.event().body_as_StateChange();
    if (sc->change_type() == fb::Change::WindowClosed) out = sc->change_as_WindowClosed()->outcome()->str();
  }
  return out;
}

int64_t Num(const std::vector<events::EventBuffer>& events, const std::string& key) {
  int64_t v = -999;
  for (const auto& e : events) {
    if (e.event().body_type() != fb::Body::StateChange) continue;
    const auto* nums = e.event().body_as_StateChange()->numbers();
    if (nums == nullptr) continue;
    for (const auto* n : *nums) {
      if (n->key()->str() == key) v = n->value();
    }
  }
  return v;
}

uint32_t OpenWindow(const Scenario& s) { return s.state().windows.rbegin()->first; }

// Issue 16: every modifier the encounter recorded names its source or rule
// (kernel::energy::IsModifier says which numbers are modifiers), and every
// rule a number cites is in the table.
void ExpectSourced(const Scenario& s) {
  const std::vector<std::string> faults = kernel::testing::UnsourcedModifiers(
      s.log(), kernel::energy::EnergyRounds().Rules(), kernel::energy::IsModifier);
  EXPECT_TRUE(faults.empty()) << faults.size() << " faults, first: " << faults.front();
}

// One round at the ford: an Initiative roll that wins against one orc and
// loses against the other (l.128), a second Initiative roll that fails
// (l.126), a defense die that explodes twice (l.320), a hit on armor and a
// hit that bypasses it (l.178).
TEST(EnergyRoundsScenario, AmbushAtTheFord) {
  Scenario s(Roster({Kara(5, 5), Orc("orc1", 6, 5), Orc("orc2", 5, 6)}));
  ASSERT_TRUE(s.status().ok()) << s.status();
  EXPECT_EQ(s.state().round, 1);
  EXPECT_EQ(s.state().Find("kara")->Resource("energy"), 5);  // l.62

  // Both orcs swing at kara at the same time: two open windows (l.122).
  ASSERT_TRUE(s.Submit(Cmd("orc1", "melee", {"kara"})).ok());
  const uint32_t w1 = OpenWindow(s);
  ASSERT_TRUE(s.Submit(Cmd("orc2", "melee", {"kara"})).ok());
  const uint32_t w2 = OpenWindow(s);
  ASSERT_EQ(s.state().windows.size(), 2u);

  // kara answers both with one Initiative roll and a Shift away:
  // d20 12 + 2 = 14 vs orc1's 9 (won) and orc2's 17 (lost) (l.122, l.128).
  auto in = Cmd("kara", "interrupt");
  in.window = w1;
  WithText(in, "act", "shift");
  kernel::AddRef(in, "also_window", 0, w2);
  in.path.emplace_back(4, 4);
  auto ev = s.Submit(in, {12, 9, 17});
  ASSERT_TRUE(ev.ok()) << ev.status();
  {
    const Combatant& k = *s.state().Find("kara");
    const Condition* won = Rel(k, "InitiativeWon", "orc1");
    const Condition* lost = Rel(k, "InitiativeLost", "orc2");
    ASSERT_NE(won, nullptr);
    ASSERT_NE(lost, nullptr);
    EXPECT_EQ(won->level, 14 - 9);
    EXPECT_EQ(lost->level, 14 - 17);
    EXPECT_EQ(Num(*ev, "kara.initiative"), 14);
    EXPECT_EQ(Num(*ev, "orc1.initiative"), 9);
    EXPECT_EQ(Num(*ev, "orc2.initiative"), 17);
    EXPECT_EQ(k.at, (Pos{4, 4}));            // the Shift happened at once
    EXPECT_EQ(k.Resource("energy"), 4);      // Shift: 1 Energy (l.21)
  }

  // orc1 lost the race: kara left its reach before any roll, so its attack
  // ends incomplete for 1 Energy (l.134, l.144).
  auto r1 = s.Submit(Cmd("orc1", "resolve"));
  ASSERT_TRUE(r1.ok()) << r1.status();
  EXPECT_NE(Outcome(*r1).find("ended incomplete"), std::string::npos) << Outcome(*r1);
  EXPECT_EQ(s.state().Find("orc1")->Resource("energy"), 4);

  // orc2 won the race: its attack came first and still lands (l.122).
  // Combat 15 (>= AC 0); kara's Evasion 1d10! 2 + 10 = 12 <= AV 16;
  // damage 5 + MASDB 1 = 6 (l.164).
  auto r2 = s.Submit(Cmd("orc2", "resolve"), {15, 2, 5});
  ASSERT_TRUE(r2.ok()) << r2.status();
  EXPECT_EQ(Num(*r2, "av"), 16);
  EXPECT_EQ(Num(*r2, "defense_total"), 12);
  EXPECT_EQ(s.state().Find("kara")->Resource("aura"), 24 - 6);

  // orc1 steps in (Shift, l.21) and attacks again.
  auto step = Cmd("orc1", "shift");
  step.path.emplace_back(5, 5);
  ASSERT_TRUE(s.Submit(AtOnce(step)).ok());
  ASSERT_TRUE(s.Submit(Cmd("orc1", "melee", {"kara"})).ok());

  // A second Initiative roll in the round automatically fails (l.126): no
  // die is rolled and the Shift does not happen.
  auto again = Cmd("kara", "interrupt");
  again.window = OpenWindow(s);
  WithText(again, "act", "shift");
  again.path.emplace_back(3, 3);
  auto a2 = s.Submit(again);
  ASSERT_TRUE(a2.ok()) << a2.status();
  {
    const Condition* lost = Rel(*s.state().Find("kara"), "InitiativeLost", "orc1");
    ASSERT_NE(lost, nullptr);
    EXPECT_NE(lost->note.find("automatically fails"), std::string::npos);
    EXPECT_EQ(s.state().Find("kara")->at, (Pos{4, 4}));
  }

  // kara's Evasion die explodes twice: 10, 10, 3 = 23 + 10 = 33 > AV 16:
  // a miss (l.320, l.166).
  auto r3 = s.Submit(Cmd("orc1", "resolve"), {16, 10, 10, 3});
  ASSERT_TRUE(r3.ok()) << r3.status();
  EXPECT_EQ(Num(*r3, "defense_explosions"), 2);
  EXPECT_EQ(Num(*r3, "defense_total"), 33);
  EXPECT_EQ(s.state().Find("kara")->Resource("aura"), 18);
  EXPECT_EQ(s.state().Find("orc1")->Resource("energy"), 0);  // 1 + 3 + ... (l.154)

  // kara's hit lands on armor: Combat 8 < AC 10, Evasion 5 + 8 = 13 <= 17;
  // 6 + 1 - AR 3 = 4 (l.178, l.164).
  auto h1 = s.Submit(AtOnce(Cmd("kara", "melee", {"orc1"})), {8, 5, 6});
  ASSERT_TRUE(h1.ok()) << h1.status();
  EXPECT_EQ(Num(*h1, "armor_hit"), 1);
  EXPECT_EQ(Num(*h1, "damage"), 4);
  EXPECT_EQ(s.state().Find("orc1")->Resource("aura"), 26 - 4);
  EXPECT_EQ(s.state().Find("kara")->Resource("energy"), 1);

  // The GM ends the round (l.150); Energy and Agility reset (l.107-109).
  ASSERT_TRUE(s.Submit(Gm("end_round", "", "everyone has acted")).ok());
  EXPECT_EQ(s.state().round, 2);
  EXPECT_EQ(s.state().Find("kara")->Resource("energy"), 5);
  EXPECT_EQ(s.state().Find("kara")->Resource("initiative_round"), 1);

  // Round 2: kara steps next to orc2 (Shift, 1 Energy, l.21) and her hit
  // bypasses armor: Combat 15 >= AC 10, Evasion 4 + 8 = 12 <= 17; 6 + 1 =
  // 7, no AR (l.178).
  auto close = Cmd("kara", "shift");
  close.path.emplace_back(4, 5);
  ASSERT_TRUE(s.Submit(AtOnce(close)).ok());
  auto h2 = s.Submit(AtOnce(Cmd("kara", "melee", {"orc2"})), {15, 4, 6});
  ASSERT_TRUE(h2.ok()) << h2.status();
  EXPECT_EQ(Num(*h2, "armor_hit"), 0);
  EXPECT_EQ(s.state().Find("orc2")->Resource("aura"), 26 - 7);

  ExpectSourced(s);
  s.ExpectDeterministic();
}

// A creature at 0 Aura: Death rolls on every damaging hit (l.626), Death
// Saves at the start of every Round (l.635), one per Round (l.645), until a
// 20 stabilises it (l.641).
TEST(EnergyRoundsScenario, DeathRollsAndSavesToStabilisation) {
  Scenario s(Roster({Kara(5, 5), Orc("orc", 6, 5, /*aura=*/2)}));
  ASSERT_TRUE(s.status().ok()) << s.status();

  // 7 damage empties the last 2 Aura; that hit makes no Death roll (l.626).
  ASSERT_TRUE(s.Submit(AtOnce(Cmd("kara", "melee", {"orc"})), {15, 4, 6}).ok());
  EXPECT_EQ(s.state().Find("orc")->Resource("aura"), 0);
  EXPECT_FALSE(s.state().Find("orc")->Has("Bleeding"));
  ASSERT_TRUE(s.Submit(Gm("end_round", "", "round over")).ok());

  // Round 2: hit at 0 Aura: Death roll 7 (5-9): major injury, Exhausted
  // until the next Short Rest, bleeding out (l.635).
  auto d1 = s.Submit(AtOnce(Cmd("kara", "melee", {"orc"})), {15, 4, 6, 7});
  ASSERT_TRUE(d1.ok()) << d1.status();
  {
    const Combatant& o = *s.state().Find("orc");
    EXPECT_EQ(o.Resource("death_roll"), 7);
    EXPECT_TRUE(o.Has("Bleeding"));
    EXPECT_TRUE(o.Has("Exhausted"));
    EXPECT_FALSE(o.Has("Unconscious"));
  }

  // Round 3 starts with a Death Save: 10 (5-19): still bleeding (l.642).
  // Exhausted: Energy 5 - 2 = 3 (l.668).
  ASSERT_TRUE(s.Submit(Gm("end_round", "", "round over"), {10}).ok());
  EXPECT_EQ(s.state().round, 3);
  EXPECT_EQ(s.state().Find("orc")->Resource("death_save"), 10);
  EXPECT_EQ(s.state().Find("orc")->Resource("energy"), 3);
  EXPECT_TRUE(s.state().Find("orc")->Has("Bleeding"));

  // Another hit at 0 Aura: unarmed, Combat 15, Evasion 4 + 8 = 12 <= 16,
  // MASAB 1 damage (l.547); Death roll 3 (2-4): falls unconscious (l.636).
  // Still one Bleeding and one Death Save a round (l.645).
  auto d2 = s.Submit(AtOnce(Cmd("kara", "unarmed", {"orc"})), {15, 4, 3});
  ASSERT_TRUE(d2.ok()) << d2.status();
  {
    const Combatant& o = *s.state().Find("orc");
    EXPECT_TRUE(o.Has("Unconscious"));
    EXPECT_TRUE(o.Has("Unguarded"));  // l.686
    int bleeding = 0;
    for (const auto& [id, k] : o.conditions) bleeding += k.name == "Bleeding";
    EXPECT_EQ(bleeding, 1);
  }

  // Round 4: Death Save 20: Stabilized (l.641); the GM decides when it
  // wakes (l.659).
  auto st = s.Submit(Gm("end_round", "", "round over"), {20});
  ASSERT_TRUE(st.ok()) << st.status();
  EXPECT_FALSE(s.state().Find("orc")->Has("Bleeding"));
  EXPECT_TRUE(s.state().Find("orc")->Has("Unconscious"));
  // No more Death Saves: the next round needs no dice.
  ASSERT_TRUE(s.Submit(Gm("end_round", "", "round over")).ok());

  auto wake = Gm("gm_condition", "orc", "it comes round after the fight");
  WithText(wake, "name", "Unconscious");
  WithText(wake, "op", "remove");
  ASSERT_TRUE(s.Submit(wake).ok());
  EXPECT_FALSE(s.state().Find("orc")->Has("Unguarded"));
  ExpectSourced(s);
  s.ExpectDeterministic();
}

// Two Immediate Interrupts into one window happen simultaneously (l.132):
// the act waits for the GM's ruling. Then everybody passes and the round
// ends on its own (l.150).
TEST(EnergyRoundsScenario, SimultaneousSwiftAttacksAndWaiting) {
  Scenario s(Roster({Kara(5, 5), Orc("orc1", 6, 5), Orc("orc2", 5, 6)}));
  ASSERT_TRUE(s.status().ok()) << s.status();
  // kara trips orc1: AV 17 - 5 = 12; orc1 is not Exposed, so kara becomes
  // Unguarded and orc1 rolls Evasion with Advantage (l.553): 3, 2 -> 11;
  // Fortitude 12 + 4 = 16 is not higher than 17: Prone (l.557).
  auto trip = s.Submit(AtOnce(Cmd("kara", "trip", {"orc1"})), {15, 3, 2, 4});
  ASSERT_TRUE(trip.ok()) << trip.status();
  EXPECT_TRUE(s.state().Find("orc1")->Has("Prone"));
  EXPECT_TRUE(s.state().Find("kara")->Has("Unguarded"));

  // kara Defends: both orcs answer with Swift Attacks (kara is Unguarded,
  // l.485), 1 Energy each (l.481), no Initiative roll.
  ASSERT_TRUE(s.Submit(Cmd("kara", "defend")).ok());
  const uint32_t w = OpenWindow(s);
  const uint64_t trigger = s.state().windows.at(w).trigger;
  auto sw1 = Cmd("orc2", "interrupt", {"kara"});
  sw1.window = w;
  WithText(sw1, "act", "melee");
  With(sw1, "swift", 1);
  // Combat 15; Evasion 2 + 10 = 12 <= 16: 5 + 1 = 6 damage.
  ASSERT_TRUE(s.Submit(sw1, {15, 2, 5}).ok());
  auto sw2 = Cmd("orc1", "interrupt", {"kara"});
  sw2.window = w;
  WithText(sw2, "act", "melee");
  With(sw2, "swift", 1);
  // Combat 14; Evasion 3 + 10 = 13 <= 16: 4 + 1 = 5 damage.
  ASSERT_TRUE(s.Submit(sw2, {14, 3, 4}).ok());
  EXPECT_EQ(s.state().Find("kara")->Resource("aura"), 24 - 6 - 5);
  EXPECT_TRUE(s.state().Find("orc1")->Has("Simultaneous"));
  EXPECT_EQ(s.Submit(Cmd("kara", "resolve")).status().code(),
            absl::StatusCode::kFailedPrecondition);

  auto ruling = Gm("gm_note", "", "both blows land together before kara's guard is up");
  WithText(ruling, "kind", "resolve");
  kernel::AddRef(ruling, "subject", trigger);
  ASSERT_TRUE(s.Submit(ruling).ok());
  ASSERT_TRUE(s.Submit(Cmd("kara", "resolve")).ok());
  EXPECT_TRUE(s.state().Find("kara")->Has("Defending"));
  EXPECT_FALSE(s.state().Find("kara")->Has("Unguarded"));  // l.35

  // Nobody acts: every conscious creature passes and the round ends.
  ASSERT_TRUE(s.Submit(Cmd("kara", "pass")).ok());
  ASSERT_TRUE(s.Submit(Cmd("orc1", "pass")).ok());
  EXPECT_EQ(s.state().round, 1);
  ASSERT_TRUE(s.Submit(Cmd("orc2", "pass")).ok());
  EXPECT_EQ(s.state().round, 2);
  EXPECT_EQ(s.state().Find("orc1")->Resource("swift_used"), 0);
  ExpectSourced(s);
  s.ExpectDeterministic();
}

// An ambush: one `surprised` tag surprises the whole party (l.491); a
// Swift Attack cuts down a runner as it passes through Kara's reach from
// afar (l.487); the runner then pushes a surprised ash, who defends with
// Disadvantage (l.493) and fails (l.583).
TEST(EnergyRoundsScenario, SurprisedPartyAndARunnerCutDownInPassing) {
  auto kara = Kara(5, 5);
  kara.tags.push_back("surprised");
  Scenario s(Roster({std::move(kara), Creature("ash", "party", 6, 8, {{"con_score", 10}}),
                     Orc("orc", 9, 6)}));
  ASSERT_TRUE(s.status().ok()) << s.status();
  EXPECT_TRUE(s.state().Find("kara")->Has("Surprised"));
  EXPECT_TRUE(s.state().Find("ash")->Has("Surprised"));  // l.491: the entire party
  EXPECT_FALSE(s.state().Find("orc")->Has("Surprised"));

  // The orc runs past: (8,6) (7,6) (6,6) (6,7). (6,6) is within Kara's
  // reach, in front of her (l.487): a Swift Attack, 1 Energy (l.481).
  auto run = Cmd("orc", "run");
  for (auto [x, y] : std::vector<std::pair<int, int>>{{8, 6}, {7, 6}, {6, 6}, {6, 7}}) {
    run.path.emplace_back(x, y);
  }
  ASSERT_TRUE(s.Submit(run).ok());
  auto sw = Cmd("kara", "interrupt", {"orc"});
  sw.window = s.state().windows.begin()->first;
  WithText(sw, "act", "melee");
  With(sw, "swift", 1);
  // Combat 15 >= AC 10; Evasion 8 + 3 = 11 <= 17; 4 + MASDB 1 = 5.
  auto hit = s.Submit(sw, {15, 3, 4});
  ASSERT_TRUE(hit.ok()) << hit.status();
  EXPECT_EQ(Num(*hit, "damage"), 5);
  EXPECT_EQ(s.state().Find("orc")->Resource("aura"), 26 - 5);
  EXPECT_EQ(s.state().Find("kara")->Resource("energy"), 4);
  ASSERT_TRUE(s.Submit(Cmd("orc", "resolve")).ok());
  EXPECT_EQ(s.state().Find("orc")->at, (Pos{6, 7}));
  // 4 m and 1 m sacrificed to the 90-degree turn at (6,6) (l.27) of Speed
  // 6: ceil(3 x 5 / 6) = 3 Energy (l.142).
  EXPECT_EQ(s.state().Find("orc")->Resource("energy"), 5 - 3);

  // Push: unarmed AV 16 - 5 = 11 (l.583); ash is Exposed (Surprised ->
  // Unguarded -> Exposed), so the orc stays guarded (l.553). Evasion with
  // Disadvantage 2d10kl1: 7, 2 -> 8 + 2 = 10 <= 11; Fortitude with
  // Disadvantage: 9, 4 -> 10 + 4 = 14, not higher than 16: pushed 1 m.
  auto push = s.Submit(AtOnce(Cmd("orc", "push", {"ash"})), {15, 7, 2, 9, 4});
  ASSERT_TRUE(push.ok()) << push.status();
  EXPECT_EQ(Num(*push, "defense_edge"), -1);
  EXPECT_EQ(Num(*push, "save_edge"), -1);
  EXPECT_EQ(Num(*push, "fortitude_total"), 14);
  EXPECT_EQ(s.state().Find("ash")->at, (Pos{6, 9}));
  EXPECT_FALSE(s.state().Find("orc")->Has("Unguarded"));

  ASSERT_TRUE(s.Submit(Gm("end_round", "", "round over")).ok());
  EXPECT_FALSE(s.state().Find("kara")->Has("Surprised"));  // end of the first Round
  EXPECT_FALSE(s.state().Find("ash")->Has("Unguarded"));
  ExpectSourced(s);
  s.ExpectDeterministic();
}

// l.122 and l.132 together: kara answers orc1's swing with a Run past orc2
// and wins Initiative, so her run "happens at the same time" as the swing
// (l.122) — but Immediate Interrupts "may be performed at any time, even
// interrupting other actions" (l.132): orc2 cuts at her as she passes
// through its reach (l.487) before the run ends. orc1, which could answer
// with an Agile Move, declines; the run resolves, then the swing finds her
// gone (l.144). The once-per-Round limits hold across it (l.111, l.126,
// l.483).
TEST(EnergyRoundsScenario, ARunnerWhoWonInitiativeIsCutInPassing) {
  Scenario s(Roster({Kara(5, 5), Orc("orc1", 6, 5), Orc("orc2", 5, 6)}));
  ASSERT_TRUE(s.status().ok()) << s.status();

  // orc1 Defends first (1 Energy on a non-movement action: one Agile Move
  // credit, l.29), then swings at kara.
  ASSERT_TRUE(s.Submit(AtOnce(Cmd("orc1", "defend"))).ok());
  ASSERT_TRUE(s.Submit(Cmd("orc1", "melee", {"kara"})).ok());
  const uint32_t swing = OpenWindow(s);

  // kara runs (4,6) (3,7) (2,8) in answer: d20 12 + 2 = 14 beats orc1's 9
  // (l.122). (4,6) is beside orc2, which faces north towards kara: the run
  // passes through its Reach in front of it (l.402, l.487).
  auto run = Cmd("kara", "interrupt");
  run.window = swing;
  WithText(run, "act", "run");
  for (auto [x, y] : std::vector<std::pair<int, int>>{{4, 6}, {3, 7}, {2, 8}}) {
    run.path.emplace_back(x, y);
  }
  auto in = s.Submit(run, {12, 9});
  ASSERT_TRUE(in.ok()) << in.status();
  EXPECT_EQ(Num(*in, "kara.initiative"), 14);
  EXPECT_EQ(Num(*in, "orc1.initiative"), 9);
  const uint32_t w = OpenWindow(s);
  {
    const kernel::Window& win = s.state().windows.at(w);
    EXPECT_EQ(win.kind, "immediate_only:run");
    EXPECT_EQ(win.eligible, (std::vector<std::string>{"orc1", "orc2"}));
    EXPECT_EQ(s.state().Find("kara")->at, (Pos{5, 5}));  // the run waits
  }
  // Neither act resolves yet: the run waits for its answers (l.132), the
  // swing for the run (l.122).
  EXPECT_EQ(s.Submit(Cmd("kara", "resolve")).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(s.Submit(Cmd("orc1", "resolve"), {15, 2, 5}).status().code(),
            absl::StatusCode::kFailedPrecondition);

  // orc2's Swift Attack (an Immediate Interrupt: no Initiative, l.481):
  // AV 15 + (3 + 0) / 3 = 16 (l.162); Combat 15 >= kara's AC 0; Evasion 10
  // + 1d10! 3 = 13 <= 16: a hit (l.166); 1d10 5 + MASDB 1 = 6 (l.164).
  auto sw = Cmd("orc2", "interrupt", {"kara"});
  sw.window = w;
  WithText(sw, "act", "melee");
  With(sw, "swift", 1);
  auto hit = s.Submit(sw, {15, 3, 5});
  ASSERT_TRUE(hit.ok()) << hit.status();
  EXPECT_EQ(Num(*hit, "av"), 16);
  EXPECT_EQ(Num(*hit, "defense_total"), 13);
  EXPECT_EQ(Num(*hit, "damage"), 6);
  EXPECT_EQ(s.state().Find("kara")->Resource("aura"), 24 - 6);
  EXPECT_EQ(s.state().Find("kara")->at, (Pos{5, 5}));        // before the run ends
  EXPECT_EQ(s.state().Find("orc2")->Resource("energy"), 4);  // 1 Energy (l.481)
  // The Swift Attack resolved in a window of its own, already closed: no
  // Immediate Interrupt can interrupt it (l.132).
  auto onto = Cmd("orc1", "interrupt");
  onto.window = w + 1;
  WithText(onto, "act", "agile_move");
  onto.path.emplace_back(7, 5);
  EXPECT_FALSE(s.Submit(onto).ok());

  // orc1 declines to answer the run (its own swing still pending).
  auto decline = Cmd("orc1", "pass");
  decline.window = w;
  ASSERT_TRUE(s.Submit(decline).ok());
  // The run: 3 m of Speed 6 costs ceil(3 x 3 / 6) = 2 Energy (l.23, l.142).
  auto ran = s.Submit(Cmd("kara", "resolve"));
  ASSERT_TRUE(ran.ok()) << ran.status();
  EXPECT_EQ(s.state().Find("kara")->at, (Pos{2, 8}));
  EXPECT_EQ(s.state().Find("kara")->Resource("energy"), 3);
  // orc1's swing: kara left its reach before any roll: 1 Energy (l.144).
  auto r1 = s.Submit(Cmd("orc1", "resolve"));
  ASSERT_TRUE(r1.ok()) << r1.status();
  EXPECT_NE(Outcome(*r1).find("ended incomplete"), std::string::npos) << Outcome(*r1);
  EXPECT_EQ(s.state().Find("orc1")->Resource("energy"), 5 - 1 - 1);
  EXPECT_TRUE(s.state().windows.empty());

  // kara runs back past orc2 (reversing costs 2 m, l.27: 2 m of 6 - 2).
  auto back = Cmd("kara", "run");
  back.path.emplace_back(3, 7);
  back.path.emplace_back(4, 6);
  ASSERT_TRUE(s.Submit(back).ok());
  const uint32_t bw = OpenWindow(s);
  // l.483 (and l.111): orc2 made its one Swift Attack this Round.
  auto sw2 = Cmd("orc2", "interrupt", {"kara"});
  sw2.window = bw;
  WithText(sw2, "act", "melee");
  With(sw2, "swift", 1);
  auto no = s.Submit(sw2, {15, 3, 5});
  EXPECT_EQ(no.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(no.status().message().find("already made a Swift Attack"), std::string::npos)
      << no.status();
  // l.126 (and l.112): orc1 rolled Initiative when kara challenged it; a
  // second roll this Round automatically fails, with no die.
  auto late = Cmd("orc1", "interrupt");
  late.window = bw;
  WithText(late, "act", "shift");
  late.path.emplace_back(7, 5);
  auto lost = s.Submit(late);
  ASSERT_TRUE(lost.ok()) << lost.status();
  const Condition* l = Rel(*s.state().Find("orc1"), "InitiativeLost", "kara");
  ASSERT_NE(l, nullptr);
  EXPECT_NE(l->note.find("automatically fails"), std::string::npos) << l->note;
  EXPECT_EQ(s.state().Find("orc1")->at, (Pos{6, 5}));  // no Shift
  ASSERT_TRUE(s.Submit(Cmd("kara", "resolve")).ok());
  EXPECT_EQ(s.state().Find("kara")->at, (Pos{4, 6}));
  EXPECT_EQ(s.state().Find("kara")->Resource("energy"), 3 - 2);  // ceil(3 x (2 + 2) / 6)

  ASSERT_TRUE(s.Submit(Gm("end_round", "", "round over")).ok());
  EXPECT_EQ(s.state().Find("orc2")->Resource("swift_used"), 0);  // l.110: each Round
  ExpectSourced(s);
  s.ExpectDeterministic();
}

}  // namespace
}  // namespace combat::tests
