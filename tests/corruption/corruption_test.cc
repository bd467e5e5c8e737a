// The corruption matrix. A base database (session s1: branch main, and
// branch alt forked from it, sharing its prefix) is damaged in a fresh copy
// for every case, then read back in full (tests/corruption/damage.h,
// Inspect: open, sessions, branches, heads, every event through the full
// verifier, every command marker) and classified. The rule: damage to
// acknowledged data is detected (the open refuses, or a read or the
// verifier returns an error, naming the event where it is an event) or
// harmless (everything reads back exactly); it never silently shortens or
// changes the log.
//
// Classes (each case is one damaged copy):
//  1. torn WAL tail: the WAL cut inside its last record (the last command,
//     as a crash mid-write leaves it): the log must be every command but
//     that one, whole. Also cuts anywhere in the WAL: whole commands only.
//  2. a bit flipped mid-WAL (every record, headers and payloads).
//  3. a bit flipped in an SST (data, index, filter, properties, footer).
//  4. a byte changed inside an event value, written through a raw
//     rocksdb::DB so RocksDB's checksums are valid: in the shared prefix,
//     mid-branch and at the head.
//  5. a deleted event (every seq).
//  6. a reordered pair: two events' values swapped, and swapped with their
//     seqs rewritten (re-encoded) to fit their new places.
//  7. a deleted command marker (every command of both branches): the
//     verifier's marker cross-check (store/command_markers.h) names it.
//
// Short by default (strided offsets); COMBAT_LONG=1 damages every byte.
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "events/codec.h"
#include "gtest/gtest.h"
#include "tests/corruption/damage.h"
#include "tests/testing/budget.h"
#include "tests/testing/temp_dir.h"

