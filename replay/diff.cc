#include "replay/diff.h"

#include <algorithm>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "replay/event_diff.h"
#include "replay/recorded.h"
#include "replay/render.h"

namespace combat::replay {
namespace {

struct Segment {
  std::string branch;
  uint64_t lo = 0;
  uint64_t hi = 0;
};

// The stored segments events 1..to of `branch` are read from, in order.
absl::StatusOr<std::vector<Segment>> SegmentsOf(const store::EventLog& log,
                                                const std::string& session,
                                                const std::string& branch,
                                                uint64_t to) {
  std::vector<Segment> out;
  ASSIGN_OR_RETURN(store::BranchMeta meta, log.GetBranch(session, branch));
  uint64_t limit = to;
  for (int depth = 0; limit > 0 && depth < 10000; ++depth) {
    if (limit > meta.fork_seq) out.push_back({meta.branch, meta.fork_seq + 1, limit});
    if (meta.parent.empty()) break;
    limit = std::min(limit, meta.fork_seq);
    ASSIGN_OR_RETURN(meta, log.GetBranch(session, meta.parent));
  }
  std::reverse(out.begin(), out.end());
  return out;
}

// How many leading seqs two segment lists read from the same records.
uint64_t SharedPrefix(const std::vector<Segment>& a, const std::vector<Segment>& b) {
  uint64_t shared = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (a[i].branch != b[i].branch || a[i].lo != b[i].lo) break;
    shared = std::min(a[i].hi, b[i].hi);
    if (a[i].hi != b[i].hi) break;
  }
  return shared;
}

}  // namespace

absl::StatusOr<Point> ParsePoint(absl::string_view text) {
  Point p;
  const size_t at = text.find('@');
  const absl::string_view name = text.substr(0, at);
  if (!name.empty()) p.branch = std::string(name);
  if (at != absl::string_view::npos &&
      !absl::SimpleAtoi(text.substr(at + 1), &p.seq)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", text, "': a point is BRANCH, BRANCH@SEQ or @SEQ"));
  }
  if (p.branch.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("'", text, "': no branch"));
  }
  return p;
}

absl::StatusOr<DiffResult> Diff(store::EventLog& log, const std::string& session,
                                Point a, Point b, const SeekOptions& seek) {
  DiffResult r;
  r.session = session;
  ASSIGN_OR_RETURN(store::Head ha, log.GetHead(session, a.branch));
  ASSIGN_OR_RETURN(store::Head hb, log.GetHead(session, b.branch));
  if (a.seq == 0) a.seq = ha.seq;
  if (b.seq == 0) b.seq = hb.seq;
  r.a = a;
  r.b = b;
  ASSIGN_OR_RETURN(kernel::State sa, Seek(log, session, a.branch, a.seq, seek));
  ASSIGN_OR_RETURN(kernel::State sb, Seek(log, session, b.branch, b.seq, seek));
  r.state = DiffStates(sa, sb, /*include_seq=*/a.seq != b.seq);

  ASSIGN_OR_RETURN(auto seg_a, SegmentsOf(log, session, a.branch, a.seq));
  ASSIGN_OR_RETURN(auto seg_b, SegmentsOf(log, session, b.branch, b.seq));
  r.shared = std::min({SharedPrefix(seg_a, seg_b), a.seq, b.seq});
  const uint64_t end = std::min(a.seq, b.seq);
  constexpr uint64_t kChunk = 1024;
  for (uint64_t lo = r.shared + 1; lo <= end && r.first_divergent == 0;
       lo += kChunk) {
    const uint64_t hi = std::min(end, lo + kChunk - 1);
    ASSIGN_OR_RETURN(auto ea, log.Read(session, a.branch, lo, hi));
    ASSIGN_OR_RETURN(auto eb, log.Read(session, b.branch, lo, hi));
    for (size_t i = 0; i < ea.size() && i < eb.size(); ++i) {
      if (OutcomeBytes(ea[i]) == OutcomeBytes(eb[i])) continue;
      r.first_divergent = lo + i;
      r.a_event = ea[i];
      r.b_event = eb[i];
      ASSIGN_OR_RETURN(r.event_fields, DiffEvents(ea[i], eb[i]));
      break;
    }
  }
  if (r.first_divergent == 0 && a.seq != b.seq && a.branch != b.branch) {
    r.first_divergent = end + 1;  // one history goes on where the other stops
  }
  return r;
}

std::string RenderDiff(const DiffResult& d) {
  const std::string la = absl::StrCat(d.a.branch, "#", d.a.seq);
  const std::string lb = absl::StrCat(d.b.branch, "#", d.b.seq);
  std::string out = absl::StrCat("diff ", d.session, ": ", la, " | ", lb, "\n");
  absl::StrAppend(&out, "  shared prefix: ",
                  d.shared == 0 ? std::string("none")
                                : absl::StrCat("events 1..", d.shared,
                                               " (the same stored events)"),
                  "\n");
  if (d.a_event.has_value()) {
    absl::StrAppend(&out, "  first divergent event: #", d.first_divergent, "\n",
                    "    ", d.a.branch, ": ", RenderEvent(d.a_event->event()), "\n",
                    "    ", d.b.branch, ": ", RenderEvent(d.b_event->event()), "\n",
                    RenderDiffs(d.event_fields, " | ", "    "));
  } else if (d.first_divergent != 0) {
    absl::StrAppend(&out, "  first divergent event: #", d.first_divergent,
                    " (the same outcomes up to there; one goes on)\n");
  } else {
    absl::StrAppend(&out, "  no divergent event up to #",
                    std::min(d.a.seq, d.b.seq), "\n");
  }
  absl::StrAppend(&out, "  state at ", la, " | ", lb, ":\n",
                  RenderDiffs(d.state, " | ", "    "));
  return out;
}

}  // namespace combat::replay
