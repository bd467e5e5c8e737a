#include "replay/verify.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/dice/source.h"
#include "kernel/fold.h"
#include "kernel/reducer.h"
#include "kernel/state_codec.h"
#include "replay/event_check.h"
#include "replay/jump.h"
#include "replay/recorded.h"
#include "replay/redecide.h"
#include "replay/verify_pipeline.h"
#include "replay/verify_secret.h"
#include "store/command_markers.h"

namespace combat::replay {
namespace {

std::string S(const flatbuffers::String* s) { return s ? s->str() : ""; }

// Walks one branch: the per-event checks (replay/event_check.h), command
// re-decision (replay/redecide.h), and the fast path between them. Stops
// at the first mismatch, which the checks record in the report.
//
// The fast path. With re-decision on, a command whose re-decided events are
// byte-identical to the recorded ones vouches for most checks of its
// events: re-decided events are canonical (EncodeEvent), each links to the
// one before (Decision chains them from the hash of the event before the
// command, which verify computes), and each carries the hash of the state
// the decider reached by applying it to the state before the command
// (verify's own fold, copied). So until a command is re-decided its events
// are only checked for what re-decision does not cover (envelope, reducer,
// seeded dice, records); their canonical bytes, links and state hashes are
// not recomputed. When anything fails, or a command is not re-decided (the
// set-up, a command without declaration), verify rewinds to the start of
// the command (the checkpoint `mark_`, a copy of the checks' whole
// position: EventCheck::Position) and checks its events one by one as the
// slow path always does, so that the report (which check, which event, the
// details, the counts and notes) is the one the slow path alone would give.
class BranchCheck {
 public:
  BranchCheck(const BranchSource& source, const store::SessionMeta& meta,
              const kernel::Ruleset* rules, const VerifyOptions& options,
              VerifyReport& report)
      : source_(source),
        rules_(rules),
        options_(options),
        report_(report),
        grouper_(/*keep_events=*/true),
        check_(source, meta, options, &prefix_,
               [this](uint64_t seq) { return StateBefore(seq); }) {
    prefix_ = [this](uint64_t upto, const kernel::EventVisitor& visit) {
      if (upto == 0) return absl::OkStatus();
      return source_.scan(1, upto, [&visit](const events::EventBuffer& e) {
        return visit(e.event());
      });
    };
    check_.at().report = report;
    if (rules_ == nullptr && options_.redecide) {
      Report().notes.push_back(absl::StrCat(
          "declarations not re-decided: this build has no ruleset ",
          meta.ruleset, " v", meta.ruleset_version));
    }
    grouping_ = rules_ != nullptr && options_.redecide;
    fast_allowed_ = grouping_ && options_.trust_redecision;
    fast_ = fast_allowed_;
    MarkCommandStart();
  }

  // Walks the branch; the report is the caller's when it returns.
  absl::Status Run() {
    absl::Status st = Walk();
    report_ = std::move(Report());
    return st;
  }

 private:
  VerifyReport& Report() { return check_.at().report; }
  bool Stopped() const { return check_.stopped(); }
  absl::Status Stop() { return absl::CancelledError("verify: mismatch"); }

