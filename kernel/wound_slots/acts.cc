// Acts: declare -> (window) -> resolve, and acting out of turn (l.123-125).
//
// A verb of the table below, declared by the combatant whose turn it is:
//   - costing more AP than it has: an act paid over several turns
//     (budget.cc, l.111);
//   - otherwise, when someone may act before it resolves, a kernel window
//     opens (AnyOrder, PayWhen::AtResolution) holding the act back
//     (pending "held_back"). Eligible: every other combatant able to act
//     whose initiative is higher than the actor's (l.124: "if your
//     initiative is higher than the active character's"), above 0 (l.120),
//     with AP; and, for a ranged weapon attack, every hostile creature that
//     has the attacker within its melee reach (Harry's trigger, l.201).
//     Answers:
//       `interrupt` (params act=<verb> and the verb's own) — an action out
//         of turn: the declared act does not take place and its AP is not
//         spent; the interrupter's initiative drops by 2 (l.124) and its act
//         resolves. A reaction (act=harry) answers without cancelling and
//         without an initiative cost (l.125).
//       `pass` — when everyone eligible has answered, the act resolves.
//       `resolve` (its actor or the GM) — nobody else acts: it resolves.
//       `cancel` (its actor) — it does not happen, no AP spent.
//   - otherwise it resolves at once.
// A verb declared by anyone else is an action out of turn (l.124: at the
// start or end of a turn, or after an action resolved): allowed when its
// initiative is higher than the active character's and above 0, and costs
// 2 initiative; reactions (l.125) cost no initiative; buying movement out of
// turn costs no initiative either (l.160).
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "events/status_macros.h"
#include "kernel/pending.h"
#include "kernel/window.h"
#include "kernel/wound_slots/internal.h"

