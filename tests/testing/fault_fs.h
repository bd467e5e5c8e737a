// Fault-injecting RocksDB FileSystems for reliability tests, passed to the
// store through store::Options::env (an Env made by NewEnv()).
//
// FaultFs: writes go through to the real files, and for every file written
// through it the FS remembers how much is durable (synced). It simulates:
//  - power loss: CrashAfterOps(n) / CrashNow() cut the power: from then on
//    every mutating call (append, sync, create, rename, delete, dir fsync)
//    fails and does nothing. With the database closed, PowerLoss() then
//    makes the disk what a machine would find after the power came back:
//    each file cut to its synced length (kDropUnsynced), or to its synced
//    length plus a random part of what followed (kKeepRandomPrefix: a torn
//    write), and, when `lose_dir_entries`, the directory operations since
//    the directory's last fsync undone (files created since are removed,
//    renames reverted with the old target restored). Deletions are taken as
//    durable at once (RocksDB only deletes files it no longer needs).
//  - I/O errors at 1 in N on writes (the error may come after a random
//    prefix of the data reached the file, as a short write would leave it),
//    on syncs (nothing becomes durable) and on reads.
// Not modelled: reordering of synced writes, corruption of synced data
// (tests/corruption does that), the OS flushing unsynced data on its own.
//
// HoldWalFs: the negative control for the kill -9 test. It keeps WAL
// appends in the writing process's memory until a sync, as RocksDB's
// manual_wal_flush would without FlushWAL(): a kill -9 then loses
// acknowledged appends made with sync=false, which the crash checker must
// detect.
#ifndef COMBAT_TESTS_TESTING_FAULT_FS_H_
#define COMBAT_TESTS_TESTING_FAULT_FS_H_

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "rocksdb/env.h"
#include "rocksdb/file_system.h"
#include "tests/testing/gen.h"

namespace combat::testing {

enum class PowerLoss {
  kDropUnsynced,      // every byte written since the last sync is lost
  kKeepRandomPrefix,  // a random prefix of those bytes survives (a torn
                      // write; all of them a quarter of the time)
};

struct FaultCounts {
  uint64_t write_errors = 0;   // injected write failures
  uint64_t sync_errors = 0;    // injected sync failures
  uint64_t read_errors = 0;    // injected read failures
  uint64_t crashes = 0;        // power losses applied
  uint64_t bytes_dropped = 0;  // unsynced bytes removed by power losses
  uint64_t files_cut = 0;      // files shortened by power losses
  uint64_t entries_undone = 0; // creates removed + renames reverted
  uint64_t injected() const { return write_errors + sync_errors + read_errors; }
};

class FaultFs : public rocksdb::FileSystemWrapper {
 public:
  // Use Create(): RocksDB's composite Env needs a shared_ptr.
  static std::shared_ptr<FaultFs> Create(uint64_t seed);
  explicit FaultFs(uint64_t seed);
  ~FaultFs() override;

  static const char* kClassName() { return "CombatFaultFs"; }
  const char* Name() const override { return kClassName(); }

  // ---- power loss ----
  // After `n` more mutating calls the power goes (the n+1-th fails); -1
  // disarms.
  void CrashAfterOps(int64_t n);
  void CrashNow();
  bool crashed() const;
  // REQUIRES: every database on this FS is closed (destroyed). Applies the
  // loss and powers on again. Returns the number of unsynced bytes lost.
  uint64_t PowerLossAndRestart(PowerLoss mode, bool lose_dir_entries);
  // Total unsynced bytes right now (what a power loss could take).
  uint64_t UnsyncedBytes() const;

  // ---- I/O errors (0 = off) ----
  void SetErrorRates(uint32_t write_one_in, uint32_t sync_one_in,
                     uint32_t read_one_in);

  FaultCounts counts() const;

