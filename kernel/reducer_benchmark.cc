// Reducer microbenchmark: folds a realistic mix of events (rolls, resource
// changes, conditions with expiry, movement, turns and rounds) built
// through the same emitters the rulesets use.
//
//   bazel run -c opt //kernel:reducer_benchmark
#include <vector>

#include "benchmark/benchmark.h"
#include "kernel/changes.h"
#include "kernel/decision.h"
#include "kernel/dice/source.h"
#include "kernel/reducer.h"
#include "kernel/session.h"
#include "kernel/state_codec.h"

namespace combat::kernel {
namespace {

// Builds `rounds` rounds of a four-combatant fight; each turn has a
// declaration, an attack roll, a damage roll, an hp change, a movement and
// a condition that expires a round later.
std::vector<events::EventBuffer> MakeLog(int rounds) {
  dice::SeededDice dice(std::vector<uint8_t>(32, 7), "bench");
  std::vector<events::EventBuffer> log;
  State state;
  Envelope env;
  env.author = "bench";
  auto run = [&](auto&& body) {
    Decision d(state, env, dice);
    absl::Status st = body(d);
    if (!st.ok()) std::abort();
    for (auto& e : d.TakeEvents()) {
      if (!FoldOne(e, state, CheckHashes::kNo).ok()) std::abort();
      env.prev_hash = e.hash();
      log.push_back(std::move(e));
    }
  };
  const std::vector<std::string> ids = {"a", "b", "c", "d"};
  run([&](Decision& d) -> absl::Status {
    fb::MapT map;
    map.width = 40;
    map.height = 40;
    if (auto st = StartSession(d, "bench", "bench", map, {}, {0, "s"}); !st.ok()) return st;
    for (size_t i = 0; i < ids.size(); ++i) {
      fb::CombatantSpecT spec;
      spec.id = ids[i];
      spec.at = std::make_unique<fb::Pos>(static_cast<int>(i), 0);
      if (auto st = JoinCombatant(d, spec, {0, "join"}); !st.ok()) return st;
      if (auto st = SetResource(d, ids[i], "hp", 1000000, {0, "hp"}); !st.ok()) return st;
    }
    return absl::OkStatus();
  });
  for (int r = 0; r < rounds; ++r) {
    run([&](Decision& d) { return StartRound(d, {0, "round"}); });
    for (size_t i = 0; i < ids.size(); ++i) {
      const std::string& me = ids[i];
      const std::string& foe = ids[(i + 1) % ids.size()];
      run([&](Decision& d) -> absl::Status {
        if (auto st = StartTurn(d, me, {0, "turn"}); !st.ok()) return st;
        auto n = ExpireAt(d, fb::ExpiryKind::TurnStart, me, d.state().round, {0, "expire"});
        if (!n.ok()) return n.status();
        fb::CommandT c;
        c.actor = me;
        c.action = "attack";
        c.targets = {foe};
        auto decl = d.Declare(c);
        if (!decl.ok()) return decl.status();
        auto hit = d.Roll("d20+5", "attack", me, *decl);
        if (!hit.ok()) return hit.status();
        auto dmg = d.Roll("1d8+3", "damage", me, *decl);
        if (!dmg.ok()) return dmg.status();
        auto hp = AddResource(d, foe, "hp", -dmg->total, {*decl, "dmg", {{"d8", dmg->total}}});
        if (!hp.ok()) return hp.status();
        const Combatant* c0 = d.state().Find(me);
        Pos to{c0->at.x, (c0->at.y + 1) % 40};
        if (auto st = Move(d, me, {to}, 5, false, {*decl, "move"}); !st.ok()) return st;
        NewCondition nc;
        nc.actor = foe;
        nc.name = "Shaken";
        nc.source = me;
        nc.expiry = {fb::ExpiryKind::TurnStart, me, d.state().round + 1};
        if (auto st = AddCondition(d, nc, {*decl, "shaken"}); !st.ok()) return st.status();
        return EndTurn(d, me, {0, "turn"});
      });
    }
    run([&](Decision& d) { return EndRound(d, {0, "round"}); });
  }
  return log;
}

void BM_Fold(benchmark::State& st) {
  static const std::vector<events::EventBuffer>* log =
      new std::vector<events::EventBuffer>(MakeLog(200));
  for (auto _ : st) {
    State s;
    for (const auto& e : *log) {
      if (!Apply(e.event(), s).ok()) std::abort();
    }
    benchmark::DoNotOptimize(s.seq);
  }
  st.SetItemsProcessed(st.iterations() * static_cast<int64_t>(log->size()));
}
BENCHMARK(BM_Fold);

void BM_FoldWithStateHash(benchmark::State& st) {
  static const std::vector<events::EventBuffer>* log =
      new std::vector<events::EventBuffer>(MakeLog(50));
  for (auto _ : st) {
    State s;
    for (const auto& e : *log) {
      if (!FoldOne(e, s, CheckHashes::kYes).ok()) std::abort();
    }
    benchmark::DoNotOptimize(s.seq);
  }
  st.SetItemsProcessed(st.iterations() * static_cast<int64_t>(log->size()));
}
BENCHMARK(BM_FoldWithStateHash);

}  // namespace
}  // namespace combat::kernel
