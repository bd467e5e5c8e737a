// Internal pieces of the wound_slots ruleset (seed 001), one concept per
// file:
//   rules_table.cc  the rule ids and the seed lines they read
//   stats.cc        roster numbers: checks, defenses, toughness, the Speed
//                   (AP) table, the movement table, wound slots
//   turns.cc        initiative, the order, rounds and turns, AP gains
//   budget.cc       AP costs, spending, actions paid over several turns
//   acts.cc         declare -> window (acting out of turn, reactions) ->
//                   resolve / interrupt / pass / cancel
//   attack.cc       the four attacks, the modifier table, flanking
//   wounds.cc       damage -> wound level -> slots, NPC tracks, Wounded
//   vitals.cc       stamina, fatigue, mana; exhausted, staggered
//   rest.cc         short and long rests, recovery checks
//   movement.cc     the movement pool, moving along a path, Dash
//   actions.cc      the other actions (defend, seize, posture, hinder, ...)
//   grapple.cc      grapple, pin, escape, drag, cling, interpose
//   ruleset.cc      Setup and the Decide dispatch
#ifndef COMBAT_KERNEL_WOUND_SLOTS_INTERNAL_H_
#define COMBAT_KERNEL_WOUND_SLOTS_INTERNAL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "kernel/action_table.h"
#include "kernel/arith.h"
#include "kernel/changes.h"
#include "kernel/command.h"
#include "kernel/decision.h"
#include "kernel/refusal.h"
#include "kernel/ruleset.h"
#include "kernel/space.h"
#include "kernel/state.h"
#include "kernel/verb_schema.h"

