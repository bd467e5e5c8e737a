#include "replay/verify.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "events/json.h"
#include "events/status_macros.h"
#include "kernel/dice/source.h"
#include "kernel/fold.h"
#include "kernel/reducer.h"
#include "kernel/session.h"
#include "kernel/state_codec.h"
#include "replay/event_diff.h"
#include "replay/fork.h"
#include "replay/jump.h"
#include "replay/recorded.h"
#include "replay/redecide.h"
#include "replay/render.h"
#include "replay/setup_redecide.h"
#include "replay/state_diff.h"
#include "replay/verify_pipeline.h"
#include "replay/verify_secret.h"
#include "replay/verify_text.h"
#include "store/command_markers.h"

namespace combat::replay {
namespace {

std::string S(const flatbuffers::String* s) { return s ? s->str() : ""; }

bool SameBytes(const flatbuffers::Vector<uint8_t>* v, const events::Digest& d) {
  return v != nullptr && v->size() == d.size() &&
         std::equal(d.begin(), d.end(), v->begin());
}

std::vector<uint8_t> BytesOf(const flatbuffers::Vector<uint8_t>* v) {
  return v == nullptr ? std::vector<uint8_t>()
                      : std::vector<uint8_t>(v->begin(), v->end());
}

std::string HexOf(const flatbuffers::Vector<uint8_t>* v) {
  return v == nullptr ? std::string("(none)") : events::Hex(v->data(), v->size());
}

// Walks one branch. Stops (returning kStop from the visitor) at the first
// mismatch, which it records in the report.
//
// The fast path. With re-decision on, a command whose re-decided events are
// byte-identical to the recorded ones vouches for most checks of its
// events: re-decided events are canonical (EncodeEvent), each links to the
// one before (Decision chains them from the hash of the event before the
// command, which verify computes), and each carries the hash of the state
// the decider reached by applying it to the state before the command
// (verify's own fold, copied). So until a command is re-decided its events
// are only checked for what re-decision does not cover (envelope, reducer,
// seeded dice); their canonical bytes, links and state hashes are not
// recomputed. When anything fails, or a command is not re-decided (the
// set-up, a command without declaration), verify rewinds to the start of
// the command and checks its events one by one as the slow path always
// does, so that the report (which check, which event, the details, the
// counts and notes) is the one the slow path alone would give.
class BranchCheck {
 public:
  BranchCheck(const BranchSource& source, const store::SessionMeta& meta,
         const kernel::Ruleset* rules, const VerifyOptions& options,
         VerifyReport& report)
      : source_(source),
        meta_(meta),
        rules_(rules),
        options_(options),
        report_(report),
        grouper_(/*keep_events=*/true) {
    prefix_ = [this](uint64_t upto, const kernel::EventVisitor& visit) {
      if (upto == 0) return absl::OkStatus();
      return source_.scan(1, upto, [&visit](const events::EventBuffer& e) {
        return visit(e.event());
      });
    };
    if (!options.secret.empty()) secret_ = options.secret;
    if (rules_ == nullptr && options_.redecide) {
      report_.notes.push_back(absl::StrCat(
          "declarations not re-decided: this build has no ruleset ",
          meta.ruleset, " v", meta.ruleset_version));
    }
    grouping_ = rules_ != nullptr && options_.redecide;
    fast_allowed_ = grouping_ && options_.trust_redecision;
    fast_ = fast_allowed_;
    MarkCommandStart();
  }

