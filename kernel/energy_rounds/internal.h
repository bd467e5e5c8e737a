// Internal pieces of the energy_rounds ruleset, one concept per file:
//   rules_table.cc  the rule ids and the seed lines they read
//   stats.cc        derived numbers (MASAB, defenses, speed, reach, size)
//   conditions.cc   parent/daughter conditions, "ignore until end of round"
//   energy.cc       costs: Energy, Stamina, Agility, once-per-round limits
//   acts.cc         declare -> window -> resolve / cancel (incomplete acts)
//   interrupts.cc   Initiative interrupts and Immediate Interrupts
//   rounds.cc       round boundaries, passing, start-of-round rolls
//   movement.cc     shift, run, sprint, jump, agile move, kneel, stand, face
//   defense.cc      exploding Defense rolls with advantage per die
//   melee.cc        melee and unarmed attacks, swift attacks
//   ranged.cc       ranged and thrown attacks, load, draw weight
//   damage.cc       armor, weakness/resistance, non-lethal damage
//   aura.cc         Aura, Death rolls, Death Saves, unconsciousness
//   maneuvers.cc    trip, disarm, restrain, push, escape, release
//   items.cc        equip, stow, pick up
//   rest.cc         short and long rests, recovery surges
//   ruleset.cc      Setup and the Decide dispatch
#ifndef COMBAT_KERNEL_ENERGY_ROUNDS_INTERNAL_H_
#define COMBAT_KERNEL_ENERGY_ROUNDS_INTERNAL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "events/common_generated.h"
#include "kernel/arith.h"
#include "kernel/action_table.h"
#include "kernel/changes.h"
#include "kernel/decision.h"
#include "kernel/pending.h"
#include "kernel/refusal.h"
#include "kernel/ruleset.h"
#include "kernel/space.h"
#include "kernel/state.h"

