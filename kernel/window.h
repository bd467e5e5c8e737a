// Windows: one protocol for every ruleset to let others act before a
// declaration resolves — readied actions (seed 000), acting out of turn
// (001), interrupts and simultaneous Immediate Interrupts (002), the
// defender's choice before the roll and maneuvers after a critical (003),
// held actions firing on a trigger (004).
//
//   open ─► answers (Interrupt events, "pass" included) ─► close ─► resume
//
// - Open: `OpenWindow` records WindowOpened with who may answer, how
//   (`AnswerPolicy`: InOrder = each in `eligible` order; AnyOrder = any
//   eligible creature, once each; Simultaneous = collected, then resolved
//   together by the ruleset), when the held-back declaration's cost is paid
//   (`PayWhen`: Before = on declaration; AtResolution = when it resolves,
//   nothing if cancelled; Partial = the ruleset's share on interruption,
//   tracked by the pending act's cost_paid), and the pending act it holds
//   back (kernel/pending.h). A window opened while an answer to another
//   window is being decided is nested in it (`parent`); the reducer refuses
//   to close a window while a window nested in it is open.
// - Answer: `CheckAnswer` refuses an answer the policy does not allow now
//   (FailedPrecondition naming who answers first), or into a window that is
//   not open (InvalidArgument naming the field `window`); `Answer` records
//   it as an Interrupt. From schema version 5 the reducer checks the policy
//   too, so a forged log is caught by `verify`.
// - Close: `CloseWindow` records WindowClosed with its outcome and returns
//   the pending act it held back, for the ruleset to resolve (or cancel)
//   and then close with kernel/pending.h.
// The ruleset decides who is eligible, what an answer does, and what the
// resolution is; the kernel keeps the order, the records and the checks.
#ifndef COMBAT_KERNEL_WINDOW_H_
#define COMBAT_KERNEL_WINDOW_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "kernel/changes.h"
#include "kernel/decision.h"
#include "kernel/state.h"

namespace combat::kernel {

struct WindowSpec {
  uint64_t trigger = 0;                 // the declaration it interrupts
  std::string kind;                     // the ruleset's name for it
  std::vector<std::string> eligible;    // who may answer (InOrder: in order)
  fb::AnswerPolicy policy = fb::AnswerPolicy::InOrder;
  fb::PayWhen pay = fb::PayWhen::Before;
  uint32_t pending = 0;                 // the pending act it holds back
  // The window this one is nested in. 0 = the window the command being
  // decided answers (Decision::answering()), if any.
  uint32_t parent = 0;
};

// Opens a window; returns its id.
absl::StatusOr<uint32_t> OpenWindow(Decision& d, const WindowSpec& spec,
                                    const Why& why);

// Who may answer `w` now: InOrder, the first eligible creature that has
// not answered; otherwise every eligible creature that has not.
std::vector<std::string> MayAnswer(const Window& w);
// Whether every eligible creature has answered.
bool AllAnswered(const Window& w);
// The open window with `trigger`, or 0.
uint32_t WindowFor(const State& s, uint64_t trigger);
// The innermost open window (highest id): the one to answer first.
const Window* InnermostWindow(const State& s);

// Checks that command `c` (actor c.actor) may answer window c.window now.
// InvalidArgument when c.window is 0 or not open (naming `window` and the
// open windows); FailedPrecondition when the policy does not allow it
// (naming who answers first), citing `cite` (the ruleset's rule text).
absl::Status CheckAnswer(const State& s, const fb::CommandT& c,
                         const std::string& cite);
// Records `c` into c.window as an Interrupt (after CheckAnswer); returns
// its seq. Windows opened while the rest of this command is decided nest
// in c.window.
absl::StatusOr<uint64_t> Answer(Decision& d, const fb::CommandT& c);

// Closes window `id` with `outcome`; returns the pending act it held back
// (still open: the ruleset resolves or cancels it, kernel/pending.h), or
// nullopt.
absl::StatusOr<std::optional<PendingAct>> CloseWindow(
    Decision& d, uint32_t id, const std::string& outcome, const Why& why);

// The answers of window `id` so far, in order: each answer's Interrupt
// seq and command (schema v5 sessions; read through d.Lookup).
struct WindowAnswer {
  uint64_t seq = 0;
  fb::CommandT command;
};
absl::StatusOr<std::vector<WindowAnswer>> AnswersOf(const Decision& d,
                                                    uint32_t id);

}  // namespace combat::kernel

#endif  // COMBAT_KERNEL_WINDOW_H_