namespace combat::kernel::wound_slots {
namespace {

using P = std::vector<std::string>;

Verb V(const char* name, const char* rule, ActionKind kind, int64_t ap,
       CheckFn check, ResolveFn resolve, P params = {}, bool reaction = false) {
  Verb v{{name, rule, kind, nullptr, check, resolve}, ap, std::move(params), reaction};
  return v;
}

const std::vector<Verb>& Table() {
  static const std::vector<Verb>* t = new std::vector<Verb>{
      V("standard_attack", "001.act.standard", Kind(kAttack), 4, CheckAttack, ResolveStandard, {"cover"}),
      V("quick_attack", "001.act.quick", Kind(kAttack), 3, CheckMeleeAttack, ResolveQuick, {"cover"}),
      V("strong_attack", "001.act.strong", Kind(kAttack), 6, CheckMeleeAttack, ResolveStrong, {"cover"}),
      V("nonlethal_attack", "001.act.nonlethal", Kind(kAttack), 4, CheckMeleeAttack, ResolveNonlethal, {"cover", "level", "knockout"}),
      V("rebuff", "001.act.rebuff", Kind(kAttack), 2, CheckMeleeAttack, ResolveRebuff, {"cover"}, true),
      V("harry", "001.act.harry", Kind(), 2, CheckHarry, ResolveHarry, {}, true),
      V("defend", "001.act.defend", Kind(), 2, CheckNothing, ResolveDefend),
      V("seize_initiative", "001.act.seize", Kind(), 4, CheckSeize, ResolveSeize),
      V("change_posture", "001.act.posture", Kind(kStand), 2, CheckPosture, ResolvePosture, {"to"}),
      V("retrieve", "001.act.retrieve", Kind(), 1, CheckRetrieve, ResolveRetrieve, {"container", "item"}),
      V("stow", "001.act.retrieve", Kind(), 1, CheckRetrieve, ResolveRetrieve, {"container", "item"}),
      V("use_object", "001.act.use_object", Kind(), 2, CheckUseObject, ResolveUseObject, {"object", "ap"}),
      V("hinder", "001.act.hinder", Kind(kAttack), 4, CheckHinder, ResolveHinder, {"hindrance", "defense", "dx", "dy", "yards"}),
      V("treat_wound", "001.act.treat_wound", Kind(), 6, CheckTreatWound, ResolveTreatWound, {"level", "kit"}),
      V("stabilize", "001.act.stabilize", Kind(), 4, CheckStabilize, ResolveStabilize, {"kit"}),
      V("buy_move", "001.move.pool", Kind(kMoves), 4, CheckBuyMove, ResolveBuyMove, {"ap"}),
      V("dash", "001.act.dash", Kind(kMoves), 2, CheckDash, ResolveDash),
      V("cast_spell", "001.act.cast", Kind(kCast), 4, CheckCast, ResolveCast, {"spend", "invest", "rounds"}),
      V("end_effect", "001.act.end_effect", Kind(), 2, CheckEndEffect, ResolveEndEffect, {"effect"}),
      V("ready", "001.act.ready", Kind(), 2, CheckReady, ResolveReady, {"act"}),
      V("create_opening", "001.act.opening", Kind(kAttack), 3, CheckMeleeAttack, ResolveOpening),
      V("enter_space", "001.act.enter", Kind(kMoves), 3, CheckEnterSpace, ResolveEnterSpace),
      V("treat_condition", "001.act.treat_condition", Kind(), 4, CheckTreatCondition, ResolveTreatCondition, {"condition", "tn", "kit", "spec"}),
      V("mount", "001.mount", Kind(kMoves), 4, CheckMount, ResolveMount),
      V("dismount", "001.mount", Kind(kMoves), 4, CheckDismount, ResolveDismount),
      V("regain_control", "001.mount.untrained", Kind(), 8, CheckRegainControl, ResolveRegainControl),
      V("jump", "001.jump", Kind(kMoves), 1, CheckJump, ResolveJump, {"kind", "landing_tn"}),
      V("surface", "001.swim_climb", Kind(kMoves), 4, CheckSurface, ResolveSurface, {"tn"}),
      V("grapple", "001.grapple", Kind(kAttack), 4, CheckGrapple, ResolveGrapple),
      V("pin", "001.pin", Kind(kAttack), 4, CheckPin, ResolvePin),
      V("escape", "001.escape", Kind(), 4, CheckEscape, ResolveEscape, {"tn"}),
      V("drag", "001.drag", Kind(kMoves), 4, CheckDrag, ResolveDrag),
      V("cling", "001.cling", Kind(), 2, CheckCling, ResolveCling, {"reduce"}, true),
      V("interpose", "001.interpose", Kind(), 2, CheckInterpose, ResolveInterpose, {}, true),
  };
  return *t;
}

bool IsMovement(const Verb& v) { return std::string(v.row.name) == "buy_move"; }

// l.282 "Trained mounts can be made to attack or perform other actions on
// command": a ridden (not `sentient`) mount's acts are its rider's
// commands, and a rider unable to act (dead, unconscious: l.108) gives
// none: the mount acts neither on the shared turn nor out of it (l.124).
bool Uncommanded(const State& s, const Combatant& a) {
  const Condition* k = a.FindCondition("Ridden");
  if (k == nullptr || a.HasTag("sentient")) return false;
  const Combatant* r = s.Find(k->relative_to);
  return r != nullptr && (IsDead(*r) || r->Has("Unconscious"));
}

absl::Status CheckCommanded(const State& s, const Combatant& a) {
  if (!Uncommanded(s, a)) return absl::OkStatus();
  return Refuse("001.mount", absl::StrCat(a.id, "'s rider ", a.FindCondition("Ridden")->relative_to,
                                          " cannot act: it commands no act of its mount (l.282)"));
}

// Who may act before `actor`'s declared act resolves.
std::vector<std::string> Eligible(const State& s, const Combatant& actor,
                                  const fb::CommandT& c) {
  const int64_t mine = InitiativeOf(s, actor.id);
  const Weapon* w = WeaponOf(actor, c);
  const bool ranged_attack = std::string(c.action).find("attack") != std::string::npos &&
                             w != nullptr && IsRanged(*w);
  std::vector<std::string> out;
  for (const auto& [id, o] : s.combatants) {
    if (id == actor.id || IsDead(o) || o.Has("Unconscious") || o.Resource(res::kAp) < 1 || Uncommanded(s, o)) continue;
    const int64_t init = InitiativeOf(s, id);
    if (init <= 0) continue;  // l.120
    bool may = init > mine;   // l.124
    // l.235 "The target is unable to take any other actions while pinned":
    // no reaction (a readied action, Harry, Interpose); acting first it may
    // only Escape (CheckActor), so it is in the window only with the AP an
    // Escape costs (4, l.217; DecideInterrupt pays no act over turns). One
    // helpless (l.185) is the same ("helpless and immobile until it
    // succeeds on an Escape attempt", l.235), in the window only while a
    // grapple holds it (was: never, though it may Escape on its turn).
    const bool bound = o.Has("Pinned") || o.Has("Helpless");
    if (!may && bound) continue;
    if (bound && o.Resource(res::kAp) < CostOf(o, *FindVerb("escape"), fb::CommandT{})) continue;
    if (!o.Has("Pinned") && o.Has("Helpless") && o.FindCondition("Grappling") == nullptr) continue;
    if (!may && o.Has("Readied")) may = true;  // l.204: a readied action is a reaction "in response to any event"
    // l.202: "You can only use this reaction once per round per target": a
    // creature that harried this attacker this round has no trigger left.
    bool harried_by_o = false;
    for (const auto& [hid, k] : actor.conditions) {
      harried_by_o = harried_by_o || (k.name == "Harried" && k.source == id);
    }
    if (!may && ranged_attack && o.side != actor.side && !harried_by_o) {
      for (const Weapon& ow : o.weapons) {  // l.201: "within reach of your melee weapon"
        // l.280: a rider is 1 yard farther from a smaller creature on foot.
        may = may || (!IsRanged(ow) && !Dropped(o, ow) && WithinReach(s, o, actor, &ow));
      }
    }
    if (!may && FindVerb(c.action) != nullptr && FindVerb(c.action)->row.kind.cls.attack &&
        !c.targets.empty() && c.targets[0] == id) {
      for (const auto& [cid, k] : o.conditions) {
        may = may || (k.name == "Grappling" && k.relative_to != actor.id);  // l.232: someone to interpose
      }
    }
    if (may) out.push_back(id);
  }
  return out;
}

fb::CommandT Inner(const fb::CommandT& c, const std::string& verb) {
  fb::CommandT act = c;
  act.action = verb;  // keeps `window`: Interpose reads the act it answers
  act.refs.clear();
  act.params.clear();
  for (const auto& p : c.params) {
    if (p && p->key != "act") act.params.push_back(std::make_unique<fb::ParamT>(*p));
  }
  return act;
}

// l.204: a readied action is taken as a reaction.
bool AsReaction(const Combatant& actor, const Verb& v) {
  if (v.reaction) return true;
  const Condition* r = actor.FindCondition("Readied");
  return r != nullptr && r->note == v.row.name;
}

// Below: the entrants' rebuffers (l.189, l.216).
std::vector<std::string> EntryRebuffers(const State& s, const Combatant& a, const fb::CommandT& c);

// l.125: "Reactions ... you can take any time that its requirements are
// met": a reaction answers the window its trigger opened. Rebuff: "A
// creature you can see attempts to approach" (l.189): the approach window
// of that creature's move. Harry: "A creature within reach of your melee
// weapon attempts to make a ranged weapon attack" (l.201): the window of
// that creature's ranged attack. Cling: "A target you are grappling is
// about to move out of reach" (l.225): the window of that target's move.
// Interpose checks its own (grapple.cc). `held` is null for a reaction
// declared outside any window: no trigger, refused.
absl::Status CheckTrigger(const State& s, const Verb& v, const fb::CommandT& act,
                          const PendingAct* held) {
  const std::string name = v.row.name;
  if (!v.reaction || name == "interpose") return absl::OkStatus();
  const std::string rule = name == "rebuff" ? "001.act.rebuff" : name == "harry" ? "001.act.harry" : "001.reaction";
  const std::string trigger = name == "rebuff"   ? "a creature approaching within your weapon's reach (l.189)"
                              : name == "harry" ? "a ranged weapon attack by a creature within your melee reach (l.201)"
                                                : "a creature you grapple about to move out of reach (l.225)";
  const std::string target = act.targets.empty() ? "" : act.targets[0];
  if (held == nullptr) {
    return Refuse(rule, absl::StrCat(name, " is a reaction: it answers the window of its trigger, ", trigger));
  }
  bool met = held->actor == target;
  if (name == "cling" && !met) {
    // l.225: a rider is "about to move out of reach" when its mount moves
    // (l.280: the mount carries it, l.220).
    const Combatant* t = s.Find(target);
    const Condition* k = t == nullptr ? nullptr : t->FindCondition("Riding");
    met = k != nullptr && k->relative_to == held->actor;
  }
  if (name == "harry") {
    const Verb* hv = FindVerb(held->command->action);
    const Combatant* attacker = s.Find(held->actor);
    const Weapon* w = attacker == nullptr ? nullptr : WeaponOf(*attacker, held->command);
    met = met && hv != nullptr && hv->row.kind.cls.attack && w != nullptr && IsRanged(*w);
  } else {
    // A walk's approach window, or a long jump's (movement.cc ForJump);
    // for Rebuff also an entry into an occupied space (EntryRebuffers).
    met = met && (held->command->action == "move" || held->command->action == "jump" ||
                  (name == "rebuff" && held->command->action == "enter_space"));
    if (met && name == "rebuff") {
      // l.189: "A creature you can see attempts to approach closer than your
      // weapon's optimal reach": the trigger is the rebuffer's own; a
      // creature in the window for another reason (acting first, l.124; a
      // Cling, l.225; a readied action, l.204) whose reach the held step,
      // jump or entry does not enter has none (was: it could rebuff).
      const Combatant* mover = s.Find(held->actor);
      const fb::CommandT& cmd = held->command.object();
      std::vector<std::string> may;
      if (cmd.action == "enter_space") {
        may = EntryRebuffers(s, *mover, cmd);
      } else {
        std::vector<Pos> path = PathOf(cmd);
        if (cmd.action == "move" && path.size() > 1) path.resize(1);  // the step the move waits before
        may = ForJump(s, *mover, path).rebuffers;
      }
      met = std::find(may.begin(), may.end(), act.actor) != may.end();
    }
    if (met && name == "cling" && held->command->action == "jump") {
      // l.225: "A target you are grappling is about to move out of reach":
      // a grappler in a long jump's window for acting first (l.124) or a
      // readied action (l.204) whose reach the jump does not leave has no
      // trigger (was: it could cling). (A walk's window is opened at the
      // step leaving its reach, or before the first for a readied action.)
      const std::vector<std::string> may = ForJump(s, *s.Find(held->actor), PathOf(held->command.object())).clingers;
      met = std::find(may.begin(), may.end(), act.actor) != may.end();
    }
  }
  if (!met) {
    return Refuse(rule, absl::StrCat("this window is not ", name, "'s trigger (", trigger, ") by ",
                                     target.empty() ? "its target" : target));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckActor(const Combatant& actor, const Verb& v) {
  if (IsDead(actor)) return Refuse("001.wound.fatal", actor.id + " is dead");
  if (actor.Has("Unconscious")) return Refuse("001.wound.fatal", actor.id + " is unconscious");
  if ((actor.Has("Pinned") || actor.Has("Helpless")) && std::string(v.row.name) != "escape") {
    return Refuse("001.pin", actor.id + " is pinned or helpless: it cannot act");
  }
  return absl::OkStatus();
}

namespace {

// l.178: the AP a jump pays buy the movement its path lacks beyond the
// pool: `_jump_ap`, which its resolution buys yards with (mount.cc), is
// `cost` when the pool falls short, absent otherwise.
void SetJumpAp(const Combatant& a, fb::CommandT& act, int64_t cost) {
  DropParam(act, "_jump_ap");
  if (JumpYards(a, act) <= a.Resource(res::kMovePool)) return;
  SetParam(act, "_jump_ap", cost);
}

// Resolves the act `pending` holds, after its window closed.
absl::Status ResolveHeld(Decision& d, const PendingAct& held, uint64_t cause,
                         const std::string& why) {
  fb::CommandT act = held.command;
  const uint64_t decl = held.decl;
  const uint32_t id = held.id;
  if (act.action == "move") {  // an approach window (movement.cc)
    RETURN_IF_ERROR(ClosePending(d, id, "resolved", {cause, "001.act.rebuff", {}, why}));
    return ContinueMove(d, held, cause);
  }
  const Verb* v = FindVerb(act.action);
  const Combatant* actor = d.state().Find(held.actor);
  if (absl::Status st = CheckActor(*actor, *v); !st.ok()) {
    return ClosePending(d, id, absl::StrCat("cancelled: ", st.message()), {cause, "001.out_of_turn"});
  }
  if (absl::Status st = v->row.validate(d.state(), *actor, act); !st.ok()) {
    return ClosePending(d, id, absl::StrCat("cancelled: ", st.message()), {cause, "001.out_of_turn"});
  }
  if (CostOf(*actor, *v, act) > actor->Resource(res::kAp)) {
    return ClosePending(d, id, "cancelled: not enough AP left", {cause, "001.ap.spend"});
  }
  // A Cling may have cut the jump's path and its pool (l.226): its AP are
  // what it costs now. They buy the movement the path lacks, whatever a
  // quicker performance (`_cost`, l.271) takes off what is paid.
  if (act.action == "jump") {
    fb::CommandT plain = act;
    DropParam(plain, "_cost");
    SetJumpAp(*actor, act, CostOf(*actor, *v, plain));
  }
  RETURN_IF_ERROR(ClosePending(d, id, "resolved", {cause, "001.out_of_turn", {}, why}));
  return ResolveAct(d, act, decl, /*spend=*/true);
}

// Closes `window` and resolves the act it held. `by` is the combatant whose
// command closes it: when that is not the act's own actor (everyone else
// answered or passed, the GM resolved it), the act takes place by itself —
// the system's, not the passer's (its declaration names its author).
absl::Status CloseAndResolve(Decision& d, uint32_t window, uint64_t cause,
                             const std::string& why, const std::string& by) {
  ASSIGN_OR_RETURN(std::optional<PendingAct> held,
                   CloseWindow(d, window, why, {cause, "001.out_of_turn"}));
  if (!held.has_value()) return absl::OkStatus();
  if (held->actor == by) return ResolveHeld(d, *held, cause, why);
  Decision::SystemSteps system(d);
  return ResolveHeld(d, *held, cause, why);
}

// l.189 Rebuff's trigger, "A creature you can see attempts to approach
// closer than your weapon's optimal reach", and l.216 "You attempt to enter
// a space occupied by another creature": coming into the target's own space
// is as near as it can come, closer than any reach: the entry waits for the
// target's Rebuff (a melee weapon in hand), and for those whose reach the
// step into that space enters, as a walk's step would (movement.cc
// ForJump, a one-step path).
std::vector<std::string> EntryRebuffers(const State& s, const Combatant& a, const fb::CommandT& c) {
  std::vector<std::string> out;
  const Combatant* t = s.Find(c.targets[0]);
  const Verb* rebuff = FindVerb("rebuff");
  if (t->side != a.side && !IsOut(*t) && !t->Has("Pinned") && !Uncommanded(s, *t) && InitiativeOf(s, t->id) > 0 &&
      t->Resource(res::kAp) >= CostOf(*t, *rebuff, fb::CommandT{})) {
    for (const Weapon& w : t->weapons) {
      if (!IsRanged(w) && !Dropped(*t, w)) {
        out.push_back(t->id);
        break;
      }
    }
  }
  for (const std::string& id : ForJump(s, a, {SpaceOf(s, *t).at}).rebuffers) {
    if (std::find(out.begin(), out.end(), id) == out.end()) out.push_back(id);
  }
  return out;
}

// Holds `act` (declared as `decl`) back in a window for `eligible`: those
// who may act first (`first`, l.124) and a long jump's reactors (`jump`,
// l.189, l.204, l.225).
absl::Status HoldBack(Decision& d, const fb::CommandT& act, uint64_t decl, uint64_t cause, int64_t cost,
                      const std::vector<std::string>& first, const std::vector<std::string>& eligible,
                      const JumpReactors& jump, int64_t init) {
  NewPending p;
  p.kind = kHeldBack;
  p.actor = act.actor;
  p.decl = decl;
  p.command = act;
  p.cost_due = cost;
  p.budget = res::kAp;
  ASSIGN_OR_RETURN(uint32_t id, OpenPending(d, p, {cause, "001.out_of_turn", {{"cost", cost}}}));
  WindowSpec w;
  w.trigger = decl;
  w.kind = first.empty() ? "approach" : "declared";
  w.eligible = eligible;
  w.policy = fb::AnswerPolicy::AnyOrder;
  w.pay = fb::PayWhen::AtResolution;
  w.pending = id;
  std::vector<std::string> may;
  if (!first.empty()) may.push_back("may act first: " + absl::StrJoin(first, ", "));
  if (!jump.rebuffers.empty()) {
    may.push_back(absl::StrCat("may rebuff the ", act.action == "jump" ? "jump" : "entry", ": ",
                               absl::StrJoin(jump.rebuffers, ", ")));
  }
  if (!jump.readied.empty()) may.push_back("may take a readied action: " + absl::StrJoin(jump.readied, ", "));
  if (!jump.clingers.empty()) may.push_back("may cling: " + absl::StrJoin(jump.clingers, ", "));
  return OpenWindow(d, w, {cause, !jump.rebuffers.empty() ? "001.act.rebuff" : !jump.clingers.empty() ? "001.cling" : "001.out_of_turn",
                           {{"initiative", init}}, absl::StrJoin(may, "; ")})
      .status();
}

}  // namespace

const std::vector<Verb>& Acts() { return Table(); }

const Verb* FindVerb(const std::string& name) {
  for (const Verb& v : Table()) {
    if (name == v.row.name) return &v;
  }
  return nullptr;
}

int64_t CostOf(const Combatant& c, const Verb& v, const fb::CommandT& cmd) {
  if (HasParam(cmd, "_cost")) return ParamOr(cmd, "_cost", 1);  // performed more quickly (timing.cc)
  const std::string name = v.row.name;
  int64_t base = v.ap;
  if (name == "retrieve" || name == "stow") {
    const std::string k = ParamText(cmd, "container");
    base = (k == "pouch" || k == "concealed") ? 3 : (k == "sack" || k == "backpack") ? 6 : 1;  // l.207-209
    return ApCost(c, name + "/" + (k.empty() ? "scabbard" : k), base);
  }
  if (name == "use_object") {
    const std::string k = ParamText(cmd, "object");
    if (HasParam(cmd, "ap")) return std::max<int64_t>(1, ParamOr(cmd, "ap", 1));  // item / GM cost
    base = k == "potion" ? 4 : k == "bell" ? 6 : k == "fire" ? 8 : 2;  // l.265-269
    return ApCost(c, name + "/" + k, base);
  }
  if (name == "buy_move") return std::max<int64_t>(1, ParamOr(cmd, "ap", 4));
  if (name == "jump") return c.stats.count("ap/jump") ? ApCost(c, name, 1) : JumpAp(c, cmd);
  int64_t cost = ApCost(c, name, base);
  // l.275: "When you make a melee attack, you must pay an extra 2 AP":
  // the attacks, Rebuff, Grapple ("a melee attack") and Create an Opening
  // ("a melee attack roll"), and, as l.70 "Combat checks function the same
  // as attack rolls", Disarm's melee weapon check (l.243; its -5:
  // UnderwaterPenalty); not Shove's, Trip's or Pin's Power checks, nor
  // Distract's Prs [Deception] (no melee attack, l.74, l.244).
  const bool melee_check = name != "pin" && (name != "hinder" || ParamText(cmd, "hindrance") == "disarm");
  if (v.row.kind.cls.attack && IsUnderwater(c) && melee_check) {
    cost += 2;
  }
  return cost;
}

absl::Status ResolveAct(Decision& d, const fb::CommandT& act, uint64_t decl,
                        bool spend) {
  const Verb* v = FindVerb(act.action);
  if (v == nullptr) return absl::InternalError("unknown verb " + act.action);
  if (spend) {
    const Combatant* a = d.state().Find(act.actor);
    RETURN_IF_ERROR(SpendAp(d, act.actor, CostOf(*a, *v, act), {decl, v->row.rule, {}, "AP spent"}));
  }
  if (ParamOr(act, "_stamina", 0) > 0) {  // l.271, l.182: when the act takes effect
    RETURN_IF_ERROR(SpendStamina(d, act.actor, 1, {decl, "001.faster", {}, "performed more quickly"}));
  }
  // l.110, l.160: moving ("Just like actions, movement requires spending
  // AP") is not an action: buying movement or jumping (l.176-178) neither
  // ends a readied action nor breaks a run of calming actions.
  const bool movement = IsMovement(*v) || act.action == "jump";
  if (const Condition* lost = d.state().Find(act.actor)->FindCondition("Uncontrolled");
      !movement && lost != nullptr && lost->level > 0 && act.action != "regain_control") {
    // l.281: the +1 is "for each consecutive action spent to calm the
    // mount": another action breaks the run.
    const Condition k = *lost;
    RETURN_IF_ERROR(RemoveCondition(d, act.actor, k.id, {decl, "001.mount.untrained", {{"calming", 0, "", "001.mount.untrained"}}, "calming interrupted"}));
    RETURN_IF_ERROR(Impose(d, act.actor, "Uncontrolled", k.source, k.expiry,
                           {decl, "001.mount.untrained", {{"calming", 0, "", "001.mount.untrained"}}, "calming interrupted"}, 0, k.relative_to)
                        .status());
  }
  if (!movement && d.state().Find(act.actor)->Has("Readied")) {
    // l.204: "until you take an action or reaction": readying another
    // action is one too, the new choice replacing the old (was: both kept,
    // the first still the one taken as a reaction).
    RETURN_IF_ERROR(RemoveConditionsNamed(d, act.actor, "Readied", {decl, "001.act.ready", {}, "took an action"}));
  }
  return v->row.resolve(d, act, decl);
}

absl::Status DeclareAct(const fb::CommandT& c, Decision& d) {
  const Verb* v = FindVerb(c.action);
  const bool can_hurry = !v->row.kind.cls.attack && !v->row.kind.cls.cast && !v->reaction && !IsMovement(*v);
  if (!can_hurry && (HasParam(c, "faster_tn") || HasParam(c, "faster_skill"))) {
    return Refuse("001.faster", absl::StrCat(c.action, " cannot be performed more quickly: not attacks or spellcasting (",
                                             "nor reactions or buying movement)"));
  }
  // Params, their types and values: the verb table (verbs.cc), checked
  // before Decide.
  const State& s = d.state();
  ASSIGN_OR_RETURN(const Combatant* actor, Actor(s, c));
  RETURN_IF_ERROR(CheckActor(*actor, *v));
  RETURN_IF_ERROR(CheckCommanded(s, *actor));
  const std::string who = actor->id;
  const bool own = s.IsTurnOf(who);
  const bool movement = IsMovement(*v);
  const bool reaction = AsReaction(*actor, *v);
  const int64_t init = InitiativeOf(s, who);
  if (!s.windows.empty()) {
    const Window& w = s.windows.rbegin()->second;
    return Refuse("001.out_of_turn", absl::StrCat("window ", w.id, " is open on a declared action: answer it (interrupt, pass) or let its actor resolve it"));
  }
  if (!own) {
    if (s.active.empty()) return Refuse("001.round", "no turn is running");
    if (init == 0 && (reaction || !movement)) {
      return Refuse("001.initiative.zero", who + " has initiative 0: no reactions, no actions out of turn");
    }
    if (!reaction && !movement && init <= InitiativeOf(s, s.active)) {
      return Refuse("001.out_of_turn", absl::StrCat("it is ", s.active, "'s turn and ", who, "'s initiative ", init,
                                                    " is not higher than ", InitiativeOf(s, s.active)));
    }
  }
  RETURN_IF_ERROR(v->row.validate(s, *actor, c));
  RETURN_IF_ERROR(CheckTrigger(s, *v, c, nullptr));  // l.125: no window, no trigger
  if (TimedRounds(c) > 0) {  // l.111: performed over rounds
    if (!own) return Refuse("001.ap.rounds", "an action taking rounds is begun on your turn");
    if (FirstPending(s, who, kActing) != nullptr || FirstPending(s, who, kPaying) != nullptr) {
      return Refuse("001.ap.rounds", who + " is already performing an action: cancel it first");
    }
    ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
    return StartTimed(d, c, decl);
  }
  fb::CommandT act = c;
  int64_t cost = CostOf(*actor, *v, c);
  if (c.action == "jump") SetJumpAp(*actor, act, cost);
  uint64_t early = 0;
  if (HasParam(c, "faster_tn")) {  // l.271: the check comes with the declaration
    ASSIGN_OR_RETURN(early, d.Declare(c));
    actor = d.state().Find(who);
    ASSIGN_OR_RETURN(cost, FasterCost(d, *actor, act, cost, early));
    actor = d.state().Find(who);
  }
  const int64_t ap = actor->Resource(res::kAp);
  const bool paying = cost > ap;
  if (paying && (!own || reaction || movement)) {
    return Refuse("001.ap.spend", absl::StrCat(who, " has ", ap, " AP and this costs ", cost,
                                               own ? "" : " (only on your turn can an action be paid over several turns)"));
  }
  if (paying && FirstPending(s, who, kPaying) != nullptr) {
    return Refuse("001.ap.paying", who + " is already paying for an action: cancel it first");
  }
  const std::vector<std::string> first = own && !paying && !reaction && !movement
                                             ? Eligible(d.state(), *actor, c)
                                             : std::vector<std::string>{};
  std::vector<std::string> eligible = first;
  // l.189, l.204: a long jump into a hostile's reach, or seen by a readied
  // creature, waits for their answers before it leaves the ground (one
  // window with those who may act first).
  JumpReactors jump;
  if (c.action == "jump" && !paying && ParamText(c, "kind") != "high") {
    jump = ForJump(d.state(), *actor, PathOf(c));
    for (const std::string& id : jump.who) {
      if (std::find(eligible.begin(), eligible.end(), id) == eligible.end()) eligible.push_back(id);
    }
  }
  if (c.action == "enter_space" && !paying) {  // l.189, l.216
    for (const std::string& id : EntryRebuffers(d.state(), *actor, c)) {
      jump.rebuffers.push_back(id);
      if (std::find(eligible.begin(), eligible.end(), id) == eligible.end()) eligible.push_back(id);
    }
  }
  uint64_t decl = early;
  if (decl == 0) { ASSIGN_OR_RETURN(decl, d.Declare(c)); }
  if (paying) {
    if (const PendingAct* old = FirstPending(d.state(), who, kPaying); old != nullptr) {
      RETURN_IF_ERROR(ClosePending(d, old->id, "cancelled", {decl, "001.ap.paying"}));
    }
    NewPending p;
    p.kind = kPaying;
    p.actor = who;
    p.decl = decl;
    p.command = act;
    p.cost_due = cost;
    p.budget = res::kAp;
    ASSIGN_OR_RETURN(uint32_t id, OpenPending(d, p, {decl, "001.ap.paying", {{"cost", cost}, {"ap", ap}},
                                                     "costs more AP than it has: paid over its turns"}));
    if (ap > 0) {
      RETURN_IF_ERROR(PayPending(d, id, ap, {decl, "001.ap.paying", {{"ap", ap}}, "all AP spent now"}));
    }
    return absl::OkStatus();
  }
  // l.160: "You may move on another character's turn as if interrupting
  // their turn with an action, except it does not lower your initiative":
  // a jump is movement too (l.178), not an action of l.181.
  if (!own && !reaction && !movement && c.action != "jump") {
    RETURN_IF_ERROR(ChangeInitiative(d, who, -2, {decl, "001.out_of_turn", {}, "acting out of turn"}).status());
  }
  if (!eligible.empty()) return HoldBack(d, act, decl, decl, cost, first, eligible, jump, init);
  return ResolveAct(d, act, decl, /*spend=*/true);
}

absl::Status HoldJump(Decision& d, const fb::CommandT& act, uint64_t decl, uint64_t cause, const JumpReactors& jump) {
  return HoldBack(d, act, decl, cause, CostOf(*d.state().Find(act.actor), *FindVerb(act.action), act), {}, jump.who, jump,
                  InitiativeOf(d.state(), act.actor));
}

absl::Status DecideInterrupt(const fb::CommandT& c, Decision& d) {
  const State& s = d.state();
  const std::string verb = ParamText(c, "act");
  if (verb.empty()) return Malformed(c, "params.act", "the act taken (text), e.g. standard_attack");
  const Verb* v = FindVerb(verb);
  if (v == nullptr || IsMovement(*v)) return Malformed(c, "params.act", absl::StrCat("unknown act '", verb, "'"));
  // The table (verbs.cc) lets `interrupt` take any act's params; that they
  // are the named act's own is the one check it cannot express.
  P takes = v->params;
  takes.push_back("act");
  RETURN_IF_ERROR(CheckTakes(c, {takes, {}}));
  ASSIGN_OR_RETURN(const Combatant* actor, Actor(s, c));
  RETURN_IF_ERROR(CheckAnswer(s, c, Cite("001.out_of_turn")));
  RETURN_IF_ERROR(CheckActor(*actor, *v));
  RETURN_IF_ERROR(CheckCommanded(s, *actor));
  const std::string who = actor->id;
  const Window w = s.windows.at(c.window);
  const PendingAct* held = s.FindPending(w.pending);
  const std::string declarer = held == nullptr ? "" : held->actor;
  const int64_t init = InitiativeOf(s, who);
  const bool reaction = AsReaction(*actor, *v);
  if (init == 0) return Refuse("001.initiative.zero", who + " has initiative 0: no reactions, no actions out of turn");
  if (!reaction && init <= InitiativeOf(s, s.active)) {
    return Refuse("001.out_of_turn", absl::StrCat(who, "'s initiative ", init, " is not higher than ",
                                                  s.active, "'s ", InitiativeOf(s, s.active)));
  }
  fb::CommandT act = Inner(c, verb);
  if (verb == "rebuff" && held != nullptr && held->command->action == "jump") {
    // l.189-190: the jump's path enters the weapon's reach (movement.cc
    // ForJump); the Rebuff strikes as it comes, before it gets there
    // (attack.cc: no reach check from where the jumper stands).
    SetParam(act, "_jump", 1);
  }
  RETURN_IF_ERROR(v->row.validate(s, *actor, act));
  RETURN_IF_ERROR(CheckTrigger(s, *v, act, held));  // l.125, l.189, l.201, l.225
  const int64_t cost = CostOf(*actor, *v, act);
  if (cost > actor->Resource(res::kAp)) {
    return Refuse("001.ap.spend", absl::StrCat(who, " has ", actor->Resource(res::kAp), " AP and this costs ", cost));
  }
  ASSIGN_OR_RETURN(uint64_t iseq, Answer(d, c));
  if (reaction) {
    RETURN_IF_ERROR(ResolveAct(d, act, iseq, /*spend=*/true));
    const Window* now = nullptr;
    auto it = d.state().windows.find(c.window);
    if (it != d.state().windows.end()) now = &it->second;
    if (now != nullptr && AllAnswered(*now)) {
      return CloseAndResolve(d, c.window, iseq, "everyone answered", who);
    }
    return absl::OkStatus();
  }
  // l.124: the declared action does not take place, its AP is not spent.
  ASSIGN_OR_RETURN(std::optional<PendingAct> cancelled,
                   CloseWindow(d, c.window, absl::StrCat("interrupted by ", who), {iseq, "001.out_of_turn"}));
  if (cancelled.has_value()) {
    RETURN_IF_ERROR(ClosePending(d, cancelled->id, absl::StrCat("cancelled: interrupted by ", who),
                                 {iseq, "001.out_of_turn", {{"cost_not_spent", cancelled->cost_due}},
                                  declarer + "'s action does not take place and its AP is not spent"}));
  }
  RETURN_IF_ERROR(ChangeInitiative(d, who, -2, {iseq, "001.out_of_turn", {}, "acting out of turn"}).status());
  return ResolveAct(d, act, iseq, /*spend=*/true);
}

absl::Status DecidePass(const fb::CommandT& c, Decision& d) {
  RETURN_IF_ERROR(Actor(d.state(), c).status());
  RETURN_IF_ERROR(CheckAnswer(d.state(), c, Cite("001.out_of_turn")));
  ASSIGN_OR_RETURN(uint64_t seq, Answer(d, c));
  auto it = d.state().windows.find(c.window);
  if (it != d.state().windows.end() && AllAnswered(it->second)) {
    return CloseAndResolve(d, c.window, seq, "everyone passed", c.actor);
  }
  return absl::OkStatus();
}

absl::Status DecideResolve(const fb::CommandT& c, Decision& d) {
  const State& s = d.state();
  const Window* w = nullptr;
  if (c.window != 0) {
    auto it = s.windows.find(c.window);
    if (it == s.windows.end()) return Malformed(c, "window", absl::StrCat("window ", c.window, " is not open"));
    w = &it->second;
  } else {
    w = InnermostWindow(s);
  }
  if (w == nullptr) return Refuse("001.out_of_turn", "no declared action is waiting");
  const PendingAct* held = s.FindPending(w->pending);
  const bool gm = c.role == fb::Role::GM;
  if (!gm && (held == nullptr || held->actor != c.actor)) {
    return Refuse("001.out_of_turn", absl::StrCat("only the declaring combatant or the GM resolves window ", w->id));
  }
  const uint32_t id = w->id;
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  return CloseAndResolve(d, id, decl, "nobody else acts", c.actor);
}

}  // namespace combat::kernel::wound_slots
