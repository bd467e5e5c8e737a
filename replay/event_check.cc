#include "replay/event_check.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "kernel/dice/source.h"
#include "kernel/reducer.h"
#include "kernel/state_codec.h"
#include "replay/jump.h"
#include "replay/render.h"
#include "replay/state_diff.h"
#include "replay/verify_text.h"

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

std::string Where(const fb::Event& e) {
  return absl::StrCat("event #", e.seq(), " (branch ", S(e.branch()), ")");
}

}  // namespace

EventCheck::EventCheck(const BranchSource& source,
                       const store::SessionMeta& meta,
                       const VerifyOptions& options,
                       const kernel::PrefixScan* prefix,
                       std::function<kernel::State(uint64_t)> state_before)
    : source_(source),
      meta_(meta),
      options_(options),
      prefix_(prefix),
      state_before_(std::move(state_before)) {
  if (!options.secret.empty()) {
    at_.secret = options.secret;
    at_.known[kernel::dice::SeededDice::Commitment(options.secret)] = options.secret;
  }
  for (const std::vector<uint8_t>& s : options.later_secrets) {
    at_.known.emplace(kernel::dice::SeededDice::Commitment(s), s);
  }
}

void EventCheck::Fail(std::string check, uint64_t seq, std::string summary,
                      std::string details) {
  if (stopped()) return;
  at_.report.mismatch = Mismatch{std::move(check), source_.branch, seq,
                                 std::move(summary), std::move(details)};
}

bool EventCheck::EnvelopeOk(const fb::Event& e) const {
  const flatbuffers::String* session = e.session();
  const flatbuffers::String* ruleset = e.ruleset();
  return e.seq() == at_.next_seq && session != nullptr &&
         session->string_view() == source_.session && ruleset != nullptr &&
         ruleset->string_view() == meta_.ruleset &&
         e.ruleset_version() == meta_.ruleset_version;
}

bool EventCheck::CheckSelf(const events::EventBuffer& buffer,
                           const Prechecked* pre) {
  const fb::Event& e = buffer.event();
  const uint64_t seq = e.seq();
  // A pending broken link is resolved by this event's own link.
  if (at_.pending.has_value()) {
    ResolveChain(SameBytes(e.prev_hash(), at_.prev));
    return false;
  }
  const bool canonical = pre != nullptr ? pre->canonical
                                        : buffer.CheckCanonical("").ok();
  if (!canonical) {  // named only when it fails
    Fail("canonical", seq, std::string(buffer.CheckCanonical(Where(e)).message()),
         ShowEvent("the stored event", buffer));
    return false;
  }
  if (!EnvelopeOk(e)) {
    Fail("envelope", seq,
         absl::StrCat(Where(e), ": names session '", S(e.session()), "' seq ",
                      seq, " ruleset ", S(e.ruleset()), " v",
                      e.ruleset_version(), "; expected session '",
                      source_.session, "' seq ", at_.next_seq, " ruleset ",
                      meta_.ruleset, " v", meta_.ruleset_version),
         ShowEvent("the stored event", buffer));
    return false;
  }
  return true;
}

bool EventCheck::CheckInBranch(const events::EventBuffer& buffer,
                               const Prechecked* pre) {
  const fb::Event& e = buffer.event();
  const uint64_t seq = e.seq();
  if (!SameBytes(e.prev_hash(), at_.prev)) {
    // Blame decided by the next link.
    at_.pending = PendingLink{seq, HexOf(e.prev_hash()), events::Hex(at_.prev),
                              at_.previous, buffer};
    at_.prev = pre != nullptr ? pre->hash : buffer.hash();
    at_.previous = buffer;
    ++at_.next_seq;
    return true;
  }
  absl::Status applied = kernel::ApplyEvent(e, at_.state, prefix_);
  if (!applied.ok()) {
    Fail("reducer", seq,
         absl::StrCat(Where(e), ": the reducer refuses it: ", applied.message()),
         absl::StrCat(ShowEvent("the event", buffer), "    state before:\n",
                      Indent(RenderState(state_before_(seq)))));
    return false;
  }
  if (!MatchesRecordedHash(at_.state, e)) {
    StateHashMismatch(buffer, state_before_(seq));
    return false;
  }
  if (!CheckDice(buffer) || !CheckRecords(buffer)) return false;
  at_.prev = pre != nullptr ? pre->hash : buffer.hash();
  at_.previous = buffer;
  Counted();
  return true;
}

bool EventCheck::ApplyVouched(const events::EventBuffer& buffer) {
  if (!kernel::ApplyEvent(buffer.event(), at_.state, prefix_).ok() ||
      !CheckDice(buffer) || !CheckRecords(buffer)) {
    return false;
  }
  Counted();
  return true;
}