namespace combat::kernel::energy {

inline constexpr char kSeed[] = "002_ca603e8fb651e0df.txt";
inline constexpr char kId[] = "energy_rounds";
// 2: kernel pending acts and windows (schema v5); 3: the fidelity pass
// (issue 15) and verb schemas (issue 16) decide differently; 4: schema 7
// (modifiers name their sources, authority); 5: an act that won Initiative
// waits for Immediate Interrupts (l.132) before it resolves; 6-13: the
// black-box fidelity passes (events/FORMAT.md "Ruleset versions").
inline constexpr int32_t kVersion = 16;

// ---- rules_table.cc
const std::vector<RuleRef>& RuleTable();
// ---- verbs.cc: every verb Decide takes (kernel/verb_schema.h).
const std::vector<VerbSchema>& Verbs();
// kernel/refusal.h bound to this ruleset's table: "002 Melee Attacks,
// l.162" for messages, and FailedPrecondition "<msg> (<citation>)".
// Malformed commands: kernel::Malformed.
std::string Cite(const std::string& rule);
absl::Status Refuse(const std::string& rule, const std::string& message);

// ---- stats.cc: integers only; every division rounds as its caller cites.
// FloorDiv / CeilDiv: kernel/arith.h.
// Size categories, smallest to largest.
enum SizeCat : int {
  kMiniscule = 0, kFine, kDiminutive, kTiny, kSmall, kMedium, kLarge, kHuge,
  kGigantic
};
int SizeOf(const Combatant& c);  // from a size tag; Medium by default
const char* SizeName(int size);
int64_t Level(const Combatant& c);
int64_t Mod(const Combatant& c, const char* ability);  // str, dex, ...
int64_t Masab(const Combatant& c);                     // l.182 (and l.186)
int64_t BaseSpeed(const Combatant& c);                 // stat or l.439
int64_t Speed(const Combatant& c);                     // Slowed halves, l.674
int64_t SizeJump(const Combatant& c);                  // Size Chart jump, l.439
int64_t MaxAgility(const Combatant& c);                // l.88, l.94
int64_t MaxStamina(const Combatant& c);                // l.78
int64_t AuraModifier(const Combatant& c);              // l.302
int64_t AuraMax(const Combatant& c);                   // l.298
int64_t SurgesMax(const Combatant& c);                 // l.308
int64_t RecoveryValue(const Combatant& c);             // l.312
int64_t InherentEvasion(const Combatant& c);           // l.330, l.439
int64_t Mpl(const Combatant& c);
bool Proficient(const Combatant& c, const Weapon& w);  // l.525
bool Wielding(const Combatant& c, const std::string& weapon);
const Weapon* WieldedMelee(const Combatant& c);
// Evasion (l.328) and Unarmed Evasion (l.342), Ranged Evasion (l.336),
// Fortitude (l.356), Will (l.366). `nums` receives the parts.
int64_t Evasion(const Combatant& c, bool unarmed, Nums* nums);
int64_t RangedEvasion(const Combatant& c, bool facing, Nums* nums);
int64_t Fortitude(const Combatant& c, Nums* nums);
int64_t Will(const Combatant& c, Nums* nums);
// Reach in metres: adjacent is 1 m; weapon "reach" adds; size adjusts
// (l.452). `weapon` null = unarmed (Reach0, l.541).
int64_t ReachOf(const Combatant& c, const Weapon* weapon);
// The grid: 1 square = 1 m (l.416); a diagonal step is 1 m.
inline constexpr space::Grid kGrid{space::Metric::kChebyshev, 1};
// Distance in metres between the nearest squares of two spaces.
inline int64_t Distance(const Combatant& a, const Combatant& b) {
  return space::Distance(kGrid, a, b);
}
inline int64_t DistanceTo(const Combatant& a, Pos p) {
  return space::DistanceTo(kGrid, a, p);
}
// Facing: 8 directions, 0 = north (y-1), clockwise. l.402.
using space::DirToward;
using space::DirVec;
// Whether `c` faces the square `p` (front 3 squares and the side squares,
// l.402: within 90 degrees of its facing).
bool Faces(const Combatant& c, Pos p);
// Whether `c` faces any square of `o`'s space (l.402: a square faced as a whole).
bool FacesSpace(const Combatant& c, const Combatant& o);
int Facing(const Combatant& c);

// ---- conditions.cc
Expiry EndOfRound(const State& s, int64_t rounds_on = 0);
Expiry Forever();
Expiry OnUse();
// Whether `c` has `name` and ignores neither it nor the condition imposing
// it this round (l.690, l.688).
bool Active(const Combatant& c, const std::string& name);
// A condition to impose: the kernel's NewCondition (kernel/changes.h).
using Impose = NewCondition;
// Adds a condition and the daughters it imposes (Unguarded -> Exposed,
// Unconscious -> Unguarded -> Exposed, ...: l.688 and each definition).
// Returns the id of the (parent) condition.
absl::StatusOr<uint32_t> AddWithDaughters(Decision& d, const Impose& c,
                                          const Why& why);
// Removes every instance of `name` on `actor` that is not a daughter of
// another condition (with its own daughters); daughters stay (l.688).
// Returns how many were removed.
absl::StatusOr<int> LiftRoots(Decision& d, const std::string& actor,
                              const std::string& name, const Why& why);
bool HasRoot(const Combatant& c, const std::string& name);
// The closed list of condition names (l.662-686 and the conditions other
// lines name: Asleep and Fully Restrained l.346, Bleeding l.645, Dead,
// Kneeling l.33, Defending l.35, and this ruleset's markers). `name` in
// any case, with or without spaces/'-'/'_' ("fully restrained",
// "exhausted") -> its one canonical form ("FullyRestrained",
// "Exhausted"); InvalidArgument naming `field` and listing the names
// otherwise.
absl::StatusOr<std::string> CanonicalCondition(const std::string& name,
                                               const std::string& field);
// Comma-separated list of the canonical names.
std::string ConditionNames();

// ---- energy.cc
struct Cost {
  int64_t energy = 0;
  int64_t stamina = 0;       // Sprint, Jump, exertion (l.64)
  int64_t agility = 0;
  int64_t enhance = 0;       // Stamina on attack enhancements (l.80)
  bool stamina_energy = false;  // 1 Energy paid as 1 Stamina (l.47)
  bool movement = false;     // movement acts earn no Agile Move (l.29)
};
bool CanSpendStamina(const Combatant& c);  // Exhausted, Shaken: l.666, l.668
// Checks `cost` is affordable; FailedPrecondition naming the rule.
absl::Status CheckCost(const State& s, const Combatant& c, const Cost& cost,
                       const std::string& act);
// Cost from command params common to every act: stamina_energy, enhance.
absl::Status ReadCostParams(const fb::CommandT& c, Cost& cost);
// Spends `cost` (rule and nums in `why`) and adds Agile Move credit for
// non-movement Energy. An act's own payment that empties the Stamina does
// not knock out here: the act's results occur as it pays (l.138), then
// KnockOutIfSpent (l.72) ends the act there.
absl::Status Pay(Decision& d, const std::string& actor, const Cost& cost,
                 const Why& why);
// l.72 "Dropping to 0 Stamina will immediately result in unconsciousness":
// the one check of it, wherever Stamina drops (an act's payment, a loss,
// the GM's number, set-up): a living creature at 0 Stamina falls
// unconscious from Stamina loss, even one unconscious from another cause
// (it then rolls to wake from this one too, l.657); `why` says how it got
// there.
absl::Status KnockOutAtZeroStamina(Decision& d, const std::string& who, const Why& why);
// Once an act of `actor` has paid (its results occurring as it pays,
// l.138), a conscious, living actor left at 0 Stamina falls unconscious
// before anything else happens.
absl::Status KnockOutIfSpent(Decision& d, const std::string& actor, uint64_t cause);
// Loses up to `n` Stamina (never below 0, l.74); at 0: unconscious (l.72).
absl::Status LoseStamina(Decision& d, const std::string& actor, int64_t n,
                         const Why& why);
// Energy gained at the start of a round: the table (l.55) less 2 when
// Exhausted (l.668).
int64_t EnergyForRound(const Combatant& c);

// ---- acts.cc: every act is bracketed by a window.
struct Outcome {
  std::string text;  // the window's closing outcome
  std::string rule;
  Nums nums;
};
struct ActOpts {
  bool ignore_reach = false;  // the actor won the race (l.122, l.128)
  bool interrupt = false;     // resolving as an interrupt
  bool moving_target = false;  // target is moving during the attack (l.559)
  // Checked again as it resolves: an option of its results is no condition
  // of the act (a disarm's fling, l.565 "you may also spend 1 Agility";
  // resources are spent as the results occur, l.138).
  bool resolving = false;
};
using CheckFn = absl::Status (*)(const State& s, const Combatant& actor,
                                 const fb::CommandT& c, const ActOpts& o);
using ResolveFn = absl::StatusOr<Outcome> (*)(Decision& d,
                                              const fb::CommandT& c,
                                              uint64_t cause,
                                              const ActOpts& o);
// A row of the kernel's action table (kernel/action_table.h): kind.cls.move
// is a movement act (l.29, l.27), kind.cls.attack an attack act
// (Restrained/Restraining, Defend ends); `validate` checks, `resolve`
// resolves inside the act's window.
using Verb = Action<CheckFn, ResolveFn>;
const Verb* FindVerb(const std::string& action);
// Whether an act is an Immediate Interrupt (Swift Attack l.481, Agile Move
// l.29).
bool IsImmediate(const fb::CommandT& c);
// Common checks for any act by `actor`: alive, conscious, no act pending.
absl::Status CheckCanAct(const State& s, const Combatant& actor,
                         const fb::CommandT& c, const Verb& v);
// Declares `c` (a verb act): opens its window and resolves at once when it
// is immediate, `at_once` is set, or nobody could interrupt; else leaves it
// pending (an "Acting" condition) until `resolve`.
absl::Status DeclareAct(const fb::CommandT& c, Decision& d);
// Resolves an act inside window `window` (opened by the caller).
absl::Status ResolveInWindow(Decision& d, uint32_t window,
                             const fb::CommandT& act, uint64_t cause,
                             const ActOpts& o);
absl::Status DecideResolve(const fb::CommandT& c, Decision& d);
absl::Status DecideCancel(const fb::CommandT& c, Decision& d);
// The act `actor` is performing (a kernel pending act of kind "acting",
// held back by its window), or nullptr.
const PendingAct* ActingOf(const State& s, const std::string& actor);
// The pending act of `who` performing `act` (declared by event `decl`),
// until the end of the Round at the latest (l.105).
NewPending Acting(const State& s, const std::string& who, uint64_t decl,
                  const fb::CommandT& act);
// The window whose trigger is `seq`, or 0.
uint32_t WindowOf(const State& s, uint64_t seq);
// Who may interrupt an act of `actor` (conscious, alive, others), id order.
std::vector<std::string> EligibleInterrupters(const State& s,
                                              const std::string& actor);
// An act that won Initiative waits in a window of this kind
// ("immediate_only:<act>") that only Immediate Interrupts may answer
// (l.122, l.132; interrupts.cc).
inline constexpr char kImmediateOnly[] = "immediate_only:";
bool ImmediateOnly(const Window& w);
// Who may answer `actor` performing `act` with an Immediate Interrupt now
// (id order): alive, conscious, free to attack (a Swift Attack,
// MaySwiftAttack) or to move (an Agile Move, CanAgileMove).
std::vector<std::string> ImmediateAnswerers(const State& s, const std::string& actor,
                                            const fb::CommandT& act);
// The act that won Initiative against the act declared at `trigger` and
// has not resolved yet (it resolves first, l.122), with its window in
// `*window`; nullptr when there is none.
const PendingAct* WinnerPendingOn(const State& s, uint64_t trigger, uint32_t* window);
// Clears every Passed condition: somebody acted (rounds.cc reads them).
absl::Status ClearPasses(Decision& d, uint64_t cause, const std::string& who);

// ---- interrupts.cc
absl::Status DecideInterrupt(const fb::CommandT& c, Decision& d);
// How an act that won Initiative resolves when its window closes: as an
// interrupt, its target moving during it when the target's own move is
// still pending (l.559).
ActOpts WinningActOpts(const State& s, const fb::CommandT& act);
// GM ruling on simultaneous Immediate Interrupts (gm_note kind "resolve").
absl::Status AfterGmResolve(Decision& d, uint64_t ruling_seq, uint64_t subject);

// ---- rounds.cc
absl::Status StartFirstRound(Decision& d);
absl::Status DecideEndRound(const fb::CommandT& c, Decision& d);
absl::Status DecidePass(const fb::CommandT& c, Decision& d);
// save_initiative {off?}: the actor declines to roll Initiative when
// challenged for the rest of the Round (or, with off: 1, stops declining).
absl::Status DecideSaveInitiative(const fb::CommandT& c, Decision& d);
// Ends the current round and starts the next one (expiries, start-of-round
// rolls, budgets).
absl::Status AdvanceRound(Decision& d, uint64_t cause, const std::string& rule,
                          const std::string& note);
// Refused (`002.rounds.span`, l.105) while a window or a pending act is
// open, naming it: an act cannot span Rounds, and `end_round` and the
// rests let Rounds pass.
absl::Status CheckNoWindow(const State& s);
// The rolls at a Round's beginning, in combatant id order: a Death Save
// for the Bleeding (l.635; once a Round, l.645) and wake rolls for the
// unconscious from Stamina loss or a blow (l.657, l.658). `rest_round` 0:
// the session's Round (its count); n > 0: the n-th Round beginning of a
// rest (rest.cc), recorded as `rest_round`.
absl::Status RollsAtRoundStart(Decision& d, uint64_t cause, int64_t rest_round = 0);
// Whether anyone makes such a roll at a Round's beginning.
bool AnyoneRollsAtRoundStart(const State& s);
// Resets the per-round budgets of `c` (l.107-112).
absl::Status ResetBudgets(Decision& d, const std::string& actor,
                          const Why& why);

// ---- movement.cc
absl::Status CheckShift(const State&, const Combatant&, const fb::CommandT&,
                        const ActOpts&);
absl::StatusOr<Outcome> ResolveShift(Decision&, const fb::CommandT&, uint64_t,
                                     const ActOpts&);
absl::Status CheckRun(const State&, const Combatant&, const fb::CommandT&,
                      const ActOpts&);
absl::StatusOr<Outcome> ResolveRun(Decision&, const fb::CommandT&, uint64_t,
                                   const ActOpts&);
absl::Status CheckJump(const State&, const Combatant&, const fb::CommandT&,
                       const ActOpts&);
absl::StatusOr<Outcome> ResolveJump(Decision&, const fb::CommandT&, uint64_t,
                                    const ActOpts&);
absl::Status CheckAgileMove(const State&, const Combatant&,
                            const fb::CommandT&, const ActOpts&);
// Whether `a` has an Agile Move left: credit (l.29) and 1 Agility it may
// use (Slowed may not, l.674); the square is checked by CheckAgileMove.
absl::Status CanAgileMove(const State& s, const Combatant& a);
absl::StatusOr<Outcome> ResolveAgileMove(Decision&, const fb::CommandT&,
                                         uint64_t, const ActOpts&);
absl::Status CheckKneel(const State&, const Combatant&, const fb::CommandT&,
                        const ActOpts&);
absl::StatusOr<Outcome> ResolveKneel(Decision&, const fb::CommandT&, uint64_t,
                                     const ActOpts&);
absl::Status CheckStand(const State&, const Combatant&, const fb::CommandT&,
                        const ActOpts&);
absl::StatusOr<Outcome> ResolveStand(Decision&, const fb::CommandT&, uint64_t,
                                     const ActOpts&);
absl::Status CheckDefend(const State&, const Combatant&, const fb::CommandT&,
                         const ActOpts&);
absl::StatusOr<Outcome> ResolveDefend(Decision&, const fb::CommandT&, uint64_t,
                                      const ActOpts&);
absl::Status CheckCatchBreath(const State&, const Combatant&,
                              const fb::CommandT&, const ActOpts&);
absl::StatusOr<Outcome> ResolveCatchBreath(Decision&, const fb::CommandT&,
                                           uint64_t, const ActOpts&);
absl::Status CheckExert(const State&, const Combatant&, const fb::CommandT&,
                        const ActOpts&);
absl::StatusOr<Outcome> ResolveExert(Decision&, const fb::CommandT&, uint64_t,
                                     const ActOpts&);
absl::Status DecideFace(const fb::CommandT& c, Decision& d);
// Moves `actor` along `path` (validated), turning it to face the last step.
absl::Status MoveAlong(Decision& d, const std::string& actor,
                       const std::vector<Pos>& path, int64_t cost,
                       bool forced, const Why& why);
// Validates a path of adjacent free squares from `mover`'s space
// (kernel/space.h CheckPath: InvalidArgument when not adjacent,
// FailedPrecondition into a wall, off the map or an occupied square; a
// jump passes over occupants, l.31).
absl::Status CheckPath(const State& s, const Combatant& mover,
                       const std::vector<Pos>& path, const fb::CommandT& c);
// Records metres moved this round; ends Defend beyond Speed (l.35).
absl::Status NoteMoved(Decision& d, const std::string& actor, int64_t metres,
                       bool sprint, int heading, uint64_t cause);
// Any non-movement act, and waiting (`pass`, l.150), breaks a movement
// streak (l.27, l.31); `note` says which.
absl::Status BreakStreak(Decision& d, const std::string& actor, uint64_t cause,
                         const std::string& note = "a non-movement act breaks the run");
// Turns `actor` toward `to` (free, l.410) when it does not already face it:
// from the centre of its space to the centre of `to`'s.
absl::Status TurnToward(Decision& d, const std::string& actor, const Combatant& to,
                        uint64_t cause);

// ---- defense.cc
// Advantage/disadvantage: any of each cancel (l.380); result +1, 0, -1.
int Edge(int advantages, int disadvantages);
struct DefenseRoll {
  int64_t total = 0;
  int64_t dice_sum = 0;
  int explosions = 0;
  int rolls = 0;
};
// Rolls a Defense die `faces` exploding on its highest face (l.320), with
// advantage (+1) / disadvantage (-1) applied to each die, plus `base`.
absl::StatusOr<DefenseRoll> RollDefense(Decision& d, const std::string& who,
                                        int faces, int64_t base, int edge,
                                        const std::string& purpose,
                                        uint64_t cause);
// A d20 with advantage/disadvantage (Combat roll, Hit roll, checks).
absl::StatusOr<int> RollD20(Decision& d, const std::string& who, int edge,
                            const std::string& purpose, uint64_t cause);
// One source of Advantage or Disadvantage on a roll: its kind ("prone"),
// what gives it ("Prone on gob", "ogre"; "" when the rule alone does, as a
// range band) and the rule applying it.
struct EdgeSource {
  std::string name;
  std::string source;
  std::string rule;
};
// The sources of Advantage and Disadvantage on one roll; any of each
// cancel (l.380).
struct Edges {
  std::vector<EdgeSource> adv;
  std::vector<EdgeSource> dis;
  int mode() const;  // Edge(adv, dis)
  // "<roll>.adv.<name>" / "<roll>.dis.<name>" = 1 naming source and rule
  // for each, then "<roll>_edge" = mode() when not 0.
  void AddTo(Nums& nums, const std::string& roll) const;
};
// Disadvantage/advantage sources on a Defense roll of `defender`
// (Prone/Blinded for Evasion, Surprised/Dazed for any Defense roll,
// attacked from where it is not facing: `behind` names the attacker, ""
// when it is faced).
Edges EdgeOnDefense(const Combatant& defender, bool evasion,
                    const std::string& behind);
// Disadvantage on `attacker`'s attack roll (Combat roll, Hit roll): Dazed
// (l.670), Blinded (l.672).
Edges EdgeOnAttack(const Combatant& attacker);
// Where a situational modifier a command declares (`av_mod`, `mc_mod`,
// `double`, `target_movement`) comes from: "ruling #<cause>" with rule
// 002.gm when the GM declares it, else "declared #<cause> by <author>".
Num Declared(const fb::CommandT& c, uint64_t cause, std::string key,
             int64_t value);
// Whether `t` can make no Defense roll (asleep, fully restrained,
// unconscious vs melee: l.346, l.653).
bool NoDefenseRoll(const Combatant& t, bool melee, std::string* why);

// ---- melee.cc
absl::Status CheckMelee(const State&, const Combatant&, const fb::CommandT&,
                        const ActOpts&);
absl::StatusOr<Outcome> ResolveMelee(Decision&, const fb::CommandT&, uint64_t,
                                     const ActOpts&);
// The longest reach among the wielded melee weapons and unarmed (l.487
// "your maximum Reach").
int64_t MaxReach(const Combatant& a);
// Whether `t`'s pending movement act passes a square within `a`'s maximum
// Reach that `a` faces (l.487).
bool MovesThroughReach(const State& s, const Combatant& a, const Combatant& t);
// Whether the movement act `act` (a command) enters a square within `a`'s
// maximum Reach that `a` faces (l.487); false for any other act.
bool PassesThroughReach(const Combatant& a, const fb::CommandT& act, int32_t mover_size);
// Swift Attack eligibility against `target` (l.485, l.487).
absl::Status CheckSwift(const State& s, const Combatant& actor,
                        const Combatant& target);
// Whether `a` may answer `t` performing `act` with a Swift Attack: one is
// left this Round (l.483) and `act` moves through `a`'s reach (l.487), or
// `t` is a Swift Attack's target (l.485) within `a`'s maximum Reach or
// `a` wields a ranged or thrown weapon. Energy and range are checked when
// it answers.
bool MaySwiftAttack(const Combatant& a, const Combatant& t, const fb::CommandT& act);
// The shared melee-attack core for melee, unarmed and maneuvers.
struct MeleeSpec {
  std::string kind;          // "melee", "unarmed", "trip", ...
  const Weapon* weapon = nullptr;  // null: unarmed
  int64_t av_penalty = 0;    // maneuvers: -5 (l.557)
  int defense_edge_adv = 0;  // maneuvers vs non-Exposed: l.553
};
struct MeleeResult {
  bool hit = false;
  bool crit = false;
  bool crit_fail = false;
  int combat_d20 = 0;
  int64_t av = 0;          // with penalties
  int64_t av_base = 0;     // without the maneuver -5 (l.557)
  Nums nums;
};
absl::StatusOr<MeleeResult> MeleeAttackRoll(Decision& d,
                                            const fb::CommandT& c,
                                            const MeleeSpec& spec,
                                            uint64_t cause);
int64_t EnergyForMelee(const Combatant& actor, const fb::CommandT& c,
                       bool unarmed);
absl::Status CheckAttackCommon(const State& s, const Combatant& actor,
                               const Combatant& target, const fb::CommandT& c,
                               const Weapon* weapon, bool melee,
                               const ActOpts& o);

// ---- ranged.cc
absl::Status CheckRanged(const State&, const Combatant&, const fb::CommandT&,
                         const ActOpts&);
absl::StatusOr<Outcome> ResolveRanged(Decision&, const fb::CommandT&,
                                      uint64_t, const ActOpts&);
absl::Status CheckLoad(const State&, const Combatant&, const fb::CommandT&,
                       const ActOpts&);
absl::StatusOr<Outcome> ResolveLoad(Decision&, const fb::CommandT&, uint64_t,
                                    const ActOpts&);
struct Trio {
  int64_t close = 0, far = 0, max = 0;
};
// Draw weight row for `kg` (l.256): extra damage; the minimum Arm Strength.
int64_t DrawExtraDamage(int64_t kg);
int64_t DrawMinArm(int64_t kg);
Trio ThrowExtra(int64_t arm_strength);  // l.278
int64_t SizeMissMod(int size);          // l.211

// ---- damage.cc
struct DamageIn {
  int64_t rolled = 0;       // weapon dice (or unarmed base)
  int64_t bonus = 0;        // MASDB, draw weight
  bool armor = false;       // roll < AC and not critical
  int64_t ar = 0;
  std::string type;
  int halvings = 0;         // non-proficient, thrown without Thrown
  int doublings = 0;        // extra sources of double damage (l.386)
  // Where `bonus` comes from (the weapon for draw weight) and its rule.
  std::string bonus_source;
  std::string bonus_rule = "002.melee.masdb";
  std::string armor_rule = "002.melee.armor";  // the rule subtracting AR
  // One number per halving and doubling above, naming its source and rule.
  Nums mods;
};
struct DamageOut {
  int64_t after_armor = 0;
  int64_t dealt = 0;
  int weak = 0, resist = 0;
  Nums nums;
};
DamageOut ComputeDamage(const Combatant& target, const DamageIn& in);
// Chance roll for non-lethal damage (l.511, l.513, l.519). Returns whether
// the damage is non-lethal.
absl::StatusOr<bool> NonLethalChance(Decision& d, const std::string& attacker,
                                     int64_t threshold, int64_t trades,
                                     uint64_t cause, Nums& nums);
// Applies `dealt` to the target's Aura, then (at 0 Aura before the hit)
// a Death roll or the non-lethal effects.
absl::Status ApplyDamage(Decision& d, const std::string& target,
                         const DamageOut& dmg, bool nonlethal,
                         const std::string& rule, uint64_t cause);

// ---- aura.cc
absl::Status DeathRoll(Decision& d, const std::string& who, uint64_t cause);
// `extra` numbers are added to the roll's record (a rest's Round: `rest_round`).
absl::Status DeathSave(Decision& d, const std::string& who, uint64_t cause,
                       const Nums& extra = {});
absl::Status WakeRoll(Decision& d, const std::string& who, uint64_t cause,
                      const Nums& extra = {});
absl::Status FallUnconscious(Decision& d, const std::string& who,
                             const std::string& cause_kind, const Why& why);
absl::Status Die(Decision& d, const std::string& who, const Why& why);
// Gaining Aura stabilises (l.647).
absl::Status GainAura(Decision& d, const std::string& who, int64_t amount,
                      const Why& why);
absl::Status StabiliseIfGained(Decision& d, const std::string& who,
                               int64_t before, uint64_t cause);

// ---- maneuvers.cc
absl::Status CheckManeuver(const State&, const Combatant&, const fb::CommandT&,
                           const ActOpts&);
absl::StatusOr<Outcome> ResolveManeuver(Decision&, const fb::CommandT&,
                                        uint64_t, const ActOpts&);
absl::Status CheckEscape(const State&, const Combatant&, const fb::CommandT&,
                         const ActOpts&);
absl::StatusOr<Outcome> ResolveEscape(Decision&, const fb::CommandT&,
                                      uint64_t, const ActOpts&);
absl::Status DecideRelease(const fb::CommandT& c, Decision& d);

// ---- items.cc
absl::Status CheckEquip(const State&, const Combatant&, const fb::CommandT&,
                        const ActOpts&);
absl::StatusOr<Outcome> ResolveEquip(Decision&, const fb::CommandT&, uint64_t,
                                     const ActOpts&);
absl::Status CheckPickUp(const State&, const Combatant&, const fb::CommandT&,
                         const ActOpts&);
absl::StatusOr<Outcome> ResolvePickUp(Decision&, const fb::CommandT&,
                                      uint64_t, const ActOpts&);
// Drops `weapon` of `owner` at `at` (a Dropped condition; wield set to 0).
absl::Status DropWeapon(Decision& d, const std::string& owner,
                        const std::string& weapon, Pos at, const Why& why);
std::string WieldKey(const std::string& weapon);
std::string LoadedKey(const std::string& weapon);
// Shaken: a Chance roll DC 5 when manipulating items (l.666). Returns
// whether the item stays in hand.
absl::StatusOr<bool> ShakenCheck(Decision& d, const std::string& who,
                                 uint64_t cause, Nums& nums);

// ---- rest.cc
absl::Status DecideShortRest(const fb::CommandT& c, Decision& d);
absl::Status DecideLongRest(const fb::CommandT& c, Decision& d);
absl::Status DecideSurge(const fb::CommandT& c, Decision& d);

// ---- conditions.cc (verbs)
absl::Status DecideRemoveCondition(const fb::CommandT& c, Decision& d);

// Helpers for names of resources (one place).
namespace res {
inline constexpr char kEnergy[] = "energy";
inline constexpr char kAgility[] = "agility";
inline constexpr char kStamina[] = "stamina";
inline constexpr char kAura[] = "aura";
inline constexpr char kSurges[] = "surges";
inline constexpr char kSwiftUsed[] = "swift_used";          // this round
inline constexpr char kStaminaEnergy[] = "stamina_energy_used";  // this round
inline constexpr char kInitRound[] = "initiative_round";    // round rolled
inline constexpr char kInitValue[] = "initiative_value";
inline constexpr char kDeathSaveRound[] = "death_save_round";
inline constexpr char kAgileCredit[] = "agile_credit";
inline constexpr char kMoved[] = "moved_m";       // metres this round
inline constexpr char kStreak[] = "move_streak";  // metres, back-to-back
inline constexpr char kHeading[] = "heading";     // last step dir + 1
inline constexpr char kSprinted[] = "sprinted";   // last move was a sprint
// Where the last sprint began (l.587 "Sprinted from at least 3m away").
inline constexpr char kSprintFromX[] = "sprint_from_x";
inline constexpr char kSprintFromY[] = "sprint_from_y";
inline constexpr char kFacing[] = "facing";
}  // namespace res

}  // namespace combat::kernel::energy

#endif  // COMBAT_KERNEL_ENERGY_ROUNDS_INTERNAL_H_
