#include "store/jetstream/jetstream_log.h"

#include <nats/nats.h>
#include <stdlib.h>

#include <cstdlib>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "events/hash.h"
#include "events/status_macros.h"
#include "rocksdb/db.h"
#include "store/batch_sink.h"
#include "store/jetstream/records.h"
#include "store/jetstream/url.h"
#include "store/participants.h"
#include "store/rocks_log.h"
#include "store/write_locks.h"

namespace combat::store::jetstream {
namespace {

constexpr char kStalePayload[] = "combat.jetstream/stale";
constexpr char kShaHeader[] = "Combat-Sha256";
constexpr int64_t kRequestWaitMs = 5000;
// How long an answer that looks like loss is asked again (LastSeq).
constexpr auto kSettle = std::chrono::seconds(10);
// A following open (EventLog::Follow) catches up at least this often,
// whatever its consumer delivered.
constexpr auto kFollowPeriod = std::chrono::seconds(1);

std::string NatsText(natsStatus s, jsErrCode jerr) {
  std::string text = natsStatus_GetText(s);
  const char* last = nats_GetLastError(nullptr);
  if (last != nullptr && *last != '\0') absl::StrAppend(&text, ": ", last);
  if (jerr != 0) absl::StrAppend(&text, " (JetStream error ", static_cast<int>(jerr), ")");
  return text;
}

// The replica was behind the stream when it decided a write: catch up and
// decide again.
absl::Status Stale(absl::string_view why) {
  absl::Status s = absl::AbortedError(why);
  s.SetPayload(kStalePayload, absl::Cord("1"));
  return s;
}
bool IsStale(const absl::Status& s) {
  return s.GetPayload(kStalePayload).has_value();
}
template <typename T>
absl::Status StatusOf(const absl::StatusOr<T>& s) { return s.status(); }
absl::Status StatusOf(const absl::Status& s) { return s; }

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
thread_local Expectation* t_expectation = nullptr;

// A fresh directory under $TMPDIR (or /tmp).
absl::StatusOr<std::string> TempDir(absl::string_view name) {
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

absl::Status JetStreamLog::Connect() {
  std::vector<const char*> servers;
  for (const std::string& s : config_.servers) servers.push_back(s.c_str());
  natsStatus s = natsOptions_Create(&opts_);
  if (s == NATS_OK) {
    s = natsOptions_SetServers(opts_, servers.data(),
                               static_cast<int>(servers.size()));
  }
  if (s == NATS_OK) s = natsOptions_SetTimeout(opts_, 2000);
  if (s == NATS_OK) s = natsOptions_SetMaxReconnect(opts_, -1);
  if (s == NATS_OK) s = natsOptions_SetReconnectWait(opts_, 100);
  if (s == NATS_OK) s = natsConnection_Connect(&nc_, opts_);
  jsOptions jo;
  if (s == NATS_OK) s = jsOptions_Init(&jo);
  jo.Wait = kRequestWaitMs;
  if (s == NATS_OK) s = natsConnection_JetStream(&js_, nc_, &jo);
  if (s != NATS_OK) {
    return absl::UnavailableError(absl::StrCat(
        "log ", url_, ": cannot connect to NATS: ", NatsText(s, static_cast<jsErrCode>(0))));
  }
  return absl::OkStatus();
}

absl::Status JetStreamLog::EnsureStream(bool may_create) {
  const std::string stream = config_.stream();
  const std::string subjects = config_.prefix + ".>";
  const char* subject_list[] = {subjects.c_str()};
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  std::string last;
  while (std::chrono::steady_clock::now() < deadline) {
    jsStreamInfo* si = nullptr;
    jsErrCode jerr = static_cast<jsErrCode>(0);
    natsStatus s = js_GetStreamInfo(&si, js_, stream.c_str(), nullptr, &jerr);
    if (s == NATS_OK) {
      jsStreamInfo_Destroy(si);
      return absl::OkStatus();
    }
    if (s == NATS_NOT_FOUND || jerr == JSStreamNotFoundErr) {
      if (!may_create) {
        return absl::NotFoundError(absl::StrCat(
            "log ", url_, ": stream ", stream, " does not exist"));
      }
      jsStreamConfig cfg;
      jsStreamConfig_Init(&cfg);
      cfg.Name = stream.c_str();
      cfg.Subjects = subject_list;
      cfg.SubjectsLen = 1;
      cfg.Storage = js_FileStorage;
      cfg.Replicas = config_.replicas;
      cfg.Duplicates = config_.dedup_ms * 1000000;  // nanoseconds
      cfg.DenyDelete = true;
      cfg.DenyPurge = true;
      cfg.MaxMsgSize = -1;
      s = js_AddStream(&si, js_, &cfg, nullptr, &jerr);
      if (s == NATS_OK) {
        jsStreamInfo_Destroy(si);
        return absl::OkStatus();
      }
      if (jerr == JSStreamNameExistErr) continue;  // another process won
    }
    last = NatsText(s, jerr);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  return absl::UnavailableError(absl::StrCat(
      "log ", url_, ": stream ", stream, " is not available after 30 s: ", last));
}

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

absl::Status JetStreamLog::VerifyChecksums() const {
  ASSIGN_OR_RETURN(uint64_t last, LastSeq());
  for (uint64_t seq = 1; seq <= last; ++seq) {
    ASSIGN_OR_RETURN(Fetched message, Fetch(seq));
    (void)message;
  }
  return CatchUpTo(last);
}

absl::Status JetStreamLog::Write(rocksdb::WriteBatch* batch,
                                 absl::string_view context,
                                 const std::string& session,
                                 const std::string& branch, const Head& head) {
  const std::string subject = SubjectOf(session, branch);
  const Expectation* expect = t_expectation;
  if (expect == nullptr || expect->log != this || expect->subject != subject) {
    return absl::InternalError(absl::StrCat(
        context, ": a write of JetStream log ", url_, " on subject ", subject,
        " that did not come through the log's own write path; nothing was written"));
  }
  ASSIGN_OR_RETURN(EncodedBatch encoded, EncodeBatch(*batch));
  // The command id; a write without one (a fork without its record, a
  // participant) is named by its content.
  const std::string command =
      encoded.marker
          ? encoded.marker->command
          : absl::StrCat("~", events::Hex(events::Sha256(encoded.payload)).substr(0, 32));
  const std::string msg_id = absl::StrCat(session, "/", branch, "/", command);
  const int64_t max_payload = natsConnection_GetMaxPayload(nc_);
  if (max_payload > 0 &&
      static_cast<int64_t>(encoded.payload.size()) + 4096 > max_payload) {
    return absl::FailedPreconditionError(absl::StrCat(
        context, ": the write is ", encoded.payload.size(),
        " bytes, more than one message of JetStream log ", url_,
        " may hold (the servers' max_payload is ", max_payload,
        " bytes); nothing was written"));
  }
  natsMsg* msg = nullptr;
  natsStatus s = natsMsg_Create(&msg, subject.c_str(), nullptr,
                                encoded.payload.data(),
                                static_cast<int>(encoded.payload.size()));
  if (s != NATS_OK) {
    return absl::InternalError(absl::StrCat(context, ": ", NatsText(s, static_cast<jsErrCode>(0))));
  }
  std::unique_ptr<natsMsg, void (*)(natsMsg*)> owned(msg, natsMsg_Destroy);
  auto header = [&](const char* key, const std::string& value) {
    if (s == NATS_OK) s = natsMsgHeader_Set(msg, key, value.c_str());
  };
  header("Combat-Session", session);
  header("Combat-Branch", branch);
  header("Combat-Command", command);
  header("Combat-Head-Seq", absl::StrCat(head.seq));
  header("Combat-Head-Hash", events::Hex(head.hash));
  if (encoded.marker) {
    header("Combat-First-Seq", absl::StrCat(encoded.marker->first_seq));
    header("Combat-Last-Seq", absl::StrCat(encoded.marker->last_seq));
    if (!encoded.marker->content_hex.empty()) {
      header("Combat-Content", encoded.marker->content_hex);
    }
  }
  header(kShaHeader, events::Hex(events::Sha256(encoded.payload)));
  if (s != NATS_OK) {
    return absl::InternalError(absl::StrCat(context, ": ", NatsText(s, static_cast<jsErrCode>(0))));
  }
  jsPubOptions po;
  jsPubOptions_Init(&po);
  po.MsgId = msg_id.c_str();
  const std::string stream = config_.stream();
  po.ExpectStream = stream.c_str();
  if (!expect->last) {
    po.ExpectNoMessage = true;
  } else {
    po.ExpectLastSubjectSeq = *expect->last;
  }
  po.MaxWait = kRequestWaitMs;
  jsPubAck* pa = nullptr;
  jsErrCode jerr = static_cast<jsErrCode>(0);
  s = js_PublishMsg(&pa, js_, msg, &po, &jerr);
  if (s != NATS_OK) {
    if (jerr == JSStreamWrongLastSequenceErr) {
      return Stale(absl::StrCat(context, ": subject ", subject, " moved on"));
    }
    return absl::UnavailableError(absl::StrCat(
        context, ": publishing to JetStream log ", url_, " failed: ",
        NatsText(s, jerr),
        "; the write may or may not be stored: retry with the same command id "
        "(a retry is applied once)"));
  }
  const uint64_t seq = pa->Sequence;
  const bool duplicate = pa->Duplicate;
  jsPubAck_Destroy(pa);
  if (duplicate) {
    return Stale(absl::StrCat(context, ": message id ", msg_id,
                              " is already stored (stream seq ", seq, ")"));
  }
  // The write is the next on its subject (the expected last subject
  // sequence held): apply it now, whatever other subjects' messages come
  // before it (applied at the next catch-up). Reveal markers keep the first
  // reveal in stream order, so a batch with one waits for its turn.
  bool has_reveal = false;
  {
    rocksdb::WriteBatch probe;
    (void)DecodeBatch(encoded.payload, context,
                      [&has_reveal](const std::string&) {
                        has_reveal = true;
                        return false;
                      },
                      &probe);
  }
  absl::Status applied;
  bool done = false;
  {
    std::lock_guard<std::mutex> lock(apply_mu_);
    if (AppliedLocked(seq)) {
      done = true;  // a catch-up read it back already
    } else if (!has_reveal || seq == applied_ + 1) {
      rocksdb::WriteOptions w;
      w.sync = false;
      rocksdb::Status written = replica_->db()->Write(w, batch);
      if (written.ok()) {
        NoteApplied(seq, subject);
      } else {
        applied = absl::InternalError(absl::StrCat(
            "applying to the replica in ", replica_dir_, ": ", written.ToString()));
      }
      done = true;
    }
  }
  if (!done) applied = CatchUpTo(seq);
  if (!applied.ok()) {
    return absl::UnavailableError(absl::StrCat(
        context, ": stored in JetStream log ", url_, " at stream seq ", seq,
        ", but not read back: ", applied.message(),
        "; retry with the same command id (it is applied once)"));
  }
  return absl::OkStatus();
}

absl::StatusOr<uint64_t> JetStreamLog::ImportSession(
    const SessionMeta& meta, const std::vector<uint8_t>& secret,
    const std::vector<ImportBranch>& branches, Canonical canonical,
    const std::vector<uint8_t>& signing_key,
    const std::vector<std::vector<uint8_t>>& later_secrets) {
  const std::string context =
      absl::StrCat("session ", meta.session, ": importing into log ", url_);
  RETURN_IF_ERROR(CheckWritable(context));
  ASSIGN_OR_RETURN(std::string scratch_dir, TempDir("combat-jetstream-import"));
  struct Remove {
    std::string dir;
    ~Remove() {
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
    }
  } remove{scratch_dir};
  Options local;
  local.sync = false;
  ASSIGN_OR_RETURN(std::unique_ptr<RocksEventLog> scratch,
                   RocksEventLog::Open(scratch_dir + "/db", local));
  ASSIGN_OR_RETURN(uint64_t events,
                   scratch->ImportSession(meta, secret, branches, canonical,
                                          signing_key, later_secrets));
  rocksdb::WriteBatch batch;
  {
    std::unique_ptr<rocksdb::Iterator> it(
        scratch->db()->NewIterator(rocksdb::ReadOptions()));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      rocksdb::Status put = batch.Put(it->key(), it->value());
      if (!put.ok()) return absl::InternalError(put.ToString());
    }
    if (!it->status().ok()) {
      return absl::InternalError(
          absl::StrCat(context, ": reading the scratch import: ",
                       it->status().ToString()));
    }
  }
  Head head;
  for (const ImportBranch& b : branches) {
    if (b.meta.branch == "main" && b.own != nullptr && !b.own->empty()) {
      head.seq = b.own->back().event().seq();
      head.hash = b.own->back().hash();
    }
  }
  absl::StatusOr<uint64_t> written = Writing<absl::StatusOr<uint64_t>>(
      context, meta.session, "main", [&]() -> absl::StatusOr<uint64_t> {
        absl::StatusOr<SessionMeta> existing = replica_->GetSession(meta.session);
        if (existing.ok()) {
          return absl::AlreadyExistsError(
              absl::StrCat("session ", meta.session, " already exists"));
        }
        if (existing.status().code() != absl::StatusCode::kNotFound) {
          return existing.status();
        }
        rocksdb::WriteBatch copy(batch);
        RETURN_IF_ERROR(Write(&copy, context, meta.session, "main", head));
        return events;
      });
  return written;
}

absl::StatusOr<std::unique_ptr<EventLog>> JetStreamLog::Open(
    const std::string& url, const Options& options) {
  ASSIGN_OR_RETURN(Url config, ParseUrl(url));
  std::unique_ptr<JetStreamLog> log(new JetStreamLog());
  log->url_ = url;
  log->config_ = config;
  log->read_only_ = options.access == Options::Access::kReadOnly;
  RETURN_IF_ERROR(log->Connect());
  RETURN_IF_ERROR(
      log->EnsureStream(!log->read_only_ && options.create_if_missing));
  ASSIGN_OR_RETURN(std::string dir, TempDir("combat-jetstream-replica"));
  log->replica_dir_ = dir;
  Options local;
  local.sync = false;
  local.create_if_missing = true;
  ASSIGN_OR_RETURN(log->replica_, RocksEventLog::Open(dir + "/db", local));
  log->replica_->SetSink(log.get());
  RETURN_IF_ERROR(log->CatchUp());
  return std::unique_ptr<EventLog>(std::move(log));
}

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

JetStreamLog::~JetStreamLog() {
  {
    std::lock_guard<std::mutex> lock(listener_mu_);
    listener_ = nullptr;
  }
  {
    std::lock_guard<std::mutex> lock(follow_mu_);
    follow_stop_ = true;
    follow_cv_.notify_all();
  }
  if (follower_.joinable()) follower_.join();
  if (sub_ != nullptr) {
    // No callback runs after the drain completes.
    if (natsSubscription_Drain(sub_) == NATS_OK) {
      (void)natsSubscription_WaitForDrainCompletion(sub_, kRequestWaitMs);
    } else {
      (void)natsSubscription_Unsubscribe(sub_);
    }
    natsSubscription_Destroy(sub_);
  }
  replica_.reset();
  if (!replica_dir_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(replica_dir_, ec);
  }
  jsCtx_Destroy(js_);
  natsConnection_Destroy(nc_);
  natsOptions_Destroy(opts_);
}

absl::Status JetStreamParticipants::Add(const Participant& p,
                                        const std::string& token_hash) {
  return log_->Writing<absl::Status>(
      "adding a participant", p.session, kParticipantsBranch,
      [&] { return log_->replica_->participants().Add(p, token_hash); });
}

absl::Status JetStreamParticipants::Found(const Participant& gm,
                                          const std::string& token_hash) {
  return log_->Writing<absl::Status>(
      "recording a session's GM", gm.session, kParticipantsBranch,
      [&] { return log_->replica_->participants().Found(gm, token_hash); });
}

absl::Status JetStreamParticipants::Revoke(const std::string& session,
                                           const std::string& name) {
  return log_->Writing<absl::Status>(
      "revoking a participant", session, kParticipantsBranch,
      [&] { return log_->replica_->participants().Revoke(session, name); });
}

absl::Status JetStreamParticipants::AddOperator(const std::string& name,
                                                const std::string& token_hash) {
  return log_->Writing<absl::Status>(
      "adding an operator", "", kParticipantsBranch,
      [&] { return log_->replica_->participants().AddOperator(name, token_hash); });
}

// A token is looked up in the replica as it is (it follows the stream); one
// not found there is looked up again after a catch-up, so a token made by
// another process a moment ago admits its holder.
absl::StatusOr<std::optional<std::string>> JetStreamParticipants::FindOperator(
    const std::string& token_hash) const {
  ASSIGN_OR_RETURN(std::optional<std::string> found,
                   log_->replica_->participants().FindOperator(token_hash));
  if (found) return found;
  RETURN_IF_ERROR(log_->CatchUp());
  return log_->replica_->participants().FindOperator(token_hash);
}

absl::StatusOr<std::optional<Participant>> JetStreamParticipants::Find(
    const std::string& session, const std::string& token_hash) const {
  ASSIGN_OR_RETURN(std::optional<Participant> found,
                   log_->replica_->participants().Find(session, token_hash));
  if (found) return found;
  RETURN_IF_ERROR(log_->CatchUp());
  return log_->replica_->participants().Find(session, token_hash);
}

absl::StatusOr<std::vector<Participant>> JetStreamParticipants::List(
    const std::string& session) const {
  RETURN_IF_ERROR(log_->CatchUp());
  return log_->replica_->participants().List(session);
}

const bool kRegistered = RegisterBackend("nats://", &JetStreamLog::Open);

}  // namespace

absl::StatusOr<std::unique_ptr<EventLog>> OpenJetStreamLog(
    const std::string& url, const Options& options) {
  (void)kRegistered;
  return JetStreamLog::Open(url, options);
}

}  // namespace combat::store::jetstream
