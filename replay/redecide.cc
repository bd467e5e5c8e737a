#include "replay/redecide.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "kernel/reducer.h"
#include "kernel/session.h"
#include "replay/event_diff.h"
#include "replay/fork.h"
#include "replay/render.h"
#include "replay/setup_redecide.h"
#include "replay/state_diff.h"
#include "replay/verify_text.h"

namespace combat::replay {
namespace {

Redecision Differs(uint64_t seq, std::string summary, std::string details) {
  Redecision r;
  r.verdict = Redecision::Verdict::kDiffers;
  r.mismatch = Mismatch{"re-decision", "", seq, std::move(summary), std::move(details)};
  return r;
}

// A fork record (schema v6): the one event of command "fork".
bool IsForkCommand(const RecordedCommand& c) {
  return c.command_id == store::kForkCommandId && c.events.size() == 1 &&
         IsForkRecord(c.events.front());
}

// A fork record re-decided from the branch record it was made from (the
// store's or the bundle's; verify's record check compares their fields as
// the walk passes): the same bytes, state hash and envelope included.
Redecision RedecideForkRecord(const RedecideInput& in) {
  const RecordedCommand& c = *in.command;
  if (in.fork == nullptr || !in.fork->has_value()) {
    Redecision r;  // the record check names it
    r.note = absl::StrCat("fork record #", c.first, " of a branch with no fork record");
    return r;
  }
  const store::BranchMeta& fork = **in.fork;
  ForkRequest request;
  request.session = in.session;
  request.parent = fork.parent;
  request.at = fork.fork_seq;
  request.branch = in.branch;
  request.author = fork.author;
  request.reason = fork.reason;
  const events::EventBuffer& rec = c.events.front();
  absl::StatusOr<events::EventBuffer> dec =
      ForkRecord(*in.before, in.prev_before, request, fork.fork_seq);
  if (dec.ok() && dec->bytes() == rec.bytes()) {
    Redecision r;
    r.verdict = Redecision::Verdict::kSame;
    return r;
  }
  std::string details = ShowEvent("recorded", rec);
  if (dec.ok()) {
    absl::StrAppend(&details, ShowEvent("re-decided", *dec));
    if (auto fields = DiffEvents(rec, *dec); fields.ok()) {
      absl::StrAppend(&details, "    fields that differ (recorded | re-decided):\n",
                      RenderDiffs(*fields, " | ", "      "));
    }
  }
  return Differs(c.first,
                 absl::StrCat("event #", c.first, ": the fork record of branch ", in.branch,
                              " is not the one its branch record gives",
                              dec.ok() ? "" : absl::StrCat(" (", dec.status().message(), ")")),
                 std::move(details));
}

}  // namespace

Redecision Redecide(const RedecideInput& in) {
  const RecordedCommand& c = *in.command;
  if (IsForkCommand(c)) return RedecideForkRecord(in);
  const bool setup = !c.command.has_value() && c.first == 1;
  if (!c.command.has_value() && !setup) {
    Redecision r;
    r.note = absl::StrCat("command ", c.command_id, " (#", c.first, "..#", c.last,
                          ") has no declaration: not re-decided");
    return r;
  }
  const auto what = [&c] {
    return absl::StrCat("command ", c.command_id, " (#", c.first, "..#", c.last,
                        ": ", c.Describe(), ")");
  };
  absl::StatusOr<std::vector<events::EventBuffer>> decided;
  if (setup) {
    // Re-decided from the roster its own events record.
    decided = RedecideSetup(*in.rules, c);
    if (!decided.ok()) {
      return Differs(c.first,
                     absl::StrCat("event #", c.first, ": re-deciding ", what(),
                                  " from the roster its events record fails: ",
                                  decided.status().message()),
                     ShowEvent("the first set-up event", c.events.front()));
    }
  } else {
    kernel::Envelope env;
    env.branch = c.branch;
    env.prev_hash = in.prev_before;
    const fb::CommandT& command = *c.command;
    RecordedByIndex dice(c.rolls);
    ExactOracle oracle(c.rolls, command.dice.size());
    decided = kernel::DecideCommand(*in.rules, *in.before, env, command, dice,
                                    in.prefix, &oracle);
  }
  if (!decided.ok()) {
    return Differs(
        c.declared_at,
        absl::StrCat("event #", c.declared_at, ": re-deciding ", what(),
                     " at the state before it fails: ", decided.status().message()),
        absl::StrCat(ShowEvent("the declaration", c.events[c.declared_at - c.first]),
                     "    state before:\n", Indent(RenderState(*in.before))));
  }
  const size_t n = std::min(decided->size(), c.events.size());
  for (size_t i = 0; i < n; ++i) {
    const events::EventBuffer& rec = c.events[i];
    const events::EventBuffer& dec = (*decided)[i];
    if (rec.bytes() == dec.bytes()) continue;
    // The states after each, for the report.
    kernel::State recorded_state = *in.before;
    kernel::State decided_state = *in.before;
    for (size_t k = 0; k <= i; ++k) {
      (void)kernel::ApplyEvent(c.events[k].event(), recorded_state, in.prefix);
      (void)kernel::ApplyEvent((*decided)[k].event(), decided_state, in.prefix);
    }
    std::string details = absl::StrCat(ShowEvent("recorded", rec),
                                       ShowEvent("re-decided", dec));
    auto fields = DiffEvents(rec, dec);
    if (fields.ok()) {
      absl::StrAppend(&details, "    fields that differ (recorded | re-decided):\n",
                      RenderDiffs(*fields, " | ", "      "));
    }
    absl::StrAppend(&details,
                    "    state after the recorded event | after the re-decided one:\n",
                    RenderDiffs(DiffStates(recorded_state, decided_state), " | ", "      "));
    return Differs(rec.event().seq(),
                   absl::StrCat("event #", rec.event().seq(), ": re-deciding ", what(),
                                " with its recorded dice yields a different event"),
                   std::move(details));
  }
  Redecision r;
  r.verdict = Redecision::Verdict::kSame;
  if (decided->size() != c.events.size()) {
    const bool cut = decided->size() > c.events.size() && in.followed_by_other_branch &&
                     c.branch != in.branch;
    if (!cut) {
      return Differs(c.last,
                     absl::StrCat("re-deciding ", what(), " yields ", decided->size(),
                                  " events; the log has ", c.events.size()),
                     decided->size() > c.events.size()
                         ? ShowEvent("the first event the log lacks", (*decided)[n])
                         : ShowEvent("the first recorded event re-deciding lacks",
                                     c.events[n]));
    }
    r.note = absl::StrCat(what(), " is cut by a fork at #", c.last,
                          ": its recorded events match the re-decided ones up to there");
  }
  return r;
}

}  // namespace combat::replay
