#include "kernel/command.h"

#include <algorithm>
#include <memory>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "events/nearest.h"

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

void SetParam(fb::CommandT& c, const std::string& key, int64_t value) {
  DropParam(c, key);
  auto p = std::make_unique<fb::ParamT>();
  p->key = key;
  p->value = value;
  c.params.push_back(std::move(p));
}

void DropParam(fb::CommandT& c, const std::string& key) {
  c.params.erase(std::remove_if(c.params.begin(), c.params.end(),
                                [&](const auto& p) { return p && p->key == key; }),
                 c.params.end());
}

namespace {

// The first non-0 `field` of a ref with `key`; `seen` says whether any ref
// had the key.
template <typename T, typename F>
std::optional<T> FindRef(const fb::CommandT& c, const std::string& key, F field,
                         bool* seen = nullptr) {
  for (const auto& r : c.refs) {
    if (!r || r->key != key) continue;
    if (seen != nullptr) *seen = true;
    if (const T v = field(*r); v != 0) return v;
  }
  return std::nullopt;
}

uint64_t SeqOf(const fb::RefT& r) { return r.seq; }
uint32_t WindowOf(const fb::RefT& r) { return r.window; }
uint32_t PendingOf(const fb::RefT& r) { return r.pending; }

template <typename T, typename F>
absl::StatusOr<T> Required(const fb::CommandT& c, const std::string& key,
                           const char* field, F get, const std::string& what) {
  bool seen = false;
  if (auto v = FindRef<T>(c, key, get, &seen); v.has_value()) return *v;
  return absl::InvalidArgumentError(absl::StrCat(
      "command '", c.action, "': refs[key=", key, "]: ",
      seen ? absl::StrCat(field, " is 0; ") : "", "required, ", what));
}

}  // namespace

std::optional<uint64_t> RefSeq(const fb::CommandT& c, const std::string& key) {
  return FindRef<uint64_t>(c, key, SeqOf);
}

std::optional<uint32_t> RefWindow(const fb::CommandT& c, const std::string& key) {
  return FindRef<uint32_t>(c, key, WindowOf);
}

std::optional<uint32_t> RefPending(const fb::CommandT& c,
                                   const std::string& key) {
  return FindRef<uint32_t>(c, key, PendingOf);
}

absl::StatusOr<uint64_t> RequiredRefSeq(const fb::CommandT& c,
                                        const std::string& key,
                                        const std::string& what) {
  return Required<uint64_t>(c, key, "seq", SeqOf, what);
}

absl::StatusOr<uint32_t> RequiredRefWindow(const fb::CommandT& c,
                                           const std::string& key,
                                           const std::string& what) {
  return Required<uint32_t>(c, key, "window", WindowOf, what);
}

absl::StatusOr<uint32_t> RequiredRefPending(const fb::CommandT& c,
                                            const std::string& key,
                                            const std::string& what) {
  return Required<uint32_t>(c, key, "pending", PendingOf, what);
}

fb::CommandT& AddRef(fb::CommandT& c, const std::string& key, uint64_t seq,
                     uint32_t window, uint32_t pending) {
  auto r = std::make_unique<fb::RefT>();
  r->key = key;
  r->seq = seq;
  r->window = window;
  r->pending = pending;
  c.refs.push_back(std::move(r));
  return c;
}

namespace {

// "; did you mean 'aria'? the combatants are: aria, bo, gob".
std::string Known(const State& s, const std::string& id) {
  std::vector<std::string> ids;
  for (const auto& [known, c] : s.combatants) ids.push_back(known);
  return absl::StrCat(events::DidYouMean(id, ids), "; the combatants are: ", absl::StrJoin(ids, ", "));
}

}  // namespace

absl::StatusOr<const Combatant*> Actor(const State& s, const fb::CommandT& c) {
  if (c.actor.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("command '", c.action, "': field 'actor' is required"));
  }
  const Combatant* a = s.Find(c.actor);
  if (a == nullptr) {
    return absl::NotFoundError(
        absl::StrCat("command '", c.action, "': field 'actor': '", c.actor,
                     "' is not in this session", Known(s, c.actor)));
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
    return absl::NotFoundError(absl::StrCat(
        "command '", c.action, "': field 'targets[", i, "]': '", c.targets[i],
        "' is not in this session", Known(s, c.targets[i])));
  }
  return t;
}

std::vector<Pos> PathOf(const fb::CommandT& c) {
  std::vector<Pos> out;
  for (const fb::Pos& p : c.path) out.push_back({p.x(), p.y()});
  return out;
}

namespace {

absl::Status CheckKeys(const fb::CommandT& c, const char* field,
                       const std::vector<std::string>& keys,
                       const std::vector<std::string>& allowed) {
  for (size_t i = 0; i < keys.size(); ++i) {
    const std::string& k = keys[i];
    bool known = false;
    for (const std::string& a : allowed) known = known || a == k;
    if (!known) {
      return absl::InvalidArgumentError(absl::StrCat(
          "command '", c.action, "': ", field, "[", k, "]: unknown ",
          field[0] == 'p' ? "parameter" : "ref", "; '", c.action, "' takes ",
          field, ": ", allowed.empty() ? "none" : absl::StrJoin(allowed, ", ")));
    }
    for (size_t j = 0; j < i && field[0] == 'p'; ++j) {
      if (keys[j] == k) {
        return absl::InvalidArgumentError(
            absl::StrCat("command '", c.action, "': ", field, "[", k,
                         "]: given twice; give each key once"));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckTakes(const fb::CommandT& c, const Takes& takes) {
  std::vector<std::string> keys;
  for (const auto& p : c.params) keys.push_back(p ? p->key : "");
  absl::Status st = CheckKeys(c, "params", keys, takes.params);
  if (!st.ok()) return st;
  keys.clear();
  for (const auto& r : c.refs) keys.push_back(r ? r->key : "");
  return CheckKeys(c, "refs", keys, takes.refs);
}

}  // namespace combat::kernel
