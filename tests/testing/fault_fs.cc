#include "tests/testing/fault_fs.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>
#include <utility>

namespace combat::testing {
namespace {

using rocksdb::IODebugContext;
using rocksdb::IOOptions;
using rocksdb::IOStatus;
using rocksdb::Slice;

std::string Norm(const std::string& path) {
  std::string p = std::filesystem::path(path).lexically_normal().string();
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  return p;
}

bool ReadAll(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out->assign(std::istreambuf_iterator<char>(in),
              std::istreambuf_iterator<char>());
  return true;
}

void WriteAll(const std::string& path, const std::string& data) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(data.data(), static_cast<std::streamsize>(data.size()));
}

IOStatus PowerOffStatus() {
  return IOStatus::IOError("simulated power loss: the disk is gone");
}

// ---- FaultFs's files -------------------------------------------------------

class TrackedWritable : public rocksdb::FSWritableFileOwnerWrapper {
 public:
  TrackedWritable(std::unique_ptr<rocksdb::FSWritableFile> f, FaultFs* fs,
                  std::shared_ptr<FaultFs::FileState> st)
      : FSWritableFileOwnerWrapper(std::move(f)), fs_(fs), st_(std::move(st)) {}

  IOStatus Append(const Slice& data, const IOOptions& o,
                  IODebugContext* dbg) override {
    if (!fs_->Op()) return PowerOffStatus();
    if (fs_->InjectWriteError()) {
      // Half the time a short write: a random prefix reached the file.
      size_t part = 0;
      if (data.size() > 0 && fs_->RandomBelow(2) == 0) {
        part = static_cast<size_t>(fs_->RandomBelow(data.size()));
      }
      if (part > 0) {
        IOStatus s = target()->Append(Slice(data.data(), part), o, dbg);
        if (s.ok()) Grow(part);
      }
      return IOStatus::IOError("injected write error");
    }
    IOStatus s = target()->Append(data, o, dbg);
    if (s.ok()) Grow(data.size());
    return s;
  }
  IOStatus Append(const Slice& data, const IOOptions& o,
                  const rocksdb::DataVerificationInfo& /*info*/,
                  IODebugContext* dbg) override {
    return Append(data, o, dbg);
  }
  IOStatus PositionedAppend(const Slice& data, uint64_t offset,
                            const IOOptions& o, IODebugContext* dbg) override {
    if (!fs_->Op()) return PowerOffStatus();
    if (fs_->InjectWriteError()) return IOStatus::IOError("injected write error");
    IOStatus s = target()->PositionedAppend(data, offset, o, dbg);
    if (s.ok()) {
      std::lock_guard<std::mutex> lock(fs_->mu());
      st_->size = std::max<uint64_t>(st_->size, offset + data.size());
    }
    return s;
  }
  IOStatus PositionedAppend(const Slice& data, uint64_t offset,
                            const IOOptions& o,
                            const rocksdb::DataVerificationInfo& /*info*/,
                            IODebugContext* dbg) override {
    return PositionedAppend(data, offset, o, dbg);
  }
  IOStatus Truncate(uint64_t size, const IOOptions& o,
                    IODebugContext* dbg) override {
    if (!fs_->Op()) return PowerOffStatus();
    IOStatus s = target()->Truncate(size, o, dbg);
    if (s.ok()) {
      std::lock_guard<std::mutex> lock(fs_->mu());
      st_->size = size;
      st_->synced = std::min(st_->synced, size);
    }
    return s;
  }
  IOStatus Flush(const IOOptions& o, IODebugContext* dbg) override {
    if (fs_->crashed()) return PowerOffStatus();
    return target()->Flush(o, dbg);
  }
  IOStatus Sync(const IOOptions& o, IODebugContext* dbg) override {
    return DoSync(o, dbg);
  }
  IOStatus Fsync(const IOOptions& o, IODebugContext* dbg) override {
    return DoSync(o, dbg);
  }
  // sync_file_range promises nothing about durability: not a sync here.
  IOStatus RangeSync(uint64_t, uint64_t, const IOOptions&,
                     IODebugContext*) override {
    if (fs_->crashed()) return PowerOffStatus();
    return IOStatus::OK();
  }
  bool IsSyncThreadSafe() const override { return true; }
  IOStatus Close(const IOOptions& o, IODebugContext* dbg) override {
    IOStatus s = target()->Close(o, dbg);  // always release the descriptor
    if (fs_->crashed()) return PowerOffStatus();
    return s;
  }

