// The corruption matrix's shared pieces: which offsets to damage, the
// tally of outcomes per class of damage (and the rule each case must
// keep), and the fixture holding the two base databases (WAL-only and
// flushed to table files) that every case copies.
#ifndef COMBAT_TESTS_CORRUPTION_MATRIX_H_
#define COMBAT_TESTS_CORRUPTION_MATRIX_H_

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <initializer_list>
#include <map>
#include <string>
#include <system_error>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "tests/corruption/damage.h"
#include "tests/testing/budget.h"
#include "tests/testing/temp_dir.h"

namespace combat::testing {

// Offsets 0..n-1 to damage: about `target` of them, always including the
// first and last `edge` bytes (headers, trailers); every byte when long.
inline std::vector<size_t> Offsets(size_t begin, size_t end, size_t target,
                            size_t edge = 8) {
  std::vector<size_t> out;
  if (end <= begin) return out;
  const size_t n = end - begin;
  target = static_cast<size_t>(Budget(static_cast<int>(target), static_cast<int>(target)));
  const size_t stride = Long() ? 1 : std::max<size_t>(1, n / target);
  for (size_t i = 0; i < n; ++i) {
    if (i < edge || i + edge >= n || i % stride == 0) out.push_back(begin + i);
  }
  return out;
}

struct Tally {
  std::string name;
  std::map<Outcome, int> outcomes;
  std::map<Layer, int> layers;
  int named_seq = 0;
  int total = 0;
  std::vector<std::string> bad;  // cases that broke the rule

  void Add(const std::string& what, const Inspection& in,
           std::initializer_list<Outcome> allowed) {
    ++total;
    ++outcomes[in.outcome];
    if (in.outcome == Outcome::kRefused || in.outcome == Outcome::kDetected) {
      ++layers[in.layer];
      if (in.names_seq) ++named_seq;
    }
    bool ok = false;
    for (Outcome o : allowed) ok = ok || o == in.outcome;
    if (!ok && bad.size() < 20) {
      bad.push_back(absl::StrCat(what, ": ", OutcomeName(in.outcome), " (",
                                 in.message, ")"));
    }
  }
  std::string Summary() const {
    std::vector<std::string> parts;
    for (const auto& [o, n] : outcomes) parts.push_back(absl::StrCat(n, " ", OutcomeName(o)));
    std::vector<std::string> by;
    for (const auto& [l, n] : layers) by.push_back(absl::StrCat(LayerName(l), " ", n));
    return absl::StrCat(name, ": ", total, " cases: ", absl::StrJoin(parts, ", "),
                        by.empty() ? "" : absl::StrCat(" (caught by: ", absl::StrJoin(by, ", "),
                                                       "; ", named_seq, " errors name the seq)"));
  }
  void Report() const {
    std::printf("corruption matrix: %s\n", Summary().c_str());
    ::testing::Test::RecordProperty("summary_" + name, Summary());
    EXPECT_TRUE(bad.empty()) << name << ":\n" << absl::StrJoin(bad, "\n");
    EXPECT_GT(total, 0);
  }
};

class CorruptionMatrix : public ::testing::Test {
 protected:
  static constexpr int kCommands = 14;

  static void SetUpTestSuite() {
    base_ = new TempDir("corruption_base");
    auto wal = BuildBase(base_->path() + "/wal", kCommands, /*flush=*/false);
    ASSERT_TRUE(wal.ok()) << wal.status();
    auto sst = BuildBase(base_->path() + "/sst", kCommands, /*flush=*/true);
    ASSERT_TRUE(sst.ok()) << sst.status();
    orig_ = new Original(*wal);
    ASSERT_EQ(sst->events, wal->events);  // the same generated log
  }
  static void TearDownTestSuite() {
    delete base_;
    delete orig_;
  }
  static std::string WalBase() { return base_->path() + "/wal"; }
  static std::string SstBase() { return base_->path() + "/sst"; }

  // A fresh copy of `base` for one case.
  std::string Copy(const std::string& base) {
    ++copies_;
    std::string to = absl::StrCat(work_.path(), "/case", copies_);
    CopyDir(base, to);
    return to;
  }
  // The file in `copy` that has the same name as `file` in the base.
  static std::string Same(const std::string& copy, const std::string& file) {
    return copy + file.substr(file.rfind('/'));
  }
  void Done(const std::string& copy) {
    std::error_code ec;
    std::filesystem::remove_all(copy, ec);
  }

  static std::string TheWal() {
    std::vector<std::string> wals = FilesEndingWith(WalBase(), ".log");
    std::string best;
    for (const std::string& w : wals) {
      if (best.empty() || ReadFile(w).size() > ReadFile(best).size()) best = w;
    }
    return best;
  }

  static inline TempDir* base_ = nullptr;
  static inline Original* orig_ = nullptr;
  TempDir work_{"corruption_case"};
  int copies_ = 0;
};


}  // namespace combat::testing

#endif  // COMBAT_TESTS_CORRUPTION_MATRIX_H_
