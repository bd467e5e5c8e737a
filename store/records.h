// The encoding of the log's non-event values (internal to store/).
//
// Session and branch metadata: a one-byte record tag ('S' or 'B'), a
// one-byte format version (1), then the fields in declaration order, each
// string as a big-endian uint32 length and its bytes, each integer
// big-endian (int32 as its two's complement uint32). Nothing may follow the
// last field.
// Snapshot: 'N', version 1, seq (be64), ruleset version (be32), the state
// bytes (be32 length + bytes). The store treats the state bytes as opaque.
// Head: seq (be64) + the 32-byte SHA-256 of event `seq` (40 bytes).
// Command range: first seq (be64) + last seq (be64) (16 bytes), then,
// when the writer gave one, the SHA-256 of the command's content (32
// bytes: 48 in all). Markers written without it (older ones, the set-up,
// bulk import) stay 16 bytes.
//
// Decoding treats the bytes as untrusted: every length is checked against
// what remains, so corrupt values give DataLoss (naming `context`), never a
// crash or an out-of-bounds read.
#ifndef COMBAT_STORE_RECORDS_H_
#define COMBAT_STORE_RECORDS_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "store/event_log.h"

namespace combat::store::records {

std::string EncodeSessionMeta(const SessionMeta& meta);
absl::StatusOr<SessionMeta> DecodeSessionMeta(absl::string_view value,
                                              absl::string_view context);

std::string EncodeBranchMeta(const BranchMeta& meta);
absl::StatusOr<BranchMeta> DecodeBranchMeta(absl::string_view value,
                                            absl::string_view context);

std::string EncodeHead(const Head& head);
absl::StatusOr<Head> DecodeHead(absl::string_view value,
                                absl::string_view context);

// The seq range a command produced and its content hash, if given
// (`duplicate` is not stored).
std::string EncodeCommandRange(
    uint64_t first_seq, uint64_t last_seq,
    const std::optional<events::Digest>& content = std::nullopt);
// DataLoss unless 1 <= first_seq <= last_seq.
absl::StatusOr<AppendResult> DecodeCommandRange(absl::string_view value,
                                                absl::string_view context);

// A snapshot record (Snapshot::branch is not stored: it is the key's).
std::string EncodeSnapshot(const Snapshot& snapshot);
// DataLoss unless the record is well formed; its seq and ruleset version
// must be the ones its key names (`want_seq`, `want_version`).
absl::StatusOr<Snapshot> DecodeSnapshot(absl::string_view value,
                                        uint64_t want_seq, int32_t want_version,
                                        absl::string_view context);

}  // namespace combat::store::records

#endif  // COMBAT_STORE_RECORDS_H_
