// Defense rolls (l.314-348): a die that shows its highest face is rolled
// again and added, as long as it keeps showing it (l.320). Advantage and
// Disadvantage apply "every time you would normally roll the die once"
// (l.320): each die of the chain is rolled as 2dNkh1 / 2dNkl1 and the kept
// die decides whether the chain goes on. Without an edge the whole chain
// is one "1dN!" roll (the kernel's exploding notation).
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/dice/notation.h"
#include "kernel/energy_rounds/internal.h"

namespace combat::kernel::energy {

int Edge(int advantages, int disadvantages) {
  if (advantages > 0 && disadvantages > 0) return 0;  // cancel (l.380)
  if (advantages > 0) return 1;
  if (disadvantages > 0) return -1;
  return 0;
}

absl::StatusOr<DefenseRoll> RollDefense(Decision& d, const std::string& who,
                                        int faces, int64_t base, int edge,
                                        const std::string& purpose,
                                        uint64_t cause) {
  DefenseRoll out;
  if (edge == 0) {
    ASSIGN_OR_RETURN(dice::RollResult r,
                     d.Roll(absl::StrCat("1d", faces, "!"), purpose, who, cause));
    for (const fb::DieT& die : r.dice) {
      if (die.exploded) ++out.explosions;
    }
    out.dice_sum = r.total;
    out.rolls = 1;
    out.total = out.dice_sum + base;
    return out;
  }
  const std::string notation = absl::StrCat("2d", faces, edge > 0 ? "kh1" : "kl1");
  for (int i = 0; i <= dice::kMaxExplosions; ++i) {
    ASSIGN_OR_RETURN(dice::RollResult r,
                     d.Roll(notation,
                            i == 0 ? purpose : absl::StrCat(purpose, " (explosion ", i, ")"),
                            who, cause));
    ++out.rolls;
    const int kept = r.natural();
    out.dice_sum += kept;
    if (kept != faces) break;
    if (i < dice::kMaxExplosions) ++out.explosions;
  }
  out.total = out.dice_sum + base;
  return out;
}

absl::StatusOr<int> RollD20(Decision& d, const std::string& who, int edge,
                            const std::string& purpose, uint64_t cause) {
  const char* notation = edge > 0 ? "2d20kh1" : edge < 0 ? "2d20kl1" : "1d20";
  ASSIGN_OR_RETURN(dice::RollResult r, d.Roll(notation, purpose, who, cause));
  return r.natural();
}

int Edges::mode() const {
  return Edge(static_cast<int>(adv.size()), static_cast<int>(dis.size()));
}

void Edges::AddTo(Nums& nums, const std::string& roll) const {
  for (const EdgeSource& e : adv) {
    nums.push_back({absl::StrCat(roll, ".adv.", e.name), 1, e.source, e.rule});
  }
  for (const EdgeSource& e : dis) {
    nums.push_back({absl::StrCat(roll, ".dis.", e.name), 1, e.source, e.rule});
  }
  if (mode() != 0) nums.push_back({roll + "_edge", mode()});
}

namespace {

std::string On(const std::string& name, const Combatant& c) {
  return absl::StrCat(name, " on ", c.id);
}

}  // namespace

Edges EdgeOnDefense(const Combatant& t, bool evasion, const std::string& behind) {
  Edges e;
  auto dis = [&](const char* name, std::string source, const char* rule) {
    e.dis.push_back({name, std::move(source), rule});
  };
  if (evasion && Active(t, "Prone")) dis("prone", On("Prone", t), "002.cond.prone");
  if (evasion && Active(t, "Blinded")) dis("blinded", On("Blinded", t), "002.cond.blinded");
  if (Active(t, "Surprised")) dis("surprised", On("Surprised", t), "002.cond.surprised");
  if (Active(t, "Dazed")) dis("dazed", On("Dazed", t), "002.cond.dazed");
  if (evasion && !behind.empty()) dis("from_behind", behind, "002.facing.behind");  // l.404
  return e;
}

Edges EdgeOnAttack(const Combatant& a) {
  Edges e;
  if (Active(a, "Dazed")) e.dis.push_back({"dazed", On("Dazed", a), "002.cond.dazed"});
  if (Active(a, "Blinded")) {
    e.dis.push_back({"blinded", On("Blinded", a), "002.cond.blinded"});
  }
  return e;
}

Num Declared(const fb::CommandT& c, uint64_t cause, std::string key, int64_t value) {
  if (c.role == fb::Role::GM) {
    return {std::move(key), value, absl::StrCat("ruling #", cause), "002.gm"};
  }
  return {std::move(key), value, absl::StrCat("declared #", cause, " by ", c.author)};
}

bool NoDefenseRoll(const Combatant& t, bool melee, std::string* why) {
  if (t.Has("Asleep")) {
    *why = "asleep (l.346)";
    return true;
  }
  if (Active(t, "FullyRestrained")) {  // an ignored one holds nothing (l.690)
    *why = "fully restrained (l.346)";
    return true;
  }
  if (melee && t.Has("Unconscious")) {
    *why = "unconscious: melee attacks hit automatically (l.653)";
    return true;
  }
  // l.156: "something that cannot defend (such as an inanimate object ...)":
  // it makes no Defense roll against a blow. A shot at it still has its
  // Miss Chance; it only makes no Ranged Evasion roll (l.202, ranged.cc).
  if (melee && t.HasTag("object")) {
    *why = "an inanimate object: it cannot defend (l.156)";
    return true;
  }
  return false;
}

}  // namespace combat::kernel::energy
