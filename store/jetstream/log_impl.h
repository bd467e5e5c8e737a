// The JetStream log's class (internal to store/jetstream/): one open of a
// log, its local replica and its catch-up state, shared by its .cc files
// (one concept each):
//   jetstream_log.cc   open, close, the write path (Writing, the sink's
//                      publish and apply), import;
//   catch_up.cc        the stream read into the replica: LastSeq, Fetch,
//                      ApplyInOrder, the coalesced CatchUp;
//   follow.cc          Follow: the ordered consumer and the periodic
//                      catch-up of a following open;
//   participants.cc    JetStreamParticipants (store/participants.h).
// store/jetstream/README.md says how a write goes and what is guaranteed.
#ifndef COMBAT_STORE_JETSTREAM_LOG_IMPL_H_
#define COMBAT_STORE_JETSTREAM_LOG_IMPL_H_

#include <nats/nats.h>
#include <stdlib.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "events/status_macros.h"
#include "rocksdb/write_batch.h"
#include "store/batch_sink.h"
#include "store/event_log.h"
#include "store/jetstream/url.h"
#include "store/participants.h"
#include "store/rocks_log.h"
#include "store/write_locks.h"

namespace combat::store::jetstream {


inline constexpr char kStalePayload[] = "combat.jetstream/stale";
inline constexpr char kShaHeader[] = "Combat-Sha256";
inline constexpr int64_t kRequestWaitMs = 5000;
// How long an answer that looks like loss is asked again (LastSeq).
inline constexpr auto kSettle = std::chrono::seconds(10);
// A following open (EventLog::Follow) catches up at least this often,
// whatever its consumer delivered.
inline constexpr auto kFollowPeriod = std::chrono::seconds(1);

inline std::string NatsText(natsStatus s, jsErrCode jerr) {
  std::string text = natsStatus_GetText(s);
  const char* last = nats_GetLastError(nullptr);
  if (last != nullptr && *last != '\0') absl::StrAppend(&text, ": ", last);
  if (jerr != 0) absl::StrAppend(&text, " (JetStream error ", static_cast<int>(jerr), ")");
  return text;
}

// The replica was behind the stream when it decided a write: catch up and
// decide again.
inline absl::Status Stale(absl::string_view why) {
  absl::Status s = absl::AbortedError(why);
  s.SetPayload(kStalePayload, absl::Cord("1"));
  return s;
}
inline bool IsStale(const absl::Status& s) {
  return s.GetPayload(kStalePayload).has_value();
}
template <typename T>
absl::Status StatusOf(const absl::StatusOr<T>& s) { return s.status(); }
inline absl::Status StatusOf(const absl::Status& s) { return s; }

// What a write publishes with as its subject's expected last sequence:
// the sequence of the last message on `subject` this open had applied
// *before* the write read the replica (JetStreamLog::Writing sets it for
// the thread, the sink reads it). Taken before the read, it is never ahead
// of the state the write was decided on: a message on the subject that
// arrives in between makes the publish fail (wrong last sequence), and the
// write is decided again; taken after, it could vouch for a state the
// write never saw.
struct Expectation {
  const void* log = nullptr;
  std::string subject;
  std::optional<uint64_t> last;  // nullopt: no message on the subject yet
};
extern thread_local Expectation* t_expectation;  // jetstream_log.cc

// A fresh directory under $TMPDIR (or /tmp).
inline absl::StatusOr<std::string> TempDir(absl::string_view name) {
  const char* tmp = getenv("TMPDIR");
  std::string dir = absl::StrCat(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp",
                                 "/", name, "-XXXXXX");
  if (mkdtemp(dir.data()) == nullptr) {
    return absl::InternalError(absl::StrCat("mkdtemp ", dir, " failed"));
  }
  return dir;
}

class JetStreamLog;

// store/participants.h on JetStream: the replica's participants (the
// RocksDB backend's checks), written through JetStreamLog::Writing as one
// message on `<PREFIX>.<session>.~participants`.
class JetStreamParticipants final : public ParticipantStore {
 public:
  explicit JetStreamParticipants(JetStreamLog* log) : log_(log) {}
  absl::Status Add(const Participant& p, const std::string& token_hash) override;
  absl::Status Found(const Participant& gm, const std::string& token_hash) override;
  absl::Status Revoke(const std::string& session, const std::string& name) override;
  absl::Status AddOperator(const std::string& name,
                           const std::string& token_hash) override;
  absl::StatusOr<std::optional<std::string>> FindOperator(
      const std::string& token_hash) const override;
  absl::StatusOr<std::optional<Participant>> Find(
      const std::string& session, const std::string& token_hash) const override;
  absl::StatusOr<std::vector<Participant>> List(const std::string& session) const override;

