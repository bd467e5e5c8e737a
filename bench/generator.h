// A realistic event generator for the benchmarks: long synthetic encounters
// played through the REAL deciders (kernel::SetUpSession /
// kernel::DecideCommand with the ruleset's Decide and seeded dice), so every
// event is one a decider produced: canonical bytes, chained prev_hash, the
// state hash after it.
//
//  - d20_three_action (seed 000): 4-6 combatants in two sides standing in
//    reach; each turn the active creature attacks a foe in reach (twice),
//    sometimes steps back and forth, then end_turn. The GM heals (gm_adjust
//    hp) whoever falls below half, and lifts conditions that would take a
//    creature out of the fight, so the encounter never ends.
//  - energy_rounds (seed 002): 4-6 combatants; each round every creature
//    declares a melee attack (a window; resolved by the actor), then
//    defends; the GM ends the round (end_round), and heals as above.
//  - wound_slots (seed 001), opposed_tests (seed 003), ap_rp (seed 004):
//    the active creature attacks a foe in reach (wound_slots: standard,
//    quick or strong as its AP allow; opposed_tests: strike; ap_rp: attack,
//    then sometimes take_cover) or steps toward the nearest (wound_slots
//    buys the movement first), then end_turn. Every window opened on the
//    way is answered: opposed_tests' defense, maneuver and opportunity
//    windows (defend / maneuver / opportunity_attack / pass), wound_slots'
//    (now and then an interrupt with a quick attack, else pass); a window
//    nobody may answer is resolved by its act's actor, else the GM. The GM
//    tops up pools (hp, stamina, aura, health, vitality) below half, clears
//    wound_slots' wounds once one is severe or worse, and lifts conditions
//    that take a creature out of the fight.
//  The rosters: bench/rosters.h (each combatant plays itself).
//
// Choices use splitmix64 from `seed`; dice come from SeededDice with a fixed
// secret, so a (ruleset, seed, events) triple always gives the same log.
// A command the ruleset refuses is dropped (nothing is written, as in the
// engine) and the loop falls back to the next choice.
#ifndef COMBAT_BENCH_GENERATOR_H_
#define COMBAT_BENCH_GENERATOR_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "events/codec.h"
#include "store/event_log.h"

namespace combat::bench {

// The rulesets the benchmarks play, in the order of their tables.
inline constexpr const char* kRulesets[] = {"d20_three_action", "energy_rounds", "wound_slots",
                                            "opposed_tests", "ap_rp"};
// The number of combatants the benchmarks use for `ruleset` (energy_rounds
// 6, the others 4).
inline int BenchCombatants(const std::string& ruleset) {
  return ruleset == "energy_rounds" ? 6 : 4;
}

struct GenOptions {
  std::string ruleset = "d20_three_action";  // any of kRulesets
  std::string session = "bench";
  uint64_t events = 10000;  // at least this many (whole commands)
  uint64_t seed = 1;
  int combatants = 4;       // 4..6
  bool progress = false;    // a line on stderr every 100k events
};

// One command of the corpus: its id and its events [begin, end).
struct CorpusCommand {
  std::string id;
  size_t begin = 0;
  size_t end = 0;
};

struct Corpus {
  store::SessionMeta meta;        // for EventLog::CreateSession
  std::vector<uint8_t> secret;    // the dice secret (32 bytes)
  std::vector<events::EventBuffer> events;  // seq 1..N of branch "main"
  std::vector<CorpusCommand> commands;      // the set-up is commands[0]
  uint64_t rejected = 0;          // commands the ruleset refused (dropped)
  double seconds = 0;             // wall time to generate
  size_t bytes = 0;               // total event bytes
};

// Plays an encounter until it has at least options.events events.
absl::StatusOr<Corpus> Generate(const GenOptions& options);

// Generate, cached under /tmp/combat_bench_cache/ (never elsewhere): a
// cached corpus is used only when its first commands are byte-identical to
// freshly generated ones (so a change in a ruleset or in the state hash
// invalidates it), and every event passes the Verifier on load.
absl::StatusOr<Corpus> GenerateCached(const GenOptions& options);

}  // namespace combat::bench

#endif  // COMBAT_BENCH_GENERATOR_H_
