// Setting up a session of N combatants (d20_three_action) through the
// engine into a real RocksDB: decide the set-up, append it with the
// session in one batch, write its snapshot. Issue 11's target: 3,000
// combatants in under a second.
//   bazel run -c opt //replay:setup_benchmark [-- --benchmark_filter=/3000]
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "kernel/testing/roster.h"
#include "replay/engine.h"
#include "tests/testing/bench_main.h"
#include "tests/testing/temp_dir.h"

namespace combat::replay {
namespace {

fb::RosterT Roster(int n) {
  std::vector<fb::CombatantSpecT> combatants;
  for (int i = 0; i < n; ++i) {
    fb::CombatantSpecT c = kernel::testing::Creature(
        absl::StrCat("c", i), i % 2 == 0 ? "party" : "goblins", i % 100,
        i / 100,
        {{"level", 2}, {"str", 3}, {"dex", 2}, {"ess", 0}, {"hp", 24},
         {"speed", 30}, {"physical_defense", 13}, {"mental_defense", 11}});
    c.weapons.push_back(std::make_unique<fb::WeaponT>(
        kernel::testing::MakeWeapon("spear", "1d8", "melee", "medium")));
    combatants.push_back(std::move(c));
  }
  return kernel::testing::MakeRoster("d20_three_action", std::move(combatants),
                                     100, 100);
}

void BM_SetUpSession(benchmark::State& state) {
  const fb::RosterT roster = Roster(static_cast<int>(state.range(0)));
  const std::vector<uint8_t> secret(32, 7);
  int n = 0;
  for (auto _ : state) {
    state.PauseTiming();
    auto dir = std::make_unique<testing::TempDir>("setup_bench");
    auto engine = Engine::Open(dir->db());
    if (!engine.ok()) {
      state.SkipWithError(std::string(engine.status().message()).c_str());
      return;
    }
    state.ResumeTiming();
    auto events = (*engine)->CreateSession(absl::StrCat("s", n++), roster,
                                           secret, "gm");
    if (!events.ok()) {
      state.SkipWithError(std::string(events.status().message()).c_str());
      return;
    }
    state.counters["events"] = static_cast<double>(events->size());
    state.PauseTiming();
    engine->reset();
    dir.reset();
    state.ResumeTiming();
  }
}
BENCHMARK(BM_SetUpSession)->Arg(300)->Arg(1000)->Arg(3000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace combat::replay

int main(int argc, char** argv) {
  return combat::testing::RunBenchmarks(std::vector<char*>(argv, argv + argc));
}
