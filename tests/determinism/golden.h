// The fixed generated log whose state hashes are checked in
// (golden_hashes.txt): session, seed, length and checkpoints.
#ifndef COMBAT_TESTS_DETERMINISM_GOLDEN_H_
#define COMBAT_TESTS_DETERMINISM_GOLDEN_H_

#include <cstdint>

namespace combat::testing {

inline constexpr char kGoldenSession[] = "golden";
inline constexpr uint64_t kGoldenSeed = 20240601;
inline constexpr int kGoldenCommands = 200;

inline bool IsCheckpoint(int commands) {
  return commands == 1 || commands == 2 || commands == 5 || commands == 10 ||
         commands == 20 || commands == 50 || commands == 100 ||
         commands == 150 || commands == 200;
}

}  // namespace combat::testing

#endif  // COMBAT_TESTS_DETERMINISM_GOLDEN_H_
