// Appends to the JetStream log on a 3-node loopback cluster (R3): commands
// per second, p50 and p99 latency of one Append (a command of 4 events,
// encoded and chained before the clock starts) at 1, 8 and 64 sessions
// appending concurrently, each session in its own thread.
//
//   bazel run -c opt //store/jetstream:cluster_benchmark -- [--seconds=5]
//       [--sessions=1,8,64] [--opens=own|shared] [--follow] [--url=nats://...]
//
// --opens=own (default): every session has its own EventLog open (its own
//   connection and replica), as separate writer processes would;
// --opens=shared: one open for all sessions, as one `combat serve` is
//   (its writes to different sessions run at once: store/jetstream/README.md);
// --follow: every open follows the stream (EventLog::Follow), as
//   `combat serve` does, with a listener that counts the changes.
// Without --url it starts the cluster itself (testing/cluster.h); each
// level writes its own stream.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "store/event_log.h"
#include "store/jetstream/testing/cluster.h"
#include "store/jetstream/testing/log_events.h"

namespace combat::store::jetstream {
namespace {

constexpr int kEventsPerCommand = 4;

struct Result {
  double commands_per_s = 0;
  double p50_ms = 0, p99_ms = 0;
  uint64_t commands = 0, errors = 0;
};

double Percentile(std::vector<double>& v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t i = static_cast<size_t>(p * (v.size() - 1));
  return v[i];
}

Result RunLevel(const std::string& url, int sessions, bool shared, bool follow,
                double seconds) {
  std::vector<std::unique_ptr<EventLog>> logs;
  std::atomic<uint64_t> changes{0};
  for (int i = 0; i < (shared ? 1 : sessions); ++i) {
    auto log = EventLog::Open(url);
    if (!log.ok()) {
      std::cerr << "open: " << log.status() << "\n";
      std::exit(1);
    }
    if (follow) {
      absl::Status s = (*log)->Follow([&changes](const LogChange&) { ++changes; });
      if (!s.ok()) {
        std::cerr << "follow: " << s << "\n";
        std::exit(1);
      }
    }
    logs.push_back(*std::move(log));
  }
  for (int i = 0; i < sessions; ++i) {
    absl::Status s = logs[shared ? 0 : i]->CreateSession(
        testing::TestMeta(absl::StrCat("b", i)), {1});
    if (!s.ok()) {
      std::cerr << "create: " << s << "\n";
      std::exit(1);
    }
  }
  std::vector<std::vector<double>> latencies(sessions);
  std::atomic<uint64_t> errors{0};
  std::atomic<bool> stop{false};
  std::vector<std::thread> threads;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < sessions; ++i) {
    threads.emplace_back([&, i] {
      EventLog& log = *logs[shared ? 0 : i];
      const std::string session = absl::StrCat("b", i);
      Head head;
      for (uint64_t n = 0; !stop.load(); ++n) {
        const std::string command = absl::StrCat("c", n);
        std::vector<events::EventBuffer> events = testing::ChainAfter(
            session, "main", head, kEventsPerCommand, command);
        const auto t0 = std::chrono::steady_clock::now();
        auto r = log.Append(session, "main", head.seq, command, events);
        const auto t1 = std::chrono::steady_clock::now();
        if (!r.ok()) {
          ++errors;
          continue;
        }
        latencies[i].push_back(
            std::chrono::duration<double, std::milli>(t1 - t0).count());
        head.seq = r->last_seq;
        head.hash = events.back().hash();
      }
    });
  }
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  stop = true;
  for (std::thread& t : threads) t.join();
  const double elapsed = std::chrono::duration<double>(
                             std::chrono::steady_clock::now() - start)
                             .count();
  std::vector<double> all;
  for (auto& v : latencies) all.insert(all.end(), v.begin(), v.end());
  Result r;
  r.commands = all.size();
  r.errors = errors.load();
  r.commands_per_s = all.size() / elapsed;
  r.p50_ms = Percentile(all, 0.50);
  r.p99_ms = Percentile(all, 0.99);
  return r;
}

int Main(int argc, char** argv) {
  double seconds = 5;
  std::vector<int> levels = {1, 8, 64};
  bool shared = false;
  bool follow = false;
  std::string url;
  for (int i = 1; i < argc; ++i) {
    absl::string_view a = argv[i];
    if (absl::ConsumePrefix(&a, "--seconds=")) {
      if (!absl::SimpleAtod(a, &seconds)) return 2;
    } else if (absl::ConsumePrefix(&a, "--sessions=")) {
      levels.clear();
      for (absl::string_view l : absl::StrSplit(a, ',')) {
        int n = 0;
        if (!absl::SimpleAtoi(l, &n) || n <= 0) return 2;
        levels.push_back(n);
      }
    } else if (absl::ConsumePrefix(&a, "--opens=")) {
      shared = a == "shared";
    } else if (a == "--follow") {
      follow = true;
    } else if (absl::ConsumePrefix(&a, "--url=")) {
      url = std::string(a);
    } else {
      std::cerr << "usage: cluster_benchmark [--seconds=5] [--sessions=1,8,64] "
                   "[--opens=own|shared] [--follow] [--url=nats://...]\n";
      return 2;
    }
  }
  std::unique_ptr<testing::Cluster> cluster;
  if (url.empty()) {
    auto c = testing::Cluster::Start(3);
    if (!c.ok()) {
      std::cerr << c.status() << "\n";
      return 1;
    }
    cluster = *std::move(c);
    url = cluster->Url();
  }
  std::printf("JetStream log, 3 nodes R3 on loopback, %d events/command, "
              "opens=%s%s, %.0f s per level\n",
              kEventsPerCommand, shared ? "shared" : "own",
              follow ? " (following)" : "", seconds);
  std::printf("%8s %12s %9s %9s %9s %7s\n", "sessions", "commands/s", "p50 ms",
              "p99 ms", "commands", "errors");
  for (int level : levels) {
    const std::string level_url = absl::StrCat(
        url, "/bench", level, shared ? "s" : "o", follow ? "f" : "", "?replicas=3");
    Result r = RunLevel(level_url, level, shared, follow, seconds);
    std::printf("%8d %12.0f %9.2f %9.2f %9llu %7llu\n", level, r.commands_per_s,
                r.p50_ms, r.p99_ms, static_cast<unsigned long long>(r.commands),
                static_cast<unsigned long long>(r.errors));
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace
}  // namespace combat::store::jetstream

int main(int argc, char** argv) { return combat::store::jetstream::Main(argc, argv); }