  absl::Status Run() {
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
      Fail("store", next_seq_,
           absl::StrCat("the store cannot read event #", next_seq_, ": ",
                        st.message()),
           "");
      return absl::OkStatus();
    }
    std::optional<RecordedCommand> last;
    if (fast_) {
      last = grouper_.Finish();
      if (last.has_value()) {
        if (FinishCommand(*last, /*followed_by_other_branch=*/true)) {
          Vouched(*last);
        } else {
          ReplaySlowly(&*last);
          if (Stopped()) return absl::OkStatus();
          if (pending_.has_value()) {
            ResolveChain(std::nullopt);
            if (Stopped()) return absl::OkStatus();
          }
          FinishCommand(*last, /*followed_by_other_branch=*/true);
          if (Stopped()) return absl::OkStatus();
        }
      }
    } else {
      if (pending_.has_value()) {
        ResolveChain(std::nullopt);
        if (Stopped()) return absl::OkStatus();
      }
      last = grouper_.Finish();
      if (last.has_value()) {
        FinishCommand(*last, /*followed_by_other_branch=*/true);
        if (Stopped()) return absl::OkStatus();
      }
    }
    if (source_.fork.has_value() && source_.head <= source_.fork->fork_seq &&
        state_.schema_version >= 6) {
      Fail("records", source_.fork->fork_seq + 1,
           absl::StrCat("branch ", source_.branch, ": forked at #",
                        source_.fork->fork_seq, " of a schema ",
                        state_.schema_version,
                        " session, but it has no fork record (BranchForked at #",
                        source_.fork->fork_seq + 1, ")"),
           "");
      return absl::OkStatus();
    }
    if (source_.fork.has_value() && state_.schema_version < 6) {
      report_.notes.push_back(absl::StrCat(
          "branch ", source_.branch, ": its fork record (parent ",
          source_.fork->parent, " at #", source_.fork->fork_seq,
          ", author, reason) is the store's, not a chained event (schema ",
          state_.schema_version, " session; chained from schema 6)"));
    }
    if (source_.observe_end) {
      absl::Status seen = source_.observe_end();
      if (!seen.ok()) {
        FailObserved(seen);
        return absl::OkStatus();
      }
    }
    if (source_.head_hash.has_value() && prev_ != *source_.head_hash &&
        source_.head > 0) {
      Fail("chain", source_.head,
           absl::StrCat("event #", source_.head, " hashes to ", events::Hex(prev_),
                        " but the branch head records ",
                        events::Hex(*source_.head_hash),
                        ": event #", source_.head, " was altered"),
           "");
    }
    return absl::OkStatus();
  }

 private:
  bool Stopped() const { return report_.mismatch.has_value(); }

  // The pipeline runs the source's observer (ScanPipelined).
  bool observed_ahead_ = false;

