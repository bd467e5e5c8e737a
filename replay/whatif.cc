#include "replay/whatif.h"

#include <map>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "events/codec.h"
#include "events/status_macros.h"
#include "kernel/dice/source.h"
#include "kernel/session.h"
#include "replay/dice_epoch.h"
#include "replay/fork.h"
#include "replay/recorded.h"
#include "replay/whatif_refs.h"

namespace combat::replay {
namespace {

using Kind = WhatIfChange::Kind;

std::string S(const flatbuffers::String* s) { return s ? s->str() : ""; }

// The (branch field, command id) that groups events into a command.
std::pair<std::string, std::string> KeyOf(const fb::Event& e) {
  return {S(e.branch()), S(e.command_id())};
}

// The seqs of the first and last events of the command holding `seq`.
absl::StatusOr<std::pair<uint64_t, uint64_t>> CommandRange(
    const store::EventLog& log, const std::string& session,
    const std::string& branch, uint64_t seq, uint64_t head) {
  ASSIGN_OR_RETURN(auto at, log.Read(session, branch, seq, seq));
  const auto key = KeyOf(at.front().event());
  constexpr uint64_t kChunk = 64;
  uint64_t lo = seq;
  bool done = false;
  while (!done && lo > 1) {
    const uint64_t from = lo > kChunk ? lo - kChunk : 1;
    ASSIGN_OR_RETURN(auto chunk, log.Read(session, branch, from, lo - 1));
    for (auto it = chunk.rbegin(); it != chunk.rend(); ++it) {
      if (KeyOf(it->event()) != key) {
        done = true;
        break;
      }
      --lo;
    }
  }
  uint64_t hi = seq;
  done = false;
  while (!done && hi < head) {
    const uint64_t to = std::min(head, hi + kChunk);
    ASSIGN_OR_RETURN(auto chunk, log.Read(session, branch, hi + 1, to));
    for (const auto& e : chunk) {
      if (KeyOf(e.event()) != key) {
        done = true;
        break;
      }
      ++hi;
    }
  }
  return std::make_pair(lo, hi);
}

struct DieEdit {
  uint64_t roll_seq = 0;
  size_t die = 0;
  int value = 0;
  int was = 0;
  std::string label;  // "die 1 of roll main#14 set to 20 (was 3)"
  bool applied = false;
};

// Where the next die of the roll sequence will go: dice from the oracle
// move it by their count; dice from the source set it to index + 1.
class CursorDice : public kernel::dice::DiceSource {
 public:
  CursorDice(kernel::dice::DiceSource& inner, int64_t* cursor, int* fresh)
      : inner_(inner), cursor_(cursor), fresh_(fresh) {}
  void SetContext(const kernel::dice::RollContext& context) override {
    inner_.SetContext(context);
  }
  absl::StatusOr<kernel::dice::RolledDie> Next(int faces, int64_t index) override {
    *cursor_ = index + 1;
    ++*fresh_;
    return inner_.Next(faces, index);
  }

 private:
  kernel::dice::DiceSource& inner_;
  int64_t* cursor_;
  int* fresh_;
};

// The parent's rolls for one command, reused where the same roll is asked.
class ReuseOracle : public kernel::RollOracle {
 public:
  // `seeded_stays`: a reused seeded die at its own index stays Seeded (v4
  // sessions); from v5 seeded dice mix the branch, so a die reused from the
  // parent is relabelled GmOverride like any other reused die.
  ReuseOracle(const std::vector<RecordedRoll>& rolls, DieEdit* edit,
              int64_t* cursor, int* reused, bool seeded_stays)
      : rolls_(rolls), used_(rolls.size(), false), edit_(edit),
        cursor_(cursor), reused_(reused), seeded_stays_(seeded_stays) {}