namespace combat::testing {
namespace {

// Offsets 0..n-1 to damage: about `target` of them, always including the
// first and last `edge` bytes (headers, trailers); every byte when long.
std::vector<size_t> Offsets(size_t begin, size_t end, size_t target,
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

  static TempDir* base_;
  static Original* orig_;
  TempDir work_{"corruption_case"};
  int copies_ = 0;
};

TempDir* CorruptionMatrix::base_ = nullptr;
Original* CorruptionMatrix::orig_ = nullptr;

TEST_F(CorruptionMatrix, TornWalTail) {
  const std::string wal_path = TheWal();
  const std::string wal = ReadFile(wal_path);
  auto records = WalRecords(wal);
  ASSERT_GE(records.size(), 3u);
  ASSERT_EQ(records.back().second, wal.size()) << "the WAL parser lost its way";
  const auto last = records.back();
  const auto& main_cmds = orig_->commands.at("main");
  const uint64_t without_last = main_cmds.back().second.first - 1;

  Tally tail{"torn WAL tail (cut inside the last record)"};
  for (size_t cut : Offsets(last.first, last.second, 60)) {
    std::string copy = Copy(WalBase());
    WriteFile(Same(copy, wal_path), wal.substr(0, cut));
    Inspection in = Inspect(copy, *orig_);
    // Exactly the last command is gone, whole.
    if (in.outcome == Outcome::kPrefix && in.lengths["main"] != without_last) {
      in.outcome = Outcome::kSilent;
      in.message = absl::StrCat("main has ", in.lengths["main"], " events, want ", without_last);
    }
    tail.Add(absl::StrCat("cut at byte ", cut, " of ", wal.size()), in, {Outcome::kPrefix});
    Done(copy);
  }
  tail.Report();

  Tally anywhere{"WAL truncated anywhere"};
  for (size_t cut : Offsets(0, wal.size(), 40, 2)) {
    std::string copy = Copy(WalBase());
    WriteFile(Same(copy, wal_path), wal.substr(0, cut));
    Inspection in = Inspect(copy, *orig_);
    // Whole commands only (a cut before the last record loses synced,
    // acknowledged data, which only a disk failure can do: what matters
    // here is atomicity).
    anywhere.Add(absl::StrCat("cut at byte ", cut, " of ", wal.size()), in,
                 {Outcome::kPrefix, Outcome::kIntact, Outcome::kRefused});
    Done(copy);
  }
  anywhere.Report();
}

TEST_F(CorruptionMatrix, BitFlippedMidWal) {
  const std::string wal_path = TheWal();
  const std::string wal = ReadFile(wal_path);
  auto records = WalRecords(wal);
  Tally t{"bit flipped in the WAL"};
  std::vector<size_t> offsets;
  for (const auto& [b, e] : records) {
    // Every record: its header, and a few payload bytes.
    for (size_t o : Offsets(b, e, Long() ? e - b : 4, 7)) offsets.push_back(o);
  }
  for (size_t off : offsets) {
    std::string copy = Copy(WalBase());
    std::string damaged = wal;
    damaged[off] = static_cast<char>(damaged[off] ^ (1 << (off % 8)));
    WriteFile(Same(copy, wal_path), damaged);
    Inspection in = Inspect(copy, *orig_);
    std::string where;
    bool header = false;
    for (size_t r = 0; r < records.size(); ++r) {
      if (off >= records[r].first && off < records[r].second) {
        header = off - records[r].first < 7;
        where = absl::StrCat("record ", r + 1, " of ", records.size(), " at +",
                             off - records[r].first, header ? " (header)" : "");
      }
    }
    // RocksDB 7.8.3's WAL reader drops a record whose header was damaged,
    // and everything after it, without an error, in two ways: a type byte
    // turned "recyclable" (1 -> 5) reads as a record of an older log, which
    // it takes for the end of the log (in every recovery mode, even
    // kAbsoluteConsistency); a length that runs past the end of the file's
    // last 32 KiB block reads as a record the writer died in the middle of
    // (kTolerateCorruptedTailRecords). EventLog::Open's WAL pre-scan
    // (store/wal_check.h) refuses both, so no case here may be silent.
    t.Add(absl::StrCat("bit ", off % 8, " of byte ", off, " of ", wal.size(), ", ", where,
                       ", main has ", in.lengths["main"], " of ", orig_->events.at("main").size(),
                       " events"),
          in, {Outcome::kRefused, Outcome::kDetected, Outcome::kIntact});
    Done(copy);
  }
  t.Report();
}

TEST_F(CorruptionMatrix, BitFlippedInAnSst) {
  std::vector<std::string> ssts = FilesEndingWith(SstBase(), ".sst");
  ASSERT_FALSE(ssts.empty()) << "the flushed base has no table file";
  Tally t{"bit flipped in an SST"};
  for (const std::string& sst : ssts) {
    const std::string data = ReadFile(sst);
    for (size_t off : Offsets(0, data.size(), 200 / ssts.size() + 1, 16)) {
      std::string copy = Copy(SstBase());
      std::string damaged = data;
      damaged[off] = static_cast<char>(damaged[off] ^ (1 << (off % 8)));
      WriteFile(Same(copy, sst), damaged);
      Inspection in = Inspect(copy, *orig_);
      t.Add(absl::StrCat(sst.substr(sst.rfind('/') + 1), " bit ", off % 8, " of byte ", off,
                         " of ", data.size()),
            in, {Outcome::kRefused, Outcome::kDetected, Outcome::kIntact});
      Done(copy);
    }
  }
  t.Report();
}

TEST_F(CorruptionMatrix, ByteChangedInsideAnEventValue) {
  const uint64_t head = orig_->events.at("main").size();
  struct Target {
    const char* what;
    uint64_t seq;
  };
  const std::vector<Target> targets = {
      {"shared prefix", 3}, {"mid-branch", orig_->fork_seq + 5}, {"head", head}};
  Tally t{"byte changed inside an event value (raw write, valid RocksDB checksums)"};
  for (const Target& target : targets) {
    const std::vector<uint8_t>& value = orig_->events.at("main")[target.seq - 1];
    for (size_t off : Offsets(0, value.size(), 40, 8)) {
      std::string copy = Copy(SstBase());
      std::string damaged(value.begin(), value.end());
      damaged[off] = static_cast<char>(damaged[off] ^ 0x01);
      ASSERT_TRUE(RawPut(copy, EventKey("s1", "main", target.seq), damaged).ok());
      Inspection in = Inspect(copy, *orig_);
      t.Add(absl::StrCat(target.what, " seq ", target.seq, " byte ", off), in,
            {Outcome::kDetected});
      if (in.outcome == Outcome::kDetected) {
        EXPECT_TRUE(in.names_seq) << in.message;
      }
      Done(copy);
    }
  }
  t.Report();
}

TEST_F(CorruptionMatrix, DeletedEvent) {
  Tally t{"deleted event"};
  const uint64_t head = orig_->events.at("main").size();
  for (uint64_t seq = 1; seq <= head; ++seq) {
    if (!Long() && seq > 4 && seq + 4 < head && seq % 7 != 0 && seq != orig_->fork_seq) continue;
    std::string copy = Copy(SstBase());
    ASSERT_TRUE(RawDelete(copy, EventKey("s1", "main", seq)).ok());
    Inspection in = Inspect(copy, *orig_);
    t.Add(absl::StrCat("main seq ", seq), in, {Outcome::kDetected});
    if (in.outcome == Outcome::kDetected) {
      EXPECT_TRUE(in.names_seq) << in.message;
    }
    Done(copy);
  }
  t.Report();
}

TEST_F(CorruptionMatrix, ReorderedPair) {
  Tally t{"reordered pair"};
  const auto& main = orig_->events.at("main");
  const uint64_t head = main.size();
  for (uint64_t k = 1; k < head; ++k) {
    if (!Long() && k > 3 && k + 3 < head && k % 9 != 0) continue;
    for (bool renumber : {false, true}) {
      std::string a(main[k - 1].begin(), main[k - 1].end());
      std::string b(main[k].begin(), main[k].end());
      if (renumber) {
        // Re-encode each with the other's seq, as a forger would.
        auto ea = events::EventBuffer::FromBytes(a, "a");
        auto eb = events::EventBuffer::FromBytes(b, "b");
        ASSERT_TRUE(ea.ok() && eb.ok());
        fb::EventT ta, tb;
        ea->event().UnPackTo(&ta);
        eb->event().UnPackTo(&tb);
        std::swap(ta.seq, tb.seq);
        auto ba = events::EncodeEvent(ta);
        auto bb = events::EncodeEvent(tb);
        a.assign(ba.begin(), ba.end());
        b.assign(bb.begin(), bb.end());
      }
      std::string copy = Copy(SstBase());
      ASSERT_TRUE(RawPut(copy, EventKey("s1", "main", k), b).ok());
      ASSERT_TRUE(RawPut(copy, EventKey("s1", "main", k + 1), a).ok());
      Inspection in = Inspect(copy, *orig_);
      t.Add(absl::StrCat("seqs ", k, " and ", k + 1, renumber ? " (renumbered)" : ""), in,
            {Outcome::kDetected});
      if (in.outcome == Outcome::kDetected) {
        EXPECT_TRUE(in.names_seq) << in.message;
      }
      Done(copy);
    }
  }
  t.Report();
}

TEST_F(CorruptionMatrix, DeletedCommandMarker) {
  Tally t{"deleted command marker"};
  for (const auto& [branch, cmds] : orig_->commands) {
    for (const auto& [id, range] : cmds) {
      std::string copy = Copy(SstBase());
      ASSERT_TRUE(RawDelete(copy, CommandKey("s1", branch, id)).ok());
      Inspection in = Inspect(copy, *orig_);
      t.Add(absl::StrCat(branch, " command ", id), in, {Outcome::kDetected});
      if (in.outcome == Outcome::kDetected) {
        EXPECT_EQ(in.layer, Layer::kMarkers) << in.message;
        EXPECT_TRUE(absl::StrContains(in.message, absl::StrCat("command ", id, ":")))
            << in.message;
      }
      Done(copy);
    }
  }
  t.Report();
}

}  // namespace
}  // namespace combat::testing
