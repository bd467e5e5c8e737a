#include "replay/state_diff.h"

#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "events/hash.h"

namespace combat::replay {
namespace {

constexpr char kAbsent[] = "-";

class Differ {
 public:
  explicit Differ(std::vector<FieldDiff>* out) : out_(out) {}
  void Scope(std::string scope) { scope_ = std::move(scope); }
  void Field(const std::string& field, const std::string& a,
             const std::string& b) {
    if (a != b) out_->push_back({scope_, field, a, b});
  }
  template <typename T>
  void Num(const std::string& field, T a, T b) {
    if (a != b) out_->push_back({scope_, field, absl::StrCat(a), absl::StrCat(b)});
  }
  // Two maps, key by key (absent keys shown as "-").
  template <typename K, typename V, typename F>
  void Map(const std::string& prefix, const std::map<K, V>& a,
           const std::map<K, V>& b, F describe) {
    std::set<K> keys;
    for (const auto& [k, v] : a) keys.insert(k);
    for (const auto& [k, v] : b) keys.insert(k);
    for (const K& k : keys) {
      auto ia = a.find(k);
      auto ib = b.find(k);
      Field(absl::StrCat(prefix, k),
            ia == a.end() ? kAbsent : describe(ia->second),
            ib == b.end() ? kAbsent : describe(ib->second));
    }
  }

