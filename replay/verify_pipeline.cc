#include "replay/verify_pipeline.h"

#include <utility>

namespace combat::replay {

PrecheckPipeline::PrecheckPipeline(PrecheckObserver observer)
    : observer_(std::move(observer)), worker_([this] { Work(); }) {}

PrecheckPipeline::~PrecheckPipeline() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  changed_.notify_all();
  worker_.join();
}

Prechecked PrecheckPipeline::Check(const events::EventBuffer& event) {
  Prechecked out;
  out.canonical = event.CheckCanonical("").ok();
  out.hash = event.hash();
  return out;
}

void PrecheckPipeline::CheckBatch(PrecheckBatch& batch) {
  batch.checked.clear();
  batch.checked.reserve(batch.events.size());
  for (const events::EventBuffer& e : batch.events) {
    Prechecked& out = batch.checked.emplace_back(Check(e));
    if (!observer_.observe || observer_failed_) continue;
    out.observed = observer_.observe(e);
    if (out.observed.ok()) continue;
    observer_failed_ = true;
    out.observed_seq = observer_.observed_seq ? observer_.observed_seq() : 0;
  }
}

void PrecheckPipeline::Submit(PrecheckBatch batch) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    todo_.push_back(std::move(batch));
  }
  ++pending_;
  changed_.notify_all();
}

PrecheckBatch PrecheckPipeline::Take() {
  std::unique_lock<std::mutex> lock(mu_);
  changed_.wait(lock, [this] { return !done_.empty(); });
  PrecheckBatch batch = std::move(done_.front());
  done_.pop_front();
  --pending_;
  return batch;
}

void PrecheckPipeline::Work() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    changed_.wait(lock, [this] { return stopping_ || !todo_.empty(); });
    if (stopping_) return;
    PrecheckBatch batch = std::move(todo_.front());
    todo_.pop_front();
    lock.unlock();
    CheckBatch(batch);
    lock.lock();
    done_.push_back(std::move(batch));
    changed_.notify_all();
  }
}

}  // namespace combat::replay
