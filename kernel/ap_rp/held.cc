// Held actions (l.9): on its turn a creature spends the AP the action costs
// and names a trigger; the action is a pending act of kind "readied"
// (kernel/pending.h) whose trigger is data (kernel/trigger.h), lapsing when
// the holder's next turn would start (ExpireAt, l.8-9). When a declaration
// sets it off — on anyone's turn — it fires automatically: a window
// (kernel/window.h) opens on the declaration, the held act is recorded as
// the holder's answer (an Interrupt), resolves, and the window closes; then
// the declaration goes on (a move from the square where the trigger was met).
//
// Triggers (param `trigger`): enters_range (an enemy's move enters the range
// of the held attack's weapon, or `range` metres: "I attack the first enemy
// that moves into my range"), moves, attacks, attacks_me, any_action,
// enters_square (x, y), is_damaged (someone else, or `whom` — the holder
// itself too — loses Vitality: matched against the changes the act made,
// after it resolves); `by`
// narrows it to acts of one creature. With no target
// named, the held act targets the creature that set it off.
// A creature hidden from the holder sets off none of its move triggers
// nor any whose act would target it (l.36; `Unseen`).
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/ap_rp/internal.h"
#include "kernel/command.h"
#include "kernel/pending.h"
#include "kernel/trigger.h"
#include "kernel/window.h"

