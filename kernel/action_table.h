// The one shape of a ruleset's action table: each verb with the rule it
// cites, what the kernel needs to know of it (its class for triggers,
// whether it is free, whether others may react to its declaration), its
// cost in the ruleset's budget, and the ruleset's validate/resolve pair
// (their signatures are the ruleset's: d20 resolves with a Ctx, energy
// returns an Outcome). Lookups and trigger classes come from the table, so
// a verb's class is written once.
#ifndef COMBAT_KERNEL_ACTION_TABLE_H_
#define COMBAT_KERNEL_ACTION_TABLE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "events/common_generated.h"
#include "kernel/trigger.h"

namespace combat::kernel {

// What the kernel needs to know of an action.
struct ActionKind {
  ActClass cls;            // attack / cast / move / stand, for triggers
  bool free = false;       // costs nothing from the turn's budget
  bool reactable = true;   // a declaration readied or held acts may answer
};

// Builders for table rows: Kind(kAttack), Kind(kMove, kFree), ...
enum ActionFlag : int {
  kAttack = 1,
  kCast = 2,
  kMoves = 4,
  kStand = 8,
  kFree = 16,
  kUnreactable = 32
};
constexpr ActionKind Kind(int flags = 0) {
  ActionKind k;
  k.cls.attack = (flags & kAttack) != 0;
  k.cls.cast = (flags & kCast) != 0;
  k.cls.move = (flags & kMoves) != 0;
  k.cls.stand = (flags & kStand) != 0;
  k.free = (flags & kFree) != 0;
  k.reactable = (flags & kUnreactable) == 0;
  return k;
}

template <typename Validate, typename Resolve>
struct Action {
  const char* name;
  const char* rule;                       // the rule its cost and legality cite
  ActionKind kind;
  int64_t (*cost)(const fb::CommandT&);   // null: priced by the ruleset elsewhere
  Validate validate;
  Resolve resolve;
};

// The row named `name` of `table`, or nullptr.
template <typename Row>
const Row* FindAction(const std::vector<Row>& table, const std::string& name) {
  for (const Row& r : table) {
    if (name == r.name) return &r;
  }
  return nullptr;
}

// The trigger class of command `c` by its row in `table` (none when the
// verb is not in the table or others may not react to it).
template <typename Row>
ActClass ClassOf(const std::vector<Row>& table, const fb::CommandT& c) {
  const Row* r = FindAction(table, c.action);
  return r == nullptr || !r->kind.reactable ? ActClass{} : r->kind.cls;
}

}  // namespace combat::kernel

#endif  // COMBAT_KERNEL_ACTION_TABLE_H_
