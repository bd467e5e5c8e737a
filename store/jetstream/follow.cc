// A following open (EventLog::Follow, log_impl.h): the ordered consumer
// that applies the stream as it is delivered, and the periodic catch-up.
#include <nats/nats.h>

#include <string>

#include "absl/strings/str_cat.h"
#include "events/hash.h"
#include "events/status_macros.h"
#include "rocksdb/db.h"
#include "store/jetstream/log_impl.h"
#include "store/jetstream/records.h"

namespace combat::store::jetstream {

void JetStreamLog::OnMessage(natsConnection*, natsSubscription*, natsMsg* msg,
                             void* self) {
  std::unique_ptr<natsMsg, void (*)(natsMsg*)> owned(msg, natsMsg_Destroy);
  auto* log = static_cast<JetStreamLog*>(self);
  jsMsgMetaData* meta = nullptr;
  if (natsMsg_GetMetaData(&meta, msg) != NATS_OK) return;  // not a stream message
  const uint64_t seq = meta->Sequence.Stream;
  jsMsgMetaData_Destroy(meta);
  {
    std::lock_guard<std::mutex> lock(log->apply_mu_);
    if (log->AppliedLocked(seq)) return;
    if (seq != log->applied_ + 1) {  // a message before it is missing here
      log->KickFollower();
      return;
    }
  }
  absl::StatusOr<Fetched> message = log->Read(seq, msg);
  // Damage, or a failed apply, is left to the catch-up, which reports it to
  // the next read.
  if (!message.ok() || !log->ApplyInOrder(seq, *message).ok()) log->KickFollower();
}

absl::Status JetStreamLog::Follow(ChangeListener listener) {
  {
    std::lock_guard<std::mutex> lock(listener_mu_);
    listener_ = std::move(listener);
  }
  std::lock_guard<std::mutex> lock(follow_mu_);
  if (following_) return absl::OkStatus();
  uint64_t from = 0;
  {
    std::lock_guard<std::mutex> applied(apply_mu_);
    from = applied_ + 1;
  }
  const std::string subjects = config_.prefix + ".>";
  const std::string stream = config_.stream();
  jsSubOptions so;
  jsSubOptions_Init(&so);
  so.Stream = stream.c_str();
  so.Ordered = true;
  so.Config.DeliverPolicy = js_DeliverByStartSequence;
  so.Config.OptStartSeq = from;
  jsErrCode jerr = static_cast<jsErrCode>(0);
  natsStatus s = js_Subscribe(&sub_, js_, subjects.c_str(), &JetStreamLog::OnMessage,
                              this, nullptr, &so, &jerr);
  if (s != NATS_OK) {
    sub_ = nullptr;
    return absl::UnavailableError(absl::StrCat(
        "log ", url_, ": following stream ", stream, ": ", NatsText(s, jerr)));
  }
  following_ = true;
  follower_ = std::thread([this] {
    std::unique_lock<std::mutex> lock(follow_mu_);
    while (!follow_stop_) {
      follow_cv_.wait_for(lock, kFollowPeriod,
                          [this] { return follow_stop_ || follow_kick_; });
      if (follow_stop_) break;
      follow_kick_ = false;
      lock.unlock();
      (void)CatchUp();  // an error is the next read's to report
      lock.lock();
    }
  });
  return absl::OkStatus();
}

}  // namespace combat::store::jetstream
