#include "kernel/command.h"

#include "absl/strings/str_cat.h"

namespace combat::kernel {

std::optional<int64_t> Param(const fb::CommandT& c, const std::string& key) {
  for (const auto& p : c.params) {
    if (p && p->key == key) return p->value;
  }
  return std::nullopt;
}

int64_t ParamOr(const fb::CommandT& c, const std::string& key,
                int64_t otherwise) {
  return Param(c, key).value_or(otherwise);
}

std::string ParamText(const fb::CommandT& c, const std::string& key) {
  for (const auto& p : c.params) {
    if (p && p->key == key) return p->text;
  }
  return "";
}

bool HasParam(const fb::CommandT& c, const std::string& key) {
  for (const auto& p : c.params) {
    if (p && p->key == key) return true;
  }
  return false;
}

absl::StatusOr<const Combatant*> Actor(const State& s, const fb::CommandT& c) {
  if (c.actor.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("command '", c.action, "': field 'actor' is required"));
  }
  const Combatant* a = s.Find(c.actor);
  if (a == nullptr) {
    return absl::NotFoundError(
        absl::StrCat("command '", c.action, "': actor '", c.actor,
                     "' is not in this session"));
  }
  return a;
}

absl::StatusOr<const Combatant*> Target(const State& s, const fb::CommandT& c,
                                        size_t i) {
  if (c.targets.size() <= i) {
    return absl::InvalidArgumentError(absl::StrCat(
        "command '", c.action, "': field 'targets' needs ", i + 1,
        " entr", i == 0 ? "y" : "ies"));
  }
  const Combatant* t = s.Find(c.targets[i]);
  if (t == nullptr) {
    return absl::NotFoundError(absl::StrCat("command '", c.action,
                                            "': target '", c.targets[i],
                                            "' is not in this session"));
  }
  return t;
}

std::vector<Pos> PathOf(const fb::CommandT& c) {
  std::vector<Pos> out;
  for (const fb::Pos& p : c.path) out.push_back({p.x(), p.y()});
  return out;
}

}  // namespace combat::kernel
