// THE test mechanics of this ruleset, in one place (README "The test
// mechanics"). The text names tests ("a Fighting Style test using
// Strength", l.51; "a Dodge test", l.52), Successes ("Compare Successes",
// l.61), boons and banes (l.68, l.76, l.100), bonuses and penalties (-2,
// l.99; +2, l.91; -5/+5, l.88) and passing or failing (l.59-60), but not
// how a test is rolled. Reading:
//   - a test rolls a pool of d`faces` (default d6): one die per point of
//     the skill's rating plus one per point of the governing attribute
//     (stats named after them: "fighting_style" + "str");
//   - a bonus or penalty of n adds or removes n dice (l.91, l.99, l.87);
//   - boons and banes cancel one for one; a net boon adds `boon_dice` dice
//     per boon, a net bane removes as many;
//   - each die showing `success_at` or more (default 5) is a Success; the
//     test passes with `pass_at` Successes (default 1);
//   - a pool of 0 dice or fewer fails without a roll; "automatically
//     pass/fail" (l.56, l.76-77, l.89) decide without a roll.
// A session's set-up changes the numbers: roster stats test_faces,
// test_success_at, test_pass_at, test_boon_dice (recorded as the session
// pools of the same names, so the log says which mechanics were used).
#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/opposed_tests/internal.h"
#include "kernel/opposed_tests/ruleset.h"

namespace combat::kernel::opposed {

TestMechanics MechanicsOf(const State& s) {
  TestMechanics m;
  m.faces = s.Pool("session", "test_faces", m.faces);
  m.success_at = s.Pool("session", "test_success_at", m.success_at);
  m.pass_at = s.Pool("session", "test_pass_at", m.pass_at);
  m.boon_dice = s.Pool("session", "test_boon_dice", m.boon_dice);
  return m;
}

absl::Status CheckMechanics(const TestMechanics& m, const std::string& who) {
  auto bad = [&](const char* f, const char* why) {
    return absl::InvalidArgumentError(absl::StrCat(
        "roster combatant '", who, "': field 'stats.", f, "': ", why, " (",
        Cite("003.test"), ")"));
  };
  if (m.faces < 2 || m.faces > 1000) return bad("test_faces", "2..1000");
  if (m.success_at < 1 || m.success_at > m.faces) {
    return bad("test_success_at", "1..test_faces");
  }
  if (m.pass_at < 1 || m.pass_at > 100) return bad("test_pass_at", "1..100");
  if (m.boon_dice < 0 || m.boon_dice > 10) return bad("test_boon_dice", "0..10");
  return absl::OkStatus();
}

int64_t PoolDice(const State& s, const TestSpec& t, Nums* nums) {
  const Combatant* c = s.Find(t.who);
  const TestMechanics m = MechanicsOf(s);
  const int64_t rating = c == nullptr ? 0 : c->Stat(t.skill, 0);
  const int64_t attr =
      c == nullptr || t.attribute.empty() ? 0 : c->Stat(t.attribute, 0);
  const int net = t.boons - t.banes;
  const int64_t dice = rating + attr + t.modifier + net * m.boon_dice;
  if (nums != nullptr) {
    for (const Num& n : t.parts) nums->push_back(n);
    nums->push_back({t.skill, rating});
    if (!t.attribute.empty()) nums->push_back({t.attribute, attr});
    if (t.modifier != 0) nums->push_back({"modifier", t.modifier});
    if (t.boons != 0) nums->push_back({"boons", t.boons});
    if (t.banes != 0) nums->push_back({"banes", t.banes});
    nums->push_back({"dice", dice});
  }
  return dice;
}

absl::StatusOr<TestResult> RollTest(Decision& d, const TestSpec& t,
                                    uint64_t cause) {
  TestResult r;
  const TestMechanics m = MechanicsOf(d.state());
  if (t.auto_fail || t.auto_pass) {
    r.pass = !t.auto_fail;
    r.successes = r.pass ? m.pass_at : 0;
    for (const Num& n : t.parts) r.nums.push_back(n);
    r.nums.push_back({t.auto_fail ? "automatic_fail" : "automatic_pass", 1});
    return r;
  }
  r.dice = PoolDice(d.state(), t, &r.nums);
  if (r.dice <= 0) {
    r.nums.push_back({"successes", 0});
    return r;  // no dice: fails without a roll
  }
  // Every die of the pool is rolled (was: a pool above 100 dice rolled 100
  // while its numbers said more). The dice notation takes at most 100 dice
  // a term and 8 terms (kernel/dice/notation.h), and a pool's successes add
  // up over its terms: a pool is rolled in terms of 100; more than 800 dice
  // are refused, naming the pool.
  constexpr int64_t kTermDice = 100, kMaxPool = 8 * kTermDice;
  if (r.dice > kMaxPool) {
    return absl::InvalidArgumentError(absl::StrCat(
        t.purpose, " of ", t.who, ": a pool of ", r.dice, " dice (", t.skill,
        t.attribute.empty() ? "" : " + " + t.attribute,
        " + modifiers); the dice source rolls at most ", kMaxPool,
        " dice in one test: lower the roster's stats"));
  }
  std::string notation;
  for (int64_t left = r.dice; left > 0; left -= kTermDice) {
    absl::StrAppend(&notation, notation.empty() ? "" : "+", std::min(left, kTermDice), "d", m.faces, ">=",
                    m.success_at);
  }
  ASSIGN_OR_RETURN(dice::RollResult roll,
                   d.Roll(notation, t.purpose, t.who, cause));
  r.rolled = true;
  r.successes = roll.successes;
  r.pass = r.successes >= m.pass_at;
  r.nums.push_back({"successes", r.successes});
  return r;
}

void AddPrefixed(Nums& to, const std::string& prefix, const Nums& from) {
  for (const Num& n : from) to.push_back({prefix + n.key, n.value, n.source, n.rule});
}

bool IsModifier(const std::string& key) {
  static const char* kKeys[] = {"untrained_weapon", "untrained_gear", "untrained_armor", "flanking", "cover",
                                "feint", "braced", "size", "shield_or_two_handed", "no_defense",
                                "cannot_defend", "resistance", "vulnerability", "ar", "br", "maximized", "ap_cost"};
  const size_t dot = key.rfind('.');
  const std::string last = dot == std::string::npos ? key : key.substr(dot + 1);
  for (const char* k : kKeys) {
    if (last == k) return true;
  }
  return false;
}

ContestResult Contest(const TestResult& a, const TestResult& b, int tie) {
  if (!a.pass && !b.pass) return {0, false};
  if (a.pass != b.pass) return {a.pass ? 1 : 2, true};
  if (a.successes > b.successes) return {1, false};
  if (b.successes > a.successes) return {2, false};
  return {tie, false};
}

}  // namespace combat::kernel::opposed
