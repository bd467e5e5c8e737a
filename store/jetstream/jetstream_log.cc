#include "store/jetstream/jetstream_log.h"

#include <nats/nats.h>

#include <chrono>
#include <filesystem>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "events/hash.h"
#include "events/status_macros.h"
#include "rocksdb/db.h"
#include "store/jetstream/log_impl.h"
#include "store/jetstream/records.h"

namespace combat::store::jetstream {

thread_local Expectation* t_expectation = nullptr;

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

namespace {
const bool kRegistered = RegisterBackend("nats://", &JetStreamLog::Open);
}  // namespace

absl::StatusOr<std::unique_ptr<EventLog>> OpenJetStreamLog(
    const std::string& url, const Options& options) {
  (void)kRegistered;
  return JetStreamLog::Open(url, options);
}

}  // namespace combat::store::jetstream
