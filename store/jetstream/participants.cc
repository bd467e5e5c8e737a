// store/participants.h on JetStream (log_impl.h): the replica's
// participants, written through the log's write path.
#include <nats/nats.h>

#include <string>

#include "absl/strings/str_cat.h"
#include "events/hash.h"
#include "events/status_macros.h"
#include "rocksdb/db.h"
#include "store/jetstream/log_impl.h"
#include "store/jetstream/records.h"

namespace combat::store::jetstream {

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

}  // namespace combat::store::jetstream