void EventCheck::ChainFrom(const events::EventBuffer& last) {
  at_.prev = last.hash();
  at_.previous = last;
}

bool EventCheck::Observe(const events::EventBuffer& buffer,
                         const Prechecked* pre, bool observed_ahead) {
  if (observed_ahead && pre != nullptr) {
    // The pipeline's worker ran the observer (observe_ahead).
    if (pre->observed.ok()) return true;
    Fail("command markers", pre->observed_seq,
         std::string(pre->observed.message()), "");
    return false;
  }
  if (!source_.observe) return true;
  absl::Status seen = source_.observe(buffer);
  if (seen.ok()) return true;
  Fail("command markers", source_.observed_seq ? source_.observed_seq() : 0,
       std::string(seen.message()), "");
  return false;
}

void EventCheck::Counted() {
  ++at_.next_seq;
  ++at_.report.events;
  if (options_.progress != nullptr) options_.progress->Update(at_.report.events);
}

void EventCheck::ResolvePendingAtEnd() {
  if (at_.pending.has_value()) ResolveChain(std::nullopt);
}

void EventCheck::FinishBranch() {
  if (stopped()) return;
  const std::optional<store::BranchMeta>& fork = source_.fork;
  if (fork.has_value() && source_.head <= fork->fork_seq &&
      at_.state.schema_version >= 6) {
    Fail("records", fork->fork_seq + 1,
         absl::StrCat("branch ", source_.branch, ": forked at #",
                      fork->fork_seq, " of a schema ", at_.state.schema_version,
                      " session, but it has no fork record (BranchForked at #",
                      fork->fork_seq + 1, ")"),
         "");
    return;
  }
  if (fork.has_value() && at_.state.schema_version < 6) {
    at_.report.notes.push_back(absl::StrCat(
        "branch ", source_.branch, ": its fork record (parent ", fork->parent,
        " at #", fork->fork_seq, ", author, reason) is the store's, not a "
        "chained event (schema ", at_.state.schema_version,
        " session; chained from schema 6)"));
  }
  if (source_.observe_end) {
    absl::Status seen = source_.observe_end();
    if (!seen.ok()) {
      Fail("command markers", source_.observed_seq ? source_.observed_seq() : 0,
           std::string(seen.message()), "");
      return;
    }
  }
  if (source_.head_hash.has_value() && at_.prev != *source_.head_hash &&
      source_.head > 0) {
    Fail("chain", source_.head,
         absl::StrCat("event #", source_.head, " hashes to ",
                      events::Hex(at_.prev), " but the branch head records ",
                      events::Hex(*source_.head_hash), ": event #", source_.head,
                      " was altered"),
         "");
  }
}

