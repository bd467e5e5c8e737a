#include "store/jetstream/testing/cluster.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <nats/nats.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "events/status_macros.h"

namespace combat::store::jetstream::testing {
namespace {

constexpr auto kWait = std::chrono::seconds(30);

// A port nothing listens on now (the kernel's choice for port 0).
absl::StatusOr<int> FreePort() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return absl::UnavailableError("socket() failed");
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof(addr);
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    close(fd);
    return absl::UnavailableError("bind() to a free port failed");
  }
  int port = ntohs(addr.sin_port);
  close(fd);
  return port;
}

bool Connectable(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return false;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(port);
  bool ok = connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
  close(fd);
  return ok;
}

}  // namespace

absl::StatusOr<std::unique_ptr<Cluster>> Cluster::Start(int nodes) {
  std::unique_ptr<Cluster> c(new Cluster());
  const char* tmp = getenv("TEST_TMPDIR");
  std::string pattern =
      absl::StrCat(tmp != nullptr ? tmp : "/tmp", "/jetstream-XXXXXX");
  if (mkdtemp(pattern.data()) == nullptr) {
    return absl::UnavailableError(absl::StrCat("mkdtemp ", pattern, " failed"));
  }
  c->root_ = pattern;
  c->nodes_.resize(nodes);
  for (int i = 0; i < nodes; ++i) {
    Node& n = c->nodes_[i];
    n.dir = absl::StrCat(c->root_, "/n", i + 1);
    std::filesystem::create_directories(n.dir + "/store");
    ASSIGN_OR_RETURN(n.client_port, FreePort());
    ASSIGN_OR_RETURN(n.cluster_port, FreePort());
  }
  for (int i = 0; i < nodes; ++i) {
    Node& n = c->nodes_[i];
    std::ofstream conf(n.dir + "/nats.conf");
    conf << "server_name: n" << i + 1 << "\n"
         << "listen: 127.0.0.1:" << n.client_port << "\n"
         << "jetstream { store_dir: \"" << n.dir << "/store\" }\n";
    if (nodes > 1) {
      std::vector<std::string> routes;
      for (int j = 0; j < nodes; ++j) {
        if (j != i) {
          routes.push_back(absl::StrCat("nats-route://127.0.0.1:",
                                        c->nodes_[j].cluster_port));
        }
      }
      conf << "cluster {\n  name: combat\n  listen: 127.0.0.1:"
           << n.cluster_port << "\n  routes: [" << absl::StrJoin(routes, ", ")
           << "]\n}\n";
    }
  }
  for (int i = 0; i < nodes; ++i) RETURN_IF_ERROR(c->Launch(i));
  for (int i = 0; i < nodes; ++i) RETURN_IF_ERROR(c->WaitAccepting(i));
  RETURN_IF_ERROR(c->WaitForLeader());
  return c;
}

absl::Status Cluster::Launch(int node) {
  Node& n = nodes_[node];
  const std::string conf = n.dir + "/nats.conf";
  const std::string log = n.dir + "/nats.log";
  pid_t pid = fork();
  if (pid < 0) return absl::UnavailableError("fork() failed");
  if (pid == 0) {
    int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
    }
    execlp("nats-server", "nats-server", "-c", conf.c_str(), (char*)nullptr);
    _exit(127);
  }
  n.pid = pid;
  return absl::OkStatus();
}

absl::Status Cluster::WaitAccepting(int node) const {
  const Node& n = nodes_[node];
  const auto deadline = std::chrono::steady_clock::now() + kWait;
  while (std::chrono::steady_clock::now() < deadline) {
    int status = 0;
    if (waitpid(n.pid, &status, WNOHANG) == n.pid) {
      return absl::UnavailableError(absl::StrCat(
          "nats-server n", node + 1, " exited (status ", status, "); see ",
          n.dir, "/nats.log (is nats-server installed? bazel/setup.sh)"));
    }
    if (Connectable(n.client_port)) return absl::OkStatus();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return absl::UnavailableError(absl::StrCat(
      "nats-server n", node + 1, " did not accept connections on port ",
      n.client_port, " within 30 s; see ", n.dir, "/nats.log"));
}

absl::Status Cluster::WaitForLeader() const {
  std::vector<std::string> urls;
  for (const Node& n : nodes_) {
    if (n.pid > 0) urls.push_back(absl::StrCat("nats://127.0.0.1:", n.client_port));
  }
  std::vector<const char*> servers;
  for (const std::string& u : urls) servers.push_back(u.c_str());
  const auto deadline = std::chrono::steady_clock::now() + kWait;
  std::string last = "no node running";
  while (!servers.empty() && std::chrono::steady_clock::now() < deadline) {
    natsOptions* opts = nullptr;
    natsConnection* nc = nullptr;
    jsCtx* js = nullptr;
    jsAccountInfo* ai = nullptr;
    jsErrCode jerr = static_cast<jsErrCode>(0);
    natsStatus s = natsOptions_Create(&opts);
    if (s == NATS_OK) {
      s = natsOptions_SetServers(opts, servers.data(),
                                 static_cast<int>(servers.size()));
    }
    if (s == NATS_OK) s = natsOptions_SetTimeout(opts, 1000);
    if (s == NATS_OK) s = natsConnection_Connect(&nc, opts);
    if (s == NATS_OK) s = natsConnection_JetStream(&js, nc, nullptr);
    if (s == NATS_OK) s = js_GetAccountInfo(&ai, js, nullptr, &jerr);
    if (s == NATS_OK) {
      jsAccountInfo_Destroy(ai);
    } else {
      last = absl::StrCat(natsStatus_GetText(s), " (JetStream error ",
                          static_cast<int>(jerr), ")");
    }
    jsCtx_Destroy(js);
    natsConnection_Destroy(nc);
    natsOptions_Destroy(opts);
    if (s == NATS_OK) return absl::OkStatus();
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  return absl::UnavailableError(absl::StrCat(
      "the JetStream cluster in ", root_,
      " has no meta leader after 30 s: ", last));
}

std::string Cluster::Url(const std::string& suffix) const {
  std::vector<std::string> hosts;
  for (const Node& n : nodes_) {
    hosts.push_back(absl::StrCat("127.0.0.1:", n.client_port));
  }
  return absl::StrCat("nats://", absl::StrJoin(hosts, ","), suffix);
}

void Cluster::Kill(int node) {
  Node& n = nodes_[node];
  if (n.pid <= 0) return;
  kill(n.pid, SIGKILL);
  int status = 0;
  waitpid(n.pid, &status, 0);
  n.pid = -1;
}

absl::Status Cluster::Restart(int node) {
  if (nodes_[node].pid > 0) return absl::OkStatus();
  RETURN_IF_ERROR(Launch(node));
  return WaitAccepting(node);
}

Cluster::~Cluster() {
  for (int i = 0; i < size(); ++i) Kill(i);
  std::error_code ec;
  if (!root_.empty()) std::filesystem::remove_all(root_, ec);
}

}  // namespace combat::store::jetstream::testing
