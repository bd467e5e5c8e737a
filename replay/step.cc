#include "replay/step.h"

#include <algorithm>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "events/nearest.h"
#include "events/status_macros.h"
#include "kernel/fold.h"
#include "kernel/session.h"
#include "replay/render.h"

namespace combat::replay {
namespace {

std::string S(const flatbuffers::String* s) { return s ? s->str() : ""; }

bool Contains(const std::vector<uint64_t>& v, uint64_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

}  // namespace

std::string RenderStep(const Step& step) {
  if (!step.event.has_value()) return "(no event)\n";
  const fb::Event& e = step.event->event();
  std::string out = absl::StrCat(RenderEvent(e), RenderAuthor(e));
  if (step.voided_later) absl::StrAppend(&out, "  [VOIDED later]");
  if (step.unapplied_later) absl::StrAppend(&out, "  [no longer applies after a void]");
  absl::StrAppend(&out, "  [", e.seq(), "/", step.head, "]\n");
  if (step.changes.empty()) {
    absl::StrAppend(&out, "    (the state does not change)\n");
  } else {
    absl::StrAppend(&out, RenderDiffs(step.changes, " -> ", "    "));
  }
  return out;
}

Walker::Walker(store::EventLog& log, std::string session, std::string branch,
               SeekOptions options)
    : log_(log),
      session_(std::move(session)),
      branch_(std::move(branch)),
      options_(options) {}

absl::Status Walker::LoadHead() {
  if (head_.has_value()) return absl::OkStatus();
  ASSIGN_OR_RETURN(kernel::State head, Seek(log_, session_, branch_, 0, options_));
  head_ = std::move(head);
  return absl::OkStatus();
}

absl::StatusOr<Step> Walker::StepFrom(kernel::State before, uint64_t seq) {
  RETURN_IF_ERROR(LoadHead());
  Step step;
  step.head = head_->seq;
  ASSIGN_OR_RETURN(auto evs, log_.Read(session_, branch_, seq, seq));
  const kernel::PrefixScan prefix = StoreScan(log_, session_, branch_);
  kernel::State after = before;
  RETURN_IF_ERROR(
      kernel::FoldOne(evs.front(), after, kernel::CheckHashes::kYes, &prefix));
  step.changes = DiffStates(before, after, /*include_seq=*/false);
  step.voided_later = kernel::IsVoided(evs.front().event(), head_->voided);
  step.unapplied_later = Contains(head_->unapplied, seq);
  step.event = std::move(evs.front());
  step.after = after;
  at_ = seq;
  current_ = std::move(after);
  return step;
}

absl::StatusOr<Step> Walker::Goto(uint64_t seq) {
  ASSIGN_OR_RETURN(store::Head head, log_.GetHead(session_, branch_));
  if (seq == 0 || seq > head.seq) {
    return absl::OutOfRangeError(absl::StrCat("branch ", branch_, " has events 1..",
                                              head.seq, "; no event ", seq));
  }
  kernel::State before;  // seq 1 starts from nothing (Seek's 0 is the head)
  if (seq > 1) {
    ASSIGN_OR_RETURN(before, Seek(log_, session_, branch_, seq - 1, options_));
  }
  return StepFrom(std::move(before), seq);
}

absl::StatusOr<Step> Walker::Next() {
  if (!current_.has_value()) return Goto(at_ + 1);
  ASSIGN_OR_RETURN(store::Head head, log_.GetHead(session_, branch_));
  if (at_ >= head.seq) {
    return absl::OutOfRangeError(
        absl::StrCat("event ", at_, " is the head of branch ", branch_));
  }
  return StepFrom(*current_, at_ + 1);
}

absl::StatusOr<Step> Walker::Prev() {
  if (at_ <= 1) {
    return absl::OutOfRangeError("already at the first event");
  }
  return Goto(at_ - 1);
}

absl::StatusOr<uint64_t> Walker::FindRound(int64_t round) const {
  uint64_t found = 0;
  absl::Status st = log_.Scan(
      session_, branch_, 1, 0, [&](const events::EventBuffer& b) -> absl::Status {
        const fb::Event& e = b.event();
        if (e.body_type() != fb::Body::StateChange) return absl::OkStatus();
        const auto* rs = e.body_as_StateChange()->change_as_RoundStarted();
        if (rs != nullptr && rs->round() == round) {
          found = e.seq();
          return absl::CancelledError("found");
        }
        return absl::OkStatus();
      });
  if (found != 0) return found;
  if (!st.ok()) return st;
  return absl::NotFoundError(
      absl::StrCat("branch ", branch_, " has no round ", round));
}

absl::StatusOr<uint64_t> Walker::FindTurn(int64_t round, int64_t turn,
                                          const std::string& actor) const {
  uint64_t found = 0;
  int64_t seen = 0;
  std::vector<std::string> actors;  // whose turns there are, in order
  // The turn ended by the event just before (its actor, round and seq): a
  // running turn recorded again (TurnEnded then at once TurnStarted, same
  // actor and round: a mount joining it, seed 001 l.280) is not a new turn.
  std::string ended_actor;
  int64_t ended_round = 0;
  uint64_t ended_seq = 0;
  absl::Status st = log_.Scan(
      session_, branch_, 1, 0, [&](const events::EventBuffer& b) -> absl::Status {
        const fb::Event& e = b.event();
        if (e.body_type() != fb::Body::StateChange) return absl::OkStatus();
        if (const auto* te = e.body_as_StateChange()->change_as_TurnEnded(); te != nullptr) {
          ended_actor = S(te->actor());
          ended_round = te->round();
          ended_seq = e.seq();
          return absl::OkStatus();
        }
        const auto* ts = e.body_as_StateChange()->change_as_TurnStarted();
        if (ts == nullptr || (round != 0 && ts->round() != round)) {
          return absl::OkStatus();
        }
        if (e.seq() == ended_seq + 1 && S(ts->actor()) == ended_actor && ts->round() == ended_round) {
          return absl::OkStatus();  // the same turn, going on
        }
        if (std::find(actors.begin(), actors.end(), S(ts->actor())) == actors.end()) {
          actors.push_back(S(ts->actor()));
        }
        if (!actor.empty() ? S(ts->actor()) == actor : ++seen == turn) {
          found = e.seq();
          return absl::CancelledError("found");
        }
        return absl::OkStatus();
      });
  if (found != 0) return found;
  if (!st.ok()) return st;
  // What there is instead: the number of turns, or whose turns (nearest
  // first, with a suggestion for a misspelled actor).
  const std::string where = round != 0 ? absl::StrCat(" in round ", round) : std::string();
  if (actor.empty()) {
    return absl::NotFoundError(absl::StrCat("branch ", branch_, " has no turn ", turn,
                                            where, " (it has ", seen, ")"));
  }
  return absl::NotFoundError(absl::StrCat(
      "branch ", branch_, " has no turn of ", actor, where, ": ",
      events::NoSuchName("actor", "actors with turns", actor, actors)));
}

absl::StatusOr<Step> Walker::ToRound(int64_t round) {
  ASSIGN_OR_RETURN(uint64_t seq, FindRound(round));
  return Goto(seq);
}

absl::StatusOr<Step> Walker::ToTurn(int64_t round, int64_t turn,
                                    const std::string& actor) {
  ASSIGN_OR_RETURN(uint64_t seq, FindTurn(round, turn, actor));
  return Goto(seq);
}

absl::Status Walk(Walker& walker, uint64_t start, std::istream& in,
                  std::ostream& out) {
  auto show = [&out](const absl::StatusOr<Step>& s) {
    if (s.ok()) {
      out << RenderStep(*s);
    } else {
      out << "  " << s.status().message() << "\n";
    }
  };
  show(walker.Goto(start == 0 ? 1 : start));
  std::string line;
  while (out << "step> " << std::flush, std::getline(in, line)) {
    std::istringstream words(line);
    std::string cmd;
    words >> cmd;
    if (cmd.empty() || cmd == "n") {
      show(walker.Next());
    } else if (cmd == "p") {
      show(walker.Prev());
    } else if (cmd == "g") {
      uint64_t n = 0;
      words >> n;
      show(walker.Goto(n));
    } else if (cmd == "r") {
      int64_t r = 0;
      words >> r;
      show(walker.ToRound(r));
    } else if (cmd == "t") {
      int64_t r = 0, t = 0;
      words >> r >> t;
      show(walker.ToTurn(r, t));
    } else if (cmd == "q") {
      break;
    } else {
      out << "  n next, p previous, g N go to event N, r R round R, "
             "t R T turn T of round R, q quit\n";
    }
  }
  out << "\n";
  return absl::OkStatus();
}

}  // namespace combat::replay
