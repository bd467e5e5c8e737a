#include "replay/transcript.h"

#include "absl/strings/str_cat.h"
#include "events/hash.h"
#include "events/status_macros.h"
#include "kernel/dice/source.h"
#include "kernel/fold.h"
#include "replay/render.h"

namespace combat::replay {

absl::StatusOr<std::string> RenderTranscript(const Bundle& b) {
  std::string out = absl::StrCat("Transcript of session ", b.meta.session, " \"",
                                 b.meta.title, "\"\n", "ruleset ", b.meta.ruleset,
                                 " v", b.meta.ruleset_version, ", schema v",
                                 b.schema_version, "\n", "dice commitment ",
                                 events::Hex(b.commitment), "\n");
  // Fold every branch (in memory) for its head state.
  std::vector<std::pair<std::string, kernel::State>> heads;
  for (const BundleBranch& br : b.branches) {
    ASSIGN_OR_RETURN(BranchSource source, b.Source(br.meta.branch));
    kernel::State state;
    const kernel::PrefixScan prefix = [&source](uint64_t upto,
                                                const kernel::EventVisitor& v) {
      if (upto == 0) return absl::OkStatus();
      return source.scan(1, upto, [&v](const events::EventBuffer& e) {
        return v(e.event());
      });
    };
    if (source.head > 0) {
      RETURN_IF_ERROR(source.scan(1, source.head, [&](const events::EventBuffer& e) {
        return kernel::ApplyEvent(e.event(), state, &prefix);
      }));
    }
    heads.emplace_back(br.meta.branch, std::move(state));
  }
  // Revealed: some secret was; fully when the secret in force at every
  // head is (a reveal before the end commits a fresh one: FORMAT.md, "Dice").
  bool revealed = false, in_force_revealed = true;
  for (const auto& [name, s] : heads) {
    revealed = revealed || !s.revealed_seed.empty();
    in_force_revealed = in_force_revealed && !s.revealed_seed.empty() &&
                        kernel::dice::SeededDice::Commitment(s.revealed_seed) ==
                            s.dice_commitment;
  }
  absl::StrAppend(
      &out, "dice seed: ",
      !revealed ? "not revealed"
      : in_force_revealed
          ? "revealed (every seeded die can be checked: combat verify)"
          : "revealed in part (combat verify checks the dice of each revealed secret; "
            "those rolled with one not revealed yet, after a reveal mid-session or on a "
            "branch that has not revealed, once it is)",
      "\n");
  absl::StrAppend(&out,
                  "dice labels: (seeded) from the committed seed; (manual) physical "
                  "dice entered at the table; (GM override) set by the GM, reason "
                  "quoted\n\nbranches:\n");
  for (const BundleBranch& br : b.branches) {
    absl::StrAppend(&out, "  ", br.meta.branch);
    if (!br.meta.parent.empty()) {
      absl::StrAppend(&out, "  forked from ", br.meta.parent, " at #", br.meta.fork_seq,
                      " by ", br.meta.author, ": \"", br.meta.reason, "\"");
    }
    absl::StrAppend(&out, "  ", br.head.seq, " events\n");
  }
  for (size_t i = 0; i < b.branches.size(); ++i) {
    const BundleBranch& br = b.branches[i];
    const kernel::State& head = heads[i].second;
    absl::StrAppend(&out, "\n== ", br.meta.branch);
    if (!br.meta.parent.empty()) {
      absl::StrAppend(&out, " (events 1..", br.meta.fork_seq, " are ", br.meta.parent,
                      "'s)");
    }
    absl::StrAppend(&out, " ==\n");
    for (const events::EventBuffer& e : br.own) {
      absl::StrAppend(&out, RenderEvent(e.event()));
      if (kernel::IsVoided(e.event(), head.voided)) absl::StrAppend(&out, "  [VOIDED]");
      if (std::binary_search(head.unapplied.begin(), head.unapplied.end(),
                             e.event().seq())) {
        absl::StrAppend(&out, "  [no longer applies]");
      }
      absl::StrAppend(&out, "\n");
    }
    absl::StrAppend(&out, "-- state at the head of ", br.meta.branch, " --\n",
                    RenderState(head));
  }
  return out;
}

}  // namespace combat::replay
