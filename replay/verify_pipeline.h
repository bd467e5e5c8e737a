// The per-event work of verify that depends only on the event itself (is it
// the canonical encoding; its SHA-256, which the next event's prev_hash must
// be) computed on a worker thread ahead of the walk, in batches, so that the
// walk (reducer, state hash: what depends on the events before) only reads
// the results (verify.cc, BranchCheck::Run). The results are the ones the
// walk would compute itself; which batches are computed when changes
// nothing the walk reports.
//
// The worker may also run the source's observer (BranchSource::observe,
// when the source allows it: observe_ahead) on every event in order,
// stopping at its first error: an observer whose verdict on an event
// depends only on the events fed before gives the walk the verdict it
// would have given itself, for every event the walk reaches.
#ifndef COMBAT_REPLAY_VERIFY_PIPELINE_H_
#define COMBAT_REPLAY_VERIFY_PIPELINE_H_

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "events/codec.h"
#include "events/hash.h"

namespace combat::replay {

// What the worker knows of one event.
struct Prechecked {
  bool canonical = false;  // EventBuffer::CheckCanonical is OK
  events::Digest hash{};   // EventBuffer::hash()
  // The observer's verdict, and the seq it names when it fails (only
  // when observing; after its first error the observer is not called).
  absl::Status observed;
  uint64_t observed_seq = 0;
};

// An observer run by the worker (may be empty: none).
struct PrecheckObserver {
  std::function<absl::Status(const events::EventBuffer&)> observe;
  std::function<uint64_t()> observed_seq;  // may be empty: 0
};

// Events and, once the worker is done with them, their results (same
// order, same size).
struct PrecheckBatch {
  std::vector<events::EventBuffer> events;
  std::vector<Prechecked> checked;
};

// One worker thread, batches in FIFO order. std::mutex and
// std::condition_variable rather than absl::Mutex: Debian's Abseil is not
// built for ThreadSanitizer (as store/view.cc).
class PrecheckPipeline {
 public:
  explicit PrecheckPipeline(PrecheckObserver observer = {});
  // Stops the worker (batches not taken are dropped) and joins it.
  ~PrecheckPipeline();
  PrecheckPipeline(const PrecheckPipeline&) = delete;
  PrecheckPipeline& operator=(const PrecheckPipeline&) = delete;

  // Hands `batch` to the worker.
  void Submit(PrecheckBatch batch);
  // Waits for the oldest batch submitted and not taken yet, with its
  // results. There must be one (pending() > 0).
  PrecheckBatch Take();
  // Batches submitted and not taken yet.
  size_t pending() const { return pending_; }

  // What the worker computes for one event (also for a caller checking
  // events itself).
  static Prechecked Check(const events::EventBuffer& event);

 private:
  void Work();
  void CheckBatch(PrecheckBatch& batch);

  PrecheckObserver observer_;     // the worker's only
  bool observer_failed_ = false;  // the worker's only
  std::mutex mu_;
  std::condition_variable changed_;
  std::deque<PrecheckBatch> todo_;  // guarded by mu_
  std::deque<PrecheckBatch> done_;  // guarded by mu_
  bool stopping_ = false;           // guarded by mu_
  size_t pending_ = 0;              // the caller's thread only
  std::thread worker_;
};

}  // namespace combat::replay

#endif  // COMBAT_REPLAY_VERIFY_PIPELINE_H_
