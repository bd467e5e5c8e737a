// Set-up (L11, L13): roster check, combatants joining with their
// resources, initiative with random tie-breaks, and round 1.
//
// Initiative (reading; L11 gives no formula): d20 + DEX + the optional
// "initiative" stat. Ties are broken at random (L11) by extra d20 rolls for
// the tied creatures, highest first, rolled again while still tied; every
// roll is recorded. Creatures with a controller (companions, mounts,
// summons) roll none: they take no turn of their own (L41).
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "events/status_macros.h"
#include "kernel/d20_three_action/internal.h"
#include "kernel/dice/notation.h"
#include "kernel/roster_specs.h"

namespace combat::kernel::d20 {
namespace {

constexpr const char* kRequired[] = {
    "level",         "str", "dex", "ess", "hp", "speed", "physical_defense",
    "mental_defense"};

absl::Status Bad(const std::string& who, const std::string& field,
                 const std::string& msg) {
  return RosterError(who, field, msg, Cite("000.setup"));
}

int64_t StatOf(const fb::CombatantSpecT& c, const std::string& key,
               int64_t otherwise) {
  for (const auto& n : c.stats) {
    if (n && n->key == key) return n->value;
  }
  return otherwise;
}

bool HasStat(const fb::CombatantSpecT& c, const std::string& key) {
  for (const auto& n : c.stats) {
    if (n && n->key == key) return true;
  }
  return false;
}

// The roster tags this ruleset reads (README "The roster"); any other is
// refused with the list, so that "Hidden" or "prone" is not silently inert.
constexpr const char* kTags[] = {
    "unaware",   "undetected",      "hidden",     "invisible",
    "flying",    "flight",          "improved_flight", "darkvision",
    "blindsight", "see_invisible"};

absl::Status CheckTags(const fb::CombatantSpecT& c) {
  for (const std::string& tag : c.tags) {
    bool known = false;
    for (const char* k : kTags) known = known || tag == k;
    if (known) continue;
    std::string hint;
    for (const char* k : kTags) {
      if (absl::AsciiStrToLower(tag) == k) {
        hint = absl::StrCat(" (write it as '", k, "')");
      }
    }
    return Bad(c.id, absl::StrCat("tags['", tag, "']"),
               absl::StrCat("unknown tag", hint, "; one of: ",
                            absl::StrJoin(kTags, ", "),
                            ". Conditions are not roster tags: the GM adds "
                            "them with gm_condition"));
  }
  return absl::OkStatus();
}

absl::Status Check(const fb::CombatantSpecT& c,
                   const std::vector<fb::CombatantSpecT>& all) {
  RETURN_IF_ERROR(CheckTags(c));
  for (const char* k : kRequired) {
    if (!HasStat(c, k))
      return Bad(c.id, absl::StrCat("stats.", k), "is required");
  }
  if (StatOf(c, "hp", 0) <= 0)
    return Bad(c.id, "stats.hp", "max HP must be > 0");
  if (StatOf(c, "speed", 0) < 0)
    return Bad(c.id, "stats.speed", "must be >= 0");
  if (c.size < 1) return Bad(c.id, "size", "must be >= 1");
  if (HasStat(c, "altitude")) {
    const int64_t alt = StatOf(c, "altitude", 0);
    const bool flying =
        std::find(c.tags.begin(), c.tags.end(), "flying") != c.tags.end();
    if (alt < 0 || alt % kSquare != 0) {
      return Bad(c.id, "stats.altitude", "feet, a multiple of 5");
    }
    if (alt > 0 && !flying) {
      return Bad(c.id, "stats.altitude",
                 "a creature starting in the air has the tag 'flying' (L83)");
    }
  }
  for (const auto& w : c.weapons) {
    if (!w || w->name.empty()) return Bad(c.id, "weapons.name", "is required");
    const std::string f = absl::StrCat("weapons['", w->name, "']");
    if (w->kind != "melee" && w->kind != "natural" && w->kind != "ranged" &&
        w->kind != "thrown" && w->kind != "spell") {
      return Bad(c.id, f + ".kind",
                 "must be melee, natural, ranged, thrown or spell");
    }
    if (!w->damage.empty()) {
      auto parsed = dice::ParseDice(w->damage);
      if (!parsed.ok())
        return Bad(c.id, f + ".damage", parsed.status().ToString());
    }
    if ((w->kind == "ranged" || w->kind == "thrown") &&
        w->range_increment <= 0) {
      return Bad(c.id, f + ".range_increment", "a ranged weapon needs one > 0");
    }
  }
  if (!c.controller.empty()) {
    bool found = false;
    for (const auto& o : all)
      found = found || (o.id == c.controller && o.id != c.id);
    if (!found) {
      return Bad(c.id, "controller",
                 absl::StrCat("'", c.controller, "' is not another combatant"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status SetupRoster(const fb::Roster& roster, Decision& d) {
  ASSIGN_OR_RETURN(std::vector<fb::CombatantSpecT> specs,
                   RosterSpecs(roster, nullptr, Cite("000.setup")));
  for (const auto& c : specs) RETURN_IF_ERROR(Check(c, specs));
  const Why join{0, "000.setup"};
  for (const auto& c : specs) RETURN_IF_ERROR(JoinCombatant(d, c, join));
  for (const auto& c : specs) {
    const int64_t max_hp = StatOf(c, "hp", 0);
    RETURN_IF_ERROR(SetResource(d, c.id, kHp, max_hp,
                                {0, "000.setup", {{"max_hp", max_hp}}}));
    RETURN_IF_ERROR(SetResource(d, c.id, kBleedPenalty, 0,
                                {0, "000.bleed.penalty", {}, "starts at 0"}));
    if (StatOf(c, "altitude", 0) > 0) {
      const int64_t alt = StatOf(c, "altitude", 0);
      RETURN_IF_ERROR(SetResource(d, c.id, kAltitude, alt,
                                  {0, "000.fly", {{"altitude", alt}}}));
    }
    if (HasStat(c, "energy") || HasStat(c, "energy_max")) {
      const int64_t energy = StatOf(c, "energy", StatOf(c, "energy_max", 0));
      RETURN_IF_ERROR(SetResource(d, c.id, kEnergy, energy, {0, "000.cast"}));
    }
  }
  // Tags: hidden or undetected creatures are so to every creature of
  // another side (subjective conditions, L105, L115, L117).
  for (const auto& c : specs) {
    for (const std::string& tag :
         {std::string(kUndetected), std::string(kHidden)}) {
      if (std::find(c.tags.begin(), c.tags.end(), tag) == c.tags.end())
        continue;
      for (const auto& o : specs) {
        if (o.side == c.side) continue;
        RETURN_IF_ERROR(Apply(d, c.id, tag, c.id, 0, std::nullopt,
                              {0,
                               tag == kHidden ? "000.hidden" : "000.undetected",
                               {},
                               "roster tag"},
                              0, o.id)
                            .status());
      }
    }
    for (const char* tag : {kInvisible, kFlying}) {
      if (std::find(c.tags.begin(), c.tags.end(), tag) == c.tags.end())
        continue;
      RETURN_IF_ERROR(Apply(d, c.id, tag, c.id, 0, std::nullopt,
                            {0,
                             tag == kInvisible ? "000.invisible" : "000.fly",
                             {},
                             "roster tag"})
                          .status());
    }
  }

  // Initiative (L11): roster order, companions excepted. Rolled as combat
  // starts, for everyone: the system's steps (as the first round's start).
  Decision::SystemSteps system(d);
  struct Init {
    std::string id;
    std::vector<int64_t> keys;  // total, then tie-break rolls
  };
  std::vector<Init> inits;
  Nums order_nums;
  for (const auto& c : specs) {
    if (!c.controller.empty()) continue;
    const int64_t bonus = StatOf(c, "dex", 0) + StatOf(c, "initiative", 0);
    ASSIGN_OR_RETURN(dice::RollResult r,
                     d.Roll(D20(0, bonus), "initiative", c.id, 0));
    inits.push_back({c.id, {r.total}});
    order_nums.push_back({absl::StrCat("init.", c.id), r.total});
  }
  auto by_keys = [](const Init& a, const Init& b) { return a.keys > b.keys; };
  for (int pass = 0; pass < 50; ++pass) {
    std::stable_sort(inits.begin(), inits.end(), by_keys);
    bool tied = false;
    for (size_t i = 0; i < inits.size();) {
      size_t j = i + 1;
      while (j < inits.size() && inits[j].keys == inits[i].keys) ++j;
      if (j - i > 1) {
        tied = true;
        for (size_t k = i; k < j; ++k) {
          ASSIGN_OR_RETURN(
              dice::RollResult r,
              d.Roll("1d20", "initiative tie-break", inits[k].id, 0));
          inits[k].keys.push_back(r.total);
          order_nums.push_back(
              {absl::StrCat("tiebreak.", inits[k].id), r.total});
        }
      }
      i = j;
    }
    if (!tied) break;
  }
  std::stable_sort(inits.begin(), inits.end(), by_keys);
  std::vector<OrderEntry> order;
  for (const Init& i : inits) order.push_back({i.id, i.keys[0], false});
  RETURN_IF_ERROR(
      SetOrder(d, order,
               {0, "000.initiative.order", order_nums,
                "highest Initiative first; ties by tie-break d20"}));
  return BeginCombat(d);
}

}  // namespace combat::kernel::d20
