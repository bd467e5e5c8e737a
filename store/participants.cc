#include "store/participants.h"

#include <optional>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "store/event_log_impl.h"

namespace combat::store {
namespace {

bool ValidHash(const std::string& h) {
  if (h.size() != 64) return false;
  for (char c : h) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

absl::Status CheckHash(absl::string_view what, const std::string& h) {
  if (ValidHash(h)) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(what, " token hash: 64 lowercase hex digits (SHA-256)"));
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

ParticipantTable::ParticipantTable(EventLog& log) : store_(&log.participants()) {}

absl::Status ParticipantTable::Add(const Participant& p, const std::string& token_hash) {
  RETURN_IF_ERROR(CheckId("session", p.session));
  RETURN_IF_ERROR(CheckId("participant name", p.name));
  RETURN_IF_ERROR(CheckHash("participant", token_hash));
  return store_->Add(p, token_hash);
}

absl::Status ParticipantTable::Found(const Participant& gm, const std::string& token_hash) {
  RETURN_IF_ERROR(CheckId("session", gm.session));
  RETURN_IF_ERROR(CheckId("participant name", gm.name));
  RETURN_IF_ERROR(CheckHash("participant", token_hash));
  return store_->Found(gm, token_hash);
}

absl::Status ParticipantTable::Revoke(const std::string& session, const std::string& name) {
  RETURN_IF_ERROR(CheckId("session", session));
  return store_->Revoke(session, name);
}

absl::Status ParticipantTable::AddOperator(const std::string& name,
                                           const std::string& token_hash) {
  RETURN_IF_ERROR(CheckId("operator name", name));
  RETURN_IF_ERROR(CheckHash("operator", token_hash));
  return store_->AddOperator(name, token_hash);
}

absl::StatusOr<std::optional<std::string>> ParticipantTable::FindOperator(
    const std::string& token_hash) const {
  if (!ValidHash(token_hash)) return std::nullopt;
  return store_->FindOperator(token_hash);
}

absl::StatusOr<std::optional<Participant>> ParticipantTable::Find(
    const std::string& session, const std::string& token_hash) const {
  if (!ValidId(session) || !ValidHash(token_hash)) return std::nullopt;
  return store_->Find(session, token_hash);
}

absl::StatusOr<std::vector<Participant>> ParticipantTable::List(
    const std::string& session) const {
  RETURN_IF_ERROR(CheckId("session", session));
  return store_->List(session);
}

}  // namespace combat::store
