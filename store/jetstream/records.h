// One JetStream message's payload: the records (store/README.md's key
// layout) that one write adds, as the RocksDB write path decided them.
//   "CJS1", then per record: key length (be32), key, value length (be32),
//   value.
// The Combat-Sha256 header holds the SHA-256 of the payload; a payload
// that does not match it or does not parse is DataLoss naming the message.
#ifndef COMBAT_STORE_JETSTREAM_RECORDS_H_
#define COMBAT_STORE_JETSTREAM_RECORDS_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rocksdb/write_batch.h"

namespace combat::store::jetstream {

// The command marker a batch writes (key c\0<session>\0<branch>\0<id>).
struct MarkerInfo {
  std::string command;
  uint64_t first_seq = 0, last_seq = 0;
  std::string content_hex;  // "" when the marker binds none
};

struct EncodedBatch {
  std::string payload;
  std::optional<MarkerInfo> marker;
};

// InvalidArgument when the batch holds anything but puts and deletes of
// participant records (p\0...: a revoked token, a creation's leftovers); the
// log's own records are never deleted.
absl::StatusOr<EncodedBatch> EncodeBatch(rocksdb::WriteBatch& batch);

// Decodes `payload` into `out` (puts, and deletes of participant records;
// DataLoss for a delete of anything else). Reveal markers (v\0...) are kept
// when one exists: `keep_existing` says whether a key already has a value.
absl::Status DecodeBatch(absl::string_view payload, absl::string_view context,
                         const std::function<bool(const std::string&)>& keep_existing,
                         rocksdb::WriteBatch* out);

}  // namespace combat::store::jetstream

#endif  // COMBAT_STORE_JETSTREAM_RECORDS_H_