 private:
  std::vector<FieldDiff>* out_;
  std::string scope_;
};

std::string Bool(bool b) { return b ? "yes" : "no"; }

std::string Pos(const kernel::Pos& p) { return absl::StrCat("(", p.x, ",", p.y, ")"); }

std::string Seqs(const std::vector<uint64_t>& v) {
  if (v.empty()) return "none";
  std::vector<std::string> s;
  for (uint64_t x : v) s.push_back(absl::StrCat("#", x));
  return absl::StrJoin(s, " ");
}

std::string Order(const std::vector<kernel::OrderEntry>& order) {
  if (order.empty()) return "none";
  std::vector<std::string> e;
  for (const kernel::OrderEntry& o : order) {
    e.push_back(absl::StrCat(o.actor, "(", o.initiative,
                             o.delayed ? ", delayed" : "", ")"));
  }
  return absl::StrJoin(e, " > ");
}

std::string List(const std::vector<std::string>& v) {
  return v.empty() ? "none" : absl::StrJoin(v, ", ");
}

std::string Weapons(const std::vector<kernel::Weapon>& ws) {
  std::vector<std::string> out;
  for (const kernel::Weapon& w : ws) {
    std::string s = absl::StrCat(w.name, " ", w.damage);
    for (const auto& [k, v] : w.numbers) absl::StrAppend(&s, " ", k, "=", v);
    out.push_back(s);
  }
  return List(out);
}

std::string WindowDesc(const kernel::Window& w) {
  return absl::StrCat(w.kind, " on #", w.trigger, ", waiting for ",
                      List(w.eligible), "; answered: ", List(w.answered));
}

void DiffCombatant(Differ& d, const kernel::Combatant& a,
                   const kernel::Combatant& b) {
  d.Field("side", a.side, b.side);
  d.Field("name", a.name, b.name);
  d.Field("at", Pos(a.at), Pos(b.at));
  d.Num("size", a.size, b.size);
  d.Field("controller", a.controller, b.controller);
  d.Field("tags", List(a.tags), List(b.tags));
  d.Map("stat ", a.stats, b.stats, [](int64_t v) { return absl::StrCat(v); });
  d.Field("weapons", Weapons(a.weapons), Weapons(b.weapons));
  d.Map("", a.resources, b.resources, [](int64_t v) { return absl::StrCat(v); });
  d.Map("condition #", a.conditions, b.conditions, DescribeCondition);
}

}  // namespace

std::string DescribeCondition(const kernel::Condition& c) {
  std::string out = c.name;
  std::vector<std::string> parts;
  if (!c.source.empty()) parts.push_back(absl::StrCat("from ", c.source));
  if (!c.relative_to.empty()) parts.push_back(absl::StrCat("vs ", c.relative_to));
  if (c.level != 0) parts.push_back(absl::StrCat("level ", c.level));
  if (c.expiry.kind != fb::ExpiryKind::Never) {
    parts.push_back(absl::StrCat(
        "until ", fb::EnumNameExpiryKind(c.expiry.kind),
        c.expiry.actor.empty() ? "" : absl::StrCat(" of ", c.expiry.actor),
        " round ", c.expiry.round));
  }
  if (c.parent != 0) parts.push_back(absl::StrCat("daughter of #", c.parent));
  if (!parts.empty()) absl::StrAppend(&out, " (", absl::StrJoin(parts, ", "), ")");
  return out;
}

std::vector<FieldDiff> DiffStates(const kernel::State& a,
                                  const kernel::State& b, bool include_seq) {
  std::vector<FieldDiff> out;
  Differ d(&out);
  d.Scope("");
  d.Field("session", a.session, b.session);
  d.Field("ruleset", absl::StrCat(a.ruleset, " v", a.ruleset_version),
          absl::StrCat(b.ruleset, " v", b.ruleset_version));
  if (include_seq) d.Num("seq", a.seq, b.seq);
  d.Num("round", a.round, b.round);
  d.Field("active", a.active.empty() ? kAbsent : a.active,
          b.active.empty() ? kAbsent : b.active);
  d.Field("order", Order(a.order), Order(b.order));
  d.Field("acted", List(a.acted), List(b.acted));
  d.Field("ended", a.ended ? absl::StrCat("yes: ", a.end_reason) : "no",
          b.ended ? absl::StrCat("yes: ", b.end_reason) : "no");
  d.Field("voided", Seqs(a.voided), Seqs(b.voided));
  d.Field("unapplied", Seqs(a.unapplied), Seqs(b.unapplied));
  d.Field("dice seed revealed", Bool(!a.revealed_seed.empty()),
          Bool(!b.revealed_seed.empty()));
  d.Num("next roll index", a.next_roll_index, b.next_roll_index);
  d.Num("next condition id", a.next_condition_id, b.next_condition_id);
  d.Num("next window id", a.next_window_id, b.next_window_id);
  d.Field("title", a.title, b.title);
  d.Field("map", absl::StrCat(a.map.width, "x", a.map.height, ", ",
                              a.map.terrain.size(), " terrain cells"),
          absl::StrCat(b.map.width, "x", b.map.height, ", ",
                       b.map.terrain.size(), " terrain cells"));
  d.Field("dice commitment", events::Hex(a.dice_commitment),
          events::Hex(b.dice_commitment));

  std::set<std::string> ids;
  for (const auto& [id, c] : a.combatants) ids.insert(id);
  for (const auto& [id, c] : b.combatants) ids.insert(id);
  for (const std::string& id : ids) {
    d.Scope(id);
    auto ia = a.combatants.find(id);
    auto ib = b.combatants.find(id);
    if (ia == a.combatants.end() || ib == b.combatants.end()) {
      d.Field("present", ia == a.combatants.end() ? "no" : "yes",
              ib == b.combatants.end() ? "no" : "yes");
      continue;
    }
    DiffCombatant(d, ia->second, ib->second);
  }
  std::set<uint32_t> windows;
  for (const auto& [id, w] : a.windows) windows.insert(id);
  for (const auto& [id, w] : b.windows) windows.insert(id);
  for (uint32_t id : windows) {
    d.Scope(absl::StrCat("window ", id));
    auto ia = a.windows.find(id);
    auto ib = b.windows.find(id);
    d.Field("open", ia == a.windows.end() ? kAbsent : WindowDesc(ia->second),
            ib == b.windows.end() ? kAbsent : WindowDesc(ib->second));
  }
  return out;
}

std::string RenderDiffs(const std::vector<FieldDiff>& diffs,
                        absl::string_view arrow, absl::string_view indent) {
  if (diffs.empty()) return absl::StrCat(indent, "(no difference)\n");
  size_t width = 7;  // "session"
  for (const FieldDiff& f : diffs) width = std::max(width, f.scope.size());
  std::string out;
  std::string last = "\x01";
  for (const FieldDiff& f : diffs) {
    std::string scope = f.scope == last ? "" : (f.scope.empty() ? "session" : f.scope);
    last = f.scope;
    absl::StrAppend(&out, indent, scope, std::string(width - scope.size() + 2, ' '),
                    f.field, ": ", f.a, arrow, f.b, "\n");
  }
  return out;
}

}  // namespace combat::replay
