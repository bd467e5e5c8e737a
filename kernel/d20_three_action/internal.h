// Shared helpers of the d20_three_action ruleset (seed 000). Private to
// this package: nothing outside kernel/d20_three_action includes it.
//
// Vocabulary used across files:
//  - "rule" ids ("000.attack.critical") are keys of the table in
//    rules_table.cc; every refusal and every state change cites one.
//  - Resources (kernel counters) and condition names are the constants
//    below; the README lists what each means.
//  - A `Ctx` says how an action is being resolved: declared on the actor's
//    turn, fired as a readied action into a window, or resumed after a
//    window closed (its cost already paid).
#ifndef COMBAT_KERNEL_D20_THREE_ACTION_INTERNAL_H_
#define COMBAT_KERNEL_D20_THREE_ACTION_INTERNAL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "events/common_generated.h"
#include "kernel/action_table.h"
#include "kernel/changes.h"
#include "kernel/decision.h"
#include "kernel/refusal.h"
#include "kernel/dice/roller.h"
#include "kernel/ruleset.h"
#include "kernel/space.h"
#include "kernel/state.h"

namespace combat::kernel::d20 {

inline constexpr char kSeed[] = "000_ab2f36f2929fdde3.txt";

// ---- resources (per combatant counters)
inline constexpr char kHp[] = "hp";  // current HP
inline constexpr char kBleedPenalty[] = "bleed_penalty";
inline constexpr char kActions[] = "actions";
inline constexpr char kReactions[] = "reactions";
inline constexpr char kEnergy[] = "energy";
inline constexpr char kSotRound[] = "sot_round";  // start-of-turn effects done
inline constexpr char kBreathRound[] = "breath_round";  // L77: last round counted
inline constexpr char kTurnRound[] = "turn_round";  // turn taken (ended)
inline constexpr char kTurnSeq[] = "turn_seq";      // seq its turn started at
inline constexpr char kAltitude[] = "altitude";      // ft above the ground
inline constexpr char kFallFt[] = "fall_ft";  // L79: ft of the current fall
// L83 with L61: the heading + 1 of the last step a flight made before a
// readied action's window held the rest of it back (0 = none).
inline constexpr char kSplitHeading[] = "split_heading";

// ---- condition names
inline constexpr char kProne[] = "prone";
inline constexpr char kBleeding[] = "bleeding";
inline constexpr char kIncapacitated[] = "incapacitated";
inline constexpr char kDead[] = "dead";
inline constexpr char kUnconscious[] = "unconscious";
inline constexpr char kStunned[] = "stunned";
inline constexpr char kSlowed[] = "slowed";
inline constexpr char kShaken[] = "shaken";
inline constexpr char kBlinded[] = "blinded";
inline constexpr char kEntangled[] = "entangled";
inline constexpr char kGrappled[] = "grappled";
inline constexpr char kGrappling[] = "grappling";
inline constexpr char kOnFire[] = "on_fire";
inline constexpr char kPoisoned[] = "poisoned";
inline constexpr char kInvisible[] = "invisible";
inline constexpr char kConcealed[] = "concealed";
inline constexpr char kHidden[] = "hidden";
inline constexpr char kUndetected[] = "undetected";
inline constexpr char kFlatFooted[] = "flat_footed";
// The note of a critical Feint's Flat Footed (L53 "until your next Turn"):
// it follows the feinter when it holds or delays, where a Round's duration
// stays at the old place (KeepRoundAnchors).
inline constexpr char kUntilYourNextTurn[] = "until the feinter's next Turn (L53)";
inline constexpr char kSqueezing[] = "squeezing";
inline constexpr char kDodging[] = "dodging";
inline constexpr char kCommanded[] = "commanded";
inline constexpr char kControlled[] = "controlled";
inline constexpr char kSpell[] = "spell";
inline constexpr char kDisarmed[] = "disarmed";
inline constexpr char kHeld[] = "held";
inline constexpr char kFlying[] = "flying";
inline constexpr char kChoked[] = "choked";
inline constexpr char kHoldingBreath[] = "holding_breath";  // L77, level = rounds
inline constexpr char kSuffocating[] = "suffocating";       // L77: 0 HP, dies next
inline constexpr char kFallPending[] = "fall_pending";
inline constexpr char kTookItem[] = "took_item";
inline constexpr char kFalling[] = "falling";  // L79: still in the air
inline constexpr char kDrifting[] = "drifting";  // L85: level ft, note "dx,dy"
inline constexpr char kUnsteady[] = "unsteady";  // L85: not yet stabilized

// ---- rules_table.cc
const std::vector<RuleRef>& RuleTable();
// ---- verbs.cc: every verb Decide takes (kernel/verb_schema.h).
const std::vector<VerbSchema>& Verbs();
// kernel/refusal.h bound to this ruleset's table: "000 Actions > Attack,
// l.27" for rule `id`, and FailedPrecondition "<msg> (<citation>)".
// Malformed commands: kernel::Malformed.
std::string Cite(const std::string& id);
absl::Status Refuse(const std::string& rule, const std::string& msg);

// ---- how an action is being resolved
enum class Via { kDeclared, kInterrupt, kResumed };
struct Ctx {
  Via via = Via::kDeclared;
  uint64_t cause = 0;  // the declaration / interrupt seq
  int64_t spent = 0;   // resumed move: feet already moved (pending progress)
};

// ---- conditions.cc
bool IsDead(const Combatant& c);
bool IsHelpless(const Combatant& c);  // Stunned or Unconscious (L164, L168)
bool Hostile(const Combatant& a, const Combatant& b);
int64_t SizeRank(const Combatant& c);
// Conditions named `name` on `c`, in id order.
std::vector<const Condition*> Named(const Combatant& c, std::string name);
// Actions / Reactions a turn gives (L15, L19, L152, L162, L164, L168); the
// numbers used are appended to `nums`.
int64_t ActionBudget(const Combatant& c, Nums* nums = nullptr);
int64_t ReactionBudget(const Combatant& c, Nums* nums = nullptr);
// The creature whose turn a duration is anchored to: the active creature
// (the applier on its own turn; the commander for a commanded creature),
// else `who`.
std::string TurnOwner(const State& s, std::string who);
// "For 1 Round" (L13): ends at the start of the anchor's turn `rounds`
// rounds on, i.e. after every other creature has had a turn.
Expiry ForRounds(const State& s, std::string who, int64_t rounds);
// L13 "a Duration of 1 Round ... will end after all other Creatures have
// gotten a Turn": when `who` leaves its place in the order (hold, or enter
// after a delay), the Round durations anchored to its turn starts stay at
// that place: they move to the turn start of the creature that followed it
// in `old_order` (the round's end when none did); when `who` was first and
// is now last, to its own turn start a round earlier (its old place, the
// round's start, now comes as its own turn does). Anchors meaning "until
// your next Turn" (a critical Feint's Flat Footed, L53: note
// kUntilYourNextTurn) stay with `who`; a timed Flat Footed from a spell or
// the GM is a Round's duration and stays.
// Call it after the new order is set.
absl::Status KeepRoundAnchors(Decision& d, const std::string& who,
                              const std::vector<OrderEntry>& old_order,
                              uint64_t cause);
// L13 with a GM's `gm_order`: the Round durations anchored at a turn start
// in `old_order` end, in the new order (the state's), at the place that
// comes right after the last Turn another creature was to have before that
// place (round R for those ahead of it, round R - 1 for those behind; that
// round's end when no place follows it in the round), so
// "after all other Creatures have gotten a Turn" as the old place did.
// Call it after the new order is set.
absl::Status KeepRoundPlacesOnReorder(Decision& d,
                                      const std::vector<OrderEntry>& old_order,
                                      uint64_t cause);
// L156: `who`, On fire, that entered a water square on `path` (its own
// move or crawl, a push, a grapple partner's move) is put out.
absl::Status QuenchIfEntered(Decision& d, const std::string& who,
                             const std::vector<Pos>& path, uint64_t cause);
// "Until your next Turn" (L53): the start of `who`'s own next turn (its
// controller's for a companion, L41), also when it acts in another
// creature's turn (a readied act, L61).
Expiry UntilNextTurnOf(const State& s, const std::string& who);
// "For the rest of your Turn": ends at the end of the anchor's turn.
Expiry ThisTurn(const State& s, std::string who);
// Adds Prone (L160) unless already prone; a grapple partner falls with it
// (L148, L150).
absl::Status KnockProne(Decision& d, std::string who, const Why& why);
// Ends every grapple `who` is part of (Grappling with its Grappled daughter).
absl::Status EndGrapples(Decision& d, std::string who, const Why& why);
// The creature grappling `c` / grappled by `c`, or "".
std::string GrapplerOf(const Combatant& c);
std::string GrappledBy(const Combatant& c);
// Every creature `c` grapples or is grappled by, in condition order (a
// creature with two hands may grapple two, L59 "a free hand").
std::vector<std::string> GrapplePartners(const Combatant& c);
// The grapple partners of `c` whose space it no longer overlaps (L59 "Both
// Creatures share the space"), in condition order.
std::vector<std::string> PartnersApart(const State& s, const Combatant& c);
// Ends `holder`'s hold on `held` only (L148 "this condition ends"): its
// Grappling on `held` with the Grappled daughter, and a Grappled of `held`
// relative to `holder` that has no Grappling behind it (a GM's); every other
// grapple of either goes on.
absl::Status EndHold(Decision& d, const std::string& holder,
                     const std::string& held, const Why& why);
// Ends the grapple between `who` and `other` only (either holding the
// other: EndHold both ways), leaving `who`'s other grapples.
absl::Status EndGrappleWith(Decision& d, const std::string& who,
                            const std::string& other, const Why& why);
// Whether `c` is Hidden or Undetected from `observer` (L115, L117).
bool HiddenFrom(const Combatant& c, const std::string& observer);
// Removes hidden/undetected conditions of `who` relative to `observer`.
absl::Status Reveal(Decision& d, std::string who, std::string observer,
                    const Why& why);
// Adds condition `name` (with rounds when > 0) to `who`.
absl::StatusOr<uint32_t> Apply(Decision& d, std::string who, std::string name,
                               std::string by, int64_t level,
                               std::optional<Expiry> expiry, const Why& why,
                               uint32_t parent = 0,
                               std::string relative_to = "");

// L146: Shaken for `rounds` rounds (ending as `fresh` says, else
// ForRounds); on an already Shaken creature (timed) the rounds are added to
// the running duration instead of a second instance.
absl::Status AddShaken(Decision& d, std::string who, std::string by,
                       int64_t rounds, uint32_t parent, const Why& why,
                       std::optional<Expiry> fresh = std::nullopt);
inline constexpr char kMoving[] = "moving";  // ft left of this turn's Move
inline constexpr char kCoverCondition[] = "cover";  // GM: illusory cover

// ---- damage.cc
// Deals `amount` damage (>= 0) of `kind` to `who`: HP, Bleed Penalty (L127),
// Incapacitated (L152) and Dead (L140).
absl::Status DealDamage(Decision& d, std::string who, int64_t amount,
                        std::string kind, const Why& why);
// Heals `amount` (> 0): HP up to max, Bleed Penalty -1 (L127); ends
// Incapacitated/Unconscious above 0 HP.
absl::Status HealDamage(Decision& d, std::string who, int64_t amount,
                        const Why& why);
absl::Status Kill(Decision& d, std::string who, const Why& why);
absl::Status FallUnconscious(Decision& d, std::string who, const Why& why);
// L152: at 0 or less HP and not dead (and not yet Incapacitated): becomes
// Incapacitated, is knocked Prone and begins Bleeding.
// Condition names are a closed list: `name` in the text's spelling, any
// case ("Flat Footed", "PRONE") -> its canonical form ("flat_footed",
// "prone"); InvalidArgument naming `field` and listing the names otherwise.
absl::StatusOr<std::string> CanonicalCondition(const std::string& name,
                                               const std::string& field);
absl::Status Incapacitate(Decision& d, std::string who, uint64_t cause);
// End of `who`'s turn, L77: without breath (`choked`), one more Round held
// (`holding_breath`, level = rounds); at STR rounds 0 HP, Incapacitated
// and `suffocating`; a Turn ending suffocating without breath kills when it
// started after the creature ran out of breath. With breath both are
// removed. `turn_started`: the seq the Turn ending started at (its
// `turn_seq`); none when no Turn ends (a delay, a delaying creature's
// original place, L15): the Round is counted, nobody dies.
absl::Status SuffocationCheck(Decision& d, const std::string& who,
                              uint64_t cause,
                              std::optional<int64_t> turn_started);
// L77 with STR 0 or less: a creature that can hold its breath for no Round
// at all is out of breath as soon as it cannot breathe (0 HP,
// Incapacitated, `suffocating`); called when it is choked.
absl::Status BreathCutOff(Decision& d, const std::string& who, uint64_t cause);
// Rolls `notation` as damage and deals it (doubled when `critical`).
absl::StatusOr<int64_t> RollDamage(Decision& d, std::string notation,
                                   std::string roller, std::string target,
                                   std::string kind, bool critical,
                                   std::string rule, uint64_t cause, Nums nums);

// ---- grid.cc (5 ft squares; every step, diagonal included, is 5 ft)
inline constexpr int64_t kSquare = 5;
inline constexpr space::Grid kGrid{space::Metric::kChebyshev, kSquare};
// Feet between the nearest squares of two spaces (0 when they overlap).
int64_t DistanceFt(Pos a, int32_t size_a, Pos b, int32_t size_b);
int64_t DistanceFt(const Combatant& a, const Combatant& b);
using space::Covers;  // p is inside the space
bool IsWall(std::string terrain);
bool IsDifficult(std::string terrain);
// Longest melee reach among `c`'s melee/natural weapons in hand (5
// unarmed).
int64_t MeleeReach(const Combatant& c);
// Whether `c` still holds `w` (an item named `item`): not dropped, flung
// or taken (L21, L55: no `disarmed` condition names it).
bool InHand(const Combatant& c, const std::string& item);
bool InHand(const Combatant& c, const Weapon& w);
struct CoverResult {
  bool cover = false;    // partially obscured (L121)
  bool blocked = false;  // completely obscured by a wall: cannot be attacked
  std::string by;        // what gives the cover
};
// Cover of `target` from a point of origin at space (from, from_size)
// (L121): lines from the origin's centre to points of the target's space,
// walking the squares they cross.
CoverResult CoverFrom(const State& s, Pos from, int32_t from_size,
                      const Combatant& target, std::string attacker);
// The first fog square on the line, or at either end (L91); nullopt when
// none.
std::optional<Pos> FogBetween(const State& s, const Combatant& viewer,
                              const Combatant& target);
// The ally of `attacker` that flanks `target` with it (L109), or "".
std::string FlankPartner(const State& s, const Combatant& attacker,
                         const Combatant& target, int64_t attacker_reach);

// ---- advantage.cc
enum class AttackKind { kMelee, kRanged, kSpell };
struct AttackSpec {
  AttackKind kind = AttackKind::kMelee;
  const Weapon* weapon = nullptr;
  bool area = false;          // attacks an Area (L27, L113, L121)
  std::optional<Pos> origin;  // area point of origin (L121)
  bool consume_dodge = true;  // the defender's roll in an opposed
                              // check does not use up a Dodge
};
// One source of Advantage or Disadvantage: its kind ("cover", "flanked"),
// what gives it ("ogre", "prone on gob", "darkness at 3,4"; "" when only
// the rule does, as a ranged attack within 5 ft) and the rule applying it.
struct EdgeSource {
  std::string name;
  std::string source;
  std::string rule;
};
struct Edge {
  std::vector<EdgeSource> advantage;
  std::vector<EdgeSource> disadvantage;
  // +1 advantage, -1 disadvantage, 0 straight: any advantage and any
  // disadvantage cancel; several of one kind do not stack.
  int mode() const;
  bool Has(const std::string& name) const;  // either kind
  // Appends "<prefix>adv.<name>" / "<prefix>dis.<name>" = 1, each naming
  // its source and rule, then "<prefix>edge" = mode().
  void AddTo(Nums& nums, const std::string& prefix = "") const;
};
// "prone on gob": condition `name` borne by `who`, as a modifier's source.
std::string On(const std::string& name, const std::string& who);
// "3,4": a square, as a source's location.
std::string At(Pos p);
Edge AttackEdge(const State& s, const Combatant& attacker,
                const Combatant& target, const AttackSpec& spec);
// Concealment of `target` from `viewer` (L87, L91, L113-L117, L138, L154):
// its kind ("hidden", "darkness" ...; "" when seen clearly), what gives it
// and the rule.
EdgeSource Concealment(const State& s, const Combatant& viewer,
                       const Combatant& target);
// Concealment(...).name.
std::string ConcealedFrom(const State& s, const Combatant& viewer,
                          const Combatant& target);
// Concealment from the surroundings and senses only (not from being
// Hidden): invisible, blinded viewer, darkness, fog, a concealed condition.
std::string Obscured(const State& s, const Combatant& viewer,
                     const Combatant& target);
// True when `target` is Flat Footed against `attacker` (L107-L117, L138,
// L148, L164, L166, L168); `why` gets the kind, its source and rule.
bool FlatFootedAgainst(const State& s, const Combatant& target,
                       const Combatant& attacker, EdgeSource* why);
// "1d20" / "2d20kh1" / "2d20kl1" followed by +bonus / -bonus.
std::string D20(int mode, int64_t bonus);

// ---- attack_roll.cc
struct RollOutcome {
  int64_t natural = 0;
  int64_t total = 0;
  int mode = 0;
};
// The melee attack bonus (Level + STR, or DEX with a light or medium
// weapon: L29). `stat` is "str"/"dex"/"" (best allowed).
int64_t MeleeBonus(const Combatant& c, const Weapon* w, std::string stat,
                   Nums* nums);
int64_t RangedBonus(const Combatant& c, Nums* nums);  // L31
int64_t SpellBonus(const Combatant& c, Nums* nums);   // L33
// Rolls an attack roll d20+bonus with `edge`.
absl::StatusOr<RollOutcome> RollAttack(Decision& d, std::string roller,
                                       int64_t bonus, const Edge& edge,
                                       std::string purpose, uint64_t cause);
// A critical success: a success whose natural d20 is 20, or whose total
// beats the defense (or opposing total) by 10 or more (reading of L27).
bool IsCritical(const RollOutcome& r, int64_t against);
// Removes `target`'s Dodge if the edge used it (L45).
absl::Status ConsumeDodge(Decision& d, const Combatant& target,
                          const Edge& edge, uint64_t cause);
// An opposed Melee Attack roll (L49-L59, L148): both roll; the initiator
// succeeds on a total >= the defender's (reading of L33's "equal to or
// higher").
struct Opposed {
  RollOutcome mine;
  RollOutcome theirs;
  bool success = false;
  bool critical = false;
  Nums nums;
};
absl::StatusOr<Opposed> OpposedMelee(Decision& d, const Combatant& attacker,
                                     const Combatant& defender,
                                     const Weapon* weapon, std::string purpose,
                                     uint64_t cause);

// ---- turns.cc
// Whether `c` may act now: it is the active creature, or commanded by it.
bool IsActing(const State& s, const Combatant& c);
// Refuses unless `actor` can take an action costing `cost` Actions (0 for a
// free action) now: a turn is running and it is the actor's (L15, L21), it
// is not Stunned/Unconscious (L164, L168), and it has the Actions left.
// With Via::kInterrupt / kResumed only the helplessness check applies.
absl::Status CheckCanAct(const State& s, const Combatant& actor, int64_t cost,
                         const Ctx& ctx);
absl::Status SpendActions(Decision& d, std::string actor, int64_t cost,
                          uint64_t cause, std::string rule);
// With no turn running: starts the next creature's turn, ending rounds and
// starting new ones as needed (L13, L15).
absl::Status Advance(Decision& d, uint64_t cause);
// When the creature whose turn it is died during it (and no window is
// open), ends that turn (with its end-of-turn durations) and advances.
absl::Status EndTurnIfDead(Decision& d, uint64_t cause);
// Starts round 1 after set-up.
absl::Status BeginCombat(Decision& d);
absl::Status DecideEndTurn(const fb::CommandT& c, Decision& d);
absl::Status DecideDelay(const fb::CommandT& c, Decision& d);
absl::Status DecideHold(const fb::CommandT& c, Decision& d);
absl::Status DecideEnter(const fb::CommandT& c, Decision& d);

// ---- start_of_turn.cc
// The start-of-turn effects of `who` (L127-L136, L156, L158, durations),
// once per round; then those of every creature it last commanded (L41).
absl::Status StartOfTurnEffects(Decision& d, std::string who, uint64_t cause);
absl::Status RollBleedTable(Decision& d, std::string who, uint64_t cause);

// ---- initiative.cc
absl::Status SetupRoster(const fb::Roster& roster, Decision& d);

// ---- actions: each Validate* refuses without emitting; each Resolve*
// emits after the command was declared (ctx.cause), cost already paid.
// A row of the kernel's action table (kernel/action_table.h): kind.free is
// a Free Action (L21), kind.reactable whether it can trigger a readied
// action (L61).
using ActionSpec =
    Action<absl::Status (*)(const State& s, const fb::CommandT& c, const Ctx& ctx),
           absl::Status (*)(Decision& d, const fb::CommandT& c, const Ctx& ctx)>;
// Every action of the vocabulary, or nullptr.
const ActionSpec* FindAction(const std::string& action);
const std::vector<ActionSpec>& AllActions();

// attack.cc
absl::Status ValidateAttack(const State& s, const fb::CommandT& c,
                            const Ctx& ctx);
absl::Status ResolveAttack(Decision& d, const fb::CommandT& c, const Ctx& ctx);
// Shared by attacks and attacking spells: the attack-roll part for every
// target; `damage` notation (may be "") dealt on a hit.
struct AttackPlan {
  AttackSpec spec;
  int64_t bonus = 0;
  Nums bonus_nums;
  bool mental = false;  // vs Mental Defense (L33)
  std::string damage;   // notation, "" for no damage
  std::string damage_kind;
  std::string rule;  // the attack rule cited
  // L31: a ranged weapon's Range Increment (ft); each target's penalty is
  // its distance / increment, rounded down, beyond the first increment.
  int64_t range_increment = 0;
};
// Hit targets, each with whether the hit was critical.
struct Hit {
  std::string target;
  bool critical = false;
};
absl::StatusOr<std::vector<Hit>> ResolveAttackRoll(Decision& d,
                                                   const fb::CommandT& c,
                                                   const AttackPlan& plan,
                                                   uint64_t cause);
absl::Status ValidateTargets(const State& s, const fb::CommandT& c,
                             const Combatant& actor, const AttackSpec& spec,
                             int64_t range_ft);

// movement.cc
absl::Status ValidateMove(const State& s, const fb::CommandT& c,
                          const Ctx& ctx);
struct MoveProgress {
  size_t steps_done = 0;
  int64_t spent = 0;
  bool stopped = false;  // movement ended early (failed Push attempt)
  int heading = -1;      // a paying flyer's last step heading (L83), or -1
};
// The path squares of move `c` resolved before its first Push attempt
// through an Enemy's square (L35), or nullopt if it makes none.
std::optional<size_t> PushAttemptStep(const State& s, const fb::CommandT& c);
// Resolves path steps [from, to) of a move; `spent` ft already used;
// `heading` that of the Move's last step so far (a continued flight, L83).
absl::StatusOr<MoveProgress> ResolveMoveSteps(Decision& d,
                                              const fb::CommandT& c,
                                              uint64_t cause, size_t to,
                                              int64_t spent, int heading = -1);
absl::Status ResolveMove(Decision& d, const fb::CommandT& c, const Ctx& ctx);
// The heading the next step of move `c` turns from (L83): a continued
// flight's last step (`moving`, L35), the last step before a readied
// action's window when resumed (split_heading, L61), else -1 (free).
int MoveHeading(const Combatant& a, const fb::CommandT& c, Via via);
absl::Status ValidateCrawl(const State& s, const fb::CommandT& c,
                           const Ctx& ctx);
absl::Status ResolveCrawl(Decision& d, const fb::CommandT& c, const Ctx& ctx);
absl::Status ValidateStand(const State& s, const fb::CommandT& c,
                           const Ctx& ctx);
absl::Status ResolveStand(Decision& d, const fb::CommandT& c, const Ctx& ctx);
absl::Status ValidateDropProne(const State& s, const fb::CommandT& c,
                               const Ctx& ctx);
absl::Status ResolveDropProne(Decision& d, const fb::CommandT& c,
                              const Ctx& ctx);
absl::Status ValidateExtinguish(const State& s, const fb::CommandT& c,
                                const Ctx& ctx);
absl::Status ResolveExtinguish(Decision& d, const fb::CommandT& c,
                               const Ctx& ctx);
// Speed in ft for a Move (L35, L148, L150), or 0 when it cannot move.
int64_t MoveSpeed(const Combatant& c, bool fly, Nums* nums);

// maneuvers.cc
// What a Maneuver (an Attack, L47) does besides its own effect: the
// attacker is revealed to its target (L115 "being attacked by them") and,
// in zero-G, made Unsteady (L85); on a success (a hit) the target is made
// Unsteady and revealed to the attacker (L115 "hitting them").
// `attacker_at`: where the attacker is when the state has not moved it
// there yet (a move's Push attempt, L35).
absl::Status AfterAnAttack(Decision& d, const std::string& attacker,
                           const std::string& target, bool hit,
                           uint64_t cause,
                           std::optional<Pos> attacker_at = std::nullopt);
absl::Status ValidateManeuver(const State& s, const fb::CommandT& c,
                              const Ctx& ctx);
absl::Status ResolveManeuver(Decision& d, const fb::CommandT& c,
                             const Ctx& ctx);
absl::Status ValidateEscape(const State& s, const fb::CommandT& c,
                            const Ctx& ctx);
absl::Status ResolveEscape(Decision& d, const fb::CommandT& c, const Ctx& ctx);
absl::Status ValidateChoke(const State& s, const fb::CommandT& c,
                           const Ctx& ctx);
absl::Status ResolveChoke(Decision& d, const fb::CommandT& c, const Ctx& ctx);
absl::Status ValidateRelease(const State& s, const fb::CommandT& c,
                             const Ctx& ctx);
absl::Status ResolveRelease(Decision& d, const fb::CommandT& c, const Ctx& ctx);
absl::Status ValidateDropItem(const State& s, const fb::CommandT& c,
                              const Ctx& ctx);
absl::Status ResolveDropItem(Decision& d, const fb::CommandT& c,
                             const Ctx& ctx);
absl::Status ValidatePickUp(const State& s, const fb::CommandT& c,
                            const Ctx& ctx);
absl::Status ResolvePickUp(Decision& d, const fb::CommandT& c, const Ctx& ctx);
// A Push (L51) of `target` by `pusher` `squares` squares directly away;
// wall collisions deal d6 per 5 ft not travelled and knock Prone.
// `dir` is the step (-1..1 per axis) directly away from the pusher.
absl::Status PushAway(Decision& d, std::string pusher, std::string target,
                      Pos dir, int64_t squares, uint64_t cause);

// spells.cc
absl::Status ValidateCast(const State& s, const fb::CommandT& c,
                          const Ctx& ctx);
absl::Status ResolveCast(Decision& d, const fb::CommandT& c, const Ctx& ctx);
absl::Status ValidateControl(const State& s, const fb::CommandT& c,
                             const Ctx& ctx);
absl::Status ResolveControl(Decision& d, const fb::CommandT& c, const Ctx& ctx);
absl::Status ValidateFocus(const State& s, const fb::CommandT& c,
                           const Ctx& ctx);
absl::Status ResolveFocus(Decision& d, const fb::CommandT& c, const Ctx& ctx);
int64_t MultiActionCost(const fb::CommandT& c);  // param "actions", 1..3

// companions.cc
absl::Status ValidateCommand(const State& s, const fb::CommandT& c,
                             const Ctx& ctx);
absl::Status ResolveCommand(Decision& d, const fb::CommandT& c, const Ctx& ctx);

// skills.cc
absl::Status ValidateSkill(const State& s, const fb::CommandT& c,
                           const Ctx& ctx);
absl::Status ResolveSkill(Decision& d, const fb::CommandT& c, const Ctx& ctx);
absl::Status ValidateDodge(const State& s, const fb::CommandT& c,
                           const Ctx& ctx);
absl::Status ResolveDodge(Decision& d, const fb::CommandT& c, const Ctx& ctx);
absl::Status ValidateInteract(const State& s, const fb::CommandT& c,
                              const Ctx& ctx);
absl::Status ResolveInteract(Decision& d, const fb::CommandT& c,
                             const Ctx& ctx);
// The GM's `heal` verb (any source of healing; L127).
absl::Status DecideHeal(const fb::CommandT& c, Decision& d);
// `use_skill` with param reaction=1 (L19, L79): spends the Reaction.
absl::Status DecideReactionSkill(const fb::CommandT& c, Decision& d);

// falling.cc (L57, L79, L83: height)
int64_t Altitude(const Combatant& c);
// The movement a fly move's params ascend / descend cost (L83), or the
// refusal.
absl::StatusOr<int64_t> VerticalFt(const fb::CommandT& c, const Combatant& a);
// After a fly move: altitude up / down (landing at 0); a falling flyer
// flying again stops falling.
absl::Status ClimbOrDive(Decision& d, const fb::CommandT& c, uint64_t cause);
// L156 "by entering a body of water" with L79 "Landing in water": `who`,
// just landed (a fall or a dive to the ground), On fire, on a water square
// is put out.
absl::Status QuenchIfLanded(Decision& d, const std::string& who,
                            uint64_t cause);
// `who` drops up to `ft` of its altitude; `extra_ft` more of fall damage
// (a critical Trip, L57); fall_pending adds them up; `falling` while still
// in the air.
absl::Status Drop(Decision& d, const std::string& who, int64_t ft,
                  int64_t extra_ft, const std::string& rule, uint64_t cause);
// L79: a creature still falling drops another 100 ft at its turn's start.
absl::Status FallingAtTurnStart(Decision& d, const std::string& who,
                                uint64_t cause);

// zero_g.cc (L85: terrain `zero_g`)
bool InZeroG(const State& s, const Combatant& c);
// A `wall` or `cover` square in or next to `c`'s space.
bool TouchingFixed(const State& s, const Combatant& c);
// Whether `c` is a Move by pushing off in zero-G (not flying).
bool ZeroGMove(const State& s, const fb::CommandT& c, const Combatant& a);
absl::Status ValidateZeroGMove(const State& s, const fb::CommandT& c,
                               const Combatant& a, const Ctx& ctx);
// After the steps of a zero-G move (`squares` taken): the mover drifts, an
// unfixed creature pushed off moves the other way and drifts.
absl::Status AfterZeroGMove(Decision& d, const fb::CommandT& c,
                            const Combatant& before, const Ctx& ctx,
                            int64_t squares);
// At the start of `who`'s turn: every drift it set going moves on.
absl::Status DriftAtTurnStart(Decision& d, const std::string& who,
                              uint64_t cause);
// `who` attacked or was hit (`why`): unsteady unless touching a fixed object;
// `at`: where it is then, when the state has not moved it there yet (a
// move's Push attempt, L35, made from the square before the Enemy's).
absl::Status Unsteady(Decision& d, const std::string& who, uint64_t cause,
                      const std::string& why,
                      std::optional<Pos> at = std::nullopt);
absl::Status SteadyIfTouching(Decision& d, const std::string& who,
                              uint64_t cause);
// L85 "until you touch a fixed Object": every unsteady creature that now
// touches one is steady again (after any act that may have moved it: a
// push, a follow-up, a grapple partner's move, a drift, a GM's move).
absl::Status SteadyAllTouching(Decision& d, uint64_t cause);
absl::Status ValidateStabilize(const State& s, const fb::CommandT& c,
                               const Ctx& ctx);
absl::Status ResolveStabilize(Decision& d, const fb::CommandT& c,
                              const Ctx& ctx);

// readied.cc
// The trigger names `ready` takes (param `trigger`).
const std::vector<std::string>& ReadyTriggers();
absl::Status ValidateReady(const State& s, const fb::CommandT& c,
                           const Ctx& ctx);
absl::Status ResolveReady(Decision& d, const fb::CommandT& c, const Ctx& ctx);
// Declares `c` (spec `a`), pays it, and either resolves it or, when it
// triggers readied actions, opens a window first (L61).
absl::Status DeclareAction(const ActionSpec& a, const fb::CommandT& c,
                           Decision& d);
// An answer into an open window: `pass`, or the readied action.
absl::Status DecideAnswer(const fb::CommandT& c, Decision& d);

}  // namespace combat::kernel::d20

#endif  // COMBAT_KERNEL_D20_THREE_ACTION_INTERNAL_H_