namespace combat::kernel::aprp {
namespace {

const TriggerRules& Rules() {
  static const TriggerRules* rules = [] {
    auto* r = new TriggerRules;
    r->classify = [](const fb::CommandT& c) {
      ActClass k;
      if (c.action == "move") k.move = true;
      if (const ActionRow* row = FindActionRow(c.action); row != nullptr) k.attack = row->attack;
      return k;
    };
    r->can_react = [](const State&, const Combatant& owner) { return Alive(owner); };
    r->in_reach = [](const State&, const Combatant& owner, Pos at, int32_t size, const Trigger& t) {
      return space::Distance(kGrid, at, size, owner.at, owner.size) <= t.reach;
    };
    r->damage_resource = kVitality;
    r->prone_condition = kProne;
    return r;
  }();
  return *rules;
}

// Fires held act `p` set off by declaration `decl` of `c`.
// Firing is automatic (l.9 "they will automatically shoot"): the system's; the
// recorded answer keeps the holder's command (its author and role).
absl::Status Fire(Decision& d, const PendingAct& p, const fb::CommandT& c, uint64_t decl) {
  Decision::SystemSteps system(d);
  fb::CommandT act = p.command;
  const ActionRow* row = FindActionRow(act.action);
  if (act.targets.empty() && TakesTarget(act.action)) act.targets.push_back(c.actor);
  WindowSpec w;
  w.trigger = decl;
  w.kind = "held_action";
  w.eligible = {p.actor};
  w.policy = fb::AnswerPolicy::InOrder;
  w.pay = fb::PayWhen::Before;
  ASSIGN_OR_RETURN(uint32_t wid, OpenWindow(d, w, {decl, "004.hold.action", {},
                                                   absl::StrCat(p.actor, "'s held ", act.action, " is set off by ",
                                                                c.actor, "'s ", c.action)}));
  const Combatant* holder = d.state().Find(p.actor);
  absl::Status legal = row == nullptr ? absl::InternalError("held action") : row->check(d.state(), *holder, act);
  if (!legal.ok()) {
    const std::string why = absl::StrCat("cancelled: ", legal.message());
    RETURN_IF_ERROR(CloseWindow(d, wid, why, {decl, "004.hold.action"}).status());
    return ClosePending(d, p.id, why, {decl, "004.hold.action", {}, "the trigger came but the act is not possible"});
  }
  act.window = wid;
  ASSIGN_OR_RETURN(uint64_t seq, Answer(d, act));
  RETURN_IF_ERROR(ClosePending(d, p.id, "fired", {seq, "004.hold.action", {}, "fires automatically (l.9)"}));
  RETURN_IF_ERROR(row->resolve(d, act, seq));
  return CloseWindow(d, wid, "resolved", {seq, "004.hold.action"}).status();
}

// l.36 "While you are hidden ... the enemies do not know where you are":
// a holder does not see a creature hidden from it move (enters_range,
// moves, enters_square), nor can its held act take that creature as its
// target: for the holder the trigger has not happened, and the held act
// stays (l.9 "The action is not performed if the trigger does not happen").
bool Unseen(const State& s, const PendingAct& p, const fb::CommandT& c) {
  const Combatant* by = s.Find(c.actor);
  if (by == nullptr || by->FindRelative(kHidden, p.actor) == nullptr) return false;
  const fb::TriggerKind k = p.trigger.kind;
  const bool a_move = k == fb::TriggerKind::MovesWithinReach || k == fb::TriggerKind::Moves ||
                      k == fb::TriggerKind::EntersSquare;
  const fb::Command* held = p.command.get();
  if (a_move || held == nullptr || held->action() == nullptr) return a_move;
  const bool untargeted = held->targets() == nullptr || held->targets()->size() == 0;
  return untargeted && TakesTarget(held->action()->str());
}

std::vector<TriggerHit> SeenHits(const State& s, const fb::CommandT& c, const std::vector<std::string>& fired) {
  std::vector<TriggerHit> out;
  for (const TriggerHit& h : MatchDeclaration(s, c, Rules(), fired)) {
    const PendingAct* p = s.FindPending(h.pending);
    if (p == nullptr || !Unseen(s, *p, c)) out.push_back(h);
  }
  return out;
}

}  // namespace

absl::Status DecideHoldAction(const fb::CommandT& c, Decision& d) {
  const ActionRow* row = FindActionRow(ParamText(c, "action"));
  std::vector<std::string> params = {"action", "trigger", "by", "whom", "range", "x", "y"};
  if (row != nullptr) {
    for (const std::string& p : row->params) params.push_back(p);
  }
  // The table (verbs.cc) takes any action's params, fields and types;
  // that they are the held action's is the one check it cannot express.
  RETURN_IF_ERROR(CheckTakes(c, {params, {}}));
  RETURN_IF_ERROR(CheckShape(c, row != nullptr && TakesTarget(row->name) ? 1 : 0,
                             row != nullptr && std::string(row->name) == "attack",
                             row != nullptr && std::string(row->name) == "shove"));
  ASSIGN_OR_RETURN(const Combatant* a, Actor(d.state(), c));
  if (row == nullptr) {
    return Malformed(c, "params.action", "the action to hold (attack, shove, trip, ...; see the action table)");
  }
  const std::string trigger = ParamText(c, "trigger");
  fb::TriggerKind kind = fb::TriggerKind::None;
  if (trigger == "enters_range") kind = fb::TriggerKind::MovesWithinReach;
  if (trigger == "moves") kind = fb::TriggerKind::Moves;
  if (trigger == "attacks" || trigger == "attacks_me") kind = fb::TriggerKind::Attacks;
  if (trigger == "any_action") kind = fb::TriggerKind::Declared;
  if (trigger == "enters_square") kind = fb::TriggerKind::EntersSquare;
  if (trigger == "is_damaged") kind = fb::TriggerKind::IsDamaged;
  if (kind == fb::TriggerKind::None) {
    return Malformed(c, "params.trigger", "one of enters_range, moves, attacks, attacks_me, any_action, enters_square, is_damaged");
  }
  const std::string by = ParamText(c, "by");
  const std::string whom = ParamText(c, "whom");
  for (const std::string& who : {by, whom}) {
    if (!who.empty() && d.state().Find(who) == nullptr) {
      return absl::NotFoundError(absl::StrCat("command 'hold_action': params.", who == by ? "by" : "whom", " '",
                                              who, "' is not in this session"));
    }
  }
  // The held act's own fields: its targets and weapon must exist now (a
  // held act naming nobody would only be cancelled when it fires).
  for (size_t i = 0; i < c.targets.size(); ++i) {
    if (d.state().Find(c.targets[i]) == nullptr) {
      return absl::NotFoundError(absl::StrCat("command 'hold_action': field 'targets[", i, "]': '",
                                              c.targets[i], "' is not in this session"));
    }
  }
  if (!c.weapon.empty() && a->FindWeapon(c.weapon) == nullptr) {
    return absl::NotFoundError(absl::StrCat("command 'hold_action': field 'weapon': ", a->id,
                                            " has no weapon '", c.weapon, "'"));
  }
  if (kind == fb::TriggerKind::EntersSquare && (!HasParam(c, "x") || !HasParam(c, "y"))) {
    return Malformed(c, "params.x", "enters_square needs params x and y");
  }
  fb::CommandT act = c;
  act.action = row->name;
  act.params.clear();
  for (const auto& p : c.params) {
    if (p && std::find(row->params.begin(), row->params.end(), p->key) != row->params.end()) {
      act.params.push_back(std::make_unique<fb::ParamT>(*p));
    }
  }
  RETURN_IF_ERROR(CheckHeldActFields(d.state(), *a, *row, act));
  int64_t reach = ParamOr(c, "range", 0);
  if (kind == fb::TriggerKind::MovesWithinReach && reach <= 0) {
    const Weapon* w = c.weapon.empty() ? (a->weapons.empty() ? nullptr : &a->weapons.front())
                                       : a->FindWeapon(c.weapon);
    if (w == nullptr) return Malformed(c, "params.range", "the range in metres (no weapon to read it from)");
    reach = (w->kind == "ranged" || w->range_increment > 1) ? w->range_increment : 1 + (w->numbers.count("reach") ? w->numbers.at("reach") : 0);
  }
  // l.9: the AP the action would cost (not the free Interact / Switch
  // Weapons of the turn: a held act is paid).
  fb::CommandT paid = act;
  if (std::string(row->name) == "interact" || std::string(row->name) == "switch_weapons") {
    auto pp = std::make_unique<fb::ParamT>();
    pp->key = "paid";
    pp->value = 1;
    paid.params.push_back(std::move(pp));
  }
  const int64_t cost = ApCost(d.state(), *a, *row, paid);
  RETURN_IF_ERROR(CheckAp(d.state(), *a, cost, "004.hold.action"));
  if (FirstPending(d.state(), a->id, kReadiedAct) != nullptr) {
    return Refuse("004.hold.action", a->id + " already holds an action");
  }
  const std::string who = a->id;
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  RETURN_IF_ERROR(SpendAp(d, who, cost, decl, "004.hold.action"));
  NewPending p;
  p.kind = kReadiedAct;
  p.actor = who;
  p.decl = decl;
  p.command = std::move(act);
  p.cost_due = cost;
  p.cost_paid = cost;
  p.budget = kAp;
  p.trigger.kind = kind;
  p.trigger.by = by;
  p.trigger.hostile_only = trigger == "enters_range";
  if (trigger == "attacks_me") p.trigger.against = who;
  if (kind == fb::TriggerKind::IsDamaged) p.trigger.against = whom;
  p.trigger.reach = static_cast<int32_t>(reach);
  if (kind == fb::TriggerKind::EntersSquare) {
    p.trigger.square = Pos{static_cast<int32_t>(ParamOr(c, "x", 0)), static_cast<int32_t>(ParamOr(c, "y", 0))};
  }
  p.span = fb::Span::Rounds;
  p.expiry = UntilNextTurn(d.state(), who);  // l.9: until its next turn
  return OpenPending(d, p, {decl, "004.hold.action", {{"ap", cost}, {"range", reach}},
                            "held until its next turn"}).status();
}

// Whether the changes of this act took Vitality from `who`.
bool LostVitality(const std::vector<events::EventBuffer>& emitted, const std::string& who) {
  for (const events::EventBuffer& buffer : emitted) {
    const fb::Event& e = buffer.event();
    if (e.body_type() != fb::Body::StateChange) continue;
    const auto* r = e.body_as_StateChange()->change_as_ResourceChanged();
    if (r != nullptr && r->name() != nullptr && r->name()->str() == kVitality && r->delta() < 0 &&
        r->actor() != nullptr && r->actor()->str() == who) {
      return true;
    }
  }
  return false;
}

absl::Status FireOnChanges(Decision& d, const fb::CommandT& c, uint64_t decl) {
  std::vector<uint32_t> ids;
  for (const TriggerHit& h : MatchChanges(d.state(), d.events(), Rules())) ids.push_back(h.pending);
  // l.9 "name a trigger": "when I am damaged" (is_damaged with whom = the
  // holder) too; the kernel's matcher watches only others' Vitality.
  for (const auto& [pid, p] : d.state().pending) {  // std::map: id order
    if (p.kind != kReadiedAct || p.trigger.kind != fb::TriggerKind::IsDamaged || p.trigger.against != p.actor) continue;
    const Combatant* holder = d.state().Find(p.actor);
    if (holder == nullptr || !Alive(*holder) || !LostVitality(d.events(), p.actor)) continue;
    if (std::find(ids.begin(), ids.end(), pid) == ids.end()) ids.push_back(pid);
  }
  for (uint32_t id : ids) {
    const PendingAct* p = d.state().FindPending(id);
    if (p == nullptr) continue;
    RETURN_IF_ERROR(Fire(d, *p, c, decl));
  }
  return absl::OkStatus();
}

absl::Status FireOnDeclaration(Decision& d, const fb::CommandT& c, uint64_t decl, bool is_move) {
  std::vector<std::string> fired;
  if (!is_move) {
    for (const TriggerHit& h : SeenHits(d.state(), c, fired)) {
      const PendingAct* p = d.state().FindPending(h.pending);
      if (p == nullptr) continue;
      RETURN_IF_ERROR(Fire(d, *p, c, decl));
    }
    return absl::OkStatus();
  }
  // A move: walk to the square that sets a held act off, fire, go on.
  fb::CommandT rest = c;
  size_t done = 0;
  while (done < c.path.size()) {
    const std::vector<TriggerHit> hits = SeenHits(d.state(), rest, fired);
    const size_t step = hits.empty() ? rest.path.size() : hits.front().step;
    ASSIGN_OR_RETURN(size_t moved, ResolveMove(d, c, decl, done, step));
    done += moved;
    if (moved < step) return absl::OkStatus();  // stopped by an enemy
    for (const TriggerHit& h : hits) {
      if (h.step != step) continue;
      const PendingAct* p = d.state().FindPending(h.pending);
      if (p == nullptr) continue;
      fired.push_back(h.owner);
      RETURN_IF_ERROR(Fire(d, *p, c, decl));
    }
    if (hits.empty()) return absl::OkStatus();
    if (!Alive(*d.state().Find(c.actor))) return absl::OkStatus();
    rest.path.erase(rest.path.begin(), rest.path.begin() + static_cast<long>(step));
  }
  return absl::OkStatus();
}

}  // namespace combat::kernel::aprp
