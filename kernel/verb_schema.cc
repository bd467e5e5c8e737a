#include "kernel/verb_schema.h"

#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "events/nearest.h"

namespace combat::kernel {
namespace {

// The kernel's own parameters, taken by every verb (kernel/session.h):
// dice_override (the GM's dice) and digital_rest (0 or 1).
constexpr char kDiceOverride[] = "dice_override";
constexpr char kDigitalRest[] = "digital_rest";

absl::Status Bad(const fb::CommandT& c, const std::string& field,
                 const std::string& why) {
  return absl::InvalidArgumentError(
      absl::StrCat("command '", c.action, "': field '", field, "': ", why));
}

bool KeyMatches(const std::string& spec, const std::string& key) {
  if (absl::EndsWith(spec, "*")) {
    return absl::StartsWith(key, spec.substr(0, spec.size() - 1)) &&
           key.size() >= spec.size();
  }
  return spec == key;
}

const ParamSpec* FindParam(const VerbSchema& v, const std::string& key) {
  for (const ParamSpec& p : v.params) {
    if (KeyMatches(p.key, key)) return &p;
  }
  return nullptr;
}

std::vector<std::string> ParamKeys(const VerbSchema& v) {
  std::vector<std::string> keys;
  for (const ParamSpec& p : v.params) keys.push_back(p.key);
  return keys;
}

std::vector<std::string> RefKeys(const VerbSchema& v) {
  std::vector<std::string> keys;
  for (const RefSpec& r : v.refs) keys.push_back(r.key);
  return keys;
}

std::string Takes(const std::vector<std::string>& keys) {
  return keys.empty() ? "none" : absl::StrJoin(keys, ", ");
}

absl::Status CheckUse(const fb::CommandT& c, const char* field, Use use,
                      bool given) {
  if (use == Use::kNo && given) {
    return Bad(c, field, absl::StrCat("'", c.action, "' does not take ", field));
  }
  if (use == Use::kRequired && !given) return Bad(c, field, "required");
  return absl::OkStatus();
}

absl::Status CheckParam(const fb::CommandT& c, const VerbSchema& v,
                        const fb::ParamT& p) {
  const std::string field = "params." + p.key;
  if (p.key == kDiceOverride) return absl::OkStatus();
  if (p.key == kDigitalRest) {
    if (!p.text.empty() || (p.value != 0 && p.value != 1)) {
      return Bad(c, field, "0 or 1 (1: digital dice for the rest)");
    }
    return absl::OkStatus();
  }
  const ParamSpec* spec = FindParam(v, p.key);
  if (spec == nullptr) {
    return Bad(c, field,
               absl::StrCat("unknown parameter", events::DidYouMean(p.key, ParamKeys(v)),
                            "; '", c.action, "' takes params: ",
                            Takes(ParamKeys(v))));
  }
  switch (spec->type) {
    case ParamType::kText:
      if (p.text.empty()) {
        return Bad(c, field, absl::StrCat("text expected (", TypeName(*spec), ")"));
      }
      if (!spec->allowed.empty()) {
        for (const std::string& a : spec->allowed) {
          if (a == p.text) return absl::OkStatus();
        }
        return Bad(c, field,
                   absl::StrCat("'", p.text, "' is not allowed",
                                events::DidYouMean(p.text, spec->allowed),
                                "; one of: ", absl::StrJoin(spec->allowed, ", ")));
      }
      return absl::OkStatus();
    case ParamType::kInt:
    case ParamType::kNonNeg:
    case ParamType::kFlag:
      if (!p.text.empty()) {
        return Bad(c, field,
                   absl::StrCat("a number expected, not text (", TypeName(*spec), ")"));
      }
      if (spec->type == ParamType::kFlag && p.value != 0 && p.value != 1) {
        return Bad(c, field, "0 or 1");
      }
      if (spec->type == ParamType::kNonNeg && p.value < 0) {
        return Bad(c, field, "must be >= 0");
      }
      return absl::OkStatus();
  }
  return absl::OkStatus();
}

}  // namespace

const VerbSchema* FindVerb(const std::vector<VerbSchema>& verbs,
                           const std::string& verb) {
  for (const VerbSchema& v : verbs) {
    if (v.verb == verb) return &v;
  }
  return nullptr;
}

absl::Status CheckCommand(const std::vector<VerbSchema>& verbs,
                          const fb::CommandT& c) {
  const VerbSchema* v = FindVerb(verbs, c.action);
  if (v == nullptr) {
    std::vector<std::string> names;
    for (const VerbSchema& s : verbs) names.push_back(s.verb);
    return absl::InvalidArgumentError(absl::StrCat(
        "field 'action': unknown action '", c.action, "'",
        events::DidYouMean(c.action, names), "; the actions are: ", absl::StrJoin(names, ", ")));
  }
  if (absl::Status st = CheckUse(c, "actor", v->actor, !c.actor.empty()); !st.ok()) {
    return st;
  }
  if (absl::Status st = CheckUse(c, "targets", v->targets, !c.targets.empty());
      !st.ok()) {
    return st;
  }
  if (absl::Status st = CheckUse(c, "weapon", v->weapon, !c.weapon.empty()); !st.ok()) {
    return st;
  }
  if (absl::Status st = CheckUse(c, "path", v->path, !c.path.empty()); !st.ok()) {
    return st;
  }
  for (size_t i = 0; i < c.params.size(); ++i) {
    if (!c.params[i]) continue;
    const fb::ParamT& p = *c.params[i];
    for (size_t j = 0; j < i; ++j) {
      if (c.params[j] && c.params[j]->key == p.key) {
        return Bad(c, "params." + p.key, "given twice; give each key once");
      }
    }
    if (absl::Status st = CheckParam(c, *v, p); !st.ok()) return st;
  }
  for (const ParamSpec& spec : v->params) {
    if (!spec.required) continue;
    bool given = false;
    for (const auto& p : c.params) given = given || (p && KeyMatches(spec.key, p->key));
    if (!given) {
      return Bad(c, "params." + spec.key,
                 absl::StrCat("required (", TypeName(spec),
                              spec.doc.empty() ? "" : ": " + spec.doc, ")"));
    }
  }
  for (const auto& r : c.refs) {
    if (!r) continue;
    bool known = false;
    for (const RefSpec& spec : v->refs) known = known || spec.key == r->key;
    if (!known) {
      return Bad(c, "refs." + r->key,
                 absl::StrCat("unknown ref", events::DidYouMean(r->key, RefKeys(*v)), "; '",
                              c.action, "' takes refs: ", Takes(RefKeys(*v))));
    }
  }
  for (const RefSpec& spec : v->refs) {
    if (!spec.required) continue;
    bool given = false;
    for (const auto& r : c.refs) given = given || (r && r->key == spec.key);
    if (!given) {
      return Bad(c, "refs." + spec.key,
                 absl::StrCat("required", spec.doc.empty() ? "" : ": " + spec.doc));
    }
  }
  return absl::OkStatus();
}

std::string TypeName(const ParamSpec& p) {
  switch (p.type) {
    case ParamType::kInt:
      return "int";
    case ParamType::kNonNeg:
      return "int >= 0";
    case ParamType::kFlag:
      return "0 or 1";
    case ParamType::kText:
      return p.allowed.empty() ? "text"
                               : absl::StrCat("text: ", absl::StrJoin(p.allowed, " | "));
  }
  return "int";
}

fb::CommandT Skeleton(const VerbSchema& schema, const std::string& actor) {
  fb::CommandT c;
  c.action = schema.verb;
  if (schema.actor != Use::kNo) c.actor = actor;
  for (const ParamSpec& spec : schema.params) {
    if (!spec.required || absl::EndsWith(spec.key, "*")) continue;
    auto p = std::make_unique<fb::ParamT>();
    p->key = spec.key;
    if (spec.type == ParamType::kText) {
      p->text = spec.allowed.empty() ? "" : spec.allowed.front();
    }
    c.params.push_back(std::move(p));
  }
  return c;
}

std::vector<VerbSchema> GmVerbSchemas(const std::vector<std::string>& conditions) {
  const std::string reason = "the GM's reason goes in `text`";
  std::vector<VerbSchema> v;
  {
    VerbSchema s{"gm_adjust", "add delta to a resource (" + reason + ")", "", true};
    s.params = {{"resource", ParamType::kText, true, {}, "the resource's name"},
                {"delta", ParamType::kInt, true, {}, "the change"}};
    v.push_back(std::move(s));
  }
  {
    VerbSchema s{"gm_set", "set a resource to a value", "", true};
    s.params = {{"resource", ParamType::kText, true, {}, "the resource's name"},
                {"value", ParamType::kInt, true, {}, "the new value"}};
    v.push_back(std::move(s));
  }
  {
    VerbSchema s{"gm_condition", "add or remove a condition", "", true};
    s.params = {{"name", ParamType::kText, true, conditions, "the condition"},
                {"op", ParamType::kText, true, {"add", "remove"}, "add or remove"},
                {"level", ParamType::kInt, false, {}, "its level or value"},
                {"rounds", ParamType::kNonNeg, false, {}, "how many rounds it lasts"},
                {"expires", ParamType::kText, false,
                 {"turn_start", "round_start", "round_end"},
                 "when in the round it ends (default: where the ruleset's text "
                 "says how durations in rounds count, as it counts them (its "
                 "README); else the actor's turn start when a turn is running, "
                 "else round start)"},
                {"relative_to", ParamType::kText, false, {},
                 "the creature a subjective condition is against"},
                {"source", ParamType::kText, false, {}, "who or what imposes it"},
                {"note", ParamType::kText, false, {}, "a note"}};
    v.push_back(std::move(s));
  }
  {
    VerbSchema s{"gm_move", "forced movement along a path", "", true};
    s.path = Use::kRequired;
    v.push_back(std::move(s));
  }
  {
    VerbSchema s{"gm_end", "end the session (the reason in text)", "", true};
    s.actor = Use::kNo;
    v.push_back(std::move(s));
  }
  {
    VerbSchema s{"gm_note", "a ruling with no state change", "", true};
    s.actor = Use::kNo;
    s.params = {{"kind", ParamType::kText, true, {}, "allow, deny, resolve ..."}};
    s.refs = {{"subject", false, "the event ruled on"}};
    v.push_back(std::move(s));
  }
  {
    VerbSchema s{"gm_void", "void an event and everything it caused", "", true};
    s.actor = Use::kNo;
    s.refs = {{"subject", true, "the seq of the event to void"}};
    v.push_back(std::move(s));
  }
  {
    VerbSchema s{"gm_reveal", "reveal the dice secret", "", true};
    s.actor = Use::kNo;
    s.params = {{"secret", ParamType::kText, true, {}, "the secret, 64 hex digits"},
                {"next_commitment", ParamType::kText, false, {},
                 "SHA-256 of a fresh secret, 64 hex digits (before the end; "
                 "combat reveal draws and stores it)"}};
    v.push_back(std::move(s));
  }
  {
    VerbSchema s{"gm_order", "set or reorder the turn order", "", true};
    s.actor = Use::kNo;
    s.targets = Use::kRequired;
    s.params = {{"*", ParamType::kInt, false, {}, "<combatant id>: its initiative"}};
    v.push_back(std::move(s));
  }
  return v;
}

}  // namespace combat::kernel
