// The v5 parts of a state as named fields: pending acts, windows, pools and
// shared turns. One source for `combat state` (render.h RenderState) and for
// the field-by-field differences of step, diff and verify (state_diff.h), so
// both show the same field names and values. Pure.
#ifndef COMBAT_REPLAY_STATE_TEXT_H_
#define COMBAT_REPLAY_STATE_TEXT_H_

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "kernel/display.h"
#include "kernel/state.h"

namespace combat::replay {

// (field name, value) in a fixed order.
using Fields = std::vector<std::pair<std::string, std::string>>;

// "none" for an empty list, else "a, b".
std::string ListText(const std::vector<std::string>& v);
// "none" for no seqs, else "#3 #7".
std::string SeqsText(const std::vector<uint64_t>& v);
// "never", or "TurnStart of a round 3".
std::string ExpiryText(const kernel::Expiry& e);
// "none", or "Attacks by gob against aria (hostile only), reach 1".
std::string TriggerText(const kernel::Trigger& t);
// "a(15, with b, c) > d(9, delayed)", or "none".
std::string OrderText(const std::vector<kernel::OrderEntry>& order);

// A pending act's fields: kind, actor, decl, command, cost, progress, span,
// trigger, expiry, reacted, opened at. The cost reads "paid 1 of 3 actions";
// each `reacted` entry reads as `display` says (kernel::ReactedText).
Fields PendingFields(const kernel::PendingAct& p, const kernel::Display& display = {});
// A window's fields: kind, trigger, eligible, answered, answer seqs, policy,
// pay, parent, pending, opened at.
Fields WindowFields(const kernel::Window& w);
// "name=value" per counter: "momentum=3, tokens=1".
std::string PoolText(const std::map<std::string, int64_t>& counters);

// Fields joined as "kind: held_back; actor: aria; ...".
std::string JoinFields(const Fields& fields);

}  // namespace combat::replay

#endif  // COMBAT_REPLAY_STATE_TEXT_H_
