// Damage and health (l.115-145). Reading of the order (the text gives
// none): the rolled damage less AR (physical, l.142; "ar_magical" for the
// rare materials of l.141 against magical damage), less BR on a
// successful Block (l.62: BR; magical: half BR rounded up, l.145, which
// names no other exception), less the highest
// resistance, plus the highest vulnerability (l.135-137), never below 0.
// Several armor sources (stats "ar" and "ar.<source>", l.143): one at a
// time, the wearer's choice: the defend param "armor" for this attack, else
// the roster tag "armor:<source>" (standing), else the program chooses for
// the wearer the one that protects most against this damage.
// Resistances and vulnerabilities are stats "resist.<type>" /
// "vuln.<type>" or by group "resist.physical", "resist.magical" (Magic
// Resistance, l.135), "resist.other", each also from several sources
// ("resist.fire.<source>", ...); the highest of all that cover the type
// applies (l.137).
#include <algorithm>
#include <string>

#include "events/status_macros.h"
#include "kernel/arith.h"
#include "kernel/opposed_tests/internal.h"

namespace combat::kernel::opposed {

namespace {
// l.143: several sources of AR ("ar", "ar.<source>"): one at a time, the
// wearer's choice; the program chooses for the wearer the highest.
// `from` (may be null) gets the stat that gives it ("" when none does).
int64_t BestOf(const Combatant& c, const std::string& key, std::string* from = nullptr) {
  int64_t best = c.Stat(key, 0);
  std::string by = c.stats.count(key) > 0 ? key : "";
  const std::string prefix = key + ".";
  for (auto it = c.stats.lower_bound(prefix); it != c.stats.end() && it->first.rfind(prefix, 0) == 0; ++it) {
    if (by.empty() || it->second > best) {
      by = it->first;
      best = std::max(best, it->second);
    }
  }
  if (from != nullptr) *from = by;
  return best;
}

// The higher of two stats' bests (a type's and its group's), and its stat.
int64_t HigherOf(const Combatant& c, const std::string& a, const std::string& b, std::string* from) {
  std::string fa, fb;
  const int64_t va = BestOf(c, a, &fa), vb = BestOf(c, b, &fb);
  *from = va >= vb ? fa : fb;
  return std::max(va, vb);
}

// "resist.fire of orc": the stat of `c` a modifier comes from.
std::string StatOf(const Combatant& c, const std::string& stat) {
  return stat.empty() ? "" : stat + " of " + c.id;
}
}  // namespace

std::string ArmorTag(const Combatant& c) {
  for (const std::string& t : c.tags) {
    if (t.rfind("armor:", 0) == 0) return t.substr(6);
  }
  return "";
}

bool HasArmorSource(const Combatant& c, const std::string& source) {
  if (source == "ar") return true;
  return c.stats.count("ar." + source) > 0 || c.stats.count("ar_magical." + source) > 0;
}

DamageOut ComputeDamage(const Combatant& target, const DamageIn& in) {
  DamageOut out;
  const std::string group = GroupOf(in.type);
  out.nums.push_back({"rolled", in.rolled});
  int64_t ar = 0;
  std::string ar_from;
  const std::string base = group == "physical" ? "ar" : group == "magical" ? "ar_magical" : "";
  const std::string choice = !in.armor.empty() ? in.armor : ArmorTag(target);
  if (!base.empty()) {
    if (choice.empty()) {
      ar = BestOf(target, base, &ar_from);  // the wearer's best choice
    } else {
      ar_from = choice == "ar" ? base : base + "." + choice;
      ar = target.Stat(ar_from, 0);
      out.nums.push_back({"armor_chosen", 1});
    }
  }
  if (ar != 0) out.nums.push_back({"ar", ar, StatOf(target, ar_from), "003.damage.armor"});
  int64_t block = 0;
  if (in.blocked) {
    // l.62: the damage "is reduced by the shield's Block Rating (BR)";
    // l.145 halves it (round up) for magical damage only.
    block = group == "magical" ? CeilDiv(in.br, 2) : in.br;
    out.nums.push_back({"br", in.br, in.shield.empty() ? "" : in.shield + " of " + target.id, "003.damage.shield"});
    out.nums.push_back({"block_reduction", block});
  }
  std::string resist_from, vuln_from;
  const int64_t resist = HigherOf(target, "resist." + in.type, "resist." + group, &resist_from);
  const int64_t vuln = HigherOf(target, "vuln." + in.type, "vuln." + group, &vuln_from);
  if (resist != 0) out.nums.push_back({"resistance", resist, StatOf(target, resist_from), "003.damage.resistance"});
  if (vuln != 0) out.nums.push_back({"vulnerability", vuln, StatOf(target, vuln_from), "003.damage.vulnerability"});
  out.dealt = std::max<int64_t>(0, in.rolled - ar - block - resist + vuln);
  out.nums.push_back({"dealt", out.dealt});
  return out;
}

absl::Status FallUnconscious(Decision& d, const std::string& who, uint64_t cause) {
  if (d.state().Find(who)->Has(kUnconscious)) return absl::OkStatus();
  NewCondition nc;
  nc.actor = who;
  nc.name = kUnconscious;
  nc.source = "health";
  nc.note = "Health Pool at 0 (l.116)";
  RETURN_IF_ERROR(AddCondition(d, nc, {cause, "003.health", {{"health", 0}}}).status());
  return BreakGrapples(d, who, cause);
}

absl::Status ApplyDamage(Decision& d, const std::string& target,
                         const DamageOut& out, uint64_t cause) {
  const int64_t hp = d.state().Find(target)->Resource(kHealth);
  const int64_t loss = std::min(out.dealt, hp);  // reading: never below 0
  Nums nums = out.nums;
  nums.push_back({"health_before", hp});
  if (loss == 0) {
    return RecordOutcome(d, target, {cause, "003.damage", nums,
                                     out.dealt > 0 ? "Health already 0: no further loss (reading: never below 0)"
                                                   : "no damage"});
  }
  ASSIGN_OR_RETURN(int64_t left, AddResource(d, target, kHealth, -loss,
                                             {cause, "003.damage", nums, "damage"}));
  if (left == 0) return FallUnconscious(d, target, cause);
  return absl::OkStatus();
}

}  // namespace combat::kernel::opposed