  // One event of the main walk; `pre`: what the pipeline computed for it
  // (null: computed here).
  absl::Status Visit(const events::EventBuffer& e, const Prechecked* pre) {
    absl::Status checked = fast_ ? VisitFast(e) : CheckEvent(e, Grouping::kAdd, pre);
    if (checked.ok() && observed_ahead_ && pre != nullptr) {
      // The pipeline's worker ran the observer (observe_ahead).
      if (!pre->observed.ok()) {
        Fail("command markers", pre->observed_seq,
             std::string(pre->observed.message()), "");
        return Stop();
      }
    } else if (checked.ok() && source_.observe) {
      absl::Status seen = source_.observe(e);
      if (!seen.ok()) {
        FailObserved(seen);
        return Stop();
      }
    }
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

  absl::Status Stop() { return absl::CancelledError("verify: mismatch"); }

  void Fail(std::string check, uint64_t seq, std::string summary,
            std::string details) {
    if (Stopped()) return;
    report_.mismatch = Mismatch{std::move(check), source_.branch, seq,
                                std::move(summary), std::move(details)};
  }

  void FailObserved(const absl::Status& seen) {
    Fail("command markers", source_.observed_seq ? source_.observed_seq() : 0,
         std::string(seen.message()), "");
  }

  static std::string Where(const fb::Event& e) {
    return absl::StrCat("event #", e.seq(), " (branch ", S(e.branch()), ")");
  }

  bool EnvelopeOk(const fb::Event& e) const {
    const flatbuffers::String* session = e.session();
    const flatbuffers::String* ruleset = e.ruleset();
    return e.seq() == next_seq_ && session != nullptr &&
           session->string_view() == source_.session && ruleset != nullptr &&
           ruleset->string_view() == meta_.ruleset &&
           e.ruleset_version() == meta_.ruleset_version;
  }

  // How CheckEvent groups the event into commands: kAdd as it comes;
  // kNone when the grouper holds it already (a replay); kCompletes when it
  // is the first event after `completes_`, which the grouper completed;
  // kVouched when it is the first event after `vouched_` (a replay).
  enum class Grouping { kAdd, kNone, kCompletes, kVouched };

  // Every check of one event, in order (the slow path).
  // `pre`: the event's canonical check and hash, computed ahead (may be
  // null).
  absl::Status CheckEvent(const events::EventBuffer& buffer, Grouping grouping,
                          const Prechecked* pre = nullptr) {
    const fb::Event& e = buffer.event();
    const uint64_t seq = e.seq();
    // A pending broken link is resolved by this event's own link.
    if (pending_.has_value()) {
      ResolveChain(SameBytes(e.prev_hash(), prev_));
      return Stop();
    }
    const bool canonical = pre != nullptr ? pre->canonical
                                          : buffer.CheckCanonical("").ok();
    if (!canonical) {  // named only when it fails
      Fail("canonical", seq, std::string(buffer.CheckCanonical(Where(e)).message()),
           ShowEvent("the stored event", buffer));
      return Stop();
    }
    if (!EnvelopeOk(e)) {
      Fail("envelope", seq,
           absl::StrCat(Where(e), ": names session '", S(e.session()), "' seq ",
                        seq, " ruleset ", S(e.ruleset()), " v",
                        e.ruleset_version(), "; expected session '",
                        source_.session, "' seq ", next_seq_, " ruleset ",
                        meta_.ruleset, " v", meta_.ruleset_version),
           ShowEvent("the stored event", buffer));
      return Stop();
    }
    const bool link_ok = SameBytes(e.prev_hash(), prev_);
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
      ++report_.commands_redecided;
      report_.notes.insert(report_.notes.end(), vouched_.notes.begin(),
                           vouched_.notes.end());
      MarkCommandStart();
      vouched_.last = 0;
    } else if (grouping == Grouping::kAdd && grouping_ &&
               grouper_.current()->first == seq) {
      MarkCommandStart();  // the first command
    }
    if (!link_ok) {
      pending_ = Pending{seq, HexOf(e.prev_hash()), events::Hex(prev_),
                         previous_, buffer};
      prev_ = pre != nullptr ? pre->hash : buffer.hash();
      previous_ = buffer;
      ++next_seq_;
      return absl::OkStatus();  // blame decided by the next link
    }
    absl::Status applied = kernel::ApplyEvent(e, state_, &prefix_);
    if (!applied.ok()) {
      Fail("reducer", seq,
           absl::StrCat(Where(e), ": the reducer refuses it: ", applied.message()),
           absl::StrCat(ShowEvent("the event", buffer), "    state before:\n",
                        Indent(RenderState(StateBefore(seq)))));
      return Stop();
    }
    if (!MatchesRecordedHash(state_, e)) {
      StateHashMismatch(buffer, StateBefore(seq));
      return Stop();
    }
    if (!CheckDice(buffer) || !CheckRecords(buffer)) return Stop();
    prev_ = pre != nullptr ? pre->hash : buffer.hash();
    previous_ = buffer;
    Counted();
    return absl::OkStatus();
  }

