// Resting (l.43-65): short and long rests, the ordered long-rest steps,
// recovery checks with the cumulative +1, interrupted rests. The time a
// rest takes is the table's: the verbs apply a completed rest (or, with
// params.minutes, a long rest interrupted after that many minutes).
#include <algorithm>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/wound_slots/internal.h"

namespace combat::kernel::wound_slots {
namespace {

absl::Status SetIfChanged(Decision& d, const std::string& who, const char* k,
                          int64_t v, const Why& why) {
  if (d.state().Find(who)->Resource(k) == v) return absl::OkStatus();
  return SetResource(d, who, k, v, why);
}

// l.46: half the current maximum stamina and mana, rounded down; one light
// wound when lightly or moderately wounded.
absl::Status ShortRestBenefits(Decision& d, const std::string& who, uint64_t cause) {
  const Combatant c = *d.state().Find(who);
  const int64_t ms = MaxStamina(c), mm = MaxMana(c);
  const int64_t st = std::min(ms, c.Resource(res::kStamina) + FloorDiv(ms, 2));
  const int64_t mn = std::min(mm, c.Resource(res::kMana) + FloorDiv(mm, 2));
  RETURN_IF_ERROR(SetIfChanged(d, who, res::kStamina, st, {cause, "001.rest.short", {{"max_stamina", ms}, {"half", FloorDiv(ms, 2)}}}));
  RETURN_IF_ERROR(SetIfChanged(d, who, res::kMana, mn, {cause, "001.rest.short", {{"max_mana", mm}, {"half", FloorDiv(mm, 2)}}}));
  const int w = HighestWound(c);
  if ((w == kLight || w == kModerate) && c.Resource(WoundsKey(kLight)) > 0) {
    RETURN_IF_ERROR(HealWound(d, who, kLight, 1, {cause, "001.rest.short", {{"severity", w}}, "one light wound removed"}).status());
  }
  return absl::OkStatus();
}

int64_t start_vit(const Combatant& c) { return c.Stat("vit"); }

// The rounds a rest lasts (l.111 "each minute equaling 4 rounds") pass:
// the effects on the rester counted in rounds (l.127: they end at the end
// of the round equal to their duration, the rest's first round being the
// current one) that end within them end, older first, and so do the spells
// it invested in (l.42: its mana "returned as soon as the effect ends"),
// before the rest's benefits (l.46 "after accounting for ... invested
// mana"). The rester's turns come in those rounds (l.108): what lasts
// until the start or end of its own turn (l.199) ends with them. Reading:
// effects on others, and those lasting until another's turn, are not the
// rest's (the GM's). Durations run out by
// themselves: the system's, as at a round's end, not the rester's act.
absl::Status PassRounds(Decision& d, const std::string& who, int64_t rounds, uint64_t cause) {
  Decision::SystemSteps system(d);
  const int64_t last = d.state().round + rounds - 1;
  std::vector<std::tuple<uint64_t, std::string, uint32_t>> due;  // older first
  for (const auto& [id, o] : d.state().combatants) {
    for (const auto& [cid, k] : o.conditions) {
      const bool counted = (k.expiry.kind == fb::ExpiryKind::RoundEnd || k.expiry.kind == fb::ExpiryKind::RoundStart) &&
                           k.expiry.round <= last;
      // l.199 "Until your next turn": the rest's rounds hold the rester's
      // turns (l.108 "one turn per round"), so what lasts until the start
      // or the end of one of its turns (Defend, an Opening) ends too.
      const bool own_turn = (k.expiry.kind == fb::ExpiryKind::TurnStart || k.expiry.kind == fb::ExpiryKind::TurnEnd) &&
                            k.expiry.actor == who && rounds >= 2;
      if ((counted && (id == who || (k.name == "Spell" && k.source == who))) || (own_turn && id == who)) {
        due.emplace_back(Began(k), id, cid);
      }
    }
  }
  std::sort(due.begin(), due.end());
  for (const auto& [at, on, cid] : due) {
    RETURN_IF_ERROR(RemoveCondition(d, on, cid, {cause, "001.duration", {{"rest_rounds", rounds}, {"last_round", last}},
                                                 "its duration ran out during the rest"}));
  }
  RETURN_IF_ERROR(ReturnExpiredMana(d, cause));
  // l.122 "you cannot gain AP until after your first turn": the rest's
  // rounds hold the rester's turns (l.108), its first among them.
  if (rounds >= 2 && d.state().Find(who)->Has("Surprised")) {
    RETURN_IF_ERROR(RemoveConditionsNamed(d, who, "Surprised", {cause, "001.surprise", {{"rest_rounds", rounds}},
                                                                "its first turn is over (during the rest)"}));
  }
  if (rounds < 1) return absl::OkStatus();
  // l.108 "one turn per round": a rest begun before the rester's turn this
  // round holds that turn (the rest's first round is this one, l.127): no
  // turn after it this round (kTurnRound, CanTakeTurn). GM ruling point:
  // a rider's turn is its mount's too (l.280), which does not rest: the
  // GM's (README).
  const Combatant* rester = d.state().Find(who);
  if (!d.state().IsTurnOf(who) && !rester->Has("Riding") && rester->Resource(res::kTurnRound) != d.state().round) {
    RETURN_IF_ERROR(SetResource(d, who, res::kTurnRound, d.state().round,
                                {cause, "001.round", {{"rest_rounds", rounds}}, "its turn this round passes in the rest"}));
  }
  // l.160 "any unspent movement is lost at the end of the round": the
  // current round, the rest's first, ends within it.
  RETURN_IF_ERROR(LoseMovement(d, who, {cause, "001.move.pool", {{"rest_rounds", rounds}},
                                        "unspent movement is lost at the end of the round (during the rest)"}));
  // l.110 "You gain AP twice per round, once at the start of the round, and
  // once at the end of your turn", capped at Max AP: each later round of
  // the rest gives both. The Turn End AP of a turn of this round the rest
  // holds is not added apart: at least 4 rounds (a minute), two later ones
  // reach Max AP from 0 at every Speed (l.115-117), so it changes nothing.
  const Combatant* c = d.state().Find(who);
  const SpeedRow row = SpeedTable(SpeedScore(*c));
  int64_t ap = c->Resource(res::kAp);
  for (int64_t r = 2; r <= rounds && ap < row.max_ap; ++r) {
    ap = std::max(ap, std::min(ap + row.round_start, row.max_ap));
    ap = std::max(ap, std::min(ap + row.turn_end, row.max_ap));
  }
  if (ap == c->Resource(res::kAp)) return absl::OkStatus();
  return SetResource(d, who, res::kAp, ap, {cause, "001.ap.gain",
                                            {{"rest_rounds", rounds}, {"round_start", row.round_start},
                                             {"turn_end", row.turn_end}, {"max_ap", row.max_ap}},
                                            "the AP of the rounds the rest lasts"});
}

}  // namespace

absl::Status DecideShortRest(const fb::CommandT& c, Decision& d) {
  ASSIGN_OR_RETURN(const Combatant* a, Actor(d.state(), c));
  if (IsDead(*a)) return Refuse("001.rest.short", a->id + " is dead");
  const std::string who = a->id;
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  RETURN_IF_ERROR(PassRounds(d, who, 15 * 4, decl));  // l.45: 15 minutes
  return ShortRestBenefits(d, who, decl);
}

absl::Status DecideLongRest(const fb::CommandT& c, Decision& d) {
  const State& s = d.state();
  ASSIGN_OR_RETURN(const Combatant* a, Actor(s, c));
  const std::string who = a->id;
  if (IsDead(*a)) return Refuse("001.rest.long", who + " is dead");
  if (HighestWound(*a) == kFatal) return Refuse("001.rest.long", who + " is fatally wounded: no long rest");  // l.48
  std::string tender;
  if (!c.targets.empty()) {
    ASSIGN_OR_RETURN(const Combatant* t, Target(s, c));
    if (t->id == who) return Malformed(c, "targets[0]", "the tender is another character");
    tender = t->id;
    // l.54 "-5 penalty ... if you do not have access to a healing kit": the
    // program cannot know, so the command says.
    if (!HasParam(c, "kit")) return Malformed(c, "params.kit", "required with a tender: 1 a healing kit, 0 none (-5, l.54)");
  }
  if (HasParam(c, "wound") && (ParamOr(c, "wound", 0) < kLight || ParamOr(c, "wound", 0) > kCritical)) {
    return Malformed(c, "params.wound", "the wound level to heal, 1 light .. 4 critical");
  }
  // l.65: a long rest "interrupted ... no more than half an hour" and
  // resumed "by adding an extra hour onto the remaining rest time":
  // `resumed` = the interruption's minutes (1..30); the rest is then
  // 8 hours + 1 = 540 minutes of resting, and its rounds are those and the
  // interruption's.
  const bool resumed = HasParam(c, "resumed");
  const int64_t interruption = ParamOr(c, "resumed", 0);
  if (resumed && interruption < 1) return Malformed(c, "params.resumed", "the interruption's minutes, 1..30");
  if (interruption > 30) {
    return Refuse("001.rest.interrupted", absl::StrCat("an interruption of ", interruption,
                                                       " minutes: a long rest resumes only after one of at most half an hour (l.65); start it over"));
  }
  const int64_t full = resumed ? 480 + 60 : 480;
  const int64_t minutes = ParamOr(c, "minutes", full);
  if (minutes < 0 || minutes > full) {
    return Malformed(c, "params.minutes", absl::StrCat("0..", full, ": minutes rested before an interruption"));
  }
  // l.44: the benefits of a long rest at most twice per day (`day`: the
  // in-game day, given by the GM), and only after a full night's sleep in
  // the last 24 hours (`slept` = 0: no benefit; the sleep needed is 8 hours
  // less half an hour per point of Vitality).
  const int64_t day = ParamOr(c, "day", 0);
  if (HasParam(c, "day") && day < 1) return Malformed(c, "params.day", "the in-game day, from 1");
  // Only a rest that gives a long rest's benefits counts: one without sleep
  // gives none, an interrupted one a short rest's (l.65; "You can take as
  // many short rests as you like", l.44).
  // A third full one that day is taken but gives no benefit ("you can only
  // gain the benefits of a long rest twice per day", l.44), and does not
  // count.
  const bool third = minutes >= full && ParamOr(c, "slept", 1) != 0 && HasParam(c, "day") &&
                     a->Resource("long_rest_day") == day && a->Resource("long_rests_today") >= 2;
  const bool benefits = minutes >= full && ParamOr(c, "slept", 1) != 0 && !third;
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  // l.47: 8 hours, or the minutes before the interruption; l.65 resumed: 9
  // hours and the interruption.
  RETURN_IF_ERROR(PassRounds(d, who, (minutes + interruption) * 4, decl));
  if (benefits && HasParam(c, "day")) {
    const Combatant* now = d.state().Find(who);
    const int64_t count = now->Resource("long_rest_day") == day ? now->Resource("long_rests_today") + 1 : 1;
    if (now->Resource("long_rest_day") != day) {
      RETURN_IF_ERROR(SetResource(d, who, "long_rest_day", day, {decl, "001.rest.limits"}));
    }
    RETURN_IF_ERROR(SetResource(d, who, "long_rests_today", count, {decl, "001.rest.limits", {{"day", day}}}));
  }
  // l.42: invested mana retrieved at the end of a long rest, at your option
  // ("Each effect specifies how invested mana is retrieved": the effect's
  // provision, not one of the rest's benefits of l.49-53, so an exhausted
  // rest, which gains "no other benefits", and one without sleep, which
  // gives none (l.44), still end with it; an interrupted one does not end).
  // `give_back`: the retrieved mana is current mana again ("your current and
  // maximum mana decrease by the same amount until you retrieve" it), when
  // no recovery of all mana follows.
  auto retrieve = [&](bool give_back) -> absl::Status {
    const int64_t inv = d.state().Find(who)->Resource(res::kInvested);
    if (ParamOr(c, "retrieve", 0) == 0 || inv <= 0) return absl::OkStatus();
    // The mana was "tied up in a particular effect" (l.42): retrieved, the
    // effects holding it end, and their ending returns nothing more.
    std::vector<std::pair<std::string, uint32_t>> held;
    for (const auto& [id, o] : d.state().combatants) {
      for (const auto& [cid, k] : o.conditions) {
        if (k.name == "Spell" && k.source == who && k.level > 0) held.emplace_back(id, cid);
      }
    }
    for (const auto& [on, cid] : held) {
      RETURN_IF_ERROR(RemoveCondition(d, on, cid, {decl, "001.mana.invest", {{"retrieved", d.state().Find(on)->conditions.at(cid).level}},
                                                   "its mana retrieved at the end of a long rest: the effect ends"}));
    }
    RETURN_IF_ERROR(SetResource(d, who, res::kInvested, 0, {decl, "001.mana.invest", {{"retrieved", inv}}}));
    if (!give_back) return absl::OkStatus();
    return AddResource(d, who, res::kMana, inv, {decl, "001.mana.invest", {{"retrieved", inv}}}).status();
  };
  if (third) {
    RETURN_IF_ERROR(RecordOutcome(d, who, {decl, "001.rest.limits", {{"day", day}, {"long_rests_today", 2}},
                                           absl::StrCat("a third long rest on day ", day, ": no benefit")}));
    return retrieve(/*give_back=*/true);
  }
  if (ParamOr(c, "slept", 1) == 0) {
    const int64_t minutes_needed = std::max<int64_t>(0, 480 - 30 * start_vit(*d.state().Find(who)));
    RETURN_IF_ERROR(RecordOutcome(d, who, {decl, "001.rest.limits", {{"sleep_needed_minutes", minutes_needed}},
                                           "no full night's sleep within 24 hours: no benefit"}));
    return retrieve(/*give_back=*/true);
  }
  if (minutes < full) {  // l.65: interrupted: a short rest's benefits per 15 minutes
    const int64_t n = FloorDiv(minutes, 15);
    RETURN_IF_ERROR(RecordOutcome(d, who, {decl, "001.rest.interrupted", {{"minutes", minutes}, {"short_rests", n}},
                                           "long rest interrupted"}));
    for (int64_t i = 0; i < n; ++i) RETURN_IF_ERROR(ShortRestBenefits(d, who, decl));
    return absl::OkStatus();
  }
  const Combatant start = *d.state().Find(who);
  auto recover_all = [&](const char* rule) -> absl::Status {
    const Combatant now = *d.state().Find(who);
    RETURN_IF_ERROR(SetIfChanged(d, who, res::kStamina, MaxStamina(now), {decl, rule, {{"max_stamina", MaxStamina(now)}}}));
    return SetIfChanged(d, who, res::kMana, MaxMana(now), {decl, rule, {{"max_mana", MaxMana(now)}}});
  };
  // 1. l.49: exhausted: no longer exhausted, all stamina and mana, nothing else.
  if (start.Has("Exhausted")) {
    // Reading: "no longer exhausted" lowers fatigue just below half the
    // normal maximum (l.40), the highest value that is not exhausted.
    const int64_t normal = NormalMaxStamina(start);
    const int64_t below_half = std::max<int64_t>(0, CeilDiv(normal, 2) - 1);
    RETURN_IF_ERROR(SetFatigue(d, who, std::min(start.Resource(res::kFatigue), below_half),
                               {decl, "001.rest.long.exhausted", {{"normal_max", normal}}}));
    RETURN_IF_ERROR(retrieve(/*give_back=*/false));
    return recover_all("001.rest.long.exhausted");
  }
  const int w = HighestWound(start);
  // 2. l.50: lightly or moderately wounded: heal all light wounds.
  if ((w == kLight || w == kModerate) && start.Resource(WoundsKey(kLight)) > 0) {
    RETURN_IF_ERROR(SetResource(d, who, WoundsKey(kLight), 0, {decl, "001.rest.long.light", {{"healed", start.Resource(WoundsKey(kLight))}}}));
    RETURN_IF_ERROR(UpdateWounded(d, who, {decl, "001.rest.long.light"}));
  }
  // 3. l.51: fatigue reduced by 5 + Vitality - highest wound level. The
  // wound level and "if you are not wounded" are the condition "when you
  // start the rest" (l.48), before step 2 healed the light wounds.
  if (const int64_t fatigue = d.state().Find(who)->Resource(res::kFatigue); fatigue > 0) {
    const int64_t by = std::max<int64_t>(w == kNone ? 1 : 0, 5 + start.Stat("vit") - w);
    RETURN_IF_ERROR(SetFatigue(d, who, fatigue - by, {decl, "001.rest.long.fatigue", {{"vit", start.Stat("vit")}, {"highest_wound", w}, {"reduction", by}}}));
  }
  // 4. l.52, l.63: one recovery check when wounded (still wounded after
  // step 2: a check with no wound left heals nothing and ends the bonus).
  if (HighestWound(*d.state().Find(who)) != kNone) {
    const Combatant now = *d.state().Find(who);
    Nums nums;
    const int64_t bonus = CheckBonus(now, "vit", "", "", &nums) - now.Resource(res::kFatigue) + now.Resource(res::kRecovery);
    nums.push_back({"fatigue_penalty", -now.Resource(res::kFatigue), "fatigue of " + who, "001.rest.recovery"});
    nums.push_back({"cumulative_bonus", now.Resource(res::kRecovery), "failed recovery checks of " + who, "001.rest.recovery"});
    ASSIGN_OR_RETURN(CheckRoll r, RollCheck(d, who, bonus, "recovery check", decl));
    int64_t result = r.total;
    nums.push_back({"d20", r.natural});
    nums.push_back({"result", r.total});
    if (!tender.empty()) {  // l.54
      const Combatant t = *d.state().Find(tender);
      const int64_t kit = Kit(c);
      nums.push_back(KitNum(c));
      ASSIGN_OR_RETURN(CheckRoll tr, RollCheck(d, tender, CheckBonus(t, "lor", "healing", "wounds", nullptr) + kit, "tending", decl));
      nums.push_back({"tender_result", tr.total});
      result = std::max(result, tr.total);
    }
    static const int64_t kTn[] = {0, -8, -5, -1, 4, 10};  // l.56-62
    int reach = kNone;
    for (int l = kLight; l <= kFatal; ++l) {
      if (result >= kTn[l]) reach = l;
    }
    nums.push_back({"highest_affectable", reach});
    int pick = kNone;
    if (HasParam(c, "wound")) {
      pick = static_cast<int>(ParamOr(c, "wound", 0));
      if (pick > reach || now.Resource(WoundsKey(pick)) <= 0) pick = kNone;
    } else {
      for (int l = std::min(reach, static_cast<int>(kCritical)); l >= kLight; --l) {
        if (now.Resource(WoundsKey(l)) > 0 && (l == kLight || now.Resource(WoundsKey(l - 1)) < SlotsFor(now, l - 1))) {
          pick = l;
          break;
        }
      }
    }
    int healed = 0;
    if (pick != kNone) {
      ASSIGN_OR_RETURN(healed, HealWound(d, who, pick, 1, {decl, "001.rest.recovery", nums, "recovery check heals a wound"}));
    }
    const bool none_left = HighestWound(*d.state().Find(who)) == kNone;
    if (healed > 0 || none_left) {
      RETURN_IF_ERROR(SetIfChanged(d, who, res::kRecovery, 0, {decl, "001.rest.recovery", {}, "the cumulative bonus ends"}));
    } else {
      RETURN_IF_ERROR(RecordOutcome(d, who, {decl, "001.rest.recovery", nums, "no wound healed"}));
      RETURN_IF_ERROR(AddResource(d, who, res::kRecovery, 1, {decl, "001.rest.recovery", {}, "cumulative +1"}).status());
    }
  }
  RETURN_IF_ERROR(retrieve(/*give_back=*/false));
  // 5. l.53: recover all stamina and mana.
  return recover_all("001.rest.long.recover");
}

}  // namespace combat::kernel::wound_slots
