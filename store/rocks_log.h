// The RocksDB backend of the event log: the classes
// that implement LogReader, LogWriter and SnapshotCache over one database
// (LogImpl), and RocksEventLog, the EventLog they make together.
// EventLog::Open returns one for a plain path or "rocksdb:PATH";
// store/jetstream/ keeps one as its local replica.
#ifndef COMBAT_STORE_ROCKS_LOG_H_
#define COMBAT_STORE_ROCKS_LOG_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "events/codec.h"
#include "events/hash.h"
#include "rocksdb/db.h"
#include "store/batch_sink.h"
#include "store/event_log.h"
#include "store/log_reader.h"
#include "store/log_types.h"
#include "store/log_writer.h"
#include "store/participants.h"
#include "store/scan_reporter.h"
#include "store/snapshot_cache.h"

namespace combat::store {

struct LogImpl;
class RocksParticipants;  // store/rocks_participants.h

class RocksLogReader : public virtual LogReader {
 public:
  absl::StatusOr<SessionMeta> GetSession(const std::string& session) const override;
  absl::StatusOr<std::vector<std::string>> ListSessions() const override;
  absl::StatusOr<std::vector<uint8_t>> GetSecret(const std::string& session) const override;
  absl::StatusOr<std::vector<uint8_t>> GetSecretFor(
      const std::string& session, const std::vector<uint8_t>& commitment) const override;
  absl::StatusOr<std::vector<StoredSecret>> ListSecrets(
      const std::string& session) const override;
  absl::StatusOr<std::optional<RevealMarker>> GetReveal(
      const std::string& session, const std::vector<uint8_t>& commitment) const override;
  absl::StatusOr<std::vector<RevealMarker>> ListReveals(const std::string& session) const override;
  absl::StatusOr<std::vector<uint8_t>> GetSigningKey(const std::string& session) const override;
  absl::StatusOr<BranchMeta> GetBranch(const std::string& session,
                                       const std::string& branch) const override;
  absl::StatusOr<std::vector<BranchMeta>> ListBranches(
      const std::string& session) const override;
  absl::StatusOr<Head> GetHead(const std::string& session,
                               const std::string& branch) const override;
  absl::StatusOr<std::optional<AppendResult>> FindCommand(
      const std::string& session, const std::string& branch,
      const std::string& command_id) const override;
  absl::Status Scan(const std::string& session, const std::string& branch,
                    uint64_t from, uint64_t to,
                    const std::function<absl::Status(const events::EventBuffer&)>&
                        visit,
                    ScanReporter* reporter = nullptr) const override;

 protected:
  explicit RocksLogReader(LogImpl* impl) : impl_(impl) {}

 private:
  LogImpl* impl_;  // not owned: the EventLog's
};

class RocksLogWriter : public virtual LogWriter {
 public:
  absl::Status CreateSession(const SessionMeta& meta,
                             const std::vector<uint8_t>& secret_seed) override;
  absl::Status CreateSession(const SessionMeta& meta,
                             const std::vector<uint8_t>& secret_seed,
                             const std::string& command_id,
                             const std::vector<events::EventBuffer>& first,
                             const std::vector<uint8_t>& signing_key = {}) override;
  absl::Status Fork(const std::string& session, const std::string& parent,
                    uint64_t fork_seq, const std::string& branch,
                    const std::string& author, const std::string& reason) override;
  absl::Status Fork(const std::string& session, const std::string& parent,
                    uint64_t fork_seq, const std::string& branch,
                    const std::string& author, const std::string& reason,
                    const events::EventBuffer& record) override;
  absl::StatusOr<AppendResult> Append(
      const std::string& session, const std::string& branch,
      uint64_t expected_seq, const std::string& command_id,
      const std::vector<events::EventBuffer>& events,
      const std::optional<events::Digest>& content = std::nullopt) override;
  absl::StatusOr<AppendResult> AppendReveal(
      const std::string& session, const std::string& branch,
      uint64_t expected_seq, const std::string& command_id,
      const std::vector<events::EventBuffer>& events,
      const std::optional<events::Digest>& content, const RevealRecord& reveal) override;
  absl::StatusOr<uint64_t> ImportSession(
      const SessionMeta& meta, const std::vector<uint8_t>& secret,
      const std::vector<ImportBranch>& branches,
      Canonical canonical = Canonical::kCheck,
      const std::vector<uint8_t>& signing_key = {},
      const std::vector<std::vector<uint8_t>>& later_secrets = {}) override;

 protected:
  explicit RocksLogWriter(LogImpl* impl) : impl_(impl) {}

 private:
  absl::StatusOr<AppendResult> AppendWith(
      const std::string& session, const std::string& branch,
      uint64_t expected_seq, const std::string& command_id,
      const std::vector<events::EventBuffer>& events,
      const std::optional<events::Digest>& content, const RevealRecord* reveal);
  absl::Status ForkWith(const std::string& session, const std::string& parent,
                        uint64_t fork_seq, const std::string& branch,
                        const std::string& author, const std::string& reason,
                        const events::EventBuffer* record);
  LogImpl* impl_;  // not owned: the EventLog's
};

class RocksSnapshotCache : public virtual SnapshotCache {
 public:
  absl::Status PutSnapshot(const std::string& session,
                           const std::string& branch, uint64_t seq,
                           int32_t ruleset_version,
                           const std::vector<uint8_t>& state) override;
  absl::StatusOr<std::optional<Snapshot>> NearestSnapshot(
      const std::string& session, const std::string& branch, uint64_t seq,
      int32_t ruleset_version) const override;
  absl::StatusOr<uint64_t> CountSnapshots(const std::string& session) const override;

 protected:
  explicit RocksSnapshotCache(LogImpl* impl) : impl_(impl) {}

 private:
  LogImpl* impl_;  // not owned: the EventLog's
};

// One open RocksDB database (store/README.md has its layout and
// guarantees). Thread safety: as EventLog.
class RocksEventLog final : public EventLog,
                            public RocksLogReader,
                            public RocksLogWriter,
                            public RocksSnapshotCache {
 public:
  // EventLog::Open's RocksDB side: `path` is a directory.
  static absl::StatusOr<std::unique_ptr<RocksEventLog>> Open(
      const std::string& path, Options options = {});
  ~RocksEventLog() override;

  bool read_only() const override;
  absl::Status VerifyChecksums() const override;
  absl::Status SyncWal() override;
  absl::Status Compact() override;
  // Nothing to follow: OK, the listener is never called.
  absl::Status Follow(ChangeListener listener) override;
  // The participants (store/participants.h); public for a backend keeping
  // this database as its replica, whose own participants run these.
  ParticipantStore& participants() override;

  // For a backend keeping this database as its replica (store/jetstream/):
  // the database, and the sink its writes go to instead (not owned; set
  // before any write).
  rocksdb::DB* db();
  void SetSink(BatchSink* sink);

 private:
  explicit RocksEventLog(std::unique_ptr<LogImpl> impl);
  std::unique_ptr<LogImpl> impl_;
  std::unique_ptr<RocksParticipants> participants_;
};

}  // namespace combat::store

#endif  // COMBAT_STORE_ROCKS_LOG_H_
