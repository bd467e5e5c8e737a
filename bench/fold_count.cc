// For callgrind: instructions per folded event, exactly, on a noisy machine.
//
//   fold_count --ruleset=d20_three_action --events=20000 --reps=5 --mode=fold
//   (--ruleset: any of generator.h's kRulesets; --mode=fold is the batch
//   fold as replay runs it: kernel::Fold without hash checks, i.e.
//   kernel::FoldEvents over the whole corpus, one reducer context per run)
//   fold_count ... --mode=none     (the same run without the folds: baseline)
//   fold_count ... --mode=check    (FoldOne with the state-hash check)
//
// instructions/event = (Ir(fold) - Ir(none)) / (events * reps); bench/run.sh
// runs both under `valgrind --tool=callgrind` and does the arithmetic.
// Generates in-process (no cache) so the two runs do identical work.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

#include "events/events_generated.h"

#include "bench/generator.h"
#include "kernel/reducer.h"
#include "kernel/session.h"
#include "kernel/state.h"

int main(int argc, char** argv) {
  combat::bench::GenOptions o;
  o.events = 20000;
  int reps = 5;
  std::string mode = "fold";
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    if (std::strncmp(a, "--ruleset=", 10) == 0) o.ruleset = a + 10;
    else if (std::strncmp(a, "--events=", 9) == 0) o.events = std::strtoull(a + 9, nullptr, 10);
    else if (std::strncmp(a, "--reps=", 7) == 0) reps = std::atoi(a + 7);
    else if (std::strncmp(a, "--mode=", 7) == 0) mode = a + 7;
    else {
      fprintf(stderr, "unknown flag %s\n", a);
      return 2;
    }
  }
  o.combatants = combat::bench::BenchCombatants(o.ruleset);
  auto c = combat::bench::Generate(o);
  if (!c.ok()) {
    fprintf(stderr, "%s\n", std::string(c.status().message()).c_str());
    return 1;
  }
  uint64_t folded = 0, sink = 0;
  for (int r = 0; r < reps; ++r) {
    combat::kernel::State s;
    if (mode == "fold") {
      // The batch fold as replay runs it (kernel::Fold, kNo: FoldEvents).
      if (!combat::kernel::Fold(c->events, s, combat::kernel::CheckHashes::kNo).ok()) abort();
    } else if (mode == "check") {
      for (const auto& e : c->events) {
        if (!combat::kernel::FoldOne(e, s, combat::kernel::CheckHashes::kYes).ok()) abort();
      }
    } else if (mode == "stats") {
      std::map<std::string, int> kinds;
      for (const auto& e : c->events) {
        const auto& ev = e.event();
        std::string k = combat::fb::EnumNameBody(ev.body_type());
        if (ev.body_type() == combat::fb::Body::StateChange) {
          k += std::string(".") + combat::fb::EnumNameChange(
                                      ev.body_as_StateChange()->change_type());
        } else if (ev.body_type() == combat::fb::Body::Declaration &&
                   ev.body_as_Declaration()->command() != nullptr &&
                   ev.body_as_Declaration()->command()->action() != nullptr) {
          k += std::string(".") +
               ev.body_as_Declaration()->command()->action()->str();
        }
        ++kinds[k];
      }
      for (const auto& [k, n] : kinds) printf("%8d %s\n", n, k.c_str());
      printf("commands=%zu refused=%llu bytes/event=%.1f decide=%.0f events/s\n",
             c->commands.size(), static_cast<unsigned long long>(c->rejected),
             static_cast<double>(c->bytes) / static_cast<double>(c->events.size()),
             static_cast<double>(c->events.size()) / c->seconds);
      return 0;
    } else if (mode != "none") {
      fprintf(stderr, "unknown mode %s\n", mode.c_str());
      return 2;
    }
    folded += mode == "none" ? 0 : c->events.size();
    sink += s.seq;
  }
  printf("events=%zu reps=%d folded=%llu sink=%llu\n", c->events.size(), reps,
         static_cast<unsigned long long>(folded),
         static_cast<unsigned long long>(sink));
  return 0;
}
