// Internal pieces of the ap_rp ruleset (seed 004, the Battle text of
// ../shared/seeds/004_1a3e461770fc9e7a.txt), one concept per file:
//   rules_table.cc  rule ids -> seed lines
//   stats.cc        stat bonus, hit bonus, Evasion, Initiative, DR values,
//                   checks and size categories
//   turns.cc        rounds, turn order (OrderSet), unions, surprise, holding
//                   a turn, budgets (AP, RP, movement)
//   damage.cc       damage types, resistance/immunity/vulnerability, Armor
//                   and DR as armor, non-lethal damage, Bleeding
//   attack.cc       attacks: hit bonus vs Evasion, cover, criticals
//   actions.cc      the basic and advanced actions (AP costs, contests)
//   movement.cc     moving, difficult terrain, allies/enemies, forced
//                   movement and teleporting into an occupied space
//   held.cc         held actions: readied pending acts with triggers
//   cinematic.cc    Cinematic Actions/Reactions/Bursts, Narrative Momentum
//   dr.cc           Defense Rolls called by the GM
//   ruleset.cc      Setup and the Decide dispatch
#ifndef COMBAT_KERNEL_AP_RP_INTERNAL_H_
#define COMBAT_KERNEL_AP_RP_INTERNAL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "events/common_generated.h"
#include "kernel/arith.h"
#include "kernel/changes.h"
#include "kernel/decision.h"
#include "kernel/refusal.h"
#include "kernel/ruleset.h"
#include "kernel/space.h"
#include "kernel/state.h"
#include "kernel/verb_schema.h"

