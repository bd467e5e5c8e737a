#include "server/hub.h"

namespace combat::server {
namespace {

std::string Key(const std::string& session, const std::string& branch) {
  std::string k = session;
  k.push_back('\0');
  k += branch;
  return k;
}

}  // namespace

void BranchHub::Announce(const std::string& session, const std::string& branch,
                         uint64_t seq) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    uint64_t& head = heads_[Key(session, branch)];
    if (seq > head) head = seq;
  }
  cv_.notify_all();
}

bool BranchHub::WaitPast(const std::string& session, const std::string& branch,
                         uint64_t seq, std::chrono::milliseconds timeout) {
  const std::string key = Key(session, branch);
  std::unique_lock<std::mutex> lock(mu_);
  const uint64_t wakes = wakes_;
  cv_.wait_for(lock, timeout, [&] {
    if (shutdown_ || wakes_ != wakes) return true;
    auto it = heads_.find(key);
    return it != heads_.end() && it->second > seq;
  });
  return !shutdown_;
}

void BranchHub::WakeAll() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    ++wakes_;
  }
  cv_.notify_all();
}

void BranchHub::Shutdown() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    shutdown_ = true;
  }
  cv_.notify_all();
}

bool BranchHub::shut_down() const {
  std::lock_guard<std::mutex> lock(mu_);
  return shutdown_;
}

bool BranchHub::TakeWatcher() {
  std::lock_guard<std::mutex> lock(mu_);
  if (shutdown_ || watchers_ >= max_watchers_) return false;
  ++watchers_;
  return true;
}

void BranchHub::ReleaseWatcher() {
  std::lock_guard<std::mutex> lock(mu_);
  if (watchers_ > 0) --watchers_;
}

size_t BranchHub::watchers() const {
  std::lock_guard<std::mutex> lock(mu_);
  return watchers_;
}

}  // namespace combat::server
