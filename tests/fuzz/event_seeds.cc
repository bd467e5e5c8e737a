// Writes a few canonical events of a generated log (one of each kind the
// generator makes) as files seed_<seq>.bin into the directory argv[1]: the
// seed corpus of event_fuzzer.
#include <cstdio>
#include <fstream>
#include <set>
#include <string>

#include "absl/strings/str_cat.h"
#include "tests/testing/gen.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: event_seeds DIR\n");
    return 2;
  }
  auto log = combat::testing::GenerateLog(combat::testing::CommandGen("seeds", 9), 12);
  if (!log.ok()) {
    std::fprintf(stderr, "%s\n", log.status().ToString().c_str());
    return 1;
  }
  std::set<std::string> kinds;
  int written = 0;
  for (const auto& e : log->events) {
    const auto& ev = e.event();
    std::string kind = combat::fb::EnumNameBody(ev.body_type());
    if (ev.body_type() == combat::fb::Body::StateChange) {
      kind += combat::fb::EnumNameChange(ev.body_as_StateChange()->change_type());
    }
    if (!kinds.insert(kind).second) continue;
    std::ofstream out(absl::StrCat(argv[1], "/seed_", ev.seq(), ".bin"), std::ios::binary);
    out.write(reinterpret_cast<const char*>(e.bytes().data()),
              static_cast<std::streamsize>(e.bytes().size()));
    ++written;
  }
  std::printf("%d seeds\n", written);
  return 0;
}
