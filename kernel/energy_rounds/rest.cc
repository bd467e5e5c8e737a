// Short and Long Rests (l.593-620) and Recovery Surges (l.306-312). Rests
// are time passing for the table, so they are GM verbs; `targets` names
// who rests (default: every living creature).
#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/command.h"
#include "kernel/energy_rounds/internal.h"

namespace combat::kernel::energy {
namespace {

absl::Status NeedGm(const fb::CommandT& c, const char* rule) {
  if (c.role == fb::Role::GM) return absl::OkStatus();
  return absl::PermissionDeniedError(absl::StrCat("command '", c.action,
                                                  "': only the GM may call it (", Cite(rule), ")"));
}

absl::StatusOr<std::vector<std::string>> Resters(const State& s, const fb::CommandT& c) {
  std::vector<std::string> out;
  if (c.targets.empty()) {
    for (const auto& [id, k] : s.combatants) {
      if (!k.Has("Dead")) out.push_back(id);
    }
    return out;
  }
  for (size_t i = 0; i < c.targets.size(); ++i) {
    ASSIGN_OR_RETURN(const Combatant* t, Target(s, c, i));
    if (t->Has("Dead")) return Refuse("002.death.dead", absl::StrCat(t->id, " is dead"));
    out.push_back(t->id);
  }
  return out;
}

// A creature unconscious from Stamina loss stays so when a rest restores
// its Stamina: it wakes only on a 20 (l.72), "regaining 1 Stamina if you
// were at 0" (l.657: so one may be unconscious from Stamina loss above 0).
// The wake rolls go on in the rest's Rounds (12 a minute, l.103;
// LetRoundsPass), so one still unconscious when its Stamina comes back
// rolls on. The Stamina change says so, cause by cause: only Stamina loss
// and non-lethal damage roll to wake (l.657, l.658); the dying and the
// asleep wake when the GM decides (l.659, l.660).
absl::Status RestoreStamina(Decision& d, const std::string& id, const Why& why) {
  const Combatant* k = d.state().Find(id);
  if (k->Resource(res::kStamina) == MaxStamina(*k)) return absl::OkStatus();
  Why w = why;
  if (k->Has("Unconscious")) {
    int rolling = 0;
    bool gm = false;
    for (const auto& [cid, u] : k->conditions) {
      if (u.name != "Unconscious") continue;
      if (u.source == "stamina" || u.source == "nonlethal") {
        ++rolling;
      } else {
        gm = true;
      }
    }
    w.nums.push_back({"still_unconscious", 1});
    w.nums.push_back({"wake_roll_causes", rolling});
    std::string how;
    if (rolling > 0) {
      how = "it wakes from Stamina loss or a blow on a wake roll of 20 each Round, the rest's Rounds included (l.103, l.657, l.658)";
    }
    if (gm) {
      absl::StrAppend(&how, how.empty() ? "" : "; ",
                      "from bleeding out or sleep when the GM decides (l.659, l.660)");
    }
    w.note = absl::StrCat(why.note, "; still unconscious: ", how, " (reading 35)");
  }
  return SetResource(d, id, res::kStamina, MaxStamina(*k), w);
}

absl::Status EndUntilRest(Decision& d, const std::string& id, const Why& why) {
  std::vector<uint32_t> due;
  for (const auto& [cid, k] : d.state().Find(id)->conditions) {
    if (k.expiry.kind == fb::ExpiryKind::OnUse && k.expiry.actor == "short_rest") due.push_back(cid);
  }
  for (uint32_t cid : due) {
    if (d.state().Find(id)->conditions.count(cid) == 0) continue;
    RETURN_IF_ERROR(RemoveCondition(d, id, cid, why));
  }
  return absl::OkStatus();
}

// A rest is time passing: "A Round is about 5 seconds long" (l.103), 12 a
// minute, so a rest of `total` Rounds outlasts every duration that ends
// at a Round boundary within them: "until the end of the (next) Round"
// (l.173, l.460, l.468, l.507, l.633) and a GM's `rounds`. They end as at
// those boundaries, in their order, for everyone present (the time passes
// for the whole scene); the session's Round counter does not move (the
// next Round is the one after the rest). Durations due later stay.
// Each Round that begins in the rest begins as any Round does for the
// dying and the unconscious: "You also must make a Death Save at the
// beginning of every Round until you are Stabilized" (l.635, l.659), and
// "you roll a 1d20 each Round until you get a 20" to wake (l.72, l.657,
// l.658): those rolls are made, Round by Round, as long as anyone makes
// them (RollsAtRoundStart); past that, the durations end in one sweep.
// This passes the rest's Round boundaries `from` (the end of the session's
// Round `from`, then the start of `from` + 1) up to before `to`.
// Only conditions are collected: no pending act can be present at a rest.
// Every pending act of this ruleset (`acting`, acts.cc Acting) opens with
// its window and closes with it (acts.cc ResolveInWindow, DecideCancel),
// and both rests are refused while a window or pending act is open (l.105,
// `002.rounds.span`, CheckNoWindow).
absl::Status LetRoundsPass(Decision& d, int64_t from, int64_t to, int64_t total, uint64_t cause) {
  const int64_t now = d.state().round;
  auto why = [&](int64_t round, bool start) {
    return Why{cause, "002.cond.expire", {{"rest_rounds", total}},
               absl::StrCat("duration ended during the rest (", total,
                            " Rounds of about 5 seconds, l.103): ",
                            start ? "the start of round " : "the end of round ", round)};
  };
  int64_t b = from;
  for (; b < to && AnyoneRollsAtRoundStart(d.state()); ++b) {
    RETURN_IF_ERROR(ExpireAt(d, fb::ExpiryKind::RoundEnd, "", b, why(b, false)).status());
    RETURN_IF_ERROR(ExpireAt(d, fb::ExpiryKind::RoundStart, "", b + 1, why(b + 1, true)).status());
    RETURN_IF_ERROR(RollsAtRoundStart(d, cause, b - now + 1));
  }
  if (b >= to) return absl::OkStatus();
  std::set<std::pair<int64_t, int>> due;  // (round, 0 = its end, 1 = its start)
  for (const auto& [id, k] : d.state().combatants) {
    for (const auto& [cid, cond] : k.conditions) {
      const Expiry& e = cond.expiry;
      if (!e.actor.empty()) continue;
      // The boundaries passed are those of the loop above: the end of
      // rounds `from` .. `to` - 1 and the start of `from` + 1 .. `to`.
      if (e.kind == fb::ExpiryKind::RoundEnd && e.round < to) due.insert({e.round, 0});
      if (e.kind == fb::ExpiryKind::RoundStart && e.round <= to) due.insert({e.round - 1, 1});
    }
  }
  for (const auto& [round, start] : due) {
    RETURN_IF_ERROR(ExpireAt(d, start ? fb::ExpiryKind::RoundStart : fb::ExpiryKind::RoundEnd, "",
                             start ? round + 1 : round, why(start ? round + 1 : round, start != 0))
                        .status());
  }
  return absl::OkStatus();
}

// A duration in Rounds that outlasts the rest has the rest's Rounds
// behind it (l.103: the rest is `total` Rounds passing for the whole
// scene, reading 39): the session's Round counter does not move, so one
// due at round X (the end of X >= now + total, or the start of X > now +
// total) is due at X - total after the rest, as many Rounds on as it had
// left (a GM's 100 Rounds after a 5-minute rest: 40). It is re-imposed so
// (the same name, source, level, note, with its daughters, l.688); one
// with a daughter on another creature (a hold) is left as it was.
absl::Status RetimeOutlastingDurations(Decision& d, int64_t total, uint64_t cause) {
  const int64_t now = d.state().round;
  std::vector<std::pair<std::string, uint32_t>> due;
  for (const auto& [id, k] : d.state().combatants) {
    if (k.Has("Dead")) continue;  // nothing is re-imposed on the dead
    for (const auto& [cid, cond] : k.conditions) {
      const Expiry& e = cond.expiry;
      if (cond.parent != 0 || !e.actor.empty()) continue;
      if (e.kind != fb::ExpiryKind::RoundEnd && e.kind != fb::ExpiryKind::RoundStart) continue;
      bool elsewhere = false;
      for (const auto& [oid, o] : d.state().combatants) {
        for (const auto& [ocid, oc] : o.conditions) {
          if (oid != id && oc.parent == cid) elsewhere = true;
        }
      }
      if (!elsewhere) due.push_back({id, cid});
    }
  }
  for (const auto& [id, cid] : due) {
    const Condition cond = d.state().Find(id)->conditions.at(cid);
    Impose again = AsNew(id, cond);
    again.expiry.round = cond.expiry.round - total;
    const int64_t left = again.expiry.round - now;
    const Why why{cause, "002.cond.expire",
                  {{"rest_rounds", total}, {"due_round_before", cond.expiry.round},
                   {"due_round", again.expiry.round}, {"rounds_left", left}},
                  absl::StrCat("the rest's ", total, " Rounds (l.103) count against it: ",
                               left, " Round(s) on")};
    RETURN_IF_ERROR(RemoveCondition(d, id, cid, why));
    RETURN_IF_ERROR(AddWithDaughters(d, again, why).status());
  }
  return absl::OkStatus();
}

// After the rest's Rounds (l.103) everyone is in a Round of its own: its
// Energy and Agility as at a Round's beginning (l.53, l.90, l.107-109,
// from the Stamina the rest left), its once-a-Round uses and Agile Move
// credits new (l.29, l.47, l.110-112), its metres moved this Round none
// (l.35); and no movement is back-to-back with one before the rest (l.27,
// l.31 "immediately after having moved at least 2m"): resting is waiting.
absl::Status AfterTheRest(Decision& d, uint64_t cause, int64_t rounds) {
  RETURN_IF_ERROR(RetimeOutlastingDurations(d, rounds, cause));
  std::vector<std::string> ids;
  for (const auto& [id, k] : d.state().combatants) {
    if (!k.Has("Dead")) ids.push_back(id);
  }
  const std::string note = absl::StrCat("after the rest (", rounds, " Rounds, l.103)");
  for (const std::string& id : ids) {
    RETURN_IF_ERROR(ResetBudgets(d, id, {cause, "002.rounds.start", {}, note}));
    RETURN_IF_ERROR(BreakStreak(d, id, cause, note));
    // l.126 "You may only roll Initiative once per Round": a roll before
    // the rest was in another Round.
    if (d.state().Find(id)->Resource(res::kInitRound, 0) != 0) {
      RETURN_IF_ERROR(SetResource(d, id, res::kInitRound, 0, {cause, "002.initiative.once", {}, note}));
    }
  }
  return absl::OkStatus();
}

// l.602 "You may spend 1 Recovery Surge to regain Aura" (l.306 "to
// restore Aura while Resting", l.310 "you regain Aura equal to your
// Recovery Value"): a surge is spent to regain Aura, so a rester whose
// Aura is at its maximum (l.298) spends none, however many `surges` the
// rest asks of everyone resting together; one filled by a surge spends no
// more.
bool NeedsAura(const Combatant& k) { return k.Resource(res::kAura) < AuraMax(k); }

absl::Status SpendSurge(Decision& d, const std::string& id, uint64_t cause,
                        const char* rule = "002.rest.surge", Nums extra = {}) {
  const Combatant* k = d.state().Find(id);
  const int64_t value = RecoveryValue(*k);
  Nums nums{{"recovery_value", value}};
  for (const Num& n : extra) nums.push_back(n);
  RETURN_IF_ERROR(AddResource(d, id, res::kSurges, -1, {cause, rule, nums, ""}).status());
  return GainAura(d, id, value, {cause, "002.rest.surge", {{"recovery_value", value}}, "Recovery Surge"});
}

}  // namespace

absl::Status DecideShortRest(const fb::CommandT& c, Decision& d) {
  RETURN_IF_ERROR(NeedGm(c, "002.rest.short"));
  RETURN_IF_ERROR(CheckNoWindow(d.state()));  // l.105: its Rounds pass
  const int64_t minutes = ParamOr(c, "minutes", 5);
  // l.597 "A Short Rest takes 5-30 minutes"; l.606 "If you are interrupted
  // in the middle of a Short Rest, you may have completed some things but
  // not others": `minutes` is the time rested, so fewer than 5, or a
  // number not a multiple of 5, is a rest interrupted in the middle. Its
  // Rounds pass all the same (l.103); only its whole 5-minute spans give
  // what "Every 5 minutes" gives (l.599-602).
  if (minutes < 1 || minutes > 30) {
    return Malformed(c, "params.minutes",
                     "1 to 30: the minutes rested (l.597 '5-30 minutes'; fewer, or not a "
                     "multiple of 5, is a rest interrupted in the middle, l.606, whose whole "
                     "5-minute spans give Stamina and surges, l.599)");
  }
  const int64_t surges = ParamOr(c, "surges", 0);  // >= 0 (verbs.cc)
  const int64_t steps = minutes / 5;  // whole 5-minute spans (l.599), rounded down
  // l.599, l.602: "Every 5 minutes ... You may spend 1 Recovery Surge": a
  // rest asking for more than its minutes allow is refused, not capped.
  if (surges > steps) {
    return Refuse("002.rest.short",
                  absl::StrCat("a Short Rest of ", minutes, " minutes allows at most ", steps,
                               " Recovery Surge", steps == 1 ? "" : "s",
                               " (1 per 5 minutes, l.602); asked for ", surges));
  }
  ASSIGN_OR_RETURN(std::vector<std::string> who, Resters(d.state(), c));
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  // l.599 "Every 5 minutes of a Short Rest": each 5 minutes (60 Rounds,
  // l.103) pass, then give what they give (l.606: an interrupted rest "may
  // have completed some things but not others"): all the Stamina (l.600)
  // and, as asked, 1 Recovery Surge (l.602). One who died in them rests no
  // more.
  const int64_t now = d.state().round;
  for (int64_t step = 0; step < steps; ++step) {
    RETURN_IF_ERROR(LetRoundsPass(d, now + step * 60, now + (step + 1) * 60, minutes * 12, decl));
    for (const std::string& id : who) {
      if (d.state().Find(id)->Has("Dead")) continue;
      const Why why{decl, "002.rest.short", {{"minutes", minutes}, {"after_minutes", (step + 1) * 5}},
                    "Short Rest"};
      RETURN_IF_ERROR(RestoreStamina(d, id, why));
      // l.602: 1 Recovery Surge per 5 minutes, as many as the rester has
      // (`surges` asks the same of every rester; one with fewer spends all
      // it has, and the first surge records both numbers), while it has
      // Aura to regain (NeedsAura).
      const int64_t have = d.state().Find(id)->Resource(res::kSurges);
      if (step < surges && have > 0 && NeedsAura(*d.state().Find(id))) {
        RETURN_IF_ERROR(SpendSurge(d, id, decl, "002.rest.surge",
                                   step == 0 ? Nums{{"surges_asked", surges}, {"surges_had", have}}
                                             : Nums{}));
      }
    }
  }
  // The minutes past the last whole span (an interrupted rest, l.606)
  // pass as Rounds and give nothing.
  RETURN_IF_ERROR(LetRoundsPass(d, now + steps * 60, now + minutes * 12, minutes * 12, decl));
  // "until your next Short Rest" (l.509, l.634) ends with the rest's
  // benefits, which a rest interrupted before its first 5 minutes never
  // gave (l.599, l.606): those conditions stay.
  for (const std::string& id : who) {
    if (steps == 0 || d.state().Find(id)->Has("Dead")) continue;
    RETURN_IF_ERROR(EndUntilRest(d, id, {decl, "002.rest.short", {{"minutes", minutes}}, "Short Rest"}));
  }
  return AfterTheRest(d, decl, minutes * 12);
}

absl::Status DecideLongRest(const fb::CommandT& c, Decision& d) {
  RETURN_IF_ERROR(NeedGm(c, "002.rest.long"));
  RETURN_IF_ERROR(CheckNoWindow(d.state()));  // l.105: its Rounds pass
  // l.610 "A Long Rest usually takes about 8 hours ... at least 6 of the
  // 8 hours must be spent sleeping": the rest is those 8 hours; l.620 "If
  // you are interrupted in the middle of a Long Rest" makes a shorter one
  // a rest too, at any time in it: `hours` (whole hours) or `minutes` (the
  // time rested, for a rest interrupted between the hours), not both.
  if (HasParam(c, "hours") && HasParam(c, "minutes")) {
    return Malformed(c, "params.minutes",
                     "give the time rested once: `hours` (1 to 8) or `minutes` (1 to 480), not both");
  }
  const bool by_minutes = HasParam(c, "minutes");
  const int64_t minutes = by_minutes ? ParamOr(c, "minutes", 480) : ParamOr(c, "hours", 8) * 60;
  if (minutes < 1 || minutes > 480) {
    return Malformed(
        c, by_minutes ? "params.minutes" : "params.hours",
        absl::StrCat(by_minutes ? "1 to 480" : "1 to 8",
                     ": the time rested (l.610 'about 8 hours ... 6 of the 8 hours must be spent "
                     "sleeping': the rest is those 8 hours; less is a rest interrupted in the "
                     "middle, l.620, given in `minutes` between the hours; more time is the "
                     "GM's: another rest after it)"));
  }
  const int64_t hours = minutes / 60;  // whole hours, for the record
  const int64_t slept = ParamOr(c, "sleep_hours", std::min<int64_t>(hours, 6));
  if (slept < 0 || slept * 60 > minutes) {
    return Malformed(c, "params.sleep_hours", "0 to the whole hours rested");
  }
  const int64_t steps = minutes / 5;  // whole 5-minute spans (l.599), rounded down
  // l.618: "Anything you can do during a Short Rest, you can do during a
  // Long Rest": 1 Recovery Surge per 5 minutes (l.602) may be spent.
  const int64_t spend = ParamOr(c, "surges", 0);  // >= 0 (verbs.cc)
  if (spend > steps) {
    return Refuse("002.rest.long_as_short",
                  absl::StrCat("a Long Rest of ", minutes, " minutes allows at most ", steps,
                               " Recovery Surges (1 per 5 minutes, l.602, l.618); asked for ",
                               spend));
  }
  ASSIGN_OR_RETURN(std::vector<std::string> who, Resters(d.state(), c));
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  const bool complete = minutes == 480 && slept >= 6;  // l.610
  const std::string how = complete ? "Long Rest" : "interrupted Long Rest: some benefits (l.620)";
  // l.618: what a Short Rest gives every 5 minutes (60 Rounds, l.103),
  // it gives as its 5 minutes pass (l.599-602); the Long Rest's own
  // benefits come when it ends (l.612 "If you complete your Long Rest").
  const int64_t now = d.state().round;
  for (int64_t step = 0; step < steps; ++step) {
    RETURN_IF_ERROR(LetRoundsPass(d, now + step * 60, now + (step + 1) * 60, minutes * 12, decl));
    for (const std::string& id : who) {
      if (d.state().Find(id)->Has("Dead")) continue;
      const Why why{decl, "002.rest.long",
                    {{"minutes", minutes}, {"sleep_hours", slept}, {"after_minutes", (step + 1) * 5}},
                    how};
      RETURN_IF_ERROR(RestoreStamina(d, id, why));
      if (step < spend && d.state().Find(id)->Resource(res::kSurges) > 0 &&
          NeedsAura(*d.state().Find(id))) {
        RETURN_IF_ERROR(SpendSurge(d, id, decl, "002.rest.long_as_short"));
      }
    }
  }
  // The minutes past the last whole span (interrupted, l.620) pass as
  // Rounds and give nothing of their own.
  RETURN_IF_ERROR(LetRoundsPass(d, now + steps * 60, now + minutes * 12, minutes * 12, decl));
  for (const std::string& id : who) {
    if (d.state().Find(id)->Has("Dead")) continue;
    const Combatant* k = d.state().Find(id);
    const int64_t max_surges = SurgesMax(*k);
    const int64_t aura_max = AuraMax(*k);
    const Why why{decl, "002.rest.long", {{"minutes", minutes}, {"sleep_hours", slept}}, how};
    // As a Short Rest's (l.618): one interrupted before its first 5
    // minutes has given no benefit, and "until your next Short Rest"
    // conditions (l.509, l.634) stay.
    if (steps > 0) RETURN_IF_ERROR(EndUntilRest(d, id, why));
    // l.614: a complete rest regains all Recovery Surges; l.620: an
    // interrupted one "may have completed some things but not others (for
    // instance you may only have regained half your Recovery Surges)": the
    // surges come back over the rest, as its share of the 8 hours (l.306
    // "only so much each day"): floor(max x minutes / 480), rounded down
    // (l.384; "only ... half": never more), half at its middle, added to
    // those left, up to the maximum. A rest of 8 hours with fewer than 6
    // asleep (l.610: not the "full benefits") gives l.620's half.
    const int64_t have = d.state().Find(id)->Resource(res::kSurges);
    const int64_t share = minutes < 480 ? FloorDiv(max_surges * minutes, 480) : FloorDiv(max_surges, 2);
    const int64_t surges = complete ? max_surges : std::min(max_surges, have + share);
    if (have < surges) {
      Why sw = why;
      if (!complete) sw.rule = "002.rest.interrupted";
      sw.nums.push_back({"max_surges", max_surges});
      sw.nums.push_back({"surges_before", have});
      if (!complete) sw.nums.push_back({"regained_share", share});
      RETURN_IF_ERROR(SetResource(d, id, res::kSurges, surges, sw));
    }
    const int64_t aura = d.state().Find(id)->Resource(res::kAura);
    if (complete && aura < aura_max) {
      RETURN_IF_ERROR(GainAura(d, id, aura_max - aura, why));
    }
  }
  return AfterTheRest(d, decl, minutes * 12);
}

absl::Status DecideSurge(const fb::CommandT& c, Decision& d) {
  RETURN_IF_ERROR(NeedGm(c, "002.rest.surge"));
  ASSIGN_OR_RETURN(const Combatant* a, Actor(d.state(), c));
  if (a->Has("Dead")) return Refuse("002.death.dead", absl::StrCat(a->id, " is dead"));
  if (a->Resource(res::kSurges) < 1) {
    return Refuse("002.aura.surges", absl::StrCat(a->id, " has no Recovery Surge left"));
  }
  // l.306 "restore Aura using Recover Surges", l.310 "When you spend a
  // Recovery Surge to restore your Aura": with full Aura there is nothing
  // to restore, and a surge is "only so much each day" (l.306), so it is
  // not spent for nothing (as in a rest, NeedsAura).
  if (!NeedsAura(*a)) {
    return Refuse("002.rest.surge",
                  absl::StrCat("command 'surge': field 'actor': ", a->id, "'s Aura is full (",
                               a->Resource(res::kAura), " of ", AuraMax(*a),
                               "): a Recovery Surge restores Aura (l.306, l.310), so none is "
                               "spent"));
  }
  const std::string id = a->id;
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  return SpendSurge(d, id, decl);
}

}  // namespace combat::kernel::energy
