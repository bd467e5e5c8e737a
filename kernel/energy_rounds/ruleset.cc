// The energy_rounds ruleset: Setup and the command dispatch.
#include "kernel/energy_rounds/ruleset.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/command.h"
#include "kernel/dice/notation.h"
#include "kernel/roster_specs.h"
#include "kernel/energy_rounds/internal.h"
#include "kernel/gm.h"

namespace combat::kernel::energy {
namespace {

absl::Status SpecError(const std::string& id, const std::string& field,
                       const std::string& why) {
  return RosterError(id, field, why);
}

// The roster tags this ruleset reads (a closed list, like the conditions):
// a size (l.439, l.211), surprised (l.491), unaware (l.485, l.202), object
// (l.156), resist:<type> / weak:<type> (l.376-378), removes:<Condition>
// (l.690). Anything else would be silently inert, so it is refused.
constexpr char kTagList[] =
    "miniscule, fine, diminutive, tiny, small, medium, large, huge, gigantic, surprised, "
    "unaware, object, resist:<damage type>, weak:<damage type>, removes:<Condition>";

bool KnownTag(const std::string& tag) {
  for (int i = kMiniscule; i <= kGigantic; ++i) {
    if (tag == SizeName(i)) return true;
  }
  if (tag == "surprised" || tag == "unaware" || tag == "object") return true;
  for (const char* prefix : {"resist:", "weak:", "removes:"}) {
    const std::string p(prefix);
    if (tag.size() > p.size() && tag.compare(0, p.size(), p) == 0) return true;
  }
  return false;
}

absl::Status CheckSpec(const fb::CombatantSpecT& spec) {
  for (const auto& n : spec.stats) {
    if (!n) continue;
    if ((n->key == "level" && n->value < 1) ||
        ((n->key == "con_score" || n->key == "speed" || n->key == "stamina" ||
          n->key == "aura" || n->key == "ac" || n->key == "ar" || n->key == "mpl") &&
         n->value < 0)) {
      return SpecError(spec.id, "stats." + n->key, "out of range");
    }
    if (n->key == "facing" && (n->value < 0 || n->value > 7)) {
      return SpecError(spec.id, "stats.facing", "0..7 (0 north, clockwise)");
    }
  }
  for (const std::string& tag : spec.tags) {
    if (!KnownTag(tag)) {
      return SpecError(spec.id, "tags." + tag,
                       absl::StrCat("unknown tag; the tags are: ", kTagList,
                                    ". Conditions are not tags: impose one with gm_condition "
                                    "(the conditions are: ", ConditionNames(), ")"));
    }
    // An ability that removes a condition (l.690) names one of the list.
    if (tag.rfind("removes:", 0) != 0) continue;
    auto known = CanonicalCondition(tag.substr(8), "tags");
    if (!known.ok()) return SpecError(spec.id, "tags." + tag, std::string(known.status().message()));
    if (*known != tag.substr(8)) {
      return SpecError(spec.id, "tags." + tag, absl::StrCat("write the condition as '", *known, "'"));
    }
  }
  for (const auto& w : spec.weapons) {
    if (!w) continue;
    if (w->name.empty()) return SpecError(spec.id, "weapons.name", "required");
    if (w->kind != "melee" && w->kind != "ranged" && w->kind != "thrown") {
      return SpecError(spec.id, "weapons." + w->name + ".kind", "melee, ranged or thrown");
    }
    // A Reach is 1 m plus the weapon's number "reach" (l.15, l.452), not
    // the shared field (was: ignored without a word).
    RETURN_IF_ERROR(UnreadWeaponReach(spec.id, *w, "weapons." + w->name + ".reach",
                                      "a Reach is 1 m plus the weapon's numbers.reach in metres (l.15)"));
    if (auto e = dice::ParseDice(w->damage); !e.ok()) {
      return SpecError(spec.id, "weapons." + w->name + ".damage", std::string(e.status().message()));
    }
  }
  return absl::OkStatus();
}

int NearestFoeDir(const State& s, const Combatant& c) {
  int64_t best = std::numeric_limits<int64_t>::max();
  int dir = 0;
  for (const auto& [id, o] : s.combatants) {  // id order: ties go to the first
    if (o.side == c.side) continue;
    const int64_t dist = Distance(c, o);
    if (dist < best) {
      best = dist;
      dir = space::DirBetween(c.at, c.size, o.at, o.size);  // centre to centre
    }
  }
  return dir;
}

absl::Status SetUpResources(Decision& d, const std::string& id) {
  const Combatant c = *d.state().Find(id);
  const Why why{0, "002.setup", {}, ""};
  const int64_t stamina = c.Stat("stamina", MaxStamina(c));
  RETURN_IF_ERROR(SetResource(d, id, res::kStamina, stamina,
                              {0, "002.stamina.max", {{"con_score", MaxStamina(c)}}, ""}));
  const int64_t aura = c.Stat("aura", AuraMax(c));
  RETURN_IF_ERROR(SetResource(d, id, res::kAura, aura,
                              {0, "002.aura.strength",
                               {{"aura_modifier", AuraModifier(c)}, {"aura_max", AuraMax(c)}}, ""}));
  RETURN_IF_ERROR(SetResource(d, id, res::kSurges, SurgesMax(c),
                              {0, "002.aura.surges", {{"con", Mod(c, "con")}}, ""}));
  const int facing = c.stats.count("facing") ? static_cast<int>(c.Stat("facing"))
                                             : NearestFoeDir(d.state(), c);
  if (facing != 0) {
    RETURN_IF_ERROR(SetResource(d, id, res::kFacing, facing,
                                {0, "002.facing", {}, "faces the nearest foe"}));
  }
  for (const Weapon& w : c.weapons) {
    auto eq = w.numbers.find("equipped");
    if (eq == w.numbers.end() || eq->second != 0) {
      RETURN_IF_ERROR(SetResource(d, id, WieldKey(w.name), 1, {0, "002.items.equip", {}, "in hand"}));
    }
    auto ld = w.numbers.find("loaded");
    if (ld != w.numbers.end() && ld->second != 0) {
      RETURN_IF_ERROR(SetResource(d, id, LoadedKey(w.name), 1, {0, "002.ranged.load", {}, ""}));
    }
  }
  return KnockOutAtZeroStamina(d, id, {0, "002.stamina.zero", {}, ""});
}

// How long a condition the GM imposes without a `rounds` duration lasts:
// "Unless otherwise specified", Exposure (l.460) and being Unguarded (l.468,
// l.680) last until the end of the Round, and the Surprised are Surprised
// until the end of the Round of the surprise (l.491); a condition the
// environment or terrain applies continually (l.690) and every other
// condition last until removed.
Expiry DefaultGmExpiry(const State& s, const NewCondition& nc) {
  const bool continual = nc.source == "environment" || nc.source == "terrain";
  if (!continual && (nc.name == "Exposed" || nc.name == "Unguarded" || nc.name == "Surprised")) {
    return EndOfRound(s, 0);
  }
  return Forever();
}

// The maximum of a vital the GM sets or adjusts, with its rule and the
// text's formula; none for a resource without one here (Energy and Agility
// are the Round's budgets, reset at its beginning, l.53, l.90; abilities
// may give more, l.47, l.94).
struct GmMaximum {
  int64_t max;
  const char* rule;
  const char* text;
};

std::optional<GmMaximum> GmMaximumOf(const Combatant& a, const std::string& resource) {
  if (resource == res::kStamina) {
    return GmMaximum{MaxStamina(a), "002.stamina.max", "Maximum Stamina = Constitution Score (l.78)"};
  }
  if (resource == res::kAura) {
    return GmMaximum{AuraMax(a), "002.aura.strength", "Aura Strength = 20 + Aura Modifier x 4/3 (l.298)"};
  }
  if (resource == res::kSurges) {
    return GmMaximum{SurgesMax(a), "002.aura.surges",
                     "# of Recovery Surges = 5 + Halved Constitution Modifier (l.308)"};
  }
  return std::nullopt;
}

// gm_set of Stamina, Aura or Recovery Surges above the maximum: the text
// has no Stamina, Aura or surges above it (l.78, l.298, l.308; only
// Agility's maximum is raised by abilities, l.94, and that is the roster's
// `agility_bonus`), so the value is refused, naming the maximum.
absl::Status RefuseGmAboveMaximum(const fb::CommandT& c, const Combatant& a) {
  if (c.action != "gm_set") return absl::OkStatus();
  const std::string resource = ParamText(c, "resource");
  const std::optional<GmMaximum> m = GmMaximumOf(a, resource);
  const std::optional<int64_t> value = Param(c, "value");
  if (!m.has_value() || !value.has_value() || *value <= m->max) return absl::OkStatus();
  return Refuse(m->rule,
                absl::StrCat("command 'gm_set': field 'params.value': ", *value, " is above ",
                             a.id, "'s maximum ", resource, " ", m->max, " (",
                             m->text, "); set at most ", m->max));
}

// A number the GM sets or adjusts keeps the text's floors and their
// consequences: "Negative Stamina does not exist ... you simply drop to (or
// stay at) zero" (l.74) and "Dropping to 0 Stamina will immediately result
// in unconsciousness" (l.72); Aura is "reduced to 0" and no further (l.294,
// l.624: the body is harmed from there, by Death rolls).
absl::Status AfterGmNumber(Decision& d, const fb::CommandT& c, uint64_t ruling) {
  const std::string resource = ParamText(c, "resource");
  const Combatant* a = d.state().Find(c.actor);
  const bool pool = resource == res::kEnergy || resource == res::kAgility;
  if (a == nullptr || (!GmMaximumOf(*a, resource).has_value() && !pool)) return absl::OkStatus();
  const int64_t value = a->Resource(resource);
  if (value < 0) {
    // Energy, Agility and the Recovery Surges are counts, kept "using some
    // sort of token" (l.82, l.308 "# of Recovery Surges"): none below 0
    // either (was: a GM's -10 left surges -5, Agility -2).
    std::string rule = "002.stamina.negative";
    std::string why = "Negative Stamina does not exist: 0 (l.74)";
    if (resource == res::kAura) {
      rule = "002.damage.aura";
      why = "Aura is reduced to 0, no further (l.294)";
    } else if (resource != res::kStamina) {
      rule = resource == res::kSurges ? "002.aura.surges"
             : resource == res::kEnergy ? "002.rounds.energy"
                                        : "002.agility.max";
      why = absl::StrCat("no fewer than 0 ", resource, ", a count of tokens (l.82, l.308)");
    }
    RETURN_IF_ERROR(SetResource(d, a->id, resource, 0,
                                {ruling, rule, {{absl::StrCat(resource, "_asked"), value}}, why}));
  }
  // ... and the text's maxima: Maximum Stamina (l.78), Aura Strength
  // (l.298), the number of Recovery Surges (l.308). A gain the GM adjusts
  // in stops there, as every regaining does ("regain all", l.49, l.614;
  // "fully restored", l.613), and says so; a value above one is refused
  // (RefuseGmAboveMaximum).
  if (const std::optional<GmMaximum> m = GmMaximumOf(*a, resource); m.has_value() && value > m->max) {
    RETURN_IF_ERROR(SetResource(
        d, a->id, resource, m->max,
        {ruling, m->rule, {{absl::StrCat(resource, "_asked"), value}},
         absl::StrCat(m->text, ": ", m->max)}));
  }
  if (resource != res::kStamina) return absl::OkStatus();
  return KnockOutAtZeroStamina(d, c.actor,
                               {ruling, "002.stamina.zero", {{"stamina", 0}},
                                "dropped to 0 Stamina"});
}

// The shared GM verbs with this text's consequences: a condition the GM
// imposes brings its daughters (l.688), Unconscious its fall (l.72); a
// `rounds` duration counts Round boundaries (there are no turns, so the
// kernel anchors it at the start of round now + rounds); a "resolve" note
// lifts the hold on simultaneous Immediate Interrupts (l.132); Aura gained
// by ruling may stabilise (l.647).
const GmRules& Gm() {
  static const GmRules* rules = [] {
    auto* r = new GmRules("002.gm");
    r->add_condition = [](Decision& d, const NewCondition& nc, const Why& why) {
      if (nc.name == "Unconscious") {
        return FallUnconscious(d, nc.actor, nc.source == "gm" ? "sleep" : nc.source, why);
      }
      Impose im = nc;
      im.expiry = nc.expiry.kind == fb::ExpiryKind::Never ? DefaultGmExpiry(d.state(), nc)
                                                          : nc.expiry;
      return AddWithDaughters(d, im, why).status();
    };
    r->after = [](Decision& d, const fb::CommandT& c, uint64_t ruling) -> absl::Status {
      if (c.action == "gm_note" && ParamText(c, "kind") == "resolve") {
        return AfterGmResolve(d, ruling, RefSeq(c, "subject").value_or(0));
      }
      if (c.action == "gm_adjust" || c.action == "gm_set") {
        return AfterGmNumber(d, c, ruling);
      }
      return absl::OkStatus();
    };
    return r;
  }();
  return *rules;
}

absl::Status DecideGmVerb(const fb::CommandT& c, Decision& d) {
  std::string actor;
  int64_t aura_before = 0;
  if (!c.actor.empty()) {
    if (const Combatant* a = d.state().Find(c.actor); a != nullptr) {
      actor = a->id;
      aura_before = a->Resource(res::kAura);
    }
  }
  if (c.action == "gm_condition" && !ParamText(c, "name").empty()) {
    // The closed list: the text's spelling in any case -> its canonical
    // form; an unknown name is refused with the list (kernel/gm.h leaves
    // names to the ruleset).
    ASSIGN_OR_RETURN(std::string name,
                     CanonicalCondition(ParamText(c, "name"),
                                        "command 'gm_condition': field 'params.name'"));
    // l.624 "To be killed, a creature's Aura must be at 0 strength": the
    // GM's death (l.649, a hopeless situation, the helpless killed) comes
    // at 0 Aura; above it the GM sets the Aura first.
    if (name == "Dead" && ParamText(c, "op") == "add" && !actor.empty() && aura_before > 0) {
      return Refuse("002.death.dead",
                    absl::StrCat("command 'gm_condition': field 'params.name': ", actor,
                                 " has Aura ", aura_before,
                                 " and to be killed a creature's Aura must be at 0 strength; "
                                 "set it to 0 first (gm_set resource=aura value=0)"));
    }
    if (name != ParamText(c, "name")) {
      fb::CommandT canon = c;
      for (auto& p : canon.params) {
        if (p && p->key == "name") p->text = name;
      }
      RETURN_IF_ERROR(DecideGm(canon, Gm(), d));
      return absl::OkStatus();
    }
  }
  if (!actor.empty()) RETURN_IF_ERROR(RefuseGmAboveMaximum(c, *d.state().Find(actor)));
  RETURN_IF_ERROR(DecideGm(c, Gm(), d));
  if ((c.action == "gm_adjust" || c.action == "gm_set") && !actor.empty() &&
      ParamText(c, "resource") == res::kAura) {
    return StabiliseIfGained(d, actor, aura_before, d.state().seq);  // l.647
  }
  return absl::OkStatus();
}

class EnergyRoundsRuleset : public Ruleset {
 public:
  // 1 m squares (l.416).
  Measure measure() const override { return {fb::DistanceUnit::Metres, 1}; }
  std::string id() const override { return kId; }
  int32_t version() const override { return kVersion; }
  const std::vector<RuleRef>& Rules() const override { return RuleTable(); }
  // Vitals: Stamina (l.78), Aura (l.298) and Recovery Surges (l.308) up to
  // their maxima; the round's budgets: Energy and Agility; bookkeeping:
  // counters of the round's movement and once-per-round uses.
  Display display() const override {
    Display d;
    d.vitals = {{"stamina", "", "", MaxStamina},
                {"aura", "", "", AuraMax},
                {"surges", "", "", SurgesMax}};
    d.budgets = {"energy", "agility"};
    d.bookkeeping = {"initiative_round", "move_streak", "heading", "agile_credit",
                     "swift_used", "sprint_from_*", "moved_m", "sprinted",
                     "stamina_energy_used"};
    return d;
  }
  const std::vector<VerbSchema>& Verbs() const override { return energy::Verbs(); }