 private:
  void Grow(uint64_t n) {
    std::lock_guard<std::mutex> lock(fs_->mu());
    st_->size += n;
  }
  IOStatus DoSync(const IOOptions& o, IODebugContext* dbg) {
    if (!fs_->Op()) return PowerOffStatus();
    if (fs_->InjectSyncError()) return IOStatus::IOError("injected sync error");
    // The real fsync is skipped: durability is this FS's to simulate.
    IOStatus s = target()->Flush(o, dbg);
    if (!s.ok()) return s;
    std::lock_guard<std::mutex> lock(fs_->mu());
    st_->synced = st_->size;
    return IOStatus::OK();
  }

  FaultFs* fs_;
  std::shared_ptr<FaultFs::FileState> st_;
};

class FaultyRandomAccess : public rocksdb::FSRandomAccessFileOwnerWrapper {
 public:
  FaultyRandomAccess(std::unique_ptr<rocksdb::FSRandomAccessFile> f, FaultFs* fs)
      : FSRandomAccessFileOwnerWrapper(std::move(f)), fs_(fs) {}
  IOStatus Read(uint64_t offset, size_t n, const IOOptions& o, Slice* result,
                char* scratch, IODebugContext* dbg) const override {
    if (fs_->InjectReadError()) return IOStatus::IOError("injected read error");
    return target()->Read(offset, n, o, result, scratch, dbg);
  }
  IOStatus MultiRead(rocksdb::FSReadRequest* reqs, size_t num,
                     const IOOptions& o, IODebugContext* dbg) override {
    for (size_t i = 0; i < num; ++i) {
      reqs[i].status = Read(reqs[i].offset, reqs[i].len, o, &reqs[i].result,
                            reqs[i].scratch, dbg);
    }
    return IOStatus::OK();
  }

 private:
  FaultFs* fs_;
};

class FaultySequential : public rocksdb::FSSequentialFileOwnerWrapper {
 public:
  FaultySequential(std::unique_ptr<rocksdb::FSSequentialFile> f, FaultFs* fs)
      : FSSequentialFileOwnerWrapper(std::move(f)), fs_(fs) {}
  IOStatus Read(size_t n, const IOOptions& o, Slice* result, char* scratch,
                IODebugContext* dbg) override {
    if (fs_->InjectReadError()) return IOStatus::IOError("injected read error");
    return target()->Read(n, o, result, scratch, dbg);
  }
  IOStatus PositionedRead(uint64_t offset, size_t n, const IOOptions& o,
                          Slice* result, char* scratch,
                          IODebugContext* dbg) override {
    if (fs_->InjectReadError()) return IOStatus::IOError("injected read error");
    return target()->PositionedRead(offset, n, o, result, scratch, dbg);
  }

 private:
  FaultFs* fs_;
};

class TrackedDirectory : public rocksdb::FSDirectoryWrapper {
 public:
  TrackedDirectory(std::unique_ptr<rocksdb::FSDirectory> d, FaultFs* fs,
                   std::string name)
      : FSDirectoryWrapper(std::move(d)), fs_(fs), name_(std::move(name)) {}
  IOStatus Fsync(const IOOptions&, IODebugContext*) override { return DoSync(); }
  IOStatus FsyncWithDirOptions(const IOOptions&, IODebugContext*,
                               const rocksdb::DirFsyncOptions&) override {
    return DoSync();
  }

