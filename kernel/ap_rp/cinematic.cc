// Cinematic Actions and Reactions (l.40-45) and Narrative Momentum, a pool
// (kernel/changes.h SetPool/AddPool) of each side ("side:<side>"; the text
// names no holder: reading).
//
//   cinematic          the actor proposes (text = what it attempts); params
//                      kind ("action" 3 AP | "reaction" 2 RP), burst (0/1),
//                      reduction (a feature's cost reduction), below_one
//                      (1: the feature allows below 1, l.45); targets = the
//                      helpers of a Cooperative Cinematic Action, each
//                      paying 2 RP or, with burst_<helper>=1, a Burst (4
//                      Momentum, l.44). Nothing is paid yet: a pending act "cinematic" waits for the GM.
//   cinematic_ruling   the GM (role GM) answers refs{act}: params allow
//                      (0/1), dc, skill (text; skill_<id> per participant).
//                      A Ruling records the decision; on allow the costs are
//                      paid and every participant rolls (with advantage when
//                      cooperative); the outcome is recorded, and what
//                      happens is the GM's (gm_* verbs).
//   grant_momentum     the GM adds params delta to params side's pool.
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "events/status_macros.h"
#include "kernel/ap_rp/internal.h"
#include "kernel/command.h"
#include "kernel/pending.h"

