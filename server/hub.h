// Who is waiting for a branch to grow (the live stream, sse.h): writers
// announce each new head; watchers wait for one past what they have sent.
// Writers never wait on watchers: Announce takes one short lock and wakes
// them. Watchers read the events themselves from the log.
#ifndef COMBAT_SERVER_HUB_H_
#define COMBAT_SERVER_HUB_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

namespace combat::server {

class BranchHub {
 public:
  explicit BranchHub(size_t max_watchers) : max_watchers_(max_watchers) {}

  // `branch` of `session` now ends at `seq`.
  void Announce(const std::string& session, const std::string& branch, uint64_t seq);

  // Waits until a head past `seq` is announced for the branch, `timeout`
  // passes, WakeAll, or Shutdown. True unless shut down.
  bool WaitPast(const std::string& session, const std::string& branch, uint64_t seq,
                std::chrono::milliseconds timeout);

  // Wakes every watcher once (a token was revoked: each stream checks that
  // its token still holds).
  void WakeAll();

  // Wakes every watcher for good (the server is stopping).
  void Shutdown();
  bool shut_down() const;

  // A watcher slot; false when `max_watchers` streams are open (the threads
  // left must serve writers). Release each slot taken.
  bool TakeWatcher();
  void ReleaseWatcher();
  size_t watchers() const;

 private:
  const size_t max_watchers_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::string, uint64_t> heads_;  // "<session>\0<branch>" -> seq
  size_t watchers_ = 0;
  uint64_t wakes_ = 0;  // WakeAll calls
  bool shutdown_ = false;
};

}  // namespace combat::server

#endif  // COMBAT_SERVER_HUB_H_