 private:
  IOStatus DoSync() {
    if (!fs_->Op()) return PowerOffStatus();
    if (fs_->InjectSyncError()) {
      return IOStatus::IOError("injected directory sync error");
    }
    fs_->SyncDir(name_);
    return IOStatus::OK();
  }
  FaultFs* fs_;
  std::string name_;
};

// ---- HoldWalFs's WAL ---------------------------------------------------------

class HoldingWritable : public rocksdb::FSWritableFileOwnerWrapper {
 public:
  explicit HoldingWritable(std::unique_ptr<rocksdb::FSWritableFile> f)
      : FSWritableFileOwnerWrapper(std::move(f)) {}
  IOStatus Append(const Slice& data, const IOOptions&,
                  IODebugContext*) override {
    held_.append(data.data(), data.size());
    return IOStatus::OK();
  }
  IOStatus Append(const Slice& data, const IOOptions& o,
                  const rocksdb::DataVerificationInfo&,
                  IODebugContext* dbg) override {
    return Append(data, o, dbg);
  }
  IOStatus Flush(const IOOptions&, IODebugContext*) override {
    return IOStatus::OK();  // stays in this process: lost on kill -9
  }
  IOStatus Sync(const IOOptions& o, IODebugContext* dbg) override {
    IOStatus s = Release(o, dbg);
    return s.ok() ? target()->Sync(o, dbg) : s;
  }
  IOStatus Fsync(const IOOptions& o, IODebugContext* dbg) override {
    IOStatus s = Release(o, dbg);
    return s.ok() ? target()->Fsync(o, dbg) : s;
  }
  IOStatus Close(const IOOptions& o, IODebugContext* dbg) override {
    IOStatus s = Release(o, dbg);
    IOStatus c = target()->Close(o, dbg);
    return s.ok() ? c : s;
  }
  uint64_t GetFileSize(const IOOptions& o, IODebugContext* dbg) override {
    return target()->GetFileSize(o, dbg) + held_.size();
  }

 private:
  IOStatus Release(const IOOptions& o, IODebugContext* dbg) {
    if (held_.empty()) return IOStatus::OK();
    IOStatus s = target()->Append(held_, o, dbg);
    if (s.ok()) s = target()->Flush(o, dbg);
    held_.clear();
    return s;
  }
  std::string held_;
};

}  // namespace

std::string DirName(const std::string& path) {
  return Norm(std::filesystem::path(Norm(path)).parent_path().string());
}

// ---- FaultFs -----------------------------------------------------------------

std::shared_ptr<FaultFs> FaultFs::Create(uint64_t seed) {
  return std::make_shared<FaultFs>(seed);
}

FaultFs::FaultFs(uint64_t seed)
    : FileSystemWrapper(rocksdb::FileSystem::Default()), rng_(seed) {}

FaultFs::~FaultFs() = default;

std::unique_ptr<rocksdb::Env> NewEnv(
    const std::shared_ptr<rocksdb::FileSystem>& fs) {
  return rocksdb::NewCompositeEnv(fs);
}

void FaultFs::CrashAfterOps(int64_t n) {
  std::lock_guard<std::mutex> lock(mu_);
  ops_left_ = n;
}

void FaultFs::CrashNow() {
  std::lock_guard<std::mutex> lock(mu_);
  crashed_ = true;
}

bool FaultFs::crashed() const {
  std::lock_guard<std::mutex> lock(mu_);
  return crashed_;
}

bool FaultFs::Op() {
  std::lock_guard<std::mutex> lock(mu_);
  if (crashed_) return false;
  if (ops_left_ == 0) {
    crashed_ = true;
    return false;
  }
  if (ops_left_ > 0) --ops_left_;
  return true;
}

bool FaultFs::OneIn(uint32_t n) { return n != 0 && rng_.Below(n) == 0; }

bool FaultFs::InjectWriteError() {
  std::lock_guard<std::mutex> lock(mu_);
  if (!OneIn(write_one_in_)) return false;
  ++counts_.write_errors;
  return true;
}

bool FaultFs::InjectSyncError() {
  std::lock_guard<std::mutex> lock(mu_);
  if (!OneIn(sync_one_in_)) return false;
  ++counts_.sync_errors;
  return true;
}

bool FaultFs::InjectReadError() {
  std::lock_guard<std::mutex> lock(mu_);
  if (!OneIn(read_one_in_)) return false;
  ++counts_.read_errors;
  return true;
}

uint64_t FaultFs::RandomBelow(uint64_t n) {
  std::lock_guard<std::mutex> lock(mu_);
  return rng_.Below(n);
}

void FaultFs::SetErrorRates(uint32_t write_one_in, uint32_t sync_one_in,
                            uint32_t read_one_in) {
  std::lock_guard<std::mutex> lock(mu_);
  write_one_in_ = write_one_in;
  sync_one_in_ = sync_one_in;
  read_one_in_ = read_one_in;
}

FaultCounts FaultFs::counts() const {
  std::lock_guard<std::mutex> lock(mu_);
  return counts_;
}

void FaultFs::SyncDir(const std::string& dir) {
  std::lock_guard<std::mutex> lock(mu_);
  dir_ops_.erase(Norm(dir));
}