namespace combat::kernel::aprp {
namespace {

inline constexpr char kCinematicAct[] = "cinematic";

struct Costs {
  std::string lead;
  bool reaction = false;
  bool burst = false;
  bool coop = false;
  int64_t lead_ap = 0;
  int64_t lead_rp = 0;
  int64_t momentum_lead = 0;
  int64_t momentum_helper = 0;
  std::vector<std::string> helpers;
  std::vector<std::string> bursting;  // helpers paying by a Burst (l.44)
};

bool HelperBursts(const Costs& k, const std::string& h) {
  return std::find(k.bursting.begin(), k.bursting.end(), h) != k.bursting.end();
}

int64_t HelperMomentum(const Costs& k, const std::string& h) {
  return HelperBursts(k, h) ? 4 : k.momentum_helper;  // l.44 "you need 4"
}

Costs CostsOf(const fb::CommandT& c) {
  Costs k;
  k.lead = c.actor;
  k.reaction = ParamText(c, "kind") == "reaction";
  k.burst = ParamOr(c, "burst", 0) != 0;
  k.helpers = c.targets;
  k.coop = !k.helpers.empty();
  // l.43 "Two or more characters can perform a Cooperative Cinematic
  // Action. Each character beyond the first has to perform a reaction (2
  // RP)" and l.44 "If you cannot use 3AP or 2RP ... you can use a Cinematic
  // Burst ... You can also use a Cinematic Burst to do a Cooperative
  // Cinematic Action, in which case you need 4": a helper, who performs the
  // act too, may pay 4 Momentum instead of its 2 RP and 2 Momentum.
  for (const std::string& h : k.helpers) {
    if (ParamOr(c, "burst_" + h, 0) != 0) k.bursting.push_back(h);
  }
  const int64_t reduction = ParamOr(c, "reduction", 0);
  // l.41: 3 Momentum; l.43: 2 each when cooperative; l.44: a Burst 6, or 4
  // cooperative; l.45: never below 1.
  int64_t lead_nm = k.burst ? (k.coop ? 4 : 6) : (k.coop ? 2 : 3);
  // l.45: "cannot be reduced below 1 unless a feature specifically allows
  // that": param below_one=1 (such a feature) lets it reach 0.
  const int64_t floor = ParamOr(c, "below_one", 0) != 0 ? 0 : 1;
  k.momentum_lead = std::max<int64_t>(floor, lead_nm - reduction);
  // l.43 "Each participant only needs to use 2": the claimed reduction is a
  // feature of the lead (recorded "a feature of <lead>"), so it lowers the
  // lead's cost only; a helper pays its 2 (reading: l.45 names no feature
  // that lowers another creature's cost; a helper's own is the GM's).
  k.momentum_helper = 2;
  if (!k.burst) {
    if (k.reaction) {
      k.lead_rp = 2;
    } else {
      k.lead_ap = 3;
    }
  }
  return k;
}

absl::Status CheckCosts(const State& s, const Costs& k) {
  const Combatant* a = s.Find(k.lead);
  if (k.burst) {
    // l.44 "If you cannot use 3AP or 2RP for some reason, like when you are
    // Restrained or Stunned": a living creature kept from its AP or RP; the
    // Dead cannot act (reading, as CheckAp / CheckRp refuse them).
    if (!Alive(*a)) return Refuse("004.cinematic.burst", a->id + " cannot act (Dead): no Cinematic Burst");
    // l.44: only if no AP used this turn (action) / no RP this round (reaction).
    if (!k.reaction && (!s.IsTurnOf(a->id) || a->Resource(kApUsed) > 0)) {
      return Refuse("004.cinematic.burst", a->id + " used AP this turn (or it is not its turn): no Cinematic Burst");
    }
    if (k.reaction && a->Resource(kRpUsed) > 0) {
      return Refuse("004.cinematic.burst", a->id + " used RP this round: no Cinematic Burst");
    }
  } else if (k.reaction) {
    RETURN_IF_ERROR(CheckRp(s, *a, k.lead_rp, "004.cinematic"));
  } else {
    RETURN_IF_ERROR(CheckAp(s, *a, k.lead_ap, "004.cinematic"));
  }
  std::map<std::string, int64_t> need;
  need[a->side] += k.momentum_lead;
  for (const std::string& h : k.helpers) {
    const Combatant* hc = s.Find(h);
    if (HelperBursts(k, h)) {
      if (!Alive(*hc)) return Refuse("004.cinematic.burst", h + " cannot act (Dead): no Cinematic Burst (l.44)");
      // l.44 "no RP this round": the helper's part is "a reaction" (l.43;
      // reading).
      if (hc->Resource(kRpUsed) > 0) {
        return Refuse("004.cinematic.burst", h + " used RP this round: no Cinematic Burst (l.44)");
      }
    } else {
      RETURN_IF_ERROR(CheckRp(s, *hc, 2, "004.cinematic.coop"));  // l.43
    }
    need[hc->side] += HelperMomentum(k, h);
  }
  for (const auto& [side, n] : need) {
    const int64_t have = s.Pool(SideOwner(side), kMomentum);
    if (have < n) {
      return Refuse("004.cinematic", absl::StrCat("side ", side, " has ", have,
                                                  " Narrative Momentum and this needs ", n));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status DecideCinematic(const fb::CommandT& c, Decision& d) {
  if (ParamOr(c, "below_one", 0) != 0 && ParamOr(c, "reduction", 0) == 0) {
    return Malformed(c, "params.below_one", "goes with params.reduction (a feature's reduction, l.45)");
  }
  ASSIGN_OR_RETURN(const Combatant* a, Actor(d.state(), c));
  const std::string kind = ParamText(c, "kind");
  if (kind != "action" && kind != "reaction") return Malformed(c, "params.kind", "\"action\" or \"reaction\"");
  if (c.text.empty()) return Malformed(c, "text", "what the actor attempts, told to the GM first (l.41)");
  if (!c.targets.empty() && kind == "reaction") {
    // l.43 names only a "Cooperative Cinematic Action" (and l.44 a Burst
    // "to do a Cooperative Cinematic Action").
    return Refuse("004.cinematic.coop", "only a Cinematic Action can be cooperative, not a Reaction");
  }
  for (size_t i = 0; i < c.targets.size(); ++i) {
    ASSIGN_OR_RETURN(const Combatant* h, Target(d.state(), c, i));
    if (h->id == a->id) return Malformed(c, absl::StrCat("targets[", i, "]"), "the helpers, not the actor");
  }
  for (const auto& p : c.params) {
    if (p == nullptr || p->key.rfind("burst_", 0) != 0) continue;
    const std::string h = p->key.substr(6);
    if (std::find(c.targets.begin(), c.targets.end(), h) == c.targets.end()) {
      return Malformed(c, "params." + p->key, "burst_<id> names a helper (one of targets); the lead's is params.burst");
    }
  }
  if (FirstPending(d.state(), a->id, kCinematicAct) != nullptr) {
    return Refuse("004.cinematic", a->id + " already waits for the GM on a cinematic act");
  }
  RETURN_IF_ERROR(CheckCosts(d.state(), CostsOf(c)));
  const std::string who = a->id;
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  NewPending p;
  p.kind = kCinematicAct;
  p.actor = who;
  p.decl = decl;
  p.command = c;
  p.reacted = c.targets;
  if (kind == "reaction") {
    // l.6 "two Reaction Points (RP) for the whole round": a Cinematic
    // Reaction is paid from the RP of the round it is attempted in, so one
    // the GM has not ruled on by the round's end lapses at the next round's
    // start (before the RP are renewed) instead of being paid from that
    // round's RP.
    p.expiry = Expiry{fb::ExpiryKind::RoundStart, "", d.state().round + 1};
  } else {
    // l.6 "Each participant gets three Action Points (AP) during their
    // turn" (l.44: a Burst "if you have not used any AP on your turn"): a
    // Cinematic Action is proposed on the actor's turn and paid from that
    // turn's AP, so one the GM has not ruled on by the turn's end (ended or
    // lost, l.8) lapses then instead of being paid from a later turn's AP
    // or blocking the next proposal.
    p.expiry = Expiry{fb::ExpiryKind::TurnEnd, who, d.state().round};
  }
  // l.41 "You tell the GM what you want to attempt before you start your
  // Cinematic Action or Reaction": proposing either on one's own turn is
  // acting on the turn, so a later gm_order (l.7) does not hand this turn on
  // nor can it be held whole (l.8) (a Burst pays no AP, l.44, a Reaction
  // none either: neither would otherwise leave a trace of it on the turn).
  if (d.state().IsTurnOf(who)) {
    RETURN_IF_ERROR(SetResource(d, who, kCinematicActed, 1, {decl, "004.cinematic"}));
  }
  return OpenPending(d, p, {decl, "004.cinematic", {}, "waits for the GM's approval (l.41)"}).status();
}

absl::Status DecideCinematicRuling(const fb::CommandT& c, Decision& d) {
  std::vector<std::string> params = {"allow", "dc", "skill"};
  const PendingAct* p = nullptr;
  if (auto id = RefPending(c, "act"); id.has_value()) p = d.state().FindPending(*id);
  if (p != nullptr) {
    params.push_back("skill_" + p->actor);
    for (const std::string& h : p->command->targets) params.push_back("skill_" + h);
  }
  // The table (verbs.cc) takes any skill_<id>; that <id> is the act's actor
  // or a helper is the one check it cannot express.
  RETURN_IF_ERROR(CheckTakes(c, {params, {"act"}}));
  if (c.role != fb::Role::GM) {
    return absl::PermissionDeniedError("command 'cinematic_ruling': the GM decides (l.41)");
  }
  ASSIGN_OR_RETURN(uint32_t id, RequiredRefPending(c, "act", "the cinematic act ruled on"));
  p = d.state().FindPending(id);
  if (p == nullptr || p->kind != kCinematicAct) {
    return absl::NotFoundError(absl::StrCat("command 'cinematic_ruling': refs[key=act]: ", id,
                                            " is not an open cinematic act"));
  }
  if (!HasParam(c, "allow")) return Malformed(c, "params.allow", "1 (possible) or 0 (not)");
  if (c.text.empty()) return Malformed(c, "text", "the GM's reason");
  const PendingAct act = *p;
  const bool allow = ParamOr(c, "allow", 0) != 0;
  if (allow && (!HasParam(c, "dc") || (ParamText(c, "skill").empty()))) {
    return Malformed(c, "params.dc", "the Skill Check the GM sets: params dc and skill (l.41)");
  }
  const Costs k = CostsOf(act.command);
  if (allow) RETURN_IF_ERROR(CheckCosts(d.state(), k));
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  RETURN_IF_ERROR(RecordRuling(d, allow ? "allow" : "deny", act.decl, c.text,
                               {decl, "004.cinematic", {}, allow ? "the GM agrees" : "the GM says it is not possible"}));
  if (!allow) return ClosePending(d, act.id, "cancelled: the GM denies it", {decl, "004.cinematic"});
  // Allowed, the act goes ahead by itself (its declaration names its
  // author): the payment and the checks are the system's, not the GM's.
  Decision::SystemSteps system(d);
  // Pay (l.41, l.43, l.44).
  const std::string lead_side = d.state().Find(k.lead)->side;
  const char* rule = k.burst ? "004.cinematic.burst" : (k.coop ? "004.cinematic.coop" : "004.cinematic");
  // A feature's cost reduction (l.45) is the declarer's claim (params).
  const int64_t reduction = ParamOr(act.command, "reduction", 0);
  Nums paid{{"momentum", k.momentum_lead}};
  if (reduction != 0) {
    // l.45: the reduction applied is what the floor leaves of the claim
    // (3 - 5 stops at 1: -2), the claim shown beside it.
    const int64_t base = k.burst ? (k.coop ? 4 : 6) : (k.coop ? 2 : 3);
    paid.push_back({"cost_reduction", k.momentum_lead - base, "a feature of " + k.lead, "004.cinematic.min"});
    if (k.momentum_lead - base != -reduction) paid.push_back({"reduction_claimed", reduction});
  }
  RETURN_IF_ERROR(AddPool(d, SideOwner(lead_side), kMomentum, -k.momentum_lead,
                          {decl, rule, paid, k.lead}).status());
  RETURN_IF_ERROR(SpendAp(d, k.lead, k.lead_ap, decl, rule));
  RETURN_IF_ERROR(SpendRp(d, k.lead, k.lead_rp, decl, rule));
  for (const std::string& h : k.helpers) {
    const std::string side = d.state().Find(h)->side;
    const bool hb = HelperBursts(k, h);
    const char* hrule = hb ? "004.cinematic.burst" : "004.cinematic.coop";
    RETURN_IF_ERROR(AddPool(d, SideOwner(side), kMomentum, -HelperMomentum(k, h),
                            {decl, hrule, {{"momentum", HelperMomentum(k, h)}}, h}).status());
    if (!hb) RETURN_IF_ERROR(SpendRp(d, h, 2, decl, "004.cinematic.coop"));
  }
  // Checks: with advantage when cooperative (l.43).
  const int64_t dc = ParamOr(c, "dc", 0);
  std::vector<std::string> all = {k.lead};
  for (const std::string& h : k.helpers) all.push_back(h);
  int failures = 0;
  int crits = 0;
  for (const std::string& who : all) {
    std::string skill = ParamText(c, "skill_" + who);
    if (skill.empty()) skill = ParamText(c, "skill");
    const int64_t bonus = d.state().Find(who)->Stat(skill);
    ASSIGN_OR_RETURN(dice::RollResult r, d.Roll(D20(k.coop ? 1 : 0, bonus), skill, who, decl));
    const bool ok = r.total >= dc;
    // l.43 "a critical success of another participant": a success with a
    // natural 20 (reading: the chapter's only critical, l.56, is a natural
    // 20). A natural 20 below the number is a failure, and no critical: it
    // does not cover its own failure ("of another participant").
    const bool crit = ok && r.natural() == 20;
    failures += ok ? 0 : 1;
    crits += crit ? 1 : 0;
    Nums nums{{"natural", r.natural()}, {"bonus", bonus}, {"total", r.total}, {"dc", dc}};
    if (k.coop) nums.push_back({"cooperative", 1, "cooperating with " + absl::StrJoin(all, ", "), "004.cinematic.coop"});
    RETURN_IF_ERROR(RecordOutcome(d, who, {decl, rule, nums,
                                           absl::StrCat(skill, crit ? ": critical success" : ok ? ": success" : ": failure")}));
  }
  // l.43: all must succeed; a critical success of one covers one failure
  // (reading: each critical covers one failure; a critical is a success, so
  // it is always another participant's).
  const bool success = k.coop ? failures <= crits : failures == 0;
  return ClosePending(d, act.id, success ? "resolved: success" : "resolved: failure",
                      {decl, rule, {{"failures", failures}, {"criticals", crits}},
                       success ? "performed as intended; the GM rules its effects"
                               : "unsuccessful; the GM determines what happens"});
}

absl::Status DecideGrantMomentum(const fb::CommandT& c, Decision& d) {
  if (c.role != fb::Role::GM) return absl::PermissionDeniedError("command 'grant_momentum': GM only");
  const std::string side = ParamText(c, "side");
  if (side.empty()) return Malformed(c, "params.side", "the side whose pool changes");
  {
    // A side of the roster (l.3 "everybody that fights on your side").
    std::vector<std::string> sides;
    for (const auto& [id, who] : d.state().combatants) {
      if (!who.side.empty() && !IsObject(who) &&
          std::find(sides.begin(), sides.end(), who.side) == sides.end()) {
        sides.push_back(who.side);
      }
    }
    if (std::find(sides.begin(), sides.end(), side) == sides.end()) {
      std::sort(sides.begin(), sides.end());
      return Malformed(c, "params.side", absl::StrCat("'", side, "' is no side of this session: one of ",
                                                       absl::StrJoin(sides, ", ")));
    }
  }
  if (!HasParam(c, "delta")) return Malformed(c, "params.delta", "the Momentum added (negative: removed)");
  const int64_t delta = ParamOr(c, "delta", 0);
  if (d.state().Pool(SideOwner(side), kMomentum) + delta < 0) {
    return Refuse("004.cinematic", "a pool never goes below 0");
  }
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  return AddPool(d, SideOwner(side), kMomentum, delta, {decl, "004.cinematic", {{"delta", delta}}, c.text}).status();
}

}  // namespace combat::kernel::aprp