  absl::Status Walk() {
    if (options_.progress != nullptr) {
      options_.progress->SetLabel(
          absl::StrCat("verify ", source_.session, "/", source_.branch));
      options_.progress->SetTotal(source_.head);
    }
    absl::Status st = absl::OkStatus();
    if (source_.head > 0 && !fast_allowed_ &&
        source_.head >= options_.pipeline_from) {
      st = ScanPipelined();
    } else if (source_.head > 0) {
      st = source_.scan(1, source_.head, [this](const events::EventBuffer& e) {
        return Visit(e, nullptr);
      });
    }
    if (options_.progress != nullptr) options_.progress->Finish();
    if (Stopped()) return absl::OkStatus();
    if (fast_ && !st.ok()) {
      // Check what the fast path let through before naming the store.
      ReplaySlowly(grouper_.current());
      if (Stopped()) return absl::OkStatus();
    }
    if (!st.ok()) {
      // The store refused to read an event: name it.
      const uint64_t seq = check_.at().next_seq;
      check_.Fail("store", seq,
                  absl::StrCat("the store cannot read event #", seq, ": ",
                               st.message()),
                  "");
      return absl::OkStatus();
    }
    std::optional<RecordedCommand> last;
    if (fast_) {
      last = grouper_.Finish();
      if (last.has_value()) {
        if (FinishCommand(*last, /*followed_by_other_branch=*/true)) {
          check_.ChainFrom(last->events.back());
        } else {
          ReplaySlowly(&*last);
          if (Stopped()) return absl::OkStatus();
          check_.ResolvePendingAtEnd();
          if (Stopped()) return absl::OkStatus();
          FinishCommand(*last, /*followed_by_other_branch=*/true);
          if (Stopped()) return absl::OkStatus();
        }
      }
    } else {
      check_.ResolvePendingAtEnd();
      if (Stopped()) return absl::OkStatus();
      last = grouper_.Finish();
      if (last.has_value()) {
        FinishCommand(*last, /*followed_by_other_branch=*/true);
        if (Stopped()) return absl::OkStatus();
      }
    }
    check_.FinishBranch();
    return absl::OkStatus();
  }

  // The pipeline runs the source's observer (ScanPipelined).
  bool observed_ahead_ = false;

  // One event of the main walk; `pre`: what the pipeline computed for it
  // (null: computed here).
  absl::Status Visit(const events::EventBuffer& e, const Prechecked* pre) {
    absl::Status checked =
        fast_ ? VisitFast(e) : CheckEvent(e, Grouping::kAdd, pre);
    if (checked.ok() && !check_.Observe(e, pre, observed_ahead_)) return Stop();
    return checked;
  }

  // The main walk with the pipeline (VerifyOptions::pipeline_from): the
  // scan's visitor copies events into batches for the worker and walks the
  // batch before, whose canonical checks and hashes are done; what is left
  // once the scan returns (all of it when the store refused an event: the
  // events before are walked first, as without the pipeline) is walked
  // then. The walk sees the same events in the same order, and stops at
  // the same one, so the report is the same; the scan only reads further
  // ahead (at most two batches) before a mismatch stops it.
  absl::Status ScanPipelined() {
    const size_t size = std::max<size_t>(1, options_.pipeline_batch);
    PrecheckObserver observer;
    if (source_.observe_ahead && source_.observe) {
      observer = {source_.observe, source_.observed_seq};
    }
    observed_ahead_ = static_cast<bool>(observer.observe);
    PrecheckPipeline pipeline(std::move(observer));
    PrecheckBatch filling;
    filling.events.reserve(size);
    const auto walk = [this](const PrecheckBatch& batch) {
      for (size_t i = 0; i < batch.events.size(); ++i) {
        absl::Status visited = Visit(batch.events[i], &batch.checked[i]);
        if (!visited.ok()) return visited;
      }
      return absl::OkStatus();
    };
    absl::Status st = source_.scan(
        1, source_.head, [&](const events::EventBuffer& e) {
          filling.events.push_back(e);
          if (filling.events.size() < size) return absl::OkStatus();
          pipeline.Submit(std::move(filling));
          filling = PrecheckBatch();
          filling.events.reserve(size);
          // One batch checked ahead while this thread walks the one before.
          if (pipeline.pending() < 2) return absl::OkStatus();
          return walk(pipeline.Take());
        });
    if (Stopped()) return st;
    if (!filling.events.empty()) pipeline.Submit(std::move(filling));
    while (pipeline.pending() > 0) {
      absl::Status visited = walk(pipeline.Take());
      if (!visited.ok()) return visited;
    }
    return st;
  }

  // How CheckEvent groups the event into commands: kAdd as it comes;
  // kNone when the grouper holds it already (a replay); kCompletes when it
  // is the first event after `completes_`, which the grouper completed;
  // kVouched when it is the first event after `vouched_` (a replay).
  enum class Grouping { kAdd, kNone, kCompletes, kVouched };