uint64_t FaultFs::UnsyncedBytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  uint64_t n = 0;
  for (const auto& [path, st] : files_) n += st->size - std::min(st->size, st->synced);
  return n;
}

uint64_t FaultFs::PowerLossAndRestart(PowerLoss mode, bool lose_dir_entries) {
  std::lock_guard<std::mutex> lock(mu_);
  uint64_t dropped = 0;
  for (auto& [path, st] : files_) {
    if (st->size <= st->synced) continue;
    uint64_t keep = st->synced;
    if (mode == PowerLoss::kKeepRandomPrefix) {
      // A quarter of the time the OS had written it all back.
      keep = rng_.OneIn(4) ? st->size
                           : keep + rng_.Below(st->size - st->synced + 1);
    }
    if (keep < st->size) {
      if (::truncate(path.c_str(), static_cast<off_t>(keep)) != 0) {
        std::perror(("FaultFs: truncate " + path).c_str());
        std::abort();
      }
      dropped += st->size - keep;
      ++counts_.files_cut;
    }
    st->size = st->synced = keep;
  }
  if (lose_dir_entries) {
    for (auto& [dir, ops] : dir_ops_) {
      for (auto it = ops.rbegin(); it != ops.rend(); ++it) {
        std::error_code ec;
        if (it->kind == DirOp::kCreate) {
          if (std::filesystem::remove(it->path, ec)) ++counts_.entries_undone;
          files_.erase(it->path);
        } else {
          if (std::filesystem::exists(it->path, ec)) {
            std::filesystem::rename(it->path, it->from, ec);
            auto f = files_.find(it->path);
            if (f != files_.end()) {
              files_[it->from] = f->second;
              files_.erase(f);
            }
          }
          if (it->had_old) WriteAll(it->path, it->old_content);
          ++counts_.entries_undone;
        }
      }
    }
  }
  dir_ops_.clear();
  counts_.bytes_dropped += dropped;
  ++counts_.crashes;
  crashed_ = false;
  ops_left_ = -1;
  return dropped;
}

IOStatus FaultFs::NewWritableFile(const std::string& f,
                                  const rocksdb::FileOptions& o,
                                  std::unique_ptr<rocksdb::FSWritableFile>* r,
                                  IODebugContext* dbg) {
  if (!Op()) return PowerOffStatus();
  const std::string path = Norm(f);
  std::error_code ec;
  const bool existed = std::filesystem::exists(path, ec);
  std::unique_ptr<rocksdb::FSWritableFile> file;
  IOStatus s = target()->NewWritableFile(f, o, &file, dbg);
  if (!s.ok()) return s;
  auto st = std::make_shared<FileState>();
  {
    std::lock_guard<std::mutex> lock(mu_);
    files_[path] = st;
    if (!existed) dir_ops_[DirName(path)].push_back({DirOp::kCreate, "", path});
  }
  r->reset(new TrackedWritable(std::move(file), this, st));
  return IOStatus::OK();
}

IOStatus FaultFs::ReopenWritableFile(
    const std::string& f, const rocksdb::FileOptions& o,
    std::unique_ptr<rocksdb::FSWritableFile>* r, IODebugContext* dbg) {
  if (!Op()) return PowerOffStatus();
  const std::string path = Norm(f);
  std::error_code ec;
  const bool existed = std::filesystem::exists(path, ec);
  std::unique_ptr<rocksdb::FSWritableFile> file;
  IOStatus s = target()->ReopenWritableFile(f, o, &file, dbg);
  if (!s.ok()) return s;
  std::shared_ptr<FileState> st;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = files_.find(path);
    if (it != files_.end()) {
      st = it->second;
    } else {
      st = std::make_shared<FileState>();
      uint64_t size = existed ? std::filesystem::file_size(path, ec) : 0;
      st->size = st->synced = ec ? 0 : size;
      files_[path] = st;
      if (!existed) dir_ops_[DirName(path)].push_back({DirOp::kCreate, "", path});
    }
  }
  r->reset(new TrackedWritable(std::move(file), this, st));
  return IOStatus::OK();
}

IOStatus FaultFs::ReuseWritableFile(const std::string&, const std::string&,
                                    const rocksdb::FileOptions&,
                                    std::unique_ptr<rocksdb::FSWritableFile>*,
                                    IODebugContext*) {
  return IOStatus::NotSupported("FaultFs: WAL recycling is not modelled");
}

