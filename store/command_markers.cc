#include "store/command_markers.h"

#include <algorithm>
#include <optional>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"

namespace combat::store {

CommandMarkerCheck::CommandMarkerCheck(const LogReader& log, std::string session,
                                       std::string branch,
                                       std::vector<Segment> segments)
    : log_(&log),
      session_(std::move(session)),
      branch_(std::move(branch)),
      segments_(std::move(segments)) {}

absl::StatusOr<CommandMarkerCheck> CommandMarkerCheck::Start(
    const LogReader& log, const std::string& session, const std::string& branch,
    uint64_t head) {
  // The branch owns fork_seq+1..head; each ancestor owns the seqs below its
  // child's fork point and above its own.
  std::vector<Segment> segments;
  std::set<std::string> seen;
  ASSIGN_OR_RETURN(BranchMeta current, log.GetBranch(session, branch));
  uint64_t limit = head;
  while (limit > 0) {
    if (!seen.insert(current.branch).second) {
      return absl::DataLossError(absl::StrCat("session ", session, " branch ", branch,
                                              ": branch ancestry loops back to branch ",
                                              current.branch));
    }
    if (limit > current.fork_seq) {
      segments.push_back({current.branch, current.fork_seq + 1, limit});
    }
    if (current.parent.empty()) break;
    limit = std::min(limit, current.fork_seq);
    ASSIGN_OR_RETURN(current, log.GetBranch(session, current.parent));
  }
  std::reverse(segments.begin(), segments.end());
  return CommandMarkerCheck(log, session, branch, std::move(segments));
}

absl::Status CommandMarkerCheck::Visit(const events::EventBuffer& event) {
  const uint64_t seq = next_seq_++;
  while (segment_ < segments_.size() && seq > segments_[segment_].to) ++segment_;
  if (segment_ == segments_.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "session ", session_, ": command marker check fed event seq ", seq,
        " past the head"));
  }
  const auto* id = event.event().command_id();
  const bool continues = id != nullptr && !run_.command.empty() &&
                         run_.segment == segment_ && id->string_view() == run_.command;
  if (continues) {
    run_.last = seq;
    return absl::OkStatus();
  }
  RETURN_IF_ERROR(CheckRun());
  run_ = Run{};
  if (id != nullptr && id->size() > 0) run_ = Run{id->str(), seq, seq, segment_};
  return absl::OkStatus();
}

absl::Status CommandMarkerCheck::Finish() {
  RETURN_IF_ERROR(CheckRun());
  run_ = Run{};
  return absl::OkStatus();
}

absl::Status CommandMarkerCheck::CheckRun() {
  if (run_.command.empty()) return absl::OkStatus();
  failed_seq_ = run_.first;  // until it passes
  const Segment& segment = segments_[run_.segment];
  const std::string context =
      absl::StrCat("session ", session_, " branch ", segment.branch, " command ",
                   run_.command, ": events seq ", run_.first, "..", run_.last,
                   " carry this command id");
  ASSIGN_OR_RETURN(std::optional<AppendResult> marker,
                   log_->FindCommand(session_, segment.branch, run_.command));
  if (!marker.has_value()) {
    return absl::DataLossError(absl::StrCat(
        context, " but its command marker is missing (a retry would apply it again)"));
  }
  // An ancestor's segment ends at a fork point, which may cut a command
  // (its marker names the parent's full range); the branch's own segment
  // ends at its head, always between commands.
  const bool cut = run_.last == segment.to && segment.branch != branch_;
  const bool last_ok = cut ? marker->last_seq >= run_.last : marker->last_seq == run_.last;
  if (marker->first_seq != run_.first || !last_ok) {
    return absl::DataLossError(absl::StrCat(context, " but its command marker names seqs ",
                                            marker->first_seq, "..", marker->last_seq));
  }
  failed_seq_ = 0;
  return absl::OkStatus();
}

absl::Status CheckCommandMarkers(const LogReader& log, const std::string& session,
                                 const std::string& branch) {
  ASSIGN_OR_RETURN(Head head, log.GetHead(session, branch));
  ASSIGN_OR_RETURN(CommandMarkerCheck check,
                   CommandMarkerCheck::Start(log, session, branch, head.seq));
  RETURN_IF_ERROR(log.Scan(session, branch, 1, head.seq,
                           [&check](const events::EventBuffer& e) { return check.Visit(e); }));
  return check.Finish();
}

}  // namespace combat::store
