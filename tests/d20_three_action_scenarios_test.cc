// Full encounters under seed 000 (d20_three_action), played through the
// engine into a real RocksDB with fixed dice. Every number asserted is the
// one the rules give; comments cite the seed lines
// (../shared/seeds/000_ab2f36f2929fdde3.txt).
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "kernel/d20_three_action/ruleset.h"
#include "kernel/testing/events.h"
#include "tests/scenario.h"

namespace combat::tests {
namespace {

using kernel::State;

#define ASSERT_OK(expr)                  \
  do {                                   \
    const auto& s_ = (expr);             \
    ASSERT_TRUE(s_.ok()) << s_.status(); \
  } while (0)

fb::CombatantSpecT Armed(fb::CombatantSpecT c, fb::WeaponT w) {
  c.weapons.push_back(std::make_unique<fb::WeaponT>(std::move(w)));
  return c;
}

fb::RosterT Roster(std::vector<fb::CombatantSpecT> cs, int w, int h) {
  fb::RosterT r;
  r.title = "scenario";
  r.ruleset = "d20_three_action";
  r.map = std::make_unique<fb::MapT>();
  r.map->width = w;
  r.map->height = h;
  for (auto& c : cs) {
    r.combatants.push_back(std::make_unique<fb::CombatantSpecT>(std::move(c)));
  }
  return r;
}

void Cell(fb::RosterT& r, int x, int y, const std::string& terrain) {
  auto c = std::make_unique<fb::CellT>();
  c->at = std::make_unique<fb::Pos>(x, y);
  c->terrain = terrain;
  r.map->cells.push_back(std::move(c));
}

fb::CommandT Attack(const std::string& who, const std::string& target,
                    const std::string& weapon) {
  fb::CommandT c = Cmd(who, "attack", {target});
  c.weapon = weapon;
  return c;
}

fb::CommandT Path(fb::CommandT c, std::vector<std::pair<int, int>> squares) {
  for (auto [x, y] : squares) c.path.emplace_back(x, y);
  return c;
}

int64_t Hp(const Scenario& s, const std::string& who) {
  return s.state().Find(who)->Resource("hp");
}
int64_t Penalty(const Scenario& s, const std::string& who) {
  return s.state().Find(who)->Resource("bleed_penalty");
}
bool Has(const Scenario& s, const std::string& who, const std::string& c) {
  return s.state().Find(who)->Has(c);
}

// Issue 16: every modifier the encounter recorded names its source or rule
// (kernel::d20::IsModifier says which numbers are modifiers), and every rule
// a number cites is in the table.
void ExpectSourced(const Scenario& s) {
  const std::vector<std::string> faults = kernel::testing::UnsourcedModifiers(
      s.log(), kernel::d20::D20ThreeAction().Rules(), kernel::d20::IsModifier);
  EXPECT_TRUE(faults.empty()) << faults.size() << " faults, first: " << faults.front();
}

// (1) An ambush. bo and aria are Undetected; the goblins are unaware.
TEST(D20Scenario, AmbushFlankCriticalBleedAndDeath) {
  fb::CombatantSpecT aria =
      Armed(Creature("aria", "party", 4, 5,
                     {{"level", 2},
                      {"str", 3},
                      {"dex", 2},
                      {"ess", 0},
                      {"hp", 24},
                      {"speed", 30},
                      {"physical_defense", 13},
                      {"mental_defense", 11}}),
            MakeWeapon("spear", "1d8", "melee", "medium", 5, 0));
  aria.tags = {"undetected"};
  fb::CombatantSpecT bo =
      Armed(Creature("bo", "party", 6, 5,
                     {{"level", 2},
                      {"str", 1},
                      {"dex", 4},
                      {"ess", 0},
                      {"hp", 18},
                      {"speed", 30},
                      {"physical_defense", 14},
                      {"mental_defense", 12}}),
            MakeWeapon("dagger", "1d4", "melee", "light", 5, 0));
  bo.tags = {"undetected"};
  fb::CombatantSpecT gob =
      Armed(Creature("gob", "goblins", 5, 5,
                     {{"level", 1},
                      {"str", 1},
                      {"dex", 2},
                      {"ess", 0},
                      {"hp", 10},
                      {"speed", 25},
                      {"physical_defense", 11},
                      {"mental_defense", 9}}),
            MakeWeapon("club", "1d6", "melee", "medium", 5, 0));
  gob.tags = {"unaware"};
  fb::CombatantSpecT grk =
      Armed(Creature("grk", "goblins", 8, 8,
                     {{"level", 1},
                      {"str", 1},
                      {"dex", 1},
                      {"ess", 0},
                      {"hp", 10},
                      {"speed", 25},
                      {"physical_defense", 11},
                      {"mental_defense", 9}}),
            MakeWeapon("club", "1d6", "melee", "medium", 5, 0));
  grk.tags = {"unaware"};
  fb::RosterT r = Roster({}, 10, 10);
  r.combatants.push_back(std::make_unique<fb::CombatantSpecT>(std::move(aria)));
  r.combatants.push_back(std::make_unique<fb::CombatantSpecT>(std::move(bo)));
  r.combatants.push_back(std::make_unique<fb::CombatantSpecT>(std::move(gob)));
  r.combatants.push_back(std::make_unique<fb::CombatantSpecT>(std::move(grk)));

  // L11 initiative (d20 + DEX): aria 12+2=14, bo 15+4=19, gob 18+2=20,
  // grk 3+1=4. gob goes first, but the unaware do not act in round 1
  // (L11): its Turn starts and ends at once, and bo acts.
  Scenario s(r, {12, 15, 18, 3});
  ASSERT_TRUE(s.status().ok()) << s.status();
  EXPECT_EQ(s.state().order[0].actor, "gob");
  EXPECT_EQ(s.state().active, "bo");

  // bo: Advantage from being Undetected (L115/L117: gob is Flat Footed to
  // it) and from flanking with aria (L109). 2d20kh1 {4,17}: 17 + Level 2 +
  // DEX 4 (light weapon, L29) = 23 >= 11 + 10: a Critical Success (L27):
  // (1d4 3 + STR 1) x 2 = 8.
  ASSERT_OK(s.Submit(Attack("bo", "gob", "dagger"), {4, 17, 3}));
  EXPECT_EQ(Hp(s, "gob"), 2);
  EXPECT_EQ(Penalty(s, "gob"), 1);  // L127
  EXPECT_EQ(s.state().Find("bo")->FindRelative("undetected", "gob"), nullptr);
  ASSERT_OK(s.Submit(Cmd("bo", "end_turn")));
  EXPECT_EQ(s.state().active, "aria");

  // aria: still Undetected by gob, and flanking: 2d20kh1 {9,6} = 9 + 2 + 3
  // = 14 hits; 1d8 2 + STR 3 = 5: HP -3 -> Incapacitated, Prone, Bleeding
  // (L152).
  ASSERT_OK(s.Submit(Attack("aria", "gob", "spear"), {9, 6, 2}));
  EXPECT_EQ(Hp(s, "gob"), -3);
  EXPECT_TRUE(Has(s, "gob", "incapacitated"));
  EXPECT_TRUE(Has(s, "gob", "prone"));
  EXPECT_TRUE(Has(s, "gob", "bleeding"));
  EXPECT_EQ(Penalty(s, "gob"), 2);

  // grk's round 1 Turn passes without acting (L11); round 2: gob bleeds
  // first (L127): d20 9 - 2 = 7:
  // Deteriorate (L134), penalty 3; then 2d6 {1,2} = 3 bleed damage: HP -6,
  // penalty 4. Incapacitated: 1 Action (L152).
  ASSERT_OK(s.Submit(Cmd("aria", "end_turn"), {9, 1, 2}));
  EXPECT_EQ(s.state().round, 2);
  EXPECT_EQ(s.state().active, "gob");
  EXPECT_EQ(Hp(s, "gob"), -6);
  EXPECT_EQ(Penalty(s, "gob"), 4);
  EXPECT_EQ(s.state().Find("gob")->Resource("actions"), 1);
  ASSERT_OK(s.Submit(Cmd("gob", "end_turn")));
  ASSERT_OK(s.Submit(Cmd("bo", "end_turn")));
  ASSERT_OK(s.Submit(Cmd("aria", "end_turn")));

  // grk, aware in round 2, closes on bo (15 ft... 10 ft of plain ground)
  // at (7,6): with gob at (5,5) (Incapacitated, not Unconscious) bo at
  // (6,5) is flanked, a knight's move apart (L109 "any two points in their
  // space": from (5.9, 5.5) to (7.1, 6.01) the line crosses bo's left and
  // right sides): 2d20kh1 {10, 3}: 10 + 1 + 1 = 12 < 14, a miss.
  ASSERT_EQ(s.state().active, "grk");
  ASSERT_OK(s.Submit(Path(Cmd("grk", "move"), {{7, 7}, {7, 6}})));
  auto grk_attack = s.Submit(Attack("grk", "bo", "club"), {10, 3});
  ASSERT_OK(grk_attack);
  EXPECT_EQ(kernel::testing::LastNumber(*grk_attack, "adv.flanked").source,
            "gob");
  EXPECT_EQ(Hp(s, "bo"), 18);

  // Round 3: gob's Bleed Table roll d20 4 - 4 = 0: Death, as it is below
  // 0 HP (L132). Its turn ends at once; bo is next.
  ASSERT_OK(s.Submit(Cmd("grk", "end_turn"), {4}));
  EXPECT_EQ(s.state().round, 3);
  EXPECT_TRUE(Has(s, "gob", "dead"));
  EXPECT_EQ(s.state().active, "bo");

  // bo: d20 18 + 6 = 24 >= 21: critical, (4 + 1) x 2 = 10: grk at 0 HP.
  ASSERT_OK(s.Submit(Attack("bo", "grk", "dagger"), {18, 4}));
  EXPECT_EQ(Hp(s, "grk"), 0);
  EXPECT_TRUE(Has(s, "grk", "incapacitated"));
  ASSERT_OK(s.Submit(Cmd("bo", "end_turn")));
  // aria steps past gob's body (the dead do not block) and strikes the
  // prone grk with Advantage (L160): {12,5} -> 12 + 5 = 17; 1d8 8 + 3 = 11:
  // HP -11 <= -10, its max HP: Dead (L140).
  ASSERT_OK(s.Submit(Path(Cmd("aria", "move"), {{5, 6}, {6, 6}})));
  ASSERT_OK(s.Submit(Attack("aria", "grk", "spear"), {12, 5, 8}));
  EXPECT_EQ(Hp(s, "grk"), -11);
  EXPECT_TRUE(Has(s, "grk", "dead"));
  auto dead = s.Submit(Attack("aria", "grk", "spear"));
  EXPECT_EQ(dead.status().code(), absl::StatusCode::kFailedPrecondition);
  ExpectSourced(s);
  s.ExpectDeterministic();
}

// (2) Grapple, trip, a push into a wall, feint, dodge, and a readied
// action firing in a window.
TEST(D20Scenario, ManeuversDodgeAndAReadiedAttack) {
  fb::CombatantSpecT kara =
      Armed(Creature("kara", "party", 3, 2,
                     {{"level", 2},
                      {"str", 4},
                      {"dex", 1},
                      {"ess", 0},
                      {"hp", 24},
                      {"speed", 30},
                      {"physical_defense", 13},
                      {"mental_defense", 11}}),
            MakeWeapon("fist", "1d4", "melee", "light", 5, 0));
  fb::CombatantSpecT brute =
      Armed(Creature("brute", "goblins", 4, 2,
                     {{"level", 2},
                      {"str", 3},
                      {"dex", 1},
                      {"ess", 0},
                      {"hp", 20},
                      {"speed", 30},
                      {"physical_defense", 12},
                      {"mental_defense", 10}}),
            MakeWeapon("axe", "1d8", "melee", "medium", 5, 0));
  fb::CombatantSpecT sneak =
      Armed(Creature("sneak", "goblins", 1, 4,
                     {{"level", 1},
                      {"str", 1},
                      {"dex", 3},
                      {"ess", 0},
                      {"hp", 12},
                      {"speed", 30},
                      {"physical_defense", 13},
                      {"mental_defense", 9}}),
            MakeWeapon("knife", "1d4", "melee", "light", 5, 0));
  fb::RosterT r = Roster({}, 10, 6);
  r.combatants.push_back(std::make_unique<fb::CombatantSpecT>(std::move(kara)));
  r.combatants.push_back(
      std::make_unique<fb::CombatantSpecT>(std::move(brute)));
  r.combatants.push_back(
      std::make_unique<fb::CombatantSpecT>(std::move(sneak)));
  for (int y = 0; y < 6; ++y) Cell(r, 7, y, "wall");

  Scenario s(r, {15, 10, 6});  // kara 16, brute 11, sneak 9
  ASSERT_TRUE(s.status().ok()) << s.status();
  ASSERT_EQ(s.state().active, "kara");

  // Feint (L53): d20 12 + Level 2 + STR 4 = 18 vs Mental Defense 10.
  ASSERT_OK(s.Submit(Cmd("kara", "feint", {"brute"}), {12}));
  EXPECT_NE(s.state().Find("brute")->FindRelative("flat_footed", "kara"),
            nullptr);
  // Push (L51), with Advantage from the feint: {3,17} -> 23 vs brute's
  // 4 + 5 = 9: critical, up to 15 ft. brute slides 10 ft into the wall at
  // x=7: 1d6 for the 5 ft it could not travel (5), and Prone. kara follows.
  fb::CommandT push = Cmd("kara", "push", {"brute"});
  With(push, "distance", 15);
  ASSERT_OK(s.Submit(push, {3, 17, 4, 5}));
  EXPECT_EQ(s.state().Find("brute")->at, (kernel::Pos{6, 2}));
  EXPECT_EQ(s.state().Find("kara")->at, (kernel::Pos{5, 2}));
  EXPECT_EQ(Hp(s, "brute"), 15);
  EXPECT_TRUE(Has(s, "brute", "prone"));
  // Dodge (L45).
  ASSERT_OK(s.Submit(Cmd("kara", "dodge")));
  ASSERT_OK(s.Submit(Cmd("kara", "end_turn")));
  EXPECT_FALSE(Has(s, "brute", "flat_footed"));  // the rest of kara's turn

  // brute stands (L160), attacks into the Dodge: 2d20kl1 {18,7} -> 7 + 5 =
  // 12 < 13: miss, the Dodge is used. Then grapples: 14 + 5 = 19 vs kara's
  // 6 + 6 = 12 (L59): they share kara's square.
  ASSERT_OK(s.Submit(Cmd("brute", "stand")));
  ASSERT_OK(s.Submit(Attack("brute", "kara", "axe"), {18, 7}));
  EXPECT_EQ(Hp(s, "kara"), 24);
  EXPECT_FALSE(Has(s, "kara", "dodging"));
  ASSERT_OK(s.Submit(Cmd("brute", "grapple", {"kara"}), {14, 6}));
  EXPECT_TRUE(Has(s, "kara", "grappled"));
  EXPECT_EQ(s.state().Find("brute")->at, (kernel::Pos{5, 2}));
  ASSERT_OK(s.Submit(Cmd("brute", "end_turn")));

  // sneak closes in and readies an attack for when kara attacks (L61).
  ASSERT_OK(s.Submit(Path(Cmd("sneak", "move"), {{2, 3}, {3, 3}, {4, 3}})));
  fb::CommandT ready = Cmd("sneak", "ready");
  WithText(ready, "action", "attack");
  WithText(ready, "trigger", "attacks");
  WithText(ready, "by", "kara");
  ASSERT_OK(s.Submit(ready));
  ASSERT_OK(s.Submit(Cmd("sneak", "end_turn")));

  // Round 2. kara escapes (L148): a roll "to Push them away or Grapple
  // them", which L47 counts as an Attack, so sneak's trigger: the window
  // opens and sneak passes, its readied attack kept. 15 + 6 = 21 vs
  // brute's roll with Advantage (kara is Flat Footed to her grappler):
  // {8,2} -> 8 + 5 = 13.
  ASSERT_EQ(s.state().round, 2);
  ASSERT_OK(s.Submit(Cmd("kara", "escape")));
  ASSERT_EQ(s.state().windows.size(), 1u);
  fb::CommandT pass = Cmd("sneak", "pass");
  pass.window = s.state().windows.begin()->first;
  ASSERT_OK(s.Submit(pass, {15, 8, 2}));
  EXPECT_TRUE(s.state().windows.empty());
  EXPECT_FALSE(Has(s, "kara", "grappled"));
  EXPECT_FALSE(Has(s, "brute", "grappling"));
  // kara attacks brute: sneak's trigger. A window opens before it resolves.
  ASSERT_OK(s.Submit(Attack("kara", "brute", "fist")));
  ASSERT_EQ(s.state().windows.size(), 1u);
  const uint32_t window = s.state().windows.begin()->first;
  // sneak's readied attack: 16 + 1 + DEX 3 = 20 hits; 1d4 3 + 1 = 4. Then
  // kara's attack resolves: 13 + 6 = 19 hits; 1d4 2 + 4 = 6.
  fb::CommandT answer = Attack("sneak", "kara", "knife");
  answer.window = window;
  ASSERT_OK(s.Submit(answer, {16, 3, 13, 2}));
  EXPECT_TRUE(s.state().windows.empty());
  EXPECT_EQ(Hp(s, "kara"), 20);
  EXPECT_EQ(Hp(s, "brute"), 9);
  // Trip (L57): 11 + 6 = 17 vs 5 + 4 = 9: Prone.
  ASSERT_OK(s.Submit(Cmd("kara", "trip", {"sneak"}), {11, 5}));
  EXPECT_TRUE(Has(s, "sneak", "prone"));
  EXPECT_EQ(s.state().Find("kara")->Resource("actions"), 0);
  ExpectSourced(s);
  s.ExpectDeterministic();
}

// (3) Ranged fire, cover, difficult terrain, delay and re-entry, a spell
// whose Slowed lasts one round, a commanded companion, Focus and Control.
TEST(D20Scenario, RangeCoverDelayCommandAndSpells) {
  fb::CombatantSpecT lyra =
      Armed(Creature("lyra", "party", 0, 3,
                     {{"level", 3},
                      {"str", 0},
                      {"dex", 3},
                      {"ess", 4},
                      {"hp", 18},
                      {"speed", 30},
                      {"physical_defense", 12},
                      {"mental_defense", 13},
                      {"energy_max", 8},
                      {"energy", 2}}),
            MakeWeapon("longbow", "1d8", "ranged", "medium", 5, 30));
  fb::CombatantSpecT wolf =
      Armed(Creature("wolf", "party", 1, 3,
                     {{"level", 1},
                      {"str", 2},
                      {"dex", 2},
                      {"ess", 0},
                      {"hp", 12},
                      {"speed", 40},
                      {"physical_defense", 12},
                      {"mental_defense", 8}}),
            MakeWeapon("bite", "1d6", "natural", "medium", 5, 0));
  wolf.controller = "lyra";
  fb::CombatantSpecT guard =
      Armed(Creature("guard", "goblins", 5, 3,
                     {{"level", 1},
                      {"str", 2},
                      {"dex", 1},
                      {"ess", 0},
                      {"hp", 14},
                      {"speed", 30},
                      {"physical_defense", 13},
                      {"mental_defense", 9}}),
            MakeWeapon("spear", "1d8", "melee", "medium", 5, 0));
  fb::CombatantSpecT archer =
      Armed(Creature("archer", "goblins", 12, 3,
                     {{"level", 1},
                      {"str", 0},
                      {"dex", 3},
                      {"ess", 0},
                      {"hp", 12},
                      {"speed", 30},
                      {"physical_defense", 12},
                      {"mental_defense", 10}}),
            MakeWeapon("shortbow", "1d6", "ranged", "medium", 5, 20));
  fb::RosterT r = Roster({}, 14, 8);
  r.combatants.push_back(std::make_unique<fb::CombatantSpecT>(std::move(lyra)));
  r.combatants.push_back(std::make_unique<fb::CombatantSpecT>(std::move(wolf)));
  r.combatants.push_back(
      std::make_unique<fb::CombatantSpecT>(std::move(guard)));
  r.combatants.push_back(
      std::make_unique<fb::CombatantSpecT>(std::move(archer)));
  Cell(r, 4, 3, "difficult");

  // Initiative: lyra 10+3 = 13, guard 12+1 = 13: a tie broken at random
  // (L11): tie-break d20s 6 (lyra) and 2 (guard). archer 5+3 = 8. The wolf
  // rolls none: it acts when commanded (L41).
  Scenario s(r, {10, 12, 5, 6, 2});
  ASSERT_TRUE(s.status().ok()) << s.status();
  ASSERT_EQ(s.state().order.size(), 3u);
  EXPECT_EQ(s.state().order[0].actor, "lyra");
  EXPECT_EQ(s.state().order[1].actor, "guard");

  // lyra delays (L15); guard advances through difficult terrain: 5 ft into
  // (4,3), 10 ft out of it (L69) = 15 ft.
  ASSERT_OK(s.Submit(Cmd("lyra", "delay")));
  EXPECT_EQ(s.state().active, "guard");
  ASSERT_OK(s.Submit(Path(Cmd("guard", "move"), {{4, 3}, {3, 3}})));
  EXPECT_EQ(s.state().Find("guard")->at, (kernel::Pos{3, 3}));
  // lyra enters after the current turn, for the rest of the combat.
  ASSERT_OK(s.Submit(Cmd("lyra", "enter")));
  ASSERT_OK(s.Submit(Cmd("guard", "end_turn")));
  EXPECT_EQ(s.state().active, "lyra");
  EXPECT_EQ(s.state().round, 1);
  EXPECT_EQ(s.state().order[1].actor, "lyra");

  // Command the wolf (L41): it moves and bites with its own Actions:
  // 12 + Level 1 + STR 2 = 15 >= 13; 1d6 4 + STR 2 = 6.
  ASSERT_OK(s.Submit(Cmd("lyra", "command", {"wolf"})));
  ASSERT_OK(s.Submit(Path(Cmd("wolf", "move"), {{2, 4}})));
  ASSERT_OK(s.Submit(Attack("wolf", "guard", "bite"), {12, 4}));
  EXPECT_EQ(Hp(s, "guard"), 8);
  // Longbow at 15 ft (within the first increment, a clear line): d20 10 +
  // Level 3 + DEX 3 = 16 >= 13; 1d8 6.
  ASSERT_OK(s.Submit(Attack("lyra", "guard", "longbow"), {10, 6}));
  EXPECT_EQ(Hp(s, "guard"), 2);
  // The archer is 60 ft away: 60 / 30 = 2 increments, -2 (L31); the guard
  // stands on the line: Cover, Disadvantage (L121, L31).
  // 2d20kl1 {15,9} -> 9 + 6 - 2 = 13 >= 12; 1d8 5.
  ASSERT_OK(s.Submit(Attack("lyra", "archer", "longbow"), {15, 9, 5}));
  EXPECT_EQ(Hp(s, "archer"), 7);
  ASSERT_OK(s.Submit(Cmd("lyra", "end_turn")));

  // archer: 60 ft / 20 = 3 increments (-3), behind cover: {14,11} ->
  // 11 + 1 + 3 - 3 = 12 >= 12; 1d6 2.
  ASSERT_EQ(s.state().active, "archer");
  ASSERT_OK(s.Submit(Attack("archer", "lyra", "shortbow"), {14, 11, 2}));
  EXPECT_EQ(Hp(s, "lyra"), 16);
  ASSERT_OK(s.Submit(Cmd("archer", "end_turn")));

  // Round 2: guard steps next to lyra and misses: 7 + 1 + 2 = 10 < 12.
  ASSERT_EQ(s.state().round, 2);
  ASSERT_EQ(s.state().active, "guard");
  ASSERT_OK(s.Submit(Path(Cmd("guard", "move"), {{2, 2}, {1, 2}})));
  ASSERT_OK(s.Submit(Attack("guard", "lyra", "spear"), {7}));
  ASSERT_OK(s.Submit(Cmd("guard", "end_turn")));
  // lyra shoots within 5 ft: Disadvantage (L31): {17,4} -> 10 < 13.
  ASSERT_OK(s.Submit(Attack("lyra", "guard", "longbow"), {17, 4}));
  EXPECT_EQ(Hp(s, "guard"), 2);
  // Cast "slow" (L37): 2 Energy; the guard is Slowed for 1 Round.
  fb::CommandT slow = Cmd("lyra", "cast", {"guard"});
  WithText(slow, "spell", "slow");
  With(slow, "energy.power", 2);
  With(slow, "rounds", 3);
  WithText(slow, "condition", "slowed");
  With(slow, "condition_rounds", 1);
  ASSERT_OK(s.Submit(slow));
  EXPECT_EQ(s.state().Find("lyra")->Resource("energy"), 0);
  EXPECT_TRUE(Has(s, "guard", "slowed"));
  // Focus (L43): (ESS 4 + Level 3) / 3 = 2, rounded down.
  ASSERT_OK(s.Submit(Cmd("lyra", "focus")));
  EXPECT_EQ(s.state().Find("lyra")->Resource("energy"), 2);
  ASSERT_OK(s.Submit(Cmd("lyra", "end_turn")));
  // archer: a clear line now (the guard moved): d20 3 + 4 - 3 = 4: miss.
  ASSERT_OK(s.Submit(Attack("archer", "lyra", "shortbow"), {3}));
  ASSERT_OK(s.Submit(Cmd("archer", "end_turn")));

  // Round 3: the guard's turn comes first: Slowed, 2 Actions (L162).
  ASSERT_EQ(s.state().active, "guard");
  EXPECT_EQ(s.state().Find("guard")->Resource("actions"), 2);
  ASSERT_OK(s.Submit(Cmd("guard", "end_turn")));
  // At lyra's turn the round is over for the Slowed (L13): it ends.
  EXPECT_EQ(s.state().active, "lyra");
  EXPECT_FALSE(Has(s, "guard", "slowed"));
  // Control the spell cast on a previous turn (L39): Shaken this time.
  fb::CommandT control = Cmd("lyra", "control", {"guard"});
  WithText(control, "spell", "slow");
  WithText(control, "condition", "shaken");
  With(control, "condition_rounds", 1);
  ASSERT_OK(s.Submit(control));
  EXPECT_TRUE(Has(s, "guard", "shaken"));
  EXPECT_EQ(s.Submit(control).status().code(),
            absl::StatusCode::kFailedPrecondition);  // once per turn
  // The wolf again (a new Round): 10 + 3 = 13 >= 13; 1d6 4 + 2 = 6: the
  // guard drops to -4: Incapacitated, Prone and Bleeding (L152).
  ASSERT_OK(s.Submit(Cmd("lyra", "command", {"wolf"})));
  ASSERT_OK(s.Submit(Path(Cmd("wolf", "move"), {{2, 3}})));
  ASSERT_OK(s.Submit(Attack("wolf", "guard", "bite"), {10, 4}));
  EXPECT_EQ(Hp(s, "guard"), -4);
  EXPECT_TRUE(Has(s, "guard", "incapacitated"));
  EXPECT_TRUE(Has(s, "guard", "bleeding"));
  ExpectSourced(s);
  s.ExpectDeterministic();
}

}  // namespace
}  // namespace combat::tests
