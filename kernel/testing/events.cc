#include "kernel/testing/events.h"

#include "absl/strings/str_cat.h"

namespace combat::kernel::testing {
namespace {

const fb::StateChange* ChangeOf(const events::EventBuffer& e) {
  const fb::Event& ev = e.event();
  return ev.body_type() == fb::Body::StateChange ? ev.body_as_StateChange() : nullptr;
}

}  // namespace

std::string LastOutcome(const std::vector<events::EventBuffer>& events, std::string* rule) {
  std::string out;
  for (const auto& e : events) {
    const fb::StateChange* sc = ChangeOf(e);
    if (sc != nullptr && sc->change_type() == fb::Change::WindowClosed &&
        sc->change_as_WindowClosed()->outcome() != nullptr) {
      out = sc->change_as_WindowClosed()->outcome()->str();
      if (rule != nullptr) *rule = sc->rule() != nullptr ? sc->rule()->str() : "";
    }
  }
  return out;
}

int64_t NumOf(const std::vector<events::EventBuffer>& events, const std::string& key,
              int64_t otherwise) {
  int64_t v = otherwise;
  for (const auto& e : events) {
    const fb::StateChange* sc = ChangeOf(e);
    if (sc == nullptr || sc->numbers() == nullptr) continue;
    for (const fb::Number* n : *sc->numbers()) {
      if (n->key() != nullptr && n->key()->str() == key) v = n->value();
    }
  }
  return v;
}

bool Cites(const std::vector<events::EventBuffer>& events, const std::string& rule) {
  for (const auto& e : events) {
    const fb::StateChange* sc = ChangeOf(e);
    if (sc != nullptr && sc->rule() != nullptr && sc->rule()->str() == rule) return true;
  }
  return false;
}

std::vector<std::string> UnknownRules(const std::vector<events::EventBuffer>& log,
                                      const std::vector<RuleRef>& table) {
  std::vector<std::string> out;
  for (const auto& e : log) {
    const fb::StateChange* sc = ChangeOf(e);
    if (sc == nullptr) continue;
    const std::string rule = sc->rule() == nullptr ? "" : sc->rule()->str();
    if (rule == "session.start") continue;
    bool known = false;
    for (const RuleRef& r : table) known = known || r.id == rule;
    if (!known) {
      out.push_back(absl::StrCat("seq ", e.event().seq(), " cites unknown rule '", rule, "'"));
    }
  }
  return out;
}

NumberSeen LastNumber(const std::vector<events::EventBuffer>& events, const std::string& key) {
  NumberSeen out;
  for (const auto& e : events) {
    const fb::StateChange* sc = ChangeOf(e);
    if (sc == nullptr || sc->numbers() == nullptr) continue;
    for (const fb::Number* n : *sc->numbers()) {
      if (n->key() == nullptr || n->key()->str() != key) continue;
      out.value = n->value();
      out.source = n->source() == nullptr ? "" : n->source()->str();
      out.rule = n->rule() == nullptr ? "" : n->rule()->str();
    }
  }
  return out;
}

std::pair<std::string, fb::Role> ByRule(const std::vector<events::EventBuffer>& events,
                                         const std::string& rule) {
  std::pair<std::string, fb::Role> out{"(none)", fb::Role::Player};
  for (const auto& e : events) {
    const fb::StateChange* sc = ChangeOf(e);
    if (sc != nullptr && sc->rule() != nullptr && sc->rule()->str() == rule) {
      out = {e.event().author() == nullptr ? "" : e.event().author()->str(), e.event().role()};
    }
  }
  return out;
}

std::vector<std::string> UnsourcedModifiers(
    const std::vector<events::EventBuffer>& log, const std::vector<RuleRef>& table,
    const std::function<bool(const std::string& key)>& is_modifier) {
  std::vector<std::string> out;
  for (const auto& e : log) {
    const fb::StateChange* sc = ChangeOf(e);
    if (sc == nullptr || sc->numbers() == nullptr) continue;
    for (const fb::Number* n : *sc->numbers()) {
      const std::string key = n->key() == nullptr ? "" : n->key()->str();
      const std::string source = n->source() == nullptr ? "" : n->source()->str();
      const std::string rule = n->rule() == nullptr ? "" : n->rule()->str();
      if (is_modifier(key) && source.empty() && rule.empty()) {
        out.push_back(absl::StrCat("seq ", e.event().seq(), " number '", key,
                                   "' names no source nor rule"));
      }
      if (rule.empty()) continue;
      bool known = false;
      for (const RuleRef& r : table) known = known || r.id == rule;
      if (!known) {
        out.push_back(absl::StrCat("seq ", e.event().seq(), " number '", key,
                                   "' cites unknown rule '", rule, "'"));
      }
    }
  }
  return out;
}

}  // namespace combat::kernel::testing