 private:
  JetStreamLog* log_;
};

class JetStreamLog final : public EventLog, private BatchSink {
 public:
  static absl::StatusOr<std::unique_ptr<EventLog>> Open(const std::string& url,
                                                        const Options& options);
  ~JetStreamLog() override;

  // ---- LogReader: catch up, then read the replica.
  absl::StatusOr<SessionMeta> GetSession(const std::string& session) const override {
    RETURN_IF_ERROR(CatchUp());
    return replica_->GetSession(session);
  }
  absl::StatusOr<std::vector<std::string>> ListSessions() const override {
    RETURN_IF_ERROR(CatchUp());
    return replica_->ListSessions();
  }
  absl::StatusOr<std::vector<uint8_t>> GetSecret(const std::string& session) const override {
    RETURN_IF_ERROR(CatchUp());
    return replica_->GetSecret(session);
  }
  absl::StatusOr<std::vector<uint8_t>> GetSecretFor(
      const std::string& session, const std::vector<uint8_t>& commitment) const override {
    RETURN_IF_ERROR(CatchUp());
    return replica_->GetSecretFor(session, commitment);
  }
  absl::StatusOr<std::vector<StoredSecret>> ListSecrets(
      const std::string& session) const override {
    RETURN_IF_ERROR(CatchUp());
    return replica_->ListSecrets(session);
  }
  absl::StatusOr<std::optional<RevealMarker>> GetReveal(
      const std::string& session, const std::vector<uint8_t>& commitment) const override {
    RETURN_IF_ERROR(CatchUp());
    return replica_->GetReveal(session, commitment);
  }
  absl::StatusOr<std::vector<RevealMarker>> ListReveals(
      const std::string& session) const override {
    RETURN_IF_ERROR(CatchUp());
    return replica_->ListReveals(session);
  }
  absl::StatusOr<std::vector<uint8_t>> GetSigningKey(
      const std::string& session) const override {
    RETURN_IF_ERROR(CatchUp());
    return replica_->GetSigningKey(session);
  }
  absl::StatusOr<BranchMeta> GetBranch(const std::string& session,
                                       const std::string& branch) const override {
    RETURN_IF_ERROR(CatchUp());
    return replica_->GetBranch(session, branch);
  }
  absl::StatusOr<std::vector<BranchMeta>> ListBranches(
      const std::string& session) const override {
    RETURN_IF_ERROR(CatchUp());
    return replica_->ListBranches(session);
  }
  absl::StatusOr<Head> GetHead(const std::string& session,
                               const std::string& branch) const override {
    RETURN_IF_ERROR(CatchUp());
    return replica_->GetHead(session, branch);
  }
  absl::StatusOr<std::optional<AppendResult>> FindCommand(
      const std::string& session, const std::string& branch,
      const std::string& command_id) const override {
    RETURN_IF_ERROR(CatchUp());
    return replica_->FindCommand(session, branch, command_id);
  }
  absl::Status Scan(const std::string& session, const std::string& branch,
                    uint64_t from, uint64_t to,
                    const std::function<absl::Status(const events::EventBuffer&)>& visit,
                    ScanReporter* reporter) const override {
    RETURN_IF_ERROR(CatchUp());
    return replica_->Scan(session, branch, from, to, visit, reporter);
  }

