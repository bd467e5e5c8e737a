// Movement and opportunity attacks (l.11, l.26-27, l.80-84).
//
// move {path}: the active character moves up to its speed (stat "speed",
// metres; 1 m squares, every step 1 m, reading: the text gives no grid
// rule) without AP (l.11). dash {path}: 1 AP, another Speed of metres this
// turn (l.26). disengage: 1 AP, no opportunity attacks provoked for the
// rest of the turn (l.27). stand: 1 AP (reading), ends Prone (l.84).
//
// Opportunity attacks: every character has four armed pending acts of
// kind "opportunity" (kernel/pending.h) with the kernel's triggers
// (kernel/trigger.h): MovesWithinReach and LeavesReach (l.82), Casts
// (l.83) and StandsUp (l.84), hostile only. A declaration that sets some
// off (MatchDeclaration) is held back ("held_back"; a move first walks the
// squares up to the trigger) behind an "opportunity" window (InOrder, turn
// order) in which each foe answers `opportunity_attack` (a melee Strike as
// a reaction: 1 AP, counts as an attack, l.81) or `pass`. When every
// reaction is done the held-back act resumes (a move may set off others
// further on; each foe reacts once per act).
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "events/status_macros.h"
#include "kernel/command.h"
#include "kernel/authority.h"
#include "kernel/opposed_tests/internal.h"
#include "kernel/pending.h"
#include "kernel/window.h"

