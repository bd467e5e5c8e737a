#include "kernel/fold.h"

#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/reducer.h"

namespace combat::kernel {
namespace {

bool Contains(const std::vector<uint64_t>& sorted, uint64_t seq) {
  return seq != 0 && std::binary_search(sorted.begin(), sorted.end(), seq);
}

const fb::Voided* AsVoided(const fb::Event& e) {
  if (e.body_type() != fb::Body::StateChange) return nullptr;
  return e.body_as_StateChange()->change_as_Voided();
}

}  // namespace

bool IsVoided(const fb::Event& event, const std::vector<uint64_t>& voided) {
  return Contains(voided, event.seq()) || Contains(voided, event.cause());
}

absl::Status ApplyEvent(const fb::Event& event, State& state,
                        const PrefixScan* prefix) {
  const fb::Voided* v = AsVoided(event);
  if (v == nullptr) return Apply(event, state);
  if (prefix == nullptr) {
    return absl::FailedPreconditionError(absl::StrCat(
        "event seq ", event.seq(), ": a void needs the branch's events"));
  }
  std::vector<uint64_t> voided = state.voided;
  auto at = std::lower_bound(voided.begin(), voided.end(), v->target());
  if (at == voided.end() || *at != v->target()) voided.insert(at, v->target());

  State fresh;
  std::vector<uint64_t> unapplied;
  RETURN_IF_ERROR((*prefix)(event.seq() - 1, [&](const fb::Event& e) {
    if (IsVoided(e, voided)) return Apply(e, fresh, Mode::kVoided);
    absl::Status st = Apply(e, fresh, Mode::kRederive);
    if (absl::IsFailedPrecondition(st)) {
      unapplied.push_back(e.seq());
      return Apply(e, fresh, Mode::kVoided);
    }
    return st;
  }));
  if (fresh.seq + 1 != event.seq()) {
    return absl::DataLossError(absl::StrCat(
        "event seq ", event.seq(), ": re-deriving after a void read only ",
        fresh.seq, " earlier events"));
  }
  fresh.unapplied = std::move(unapplied);
  RETURN_IF_ERROR(Apply(event, fresh));
  state = std::move(fresh);
  return absl::OkStatus();
}

absl::Status FoldEvents(absl::Span<const events::EventBuffer> events,
                        State& state, const PrefixScan* prefix) {
  absl::Status error;
  while (!events.empty()) {
    const size_t applied = ApplyRun(events, state, error);
    if (!error.ok()) return error;
    if (applied == events.size()) break;
    // ApplyRun stopped before a Voided event.
    RETURN_IF_ERROR(ApplyEvent(events[applied].event(), state, prefix));
    events.remove_prefix(applied + 1);
  }
  return absl::OkStatus();
}

}  // namespace combat::kernel
