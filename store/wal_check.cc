#include "store/wal_check.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "rocksdb/env.h"
#include "store/rocks_status.h"

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace combat::store {
namespace {

constexpr size_t kBlockSize = 32768;
constexpr size_t kHeaderSize = 7;
constexpr uint32_t kMaskDelta = 0xa282ead8u;  // RocksDB util/crc32c.h

// ---- CRC-32C: a byte table, and SSE4.2's crc32 instruction when present.

std::array<uint32_t, 256> MakeTable() {
  std::array<uint32_t, 256> t{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ 0x82f63b78u : c >> 1;
    t[i] = c;
  }
  return t;
}

uint32_t Crc32cTable(const unsigned char* p, size_t n, uint32_t c) {
  static const std::array<uint32_t, 256> table = MakeTable();
  for (size_t i = 0; i < n; ++i) c = table[(c ^ p[i]) & 0xff] ^ (c >> 8);
  return c;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) uint32_t Crc32cSse(const unsigned char* p,
                                                      size_t n, uint32_t c) {
  uint64_t c64 = c;
  while (n >= 8) {
    uint64_t word;
    std::memcpy(&word, p, 8);
    c64 = _mm_crc32_u64(c64, word);
    p += 8;
    n -= 8;
  }
  c = static_cast<uint32_t>(c64);
  while (n > 0) {
    c = _mm_crc32_u8(c, *p++);
    --n;
  }
  return c;
}

bool HaveSse42() {
  static const bool have = __builtin_cpu_supports("sse4.2");
  return have;
}
#endif

uint32_t Unmask(uint32_t masked) {
  const uint32_t rot = masked - kMaskDelta;
  return (rot >> 17) | (rot << 15);
}

uint32_t Load32(const unsigned char* p) {
  return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 |
         static_cast<uint32_t>(p[2]) << 16 | static_cast<uint32_t>(p[3]) << 24;
}

// ---- Fragments.

enum class Parsed {
  kRecord,  // a checksum-valid fragment of a type this store writes
  kBad,     // anything else that starts with a whole header
  kCut,     // fewer than 7 bytes left in the file
};

struct Fragment {
  Parsed parsed = Parsed::kBad;
  size_t end = 0;  // one past the payload, for kRecord
};

// The fragment whose header starts at `pos` of `wal` (REQUIRES: at least
// kHeaderSize bytes left in pos's block). `header` overrides the 7 header
// bytes read from `wal` (for trying a repaired header).
Fragment ParseAt(absl::string_view wal, size_t pos,
                 const unsigned char* header = nullptr) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(wal.data());
  Fragment f;
  if (wal.size() - pos < kHeaderSize) {
    f.parsed = Parsed::kCut;
    return f;
  }
  const unsigned char* h = header != nullptr ? header : bytes + pos;
  const size_t length = static_cast<size_t>(h[4]) | static_cast<size_t>(h[5]) << 8;
  const unsigned type = h[6];
  // 1 full, 2 first, 3 middle, 4 last; 9 sets the WAL's compression type.
  // Recyclable types (5..8) are never written here; 0 is unwritten space.
  if (!(type >= 1 && type <= 4) && type != 9) return f;
  const size_t block_left = kBlockSize - pos % kBlockSize;
  if (kHeaderSize + length > block_left || pos + kHeaderSize + length > wal.size()) {
    return f;
  }
  // The checksum covers the type byte and the payload.
  uint32_t crc = Crc32c(absl::string_view(reinterpret_cast<const char*>(h + 6), 1));
  crc = Crc32c(wal.substr(pos + kHeaderSize, length), crc);
  if (crc != Unmask(Load32(h))) return f;
  f.parsed = Parsed::kRecord;
  f.end = pos + kHeaderSize + length;
  return f;
}

// Whether a checksum-valid fragment starts anywhere after `bad` (see the
// header comment for where fragments can start). Returns its offset.
bool ValidFragmentAfter(absl::string_view wal, size_t bad, size_t* found) {
  const size_t block_end = (bad / kBlockSize + 1) * kBlockSize;
  for (size_t p = bad + 1; p + kHeaderSize <= wal.size() && p < block_end; ++p) {
    if (block_end - p < kHeaderSize) break;
    if (ParseAt(wal, p).parsed == Parsed::kRecord) {
      *found = p;
      return true;
    }
  }
  for (size_t p = block_end; p + kHeaderSize <= wal.size(); p += kBlockSize) {
    if (ParseAt(wal, p).parsed == Parsed::kRecord) {
      *found = p;
      return true;
    }
  }
  return false;
}

// Whether one flipped bit in the header at `bad` would make it a valid
// fragment: a complete record whose header was damaged.
bool RepairableByOneBit(absl::string_view wal, size_t bad, int* bit) {
  unsigned char header[kHeaderSize];
  std::memcpy(header, wal.data() + bad, kHeaderSize);
  for (int b = 0; b < static_cast<int>(kHeaderSize * 8); ++b) {
    header[b / 8] ^= static_cast<unsigned char>(1u << (b % 8));
    const bool valid = ParseAt(wal, bad, header).parsed == Parsed::kRecord;
    header[b / 8] ^= static_cast<unsigned char>(1u << (b % 8));
    if (valid) {
      *bit = b;
      return true;
    }
  }
  return false;
}

}  // namespace

