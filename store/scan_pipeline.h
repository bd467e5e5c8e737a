// A long scan in two threads (store/view.cc, View::ScanOwn): a reader
// thread iterates the table and copies each event's bytes out; the calling
// thread checks the hash chain and visits. Between them is each event's own
// work, which either thread may do: decoding (the FlatBuffers Verifier and
// the envelope check against the key) and hashing (SHA-256 of the event's
// own bytes, prev_hash included, so no event's hash waits for another's).
// The reader takes a share of it that it adjusts at every hand-off, so that
// neither thread waits for the other whatever the machine: less while the
// caller waits for events, more while events wait for the caller.
//
// Order is the sequential one: events are checked and visited in seq order,
// and the first error in seq order is the one returned (a decode error
// found by either thread, a check error, or the reader's own error after
// every event it read before it).
//
// Storage: a batch the caller is done with goes back to the reader, which
// copies the next events into its buffers. Nothing is allocated per event
// once the first batches exist, and memory is freed by the thread that
// allocated it (a buffer freed by another thread takes malloc's arena lock:
// it was a third of the caller's time).
//
// Internal to //store (not a public header).
#ifndef COMBAT_STORE_SCAN_PIPELINE_H_
#define COMBAT_STORE_SCAN_PIPELINE_H_

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "events/codec.h"

namespace combat::store {

// One event on its way from the reader to the caller.
struct PipedEvent {
  uint64_t seq = 0;
  std::vector<uint8_t> bytes;                // until decoded
  std::optional<events::EventBuffer> event;  // once decoded

  // The storage to copy the next event into (capacity kept).
  std::vector<uint8_t> TakeStorage() {
    std::vector<uint8_t> out =
        event.has_value() ? std::move(*event).ReleaseBytes() : std::move(bytes);
    event.reset();
    bytes.clear();
    return out;
  }
};

// Batches from the reader to the caller. A thread that finds the queue
// empty (the caller) or full (the reader) sleeps until it is half full
// (half empty), not until the next single batch: on a busy machine each
// wake-up waits for the scheduler, so the two threads should trade places
// as rarely as possible. std::mutex and std::condition_variable rather
// than absl::Mutex: Debian's Abseil is not built for ThreadSanitizer, which
// then cannot see absl::Mutex's ordering (tests/sanitizers.sh runs the
// store's scans under TSan).
class BatchQueue {
 public:
  static constexpr size_t kBatch = 512;  // events per batch
  static constexpr size_t kDepth = 16;   // batches: ~4 MB of events
  using Batch = std::vector<PipedEvent>;

  // What the reader learns at a hand-off.
  struct Pushed {
    bool more = true;             // false once the caller stopped
    bool caller_waiting = false;  // the caller was asleep for want of events
    size_t waiting = 0;           // batches now waiting for the caller
  };

  // Hands `batch` over. `*spare` becomes a batch the caller is done with
  // (see Pop), or empty.
  Pushed Push(Batch batch, Batch* spare) {
    std::unique_lock<std::mutex> lock(mu_);
    if (batches_.size() >= kDepth) {
      changed_.wait(lock, [this] {
        return stopped_ || batches_.size() <= kDepth / 2;
      });
    }
    Pushed out;
    if (stopped_) {
      out.more = false;
      return out;
    }
    out.caller_waiting = caller_waiting_;
    batches_.push_back(std::move(batch));
    out.waiting = batches_.size();
    if (batches_.size() >= kDepth / 2) changed_.notify_all();
    spare->clear();
    if (!spares_.empty()) {
      *spare = std::move(spares_.front());
      spares_.pop_front();
    }
    return out;
  }
  // The reader is done; `end` is its status.
  void Finish(absl::Status end) {
    std::lock_guard<std::mutex> lock(mu_);
    finished_ = true;
    end_ = std::move(end);
    changed_.notify_all();
  }
  // The next batch; false when there is none left (`*end`: the reader's
  // status). The batch `*batch` held, which the caller is done with, goes
  // back to the reader (Push's `spare`).
  bool Pop(Batch* batch, absl::Status* end) {
    std::unique_lock<std::mutex> lock(mu_);
    if (!batch->empty() && spares_.size() < kDepth) {
      spares_.push_back(std::move(*batch));
    }
    if (batches_.empty()) {
      caller_waiting_ = true;
      changed_.wait(lock, [this] {
        return finished_ || batches_.size() >= kDepth / 2;
      });
      caller_waiting_ = false;
    }
    if (batches_.empty()) {
      *end = end_;
      return false;
    }
    *batch = std::move(batches_.front());
    batches_.pop_front();
    if (batches_.size() <= kDepth / 2) changed_.notify_all();
    return true;
  }
  // The caller gives up (an error): the reader's next Push says so.
  void Stop() {
    std::lock_guard<std::mutex> lock(mu_);
    stopped_ = true;
    changed_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable changed_;
  std::deque<Batch> batches_;
  std::deque<Batch> spares_;  // batches the caller is done with
  bool caller_waiting_ = false;
  bool finished_ = false;
  bool stopped_ = false;
  absl::Status end_;
};

// How many events of each batch the reader decodes and hashes: the first
// min(share, kBatch) it decodes, the first share - kBatch of those it also
// hashes. Integral control at each hand-off: less while the caller sleeps
// for want of events (the reader is the slower side), more while over half
// the queue waits for the caller (the caller is), unchanged between.
class ReaderShare {
 public:
  static constexpr size_t kMax = 2 * BatchQueue::kBatch;
  static constexpr size_t kStep = BatchQueue::kBatch / 8;

