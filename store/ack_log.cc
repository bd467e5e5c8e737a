#include "store/ack_log.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "rocksdb/env.h"
#include "store/wal_check.h"

namespace combat::store {
namespace {

constexpr char kMagic[] = "CMBA";
constexpr size_t kMagicLen = 4;

void PutBe(std::string* out, uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) {
    out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  }
}

// Reads big-endian integers and length-prefixed strings from `data`;
// any overrun makes ok() false.
class Cursor {
 public:
  explicit Cursor(absl::string_view data) : data_(data) {}
  uint64_t Be(int bytes) {
    if (!ok_ || data_.size() < static_cast<size_t>(bytes)) {
      ok_ = false;
      return 0;
    }
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) {
      v = (v << 8) | static_cast<uint8_t>(data_[i]);
    }
    data_.remove_prefix(bytes);
    return v;
  }
  absl::string_view Take(size_t n) {
    if (!ok_ || data_.size() < n) {
      ok_ = false;
      return {};
    }
    absl::string_view out = data_.substr(0, n);
    data_.remove_prefix(n);
    return out;
  }
  bool ok() const { return ok_; }
  bool done() const { return data_.empty(); }

 private:
  absl::string_view data_;
  bool ok_ = true;
};

std::optional<Acked> DecodePayload(absl::string_view payload) {
  Cursor c(payload);
  Acked a;
  a.db_seq = c.Be(8);
  a.session = std::string(c.Take(c.Be(4)));
  a.branch = std::string(c.Take(c.Be(4)));
  a.head_seq = c.Be(8);
  absl::string_view hash = c.Take(a.head_hash.size());
  if (!c.ok() || !c.done()) return std::nullopt;
  std::copy(hash.begin(), hash.end(), a.head_hash.begin());
  return a;
}

std::string AckPath(const std::string& db) {
  return absl::StrCat(db, "/", kAckFileName);
}

absl::Status FromEnv(const rocksdb::Status& s, absl::string_view what) {
  if (s.ok()) return absl::OkStatus();
  return absl::InternalError(absl::StrCat(what, ": ", s.ToString()));
}

}  // namespace

std::string EncodeAcked(const Acked& acked) {
  std::string payload;
  PutBe(&payload, acked.db_seq, 8);
  PutBe(&payload, acked.session.size(), 4);
  payload += acked.session;
  PutBe(&payload, acked.branch.size(), 4);
  payload += acked.branch;
  PutBe(&payload, acked.head_seq, 8);
  payload.append(reinterpret_cast<const char*>(acked.head_hash.data()),
                 acked.head_hash.size());
  std::string out(kMagic, kMagicLen);
  PutBe(&out, payload.size(), 4);
  out += payload;
  PutBe(&out, Crc32c(out), 4);
  return out;
}

absl::StatusOr<std::optional<Acked>> ReadAcked(rocksdb::Env* env,
                                               const std::string& db) {
  const std::string path = AckPath(db);
  if (env->FileExists(path).IsNotFound()) return std::nullopt;
  std::string data;
  RETURN_IF_ERROR(
      FromEnv(rocksdb::ReadFileToString(env, path, &data), "reading " + path));
  std::optional<Acked> last;
  absl::string_view rest(data);
  while (rest.size() >= kMagicLen + 8) {
    if (rest.substr(0, kMagicLen) != absl::string_view(kMagic, kMagicLen)) break;
    Cursor c(rest.substr(kMagicLen));
    const uint64_t len = c.Be(4);
    if (len > rest.size()) break;
    const size_t body = kMagicLen + 4 + len;
    if (rest.size() < body + 4) break;
    Cursor crc(rest.substr(body, 4));
    if (crc.Be(4) != Crc32c(rest.substr(0, body))) break;
    std::optional<Acked> a = DecodePayload(rest.substr(kMagicLen + 4, len));
    if (!a) break;
    last = std::move(a);
    rest.remove_prefix(body + 4);
  }
  return last;
}

AckLog::AckLog(std::string path, std::unique_ptr<rocksdb::WritableFile> file)
    : path_(std::move(path)), file_(std::move(file)) {}

AckLog::~AckLog() {
  if (file_ != nullptr) {
    // Records are written as they come and fsynced now and then
    // (store/README.md, "Durability"): the last ones are fsynced here.
    rocksdb::Status s = file_->Sync();
    s = file_->Close();
    (void)s;
  }
}

absl::StatusOr<std::unique_ptr<AckLog>> AckLog::Start(rocksdb::Env* env,
                                                      const std::string& db,
                                                      const Acked& start) {
  const std::string path = AckPath(db);
  const std::string tmp = path + ".tmp";
  rocksdb::EnvOptions eo;
  {
    std::unique_ptr<rocksdb::WritableFile> file;
    RETURN_IF_ERROR(
        FromEnv(env->NewWritableFile(tmp, &file, eo), "creating " + tmp));
    RETURN_IF_ERROR(FromEnv(file->Append(EncodeAcked(start)), "writing " + tmp));
    RETURN_IF_ERROR(FromEnv(file->Sync(), "syncing " + tmp));
    RETURN_IF_ERROR(FromEnv(file->Close(), "closing " + tmp));
  }
  RETURN_IF_ERROR(FromEnv(env->RenameFile(tmp, path), "renaming " + tmp));
  std::unique_ptr<rocksdb::Directory> dir;
  RETURN_IF_ERROR(FromEnv(env->NewDirectory(db, &dir), "opening " + db));
  RETURN_IF_ERROR(FromEnv(dir->Fsync(), "syncing directory " + db));
  std::unique_ptr<rocksdb::WritableFile> file;
  RETURN_IF_ERROR(
      FromEnv(env->ReopenWritableFile(path, &file, eo), "opening " + path));
  return std::unique_ptr<AckLog>(new AckLog(path, std::move(file)));
}

absl::Status AckLog::Record(const Acked& acked, Durability durability) {
  RETURN_IF_ERROR(
      FromEnv(file_->Append(EncodeAcked(acked)), "writing " + path_));
  RETURN_IF_ERROR(FromEnv(file_->Flush(), "writing " + path_));
  if (durability == Durability::kSync) {
    RETURN_IF_ERROR(FromEnv(file_->Sync(), "syncing " + path_));
  }
  return absl::OkStatus();
}

}  // namespace combat::store
