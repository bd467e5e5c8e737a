#include "replay/testing/toy.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/changes.h"
#include "kernel/command.h"
#include "kernel/gm.h"
#include "kernel/display.h"
#include "kernel/pending.h"
#include "kernel/verb_schema.h"

namespace combat::replay::testing {
namespace {

using kernel::Combatant;
using kernel::Decision;

constexpr char kSeed[] = "toy_seed.txt";

class ToyRuleset : public kernel::Ruleset {
 public:
  kernel::Measure measure() const override { return {}; }
  std::string id() const override { return "toy"; }
  int32_t version() const override { return 1; }

  const std::vector<kernel::RuleRef>& Rules() const override {
    static const auto* rules = new std::vector<kernel::RuleRef>{
        {"toy.join", kSeed, "Setup", 3, "every combatant joins with its hp"},
        {"toy.initiative", kSeed, "Setup > Initiative", 5,
         "1d20 each; highest first, ties by id"},
        {"toy.round", kSeed, "Rounds", 8, "a round ends when all have acted"},
        {"toy.turn", kSeed, "Turns", 10, "two actions per turn"},
        {"toy.actions", kSeed, "Turns", 11, "an attack or a coup costs one action"},
        {"toy.attack.damage", kSeed, "Attack", 14,
         "1d20 + atk against def; a hit deals the weapon's damage"},
        {"toy.down", kSeed, "Attack > Down", 17, "0 hp or less: Down"},
        {"toy.coup", kSeed, "Coup", 20, "only a Down foe; it becomes Dead"},
        {"toy.gm", kSeed, "The GM", 23, "the GM may overrule anything"},
        {"toy.ready", kSeed, "Ready", 26,
         "ready an attack; release it later on a cue"},
    };
    return *rules;
  }

  absl::Status Setup(const fb::Roster& roster, Decision& d) const override {
    std::vector<kernel::OrderEntry> order;
    if (roster.combatants() == nullptr) return absl::OkStatus();
    for (const fb::CombatantSpec* spec : *roster.combatants()) {
      fb::CombatantSpecT t;
      spec->UnPackTo(&t);
      RETURN_IF_ERROR(kernel::JoinCombatant(d, t, {0, "toy.join"}));
      const int64_t hp = d.state().Find(t.id)->Stat("hp", 10);
      RETURN_IF_ERROR(kernel::SetResource(d, t.id, "hp", hp,
                                          {0, "toy.join", {{"hp", hp}}}));
    }
    for (const auto& [id, c] : d.state().combatants) {
      ASSIGN_OR_RETURN(auto init, d.Roll("1d20", "initiative", id, 0));
      order.push_back({id, init.total, false});
    }
    std::stable_sort(order.begin(), order.end(),
                     [](const kernel::OrderEntry& a, const kernel::OrderEntry& b) {
                       return a.initiative > b.initiative;
                     });
    if (order.empty()) return absl::OkStatus();
    RETURN_IF_ERROR(kernel::SetOrder(d, order, {0, "toy.initiative"}));
    RETURN_IF_ERROR(kernel::StartRound(d, {0, "toy.round"}));
    return StartTurnOf(d, order.front().actor, 0);
  }

  kernel::Display display() const override {
    kernel::Display d;
    d.vitals = {{"hp", "hp", ""}};
    d.budgets = {"actions"};
    return d;
  }

  const std::vector<kernel::VerbSchema>& Verbs() const override {
    static const auto* verbs = [] {
      using kernel::Use;
      auto* v = new std::vector<kernel::VerbSchema>();
      kernel::VerbSchema attack{"attack", "roll 1d20+atk against def", "toy.attack.damage"};
      attack.targets = Use::kRequired;
      kernel::VerbSchema coup{"coup", "finish a Down foe", "toy.coup"};
      coup.targets = Use::kRequired;
      kernel::VerbSchema ready{"ready", "ready an attack on a foe", "toy.ready"};
      ready.targets = Use::kRequired;
      kernel::VerbSchema release{"release", "release a readied act", "toy.ready"};
      release.refs = {{"act", true, "the readied act"}, {"cue", false, "the event it answers"}};
      kernel::VerbSchema end{"end_turn", "end your turn", "toy.turn"};
      *v = {attack, coup, ready, release, end};
      for (kernel::VerbSchema& g : kernel::GmVerbSchemas({})) v->push_back(std::move(g));
      return v;
    }();
    return *verbs;
  }

