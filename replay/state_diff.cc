#include "replay/state_diff.h"

#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "events/hash.h"
#include "replay/state_text.h"

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
  // Two maps (std::map or IdTable), key by key (absent keys shown as "-").
  template <typename M, typename F>
  void Map(const std::string& prefix, const M& a, const M& b, F describe) {
    using K = typename M::key_type;
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

std::string Weapons(const std::vector<kernel::Weapon>& ws) {
  std::vector<std::string> out;
  for (const kernel::Weapon& w : ws) {
    std::string s = absl::StrCat(w.name, " ", w.damage);
    for (const auto& [k, v] : w.numbers) absl::StrAppend(&s, " ", k, "=", v);
    out.push_back(s);
  }
  return ListText(out);
}

// An open window or pending act: its fields one by one when both states
// have it, else one "open" field with the fields joined ("-" = absent).
template <typename M, typename F>
void DiffOpen(Differ& d, const std::string& scope, const M& a, const M& b, F fields) {
  using K = typename M::key_type;
  std::set<K> ids;
  for (const auto& [id, v] : a) ids.insert(id);
  for (const auto& [id, v] : b) ids.insert(id);
  for (const K& id : ids) {
    d.Scope(absl::StrCat(scope, id));
    auto ia = a.find(id);
    auto ib = b.find(id);
    if (ia == a.end() || ib == b.end()) {
      d.Field("open", ia == a.end() ? kAbsent : JoinFields(fields(ia->second)),
              ib == b.end() ? kAbsent : JoinFields(fields(ib->second)));
      continue;
    }
    const Fields fa = fields(ia->second);
    const Fields fb = fields(ib->second);
    for (size_t i = 0; i < fa.size() && i < fb.size(); ++i) {
      d.Field(fa[i].first, fa[i].second, fb[i].second);
    }
  }
}

std::string MapText(const kernel::MapState& m) {
  return absl::StrCat(m.width, "x", m.height, ", ", m.terrain.size(), " terrain cells",
                      m.square == 0 ? "" : absl::StrCat(", squares of ", m.square),
                      m.unit == fb::DistanceUnit::Feet && m.square == 0
                          ? ""
                          : absl::StrCat(" ", fb::EnumNameDistanceUnit(m.unit)));
}

void DiffCombatant(Differ& d, const kernel::Combatant& a,
                   const kernel::Combatant& b) {
  d.Field("side", a.side, b.side);
  d.Field("name", a.name, b.name);
  d.Field("at", Pos(a.at), Pos(b.at));
  d.Num("size", a.size, b.size);
  d.Field("controller", a.controller, b.controller);
  d.Field("player", a.player, b.player);
  d.Field("tags", ListText(a.tags), ListText(b.tags));
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
    parts.push_back(absl::StrCat("until ", ExpiryText(c.expiry)));
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
  d.Field("turn members", ListText(a.active_members), ListText(b.active_members));
  d.Field("order", OrderText(a.order), OrderText(b.order));
  d.Field("acted", ListText(a.acted), ListText(b.acted));
  d.Field("ended", a.ended ? absl::StrCat("yes: ", a.end_reason) : "no",
          b.ended ? absl::StrCat("yes: ", b.end_reason) : "no");
  d.Field("voided", SeqsText(a.voided), SeqsText(b.voided));
  d.Field("unapplied", SeqsText(a.unapplied), SeqsText(b.unapplied));
  d.Field("dice seed revealed", Bool(!a.revealed_seed.empty()),
          Bool(!b.revealed_seed.empty()));
  d.Num("next roll index", a.next_roll_index, b.next_roll_index);
  d.Num("next condition id", a.next_condition_id, b.next_condition_id);
  d.Num("next window id", a.next_window_id, b.next_window_id);
  d.Num("last pending id", a.last_pending_id, b.last_pending_id);
  d.Field("title", a.title, b.title);
  d.Field("map", MapText(a.map), MapText(b.map));
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
  std::set<std::string> owners;
  for (const auto& [owner, p] : a.pools) owners.insert(owner);
  for (const auto& [owner, p] : b.pools) owners.insert(owner);
  for (const std::string& owner : owners) {
    d.Scope(absl::StrCat("pool ", owner));
    static const std::map<std::string, int64_t> kNone;
    auto ia = a.pools.find(owner);
    auto ib = b.pools.find(owner);
    d.Map("", ia == a.pools.end() ? kNone : ia->second,
          ib == b.pools.end() ? kNone : ib->second,
          [](int64_t v) { return absl::StrCat(v); });
  }
  DiffOpen(d, "window ", a.windows, b.windows, WindowFields);
  // The entries as stored (a difference of what replay decides on).
  DiffOpen(d, "pending #", a.pending, b.pending,
           [](const kernel::PendingAct& p) { return PendingFields(p); });
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
