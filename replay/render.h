// Readable text rendered from events and state: the log a table reads, and
// the state at a point. Pure functions of their input.
#ifndef COMBAT_REPLAY_RENDER_H_
#define COMBAT_REPLAY_RENDER_H_

#include <string>

#include "events/events_generated.h"
#include "kernel/display.h"
#include "kernel/state.h"

namespace combat::replay {

// One line (or a few) for `event`, e.g.
//   #12 roll    aria attack 2d20kh1+7: [17 4(dropped)] +7 = 24 (manual)
//   #13 change  goblin hp -9 -> 3  [000.attack.damage; cause #10] d8=6 str=3
std::string RenderEvent(const fb::Event& event);

// A number an event used, "d20=14", naming where a modifier comes from
// and the rule that applies it when the event recorded them (schema v7):
// "dis.cover=1 (from ogre, 000.cover)".
std::string RenderNumber(const fb::Number& number);

// Who recorded `event`, "  (by ann, Player)" (the envelope's author and
// role), to follow RenderEvent; "" when RenderEvent already says exactly
// that (a declaration or interrupt whose command names the same author
// and role), so the author is never printed twice.
std::string RenderAuthor(const fb::Event& event);

// For a log read line by line: "  (by system, System)" after an event
// whose author or role differs from the event before it (`*last`, updated
// here; start with ""), so who recorded each run of events shows once: the
// system's automatic steps after a player's declaration, the GM's ruling
// after them. "" for declarations and interrupts (RenderEvent names their
// author) and for an event by the same author as the one before.
std::string RenderAuthorChange(const fb::Event& event, std::string* last);

// RenderEvent, marked when the branch no longer counts the event as of
// `head` (the state at the branch head): "  [VOIDED]" when it or its cause
// was voided, "  [no longer applies after a void]" when re-deriving after a
// void skipped it.
std::string RenderEventAt(const fb::Event& event, const kernel::State& head);

// A command as one line: "aria: attack gob with sword reach=2  (by ann,
// Player)". For a pending act's command (kernel::PendingAct::command).
std::string RenderCommand(const fb::CommandT& command);

// The state as a short report: round, whose turn, order, combatants with
// roster name, side, controller, position, game resources ("hp=18/24" where
// the state knows a maximum) and conditions, then their bookkeeping
// resources on a line of their own (state_view.h), open windows (with their policy,
// pay, parent and pending act), pending acts field by field (state_text.h),
// pools and shared-turn members.
// `display`: the ruleset's (kernel/display.h): vitals with their maxima,
// bookkeeping on a line of its own; the default shows every resource as a
// game value.
std::string RenderState(const kernel::State& state,
                        const kernel::Display& display = {});

}  // namespace combat::replay

#endif  // COMBAT_REPLAY_RENDER_H_
