// Set-up (l.10, l.15-17): roster checks naming the field, combatants
// joining with Health and their armed opportunity triggers, the session's
// test mechanics (tests.cc), surprise (l.16), initiative (l.10-11) and
// round 1.
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/dice/notation.h"
#include "kernel/opposed_tests/internal.h"
#include "kernel/roster_specs.h"

namespace combat::kernel::opposed {
namespace {

// A roster refusal cites the line stating the rule it checks (`rule`, an id
// of the rule table); a check no line states cites the set-up (l.10).
absl::Status Bad(const std::string& who, const std::string& field,
                 const std::string& msg, const char* rule = "003.setup") {
  return RosterError(who, field, msg, Cite(rule));
}

bool HasStat(const fb::CombatantSpecT& c, const std::string& key, int64_t* v) {
  for (const auto& n : c.stats) {
    if (n && n->key == key) {
      if (v != nullptr) *v = n->value;
      return true;
    }
  }
  return false;
}

// The stat keys this ruleset reads (README "Roster"); any other key is
// refused naming it, so a typo ("strength" for "str") is not a silent 0.
bool KnownDamageKey(const std::string& rest) {  // "<type|group>[.<source>]"
  static const char* kTypes[] = {"crushing", "piercing", "slashing", "fire", "frost", "shock",
                                 "acid", "force", "necrotic", "radiant", "poison", "psychic",
                                 "physical", "magical", "other"};
  const std::string type = rest.substr(0, rest.find('.'));
  if (rest.find('.') != std::string::npos && rest.size() == type.size() + 1) return false;
  for (const char* t : kTypes) {
    if (type == t) return true;
  }
  return false;
}

bool KnownStat(const std::string& k) {
  static const char* kPlain[] = {
      "fighting_style", "dodge", "focus", "athletics", "acrobatics", "sleight_of_hand",
      "deception", "observation", "stealth", "sorcery", "str", "agi", "per", "wil", "cha",
      "initiative", "health", "speed", "size_class", "untrained_armor", "ar", "ar_magical"};
  static const char* kApVerbs[] = {"strike", "defend", "opportunity_attack", "dash", "sneak",
                                   "disengage", "stand", "grapple", "search", "manipulate",
                                   "use_magic"};
  for (const char* p : kPlain) {
    if (k == p) return true;
  }
  for (const char* m : kMechanicsKeys) {
    if (k == m) return true;
  }
  for (const char* v : kApVerbs) {
    if (k == absl::StrCat("ap_", v)) return true;
  }
  if ((k.rfind("ar.", 0) == 0 && k.size() > 3) || (k.rfind("ar_magical.", 0) == 0 && k.size() > 11)) return true;
  if (k.rfind("resist.", 0) == 0) return KnownDamageKey(k.substr(7));
  if (k.rfind("vuln.", 0) == 0) return KnownDamageKey(k.substr(5));
  return false;
}

absl::Status Check(const fb::CombatantSpecT& c) {
  int64_t v = 0;
  if (!HasStat(c, "health", &v)) return Bad(c.id, "stats.health", "is required (the Health Pool)", "003.health");
  if (v <= 0) return Bad(c.id, "stats.health", "must be > 0", "003.health");
  if (HasStat(c, "speed", &v) && v < 0) return Bad(c.id, "stats.speed", "must be >= 0 (metres)", "003.move");
  // l.75 "Your size relative to the target creature matters": the text ties
  // no size to a space, so a creature larger than one square states its size
  // (a 2 x 2 creature is not read as medium, the 1 x 1 default).
  if (c.size > 1 && !HasStat(c, "size_class", &v)) {
    return Bad(c.id, "stats.size_class",
               absl::StrCat("is required for a creature of ", c.size, " x ", c.size,
                            " squares: 0 (tiny) .. 2 (medium) .. 5 (l.75: size relative to the "
                            "target matters; the text gives no size for a space)"),
                 "003.maneuver.size");
  }
  for (const auto& n : c.stats) {
    if (!n) continue;
    if (!KnownStat(n->key)) {
      return Bad(c.id, "stats." + n->key,
                 "unknown stat (skills fighting_style, dodge, focus, athletics, acrobatics, "
                 "sleight_of_hand, deception, observation, stealth, sorcery; attributes str, agi, "
                 "per, wil, cha; initiative, health, speed, size_class, untrained_armor, ar, "
                 "ar_magical, ar.<source>, ar_magical.<source>, resist.<type|group>[.<source>], "
                 "vuln.<type|group>[.<source>], ap_<verb>, test_faces, test_success_at, "
                 "test_pass_at, test_boon_dice: README \"Roster\")");
    }
    if (n->key == "size_class" && (n->value < 0 || n->value > 5)) {  // l.74-77
      return Bad(c.id, "stats.size_class", "0 (tiny) .. 2 (medium, the default) .. 5",
                 "003.maneuver.size");
    }
    if (n->key == "untrained_armor" && n->value != 0 && n->value != 1) {  // l.100
      return Bad(c.id, "stats.untrained_armor", "0 or 1 (worn armor not in the Fighting Style)",
                 "003.untrained_armor");
    }
    if (n->key.rfind("ap_", 0) == 0 && (n->value < 0 || n->value > 3)) {
      return Bad(c.id, "stats." + n->key, "an AP cost 0..3", "003.ap.cost");
    }
    if ((n->key == "ar" || n->key == "ar_magical" || n->key.rfind("ar.", 0) == 0 ||
         n->key.rfind("ar_magical.", 0) == 0 || n->key.rfind("resist.", 0) == 0 ||
         n->key.rfind("vuln.", 0) == 0) && n->value < 0) {
      const char* rule = n->key.rfind("resist.", 0) == 0 ? "003.damage.resistance"
                         : n->key.rfind("vuln.", 0) == 0   ? "003.damage.vulnerability"
                                                           : "003.damage.armor";
      return Bad(c.id, "stats." + n->key, "must be >= 0", rule);
    }
  }
  for (size_t i = 0; i < c.stats.size(); ++i) {
    for (size_t j = i + 1; j < c.stats.size(); ++j) {
      if (c.stats[i] && c.stats[j] && c.stats[i]->key == c.stats[j]->key) {
        const std::string& k = c.stats[i]->key;
        if (k.rfind("resist.", 0) == 0 || k.rfind("vuln.", 0) == 0) {  // l.137
          return Bad(c.id, "stats." + k, "given twice (several sources: name each, e.g. resist.fire.<source>)",
                     "003.damage.highest");
        }
        if (k == "ar" || k == "ar_magical" || k.rfind("ar.", 0) == 0 || k.rfind("ar_magical.", 0) == 0) {
          return Bad(c.id, "stats." + k, "given twice (several sources of AR: name each, ar.<source>; the wearer "
                                         "chooses one, l.143)",
                     "003.damage.armor");
        }
        if (k == "fighting_style") {  // l.95-96: several styles, tracked separately
          return Bad(c.id, "stats." + k, "given twice: state the rating of the one Fighting Style the character "
                                         "fights with (several styles are tracked separately; which one is the GM's)",
                     "003.fighting_style");
        }
        return Bad(c.id, "stats." + k, "given twice: give it once");
      }
    }
  }
  for (const std::string& t : c.tags) {
    if (t.rfind("grapple:", 0) == 0 && t != "grapple:athletics" && t != "grapple:acrobatics") {
      return Bad(c.id, "tags", "'" + t + "': grapple:athletics or grapple:acrobatics", "003.grapple");
    }
    if (t.rfind("disarm:", 0) == 0 && t != "disarm:athletics" && t != "disarm:sleight_of_hand") {
      return Bad(c.id, "tags", "'" + t + "': disarm:athletics or disarm:sleight_of_hand",
                 "003.maneuver.disarm");
    }
    if (t.rfind("armor:", 0) != 0) continue;
    const std::string src = t.substr(6);
    if (src == "ar") continue;
    if (!HasStat(c, "ar." + src, nullptr) && !HasStat(c, "ar_magical." + src, nullptr)) {
      return Bad(c.id, "tags", "'" + t + "' names no armor source (stats ar.<source> / ar_magical.<source>, or armor:ar)",
                 "003.damage.armor");
    }
  }
  if (c.size < 1) return Bad(c.id, "size", "must be >= 1");
  for (const auto& w : c.weapons) {
    if (!w || w->name.empty()) return Bad(c.id, "weapons.name", "is required");
    const std::string f = absl::StrCat("weapons['", w->name, "']");
    if (w->kind != "melee" && w->kind != "natural" && w->kind != "ranged" &&
        w->kind != "thrown" && w->kind != "spell" && w->kind != "shield") {
      return Bad(c.id, f + ".kind", "melee, natural, ranged, thrown, spell or shield");
    }
    if (!w->damage.empty()) {
      auto parsed = dice::ParseDice(w->damage);
      if (!parsed.ok()) {
        return Bad(c.id, f + ".damage", std::string(parsed.status().message()), "003.damage");
      }
    } else if (w->kind != "shield" && w->kind != "spell") {
      return Bad(c.id, f + ".damage", "dice notation is required (the attacker rolls for damage)",
                 "003.damage");
    }
    if (!w->damage.empty() && w->damage_type.empty()) {
      return Bad(c.id, f + ".damage_type", "a damage type is required (all damage sources have one)",
                 "003.damage.types");
    }
    if (!w->damage_type.empty() &&
        (!KnownDamageKey(w->damage_type) || w->damage_type == "physical" ||
         w->damage_type == "magical" || w->damage_type == "other" ||
         w->damage_type.find('.') != std::string::npos)) {
      return Bad(c.id, f + ".damage_type",
                 "'" + w->damage_type + "': crushing, piercing, slashing, fire, frost, shock, acid, "
                 "force, necrotic, radiant, poison or psychic (l.118-133)",
                 "003.damage.types");
    }
    for (const auto& n : w->numbers) {
      if (!n) continue;
      static const char* kNumbers[] = {"reach", "br", "untrained", "two_handed", "attack",
                                       "melee_attack", "mind", "parriable", "heavy"};
      bool known = false;
      for (const char* k : kNumbers) known = known || n->key == k;
      if (!known) {
        return Bad(c.id, f + ".numbers." + n->key,
                   "unknown number (reach, br, untrained, two_handed, attack, melee_attack, mind, "
                   "parriable, heavy: README \"Roster\")");
      }
      if (n->value < 0) return Bad(c.id, f + ".numbers." + n->key, "must be >= 0");
    }
  }
  return absl::OkStatus();
}

// Initiative (l.10): player characters 1d6 + Initiative, NPCs 1d6 + PER.
// NPCs "are under the control of the GM" (l.10): when the roster names
// players (schema 7), the combatants it gives no player (the GM runs them,
// kernel/authority.h), and not one a player runs, even tagged "npc" (a
// player's character is a player character). A roster naming no player
// cannot tell: the tag decides.
absl::Status RollInitiative(Decision& d, const std::vector<std::string>& ids) {
  struct Entry {
    std::string id;
    int64_t total, bonus;
  };
  bool players = false;
  for (const auto& [id, c] : d.state().combatants) players = players || !c.player.empty();
  std::vector<Entry> entries;
  for (const std::string& id : ids) {
    const Combatant* c = d.state().Find(id);
    const bool npc = players ? c->player.empty() : c->HasTag("npc");
    const int64_t bonus = npc ? c->Stat("per", 0) : c->Stat("initiative", 0);
    ASSIGN_OR_RETURN(dice::RollResult r, d.Roll("1d6", "initiative", id, 0));
    const int64_t total = r.total + bonus;
    RETURN_IF_ERROR(SetResource(d, id, kInit, total,
                                {0, "003.initiative",
                                 {{"d6", r.total}, {npc ? "per" : "initiative", bonus}, {"total", total}},
                                 npc ? "NPC: 1d6 + PER" : "player character: 1d6 + Initiative"}));
    entries.push_back({id, total, bonus});
  }
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    if (a.total != b.total) return a.total > b.total;
    if (a.bonus != b.bonus) return a.bonus > b.bonus;
    return a.id < b.id;
  });
  std::vector<OrderEntry> order;
  for (const Entry& e : entries) order.push_back(OrderEntry{e.id, e.total, false, {}});
  return SetOrder(d, order, {0, "003.initiative", {}, "highest first (l.11)"});
}

