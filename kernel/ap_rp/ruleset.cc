// The ap_rp ruleset: roster checks, Setup and the Decide dispatch.
//
// Roster: stats str dex con int cha ins wil (default 10), skills by name
// (athletics, quick_fingers, analysis, grace, improvisation, raw_force,
// nimbleness, endurance, psychology, presence, intuition, perseverance,
// stealth, perception, first_aid, ...), vitality (required, > 0), armor,
// evasion_cap, evasion_bonus, basic_movement (default 3), size_cat,
// momentum (added to the side's Narrative Momentum). Tags: evasion_stat:<s>,
// primary:<s>, secondary:<s>, resist:/immune:/vulnerable:<type>, object,
// not_biological, surprised, acts_first, acts_last, union:<name>.
#include "kernel/ap_rp/ruleset.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/ap_rp/internal.h"
#include "kernel/command.h"
#include "kernel/dice/notation.h"
#include "kernel/gm.h"
#include "kernel/roster_specs.h"

namespace combat::kernel::aprp {

absl::Status DecideDefenseRoll(const fb::CommandT& c, Decision& d);

namespace {

// A roster error cites the seed line its field reads, when the text has
// one (`rule`); a field the text says nothing about cites none (a Stat's
// range is not in seed 004; l.3 is about allies, not stats).
absl::Status Bad(const std::string& id, const std::string& field, const std::string& why,
                 const std::string& rule = "") {
  return RosterError(id, field, why, rule.empty() ? "" : Cite(rule));
}

int64_t StatOf(const fb::CombatantSpecT& c, const std::string& key, int64_t otherwise) {
  for (const auto& n : c.stats) {
    if (n && n->key == key) return n->value;
  }
  return otherwise;
}

absl::Status CheckSpec(const fb::CombatantSpecT& s) {
  if (s.side.empty()) return Bad(s.id, "side", "required: allies share a side", "004.setup");
  if (s.size < 1) return Bad(s.id, "size", "at least 1 square", "004.terrain.grid");
  bool has_vitality = false;
  for (const auto& n : s.stats) {
    if (!n) continue;
    if (n->key == "vitality") has_vitality = true;
    if (n->key == "vitality" && n->value <= 0) return Bad(s.id, "stats.vitality", "must be > 0");
    if ((IsStat(n->key) || n->key == "basic_movement" || n->key == "momentum" || n->key == "hands" ||
         n->key == "free_hands") && n->value < 0) {
      return Bad(s.id, "stats." + n->key, "must be >= 0");
    }
  }
  if (!has_vitality) return Bad(s.id, "stats.vitality", "required (> 0)");
  if (StatOf(s, "free_hands", 0) > StatOf(s, "hands", 2)) {
    return Bad(s.id, "stats.free_hands", "at most stats.hands (default 2)");
  }
  const bool object = std::find(s.tags.begin(), s.tags.end(), "object") != s.tags.end();
  for (const std::string& t : s.tags) {
    // l.10 "Two or more allies can decide to act as a union ... All
    // creatures of a union have their turn at the same time", l.7 "The
    // Initiative of objects is always 0": an object takes no turn to share
    // nor decides anything (it was ordered alone and called Dead).
    if (object && absl::StartsWith(t, "union:")) {
      return Bad(s.id, "tags",
                 t + ": an object (tag object) takes no turn and cannot act in a union; only creatures can "
                     "(l.7, l.10)",
                 "004.union");
    }
    // l.12 "A creature can be surprised by combat. In such a case, they act
    // at the end of the first round ... and any enemy that is not surprised
    // starts the combat hidden from them", l.7 "The Initiative of objects
    // is always 0": an object is no creature, takes no turn to take at the
    // end and locates no one (it was placed at the end of round 1, its
    // unsurprised enemies hidden from it).
    if (object && t == "surprised") {
      return Bad(s.id, "tags",
                 "surprised: an object (tag object) is not surprised; only a creature can be (l.12, l.7)",
                 "004.surprise");
    }
    for (const char* p : {"evasion_stat:", "primary:", "secondary:"}) {
      if (absl::StartsWith(t, p) && !IsStat(t.substr(std::string(p).size()))) {
        return Bad(s.id, "tags", t + ": a stat of str dex con int cha ins wil (l.53, l.61)");
      }
    }
    for (const char* p : {"resist:", "immune:", "vulnerable:"}) {
      if (absl::StartsWith(t, p) && !IsDamageType(t.substr(std::string(p).size()))) {
        return Bad(s.id, "tags", t + ": one of the 11 damage types (l.79)");
      }
    }
  }
  for (const auto& w : s.weapons) {
    if (!w || w->name.empty()) return Bad(s.id, "weapons.name", "required");
    const std::string f = "weapons['" + w->name + "']";
    if (w->kind != "melee" && w->kind != "ranged" && w->kind != "ability") {
      return Bad(s.id, f + ".kind", "melee, ranged or ability");
    }
    if (auto e = dice::ParseDice(w->damage); !e.ok()) {
      return Bad(s.id, f + ".damage", std::string(e.status().message()));
    }
    if (!w->damage_type.empty() && !IsDamageType(w->damage_type)) {
      return Bad(s.id, f + ".damage_type", "one of the 11 damage types (l.79)");
    }
    if (w->kind != "ability") {
      const size_t slash = w->category.find('/');
      if (slash == std::string::npos || !IsStat(w->category.substr(0, slash)) ||
          !IsStat(w->category.substr(slash + 1))) {
        return Bad(s.id, f + ".category", "\"<primary>/<secondary>\" stats, e.g. \"str/dex\" (l.53)");
      }
    }
    // The shared field `reach` is not read here: melee reach is 1 m (l.55)
    // plus numbers.reach.
    RETURN_IF_ERROR(UnreadWeaponReach(s.id, *w, f + ".reach",
                                      "melee reach is 1 m (l.55); give extra metres as numbers.reach", 1));
    if (w->kind == "ranged" && w->range_increment <= 0) {
      return Bad(s.id, f + ".range_increment", "a ranged weapon's range in metres (> 0)");
    }
    for (const auto& n : w->numbers) {
      if (n && n->key == "ap" && (w->kind != "ability" || n->value < 0)) {
        return Bad(s.id, f + ".numbers.ap", "an Ability's AP cost (>= 0), for kind ability only (l.17, l.54)");
      }
      if (n && absl::StartsWith(n->key, "dmg_") && !IsDamageType(n->key.substr(4))) {
        return Bad(s.id, f + ".numbers." + n->key, "dmg_<one of the 11 damage types>");
      }
    }
  }
  return absl::OkStatus();
}

// The roster's shape, before RosterSpecs (which would cite one line for
// all): each error cites the seed line it rests on, or says it is an input
// rule of the tool. An empty roster has no parties (l.2 "at least two
// parties"); a square for every combatant is the tool's reading of l.106's
// grid (the text also allows "a theater of the mind"); ids are how commands
// name combatants: an input rule of the tool, no line of seed 004.
absl::Status CheckRosterShape(const fb::Roster& roster) {
  if (roster.combatants() == nullptr || roster.combatants()->size() == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("roster field 'combatants' is empty: combat needs at least two parties (",
                     Cite("004.combat"), ")"));
  }
  const int width = roster.map() != nullptr ? roster.map()->width() : 0;
  const int height = roster.map() != nullptr ? roster.map()->height() : 0;
  std::set<std::string> ids;
  for (const fb::CombatantSpec* c : *roster.combatants()) {
    const std::string id = c->id() != nullptr ? c->id()->str() : "";
    const char* kInput = "commands name combatants by id (an input rule of the tool, not of seed 004)";
    if (id.empty()) return Bad("?", "id", absl::StrCat("required: ", kInput));
    if (!ids.insert(id).second) return Bad(id, "id", absl::StrCat("given twice: ", kInput));
    if (c->at() == nullptr) {
      return Bad(id, "at", "required: the square it stands on (the tool plays on the 1 m grid)",
                 "004.terrain.grid");
    }
    const int size = c->size() > 0 ? c->size() : 1;
    if (width > 0 && height > 0 &&
        (c->at()->x() < 0 || c->at()->y() < 0 || c->at()->x() + size > width ||
         c->at()->y() + size > height)) {
      return Bad(id, "at", absl::StrCat("off the ", width, " x ", height, " map"), "004.terrain.grid");
    }
  }
  return absl::OkStatus();
}

const GmRules& Gm() {
  static const GmRules* rules = [] {
    auto* r = new GmRules("004.gm");
    r->after = [](Decision& d, const fb::CommandT& c, uint64_t ruling) -> absl::Status {
      if (c.action == "gm_order") return AfterGmOrder(d, ruling);
      if (c.action == "gm_condition") {
        RETURN_IF_ERROR(AfterGmUnhide(d, c, ruling));  // l.36: seen on its own turn
        return AfterGmCondition(d, ruling);            // l.8: a Dead creature's turn is lost
      }
      // gm_adjust / gm_set name only the resources ap_rp reads: the verb
      // table's allowed values (verbs.cc GmResources).
      return absl::OkStatus();
    };
    return r;
  }();
  return *rules;
}

class ApRpRuleset : public Ruleset {
 public:
  Measure measure() const override { return {fb::DistanceUnit::Metres, 1}; }  // l.106
  std::string id() const override { return kId; }
  int32_t version() const override { return kVersion; }
  const std::vector<RuleRef>& Rules() const override { return RuleTable(); }
  // Vital: Vitality up to the roster's vitality; the turn's budgets: AP,
  // RP and movement; bookkeeping: the round a turn last ended in, a
  // Cinematic Action proposed on the running turn, a feature paid with RP on it.
  Display display() const override {
    Display d;
    d.vitals = {{kVitality, "vitality", "", {}}};
    d.budgets = {"ap", "rp", "movement"};
    d.bookkeeping = {"turn_round", kCinematicActed, kFeatureActed};
    return d;
  }
  const std::vector<VerbSchema>& Verbs() const override { return aprp::Verbs(); }

