// The long scan's two threads: order, errors and hashes are the sequential
// ones whichever thread decodes and hashes each event.
#include "store/scan_pipeline.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/match.h"
#include "events/codec.h"
#include "events/hash.h"
#include "gtest/gtest.h"
#include "store/testing/events.h"

namespace combat::store {
namespace {

// 40 batches: more than the queue holds, so batches come back for reuse.
constexpr uint64_t kEvents = 40 * BatchQueue::kBatch + 17;

const std::vector<std::vector<uint8_t>>& Chain() {
  static const auto* chain = [] {
    auto* out = new std::vector<std::vector<uint8_t>>();
    events::Digest prev{};
    for (uint64_t seq = 1; seq <= kEvents; ++seq) {
      events::EventBuffer e =
          TestRulingEvent("s", "main", seq, prev, absl::StrCat("r", seq));
      prev = e.hash();
      out->push_back(e.bytes());
    }
    return out;
  }();
  return *chain;
}

struct ScanRun {
  // What the reader meets: garbage stored at this seq, or its own error
  // after the event before it.
  std::optional<uint64_t> garbage_at, read_error_at, check_error_at;

  std::vector<uint64_t> checked;  // seqs, in the order check saw them
  bool hashes_ok = true;          // every hash the caller read is right
  uint64_t reused = 0;            // events copied into reused storage

  absl::Status Go(ReaderShare share) {
    const auto& chain = Chain();
    auto read = [&](const auto& storage, const auto& emit) -> absl::Status {
      for (uint64_t seq = 1; seq <= kEvents; ++seq) {
        if (read_error_at == seq) {
          return absl::DataLossError(absl::StrCat("seq ", seq, ": event missing"));
        }
        std::vector<uint8_t> bytes = storage();
        if (bytes.capacity() > 0) ++reused;
        if (garbage_at == seq) {
          bytes.assign(5, 'x');
        } else {
          bytes.assign(chain[seq - 1].begin(), chain[seq - 1].end());
        }
        if (!emit(seq, std::move(bytes))) return absl::OkStatus();
      }
      return absl::OkStatus();
    };
    auto decode = [](uint64_t seq, std::vector<uint8_t> bytes) {
      return events::EventBuffer::FromOwned(std::move(bytes),
                                            absl::StrCat("seq ", seq));
    };
    auto check = [&](events::EventBuffer& e) -> absl::Status {
      const uint64_t seq = e.event().seq();
      if (check_error_at == seq) return absl::CancelledError("enough");
      checked.push_back(seq);
      const events::Digest want = events::Sha256(e.bytes().data(), e.bytes().size());
      if (e.RememberHash() != want) hashes_ok = false;
      return absl::OkStatus();
    };
    return RunScanPipeline(read, decode, check, share);
  }
};

std::vector<uint64_t> Upto(uint64_t last) {
  std::vector<uint64_t> out;
  for (uint64_t seq = 1; seq <= last; ++seq) out.push_back(seq);
  return out;
}

// Which thread decodes and hashes: the caller all (0), the reader part of
// a batch's decoding (300), all of it (512), decoding and part of the
// hashing (700), everything (1024); and the adjusting default.
class ScanPipelineTest : public ::testing::TestWithParam<int> {
 protected:
  ReaderShare Share() const {
    return GetParam() < 0 ? ReaderShare()
                          : ReaderShare::Fixed(static_cast<size_t>(GetParam()));
  }
};

TEST_P(ScanPipelineTest, EveryEventOnceInOrderWithItsHash) {
  ScanRun run;
  ASSERT_TRUE(run.Go(Share()).ok());
  EXPECT_EQ(run.checked, Upto(kEvents));
  EXPECT_TRUE(run.hashes_ok);
  // Visited batches came back: their storage held later events.
  EXPECT_GT(run.reused, 0u);
}

TEST_P(ScanPipelineTest, AMalformedEventIsTheErrorAfterEveryEventBeforeIt) {
  for (uint64_t at : {1u, 512u, 513u, 700u, 9000u, static_cast<unsigned>(kEvents)}) {
    ScanRun run;
    run.garbage_at = at;
    absl::Status s = run.Go(Share());
    EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss) << at;
    EXPECT_TRUE(absl::StrContains(s.message(), absl::StrCat("seq ", at, ": not an event")))
        << s;
    EXPECT_EQ(run.checked, Upto(at - 1)) << at;
  }
}

TEST_P(ScanPipelineTest, TheReadersErrorComesAfterEveryEventItRead) {
  for (uint64_t at : {1u, 513u, 8192u, static_cast<unsigned>(kEvents)}) {
    ScanRun run;
    run.read_error_at = at;
    absl::Status s = run.Go(Share());
    EXPECT_EQ(s, absl::DataLossError(absl::StrCat("seq ", at, ": event missing")));
    EXPECT_EQ(run.checked, Upto(at - 1)) << at;
  }
}

TEST_P(ScanPipelineTest, TheCallersErrorStopsTheScan) {
  for (uint64_t at : {1u, 512u, 513u, 15000u}) {
    ScanRun run;
    run.check_error_at = at;
    run.garbage_at = at + 1;  // never reached
    EXPECT_EQ(run.Go(Share()), absl::CancelledError("enough"));
    EXPECT_EQ(run.checked, Upto(at - 1)) << at;
  }
}

INSTANTIATE_TEST_SUITE_P(Shares, ScanPipelineTest,
                         ::testing::Values(0, 300, 512, 700, 1024, -1));

}  // namespace
}  // namespace combat::store