// Surprise (l.16): when a side sneaks (tag "sneaking"), each sneaker makes
// a Stealth test and each observer of the other sides an Observation
// test; an observer is surprised when it loses the contest against every
// sneaker (reading: one clumsy sneaker gives the party away). A roster
// tag "surprised" sets it directly (the GM's call).
absl::Status Surprise(Decision& d, const std::vector<std::string>& ids) {
  std::vector<std::string> sneakers;
  std::map<std::string, TestResult> stealth;
  for (const std::string& id : ids) {
    if (!d.state().Find(id)->HasTag("sneaking")) continue;
    sneakers.push_back(id);
    TestSpec t{id, "stealth", GoverningAttribute("stealth"), 0, 0, 0, false, false, "stealth"};
    ASSIGN_OR_RETURN(stealth[id], RollTest(d, t, 0));
  }
  for (const std::string& id : ids) {
    const Combatant* c = d.state().Find(id);
    bool surprised = c->HasTag("surprised");
    Nums nums;
    if (!surprised && !sneakers.empty() && !c->HasTag("sneaking")) {
      bool opposed = false;
      for (const std::string& s : sneakers) opposed = opposed || d.state().Find(s)->side != c->side;
      if (!opposed) continue;
      TestSpec t{id, "observation", GoverningAttribute("observation"), 0, 0, 0, false, false,
                 "observation"};
      ASSIGN_OR_RETURN(TestResult obs, RollTest(d, t, 0));
      nums = obs.nums;
      surprised = true;
      for (const std::string& s : sneakers) {
        if (d.state().Find(s)->side == c->side) continue;
        const ContestResult r = Contest(stealth[s], obs, 2);
        nums.push_back({"stealth_" + s, stealth[s].successes});
        if (r.winner != 1) surprised = false;
      }
      if (!surprised) {
        RETURN_IF_ERROR(RecordOutcome(d, id, {0, "003.surprise", nums, "not surprised"}));
      }
    }
    if (!surprised) continue;
    NewCondition nc;
    nc.actor = id;
    nc.name = kSurprised;
    nc.source = "surprise";
    nc.expiry = Expiry{fb::ExpiryKind::RoundEnd, "", 1};
    nc.note = "loses its first turn: no actions or reactions in round 1";
    RETURN_IF_ERROR(AddCondition(d, nc, {0, "003.surprise", nums}).status());
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status SetupRoster(const fb::Roster& roster, Decision& d) {
  ASSIGN_OR_RETURN(std::vector<fb::CombatantSpecT> specs,
                   RosterSpecs(roster, Check, Cite("003.setup")));
  // The session's test mechanics (tests.cc): every combatant that states
  // one must agree.
  std::map<std::string, std::pair<int64_t, std::string>> mech;
  for (const auto& c : specs) {
    for (const char* k : kMechanicsKeys) {
      int64_t v = 0;
      if (!HasStat(c, k, &v)) continue;
      auto it = mech.find(k);
      if (it != mech.end() && it->second.first != v) {
        return Bad(c.id, absl::StrCat("stats.", k),
                   absl::StrCat("differs from ", it->second.second, "'s ", it->second.first,
                                ": the test mechanics are the session's"));
      }
      mech[k] = {v, c.id};
    }
  }
  TestMechanics m;
  if (mech.count("test_faces")) m.faces = mech["test_faces"].first;
  if (mech.count("test_success_at")) m.success_at = mech["test_success_at"].first;
  if (mech.count("test_pass_at")) m.pass_at = mech["test_pass_at"].first;
  if (mech.count("test_boon_dice")) m.boon_dice = mech["test_boon_dice"].first;
  RETURN_IF_ERROR(CheckMechanics(m, mech.empty() ? specs[0].id : mech.begin()->second.second));

  std::vector<std::string> ids;
  std::map<std::string, uint64_t> joined;
  for (const auto& c : specs) {
    RETURN_IF_ERROR(JoinCombatant(d, c, {0, "003.setup"}));
    ids.push_back(c.id);
    joined[c.id] = d.state().seq;
  }
  const Why mw{0, "003.test", {}, "the session's test mechanics (README)"};
  RETURN_IF_ERROR(SetPool(d, "session", "test_faces", m.faces, mw));
  RETURN_IF_ERROR(SetPool(d, "session", "test_success_at", m.success_at, mw));
  RETURN_IF_ERROR(SetPool(d, "session", "test_pass_at", m.pass_at, mw));
  RETURN_IF_ERROR(SetPool(d, "session", "test_boon_dice", m.boon_dice, mw));
  for (const std::string& id : ids) {
    const int64_t hp = d.state().Find(id)->Stat("health");
    RETURN_IF_ERROR(SetResource(d, id, kHealth, hp, {0, "003.health", {{"health", hp}}}));
    RETURN_IF_ERROR(ArmOpportunity(d, id, joined[id]));
  }
  // The start of combat (l.16-17): surprise, initiative, the first round
  // and turn happen by themselves: the system's.
  Decision::SystemSteps system(d);
  RETURN_IF_ERROR(Surprise(d, ids));
  RETURN_IF_ERROR(RollInitiative(d, ids));
  return BeginCombat(d);
}

}  // namespace combat::kernel::opposed
