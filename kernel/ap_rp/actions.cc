// The Basic (l.15-26) and Advanced (l.29-38) actions: the action table with
// each AP cost, the declare path (AP check, held-action triggers, spend,
// resolve), and opposed checks with the size rules.
//
// Checks (reading): the chapter gives no Skill Check formula, so a check is
// d20 + the roster's number for that skill (stat key = the skill, e.g.
// "athletics"). The acting creature names its skill (param `skill`, default
// its best allowed); the target uses its best allowed skill. The actor
// succeeds only by rolling higher (l.34 "higher than your target", read for
// every contest).
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "events/status_macros.h"
#include "kernel/ap_rp/internal.h"
#include "kernel/command.h"

namespace combat::kernel::aprp {
namespace {

using Status = absl::Status;

std::string Best(const Combatant& c, const std::vector<std::string>& skills) {
  std::string best = skills.front();
  for (const std::string& s : skills) {
    if (c.Stat(s) > c.Stat(best)) best = s;
  }
  return best;
}

Status CheckWithin1m(const State& s, const Combatant& a, const fb::CommandT& c,
                     const char* rule) {
  ASSIGN_OR_RETURN(const Combatant* t, Target(s, c));
  if (t->id == a.id) return Malformed(c, "targets[0]", "another creature");
  RETURN_IF_ERROR(CheckNotHiddenFrom(a, *t));
  if (Dist(a, *t) > 1) {
    return Refuse(rule, absl::StrCat(t->id, " is ", Dist(a, *t), " m away: it must be within 1 m"));
  }
  return absl::OkStatus();
}

Status CheckSize(const Combatant& a, const Combatant& t, const char* rule) {
  if (SizeCat(t) - SizeCat(a) > 1) {
    return Refuse(rule, t.id + " is more than one size category larger than " + a.id + " (l.31)");
  }
  return absl::OkStatus();
}

// ---- Basic actions

Status NoCheck(const State&, const Combatant&, const fb::CommandT&) { return absl::OkStatus(); }

Status ResolveDefend(Decision& d, const fb::CommandT& c, uint64_t cause) {
  NewCondition k;
  k.actor = c.actor;
  k.name = kDefending;
  k.source = c.actor;
  k.expiry = UntilNextTurn(d.state(), c.actor);
  return AddCondition(d, k, {cause, "004.defend", {}, "until its next turn"}).status();
}

Status SetHands(Decision& d, const std::string& who, int64_t free, uint64_t cause, const char* rule,
                const std::string& note) {
  return SetResource(d, who, kFreeHands, free, {cause, rule, {{"free_hands", free}}, note});
}

// l.19: "an object or creature" (optional targets[0]); params takes (1: an
// item comes into a free hand, e.g. "picking up a weapon") and releases (1:
// a held item leaves a hand, e.g. "giving an ally an item").
Status CheckInteract(const State& s, const Combatant& a, const fb::CommandT& c) {
  if (!c.targets.empty()) {
    ASSIGN_OR_RETURN(const Combatant* t, Target(s, c));
    RETURN_IF_ERROR(CheckNotHiddenFrom(a, *t));  // l.36: "trying to poke a creature" needs where it is
  }
  if (ParamOr(c, "takes", 0) != 0 && ParamOr(c, "releases", 0) != 0) {
    return Malformed(c, "params.releases", "takes or releases, not both");
  }
  if (ParamOr(c, "takes", 0) != 0 && FreeHands(a) < 1) {
    return Refuse("004.interact", a.id + " has no free hand to take the item into");
  }
  if (ParamOr(c, "releases", 0) != 0 && FreeHands(a) >= Hands(a)) {
    return Refuse("004.interact", a.id + " holds nothing to let go of");
  }
  // Param item (with takes=1): the weapon it dropped when disarmed (l.34),
  // picked up again ("picking up a weapon"); not one the disarmer took.
  if (const std::string item = ParamText(c, "item"); !item.empty()) {
    if (ParamOr(c, "takes", 0) == 0) return Malformed(c, "params.item", "goes with takes=1 (picking the weapon up)");
    const Condition* k = DroppedWeapon(a, item);
    if (k == nullptr) return Malformed(c, "params.item", "a weapon " + a.id + " dropped when disarmed");
    if (k->level != 0) return Refuse("004.disarm", k->source + " took " + item + " from " + a.id);
  }
  return absl::OkStatus();
}
Status ResolveInteract(Decision& d, const fb::CommandT& c, uint64_t cause) {
  const Combatant a = *d.state().Find(c.actor);
  const std::string with = c.targets.empty() ? "" : " (" + c.targets[0] + ")";
  RETURN_IF_ERROR(RecordOutcome(d, c.actor, {cause, "004.interact", {}, (c.text.empty() ? "interacts" : c.text) + with}));
  if (const Condition* k = DroppedWeapon(a, ParamText(c, "item")); k != nullptr) {
    RETURN_IF_ERROR(RemoveCondition(d, a.id, k->id, {cause, "004.interact", {}, "picks up " + k->note}));
  }
  if (ParamOr(c, "takes", 0) != 0) return SetHands(d, a.id, FreeHands(a) - 1, cause, "004.interact", "takes an item in hand");
  if (ParamOr(c, "releases", 0) != 0) return SetHands(d, a.id, FreeHands(a) + 1, cause, "004.interact", "lets go of an item");
  return absl::OkStatus();
}

// l.24, param mode: "draw" (into an empty hand), "sheathe" (without
// replacing it), "swap" (change what a hand holds). Default: draw when a
// hand is free, else swap.
std::string SwitchMode(const Combatant& a, const fb::CommandT& c) {
  const std::string m = ParamText(c, "mode");
  if (!m.empty()) return m;
  return FreeHands(a) >= 1 ? "draw" : "swap";
}
Status CheckSwitch(const State&, const Combatant& a, const fb::CommandT& c) {
  const std::string m = SwitchMode(a, c);
  if (m != "draw" && m != "sheathe" && m != "swap") {
    return Malformed(c, "params.mode", "draw, sheathe or swap (l.24)");
  }
  if (m == "draw" && FreeHands(a) < 1) return Refuse("004.switch_weapons", a.id + " has no empty hand to draw into");
  if (m != "draw" && FreeHands(a) >= Hands(a)) {
    return Refuse("004.switch_weapons", a.id + " holds nothing to " + m);
  }
  return absl::OkStatus();
}
Status ResolveSwitch(Decision& d, const fb::CommandT& c, uint64_t cause) {
  const Combatant a = *d.state().Find(c.actor);
  const std::string m = SwitchMode(a, c);
  RETURN_IF_ERROR(RecordOutcome(d, c.actor, {cause, "004.switch_weapons", {}, c.text.empty() ? m : m + ": " + c.text}));
  if (m == "draw") return SetHands(d, a.id, FreeHands(a) - 1, cause, "004.switch_weapons", "draws into an empty hand");
  if (m == "sheathe") return SetHands(d, a.id, FreeHands(a) + 1, cause, "004.switch_weapons", "sheathes without replacing");
  return absl::OkStatus();
}

Status ResolveUseItem(Decision& d, const fb::CommandT& c, uint64_t cause) {
  return RecordOutcome(d, c.actor, {cause, "004.use_item", {}, c.text.empty() ? "uses an item" : c.text});
}

Status AddMovement(Decision& d, const std::string& who, int64_t times, uint64_t cause,
                   const char* rule) {
  const int64_t basic = d.state().Find(who)->Stat("basic_movement", 3);
  return AddResource(d, who, kMovement, basic * times,
                     {cause, rule, {{"basic_movement", basic}, {"times", times}}}).status();
}
Status ResolveMoveAction(Decision& d, const fb::CommandT& c, uint64_t cause) {
  return AddMovement(d, c.actor, 1, cause, "004.move");  // l.20
}
Status ResolveSprint(Decision& d, const fb::CommandT& c, uint64_t cause) {
  return AddMovement(d, c.actor, 4, cause, "004.sprint");  // l.21
}

// l.22: "from a creature within 1 m of you": any creature at most 1 m away,
// the actor itself included (0 m).
Status CheckStabilize(const State& s, const Combatant& a, const fb::CommandT& c) {
  ASSIGN_OR_RETURN(const Combatant* t, Target(s, c));
  if (Dist(a, *t) > 1) {
    return Refuse("004.stabilize", absl::StrCat(t->id, " is ", Dist(a, *t), " m away: it must be within 1 m"));
  }
  if (!s.Find(c.targets[0])->Has(kBleeding)) {
    return Refuse("004.stabilize", c.targets[0] + " is not Bleeding");
  }
  return absl::OkStatus();
}
Status ResolveStabilize(Decision& d, const fb::CommandT& c, uint64_t cause) {
  const int64_t bonus = d.state().Find(c.actor)->Stat("first_aid");
  ASSIGN_OR_RETURN(dice::RollResult r, d.Roll(D20(0, bonus), "first aid", c.actor, cause));
  const Nums nums{{"natural", r.natural()}, {"first_aid", bonus}, {"total", r.total}, {"dc", 8}};
  if (r.total < 8) return RecordOutcome(d, c.targets[0], {cause, "004.stabilize", nums, "failed"});
  return RemoveConditionsNamed(d, c.targets[0], kBleeding, {cause, "004.stabilize", nums, "stabilized"});
}

Status CheckSwitchPlaces(const State& s, const Combatant& a, const fb::CommandT& c) {
  RETURN_IF_ERROR(CheckWithin1m(s, a, c, "004.switch_places"));
  if (s.Find(c.targets[0])->side != a.side) return Refuse("004.switch_places", c.targets[0] + " is not an ally");
  return absl::OkStatus();
}
Status ResolveSwitchPlaces(Decision& d, const fb::CommandT& c, uint64_t cause) {
  const Combatant a = *d.state().Find(c.actor);
  const Combatant t = *d.state().Find(c.targets[0]);
  // l.23: the ally must use a reaction (1 RP) or the action fails. Reading:
  // it does when it has one, unless it declines (param declined=1).
  if (ParamOr(c, "declined", 0) != 0 || t.Resource(kRp) < 1 || !Alive(t)) {
    return RecordOutcome(d, t.id, {cause, "004.switch_places", {{"rp", t.Resource(kRp)}},
                                   "the ally does not react: the action fails"});
  }
  RETURN_IF_ERROR(SpendRp(d, t.id, 1, cause, "004.switch_places"));
  // l.32: climbers go with the creature they are on; a climber switched
  // off its mount is no longer on it.
  RETURN_IF_ERROR(MoveWithClimbers(d, a.id, {t.at}, 0, false, {cause, "004.switch_places"}));
  return MoveWithClimbers(d, t.id, {a.at}, 0, false, {cause, "004.switch_places"});
}

Status ResolveTakeCover(Decision& d, const fb::CommandT& c, uint64_t cause) {
  NewCondition k;
  k.actor = c.actor;
  k.name = kTakingCover;
  k.source = c.actor;
  k.expiry = UntilNextTurn(d.state(), c.actor);
  return AddCondition(d, k, {cause, "004.take_cover", {{"evasion", 2}, {"dr", 1}},
                             "while in half cover, until its next turn"}).status();
}

// ---- Advanced actions

Status CheckContest(const State& s, const Combatant& a, const fb::CommandT& c, const char* rule) {
  RETURN_IF_ERROR(CheckWithin1m(s, a, c, rule));
  return CheckSize(a, *s.Find(c.targets[0]), rule);
}

Status CheckBlind(const State& s, const Combatant& a, const fb::CommandT& c) { return CheckContest(s, a, c, "004.blind"); }
Status CheckTrip(const State& s, const Combatant& a, const fb::CommandT& c) { return CheckContest(s, a, c, "004.trip"); }
Status CheckGrab(const State& s, const Combatant& a, const fb::CommandT& c) {
  RETURN_IF_ERROR(CheckContest(s, a, c, "004.grab"));
  if (FreeHands(a) < 1) return Refuse("004.grab", a.id + " has no free hand (\"with a free hand\")");
  return absl::OkStatus();
}
// l.34: param take (1: the actor takes the dropped item; it needs a free
// hand); param item: the target's weapon that it drops (default: its first
// weapon that is not an Ability and is still in hand). "to drop one item
// that it is holding in their hand": a dropped weapon is no longer wielded,
// so attacks with it are refused until it is picked up (l.19).
const Weapon* DropCandidate(const Combatant& t, const std::string& item) {
  for (const Weapon& w : t.weapons) {
    if (w.kind == "ability" || DroppedWeapon(t, w.name) != nullptr) continue;
    if (item.empty() || w.name == item) return &w;
  }
  return nullptr;
}
Status CheckDisarm(const State& s, const Combatant& a, const fb::CommandT& c) {
  RETURN_IF_ERROR(CheckWithin1m(s, a, c, "004.disarm"));
  const Combatant* t = s.Find(c.targets[0]);
  if (FreeHands(*t) >= Hands(*t)) return Refuse("004.disarm", t->id + " holds nothing in a hand");
  const std::string item = ParamText(c, "item");
  if (!item.empty() && DropCandidate(*t, item) == nullptr) {
    return Malformed(c, "params.item", "a weapon (not an Ability) " + t->id + " holds in hand");
  }
  if (ParamOr(c, "take", 0) != 0 && FreeHands(a) < 1) {
    return Refuse("004.disarm", a.id + " has no free hand to take the dropped item");
  }
  return absl::OkStatus();
}
Status CheckShove(const State& s, const Combatant& a, const fb::CommandT& c) {
  RETURN_IF_ERROR(CheckContest(s, a, c, "004.shove"));
  if (c.path.size() != 1) return Malformed(c, "path", "the one square the target is shoved into (1 m, l.37)");
  RETURN_IF_ERROR(CheckOccupantsFailing(s, c));
  const Combatant* t = s.Find(c.targets[0]);
  if (!space::CheckStep(space::Metric::kChebyshev, t->at, {c.path[0].x(), c.path[0].y()})) {
    return Malformed(c, "path[0]", "a square next to the target");
  }
  return absl::OkStatus();
}
Status CheckClimb(const State& s, const Combatant& a, const fb::CommandT& c) {
  RETURN_IF_ERROR(CheckWithin1m(s, a, c, "004.climb"));
  if (SizeCat(*s.Find(c.targets[0])) < SizeCat(a) + 1) {
    return Refuse("004.climb", c.targets[0] + " is not at least one size category larger");
  }
  if (FreeHands(a) < 1 && !a.HasTag("climbs_without_hands")) {
    return Refuse("004.climb", a.id + " has no free hand (nor tag climbs_without_hands)");
  }
  return absl::OkStatus();
}

// Param `skill` must be one the action allows (InvalidArgument naming it).
Status CheckSkillParam(const fb::CommandT& c, const std::vector<std::string>& mine, const char* rule) {
  const std::string chosen = ParamText(c, "skill");
  if (!chosen.empty() && std::find(mine.begin(), mine.end(), chosen) == mine.end()) {
    std::string allowed;
    for (const std::string& m : mine) absl::StrAppend(&allowed, allowed.empty() ? "" : ", ", m);
    return Malformed(c, "params.skill", absl::StrCat("one of ", allowed, " (", Cite(rule), ")"));
  }
  return absl::OkStatus();
}

absl::StatusOr<bool> Contested(Decision& d, const fb::CommandT& c, uint64_t cause, const char* rule,
                               std::vector<std::string> mine, std::vector<std::string> theirs,
                               bool size_rules) {
  const Combatant a = *d.state().Find(c.actor);
  const Combatant t = *d.state().Find(c.targets[0]);
  Contest k{mine, theirs, size_rules};
  RETURN_IF_ERROR(CheckSkillParam(c, mine, rule));
  return RollContest(d, a, t, k, ParamText(c, "skill"), cause, rule);
}

Status ResolveBlind(Decision& d, const fb::CommandT& c, uint64_t cause) {
  ASSIGN_OR_RETURN(bool won, Contested(d, c, cause, "004.blind", ActorSkills("blind"),
                                       {"improvisation", "endurance"}, true));
  if (!won) return absl::OkStatus();
  NewCondition k;
  k.actor = c.targets[0];
  k.name = kBlinded;
  k.source = c.actor;
  k.expiry = EndOfNextTurn(d.state(), c.targets[0]);  // l.31
  return AddCondition(d, k, {cause, "004.blind", {}, "until the end of its next turn"}).status();
}

Status ResolveGrab(Decision& d, const fb::CommandT& c, uint64_t cause) {
  ASSIGN_OR_RETURN(bool won, Contested(d, c, cause, "004.grab", ActorSkills("grab"),
                                       {"athletics", "raw_force", "nimbleness"}, true));
  if (!won) return absl::OkStatus();
  NewCondition k;
  k.actor = c.targets[0];
  k.name = kGrabbed;
  k.source = c.actor;
  k.relative_to = c.actor;
  return AddCondition(d, k, {cause, "004.grab", {}, "grabbed by " + c.actor}).status();
}

Status ResolveTrip(Decision& d, const fb::CommandT& c, uint64_t cause) {
  ASSIGN_OR_RETURN(bool won, Contested(d, c, cause, "004.trip", ActorSkills("trip"),
                                       {"athletics", "nimbleness"}, true));
  if (!won) return absl::OkStatus();
  NewCondition k;
  k.actor = c.targets[0];
  k.name = kProne;
  k.source = c.actor;
  return AddCondition(d, k, {cause, "004.trip", {}, "knocked Prone"}).status();
}

Status ResolveDisarm(Decision& d, const fb::CommandT& c, uint64_t cause) {
  ASSIGN_OR_RETURN(bool won, Contested(d, c, cause, "004.disarm", ActorSkills("disarm"),
                                       ActorSkills("disarm"), false));
  if (!won) return absl::OkStatus();
  const Combatant t = *d.state().Find(c.targets[0]);
  RETURN_IF_ERROR(SetHands(d, t.id, FreeHands(t) + 1, cause, "004.disarm", "drops an item it held"));
  const bool take = ParamOr(c, "take", 0) != 0;
  if (const Weapon* w = DropCandidate(t, ParamText(c, "item")); w != nullptr) {
    NewCondition k;
    k.actor = t.id;
    k.name = kDisarmed;
    k.source = c.actor;
    k.level = take ? 1 : 0;
    k.note = w->name;
    RETURN_IF_ERROR(AddCondition(d, k, {cause, "004.disarm", {},
                                        "drops " + w->name + (take ? ", taken by " + c.actor : "")})
                        .status());
  }
  if (!take) return absl::OkStatus();
  const Combatant a = *d.state().Find(c.actor);
  return SetHands(d, a.id, FreeHands(a) - 1, cause, "004.disarm", "takes the dropped item");
}

Status ResolveShove(Decision& d, const fb::CommandT& c, uint64_t cause) {
  ASSIGN_OR_RETURN(bool won, Contested(d, c, cause, "004.shove", ActorSkills("shove"),
                                       {"athletics", "raw_force", "nimbleness"}, true));
  if (!won) return absl::OkStatus();
  return ForcedMove(d, c.actor, c.targets[0], PathOf(c), cause, "004.shove", {}, false, OccupantsFailing(c));
}

Status ResolveClimb(Decision& d, const fb::CommandT& c, uint64_t cause) {
  ASSIGN_OR_RETURN(bool won, Contested(d, c, cause, "004.climb", ActorSkills("climb"),
                                       {"athletics", "raw_force", "nimbleness", "quick_fingers"}, false));
  if (!won) return absl::OkStatus();
  const Pos at = d.state().Find(c.targets[0])->at;
  // From one creature onto another: off the first (l.32 "You occupy a
  // space that is also occupied by the target").
  RETURN_IF_ERROR(RemoveConditionsNamed(d, c.actor, kClimbing, {cause, "004.climb", {}, "climbs off onto " + c.targets[0]}));
  RETURN_IF_ERROR(MoveWithClimbers(d, c.actor, {at}, 0, false, {cause, "004.climb", {}, "onto " + c.targets[0]}));
  NewCondition k;
  k.actor = c.actor;
  k.name = kClimbing;
  k.source = c.actor;
  k.relative_to = c.targets[0];
  return AddCondition(d, k, {cause, "004.climb", {}, "on " + c.targets[0]}).status();
}

// l.32: the mount uses an action (2 AP) to shake the climber off: the
// climber repeats its check and is shaken off if it fails. Reading: it lands
// on the first free square next to the mount (row by row; the GM may move it).
Status CheckShakeOff(const State& s, const Combatant& a, const fb::CommandT& c) {
  ASSIGN_OR_RETURN(const Combatant* t, Target(s, c));
  // Nobody on it: that is why it cannot (status --for named the actor as
  // its own climber: "ann is not climbing ann").
  bool climbed = false;
  for (const auto& [id, o] : s.combatants) {
    const Condition* on = o.FindCondition(kClimbing);
    if (on != nullptr && on->relative_to == a.id) climbed = true;
  }
  if (!climbed) return Refuse("004.climb", "no creature is climbing " + a.id);
  if (t->id == a.id) return Malformed(c, "targets[0]", "the creature climbing " + a.id);
  const Condition* k = t->FindCondition(kClimbing);
  if (k == nullptr || k->relative_to != a.id) return Refuse("004.climb", t->id + " is not climbing " + a.id);
  return absl::OkStatus();
}
Status ResolveShakeOff(Decision& d, const fb::CommandT& c, uint64_t cause) {
  const Combatant mount = *d.state().Find(c.actor);
  const Combatant climber = *d.state().Find(c.targets[0]);
  Contest k{{"athletics", "nimbleness"}, {"athletics", "raw_force", "nimbleness", "quick_fingers"}, false};
  bool held = false;
  if (Alive(climber)) {
    ASSIGN_OR_RETURN(held, RollContest(d, climber, mount, k, "", cause, "004.climb"));
  } else {
    // l.32 "repeating the Skill Checks": the Dead (or an object) repeat
    // none, so it fails (as in RollContest).
    RETURN_IF_ERROR(RecordOutcome(d, climber.id, {cause, "004.climb", {},
                                                  climber.id + " makes no check (it cannot act): shaken off"}));
  }
  if (held) return absl::OkStatus();
  RETURN_IF_ERROR(RemoveConditionsNamed(d, climber.id, kClimbing, {cause, "004.climb", {}, "shaken off"}));
  for (int y = mount.at.y - 1; y <= mount.at.y + mount.size; ++y) {
    for (int x = mount.at.x - 1; x <= mount.at.x + mount.size; ++x) {
      const Pos p{x, y};
      if (space::Covers(mount.at, mount.size, p)) continue;
      const std::string terrain = d.state().TerrainAt(p);
      if (terrain == "wall" || terrain == "offmap" || d.state().OccupantAt(p, climber.id) != nullptr) continue;
      return Move(d, climber.id, {p}, 0, true, {cause, "004.climb", {}, "lands next to " + mount.id});
    }
  }
  return absl::OkStatus();
}

Status ResolveHide(Decision& d, const fb::CommandT& c, uint64_t cause) {
  const Combatant a = *d.state().Find(c.actor);
  ASSIGN_OR_RETURN(dice::RollResult r, d.Roll(D20(0, a.Stat("stealth")), "stealth", a.id, cause));
  std::vector<std::string> enemies;
  for (const auto& [id, o] : d.state().combatants) {
    if (Alive(o) && Enemies(a, o)) enemies.push_back(id);
  }
  std::string seen_by;               // the first enemy whose Perception was not beaten
  std::vector<std::string> beaten;   // the enemies it is hidden from by this Hide
  for (const std::string& e : enemies) {
    const int64_t per = d.state().Find(e)->Stat("perception");
    ASSIGN_OR_RETURN(dice::RollResult p, d.Roll(D20(0, per), "perception", e, cause));
    const Nums nums{{"stealth", r.total}, {"perception", p.total}};
    if (r.total <= p.total) {  // l.36: "beat"
      if (seen_by.empty()) seen_by = e;
      RETURN_IF_ERROR(RecordOutcome(d, a.id, {cause, "004.hide", nums, "seen by " + e}));
      continue;  // the hiding it ends, below
    }
    if (a.FindRelative(kHidden, e) != nullptr) {
      RETURN_IF_ERROR(RemoveCondition(d, a.id, a.FindRelative(kHidden, e)->id,
                                      {cause, "004.hide", nums, "hides again"}));
    }
    NewCondition k;
    k.actor = a.id;
    k.name = kHidden;
    k.source = a.id;
    k.relative_to = e;
    RETURN_IF_ERROR(AddCondition(d, k, {cause, "004.hide", nums, "hidden from " + e}).status());
    beaten.push_back(e);
  }
  if (seen_by.empty()) return absl::OkStatus();
  // l.36 "You stop being hidden if an enemy sees you ... You stay hidden
  // until the end of the turn if this happens during your turn": an enemy
  // whose Perception the new Stealth does not beat sees the creature, and
  // that ends the hiding, not the hiding from that one enemy (as the GM's
  // `gm_condition remove Hidden`, README "Hiding"): an earlier Hidden from
  // it, or from an enemy that made no check (Dead when the Hide was taken),
  // ends; only this Hide's successes stay ("You can stay hidden if you
  // successfully take the Hide action"). On its own turn what ended stays
  // to the end of the turn. (Black-box: the Hidden from the seeing enemy,
  // then from the Dead one, stayed until found.)
  std::vector<uint32_t> rest;
  for (const auto& [id, k] : d.state().Find(a.id)->conditions) {
    if (k.name == kHidden && k.expiry.kind == fb::ExpiryKind::Never &&
        std::find(beaten.begin(), beaten.end(), k.relative_to) == beaten.end()) {
      rest.push_back(id);
    }
  }
  for (uint32_t id : rest) {
    const Condition k = d.state().Find(a.id)->conditions.at(id);
    RETURN_IF_ERROR(RemoveCondition(d, a.id, id, {cause, "004.hide", {}, "seen by " + seen_by}));
    if (!d.state().IsTurnOf(a.id)) continue;
    NewCondition h;
    h.actor = a.id;
    h.name = kHidden;
    h.source = k.source;
    h.relative_to = k.relative_to;
    h.expiry = Expiry{fb::ExpiryKind::TurnEnd, a.id, d.state().round};
    RETURN_IF_ERROR(AddCondition(d, h, {cause, "004.hide", {}, "hidden until the end of the turn (l.36)"}).status());
  }
  return absl::OkStatus();
}

// l.33: "all of your summons" (roster field controller = the actor).
Status CheckCommand(const State& s, const Combatant& a, const fb::CommandT&) {
  for (const auto& [id, o] : s.combatants) {
    if (o.controller == a.id && Alive(o)) return absl::OkStatus();
  }
  return Refuse("004.command", a.id + " has no summons (combatants whose controller is " + a.id + ")");
}
Status ResolveCommand(Decision& d, const fb::CommandT& c, uint64_t cause) {
  std::vector<std::string> summons;
  for (const auto& [id, o] : d.state().combatants) {
    if (o.controller == c.actor && Alive(o)) summons.push_back(id);
  }
  NewCondition k;
  k.actor = c.actor;
  k.name = kCommanding;
  k.source = c.actor;
  k.note = absl::StrJoin(summons, ",");
  k.expiry = UntilNextTurn(d.state(), c.actor);
  return AddCondition(d, k, {cause, "004.command", {{"summons", static_cast<int64_t>(summons.size())}},
                             "direct control over its summons until its next turn"}).status();
}

Status CheckAttackRow(const State& s, const Combatant& a, const fb::CommandT& c) {
  return CheckAttack(s, a, c);
}

const std::vector<std::string> kAttackParams = {"miss", "nonlethal", "lethal_holy", "ignore_armor",
                                                "armor_from", "maneuver_tier", "lean_x", "lean_y"};

}  // namespace

// l.31, l.32, l.34, l.35, l.37, l.38.
const std::vector<std::string>& ActorSkills(const std::string& action) {
  static const auto* m = new std::map<std::string, std::vector<std::string>>{
      {"blind", {"quick_fingers", "nimbleness"}},
      {"climb", {"athletics", "nimbleness"}},
      {"disarm", {"athletics", "nimbleness", "raw_force", "quick_fingers"}},
      {"grab", {"athletics", "raw_force"}},
      {"shove", {"athletics", "raw_force"}},
      {"trip", {"athletics", "raw_force"}},
  };
  static const auto* none = new std::vector<std::string>();
  auto it = m->find(action);
  return it == m->end() ? *none : it->second;
}

const std::vector<ActionRow>& Actions() {
  static const auto* rows = new std::vector<ActionRow>{
      {"attack", "004.attack", 2, true, false, CheckAttackRow, ResolveAttack, kAttackParams},
      {"defend", "004.defend", 2, false, false, NoCheck, ResolveDefend, {}},
      {"interact", "004.interact", 1, false, false, CheckInteract, ResolveInteract, {"takes", "releases", "item"}},
      {"move_action", "004.move", 1, false, false, NoCheck, ResolveMoveAction, {}},
      {"sprint", "004.sprint", 3, false, false, NoCheck, ResolveSprint, {}},
      {"stabilize", "004.stabilize", 3, false, false, CheckStabilize, ResolveStabilize, {}},
      {"switch_places", "004.switch_places", 1, false, false, CheckSwitchPlaces, ResolveSwitchPlaces, {"declined"}},
      {"switch_weapons", "004.switch_weapons", 1, false, false, CheckSwitch, ResolveSwitch, {"mode"}},
      {"take_cover", "004.take_cover", 1, false, false, NoCheck, ResolveTakeCover, {}},
      {"use_item", "004.use_item", 3, false, false, NoCheck, ResolveUseItem, {}},
      {"blind", "004.blind", 2, false, false, CheckBlind, ResolveBlind, {"skill"}},
      {"climb", "004.climb", 2, false, false, CheckClimb, ResolveClimb, {"skill"}},
      {"shake_off", "004.climb", 2, false, false, CheckShakeOff, ResolveShakeOff, {}},
      {"command", "004.command", 1, false, false, CheckCommand, ResolveCommand, {}},
      {"disarm", "004.disarm", 2, false, false, CheckDisarm, ResolveDisarm, {"skill", "take", "item"}},
      {"grab", "004.grab", 2, false, false, CheckGrab, ResolveGrab, {"skill"}},
      {"hide", "004.hide", 2, false, false, NoCheck, ResolveHide, {}},
      {"shove", "004.shove", 1, false, false, CheckShove, ResolveShove, {"skill", "occupant_fails"}},
      {"trip", "004.trip", 2, false, false, CheckTrip, ResolveTrip, {"skill"}},
  };
  return *rows;
}

bool TakesTarget(const std::string& n) {
  return n == "attack" || n == "interact" || n == "stabilize" || n == "switch_places" || n == "blind" || n == "climb" ||
         n == "disarm" || n == "grab" || n == "shove" || n == "trip" || n == "shake_off";
}

const ActionRow* FindActionRow(const std::string& name) {
  for (const ActionRow& r : Actions()) {
    if (name == r.name) return &r;
  }
  return nullptr;
}

int64_t ApCost(const State& s, const Combatant& a, const ActionRow& row, const fb::CommandT& c) {
  (void)s;
  const std::string name = row.name;
  if (name == "attack") {
    // l.17: the Attack action (2 AP) is "one weapon attack"; an Ability
    // attack (l.54) costs what its Ability costs (another chapter): the
    // roster's weapon number "ap" (reading: 2, as an Attack, when absent).
    const Weapon* w = c.weapon.empty() ? (a.weapons.empty() ? nullptr : &a.weapons.front())
                                       : a.FindWeapon(c.weapon);
    if (w != nullptr && w->kind == "ability") {
      auto it = w->numbers.find("ap");
      if (it != w->numbers.end()) return it->second;
    }
  }
  // l.19, l.24: one free Interact or one free Switch Weapons per turn, not
  // both: the first of either on a turn is the free one unless `paid`=1;
  // Switch Weapons is free only drawing into an empty hand or sheathing
  // without replacing (l.24), never a swap.
  if ((name == "interact" || name == "switch_weapons") && a.Resource(kFreeInteract) == 0 &&
      a.Resource(kFreeSwitch) == 0 && ParamOr(c, "paid", 0) == 0 &&
      (name == "interact" || SwitchMode(a, c) != "swap")) {
    return 0;
  }
  return row.ap;
}

absl::StatusOr<bool> RollContest(Decision& d, const Combatant& a, const Combatant& t,
                                 const Contest& k, const std::string& chosen, uint64_t cause,
                                 const std::string& rule) {
  const std::string mine = chosen.empty() ? Best(a, k.actor_skills) : chosen;
  const std::string theirs = Best(t, k.target_skills);
  int am = 0;
  int tm = 0;
  if (k.size_rules) {
    if (SizeCat(t) > SizeCat(a)) tm = 1;   // l.31: a larger target: advantage
    if (SizeCat(t) < SizeCat(a)) am = 1;   // a smaller one: you have advantage
  }
  ASSIGN_OR_RETURN(dice::RollResult ar, d.Roll(D20(am, a.Stat(mine)), mine, a.id, cause));
  // An object, and a Dead creature (it cannot act: it takes no turns, RP
  // or AP), makes no check: l.109 "against a ... check made by the enemy",
  // l.34-38 "against the target's ... Check" name a check the target makes.
  if (!Alive(t)) {
    RETURN_IF_ERROR(RecordOutcome(d, t.id, {cause, rule, {{"actor", ar.total}},
                                            IsObject(t) ? "an object does not contest"
                                                        : "the Dead do not contest (they cannot act)"}));
    return true;
  }
  ASSIGN_OR_RETURN(dice::RollResult tr, d.Roll(D20(tm, t.Stat(theirs)), theirs, t.id, cause));
  const bool won = ar.total > tr.total;
  // l.31: the sizes give the advantage.
  const std::string sizes = absl::StrCat(t.id, " size ", SizeCat(t), " vs ", a.id, " size ", SizeCat(a));
  RETURN_IF_ERROR(RecordOutcome(d, t.id, {cause, rule,
                                          {{"actor_total", ar.total}, {"target_total", tr.total},
                                           {"actor_advantage", am, am != 0 ? sizes : "", "004.size"},
                                           {"target_advantage", tm, tm != 0 ? sizes : "", "004.size"}},
                                          absl::StrCat(a.id, " ", mine, " vs ", t.id, " ", theirs, ": ",
                                                       won ? "succeeds" : "fails")}));
  return won;
}

absl::Status CheckHeldActFields(const State& s, const Combatant& a, const ActionRow& row,
                                const fb::CommandT& act) {
  RETURN_IF_ERROR(CheckSkillParam(act, ActorSkills(row.name), row.rule));
  if (const std::string t = ParamText(act, "armor_from"); !t.empty() && !IsDamageType(t)) {
    return Malformed(act, "params.armor_from", "one of the 11 damage types (l.79)");
  }
  // Without its target a held act takes the creature that sets it off:
  // what needs the target is checked when it fires.
  if (TakesTarget(row.name) && act.targets.empty()) {
    if (!row.attack) return absl::OkStatus();
    const Weapon* w = act.weapon.empty() ? (a.weapons.empty() ? nullptr : &a.weapons.front())
                                         : a.FindWeapon(act.weapon);
    return w == nullptr ? absl::OkStatus() : CheckArmorFrom(*w, act);
  }
  const absl::Status checked = row.check(s, a, act);
  if (!checked.ok() && checked.code() != absl::StatusCode::kFailedPrecondition) return checked;
  return absl::OkStatus();
}

absl::Status DeclareAction(const ActionRow& row, const fb::CommandT& c, Decision& d) {
  // Fields, params, their types and values (`skill`, `armor_from`, `mode`):
  // the verb table (verbs.cc), checked before Decide; the one target is
  // what it cannot say.
  if (TakesTarget(row.name)) RETURN_IF_ERROR(CheckOneTarget(c));
  const State& s = d.state();
  ASSIGN_OR_RETURN(const Combatant* a, Actor(s, c));
  const int64_t cost = ApCost(s, *a, row, c);
  // A malformed command (a field the action cannot take: InvalidArgument /
  // NotFound, exit 2) is refused as such whatever the AP left; illegal acts
  // (FailedPrecondition) after the AP check.
  const absl::Status checked = row.check(s, *a, c);
  if (!checked.ok() && checked.code() != absl::StatusCode::kFailedPrecondition) return checked;
  RETURN_IF_ERROR(CheckAp(s, *a, cost, row.rule));
  RETURN_IF_ERROR(checked);
  const std::string who = a->id;
  const std::string name = row.name;
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  if (cost == 0 && (name == "interact" || name == "switch_weapons")) {
    RETURN_IF_ERROR(SetResource(d, who, name == "interact" ? kFreeInteract : kFreeSwitch, 1,
                                {decl, row.rule, {}, "the free one of this turn"}));
  }
  RETURN_IF_ERROR(SpendAp(d, who, cost, decl, row.rule));
  RETURN_IF_ERROR(FireOnDeclaration(d, c, decl, false));
  if (!Alive(*d.state().Find(who))) return absl::OkStatus();
  // A held action that fired may have made this act illegal (reading: it
  // then fails, its AP spent).
  if (absl::Status still = row.check(d.state(), *d.state().Find(who), c); !still.ok()) {
    return RecordOutcome(d, who, {decl, row.rule, {}, absl::StrCat("no longer possible: ", still.message())});
  }
  RETURN_IF_ERROR(row.resolve(d, c, decl));
  // l.36: acting on an enemy's body (Blind, Climb, Disarm, Grab, Shove,
  // Trip, shaking a climber off) clearly gives the location away (reading;
  // an attack does so at its roll, attack.cc).
  if (!row.attack && TakesTarget(row.name) && name != "stabilize" && name != "switch_places" &&
      name != "interact" && !c.targets.empty()) {
    const Combatant* t = d.state().Find(c.targets[0]);
    if (t != nullptr && Enemies(*d.state().Find(who), *t)) {
      RETURN_IF_ERROR(GiveAway(d, who, decl, absl::StrCat(name, " on ", t->id, " gives the location away")));
    }
  }
  return FireOnChanges(d, c, decl);
}

}  // namespace combat::kernel::aprp
