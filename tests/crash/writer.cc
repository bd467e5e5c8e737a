// The kill -9 test's writer: appends generated commands (tests/testing/gen.h)
// to session "s1" branch "main" of the database at --db and prints one line
// per acknowledged command, flushed before the next append starts:
//
//   ack <command id> <first seq> <last seq> <hash of last event> <state hash>
//
// (hex SHA-256s; the state hash is this process's fold after the command).
// Other lines: "ready <head seq>" once the log is open and verified,
// "dup <command id> <first> <last>" after an idempotent retry, "done".
// Any failure prints "error <what>" and exits non-zero.
//
//   writer --db=PATH --mode=sync|nosync|hold [--commands=N] [--seed=S]
//          [--retry_every=K]
// Modes: sync (Options::sync = true), nosync (sync = false), hold (sync =
// false over HoldWalFs: WAL appends stay in this process until a sync;
// the negative control, which must lose acknowledged commands on kill -9).
// --retry_every=K: after every K-th command, append it again with its stale
// expected seq; the store must answer duplicate with the same range.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "events/hash.h"
#include "kernel/session.h"
#include "store/event_log.h"
#include "tests/testing/fault_fs.h"
#include "tests/testing/gen.h"
#include "tests/testing/verify.h"

namespace combat::testing {
namespace {

int Fail(const std::string& what) {
  std::printf("error %s\n", what.c_str());
  std::fflush(stdout);
  return 3;
}

int Run(int argc, char** argv) {
  std::string db;
  std::string mode = "sync";
  uint64_t commands = 1000000;
  uint64_t seed = 1;
  uint64_t retry_every = 0;
  for (int i = 1; i < argc; ++i) {
    absl::string_view a(argv[i]);
    auto value = [&](absl::string_view flag, std::string* out) {
      if (!absl::StartsWith(a, flag)) return false;
      *out = std::string(a.substr(flag.size()));
      return true;
    };
    std::string v;
    if (value("--db=", &db) || value("--mode=", &mode)) continue;
    if (value("--commands=", &v) && absl::SimpleAtoi(v, &commands)) continue;
    if (value("--seed=", &v) && absl::SimpleAtoi(v, &seed)) continue;
    if (value("--retry_every=", &v) && absl::SimpleAtoi(v, &retry_every)) continue;
    return Fail(absl::StrCat("bad argument ", a));
  }
  if (db.empty()) return Fail("--db is required");

  store::Options options;
  std::shared_ptr<rocksdb::FileSystem> fs;
  std::unique_ptr<rocksdb::Env> env;
  if (mode == "sync") {
    options.sync = true;
  } else if (mode == "nosync") {
    options.sync = false;
  } else if (mode == "hold") {
    options.sync = false;
    fs = std::make_shared<HoldWalFs>();
    env = NewEnv(fs);
    options.env = env.get();
  } else {
    return Fail(absl::StrCat("unknown mode ", mode));
  }

  auto log = store::EventLog::Open(db, options);
  if (!log.ok()) return Fail(absl::StrCat("open: ", log.status().ToString()));
  CommandGen gen("s1", seed);
  if (absl::Status s = (*log)->CreateSession(gen.Meta(), gen.Secret());
      !s.ok() && !absl::IsAlreadyExists(s)) {
    return Fail(absl::StrCat("create: ", s.ToString()));
  }
  auto verified = VerifyBranch(**log, "s1", "main");
  if (!verified.ok()) {
    return Fail(absl::StrCat("verify: ", verified.status().ToString()));
  }
  kernel::State state = std::move(verified->state);
  events::Digest prev{};
  if (!verified->events.empty()) prev = verified->events.back().hash();
  std::printf("ready %llu\n", static_cast<unsigned long long>(state.seq));
  std::fflush(stdout);

  for (uint64_t n = 1; n <= commands; ++n) {
    const uint64_t expected = state.seq;
    const std::string id = absl::StrCat("c", expected + 1);
    auto events = gen.Next(state, "main", prev, id);
    if (!events.ok()) return Fail(absl::StrCat("gen: ", events.status().ToString()));
    auto r = (*log)->Append("s1", "main", expected, id, *events);
    if (!r.ok()) return Fail(absl::StrCat("append: ", r.status().ToString()));
    if (r->duplicate) return Fail(absl::StrCat("append ", id, ": unexpected duplicate"));
    for (const events::EventBuffer& e : *events) {
      if (absl::Status s = kernel::FoldOne(e, state, kernel::CheckHashes::kYes);
          !s.ok()) {
        return Fail(absl::StrCat("fold: ", s.ToString()));
      }
      prev = e.hash();
    }
    std::printf("ack %s %llu %llu %s %s\n", id.c_str(),
                static_cast<unsigned long long>(r->first_seq),
                static_cast<unsigned long long>(r->last_seq),
                events::Hex(prev).c_str(), StateHashHex(state).c_str());
    std::fflush(stdout);
    if (retry_every != 0 && n % retry_every == 0) {
      // The client lost the answer and sends the command again, with the
      // head it had then: applied once, the original range returned.
      auto again = (*log)->Append("s1", "main", expected, id, *events);
      if (!again.ok() || !again->duplicate || again->first_seq != r->first_seq ||
          again->last_seq != r->last_seq) {
        return Fail(absl::StrCat("retry of ", id, " was not a duplicate: ",
                                 again.ok() ? "applied" : again.status().ToString()));
      }
      std::printf("dup %s %llu %llu\n", id.c_str(),
                  static_cast<unsigned long long>(again->first_seq),
                  static_cast<unsigned long long>(again->last_seq));
      std::fflush(stdout);
    }
  }
  std::printf("done\n");
  std::fflush(stdout);
  return 0;
}

}  // namespace
}  // namespace combat::testing

int main(int argc, char** argv) { return combat::testing::Run(argc, argv); }