IOStatus FaultFs::NewRandomAccessFile(
    const std::string& f, const rocksdb::FileOptions& o,
    std::unique_ptr<rocksdb::FSRandomAccessFile>* r, IODebugContext* dbg) {
  if (InjectReadError()) return IOStatus::IOError("injected open error");
  std::unique_ptr<rocksdb::FSRandomAccessFile> file;
  IOStatus s = target()->NewRandomAccessFile(f, o, &file, dbg);
  if (!s.ok()) return s;
  r->reset(new FaultyRandomAccess(std::move(file), this));
  return IOStatus::OK();
}

IOStatus FaultFs::NewSequentialFile(
    const std::string& f, const rocksdb::FileOptions& o,
    std::unique_ptr<rocksdb::FSSequentialFile>* r, IODebugContext* dbg) {
  if (InjectReadError()) return IOStatus::IOError("injected open error");
  std::unique_ptr<rocksdb::FSSequentialFile> file;
  IOStatus s = target()->NewSequentialFile(f, o, &file, dbg);
  if (!s.ok()) return s;
  r->reset(new FaultySequential(std::move(file), this));
  return IOStatus::OK();
}

IOStatus FaultFs::NewDirectory(const std::string& name, const IOOptions& o,
                               std::unique_ptr<rocksdb::FSDirectory>* r,
                               IODebugContext* dbg) {
  std::unique_ptr<rocksdb::FSDirectory> dir;
  IOStatus s = target()->NewDirectory(name, o, &dir, dbg);
  if (!s.ok()) return s;
  r->reset(new TrackedDirectory(std::move(dir), this, Norm(name)));
  return IOStatus::OK();
}

IOStatus FaultFs::RenameFile(const std::string& s, const std::string& t,
                             const IOOptions& o, IODebugContext* dbg) {
  if (!Op()) return PowerOffStatus();
  const std::string from = Norm(s);
  const std::string to = Norm(t);
  DirOp op{DirOp::kRename, from, to};
  op.had_old = ReadAll(to, &op.old_content);
  IOStatus st = target()->RenameFile(s, t, o, dbg);
  if (!st.ok()) return st;
  std::lock_guard<std::mutex> lock(mu_);
  auto it = files_.find(from);
  if (it != files_.end()) {
    files_[to] = it->second;
    files_.erase(it);
  } else {
    files_.erase(to);
  }
  dir_ops_[DirName(to)].push_back(std::move(op));
  return IOStatus::OK();
}

IOStatus FaultFs::DeleteFile(const std::string& f, const IOOptions& o,
                             IODebugContext* dbg) {
  if (!Op()) return PowerOffStatus();
  IOStatus s = target()->DeleteFile(f, o, dbg);
  if (s.ok()) {
    std::lock_guard<std::mutex> lock(mu_);
    files_.erase(Norm(f));
  }
  return s;
}

IOStatus FaultFs::Truncate(const std::string& f, size_t size,
                           const IOOptions& o, IODebugContext* dbg) {
  if (!Op()) return PowerOffStatus();
  IOStatus s = target()->Truncate(f, size, o, dbg);
  if (s.ok()) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = files_.find(Norm(f));
    if (it != files_.end()) {
      it->second->size = size;
      it->second->synced = std::min<uint64_t>(it->second->synced, size);
    }
  }
  return s;
}

IOStatus FaultFs::LinkFile(const std::string&, const std::string&,
                           const IOOptions&, IODebugContext*) {
  return IOStatus::NotSupported("FaultFs: hard links are not modelled");
}

// ---- HoldWalFs -----------------------------------------------------------------

HoldWalFs::HoldWalFs() : FileSystemWrapper(rocksdb::FileSystem::Default()) {}

IOStatus HoldWalFs::NewWritableFile(const std::string& f,
                                    const rocksdb::FileOptions& o,
                                    std::unique_ptr<rocksdb::FSWritableFile>* r,
                                    IODebugContext* dbg) {
  std::unique_ptr<rocksdb::FSWritableFile> file;
  IOStatus s = target()->NewWritableFile(f, o, &file, dbg);
  if (!s.ok()) return s;
  if (f.size() > 4 && f.compare(f.size() - 4, 4, ".log") == 0) {
    r->reset(new HoldingWritable(std::move(file)));
  } else {
    *r = std::move(file);
  }
  return IOStatus::OK();
}

}  // namespace combat::testing
