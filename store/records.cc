#include "store/records.h"

#include <cstring>

#include "absl/strings/str_cat.h"
#include "store/keys.h"

namespace combat::store::records {
namespace {

constexpr char kSessionTag = 'S';
constexpr char kBranchTag = 'B';
constexpr char kSnapshotTag = 'N';
constexpr char kFormatVersion = 1;
constexpr size_t kHeadSize = 8 + 32;
constexpr size_t kCommandRangeSize = 16;
constexpr size_t kCommandRangeWithContentSize = 16 + 32;

void AppendBe32(uint32_t value, std::string* out) {
  for (int shift = 24; shift >= 0; shift -= 8) {
    out->push_back(static_cast<char>((value >> shift) & 0xff));
  }
}

void AppendString(const std::string& s, std::string* out) {
  AppendBe32(static_cast<uint32_t>(s.size()), out);
  out->append(s);
}

// Reads fields from untrusted bytes; the first failure sticks and later
// reads return zero values, so callers check ok() once at the end.
class Reader {
 public:
  explicit Reader(absl::string_view bytes) : rest_(bytes) {}

  bool ok() const { return ok_; }
  bool done() const { return rest_.empty(); }

  uint8_t Byte() {
    if (!Need(1)) return 0;
    uint8_t b = static_cast<uint8_t>(rest_[0]);
    rest_.remove_prefix(1);
    return b;
  }
  uint32_t Be32() {
    if (!Need(4)) return 0;
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v = (v << 8) | static_cast<uint8_t>(rest_[i]);
    rest_.remove_prefix(4);
    return v;
  }
  uint64_t Be64() {
    if (!Need(8)) return 0;
    uint64_t v = keys::ReadBe64(rest_.data());
    rest_.remove_prefix(8);
    return v;
  }
  std::string String() {
    uint32_t size = Be32();
    if (!Need(size)) return std::string();
    std::string s(rest_.data(), size);
    rest_.remove_prefix(size);
    return s;
  }

 private:
  bool Need(size_t n) {
    if (!ok_ || rest_.size() < n) {
      ok_ = false;
      return false;
    }
    return true;
  }

