// The file matrix: every file of both base databases (the WAL-only one and
// the one flushed to table files: CURRENT, MANIFEST, WAL, table files,
// OPTIONS, IDENTITY, LOG, LOCK, COMBAT-ACKED) is, in a fresh copy per case,
//  - deleted,
//  - truncated (to 0, to half, and to its length minus one byte),
//  - damaged by one flipped bit at sampled offsets (every byte with
//    COMBAT_LONG=1),
// then opened read-write and read-only and read back in full
// (tests/corruption/damage.h, Inspect). The rule: refused, detected on
// read, or intact; never shorter or different without an error.
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/corruption/damage.h"
#include "tests/corruption/matrix.h"
#include "tests/testing/budget.h"

namespace combat::testing {
namespace {

constexpr std::initializer_list<Outcome> kNeverSilent = {
    Outcome::kRefused, Outcome::kDetected, Outcome::kIntact};

// The files of `db`, sorted, by name.
std::vector<std::string> Files(const std::string& db) {
  return FilesEndingWith(db, "");
}

std::string Name(const std::string& path) {
  return path.substr(path.rfind('/') + 1);
}

class FileMatrix : public CorruptionMatrix {
 protected:
  // Damages `file` of a copy of `base` with `damage` and inspects it both
  // ways (a read-write open recovers and rewrites; a read-only one does
  // not), tallying each.
  template <typename Damage>
  void Case(const std::string& base, const std::string& file,
            const std::string& what, Tally& rw, Tally& ro, Damage damage) {
    for (const Access access : {Access::kReadWrite, Access::kReadOnly}) {
      std::string copy = Copy(base);
      damage(Same(copy, file));
      Inspection in = Inspect(copy, *orig_, access);
      (access == Access::kReadWrite ? rw : ro)
          .Add(absl::StrCat(Name(base), "/", Name(file), " ", what), in,
               kNeverSilent);
      Done(copy);
    }
  }

  void RunOn(const std::string& base, const char* kind) {
    Tally del_rw{absl::StrCat(kind, ": file deleted (read-write open)")};
    Tally del_ro{absl::StrCat(kind, ": file deleted (read-only open)")};
    Tally cut_rw{absl::StrCat(kind, ": file truncated (read-write open)")};
    Tally cut_ro{absl::StrCat(kind, ": file truncated (read-only open)")};
    Tally flip_rw{absl::StrCat(kind, ": bit flipped (read-write open)")};
    Tally flip_ro{absl::StrCat(kind, ": bit flipped (read-only open)")};
    for (const std::string& file : Files(base)) {
      const std::string data = ReadFile(file);
      Case(base, file, "deleted", del_rw, del_ro,
           [](const std::string& f) { std::remove(f.c_str()); });
      std::vector<size_t> lengths = {0, data.size() / 2};
      if (!data.empty()) lengths.push_back(data.size() - 1);
      for (size_t n : lengths) {
        if (n >= data.size()) continue;
        Case(base, file, absl::StrCat("cut to ", n, " of ", data.size()),
             cut_rw, cut_ro, [&data, n](const std::string& f) {
               WriteFile(f, data.substr(0, n));
             });
      }
      for (size_t off : Offsets(0, data.size(), 12, 2)) {
        Case(base, file,
             absl::StrCat("bit ", off % 8, " of byte ", off, " of ", data.size()),
             flip_rw, flip_ro, [&data, off](const std::string& f) {
               std::string damaged = data;
               damaged[off] = static_cast<char>(damaged[off] ^ (1 << (off % 8)));
               WriteFile(f, damaged);
             });
      }
    }
    for (const Tally* t : {&del_rw, &del_ro, &cut_rw, &cut_ro, &flip_rw, &flip_ro}) {
      t->Report();
    }
  }
};

TEST_F(FileMatrix, WalBase) { RunOn(WalBase(), "WAL-only base"); }

TEST_F(FileMatrix, FlushedBase) { RunOn(SstBase(), "flushed base"); }

}  // namespace
}  // namespace combat::testing
