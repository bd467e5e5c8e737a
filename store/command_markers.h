// A cross-check of a branch's command markers against its events.
//
// Why: idempotency rests on the command marker (c\0<session>\0<branch>\0<id>
// -> seq range) that each Append writes with its events. If a marker is
// lost (a deleted key below the head: damage the RocksDB checksums cannot
// see, since the rest of the database is intact), FindCommand says the
// command was never applied and a retry would apply it a second time.
// Append itself cross-checks only the head event (store/event_log.cc,
// CheckAroundHead); this check covers the whole branch and runs in
// `verify` (replay/verify.h) and in the test verifier.
//
// The rule, for every run of consecutive events carrying one command id on
// one branch's own segment (events without a command id are skipped): the
// marker FindCommand finds for that id on the segment's branch names the
// run's first seq, and its last seq; a command cut by a fork point (the
// run ends where an ancestor's segment ends) may name a later last seq. A
// command applied twice shows as a second run whose marker names the
// first. DataLoss names the session, branch, command and seqs.
#ifndef COMBAT_STORE_COMMAND_MARKERS_H_
#define COMBAT_STORE_COMMAND_MARKERS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "events/codec.h"
#include "store/log_reader.h"

namespace combat::store {

// Fed the events of one branch in seq order, from seq 1 to `head` (as a
// caller's own scan reads them), checks each command's marker as its run
// ends. Not thread-safe; `log` must outlive it.
class CommandMarkerCheck {
 public:
  // Reads the branch's ancestry (which branch owns which seqs).
  static absl::StatusOr<CommandMarkerCheck> Start(const LogReader& log,
                                                  const std::string& session,
                                                  const std::string& branch,
                                                  uint64_t head);
  // The next event (seq = last visited + 1).
  absl::Status Visit(const events::EventBuffer& event);
  // Checks the last run; call after the event at `head`.
  absl::Status Finish();
  // The first seq of the command whose check failed (0: none failed).
  uint64_t failed_seq() const { return failed_seq_; }

 private:
  struct Segment {
    std::string branch;
    uint64_t from = 0, to = 0;  // seqs this branch owns, inclusive
  };
  struct Run {
    std::string command;
    uint64_t first = 0, last = 0;
    size_t segment = 0;
  };
  CommandMarkerCheck(const LogReader& log, std::string session, std::string branch,
                     std::vector<Segment> segments);
  absl::Status CheckRun();

  const LogReader* log_;
  std::string session_;
  std::string branch_;             // the branch checked
  std::vector<Segment> segments_;  // ascending seqs
  size_t segment_ = 0;             // of the next event
  uint64_t next_seq_ = 1;
  Run run_;                        // command empty = no open run
  uint64_t failed_seq_ = 0;
};

// Scans `branch` from seq 1 to its head and runs the check.
absl::Status CheckCommandMarkers(const LogReader& log, const std::string& session,
                                 const std::string& branch);

}  // namespace combat::store

#endif  // COMBAT_STORE_COMMAND_MARKERS_H_
