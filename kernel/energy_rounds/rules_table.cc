// The rule table: every id a state change of this ruleset cites, with the
// seed line it reads. Lines are those of ../shared/seeds/002_ca603e8fb651e0df.txt.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "kernel/energy_rounds/internal.h"

namespace combat::kernel::energy {
namespace {

RuleRef R(const char* id, const char* section, int line, const char* summary) {
  return RuleRef{id, kSeed, section, line, summary};
}

std::vector<RuleRef>* Build() {
  return new std::vector<RuleRef>{
      // Set-up and GM
      R("002.setup", "Combat", 1, "combatants join with Energy, Agility, Stamina, Aura and surges at their maxima"),
      R("002.gm", "Initiative", 122, "the GM determines how actions resolve: shared gm_* verbs overrule"),
      R("002.gm.simultaneous", "Immediate Interrupts", 132, "simultaneous Immediate Interrupts wait for the GM's ruling (gm_note kind=resolve)"),
      // Rounds
      R("002.rounds.no_turns", "Rounds", 103, "no turns: anyone with the resources acts; never TurnStarted"),
      R("002.rounds.start", "Rounds", 107, "at the beginning of each Round Energy and Agility reset"),
      R("002.rounds.energy", "Stamina > Energy Per Round", 55, "Energy per Round from Stamina: 0 unconscious, 1-4 equal, >=5 gives 5"),
      R("002.rounds.agility", "Agility", 90, "Agility resets to its maximum each Round"),
      R("002.rounds.once", "Rounds", 110, "once per Round: one Swift Attack, one Initiative roll"),
      R("002.rounds.span", "Rounds", 105, "an action cannot start in one Round and complete in another"),
      R("002.rounds.gm_ends", "Waiting to Act", 150, "the GM may declare the Round over"),
      R("002.rounds.nobody_acts", "Waiting to Act", 150, "reading: the Round ends when every conscious creature has passed since the last act"),
      // Costs
      R("002.cost.melee", "Melee Attacks", 154, "a melee attack costs 3 Energy"),
      R("002.cost.single_strike", "Melee Attacks", 156, "a single strike at what cannot defend costs 1 Energy"),
      R("002.cost.ranged", "Ranged Attacks", 192, "a ranged attack costs 1 Energy (the prose, l.17 and l.192, over the table's 2 at l.11)"),
      R("002.cost.unarmed", "Unarmed Attacks", 541, "an unarmed attack costs 2 Energy, Reach0"),
      R("002.cost.shift", "Actions > Shift", 21, "Shift: 1 Energy or 2 Agility for 1 m"),
      R("002.cost.run", "Actions > Run", 23, "Run: 3 Energy for your Speed; a shorter run (Quick Run, l.11) costs its share"),
      R("002.cost.sprint", "Actions > Sprint", 25, "Sprint: a full Run plus 1 Stamina, extra metres from Leg Strength"),
      R("002.move.turning", "Actions > Sprint", 27, "running or sprinting: each sharp 45-degree turn costs 1 m, reversing 2 m, across back-to-back moves"),
      R("002.move.back_to_back", "Actions > Sprint", 27, "back-to-back movement: metres, heading and Sprint since the last non-movement act, wait, rest or Round without moving (turns across it cost, l.27; a Jump after 2 m of it is a running one, l.31)"),
      R("002.move.round_metres", "Actions > Defend", 35, "metres moved this Round, for Defend's \"move more than your Speed during a Round\""),
      R("002.move.agile", "Actions > Agile Move", 29, "once per Energy spent on a non-movement action: 1 Agility for 1 m, an Immediate Interrupt"),
      R("002.move.jump", "Actions > Jump", 31, "Jump: 1 Energy + 1 Stamina after moving 2 m, else 2 Energy + 1 Stamina; airtime costs more; landing: Unguarded"),
      R("002.move.kneel", "Actions > Kneel From Prone", 33, "kneel from Prone: 1 Energy, Unguarded"),
      R("002.move.stand", "Actions", 13, "Stand Up: 1 Energy (from kneeling)"),
      R("002.move.path", "Using a Grid", 416, "1 square = 1 m; steps go to adjacent free squares"),
      R("002.defend", "Actions > Defend", 35, "Defend: 1 Energy; ends Unguarded and Exposed; win ties on Defenses until you attack or move more than Speed"),
      R("002.items.equip", "Actions > Stow/Equip", 37, "stow/equip: 1 Energy for a side arm, 2 otherwise"),
      R("002.items.pickup", "Actions > Pick Up", 39, "pick up from the ground: 1 Energy and Exposed"),
      R("002.stamina.breath", "Actions > Catch Your Breath", 41, "Catch Your Breath: 3 Energy (or all) for 1 Stamina"),
      R("002.stamina.as_energy", "Stamina", 47, "once per Round, 1 Stamina instead of 1 Energy"),
      R("002.stamina.costs", "Stamina > Spending Stamina", 64, "Sprint 1, Jump 1, break down 1, climb 1-3"),
      R("002.stamina.zero", "Stamina", 72, "dropping to 0 Stamina: unconscious"),
      R("002.stamina.negative", "Stamina", 74, "Stamina never goes below 0"),
      R("002.stamina.max", "Stamina", 78, "Maximum Stamina = Constitution Score"),
      R("002.stamina.enhance", "Stamina", 80, "at most 4 Stamina on enhancing one attack"),
      R("002.agility.max", "Agility", 88, "Maximum Agility = 3 (+ abilities)"),
      // Initiative and interrupts
      R("002.initiative.roll", "Initiative", 122, "an Initiative roll higher than the acting creature's wins: the action happens at the same time"),
      R("002.initiative.once", "Initiative", 126, "one Initiative roll per Round; another attempt automatically fails"),
      R("002.initiative.decline", "Initiative", 126, "you may decide not to roll Initiative and treat the situation as lost, saving the roll for later"),
      R("002.initiative.several", "Initiative", 128, "one roll can win against some creatures and lose against others"),
      R("002.immediate", "Immediate Interrupts", 132, "Immediate Interrupts need no roll and cannot interrupt each other"),
      R("002.immediate.answers", "Immediate Interrupts", 132, "an act that won Initiative may itself be interrupted by Immediate Interrupts: it waits for those who may answer with one to answer or decline"),
      R("002.order.first", "Action Order & Initiative", 118, "an act being performed resolves before anything else happens: only Initiative and Immediate Interrupts get in before it"),
      R("002.initiative.first", "Initiative", 122, "an act that won Initiative happens at the same time as the act it answers and resolves before it"),
      R("002.immediate.rolls", "Immediate Interrupts", 134, "interrupts stop actions, not rolls"),
      R("002.incomplete", "Incomplete Actions", 138, "resources are spent as results occur; at least 1 Energy for an interrupted action"),
      R("002.incomplete.run", "Incomplete Actions", 142, "a Run cut short spends its share of 3 Energy"),
      R("002.incomplete.attack", "Incomplete Actions", 144, "an attack whose target left reach may be ended for 1 Energy"),
      // Melee
      R("002.melee.av", "Melee Attacks", 162, "Melee AV = 15 + MASAB + Weapon Attack Bonus"),
      R("002.melee.hit", "Melee Attacks", 166, "the attack hits when AV >= the Defense roll"),
      R("002.melee.combat_roll", "Melee Attacks > Combat Roll", 168, "a d20 with nothing added on every melee attack"),
      R("002.melee.critical", "Critical Hits", 390, "natural 20 (or the Precise range): hit, ignore armor, target Exposed"),
      R("002.melee.exposed_low", "Combat Roll", 173, "Combat roll 1-3: you are Exposed until the end of the next Round"),
      R("002.melee.critical_failure", "Combat Roll", 174, "Combat roll 1: critical failure, the attack misses"),
      R("002.melee.armor", "Melee Attacks", 178, "Combat roll < Armor Coverage: subtract Armor Rating"),
      R("002.melee.masab", "Melee Attacks", 182, "MASAB = (Str mod + Dex mod) / 3, rounded down (reading of l.384)"),
      R("002.melee.masdb", "Melee Attacks", 186, "MASDB = (Str mod + Dex mod) / 3, rounded down (reading of l.384)"),
      R("002.melee.reach", "Actions > Melee Attack", 15, "the target must be within your Reach"),
      R("002.unarmed.av", "Unarmed Attacks", 545, "Unarmed AV = 15 + MASAB"),
      R("002.unarmed.damage", "Unarmed Attacks", 547, "Unarmed damage = MASAB (min 1) - AR when under AC"),
      R("002.mpl.melee", "Martial Proficiency Level", 527, "not proficient with a melee weapon: half damage, -1 Evasion, -1 AV"),
      R("002.mpl.ranged", "Martial Proficiency Level", 529, "not proficient with a ranged weapon: half damage, +1 Energy"),
      R("002.swift", "Swift Attacks", 481, "a Swift Attack is an Immediate Interrupt; a melee one costs 1 Energy"),
      R("002.swift.once", "Swift Attacks", 483, "one Swift Attack per Round"),
      R("002.swift.targets", "Swift Attacks", 485, "against the Unguarded, the unaware, or those unable to avoid it"),
      R("002.swift.reach", "Swift Attacks", 487, "against a creature moving through your reach while you face it"),
      // Ranged
      R("002.ranged.hit", "Ranged Attacks", 192, "Hit roll (d20) >= Miss Chance hits"),
      R("002.ranged.miss_chance", "Ranged Attacks", 194, "Miss Chance = MCM + Ranged Evasion roll + situational modifiers"),
      R("002.ranged.mcm", "Ranged Attacks", 196, "MCM = 8 - Accuracy - halved Dex mod"),
      R("002.ranged.evasion", "Ranged Evasion Roll", 204, "1d4 exploding + halved Dex + shield if facing (- armor penalty, l.336)"),
      R("002.ranged.size", "Miss Chance Size Modifier", 211, "target size modifier (this table, over the Size Chart's l.445-446)"),
      R("002.ranged.movement", "Miss Chance Movement Modifier", 222, "none -5, typical +0, zig-zag or sprinting +5"),
      R("002.ranged.hit_roll", "Hit Roll", 232, "20 critical; 1-3 Exposed to the end of next Round; 1 misses"),
      R("002.ranged.armor", "Hit Roll", 240, "Hit roll < Ranged AC: subtract AR (the formula l.240 over the prose l.238)"),
      R("002.ranged.range", "Reading Range Values", 246, "within the first: Advantage; beyond the second: Disadvantage; beyond the third: cannot aim"),
      R("002.ranged.draw_weight", "Draw Weight Table", 256, "extra damage and restrictions by draw weight"),
      R("002.ranged.crossbow", "Draw Weight", 254, "two-handed crossbows add +5 Arm Strength for draw weight"),
      R("002.ranged.thrown", "Throwing Weapons", 272, "without Thrown: half damage unless a natural 20; Thrown: Accuracy = AV bonus"),
      R("002.ranged.thrown_range", "Throwing Weapons", 272, "default throwing ranges: Light 3/5/10, Heavy 1/3/6, other 2/4/8"),
      R("002.ranged.throw_distance", "Increased Throwing Distance", 278, "Arm Strength adds to throwing ranges"),
      R("002.ranged.load", "Actions > Load", 19, "loading costs the weapon's Energy"),
      // Defenses
      R("002.defense.explode", "Defenses", 320, "Defense dice re-roll and add on the highest face; advantage applies to each die"),
      R("002.defense.evasion", "Evasion", 328, "Evasion roll = 1d10! + inherent + Level/3 + Dex/2 + shield & weapon - armor penalty"),
      R("002.defense.ranged_evasion", "Evasion", 336, "Ranged Evasion = Dex/2 + shield - armor penalty"),
      R("002.defense.unarmed_evasion", "Evasion", 342, "Unarmed Evasion: no weapon or shield bonuses"),
      R("002.defense.armor_evasion", "Evasion", 344, "only attacks against Evasion can hit armor"),
      R("002.defense.none", "Evasion", 346, "asleep or fully restrained: no Defense roll, automatic hit"),
      R("002.defense.fortitude", "Fortitude", 356, "Fortitude roll = 1d10! + Inherent Fortitude (10, or the race's: l.358) + Level/3 + Con/2 + Str/2"),
      R("002.defense.will", "Will", 366, "Will roll = 1d10! + Inherent Will (10, or the race's: l.368) + Level/3 + Cha/2 + Wis/2"),
      R("002.defense.halved", "Evasion", 328, "halved and third values round down (reading of l.384)"),
      R("002.chance", "Chance Roll", 372, "a d20; DC 10 unless stated"),
      // Damage
      R("002.damage.resistance", "Weaknesses and Resistances", 376, "Resistance halves, rounding down"),
      R("002.damage.weakness", "Weaknesses and Resistances", 378, "Weakness doubles"),
      R("002.damage.cancel", "Weaknesses and Resistances", 380, "Weakness and Resistance cancel"),
      R("002.damage.rounding", "Weaknesses and Resistances", 384, "multipliers round down"),
      R("002.damage.after_armor", "Weaknesses and Resistances", 386, "multipliers after armor; two doublings make x3"),
      R("002.damage.aura", "Aura", 294, "damage reduces Aura; at 0 Aura the body is harmed"),
      R("002.damage.weapon", "Melee Attacks", 164, "Damage = weapon roll + MASDB - AR when under AC"),
      R("002.damage.ranged", "Hit Roll", 240, "Damage = weapon roll + draw weight extra - AR when under Ranged AC"),
      R("002.nonlethal", "Non-Lethal Damage", 505, "non-lethal damage reduces Aura but does not kill"),
      R("002.nonlethal.victim", "Non-Lethal Damage", 507, "non-lethal at 0 Aura: no Death roll; Exhausted until the end of the next Round"),
      R("002.nonlethal.attacker", "Non-Lethal Damage", 509, "non-lethal at 0 Aura: Shaken until the next Short Rest, lose 5 Stamina"),
      R("002.nonlethal.chance", "Dealing Non-Lethal Damage", 513, "Chance roll: blunt melee >=5, other melee >=10, ranged/thrown >=15; unarmed free"),
      R("002.nonlethal.trade", "Non-Lethal Damage", 519, "each -3 AV (+3 Miss Chance) widens the non-lethal range by 5"),
      // Aura and death
      R("002.aura.strength", "Aura", 298, "Aura Strength = 20 + Aura Modifier x 4/3, rounded down (reading of l.384)"),
      R("002.aura.modifier", "Aura", 302, "Aura Modifier = Str + Con + Int + Wis + Cha modifiers"),
      R("002.aura.surges", "Aura", 308, "Recovery Surges = 5 + halved Con modifier"),
      R("002.aura.recovery", "Aura", 312, "Recovery Value = Aura Modifier (min 1)"),
      R("002.death.roll", "Death > Death Roll", 630, "damaged at 0 Aura: d20 Death roll table"),
      R("002.death.save", "Death > Death Save", 639, "bleeding out: a Death Save at the beginning of every Round"),
      R("002.death.one_save", "Death Save", 645, "one Death Save per Round"),
      R("002.death.stabilize", "Death", 647, "Stabilized: no more Death Saves; gaining Aura stabilises"),
      R("002.death.dead", "Death", 624, "dead: only at 0 Aura"),
      R("002.unconscious", "Unconsciousness", 653, "unconscious: Unguarded; melee attacks hit automatically"),
      R("002.unconscious.stamina", "Unconsciousness", 657, "from Stamina loss: d20 each Round, 20 wakes with 1 Stamina"),
      R("002.unconscious.nonlethal", "Unconsciousness", 658, "from non-lethal damage: d20 each Round, 20 wakes"),
      R("002.unconscious.dying", "Unconsciousness", 659, "from Death rolls/Saves: Death Saves; the GM decides when you wake"),
      // Facing, grid, size
      R("002.facing", "Facing", 402, "you face the 3 squares in front and the side squares (within 90 degrees)"),
      R("002.facing.behind", "Facing", 404, "attacked from where you are not facing: Disadvantage and Unarmed Evasion"),
      R("002.facing.attack", "Facing", 408, "you normally can't attack creatures you aren't facing"),
      R("002.facing.turn", "Facing", 410, "turning takes no Energy"),
      R("002.size.chart", "Size Chart", 439, "inherent Evasion, jump distance and speed by size"),
      R("002.size.reach", "Size", 452, "Huge +1 Reach, Tiny -1 Reach"),
      // Conditions
      R("002.exposed", "Exposed", 460, "Exposed until the end of the Round unless specified"),
      R("002.exposed.crit_fail", "Exposed", 462, "a natural 1 on a Combat or Hit roll Exposes you"),
      R("002.unguarded", "Unguarded", 468, "Unguarded until the end of the Round; also Exposed"),
      R("002.surprise", "Surprise", 491, "the surprised party is Surprised until the end of the first Round"),
      R("002.cond.exposed", "Conditions", 664, "Exposed"),
      R("002.cond.shaken", "Conditions", 666, "Shaken: no Stamina; Chance roll DC 5 when manipulating items"),
      R("002.cond.exhausted", "Conditions", 668, "Exhausted: no Stamina; 2 less Energy each Round"),
      R("002.cond.dazed", "Conditions", 670, "Dazed: Disadvantage on Defense and attack rolls; Exposed"),
      R("002.cond.blinded", "Conditions", 672, "Blinded: Disadvantage on attack and Evasion rolls; Unguarded"),
      R("002.cond.slowed", "Conditions", 674, "Slowed: Speed halved rounding up; no Agility"),
      R("002.cond.prone", "Conditions", 676, "Prone: Disadvantage on Evasion; Exposed"),
      R("002.cond.surprised", "Conditions", 678, "Surprised: Disadvantage on Defense rolls; Unguarded"),
      R("002.cond.unguarded", "Conditions", 680, "Unguarded: Swift Attacks allowed; Exposed"),
      R("002.cond.restrained", "Conditions", 682, "Restrained: no movement or attacks; Exposed; escape for 3 Energy"),
      R("002.cond.restraining", "Conditions", 684, "Restraining: no attacks; Slowed"),
      R("002.cond.unconscious", "Conditions", 686, "Unconscious: Unguarded"),
      R("002.cond.asleep", "Unconsciousness", 660, "Asleep: sleep is a cause of unconsciousness, so Unconscious (no wake roll)"),
      R("002.cond.fullyrestrained", "Evasion", 346, "fully restrained: restrained (l.575), so Exposed and no movement or attacks; no Evasion roll"),
      R("002.cond.daughter", "Conditions", 688, "a daughter condition cannot be removed while its parent holds"),
      R("002.cond.ignore", "Conditions", 690, "removing a continually applied condition: ignore it until the end of the Round"),
      // Not l.664 ("Exposure lasts until the end of the next Round"): that
      // line is the one reading 12 sets aside, and an expiry ends every
      // duration, each at the boundary its own line names (l.173, l.235,
      // l.460, l.468, l.491, l.507, l.633, a GM's `rounds`).
      R("002.cond.expire", "Rounds", 103, "durations end at the Round boundary they name (the line that imposed each names it: l.173, l.235, l.460, l.468, l.491, l.507, l.633)"),
      // Maneuvers
      R("002.maneuver", "Combat Maneuvers", 551, "a melee attack that deals no damage"),
      R("002.maneuver.av", "Combat Maneuvers > Trip/Push Down", 557,
        "the maneuver's melee attack is at -5 AV (reading: every Combat Maneuver)"),
      R("002.maneuver.unguarded", "Combat Maneuvers", 553, "not Swift, target not Exposed: you become Unguarded; target has Advantage on its first Defense roll"),
      R("002.maneuver.trip", "Trip/Push Down", 557, "-5 AV; on a hit Fortitude must beat the AV or Prone"),
      R("002.maneuver.trip_moving", "Trip/Push Down", 559, "a moving target has Disadvantage on the Fortitude save"),
      R("002.maneuver.trip_size", "Trip/Push Down", 561, "target at most one size larger"),
      R("002.maneuver.disarm", "Disarm", 565, "-5 AV vs a target facing you; Fortitude must beat the AV or drop the weapon; 1 Agility flings it 2 m"),
      R("002.maneuver.disarm_light", "Disarm", 567, "light weapons may not disarm heavy weapons"),
      R("002.maneuver.restrain", "Restrain", 571, "unarmed -5 AV; on a hit Restrained/Restraining"),
      R("002.maneuver.restrain_size", "Restrain", 573, "target no larger than you"),
      R("002.maneuver.escape", "Restrain", 575, "escape: 3 Energy, Fortitude/Leg/Arm vs the restrainer's Arm Strength or Fortitude"),
      R("002.maneuver.push", "Push", 583, "unarmed -5 AV; on a hit Fortitude must beat the AV or Unguarded and pushed 1 m"),
      R("002.maneuver.push_fail", "Push", 585, "if the target succeeds, you become Unguarded"),
      R("002.maneuver.push_miss", "Unguarded", 476, "failing a Push Combat Maneuver (a push that misses) makes you Unguarded"),
      R("002.maneuver.push_sprint", "Push", 587, "as part of a Sprint from 3 m away: push up to 3 m"),
      R("002.maneuver.push_size", "Push", 589, "target no larger than you"),
      // Rest
      R("002.rest.short", "Short Rest", 599, "every 5 minutes: all Stamina, 1 Recovery Surge may be spent"),
      R("002.rest.long", "Long Rest", 612, "Aura, surges and Stamina fully restored"),
      R("002.rest.interrupted", "Long Rest", 620, "an interrupted Long Rest: its share of the Recovery Surges (max x minutes / 480, rounded down: half in its middle; 8 hours with too little sleep: half), no Aura"),
      R("002.rest.long_as_short", "Long Rest", 618, "anything done in a Short Rest may be done in a Long Rest: 1 Recovery Surge per 5 minutes"),
      R("002.rest.surge", "Aura", 306, "spend a Recovery Surge: regain the Recovery Value"),
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

}  // namespace combat::kernel::energy
