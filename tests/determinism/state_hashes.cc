// Prints the state hash and the event hash at fixed checkpoints of the
// fixed generated log (tests/testing/gen.h, seed kGoldenSeed), one line per
// checkpoint:
//   <commands> <seq> <state hash> <hash of the last event>
// Modes:
//   state_hashes                 generate and fold in this process
//   state_hashes --write=DB      also write the log into a new database DB
//   state_hashes --replay=DB     read the log back from DB (written by
//                                another process) and fold it here
// golden_hashes.txt is this program's output; regenerate it (only when an
// encoding or fold change is intended, and say so in the commit) with
//   bazel run //tests/determinism:state_hashes > tests/determinism/golden_hashes.txt
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "events/hash.h"
#include "kernel/session.h"
#include "kernel/state_codec.h"
#include "store/event_log.h"
#include "tests/determinism/golden.h"
#include "tests/testing/gen.h"
#include "tests/testing/verify.h"

namespace combat::testing {
namespace {

int Run(int argc, char** argv) {
  std::string write, replay;
  for (int i = 1; i < argc; ++i) {
    absl::string_view a(argv[i]);
    if (absl::StartsWith(a, "--write=")) {
      write = std::string(a.substr(8));
    } else if (absl::StartsWith(a, "--replay=")) {
      replay = std::string(a.substr(9));
    } else {
      std::fprintf(stderr, "unknown argument %s\n", argv[i]);
      return 2;
    }
  }
  std::vector<std::vector<events::EventBuffer>> commands;
  if (replay.empty()) {
    auto log = GenerateLog(CommandGen(kGoldenSession, kGoldenSeed), kGoldenCommands);
    if (!log.ok()) {
      std::fprintf(stderr, "generate: %s\n", log.status().ToString().c_str());
      return 1;
    }
    commands = std::move(log->commands);
  } else {
    auto log = store::EventLog::Open(replay);
    if (!log.ok()) {
      std::fprintf(stderr, "open: %s\n", log.status().ToString().c_str());
      return 1;
    }
    auto events = (*log)->Read(kGoldenSession, "main");
    if (!events.ok()) {
      std::fprintf(stderr, "read: %s\n", events.status().ToString().c_str());
      return 1;
    }
    for (auto& e : *events) {  // regroup by command id
      if (commands.empty() ||
          commands.back().back().event().command_id()->str() != e.event().command_id()->str()) {
        commands.emplace_back();
      }
      commands.back().push_back(std::move(e));
    }
  }
  if (!write.empty()) {
    auto log = store::EventLog::Open(write);
    if (!log.ok()) {
      std::fprintf(stderr, "open: %s\n", log.status().ToString().c_str());
      return 1;
    }
    CommandGen gen(kGoldenSession, kGoldenSeed);
    if (absl::Status s = (*log)->CreateSession(gen.Meta(), gen.Secret()); !s.ok()) {
      std::fprintf(stderr, "create: %s\n", s.ToString().c_str());
      return 1;
    }
    uint64_t head = 0;
    for (const auto& c : commands) {
      auto r = (*log)->Append(kGoldenSession, "main", head,
                              c[0].event().command_id()->str(), c);
      if (!r.ok()) {
        std::fprintf(stderr, "append: %s\n", r.status().ToString().c_str());
        return 1;
      }
      head = r->last_seq;
    }
  }
  std::printf(
      "# State hashes of the fixed generated log (tests/determinism/golden.h):\n"
      "# <commands> <seq> <state hash> <hash of the last event>. Produced by\n"
      "#   bazel run //tests/determinism:state_hashes > tests/determinism/golden_hashes.txt\n");
  kernel::State state;
  std::string last_event;
  for (size_t i = 0; i < commands.size(); ++i) {
    for (const auto& e : commands[i]) {
      if (absl::Status s = kernel::FoldOne(e, state, kernel::CheckHashes::kYes); !s.ok()) {
        std::fprintf(stderr, "fold: %s\n", s.ToString().c_str());
        return 1;
      }
      last_event = events::Hex(e.hash());
    }
    if (IsCheckpoint(static_cast<int>(i + 1))) {
      std::printf("%zu %llu %s %s\n", i + 1, static_cast<unsigned long long>(state.seq),
                  StateHashHex(state).c_str(), last_event.c_str());
    }
  }
  return 0;
}

}  // namespace
}  // namespace combat::testing

int main(int argc, char** argv) { return combat::testing::Run(argc, argv); }
