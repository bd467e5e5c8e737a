// Bulk import of a whole session (internal to store/; EventLog::ImportSession
// is the public entry point, replay/bundle.h's ImportBundle its caller).
//
// Every record the per-command path would have written (session, secret,
// branch metadata, heads, events, command markers) goes into one table file
// written with RocksDB's SstFileWriter in key order, synced, then ingested
// with one IngestExternalFile call:
//  - all or nothing: the session becomes visible when the ingestion commits
//    (one MANIFEST edit); any failure before that leaves the database as it
//    was (the temporary file is deleted);
//  - durable when it returns: the table file is fsynced before ingestion,
//    the MANIFEST edit is synced, and the directory is fsynced afterwards;
//  - no WAL and no memtable: the events are written once, already in the
//    bottommost table format (zstd), instead of WAL + flush + compaction.
// The checks are the ones Append and Fork make (ids, parents before
// children, fork seqs within the parent, contiguous seqs, session/branch
// fields, every prev_hash link, command ids not repeated in a branch's
// history), done in memory before the file is written; canonical bytes are
// checked too unless the caller already did (bundle import verifies them).
#ifndef COMBAT_STORE_BULK_IMPORT_H_
#define COMBAT_STORE_BULK_IMPORT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "store/event_log.h"

namespace combat::store {

// Checks `branches` and writes the session. REQUIRES: the caller holds the
// write lock and has checked that the session does not exist. Returns the
// number of events written. `later_secrets` are stored keyed by their
// commitments (keys::EpochSecret), and every SeedRevealed of the branches
// leaves its marker (keys::Revealed; the first in import order), as
// LogWriter::AppendReveal does.
absl::StatusOr<uint64_t> BulkImport(rocksdb::DB* db,
                                    const rocksdb::Options& options,
                                    const std::string& path,
                                    const SessionMeta& meta,
                                    const std::vector<uint8_t>& secret,
                                    const std::vector<ImportBranch>& branches,
                                    bool check_canonical,
                                    const std::vector<uint8_t>& signing_key = {},
                                    const std::vector<std::vector<uint8_t>>& later_secrets = {});

}  // namespace combat::store

#endif  // COMBAT_STORE_BULK_IMPORT_H_
