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
#include "store/testing/acked.h"
#include "tests/corruption/damage.h"
#include "tests/corruption/matrix.h"
#include "tests/testing/budget.h"
#include "tests/testing/temp_dir.h"

namespace combat::testing {
namespace {

TEST_F(CorruptionMatrix, TornWalTail) {
  const std::string wal_path = TheWal();
  const std::string wal = ReadFile(wal_path);
  auto records = WalRecords(wal);
  ASSERT_GE(records.size(), 3u);
  ASSERT_EQ(records.back().second, wal.size()) << "the WAL parser lost its way";
  const auto last = records.back();
  const auto& main_cmds = orig_->commands.at("main");
  const uint64_t without_last = main_cmds.back().second.first - 1;

  // A crash in the middle of the last write: the write was never
  // acknowledged, so its COMBAT-ACKED record was never written either.
  Tally tail{"torn WAL tail, write not acknowledged (cut inside the last record)"};
  for (size_t cut : Offsets(last.first, last.second, 60)) {
    std::string copy = Copy(WalBase());
    WriteFile(Same(copy, wal_path), wal.substr(0, cut));
    ASSERT_TRUE(store::DropLastAckRecord(copy));
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

  // The same cuts of an acknowledged write (damage, not a crash): refused.
  Tally acked{"torn WAL tail, write acknowledged (cut inside the last record)"};
  for (size_t cut : Offsets(last.first, last.second, 20)) {
    std::string copy = Copy(WalBase());
    WriteFile(Same(copy, wal_path), wal.substr(0, cut));
    acked.Add(absl::StrCat("cut at byte ", cut, " of ", wal.size()),
              Inspect(copy, *orig_), {Outcome::kRefused});
    Done(copy);
  }
  acked.Report();

  // A cut anywhere, and at every record boundary (the cut that parses as
  // a clean end of the log): acknowledged data is lost, and the open must
  // say so, read-write and read-only.
  std::vector<size_t> cuts = Offsets(0, wal.size(), 40, 2);
  for (const auto& record : records) cuts.push_back(record.first);
  for (const Access access : {Access::kReadWrite, Access::kReadOnly}) {
    Tally anywhere{absl::StrCat(
        "WAL truncated anywhere and at every record boundary (",
        access == Access::kReadOnly ? "read-only" : "read-write", " open)")};
    for (size_t cut : cuts) {
      std::string copy = Copy(WalBase());
      WriteFile(Same(copy, wal_path), wal.substr(0, cut));
      anywhere.Add(absl::StrCat("cut at byte ", cut, " of ", wal.size()),
                   Inspect(copy, *orig_, access), {Outcome::kRefused});
      Done(copy);
    }
    anywhere.Report();
  }
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
