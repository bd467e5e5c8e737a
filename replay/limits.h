// Input limits: what a command, a roster or an input file may hold. Each
// refusal is InvalidArgument naming the field, its size and the limit, and
// comes before anything is decided or written (a 100 MB text field once
// cost 770 MB of memory and was stored).
//
// Dice: a dice expression is limited by its notation (kernel/dice/
// notation.h: 1..100 dice per term, at most 8 terms, faces 1..1000); a
// command's physical dice by kMaxManualDice here.
#ifndef COMBAT_REPLAY_LIMITS_H_
#define COMBAT_REPLAY_LIMITS_H_

#include <cstdint>

#include "absl/status/status.h"
#include "events/input_generated.h"

namespace combat::replay {

inline constexpr uint64_t kMaxCommandFileBytes = 64 << 10;   // one command's JSON
inline constexpr uint64_t kMaxInputFileBytes = 64 << 20;     // a roster or script
inline constexpr uint64_t kMaxCommandBytes = 64 << 10;       // packed Command
inline constexpr uint64_t kMaxTextBytes = 4096;   // any string field
inline constexpr uint64_t kMaxListItems = 256;    // targets, params, stats, ...
inline constexpr uint64_t kMaxPathSquares = 1000; // a move's path
inline constexpr uint64_t kMaxManualDice = 1000;  // a command's physical dice
inline constexpr uint64_t kMaxCombatants = 10000; // a roster
inline constexpr uint64_t kMaxMapCells = 1000000; // a roster's terrain cells

// Every string and list of `command` within the limits above, and its
// packed size within kMaxCommandBytes.
absl::Status CheckCommandLimits(const fb::CommandT& command);

// The roster's title, combatant count, map cells, and every combatant's
// strings and lists within the limits above.
absl::Status CheckRosterLimits(const fb::RosterT& roster);

}  // namespace combat::replay

#endif  // COMBAT_REPLAY_LIMITS_H_
