#include "replay/jump.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "events/hash.h"
#include "events/status_macros.h"
#include "kernel/session.h"
#include "kernel/state_codec.h"

namespace combat::replay {
namespace {

// Writes a snapshot of `state` (after event state.seq); a failure is a
// note, not an error: snapshots are a cache.
void WriteSnapshot(store::EventLog& log, const std::string& session,
                   const std::string& branch, int32_t version,
                   const kernel::State& state, SeekReport* report) {
  if (log.read_only()) return;  // a read-only verb changes nothing
  absl::Status st = log.PutSnapshot(session, branch, state.seq, version,
                                    kernel::EncodeState(state));
  if (report == nullptr) return;
  if (st.ok()) {
    ++report->snapshots_written;
  } else {
    report->notes.push_back(absl::StrCat("could not write the snapshot at seq ",
                                         state.seq, ": ", st.message()));
  }
}

}  // namespace

bool MatchesRecordedHash(const kernel::State& state, const fb::Event& event) {
  const auto* recorded = event.state_hash();
  const events::Digest actual = kernel::StateHash(state);
  return recorded != nullptr && recorded->size() == actual.size() &&
         std::equal(actual.begin(), actual.end(), recorded->begin());
}

kernel::PrefixScan StoreScan(const store::EventLog& log,
                             const std::string& session,
                             const std::string& branch) {
  return [&log, session, branch](uint64_t upto,
                                 const kernel::EventVisitor& visit) -> absl::Status {
    if (upto == 0) return absl::OkStatus();
    return log.Scan(session, branch, 1, upto,
                    [&visit](const events::EventBuffer& e) {
                      return visit(e.event());
                    });
  };
}

absl::StatusOr<kernel::State> Seek(store::EventLog& log,
                                   const std::string& session,
                                   const std::string& branch, uint64_t seq,
                                   const SeekOptions& options,
                                   SeekReport* report) {
  SeekReport local;
  SeekReport& r = report != nullptr ? *report : local;
  ASSIGN_OR_RETURN(store::SessionMeta meta, log.GetSession(session));
  ASSIGN_OR_RETURN(store::Head head, log.GetHead(session, branch));
  if (seq > head.seq) {
    return absl::OutOfRangeError(absl::StrCat("session ", session, " branch ",
                                              branch, " has ", head.seq,
                                              " events; no event ", seq));
  }
  const uint64_t target = seq == 0 ? head.seq : seq;
  r.target = target;
  kernel::State state;
  if (target == 0) return state;

  uint64_t start = 0;  // `state` is the state after event `start`
  if (options.use_snapshots) {
    uint64_t probe = target;
    while (probe > 0) {
      auto found =
          log.NearestSnapshot(session, branch, probe, meta.ruleset_version);
      if (!found.ok()) {
        r.ignored.push_back(absl::StrCat("snapshots at or below seq ", probe,
                                         ": ", found.status().message()));
        break;
      }
      if (!found->has_value()) break;
      const store::Snapshot& snap = **found;
      const std::string where = absl::StrCat(
          "snapshot at seq ", snap.seq, " (branch ", snap.branch, ")");
      probe = snap.seq - 1;
      auto decoded = kernel::DecodeState(snap.state.data(), snap.state.size());
      if (!decoded.ok()) {
        r.ignored.push_back(
            absl::StrCat(where, ": undecodable: ", decoded.status().message()));
        continue;
      }
      bool match = false;
      RETURN_IF_ERROR(log.Scan(session, branch, snap.seq, snap.seq,
                               [&](const events::EventBuffer& e) {
                                 match = decoded->seq == snap.seq &&
                                         MatchesRecordedHash(*decoded, e.event());
                                 return absl::OkStatus();
                               }));
      if (!match) {
        r.ignored.push_back(absl::StrCat(
            where, ": its state does not hash to the state_hash recorded in "
                   "event ", snap.seq, "; replaying instead"));
        continue;
      }
      state = *std::move(decoded);
      start = snap.seq;
      r.snapshot_seq = snap.seq;
      r.snapshot_branch = snap.branch;
      break;
    }
  }
  if (start == target) return state;

  const uint64_t every = options.snapshot_every;
  const bool write = options.write_snapshots && every > 0;
  const kernel::PrefixScan prefix = StoreScan(log, session, branch);
  const kernel::CheckHashes check = options.check_every_hash
                                        ? kernel::CheckHashes::kYes
                                        : kernel::CheckHashes::kNo;
  Progress* progress = options.progress;
  if (progress != nullptr) progress->SetTotal(target - start);
  RETURN_IF_ERROR(log.Scan(
      session, branch, start + 1, target,
      [&](const events::EventBuffer& e) -> absl::Status {
        RETURN_IF_ERROR(kernel::FoldOne(e, state, check, &prefix));
        ++r.folded;
        if (progress != nullptr) progress->Update(r.folded);
        if (state.seq == target && !MatchesRecordedHash(state, e.event())) {
          return absl::DataLossError(absl::StrCat(
              "session ", session, " branch ", branch, " event seq ", state.seq,
              ": recorded state hash does not match the replayed state (",
              events::Hex(kernel::StateHash(state)), ")"));
        }
        if (write && state.seq % every == 0) {
          WriteSnapshot(log, session, branch, meta.ruleset_version, state, &r);
        }
        return absl::OkStatus();
      }));
  if (progress != nullptr) progress->Finish();
  return state;
}

absl::StatusOr<kernel::State> SnapshotNewEvents(
    store::EventLog& log, const std::string& session, const std::string& branch,
    int32_t ruleset_version, kernel::State before,
    const std::vector<events::EventBuffer>& events,
    const SeekOptions& options) {
  const uint64_t every = options.snapshot_every;
  const kernel::PrefixScan prefix = StoreScan(log, session, branch);
  // One snapshot per append at most, at the last multiple of `every` the
  // command covers: a set-up of thousands of combatants is one command of
  // thousands of events, and a snapshot per 256 of them (each encoding the
  // whole state) made its cost quadratic.
  uint64_t last_multiple = 0;
  if (options.write_snapshots && every > 0 && !events.empty()) {
    const uint64_t last = events.back().event().seq();
    const uint64_t first = events.front().event().seq();
    const uint64_t m = last - last % every;
    if (m >= first && m > 0) last_multiple = m;
  }
  // The batch fold (kernel/fold.h FoldEvents), in two runs when a snapshot
  // falls inside the command: up to it, then the rest.
  absl::Span<const events::EventBuffer> rest(events);
  if (last_multiple != 0) {
    const size_t upto = std::min<size_t>(
        last_multiple - events.front().event().seq() + 1, events.size());
    RETURN_IF_ERROR(kernel::FoldEvents(rest.first(upto), before, &prefix));
    rest.remove_prefix(upto);
    if (before.seq == last_multiple) {
      WriteSnapshot(log, session, branch, ruleset_version, before, nullptr);
    }
  }
  RETURN_IF_ERROR(kernel::FoldEvents(rest, before, &prefix));
  return before;
}

}  // namespace combat::replay