  std::optional<kernel::RecordedRoll> Next(absl::string_view purpose,
                                           absl::string_view roller,
                                           absl::string_view expression) override {
    for (size_t i = 0; i < rolls_.size(); ++i) {
      const RecordedRoll& r = rolls_[i];
      if (used_[i] || r.purpose != purpose || r.roller != roller ||
          r.expression != expression) {
        continue;
      }
      used_[i] = true;
      ++*reused_;
      kernel::RecordedRoll out;
      out.dice = r.dice;
      bool relabelled = false;
      std::string edited;
      for (size_t k = 0; k < out.dice.size(); ++k) {
        kernel::dice::RolledDie& d = out.dice[k];
        if (edit_ != nullptr && edit_->roll_seq == r.seq && edit_->die == k) {
          d.value = edit_->value;
          d.provenance = fb::Provenance::GmOverride;
          edit_->applied = true;
          edited = absl::StrCat("what-if: ", edit_->label);
          continue;
        }
        const int64_t at = *cursor_ + static_cast<int64_t>(k);
        const bool same_index = k < r.indices.size() && r.indices[k] == at;
        if (seeded_stays_ && d.provenance == fb::Provenance::Seeded &&
            same_index) {
          continue;
        }
        d.provenance = fb::Provenance::GmOverride;
        relabelled = true;
      }
      if (!edited.empty()) {
        out.reason = edited;
      } else if (relabelled) {
        out.reason = absl::StrCat("what-if: reused from ", r.branch, "#", r.seq);
        if (!r.reason.empty()) absl::StrAppend(&out.reason, " (", r.reason, ")");
      } else {
        out.reason = r.reason;
      }
      *cursor_ += static_cast<int64_t>(out.dice.size());
      return out;
    }
    return std::nullopt;
  }

 private:
  const std::vector<RecordedRoll>& rolls_;
  std::vector<bool> used_;
  DieEdit* edit_;
  int64_t* cursor_;
  int* reused_;
  bool seeded_stays_;
};

bool SameOutcome(const std::vector<events::EventBuffer>& a,
                 const std::vector<events::EventBuffer>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (OutcomeBytes(a[i]) != OutcomeBytes(b[i])) return false;
  }
  return true;
}

// Dice for a session whose secret is not in this database.
class NoSecret : public kernel::dice::DiceSource {
 public:
  absl::StatusOr<kernel::dice::RolledDie> Next(int faces, int64_t index) override {
    return absl::FailedPreconditionError(absl::StrCat(
        "a fresh d", faces, " is needed (roll index ", index,
        ") but this database has no dice secret for the session"));
  }
};

std::string DescribeCommand(const fb::CommandT& c) {
  RecordedCommand r;
  r.command_id = c.id;
  r.command = c;
  return r.Describe();
}

// A command the what-if's asker put in (--replace, --insert): declared by
// them, as the GM rewriting the table's history, whatever its body says
// (the author and role of an event come from who asks, never from the
// request body).
fb::CommandT AskedBy(fb::CommandT cmd, const std::string& author) {
  cmd.author = author;
  cmd.role = fb::Role::GM;
  return cmd;
}

}  // namespace

std::vector<const Rerun*> WhatIfResult::NoLongerApply() const {
  std::vector<const Rerun*> out;
  for (const Rerun& r : reruns) {
    if (r.outcome == Rerun::Outcome::kNoLongerApplies) out.push_back(&r);
  }
  return out;
}