  absl::Status Decide(const fb::CommandT& c, Decision& d) const override {
    if (kernel::IsGmVerb(c.action)) return kernel::DecideGm(c, "toy.gm", d);
    ASSIGN_OR_RETURN(const Combatant* me, kernel::Actor(d.state(), c));
    const std::string me_id = me->id;
    if (d.state().active != me_id) {
      return absl::FailedPreconditionError(absl::StrCat(
          "not ", me_id, "'s turn (it is ", d.state().active, "'s) (toy Turns)"));
    }
    if (c.action == "attack" || c.action == "coup") {
      ASSIGN_OR_RETURN(const Combatant* foe, kernel::Target(d.state(), c));
      const std::string foe_id = foe->id;
      if (me->Resource("actions") < 1) {
        return absl::FailedPreconditionError(
            absl::StrCat(me_id, " has no action left (toy Turns: two actions)"));
      }
      if (c.action == "attack" && foe->Has("Down")) {
        return absl::FailedPreconditionError(absl::StrCat(
            foe_id, " is Down: no attacking the fallen (toy Attack)"));
      }
      if (c.action == "coup" && !foe->Has("Down")) {
        return absl::FailedPreconditionError(absl::StrCat(
            "coup on ", foe_id, ": the target must be Down (toy Coup)"));
      }
      const int64_t atk = me->Stat("atk");
      const int64_t def = foe->Stat("def", 10);
      const std::string damage =
          me->weapons.empty() ? "1d6" : me->weapons.front().damage;
      ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
      RETURN_IF_ERROR(kernel::AddResource(d, me_id, "actions", -1,
                                          {decl, "toy.actions"})
                          .status());
      if (c.action == "coup") {
        kernel::NewCondition dead{foe_id, "Dead", me_id};
        return kernel::AddCondition(d, dead, {decl, "toy.coup"}).status();
      }
      ASSIGN_OR_RETURN(auto hit,
                       d.Roll(absl::StrCat("1d20+", atk), "attack", me_id, decl));
      if (hit.total < def) return absl::OkStatus();
      ASSIGN_OR_RETURN(auto dmg, d.Roll(damage, "damage", me_id, decl));
      ASSIGN_OR_RETURN(
          int64_t hp,
          kernel::AddResource(d, foe_id, "hp", -dmg.total,
                              {decl,
                               "toy.attack.damage",
                               {{"d20", hit.natural()},
                                {"atk", atk},
                                {"total", hit.total},
                                {"def", def},
                                {"damage", dmg.total}}}));
      if (hp <= 0 && !d.state().Find(foe_id)->Has("Down")) {
        kernel::NewCondition down{foe_id, "Down", me_id};
        RETURN_IF_ERROR(kernel::AddCondition(d, down,
                                             {decl, "toy.down", {{"hp", hp}}})
                            .status());
      }
      return absl::OkStatus();
    }
    if (c.action == "ready") return Ready(c, me_id, d);
    if (c.action == "release") return Release(c, me_id, d);
    if (c.action == "end_turn") {
      ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
      RETURN_IF_ERROR(kernel::EndTurn(d, me_id, {decl, "toy.turn"}));
      auto up = [&d](const std::string& id) {
        return !d.state().Find(id)->Has("Down");
      };
      auto next = kernel::NextInOrder(d.state(), up);
      if (!next.has_value()) {
        // Conditions lasting to the round's end (a GM's `rounds`) end now.
        RETURN_IF_ERROR(kernel::ExpireAt(d, fb::ExpiryKind::RoundEnd, "",
                                         d.state().round, {decl, "toy.round"})
                            .status());
        RETURN_IF_ERROR(kernel::EndRound(d, {decl, "toy.round"}));
        RETURN_IF_ERROR(kernel::StartRound(d, {decl, "toy.round"}));
        next = kernel::NextInOrder(d.state(), up);
      }
      if (!next.has_value()) return absl::OkStatus();
      return StartTurnOf(d, *next, decl);
    }
    return absl::InvalidArgumentError(
        absl::StrCat("command field 'action': unknown action '", c.action, "'"));
  }

