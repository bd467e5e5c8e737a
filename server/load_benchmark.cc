// A load benchmark on loopback: an in-process table server over a fresh
// RocksDB database (fsync on every append, as served), `--sessions`
// sessions, `--clients` clients submitting GM notes for `--seconds`
// (each to session i % sessions, naming the head it last saw; a 409
// takes the head from the reply and tries again), and `--watchers` SSE
// streams held open across the sessions, counting the events they receive.
// Prints commands/s, p50/p99/max latency of the accepted submits, the 409s,
// the failures by kind (no reply, or an HTTP status), the watchers held and
// the events they were sent of those they had to be (each its session's
// whole log); with --json FILE, the same as one JSON object (bench/table.py
// reads it). Exit 1 on any failure or a watcher short of an event.
//
//   bazel run -c opt //server:load_benchmark -- --seconds 10 --clients 16
//       --sessions 8 --watchers 64 [--db DIR] [--json FILE]   (one command line)
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "httplib.h"
#include "replay/engine.h"
#include "server/auth.h"
#include "server/server.h"
#include "store/participants.h"

namespace {

using Clock = std::chrono::steady_clock;

int Flag(int argc, char** argv, const std::string& name, int fallback) {
  for (int i = 1; i + 1 < argc; ++i) {
    int v = 0;
    if (argv[i] == "--" + name && absl::SimpleAtoi(argv[i + 1], &v)) return v;
  }
  return fallback;
}

std::string StrFlag(int argc, char** argv, const std::string& name, const std::string& fallback) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (argv[i] == "--" + name) return argv[i + 1];
  }
  return fallback;
}

// A roster of two combatants, the party's played by "ann".
constexpr char kRoster[] = R"({
  "title": "load", "ruleset": "d20_three_action",
  "map": {"width": 10, "height": 10},
  "combatants": [
    {"id": "aria", "player": "ann", "name": "Aria", "side": "party", "at": {"x": 1, "y": 1},
     "stats": [{"key": "level", "value": 2}, {"key": "str", "value": 3}, {"key": "dex", "value": 2},
               {"key": "ess", "value": 0}, {"key": "hp", "value": 24}, {"key": "speed", "value": 30},
               {"key": "physical_defense", "value": 13}, {"key": "mental_defense", "value": 11}],
     "weapons": [{"name": "spear", "damage": "1d8", "kind": "melee", "category": "medium", "reach": 5}]},
    {"id": "gob", "name": "Goblin", "side": "goblins", "at": {"x": 2, "y": 1},
     "stats": [{"key": "level", "value": 1}, {"key": "str", "value": 1}, {"key": "dex", "value": 3},
               {"key": "ess", "value": 0}, {"key": "hp", "value": 9}, {"key": "speed", "value": 30},
               {"key": "physical_defense", "value": 12}, {"key": "mental_defense", "value": 10}],
     "weapons": [{"name": "club", "damage": "1d6", "kind": "melee", "category": "light", "reach": 5}]}
  ]})";

// The token of a reply (64 hex digits after "token":").
std::string TokenOf(const std::string& body) {
  const size_t at = body.find("\"token\":\"");
  return at == std::string::npos ? "" : body.substr(at + 9, 64);
}

// The head seq of a reply (0 when it names none).
uint64_t HeadOf(const std::string& body) {
  const std::string prefix = "\"head\":{\"seq\":";
  const size_t at = body.find(prefix);
  if (at == std::string::npos) return 0;
  uint64_t n = 0;
  for (size_t i = at + prefix.size(); i < body.size() && body[i] >= '0' && body[i] <= '9'; ++i) {
    n = n * 10 + static_cast<uint64_t>(body[i] - '0');
  }
  return n;
}

}  // namespace