namespace combat::kernel::opposed {
namespace {

constexpr char kOpportunityAct[] = "opportunity";
constexpr char kOpportunityWindow[] = "opportunity";

bool IsMoveVerb(const std::string& a) { return a == "move" || a == "dash" || a == "sneak"; }

int64_t MeleeReach(const Combatant& c) {
  int64_t best = -1;
  for (const Weapon& w : c.weapons) {
    if (w.kind == "spell" || w.kind == "shield" || !IsMelee(w) || !Holds(c, w.name)) continue;
    if (ReachOf(w) > best) best = ReachOf(w);
  }
  return best;
}

std::vector<std::string> Owners(const std::vector<TriggerHit>& hits) {
  std::vector<std::string> out;
  for (const TriggerHit& h : hits) out.push_back(h.owner);
  return out;
}

absl::Status OpenOpportunity(Decision& d, uint64_t decl, uint32_t pending,
                             const fb::CommandT& c, const std::vector<std::string>& owners,
                             const std::string& rule) {
  WindowSpec w;
  w.trigger = decl;
  w.kind = kOpportunityWindow;
  w.eligible = owners;
  w.policy = fb::AnswerPolicy::InOrder;
  w.pay = fb::PayWhen::Before;
  w.pending = pending;
  return OpenWindow(d, w, {decl, rule, {},
                           absl::StrCat(c.actor, "'s ", c.action, " provokes: ",
                                        absl::StrJoin(owners, ", "),
                                        " may answer opportunity_attack or pass")})
      .status();
}

std::string RuleFor(const std::string& action) {
  if (action == "use_magic") return "003.opportunity.cast";
  if (action == "stand") return "003.opportunity.stand";
  return "003.opportunity.move";
}

// Walks the squares of `c` before the first trigger and holds the rest
// back behind an opportunity window; or walks all of it and finishes.
// `pending` 0 = the first time (opens the held-back act).
absl::Status Proceed(Decision& d, uint64_t decl, uint32_t pending, fb::CommandT c,
                     std::vector<std::string> reacted, int64_t done) {
  const Combatant* mover = d.state().Find(c.actor);
  std::vector<TriggerHit> hits;
  // A path that provoked on its last square resumes with nothing left to
  // walk: it finishes (resolved; a Sneak still makes its test, l.30).
  // Each foe answers with the act its reach sets off first along the path
  // (l.82 "within a foe's reach or leave it": leaving and coming back
  // provokes where it leaves; kernel MatchDeclaration).
  if (!mover->Has(kDisengaged) && !c.path.empty()) {  // l.27, l.82
    hits = MatchDeclaration(d.state(), c, OpportunityRules(), reacted);
  }
  const std::vector<Pos> path = PathOf(c);
  if (hits.empty()) {
    if (!path.empty()) RETURN_IF_ERROR(Walk(d, c.actor, path, decl, "003.move"));
    if (pending != 0) {
      RETURN_IF_ERROR(ClosePending(d, pending, "resolved", {decl, "003.move"}));
    }
    if (c.action == "sneak") {
      TestSpec t{c.actor, "stealth", GoverningAttribute("stealth"), 0, 0, 0, false, false,
                 "stealth test (sneak)"};
      ASSIGN_OR_RETURN(TestResult r, RollTest(d, t, decl));
      Nums nums = r.nums;
      nums.push_back({"pass", r.pass ? 1 : 0});
      RETURN_IF_ERROR(RecordOutcome(d, c.actor, {decl, "003.sneak", nums,
                                                 r.pass ? "stealth test passed: whether it is detected is the GM's (l.30)"
                                                        : "stealth test failed"}));
    }
    return absl::OkStatus();
  }
  const size_t steps = hits.front().step;
  const std::vector<Pos> first(path.begin(), path.begin() + steps);
  if (!first.empty()) RETURN_IF_ERROR(Walk(d, c.actor, first, decl, "003.move"));
  fb::CommandT rest = c;
  rest.path.erase(rest.path.begin(), rest.path.begin() + steps);
  for (const std::string& o : Owners(hits)) reacted.push_back(o);
  done += static_cast<int64_t>(steps);
  if (pending == 0) {
    NewPending np;
    np.kind = kHeldBack;
    np.actor = c.actor;
    np.decl = decl;
    np.command = rest;
    np.progress = done;
    np.reacted = reacted;
    ASSIGN_OR_RETURN(pending, OpenPending(d, np, {decl, "003.opportunity.move", {},
                                                  "the move waits for the opportunity attacks"}));
  } else {
    RETURN_IF_ERROR(UpdatePending(d, pending, done, &rest, &reacted,
                                  {decl, "003.opportunity.move", {}, "moved up to the trigger"}));
  }
  return OpenOpportunity(d, decl, pending, c, Owners(hits), "003.opportunity.move");
}

absl::Status CheckPathFor(const State& s, const Combatant& a, const fb::CommandT& c) {
  if (c.path.empty()) return Malformed(c, "path", "the squares entered, in order");
  space::PathRules pr;
  pr.action = c.action;
  pr.rule = "003.move";
  pr.cite = [](const std::string& r) { return Cite(r); };
  pr.occupant = [&](Pos sq, size_t, size_t) {
    const Combatant* o = s.OccupantAt(sq, a.id);
    return o == nullptr ? std::string() : o->id;
  };
  return space::CheckPath(s, kGrid.metric, a.at, a.size, PathOf(c), pr);
}

}  // namespace

const TriggerRules& OpportunityRules() {
  static const TriggerRules* rules = [] {
    auto* r = new TriggerRules;
    r->classify = [](const fb::CommandT& c) {
      ActClass k;
      k.move = IsMoveVerb(c.action);
      k.cast = c.action == "use_magic";
      k.stand = c.action == "stand";
      return k;
    };
    r->can_react = [](const State& s, const Combatant& o) {
      return CheckReaction(s, o, "opportunity_attack", true).ok() && MeleeReach(o) >= 0;
    };
    r->in_reach = [](const State&, const Combatant& owner, Pos at, int32_t size, const Trigger&) {
      return space::Distance(kGrid, at, size, owner.at, owner.size) <= MeleeReach(owner);
    };
    r->damage_resource = kHealth;
    r->prone_condition = kProne;
    return r;
  }();
  return *rules;
}

absl::Status ArmOpportunity(Decision& d, const std::string& who, uint64_t joined) {
  const fb::TriggerKind kinds[] = {fb::TriggerKind::MovesWithinReach, fb::TriggerKind::LeavesReach,
                                   fb::TriggerKind::Casts, fb::TriggerKind::StandsUp};
  for (fb::TriggerKind k : kinds) {
    NewPending p;
    p.kind = kOpportunityAct;
    p.actor = who;
    p.decl = joined;
    p.command.actor = who;
    p.command.action = "opportunity_attack";
    // The attack it arms is asked by whoever commands `who`: its player,
    // or the GM (the roster says).
    AssignAuthority(d.state(), p.command);
    p.trigger.kind = k;
    p.trigger.hostile_only = true;
    p.span = fb::Span::Rounds;
    RETURN_IF_ERROR(OpenPending(d, p, {0, "003.opportunity", {}, "armed: opportunity attack (l.81-84)"}).status());
  }
  return absl::OkStatus();
}

absl::Status Walk(Decision& d, const std::string& who, const std::vector<Pos>& path,
                  uint64_t cause, const std::string& rule) {
  if (path.empty()) return absl::OkStatus();
  const int64_t m = static_cast<int64_t>(path.size());  // 1 m per square
  RETURN_IF_ERROR(Move(d, who, path, m, false, {cause, rule, {{"metres", m}}}));
  RETURN_IF_ERROR(AddResource(d, who, kMoved, m, {cause, rule, {{"metres", m}}}).status());
  RETURN_IF_ERROR(LeaveCover(d, who, cause));
  return BreakGrapples(d, who, cause);
}

absl::Status DecideMove(const fb::CommandT& c, Decision& d) {
  const State& s = d.state();
  ASSIGN_OR_RETURN(const Combatant* a, Actor(s, c));
  const bool move = c.action == "move";
  if (move) {
    // Movement is no action (l.11): the active character's, without AP.
    if (!s.windows.empty()) return WindowFirst(s, "003.defend");
    if (s.active != a->id) return Refuse("003.move", "only the active character moves (it is " + s.active + "'s turn)");
    if (!Conscious(*a)) return Refuse("003.health", a->id + " is unconscious");
  } else {
    RETURN_IF_ERROR(CheckPrimary(s, *a, c.action, false, false));
  }
  if (a->Has(kGrappled)) return Refuse("003.grapple", a->id + " is grappled: it cannot move");
  // Dash and Sneak may come without a path: a Dash then only adds its
  // metres to the turn's movement (taken by later moves), a Sneak only tests.
  if (!(c.action != "move" && c.path.empty())) RETURN_IF_ERROR(CheckPathFor(s, *a, c));
  const int64_t metres = static_cast<int64_t>(c.path.size());
  if (metres > 0 && a->stats.count("speed") == 0) {
    return Refuse("003.move", a->id + " has no speed: the roster's stats.speed (metres) is needed to move");
  }
  const int64_t speed = a->Stat("speed");
  const int64_t allowance = speed + a->Resource(kDash) + (c.action == "dash" ? speed : 0);
  if (a->Resource(kMoved) + metres > allowance) {
    return Refuse(c.action == "dash" ? "003.dash" : "003.move",
                  absl::StrCat(a->id, " has moved ", a->Resource(kMoved), " m of ", allowance,
                               " m this turn; ", metres, " m more is too far"));
  }
  const std::string who = a->id;
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  if (!move) {
    RETURN_IF_ERROR(Spend(d, who, c.action, false, false, decl, "003." + c.action));
  }
  if (c.action == "dash") {
    RETURN_IF_ERROR(AddResource(d, who, kDash, speed, {decl, "003.dash", {{"speed", speed}}}).status());
  }
  RETURN_IF_ERROR(Proceed(d, decl, 0, c, {}, 0));
  return Settle(d, decl);
}

absl::Status DecideDisengage(const fb::CommandT& c, Decision& d) {
  ASSIGN_OR_RETURN(const Combatant* a, Actor(d.state(), c));
  RETURN_IF_ERROR(CheckPrimary(d.state(), *a, "disengage", false, false));
  const std::string who = a->id;
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  RETURN_IF_ERROR(Spend(d, who, "disengage", false, false, decl, "003.disengage"));
  NewCondition nc;
  nc.actor = who;
  nc.name = kDisengaged;
  nc.source = who;
  nc.expiry = Expiry{fb::ExpiryKind::TurnEnd, who, d.state().round};
  return AddCondition(d, nc, {decl, "003.disengage", {}, "no opportunity attacks for the rest of the turn"})
      .status();
}

absl::StatusOr<bool> HoldForOpportunity(Decision& d, const fb::CommandT& c, uint64_t decl) {
  // An opportunity attack is a melee Strike (l.81): only foes with the
  // caster (or the one standing up) in melee reach may make one.
  std::vector<TriggerHit> hits;
  const Combatant* actor = d.state().Find(c.actor);
  // l.27: after Disengage "you don't provoke opportunity attacks for the
  // rest of your turn": casting and standing up included.
  if (actor->Has(kDisengaged)) return false;
  for (const TriggerHit& h : MatchDeclaration(d.state(), c, OpportunityRules(), {})) {
    if (MeleeReaching(d.state(), *d.state().Find(h.owner), *actor) != nullptr) hits.push_back(h);
  }
  if (hits.empty()) return false;
  NewPending np;
  np.kind = kHeldBack;
  np.actor = c.actor;
  np.decl = decl;
  np.command = c;
  np.reacted = Owners(hits);
  ASSIGN_OR_RETURN(uint32_t pending, OpenPending(d, np, {decl, RuleFor(c.action), {},
                                                         "waits for the opportunity attacks"}));
  RETURN_IF_ERROR(OpenOpportunity(d, decl, pending, c, Owners(hits), RuleFor(c.action)));
  return true;
}

uint32_t ProneSince(const State& s, const std::string& who, uint64_t decl) {
  for (const auto& [id, k] : s.Find(who)->conditions) {
    if (k.name == kProne && k.added_at > decl) return id;
  }
  return 0;
}

namespace {

// l.84: standing up ends the Prone it stood up from. l.73: a Trip by an
// opportunity attack the stand provoked knocks it down as it stands: it
// does not stand up; the Trip's Prone (added after the stand was
// declared) has already taken the place of the Prone it lay in
// (maneuvers.cc Trip) and stays.
absl::Status FinishStand(Decision& d, const std::string& who, uint64_t decl) {
  if (ProneSince(d.state(), who, decl) != 0) return absl::OkStatus();
  return RemoveConditionsNamed(d, who, kProne, {decl, "003.opportunity.stand", {}, "stands up"});
}
}  // namespace

absl::Status DecideStand(const fb::CommandT& c, Decision& d) {
  ASSIGN_OR_RETURN(const Combatant* a, Actor(d.state(), c));
  RETURN_IF_ERROR(CheckPrimary(d.state(), *a, "stand", false, false));
  if (!a->Has(kProne)) return Refuse("003.opportunity.stand", a->id + " is not Prone");
  const std::string who = a->id;
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  RETURN_IF_ERROR(Spend(d, who, "stand", false, false, decl, "003.opportunity.stand"));
  ASSIGN_OR_RETURN(bool held, HoldForOpportunity(d, c, decl));
  if (held) return absl::OkStatus();
  return FinishStand(d, who, decl);
}

absl::Status ResumeOpportunity(Decision& d, uint32_t wid) {
  const uint64_t decl = d.state().windows.at(wid).trigger;
  std::string down;  // owners knocked out before answering (l.116, Settle)
  // Owners a ruling left conscious but unable to react before answering
  // (l.24 a reaction's AP, l.48 two Attacks; OpportunityDone): named with
  // the refusal, as the unconscious are (black-box case: the window
  // closed as a plain "reactions done", naming nobody).
  std::string cannot;
  std::string cannot_rule;
  for (const std::string& e : d.state().windows.at(wid).eligible) {
    const Window& w = d.state().windows.at(wid);
    const Combatant* o = d.state().Find(e);
    if (std::find(w.answered.begin(), w.answered.end(), e) != w.answered.end() || o == nullptr) continue;
    if (!Conscious(*o)) {
      absl::StrAppend(&down, down.empty() ? "" : ", ", e);
      continue;
    }
    const absl::Status no = CheckReaction(d.state(), *o, "opportunity_attack", true);
    if (no.ok()) continue;
    absl::StrAppend(&cannot, "; ", e, " can make no opportunity attack (", no.message(), ")");
    if (cannot_rule.empty()) {
      cannot_rule = Surprised(d.state(), *o)                              ? "003.surprise"
                    : o->Resource(kAp) < ApCost(*o, "opportunity_attack") ? "003.ap.cost"
                                                                           : "003.attacks";
    }
  }
  const std::string outcome =
      absl::StrCat("reactions done",
                   down.empty() ? "" : absl::StrCat("; ", down, " unconscious: no opportunity attack"),
                   cannot);
  const std::string rule = !down.empty() ? "003.health" : !cannot.empty() ? cannot_rule : "003.opportunity";
  ASSIGN_OR_RETURN(std::optional<PendingAct> held, CloseWindow(d, wid, outcome, {decl, rule}));
  if (!held.has_value()) return absl::OkStatus();
  const PendingAct p = *held;
  const Combatant* actor = d.state().Find(p.actor);
  if (!Conscious(*actor)) {
    return ClosePending(d, p.id, "cancelled: " + p.actor + " is unconscious", {decl, "003.health"});
  }
  if (IsMoveVerb(p.command->action)) {
    if (actor->Has(kGrappled)) {
      return ClosePending(d, p.id, "cancelled: grappled", {decl, "003.grapple"});
    }
    // The rest of the path from where the mover now stands (a push may
    // have moved it): still a legal path, or the move ends here. A push
    // (l.72) onto the path's next square puts the mover there: that square
    // is reached (not walked: no metres) and the path goes on from it.
    fb::CommandT rest = p.command;
    if (!rest.path.empty() && Pos{rest.path.front().x(), rest.path.front().y()} == actor->at) {
      rest.path.erase(rest.path.begin());
    }
    if (absl::Status ok = rest.path.empty() ? absl::OkStatus() : CheckPathFor(d.state(), *actor, rest);
        !ok.ok()) {
      return ClosePending(d, p.id, absl::StrCat("stopped: ", ok.message()), {decl, "003.move"});
    }
    return Proceed(d, decl, p.id, rest, p.reacted, p.progress);
  }
  if (p.command->action == "stand" && ProneSince(d.state(), p.actor, decl) != 0) {
    RETURN_IF_ERROR(ClosePending(d, p.id, "stopped: knocked prone by a Trip as it stood up",
                                 {decl, "003.maneuver.trip"}));
    return FinishStand(d, p.actor, decl);
  }
  if (p.command->action == "use_magic" && !p.command->targets.empty()) {
    // l.46 "Make a Sorcery test against a foe within the spell's range":
    // the test is made now, after the opportunity attacks (l.83), from
    // where the caster stands; a Push (l.72) may have put the foe beyond
    // the range: the spell attack is not made (its AP and its Attack, l.48,
    // stay spent, as a held move's metres do).
    const fb::CommandT& cast = p.command.object();
    const Weapon* spell = cast.weapon.empty() ? nullptr : actor->FindWeapon(cast.weapon);
    const Combatant* target = d.state().Find(cast.targets[0]);
    if (spell != nullptr && Trait(*spell, "attack") && target != nullptr) {
      if (absl::Status in_range = SpellInRange(*actor, *target, *spell); !in_range.ok()) {
        return ClosePending(d, p.id, absl::StrCat("stopped: ", in_range.message()), {decl, "003.spell_attack"});
      }
    }
  }
  RETURN_IF_ERROR(ClosePending(d, p.id, "resolved", {decl, RuleFor(p.command->action)}));
  if (p.command->action == "stand") return FinishStand(d, p.actor, decl);
  if (p.command->action == "use_magic") return ResolveMagic(d, p.command, decl);
  return absl::OkStatus();
}

absl::Status DecideOpportunity(const fb::CommandT& c, Decision& d) {
  const State& s = d.state();
  const bool pass = c.action == "pass";
  RETURN_IF_ERROR(CheckAnswer(s, c, Cite("003.opportunity")));
  const Window& w = s.windows.at(c.window);
  if (w.kind != kOpportunityWindow) {
    return Malformed(c, "window", absl::StrCat("window ", w.id, " is a ", w.kind, " window: answer it with ",
                                               w.kind == "defense" ? "defend" : "maneuver"));
  }
  ASSIGN_OR_RETURN(const Combatant* a, Actor(s, c));
  const std::string who = a->id;
  const uint64_t trigger = w.trigger;
  if (pass) {
    RETURN_IF_ERROR(Answer(d, c).status());
    return Settle(d, trigger);
  }
  const PendingAct* held = s.FindPending(w.pending);
  const std::string mover = held->actor;
  if (!c.targets.empty() && (c.targets.size() != 1 || c.targets[0] != mover)) {
    return Malformed(c, "targets", "an opportunity attack targets the provoking " + mover);
  }
  if (c.weapon.empty()) return Malformed(c, "weapon", "the melee weapon to strike with");
  const Weapon* weapon = a->FindWeapon(c.weapon);
  if (weapon == nullptr) return NoSuchWeapon("opportunity_attack", *a, c.weapon);
  if (weapon->kind == "shield") {  // l.36 "a special form of Strike": as a Strike (l.31, combat_roll.cc)
    return Refuse("003.strike.weapon", absl::StrCat("field 'weapon': ", weapon->name,
                                                    " is a shield, no weapon to Strike with (l.93-94): an opportunity "
                                                    "attack is a special form of Strike (l.36)"));
  }
  if (!IsMelee(*weapon) || weapon->kind == "spell" || !Holds(*a, weapon->name)) {
    return Refuse("003.opportunity", "an opportunity attack is a melee Strike with a held melee weapon");
  }
  RETURN_IF_ERROR(CheckReaction(s, *a, "opportunity_attack", true));
  if (Distance(*a, *s.Find(mover)) > ReachOf(*weapon)) {
    return Refuse("003.opportunity", mover + " is beyond " + weapon->name + "'s reach");
  }
  const std::string attr = ParamText(c, "attribute");
  if (!attr.empty() && attr != "str" && attr != "agi") return Malformed(c, "params.attribute", "str or agi");
  ASSIGN_OR_RETURN(uint64_t seq, Answer(d, c));
  RETURN_IF_ERROR(Spend(d, who, "opportunity_attack", true, false, seq, "003.opportunity"));
  fb::CommandT atk = c;
  atk.targets = {mover};
  atk.window = 0;
  return OpenAttack(d, atk, seq);
}

}  // namespace combat::kernel::opposed
