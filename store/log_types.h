// The event log's value types: open options, session and branch records,
// heads, snapshots, import branches and append results (store/event_log.h
// has the layout and guarantees).
#ifndef COMBAT_STORE_LOG_TYPES_H_
#define COMBAT_STORE_LOG_TYPES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "events/codec.h"
#include "events/hash.h"

namespace rocksdb {
class Env;
}  // namespace rocksdb

namespace combat::store {

struct Options {
  bool sync = true;               // fsync every append (power-loss safe)
  // Create a database when `path` is absent or an empty directory (never
  // over other files: store/db_dir.h). False: NotFound unless it exists.
  bool create_if_missing = true;
  // For tests: fault injection (a rocksdb::Env over a FileSystem that
  // simulates power loss or I/O errors). nullptr = the default Env. Not
  // owned; it must outlive the EventLog.
  rocksdb::Env* env = nullptr;
  // kReadOnly: DB::OpenForReadOnly: nothing is created or changed (no
  // LOCK taken, so it may run while a writer holds the database); every
  // write method returns FailedPrecondition. Implies !create_if_missing.
  enum class Access { kReadWrite, kReadOnly };
  Access access = Access::kReadWrite;
};

// The command id of a fork record (the first event of a forked branch,
// schema v6): reserved on every forked branch.
inline constexpr char kForkCommandId[] = "fork";

struct SessionMeta {
  std::string session;
  std::string ruleset;
  int32_t ruleset_version = 0;
  std::string title;
};

struct BranchMeta {
  std::string session;
  std::string branch;
  std::string parent;             // "" for "main"
  uint64_t fork_seq = 0;          // events 1..fork_seq come from parent
  std::string author;
  std::string reason;
};

struct Head {
  uint64_t seq = 0;               // 0 = empty branch
  events::Digest hash{};          // SHA-256 of event `seq` (zeros when 0)
};

// A snapshot of derived state (see PutSnapshot).
struct Snapshot {
  std::string branch;          // the branch whose own events hold `seq`
  uint64_t seq = 0;            // the state after this event
  int32_t ruleset_version = 0;
  std::vector<uint8_t> state;  // opaque to the store (replay/ writes
                               // kernel::EncodeState bytes)
};

// One branch of a bulk import (EventLog::ImportSession): its metadata
// (parent "" and fork seq 0 for main) and its own events, seqs
// fork_seq+1.., each command's events consecutive and carrying its id.
struct ImportBranch {
  BranchMeta meta;
  const std::vector<events::EventBuffer>* own = nullptr;  // not owned
};

// What a reveal writes besides its events (LogWriter::AppendReveal): the
// commitment whose secret the events reveal, and the fresh secret the
// reveal commits to (empty: none, a reveal at the session's end).
struct RevealRecord {
  std::vector<uint8_t> revealed;  // the commitment (SHA-256 of the secret)
  std::vector<uint8_t> fresh;     // the fresh secret, or empty
};

// Where a commitment's secret was first revealed (LogReader::GetReveal).
struct RevealMarker {
  std::string branch;
  uint64_t seq = 0;  // the SeedRevealed event
  std::string commitment_hex;  // the commitment revealed (ListReveals)
};

// A dice secret the database holds (LogReader::ListSecrets): the session's
// first (stored by CreateSession) or a later one, keyed by its commitment.
struct StoredSecret {
  bool first = false;
  std::string commitment_hex;  // the key's commitment; "" for the first
  std::vector<uint8_t> secret;
};

struct AppendResult {
  uint64_t first_seq = 0;
  uint64_t last_seq = 0;
  bool duplicate = false;         // the command id was already applied
  // The content hash the command's marker binds (Append's `content`, or
  // events::MarkerContent of its events: set-up, fork records, bulk
  // import, appends without one); nullopt for markers of older logs.
  std::optional<events::Digest> content;
};

// True when `id` is a valid session, branch or command id: 1..64 chars of
// [A-Za-z0-9_.:-].
bool ValidId(const std::string& id);

}  // namespace combat::store

#endif  // COMBAT_STORE_LOG_TYPES_H_
