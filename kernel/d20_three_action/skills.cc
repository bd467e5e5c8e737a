// Use a Skill (L63), Medicine on the Bleeding (L127), Sneak and Perception
// with Hidden (L115), skills as a Reaction (L19, L79), Dodge (L45),
// interacting with objects (L17, L25) and the GM's heal verb (L127).
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/command.h"
#include "kernel/d20_three_action/internal.h"

namespace combat::kernel::d20 {
namespace {

std::string SkillOf(const fb::CommandT& c) {
  return absl::AsciiStrToLower(ParamText(c, "skill"));
}

// The creature a skill acts on: targets[0], else the actor.
std::string PatientOf(const fb::CommandT& c) {
  return c.targets.empty() ? c.actor : c.targets[0];
}

}  // namespace

absl::Status ValidateSkill(const State& s, const fb::CommandT& c,
                           const Ctx& ctx) {
  (void)ctx;
  ASSIGN_OR_RETURN(const Combatant* a, Actor(s, c));
  // `skill` and `dc` (the GM's) are required (verbs.cc).
  const int64_t actions = MultiActionCost(c);
  if (actions < 1 || actions > 3) {
    return Malformed(c, "params.actions", "1 to 3 Actions");
  }
  for (size_t i = 0; i < c.targets.size(); ++i) {
    RETURN_IF_ERROR(Target(s, c, i).status());
  }
  if (SkillOf(c) == "medicine") {
    const Combatant* p = s.Find(PatientOf(c));
    if (IsDead(*p)) return Refuse("000.dead", p->id + " is Dead");
    // Reading: Medicine is done by hand, within 5 ft.
    if (DistanceFt(*a, *p) > kSquare) {
      return Refuse("000.bleed.medicine",
                    p->id + " is out of reach for Medicine (5 ft)");
    }
  }
  return absl::OkStatus();
}

absl::Status ResolveSkill(Decision& d, const fb::CommandT& c, const Ctx& ctx) {
  const std::string skill = SkillOf(c);
  const Combatant a = *d.state().Find(c.actor);
  const int64_t bonus = HasParam(c, "bonus") ? ParamOr(c, "bonus", 0)
                                             : a.Stat("skill_" + skill, 0);
  const int64_t dc = ParamOr(c, "dc", 0);
  ASSIGN_OR_RETURN(dice::RollResult r,
                   d.Roll(D20(0, bonus), "skill: " + skill, a.id, ctx.cause));
  // Reading (as L33): a success at a total equal to or higher than the DC.
  const bool ok = r.total >= dc;
  // The bonus names where it comes from: the actor's skill stat, or the
  // command (a GM's ruling, or what the player declared).
  const std::string from =
      !HasParam(c, "bonus")  ? absl::StrCat("skill_", skill, " of ", a.id)
      : c.role == fb::Role::GM ? absl::StrCat("ruling #", ctx.cause)
                               : absl::StrCat("declared #", ctx.cause, " by ", c.author);
  const Nums nums = {{"d20", r.natural()},
                     {"bonus", bonus, from, "000.skill"},
                     {"total", r.total},
                     {"dc", dc},
                     {"success", ok}};
  RETURN_IF_ERROR(
      RecordOutcome(d, a.id, {ctx.cause, "000.skill", nums,
                   absl::StrCat(skill, ": ", ok ? "success" : "failure")}));
  if (!ok) return absl::OkStatus();
  if (skill == "climb" && a.Has(kFalling)) {
    // L79: "Any time a Creature would fall they may make a Climb Check as a
    // Reaction to Grab a nearby surface if possible": it holds on there
    // (whether a surface is near is the GM's, in the DC it sets).
    return RemoveConditionsNamed(
        d, a.id, kFalling,
        {ctx.cause, "000.fall", nums, "grabbed a surface: no longer falling"});
  }
  if (skill == "medicine") {
    const std::string p = PatientOf(c);
    if (d.state().Find(p)->Has(kBleeding)) {
      const Why why{ctx.cause, "000.bleed.medicine", nums,
                    "Medicine: Bleeding ends, penalty resets"};
      RETURN_IF_ERROR(RemoveConditionsNamed(d, p, kBleeding, why));
      RETURN_IF_ERROR(SetResource(d, p, kBleedPenalty, 0, why));
    }
    return absl::OkStatus();
  }
  if (skill == "sneak" || skill == "stealth") {
    // Reading of L115: Hidden from each enemy it has concealment or cover
    // from; the rest still see it.
    std::vector<std::string> from;
    for (const auto& [id, o] : d.state().combatants) {
      if (!Hostile(a, o) || IsDead(o)) continue;
      if (a.FindRelative(kHidden, id) != nullptr) continue;
      if (!Obscured(d.state(), o, a).empty() ||
          CoverFrom(d.state(), o.at, o.size, a, id).cover) {
        from.push_back(id);
      }
    }
    for (const std::string& o : from) {
      RETURN_IF_ERROR(Apply(d, a.id, kHidden, a.id, 0, std::nullopt,
                            {ctx.cause, "000.hidden", {}, "sneaks"}, 0, o)
                          .status());
    }
    return absl::OkStatus();
  }
  if (skill == "perception" || skill == "investigation") {
    for (const std::string& t : c.targets) {
      RETURN_IF_ERROR(Reveal(
          d, t, a.id, {ctx.cause, "000.hidden", {}, "location discovered"}));
    }
  }
  return absl::OkStatus();
}

absl::Status DecideReactionSkill(const fb::CommandT& c, Decision& d) {
  ASSIGN_OR_RETURN(const Combatant* a, Actor(d.state(), c));
  const Ctx ctx{Via::kInterrupt, 0};
  RETURN_IF_ERROR(CheckCanAct(d.state(), *a, 0, ctx));
  if (a->Resource(kReactions) < 1) {
    return Refuse("000.reaction", a->id + " has no Reaction left this Round");
  }
  // L19: "Reactions cannot be used to take normal Actions and are only used
  // for specific abilities"; the one this text names is L79's Climb Check
  // to Grab a surface when falling (also L11's "catch a ledge").
  if (SkillOf(c) != "climb") {
    return Refuse("000.reaction",
                  "a Reaction is only used for specific abilities: this text "
                  "names the Climb check when falling (L79); '" +
                      SkillOf(c) + "' is a normal Action");
  }
  RETURN_IF_ERROR(ValidateSkill(d.state(), c, ctx));
  const std::string who = a->id;
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  RETURN_IF_ERROR(
      AddResource(d, who, kReactions, -1,
                  {decl, "000.reaction", {{"cost", 1}}, "Reaction spent"})
          .status());
  return ResolveSkill(d, c, Ctx{Via::kInterrupt, decl});
}

absl::Status ValidateDodge(const State& s, const fb::CommandT& c,
                           const Ctx& ctx) {
  (void)ctx;
  ASSIGN_OR_RETURN(const Combatant* a, Actor(s, c));
  if (a->Has(kDodging))
    return Refuse("000.dodge", a->id + " is already Dodging");
  return absl::OkStatus();
}

absl::Status ResolveDodge(Decision& d, const fb::CommandT& c, const Ctx& ctx) {
  // L45: "give the next Attack against you Disadvantage": the text sets
  // no time limit, so it lasts until that attack uses it.
  return Apply(d, c.actor, kDodging, c.actor, 0,
               Expiry{fb::ExpiryKind::OnUse, c.actor, 0},
               {ctx.cause, "000.dodge", {}, "the next attack against it"})
      .status();
}

absl::Status ValidateInteract(const State& s, const fb::CommandT& c,
                              const Ctx& ctx) {
  (void)ctx;
  RETURN_IF_ERROR(Actor(s, c).status());
  const int64_t actions = MultiActionCost(c);
  if (actions < 1 || actions > 3) {
    return Malformed(c, "params.actions", "1 to 3 Actions");
  }
  return absl::OkStatus();
}

absl::Status ResolveInteract(Decision& d, const fb::CommandT& c,
                             const Ctx& ctx) {
  (void)d;
  (void)c;
  (void)ctx;
  return absl::OkStatus();  // the Actions spent are the whole effect
}

absl::Status DecideHeal(const fb::CommandT& c, Decision& d) {
  if (c.role != fb::Role::GM) {
    return absl::PermissionDeniedError(
        "command 'heal': only the GM applies healing (spells heal with "
        "'cast' param heal)");
  }
  if (c.text.empty()) return Malformed(c, "text", "the reason is required");
  if (c.targets.empty() && c.actor.empty()) {
    return Malformed(c, "targets", "who is healed");
  }
  const State& s = d.state();
  const Combatant* t = nullptr;
  if (!c.targets.empty()) {
    ASSIGN_OR_RETURN(t, Target(s, c, 0));
  } else {
    ASSIGN_OR_RETURN(t, Actor(s, c));
  }
  const int64_t amount = ParamOr(c, "amount", 0);
  if (amount <= 0) return Malformed(c, "params.amount", "must be > 0");
  if (IsDead(*t)) return Refuse("000.dead", t->id + " is Dead");
  const std::string who = t->id;
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  RETURN_IF_ERROR(RecordRuling(d, "heal", 0, c.text, {decl, "000.gm"}));
  return HealDamage(d, who, amount, {decl, "000.heal", {}, c.text});
}

}  // namespace combat::kernel::d20
