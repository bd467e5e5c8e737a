#include "store/jetstream/records.h"

#include <functional>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "events/hash.h"

namespace combat::store::jetstream {
namespace {

constexpr char kMagic[] = "CJS1";

void AppendBe32(uint32_t v, std::string* out) {
  for (int i = 3; i >= 0; --i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
uint32_t ReadBe32(const char* p) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v = (v << 8) | static_cast<uint8_t>(p[i]);
  return v;
}
uint64_t ReadBe64(const char* p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | static_cast<uint8_t>(p[i]);
  return v;
}

// The value length that marks a delete (no value can be 4 GiB long here:
// a message is at most the servers' max_payload).
constexpr uint32_t kDeleted = 0xffffffffu;

bool IsParticipantKey(absl::string_view key) {
  return absl::StartsWith(key, absl::string_view("p\0", 2));
}

class Collector : public rocksdb::WriteBatch::Handler {
 public:
  void Put(const rocksdb::Slice& key, const rocksdb::Slice& value) override {
    AppendBe32(static_cast<uint32_t>(key.size()), &out.payload);
    out.payload.append(key.data(), key.size());
    AppendBe32(static_cast<uint32_t>(value.size()), &out.payload);
    out.payload.append(value.data(), value.size());
    absl::string_view k(key.data(), key.size());
    if (absl::StartsWith(k, absl::string_view("c\0", 2)) && value.size() >= 16) {
      std::vector<absl::string_view> parts = absl::StrSplit(k, '\0');
      if (parts.size() == 4) {
        MarkerInfo m;
        m.command = std::string(parts[3]);
        m.first_seq = ReadBe64(value.data());
        m.last_seq = ReadBe64(value.data() + 8);
        if (value.size() >= 48) {
          m.content_hex = events::Hex(
              reinterpret_cast<const uint8_t*>(value.data()) + 16, 32);
        }
        out.marker = m;
      }
    }
  }
  // A delete travels as its key with the length kDeleted for a value; only
  // a participant record (a revoked token, store/participants.h) may be
  // deleted: events, heads and markers never are.
  rocksdb::Status DeleteCF(uint32_t cf, const rocksdb::Slice& key) override {
    if (cf != 0 || !IsParticipantKey(absl::string_view(key.data(), key.size()))) {
      other = true;
      return rocksdb::Status::OK();
    }
    AppendBe32(static_cast<uint32_t>(key.size()), &out.payload);
    out.payload.append(key.data(), key.size());
    AppendBe32(kDeleted, &out.payload);
    return rocksdb::Status::OK();
  }
  void LogData(const rocksdb::Slice&) override {}
  EncodedBatch out;
  bool other = false;
};

}  // namespace

absl::StatusOr<EncodedBatch> EncodeBatch(rocksdb::WriteBatch& batch) {
  Collector c;
  c.out.payload = kMagic;
  rocksdb::Status s = batch.Iterate(&c);
  if (!s.ok() || c.other) {
    return absl::InvalidArgumentError(
        "a JetStream log write holds something other than puts and "
        "deletes of participant records");
  }
  return std::move(c.out);
}

absl::Status DecodeBatch(absl::string_view payload, absl::string_view context,
                         const std::function<bool(const std::string&)>& keep_existing,
                         rocksdb::WriteBatch* out) {
  auto bad = [&](absl::string_view why) {
    return absl::DataLossError(
        absl::StrCat(context, ": malformed payload (", why, ")"));
  };
  if (!absl::StartsWith(payload, kMagic)) return bad("no CJS1 magic");
  size_t at = 4;
  while (at < payload.size()) {
    if (payload.size() - at < 4) return bad("truncated key length");
    uint32_t klen = ReadBe32(payload.data() + at);
    at += 4;
    if (payload.size() - at < klen + 4ull) return bad("truncated key");
    std::string key(payload.substr(at, klen));
    at += klen;
    uint32_t vlen = ReadBe32(payload.data() + at);
    at += 4;
    if (key.empty()) return bad("empty key");
    if (vlen == kDeleted) {
      if (!IsParticipantKey(key)) return bad("a delete of a key other than a participant's");
      rocksdb::Status s = out->Delete(key);
      if (!s.ok()) return bad(s.ToString());
      continue;
    }
    if (payload.size() - at < vlen) return bad("truncated value");
    absl::string_view value = payload.substr(at, vlen);
    at += vlen;
    if (key.empty()) return bad("empty key");
    if (absl::StartsWith(key, absl::string_view("v\0", 2)) && keep_existing(key)) {
      continue;  // the first reveal of a secret stays the recorded one
    }
    rocksdb::Status s = out->Put(key, rocksdb::Slice(value.data(), value.size()));
    if (!s.ok()) return bad(s.ToString());
  }
  return absl::OkStatus();
}

}  // namespace combat::store::jetstream
