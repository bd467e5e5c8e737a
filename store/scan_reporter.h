// What a scan does with a broken hash-chain link: by default it stops with
// DataLoss; a caller that judges links itself reads past them with a
// reporter (as LevelDB's log::Reader hands the corruption it skips to its
// Reporter instead of taking a flag).
#ifndef COMBAT_STORE_SCAN_REPORTER_H_
#define COMBAT_STORE_SCAN_REPORTER_H_

#include <cstdint>

#include "absl/status/status.h"
#include "events/codec.h"
#include "events/hash.h"

namespace combat::store {

// One broken link: `event`'s prev_hash is not the SHA-256 of the event
// before it.
struct BrokenLink {
  uint64_t seq = 0;             // the event's seq
  events::Digest expected{};    // the hash of the event before it
  // The scan's own refusal (DataLoss naming session, branch and seq): what
  // a scan without a reporter returns.
  absl::Status refusal;
};

class ScanReporter {
 public:
  virtual ~ScanReporter() = default;
  // Called for each broken link, before `event` is visited. OK reads on
  // (`event` is visited as stored, and the next link is checked against
  // its hash); an error stops the scan with it. Only links are reported:
  // every other damage (an unreadable or missing event, a gap, an event
  // past the head, a head event other than the head record's) stops the
  // scan whatever the reporter.
  virtual absl::Status Report(const BrokenLink& link,
                              const events::EventBuffer& event) = 0;
};

// A reporter that reads past every broken link (for `verify`, which blames
// the event that was altered from the links on both sides of it).
class ReadPastBrokenLinks : public ScanReporter {
 public:
  absl::Status Report(const BrokenLink&, const events::EventBuffer&) override {
    return absl::OkStatus();
  }
};

}  // namespace combat::store

#endif  // COMBAT_STORE_SCAN_REPORTER_H_
