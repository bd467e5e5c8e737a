// A check of RocksDB's write-ahead log files, run before DB::Open.
//
// Why: RocksDB 7.8.3 (kTolerateCorruptedTailRecords, paranoid checks)
// refuses a WAL whose record *body* fails its checksum, but it takes some
// damaged record *headers* for the end of the log and opens without an
// error, dropping that record and every later one: a type byte flipped to
// a "recyclable" type (the reader then sees a foreign log number), or a
// length bit flipped so the record seems to run past the end of the file.
// Measured: 41 of 456 single-bit header flips in a real WAL silently
// shortened the log (tests/corruption/closed_gaps_test.cc, which now passes).
// After DB::Open the evidence is gone (recovery flushes the WAL into a
// table file and deletes it), so the check runs before.
//
// The rule: a WAL may end in a torn record (a write that was cut, never
// acknowledged), but damage may not hide acknowledged data. A record that
// fails to parse (bad checksum, impossible type or length, zero header) is
// accepted only as the torn end of the file, and refused (DataLoss naming
// the file and byte offsets) when either
//   - a checksum-valid record lies after it (in the rest of its 32 KiB
//     block, found by trying every offset, or at the start of any later
//     block, where a record fragment always starts), or
//   - flipping one bit of its 7-byte header makes it a checksum-valid record
//     (a complete record with a damaged header, not a cut write).
// A cut write does not pass either test except by a CRC-32C collision.
//
// Format (RocksDB db/log_format.h): 32 KiB blocks; a fragment is a header
// (masked CRC-32C 4 bytes LE, length 2 bytes LE, type 1 byte; recyclable
// types 5..8 add a 4-byte log number) and its payload; the checksum covers
// the type byte, the log number if any, and the payload; a block's last
// < 7 bytes are zero padding. This store never enables log recycling, so a
// recyclable type is damage.
#ifndef COMBAT_STORE_WAL_CHECK_H_
#define COMBAT_STORE_WAL_CHECK_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace rocksdb {
class Env;
}

namespace combat::store {

// Checks every `*.log` file in directory `db_path` through `env` (files
// are read whole). OK when the directory does not exist yet. DataLoss as
// described above; the I/O error when a file cannot be listed or read.
absl::Status CheckWalFiles(rocksdb::Env* env, const std::string& db_path);

// Checks the bytes of one WAL file; `name` is only used in messages.
absl::Status CheckWalBytes(absl::string_view wal, absl::string_view name);

// CRC-32C (Castagnoli) of `data`, continuing from `crc` (0 to start), as
// RocksDB computes it; exposed for tests.
uint32_t Crc32c(absl::string_view data, uint32_t crc = 0);

}  // namespace combat::store

#endif  // COMBAT_STORE_WAL_CHECK_H_
