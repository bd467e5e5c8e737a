#include "store/participants.h"

#include <memory>
#include <mutex>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "rocksdb/db.h"
#include "store/event_log_impl.h"
#include "store/keys.h"
#include "store/rocks_status.h"

namespace combat::store {
namespace {

bool ValidHash(const std::string& h) {
  if (h.size() != 64) return false;
  for (char c : h) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

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

}  // namespace

const char* RoleName(ParticipantRole role) {
  switch (role) {
    case ParticipantRole::kGm:
      return "gm";
    case ParticipantRole::kPlayer:
      return "player";
    case ParticipantRole::kObserver:
      return "observer";
  }
  return "observer";
}

std::optional<ParticipantRole> ParseRole(const std::string& text) {
  if (text == "gm") return ParticipantRole::kGm;
  if (text == "player") return ParticipantRole::kPlayer;
  if (text == "observer") return ParticipantRole::kObserver;
  return std::nullopt;
}

ParticipantTable::ParticipantTable(EventLog& log) : impl_(log.impl_.get()) {}

absl::Status ParticipantTable::Add(const Participant& p,
                                   const std::string& token_hash) {
  RETURN_IF_ERROR(CheckId("session", p.session));
  RETURN_IF_ERROR(CheckId("participant name", p.name));
  if (!ValidHash(token_hash)) {
    return absl::InvalidArgumentError(
        "participant token hash: 64 lowercase hex digits (SHA-256)");
  }
  RETURN_IF_ERROR(impl_->CheckWritable(
      absl::StrCat("session ", p.session, ": adding participant ", p.name)));
  WriteLocks::Guard lock = impl_->locks.Lock({ParticipantsLock(p.session)});
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
  rocksdb::WriteOptions options;
  options.sync = impl_->options.sync;
  return FromRocks(
      impl_->db->Put(options, keys::Participant(p.session, token_hash), Encode(p)),
      absl::StrCat("session ", p.session, ": adding participant ", p.name));
}

absl::StatusOr<std::optional<Participant>> ParticipantTable::Find(
    const std::string& session, const std::string& token_hash) const {
  if (!ValidId(session) || !ValidHash(token_hash)) return std::nullopt;
  std::string value;
  rocksdb::Status got = impl_->db->Get(rocksdb::ReadOptions(),
                                       keys::Participant(session, token_hash), &value);
  if (got.IsNotFound()) return std::nullopt;
  RETURN_IF_ERROR(FromRocks(got, absl::StrCat("session ", session, " participants")));
  ASSIGN_OR_RETURN(Participant p, Decode(session, value));
  return p;
}

absl::StatusOr<std::vector<Participant>> ParticipantTable::List(
    const std::string& session) const {
  RETURN_IF_ERROR(CheckId("session", session));
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
