#include "store/log_writer.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "rocksdb/db.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/options.h"
#include "rocksdb/table.h"
#include "rocksdb/write_batch.h"
#include "store/bulk_import.h"
#include "store/event_log_impl.h"
#include "store/rocks_log.h"
#include "store/keys.h"
#include "store/records.h"
#include "store/rocks_status.h"
#include "store/view.h"
#include "store/wal_check.h"

namespace combat::store {
namespace {

constexpr char kMainBranch[] = "main";

absl::string_view Str(const flatbuffers::String* s) {
  return s == nullptr ? absl::string_view()
                      : absl::string_view(s->c_str(), s->size());
}

// The checks Append makes on one command's events before writing any:
// contiguous seqs from head+1, each prev_hash the hash of the event before
// (the head's for the first), session/branch fields naming the branch, and
// canonical bytes (the hash chain is defined over them). Returns the hash
// of the last event.
absl::StatusOr<events::Digest> CheckChain(
    const std::string& session, const std::string& branch,
    const std::string& command_id, const Head& head,
    const std::vector<events::EventBuffer>& batch) {
  events::Digest prev = head.hash;
  for (size_t i = 0; i < batch.size(); ++i) {
    const uint64_t want = head.seq + 1 + i;
    const std::string context = absl::StrCat(
        "session ", session, " branch ", branch, " seq ", want, " (event ",
        i + 1, " of ", batch.size(), " of command ", command_id, ")");
    const fb::Event& e = batch[i].event();
    if (e.seq() != want) {
      return absl::InvalidArgumentError(absl::StrCat(
          context, ": the event has seq ", e.seq(),
          "; seqs must run contiguously from the head (", head.seq, ") + 1"));
    }
    if (Str(e.session()) != session || Str(e.branch()) != branch) {
      return absl::InvalidArgumentError(
          absl::StrCat(context, ": the event names session '", Str(e.session()),
                       "' branch '", Str(e.branch()), "'"));
    }
    const flatbuffers::Vector<uint8_t>* prev_hash = e.prev_hash();
    if (prev_hash == nullptr || prev_hash->size() != prev.size() ||
        !std::equal(prev.begin(), prev.end(), prev_hash->begin())) {
      std::string got = prev_hash == nullptr
                            ? std::string("none")
                            : events::Hex(prev_hash->data(), prev_hash->size());
      return absl::InvalidArgumentError(
          absl::StrCat(context, ": prev_hash is ", got, ", but seq ", want - 1,
                       " hashes to ", events::Hex(prev)));
    }
    absl::Status canonical = batch[i].CheckCanonical(context);
    if (!canonical.ok()) {
      return absl::InvalidArgumentError(canonical.message());
    }
    prev = batch[i].hash();
  }
  return prev;
}

// AlreadyExists when `session` has a record (CreateSession, ImportSession).
absl::Status CheckNewSession(const View& view, const std::string& session) {
  const std::string context = absl::StrCat("session ", session);
  ASSIGN_OR_RETURN(std::optional<std::string> existing,
                   view.Get(keys::Session(session), context));
  if (existing) {
    return absl::AlreadyExistsError(absl::StrCat(context, " already exists"));
  }
  return absl::OkStatus();
}

// Adds one command's events, the branch's new head and the command's
// marker to `batch` (what Append writes, and CreateSession with its first
// command). Returns the seq range.
AppendResult AddCommand(rocksdb::WriteBatch* batch, const std::string& session,
                        const std::string& branch, const Head& head,
                        const std::string& command_id,
                        const std::vector<events::EventBuffer>& events,
                        const events::Digest& last_hash,
                        const std::optional<events::Digest>& content = {}) {
  AppendResult result;
  result.first_seq = head.seq + 1;
  result.last_seq = head.seq + events.size();
  for (size_t i = 0; i < events.size(); ++i) {
    const std::vector<uint8_t>& bytes = events[i].bytes();
    batch->Put(keys::Event(session, branch, result.first_seq + i),
               rocksdb::Slice(reinterpret_cast<const char*>(bytes.data()),
                              bytes.size()));
  }
  batch->Put(keys::Head(session, branch),
             records::EncodeHead(Head{result.last_seq, last_hash}));
  batch->Put(keys::Command(session, branch, command_id),
             records::EncodeCommandRange(result.first_seq, result.last_seq,
                                         content));
  result.content = content;
  return result;
}

}  // namespace

absl::Status RocksLogWriter::CreateSession(const SessionMeta& meta,
                                     const std::vector<uint8_t>& secret_seed) {
  return CreateSession(meta, secret_seed, "", {});
}

absl::Status RocksLogWriter::CreateSession(
    const SessionMeta& meta, const std::vector<uint8_t>& secret_seed,
    const std::string& command_id,
    const std::vector<events::EventBuffer>& first,
    const std::vector<uint8_t>& signing_key) {
  RETURN_IF_ERROR(CheckId("session", meta.session));
  const std::string context = absl::StrCat("session ", meta.session);
  if (!first.empty()) RETURN_IF_ERROR(CheckId("command", command_id));
  RETURN_IF_ERROR(impl_->CheckWritable(context));
  WriteLocks::Guard lock = impl_->locks.Lock(
      {SessionLock(meta.session), BranchLock(meta.session, kMainBranch)});
  View view(impl_->db.get(), /*snapshot=*/false);
  RETURN_IF_ERROR(CheckNewSession(view, meta.session));
  BranchMeta main;
  main.session = meta.session;
  main.branch = kMainBranch;
  rocksdb::WriteBatch batch;
  batch.Put(keys::Session(meta.session), records::EncodeSessionMeta(meta));
  batch.Put(keys::Secret(meta.session),
            rocksdb::Slice(reinterpret_cast<const char*>(secret_seed.data()),
                           secret_seed.size()));
  if (!signing_key.empty()) {
    batch.Put(keys::SigningKey(meta.session),
              rocksdb::Slice(reinterpret_cast<const char*>(signing_key.data()),
                             signing_key.size()));
  }
  batch.Put(keys::Branch(meta.session, kMainBranch),
            records::EncodeBranchMeta(main));
  Head head;
  if (first.empty()) {
    batch.Put(keys::Head(meta.session, kMainBranch), records::EncodeHead(head));
  } else {
    ASSIGN_OR_RETURN(events::Digest last_hash,
                     CheckChain(meta.session, kMainBranch, command_id, head,
                                first));
    const AppendResult r = AddCommand(&batch, meta.session, kMainBranch, head,
                                      command_id, first, last_hash,
                                      events::MarkerContent(first));
    head = Head{r.last_seq, last_hash};
  }
  return impl_->Write(&batch, absl::StrCat(context, ": creating the session"),
                      meta.session, kMainBranch, head);
}

absl::Status RocksLogWriter::Fork(const std::string& session,
                            const std::string& parent, uint64_t fork_seq,
                            const std::string& branch,
                            const std::string& author,
                            const std::string& reason) {
  return ForkWith(session, parent, fork_seq, branch, author, reason, nullptr);
}

absl::Status RocksLogWriter::Fork(const std::string& session,
                            const std::string& parent, uint64_t fork_seq,
                            const std::string& branch,
                            const std::string& author,
                            const std::string& reason,
                            const events::EventBuffer& record) {
  return ForkWith(session, parent, fork_seq, branch, author, reason, &record);
}

absl::Status RocksLogWriter::ForkWith(const std::string& session,
                                const std::string& parent, uint64_t fork_seq,
                                const std::string& branch,
                                const std::string& author,
                                const std::string& reason,
                                const events::EventBuffer* record) {
  RETURN_IF_ERROR(CheckId("session", session));
  RETURN_IF_ERROR(CheckId("branch", parent));
  RETURN_IF_ERROR(CheckId("branch", branch));
  RETURN_IF_ERROR(impl_->CheckWritable("fork"));
  WriteLocks::Guard lock = impl_->locks.Lock(
      {BranchLock(session, parent), BranchLock(session, branch)});
  View view(impl_->db.get(), /*snapshot=*/false);
  ASSIGN_OR_RETURN(BranchMeta parent_meta, view.Branch(session, parent));
  const std::string context =
      absl::StrCat("session ", session, " branch ", branch);
  ASSIGN_OR_RETURN(std::optional<std::string> existing,
                   view.Get(keys::Branch(session, branch), context));
  if (existing) {
    return absl::AlreadyExistsError(absl::StrCat(context, " already exists"));
  }
  ASSIGN_OR_RETURN(Head parent_head, view.HeadOf(parent_meta));
  if (fork_seq == 0 || fork_seq > parent_head.seq) {
    return absl::OutOfRangeError(
        absl::StrCat(context, ": cannot fork branch ", parent, " at seq ",
                     fork_seq, ": it is at seq ", parent_head.seq,
                     " (the fork seq must be 1..", parent_head.seq, ")"));
  }
  Head head{fork_seq, parent_head.hash};
  if (fork_seq < parent_head.seq) {
    RETURN_IF_ERROR(view.Scan(session, parent, fork_seq, fork_seq,
                              [&head](const events::EventBuffer& e) {
                                head.hash = e.hash();
                                return absl::OkStatus();
                              }));
  }
  BranchMeta meta;
  meta.session = session;
  meta.branch = branch;
  meta.parent = parent;
  meta.fork_seq = fork_seq;
  meta.author = author;
  meta.reason = reason;
  rocksdb::WriteBatch batch;
  batch.Put(keys::Branch(session, branch), records::EncodeBranchMeta(meta));
  if (record == nullptr) {
    batch.Put(keys::Head(session, branch), records::EncodeHead(head));
  } else {
    // The record is the branch's first command, id kForkCommandId, bound to
    // its own hash (so a later command reusing the id is a conflict).
    const std::vector<events::EventBuffer> first = {*record};
    ASSIGN_OR_RETURN(const events::Digest hash,
                     CheckChain(session, branch, kForkCommandId, head, first));
    AddCommand(&batch, session, branch, head, kForkCommandId, first, hash,
               events::MarkerContent(first));
    head = Head{fork_seq + 1, hash};
  }
  return impl_->Write(&batch, absl::StrCat(context, ": forking"), session,
                      branch, head);
}

namespace {

// Damage an append must not build on: an event stored past the head (a head
// record rolled back: appending would overwrite acknowledged events), or a
// head event carrying this very command id (its marker was lost: applying
// it again would duplicate it).
absl::Status CheckAroundHead(const View& view, const BranchMeta& meta,
                             const Head& head, const std::string& command_id,
                             const std::string& context) {
  ASSIGN_OR_RETURN(std::optional<std::string> beyond,
                   view.Get(keys::Event(meta.session, meta.branch, head.seq + 1),
                            context));
  if (beyond.has_value()) {
    return absl::DataLossError(absl::StrCat(
        context, ": an event is stored at seq ", head.seq + 1,
        " beyond the head (seq ", head.seq, "): the head record is damaged"));
  }
  if (head.seq == 0 || head.seq <= meta.fork_seq) return absl::OkStatus();
  ASSIGN_OR_RETURN(std::optional<std::string> last,
                   view.Get(keys::Event(meta.session, meta.branch, head.seq),
                            context));
  if (!last.has_value()) {
    return absl::DataLossError(
        absl::StrCat(context, ": the head event seq ", head.seq, " is missing"));
  }
  ASSIGN_OR_RETURN(events::EventBuffer event,
                   events::EventBuffer::FromBytes(*last, context));
  const auto* id = event.event().command_id();
  if (id != nullptr && id->str() == command_id) {
    return absl::DataLossError(absl::StrCat(
        context, ": the head event seq ", head.seq,
        " carries this command id but its command marker is missing"));
  }
  return absl::OkStatus();
}

// A reveal's records (LogWriter::AppendReveal): the fresh secret keyed by
// its commitment, and the marker of the first reveal of `reveal.revealed`
// (at the SeedRevealed among `events`, whose first seq is `first_seq`).
absl::Status AddReveal(rocksdb::WriteBatch* batch, const View& view,
                       const std::string& session, const std::string& branch,
                       uint64_t first_seq,
                       const std::vector<events::EventBuffer>& events,
                       const RevealRecord& reveal, const std::string& context) {
  uint64_t at = 0;
  for (size_t i = 0; i < events.size(); ++i) {
    const fb::StateChange* sc = events[i].event().body_as_StateChange();
    if (sc != nullptr && sc->change_type() == fb::Change::SeedRevealed) {
      at = first_seq + i;
    }
  }
  if (at == 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        context, ": a reveal's events must include a SeedRevealed"));
  }
  if (!reveal.fresh.empty()) {
    const events::Digest c = events::Sha256(reveal.fresh);
    const std::vector<uint8_t> commitment(c.begin(), c.end());
    batch->Put(keys::EpochSecret(session, commitment),
               rocksdb::Slice(reinterpret_cast<const char*>(reveal.fresh.data()),
                              reveal.fresh.size()));
  }
  const std::string marker = keys::Revealed(session, reveal.revealed);
  ASSIGN_OR_RETURN(std::optional<std::string> first, view.Get(marker, context));
  if (!first.has_value()) {
    std::string value = branch;
    value.push_back('\0');
    keys::AppendBe64(at, &value);
    batch->Put(marker, value);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<AppendResult> RocksLogWriter::Append(
    const std::string& session, const std::string& branch,
    uint64_t expected_seq, const std::string& command_id,
    const std::vector<events::EventBuffer>& events,
    const std::optional<events::Digest>& content) {
  return AppendWith(session, branch, expected_seq, command_id, events, content,
                    nullptr);
}

absl::StatusOr<AppendResult> RocksLogWriter::AppendReveal(
    const std::string& session, const std::string& branch,
    uint64_t expected_seq, const std::string& command_id,
    const std::vector<events::EventBuffer>& events,
    const std::optional<events::Digest>& content, const RevealRecord& reveal) {
  if (!reveal.fresh.empty() && reveal.fresh.size() != 32) {
    return absl::InvalidArgumentError(absl::StrCat(
        "session ", session, " branch ", branch, " command ", command_id,
        ": the fresh dice secret has ", reveal.fresh.size(),
        " bytes; exactly 32"));
  }
  return AppendWith(session, branch, expected_seq, command_id, events, content,
                    &reveal);
}

absl::StatusOr<AppendResult> RocksLogWriter::AppendWith(
    const std::string& session, const std::string& branch,
    uint64_t expected_seq, const std::string& command_id,
    const std::vector<events::EventBuffer>& events,
    const std::optional<events::Digest>& content, const RevealRecord* reveal) {
  RETURN_IF_ERROR(CheckId("session", session));
  RETURN_IF_ERROR(CheckId("branch", branch));
  RETURN_IF_ERROR(CheckId("command", command_id));
  const std::string context = absl::StrCat("session ", session, " branch ",
                                           branch, " command ", command_id);
  if (events.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(context, ": a command must append at least one event"));
  }
  if (expected_seq > UINT64_MAX - events.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat(context, ": expected head seq ", expected_seq,
                     " leaves no room for ", events.size(), " events"));
  }