int main(int argc, char** argv) {
  const int seconds = Flag(argc, argv, "seconds", 10);
  const int clients = Flag(argc, argv, "clients", 16);
  const int sessions = std::max(1, Flag(argc, argv, "sessions", 8));
  const int watchers = Flag(argc, argv, "watchers", 64);
  std::string db = StrFlag(argc, argv, "db", "");
  if (db.empty()) {
    const char* tmp = std::getenv("TEST_TMPDIR");
    db = std::string(tmp ? tmp : "/tmp") + "/combat_load_" + std::to_string(getpid());
  }
  auto engine = combat::replay::Engine::Open(db);
  if (!engine.ok()) {
    std::fprintf(stderr, "%s\n", std::string(engine.status().message()).c_str());
    return 2;
  }
  // The operator, who creates the sessions.
  auto op = combat::server::NewToken();
  if (!op.ok() || !combat::store::ParticipantTable((*engine)->log())
                       .AddOperator("load", combat::server::TokenHash(*op))
                       .ok()) {
    std::fprintf(stderr, "cannot make the operator's token\n");
    return 2;
  }
  combat::server::ServeOptions o;
  o.threads = static_cast<size_t>(watchers + clients + 16);
  o.max_watchers = static_cast<size_t>(watchers + 1);
  auto server = combat::server::TableServer::Start(std::move(*engine), o);
  if (!server.ok()) {
    std::fprintf(stderr, "%s\n", std::string(server.status().message()).c_str());
    return 2;
  }
  const int port = (*server)->port();

  std::vector<std::string> tokens;
  std::vector<uint64_t> heads;
  for (int s = 0; s < sessions; ++s) {
    httplib::Client c("127.0.0.1", port);
    auto r = c.Post(("/api/sessions?session=load" + std::to_string(s)).c_str(),
                    {{"Authorization", "Bearer " + *op}}, kRoster, "application/json");
    if (!r || r->status != 201) {
      std::fprintf(stderr, "create failed: %s\n", r ? r->body.c_str() : "no reply");
      return 2;
    }
    tokens.push_back(TokenOf(r->body));
    heads.push_back(HeadOf(r->body));
  }

  std::atomic<bool> stop{false};
  std::atomic<uint64_t> streamed_events{0};
  std::atomic<int> open_streams{0};
  std::vector<std::thread> watch_threads;
  std::vector<std::unique_ptr<httplib::Client>> watch_clients;
  for (int w = 0; w < watchers; ++w) {
    const int s = w % sessions;
    watch_clients.push_back(std::make_unique<httplib::Client>("127.0.0.1", port));
    httplib::Client* c = watch_clients.back().get();
    c->set_read_timeout(seconds + 30, 0);
    watch_threads.emplace_back([&, c, s] {
      bool counted = false;
      std::string buffer;
      c->Get(("/api/sessions/load" + std::to_string(s) + "/branches/main/stream?token=" +
              tokens[s])
                 .c_str(),
             [&](const char* data, size_t n) {
               if (!counted) {
                 counted = true;
                 ++open_streams;
               }
               buffer.append(data, n);
               size_t end;
               while ((end = buffer.find("\n\n")) != std::string::npos) {
                 if (buffer.compare(0, 4, "id: ") == 0) ++streamed_events;
                 buffer.erase(0, end + 2);
               }
               return !stop.load();
             });
    });
  }
  const auto wait_until = Clock::now() + std::chrono::seconds(10);
  while (open_streams.load() < watchers && Clock::now() < wait_until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  const int held = open_streams.load();

  std::vector<std::vector<double>> latencies(clients);
  std::atomic<uint64_t> conflicts{0}, failures{0};
  // Each failure by kind: "no reply (<httplib's error>)" or "HTTP <status>".
  std::mutex kinds_mu;
  std::map<std::string, uint64_t> kinds;
  auto fail = [&](const std::string& kind) {
    ++failures;
    std::lock_guard<std::mutex> lock(kinds_mu);
    ++kinds[kind];
  };
  std::vector<std::thread> client_threads;
  const auto start = Clock::now();
  const auto end = start + std::chrono::seconds(seconds);
  for (int i = 0; i < clients; ++i) {
    client_threads.emplace_back([&, i] {
      const int s = i % sessions;
      httplib::Client c("127.0.0.1", port);
      c.set_read_timeout(30, 0);
      const httplib::Headers auth = {{"Authorization", "Bearer " + tokens[s]}};
      uint64_t expected = heads[s];
      for (int n = 0; Clock::now() < end; ++n) {
        const std::string body =
            R"({"id":"c)" + std::to_string(i) + "-" + std::to_string(n) +
            R"(","action":"gm_note","params":[{"key":"kind","text":"ruling"}],"text":"load"})";
        const std::string path = "/api/sessions/load" + std::to_string(s) +
                                 "/branches/main/commands?expected_seq=";
        while (Clock::now() < end) {
          const auto t0 = Clock::now();
          auto r = c.Post((path + std::to_string(expected)).c_str(), auth, body,
                          "application/json");
          const auto t1 = Clock::now();
          if (!r) {
            fail("no reply (" + httplib::to_string(r.error()) + ")");
            break;
          }
          const uint64_t head = HeadOf(r->body);
          if (head != 0) expected = head;
          if (r->status == 201 || r->status == 200) {
            latencies[i].push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
            break;
          }
          if (r->status == 409) {
            ++conflicts;
            continue;
          }
          fail("HTTP " + std::to_string(r->status));
          break;
        }
      }
    });
  }
  for (auto& t : client_threads) t.join();
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  // What the watchers must have received: each streams its session's
  // whole log (from 1), so the sum of its session's final head. Wait (at
  // most 30 s) for the streams to catch up.
  uint64_t expected_events = 0;
  for (int w = 0; w < held; ++w) {
    const int s = w % sessions;
    httplib::Client c("127.0.0.1", port);
    auto r = c.Get(("/api/sessions/load" + std::to_string(s) + "/branches/main/head").c_str(),
                   {{"Authorization", "Bearer " + tokens[s]}});
    if (r && r->status == 200) {
      const size_t at = r->body.find("\"seq\":");
      if (at != std::string::npos) expected_events += std::stoull(r->body.substr(at + 6));
    }
  }
  const auto catch_up = Clock::now() + std::chrono::seconds(30);
  while (streamed_events.load() < expected_events && Clock::now() < catch_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  stop = true;
  (*server)->Stop();
  for (auto& t : watch_threads) t.join();

  std::vector<double> all;
  for (const auto& l : latencies) all.insert(all.end(), l.begin(), l.end());
  std::sort(all.begin(), all.end());
  auto pct = [&](double p) {
    return all.empty() ? 0.0 : all[std::min(all.size() - 1, static_cast<size_t>(p * all.size()))];
  };
  std::printf(
      "load: %d s, %d clients, %d sessions, %d watchers requested\n"
      "  commands accepted: %zu (%.1f commands/s)\n"
      "  latency ms: p50 %.2f  p99 %.2f  max %.2f\n"
      "  409 stale-writer retries: %llu, failures: %llu\n"
      "  watchers held: %d, events streamed to them: %llu of %llu\n",
      seconds, clients, sessions, watchers, all.size(), all.size() / elapsed, pct(0.50),
      pct(0.99), all.empty() ? 0.0 : all.back(),
      static_cast<unsigned long long>(conflicts.load()),
      static_cast<unsigned long long>(failures.load()), held,
      static_cast<unsigned long long>(streamed_events.load()),
      static_cast<unsigned long long>(expected_events));
  for (const auto& [kind, n] : kinds) {
    std::printf("  failed: %llu %s\n", static_cast<unsigned long long>(n), kind.c_str());
  }
  const std::string json_path = StrFlag(argc, argv, "json", "");
  if (!json_path.empty()) {
    std::ofstream json(json_path);
    json << "{\"seconds\":" << seconds << ",\"clients\":" << clients
         << ",\"sessions\":" << sessions << ",\"watchers_requested\":" << watchers
         << ",\"commands\":" << all.size() << ",\"commands_per_s\":" << all.size() / elapsed
         << ",\"p50_ms\":" << pct(0.50) << ",\"p99_ms\":" << pct(0.99)
         << ",\"max_ms\":" << (all.empty() ? 0.0 : all.back())
         << ",\"conflicts\":" << conflicts.load() << ",\"failures\":" << failures.load()
         << ",\"watchers_held\":" << held << ",\"events_streamed\":" << streamed_events.load()
         << ",\"events_expected\":" << expected_events << "}\n";
  }
  return failures.load() == 0 && streamed_events.load() == expected_events ? 0 : 1;
}
