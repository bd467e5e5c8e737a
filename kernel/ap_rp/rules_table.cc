// The rule table: every id a state change of this ruleset cites, with the
// seed line it reads (../shared/seeds/004_1a3e461770fc9e7a.txt).
#include <string>
#include <vector>

#include "kernel/ap_rp/internal.h"
#include "kernel/ap_rp/ruleset.h"

namespace combat::kernel::aprp {
namespace {

RuleRef R(const char* id, const char* section, int line, const char* summary) {
  return RuleRef{id, kSeed, section, line, summary};
}

std::vector<RuleRef>* Build() {
  return new std::vector<RuleRef>{
      R("004.combat", "Battle", 2, "combat only starts with at least two parties able to fight (not rocks)"),
      R("004.setup", "Battle", 3, "combatants join by side (allies = your side); Vitality, pools"),
      R("004.gm", "Rounds and Turns", 7, "the GM decides ties and overrules by the shared gm_* verbs"),
      R("004.round", "Rounds and Turns", 5, "combat is divided into rounds; each combatant gets one turn per round"),
      R("004.budget.ap", "Rounds and Turns", 6, "3 AP during each participant's turn"),
      R("004.budget.rp", "Rounds and Turns", 6, "2 RP for the whole round, to act outside your turn"),
      R("004.budget.move", "Rounds and Turns", 6, "Basic Movement (usually 3 m) each turn without AP"),
      R("004.initiative", "Rounds and Turns", 7, "Initiative = Instinct x 2 + Athletics + Quick Fingers + Analysis + Grace + Improvisation; objects 0; highest first"),
      R("004.initiative.tie", "Rounds and Turns", 7, "ties: the GM decides (gm_order); default: the order of the previous round, then roster order"),
      R("004.initiative.fixed", "Rounds and Turns", 11, "Initiative determined at the beginning of each round; changes apply next round"),
      R("004.hold.turn", "Rounds and Turns", 8, "hold your turn and take it later in the round; holders left at the end act by Initiative; refusing loses the turn"),
      R("004.duration.next_turn", "Rounds and Turns", 8, "effects until a creature's next turn stop when its turn would normally start, even if held"),
      R("004.duration.end_turn", "Rounds and Turns", 8, "effects until the end of a creature's turn last until it ends the turn or loses it"),
      R("004.hold.action", "Rounds and Turns", 9, "hold an action: spend its AP on your turn and name a trigger; it fires automatically, on anyone's turn, until your next turn"),
      R("004.union", "Rounds and Turns", 10, "allies forming a union share one turn; Initiative = sum / count (rounded down: reading)"),
      R("004.union.first_last", "Rounds and Turns", 10, "act-first only if every member has it; act-last if any member has it"),
      R("004.surprise", "Rounds and Turns", 12, "surprised creatures act at the end of round 1; unsurprised enemies start hidden from them"),
      R("004.attack", "Basic Actions", 17, "Attack: 2 AP, one weapon attack"),
      R("004.defend", "Basic Actions", 18, "Defend: 2 AP; attacks against you at disadvantage, advantage on your DR until your next turn"),
      R("004.interact", "Basic Actions", 19, "Interact with Target: 1 AP; one free per turn unless a free Switch Weapons was used"),
      R("004.move", "Basic Actions", 20, "Move: 1 AP, + Basic Movement"),
      R("004.sprint", "Basic Actions", 21, "Sprint: 3 AP, + 4 x Basic Movement"),
      R("004.stabilize", "Basic Actions", 22, "Stabilize: 3 AP, First Aid Check against 8 removes Bleeding from a creature within 1 m"),
      R("004.switch_places", "Basic Actions", 23, "Switch Places: 1 AP; the adjacent ally must use 1 RP or it fails"),
      R("004.switch_weapons", "Basic Actions", 24, "Switch Weapons: 1 AP; one free per turn unless a free Interact was used"),
      R("004.take_cover", "Basic Actions", 25, "Taking Cover: 1 AP; +2 Evasion, +1 DR while in half cover until your next turn; no half cover to your size"),
      R("004.use_item", "Basic Actions", 26, "Use Item: 3 AP"),
      R("004.blind", "Advanced Actions", 31, "Blind: 2 AP; Quick Fingers/Nimbleness vs Improvisation/Endurance; until the end of the target's next turn"),
      R("004.climb", "Advanced Actions", 32, "Climb: 2 AP onto a target at least one size larger; misses against you target it instead"),
      R("004.command", "Advanced Actions", 33, "Command: 1 AP; control over your summons until your next turn"),
      R("004.disarm", "Advanced Actions", 34, "Disarm: 2 AP; you succeed if you roll higher than your target"),
      R("004.grab", "Advanced Actions", 35, "Grab: 2 AP; Athletics/Raw Force vs Athletics/Raw Force/Nimbleness"),
      R("004.hide", "Advanced Actions", 36, "Hide: 2 AP; Stealth beats every enemy's Perception; advantage on attacks while hidden"),
      R("004.shove", "Advanced Actions", 37, "Shove: 1 AP; move a target 1 m on Athletics/Raw Force vs Athletics/Raw Force/Nimbleness"),
      R("004.trip", "Advanced Actions", 38, "Trip: 2 AP; knock Prone on Athletics/Raw Force vs Athletics/Nimbleness"),
      R("004.size", "Advanced Actions", 31, "target no more than one size above yours; larger target advantage, smaller: you advantage"),
      R("004.cinematic", "Cinematic Actions and Reactions", 41, "Cinematic Action 3 AP / Reaction 2 RP + 3 Narrative Momentum; GM approves and sets the Skill Check"),
      R("004.cinematic.coop", "Cinematic Actions and Reactions", 43, "Cooperative: helpers 2 RP each; 2 Momentum each; checks with advantage; all must succeed; a critical success covers a failure"),
      R("004.cinematic.burst", "Cinematic Actions and Reactions", 44, "Cinematic Burst: 6 Momentum (4 cooperative) instead of AP/RP; only if no AP used this turn / no RP this round"),
      R("004.cinematic.min", "Cinematic Actions and Reactions", 45, "costs never below 1"),
      R("004.attack.roll", "Attacks", 52, "d20 + hit bonus against Evasion; objects hit automatically; you may choose to miss"),
      R("004.attack.hit_bonus", "Attacks", 53, "hit bonus = Primary Stat Bonus + half the Secondary Stat Bonus, rounded down"),
      R("004.attack.ability", "Attacks", 54, "Ability hit bonus from the Archetype's Primary and Secondary Stat"),
      R("004.attack.range", "Attacks", 55, "melee 1 m and ignores cover; ranged at disadvantage within melee range of an enemy"),
      R("004.attack.critical", "Attacks", 56, "natural 20: +6 (Abilities +6 +3 per Tier; a Maneuver +3 x its Tier)"),
      R("004.attack.fumble", "Attacks", 57, "natural 1 always misses"),
      R("004.attack.nonlethal", "Attacks", 58, "non-lethal: -1d4 (Abilities -1d4 -1d4 per Tier); no Bleeding; cannot kill"),
      R("004.evasion", "Evasion", 60, "hit if the roll is at least the Evasion"),
      R("004.evasion.base", "Evasion", 61, "base Evasion = Dexterity + the Evasion Stat's bonus"),
      R("004.evasion.cap", "Evasion", 62, "the armor's Evasion Cap limits base Evasion, not buffs"),
      R("004.armor", "Armor", 64, "Armor subtracted once per hit; negative Armor adds damage"),
      R("004.armor.dr", "Armor", 65, "Poison: Constitution DR, Psychic: Will DR as Armor; mixed types take the lowest; the attacker chooses the type"),
      R("004.armor.ignore", "Armor", 66, "ignoring Armor never below 0 effective Armor; negative still adds"),
      R("004.dr", "Defense Rolls", 70, "DR = d20 + Stat Bonus + Skill Level against the DR Power (the Primary Stat); objects fail; a creature may choose to fail"),
      R("004.damage.types", "Damage Types", 79, "11 types in four categories; resistance halves (down), immunity 0, vulnerability x1.5 (down)"),
      R("004.damage.holy", "Damage Types", 92, "Holy is non-lethal against biological creatures unless the dealer wishes"),
      R("004.vitality", "Attacks", 58, "Vitality below 1 from lethal damage: Bleeding (l.58, l.92)"),
      R("004.status", "Status Effects", 99, "Status Effects: physical, mental, elemental; they persist through death (l.103)"),
      R("004.terrain.grid", "Terrain", 106, "1 m squares; a diagonal step is 1 m"),
      R("004.terrain.difficult", "Terrain", 107, "difficult terrain: 2 m per square"),
      R("004.terrain.ally", "Terrain", 108, "move through allies, never stop there"),
      R("004.terrain.enemy", "Terrain", 109, "through an enemy: Raw Force/Athletics/Nimbleness vs Raw Force/Athletics; difficult; share a space two sizes apart"),
      R("004.cover.half", "Cover", 111, "half cover: +2 Evasion vs ranged, +1 DR; a creature in front takes the misses"),
      R("004.cover.full", "Cover", 112, "full cover: cannot be targeted from that direction"),
      R("004.forced", "Moving and Teleporting", 114, "moved into an occupied space: Strength DR (advantage one size bigger); damage = distance, half on success; stops one space before"),
      R("004.teleport", "Moving and Teleporting", 115, "teleported into an occupied space: Reality damage = distance to both, ignores Armor, returned, at most 100"),
  };
}

}  // namespace

const std::vector<RuleRef>& RuleTable() {
  static const std::vector<RuleRef>* table = Build();
  return *table;
}

std::string Cite(const std::string& rule) { return kernel::Cite(RuleTable(), rule); }

absl::Status Refuse(const std::string& rule, const std::string& message) {
  return kernel::Refuse(RuleTable(), rule, message);
}

bool IsModifier(const std::string& key) {
  static const char* kKeys[] = {
      "defending", "hidden", "climbed_on", "enemy_in_melee_range", "half_cover", "taking_cover",
      "evasion_stat_bonus", "evasion_cap", "evasion_bonus", "critical", "nonlethal_minus",
      "defense", "ignore_armor", "capped_at", "actor_advantage", "target_advantage",
      "advantage", "cooperative", "cost_reduction"};
  for (const char* k : kKeys) {
    if (key == k) return true;
  }
  const std::string suffix = "_type_modifier";  // resistance, immunity, vulnerability (l.79)
  return key.size() > suffix.size() && key.compare(key.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace combat::kernel::aprp
