#include "store/log_reader.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "events/hash.h"
#include "events/status_macros.h"
#include "store/event_log_impl.h"
#include "store/rocks_log.h"
#include "store/keys.h"
#include "store/view.h"

namespace combat::store {

absl::StatusOr<SessionMeta> RocksLogReader::GetSession(
    const std::string& session) const {
  RETURN_IF_ERROR(CheckId("session", session));
  return View(impl_->db.get(), /*snapshot=*/false).Session(session);
}

absl::StatusOr<std::vector<std::string>> RocksLogReader::ListSessions() const {
  return View(impl_->db.get(), /*snapshot=*/false).ListSessions();
}

absl::StatusOr<std::vector<uint8_t>> RocksLogReader::GetSecret(
    const std::string& session) const {
  RETURN_IF_ERROR(CheckId("session", session));
  View view(impl_->db.get(), /*snapshot=*/true);
  RETURN_IF_ERROR(view.Session(session).status());
  const std::string context = absl::StrCat("session ", session, " secret");
  ASSIGN_OR_RETURN(std::optional<std::string> value,
                   view.Get(keys::Secret(session), context));
  if (!value) {
    return absl::DataLossError(absl::StrCat(context, ": record missing"));
  }
  return std::vector<uint8_t>(value->begin(), value->end());
}

absl::StatusOr<std::vector<uint8_t>> RocksLogReader::GetSecretFor(
    const std::string& session, const std::vector<uint8_t>& commitment) const {
  RETURN_IF_ERROR(CheckId("session", session));
  View view(impl_->db.get(), /*snapshot=*/true);
  RETURN_IF_ERROR(view.Session(session).status());
  const std::string context =
      absl::StrCat("session ", session, " secret of commitment ", events::Hex(commitment));
  ASSIGN_OR_RETURN(std::optional<std::string> first,
                   view.Get(keys::Secret(session), context));
  if (first.has_value()) {
    const events::Digest c = events::Sha256(*first);
    if (std::equal(c.begin(), c.end(), commitment.begin(), commitment.end())) {
      return std::vector<uint8_t>(first->begin(), first->end());
    }
  }
  ASSIGN_OR_RETURN(std::optional<std::string> later,
                   view.Get(keys::EpochSecret(session, commitment), context));
  if (!later.has_value()) return std::vector<uint8_t>();
  return std::vector<uint8_t>(later->begin(), later->end());
}

absl::StatusOr<std::vector<StoredSecret>> RocksLogReader::ListSecrets(
    const std::string& session) const {
  RETURN_IF_ERROR(CheckId("session", session));
  View view(impl_->db.get(), /*snapshot=*/true);
  RETURN_IF_ERROR(view.Session(session).status());
  const std::string context = absl::StrCat("session ", session, " secrets");
  std::vector<StoredSecret> out;
  ASSIGN_OR_RETURN(std::optional<std::string> first,
                   view.Get(keys::Secret(session), context));
  if (first.has_value() && !first->empty()) {
    out.push_back({true, "", std::vector<uint8_t>(first->begin(), first->end())});
  }
  const std::string prefix = keys::EpochSecretPrefix(session);
  ASSIGN_OR_RETURN(auto later, view.List(prefix, context));
  for (const auto& [key, value] : later) {
    out.push_back({false, key.substr(prefix.size()),
                   std::vector<uint8_t>(value.begin(), value.end())});
  }
  return out;
}

namespace {

// A reveal marker's value: <branch>\0<be64 seq>.
absl::StatusOr<RevealMarker> DecodeReveal(const std::string& value,
                                          const std::string& context) {
  const size_t sep = value.find('\0');
  if (sep == std::string::npos || value.size() != sep + 9) {
    return absl::DataLossError(absl::StrCat(context, ": malformed marker (",
                                            value.size(), " bytes)"));
  }
  return RevealMarker{value.substr(0, sep), keys::ReadBe64(value.data() + sep + 1), ""};
}

}  // namespace

absl::StatusOr<std::optional<RevealMarker>> RocksLogReader::GetReveal(
    const std::string& session, const std::vector<uint8_t>& commitment) const {
  RETURN_IF_ERROR(CheckId("session", session));
  View view(impl_->db.get(), /*snapshot=*/true);
  const std::string context = absl::StrCat("session ", session, " reveal of commitment ",
                                           events::Hex(commitment));
  ASSIGN_OR_RETURN(std::optional<std::string> value,
                   view.Get(keys::Revealed(session, commitment), context));
  if (!value.has_value()) return std::optional<RevealMarker>();
  ASSIGN_OR_RETURN(RevealMarker m, DecodeReveal(*value, context));
  m.commitment_hex = events::Hex(commitment);
  return std::optional<RevealMarker>(std::move(m));
}

absl::StatusOr<std::vector<RevealMarker>> RocksLogReader::ListReveals(
    const std::string& session) const {
  RETURN_IF_ERROR(CheckId("session", session));
  View view(impl_->db.get(), /*snapshot=*/true);
  const std::string context = absl::StrCat("session ", session, " reveals");
  const std::string prefix = keys::RevealedPrefix(session);
  ASSIGN_OR_RETURN(auto all, view.List(prefix, context));
  std::vector<RevealMarker> out;
  for (const auto& [key, value] : all) {
    ASSIGN_OR_RETURN(RevealMarker m, DecodeReveal(value, context));
    m.commitment_hex = key.substr(prefix.size());
    out.push_back(std::move(m));
  }
  return out;
}

absl::StatusOr<std::vector<uint8_t>> RocksLogReader::GetSigningKey(
    const std::string& session) const {
  RETURN_IF_ERROR(CheckId("session", session));
  View view(impl_->db.get(), /*snapshot=*/true);
  RETURN_IF_ERROR(view.Session(session).status());
  ASSIGN_OR_RETURN(
      std::optional<std::string> value,
      view.Get(keys::SigningKey(session),
               absl::StrCat("session ", session, " signing key")));
  if (!value) return std::vector<uint8_t>();
  return std::vector<uint8_t>(value->begin(), value->end());
}

absl::StatusOr<BranchMeta> RocksLogReader::GetBranch(
    const std::string& session, const std::string& branch) const {
  RETURN_IF_ERROR(CheckId("session", session));
  RETURN_IF_ERROR(CheckId("branch", branch));
  return View(impl_->db.get(), /*snapshot=*/false).Branch(session, branch);
}

absl::StatusOr<std::vector<BranchMeta>> RocksLogReader::ListBranches(
    const std::string& session) const {
  RETURN_IF_ERROR(CheckId("session", session));
  return View(impl_->db.get(), /*snapshot=*/true).ListBranches(session);
}

absl::StatusOr<Head> RocksLogReader::GetHead(const std::string& session,
                                       const std::string& branch) const {
  RETURN_IF_ERROR(CheckId("session", session));
  RETURN_IF_ERROR(CheckId("branch", branch));
  View view(impl_->db.get(), /*snapshot=*/true);
  ASSIGN_OR_RETURN(BranchMeta meta, view.Branch(session, branch));
  return view.HeadOf(meta);
}

absl::StatusOr<std::optional<AppendResult>> RocksLogReader::FindCommand(
    const std::string& session, const std::string& branch,
    const std::string& command_id) const {
  RETURN_IF_ERROR(CheckId("session", session));
  RETURN_IF_ERROR(CheckId("branch", branch));
  RETURN_IF_ERROR(CheckId("command", command_id));
  View view(impl_->db.get(), /*snapshot=*/true);
  ASSIGN_OR_RETURN(BranchMeta meta, view.Branch(session, branch));
  return view.Command(meta, command_id);
}

absl::Status RocksLogReader::Scan(
    const std::string& session, const std::string& branch, uint64_t from,
    uint64_t to,
    const std::function<absl::Status(const events::EventBuffer&)>& visit,
    ScanReporter* reporter) const {
  RETURN_IF_ERROR(CheckId("session", session));
  RETURN_IF_ERROR(CheckId("branch", branch));
  return View(impl_->db.get(), /*snapshot=*/true)
      .Scan(session, branch, from, to, visit, reporter);
}

absl::StatusOr<std::vector<events::EventBuffer>> LogReader::Read(
    const std::string& session, const std::string& branch, uint64_t from,
    uint64_t to) const {
  std::vector<events::EventBuffer> out;
  RETURN_IF_ERROR(
      Scan(session, branch, from, to, [&out](const events::EventBuffer& e) {
        out.push_back(e);
        return absl::OkStatus();
      }));
  return out;
}

}  // namespace combat::store
