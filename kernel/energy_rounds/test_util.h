// Roster builders and event readers for the energy_rounds unit tests.
#ifndef COMBAT_KERNEL_ENERGY_ROUNDS_TEST_UTIL_H_
#define COMBAT_KERNEL_ENERGY_ROUNDS_TEST_UTIL_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "events/codec.h"
#include "events/input_generated.h"
#include "gtest/gtest.h"
#include "kernel/energy_rounds/internal.h"
#include "kernel/energy_rounds/ruleset.h"
#include "kernel/testing/events.h"
#include "kernel/testing/roster.h"
#include "kernel/testing/table.h"

namespace combat::kernel::energy::testutil {

using kernel::testing::Cmd;
using kernel::testing::Table;
using kernel::testing::With;
using kernel::testing::WithText;

using kernel::testing::Stats;

// Roster and command builders (kernel/testing): a weapon with numbers and a
// damage type, a combatant with stats, weapons and tags, a roster of this
// ruleset, a GM command, a path.
inline fb::WeaponT W(const std::string& name, const std::string& damage,
                     const std::string& kind, const std::string& category,
                     Stats numbers = {}, const std::string& type = "slashing") {
  return kernel::testing::WeaponWith(name, damage, kind, category, std::move(numbers), type);
}
inline fb::CombatantSpecT Who(const std::string& id, const std::string& side,
                              int x, int y, Stats stats,
                              std::vector<fb::WeaponT> weapons = {},
                              std::vector<std::string> tags = {}) {
  // Played by a player of the same name (schema 7, kernel/authority.h):
  // Cmd(id, ...) is that player's command.
  fb::CombatantSpecT c = kernel::testing::Creature(
      id, side, x, y, std::move(stats), std::move(weapons), std::move(tags));
  c.player = id;
  return c;
}
inline fb::RosterT Roster(std::vector<fb::CombatantSpecT> cs, int w = 20, int h = 20) {
  return kernel::testing::MakeRoster("energy_rounds", std::move(cs), w, h);
}
inline fb::CommandT Gm(const std::string& action, const std::string& actor = "",
                       const std::string& text = "ruling") {
  return kernel::testing::GmCmd(action, actor, text);
}
// The GM's command giving `who` the condition `name` (l.662-686), with its
// numbers ("rounds": how many Rounds, reading 39; "level": a DC or a level)
// and its source ("nonlethal", "environment", ...) when the test needs them.
inline fb::CommandT GmAdds(const std::string& who, const std::string& name,
                           Stats numbers = {}, const std::string& source = "") {
  fb::CommandT g = Gm("gm_condition", who);
  WithText(g, "name", name);
  WithText(g, "op", "add");
  if (!source.empty()) WithText(g, "source", source);
  for (const auto& [key, value] : numbers) With(g, key, value);
  return g;
}
inline fb::CommandT& Path(fb::CommandT& c, std::vector<std::pair<int, int>> squares) {
  return kernel::testing::WithPath(c, std::move(squares));
}

inline fb::CommandT& Now(fb::CommandT& c) { return With(c, "at_once", 1); }

using kernel::testing::Cites;
using kernel::testing::LastOutcome;
using kernel::testing::NumOf;

// Every state change after set-up cites a rule of the table.
inline void ExpectRulesKnown(const std::vector<events::EventBuffer>& log) {
  for (const std::string& unknown : kernel::testing::UnknownRules(log, RuleTable())) {
    ADD_FAILURE() << unknown;
  }
}

// The rules cited by the changes (set or changed) of `who`'s resource
// `name` in `events`, in order.
inline std::vector<std::string> RulesOfResource(const std::vector<events::EventBuffer>& events,
                                                const std::string& who,
                                                const std::string& name) {
  std::vector<std::string> rules;
  for (const events::EventBuffer& e : events) {
    if (e.event().body_type() != fb::Body::StateChange) continue;
    const fb::StateChange* sc = e.event().body_as_StateChange();
    const flatbuffers::String* actor = nullptr;
    const flatbuffers::String* res = nullptr;
    if (const auto* set = sc->change_as_ResourceSet()) {
      actor = set->actor();
      res = set->name();
    } else if (const auto* ch = sc->change_as_ResourceChanged()) {
      actor = ch->actor();
      res = ch->name();
    }
    if (actor == nullptr || res == nullptr || actor->str() != who || res->str() != name) continue;
    rules.push_back(sc->rule() == nullptr ? "" : sc->rule()->str());
  }
  return rules;
}

inline int CountCond(const Combatant& c, const std::string& name) {
  int n = 0;
  for (const auto& [id, k] : c.conditions) n += k.name == name;
  return n;
}

}  // namespace combat::kernel::energy::testutil

#endif  // COMBAT_KERNEL_ENERGY_ROUNDS_TEST_UTIL_H_