  // ---- FileSystem overrides ----
  rocksdb::IOStatus NewWritableFile(const std::string& f,
                                    const rocksdb::FileOptions& o,
                                    std::unique_ptr<rocksdb::FSWritableFile>* r,
                                    rocksdb::IODebugContext* dbg) override;
  rocksdb::IOStatus ReopenWritableFile(
      const std::string& f, const rocksdb::FileOptions& o,
      std::unique_ptr<rocksdb::FSWritableFile>* r,
      rocksdb::IODebugContext* dbg) override;
  rocksdb::IOStatus ReuseWritableFile(
      const std::string& f, const std::string& old,
      const rocksdb::FileOptions& o,
      std::unique_ptr<rocksdb::FSWritableFile>* r,
      rocksdb::IODebugContext* dbg) override;
  rocksdb::IOStatus NewRandomAccessFile(
      const std::string& f, const rocksdb::FileOptions& o,
      std::unique_ptr<rocksdb::FSRandomAccessFile>* r,
      rocksdb::IODebugContext* dbg) override;
  rocksdb::IOStatus NewSequentialFile(
      const std::string& f, const rocksdb::FileOptions& o,
      std::unique_ptr<rocksdb::FSSequentialFile>* r,
      rocksdb::IODebugContext* dbg) override;
  rocksdb::IOStatus NewDirectory(const std::string& name,
                                 const rocksdb::IOOptions& o,
                                 std::unique_ptr<rocksdb::FSDirectory>* r,
                                 rocksdb::IODebugContext* dbg) override;
  rocksdb::IOStatus RenameFile(const std::string& s, const std::string& t,
                               const rocksdb::IOOptions& o,
                               rocksdb::IODebugContext* dbg) override;
  rocksdb::IOStatus DeleteFile(const std::string& f,
                               const rocksdb::IOOptions& o,
                               rocksdb::IODebugContext* dbg) override;
  rocksdb::IOStatus Truncate(const std::string& f, size_t size,
                             const rocksdb::IOOptions& o,
                             rocksdb::IODebugContext* dbg) override;
  rocksdb::IOStatus LinkFile(const std::string& s, const std::string& t,
                             const rocksdb::IOOptions& o,
                             rocksdb::IODebugContext* dbg) override;

  // ---- used by the file wrappers ----
  struct FileState {
    uint64_t size = 0;    // bytes written
    uint64_t synced = 0;  // bytes durable
  };
  // Counts one mutating call; false when the power is (now) off.
  bool Op();
  bool InjectWriteError();
  bool InjectSyncError();
  bool InjectReadError();
  uint64_t RandomBelow(uint64_t n);
  void SyncDir(const std::string& dir);
  std::mutex& mu() { return mu_; }

 private:
  struct DirOp {
    enum Kind { kCreate, kRename } kind;
    std::string from;  // rename source
    std::string path;  // created file / rename target
    bool had_old = false;
    std::string old_content;  // the rename target before it was replaced
  };
  bool OneIn(uint32_t n);  // REQUIRES: mu_ held

  mutable std::mutex mu_;
  Rng rng_;
  int64_t ops_left_ = -1;
  bool crashed_ = false;
  uint32_t write_one_in_ = 0, sync_one_in_ = 0, read_one_in_ = 0;
  FaultCounts counts_;
  std::map<std::string, std::shared_ptr<FileState>> files_;
  std::map<std::string, std::vector<DirOp>> dir_ops_;  // by directory
};

class HoldWalFs : public rocksdb::FileSystemWrapper {
 public:
  HoldWalFs();
  static const char* kClassName() { return "CombatHoldWalFs"; }
  const char* Name() const override { return kClassName(); }
  rocksdb::IOStatus NewWritableFile(const std::string& f,
                                    const rocksdb::FileOptions& o,
                                    std::unique_ptr<rocksdb::FSWritableFile>* r,
                                    rocksdb::IODebugContext* dbg) override;
};

// An Env over `fs` (FaultFs or HoldWalFs), for store::Options::env.
std::unique_ptr<rocksdb::Env> NewEnv(const std::shared_ptr<rocksdb::FileSystem>& fs);

// The normalized directory part of `path`.
std::string DirName(const std::string& path);

}  // namespace combat::testing

#endif  // COMBAT_TESTS_TESTING_FAULT_FS_H_
