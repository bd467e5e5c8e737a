// Command (L41): a creature under your control (roster field `controller`)
// takes its turn with yours, using its own Actions, once per Round.
#include <string>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/command.h"
#include "kernel/d20_three_action/internal.h"

namespace combat::kernel::d20 {

absl::Status ValidateCommand(const State& s, const fb::CommandT& c,
                             const Ctx& ctx) {
  (void)ctx;
  ASSIGN_OR_RETURN(const Combatant* a, Actor(s, c));
  if (c.targets.size() != 1) {
    return Malformed(c, "targets", "the one creature to command");
  }
  ASSIGN_OR_RETURN(const Combatant* t, Target(s, c, 0));
  // Reading of "a Creature under your Control": the roster's controller.
  if (t->controller != a->id) {
    return Refuse("000.command",
                  absl::StrCat(t->id, " is not under ", a->id, "'s control"));
  }
  if (IsDead(*t)) return Refuse("000.dead", t->id + " is Dead");
  if (!Named(*t, kCommanded).empty()) {
    return Refuse("000.command",
                  t->id + " was already commanded this Round (once per Round)");
  }
  return absl::OkStatus();
}

absl::Status ResolveCommand(Decision& d, const fb::CommandT& c,
                            const Ctx& ctx) {
  const std::string companion = c.targets[0];
  const std::string owner = TurnOwner(d.state(), c.actor);
  RETURN_IF_ERROR(
      Apply(d, companion, kCommanded, owner, 0,
            Expiry{fb::ExpiryKind::RoundEnd, "", d.state().round},
            {ctx.cause,
             "000.command",
             {},
             absl::StrCat("acts during ", owner, "'s turn, once per Round")},
            0, c.actor)
          .status());
  Nums nums;
  const int64_t actions = ActionBudget(*d.state().Find(companion), &nums);
  return SetResource(d, companion, kActions, actions,
                     {ctx.cause, "000.command", nums,
                      "its own Actions, used during this turn"});
}

}  // namespace combat::kernel::d20
