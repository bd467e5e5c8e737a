// The action vocabulary: each verb with its cost, the rule the cost cites,
// whether it is a Free Action (L21) and whether it can trigger a readied
// action (L61).
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
      {"attack", "000.attack", false, true, One, ValidateAttack, ResolveAttack},
      {"move", "000.move", false, true, MoveCost, ValidateMove, ResolveMove},
      {"crawl", "000.crawl", false, true, One, ValidateCrawl, ResolveCrawl},
      {"stand", "000.move.stand", false, true, One, ValidateStand,
       ResolveStand},
      {"drop_prone", "000.free_action", true, true, Zero, ValidateDropProne,
       ResolveDropProne},
      {"extinguish", "000.on_fire", false, true, One, ValidateExtinguish,
       ResolveExtinguish},
      {"break", "000.maneuver", false, true, One, ValidateManeuver,
       ResolveManeuver},
      {"disarm", "000.maneuver", false, true, One, ValidateManeuver,
       ResolveManeuver},
      {"feint", "000.maneuver", false, true, One, ValidateManeuver,
       ResolveManeuver},
      {"grapple", "000.maneuver", false, true, One, ValidateManeuver,
       ResolveManeuver},
      {"push", "000.maneuver", false, true, One, ValidateManeuver,
       ResolveManeuver},
      {"trip", "000.maneuver", false, true, One, ValidateManeuver,
       ResolveManeuver},
      {"escape", "000.grappled", false, true, One, ValidateEscape,
       ResolveEscape},
      {"choke", "000.grappling", false, true, One, ValidateChoke, ResolveChoke},
      {"release", "000.grappling", true, false, Zero, ValidateRelease,
       ResolveRelease},
      {"pick_up", "000.disarm", false, true, One, ValidatePickUp,
       ResolvePickUp},
      {"cast", "000.cast", false, true, MultiActionCost, ValidateCast,
       ResolveCast},
      {"control", "000.control", false, true, One, ValidateControl,
       ResolveControl},
      {"focus", "000.focus", false, true, MultiActionCost, ValidateFocus,
       ResolveFocus},
      {"command", "000.command", false, true, One, ValidateCommand,
       ResolveCommand},
      {"dodge", "000.dodge", false, true, One, ValidateDodge, ResolveDodge},
      {"ready", "000.ready", false, false, Two, ValidateReady, ResolveReady},
      {"use_skill", "000.skill", false, true, MultiActionCost, ValidateSkill,
       ResolveSkill},
      {"interact", "000.interact", false, true, MultiActionCost,
       ValidateInteract, ResolveInteract},
  };
}

}  // namespace

const std::vector<ActionSpec>& AllActions() {
  static const std::vector<ActionSpec>* all = Build();
  return *all;
}

const ActionSpec* FindAction(const std::string& action) {
  for (const ActionSpec& a : AllActions()) {
    if (action == a.action) return &a;
  }
  return nullptr;
}

}  // namespace combat::kernel::d20