  // ---- LogWriter: decided on the caught-up replica, published, applied.
  absl::Status CreateSession(const SessionMeta& meta,
                             const std::vector<uint8_t>& secret_seed) override {
    return Writing<absl::Status>("creating a session", meta.session, "main", [&] {
      return replica_->CreateSession(meta, secret_seed);
    });
  }
  absl::Status CreateSession(const SessionMeta& meta,
                             const std::vector<uint8_t>& secret_seed,
                             const std::string& command_id,
                             const std::vector<events::EventBuffer>& first,
                             const std::vector<uint8_t>& signing_key) override {
    return Writing<absl::Status>("creating a session", meta.session, "main", [&] {
      return replica_->CreateSession(meta, secret_seed, command_id, first,
                                     signing_key);
    });
  }
  absl::Status Fork(const std::string& session, const std::string& parent,
                    uint64_t fork_seq, const std::string& branch,
                    const std::string& author, const std::string& reason) override {
    return Writing<absl::Status>("forking", session, branch, [&] {
      return replica_->Fork(session, parent, fork_seq, branch, author, reason);
    });
  }
  absl::Status Fork(const std::string& session, const std::string& parent,
                    uint64_t fork_seq, const std::string& branch,
                    const std::string& author, const std::string& reason,
                    const events::EventBuffer& record) override {
    return Writing<absl::Status>("forking", session, branch, [&] {
      return replica_->Fork(session, parent, fork_seq, branch, author, reason,
                            record);
    });
  }
  absl::StatusOr<AppendResult> Append(
      const std::string& session, const std::string& branch,
      uint64_t expected_seq, const std::string& command_id,
      const std::vector<events::EventBuffer>& events,
      const std::optional<events::Digest>& content) override {
    return Writing<absl::StatusOr<AppendResult>>("appending", session, branch, [&] {
      return replica_->Append(session, branch, expected_seq, command_id,
                              events, content);
    });
  }
  absl::StatusOr<AppendResult> AppendReveal(
      const std::string& session, const std::string& branch,
      uint64_t expected_seq, const std::string& command_id,
      const std::vector<events::EventBuffer>& events,
      const std::optional<events::Digest>& content,
      const RevealRecord& reveal) override {
    return Writing<absl::StatusOr<AppendResult>>("appending a reveal", session, branch, [&] {
      return replica_->AppendReveal(session, branch, expected_seq, command_id,
                                    events, content, reveal);
    });
  }
  // The RocksDB backend's import (all its checks) into a scratch database;
  // its records are then one message, on the session's main subject.
  absl::StatusOr<uint64_t> ImportSession(
      const SessionMeta& meta, const std::vector<uint8_t>& secret,
      const std::vector<ImportBranch>& branches, Canonical canonical,
      const std::vector<uint8_t>& signing_key,
      const std::vector<std::vector<uint8_t>>& later_secrets) override;

  // ---- SnapshotCache: the local replica's (store/jetstream/README.md).
  absl::Status PutSnapshot(const std::string& session, const std::string& branch,
                           uint64_t seq, int32_t ruleset_version,
                           const std::vector<uint8_t>& state) override {
    RETURN_IF_ERROR(CheckWritable("storing a snapshot"));
    RETURN_IF_ERROR(CatchUp());
    return replica_->PutSnapshot(session, branch, seq, ruleset_version, state);
  }
  absl::StatusOr<std::optional<Snapshot>> NearestSnapshot(
      const std::string& session, const std::string& branch, uint64_t seq,
      int32_t ruleset_version) const override {
    RETURN_IF_ERROR(CatchUp());
    return replica_->NearestSnapshot(session, branch, seq, ruleset_version);
  }
  absl::StatusOr<uint64_t> CountSnapshots(const std::string& session) const override {
    return replica_->CountSnapshots(session);
  }