absl::StatusOr<WhatIfResult> WhatIf(store::EventLog& log,
                                    const kernel::Ruleset& rules,
                                    const WhatIfRequest& req,
                                    const SeekOptions& seek,
                                    Progress* progress) {
  if (req.branch.empty()) {
    return absl::InvalidArgumentError("what-if: the new branch's name is required");
  }
  if (req.author.empty()) {
    return absl::InvalidArgumentError("what-if: 'author' (who asks) is required");
  }
  if (req.reason.empty()) {
    return absl::InvalidArgumentError("what-if: 'reason' (why) is required");
  }
  ASSIGN_OR_RETURN(store::SessionMeta meta, log.GetSession(req.session));
  if (meta.ruleset != rules.id() || meta.ruleset_version != rules.version()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "session ", req.session, " was recorded with ", meta.ruleset, " v",
        meta.ruleset_version, ", not ", rules.id(), " v", rules.version()));
  }
  if (auto existing = log.GetBranch(req.session, req.branch); existing.ok()) {
    return absl::AlreadyExistsError(absl::StrCat(
        "session ", req.session, " branch ", req.branch, " already exists"));
  } else if (!absl::IsNotFound(existing.status())) {
    return existing.status();
  }
  ASSIGN_OR_RETURN(store::Head parent_head, log.GetHead(req.session, req.parent));
  const WhatIfChange& change = req.change;

  // Where to fork, and which parent command the change is about.
  uint64_t fork_seq = 0;
  uint64_t changed_first = 0;
  std::optional<DieEdit> edit;
  std::string change_text;
  if (change.kind == Kind::kDie || change.kind == Kind::kReplace ||
      change.kind == Kind::kDrop) {
    if (change.seq == 0 || change.seq > parent_head.seq) {
      return absl::InvalidArgumentError(absl::StrCat(
          "what-if: event ", change.seq, " is not on branch ", req.parent,
          " (1..", parent_head.seq, ")"));
    }
    ASSIGN_OR_RETURN(auto range, CommandRange(log, req.session, req.parent,
                                              change.seq, parent_head.seq));
    if (range.first == 1) {
      return absl::InvalidArgumentError(
          "what-if: the session's set-up cannot be changed");
    }
    fork_seq = range.first - 1;
    changed_first = range.first;
    if (change.kind == Kind::kDie) {
      ASSIGN_OR_RETURN(auto ev, log.Read(req.session, req.parent, change.seq,
                                         change.seq));
      auto roll = RollOf(ev.front().event());
      if (!roll.has_value()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "what-if: event ", change.seq, " of ", req.parent, " is not a roll"));
      }
      if (change.die < 0 || static_cast<size_t>(change.die) >= roll->dice.size()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "what-if: roll #", change.seq, " has ", roll->dice.size(),
            " dice; there is no die ", change.die + 1));
      }
      const auto& die = roll->dice[change.die];
      if (change.value < 1 || change.value > die.faces) {
        return absl::InvalidArgumentError(absl::StrCat(
            "what-if: die ", change.die + 1, " of roll #", change.seq, " is a d",
            die.faces, "; ", change.value, " does not fit"));
      }
      edit = DieEdit{change.seq, static_cast<size_t>(change.die), change.value,
                     die.value,
                     absl::StrCat("die ", change.die + 1, " of roll ", roll->branch,
                                  "#", change.seq, " (", roll->purpose, " ",
                                  roll->expression, ") set to ", change.value,
                                  " (was ", die.value, ")"),
                     false};
      change_text = edit->label;
    } else if (change.kind == Kind::kReplace) {
      change_text = absl::StrCat("command at ", req.parent, "#", range.first,
                                 " replaced by ",
                                 DescribeCommand(AskedBy(change.command, req.author)));
    } else {
      change_text = absl::StrCat("command at ", req.parent, "#", range.first,
                                 " left out");
    }
  } else {
    fork_seq = req.at == 0 ? parent_head.seq : req.at;
    if (fork_seq > parent_head.seq) {
      return absl::OutOfRangeError(absl::StrCat(
          "what-if: branch ", req.parent, " has ", parent_head.seq,
          " events; cannot fork at ", fork_seq));
    }
    if (fork_seq < parent_head.seq) {
      ASSIGN_OR_RETURN(auto range, CommandRange(log, req.session, req.parent,
                                                fork_seq + 1, parent_head.seq));
      if (range.first != fork_seq + 1) {
        return absl::InvalidArgumentError(absl::StrCat(
            "what-if: event ", fork_seq, " is inside a command (events ",
            range.first, "..", range.second, "); fork at ", range.first - 1,
            " or ", range.second));
      }
    }
    change_text = change.kind == Kind::kInsert
                      ? absl::StrCat("inserted at #", fork_seq, ": ",
                                     DescribeCommand(AskedBy(change.command, req.author)))
                      : absl::StrCat("re-run from #", fork_seq);
  }

  // The parent's commands after the fork point.
  std::vector<RecordedCommand> later;
  {
    CommandGrouper grouper(/*keep_events=*/true);
    if (fork_seq < parent_head.seq) {
      RETURN_IF_ERROR(log.Scan(req.session, req.parent, fork_seq + 1,
                               parent_head.seq,
                               [&](const events::EventBuffer& e) {
                                 if (auto c = grouper.Add(e); c.has_value()) {
                                   later.push_back(std::move(*c));
                                 }
                                 return absl::OkStatus();
                               }));
    }
    if (auto c = grouper.Finish(); c.has_value()) later.push_back(std::move(*c));
  }

  // Fork: written with who and why, the change in the reason.
  ForkRequest record;
  record.session = req.session;
  record.parent = req.parent;
  record.at = fork_seq;
  record.branch = req.branch;
  record.author = req.author;
  record.reason = absl::StrCat(req.reason, " [what-if: ", change_text, "]");
  RETURN_IF_ERROR(ForkBranch(log, record, seek).status());
  WhatIfResult result;
  result.session = req.session;
  result.branch = req.branch;
  result.parent = req.parent;
  result.fork_seq = fork_seq;
  result.change = change_text;

  SeekOptions quiet = seek;
  quiet.progress = nullptr;
  // The new branch's head: the fork point, or its fork record (schema v6).
  ASSIGN_OR_RETURN(store::Head head, log.GetHead(req.session, req.branch));
  ASSIGN_OR_RETURN(kernel::State state,
                   Seek(log, req.session, req.branch, head.seq, quiet));
  const kernel::PrefixScan prefix = StoreScan(log, req.session, req.branch);
  // Where the parent's events, windows and pending acts went (whatif_refs.h).
  RefFollower refs(req.parent, fork_seq, state, later);
  if (progress != nullptr) progress->SetTotal(later.size());

  // Decides `cmd` on the new branch and appends it; fills `r`.
  auto run = [&](fb::CommandT cmd, const RecordedCommand* parent_cmd,
                 bool oracle_on, DieEdit* die_edit, Rerun& r) -> absl::Status {
    // Fresh dice: the secret of the commitment in force on the new branch
    // (replay/dice_epoch.h; a re-run reveal moves it on).
    ASSIGN_OR_RETURN(std::vector<uint8_t> secret,
                     SecretInForce(log, req.session, state));
    kernel::dice::SeededDice seeded(secret, req.session);
    NoSecret no_secret;
    kernel::dice::DiceSource& fresh =
        secret.size() == 32 ? static_cast<kernel::dice::DiceSource&>(seeded)
                            : static_cast<kernel::dice::DiceSource&>(no_secret);
    int64_t cursor = state.next_roll_index;
    CursorDice dice(fresh, &cursor, &r.fresh_rolls);
    static const std::vector<RecordedRoll> kNone;
    ReuseOracle oracle(parent_cmd != nullptr ? parent_cmd->rolls : kNone, die_edit,
                       &cursor, &r.reused_rolls, state.schema_version < 5);
    kernel::Envelope env;
    env.branch = req.branch;
    env.prev_hash = head.hash;
    auto decided = kernel::DecideCommand(rules, state, env, cmd, dice, &prefix,
                                         oracle_on ? &oracle : nullptr);
    if (!decided.ok()) {
      const absl::StatusCode code = decided.status().code();
      if (code == absl::StatusCode::kDataLoss || code == absl::StatusCode::kInternal) {
        return decided.status();
      }
      r.outcome = Rerun::Outcome::kNoLongerApplies;
      r.code = code;
      r.why = std::string(decided.status().message());
      return absl::OkStatus();
    }
    ASSIGN_OR_RETURN(store::AppendResult appended,
                     log.Append(req.session, req.branch, head.seq, cmd.id, *decided));
    if (appended.duplicate) {
      r.outcome = Rerun::Outcome::kNotRerun;
      r.why = absl::StrCat("command id ", cmd.id,
                           " is already in this branch's history");
      return absl::OkStatus();
    }
    ASSIGN_OR_RETURN(state, SnapshotNewEvents(log, req.session, req.branch,
                                              meta.ruleset_version, std::move(state),
                                              *decided, seek));
    head.seq = appended.last_seq;
    head.hash = decided->back().hash();
    r.outcome = Rerun::Outcome::kApplied;
    r.first = appended.first_seq;
    r.last = appended.last_seq;
    if (parent_cmd != nullptr) {
      refs.Rerun(*parent_cmd, *decided, appended.first_seq);
      r.same_events = SameOutcome(parent_cmd->events, *decided);
    }
    return absl::OkStatus();
  };

  if (change.kind == Kind::kInsert) {
    Rerun r;
    r.changed = true;
    fb::CommandT cmd = AskedBy(change.command, req.author);
    if (cmd.id.empty()) cmd.id = absl::StrCat("whatif-", req.branch);
    r.command_id = cmd.id;
    r.description = DescribeCommand(cmd);
    r.why = "inserted";
    RETURN_IF_ERROR(run(cmd, nullptr, false, nullptr, r));
    result.reruns.push_back(std::move(r));
  }

  uint64_t done = 0;
  for (const RecordedCommand& c : later) {
    Rerun r;
    r.parent_first = c.first;
    r.parent_last = c.last;
    r.command_id = c.command_id;
    r.description = c.Describe();
    const bool changed = c.first == changed_first;
    r.changed = changed;
    if (progress != nullptr) progress->Update(++done);
    if (!c.command.has_value()) {
      r.outcome = Rerun::Outcome::kNotRerun;
      r.why = "no declaration recorded: nothing to re-run";
      result.reruns.push_back(std::move(r));
      continue;
    }
    if (changed && change.kind == Kind::kDrop) {
      r.outcome = Rerun::Outcome::kDropped;
      r.why = change_text;
      result.reruns.push_back(std::move(r));
      continue;
    }
    fb::CommandT cmd = *c.command;
    bool oracle_on = true;
    if (changed && change.kind == Kind::kReplace) {
      cmd = AskedBy(change.command, req.author);
      if (cmd.id.empty()) cmd.id = c.command_id;
      oracle_on = cmd.dice.empty();
      r.description = DescribeCommand(cmd);
      r.why = change_text;
    } else {
      cmd.dice.clear();  // the parent's record answers
    }
    // Its references follow what they name to the new branch.
    const std::optional<std::string> orphaned = refs.Follow(cmd);
    if (orphaned.has_value()) {
      r.outcome = Rerun::Outcome::kNoLongerApplies;
      r.code = absl::StatusCode::kFailedPrecondition;
      r.why = *orphaned;
    }
    if (!orphaned.has_value()) {
      DieEdit* die_edit = changed && edit.has_value() ? &*edit : nullptr;
      RETURN_IF_ERROR(run(cmd, &c, oracle_on, die_edit, r));
      if (die_edit != nullptr && r.outcome == Rerun::Outcome::kApplied) {
        r.why = die_edit->applied
                    ? change_text
                    : absl::StrCat(change_text,
                                   ": NOT applied: the re-run did not ask that roll");
      }
    }
    result.reruns.push_back(std::move(r));
  }
  if (progress != nullptr) progress->Finish();
  result.head = head.seq;
  return result;
}

