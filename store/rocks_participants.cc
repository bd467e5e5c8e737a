#include "store/rocks_participants.h"

#include <memory>
#include <mutex>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "rocksdb/db.h"
#include "rocksdb/write_batch.h"
#include "store/event_log_impl.h"
#include "store/keys.h"
#include "store/rocks_status.h"

namespace combat::store {
namespace {

std::string Encode(const Participant& p) {
  std::string v = RoleName(p.role);
  v.push_back('\0');
  v += p.name;
  return v;
}

absl::StatusOr<Participant> Decode(const std::string& session,
                                   const std::string& value) {
  const size_t zero = value.find('\0');
  std::optional<ParticipantRole> role =
      zero == std::string::npos ? std::nullopt : ParseRole(value.substr(0, zero));
  if (!role) {
    return absl::DataLossError(
        absl::StrCat("session ", session, ": a participant record is damaged"));
  }
  Participant p;
  p.session = session;
  p.role = *role;
  p.name = value.substr(zero + 1);
  return p;
}

// Every record under `session` ("" = the operators): key and value.
absl::StatusOr<std::vector<std::pair<std::string, std::string>>> Records(
    LogImpl* impl, const std::string& session) {
  const std::string prefix = keys::ParticipantPrefix(session);
  const std::string end = keys::PrefixEnd(prefix);
  rocksdb::ReadOptions ro;
  rocksdb::Slice upper(end);
  ro.iterate_upper_bound = &upper;
  std::unique_ptr<rocksdb::Iterator> it(impl->db->NewIterator(ro));
  std::vector<std::pair<std::string, std::string>> out;
  for (it->Seek(prefix); it->Valid(); it->Next()) {
    out.emplace_back(it->key().ToString(), it->value().ToString());
  }
  RETURN_IF_ERROR(FromRocks(it->status(), absl::StrCat("session ", session, " participants")));
  return out;
}

// Writes `batch` (records of `session`'s participants; "" = the
// operators): with fsync as Options::sync, or, when the database is the
// replica of a log held elsewhere, as one of that log's writes
// (store/batch_sink.h). REQUIRES: the Guard of LockParticipants held.
absl::Status WriteDurably(LogImpl* impl, rocksdb::WriteBatch& batch,
                          const std::string& context, const std::string& session) {
  if (impl->sink != nullptr) {
    return impl->sink->Write(&batch, context, session, kParticipantsBranch, Head{});
  }
  rocksdb::WriteOptions options;
  options.sync = impl->options.sync;
  return FromRocks(impl->db->Write(options, &batch), context);
}

// The lock a read-check-write of `session`'s participants holds
// (store/write_locks.h), into the sink when there is one (a sink never
// waits for a write lock).
WriteLocks::Guard LockParticipants(LogImpl* impl, const std::string& session) {
  return impl->locks.Lock({ParticipantsLock(session)});
}

// The name of an operator record's value ("operator\0<name>").
constexpr char kOperator[] = "operator";

}  // namespace

absl::Status RocksParticipants::Add(const Participant& p,
                                   const std::string& token_hash) {
  RETURN_IF_ERROR(impl_->CheckWritable(
      absl::StrCat("session ", p.session, ": adding participant ", p.name)));
  const auto lock = LockParticipants(impl_, p.session);
  std::string meta;
  rocksdb::Status got =
      impl_->db->Get(rocksdb::ReadOptions(), keys::Session(p.session), &meta);
  if (got.IsNotFound()) {
    return absl::NotFoundError(absl::StrCat("no session '", p.session, "'"));
  }
  RETURN_IF_ERROR(FromRocks(got, absl::StrCat("session ", p.session)));
  ASSIGN_OR_RETURN(std::vector<Participant> all, List(p.session));
  for (const Participant& q : all) {
    if (q.name == p.name) {
      return absl::AlreadyExistsError(
          absl::StrCat("session ", p.session, " already has a participant named '",
                       p.name, "' (", RoleName(q.role), ")"));
    }
  }
  const std::string context =
      absl::StrCat("session ", p.session, ": adding participant ", p.name);
  rocksdb::WriteBatch batch;
  RETURN_IF_ERROR(FromRocks(
      batch.Put(keys::Participant(p.session, token_hash), Encode(p)), context));
  return WriteDurably(impl_, batch, context, p.session);
}

absl::Status RocksParticipants::Found(const Participant& gm,
                                     const std::string& token_hash) {
  const std::string context = absl::StrCat("session ", gm.session, ": its GM ", gm.name);
  RETURN_IF_ERROR(impl_->CheckWritable(context));
  const auto lock = LockParticipants(impl_, gm.session);
  std::string meta;
  rocksdb::Status got =
      impl_->db->Get(rocksdb::ReadOptions(), keys::Session(gm.session), &meta);
  if (got.ok()) {
    return absl::AlreadyExistsError(absl::StrCat("session '", gm.session, "' exists"));
  }
  if (!got.IsNotFound()) RETURN_IF_ERROR(FromRocks(got, context));
  ASSIGN_OR_RETURN(auto left, Records(impl_, gm.session));
  rocksdb::WriteBatch batch;
  for (const auto& [key, value] : left) batch.Delete(key);
  batch.Put(keys::Participant(gm.session, token_hash), Encode(gm));
  return WriteDurably(impl_, batch, context, gm.session);
}

absl::Status RocksParticipants::Revoke(const std::string& session, const std::string& name) {
  const std::string context = absl::StrCat("session ", session, ": revoking ", name);
  RETURN_IF_ERROR(impl_->CheckWritable(context));
  const auto lock = LockParticipants(impl_, session);
  ASSIGN_OR_RETURN(auto records, Records(impl_, session));
  rocksdb::WriteBatch batch;
  for (const auto& [key, value] : records) {
    ASSIGN_OR_RETURN(Participant p, Decode(session, value));
    if (p.name == name) batch.Delete(key);
  }
  if (batch.Count() == 0) {
    return absl::NotFoundError(absl::StrCat("session ", session,
                                            " has no participant named '",
                                            name.substr(0, 64), "'"));
  }
  return WriteDurably(impl_, batch, context, session);
}

absl::Status RocksParticipants::AddOperator(const std::string& name,
                                           const std::string& token_hash) {
  const std::string context = absl::StrCat("adding operator ", name);
  RETURN_IF_ERROR(impl_->CheckWritable(context));
  const auto lock = LockParticipants(impl_, "");
  ASSIGN_OR_RETURN(auto records, Records(impl_, ""));
  const std::string value = absl::StrCat(kOperator, std::string(1, '\0'), name);
  for (const auto& [key, v] : records) {
    if (v == value) {
      return absl::AlreadyExistsError(absl::StrCat("an operator named '", name, "' exists"));
    }
  }
  rocksdb::WriteBatch batch;
  batch.Put(keys::Participant("", token_hash), value);
  return WriteDurably(impl_, batch, context, "");
}

absl::StatusOr<std::optional<std::string>> RocksParticipants::FindOperator(
    const std::string& token_hash) const {
  std::string value;
  rocksdb::Status got =
      impl_->db->Get(rocksdb::ReadOptions(), keys::Participant("", token_hash), &value);
  if (got.IsNotFound()) return std::nullopt;
  RETURN_IF_ERROR(FromRocks(got, "operators"));
  const std::string prefix = absl::StrCat(kOperator, std::string(1, '\0'));
  if (value.compare(0, prefix.size(), prefix) != 0) {
    return absl::DataLossError("an operator record is damaged");
  }
  return value.substr(prefix.size());
}

absl::StatusOr<std::optional<Participant>> RocksParticipants::Find(
    const std::string& session, const std::string& token_hash) const {
  std::string value;
  rocksdb::Status got = impl_->db->Get(rocksdb::ReadOptions(),
                                       keys::Participant(session, token_hash), &value);
  if (got.IsNotFound()) return std::nullopt;
  RETURN_IF_ERROR(FromRocks(got, absl::StrCat("session ", session, " participants")));
  ASSIGN_OR_RETURN(Participant p, Decode(session, value));
  return p;
}

absl::StatusOr<std::vector<Participant>> RocksParticipants::List(
    const std::string& session) const {
  const std::string prefix = keys::ParticipantPrefix(session);
  const std::string end = keys::PrefixEnd(prefix);
  rocksdb::ReadOptions ro;
  rocksdb::Slice upper(end);
  ro.iterate_upper_bound = &upper;
  std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(ro));
  std::vector<Participant> out;
  for (it->Seek(prefix); it->Valid(); it->Next()) {
    ASSIGN_OR_RETURN(Participant p, Decode(session, it->value().ToString()));
    out.push_back(std::move(p));
  }
  RETURN_IF_ERROR(FromRocks(it->status(), absl::StrCat("session ", session, " participants")));
  return out;
}

}  // namespace combat::store