  // ---- EventLog.
  bool read_only() const override { return read_only_; }
  absl::Status VerifyChecksums() const override;
  absl::Status SyncWal() override {
    // Every acknowledged publish is already stored on a quorum of the
    // stream's replicas; there is no local write-ahead log to sync.
    return CheckWritable("syncing");
  }
  absl::Status Compact() override {
    return absl::UnimplementedError(absl::StrCat(
        "log ", url_, ": compaction is not offered by the JetStream backend "
        "(the stream is the log; its servers manage their own files)"));
  }
  absl::Status Follow(ChangeListener listener) override;

 private:
  friend class JetStreamParticipants;
  ParticipantStore& participants() override { return participants_; }

  JetStreamLog() : participants_(this) {}
  absl::Status Connect();
  absl::Status EnsureStream(bool may_create);

  absl::Status CheckWritable(absl::string_view what) const {
    if (!read_only_) return absl::OkStatus();
    return absl::FailedPreconditionError(
        absl::StrCat(what, ": log ", url_, " was opened read-only"));
  }

  // The subject of `session`'s `branch` (kParticipantsBranch: its
  // participants; session "": the operators, "~operators", which no id
  // admits, keeps the subject's tokens non-empty).
  std::string SubjectOf(const std::string& session, const std::string& branch) const {
    return absl::StrCat(config_.prefix, ".",
                        session.empty() ? "~operators" : SubjectToken(session), ".",
                        SubjectToken(branch));
  }

  // The stream's last sequence (one request).
  absl::StatusOr<uint64_t> LastSeq() const;
  // One message of the stream, its hash checked, and what it changed.
  struct Fetched {
    std::string subject;
    std::string payload;
    LogChange change;
  };
  // `msg` (message `seq` of the stream) read and checked.
  absl::StatusOr<Fetched> Read(uint64_t seq, natsMsg* msg) const;
  // Message `seq` (DataLoss when the stream lacks it or it is damaged).
  absl::StatusOr<Fetched> Fetch(uint64_t seq) const;
  // Applies message `seq` of the stream to the replica unless it already
  // is; every message before it must be (stream order: reveal markers keep
  // the first). Takes apply_mu_. Reports it to the listener (Follow) once
  // applied.
  absl::Status ApplyInOrder(uint64_t seq, const Fetched& message) const;
  // Applies every message up to the stream's last as the stream answers
  // after the call began. Catch-ups are coalesced: a caller waits for the
  // one in flight and then for one that started after it came (one stream
  // info request serves every reader waiting).
  absl::Status CatchUp() const;
  // One catch-up: the last sequence, then every message up to it.
  absl::Status CatchUpOnce() const;
  absl::Status CatchUpTo(uint64_t target) const;

  // The last message on `subject` this open applied (nullopt: none).
  std::optional<uint64_t> LastOnSubject(const std::string& subject) const {
    std::lock_guard<std::mutex> lock(apply_mu_);
    auto it = subject_seq_.find(subject);
    if (it == subject_seq_.end()) return std::nullopt;
    return it->second;
  }
  bool AppliedLocked(uint64_t seq) const {
    return seq <= applied_ || ahead_.count(seq) > 0;
  }

  // Runs `op`, a write of `session`'s `branch` (its subject), on the
  // replica as it is: a write it accepts was published with the subject's
  // expected last sequence as it was before `op` read the replica
  // (Expectation), so it was decided on the branch as the stream holds it
  // (and on parts of the rest that never change: ancestors' prefixes,
  // stored secrets). Any refusal may come from a replica that is behind:
  // it is decided again after a catch-up, and only then returned. Writes
  // of different subjects run concurrently; those of one subject in this
  // open take turns (subject_locks_), so they do not publish against each
  // other's stale expectations.
  template <typename T>
  T Writing(absl::string_view what, const std::string& session,
            const std::string& branch, const std::function<T()>& op) {
    RETURN_IF_ERROR(CheckWritable(what));
    const std::string subject = SubjectOf(session, branch);
    WriteLocks::Guard turn = subject_locks_.Lock({subject});
    bool caught_up = false;
    for (int attempt = 0;; ++attempt) {
      Expectation expect{this, subject, LastOnSubject(subject)};
      t_expectation = &expect;
      T result = op();
      t_expectation = nullptr;
      const absl::Status status = StatusOf(result);
      if (status.ok() || (caught_up && !IsStale(status))) return result;
      if (attempt >= 1000) {
        return absl::UnavailableError(absl::StrCat(
            what, " on log ", url_, ": other writers kept moving the branch "
            "(1000 attempts); nothing was written"));
      }
      RETURN_IF_ERROR(CatchUp());
      caught_up = true;
    }
  }

