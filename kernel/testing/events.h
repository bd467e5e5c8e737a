// Reading a decision's events in ruleset tests: the numbers and rules its
// state changes record, the outcome of the last window.
#ifndef COMBAT_KERNEL_TESTING_EVENTS_H_
#define COMBAT_KERNEL_TESTING_EVENTS_H_

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "events/codec.h"
#include "kernel/ruleset.h"

namespace combat::kernel::testing {

// The outcome of the last WindowClosed in `events` ("" when none); its
// rule in `*rule` when given.
std::string LastOutcome(const std::vector<events::EventBuffer>& events,
                        std::string* rule = nullptr);

// The number `key` of the last state change in `events` that carries it,
// or `otherwise`.
int64_t NumOf(const std::vector<events::EventBuffer>& events, const std::string& key,
              int64_t otherwise = -999);

// Whether some state change in `events` cites `rule`.
bool Cites(const std::vector<events::EventBuffer>& events, const std::string& rule);

// The last number `key` of `events`' state changes, with the source and
// rule it names (schema v7); value -999 and empty texts when none.
struct NumberSeen {
  int64_t value = -999;
  std::string source, rule;
};
NumberSeen LastNumber(const std::vector<events::EventBuffer>& events, const std::string& key);

// The author and role of the last state change of `events` citing `rule`
// ({"(none)", Player} when none): who recorded it, the player, the GM or
// the system (automatic steps).
std::pair<std::string, fb::Role> ByRule(const std::vector<events::EventBuffer>& events,
                                         const std::string& rule);

// "seq N cites unknown rule 'R'" for every state change of `log` (but the
// session's start) whose rule is not in `table`.
std::vector<std::string> UnknownRules(const std::vector<events::EventBuffer>& log,
                                      const std::vector<RuleRef>& table);

// Every number of `log`'s state changes whose key `is_modifier` says is a
// modifier (an advantage, a bonus or penalty, cover, a resistance ...)
// names where it comes from (schema v7, kernel::Num): a `source` or a
// `rule`; and every `rule` a number names is in `table`. One line per
// fault: "seq N number 'dis.cover' names no source nor rule", "seq N
// number 'x' cites unknown rule 'R'".
std::vector<std::string> UnsourcedModifiers(
    const std::vector<events::EventBuffer>& log, const std::vector<RuleRef>& table,
    const std::function<bool(const std::string& key)>& is_modifier);

}  // namespace combat::kernel::testing

#endif  // COMBAT_KERNEL_TESTING_EVENTS_H_