  RETURN_IF_ERROR(impl_->CheckWritable(context));
  // A reveal also reads and writes the session's reveal markers.
  WriteLocks::Guard lock =
      reveal == nullptr
          ? impl_->locks.Lock({BranchLock(session, branch)})
          : impl_->locks.Lock(
                {BranchLock(session, branch), SessionLock(session)});
  View view(impl_->db.get(), /*snapshot=*/false);
  ASSIGN_OR_RETURN(BranchMeta meta, view.Branch(session, branch));
  // Idempotency first: a retried command must not fail as stale.
  ASSIGN_OR_RETURN(std::optional<AppendResult> applied,
                   view.Command(meta, command_id));
  if (applied) {
    RETURN_IF_ERROR(CheckSameContent(context, command_id, *applied, content));
    applied->duplicate = true;
    return *applied;
  }
  ASSIGN_OR_RETURN(Head head, view.HeadOf(meta));
  if (head.seq != expected_seq) {
    return absl::AbortedError(absl::StrCat(context, ": expected head seq ",
                                           expected_seq, ", branch is at ",
                                           head.seq));
  }
  RETURN_IF_ERROR(CheckAroundHead(view, meta, head, command_id, context));
  ASSIGN_OR_RETURN(events::Digest last_hash,
                   CheckChain(session, branch, command_id, head, events));

