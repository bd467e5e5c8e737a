// The rule table: every rule id a d20_three_action event or refusal cites,
// with the seed section and line it reads (seed 000, "Combat").
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "kernel/d20_three_action/internal.h"

namespace combat::kernel::d20 {
namespace {

RuleRef R(const char* id, const char* section, int line, const char* summary) {
  return RuleRef{id, kSeed, section, line, summary};
}

std::vector<RuleRef>* Build() {
  return new std::vector<RuleRef>{
      // --- set-up, rounds and turns
      R("000.setup", "Parts of a Round", 11,
        "Roster check: level, str, dex, ess, hp (max HP), speed, "
        "physical_defense, mental_defense are required"),
      R("000.initiative", "Parts of a Round", 11,
        "Initiative rolled at the start of combat; reading: d20 + DEX + "
        "optional 'initiative' stat"),
      R("000.initiative.tie", "Parts of a Round", 11,
        "Ties determined at random: recorded d20 tie-break rolls, re-rolled "
        "while still tied"),
      R("000.initiative.order", "Parts of a Round > Round", 13,
        "Turns go from the highest Initiative to the lowest"),
      R("000.initiative.unaware", "Parts of a Round", 11,
        "Creatures completely unaware of combat (tag 'unaware') do not act "
        "in round 1"),
      R("000.round", "Parts of a Round > Round", 13,
        "A Round: every creature in the combat gets 1 Turn"),
      R("000.turn", "Parts of a Round > Turn", 15,
        "A Turn: three Actions, one Reaction until the start of the next "
        "turn; end_turn passes to the next creature"),
      R("000.action", "Parts of a Round > Action", 17,
        "An Action is spent from the turn's three"),
      R("000.reaction", "Parts of a Round > Reaction", 19,
        "1 Reaction per Round, refreshed at the start of your turn"),
      R("000.free_action", "Parts of a Round > Free Action", 21,
        "Free Actions only on your turn or when triggered"),
      R("000.duration.round", "Parts of a Round > Round", 13,
        "'1 Round' ends after all other creatures had a turn: anchored at the "
        "start of the applying turn's owner's next turn"),
      R("000.hold", "Parts of a Round > Round", 13,
        "Hold: at any point of your turn drop to a lower place, after a named "
        "creature's turn; unspent actions are kept for that turn"),
      R("000.delay", "Parts of a Round > Turn", 15,
        "Delay at the start of your turn; enter again after the current turn; "
        "new place for the rest of combat"),
      R("000.delay.ongoing", "Parts of a Round > Turn", 15,
        "While delayed, start-of-turn effects still apply each round at the "
        "original initiative"),
      R("000.turn.command", "Actions > Command", 41,
        "A creature that can be commanded takes no turn of its own"),
      // --- actions
      R("000.attack", "Actions > Attack", 27,
        "Attack roll vs Physical Defense; on a success deal weapon damage"),
      R("000.attack.critical", "Actions > Attack", 27,
        "Critical Success: double damage. Reading: a success with a natural "
        "20, or a total of defense + 10 or more; the GM may overrule"),
      R("000.attack.area", "Actions > Attack", 27,
        "An attack on all creatures in an Area makes a single Attack roll"),
      R("000.attack.melee", "Actions > Melee Attack", 29,
        "d20 + Level + STR; DEX with a Light/Medium weapon (not for damage); "
        "reading: melee damage adds STR"),
      R("000.attack.ranged", "Actions > Ranged Attack", 31,
        "d20 + Level + DEX; reading: ranged damage is the weapon's dice"),
      R("000.attack.range_increment", "Actions > Ranged Attack", 31,
        "-1 per Range Increment the target is from you, rounded down "
        "(distance / increment, when beyond the first increment)"),
      R("000.attack.ranged_close", "Actions > Ranged Attack", 31,
        "Ranged attack at a target within 5 ft: Disadvantage"),
      R("000.attack.spell", "Actions > Spell Attack", 33,
        "d20 + Level + ESS vs Physical or Mental Defense"),
      R("000.attack.hit", "Actions > Spell Attack", 33,
        "Success on a total equal to or higher than the defense (read for "
        "every attack)"),
      R("000.move", "Actions > Move", 35, "Move up to your Speed"),
      R("000.move.ally", "Actions > Move", 35,
        "Move through allied squares at no penalty"),
      R("000.move.push_through", "Actions > Move", 35,
        "Through an enemy square: a free Push attempt; failure ends the move, "
        "success: their square is Difficult Terrain, critical: no penalty"),
      R("000.move.stand", "Actions > Move", 35,
        "A Move action may instead stand up from Prone"),
      R("000.cast", "Actions > Cast", 37,
        "Cast a Spell: Energy spent on each component; optional Spell Attack"),
      R("000.control", "Actions > Control", 39,
        "Control a Spell cast on a previous turn; once per turn per spell"),
      R("000.command", "Actions > Command", 41,
        "Command a creature under your control, once per Round per creature; "
        "it takes its turn with yours using its own Actions"),
      R("000.command.start_of_turn", "Actions > Command", 41,
        "A commandable creature's start-of-turn effects happen at the start of "
        "its last commander's turn"),
      R("000.focus", "Actions > Focus", 43,
        "Each Action of Focus gains (ESS + Level) / 3 Energy, rounded down"),
      R("000.dodge", "Actions > Dodge", 45,
        "The next Attack against you has Disadvantage (until an attack uses "
        "it: the text sets no time limit)"),
      R("000.maneuver", "Actions > Maneuver", 47,
        "Break, Disarm, Feint, Grapple, Push, Trip in place of a Melee Attack, "
        "with the same Reach"),
      R("000.break", "Actions > Maneuver > Break", 49,
        "Opposed: damage to an object they carry; critical: double"),
      R("000.push", "Actions > Maneuver > Push", 51,
        "Opposed: push 5 ft (critical: up to 15 ft); the pusher follows, at "
        "most its Speed"),
      R("000.push.wall", "Actions > Maneuver > Push", 51,
        "Stopped by a hard surface: d6 per 5 ft not travelled, and Prone"),
      R("000.feint", "Actions > Maneuver > Feint", 53,
        "Melee roll vs Mental Defense: Flat Footed against you for the rest "
        "of your turn; critical: against everyone until your next turn"),
      R("000.disarm", "Actions > Maneuver > Disarm", 55,
        "Opposed: they drop an item; critical: fling it 10 ft or take it"),
      R("000.trip", "Actions > Maneuver > Trip", 57,
        "Opposed: Prone; flying creatures fall; critical: fall damage as "
        "from 10 ft"),
      R("000.grapple", "Actions > Maneuver > Grapple", 59,
        "Opposed: Grappling / Grappled, sharing a space; critical: Slowed for "
        "one Round; needs a free hand or natural weapon"),
      R("000.ready", "Actions > Readied action", 61,
        "Two Actions: a chosen action and trigger, until your next turn; "
        "fires in a window before the triggering act resolves"),
      R("000.skill", "Actions > Use a Skill", 63,
        "d20 + skill bonus vs the DC the GM sets (success at >= DC)"),
      R("000.interact", "Parts of a Round > Action", 17,
        "Interact with an object (draw a weapon, open a door): an Action each"),
      // --- terrain and movement
      R("000.terrain.difficult", "Terrain and movement > Difficult Terrain", 69,
        "Movement out of a difficult square counts double"),
      R("000.crawl", "Terrain and movement > Crawling", 73,
        "While Prone you can move 5 ft"),
      R("000.swim", "Terrain and movement > Swimming", 75,
        "Currents move creatures at the start of their turns: GM ruling"),
      R("000.suffocate", "Terrain and movement > Suffocating", 77,
        "Holding breath STR rounds, then 0 HP and Incapacitated; dead at "
        "the end of the next turn without breath"),
      R("000.fall", "Terrain and movement > Falling", 79,
        "Fall damage by size and distance (no table in the text): GM ruling"),
      R("000.fly", "Terrain and movement > Flying", 83,
        "Flight: up to twice your Speed, over difficult terrain; each "
        "45-degree turn costs 5 ft more (not with Improved Flight)"),
      R("000.zero_g", "Terrain and movement > Zero-G", 85,
        "Zero-G (terrain zero_g): without flight, move only by pushing off "
        "in a straight line (fixed object: Speed; unfixed within 1 size: "
        "half Speed, it moves the other way), drifting on at each turn start "
        "until running into something; attacking or hit while not touching "
        "a fixed object: Disadvantage on attacks until an Action to "
        "Stabilize or touching one"),
      R("000.darkness", "Terrain and movement > Darkness", 87,
        "Creatures in Darkness are Concealed (unless darkvision)"),
      R("000.light", "Terrain and movement > Light", 89,
        "Light radius: GM ruling (sets darkness cells)"),
      R("000.fog", "Terrain and movement > Fog", 91,
        "Fog anywhere on the line of sight: Concealed"),
      R("000.terrain.occupied", "Terrain and movement > Occupied Squares", 93,
        "Squares of creatures 2 sizes larger/smaller count as Difficult"),
      R("000.burrow", "Terrain and movement > Burrowing", 95,
        "Burrowing and tunnels: GM ruling"),
      R("000.thin_ice", "Terrain and movement > Thin Ice", 97,
        "Ice load and damage: GM ruling"),
      // --- conditions
      R("000.flat_footed", "Subjective Conditions > Flat Footed", 107,
        "Attacks against a Flat Footed creature have Advantage; reading: any "
        "advantage and any disadvantage cancel, several do not stack"),
      R("000.flanked", "Subjective Conditions > Flanked", 109,
        "Two enemies on opposite sides, both with it in reach: Flat Footed "
        "against both"),
      R("000.concealed", "Subjective Conditions > Concealed", 113,
        "Attacks against Concealed creatures have Disadvantage, not Area "
        "attacks"),
      R("000.hidden", "Subjective Conditions > Hidden", 115,
        "Declare a square; the wrong square always misses; Flat Footed "
        "against the hidden creature; revealed by attacking or being hit"),
      R("000.undetected", "Subjective Conditions > Undetected", 117,
        "Undetected creatures are also Hidden"),
      R("000.line_of_effect", "Subjective Conditions > Line of Effect", 119,
        "Walls block line of effect; darkness and fog do not"),
      R("000.cover", "Subjective Conditions > Cover", 121,
        "Partially obscured by a creature/object of at least its size: "
        "Disadvantage; completely obscured by a wall: cannot be attacked"),
      R("000.bleeding", "Objective Conditions > Bleeding", 127,
        "At the start of the turn, before other effects: roll on the Bleed "
        "Table minus the Bleed Penalty, then 2d6 bleed damage"),
      R("000.bleed.penalty", "Objective Conditions > Bleeding", 127,
        "Damage raises the Bleed Penalty by 1; healing lowers it by 1"),
      R("000.bleed.medicine", "Objective Conditions > Bleeding", 127,
        "A successful Medicine check ends Bleeding and resets the penalty"),
      R("000.bleed.death", "Objective Conditions > Bleed Table", 132,
        "0 or less: dead if already below 0 HP, else Unconscious"),
      R("000.bleed.unconscious", "Objective Conditions > Bleed Table", 133,
        "1-5: you fall Unconscious"),
      R("000.bleed.deteriorate", "Objective Conditions > Bleed Table", 134,
        "6-10: Bleed Penalty +1"),
      R("000.bleed.none", "Objective Conditions > Bleed Table", 135,
        "11-15: no effect"),
      R("000.bleed.stabilize", "Objective Conditions > Bleed Table", 136,
        "16-20: Bleeding ends and the Bleed Penalty resets to 0"),
      R("000.blinded", "Objective Conditions > Blinded", 138,
        "Flat Footed against all; all others have concealment against it"),
      R("000.dead", "Objective Conditions > Dead", 140,
        "Dead at negative HP equal to or greater than max HP"),
      R("000.destroyed", "Objective Conditions > Destroyed", 142,
        "An object at 0 HP is Destroyed: GM ruling (objects have no HP in "
        "the roster)"),
      R("000.entangled", "Objective Conditions > Entangled", 144,
        "Cannot move from its space under its own power"),
      R("000.shaken", "Objective Conditions > Shaken", 146,
        "Disadvantage on all attack rolls; more instances add duration"),
      R("000.grappled", "Objective Conditions > Grappled", 148,
        "One arm used; smaller: Entangled, else Speed halved; Flat Footed to "
        "the grappler; moves and falls with it; escape by an opposed roll"),
      R("000.grappling", "Objective Conditions > Grappling", 150,
        "One arm used; smaller: Entangled, else Speed halved; choke as an "
        "Action; release as a Free Action"),
      R("000.incapacitated", "Objective Conditions > Incapacitated", 152,
        "0 or less HP and not dead; on first becoming so: Prone and Bleeding; "
        "2 fewer Actions and Reactions"),
      R("000.invisible", "Objective Conditions > Invisible", 154,
        "Concealed to all others without another sense"),
      R("000.on_fire", "Objective Conditions > On fire", 156,
        "2d6 fire damage at the start of the turn; an Action to drop Prone and "
        "roll puts it out, as does entering water"),
      R("000.poisoned", "Objective Conditions > Poisoned", 158,
        "Damage at the start of the turn; only the highest level applies; "
        "durations tracked separately. Reading: level N deals Nd6"),
      R("000.prone", "Objective Conditions > Prone", 160,
        "Disadvantage on melee attacks; melee against it: Advantage; ranged "
        "against it: Disadvantage; stand as an Action or crawl 5 ft"),
      R("000.slowed", "Objective Conditions > Slowed", 162,
        "One less Action and Reaction per turn (minimum 0)"),
      R("000.stunned", "Objective Conditions > Stunned", 164,
        "No Actions, Reactions or Free Actions; Flat Footed to all"),
      R("000.squeezing", "Objective Conditions > Squeezing", 166,
        "Difficult terrain; Flat Footed to all; Disadvantage with Heavy "
        "weapons"),
      R("000.unconscious", "Objective Conditions > Unconscious", 168,
        "No Actions, Reactions or Free Actions; Prone; Flat Footed to all"),
      R("000.heal", "Objective Conditions > Bleeding", 127,
        "Healing (GM verb or a spell): HP up to max; Bleed Penalty -1"),
      R("000.gm", "Actions", 25,
        "GM rulings ('or more if the GM thinks it should take longer'): "
        "overrule and fill in what the text leaves to the GM"),
  };
}

}  // namespace

const std::vector<RuleRef>& RuleTable() {
  static const std::vector<RuleRef>* table = Build();
  return *table;
}

std::string Cite(const std::string& id) { return kernel::Cite(RuleTable(), id); }

absl::Status Refuse(const std::string& rule, const std::string& msg) {
  return kernel::Refuse(RuleTable(), rule, msg);
}

}  // namespace combat::kernel::d20
