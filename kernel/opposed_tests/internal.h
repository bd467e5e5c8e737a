// Internal pieces of the opposed_tests ruleset (seed 003), one concept per
// file:
//   rules_table.cc  the rule ids and the seed lines they read
//   tests.cc        THE test mechanics: dice, target, Successes, boon/bane,
//                   automatic pass/fail, contests (the one place; README)
//   stats.cc        skill pools, sizes, reach, range, cover, flanking
//   setup.cc        roster checks, resources, surprise, initiative
//   turns.cc        rounds, turns, AP, the attack limit, saving a turn
//   combat_roll.cc  strike / attack spells / opportunity attacks: the
//                   defense window, both tests, the outcome
//   damage.cc       AR, BR, resistances, vulnerabilities, health
//   maneuvers.cc    the maneuver window after a critical win
//   movement.cc     move, dash, disengage, stand; opportunity windows
//   actions.cc      grapple, search, sneak, manipulate, use_magic, release
//   ruleset.cc      Setup and the Decide dispatch
#ifndef COMBAT_KERNEL_OPPOSED_TESTS_INTERNAL_H_
#define COMBAT_KERNEL_OPPOSED_TESTS_INTERNAL_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "kernel/changes.h"
#include "kernel/decision.h"
#include "kernel/refusal.h"
#include "kernel/ruleset.h"
#include "kernel/space.h"
#include "kernel/verb_schema.h"
#include "kernel/state.h"
#include "kernel/trigger.h"

namespace combat::kernel::opposed {

inline constexpr char kSeed[] = "003_ddd5865ba645a58b.txt";
inline constexpr char kId[] = "opposed_tests";
// 2: verb schemas (issue 16): commands with fields a verb does not read
// are refused, so decisions differ from version 1.
inline constexpr int32_t kVersion = 14;

// ---- verbs.cc: the whole verb table (kernel/verb_schema.h), GM verbs
// included (README "Verbs"); checked by the kernel before Decide.
const std::vector<VerbSchema>& Verbs();
// ---- input.cc: what the table cannot say, checked by Decide for every
// ruleset verb: at most one target; `window` only on defend, maneuver,
// opportunity_attack and pass.
absl::Status CheckShape(const fb::CommandT& c);

// ---- rules_table.cc
const std::vector<RuleRef>& RuleTable();
std::string Cite(const std::string& rule);
absl::Status Refuse(const std::string& rule, const std::string& message);

// ---- tests.cc: the test mechanics (README "The test mechanics").
// Session parameters (pools of owner "session", set at set-up from the
// roster stats test_faces, test_success_at, test_pass_at, test_boon_dice).
struct TestMechanics {
  int64_t faces = 6;       // a die of the pool
  int64_t success_at = 5;  // a die showing this or more is a Success
  int64_t pass_at = 1;     // Successes needed to pass
  int64_t boon_dice = 1;   // dice a net boon adds (a net bane removes)
};
inline constexpr const char* kMechanicsKeys[] = {
    "test_faces", "test_success_at", "test_pass_at", "test_boon_dice"};
TestMechanics MechanicsOf(const State& s);
// Checks a set-up's parameters (InvalidArgument naming the field).
absl::Status CheckMechanics(const TestMechanics& m, const std::string& who);

struct TestSpec {
  std::string who;
  std::string skill;      // "fighting_style", "dodge", ...
  std::string attribute;  // governing attribute ("" = none)
  int64_t modifier = 0;   // bonuses and penalties (+2 flanking, -2 ...)
  int boons = 0;
  int banes = 0;
  bool auto_pass = false;
  bool auto_fail = false;
  std::string purpose;    // Roll purpose
  // Each bonus, penalty, boon, bane and automatic result with what gives it
  // and the rule (issue 16): the test's numbers list them (PoolDice).
  Nums parts = {};

