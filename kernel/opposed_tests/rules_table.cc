// The rule table: every id a state change of this ruleset cites, with the
// seed line it reads. Lines are those of ../shared/seeds/003_ddd5865ba645a58b.txt.
#include <string>
#include <vector>

#include "kernel/opposed_tests/internal.h"

namespace combat::kernel::opposed {
namespace {

RuleRef R(const char* id, const char* section, int line, const char* summary) {
  return RuleRef{id, kSeed, section, line, summary};
}

std::vector<RuleRef>* Build() {
  return new std::vector<RuleRef>{
      // Set-up, initiative, rounds
      R("003.setup", "The Initiative Structure", 10, "combatants join with Health, 3 AP, armed opportunity triggers"),
      R("003.gm", "Combat Overview", 15, "the GM sets the stage and rules where the text is silent: shared gm_* verbs"),
      R("003.initiative", "The Initiative Structure", 10, "initiative: player characters 1d6 + Initiative, NPCs 1d6 + PER; highest first (l.11); ties: higher bonus, then id (reading)"),
      R("003.surprise", "Combat Overview", 16, "a Stealth vs Observation contest; observers that fail are surprised: first turn skipped, no actions or reactions"),
      R("003.round", "The Initiative Structure", 12, "each character takes a turn in initiative order; after all, a new round begins"),
      R("003.turn", "The Initiative Structure", 11, "the active character uses primary actions on its turn"),
      R("003.ap", "The Initiative Structure", 11, "each round every character gains 3 AP; unspent AP are lost (l.19)"),
      R("003.ap.cost", "Actions in Combat", 24, "up to 3 AP per round on actions and reactions; each act costs 1 AP (reading; roster stat ap_<verb>)"),
      R("003.attacks", "What is an Attack?", 48, "at most two Attacks per round (l.18)"),
      R("003.free", "Free Actions", 39, "a free action costs no AP; one per round"),
      R("003.save_turn", "Saving Your Turn", 22, "postpone your turn, declaring after which character you act"),
      R("003.reaction", "Actions in Combat", 24, "reactions any time, with a trigger, from the same 3 AP"),
      // Movement and positioning
      R("003.move", "The Initiative Structure", 11, "the active character moves up to its speed in metres without AP"),
      R("003.dash", "Primary Actions", 26, "Dash: move up to your speed"),
      R("003.disengage", "Primary Actions", 27, "Disengage: no opportunity attacks provoked for the rest of your turn"),
      R("003.opportunity", "Attack of Opportunity", 81, "an opportunity attack is a melee Strike as a reaction"),
      R("003.opportunity.move", "Attack of Opportunity", 82, "willingly moving within a foe's reach or leaving it provokes; not pushed, falling, Disengaged or teleported"),
      R("003.opportunity.cast", "Attack of Opportunity", 83, "casting a spell without the Melee Attack trait provokes"),
      R("003.opportunity.stand", "Attack of Opportunity", 84, "standing up from Prone provokes"),
      R("003.cover", "Cover", 86, "cover against ranged attacks: low -2 attack/+2 Dodge (l.87), high -5/+5 (l.88), full: attack fails (l.89)"),
      R("003.flanking", "Flanking", 91, "two allies with the foe in reach on a straight line: +2 to melee Fighting Style and Sorcery attack tests"),
      // Tests
      R("003.test", "Attacking & Defending", 41, "a test rolls a pool (reading, README 'The test mechanics'); Successes compared in a contest"),
      R("003.contest", "Primary Actions", 28, "a skill contest: both roll; one passes: it wins; both pass: more Successes (reading)"),
      // The combat roll
      R("003.strike", "Step I: Attack", 44, "Strike: Fighting Style test vs a foe within reach; ranged or thrown: Agility"),
      R("003.strike.weapon", "Primary Actions", 31, "Strike: you attack with your weapon; a shield (Block l.51, Bash l.67) is none, for a Strike or an opportunity attack (l.36)"),
      R("003.spell_attack", "Step I: Attack", 46, "a spell attack is a Sorcery test vs a foe within the spell's range"),
      R("003.fighting_style", "Multiple Fighting Styles", 96, "several fighting styles are tracked separately (gear lists, progression): a character fights with one at a time"),
      R("003.untrained_weapon", "Using Untrained Weapons and Armor", 99, "an untrained weapon: -2 to Fighting Style tests"),
      R("003.untrained_gear", "Step I: Attack", 45, "weapons or armor not included in your Fighting Style: -2 to all Fighting Style tests (once; untrained armor's bane, l.100, on top)"),
      R("003.untrained_armor", "Using Untrained Weapons and Armor", 100, "untrained armor: bane on Fighting Style, Dodge and Sorcery tests"),
      R("003.defend", "Step II: Defend", 50, "the target, if aware, chooses a defense before the attacker rolls (l.55); Defend is a reaction (l.34)"),
      R("003.defend.block", "Step II: Defend", 51, "Block: with a shield, a Fighting Style test using Strength"),
      R("003.defend.dodge", "Step II: Defend", 52, "Dodge: a Dodge test"),
      R("003.defend.parry", "Step II: Defend", 53, "Parry: Fighting Style with Strength or Agility; not against spells or ranged attacks"),
      R("003.defend.withstand", "Step II: Defend", 54, "Withstand: a Focus test, only against abilities that target the mind"),
      R("003.defend.spells", "Step II: Defend", 55, "attack spells can only be blocked or dodged unless the spell says otherwise"),
      R("003.defend.none", "Step II: Defend", 56, "not defending: the defense test automatically fails"),
      R("003.result.both_fail", "Step III: Determine Results", 59, "both fail: the AP is spent and nothing happens"),
      R("003.result.critical", "Step III: Determine Results", 60, "one fails: a critical win; attacker: damage; defender: negated; the winner may maneuver"),
      R("003.result.block", "Step III: Determine Results", 62, "both pass vs Block: blocked; damage reduced by BR"),
      R("003.result.dodge", "Step III: Determine Results", 63, "both pass vs Dodge: more attacker Successes hits, else miss"),
      R("003.result.parry", "Step III: Determine Results", 64, "both pass vs Parry: more attacker Successes hits, else miss"),
      R("003.result.withstand", "Step II: Defend", 54, "both pass vs Withstand: as Dodge and Parry (reading: the text gives no line)"),
      // Maneuvers
      R("003.maneuver", "Maneuvers", 66, "on a critical win the winner may attempt a maneuver against the loser"),
      R("003.maneuver.bash", "Maneuvers", 67, "Bash: with a shield or heavy weapon; Athletics test or Dazed"),
      R("003.maneuver.brace", "Maneuvers", 68, "Brace: your next Defense test gains a boon"),
      R("003.maneuver.disarm", "Maneuvers", 69, "Disarm: Athletics or Sleight of Hand test or lose the item; two-handed weapon or shield: boon"),
      R("003.maneuver.feint", "Maneuvers", 70, "Feint: a Deception test; pass: boon on your next Strike vs the same target"),
      R("003.maneuver.precision", "Maneuvers", 71, "Precision: choose the hit location, the damage die is maximized; only as part of a Strike"),
      R("003.maneuver.push", "Maneuvers", 72, "Push: Athletics test or pushed back 1 m"),
      R("003.maneuver.trip", "Maneuvers", 73, "Trip: Acrobatics test or knocked prone"),
      R("003.maneuver.size", "Size Matters", 76, "one size larger: boon; more: automatic pass; one smaller: bane; more: automatic fail (l.77)"),
      // Damage
      R("003.damage", "Step III: Determine Results", 60, "the attacker rolls the weapon's damage"),
      R("003.damage.types", "Damage Type", 118, "damage types in groups: physical (l.119), magical (l.123), other (l.127)"),
      R("003.damage.resistance", "Resistance & Vulnerability", 135, "x Resistance (y) reduces damage of type x (or its group) by y"),
      R("003.damage.vulnerability", "Resistance & Vulnerability", 136, "x Vulnerability (y) increases damage of type x by y"),
      R("003.damage.highest", "Resistance & Vulnerability", 137, "resistances and vulnerabilities don't stack: the highest only"),
      R("003.damage.armor", "Armor", 142, "AR reduces incoming physical damage by its rating; one source at a time (l.143)"),
      R("003.damage.shield", "Shields", 145, "a successful Block adds BR to AR; magical damage: half BR rounded up"),
      R("003.health", "Damage & Health", 116, "the Health Pool: at 0 the character is knocked unconscious"),
      // Other actions
      R("003.grapple", "Primary Actions", 28, "Grapple: a free hand; Athletics vs Athletics or Acrobatics; the foe cannot move"),
      R("003.search", "Primary Actions", 29, "Search: an Observation test (finding is the GM's, Adventuring chapter)"),
      R("003.sneak", "Primary Actions", 30, "Sneak: move and a Stealth test (detection is the GM's, Adventuring chapter)"),
      R("003.manipulate", "Reactions", 35, "Manipulate: interact with an object within touch (draw, stow, pick up)"),
      R("003.use_magic", "Primary Actions", 32, "Use Magic: cast a spell or activate an item; as a reaction only non-attacking (l.37)"),
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

}  // namespace combat::kernel::opposed