  absl::Status Setup(const fb::Roster& roster, Decision& d) const override {
    RETURN_IF_ERROR(CheckRosterShape(roster));
    ASSIGN_OR_RETURN(std::vector<fb::CombatantSpecT> specs, RosterSpecs(roster, CheckSpec));
    {
      // l.2: "Combat only starts if there are at least two parties involved
      // that truly wish to fight and have the capabilities to do so.
      // Randomly punching rocks does not start combat": at least two sides
      // with a creature (an object cannot fight); whether they truly wish to
      // fight is the GM's, who creates the session.
      std::set<std::string> parties;
      for (const auto& s : specs) {
        if (std::find(s.tags.begin(), s.tags.end(), "object") == s.tags.end()) parties.insert(s.side);
      }
      if (parties.size() < 2) {
        return RosterError(specs.front().id, "side",
                           absl::StrCat("combat needs at least two parties (sides) with a creature that "
                                        "can fight (an object cannot); the roster has ",
                                        parties.size(), parties.empty() ? "" : ": " + *parties.begin()),
                           Cite("004.combat"));
      }
    }
    {
      // l.10 "Two or more allies can decide to act as a union": the
      // creatures tagged union:<name> are two or more, all of one side
      // (l.3 "Everybody that fights on your side counts as an ally"; two
      // sides' creatures shared one turn, a lone one was a union of one).
      std::map<std::string, std::vector<const fb::CombatantSpecT*>> unions;
      for (const auto& s : specs) {
        for (const std::string& t : s.tags) {
          if (absl::StartsWith(t, "union:")) unions[t].push_back(&s);
        }
      }
      for (const auto& [tag, members] : unions) {
        if (members.size() < 2) {
          return Bad(members.front()->id, "tags",
                     tag + ": a union is two or more allies; no other combatant has this tag (l.10)", "004.union");
        }
        for (const fb::CombatantSpecT* m : members) {
          if (m->side != members.front()->side) {
            return Bad(m->id, "tags",
                       tag + ": a union is of allies (one side); " + m->id + " is of side " + m->side + ", " +
                           members.front()->id + " of side " + members.front()->side + " (l.10, l.3)",
                       "004.union");
          }
        }
      }
    }
    for (const auto& s : specs) RETURN_IF_ERROR(JoinCombatant(d, s, {0, "004.setup"}));
    std::map<std::string, int64_t> momentum;
    for (const auto& s : specs) {
      const int64_t v = StatOf(s, "vitality", 1);
      RETURN_IF_ERROR(SetResource(d, s.id, kVitality, v, {0, "004.setup", {{"vitality", v}}}));
      momentum[s.side] += StatOf(s, "momentum", 0);
      // Reading: a creature with a weapon (not an Ability) holds one in a
      // hand unless the roster says otherwise (stat free_hands).
      const int64_t hands = StatOf(s, "hands", 2);
      bool armed = false;
      for (const auto& w : s.weapons) armed = armed || (w && w->kind != "ability");
      const int64_t free = StatOf(s, "free_hands", std::max<int64_t>(0, hands - (armed ? 1 : 0)));
      RETURN_IF_ERROR(SetResource(d, s.id, kFreeHands, free,
                                  {0, "004.setup", {{"hands", hands}, {"free_hands", free}},
                                   "hands not holding anything (l.24, l.32, l.34, l.35)"}));
    }
    for (const auto& [side, n] : momentum) {
      RETURN_IF_ERROR(SetPool(d, SideOwner(side), kMomentum, n,
                              {0, "004.cinematic", {{"momentum", n}}, "the side's Narrative Momentum"}));
    }
    // l.12: unsurprised enemies start hidden from the surprised.
    for (const auto& s : specs) {
      if (std::find(s.tags.begin(), s.tags.end(), "surprised") == s.tags.end()) continue;
      for (const auto& o : specs) {
        if (o.side == s.side || std::find(o.tags.begin(), o.tags.end(), "surprised") != o.tags.end()) continue;
        if (std::find(o.tags.begin(), o.tags.end(), "object") != o.tags.end()) continue;
        NewCondition h;
        h.actor = o.id;
        h.name = kHidden;
        h.source = o.id;
        h.relative_to = s.id;
        RETURN_IF_ERROR(AddCondition(d, h, {0, "004.surprise", {}, "starts hidden from " + s.id}).status());
      }
    }
    // l.10: unions formed at the start of round 1 (tag union:<name>).
    for (const auto& s : specs) {
      for (const std::string& t : s.tags) {
        if (!absl::StartsWith(t, "union:")) continue;
        NewCondition u;
        u.actor = s.id;
        u.name = kUnion;
        u.source = s.id;
        u.note = t.substr(6);
        RETURN_IF_ERROR(AddCondition(d, u, {0, "004.union", {}, "acts as a union"}).status());
      }
    }
    return BeginCombat(d);
  }

