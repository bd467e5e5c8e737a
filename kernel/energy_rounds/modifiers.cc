// The keys of the numbers that are modifiers (README "Sources of
// modifiers"): each names its source or its rule (kernel::Num).
#include <string>

#include "absl/strings/match.h"
#include "kernel/energy_rounds/ruleset.h"

namespace combat::kernel::energy {

bool IsModifier(const std::string& key) {
  // Edges (defense.cc Edges::AddTo) and damage multipliers (damage.cc).
  for (const char* roll : {"attack", "defense", "evasion", "hit", "save", "escape", "hold"}) {
    for (const char* kind : {".adv.", ".dis."}) {
      if (absl::StartsWith(key, std::string(roll) + kind)) return true;
    }
  }
  if (absl::StartsWith(key, "halved.") || absl::StartsWith(key, "doubled.")) return true;
  if (absl::EndsWith(key, ".dazed_disadvantage")) return true;  // initiative
  for (const char* k :
       {// Melee AV (melee.cc) and the defense roll against it
        "weapon_av_bonus", "nonproficient", "nonlethal_trade_av", "av_mod", "maneuver_av",
        "no_defense_roll", "from_behind", "defending_wins_ties", "maneuver_vs_unexposed",
        // Evasion parts (stats.cc), as recorded on a defense roll
        "def.shield", "def.weapon_evasion", "def.nonproficient", "def.armor_penalty",
        // Miss Chance (ranged.cc)
        "accuracy", "size_mod", "movement_mod", "nonlethal_trade_mc", "mc_mod", "automatic_hit",
        "no_ranged_evasion",
        // damage (damage.cc)
        "damage_bonus", "ar", "weakness", "resistance", "doublings", "halvings",
        "nonlethal_trade_range",
        // costs and budgets
        "sprint_extra", "turn_penalty", "slowed_halved", "enhance", "exhausted_less",
        // checks
        "shaken_dc"}) {
    if (key == k) return true;
  }
  return false;
}

}  // namespace combat::kernel::energy