  // The fast path (see above): the checks re-decision does not cover; the
  // command's re-decision when the event completes one. Any failure
  // rewinds to the start of the command and checks it slowly.
  absl::Status VisitFast(const events::EventBuffer& buffer) {
    const fb::Event& e = buffer.event();
    if (!EnvelopeOk(e)) {
      // The event is not grouped yet: the command so far, then this event.
      ReplaySlowly(grouper_.current());
      if (Stopped()) return Stop();
      return CheckEvent(buffer, Grouping::kAdd);
    }
    if (std::optional<RecordedCommand> done = grouper_.Add(buffer);
        done.has_value()) {
      const size_t notes = report_.notes.size();
      if (!FinishCommand(*done, S(e.branch()) != done->branch)) {
        ReplaySlowly(&*done);
        if (Stopped()) return Stop();
        completes_ = &*done;
        absl::Status st = CheckEvent(buffer, Grouping::kCompletes);
        completes_ = nullptr;
        fast_ = fast_allowed_ && !Stopped() && !pending_.has_value();
        return st;
      }
      // A rewind into the new command re-checks this event before counting
      // `done` (and its note) again, as the slow path orders them.
      vouched_.last = done->last;
      vouched_.notes.assign(report_.notes.begin() + static_cast<long>(notes),
                            report_.notes.end());
      const uint64_t redecided = report_.commands_redecided - 1;
      Vouched(*done);
      MarkCommandStart();
      mark_.redecided = redecided;
      mark_.notes = notes;
    } else if (grouper_.current()->first == e.seq()) {
      MarkCommandStart();  // the first command
    }
    if (!kernel::ApplyEvent(e, state_, &prefix_).ok() || !CheckDice(buffer) ||
        !CheckRecords(buffer)) {
      ReplaySlowly(grouper_.current());  // which holds this event
      fast_ = fast_allowed_ && !Stopped() && !pending_.has_value();
      return Stopped() ? Stop() : absl::OkStatus();
    }
    Counted();
    return absl::OkStatus();
  }

  void Counted() {
    ++next_seq_;
    ++report_.events;
    if (options_.progress != nullptr) options_.progress->Update(report_.events);
  }

  // A command re-decided to identical events: the hash of its last event
  // (verify's chain from here on) and that event (for chain reports).
  void Vouched(const RecordedCommand& c) {
    prev_ = c.events.back().hash();
    previous_ = c.events.back();
  }

  // The start of a command: the state and chain before it, and what the
  // fast path rewinds to.
  void MarkCommandStart() {
    before_command_ = state_;
    prev_before_command_ = prev_;
    if (!fast_allowed_) return;
    mark_.previous = previous_;
    mark_.next_seq = next_seq_;
    mark_.events = report_.events;
    mark_.seeded = report_.seeded_dice_checked;
    mark_.redecided = report_.commands_redecided;
    mark_.notes = report_.notes.size();
    mark_.secret = secret_;
    mark_.commitment = commitment_;
  }

  // Rewinds to the start of the command and checks `c`'s events (all in
  // the grouper already) one by one; stays on the slow path.
  void ReplaySlowly(const RecordedCommand* c) {
    fast_ = false;
    report_.mismatch.reset();
    state_ = before_command_;
    prev_ = prev_before_command_;
    previous_ = mark_.previous;
    next_seq_ = mark_.next_seq;
    report_.events = mark_.events;
    report_.seeded_dice_checked = mark_.seeded;
    report_.commands_redecided = mark_.redecided;
    report_.notes.resize(mark_.notes);
    secret_ = mark_.secret;
    commitment_ = mark_.commitment;
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
    kernel::State before = before_command_;
    const RecordedCommand* c =
        replaying_ != nullptr ? replaying_ : grouper_.current();
    if (c == nullptr) return before;
    for (const events::EventBuffer& e : c->events) {
      if (e.event().seq() >= seq) break;
      (void)kernel::ApplyEvent(e.event(), before, &prefix_);
    }
    return before;
  }