 private:
  static absl::Status Ready(const fb::CommandT& c, const std::string& me_id,
                            Decision& d) {
    ASSIGN_OR_RETURN(const Combatant* foe, kernel::Target(d.state(), c));
    kernel::NewPending p;
    p.kind = kernel::kReadiedAct;
    p.actor = me_id;
    p.command.actor = me_id;
    p.command.author = c.author;
    p.command.action = "attack";
    p.command.targets = {foe->id};
    p.cost_due = 1;
    p.budget = "actions";
    ASSIGN_OR_RETURN(p.decl, d.Declare(c));
    return kernel::OpenPending(d, p, {p.decl, "toy.ready"}).status();
  }

  static absl::Status Release(const fb::CommandT& c, const std::string& me_id,
                              Decision& d) {
    ASSIGN_OR_RETURN(uint32_t act,
                     kernel::RequiredRefPending(c, "act", "the readied act released"));
    const kernel::PendingAct* p = d.state().FindPending(act);
    if (p == nullptr || p->actor != me_id) {
      return absl::FailedPreconditionError(absl::StrCat(
          "refs[key=act]: ", me_id, " has no readied act #", act, " (toy Ready)"));
    }
    ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
    kernel::Why why{decl, "toy.ready"};
    if (auto cue = kernel::RefSeq(c, "cue"); cue.has_value()) {
      why.nums = {{"cue", static_cast<int64_t>(*cue)}};
    }
    return kernel::ClosePending(d, act, "fired", why);
  }

  static absl::Status StartTurnOf(Decision& d, const std::string& id,
                                  uint64_t cause) {
    RETURN_IF_ERROR(kernel::StartTurn(d, id, {cause, "toy.turn"}));
    return kernel::SetResource(d, id, "actions", 2, {cause, "toy.turn"});
  }
};

}  // namespace

const kernel::Ruleset& Toy() {
  static const ToyRuleset* toy = new ToyRuleset;
  return *toy;
}

fb::RosterT ToyRoster(const std::vector<std::string>& ids) {
  fb::RosterT r;
  r.title = "toy fight";
  r.ruleset = "toy";
  int i = 0;
  for (const std::string& id : ids) {
    auto c = std::make_unique<fb::CombatantSpecT>();
    c->id = id;
    c->name = id;
    c->player = id;  // each played by a player of its own name (ToyCmd's author)
    c->side = i % 2 == 0 ? "a" : "b";
    c->at = std::make_unique<fb::Pos>(i, 0);
    for (auto [k, v] : std::vector<std::pair<std::string, int64_t>>{
             {"hp", 10}, {"atk", 2}, {"def", 12}}) {
      auto n = std::make_unique<fb::NumberT>();
      n->key = k;
      n->value = v;
      c->stats.push_back(std::move(n));
    }
    auto w = std::make_unique<fb::WeaponT>();
    w->name = "sword";
    w->damage = "1d6";
    w->kind = "melee";
    c->weapons.push_back(std::move(w));
    r.combatants.push_back(std::move(c));
    ++i;
  }
  return r;
}

fb::CommandT ToyCmd(const std::string& id, const std::string& actor,
                    const std::string& action, std::vector<std::string> targets,
                    std::vector<int> dice) {
  fb::CommandT c;
  c.id = id;
  c.actor = actor;
  c.author = actor;
  c.role = fb::Role::Player;
  c.action = action;
  c.targets = std::move(targets);
  c.dice = std::move(dice);
  return c;
}

}  // namespace combat::replay::testing