uint32_t Crc32c(absl::string_view data, uint32_t crc) {
  const auto* p = reinterpret_cast<const unsigned char*>(data.data());
  uint32_t c = ~crc;
#if defined(__x86_64__)
  if (HaveSse42()) return ~Crc32cSse(p, data.size(), c);
#endif
  return ~Crc32cTable(p, data.size(), c);
}

absl::Status CheckWalBytes(absl::string_view wal, absl::string_view name) {
  size_t pos = 0;
  while (pos < wal.size()) {
    const size_t block_left = kBlockSize - pos % kBlockSize;
    if (block_left < kHeaderSize) {  // the block's trailer
      pos += block_left;
      continue;
    }
    const Fragment f = ParseAt(wal, pos);
    if (f.parsed == Parsed::kRecord) {
      pos = f.end;
      continue;
    }
    if (f.parsed == Parsed::kCut) return absl::OkStatus();  // a cut header
    size_t later = 0;
    if (ValidFragmentAfter(wal, pos, &later)) {
      return absl::DataLossError(absl::StrCat(
          "write-ahead log ", name, ": the record at byte ", pos,
          " is damaged and a valid record follows at byte ", later,
          ": opening would silently drop acknowledged writes"));
    }
    int bit = 0;
    if (RepairableByOneBit(wal, pos, &bit)) {
      return absl::DataLossError(absl::StrCat(
          "write-ahead log ", name, ": the last record (byte ", pos,
          ") is complete but bit ", bit % 8, " of its header byte ", bit / 8,
          " is flipped: opening would silently drop an acknowledged write"));
    }
    return absl::OkStatus();  // a torn tail: a write that was never acknowledged
  }
  return absl::OkStatus();
}

absl::Status CheckWalFiles(rocksdb::Env* env, const std::string& db_path) {
  const rocksdb::Status exists = env->FileExists(db_path);
  if (exists.IsNotFound()) return absl::OkStatus();
  if (!exists.ok()) return FromRocks(exists, absl::StrCat("looking for ", db_path));
  std::vector<std::string> children;
  rocksdb::Status listed = env->GetChildren(db_path, &children);
  if (!listed.ok()) return FromRocks(listed, absl::StrCat("listing ", db_path));
  std::sort(children.begin(), children.end());
  for (const std::string& child : children) {
    if (!absl::EndsWith(child, ".log")) continue;
    const std::string path = absl::StrCat(db_path, "/", child);
    std::string data;
    rocksdb::Status read = rocksdb::ReadFileToString(env, path, &data);
    if (!read.ok()) {
      return FromRocks(read, absl::StrCat("reading write-ahead log ", path));
    }
    absl::Status s = CheckWalBytes(data, path);
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace combat::store
