#include "tests/testing/verify.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "kernel/session.h"
#include "kernel/state_codec.h"
#include "store/command_markers.h"

namespace combat::testing {
namespace {

// The chain and fold checks for one event, in seq order.
class Checker {
 public:
  absl::Status Visit(const events::EventBuffer& e, Layer* layer) {
    const fb::Event& ev = e.event();
    const flatbuffers::Vector<uint8_t>* prev = ev.prev_hash();
    if (prev == nullptr || prev->size() != prev_.size() ||
        !std::equal(prev_.begin(), prev_.end(), prev->begin())) {
      *layer = Layer::kChain;
      return absl::DataLossError(absl::StrCat(
          "event seq ", ev.seq(), ": prev_hash ",
          prev == nullptr ? std::string("missing")
                          : events::Hex(prev->data(), prev->size()),
          " is not the hash of seq ", ev.seq() - 1, " (", events::Hex(prev_),
          ")"));
    }
    absl::Status folded =
        kernel::FoldOne(e, state_, kernel::CheckHashes::kYes);
    if (!folded.ok()) {
      *layer = Layer::kFold;
      return folded;
    }
    prev_ = e.hash();
    return absl::OkStatus();
  }
  kernel::State& state() { return state_; }

 private:
  events::Digest prev_{};
  kernel::State state_;
};

}  // namespace

const char* LayerName(Layer layer) {
  switch (layer) {
    case Layer::kNone: return "none";
    case Layer::kOpen: return "open";
    case Layer::kStore: return "store";
    case Layer::kChain: return "chain";
    case Layer::kFold: return "fold";
    case Layer::kMarkers: return "command markers";
  }
  return "?";
}

absl::StatusOr<Verified> VerifyBranch(const store::EventLog& log,
                                      const std::string& session,
                                      const std::string& branch,
                                      Layer* failed) {
  Layer layer = Layer::kNone;
  Verified out;
  Checker checker;
  absl::StatusOr<store::Head> head = log.GetHead(session, branch);
  absl::Status s = head.status();
  if (s.ok() && head->seq > 0) {
    absl::StatusOr<store::CommandMarkerCheck> markers =
        store::CommandMarkerCheck::Start(log, session, branch, head->seq);
    s = markers.status();
    if (s.ok()) {
      s = log.Scan(session, branch, 1, head->seq,
                   [&](const events::EventBuffer& e) -> absl::Status {
                     absl::Status v = checker.Visit(e, &layer);
                     if (v.ok()) out.events.push_back(e);
                     if (v.ok()) {
                       v = markers->Visit(e);
                       if (!v.ok()) layer = Layer::kMarkers;
                     }
                     return v;
                   });
    }
    if (s.ok()) {
      s = markers->Finish();
      if (!s.ok()) layer = Layer::kMarkers;
    }
  }
  if (!s.ok()) {
    if (failed != nullptr) *failed = layer == Layer::kNone ? Layer::kStore : layer;
    return s;
  }
  if (failed != nullptr) *failed = Layer::kNone;
  out.state = std::move(checker.state());
  return out;
}

absl::StatusOr<kernel::State> VerifyEvents(
    const std::vector<events::EventBuffer>& events, Layer* failed) {
  Layer layer = Layer::kNone;
  Checker checker;
  for (size_t i = 0; i < events.size(); ++i) {
    if (events[i].event().seq() != i + 1) {
      if (failed != nullptr) *failed = Layer::kChain;
      return absl::DataLossError(absl::StrCat("event ", i + 1, " has seq ",
                                              events[i].event().seq()));
    }
    absl::Status s = checker.Visit(events[i], &layer);
    if (!s.ok()) {
      if (failed != nullptr) *failed = layer;
      return s;
    }
  }
  if (failed != nullptr) *failed = Layer::kNone;
  return std::move(checker.state());
}

std::string StateHashHex(const kernel::State& state) {
  return events::Hex(kernel::StateHash(state));
}

}  // namespace combat::testing