  rocksdb::WriteBatch batch;
  const AppendResult result = AddCommand(
      &batch, session, branch, head, command_id, events, last_hash,
      content.has_value() ? *content : events::MarkerContent(events));
  if (reveal != nullptr) {
    RETURN_IF_ERROR(AddReveal(&batch, view, session, branch, result.first_seq,
                              events, *reveal, context));
  }
  RETURN_IF_ERROR(impl_->Write(
      &batch,
      absl::StrCat(context, ": writing seqs ", result.first_seq, "..",
                   result.last_seq),
      session, branch, Head{result.last_seq, last_hash}));
  return result;
}

absl::Status LogWriter::CheckSameContent(
    const std::string& context, const std::string& command_id,
    const AppendResult& applied, const std::optional<events::Digest>& content) {
  if (!applied.content || !content || *applied.content == *content) {
    return absl::OkStatus();
  }
  return absl::AlreadyExistsError(absl::StrCat(
      context, ": conflict: command id '", command_id,
      "' was already applied (seqs ", applied.first_seq, "..",
      applied.last_seq, ") with other content: the applied command hashes to ",
      events::Hex(*applied.content), ", this one to ", events::Hex(*content),
      "; give a different command a new id"));
}

absl::StatusOr<uint64_t> RocksLogWriter::ImportSession(
    const SessionMeta& meta, const std::vector<uint8_t>& secret,
    const std::vector<ImportBranch>& branches, Canonical canonical,
    const std::vector<uint8_t>& signing_key,
    const std::vector<std::vector<uint8_t>>& later_secrets) {
  RETURN_IF_ERROR(CheckId("session", meta.session));
  RETURN_IF_ERROR(impl_->CheckWritable("import"));
  // Every writer excluded: one temp table file name, one ingestion.
  WriteLocks::Guard all = impl_->locks.LockAll();
  View view(impl_->db.get(), /*snapshot=*/false);
  RETURN_IF_ERROR(CheckNewSession(view, meta.session));
  ASSIGN_OR_RETURN(uint64_t written,
                   BulkImport(impl_->db.get(), impl_->db_options, impl_->path,
                              meta, secret, branches,
                              canonical == Canonical::kCheck, signing_key,
                              later_secrets));
  // Durable on return whatever Options::sync says: record it synced.
  View after(impl_->db.get(), /*snapshot=*/false);
  ASSIGN_OR_RETURN(BranchMeta main, after.Branch(meta.session, kMainBranch));
  ASSIGN_OR_RETURN(Head head, after.HeadOf(main));
  std::lock_guard<std::mutex> acked(impl_->ack_mu);
  impl_->NoteWrite(impl_->db->GetLatestSequenceNumber(), meta.session,
                   kMainBranch, head);
  impl_->RecordLast(AckLog::Durability::kSync);
  return written;
}

}  // namespace combat::store
