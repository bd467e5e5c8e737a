// The rule table: every id a state change of this ruleset cites, with the
// seed line it reads (../shared/seeds/001_45dec7998f478a90.txt).
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "kernel/wound_slots/internal.h"

namespace combat::kernel::wound_slots {
namespace {

RuleRef R(const char* id, const char* section, int line, const char* summary) {
  return RuleRef{id, kSeed, section, line, summary};
}

std::vector<RuleRef>* Build() {
  return new std::vector<RuleRef>{
      R("001.setup", "Combat", 1, "combatants join with wound slots, stamina, mana and initiative"),
      R("001.gm", "Actions", 181, "other actions and calls are the GM's: shared gm_* verbs"),
      // Wounds
      R("001.wound.threshold", "Wound Thresholds", 13, "a wound of the highest level whose threshold the damage equals or exceeds"),
      R("001.wound.damage", "Wound Thresholds", 14, "Damage received = Attack Roll + Damage Roll - Defense - Toughness"),
      R("001.wound.toughness", "Toughness", 16, "Toughness = Vitality + Size + armor"),
      R("001.wound.armor_piercing", "Toughness", 16, "certain attacks bypass armor: the base Toughness counts"),
      R("001.wound.slots", "Wound Slots", 31, "fill a slot of the wound's level; all full: increase the severity until a slot is empty"),
      R("001.wound.table", "Wound Slots", 18, "moderate, severe, critical slots by Vitality"),
      R("001.wound.light", "Wound Slots", 33, "light slots 5 + Persona, one fatal slot"),
      R("001.wound.wounded", "Wound Slots", 32, "wounded with a severity equal to the highest wound"),
      R("001.wound.fatal", "Health, Damage, and Healing", 4, "a fatal wound means death if not treated (PC: Dying; GM ruling point)"),
      R("001.npc.death", "NPCs and Wounds", 35, "NPCs are immune to staggered and die on a fatal wound"),
      R("001.npc.track", "NPCs and Wounds", 36, "NPC slots 1, 2 or 3 of each level Moderate..Critical (minion, standard, elite)"),
      // Stamina, fatigue, mana
      R("001.stamina.pool", "Stamina", 38, "stamina = race value + Vitality"),
      R("001.stamina.spend", "Stamina", 38, "stamina below 0 becomes 0 and the excess is fatigue"),
      R("001.fatigue", "Fatigue", 40, "fatigue lowers max stamina; current clamps to the new max"),
      R("001.fatigue.exhausted", "Fatigue", 40, "fatigue >= half normal max stamina: exhausted"),
      R("001.fatigue.staggered", "Fatigue", 40, "fatigue >= normal max stamina: staggered"),
      R("001.mana.pool", "Mana", 42, "mana = race value + Lore"),
      R("001.mana.spend", "Mana", 42, "spending reduces current mana"),
      R("001.mana.invest", "Mana", 42, "investing reduces current and maximum mana until retrieved"),
      // Rest
      R("001.rest.limits", "Resting", 44, "long-rest benefits twice per day; a full night's sleep (8 h - 30 min per Vitality) within 24 hours"),
      R("001.rest.short", "Short Rest", 46, "half current max stamina and mana (rounded down); lightly/moderately wounded: one light wound"),
      R("001.rest.long", "Long Rest", 48, "not when fatally wounded; benefits in order"),
      R("001.rest.long.exhausted", "Long Rest", 49, "exhausted: no longer exhausted, all stamina and mana, nothing else"),
      R("001.rest.long.light", "Long Rest", 50, "lightly or moderately wounded: heal all light wounds"),
      R("001.rest.long.fatigue", "Long Rest", 51, "fatigue reduced by 5 + Vitality - highest wound level, minimum 1 unwounded, 0 wounded"),
      R("001.rest.long.recovery", "Long Rest", 52, "wounded: one recovery check"),
      R("001.rest.long.recover", "Long Rest", 53, "recover all stamina and mana"),
      R("001.rest.tend", "Long Rest", 54, "a tender's Lor [Healing/Wounds] check replaces the recovery check if higher; -5 without a kit"),
      R("001.rest.recovery", "Recovery Checks", 63, "Vit check - fatigue vs the TNs; a healed wound drops one level; failing: cumulative +1"),
      R("001.rest.interrupted", "Interrupting a Rest", 65, "short: no benefit; long after 15+ minutes: a short rest's benefits per 15 minutes"),
      // Attacks
      R("001.check.wild", "Rolls in Combat", 67, "attack and defense rolls are wild rolls: reading 1d20 + bonus, natural 20 critical success, natural 1 critical failure"),
      R("001.attack.hit", "Attacks and Combat Checks", 69, "the attack hits when the roll equals or exceeds the target's Defense; add Strength and weapon damage"),
      R("001.attack.check", "Attacks and Combat Checks", 70, "combat checks function the same as attack rolls (criticals too, l.81-82): no damage, never weapon damage; a defender's check is rolled (opposed)"),
      R("001.attack.skills", "Attacks and Combat Checks", 71, "melee Dex [Melee/group] + accuracy; ranged Dex [Aim/group] + accuracy; Power Str [Athletics/Power + Size]; Agility Dex [Reflex/Agility - Size]"),
      R("001.attack.penetrating", "Penetrating Attacks", 79, "penetrating: damage added to the attack roll before the hit"),
      R("001.attack.crit", "Critical Successes and Failures", 81, "critical success: initiative +2, the target's -2"),
      R("001.attack.fumble", "Critical Successes and Failures", 82, "critical failure: initiative -2"),
      R("001.attack.modifiers", "Modifiers to Attack", 84, "prone, crouching, flanked, cover; cover and posture penalties do not stack"),
      R("001.attack.posture", "Modifiers to Attack", 86, "target prone +3 melee / -3 ranged, crouching +2 / -2"),
      R("001.attack.cover", "Modifiers to Attack", 89, "cover 1/4 0/-1, 1/2 -2, 3/4 -3, 9/10 -5"),
      R("001.attack.flanking", "Flanking", 95, "flanked: two hostile creatures at least 120 degrees apart, able to attack"),
      R("001.attack.rear", "Ignoring Your Flank", 97, "attacks from ignored creatures are rear attacks: double flanking bonus"),
      R("001.defense", "Defense", 99, "the seven Defenses; immobilized: immobile defense"),
      // Sequence
      R("001.round", "The Combat Sequence", 108, "fifteen-second rounds, one turn each, order by current initiative"),
      R("001.ap.gain", "Action Points", 110, "AP gained at the start of the round and at the end of your turn by the Speed table; excess over Max AP lost"),
      R("001.ap.spend", "Action Points", 110, "spend AP equal to the action's cost"),
      R("001.ap.paying", "Action Points", 111, "an action costing more than your AP: spend all AP now and on later turns until paid; cancelled by spending AP on anything else"),
      R("001.ap.rounds", "Action Points", 111, "actions measured in rounds or minutes (1 minute = 4 rounds): all AP each round"),
      R("001.ap.min", "Action Points", 112, "no AP cost below 1 unless stated"),
      R("001.initiative.roll", "Initiative", 119, "Prc [Reflex/Initiative] + 5 at the start or on joining"),
      R("001.initiative.order", "Initiative", 119, "descending initiative; ties random each round; no second turn"),
      R("001.initiative.zero", "Initiative", 120, "at 0: no reactions, no initiative-reducing actions; never below 0"),
      R("001.surprise", "Surprise", 122, "surprised: no AP until after the first turn; initiative -(5 - Perception); Perception above 5 cannot be"),
      R("001.out_of_turn", "Using Actions and Reactions", 124, "acting out of turn with higher initiative: -2; after a declaration it cancels it, no AP spent"),
      R("001.reaction", "Using Actions and Reactions", 125, "reactions: when triggered, no initiative cost, one per trigger"),
      R("001.duration", "Durations and Rounds", 127, "the round an effect begins is round 1; ends at the end of the round equal to its duration; older first"),
      // Movement
      R("001.move.rate", "Movement", 130, "movement rate from Strength + Size + Athletics"),
      R("001.move.pool", "Movement", 160, "4 AP for a full movement, fewer for the table's share; pool lost at round end"),
      R("001.move.grid", "Movement", 161, "1-yard squares; every second diagonal 2 yards"),
      R("001.move.terrain", "Difficult Terrain", 163, "terrain costs multiply"),
      R("001.move.path", "Movement", 161, "steps to adjacent free squares"),
      // Actions
      R("001.act.nonlethal", "Action: Nonlethal Attack", 185, "melee attack at -2; choose a wound up to the level indicated"),
      R("001.act.quick", "Action: Quick Attack", 187, "melee attack; wound level reduced one step"),
      R("001.act.rebuff", "Reaction: Rebuff", 190, "attack an approaching creature; wound increased one step"),
      R("001.act.standard", "Action: Standard Attack", 192, "a single attack"),
      R("001.act.strong", "Action: Strong Attack", 194, "melee attack; +1d6 damage"),
      R("001.act.defend", "Action: Defend", 199, "until your next turn or a wound: +2 melee and ranged defense (or a skill defense)"),
      R("001.act.harry", "Reaction: Harry", 202, "-2 to the target's ranged attacks this round; once per round per target"),
      R("001.act.retrieve", "Action: Retrieve or Stow an Item", 206, "scabbard 1, pouch 3, backpack 6"),
      R("001.act.posture", "Action: Change Posture", 212, "standing, crouching, prone; not prone to standing"),
      R("001.act.dash", "Action: Dash", 222, "movement rate doubled until the end of the round; again: Str [Athletics] +1 per 3"),
      R("001.act.hinder", "Action: Hinder", 240, "disarm, distract, shove, trip"),
      R("001.hinder.distract", "Action: Hinder", 244, "distracted: -2 to attack and defense until the end of the round"),
      R("001.act.seize", "Action: Seize Initiative", 248, "initiative +1d6"),
      R("001.act.stabilize", "Action: Stabilize", 250, "Lor [Healing/Wounds] vs wounds received; -5 without a kit"),
      R("001.act.treat_wound", "Action: Treat Wound", 261, "Lor [Healing/Wounds] vs TN; steps 1 + 1 per 2 over; fatigue = highest remaining wound"),
      R("001.act.use_object", "Action: Use an Object", 264, "door 2, torch 2, potion 4, bell 6, fire 8"),
      R("001.cost", "Actions", 182, "reading: AP costs the text omits (README), overridable by roster stat ap/<verb>"),
      R("001.underwater", "Underwater Combat", 275, "immobile defense, no ranged attacks, melee +2 AP and -5, weapon damage halved"),
      R("001.underwater.fire", "Underwater Combat", 276, "all fire damage is halved underwater"),
      R("001.act.cast", "Action: Cast a Spell", 197, "the spell's effect is its school's (GM); mana spent or invested (l.42)"),
      R("001.act.end_effect", "Action: End a Magical Effect", 238, "end one effect of a magical item you control; each effect individually"),
      R("001.act.ready", "Action: Ready an Action", 204, "the chosen action may be taken as a reaction until you take an action or reaction"),
      R("001.act.opening", "Action: Create an Opening", 214, "a melee attack roll used as Defense against the target's rebuff this turn"),
      R("001.act.enter", "Action: Enter Occupied Space", 216, "Power or Agility check vs the higher defense; same space: -2 attacks and defenses"),
      R("001.act.treat_condition", "Action: Treat Condition", 252, "Lor [Healing] vs TN: hobbled ends; bleeding/burning down 1 + 1 per 2 over"),
      R("001.swim_climb", "Swimming and Climbing", 278, "attacking: Str [Athletics/Climbing|Swimming] or miss and fall/sink; wounded: a check at -5 per level beyond light"),
      R("001.mount", "Mounted Combat", 280, "rider and mount share a turn at the worse initiative; +1 melee attack/defense vs smaller; mount at least the rider's size"),
      R("001.mount.untrained", "Mounted Combat", 281, "untrained mount: Prs [Nature/Riding] when wounded, else control lost; regain (8 AP) -1 per enemy within 30 ft, +1 per consecutive try (max +5); TN 5"),
      R("001.jump", "Jumping", 177, "Str [Athletics/Jumping]; +Speed after 5 yd of movement, else halved; long jump in feet, high jump double in inches"),
      R("001.jump.landing", "Jumping", 179, "landing in difficult terrain or on a slippery surface: Dex [Acrobatics/Balance] vs the GM's TN to remain standing"),
      R("001.faster", "Performing Actions More Quickly", 271, "a check (Dex [Acrobatics] or Str [Athletics]) vs the GM's TN: -1 AP (+1 per 3 over) for 1 stamina; failing, +1 AP (+1 per 3 under)"),
      R("001.grapple", "Action: Grapple", 230, "melee attack, reach 0 weapon; hit: both grappling, no damage"),
      R("001.cling", "Reaction: Cling", 226, "a Power check: 5 points a yard moved with the grappled target, 10 a yard taken from its movement"),
      R("001.drag", "Action: Drag", 228, "Power check, -2 per grappling opponent beyond the first"),
      R("001.interpose", "Reaction: Interpose", 233, "Power or Agility check; -2 if the target is not pinned"),
      R("001.pin", "Action: Pin", 235, "Power check -2 vs higher of Power/Agility: helpless and immobile"),
      R("001.escape", "Action: Escape", 218, "Power or Agility check vs the escape TN ends the effect"),
  };
}

}  // namespace

const std::vector<RuleRef>& RuleTable() {
  static const std::vector<RuleRef>* t = Build();
  return *t;
}

bool IsModifier(const std::string& key) {
  static const char* kKeys[] = {
      "posture", "cover", "penalty_applied", "flanked", "rear_attack", "accuracy", "action",
      "harried", "distracted", "defender_distracted", "underwater", "underwater_halved", "fire_halved",
      "same_space", "target_same_space", "mounted", "mounted_defense", "target_mounted", "immobilized", "block",
      "defend", "opening", "armor", "toughness_bonus", "penetrating", "strong_d6", "wound_step",
      "kit", "penalty", "extra_opponents", "not_pinned", "enemies_within_30ft", "calming",
      "fatigue_penalty", "cumulative_bonus", "surprise_penalty", "delta", "run_up", "halved", "ap_change"};
  for (const char* k : kKeys) {
    if (key == k) return true;
  }
  return false;
}

std::string Cite(const std::string& rule) { return kernel::Cite(RuleTable(), rule); }

absl::Status Refuse(const std::string& rule, const std::string& message) {
  return kernel::Refuse(RuleTable(), rule, message);
}

}  // namespace combat::kernel::wound_slots