  void StateHashMismatch(const events::EventBuffer& buffer,
                         const kernel::State& before) {
    const fb::Event& e = buffer.event();
    std::string details = ShowEvent("the event", buffer);
    absl::StrAppend(&details, "    recorded state hash: ", HexOf(e.state_hash()),
                    "\n    replayed state hash: ",
                    events::Hex(kernel::StateHash(state_)), "\n");
    std::optional<kernel::State> recorded;
    if (options_.recorded_state) recorded = options_.recorded_state(e.seq());
    if (recorded.has_value() && MatchesRecordedHash(*recorded, e)) {
      absl::StrAppend(&details,
                      "    recorded state (a snapshot) | replayed state:\n",
                      RenderDiffs(DiffStates(*recorded, state_), " | ", "      "));
    }
    absl::StrAppend(&details, "    what replaying the event changed (before -> after):\n",
                    RenderDiffs(DiffStates(before, state_, false), " -> ", "      "),
                    "    state before:\n", Indent(RenderState(before)),
                    "    replayed state after:\n", Indent(RenderState(state_)));
    Fail("state hash", e.seq(),
         absl::StrCat("event #", e.seq(), " (branch ", S(e.branch()),
                      "): its recorded state hash does not match the replayed "
                      "state"),
         std::move(details));
  }

  // The stored session record against the chained events: what the store
  // shows as the session's title must be SessionStarted.title.
  //
  // A forked branch (schema v6): its first own event is its fork record,
  // and the store's branch record (parent, fork point, author, reason) must
  // be the chained one.
  bool CheckRecords(const events::EventBuffer& buffer) {
    const fb::Event& e = buffer.event();
    const fb::StateChange* sc = e.body_as_StateChange();
    const fb::BranchForked* forked =
        sc != nullptr ? sc->change_as_BranchForked() : nullptr;
    const store::BranchMeta* fork = source_.fork.has_value() ? &*source_.fork : nullptr;
    if (fork != nullptr && state_.schema_version >= 6 &&
        e.seq() == fork->fork_seq + 1 && forked == nullptr) {
      Fail("records", e.seq(),
           absl::StrCat("branch ", source_.branch, ": event #", e.seq(),
                        " is not its fork record: a branch forked at #",
                        fork->fork_seq, " of a schema ", state_.schema_version,
                        " session starts with one (BranchForked)"),
           ShowEvent("the event", buffer));
      return false;
    }
    if (forked != nullptr && S(e.branch()) == source_.branch) {
      const std::string chained = absl::StrCat(
          "parent ", S(forked->parent()), " at #", forked->fork_seq(), " by ",
          S(forked->author()), ": \"", S(forked->reason()), "\"");
      if (fork == nullptr) {
        Fail("records", e.seq(),
             absl::StrCat("branch ", source_.branch, ": event #", e.seq(),
                          " is a fork record (", chained,
                          ") but the store records the branch as not forked"),
             ShowEvent("the event", buffer));
        return false;
      }
      const std::string stored = absl::StrCat(
          "parent ", fork->parent, " at #", fork->fork_seq, " by ", fork->author,
          ": \"", fork->reason, "\"");
      if (fork->parent != S(forked->parent()) || fork->fork_seq != forked->fork_seq() ||
          fork->author != S(forked->author()) || fork->reason != S(forked->reason())) {
        Fail("records", e.seq(),
             absl::StrCat("branch ", source_.branch, ": the stored fork record (",
                          stored, ") is not the chained one: BranchForked at #",
                          e.seq(), " says (", chained, ")"),
             ShowEvent("the event", buffer));
        return false;
      }
    }
    const fb::SessionStarted* started =
        sc != nullptr ? sc->change_as_SessionStarted() : nullptr;
    if (started == nullptr || S(started->title()) == meta_.title) return true;
    Fail("records", e.seq(),
         absl::StrCat("session ", source_.session, ": the stored title '",
                      meta_.title, "' is not the chained one: SessionStarted.title "
                      "at #", e.seq(), " is '", S(started->title()), "'"),
         ShowEvent("the event", buffer));
    return false;
  }