std::string RenderWhatIf(const WhatIfResult& r) {
  std::string out = absl::StrCat(
      "what-if ", r.session, ": branch ", r.branch, " forked from ", r.parent,
      " at #", r.fork_seq, " (", r.change, ")\n");
  for (const Rerun& x : r.reruns) {
    std::string from = x.parent_first == 0
                           ? std::string("(new)")
                           : absl::StrCat(r.parent, "#", x.parent_first, "..",
                                          x.parent_last);
    std::string to = x.first == 0 ? std::string("-")
                                  : absl::StrCat("#", x.first, "..", x.last);
    std::string what;
    switch (x.outcome) {
      case Rerun::Outcome::kApplied:
        what = x.changed ? absl::StrCat("CHANGED: ", x.why)
                         : (x.same_events ? "applied, same outcome"
                                          : "applied, different outcome");
        break;
      case Rerun::Outcome::kNoLongerApplies:
        what = absl::StrCat("NO LONGER APPLIES: ", x.why);
        break;
      case Rerun::Outcome::kDropped:
        what = "left out (the change)";
        break;
      case Rerun::Outcome::kNotRerun:
        what = absl::StrCat("not re-run: ", x.why);
        break;
    }
    absl::StrAppend(&out, "  ", from, " -> ", to, "  ", x.description, ": ", what);
    if (x.reused_rolls + x.fresh_rolls > 0) {
      absl::StrAppend(&out, " [", x.reused_rolls, " rolls reused, ",
                      x.fresh_rolls, " fresh dice]");
    }
    absl::StrAppend(&out, "\n");
  }
  auto gone = r.NoLongerApply();
  absl::StrAppend(&out, gone.size(),
                  gone.size() == 1 ? " later declaration no longer applies"
                                   : " later declarations no longer apply",
                  gone.empty() ? "" : ":", "\n");
  for (const Rerun* x : gone) {
    absl::StrAppend(&out, "  ", r.parent, "#", x->parent_first, " ", x->description,
                    ": ", x->why, "\n");
  }
  absl::StrAppend(&out, "branch ", r.branch, " is at #", r.head, "\n");
  return out;
}

}  // namespace combat::replay
