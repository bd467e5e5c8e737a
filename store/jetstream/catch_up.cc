// The stream read into the replica (log_impl.h): the last sequence, one
// message, its apply in stream order, and the coalesced catch-up.
#include <nats/nats.h>

#include <cstdlib>
#include <string>

#include "absl/strings/str_cat.h"
#include "events/hash.h"
#include "events/status_macros.h"
#include "rocksdb/db.h"
#include "store/jetstream/log_impl.h"
#include "store/jetstream/records.h"

namespace combat::store::jetstream {

absl::StatusOr<uint64_t> JetStreamLog::LastSeq() const {
  // A node that has just restarted, or the meta leader answering for a
  // stream without a leader, may report a state behind the stream's: such
  // an answer (no leader named, fewer messages than this open already
  // read, or a gap) is asked again for up to kSettle before it counts as
  // loss.
  const auto deadline = std::chrono::steady_clock::now() + kSettle;
  for (;;) {
    jsStreamInfo* si = nullptr;
    jsErrCode jerr = static_cast<jsErrCode>(0);
    natsStatus s =
        js_GetStreamInfo(&si, js_, config_.stream().c_str(), nullptr, &jerr);
    absl::Status problem;
    uint64_t last = 0;
    if (s != NATS_OK) {
      if (s == NATS_NOT_FOUND || jerr == JSStreamNotFoundErr) {
        problem = absl::DataLossError(absl::StrCat(
            "log ", url_, ": stream ", config_.stream(),
            " no longer exists (its events are gone)"));
      } else {
        return absl::UnavailableError(absl::StrCat(
            "log ", url_, ": reading stream ", config_.stream(), ": ",
            NatsText(s, jerr)));
      }
    } else {
      last = si->State.LastSeq;
      const uint64_t first = si->State.FirstSeq;
      const uint64_t msgs = si->State.Msgs;
      const bool leaderless = si->Cluster != nullptr &&
                              (si->Cluster->Leader == nullptr ||
                               si->Cluster->Leader[0] == '\0');
      jsStreamInfo_Destroy(si);
      if (leaderless) {
        problem = absl::UnavailableError(absl::StrCat(
            "log ", url_, ": stream ", config_.stream(),
            " has no leader now (no quorum of its replicas)"));
      } else if (last > 0 && (first != 1 || msgs != last)) {
        problem = absl::DataLossError(absl::StrCat(
            "log ", url_, ": stream ", config_.stream(), " holds ", msgs,
            " messages in seqs ", first, "..", last,
            ": messages were removed, the log would be shorter"));
      } else {
        uint64_t applied = 0;
        {
          std::lock_guard<std::mutex> lock(apply_mu_);
          applied = applied_;
        }
        if (last < applied) {
          problem = absl::DataLossError(absl::StrCat(
              "log ", url_, ": stream ", config_.stream(), " ends at seq ", last,
              ", but this process already read seq ", applied,
              " from it: acknowledged messages are gone"));
        } else {
          return last;
        }
      }
    }
    if (std::chrono::steady_clock::now() > deadline) return problem;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

absl::StatusOr<JetStreamLog::Fetched> JetStreamLog::Fetch(uint64_t seq) const {
  const std::string context =
      absl::StrCat("log ", url_, ": stream ", config_.stream(), " seq ", seq);
  natsMsg* msg = nullptr;
  jsErrCode jerr = static_cast<jsErrCode>(0);
  natsStatus s = NATS_OK;
  const auto deadline = std::chrono::steady_clock::now() + kSettle;
  for (;;) {
    jerr = static_cast<jsErrCode>(0);
    s = js_GetMsg(&msg, js_, config_.stream().c_str(), seq, nullptr, &jerr);
    const bool missing = s == NATS_NOT_FOUND || jerr == JSNoMessageFoundErr;
    // A node behind the stream may answer for a moment (see LastSeq).
    if (!missing || std::chrono::steady_clock::now() > deadline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  if (s != NATS_OK) {
    if (s == NATS_NOT_FOUND || jerr == JSNoMessageFoundErr) {
      return absl::DataLossError(
          absl::StrCat(context, ": the message is missing"));
    }
    return absl::UnavailableError(
        absl::StrCat(context, ": reading: ", NatsText(s, jerr)));
  }
  std::unique_ptr<natsMsg, void (*)(natsMsg*)> owned(msg, natsMsg_Destroy);
  return Read(seq, msg);
}

absl::StatusOr<JetStreamLog::Fetched> JetStreamLog::Read(uint64_t seq, natsMsg* msg) const {
  const std::string context =
      absl::StrCat("log ", url_, ": stream ", config_.stream(), " seq ", seq);
  Fetched out;
  out.subject = natsMsg_GetSubject(msg);
  out.payload.assign(natsMsg_GetData(msg), natsMsg_GetDataLength(msg));
  const char* sha = nullptr;
  if (natsMsgHeader_Get(msg, kShaHeader, &sha) != NATS_OK || sha == nullptr ||
      events::Hex(events::Sha256(out.payload)) != sha) {
    return absl::DataLossError(absl::StrCat(
        context, " (subject ", out.subject, "): the payload does not match its ",
        kShaHeader, " header"));
  }
  const char* value = nullptr;
  if (natsMsgHeader_Get(msg, "Combat-Session", &value) == NATS_OK && value != nullptr) {
    out.change.session = value;
  }
  if (natsMsgHeader_Get(msg, "Combat-Branch", &value) == NATS_OK && value != nullptr) {
    out.change.branch = value;
  }
  if (natsMsgHeader_Get(msg, "Combat-Head-Seq", &value) == NATS_OK && value != nullptr) {
    out.change.head_seq = std::strtoull(value, nullptr, 10);
  }
  return out;
}

absl::Status JetStreamLog::ApplyInOrder(uint64_t seq, const Fetched& message) const {
  const std::string context =
      absl::StrCat("log ", url_, ": stream ", config_.stream(), " seq ", seq);
  {
    std::lock_guard<std::mutex> lock(apply_mu_);
    if (AppliedLocked(seq)) return absl::OkStatus();
    if (seq != applied_ + 1) {
      return absl::InternalError(absl::StrCat(
          context, ": applied out of order (the replica holds up to seq ",
          applied_, ")"));
    }
    rocksdb::WriteBatch batch;
    rocksdb::DB* db = replica_->db();
    RETURN_IF_ERROR(DecodeBatch(
        message.payload, context,
        [db](const std::string& key) {
          std::string value;
          return db->Get(rocksdb::ReadOptions(), key, &value).ok();
        },
        &batch));
    rocksdb::WriteOptions w;
    w.sync = false;  // the replica is rebuilt from the stream at every open
    rocksdb::Status s = db->Write(w, &batch);
    if (!s.ok()) {
      return absl::InternalError(absl::StrCat(
          context, ": applying it to the replica in ", replica_dir_, ": ",
          s.ToString()));
    }
    NoteApplied(seq, message.subject);
  }
  Notify(message.change);
  return absl::OkStatus();
}

absl::Status JetStreamLog::CatchUpTo(uint64_t target) const {
  for (;;) {
    uint64_t seq = 0;
    {
      std::lock_guard<std::mutex> lock(apply_mu_);
      if (applied_ >= target) return absl::OkStatus();
      seq = applied_ + 1;  // never in ahead_ (NoteApplied moves past them)
    }
    ASSIGN_OR_RETURN(Fetched message, Fetch(seq));
    RETURN_IF_ERROR(ApplyInOrder(seq, message));
  }
}

absl::Status JetStreamLog::CatchUpOnce() const {
  ASSIGN_OR_RETURN(uint64_t last, LastSeq());
  return CatchUpTo(last);
}

absl::Status JetStreamLog::CatchUp() const {
  std::unique_lock<std::mutex> lock(catch_up_mu_);
  // A catch-up in flight may have asked for the last sequence before this
  // call began: wait for one that starts after it.
  const uint64_t wanted = catch_up_started_ + 1;
  while (catch_up_done_ < wanted) {
    if (catch_up_running_) {
      catch_up_cv_.wait(lock);
      continue;
    }
    catch_up_running_ = true;
    const uint64_t generation = ++catch_up_started_;
    lock.unlock();
    absl::Status status = CatchUpOnce();
    lock.lock();
    catch_up_running_ = false;
    catch_up_done_ = generation;
    catch_up_status_ = status;
    catch_up_cv_.notify_all();
  }
  return catch_up_status_;
}

}  // namespace combat::store::jetstream
