#include "replay/diff.h"

#include <algorithm>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "replay/event_diff.h"
#include "replay/fork.h"
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

// Events lo..hi of a branch in order, read 1024 at a time, fork records
// left out.
class Cursor {
 public:
  Cursor(const store::EventLog& log, const std::string& session,
         const std::string& branch, uint64_t lo, uint64_t hi)
      : log_(log), session_(session), branch_(branch), next_(lo), hi_(hi) {}

  // The next event, or nullptr after the last.
  absl::StatusOr<const events::EventBuffer*> Next() {
    for (;;) {
      if (at_ == chunk_.size()) {
        if (next_ > hi_) return nullptr;
        constexpr uint64_t kChunk = 1024;
        const uint64_t to = std::min(hi_, next_ + kChunk - 1);
        ASSIGN_OR_RETURN(chunk_, log_.Read(session_, branch_, next_, to));
        next_ = to + 1;
        at_ = 0;
        if (chunk_.empty()) return nullptr;
      }
      const events::EventBuffer* e = &chunk_[at_++];
      if (!IsForkRecord(*e)) return e;
    }
  }
  uint64_t end() const { return hi_; }

 private:
  const store::EventLog& log_;
  const std::string& session_;
  const std::string& branch_;
  uint64_t next_;
  uint64_t hi_;
  std::vector<events::EventBuffer> chunk_;
  size_t at_ = 0;
};

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
  // The events after the shared prefix, paired in order; fork records
  // (schema v6: a branch's first event, saying who forked it) are not
  // outcomes and are stepped over, so a what-if's re-run lines up with the
  // parent's events it re-ran.
  Cursor ca(log, session, a.branch, r.shared + 1, a.seq);
  Cursor cb(log, session, b.branch, r.shared + 1, b.seq);
  for (;;) {
    ASSIGN_OR_RETURN(const events::EventBuffer* ea, ca.Next());
    ASSIGN_OR_RETURN(const events::EventBuffer* eb, cb.Next());
    if (ea == nullptr || eb == nullptr) {
      if ((ea != nullptr || eb != nullptr) && a.branch != b.branch) {
        // One history goes on where the other stops.
        r.first_divergent = ea != nullptr ? ea->event().seq() : ca.end() + 1;
        r.first_divergent_b = eb != nullptr ? eb->event().seq() : cb.end() + 1;
      }
      break;
    }
    if (OutcomeBytes(*ea) == OutcomeBytes(*eb)) continue;
    r.first_divergent = ea->event().seq();
    r.first_divergent_b = eb->event().seq();
    r.a_event = *ea;
    r.b_event = *eb;
    ASSIGN_OR_RETURN(r.event_fields, DiffEvents(*ea, *eb));
    break;
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
  const std::string where =
      d.first_divergent_b == d.first_divergent
          ? absl::StrCat("#", d.first_divergent)
          : absl::StrCat(d.a.branch, "#", d.first_divergent, " | ", d.b.branch, "#",
                         d.first_divergent_b);
  if (d.a_event.has_value()) {
    absl::StrAppend(&out, "  first divergent event: ", where, "\n",
                    "    ", d.a.branch, ": ", RenderEvent(d.a_event->event()), "\n",
                    "    ", d.b.branch, ": ", RenderEvent(d.b_event->event()), "\n",
                    RenderDiffs(d.event_fields, " | ", "    "));
  } else if (d.first_divergent != 0) {
    absl::StrAppend(&out, "  first divergent event: ", where,
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