  // SessionStarted's commitment against the secret, every seeded die
  // against the secret, and a revealed secret against the one in use.
  bool CheckDice(const events::EventBuffer& buffer) {
    if (!options_.seeds) return true;
    const fb::Event& e = buffer.event();
    if (e.body_type() == fb::Body::StateChange) {
      const fb::StateChange* sc = e.body_as_StateChange();
      if (const auto* started = sc->change_as_SessionStarted(); started != nullptr) {
        const auto* c = started->dice_commitment();
        commitment_ = BytesOf(c);
        if (secret_.has_value() &&
            kernel::dice::SeededDice::Commitment(*secret_) != commitment_) {
          Fail("dice seed", e.seq(),
               absl::StrCat("event #", e.seq(),
                            ": the dice commitment does not match the revealed "
                            "secret (SHA-256 ",
                            events::Hex(kernel::dice::SeededDice::Commitment(*secret_)),
                            ", committed ", events::Hex(commitment_), ")"),
               ShowEvent("the event", buffer));
          return false;
        }
      }
      if (const auto* revealed = sc->change_as_SeedRevealed(); revealed != nullptr) {
        std::vector<uint8_t> s = BytesOf(revealed->secret());
        if (secret_.has_value() && *secret_ != s) {
          Fail("dice seed", e.seq(),
               absl::StrCat("event #", e.seq(),
                            ": reveals a secret other than the one verified "
                            "against the commitment"),
               ShowEvent("the event", buffer));
          return false;
        }
        if (!secret_.has_value()) {
          // Seeded dice before this event were not checked yet.
          report_.notes.push_back(absl::StrCat(
              "branch ", source_.branch, ": the secret is revealed at #", e.seq(),
              "; seeded dice before it are checked when the secret is known "
              "from the start (verify the session)"));
          secret_ = s;
        }
      }
    }
    if (!secret_.has_value() || e.body_type() != fb::Body::Roll) return true;
    const fb::Roll* roll = e.body_as_Roll();
    if (roll->dice() == nullptr) return true;
    // Seeded dice of v5 sessions mix the rolling branch and the recorded
    // contribution (events/FORMAT.md, "Dice").
    kernel::dice::RollContext context;
    context.schema_version = state_.schema_version;
    if (context.schema_version >= 5) {
      context.branch = S(e.branch());
      context.contribution = S(roll->contribution());
    }
    for (const fb::Die* d : *roll->dice()) {
      if (d->provenance() != fb::Provenance::Seeded) continue;
      const int want = kernel::dice::SeededDice::Value(
          *secret_, source_.session, context, d->index(), d->faces());
      ++report_.seeded_dice_checked;
      if (want != d->value()) {
        Fail("dice seed", e.seq(),
             absl::StrCat("event #", e.seq(), ": seeded die index ", d->index(),
                          " (d", d->faces(), ") shows ", d->value(),
                          " but the revealed seed gives ", want),
             ShowEvent("the event", buffer));
        return false;
      }
    }
    return true;
  }

  // A broken link between `pending_->previous` and `pending_->event`:
  // `next_link_ok` says whether the link after the event holds (nullopt at
  // the end of the branch, where the head record plays that part).
  void ResolveChain(std::optional<bool> next_link_ok) {
    const Pending p = *std::move(pending_);
    pending_.reset();
    bool blame_previous;
    if (next_link_ok.has_value()) {
      blame_previous = *next_link_ok;
    } else {
      blame_previous = !source_.head_hash.has_value() ||
                       *source_.head_hash == p.event.hash();
    }
    const uint64_t seq = p.seq;
    std::string details;
    if (p.previous.has_value()) {
      absl::StrAppend(&details, ShowEvent(absl::StrCat("event #", seq - 1, " as stored"),
                                          *p.previous));
    }
    absl::StrAppend(&details, ShowEvent(absl::StrCat("event #", seq, " as stored"),
                                        p.event));
    if (blame_previous) {
      Fail("chain", seq - 1,
           absl::StrCat("event #", seq - 1, " was altered after it was written: it "
                        "hashes to ", p.actual, " but event #", seq,
                        " records prev_hash ", p.recorded),
           std::move(details));
    } else {
      Fail("chain", seq,
           absl::StrCat("event #", seq, " was altered after it was written: its "
                        "prev_hash is ", p.recorded, " but event #", seq - 1,
                        " hashes to ", p.actual),
           std::move(details));
    }
  }