  // `n` dice more (less) for `key`, given by `source` under `rule`.
  void Bonus(const std::string& key, int64_t n, const std::string& source, const std::string& rule) {
    modifier += n;
    parts.push_back({key, n, source, rule});
  }
  void Boon(const std::string& key, const std::string& source, const std::string& rule) {
    ++boons;
    parts.push_back({key, 1, source, rule});
  }
  void Bane(const std::string& key, const std::string& source, const std::string& rule) {
    ++banes;
    parts.push_back({key, -1, source, rule});
  }
  void AutoFail(const std::string& key, const std::string& source, const std::string& rule) {
    auto_fail = true;
    parts.push_back({key, 1, source, rule});
  }
  void AutoPass(const std::string& key, const std::string& source, const std::string& rule) {
    auto_pass = true;
    parts.push_back({key, 1, source, rule});
  }
};
// Appends `from` to `to`, each key prefixed ("attack." + key), keeping its
// source and rule.
void AddPrefixed(Nums& to, const std::string& prefix, const Nums& from);

struct TestResult {
  bool rolled = false;
  bool pass = false;
  int64_t successes = 0;
  int64_t dice = 0;
  Nums nums;  // the parts: rating, attribute, modifier, boons, banes, dice
};
// Rolls test `t` (or decides it without dice when automatic).
absl::StatusOr<TestResult> RollTest(Decision& d, const TestSpec& t,
                                    uint64_t cause);
// The pool a test rolls, before dice (for unit tests and nums).
int64_t PoolDice(const State& s, const TestSpec& t, Nums* nums);
// A contest (l.28, l.16): who wins. Both fail: nobody (0); one passes:
// that side (1 = first, 2 = second), a critical win; both pass: more
// Successes wins, ties go to `tie` (0 nobody, 2 the second).
struct ContestResult {
  int winner = 0;
  bool critical = false;
};
ContestResult Contest(const TestResult& a, const TestResult& b, int tie);

// ---- stats.cc
inline constexpr space::Grid kGrid{space::Metric::kChebyshev, 1};
int64_t Distance(const Combatant& a, const Combatant& b);
// Size category (stat "size_class": 0 tiny .. 2 medium (default) .. 5).
int64_t SizeClass(const Combatant& c);
// The governing attribute of a skill (reading; README).
std::string GoverningAttribute(const std::string& skill);
bool IsPhysical(const std::string& type);
bool IsMagical(const std::string& type);
std::string GroupOf(const std::string& type);  // physical, magical, other
const Weapon* FindShield(const Combatant& c);
bool Holds(const Combatant& c, const std::string& weapon);
int64_t ReachOf(const Weapon& w);  // metres (number "reach", default 1)
bool IsMelee(const Weapon& w);
bool IsRanged(const Weapon& w);  // ranged or thrown
bool IsSpell(const Weapon& w);
bool Trait(const Weapon& w, const std::string& key);
// l.45, l.99: wielding (holding) a weapon or shield marked `untrained`
// imposes -2 on ALL Fighting Style tests (once, however many); the name
// of the first such item, or "". A `natural` weapon (a fist: unarmed
// fighting, l.93, l.110) is wielded only when it is `used`, the weapon of
// the test (a Strike or an opportunity attack with it, an unarmed Parry).
std::string WieldedUntrained(const Combatant& c, const Weapon* used);
// The refusal of a Strike or an opportunity attack (`verb`) with a weapon
// `c` does not list: NotFound naming `field 'weapon'`, the weapons it has,
// and, when it lists no natural weapon, what to add to strike unarmed (the
// text gives unarmed fighting, l.93, no damage).
absl::Status NoSuchWeapon(const std::string& verb, const Combatant& c, const std::string& weapon);
// The natural weapon `c` fights with unarmed (a Parry with no `melee` or
// `thrown` weapon nor shield in hand, l.53, l.93): a trained one when it
// has one (the defender's best, l.55, l.99), else the first listed; nullptr
// when it holds a weapon or has no natural one.
const Weapon* UnarmedWeapon(const Combatant& c);
bool Conscious(const Combatant& c);
bool Surprised(const State& s, const Combatant& c);
// Whether `c` could make a melee attack on `target` (holds a melee weapon
// that reaches it).
const Weapon* MeleeReaching(const State& s, const Combatant& c,
                            const Combatant& target);
// Cover of `target` against a ranged attack from `from` (l.86-89):
// 0 none, 1 low, 2 high, 3 full; terrain "wall" blocks a line,
// "cover_low"/"cover_high" obscure it.
int CoverOf(const State& s, const Combatant& from, const Combatant& target,
            std::string* why);
// Flanking (l.91): two characters of `attacker`'s side with `target` in
// melee reach (the attacker, making a melee attack, is in reach), the
// straight line between their centres through `target`'s interior
// (kernel/line_through.h): "a and b", or "" when `target` is not flanked.
std::string Flankers(const State& s, const Combatant& attacker,
                     const Combatant& target);

// ---- turns.cc
inline constexpr char kAp[] = "ap";
inline constexpr char kAttacks[] = "attacks";     // Attack-trait acts this round
inline constexpr char kFree[] = "free_actions";   // free actions this round
inline constexpr char kMoved[] = "moved_m";       // metres moved this turn
inline constexpr char kDash[] = "dash_m";         // metres of Dash left
inline constexpr char kHealth[] = "health";
inline constexpr char kInit[] = "initiative";
// The AP an act costs `c` (1 by reading; roster stat "ap_<verb>").
int64_t ApCost(const Combatant& c, const std::string& verb);
// Checks a primary action: the actor's turn, conscious, not surprised, no
// window open, AP and (when `attack`) the two-attacks limit.
absl::Status CheckPrimary(const State& s, const Combatant& a,
                          const std::string& verb, bool attack, bool free);
// The refusal while a window is open: names the innermost window, who is
// still to answer it and with which verb, citing the rule of the window's
// kind (defense l.50, maneuver l.66, opportunity l.81), else `fallback_rule`.
absl::Status WindowFirst(const State& s, const std::string& fallback_rule);
// Checks a free action (l.39): conscious, not surprised, the round's one
// free action not yet taken, attack limit. Whose turn it is is the verb's
// own rule (a reaction taken as a free action stays a reaction, l.24).
absl::Status CheckFree(const State& s, const Combatant& a, bool attack);
// Checks a reaction: conscious, not surprised, AP, attack limit.
absl::Status CheckReaction(const State& s, const Combatant& a,
                           const std::string& verb, bool attack);
// Spends AP (or the round's free action) and counts an attack.
absl::Status Spend(Decision& d, const std::string& who,
                   const std::string& verb, bool attack, bool free,
                   uint64_t cause, const std::string& rule);
absl::Status BeginCombat(Decision& d);
absl::Status Advance(Decision& d, uint64_t cause);
absl::Status DecideEndTurn(const fb::CommandT& c, Decision& d);
absl::Status DecideSaveTurn(const fb::CommandT& c, Decision& d);
// After a command: when no window is open and the active character is
// down, its turn ends.
absl::Status EndTurnIfDown(Decision& d, uint64_t cause);
// After a GM ruling: when nobody is active (everyone was down) and no
// window is open, a character the ruling made able to act again takes the
// next turn (l.12).
absl::Status ResumeTurns(Decision& d, uint64_t cause);

// ---- setup.cc
absl::Status SetupRoster(const fb::Roster& roster, Decision& d);

// ---- damage.cc
struct DamageIn {
  int64_t rolled = 0;
  std::string type;
  bool blocked = false;  // a successful Block (l.62, l.145)
  int64_t br = 0;
  // The wearer's armor source against this attack (l.143): "ar" for the
  // plain stats ar / ar_magical, "<s>" for ar.<s> / ar_magical.<s>; ""
  // = the standing choice (roster tag "armor:<s>"), else the best one.
  std::string armor;
  std::string shield = {};  // the shield whose BR counts ("" when none)
};
// The armor source the wearer chose standing (tag "armor:<s>"), or "".
std::string ArmorTag(const Combatant& c);
// Whether `source` names an armor source of `c` ("ar" or a stat
// ar.<source> / ar_magical.<source>).
bool HasArmorSource(const Combatant& c, const std::string& source);
struct DamageOut {
  int64_t dealt = 0;
  Nums nums;
};
DamageOut ComputeDamage(const Combatant& target, const DamageIn& in);
absl::Status ApplyDamage(Decision& d, const std::string& target,
                         const DamageOut& out, uint64_t cause);
absl::Status FallUnconscious(Decision& d, const std::string& who,
                             uint64_t cause);

// ---- combat_roll.cc
absl::Status DecideStrike(const fb::CommandT& c, Decision& d);
absl::Status DecideDefend(const fb::CommandT& c, Decision& d);
// Declares an attack (already recorded as `cause`) by `c.actor` with
// `weapon` on c.targets[0]: opens the defense window, or resolves at once
// when the target cannot defend.
absl::Status OpenAttack(Decision& d, const fb::CommandT& c, uint64_t cause);
// Rolls both tests of attack `attack` (declared as `cause`) against the
// defense `defend` chose (params defense, attribute; none when empty) and
// decides the outcome (l.58-64).
absl::Status ResolveCombatRoll(Decision& d, const fb::CommandT& attack,
                               const fb::CommandT& defend, uint64_t cause);
// After an attack resolved: resumes what opportunity windows held back
// once all their reactions are done, and ends a downed character's turn.
absl::Status Settle(Decision& d, uint64_t cause);
// Whether `c` can choose a defense now (aware, conscious, AP).
bool CanDefend(const State& s, const Combatant& c);

// ---- maneuvers.cc
absl::Status DecideManeuver(const fb::CommandT& c, Decision& d);
// Opens the maneuver window for `winner` (nested in the defense window).
absl::Status OpenManeuver(Decision& d, const fb::CommandT& attack,
                          uint64_t cause, const std::string& winner,
                          const std::string& loser, bool attacker_won);
// After the maneuver (or none): damage when the attacker won.
absl::Status FinishAttack(Decision& d, const fb::CommandT& attack,
                          uint64_t cause, bool hit, bool blocked,
                          bool maximize);

// ---- movement.cc
const TriggerRules& OpportunityRules();
// Arms the opportunity triggers of `who` (l.81-84).
// `joined`: the seq of its CombatantJoined (what the armed acts carry).
absl::Status ArmOpportunity(Decision& d, const std::string& who, uint64_t joined);
absl::Status DecideMove(const fb::CommandT& c, Decision& d);
absl::Status DecideDisengage(const fb::CommandT& c, Decision& d);
absl::Status DecideStand(const fb::CommandT& c, Decision& d);
absl::Status DecideOpportunity(const fb::CommandT& c, Decision& d);
// Holds declaration `decl` (cmd `c`) back behind an opportunity window
// when it provokes one (casting, standing); true when held.
absl::StatusOr<bool> HoldForOpportunity(Decision& d, const fb::CommandT& c,
                                        uint64_t decl);
// A Prone of `who` added after its stand was declared (`decl`): a Trip by
// an opportunity attack the stand provoked (l.73, l.84); 0 when none.
uint32_t ProneSince(const State& s, const std::string& who, uint64_t decl);
// Resumes what an opportunity window held back (called by Settle).
absl::Status ResumeOpportunity(Decision& d, uint32_t wid);
// Moves along `path` (already validated), counting metres.
absl::Status Walk(Decision& d, const std::string& who,
                  const std::vector<Pos>& path, uint64_t cause,
                  const std::string& rule);

// The skill `c` chose standing for a test the text leaves to its choice
// (roster tag "<choice>:<skill>", e.g. "grapple:acrobatics"), else the one
// of `a`, `b` with the larger pool (a tie: `a`): the program chooses for it.
std::string ChosenSkill(const State& s, const Combatant& c, const std::string& choice,
                        const std::string& a, const std::string& b);

// ---- actions.cc
// A grapple holds while the grappler is conscious and within touch (1 m)
// of the grappled (reading of "use a free hand to hold your foe", l.28):
// after `who` moved or fell, every grapple it takes part in that no
// longer holds ends.
absl::Status BreakGrapples(Decision& d, const std::string& who, uint64_t cause);
// Cover is where one stands (l.86 "Standing behind an obstacle"): after
// `who` moved (walked, was pushed or moved by the GM), the GM's Cover
// ruling on it, made for the place it left, ends.
absl::Status LeaveCover(Decision& d, const std::string& who, uint64_t cause);
absl::Status DecideGrapple(const fb::CommandT& c, Decision& d);
absl::Status DecideRelease(const fb::CommandT& c, Decision& d);
absl::Status DecideSearch(const fb::CommandT& c, Decision& d);
absl::Status DecideSneak(const fb::CommandT& c, Decision& d);
absl::Status DecideManipulate(const fb::CommandT& c, Decision& d);
absl::Status DecideUseMagic(const fb::CommandT& c, Decision& d);
// Resolves a (non-attack) use_magic held back by an opportunity window.
absl::Status ResolveMagic(Decision& d, const fb::CommandT& c, uint64_t cause);
// l.46: a spell attack's target within the spell's range (its reach for a
// Melee Attack spell) from the caster, as they stand now; else a refusal
// citing 003.spell_attack.
absl::Status SpellInRange(const Combatant& a, const Combatant& t, const Weapon& spell);

// Condition names.
inline constexpr char kProne[] = "Prone";
inline constexpr char kDazed[] = "Dazed";
inline constexpr char kGrappled[] = "Grappled";
inline constexpr char kSurprised[] = "Surprised";
inline constexpr char kUnconscious[] = "Unconscious";
inline constexpr char kDisengaged[] = "Disengaged";
inline constexpr char kCover[] = "Cover";  // the GM's ruling (l.86-89)
inline constexpr char kBraced[] = "Braced";
inline constexpr char kFeint[] = "Feint";
inline constexpr char kDropped[] = "Dropped";
// An item a Disarm put on the floor (l.69), and where it lies: resources
// "on_floor.<item>" (1 while it lies there) and the floor of the loser's
// space, its top-left square "floor_x.<item>", "floor_y.<item>" and its side
// "floor_size.<item>" (absent: 1, one square), of its owner.
inline constexpr char kOnFloor[] = "on_floor.";
inline constexpr char kFloorX[] = "floor_x.";
inline constexpr char kFloorY[] = "floor_y.";
inline constexpr char kFloorSize[] = "floor_size.";

}  // namespace combat::kernel::opposed

#endif  // COMBAT_KERNEL_OPPOSED_TESTS_INTERNAL_H_