  // Marks stream seq `seq` applied (its subject's last is `subject`'s).
  // REQUIRES: apply_mu_ held.
  void NoteApplied(uint64_t seq, const std::string& subject) const {
    uint64_t& last = subject_seq_[subject];
    if (seq > last) last = seq;
    if (seq == applied_ + 1) {
      applied_ = seq;
      while (!ahead_.empty() && *ahead_.begin() == applied_ + 1) {
        applied_ = *ahead_.begin();
        ahead_.erase(ahead_.begin());
      }
    } else if (seq > applied_) {
      ahead_.insert(seq);
    }
  }

  // BatchSink: publish, then apply through the stream.
  absl::Status Write(rocksdb::WriteBatch* batch, absl::string_view context,
                     const std::string& session, const std::string& branch,
                     const Head& head) override;

  std::string url_;
  Url config_;
  bool read_only_ = false;
  natsOptions* opts_ = nullptr;
  natsConnection* nc_ = nullptr;
  jsCtx* js_ = nullptr;
  std::string replica_dir_;
  std::unique_ptr<RocksEventLog> replica_;
  JetStreamParticipants participants_;
  // The turns of this open's writers of one subject (Writing).
  WriteLocks subject_locks_;
  // Guards applied_, ahead_ and subject_seq_, and is held while a message
  // of the stream is applied to the replica (so each is applied once).
  // Never held across a request to the servers.
  mutable std::mutex apply_mu_;
  // Every stream seq <= applied_ is applied to the replica, and those in
  // ahead_ (this open's own writes, applied as they were acknowledged).
  mutable uint64_t applied_ = 0;
  mutable std::set<uint64_t> ahead_;
  mutable std::map<std::string, uint64_t> subject_seq_;  // last per subject
  // Following (Follow): the listener (called under listener_mu_), the
  // ordered consumer, and the thread that catches up every kFollowPeriod
  // or when the consumer met a gap (follow_kick_).
  mutable std::mutex listener_mu_;
  ChangeListener listener_;
  std::mutex follow_mu_;
  std::condition_variable follow_cv_;
  bool following_ = false, follow_stop_ = false, follow_kick_ = false;
  std::thread follower_;
  natsSubscription* sub_ = nullptr;
  static void OnMessage(natsConnection*, natsSubscription*, natsMsg* msg, void* self);
  void KickFollower() {
    std::lock_guard<std::mutex> lock(follow_mu_);
    follow_kick_ = true;
    follow_cv_.notify_all();
  }
  void Notify(const LogChange& change) const {
    std::lock_guard<std::mutex> lock(listener_mu_);
    if (listener_) listener_(change);
  }
  // The coalesced catch-ups (CatchUp): started and finished generations,
  // whether one is running, and the last one's result.
  mutable std::mutex catch_up_mu_;
  mutable std::condition_variable catch_up_cv_;
  mutable uint64_t catch_up_started_ = 0;
  mutable uint64_t catch_up_done_ = 0;
  mutable bool catch_up_running_ = false;
  mutable absl::Status catch_up_status_;
};

}  // namespace combat::store::jetstream

#endif  // COMBAT_STORE_JETSTREAM_LOG_IMPL_H_