  // Starts with the reader decoding every event and the caller hashing.
  ReaderShare() = default;
  // A fixed share (tests: which thread does what), at most kMax.
  static ReaderShare Fixed(size_t share) {
    ReaderShare s;
    s.share_ = share < kMax ? share : kMax;
    s.adjust_ = false;
    return s;
  }

  size_t decode() const { return share_ < BatchQueue::kBatch ? share_ : BatchQueue::kBatch; }
  size_t hash() const { return share_ > BatchQueue::kBatch ? share_ - BatchQueue::kBatch : 0; }

  void Adjust(const BatchQueue::Pushed& p) {
    if (!adjust_) return;
    if (p.caller_waiting) {
      share_ = share_ > kStep ? share_ - kStep : 0;
    } else if (p.waiting > BatchQueue::kDepth / 2) {
      share_ = share_ + kStep < kMax ? share_ + kStep : kMax;
    }
  }

 private:
  size_t share_ = BatchQueue::kBatch;
  bool adjust_ = true;
};

// Asks for `bytes` to be brought into this core's cache (a hint).
inline void Prefetch(const std::vector<uint8_t>& bytes) {
  constexpr size_t kLine = 64;
  for (size_t at = 0; at < bytes.size(); at += kLine) {
    __builtin_prefetch(bytes.data() + at);
  }
}

// Runs the scan. `read(storage, emit)` reads the raw events in seq order on
// the reader thread: for each, it copies the bytes into the vector
// `storage()` returns and calls `emit(seq, bytes)`, stopping (OK) when
// emit returns false; it returns its own error, if any, after the events
// it emitted. `decode(seq, bytes)` makes a checked EventBuffer (either
// thread calls it). `check(event)` runs on the calling thread in seq order.
template <typename Read, typename Decode, typename Check>
absl::Status RunScanPipeline(Read&& read, Decode&& decode, Check&& check,
                             ReaderShare share = ReaderShare()) {
  BatchQueue queue;
  std::thread reader([&queue, &read, &decode, share]() mutable {
    BatchQueue::Batch batch, spare;
    batch.reserve(BatchQueue::kBatch);
    size_t reused = 0;
    absl::Status decode_error;
    auto storage = [&spare, &reused] {
      return reused < spare.size() ? spare[reused++].TakeStorage()
                                   : std::vector<uint8_t>();
    };
    auto emit = [&](uint64_t seq, std::vector<uint8_t> bytes) {
      PipedEvent& piped = batch.emplace_back();
      piped.seq = seq;
      if (batch.size() <= share.decode()) {
        absl::StatusOr<events::EventBuffer> decoded = decode(seq, std::move(bytes));
        if (!decoded.ok()) {
          // Every event before it goes to the caller first.
          batch.pop_back();
          decode_error = decoded.status();
          return false;
        }
        piped.event.emplace(*std::move(decoded));
        if (batch.size() <= share.hash()) piped.event->RememberHash();
      } else {
        piped.bytes = std::move(bytes);
      }
      if (batch.size() < BatchQueue::kBatch) return true;
      const BatchQueue::Pushed pushed = queue.Push(std::move(batch), &spare);
      share.Adjust(pushed);
      reused = 0;
      batch = BatchQueue::Batch();
      batch.reserve(BatchQueue::kBatch);
      return pushed.more;
    };
    absl::Status end = read(storage, emit);
    if (!decode_error.ok()) end = decode_error;
    if (!batch.empty()) (void)queue.Push(std::move(batch), &spare);
    queue.Finish(std::move(end));
  });
  absl::Status checked;
  absl::Status read_status;
  BatchQueue::Batch batch;
  while (checked.ok() && queue.Pop(&batch, &read_status)) {
    for (size_t i = 0; i < batch.size() && checked.ok(); ++i) {
      PipedEvent& piped = batch[i];
      if (!piped.event.has_value()) {
        absl::StatusOr<events::EventBuffer> decoded =
            decode(piped.seq, std::move(piped.bytes));
        if (!decoded.ok()) {
          checked = decoded.status();
          break;
        }
        piped.event.emplace(*std::move(decoded));
      }
      // The reader's core wrote the next event: ask for its bytes now, so
      // that they arrive while this one is hashed and visited.
      if (i + 1 < batch.size()) {
        const PipedEvent& next = batch[i + 1];
        Prefetch(next.event.has_value() ? next.event->bytes() : next.bytes);
      }
      checked = check(*piped.event);
    }
  }
  if (!checked.ok()) queue.Stop();
  reader.join();
  return checked.ok() ? read_status : checked;
}

}  // namespace combat::store

#endif  // COMBAT_STORE_SCAN_PIPELINE_H_
