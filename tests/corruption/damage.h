// Tools for the corruption tests: a base database with a realistic log,
// copies of it, damage at the file level (WAL, SST) and at the value level
// (through a raw rocksdb::DB, so RocksDB's own checksums stay valid), and
// an inspector that reads everything back and classifies the result.
#ifndef COMBAT_TESTS_CORRUPTION_DAMAGE_H_
#define COMBAT_TESTS_CORRUPTION_DAMAGE_H_

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "tests/testing/gen.h"
#include "tests/testing/verify.h"

namespace combat::testing {

// What the base database holds: session "s1", branch "main" with
// `commands` generated commands, and branch "alt" forked from main at the
// end of command `commands / 2` with a few commands of its own. The last
// write is main's last command.
struct Original {
  std::map<std::string, std::vector<std::vector<uint8_t>>> events;  // by branch
  // Every command id with its range, by branch.
  std::map<std::string, std::vector<std::pair<std::string, std::pair<uint64_t, uint64_t>>>>
      commands;
  uint64_t fork_seq = 0;
  std::vector<uint8_t> secret;
};

// Writes the base log into `db`. With `flush`, the database is closed and
// reopened once (recovery writes the WAL into an SST) so the data lives in
// table files and the WAL is empty; otherwise it lives in the WAL only.
absl::StatusOr<Original> BuildBase(const std::string& db, int commands, bool flush);

// Copies directory `from` to `to` (recursively; `to` must not exist).
void CopyDir(const std::string& from, const std::string& to);

// Files of `db` whose name ends with `suffix` (".log", ".sst"), sorted.
std::vector<std::string> FilesEndingWith(const std::string& db,
                                         const std::string& suffix);
std::string ReadFile(const std::string& path);
void WriteFile(const std::string& path, const std::string& data);

// The logical records of a RocksDB WAL file, as [begin, end) byte ranges
// (from the first fragment's header to the last fragment's end). The
// format (db/log_format.h): 32 KiB blocks; a fragment is a 7-byte header
// (crc32c 4, length 2 LE, type 1: 1 full, 2 first, 3 middle, 4 last) and
// its payload; a block's last < 7 bytes are padding.
std::vector<std::pair<size_t, size_t>> WalRecords(const std::string& wal);

// The documented key of event `seq` (store/event_log.h, "Layout").
std::string EventKey(const std::string& session, const std::string& branch,
                     uint64_t seq);
std::string CommandKey(const std::string& session, const std::string& branch,
                       const std::string& command);
std::string HeadKey(const std::string& session, const std::string& branch);

// Raw RocksDB access to a closed database (checksums stay valid).
absl::Status RawPut(const std::string& db, const std::string& key,
                    const std::string& value);
absl::Status RawDelete(const std::string& db, const std::string& key);
absl::StatusOr<std::string> RawGet(const std::string& db, const std::string& key);

// What reading a damaged database gave.
enum class Outcome {
  kRefused,   // EventLog::Open failed
  kDetected,  // open worked, a read or the verifier returned an error
  kIntact,    // everything reads back exactly as the original
  kPrefix,    // every branch is a whole-command prefix of the original
              // (shorter), chain verified, no error: what a torn tail gives
  kSilent,    // no error, but the log differs from the original otherwise
};
const char* OutcomeName(Outcome o);

struct Inspection {
  Outcome outcome = Outcome::kIntact;
  Layer layer = Layer::kNone;   // for kRefused/kDetected
  std::string message;          // the error, or what differs
  bool names_seq = false;       // the error names a seq
  std::map<std::string, uint64_t> lengths;  // events read per branch
};

// Opens `db` with the store's default options (read-write, or read-only
// as the read-only verbs do) and reads everything (sessions, branches,
// heads, every event of every branch through the full verifier, every
// command id) against `orig`.
enum class Access { kReadWrite, kReadOnly };
Inspection Inspect(const std::string& db, const Original& orig,
                   Access access = Access::kReadWrite);

}  // namespace combat::testing

#endif  // COMBAT_TESTS_CORRUPTION_DAMAGE_H_
