// The RocksDB backend's participants and operators (internal to store/):
// store/participants.h's ParticipantStore over one database, each
// read-check-write under its session's participants lock
// (store/write_locks.h) and written as one batch (with fsync as
// Options::sync), or, when the database is the replica of a log held
// elsewhere, as one of that log's writes (store/batch_sink.h).
//
// Thread safety: as ParticipantStore (all methods may be called
// concurrently).
#ifndef COMBAT_STORE_ROCKS_PARTICIPANTS_H_
#define COMBAT_STORE_ROCKS_PARTICIPANTS_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "store/participants.h"

namespace combat::store {

struct LogImpl;

class RocksParticipants final : public ParticipantStore {
 public:
  explicit RocksParticipants(LogImpl* impl) : impl_(impl) {}

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
  LogImpl* impl_;  // not owned: the EventLog's
};

}  // namespace combat::store

#endif  // COMBAT_STORE_ROCKS_PARTICIPANTS_H_