  absl::Status Decide(const fb::CommandT& c, Decision& d) const override {
    if (c.action == "gm_order") RETURN_IF_ERROR(CheckGmOrder(d.state(), c));
    if (IsGmVerb(c.action)) return DecideGm(c, Gm(), d);
    if (c.action == "end_turn") return DecideEndTurn(c, d);
    if (c.action == "hold_turn") return DecideHoldTurn(c, d);
    if (c.action == "resume") return DecideResume(c, d);
    if (c.action == "form_union") return DecideFormUnion(c, d);
    if (c.action == "leave_union") return DecideLeaveUnion(c, d);
    if (c.action == "use_feature") return DecideUseFeature(c, d);
    if (c.action == "move") return DecideMove(c, d);
    if (c.action == "hold_action") return DecideHoldAction(c, d);
    if (c.action == "cinematic") return DecideCinematic(c, d);
    if (c.action == "cinematic_ruling") return DecideCinematicRuling(c, d);
    if (c.action == "grant_momentum") return DecideGrantMomentum(c, d);
    if (c.action == "force_move") return DecideForceMove(c, d);
    if (c.action == "teleport") return DecideTeleport(c, d);
    if (c.action == "defense_roll") return DecideDefenseRoll(c, d);
    if (const ActionRow* row = FindActionRow(c.action); row != nullptr) return DeclareAction(*row, c, d);
    return absl::InvalidArgumentError(absl::StrCat(
        "command: field 'action': unknown action '", c.action,
        "' for ruleset ap_rp (see kernel/ap_rp/README.md)"));
  }
};

}  // namespace

const Ruleset& ApRp() {
  static const ApRpRuleset* r = new ApRpRuleset();
  return *r;
}

}  // namespace combat::kernel::aprp
