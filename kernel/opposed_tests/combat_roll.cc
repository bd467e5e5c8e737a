// The combat roll (l.40-64): every attack is one linked exchange.
//
//   strike / use_magic (attack spell) / opportunity_attack  (declared or
//   answered: AP spent, the attack counted)
//     -> a held_back pending act (the attack) and a "defense" window
//        (kernel/window.h, InOrder, eligible: the target) in which the
//        target chooses its defense BEFORE any dice (l.55):
//   defend {defense: block|dodge|parry|withstand|none}  (Interrupt event)
//     -> both tests rolled (attack first), the outcome recorded (l.58-64)
//     -> on a critical win a "maneuver" window nested in the defense window
//        (maneuvers.cc); otherwise damage, the windows close, and what an
//        opportunity window held back resumes (Settle).
// A target that cannot defend (unaware, surprised, unconscious, no AP)
// gets no window: its defense automatically fails (l.56, l.58).
#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/command.h"
#include "kernel/opposed_tests/internal.h"
#include "kernel/pending.h"
#include "kernel/window.h"

namespace combat::kernel::opposed {
namespace {

constexpr char kDefenseWindow[] = "defense";

struct Defense {
  std::string kind = "none";  // block, dodge, parry, withstand, none
  std::string attribute;      // parry: str or agi
};

// l.45 "wielding a weapons or armor not included in your Fighting Style
// imposes a -2 penalty to all Fighting Style tests" (l.99 the same -2 for a
// weapon): once, named by the first untrained item held, else by the
// untrained armor worn (whose bane, l.100, comes on top). `used`: the
// weapon of the test (a natural one counts only then).
void UntrainedPenalty(const Combatant& c, const Weapon* used, TestSpec& t) {
  if (const std::string u = WieldedUntrained(c, used); !u.empty()) {
    t.Bonus("untrained_weapon", -2, u + " of " + c.id, "003.untrained_weapon");
  } else if (c.Stat("untrained_armor", 0) != 0) {
    t.Bonus("untrained_gear", -2, "armor of " + c.id, "003.untrained_gear");
  }
}

// The defenses allowed against `w` (l.51-56).
absl::Status CheckDefenseAllowed(const fb::CommandT& c, const Combatant& def,
                                 const Weapon& w, const Defense& x) {
  if (x.kind == "none" || x.kind == "dodge") return absl::OkStatus();
  if (x.kind == "block") {
    if (FindShield(def) == nullptr) {
      return Refuse("003.defend.block", def.id + " wields no shield: it cannot Block");
    }
    return absl::OkStatus();
  }
  if (x.kind == "parry") {
    // l.53 "Spells and Ranged attacks can't be parried": the ranged kind
    // only; a thrown attack, which l.44 names apart ("a ranged or thrown
    // attack"), can be parried.
    if (w.kind == "ranged") return Refuse("003.defend.parry", "ranged attacks can't be parried");
    if (IsSpell(w) && !Trait(w, "parriable")) {
      return Refuse("003.defend.spells", "attack spells can only be blocked or dodged");
    }
    if (!x.attribute.empty() && x.attribute != "str" && x.attribute != "agi") {
      return Malformed(c, "params.attribute", "parry uses str or agi (l.53)");
    }
    return absl::OkStatus();
  }
  if (x.kind == "withstand") {
    if (!Trait(w, "mind")) {
      return Refuse("003.defend.withstand", "Withstand only defends against abilities that target the mind");
    }
    return absl::OkStatus();
  }
  return Malformed(c, "params.defense", "block, dodge, parry, withstand or none");
}

int64_t MaxOf(const std::string& notation) {
  auto e = dice::ParseDice(notation);
  if (!e.ok()) return 0;
  int64_t total = e->modifier;
  for (const dice::DiceTerm& t : e->terms) {
    const int64_t n = t.keep_high > 0 ? t.keep_high : t.keep_low > 0 ? t.keep_low : t.count;
    total += t.sign * n * t.faces;
  }
  return total;
}

// The open defense window of the attack `cause`, or 0.
uint32_t DefenseWindowOf(const State& s, uint64_t cause) {
  for (const auto& [id, w] : s.windows) {
    if (w.kind == kDefenseWindow && w.trigger == cause) return id;
  }
  return 0;
}

}  // namespace

bool CanDefend(const State& s, const Combatant& c) {
  // l.50 "if it is aware of it": roster tag `unaware` (for the whole
  // encounter) or a condition `Unaware` (gm_condition, for a while).
  return Conscious(c) && !Surprised(s, c) && !c.HasTag("unaware") && !c.Has("Unaware") &&
         c.Resource(kAp) >= ApCost(c, "defend");
}

namespace {

// Why `t` cannot defend (CanDefend false) and the rule that says so: l.116
// unconscious, l.16 surprised ("can't take any actions or reactions"), l.50
// "if it is aware of it", l.24 a reaction's AP.
std::pair<std::string, std::string> CannotDefendWhy(const State& s, const Combatant& t) {
  if (!Conscious(t)) return {"unconscious", "003.health"};
  if (Surprised(s, t)) return {"surprised", "003.surprise"};
  if (t.HasTag("unaware") || t.Has("Unaware")) return {"unaware of the attack", "003.defend"};
  return {"without AP for a reaction", "003.reaction"};
}

}  // namespace

absl::Status OpenAttack(Decision& d, const fb::CommandT& c, uint64_t cause) {
  const Combatant* t = d.state().Find(c.targets[0]);
  if (!CanDefend(d.state(), *t)) {
    // The reason's rule (l.16, l.24, l.50, l.116), not l.56: the target
    // did not decide not to defend.
    const auto [why, rule] = CannotDefendWhy(d.state(), *t);
    RETURN_IF_ERROR(RecordOutcome(d, t->id, {cause, rule, {},
                                             t->id + " cannot defend (" + why + "): automatic failure"}));
    fb::CommandT none;
    none.actor = t->id;
    none.action = "defend";
    return ResolveCombatRoll(d, c, none, cause);
  }
  NewPending np;
  np.kind = kHeldBack;
  np.actor = c.actor;
  np.decl = cause;
  np.command = c;
  ASSIGN_OR_RETURN(uint32_t pending, OpenPending(d, np, {cause, "003.defend", {}, "the attack waits for the defense"}));
  WindowSpec w;
  w.trigger = cause;
  w.kind = kDefenseWindow;
  w.eligible = {t->id};
  w.policy = fb::AnswerPolicy::InOrder;
  w.pay = fb::PayWhen::Before;
  w.pending = pending;
  // Name only the defenses open against this attack (l.51-56).
  std::string allowed;
  const Combatant* attacker = d.state().Find(c.actor);
  const Weapon* weapon = attacker == nullptr ? nullptr : attacker->FindWeapon(c.weapon);
  for (const char* kind : {"block", "dodge", "parry", "withstand"}) {
    Defense x;
    x.kind = kind;
    if (weapon != nullptr && !CheckDefenseAllowed(c, *t, *weapon, x).ok()) continue;
    absl::StrAppend(&allowed, kind, ", ");
  }
  return OpenWindow(d, w, {cause, "003.defend", {},
                           absl::StrCat(t->id, " chooses a defense before the dice (l.55): defend with ",
                                        allowed, "or none")})
      .status();
}

absl::Status ResolveCombatRoll(Decision& d, const fb::CommandT& attack_in,
                               const fb::CommandT& defend, uint64_t cause) {
  // The defender's armor choice for this attack (l.143) travels with the
  // attack to the damage (through the maneuver window's pending act).
  fb::CommandT attack = attack_in;
  if (const std::string armor = ParamText(defend, "armor"); !armor.empty()) {
    auto p = std::make_unique<fb::ParamT>();
    p->key = "armor";
    p->text = armor;
    attack.params.push_back(std::move(p));
  }
  const State& s0 = d.state();
  const Combatant A = *s0.Find(attack.actor);
  const Combatant T = *s0.Find(attack.targets[0]);
  const Weapon W = *A.FindWeapon(attack.weapon);
  Defense x;
  x.kind = ParamText(defend, "defense");
  x.attribute = ParamText(defend, "attribute");
  if (x.kind.empty()) x.kind = "none";
  if (x.kind == "parry" && x.attribute.empty()) {
    // l.53 "using either Strength or Agility": the defender's choice; not
    // stated, the program chooses for it the higher (a tie: Strength).
    x.attribute = T.Stat("agi", 0) > T.Stat("str", 0) ? "agi" : "str";
  }
  const bool spell = IsSpell(W);
  const bool melee = IsMelee(W);
  Nums nums;
  // ---- the attack test (l.44-46)
  TestSpec at;
  at.who = A.id;
  at.purpose = "attack test";
  if (spell) {
    at.skill = "sorcery";
    at.attribute = GoverningAttribute("sorcery");
  } else {
    at.skill = "fighting_style";
    const std::string chosen = ParamText(attack, "attribute");
    at.attribute = IsRanged(W) ? "agi" : (chosen.empty() ? "str" : chosen);
    UntrainedPenalty(A, &W, at);  // l.45, l.99: all Fighting Style tests
  }
  if (A.Stat("untrained_armor", 0) != 0) at.Bane("untrained_armor", "armor of " + A.id, "003.untrained_armor");  // l.100
  std::string flank;
  if (melee) {
    flank = Flankers(s0, A, T);
    if (!flank.empty()) at.Bonus("flanking", 2, "flanked by " + flank, "003.flanking");  // l.91
  }
  int cover = 0;
  std::string cover_by;
  if (!melee) {
    cover = CoverOf(s0, A, T, &cover_by);
    if (cover == 1) at.Bonus("cover", -2, cover_by, "003.cover");     // l.87
    if (cover == 2) at.Bonus("cover", -5, cover_by, "003.cover");     // l.88
    if (cover == 3) at.AutoFail("cover", cover_by, "003.cover");      // l.89
  }
  uint32_t feint = 0;
  if (attack.action == "strike") {
    if (const Condition* f = A.FindRelative(kFeint, T.id); f != nullptr) {
      at.Boon("feint", "feint on " + T.id + " by " + A.id, "003.maneuver.feint");  // l.70
      feint = f->id;
    }
  }
  // ---- the defense test (l.51-56)
  TestSpec dt;
  dt.who = T.id;
  dt.purpose = "defense test (" + x.kind + ")";
  if (x.kind == "none") {
    if (ParamText(defend, "defense").empty() || !CanDefend(s0, T)) {
      // No window was opened: the target could not defend (l.58 "if the
      // defender didn't defend, they automatically fail"); the source
      // names why and the rule saying so. So too a defender that could
      // no longer defend when its window was answered (knocked out by a
      // GM ruling meanwhile, l.116): the `none` the system answers for
      // it (AnswerForTheUnconscious) is no choice of l.56.
      const auto [why, rule] = CannotDefendWhy(s0, T);
      dt.AutoFail("cannot_defend", T.id + " " + why, rule);
    } else {
      dt.AutoFail("no_defense", T.id + " does not defend", "003.defend.none");  // l.56
    }
  } else if (x.kind == "block") {
    dt.skill = "fighting_style";
    dt.attribute = "str";  // l.51
  } else if (x.kind == "dodge") {
    dt.skill = "dodge";
    dt.attribute = GoverningAttribute("dodge");
    if (cover == 1) dt.Bonus("cover", 2, cover_by, "003.cover");  // l.87
    if (cover == 2) dt.Bonus("cover", 5, cover_by, "003.cover");  // l.88
  } else if (x.kind == "parry") {
    dt.skill = "fighting_style";
    dt.attribute = x.attribute;  // l.53
  } else if (x.kind == "withstand") {
    dt.skill = "focus";  // l.54
    dt.attribute = GoverningAttribute("focus");
  }
  if (dt.skill == "fighting_style") {  // l.45, l.99: Block and Parry are Fighting Style tests
    UntrainedPenalty(T, x.kind == "parry" ? UnarmedWeapon(T) : nullptr, dt);
  }
  if (x.kind != "none" && x.kind != "withstand" && T.Stat("untrained_armor", 0) != 0) {
    dt.Bane("untrained_armor", "armor of " + T.id, "003.untrained_armor");  // l.100: Fighting Style and Dodge tests
  }
  // l.68 "Your next Defense test gains a boon": a defense not made is
  // still the defender's defense test, failed automatically (l.56 "they
  // automatically fail their defense test", l.58 "their test"), so it
  // is the next Defense test and uses the Brace, to no avail.
  uint32_t braced = 0;
  if (const Condition* b = T.FindCondition(kBraced); b != nullptr) {
    dt.Boon("braced", "braced " + T.id, "003.maneuver.brace");  // l.68
    braced = b->id;
  }
  ASSIGN_OR_RETURN(TestResult ar, RollTest(d, at, cause));
  ASSIGN_OR_RETURN(TestResult dr, RollTest(d, dt, cause));
  // l.70 "your next action", l.68 "Your next Defense test": a second Feint
  // or Brace won before the first was used names the same next Strike or
  // Defense test, so this one uses them all, one boon (black-box case: the
  // second gave its boon to the Strike or Defense test after).
  if (feint != 0) {
    RETURN_IF_ERROR(RemoveConditionsNamed(d, A.id, kFeint, {cause, "003.maneuver.feint", {}, "boon used"}));
  }
  if (braced != 0) {
    RETURN_IF_ERROR(RemoveConditionsNamed(d, T.id, kBraced, {cause, "003.maneuver.brace", {}, "boon used"}));
  }
  AddPrefixed(nums, "attack.", ar.nums);
  AddPrefixed(nums, "defense.", dr.nums);
  nums.push_back({"attack_pass", ar.pass ? 1 : 0});
  nums.push_back({"defense_pass", dr.pass ? 1 : 0});
  // ---- the outcome (l.59-64)
  if (!ar.pass && !dr.pass) {
    RETURN_IF_ERROR(RecordOutcome(d, A.id, {cause, "003.result.both_fail", nums,
                                            "both fail: the AP is spent, nothing happens"}));
    return FinishAttack(d, attack, cause, false, false, false);
  }
  if (ar.pass != dr.pass) {
    const bool attacker = ar.pass;
    RETURN_IF_ERROR(RecordOutcome(
        d, A.id,
        {cause, "003.result.critical", nums,
         attacker ? absl::StrCat("critical win for ", A.id, ": the attack hits; ", A.id, " may maneuver")
                  : absl::StrCat("critical win for ", T.id, ": the attack is negated; ", T.id,
                                 " may maneuver")}));
    return OpenManeuver(d, attack, cause, attacker ? A.id : T.id, attacker ? T.id : A.id, attacker);
  }
  if (x.kind == "block") {
    RETURN_IF_ERROR(RecordOutcome(d, A.id, {cause, "003.result.block", nums,
                                            "both pass: blocked; damage reduced by BR"}));
    return FinishAttack(d, attack, cause, true, true, false);
  }
  const bool hit = ar.successes > dr.successes;
  const std::string r = x.kind == "dodge"   ? "003.result.dodge"
                        : x.kind == "parry" ? "003.result.parry"
                                            : "003.result.withstand";
  RETURN_IF_ERROR(RecordOutcome(
      d, A.id,
      {cause, r, nums,
       hit ? "both pass: the attacker has more Successes: hit" : "both pass: not more Successes: miss"}));
  return FinishAttack(d, attack, cause, hit, false, false);
}

absl::Status FinishAttack(Decision& d, const fb::CommandT& attack, uint64_t cause,
                          bool hit, bool blocked, bool maximize) {
  if (hit) {
    const Combatant* A = d.state().Find(attack.actor);
    const Weapon W = *A->FindWeapon(attack.weapon);
    const std::string target = attack.targets[0];
    int64_t rolled = 0;
    if (maximize) {
      rolled = MaxOf(W.damage);  // l.71
    } else {
      ASSIGN_OR_RETURN(dice::RollResult r, d.Roll(W.damage, "damage", A->id, cause));
      rolled = r.total;
    }
    const Combatant* T = d.state().Find(target);
    DamageIn in;
    in.rolled = rolled;
    in.type = W.damage_type;
    in.blocked = blocked;
    in.armor = ParamText(attack, "armor");
    const Weapon* shield = FindShield(*T);
    if (blocked && shield != nullptr) {
      auto it = shield->numbers.find("br");
      in.br = it == shield->numbers.end() ? 0 : it->second;
      in.shield = shield->name;
    }
    DamageOut out = ComputeDamage(*T, in);
    if (maximize) out.nums.insert(out.nums.begin(), {"maximized", 1, "", "003.maneuver.precision"});
    RETURN_IF_ERROR(ApplyDamage(d, target, out, cause));
  }
  // Close the defense window and the attack it held back.
  if (const uint32_t wid = DefenseWindowOf(d.state(), cause); wid != 0) {
    ASSIGN_OR_RETURN(std::optional<PendingAct> held,
                     CloseWindow(d, wid, hit ? "hit" : "no damage", {cause, "003.defend"}));
    if (held.has_value()) {
      RETURN_IF_ERROR(ClosePending(d, held->id, "resolved", {cause, "003.defend"}));
    }
  }
  return Settle(d, cause);
}

// Whether an opportunity window has every answer it waits for: one from
// each eligible owner still conscious. l.116: an owner knocked out (a GM
// ruling) before answering cannot make the attack (l.36, a reaction), so
// the window does not wait for it (an unconscious owner before a conscious
// one in the order is answered for by AnswerForTheUnconscious).
bool OpportunityDone(const State& s, const Window& w) {
  if (AllAnswered(w)) return true;
  for (const std::string& e : w.eligible) {
    if (std::find(w.answered.begin(), w.answered.end(), e) != w.answered.end()) continue;
    const Combatant* o = s.Find(e);
    // l.24, l.48: nor for one a ruling left without the AP or the Attack.
    if (o != nullptr && CheckReaction(s, *o, "opportunity_attack", true).ok()) return false;
  }
  return true;
}

// l.116 "knocked unconscious": the attack of an attacker knocked out (a GM
// ruling) while it waits in defense window `wid` can no longer be made: it
// ends untested, as a held cast or move of a character knocked out does
// (movement.cc), its AP and its Attack (l.48) staying spent, no Defend AP
// spent; `answer` is the defender's answer that closed it, or 0 (the
// system's, at once). Black-box case: the unconscious attacker rolled its
// test, won critically and maneuvered.
absl::Status CancelTheAttack(Decision& d, uint32_t wid, const std::string& attacker,
                             uint64_t answer) {
  const uint64_t decl = d.state().windows.at(wid).trigger;
  const std::string why = "cancelled: " + attacker + " is unconscious";
  Decision::SystemSteps system(d);
  ASSIGN_OR_RETURN(std::optional<PendingAct> p,
                   CloseWindow(d, wid, why, {answer != 0 ? answer : decl, "003.health"}));
  if (p.has_value()) RETURN_IF_ERROR(ClosePending(d, p->id, why, {decl, "003.health"}));
  return absl::OkStatus();
}

// l.116 "knocked unconscious": a character knocked out (a GM ruling) while
// a window waits for its answer can give only one answer, and the system
// gives it at once (author `system`, its text naming why), so no window
// waits for the unconscious:
// - an opportunity window (l.36, a reaction): `pass`, when a conscious
//   owner after it in the order is still to answer (with none left, the
//   window is done, OpportunityDone, and its held act goes on);
// - a defense window (l.50, l.58 "if the defender didn't defend, they
//   automatically fail their test"): `none`, so the combat roll resolves
//   as against a target that cannot defend (`cannot_defend`, l.116; so
//   too a defender a ruling left without the AP for a reaction, l.24, or
//   Unaware, l.50: `none` is all it could answer); and a
//   defense window whose attacker is knocked out waits for nobody: the
//   attack, which can no longer be made (l.58 "Now the attacker and
//   defender each roll their test"), ends untested at once, cancelled,
//   before the defender's answer, which could change nothing;
// - a maneuver window (l.66 "the winner can attempt a maneuver"): `none`,
//   so the attack ends as won without one (damage when the attacker won).
// The kernel's InOrder window (kernel/window.h) asks its owners in order;
// this answer is how it moves past one that cannot act. A window with an
// answer's exchange still open in it (a nested window) waits for that
// exchange first, as its resumption does. Black-box cases: the GM had to
// answer `none` for a defender or winner it had knocked out.
absl::Status AnswerForTheUnconscious(Decision& d) {
  while (true) {
    const State& s = d.state();
    uint32_t wid = 0;
    std::string who;
    std::string kind;
    for (const auto& [id, w] : s.windows) {
      if (w.kind == "opportunity" ? OpportunityDone(s, w) : AllAnswered(w)) continue;
      if (w.kind != "opportunity" && w.kind != kDefenseWindow && w.kind != "maneuver") continue;
      bool child = false;
      for (const auto& [id2, w2] : s.windows) child = child || w2.parent == id;
      const std::vector<std::string> may = MayAnswer(w);
      if (child || may.empty()) continue;
      if (w.kind == kDefenseWindow) {
        const PendingAct* held = s.FindPending(w.pending);
        const Combatant* a = held == nullptr ? nullptr : s.Find(held->actor);
        if (a != nullptr && !Conscious(*a)) {
          wid = id;
          who = a->id;
          kind = "attacker";
          break;
        }
      }
      // A defender that can no longer defend for another reason a GM ruling
      // gave it meanwhile (its AP set below a reaction's cost, l.24; the
      // GM's Unaware, l.50) has `none` as its only answer too.
      const Combatant* o = s.Find(may.front());
      if (o == nullptr) continue;
      const bool stuck = w.kind == kDefenseWindow  ? !CanDefend(s, *o)
                         : w.kind == "opportunity" ? !CheckReaction(s, *o, "opportunity_attack", true).ok()
                                                   : !Conscious(*o);
      if (stuck) {
        wid = id;
        who = may.front();
        kind = w.kind;
        break;
      }
    }
    if (wid == 0) return absl::OkStatus();
    if (kind == "attacker") {
      RETURN_IF_ERROR(CancelTheAttack(d, wid, who, 0));
      continue;
    }
    fb::CommandT answer;
    answer.actor = who;
    answer.author = "system";
    answer.role = fb::Role::System;
    answer.window = wid;
    Decision::SystemSteps system(d);
    if (kind == "opportunity") {
      answer.action = "pass";
      const Combatant& o = *d.state().Find(who);
      answer.text = Conscious(o) ? absl::StrCat(who, " can make no opportunity attack (",
                                                CheckReaction(d.state(), o, "opportunity_attack", true).message(),
                                                "; l.24, l.48)")
                                 : absl::StrCat(who, " is unconscious: no opportunity attack (l.116)");
      RETURN_IF_ERROR(d.Interrupt(answer, wid).status());
      continue;
    }
    const bool defense = kind == kDefenseWindow;
    answer.action = defense ? "defend" : "maneuver";
    auto p = std::make_unique<fb::ParamT>();
    p->key = defense ? "defense" : "maneuver";
    p->text = "none";
    answer.params.push_back(std::move(p));
    if (defense) {
      const auto [why, rule] = CannotDefendWhy(d.state(), *d.state().Find(who));
      const std::string line = rule == "003.health"     ? "l.116"
                               : rule == "003.surprise" ? "l.16"
                               : rule == "003.defend"   ? "l.50"
                                                        : "l.24";
      answer.text = absl::StrCat(who, " cannot defend (", why, ", ", line, "): automatic failure (l.58)");
    } else {
      answer.text = absl::StrCat(who, " is unconscious: no maneuver (l.116, l.66)");
    }
    RETURN_IF_ERROR(defense ? DecideDefend(answer, d) : DecideManeuver(answer, d));
  }
}

absl::Status Settle(Decision& d, uint64_t cause) {
  while (true) {
    RETURN_IF_ERROR(AnswerForTheUnconscious(d));
    const State& s = d.state();
    uint32_t ready = 0;
    for (const auto& [id, w] : s.windows) {
      if (w.kind != "opportunity" || !OpportunityDone(s, w)) continue;
      bool child = false;
      for (const auto& [id2, w2] : s.windows) child = child || w2.parent == id;
      if (!child) ready = id;
    }
    if (ready == 0) break;
    Decision::SystemSteps system(d);  // the held act goes on by itself
    RETURN_IF_ERROR(ResumeOpportunity(d, ready));
  }
  return EndTurnIfDown(d, cause);
}

absl::Status DecideStrike(const fb::CommandT& c, Decision& d) {
  const State& s = d.state();
  ASSIGN_OR_RETURN(const Combatant* a, Actor(s, c));
  ASSIGN_OR_RETURN(const Combatant* t, Target(s, c));
  if (c.weapon.empty()) return Malformed(c, "weapon", "the weapon to strike with");
  const Weapon* w = a->FindWeapon(c.weapon);
  if (w == nullptr) return NoSuchWeapon("strike", *a, c.weapon);
  if (w->kind == "spell") return Malformed(c, "weapon", "a weapon (spells: use_magic)");
  // l.31 "Strike. You attack with your weapon"; l.93-94 name weapons,
  // armor and shields apart: a shield blocks (l.51) and bashes (l.67),
  // it is no weapon to Strike with, nor to make the opportunity attack,
  // "a special form of Strike" (l.36), with (movement.cc). Both refuse it
  // alike: a rule of the text refusing the act (003.strike.weapon, l.31).
  if (w->kind == "shield") {
    return Refuse("003.strike.weapon", absl::StrCat("field 'weapon': ", w->name,
                                                    " is a shield, no weapon to Strike with (l.93-94)"));
  }
  const std::string attr = ParamText(c, "attribute");
  if (!attr.empty() && attr != "str" && attr != "agi") {
    return Malformed(c, "params.attribute", "str or agi");
  }
  if (IsRanged(*w) && !attr.empty() && attr != "agi") {
    return Refuse("003.strike", "a ranged or thrown attack must use Agility");
  }
  RETURN_IF_ERROR(CheckPrimary(s, *a, "strike", true, false));
  if (t->id == a->id) return Refuse("003.strike", "a character does not strike itself");
  if (t->side == a->side) {  // l.44: "a Fighting Style test against a foe"
    return Refuse("003.strike", absl::StrCat(t->id, " is on ", a->id, "'s side (", a->side,
                                             "): a Strike is made against a foe (l.44)"));
  }
  if (!Holds(*a, w->name)) return Refuse("003.strike", a->id + " no longer holds " + w->name);
  if (IsMelee(*w) && Distance(*a, *t) > ReachOf(*w)) {
    return Refuse("003.strike", absl::StrCat(t->id, " is ", Distance(*a, *t), " m away, beyond ",
                                             w->name, "'s reach of ", ReachOf(*w), " m"));
  }
  if (IsRanged(*w) && w->range_increment > 0 && Distance(*a, *t) > w->range_increment) {
    return Refuse("003.strike", absl::StrCat(t->id, " is beyond ", w->name, "'s range of ",
                                             w->range_increment, " m"));
  }
  const std::string who = a->id;
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  RETURN_IF_ERROR(Spend(d, who, "strike", true, false, decl, "003.strike"));
  // l.70: the Feint's boon is for a Strike against the same target only.
  std::vector<uint32_t> stale;
  for (const auto& [id, k] : d.state().Find(who)->conditions) {
    if (k.name == kFeint && k.relative_to != c.targets[0]) stale.push_back(id);
  }
  for (uint32_t id : stale) {
    RETURN_IF_ERROR(RemoveCondition(d, who, id, {decl, "003.maneuver.feint", {}, "a Strike against another target"}));
  }
  return OpenAttack(d, c, decl);
}

absl::Status DecideDefend(const fb::CommandT& c, Decision& d) {
  const State& s = d.state();
  RETURN_IF_ERROR(CheckAnswer(s, c, Cite("003.defend")));
  const Window& w = s.windows.at(c.window);
  if (w.kind != kDefenseWindow) {
    return Malformed(c, "window", absl::StrCat("window ", w.id, " is a ", w.kind,
                                               " window, not a defense window"));
  }
  ASSIGN_OR_RETURN(const Combatant* def, Actor(s, c));
  const PendingAct held = *s.FindPending(w.pending);
  const fb::CommandT attack = held.command;
  const Combatant* a = s.Find(attack.actor);
  const Weapon* weapon = a->FindWeapon(attack.weapon);
  Defense x;
  x.kind = ParamText(c, "defense");
  x.attribute = ParamText(c, "attribute");
  if (x.kind.empty()) return Malformed(c, "params.defense", "block, dodge, parry, withstand or none");
  if (x.kind != "parry" && !x.attribute.empty()) {
    return Malformed(c, "params.attribute", "only a parry chooses its attribute");
  }
  RETURN_IF_ERROR(CheckDefenseAllowed(c, *def, *weapon, x));
  if (HasParam(c, "armor") && !HasArmorSource(*def, ParamText(c, "armor"))) {
    return absl::NotFoundError(absl::StrCat(
        "command 'defend': field 'params.armor': ", def->id, " has no armor source '",
        ParamText(c, "armor"), "' (\"ar\" or a stat ar.<source> / ar_magical.<source>; ",
        Cite("003.damage.armor"), ")"));
  }
  if (!Conscious(*a)) {
    // l.116 "knocked unconscious": the attack of an attacker knocked out
    // can no longer be made (CancelTheAttack; the system cancels it at once
    // after the ruling, AnswerForTheUnconscious, so this answer comes only
    // to a window an older version left open): the answer is recorded.
    ASSIGN_OR_RETURN(uint64_t seq, Answer(d, c));
    RETURN_IF_ERROR(CancelTheAttack(d, c.window, attack.actor, seq));
    return Settle(d, held.decl);
  }
  if (x.kind != "none") RETURN_IF_ERROR(CheckReaction(s, *def, "defend", false));
  const std::string who = def->id;
  ASSIGN_OR_RETURN(uint64_t seq, Answer(d, c));
  if (x.kind != "none") {
    RETURN_IF_ERROR(Spend(d, who, "defend", false, false, seq, "003.defend"));
  }
  // Both choices made, the combat roll resolves by itself (l.58-64): the
  // system's, not the defender's act (the attack and the defense name
  // their authors).
  Decision::SystemSteps system(d);
  return ResolveCombatRoll(d, attack, c, held.decl);
}

}  // namespace combat::kernel::opposed