  // Every check of one event, in order (the slow path), with the command
  // boundary between the event's own checks and those in the branch.
  // `pre`: the event's canonical check and hash, computed ahead (may be
  // null).
  absl::Status CheckEvent(const events::EventBuffer& buffer, Grouping grouping,
                          const Prechecked* pre = nullptr) {
    if (!check_.CheckSelf(buffer, pre)) return Stop();
    const fb::Event& e = buffer.event();
    // Command boundaries: re-decide the command this event completes.
    std::optional<RecordedCommand> done;
    if (grouping == Grouping::kAdd && grouping_) done = grouper_.Add(buffer);
    const RecordedCommand* completed =
        grouping == Grouping::kCompletes ? completes_ : done ? &*done : nullptr;
    if (completed != nullptr) {
      FinishCommand(*completed, S(e.branch()) != completed->branch);
      if (Stopped()) return Stop();
      MarkCommandStart();
      vouched_.last = 0;
    } else if (grouping == Grouping::kVouched) {
      // What re-deciding the command before did, once more.
      ++Report().commands_redecided;
      Report().notes.insert(Report().notes.end(), vouched_.notes.begin(),
                            vouched_.notes.end());
      MarkCommandStart();
      vouched_.last = 0;
    } else if (grouping == Grouping::kAdd && grouping_ &&
               grouper_.current()->first == e.seq()) {
      MarkCommandStart();  // the first command
    }
    if (!check_.CheckInBranch(buffer, pre)) return Stop();
    return absl::OkStatus();
  }

  // The fast path (see above): the checks re-decision does not cover; the
  // command's re-decision when the event completes one. Any failure
  // rewinds to the start of the command and checks it slowly.
  absl::Status VisitFast(const events::EventBuffer& buffer) {
    const fb::Event& e = buffer.event();
    if (!check_.EnvelopeOk(e)) {
      // The event is not grouped yet: the command so far, then this event.
      ReplaySlowly(grouper_.current());
      if (Stopped()) return Stop();
      return CheckEvent(buffer, Grouping::kAdd);
    }
    if (std::optional<RecordedCommand> done = grouper_.Add(buffer);
        done.has_value()) {
      const size_t notes = Report().notes.size();
      if (!FinishCommand(*done, S(e.branch()) != done->branch)) {
        ReplaySlowly(&*done);
        if (Stopped()) return Stop();
        completes_ = &*done;
        absl::Status st = CheckEvent(buffer, Grouping::kCompletes);
        completes_ = nullptr;
        fast_ = fast_allowed_ && !Stopped() && !check_.at().pending.has_value();
        return st;
      }
      // A rewind into the new command re-checks this event before counting
      // `done` (and its note) again, as the slow path orders them.
      vouched_.last = done->last;
      vouched_.notes.assign(Report().notes.begin() + static_cast<long>(notes),
                            Report().notes.end());
      const uint64_t redecided = Report().commands_redecided - 1;
      check_.ChainFrom(done->events.back());
      MarkCommandStart();
      mark_.report.commands_redecided = redecided;
      mark_.report.notes.resize(notes);
    } else if (grouper_.current()->first == e.seq()) {
      MarkCommandStart();  // the first command
    }
    if (!check_.ApplyVouched(buffer)) {
      ReplaySlowly(grouper_.current());  // which holds this event
      fast_ = fast_allowed_ && !Stopped() && !check_.at().pending.has_value();
      return Stopped() ? Stop() : absl::OkStatus();
    }
    return absl::OkStatus();
  }

  // The start of a command: the checkpoint the fast path rewinds to, whose
  // state and chain are also what the command is re-decided from.
  void MarkCommandStart() { mark_ = check_.at(); }

