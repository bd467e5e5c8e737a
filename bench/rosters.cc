#include "bench/rosters.h"

#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "kernel/testing/roster.h"

namespace combat::bench {
namespace {

using kernel::testing::Creature;
using kernel::testing::MakeRoster;
using kernel::testing::MakeWeapon;
using kernel::testing::WeaponWith;

fb::RosterT Finish(const std::string& ruleset, std::vector<fb::CombatantSpecT> cs) {
  for (auto& c : cs) c.player = c.id;  // each plays itself (schema 7)
  return MakeRoster(ruleset, std::move(cs), 12, 12);
}

fb::RosterT D20(int n) {
  std::vector<fb::CombatantSpecT> cs;
  for (int i = 0; i < n; ++i) {
    const bool party = i % 2 == 0;
    auto c = Creature(absl::StrCat(party ? "hero" : "gob", i / 2),
                      party ? "party" : "foes", party ? 5 : 6, 5 + i / 2,
                      {{"level", 2 + i % 3},
                       {"str", 3},
                       {"dex", 2},
                       {"ess", 1},
                       {"hp", 200},
                       {"speed", 30},
                       {"physical_defense", 13 + i % 3},
                       {"mental_defense", 12},
                       {"initiative", i % 3}});
    c.weapons.push_back(std::make_unique<fb::WeaponT>(
        party ? MakeWeapon("spear", "1d8", "melee", "medium", 5)
              : MakeWeapon("axe", "1d10", "melee", "heavy", 5)));
    cs.push_back(std::move(c));
  }
  return Finish("d20_three_action", std::move(cs));
}

fb::RosterT Energy(int n) {
  std::vector<fb::CombatantSpecT> cs;
  for (int i = 0; i < n; ++i) {
    const bool party = i % 2 == 0;
    auto c = Creature(absl::StrCat(party ? "kara" : "orc", i / 2),
                      party ? "party" : "orcs", party ? 5 : 6, 5 + i / 2,
                      {{"level", 3},
                       {"str", 3},
                       {"dex", 2},
                       {"con", 2},
                       {"con_score", 40},
                       {"initiative", i % 3},
                       {"ac", 10},
                       {"ar", 2}});
    fb::WeaponT w = MakeWeapon(party ? "sword" : "axe", party ? "1d8" : "1d10",
                               "melee", party ? "medium" : "heavy");
    w.damage_type = "slashing";
    c.weapons.push_back(std::make_unique<fb::WeaponT>(std::move(w)));
    cs.push_back(std::move(c));
  }
  return Finish("energy_rounds", std::move(cs));
}

// Seed 001: PCs and standard NPCs; AP by Speed, wounds into slots.
fb::RosterT Wounds(int n) {
  std::vector<fb::CombatantSpecT> cs;
  for (int i = 0; i < n; ++i) {
    const bool party = i % 2 == 0;
    fb::WeaponT w = WeaponWith(party ? "sword" : "axe", party ? "3" : "4", "melee",
                               party ? "sword" : "axe", {{"accuracy", 1}});
    auto c = Creature(absl::StrCat(party ? "aria" : "orc", i / 2), party ? "party" : "orcs",
                      party ? 5 : 6, 5 + i / 2,
                      {{"prc", 1 + i % 2}, {"reflex", 1}, {"spd", i % 3}, {"dex", 2},
                       {"melee", 2}, {"str", 2}, {"vit", 2}, {"rsn", 1}, {"stamina", 8}},
                      {w}, party ? std::vector<std::string>{} : std::vector<std::string>{"standard"});
    cs.push_back(std::move(c));
  }
  fb::RosterT r = Finish("wound_slots", std::move(cs));
  r.map->unit = fb::DistanceUnit::Yards;
  r.map->square = 1;
  return r;
}

// Seed 003: opposed d6-pool tests, a defense window on every strike.
fb::RosterT Opposed(int n) {
  std::vector<fb::CombatantSpecT> cs;
  for (int i = 0; i < n; ++i) {
    const bool party = i % 2 == 0;
    fb::WeaponT w = WeaponWith(party ? "sword" : "axe", party ? "1d8" : "1d10", "melee",
                               party ? "" : "heavy", {}, "slashing");
    auto c = Creature(absl::StrCat(party ? "aria" : "orc", i / 2), party ? "party" : "orcs",
                      party ? 5 : 6, 5 + i / 2,
                      {{"fighting_style", 2 + i % 2}, {"str", 2}, {"agi", 1}, {"dodge", 1},
                       {"initiative", i % 3}, {"health", 40}, {"speed", 6}, {"ar", 1}},
                      {w});
    cs.push_back(std::move(c));
  }
  return Finish("opposed_tests", std::move(cs));
}

// Seed 004: AP and RP, d20 against Evasion.
fb::RosterT ApRp(int n) {
  std::vector<fb::CombatantSpecT> cs;
  for (int i = 0; i < n; ++i) {
    const bool party = i % 2 == 0;
    fb::WeaponT w = WeaponWith(party ? "sword" : "axe", party ? "1d8" : "1d10", "melee",
                               "str/dex", {}, "physical");
    w.reach = 1;
    auto c = Creature(absl::StrCat(party ? "knight" : "orc", i / 2), party ? "party" : "orcs",
                      party ? 5 : 6, 5 + i / 2,
                      {{"str", 14}, {"dex", 12 + i % 3}, {"ins", 10 + i % 2}, {"vitality", 40}},
                      {w}, {"evasion_stat:str", "primary:str", "secondary:dex"});
    cs.push_back(std::move(c));
  }
  return Finish("ap_rp", std::move(cs));
}

}  // namespace

absl::StatusOr<fb::RosterT> BenchRoster(const std::string& ruleset, int n) {
  if (ruleset == "d20_three_action") return D20(n);
  if (ruleset == "energy_rounds") return Energy(n);
  if (ruleset == "wound_slots") return Wounds(n);
  if (ruleset == "opposed_tests") return Opposed(n);
  if (ruleset == "ap_rp") return ApRp(n);
  return absl::NotFoundError(absl::StrCat("the benchmark has no roster for ruleset ", ruleset));
}

}  // namespace combat::bench
