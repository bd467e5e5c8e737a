// Conditions with parent/daughter links (l.688) and "ignore until the end of
// the Round" for continually applied ones (l.690).
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/command.h"
#include "kernel/energy_rounds/internal.h"

namespace combat::kernel::energy {
namespace {

// The daughter each condition imposes, by its definition (l.664-686).
const char* DaughterOf(const std::string& name) {
  if (name == "Unguarded") return "Exposed";     // l.680
  if (name == "Surprised") return "Unguarded";   // l.678
  if (name == "Dazed") return "Exposed";         // l.670
  if (name == "Blinded") return "Unguarded";     // l.672
  if (name == "Prone") return "Exposed";         // l.676
  if (name == "Restrained") return "Exposed";    // l.682
  if (name == "Restraining") return "Slowed";    // l.684
  if (name == "FullyRestrained") return "Exposed";  // l.346 as Restrained, l.575, l.682
  if (name == "Unconscious") return "Unguarded"; // l.686
  // l.655-660: "There are many reasons why you may fall unconscious ...
  // Sleep (natural)": the asleep are unconscious (no wake roll: l.660 is
  // the GM's), so Unguarded, hit and Surprised by melee attacks (l.653).
  if (name == "Asleep") return "Unconscious";
  return nullptr;
}

}  // namespace

Expiry EndOfRound(const State& s, int64_t rounds_on) {
  return Expiry{fb::ExpiryKind::RoundEnd, "", s.round + rounds_on};
}
Expiry Forever() { return Expiry{fb::ExpiryKind::Never, "", 0}; }
Expiry OnUse() { return Expiry{fb::ExpiryKind::OnUse, "", 0}; }

namespace {

bool Ignored(const Combatant& c, const std::string& name) {
  for (const auto& [id, cond] : c.conditions) {
    if (cond.name == "Ignoring" && cond.note == name) return true;
  }
  return false;
}

}  // namespace

// l.690 "you still ignore the Condition until the end of the Round": an
// ignored condition imposes nothing, so neither do the daughters it
// imposes (l.688, "if you ended the Daze condition, the Exposed condition
// would also be removed"): a condition is active when one of its
// instances is neither ignored itself nor imposed, through its parents on
// the same creature, by an ignored one.
bool Active(const Combatant& c, const std::string& name) {
  if (!c.Has(name) || Ignored(c, name)) return false;
  for (const auto& [id, cond] : c.conditions) {
    if (cond.name != name) continue;
    bool imposed_by_ignored = false;
    for (uint32_t p = cond.parent; p != 0 && !imposed_by_ignored;) {
      auto it = c.conditions.find(p);
      if (it == c.conditions.end()) break;  // a parent on another creature (a hold)
      imposed_by_ignored = Ignored(c, it->second.name);
      p = it->second.parent;
    }
    if (!imposed_by_ignored) return true;
  }
  return false;
}

bool HasRoot(const Combatant& c, const std::string& name) {
  for (const auto& [id, cond] : c.conditions) {
    if (cond.name == name && cond.parent == 0) return true;
  }
  return false;
}

absl::StatusOr<uint32_t> AddWithDaughters(Decision& d, const Impose& c,
                                          const Why& why) {
  ASSIGN_OR_RETURN(uint32_t id, AddCondition(d, c, why));
  if (const char* daughter = DaughterOf(c.name); daughter != nullptr) {
    Impose child;
    child.actor = c.actor;
    child.name = daughter;
    child.source = c.name;
    child.expiry = Forever();  // it goes with its parent (l.688)
    child.parent = id;
    child.ref = c.ref;
    child.note = absl::StrCat("imposed by ", c.name, " #", id);
    std::string lower = absl::AsciiStrToLower(c.name);
    Why w{why.cause, absl::StrCat("002.cond.", lower), {}, child.note};
    RETURN_IF_ERROR(AddWithDaughters(d, child, w).status());
  }
  if (c.name == "Unconscious" && d.state().Find(c.actor)->Resource(res::kEnergy) != 0) {
    // An unconscious creature has no Energy (l.57), however it fell.
    RETURN_IF_ERROR(SetResource(d, c.actor, res::kEnergy, 0,
                                {why.cause, "002.rounds.energy", {}, "unconscious"}));
  }
  return id;
}

absl::StatusOr<int> LiftRoots(Decision& d, const std::string& actor,
                              const std::string& name, const Why& why) {
  std::vector<uint32_t> roots;
  const Combatant* c = d.state().Find(actor);
  if (c == nullptr) return 0;
  for (const auto& [id, cond] : c->conditions) {
    if (cond.name == name && cond.parent == 0) roots.push_back(id);
  }
  for (uint32_t id : roots) RETURN_IF_ERROR(RemoveCondition(d, actor, id, why));
  return static_cast<int>(roots.size());
}

// `remove_condition`: an ability (or the GM) removes condition `name` from
// the actor. A daughter cannot be removed while its parent holds (l.688,
// l.499), but its parent applies it continually, as a bog applies Slowed:
// l.690 "If you have an ability which removes a Condition that is
// continually applied, you still ignore the Condition until the end of the
// Round" -- so a daughter, like a condition of source "environment" or
// "terrain", stays (Has) and is ignored (not Active) until the Round ends.
absl::Status DecideRemoveCondition(const fb::CommandT& c, Decision& d) {
  const State& s = d.state();
  ASSIGN_OR_RETURN(const Combatant* who, Actor(s, c));
  // `name` is required (verbs.cc); any case, the closed list:
  ASSIGN_OR_RETURN(const std::string name,
                   CanonicalCondition(ParamText(c, "name"),
                                      absl::StrCat("command '", c.action, "': field 'params.name'")));
  const bool gm = c.role == fb::Role::GM;
  if (!gm && !who->HasTag(absl::StrCat("removes:", name))) {
    return Refuse("002.cond.ignore",
                   absl::StrCat(who->id, " has no ability that removes ", name,
                                " (tag 'removes:", name, "'); the GM may"));
  }
  const Condition* cond = who->FindCondition(name);
  if (cond == nullptr) {
    return Refuse("002.cond.ignore", absl::StrCat(who->id, " is not ", name));
  }
  std::vector<uint32_t> roots, ignored;
  for (const auto& [id, k] : who->conditions) {
    if (k.name != name) continue;
    if (k.parent != 0 || k.source == "environment" || k.source == "terrain") {
      ignored.push_back(id);
    } else {
      roots.push_back(id);
    }
  }
  const std::string wid = who->id;
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  for (uint32_t id : roots) {
    RETURN_IF_ERROR(RemoveCondition(d, wid, id,
                                    {decl, "002.cond.daughter", {},
                                     "removed with its daughters"}));
  }
  if (!ignored.empty()) {
    Impose ig;
    ig.actor = wid;
    ig.name = "Ignoring";
    ig.source = gm ? "gm" : wid;
    ig.expiry = EndOfRound(d.state());
    ig.note = name;
    RETURN_IF_ERROR(AddWithDaughters(
        d, ig,
        {decl, "002.cond.ignore", {{"round", d.state().round}},
         absl::StrCat(name, " is continually applied: ignored until the end "
                            "of round ", d.state().round)})
                        .status());
  }
  return absl::OkStatus();
}

namespace {

// Canonical names, sorted. The text's own (l.662-686): Exposed, Shaken,
// Exhausted, Dazed, Blinded, Slowed, Prone, Surprised, Unguarded,
// Restrained, Restraining, Unconscious; named elsewhere: Asleep and Fully
// Restrained (l.346), Bleeding (l.645), Dead (l.641), Kneeling (l.33),
// Defending (l.35); this ruleset's markers (README "Conditions"): ActsFirst,
// Carrying, Dropped, Ignoring, ImmediateInterrupt, InitiativeLost,
// InitiativeWon, Passed, Simultaneous.
constexpr const char* kConditionNames[] = {
    "ActsFirst",   "Asleep",        "Bleeding",       "Blinded",
    "Carrying",    "Dazed",         "Dead",           "Defending",
    "Dropped",     "Exhausted",     "Exposed",        "FullyRestrained",
    "Ignoring",    "ImmediateInterrupt", "InitiativeLost", "InitiativeWon",
    "Kneeling",    "Passed",        "Prone",          "Restrained",
    "Restraining", "SavesInitiative", "Shaken",       "Simultaneous",   "Slowed",
    "Surprised",   "Unconscious",   "Unguarded",
};

std::string Folded(const std::string& name) {
  std::string out;
  for (char ch : name) {
    if (ch == ' ' || ch == '-' || ch == '_') continue;
    out.push_back(static_cast<char>(absl::ascii_tolower(static_cast<unsigned char>(ch))));
  }
  return out;
}

}  // namespace

std::string ConditionNames() {
  std::string out;
  for (const char* n : kConditionNames) {
    if (!out.empty()) out += ", ";
    out += n;
  }
  return out;
}

absl::StatusOr<std::string> CanonicalCondition(const std::string& name,
                                               const std::string& field) {
  const std::string f = Folded(name);
  for (const char* n : kConditionNames) {
    if (Folded(n) == f) return std::string(n);
  }
  return absl::InvalidArgumentError(absl::StrCat(
      field, ": unknown condition '", name, "' for ruleset energy_rounds; the conditions are: ",
      ConditionNames()));
}

}  // namespace combat::kernel::energy