  // Rewinds to the start of the command and checks `c`'s events (all in
  // the grouper already) one by one; stays on the slow path.
  void ReplaySlowly(const RecordedCommand* c) {
    fast_ = false;
    check_.at() = mark_;
    if (c == nullptr) return;
    replaying_ = c;
    // The command before, re-decided by the fast path when this one's first
    // event came: the slow path checks that event first.
    const bool after_vouched = vouched_.last != 0 && vouched_.last + 1 == c->first;
    for (const events::EventBuffer& e : c->events) {
      const Grouping g = &e == &c->events.front() && after_vouched
                             ? Grouping::kVouched
                             : Grouping::kNone;
      if (!CheckEvent(e, g).ok() || Stopped()) break;
    }
    replaying_ = nullptr;
  }

  // The state before event `seq` (of the command being checked), rebuilt
  // from the state before its command: copying the state for every event
  // would cost more than the rest of verify.
  kernel::State StateBefore(uint64_t seq) {
    if (!grouping_) {
      // Without re-decision nothing keeps commands: fold the branch again.
      kernel::State before;
      (void)prefix_(seq - 1, [&](const fb::Event& e) {
        return kernel::ApplyEvent(e, before, &prefix_);
      });
      return before;
    }
    kernel::State before = mark_.state;
    const RecordedCommand* c =
        replaying_ != nullptr ? replaying_ : grouper_.current();
    if (c == nullptr) return before;
    for (const events::EventBuffer& e : c->events) {
      if (e.event().seq() >= seq) break;
      (void)kernel::ApplyEvent(e.event(), before, &prefix_);
    }
    return before;
  }

  // Re-decides `c` (replay/redecide.h) from the state and chain before it
  // and records the verdict; true when its events are the re-decided ones.
  bool FinishCommand(const RecordedCommand& c, bool followed_by_other_branch) {
    if (rules_ == nullptr || !options_.redecide) return false;
    RedecideInput in;
    in.rules = rules_;
    in.command = &c;
    in.before = &mark_.state;
    in.prev_before = mark_.prev;
    in.prefix = &prefix_;
    in.session = source_.session;
    in.branch = source_.branch;
    in.fork = &source_.fork;
    in.followed_by_other_branch = followed_by_other_branch;
    Redecision r = Redecide(in);
    if (r.verdict == Redecision::Verdict::kDiffers) {
      check_.Fail(std::move(r.mismatch.check), r.mismatch.seq,
                  std::move(r.mismatch.summary), std::move(r.mismatch.details));
      return false;
    }
    if (!r.note.empty()) Report().notes.push_back(std::move(r.note));
    if (r.verdict != Redecision::Verdict::kSame) return false;
    ++Report().commands_redecided;
    return true;
  }

  const BranchSource& source_;
  const kernel::Ruleset* rules_;
  const VerifyOptions& options_;
  VerifyReport& report_;  // the caller's, written when Run returns
  kernel::PrefixScan prefix_;
  CommandGrouper grouper_;
  EventCheck check_;
  // The checks' position at the start of the current command.
  EventCheck::Position mark_;