  // Re-decides `c` (replay/redecide.h) and records the verdict; true when
  // its events are the re-decided ones.
  bool FinishCommand(const RecordedCommand& c, bool followed_by_other_branch) {
    if (rules_ == nullptr || !options_.redecide) return false;
    RedecideInput in;
    in.rules = rules_;
    in.command = &c;
    in.before = &before_command_;
    in.prev_before = prev_before_command_;
    in.prefix = &prefix_;
    in.session = source_.session;
    in.branch = source_.branch;
    in.fork = &source_.fork;
    in.followed_by_other_branch = followed_by_other_branch;
    Redecision r = Redecide(in);
    if (r.verdict == Redecision::Verdict::kDiffers) {
      Fail(std::move(r.mismatch.check), r.mismatch.seq, std::move(r.mismatch.summary),
           std::move(r.mismatch.details));
      return false;
    }
    if (!r.note.empty()) report_.notes.push_back(std::move(r.note));
    if (r.verdict != Redecision::Verdict::kSame) return false;
    ++report_.commands_redecided;
    return true;
  }

  struct Pending {
    uint64_t seq;
    std::string recorded;  // the prev_hash the event records
    std::string actual;    // the hash of the event before it
    std::optional<events::EventBuffer> previous;
    events::EventBuffer event;
  };

  const BranchSource& source_;
  const store::SessionMeta& meta_;
  const kernel::Ruleset* rules_;
  const VerifyOptions& options_;
  VerifyReport& report_;
  kernel::PrefixScan prefix_;
  CommandGrouper grouper_;
  kernel::State state_;
  kernel::State before_command_;
  events::Digest prev_{};
  events::Digest prev_before_command_{};
  std::optional<events::EventBuffer> previous_;
  std::optional<Pending> pending_;
  uint64_t next_seq_ = 1;
  std::optional<std::vector<uint8_t>> secret_;
  std::vector<uint8_t> commitment_;

  // Commands are grouped (and the state before each kept) only to be
  // re-decided.
  bool grouping_ = false;
  // The fast path (see the class comment).
  bool fast_allowed_ = false;
  bool fast_ = false;
  struct Mark {  // what a rewind restores, besides the state and chain
    std::optional<events::EventBuffer> previous;
    uint64_t next_seq = 1;
    uint64_t events = 0;
    uint64_t seeded = 0;
    uint64_t redecided = 0;
    size_t notes = 0;
    std::optional<std::vector<uint8_t>> secret;
    std::vector<uint8_t> commitment;
  };
  Mark mark_;
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
  if (!options.secret.empty()) report.seed_known = true;
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
  // A secret revealed on any branch serves them all: it is checked against
  // the commitment at seq 1 of every branch walked.
  if (options.secret.empty() && options.seeds) {
    ASSIGN_OR_RETURN(auto all, log.ListBranches(session));
    SeekOptions quiet;
    quiet.write_snapshots = false;
    for (const store::BranchMeta& b : all) {
      auto head = Seek(log, session, b.branch, 0, quiet);
      if (head.ok() && !head->revealed_seed.empty()) {
        options.secret = head->revealed_seed;
        break;
      }
    }
  }
  total.seed_known = !options.secret.empty();
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
    if (r.checksums_checked) absl::StrAppend(&out, ", RocksDB checksums OK");
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
