#include "tests/testing/gen.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "events/status_macros.h"
#include "kernel/changes.h"
#include "kernel/decision.h"
#include "kernel/dice/source.h"
#include "kernel/session.h"

namespace combat::testing {
namespace {

const char* const kIds[] = {"aria", "brakk", "cyl", "dorn"};
constexpr int kCombatants = 4;
constexpr int kMapSize = 40;

const char* const kWords[] = {"the", "goblin", "ruling", "cover", "flank",
                              "spear", "opportunity", "reach", "cleave",
                              "prone", "grapple", "torch", "ambush", "ridge"};

// A note of 0..~160 characters, so event sizes vary (WAL records then
// straddle block boundaries in crash and corruption tests).
std::string Words(Rng& rng, int max_words) {
  std::string out;
  const int n = static_cast<int>(rng.Below(static_cast<uint64_t>(max_words) + 1));
  for (int i = 0; i < n; ++i) {
    if (i > 0) out += ' ';
    out += kWords[rng.Below(sizeof(kWords) / sizeof(kWords[0]))];
  }
  return out;
}

// Joins every combatant not there yet (all of them at set-up; the rest
// when a branch was forked in the middle of the set-up command).
absl::Status JoinMissing(kernel::Decision& d, Rng& rng) {
  for (int i = 0; i < kCombatants; ++i) {
    if (d.state().Find(kIds[i]) != nullptr) continue;
    fb::CombatantSpecT spec;
    spec.id = kIds[i];
    spec.name = absl::StrCat("Combatant ", kIds[i]);
    spec.side = i % 2 == 0 ? "party" : "foes";
    spec.at = std::make_unique<fb::Pos>(i * 3, 0);
    RETURN_IF_ERROR(kernel::JoinCombatant(d, spec, {0, "join"}));
    RETURN_IF_ERROR(kernel::SetResource(
        d, kIds[i], "hp", 1000000 + static_cast<int64_t>(rng.Below(100)),
        {0, "hp"}));
  }
  return absl::OkStatus();
}

absl::Status SetUp(kernel::Decision& d, const std::string& session, Rng& rng) {
  fb::MapT map;
  map.width = kMapSize;
  map.height = kMapSize;
  RETURN_IF_ERROR(kernel::StartSession(
      d, session, "reliability: " + Words(rng, 4), map,
      kernel::dice::SeededDice::Commitment(CommandGen::Secret()),
      {0, "setup"}));
  return JoinMissing(d, rng);
}

absl::Status NewRound(kernel::Decision& d, Rng& rng) {
  if (d.state().round > 0) {
    RETURN_IF_ERROR(kernel::EndRound(d, {0, "round.end"}));
  }
  RETURN_IF_ERROR(kernel::StartRound(d, {0, "round.start"}));
  std::vector<kernel::OrderEntry> order;
  for (int i = 0; i < kCombatants; ++i) {
    ASSIGN_OR_RETURN(kernel::dice::RollResult init,
                     d.Roll("d20+2", "initiative", kIds[i], 0));
    order.push_back({kIds[i], init.total, false});
  }
  // Highest first; ties by id (a stable, documented order).
  std::stable_sort(order.begin(), order.end(),
                   [](const kernel::OrderEntry& a, const kernel::OrderEntry& b) {
                     return a.initiative > b.initiative;
                   });
  if (rng.OneIn(4)) order.back().delayed = true;
  return kernel::SetOrder(d, order, {0, "order", {{"entries", kCombatants}}});
}

absl::Status Turn(kernel::Decision& d, const std::string& me, Rng& rng) {
  const kernel::State& s = d.state();
  std::string foe = me;
  while (foe == me) foe = kIds[rng.Below(kCombatants)];
  RETURN_IF_ERROR(kernel::StartTurn(d, me, {0, "turn.start"}));
  ASSIGN_OR_RETURN(int expired,
                   kernel::ExpireAt(d, fb::ExpiryKind::TurnStart, me, s.round,
                                    {0, "expire"}));
  (void)expired;
  fb::CommandT c;
  c.id = "cmd";
  c.actor = me;
  c.action = rng.OneIn(3) ? "cast" : "attack";
  c.targets = {foe};
  ASSIGN_OR_RETURN(uint64_t decl, d.Declare(c));
  static const char* const kAttack[] = {"d20+5", "2d20kh1+5", "2d20kl1+3"};
  ASSIGN_OR_RETURN(kernel::dice::RollResult hit,
                   d.Roll(kAttack[rng.Below(3)], "attack", me, decl));
  if (hit.total >= 12) {
    static const char* const kDamage[] = {"1d8+3", "2d6!", "3d4-1", "1d12"};
    ASSIGN_OR_RETURN(kernel::dice::RollResult dmg,
                     d.Roll(kDamage[rng.Below(4)], "damage", me, decl));
    ASSIGN_OR_RETURN(
        int64_t hp,
        kernel::AddResource(d, foe, "hp", -dmg.total,
                            {decl, "damage", {{"attack", hit.total},
                                              {"damage", dmg.total}},
                             Words(rng, 20)}));
    (void)hp;
  }
  if (rng.OneIn(2)) {
    const kernel::Combatant* self = d.state().Find(me);
    kernel::Pos to{self->at.x, (self->at.y + 1) % kMapSize};
    RETURN_IF_ERROR(kernel::Move(d, me, {to}, 5, false, {decl, "move"}));
  }
  if (rng.OneIn(2)) {
    kernel::NewCondition nc;
    nc.actor = foe;
    nc.name = rng.OneIn(2) ? "Shaken" : "Prone";
    nc.source = me;
    nc.level = static_cast<int64_t>(rng.Below(3));
    nc.expiry = {fb::ExpiryKind::TurnStart, me, d.state().round + 1};
    nc.note = Words(rng, 8);
    ASSIGN_OR_RETURN(uint32_t id, kernel::AddCondition(d, nc, {decl, "condition"}));
    (void)id;
  }
  if (rng.OneIn(5)) {
    RETURN_IF_ERROR(kernel::SetResource(d, me, "reaction", 1, {decl, "budget"}));
  }
  return kernel::EndTurn(d, me, {0, "turn.end"});
}

absl::Status Ruling(kernel::Decision& d, Rng& rng) {
  const std::string who = kIds[rng.Below(kCombatants)];
  const uint64_t subject = d.state().seq == 0 ? 0 : 1 + rng.Below(d.state().seq);
  RETURN_IF_ERROR(kernel::RecordRuling(d, "adjust", subject,
                                       "gm: " + Words(rng, 30), {0, "gm"}));
  const int64_t delta = static_cast<int64_t>(rng.Below(21)) - 10;
  return kernel::AddResource(d, who, "hp", delta, {0, "gm", {{"delta", delta}}})
      .status();
}

}  // namespace

CommandGen::CommandGen(std::string session, uint64_t seed)
    : session_(std::move(session)), seed_(seed) {}

store::SessionMeta CommandGen::Meta() const {
  store::SessionMeta meta;
  meta.session = session_;
  meta.ruleset = "reliability_test";
  meta.ruleset_version = 1;
  meta.title = "generated";
  return meta;
}

std::vector<uint8_t> CommandGen::Secret() {
  return std::vector<uint8_t>(32, 0x5a);
}

absl::StatusOr<std::vector<events::EventBuffer>> CommandGen::Next(
    const kernel::State& state, const std::string& branch,
    const events::Digest& prev, const std::string& command_id) const {
  // The choices depend only on what any process can see.
  uint64_t mix = seed_ ^ (state.seq * 0x100000001b3ULL);
  for (char ch : branch) mix = (mix ^ static_cast<uint8_t>(ch)) * 0x100000001b3ULL;
  for (char ch : command_id) mix = (mix ^ static_cast<uint8_t>(ch)) * 0x100000001b3ULL;
  Rng rng(mix);

  kernel::dice::SeededDice dice(Secret(), session_);
  kernel::Envelope env;
  env.branch = branch;
  env.author = "reliability";
  env.role = fb::Role::GM;
  env.command_id = command_id;
  env.ruleset = "reliability_test";
  env.ruleset_version = 1;
  env.prev_hash = prev;
  kernel::Decision d(state, env, dice);
  if (state.seq == 0) {
    RETURN_IF_ERROR(SetUp(d, session_, rng));
  } else if (state.combatants.size() < static_cast<size_t>(kCombatants)) {
    RETURN_IF_ERROR(JoinMissing(d, rng));
  } else if (!state.active.empty()) {
    // Not produced by this generator (its turns are whole commands), but
    // finish a turn left open rather than fail.
    RETURN_IF_ERROR(kernel::EndTurn(d, state.active, {0, "turn.end"}));
  } else if (rng.OneIn(6)) {
    RETURN_IF_ERROR(Ruling(d, rng));
  } else {
    std::string next;
    if (state.round > 0) {
      for (int i = 0; i < kCombatants && next.empty(); ++i) {
        bool acted = false;
        for (const std::string& a : state.acted) acted = acted || a == kIds[i];
        if (!acted) next = kIds[i];
      }
    }
    if (next.empty()) {
      RETURN_IF_ERROR(NewRound(d, rng));
    } else {
      RETURN_IF_ERROR(Turn(d, next, rng));
    }
  }
  return d.TakeEvents();
}

absl::StatusOr<GeneratedLog> GenerateLog(const CommandGen& gen, int commands) {
  GeneratedLog log;
  events::Digest prev{};
  for (int i = 1; i <= commands; ++i) {
    ASSIGN_OR_RETURN(std::vector<events::EventBuffer> cmd,
                     gen.Next(log.state, "main", prev, absl::StrCat("c", i)));
    for (const events::EventBuffer& e : cmd) {
      RETURN_IF_ERROR(kernel::FoldOne(e, log.state, kernel::CheckHashes::kYes));
      prev = e.hash();
      log.events.push_back(e);
    }
    log.commands.push_back(std::move(cmd));
  }
  return log;
}

}  // namespace combat::testing