void EventCheck::StateHashMismatch(const events::EventBuffer& buffer,
                       const kernel::State& before) {
  const fb::Event& e = buffer.event();
  std::string details = ShowEvent("the event", buffer);
  absl::StrAppend(&details, "    recorded state hash: ", HexOf(e.state_hash()),
                  "\n    replayed state hash: ",
                  events::Hex(kernel::StateHash(at_.state)), "\n");
  std::optional<kernel::State> recorded;
  if (options_.recorded_state) recorded = options_.recorded_state(e.seq());
  if (recorded.has_value() && MatchesRecordedHash(*recorded, e)) {
    absl::StrAppend(&details,
                    "    recorded state (a snapshot) | replayed state:\n",
                    RenderDiffs(DiffStates(*recorded, at_.state), " | ", "      "));
  }
  absl::StrAppend(&details, "    what replaying the event changed (before -> after):\n",
                  RenderDiffs(DiffStates(before, at_.state, false), " -> ", "      "),
                  "    state before:\n", Indent(RenderState(before)),
                  "    replayed state after:\n", Indent(RenderState(at_.state)));
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
bool EventCheck::CheckRecords(const events::EventBuffer& buffer) {
  const fb::Event& e = buffer.event();
  const fb::StateChange* sc = e.body_as_StateChange();
  const fb::BranchForked* forked =
      sc != nullptr ? sc->change_as_BranchForked() : nullptr;
  const store::BranchMeta* fork = source_.fork.has_value() ? &*source_.fork : nullptr;
  if (fork != nullptr && at_.state.schema_version >= 6 &&
      e.seq() == fork->fork_seq + 1 && forked == nullptr) {
    Fail("records", e.seq(),
         absl::StrCat("branch ", source_.branch, ": event #", e.seq(),
                      " is not its fork record: a branch forked at #",
                      fork->fork_seq, " of a schema ", at_.state.schema_version,
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
// against the secret of the commitment in force when it was rolled, and a
// revealed secret against the commitment in force (and the secret in use);
// a reveal's next_commitment starts the next epoch.
bool EventCheck::CheckDice(const events::EventBuffer& buffer) {
  if (!options_.seeds) return true;
  const fb::Event& e = buffer.event();
  if (e.body_type() == fb::Body::StateChange) {
    const fb::StateChange* sc = e.body_as_StateChange();
    if (const auto* started = sc->change_as_SessionStarted(); started != nullptr) {
      const auto* c = started->dice_commitment();
      at_.commitment = BytesOf(c);
      if (!at_.secret.has_value()) {
        const auto it = at_.known.find(at_.commitment);
        if (it != at_.known.end()) at_.secret = it->second;
      }
      if (at_.secret.has_value() &&
          kernel::dice::SeededDice::Commitment(*at_.secret) != at_.commitment) {
        Fail("dice seed", e.seq(),
             absl::StrCat("event #", e.seq(),
                          ": the dice commitment does not match the revealed "
                          "secret (SHA-256 ",
                          events::Hex(kernel::dice::SeededDice::Commitment(*at_.secret)),
                          ", committed ", events::Hex(at_.commitment), ")"),
             ShowEvent("the event", buffer));
        return false;
      }
    }
    if (const auto* revealed = sc->change_as_SeedRevealed(); revealed != nullptr) {
      std::vector<uint8_t> s = BytesOf(revealed->secret());
      const std::vector<uint8_t> hashed = kernel::dice::SeededDice::Commitment(s);
      if (!at_.commitment.empty() && hashed != at_.commitment) {
        Fail("dice seed", e.seq(),
             absl::StrCat("event #", e.seq(), ": reveals a secret whose SHA-256 is ",
                          events::Hex(hashed), ", not the commitment in force ",
                          events::Hex(at_.commitment)),
             ShowEvent("the event", buffer));
        return false;
      }
      if (at_.secret.has_value() && *at_.secret != s) {
        Fail("dice seed", e.seq(),
             absl::StrCat("event #", e.seq(),
                          ": reveals a secret other than the one verified "
                          "against the commitment"),
             ShowEvent("the event", buffer));
        return false;
      }
      if (!at_.secret.has_value()) {
        // Seeded dice before this event were not checked yet.
        at_.report.notes.push_back(absl::StrCat(
            "branch ", source_.branch, ": the secret is revealed at #", e.seq(),
            "; seeded dice before it are checked when the secret is known "
            "from the start (verify the session)"));
        at_.secret = s;
      }
      at_.known[hashed] = s;
      // A reveal before the end: the fresh secret's commitment is in force.
      const std::vector<uint8_t> next = BytesOf(revealed->next_commitment());
      if (!next.empty()) {
        at_.commitment = next;
        const auto it = at_.known.find(next);
        at_.secret.reset();
        if (it != at_.known.end()) at_.secret = it->second;
      }
    }
  }
  if (!at_.secret.has_value() || e.body_type() != fb::Body::Roll) return true;
  const fb::Roll* roll = e.body_as_Roll();
  if (roll->dice() == nullptr) return true;
  // Seeded dice of v5 sessions mix the rolling branch and the recorded
  // contribution (events/FORMAT.md, "Dice").
  kernel::dice::RollContext context;
  context.schema_version = at_.state.schema_version;
  if (context.schema_version >= 5) {
    context.branch = S(e.branch());
    context.contribution = S(roll->contribution());
  }
  for (const fb::Die* d : *roll->dice()) {
    if (d->provenance() != fb::Provenance::Seeded) continue;
    const int want = kernel::dice::SeededDice::Value(
        *at_.secret, source_.session, context, d->index(), d->faces());
    ++at_.report.seeded_dice_checked;
    if (want != d->value()) {
      Fail("dice seed", e.seq(),
           absl::StrCat("event #", e.seq(), ": seeded die index ", d->index(),
                        " (d", d->faces(), ") shows ", d->value(),
                        " but the secret of the commitment in force (",
                        events::Hex(at_.commitment).substr(0, 16), "...) gives ", want),
           ShowEvent("the event", buffer));
      return false;
    }
  }
  return true;
}

// A broken link between `at_.pending->previous` and `at_.pending->event`:
// `next_link_ok` says whether the link after the event holds (nullopt at
// the end of the branch, where the head record plays that part).
void EventCheck::ResolveChain(std::optional<bool> next_link_ok) {
  const PendingLink p = *std::move(at_.pending);
  at_.pending.reset();
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

}  // namespace combat::replay
