// The other primary actions and reactions (l.26-37): Grapple (a contest),
// Release, Search, Manipulate, Use Magic. Sneak is a move (movement.cc).
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/command.h"
#include "kernel/opposed_tests/internal.h"
#include "kernel/window.h"

namespace combat::kernel::opposed {
namespace {

// Hands in use: each held weapon or shield takes one, a two-handed one
// two (reading of "a free hand", l.28).
int HandsInUse(const State& s, const Combatant& c) {
  int n = 0;
  for (const auto& [id, o] : s.combatants) {  // a hand holds each grappled foe
    for (const auto& [cid, k] : o.conditions) n += k.name == kGrappled && k.source == c.id;
  }
  for (const Weapon& w : c.weapons) {
    if (w.kind == "spell" || w.kind == "natural" || !Holds(c, w.name)) continue;
    n += Trait(w, "two_handed") ? 2 : 1;
  }
  return n;
}

}  // namespace

absl::Status BreakGrapples(Decision& d, const std::string& who, uint64_t cause) {
  struct Hold {
    std::string held;
    uint32_t id;
  };
  std::vector<Hold> broken;
  const State& s = d.state();
  for (const auto& [id, held] : s.combatants) {
    for (const auto& [cid, k] : held.conditions) {
      if (k.name != kGrappled || (k.source != who && id != who)) continue;
      const Combatant* by = s.Find(k.source);
      if (by == nullptr || !Conscious(*by) || Distance(*by, held) > 1) broken.push_back({id, cid});
    }
  }
  for (const Hold& h : broken) {
    RETURN_IF_ERROR(RemoveCondition(d, h.held, h.id,
                                    {cause, "003.grapple", {}, "the grappler no longer holds (out of touch or down)"}));
  }
  return absl::OkStatus();
}

absl::Status LeaveCover(Decision& d, const std::string& who, uint64_t cause) {
  // l.86: the GM's ruling said what `who` stood behind; it stands elsewhere
  // now (black-box case: a Cover ruled on a target stayed when it walked
  // into the open, still -5 / +5 against every shot).
  const Combatant* c = d.state().Find(who);
  if (c == nullptr || !c->Has(kCover)) return absl::OkStatus();
  return RemoveConditionsNamed(d, who, kCover, {cause, "003.cover", {}, "moved: no longer behind what the GM ruled"});
}

absl::Status DecideGrapple(const fb::CommandT& c, Decision& d) {
  const State& s = d.state();
  ASSIGN_OR_RETURN(const Combatant* a, Actor(s, c));
  ASSIGN_OR_RETURN(const Combatant* t, Target(s, c));
  RETURN_IF_ERROR(CheckPrimary(s, *a, "grapple", false, false));  // not an attack, l.48
  if (t->id == a->id) return Refuse("003.grapple", "a character does not grapple itself");
  if (t->side == a->side) {  // l.28: "You use a free hand to hold your foe"
    return Refuse("003.grapple", absl::StrCat(t->id, " is on ", a->id, "'s side (", a->side,
                                              "): a Grapple holds a foe (l.28)"));
  }
  if (HandsInUse(s, *a) >= 2) return Refuse("003.grapple", a->id + " has no free hand");
  if (Distance(*a, *t) > 1) return Refuse("003.grapple", t->id + " is not within touch (1 m)");
  const std::string who = a->id, target = t->id;
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  RETURN_IF_ERROR(Spend(d, who, "grapple", false, false, decl, "003.grapple"));
  TestSpec at{who, "athletics", GoverningAttribute("athletics"), 0, 0, 0, false, false, "athletics (grapple)"};
  // "Athletics or Acrobatics (defender's choice)": the defender's larger
  // pool (reading: a program can choose the better one).
  // Tag "grapple:<skill>" states the defender's choice.
  const std::string skill = ChosenSkill(d.state(), *t, "grapple", "athletics", "acrobatics");
  TestSpec dt{target, skill, GoverningAttribute(skill), 0, 0, 0, false, false, skill + " (against grapple)"};
  if (!Conscious(*d.state().Find(target))) dt.AutoFail("cannot_defend", target + " unconscious", "003.health");
  ASSIGN_OR_RETURN(TestResult ar, RollTest(d, at, decl));
  ASSIGN_OR_RETURN(TestResult dr, RollTest(d, dt, decl));
  const ContestResult r = Contest(ar, dr, 2);  // tie: the defender holds
  Nums nums;
  AddPrefixed(nums, "attacker.", ar.nums);
  AddPrefixed(nums, "defender.", dr.nums);
  if (r.winner != 1) {
    return RecordOutcome(d, who, {decl, "003.contest", nums, "the grapple fails"});
  }
  for (const auto& [id, k] : d.state().Find(target)->conditions) {
    if (k.name == kGrappled && k.source == who) {
      // l.28 "hold your foe": a foe already held by this grappler stays
      // held once, by one hand (as a Trip leaves one Prone, l.73).
      return RecordOutcome(d, target, {decl, "003.grapple", nums, target + " is already held by " + who + ": one hold"});
    }
  }
  NewCondition nc;
  nc.actor = target;
  nc.name = kGrappled;
  nc.source = who;
  nc.note = "held: cannot move";
  return AddCondition(d, nc, {decl, "003.grapple", nums, "grappled by " + who}).status();
}

absl::Status DecideRelease(const fb::CommandT& c, Decision& d) {
  const State& s = d.state();
  ASSIGN_OR_RETURN(const Combatant* a, Actor(s, c));
  // An open window is answered first, as for every other act (README
  // "Verbs"; l.50, l.66, l.81).
  if (!s.windows.empty()) return WindowFirst(s, "003.grapple");
  ASSIGN_OR_RETURN(const Combatant* t, Target(s, c));
  const Condition* g = nullptr;
  for (const auto& [id, cond] : t->conditions) {
    if (cond.name == kGrappled && cond.source == a->id) g = &cond;
  }
  if (g == nullptr) return Refuse("003.grapple", a->id + " does not grapple " + t->id);
  const uint32_t id = g->id;
  const std::string target = t->id;
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  // Reading: letting go costs nothing (the text gives no cost).
  return RemoveCondition(d, target, id, {decl, "003.grapple", {}, "released"});
}

absl::Status DecideSearch(const fb::CommandT& c, Decision& d) {
  ASSIGN_OR_RETURN(const Combatant* a, Actor(d.state(), c));
  RETURN_IF_ERROR(CheckPrimary(d.state(), *a, "search", false, false));
  const std::string who = a->id;
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  RETURN_IF_ERROR(Spend(d, who, "search", false, false, decl, "003.search"));
  TestSpec t{who, "observation", GoverningAttribute("observation"), 0, 0, 0, false, false, "observation (search)"};
  ASSIGN_OR_RETURN(TestResult r, RollTest(d, t, decl));
  Nums nums = r.nums;
  nums.push_back({"pass", r.pass ? 1 : 0});
  return RecordOutcome(d, who, {decl, "003.search", nums,
                                r.pass ? "observation test passed: what is found is the GM's (l.29)"
                                       : "observation test failed"});
}

absl::Status DecideManipulate(const fb::CommandT& c, Decision& d) {
  const State& s = d.state();
  ASSIGN_OR_RETURN(const Combatant* a, Actor(s, c));
  const bool free = ParamOr(c, "free", 0) != 0;
  if (!s.windows.empty()) return WindowFirst(s, "003.reaction");
  if (free) {
    // Manipulate is a reaction (l.35): as a free action it is still taken
    // any time (l.24), for no AP, the round's one free action (l.39).
    RETURN_IF_ERROR(CheckFree(s, *a, false));
  } else {
    RETURN_IF_ERROR(CheckReaction(s, *a, "manipulate", false));  // any time, l.35
  }
  const Weapon* w = nullptr;
  if (!c.weapon.empty()) {
    w = a->FindWeapon(c.weapon);
    if (w == nullptr) {
      return absl::NotFoundError(absl::StrCat("command 'manipulate': field 'weapon': ", a->id,
                                              " has no item '", c.weapon, "'"));
    }
    if (w->kind == "natural" || w->kind == "spell") {
      // l.35 "You interact with an object within touch, such as drawing or
      // stowing a sword": a bite, a fist or a spell is no object to draw,
      // stow or pick up.
      return Refuse("003.manipulate", absl::StrCat("field 'weapon': ", w->name, " is ",
                                                   w->kind == "natural" ? "a natural weapon" : "a spell",
                                                   ", not an object to draw, stow or pick up (name a "
                                                   "weapon, shield or item, or none)"));
    }
  }
  const bool stow = ParamOr(c, "stow", 0) != 0;
  if (stow && w == nullptr) return Malformed(c, "weapon", "stow names an item " + a->id + " holds");
  if (stow && !Holds(*a, w->name)) {
    // A well-formed command the state refuses (as a Strike with an item no
    // longer held): l.35's stowing is of an item in hand.
    return Refuse("003.manipulate", absl::StrCat("field 'weapon': ", w->name, " is not in ", a->id,
                                                 "'s hand (stowed or on the floor): nothing to stow (draw or "
                                                 "pick it up without stow)"));
  }
  const std::string who = a->id;
  const std::string item = w == nullptr ? "" : w->name;
  const bool dropped = w != nullptr && !Holds(*a, item);
  if (stow) {
    ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
    RETURN_IF_ERROR(Spend(d, who, "manipulate", false, free, decl, "003.manipulate"));
    return SetResource(d, who, "dropped." + item, 1, {decl, "003.manipulate", {}, "stows " + item + ": not in hand"});
  }
  const bool on_floor = dropped && a->Resource(kOnFloor + item, 0) != 0;
  if (on_floor) {
    // l.35 "an object within touch, such as ... picking up a ring": a
    // disarmed item lies where it landed (l.69), under the loser's whole
    // space; touch: 1 m (as a grapple's) from any square of it.
    const Pos at{static_cast<int32_t>(a->Resource(kFloorX + item, 0)),
                 static_cast<int32_t>(a->Resource(kFloorY + item, 0))};
    const int32_t side = static_cast<int32_t>(a->Resource(kFloorSize + item, 1));
    const int64_t m = space::Distance(kGrid, a->at, a->size, at, side);
    if (m > 1) {
      const std::string where =
          side > 1 ? absl::StrCat("under the ", side, " x ", side, " space at (", at.x, ",", at.y, ")")
                   : absl::StrCat("at (", at.x, ",", at.y, ")");
      return Refuse("003.manipulate", absl::StrCat(item, " lies on the floor ", where, ", ", m,
                                                   " m from ", who, ": not within touch (1 m)"));
    }
  }
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  RETURN_IF_ERROR(Spend(d, who, "manipulate", false, free, decl, "003.manipulate"));
  if (dropped) {
    if (on_floor) {
      RETURN_IF_ERROR(SetResource(d, who, kOnFloor + item, 0, {decl, "003.manipulate", {}, "off the floor"}));
    }
    // l.35 "drawing or stowing a sword, picking up a ring": an item lying
    // on the floor is picked up; one stowed is drawn.
    return SetResource(d, who, "dropped." + item, 0,
                       {decl, "003.manipulate", {}, (on_floor ? "picks up " : "draws ") + item});
  }
  return RecordOutcome(d, who, {decl, "003.manipulate", {}, c.text.empty() ? "interacts with an object" : c.text});
}

absl::Status DecideUseMagic(const fb::CommandT& c, Decision& d) {
  const State& s = d.state();
  ASSIGN_OR_RETURN(const Combatant* a, Actor(s, c));
  const bool free = ParamOr(c, "free", 0) != 0;
  const Weapon* spell = nullptr;
  if (!c.weapon.empty()) {
    spell = a->FindWeapon(c.weapon);
    if (spell == nullptr || spell->kind != "spell") {
      return absl::NotFoundError(absl::StrCat("command 'use_magic': field 'weapon': ", a->id,
                                              " has no spell '", c.weapon, "'"));
    }
  }
  const bool attack = spell != nullptr && Trait(*spell, "attack");
  const bool on_turn = s.active == a->id;
  if (attack && !on_turn && s.windows.empty()) {
    return Refuse("003.use_magic", absl::StrCat(
        spell->name, " has the Attack trait: a spell attack is a primary action, cast on ", a->id,
        "'s own turn (it is ", s.active.empty() ? "nobody" : s.active,
        "'s); as a reaction Use Magic casts only a non-attacking spell or activates an item (l.37)"));
  }
  if (attack || on_turn) {
    RETURN_IF_ERROR(CheckPrimary(s, *a, "use_magic", attack, free));
  } else {
    // As a reaction: only a non-attacking spell or an item (l.37), also as
    // the round's free action (l.39: any time, like the reaction it is).
    if (!s.windows.empty()) return WindowFirst(s, "003.reaction");
    RETURN_IF_ERROR(free ? CheckFree(s, *a, false) : CheckReaction(s, *a, "use_magic", false));
  }
  if (attack) {
    ASSIGN_OR_RETURN(const Combatant* t, Target(s, c));
    if (t->id == a->id) return Refuse("003.spell_attack", "a spell attack targets a foe");
    if (t->side == a->side) {  // l.46: "a Sorcery test against a foe"
      return Refuse("003.spell_attack", absl::StrCat(t->id, " is on ", a->id, "'s side (", a->side,
                                                     "): a spell attack targets a foe (l.46)"));
    }
    RETURN_IF_ERROR(SpellInRange(*a, *t, *spell));
  }
  const std::string who = a->id;
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  RETURN_IF_ERROR(Spend(d, who, "use_magic", attack, free, decl, attack ? "003.spell_attack" : "003.use_magic"));
  if (spell != nullptr && !Trait(*spell, "melee_attack")) {
    ASSIGN_OR_RETURN(bool held, HoldForOpportunity(d, c, decl));  // l.83
    if (held) return absl::OkStatus();
  }
  return ResolveMagic(d, c, decl);
}

absl::Status SpellInRange(const Combatant& a, const Combatant& t, const Weapon& spell) {
  // l.46 "Make a Sorcery test against a foe within the spell's range".
  const int64_t range = Trait(spell, "melee_attack") ? ReachOf(spell) : spell.range_increment;
  if (range > 0 && Distance(a, t) > range) {
    return Refuse("003.spell_attack", absl::StrCat(t.id, " is ", Distance(a, t), " m away, beyond ",
                                                   spell.name, "'s range of ", range, " m"));
  }
  return absl::OkStatus();
}

absl::Status ResolveMagic(Decision& d, const fb::CommandT& c, uint64_t cause) {
  const Combatant* a = d.state().Find(c.actor);
  const Weapon* spell = c.weapon.empty() ? nullptr : a->FindWeapon(c.weapon);
  if (spell != nullptr && Trait(*spell, "attack")) return OpenAttack(d, c, cause);
  return RecordOutcome(d, c.actor, {cause, "003.use_magic", {},
                                    spell == nullptr ? "activates a magic item: its effect is the GM's"
                                                     : "casts " + spell->name +
                                                           ": its effect is the Using Magic chapter's (GM)"});
}

}  // namespace combat::kernel::opposed