  absl::string_view rest_;
  bool ok_ = true;
};

absl::Status Corrupt(absl::string_view context, absl::string_view what,
                     size_t size) {
  return absl::DataLossError(
      absl::StrCat(context, ": corrupt ", what, " (", size, " bytes)"));
}

// Checks the tag and version bytes.
bool Header(Reader& r, char tag) {
  uint8_t t = r.Byte();
  uint8_t v = r.Byte();
  return r.ok() && t == static_cast<uint8_t>(tag) &&
         v == static_cast<uint8_t>(kFormatVersion);
}

}  // namespace

std::string EncodeSessionMeta(const SessionMeta& meta) {
  std::string out;
  out.push_back(kSessionTag);
  out.push_back(kFormatVersion);
  AppendString(meta.session, &out);
  AppendString(meta.ruleset, &out);
  AppendBe32(static_cast<uint32_t>(meta.ruleset_version), &out);
  AppendString(meta.title, &out);
  return out;
}

absl::StatusOr<SessionMeta> DecodeSessionMeta(absl::string_view value,
                                              absl::string_view context) {
  Reader r(value);
  if (!Header(r, kSessionTag)) {
    return Corrupt(context, "session record header", value.size());
  }
  SessionMeta meta;
  meta.session = r.String();
  meta.ruleset = r.String();
  meta.ruleset_version = static_cast<int32_t>(r.Be32());
  meta.title = r.String();
  if (!r.ok() || !r.done()) {
    return Corrupt(context, "session record", value.size());
  }
  return meta;
}

std::string EncodeBranchMeta(const BranchMeta& meta) {
  std::string out;
  out.push_back(kBranchTag);
  out.push_back(kFormatVersion);
  AppendString(meta.session, &out);
  AppendString(meta.branch, &out);
  AppendString(meta.parent, &out);
  keys::AppendBe64(meta.fork_seq, &out);
  AppendString(meta.author, &out);
  AppendString(meta.reason, &out);
  return out;
}

absl::StatusOr<BranchMeta> DecodeBranchMeta(absl::string_view value,
                                            absl::string_view context) {
  Reader r(value);
  if (!Header(r, kBranchTag)) {
    return Corrupt(context, "branch record header", value.size());
  }
  BranchMeta meta;
  meta.session = r.String();
  meta.branch = r.String();
  meta.parent = r.String();
  meta.fork_seq = r.Be64();
  meta.author = r.String();
  meta.reason = r.String();
  if (!r.ok() || !r.done()) {
    return Corrupt(context, "branch record", value.size());
  }
  return meta;
}

std::string EncodeHead(const Head& head) {
  std::string out;
  out.reserve(kHeadSize);
  keys::AppendBe64(head.seq, &out);
  out.append(reinterpret_cast<const char*>(head.hash.data()), head.hash.size());
  return out;
}

absl::StatusOr<Head> DecodeHead(absl::string_view value,
                                absl::string_view context) {
  if (value.size() != kHeadSize) {
    return Corrupt(context, "head record", value.size());
  }
  Head head;
  head.seq = keys::ReadBe64(value.data());
  std::memcpy(head.hash.data(), value.data() + 8, head.hash.size());
  return head;
}

std::string EncodeCommandRange(uint64_t first_seq, uint64_t last_seq,
                               const std::optional<events::Digest>& content) {
  std::string out;
  out.reserve(kCommandRangeWithContentSize);
  keys::AppendBe64(first_seq, &out);
  keys::AppendBe64(last_seq, &out);
  if (content) {
    out.append(reinterpret_cast<const char*>(content->data()), content->size());
  }
  return out;
}

absl::StatusOr<AppendResult> DecodeCommandRange(absl::string_view value,
                                                absl::string_view context) {
  if (value.size() != kCommandRangeSize &&
      value.size() != kCommandRangeWithContentSize) {
    return Corrupt(context, "command record", value.size());
  }
  AppendResult range;
  range.first_seq = keys::ReadBe64(value.data());
  range.last_seq = keys::ReadBe64(value.data() + 8);
  if (value.size() == kCommandRangeWithContentSize) {
    events::Digest content;
    std::copy(value.begin() + 16, value.end(), content.begin());
    range.content = content;
  }
  if (range.first_seq == 0 || range.first_seq > range.last_seq) {
    return absl::DataLossError(
        absl::StrCat(context, ": corrupt command record (seqs ",
                     range.first_seq, "..", range.last_seq, ")"));
  }
  return range;
}

std::string EncodeSnapshot(const Snapshot& snapshot) {
  std::string out;
  out.reserve(2 + 8 + 4 + 4 + snapshot.state.size());
  out.push_back(kSnapshotTag);
  out.push_back(kFormatVersion);
  keys::AppendBe64(snapshot.seq, &out);
  AppendBe32(static_cast<uint32_t>(snapshot.ruleset_version), &out);
  AppendBe32(static_cast<uint32_t>(snapshot.state.size()), &out);
  out.append(reinterpret_cast<const char*>(snapshot.state.data()),
             snapshot.state.size());
  return out;
}

absl::StatusOr<Snapshot> DecodeSnapshot(absl::string_view value,
                                        uint64_t want_seq, int32_t want_version,
                                        absl::string_view context) {
  Reader r(value);
  const uint8_t tag = r.Byte();
  const uint8_t version = r.Byte();
  Snapshot snapshot;
  snapshot.seq = r.Be64();
  snapshot.ruleset_version = static_cast<int32_t>(r.Be32());
  const std::string state = r.String();
  if (!r.ok() || !r.done() || tag != kSnapshotTag ||
      version != kFormatVersion) {
    return Corrupt(context, "snapshot record", value.size());
  }
  if (snapshot.seq != want_seq || snapshot.ruleset_version != want_version) {
    return absl::DataLossError(absl::StrCat(
        context, ": snapshot record names seq ", snapshot.seq,
        " ruleset version ", snapshot.ruleset_version));
  }
  snapshot.state.assign(state.begin(), state.end());
  return snapshot;
}

}  // namespace combat::store::records
