// store/wal_check.h against a real RocksDB 7.8.3 write-ahead log: intact,
// cut anywhere (a torn tail: accepted), and every bit of every fragment
// header flipped (refused). The end-to-end proof that EventLog::Open now
// refuses what RocksDB would silently drop is
// tests/corruption:closed_gaps_test (WalRecordHeaderFlipIsNotSilent).
#include "store/wal_check.h"

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/options.h"
#include "tests/testing/temp_dir.h"

namespace combat::store {
namespace {

constexpr size_t kBlock = 32768;

// A WAL written by RocksDB itself: `n` synced Puts of growing values, some
// larger than a block (first/middle/last fragments). The DB is closed
// without a flush, so the data lives only in the WAL.
std::string RealWal(const std::string& dir, int n) {
  rocksdb::Options options;
  options.create_if_missing = true;
  rocksdb::DB* raw = nullptr;
  EXPECT_TRUE(rocksdb::DB::Open(options, dir, &raw).ok());
  std::unique_ptr<rocksdb::DB> db(raw);
  rocksdb::WriteOptions w;
  w.sync = true;
  for (int i = 0; i < n; ++i) {
    std::string value(static_cast<size_t>(i) * 997 % 45000 + 1,
                      static_cast<char>('a' + i % 26));
    EXPECT_TRUE(db->Put(w, absl::StrCat("key", i), value).ok());
  }
  EXPECT_TRUE(db->Close().ok());
  std::string biggest;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string p = entry.path().string();
    if (!absl::EndsWith(p, ".log")) continue;
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    if (ss.str().size() > biggest.size()) biggest = ss.str();
  }
  return biggest;
}

// The [begin, end) of every fragment (header + payload) in `wal`.
std::vector<std::pair<size_t, size_t>> Fragments(const std::string& wal) {
  std::vector<std::pair<size_t, size_t>> out;
  size_t pos = 0;
  while (pos + 7 <= wal.size()) {
    const size_t left = kBlock - pos % kBlock;
    if (left < 7) {
      pos += left;
      continue;
    }
    const size_t len = static_cast<unsigned char>(wal[pos + 4]) |
                       static_cast<size_t>(static_cast<unsigned char>(wal[pos + 5])) << 8;
    if (wal[pos + 6] == 0) break;
    out.emplace_back(pos, pos + 7 + len);
    pos += 7 + len;
  }
  return out;
}

class WalCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    wal_ = RealWal(dir_.db(), 30);
    fragments_ = Fragments(wal_);
  }
  testing::TempDir dir_{"wal_check"};
  std::string wal_;
  std::vector<std::pair<size_t, size_t>> fragments_;
};

TEST(Crc32c, KnownVectors) {
  EXPECT_EQ(Crc32c("123456789"), 0xe3069283u);
  EXPECT_EQ(Crc32c(""), 0u);
  EXPECT_EQ(Crc32c("6789", Crc32c("12345")), 0xe3069283u);
  std::string zeros(32, '\0');
  EXPECT_EQ(Crc32c(zeros), 0x8a9136aau);  // RFC 3720 B.4
}

TEST_F(WalCheck, RealWalIsAccepted) {
  ASSERT_GT(wal_.size(), 3 * kBlock) << "the WAL should span several blocks";
  ASSERT_GT(fragments_.size(), 30u) << "some records should be fragmented";
  EXPECT_TRUE(CheckWalBytes(wal_, "w").ok()) << CheckWalBytes(wal_, "w");
  EXPECT_TRUE(CheckWalFiles(rocksdb::Env::Default(), dir_.db()).ok());
  EXPECT_TRUE(CheckWalFiles(rocksdb::Env::Default(), dir_.path() + "/none").ok());
}

TEST_F(WalCheck, TornTailsAreAccepted) {
  std::vector<size_t> cuts;
  for (const auto& [b, e] : fragments_) {
    for (size_t d : {0, 1, 3, 6, 7, 8, 100}) {
      if (b + d < wal_.size()) cuts.push_back(b + d);
    }
    if (e > 1) cuts.push_back(e - 1);
  }
  for (size_t cut = 0; cut < wal_.size(); cut += 811) cuts.push_back(cut);
  for (size_t cut : cuts) {
    absl::Status s = CheckWalBytes(wal_.substr(0, cut), "w");
    EXPECT_TRUE(s.ok()) << "cut at " << cut << ": " << s;
  }
  // Preallocated, never written space reads as zeros.
  EXPECT_TRUE(CheckWalBytes(wal_ + std::string(5000, '\0'), "w").ok());
  const size_t cut = fragments_[10].first + 20;
  EXPECT_TRUE(CheckWalBytes(wal_.substr(0, cut) + std::string(9000, '\0'), "w").ok());
}

TEST_F(WalCheck, EveryHeaderBitFlipIsRefused) {
  int cases = 0;
  for (const auto& [b, e] : fragments_) {
    for (size_t off = b; off < b + 7; ++off) {
      for (int bit = 0; bit < 8; ++bit) {
        std::string damaged = wal_;
        damaged[off] = static_cast<char>(damaged[off] ^ (1 << bit));
        absl::Status s = CheckWalBytes(damaged, "000004.log");
        ++cases;
        EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss)
            << "bit " << bit << " of header byte " << off - b << " of the fragment at "
            << b << ": " << s;
        if (!s.ok()) {
          EXPECT_TRUE(absl::StrContains(s.message(), "000004.log")) << s;
        }
      }
    }
  }
  EXPECT_GT(cases, 1500);
}

TEST_F(WalCheck, PayloadFlipBeforeTheLastRecordIsRefused) {
  for (size_t i = 0; i + 1 < fragments_.size(); i += 3) {
    const auto& [b, e] = fragments_[i];
    std::string damaged = wal_;
    const size_t off = b + 7 + (e - b - 7) / 2;
    damaged[off] = static_cast<char>(damaged[off] ^ 0x10);
    EXPECT_EQ(CheckWalBytes(damaged, "w").code(), absl::StatusCode::kDataLoss)
        << "fragment at " << b;
  }
}

TEST_F(WalCheck, ZeroedRecordWithDataAfterItIsRefused) {
  // A whole record zeroed (a lost page) with acknowledged records after it.
  const auto& [b, e] = fragments_[5];
  std::string damaged = wal_;
  for (size_t i = b; i < e; ++i) damaged[i] = '\0';
  EXPECT_EQ(CheckWalBytes(damaged, "w").code(), absl::StatusCode::kDataLoss);
}

TEST_F(WalCheck, EventLogOpenRefusesADamagedHeader) {
  std::string path;
  for (const auto& entry : std::filesystem::directory_iterator(dir_.db())) {
    if (absl::EndsWith(entry.path().string(), ".log")) path = entry.path().string();
  }
  ASSERT_FALSE(path.empty());
  // The type byte of the second fragment: full (1) -> recyclable full (5).
  std::string damaged = wal_;
  damaged[fragments_[1].first + 6] = static_cast<char>(damaged[fragments_[1].first + 6] ^ 4);
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << damaged;
  }
  absl::Status s = CheckWalFiles(rocksdb::Env::Default(), dir_.db());
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), path)) << s;
}

}  // namespace
}  // namespace combat::store