  // Commands are grouped (and the state before each kept) only to be
  // re-decided.
  bool grouping_ = false;
  // The fast path (see the class comment).
  bool fast_allowed_ = false;
  bool fast_ = false;
  const RecordedCommand* replaying_ = nullptr;  // StateBefore's command
  const RecordedCommand* completes_ = nullptr;  // for Grouping::kCompletes
  struct Vouch {  // the command the fast path re-decided last
    uint64_t last = 0;               // its last seq (0: none since)
    std::vector<std::string> notes;  // what re-deciding it noted
  };
  Vouch vouched_;
};

}  // namespace

absl::StatusOr<BranchSource> StoreSource(const store::LogReader& log,
                                         const std::string& session,
                                         const std::string& branch) {
  ASSIGN_OR_RETURN(store::Head head, log.GetHead(session, branch));
  BranchSource source;
  source.session = session;
  source.branch = branch;
  source.head = head.seq;
  source.head_hash = head.hash;
  ASSIGN_OR_RETURN(store::BranchMeta meta, log.GetBranch(session, branch));
  if (!meta.parent.empty()) source.fork = meta;
  source.scan = [&log, session, branch](
                    uint64_t from, uint64_t to,
                    const std::function<absl::Status(const events::EventBuffer&)>&
                        visit) {
    // verify judges every link itself, reading past a broken one to blame
    // the event that was altered.
    static store::ReadPastBrokenLinks read_past;
    return log.Scan(session, branch, from, to, visit, &read_past);
  };
  ASSIGN_OR_RETURN(store::CommandMarkerCheck check,
                   store::CommandMarkerCheck::Start(log, session, branch, head.seq));
  auto markers = std::make_shared<store::CommandMarkerCheck>(std::move(check));
  source.observe = [markers](const events::EventBuffer& e) { return markers->Visit(e); };
  source.observe_end = [markers] { return markers->Finish(); };
  source.observed_seq = [markers] { return markers->failed_seq(); };
  // A marker's verdict depends on the events before and the store, which
  // is safe to read from any thread.
  source.observe_ahead = true;
  return source;
}

absl::StatusOr<VerifyReport> VerifyBranchEvents(const BranchSource& source,
                                                const store::SessionMeta& meta,
                                                const kernel::Ruleset* rules,
                                                const VerifyOptions& options) {
  VerifyReport report;
  report.session = source.session;
  report.branches.push_back(source.branch);
  if (!options.secret.empty() || !options.later_secrets.empty()) report.seed_known = true;
  BranchCheck walker(source, meta, rules, options, report);
  RETURN_IF_ERROR(walker.Run());
  return report;
}

absl::StatusOr<VerifyReport> VerifySession(store::EventLog& log,
                                           const kernel::Ruleset* rules,
                                           const std::string& session,
                                           const std::string& branch,
                                           bool checksums,
                                           VerifyOptions options) {
  ASSIGN_OR_RETURN(store::SessionMeta meta, log.GetSession(session));
  std::vector<std::string> branches;
  if (branch.empty()) {
    ASSIGN_OR_RETURN(auto all, log.ListBranches(session));
    for (const store::BranchMeta& b : all) branches.push_back(b.branch);
  } else {
    ASSIGN_OR_RETURN(store::BranchMeta b, log.GetBranch(session, branch));
    branches.push_back(b.branch);
  }
  VerifyReport total;
  total.session = session;
  if (options.seeds) {
    ASSIGN_OR_RETURN(std::optional<std::string> replaced,
                     StoredSecretMismatch(log, session));
    if (replaced.has_value()) {
      total.mismatch = Mismatch{"dice secret", "main", 1, *replaced, ""};
      return total;
    }
  }
  // A secret revealed on any branch serves them all: the one of main#1's
  // commitment is checked against the commitment at seq 1 of every branch
  // walked, a later one (issue 16: a reveal before the end commits a fresh
  // secret) serves the epoch of its commitment. Once any is revealed, the
  // secrets this database stores (checked above against their
  // commitments) serve their epochs too.
  if (options.secret.empty() && options.seeds) {
    ASSIGN_OR_RETURN(auto all, log.ListBranches(session));
    ASSIGN_OR_RETURN(std::vector<uint8_t> first, FirstCommitment(log, session));
    SeekOptions quiet;
    quiet.write_snapshots = false;
    bool revealed = false;
    for (const store::BranchMeta& b : all) {
      auto head = Seek(log, session, b.branch, 0, quiet);
      if (!head.ok() || head->revealed_seed.empty()) continue;
      revealed = true;
      if (options.secret.empty() &&
          kernel::dice::SeededDice::Commitment(head->revealed_seed) == first) {
        options.secret = head->revealed_seed;
      } else {
        options.later_secrets.push_back(head->revealed_seed);
      }
    }
    // Every reveal the store marks (also those before a branch's last):
    // the secret its SeedRevealed gives.
    ASSIGN_OR_RETURN(std::vector<store::RevealMarker> marks, log.ListReveals(session));
    for (const store::RevealMarker& m : marks) {
      // A damaged or missing event is the walk's to report, not this look-up's.
      auto at = log.Read(session, m.branch, m.seq, m.seq);
      if (!at.ok() || at->empty()) continue;
      const fb::StateChange* sc = at->front().event().body_as_StateChange();
      const fb::SeedRevealed* r = sc != nullptr ? sc->change_as_SeedRevealed() : nullptr;
      if (r == nullptr || r->secret() == nullptr) continue;
      std::vector<uint8_t> secret(r->secret()->begin(), r->secret()->end());
      revealed = true;
      if (options.secret.empty() && kernel::dice::SeededDice::Commitment(secret) == first) {
        options.secret = std::move(secret);
      } else {
        options.later_secrets.push_back(std::move(secret));
      }
    }
    if (revealed) {
      ASSIGN_OR_RETURN(std::vector<store::StoredSecret> stored, log.ListSecrets(session));
      for (store::StoredSecret& s : stored) {
        if (s.first && options.secret.empty()) {
          options.secret = std::move(s.secret);
        } else if (!s.first) {
          options.later_secrets.push_back(std::move(s.secret));
        }
      }
    }
  }
  total.seed_known = !options.secret.empty() || !options.later_secrets.empty();
  for (const std::string& b : branches) {
    ASSIGN_OR_RETURN(BranchSource source, StoreSource(log, session, b));
    options.recorded_state = [&log, &meta, &session, b](uint64_t seq)
        -> std::optional<kernel::State> {
      auto snap = log.NearestSnapshot(session, b, seq, meta.ruleset_version);
      if (!snap.ok() || !snap->has_value() || (*snap)->seq != seq) {
        return std::nullopt;
      }
      auto state = kernel::DecodeState((*snap)->state.data(), (*snap)->state.size());
      if (!state.ok()) return std::nullopt;
      return *std::move(state);
    };
    ASSIGN_OR_RETURN(VerifyReport one,
                     VerifyBranchEvents(source, meta, rules, options));
    total.branches.push_back(b);
    total.events += one.events;
    total.commands_redecided += one.commands_redecided;
    total.seeded_dice_checked += one.seeded_dice_checked;
    for (std::string& n : one.notes) {
      if (std::find(total.notes.begin(), total.notes.end(), n) == total.notes.end()) {
        total.notes.push_back(std::move(n));
      }
    }
    if (one.mismatch.has_value()) {
      total.mismatch = std::move(one.mismatch);
      return total;
    }
  }
  if (checksums) {
    total.checksums_checked = true;
    absl::Status st = log.VerifyChecksums();
    if (!st.ok()) {
      total.mismatch = Mismatch{"checksums", "", 0, std::string(st.message()), ""};
    }
  }
  return total;
}

std::string RenderVerifyReport(const VerifyReport& r) {
  std::string out;
  if (r.ok()) {
    absl::StrAppend(&out, "verify ", r.session, ": OK: ", r.branches.size(),
                    r.branches.size() == 1 ? " branch, " : " branches, ", r.events,
                    " events (chain, reducer, state hashes), ", r.commands_redecided,
                    " commands re-decided to identical events");
    if (r.seed_known) {
      absl::StrAppend(&out, ", ", r.seeded_dice_checked,
                      " seeded dice checked against the revealed seed");
    } else {
      absl::StrAppend(&out, ", seeded dice not checked (the seed is not revealed)");
    }
    if (r.checksums_checked) absl::StrAppend(&out, ", storage checksums OK");
    absl::StrAppend(&out, "\n");
  } else {
    const Mismatch& m = *r.mismatch;
    absl::StrAppend(&out, "verify ", r.session, ": MISMATCH (", m.check, ")");
    if (m.seq != 0) {
      absl::StrAppend(&out, " at event #", m.seq, " of branch ", m.branch);
    }
    absl::StrAppend(&out, "\n  ", m.summary, "\n");
    if (!m.details.empty()) absl::StrAppend(&out, m.details);
    absl::StrAppend(&out, "  (checked before it: ", r.events, " events, ",
                    r.commands_redecided, " commands re-decided)\n");
  }
  for (const std::string& n : r.notes) absl::StrAppend(&out, "  note: ", n, "\n");
  return out;
}

}  // namespace combat::replay