  absl::Status Setup(const fb::Roster& roster, Decision& d) const override {
    ASSIGN_OR_RETURN(std::vector<fb::CombatantSpecT> specs,
                     RosterSpecs(roster, CheckSpec));
    for (const fb::CombatantSpecT& t : specs) {
      RETURN_IF_ERROR(JoinCombatant(d, t, {0, "002.setup"}));
    }
    for (const fb::CombatantSpecT& t : specs) RETURN_IF_ERROR(SetUpResources(d, t.id));
    return StartFirstRound(d);
  }

  absl::Status Decide(const fb::CommandT& c, Decision& d) const override {
    if (IsGmVerb(c.action)) return DecideGmVerb(c, d);
    if (c.action == "interrupt") return DecideInterrupt(c, d);
    if (c.action == "resolve") return DecideResolve(c, d);
    if (c.action == "cancel") return DecideCancel(c, d);
    if (c.action == "pass") return DecidePass(c, d);
    if (c.action == "save_initiative") return DecideSaveInitiative(c, d);
    if (c.action == "end_round") return DecideEndRound(c, d);
    if (c.action == "face") return DecideFace(c, d);
    if (c.action == "release") return DecideRelease(c, d);
    if (c.action == "remove_condition") return DecideRemoveCondition(c, d);
    if (c.action == "short_rest") return DecideShortRest(c, d);
    if (c.action == "long_rest") return DecideLongRest(c, d);
    if (c.action == "surge") return DecideSurge(c, d);
    if (FindVerb(c.action) != nullptr) return DeclareAct(c, d);
    return absl::InvalidArgumentError(absl::StrCat(
        "command: field 'action': unknown action '", c.action,
        "' for ruleset energy_rounds (see kernel/energy_rounds/README.md)"));
  }
};

}  // namespace

const Ruleset& EnergyRounds() {
  static const EnergyRoundsRuleset* r = new EnergyRoundsRuleset();
  return *r;
}

}  // namespace combat::kernel::energy
