// Triggers as data: what sets off a readied or held act (seed 000 L61,
// seed 004 held actions), a reaction (seed 001) or an opportunity attack
// (seed 003). A trigger (state.h `Trigger`, events.fbs `Trigger`) is part of
// a pending act (kernel/pending.h) of kind "readied" (or any kind with a
// trigger): the kernel matches the armed ones against a declaration before
// it resolves, or against the state changes a decision emitted, and the
// ruleset opens a window (kernel/window.h) for the owners that match.
//
// Matching a declaration `c` by c.actor (MatchDeclaration):
//   Declared          any declaration (of action `name` when set)
//   Attacks / Casts / StandsUp / Moves   by the ruleset's class of c.action
//   MovesWithinReach  a move whose path enters the owner's reach
//   LeavesReach       a move whose path leaves the owner's reach
//   EntersSquare      a move whose mover's space comes to cover `square`
// filtered by `by` (c.actor must be it), `against` (c.targets must name it),
// `hostile_only` (c.actor on another side than the owner), never the owner
// itself, and the ruleset's `can_react`. For a move, `step` is the number
// of path squares resolved before the act fires (the square where the
// trigger is met); an owner answers with one armed act, the one met
// earliest (the first armed at the same step); the earliest step wins, and
// every owner matching at it answers, in `rank` order.
// Matching emitted changes (MatchChanges): IsDamaged (a ResourceChanged of
// the ruleset's damage resource with a negative delta on `against`, or on
// anyone), StandsUp (a ConditionRemoved of the ruleset's prone condition),
// EventKind (a state change whose kind is `name`, e.g. "Moved").
#ifndef COMBAT_KERNEL_TRIGGER_H_
#define COMBAT_KERNEL_TRIGGER_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "events/codec.h"
#include "kernel/state.h"

namespace combat::kernel {

// How a ruleset classes a declared act, for triggers.
struct ActClass {
  bool attack = false;
  bool cast = false;
  bool move = false;   // its `path` is a move (squares entered, in order)
  bool stand = false;  // standing up
};

struct TriggerRules {
  std::function<ActClass(const fb::CommandT&)> classify;
  // Whether `owner` can react now (alive, not helpless, ...).
  std::function<bool(const State&, const Combatant& owner)> can_react;
  // Whether a mover of `size` at `at` is within `owner`'s reach for `t`.
  std::function<bool(const State&, const Combatant& owner, Pos at,
                     int32_t size, const Trigger& t)>
      in_reach;
  // Optional: where along move `c` its mover makes an Attack as part of the
  // move (seed 000 l.35's Push attempt), as path squares resolved before
  // it, or nullopt; an Attacks trigger fires there.
  std::function<std::optional<size_t>(const State&, const fb::CommandT& c)>
      attack_step;
  std::string damage_resource = "hp";  // IsDamaged
  std::string prone_condition = "prone";  // StandsUp (by change)
};

struct TriggerHit {
  uint32_t pending = 0;  // the armed pending act
  std::string owner;     // its actor
  size_t step = 0;       // path squares resolved before it fires
};

// Every creature in turn order, then the rest by id: the order owners
// matching at the same point answer in.
std::vector<std::string> Rank(const State& s);

// The armed pending acts that declaration `c` sets off (see above); owners
// in `skip` (already answered on this act) are left out.
std::vector<TriggerHit> MatchDeclaration(const State& s, const fb::CommandT& c,
                                         const TriggerRules& rules,
                                         const std::vector<std::string>& skip);

// The armed pending acts that the state changes among `emitted` set off,
// in rank order (each act once).
std::vector<TriggerHit> MatchChanges(const State& s,
                                     const std::vector<events::EventBuffer>& emitted,
                                     const TriggerRules& rules);

}  // namespace combat::kernel

#endif  // COMBAT_KERNEL_TRIGGER_H_