namespace combat::kernel::wound_slots {

inline constexpr char kSeed[] = "001_45dec7998f478a90.txt";
inline constexpr char kId[] = "wound_slots";
// 2: verb schemas (issue 16): commands with fields a verb does not read
// are refused, so decisions differ from version 1.
inline constexpr int32_t kVersion = 15;
// 1-yard squares, every second diagonal 2 yards (l.161).
inline constexpr space::Grid kGrid{space::Metric::kAlternatingDiagonal, 1};

// ---- rules_table.cc
const std::vector<RuleRef>& RuleTable();
std::string Cite(const std::string& rule);
absl::Status Refuse(const std::string& rule, const std::string& message);

// Resource names (one place).
namespace res {
inline constexpr char kAp[] = "ap";
inline constexpr char kStamina[] = "stamina";
inline constexpr char kFatigue[] = "fatigue";
inline constexpr char kMana[] = "mana";
inline constexpr char kInvested[] = "mana_invested";
inline constexpr char kMovePool[] = "move_pool";    // yards left this round
inline constexpr char kMoveAp[] = "move_ap";        // AP bought this round
inline constexpr char kDiagonals[] = "diagonals";   // this round's count
inline constexpr char kTurnRound[] = "turn_round";  // last round it had a turn
inline constexpr char kTie[] = "tie_roll";          // this round's tie roll
inline constexpr char kRecovery[] = "recovery_bonus";
inline constexpr char kDashed[] = "dash_round";     // round of the 2nd dash
inline constexpr char kClingDiagonals[] = "cling_diagonals";  // diagonals moved along by a Cling
// Wounds filled per level and slots per level: "wounds_<level>", "slots_<level>".
}  // namespace res

// Wound levels 1..5 (l.6-12); 0 = none.
enum Level : int { kNone = 0, kLight, kModerate, kSevere, kCritical, kFatal };
const char* LevelName(int level);  // "light" ...
std::string WoundsKey(int level);
std::string SlotsKey(int level);

// ---- stats.cc
// A check's bonus: attribute + skill + specialization (roster stats "dex",
// "melee", "melee/sword"). Any part may be empty.
int64_t CheckBonus(const Combatant& c, const std::string& attr,
                   const std::string& skill, const std::string& spec,
                   Nums* nums);
int64_t SizeScore(const Combatant& c);  // stat "size" (the text's Size)
// The source a modifier given by `bearer`'s condition `name` names:
// "distracted on aria by gob" (its giver when another), or "" when it has
// no such condition.
std::string CondSource(const Combatant& bearer, const std::string& name);
// A Lor [Healing] check's kit modifier: -5 without a healing kit
// (params.kit 0; l.54, l.250, l.252, l.261), and its number, citing the
// check's own rule.
int64_t Kit(const fb::CommandT& c);
kernel::Num KitNum(const fb::CommandT& c, const char* rule = "001.rest.tend");
// The rule ids of the modifiers to attack (l.84-97), one per row.
inline constexpr char kModPosture[] = "001.attack.posture";
inline constexpr char kModCover[] = "001.attack.cover";
int64_t SpeedScore(const Combatant& c);  // stat "spd"
struct SpeedRow {
  int64_t round_start, turn_end, max_ap;
};
SpeedRow SpeedTable(int64_t speed);  // l.113-117, Speed clamped to -10..10
// Movement rate from Strength + Size + Athletics (l.129-159).
int64_t MovementRate(const Combatant& c);
// The rate this round: MovementRate, doubled (and more) by Dash (l.222).
int64_t EffectiveRate(const Combatant& c);
int64_t RateFromScore(int64_t score);
// Yards for `ap` (1..4) AP at movement rate `rate` (the table; beyond rate
// 25, rate x ap / 4 rounded down, the table's own pattern).
int64_t YardsFor(int64_t rate, int64_t ap);
// Yards bought with `ap` AP (4-AP full movements, then the table's share).
int64_t YardsForAp(int64_t rate, int64_t ap);
// The fewest AP buying `yards` at `rate`; -1 when it cannot.
// The yards `ap` more AP on movement add when `before` AP were already
// spent on movement this round (l.160: the table's column is the round's
// total), and the fewest AP adding at least `yards` (-1: never).
int64_t YardsBought(int64_t rate, int64_t before, int64_t ap);
int64_t ApForYards(int64_t rate, int64_t yards, int64_t before = 0);
// A long jump's AP: the AP buying the yards the pool lacks, at least 1
// (l.178, l.112).
int64_t JumpAp(const Combatant& c, const fb::CommandT& cmd);
// A long jump path's yards (l.161: every second diagonal 2 yards).
int64_t JumpYards(const Combatant& c, const fb::CommandT& cmd);
// Defenses (l.100-106); `nums` receives the parts.
enum class Def { kMelee, kRanged, kImmobile, kPower, kAgility, kFortitude, kWillpower };
absl::StatusOr<Def> DefFromName(const std::string& name);
const char* DefName(Def d);
int64_t Defense(const Combatant& c, Def d, Nums* nums);
bool Immobilized(const Combatant& c);
bool IsUnderwater(const Combatant& c);  // l.275 (Underwater, Sunk, tag underwater)
bool InWater(const Combatant& c);       // the same, an aquatic creature too (l.276)
int64_t Toughness(const Combatant& c, bool bypass_armor, Nums* nums);  // l.16
int64_t NormalMaxStamina(const Combatant& c);  // l.38
int64_t NormalMaxMana(const Combatant& c);     // l.42
bool IsNpc(const Combatant& c);  // tag minion/standard/elite
int64_t SlotsFor(const Combatant& c, int level);  // l.18-36
int64_t Num(const Weapon& w, const char* key, int64_t otherwise = 0);
bool IsRanged(const Weapon& w);
// l.243 Disarm: "the target drops one item it is holding": a `Disarmed`
// condition whose note names the weapon dropped; until it is picked up
// (use_object with that object) the weapon attacks, blocks, reaches and
// threatens no more.
bool Dropped(const Combatant& c, const Weapon& w);
const Weapon* WeaponOf(const Combatant& c, const fb::CommandT& cmd);
// A weapon's reach in yards, as l.230 counts it (weapon number "reach",
// default 1; no weapon: 0, the reach l.230 grapples with).
int64_t Reach(const Weapon* w);
// l.220 "You climb atop a horse": a rider occupies its mount's space (its
// `at` is the mount's, moved with it); distances are measured between the
// two spaces (SpaceOf), a rider's being its mount's (l.280).
struct Space {
  Pos at;
  int32_t size = 1;
};
Space SpaceOf(const State& s, const Combatant& c);
int64_t Distance(const State& s, const Combatant& a, const Combatant& b);

// ---- conditions (vitals.cc)
bool IsDead(const Combatant& c);
bool IsOut(const Combatant& c);  // dead, unconscious, helpless
// Helpless (l.235 "helpless and immobile", l.185 "helpless"), pinned or
// unconscious: may be treated without being willing (l.252, l.261).
bool IsHelpless(const Combatant& c);
int HighestWound(const Combatant& c);
// Recomputes the Wounded condition from the wound counts (l.32).
absl::Status UpdateWounded(Decision& d, const std::string& who, const Why& why);

// ---- vitals.cc
// Spends stamina: below 0 becomes 0 and the excess is fatigue (l.38).
absl::Status SpendStamina(Decision& d, const std::string& who, int64_t n,
                          const Why& why);
// Adds fatigue (l.40): clamps current stamina, Exhausted, Staggered.
absl::Status AddFatigue(Decision& d, const std::string& who, int64_t n,
                        const Why& why);
absl::Status SetFatigue(Decision& d, const std::string& who, int64_t value,
                        const Why& why);
int64_t MaxStamina(const Combatant& c);  // normal - fatigue
int64_t MaxMana(const Combatant& c);     // normal - invested
// `spend_stamina` (params.amount): an ability's or effect's stamina cost.
absl::Status DecideSpendStamina(const fb::CommandT& c, Decision& d);
// Returns invested mana no longer tied up in a "Spell" condition (one
// expired: l.42, returned as soon as the effect ends).
absl::Status ReturnExpiredMana(Decision& d, uint64_t cause);
absl::Status SpendMana(Decision& d, const std::string& who, int64_t n,
                       const Why& why);
absl::Status InvestMana(Decision& d, const std::string& who, int64_t n,
                        const Why& why);

// ---- turns.cc
absl::Status BeginCombat(Decision& d);
int64_t InitiativeOf(const State& s, const std::string& who);
// Changes `who`'s initiative by `delta` (floor 0, l.120) and re-sorts the
// order (OrderSet). Returns the new value.
absl::StatusOr<int64_t> ChangeInitiative(Decision& d, const std::string& who,
                                         int64_t delta, const Why& why);
absl::Status DecideEndTurn(const fb::CommandT& c, Decision& d);
// l.108, l.124: the active creature knocked out or killed during its own
// turn (no window open): its turn ends and the next starts (turns.cc).
absl::Status EndIncapableTurn(Decision& d, uint64_t cause);
// l.108: the rounds stopped with nobody able to take a turn go on once
// someone can (turns.cc Advance).
absl::Status ResumeRounds(Decision& d, uint64_t cause);
// l.199 "Until your next turn": ends `who`'s turn-start anchors of `round`
// and of earlier rounds whose turn passed without it (turns.cc).
absl::Status ExpireTurnStartsDue(Decision& d, const std::string& who, int64_t round, uint64_t cause);
absl::Status DecideJoin(const fb::CommandT& c, Decision& d);

// ---- budget.cc
int64_t ApCost(const Combatant& c, const std::string& verb, int64_t base);
// Spends `cost` AP for an act of `who`; an act being paid over several
// turns that this does not pay is cancelled (l.111).
absl::Status SpendAp(Decision& d, const std::string& who, int64_t cost,
                     const Why& why);
// At the start of `who`'s turn: pays its paying act with all its AP, and
// resolves it when paid (l.111, l.178).
absl::Status PayOnTurnStart(Decision& d, const std::string& who,
                            uint64_t cause);
absl::Status DecideCancel(const fb::CommandT& c, Decision& d);

// ---- acts.cc
using CheckFn = absl::Status (*)(const State&, const Combatant&,
                                 const fb::CommandT&);
using ResolveFn = absl::Status (*)(Decision&, const fb::CommandT&, uint64_t);
struct Verb {
  Action<CheckFn, ResolveFn> row;  // name, rule, kind, cost=null, check, resolve
  int64_t ap;                      // the reading's AP cost (README)
  std::vector<std::string> params; // what it takes
  bool reaction = false;           // l.125: no initiative cost, any time
};
const Verb* FindVerb(const std::string& name);
// Whether `actor` may act at all: not dead, unconscious, pinned or
// helpless (an escape excepted, l.235).
absl::Status CheckActor(const Combatant& actor, const Verb& v);
const std::vector<Verb>& Acts();
// ---- verbs.cc: the whole verb table (kernel/verb_schema.h), GM verbs included.
const std::vector<VerbSchema>& Verbs();
// The AP an act costs `c` (the verb's reading, a roster override
// "ap/<verb>", and what the act adds: containers, objects, underwater).
int64_t CostOf(const Combatant& c, const Verb& v, const fb::CommandT& cmd);
absl::Status DeclareAct(const fb::CommandT& c, Decision& d);
absl::Status DecideInterrupt(const fb::CommandT& c, Decision& d);
absl::Status DecideResolve(const fb::CommandT& c, Decision& d);
absl::Status DecidePass(const fb::CommandT& c, Decision& d);
// Resolves a declared act (spending its AP) as the cause `decl`.
absl::Status ResolveAct(Decision& d, const fb::CommandT& act, uint64_t decl,
                        bool spend);

// ---- attack.cc
struct AttackSpec {
  int64_t bonus = 0;        // verb modifier (nonlethal -2)
  int step = 0;             // wound level steps (+1 rebuff, -1 quick)
  bool extra_d6 = false;    // Strong Attack
  bool nonlethal = false;
  bool no_damage = false;   // a combat check (grapple, create an opening)
  bool rebuff = false;      // an Opening may replace the target's Defense
  std::string rule;         // the verb's rule, cited by `bonus` and `step`
};
struct AttackResult {
  bool hit = false;
  int natural = 0;
  int64_t total = 0;
  int64_t defense = 0;
};
absl::StatusOr<AttackResult> Attack(Decision& d, const fb::CommandT& c,
                                    uint64_t cause, const AttackSpec& spec);
absl::Status CheckAttack(const State&, const Combatant&, const fb::CommandT&);
absl::Status CheckMeleeAttack(const State&, const Combatant&, const fb::CommandT&);
absl::Status ResolveStandard(Decision&, const fb::CommandT&, uint64_t);
absl::Status ResolveQuick(Decision&, const fb::CommandT&, uint64_t);
absl::Status ResolveStrong(Decision&, const fb::CommandT&, uint64_t);
absl::Status ResolveNonlethal(Decision&, const fb::CommandT&, uint64_t);
absl::Status ResolveRebuff(Decision&, const fb::CommandT&, uint64_t);
// The attack modifiers of the table (l.84-93) and flanking (l.95-97).
int64_t AttackModifiers(const State& s, const Combatant& attacker,
                        const Combatant& target, bool ranged,
                        int64_t cover, Nums* nums);
bool Flanked(const State& s, const Combatant& target);
// l.216: sharing a space, "-2 penalty to all attacks": -2 (and its number)
// on an attack roll and, as l.70 "Combat checks function the same as attack
// rolls", on every combat check (l.71-77); 0 when not sharing. `key`: the
// number's name (a defender's check: "target_same_space").
int64_t SameSpace(const Combatant& c, Nums* nums, const char* key = "same_space");
// The -2s a creature takes "to attack" on its attack rolls and combat
// checks (l.70): Distracted (l.244) and sharing a space (l.216), with their
// numbers; 0 when neither.
int64_t CheckPenalties(const Combatant& c, Nums* nums);
// l.275 "When you make a melee attack, you must pay an extra 2 AP and have
// a -5 penalty to your attack roll": -5 (and its number `underwater`) when
// `c` is underwater (IsUnderwater), else 0. As l.70 "Combat checks function
// the same as attack rolls", a melee weapon check (Disarm's) takes it too,
// as it takes the mounted +1 (MountedBonus); a Power or Agility check,
// and a defender's check, take none.
int64_t UnderwaterPenalty(const Combatant& c, Nums* nums);
// l.280: a rider's "+1 bonus to melee defense and melee attack rolls
// against any opponents of a size smaller than your mount unless they are
// also mounted on a creature at least as large as your mount": 1 (and its
// number `key`) when `rider` has it against `other`, else 0. As l.70
// "Combat checks function the same as attack rolls", a melee weapon check
// (Disarm's, either side) takes it too.
int64_t MountedBonus(const State& s, const Combatant& rider, const Combatant& other, Nums* nums,
                     const char* key = "mounted");
// 1 when one of the two rides a mount larger than the other on foot (l.280).
int64_t MountedGap(const State& s, const Combatant& a, const Combatant& b);
// The one count of how far a creature is, for reach and every distance
// between two creatures: the yards between their spaces, as l.230 counts
// them ("an adjacent target using any weapon that has a reach of 0"):
// adjacent 0, each square between 1 (every second diagonal 2, l.161), the
// same space -1 (closer than any reach, l.189, l.216), and a rider
// "considered 1 yard farther from creatures on the ground smaller than your
// mount" (l.280; MountedGap). `Distance` is the grid's steps (adjacent 1).
inline int64_t YardsBetween(const State& s, const Combatant& a, const Combatant& b) {
  return Distance(s, a, b) - 1 + MountedGap(s, a, b);
}
// Within the reach of `w`: at most its reach away (l.230: an adjacent
// target is within a reach of 0).
inline bool WithinReach(const State& s, const Combatant& a, const Combatant& b, const Weapon* w) {
  return YardsBetween(s, a, b) <= Reach(w);
}
// "adjacent" (l.216, l.230, l.250, l.252, l.261): 0 yd between the spaces
// (YardsBetween, a rider's yard included).
inline bool Adjacent(const State& s, const Combatant& a, const Combatant& b) {
  return YardsBetween(s, a, b) <= 0;
}
// A check (d20 + bonus); returns the total and natural die.
struct CheckRoll {
  int64_t total = 0;
  int natural = 0;
};
absl::StatusOr<CheckRoll> RollCheck(Decision& d, const std::string& who,
                                    int64_t bonus, const std::string& purpose,
                                    uint64_t cause);
// l.278: climbing or swimming, an attack roll or a combat check (l.70)
// first needs a Str [Athletics/Climbing|Swimming] check against the hold's
// TN; false when it failed (the attack misses, the creature falls or sinks).
absl::StatusOr<bool> HoldsOn(Decision& d, const std::string& who, uint64_t cause);
// Critical success / failure on an attack roll (l.81-82).
absl::Status CriticalInitiative(Decision& d, const std::string& attacker,
                                const std::string& target, int natural,
                                uint64_t cause);

// ---- wounds.cc
int WoundLevel(int64_t damage);  // l.6-13; 0 below the Light threshold
// Deals a wound of `level` to `who`: fills a slot, overflowing upward
// (l.31); an NPC dies on a fatal wound (l.35). Returns the level filled.
absl::StatusOr<int> Wound(Decision& d, const std::string& who, int level,
                          const Why& why);
// Reduces one wound of `level` by `steps` (each step needs an open slot of
// the next lower level, l.63); returns the steps taken.
absl::StatusOr<int> HealWound(Decision& d, const std::string& who, int level,
                              int steps, const Why& why);

// Checks a wound calls for: climbing/swimming (l.278), untrained mounts (l.281).
absl::Status AfterWound(Decision& d, const std::string& who, int level,
                        uint64_t cause);

// ---- rest.cc
absl::Status DecideShortRest(const fb::CommandT& c, Decision& d);
absl::Status DecideLongRest(const fb::CommandT& c, Decision& d);

// ---- movement.cc
absl::Status CheckBuyMove(const State&, const Combatant&, const fb::CommandT&);
absl::Status ResolveBuyMove(Decision&, const fb::CommandT&, uint64_t);
// `ap` AP `id` spends on movement (a purchase, or a long jump's, l.178)
// buying `yards` into its pool (`pool` cites it): a rider controlling it as
// its mount spends as much (l.280; `what` names the movement in the note),
// a drag's 4 AP on movement shrink by them (l.228), and the round's AP on
// movement grow (the table's column, l.160). Refuses when the rider has
// too few AP.
absl::Status SpendApOnMovement(Decision& d, const std::string& id, int64_t ap, int64_t yards, const Why& pool,
                               const std::string& what);
absl::Status CheckDash(const State&, const Combatant&, const fb::CommandT&);
absl::Status ResolveDash(Decision&, const fb::CommandT&, uint64_t);
absl::Status DecideMove(const fb::CommandT& c, Decision& d);
// In a move's `reacted`: one that had only a readied action's window on it
// (movement.cc NoteReacted), "ready:<id>"; displays read it as
// ReadyMarkText's "<id> (readied)".
inline constexpr char kReadyMark[] = "ready:";
std::string ReadyMarkText(const std::string& entry);
// Moves along `path`, stopping before the first step that enters a
// hostile creature's reach (l.189) to hold the rest in an "approach" window
// for Rebuffs; `reacted` already had their chance on this move.
absl::Status MoveFrom(Decision& d, const std::string& who, const std::vector<Pos>& path,
                      const fb::CommandT& cmd, uint64_t cause, std::vector<std::string> reacted);
// l.189, l.204: who may answer a long jump along `path` before it leaves
// the ground: a hostile creature whose melee reach the path enters from
// outside it (Rebuff, "attempts to approach ... before it moves"), a
// grappler whose reach it leaves (Cling, "about to move out of reach"), and
// one with a readied action (any event). The jump is not split: every one
// of them answers one window before the roll.
struct JumpReactors {
  std::vector<std::string> who;        // in the order met along the path
  std::vector<std::string> rebuffers;  // of `who`
  std::vector<std::string> readied;    // of `who`
  std::vector<std::string> clingers;   // of `who`: grapplers it jumps away from (l.225)
};
JumpReactors ForJump(const State& s, const Combatant& mover, const std::vector<Pos>& path);
// Holds the long jump `act` (declared as `decl`) in one window for its
// reactors `jump` (acts.cc; `cause` the command it opens at).
absl::Status HoldJump(Decision& d, const fb::CommandT& act, uint64_t decl, uint64_t cause, const JumpReactors& jump);
// l.178: the AP a jump paid for the yards its path lacked (`_jump_ap`) buy
// that movement into the pool (mount.cc); none: nothing.
absl::Status BuyJumpMovement(Decision& d, const fb::CommandT& c, uint64_t cause);
// For Jumping (l.177 "If you moved at least 5 yards leading up to the
// jump"): adds `yards` to `who`'s yards moved this round (`moved_yards`,
// `moved_round`), walked or jumped.
absl::Status NoteYardsMoved(Decision& d, const std::string& who, int64_t yards, uint64_t cause);
// l.226: moves each grappler clinging to `mover` (as it stood before
// `steps`) along with it, a yard per 5 points of its Cling (a walk's steps,
// or a jump's).
absl::Status CarryClingers(Decision& d, const Combatant& mover, const std::vector<Pos>& steps, uint64_t cause);
// Who moves along with `mover`: its rider (l.280) and, while it drags,
// everyone in its grapple (l.228); CarryAlong moves them by `steps` (a
// walk's, or a long jump's: both are movement, l.178).
std::vector<std::string> CarriedBy(const Combatant& mover);
absl::Status CarryAlong(Decision& d, const Combatant& mover, const std::vector<Pos>& steps, uint64_t cause);
// l.281: after `before` (as it was) moved along `steps`, walking or
// jumping: each rider of an untrained mount that came, at a step, into an
// enemy's melee reach checks (each time).
absl::Status UntrainedReach(Decision& d, const Combatant& before, const std::vector<Pos>& steps, uint64_t cause);
// Resumes a move held by an approach window (acts.cc).
absl::Status ContinueMove(Decision& d, const PendingAct& held, uint64_t cause);
// l.226: Cling's reduction cuts the held move in window `window` by `yards`
// of distance from its end; the yards cut.
absl::StatusOr<int64_t> CutHeldMove(Decision& d, uint32_t window, int64_t yards, uint64_t cause);
// Ends the SharingSpace conditions of creatures no longer in the same
// space (l.216), after any movement.
absl::Status EndSharedSpaces(Decision& d, uint64_t cause);
// Grapples (and the pins they hold) whose two creatures are no longer
// adjacent end (l.225, l.230, l.235); EndSharedSpaces calls it.
absl::Status EndApartGrapples(Decision& d, uint64_t cause);
// l.174 "Walking underwater", l.275 "While underwater": a creature on a
// square whose terrain is `underwater` is `Underwater` (source "terrain")
// while it stands there; EndSharedSpaces and the set-up call it.
absl::Status UnderwaterTerrain(Decision& d, uint64_t cause);
absl::Status LoseMovement(Decision& d, const std::string& who, const Why& why);

// ---- actions.cc
absl::Status CheckNothing(const State&, const Combatant&, const fb::CommandT&);
absl::Status ResolveDefend(Decision&, const fb::CommandT&, uint64_t);
absl::Status CheckSeize(const State&, const Combatant&, const fb::CommandT&);
absl::Status ResolveSeize(Decision&, const fb::CommandT&, uint64_t);
absl::Status CheckPosture(const State&, const Combatant&, const fb::CommandT&);
absl::Status ResolvePosture(Decision&, const fb::CommandT&, uint64_t);
absl::Status CheckRetrieve(const State&, const Combatant&, const fb::CommandT&);
absl::Status ResolveRetrieve(Decision&, const fb::CommandT&, uint64_t);
absl::Status CheckUseObject(const State&, const Combatant&, const fb::CommandT&);
absl::Status ResolveUseObject(Decision&, const fb::CommandT&, uint64_t);
absl::Status CheckHinder(const State&, const Combatant&, const fb::CommandT&);
absl::Status ResolveHinder(Decision&, const fb::CommandT&, uint64_t);
absl::Status CheckHarry(const State&, const Combatant&, const fb::CommandT&);
absl::Status ResolveHarry(Decision&, const fb::CommandT&, uint64_t);
absl::Status CheckTreatWound(const State&, const Combatant&, const fb::CommandT&);
absl::Status ResolveTreatWound(Decision&, const fb::CommandT&, uint64_t);
absl::Status CheckStabilize(const State&, const Combatant&, const fb::CommandT&);
absl::Status ResolveStabilize(Decision&, const fb::CommandT&, uint64_t);

// ---- grapple.cc
// The higher of `c`'s Power and Agility defenses: what a pin, an escape
// from a grapple or entering its space must beat (l.216, l.218, l.235).
int64_t HigherDefense(const Combatant& c);
absl::Status CheckGrapple(const State&, const Combatant&, const fb::CommandT&);
absl::Status ResolveGrapple(Decision&, const fb::CommandT&, uint64_t);
absl::Status CheckPin(const State&, const Combatant&, const fb::CommandT&);
absl::Status ResolvePin(Decision&, const fb::CommandT&, uint64_t);
absl::Status CheckEscape(const State&, const Combatant&, const fb::CommandT&);
absl::Status ResolveEscape(Decision&, const fb::CommandT&, uint64_t);
absl::Status CheckDrag(const State&, const Combatant&, const fb::CommandT&);
absl::Status ResolveDrag(Decision&, const fb::CommandT&, uint64_t);
absl::Status CheckCling(const State&, const Combatant&, const fb::CommandT&);
absl::Status ResolveCling(Decision&, const fb::CommandT&, uint64_t);
absl::Status CheckInterpose(const State&, const Combatant&, const fb::CommandT&);
absl::Status ResolveInterpose(Decision&, const fb::CommandT&, uint64_t);

// ---- misc.cc
absl::Status CheckCast(const State&, const Combatant&, const fb::CommandT&);
absl::Status ResolveCast(Decision&, const fb::CommandT&, uint64_t);
absl::Status CheckEndEffect(const State&, const Combatant&, const fb::CommandT&);
absl::Status ResolveEndEffect(Decision&, const fb::CommandT&, uint64_t);
absl::Status CheckReady(const State&, const Combatant&, const fb::CommandT&);
absl::Status ResolveReady(Decision&, const fb::CommandT&, uint64_t);
absl::Status ResolveOpening(Decision&, const fb::CommandT&, uint64_t);
absl::Status CheckEnterSpace(const State&, const Combatant&, const fb::CommandT&);
absl::Status ResolveEnterSpace(Decision&, const fb::CommandT&, uint64_t);
absl::Status CheckTreatCondition(const State&, const Combatant&, const fb::CommandT&);
absl::Status ResolveTreatCondition(Decision&, const fb::CommandT&, uint64_t);

// ---- mount.cc
absl::Status CheckMount(const State&, const Combatant&, const fb::CommandT&);
absl::Status ResolveMount(Decision&, const fb::CommandT&, uint64_t);
absl::Status CheckDismount(const State&, const Combatant&, const fb::CommandT&);
absl::Status ResolveDismount(Decision&, const fb::CommandT&, uint64_t);
// The rider is off its mount (already moved off its space): Riding, Ridden
// and Uncontrolled end, the mount has its own turn again.
absl::Status EndRiding(Decision& d, const std::string& rider, const Why& why);
absl::Status CheckRegainControl(const State&, const Combatant&, const fb::CommandT&);
absl::Status ResolveRegainControl(Decision&, const fb::CommandT&, uint64_t);
// l.162-174: the terrain at `p` costs more than normal movement.
bool DifficultAt(const State& s, Pos p);
absl::Status CheckJump(const State&, const Combatant&, const fb::CommandT&);
absl::Status ResolveJump(Decision&, const fb::CommandT&, uint64_t);

// ---- timing.cc
// Performing an action more quickly (l.271): rolls, adds `_cost` and
// `_stamina` to `act`, returns the new cost.
absl::StatusOr<int64_t> FasterCost(Decision& d, const Combatant& actor,
                                   fb::CommandT& act, int64_t cost,
                                   uint64_t cause);
int64_t TimedRounds(const fb::CommandT& c);  // time_rounds + 4 x time_minutes
absl::Status StartTimed(Decision& d, const fb::CommandT& act, uint64_t decl);
// At the start of `who`'s turn: its act performed over rounds goes on.
absl::Status ContinueTimed(Decision& d, const std::string& who, uint64_t cause);
absl::Status CheckSurface(const State&, const Combatant&, const fb::CommandT&);
absl::Status ResolveSurface(Decision&, const fb::CommandT&, uint64_t);

// Condition helpers.
absl::StatusOr<uint32_t> Impose(Decision& d, const std::string& who,
                                const std::string& name,
                                const std::string& source, Expiry expiry,
                                const Why& why, int64_t level = 0,
                                const std::string& relative_to = "");
// Ends at the end of the round equal to `rounds`, the round it begins
// counting as round 1 (l.127).
Expiry ForRounds(const State& s, int64_t rounds);
Expiry UntilTurnStart(const State& s, const std::string& who);
// When a condition began (l.127 "the ones that have been active longer end
// earlier"): its `ref` for one Treat Condition re-imposed at a lower level
// (l.252), else its ConditionAdded.
uint64_t Began(const Condition& k);
// Kernel ExpireAt with l.127's order counted from Began.
absl::Status Expire(Decision& d, fb::ExpiryKind kind, const std::string& actor, int64_t round,
                    const Why& why);

}  // namespace combat::kernel::wound_slots

#endif  // COMBAT_KERNEL_WOUND_SLOTS_INTERNAL_H_
