// Dice statistics for a branch: per die type, counts per face, the mean
// against its expectation, and a chi-square statistic against fair dice;
// overall, per author (who submitted the command that rolled) and per
// provenance (seeded, manual, GM override), so "the GM's dice are hot" has
// an answer. Integers only: means are ×1000 and truncated
// (sum × 1000 / n), as is the chi-square (×1000).
// Rolls of voided events are left out unless asked for (they no longer
// count); every die rolled is counted, dropped ones included.
#ifndef COMBAT_REPLAY_STATS_H_
#define COMBAT_REPLAY_STATS_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "replay/jump.h"
#include "store/event_log.h"

namespace combat::replay {

struct FaceStats {
  int faces = 0;
  std::vector<uint64_t> counts;  // counts[v - 1] for face v
  uint64_t n = 0;
  int64_t sum = 0;
  void Add(int value);
  int64_t MeanX1000() const;      // sum * 1000 / n (0 when n = 0)
  int64_t ExpectedX1000() const;  // (faces + 1) * 500
  // sum over faces of (count - n/faces)^2 / (n/faces), ×1000, truncated;
  // with faces - 1 degrees of freedom.
  int64_t ChiSquareX1000() const;
};

using ByFaces = std::map<int, FaceStats>;

struct DiceStats {
  std::string session;
  std::string branch;
  uint64_t rolls = 0;
  uint64_t voided_rolls = 0;  // left out (or counted, with include_voided)
  bool voided_included = false;
  ByFaces all;
  std::map<std::string, ByFaces> by_author;
  std::map<std::string, ByFaces> by_provenance;
};

absl::StatusOr<DiceStats> CollectDiceStats(store::EventLog& log,
                                           const std::string& session,
                                           const std::string& branch,
                                           bool include_voided,
                                           const SeekOptions& seek = {});

// A table per group:
//   all dice
//     d20  n=40  mean 11.475 (expected 10.500)  chi2 17.500 (19 df)
//          1:2 2:1 3:3 ...
std::string RenderDiceStats(const DiceStats& stats);

}  // namespace combat::replay

#endif  // COMBAT_REPLAY_STATS_H_
