// The action vocabulary (kernel/action_table.h): each verb with its cost,
// the rule the cost cites, its class for triggers (attacks, casts, moves,
// stand), whether it is a Free Action (L21) and whether it can trigger a
// readied action (L61).
#include <string>
#include <vector>

#include "kernel/d20_three_action/internal.h"

namespace combat::kernel::d20 {
namespace {

int64_t Zero(const fb::CommandT&) { return 0; }
int64_t One(const fb::CommandT&) { return 1; }
int64_t Two(const fb::CommandT&) { return 2; }  // L61: two Actions to ready
// A Move continued (param continue=1) spends no further Action (L35).
int64_t MoveCost(const fb::CommandT& c) {
  for (const auto& p : c.params) {
    if (p && p->key == "continue" && p->value != 0) return 0;
  }
  return 1;
}

std::vector<ActionSpec>* Build() {
  return new std::vector<ActionSpec>{
      {"attack", "000.attack", Kind(kAttack), One, ValidateAttack, ResolveAttack},
      {"move", "000.move", Kind(kMoves), MoveCost, ValidateMove, ResolveMove},
      {"crawl", "000.crawl", Kind(kMoves), One, ValidateCrawl, ResolveCrawl},
      {"stand", "000.move.stand", Kind(kStand), One, ValidateStand, ResolveStand},
      {"drop_prone", "000.free_action", Kind(kFree), Zero, ValidateDropProne, ResolveDropProne},
      {"extinguish", "000.on_fire", Kind(), One, ValidateExtinguish, ResolveExtinguish},
      {"break", "000.maneuver", Kind(kAttack), One, ValidateManeuver, ResolveManeuver},
      {"disarm", "000.maneuver", Kind(kAttack), One, ValidateManeuver, ResolveManeuver},
      {"feint", "000.maneuver", Kind(kAttack), One, ValidateManeuver, ResolveManeuver},
      {"grapple", "000.maneuver", Kind(kAttack), One, ValidateManeuver, ResolveManeuver},
      {"push", "000.maneuver", Kind(kAttack), One, ValidateManeuver, ResolveManeuver},
      {"trip", "000.maneuver", Kind(kAttack), One, ValidateManeuver, ResolveManeuver},
      {"escape", "000.grappled", Kind(kAttack), One, ValidateEscape, ResolveEscape},
      {"choke", "000.grappling", Kind(), One, ValidateChoke, ResolveChoke},
      {"release", "000.grappling", Kind(kFree | kUnreactable), Zero, ValidateRelease, ResolveRelease},
      {"drop_item", "000.free_action", Kind(kFree | kUnreactable), Zero, ValidateDropItem, ResolveDropItem},
      {"pick_up", "000.disarm", Kind(), One, ValidatePickUp, ResolvePickUp},
      {"cast", "000.cast", Kind(kCast), MultiActionCost, ValidateCast, ResolveCast},
      {"control", "000.control", Kind(kCast), One, ValidateControl, ResolveControl},
      {"focus", "000.focus", Kind(), MultiActionCost, ValidateFocus, ResolveFocus},
      {"command", "000.command", Kind(), One, ValidateCommand, ResolveCommand},
      {"dodge", "000.dodge", Kind(), One, ValidateDodge, ResolveDodge},
      {"stabilize", "000.zero_g", Kind(), One, ValidateStabilize, ResolveStabilize},
      {"ready", "000.ready", Kind(kUnreactable), Two, ValidateReady, ResolveReady},
      {"use_skill", "000.skill", Kind(), MultiActionCost, ValidateSkill, ResolveSkill},
      {"interact", "000.interact", Kind(), MultiActionCost, ValidateInteract, ResolveInteract},
  };
}

}  // namespace

const std::vector<ActionSpec>& AllActions() {
  static const std::vector<ActionSpec>* all = Build();
  return *all;
}

const ActionSpec* FindAction(const std::string& action) {
  return kernel::FindAction(AllActions(), action);
}

}  // namespace combat::kernel::d20
