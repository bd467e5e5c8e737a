// libFuzzer target for event bytes as they come out of the store: untrusted
// bytes through events::EventBuffer::FromBytes (aligned copy + Verifier),
// then the reducer (kernel::Apply) on an empty state and on the state
// after a realistic set-up, the canonical check, and the JSON printer.
// Properties: no crash or sanitizer report; FromBytes rejects with
// DataLoss; the reducer refuses with DataLoss and leaves the state as it
// was; a refused event changes nothing.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "events/codec.h"
#include "events/json.h"
#include "kernel/reducer.h"
#include "kernel/session.h"
#include "kernel/state_codec.h"
#include "tests/testing/gen.h"

namespace {

[[noreturn]] void Fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "event_fuzzer: %s: %s\n", what, detail.c_str());
  std::abort();
}

// The state after the generated set-up and a few turns (4 combatants,
// resources, conditions, a round in progress).
const combat::kernel::State& Base() {
  static const combat::kernel::State* state = [] {
    auto log = combat::testing::GenerateLog(combat::testing::CommandGen("fuzz", 3), 8);
    if (!log.ok()) Fail("generate", log.status().ToString());
    return new combat::kernel::State(log->state);
  }();
  return *state;
}

void ApplyTo(const combat::events::EventBuffer& e, const combat::kernel::State& base) {
  combat::kernel::State s = base;
  absl::Status st = combat::kernel::Apply(e.event(), s);
  if (!st.ok()) {
    if (st.code() != absl::StatusCode::kDataLoss) Fail("reducer error code", st.ToString());
    // kernel/reducer.h: "the state is left unchanged". (This fuzzer found
    // SessionStarted setting fields before checking schema_version; the
    // input is kept as corpus/event_fuzzer/regression_*.bin.)
    if (combat::kernel::EncodeState(s) != combat::kernel::EncodeState(base)) {
      Fail("a refused event changed the state", st.ToString());
    }
    return;
  }
  (void)combat::kernel::StateHash(s);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  absl::StatusOr<combat::events::EventBuffer> e =
      combat::events::EventBuffer::FromBytes(data, size, "fuzz");
  if (!e.ok()) {
    if (e.status().code() != absl::StatusCode::kDataLoss) {
      Fail("FromBytes error code", e.status().ToString());
    }
    return 0;
  }
  (void)e->CheckCanonical("fuzz");
  (void)combat::events::EventToJson(*e);
  (void)combat::events::EventToJsonLine(*e);  // walks the bytes by the schema
  ApplyTo(*e, combat::kernel::State());
  ApplyTo(*e, Base());
  return 0;
}