namespace combat::kernel::aprp {

inline constexpr char kSeed[] = "004_1a3e461770fc9e7a.txt";
inline constexpr char kId[] = "ap_rp";
// 2: verb schemas (issue 16): commands with fields a verb does not read
// are refused, so decisions differ from version 1. 5: the fourth black-box
// fidelity pass (events/FORMAT.md "Ruleset versions"). 6: the fifth. 7: the
// sixth. 8: the seventh.
inline constexpr int32_t kVersion = 14;

// Resources.
inline constexpr char kVitality[] = "vitality";
inline constexpr char kAp[] = "ap";
inline constexpr char kRp[] = "rp";
inline constexpr char kApUsed[] = "ap_used";      // AP spent this turn (l.44)
inline constexpr char kRpUsed[] = "rp_used";      // RP spent this round (l.44)
inline constexpr char kMovement[] = "movement";   // metres left this turn
inline constexpr char kMoved[] = "moved";         // metres moved this turn
inline constexpr char kFreeInteract[] = "free_interact";  // l.19
inline constexpr char kFreeSwitch[] = "free_switch";      // l.24
inline constexpr char kCinematicActed[] = "cinematic_acted";  // l.40-44: proposed this turn
inline constexpr char kFeatureActed[] = "feature_acted";  // l.6: a feature paid with RP on the turn
inline constexpr char kTurnRound[] = "turn_round";  // round whose turn ended
// Hands (l.19, l.24, l.32, l.34, l.35): roster stat "hands" (default 2) and
// the resource "free_hands" (set up from stat "free_hands", default all).
inline constexpr char kFreeHands[] = "free_hands";
int64_t Hands(const Combatant& c);
int64_t FreeHands(const Combatant& c);
// Pool (kernel/changes.h SetPool/AddPool): a side's Narrative Momentum.
inline constexpr char kMomentum[] = "narrative_momentum";
std::string SideOwner(const std::string& side);  // "side:<side>"

// Conditions.
inline constexpr char kBleeding[] = "Bleeding";
inline constexpr char kDefending[] = "Defending";
inline constexpr char kTakingCover[] = "Taking Cover";
inline constexpr char kProne[] = "Prone";
inline constexpr char kBlinded[] = "Blinded";
inline constexpr char kGrabbed[] = "Grabbed";
inline constexpr char kClimbing[] = "Climbing";
inline constexpr char kHidden[] = "Hidden";
inline constexpr char kUnion[] = "Union";
inline constexpr char kCommanding[] = "Commanding";
inline constexpr char kDead[] = "Dead";
inline constexpr char kLeaning[] = "Leaning";
// l.34: a weapon the creature dropped when disarmed (note = the weapon's
// name; level 1 when the disarmer took it). Attacks with it are refused
// until it is picked up again (Interact, l.19 "picking up a weapon").
inline constexpr char kDisarmed[] = "Disarmed";
// The Disarmed condition of `c` for weapon `name`, or nullptr.
const Condition* DroppedWeapon(const Combatant& c, const std::string& name);

// ---- fields (stats.cc): refuses a command carrying targets, a weapon or a
// path its verb does not take (InvalidArgument naming the field). The verb
// table (verbs.cc) says this for every verb before Decide; CheckShape is for
// hold_action, whose fields are those of the action it holds.
absl::Status CheckShape(const fb::CommandT& c, size_t targets, bool weapon, bool path);
// At most one target (what the verb table cannot say: it says only whether
// a verb takes targets).
absl::Status CheckOneTarget(const fb::CommandT& c);

// ---- verbs.cc: the whole verb table (kernel/verb_schema.h), GM verbs
// included; checked by the kernel before Decide.
const std::vector<VerbSchema>& Verbs();
// The resources ap_rp reads, the only ones gm_adjust / gm_set may name: a
// stat of the roster (str, armor ...) set as a resource would change
// nothing. Buffs to Evasion (l.62) go in evasion_bonus, changes to
// Initiative (l.11) in initiative_mod.
const std::vector<std::string>& GmResources();

// ---- rules_table.cc
const std::vector<RuleRef>& RuleTable();
std::string Cite(const std::string& rule);
absl::Status Refuse(const std::string& rule, const std::string& message);

// ---- stats.cc
// The grid: 1 m squares, diagonals 1 m (l.106).
inline constexpr space::Grid kGrid{space::Metric::kChebyshev, 1};
inline int64_t Dist(const Combatant& a, const Combatant& b) {
  return space::Distance(kGrid, a, b);
}
// The seven Stats (l.70): str dex con int cha ins wil.
bool IsStat(const std::string& key);
// Stat Bonus = Stat - 10 (reading of l.53 and l.61: 13 -> 3, 14 -> 4).
int64_t StatBonus(const Combatant& c, const std::string& stat);
// A tag "<prefix>:<value>" of `c`, or "".
std::string TagValue(const Combatant& c, const std::string& prefix);
bool IsObject(const Combatant& c);
// Hit bonus = Primary Stat Bonus + half the Secondary Stat Bonus, rounded
// down (l.53). `nums` gets the parts.
int64_t HitBonus(int64_t primary_bonus, int64_t secondary_bonus);
// Base Evasion = Dexterity + the Evasion Stat's bonus (l.61), capped by the
// armor's Evasion Cap (l.62); then + evasion_bonus (buffs, not capped).
int64_t BaseEvasion(const Combatant& c, Nums* nums);
int64_t Evasion(const Combatant& c, Nums* nums);
// Initiative = Instinct x 2 + Athletics + Quick Fingers + Analysis + Grace +
// Improvisation (l.7); objects 0; + the "initiative_mod" resource.
int64_t Initiative(const Combatant& c);
// The DR kinds (l.70-77): "str" (raw_force) ... "wil" (perseverance).
bool IsDrKind(const std::string& kind);
std::string DrSkill(const std::string& kind);
// DR value = Stat Bonus + Skill Level (l.65, l.70).
int64_t DrValue(const Combatant& c, const std::string& kind);
// DR Power = the Primary Stat of the creature (l.70).
int64_t DrPower(const Combatant& c);
// The size category (stat "size_cat", larger is bigger; 0 by default).
int64_t SizeCat(const Combatant& c);
// "1d20+4", "2d20kh1-1", ... mode > 0 advantage, < 0 disadvantage.
std::string D20(int mode, int64_t bonus);
// Whether a creature can act at all (not Dead, not an object).
bool Alive(const Combatant& c);
bool Enemies(const Combatant& a, const Combatant& b);
// l.36 "While you are hidden ... the enemies do not know where you are":
// refused (004.hide) when `t` is hidden from `a`: `a` cannot target it.
absl::Status CheckNotHiddenFrom(const Combatant& a, const Combatant& t);

// ---- turns.cc
absl::Status BeginCombat(Decision& d);
// Starts the next turn or round.
absl::Status Advance(Decision& d, uint64_t cause);
// After gm_order: an untouched running turn that is no longer first passes
// to the new first (l.7).
absl::Status AfterGmOrder(Decision& d, uint64_t ruling);
absl::Status AfterGmCondition(Decision& d, uint64_t ruling);
// l.7: a gm_order reorders only ties (refused otherwise, nothing written).
absl::Status CheckGmOrder(const State& s, const fb::CommandT& c);
// The creatures whose turn is running (active + members).
std::vector<std::string> TurnTakers(const State& s);
// Checks `actor` may spend `ap` AP now (its turn, enough AP).
absl::Status CheckAp(const State& s, const Combatant& actor, int64_t ap,
                     const std::string& rule);
absl::Status SpendAp(Decision& d, const std::string& who, int64_t ap,
                     uint64_t cause, const std::string& rule);
absl::Status CheckRp(const State& s, const Combatant& actor, int64_t rp,
                     const std::string& rule);
absl::Status SpendRp(Decision& d, const std::string& who, int64_t rp,
                     uint64_t cause, const std::string& rule);
// Expiry "until <who>'s next turn" (the TurnStart of its next turn) and
// "until the end of <who>'s next turn".
Expiry UntilNextTurn(const State& s, const std::string& who);
Expiry EndOfNextTurn(const State& s, const std::string& who);
absl::Status DecideEndTurn(const fb::CommandT& c, Decision& d);
absl::Status DecideHoldTurn(const fb::CommandT& c, Decision& d);
absl::Status DecideResume(const fb::CommandT& c, Decision& d);
absl::Status DecideFormUnion(const fb::CommandT& c, Decision& d);
absl::Status DecideLeaveUnion(const fb::CommandT& c, Decision& d);
absl::Status DecideUseFeature(const fb::CommandT& c, Decision& d);

// ---- damage.cc
struct DamagePart {
  std::string type;  // one of the 11 types (l.79-97)
  int64_t amount = 0;
};
bool IsDamageType(const std::string& t);
struct DamageOpts {
  int64_t ignore_armor = 0;     // l.66
  bool nonlethal = false;       // l.58
  bool lethal_holy = false;     // l.92: the dealer wishes Holy to be lethal
  std::string armor_from;       // l.65: the type the defense comes off
  int64_t cap = 0;              // > 0: at most this much to a creature (l.115)
};
// Applies `parts` to `target`; returns the damage dealt. l.64-66, l.79, l.92.
absl::StatusOr<int64_t> ApplyDamage(Decision& d, const std::string& target,
                                    std::vector<DamagePart> parts,
                                    const DamageOpts& o, uint64_t cause,
                                    Nums nums);
// Pure: the damage `parts` come to against `target` (for tests and audit).
struct DamageCalc {
  int64_t total = 0;
  int64_t holy = 0;  // of `total`, the Holy part's (l.92)
  Nums nums;
};
DamageCalc ComputeDamage(const Combatant& target, std::vector<DamagePart> parts,
                         const DamageOpts& o);

// ---- attack.cc
struct AttackOpts {
  bool choose_miss = false;
  bool nonlethal = false;
  bool lethal_holy = false;
  int64_t ignore_armor = 0;
  std::string armor_from;
  int64_t ability_tier = -1;   // >= 0: an Ability attack of that Tier
  int64_t maneuver_tier = 0;   // a Maneuver added (l.56)
  std::string ability_damage;  // dice for an Ability attack
  std::string ability_type;
};
absl::Status CheckAttack(const State& s, const Combatant& attacker,
                         const fb::CommandT& c);
absl::Status ResolveAttack(Decision& d, const fb::CommandT& c, uint64_t cause);
// l.36: `who` gives its location away: no longer hidden, except until the
// end of its own turn when it is its turn.
absl::Status GiveAway(Decision& d, const std::string& who, uint64_t cause, const std::string& why);
// l.36: after the GM's gm_condition removing Hidden (an enemy sees the
// creature) on the creature's own turn, it stays hidden to the turn's end.
absl::Status AfterGmUnhide(Decision& d, const fb::CommandT& c, uint64_t ruling);
// Cover of `target` against `from` (l.110-112): 0 none, 1 half, 2 full;
// `front` the creature in front taking the misses (l.111).
struct Cover {
  int level = 0;
  std::string front;
  std::string by;  // what gives it: "half_cover at 3,4", "bob in front", "leaning aria"
};
Cover CoverOf(const State& s, const Combatant& from, const Combatant& target);
// l.112 leaning (params lean_x / lean_y): `a` leans towards a free square
// next to it, out of full cover from `t` (refused otherwise); Viewpoint is
// `a` seen from that square (itself without the params); AddLeaning gives
// it `Leaning` (half cover) until the end of the turn it leans on.
absl::Status CheckLean(const State& s, const Combatant& a, const Combatant& t, const fb::CommandT& c);
Combatant Viewpoint(const Combatant& a, const fb::CommandT& c);
absl::Status AddLeaning(Decision& d, const std::string& who, const Pos& at, uint64_t cause);
// The same, a creature named `ignore` giving none (the moved target of a
// collision, l.114: it is the effect, not something standing between).
Cover CoverOf(const State& s, const Combatant& from, const Combatant& target, const std::string& ignore);
// A DR's cover bonus (l.111 "increases all of your DR by 1 against all
// effects that come from that same direction"; l.112 leaning; l.25 Taking
// Cover +1 more while in half cover), its numbers pushed on `nums`.
int64_t DrCoverBonus(const Cover& cover, const Combatant& target, Nums& nums);

// ---- movement.cc
absl::Status CheckMove(const State& s, const Combatant& a, const fb::CommandT& c);
// Resolves `steps` squares of c.path (all when steps >= size); returns how
// many were entered (a failed contest stops the move).
absl::StatusOr<size_t> ResolveMove(Decision& d, const fb::CommandT& c,
                                   uint64_t cause, size_t from, size_t steps);
// Forced movement of `target` along `path` by `source` (l.114). `with`:
// the damage the Ability or attack causing the movement deals the target
// (applied after the move); `combine`: the collision damage is added to it
// as one damage source (one Armor subtraction, l.114, l.64); `fails`: the
// occupants that choose to fail their Strength DR (l.69); `seen_from`: the
// source's Viewpoint (leaning, l.112), the direction an occupant's DR cover
// is judged from.
absl::Status ForcedMove(Decision& d, const std::string& source,
                        const std::string& target, const std::vector<Pos>& path,
                        uint64_t cause, const std::string& rule,
                        std::vector<DamagePart> with = {}, bool combine = false,
                        const std::vector<std::string>& fails = {},
                        const Pos* seen_from = nullptr);
// params.occupant_fails (shove, force_move): the ids, comma-separated, of
// the occupants that choose to fail their Strength DR (l.69, l.114).
std::vector<std::string> OccupantsFailing(const fb::CommandT& c);
// Each of them a creature of the session (else refused, naming the field).
absl::Status CheckOccupantsFailing(const State& s, const fb::CommandT& c);
// Moves `who` along `path` (Move) and its climbers with it (l.32 "you move
// with it if it moves"); then, if `who` was itself climbing and is now off
// its mount's space, it is no longer on it (OffTheMount).
absl::Status MoveWithClimbers(Decision& d, const std::string& who, const std::vector<Pos>& path,
                              int64_t cost, bool forced, const Why& why);
absl::Status DecideForceMove(const fb::CommandT& c, Decision& d);
absl::Status DecideTeleport(const fb::CommandT& c, Decision& d);
absl::Status DecideMove(const fb::CommandT& c, Decision& d);

// ---- actions.cc: the action table (l.15-38).
struct ActionRow {
  const char* name;
  const char* rule;
  int64_t ap;         // l.15-38
  bool attack;        // classed as an attack for triggers
  bool move;          // its path is a move
  absl::Status (*check)(const State&, const Combatant&, const fb::CommandT&);
  absl::Status (*resolve)(Decision&, const fb::CommandT&, uint64_t cause);
  std::vector<std::string> params;  // their types: the verb table (verbs.cc)
};
const std::vector<ActionRow>& Actions();
const ActionRow* FindActionRow(const std::string& name);
// l.65: params.armor_from names a damage type weapon `w` deals (InvalidArgument).
absl::Status CheckArmorFrom(const Weapon& w, const fb::CommandT& c);
// The malformed fields of a held act (l.9), checked when it is held: its
// skill, armor_from and the row's InvalidArgument / NotFound checks (those
// needing the target only when it names one). Legality is checked at firing.
absl::Status CheckHeldActFields(const State& s, const Combatant& a, const ActionRow& row,
                                const fb::CommandT& act);
// The skills the actor may name (param `skill`) for each contested action.
const std::vector<std::string>& ActorSkills(const std::string& action);
// Whether the action names one target (targets[0]).
bool TakesTarget(const std::string& name);
// The AP an action costs now (free Interact / Switch Weapons, l.19, l.24).
int64_t ApCost(const State& s, const Combatant& a, const ActionRow& row,
               const fb::CommandT& c);
absl::Status DeclareAction(const ActionRow& row, const fb::CommandT& c,
                           Decision& d);
// Opposed check (l.31-38): returns whether the actor wins.
struct Contest {
  std::vector<std::string> actor_skills;
  std::vector<std::string> target_skills;
  bool size_rules = true;  // no more than one size larger; adv by size
};
absl::StatusOr<bool> RollContest(Decision& d, const Combatant& a,
                                 const Combatant& t, const Contest& k,
                                 const std::string& chosen, uint64_t cause,
                                 const std::string& rule);

// ---- held.cc
absl::Status DecideHoldAction(const fb::CommandT& c, Decision& d);
// Fires every held action declaration `c` sets off (before it resolves, or
// for a move at the square that sets it off). Returns the path step to
// resolve up to before firing (c.path.size() when none fire on a move).
absl::Status FireOnDeclaration(Decision& d, const fb::CommandT& c,
                               uint64_t decl, bool is_move);

// Fires every held action the state changes emitted so far set off
// (is_damaged), after declaration `c` resolved.
absl::Status FireOnChanges(Decision& d, const fb::CommandT& c, uint64_t decl);

// ---- cinematic.cc
absl::Status DecideCinematic(const fb::CommandT& c, Decision& d);
absl::Status DecideCinematicRuling(const fb::CommandT& c, Decision& d);
absl::Status DecideGrantMomentum(const fb::CommandT& c, Decision& d);

}  // namespace combat::kernel::aprp

#endif  // COMBAT_KERNEL_AP_RP_INTERNAL_H_
